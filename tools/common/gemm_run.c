/* tools/common/gemm_run.c — see gemm_run.h. */
#define _POSIX_C_SOURCE 200809L
#include "gemm_run.h"

#include "clock.h"
#include "warm_up.h"

#include "ref_gemm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* res->stats for gemm_run_options.statistics: the interesting statistics, else the first
 * few, as "name=value ...". */
static void statistics_line(spvgen_vk_context *ctx, const spvgen_vk_pipeline *pipe, char *out,
                            size_t size) {
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
    int w = snprintf(out + len, size - len, "%s%s=%.15g", shown ? " " : "", stats[i].name,
                     stats[i].value);
    if (w < 0) break;
    len += (size_t)w < size - len ? (size_t)w : size - len - 1;
    shown++;
  }
  if (n == 0) snprintf(out, size, "none reported");
}

/* --------------------------------------------------------------------- run ---- */

/* Plans desc, emits it (timing plan + emit + finish into a reused module, the steady
 * state) and creates the pipeline (timing the driver's compile). */
static spvgen_status build_pipeline(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc, const gemm_run_options *opt,
                                    gemm_run_result *res, spvgen_vk_pipeline **pipe, char *msg, size_t size) {
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_status st = spvgen_gemm_plan(desc, caps, &res->plan, msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_module_desc md;
  memset(&md, 0, sizeof md);
  if (opt->glsl450_memory_model) md.memory_model = SpvMemoryModelGLSL450;
  md.addressing = spvgen_gemm_addressing_model(&res->plan);
  spvgen_module *m = spvgen_module_create(&md);
  if (!m) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  spvgen_kernel_info info;
  const uint32_t *words = NULL;
  size_t count = 0;
  double t0 = sg_now_us();
  int reps = 0;
  do {
    spvgen_module_reset(m, &md);
    spvgen_gemm_config p;
    st = spvgen_gemm_plan(desc, caps, &p, NULL, 0);
    if (st == SPVGEN_OK) st = spvgen_gemm_emit(m, &p, &info);
    if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
    reps++;
  } while (st == SPVGEN_OK && sg_now_us() - t0 < 20000.0 && reps < 2000);
  res->emit_us = (sg_now_us() - t0) / reps;
  if (st != SPVGEN_OK) {
    snprintf(msg, size, "emit: %s", spvgen_module_error(m));
    spvgen_module_destroy(m);
    return st;
  }
  st = spvgen_kernel_reflect(words, count, &info, msg, size);
  double pc0 = sg_now_us();
  if (st == SPVGEN_OK && spvgen_vk_pipeline_create(ctx, words, count, &info, NULL, pipe) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  }
  res->pipeline_ms = (sg_now_us() - pc0) / 1e3;
  spvgen_module_destroy(m);
  if (st == SPVGEN_OK && opt->statistics) statistics_line(ctx, *pipe, res->stats, sizeof res->stats);
  return st;
}

/* The shape a run uses as a FIXED desc (what the host data and the reference read):
 * the plan's desc with the args' extents, leading dimensions, strides and scalars. */
static void concrete_shape(const spvgen_gemm_config *plan, const spvgen_gemm_launch *l, spvgen_gemm_desc *d) {
  *d = plan->desc;
  if (plan->desc.shapes != SPVGEN_GEMM_SHAPES_RUNTIME) return;
  const spvgen_gemm_push *p = &l->push;
  d->shapes = SPVGEN_GEMM_SHAPES_FIXED;
  d->m = p->m;
  d->n = p->n;
  d->k = p->k;
  d->batch = p->batch;
  d->lda = p->lda;
  d->ldb = p->ldb;
  d->ldc = p->ldc;
  d->ldd = p->ldd;
  d->stride_a = p->stride_a;
  d->stride_b = p->stride_b;
  d->stride_c = p->stride_c;
  d->stride_d = p->stride_d;
  d->alpha = p->alpha;
  d->beta = plan->desc.beta != 0.0f ? p->beta : 0.0f;
  d->m_multiple = d->n_multiple = d->k_multiple = d->ld_multiple = 0;
}

/* One shape through a built pipeline: data, runs, timing, check. */
static spvgen_status run_shape(spvgen_vk_context *ctx, spvgen_vk_pipeline *pipe, const spvgen_gemm_args *args,
                               const gemm_run_options *options, gemm_run_result *res, char *msg, size_t size) {
  gemm_run_options opt = *options;
  spvgen_status st;
  spvgen_gemm_args fallback;
  if (res->plan.desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME && !args) { /* the hints as the shape */
    memset(&fallback, 0, sizeof fallback);
    fallback.m = res->plan.desc.m;
    fallback.n = res->plan.desc.n;
    fallback.k = res->plan.desc.k;
    fallback.batch = res->plan.desc.batch;
    fallback.alpha = res->plan.desc.alpha;
    fallback.beta = res->plan.desc.beta;
    args = &fallback;
  }
  st = spvgen_gemm_launch_for(&res->plan, res->plan.desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME ? args : NULL,
                              &res->launch, msg, size);
  if (st != SPVGEN_OK) return st;
  concrete_shape(&res->plan, &res->launch, &res->shape);
  const spvgen_gemm_desc *d = &res->shape;
  const spvgen_gemm_launch *ln = &res->launch;

  /* Host data. */
  uint64_t seed = opt.seed ? opt.seed : 0x5eed6e33ull;
  uint64_t na = d->stride_a * d->batch, nb = d->stride_b * d->batch, nd = d->stride_d * d->batch;
  /* C is bound when the plan has a C operand (a RUNTIME beta may still be 0) */
  uint64_t nc = res->plan.desc.beta != 0.0f ? (d->stride_c ? d->stride_c : 1) * d->batch : 0;
  uint64_t nbias = d->bias == SPVGEN_GEMM_BIAS_ROW ? d->m : d->bias == SPVGEN_GEMM_BIAS_COLUMN ? d->n : 0;
  void *ha = sg_ref_fill(&seed, d->a_type, na), *hb = sg_ref_fill(&seed, d->b_type, nb);
  void *hc = nc ? sg_ref_fill(&seed, d->out_type, nc) : NULL;
  void *hbias = nbias ? sg_ref_fill(&seed, d->out_type, nbias) : NULL;
  uint32_t out_size = spvgen_component_type_size(d->out_type);
  void *hd = malloc(nd * out_size);
  spvgen_vk_buffer *bufs[6] = {0};
  uint32_t nbuf = 0;
  if (!ha || !hb || !hd || (nc && !hc) || (nbias && !hbias)) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory for the operands");
    goto done;
  }
  /* Bindings in spvgen/gemm.h's order; the split-K workspace last, zeroed once (its
   * counters must start at 0; the kernel leaves them at 0 for the next dispatch). */
  struct { void *host; uint64_t bytes; } ops[6] = {
      {ha, na * spvgen_component_type_size(d->a_type)},
      {hb, nb * spvgen_component_type_size(d->b_type)},
      {NULL, nd * out_size},
      {hc, nc * out_size},
      {hbias, nbias * out_size},
      {NULL, ln->workspace_bytes}};
  for (int i = 0; i < 6; i++) {
    if (i >= 3 && !ops[i].bytes) continue;
    uint64_t bytes = ops[i].bytes < 4 ? 4 : ops[i].bytes;
    uint32_t flags = res->plan.desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0;
    if (spvgen_vk_buffer_create(ctx, (bytes + 3) & ~3ull, flags, &bufs[nbuf]) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN;
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
      goto done;
    }
    if (ops[i].host && spvgen_vk_buffer_upload(ctx, bufs[nbuf], 0, ops[i].host, ops[i].bytes) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN;
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
      goto done;
    }
    if (i == 2 && spvgen_vk_buffer_fill(ctx, bufs[nbuf], 0, (bytes + 3) & ~3ull, 0x7FC07FC0u) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN; /* NaN-filled: an element the kernel never writes fails the check */
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
      goto done;
    }
    if (i == 5 && spvgen_vk_buffer_fill(ctx, bufs[nbuf], 0, (bytes + 3) & ~3ull, 0) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN;
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
      goto done;
    }
    nbuf++;
  }

  /* Runs: warm-up, then the timed repeats in one submission. With round_ms the repeats
   * fill about that much GPU time per submission (the warm-up measured a dispatch). */
  uint32_t total = opt.warmup + opt.repeats;
  uint32_t room = opt.round_ms && total < opt.warmup + GEMM_RUN_MAX_REPEATS ? opt.warmup + GEMM_RUN_MAX_REPEATS : total;
  spvgen_vk_dispatch_desc *dd = calloc(room, sizeof *dd);
  uint64_t *ns = calloc(room, sizeof *ns);
  if (!dd || !ns) {
    free(dd);
    free(ns);
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory");
    goto done;
  }
  for (uint32_t i = 0; i < room; i++) {
    dd[i].pipeline = pipe;
    dd[i].buffers = bufs;
    dd[i].buffer_count = nbuf;
    dd[i].push_data = ln->push_size ? &ln->push : NULL;
    dd[i].push_size = ln->push_size;
    for (int j = 0; j < 3; j++) dd[i].groups[j] = ln->groups[j];
  }
  if (opt.warmup_ms) { /* until the timings are steady (warm_up.h) */
    warm_up_info wi;
    st = warm_up_run(ctx, dd, total, opt.warmup_ms, ns, &wi);
    res->warmup_ms = wi.ms;
    res->warmup_steady = wi.steady;
    if (opt.round_ms && wi.last_ns > 0) {
      double want = opt.round_ms * 1e6 / wi.last_ns;
      uint32_t reps = want > GEMM_RUN_MAX_REPEATS ? GEMM_RUN_MAX_REPEATS : want < opt.repeats ? opt.repeats : (uint32_t)want;
      opt.repeats = reps;
      total = opt.warmup + reps;
    }
  }
  res->repeats = opt.repeats;

  /* Three timed submissions back to back; the best median counts. A single one was at
   * times timed at a third of the clock the next one got (bench/results/gemm-h100-
   * 2026-11-23c.md: 16384x128x4096 f16->f32 82.8 in bench_gemm, 231 twice in spvgen run). */
  /* With stable_pct: more submissions until two in a row have medians within stable_pct
   * percent of each other (at most 8); the smaller of that pair counts. */
  int rounds = opt.stable_pct > 0 ? 8 : 3;
  double prev = 0;
  for (int round = 0; round < rounds && st == SPVGEN_OK; round++) {
    double w0 = sg_now_us();
    st = spvgen_vk_run(ctx, dd, total, ns);
    double wall = (sg_now_us() - w0) * 1e3 / total;
    if (st != SPVGEN_OK) break;
    if (!opt.repeats) {
      res->wall_ns = wall;
      break;
    }
    qsort(ns + opt.warmup, opt.repeats, sizeof *ns, sg_cmp_u64);
    double med = (double)ns[opt.warmup + opt.repeats / 2];
    res->rounds = (uint32_t)round + 1;
    if (opt.stable_pct > 0) {
      if (round == 0 || med > res->worst_round_median_ns) res->worst_round_median_ns = med;
      bool agree = round > 0 && fabs(med - prev) <= opt.stable_pct / 100.0 * (med > prev ? med : prev);
      if (round == 0 || agree) {
        res->median_ns = agree && prev < med ? prev : med;
        res->min_ns = (double)ns[opt.warmup];
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
      res->min_ns = (double)ns[opt.warmup];
      res->wall_ns = wall;
    }
    if (round == 0 || med > res->worst_round_median_ns) res->worst_round_median_ns = med;
  }
  if (st != SPVGEN_OK) snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  if (st == SPVGEN_OK && res->median_ns > 0)
    res->tflops = 2.0 * d->m * d->n * (double)d->k * d->batch / res->median_ns / 1e3;
  free(dd);
  free(ns);
  if (st != SPVGEN_OK) goto done;
  if (opt.recheck) {
    spvgen_vk_dispatch_desc one;
    memset(&one, 0, sizeof one);
    one.pipeline = pipe;
    one.buffers = bufs;
    one.buffer_count = nbuf;
    one.push_data = ln->push_size ? &ln->push : NULL;
    one.push_size = ln->push_size;
    for (int j = 0; j < 3; j++) one.groups[j] = ln->groups[j];
    uint64_t dbytes = ((nd * out_size < 4 ? 4 : nd * out_size) + 3) & ~3ull;
    if (spvgen_vk_buffer_fill(ctx, bufs[2], 0, dbytes, 0x7FC07FC0u) != SPVGEN_OK ||
        spvgen_vk_run(ctx, &one, 1, NULL) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN;
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
      goto done;
    }
  }
  if (spvgen_vk_buffer_download(ctx, bufs[2], 0, hd, nd * out_size) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
    goto done;
  }
  if (ln->workspace_bytes) {
    /* The counters after the runs: every one back at 0. */
    uint64_t off = ln->workspace_counters * 4u, cbytes = ln->workspace_bytes - off;
    uint32_t *cnt = malloc(cbytes);
    if (!cnt || spvgen_vk_buffer_download(ctx, bufs[nbuf - 1], off, cnt, cbytes) != SPVGEN_OK) {
      free(cnt);
      st = cnt ? SPVGEN_ERROR_VULKAN : SPVGEN_ERROR_OUT_OF_MEMORY;
      snprintf(msg, size, "%s", cnt ? spvgen_vk_error(ctx) : "out of host memory");
      goto done;
    }
    for (uint64_t i = 0; i < cbytes / 4; i++) res->counters_left += cnt[i] != 0;
    free(cnt);
  }
  if (opt.no_check) goto done;

  /* Reference: float64 over every element (or a sample), compared with a tolerance from
   * the accumulator's and output's unit roundoff and sum |a*b|. */
  uint64_t total_el = (uint64_t)d->m * d->n * d->batch;
  uint64_t n_check = opt.sample && opt.sample < total_el ? opt.sample : total_el;
  uint64_t s2 = seed ^ 0xC0FFEEull;
  res->worst_ratio = 0;
  for (uint64_t e = 0; e < n_check; e++) {
    uint64_t lin = n_check == total_el ? e : sg_ref_rng_next(&s2) % total_el;
    double ref, tol;
    uint64_t at, bz, r, c;
    sg_ref_gemm_element(d, ha, hb, hc, hbias, lin, &ref, &tol, &at);
    sg_ref_d_offset(d, lin, &bz, &r, &c);
    double gpu = sg_ref_get(hd, d->out_type, at);
    double err = fabs(gpu - ref);
    if (!(err <= tol)) { /* NaN counts as bad */
      if (!res->bad) {
        res->first_bad_row = r;
        res->first_bad_col = c;
        res->first_bad_batch = bz;
        res->first_bad_gpu = gpu;
        res->first_bad_ref = ref;
      }
      res->bad++;
    }
    if (!(err <= res->max_err)) {
      res->max_err = err;
      res->max_err_tol = tol;
    }
    double ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
    if (!(ratio <= res->worst_ratio)) res->worst_ratio = ratio;
    res->checked++;
  }

done:
  for (uint32_t i = 0; i < nbuf; i++) spvgen_vk_buffer_destroy(bufs[i]);
  free(ha);
  free(hb);
  free(hc);
  free(hbias);
  free(hd);
  return st;
}

spvgen_status gemm_run(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc, const gemm_run_options *options,
                       gemm_run_result *res, char *msg, size_t size) {
  gemm_run_options opt = options ? *options : (gemm_run_options){0};
  if (!opt.repeats) opt.repeats = 1;
  memset(res, 0, sizeof *res);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_status st = build_pipeline(ctx, desc, &opt, res, &pipe, msg, size);
  if (st == SPVGEN_OK) st = run_shape(ctx, pipe, opt.args, &opt, res, msg, size);
  spvgen_vk_pipeline_destroy(pipe);
  return st;
}

spvgen_status gemm_run_shapes(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc, const spvgen_gemm_args *shapes,
                              uint32_t count, const gemm_run_options *options, gemm_run_result *res, char *msg,
                              size_t size) {
  gemm_run_options opt = options ? *options : (gemm_run_options){0};
  if (!opt.repeats) opt.repeats = 1;
  if (!count) return snprintf(msg, size, "no shapes"), SPVGEN_ERROR_INVALID_ARGUMENT;
  memset(res, 0, count * sizeof *res);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_status st = build_pipeline(ctx, desc, &opt, &res[0], &pipe, msg, size);
  for (uint32_t i = 0; i < count && st == SPVGEN_OK; i++) {
    if (i) { /* the one pipeline's figures */
      res[i].plan = res[0].plan;
      res[i].emit_us = res[0].emit_us;
      res[i].pipeline_ms = res[0].pipeline_ms;
      memcpy(res[i].stats, res[0].stats, sizeof res[i].stats);
    }
    st = run_shape(ctx, pipe, &shapes[i], &opt, &res[i], msg, size);
  }
  spvgen_vk_pipeline_destroy(pipe);
  return st;
}
