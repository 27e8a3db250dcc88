/* emitters/gemm/pack.c — packed operands (spvgen/gemm.h, "Packed operands"): the plan's
 * workspace layout of the copies, the inner desc the main kernel is planned and emitted
 * for, the ids the main kernels read the copies with, and the pack kernel.
 *
 * Why a copy: a class whose leading dimensions are not whole 16-byte chunks, or whose K
 * (M, N) ends inside a tile, makes the main kernel clamp its loads (coopmat2's clamped
 * tensor layouts, the K-edge step) or gather them (khr), which costs the main loop far
 * more than moving the operands once (docs/design-notes.md, "Packed operands"). The
 * copy has whole tiles of zeros past the matrix, so the main kernel is the aligned,
 * tile-multiple kernel: only D's store (and C's load) still clamps.
 *
 * One layout rule, computed twice: in C for the plan and the launch (gemm_pack_layout_of),
 * and as ids in the kernels (gemm_pack_ids_of) from the shape's ids, so that a run-time
 * kernel derives it from the push constants it shares with the others. */
#include <string.h>

#include "error_private.h" /* lib/core: the one error formatter */
#include "gemm_internal.h"

/* Where the copies lie, in bytes: 256-byte aligned (every tensor base and 16-byte view). */
#define PACK_ALIGN 256u


static uint64_t round_up64(uint64_t x, uint64_t q) { return (x + q - 1) / q * q; }

void gemm_pack_layout_of(const spvgen_gemm_desc *d, uint32_t m, uint32_t n, uint32_t k, uint32_t batch,
                         uint64_t partial_bytes, gemm_pack_layout *l) {
  memset(l, 0, sizeof *l);
  const bool pa = gemm_packs(d, 'a'), pb = gemm_packs(d, 'b');
  l->kp = (uint32_t)round_up64(k, d->tile_k);
  l->mp = (uint32_t)round_up64(m, d->tile_m);
  l->np = (uint32_t)round_up64(n, d->tile_n);
  l->lda = d->a_layout == SPVGEN_ROW_MAJOR ? l->kp : l->mp;
  l->ldb = d->b_layout == SPVGEN_ROW_MAJOR ? l->np : l->kp;
  l->stride_a = (uint64_t)l->mp * l->kp;
  l->stride_b = (uint64_t)l->kp * l->np;
  uint64_t at = round_up64(partial_bytes, PACK_ALIGN);
  if (pa) {
    l->a_off = at;
    at = round_up64(at + l->stride_a * batch * spvgen_component_type_size(d->a_type), PACK_ALIGN);
    l->elems += l->stride_a;
  }
  if (pb) {
    l->b_off = at;
    at += l->stride_b * batch * spvgen_component_type_size(d->b_type);
    l->elems += l->stride_b;
  }
  l->end = at;
}

void gemm_pack_grid(uint64_t elems, uint32_t batch, uint32_t groups[3]) {
  uint64_t wgs = (elems + GEMM_PACK_LOCAL * GEMM_PACK_PER_INVOCATION - 1) / (GEMM_PACK_LOCAL * GEMM_PACK_PER_INVOCATION);
  groups[0] = (uint32_t)(wgs < 65535u ? (wgs ? wgs : 1) : 65535u);
  groups[1] = (uint32_t)((wgs + groups[0] - 1) / groups[0]);
  if (!groups[1]) groups[1] = 1;
  groups[2] = batch;
}

void gemm_pack_inner(const spvgen_gemm_desc *o, spvgen_gemm_desc *in) {
  *in = *o;
  if (!gemm_packs(o, 'a') && !gemm_packs(o, 'b')) return;
  const bool ab = gemm_packs(o, 'a') && gemm_packs(o, 'b');
  if (gemm_runtime(o)) {
    /* both packed: K is whole tiles in the copies (the kernels derive it, gemm_pack_apply) */
    if (ab && !gemm_dim_multiple(o, 'k', o->tile_k)) in->k_multiple = o->tile_k;
    return;
  }
  gemm_pack_layout l;
  gemm_pack_layout_of(o, o->m, o->n, o->k, o->batch, 0, &l);
  if (gemm_packs(o, 'a')) in->lda = l.lda, in->stride_a = l.stride_a;
  if (gemm_packs(o, 'b')) in->ldb = l.ldb, in->stride_b = l.stride_b;
  if (ab) in->k = l.kp;
}

spvgen_status gemm_pack_plan(spvgen_gemm_config *p, char *msg, size_t size) {
  const spvgen_gemm_desc *d = &p->desc;
  p->workspace_binding = 3u + (d->beta != 0.0f) + (d->bias != SPVGEN_GEMM_BIAS_NONE);
  ek_str x = ek_str_after(p->name, sizeof p->name);
  ek_str_put(&x, " pack ");
  ek_str_put(&x, spvgen_gemm_pack_name(d->pack));
  if (gemm_runtime(d)) return SPVGEN_OK; /* the layout and the grid per launch */
  gemm_pack_layout l;
  gemm_pack_layout_of(d, d->m, d->n, d->k, d->batch, p->workspace_bytes, &l);
  spvgen_status st = gemm_pack_check(d, &l, d->m, d->n, d->k, d->lda, d->ldb, "spvgen_gemm_plan", msg, size);
  if (st != SPVGEN_OK) return st;
  p->workspace_bytes = l.end;
  p->pack_a_offset = l.a_off;
  p->pack_b_offset = l.b_off;
  gemm_pack_grid(l.elems, d->batch, p->pack_groups);
  return SPVGEN_OK;
}

spvgen_status gemm_pack_check(const spvgen_gemm_desc *d, const gemm_pack_layout *l, uint32_t m, uint32_t n,
                              uint32_t k, uint32_t lda, uint32_t ldb, const char *fn, char *msg, size_t size) {
  if (l->end > 0xFFFFFFFFull)
    return sg_error_format(msg, size, SPVGEN_ERROR_UNSUPPORTED, fn,
                           "pack %s: the workspace would hold %llu bytes; the kernels index it with 32-bit byte "
                           "offsets (at most 2^32 - 1: a smaller batch, or pack none)",
                           spvgen_gemm_pack_name(d->pack), (unsigned long long)l->end);
  if (d->addressing != SPVGEN_ADDRESSING_DEVICE_ADDRESS) return SPVGEN_OK;
  /* device addresses: the pack kernel indexes a batch's source and copy in 32-bit signed
   * arithmetic from the batch's start */
  struct { bool on; const char *name; spvgen_matrix_layout lay; uint32_t rows, cols, ld; uint64_t copy; } op[2] = {
      {gemm_packs(d, 'a'), "a", d->a_layout, m, k, lda, l->stride_a},
      {gemm_packs(d, 'b'), "b", d->b_layout, k, n, ldb, l->stride_b}};
  for (int i = 0; i < 2; i++) {
    if (!op[i].on) continue;
    const bool row = op[i].lay == SPVGEN_ROW_MAJOR;
    uint64_t reach = (uint64_t)((row ? op[i].rows : op[i].cols) - 1) * op[i].ld + (row ? op[i].cols : op[i].rows);
    if (reach > SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS || op[i].copy > SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS)
      return sg_error_format(msg, size, SPVGEN_ERROR_UNSUPPORTED, fn,
                             "pack %s: %s spans %llu elements of one batch (its copy %llu); with device addresses "
                             "the pack kernel indexes a batch in 32-bit signed arithmetic (at most 2^31 - 1)",
                             spvgen_gemm_pack_name(d->pack), op[i].name, (unsigned long long)reach,
                             (unsigned long long)op[i].copy);
  }
  return SPVGEN_OK;
}

/* -------------------------------------------------------------- kernel ids ---- */

/* x rounded up to a power of two q (ids; folds for constants). */
static uint32_t round_up_id(spvgen_module *m, uint32_t x, uint32_t q) {
  return ek_mul_imm(m, ek_div_imm(m, ek_add_imm(m, x, q - 1), q), q);
}

void gemm_pack_ids_of(spvgen_module *m, const spvgen_gemm_config *p, const ek_gemm_shape *sh, gemm_pack_ids *ids) {
  const spvgen_gemm_desc *d = &p->desc;
  memset(ids, 0, sizeof *ids);
  ids->kp = round_up_id(m, sh->k, d->tile_k);
  ids->mp = round_up_id(m, sh->m, d->tile_m);
  ids->np = round_up_id(m, sh->n, d->tile_n);
  ids->lda = d->a_layout == SPVGEN_ROW_MAJOR ? ids->kp : ids->mp;
  ids->ldb = d->b_layout == SPVGEN_ROW_MAJOR ? ids->np : ids->kp;
  ids->stride_a = ek_imul(m, ids->mp, ids->kp);
  ids->stride_b = ek_imul(m, ids->kp, ids->np);
  /* split-K's partial planes first: split_k * batch * M * workspace_ld words */
  uint32_t at = ek_u32(m, 0);
  if (d->split_k > 1)
    at = round_up_id(m, ek_mul_imm(m, ek_imul(m, ek_imul(m, sh->split_k, sh->batch), ek_imul(m, sh->m, sh->workspace_ld)), 4),
                     PACK_ALIGN);
  if (gemm_packs(d, 'a')) {
    ids->a_off = at;
    uint32_t bytes = ek_mul_imm(m, ek_imul(m, ids->stride_a, sh->batch), spvgen_component_type_size(d->a_type));
    at = round_up_id(m, ek_iadd(m, at, bytes), PACK_ALIGN);
  }
  if (gemm_packs(d, 'b')) ids->b_off = at;
}

bool gemm_pack_main(spvgen_module *m, const spvgen_gemm_config *p, ek_gemm_shape *sh, gemm_pack_ids *ids) {
  const spvgen_gemm_desc *d = &p->desc;
  memset(ids, 0, sizeof *ids);
  const bool pa = gemm_packs(d, 'a'), pb = gemm_packs(d, 'b');
  if (!pa && !pb) return false;
  gemm_pack_ids_of(m, p, sh, ids);
  if (pa && pb) sh->k = ids->kp; /* zeros past K in both copies: whole K steps */
  if (pa) sh->lda = ids->lda, sh->stride_a = ids->stride_a;
  if (pb) sh->ldb = ids->ldb, sh->stride_b = ids->stride_b;
  return true;
}

uint32_t gemm_pack_base(spvgen_module *m, const spvgen_gemm_desc *d, const gemm_pack_ids *ids, char op, ek_buffer *buf,
                        uint32_t base) {
  if (!gemm_packs(d, op)) return base;
  const uint32_t off = op == 'a' ? ids->a_off : ids->b_off;
  if (buf->ptr_type) { /* device address: the pointer moves to the copy */
    ek_buffer_rebase(m, buf, spvgen_op_u_convert(m, spvgen_type_int(m, 64, false), off));
    return base;
  }
  uint32_t el = ek_div_imm(m, off, spvgen_component_type_size(op == 'a' ? d->a_type : d->b_type));
  return base ? ek_iadd(m, base, el) : el;
}

/* ---------------------------------------------------------- the pack kernel ---- */

/* One operand's part of the pack kernel: its source and copy and the ids of its layout. */
typedef struct pack_operand {
  ek_buffer src, dst;
  uint32_t outer, inner;     /* the source's extents (ids) in its layout */
  uint32_t ld, stride;       /* the source's */
  uint32_t inner_p;          /* the copy's inner extent (its leading dimension) */
  uint32_t elems;            /* the copy's elements per batch */
  uint32_t dst_base;         /* the copy's first element of this batch (descriptors) */
  uint32_t src_base;         /* the source's (descriptors) */
} pack_operand;

/* Copies element e (an id, < op->elems) of one batch's copy: the source's element, or 0
 * past its extents. */
static void pack_element(spvgen_module *m, const pack_operand *op, uint32_t e) {
  uint32_t o = ek_udiv(m, e, op->inner_p), i = ek_isub(m, e, ek_imul(m, o, op->inner_p));
  uint32_t inside = ek_all(m, ek_ult(m, o, op->outer), ek_ult(m, i, op->inner));
  uint32_t idx = ek_iadd(m, ek_imul(m, o, op->ld), i);
  if (op->src_base) idx = ek_iadd(m, idx, op->src_base);
  uint32_t at = op->dst_base ? ek_iadd(m, e, op->dst_base) : e;
  /* a branch, not a select: a select of the element type would need its arithmetic
   * capability (Float16, Int8, ...), which storage alone does not give */
  spvgen_if(m, inside);
  ek_store_elem(m, &op->dst, at, ek_load_elem(m, &op->src, idx));
  spvgen_else(m);
  ek_store_elem(m, &op->dst, at, spvgen_const_bits(m, op->src.elem_type, 0));
  spvgen_end_if(m);
}

void gemm_pack_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  const bool pa = gemm_packs(d, 'a'), pb = gemm_packs(d, 'b');
  ek_buffer A, B, ws;
  ek_gemm_shape sh;
  memset(&A, 0, sizeof A);
  memset(&B, 0, sizeof B);
  ek_gemm_pack_interface(m, p, &A, &B, &sh, &ws);
  const bool bda = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  pack_operand oa, ob;
  memset(&oa, 0, sizeof oa);
  memset(&ob, 0, sizeof ob);
  oa.src = A;
  ob.src = B;
  if (bda) {
    if (pa) oa.dst = ek_buffer_view(m, &ws, ek_type(m, d->a_type), 0, false, "A_packed");
    if (pb) ob.dst = ek_buffer_view(m, &ws, ek_type(m, d->b_type), 0, false, "B_packed");
  } else {
    if (pa) oa.dst = ek_buffer_decl(m, ek_type(m, d->a_type), p->workspace_binding, false, "A_packed");
    if (pb) ob.dst = ek_buffer_decl(m, ek_type(m, d->b_type), p->workspace_binding, false, "B_packed");
  }
  uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  uint32_t nwg_var = gemm_runtime(d) ? ek_builtin_v3(m, SpvBuiltInNumWorkgroups) : 0;
  uint32_t lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  spvgen_name(m, spvgen_compute_main(m, "main", GEMM_PACK_LOCAL, 1, 1), "main");
  ek_gemm_shape_load(m, p, &sh);
  gemm_pack_ids ids;
  gemm_pack_ids_of(m, p, &sh, &ids);
  const uint32_t z = gemm_runtime(d) || d->batch > 1 ? ek_load_v3_component(m, wg_var, 2) : ek_u32(m, 0);
  const bool batched = gemm_runtime(d) || d->batch > 1;
  pack_operand *ops[2] = {pa ? &oa : NULL, pb ? &ob : NULL};
  for (int w = 0; w < 2; w++) {
    pack_operand *op = ops[w];
    if (!op) continue;
    const bool is_a = w == 0;
    const spvgen_matrix_layout lay = is_a ? d->a_layout : d->b_layout;
    const uint32_t rows = is_a ? sh.m : sh.k, cols = is_a ? sh.k : sh.n;
    op->outer = lay == SPVGEN_ROW_MAJOR ? rows : cols;
    op->inner = lay == SPVGEN_ROW_MAJOR ? cols : rows;
    op->ld = is_a ? sh.lda : sh.ldb;
    op->stride = is_a ? sh.stride_a : sh.stride_b;
    op->inner_p = is_a ? ids.lda : ids.ldb;
    op->elems = is_a ? ids.stride_a : ids.stride_b;
    const uint32_t off = is_a ? ids.a_off : ids.b_off;
    const uint32_t esize = spvgen_component_type_size(is_a ? d->a_type : d->b_type);
    if (bda) { /* the pointers move to the batch (64-bit), indices count from there */
      const uint32_t u64 = spvgen_type_int(m, 64, false);
      uint32_t dst_off = spvgen_op_u_convert(m, u64, off);
      if (batched) {
        ek_buffer_rebase(m, &op->src, ek_batch_bytes64(m, z, op->stride, esize));
        dst_off = spvgen_op_i_add(m, u64, dst_off, ek_batch_bytes64(m, z, op->elems, esize));
      }
      ek_buffer_rebase(m, &op->dst, dst_off);
    } else {
      op->src_base = batched ? ek_imul(m, z, op->stride) : 0;
      op->dst_base = ek_iadd(m, ek_div_imm(m, off, esize), batched ? ek_imul(m, z, op->elems) : ek_u32(m, 0));
    }
  }
  /* this workgroup's GEMM_PACK_LOCAL * GEMM_PACK_PER_INVOCATION elements of the batch's copies (A's,
   * then B's), each step's invocations on consecutive elements */
  uint32_t nx = nwg_var ? ek_load_v3_component(m, nwg_var, 0) : ek_u32(m, p->pack_groups[0]);
  uint32_t wgl = ek_iadd(m, ek_imul(m, ek_load_v3_component(m, wg_var, 1), nx), ek_load_v3_component(m, wg_var, 0));
  uint32_t first = ek_iadd(m, ek_mul_imm(m, wgl, GEMM_PACK_LOCAL * GEMM_PACK_PER_INVOCATION), ek_load_u32(m, lid_var));
  const uint32_t ea = pa ? oa.elems : ek_u32(m, 0), total = pb ? ek_iadd(m, ea, ob.elems) : ea;
  for (uint32_t j = 0; j < GEMM_PACK_PER_INVOCATION; j++) {
    uint32_t e = ek_add_imm(m, first, j * GEMM_PACK_LOCAL);
    ek_guard g = ek_guard_begin(m, ek_ult(m, e, total));
    if (pa && pb) {
      spvgen_if(m, ek_ult(m, e, ea));
      pack_element(m, &oa, e);
      spvgen_else(m);
      pack_element(m, &ob, ek_isub(m, e, ea));
      spvgen_end_if(m);
    } else {
      pack_element(m, pa ? &oa : &ob, e);
    }
    ek_guard_end(m, g);
  }
  spvgen_function_end(m);
}
