/* spvgen/gemm.h — the GEMM kernel template:
 *
 *     D = alpha * op(A) * op(B) + beta * C   (+ bias, then an activation)
 *
 * batched, with A (M x K) and B (K x N) in f16, bf16, s8, u8 (e4m3/e5m2 where the device
 * has float8), accumulation in f16, f32 or s32, and D in the caller's type. Any M, N,
 * K >= 1: edges are handled inside the kernel, nothing needs padding.
 *
 * The template contract (every template has these four entry points):
 *
 *   spvgen_gemm_plan(desc, caps, &plan)          pure: resolves every zero field, picks
 *                                                the variant and the tile, or fails with a
 *                                                message naming the field and the reason
 *   spvgen_gemm_plans(desc, caps, plans, max, &n) the candidate plans this device can run,
 *                                                in a deterministic order (tuner, sweeps)
 *   spvgen_gemm_emit(module, &plan, &info)       builds into a module the caller owns
 *                                                (spvgen_module_reset it and reuse it:
 *                                                no allocation in steady state)
 *   spvgen_gemm(desc, caps, &kernel, msg, size)  the one-shot convenience
 *
 * A zero-initialized desc is valid: an f16 GEMM (f16 inputs, f16 accumulation, f16
 * output), every matrix row-major, alpha 1, no C, no bias, no activation, the variant and
 * tile chosen for the device, for any shape given per call (run-time shapes, below); with
 * m, n and k set, the kernel of that shape, every matrix tightly packed.
 *
 * Bindings (set 0), in this order, each a storage buffer of its element type:
 *   0 A, 1 B, 2 D (written), then 3 C when beta != 0, then the bias (3 or 4) when bias
 *   is not SPVGEN_GEMM_BIAS_NONE. Element offsets of batch b: b * stride_x.
 *   With split_k > 1 or packed operands, one more binding after those
 *   (plan.workspace_binding): the workspace (packed operands: see below). Split-K's
 *   part, at its start: split_k * batch planes of M x plan.workspace_ld words (workspace_ld: N rounded up to 4), plane
 *   slice * batch + b, row-major: each K slice's partial sum (f32 bits for float
 *   accumulators, f16 ones included; s32 for integer ones). Written by the partials
 *   kernel, read by the reduction (Split-K below); it needs no initialization and
 *   holds nothing between dispatches, so one workspace of the largest size serves every
 *   plan and shape (one split-K GEMM at a time per workspace).
 *   A split-K plan has two kernels that share these binding numbers: the partials
 *   kernel declares A, B and the workspace; the reduction D, C, bias and the workspace
 *   (one descriptor set with all of them bound serves both pipelines).
 * Shapes (desc.shapes): FIXED kernels hold M, N, K, batch, leading dimensions, batch
 * strides, alpha and beta as module constants (a module per shape) and take no push
 * constants; dispatch plan.groups[0] x groups[1] x groups[2] workgroups (also in the
 * kernel info). RUNTIME kernels take all of them as push constants (the block is
 * spvgen_gemm_push, byte for byte, plan.push_size bytes): one pipeline serves every shape
 * of its class (see "Run-time shapes" below); spvgen_gemm_launch_for gives the push
 * bytes, the grid and the workspace size for a shape, and the kernel info's groups are
 * 0 (the caller decides, from the shape).
 *
 * Split-K (split_k > 1; every variant): two kernels, dispatched in
 * order with a compute-to-compute barrier between them (spvgen_gemm_kernel_count says
 * 2; spvgen_gemm_emit_kernel emits each):
 *   SPVGEN_GEMM_KERNEL_MAIN, the partials: the GEMM's own main loop over one K slice per
 *     workgroup, split_k times the workgroups (groups[2] = batch * split_k, workgroup z =
 *     slice * batch + b). Slice s sums K in [s * plan.slice_k, min(K, (s + 1) *
 *     plan.slice_k)), slice_k = ceil(K / split_k) rounded up to tile_k (a slice past K
 *     stores zeros), and stores its partial tile to its workspace plane: no epilogue, no
 *     barrier, atomic or shared memory of its own, so it compiles and runs as the unsplit
 *     tile does (a single-dispatch form with an arrival counter made the H100's driver
 *     drop its shared-memory staging: docs/design-notes.md);
 *   SPVGEN_GEMM_KERNEL_REDUCE, the reduction: one invocation per 4 consecutive columns of
 *     a row of D, summing the split_k planes in slice order 0, 1, ... (deterministic), then
 *     the whole epilogue (alpha, beta * C, bias, activation, the conversion to out_type)
 *     into D with its layout, leading dimension and batch stride. Its grid is
 *     plan.reduce_groups (FIXED) or launch.reduce_groups (RUNTIME), its local size the
 *     info's; it takes the same push-constant bytes as the partials kernel (RUNTIME) and,
 *     with device addresses, its own pointers after them (D, C, bias, workspace), moving
 *     D and C in 64 bits to each invocation's first element (see "Limits").
 * Between them the partials' shader writes must be visible to the reduction's shader
 * reads (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_WRITE_BIT to
 * COMPUTE_SHADER / SHADER_READ): spvgen_vk_cmd_dispatch and spvgen_vk_submit record it
 * between consecutive dispatches of a call unless SPVGEN_VK_RECORD_NO_BARRIERS is set
 * (docs/runner.md). No float atomics, no counters, no spin-waits.
 *
 * Packed operands (desc.pack A, B or AB; the coopmat2 and simt variants): one more kernel,
 * dispatched first, with the same compute-to-compute barrier after it:
 *   SPVGEN_GEMM_KERNEL_PACK copies each packed operand, every batch, into the workspace
 *     (binding plan.workspace_binding, as with split-K; it declares A and/or B and the
 *     workspace): an operand of R x C elements becomes Rp x Cp, zero-filled past R and C,
 *     in its own layout (pack_order K: K-contiguous, see below) with ld = the padded
 *     inner extent and batch stride Rp * Cp, where
 *     K pads to tile_k, A's rows (M) to tile_m and B's columns (N) to tile_n (each at
 *     least 16, so every row of a copy is whole 16-byte units). Each invocation writes
 *     desc.pack_units 16-byte units of the copy; it reads them with 16-byte loads where
 *     the operand's class allows (leading dimension and batch stride multiples of 16
 *     bytes; with device addresses the coopmat2 variant, whose A and B are 16-byte
 *     aligned), else element by element. An operand that pack_order K transposes (8-bit,
 *     A column-major or B row-major) is copied a 64 x 64-byte tile per workgroup through
 *     shared memory: 4-byte loads along the source's contiguous dimension (where its
 *     leading dimension and batch stride are multiples of 4 bytes, else byte loads),
 *     16-byte stores along K. Each operand has its own workgroups (A's first), every
 *     batch the same. Grid plan.pack_groups (FIXED) or launch.pack_groups.
 *   The main kernel then reads the copies (it declares no A / B binding for a packed
 *     operand, the workspace instead): whole 16-byte rows, no clamped load in M or N, and
 *     with AB no K edge (zeros in K add nothing). A split-K plan's partial planes come
 *     first in the workspace, then A's copy, then B's (256-byte aligned offsets,
 *     plan.pack_a_offset / pack_b_offset, launch's for a run-time shape); workspace_bytes
 *     covers all of it. The copy moves (M * K + K * N) elements twice: it pays where
 *     edges or misaligned rows cost the main loop more than that (docs/gemm.md), and
 *     for 8-bit operands stored along M or N, whose cooperative loads it makes
 *     K-contiguous (the main kernel is then emitted for A row-major, B column-major).
 *   A packed plan needs the workspace's 32-bit byte offsets (workspace_bytes under 2^32),
 *   and refuses stages 2 and the khr variant naming them.
 *
 * Run-time shapes (desc.shapes RUNTIME, or AUTO with m, n and k all 0; a zeroed desc is
 * thus a valid request: an f16 GEMM pipeline for any shape). A kernel is specialized only
 * by what changes its code: types, layouts, epilogue, tile and knobs, and a class of
 * shapes it promises to serve:
 *   m_multiple, n_multiple, k_multiple  M (N, K) is always a multiple of this (0: 1).
 *                  A tile dimension that divides it needs no edge handling in that
 *                  dimension (e.g. N and K of a model's weights).
 *   ld_multiple    every leading dimension and batch stride is a multiple of this (0: 1):
 *                  16 bytes' worth (8 f16, 16 s8) lets the kernels load 16 bytes at a time
 *                  without checks and tells the driver the rows are aligned.
 *   k_fixed        nonzero: K is always desc.k (a linear layer's weights, an MLP layer).
 *                  The kernel holds K as a constant, so its K loop has the trip count a
 *                  FIXED kernel's has, which the driver unrolls and pipelines
 *                  (docs/design-notes.md, "A run-time class of one K"); M, N, leading
 *                  dimensions, batch and strides stay per call.
 *                  Needs desc.k; unpacked (pack AUTO or NONE); the plan's name says "K=".
 * m, n, k and batch, when set, are the shape the plan is chosen for (tile, split-K); the
 * kernel still serves every shape of the class, except that a coopmat2 plan given an M
 * (and N) of at least its 128-row tile moves its edge tiles inside (edge shift, chosen
 * where the desc leaves edge at AUTO and beta is 0): it serves M >= tile_m and N >= tile_n,
 * and spvgen_gemm_launch_for refuses a smaller shape naming it (plan per call, as with
 * spvgen_gemm_class_for, or plan with m 0 for a kernel of every M). The epilogue is part of the class:
 * desc.beta != 0 declares the C operand (its factor is the run-time args.beta); desc.alpha
 * 0 or 1 means no scaling (args.alpha must be 0 or 1), any other value a run-time alpha
 * (args.alpha). spvgen_gemm_launch_for refuses a shape outside the plan's class naming the
 * field ("lda 1001 is not a multiple of the class's ld_multiple 8"), and
 * spvgen_gemm_class_for fills a desc's class from a concrete shape.
 *
 * Compile time is a planning cost: every plan carries plan.compile_ms, an estimate of what
 * the driver takes to compile it (a split-K plan: both kernels; a model fitted to
 * measurements: variant, tile, unroll, edge handling), and the planner keeps to desc.compile_budget_ms (0: the default, 300 ms;
 * raised to at most 1000 ms for a fixed shape whose run is estimated at 1 ms or more).
 *
 * caps may be NULL in plan/plans/spvgen_gemm: then the "vulkan13" preset (no cooperative
 * features) is assumed. Nothing here prints, allocates (but spvgen_gemm's words) or
 * exits.
 *
 * Threads: spvgen_gemm_plan, spvgen_gemm_plans and spvgen_gemm keep no state and only
 * read desc and caps, so any number of threads may call them at once (with shared caps
 * too). spvgen_gemm_emit writes only into the module it is given: one thread per module
 * (see builder.h). tests/threads/test_threads.c emits on 4 threads under
 * ThreadSanitizer. */
#ifndef SPVGEN_GEMM_H
#define SPVGEN_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/activation.h"
#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/kernel.h"
#include "spvgen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

/* Limits (docs/limits.md lists every one spvgen has). Larger requests are refused by
 * spvgen_gemm_plan with SPVGEN_ERROR_UNSUPPORTED naming the field, never emitted:
 *   m, n, k            at most SPVGEN_GEMM_MAX_DIM (2^24)
 *   grid               N tiles across x, M tiles down y, batch (x split-K slices) in z.
 *                      M tiles past 65535 (the least maxComputeWorkGroupCount Vulkan
 *                      allows) fold into x: f = ceil(M tiles / 65535), x = N tiles * f,
 *                      y = ceil(M tiles / f) (workgroup (x, y) computes N tile
 *                      x % N tiles of M tile y + (x / N tiles) * y count; the last fold's
 *                      spare workgroups return). So every M up to 2^24 runs while
 *                      N tiles * f fits x: 65535 for a RUNTIME launch
 *                      (spvgen_gemm_launch_for refuses more, naming both), the device's
 *                      maxComputeWorkGroupCount[0] for a FIXED plan. A FIXED kernel
 *                      decodes its tile only where it folds; a RUNTIME kernel where its
 *                      class has SPVGEN_GEMM_CODEGEN_FOLD_M (a few instructions once per
 *                      workgroup, 1.6-3.5 % of a run-time kernel's time: opt in), and a
 *                      RUNTIME launch without it refuses an M past 65535 tiles
 *   batch              at most SPVGEN_GEMM_MAX_BATCH (65535: one workgroup row per batch,
 *                      the smallest maxComputeWorkGroupCount[2] Vulkan allows)
 *   element indices    the last element of A, B, C and D any batch reaches (through
 *                      ld and stride) at most SPVGEN_GEMM_MAX_INDEX (2^32 - 1: 32-bit
 *                      indices in the kernel). With addressing DEVICE_ADDRESS each
 *                      workgroup moves the buffers' pointers instead (64-bit address
 *                      arithmetic, once per workgroup): by (u64)b * stride * element
 *                      size to its batch, then to its tile (A to the tile's first row,
 *                      B to its first column, C and D to its first element). Batches
 *                      may start anywhere, past 4 GB included, and one matrix may hold
 *                      more than 2^31 elements; the limit is per tile: what one tile
 *                      reaches from its first element, (outer - 1) * ld + inner - 1 for
 *                      the rows x columns it spans (all of K for A and B), plus 15
 *                      elements of room, at most SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS
 *                      (2^31 - 1: SPIR-V treats access-chain indices as signed); checked
 *                      once the tile is known (spvgen_gemm_plan; per launch for run-time
 *                      shapes). Only an operand whose outer dimension is K (A
 *                      column-major: K columns of lda; B row-major: K rows of ldb) or a
 *                      C / D of a huge ld comes near it. Batch strides stay under 2^32
 *                      elements (the push constants' u32). The exception: a coopmat2
 *                      operand whose batches do not all start 16-byte aligned (fixed:
 *                      stride * element size not a multiple of 16; run-time:
 *                      ld_multiple * element size not) is a 3-D tensor, under the
 *                      2^32 - 1 limit over every batch.
 *   knobs              tile sizes per variant (powers of two, 16..256), stages 1..2,
 *                      unroll <= 16, workgroup size <= the device's, split_k 1 or
 *                      2 .. ceil(k / tile_k) (at most
 *                      SPVGEN_GEMM_MAX_SPLIT_K, and enough that no slice is longer than
 *                      SPVGEN_GEMM_MAX_SERIAL_K: see there), batch * split_k
 *                      workgroups in z, a split-K workspace (its partial planes:
 *                      split_k * batch * m * (n rounded up to 4) 32-bit words) under 2^32
 *                      words (device addresses: at most 2^31 - 1, signed indices from
 *                      its base in both kernels; C and D follow the tile rule above) */
#define SPVGEN_GEMM_MAX_DIM (1u << 24)

/* The most of K one workgroup sums into one accumulator (the serial accumulation length
 * per output element), in every variant and plan. A plan whose K (per slice) would be
 * longer splits K (split-K, at least ceil(K / 16384) slices, whose partials the
 * reduction adds in f32 / s32), or is refused naming this limit: split_k 1 or a split_k
 * too small for the K of a fixed shape, coopmat2's stages 2, spvgen_gemm (one kernel),
 * and a RUNTIME launch of a K over it on a
 * plan without split-K (spvgen_gemm_launch_for; a split-K plan's launch raises its slice
 * count instead). Why 16384: the error of one long serial sum on tensor cores that add
 * with truncation grows about as K^1.5, and at 2^20 it was 3.4x the check's tolerance
 * (which grows as K); 16384 keeps it under half the tolerance. It also keeps every K
 * loop inside lavapipe's loop budget (65,535 passes per invocation). docs/design-notes.md,
 * "Long K: the serial accumulation bound". */
#define SPVGEN_GEMM_MAX_SERIAL_K 16384u
/* The most K slices a split-K plan has: SPVGEN_GEMM_MAX_DIM / SPVGEN_GEMM_MAX_SERIAL_K. */
#define SPVGEN_GEMM_MAX_SPLIT_K 1024u
#define SPVGEN_GEMM_MAX_BATCH 65535u
#define SPVGEN_GEMM_MAX_INDEX 0xFFFFFFFFull
#define SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS 0x7FFFFFFFull

typedef enum spvgen_gemm_variant {
  SPVGEN_GEMM_AUTO = 0,        /* choose: the fastest the device has, by measurement, for
                                  16- and 8-bit inputs alike: coopmat2, KHR, then SIMT only
                                  where no cooperative variant can run; a plan over the
                                  compile budget gives way to the next that fits */
  SPVGEN_GEMM_COOPMAT2 = 1,    /* workgroup-scope matrices with tensor addressing (NV) */
  SPVGEN_GEMM_COOPMAT_KHR = 2, /* subgroup-scope matrices, A/B staged in shared memory */
  SPVGEN_GEMM_SIMT = 3,        /* no cooperative features: shared-memory tiled loops */
  SPVGEN_GEMM_VARIANT_COUNT = 4,
} spvgen_gemm_variant;

/* "auto", "coopmat2", "khr", "simt"; NULL for an unknown value. */
const char *spvgen_gemm_variant_name(spvgen_gemm_variant variant);
/* Parses those names; false if unknown. */
bool spvgen_gemm_variant_parse(const char *name, spvgen_gemm_variant *out);

typedef enum spvgen_matrix_layout {
  SPVGEN_ROW_MAJOR = 0, /* element (r, c) at r * ld + c */
  SPVGEN_COL_MAJOR = 1, /* element (r, c) at c * ld + r */
} spvgen_matrix_layout;

typedef enum spvgen_gemm_bias {
  SPVGEN_GEMM_BIAS_NONE = 0,
  SPVGEN_GEMM_BIAS_ROW = 1,    /* bias[r]: one value per row of D (M values) */
  SPVGEN_GEMM_BIAS_COLUMN = 2, /* bias[c]: one value per column of D (N values) */
} spvgen_gemm_bias;

/* How the coopmat2 variant treats tiles that cross M or N (the other variants check
 * bounds per element and take only AUTO). */
typedef enum spvgen_gemm_edge {
  SPVGEN_GEMM_EDGE_AUTO = 0,   /* choose (coopmat2: shift where it applies, else branch) */
  SPVGEN_GEMM_EDGE_BRANCH = 1, /* interior tiles run an unchecked path, edge tiles a clamped
                                  copy of it: two paths in one kernel */
  SPVGEN_GEMM_EDGE_CLAMP = 2,  /* every tile runs the clamped path: one path, bounds checked
                                  by the tensor loads and stores */
  SPVGEN_GEMM_EDGE_SHIFT = 3,  /* a tile crossing M or N moves back inside the matrix
                                  (origin min(tile origin, M - tile_m), likewise for N) and
                                  overlaps its neighbour; both write the same values to the
                                  overlap. One unchecked path. Needs M >= tile_m,
                                  N >= tile_n and beta 0 (a shifted tile would read C
                                  where a neighbour may already have written D) */
  SPVGEN_GEMM_EDGE_COUNT = 4,
} spvgen_gemm_edge;

/* Packed operands (desc.pack; the coopmat2 and simt variants): a pre-pass kernel copies A
 * and/or B into the workspace, zero-padded to whole tiles (K to tile_k, A's rows to tile_m,
 * B's columns to tile_n; each operand keeps its layout, its leading dimension becomes the
 * padded extent, so every row is whole 16-byte chunks), and the GEMM's main kernel reads
 * the copies: the aligned, tile-multiple kernel of the class, with no clamped loads and
 * (both packed) no K edge; only D's store (and C's load) stays inside M x N. See
 * "Packed operands" below. */
typedef enum spvgen_gemm_pack {
  SPVGEN_GEMM_PACK_AUTO = 0, /* choose: AB for coopmat2 where A or B cannot be read 16 bytes
                                at a time and M, N >= 256; for 8-bit inputs on coopmat2
                                (pack_order AUTO or K) also every operand that is not
                                K-contiguous, copied transposed; else none (docs/gemm.md,
                                "Packed operands") */
  SPVGEN_GEMM_PACK_NONE = 1, /* the kernel reads A and B where they are */
  SPVGEN_GEMM_PACK_A = 2,    /* A packed (B read in place) */
  SPVGEN_GEMM_PACK_B = 3,    /* B packed */
  SPVGEN_GEMM_PACK_AB = 4,   /* both packed: K padded too, no K edge in the main kernel */
  SPVGEN_GEMM_PACK_COUNT = 5,
} spvgen_gemm_pack;

/* "auto", "none", "a", "b", "ab"; NULL for an unknown value. */
const char *spvgen_gemm_pack_name(spvgen_gemm_pack pack);
bool spvgen_gemm_pack_parse(const char *name, spvgen_gemm_pack *out);

/* The order of the elements in the copies of packed operands (desc.pack_order). 8-bit
 * inputs (s8, u8, e4m3, e5m2) run the cooperative MulAdds at full speed only from
 * K-contiguous operands (A row-major, B column-major): an 8-bit operand stored along M
 * or N (A column-major, B row-major) makes the driver shuffle its bytes in every load
 * (1.3-3.5x slower) and compile ~2.4x longer per such operand (docs/design-notes.md,
 * "Transposed copies of 8-bit operands"). K has the pack kernel write such an operand
 * transposed, K-contiguous, so the main kernel is the nt kernel (A row-major, B
 * column-major) whatever the operands' layouts. */
typedef enum spvgen_gemm_pack_order {
  SPVGEN_GEMM_PACK_ORDER_AUTO = 0, /* K for 8-bit inputs on the coopmat2 variant; else SAME.
                                      With pack AUTO, 8-bit inputs on coopmat2 pack every
                                      operand that is not K-contiguous this way */
  SPVGEN_GEMM_PACK_ORDER_SAME = 1, /* each copy in its operand's own layout */
  SPVGEN_GEMM_PACK_ORDER_K = 2,    /* every copy K-contiguous: A's row-major ([m][k]), B's
                                      column-major ([n][k]); 8-bit inputs only (16-bit loads
                                      transpose at full speed) */
  SPVGEN_GEMM_PACK_ORDER_COUNT = 3,
} spvgen_gemm_pack_order;

/* "auto", "same", "k"; NULL for an unknown value. */
const char *spvgen_gemm_pack_order_name(spvgen_gemm_pack_order order);
bool spvgen_gemm_pack_order_parse(const char *name, spvgen_gemm_pack_order *out);

/* Code-generation alternatives (desc.codegen, a mask; 0: the defaults). Each changes how a
 * kernel is written, never what it computes: they are kept so that one measurement can
 * put the alternatives side by side (bench_gemm_shapes specs, docs/gemm.md). */
typedef enum spvgen_gemm_codegen {
  SPVGEN_GEMM_CODEGEN_DEFAULT = 0,
  /* coopmat2: the K loop of a run-time shape written as before, `while (k + tile_k * unroll
   * <= end)`, a condition whose trip count the driver cannot derive (the default counts
   * whole steps once and loops `i < steps`) */
  SPVGEN_GEMM_CODEGEN_OPEN_K_LOOP = 1u << 0,
  /* coopmat2, run-time shapes: the unclamped tensor layouts get constant dimensions
   * (SPVGEN_GEMM_MAX_DIM; with clamp mode Undefined a dimension bounds nothing), so only
   * the strides and offsets are run-time values */
  SPVGEN_GEMM_CODEGEN_CONST_DIMS = 1u << 1,
  /* khr: every global load checked and zero-filled as before (the default checks K only
   * in the last K tile and clamps rows past M or N to the last row, whose products land
   * in outputs that are never stored) */
  SPVGEN_GEMM_CODEGEN_CHECK_ALL = 1u << 2,
  /* coopmat2, fixed shapes whose K is a whole number of 16-byte rows and longer than
   * tile_k: the K-edge step loads the last tile_k of K unclamped, [K - tile_k, K), and
   * zeroes the rows of its B tile that the whole steps already summed (a per-element
   * operation: needs cooperativeMatrixPerElementOperations), instead of a step clamped
   * across A's and B's K */
  SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE = 1u << 3,
  /* coopmat2, FIXED shapes: the loop of the K iterations left past a multiple of 8
   * (k_loop's second loop) marked DontUnroll. The one alternative a plan also chooses by
   * itself: where the desc leaves codegen without it and the unrolled rest would take the
   * plan past its compile budget (plan name "cg:u") */
  SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL = 1u << 4,
  /* coopmat2, FIXED shapes: the K loop split into a multiple of 8 iterations and the rest
   * on every tile and accumulator type (by default only 4-byte accumulators on tiles of
   * 128x192 or more) */
  SPVGEN_GEMM_CODEGEN_SPLIT_ALL = 1u << 5,
  /* coopmat2 and khr: the main K loop marked DontUnroll (every shape; run-time shapes'
   * loops of single steps too). The unroll knob's steps per iteration stay; the driver adds
   * none. A plan's quick-compile form (spvgen_gemm_plan_quick) sets it. */
  SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL = 1u << 6,
  /* run-time shapes: M may pass 65535 tiles (the least maxComputeWorkGroupCount[1]); the
   * launch folds them into dimension 0 and the kernel decodes its tile from the folded
   * grid. Without it a run-time class refuses such an M at launch, naming this bit: the
   * decode costs run-time kernels 1.6-3.5 % of their GPU time (docs/design-notes.md, "M
   * tiles past 65535 fold into x"). FIXED plans fold by themselves where their M needs
   * it. The MLP's layers variant sets it (its M is the point count). Plan name "cg:f". */
  SPVGEN_GEMM_CODEGEN_FOLD_M = 1u << 7,
  SPVGEN_GEMM_CODEGEN_ALL = (1u << 8) - 1u,
} spvgen_gemm_codegen;

/* How a kernel gets its shape (see "Shapes" and "Run-time shapes" above). */
typedef enum spvgen_gemm_shapes {
  SPVGEN_GEMM_SHAPES_AUTO = 0,    /* FIXED when m, n and k are set, RUNTIME when all are 0 */
  SPVGEN_GEMM_SHAPES_FIXED = 1,   /* module constants: a module per shape */
  SPVGEN_GEMM_SHAPES_RUNTIME = 2, /* push constants: one pipeline per class of shapes */
  SPVGEN_GEMM_SHAPES_COUNT = 3,
} spvgen_gemm_shapes;

/* "auto", "fixed", "runtime"; NULL for an unknown value. */
const char *spvgen_gemm_shapes_name(spvgen_gemm_shapes shapes);
bool spvgen_gemm_shapes_parse(const char *name, spvgen_gemm_shapes *out);

/* "auto", "branch", "clamp", "shift"; NULL for an unknown value. */
const char *spvgen_gemm_edge_name(spvgen_gemm_edge edge);
bool spvgen_gemm_edge_parse(const char *name, spvgen_gemm_edge *out);

/* The epilogue's activation (spvgen/activation.h: one enum for every template): none,
 * relu, leaky_relu (with leaky_slope), sigmoid, tanh, silu, exp or gelu, the MLP's
 * formulas (emitters/common/activation.c builds both), in f32; DEFAULT (0) is none.
 * Integer outputs take none and relu (with float inputs also gelu and silu, the f32
 * result rounded to the nearest integer); the plan refuses the others by name. */

typedef struct spvgen_gemm_desc {
  /* ---- the problem ---- */
  uint32_t m, n, k;      /* FIXED: >= 1; RUNTIME: the shape to plan for (0: unknown) */
  uint32_t batch;        /* 0: 1 */
  /* Element types (0 is f16 for all four). Integer inputs (s8, u8) need an s32
   * accumulator; float inputs a float one. The epilogue converts to out_type. */
  spvgen_component_type a_type, b_type, acc_type, out_type;
  /* Memory layouts (0: row-major) and leading dimensions in elements (0: tight, i.e.
   * the row length for row-major, the column length for column-major). */
  spvgen_matrix_layout a_layout, b_layout, c_layout, d_layout;
  uint32_t lda, ldb, ldc, ldd;
  /* Elements between consecutive batches (0: the tight matrix size, ld x rows/cols). */
  uint64_t stride_a, stride_b, stride_c, stride_d;

  /* ---- the epilogue (in f32 for float outputs) ---- */
  float alpha;           /* 0: 1 */
  float beta;            /* 0: no C operand */
  spvgen_gemm_bias bias; /* bias vector of out_type */
  spvgen_activation activation;
  /* LEAKY_RELU's slope for x < 0 (any finite value; 0: 0.01, the MLP's default). Other
   * activations ignore it, and the plan resolves it to 0 for them. */
  float leaky_slope;

  /* ---- knobs: 0 means "choose" ---- */
  spvgen_gemm_variant variant;
  uint32_t tile_m, tile_n, tile_k; /* workgroup tile */
  uint32_t workgroup_size;         /* invocations per workgroup */
  uint32_t subgroups;              /* subgroups per workgroup (cooperative variants) */
  uint32_t stages;                 /* shared-memory stages (1 or 2); coopmat2: 1 = the driver
                                      stages the workgroup-scope matrices, 2 = the kernel
                                      copies A and B through shared memory itself (batch 1,
                                      split_k 1, 16-byte rows; slower on the H100: docs/gemm.md) */
  uint32_t split_k;                /* K slices, each a partial sum, then summed by a second
                                      kernel (every variant; see Split-K above). 0: chosen:
                                      spvgen_gemm_plan splits for coopmat2's tiles of few
                                      rows (M <= 64 against wide B: a workspace binding;
                                      1 keeps it off) and, within the compile budget,
                                      coopmat2 FIXED grids of fewer tiles than SMs
                                      without edge tiles (2 .. 4 slices, a wave
                                      model), else 1; spvgen_gemm_plans adds
                                      split-K candidates for small-M*N, long-K shapes.
                                      K over SPVGEN_GEMM_MAX_SERIAL_K is always split
                                      (at least ceil(K / 16384) slices; see there; the
                                      tile and the count chosen together: docs/gemm.md,
                                      "Long K").
                                      A RUNTIME kernel reads the count off the grid, so
                                      plans differing only in it share one kernel */
  uint32_t unroll;                 /* unroll factor of the inner loop (1: none) */
  spvgen_gemm_edge edge;           /* coopmat2: tiles crossing M or N (see above) */

  /* ---- shapes and what compiling may cost (see "Run-time shapes") ---- */
  spvgen_gemm_shapes shapes;       /* 0: FIXED when m, n, k are set, else RUNTIME */
  uint32_t m_multiple, n_multiple, k_multiple; /* RUNTIME class: M, N, K multiples (0: 1) */
  uint32_t ld_multiple;            /* RUNTIME class: ld* and stride_* multiples (0: 1) */
  uint32_t edge_unroll;            /* coopmat2 edge branch: unroll of the clamped edge path
                                      (0: 1; the interior path runs `unroll`) */
  uint32_t compile_budget_ms;      /* estimated driver compile the plan may cost (0: 300 ms,
                                      up to 1000 for long fixed-shape runs) */
  uint32_t codegen;                /* SPVGEN_GEMM_CODEGEN_* alternatives (0: the defaults) */
  /* How the kernel reaches A, B, D, C, bias and the split-K workspace (spvgen/kernel.h):
   * descriptors (0), or device addresses in the push constants (every variant; the
   * pointers follow spvgen_gemm_push in a run-time kernel, start the block in a fixed
   * one; the khr and coopmat2 variants need A, B, C, D and the workspace 16-byte
   * aligned, the info's bindings[i].alignment; plan.features lists shaderInt64: every
   * workgroup moves its pointers in 64 bits). See the limits above for tensors over
   * 4 GB. */
  spvgen_addressing addressing;
  /* Packed operands (see "Packed operands"; 0: AUTO). */
  spvgen_gemm_pack pack;
  uint32_t pack_units;             /* packed operands: 16-byte units of the copy each pack
                                      kernel invocation writes (1 to 16; 0: 1); a transposed
                                      copy's workgroups write one 64 x 64-byte tile each */
  /* Packed operands: the copies' element order (0: AUTO; see spvgen_gemm_pack_order). */
  spvgen_gemm_pack_order pack_order;
  /* RUNTIME class: nonzero, K is always desc.k, a constant of the kernel (see "Run-time
   * shapes"); spvgen_gemm_launch_for refuses another K. 0 for FIXED shapes. */
  uint32_t k_fixed;
} spvgen_gemm_desc;

/* A resolved GEMM: every field of desc is filled with the value the kernel uses, the
 * variant is chosen, and what the variant derived from them is spelled out. */
typedef struct spvgen_gemm_config {
  spvgen_gemm_desc desc;       /* no zero knob left (split_k 1, unroll >= 1 ...) */
  spvgen_gemm_variant variant; /* = desc.variant */
  uint32_t local_size[3];      /* workgroup shape */
  uint32_t groups[3];          /* dispatch grid: tiles over N, over M, batch */
  /* Cooperative variants: the MulAdd shape (KHR: the subgroup fragment; coopmat2: the
   * workgroup tile's K step); SIMT: the per-invocation micro tile (m x n) and 1. */
  uint32_t frag_m, frag_n, frag_k;
  /* Subgroup tile (KHR variant): warp_m x warp_n outputs per subgroup. */
  uint32_t warp_m, warp_n;
  uint32_t shared_bytes;       /* shared memory the kernel declares */
  uint64_t features;           /* SPVGEN_FEATURE_* the kernel needs */
  uint32_t subgroup_size;      /* the subgroup size the kernel assumes (0: any) */
  char name[96];               /* "khr f16,f16->f32 128x128x32 sg16x16x16 w256" */
  /* Split-K (desc.split_k > 1; all 0 otherwise): see Split-K and Bindings above. */
  uint32_t slice_k;            /* K per slice, a multiple of tile_k */
  uint32_t workspace_binding;  /* the workspace's binding (after D, C and bias) */
  uint32_t workspace_ld;       /* words per partial row: N rounded up to 4 */
  uint64_t workspace_bytes;    /* the workspace's size: the partial planes (RUNTIME: 0;
                                  spvgen_gemm_launch_for gives it per shape) */
  uint32_t reduce_groups[3];   /* the reduction kernel's grid (FIXED; RUNTIME 0: per launch) */
  uint32_t reduce_push_size;   /* its push-constant bytes (RUNTIME: sizeof(spvgen_gemm_push);
                                  device addresses: 8 more per buffer, D, C, bias, workspace) */
  /* RUNTIME shapes: the push-constant block's size (sizeof(spvgen_gemm_push)); 0 FIXED.
   * Device addresses: 8 bytes more per buffer (the pointers at the block's end). */
  uint32_t push_size;
  /* The planner's estimate of the driver's first compile of the kernel (split-K: of both
   * kernels), in ms. */
  uint32_t compile_ms;
  /* Packed operands (desc.pack A, B or AB; all 0 otherwise): the pack kernel's grid
   * (FIXED; RUNTIME 0: per launch), and where the copies lie in the workspace (FIXED; byte
   * offsets, multiples of 256: after split-K's partial planes, A's copy, then B's). */
  uint32_t pack_groups[3];
  uint64_t pack_a_offset, pack_b_offset;
} spvgen_gemm_config;

/* ------------------------------------------------------------ run-time shapes ---- */

/* One call's shape for a RUNTIME plan. Zero fields take the defaults of spvgen_gemm_desc
 * (batch 1, tight leading dimensions and strides, alpha 1). */
typedef struct spvgen_gemm_args {
  uint32_t m, n, k;       /* >= 1, at most SPVGEN_GEMM_MAX_DIM */
  uint32_t batch;
  uint32_t lda, ldb, ldc, ldd;
  uint64_t stride_a, stride_b, stride_c, stride_d;
  float alpha, beta;      /* as the plan's epilogue allows (see "Run-time shapes") */
} spvgen_gemm_args;

/* The push-constant block of a RUNTIME kernel, member for member (std430, 4-byte
 * members, 72 bytes: within the 128 every Vulkan device has). Strides and the split-K
 * fields are derived by spvgen_gemm_launch_for. */
typedef struct spvgen_gemm_push {
  uint32_t m, n, k, batch;
  uint32_t lda, ldb, ldc, ldd;
  uint32_t stride_a, stride_b, stride_c, stride_d;
  float alpha, beta;
  uint32_t slice_k;            /* split-K: K per slice (a multiple of tile_k) */
  uint32_t workspace_ld;       /* split-K: words per partial row (N rounded up to 4) */
  uint32_t split_k;            /* split-K: the slices of this launch (the planes the
                                  reduction sums; the plan's split_k or fewer) */
  uint32_t tiles_n;            /* ceil(N / tile_n) (informational: no kernel reads it) */
} spvgen_gemm_push;

/* Everything a dispatch of a plan needs for one shape. */
typedef struct spvgen_gemm_launch {
  spvgen_gemm_push push;       /* the push constants (RUNTIME) */
  uint32_t push_size;          /* bytes of push to pass: plan.push_size (0: FIXED); with
                                  device addresses the bytes before the pointers
                                  (sizeof push, 0: FIXED), which the runner fills in */
  uint32_t groups[3];          /* the dispatch grid (split-K: of the partials kernel) */
  uint64_t workspace_bytes;    /* split-K: the workspace this shape needs (0: none) */
  uint32_t reduce_groups[3];   /* split-K: the reduction kernel's grid (0: no second kernel) */
  uint32_t reduce_push_size;   /* split-K: bytes of push to pass to the reduction (as
                                  push_size: with device addresses the bytes before its
                                  pointers) */
  uint32_t pack_groups[3];     /* packed operands: the pack kernel's grid (0: no pack kernel);
                                  it takes push_size bytes of push, as the main kernel */
  uint64_t pack_a_offset, pack_b_offset; /* packed operands: the copies' byte offsets in the
                                  workspace (workspace_bytes covers them) */
} spvgen_gemm_launch;

/* The launch of plan for args: checks args against the plan's class (every field named
 * on refusal: "n 1000 is not a multiple of n_multiple 8", "lda 100 is less than the row
 * length 128 of the row-major 64x128 a"), fills the push constants, the grid and the
 * split-K workspace size. A FIXED plan takes args NULL (or the plan's own shape). */
spvgen_status spvgen_gemm_launch_for(const spvgen_gemm_config *plan, const spvgen_gemm_args *args,
                                     spvgen_gemm_launch *launch, char *message, size_t message_size);

/* The class a concrete shape falls in: *out = *base (types, layouts, epilogue, knobs) with
 * shapes RUNTIME, m, n, k and batch set to the shape as the planning hint, and the class
 * fields set to what the shape satisfies: m_multiple, n_multiple, k_multiple the largest
 * power of two (at most 256) dividing M, N, K; ld_multiple the largest (at most 16)
 * dividing every leading dimension and batch stride; SPVGEN_GEMM_CODEGEN_FOLD_M added to
 * codegen where M passes 65535 x 16 rows (65535 tiles of the smallest tile). Fails
 * (naming the field) on an args that no plan could take. */
spvgen_status spvgen_gemm_class_for(const spvgen_gemm_desc *base, const spvgen_gemm_args *args,
                                    spvgen_gemm_desc *out, char *message, size_t message_size);

/* A key for a framework's pipeline cache: equal for two plans whose kernels are the same
 * (a hash of the resolved plan with the shape values of a RUNTIME plan left out; a FIXED
 * plan's shape is part of its kernel). */
uint64_t spvgen_gemm_class_key(const spvgen_gemm_config *plan);

/* Resolves desc for a device. On failure returns SPVGEN_ERROR_INVALID_ARGUMENT (a field
 * out of range) or SPVGEN_ERROR_UNSUPPORTED (the device, or this variant, cannot do
 * it) and message says which field and why, e.g.
 *   "spvgen_gemm_config: b_type e4m3 needs shaderFloat8CooperativeMatrix, which llvmpipe
 *    lacks". */
spvgen_status spvgen_gemm_plan(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                               spvgen_gemm_config *plan, char *message, size_t message_size);

/* ------------------------------------------------- planning with a kernel cache ---- */

/* What a kernel costs a framework is its compile plus its runs. spvgen_gemm_plan picks
 * the plan for the desc's shape alone; a framework that already holds compiled kernels
 * (its pipeline cache) may do better with one of those: a cached kernel costs no compile.
 * spvgen_gemm_plan_ex weighs them, in one rule:
 *
 *     cost(plan) = estimated run time of desc's shape x expected_runs
 *                  + (cached ? 0 : plan.compile_ms)
 *
 * over AUTO's own plan (spvgen_gemm_plan's) and every cached plan that can run the
 * desc's call, and returns the cheapest (AUTO's plan on a tie). The plans not cached are
 * represented by AUTO's plan alone: the planner has already weighed their compile against
 * their run (the compile budget), so with nothing cached the result is exactly
 * spvgen_gemm_plan's, byte for byte. A cached plan can run the call when it computes
 * the same function (types, layouts, epilogue, addressing, shapes mode), its class
 * covers the desc's (every m/n/k/ld multiple of the desc a multiple of the plan's), its
 * launch takes the desc's shape (spvgen_gemm_launch_for: the edge mode, the long-K bound
 * on unsplit plans), a desc that keeps split-K or packing off gets neither, every knob
 * the desc sets is the plan's, and the device has its features. A FIXED desc reuses only
 * a plan of its very shape.
 *
 * The run-time estimate is the planner's model (spvgen_gemm_estimate_ms), fitted on the
 * H100 and H200; the compile figure is plan.compile_ms (also a model). Both rank plans;
 * neither is a stopwatch. */

/* The expected runs spvgen_gemm_plan_ex assumes when opts leave it at 0: a cached plan
 * estimated 1 us a run slower is worth 1 ms of compile saved. A compile is paid once per
 * process (once per install with the runner's disk cache), a run on every call; 1000 runs
 * is some tens of prompts through a model's layers (each weight shape runs once or twice
 * per layer and prompt). On the Qwen2-7B and Llama-3-8B prefill traces for the h100
 * preset it keeps the estimated GPU total within 5% of AUTO's plans while compiling 3
 * kernels instead of 5 and 2 instead of 4 (docs/design-notes.md, "Compile once, reuse
 * across prompt lengths"). */
#define SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS 1000u

/* What spvgen_gemm_plan_ex weighed (optional out of spvgen_gemm_plan_opts). */
typedef struct spvgen_gemm_plan_choice {
  bool reused;                 /* the plan is a cached one in place of AUTO's plan */
  bool default_cached;         /* AUTO's plan is itself cached */
  uint32_t candidates;         /* cached plans that could run the call (AUTO's not counted) */
  uint32_t expected_runs;      /* the runs weighed (opts' or the default) */
  uint64_t default_key;        /* spvgen_gemm_class_key of AUTO's plan */
  char default_name[96];       /* AUTO's plan's name */
  uint32_t default_compile_ms; /* AUTO's plan.compile_ms */
  double default_run_ms;       /* estimated run of the desc's shape on AUTO's plan */
  double run_ms;               /* and on the plan returned */
  double saved_ms;             /* cost(AUTO's plan) - cost(the plan returned), >= 0: the
                                  compile saved less expected_runs x the slower run */
} spvgen_gemm_plan_choice;

/* The kernels the caller already has (give either or both; a cached plan is one whose
 * class key the caller holds a pipeline for). */
typedef struct spvgen_gemm_plan_opts {
  /* The plans of the cached kernels, as spvgen_gemm_plan(_ex) returned them (a framework
   * keeps them beside its pipelines: spvgen_gemm_launch_for needs them). Each is a
   * candidate as it is. */
  const spvgen_gemm_config *compiled;
  uint32_t compiled_count;
  /* Or a lookup by key: have(user, key) true when the caller holds that kernel. The
   * candidates are then the first 64 of spvgen_gemm_plans' list for the desc. */
  bool (*have)(void *user, uint64_t class_key);
  void *user;
  /* Runs of calls like desc's the caller expects the plan to serve (0:
   * SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS). */
  uint32_t expected_runs;
  spvgen_gemm_plan_choice *choice; /* optional: what was weighed */
} spvgen_gemm_plan_opts;

/* spvgen_gemm_plan, weighed against the caller's compiled kernels (see above). opts NULL,
 * or with nothing cached: spvgen_gemm_plan's plan. A reused plan is the cached one as the
 * caller gave it (or as spvgen_gemm_plans lists it): its m, n, k are the hints it was
 * planned for; the call's shape goes to spvgen_gemm_launch_for. Fails as
 * spvgen_gemm_plan does, and on compiled NULL with compiled_count > 0. No state, no
 * allocation: any number of threads (have is called on the calling thread). */
spvgen_status spvgen_gemm_plan_ex(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                  const spvgen_gemm_plan_opts *opts, spvgen_gemm_config *plan,
                                  char *message, size_t message_size);

/* A weight's kernel family: the plans to compile ahead. A framework meets a weight (N, K,
 * types, layouts, epilogue) once and its prompt lengths one call at a time; each new length
 * may want another plan, whose first call would then wait for that plan's compile, one
 * compile after another. spvgen_gemm_plan_family lists, at once, the plans a caller would
 * compile for desc's class at prompt lengths up to m_max: 1, 3, 7, 13, then 2^k + 1 and
 * 3 x 2^(k-1) + 1 (17, 33, 49, 65, 97, 129, 193, ...; none a power of two, as prompt
 * lengths rarely are), rounded up to desc.m_multiple, and m_max itself.
 *   1. each length's AUTO plan (spvgen_gemm_plan), once by spvgen_gemm_class_key, those
 *      the caller holds already left out;
 *   2. then what spvgen_gemm_plan_ex takes at each length with these and the held plans
 *      compiled: a plan it estimates faster may stand in for a length's own, so a plan no
 *      length takes is dropped, until every one left is taken at some length;
 *   3. the most used first (ties: the shorter length first).
 * The caller compiles them at once on threads (spvgen_vk_pipeline_create_async; NVIDIA's
 * driver compiles pipelines in parallel) and holds them for spvgen_gemm_plan_ex, which
 * then compiles nothing more at these lengths (at others, only where a new plan is worth
 * its compile, as ever).
 *   desc      a RUNTIME desc of the weight's class (spvgen_gemm_class_for makes one); its
 *             m is ignored.
 *   m_max     the longest prompt length (batch x tokens) to plan for: >= 1, a multiple of
 *             desc.m_multiple.
 *   held      the plans whose kernels the caller holds (as for spvgen_gemm_plan_ex's
 *             opts.compiled; NULL with held_count 0: none): never listed, weighed in 2.
 *   plans     room for capacity plans; *count gets how many were written (at most
 *             capacity; 0 when the held plans serve every length), *total (optional) how
 *             many the family has (at most 24: more are left out).
 * A length no plan takes is skipped; fails when none has one (the planner's message, with
 * the length), on a FIXED desc, on an m_max of 0 or off the class's m_multiple, and on
 * NULL desc, count, plans (with capacity > 0) or held (with held_count > 0), naming which.
 * No state; a temporary list of the held plans is allocated (SPVGEN_ERROR_OUT_OF_MEMORY):
 * any number of threads. */
spvgen_status spvgen_gemm_plan_family(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps, uint32_t m_max,
                                      const spvgen_gemm_config *held, uint32_t held_count, spvgen_gemm_config *plans,
                                      uint32_t capacity, uint32_t *count, uint32_t *total, char *message,
                                      size_t message_size);

/* Tiered compiles. Most of a plan's first compile is the driver unrolling the K loop; the
 * same kernel with that loop marked DontUnroll compiles in a fraction of the time and runs
 * somewhat slower (the figures: docs/gemm.md, "Tiered compiles"). A framework that needs a
 * kernel now compiles the quick form, runs its first calls on it, and meanwhile compiles
 * the plan itself in the background (spvgen_vk_pipeline_create_async), switching when it
 * is ready: the first call waits for the quick compile only, the later ones run at full
 * speed.
 *
 * *quick gets plan's quick-compile form: the same kernel (tile, knobs, edges, packing,
 * split-K, bindings, launch) with SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL, and
 * SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL on coopmat2, added; its name, class key and
 * compile_ms are its own. Returns true when that is a different kernel; false (and
 * *quick = *plan) for a plan that has no quicker form (simt, or one that already keeps
 * the driver from unrolling), or NULL arguments (quick untouched when NULL). */
bool spvgen_gemm_plan_quick(const spvgen_gemm_config *plan, spvgen_gemm_config *quick);

/* The planner's estimate of the GPU time of one run of plan for args (NULL: the plan's
 * own shape; a RUNTIME plan's hint, 4096 where it has none), in ms: the tiles' K loops at
 * the tiling's modelled rate spread over caps' compute units (the model of split-K and
 * long-K planning), the operands' memory traffic as a floor, and the dispatches. An
 * estimate fitted on the H100 (rate 1.0 = 326 TFLOP/s f16 over 132 SMs, 3 TB/s), to
 * compare plans; not a measurement. Fails (naming why) when the plan's launch refuses
 * args. caps NULL: the "vulkan13" preset. */
spvgen_status spvgen_gemm_estimate_ms(const spvgen_gemm_config *plan, const spvgen_device_caps *caps,
                                      const spvgen_gemm_args *args, double *ms, char *message,
                                      size_t message_size);

/* Every plan the device can run for desc, each variant and tile the variant offers
 * (knobs the desc sets stay fixed), best guess first within a variant, variants in enum
 * order; then, when the desc leaves split_k at 0, split-K versions (2, 4, 8, 16 slices)
 * of the coopmat2 and simt default tiles for grids under two waves (2 x 132 tiles) with
 * K >= 512 and >= 8 K steps (K over SPVGEN_GEMM_MAX_SERIAL_K: every candidate split, and
 * the split versions ceil(K / 16384) x 1, 2 and 4 slices). *count gets the number of candidates (may exceed max; at most max are written).
 * Fails like spvgen_gemm_config when none is possible (message: the AUTO plan's reason). */
spvgen_status spvgen_gemm_plans(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                spvgen_gemm_config *plans, uint32_t max, uint32_t *count,
                                char *message, size_t message_size);

/* The addressing model the plan's module is created with (spvgen_module_desc.addressing):
 * SpvAddressingModelPhysicalStorageBuffer64 for addressing DEVICE_ADDRESS, else Logical
 * (0). */
uint32_t spvgen_gemm_addressing_model(const spvgen_gemm_config *plan);

/* The kernels of a plan: MAIN, the GEMM (split-K: the partials), and with split_k > 1
 * REDUCE, the sum of the partials and the epilogue (see Split-K above). */
typedef enum spvgen_gemm_kernel {
  SPVGEN_GEMM_KERNEL_MAIN = 0,
  SPVGEN_GEMM_KERNEL_REDUCE = 1,
  SPVGEN_GEMM_KERNEL_PACK = 2,   /* packed operands: the copy into the workspace */
  SPVGEN_GEMM_KERNEL_COUNT = 3,
} spvgen_gemm_kernel;

/* How many kernels the plan dispatches: MAIN, one more with split_k > 1 (REDUCE) and one
 * more with packed operands (PACK); 0 for NULL. */
uint32_t spvgen_gemm_kernel_count(const spvgen_gemm_config *plan);
/* The kernel dispatched index-th (0 .. kernel_count - 1), in dispatch order: PACK (packed
 * operands), MAIN, REDUCE (split-K). An index past the count gives MAIN. */
spvgen_gemm_kernel spvgen_gemm_kernel_at(const spvgen_gemm_config *plan, uint32_t index);

/* Builds kernel `which` of the plan into m (a fresh or reset module, created with a NULL
 * or default desc; with addressing DEVICE_ADDRESS, with spvgen_gemm_addressing_model's
 * addressing: the bindings are then SPVGEN_BINDING_DEVICE_ADDRESS, each at its
 * address_offset in the push constants, and plan.push_size (reduce_push_size) covers the
 * pointers). info (optional) receives what the words cannot say: entry point name,
 * dispatch grid, local size and the bindings the kernel declares in the order above,
 * each with its name ("A", "B", "D", "C", "bias", "workspace"), access and min_size (the
 * bytes the planned shape touches: up to the last element any batch reaches, rounded up
 * to 4); spvgen_kernel_reflect fills the rest after finish (features, capabilities,
 * hash). plan.features lists every device feature the words of either kernel need (the
 * Vulkan memory model of the module included), so a plan never needs more than the caps
 * it was made for. A `which` the plan does not have is refused naming it. Errors are the
 * module's sticky error. */
spvgen_status spvgen_gemm_emit_kernel(spvgen_module *m, const spvgen_gemm_config *plan, spvgen_gemm_kernel which,
                                      spvgen_kernel_info *info);
/* spvgen_gemm_emit_kernel(m, plan, SPVGEN_GEMM_KERNEL_MAIN, info). */
spvgen_status spvgen_gemm_emit(spvgen_module *m, const spvgen_gemm_config *plan,
                               spvgen_kernel_info *info);

/* plan + emit + finish of every kernel of the plan into kernels[0 .. *count), in dispatch
 * order (spvgen_gemm_kernel_at: PACK for packed operands, MAIN, REDUCE for split-K), whose words the caller frees (spvgen_kernel_free each); their info
 * is complete (spvgen_kernel_reflect of the words, plus the dispatch grid). plan
 * (optional) gets the plan. On failure no kernel is left allocated. */
spvgen_status spvgen_gemm_kernels(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                  spvgen_kernel kernels[SPVGEN_GEMM_KERNEL_COUNT], uint32_t *count,
                                  spvgen_gemm_config *plan, char *message, size_t message_size);

/* The kernels of a plan the caller already has (spvgen_gemm_plan_ex's, or one kept from
 * before), as spvgen_gemm_kernels makes them for a desc: emitted and finished into
 * kernels[0 .. *count) in dispatch order, each freed by the caller. On failure none is
 * left allocated. */
spvgen_status spvgen_gemm_plan_kernels(const spvgen_gemm_config *plan,
                                       spvgen_kernel kernels[SPVGEN_GEMM_KERNEL_COUNT], uint32_t *count,
                                       char *message, size_t message_size);

/* The one-shot for a plan of one kernel: plan + emit + finish into a kernel whose words
 * the caller frees (spvgen_kernel_free); its info is complete (spvgen_kernel_reflect of
 * the words, plus the dispatch grid). A desc that leaves split_k at 0 is planned with
 * split_k 1 here (one kernel, whatever spvgen_gemm_plan would choose); a desc asking for
 * split_k > 1 is refused naming spvgen_gemm_kernels, which returns both kernels. */
spvgen_status spvgen_gemm(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                          spvgen_kernel *kernel, char *message, size_t message_size);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
