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
 * replaced by zero when out of bounds, and the epilogue stores only inside D. With device
 * addresses each workgroup first moves its pointers (64-bit) to its batch and tile and
 * indexes A, B, C and D from the tile's rows and columns.
 *
 * Split-K (split_k > 1; spvgen/gemm.h, splitk.c): this is the partials kernel. The K loop
 * runs over the slice's range and each invocation stores its micro tile's partials (f32 /
 * s32) to the slice's workspace plane (simt_store_partials); the reduction kernel
 * (splitk_reduce.c) sums the planes and runs the epilogue. */
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

/* ------------------------------------------------------------------- emit ---- */

/* What the kernel's phases share: bindings, the shared tiles, this invocation's place in
 * the workgroup tile, the problem's extents (ids) and the accumulators. */
typedef struct simt_kernel {
  const spvgen_gemm_config *p;
  const spvgen_gemm_desc *d;
  ek_buffer A, B;
  ek_epilogue epi;
  ek_gemm_shape sh;            /* extents, leading dimensions, strides, scalars (ids) */
  ek_shared As, Bs;            /* As[kk * BM + r], Bs[kk * BN + c] */
  uint32_t ct, zero;           /* accumulator type and its zero */
  gemm_grid_vars grid;         /* WorkgroupId (and NumWorkgroups) */
  uint32_t lid_var;            /* LocalInvocationIndex */
  uint32_t tid, tx, ty;        /* invocation, its micro-tile column and row */
  uint32_t bm, bn;             /* the workgroup tile's origin */
  uint32_t a_base, b_base;     /* batch offsets (0: none) */
  bool moved;                  /* device addresses: A, B, C, D moved to the tile */
  uint32_t M, N, K;
  uint32_t acc[MICRO * MICRO]; /* Function variables: the micro tile */
  bool split;
  gemm_splitk sk;
} simt_kernel;

/* acc + a * b in the accumulator type. */
static uint32_t mad(spvgen_module *m, const simt_kernel *k, uint32_t a, uint32_t b, uint32_t acc) {
  if (ek_is_float(k->d->acc_type)) return spvgen_glsl_fma(m, k->ct, a, b, acc);
  return spvgen_op_i_add(m, k->ct, acc, spvgen_op_i_mul(m, k->ct, a, b));
}

/* Row i, column j of this invocation's micro tile in D. */
static uint32_t micro_row(spvgen_module *m, const simt_kernel *k, uint32_t i) {
  return ek_iadd(m, k->bm, ek_add_imm(m, k->ty, i * (k->d->tile_m / MICRO)));
}
static uint32_t micro_col(spvgen_module *m, const simt_kernel *k, uint32_t j) {
  return ek_iadd(m, k->bn, ek_add_imm(m, k->tx, j * (k->d->tile_n / MICRO)));
}

/* Bindings, the shared tiles and the built-ins, before the entry point. */
static void simt_declare(spvgen_module *m, const spvgen_gemm_config *p, simt_kernel *k) {
  const spvgen_gemm_desc *d = &p->desc;
  memset(k, 0, sizeof *k);
  k->p = p;
  k->d = d;
  ek_buffer ws;
  ek_gemm_interface(m, p, &k->A, &k->B, &k->epi, &k->sh, &ws);
  k->ct = ek_type(m, d->acc_type);
  k->As = ek_shared_array(m, k->ct, d->tile_k * d->tile_m, "As");
  k->Bs = ek_shared_array(m, k->ct, d->tile_k * d->tile_n, "Bs");
  gemm_grid_declare(m, p, &k->grid);
  k->lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  k->split = d->split_k > 1;
  if (k->split) gemm_splitk_declare(m, p, &k->sk, ws.ptr_type ? &ws : NULL);
}

/* In main: this invocation's micro tile, the tile origin, the batch (and with split-K
 * the slice and its K range), the zeroed accumulators. */
static void simt_ids(spvgen_module *m, simt_kernel *k, uint32_t *k_begin, uint32_t *k_end) {
  const spvgen_gemm_desc *d = k->d;
  ek_gemm_shape_load(m, k->p, &k->sh);
  gemm_pack_ids pk; /* packed operands: read from their copies (K padded, both packed) */
  const bool packed = gemm_pack_main(m, k->p, &k->sh, &pk);
  k->epi.shape = &k->sh;
  k->zero = spvgen_const_null(m, k->ct);
  k->tid = ek_load_u32(m, k->lid_var);
  k->tx = ek_mod_imm(m, k->tid, d->tile_n / MICRO);
  k->ty = ek_div_imm(m, k->tid, d->tile_n / MICRO);
  gemm_tile_origin(m, k->p, &k->sh, &k->grid, &k->bm, &k->bn);
  uint32_t z = ek_load_v3_component(m, k->grid.wg, 2);
  k->K = k->sh.k;
  *k_begin = ek_u32(m, 0);
  *k_end = k->K;
  if (k->split) {
    gemm_splitk_ids(m, &k->sk, &k->sh, &k->grid, z);
    z = k->sk.z;
    *k_begin = k->sk.k_begin;
    *k_end = k->sk.k_end;
  }
  k->a_base = gemm_batch_offset(m, d, &k->sh, z, k->sh.stride_a, &k->A);
  k->b_base = gemm_batch_offset(m, d, &k->sh, z, k->sh.stride_b, &k->B);
  if (packed) {
    k->a_base = gemm_pack_base(m, d, &pk, 'a', &k->A, k->a_base);
    k->b_base = gemm_pack_base(m, d, &pk, 'b', &k->B, k->b_base);
  }
  if (!k->split) { /* split-K: D and C are the reduction's */
    k->epi.d_base = gemm_batch_offset(m, d, &k->sh, z, k->sh.stride_d, &k->epi.d);
    k->epi.c_base = k->epi.c.var ? gemm_batch_offset(m, d, &k->sh, z, k->sh.stride_c, &k->epi.c) : 0;
  }
  /* Device addresses: the pointers move on to the tile (A's rows from bm, B's columns
   * from bn, D's and C's element (bm, bn)), so the staging indexes A and B with the
   * tile's own rows and columns (stage_operand) and a matrix may hold more than 2^31
   * elements. (Split-K's partials go to the workspace, indexed from its base: it holds
   * at most 2^31 - 1 words, gemm_splitk_max_words.) */
  k->moved = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (k->moved) {
    ek_buffer_move_to(m, &k->A, d->a_layout, k->sh.lda, k->bm, 0);
    ek_buffer_move_to(m, &k->B, d->b_layout, k->sh.ldb, 0, k->bn);
    if (!k->split) ek_epilogue_move(m, &k->epi, k->bm, k->bn);
  }
  k->M = k->sh.m;
  k->N = k->sh.n;
  for (uint32_t i = 0; i < MICRO * MICRO; i++) k->acc[i] = ek_local(m, k->ct, k->zero);
}

/* Staging: the operand's tile at K position k0 into shared memory, converted to the
 * accumulator type, zero outside the matrix. A is BM x BK (rows r), B is BK x BN
 * (columns c); consecutive invocations walk the operand's contiguous dimension. */
static void stage_operand(spvgen_module *m, const simt_kernel *k, bool is_a, uint32_t k0) {
  const spvgen_gemm_desc *d = k->d;
  const uint32_t BK = d->tile_k, T = is_a ? d->tile_m : d->tile_n;
  const uint32_t NT = (d->tile_m / MICRO) * (d->tile_n / MICRO);
  spvgen_matrix_layout lay = is_a ? d->a_layout : d->b_layout;
  bool k_contiguous = is_a == (lay == SPVGEN_ROW_MAJOR); /* A row-major, B column-major */
  const ek_buffer *buf = is_a ? &k->A : &k->B;
  for (uint32_t e = 0; e < T * BK / NT; e++) {
    uint32_t idx = ek_add_imm(m, k->tid, e * NT);
    uint32_t t, kk; /* the tile's row (A) or column (B), and its K index */
    if (k_contiguous) {
      kk = ek_mod_imm(m, idx, BK);
      t = ek_div_imm(m, idx, BK);
    } else {
      t = ek_mod_imm(m, idx, T);
      kk = ek_div_imm(m, idx, T);
    }
    uint32_t gt = ek_iadd(m, is_a ? k->bm : k->bn, t), gk = ek_iadd(m, k0, kk);
    uint32_t inb = is_a ? ek_all(m, ek_ult(m, gt, k->M), ek_ult(m, gk, k->K))
                        : ek_all(m, ek_ult(m, gk, k->K), ek_ult(m, gt, k->N));
    uint32_t at = k->moved ? t : gt; /* moved: A's rows and B's columns count from the tile's */
    uint32_t gi = is_a ? ek_matrix_offset(m, lay, k->sh.lda, at, gk, k->a_base)
                       : ek_matrix_offset(m, lay, k->sh.ldb, gk, at, k->b_base);
    gi = ek_select(m, inb, gi, ek_u32(m, 0));
    uint32_t v = ek_convert(m, ek_load_elem(m, buf, gi), is_a ? d->a_type : d->b_type, d->acc_type);
    v = ek_select(m, inb, v, k->zero);
    ek_shared_store(m, is_a ? &k->As : &k->Bs, ek_iadd(m, ek_mul_imm(m, kk, T), t), v);
  }
}

/* The main loop's body after staging: BK rank-1 updates of the micro tile out of shared
 * memory, the accumulators in registers across the step. */
static void micro_tile_update(spvgen_module *m, const simt_kernel *k) {
  const uint32_t BM = k->d->tile_m, BN = k->d->tile_n;
  uint32_t acc[MICRO * MICRO];
  for (uint32_t i = 0; i < MICRO * MICRO; i++) acc[i] = spvgen_load(m, k->ct, k->acc[i]);
  for (uint32_t kk = 0; kk < k->d->tile_k; kk++) {
    uint32_t av[MICRO], bv[MICRO];
    for (uint32_t i = 0; i < MICRO; i++) {
      av[i] = ek_shared_load(m, &k->As, ek_add_imm(m, k->ty, kk * BM + i * (BM / MICRO)));
      bv[i] = ek_shared_load(m, &k->Bs, ek_add_imm(m, k->tx, kk * BN + i * (BN / MICRO)));
    }
    for (uint32_t i = 0; i < MICRO; i++)
      for (uint32_t j = 0; j < MICRO; j++) acc[i * MICRO + j] = mad(m, k, av[i], bv[j], acc[i * MICRO + j]);
  }
  for (uint32_t i = 0; i < MICRO * MICRO; i++) spvgen_store(m, k->acc[i], acc[i]);
}

/* Epilogue: each element of the micro tile inside D. */
static void simt_epilogue(spvgen_module *m, const simt_kernel *k) {
  for (uint32_t i = 0; i < MICRO; i++) {
    uint32_t r = micro_row(m, k, i);
    for (uint32_t j = 0; j < MICRO; j++) {
      uint32_t c = micro_col(m, k, j);
      ek_guard g = ek_guard_begin(m, ek_all(m, ek_ult(m, r, k->M), ek_ult(m, c, k->N)));
      ek_epilogue_store(m, &k->epi, spvgen_load(m, k->ct, k->acc[i * MICRO + j]), r, c);
      ek_guard_end(m, g);
    }
  }
}

/* Split-K: the slice's partials of the micro tile's elements inside D to its workspace
 * plane (f32 bits for float accumulators, s32 for integer ones). */
static void simt_store_partials(spvgen_module *m, simt_kernel *k) {
  const spvgen_gemm_desc *d = k->d;
  gemm_splitk *sk = &k->sk;
  const spvgen_component_type st = ek_is_float(d->acc_type) ? SPVGEN_COMPONENT_F32 : SPVGEN_COMPONENT_S32;
  uint32_t u32 = ek_u32_type(m);
  uint32_t own = gemm_splitk_plane(m, sk, sk->slice);
  for (uint32_t e = 0; e < MICRO * MICRO; e++) {
    uint32_t r = micro_row(m, k, e / MICRO), c = micro_col(m, k, e % MICRO);
    ek_guard g = ek_guard_begin(m, ek_all(m, ek_ult(m, r, k->M), ek_ult(m, c, k->N)));
    uint32_t v = ek_convert(m, spvgen_load(m, k->ct, k->acc[e]), d->acc_type, st);
    gemm_splitk_store(m, sk, ek_iadd(m, own, ek_iadd(m, ek_imul(m, r, k->sh.workspace_ld), c)),
                      spvgen_op_bitcast(m, u32, v));
    ek_guard_end(m, g);
  }
}

/* The kernel: for each K step, stage A and B, then rank-1 updates of the micro tile;
 * then the epilogue (split-K: the slice's partials). */
static void simt_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  simt_kernel k;
  simt_declare(m, p, &k);
  spvgen_compute_main(m, "main", (d->tile_m / MICRO) * (d->tile_n / MICRO), 1, 1);
  uint32_t k_begin, k_end;
  simt_ids(m, &k, &k_begin, &k_end);
  ek_for kl;
  uint32_t k0 = ek_for_begin(m, &kl, k_begin, k_end, ek_u32(m, d->tile_k), SpvLoopControlMaskNone);
  stage_operand(m, &k, true, k0);
  stage_operand(m, &k, false, k0);
  spvgen_workgroup_barrier(m);
  micro_tile_update(m, &k);
  spvgen_workgroup_barrier(m);
  ek_for_end(m, &kl);
  if (k.split) simt_store_partials(m, &k);
  else simt_epilogue(m, &k);
  spvgen_function_end(m);
}

const gemm_variant_ops gemm_variant_simt = {"simt", simt_plan, simt_candidates, simt_emit};
