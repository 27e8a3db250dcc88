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
 * Tiles (plan): a small cost model over a fixed list from 128x256 / 256x128 (W 256, the
 * big-problem tiles; llama.cpp's "l" tile) through 128x128 (W 256), 64x128 / 128x64 /
 * 64x64 / 32x64 (W 128) down to 32x32 (W 64): estimated time = waves x concurrent tiles
 * per SM x padded tile area / tile efficiency, so big problems get the big tiles and
 * skinny ones (M or N of 64, a few hundred tiles) get small tiles that fill 132 SMs.
 * BK is 64 for 16-bit inputs and 128 for 8-bit ones (128 bytes of each row per step),
 * less when K is smaller. Every tile is a multiple of the device's flexible-dimension
 * granularity for W (the h100 preset: 32x32x16 at 256, 32x16x16 at 128, 16x16x16 at 64;
 * K granularity 32 for int8).
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
 * Split-K (split_k > 1; spvgen/gemm.h, emitters/gemm/splitk.c): tile_path hands the tile
 * to splitk_tile_path, which walks only the slice's K range (bounds are ids: full steps
 * unrolled, then single ones, then the clamped K edge in the slice that holds it), stores
 * the accumulator (as f32, or s32 / u32) to the workspace plane of its slice through a
 * 2-D tensor layout (M x N, stride workspace_ld, planes 16-byte aligned; clamped on edge
 * tiles), arrives at the tile's counter, and in the last slice loads the planes back in
 * slice order, adds them and runs the epilogue above on the sum.
 *
 * Benchmarking: see tests/gemm/test_gemm_coopmat2.c (SPVGEN_TEST_DUMP=dir writes every
 * kernel it validates) or call spvgen_gemm() with variant SPVGEN_GEMM_COOPMAT2 and the
 * "h100" caps preset; spvgen_gemm_plans() lists the alternative tilings to time. */
#include <stdio.h>
#include <string.h>

#include "gemm_internal.h"

/* stages 2: at most this many 16-byte chunks of an operand's K-step tile per invocation. */
#define CM2_STAGE_MAX_CHUNKS 16u

/* ------------------------------------------------------------------- plan ---- */

typedef struct cm2_tile {
  uint32_t m, n, k, wg;
  float eff; /* relative efficiency of the tile shape (cost model) */
} cm2_tile;

/* The tilings the variant chooses from (k: for 16-bit inputs; doubled for 8-bit ones). */
static const cm2_tile TILES[] = {
    {128, 256, 64, 256, 1.00f}, {256, 128, 64, 256, 1.00f}, {128, 128, 64, 256, 0.88f},
    {64, 128, 64, 128, 0.68f},  {128, 64, 64, 128, 0.68f},  {64, 64, 64, 128, 0.55f},
    {32, 64, 64, 128, 0.40f},   {64, 32, 64, 64, 0.40f},    {32, 32, 64, 64, 0.30f},
    {128, 256, 32, 256, 0.95f}, {128, 128, 32, 256, 0.84f}, {256, 128, 32, 256, 0.95f},
    {64, 64, 32, 128, 0.52f},   {256, 256, 32, 256, 0.90f}, {128, 128, 32, 128, 0.84f},
    {256, 256, 64, 256, 0.88f},
    {128, 128, 64, 128, 0.84f}, {64, 256, 32, 128, 0.80f},  {256, 64, 32, 128, 0.80f},
};
#define TILE_COUNT (sizeof TILES / sizeof TILES[0])
#define H100_SMS 132u /* the cost model's machine; only the ranking matters */

static bool is_8bit(spvgen_component_type t) { return spvgen_component_type_size(t) == 1; }

/* The accumulator's component type in the MulAdd: u32 for unsigned integer inputs (the
 * combination devices list for u8 x u8), else acc_type. */
static spvgen_component_type acc_matrix_type(const spvgen_gemm_desc *d) {
  if (!ek_is_float(d->a_type) && !ek_is_signed(d->a_type) && !ek_is_signed(d->b_type))
    return SPVGEN_COMPONENT_U32;
  return d->acc_type;
}

/* Whether the epilogue needs OpCooperativeMatrixPerElementOpNV. */
static bool needs_per_element(const spvgen_gemm_desc *d) {
  bool float_path = ek_epilogue_type(d) == SPVGEN_COMPONENT_F32;
  return d->bias != SPVGEN_GEMM_BIAS_NONE || d->activation != SPVGEN_ACTIVATION_NONE ||
         (float_path && !ek_is_float(d->out_type));
}

static uint64_t needed_features(const spvgen_gemm_desc *d) {
  uint64_t f = SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE | SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS |
               SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING | SPVGEN_FEATURE_COOPMAT;
  if (needs_per_element(d)) f |= SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS;
  if (d->a_type == SPVGEN_COMPONENT_BF16 || d->b_type == SPVGEN_COMPONENT_BF16)
    f |= SPVGEN_FEATURE_BFLOAT16_COOPMAT;
  if (d->a_type == SPVGEN_COMPONENT_E4M3 || d->a_type == SPVGEN_COMPONENT_E5M2 ||
      d->b_type == SPVGEN_COMPONENT_E4M3 || d->b_type == SPVGEN_COMPONENT_E5M2)
    f |= SPVGEN_FEATURE_FLOAT8_COOPMAT;
  return f;
}

static const char *tn(spvgen_component_type t) { return spvgen_component_type_name(t); }

/* The device's workgroup-scope entries for a desc's types: any workgroup size (`any`),
 * and the last workgroup size asked for, so that the plan's loop over the tilings scans
 * the caps once per workgroup size, not twice per tiling. */
typedef struct cm2_flex {
  const spvgen_coopmat_flex *any;
  uint32_t wg;
  const spvgen_coopmat_flex *f;
} cm2_flex;

static cm2_flex flex_lookup(const spvgen_device_caps *caps, const spvgen_gemm_desc *d) {
  spvgen_component_type acc = acc_matrix_type(d);
  cm2_flex x = {spvgen_caps_find_coopmat_flex(caps, SpvScopeWorkgroup, 0, d->a_type, d->b_type, acc, acc),
                0, NULL};
  return x;
}

/* Checks one tiling against the device; NULL when it fits, else writes the reason.
 * fl: flex_lookup's answer for d (its cache updated). */
static spvgen_status check_tile(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                cm2_flex *fl, const cm2_tile *t, const spvgen_coopmat_flex **flex_out,
                                char *msg, size_t size) {
  spvgen_component_type acc = acc_matrix_type(d);
  const spvgen_coopmat_flex *any = fl->any;
  if (!any) {
    if (d->a_type == d->b_type)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "a_type %s with acc_type %s: %s has no workgroup-scope cooperative matrix with %s "
                       "inputs and %s accumulators (no flexible-dimensions entry %s x %s + %s)",
                       tn(d->a_type), tn(d->acc_type), caps->name, tn(d->a_type), tn(acc), tn(d->a_type),
                       tn(d->b_type), tn(acc));
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "a_type %s, b_type %s: %s has no workgroup-scope cooperative matrix with %s x %s "
                     "inputs and %s accumulators", tn(d->a_type), tn(d->b_type), caps->name,
                     tn(d->a_type), tn(d->b_type), tn(acc));
  }
  if (!fl->wg || fl->wg != t->wg) {
    fl->f = spvgen_caps_find_coopmat_flex(caps, SpvScopeWorkgroup, t->wg, d->a_type, d->b_type, acc, acc);
    fl->wg = t->wg;
  }
  const spvgen_coopmat_flex *f = fl->f;
  if (!f)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "workgroup_size %u: %s lists workgroup-scope %s x %s + %s matrices for other "
                     "workgroup sizes only (e.g. %u)", t->wg, caps->name, tn(d->a_type), tn(d->b_type),
                     tn(acc), any->workgroup_invocations);
  uint32_t wg_max = caps->coopmat2_workgroup_scope_max_workgroup_size;
  if ((wg_max && t->wg > wg_max) || t->wg > caps->max_workgroup_invocations || t->wg > caps->max_workgroup_size[0])
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "workgroup_size %u is over %s's cooperativeMatrixWorkgroupScopeMaxWorkgroupSize %u",
                     t->wg, caps->name, wg_max ? wg_max : caps->max_workgroup_invocations);
  if (!t->m || t->m % f->m_granularity || !t->n || t->n % f->n_granularity || !t->k ||
      t->k % f->k_granularity)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "tile_m %u, tile_n %u, tile_k %u: with %u invocations %s needs multiples of "
                     "%ux%ux%u (flexible-dimension granularity)", t->m, t->n, t->k, t->wg, caps->name,
                     f->m_granularity, f->n_granularity, f->k_granularity);
  uint32_t maxd = caps->coopmat2_flexible_dimensions_max_dimension;
  if (maxd && (t->m > maxd || t->n > maxd || t->k > maxd))
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "tile %ux%ux%u: %s's cooperativeMatrixFlexibleDimensionsMaxDimension is %u", t->m,
                     t->n, t->k, caps->name, maxd);
  if (flex_out) *flex_out = f;
  return SPVGEN_OK;
}

/* The measured best tiling per input width and accumulator gets a bonus over the cost
 * model's shape efficiency. H100, 4096^3, 400 ms warm-up, every tiling with unroll 1 and
 * 4 (bench/results/raw/gemm-h100-2026-11-23b-tilings.txt): 16-bit inputs, f16
 * accumulators: 256x256x32 377 TFLOP/s against 327 for 128x256x64; f32 accumulators:
 * 128x256x32 322 against 312 (256x256 needs more registers than there are); 8-bit
 * inputs: 256x128x64 380 TOP/s against 311 for 128x256x64 and 170 for 128x256x128.
 * (Tilings with K 16, as vk_cooperative_matrix_perf uses for f32 accumulators, measured
 * 114-211: too little work per tensor load on this driver.) */
static float tile_bonus(const spvgen_gemm_desc *d, const cm2_tile *base) {
  if (is_8bit(d->a_type)) return base->m == 256 && base->n == 128 && base->k == 32 ? 1.25f : 1.0f;
  if (spvgen_component_type_size(d->acc_type) == 2)
    return base->m == 256 && base->n == 256 && base->k == 32 ? 1.2f : 1.0f;
  return base->m == 128 && base->n == 256 && base->k == 32 ? 1.08f : 1.0f;
}

/* A desc's knobs applied to a tiling of the table; K step fitted to the problem. */
static cm2_tile fit_tile(const spvgen_gemm_desc *d, const cm2_tile *base, uint32_t kgran) {
  cm2_tile t = *base;
  t.eff *= tile_bonus(d, base);
  if (is_8bit(d->a_type)) t.k *= 2;
  if (kgran) {
    /* no step longer than K (split-K: a slice) needs */
    uint32_t kmax = gemm_ceil_div(d->split_k > 1 ? gemm_ceil_div(d->k, d->split_k) : d->k, kgran) * kgran;
    if (t.k > kmax) t.k = kmax;
  }
  if (d->tile_m) t.m = d->tile_m;
  if (d->tile_n) t.n = d->tile_n;
  if (d->tile_k) t.k = d->tile_k;
  if (d->workgroup_size) t.wg = d->workgroup_size;
  return t;
}

/* Registers per invocation a tiling needs, roughly: the accumulator and the A and B tiles
 * spread over the workgroup, + 32 for addressing. */
static double tile_registers(const spvgen_gemm_desc *d, const cm2_tile *t) {
  uint32_t acc_bytes = spvgen_component_type_size(d->acc_type);
  uint32_t in_bytes = spvgen_component_type_size(d->a_type);
  return ((double)t->m * t->n * acc_bytes + (double)(t->m + t->n) * t->k * in_bytes) / 4.0 / t->wg + 32.0;
}

/* Whether the variant leaves a table tiling out of its own choices: one that would spill
 * (over ~240 registers per invocation), unless the desc fixes the tile itself. */
static bool tile_spills(const spvgen_gemm_desc *d, const cm2_tile *t) {
  return !(d->tile_m && d->tile_n) && tile_registers(d, t) > 240.0;
}

/* Estimated run time of a tiling (arbitrary units; only the order matters). */
static double tile_cost(const spvgen_gemm_desc *d, const cm2_tile *t) {
  uint64_t tiles = (uint64_t)gemm_ceil_div(d->m, t->m) * gemm_ceil_div(d->n, t->n) * d->batch;
  /* Concurrent workgroups per SM, from the register estimate, 64K registers and 2048
   * threads. */
  double regs = tile_registers(d, t);
  uint32_t per_sm = (uint32_t)(65536.0 / (regs * t->wg));
  if (per_sm > 2048 / t->wg) per_sm = 2048 / t->wg;
  if (per_sm < 1) per_sm = 1;
  uint64_t conc = (tiles + H100_SMS - 1) / H100_SMS;
  if (conc > per_sm) conc = per_sm;
  uint64_t waves = (tiles + H100_SMS * conc - 1) / (H100_SMS * conc);
  return (double)waves * (double)conc * t->m * t->n / t->eff;
}

/* Unroll 4 where there are enough K steps, except for 8-bit K steps of 128 or more:
 * there the unrolled loads outgrow the registers (H100: 128x256x128 s8 170 TOP/s at
 * unroll 4 against 285 at 1; 8192x256x4096 s8 128x128x128 0.206 ms at 4 against 0.081 ms
 * at 2, bench/results/raw/tune-h100-2026-11-23.txt). */
static uint32_t default_unroll(const spvgen_gemm_desc *d, uint32_t tk) {
  uint32_t steps = d->k / tk;
  uint32_t most = is_8bit(d->a_type) && tk >= 128 ? 2 : 4;
  uint32_t u = steps >= 8 ? 4 : steps >= 2 ? 2 : 1;
  return u < most ? u : most;
}

static spvgen_status coopmat2_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg,
                                   size_t size) {
  spvgen_gemm_desc *d = &p->desc;
  uint64_t need = needed_features(d);
  uint64_t missing = need & ~caps->features;
  if (missing) {
    char names[512];
    size_t n = 0;
    names[0] = 0;
    /* Workgroup scope first: it is what this variant is about. */
    static const uint64_t order[] = {
        SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE, SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS,
        SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING, SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS,
        SPVGEN_FEATURE_COOPMAT, SPVGEN_FEATURE_BFLOAT16_COOPMAT, SPVGEN_FEATURE_FLOAT8_COOPMAT};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
      if ((missing & order[i]) && n < sizeof names) {
        int w = snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", spvgen_feature_name(order[i]));
        if (w > 0) n += (size_t)w;
      }
    const char *why = (missing & SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS) &&
                              !(missing & ~SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS)
                          ? " (for the bias, activation or integer rounding of the epilogue)"
                          : "";
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the coopmat2 variant needs %s, which %s lacks%s",
                     names, caps->name, why);
  }
  if (d->stages > 2)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "stages %u: the coopmat2 variant has 1 (the driver stages the workgroup-scope "
                     "matrices) or 2 (the kernel stages A and B through shared memory itself)", d->stages);
  if (d->stages == 2 && (d->split_k > 1 || d->batch > 1))
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "stages 2 (shared-memory staging) with %s: not implemented (stages 1 does it)",
                     d->split_k > 1 ? "split_k > 1" : "batch > 1");
  if (!d->stages) d->stages = 1;
  if (d->subgroups && caps->subgroup_size && !d->workgroup_size)
    d->workgroup_size = d->subgroups * caps->subgroup_size;

  /* K granularity of the type combination (for fitting BK to small K). */
  cm2_flex fl = flex_lookup(caps, d);
  uint32_t kgran = fl.any ? fl.any->k_granularity : 16;

  cm2_tile best;
  memset(&best, 0, sizeof best);
  double best_cost = 0;
  bool found = false;
  spvgen_status first_st = SPVGEN_OK;
  char first_msg[512] = "";
  uint32_t split_short = 0; /* a tile_k left out for having fewer K steps than split_k */
  for (size_t i = 0; i < TILE_COUNT; i++) {
    cm2_tile t = fit_tile(d, &TILES[i], kgran);
    spvgen_status st = check_tile(caps, d, &fl, &t, NULL, i == 0 ? first_msg : NULL, sizeof first_msg);
    if (i == 0) first_st = st;
    if (st != SPVGEN_OK || tile_spills(d, &t)) continue;
    if (d->split_k > 1 && gemm_ceil_div(d->k, t.k) < d->split_k) { /* fewer K steps than slices */
      split_short = t.k;
      continue;
    }
    double c = tile_cost(d, &t);
    if (!found || c < best_cost) {
      best = t;
      best_cost = c;
      found = true;
    }
  }
  if (!found && split_short)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "split_k %u is over the %u K steps of tile_k %u (k %u): at most %u slices", d->split_k,
                     gemm_ceil_div(d->k, split_short), split_short, d->k, gemm_ceil_div(d->k, split_short));
  if (!found) {
    /* Report the first tiling's reason (the desc's own knobs, or the big tile). */
    if (first_st == SPVGEN_OK)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "tile_m %u / tile_n %u: every tiling with them needs over 240 registers per "
                       "invocation (set both to force one)", d->tile_m, d->tile_n);
    if (msg && size) snprintf(msg, size, "%s", first_msg);
    return first_st;
  }
  const spvgen_coopmat_flex *flex = NULL;
  spvgen_status st = check_tile(caps, d, &fl, &best, &flex, msg, size);
  if (st != SPVGEN_OK) return st;
  if (d->subgroups && caps->subgroup_size && d->subgroups * caps->subgroup_size != best.wg)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "subgroups %u: %u invocations per workgroup make %u subgroups of %u", d->subgroups,
                     best.wg, best.wg / caps->subgroup_size, caps->subgroup_size);
  d->tile_m = best.m;
  d->tile_n = best.n;
  d->tile_k = best.k;
  d->workgroup_size = best.wg;
  d->subgroups = caps->subgroup_size ? best.wg / caps->subgroup_size : 0;
  if (!d->unroll) d->unroll = default_unroll(d, best.k);
  p->local_size[0] = best.wg;
  p->local_size[1] = p->local_size[2] = 1;
  p->frag_m = best.m;
  p->frag_n = best.n;
  p->frag_k = best.k;
  p->warp_m = p->warp_n = 0;
  p->shared_bytes = 0; /* none declared; the driver reserves its own for workgroup scope */
  if (d->stages == 2) {
    /* Every chunk of a K-step tile is 16 bytes of one stored row, the rows start 16-byte
     * aligned (ld), and the chunks split evenly over the invocations. */
    uint32_t es = spvgen_component_type_size(d->a_type);
    uint32_t a_row = d->a_layout == SPVGEN_COL_MAJOR ? d->tile_m : d->tile_k;
    uint32_t b_row = d->b_layout == SPVGEN_COL_MAJOR ? d->tile_k : d->tile_n;
    uint32_t ca = d->tile_m * d->tile_k * es / 16, cb = d->tile_k * d->tile_n * es / 16;
    uint64_t bytes = (uint64_t)(d->tile_m + d->tile_n) * d->tile_k * es;
    uint64_t room = caps->max_shared_memory > caps->coopmat2_workgroup_scope_reserved_shared_memory
                        ? caps->max_shared_memory - caps->coopmat2_workgroup_scope_reserved_shared_memory
                        : 0;
    const char *why = NULL;
    if (d->k < d->tile_k) why = "k is under tile_k: no full K step to stage";
    else if ((a_row * es) % 16 || (b_row * es) % 16) why = "a stored tile row is not a multiple of 16 bytes";
    else if ((d->lda * es) % 16 || (d->ldb * es) % 16) why = "lda or ldb is not a multiple of 16 bytes";
    else if (ca % best.wg || cb % best.wg) why = "the tiles' 16-byte chunks do not split evenly over the invocations";
    else if (ca / best.wg > CM2_STAGE_MAX_CHUNKS || cb / best.wg > CM2_STAGE_MAX_CHUNKS) why = "over 16 chunks per invocation";
    else if (bytes > room) why = "the two tiles do not fit in shared memory beside the driver's reserve";
    if (why)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "stages 2 with tile %ux%ux%u: %s", d->tile_m, d->tile_n,
                       d->tile_k, why);
    p->shared_bytes = (uint32_t)bytes;
  }
  p->features = need;
  p->subgroup_size = 0;
  gemm_set_grid(p);
  bool off_tile = d->m % d->tile_m || d->n % d->tile_n;
  bool can_shift = d->m >= d->tile_m && d->n >= d->tile_n && d->beta == 0.0f;
  if (d->edge == SPVGEN_GEMM_EDGE_SHIFT && d->beta != 0.0f)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "edge shift with beta %g: a shifted tile would read C where its neighbour may "
                     "already have written D (beta 0 only)", (double)d->beta);
  if (d->edge == SPVGEN_GEMM_EDGE_SHIFT && !can_shift)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "edge shift: M %u x N %u is smaller than the tile %ux%u (a tile cannot move "
                     "inside)", d->m, d->n, d->tile_m, d->tile_n);
  (void)can_shift; /* AUTO: measured before it becomes the default */
  if (!d->edge) d->edge = SPVGEN_GEMM_EDGE_BRANCH;
  char extra[16];
  ek_str x = ek_str_start(extra, sizeof extra);
  ek_str_put(&x, "u");
  ek_str_u32(&x, d->unroll);
  if (d->stages == 2) ek_str_put(&x, " s2");
  ek_str_put(&x, !off_tile || d->edge == SPVGEN_GEMM_EDGE_BRANCH ? ""
                 : d->edge == SPVGEN_GEMM_EDGE_CLAMP            ? " clamp"
                                                                : " shift");
  gemm_plan_name(p, extra);
  return SPVGEN_OK;
}

static uint32_t coopmat2_candidates(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc,
                                    spvgen_gemm_desc *out, uint32_t max) {
  uint32_t n = 0;
  /* The plan's own choice first. */
  spvgen_gemm_config first;
  memset(&first, 0, sizeof first);
  first.desc = *desc;
  first.variant = first.desc.variant = SPVGEN_GEMM_COOPMAT2;
  if (coopmat2_plan(caps, &first, NULL, 0) != SPVGEN_OK) return 0;
  const spvgen_gemm_desc *b = &first.desc;
  if (n < max) out[n++] = *b;
  /* Unroll variants of that tile (unless the desc fixes unroll). */
  static const uint32_t unrolls[] = {1, 2, 4}; /* 8 never won on the H100 (66-117 TFLOP/s) */
  for (size_t u = 0; u < sizeof unrolls / sizeof unrolls[0] && !desc->unroll && n < max; u++) {
    if (unrolls[u] == b->unroll || unrolls[u] > b->k / b->tile_k) continue;
    spvgen_gemm_desc c = *b;
    c.unroll = unrolls[u];
    out[n++] = c;
  }
  /* Every other tiling of the table that honours the desc's knobs, cheapest by the cost
   * model first: a tuner with a short budget (each candidate costs the driver's compile,
   * up to seconds for the big tilings) reaches the likely winners first. */
  cm2_flex fl = flex_lookup(caps, desc);
  uint32_t kgran = fl.any ? fl.any->k_granularity : 16;
  cm2_tile rest[TILE_COUNT];
  double cost[TILE_COUNT];
  uint32_t nr = 0;
  for (size_t i = 0; i < TILE_COUNT; i++) {
    cm2_tile t = fit_tile(desc, &TILES[i], kgran);
    if (check_tile(caps, desc, &fl, &t, NULL, NULL, 0) != SPVGEN_OK || tile_spills(desc, &t)) continue;
    bool dup = false;
    for (uint32_t j = 0; j < n && !dup; j++)
      dup = out[j].tile_m == t.m && out[j].tile_n == t.n && out[j].tile_k == t.k &&
            out[j].workgroup_size == t.wg;
    for (uint32_t j = 0; j < nr && !dup; j++)
      dup = rest[j].m == t.m && rest[j].n == t.n && rest[j].k == t.k && rest[j].wg == t.wg;
    if (dup) continue;
    /* Insertion by cost (stable: table order among equals). */
    double c = tile_cost(desc, &t);
    uint32_t at = nr;
    while (at > 0 && cost[at - 1] > c) {
      rest[at] = rest[at - 1];
      cost[at] = cost[at - 1];
      at--;
    }
    rest[at] = t;
    cost[at] = c;
    nr++;
  }
  for (uint32_t i = 0; i < nr && n < max; i++) {
    spvgen_gemm_desc c = *desc;
    c.tile_m = rest[i].m;
    c.tile_n = rest[i].n;
    c.tile_k = rest[i].k;
    c.workgroup_size = rest[i].wg;
    c.subgroups = 0;
    out[n++] = c;
  }
  return n;
}

/* ------------------------------------------------------------------- emit ---- */

/* One matrix operand in memory: its buffer, 16-byte aligned base pointer, and tensor
 * layouts (unclamped and clamped) with the transposing view of column-major operands. */
typedef struct cm2_operand {
  uint32_t ptr;     /* element pointer the tensor instructions take */
  uint32_t dim;     /* 2, or 3 with a batch dimension */
  bool col_major;
  uint32_t z;       /* batch index (3-D layouts) */
  uint32_t lay[2];  /* [0] clamp mode Undefined, [1] ConstantNV (0 outside) */
  uint32_t view;    /* transposing view for column-major operands, else 0 */
} cm2_operand;

/* v4 (optional): a 128-bit (u32x4) view of the same binding, whose elements are the
 * tensor instructions' base pointers, as NVIDIA's own coopmat2 sample passes them (the
 * spec wants a 16-byte-aligned base; the pointee type then says so too). Addressing is
 * unchanged: offsets count matrix components, whatever the pointee. */
static void operand_init(spvgen_module *m, cm2_operand *o, const ek_buffer *buf, const ek_buffer *v4,
                         spvgen_component_type t, spvgen_matrix_layout layout, uint32_t rows,
                         uint32_t cols, uint32_t ld, uint64_t stride, uint32_t batch, uint32_t z,
                         bool clamped_only) {
  memset(o, 0, sizeof *o);
  o->col_major = layout == SPVGEN_COL_MAJOR;
  o->z = z;
  uint32_t d0 = o->col_major ? cols : rows, d1 = o->col_major ? rows : cols;
  bool flat = batch <= 1 || (stride * spvgen_component_type_size(t)) % 16 == 0;
  o->dim = flat ? 2 : 3;
  uint32_t esize = spvgen_component_type_size(t);
  if (v4 && v4->var) {
    /* flat: the batch base is a whole number of 16-byte chunks */
    uint32_t chunks = (uint32_t)(stride * esize / 16);
    uint32_t base = batch > 1 && flat ? ek_mul(m, z, ek_u32(m, chunks)) : ek_u32(m, 0);
    o->ptr = ek_elem(m, v4, base);
  } else {
    uint32_t base = batch > 1 && flat ? ek_mul(m, z, ek_u32(m, (uint32_t)stride)) : ek_u32(m, 0);
    o->ptr = ek_elem(m, buf, base);
  }
  uint32_t dims[3], strides[3], n = 0;
  if (!flat) {
    dims[n] = ek_u32(m, batch);
    strides[n++] = ek_u32(m, (uint32_t)stride);
  }
  dims[n] = ek_u32(m, d0);
  strides[n++] = ek_u32(m, ld);
  dims[n] = ek_u32(m, d1);
  strides[n++] = ek_u32(m, 1);
  for (int c = clamped_only ? 1 : 0; c < 2; c++) {
    uint32_t lt = spvgen_type_tensor_layout(m, o->dim, c ? SpvTensorClampModeConstant : SpvTensorClampModeUndefined);
    uint32_t l = spvgen_tensor_layout_create(m, lt);
    l = spvgen_tensor_layout_set_dimension(m, l, dims, n);
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
  return spvgen_coopmat_load_tensor(m, type, o->ptr, zero, operand_slice(m, o, clamped, r0, rs, c0, cs), NULL,
                                    o->view ? &ops : NULL);
}

static void operand_store(spvgen_module *m, const cm2_operand *o, int clamped, uint32_t value,
                          uint32_t r0, uint32_t rs, uint32_t c0, uint32_t cs) {
  spvgen_tensor_operands ops = {o->view, 0};
  spvgen_coopmat_store_tensor(m, o->ptr, value, operand_slice(m, o, clamped, r0, rs, c0, cs), NULL,
                              o->view ? &ops : NULL);
}

typedef struct cm2_ctx {
  const spvgen_gemm_desc *d;
  ek_epilogue epi;
  cm2_operand a, b, c, dd;
  uint32_t ta, tb, tacc;       /* matrix types */
  uint32_t za, zb, zacc;       /* their zero constants */
  spvgen_component_type accm;  /* the accumulator matrix's component type */
  uint32_t bm, bn;             /* tile origin (ids) */
  uint32_t muladd_ops;
  uint32_t pe_fn;              /* per-element epilogue function, or 0 */
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
  uint32_t sh;                          /* Workgroup u32x4[] variable */
  uint32_t chunks;                      /* per invocation */
  uint32_t per_row;                     /* chunks per stored row of the tile */
  uint32_t origin;                      /* the tile's first chunk at k = 0 (id) */
  uint32_t step;                        /* chunks per K step (constant value) */
  uint32_t goff[CM2_STAGE_MAX_CHUNKS];  /* this invocation's chunk offsets in global memory (ids) */
  uint32_t sidx[CM2_STAGE_MAX_CHUNKS];  /* and in the Workgroup array (ids) */
  uint32_t var[CM2_STAGE_MAX_CHUNKS];   /* Function variables: the prefetched chunks */
  SpvCooperativeMatrixLayout layout;    /* how the matrix reads the stored tile */
} cm2_stage_operand;
typedef struct cm2_stage {
  cm2_stage_operand a, b;
  const ek_buffer *a4, *b4;
  uint32_t v4t, psh;                    /* u32x4, pointer (Workgroup, u32x4) */
  uint32_t lid_var;                     /* LocalInvocationIndex */
} cm2_stage;

/* Split-K (split_k > 1): the shared state of splitk.c, the workspace's 128-bit view (the
 * tensor instructions' base pointers, as for the other bindings) and the ids the
 * arrival needs. */
typedef struct cm2_splitk {
  gemm_splitk s;
  ek_buffer w4;
  uint32_t wg_var, lid_var;
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

/* One K step at k0 (an id): acc += A[bm.., k0..] * B[k0.., bn..]. */
static uint32_t k_step(spvgen_module *m, const cm2_ctx *x, int clamped, uint32_t k0, uint32_t acc) {
  const spvgen_gemm_desc *d = x->d;
  uint32_t a = operand_load(m, &x->a, clamped, x->ta, x->za, x->bm, d->tile_m, k0, d->tile_k);
  uint32_t b = operand_load(m, &x->b, clamped, x->tb, x->zb, k0, d->tile_k, x->bn, d->tile_n);
  return spvgen_coopmat_muladd(m, x->tacc, a, b, acc, x->muladd_ops);
}

/* The epilogue of a tile and its store. */
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
  if (scale) v = spvgen_coop_scale(m, v, spvgen_const_f32(m, d->alpha));
  if (cterm) {
    uint32_t ct = acc_type_of(m, x, d->out_type);
    uint32_t zc = spvgen_coop_splat(m, ct, spvgen_const_bits(m, ek_type(m, d->out_type), 0));
    uint32_t cm = operand_load(m, &x->c, clamped, ct, zc, x->bm, d->tile_m, x->bn, d->tile_n);
    cm = mconvert(m, x, cm, d->out_type, SPVGEN_COMPONENT_F32);
    cm = spvgen_coop_scale(m, cm, spvgen_const_f32(m, d->beta));
    v = spvgen_coop_arith(m, SpvOpFAdd, v, cm);
  }
  if (x->pe_fn) {
    uint32_t extra[2] = {x->bm, x->bn};
    v = spvgen_coopmat_per_element(m, v, x->pe_fn, extra, 2);
  }
  v = mconvert(m, x, v, t, d->out_type);
  operand_store(m, &x->dd, clamped, v, x->bm, d->tile_m, x->bn, d->tile_n);
}

static void splitk_tile_path(spvgen_module *m, const cm2_ctx *x, int clamped);

/* stages 2: this invocation's share of the K-step tile at step `step` (an id) into the
 * prefetch variables. */
static void stage_fetch(spvgen_module *m, const cm2_stage *st, const cm2_stage_operand *o, const ek_buffer *b4,
                        uint32_t step) {
  uint32_t base = ek_add(m, o->origin, ek_mul(m, step, ek_u32(m, o->step)));
  for (uint32_t e = 0; e < o->chunks; e++)
    spvgen_store(m, o->var[e], spvgen_load(m, st->v4t, ek_elem(m, b4, ek_add(m, base, o->goff[e]))));
}

static void stage_put(spvgen_module *m, const cm2_stage *st, const cm2_stage_operand *o) {
  for (uint32_t e = 0; e < o->chunks; e++) {
    uint32_t ptr = spvgen_access_chain(m, st->psh, o->sh, &o->sidx[e], 1);
    spvgen_store(m, ptr, spvgen_load(m, st->v4t, o->var[e]));
  }
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
  stage_fetch(m, st, &st->a, st->a4, next);
  stage_fetch(m, st, &st->b, st->b4, next);
  uint32_t zero = ek_u32(m, 0);
  uint32_t a = spvgen_coopmat_load(m, x->ta, spvgen_access_chain(m, st->psh, st->a.sh, &zero, 1), st->a.layout,
                                   st->a.per_row, NULL);
  uint32_t b = spvgen_coopmat_load(m, x->tb, spvgen_access_chain(m, st->psh, st->b.sh, &zero, 1), st->b.layout,
                                   st->b.per_row, NULL);
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
      uint32_t idx = ek_add(m, lid, ek_u32(m, e * W));
      uint32_t ld4 = (i ? d->ldb : d->lda) * spvgen_component_type_size(d->a_type) / 16;
      o->sidx[e] = idx;
      o->goff[e] = ek_add(m, ek_mul(m, ek_div(m, idx, ek_u32(m, o->per_row)), ek_u32(m, ld4)),
                          ek_mod(m, idx, ek_u32(m, o->per_row)));
      o->var[e] = ek_local(m, st->v4t, 0);
    }
  uint32_t last = ek_u32(m, steps - 1);
  stage_fetch(m, st, &st->a, st->a4, ek_u32(m, 0));
  stage_fetch(m, st, &st->b, st->b4, ek_u32(m, 0));
  uint32_t acc = x->zacc;
  uint32_t done = 0;
  if (outer >= 2) {
    uint32_t accv = ek_local(m, x->tacc, x->zacc);
    uint32_t sv = ek_local(m, ek_u32_type(m), ek_u32(m, 0));
    spvgen_loop(m, SpvLoopControlMaskNone);
    uint32_t s0 = ek_load_u32(m, sv);
    spvgen_loop_while(m, ek_lt(m, s0, ek_u32(m, outer * U)));
    uint32_t cur = spvgen_load(m, x->tacc, accv);
    for (uint32_t j = 0; j < U; j++) {
      uint32_t next = spvgen_glsl_u_min(m, ek_u32_type(m), ek_add(m, s0, ek_u32(m, j + 1)), last);
      cur = staged_step(m, x, next, cur);
    }
    spvgen_store(m, accv, cur);
    spvgen_loop_continue_block(m);
    spvgen_store(m, sv, ek_add(m, s0, ek_u32(m, U)));
    spvgen_end_loop(m);
    acc = spvgen_load(m, x->tacc, accv);
    done = outer * U;
  }
  for (; done < steps; done++)
    acc = staged_step(m, x, ek_u32(m, done + 1 < steps ? done + 1 : steps - 1), acc);
  if (tail) acc = k_step(m, x, 1, ek_u32(m, steps * BK), acc); /* K edge: clamped, from global memory */
  epilogue(m, x, 0, acc);
}

/* The whole tile: K loop, then the epilogue. clamped: the tile may cross M or N. */
static void tile_path(spvgen_module *m, const cm2_ctx *x, int clamped) {
  if (x->sk) {
    splitk_tile_path(m, x, clamped);
    return;
  }
  if (x->st && !clamped && x->d->k >= x->d->tile_k) {
    staged_tile_path(m, x);
    return;
  }
  const spvgen_gemm_desc *d = x->d;
  const uint32_t BK = d->tile_k;
  const uint32_t steps = d->k / BK, tail = d->k % BK;
  uint32_t U = d->unroll ? d->unroll : 1;
  if (U > steps && steps) U = steps;
  const uint32_t outer = steps ? steps / U : 0, rest = steps ? steps % U : 0;
  uint32_t acc = x->zacc;
  uint32_t k = 0; /* K position after the loop (a constant) */
  if (outer >= 2) {
    uint32_t accv = ek_local(m, x->tacc, x->zacc);
    uint32_t kv = ek_local(m, ek_u32_type(m), ek_u32(m, 0));
    spvgen_loop(m, SpvLoopControlMaskNone);
    uint32_t k0 = ek_load_u32(m, kv);
    spvgen_loop_while(m, ek_lt(m, k0, ek_u32(m, outer * U * BK)));
    uint32_t cur = spvgen_load(m, x->tacc, accv);
    for (uint32_t j = 0; j < U; j++)
      cur = k_step(m, x, clamped, j ? ek_add(m, k0, ek_u32(m, j * BK)) : k0, cur);
    spvgen_store(m, accv, cur);
    spvgen_loop_continue_block(m);
    spvgen_store(m, kv, ek_add(m, k0, ek_u32(m, U * BK)));
    spvgen_end_loop(m);
    acc = spvgen_load(m, x->tacc, accv);
    k = outer * U * BK;
  } else if (outer == 1) {
    for (uint32_t j = 0; j < U; j++, k += BK) acc = k_step(m, x, clamped, ek_u32(m, k), acc);
  }
  for (uint32_t j = 0; j < rest; j++, k += BK) acc = k_step(m, x, clamped, ek_u32(m, k), acc);
  if (tail) acc = k_step(m, x, 1, ek_u32(m, k), acc); /* K edge: clamped */
  epilogue(m, x, clamped, acc);
}

/* ---------------------------------------------------------------- split-K ---- */

/* Declares the workspace (u32 words and a u32x4 view) and the ids split-K needs; before
 * the entry point. */
static void splitk_declare(spvgen_module *m, const spvgen_gemm_config *p, cm2_ctx *x, cm2_splitk *sk,
                           uint32_t wg_var) {
  memset(sk, 0, sizeof *sk);
  gemm_splitk_declare(m, p, &sk->s);
  sk->w4 = ek_buffer_decl(m, spvgen_type_vector(m, ek_u32_type(m), 4), p->workspace_binding, false, "workspace4");
  if (!sk->s.vmm) spvgen_decorate(m, sk->w4.var, SpvDecorationCoherent);
  sk->wg_var = wg_var;
  sk->lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  x->sk = sk;
}

/* In main: the slice and K range from the workgroup's z; returns the batch index id. */
static uint32_t splitk_ids(spvgen_module *m, cm2_ctx *x) {
  gemm_splitk_ids(m, &x->sk->s, ek_load_v3_component(m, x->sk->wg_var, 2));
  return x->sk->s.z;
}

/* The component type partials are kept and summed in: f32 for float accumulators (f16
 * ones included), the accumulator's own (s32, or u32 for u8 inputs) for integers. */
static spvgen_component_type splitk_sum_type(const cm2_ctx *x) {
  return ek_is_float(x->accm) ? SPVGEN_COMPONENT_F32 : x->accm;
}

/* The workspace plane of slice (an id) as a BM x BN tile operand at (bm, bn): M x N
 * row-major with leading dimension workspace_ld; planes are 16-byte aligned. */
static void splitk_plane(spvgen_module *m, const cm2_ctx *x, uint32_t slice, cm2_operand *o) {
  const cm2_splitk *sk = x->sk;
  const spvgen_gemm_config *p = sk->s.p;
  const spvgen_gemm_desc *d = x->d;
  uint32_t plane = d->batch > 1 ? ek_add(m, ek_mul(m, slice, ek_u32(m, d->batch)), sk->s.z) : slice;
  operand_init(m, o, &sk->s.ws, &sk->w4, SPVGEN_COMPONENT_F32, SPVGEN_ROW_MAJOR, d->m, d->n, p->workspace_ld,
               (uint64_t)d->m * p->workspace_ld, d->split_k * d->batch, plane, false);
}

/* This slice's K range [k_begin, k_end): full steps (unrolled by `unroll`, then one at a
 * time), and the K edge's partial step in the slice that holds it. Bounds are ids
 * (uniform over the workgroup). */
static uint32_t splitk_k_loop(spvgen_module *m, const cm2_ctx *x, int clamped) {
  const spvgen_gemm_desc *d = x->d;
  const gemm_splitk *s = &x->sk->s;
  const uint32_t BK = d->tile_k, U = d->unroll ? d->unroll : 1;
  uint32_t u32 = ek_u32_type(m), b = ek_bool_type(m);
  uint32_t kfull = ek_u32(m, d->k / BK * BK);
  uint32_t full_end = spvgen_glsl_u_min(m, u32, s->k_end, kfull);
  uint32_t accv = ek_local(m, x->tacc, x->zacc);
  uint32_t kv = ek_local(m, u32, ek_u32(m, 0));
  spvgen_store(m, accv, x->zacc);
  spvgen_store(m, kv, s->k_begin);
  for (int pass = U > 1 ? 0 : 1; pass < 2; pass++) {
    uint32_t n = pass ? 1 : U;
    spvgen_loop(m, SpvLoopControlMaskNone);
    uint32_t k0 = ek_load_u32(m, kv);
    spvgen_loop_while(m, spvgen_op_u_less_than_equal(m, b, ek_add(m, k0, ek_u32(m, n * BK)), full_end));
    uint32_t cur = spvgen_load(m, x->tacc, accv);
    for (uint32_t j = 0; j < n; j++) cur = k_step(m, x, clamped, j ? ek_add(m, k0, ek_u32(m, j * BK)) : k0, cur);
    spvgen_store(m, accv, cur);
    spvgen_loop_continue_block(m);
    spvgen_store(m, kv, ek_add(m, k0, ek_u32(m, n * BK)));
    spvgen_end_loop(m);
  }
  if (d->k % BK) {
    /* The K edge (clamped) belongs to the slice that starts below K and ends past kfull. */
    spvgen_if(m, ek_and(m, ek_lt(m, s->k_begin, ek_u32(m, d->k)), ek_lt(m, kfull, s->k_end)));
    spvgen_store(m, accv, k_step(m, x, 1, kfull, spvgen_load(m, x->tacc, accv)));
    spvgen_end_if(m);
  }
  return spvgen_load(m, x->tacc, accv);
}

/* A split-K tile: this slice's K range, its partial tile to the workspace, the arrival;
 * the last slice sums every partial in slice order, runs the epilogue on the sum and
 * resets the counter. */
static void splitk_tile_path(spvgen_module *m, const cm2_ctx *x, int clamped) {
  const spvgen_gemm_desc *d = x->d;
  cm2_splitk *sk = x->sk;
  spvgen_component_type st = splitk_sum_type(x);
  spvgen_memory_operands mem = {gemm_splitk_access(&sk->s), 0, 0};
  const spvgen_memory_operands *memp = mem.mask ? &mem : NULL;
  uint32_t acc = splitk_k_loop(m, x, clamped);
  cm2_operand own;
  splitk_plane(m, x, sk->s.slice, &own);
  spvgen_tensor_operands tops = {own.view, 0};
  spvgen_coopmat_store_tensor(m, own.ptr, mconvert(m, x, acc, x->accm, st),
                              operand_slice(m, &own, clamped, x->bm, d->tile_m, x->bn, d->tile_n), memp,
                              own.view ? &tops : NULL);
  uint32_t lid = ek_load_u32(m, sk->lid_var);
  uint32_t last = gemm_splitk_arrive(m, &sk->s, ek_load_v3_component(m, sk->wg_var, 0),
                                     ek_load_v3_component(m, sk->wg_var, 1), lid);
  spvgen_if(m, last);
  gemm_splitk_acquire(m, &sk->s);
  cm2_ctx xs = *x;
  xs.accm = st;
  xs.tacc = acc_type_of(m, x, st);
  xs.zacc = spvgen_coop_splat(m, xs.tacc, spvgen_const_bits(m, ek_type(m, st), 0));
  uint32_t sumv = ek_local(m, xs.tacc, xs.zacc);
  uint32_t sv = ek_local(m, ek_u32_type(m), ek_u32(m, 0));
  spvgen_store(m, sumv, xs.zacc);
  spvgen_store(m, sv, ek_u32(m, 0));
  spvgen_loop(m, SpvLoopControlMaskNone);
  uint32_t slice = ek_load_u32(m, sv);
  spvgen_loop_while(m, ek_lt(m, slice, ek_u32(m, d->split_k)));
  {
    cm2_operand pl;
    splitk_plane(m, x, slice, &pl);
    spvgen_tensor_operands lops = {pl.view, 0};
    uint32_t part = spvgen_coopmat_load_tensor(m, xs.tacc, pl.ptr, xs.zacc,
                                               operand_slice(m, &pl, clamped, x->bm, d->tile_m, x->bn, d->tile_n),
                                               memp, pl.view ? &lops : NULL);
    uint32_t cur = spvgen_load(m, xs.tacc, sumv);
    spvgen_store(m, sumv, spvgen_coop_arith(m, ek_is_float(st) ? SpvOpFAdd : SpvOpIAdd, cur, part));
  }
  spvgen_loop_continue_block(m);
  spvgen_store(m, sv, ek_add(m, slice, ek_u32(m, 1)));
  spvgen_end_loop(m);
  epilogue(m, &xs, clamped, spvgen_load(m, xs.tacc, sumv));
  gemm_splitk_reset(m, &sk->s, lid);
  spvgen_end_if(m);
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
  uint32_t row = ek_add(m, p[3], p[0]), col = ek_add(m, p[4], p[1]);
  if (d->bias == SPVGEN_GEMM_BIAS_ROW) row = spvgen_glsl_u_min(m, u32, row, ek_u32(m, d->m - 1));
  if (d->bias == SPVGEN_GEMM_BIAS_COLUMN) col = spvgen_glsl_u_min(m, u32, col, ek_u32(m, d->n - 1));
  uint32_t v = ek_epilogue_bias_activation(m, &x->epi, p[2], row, col);
  if (et == SPVGEN_COMPONENT_F32 && !ek_is_float(d->out_type)) v = spvgen_glsl_round_even(m, t, v);
  spvgen_return_value(m, v);
  spvgen_function_end(m);
  return fn;
}

static void coopmat2_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  cm2_ctx x;
  memset(&x, 0, sizeof x);
  x.d = d;
  ek_buffer A, B;
  ek_gemm_buffers(m, d, &A, &B, &x.epi);
  /* 128-bit views of every matrix binding, the tensor instructions' base pointers. */
  uint32_t v4t = spvgen_type_vector(m, ek_u32_type(m), 4);
  ek_buffer A4 = ek_buffer_decl(m, v4t, 0, true, "A4"), B4 = ek_buffer_decl(m, v4t, 1, true, "B4");
  ek_buffer D4 = ek_buffer_decl(m, v4t, 2, false, "D4"), C4;
  memset(&C4, 0, sizeof C4);
  if (x.epi.c.var) C4 = ek_buffer_decl(m, v4t, 3, true, "C4");
  uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  x.accm = acc_matrix_type(d);
  if (needs_per_element(d)) x.pe_fn = per_element_fn(m, &x);
  cm2_splitk sk;
  if (d->split_k > 1) splitk_declare(m, p, &x, &sk, wg_var);
  cm2_stage stage;
  if (d->stages == 2) {
    memset(&stage, 0, sizeof stage);
    uint32_t es = spvgen_component_type_size(d->a_type), W = p->local_size[0];
    stage.v4t = v4t;
    stage.a4 = &A4;
    stage.b4 = &B4;
    stage.psh = spvgen_type_pointer(m, SpvStorageClassWorkgroup, v4t);
    stage.lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
    bool acol = d->a_layout == SPVGEN_COL_MAJOR, bcol = d->b_layout == SPVGEN_COL_MAJOR;
    stage.a.per_row = (acol ? d->tile_m : d->tile_k) * es / 16;
    stage.b.per_row = (bcol ? d->tile_k : d->tile_n) * es / 16;
    stage.a.chunks = d->tile_m * d->tile_k * es / 16 / W;
    stage.b.chunks = d->tile_k * d->tile_n * es / 16 / W;
    /* A row-major: stored rows are A's rows (BK wide), the step moves along them; column-
     * major: stored rows are K (BM wide), the step moves down ld. B likewise. */
    stage.a.layout = acol ? SpvCooperativeMatrixLayoutColumnMajorKHR : SpvCooperativeMatrixLayoutRowMajorKHR;
    stage.b.layout = bcol ? SpvCooperativeMatrixLayoutColumnMajorKHR : SpvCooperativeMatrixLayoutRowMajorKHR;
    stage.a.step = acol ? d->tile_k * (d->lda * es / 16) : d->tile_k * es / 16;
    stage.b.step = bcol ? d->tile_k * es / 16 : d->tile_k * (d->ldb * es / 16);
    uint32_t arr_a = spvgen_type_array(m, v4t, stage.a.chunks * W);
    uint32_t arr_b = spvgen_type_array(m, v4t, stage.b.chunks * W);
    stage.a.sh = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, arr_a), SpvStorageClassWorkgroup, 0);
    stage.b.sh = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, arr_b), SpvStorageClassWorkgroup, 0);
    spvgen_name(m, stage.a.sh, "stage_a");
    spvgen_name(m, stage.b.sh, "stage_b");
    x.st = &stage;
  }

  /* Workgroup-scope matrix types need the LocalSize first. */
  spvgen_name(m, spvgen_compute_main(m, "main", p->local_size[0], 1, 1), "main");
  x.ta = spvgen_type_coopmat(m, A.elem_type, SpvScopeWorkgroup, d->tile_m, d->tile_k,
                             SpvCooperativeMatrixUseMatrixAKHR);
  x.tb = spvgen_type_coopmat(m, B.elem_type, SpvScopeWorkgroup, d->tile_k, d->tile_n,
                             SpvCooperativeMatrixUseMatrixBKHR);
  x.tacc = acc_type_of(m, &x, x.accm);
  x.za = spvgen_coop_splat(m, x.ta, spvgen_const_bits(m, A.elem_type, 0));
  x.zb = spvgen_coop_splat(m, x.tb, spvgen_const_bits(m, B.elem_type, 0));
  x.zacc = spvgen_coop_splat(m, x.tacc, spvgen_const_bits(m, ek_type(m, x.accm), 0));
  x.muladd_ops = ek_is_float(d->a_type) ? 0 : SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES;

  x.bn = ek_mul(m, ek_load_v3_component(m, wg_var, 0), ek_u32(m, d->tile_n));
  x.bm = ek_mul(m, ek_load_v3_component(m, wg_var, 1), ek_u32(m, d->tile_m));
  uint32_t z = d->batch > 1 ? ek_load_v3_component(m, wg_var, 2) : ek_u32(m, 0);
  if (x.sk) z = splitk_ids(m, &x);
  /* Interior tiles (entirely inside M x N) skip the bounds checks. */
  bool any_interior = d->m >= d->tile_m && d->n >= d->tile_n;
  bool all_interior = d->m % d->tile_m == 0 && d->n % d->tile_n == 0;
  bool only_clamped = !all_interior && d->edge == SPVGEN_GEMM_EDGE_CLAMP;
  bool shift = !all_interior && any_interior && d->edge == SPVGEN_GEMM_EDGE_SHIFT;
  if (shift) { /* edge tiles move back inside: origin min(origin, M - BM), likewise N */
    uint32_t u32 = ek_u32_type(m);
    if (d->m % d->tile_m) x.bm = spvgen_glsl_u_min(m, u32, x.bm, ek_u32(m, d->m - d->tile_m));
    if (d->n % d->tile_n) x.bn = spvgen_glsl_u_min(m, u32, x.bn, ek_u32(m, d->n - d->tile_n));
  }
  if (x.st) { /* the tiles' first chunks at k = 0 (u32x4 units) */
    uint32_t es = spvgen_component_type_size(d->a_type);
    uint32_t bm4 = ek_div(m, ek_mul(m, x.bm, ek_u32(m, es)), ek_u32(m, 16));
    uint32_t bn4 = ek_div(m, ek_mul(m, x.bn, ek_u32(m, es)), ek_u32(m, 16));
    x.st->a.origin = d->a_layout == SPVGEN_COL_MAJOR ? bm4 : ek_mul(m, x.bm, ek_u32(m, d->lda * es / 16));
    x.st->b.origin = d->b_layout == SPVGEN_COL_MAJOR ? ek_mul(m, x.bn, ek_u32(m, d->ldb * es / 16)) : bn4;
  }
  operand_init(m, &x.a, &A, &A4, d->a_type, d->a_layout, d->m, d->k, d->lda, d->stride_a, d->batch, z, only_clamped);
  operand_init(m, &x.b, &B, &B4, d->b_type, d->b_layout, d->k, d->n, d->ldb, d->stride_b, d->batch, z, only_clamped);
  operand_init(m, &x.dd, &x.epi.d, &D4, d->out_type, d->d_layout, d->m, d->n, d->ldd, d->stride_d, d->batch, z,
               only_clamped);
  if (x.epi.c.var)
    operand_init(m, &x.c, &x.epi.c, &C4, d->out_type, d->c_layout, d->m, d->n, d->ldc, d->stride_c, d->batch, z,
                 only_clamped);

  if (all_interior || shift) {
    tile_path(m, &x, 0);
  } else if (!any_interior || only_clamped) {
    tile_path(m, &x, 1);
  } else {
    uint32_t in_m = spvgen_op_u_less_than_equal(m, ek_bool_type(m), x.bm, ek_u32(m, d->m - d->tile_m));
    uint32_t in_n = spvgen_op_u_less_than_equal(m, ek_bool_type(m), x.bn, ek_u32(m, d->n - d->tile_n));
    spvgen_if(m, ek_and(m, in_m, in_n));
    tile_path(m, &x, 0);
    spvgen_else(m);
    tile_path(m, &x, 1);
    spvgen_end_if(m);
  }
  spvgen_function_end(m);
}

const gemm_variant_ops gemm_variant_coopmat2 = {"coopmat2", coopmat2_plan, coopmat2_candidates, coopmat2_emit};
