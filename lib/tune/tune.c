/* lib/tune/tune.c — the tuner's template-independent loop: for each candidate, build it,
 * run warm-up and timed dispatches in one submission (GPU timestamps), check its output,
 * and keep a robust median; the budget, progress reports and the result table. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "template.h"
#include "tune_internal.h"


/* "VENDOR:DEVICE:DRIVER:NAME", the name percent-encoded (the dev= field of every template's key). */
void tune_device_field(const spvgen_device_caps *caps, char *out, size_t size) {
  char name[3 * 64 + 1];
  size_t o = 0;
  for (const char *p = caps->name; *p && o + 4 < sizeof name; p++) {
    unsigned char ch = (unsigned char)*p;
    bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                 ch == '-' || ch == '_' || ch == '(' || ch == ')';
    if (plain) name[o++] = (char)ch;
    else o += (size_t)snprintf(name + o, sizeof name - o, "%%%02X", ch);
  }
  name[o] = 0;
  snprintf(out, size, "%04x:%04x:%08x:%s", caps->vendor_id, caps->device_id, caps->driver_version, name);
}

double tune_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double tune_robust_median(uint64_t *ns, uint32_t n, uint32_t *kept, uint32_t *rejected, double *min_ns) {
  *kept = *rejected = 0;
  *min_ns = 0;
  if (!n) return 0;
  qsort(ns, n, sizeof *ns, cmp_u64);
  double med = n % 2 ? (double)ns[n / 2] : 0.5 * ((double)ns[n / 2 - 1] + (double)ns[n / 2]);
  double *dev = malloc(n * sizeof *dev);
  if (!dev) {
    *kept = n;
    *min_ns = (double)ns[0];
    return med;
  }
  for (uint32_t i = 0; i < n; i++) dev[i] = fabs((double)ns[i] - med);
  qsort(dev, n, sizeof *dev, cmp_double);
  double mad = n % 2 ? dev[n / 2] : 0.5 * (dev[n / 2 - 1] + dev[n / 2]);
  free(dev);
  if (mad < 0.005 * med) mad = 0.005 * med;
  /* Keep [lo, hi): a contiguous run of the sorted samples. */
  uint32_t lo = 0, hi = n;
  while (lo < n && (double)ns[lo] < med - 4 * mad) lo++;
  while (hi > lo && (double)ns[hi - 1] > med + 4 * mad) hi--;
  *kept = hi - lo;
  *rejected = n - *kept;
  uint32_t k = hi - lo;
  *min_ns = (double)ns[lo];
  return k % 2 ? (double)ns[lo + k / 2] : 0.5 * ((double)ns[lo + k / 2 - 1] + (double)ns[lo + k / 2]);
}

const char *spvgen_tune_candidate_status_name(spvgen_tune_candidate_status s) {
  switch (s) {
  case SPVGEN_TUNE_NOT_RUN: return "not run";
  case SPVGEN_TUNE_TIMED: return "timed";
  case SPVGEN_TUNE_WRONG: return "wrong";
  case SPVGEN_TUNE_FAILED: return "failed";
  }
  return NULL;
}

/* Host wall time per run of the candidate (its K dispatches), one submission each: for
 * queues without timestamps. */
static spvgen_status host_times(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t K,
                                uint32_t repeats, uint64_t *ns) {
  for (uint32_t r = 0; r < repeats; r++) {
    double t0 = tune_now_seconds();
    spvgen_status st = spvgen_vk_run(ctx, dd, K, NULL);
    if (st != SPVGEN_OK) return st;
    ns[r] = (uint64_t)((tune_now_seconds() - t0) * 1e9);
  }
  return SPVGEN_OK;
}

spvgen_status tune_loop(spvgen_vk_context *ctx, const tune_ops *ops, void *state, const spvgen_tune_options *options,
                        spvgen_tune_result *res, char *msg, size_t size) {
  spvgen_tune_options opt = options ? *options : (spvgen_tune_options){0};
  double budget = opt.budget_seconds > 0 ? opt.budget_seconds : 120.0;
  uint32_t warmup = opt.warmup ? opt.warmup : 3;
  /* 500 ms: after an idle second the H200 kept its idle clock through the first 100-400 ms
   * of back-to-back work (docs/design-notes.md, "The slow mode is the clock's ramp"), and
   * building a candidate's pipeline can be that idle. */
  uint32_t warmup_ms = opt.warmup_ms ? opt.warmup_ms : 500;
  uint32_t repeats = opt.repeats ? opt.repeats : 15;
  uint32_t limit = opt.max_candidates && opt.max_candidates < res->count ? opt.max_candidates : res->count;
  double t0 = tune_now_seconds();
  uint32_t total = warmup + repeats;
  spvgen_vk_dispatch_desc *dd = calloc((size_t)total * TUNE_MAX_KERNELS, sizeof *dd);
  uint64_t *ns = calloc(total, sizeof *ns);
  if (!dd || !ns) {
    free(dd);
    free(ns);
    tune_msg(msg, size, "spvgen_tune_%s: out of memory", ops->name);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  spvgen_status first_err = SPVGEN_OK;
  char first_msg[256] = "";
  bool lost = false; /* the context is unusable: stop */
  int best = -1;
  for (uint32_t i = 0; i < res->count; i++) {
    spvgen_tune_candidate *c = &res->candidates[i];
    c->status = SPVGEN_TUNE_NOT_RUN;
    bool run = !lost && i < limit && (i == 0 || tune_now_seconds() - t0 < budget);
    if (run) {
      spvgen_vk_dispatch_desc one[TUNE_MAX_KERNELS];
      memset(one, 0, sizeof one);
      uint32_t K = 1; /* dispatches per run of the candidate (its kernels), timed as one step */
      char why[sizeof c->message];
      why[0] = 0;
      double build0 = tune_now_seconds();
      spvgen_status st = ops->build(state, i, one, &K, why, sizeof why);
      c->compile_ms = (tune_now_seconds() - build0) * 1e3;
      if (st == SPVGEN_OK && (K < 1 || K > TUNE_MAX_KERNELS))
        st = SPVGEN_ERROR_UNSUPPORTED, snprintf(why, sizeof why, "%u dispatches per run", K);
      if (st == SPVGEN_OK) {
        for (uint32_t r = 0; r < total; r++)
          for (uint32_t k = 0; k < K; k++) dd[r * K + k] = one[k];
        if (warmup_ms) {
          /* The runner's warm-up before every candidate (building the next pipeline and
           * checking the last output leave the GPU idle long enough to drop its clocks):
           * at least warmup_ms of back-to-back batches, and until two full batches at
           * least 500 ms apart agree (spvgen_vk_warm_up), within warmup_limit_ms. */
          spvgen_vk_warm_up_desc wd;
          memset(&wd, 0, sizeof wd);
          wd.dispatches = one;
          wd.count = K;
          wd.group = K;
          wd.min_ms = warmup_ms;
          wd.limit_ms = opt.warmup_limit_ms;
          st = spvgen_vk_warm_up(ctx, &wd, NULL);
        }
        if (st == SPVGEN_OK) st = ops->poison(state, why, sizeof why);
        if (st == SPVGEN_OK) {
          memset(ns, 0, total * sizeof *ns);
          st = spvgen_vk_run_steps(ctx, dd, total * K, K, ns);
        }
        bool stamped = false;
        for (uint32_t r = warmup; r < total; r++) stamped |= ns[r] != 0;
        if (st == SPVGEN_OK) st = ops->check(state, i, &c->checked, &c->bad, why, sizeof why);
        if (st == SPVGEN_OK && !c->bad && !stamped) st = host_times(ctx, dd, K, repeats, ns + warmup);
        if (st != SPVGEN_OK && !why[0]) snprintf(why, sizeof why, "%s", spvgen_vk_error(ctx));
        if (st == SPVGEN_OK && c->bad) {
          c->status = SPVGEN_TUNE_WRONG;
          snprintf(c->message, sizeof c->message, "%s", why);
        } else if (st == SPVGEN_OK) {
          c->status = SPVGEN_TUNE_TIMED;
          c->median_ns = tune_robust_median(ns + warmup, repeats, &c->samples, &c->rejected, &c->min_ns);
          /* Two more timed submissions back to back; the best one counts. One submission
           * right after a warm-up was at times timed at a third of the clock (the first
           * candidate, the default, most often: bench/results/tune-h100-2026-11-23c.md). */
          for (int round = 1; round < 3 && stamped; round++) {
            memset(ns, 0, total * sizeof *ns);
            if (spvgen_vk_run_steps(ctx, dd, total * K, K, ns) != SPVGEN_OK) break;
            uint32_t kept, rejected;
            double mn, med = tune_robust_median(ns + warmup, repeats, &kept, &rejected, &mn);
            if (med > 0 && med < c->median_ns) {
              c->median_ns = med;
              c->min_ns = mn;
              c->samples = kept;
              c->rejected = rejected;
            }
          }
          if (best < 0 || c->median_ns < res->candidates[best].median_ns) best = (int)i;
        }
      }
      if (st != SPVGEN_OK) {
        c->status = SPVGEN_TUNE_FAILED;
        snprintf(c->message, sizeof c->message, "%s", why);
        if (first_err == SPVGEN_OK) {
          first_err = st;
          snprintf(first_msg, sizeof first_msg, "%.95s: %.150s", c->name, why);
        }
        /* A timeout or a lost device leaves the context unusable: every later call
         * fails with SPVGEN_ERROR_INVALID_STATE (vk.h). */
        if (st == SPVGEN_ERROR_INVALID_STATE) lost = true;
      }
      ops->release(state, i);
    }
    switch (c->status) {
    case SPVGEN_TUNE_TIMED: res->timed++; break;
    case SPVGEN_TUNE_WRONG: res->wrong++; break;
    case SPVGEN_TUNE_FAILED: res->failed++; break;
    default: res->not_run++; break;
    }
    if (opt.progress) {
      spvgen_tune_progress p;
      p.done = i + 1;
      p.total = res->count;
      p.current = c;
      p.best = best >= 0 ? &res->candidates[best] : NULL;
      p.elapsed_seconds = tune_now_seconds() - t0;
      opt.progress(&p, opt.progress_user);
    }
  }
  free(dd);
  free(ns);
  res->seconds = tune_now_seconds() - t0;
  if (best < 0) {
    if (first_err != SPVGEN_OK && !res->wrong) {
      tune_msg(msg, size, "spvgen_tune_%s: no candidate could be timed; the first failure: %s", ops->name, first_msg);
      return first_err;
    }
    char first_wrong[200] = "";
    for (uint32_t i = 0; i < res->count && !first_wrong[0]; i++)
      if (res->candidates[i].status == SPVGEN_TUNE_WRONG)
        snprintf(first_wrong, sizeof first_wrong, "%.60s: %.130s", res->candidates[i].name, res->candidates[i].message);
    tune_msg(msg, size, "spvgen_tune_%s: no candidate produced a correct output (%u wrong, %u failed, %u not run); the first wrong one: %s",
             ops->name, res->wrong, res->failed, res->not_run, first_wrong);
    return SPVGEN_ERROR_VALIDATION;
  }
  /* The default keeps its place unless a candidate beats it by more than the noise: run
   * to run, a plan's median moves by 2-4 % on the H100 (bench/results/gemm-h100-
   * 2026-11-23c.md: candidates tuned 2-4 % faster measured 1-2.5 % slower in the next
   * table), so a smaller win is no evidence. */
  const spvgen_tune_candidate *dc = &res->candidates[res->default_index];
  if (dc->status == SPVGEN_TUNE_TIMED && res->candidates[best].median_ns > dc->median_ns / (1.0 + SPVGEN_TUNE_MARGIN))
    best = (int)res->default_index;
  res->best = (uint32_t)best;
  res->best_ns = res->candidates[best].median_ns;
  const spvgen_tune_candidate *d = &res->candidates[res->default_index];
  res->default_ns = d->status == SPVGEN_TUNE_TIMED ? d->median_ns : 0;
  return SPVGEN_OK;
}

spvgen_status tune_candidates(const sg_template *t, const char *who, const void *desc,
                              const spvgen_device_caps *caps, const void *def, void **plans_out,
                              spvgen_tune_result *res, char *msg, size_t size) {
  *plans_out = NULL;
  uint32_t n = 0;
  spvgen_status st = t->plans(desc, caps, NULL, 0, &n, msg, size);
  if (st != SPVGEN_OK) return st;
  unsigned char *plans = malloc((size_t)(n + 1) * t->plan_size);
  if (!plans) return tune_msg(msg, size, "%s: out of memory", who), SPVGEN_ERROR_OUT_OF_MEMORY;
  uint32_t got = 0;
  st = t->plans(desc, caps, plans + t->plan_size, n, &got, msg, size);
  if (st != SPVGEN_OK) {
    free(plans);
    return st;
  }
  if (got > n) got = n;
  if (msg && size) msg[0] = 0;
  memcpy(plans, def, t->plan_size);
  uint32_t count = 1;
  for (uint32_t i = 1; i <= got; i++)
    if (t->candidate(def, plans + i * t->plan_size)) {
      if (count != i) memcpy(plans + count * t->plan_size, plans + i * t->plan_size, t->plan_size);
      count++;
    }
  res->offered = count;
  if (count > SPVGEN_TUNE_MAX_CANDIDATES) count = SPVGEN_TUNE_MAX_CANDIDATES;
  res->count = count;
  res->default_index = 0;
  for (uint32_t i = 0; i < count; i++) {
    spvgen_tune_candidate *c = &res->candidates[i];
    t->plan_name(plans + i * t->plan_size, c->name, sizeof c->name);
    t->knobs(plans + i * t->plan_size, &c->knobs);
    c->is_default = i == 0;
  }
  *plans_out = plans;
  return SPVGEN_OK;
}

void tune_store(const spvgen_tune_options *opt, spvgen_tune_result *res, spvgen_tune_entry *e, char *msg,
                size_t size) {
  if (!opt || !opt->cache || !res->key[0]) return;
  snprintf(e->key, sizeof e->key, "%s", res->key);
  e->knobs = res->candidates[res->best].knobs;
  e->median_ns = res->best_ns;
  res->stored = spvgen_tune_cache_store(opt->cache, e, msg, size) == SPVGEN_OK;
}

spvgen_status tune_pipeline(spvgen_vk_context *ctx, spvgen_module *mod, const sg_template *t, const void *plan,
                            uint32_t which, const spvgen_spec_constant *spec, uint32_t nspec, spvgen_vk_pipeline **pipe,
                            char *msg, size_t size) {
  spvgen_module_desc md = {.addressing = t->addressing_model ? t->addressing_model(plan) : 0};
  spvgen_module_reset(mod, &md);
  spvgen_kernel_info info;
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_status st = sg_template_emit_kernel(t, mod, plan, which, &info);
  if (st == SPVGEN_OK) st = spvgen_module_finish(mod, &words, &count);
  if (st != SPVGEN_OK) return tune_msg(msg, size, "emit: %s", spvgen_module_error(mod)), st;
  if ((st = spvgen_kernel_reflect(words, count, &info, msg, size)) != SPVGEN_OK) return st;
  spvgen_vk_pipeline_options popt;
  memset(&popt, 0, sizeof popt);
  popt.spec_constants = spec;
  popt.spec_constant_count = nspec;
  if ((st = spvgen_vk_pipeline_create(ctx, words, count, &info, nspec ? &popt : NULL, pipe)) != SPVGEN_OK)
    return tune_msg(msg, size, "%s", spvgen_vk_error(ctx)), st;
  return SPVGEN_OK;
}


/* ---------------------------------------------- shared data, many plans ---- */
/* The tuner's operations for a template with run hooks and run_bind: one data set
 * (run_data for the default plan, sized for every candidate), each candidate bound to it
 * in turn, checked by the template's run_check (every element, or a sample when the
 * problem is large) and, after a sample, by run_compare against the first candidate that
 * passed. */
typedef struct tune_shared {
  spvgen_vk_context *ctx;
  const sg_template *t;
  const uint8_t *plans;
  sg_run_data data;
  spvgen_vk_buffer *bufs[SG_RUN_MAX_BUFFERS];
  uint64_t sample; /* 0: every element */
  spvgen_module *mod;
  spvgen_vk_pipeline *pipe[TUNE_MAX_KERNELS];
  spvgen_vk_buffer *bound[SG_RUN_MAX_KERNELS][SG_RUN_MAX_BUFFERS]; /* each dispatch's buffers */
} tune_shared;

static const void *shared_plan(const tune_shared *s, uint32_t i) { return s->plans + (size_t)i * s->t->plan_size; }

static spvgen_status shared_build(void *state, uint32_t i, spvgen_vk_dispatch_desc *dd, uint32_t *count, char *msg,
                                  size_t size) {
  tune_shared *s = state;
  const void *plan = shared_plan(s, i);
  spvgen_status st = s->t->run_bind(plan, &s->data, msg, size);
  uint32_t K = sg_template_kernels(s->t, plan);
  if (st == SPVGEN_OK && (K > TUNE_MAX_KERNELS || K > SG_RUN_MAX_KERNELS))
    st = SPVGEN_ERROR_UNSUPPORTED,
    tune_msg(msg, size, "a plan of %u kernels; the tuner times plans of at most %u (the MLP's layers variant has "
             "no knobs of its own to tune: its GEMMs do)", K, TUNE_MAX_KERNELS);
  for (uint32_t k = 0; st == SPVGEN_OK && k < K; k++)
    st = tune_pipeline(s->ctx, s->mod, s->t, plan, k, s->data.spec, s->data.spec_count, &s->pipe[k], msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_vk_dispatch_desc out[SG_RUN_MAX_KERNELS];
  *count = sg_run_dispatches(&s->data, s->pipe, s->bufs, s->bound, out);
  if (*count != K)
    return tune_msg(msg, size, "the data has %u dispatches for a plan of %u kernels", *count, K),
           SPVGEN_ERROR_INVALID_STATE;
  for (uint32_t k = 0; k < K; k++) dd[k] = out[k];
  return SPVGEN_OK;
}

/* Outputs NaN (an element the candidate misses fails), the scratch too (a kernel must
 * not read what it did not write). */
static spvgen_status shared_poison(void *state, char *msg, size_t size) {
  tune_shared *s = state;
  return sg_run_poison(s->ctx, &s->data, s->bufs, msg, size);
}

static spvgen_status shared_check(void *state, uint32_t i, uint64_t *checked, uint64_t *bad, char *msg, size_t size) {
  tune_shared *s = state;
  const void *plan = shared_plan(s, i);
  spvgen_status st = sg_run_download(s->ctx, &s->data, s->bufs, true, msg, size);
  if (st != SPVGEN_OK) return st;
  sg_check c;
  memset(&c, 0, sizeof c);
  s->t->run_check(plan, &s->data, s->sample, &c);
  if (s->sample) s->t->run_compare(plan, &s->data, s->sample, &c);
  *checked = c.checked;
  *bad = c.bad;
  if (c.bad) {
    char where[128] = "";
    if (s->t->run_where) s->t->run_where(plan, &s->data, c.first_bad, where, sizeof where);
    tune_msg(msg, size, "%s: gpu %.6g, expected %.6g (tolerance %.3g)", where, c.first_bad_gpu, c.first_bad_ref,
             c.first_bad_tol);
  }
  return SPVGEN_OK;
}

static void shared_release(void *state, uint32_t i) {
  tune_shared *s = state;
  (void)i;
  for (uint32_t k = 0; k < TUNE_MAX_KERNELS; k++) {
    spvgen_vk_pipeline_destroy(s->pipe[k]);
    s->pipe[k] = NULL;
  }
}

spvgen_status tune_shared_loop(spvgen_vk_context *ctx, const sg_template *t, const char *who, const void *plans,
                               uint64_t points, uint64_t sample, const spvgen_tune_options *opt,
                               spvgen_tune_result *res, char *msg, size_t size) {
  tune_shared s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx;
  s.t = t;
  s.plans = plans;
  sg_run_request rq;
  memset(&rq, 0, sizeof rq);
  rq.seed = opt ? opt->seed : 0;
  rq.size = points;
  rq.plans = plans;
  rq.plan_count = res->count;
  spvgen_status st = t->run_data(ctx, plans, &rq, &s.data, msg, size);
  if (st == SPVGEN_OK) st = sg_run_upload(ctx, &s.data, s.bufs, msg, size);
  if (st == SPVGEN_OK && !(s.mod = spvgen_module_create(NULL)))
    st = SPVGEN_ERROR_OUT_OF_MEMORY, tune_msg(msg, size, "out of memory");
  if (st != SPVGEN_OK) {
    char why[512];
    snprintf(why, sizeof why, "%s", msg ? msg : "");
    tune_msg(msg, size, "%s: %s", who, why);
  }
  /* Every element when the problem's multiply-adds fit full_check_macs, else a sample. */
  uint64_t full = opt && opt->full_check_macs ? opt->full_check_macs : (1ull << 26);
  s.sample = s.data.flops / 2 > (double)full ? sample : 0;
  const tune_ops ops = {t->name, shared_build, shared_poison, shared_check, shared_release};
  if (st == SPVGEN_OK) st = tune_loop(ctx, &ops, &s, opt, res, msg, size);
  for (uint32_t k = 0; k < TUNE_MAX_KERNELS; k++) spvgen_vk_pipeline_destroy(s.pipe[k]);
  spvgen_module_destroy(s.mod);
  sg_run_destroy(&s.data, s.bufs);
  if (t->run_free) t->run_free(&s.data);
  return st;
}
