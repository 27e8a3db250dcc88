/* bench/slowmode.c — looks for the trigger of the "slow mode": now and then a GEMM
 * measurement runs at about a third of its usual speed for the whole measurement of one
 * pipeline (bench/results/gemm-h100-2026-11-23c.md; issue 24 item 7).
 *
 * The same GEMM is measured in many trials, each after renewing one suspect:
 *   none      nothing renewed (is the slowness a matter of time alone?)
 *   buffers   A, B and D destroyed and created again (memory placement)
 *   pipeline  the pipeline destroyed and created again from the same words (the
 *             driver's compile, its code placement)
 *   context   a new context, pipeline and buffers (everything)
 *   idle      nothing renewed, but the GPU idles --idle-ms first (a long compile)
 *   fragment  buffers of changing sizes (1-700 MB) made and freed, then A, B and D
 *             made again (what bench_gemm_shapes does to device memory row after row:
 *             memory fragmentation and page size)
 * and any of them joined by '+' in that order ("context+idle": a new context, pipeline and
 * buffers, then the idle, then the first dispatches of that pipeline).
 *
 * Two experiments on the GPU's clock governor run before the trials when asked:
 *   --ramp IDLE_MS,TOTAL_MS   the GPU idles IDLE_MS, then submissions of --repeats
 *                             dispatches follow back to back for TOTAL_MS; one line per
 *                             submission: its start (ms after the idle) and its median and
 *                             minimum per dispatch. How long until the kernel runs at its
 *                             speed once the GPU has idled (a compile, a CPU step)?
 *   --gaps G1,G2,...          after a sustained warm-up, for each gap G (ms): 5 submissions,
 *                             each after the host sleeps G ms; one line per submission.
 *                             How short an idle gap already drops the clock?
 * (--modes none --trials 1 keeps the trials short when only these are wanted.)
 * A trial: a sustained warm-up (--warmup-ms, batches of dispatches), then three timed
 * submissions of --repeats dispatches; the trial's time is the median of the best
 * submission. A trial slower than 1.6x the best trial of its mode is "slow".
 *
 *   bench_slowmode [--shape M,N,K] [--types f16,f32] [--variant auto|coopmat2|khr|simt]
 *                  [--modes none,buffers,pipeline,context,idle,fragment] [--trials N]
 *                  [--repeats N] [--warmup-ms MS] [--idle-ms MS] [--ramp IDLE_MS,TOTAL_MS]
 *                  [--gaps G1,G2,...]
 *
 * Output: one line per trial ("trial MODE I us TFLOP/s at T s; pipeline MS ms": the
 * latest pipeline create, a first compile when neither spvgen's nor the driver's cache
 * holds it), then per mode the
 * count of slow trials and the spread. Results go to bench/results/. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slow_trials.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"
#include "warm_up.h"

typedef struct setup {
  spvgen_vk_context *ctx;
  spvgen_kernel kernel;
  spvgen_vk_pipeline *pipe;
  spvgen_vk_buffer *buf[3];
  uint64_t bytes[3];
  double pipeline_ms; /* the last pipeline create (the driver's compile, or its cache) */
} setup;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts); /* comparable with nvidia-smi's timestamps */
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned ms) {
  struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static spvgen_status make_buffers(setup *s, const spvgen_gemm_desc *d) {
  size_t in_a = d->a_type == SPVGEN_COMPONENT_S8 ? 1 : 2, in_b = in_a;
  size_t out = (d->out_type == SPVGEN_COMPONENT_F32 || d->out_type == SPVGEN_COMPONENT_S32) ? 4 : 2;
  s->bytes[0] = (uint64_t)d->m * d->k * in_a;
  s->bytes[1] = (uint64_t)d->k * d->n * in_b;
  s->bytes[2] = (uint64_t)d->m * d->n * out;
  /* whole 32-bit words: the kernels read 16-bit operands in pairs (the binding's minimum
   * size, spvgen_vk_pipeline_binding_min_size, is rounded up to 4 bytes) */
  for (int i = 0; i < 3; i++) s->bytes[i] = (s->bytes[i] + 3u) & ~3ull;
  for (int i = 0; i < 3; i++) {
    spvgen_status st = spvgen_vk_buffer_create(s->ctx, s->bytes[i], 0, &s->buf[i]);
    if (st != SPVGEN_OK) return st;
    /* Small values in every element (0x3c00 f16 pairs, or s8 ones): the GEMM runs on real
     * data; its answer is not checked here (bench_gemm and the tests do that). */
    st = spvgen_vk_buffer_fill(s->ctx, s->buf[i], 0, s->bytes[i] & ~3ull, i == 2 ? 0u : 0x2c002c00u);
    if (st != SPVGEN_OK) return st;
  }
  return SPVGEN_OK;
}

/* "fragment": what a benchmark of many shapes does to device memory before a row's own
 * buffers: a sequence of differently sized buffers (1 MB to ~700 MB, a fixed pseudo-random
 * sequence per trial), every other one kept while the next are made, then all freed. */
static spvgen_status fragment(setup *s, unsigned trial) {
  enum { N = 24 };
  spvgen_vk_buffer *b[N] = {0};
  uint64_t x = 0x9e3779b97f4a7c15ull * (trial + 1);
  spvgen_status st = SPVGEN_OK;
  for (int i = 0; i < N && st == SPVGEN_OK; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    uint64_t bytes = ((1ull << 20) + x % (700ull << 20)) & ~3ull;
    st = spvgen_vk_buffer_create(s->ctx, bytes, 0, &b[i]);
    if (st == SPVGEN_OK && (i & 1)) { /* odd ones freed at once: holes between the kept */
      spvgen_vk_buffer_destroy(b[i]);
      b[i] = NULL;
    }
  }
  for (int i = 0; i < N; i++) spvgen_vk_buffer_destroy(b[i]);
  return st;
}

static void drop_buffers(setup *s) {
  for (int i = 0; i < 3; i++) {
    spvgen_vk_buffer_destroy(s->buf[i]);
    s->buf[i] = NULL;
  }
}

static spvgen_status open_setup(setup *s, const spvgen_gemm_desc *d, char *msg, size_t size) {
  memset(s, 0, sizeof *s);
  spvgen_status st = spvgen_vk_create(NULL, &s->ctx, msg, size);
  if (st != SPVGEN_OK) return st;
  st = spvgen_gemm(d, spvgen_vk_caps(s->ctx), &s->kernel, msg, size);
  if (st != SPVGEN_OK) return st;
  double t0 = seconds();
  st = spvgen_vk_pipeline_create_kernel(s->ctx, &s->kernel, NULL, &s->pipe);
  s->pipeline_ms = (seconds() - t0) * 1e3;
  if (st == SPVGEN_OK) st = make_buffers(s, d);
  if (st != SPVGEN_OK) snprintf(msg, size, "%s", spvgen_vk_error(s->ctx));
  return st;
}

static void close_setup(setup *s) {
  spvgen_kernel_free(&s->kernel);
  spvgen_vk_destroy(s->ctx);
  memset(s, 0, sizeof *s);
}

/* One trial's time per dispatch (ns): warm-up, then the best of three submissions'
 * medians. */
static spvgen_status time_trial(setup *s, uint32_t repeats, uint32_t warmup_ms, double *ns) {
  spvgen_vk_dispatch_desc *dd = calloc(repeats, sizeof *dd);
  uint64_t *t = calloc(repeats, sizeof *t);
  double *sorted = calloc(repeats, sizeof *sorted);
  spvgen_status st = SPVGEN_ERROR_OUT_OF_MEMORY;
  if (dd && t && sorted) {
    for (uint32_t i = 0; i < repeats; i++) {
      dd[i].pipeline = s->pipe;
      dd[i].buffers = s->buf;
      dd[i].buffer_count = 3;
      memcpy(dd[i].groups, s->kernel.info.groups, sizeof dd[i].groups);
    }
    warm_up_info w;
    st = warm_up_run(s->ctx, dd, repeats, warmup_ms, t, &w);
    double best = 0;
    for (int sub = 0; sub < 3 && st == SPVGEN_OK; sub++) {
      st = spvgen_vk_run(s->ctx, dd, repeats, t);
      for (uint32_t i = 0; i < repeats; i++) sorted[i] = (double)t[i];
      qsort(sorted, repeats, sizeof *sorted, cmp_double);
      double med = sorted[repeats / 2];
      if (sub == 0 || med < best) best = med;
    }
    *ns = best;
  }
  free(dd);
  free(t);
  free(sorted);
  return st;
}

/* One submission of `repeats` dispatches: the median and minimum per dispatch (ns). */
static spvgen_status one_submission(setup *s, spvgen_vk_dispatch_desc *dd, uint64_t *t, double *sorted,
                                    uint32_t repeats, double *med, double *min) {
  spvgen_status st = spvgen_vk_run(s->ctx, dd, repeats, t);
  if (st != SPVGEN_OK) return st;
  for (uint32_t i = 0; i < repeats; i++) sorted[i] = (double)t[i];
  qsort(sorted, repeats, sizeof *sorted, cmp_double);
  *med = sorted[repeats / 2];
  *min = sorted[0];
  return SPVGEN_OK;
}

/* --ramp and --gaps (the comment at the top of this file). */
static spvgen_status clock_experiments(setup *s, uint32_t repeats, uint32_t warmup_ms, const char *ramp,
                                       const char *gaps) {
  spvgen_vk_dispatch_desc *dd = calloc(repeats, sizeof *dd);
  uint64_t *t = calloc(repeats, sizeof *t);
  double *sorted = calloc(repeats, sizeof *sorted);
  spvgen_status st = dd && t && sorted ? SPVGEN_OK : SPVGEN_ERROR_OUT_OF_MEMORY;
  for (uint32_t i = 0; dd && i < repeats; i++) {
    dd[i].pipeline = s->pipe;
    dd[i].buffers = s->buf;
    dd[i].buffer_count = 3;
    memcpy(dd[i].groups, s->kernel.info.groups, sizeof dd[i].groups);
  }
  unsigned idle_ms = 0, total_ms = 0;
  if (st == SPVGEN_OK && ramp && sscanf(ramp, "%u,%u", &idle_ms, &total_ms) == 2) {
    sleep_ms(idle_ms);
    const double t0 = seconds();
    printf("ramp after %u ms idle: submission start ms, median us, min us per dispatch (%u dispatches each)\n",
           idle_ms, repeats);
    while (st == SPVGEN_OK && (seconds() - t0) * 1e3 < total_ms) {
      double at = (seconds() - t0) * 1e3, med = 0, min = 0;
      st = one_submission(s, dd, t, sorted, repeats, &med, &min);
      if (st == SPVGEN_OK) printf("ramp %9.1f %10.1f %10.1f\n", at, med / 1e3, min / 1e3);
    }
  }
  if (st == SPVGEN_OK && gaps) {
    warm_up_info w;
    st = warm_up_run(s->ctx, dd, repeats, warmup_ms, t, &w);
    char list[256];
    snprintf(list, sizeof list, "%s", gaps);
    char *save = NULL;
    for (char *g = strtok_r(list, ",", &save); g && st == SPVGEN_OK; g = strtok_r(NULL, ",", &save)) {
      unsigned gap = (unsigned)strtoul(g, NULL, 10);
      for (int i = 0; i < 5 && st == SPVGEN_OK; i++) {
        double med = 0, min = 0;
        sleep_ms(gap);
        st = one_submission(s, dd, t, sorted, repeats, &med, &min);
        if (st == SPVGEN_OK) printf("gap %5u ms submission %d: median %10.1f us, min %10.1f us\n", gap, i, med / 1e3, min / 1e3);
      }
    }
  }
  fflush(stdout);
  free(dd);
  free(t);
  free(sorted);
  return st;
}

static bool parse_shape(const char *s, spvgen_gemm_desc *d) {
  return sscanf(s, "%u,%u,%u", &d->m, &d->n, &d->k) == 3 && d->m && d->n && d->k;
}

static bool parse_types(const char *s, spvgen_gemm_desc *d) {
  if (!strcmp(s, "f16,f32")) {
    d->acc_type = d->out_type = SPVGEN_COMPONENT_F32;
  } else if (!strcmp(s, "f16,f16")) {
    d->acc_type = d->out_type = SPVGEN_COMPONENT_F16;
  } else if (!strcmp(s, "s8,s32")) {
    d->a_type = d->b_type = SPVGEN_COMPONENT_S8;
    d->acc_type = d->out_type = SPVGEN_COMPONENT_S32;
  } else {
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = d.n = d.k = 4096;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  const char *modes = "none,buffers,pipeline,context,idle";
  unsigned trials = 40, repeats = 20, warmup_ms = 150, idle_ms = 3000;
  const char *ramp = NULL, *gaps = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    bool ok = v != NULL;
    if (!strcmp(a, "--shape")) ok = ok && parse_shape(v, &d);
    else if (!strcmp(a, "--types")) ok = ok && parse_types(v, &d);
    else if (!strcmp(a, "--variant")) ok = ok && spvgen_gemm_variant_parse(v, &d.variant);
    else if (!strcmp(a, "--modes")) modes = v;
    else if (!strcmp(a, "--trials")) ok = ok && sscanf(v, "%u", &trials) == 1 && trials > 0;
    else if (!strcmp(a, "--repeats")) ok = ok && sscanf(v, "%u", &repeats) == 1 && repeats > 0;
    else if (!strcmp(a, "--warmup-ms")) ok = ok && sscanf(v, "%u", &warmup_ms) == 1;
    else if (!strcmp(a, "--idle-ms")) ok = ok && sscanf(v, "%u", &idle_ms) == 1;
    else if (!strcmp(a, "--ramp")) {
      unsigned x, y;
      ok = ok && sscanf(v, "%u,%u", &x, &y) == 2;
      ramp = v;
    } else if (!strcmp(a, "--gaps")) {
      ok = ok && strspn(v, "0123456789,") == strlen(v) && *v;
      gaps = v;
    } else ok = false;
    if (!ok) {
      fprintf(stderr, "bench_slowmode: bad argument '%s' (see the comment at the top of bench/slowmode.c)\n", a);
      return 2;
    }
    i++;
  }
  char msg[1024] = "";
  setup s;
  if (open_setup(&s, &d, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "bench_slowmode: %s\n", msg);
    close_setup(&s);
    return 1;
  }
  const double flop = 2.0 * d.m * d.n * d.k, start = seconds();
  printf("# %s, %ux%ux%u, plan of %zu words; trials %u, repeats %u, warm-up %u ms; start %.3f (epoch s)\n",
         spvgen_vk_caps(s.ctx)->name, d.m, d.n, d.k, s.kernel.word_count, trials, repeats, warmup_ms, start);
  int rc = 0;
  if ((ramp || gaps) && clock_experiments(&s, repeats, warmup_ms, ramp, gaps) != SPVGEN_OK) {
    fprintf(stderr, "bench_slowmode: %s\n", spvgen_vk_error(s.ctx));
    close_setup(&s);
    return 1;
  }
  char list[256];
  snprintf(list, sizeof list, "%s", modes);
  char *save = NULL; /* strtok_r: the Vulkan loader calls strtok itself */
  for (char *mode = strtok_r(list, ",", &save); mode; mode = strtok_r(NULL, ",", &save)) {
    double *t = calloc(trials, sizeof *t);
    if (!t) return 1;
    spvgen_status st = SPVGEN_OK;
    for (unsigned i = 0; i < trials && st == SPVGEN_OK; i++) {
      /* A mode is one renewal or several joined by '+' ("context+idle": a new context,
       * then the GPU idles before the first dispatch of its pipeline). */
      char parts[64];
      snprintf(parts, sizeof parts, "%s", mode);
      char *psave = NULL;
      for (char *p = strtok_r(parts, "+", &psave); p && st == SPVGEN_OK; p = strtok_r(NULL, "+", &psave)) {
        if (!strcmp(p, "buffers")) {
          drop_buffers(&s);
          st = make_buffers(&s, &d);
        } else if (!strcmp(p, "pipeline")) {
          spvgen_vk_pipeline_destroy(s.pipe);
          s.pipe = NULL;
          double t0 = seconds();
          st = spvgen_vk_pipeline_create_kernel(s.ctx, &s.kernel, NULL, &s.pipe);
          s.pipeline_ms = (seconds() - t0) * 1e3;
        } else if (!strcmp(p, "context")) {
          close_setup(&s);
          st = open_setup(&s, &d, msg, sizeof msg);
        } else if (!strcmp(p, "fragment")) {
          drop_buffers(&s);
          st = fragment(&s, i);
          if (st == SPVGEN_OK) st = make_buffers(&s, &d);
        } else if (!strcmp(p, "idle")) {
          sleep_ms(idle_ms);
        } else if (strcmp(p, "none")) {
          fprintf(stderr, "bench_slowmode: unknown mode '%s'\n", p);
          return 2;
        }
      }
      if (st == SPVGEN_OK) st = time_trial(&s, repeats, warmup_ms, &t[i]);
      if (st != SPVGEN_OK) {
        fprintf(stderr, "bench_slowmode: %s trial %u: %s\n", mode, i, s.ctx ? spvgen_vk_error(s.ctx) : msg);
        rc = 1;
        break;
      }
      printf("trial %s %u %.1f us %.1f TFLOP/s at %.3f s; pipeline %.1f ms\n", mode, i, t[i] / 1e3, flop / t[i] / 1e3,
             seconds() - start, s.pipeline_ms);
      fflush(stdout);
    }
    double best, worst;
    unsigned slow = slow_trials(mode, t, trials, &best, &worst);
    printf("summary %s: %u trials, %u slow (> 1.6x the best), best %.1f TFLOP/s, worst %.1f\n", mode,
           trials, slow, best > 0 ? flop / best / 1e3 : 0.0, worst > 0 ? flop / worst / 1e3 : 0.0);
    free(t);
    if (rc) break;
  }
  close_setup(&s);
  return rc;
}
