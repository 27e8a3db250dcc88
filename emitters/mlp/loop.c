/* emitters/mlp/loop.c — the MLP for devices without cooperative features (lavapipe in CI,
 * any Vulkan 1.3 device): one point per invocation, plain loops.
 *
 * The network is a function  array[output_width] float32 f(array[input_width] float32)
 * (spvgen_mlp_emit_function); the kernel loads its point, calls it and stores the result.
 * Inside, the encoded input and each layer's outputs live in two Function arrays of the
 * widest layer's size (ping-pong), and each layer is two nested run-time loops:
 *   for i < outputs: acc = b[i]; for j < inputs: acc = fma(W[i][j], x[j], acc);
 *                    y[i] = act(acc)
 * (the inner loop over several inputs per iteration where the network's loop passes
 * would exceed lavapipe's budget: mlp_loop_unroll)
 * with the f16 weights converted to f32 as they are read; everything else is f32. Points
 * wider than MLP_UNROLLED_IO components cross the function boundary through run-time
 * loops over Function arrays, both in the kernel (loading and storing the point) and in
 * the function (copying the parameter in, the result out): half the module of one
 * instruction group per component (32-64x4-16: 1644 words, was 3262), at the same speed
 * within 4 % (bench/results/mlp-h100-2026-11-26.md). */
#include <string.h>

#include "mlp_internal.h"

static spvgen_status loop_plan(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg,
                               size_t size) {
  (void)caps;
  spvgen_mlp_desc *d = &p->desc;
  if (!d->points_per_group) d->points_per_group = 1;
  if (d->points_per_group != 1)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "points_per_group %u: the loop variant evaluates one point per invocation",
                    d->points_per_group);
  if (!d->workgroup_size) d->workgroup_size = 64;
  if (d->workgroup_size > 1024)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "workgroup_size %u: at most 1024", d->workgroup_size);
  p->local_size[0] = d->workgroup_size;
  p->local_size[1] = p->local_size[2] = 1;
  p->points_per_workgroup = d->workgroup_size;
  p->shared_bytes = 0;
  p->features = 0;
  p->subgroup_size = 0;
  return SPVGEN_OK;
}

static uint32_t loop_candidates(const spvgen_device_caps *caps, const spvgen_mlp_desc *desc,
                                spvgen_mlp_desc *out, uint32_t max) {
  (void)caps;
  static const uint32_t sizes[] = {64, 128, 32, 256};
  uint32_t n = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && n < max; i++) {
    if (desc->workgroup_size && desc->workgroup_size != sizes[i]) continue;
    out[n] = *desc;
    out[n++].workgroup_size = sizes[i];
  }
  if (!n && max) out[n++] = *desc; /* an unusual size the desc fixes */
  return n;
}

uint64_t mlp_loop_iterations(const spvgen_mlp_config *p, uint32_t unroll) {
  const spvgen_mlp_desc *d = &p->desc;
  uint64_t n = 0;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint32_t inner = unroll == 1 || unroll < L->inputs ? L->inputs / unroll + 1 : 0;
    n += (uint64_t)L->outputs * (inner + 1) + 1;
  }
  /* the point in and out: the kernel's and the function's copy loops, the grid's levels */
  if (d->encoding == SPVGEN_MLP_ENCODING_NONE && d->input_width > MLP_UNROLLED_IO) n += 2 * (d->input_width + 1);
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) n += d->grid.levels + 1;
  if (d->output_width > MLP_UNROLLED_IO) n += 2 * (d->output_width + 1);
  return n;
}

uint32_t mlp_loop_unroll(const spvgen_mlp_config *p) {
  /* 1 keeps the one-input loop every network inside the budget has always had; a whole
   * row (at most SPVGEN_MLP_MAX_WIDTH) leaves one loop per layer, at most
   * 16 x (512 + 2) iterations, so the search always ends inside the budget. */
  uint32_t u = 1;
  while (u < SPVGEN_MLP_MAX_WIDTH && mlp_loop_iterations(p, u) > MLP_LOOP_BUDGET) u *= 2;
  return u;
}

/* The loop function's state: the weight buffer, the two Function arrays of the widest
 * layer (layer l reads bufs[l & 1] and writes the other), the counters and the sum. */
typedef struct loop_ctx {
  spvgen_module *m;
  const spvgen_mlp_config *p;
  uint32_t f32;
  ek_buffer wb;
  uint32_t bufs[2];
  uint32_t iv, jv, accv;
  uint32_t unroll; /* inputs per inner-loop iteration (mlp_loop_unroll) */
} loop_ctx;

/* The encoded point into bufs[0]: the hash grid's levels, the raw point copied by a
 * run-time loop (no encoding, wider than MLP_UNROLLED_IO), or each encoded value. */
static void loop_input(loop_ctx *c, uint32_t param, uint32_t arr_in) {
  spvgen_module *m = c->m;
  const spvgen_mlp_desc *d = &c->p->desc;
  uint32_t raw[SPVGEN_MLP_MAX_WIDTH];
  if (d->encoding == SPVGEN_MLP_ENCODING_NONE && d->input_width > MLP_UNROLLED_IO) {
    uint32_t pv = ek_local(m, arr_in, 0);
    spvgen_store(m, pv, param);
    ek_for f;
    uint32_t j = ek_for_begin_var(m, &f, c->jv, ek_u32(m, 0), ek_u32(m, d->input_width), ek_u32(m, 1),
                                  SpvLoopControlMaskNone);
    spvgen_store(m, ek_at(m, c->bufs[0], j), spvgen_load(m, c->f32, ek_at(m, pv, j)));
    ek_for_end(m, &f);
    return;
  }
  for (uint32_t k = 0; k < d->input_width; k++) raw[k] = spvgen_op_composite_extract(m, c->f32, param, &k, 1);
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) { /* the levels straight into bufs[0] */
    mlp_grid g;
    mlp_grid_begin(m, c->p, &c->wb, &g);
    mlp_grid_encode_array(m, &g, raw, c->bufs[0], 0);
    return;
  }
  uint32_t enc[SPVGEN_MLP_MAX_WIDTH];
  mlp_encode(m, c->p, raw, enc);
  for (uint32_t j = 0; j < c->p->encoded_width; j++) spvgen_store(m, ek_at(m, c->bufs[0], ek_u32(m, j)), enc[j]);
}

/* Layer l: for i < outputs { acc = b[i]; for j < inputs: acc = fma(W[i][j], x[j], acc);
 * y[i] = act(acc) }, the f16 weights converted as they are read. The inner loop takes
 * c->unroll inputs per iteration (mlp_loop_unroll) and the inputs % unroll left over
 * after it, straight-line; an unroll of the whole row leaves no inner loop. */
static void loop_layer(loop_ctx *c, uint32_t l) {
  spvgen_module *m = c->m;
  const spvgen_mlp_layer *L = &c->p->layers[l];
  const uint32_t src = c->bufs[l & 1], dst = c->bufs[(l + 1) & 1];
  const uint32_t U = c->unroll, looped = U == 1 || U < L->inputs ? L->inputs / U * U : 0;
  ek_for fi, fj;
  uint32_t i = ek_for_begin_var(m, &fi, c->iv, ek_u32(m, 0), ek_u32(m, L->outputs), ek_u32(m, 1),
                                SpvLoopControlDontUnrollMask);
  uint32_t init = spvgen_const_f32(m, 0.0f);
  if (!c->p->desc.no_bias)
    init = spvgen_op_f_convert(m, c->f32, ek_load_elem(m, &c->wb, ek_add_imm(m, i, (uint32_t)(L->bias_offset / 2))));
  spvgen_store(m, c->accv, init);
  uint32_t row = ek_add_imm(m, ek_mul_imm(m, i, L->row_stride / 2), (uint32_t)(L->matrix_offset / 2));
  if (looped) {
    uint32_t j = ek_for_begin_var(m, &fj, c->jv, ek_u32(m, 0), ek_u32(m, looped), ek_u32(m, U),
                                  SpvLoopControlDontUnrollMask);
    uint32_t acc = 0;
    for (uint32_t u = 0; u < U; u++) {
      uint32_t ju = ek_add_imm(m, j, u);
      uint32_t w = spvgen_op_f_convert(m, c->f32, ek_load_elem(m, &c->wb, ek_iadd(m, row, ju)));
      uint32_t x = spvgen_load(m, c->f32, ek_at(m, src, ju));
      acc = spvgen_glsl_fma(m, c->f32, w, x, u ? acc : spvgen_load(m, c->f32, c->accv));
    }
    spvgen_store(m, c->accv, acc);
    ek_for_end(m, &fj);
  }
  if (looped < L->inputs) { /* the inputs past the loop, at constant offsets */
    uint32_t acc = spvgen_load(m, c->f32, c->accv);
    for (uint32_t j = looped; j < L->inputs; j++) {
      uint32_t w = spvgen_op_f_convert(m, c->f32, ek_load_elem(m, &c->wb, ek_add_imm(m, row, j)));
      acc = spvgen_glsl_fma(m, c->f32, w, spvgen_load(m, c->f32, ek_at(m, src, ek_u32(m, j))), acc);
    }
    spvgen_store(m, c->accv, acc);
  }
  uint32_t y = mlp_activation_f32(m, c->p, spvgen_load(m, c->f32, c->accv), L->activation);
  spvgen_store(m, ek_at(m, dst, i), y);
  ek_for_end(m, &fi);
}

/* The last layer's outputs as the function's result (through a run-time loop when the
 * point is wider than MLP_UNROLLED_IO). */
static void loop_return(loop_ctx *c, uint32_t arr_out) {
  spvgen_module *m = c->m;
  const uint32_t ow = c->p->desc.output_width, last = c->bufs[c->p->layer_count & 1];
  if (ow > MLP_UNROLLED_IO) {
    uint32_t ov = ek_local(m, arr_out, 0);
    ek_for f;
    uint32_t k = ek_for_begin_var(m, &f, c->jv, ek_u32(m, 0), ek_u32(m, ow), ek_u32(m, 1), SpvLoopControlMaskNone);
    spvgen_store(m, ek_at(m, ov, k), spvgen_load(m, c->f32, ek_at(m, last, k)));
    ek_for_end(m, &f);
    spvgen_return_value(m, spvgen_load(m, arr_out, ov));
    return;
  }
  uint32_t outs[SPVGEN_MLP_MAX_WIDTH];
  for (uint32_t k = 0; k < ow; k++) outs[k] = spvgen_load(m, c->f32, ek_at(m, last, ek_u32(m, k)));
  spvgen_return_value(m, spvgen_op_composite_construct(m, arr_out, outs, ow));
}

void mlp_loop_function(spvgen_module *m, const spvgen_mlp_config *p, spvgen_mlp_function_info *info,
                       const ek_buffer *weights) {
  const spvgen_mlp_desc *d = &p->desc;
  loop_ctx c = {m, p, ek_f32_type(m), {0}, {0, 0}, 0, 0, 0, mlp_loop_unroll(p)};
  uint32_t arr_in = spvgen_type_array(m, c.f32, d->input_width);
  uint32_t arr_out = spvgen_type_array(m, c.f32, d->output_width);
  uint32_t arr_w = spvgen_type_array(m, c.f32, mlp_max_width(p));
  c.wb = weights ? *weights : mlp_weights_buffer(m, info);
  uint32_t param = 0;
  uint32_t fn = spvgen_function_begin(m, arr_out, SpvFunctionControlMaskNone, &arr_in, 1, &param);
  spvgen_name(m, fn, "mlp");
  c.bufs[0] = ek_local(m, arr_w, 0);
  c.bufs[1] = ek_local(m, arr_w, 0);
  c.iv = ek_local(m, ek_u32_type(m), 0);
  c.jv = ek_local(m, ek_u32_type(m), 0);
  c.accv = ek_local(m, c.f32, 0);
  loop_input(&c, param, arr_in);
  for (uint32_t l = 0; l < p->layer_count; l++) loop_layer(&c, l);
  loop_return(&c, arr_out);
  spvgen_function_end(m);
  info->function = fn;
  info->param_type = arr_in;
  info->return_type = arr_out;
  info->function_type = spvgen_type_function(m, arr_out, &arr_in, 1);
}

static void loop_function(spvgen_module *m, const spvgen_mlp_config *p,
                          spvgen_mlp_function_info *info) {
  mlp_loop_function(m, p, info, NULL);
}

static void loop_emit(spvgen_module *m, const spvgen_mlp_config *p) {
  mlp_emit_pointwise_kernel(m, p, &mlp_variant_loop, true);
}

const mlp_variant_ops mlp_variant_loop = {"loop", loop_plan, loop_candidates, loop_emit, loop_function,
                                          mlp_loop_function};
