/* emitters/mlp/loop.c — the MLP for devices without cooperative features (lavapipe in CI,
 * any Vulkan 1.3 device): one point per invocation, plain loops.
 *
 * The network is a function  array[output_width] float32 f(array[input_width] float32)
 * (spvgen_mlp_emit_function); the kernel loads its point, calls it and stores the result.
 * Inside, the encoded input and each layer's outputs live in two Function arrays of the
 * widest layer's size (ping-pong), and each layer is two nested run-time loops:
 *   for i < outputs: acc = b[i]; for j < inputs: acc = fma(W[i][j], x[j], acc);
 *                    y[i] = act(acc)
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

static void loop_function(spvgen_module *m, const spvgen_mlp_config *p,
                          spvgen_mlp_function_info *info) {
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t f32 = ek_f32_type(m), u32 = ek_u32_type(m);
  uint32_t arr_in = spvgen_type_array(m, f32, d->input_width);
  uint32_t arr_out = spvgen_type_array(m, f32, d->output_width);
  uint32_t arr_w = spvgen_type_array(m, f32, mlp_max_width(p));
  uint32_t fptr = spvgen_type_pointer(m, SpvStorageClassFunction, f32);
  ek_buffer wb = mlp_weights_buffer(m, info);
  uint32_t param = 0;
  uint32_t fn = spvgen_function_begin(m, arr_out, SpvFunctionControlMaskNone, &arr_in, 1, &param);
  spvgen_name(m, fn, "mlp");
  uint32_t bufs[2] = {ek_local(m, arr_w, 0), ek_local(m, arr_w, 0)};
  uint32_t iv = ek_local(m, u32, 0), jv = ek_local(m, u32, 0), accv = ek_local(m, f32, 0);

  uint32_t zero_u = ek_u32(m, 0), one_u = ek_u32(m, 1), zero_f = spvgen_const_f32(m, 0.0f);
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) {
    /* The grid's levels straight into the first layer's input array. */
    uint32_t raw[3];
    for (uint32_t c = 0; c < d->input_width; c++) raw[c] = spvgen_op_composite_extract(m, f32, param, &c, 1);
    mlp_grid g;
    mlp_grid_begin(m, p, &wb, &g);
    mlp_grid_encode_array(m, &g, raw, bufs[0], 0);
  } else if (d->encoding == SPVGEN_MLP_ENCODING_NONE && d->input_width > MLP_UNROLLED_IO) {
    /* The point as it came, copied by a run-time loop (MLP_UNROLLED_IO). */
    uint32_t pv = ek_local(m, arr_in, 0);
    spvgen_store(m, pv, param);
    uint32_t j = mlp_for_begin_ctl(m, jv, zero_u, ek_u32(m, d->input_width), SpvLoopControlMaskNone);
    spvgen_store(m, spvgen_access_chain(m, fptr, bufs[0], &j, 1),
                 spvgen_load(m, f32, spvgen_access_chain(m, fptr, pv, &j, 1)));
    mlp_for_end(m, jv, j, one_u);
  } else {
    uint32_t raw[SPVGEN_MLP_MAX_WIDTH], enc[SPVGEN_MLP_MAX_WIDTH];
    for (uint32_t c = 0; c < d->input_width; c++) raw[c] = spvgen_op_composite_extract(m, f32, param, &c, 1);
    mlp_encode(m, p, raw, enc);
    for (uint32_t j = 0; j < p->encoded_width; j++) {
      uint32_t idx = ek_u32(m, j);
      spvgen_store(m, spvgen_access_chain(m, fptr, bufs[0], &idx, 1), enc[j]);
    }
  }
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint32_t src = bufs[l & 1], dst = bufs[(l + 1) & 1];
    spvgen_store(m, iv, zero_u);
    spvgen_loop(m, SpvLoopControlDontUnrollMask);
    uint32_t i = ek_load_u32(m, iv);
    spvgen_loop_while(m, ek_lt(m, i, ek_u32(m, L->outputs)));
    {
      uint32_t init = zero_f;
      if (!d->no_bias) {
        uint32_t bi = ek_add(m, i, ek_u32(m, (uint32_t)(L->bias_offset / 2)));
        init = spvgen_op_f_convert(m, f32, spvgen_load(m, wb.elem_type, ek_elem(m, &wb, bi)));
      }
      spvgen_store(m, accv, init);
      uint32_t row = ek_add(m, ek_mul(m, i, ek_u32(m, L->row_stride / 2)),
                            ek_u32(m, (uint32_t)(L->matrix_offset / 2)));
      spvgen_store(m, jv, zero_u);
      spvgen_loop(m, SpvLoopControlDontUnrollMask);
      uint32_t j = ek_load_u32(m, jv);
      spvgen_loop_while(m, ek_lt(m, j, ek_u32(m, L->inputs)));
      {
        uint32_t w = spvgen_op_f_convert(m, f32, spvgen_load(m, wb.elem_type, ek_elem(m, &wb, ek_add(m, row, j))));
        uint32_t x = spvgen_load(m, f32, spvgen_access_chain(m, fptr, src, &j, 1));
        spvgen_store(m, accv, spvgen_glsl_fma(m, f32, w, x, spvgen_load(m, f32, accv)));
      }
      spvgen_loop_continue_block(m);
      spvgen_store(m, jv, ek_add(m, j, one_u));
      spvgen_end_loop(m);
      uint32_t y = mlp_activation_f32(m, p, spvgen_load(m, f32, accv), L->activation);
      spvgen_store(m, spvgen_access_chain(m, fptr, dst, &i, 1), y);
    }
    spvgen_loop_continue_block(m);
    spvgen_store(m, iv, ek_add(m, i, one_u));
    spvgen_end_loop(m);
  }
  uint32_t last = bufs[p->layer_count & 1];
  if (d->output_width > MLP_UNROLLED_IO) {
    uint32_t ov = ek_local(m, arr_out, 0);
    uint32_t c = mlp_for_begin_ctl(m, jv, zero_u, ek_u32(m, d->output_width), SpvLoopControlMaskNone);
    spvgen_store(m, spvgen_access_chain(m, fptr, ov, &c, 1),
                 spvgen_load(m, f32, spvgen_access_chain(m, fptr, last, &c, 1)));
    mlp_for_end(m, jv, c, one_u);
    spvgen_return_value(m, spvgen_load(m, arr_out, ov));
  } else {
    uint32_t outs[SPVGEN_MLP_MAX_WIDTH];
    for (uint32_t c = 0; c < d->output_width; c++) {
      uint32_t idx = ek_u32(m, c);
      outs[c] = spvgen_load(m, f32, spvgen_access_chain(m, fptr, last, &idx, 1));
    }
    spvgen_return_value(m, spvgen_op_composite_construct(m, arr_out, outs, d->output_width));
  }
  spvgen_function_end(m);
  info->function = fn;
  info->param_type = arr_in;
  info->return_type = arr_out;
  info->function_type = spvgen_type_function(m, arr_out, &arr_in, 1);
}

static void loop_emit(spvgen_module *m, const spvgen_mlp_config *p) {
  mlp_emit_pointwise_kernel(m, p, &mlp_variant_loop, true);
}

const mlp_variant_ops mlp_variant_loop = {"loop", loop_plan, loop_candidates, loop_emit, loop_function};
