/* tests/threads/test_threads.c — spvgen from several threads at once, as an embedded JIT
 * uses it: what builder.h, gemm.h, check.h and vk.h say is safe.
 *
 *  - 4 emitter threads, each with its own modules: GEMM kernels through spvgen_gemm (a
 *    different desc per thread and iteration, SIMT on the "vulkan13" preset and the
 *    cooperative variants on "h100"), spvgen_gemm_plan / spvgen_gemm_emit into a module
 *    the thread reuses, and hand-built modules; every kernel is validated
 *    (spvgen_validate), read back (spvgen_kernel_reflect) and must equal, word for word,
 *    what the main thread emitted for the same input before the threads started.
 *  - 2 runner threads, each with its own context on the test device (lavapipe in CI),
 *    created on the threads with no call on the main thread first (vk.h: spvgen's
 *    loader-level calls take a process-wide lock): build a vector add, create its
 *    pipeline, run it several times and check the sums.
 *
 *  - one context compiling a batch of pipelines on four threads of its own
 *    (spvgen_vk_pipelines_create).
 *
 * The same binary runs in the ordinary build (answers and determinism) and in the tsan
 * preset (scripts/test.sh), where ThreadSanitizer reports any data race in spvgen's code.
 * Without a Vulkan device the runner threads are skipped and the rest still runs.
 * tests/threads/test_stress.c has the long version (8 threads, many rounds).
 *
 * Environment: SPVGEN_THREADS_ROUNDS=N (iterations per emitter thread, default 6).
 * SPVGEN_THREADS_CANARY=1 adds a test that breaks vk.h's rule on purpose: two threads
 * call the runner on one context without a lock. The tsan build's canary
 * (tests/CMakeLists.txt) runs it and must see ThreadSanitizer report the race in
 * spvgen's runner code, which shows that tests/tsan.supp hides no race with a spvgen
 * frame and that the tsan pass can fail. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/check.h"
#include "spvgen/elementwise.h"
#include "spvgen/gemm.h"
#include "spvgen/kernel.h"
#include "spvgen/vk.h"

#define EMITTERS 4
#define RUNNERS 2
#define MAX_ROUNDS 32

static int rounds(void) {
  const char *s = getenv("SPVGEN_THREADS_ROUNDS");
  int n = s ? atoi(s) : 6;
  return n < 1 ? 1 : n > MAX_ROUNDS ? MAX_ROUNDS : n;
}

/* ---------------------------------------------------------------- inputs ---- */

/* The GEMM of thread t, round r: shapes, types and variants differ between threads. */
static void gemm_input(int t, int r, spvgen_gemm_desc *d, const char **preset) {
  memset(d, 0, sizeof *d);
  d->m = 32 + 16 * (uint32_t)t + (uint32_t)r;
  d->n = 48 + 8 * (uint32_t)r;
  d->k = 64 + 32 * (uint32_t)t;
  switch ((t + r) % 4) {
  case 0: *preset = "vulkan13"; d->variant = SPVGEN_GEMM_SIMT; break;
  case 1:
    *preset = "vulkan13";
    d->variant = SPVGEN_GEMM_SIMT;
    d->acc_type = SPVGEN_COMPONENT_F32;
    d->out_type = SPVGEN_COMPONENT_F32;
    d->beta = 0.5f;
    break;
  case 2: *preset = "h100"; d->variant = SPVGEN_GEMM_COOPMAT_KHR; d->acc_type = SPVGEN_COMPONENT_F32; break;
  default: *preset = "h100"; d->variant = SPVGEN_GEMM_COOPMAT2; break;
  }
}

/* A hand-built kernel of thread t, round r: out[i] = in[i] * (t + 1) + r, local size
 * 32 * (t + 1). */
static void build_scale(spvgen_module *m, int t, int r) {
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t pu = 0;
  uint32_t in = spvgen_storage_buffer(m, u32, 0, 0, true, &pu);
  uint32_t out = spvgen_storage_buffer(m, u32, 0, 1, false, NULL);
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  spvgen_compute_main(m, "main", 32 * (uint32_t)(t + 1), 1, 1);
  uint32_t lane = 0;
  uint32_t i = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, gid), &lane, 1);
  uint32_t idx_in[2] = {spvgen_const_u32(m, 0), i};
  uint32_t x = spvgen_load(m, u32, spvgen_access_chain(m, pu, in, idx_in, 2));
  uint32_t y = spvgen_op_i_add(m, u32, spvgen_op_i_mul(m, u32, x, spvgen_const_u32(m, (uint32_t)t + 1)),
                               spvgen_const_u32(m, (uint32_t)r));
  spvgen_store(m, spvgen_access_chain(m, pu, out, idx_in, 2), y);
  spvgen_function_end(m);
}

/* ------------------------------------------------------------- reference ---- */

typedef struct words_copy {
  uint32_t *words;
  size_t count;
} words_copy;

static words_copy expected_gemm[EMITTERS][MAX_ROUNDS];
static words_copy expected_scale[EMITTERS][MAX_ROUNDS];

static words_copy copy_of(const uint32_t *w, size_t n) {
  words_copy c = {malloc(n * sizeof *w), n};
  if (c.words) memcpy(c.words, w, n * sizeof *w);
  else c.count = 0;
  return c;
}

static bool same(const words_copy *c, const uint32_t *w, size_t n) {
  return c->words && c->count == n && !memcmp(c->words, w, n * sizeof *w);
}

/* ------------------------------------------------------------- emitters ---- */

typedef struct emitter_job {
  int index, rounds;
  int kernels, failures;
  char first_failure[1600];
} emitter_job;

#define EMIT_FAIL(job, ...)                                                                   \
  do {                                                                                        \
    if (!(job)->failures++) snprintf((job)->first_failure, sizeof(job)->first_failure, __VA_ARGS__); \
  } while (0)

static void *emitter_main(void *arg) {
  emitter_job *job = arg;
  int t = job->index;
  spvgen_module *m = spvgen_module_create(NULL); /* reused: reset between kernels */
  char msg[512];
  for (int r = 0; r < job->rounds; r++) {
    spvgen_gemm_desc d;
    const char *preset;
    gemm_input(t, r, &d, &preset);
    spvgen_device_caps caps;
    if (spvgen_caps_preset(preset, &caps) != SPVGEN_OK) {
      EMIT_FAIL(job, "thread %d round %d: no preset %s", t, r, preset);
      continue;
    }
    /* One-shot. */
    spvgen_kernel k;
    memset(&k, 0, sizeof k);
    if (spvgen_gemm(&d, &caps, &k, msg, sizeof msg) != SPVGEN_OK) {
      EMIT_FAIL(job, "thread %d round %d: spvgen_gemm: %s", t, r, msg);
      continue;
    }
    spvgen_validate_options vo = {.env = SPVGEN_ENV_VULKAN_1_3};
    if (spvgen_validate(k.words, k.word_count, &vo, msg, sizeof msg) != SPVGEN_OK)
      EMIT_FAIL(job, "thread %d round %d: the GEMM kernel is invalid: %s", t, r, msg);
    if (!same(&expected_gemm[t][r], k.words, k.word_count))
      EMIT_FAIL(job, "thread %d round %d: spvgen_gemm gave other words than on the main thread", t, r);
    job->kernels++;
    /* Plan + emit into the thread's module: the same words. */
    spvgen_gemm_config plan;
    spvgen_kernel_info info;
    memset(&info, 0, sizeof info);
    spvgen_module_reset(m, NULL);
    const uint32_t *w = NULL;
    size_t n = 0;
    if (spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) != SPVGEN_OK ||
        spvgen_gemm_emit(m, &plan, &info) != SPVGEN_OK ||
        spvgen_module_finish(m, &w, &n) != SPVGEN_OK) {
      EMIT_FAIL(job, "thread %d round %d: plan/emit: %s", t, r, msg[0] ? msg : spvgen_module_error(m));
    } else if (!same(&expected_gemm[t][r], w, n)) {
      EMIT_FAIL(job, "thread %d round %d: spvgen_gemm_emit gave other words than spvgen_gemm", t, r);
    }
    spvgen_kernel_free(&k);
    /* A hand-built module. */
    spvgen_module_reset(m, NULL);
    build_scale(m, t, r);
    if (spvgen_module_finish(m, &w, &n) != SPVGEN_OK) {
      EMIT_FAIL(job, "thread %d round %d: builder: %s", t, r, spvgen_module_error(m));
      continue;
    }
    if (spvgen_validate(w, n, NULL, msg, sizeof msg) != SPVGEN_OK)
      EMIT_FAIL(job, "thread %d round %d: the built module is invalid: %s", t, r, msg);
    spvgen_kernel_info ri;
    memset(&ri, 0, sizeof ri);
    if (spvgen_kernel_reflect(w, n, &ri, msg, sizeof msg) != SPVGEN_OK || ri.binding_count != 2 ||
        ri.local_size[0] != 32u * (uint32_t)(t + 1))
      EMIT_FAIL(job, "thread %d round %d: spvgen_kernel_reflect: %s", t, r, msg);
    if (!same(&expected_scale[t][r], w, n))
      EMIT_FAIL(job, "thread %d round %d: the built module differs from the main thread's", t, r);
    job->kernels++;
  }
  spvgen_module_destroy(m);
  return NULL;
}

static void test_emitters_on_four_threads_give_the_main_threads_words(void) {
  int n_rounds = rounds();
  char msg[1024];
  /* The reference, on this thread alone. */
  spvgen_module *m = spvgen_module_create(NULL);
  for (int t = 0; t < EMITTERS; t++) {
    for (int r = 0; r < n_rounds; r++) {
      spvgen_gemm_desc d;
      const char *preset;
      gemm_input(t, r, &d, &preset);
      spvgen_device_caps caps;
      CHECK_EQ_U64(spvgen_caps_preset(preset, &caps), SPVGEN_OK);
      spvgen_kernel k;
      memset(&k, 0, sizeof k);
      spvgen_status st = spvgen_gemm(&d, &caps, &k, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "thread %d round %d: spvgen_gemm: %s", t, r, msg);
      if (st == SPVGEN_OK) expected_gemm[t][r] = copy_of(k.words, k.word_count);
      spvgen_kernel_free(&k);
      spvgen_module_reset(m, NULL);
      build_scale(m, t, r);
      size_t count = 0;
      const uint32_t *w = check_module(m, &count);
      if (w) expected_scale[t][r] = copy_of(w, count);
    }
  }
  spvgen_module_destroy(m);

  pthread_t threads[EMITTERS];
  emitter_job jobs[EMITTERS];
  int started = 0;
  for (int t = 0; t < EMITTERS; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].index = t;
    jobs[t].rounds = n_rounds;
    if (pthread_create(&threads[t], NULL, emitter_main, &jobs[t]) != 0) {
      CHECK_MSG(0, "pthread_create failed for emitter %d", t);
      break;
    }
    started++;
  }
  for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
  for (int t = 0; t < started; t++) {
    CHECK_MSG(jobs[t].failures == 0, "%d failures; the first: %s", jobs[t].failures, jobs[t].first_failure);
    CHECK_EQ_U64(jobs[t].kernels, 2 * n_rounds);
  }
  for (int t = 0; t < EMITTERS; t++)
    for (int r = 0; r < n_rounds; r++) {
      free(expected_gemm[t][r].words);
      free(expected_scale[t][r].words);
    }
}

/* --------------------------------------------------------------- runners ---- */

typedef struct runner_job {
  int index;
  int dispatches, failures, skipped;
  char first_failure[1600];
} runner_job;

#define RUN_FAIL(job, ...)                                                          \
  do {                                                                              \
    if (!(job)->failures++) snprintf((job)->first_failure, sizeof (job)->first_failure, __VA_ARGS__); \
  } while (0)

static void *runner_main(void *arg) {
  runner_job *job = arg;
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = test_device_name();
  char msg[1024] = "";
  spvgen_vk_context *ctx = NULL;
  spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE) {
    job->skipped = 1;
    return NULL;
  }
  if (st != SPVGEN_OK) {
    RUN_FAIL(job, "runner %d: spvgen_vk_create: %s", job->index, msg);
    return NULL;
  }
  enum { N = 1024 }; /* whole workgroups of 32 and 64: the kernel has no bounds check */
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *in = NULL, *out = NULL;
  uint32_t *host = malloc(N * sizeof *host), *back = malloc(N * sizeof *back);
  const uint32_t *w = NULL;
  size_t n = 0;
  int t = job->index;
  build_scale(m, t, 7);
  if (!host || !back || spvgen_module_finish(m, &w, &n) != SPVGEN_OK) {
    RUN_FAIL(job, "runner %d: building the kernel: %s", t, spvgen_module_error(m));
    goto done;
  }
  if (spvgen_vk_pipeline_create(ctx, w, n, NULL, NULL, &pipe) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, N * 4, 0, &in) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, N * 4, 0, &out) != SPVGEN_OK) {
    RUN_FAIL(job, "runner %d: %s", t, spvgen_vk_error(ctx));
    goto done;
  }
  for (int round = 0; round < 4; round++) {
    for (uint32_t i = 0; i < N; i++) host[i] = i * 3u + (uint32_t)round * 1000u + (uint32_t)t;
    spvgen_vk_buffer *bufs[2] = {in, out};
    uint32_t local = 32u * (uint32_t)(t + 1), groups = (N + local - 1) / local;
    if (spvgen_vk_buffer_upload(ctx, in, 0, host, N * 4) != SPVGEN_OK ||
        spvgen_vk_buffer_fill(ctx, out, 0, N * 4, 0) != SPVGEN_OK ||
        spvgen_vk_dispatch(ctx, pipe, bufs, 2, NULL, 0, groups, 1, 1, NULL) != SPVGEN_OK ||
        spvgen_vk_buffer_download(ctx, out, 0, back, N * 4) != SPVGEN_OK) {
      RUN_FAIL(job, "runner %d round %d: %s", t, round, spvgen_vk_error(ctx));
      break;
    }
    job->dispatches++;
    for (uint32_t i = 0; i < N; i++)
      if (back[i] != host[i] * (uint32_t)(t + 1) + 7u) {
        RUN_FAIL(job, "runner %d round %d: out[%u] = %u, expected %u", t, round, i, back[i],
                 host[i] * (uint32_t)(t + 1) + 7u);
        break;
      }
  }
done:
  free(host);
  free(back);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_vk_buffer_destroy(in);
  spvgen_vk_buffer_destroy(out);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
  return NULL;
}

static void test_two_runner_contexts_on_two_threads_compute_right(void) {
  /* No spvgen call on this thread first: the threads' spvgen_vk_create calls race for
   * loading libvulkan, which is what the loader lock is for. */
  pthread_t threads[RUNNERS];
  runner_job jobs[RUNNERS];
  int started = 0;
  for (int t = 0; t < RUNNERS; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].index = t;
    if (pthread_create(&threads[t], NULL, runner_main, &jobs[t]) != 0) {
      CHECK_MSG(0, "pthread_create failed for runner %d", t);
      break;
    }
    started++;
  }
  for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
  for (int t = 0; t < started; t++) {
    if (jobs[t].skipped) {
      test_skip("runner %d: no device", t);
      continue;
    }
    CHECK_MSG(jobs[t].failures == 0, "%d failures; the first: %s", jobs[t].failures, jobs[t].first_failure);
    CHECK_EQ_U64(jobs[t].dispatches, 4);
  }
}

/* ------------------------------------------------------------------ canary ---- */

typedef struct shared_job {
  spvgen_vk_context *ctx;
  spvgen_vk_buffer *buffer;
} shared_job;

/* Calls the runner on the shared context again and again, with no lock: what vk.h
 * forbids. The calls are fills at an offset off 4 bytes, which spvgen refuses before it
 * reaches the driver by writing the context's error message: the two threads' writes are
 * a data race in spvgen's own code, which ThreadSanitizer reports whatever the timing.
 * (Valid fills raced inside lavapipe's command pool first, in some runs, and
 * ThreadSanitizer's first report was then a heap-use-after-free there, not the race.) */
static void *shared_main(void *arg) {
  shared_job *job = arg;
  for (int i = 0; i < 20; i++) (void)spvgen_vk_buffer_fill(job->ctx, job->buffer, 2, 4, (uint32_t)i);
  return NULL;
}

static void test_canary_one_context_on_two_threads_without_a_lock(void) {
  if (!getenv("SPVGEN_THREADS_CANARY")) {
    test_skip("SPVGEN_THREADS_CANARY is not set (the tsan build's canary sets it)");
    return;
  }
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = test_device_name();
  char msg[1024] = "";
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(&desc, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    test_skip("no device: %s", msg);
    return;
  }
  shared_job job = {ctx, NULL};
  if (spvgen_vk_buffer_create(ctx, 256, 0, &job.buffer) == SPVGEN_OK) {
    pthread_t a, b;
    int ra = pthread_create(&a, NULL, shared_main, &job);
    int rb = pthread_create(&b, NULL, shared_main, &job);
    if (ra == 0) pthread_join(a, NULL);
    if (rb == 0) pthread_join(b, NULL);
  }
  spvgen_vk_destroy(ctx);
}

/* spvgen_vk_pipelines_create compiles a batch on its own threads (vk.h): eight vector
 * kernels (ops x local sizes) on four threads, all different pipelines, each computing
 * its own answer; under ThreadSanitizer any race between the compile threads and the
 * calling thread's steps shows. */
static void test_batch_create_compiles_on_four_threads(void) {
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = test_device_name();
  desc.no_disk_cache = true;
  char msg[1024] = "";
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(&desc, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    test_skip("no device: %s", msg);
    return;
  }
  enum { N = 8 };
  spvgen_kernel k[N];
  spvgen_vk_pipeline_request rq[N];
  spvgen_vk_pipeline *p[N] = {0};
  memset(k, 0, sizeof k);
  for (int i = 0; i < N; i++) {
    spvgen_elementwise_desc d = {.op = (spvgen_elementwise_op)(i % 2), .local_size = 32u << (i / 2)};
    CHECK_MSG(spvgen_elementwise(&d, spvgen_vk_caps(ctx), &k[i], msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    rq[i] = (spvgen_vk_pipeline_request){k[i].words, k[i].word_count, &k[i].info, NULL};
  }
  CHECK_MSG(spvgen_vk_pipelines_create(ctx, rq, N, 4, p) == SPVGEN_OK, "%s", spvgen_vk_error(ctx));
  spvgen_vk_kernel_cache_stats st;
  spvgen_vk_kernel_cache_stats_get(ctx, &st);
  CHECK_EQ_U64(st.compiled, N);
  spvgen_vk_buffer *b[3] = {0};
  for (int i = 0; i < 3; i++) CHECK(spvgen_vk_buffer_create(ctx, 1024, SPVGEN_VK_BUFFER_HOST_VISIBLE, &b[i]) == SPVGEN_OK);
  if (p[0] && b[0] && b[1] && b[2]) {
    float *x = spvgen_vk_buffer_map(b[0]), *y = spvgen_vk_buffer_map(b[1]), *z = spvgen_vk_buffer_map(b[2]);
    for (int i = 0; i < 256; i++) x[i] = (float)i, y[i] = 2.0f;
    uint32_t n = 256;
    for (int i = 0; i < N; i++) {
      uint32_t groups = n / (32u << (i / 2));
      CHECK_MSG(spvgen_vk_dispatch(ctx, p[i], b, 3, &n, 4, groups, 1, 1, NULL) == SPVGEN_OK, "%s", spvgen_vk_error(ctx));
      CHECK_MSG(z[255] == (i % 2 ? 510.0f : 257.0f), "kernel %d: z[255] = %g", i, (double)z[255]);
    }
  }
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(b[i]);
  for (int i = 0; i < N; i++) spvgen_vk_pipeline_destroy(p[i]);
  for (int i = 0; i < N; i++) spvgen_kernel_free(&k[i]);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_emitters_on_four_threads_give_the_main_threads_words),
      TEST_CASE(test_two_runner_contexts_on_two_threads_compute_right),
      TEST_CASE(test_batch_create_compiles_on_four_threads),
      TEST_CASE(test_canary_one_context_on_two_threads_without_a_lock),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
