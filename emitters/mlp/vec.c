/* emitters/mlp/vec.c — the MLP on NV cooperative vectors (VK_NV_cooperative_vector): one
 * point per invocation, one OpCooperativeVectorMatrixMulAddNV per layer.
 *
 * The network is a function  coopvec<float32, out> f(coopvec<float32, in>)
 * (spvgen_mlp_emit_function); the kernel loads its point, calls it and stores the result.
 * Inside, the (encoded) input becomes a coopvec<float16, K>; each layer multiplies it by
 * its row-major f16 matrix straight from the weight buffer (MatrixOffset and BiasOffset
 * are the layout's offsets, MatrixStride the padded row), with float16 interpretations
 * and a coopvec<float16, outputs> result (the only float combination the H100 lists),
 * then applies the activation with the cooperative vector arithmetic GLSL allows (max,
 * exp, tanh, add, div). Activations stay f16 between layers.
 *
 * With weight_layout optimal the matrices are in the driver's InferencingOptimalNV layout
 * at byte offsets given by specialization constants SPVGEN_MLP_SPEC_MATRIX_OFFSET + l
 * (mlp.h): the host converts them (vkConvertCooperativeVectorMatrixNV) and places them;
 * the biases stay where the row-major layout puts them. */
#include <stdio.h>
#include <string.h>

#include "mlp_internal.h"

static spvgen_status vec_plan(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg,
                              size_t size) {
  spvgen_mlp_desc *d = &p->desc;
  if (!spvgen_caps_has(caps, SPVGEN_FEATURE_COOPVEC))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "the vec variant needs %s, which %s lacks",
                    spvgen_feature_name(SPVGEN_FEATURE_COOPVEC), caps->name);
  const spvgen_component_type h = SPVGEN_COMPONENT_F16;
  if (!spvgen_caps_find_coopvec(caps, h, h, h, h, h, false))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "the vec variant needs the f16 input/matrix/bias/result cooperative vector "
                    "combination, which %s does not list", caps->name);
  if (d->weight_type == SPVGEN_COMPONENT_E4M3 || d->weight_type == SPVGEN_COMPONENT_E5M2) {
    /* Float8 weights: the f16 activations are read as float8 too (the only float8
     * combinations the NV extension defines take the input with the matrix's
     * interpretation), the bias and the result stay f16. */
    const spvgen_component_type w = d->weight_type;
    if (!spvgen_caps_find_coopvec(caps, h, w, w, h, h, false))
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "weight_type %s: %s does not list the cooperative vector combination "
                      "f16 input as %s, %s matrix, f16 bias and result",
                      spvgen_component_type_name(w), caps->name, spvgen_component_type_name(w),
                      spvgen_component_type_name(w));
    if (d->weight_layout != SPVGEN_MLP_WEIGHTS_OPTIMAL)
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "weight_type %s needs weight_layout optimal: the driver reads float8 "
                      "matrices only in its optimal layouts (the host converts the f16 "
                      "row-major weights to %s there)",
                      spvgen_component_type_name(w), spvgen_component_type_name(w));
  }
  if (d->weight_type == SPVGEN_COMPONENT_S8 &&
      !spvgen_caps_find_coopvec(caps, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S8,
                                SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, false))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "weight_type s8: %s does not list the cooperative vector combination s32 "
                    "input as s8, s8 matrix, s32 result", caps->name);
  uint32_t maxc = caps->coopvec_max_components;
  if (maxc && mlp_max_width(p) > maxc)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "a layer %u wide: %s's cooperative vectors hold at most %u components",
                    mlp_max_width(p), caps->name, maxc);
  /* points_per_group is points per invocation here, one after another (fewer, longer
   * workgroups). */
  if (!d->points_per_group) d->points_per_group = 1;
  if (d->points_per_group != 1 && d->points_per_group != 2 && d->points_per_group != 4 && d->points_per_group != 8)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "points_per_group %u: the vec variant evaluates 1, 2, 4 or 8 points per invocation",
                    d->points_per_group);
  /* 32: one subgroup per workgroup ran (a) 32-64x4-16 at 15.1 G points/s against 14.3 for
   * 64 and 13.6 for 128, and (b) 8-64x3-8 at 482 TFLOP/s against 478 / 480 (H100, call M,
   * bench/results/mlp-h100-2026-11-23d.md). */
  if (!d->workgroup_size) d->workgroup_size = 32;
  if (d->workgroup_size > 1024)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "workgroup_size %u: at most 1024", d->workgroup_size);
  if (!d->bias_path) d->bias_path = SPVGEN_MLP_BIAS_FUSED;
  p->local_size[0] = d->workgroup_size;
  p->local_size[1] = p->local_size[2] = 1;
  p->points_per_workgroup = d->workgroup_size * d->points_per_group;
  p->shared_bytes = 0;
  p->features = SPVGEN_FEATURE_COOPVEC;
  p->subgroup_size = 0;
  return SPVGEN_OK;
}

static uint32_t vec_candidates(const spvgen_device_caps *caps, const spvgen_mlp_desc *desc,
                               spvgen_mlp_desc *out, uint32_t max) {
  (void)caps;
  static const struct {
    uint32_t wg, ppi;
    spvgen_mlp_bias_path bias;
  } knobs[] = {{32, 1, 0}, {64, 1, 0}, {128, 1, 0}, {256, 1, 0}, {32, 2, 0}, {32, 4, 0}, {64, 4, 0},
               {32, 1, SPVGEN_MLP_BIAS_ADD}, {32, 2, SPVGEN_MLP_BIAS_ADD}};
  uint32_t n = 0;
  for (size_t i = 0; i < sizeof knobs / sizeof knobs[0] && n < max; i++) {
    if (desc->workgroup_size && desc->workgroup_size != knobs[i].wg) continue;
    if (desc->points_per_group && desc->points_per_group != knobs[i].ppi) continue;
    if (knobs[i].bias && (desc->no_bias || desc->weight_type == SPVGEN_COMPONENT_S8 ||
                          (desc->bias_path && desc->bias_path != knobs[i].bias)))
      continue; /* s8 adds its f32 bias after the rescale anyway */
    out[n] = *desc;
    out[n].workgroup_size = knobs[i].wg;
    out[n].points_per_group = knobs[i].ppi;
    if (knobs[i].bias) out[n].bias_path = knobs[i].bias;
    n++;
  }
  if (!n && max) out[n++] = *desc;
  return n;
}

/* The activation on a float16 cooperative vector (mlp_internal.h). */
uint32_t mlp_vec_activation(spvgen_module *m, const spvgen_mlp_config *p, uint32_t y,
                               spvgen_mlp_activation act) {
  uint32_t t = spvgen_type_of(m, y);
  switch (act) {
  case SPVGEN_MLP_ACT_RELU: return spvgen_coopvec_max(m, y, spvgen_coop_splat_float(m, t, 0.0));
  case SPVGEN_MLP_ACT_LEAKY_RELU: {
    uint32_t s = spvgen_coop_arith(m, SpvOpFMul, y, spvgen_coop_splat_float(m, t, p->desc.leaky_slope));
    return p->desc.leaky_slope <= 1.0f ? spvgen_coopvec_max(m, y, s) : spvgen_coopvec_min(m, y, s);
  }
  case SPVGEN_MLP_ACT_SIGMOID:
  case SPVGEN_MLP_ACT_SILU: {
    uint32_t one = spvgen_coop_splat_float(m, t, 1.0);
    uint32_t e = spvgen_coopvec_exp(m, spvgen_coop_negate(m, y));
    uint32_t s = spvgen_coop_arith(m, SpvOpFDiv, one, spvgen_coop_arith(m, SpvOpFAdd, one, e));
    return act == SPVGEN_MLP_ACT_SILU ? spvgen_coop_arith(m, SpvOpFMul, y, s) : s;
  }
  case SPVGEN_MLP_ACT_TANH:
    return spvgen_coopvec_tanh(m, spvgen_coopvec_clamp(m, y, spvgen_coop_splat_float(m, t, -8.0),
                                                       spvgen_coop_splat_float(m, t, 8.0)));
  case SPVGEN_MLP_ACT_EXP: return spvgen_coopvec_exp(m, y);
  default: return y;
  }
}

/* Layer l's multiply: result_type, input, both interpretations, the weight array, M x K,
 * and the matrix's place: the driver's optimal layout at an offset the host picks (a
 * specialization constant named matrix_offset_<l>), or row-major in place. */
static void vec_layer_matmul(spvgen_module *m, const spvgen_mlp_config *p, uint32_t l,
                             uint32_t result_type, uint32_t input, SpvComponentType interp,
                             uint32_t arr, spvgen_coopvec_matmul_desc *md) {
  const spvgen_mlp_layer *L = &p->layers[l];
  memset(md, 0, sizeof *md);
  md->result_type = result_type;
  md->input = input;
  md->input_interpretation = interp;
  md->matrix = arr;
  md->matrix_interpretation = interp;
  md->m = L->outputs;
  md->k = L->inputs;
  if (p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) {
    md->matrix_offset = spvgen_spec_const_u32(m, (uint32_t)L->matrix_offset, mlp_spec_id(&p->desc, l));
    char name[32];
    snprintf(name, sizeof name, "matrix_offset_%u", l);
    spvgen_name(m, md->matrix_offset, name);
    md->layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV;
  } else {
    md->matrix_offset = ek_u32(m, (uint32_t)L->matrix_offset);
    md->layout = SpvCooperativeVectorMatrixLayoutRowMajorNV;
    md->matrix_stride = L->row_stride;
  }
}

/* The encoded point (f32 ids) from the raw point `param` (a coopvec<float32, in>): the
 * per-component encodings, or the hash grid's lookups, whose table is in the weight
 * buffer wb. */
static void vec_encode(spvgen_module *m, const spvgen_mlp_config *p, const ek_buffer *wb, uint32_t param,
                       uint32_t *enc) {
  uint32_t raw[SPVGEN_MLP_MAX_WIDTH];
  for (uint32_t c = 0; c < p->desc.input_width; c++) raw[c] = spvgen_coop_extract(m, param, c);
  if (p->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID) {
    mlp_grid g;
    mlp_grid_begin(m, p, wb, &g);
    mlp_grid_encode(m, &g, raw, enc);
    return;
  }
  mlp_encode(m, p, raw, enc);
}

/* int8 weights (mlp.h, weight_type S8): activations f32 between layers; per layer the
 * input is quantized with the layer's scale (1/s_l as a loaded vector; clamp, then
 * floor(v + 0.5) as ConvertFToS(v + 128.5) - 128: the truncation sees positive values
 * only), multiplied by the s8 matrix into s32 (MatrixMul, s32 input read as s8), and
 * rescaled: y = f32(acc) * out_scale + bias, all loaded from the weight buffer. */
static void vec_function_s8(spvgen_module *m, const spvgen_mlp_config *p,
                            spvgen_mlp_function_info *info, ek_buffer wb, uint32_t param, uint32_t fn,
                            uint32_t cv_in, uint32_t cv_out) {
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t f32 = ek_f32_type(m), s32 = spvgen_type_int(m, 32, true);
  uint32_t x, width = p->encoded_width;
  if (d->encoding == SPVGEN_MLP_ENCODING_NONE) {
    x = param;
  } else {
    uint32_t enc[SPVGEN_MLP_MAX_WIDTH];
    vec_encode(m, p, &wb, param, enc);
    x = spvgen_coop_construct(m, spvgen_type_coopvec(m, f32, width), enc, width);
  }
  uint32_t arr = ek_array(m, &wb);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint32_t tk = spvgen_type_coopvec(m, f32, L->inputs), tm = spvgen_type_coopvec(m, f32, L->outputs);
    uint32_t inv = spvgen_coopvec_load(m, tk, arr, ek_u32(m, (uint32_t)L->scale_offset), NULL);
    uint32_t v = spvgen_coop_arith(m, SpvOpFMul, x, inv);
    v = spvgen_coopvec_clamp(m, v, spvgen_coop_splat_float(m, tk, -127.0), spvgen_coop_splat_float(m, tk, 127.0));
    v = spvgen_coop_arith(m, SpvOpFAdd, v, spvgen_coop_splat_float(m, tk, 128.5));
    uint32_t tq = spvgen_type_coopvec(m, s32, L->inputs);
    uint32_t q = spvgen_coop_convert(m, tq, v);
    q = spvgen_coop_arith(m, SpvOpISub, q, spvgen_coop_splat(m, tq, spvgen_const_i32(m, 128)));
    spvgen_coopvec_matmul_desc md;
    vec_layer_matmul(m, p, l, spvgen_type_coopvec(m, s32, L->outputs), q, SpvComponentTypeSignedInt8NV, arr,
                     &md);
    /* The s32 input and result are marked signed by spvgen_coopvec_matmul (operands 0:
     * inferred from the types); unmarked, the driver reads them as u32 (H100 call Y). */
    uint32_t acc = spvgen_coopvec_matmul(m, &md);
    uint32_t os = spvgen_coopvec_load(m, tm, arr,
                                      ek_u32(m, (uint32_t)(L->scale_offset + 4ull * mlp_round_up(L->inputs, 4))), NULL);
    uint32_t y = spvgen_coop_arith(m, SpvOpFMul, spvgen_coop_convert(m, tm, acc), os);
    if (!d->no_bias)
      y = spvgen_coop_arith(m, SpvOpFAdd, y,
                            spvgen_coopvec_load(m, tm, arr, ek_u32(m, (uint32_t)L->bias_offset), NULL));
    x = mlp_vec_activation(m, p, y, L->activation);
  }
  spvgen_return_value(m, x);
  spvgen_function_end(m);
  info->function = fn;
  info->param_type = cv_in;
  info->return_type = cv_out;
  info->function_type = spvgen_type_function(m, cv_out, &cv_in, 1);
}

static void vec_function(spvgen_module *m, const spvgen_mlp_config *p,
                         spvgen_mlp_function_info *info) {
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t f32 = ek_f32_type(m), f16 = spvgen_type_float(m, 16);
  uint32_t cv_in = spvgen_type_coopvec(m, f32, d->input_width);
  uint32_t cv_out = spvgen_type_coopvec(m, f32, d->output_width);
  ek_buffer wb = mlp_weights_buffer(m, info);
  uint32_t param = 0;
  uint32_t fn = spvgen_function_begin(m, cv_out, SpvFunctionControlMaskNone, &cv_in, 1, &param);
  spvgen_name(m, fn, "mlp");
  if (d->weight_type == SPVGEN_COMPONENT_S8) {
    vec_function_s8(m, p, info, wb, param, fn, cv_in, cv_out);
    return;
  }
  uint32_t x;
  if (d->encoding == SPVGEN_MLP_ENCODING_NONE) {
    x = spvgen_coop_convert(m, spvgen_type_coopvec(m, f16, d->input_width), param);
  } else {
    uint32_t enc[SPVGEN_MLP_MAX_WIDTH];
    vec_encode(m, p, &wb, param, enc);
    for (uint32_t j = 0; j < p->encoded_width; j++) enc[j] = spvgen_op_f_convert(m, f16, enc[j]);
    x = spvgen_coop_construct(m, spvgen_type_coopvec(m, f16, p->encoded_width), enc, p->encoded_width);
  }
  uint32_t arr = ek_array(m, &wb);
  SpvComponentType interp = d->weight_type == SPVGEN_COMPONENT_E4M3   ? SpvComponentTypeFloatE4M3NV
                            : d->weight_type == SPVGEN_COMPONENT_E5M2 ? SpvComponentTypeFloatE5M2NV
                                                                      : SpvComponentTypeFloat16NV;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    spvgen_coopvec_matmul_desc md;
    vec_layer_matmul(m, p, l, spvgen_type_coopvec(m, f16, L->outputs), x, interp, arr, &md);
    uint32_t y;
    if (d->no_bias) {
      y = spvgen_coopvec_matmul(m, &md);
    } else if (d->bias_path == SPVGEN_MLP_BIAS_ADD) {
      y = spvgen_coopvec_matmul(m, &md);
      uint32_t b = spvgen_coopvec_load(m, md.result_type, arr, ek_u32(m, (uint32_t)L->bias_offset), NULL);
      y = spvgen_coop_arith(m, SpvOpFAdd, y, b);
    } else {
      md.bias = arr;
      md.bias_offset = ek_u32(m, (uint32_t)L->bias_offset);
      md.bias_interpretation = SpvComponentTypeFloat16NV;
      y = spvgen_coopvec_matmul_add(m, &md);
    }
    x = mlp_vec_activation(m, p, y, L->activation);
  }
  spvgen_return_value(m, spvgen_coop_convert(m, cv_out, x));
  spvgen_function_end(m);
  info->function = fn;
  info->param_type = cv_in;
  info->return_type = cv_out;
  info->function_type = spvgen_type_function(m, cv_out, &cv_in, 1);
}

static void vec_emit(spvgen_module *m, const spvgen_mlp_config *p) {
  mlp_emit_pointwise_kernel(m, p, &mlp_variant_vec, false);
}

const mlp_variant_ops mlp_variant_vec = {"vec", vec_plan, vec_candidates, vec_emit, vec_function};
