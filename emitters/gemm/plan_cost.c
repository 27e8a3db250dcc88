/* emitters/gemm/plan_cost.c — what a plan costs before it runs: the driver's first
 * compile of its kernel, estimated from the plan's knobs, and the budget the planner
 * keeps to (spvgen/gemm.h, "Compile time is a planning cost").
 *
 * The model is fitted to first compiles with an empty driver cache (NVIDIA driver 580,
 * H200; bench/results/raw/gemm-h200-2026-11-26cc1.txt, the compile column against each
 * plan's estimate; scripts/gpu-gemm.sh --call prints a new matrix to refit it from).
 * coopmat2:
 *   - a base of 110 ms per pipeline;
 *   - the K loop's body, by the A and B elements it loads per invocation (8-bit ones
 *     count half), relative to 128x256x32 f16 over 256 invocations: 120 ms x body^1.6;
 *     superlinear, as unroll 1 / 2 / 4 measured 245 / 564-598 / 991-1079 ms (the first
 *     compile of a process reads up to 500 ms more: 1591 for unroll 4);
 *   - a clamped path (edge tiles, or every tile with clamp) multiplies its loop by
 *     1 + 0.6 per clamped operand (A past M, B past N, D always): 653 ms for unroll 1
 *     with all three against 224 unclamped;
 *   - a K edge (K not a multiple of tile_k) is one clamped step across A's and B's K,
 *     the costliest code the driver makes: 2500 ms x body beside unclamped loops (shift
 *     with a K edge: 3470-4993 ms against 598-726 without), 1200 in a kernel that clamps
 *     anyway (clamp unroll 1 at 4097x4095x4093: 1614-1825);
 *   - two paths (branch) cost 1.3 x their sum; with both operands packed the branch is
 *     around the epilogue only (one loop), whose two stores still cost: the loop x 2
 *     (docs/design-notes.md, "192-wide tiles, packed odd shapes");
 *   - split-K is two pipelines: the partials kernel, the unsplit tile's K loop with a
 *     store of its accumulator and no epilogue (estimated as the unsplit kernel without
 *     its epilogue's extras), then the element-wise reduction, a small kernel (1-15 ms
 *     measured on the H100; 15 here). (The single-dispatch form, which had the sum and the
 *     epilogue inside, took 1093-1698 ms where the same tile unsplit took 238-347: H100,
 *     bench/results/raw/gpu-2026-11-26-s4/callA2-tune-prompt-h100.txt);
 *   - a run-time kernel with an unrolled loop has a rolled loop for the leftover steps
 *     unless its class's K is a multiple of the unrolled steps; a fixed one a second loop
 *     for the iterations past a multiple of 8 (k_loop), a loop body more, or nothing
 *     where that loop is rolled (SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL; docs/design-notes.md,
 *     "The split K loop on every tile").
 * khr: 120 ms + 150 ms per 128x256 tile of 64 bytes of K; per-element gathers (an operand
 * without 16-byte loads) 2.5x the tile part, the fetch of the K-edge tile beside the fast
 * one 1.3x, run-time shapes 1.4x (128x256: 251-394 ms, 739 with gathers, 408-1057 run-time).
 * Both cooperative variants: an 8-bit operand that is not K-contiguous (A column-major,
 * B row-major), read in place, multiplies the whole estimate by 2.4 (H100, s8
 * 2048x2048x4096: nt / nn / tn 389 / 623 / 1,703 ms at 256x128x64, 289 / 774 / 1,466 at
 * 128x128x64 u2; khr tn 128x256x64 split 66 ways 1,548 ms against ~285 estimated without
 * it). A packed plan that copies such an operand transposed (pack_order K) is the nt
 * kernel's estimate plus the pack kernel's.
 * The figures are noisy (the same kernel read 991 and 1591 ms in two processes): the
 * model ranks plans and keeps the defaults within the budget; it is not a stopwatch. */
#include <math.h>

#include "gemm_cost.h"
#include "gemm_internal.h"

/* Default budgets: what a plan may cost when the desc leaves compile_budget_ms at 0. */
#define BUDGET_DEFAULT_MS 300u
#define BUDGET_LONG_RUN_MS 1000u /* a FIXED shape whose run is estimated at >= 1 ms */

#define CM2_BASE_MS 110.0       /* any coopmat2 pipeline */
#define CM2_LOOP_MS 120.0       /* the K loop's body at the reference size, unclamped */
#define CM2_LOOP_EXP 1.6        /* superlinear in the body's size (unroll 1 / 2 / 4: 230 / 475 / 1210 ms) */
#define CM2_WIDE_TILE_FACTOR 5.0 /* the unrolled loop of a 256x256 tile */
#define CM2_ROLLED_BASE_MS 30.0 /* a pipeline whose main K loop is rolled (DontUnroll) */
#define CM2_ROLLED_LOOP_MS 70.0 /* its loop, 128x256 accumulators over 256 invocations, unroll 1 */
#define CM2_CLAMP_PER_OPERAND 0.6 /* a clamped path: the loop body x (1 + 0.6 per clamped operand) */
#define CM2_KEDGE_SOLO_MS 2500.0  /* a clamped K-edge step beside unclamped loops (shift, branch's interior) */
#define CM2_KEDGE_CLAMPED_MS 1200.0 /* the same in a kernel that clamps anyway */
#define CM2_TWO_PATH_FACTOR 1.3
#define CM2_STORE_BRANCH 1.0    /* both operands packed, branch: two stores beside one loop */
#define SPLITK_REDUCE_MS 15.0     /* split-K's second pipeline, the element-wise reduction (1-15 ms measured) */
#define KHR_BASE_MS 120.0
#define KHR_AREA_MS 150.0       /* per 128x256 of tile, 64 bytes of K */
#define KHR_SCALAR_FACTOR 2.5   /* an operand without 16-byte loads: per-element gathers */
#define KHR_RUNTIME_FACTOR 1.4
#define KHR_KEDGE_FACTOR 1.3    /* the checked fetch beside the fast one */
#define KHR_ROLLED_FACTOR 0.15  /* the K loop DontUnroll (a quick form): 3000^3 128x256x32 141-149 ms
                                   against 444-485 unrolled (H100, call S17-3) */
#define SIMT_MS 60.0
#define COOP_8BIT_ALONG_MN_FACTOR 2.4 /* per 8-bit operand not K-contiguous, read in place */

/* The loop body of a coopmat2 kernel relative to 128x256x32 f16 at unroll 1 over 256
 * invocations: the A and B elements it loads per invocation (8-bit ones count half:
 * their K steps are twice as long for the same MulAdd instructions; the s8 128x128x128
 * kernel compiles in 190 ms at unroll 1 and 432 at 2), capped by the multiply-adds per
 * invocation (CM2_BODY_MADD_CAP times their share of 128x256x32's over 256).
 *
 * The cap is for small tiles: a 64x32x64 tile over 64 invocations loads twice the
 * reference's elements per invocation, and the loads body put its clamped kernel at 910 ms,
 * where it compiled in 120-253 ms (H100, call S21-6; 32x32x64 w64 75-162 ms against 528,
 * 64x64x64 w128 91-139 ms against 528 at K 256). The driver's work follows the MulAdds
 * per invocation there (session 12's refit found the same over every recorded compile).
 * The cap binds where 1/tile_m + 1/tile_n > 1.6 x 48 / 4096 (whatever the workgroup, K
 * depth and unroll): tiles with a side under 128. From 128x128 up the loads body is the
 * smaller, so the big tiles' estimates, and the budget's choices among them, are as before
 * (docs/design-notes.md, "The compile model's small tiles (session 22)").
 * Not in a kernel of two K loops (branch: an unclamped and a clamped path): the one such
 * small kernel measured, 32x32x64 w64 at 48 x 200 x 512, compiled in 661 ms against 247
 * capped and 1049 uncapped (H200, call S22-2). Nor in a run-time class, whose compiles
 * the model already puts low (measured / estimate 1.66 over 81 recorded points): capped,
 * 32x64x64 w256 split-K classes read 623-765 ms against 391 (S22-2); nor for a fixed
 * stand-in of one (gemm_plan_runtime_stand_in): the MLP layers plans whose GEMM knobs it
 * moved ran 0.58-1.01x (S22-5). */
#define CM2_BODY_MADD_CAP 1.6

/* Set only inside gemm_plan_runtime_stand_in: the fixed desc being planned stands in for
 * a run-time class, and takes the class's compile model (uncapped). Per thread: planning
 * is reentrant and contexts plan on threads of their own. */
static _Thread_local bool cost_as_runtime_class;

spvgen_status gemm_plan_runtime_stand_in(const spvgen_gemm_desc *fixed, const spvgen_device_caps *caps,
                                         spvgen_gemm_config *out, char *msg, size_t size) {
  const bool outer = cost_as_runtime_class;
  cost_as_runtime_class = true;
  const spvgen_status st = spvgen_gemm_plan(fixed, caps, out, msg, size);
  cost_as_runtime_class = outer;
  return st;
}
/* Whether the kernel has two K loops (edge branch: an unclamped interior path and a clamped
 * edge path): cm2_compile's last case, the one definition both use. */
static bool cm2_two_paths(const spvgen_gemm_desc *d) {
  const bool edges = !gemm_dim_multiple(d, 'm', d->tile_m) || !gemm_dim_multiple(d, 'n', d->tile_n);
  const bool fixed_small = !gemm_runtime(d) && (d->m < d->tile_m || d->n < d->tile_n);
  return edges && d->edge != SPVGEN_GEMM_EDGE_SHIFT && d->edge != SPVGEN_GEMM_EDGE_CLAMP && !fixed_small &&
         !cm2_store_only_branch(d);
}

static double cm2_body(const spvgen_gemm_desc *d, uint32_t u) {
  const double wg = d->workgroup_size ? d->workgroup_size : 256;
  double loads = (double)(d->tile_m + d->tile_n) * d->tile_k * u / wg / (384.0 * 32.0 / 256.0);
  double madds = (double)d->tile_m * d->tile_n * d->tile_k * u / wg / (128.0 * 256.0 * 32.0 / 256.0);
  if (spvgen_component_type_size(d->a_type) == 1) {
    loads *= 0.5;
    madds *= 0.5;
  }
  const double cap = CM2_BODY_MADD_CAP * madds;
  return loads < cap || cm2_two_paths(d) || gemm_runtime(d) || cost_as_runtime_class ? loads : cap;
}

/* The main K loop marked DontUnroll (SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL: a plan's quick
 * form, spvgen_gemm_plan_quick) is compiled as written: about linear in the accumulator
 * tile per invocation and sublinear in the unroll knob's steps. H100, call S17-2 (total
 * first compiles): 128x128x64 u1 58-69 ms, 128x256x32 u1 74-105, u2 143, u4 285, 256x256x32
 * u1 222 (the same kernels unrolled by the driver: 317-352, 337-397, 788-895, -, 1135). */
static bool cm2_rolled(const spvgen_gemm_desc *d) { return (d->codegen & SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL) != 0; }

static double cm2_loop(const spvgen_gemm_desc *d, uint32_t u) {
  if (cm2_rolled(d)) {
    double area = (double)d->tile_m * d->tile_n / (d->workgroup_size ? d->workgroup_size : 256) / 128.0;
    return CM2_ROLLED_LOOP_MS * area * pow((double)u, 0.8);
  }
  double ms = CM2_LOOP_MS * pow(cm2_body(d, u), CM2_LOOP_EXP);
  /* 256x256 tiles (16-bit accumulators: the only ones that fit): the driver takes 3-4x
   * what the body predicts. 4096^3 f16 at unroll 1: 1,105-1,135 ms on the H100 (calls
   * S17-2, S17-3), 810-822 on the H200 (S15-3), against 300 estimated without this. */
  if ((uint64_t)d->tile_m * d->tile_n >= 256u * 256u) ms *= CM2_WIDE_TILE_FACTOR;
  return ms;
}

static double cm2_compile(const spvgen_gemm_desc *d) {
  uint32_t u = d->unroll ? d->unroll : 1, ue = d->edge_unroll ? d->edge_unroll : u;
  bool m_edge = !gemm_dim_multiple(d, 'm', d->tile_m), n_edge = !gemm_dim_multiple(d, 'n', d->tile_n);
  bool k_edge = !gemm_dim_multiple(d, 'k', d->tile_k);
  bool edges = m_edge || n_edge;
  bool fixed_small = !gemm_runtime(d) && (d->m < d->tile_m || d->n < d->tile_n);
  /* the operands an edge tile clamps: A past M, B past N, D (and C) past either */
  /* (packed copies hold whole tiles: A's rows and B's columns never clamp; the inner
   * desc's K is whole tiles when both are packed) */
  const bool a_clamps = m_edge && !gemm_packs(d, 'a'), b_clamps = n_edge && !gemm_packs(d, 'b');
  double clamp_f = 1.0 + CM2_CLAMP_PER_OPERAND * ((double)a_clamps + (double)b_clamps + 1.0);
  double rest = 0.0; /* RUNTIME: the single steps after an unrolled loop */
  const bool masked = cm2_masked_k_edge(d); /* an unclamped step and a per-element op */
  const double kedge_solo = masked ? 0.3 * cm2_loop(d, 1) : CM2_KEDGE_SOLO_MS * cm2_body(d, 1);
  const double kedge_clamped = masked ? 0.3 * cm2_loop(d, 1) : CM2_KEDGE_CLAMPED_MS * cm2_body(d, 1);
  if (!gemm_k_const(d) && u > 1 && !gemm_dim_multiple(d, 'k', u * d->tile_k)) rest = cm2_loop(d, 1);
  /* FIXED: the iterations past a multiple of 8 run in a second loop (coopmat2.c, k_loop),
   * which the driver unrolls: a loop body more; rolled (REST_NO_UNROLL) it measured a
   * small share of the kernel, within this model's spread, and counts nothing */
  if (cm2_rest_loop(d) && !(d->codegen & SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL)) rest += cm2_loop(d, u);
  double ms;
  if (!edges || d->edge == SPVGEN_GEMM_EDGE_SHIFT) {
    ms = cm2_loop(d, u) + rest + (k_edge ? kedge_solo : 0.0);
  } else if (d->edge == SPVGEN_GEMM_EDGE_CLAMP || fixed_small) {
    ms = (cm2_loop(d, u) + rest) * clamp_f + (k_edge ? kedge_clamped : 0.0);
  } else if (!cm2_two_paths(d)) { /* both operands packed: one loop; the epilogue twice, the second clamped */
    ms = (cm2_loop(d, u) + rest) * (1.0 + CM2_STORE_BRANCH);
  } else { /* branch: an unclamped and a clamped path (cm2_two_paths) */
    double inner = cm2_loop(d, u) + rest + (k_edge ? kedge_solo : 0.0);
    double outer = cm2_loop(d, ue) * clamp_f + (k_edge ? kedge_clamped : 0.0);
    ms = (inner + outer) * CM2_TWO_PATH_FACTOR;
  }
  double extra = 1.0;
  if (d->split_k <= 1) { /* split-K: the epilogue is the reduction's */
    if (cm2_needs_per_element(d)) extra += 0.1;
    if (d->beta != 0.0f) extra += 0.1;
  }
  if (d->stages == 2) extra += 0.5;
  return (cm2_rolled(d) ? CM2_ROLLED_BASE_MS : CM2_BASE_MS) + ms * extra;
}

static double khr_compile(const spvgen_gemm_desc *d) {
  double area = (double)d->tile_m * d->tile_n / (128.0 * 256.0) *
                ((double)d->tile_k * spvgen_component_type_size(d->a_type) / 64.0);
  double ms = KHR_AREA_MS * area;
  if (!gemm_operand_16b(d, true) || !gemm_operand_16b(d, false)) ms *= KHR_SCALAR_FACTOR;
  if (!gemm_dim_multiple(d, 'k', d->tile_k) && !(d->codegen & SPVGEN_GEMM_CODEGEN_CHECK_ALL)) ms *= KHR_KEDGE_FACTOR;
  if (d->codegen & SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL) ms *= KHR_ROLLED_FACTOR;
  ms += KHR_BASE_MS;
  return gemm_runtime(d) ? ms * KHR_RUNTIME_FACTOR : ms;
}

/* The cooperative loads' byte shuffles of 8-bit operands stored along M or N (the inner
 * desc of a packed plan has its copies' layouts: a transposed copy counts as K-contiguous). */
static double coop_8bit_factor(const spvgen_gemm_desc *d) {
  if (spvgen_component_type_size(d->a_type) != 1) return 1.0;
  double f = 1.0;
  if (!gemm_k_contiguous(d, 'a')) f *= COOP_8BIT_ALONG_MN_FACTOR;
  if (!gemm_k_contiguous(d, 'b')) f *= COOP_8BIT_ALONG_MN_FACTOR;
  return f;
}

uint32_t gemm_compile_ms(const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  double ms;
  switch (p->variant) {
  case SPVGEN_GEMM_COOPMAT2: ms = cm2_compile(d) * coop_8bit_factor(d); break;
  case SPVGEN_GEMM_COOPMAT_KHR: ms = khr_compile(d) * coop_8bit_factor(d); break;
  default: ms = SIMT_MS * (0.5 + (double)d->tile_m * d->tile_n / (64.0 * 64.0) / 2.0); break;
  }
  if (d->split_k > 1) ms += SPLITK_REDUCE_MS; /* the second pipeline */
  if (gemm_packed(d)) ms += GEMM_PACK_KERNEL_MS;
  if (ms < 1.0) ms = 1.0;
  return ms > 3.6e6 ? 3600000u : (uint32_t)(ms + 0.5);
}

uint32_t gemm_budget_ms(const spvgen_gemm_desc *d) {
  if (d->compile_budget_ms) return d->compile_budget_ms;
  if (gemm_runtime(d)) return BUDGET_DEFAULT_MS;
  /* A run of 1 ms or more (at ~200 TFLOP/s) pays back up to a second of compile. */
  double flops = 2.0 * d->m * (double)d->n * d->k * d->batch;
  return flops / 200e12 >= 1e-3 ? BUDGET_LONG_RUN_MS : BUDGET_DEFAULT_MS;
}

/* --------------------------------------------------------- speed estimates ---- */

/* khr's tile rate against coopmat2's best tiling (rate 1.0), fitted on the recorded GPU times
 * of plans of one shape measured in one call (tools/speed_fit.py: each plan's measured speed
 * against the fastest plan of its shape, over the model's; docs/design-notes.md, "The khr
 * tile's speed, fitted (session 22)"): KHR_PEAK x (tile area / 128x256)^KHR_AREA_EXP, and
 * KHR_HALF_WIDE more for the 128x64 and 64x128 tiles. The guess before (0.92 x area^0.25)
 * rated khr 0.85 of what it ran at 128x256 and 0.60-0.77 at the 128x64, 64x128 and 64x64
 * tiles (median measured / estimated relative speed, 16-55 plans each); the fit puts every
 * khr class within 0.93-1.02. */
#define KHR_PEAK 0.84      /* 128x256: 0.85 of the old 0.92 (55 plans) */
#define KHR_AREA_EXP 0.35  /* 64x64: 0.77 of area^0.25's rate, 32x32 0.65, 128x128 0.79 */
/* 128x64 and 64x128 (4 subgroups of 64x32 warp tiles) ran at 0.60-0.62 of the old estimate,
 * slower than 64x64 on the same shapes (callA2, H100, K 3584: 0.372-0.443 ms against
 * 0.348-0.433): 0.78 of what their area gives. */
#define KHR_HALF_WIDE 0.78

static double khr_tile_rate(const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  double area = (double)d->tile_m * d->tile_n / (128.0 * 256.0);
  double s = KHR_PEAK * pow(area < 1.0 ? area : 1.0, KHR_AREA_EXP);
  if ((d->tile_m == 128 && d->tile_n == 64) || (d->tile_m == 64 && d->tile_n == 128)) s *= KHR_HALF_WIDE;
  if (!gemm_operand_16b(d, true) || !gemm_operand_16b(d, false)) s *= 0.6;
  return s;
}

double gemm_tile_coverage(const spvgen_gemm_desc *d) {
  if (!d->m || !d->n || !d->tile_m || !d->tile_n) return 1.0;
  double gm = (double)gemm_ceil_div(d->m, d->tile_m) * d->tile_m, gn = (double)gemm_ceil_div(d->n, d->tile_n) * d->tile_n;
  return (double)d->m / gm * ((double)d->n / gn);
}

double khr_speed(const spvgen_device_caps *caps, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  /* split-K: every slice is a workgroup of the grid, as in cm2_speed */
  uint64_t tiles = (uint64_t)gemm_ceil_div(d->m, d->tile_m) * gemm_ceil_div(d->n, d->tile_n) * d->batch *
                   (d->split_k > 1 ? d->split_k : 1);
  return khr_tile_rate(p) * gemm_wave_efficiency(tiles, gemm_units(caps)) * gemm_tile_coverage(d);
}

/* The simt variant's rate against coopmat2's best tiling: scalar FMAs, a small share of
 * the tensor cores' throughput (it only ranks simt's own plans against each other). */
#define SIMT_RATE 0.05

double gemm_tile_rate(const spvgen_gemm_config *p) {
  switch (p->variant) {
  case SPVGEN_GEMM_COOPMAT2: return cm2_tile_rate(p);
  case SPVGEN_GEMM_COOPMAT_KHR: return khr_tile_rate(p);
  default: return SIMT_RATE;
  }
}

/* ------------------------------------------------------------ loop budget ---- */

uint64_t gemm_loop_passes(const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  const bool runtime = gemm_runtime(d);
  /* the longest K one invocation loops over: a slice, or K (RUNTIME: the launch keeps
   * every slice, and an unsplit plan's K, within SPVGEN_GEMM_MAX_SERIAL_K) */
  const bool kmax_unknown = runtime && (!d->k_fixed || d->split_k > 1); /* a class of one K, unsplit: K */
  uint64_t kmax = kmax_unknown ? SPVGEN_GEMM_MAX_SERIAL_K : d->split_k > 1 ? p->slice_k : d->k;
  if (!runtime && d->split_k <= 1 && gemm_packs(d, 'a') && gemm_packs(d, 'b')) kmax = ((uint64_t)d->k + 255u) & ~255ull;
  const uint32_t tk = d->tile_k ? d->tile_k : 1, u = d->unroll ? d->unroll : 1;
  /* the K loop counted at one step per pass (an edge path may run unroll 1), plus a
   * run-time kernel's loop over the steps an unrolled loop leaves */
  uint64_t main = (kmax + tk - 1) / tk + 1 + (!gemm_k_const(d) && u > 1 ? u + 1 : 0);
  if (p->variant == SPVGEN_GEMM_COOPMAT_KHR && p->subgroup_size) /* the element-wise epilogue's loops */
    main += (uint64_t)(p->warp_m / 16u) * (16u * p->warp_n / p->subgroup_size + 1u);
  /* the reduction: one pass per slice (RUNTIME: as many as a launch may have) */
  uint64_t reduce = d->split_k > 1 ? (runtime ? SPVGEN_GEMM_MAX_SPLIT_K : d->split_k) + 1u : 0;
  return main > reduce ? main : reduce;
}

spvgen_status gemm_check_loop_budget(const spvgen_gemm_config *p, char *msg, size_t size) {
  uint64_t passes = gemm_loop_passes(p);
  if (passes <= GEMM_LOOP_BUDGET) return SPVGEN_OK;
  return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                   "the plan's kernels would run %llu loop passes per invocation, over the %u that lavapipe "
                   "runs before it ends every loop without an error (a larger tile_k or more K slices)",
                   (unsigned long long)passes, GEMM_LOOP_BUDGET);
}
