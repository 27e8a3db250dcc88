/* emitters/gemm/coopmat2.c — the GEMM for NVIDIA's VK_NV_cooperative_matrix2: one
 * workgroup-scope cooperative matrix per operand tile, addressed through tensor layouts.
 * (Designed after llama.cpp's mul_mm_cm2.comp and jeffbolznv/vk_cooperative_matrix_perf's
 * workgroup.comp; no code taken from them.)
 *
 * Shape. A workgroup of W invocations (256, 128 or 64) owns a tile_m x tile_n tile of D
 * (BM x BN) and walks K in steps of BK. Per step it loads A[bm.., k..] as one BM x BK
 * MatrixA and B[k.., bn..] as one BK x BN MatrixB with OpCooperativeMatrixLoadTensorNV and
 * runs one OpCooperativeMatrixMulAddKHR into a BM x BN accumulator (Workgroup scope: the
 * driver splits the tile over the subgroups and stages it through shared memory itself;
 * the kernel declares none). Shapes, strides, alpha, beta are module constants, so every
 * tensor layout is built from constants and the driver sees the exact dimensions and
 * alignments. Dispatch: (ceil(N / BN), ceil(M / BM), batch).
 *
 * Tiles, K step, unroll and edge mode are planned in coopmat2_plan.c.
 *
 * The K loop. K / BK full steps run in a loop unrolled `unroll` times (default 4, or
 * fewer when there are fewer steps), the leftover full steps follow straight-line, and a
 * partial last step (K % BK) loads through clamped layouts. All counts are constants.
 *
 * Edges and clamping. Two tensor layouts per operand: one with clamp mode Undefined (no
 * bounds checks, for tiles known to be inside the matrices) and one with ConstantNV
 * (clamp value 0: reads outside the matrix give 0, stores outside it are dropped). When
 * BM divides M and BN divides N every tile uses the unclamped layouts; otherwise the
 * kernel branches once per workgroup (a uniform branch): interior tiles run the
 * unclamped path, edge tiles the clamped one (edge = branch, the default), or every tile
 * runs the clamped path (edge = clamp: half the code, no second copy of the K loop for
 * the driver to compile and allocate registers for), or (edge = shift, beta 0, M >= BM,
 * N >= BN) an edge tile's origin moves back to M - BM (N - BN) so that every tile is
 * interior; it overlaps its neighbour, and both store the same values there (each element
 * is the same dot product in the same K order). No padding, no masks in the loop.
 *
 * Column-major operands. The layout describes memory as it is (a column-major R x C
 * matrix is a row-major C x R tensor, dimensions (C, R), stride (ld, 1)), the slice is
 * taken in those coordinates, and the load/store goes through a tensor view with the
 * permutation {1, 0} (the transposing view of the GLSL_NV_cooperative_matrix2 examples,
 * what llama.cpp uses for its B and D). Row-major operands need no view.
 *
 * Batches. The tensor loads need a 16-byte aligned pointer. When stride_x * element size
 * is a multiple of 16 the pointer is the element at the batch's base and the layouts are
 * 2-D; otherwise the pointer is element 0 and the layouts are 3-D (batch, rows, cols) with
 * strides (stride_x, ld, 1), sliced at (z, 1) in the batch dimension (the view's
 * permutation becomes {0, 2, 1}).
 *
 * Device addresses (desc.addressing). Each operand's pointer moves once per workgroup, in
 * 64 bits, to its batch and to the tile (A's first row, B's first column, C's, D's and
 * the split-K plane's first element), aligned down to 16 bytes (operand_move); the
 * layouts then count from there, so a matrix may hold more than 2^31 elements while every
 * slice stays a small 32-bit offset.
 *
 * Types. The MulAdd uses the device's workgroup-scope flexible-dimension entry for
 * (a_type, b_type, accumulator): f16 x f16 + f16/f32, bf16 x bf16 + f32, s8 x s8 + s32,
 * and u8 x u8 with a u32 accumulator (the combination Vulkan lists; it is reinterpreted as
 * s32, the desc's acc_type, in the epilogue). Integer MulAdds carry the signedness
 * operands of their component types.
 *
 * Epilogue, in the matrix domain (D = act(alpha * acc + beta * C + bias) in f32 for float
 * outputs, in s32 for integer ones):
 *   plain (acc type = out type, nothing else)  the accumulator is stored as it is;
 *   out_type != acc_type                       OpFConvert / OpConvert* on the matrix;
 *   alpha                                      OpMatrixTimesScalar (after converting to f32);
 *   beta * C                                   C's tile is loaded as an accumulator matrix
 *                                              through its own (clamped) layout, converted
 *                                              to f32, scaled and added;
 *   bias (row or column), activation, and the round-to-nearest-even of a float result
 *   stored as an integer                       OpCooperativeMatrixPerElementOpNV with a
 *                                              function of (row, col, x, tile row, tile col)
 *                                              that reads bias[r] or bias[c] (index kept in
 *                                              range) and applies the activation (needs
 *                                              cooperativeMatrixPerElementOperations);
 * then OpCooperativeMatrixStoreTensorNV through D's layout (clamped on edge tiles).
 *
 * Split-K (split_k > 1; spvgen/gemm.h, emitters/gemm/splitk.c): this is the partials
 * kernel. A's and B's pointers move to the slice's first K (the origin machinery of the
 * device-address tile moves, for descriptors too), so that splitk_tile_path walks the
 * slice's K range from 0 exactly as the unsplit kernel walks K (a constant step count
 * where the slices split K evenly; else full steps unrolled, then single ones, then the
 * clamped K edge in the slice that holds it); a loop at a run-time K start made the
 * H100's driver stop staging the tensor loads. It stores the accumulator (as f32, or s32 / u32) to the
 * workspace plane of its slice through a 2-D tensor layout (M x N, stride workspace_ld,
 * planes 16-byte aligned; clamped on edge tiles). Nothing else: the sum and the epilogue
 * are the reduction kernel's (splitk_reduce.c), so the module has the unsplit kernel's
 * instructions but the epilogue (no barrier, atomic or Workgroup variable: the H100's
 * driver stopped staging the tensor loads of the single-dispatch form that had them;
 * docs/design-notes.md).
 *
 * Benchmarking: see tests/gemm/test_gemm_coopmat2.c (SPVGEN_TEST_DUMP=dir writes every
 * kernel it validates) or call spvgen_gemm() with variant SPVGEN_GEMM_COOPMAT2 and the
 * "h100" caps preset; spvgen_gemm_plans() lists the alternative tilings to time. */
#include <string.h>

#include "gemm_internal.h"

/* ---------------------------------------------------------------- operands ---- */

/* One matrix operand in memory: its buffer, 16-byte aligned base pointer, and tensor
 * layouts (unclamped and clamped) with the transposing view of column-major operands. */
typedef struct cm2_operand {
  uint32_t ptr;     /* element pointer the tensor instructions take */
  uint32_t dim;     /* 2, or 3 with a batch dimension */
  bool col_major;
  uint32_t z;       /* batch index (3-D layouts) */
  uint32_t lay[2];  /* [0] clamp mode Undefined, [1] ConstantNV (0 outside) */
  uint32_t view;    /* transposing view for column-major operands, else 0 */
  /* device addresses: Aligned 16 (the tensor instructions' pointers are multiples of 16
   * bytes; a PhysicalStorageBuffer access must say so); mask 0 otherwise */
  spvgen_memory_operands mem;
  /* device addresses: the pointer is moved to the tile's first row and column (row0,
   * col0: ids, 0 for none), aligned down to 16 bytes, and the layouts count from there:
   * a slice at (r0, c0) starts at (r0 - row0, c0 - col0), its contiguous coordinate `rem`
   * elements further (the bytes the pointer was aligned down by; an id, 0: none) */
  uint32_t row0, col0, rem;
} cm2_operand;

/* An operand as the caller describes it: its extents, leading dimension, batch stride
 * and batch count are ids (constants, or run-time values). */
typedef struct cm2_matrix {
  const ek_buffer *buf, *v4;   /* the binding, and its 128-bit view (optional) */
  spvgen_component_type type;
  spvgen_matrix_layout layout;
  uint32_t rows, cols, ld;
  uint32_t stride;             /* elements between batches */
  uint32_t batch;
  bool batched;                /* the batch index takes part (FIXED batch > 1, RUNTIME always) */
  bool flat;                   /* every batch starts 16-byte aligned: 2-D layouts from its base */
  bool ld16;                   /* every ld is a whole number of 16-byte chunks */
  uint32_t base;               /* a packed operand: its copy's byte offset in the workspace
                                  (an id, a multiple of 256; 0: the binding's start) */
} cm2_matrix;

/* Device addresses: where an operand's pointer moves, the tile's first row and column
 * (ids; 0: that coordinate stays), and whether they are multiples of 16 elements (tile
 * origins are, unless the shift edge mode moved them back inside the matrix). */
typedef struct cm2_origin {
  uint32_t row0, col0;
  bool row16, col16;
  /* the callers' row (column) coordinates count from the origin already (split-K's K:
   * the slice's loop runs from 0), so slices take them as they are */
  bool rows_rel, cols_rel;
} cm2_origin;

/* v4 (optional): a 128-bit (u32x4) view of the same binding, whose elements are the
 * tensor instructions' base pointers, as NVIDIA's own coopmat2 sample passes them (the
 * spec wants a 16-byte-aligned base; the pointee type then says so too). Addressing is
 * unchanged: offsets count matrix components, whatever the pointee. */
/* want[0] / want[1]: whether the unclamped / the clamped layout is used. const_dims: the
 * unclamped layout gets constant dimensions (with clamp mode Undefined they bound nothing;
 * SPVGEN_GEMM_CODEGEN_CONST_DIMS). */
/* The pointer moves by the batch (flat layouts) and on to the origin `at` (device
 * addresses: the tile's first row and column, and split-K's slice start in K; descriptors:
 * the slice start only), aligned down to 16 bytes (the tensor instructions' base must be):
 * the rest, rem < 16 / esize elements, joins the contiguous coordinate. It is 0 where the
 * origin's bytes are known to be whole chunks: an inner coordinate of 16 elements, an
 * outer one of 16 (16 rows of any length are whole chunks) or of rows of whole chunks
 * (ld16). Device addresses move in 64 bits (only a tile's elements are then indexed from
 * the pointer, in 32 bits: gemm.c, check_tiles); descriptors in 32 bits, in the 128-bit
 * view's elements. */
static void operand_move(spvgen_module *m, cm2_operand *o, const cm2_matrix *mx, uint32_t z, bool batched,
                         const cm2_origin *at) {
  uint32_t esize = spvgen_component_type_size(mx->type);
  const bool row = mx->layout == SPVGEN_ROW_MAJOR;
  const uint32_t outer0 = !at ? 0 : row ? at->row0 : at->col0, inner0 = !at ? 0 : row ? at->col0 : at->row0;
  const bool outer16 = at && (row ? at->row16 : at->col16), inner16 = at && (row ? at->col16 : at->row16);
  const bool leftover = (outer0 && !outer16 && !mx->ld16) || (inner0 && !inner16);
  if (at) {
    o->row0 = at->rows_rel ? 0 : at->row0;
    o->col0 = at->cols_rel ? 0 : at->col0;
  }
  if (mx->v4->ptr_type) { /* device address */
    const uint32_t u64 = spvgen_type_int(m, 64, false);
    ek_buffer v = *mx->v4;
    uint32_t off = batched ? ek_batch_bytes64(m, z, mx->stride, esize) : 0;
    if (mx->base) {
      uint32_t b64 = spvgen_op_u_convert(m, u64, mx->base);
      off = off ? spvgen_op_i_add(m, u64, off, b64) : b64;
    }
    if (outer0 || inner0) {
      uint32_t t = ek_matrix_bytes64(m, mx->layout, mx->ld, at->row0, at->col0, esize);
      if (leftover) {
        uint32_t low = spvgen_op_bitwise_and(m, u64, t, spvgen_const_bits(m, u64, 15));
        t = spvgen_op_bitwise_and(m, u64, t, spvgen_const_bits(m, u64, ~(uint64_t)15));
        o->rem = ek_div_imm(m, spvgen_op_u_convert(m, ek_u32_type(m), low), esize);
      }
      off = off ? spvgen_op_i_add(m, u64, off, t) : t;
    }
    if (off) ek_buffer_rebase(m, &v, off);
    o->ptr = ek_elem(m, &v, ek_u32(m, 0));
    return;
  }
  /* descriptors: the view's index, in 16-byte chunks (flat: the batch base is whole chunks) */
  const uint32_t per = 16 / esize;
  uint32_t idx = batched ? ek_imul(m, z, ek_div_imm(m, ek_mul_imm(m, mx->stride, esize), 16)) : ek_u32(m, 0);
  if (mx->base) idx = ek_iadd(m, idx, ek_div_imm(m, mx->base, 16));
  if (outer0 || inner0) {
    uint32_t e = ek_matrix_offset(m, mx->layout, mx->ld, at->row0 ? at->row0 : ek_u32(m, 0),
                                 at->col0 ? at->col0 : ek_u32(m, 0), 0);
    idx = ek_iadd(m, idx, ek_div_imm(m, e, per));
    if (leftover) o->rem = spvgen_op_bitwise_and(m, ek_u32_type(m), e, ek_u32(m, per - 1));
  }
  o->ptr = ek_elem(m, mx->v4, idx);
}

/* at: the origin the pointer moves to (NULL: none; device addresses: the batch still). */
static void operand_init(spvgen_module *m, cm2_operand *o, const cm2_matrix *mx, uint32_t z, const bool want[2],
                         bool const_dims, const cm2_origin *at) {
  memset(o, 0, sizeof *o);
  o->col_major = mx->layout == SPVGEN_COL_MAJOR;
  o->z = z;
  uint32_t d0 = o->col_major ? mx->cols : mx->rows, d1 = o->col_major ? mx->rows : mx->cols;
  uint32_t esize = spvgen_component_type_size(mx->type);
  o->dim = mx->flat ? 2 : 3;
  bool batched = mx->batched && mx->flat;
  if (mx->buf->ptr_type) o->mem = (spvgen_memory_operands){SpvMemoryAccessAlignedMask, 16, 0};
  if (mx->v4 && (mx->v4->ptr_type || ((at || mx->base) && mx->v4->var))) /* device address, or a moved descriptor */
    operand_move(m, o, mx, z, batched, at);
  else if (mx->v4 && mx->v4->var) /* flat: the batch base is a whole number of 16-byte chunks */
    o->ptr = ek_elem(m, mx->v4, batched ? ek_imul(m, z, ek_div_imm(m, ek_mul_imm(m, mx->stride, esize), 16))
                                        : ek_u32(m, 0));
  else
    o->ptr = ek_elem(m, mx->buf, batched ? ek_imul(m, z, mx->stride) : ek_u32(m, 0));
  uint32_t dims[3] = {0}, strides[3] = {0}, n = 0;
  if (!mx->flat) {
    dims[n] = mx->batch;
    strides[n++] = mx->stride;
  }
  dims[n] = d0;
  strides[n++] = mx->ld;
  dims[n] = d1;
  strides[n++] = ek_u32(m, 1);
  /* A moved operand's clamped layout bounds what remains of the matrix from the pointer:
   * rows (columns) d0 - outer0 and the contiguous d1 - inner0 + rem, so clamping is still
   * at the matrix's edges (split-K's K: what remains of K from the slice's start). The
   * unclamped one bounds nothing: its dimensions stay the matrix's (constants for a FIXED
   * plan), the contiguous one with room for rem. */
  uint32_t rdims[3];
  memcpy(rdims, dims, sizeof rdims);
  if (at && (at->row0 || at->col0)) {
    const uint32_t outer0 = o->col_major ? at->col0 : at->row0, inner0 = o->col_major ? at->row0 : at->col0;
    const uint32_t i0 = n - 2, i1 = n - 1;
    if (outer0) rdims[i0] = ek_isub(m, dims[i0], outer0);
    if (inner0) rdims[i1] = ek_isub(m, dims[i1], inner0);
    if (o->rem) {
      rdims[i1] = ek_iadd(m, rdims[i1], o->rem);
      dims[i1] = ek_add_imm(m, dims[i1], 16 / esize - 1);
    }
  }
  for (int c = 0; c < 2; c++) {
    if (!want[c]) continue;
    uint32_t lt = spvgen_type_tensor_layout(m, o->dim, c ? SpvTensorClampModeConstant : SpvTensorClampModeUndefined);
    uint32_t l = spvgen_tensor_layout_create(m, lt);
    uint32_t cdims[3];
    for (uint32_t i = 0; !c && const_dims && i < n; i++)
      cdims[i] = ek_u32(m, !mx->flat && i == 0 ? SPVGEN_GEMM_MAX_BATCH : SPVGEN_GEMM_MAX_DIM);
    l = spvgen_tensor_layout_set_dimension(m, l, c ? rdims : const_dims ? cdims : dims, n);
    o->lay[c] = spvgen_tensor_layout_set_stride(m, l, strides, n);
  }
  if (o->col_major) {
    static const uint32_t perm2[2] = {1, 0}, perm3[3] = {0, 2, 1};
    uint32_t vt = spvgen_type_tensor_view(m, o->dim, false, o->dim == 2 ? perm2 : perm3);
    o->view = spvgen_tensor_view_create(m, vt);
  }
}

/* The layout sliced to the matrix rows [r0, r0 + rs) x columns [c0, c0 + cs). */
static uint32_t operand_slice(spvgen_module *m, const cm2_operand *o, int clamped, uint32_t r0,
                              uint32_t rs, uint32_t c0, uint32_t cs) {
  uint32_t off[3], span[3], n = 0;
  /* a moved operand: from its tile origin (the tile's own slices start there: 0) */
  if (o->row0) r0 = r0 == o->row0 ? ek_u32(m, 0) : ek_isub(m, r0, o->row0);
  if (o->col0) c0 = c0 == o->col0 ? ek_u32(m, 0) : ek_isub(m, c0, o->col0);
  if (o->rem) {
    if (o->col_major) r0 = ek_iadd(m, r0, o->rem);
    else c0 = ek_iadd(m, c0, o->rem);
  }
  if (o->dim == 3) {
    off[n] = o->z;
    span[n++] = ek_u32(m, 1);
  }
  off[n] = o->col_major ? c0 : r0;
  span[n++] = ek_u32(m, o->col_major ? cs : rs);
  off[n] = o->col_major ? r0 : c0;
  span[n++] = ek_u32(m, o->col_major ? rs : cs);
  return spvgen_tensor_layout_slice(m, o->lay[clamped], off, span, n);
}

static uint32_t operand_load(spvgen_module *m, const cm2_operand *o, int clamped, uint32_t type,
                             uint32_t zero, uint32_t r0, uint32_t rs, uint32_t c0, uint32_t cs) {
  spvgen_tensor_operands ops = {o->view, 0};
  return spvgen_coopmat_load_tensor(m, type, o->ptr, zero, operand_slice(m, o, clamped, r0, rs, c0, cs),
                                    o->mem.mask ? &o->mem : NULL,
                                    o->view ? &ops : NULL);
}

static void operand_store(spvgen_module *m, const cm2_operand *o, int clamped, uint32_t value,
                          uint32_t r0, uint32_t rs, uint32_t c0, uint32_t cs) {
  spvgen_tensor_operands ops = {o->view, 0};
  spvgen_coopmat_store_tensor(m, o->ptr, value, operand_slice(m, o, clamped, r0, rs, c0, cs),
                              o->mem.mask ? &o->mem : NULL,
                              o->view ? &ops : NULL);
}

/* Whether the unclamped layouts get constant dimensions (SPVGEN_GEMM_CODEGEN_CONST_DIMS;
 * a FIXED plan's are constants anyway). */
static bool cm2_const_dims(const spvgen_gemm_desc *d) {
  return gemm_runtime(d) && (d->codegen & SPVGEN_GEMM_CODEGEN_CONST_DIMS);
}

/* ------------------------------------------------------------------ kernel ---- */

typedef struct cm2_ctx {
  const spvgen_gemm_config *p;
  const spvgen_gemm_desc *d;
  ek_gemm_shape sh;            /* extents, leading dimensions, strides, scalars (ids) */
  ek_epilogue epi;
  cm2_operand a, b, c, dd;
  uint32_t ta, tb, tacc;       /* matrix types */
  uint32_t za, zb, zacc;       /* their zero constants */
  spvgen_component_type accm;  /* the accumulator matrix's component type */
  uint32_t bm, bn;             /* tile origin (ids) */
  /* device addresses: every operand's pointer moves to the tile (tile: (bm, bn), and
   * whether they are multiples of 16 elements) */
  bool moved;
  cm2_origin tile;
  bool m_edge, n_edge, k_edge; /* a tile may cross M, N; K may end inside a step */
  /* packed operands: A's copy holds whole tiles of rows (zeros past M), B's whole tiles of
   * columns, so their loads never clamp in M or N */
  bool a_pad, b_pad;
  gemm_pack_ids pk;            /* the copies' layout (ids) */
  uint32_t kfull;              /* K rounded down to tile_k: where the whole steps end (id) */
  uint32_t muladd_ops;
  uint32_t pe_fn;              /* per-element epilogue function, or 0 */
  uint32_t mask_fn;            /* masked K edge: B's rows below a count zeroed, or 0 */
  struct cm2_splitk *sk;       /* split_k > 1: the split-K state, else NULL */
  struct cm2_stage *st;        /* stages 2: the kernel's own shared-memory staging, else NULL */
} cm2_ctx;

/* stages 2: the interior tiles' full K steps read A and B from Workgroup memory that the
 * kernel fills itself: every invocation copies `c` 16-byte chunks of each operand's K-step
 * tile (memory order, no padding) with plain u32x4 loads and stores, the next step's
 * chunks loaded into registers before the MulAdd of this one (one buffer, two barriers
 * per step). The workgroup-scope matrices are then loaded from Workgroup memory
 * (OpCooperativeMatrixLoadKHR, stride in chunks). Measured reason: bench_coopmat_peak
 * loads workgroup-scope tiles from Workgroup memory at 640 TFLOP/s (f16) and from global
 * memory at 417-428 (bench/results/gemm-h100-2026-11-23d.md). */
typedef struct cm2_stage_operand {
  ek_shared sh;                         /* Workgroup u32x4[] */
  uint32_t chunks;                      /* per invocation */
  uint32_t per_row;                     /* chunks per stored row of the tile */
  uint32_t origin;                      /* the tile's first chunk at k = 0 (id) */
  uint32_t step;                        /* chunks per K step (constant value) */
  uint32_t ld4;                         /* chunks per stored row in global memory */
  uint32_t goff[CM2_STAGE_MAX_CHUNKS];  /* this invocation's chunk offsets in global memory (ids) */
  uint32_t sidx[CM2_STAGE_MAX_CHUNKS];  /* and in the Workgroup array (ids) */
  uint32_t var[CM2_STAGE_MAX_CHUNKS];   /* Function variables: the prefetched chunks */
  SpvCooperativeMatrixLayout layout;    /* how the matrix reads the stored tile */
  const ek_buffer *g4;                  /* the operand's 128-bit view */
  ek_buffer moved;                      /* device addresses: that view moved to the tile */
} cm2_stage_operand;
typedef struct cm2_stage {
  cm2_stage_operand a, b;
  uint32_t v4t;                         /* u32x4 */
  uint32_t lid_var;                     /* LocalInvocationIndex */
} cm2_stage;

/* Split-K (split_k > 1): the shared state of splitk.c and the workspace's 128-bit view
 * (the tensor instructions' base pointer, as for the other bindings). */
typedef struct cm2_splitk {
  gemm_splitk s;
  ek_buffer w4;
  /* the slice's first K (id, a multiple of tile_k; an empty slice past K: kfull), where A
   * and B move to, so that its K loop counts from 0 like the unsplit kernel's */
  uint32_t kb;
  bool even;   /* FIXED, every slice slice_k long: a constant step count */
} cm2_splitk;

/* A matrix of the tile's shape (BM x BN, accumulator use) with component type t. */
static uint32_t acc_type_of(spvgen_module *m, const cm2_ctx *x, spvgen_component_type t) {
  return spvgen_type_coopmat(m, ek_type(m, t), SpvScopeWorkgroup, x->d->tile_m, x->d->tile_n,
                             SpvCooperativeMatrixUseMatrixAccumulatorKHR);
}

/* Converts a tile matrix between component types like ek_convert does for scalars
 * (integer narrowing keeps the source's signedness, then reinterprets). */
static uint32_t mconvert(spvgen_module *m, const cm2_ctx *x, uint32_t v, spvgen_component_type from,
                         spvgen_component_type to) {
  if (from == to) return v;
  if (!ek_is_float(from) && !ek_is_float(to)) {
    uint32_t fw = spvgen_component_type_size(from), tw = spvgen_component_type_size(to);
    if (fw != tw) {
      bool fs = ek_is_signed(from);
      static const spvgen_component_type s[9] = {0, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S16, 0,
                                                 SPVGEN_COMPONENT_S32, 0, 0, 0, SPVGEN_COMPONENT_S64};
      static const spvgen_component_type u[9] = {0, SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_U16, 0,
                                                 SPVGEN_COMPONENT_U32, 0, 0, 0, SPVGEN_COMPONENT_U64};
      spvgen_component_type mid = fs ? s[tw] : u[tw];
      v = spvgen_coop_convert(m, acc_type_of(m, x, mid), v);
      if (mid == to) return v;
    }
  }
  return spvgen_coop_convert(m, acc_type_of(m, x, to), v);
}

/* Which layout an operand load or store takes: the clamped one only where the operand can
 * reach past the matrix on this path. An edge tile (clamped) crosses M or N, which only A
 * (rows: M), B (columns: N) and D / C (both) see; the K edge step crosses K, which only A
 * and B see. A class whose N and K are tile multiples (a model's weights) thus loads B
 * unclamped even on its edge tiles: less code for the driver to compile, and faster. */
static int clamp_a(const cm2_ctx *x, int clamped, bool kedge) { return kedge || (clamped && x->m_edge && !x->a_pad); }
static int clamp_b(const cm2_ctx *x, int clamped, bool kedge) { return kedge || (clamped && x->n_edge && !x->b_pad); }
static int clamp_d(const cm2_ctx *x, int clamped) { return clamped && (x->m_edge || x->n_edge); }

/* One K step at k0 (an id): acc += A[bm.., k0..] * B[k0.., bn..]; kedge: the step K ends
 * inside (clamped in K). */
static uint32_t k_step(spvgen_module *m, const cm2_ctx *x, int clamped, bool kedge, uint32_t k0, uint32_t acc) {
  const spvgen_gemm_desc *d = x->d;
  if (kedge && x->mask_fn) {
    /* The masked K edge (k0: where the whole steps end): the last tile_k of K,
     * [K - BK, K), unclamped (16-byte aligned: K is whole 16-byte rows), with B's first
     * BK - K % BK rows (summed by the whole steps already) zeroed. */
    const uint32_t BK = d->tile_k, overlap = BK - d->k % BK;
    uint32_t ks = ek_isub(m, k0, ek_u32(m, overlap)); /* K - BK, from the operands' K origin */
    uint32_t a = operand_load(m, &x->a, clamp_a(x, clamped, false), x->ta, x->za, x->bm, d->tile_m, ks, BK);
    uint32_t b = operand_load(m, &x->b, clamp_b(x, clamped, false), x->tb, x->zb, ks, BK, x->bn, d->tile_n);
    uint32_t ov = ek_u32(m, overlap);
    b = spvgen_coopmat_per_element(m, b, x->mask_fn, &ov, 1);
    return spvgen_coopmat_muladd(m, x->tacc, a, b, acc, x->muladd_ops);
  }
  uint32_t a = operand_load(m, &x->a, clamp_a(x, clamped, kedge), x->ta, x->za, x->bm, d->tile_m, k0, d->tile_k);
  uint32_t b = operand_load(m, &x->b, clamp_b(x, clamped, kedge), x->tb, x->zb, k0, d->tile_k, x->bn, d->tile_n);
  return spvgen_coopmat_muladd(m, x->tacc, a, b, acc, x->muladd_ops);
}

/* The epilogue of a tile and its store:
 *   D = convert(per_element(alpha * acc + beta * C)) */
static void epilogue(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t acc) {
  const spvgen_gemm_desc *d = x->d;
  spvgen_component_type et = ek_epilogue_type(d), t = x->accm;
  bool float_path = et == SPVGEN_COMPONENT_F32;
  bool scale = float_path && d->alpha != 1.0f;
  bool cterm = x->epi.c.var != 0;
  uint32_t v = acc;
  if (scale || cterm || x->pe_fn) {
    v = mconvert(m, x, v, t, et);
    t = et;
  }
  if (scale) v = spvgen_coop_scale(m, v, x->sh.alpha);
  if (cterm) {
    uint32_t ct = acc_type_of(m, x, d->out_type);
    uint32_t zc = spvgen_coop_splat(m, ct, spvgen_const_bits(m, ek_type(m, d->out_type), 0));
    uint32_t cm = operand_load(m, &x->c, clamp_d(x, clamped), ct, zc, x->bm, d->tile_m, x->bn, d->tile_n);
    cm = mconvert(m, x, cm, d->out_type, SPVGEN_COMPONENT_F32);
    cm = spvgen_coop_scale(m, cm, x->sh.beta);
    v = spvgen_coop_arith(m, SpvOpFAdd, v, cm);
  }
  if (x->pe_fn) {
    uint32_t extra[2] = {x->bm, x->bn};
    v = spvgen_coopmat_per_element(m, v, x->pe_fn, extra, 2);
  }
  v = mconvert(m, x, v, t, d->out_type);
  operand_store(m, &x->dd, clamp_d(x, clamped), v, x->bm, d->tile_m, x->bn, d->tile_n);
}

/* float/int epilogue_type f(row, col, x, tile_row, tile_col): bias and activation (and the
 * rounding of a float result stored as an integer). Emitted before main. */
static uint32_t per_element_fn(spvgen_module *m, const cm2_ctx *x) {
  const spvgen_gemm_desc *d = x->d;
  spvgen_component_type et = ek_epilogue_type(d);
  uint32_t u32 = ek_u32_type(m), t = ek_type(m, et);
  uint32_t extra[2] = {u32, u32}, p[5];
  uint32_t fn = spvgen_per_element_func_begin(m, t, extra, 2, p);
  spvgen_name(m, fn, "epilogue");
  ek_gemm_shape sh = x->sh; /* the extents, loaded in this function */
  ek_gemm_shape_load(m, x->p, &sh);
  uint32_t row = ek_iadd(m, p[3], p[0]), col = ek_iadd(m, p[4], p[1]);
  if (d->bias == SPVGEN_GEMM_BIAS_ROW) row = ek_umin(m, row, ek_isub(m, sh.m, ek_u32(m, 1)));
  if (d->bias == SPVGEN_GEMM_BIAS_COLUMN) col = ek_umin(m, col, ek_isub(m, sh.n, ek_u32(m, 1)));
  uint32_t v = ek_epilogue_bias_activation(m, &x->epi, p[2], row, col);
  if (et == SPVGEN_COMPONENT_F32 && !ek_is_float(d->out_type)) v = spvgen_glsl_round_even(m, t, v);
  spvgen_return_value(m, v);
  spvgen_function_end(m);
  return fn;
}

/* B's element (row, col) of the masked K-edge step: 0 in the rows below `overlap`. Emitted
 * before main. */
static uint32_t mask_rows_fn(spvgen_module *m, const cm2_ctx *x, uint32_t b_elem_type) {
  uint32_t u32 = ek_u32_type(m), extra[1] = {u32}, p[4];
  uint32_t fn = spvgen_per_element_func_begin(m, b_elem_type, extra, 1, p);
  spvgen_name(m, fn, "mask_k_edge");
  (void)x;
  uint32_t keep = ek_ule(m, p[3], p[0]); /* row >= overlap */
  spvgen_return_value(m, ek_select(m, keep, p[2], spvgen_const_null(m, b_elem_type)));
  spvgen_function_end(m);
  return fn;
}

/* ---------------------------------------------------------------- main loop ---- */


/* A run-time K loop's control: DontUnroll with SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL (the
 * quick-compile form of a plan, spvgen_gemm_plan_quick), else the driver's choice. */
static SpvLoopControlMask cm2_k_loop_control(const spvgen_gemm_desc *d) {
  return d->codegen & SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL ? SpvLoopControlDontUnrollMask : SpvLoopControlMaskNone;
}

/* The unrolled K loop over whole steps [0, steps * BK): `steps / U` iterations of U
 * steps at run time when there are two or more, straight-line steps otherwise, then the
 * leftover steps; returns the accumulator. */
static uint32_t k_loop(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t steps, uint32_t U) {
  const uint32_t BK = x->d->tile_k;
  if (!U) U = 1;
  if (U > steps && steps) U = steps;
  const uint32_t outer = steps ? steps / U : 0, rest = steps ? steps % U : 0;
  uint32_t acc = x->zacc;
  uint32_t k = 0; /* K position after the loop (a constant) */
  if (outer >= 2) {
    /* The big tiles' main loop runs a multiple of GEMM_K_LOOP_GROUP iterations, the ones left
     * over in a second loop (or straight-line, one): NVIDIA's driver pipelines such a
     * constant-count loop only when its count divides so, and runs it at half speed
     * otherwise (cm2_split_k_loop). */
    const uint32_t main_iters = cm2_main_iterations(x->d, outer);
    const uint32_t left = outer - main_iters;
    uint32_t accv = ek_local(m, x->tacc, x->zacc);
    for (int part = 0; part < 2; part++) {
      const uint32_t from = part ? main_iters : 0, iters = part ? left : main_iters;
      if (iters == 0) continue;
      if (iters == 1) { /* straight-line */
        uint32_t cur = spvgen_load(m, x->tacc, accv);
        for (uint32_t j = 0; j < U; j++) cur = k_step(m, x, clamped, false, ek_u32(m, (from * U + j) * BK), cur);
        spvgen_store(m, accv, cur);
        continue;
      }
      ek_for kl;
      const uint32_t no_unroll = part ? SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL : SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL;
      uint32_t k0 = ek_for_begin(m, &kl, ek_u32(m, from * U * BK), ek_u32(m, (from + iters) * U * BK), ek_u32(m, U * BK),
                                 x->d->codegen & no_unroll ? SpvLoopControlDontUnrollMask : SpvLoopControlMaskNone);
      uint32_t cur = spvgen_load(m, x->tacc, accv);
      for (uint32_t j = 0; j < U; j++) cur = k_step(m, x, clamped, false, ek_add_imm(m, k0, j * BK), cur);
      spvgen_store(m, accv, cur);
      ek_for_end(m, &kl);
    }
    acc = spvgen_load(m, x->tacc, accv);
    k = outer * U * BK;
  } else if (outer == 1) {
    for (uint32_t j = 0; j < U; j++, k += BK) acc = k_step(m, x, clamped, false, ek_u32(m, k), acc);
  }
  for (uint32_t j = 0; j < rest; j++, k += BK) acc = k_step(m, x, clamped, false, ek_u32(m, k), acc);
  return acc;
}

/* A K range whose coordinates count from the operands' K origin (0: the matrix's first K;
 * split-K: the slice's start): `steps` whole steps from 0 (an id, uniform over the
 * workgroup), then the K edge's partial step at `edge_k` where `edge` (a bool id; 0: no
 * K edge) holds. */
typedef struct cm2_krange {
  uint32_t steps;
  bool whole_u;     /* every K of the class is a multiple of U steps: no leftover loop */
  uint32_t edge, edge_k;
} cm2_krange;

/* The K range's steps: the whole steps in a loop of `U` steps per iteration, then one at
 * a time, and the K edge's partial step (clamped, or masked) where the range holds it.
 *
 * The loops count: the number of whole steps is computed once and each loop runs
 * `i < count` with i += 1 from 0, the canonical form whose trip count a compiler derives,
 * and the tensor loads' K coordinate is i * U * tile_k: no run-time start (a slice's start
 * at a run-time K coordinate made the H100's driver stop staging the loads: split-K
 * moves the operands' pointers there instead). A condition on the K position itself
 * (`k + U * tile_k <= end`, SPVGEN_GEMM_CODEGEN_OPEN_K_LOOP) has none the driver can
 * prove: k + U * tile_k may wrap for all it knows. */
static uint32_t k_range(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t U, const cm2_krange *r) {
  const spvgen_gemm_desc *d = x->d;
  const uint32_t BK = d->tile_k;
  if (!U) U = 1;
  uint32_t accv = ek_local(m, x->tacc, x->zacc);
  spvgen_store(m, accv, x->zacc);
  if (d->codegen & SPVGEN_GEMM_CODEGEN_OPEN_K_LOOP) {
    uint32_t full_end = ek_mul_imm(m, r->steps, BK);
    uint32_t kv = ek_local(m, ek_u32_type(m), ek_u32(m, 0));
    for (int pass = U > 1 ? 0 : 1; pass < 2; pass++) {
      uint32_t n = pass ? 1 : U;
      ek_for kl; /* the first pass starts at 0, the second resumes where it ended */
      uint32_t start = pass == (U > 1 ? 0 : 1) ? ek_u32(m, 0) : 0;
      uint32_t k0 = ek_for_begin_var(m, &kl, kv, start, 0, ek_u32(m, n * BK), cm2_k_loop_control(d));
      spvgen_loop_while(m, ek_ule(m, ek_add_imm(m, k0, n * BK), full_end));
      uint32_t cur = spvgen_load(m, x->tacc, accv);
      for (uint32_t j = 0; j < n; j++) cur = k_step(m, x, clamped, false, ek_add_imm(m, k0, j * BK), cur);
      spvgen_store(m, accv, cur);
      ek_for_end(m, &kl);
    }
  } else {
    uint32_t outer = ek_div_imm(m, r->steps, U);
    if (U > 1) {
      ek_for kl;
      uint32_t i = ek_for_begin(m, &kl, ek_u32(m, 0), outer, ek_u32(m, 1), cm2_k_loop_control(d));
      uint32_t k0 = ek_mul_imm(m, i, U * BK);
      uint32_t cur = spvgen_load(m, x->tacc, accv);
      for (uint32_t j = 0; j < U; j++) cur = k_step(m, x, clamped, false, ek_add_imm(m, k0, j * BK), cur);
      spvgen_store(m, accv, cur);
      ek_for_end(m, &kl);
    }
    /* the steps the unrolled loop leaves (all of them at U 1), one at a time; none when
     * every K of the class is a multiple of U steps */
    if (U == 1 || !r->whole_u) {
      /* where the unrolled loop is not emitted (U 1) none of the steps are done yet */
      uint32_t done = U > 1 ? ek_mul_imm(m, outer, U) : ek_u32(m, 0);
      ek_for rl;
      uint32_t i = ek_for_begin(m, &rl, done, r->steps, ek_u32(m, 1), cm2_k_loop_control(d));
      uint32_t cur = spvgen_load(m, x->tacc, accv);
      spvgen_store(m, accv, k_step(m, x, clamped, false, ek_mul_imm(m, i, BK), cur));
      ek_for_end(m, &rl);
    }
  }
  if (r->edge) {
    ek_guard g = ek_guard_begin(m, r->edge);
    spvgen_store(m, accv, k_step(m, x, clamped, true, r->edge_k, spvgen_load(m, x->tacc, accv)));
    ek_guard_end(m, g);
  }
  return spvgen_load(m, x->tacc, accv);
}

static void splitk_tile_path(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t U);
static void staged_tile_path(spvgen_module *m, const cm2_ctx *x);

/* The whole tile, as in a paper:
 *   acc = 0; for k in K steps: acc += A(bm, k) * B(k, bn); the K edge, clamped;
 *   D(bm, bn) = epilogue(acc)
 * clamped: the tile may cross M or N; U: the K loop's unroll. */
static uint32_t tile_acc(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t U);

static void tile_path(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t U) {
  const spvgen_gemm_desc *d = x->d;
  if (x->sk) {
    splitk_tile_path(m, x, clamped, U);
    return;
  }
  if (x->st && !clamped && d->k >= d->tile_k) {
    staged_tile_path(m, x);
    return;
  }
  epilogue(m, x, clamped, tile_acc(m, x, clamped, U));
}

/* The tile's K loop (and K edge): its accumulator. */
static uint32_t tile_acc(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t U) {
  const spvgen_gemm_desc *d = x->d;
  uint32_t acc;
  if (!gemm_k_const(d)) {
    /* the whole steps end at kfull (K itself when the class's K is a multiple of BK) */
    const cm2_krange r = {ek_div_imm(m, x->kfull, d->tile_k), gemm_dim_multiple(d, 'k', (U ? U : 1) * d->tile_k),
                          x->k_edge ? ek_ult(m, x->kfull, x->sh.k) : 0, x->kfull};
    acc = k_range(m, x, clamped, U, &r);
  } else { /* a constant K (FIXED, or a class of one K): the steps counted here */
    const uint32_t steps = d->k / d->tile_k;
    acc = k_loop(m, x, clamped, steps, U);
    if (d->k % d->tile_k) acc = k_step(m, x, clamped, true, ek_u32(m, steps * d->tile_k), acc); /* K edge */
  }
  return acc;
}

/* --------------------------------------------------- stages 2: own staging ---- */

/* This invocation's share of the K-step tile at step `step` (an id) into the prefetch
 * variables. */
static void stage_fetch(spvgen_module *m, const cm2_stage *st, const cm2_stage_operand *o, uint32_t step) {
  uint32_t base = ek_iadd(m, o->origin, ek_mul_imm(m, step, o->step));
  for (uint32_t e = 0; e < o->chunks; e++)
    spvgen_store(m, o->var[e], ek_load_elem(m, o->g4, ek_iadd(m, base, o->goff[e])));
  (void)st;
}

static void stage_put(spvgen_module *m, const cm2_stage *st, const cm2_stage_operand *o) {
  for (uint32_t e = 0; e < o->chunks; e++) ek_shared_store(m, &o->sh, o->sidx[e], spvgen_load(m, st->v4t, o->var[e]));
}

/* One staged K step: the chunks fetched last step go to Workgroup memory, the next step's
 * (`next`, an id; the last step fetches itself again) are fetched, and the MulAdd reads
 * the stored tiles. */
static uint32_t staged_step(spvgen_module *m, const cm2_ctx *x, uint32_t next, uint32_t acc) {
  const cm2_stage *st = x->st;
  spvgen_workgroup_barrier(m); /* the previous step's matrix loads are done */
  stage_put(m, st, &st->a);
  stage_put(m, st, &st->b);
  spvgen_workgroup_barrier(m);
  stage_fetch(m, st, &st->a, next);
  stage_fetch(m, st, &st->b, next);
  uint32_t zero = ek_u32(m, 0);
  uint32_t a = spvgen_coopmat_load(m, x->ta, ek_at(m, st->a.sh.var, zero), st->a.layout, st->a.per_row, NULL);
  uint32_t b = spvgen_coopmat_load(m, x->tb, ek_at(m, st->b.sh.var, zero), st->b.layout, st->b.per_row, NULL);
  return spvgen_coopmat_muladd(m, x->tacc, a, b, acc, x->muladd_ops);
}

/* stages 2, interior tiles: the full K steps through Workgroup memory (loop unrolled
 * `unroll` times, then the leftover steps), the partial last step as in tile_path. */
static void staged_tile_path(spvgen_module *m, const cm2_ctx *x) {
  const spvgen_gemm_desc *d = x->d;
  cm2_stage *st = x->st;
  const uint32_t BK = d->tile_k, steps = d->k / BK, tail = d->k % BK;
  uint32_t U = d->unroll ? d->unroll : 1;
  if (U > steps) U = steps;
  const uint32_t outer = steps / U; /* unrolled iterations; the leftover steps follow */
  uint32_t lid = ek_load_u32(m, st->lid_var), W = d->workgroup_size;
  cm2_stage_operand *ops[2] = {&st->a, &st->b};
  for (int i = 0; i < 2; i++) /* this invocation's chunks: index e * W + lid of the tile */
    for (uint32_t e = 0; e < ops[i]->chunks; e++) {
      cm2_stage_operand *o = ops[i];
      uint32_t idx = ek_add_imm(m, lid, e * W);
      o->sidx[e] = idx;
      o->goff[e] = ek_iadd(m, ek_mul_imm(m, ek_div_imm(m, idx, o->per_row), o->ld4), ek_mod_imm(m, idx, o->per_row));
      o->var[e] = ek_local(m, st->v4t, 0);
    }
  stage_fetch(m, st, &st->a, ek_u32(m, 0));
  stage_fetch(m, st, &st->b, ek_u32(m, 0));
  uint32_t acc = x->zacc;
  uint32_t done = 0;
  if (outer >= 2) {
    uint32_t accv = ek_local(m, x->tacc, x->zacc);
    ek_for sl;
    uint32_t s0 = ek_for_begin(m, &sl, ek_u32(m, 0), ek_u32(m, outer * U), ek_u32(m, U), cm2_k_loop_control(x->d));
    uint32_t cur = spvgen_load(m, x->tacc, accv);
    for (uint32_t j = 0; j < U; j++) cur = staged_step(m, x, ek_min_imm(m, ek_add_imm(m, s0, j + 1), steps - 1), cur);
    spvgen_store(m, accv, cur);
    ek_for_end(m, &sl);
    acc = spvgen_load(m, x->tacc, accv);
    done = outer * U;
  }
  for (; done < steps; done++) acc = staged_step(m, x, ek_u32(m, done + 1 < steps ? done + 1 : steps - 1), acc);
  if (tail) acc = k_step(m, x, 0, true, ek_u32(m, steps * BK), acc); /* K edge: clamped, from global memory */
  epilogue(m, x, 0, acc);
}

/* The staging state: the Workgroup arrays and how each operand's K-step tile maps onto
 * them (before the entry point). */
static void stage_declare(spvgen_module *m, const spvgen_gemm_config *p, cm2_stage *st, const ek_buffer *a4,
                          const ek_buffer *b4, uint32_t v4t) {
  const spvgen_gemm_desc *d = &p->desc;
  memset(st, 0, sizeof *st);
  uint32_t es = spvgen_component_type_size(d->a_type), W = p->local_size[0];
  st->v4t = v4t;
  st->lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  bool acol = d->a_layout == SPVGEN_COL_MAJOR, bcol = d->b_layout == SPVGEN_COL_MAJOR;
  st->a.g4 = a4;
  st->b.g4 = b4;
  st->a.per_row = (acol ? d->tile_m : d->tile_k) * es / 16;
  st->b.per_row = (bcol ? d->tile_k : d->tile_n) * es / 16;
  st->a.chunks = d->tile_m * d->tile_k * es / 16 / W;
  st->b.chunks = d->tile_k * d->tile_n * es / 16 / W;
  st->a.ld4 = d->lda * es / 16;
  st->b.ld4 = d->ldb * es / 16;
  /* A row-major: stored rows are A's rows (BK wide), the step moves along them; column-
   * major: stored rows are K (BM wide), the step moves down ld. B likewise. */
  st->a.layout = acol ? SpvCooperativeMatrixLayoutColumnMajorKHR : SpvCooperativeMatrixLayoutRowMajorKHR;
  st->b.layout = bcol ? SpvCooperativeMatrixLayoutColumnMajorKHR : SpvCooperativeMatrixLayoutRowMajorKHR;
  st->a.step = acol ? d->tile_k * st->a.ld4 : d->tile_k * es / 16;
  st->b.step = bcol ? d->tile_k * es / 16 : d->tile_k * st->b.ld4;
  st->a.sh = ek_shared_array(m, v4t, st->a.chunks * W, "stage_a");
  st->b.sh = ek_shared_array(m, v4t, st->b.chunks * W, "stage_b");
}

/* In main: the tiles' first chunks at k = 0 (u32x4 units). */
static void stage_origins(spvgen_module *m, const cm2_ctx *x) {
  const spvgen_gemm_desc *d = x->d;
  uint32_t es = spvgen_component_type_size(d->a_type);
  uint32_t bm4 = ek_div_imm(m, ek_mul_imm(m, x->bm, es), 16);
  uint32_t bn4 = ek_div_imm(m, ek_mul_imm(m, x->bn, es), 16);
  x->st->a.origin = d->a_layout == SPVGEN_COL_MAJOR ? bm4 : ek_mul_imm(m, x->bm, x->st->a.ld4);
  x->st->b.origin = d->b_layout == SPVGEN_COL_MAJOR ? ek_mul_imm(m, x->bn, x->st->b.ld4) : bn4;
  if (x->moved) { /* device addresses: the views move to those chunks in 64 bits instead */
    cm2_stage_operand *ops[2] = {&x->st->a, &x->st->b};
    for (int i = 0; i < 2; i++) {
      cm2_stage_operand *o = ops[i];
      const bool a = i == 0, col = (a ? d->a_layout : d->b_layout) == SPVGEN_COL_MAJOR;
      /* the origin's chunks: along ld (ld4 chunks each) or along the rows */
      uint32_t along = a ? (col ? 0 : x->bm) : (col ? x->bn : 0), within = a ? (col ? bm4 : 0) : (col ? 0 : bn4);
      uint32_t u64 = spvgen_type_int(m, 64, false);
      uint32_t c = within ? spvgen_op_u_convert(m, u64, within) : 0;
      if (along) {
        uint32_t r = spvgen_op_i_mul(m, u64, spvgen_op_u_convert(m, u64, along), spvgen_const_bits(m, u64, o->ld4));
        c = c ? spvgen_op_i_add(m, u64, r, c) : r;
      }
      o->moved = *o->g4;
      ek_buffer_rebase(m, &o->moved, spvgen_op_i_mul(m, u64, c, spvgen_const_bits(m, u64, 16)));
      o->g4 = &o->moved;
      o->origin = ek_u32(m, 0);
    }
  }
}

/* ---------------------------------------------------------------- split-K ---- */

/* Declares the workspace (u32 words and a u32x4 view); before the entry point. */
static void splitk_declare(spvgen_module *m, const spvgen_gemm_config *p, cm2_ctx *x, cm2_splitk *sk,
                           const ek_buffer *ws) {
  memset(sk, 0, sizeof *sk);
  gemm_splitk_declare(m, p, &sk->s, ws);
  sk->w4 = ek_buffer_view(m, &sk->s.ws, spvgen_type_vector(m, ek_u32_type(m), 4), p->workspace_binding, false,
                          "workspace4");
  x->sk = sk;
}

/* The component type partials are kept in: f32 for float accumulators (f16 ones
 * included), the accumulator's own (s32, or u32 for u8 inputs) for integers. */
static spvgen_component_type splitk_sum_type(const cm2_ctx *x) {
  return ek_is_float(x->accm) ? SPVGEN_COMPONENT_F32 : x->accm;
}

/* The workspace plane of slice (an id) as a BM x BN tile operand at (bm, bn): M x N
 * row-major with leading dimension workspace_ld; planes are 16-byte aligned. */
static void splitk_plane(spvgen_module *m, const cm2_ctx *x, uint32_t slice, cm2_operand *o) {
  const cm2_splitk *sk = x->sk;
  const spvgen_gemm_desc *d = x->d;
  const ek_gemm_shape *sh = &x->sh;
  bool batched = gemm_runtime(d) || d->batch > 1;
  uint32_t plane = batched ? ek_iadd(m, ek_imul(m, slice, sh->batch), sk->s.z) : slice;
  /* rows of workspace_ld (a multiple of 4 words): whole 16-byte chunks */
  cm2_matrix w = {&sk->s.ws, &sk->w4, SPVGEN_COMPONENT_F32, SPVGEN_ROW_MAJOR, sh->m, sh->n, sh->workspace_ld,
                  ek_imul(m, sh->m, sh->workspace_ld), ek_imul(m, sh->batch, sk->s.count), true, true, true, 0};
  const bool want[2] = {true, x->m_edge || x->n_edge};
  operand_init(m, o, &w, plane, want, cm2_const_dims(d), x->moved ? &x->tile : NULL);
}

/* In main: the slice's first K, where A and B move to (cm2_operands). A slice past the
 * last whole step (possible when the slices do not fill K exactly) moves to kfull instead:
 * its pointer stays inside the matrix, and it has no whole steps. */
static void splitk_origin(spvgen_module *m, cm2_ctx *x) {
  const spvgen_gemm_desc *d = x->d;
  cm2_splitk *sk = x->sk;
  const uint32_t BK = d->tile_k, S = d->split_k, slice_k = x->p->slice_k;
  sk->even = !gemm_runtime(d) && slice_k && d->k % slice_k == 0 && d->k / slice_k == S;
  /* a multiple of BK (slice_k is): masked so the driver sees the alignment too */
  uint32_t kb = spvgen_op_bitwise_and(m, ek_u32_type(m), sk->s.k_begin, ek_u32(m, ~(BK - 1u)));
  sk->kb = sk->even ? kb : ek_umin(m, kb, x->kfull);
}

/* The slice's K range, from its first K (sk->kb): the whole steps up to its end or
 * kfull, and the K edge in the slice that holds it, at kfull - kb = kfull % slice_k
 * (constants for a FIXED plan: the edge's slice is kfull / slice_k). */
static cm2_krange splitk_range(spvgen_module *m, const cm2_ctx *x, uint32_t U) {
  const spvgen_gemm_desc *d = x->d;
  const cm2_splitk *sk = x->sk;
  const uint32_t BK = d->tile_k;
  cm2_krange r = {0, false, 0, 0};
  (void)U;
  r.steps = ek_div_imm(m, ek_isub(m, ek_umin(m, sk->s.k_end, x->kfull), sk->kb), BK);
  if (x->k_edge) {
    uint32_t slice_k = x->sh.slice_k, edge_slice = ek_udiv(m, x->kfull, slice_k);
    r.edge = spvgen_op_i_equal(m, ek_bool_type(m), sk->s.slice, edge_slice);
    if (gemm_runtime(d)) r.edge = ek_all(m, ek_ult(m, x->kfull, x->sh.k), r.edge);
    r.edge_k = ek_umod(m, x->kfull, slice_k);
  }
  return r;
}

/* A split-K tile: this slice's K range (from 0: A and B moved to its start), and its
 * partial tile to the workspace. */
static void splitk_tile_path(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t U) {
  const spvgen_gemm_desc *d = x->d;
  cm2_splitk *sk = x->sk;
  spvgen_component_type st = splitk_sum_type(x);
  spvgen_memory_operands mem = {SpvMemoryAccessAlignedMask, 16, 0}; /* device addresses: Aligned 16 */
  const spvgen_memory_operands *memp = sk->s.ws.ptr_type ? &mem : NULL;
  uint32_t acc;
  if (sk->even) { /* every slice slice_k long: the unsplit kernel's constant loop */
    acc = k_loop(m, x, clamped, x->p->slice_k / d->tile_k, U);
  } else {
    const cm2_krange r = splitk_range(m, x, U);
    acc = k_range(m, x, clamped, U, &r);
  }
  cm2_operand own;
  splitk_plane(m, x, sk->s.slice, &own);
  spvgen_tensor_operands tops = {own.view, 0};
  spvgen_coopmat_store_tensor(m, own.ptr, mconvert(m, x, acc, x->accm, st),
                              operand_slice(m, &own, clamp_d(x, clamped), x->bm, d->tile_m, x->bn, d->tile_n), memp,
                              own.view ? &tops : NULL);
}

/* ------------------------------------------------------------------- emit ---- */

/* The bindings with their 128-bit views (the tensor instructions' base pointers), the
 * per-element epilogue function, split-K's and stages 2's state; before main. */
typedef struct cm2_bindings {
  ek_buffer A, B, A4, B4, D4, C4;
  gemm_grid_vars grid; /* WorkgroupId (and NumWorkgroups) */
  cm2_splitk sk;
  cm2_stage stage;
} cm2_bindings;

static void cm2_declare(spvgen_module *m, const spvgen_gemm_config *p, cm2_ctx *x, cm2_bindings *bd) {
  const spvgen_gemm_desc *d = &p->desc;
  memset(x, 0, sizeof *x);
  memset(bd, 0, sizeof *bd);
  x->p = p;
  x->d = d;
  ek_buffer ws; /* device addresses: the workspace's pointer (split-K) */
  ek_gemm_interface(m, p, &bd->A, &bd->B, &x->epi, &x->sh, &ws);
  x->epi.shape = &x->sh;
  uint32_t v4t = spvgen_type_vector(m, ek_u32_type(m), 4);
  /* a packed operand's views are of its copy, in the workspace */
  bd->A4 = ek_buffer_view(m, &bd->A, v4t, gemm_packs(d, 'a') ? p->workspace_binding : 0, true, "A4");
  bd->B4 = ek_buffer_view(m, &bd->B, v4t, gemm_packs(d, 'b') ? p->workspace_binding : 1, true, "B4");
  if (d->split_k <= 1) bd->D4 = ek_buffer_view(m, &x->epi.d, v4t, 2, false, "D4"); /* split-K: the reduction's */
  if (x->epi.c.var) bd->C4 = ek_buffer_view(m, &x->epi.c, v4t, 3, true, "C4");
  gemm_grid_declare(m, p, &bd->grid);
  x->accm = cm2_acc_matrix_type(d);
  if (cm2_needs_per_element(d) && d->split_k <= 1) x->pe_fn = per_element_fn(m, x);
  /* split-K: the masked step reads back into the edge's slice, which needs a whole step */
  if (cm2_masked_k_edge(d) && (d->split_k <= 1 || (d->k / d->tile_k * d->tile_k) % p->slice_k))
    x->mask_fn = mask_rows_fn(m, x, bd->B.elem_type);
  if (d->split_k > 1) splitk_declare(m, p, x, &bd->sk, ws.ptr_type ? &ws : NULL);
  if (d->stages == 2) {
    stage_declare(m, p, &bd->stage, &bd->A4, &bd->B4, v4t);
    x->st = &bd->stage;
  }
}

/* The matrix types and their zeros (workgroup-scope types need the LocalSize first). */
static void cm2_types(spvgen_module *m, cm2_ctx *x, const cm2_bindings *bd) {
  const spvgen_gemm_desc *d = x->d;
  x->ta = spvgen_type_coopmat(m, bd->A.elem_type, SpvScopeWorkgroup, d->tile_m, d->tile_k,
                              SpvCooperativeMatrixUseMatrixAKHR);
  x->tb = spvgen_type_coopmat(m, bd->B.elem_type, SpvScopeWorkgroup, d->tile_k, d->tile_n,
                              SpvCooperativeMatrixUseMatrixBKHR);
  x->tacc = acc_type_of(m, x, x->accm);
  x->za = spvgen_coop_splat(m, x->ta, spvgen_const_bits(m, bd->A.elem_type, 0));
  x->zb = spvgen_coop_splat(m, x->tb, spvgen_const_bits(m, bd->B.elem_type, 0));
  x->zacc = spvgen_coop_splat(m, x->tacc, spvgen_const_bits(m, ek_type(m, x->accm), 0));
  x->muladd_ops = ek_is_float(d->a_type) ? 0 : SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES;
}

/* One operand: its extents and strides from the shape, the leading dimension with the
 * class's alignment visible to the driver. */
static cm2_matrix cm2_matrix_of(spvgen_module *m, const cm2_ctx *x, const ek_buffer *buf, const ek_buffer *v4,
                                spvgen_component_type t, spvgen_matrix_layout layout, uint32_t rows, uint32_t cols,
                                uint32_t ld, uint32_t stride, uint64_t fixed_stride) {
  const spvgen_gemm_desc *d = x->d;
  uint32_t esize = spvgen_component_type_size(t);
  bool runtime = gemm_runtime(d);
  cm2_matrix mx = {buf, v4, t, layout, rows, cols, gemm_ld_hint(m, d, &x->sh, ld), gemm_ld_hint(m, d, &x->sh, stride),
                   x->sh.batch, runtime || d->batch > 1, false, false, 0};
  mx.flat = runtime ? (uint64_t)(d->ld_multiple ? d->ld_multiple : 1) * esize % 16 == 0
                    : d->batch <= 1 || (fixed_stride * esize) % 16 == 0;
  uint32_t fixed_ld = 0;
  mx.ld16 = runtime ? (uint64_t)(d->ld_multiple ? d->ld_multiple : 1) * esize % 16 == 0
                    : ek_const_int(m, ld, &fixed_ld) && (uint64_t)fixed_ld * esize % 16 == 0;
  return mx;
}

/* The four operands' layouts for batch z: the unclamped ones unless every tile crossing
 * the operand's dimension runs clamped (only_clamped), the clamped ones where a path can
 * reach past the operand (clamp_a, clamp_b, clamp_d). */
static void cm2_operands(spvgen_module *m, cm2_ctx *x, const cm2_bindings *bd, uint32_t z, bool only_clamped) {
  const spvgen_gemm_desc *d = x->d;
  const ek_gemm_shape *sh = &x->sh;
  cm2_matrix a = cm2_matrix_of(m, x, &bd->A, &bd->A4, d->a_type, d->a_layout, sh->m, sh->k, sh->lda, sh->stride_a, d->stride_a);
  cm2_matrix b = cm2_matrix_of(m, x, &bd->B, &bd->B4, d->b_type, d->b_layout, sh->k, sh->n, sh->ldb, sh->stride_b, d->stride_b);
  cm2_matrix dd = cm2_matrix_of(m, x, &x->epi.d, &bd->D4, d->out_type, d->d_layout, sh->m, sh->n, sh->ldd, sh->stride_d,
                                d->stride_d);
  const bool cd = cm2_const_dims(d), edge_tiles = x->m_edge || x->n_edge;
  const bool kc = x->k_edge && !x->mask_fn; /* the K-edge step loads clamped */
  const bool am = x->m_edge && !x->a_pad, bn = x->n_edge && !x->b_pad; /* loads that may clamp in M, N */
  const bool wa[2] = {!(only_clamped && am) || x->mask_fn, kc || am};
  const bool wb[2] = {!(only_clamped && bn) || x->mask_fn, kc || bn};
  if (x->a_pad) a.base = x->pk.a_off, a.flat = a.ld16 = true; /* the copies: whole 16-byte rows and batches */
  if (x->b_pad) b.base = x->pk.b_off, b.flat = b.ld16 = true;
  const bool wd[2] = {!(only_clamped && edge_tiles), edge_tiles};
  /* device addresses: A moves to the tile's first row, B to its first column, C and D to
   * its first element; split-K (either addressing): A and B on to the slice's first K,
   * which their loads then count from */
  const uint32_t kb = x->sk ? x->sk->kb : 0, row0 = x->moved ? x->tile.row0 : 0, col0 = x->moved ? x->tile.col0 : 0;
  const bool k16 = d->tile_k % 16 == 0, ab_moved = x->moved || x->sk;
  const cm2_origin at_a = {row0, kb, x->tile.row16, k16, false, true}, at_b = {kb, col0, k16, x->tile.col16, true, false};
  operand_init(m, &x->a, &a, z, wa, cd, ab_moved ? &at_a : NULL);
  operand_init(m, &x->b, &b, z, wb, cd, ab_moved ? &at_b : NULL);
  if (!x->sk) operand_init(m, &x->dd, &dd, z, wd, cd, x->moved ? &x->tile : NULL); /* split-K: D is the reduction's */
  if (x->epi.c.var) {
    cm2_matrix c = cm2_matrix_of(m, x, &x->epi.c, &bd->C4, d->out_type, d->c_layout, sh->m, sh->n, sh->ldc,
                                 sh->stride_c, d->stride_c);
    operand_init(m, &x->c, &c, z, wd, cd, x->moved ? &x->tile : NULL);
  }
}

/* How the tiles that cross M or N are handled, decided from the plan (FIXED: the shape;
 * RUNTIME: the class and the edge mode). */
typedef struct cm2_edges {
  bool m_edge, n_edge;   /* a tile may cross M (N) */
  bool only_clamped;     /* every tile runs the clamped path */
  bool shift;            /* edge tiles move back inside (unclamped) */
  bool branch;           /* interior tiles unclamped, the others clamped, by a uniform branch */
} cm2_edges;

static cm2_edges cm2_edges_of(const spvgen_gemm_desc *d) {
  cm2_edges e = {!gemm_dim_multiple(d, 'm', d->tile_m), !gemm_dim_multiple(d, 'n', d->tile_n), false, false, false};
  if (!e.m_edge && !e.n_edge) return e;
  if (gemm_runtime(d)) {
    e.only_clamped = d->edge == SPVGEN_GEMM_EDGE_CLAMP;
    e.shift = d->edge == SPVGEN_GEMM_EDGE_SHIFT; /* M >= tile_m and N >= tile_n: checked at launch */
    e.branch = !e.only_clamped && !e.shift;
    return e;
  }
  bool any_interior = d->m >= d->tile_m && d->n >= d->tile_n;
  e.only_clamped = !any_interior || d->edge == SPVGEN_GEMM_EDGE_CLAMP;
  e.shift = any_interior && d->edge == SPVGEN_GEMM_EDGE_SHIFT;
  e.branch = !e.only_clamped && !e.shift;
  return e;
}

/* The kernel: the tile's origin, then the tile path, once (every tile alike) or twice
 * behind a uniform branch (interior tiles unclamped, edge tiles clamped). */
static void coopmat2_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  cm2_ctx x;
  cm2_bindings bd;
  cm2_declare(m, p, &x, &bd);
  spvgen_name(m, spvgen_compute_main(m, "main", p->local_size[0], 1, 1), "main");
  cm2_types(m, &x, &bd);
  ek_gemm_shape_load(m, p, &x.sh);
  if (gemm_pack_main(m, p, &x.sh, &x.pk)) {
    x.a_pad = gemm_packs(d, 'a');
    x.b_pad = gemm_packs(d, 'b');
  }
  gemm_tile_origin(m, p, &x.sh, &bd.grid, &x.bm, &x.bn);
  uint32_t z = gemm_runtime(d) || d->batch > 1 ? ek_load_v3_component(m, bd.grid.wg, 2) : ek_u32(m, 0);
  if (x.sk) {
    gemm_splitk_ids(m, &x.sk->s, &x.sh, &bd.grid, ek_load_v3_component(m, bd.grid.wg, 2));
    z = x.sk->s.z;
  }
  cm2_edges e = cm2_edges_of(d);
  if (e.shift) { /* edge tiles move back inside: origin min(origin, M - BM), likewise N */
    if (e.m_edge) x.bm = ek_umin(m, x.bm, ek_isub(m, x.sh.m, ek_u32(m, d->tile_m)));
    if (e.n_edge) x.bn = ek_umin(m, x.bn, ek_isub(m, x.sh.n, ek_u32(m, d->tile_n)));
  }
  x.moved = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  x.tile = (cm2_origin){x.bm, x.bn, !(e.shift && e.m_edge) && d->tile_m % 16 == 0,
                        !(e.shift && e.n_edge) && d->tile_n % 16 == 0, false, false};
  /* what the tile paths can cross (a shifted tile crosses nothing) */
  x.m_edge = e.m_edge && !e.shift;
  x.n_edge = e.n_edge && !e.shift;
  x.k_edge = !gemm_dim_multiple(d, 'k', d->tile_k);
  x.kfull = x.k_edge ? ek_mul_imm(m, ek_div_imm(m, x.sh.k, d->tile_k), d->tile_k) : x.sh.k;
  if (x.sk) splitk_origin(m, &x);
  if (x.st) stage_origins(m, &x);
  cm2_operands(m, &x, &bd, z, e.only_clamped);
  uint32_t edge_unroll = d->edge_unroll ? d->edge_unroll : d->unroll;
  const bool store_only = cm2_store_only_branch(d);
  if (!e.branch) {
    tile_path(m, &x, e.only_clamped, d->unroll);
  } else {
    /* inside M x N: bm + BM <= M and bn + BN <= N (as bm <= M - BM for a constant M) */
    uint32_t in_m = !e.m_edge ? 0 : gemm_runtime(d) ? ek_ule(m, ek_add_imm(m, x.bm, d->tile_m), x.sh.m)
                                                     : ek_le_imm(m, x.bm, d->m - d->tile_m);
    uint32_t in_n = !e.n_edge ? 0 : gemm_runtime(d) ? ek_ule(m, ek_add_imm(m, x.bn, d->tile_n), x.sh.n)
                                                     : ek_le_imm(m, x.bn, d->n - d->tile_n);
    if (!gemm_runtime(d)) { /* the FIXED form checks both dimensions */
      in_m = ek_le_imm(m, x.bm, d->m - d->tile_m);
      in_n = ek_le_imm(m, x.bn, d->n - d->tile_n);
    }
    if (store_only) {
      /* both operands packed: the copies hold whole tiles (zeros past M, N and K), so an
       * edge tile's K loop is the interior's; only D's store (and C's load) stops at the
       * matrix's edge. One loop, then the epilogue behind the branch. */
      uint32_t acc = tile_acc(m, &x, 0, d->unroll);
      spvgen_if(m, ek_all(m, in_m, in_n));
      epilogue(m, &x, 0, acc);
      spvgen_else(m);
      epilogue(m, &x, 1, acc);
      spvgen_end_if(m);
    } else {
      spvgen_if(m, ek_all(m, in_m, in_n));
      tile_path(m, &x, 0, d->unroll);
      spvgen_else(m);
      tile_path(m, &x, 1, edge_unroll);
      spvgen_end_if(m);
    }
  }
  spvgen_function_end(m);
}

const gemm_variant_ops gemm_variant_coopmat2 = {"coopmat2", cm2_plan, cm2_candidates, coopmat2_emit};
