/* lib/tune/tune_mlp.c — the MLP template in the tuner: its cache key, the cached plan,
 * and the tuner's operations (candidates from spvgen_mlp_plans, random weights and
 * points, the float64 CPU reference of lib/ref/ref_mlp.c, output checks). Uses the public runner
 * API only. */
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

/* ----------------------------------------------------------------- state ---- */

#define MLP_SAMPLE 256 /* points checked against the CPU when not all are */

typedef struct mlp_state {
  spvgen_vk_context *ctx;
  const spvgen_mlp_config *plans;
  const spvgen_mlp_config *def;
  uint32_t points;
  uint8_t *weights;
  void *input, *out, *ref_out;
  uint64_t out_bytes, nout;
  uint64_t nsel, *sel;     /* the points checked against the CPU (all: sel[i] = i) */
  bool sampled, have_ref_out;
  double *pair_tol;        /* per output component: the bound against ref_out */
  double *ref_tol_sample;  /* the reference candidate's tolerances on the sample */
  double *ref, *err;       /* scratch: output_width values */
  spvgen_vk_buffer *bufs[3];
  uint32_t nbuf;
  spvgen_module *mod;
  spvgen_vk_pipeline *pipe;
  uint8_t *dev_weights;    /* the weight buffer as the device reads it (optimal layout) */
  uint64_t dev_weight_bytes;
  spvgen_spec_constant spec[SPVGEN_MLP_MAX_SPEC];
  uint32_t nspec;
} mlp_state;

static bool same_layout(const spvgen_mlp_config *a, const spvgen_mlp_config *b) {
  if (a->weight_bytes != b->weight_bytes || a->layer_count != b->layer_count ||
      a->desc.weight_layout != b->desc.weight_layout ||
      (a->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL && a->desc.vec_rows != b->desc.vec_rows))
    return false; /* (vec_rows: the optimal layout's pieces) */
  for (uint32_t l = 0; l < a->layer_count; l++)
    if (a->layers[l].matrix_offset != b->layers[l].matrix_offset || a->layers[l].bias_offset != b->layers[l].bias_offset ||
        a->layers[l].row_stride != b->layers[l].row_stride)
      return false;
  return true;
}

static spvgen_status mlp_build(void *state, uint32_t i, spvgen_vk_dispatch_desc *dd, char *msg, size_t size) {
  mlp_state *s = state;
  const spvgen_mlp_config *p = &s->plans[i];
  if (!same_layout(p, s->def))
    return tune_msg(msg, size, "its weight layout differs from the default plan's"), SPVGEN_ERROR_UNSUPPORTED;
  const spvgen_device_caps *caps = spvgen_vk_caps(s->ctx);
  uint32_t groups[3];
  spvgen_mlp_groups(p, s->points, groups);
  if (caps->max_workgroup_count[0] && groups[0] > caps->max_workgroup_count[0])
    return tune_msg(msg, size, "%u points need %u workgroups; the device allows %u", s->points, groups[0],
                    caps->max_workgroup_count[0]),
           SPVGEN_ERROR_UNSUPPORTED;
  spvgen_status st = tune_pipeline(s->ctx, s->mod, &sg_template_mlp, p, s->spec, s->nspec, &s->pipe, msg, size);
  if (st != SPVGEN_OK) return st;
  dd->pipeline = s->pipe;
  dd->buffers = s->bufs;
  dd->buffer_count = s->nbuf;
  dd->push_data = &s->points;
  dd->push_size = 4;
  for (int j = 0; j < 3; j++) dd->groups[j] = groups[j];
  return SPVGEN_OK;
}

static spvgen_status mlp_poison(void *state, char *msg, size_t size) {
  mlp_state *s = state;
  uint64_t bytes = (s->out_bytes + 3) & ~3ull;
  if (bytes < 4) bytes = 4;
  spvgen_status st = spvgen_vk_buffer_fill(s->ctx, s->bufs[2], 0, bytes, 0x7FC07FC0u); /* NaN */
  if (st != SPVGEN_OK) tune_msg(msg, size, "%s", spvgen_vk_error(s->ctx));
  return st;
}

static spvgen_status mlp_check(void *state, uint32_t i, uint64_t *checked, uint64_t *bad, char *msg, size_t size) {
  mlp_state *s = state;
  const spvgen_mlp_config *p = &s->plans[i];
  uint32_t ow = p->desc.output_width;
  *checked = *bad = 0;
  spvgen_status st = spvgen_vk_buffer_download(s->ctx, s->bufs[2], 0, s->out, s->out_bytes);
  if (st != SPVGEN_OK) return tune_msg(msg, size, "%s", spvgen_vk_error(s->ctx)), st;
  /* The sample (or every point) against the CPU, with this candidate's bound. */
  double *tol_here = s->sampled ? malloc(s->nsel * ow * sizeof *tol_here) : NULL;
  if (s->sampled && !tol_here) return tune_msg(msg, size, "out of host memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  for (uint64_t e = 0; e < s->nsel; e++) {
    uint64_t pt = s->sel[e];
    sg_ref_mlp_point(p, s->weights, s->input, pt, s->ref, s->err);
    for (uint32_t c = 0; c < ow; c++) {
      double g = sg_ref_mlp_get_output(p, s->out, pt * ow + c);
      double tol = sg_ref_mlp_tolerance(p, s->ref[c], s->err[c]);
      if (tol_here) tol_here[e * ow + c] = tol;
      if (!(fabs(g - s->ref[c]) <= tol)) { /* NaN counts as bad */
        if (!*bad)
          tune_msg(msg, size, "point %llu component %u: gpu %.6g, cpu %.6g (tolerance %.3g)", (unsigned long long)pt,
                   c, g, s->ref[c], tol);
        (*bad)++;
      }
    }
  }
  *checked = s->nsel * ow;
  if (s->sampled && s->have_ref_out) {
    /* Every component against the reference candidate's output: both are within their
     * bounds of the exact value; the bound here is twice the largest sum of the two
     * bounds seen on the sample, per component. */
    for (uint32_t c = 0; c < ow; c++) s->pair_tol[c] = 0;
    for (uint64_t e = 0; e < s->nsel; e++)
      for (uint32_t c = 0; c < ow; c++) {
        double t = 2.0 * (tol_here[e * ow + c] + s->ref_tol_sample[e * ow + c]);
        if (t > s->pair_tol[c]) s->pair_tol[c] = t;
      }
    for (uint64_t j = 0; j < s->nout; j++) {
      double x = sg_ref_mlp_get_output(p, s->out, j), y = sg_ref_mlp_get_output(p, s->ref_out, j);
      if (!(fabs(x - y) <= s->pair_tol[j % ow])) {
        if (!*bad)
          tune_msg(msg, size, "point %llu component %u: %.6g, the reference candidate's %.6g (tolerance %.3g)",
                   (unsigned long long)(j / ow), (unsigned)(j % ow), x, y, s->pair_tol[j % ow]);
        (*bad)++;
      }
    }
    *checked += s->nout;
  }
  if (!*bad && s->sampled && !s->have_ref_out) {
    memcpy(s->ref_out, s->out, s->out_bytes);
    memcpy(s->ref_tol_sample, tol_here, s->nsel * ow * sizeof *tol_here);
    s->have_ref_out = true;
  }
  free(tol_here);
  return SPVGEN_OK;
}

static void mlp_release(void *state, uint32_t i) {
  mlp_state *s = state;
  (void)i;
  spvgen_vk_pipeline_destroy(s->pipe);
  s->pipe = NULL;
}

static const tune_ops mlp_ops = {"mlp", mlp_build, mlp_poison, mlp_check, mlp_release};

static spvgen_status mlp_setup(mlp_state *s, const spvgen_tune_options *opt, char *msg, size_t size) {
  const spvgen_mlp_config *p = s->def;
  uint32_t ow = p->desc.output_width;
  uint64_t in_bytes = (uint64_t)s->points * p->desc.input_width * spvgen_component_type_size(p->desc.input_type);
  s->nout = (uint64_t)s->points * ow;
  s->out_bytes = s->nout * spvgen_component_type_size(p->desc.output_type);
  uint64_t full = opt && opt->full_check_macs ? opt->full_check_macs : (1ull << 26);
  s->sampled = (uint64_t)s->points * (p->flops_per_point / 2) > full && s->points > MLP_SAMPLE;
  s->nsel = s->sampled ? MLP_SAMPLE : s->points;
  s->weights = malloc(p->weight_bytes ? p->weight_bytes : 1);
  s->input = malloc(in_bytes ? in_bytes : 1);
  s->out = malloc(s->out_bytes + 4);
  s->sel = malloc(s->nsel * sizeof *s->sel);
  s->ref = malloc(ow * sizeof *s->ref);
  s->err = malloc(ow * sizeof *s->err);
  if (s->sampled) {
    s->ref_out = malloc(s->out_bytes + 4);
    s->pair_tol = malloc(ow * sizeof *s->pair_tol);
    s->ref_tol_sample = malloc(s->nsel * ow * sizeof *s->ref_tol_sample);
  }
  if (!s->weights || !s->input || !s->out || !s->sel || !s->ref || !s->err ||
      (s->sampled && (!s->ref_out || !s->pair_tol || !s->ref_tol_sample)))
    return tune_msg(msg, size, "spvgen_tune_mlp: out of host memory for %u points", s->points),
           SPVGEN_ERROR_OUT_OF_MEMORY;
  uint64_t seed = opt && opt->seed ? opt->seed : 0;
  sg_ref_mlp_fill(p, s->points, seed, s->weights, s->input);
  if (s->sampled) {
    /* The first and the last point, then random ones. */
    uint64_t s2 = (seed ? seed : 0x5eed0171full) ^ 0xC0FFEEull;
    for (uint64_t e = 0; e < s->nsel; e++)
      s->sel[e] = e == 0 ? 0 : e == 1 ? s->points - 1 : sg_ref_rng_next(&s2) % s->points;
  } else {
    for (uint64_t e = 0; e < s->nsel; e++) s->sel[e] = e;
  }
  spvgen_status wst = sg_mlp_device_weights(s->ctx, p, s->weights, &s->dev_weights, &s->dev_weight_bytes,
                                                s->spec, &s->nspec, msg, size);
  if (wst != SPVGEN_OK) return wst;
  struct { void *host; uint64_t bytes; } ops[3] = {{s->input, in_bytes}, {s->dev_weights, s->dev_weight_bytes},
                                                   {NULL, s->out_bytes}};
  for (int i = 0; i < 3; i++) {
    uint64_t bytes = ops[i].bytes < 4 ? 4 : (ops[i].bytes + 3) & ~3ull;
    if (spvgen_vk_buffer_create(s->ctx, bytes,
                                p->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0,
                                &s->bufs[s->nbuf]) != SPVGEN_OK ||
        (ops[i].host && spvgen_vk_buffer_upload(s->ctx, s->bufs[s->nbuf], 0, ops[i].host, ops[i].bytes) != SPVGEN_OK)) {
      if (s->bufs[s->nbuf]) s->nbuf++;
      return tune_msg(msg, size, "spvgen_tune_mlp: %s", spvgen_vk_error(s->ctx)), SPVGEN_ERROR_VULKAN;
    }
    s->nbuf++;
  }
  s->mod = spvgen_module_create(NULL);
  if (!s->mod) return tune_msg(msg, size, "spvgen_tune_mlp: out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  return SPVGEN_OK;
}

static void mlp_teardown(mlp_state *s) {
  for (uint32_t i = 0; i < s->nbuf; i++) spvgen_vk_buffer_destroy(s->bufs[i]);
  spvgen_vk_pipeline_destroy(s->pipe);
  spvgen_module_destroy(s->mod);
  free(s->dev_weights);
  free(s->weights);
  free(s->input);
  free(s->out);
  free(s->ref_out);
  free(s->sel);
  free(s->ref);
  free(s->err);
  free(s->pair_tol);
  free(s->ref_tol_sample);
}

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

  mlp_state s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx;
  s.plans = plans;
  s.def = &plans[0];
  s.points = (uint32_t)points;
  st = mlp_setup(&s, opt, msg, size);
  if (st == SPVGEN_OK) st = tune_loop(ctx, &mlp_ops, &s, opt, res, msg, size);
  mlp_teardown(&s);
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
