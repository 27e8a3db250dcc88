/* emitters/gemm/grid.c — the main kernel's grid and each workgroup's tile (see
 * gemm_internal.h, "the tile grid"). The variants share it: they differ in what a tile
 * does, not in which tile a workgroup owns. */
#include "gemm_internal.h"

ek_folded_grid gemm_grid_of(const spvgen_gemm_desc *d, uint32_t m, uint32_t n) {
  return ek_fold_grid(gemm_ceil_div(n, d->tile_n), gemm_ceil_div(m, d->tile_m));
}

void gemm_set_grid(spvgen_gemm_config *p) {
  ek_folded_grid g = gemm_grid_of(&p->desc, p->desc.m, p->desc.n);
  p->groups[0] = g.across > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)g.across;
  p->groups[1] = g.rows;
  p->groups[2] = p->desc.batch;
}

bool gemm_grid_decodes(const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  if (gemm_runtime(d)) return (d->codegen & SPVGEN_GEMM_CODEGEN_FOLD_M) != 0;
  return gemm_grid_of(d, d->m, d->n).fold > 1;
}

void gemm_grid_declare(spvgen_module *m, const spvgen_gemm_config *p, gemm_grid_vars *v) {
  v->wg = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  /* RUNTIME: the folded grid's rows, and split-K's slice count */
  v->nwg = gemm_runtime(&p->desc) && (gemm_grid_decodes(p) || p->desc.split_k > 1)
               ? ek_builtin_v3(m, SpvBuiltInNumWorkgroups)
               : 0;
}

void gemm_tile_origin(spvgen_module *m, const spvgen_gemm_config *p, const ek_gemm_shape *sh,
                      const gemm_grid_vars *v, uint32_t *bm, uint32_t *bn) {
  const spvgen_gemm_desc *d = &p->desc;
  if (!gemm_grid_decodes(p)) {
    ek_grid_tile_origin(m, v->wg, false, 0, 0, d->tile_n, d->tile_m, bn, bm);
    return;
  }
  uint32_t tiles_n, rows;
  bool past_m = true; /* workgroups of the last fold may lie past M */
  if (gemm_runtime(d)) { /* ceil(N / tile_n) from the push constant; the grid's rows */
    tiles_n = ek_div_imm(m, ek_add_imm(m, sh->n, d->tile_n - 1u), d->tile_n);
    rows = ek_load_v3_component(m, v->nwg, 1);
  } else {
    ek_folded_grid g = gemm_grid_of(d, d->m, d->n);
    tiles_n = ek_u32(m, gemm_ceil_div(d->n, d->tile_n));
    rows = ek_u32(m, g.rows);
    past_m = (uint64_t)g.rows * g.fold > gemm_ceil_div(d->m, d->tile_m);
  }
  ek_grid_tile_origin(m, v->wg, true, tiles_n, rows, d->tile_n, d->tile_m, bn, bm);
  /* a whole workgroup leaves together, before the kernel's first barrier */
  if (past_m) ek_return_if(m, spvgen_op_u_greater_than_equal(m, ek_bool_type(m), *bm, sh->m));
}
