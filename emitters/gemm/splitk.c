/* emitters/gemm/splitk.c — split-K, shared by the simt and coopmat2 variants (the
 * contract is in spvgen/gemm.h, "Split-K"): the plan's slice size, grid and workspace,
 * the candidates spvgen_gemm_plans adds, and the kernel pieces around a slice's partial
 * tile (workspace binding, slice and batch ids, the arrival counter, the broadcast of
 * "this workgroup is last").
 *
 * Memory model. A slice's invocations store their partials (NonPrivatePointer under the
 * Vulkan memory model, which every module uses unless its desc asks for GLSL450; then
 * the workspace is decorated Coherent instead), then each makes them available with an
 * OpMemoryBarrier (Device, AcquireRelease | UniformMemory | MakeAvailable | MakeVisible),
 * the workgroup meets at a control barrier, and invocation 0 increments the tile's
 * counter with an OpAtomicIAdd of the same scope and semantics. It broadcasts "last"
 * (the increment returned split_k - 1) through a Workgroup variable after another
 * control barrier. The last workgroup runs the same device-scope barrier (its acquire
 * half makes the other slices' partials visible) before it reads them. Nothing waits on
 * another workgroup: the slices that are not last simply end. */
#include <stdio.h>
#include <string.h>

#include "gemm_internal.h"


spvgen_status gemm_splitk_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg,
                               size_t size) {
  (void)caps;
  const spvgen_gemm_desc *d = &p->desc;
  const uint32_t S = d->split_k, tk = d->tile_k;
  uint32_t steps = gemm_ceil_div(d->k, tk);
  p->workspace_binding = 3u + (d->beta != 0.0f) + (d->bias != SPVGEN_GEMM_BIAS_NONE);
  p->features |= SPVGEN_FEATURE_VULKAN_MEMORY_MODEL | SPVGEN_FEATURE_VULKAN_MEMORY_MODEL_DEVICE_SCOPE;
  if (gemm_runtime(d)) { /* slice size and workspace per launch (spvgen_gemm_launch_for) */
    ek_str x = ek_str_after(p->name, sizeof p->name);
    ek_str_put(&x, " sk");
    ek_str_u32(&x, S);
    return SPVGEN_OK;
  }
  if (S > steps)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "split_k %u is over the %u K steps of tile_k %u (k %u): at most %u slices", S, steps,
                     tk, d->k, steps);
  p->slice_k = gemm_ceil_div(gemm_ceil_div(d->k, S), tk) * tk;
  p->groups[2] = d->batch * S;
  p->workspace_ld = (d->n + 3u) & ~3u;
  uint64_t partials = (uint64_t)S * d->batch * d->m * p->workspace_ld;
  uint64_t counters = (uint64_t)d->batch * gemm_ceil_div(d->m, d->tile_m) * gemm_ceil_div(d->n, d->tile_n);
  partials += (uint64_t)S * counters; /* one "last" flag per workgroup, below the counters */
  if (partials + counters > gemm_splitk_max_words(d))
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "split_k %u: the workspace would hold %llu 32-bit words; indices past %s are "
                     "not supported (fewer slices or a smaller batch)",
                     S, (unsigned long long)(partials + counters), gemm_splitk_max_words_name(d));
  p->workspace_counters = partials;
  p->workspace_bytes = (partials + counters) * 4u;
  ek_str x = ek_str_after(p->name, sizeof p->name);
  ek_str_put(&x, " sk");
  ek_str_u32(&x, S);
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

uint32_t gemm_splitk_candidates(const spvgen_device_caps *caps, const spvgen_gemm_config *base, spvgen_gemm_desc *out,
                                uint32_t max) {
  const uint32_t units = gemm_units(caps);
  const spvgen_gemm_desc *d = &base->desc;
  uint64_t tiles = (uint64_t)gemm_ceil_div(d->m, d->tile_m) * gemm_ceil_div(d->n, d->tile_n) * d->batch;
  uint32_t steps = gemm_ceil_div(d->k, d->tile_k);
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

static uint32_t mem_sem(const gemm_splitk *s) {
  uint32_t sem = SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsUniformMemoryMask;
  if (s->vmm) sem |= SpvMemorySemanticsMakeAvailableMask | SpvMemorySemanticsMakeVisibleMask;
  return sem;
}

uint32_t gemm_splitk_access(const gemm_splitk *s) {
  return s->vmm ? SpvMemoryAccessNonPrivatePointerMask : SpvMemoryAccessMaskNone;
}

void gemm_splitk_declare(spvgen_module *m, const spvgen_gemm_config *p, gemm_splitk *s, const ek_buffer *ws) {
  memset(s, 0, sizeof *s);
  s->p = p;
  s->vmm = spvgen_has_capability(m, SpvCapabilityVulkanMemoryModel);
  if (ws) {
    /* Device address: the partials are read back by another workgroup, which the Vulkan
     * memory model's NonPrivatePointer accesses and device-scope barriers order; the
     * GLSL450 model would need Coherent on the pointee, which the block does not carry. */
    s->ws = *ws;
    if (!s->vmm)
      spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED,
                         "split-K with device addresses needs the Vulkan memory model (the module's default)");
  } else {
    s->ws = ek_buffer_decl(m, ek_u32_type(m), p->workspace_binding, false, "workspace");
    if (!s->vmm) spvgen_decorate(m, s->ws.var, SpvDecorationCoherent);
  }
  if (gemm_runtime(&p->desc)) s->nwg_var = ek_builtin_v3(m, SpvBuiltInNumWorkgroups);
}

/* Whether the batch index takes part (RUNTIME: always; FIXED: batch > 1). */
static bool batched(const gemm_splitk *s) { return s->sh->runtime || s->p->desc.batch > 1; }

void gemm_splitk_ids(spvgen_module *m, gemm_splitk *s, const ek_gemm_shape *sh, uint32_t wgz) {
  s->sh = sh;
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

/* A device-address workspace's accesses carry Aligned 4 too (one u32 word). */
static const uint32_t word_alignment = 4;

void gemm_splitk_store(spvgen_module *m, const gemm_splitk *s, uint32_t index, uint32_t word) {
  bool phys = s->ws.ptr_type != 0;
  spvgen_op_store(m, ek_elem(m, &s->ws, index), word,
                  gemm_splitk_access(s) | (phys ? SpvMemoryAccessAlignedMask : 0u), phys ? &word_alignment : NULL,
                  phys ? 1 : 0);
}

uint32_t gemm_splitk_load(spvgen_module *m, const gemm_splitk *s, uint32_t index) {
  bool phys = s->ws.ptr_type != 0;
  return spvgen_op_load(m, ek_u32_type(m), ek_elem(m, &s->ws, index),
                        gemm_splitk_access(s) | (phys ? SpvMemoryAccessAlignedMask : 0u),
                        phys ? &word_alignment : NULL, phys ? 1 : 0);
}

uint32_t gemm_splitk_arrive(spvgen_module *m, gemm_splitk *s, uint32_t tile_x, uint32_t tile_y, uint32_t lid) {
  const spvgen_gemm_config *p = s->p;
  const spvgen_gemm_desc *d = &p->desc;
  uint32_t u32 = ek_u32_type(m), b = ek_bool_type(m);
  uint32_t dev = ek_u32(m, SpvScopeDevice), sem = ek_u32(m, mem_sem(s));
  spvgen_op_memory_barrier(m, dev, sem);
  spvgen_workgroup_barrier(m);
  const ek_gemm_shape *sh = s->sh;
  uint32_t tile = ek_iadd(m, ek_imul(m, tile_y, sh->tiles_n), tile_x);
  if (batched(s)) {
    uint32_t tiles_m = ek_div_imm(m, ek_add_imm(m, sh->m, d->tile_m - 1), d->tile_m);
    tile = ek_iadd(m, ek_imul(m, s->z, ek_imul(m, tiles_m, sh->tiles_n)), tile);
  }
  s->counter = ek_iadd(m, tile, sh->workspace_counters);
  /* this workgroup's flag: word counters - 1 - (slice * tiles + tile), tiles = the
   * counters' count (the flags sit right below the counters, one per workgroup) */
  uint32_t tiles = ek_imul(m, ek_div_imm(m, ek_add_imm(m, sh->m, d->tile_m - 1), d->tile_m), sh->tiles_n);
  if (batched(s)) tiles = ek_imul(m, tiles, sh->batch);
  uint32_t flag = ek_isub(m, ek_isub(m, sh->workspace_counters, ek_u32(m, 1)), ek_iadd(m, ek_imul(m, s->slice, tiles), tile));
  ek_guard first = ek_guard_begin(m, spvgen_op_i_equal(m, b, lid, ek_u32(m, 0)));
  uint32_t old = spvgen_op_atomic_i_add(m, u32, ek_elem(m, &s->ws, s->counter), dev, sem, ek_u32(m, 1));
  uint32_t last = spvgen_op_i_equal(m, b, old, ek_isub(m, s->count, ek_u32(m, 1)));
  gemm_splitk_store(m, s, flag, spvgen_op_select(m, u32, last, ek_u32(m, 1), ek_u32(m, 0)));
  ek_guard_end(m, first);
  /* the flag word is storage-buffer memory: the barrier orders it for the workgroup */
  uint32_t wsem = SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsUniformMemoryMask;
  if (s->vmm) wsem |= SpvMemorySemanticsMakeAvailableMask | SpvMemorySemanticsMakeVisibleMask;
  spvgen_op_control_barrier(m, ek_u32(m, SpvScopeWorkgroup), ek_u32(m, SpvScopeWorkgroup), ek_u32(m, wsem));
  uint32_t f = gemm_splitk_load(m, s, flag);
  return spvgen_op_i_equal(m, b, f, ek_u32(m, 1));
}

void gemm_splitk_acquire(spvgen_module *m, const gemm_splitk *s) {
  spvgen_op_memory_barrier(m, ek_u32(m, SpvScopeDevice), ek_u32(m, mem_sem(s)));
}

void gemm_splitk_reset(spvgen_module *m, const gemm_splitk *s, uint32_t lid) {
  ek_guard first = ek_guard_begin(m, spvgen_op_i_equal(m, ek_bool_type(m), lid, ek_u32(m, 0)));
  spvgen_op_atomic_store(m, ek_elem(m, &s->ws, s->counter), ek_u32(m, SpvScopeDevice),
                         ek_u32(m, SpvMemorySemanticsMaskNone), ek_u32(m, 0));
  ek_guard_end(m, first);
}
