/* emitters/mlp/mlp_template.c — the fused MLP's entry in the table of templates
 * (lib/template/template.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_convert.h"
#include "ref_mlp.h"
#include "spvgen/mlp.h"
#include "template.h"

SG_TEMPLATE_API(mlp)

static void plan_name(const void *p, char *buf, size_t size) {
  snprintf(buf, size, "%s", ((const spvgen_mlp_config *)p)->name);
}

static const char *variant_name(const void *plan) {
  return spvgen_mlp_variant_name(((const spvgen_mlp_config *)plan)->variant);
}

/* The MLP's members of `spvgen mlp --json`: types, sizes and the weight layout. */
static void describe(const void *plan, const spvgen_device_caps *caps, sg_json *j) {
  (void)caps;
  const spvgen_mlp_config *p = plan;
  sg_json_u64(j, "points_per_workgroup", p->points_per_workgroup);
  sg_json_str(j, "input_type", spvgen_component_type_name(p->desc.input_type));
  sg_json_str(j, "output_type", spvgen_component_type_name(p->desc.output_type));
  sg_json_u64(j, "encoded_width", p->encoded_width);
  sg_json_u64(j, "flops_per_point", p->flops_per_point);
  sg_json_u64(j, "weight_bytes", p->weight_bytes);
  sg_json_u64(j, "compile_ms", p->compile_ms);
  sg_json_str(j, "weight_layout", p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL ? "optimal" : "row-major");
  sg_json_array(j, "layers", false);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    sg_json_object(j, NULL, true);
    sg_json_u64(j, "inputs", L->inputs);
    sg_json_u64(j, "outputs", L->outputs);
    sg_json_u64(j, "row_stride", L->row_stride);
    sg_json_u64(j, "matrix_offset", L->matrix_offset);
    sg_json_u64(j, "bias_offset", L->bias_offset);
    sg_json_str(j, "activation", spvgen_mlp_activation_name(L->activation));
    sg_json_end(j);
  }
  sg_json_end(j);
  sg_json_u64(j, "shared_bytes", p->shared_bytes);
  if (p->variant == SPVGEN_MLP_LAYERS) { /* the GEMMs, and which layer runs which */
    sg_json_u64(j, "workspace_ld", p->workspace_ld);
    sg_json_array(j, "gemms", false);
    for (uint32_t i = 0; i < p->gemm_count; i++) sg_json_str(j, NULL, p->gemms[i].name);
    sg_json_end(j);
    sg_json_array(j, "layer_gemm", true);
    for (uint32_t l = 0; l < p->layer_count; l++) sg_json_u64(j, NULL, p->layer_gemm[l]);
    sg_json_end(j);
    /* the padding: the multiple (0: none; then kernel 0 copies the weights) and each layer's
     * GEMM widths (N, the padded outputs) */
    sg_json_u64(j, "pad_width", p->pad_width);
    if (p->pad_width) {
      sg_json_array(j, "padded_widths", true);
      for (uint32_t l = 0; l < p->layer_count; l++) {
        const uint32_t n = p->layers[l].outputs, w = p->pad_width;
        sg_json_u64(j, NULL, l + 1 < p->layer_count ? (n + w - 1) / w * w : n);
      }
      sg_json_end(j);
    }
  }
}

/* Each variant on the preset it targets, on the two networks of the MLP issue and an odd
 * one with an encoding; the layers variant on a wide network. */
static uint32_t examples(void *descs, const char **presets, uint32_t max) {
  static const struct {
    const char *preset;
    spvgen_mlp_variant variant;
    uint32_t in, width, count, out;
    spvgen_mlp_encoding encoding;
  } rows[] = {
      {"h100", SPVGEN_MLP_VEC, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"vulkan13", SPVGEN_MLP_LOOP, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_VEC, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"vulkan13", SPVGEN_MLP_LOOP, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 3, 33, 3, 4, SPVGEN_MLP_ENCODING_FREQUENCY},
      {"h100", SPVGEN_MLP_LAYERS, 64, 256, 3, 64, SPVGEN_MLP_ENCODING_NONE}, /* a GEMM per layer */
  };
  uint32_t n = 0;
  for (; n < max && n < sizeof rows / sizeof rows[0]; n++) {
    spvgen_mlp_desc *d = (spvgen_mlp_desc *)descs + n;
    memset(d, 0, sizeof *d);
    d->input_width = rows[n].in;
    d->hidden_width = rows[n].width;
    d->hidden_count = rows[n].count;
    d->output_width = rows[n].out;
    d->encoding = rows[n].encoding;
    d->variant = rows[n].variant;
    presets[n] = rows[n].preset;
  }
  return n;
}

static void knobs(const void *plan_, spvgen_tune_knobs *k) {
  const spvgen_mlp_config *p = plan_;
  memset(k, 0, sizeof *k);
  /* the mat variant's rows arrangement rides in the variant's name: "mat-rows" */
  snprintf(k->variant, sizeof k->variant, "%s%s", spvgen_mlp_variant_name(p->variant), p->desc.mat_rows ? "-rows" : "");
  k->workgroup_size = p->desc.workgroup_size;
  k->tile_m = p->desc.points_per_group;
}

/* Another candidate when a knob differs; the accumulation is the desc's choice, never
 * the tuner's. */
static bool candidate(const void *def_, const void *plan_) {
  const spvgen_mlp_config *a = plan_, *b = def_;
  bool same = a->variant == b->variant && a->desc.workgroup_size == b->desc.workgroup_size &&
              a->desc.points_per_group == b->desc.points_per_group && a->desc.mat_rows == b->desc.mat_rows &&
              a->desc.mat_slab == b->desc.mat_slab;
  return !same && a->desc.f16_accumulation == b->desc.f16_accumulation;
}

static uint32_t addressing_model(const void *plan) { return spvgen_mlp_addressing_model(plan); }

/* Plans of several kernels: the layers variant's, one per layer (spvgen/mlp.h). */
static uint32_t kernel_count(const void *plan) { return spvgen_mlp_kernel_count(plan); }
static spvgen_status emit_kernel(spvgen_module *m, const void *plan, uint32_t which, spvgen_kernel_info *info) {
  return spvgen_mlp_emit_kernel(m, plan, which, info);
}
/* Layer l's kernel "main" (l = 0) or "layer<l>"; a padded plan's kernel 0 (the pad kernel
 * that copies the weights) "pad", its layers' after it. */
static const char *kernel_name(const void *plan, uint32_t which) {
  static const char *const names[SPVGEN_MLP_MAX_LAYERS] = {
      "main",   "layer1", "layer2",  "layer3",  "layer4",  "layer5",  "layer6",  "layer7",
      "layer8", "layer9", "layer10", "layer11", "layer12", "layer13", "layer14", "layer15"};
  const spvgen_mlp_config *p = plan;
  if (p && p->variant == SPVGEN_MLP_LAYERS && p->pad_width) {
    if (!which) return "pad";
    which--;
  }
  return which < SPVGEN_MLP_MAX_LAYERS ? names[which] : "layer";
}

/* The dispatches of a plan of several kernels for `points` points into data->kernels
 * (buffers: spvgen_mlp_buffer's order, the data's 0 input, 1 weights, 2 output, 3
 * workspace), each checked against the device's grid limits. */
static spvgen_status layer_kernels(const spvgen_mlp_config *p, uint64_t points, const uint32_t *max_groups,
                                   sg_run_data *data, char *msg, size_t size) {
  const uint32_t n = spvgen_mlp_kernel_count(p);
  if (n > SG_RUN_MAX_KERNELS)
    return snprintf(msg, size, "a plan of %u kernels; the run takes %u", n, SG_RUN_MAX_KERNELS),
           SPVGEN_ERROR_UNSUPPORTED;
  data->kernel_count = n;
  for (uint32_t k = 0; k < n; k++) {
    spvgen_mlp_dispatch d;
    spvgen_status st = spvgen_mlp_dispatch_for(p, k, points, &d, msg, size);
    if (st != SPVGEN_OK) return st;
    sg_run_kernel *rk = &data->kernels[k];
    memset(rk, 0, sizeof *rk);
    for (uint32_t b = 0; b < d.binding_count; b++) {
      rk->buffers[b] = (uint32_t)d.bindings[b].buffer;
      rk->offsets[b] = d.bindings[b].offset;
    }
    rk->buffer_count = d.binding_count;
    for (int j = 0; j < 3; j++) {
      rk->groups[j] = d.groups[j];
      if (max_groups && max_groups[j] && d.groups[j] > max_groups[j])
        return snprintf(msg, size, "%llu points: kernel %u of the plan needs %u workgroups in %c; the device "
                        "allows %u (fewer points)", (unsigned long long)points, k, d.groups[j], "xyz"[j], max_groups[j]),
               SPVGEN_ERROR_UNSUPPORTED;
    }
    rk->push_size = d.push_size;
    rk->own_push = true;
    memcpy(rk->push, d.push, d.push_size);
    rk->same_as = d.kernel != k ? d.kernel + 1 : 0;
  }
  return SPVGEN_OK;
}

/* ------------------------------------------------------------ run and check ---- */
/* The output binding's guard (SG_RUN_OUT_GUARD bytes past the points' outputs, NaN-filled
 * with them): mlp_run_check counts a changed element as a bad output past the last point.
 * The layers variant runs its hidden layers on the workspace's rounded rows, and a last
 * layer that did too would write past the caller's points. */

/* The host side of a run: random weights and the period's points (lib/ref/ref_mlp.c),
 * the weight buffer the device reads (the optimal layout's made by the driver) and the
 * output's download. */
typedef struct mlp_run_state {
  uint64_t points, period;
  uint8_t *weights, *device_weights;
  void *input, *output;
  spvgen_mlp_config plan;  /* the plan the data was made for (its weight layout) */
  uint32_t max_groups;     /* the device's workgroup count limit in x (0: none) */
  uint32_t max_grid[3];    /* in x, y, z (the layers variant's GEMM grids) */
  spvgen_mlp_config *ref_plan; /* run_compare: the first passing plan, and its output */
  void *ref_out;
} mlp_run_state;

static void mlp_run_free(sg_run_data *data) {
  mlp_run_state *s = data->state;
  if (!s) return;
  free(s->weights);
  free(s->device_weights);
  free(s->input);
  free(s->output);
  free(s->ref_plan);
  free(s->ref_out);
  free(s);
  data->state = NULL;
}

/* rq->size points (0: 4096), the host drawing rq->period of them (0: all) which the
 * input buffer repeats; bindings 0 input, 1 weights, 2 output (spvgen/mlp.h); the point
 * count as the push constant. */
static spvgen_status mlp_run_data(spvgen_vk_context *ctx, const void *plan, const sg_run_request *rq,
                                  sg_run_data *data, char *msg, size_t size) {
  const spvgen_mlp_config *p = plan;
  const spvgen_mlp_desc *d = &p->desc;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  uint64_t points = rq->size ? rq->size : 4096;
  if (points > 0xFFFFFFFFull) {
    snprintf(msg, size, "points %llu: the kernel's point count is a uint32", (unsigned long long)points);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  spvgen_mlp_groups(p, points, data->groups);
  if (p->variant != SPVGEN_MLP_LAYERS && caps->max_workgroup_count[0] &&
      data->groups[0] > caps->max_workgroup_count[0]) {
    snprintf(msg, size, "%llu points need %u workgroups; %s allows %u (fewer points)", (unsigned long long)points,
             data->groups[0], caps->name, caps->max_workgroup_count[0]);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  mlp_run_state *s = calloc(1, sizeof *s);
  if (!s) return snprintf(msg, size, "out of host memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  data->state = s;
  s->points = points;
  s->period = rq->period && rq->period < points ? rq->period : points;
  s->plan = *p;
  s->max_groups = caps->max_workgroup_count[0];
  for (int j = 0; j < 3; j++) s->max_grid[j] = caps->max_workgroup_count[j];
  const uint64_t in_point = (uint64_t)d->input_width * spvgen_component_type_size(d->input_type);
  const uint64_t out_bytes = points * d->output_width * spvgen_component_type_size(d->output_type);
  s->weights = malloc(p->weight_bytes ? p->weight_bytes : 1);
  s->input = malloc(s->period * in_point + 1);
  s->output = malloc(out_bytes + SG_RUN_OUT_GUARD);
  if (!s->weights || !s->input || !s->output) {
    snprintf(msg, size, "out of host memory for %llu points", (unsigned long long)points);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  sg_ref_mlp_fill(p, s->period, rq->seed, s->weights, s->input);
  uint64_t wbytes = p->weight_bytes;
  const uint8_t *w = s->weights;
  if (d->weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) {
    spvgen_status st = sg_mlp_device_weights(ctx, p, s->weights, &s->device_weights, &wbytes, data->spec,
                                             &data->spec_count, msg, size);
    if (st != SPVGEN_OK) return st;
    w = s->device_weights;
  }
  data->buffers[0] = (sg_run_buffer){.role = SG_RUN_INPUT, .host = s->input, .bytes = points * in_point,
                                     .host_bytes = s->period * in_point};
  data->buffers[1] = (sg_run_buffer){.role = SG_RUN_INPUT, .host = (void *)w, .bytes = wbytes};
  data->buffers[2] = (sg_run_buffer){.role = SG_RUN_OUTPUT, .host = s->output, .bytes = out_bytes + SG_RUN_OUT_GUARD};
  data->buffer_count = 3;
  if (p->variant == SPVGEN_MLP_LAYERS) { /* a GEMM per layer, the activations in a workspace */
    const uint64_t ws = spvgen_mlp_workspace_bytes(p, points);
    data->buffers[3] = (sg_run_buffer){.role = SG_RUN_SCRATCH, .bytes = ws ? ws : 4};
    data->buffer_count = 4;
    spvgen_status st = layer_kernels(p, points, s->max_grid, data, msg, size);
    if (st != SPVGEN_OK) return st;
  }
  /* device-address kernels take buffers that have an address */
  data->buffer_flags = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0;
  uint32_t n = (uint32_t)points;
  memcpy(data->push, &n, 4);
  data->push_size = 4;
  data->flops = (double)p->flops_per_point * points;
  data->items = points;
  return SPVGEN_OK;
}

/* Every output component of every point (sample: of about that many points evenly
 * spread, the last included) against the float64 reference of its period's point, with
 * the tolerance of its propagated error bound (sg_ref_mlp_tolerance); the index is
 * point * output_width + component. */
static void mlp_run_check(const void *plan, const sg_run_data *data, uint64_t sample, sg_check *check) {
  const spvgen_mlp_config *p = plan;
  const mlp_run_state *s = data->state;
  const uint32_t ow = p->desc.output_width;
  const uint64_t step = sample && s->points > sample ? s->points / sample : 1;
  double ref[SPVGEN_MLP_MAX_WIDTH], err[SPVGEN_MLP_MAX_WIDTH];
  for (uint64_t pt = 0; pt < s->points; pt = pt + step < s->points || pt + 1 == s->points ? pt + step : s->points - 1) {
    sg_ref_mlp_point(p, s->weights, s->input, pt % s->period, ref, err);
    for (uint32_t c = 0; c < ow; c++)
      sg_check_element(check, pt * ow + c, sg_ref_get(s->output, p->desc.output_type, pt * ow + c), ref[c],
                       sg_ref_mlp_tolerance(p, ref[c], err[c]));
  }
  const uint32_t esize = spvgen_component_type_size(p->desc.output_type);
  const uint64_t out_bytes = s->points * ow * esize;
  sg_check_guard(check, (const uint8_t *)s->output + out_bytes, SG_RUN_OUT_GUARD, out_bytes, esize, s->points * ow);
}

/* Whether b reads the weight buffer a's data holds (the tuner's candidates share it). */
static bool same_weight_layout(const spvgen_mlp_config *a, const spvgen_mlp_config *b) {
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

/* Another plan over the same points and weights: its grid (the push constant, the point
 * count, and the weights' specialization constants stay). */
static spvgen_status mlp_run_bind(const void *plan_, sg_run_data *data, char *msg, size_t size) {
  const spvgen_mlp_config *p = plan_;
  const mlp_run_state *s = data->state;
  if (!same_weight_layout(p, &s->plan))
    return snprintf(msg, size, "its weight layout differs from the default plan's"), SPVGEN_ERROR_UNSUPPORTED;
  if (p->variant == SPVGEN_MLP_LAYERS || s->plan.variant == SPVGEN_MLP_LAYERS) {
    if (p->variant != s->plan.variant || memcmp(p, &s->plan, sizeof *p))
      return snprintf(msg, size, "the layers variant's data serves its own plan only"), SPVGEN_ERROR_UNSUPPORTED;
    return SPVGEN_OK;
  }
  spvgen_mlp_groups(p, s->points, data->groups);
  if (s->max_groups && data->groups[0] > s->max_groups)
    return snprintf(msg, size, "%llu points need %u workgroups; the device allows %u", (unsigned long long)s->points,
                    data->groups[0], s->max_groups),
           SPVGEN_ERROR_UNSUPPORTED;
  return SPVGEN_OK;
}

/* Every output against the first passing plan's: both are within their bounds of the
 * exact value, so the bound here is, per component, twice the largest sum of the two
 * plans' bounds over the sampled points. */
static void mlp_run_compare(const void *plan, sg_run_data *data, uint64_t sample, sg_check *check) {
  const spvgen_mlp_config *p = plan;
  mlp_run_state *s = data->state;
  const uint32_t ow = p->desc.output_width;
  const uint64_t bytes = data->buffers[2].bytes;
  if (!s->ref_out) {
    if (check->bad) return;
    s->ref_plan = malloc(sizeof *s->ref_plan);
    s->ref_out = malloc(bytes + 4);
    if (s->ref_plan && s->ref_out) {
      *s->ref_plan = *p;
      memcpy(s->ref_out, s->output, bytes);
    } else {
      free(s->ref_plan), free(s->ref_out);
      s->ref_plan = NULL, s->ref_out = NULL;
    }
    return;
  }
  double pair[SPVGEN_MLP_MAX_WIDTH] = {0}, ref[SPVGEN_MLP_MAX_WIDTH], err[SPVGEN_MLP_MAX_WIDTH];
  double ref2[SPVGEN_MLP_MAX_WIDTH], err2[SPVGEN_MLP_MAX_WIDTH];
  const uint64_t step = sample && s->points > sample ? s->points / sample : 1;
  for (uint64_t pt = 0; pt < s->points; pt = pt + step < s->points || pt + 1 == s->points ? pt + step : s->points - 1) {
    sg_ref_mlp_point(p, s->weights, s->input, pt % s->period, ref, err);
    sg_ref_mlp_point(s->ref_plan, s->weights, s->input, pt % s->period, ref2, err2);
    for (uint32_t c = 0; c < ow; c++) {
      double t = 2.0 * (sg_ref_mlp_tolerance(p, ref[c], err[c]) + sg_ref_mlp_tolerance(s->ref_plan, ref2[c], err2[c]));
      if (t > pair[c]) pair[c] = t;
    }
  }
  for (uint64_t j = 0; j < s->points * ow; j++)
    sg_check_element(check, j, sg_ref_mlp_get_output(p, s->output, j), sg_ref_mlp_get_output(p, s->ref_out, j),
                     pair[j % ow]);
}

static void mlp_run_where(const void *plan, const sg_run_data *data, uint64_t index, char *buf, size_t size) {
  (void)data;
  const uint32_t ow = ((const spvgen_mlp_config *)plan)->desc.output_width;
  snprintf(buf, size, "point %llu, component %llu", (unsigned long long)(index / ow), (unsigned long long)(index % ow));
}

/* ------------------------------------------------------------------ flags ---- */
/* The network and knob flags of `spvgen mlp`, `spvgen run/bench/tune mlp`. */

#define MLP_U32(FLAG, FIELD)                                                           \
  static bool FLAG(void *d, const char *v, char *why, size_t size) {                   \
    return sg_flag_u32(v, 0, UINT32_MAX, &((spvgen_mlp_desc *)d)->FIELD, why, size); \
  }
MLP_U32(flag_in, input_width)
MLP_U32(flag_out, output_width)
MLP_U32(flag_wg, workgroup_size)
MLP_U32(flag_vec_rows, vec_rows)
MLP_U32(flag_mat_slab, mat_slab)
MLP_U32(flag_compile_budget, compile_budget_ms)
MLP_U32(flag_spec_id_base, spec_id_base)
MLP_U32(flag_points_per_group, points_per_group)

/* WxC (C layers of width W) or W,W,... */
static bool flag_hidden(void *d_, const char *v, char *why, size_t size) {
  spvgen_mlp_desc *d = d_;
  uint32_t wc[2], n = 0;
  if (strchr(v, 'x')) {
    if (!sg_parse_u32_list(v, 'x', 1, UINT32_MAX, wc, 2, &n) || n != 2)
      return sg_flag_bad(why, size, v, "is not WxC with a width and a layer count from 1 to 4294967295");
    d->hidden_width = wc[0];
    d->hidden_count = wc[1];
    return true;
  }
  if (!sg_parse_u32_list(v, ',', 1, UINT32_MAX, d->hidden_widths, SPVGEN_MLP_MAX_LAYERS - 1, &n))
    return sg_flag_bad(why, size, v, "is not WxC or a list of 1 to %u widths W,W,... (each 1 to 4294967295)",
                       SPVGEN_MLP_MAX_LAYERS - 1);
  d->hidden_count = n;
  return true;
}

static bool activation(const char *v, spvgen_mlp_activation *out, char *why, size_t size) {
  if (spvgen_mlp_activation_parse(v, out) && *out != SPVGEN_MLP_ACT_DEFAULT) return true;
  snprintf(why, size, "unknown activation '%s' (none, relu, leaky_relu, sigmoid, tanh, silu, exp)", v);
  return false;
}
static bool flag_act(void *d, const char *v, char *why, size_t size) {
  return activation(v, &((spvgen_mlp_desc *)d)->activation, why, size);
}
static bool flag_out_act(void *d, const char *v, char *why, size_t size) {
  return activation(v, &((spvgen_mlp_desc *)d)->output_activation, why, size);
}
static bool flag_leaky_slope(void *d, const char *v, char *why, size_t size) {
  double slope;
  if (!sg_parse_number(v, -1e6, 1e6, &slope)) return sg_flag_bad(why, size, v, "is not a number from -1e6 to 1e6");
  return ((spvgen_mlp_desc *)d)->leaky_slope = (float)slope, true;
}

/* The hash grid's ":LEVELS,FEATURES,LOG2SIZE,BASERES,SCALE" (each optional from the
 * right; empty: the defaults). */
static bool parse_hash_grid(const char *s, spvgen_mlp_hash_grid *g) {
  memset(g, 0, sizeof *g);
  if (!*s) return true;
  if (*s++ != ':') return false;
  uint32_t *u[4] = {&g->levels, &g->features, &g->log2_hashmap_size, &g->base_resolution};
  for (int i = 0; i < 5; i++) {
    const char *comma = strchr(s, ',');
    char field[32];
    size_t n = comma ? (size_t)(comma - s) : strlen(s);
    if (!n || n >= sizeof field) return false;
    memcpy(field, s, n);
    field[n] = 0;
    double scale;
    if (i < 4 && !sg_parse_u32(field, 1, UINT32_MAX, u[i])) return false;
    if (i == 4 && !sg_parse_number(field, 1.0, 1e6, &scale)) return false;
    if (i == 4) g->per_level_scale = (float)scale;
    if (!comma) return true;
    s = comma + 1;
  }
  return false;
}

static bool flag_encoding(void *d_, const char *v, char *why, size_t size) {
  spvgen_mlp_desc *d = d_;
  uint32_t n = 0;
  if (!strncmp(v, "hashgrid", 8)) {
    if (!parse_hash_grid(v + 8, &d->grid))
      return sg_flag_bad(why, size, v, "is not hashgrid[:LEVELS[,FEATURES[,LOG2SIZE[,BASERES[,SCALE]]]]]");
    d->encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
  } else if (!strncmp(v, "freq:", 5) && sg_parse_u32(v + 5, 0, UINT32_MAX, &n)) {
    d->encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
  } else if (!strncmp(v, "oneblob:", 8) && sg_parse_u32(v + 8, 0, UINT32_MAX, &n)) {
    d->encoding = SPVGEN_MLP_ENCODING_ONE_BLOB;
  } else {
    return sg_flag_bad(why, size, v, "is not freq:N, oneblob:N (N from 0 to 4294967295) or hashgrid[:L,F,T,N,S]");
  }
  d->encoding_size = n;
  return true;
}

/* W[,IO]: the weight type, and the points' in memory. */
static bool flag_types(void *d_, const char *v, char *why, size_t size) {
  spvgen_mlp_desc *d = d_;
  char wt[16] = "", io[16] = "";
  if (sscanf(v, "%15[^,],%15s", wt, io) < 1 || !spvgen_component_type_parse(wt, &d->weight_type) ||
      (io[0] && !spvgen_component_type_parse(io, &d->input_type)))
    return sg_flag_bad(why, size, v, "is not W[,IO] with component types (W: f16, s8, e4m3, e5m2; IO: f16, f32)");
  d->output_type = d->input_type;
  return true;
}

static bool flag_weights(void *d, const char *v, char *why, size_t size) {
  static const spvgen_mlp_weight_layout_kind layouts[] = {SPVGEN_MLP_WEIGHTS_ROW_MAJOR, SPVGEN_MLP_WEIGHTS_OPTIMAL,
                                                     SPVGEN_MLP_WEIGHTS_AUTO};
  static const char *const names[] = {"row", "optimal", "auto"};
  for (int i = 0; i < 3; i++)
    if (!strcmp(v, names[i])) return ((spvgen_mlp_desc *)d)->weight_layout = layouts[i], true;
  return sg_flag_bad(why, size, v, "is not row, optimal or auto");
}
static bool flag_bias_path(void *d, const char *v, char *why, size_t size) {
  if (!strcmp(v, "fused") || !strcmp(v, "add"))
    return ((spvgen_mlp_desc *)d)->bias_path = v[0] == 'f' ? SPVGEN_MLP_BIAS_FUSED : SPVGEN_MLP_BIAS_ADD, true;
  return sg_flag_bad(why, size, v, "is not fused or add");
}
static bool flag_output_path(void *d, const char *v, char *why, size_t size) {
  if (!strcmp(v, "direct") || !strcmp(v, "staged"))
    return ((spvgen_mlp_desc *)d)->output_path = v[0] == 'd' ? SPVGEN_MLP_OUTPUT_DIRECT : SPVGEN_MLP_OUTPUT_STAGED,
           true;
  return sg_flag_bad(why, size, v, "is not direct or staged");
}
static bool flag_variant(void *d, const char *v, char *why, size_t size) {
  return spvgen_mlp_variant_parse(v, &((spvgen_mlp_desc *)d)->variant) ||
         sg_flag_bad(why, size, v, "is not auto, vec, mat, loop or layers");
}
static bool flag_addressing(void *d, const char *v, char *why, size_t size) {
  return spvgen_addressing_parse(v, &((spvgen_mlp_desc *)d)->addressing) ||
         sg_flag_bad(why, size, v, "is not descriptors or device-address");
}

static const sg_flag mlp_flags[] = {
    SG_FLAG_HEADING("network:"),
    {"--in", "N", "input width (required)", flag_in, 0},
    {"--hidden", "WxC|W,W,..", "C hidden layers of width W, or a list of widths", flag_hidden, 0},
    {"--out", "N", "output width (required)", flag_out, 0},
    {"--act", "NAME", "hidden activation: none, relu (default), leaky_relu, sigmoid, tanh,\nsilu, exp", flag_act, 0},
    {"--out-act", "NAME", "output activation (default none)", flag_out_act, 0},
    {"--leaky-slope", "F", "leaky relu slope (default 0.01)", flag_leaky_slope, 0},
    SG_FLAG_SWITCH("--no-bias", "layers without bias", spvgen_mlp_desc, no_bias),
    {"--encoding", "KIND",
     "input encoding: freq:N or oneblob:N (N octaves / bins), or\nhashgrid[:L,F,T,N,S], a multiresolution hash grid "
     "(2-D or 3-D\npoints): L levels (16), F features per level (2), table 2^T entries\n(19), base resolution N (16), "
     "per-level scale S (2)",
     flag_encoding, 0},
    {"--types", "W[,IO]",
     "weight type (f16; s8 with --variant vec; e4m3 or e5m2 with --variant\nvec --weights optimal) and points in memory "
     "(f16 or f32)",
     flag_types, 0},
    {"--weights", "row|optimal|auto",
     "weight layout: row-major, the driver's inferencing-optimal one (vec\nvariant; offsets as spec constants, see "
     "mlp.h), or the one the plan\nexpects faster; default row-major (run mlp and bench mlp with the\nauto variant: "
     "auto, the layout taken printed on the plan line)",
     flag_weights, 0},
    {"--spec-id-base", "N", "with optimal weights: layer l's offset is SpecId N + l", flag_spec_id_base, 0},
    SG_FLAG_HEADING("knobs:"),
    {"--variant", "auto|vec|mat|loop|layers",
     "the kernel's variant (layers: a GEMM per layer, for wide networks;\nchosen by auto only where measured fastest)", flag_variant, 0},
    {"--wg", "N", "invocations per workgroup", flag_wg, 0},
    {"--points-per-group", "N",
     "vec: points per invocation (1, 2, 4, 8); mat: points per workgroup\nblock (a multiple of 16)",
     flag_points_per_group, 0},
    SG_FLAG_SWITCH("--mat-rows",
                   "mat: each subgroup owns 16-point fragments and every output of a\nlayer for them (no workgroup "
                   "barrier between layers)",
                   spvgen_mlp_desc, mat_rows),
    {"--mat-slab", "16|32|64",
     "mat: the streamed form for wide layers: activations in registers,\nweights through shared memory in slabs of "
     "N inputs (points per group\n= 16 x subgroups x fragments per subgroup)",
     flag_mat_slab, 0},
    {"--bias-path", "fused|add",
     "vec: the bias as MatrixMulAdd's operand (fused), or MatrixMul then a\nloaded cooperative vector added",
     flag_bias_path, 0},
    {"--vec-rows", "N", "vec: a layer in pieces of N output rows (16..256, /16)", flag_vec_rows, 0},
    SG_FLAG_SWITCH("--vec-stage", "vec: activations through a shared-memory row per invocation", spvgen_mlp_desc,
                   vec_stage),
    SG_FLAG_SWITCH("--layer-loop", "vec: the equal hidden layers as a run-time loop", spvgen_mlp_desc, layer_loop),
    {"--output-path", "direct|staged",
     "vec, mat: each invocation or subgroup stores its outputs (direct), or\nthe workgroup writes them from shared "
     "memory in consecutive 16-byte\nchunks (staged)",
     flag_output_path, 0},
    {"--compile-budget", "MS", "the estimated driver compile the plan may choose (1000)", flag_compile_budget, 0},
    {"--addressing", "descriptors|device-address",
     "device-address: input, weights and output as 64-bit pointers in the\npush constants (loop variant)",
     flag_addressing, 0},
    {NULL, NULL, NULL, NULL, 0},
};

static bool flags_done(const void *desc, char *why, size_t size) {
  const spvgen_mlp_desc *d = desc;
  if (d->input_width && d->output_width) return true;
  snprintf(why, size, "--in and --out are required");
  return false;
}

const sg_template sg_template_mlp = {
    .name = "mlp",
    .desc_size = sizeof(spvgen_mlp_desc),
    .plan_size = sizeof(spvgen_mlp_config),
    SG_TEMPLATE_API_FIELDS(mlp),
    .plan_name = plan_name,
    .variant_name = variant_name,
    .describe = describe,
    .examples = examples,
    .knobs = knobs,
    .candidate = candidate,
    .addressing_model = addressing_model,
    .kernel_count = kernel_count,
    .emit_kernel = emit_kernel,
    .kernel_name = kernel_name,
    .run_data = mlp_run_data,
    .run_check = mlp_run_check,
    .run_where = mlp_run_where,
    .run_free = mlp_run_free,
    .run_bind = mlp_run_bind,
    .run_compare = mlp_run_compare,
    .flags = mlp_flags,
    .flags_done = flags_done,
    .summary = "a fused MLP (input encoding, hidden layers, activations) over a batch of points",
    .example = "--in 32 --hidden 64x4 --out 16 --act relu --caps h100",
};
