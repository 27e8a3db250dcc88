/* lib/tune/tune_gemm.c — the GEMM template in the tuner: its cache key, the cached plan,
 * and spvgen_tune_gemm (candidates from spvgen_gemm_plans, run over one data set and
 * checked by the GEMM's run hooks: tune_shared_loop). */
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
  spvgen_tune_gemm_key(desc, caps, res->key, sizeof res->key, NULL, 0);

  /* one data set for every candidate (the GEMM's run hooks); a sample of 1024 elements
   * when the problem is large */
  st = tune_shared_loop(ctx, &sg_template_gemm, "spvgen_tune_gemm", plans, 0, 1024, opt, res, msg, size);
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
