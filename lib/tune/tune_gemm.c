/* lib/tune/tune_gemm.c — the GEMM template in the tuner: its cache key, the cached plan,
 * and the tuner's operations (candidates from spvgen_gemm_plans, random operands, a
 * float64 CPU reference of lib/ref/ref_gemm.c, output checks). Uses the public runner API only. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_gemm.h"
#include "template.h"
#include "tune_internal.h"

/* ------------------------------------------------------------------- key ---- */

static uint32_t pow2_ceil(uint32_t x) {
  uint32_t p = 1;
  while (p < x && p < 0x80000000u) p <<= 1;
  return p;
}

/* The largest power of two dividing x, at most 16 (16 for 0). */
static uint32_t align_class(uint64_t x) {
  uint32_t a = 1;
  while (a < 16 && x % (2u * a) == 0) a *= 2;
  return a;
}

static uint32_t tight_ld(spvgen_matrix_layout layout, uint32_t rows, uint32_t cols) {
  return layout == SPVGEN_ROW_MAJOR ? cols : rows;
}

spvgen_status spvgen_tune_gemm_key(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps, char *key,
                                   size_t key_size, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (key && key_size) key[0] = 0;
  if (!desc || !key || !key_size)
    return tune_msg(msg, size, "spvgen_tune_gemm_key: desc or key is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_device_caps tmp;
  if (!caps) {
    spvgen_caps_preset("vulkan13", &tmp);
    caps = &tmp;
  }
  char why[256];
  if (spvgen_caps_check(caps, why, sizeof why) != SPVGEN_OK)
    return tune_msg(msg, size, "spvgen_tune_gemm_key: %s", why), SPVGEN_ERROR_INVALID_ARGUMENT;
  const spvgen_gemm_desc *d = desc;
  if (!d->m || !d->n || !d->k)
    return tune_msg(msg, size, "spvgen_tune_gemm_key: m, n and k must be at least 1 (got m=%u n=%u k=%u)", d->m, d->n,
                    d->k),
           SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_component_type ts[4] = {d->a_type, d->b_type, d->acc_type, d->out_type};
  const char *tn[4];
  for (int i = 0; i < 4; i++)
    if (!(tn[i] = spvgen_component_type_name(ts[i])))
      return tune_msg(msg, size, "spvgen_tune_gemm_key: element type %d is unknown", (int)ts[i]),
             SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_matrix_layout ls[4] = {d->a_layout, d->b_layout, d->c_layout, d->d_layout};
  for (int i = 0; i < 4; i++)
    if ((unsigned)ls[i] > SPVGEN_COL_MAJOR)
      return tune_msg(msg, size, "spvgen_tune_gemm_key: layout %d is unknown", (int)ls[i]),
             SPVGEN_ERROR_INVALID_ARGUMENT;
  bool has_c = d->beta != 0.0f;
  uint32_t lda = d->lda ? d->lda : tight_ld(d->a_layout, d->m, d->k);
  uint32_t ldb = d->ldb ? d->ldb : tight_ld(d->b_layout, d->k, d->n);
  uint32_t ldc = d->ldc ? d->ldc : tight_ld(d->c_layout, d->m, d->n);
  uint32_t ldd = d->ldd ? d->ldd : tight_ld(d->d_layout, d->m, d->n);
  uint32_t batch = d->batch ? d->batch : 1;
  char dev[256];
  tune_device_field(caps, dev, sizeof dev);
  char cl[8], ca[8];
  snprintf(cl, sizeof cl, "%c", has_c ? (d->c_layout ? 't' : 'n') : '-');
  if (has_c) snprintf(ca, sizeof ca, "%u", align_class(ldc));
  else snprintf(ca, sizeof ca, "-");
  int n = snprintf(key, key_size,
                   "gemm dev=%s types=%s,%s,%s,%s layout=%c%c%s%c shape=%ux%ux%ux%u "
                   "align=%u,%u,%u,%u,%u,%s,%u%s",
                   dev, tn[0], tn[1], tn[2], tn[3],
                   d->a_layout ? 't' : 'n', d->b_layout ? 't' : 'n', cl, d->d_layout ? 't' : 'n', pow2_ceil(d->m),
                   pow2_ceil(d->n), pow2_ceil(d->k), pow2_ceil(batch), align_class(d->m), align_class(d->n),
                   align_class(d->k), align_class(lda), align_class(ldb), ca, align_class(ldd),
                   d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? " addressing=device-address" : "");
  if (n < 0 || (size_t)n >= key_size) {
    key[0] = 0;
    return tune_msg(msg, size, "spvgen_tune_gemm_key: the key needs %d bytes, key_size is %zu", n + 1, key_size),
           SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  return SPVGEN_OK;
}

/* ---------------------------------------------------------------- cached ---- */

/* Sets d's zero knobs from k; false (why) when k conflicts with a knob d sets. */
static bool apply_knobs(spvgen_gemm_desc *d, const spvgen_tune_knobs *k, char *why, size_t size) {
  spvgen_gemm_variant v;
  if (!spvgen_gemm_variant_parse(k->variant, &v) || v == SPVGEN_GEMM_AUTO)
    return tune_msg(why, size, "variant '%s' is not a GEMM variant", k->variant), false;
  if (d->variant != SPVGEN_GEMM_AUTO && d->variant != v)
    return tune_msg(why, size, "the desc asks for variant %s", spvgen_gemm_variant_name(d->variant)), false;
  d->variant = v;
  struct { const char *name; uint32_t *field; uint32_t value; } f[] = {
      {"tile_m", &d->tile_m, k->tile_m}, {"tile_n", &d->tile_n, k->tile_n},
      {"tile_k", &d->tile_k, k->tile_k}, {"workgroup_size", &d->workgroup_size, k->workgroup_size},
      {"subgroups", &d->subgroups, k->subgroups}, {"stages", &d->stages, k->stages},
      {"unroll", &d->unroll, k->unroll}, {"split_k", &d->split_k, k->split_k}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    if (!f[i].value) continue;
    if (*f[i].field && *f[i].field != f[i].value)
      return tune_msg(why, size, "the desc sets %s %u", f[i].name, *f[i].field), false;
    *f[i].field = f[i].value;
  }
  return true;
}

/* spvgen_gemm_plan, with message "" on success (its AUTO path may leave the reason a
 * preferred variant was passed over). */
static spvgen_status plan_clean(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                spvgen_gemm_config *plan, char *msg, size_t size) {
  spvgen_status st = spvgen_gemm_plan(desc, caps, plan, msg, size);
  if (st == SPVGEN_OK && msg && size) msg[0] = 0;
  return st;
}

spvgen_status spvgen_gemm_plan_cached(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                      const spvgen_tune_cache *cache, spvgen_gemm_config *plan, char *msg,
                                      size_t size) {
  if (msg && size) msg[0] = 0;
  char key[SPVGEN_TUNE_KEY_SIZE];
  spvgen_tune_entry e;
  if (!cache || !desc || spvgen_tune_gemm_key(desc, caps, key, sizeof key, NULL, 0) != SPVGEN_OK ||
      !spvgen_tune_cache_lookup(cache, key, &e))
    return plan_clean(desc, caps, plan, msg, size);
  spvgen_gemm_desc d = *desc;
  char why[512];
  spvgen_status st = SPVGEN_ERROR_INVALID_ARGUMENT;
  if (apply_knobs(&d, &e.knobs, why, sizeof why)) st = spvgen_gemm_plan(&d, caps, plan, why, sizeof why);
  if (st == SPVGEN_OK) return st;
  st = plan_clean(desc, caps, plan, msg, size);
  if (st == SPVGEN_OK)
    tune_msg(msg, size,
             "spvgen_gemm_plan_cached: the %s entry (%s %ux%ux%u wg%u) does not fit here (%s); the heuristic plan "
             "is used",
             e.origin == SPVGEN_TUNE_ORIGIN_BUILTIN ? "compiled-in" : "cache file", e.knobs.variant, e.knobs.tile_m,
             e.knobs.tile_n, e.knobs.tile_k, e.knobs.workgroup_size, why);
  return st;
}

/* ----------------------------------------------------------------- state ---- */

typedef struct gemm_state {
  spvgen_vk_context *ctx;
  const spvgen_gemm_config *plans; /* one per candidate of the result table */
  spvgen_gemm_desc d;              /* resolved (the default plan's desc) */
  void *ha, *hb, *hc, *hbias, *hd, *ref_out;
  uint64_t nd;                     /* elements of D's buffer */
  uint32_t out_size;
  spvgen_vk_buffer *bufs[6];
  uint32_t nbuf;                   /* A, B, D, C, bias as the desc has them */
  uint64_t ws_bytes;               /* the largest split-K workspace of the candidates */
  spvgen_vk_buffer *ws;            /* = bufs[nbuf] when ws_bytes, zeroed */
  /* The elements checked against the CPU: all (sel NULL) or a sample. */
  uint64_t total, nsel, *sel;
  double *ref, *tol;
  double pair_tol_abs, pair_tol_rel; /* output against the reference output */
  bool int_exact, have_ref_out;
  spvgen_module *mod;
  spvgen_vk_pipeline *pipe;
} gemm_state;

/* The CPU reference and its tolerance at element lin (lib/ref/ref_gemm.c). */
static void reference(const gemm_state *s, uint64_t lin, double *ref_out, double *tol_out) {
  sg_ref_gemm_element(&s->d, s->ha, s->hb, s->hc, s->hbias, lin, ref_out, tol_out, NULL);
}

static uint64_t d_offset(const spvgen_gemm_desc *d, uint64_t lin, uint64_t *bz, uint64_t *r, uint64_t *c) {
  return sg_ref_d_offset(d, lin, bz, r, c);
}

static spvgen_status gemm_build(void *state, uint32_t i, spvgen_vk_dispatch_desc *dd, char *msg, size_t size) {
  gemm_state *s = state;
  const spvgen_gemm_config *p = &s->plans[i];
  spvgen_status st = tune_pipeline(s->ctx, s->mod, &sg_template_gemm, p, NULL, 0, &s->pipe, msg, size);
  if (st != SPVGEN_OK) return st;
  dd->pipeline = s->pipe;
  dd->buffers = s->bufs;
  dd->buffer_count = s->nbuf + (p->workspace_bytes ? 1u : 0u); /* the workspace last */
  for (int j = 0; j < 3; j++) dd->groups[j] = p->groups[j];
  return SPVGEN_OK;
}

static spvgen_status gemm_poison(void *state, char *msg, size_t size) {
  gemm_state *s = state;
  uint64_t bytes = (s->nd * s->out_size + 3) & ~3ull;
  if (bytes < 4) bytes = 4;
  spvgen_status st = spvgen_vk_buffer_fill(s->ctx, s->bufs[2], 0, bytes, 0x7FC07FC0u);
  /* The split-K counters start at 0 (each complete run leaves them so; a candidate that
   * failed part-way may not have). */
  if (st == SPVGEN_OK && s->ws) st = spvgen_vk_buffer_fill(s->ctx, s->ws, 0, (s->ws_bytes + 3) & ~3ull, 0);
  if (st != SPVGEN_OK) tune_msg(msg, size, "%s", spvgen_vk_error(s->ctx));
  return st;
}

static spvgen_status gemm_check(void *state, uint32_t i, uint64_t *checked, uint64_t *bad, char *msg, size_t size) {
  gemm_state *s = state;
  const spvgen_gemm_desc *d = &s->d;
  (void)i;
  *checked = *bad = 0;
  spvgen_status st = spvgen_vk_buffer_download(s->ctx, s->bufs[2], 0, s->hd, s->nd * s->out_size);
  if (st != SPVGEN_OK) return tune_msg(msg, size, "%s", spvgen_vk_error(s->ctx)), st;
  uint64_t bz, r, c;
  for (uint64_t e = 0; e < s->nsel; e++) {
    uint64_t lin = s->sel ? s->sel[e] : e;
    double gpu = sg_ref_get(s->hd, d->out_type, d_offset(d, lin, &bz, &r, &c));
    double err = fabs(gpu - s->ref[e]);
    if (!(err <= s->tol[e])) { /* NaN counts as bad */
      if (!*bad)
        tune_msg(msg, size, "element (%llu, %llu) of batch %llu: gpu %.6g, cpu %.6g (tolerance %.3g)",
                 (unsigned long long)r, (unsigned long long)c, (unsigned long long)bz, gpu, s->ref[e], s->tol[e]);
      (*bad)++;
    }
  }
  *checked = s->nsel;
  if (s->sel && s->have_ref_out) {
    /* A sample was checked against the CPU: every element against the reference
     * candidate's output too (both within tolerance of the exact result). */
    for (uint64_t lin = 0; lin < s->total; lin++) {
      uint64_t off = d_offset(d, lin, &bz, &r, &c);
      double x = sg_ref_get(s->hd, d->out_type, off), y = sg_ref_get(s->ref_out, d->out_type, off);
      double tol = s->int_exact ? 0.0 : s->pair_tol_abs + s->pair_tol_rel * fabs(y);
      if (!(fabs(x - y) <= tol)) {
        if (!*bad)
          tune_msg(msg, size, "element (%llu, %llu) of batch %llu: %.6g, the reference candidate's %.6g",
                   (unsigned long long)r, (unsigned long long)c, (unsigned long long)bz, x, y);
        (*bad)++;
      }
    }
    *checked += s->total;
  }
  if (!*bad && s->sel && !s->have_ref_out) {
    memcpy(s->ref_out, s->hd, s->nd * s->out_size);
    s->have_ref_out = true;
  }
  return SPVGEN_OK;
}

static void gemm_release(void *state, uint32_t i) {
  gemm_state *s = state;
  (void)i;
  spvgen_vk_pipeline_destroy(s->pipe);
  s->pipe = NULL;
}

static const tune_ops gemm_ops = {"gemm", gemm_build, gemm_poison, gemm_check, gemm_release};

/* Host operands, device buffers and the CPU reference of the checked elements. */
static spvgen_status gemm_setup(gemm_state *s, const spvgen_tune_options *opt, char *msg, size_t size) {
  const spvgen_gemm_desc *d = &s->d;
  uint64_t seed = opt && opt->seed ? opt->seed : 0x5eed7a11ull;
  uint64_t na = d->stride_a * d->batch, nb = d->stride_b * d->batch;
  uint64_t nc = d->beta != 0.0f ? d->stride_c * d->batch : 0;
  uint64_t nbias = d->bias == SPVGEN_GEMM_BIAS_ROW ? d->m : d->bias == SPVGEN_GEMM_BIAS_COLUMN ? d->n : 0;
  s->nd = d->stride_d * d->batch;
  s->out_size = spvgen_component_type_size(d->out_type);
  s->total = (uint64_t)d->m * d->n * d->batch;
  s->int_exact = !sg_ref_is_float(d->acc_type) && !sg_ref_is_float(d->out_type);
  s->ha = sg_ref_fill(&seed, d->a_type, na);
  s->hb = sg_ref_fill(&seed, d->b_type, nb);
  s->hc = nc ? sg_ref_fill(&seed, d->out_type, nc) : NULL;
  s->hbias = nbias ? sg_ref_fill(&seed, d->out_type, nbias) : NULL;
  s->hd = malloc(s->nd * s->out_size + 4);
  uint64_t full = opt && opt->full_check_macs ? opt->full_check_macs : (1ull << 26);
  bool all = s->total * d->k <= full;
  s->nsel = all ? s->total : (s->total < 1024 ? s->total : 1024);
  if (!all) {
    s->sel = malloc(s->nsel * sizeof *s->sel);
    s->ref_out = malloc(s->nd * s->out_size + 4);
  }
  s->ref = malloc(s->nsel * sizeof *s->ref);
  s->tol = malloc(s->nsel * sizeof *s->tol);
  if (!s->ha || !s->hb || (nc && !s->hc) || (nbias && !s->hbias) || !s->hd || !s->ref || !s->tol ||
      (!all && (!s->sel || !s->ref_out)))
    return tune_msg(msg, size, "spvgen_tune_gemm: out of host memory for the operands"), SPVGEN_ERROR_OUT_OF_MEMORY;
  if (!all) {
    /* The corners first (edge tiles), then random elements. */
    uint64_t s2 = seed ^ 0xC0FFEEull, mn = (uint64_t)d->m * d->n;
    uint64_t corners[4] = {0, d->n - 1, (uint64_t)(d->m - 1) * d->n, mn - 1};
    for (uint64_t e = 0; e < s->nsel; e++)
      s->sel[e] = e < 4 ? (d->batch - 1) * mn * (e & 1) + corners[e] : sg_ref_rng_next(&s2) % s->total;
  }
  for (uint64_t e = 0; e < s->nsel; e++) reference(s, s->sel ? s->sel[e] : e, &s->ref[e], &s->tol[e]);
  /* Against another candidate's output: each within its tolerance of the exact value,
   * with sum |a*b| <= K (inputs below 1 in magnitude). */
  double acc_ulps = d->acc_type == SPVGEN_COMPONENT_F16 ? 8.0 : 16.0;
  s->pair_tol_abs = 2.0 * (acc_ulps * sg_ref_unit(d->acc_type) * d->k * fabs(d->alpha) * 1.1 +
                           (sg_ref_is_float(d->out_type) ? 1e-6 : 1.0));
  s->pair_tol_rel = 4.0 * sg_ref_unit(d->out_type);
  if (d->activation == SPVGEN_ACTIVATION_GELU || d->activation == SPVGEN_ACTIVATION_SILU) {
    s->pair_tol_abs += 6e-5;
    s->pair_tol_rel += 6e-5;
  }

  /* device-address candidates take buffers that have an address */
  const uint32_t bda_flags = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0;
  struct { void *host; uint64_t bytes; } ops[5] = {
      {s->ha, na * spvgen_component_type_size(d->a_type)},
      {s->hb, nb * spvgen_component_type_size(d->b_type)},
      {NULL, s->nd * s->out_size},
      {s->hc, nc * s->out_size},
      {s->hbias, nbias * s->out_size}};
  for (int i = 0; i < 5; i++) {
    if (i >= 3 && !ops[i].bytes) continue;
    uint64_t bytes = ops[i].bytes < 4 ? 4 : (ops[i].bytes + 3) & ~3ull;
    if (spvgen_vk_buffer_create(s->ctx, bytes, bda_flags, &s->bufs[s->nbuf]) != SPVGEN_OK ||
        (ops[i].host && spvgen_vk_buffer_upload(s->ctx, s->bufs[s->nbuf], 0, ops[i].host, ops[i].bytes) != SPVGEN_OK)) {
      if (s->bufs[s->nbuf]) s->nbuf++;
      return tune_msg(msg, size, "spvgen_tune_gemm: %s", spvgen_vk_error(s->ctx)), SPVGEN_ERROR_VULKAN;
    }
    s->nbuf++;
  }
  if (s->ws_bytes) {
    /* The split-K workspace, bound after the others by the candidates that split K. */
    uint64_t bytes = (s->ws_bytes + 3) & ~3ull;
    if (spvgen_vk_buffer_create(s->ctx, bytes, bda_flags, &s->ws) != SPVGEN_OK ||
        spvgen_vk_buffer_fill(s->ctx, s->ws, 0, bytes, 0) != SPVGEN_OK)
      return tune_msg(msg, size, "spvgen_tune_gemm: %s", spvgen_vk_error(s->ctx)), SPVGEN_ERROR_VULKAN;
    s->bufs[s->nbuf] = s->ws;
  }
  s->mod = spvgen_module_create(NULL);
  if (!s->mod) return tune_msg(msg, size, "spvgen_tune_gemm: out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  return SPVGEN_OK;
}

static void gemm_teardown(gemm_state *s) {
  for (uint32_t i = 0; i < s->nbuf; i++) spvgen_vk_buffer_destroy(s->bufs[i]);
  spvgen_vk_buffer_destroy(s->ws);
  spvgen_vk_pipeline_destroy(s->pipe);
  spvgen_module_destroy(s->mod);
  free(s->ha);
  free(s->hb);
  free(s->hc);
  free(s->hbias);
  free(s->hd);
  free(s->ref_out);
  free(s->sel);
  free(s->ref);
  free(s->tol);
}

spvgen_status spvgen_tune_gemm(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc, const spvgen_tune_options *opt,
                               spvgen_tune_result *res, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!ctx || !desc || !res)
    return tune_msg(msg, size, "spvgen_tune_gemm: ctx, desc or result is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  memset(res, 0, sizeof *res);
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  /* The heuristic plan first, then every other candidate in spvgen_gemm_plans' order. */
  spvgen_gemm_config def;
  spvgen_status st = plan_clean(desc, caps, &def, msg, size);
  if (st != SPVGEN_OK) return st;
  if (def.desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME)
    return tune_msg(msg, size,
                    "spvgen_tune_gemm: a run-time shape desc: tune a fixed shape of its class (m, n, k set, shapes "
                    "fixed); its knobs apply to the class"),
           SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_gemm_config *plans = NULL;
  st = tune_candidates(&sg_template_gemm, "spvgen_tune_gemm", desc, caps, &def, (void **)&plans, res, msg, size);
  if (st != SPVGEN_OK) return st;
  const uint32_t count = res->count;
  spvgen_tune_gemm_key(desc, caps, res->key, sizeof res->key, NULL, 0);

  gemm_state s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx;
  s.plans = plans;
  s.d = def.desc;
  for (uint32_t i = 0; i < count; i++)
    if (plans[i].workspace_bytes > s.ws_bytes) s.ws_bytes = plans[i].workspace_bytes;
  st = gemm_setup(&s, opt, msg, size);
  if (st == SPVGEN_OK) st = tune_loop(ctx, &gemm_ops, &s, opt, res, msg, size);
  gemm_teardown(&s);
  if (st == SPVGEN_OK) {
    res->plan = plans[res->best];
    spvgen_tune_entry e;
    memset(&e, 0, sizeof e);
    e.m = def.desc.m;
    e.n = def.desc.n;
    e.k = def.desc.k;
    e.batch = def.desc.batch;
    e.compile_ms = res->candidates[res->best].compile_ms;
    tune_store(opt, res, &e, msg, size);
  }
  free(plans);
  return st;
}
