/* lib/tune/tune_mlp.c — the MLP template in the tuner: its cache key, the cached plan,
 * and spvgen_tune_mlp (candidates from spvgen_mlp_plans, run over one set of weights and
 * points and checked by the MLP's run hooks: tune_shared_loop). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_convert.h"
#include "ref_mlp.h"
#include "template.h"
#include "tune_internal.h"

/* ------------------------------------------------------------------- key ---- */

static uint64_t pow2_ceil64(uint64_t x) {
  uint64_t p = 1;
  while (p < x && p < (1ull << 63)) p <<= 1;
  return p;
}

/* The network resolved without the knobs (they are not part of the key). */
static spvgen_status resolve_net(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                                 spvgen_mlp_config *p, char *msg, size_t size) {
  spvgen_mlp_desc d = *desc;
  d.variant = SPVGEN_MLP_AUTO;
  d.workgroup_size = 0;
  d.points_per_group = 0;
  if (spvgen_mlp_plan(&d, caps, p, NULL, 0) == SPVGEN_OK) return SPVGEN_OK;
  return spvgen_mlp_plan(desc, caps, p, msg, size);
}

static const char *type_name(spvgen_component_type t) {
  return spvgen_component_type_name(t ? t : SPVGEN_COMPONENT_F16);
}

spvgen_status spvgen_tune_mlp_key(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps, uint64_t points,
                                  char *key, size_t key_size, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (key && key_size) key[0] = 0;
  if (!desc || !key || !key_size)
    return tune_msg(msg, size, "spvgen_tune_mlp_key: desc or key is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!points)
    return tune_msg(msg, size, "spvgen_tune_mlp_key: points must be at least 1"), SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_device_caps tmp;
  if (!caps) {
    spvgen_caps_preset("vulkan13", &tmp);
    caps = &tmp;
  }
  spvgen_mlp_config p;
  char why[256];
  spvgen_status st = resolve_net(desc, caps, &p, why, sizeof why);
  if (st != SPVGEN_OK) return tune_msg(msg, size, "spvgen_tune_mlp_key: %s", why), st;
  const spvgen_mlp_desc *d = &p.desc;
  char dev[256], net[16 * 12], acts[16 * 24], enc[64];
  tune_device_field(caps, dev, sizeof dev);
  size_t o = (size_t)snprintf(net, sizeof net, "%u", p.encoded_width);
  for (uint32_t l = 0; l < p.layer_count && o < sizeof net; l++)
    o += (size_t)snprintf(net + o, sizeof net - o, "-%u", p.layers[l].outputs);
  o = 0;
  acts[0] = 0;
  for (uint32_t l = 0; l < p.layer_count && o < sizeof acts; l++) {
    spvgen_mlp_activation a = p.layers[l].activation;
    const char *an = spvgen_mlp_activation_name(a);
    if (a == SPVGEN_MLP_ACT_LEAKY_RELU)
      o += (size_t)tune_snprintf_c(acts + o, sizeof acts - o, "%s%s:%g", l ? "," : "", an, (double)d->leaky_slope);
    else
      o += (size_t)snprintf(acts + o, sizeof acts - o, "%s%s", l ? "," : "", an ? an : "?");
  }
  if (d->encoding == SPVGEN_MLP_ENCODING_NONE) snprintf(enc, sizeof enc, "none");
  else if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID)
    snprintf(enc, sizeof enc, "hashgrid:%u,%u,%u,%u,%g", d->grid.levels, d->grid.features, d->grid.log2_hashmap_size,
             d->grid.base_resolution, (double)d->grid.per_level_scale);
  else snprintf(enc, sizeof enc, "%s:%u", spvgen_mlp_encoding_name(d->encoding), d->encoding_size);
  int n = snprintf(key, key_size,
                   "mlp dev=%s net=%s acts=%s enc=%s types=%s,%s,%s acc=%s bias=%d points=%llu%s%s", dev, net, acts,
                   enc, type_name(d->weight_type), type_name(d->input_type), type_name(d->output_type),
                   desc->f16_accumulation ? "f16" : "f32", d->no_bias ? 0 : 1,
                   (unsigned long long)pow2_ceil64(points),
                   d->weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL ? " weights=optimal" : "",
                   d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? " addressing=device-address" : "");
  if (n < 0 || (size_t)n >= key_size) {
    key[0] = 0;
    return tune_msg(msg, size, "spvgen_tune_mlp_key: the key needs %d bytes, key_size is %zu", n + 1, key_size),
           SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  return SPVGEN_OK;
}

/* ---------------------------------------------------------------- cached ---- */

/* Sets d's zero knobs from k; false (why) when k is not an MLP entry or conflicts with
 * a knob d sets. */
static bool apply_knobs(spvgen_mlp_desc *d, const spvgen_tune_knobs *k, char *why, size_t size) {
  spvgen_mlp_variant v;
  bool rows = !strcmp(k->variant, "mat-rows");
  if (rows) v = SPVGEN_MLP_MAT;
  else if (!spvgen_mlp_variant_parse(k->variant, &v) || v == SPVGEN_MLP_AUTO)
    return tune_msg(why, size, "variant '%s' is not an MLP variant", k->variant), false;
  if (k->tile_n || k->tile_k || k->subgroups || k->stages || k->unroll || k->split_k)
    return tune_msg(why, size, "it sets knobs the MLP does not have"), false;
  if (d->variant != SPVGEN_MLP_AUTO && d->variant != v)
    return tune_msg(why, size, "the desc asks for variant %s", spvgen_mlp_variant_name(d->variant)), false;
  d->variant = v;
  d->mat_rows = d->mat_rows || rows;
  if (k->workgroup_size) {
    if (d->workgroup_size && d->workgroup_size != k->workgroup_size)
      return tune_msg(why, size, "the desc sets workgroup_size %u", d->workgroup_size), false;
    d->workgroup_size = k->workgroup_size;
  }
  if (k->tile_m) {
    if (d->points_per_group && d->points_per_group != k->tile_m)
      return tune_msg(why, size, "the desc sets points_per_group %u", d->points_per_group), false;
    d->points_per_group = k->tile_m;
  }
  return true;
}

static spvgen_status plan_clean(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                                spvgen_mlp_config *plan, char *msg, size_t size) {
  spvgen_status st = spvgen_mlp_plan(desc, caps, plan, msg, size);
  if (st == SPVGEN_OK && msg && size) msg[0] = 0;
  return st;
}

spvgen_status spvgen_mlp_plan_cached(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps, uint64_t points,
                                     const spvgen_tune_cache *cache, spvgen_mlp_config *plan, char *msg,
                                     size_t size) {
  if (msg && size) msg[0] = 0;
  char key[SPVGEN_TUNE_KEY_SIZE];
  spvgen_tune_entry e;
  if (!cache || !desc || spvgen_tune_mlp_key(desc, caps, points, key, sizeof key, NULL, 0) != SPVGEN_OK ||
      !spvgen_tune_cache_lookup(cache, key, &e))
    return plan_clean(desc, caps, plan, msg, size);
  spvgen_mlp_desc d = *desc;
  char why[512];
  spvgen_status st = SPVGEN_ERROR_INVALID_ARGUMENT;
  if (apply_knobs(&d, &e.knobs, why, sizeof why)) st = spvgen_mlp_plan(&d, caps, plan, why, sizeof why);
  if (st == SPVGEN_OK) return st;
  st = plan_clean(desc, caps, plan, msg, size);
  if (st == SPVGEN_OK)
    tune_msg(msg, size,
             "spvgen_mlp_plan_cached: the %s entry (%s wg%u ppg%u) does not fit here (%s); the heuristic plan is used",
             e.origin == SPVGEN_TUNE_ORIGIN_BUILTIN ? "compiled-in" : "cache file", e.knobs.variant,
             e.knobs.workgroup_size, e.knobs.tile_m, why);
  return st;
}

#define MLP_SAMPLE 256 /* points checked against the CPU when not all are */

spvgen_status spvgen_tune_mlp(spvgen_vk_context *ctx, const spvgen_mlp_desc *desc, uint64_t points,
                              const spvgen_tune_options *opt, spvgen_tune_result *res, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!ctx || !desc || !res)
    return tune_msg(msg, size, "spvgen_tune_mlp: ctx, desc or result is NULL"), SPVGEN_ERROR_INVALID_ARGUMENT;
  memset(res, 0, sizeof *res);
  if (!points) points = 65536;
  if (points > 0xFFFFFFFFull)
    return tune_msg(msg, size, "spvgen_tune_mlp: points %llu: the kernel's point count is a uint32",
                    (unsigned long long)points),
           SPVGEN_ERROR_INVALID_ARGUMENT;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_mlp_config def;
  spvgen_status st = plan_clean(desc, caps, &def, msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_mlp_config *plans = NULL;
  st = tune_candidates(&sg_template_mlp, "spvgen_tune_mlp", desc, caps, &def, (void **)&plans, res, msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_tune_mlp_key(desc, caps, points, res->key, sizeof res->key, NULL, 0);

  /* one set of weights and points for every candidate (the MLP's run hooks) */
  st = tune_shared_loop(ctx, &sg_template_mlp, "spvgen_tune_mlp", plans, points, MLP_SAMPLE, opt, res, msg, size);
  if (st == SPVGEN_OK) {
    res->mlp_plan = plans[res->best];
    spvgen_tune_entry e;
    memset(&e, 0, sizeof e);
    e.m = (uint32_t)points;
    tune_store(opt, res, &e, msg, size);
  }
  free(plans);
  return st;
}
