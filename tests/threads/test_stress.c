/* tests/threads/test_stress.c — the runner under threads, as a framework with a thread
 * pool uses it: many contexts created, used and destroyed at once, one kernel shared
 * read-only by every thread, and one context shared by two threads under the caller's
 * lock (what vk.h allows).
 *
 *  - 8 worker threads, SPVGEN_STRESS_ROUNDS rounds each (default 4): spvgen_vk_create on
 *    the test device, a pipeline from the kernel the main thread emitted (its words and
 *    info are read by every thread at once), buffers, upload, dispatch, download, a check
 *    of every output element against the CPU, then destroy (the pipeline and buffers by
 *    hand on even rounds, through spvgen_vk_destroy on odd ones).
 *    Every other round runs the dispatch as an async submission (spvgen_vk_submit, then
 *    spvgen_vk_wait on its ticket); each round creates the pipeline twice (the second a
 *    kernel cache hit); every context reads and, at its destruction, writes the same
 *    disk cache file (atomic renames racing), which must end valid.
 *  - 2 threads share the main thread's context and one pipeline on it, each call under a
 *    mutex, with their own buffers.
 * The kernel is a SIMT f32 GEMM (every Vulkan 1.1 device runs it) of an odd shape, so
 * edges are checked too. The same binary runs under ThreadSanitizer (tsan preset, 2
 * rounds) and ASan (asan preset). Without a device it skips. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "spvgen/gemm.h"
#include "spvgen/kernel.h"
#include "spvgen/vk.h"

#define WORKERS 8
#define SHARERS 2
#define M 37
#define N 29
#define K 45

static int stress_rounds(void) {
  const char *s = getenv("SPVGEN_STRESS_ROUNDS");
  int n = s ? atoi(s) : 4;
  return n < 1 ? 1 : n > 64 ? 64 : n;
}

/* What every thread reads and nobody writes once the threads run. */
static spvgen_kernel shared_kernel;
static float host_a[M * K], host_b[K * N], expected[M * N];

typedef struct job {
  int index, rounds, done, failures;
  char first_failure[1600];
  /* The shared context (sharer threads only). */
  spvgen_vk_context *ctx;
  spvgen_vk_pipeline *pipe;
  pthread_mutex_t *lock;
} job;

#define JOB_FAIL(j, ...)                                                                 \
  do {                                                                                   \
    if (!(j)->failures++) snprintf((j)->first_failure, sizeof (j)->first_failure, __VA_ARGS__); \
  } while (0)

/* Checks every element of d against the CPU result; false after recording the first
 * mismatch. */
static bool check_result(job *j, int round, const float *d) {
  for (int i = 0; i < M * N; i++) {
    float tol = 1e-4f * (1.0f + fabsf(expected[i]));
    if (!(fabsf(d[i] - expected[i]) <= tol)) {
      JOB_FAIL(j, "thread %d round %d: D[%d][%d] = %.7g, expected %.7g", j->index, round,
               i / N, i % N, (double)d[i], (double)expected[i]);
      return false;
    }
  }
  return true;
}

/* Runs the GEMM once, synchronously (round even) or as an async submission waited for
 * by its ticket (round odd: the ring, the timeline). */
static spvgen_status dispatch_once(spvgen_vk_context *ctx, spvgen_vk_pipeline *pipe,
                                   spvgen_vk_buffer *buf[3], int round) {
  const spvgen_kernel_info *info = &shared_kernel.info;
  if (round % 2 == 0)
    return spvgen_vk_dispatch(ctx, pipe, buf, 3, NULL, 0, info->groups[0], info->groups[1],
                              info->groups[2], NULL);
  spvgen_vk_buffer_range r[3] = {{.buffer = buf[0]}, {.buffer = buf[1]}, {.buffer = buf[2]}};
  spvgen_vk_record_desc d = {.pipeline = pipe, .buffers = r, .buffer_count = 3,
                             .groups = {info->groups[0], info->groups[1], info->groups[2]}};
  spvgen_vk_submit_desc sd = {.dispatches = &d, .count = 1};
  uint64_t ticket = 0;
  spvgen_status st = spvgen_vk_submit(ctx, &sd, &ticket);
  return st == SPVGEN_OK ? spvgen_vk_wait(ctx, ticket) : st;
}

/* Uploads A and B, runs the GEMM, downloads D and checks it. */
static bool run_once(job *j, int round, spvgen_vk_context *ctx, spvgen_vk_pipeline *pipe,
                     spvgen_vk_buffer *buf[3], float *d) {
  memset(d, 0, sizeof(float) * M * N);
  if (spvgen_vk_buffer_upload(ctx, buf[0], 0, host_a, sizeof host_a) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, buf[1], 0, host_b, sizeof host_b) != SPVGEN_OK ||
      spvgen_vk_buffer_fill(ctx, buf[2], 0, sizeof(float) * M * N, 0x7fc00000u) != SPVGEN_OK ||
      dispatch_once(ctx, pipe, buf, round) != SPVGEN_OK ||
      spvgen_vk_buffer_download(ctx, buf[2], 0, d, sizeof(float) * M * N) != SPVGEN_OK) {
    JOB_FAIL(j, "thread %d round %d: %s", j->index, round, spvgen_vk_error(ctx));
    return false;
  }
  return check_result(j, round, d);
}

static void *worker_main(void *arg) {
  job *j = arg;
  float *d = malloc(sizeof(float) * M * N);
  if (!d) {
    JOB_FAIL(j, "out of memory");
    return NULL;
  }
  for (int round = 0; round < j->rounds; round++) {
    spvgen_vk_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.device_name = test_device_name();
    char msg[1024] = "";
    spvgen_vk_context *ctx = NULL;
    if (spvgen_vk_create(&desc, &ctx, msg, sizeof msg) != SPVGEN_OK) {
      JOB_FAIL(j, "thread %d round %d: spvgen_vk_create: %s", j->index, round, msg);
      break;
    }
    spvgen_vk_pipeline *pipe = NULL, *again = NULL;
    spvgen_vk_buffer *buf[3] = {NULL, NULL, NULL};
    /* The second create of the same words is the kernel cache's hit. */
    bool ok = spvgen_vk_pipeline_create_kernel(ctx, &shared_kernel, NULL, &again) == SPVGEN_OK &&
              spvgen_vk_pipeline_create_kernel(ctx, &shared_kernel, NULL, &pipe) == SPVGEN_OK &&
              spvgen_vk_buffer_create(ctx, sizeof host_a, 0, &buf[0]) == SPVGEN_OK &&
              spvgen_vk_buffer_create(ctx, sizeof host_b, 0, &buf[1]) == SPVGEN_OK &&
              spvgen_vk_buffer_create(ctx, sizeof(float) * M * N, 0, &buf[2]) == SPVGEN_OK;
    if (!ok) JOB_FAIL(j, "thread %d round %d: %s", j->index, round, spvgen_vk_error(ctx));
    else if (run_once(j, round, ctx, pipe, buf, d)) j->done++;
    spvgen_vk_kernel_cache_stats cs;
    spvgen_vk_kernel_cache_stats_get(ctx, &cs);
    if (ok && (cs.compiled != 1 || cs.reused != 1))
      JOB_FAIL(j, "thread %d round %d: %llu compiled, %llu reused; expected 1 and 1", j->index, round,
               (unsigned long long)cs.compiled, (unsigned long long)cs.reused);
    spvgen_vk_pipeline_destroy(again);
    if (round % 2 == 0) { /* by hand; odd rounds leave them to spvgen_vk_destroy */
      spvgen_vk_pipeline_destroy(pipe);
      for (int b = 0; b < 3; b++) spvgen_vk_buffer_destroy(buf[b]);
    }
    spvgen_vk_destroy(ctx);
    if (!ok) break;
  }
  free(d);
  return NULL;
}

static void *sharer_main(void *arg) {
  job *j = arg;
  float *d = malloc(sizeof(float) * M * N);
  spvgen_vk_buffer *buf[3] = {NULL, NULL, NULL};
  if (!d) {
    JOB_FAIL(j, "out of memory");
    return NULL;
  }
  pthread_mutex_lock(j->lock);
  bool ok = spvgen_vk_buffer_create(j->ctx, sizeof host_a, 0, &buf[0]) == SPVGEN_OK &&
            spvgen_vk_buffer_create(j->ctx, sizeof host_b, 0, &buf[1]) == SPVGEN_OK &&
            spvgen_vk_buffer_create(j->ctx, sizeof(float) * M * N, 0, &buf[2]) == SPVGEN_OK;
  if (!ok) JOB_FAIL(j, "sharer %d: %s", j->index, spvgen_vk_error(j->ctx));
  pthread_mutex_unlock(j->lock);
  for (int round = 0; ok && round < 2 * j->rounds; round++) {
    pthread_mutex_lock(j->lock);
    bool ran = run_once(j, round, j->ctx, j->pipe, buf, d);
    pthread_mutex_unlock(j->lock);
    if (!ran) break;
    j->done++;
  }
  pthread_mutex_lock(j->lock);
  for (int b = 0; b < 3; b++) spvgen_vk_buffer_destroy(buf[b]);
  pthread_mutex_unlock(j->lock);
  free(d);
  return NULL;
}

static void test_eight_threads_create_dispatch_and_destroy_contexts(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  char msg[1024] = "";
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_t threads[WORKERS + SHARERS];
  job jobs[WORKERS + SHARERS];
  int started = 0;
  spvgen_vk_pipeline *shared_pipe = NULL;
  const int rounds = stress_rounds();

  spvgen_gemm_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.m = M;
  desc.n = N;
  desc.k = K;
  desc.a_type = desc.b_type = desc.acc_type = desc.out_type = SPVGEN_COMPONENT_F32;
  desc.variant = SPVGEN_GEMM_SIMT;
  spvgen_status st = spvgen_gemm(&desc, spvgen_vk_caps(ctx), &shared_kernel, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    CHECK_MSG(0, "spvgen_gemm: %s", msg);
    goto done;
  }
  for (int i = 0; i < M * K; i++) host_a[i] = gpu_rand_f32();
  for (int i = 0; i < K * N; i++) host_b[i] = gpu_rand_f32();
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)host_a[r * K + k] * host_b[k * N + c];
      expected[r * N + c] = (float)s;
    }
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &shared_kernel, NULL, &shared_pipe));

  for (int t = 0; t < WORKERS + SHARERS; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].index = t;
    jobs[t].rounds = rounds;
    jobs[t].ctx = ctx;
    jobs[t].pipe = shared_pipe;
    jobs[t].lock = &lock;
    if (pthread_create(&threads[t], NULL, t < WORKERS ? worker_main : sharer_main, &jobs[t]) != 0) {
      CHECK_MSG(0, "pthread_create failed for thread %d", t);
      break;
    }
    started++;
  }
  for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
  for (int t = 0; t < started; t++) {
    CHECK_MSG(jobs[t].failures == 0, "thread %d: %d failures; the first: %s", t,
              jobs[t].failures, jobs[t].first_failure);
    CHECK_EQ_U64(jobs[t].done, (uint64_t)(t < WORKERS ? rounds : 2 * rounds));
  }
  {
    /* The disk cache file every context wrote at once is one good file. */
    spvgen_vk_kernel_cache_stats cs;
    spvgen_vk_kernel_cache_stats_get(ctx, &cs);
    if (cs.path[0]) {
      char why[1024];
      CHECK_MSG(spvgen_vk_kernel_cache_file_check(cs.path, NULL, NULL, why, sizeof why) == SPVGEN_OK, "%s", why);
    }
  }
done:
  spvgen_kernel_free(&shared_kernel);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_eight_threads_create_dispatch_and_destroy_contexts),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
