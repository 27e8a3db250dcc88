/* emitters/gemm/splitk_reduce.c — the second kernel of a split-K plan (spvgen/gemm.h,
 * "Split-K"): the sum of the partial planes and the epilogue, element-wise.
 *
 * Invocation i of the grid (workgroups linear in x, then y; batch in z) takes chunk i of
 * its batch: row i / (workspace_ld / 4), columns 4 (i % (workspace_ld / 4)) .. + 3, i.e.
 * 16 bytes of every plane (workspace_ld is N rounded up to 4, and a plane is M rows of
 * it, so chunk i of plane p is the u32x4 word p * M * workspace_ld / 4 + i, and
 * consecutive invocations read consecutive 16 bytes). It adds the planes in slice order
 * 0, 1, ... (the same sum whatever order the partials kernel's workgroups ran in), then
 * runs the GEMM's epilogue on each of its columns inside N (ek_epilogue_store: alpha,
 * beta * C, bias, activation, the conversion to out_type) as if the accumulator were the
 * sum's type: f32 for float accumulators (f16 ones included: the partials are f32), s32
 * for integer ones. D's layout, leading dimension and batch stride are the plan's (or
 * the run-time shape's). No barrier, no shared memory, no atomics.
 *
 * Device addresses: the workspace is indexed from its base in 16-byte words (it holds at
 * most 2^31 - 1 32-bit words, gemm_splitk_max_words, so every index is a small signed
 * 32-bit value); D and C are moved in 64 bits to each invocation's first element, so
 * they may span more than 2^31 elements (a large ld or batch stride). Every access
 * through a pointer carries Aligned (spvgen_load / spvgen_store: the element's). */
#include <string.h>

#include "gemm_internal.h"

void gemm_splitk_reduce_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  const bool runtime = gemm_runtime(d), batched = runtime || d->batch > 1;
  ek_epilogue epi;
  ek_gemm_shape sh;
  ek_buffer ws;
  ek_gemm_reduce_interface(m, p, &epi, &sh, &ws);
  epi.shape = &sh;
  uint32_t u32 = ek_u32_type(m), v4 = spvgen_type_vector(m, u32, 4);
  /* the workspace as 16-byte words: a view of the device-address pointer, else a binding
   * of its own (the same number as the partials kernel's) */
  ek_buffer w4 = ws.ptr_type ? ek_buffer_view(m, &ws, v4, p->workspace_binding, true, "workspace4")
                             : ek_buffer_decl(m, v4, p->workspace_binding, true, "workspace");
  uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  uint32_t lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  uint32_t nwg_var = runtime ? ek_builtin_v3(m, SpvBuiltInNumWorkgroups) : 0;
  spvgen_name(m, spvgen_compute_main(m, "main", GEMM_REDUCE_LOCAL, 1, 1), "main");
  ek_gemm_shape_load(m, p, &sh);

  /* the sum's type: f32 for float accumulators, s32 for integer ones (u32 partials of
   * u8 inputs add alike) */
  const bool fl = ek_is_float(d->acc_type);
  const spvgen_component_type st = fl ? SPVGEN_COMPONENT_F32 : SPVGEN_COMPONENT_S32;
  uint32_t stt = ek_type(m, st), s4 = spvgen_type_vector(m, stt, 4);

  /* where this invocation is: batch z, chunk i */
  uint32_t z = batched ? ek_load_v3_component(m, wg_var, 2) : ek_u32(m, 0);
  epi.d_base = gemm_batch_offset(m, d, &sh, z, sh.stride_d, &epi.d);
  epi.c_base = epi.c.var ? gemm_batch_offset(m, d, &sh, z, sh.stride_c, &epi.c) : 0;
  uint32_t gx = runtime ? ek_load_v3_component(m, nwg_var, 0) : ek_u32(m, p->reduce_groups[0]);
  uint32_t wg_linear = ek_iadd(m, ek_imul(m, ek_load_v3_component(m, wg_var, 1), gx), ek_load_v3_component(m, wg_var, 0));
  uint32_t i = ek_iadd(m, ek_mul_imm(m, wg_linear, GEMM_REDUCE_LOCAL), ek_load_u32(m, lid_var));
  uint32_t per_row = ek_div_imm(m, sh.workspace_ld, 4); /* chunks per row */
  uint32_t plane4 = ek_imul(m, sh.m, per_row);          /* chunks per plane */
  ek_guard inside = ek_guard_begin(m, ek_ult(m, i, plane4));
  uint32_t row = ek_udiv(m, i, per_row), c0 = ek_mul_imm(m, ek_umod(m, i, per_row), 4);

  /* the planes of this batch, slice order: plane s * batch + z */
  uint32_t step4 = batched ? ek_imul(m, plane4, sh.batch) : plane4; /* chunks from a slice to the next */
  uint32_t first = ek_iadd(m, ek_imul(m, z, plane4), i);
  uint32_t sum;
  const uint32_t S = d->split_k;
  if (!runtime && S <= 16) { /* a constant slice count: every plane's load in flight at once */
    uint32_t part[16] = {0};
    for (uint32_t s = 0; s < S; s++)
      part[s] = spvgen_op_bitcast(m, s4, ek_load_elem(m, &w4, ek_iadd(m, first, ek_imul(m, ek_u32(m, s), step4))));
    sum = part[0];
    for (uint32_t s = 1; s < S; s++)
      sum = fl ? spvgen_op_f_add(m, s4, sum, part[s]) : spvgen_op_i_add(m, s4, sum, part[s]);
  } else {
    uint32_t sumv = ek_local(m, s4, spvgen_const_null(m, s4));
    ek_for sl;
    uint32_t s = ek_for_begin(m, &sl, ek_u32(m, 0), sh.split_k, ek_u32(m, 1), SpvLoopControlMaskNone);
    uint32_t part = spvgen_op_bitcast(m, s4, ek_load_elem(m, &w4, ek_iadd(m, first, ek_imul(m, s, step4))));
    uint32_t cur = spvgen_load(m, s4, sumv);
    spvgen_store(m, sumv, fl ? spvgen_op_f_add(m, s4, cur, part) : spvgen_op_i_add(m, s4, cur, part));
    ek_for_end(m, &sl);
    sum = spvgen_load(m, s4, sumv);
  }

  /* the epilogue of the sum, column by column inside N. Device addresses: D and C move
   * (64 bits) to this invocation's first element (row, c0), after their batch's move, and
   * its 4 columns are indexed from there (at most 3 ldd further, within the reach
   * check_tiles allows a tile), so D and C may hold more than 2^31 elements. */
  ek_epilogue_move(m, &epi, row, c0);
  spvgen_gemm_desc dsum = *d;
  dsum.acc_type = st;
  epi.desc = &dsum;
  const bool n_edge = !gemm_dim_multiple(d, 'n', 4);
  for (uint32_t q = 0; q < 4; q++) {
    uint32_t col = ek_add_imm(m, c0, q);
    ek_guard gq = ek_guard_begin(m, ek_below(m, n_edge && q > 0, col, sh.n));
    ek_epilogue_store(m, &epi, spvgen_op_composite_extract(m, stt, sum, &q, 1), row, col);
    ek_guard_end(m, gq);
  }
  ek_guard_end(m, inside);
  spvgen_function_end(m);
}
