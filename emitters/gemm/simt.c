/* emitters/gemm/simt.c — the GEMM for devices without cooperative matrices (lavapipe in
 * CI, and any Vulkan 1.3 device): classic shared-memory tiling.
 *
 * A workgroup computes a tile_m x tile_n tile of D with (tile_m / 4) x (tile_n / 4)
 * invocations, each owning a 4 x 4 micro tile strided over the workgroup tile (rows
 * ty + i * tile_m / 4, columns tx + j * tile_n / 4, so that neighbouring invocations
 * touch neighbouring elements in shared memory and in D). Per K step of tile_k, the
 * workgroup copies the A and B tiles into shared memory (converted to the accumulator
 * type, zero outside the matrices, with loads that walk the operand's contiguous
 * dimension across invocations), then each invocation runs tile_k rank-1 updates of its
 * micro tile out of shared memory, with the accumulators in registers across the
 * unrolled K step. Edges: every global load is clamped to a valid index and its value
 * replaced by zero when out of bounds, and the epilogue stores only inside D.
 *
 * Split-K (split_k > 1; spvgen/gemm.h, splitk.c): the K loop runs over the slice's range,
 * each invocation stores its micro tile's partials (f32 / s32) to the workspace, and in
 * the last slice to arrive each invocation sums its elements over the slices in order and
 * runs the epilogue on the sum (simt_splitk_epilogue). */
#include <string.h>

#include "gemm_internal.h"

#define MICRO 4u

static spvgen_status simt_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg,
                               size_t size) {
  spvgen_gemm_desc *d = &p->desc;
  static const spvgen_component_type ok[] = {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32,
                                             SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_U8};
  bool a_ok = false, b_ok = false;
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    a_ok |= d->a_type == ok[i];
    b_ok |= d->b_type == ok[i];
  }
  if (!a_ok || !b_ok)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "the simt variant takes f16, f32, s8 and u8 inputs, not %s",
                     spvgen_component_type_name(a_ok ? d->b_type : d->a_type));
  if (d->out_type == SPVGEN_COMPONENT_BF16)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the simt variant does not write bf16 output");
  if (!d->tile_m && !d->tile_n && d->workgroup_size) {
    /* The workgroup size is set and the tile is not: the first tile (largest first)
     * with one invocation per micro tile. */
    static const uint32_t sides[] = {64, 32, 128, 16};
    for (size_t i = 0; i < 4 && !d->tile_m; i++)
      for (size_t j = 0; j < 4 && !d->tile_m; j++)
        if ((sides[i] / MICRO) * (sides[j] / MICRO) == d->workgroup_size) {
          d->tile_m = sides[i];
          d->tile_n = sides[j];
        }
  }
  if (!d->tile_m) d->tile_m = d->m >= 64 ? 64 : d->m > 16 ? 32 : 16;
  if (!d->tile_n) d->tile_n = d->n >= 64 ? 64 : d->n > 16 ? 32 : 16;
  if (!d->tile_k) d->tile_k = 16;
  if (!d->stages) d->stages = 1;
  if (!d->unroll) d->unroll = 1;
  if (!d->subgroups) d->subgroups = 0; /* any: the kernel does not depend on subgroups */
  const uint32_t tm = d->tile_m, tn = d->tile_n, tk = d->tile_k;
  if (!gemm_pow2(tm) || tm < 16 || tm > 128 || !gemm_pow2(tn) || tn < 16 || tn > 128)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "tile_m %u / tile_n %u: the simt variant takes powers of two from 16 to 128", tm, tn);
  if (!gemm_pow2(tk) || tk < 4 || tk > 64)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "tile_k %u: the simt variant takes powers of two from 4 to 64", tk);
  if (d->stages != 1)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "stages %u: the simt variant has one stage", d->stages);
  uint32_t threads = (tm / MICRO) * (tn / MICRO);
  if (d->workgroup_size && d->workgroup_size != threads)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "workgroup_size %u: a %ux%u tile of the simt variant takes %u invocations "
                     "(one per 4x4 micro tile)", d->workgroup_size, tm, tn, threads);
  d->workgroup_size = threads;
  if ((tm * tk) % threads || (tn * tk) % threads)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "tile %ux%ux%u: each of the %u invocations must copy a whole number of A and B "
                     "elements per K step (raise tile_k)", tm, tn, tk, threads);
  if (threads > caps->max_workgroup_invocations || threads > caps->max_workgroup_size[0])
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "a %ux%u tile needs %u invocations per workgroup; %s allows %u", tm, tn, threads,
                     caps->name, caps->max_workgroup_invocations);
  uint32_t esize = spvgen_component_type_size(d->acc_type);
  p->shared_bytes = (tm + tn) * tk * esize;
  if (p->shared_bytes > caps->max_shared_memory)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "tile %ux%ux%u needs %u bytes of shared memory; %s has %u", tm, tn, tk,
                     p->shared_bytes, caps->name, caps->max_shared_memory);
  p->local_size[0] = threads;
  p->local_size[1] = p->local_size[2] = 1;
  p->frag_m = MICRO;
  p->frag_n = MICRO;
  p->frag_k = 1;
  p->features = 0;
  p->subgroup_size = 0;
  gemm_set_grid(p);
  gemm_plan_name(p, NULL);
  return SPVGEN_OK;
}

static uint32_t simt_candidates(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc,
                                spvgen_gemm_desc *out, uint32_t max) {
  (void)caps;
  static const uint32_t tiles[][3] = {{64, 64, 16}, {32, 32, 16}, {64, 32, 16}, {32, 64, 16},
                                      {128, 64, 16}, {64, 128, 16}, {128, 128, 16}, {16, 16, 16},
                                      {64, 64, 32}, {32, 32, 32}};
  uint32_t n = 0;
  for (size_t i = 0; i < sizeof tiles / sizeof tiles[0] && n < max; i++) {
    spvgen_gemm_desc d = *desc;
    if ((d.tile_m && d.tile_m != tiles[i][0]) || (d.tile_n && d.tile_n != tiles[i][1]) ||
        (d.tile_k && d.tile_k != tiles[i][2]))
      continue;
    d.tile_m = tiles[i][0];
    d.tile_n = tiles[i][1];
    d.tile_k = tiles[i][2];
    /* A workgroup_size the desc sets stays (simt_plan refuses the tiles it does not
     * fit), as spvgen_gemm_plans promises for every knob. */
    out[n++] = d;
  }
  return n;
}

/* acc + a * b in the accumulator type. */
static uint32_t mad(spvgen_module *m, const spvgen_gemm_desc *d, uint32_t ct, uint32_t a, uint32_t b,
                    uint32_t acc) {
  if (ek_is_float(d->acc_type)) return spvgen_glsl_fma(m, ct, a, b, acc);
  return spvgen_op_i_add(m, ct, acc, spvgen_op_i_mul(m, ct, a, b));
}

/* Split-K: the slice's partials to the workspace (f32 bits for float accumulators, s32
 * for integer ones), the arrival, and in the last slice the sum of every slice's
 * partials in slice order, the epilogue (computed from that sum as if the accumulator
 * were f32 / s32) and the counter reset. */
static void simt_splitk_epilogue(spvgen_module *m, const spvgen_gemm_config *p, gemm_splitk *sk,
                                 const ek_epilogue *epi, const uint32_t *accv, uint32_t bm, uint32_t bn,
                                 uint32_t tx, uint32_t ty, uint32_t tid, uint32_t wg_var) {
  const spvgen_gemm_desc *d = &p->desc;
  const uint32_t BM = d->tile_m, BN = d->tile_n;
  const bool fl = ek_is_float(d->acc_type);
  const spvgen_component_type st = fl ? SPVGEN_COMPONENT_F32 : SPVGEN_COMPONENT_S32;
  uint32_t u32 = ek_u32_type(m), ct = ek_type(m, d->acc_type), stt = ek_type(m, st);
  uint32_t Mc = ek_u32(m, d->m), Nc = ek_u32(m, d->n), ldw = ek_u32(m, p->workspace_ld);
  uint32_t inb[MICRO * MICRO], widx[MICRO * MICRO], rr[MICRO * MICRO], cc[MICRO * MICRO];
  for (uint32_t i = 0; i < MICRO; i++)
    for (uint32_t j = 0; j < MICRO; j++) {
      uint32_t e = i * MICRO + j;
      rr[e] = ek_add(m, bm, ek_add(m, ty, ek_u32(m, i * (BM / MICRO))));
      cc[e] = ek_add(m, bn, ek_add(m, tx, ek_u32(m, j * (BN / MICRO))));
      inb[e] = ek_and(m, ek_lt(m, rr[e], Mc), ek_lt(m, cc[e], Nc));
      /* in-plane word index, 0 outside D (read but unused) */
      widx[e] = spvgen_op_select(m, u32, inb[e], ek_add(m, ek_mul(m, rr[e], ldw), cc[e]), ek_u32(m, 0));
    }
  uint32_t own = gemm_splitk_plane(m, sk, sk->slice);
  for (uint32_t e = 0; e < MICRO * MICRO; e++) {
    spvgen_if(m, inb[e]);
    uint32_t v = ek_convert(m, spvgen_load(m, ct, accv[e]), d->acc_type, st);
    gemm_splitk_store(m, sk, ek_add(m, own, widx[e]), spvgen_op_bitcast(m, u32, v));
    spvgen_end_if(m);
  }
  uint32_t last = gemm_splitk_arrive(m, sk, ek_load_v3_component(m, wg_var, 0),
                                     ek_load_v3_component(m, wg_var, 1), tid);
  spvgen_if(m, last);
  gemm_splitk_acquire(m, sk);
  uint32_t zs = spvgen_const_null(m, stt);
  uint32_t sumv[MICRO * MICRO];
  for (uint32_t e = 0; e < MICRO * MICRO; e++) sumv[e] = ek_local(m, stt, zs);
  uint32_t sv = ek_local(m, u32, ek_u32(m, 0));
  spvgen_store(m, sv, ek_u32(m, 0));
  spvgen_loop(m, SpvLoopControlMaskNone);
  uint32_t s = ek_load_u32(m, sv);
  spvgen_loop_while(m, ek_lt(m, s, ek_u32(m, d->split_k)));
  {
    uint32_t plane = gemm_splitk_plane(m, sk, s);
    for (uint32_t e = 0; e < MICRO * MICRO; e++) {
      uint32_t w = spvgen_op_bitcast(m, stt, gemm_splitk_load(m, sk, ek_add(m, plane, widx[e])));
      uint32_t cur = spvgen_load(m, stt, sumv[e]);
      spvgen_store(m, sumv[e], fl ? spvgen_op_f_add(m, stt, cur, w) : spvgen_op_i_add(m, stt, cur, w));
    }
  }
  spvgen_loop_continue_block(m);
  spvgen_store(m, sv, ek_add(m, s, ek_u32(m, 1)));
  spvgen_end_loop(m);
  spvgen_gemm_desc dsum = *d;
  dsum.acc_type = st;
  ek_epilogue e2 = *epi;
  e2.desc = &dsum;
  for (uint32_t e = 0; e < MICRO * MICRO; e++) {
    spvgen_if(m, inb[e]);
    ek_epilogue_store(m, &e2, spvgen_load(m, stt, sumv[e]), rr[e], cc[e]);
    spvgen_end_if(m);
  }
  gemm_splitk_reset(m, sk, tid);
  spvgen_end_if(m);
}

static void simt_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  const uint32_t BM = d->tile_m, BN = d->tile_n, BK = d->tile_k;
  const uint32_t NT = (BM / MICRO) * (BN / MICRO);
  ek_buffer A, B;
  ek_epilogue epi;
  ek_gemm_buffers(m, d, &A, &B, &epi);
  uint32_t u32 = ek_u32_type(m);
  uint32_t ct = ek_type(m, d->acc_type);
  uint32_t wptr = spvgen_type_pointer(m, SpvStorageClassWorkgroup, ct);
  uint32_t as_t = spvgen_type_array(m, ct, BK * BM);
  uint32_t bs_t = spvgen_type_array(m, ct, BK * BN);
  uint32_t As = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, as_t),
                                SpvStorageClassWorkgroup, 0);
  uint32_t Bs = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, bs_t),
                                SpvStorageClassWorkgroup, 0);
  spvgen_name(m, As, "As");
  spvgen_name(m, Bs, "Bs");
  uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  uint32_t lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  const bool split = d->split_k > 1;
  gemm_splitk sk;
  if (split) gemm_splitk_declare(m, p, &sk);

  spvgen_compute_main(m, "main", NT, 1, 1);
  uint32_t zero_u = ek_u32(m, 0);
  uint32_t zero = spvgen_const_null(m, ct);
  uint32_t tid = ek_load_u32(m, lid_var);
  uint32_t tx = ek_mod(m, tid, ek_u32(m, BN / MICRO));
  uint32_t ty = ek_div(m, tid, ek_u32(m, BN / MICRO));
  uint32_t bn = ek_mul(m, ek_load_v3_component(m, wg_var, 0), ek_u32(m, BN));
  uint32_t bm = ek_mul(m, ek_load_v3_component(m, wg_var, 1), ek_u32(m, BM));
  uint32_t z = ek_load_v3_component(m, wg_var, 2);
  uint32_t k_begin = zero_u, Kend = 0;
  if (split) {
    gemm_splitk_ids(m, &sk, z);
    z = sk.z;
    k_begin = sk.k_begin;
    Kend = sk.k_end;
  }
  uint32_t a_base = gemm_batch_offset(m, d, z, d->stride_a);
  uint32_t b_base = gemm_batch_offset(m, d, z, d->stride_b);
  epi.d_base = gemm_batch_offset(m, d, z, d->stride_d);
  epi.c_base = epi.c.var ? gemm_batch_offset(m, d, z, d->stride_c) : 0;
  uint32_t Mc = ek_u32(m, d->m), Nc = ek_u32(m, d->n), Kc = ek_u32(m, d->k);
  if (!split) Kend = Kc;

  uint32_t accv[MICRO * MICRO];
  for (uint32_t i = 0; i < MICRO * MICRO; i++) accv[i] = ek_local(m, ct, zero);
  uint32_t k0v = ek_local(m, u32, zero_u);
  if (split) spvgen_store(m, k0v, k_begin);

  spvgen_loop(m, SpvLoopControlMaskNone);
  uint32_t k0 = ek_load_u32(m, k0v);
  spvgen_loop_while(m, ek_lt(m, k0, Kend));
  {
    /* A tile (BM x BK) -> As[kk * BM + r]; consecutive invocations walk A's contiguous
     * dimension. */
    for (uint32_t e = 0; e < BM * BK / NT; e++) {
      uint32_t idx = ek_add(m, tid, ek_u32(m, e * NT));
      uint32_t r, kk;
      if (d->a_layout == SPVGEN_ROW_MAJOR) {
        kk = ek_mod(m, idx, ek_u32(m, BK));
        r = ek_div(m, idx, ek_u32(m, BK));
      } else {
        r = ek_mod(m, idx, ek_u32(m, BM));
        kk = ek_div(m, idx, ek_u32(m, BM));
      }
      uint32_t gr = ek_add(m, bm, r), gk = ek_add(m, k0, kk);
      uint32_t inb = ek_and(m, ek_lt(m, gr, Mc), ek_lt(m, gk, Kc));
      uint32_t gi = spvgen_op_select(m, u32, inb, ek_matrix_index(m, d->a_layout, d->lda, gr, gk, a_base), zero_u);
      uint32_t v = ek_convert(m, spvgen_load(m, A.elem_type, ek_elem(m, &A, gi)), d->a_type, d->acc_type);
      v = spvgen_op_select(m, ct, inb, v, zero);
      uint32_t si[1] = {ek_add(m, ek_mul(m, kk, ek_u32(m, BM)), r)};
      spvgen_store(m, spvgen_access_chain(m, wptr, As, si, 1), v);
    }
    /* B tile (BK x BN) -> Bs[kk * BN + c]. */
    for (uint32_t e = 0; e < BN * BK / NT; e++) {
      uint32_t idx = ek_add(m, tid, ek_u32(m, e * NT));
      uint32_t c, kk;
      if (d->b_layout == SPVGEN_ROW_MAJOR) {
        c = ek_mod(m, idx, ek_u32(m, BN));
        kk = ek_div(m, idx, ek_u32(m, BN));
      } else {
        kk = ek_mod(m, idx, ek_u32(m, BK));
        c = ek_div(m, idx, ek_u32(m, BK));
      }
      uint32_t gc = ek_add(m, bn, c), gk = ek_add(m, k0, kk);
      uint32_t inb = ek_and(m, ek_lt(m, gk, Kc), ek_lt(m, gc, Nc));
      uint32_t gi = spvgen_op_select(m, u32, inb, ek_matrix_index(m, d->b_layout, d->ldb, gk, gc, b_base), zero_u);
      uint32_t v = ek_convert(m, spvgen_load(m, B.elem_type, ek_elem(m, &B, gi)), d->b_type, d->acc_type);
      v = spvgen_op_select(m, ct, inb, v, zero);
      uint32_t si[1] = {ek_add(m, ek_mul(m, kk, ek_u32(m, BN)), c)};
      spvgen_store(m, spvgen_access_chain(m, wptr, Bs, si, 1), v);
    }
    spvgen_workgroup_barrier(m);
    /* BK rank-1 updates of the micro tile, accumulators in registers. */
    uint32_t acc[MICRO * MICRO];
    for (uint32_t i = 0; i < MICRO * MICRO; i++) acc[i] = spvgen_load(m, ct, accv[i]);
    for (uint32_t kk = 0; kk < BK; kk++) {
      uint32_t av[MICRO], bv[MICRO];
      for (uint32_t i = 0; i < MICRO; i++) {
        uint32_t ai[1] = {ek_add(m, ty, ek_u32(m, kk * BM + i * (BM / MICRO)))};
        av[i] = spvgen_load(m, ct, spvgen_access_chain(m, wptr, As, ai, 1));
        uint32_t bi[1] = {ek_add(m, tx, ek_u32(m, kk * BN + i * (BN / MICRO)))};
        bv[i] = spvgen_load(m, ct, spvgen_access_chain(m, wptr, Bs, bi, 1));
      }
      for (uint32_t i = 0; i < MICRO; i++)
        for (uint32_t j = 0; j < MICRO; j++)
          acc[i * MICRO + j] = mad(m, d, ct, av[i], bv[j], acc[i * MICRO + j]);
    }
    for (uint32_t i = 0; i < MICRO * MICRO; i++) spvgen_store(m, accv[i], acc[i]);
    spvgen_workgroup_barrier(m);
  }
  spvgen_loop_continue_block(m);
  spvgen_store(m, k0v, ek_add(m, k0, ek_u32(m, BK)));
  spvgen_end_loop(m);

  if (split) {
    simt_splitk_epilogue(m, p, &sk, &epi, accv, bm, bn, tx, ty, tid, wg_var);
    spvgen_function_end(m);
    return;
  }
  /* Epilogue: each element inside D. */
  for (uint32_t i = 0; i < MICRO; i++) {
    uint32_t r = ek_add(m, bm, ek_add(m, ty, ek_u32(m, i * (BM / MICRO))));
    for (uint32_t j = 0; j < MICRO; j++) {
      uint32_t c = ek_add(m, bn, ek_add(m, tx, ek_u32(m, j * (BN / MICRO))));
      spvgen_if(m, ek_and(m, ek_lt(m, r, Mc), ek_lt(m, c, Nc)));
      ek_epilogue_store(m, &epi, spvgen_load(m, ct, accv[i * MICRO + j]), r, c);
      spvgen_end_if(m);
    }
  }
  spvgen_function_end(m);
}

const gemm_variant_ops gemm_variant_simt = {"simt", simt_plan, simt_candidates, simt_emit};
