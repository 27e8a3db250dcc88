/* tools/common/template_run.c — see template_run.h. */
#define _POSIX_C_SOURCE 200809L
#include "template_run.h"

#include "clock.h"
#include "warm_up.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct template_built {
  spvgen_vk_context *ctx;
  const sg_template *t;
  void *plan;              /* t->plan_size bytes */
  uint32_t kernels;        /* the plan's kernels (sg_template_kernels), dispatched in order */
  uint32_t *words[SG_RUN_MAX_KERNELS]; /* copies: the pipelines are created on the first run */
  size_t count[SG_RUN_MAX_KERNELS];
  spvgen_kernel_info info[SG_RUN_MAX_KERNELS];
  spvgen_vk_pipeline *pipe[SG_RUN_MAX_KERNELS];
  double pipeline_ms[SG_RUN_MAX_KERNELS];
  bool first_compile[SG_RUN_MAX_KERNELS];
  char stats[512];
};

/* ------------------------------------------------------------- statistics ---- */
/* Whether a statistic's name says something about registers, spills, local / shared /
 * stack memory, occupancy or instructions (case-insensitive; drivers name them
 * differently). */
static bool interesting_stat(const char *name) {
  static const char *const keys[] = {"register", "spill",     "local",      "shared",
                                     "stack",    "occupancy", "instruction"};
  char lower[64];
  size_t j = 0;
  for (; j + 1 < sizeof lower && name[j]; j++)
    lower[j] = (char)((name[j] >= 'A' && name[j] <= 'Z') ? name[j] - 'A' + 'a' : name[j]);
  lower[j] = 0;
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
    if (strstr(lower, keys[k])) return true;
  return false;
}

/* The interesting statistics, else the first few, as "name=value ...". */
static void statistics_line(spvgen_vk_context *ctx, const spvgen_vk_pipeline *pipe, char *out, size_t size) {
  enum { MAX_STATS = 64, FIRST_FEW = 6 };
  spvgen_vk_pipeline_stat stats[MAX_STATS];
  uint32_t n = 0;
  if (spvgen_vk_pipeline_statistics(ctx, pipe, stats, MAX_STATS, &n) != SPVGEN_OK) {
    snprintf(out, size, "unavailable: %s", spvgen_vk_error(ctx));
    return;
  }
  if (n > MAX_STATS) n = MAX_STATS;
  bool any = false;
  for (uint32_t i = 0; i < n && !any; i++) any = interesting_stat(stats[i].name);
  size_t len = 0;
  uint32_t shown = 0;
  out[0] = 0;
  for (uint32_t i = 0; i < n && len + 1 < size; i++) {
    if (any ? !interesting_stat(stats[i].name) : shown >= FIRST_FEW) continue;
    int w = snprintf(out + len, size - len, "%s%s=%.15g", shown ? " " : "", stats[i].name, stats[i].value);
    if (w < 0) break;
    len += (size_t)w < size - len ? (size_t)w : size - len - 1;
    shown++;
  }
  if (n == 0) snprintf(out, size, "none reported");
}

/* ------------------------------------------------------------------ build ---- */

/* First compiles in this process: FNV-1a hashes of the modules compiled so far (the
 * driver and the runner's pipeline cache make a second compile of the same words
 * cheaper, which is not what a framework's first call costs). */
static uint64_t compiled[4096];
static uint32_t compiled_n;

static uint64_t words_hash(const uint32_t *w, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ w[i]) * 0x100000001b3ull;
  return h;
}

bool template_compiled_before(const uint32_t *words, size_t count) {
  uint64_t h = words_hash(words, count);
  for (uint32_t i = 0; i < compiled_n; i++)
    if (compiled[i] == h) return true;
  return false;
}

void template_compiled_now(const uint32_t *words, size_t count) {
  if (!template_compiled_before(words, count) && compiled_n < sizeof compiled / sizeof compiled[0])
    compiled[compiled_n++] = words_hash(words, count);
}

void template_built_free(template_built *b) {
  if (!b) return;
  for (uint32_t k = 0; k < SG_RUN_MAX_KERNELS; k++) {
    spvgen_vk_pipeline_destroy(b->pipe[k]);
    free(b->words[k]);
  }
  free(b->plan);
  free(b);
}

const void *template_built_plan(const template_built *b) { return b->plan; }

spvgen_status template_build(spvgen_vk_context *ctx, const sg_template *t, const void *desc, const void *plan,
                             const template_run_options *opt, template_built **out, template_run_result *res,
                             char *msg, size_t size) {
  *out = NULL;
  if (!t->run_data) return snprintf(msg, size, "%s: not a template the run can check", t->name),
                            SPVGEN_ERROR_UNSUPPORTED;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  template_built *b = calloc(1, sizeof *b);
  void *scratch = malloc(t->plan_size); /* the plan of each timed repetition */
  if (b) b->plan = malloc(t->plan_size);
  if (!b || !scratch || !b->plan) {
    free(scratch);
    template_built_free(b);
    return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  b->ctx = ctx;
  b->t = t;
  spvgen_status st = SPVGEN_OK;
  if (desc) st = t->plan(desc, caps, b->plan, msg, size);
  else memcpy(b->plan, plan, t->plan_size);
  spvgen_module_desc md;
  memset(&md, 0, sizeof md);
  if (opt->glsl450_memory_model) md.memory_model = SpvMemoryModelGLSL450;
  md.addressing = t->addressing_model ? t->addressing_model(b->plan) : SpvAddressingModelLogical;
  b->kernels = st == SPVGEN_OK ? sg_template_kernels(t, b->plan) : 1;
  if (st == SPVGEN_OK && (b->kernels < 1 || b->kernels > SG_RUN_MAX_KERNELS))
    st = SPVGEN_ERROR_UNSUPPORTED, snprintf(msg, size, "%s: a plan of %u kernels", t->name, b->kernels);
  spvgen_module *mods[SG_RUN_MAX_KERNELS] = {0}; /* one per kernel: each one's words stay valid */
  for (uint32_t k = 0; st == SPVGEN_OK && k < b->kernels; k++)
    if (!(mods[k] = spvgen_module_create(&md))) st = SPVGEN_ERROR_OUT_OF_MEMORY, snprintf(msg, size, "out of memory");
  /* Emission into reused modules, repeated to time it (the steady state); from a desc
   * the planner is part of each repetition. Every kernel of the plan counts. */
  const uint32_t *words[SG_RUN_MAX_KERNELS] = {0};
  const double emit_us = (opt->emit_ms ? opt->emit_ms : 20) * 1e3;
  double t0 = sg_now_us();
  int reps = 0;
  while (st == SPVGEN_OK) {
    const void *p = b->plan;
    if (desc) {
      st = t->plan(desc, caps, scratch, NULL, 0);
      p = scratch;
    }
    for (uint32_t k = 0; st == SPVGEN_OK && k < b->kernels; k++) {
      spvgen_module_reset(mods[k], &md);
      st = sg_template_emit_kernel(t, mods[k], p, k, &b->info[k]);
      if (st == SPVGEN_OK) st = spvgen_module_finish(mods[k], &words[k], &b->count[k]);
      if (st != SPVGEN_OK) snprintf(msg, size, "emit: %s", spvgen_module_error(mods[k]));
    }
    reps++;
    if (sg_now_us() - t0 >= emit_us || reps >= 2000) break;
  }
  if (reps) res->emit_us = (sg_now_us() - t0) / reps;
  res->words = 0;
  for (uint32_t k = 0; k < b->kernels; k++) res->words += b->count[k];
  for (uint32_t k = 0; st == SPVGEN_OK && k < b->kernels; k++) {
    st = spvgen_kernel_reflect(words[k], b->count[k], &b->info[k], msg, size);
    if (st == SPVGEN_OK && !(b->words[k] = malloc(b->count[k] * 4 + 4)))
      st = SPVGEN_ERROR_OUT_OF_MEMORY, snprintf(msg, size, "out of memory");
    if (st == SPVGEN_OK) memcpy(b->words[k], words[k], b->count[k] * 4);
  }
  for (uint32_t k = 0; k < SG_RUN_MAX_KERNELS; k++) spvgen_module_destroy(mods[k]);
  free(scratch);
  if (st != SPVGEN_OK) {
    template_built_free(b);
    return st;
  }
  *out = b;
  return SPVGEN_OK;
}

/* The pipelines, created on the first run with its data's specialization constants. */
static spvgen_status build_pipeline(template_built *b, const sg_run_data *data, const template_run_options *opt,
                                    char *msg, size_t size) {
  spvgen_vk_pipeline_options popt;
  memset(&popt, 0, sizeof popt);
  popt.spec_constants = data->spec;
  popt.spec_constant_count = data->spec_count;
  /* First compiles are judged before any of the plan's own (two of its kernels may have
   * the same words). */
  bool seen[SG_RUN_MAX_KERNELS];
  for (uint32_t k = 0; k < b->kernels; k++) seen[k] = template_compiled_before(b->words[k], b->count[k]);
  for (uint32_t k = 0; k < b->kernels; k++) {
    if (b->pipe[k]) continue;
    /* a kernel of an earlier one's words dispatches that one's pipeline */
    if (data->kernel_count > k && data->kernels[k].same_as && data->kernels[k].same_as <= k) {
      b->first_compile[k] = true; /* (no compile of its own) */
      continue;
    }
    b->first_compile[k] = !seen[k];
    double c0 = sg_now_us();
    if (spvgen_vk_pipeline_create(b->ctx, b->words[k], b->count[k], &b->info[k], data->spec_count ? &popt : NULL,
                                  &b->pipe[k]) != SPVGEN_OK)
      return snprintf(msg, size, "%s", spvgen_vk_error(b->ctx)), SPVGEN_ERROR_VULKAN;
    b->pipeline_ms[k] = (sg_now_us() - c0) / 1e3;
    template_compiled_now(b->words[k], b->count[k]);
    if (opt->statistics && k == 0) statistics_line(b->ctx, b->pipe[k], b->stats, sizeof b->stats);
  }
  return SPVGEN_OK;
}

/* ----------------------------------------------------------------- device ---- */

/* NaN-fills the outputs (and scratch) and runs the plan's dispatches once (opt->recheck). */
static spvgen_status recheck(spvgen_vk_context *ctx, const sg_run_data *data, spvgen_vk_buffer **bufs,
                             const spvgen_vk_dispatch_desc *dd, uint32_t kernels, char *msg, size_t size) {
  spvgen_status st = sg_run_poison(ctx, data, bufs, msg, size);
  if (st == SPVGEN_OK && (st = spvgen_vk_run(ctx, dd, kernels, NULL)) != SPVGEN_OK)
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  return st;
}

/* ----------------------------------------------------------------- timing ---- */

/* The timed submissions of the steps dd[0 .. (warmup + repeats) * kernels) (a step: the
 * plan's kernels, timed from the first's start to the last's end): `rounds` of them, the
 * best median counting; with stable_pct, until two in a row agree. A single submission
 * was at times timed at a third of the clock the next one got
 * (bench/results/gemm-h100-2026-11-23c.md), hence several. */
static spvgen_status timed_rounds(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t kernels,
                                  uint64_t *ns, const template_run_options *opt, uint32_t repeats,
                                  template_run_result *res) {
  uint32_t total = opt->warmup + repeats;
  int rounds = opt->stable_pct > 0 ? 8 : opt->rounds ? (int)opt->rounds : 1;
  double prev = 0;
  for (int round = 0; round < rounds; round++) {
    double w0 = sg_now_us();
    spvgen_status st = spvgen_vk_run_steps(ctx, dd, total * kernels, kernels, ns);
    double wall = (sg_now_us() - w0) * 1e3 / total;
    if (st != SPVGEN_OK) return st;
    if (!repeats) {
      res->wall_ns = wall;
      break;
    }
    qsort(ns + opt->warmup, repeats, sizeof *ns, sg_cmp_u64);
    double med = (double)ns[opt->warmup + repeats / 2];
    res->rounds = (uint32_t)round + 1;
    if (round == 0 || med > res->worst_round_median_ns) res->worst_round_median_ns = med;
    if (opt->stable_pct > 0) {
      bool agree = round > 0 && fabs(med - prev) <= opt->stable_pct / 100.0 * (med > prev ? med : prev);
      if (round == 0 || agree) {
        res->median_ns = agree && prev < med ? prev : med;
        res->min_ns = (double)ns[opt->warmup];
        res->wall_ns = wall;
      }
      if (agree) {
        res->stable = true;
        break;
      }
      res->median_ns = med; /* the latest, until two agree */
      prev = med;
      continue;
    }
    if (round == 0 || med < res->median_ns) {
      res->median_ns = med;
      res->min_ns = (double)ns[opt->warmup];
      res->wall_ns = wall;
    }
  }
  return SPVGEN_OK;
}

/* The kernel SPVGEN_TIME_KERNEL names (template_run.h), -1 for the whole plan; a name the
 * plan has no kernel of is said on stderr (the row then times the whole plan). */
static int timed_kernel(const template_built *b) {
  const char *want = getenv("SPVGEN_TIME_KERNEL");
  if (!want || !*want) return -1;
  for (uint32_t k = 0; k < b->kernels; k++) {
    const char *name = sg_template_kernel_name(b->t, b->plan, k);
    if (name && !strcmp(name, want)) return b->kernels > 1 ? (int)k : -1;
  }
  fprintf(stderr, "SPVGEN_TIME_KERNEL=%s: this plan has no such kernel; timing all %u of its kernels\n", want,
          b->kernels);
  return -1;
}

/* Warm-up, then the timed submissions. With round_ms the repeats fill about that much
 * GPU time per submission (the warm-up measured a step). one[0 .. kernels) gets a step's
 * dispatches. With SPVGEN_TIME_KERNEL a step is that one kernel's dispatch (the plan's
 * kernels then run once more, whole, so that the check reads their output). */
static spvgen_status dispatch_and_time(spvgen_vk_context *ctx, template_built *b, const sg_run_data *data,
                                       spvgen_vk_buffer **bufs, const template_run_options *opt,
                                       template_run_result *res, spvgen_vk_dispatch_desc *one,
                                       spvgen_vk_buffer *bound[SG_RUN_MAX_KERNELS][SG_RUN_MAX_BUFFERS]) {
  const uint32_t all = sg_run_dispatches(data, b->pipe, bufs, bound, one);
  const int only = timed_kernel(b);
  const uint32_t K = only >= 0 ? 1u : all;
  const spvgen_vk_dispatch_desc *step = only >= 0 ? &one[only] : one;
  uint32_t repeats = opt->repeats ? opt->repeats : 1;
  uint32_t total = opt->warmup + repeats;
  uint32_t room = opt->round_ms && repeats < TEMPLATE_RUN_MAX_REPEATS ? opt->warmup + TEMPLATE_RUN_MAX_REPEATS : total;
  spvgen_vk_dispatch_desc *dd = calloc((size_t)room * K, sizeof *dd);
  uint64_t *ns = calloc(room, sizeof *ns);
  if (!dd || !ns) {
    free(dd);
    free(ns);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  for (uint32_t i = 0; i < room; i++)
    for (uint32_t k = 0; k < K; k++) dd[i * K + k] = step[k];
  spvgen_status st = SPVGEN_OK;
  if (opt->warmup_ms) { /* until the timings are steady (warm_up.h) */
    warm_up_info wi;
    st = warm_up_run_steps(ctx, dd, total, K, opt->warmup_ms, opt->warmup_limit_ms, ns, &wi);
    res->warmup_ms = wi.ms;
    res->warmup_steady = wi.steady;
    if (opt->round_ms && wi.last_ns > 0) {
      double want = opt->round_ms * 1e6 / wi.last_ns;
      repeats = want > TEMPLATE_RUN_MAX_REPEATS ? TEMPLATE_RUN_MAX_REPEATS
                : want < repeats                ? repeats
                                                : (uint32_t)want;
    }
  }
  res->repeats = repeats;
  if (st == SPVGEN_OK) st = timed_rounds(ctx, dd, K, ns, opt, repeats, res);
  /* the clock the timing ran at (docs/runner.md, "GPU clocks"), read at once: a benchmark's
   * figure with it. A failed reading is no failure of the run; a CPU device's counter
   * (lavapipe) says nothing about a GPU clock and is not read. */
  spvgen_vk_clock clk;
  res->clock_mhz = 0;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  if (st == SPVGEN_OK && opt->warmup_ms && (caps->features & SPVGEN_FEATURE_SHADER_CLOCK) &&
      caps->type != SPVGEN_DEVICE_CPU && spvgen_vk_measure_clock(ctx, &clk) == SPVGEN_OK)
    res->clock_mhz = clk.mhz;
  if (st == SPVGEN_OK && only >= 0) st = spvgen_vk_run(ctx, one, all, NULL);
  if (st == SPVGEN_OK && only >= 0 && res->median_ns > 0)
    fprintf(stderr, "SPVGEN_TIME_KERNEL=%s: the %s kernel alone, median %.1f us (the rate below is not the plan's)\n",
            getenv("SPVGEN_TIME_KERNEL"), sg_template_kernel_name(b->t, b->plan, (uint32_t)only), res->median_ns / 1e3);
  if (st == SPVGEN_OK && res->median_ns > 0) {
    res->tflops = data->flops / res->median_ns / 1e3;
    res->items_per_s = data->items / (res->median_ns * 1e-9);
  }
  free(dd);
  free(ns);
  return st;
}

/* -------------------------------------------------------------------- run ---- */

spvgen_status template_run_built(template_built *b, const template_run_options *opt, template_run_result *res,
                                 char *msg, size_t size) {
  const sg_template *t = b->t;
  spvgen_vk_context *ctx = b->ctx;
  double emit_us = res->emit_us;
  size_t words = res->words;
  memset(res, 0, sizeof *res);
  res->emit_us = emit_us;
  res->words = words;
  sg_run_data data;
  memset(&data, 0, sizeof data);
  spvgen_vk_buffer *bufs[SG_RUN_MAX_BUFFERS] = {0};
  spvgen_status st = t->run_data(ctx, b->plan, &opt->request, &data, msg, size);
  if (st == SPVGEN_OK && opt->on_data) opt->on_data(&data, opt->user);
  /* (a plan of one kernel may still describe its dispatch as kernels[0]: its own push
   * constants and binding offsets) */
  if (st == SPVGEN_OK && (data.kernel_count ? data.kernel_count : 1) != b->kernels)
    st = SPVGEN_ERROR_INVALID_STATE,
    snprintf(msg, size, "%s: the run's data has %u dispatches for a plan of %u kernels", t->name,
             data.kernel_count ? data.kernel_count : 1, b->kernels);
  if (st == SPVGEN_OK) st = build_pipeline(b, &data, opt, msg, size);
  res->kernels = b->kernels;
  res->pipeline_ms = 0;
  res->first_compile = true;
  for (uint32_t k = 0; k < b->kernels; k++) {
    res->kernel_pipeline_ms[k] = b->pipeline_ms[k];
    res->kernel_words[k] = b->count[k];
    res->pipeline_ms += b->pipeline_ms[k];
    res->first_compile &= b->first_compile[k];
  }
  memcpy(res->stats, b->stats, sizeof res->stats);
  if (st == SPVGEN_OK) st = sg_run_upload(ctx, &data, bufs, msg, size);
  spvgen_vk_dispatch_desc one[SG_RUN_MAX_KERNELS];
  spvgen_vk_buffer *bound[SG_RUN_MAX_KERNELS][SG_RUN_MAX_BUFFERS];
  if (st == SPVGEN_OK) {
    st = dispatch_and_time(ctx, b, &data, bufs, opt, res, one, bound);
    if (st == SPVGEN_ERROR_OUT_OF_MEMORY) snprintf(msg, size, "out of host memory");
    else if (st != SPVGEN_OK) snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  }
  if (st == SPVGEN_OK && opt->recheck) st = recheck(ctx, &data, bufs, one, b->kernels, msg, size);
  if (st == SPVGEN_OK) st = sg_run_download(ctx, &data, bufs, !opt->no_check, msg, size);
  if (st == SPVGEN_OK && !opt->no_check) t->run_check(b->plan, &data, opt->sample, &res->check);
  if (res->check.bad && t->run_where)
    t->run_where(b->plan, &data, res->check.first_bad, res->first_bad_where, sizeof res->first_bad_where);
  sg_run_destroy(&data, bufs);
  if (t->run_free) t->run_free(&data);
  return st;
}

spvgen_status template_run_plan(spvgen_vk_context *ctx, const sg_template *t, const void *plan,
                                const template_run_options *opt, template_run_result *res, char *msg, size_t size) {
  memset(res, 0, sizeof *res);
  template_built *b = NULL;
  spvgen_status st = template_build(ctx, t, NULL, plan, opt, &b, res, msg, size);
  if (st == SPVGEN_OK) st = template_run_built(b, opt, res, msg, size);
  template_built_free(b);
  return st;
}

spvgen_status template_run(spvgen_vk_context *ctx, const sg_template *t, const void *desc,
                           const template_run_options *opt, void *plan, template_run_result *res, char *msg,
                           size_t size) {
  memset(res, 0, sizeof *res);
  template_built *b = NULL;
  spvgen_status st = template_build(ctx, t, desc, NULL, opt, &b, res, msg, size);
  if (st == SPVGEN_OK && plan) memcpy(plan, b->plan, t->plan_size);
  if (st == SPVGEN_OK) st = template_run_built(b, opt, res, msg, size);
  template_built_free(b);
  return st;
}

uint32_t template_compile_threads(uint32_t kernels) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const char *env = getenv("SPVGEN_COMPILE_THREADS");
  if (env && *env) {
    char *end = NULL;
    long v = strtol(env, &end, 10);
    if (end && !*end && v >= 1) cpus = v;
  }
  if (cpus < 1) cpus = 1;
  if (cpus > (long)SPVGEN_VK_MAX_BATCH) cpus = SPVGEN_VK_MAX_BATCH;
  return kernels < (uint32_t)cpus ? (kernels ? kernels : 1) : (uint32_t)cpus;
}
