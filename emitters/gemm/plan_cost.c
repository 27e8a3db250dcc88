/* emitters/gemm/plan_cost.c — what a plan costs before it runs: the driver's first
 * compile of its kernel, estimated from the plan's knobs, and the budget the planner
 * keeps to (spvgen/gemm.h, "Compile time is a planning cost").
 *
 * The model is fitted to first compiles with an empty driver cache (NVIDIA driver 580,
 * H200, issue 24 of 2026-11-26; bench/results/ holds the compile matrix that refits it,
 * scripts/gpu-gemm.sh prints a new one):
 *   coopmat2 128x256x32, 256 invocations, unclamped K step:  unroll 1 224 ms, unroll 4 991
 *   the same, every load clamped:                            unroll 1 653 ms, unroll 4 3018
 *   two paths (unclamped and clamped copies, unroll 4):      9-46 s
 *   KHR 128x256: 222 ms, 128x128: 129 ms
 * so a coopmat2 kernel costs about 224 ms x u^1.07 per unclamped K loop and 653 ms x
 * u^1.1 per clamped one for a 4096-MulAdd-per-invocation step (128x256x32 / 256), scaled
 * by the step's work per invocation; a K edge step is one clamped step (4097x4095x4093
 * clamp u1: 1300 ms = 653 + 653); a kernel with both paths costs three times their sum
 * (the smallest factor the measurements allow); the epilogue's per-element function, a
 * C operand and split-K's summation add a little each. */
#include <math.h>

#include "gemm_internal.h"

/* Default budgets: what a plan may cost when the desc leaves compile_budget_ms at 0. */
#define BUDGET_DEFAULT_MS 300u
#define BUDGET_LONG_RUN_MS 1000u /* a FIXED shape whose run is estimated at >= 1 ms */

#define CM2_STEP_MS 224.0      /* one unclamped K step, 4096 MulAdd elements per invocation */
#define CM2_CLAMPED_MS 653.0   /* one clamped K step */
#define CM2_TWO_PATH_FACTOR 3.0
#define KHR_BASE_MS 60.0
#define KHR_AREA_MS 160.0      /* per 128x256 of tile */
#define SIMT_MS 60.0

/* MulAdd work of one K step per invocation, relative to 128x256x32 over 256. */
static double step_work(const spvgen_gemm_desc *d) {
  double w = (double)d->tile_m * d->tile_n * d->tile_k / (d->workgroup_size ? d->workgroup_size : 256);
  return w / (128.0 * 256.0 * 32.0 / 256.0);
}

static double cm2_compile(const spvgen_gemm_desc *d) {
  double w = step_work(d);
  uint32_t u = d->unroll ? d->unroll : 1, ue = d->edge_unroll ? d->edge_unroll : u;
  bool m_edge = !gemm_dim_multiple(d, 'm', d->tile_m), n_edge = !gemm_dim_multiple(d, 'n', d->tile_n);
  bool k_edge = !gemm_dim_multiple(d, 'k', d->tile_k);
  bool edges = m_edge || n_edge;
  bool fixed_small = !gemm_runtime(d) && (d->m < d->tile_m || d->n < d->tile_n);
  double fast = CM2_STEP_MS * w * pow(u, 1.07);
  double clamped_u = CM2_CLAMPED_MS * w * pow(u, 1.1), clamped_e = CM2_CLAMPED_MS * w * pow(ue, 1.1);
  double tail = k_edge ? CM2_CLAMPED_MS * w : 0.0;
  double ms;
  if (!edges || d->edge == SPVGEN_GEMM_EDGE_SHIFT) ms = fast + tail;
  else if (d->edge == SPVGEN_GEMM_EDGE_CLAMP || fixed_small) ms = clamped_u + tail;
  else ms = (fast + clamped_e + tail) * CM2_TWO_PATH_FACTOR; /* branch: two paths */
  if (gemm_runtime(d) && u > 1) ms += CM2_STEP_MS * w; /* the rolled loop of leftover steps */
  double extra = 1.0;
  if (cm2_needs_per_element(d)) extra += 0.1;
  if (d->beta != 0.0f) extra += 0.1;
  if (d->split_k > 1) extra += 0.3;
  if (d->stages == 2) extra += 0.5;
  return ms * extra;
}

uint32_t gemm_compile_ms(const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  double ms;
  switch (p->variant) {
  case SPVGEN_GEMM_COOPMAT2: ms = cm2_compile(d); break;
  case SPVGEN_GEMM_COOPMAT_KHR:
    ms = KHR_BASE_MS + KHR_AREA_MS * (double)d->tile_m * d->tile_n / (128.0 * 256.0) *
                           ((double)d->tile_k * spvgen_component_type_size(d->a_type) / 64.0);
    break;
  default: ms = SIMT_MS * (0.5 + (double)d->tile_m * d->tile_n / (64.0 * 64.0) / 2.0); break;
  }
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
