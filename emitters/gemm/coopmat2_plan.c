/* emitters/gemm/coopmat2_plan.c — how the coopmat2 variant (coopmat2.c) plans a GEMM:
 * the device checks, the list of tilings and the cost model that picks one, the K step
 * and unroll defaults, the edge mode, and the candidates the tuner times.
 *
 * Tiles: a small cost model over a fixed list from 128x256 / 256x128 (W 256, the
 * big-problem tiles; llama.cpp's "l" tile) through 128x128 (W 256), 64x128 / 128x64 /
 * 64x64 / 32x64 (W 128) down to 32x32 (W 64), and 192-wide tiles where 192 divides the
 * extent or the operands are packed: estimated time = the tiles the busiest SM
 * runs x tile area / tile efficiency (tile_cost; efficiency less for K steps that read half
 * cache lines of K-contiguous rows), ranked with the unroll and edge mode the compile
 * budget allows, so big problems get the big tiles and skinny ones get small tiles that
 * fill the device's SMs (caps->compute_units; 132 when unknown).
 * BK is 64 for 16-bit inputs and 128 for 8-bit ones (128 bytes of each row per step),
 * less when K is smaller. Every tile is a multiple of the device's flexible-dimension
 * granularity for W (the h100 preset: 32x32x16 at 256, 32x16x16 at 128, 16x16x16 at 64;
 * K granularity 32 for int8). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gemm_internal.h"

/* ------------------------------------------------------------------- plan ---- */

typedef struct cm2_tile {
  uint32_t m, n, k, wg;
  float eff;       /* relative efficiency of the tile shape (cost model) */
  float short_eff; /* its efficiency in a short K loop (short_k_loop; 0: eff) */
} cm2_tile;

/* The tilings the variant chooses from (k: for 16-bit inputs; doubled for 8-bit ones). */
static const cm2_tile TILES[] = {
    {128, 256, 64, 256, 1.00f, 0}, {256, 128, 64, 256, 0.40f, 0}, {128, 128, 64, 256, 0.88f, 0},
    {64, 128, 64, 128, 0.56f, 0},  {128, 64, 64, 128, 0.58f, 0},  {64, 64, 64, 128, 0.60f, 0},
    {32, 64, 64, 128, 0.44f, 0},   {64, 32, 64, 64, 0.44f, 0},    {32, 32, 64, 64, 0.40f, 0},
    {128, 256, 32, 256, 1.00f, 0}, {128, 128, 32, 256, 0.84f, 1.10f}, {256, 128, 32, 256, 0.98f, 0},
    {64, 64, 32, 128, 0.52f, 0},   {256, 256, 32, 256, 0.90f, 0}, {128, 128, 32, 128, 0.92f, 0},
    {256, 256, 64, 256, 0.88f, 0},
    {128, 128, 64, 128, 0.76f, 0}, {64, 256, 32, 128, 0.80f, 0},  {256, 64, 32, 128, 0.52f, 0},
    /* 192 wide: tiles where 128 and 256 quantize badly (3072 = 16 x 192 = 12 x 256);
     * candidates only where they divide the extent or both operands are packed
     * (tile_192_fits). 192x192 for f16 accumulators only (tile_192_fits). */
    {128, 192, 64, 256, 1.15f, 0}, {192, 128, 64, 256, 1.13f, 0}, {192, 192, 32, 256, 1.00f, 0},
};
#define TILE_COUNT (sizeof TILES / sizeof TILES[0])
#define SMALLEST_TILE_EFF 0.40f /* a tiling the table lacks: rated as its smallest (32x32x64) */

static bool is_8bit(spvgen_component_type t) { return spvgen_component_type_size(t) == 1; }

static uint64_t needed_features(const spvgen_gemm_desc *d) {
  uint64_t f = SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE | SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS |
               SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING | SPVGEN_FEATURE_COOPMAT;
  if (cm2_needs_per_element(d) || cm2_masked_k_edge(d)) f |= SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS;
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
  spvgen_component_type acc = cm2_acc_matrix_type(d);
  cm2_flex x = {spvgen_caps_find_coopmat_flex(caps, SpvScopeWorkgroup, 0, d->a_type, d->b_type, acc, acc),
                0, NULL};
  return x;
}

/* Checks one tiling against the device; NULL when it fits, else writes the reason.
 * fl: flex_lookup's answer for d (its cache updated). */
static spvgen_status check_tile(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                cm2_flex *fl, const cm2_tile *t, const spvgen_coopmat_flex **flex_out,
                                char *msg, size_t size) {
  spvgen_component_type acc = cm2_acc_matrix_type(d);
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
 * model's shape efficiency: 16-bit inputs with f16 accumulators 256x256x32, with f32
 * accumulators 128x256x32 (256x256 needs more registers than there are), 8-bit inputs
 * 256x128x64; tilings with K 16 do too little work per tensor load. The figures:
 * docs/design-notes.md, "Measurements behind source comments". */
static float tile_bonus(const spvgen_gemm_desc *d, const cm2_tile *base) {
  if (is_8bit(d->a_type)) return base->m == 256 && base->n == 128 && base->k == 32 ? 1.25f : 1.0f;
  if (spvgen_component_type_size(d->acc_type) == 2)
    return base->m == 256 && base->n == 256 && base->k == 32 ? 1.2f : 1.0f;
  return 1.0f; /* f32 accumulators: unroll_bonus */
}

/* 128x256x32 with f32 accumulators gains from an unrolled loop what a 64-deep K step has
 * by itself: the best tiling at unroll 4, behind 128x256x64 at unroll 1. */
static double unroll_bonus(const spvgen_gemm_desc *d, uint32_t unroll) {
  bool f32_acc = !is_8bit(d->a_type) && spvgen_component_type_size(d->acc_type) == 4;
  return f32_acc && unroll >= 2 && d->tile_m == 128 && d->tile_n == 256 && d->tile_k == 32 ? 1.08 : 1.0;
}

/* A short K loop: a plan of a constant K (FIXED, or a class of one K; one K slice) with
 * 16-bit inputs and 4-byte accumulators whose K is at most GEMM_K_LOOP_GROUP steps of 32.
 * There the 128x128x32 tile is the fastest of the menu: 1.08-1.34x the default plan at K
 * 128 and 0.96-1.18x at K 256, N 256 to 4096, nt and nn, where from 16 steps on it is the
 * slowest (docs/design-notes.md,
 * "Short K: a fixed cost per tile"): the table gives it a short-loop efficiency (1.10,
 * above 128x256x32's 1.00, which ran 0.75-0.92x of it there), and half-cache-line K steps
 * cost nothing in such a loop. */
static bool short_k_loop(const spvgen_gemm_desc *d, uint32_t tk) {
  return gemm_k_const(d) && d->split_k <= 1 && tk == 32 && spvgen_component_type_size(d->a_type) == 2 &&
         spvgen_component_type_size(d->acc_type) == 4 && d->k && gemm_ceil_div(d->k, tk) <= GEMM_K_LOOP_GROUP;
}

/* A K step that reads under 128 bytes of each row of an operand whose rows run along K
 * (A row-major, B column-major: N x K weights) reads half cache lines: the tile's
 * efficiency x (1 - 0.13 x the share of the step's bytes read so); not in a short K loop
 * (short_k_loop). */
static double kline_factor(const spvgen_gemm_desc *d, uint32_t tm, uint32_t tn, uint32_t tk) {
  if (short_k_loop(d, tk)) return 1.0;
  uint32_t es = spvgen_component_type_size(d->a_type);
  bool short_k = tk * es < 128;
  double a = (double)tm * tk, b = (double)tn * tk, sh = 0.0;
  if (short_k && d->a_layout == SPVGEN_ROW_MAJOR) sh += a;
  if (short_k && d->b_layout == SPVGEN_COL_MAJOR) sh += b;
  return 1.0 - 0.13 * sh / (a + b);
}

/* A desc's knobs applied to a tiling of the table; K step fitted to the problem. */
/* A table tiling's efficiency for d at K step k: its short-loop one where it has one and
 * the loop is short, else its own with tile_bonus. */
static float table_eff(const spvgen_gemm_desc *d, const cm2_tile *b, uint32_t k) {
  if (b->short_eff > 0.0f && b->k == k && short_k_loop(d, k)) return b->short_eff;
  return b->eff * tile_bonus(d, b);
}

/* The table's efficiency of a tiling: its exact entry (m x n, workgroup, K step), else the
 * first of its m x n and workgroup (a K step fitted to a short K), else the smallest
 * tile's. */
static float tiling_eff(const spvgen_gemm_desc *d, uint32_t m, uint32_t n, uint32_t k, uint32_t wg) {
  const cm2_tile *same = NULL;
  for (size_t i = 0; i < TILE_COUNT; i++) {
    const cm2_tile *b = &TILES[i];
    if (b->m != m || b->n != n || b->wg != wg) continue;
    if ((is_8bit(d->a_type) ? b->k * 2 : b->k) == k) {
      same = b;
      break;
    }
    if (!same) same = b;
  }
  return same ? table_eff(d, same, k) : SMALLEST_TILE_EFF;
}

static cm2_tile fit_tile(const spvgen_gemm_desc *d, const cm2_tile *base, uint32_t kgran) {
  cm2_tile t = *base;
  t.eff = table_eff(d, base, base->k);
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
  if (t.m != base->m || t.n != base->n || t.wg != base->wg) {
    /* A tiling the desc forced is rated as its own entry of the table (its m x n and
     * workgroup: the K step's, else the first), else as the smallest tile, not as the
     * entry it came from: a forced 32x32x64 took 256 invocations at 128x256x64's rating
     * and ran 0.70x the 64-wide kernel (556 x 1024 x 4096 f16, H200, call S22-2). */
    t.eff = tiling_eff(d, t.m, t.n, t.k, t.wg);
  }
  return t;
}

/* Whether a 192-wide tiling of the table is a candidate for d: 16-bit inputs; 192x192
 * with f16 accumulators only (with f32 ones it runs far slower than 128x192:
 * docs/design-notes.md, "192-wide tiles, packed odd shapes"); and along M and N, 192 divides the extent
 * (FIXED) or both operands are packed (the copies hold whole tiles, the edge is the
 * store's alone). A RUNTIME class's M is any, so its 192-high tiles need the copies too. */
static bool tile_192_fits(const spvgen_gemm_desc *d, const cm2_tile *t) {
  if (t->m != 192 && t->n != 192) return true;
  if (spvgen_component_type_size(d->a_type) != 2) return false;
  if (t->m == 192 && t->n == 192 && spvgen_component_type_size(d->acc_type) != 2) return false;
  if (gemm_packs(d, 'a') && gemm_packs(d, 'b')) return true;
  if (gemm_runtime(d)) return false;
  return (t->m != 192 || d->m % 192 == 0) && (t->n != 192 || d->n % 192 == 0);
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

/* Estimated run time of a tiling (arbitrary units; only the order matters): the tiles
 * the busiest SM runs, ceil(tiles / SMs) (the workgroups an SM holds at once share its
 * throughput: 128x128x64 tiles run 58 us each on an H100 whether one or two share an SM),
 * x the tile's area / its efficiency. A workgroup of fewer than 256 invocations alone on
 * an SM leaves it short of work: x (invocations resident / 256)^0.7 (128x128x32 with 128
 * invocations: 1.6x slower alone than two to an SM). Concurrent workgroups per SM from the
 * register estimate, 64K registers and 2048 threads. */
static double tile_cost(const spvgen_gemm_desc *d, const cm2_tile *t, uint32_t units) {
  /* split-K: S workgroups per tile, each 1 / S of K (the same for every tiling) */
  uint64_t tiles = (uint64_t)gemm_ceil_div(d->m, t->m) * gemm_ceil_div(d->n, t->n) * d->batch *
                   (d->split_k > 1 ? d->split_k : 1);
  double regs = tile_registers(d, t);
  uint32_t per_sm = (uint32_t)(65536.0 / (regs * t->wg));
  if (per_sm > 2048 / t->wg) per_sm = 2048 / t->wg;
  if (per_sm < 1) per_sm = 1;
  uint64_t busiest = (tiles + units - 1) / units;
  uint64_t resident = busiest < per_sm ? busiest : per_sm;
  double occ = (double)resident * t->wg / 256.0;
  occ = occ >= 1.0 ? 1.0 : pow(occ, 0.7);
  return (double)busiest * t->m * t->n / (t->eff * kline_factor(d, t->m, t->n, t->k) * occ);
}

/* Unroll 4 where there are enough K steps, except for 8-bit K steps of 128 or more and
 * 192-wide tiles:
 * there the unrolled loads outgrow the registers (measured: docs/design-notes.md,
 * "Measurements behind source comments"). */
static uint32_t default_unroll(const spvgen_gemm_desc *d, uint32_t tk) {
  /* 192-wide tiles (64-deep K steps) at unroll 1: unroll 2 gained little for several
   * times the compile (docs/design-notes.md, "192-wide tiles, packed odd shapes") */
  if (d->tile_m == 192 || d->tile_n == 192) return 1;
  /* a short K loop (short_k_loop): no faster unrolled (K 256: 128x256x32 at unroll 1 and
   * 2, 162.0 and 162.1 TFLOP/s, docs/design-notes.md "Short K: a fixed cost per tile") */
  if (short_k_loop(d, tk)) return 1;
  uint32_t steps = d->k / tk;
  uint32_t most = is_8bit(d->a_type) && tk >= 128 ? 2 : 4;
  uint32_t u = steps >= 8 ? 4 : steps >= 2 ? 2 : 1;
  return u < most ? u : most;
}

/* The features the variant needs that the device lacks, named (workgroup scope first:
 * it is what this variant is about). */
static spvgen_status check_features(const spvgen_device_caps *caps, uint64_t need, char *msg, size_t size) {
  uint64_t missing = need & ~caps->features;
  if (!missing) return SPVGEN_OK;
  char names[512];
  size_t n = 0;
  names[0] = 0;
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
  return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the coopmat2 variant needs %s, which %s lacks%s", names,
                   caps->name, why);
}

/* The tilings a RUNTIME plan chooses from when the desc leaves the tile to it: 128x256x32
 * and 128x128x64 (256 invocations). A run-time kernel serves every M of its class, and a
 * framework compiles one pipeline per tile it meets: a short menu keeps a prompt-length
 * trace at a handful of pipelines (with the small-M tiles), where the full table would
 * give one per M range. A class of one K whose loop is short also has the short loop's
 * tile (short_k_loop; its pipelines are per K anyway); tk is the tile's K as fitted. */
static bool in_runtime_menu(const spvgen_gemm_desc *d, const cm2_tile *t, uint32_t tk) {
  if (t->short_eff > 0.0f && short_k_loop(d, tk)) return true;
  return t->wg == 256 && t->m == 128 && ((t->n == 256 && t->k == 32) || (t->n == 128 && t->k == 64));
}

static uint32_t default_unroll(const spvgen_gemm_desc *d, uint32_t tk);
static double knob_score(const spvgen_gemm_desc *d, uint32_t u, spvgen_gemm_edge e, bool edges);
static void choose_unroll_and_edge(spvgen_gemm_config *p, bool unroll_set, bool edge_set);

#define UNROLL_BONUS_MAX 1.08 /* the most unroll_bonus gives */

/* The knobs the plan would give tiling t (unroll and edge mode within the compile budget,
 * as cm2_plan chooses them): their score (knob_score x unroll_bonus), whether their
 * estimated compile fits the budget, and the estimate. */
static double knobbed_score(const spvgen_gemm_desc *d, const cm2_tile *t, bool *fits, uint32_t *ms) {
  spvgen_gemm_config c;
  memset(&c, 0, sizeof c);
  c.variant = SPVGEN_GEMM_COOPMAT2;
  c.desc = *d;
  c.desc.tile_m = t->m;
  c.desc.tile_n = t->n;
  c.desc.tile_k = t->k;
  c.desc.workgroup_size = t->wg;
  bool unroll_set = d->unroll != 0, edge_set = d->edge != SPVGEN_GEMM_EDGE_AUTO;
  bool m_edge = !gemm_dim_multiple(&c.desc, 'm', t->m), n_edge = !gemm_dim_multiple(&c.desc, 'n', t->n);
  if (gemm_runtime(d) && !edge_set && d->beta == 0.0f && t->m >= 128 && (m_edge || n_edge) &&
      (!m_edge || d->m >= t->m) && (!n_edge || d->n >= t->n)) {
    /* a run-time plan for an M (and N) of at least a 128-row tile gets shift after the
     * plan (gemm.c, shift_for_hint): ranked as it will run */
    c.desc.edge = SPVGEN_GEMM_EDGE_SHIFT;
    edge_set = true;
  }
  if (!c.desc.unroll) c.desc.unroll = default_unroll(&c.desc, t->k);
  choose_unroll_and_edge(&c, unroll_set, edge_set);
  *ms = gemm_compile_ms(&c);
  *fits = *ms <= gemm_budget_ms(&c.desc);
  return knob_score(&c.desc, c.desc.unroll, c.desc.edge, m_edge || n_edge) * unroll_bonus(&c.desc, c.desc.unroll);
}

/* The tiling of the table that fits the device and the desc's knobs and runs fastest
 * within the compile budget (cost model), or the reason none does. */
static spvgen_status choose_tile(const spvgen_device_caps *caps, const spvgen_gemm_desc *d, cm2_tile *best,
                                 char *msg, size_t size) {
  cm2_flex fl = flex_lookup(caps, d);
  uint32_t kgran = fl.any ? fl.any->k_granularity : 16; /* for fitting BK to small K */
  double best_cost = 0;
  bool found = false;
  spvgen_status first_st = SPVGEN_OK;
  char first_msg[512] = "";
  uint32_t split_short = 0; /* a tile_k left out for having fewer K steps than split_k */
  const bool runtime_menu = gemm_runtime(d) && !d->tile_m && !d->tile_n && !d->tile_k && !d->workgroup_size;
  cm2_tile cand[TILE_COUNT];
  double cost[TILE_COUNT];
  uint32_t nc = 0;
  /* a tile the desc forces (m and n, not the workgroup) that the table has: its own
   * workgroups only (fit_tile rates the others as unmeasured, the same as the smallest) */
  bool forced_in_table = false;
  for (size_t i = 0; i < TILE_COUNT && d->tile_m && d->tile_n && !d->workgroup_size; i++)
    forced_in_table = forced_in_table || (TILES[i].m == d->tile_m && TILES[i].n == d->tile_n);
  for (size_t i = 0; i < TILE_COUNT; i++) {
    if (forced_in_table && (TILES[i].m != d->tile_m || TILES[i].n != d->tile_n)) continue;
    cm2_tile t = fit_tile(d, &TILES[i], kgran);
    spvgen_status st = check_tile(caps, d, &fl, &t, NULL, i == 0 ? first_msg : NULL, sizeof first_msg);
    if (i == 0) first_st = st;
    if (st != SPVGEN_OK || tile_spills(d, &t)) continue;
    if (runtime_menu && !in_runtime_menu(d, &TILES[i], t.k)) continue;
    if (!d->tile_m && !d->tile_n && !tile_192_fits(d, &TILES[i])) continue;
    if (d->split_k > 1 && gemm_ceil_div(d->k, t.k) < d->split_k) { /* fewer K steps than slices */
      split_short = t.k;
      continue;
    }
    /* insertion by the tiling's own cost (stable: table order among equals) */
    double c = tile_cost(d, &t, gemm_units(caps));
    uint32_t at = nc;
    while (at > 0 && cost[at - 1] > c) {
      cand[at] = cand[at - 1];
      cost[at] = cost[at - 1];
      at--;
    }
    cand[at] = t;
    cost[at] = c;
    nc++;
  }
  /* The tiling with the knobs the compile budget allows (unroll and edge mode,
   * choose_unroll_and_edge) that is fastest by tile_cost / knob score; where none fits
   * the budget, the cheapest to compile. Cheapest tilings first: none after the first
   * fit can win once its own cost over the highest knob score is past the best. */
  uint32_t best_ms = 0;
  bool best_fits = false;
  for (uint32_t i = 0; i < nc; i++) {
    if (best_fits && cost[i] / UNROLL_BONUS_MAX >= best_cost) break;
    bool fits;
    uint32_t ms;
    double c = cost[i] / knobbed_score(d, &cand[i], &fits, &ms);
    if (!found || (fits && (!best_fits || c < best_cost)) || (!fits && !best_fits && ms < best_ms)) {
      *best = cand[i];
      best_cost = c;
      best_ms = ms;
      best_fits = fits;
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
  return check_tile(caps, d, &fl, best, NULL, msg, size);
}

/* stages 2: every chunk of a K-step tile is 16 bytes of one stored row, the rows start
 * 16-byte aligned (ld), the chunks split evenly over the invocations, and both tiles fit
 * in shared memory beside the driver's reserve. Sets shared_bytes. */
static spvgen_status plan_stages2(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg, size_t size) {
  const spvgen_gemm_desc *d = &p->desc;
  const uint32_t wg = d->workgroup_size;
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
  else if (ca % wg || cb % wg) why = "the tiles' 16-byte chunks do not split evenly over the invocations";
  else if (ca / wg > CM2_STAGE_MAX_CHUNKS || cb / wg > CM2_STAGE_MAX_CHUNKS) why = "over 16 chunks per invocation";
  else if (bytes > room) why = "the two tiles do not fit in shared memory beside the driver's reserve";
  if (why)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "stages 2 with tile %ux%ux%u: %s", d->tile_m, d->tile_n,
                     d->tile_k, why);
  p->shared_bytes = (uint32_t)bytes;
  return SPVGEN_OK;
}

/* How well a kernel of unroll u with edge mode e runs, relative to an unclamped unroll-4
 * one, for ranking the choices that fit the compile budget (bench/results of 2026-11-26:
 * 8192^3 f16->f32 326 / 315 / 298 TFLOP/s at unroll 4 / 2 / 1, clamp at unroll 1 202). A
 * shift that moves an operand along its contiguous dimension loses the loads' alignment
 * in every tile. */
/* Unrolling pays in a tile of one or two workgroups an SM, where the unrolled steps are
 * the latency hiding: 128x256x32 and 128x128x32 ran 1.074x faster at u2 than at u1 (median
 * of 29 pairs timed in one process), 128x128x64 1.00 at K up to 4096 (15 pairs) and
 * 1.03-1.05 at K 8192-18944 (H200, call S22-2). Tiles under 128x128 with K steps of 128
 * bytes or more, several workgroups an SM, gain nothing from it: 64x64x64 1.009, and in
 * call S22-1 (H200) 32x64x64 and 32x32x64 ran 0.016 / 0.016 ms and 0.056 / 0.057 ms at
 * u1 / u2. There every unroll scores as u1, so the plan keeps the cheaper compile
 * (choose_unroll_and_edge). */
static bool unrolling_pays(const spvgen_gemm_desc *d) {
  return (uint64_t)d->tile_m * d->tile_n >= 128u * 128u || (uint64_t)d->tile_k * spvgen_component_type_size(d->a_type) < 128;
}

static double unroll_score(const spvgen_gemm_desc *d, uint32_t u) {
  if (!unrolling_pays(d)) return 0.91;
  return u >= 4 ? 1.0 : u >= 2 ? 0.96 : 0.91;
}

static double knob_score(const spvgen_gemm_desc *d, uint32_t u, spvgen_gemm_edge e, bool edges) {
  double su = unroll_score(d, u);
  /* the split K loop's rest iterations in a rolled loop: a little slower than unrolled
   * (docs/design-notes.md, "The split K loop on every tile"), where unrolling pays at all
   * (unroll_score): 3008^3 on 64x64x64 ran 0.308 ms rolled, 0.306 unrolled, whose compile
   * took 305 ms against 174 (H200, call S22-5) */
  if ((d->codegen & SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL) && unrolling_pays(d)) su *= 0.96;
  if (!edges) return su;
  bool m_edge = !gemm_dim_multiple(d, 'm', d->tile_m), n_edge = !gemm_dim_multiple(d, 'n', d->tile_n);
  bool shift_aligned = (!m_edge || d->a_layout == SPVGEN_ROW_MAJOR) && (!n_edge || d->b_layout == SPVGEN_COL_MAJOR);
  switch (e) {
  case SPVGEN_GEMM_EDGE_SHIFT: return su * (shift_aligned ? 1.0 : 0.6);
  case SPVGEN_GEMM_EDGE_CLAMP: return su * 0.68;
  default: return su * 0.97;
  }
}

/* Unroll and edge mode where the desc leaves them to the plan: the best-ranked pair whose
 * estimated compile fits the budget (gemm_budget_ms), else the cheapest to compile.
 * Shift is a choice for a FIXED shape with beta 0 and both extents at least a tile (a
 * RUNTIME class cannot promise that). */
static void choose_unroll_and_edge(spvgen_gemm_config *p, bool unroll_set, bool edge_set) {
  spvgen_gemm_desc *d = &p->desc;
  bool edges = !gemm_dim_multiple(d, 'm', d->tile_m) || !gemm_dim_multiple(d, 'n', d->tile_n);
  bool can_shift = !gemm_runtime(d) && d->m >= d->tile_m && d->n >= d->tile_n && d->beta == 0.0f;
  uint32_t budget = gemm_budget_ms(d), u_max = d->unroll;
  static const spvgen_gemm_edge modes[] = {SPVGEN_GEMM_EDGE_BRANCH, SPVGEN_GEMM_EDGE_SHIFT, SPVGEN_GEMM_EDGE_CLAMP};
  spvgen_gemm_desc best = *d, cheapest = *d;
  double best_score = -1.0;
  uint32_t cheapest_ms = 0, best_ms = 0;
  /* a FIXED shape with no interior tile runs clamped whatever the mode says: say so */
  bool no_interior = !gemm_runtime(d) && (d->m < d->tile_m || d->n < d->tile_n);
  const bool rest_set = (d->codegen & SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL) != 0;
  for (uint32_t u = u_max; u >= 1; u = u > 2 ? u / 2 : u - 1) {
    if (unroll_set && u != u_max) continue;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
      spvgen_gemm_edge e = edge_set ? d->edge : modes[i];
      if (edge_set && i) break;
      if (!edge_set && no_interior && e != SPVGEN_GEMM_EDGE_CLAMP) continue;
      if (e == SPVGEN_GEMM_EDGE_SHIFT && !edge_set && !can_shift) continue;
      /* a FIXED K loop split off a multiple of 8 iterations runs the rest unrolled by
       * the driver, or rolled (SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL: a little slower, a
       * loop body less to compile) where the unrolled rest does not fit */
      for (int rolled = 0; rolled < 2; rolled++) {
        spvgen_gemm_config c = *p;
        c.desc.unroll = u;
        c.desc.edge = e;
        if (e == SPVGEN_GEMM_EDGE_BRANCH && !c.desc.edge_unroll) c.desc.edge_unroll = 1;
        if (rolled) {
          if (rest_set || !cm2_rest_loop(&c.desc)) break;
          c.desc.codegen |= SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL;
        }
        uint32_t ms = gemm_compile_ms(&c);
        double score = knob_score(&c.desc, u, e, edges);
        /* of knobs that rank the same, the cheaper compile */
        if (ms <= budget && (score > best_score || (score == best_score && ms < best_ms))) {
          best = c.desc;
          best_score = score;
          best_ms = ms;
        }
        if (!cheapest_ms || ms < cheapest_ms) {
          cheapest = c.desc;
          cheapest_ms = ms;
        }
        /* the unrolled rest fits: the rolled one ranks lower where unrolling pays, else
         * the same (and the cheaper compile wins the tie) */
        if (ms <= budget && unrolling_pays(&c.desc)) break;
      }
      if (!edges) break; /* the edge mode changes nothing */
    }
  }
  *d = best_score >= 0 ? best : cheapest;
  /* Without edge tiles the edge knobs change nothing: one value each, whoever set them, so
   * that a resolved desc planned again gives the same plan and class key (the knob loop
   * above sets edge_unroll 1 for branch). */
  if (!edges) {
    if (!edge_set) d->edge = SPVGEN_GEMM_EDGE_BRANCH;
    d->edge_unroll = 0;
  }
}

/* The edge mode (shift needs beta 0 and a matrix at least one tile large) and the plan's
 * name. */
static spvgen_status plan_edge_and_name(spvgen_gemm_config *p, char *msg, size_t size) {
  spvgen_gemm_desc *d = &p->desc;
  bool off_tile = !gemm_dim_multiple(d, 'm', d->tile_m) || !gemm_dim_multiple(d, 'n', d->tile_n);
  /* RUNTIME: M >= tile_m and N >= tile_n are checked per launch */
  bool can_shift = (gemm_runtime(d) || (d->m >= d->tile_m && d->n >= d->tile_n)) && d->beta == 0.0f;
  if (d->edge == SPVGEN_GEMM_EDGE_SHIFT && d->beta != 0.0f)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "edge shift with beta %g: a shifted tile would read C where its neighbour may "
                     "already have written D (beta 0 only)", (double)d->beta);
  if (d->edge == SPVGEN_GEMM_EDGE_SHIFT && !can_shift)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "edge shift: M %u x N %u is smaller than the tile %ux%u (a tile cannot move "
                     "inside)", d->m, d->n, d->tile_m, d->tile_n);
  if (!d->edge) d->edge = SPVGEN_GEMM_EDGE_BRANCH; /* shift: measured before it becomes the default */
  char extra[24];
  ek_str x = ek_str_start(extra, sizeof extra);
  ek_str_put(&x, "u");
  ek_str_u32(&x, d->unroll);
  if (off_tile && d->edge == SPVGEN_GEMM_EDGE_BRANCH && d->edge_unroll && d->edge_unroll != d->unroll &&
      !cm2_store_only_branch(d)) {
    ek_str_put(&x, "/");
    ek_str_u32(&x, d->edge_unroll);
  }
  if (d->stages == 2) ek_str_put(&x, " s2");
  ek_str_put(&x, !off_tile || d->edge == SPVGEN_GEMM_EDGE_BRANCH ? ""
                 : d->edge == SPVGEN_GEMM_EDGE_CLAMP            ? " clamp"
                                                                : " shift");
  gemm_plan_name(p, extra);
  return SPVGEN_OK;
}

/* Few rows against wide weights (M of 64 or less: a prompt of a few tokens, a batch of
 * vectors): the GEMM is a stream over B, and what matters is that B is read once and that
 * enough of it is in flight. So the tile covers all of M (32, 64 or 128 rows), is 64 columns
 * wide with 128 bytes of K per step (full cache lines of each B row for N x K weights), and
 * 256 invocations share it; then (split_k left to the plan) K is split until the grid has
 * about four workgroups per SM, every slice keeping 4 steps or more (faster than cuBLAS
 * for the prompt rows, and than either tile without split-K: docs/design-notes.md,
 * "Measurements behind source comments"). Returns whether it applies (the desc's tile
 * knobs are then set). */
static bool small_m_tile(const spvgen_device_caps *caps, spvgen_gemm_desc *d) {
  if (d->tile_m || d->tile_n || d->tile_k || d->workgroup_size || d->subgroups || d->stages == 2) return false;
  /* RUNTIME plans also up to 127 rows: the run-time tile menu's 128-row tiles cannot move
   * inside a shorter M (edge shift), and a 128-row tile of 64 columns is the same kernel
   * family */
  uint32_t most = gemm_runtime(d) && !gemm_dim_multiple(d, 'm', 128) ? 127 : 64;
  /* A run-time class planned for a shape (spvgen_gemm_class_for gives M, N and K) whose
   * 128x128 grid fills under half the SMs: the same small tile family, 64 rows shifted
   * inside M and split-K (the run-time menu's tiles would leave most SMs idle, and their
   * split-K partials kernel is over the compile budget). */
  const uint64_t grid128 = (uint64_t)gemm_ceil_div(d->m, 128) * gemm_ceil_div(d->n, 128) * (d->batch ? d->batch : 1);
  const bool small_grid = gemm_runtime(d) && d->m >= 64 && d->n && d->k && d->beta == 0.0f &&
                          d->edge == SPVGEN_GEMM_EDGE_AUTO && grid128 * 2 < gemm_units(caps);
  if ((d->m > most && !small_grid) || d->n < 256 || d->k < 256) return false;
  spvgen_gemm_desc t = *d;
  t.tile_m = d->m <= 32 ? 32 : d->m <= 64 ? 64 : 128;
  /* 65..127 rows of a run-time class that knows its M: two 64-row tiles, the second moved
   * inside M (edge shift, legal with beta 0 and M >= 64, which the launch checks), rather
   * than one 128-row tile clamped past M, whose clamped operands put it over the compile
   * budget, so that AUTO fell to an unsplit khr tile that leaves most SMs idle
   * (docs/design-notes.md, "Measurements behind source comments"). */
  if (gemm_runtime(d) && d->m > 64 && d->beta == 0.0f && d->edge == SPVGEN_GEMM_EDGE_AUTO) { /* and small_grid */
    t.tile_m = 64;
    t.edge = SPVGEN_GEMM_EDGE_SHIFT;
  }
  t.tile_n = 64;
  t.tile_k = 128 / spvgen_component_type_size(d->a_type);
  t.workgroup_size = 256;
  cm2_flex fl = flex_lookup(caps, &t);
  cm2_tile tile = {t.tile_m, t.tile_n, t.tile_k, 256, 1.0f, 0};
  if (check_tile(caps, &t, &fl, &tile, NULL, NULL, 0) != SPVGEN_OK) return false;
  *d = t;
  return true;
}

/* The slices small_m_tile wants: powers of two up to 16 while the grid is under four
 * workgroups per SM and every slice keeps 4 K steps (a RUNTIME plan: for the hinted
 * shape; the kernel reads the count per launch). */
static uint32_t small_m_split(const spvgen_device_caps *caps, const spvgen_gemm_desc *d) {
  uint64_t tiles = (uint64_t)gemm_ceil_div(d->m, d->tile_m) * gemm_ceil_div(d->n, d->tile_n) * d->batch;
  uint32_t steps = d->k / d->tile_k, s = 1;
  while (s < 16 && tiles * s < 4ull * gemm_units(caps) && s * 2 * 4 <= steps) s *= 2;
  return s;
}

/* Split-K for a grid of fewer tiles than SMs (split_k left to the plan, FIXED shapes, the
 * tile chosen): S = 2..4 by the wave model of gemm_splitk_time, over the grid's tiles
 * counted by what they hold (ceil(M * N / tile area) per batch: an edge tile's clamped
 * loads past M or N read nothing, so two thin edge tiles weigh about one), every slice
 * keeping 8 K steps; 1 where no count beats the unsplit grid. The partials kernel is the
 * unsplit tile's K loop from the slice's first K (the same loads, about the same compile),
 * the reduction a small element-wise pass: 256x3584x3584 with 128x128x64 tiles (56 tiles)
 * ran 1.39x faster split 2 ways than unsplit and 256x3584x18944 1.71x, both ahead of 4
 * ways (docs/design-notes.md). */
static uint32_t wave_split(const spvgen_device_caps *caps, const spvgen_gemm_desc *d) {
  const uint32_t units = gemm_units(caps), steps = d->k / d->tile_k, batch = d->batch ? d->batch : 1;
  uint64_t full = (uint64_t)gemm_ceil_div(d->m, d->tile_m) * gemm_ceil_div(d->n, d->tile_n) * batch;
  if (gemm_runtime(d) || d->stages == 2 || full >= units || steps < 16 || d->k < 1024) return 1;
  /* Grids with edge tiles stay unsplit: on the H200 (bench/results/gemm-splitk-h200-2026-11-26-s5.md)
   * 256x3584^2 ran 1.48x faster split in two, but 257x3584^2 (shift edges) 0.89x and
   * 257x3584x18944 0.95x: the edge tiles' partials (clamped, or shifted inside) cost
   * more than the wave they save. */
  if (d->m % d->tile_m || d->n % d->tile_n) return 1;
  uint64_t tiles = ((uint64_t)d->m * d->n + (uint64_t)d->tile_m * d->tile_n - 1) / ((uint64_t)d->tile_m * d->tile_n) *
                   batch;
  uint32_t best = 1;
  double bt = gemm_splitk_time(tiles, 1, units, steps);
  for (uint32_t s = 2; s <= 4 && s * 8 <= steps; s++) {
    double t = gemm_splitk_time(tiles, s, units, steps);
    if (t < bt) best = s, bt = t;
  }
  return best;
}

/* The wave efficiency of a grid: the share of the SM-slots its busiest wave count fills
 * (tiles / (ceil(tiles / units) x units)). */
double gemm_wave_efficiency(uint64_t tiles, uint32_t units) {
  if (!tiles || !units) return 1.0;
  uint64_t waves = (tiles + units - 1) / units;
  return (double)tiles / ((double)waves * units);
}

double cm2_tile_rate(const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  cm2_tile t = {d->tile_m, d->tile_n, d->tile_k, d->workgroup_size, 0, 0};
  t.eff = tiling_eff(d, t.m, t.n, t.k, t.wg);
  bool edges = !gemm_dim_multiple(d, 'm', d->tile_m) || !gemm_dim_multiple(d, 'n', d->tile_n);
  return t.eff * kline_factor(d, t.m, t.n, t.k) * knob_score(d, d->unroll, d->edge, edges) *
         unroll_bonus(d, d->unroll);
}

double cm2_speed(const spvgen_device_caps *caps, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  uint64_t tiles = (uint64_t)gemm_ceil_div(d->m, d->tile_m) * gemm_ceil_div(d->n, d->tile_n) * d->batch *
                   (d->split_k > 1 ? d->split_k : 1);
  return cm2_tile_rate(p) * gemm_wave_efficiency(tiles, gemm_units(caps)) * gemm_tile_coverage(d);
}

spvgen_status cm2_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg, size_t size) {
  spvgen_gemm_desc *d = &p->desc;
  uint64_t need = needed_features(d);
  spvgen_status st = check_features(caps, need, msg, size);
  if (st != SPVGEN_OK) return st;
  if (d->stages > 2)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "stages %u: the coopmat2 variant has 1 (the driver stages the workgroup-scope "
                     "matrices) or 2 (the kernel stages A and B through shared memory itself)", d->stages);
  if (d->stages == 2 && (d->split_k > 1 || d->batch > 1 || gemm_runtime(d)))
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "stages 2 (shared-memory staging) with %s: not implemented (stages 1 does it)",
                     d->split_k > 1 ? "split_k > 1" : d->batch > 1 ? "batch > 1" : "run-time shapes");
  if (!d->stages) d->stages = 1;
  if (d->subgroups && caps->subgroup_size && !d->workgroup_size)
    d->workgroup_size = d->subgroups * caps->subgroup_size;
  bool small = small_m_tile(caps, d);
  if (small && !d->split_k) d->split_k = small_m_split(caps, d);
  cm2_tile best;
  memset(&best, 0, sizeof best);
  if ((st = choose_tile(caps, d, &best, msg, size)) != SPVGEN_OK) return st;
  if (d->subgroups && caps->subgroup_size && d->subgroups * caps->subgroup_size != best.wg)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "subgroups %u: %u invocations per workgroup make %u subgroups of %u", d->subgroups,
                     best.wg, best.wg / caps->subgroup_size, caps->subgroup_size);
  d->tile_m = best.m;
  d->tile_n = best.n;
  d->tile_k = best.k;
  d->workgroup_size = best.wg;
  const bool wave = !d->split_k && (d->split_k = wave_split(caps, d)) > 1;
  d->subgroups = caps->subgroup_size ? best.wg / caps->subgroup_size : 0;
  bool unroll_set = d->unroll != 0, edge_set = d->edge != SPVGEN_GEMM_EDGE_AUTO;
  if (!d->unroll) d->unroll = default_unroll(d, best.k);
  p->local_size[0] = best.wg;
  p->local_size[1] = p->local_size[2] = 1;
  p->frag_m = best.m;
  p->frag_n = best.n;
  p->frag_k = best.k;
  p->warp_m = p->warp_n = 0;
  p->shared_bytes = 0; /* none declared; the driver reserves its own for workgroup scope */
  if (d->stages == 2 && (st = plan_stages2(caps, p, msg, size)) != SPVGEN_OK) return st;
  p->features = need;
  p->subgroup_size = 0;
  const spvgen_gemm_desc before = *d;
  gemm_set_grid(p);
  choose_unroll_and_edge(p, unroll_set, edge_set);
  if (wave && gemm_compile_ms(p) > gemm_budget_ms(d)) {
    /* the split's second pipeline takes the plan past the compile budget: unsplit, as
     * before the wave model looked (a larger budget gets the split) */
    *d = before;
    d->split_k = 1;
    gemm_set_grid(p);
    choose_unroll_and_edge(p, unroll_set, edge_set);
  }
  return plan_edge_and_name(p, msg, size);
}

uint32_t cm2_candidates(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc,
                                    spvgen_gemm_desc *out, uint32_t max) {
  uint32_t n = 0;
  /* The plan's own choice first. */
  spvgen_gemm_config first;
  memset(&first, 0, sizeof first);
  first.desc = *desc;
  first.variant = first.desc.variant = SPVGEN_GEMM_COOPMAT2;
  if (cm2_plan(caps, &first, NULL, 0) != SPVGEN_OK) return 0;
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
    double c = tile_cost(desc, &t, gemm_units(caps));
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
