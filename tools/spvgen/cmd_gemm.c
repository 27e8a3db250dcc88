/* tools/spvgen/cmd_gemm.c — what the GEMM's commands print beyond the generic ones:
 * `spvgen run gemm` (emit it for this machine's device, run it on random data, check
 * every element against a float64 CPU reference, print the variant, the shape a RUNTIME
 * kernel ran, GPU time, TFLOP/s and the split-K counters) and `spvgen bench gemm` (time
 * the emission on this CPU, and the kernel on the device with a sampled check). The
 * problem flags are the GEMM's table entry's (emitters/gemm/gemm_template.c), parsed by
 * the one parser (cmd_template.c); `spvgen gemm` itself is the generic emit command and
 * `spvgen tune gemm` (cmd_tune.c) parses here (spvgen_cli_parse_tune_gemm). */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cmds.h"
#include "gemm_run.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"

typedef struct gemm_cli {
  spvgen_gemm_desc desc;
  gemm_run_options run;
  uint32_t emit_repeats; /* bench */
  bool no_gpu;           /* bench */
  const char *caps_name; /* bench */
  bool tiered;           /* run: the quick form first, the plan compiled in the background */
  spvgen_gemm_args args; /* --shapes runtime: the shape to run (from --m ... --ldd) */
} gemm_cli;

/* ------------------------------------------------- run and bench flags ---- */

#define CLI_U32(FLAG, FIELD, MIN)                                                 \
  static bool FLAG(void *g, const char *v, char *why, size_t size) {              \
    return sg_flag_u32(v, MIN, UINT32_MAX, &((gemm_cli *)g)->FIELD, why, size); \
  }
CLI_U32(flag_repeats, run.repeats, 1)
CLI_U32(flag_emit_repeats, emit_repeats, 1)
CLI_U32(flag_warmup, run.warmup, 0)
CLI_U32(flag_warmup_ms, run.warmup_ms, 0)
CLI_U32(flag_sample, run.sample, 0)
static bool flag_seed(void *g, const char *v, char *why, size_t size) {
  return sg_flag_seed(v, &((gemm_cli *)g)->run.seed, why, size);
}
static bool flag_no_caps(void *g, const char *v, char *why, size_t size) {
  (void)g, (void)v;
  snprintf(why, size, "run uses the device's own caps");
  return false;
}

static const sg_flag run_flags[] = {
    SG_FLAG_HEADING("run:"),
    {"--repeats", "N", "timed dispatches (default 10)", flag_repeats, 0},
    {"--warmup", "N", "dispatches before them (default 2)", flag_warmup, 0},
    {"--warmup-ms", "N", "keep the GPU busy N ms before timing (default 200; GPUs idle at\nlow clocks between short bursts)",
     flag_warmup_ms, 0},
    {"--sample", "N", "check N random elements instead of all (large shapes)", flag_sample, 0},
    {"--seed", "N", "random data seed", flag_seed, 0},
    SG_FLAG_SWITCH("--stats",
                   "print the driver's pipeline statistics (registers, spills, shared\nmemory; "
                   "VK_KHR_pipeline_executable_properties)",
                   gemm_cli, run.statistics),
    SG_FLAG_SWITCH("--tiered",
                   "tiered compile: the plan's quick form (its K loop not unrolled by the\n"
                   "driver; spvgen_gemm_plan_quick) is compiled, run and checked first while the\n"
                   "plan compiles in the background, then the plan runs (both reported)",
                   gemm_cli, tiered),
    {"--caps", "NAME", NULL, flag_no_caps, 0},
    {NULL, NULL, NULL, NULL, 0},
};

static const sg_flag bench_flags[] = {
    SG_FLAG_HEADING("bench:"),
    {"--repeats", "N", "emissions timed (default 200)", flag_emit_repeats, 0},
    {"--gpu-repeats", "N", "timed dispatches (default 10)", flag_repeats, 0},
    {"--warmup-ms", "N", "keep the GPU busy N ms before timing (default 200)", flag_warmup_ms, 0},
    {"--sample", "N", "output elements checked (default 256)", flag_sample, 0},
    {"--seed", "N", "random data seed", flag_seed, 0},
    SG_FLAG_SWITCH("--no-gpu", "time the emission only", gemm_cli, no_gpu),
    SG_FLAG_TEXT("--caps", "NAME|FILE", "emit for an offline preset or a caps file (then no GPU run)", gemm_cli,
                 caps_name),
    {NULL, NULL, NULL, NULL, 0},
};

static void usage(FILE *o, bool bench) {
  if (bench)
    fprintf(o, "usage: spvgen bench gemm --m M --n N --k K [options] [--repeats N]\n\n"
               "Times the emission on this CPU: plan + emit + finish into one reused module,\n"
               "median of --repeats runs, in microseconds per module. Then, when a Vulkan device\n"
               "exists (and --caps is not given), runs the kernel --gpu-repeats times and prints\n"
               "the GPU time and TFLOP/s, checking a sample of the output elements (all of them:\n"
               "`spvgen run gemm`).\n\n");
  else
    fprintf(o, "usage: spvgen run gemm --m M --n N --k K [options]\n\n"
               "Emits a GEMM for the first Vulkan device, runs it on random data, checks every\n"
               "element of D against a float64 CPU reference and prints the variant, the GPU\n"
               "time (median of the repeats) and TFLOP/s.\n\n");
  spvgen_cli_flags_usage(o, sg_template_gemm.flags);
  spvgen_cli_flags_usage(o, bench ? bench_flags : run_flags);
  if (bench)
    fputs("\nexamples:\n  spvgen bench gemm --m 4096 --n 4096 --k 4096 --types f16,f32\n"
          "  spvgen bench gemm --m 128 --n 128 --k 128 --caps h100 --repeats 1000\n",
          o);
  else
    fputs("\nexamples:\n  spvgen run gemm --m 4096 --n 4096 --k 4096 --types f16,f32\n"
          "  spvgen run gemm --m 97 --n 131 --k 67 --layout tn --types s8,s32 --bias row --act relu\n",
          o);
  fprintf(o, "\nexit status: 0 ok, 1 failure (refused, invalid, mismatch), 2 usage error\n");
}

/* 0 parsed, -1 --help printed, 2 usage error (printed). */
static int parse(bool bench, int argc, char **argv, gemm_cli *g) {
  memset(g, 0, sizeof *g);
  sg_template_gemm.flags_init(&g->desc);
  g->run.repeats = 10;
  g->run.warmup = 2;
  g->run.warmup_ms = 200; /* leave the idle clocks before timing (gemm_run.h) */
  if (bench) {
    g->emit_repeats = 200;
    g->run.sample = 256;
  }
  const spvgen_cli_flags more[] = {{bench ? bench_flags : run_flags, g}, {NULL, NULL}};
  int rc = spvgen_cli_template_parse(bench ? "bench gemm" : "run gemm", &sg_template_gemm, &g->desc, more, argc, argv);
  if (rc < 0) usage(stdout, bench);
  if (rc || g->desc.shapes != SPVGEN_GEMM_SHAPES_RUNTIME) return rc;
  /* The shape to run: --m ... --ldd go to the call's args; the desc keeps m, n, k and
   * batch as the shape to plan for, and alpha / beta as the class (a run-time alpha, a
   * C operand). */
  spvgen_gemm_desc *d = &g->desc;
  g->args = (spvgen_gemm_args){d->m, d->n, d->k, d->batch, d->lda, d->ldb, d->ldc, d->ldd,
                               d->stride_a, d->stride_b, d->stride_c, d->stride_d, d->alpha, d->beta};
  d->lda = d->ldb = d->ldc = d->ldd = 0;
  d->stride_a = d->stride_b = d->stride_c = d->stride_d = 0;
  g->run.args = &g->args;
  return 0;
}

/* `spvgen gemm`: the generic emit command over the GEMM's entry. */
int spvgen_cmd_gemm(int argc, char **argv) { return spvgen_cmd_template(&sg_template_gemm, argc, argv); }

/* ------------------------------------------------------------- tune gemm ---- */

int spvgen_cli_parse_tune_gemm(int argc, char **argv, spvgen_cli_tune_args *out) {
  memset(out, 0, sizeof *out);
  sg_template_gemm.flags_init(&out->desc);
  const spvgen_cli_flags more[] = {{spvgen_cli_tune_flags, &out->tune}, {NULL, NULL}};
  int rc = spvgen_cli_template_parse("tune gemm", &sg_template_gemm, &out->desc, more, argc, argv);
  if (rc < 0)
    spvgen_cli_tune_usage(stdout, &sg_template_gemm,
                          "Times every candidate plan of the GEMM on the first Vulkan device (GPU timestamps,\n"
                          "a sustained warm-up, the median of the repeats with outliers dropped), checks each\n"
                          "one's output on random data, prints the table and stores the fastest in the tune\n"
                          "cache, where spvgen_gemm_plan_cached finds it (docs/tune.md).",
                          NULL,
                          "  spvgen tune gemm --m 4096 --n 4096 --k 4096 --types f16,f32\n"
                          "  spvgen tune gemm --m 100 --n 70 --k 50 --variant simt --budget 30 --cache tune.txt\n");
  return rc;
}

/* ------------------------------------------------------ run and bench gemm ---- */

static void print_run_result(const gemm_cli *g, const gemm_run_result *res) {
  bool ints = g->desc.a_type == SPVGEN_COMPONENT_S8 || g->desc.a_type == SPVGEN_COMPONENT_U8;
  bool giga = res->tflops < 0.1; /* a CPU driver: GFLOP/s reads better */
  if (res->median_ns > 0)
    printf("gpu      %.3f ms median of %u (min %.3f ms; best of 3 submissions, the slowest's median "
           "%.3f ms), %.2f %s%s/s\n",
           res->median_ns / 1e6, g->run.repeats, res->min_ns / 1e6, res->worst_round_median_ns / 1e6,
           giga ? res->tflops * 1e3 : res->tflops, giga ? "G" : "T", ints ? "OP" : "FLOP");
  else
    printf("gpu      no timestamps on this queue\n");
  if (res->clock_mhz > 0) /* the clock the timing ran at, read right after it */
    printf("clock    %.0f MHz right after the timing (spvgen_vk_measure_clock; docs/runner.md, \"GPU clocks\")\n",
           res->clock_mhz);
  /* A submission far slower than the best ran at the GPU's idle clock: the clock governor
   * lowers it after about a second of little GPU work, and short or sparse submissions do
   * not raise it again (docs/runner.md, "GPU clocks"). Said, so that a user does not read
   * a random slowdown into the kernel; the best submission counts. */
  if (res->median_ns > 0 && res->worst_round_median_ns > 1.6 * res->median_ns)
    printf("note     one submission ran %.1fx slower than the best: the GPU was likely still at its idle "
           "clock (docs/runner.md, \"GPU clocks\"); the best submission counts\n",
           res->worst_round_median_ns / res->median_ns);
  printf("check    %" PRIu64 " of %" PRIu64 " %selements match (max |err| %.3g, tolerance there %.3g)\n",
         res->checked - res->bad, res->checked, g->run.sample ? "sampled " : "", res->max_err, res->max_err_tol);
  if (res->bad)
    printf("MISMATCH %" PRIu64 " elements; first at batch %" PRIu64 " (%" PRIu64 ", %" PRIu64 "): gpu %.6g, cpu %.6g\n",
           res->bad, res->first_bad_batch, res->first_bad_row, res->first_bad_col, res->first_bad_gpu,
           res->first_bad_ref);
}

/* The pipeline line: each kernel's compile, named in dispatch order. */
static void print_pipeline(const spvgen_gemm_config *plan, uint32_t kernels, double total_ms, const double *kernel_ms,
                           const char *what) {
  static const char *const names[SPVGEN_GEMM_KERNEL_COUNT] = {"main", "reduction", "pack"};
  if (kernels <= 1) {
    printf("pipeline %.1f ms (%s; the plan estimated %u ms)\n", total_ms, what, plan->compile_ms);
    return;
  }
  printf("pipeline %.1f ms (%s:", total_ms, what);
  for (uint32_t i = 0; i < kernels && i < 3; i++)
    printf("%s %s %.1f", i ? " +" : "",
           plan->desc.split_k > 1 && spvgen_gemm_kernel_at(plan, i) == SPVGEN_GEMM_KERNEL_MAIN
               ? "partials"
               : names[spvgen_gemm_kernel_at(plan, i)],
           kernel_ms[i]);
  printf("; the plan estimated %u ms)\n", plan->compile_ms);
}

/* The tiered start (--tiered), as a framework's first call would do it: the quick form's
 * kernels start compiling while a cached-only create asks whether the plan needs a compile
 * at all (found: the plan runs, no tier); else the quick form's kernels are waited for
 * (what the first call waits for), then the plan's kernels start compiling in the
 * background, and the quick form is checked and timed meanwhile (what the first calls
 * get). The quick form compiles before the plan's compiles start, so it never shares the
 * driver with them. The plan's pipelines are held in the runner's kernel cache, where
 * gemm_run finds them. Returns 0, or 1 with msg saying why. */
typedef struct tier_start {
  bool quick_ran;           /* the plan has a quick form, and it ran */
  gemm_run_result quick;    /* its run */
  uint32_t quick_kernels;
  double quick_ms[SPVGEN_GEMM_KERNEL_COUNT], quick_total_ms; /* each kernel's compile on its thread; the total: the first call's wait */
  uint32_t kernels;         /* the plan's kernels */
  double bg_ms[SPVGEN_GEMM_KERNEL_COUNT], bg_total_ms; /* their compiles, each on its thread */
  double ready_ms;          /* the plan's last compile's end, from the quick form's compile start */
  spvgen_vk_pipeline *held[2 * SPVGEN_GEMM_KERNEL_COUNT]; /* both forms' pipelines, kept until the runs */
} tier_start;

static int tiered_start(spvgen_vk_context *ctx, const gemm_cli *g, tier_start *t, char *msg, size_t size) {
  memset(t, 0, sizeof *t);
  spvgen_gemm_config plan, quick;
  if (spvgen_gemm_plan(&g->desc, spvgen_vk_caps(ctx), &plan, msg, size) != SPVGEN_OK) return 1;
  if (!spvgen_gemm_plan_quick(&plan, &quick)) {
    printf("tiered   %s has no quicker form: it is compiled as it is\n", plan.name);
    return 0;
  }
  /* a warm process: the plan itself when the driver has it without a compile, asked
   * beside the quick form's compile (gemm_tier_ask) */
  spvgen_vk_compile *qc[SPVGEN_GEMM_KERNEL_COUNT] = {0}, *c[SPVGEN_GEMM_KERNEL_COUNT] = {0};
  uint32_t nq = 0, nk = 0;
  double ask_ms = 0;
  const double tq = sg_now_ms();
  spvgen_status ps = gemm_tier_ask(ctx, &plan, &quick, qc, &nq, t->held, &ask_ms, msg, size);
  if (ps == SPVGEN_OK) { /* the plan's pipelines held until the runs: gemm_run finds them */
    printf("tiered   %s needs no compile (the kernel cache or the driver's has it; the first call waited %.1f ms for "
           "the answer): it runs from the first call\n", plan.name, sg_now_ms() - tq);
    for (uint32_t j = 0; j < nq; j++) spvgen_vk_compile_cancel(qc[j]); /* the quick form is not needed */
    return 0;
  }
  if (ps != SPVGEN_ERROR_NOT_CACHED) return 1;
  int rc = 0;
  printf("tiered   %s is not cached (the driver answered in %.1f ms, beside the quick form's compile): the quick "
         "form first\n", plan.name, ask_ms);
  /* the quick form's kernels: each one's compile on its thread, and what the first call
   * waited for in all (from the start of its compile) */
  for (uint32_t j = 0; j < nq; j++) {
    if (!rc && spvgen_vk_compile_finish(qc[j], &t->held[SPVGEN_GEMM_KERNEL_COUNT + j], &t->quick_ms[j]) != SPVGEN_OK) {
      snprintf(msg, size, "the quick form's kernel %u: %s", j, spvgen_vk_error(ctx));
      rc = 1;
    } else if (rc) {
      spvgen_vk_compile_cancel(qc[j]);
    }
  }
  t->quick_total_ms = sg_now_ms() - tq;
  const double started = sg_now_ms() - tq;
  if (!rc && gemm_compile_in_background(ctx, &plan, NULL, c, &nk, msg, size) != SPVGEN_OK) rc = 1;
  /* the quick form checked and timed (its pipelines are the kernel cache's now) while the
   * plan compiles */
  gemm_run_options qo = g->run;
  if (!rc && gemm_run(ctx, &quick.desc, &qo, &t->quick, msg, size) != SPVGEN_OK) rc = 1;
  if (!rc && spvgen_gemm_class_key(&t->quick.plan) != spvgen_gemm_class_key(&quick)) {
    snprintf(msg, size, "the quick form ran as %s, not %s (a bug in spvgen)", t->quick.plan.name, quick.name);
    rc = 1;
  }
  t->quick_ran = !rc;
  t->quick_kernels = nq;
  for (uint32_t j = 0; j < nk; j++) {
    if (!c[j]) continue;
    if (rc) {
      spvgen_vk_compile_cancel(c[j]);
    } else if (spvgen_vk_compile_finish(c[j], &t->held[j], &t->bg_ms[j]) != SPVGEN_OK) {
      snprintf(msg, size, "the plan's kernel %u: %s", j, spvgen_vk_error(ctx));
      rc = 1;
    } else {
      t->bg_total_ms += t->bg_ms[j];
      if (started + t->bg_ms[j] > t->ready_ms) t->ready_ms = started + t->bg_ms[j];
    }
  }
  t->kernels = nk;
  return rc;
}

int spvgen_cmd_run_gemm(int argc, char **argv) {
  gemm_cli g;
  int r = parse(false, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen run gemm: no Vulkan device: %s\n", msg);
    return 1;
  }
  tier_start tier = {0};
  if (g.tiered && tiered_start(ctx, &g, &tier, msg, sizeof msg)) {
    fprintf(stderr, "spvgen run gemm: --tiered: %s\n", msg);
    for (uint32_t j = 0; j < 2 * SPVGEN_GEMM_KERNEL_COUNT; j++) spvgen_vk_pipeline_destroy(tier.held[j]);
    spvgen_vk_destroy(ctx);
    return 1;
  }
  gemm_run_result res;
  spvgen_status st = gemm_run(ctx, &g.desc, &g.run, &res, msg, sizeof msg);
  for (uint32_t j = 0; j < 2 * SPVGEN_GEMM_KERNEL_COUNT; j++) spvgen_vk_pipeline_destroy(tier.held[j]);
  int rc = 0;
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen run gemm: %s\n", msg);
    rc = 1;
  } else {
    printf("device   %s\n", spvgen_vk_caps(ctx)->name);
    printf("plan     %s\n", res.plan.name);
    if (res.plan.desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME)
      printf("shape    %ux%ux%u batch %u at run time (push constants), grid %ux%ux%u\n", res.shape.m, res.shape.n,
             res.shape.k, res.shape.batch, res.launch.groups[0], res.launch.groups[1], res.launch.groups[2]);
    if (res.plan.desc.split_k > 1)
      printf("split-K  %u slices: partials grid %ux%ux%u, then the reduction, grid %ux%ux%u\n",
             res.launch.groups[2] / res.shape.batch, res.launch.groups[0], res.launch.groups[1], res.launch.groups[2],
             res.launch.reduce_groups[0], res.launch.reduce_groups[1], res.launch.reduce_groups[2]);
    if (res.plan.desc.pack != SPVGEN_GEMM_PACK_NONE && res.plan.desc.pack != SPVGEN_GEMM_PACK_AUTO)
      printf("pack     %s copied to the workspace first%s, grid %ux%ux%u\n", spvgen_gemm_pack_name(res.plan.desc.pack),
             res.plan.desc.pack_order == SPVGEN_GEMM_PACK_ORDER_K ? " K-contiguous (order k)" : "",
             res.launch.pack_groups[0], res.launch.pack_groups[1], res.launch.pack_groups[2]);
    printf("emit     %.1f us\n", res.emit_us);
    if (tier.quick_ran) {
      /* what the first calls got, then the plan's compile, which they did not wait for */
      printf("first    %s\n", tier.quick.plan.name);
      print_pipeline(&tier.quick.plan, tier.quick_kernels, tier.quick_total_ms, tier.quick_ms,
                     "the quick form's compile: what the first call waits for");
      print_run_result(&g, &tier.quick);
      if (tier.quick.bad) rc = 1;
      printf("then     %s\n", res.plan.name);
      print_pipeline(&res.plan, tier.kernels, tier.bg_total_ms, tier.bg_ms,
                     "the driver's compile, in the background while the quick form ran");
      printf("ready    %.1f ms after the quick form's compile began\n", tier.ready_ms);
    } else {
      print_pipeline(&res.plan, res.kernels, res.pipeline_ms, res.kernel_pipeline_ms, "the driver's compile");
    }
    if (g.run.statistics) printf("stats    %s\n", res.stats);
    print_run_result(&g, &res);
    if (res.bad) rc = 1;
  }
  spvgen_vk_destroy(ctx);
  return rc;
}

/* The emission benchmark: plan + emit + finish into one module reset between runs, the
 * way a framework that JITs kernels would call it. */
static int bench_emit(const gemm_cli *g, const spvgen_device_caps *caps) {
  char msg[1024];
  spvgen_gemm_config plan;
  if (spvgen_gemm_plan(&g->desc, caps, &plan, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench gemm: %s\n", msg);
    return 1;
  }
  spvgen_module_desc md = {.addressing = spvgen_gemm_addressing_model(&plan)};
  spvgen_module *m = spvgen_module_create(&md);
  double *t = malloc(sizeof *t * g->emit_repeats);
  if (!m || !t) {
    fprintf(stderr, "spvgen bench gemm: out of memory\n");
    spvgen_module_destroy(m);
    free(t);
    return 1;
  }
  size_t count = 0;
  int rc = 0;
  const uint32_t warmup = 3;
  for (uint32_t i = 0; i < warmup + g->emit_repeats && !rc; i++) {
    double t0 = sg_now_us();
    spvgen_module_reset(m, &md);
    spvgen_gemm_config p;
    const uint32_t *words;
    count = 0;
    bool ok = spvgen_gemm_plan(&g->desc, caps, &p, msg, sizeof msg) == SPVGEN_OK;
    for (uint32_t k = 0; ok && k < spvgen_gemm_kernel_count(&p); k++) { /* split-K: both kernels */
      size_t n = 0;
      if (k) spvgen_module_reset(m, &md);
      ok = spvgen_gemm_emit_kernel(m, &p, spvgen_gemm_kernel_at(&p, k), NULL) == SPVGEN_OK &&
           spvgen_module_finish(m, &words, &n) == SPVGEN_OK;
      count += n;
    }
    if (!ok) {
      fprintf(stderr, "spvgen bench gemm: %s\n", spvgen_module_error(m)[0] ? spvgen_module_error(m) : msg);
      rc = 1;
    }
    if (i >= warmup) t[i - warmup] = sg_now_us() - t0;
  }
  if (!rc) {
    qsort(t, g->emit_repeats, sizeof *t, sg_cmp_double);
    printf("plan     %s\n", plan.name);
    printf("emit     %.1f us per %s (median of %u; min %.1f, max %.1f), %zu words, %.0f MB/s\n",
           t[g->emit_repeats / 2], spvgen_gemm_kernel_count(&plan) > 1 ? "plan (two modules)" : "module",
           g->emit_repeats, t[0], t[g->emit_repeats - 1], count,
           count * 4.0 / t[g->emit_repeats / 2]);
  }
  free(t);
  spvgen_module_destroy(m);
  return rc;
}

int spvgen_cmd_bench_gemm(int argc, char **argv) {
  gemm_cli g;
  int r = parse(true, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  spvgen_device_caps caps;
  if (g.caps_name) {
    if ((r = spvgen_cli_resolve_caps("bench gemm", g.caps_name, &caps))) return r;
    printf("caps     %s (preset; no GPU run)\n", g.caps_name);
  } else if (!g.no_gpu && spvgen_vk_create(NULL, &ctx, msg, sizeof msg) == SPVGEN_OK) {
    caps = *spvgen_vk_caps(ctx);
    printf("device   %s\n", caps.name);
  } else {
    if (!g.no_gpu) printf("device   none (%s); timing the emission for vulkan13\n", msg);
    spvgen_caps_preset("vulkan13", &caps);
  }
  int rc = bench_emit(&g, &caps);
  if (!rc && ctx) {
    gemm_run_result res;
    if (gemm_run(ctx, &g.desc, &g.run, &res, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench gemm: %s\n", msg);
      rc = 1;
    } else {
      /* a kernel's figure comes with what its first compile cost (the driver's disk cache
       * may hold it: __GL_SHADER_DISK_CACHE_PATH at an empty directory makes it a first one) */
      print_pipeline(&res.plan, res.kernels, res.pipeline_ms, res.kernel_pipeline_ms, "the driver's compile");
      print_run_result(&g, &res);
      if (res.bad) rc = 1;
    }
  }
  spvgen_vk_destroy(ctx);
  return rc;
}

