/* emitters/gemm/splitk.c — split-K, shared by the variants (the
 * contract is in spvgen/gemm.h, "Split-K"): the plan's slice size, grids and workspace,
 * the candidates spvgen_gemm_plans adds, and the partials kernel's pieces around a
 * slice's partial tile (workspace binding, slice and batch ids, plane offsets, stores).
 * The reduction kernel is emitters/gemm/splitk_reduce.c.
 *
 * Two kernels, not one: the partials kernel stores its tile and ends; the reduction is
 * a second dispatch after a compute-to-compute barrier (the caller's, or the runner's
 * between consecutive dispatches). So the partials kernel has no barrier, atomic,
 * Workgroup variable or device-scope memory semantics, which the single-dispatch form
 * (an arrival counter per tile, the last slice summing) needed and which made the H100's
 * driver stop staging the workgroup-scope tensor loads in shared memory
 * (docs/design-notes.md, "Split-K loses the driver's staging"). Plain stores suffice:
 * the barrier between the dispatches makes them available and visible. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gemm_internal.h"


void gemm_splitk_reduce_grid(uint32_t m, uint32_t n, uint32_t batch, uint32_t groups[3]) {
  uint64_t chunks = (uint64_t)m * (((uint64_t)n + 3u) / 4u);
  uint64_t wgs = (chunks + GEMM_REDUCE_LOCAL - 1) / GEMM_REDUCE_LOCAL;
  uint32_t x = wgs < 65535u ? (uint32_t)wgs : 65535u;
  groups[0] = x ? x : 1;
  groups[1] = (uint32_t)((wgs + groups[0] - 1) / groups[0]);
  if (!groups[1]) groups[1] = 1;
  groups[2] = batch;
}

spvgen_status gemm_splitk_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg,
                               size_t size) {
  (void)caps;
  const spvgen_gemm_desc *d = &p->desc;
  const uint32_t S = d->split_k, tk = d->tile_k;
  uint32_t steps = gemm_ceil_div(d->k, tk);
  p->workspace_binding = 3u + (d->beta != 0.0f) + (d->bias != SPVGEN_GEMM_BIAS_NONE);
  ek_str x = ek_str_after(p->name, sizeof p->name);
  ek_str_put(&x, " sk");
  ek_str_u32(&x, S);
  if (gemm_runtime(d)) return SPVGEN_OK; /* slice size, grids and workspace per launch (spvgen_gemm_launch_for) */
  if (S > steps)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "split_k %u is over the %u K steps of tile_k %u (k %u): at most %u slices", S, steps,
                     tk, d->k, steps);
  p->slice_k = gemm_ceil_div(gemm_ceil_div(d->k, S), tk) * tk;
  p->groups[2] = d->batch * S;
  p->workspace_ld = (d->n + 3u) & ~3u;
  uint64_t partials = (uint64_t)S * d->batch * d->m * p->workspace_ld;
  if (partials > gemm_splitk_max_words(d))
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "split_k %u: the workspace would hold %llu 32-bit words; indices past %s are "
                     "not supported (fewer slices or a smaller batch)",
                     S, (unsigned long long)partials, gemm_splitk_max_words_name(d));
  p->workspace_bytes = partials * 4u;
  gemm_splitk_reduce_grid(d->m, d->n, d->batch, p->reduce_groups);
  return SPVGEN_OK;
}

/* The time of a grid of `tiles` output tiles split `S` ways, in units of one unsplit
 * tile's K loop: each SM runs ceil(tiles x S / units) slices of 1 / S of K (an SM's
 * throughput is shared by the workgroups it holds, so slices per SM is what counts), plus
 * the last slice's reduction, about two K steps' worth of reading per partial (a
 * partial is the tile in 32-bit words, a K step's A and B tiles half as many bytes at
 * 16 bits). */
double gemm_splitk_time(uint64_t tiles, uint32_t S, uint32_t units, uint32_t steps) {
  uint64_t per_sm = (tiles * S + units - 1) / units;
  double t = (double)per_sm / S;
  if (S > 1 && steps) t += 2.0 * S / steps;
  return t;
}

/* What a partial costs beside its slice's K loop, in K elements of the tile at 16-bit
 * inputs (scaled by 2 / input bytes: 8-bit K runs twice as fast): storing the tile's
 * 32-bit partial, and the reduction reading it back, each at an SM's share of the memory
 * bandwidth; it is what makes short slices cost more (the derivation: docs/design-notes.md,
 * "Long K: tile and slices together (session 8)"). */
#define SPLIT_PARTIAL_K 128.0
/* Invocations an SM needs resident for full throughput: 256 for a tile of 128x128 or
 * more (tile_cost's occupancy rule in coopmat2_plan.c), more for a tile that does less
 * arithmetic per byte it loads, tm x tn / (tm + tn) under 128x128's 64, up to 4x (a
 * stream of loads wants more of them in flight, as small_m_split's workgroups per SM). */
uint32_t gemm_split_invocations(const spvgen_gemm_desc *d) {
  const double per = (double)d->tile_m * d->tile_n / ((double)d->tile_m + d->tile_n);
  double f = per >= 64.0 ? 1.0 : 64.0 / per;
  if (f > 4.0) f = 4.0;
  return (uint32_t)(256.0 * f + 0.5);
}

double gemm_split_time(const spvgen_device_caps *caps, const spvgen_gemm_config *p, uint32_t k, uint32_t S) {
  const spvgen_gemm_desc *d = &p->desc;
  const uint32_t units = gemm_units(caps);
  const uint32_t m = d->m ? d->m : 4096u, n = d->n ? d->n : 4096u, tk = d->tile_k ? d->tile_k : 1u;
  const uint32_t wg = p->local_size[0] ? p->local_size[0] * (p->local_size[1] ? p->local_size[1] : 1u) : 256u;
  const uint64_t tiles = (uint64_t)gemm_ceil_div(m, d->tile_m) * gemm_ceil_div(n, d->tile_n) * (d->batch ? d->batch : 1u);
  if (S < 1) S = 1;
  const uint64_t wgs = tiles * S, per_sm = (wgs + units - 1) / units;
  /* occupancy: the workgroups an SM holds at once, as far as they add invocations */
  const uint32_t full = gemm_split_invocations(d);
  const uint64_t need = (full + wg - 1) / wg;
  const double resident = (double)(per_sm < need ? per_sm : need) * wg;
  const double occ = resident >= full ? 1.0 : pow(resident / full, 0.7);
  const double slice = (double)gemm_ceil_div(gemm_ceil_div(k, S), tk) * tk;
  const double partial = S > 1 ? SPLIT_PARTIAL_K * 2.0 / spvgen_component_type_size(d->a_type) : 0.0;
  const double area = (double)d->tile_m * d->tile_n;
  double rate = gemm_tile_rate(p);
  if (rate <= 0.0) rate = 1e-3;
  return (double)per_sm * area * (slice + partial) / (rate * occ) + (double)wgs * area * partial / units;
}

uint32_t gemm_splitk_candidates(const spvgen_device_caps *caps, const spvgen_gemm_config *base, spvgen_gemm_desc *out,
                                uint32_t max) {
  const uint32_t units = gemm_units(caps);
  const spvgen_gemm_desc *d = &base->desc;
  uint64_t tiles = (uint64_t)gemm_ceil_div(d->m, d->tile_m) * gemm_ceil_div(d->n, d->tile_n) * d->batch;
  uint32_t steps = gemm_ceil_div(d->k, d->tile_k);
  const uint32_t s_min = gemm_ceil_div(d->k, SPVGEN_GEMM_MAX_SERIAL_K);
  if (s_min > 1) { /* long K: the slices it needs, twice and four times as many (not the plan's own) */
    uint32_t n = 0;
    for (uint32_t s = s_min; s <= 4u * s_min && s <= SPVGEN_GEMM_MAX_SPLIT_K && s * 4u <= steps && n < max; s *= 2) {
      if (s == d->split_k) continue;
      out[n] = *d;
      out[n].split_k = s;
      n++;
    }
    return n;
  }
  if (tiles >= 2u * units || steps < 8 || d->k < 512) return 0; /* short K: not worth a pass */
  /* The split counts 2 .. 16 that keep 4 K steps per slice, fastest by gemm_splitk_time
   * first (fewer slices among equals: less workspace traffic); up to 4 of them, and only
   * those that beat the unsplit grid. */
  uint32_t best[4];
  double bt[4];
  uint32_t nb = 0;
  const double unsplit = gemm_splitk_time(tiles, 1, units, steps);
  for (uint32_t s = 2; s <= 16 && s * 4 <= steps; s++) {
    double t = gemm_splitk_time(tiles, s, units, steps);
    if (t >= unsplit) continue;
    uint32_t at = nb < 4 ? nb : 4;
    while (at > 0 && bt[at - 1] > t) at--;
    if (at >= 4) continue;
    for (uint32_t j = (nb < 4 ? nb : 3); j > at; j--) {
      best[j] = best[j - 1];
      bt[j] = bt[j - 1];
    }
    best[at] = s;
    bt[at] = t;
    if (nb < 4) nb++;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < nb && n < max; i++) {
    out[n] = *d;
    out[n].split_k = best[i];
    n++;
  }
  return n;
}

/* ------------------------------------------------------------------- emit ---- */

void gemm_splitk_declare(spvgen_module *m, const spvgen_gemm_config *p, gemm_splitk *s, const ek_buffer *ws) {
  memset(s, 0, sizeof *s);
  s->p = p;
  if (ws) s->ws = *ws; /* device addresses: the pointer ek_gemm_interface declared */
  else s->ws = ek_buffer_decl(m, ek_u32_type(m), p->workspace_binding, false, "workspace");
}

/* Whether the batch index takes part (RUNTIME: always; FIXED: batch > 1). */
static bool batched(const gemm_splitk *s) { return s->sh->runtime || s->p->desc.batch > 1; }

void gemm_splitk_ids(spvgen_module *m, gemm_splitk *s, const ek_gemm_shape *sh, const gemm_grid_vars *grid,
                     uint32_t wgz) {
  s->sh = sh;
  s->nwg_var = grid->nwg; /* RUNTIME: the slice count is NumWorkgroups.z / batch */
  if (batched(s)) {
    s->slice = ek_udiv(m, wgz, sh->batch);
    s->z = ek_umod(m, wgz, sh->batch);
  } else {
    s->slice = wgz;
    s->z = ek_u32(m, 0);
  }
  s->count = s->nwg_var ? ek_udiv(m, ek_load_v3_component(m, s->nwg_var, 2), sh->batch) : ek_u32(m, s->p->desc.split_k);
  s->k_begin = ek_imul(m, s->slice, sh->slice_k);
  s->k_end = ek_umin(m, ek_iadd(m, s->k_begin, sh->slice_k), sh->k);
}

uint32_t gemm_splitk_plane(spvgen_module *m, const gemm_splitk *s, uint32_t slice) {
  uint32_t plane = batched(s) ? ek_iadd(m, ek_imul(m, slice, s->sh->batch), s->z) : slice;
  return ek_imul(m, plane, ek_imul(m, s->sh->m, s->sh->workspace_ld));
}

void gemm_splitk_store(spvgen_module *m, const gemm_splitk *s, uint32_t index, uint32_t word) {
  ek_store_elem(m, &s->ws, index, word);
}
