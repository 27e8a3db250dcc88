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
 * exp, tanh, fma, add, div; sigmoid and silu on tanh). Activations stay f16 between layers.
 *
 * With weight_layout optimal the matrices are in the driver's InferencingOptimalNV layout
 * at byte offsets given by specialization constants SPVGEN_MLP_SPEC_MATRIX_OFFSET + l
 * (mlp.h): the host converts them (vkConvertCooperativeVectorMatrixNV) and places them;
 * the biases stay where the row-major layout puts them. */
#include <stdio.h>
#include <string.h>

#include "mlp_internal.h"

/* Halves of an invocation's row of the staging array (vec_stage): the widest layer
 * rounded to 8, plus 8 (rows 16 bytes apart in the banks: the lanes' rows do not all
 * start in one bank). */
static uint32_t vec_stage_row(const spvgen_mlp_config *p) { return mlp_round_up(mlp_max_width(p), 8) + 8; }
static uint32_t vec_stage_bytes(const spvgen_mlp_config *p) {
  return p->desc.workgroup_size * vec_stage_row(p) * 2;
}

/* The staged output's shared memory (mlp.c, pointwise_store_staged): a row of the output
 * point's 16-byte chunks + 1 per invocation; a row that is no whole number of chunks (the
 * element form): the workgroup's output points back to back, element by element. */
static uint32_t vec_output_row_bytes(const spvgen_mlp_desc *d) {
  return d->output_width * spvgen_component_type_size(d->output_type);
}
static uint32_t vec_output_stage_bytes(const spvgen_mlp_config *p) {
  const spvgen_mlp_desc *d = &p->desc;
  if (d->output_path != SPVGEN_MLP_OUTPUT_STAGED) return 0;
  const uint32_t row = vec_output_row_bytes(d);
  if (row % 16) return (d->workgroup_size * row + 15) / 16 * 16;
  return d->workgroup_size * (row / 16 + 1) * 16;
}

/* Output rows from which AUTO stages the output: 64 bytes (four 16-byte chunks). On the
 * H200 (call S16-1, bench/results/mlp-2026-11-27-s16.md) 128-byte rows ran 1.09-2.09x
 * faster staged (1-16x1-64: 8.70 -> 18.2 G points/s), 32-byte rows (32-64x4-16) 1-6 %
 * slower: a direct store of a 32-byte row half-fills two sectors, of a 128-byte row
 * eight, and the staged store costs a barrier and a shared-memory round trip per point. */
#define VEC_OUTPUT_STAGE_MIN_ROW 64u
/* A row that is no whole number of 16-byte chunks is stored directly one component at a
 * time: each store instruction of a subgroup touches 32 rows' sectors for 2 or 4 bytes of
 * each. AUTO stages such rows from 16 bytes (the element form: the workgroup's stores
 * are consecutive elements) in workgroups of at most VEC_OUTPUT_ELEM_MAX_WG invocations.
 * On the H100 (call S20-2, bench/results/heldout-2026-11-28-s20.md), workgroups of 32:
 * 2-16x7-59 (118-byte rows) 1.03 -> 11.11 G points/s, 51-55x4-26 2.98 -> 7.28, 61-165x2-38
 * 1.66 -> 3.36, 33-239x2-62 0.80 -> 1.57; a workgroup of 128 on a compute-heavy network
 * (54-161x4-27, looped) 1.29 -> 0.90: its four subgroups wait at the barrier for the
 * slowest. */
#define VEC_OUTPUT_ELEM_MIN_ROW 16u
#define VEC_OUTPUT_ELEM_MAX_WG 32u

/* output_path: STAGED where the rows fit in shared memory beside vec_stage's; AUTO takes
 * it from VEC_OUTPUT_STAGE_MIN_ROW bytes for rows of whole 16-byte chunks, from
 * VEC_OUTPUT_ELEM_MIN_ROW for the others (the element form, in workgroups of at most
 * VEC_OUTPUT_ELEM_MAX_WG). */
static spvgen_status vec_plan_output(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg,
                                     size_t size) {
  spvgen_mlp_desc *d = &p->desc;
  const uint32_t row = vec_output_row_bytes(d);
  const bool asked = d->output_path == SPVGEN_MLP_OUTPUT_STAGED;
  if (!d->output_path) d->output_path = SPVGEN_MLP_OUTPUT_STAGED; /* (shared bytes below) */
  if (d->output_path != SPVGEN_MLP_OUTPUT_STAGED) return SPVGEN_OK;
  const uint32_t bytes = (d->vec_stage ? vec_stage_bytes(p) : 0) + vec_output_stage_bytes(p);
  const uint32_t min_row = row % 16 ? VEC_OUTPUT_ELEM_MIN_ROW : VEC_OUTPUT_STAGE_MIN_ROW;
  const bool elem_wg = !(row % 16) || d->workgroup_size <= VEC_OUTPUT_ELEM_MAX_WG;
  if (!asked && (row < min_row || !elem_wg || bytes > caps->max_shared_memory)) {
    d->output_path = SPVGEN_MLP_OUTPUT_DIRECT;
    return SPVGEN_OK;
  }
  if (bytes > caps->max_shared_memory)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "output_path staged: %u invocations x %u bytes of output row%s need %u bytes of "
                    "shared memory; %s has %u (a smaller workgroup_size)",
                    d->workgroup_size, row % 16 ? row : row + 16, d->vec_stage ? " beside vec_stage's rows" : "",
                    bytes, caps->name, caps->max_shared_memory);
  return SPVGEN_OK;
}

/* The layers layer_loop runs as a loop: [1, hidden_count - 1] (0 count: none). */
void mlp_vec_loop_layers(const spvgen_mlp_config *p, uint32_t *first, uint32_t *count) {
  *first = 1;
  *count = p->desc.layer_loop && p->desc.hidden_count >= 3 ? p->desc.hidden_count - 1 : 0;
}

/* The structure knobs: vec_rows, vec_stage, layer_loop (mlp.h). */
static spvgen_status vec_plan_structure(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg,
                                        size_t size) {
  const spvgen_mlp_desc *d = &p->desc;
  const bool s8 = d->weight_type == SPVGEN_COMPONENT_S8;
  if (d->vec_rows && (d->vec_rows % 16 || d->vec_rows > 256))
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "vec_rows %u: a multiple of 16 from 16 to 256 (0: whole layers)", d->vec_rows);
  if (s8 && (d->vec_rows || d->vec_stage || d->layer_loop))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "%s: weight_type s8 keeps its layers whole and unrolled (f16 or float8 weights take it)",
                    d->vec_rows ? "vec_rows" : d->vec_stage ? "vec_stage" : "layer_loop");
  if (d->vec_stage && vec_stage_bytes(p) > caps->max_shared_memory)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "vec_stage: %u invocations x %u halves of staging row need %u bytes of shared "
                    "memory; %s has %u (a smaller workgroup_size)",
                    d->workgroup_size, vec_stage_row(p), vec_stage_bytes(p), caps->name, caps->max_shared_memory);
  if (d->layer_loop) {
    const uint32_t h = d->hidden_count;
    bool same = h >= 3;
    for (uint32_t i = 1; same && i < h; i++)
      same = d->hidden_widths[i] == d->hidden_widths[0] && p->layers[i].activation == p->layers[1].activation;
    if (!same)
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "layer_loop: the hidden layers after the first must be at least two, of one width "
                      "and one activation (%u hidden layers)", h);
    /* The row-major layout gives equal layers equal strides; a loop relies on it. */
    for (uint32_t i = 2; i < h; i++)
      if (p->layers[i].matrix_offset - p->layers[i - 1].matrix_offset !=
              p->layers[2].matrix_offset - p->layers[1].matrix_offset ||
          p->layers[i].bias_offset - p->layers[i - 1].bias_offset != p->layers[2].bias_offset - p->layers[1].bias_offset)
        return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "layer_loop: layer %u is not where an equal layer's stride puts it (a bug in spvgen)", i);
  }
  return SPVGEN_OK;
}

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
  /* 32: one subgroup per workgroup measured fastest for the networks (the
   * figures: docs/design-notes.md, "Measurements behind source comments"). */
  if (!d->workgroup_size) d->workgroup_size = 32;
  if (d->workgroup_size > 1024)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "workgroup_size %u: at most 1024", d->workgroup_size);
  if (!d->bias_path) d->bias_path = SPVGEN_MLP_BIAS_FUSED;
  spvgen_status st = vec_plan_structure(caps, p, msg, size);
  if (st != SPVGEN_OK) return st;
  st = vec_plan_output(caps, p, msg, size);
  if (st != SPVGEN_OK) return st;
  p->local_size[0] = d->workgroup_size;
  p->local_size[1] = p->local_size[2] = 1;
  p->points_per_workgroup = d->workgroup_size * d->points_per_group;
  p->shared_bytes = (d->vec_stage ? vec_stage_bytes(p) : 0) + vec_output_stage_bytes(p);
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

/* Whether y is an f16 cooperative vector (else f32: the 8-bit weights' path). */
static bool vec_is_f16(spvgen_module *m, uint32_t y) {
  spvgen_coop_type_info ti;
  return spvgen_coop_type_query(m, spvgen_type_of(m, y), &ti) && ti.component == spvgen_type_float(m, 16);
}

/* tanh(y) on a cooperative vector, its input clamped to [-8, 8] (tanh(8) rounds to 1 in
 * f16). */
static uint32_t vec_tanh(spvgen_module *m, uint32_t y) {
  uint32_t t = spvgen_type_of(m, y);
  return spvgen_coopvec_tanh(m, spvgen_coopvec_clamp(m, y, spvgen_coop_splat_float(m, t, -8.0),
                                                     spvgen_coop_splat_float(m, t, 8.0)));
}

/* tanh(y / 2) on an f16 cooperative vector; *h gets y / 2. */
static uint32_t vec_tanh_half(spvgen_module *m, uint32_t y, uint32_t *h) {
  *h = spvgen_coop_arith(m, SpvOpFMul, y, spvgen_coop_splat_float(m, spvgen_type_of(m, y), 0.5));
  return vec_tanh(m, *h);
}

/* sigmoid(y) on a cooperative vector (mlp_internal.h). f16: 0.5 + 0.5 tanh(y / 2) on the
 * cooperative-vector Tanh, which the driver runs far faster than an f16 Exp and division
 * (docs/design-notes.md, "The vec variant's sigmoid on Tanh"). Its error is absolute (a few
 * 2^-12 near 0 as near 1), within the f16 path's activation bound of lib/ref/ref_mlp.c.
 * f32 vectors (the 8-bit weights' path): 1 / (1 + e^-y), f32 Tanh being the driver's slow
 * one. */
uint32_t mlp_vec_sigmoid(spvgen_module *m, uint32_t y) {
  uint32_t t = spvgen_type_of(m, y);
  if (vec_is_f16(m, y)) {
    uint32_t h, half = spvgen_coop_splat_float(m, t, 0.5);
    return spvgen_coopvec_fma(m, vec_tanh_half(m, y, &h), half, half);
  }
  uint32_t one = spvgen_coop_splat_float(m, t, 1.0);
  uint32_t e = spvgen_coopvec_exp(m, spvgen_coop_negate(m, y));
  return spvgen_coop_arith(m, SpvOpFDiv, one, spvgen_coop_arith(m, SpvOpFAdd, one, e));
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
  case SPVGEN_MLP_ACT_SIGMOID: return mlp_vec_sigmoid(m, y);
  case SPVGEN_MLP_ACT_SILU: {
    /* f16: silu(y) = h + h tanh(h), h = y / 2: one instruction fewer than y sigmoid(y) */
    if (!vec_is_f16(m, y)) return spvgen_coop_arith(m, SpvOpFMul, y, mlp_vec_sigmoid(m, y));
    uint32_t h, th = vec_tanh_half(m, y, &h);
    return spvgen_coopvec_fma(m, h, th, h);
  }
  case SPVGEN_MLP_ACT_TANH: return vec_tanh(m, y);
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
  const spvgen_memory_operands mem = mlp_mem16(&wb);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint32_t tk = spvgen_type_coopvec(m, f32, L->inputs), tm = spvgen_type_coopvec(m, f32, L->outputs);
    uint32_t inv = spvgen_coopvec_load(m, tk, arr, ek_u32(m, (uint32_t)L->scale_offset), &mem);
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
     * inferred from the types); unmarked, the driver reads them as u32 (seen on the
     * H100: docs/design-notes.md, "Measurements behind source comments"). */
    uint32_t acc = spvgen_coopvec_matmul(m, &md);
    uint32_t os = spvgen_coopvec_load(m, tm, arr,
                                      ek_u32(m, (uint32_t)(L->scale_offset + 4ull * mlp_round_up(L->inputs, 4))), &mem);
    uint32_t y = spvgen_coop_arith(m, SpvOpFMul, spvgen_coop_convert(m, tm, acc), os);
    if (!d->no_bias)
      y = spvgen_coop_arith(m, SpvOpFAdd, y,
                            spvgen_coopvec_load(m, tm, arr, ek_u32(m, (uint32_t)L->bias_offset), &mem));
    x = mlp_vec_activation(m, p, y, L->activation);
  }
  spvgen_return_value(m, x);
  spvgen_function_end(m);
  info->function = fn;
  info->param_type = cv_in;
  info->return_type = cv_out;
  info->function_type = spvgen_type_function(m, cv_out, &cv_in, 1);
}

/* ---- f16 and float8 weights: layers whole or in pieces, unrolled or in a loop ----
 * A layer of M outputs is evaluated in pieces of R = vec_rows rows (R = M without it):
 * piece i multiplies rows i R .. i R + R of the matrix by the whole input, adds those
 * biases and applies the activation. The next layer's input is the pieces' components
 * put together (OpCompositeConstruct), or, with vec_stage, the invocation's row of the
 * staging array, where each piece was stored. With layer_loop the hidden layers after the
 * first are a DontUnroll loop over the layers, their weights found from the loop counter
 * (row-major: equal strides; optimal: Function arrays of the layers' offsets). */

/* Where a layer's weights are (ids): piece 0's matrix offset, the bytes from one piece's
 * matrix to the next (0: the layer is one piece), and the bias offset: bias_id, or, for
 * a layer known at emit time, the constant bias (its id made where it is used). */
typedef struct vec_addr {
  uint32_t matrix, piece, bias_id;
  uint64_t bias;
} vec_addr;

typedef struct vec_ctx {
  spvgen_module *m;
  const spvgen_mlp_config *p;
  uint32_t f16;
  uint32_t arr;            /* the weight buffer's array */
  SpvComponentType interp; /* the matrices' (and the input's) interpretation */
  uint32_t stage;          /* vec_stage: the Workgroup array (else 0) */
  uint32_t row;            /* vec_stage: this invocation's row, bytes from the array's start */
  spvgen_memory_operands wmem; /* of the loads from the weight buffer (mlp_mem16) */
} vec_ctx;

/* Rows per piece of layer l (the layer's outputs when it is one piece). */
static uint32_t vec_piece_rows(const spvgen_mlp_config *p, uint32_t l) {
  uint32_t M = p->layers[l].outputs, R = p->desc.vec_rows;
  return R && R < M ? R : M;
}

static uint32_t vec_spec(vec_ctx *c, uint64_t value, uint32_t id, const char *what, uint32_t l) {
  uint32_t s = spvgen_spec_const_u32(c->m, (uint32_t)value, id);
  char name[40];
  snprintf(name, sizeof name, "%s_%u", what, l);
  spvgen_name(c->m, s, name);
  return s;
}

/* Layer l's matrix offsets and piece stride: spec constants with the optimal layout
 * (matrix_offset_<l>, matrix_piece_bytes_<l>: mlp.h), else the row-major constants. */
static void vec_layer_offsets(vec_ctx *c, uint32_t l, uint32_t *matrix, uint32_t *piece) {
  const spvgen_mlp_layer *L = &c->p->layers[l];
  const uint32_t R = vec_piece_rows(c->p, l);
  if (c->p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) {
    *matrix = vec_spec(c, L->matrix_offset, mlp_spec_id(&c->p->desc, l), "matrix_offset", l);
    *piece = R < L->outputs ? vec_spec(c, (uint64_t)R * L->row_stride, mlp_spec_id(&c->p->desc, SPVGEN_MLP_SPEC_PIECE_BYTES + l),
                                       "matrix_piece_bytes", l)
                            : 0;
  } else {
    *matrix = ek_u32(c->m, (uint32_t)L->matrix_offset);
    *piece = R < L->outputs ? ek_u32(c->m, R * L->row_stride) : 0;
  }
}

static vec_addr vec_layer_addr(vec_ctx *c, uint32_t l) {
  vec_addr a = {0, 0, 0, c->p->layers[l].bias_offset};
  vec_layer_offsets(c, l, &a.matrix, &a.piece);
  return a;
}

/* Piece i of `rows` rows of the layer shaped like layer l, on input x: the activated
 * coopvec<f16, rows>. i: an id (a constant or a loop counter), or 0 for the first piece
 * (which declares nothing for its index: a whole layer's module is as it was before
 * layers had pieces). */
static uint32_t vec_piece(vec_ctx *c, uint32_t l, const vec_addr *a, uint32_t x, uint32_t i, uint32_t rows) {
  spvgen_module *m = c->m;
  const spvgen_mlp_desc *d = &c->p->desc;
  const spvgen_mlp_layer *L = &c->p->layers[l];
  const uint32_t R = vec_piece_rows(c->p, l);
  spvgen_coopvec_matmul_desc md;
  memset(&md, 0, sizeof md);
  md.result_type = spvgen_type_coopvec(m, c->f16, rows);
  md.input = x;
  md.input_interpretation = c->interp;
  md.matrix = c->arr;
  md.matrix_interpretation = c->interp;
  md.m = rows;
  md.k = L->inputs;
  md.matrix_offset = i ? ek_iadd(m, a->matrix, ek_imul(m, a->piece, i)) : a->matrix;
  if (d->weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) {
    md.layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV;
  } else {
    md.layout = SpvCooperativeVectorMatrixLayoutRowMajorNV;
    md.matrix_stride = L->row_stride;
  }
  if (d->no_bias) return mlp_vec_activation(m, c->p, spvgen_coopvec_matmul(m, &md), L->activation);
  uint32_t y = d->bias_path == SPVGEN_MLP_BIAS_ADD ? spvgen_coopvec_matmul(m, &md) : 0;
  /* The bias of the piece's rows: 2 R i bytes past the layer's. */
  uint32_t ci = 0, bias;
  if (!i) bias = a->bias_id ? a->bias_id : ek_u32(m, (uint32_t)a->bias);
  else if (a->bias_id) bias = ek_iadd(m, a->bias_id, ek_mul_imm(m, i, 2 * R));
  else if (ek_const_int(m, i, &ci)) bias = ek_u32(m, (uint32_t)(a->bias + 2ull * R * ci));
  else bias = ek_add_imm(m, ek_mul_imm(m, i, 2 * R), (uint32_t)a->bias);
  if (y) {
    y = spvgen_coop_arith(m, SpvOpFAdd, y, spvgen_coopvec_load(m, md.result_type, c->arr, bias, &c->wmem));
  } else {
    md.bias = c->arr;
    md.bias_offset = bias;
    md.bias_interpretation = SpvComponentTypeFloat16NV;
    y = spvgen_coopvec_matmul_add(m, &md);
  }
  return mlp_vec_activation(m, c->p, y, L->activation);
}

/* The invocation's staged row (vec_stage) as a coopvec<f16, n>. */
static uint32_t vec_stage_load(vec_ctx *c, uint32_t n) {
  return spvgen_coopvec_load(c->m, spvgen_type_coopvec(c->m, c->f16, n), c->stage, c->row, NULL);
}

/* Piece i's rows of the staged row: bytes 2 R i on. */
static void vec_stage_store(vec_ctx *c, uint32_t y, uint32_t i, uint32_t R) {
  spvgen_coopvec_store(c->m, c->stage, y, i ? ek_iadd(c->m, c->row, ek_mul_imm(c->m, i, 2 * R)) : c->row, NULL);
}

/* Layer l (or a layer of its shape at a): x -> its output, a coopvec<f16, outputs>; or,
 * `store` (vec_stage, not the last layer), stored in the staging row (returns 0), the
 * full pieces by a loop where piece_loop. */
static uint32_t vec_layer(vec_ctx *c, uint32_t l, const vec_addr *a, uint32_t x, bool store, bool piece_loop) {
  spvgen_module *m = c->m;
  const uint32_t M = c->p->layers[l].outputs, R = vec_piece_rows(c->p, l), n = mlp_ceil_div(M, R);
  if (n == 1 && !store) return vec_piece(c, l, a, x, 0, M);
  uint32_t comps[SPVGEN_MLP_MAX_WIDTH];
  uint32_t k0 = 0;
  if (store && piece_loop && M / R > 1) { /* the full pieces: one piece's code */
    ek_for f;
    uint32_t i = ek_for_begin(m, &f, ek_u32(m, 0), ek_u32(m, M / R), ek_u32(m, 1), SpvLoopControlDontUnrollMask);
    vec_stage_store(c, vec_piece(c, l, a, x, i, R), i, R);
    ek_for_end(m, &f);
    k0 = M / R;
  }
  for (uint32_t k = k0; k < n; k++) {
    uint32_t rows = k + 1 < n ? R : M - k * R;
    uint32_t ki = k ? ek_u32(m, k) : 0;
    uint32_t y = vec_piece(c, l, a, x, ki, rows);
    if (store) {
      vec_stage_store(c, y, ki, R);
      continue;
    }
    for (uint32_t j = 0; j < rows; j++) comps[k * R + j] = spvgen_coop_extract(m, y, j);
  }
  return store ? 0 : spvgen_coop_construct(m, spvgen_type_coopvec(m, c->f16, M), comps, M);
}

/* The looped layers' addresses from the counter k (0 .. count): the row-major strides,
 * or the spec constants' offsets from Function arrays filled before the loop. */
typedef struct vec_loop_addr {
  uint32_t first, count;
  uint32_t matrices, pieces; /* optimal: Function arrays of the offsets / piece strides */
} vec_loop_addr;

static void vec_loop_addr_begin(vec_ctx *c, vec_loop_addr *la) {
  spvgen_module *m = c->m;
  mlp_vec_loop_layers(c->p, &la->first, &la->count);
  la->matrices = la->pieces = 0;
  if (c->p->desc.weight_layout != SPVGEN_MLP_WEIGHTS_OPTIMAL) return;
  uint32_t t = spvgen_type_array(m, ek_u32_type(m), la->count);
  la->matrices = ek_local(m, t, 0);
  bool split = vec_piece_rows(c->p, la->first) < c->p->layers[la->first].outputs;
  if (split) la->pieces = ek_local(m, t, 0);
  for (uint32_t k = 0; k < la->count; k++) {
    uint32_t mo, po;
    vec_layer_offsets(c, la->first + k, &mo, &po);
    spvgen_store(m, ek_at(m, la->matrices, ek_u32(m, k)), mo);
    if (split) spvgen_store(m, ek_at(m, la->pieces, ek_u32(m, k)), po);
  }
}

static vec_addr vec_loop_addr_at(vec_ctx *c, const vec_loop_addr *la, uint32_t k) {
  spvgen_module *m = c->m;
  const spvgen_mlp_layer *L0 = &c->p->layers[la->first], *L1 = &c->p->layers[la->first + 1];
  vec_addr a = {0, 0, 0, 0};
  if (la->matrices) {
    uint32_t u32 = ek_u32_type(m);
    a.matrix = spvgen_load(m, u32, ek_at(m, la->matrices, k));
    if (la->pieces) a.piece = spvgen_load(m, u32, ek_at(m, la->pieces, k));
  } else {
    a.matrix = ek_iadd(m, ek_u32(m, (uint32_t)L0->matrix_offset),
                       ek_mul_imm(m, k, (uint32_t)(L1->matrix_offset - L0->matrix_offset)));
    uint32_t R = vec_piece_rows(c->p, la->first);
    if (R < L0->outputs) a.piece = ek_u32(m, R * L0->row_stride);
  }
  if (!c->p->desc.no_bias)
    a.bias_id = ek_iadd(m, ek_u32(m, (uint32_t)L0->bias_offset),
                        ek_mul_imm(m, k, (uint32_t)(L1->bias_offset - L0->bias_offset)));
  return a;
}

/* The looped layers, x their input (0 when staged); returns the last one's output (0
 * when staged: it is in the staging row). */
static uint32_t vec_layer_loop(vec_ctx *c, uint32_t x) {
  spvgen_module *m = c->m;
  vec_loop_addr la;
  vec_loop_addr_begin(c, &la);
  const uint32_t W = c->p->layers[la.first].inputs;
  uint32_t xv = 0;
  if (!c->stage) {
    xv = ek_local(m, spvgen_type_coopvec(m, c->f16, W), 0);
    spvgen_store(m, xv, x);
  }
  ek_for f;
  uint32_t k = ek_for_begin(m, &f, ek_u32(m, 0), ek_u32(m, la.count), ek_u32(m, 1), SpvLoopControlDontUnrollMask);
  vec_addr a = vec_loop_addr_at(c, &la, k);
  uint32_t in = c->stage ? vec_stage_load(c, W) : spvgen_load(m, spvgen_type_coopvec(m, c->f16, W), xv);
  uint32_t y = vec_layer(c, la.first, &a, in, c->stage != 0, true);
  if (!c->stage) spvgen_store(m, xv, y);
  ek_for_end(m, &f);
  return c->stage ? 0 : spvgen_load(m, spvgen_type_coopvec(m, c->f16, W), xv);
}

/* Every layer from the encoded input x (coopvec<f16, encoded_width>) to the output's
 * coopvec<f16, output_width>. */
static uint32_t vec_layers(vec_ctx *c, uint32_t x) {
  const spvgen_mlp_config *p = c->p;
  uint32_t first = 0, count = 0;
  mlp_vec_loop_layers(p, &first, &count);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const bool last = l + 1 == p->layer_count;
    if (count && l == first) {
      x = vec_layer_loop(c, x);
      l += count - 1;
      continue;
    }
    if (c->stage && l && !x) x = vec_stage_load(c, p->layers[l].inputs);
    /* The first piece's result type before the layer's offsets (the order the module's
     * declarations have always had). */
    (void)spvgen_type_coopvec(c->m, c->f16, vec_piece_rows(p, l));
    vec_addr a = vec_layer_addr(c, l);
    x = vec_layer(c, l, &a, x, c->stage && !last, false);
  }
  return x;
}

/* weights: the device-address buffer of the kernel's push constants (NULL: the
 * descriptor buffer, mlp_weights_buffer). */
static void vec_function_at(spvgen_module *m, const spvgen_mlp_config *p, spvgen_mlp_function_info *info,
                            const ek_buffer *weights) {
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t f32 = ek_f32_type(m), f16 = spvgen_type_float(m, 16);
  uint32_t cv_in = spvgen_type_coopvec(m, f32, d->input_width);
  uint32_t cv_out = spvgen_type_coopvec(m, f32, d->output_width);
  ek_buffer wb = weights ? *weights : mlp_weights_buffer(m, info);
  vec_ctx c = {m, p, f16, 0, SpvComponentTypeFloat16NV, 0, 0, mlp_mem16(&wb)};
  uint32_t lid = 0;
  if (d->vec_stage) { /* the staging array, a row per invocation */
    c.stage = ek_shared_array(m, f16, d->workgroup_size * vec_stage_row(p), "stage").var;
    lid = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  }
  uint32_t param = 0;
  uint32_t fn = spvgen_function_begin(m, cv_out, SpvFunctionControlMaskNone, &cv_in, 1, &param);
  spvgen_name(m, fn, "mlp");
  if (d->weight_type == SPVGEN_COMPONENT_S8) {
    vec_function_s8(m, p, info, wb, param, fn, cv_in, cv_out);
    return;
  }
  if (lid) c.row = ek_mul_imm(m, ek_load_u32(m, lid), vec_stage_row(p) * 2);
  uint32_t x;
  if (d->encoding == SPVGEN_MLP_ENCODING_NONE) {
    x = spvgen_coop_convert(m, spvgen_type_coopvec(m, f16, d->input_width), param);
  } else {
    uint32_t enc[SPVGEN_MLP_MAX_WIDTH];
    vec_encode(m, p, &wb, param, enc);
    for (uint32_t j = 0; j < p->encoded_width; j++) enc[j] = spvgen_op_f_convert(m, f16, enc[j]);
    x = spvgen_coop_construct(m, spvgen_type_coopvec(m, f16, p->encoded_width), enc, p->encoded_width);
  }
  c.arr = ek_array(m, &wb);
  c.interp = d->weight_type == SPVGEN_COMPONENT_E4M3   ? SpvComponentTypeFloatE4M3NV
             : d->weight_type == SPVGEN_COMPONENT_E5M2 ? SpvComponentTypeFloatE5M2NV
                                                       : SpvComponentTypeFloat16NV;
  x = vec_layers(&c, x);
  spvgen_return_value(m, spvgen_coop_convert(m, cv_out, x));
  spvgen_function_end(m);
  info->function = fn;
  info->param_type = cv_in;
  info->return_type = cv_out;
  info->function_type = spvgen_type_function(m, cv_out, &cv_in, 1);
}

static void vec_function(spvgen_module *m, const spvgen_mlp_config *p, spvgen_mlp_function_info *info) {
  vec_function_at(m, p, info, NULL);
}

static void vec_emit(spvgen_module *m, const spvgen_mlp_config *p) {
  mlp_emit_pointwise_kernel(m, p, &mlp_variant_vec, false);
}

const mlp_variant_ops mlp_variant_vec = {"vec", vec_plan, vec_candidates, vec_emit, vec_function, vec_function_at};
