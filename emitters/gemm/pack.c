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

/* What a dimension pads to: its tile, at least GEMM_PACK_MIN_PAD elements (both powers of
 * two: the larger is a multiple of the other), so that every row of a copy is whole
 * 16-byte units for the pack kernel's stores whatever the tile. */
static uint32_t pad_of(uint32_t tile) { return tile > GEMM_PACK_MIN_PAD ? tile : GEMM_PACK_MIN_PAD; }

/* What K pads to in the copies: the tile's pad, or, for a FIXED coopmat2 plan with both
 * operands packed and unsplit, whole groups of K_LOOP_GROUP steps where that adds at most
 * a sixteenth: the main kernel's K loop then counts a multiple of 8 iterations at unroll
 * 1, one loop the driver runs at full speed, where K padded to the tile alone would
 * leave a second loop for the rest (coopmat2.c, k_loop; docs/design-notes.md, "Packed K
 * in whole groups of 8 steps"). k is the shape's K (FIXED: the desc's). */
static uint32_t k_pad_of(const spvgen_gemm_desc *d, uint64_t k) {
  const uint32_t q = pad_of(d->tile_k);
  if (gemm_runtime(d) || d->variant != SPVGEN_GEMM_COOPMAT2 || !gemm_packs(d, 'a') || !gemm_packs(d, 'b') ||
      d->split_k > 1 || !cm2_split_k_loop(d) || d->tile_k < GEMM_PACK_MIN_PAD)
    return q;
  const uint64_t kp = round_up64(k, q), kg = round_up64(k, (uint64_t)q * GEMM_K_LOOP_GROUP);
  return (kg - kp) * 16u <= kp ? q * GEMM_K_LOOP_GROUP : q;
}

/* Workgroups of one operand's copy per batch: GEMM_PACK_TILE-square tiles of a transposed
 * copy (rows of row_bytes bytes), else GEMM_PACK_LOCAL x per 16-byte units. */
static uint64_t pack_groups_of(bool transposed, uint64_t rows, uint64_t row_bytes, uint32_t per) {
  if (transposed)
    return ((rows + GEMM_PACK_TILE - 1) / GEMM_PACK_TILE) * ((row_bytes + GEMM_PACK_TILE - 1) / GEMM_PACK_TILE);
  const uint64_t group = (uint64_t)GEMM_PACK_LOCAL * (per ? per : 1u);
  return (rows * row_bytes / 16u + group - 1) / group;
}

void gemm_pack_layout_of(const spvgen_gemm_desc *d, uint32_t m, uint32_t n, uint32_t k, uint32_t batch,
                         uint64_t partial_bytes, gemm_pack_layout *l) {
  memset(l, 0, sizeof *l);
  const bool pa = gemm_packs(d, 'a'), pb = gemm_packs(d, 'b');
  l->kp = (uint32_t)round_up64(k, k_pad_of(d, k));
  l->mp = (uint32_t)round_up64(m, pad_of(d->tile_m));
  l->np = (uint32_t)round_up64(n, pad_of(d->tile_n));
  l->lda = gemm_pack_copy_layout(d, 'a') == SPVGEN_ROW_MAJOR ? l->kp : l->mp;
  l->ldb = gemm_pack_copy_layout(d, 'b') == SPVGEN_ROW_MAJOR ? l->np : l->kp;
  l->stride_a = (uint64_t)l->mp * l->kp;
  l->stride_b = (uint64_t)l->kp * l->np;
  uint64_t at = round_up64(partial_bytes, PACK_ALIGN);
  if (pa) {
    const uint32_t es = spvgen_component_type_size(d->a_type);
    l->a_off = at;
    at = round_up64(at + l->stride_a * batch * es, PACK_ALIGN);
    l->groups_a = pack_groups_of(gemm_pack_transposes(d, 'a'), l->stride_a / l->lda, (uint64_t)l->lda * es,
                                 d->pack_units);
  }
  if (pb) {
    const uint32_t es = spvgen_component_type_size(d->b_type);
    l->b_off = at;
    at += l->stride_b * batch * es;
    l->groups_b = pack_groups_of(gemm_pack_transposes(d, 'b'), l->stride_b / l->ldb, (uint64_t)l->ldb * es,
                                 d->pack_units);
  }
  l->end = at;
}

void gemm_pack_grid(const gemm_pack_layout *l, uint32_t batch, uint32_t groups[3]) {
  const uint64_t wgs = l->groups_a + l->groups_b;
  groups[0] = (uint32_t)(wgs < 65535u ? (wgs ? wgs : 1) : 65535u);
  groups[1] = (uint32_t)((wgs + groups[0] - 1) / groups[0]);
  if (!groups[1]) groups[1] = 1;
  groups[2] = batch;
}

void gemm_pack_inner(const spvgen_gemm_desc *o, spvgen_gemm_desc *in) {
  *in = *o;
  if (!gemm_packs(o, 'a') && !gemm_packs(o, 'b')) return;
  const bool ab = gemm_packs(o, 'a') && gemm_packs(o, 'b');
  /* a transposed copy is K-contiguous: the main kernel reads it so (and transposes
   * nothing more: gemm_pack_transposes is false for the inner desc) */
  in->a_layout = gemm_pack_copy_layout(o, 'a');
  in->b_layout = gemm_pack_copy_layout(o, 'b');
  if (gemm_runtime(o)) {
    /* both packed: K is whole tiles in the copies (the kernels derive it, gemm_pack_main) */
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
  if (!p->desc.pack_units) p->desc.pack_units = 1;
  if (d->pack_units > 1) {
    ek_str_put(&x, " x");
    ek_str_u32(&x, d->pack_units);
  }
  if (gemm_pack_transposes(d, 'a') || gemm_pack_transposes(d, 'b')) ek_str_put(&x, " order k");
  if (gemm_runtime(d)) return SPVGEN_OK; /* the layout and the grid per launch */
  gemm_pack_layout l;
  gemm_pack_layout_of(d, d->m, d->n, d->k, d->batch, p->workspace_bytes, &l);
  spvgen_status st = gemm_pack_check(d, &l, d->m, d->n, d->k, d->lda, d->ldb, "spvgen_gemm_plan", msg, size);
  if (st != SPVGEN_OK) return st;
  p->workspace_bytes = l.end;
  p->pack_a_offset = l.a_off;
  p->pack_b_offset = l.b_off;
  gemm_pack_grid(&l, d->batch, p->pack_groups);
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
  /* (k_pad_of pads past the tile only for FIXED shapes, whose K is the desc's) */
  ids->kp = round_up_id(m, sh->k, k_pad_of(d, d->k));
  ids->mp = round_up_id(m, sh->m, pad_of(d->tile_m));
  ids->np = round_up_id(m, sh->n, pad_of(d->tile_n));
  ids->lda = gemm_pack_copy_layout(d, 'a') == SPVGEN_ROW_MAJOR ? ids->kp : ids->mp;
  ids->ldb = gemm_pack_copy_layout(d, 'b') == SPVGEN_ROW_MAJOR ? ids->np : ids->kp;
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

/* Why 16-byte units: every row of a copy is whole 16-byte units (the pads are at least
 * GEMM_PACK_MIN_PAD elements) and every copy starts on a 256-byte boundary, so each
 * invocation writes whole u32x4 units; element stores left most of the memory bandwidth
 * unused (docs/design-notes.md, "The pack kernel in 16-byte units"). The source is read 16 bytes
 * at a time where its class makes every unit of a row start on a 16-byte boundary, else
 * element by element, the elements packed into the unit with bitcasts (no arithmetic on
 * the element type, which storage capabilities alone do not allow).
 *
 * A transposed copy (pack_order K, an 8-bit operand stored along M or N) cannot write a
 * unit from one source row: its 16 bytes come from 16 source rows. Each workgroup moves a
 * GEMM_PACK_TILE-square tile of bytes through shared memory instead (docs/design-notes.md,
 * "Transposed copies of 8-bit operands"): every invocation reads a 4 x 4-byte block (four
 * 4-byte words, 16 invocations along each source row: 64 contiguous bytes a row),
 * transposes it in registers (bitcasts and vector shuffles, again no arithmetic on the
 * element type) and stores its four words into the tile transposed; after the barrier
 * every invocation writes one 16-byte unit of a copy row (4 invocations a row, along K).
 * The tile's rows are padded by one word, so that the words stored and read at once fall
 * into different banks (at most two to a bank). */

/* Words per row of the shared tile (GEMM_PACK_TILE bytes, one more word). */
#define TILE_ROW_WORDS (GEMM_PACK_TILE / 4u + 1u)

/* One operand's part of the pack kernel. A batch's copy is contiguous: its unit u is
 * unit u % upr of row u / upr. */
typedef struct pack_operand {
  ek_buffer src, src4, dst;      /* the source (elements; src4: its 16-byte view where vec,
                                    its 4-byte view where transposed and vec), the copy
                                    (16-byte units) */
  bool vec;                      /* the source's rows and batches start on 16-byte (transposed:
                                    4-byte) boundaries */
  bool transposed;               /* the copy is the source transposed (gemm_pack_transposes) */
  uint32_t epv, per_word;        /* elements per unit, per 32-bit word */
  uint32_t outer, inner;         /* the source's extents (ids) in its layout */
  uint32_t inner_units;          /* inner / epv: the units wholly inside a source row */
  uint32_t ld, ld4;              /* the source's leading dimension (elements; vec: units, or
                                    words where transposed) */
  uint32_t upr;                  /* the copy's units per row */
  uint32_t units;                /* the copy's units per batch */
  uint32_t groups;               /* the workgroups of this copy per batch */
  uint32_t rows, tiles_i, tiles; /* transposed: the copy's rows (the source's inner extent
                                    padded), tiles along them, tiles in all */
  uint32_t dst_base;             /* the copy's first unit of this batch (descriptors) */
  uint32_t src_base, src_base4;  /* the source's first element (unit; transposed: word) of
                                    this batch (descriptors) */
} pack_operand;

/* Whether operand A (is_a) or B is read a unit (transposed: a 4-byte word) at a time: its
 * leading dimension and batch stride are multiples of one for every shape of the class,
 * and its base aligned to one (descriptors: the binding's offset, as the khr variant's
 * views assume; device addresses: the info asks the coopmat2 variant's A and B for 16,
 * the simt variant's for 4). */
static bool pack_source_vec(const spvgen_gemm_desc *d, bool is_a, uint32_t epv, bool transposed) {
  if (transposed) return gemm_ld_multiple(d, is_a ? d->lda : d->ldb, is_a ? d->stride_a : d->stride_b, 4);
  if (d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS && d->variant == SPVGEN_GEMM_SIMT) return false;
  return gemm_ld_multiple(d, is_a ? d->lda : d->ldb, is_a ? d->stride_a : d->stride_b, epv);
}

/* A 32-bit word of op->per_word elements from scalar loads at idx0 + e0 + t. With ok
 * (per_word bool ids; NULL: all inside) an element outside loads index 0 and is masked
 * to zero in the word. */
static uint32_t pack_word(spvgen_module *m, const pack_operand *op, uint32_t idx0, uint32_t e0, const uint32_t *ok) {
  const uint32_t u32 = ek_u32_type(m), per = op->per_word, bits = 32u / per;
  uint32_t parts[4], mask = 0;
  for (uint32_t t = 0; t < per; t++) {
    uint32_t idx = ek_add_imm(m, idx0, e0 + t);
    if (ok) {
      idx = ek_select(m, ok[t], idx, ek_u32(m, 0));
      const uint32_t lane = per == 1 ? 0xFFFFFFFFu : ((1u << bits) - 1u) << (t * bits);
      const uint32_t part = ek_select(m, ok[t], ek_u32(m, lane), ek_u32(m, 0));
      mask = mask ? spvgen_op_bitwise_or(m, u32, mask, part) : part;
    }
    parts[t] = ek_load_elem(m, &op->src, idx);
  }
  const uint32_t wvec = per > 1 ? spvgen_type_vector(m, op->src.elem_type, per) : 0;
  uint32_t word = spvgen_op_bitcast(m, u32, per > 1 ? spvgen_op_composite_construct(m, wvec, parts, per) : parts[0]);
  return ok ? spvgen_op_bitwise_and(m, u32, word, mask) : word;
}

/* A unit of epv elements from scalar loads at idx0 + e (pack_word's ok, epv of them). */
static uint32_t pack_gather(spvgen_module *m, const pack_operand *op, uint32_t idx0, const uint32_t *ok) {
  uint32_t words[4];
  for (uint32_t w = 0; w < 4; w++)
    words[w] = pack_word(m, op, idx0, w * op->per_word, ok ? ok + w * op->per_word : NULL);
  return spvgen_op_composite_construct(m, spvgen_type_vector(m, ek_u32_type(m), 4), words, 4);
}

/* Writes unit u (an id, < op->units) of one batch's copy: a unit wholly inside the source
 * in one load (vec) or epv element loads; a row's unit that crosses the source's inner
 * extent, and the pads, element by element with zeros outside. */
static void pack_unit(spvgen_module *m, const pack_operand *op, uint32_t u) {
  const uint32_t o = ek_udiv(m, u, op->upr), iu = ek_isub(m, u, ek_imul(m, o, op->upr));
  const uint32_t i0 = ek_mul_imm(m, iu, op->epv);
  const uint32_t at = op->dst_base ? ek_iadd(m, u, op->dst_base) : u;
  const uint32_t in_rows = ek_ult(m, o, op->outer);
  uint32_t idx0 = ek_iadd(m, ek_imul(m, o, op->ld), i0);
  if (op->src_base) idx0 = ek_iadd(m, idx0, op->src_base);
  spvgen_if(m, ek_all(m, in_rows, ek_ult(m, iu, op->inner_units)));
  uint32_t v;
  if (op->vec) {
    uint32_t idx = ek_iadd(m, ek_imul(m, o, op->ld4), iu);
    if (op->src_base4) idx = ek_iadd(m, idx, op->src_base4);
    v = ek_load_elem(m, &op->src4, idx);
  } else {
    v = pack_gather(m, op, idx0, NULL);
  }
  ek_store_elem(m, &op->dst, at, v);
  spvgen_else(m);
  uint32_t ok[16];
  for (uint32_t e = 0; e < op->epv; e++) ok[e] = ek_all(m, in_rows, ek_ult(m, ek_add_imm(m, i0, e), op->inner));
  ek_store_elem(m, &op->dst, at, pack_gather(m, op, idx0, ok));
  spvgen_end_if(m);
}

/* This workgroup's units of a copy in its own order: GEMM_PACK_LOCAL x pack_units from
 * the group's first (w: the group's index among the copy's), each step's invocations on
 * consecutive units. */
static void pack_units_of(spvgen_module *m, const pack_operand *op, uint32_t per, uint32_t w, uint32_t lid) {
  const uint32_t first = ek_iadd(m, ek_mul_imm(m, w, GEMM_PACK_LOCAL * per), lid);
  if (per > 1) { /* a loop: its words do not grow with pack_units (the driver unrolls it or not) */
    ek_for loop;
    uint32_t u = ek_for_begin(m, &loop, first, ek_umin(m, ek_add_imm(m, first, per * GEMM_PACK_LOCAL), op->units),
                              ek_u32(m, GEMM_PACK_LOCAL), SpvLoopControlMaskNone);
    pack_unit(m, op, u);
    ek_for_end(m, &loop);
    return;
  }
  ek_guard g = ek_guard_begin(m, ek_ult(m, first, op->units));
  pack_unit(m, op, first);
  ek_guard_end(m, g);
}

/* Four source words (rows o + j, j < 4; elements i .. i + 3 of each) into the shared tile
 * transposed: word t of the block, the bytes of element i + t of rows o .. o + 3, goes to
 * tile row 4 iw + t, word og. interior: the whole tile is inside the source (no checks). */
static void tile_in(spvgen_module *m, const pack_operand *op, const ek_shared *tile, uint32_t o, uint32_t i,
                    uint32_t iw, uint32_t og, bool interior) {
  const uint32_t u32 = ek_u32_type(m), v4e = spvgen_type_vector(m, op->src.elem_type, 4);
  uint32_t col[4][4];
  for (uint32_t j = 0; j < 4; j++) {
    const uint32_t oj = ek_add_imm(m, o, j);
    uint32_t word;
    if (interior && op->vec) {
      uint32_t idx = ek_iadd(m, ek_imul(m, oj, op->ld4), ek_div_imm(m, i, 4));
      if (op->src_base4) idx = ek_iadd(m, idx, op->src_base4);
      word = ek_load_elem(m, &op->src4, idx);
    } else {
      uint32_t idx0 = ek_iadd(m, ek_imul(m, oj, op->ld), i);
      if (op->src_base) idx0 = ek_iadd(m, idx0, op->src_base);
      uint32_t ok[4];
      if (!interior) {
        const uint32_t in_o = ek_ult(m, oj, op->outer);
        for (uint32_t t = 0; t < 4; t++) ok[t] = ek_all(m, in_o, ek_ult(m, ek_add_imm(m, i, t), op->inner));
      }
      word = pack_word(m, op, idx0, 0, interior ? NULL : ok);
    }
    const uint32_t v = spvgen_op_bitcast(m, v4e, word);
    for (uint32_t t = 0; t < 4; t++) col[t][j] = spvgen_op_composite_extract(m, op->src.elem_type, v, &t, 1);
  }
  for (uint32_t t = 0; t < 4; t++) {
    const uint32_t w = spvgen_op_bitcast(m, u32, spvgen_op_composite_construct(m, v4e, col[t], 4));
    const uint32_t row = ek_add_imm(m, ek_mul_imm(m, iw, 4), t);
    ek_shared_store(m, tile, ek_iadd(m, ek_mul_imm(m, row, TILE_ROW_WORDS), og), w);
  }
}

/* Tile t (a workgroup-uniform id) of a transposed copy: GEMM_PACK_TILE source rows (the
 * copy's K) by GEMM_PACK_TILE bytes of each (the copy's rows), zeros outside the source;
 * the copy's units outside its rows and row length are left alone. */
static void pack_tile(spvgen_module *m, const pack_operand *op, const ek_shared *tile, uint32_t t, uint32_t lid) {
  const uint32_t T = GEMM_PACK_TILE, u32 = ek_u32_type(m);
  ek_guard g = ek_guard_begin(m, ek_ult(m, t, op->tiles)); /* uniform: the barrier inside */
  const uint32_t ti = ek_umod(m, t, op->tiles_i), to = ek_udiv(m, t, op->tiles_i);
  const uint32_t i0 = ek_mul_imm(m, ti, T), o0 = ek_mul_imm(m, to, T);
  /* in: invocation (iw, og) reads rows o0 + 4 og .. + 3, bytes i0 + 4 iw .. + 3 */
  const uint32_t iw = ek_mod_imm(m, lid, T / 4), og = ek_div_imm(m, lid, T / 4);
  const uint32_t i = ek_iadd(m, i0, ek_mul_imm(m, iw, 4)), o = ek_iadd(m, o0, ek_mul_imm(m, og, 4));
  spvgen_if(m, ek_all(m, ek_ule(m, ek_add_imm(m, o0, T), op->outer), ek_ule(m, ek_add_imm(m, i0, T), op->inner)));
  tile_in(m, op, tile, o, i, iw, og, true);
  spvgen_else(m);
  tile_in(m, op, tile, o, i, iw, og, false);
  spvgen_end_if(m);
  spvgen_workgroup_barrier(m);
  /* out: invocation (r, c) writes unit c of the tile's row r (copy row i0 + r, its unit
   * o0 / 16 + c): 4 consecutive invocations on a row's 64 bytes */
  const uint32_t r = ek_div_imm(m, lid, T / 16), c = ek_mod_imm(m, lid, T / 16);
  const uint32_t row = ek_iadd(m, i0, r), unit = ek_iadd(m, ek_div_imm(m, o0, 16), c);
  uint32_t words[4];
  const uint32_t w0 = ek_iadd(m, ek_mul_imm(m, r, TILE_ROW_WORDS), ek_mul_imm(m, c, 4));
  for (uint32_t q = 0; q < 4; q++) words[q] = ek_shared_load(m, tile, ek_add_imm(m, w0, q));
  ek_guard inside = ek_guard_begin(m, ek_all(m, ek_ult(m, row, op->rows), ek_ult(m, unit, op->upr)));
  uint32_t at = ek_iadd(m, ek_imul(m, row, op->upr), unit);
  if (op->dst_base) at = ek_iadd(m, at, op->dst_base);
  ek_store_elem(m, &op->dst, at, spvgen_op_composite_construct(m, spvgen_type_vector(m, u32, 4), words, 4));
  ek_guard_end(m, inside);
  ek_guard_end(m, g);
}

/* Group w (an id, workgroup-uniform) of op's copy. */
static void pack_group(spvgen_module *m, const pack_operand *op, const ek_shared *tile, uint32_t per, uint32_t w,
                       uint32_t lid) {
  if (op->transposed) pack_tile(m, op, tile, w, lid);
  else pack_units_of(m, op, per, w, lid);
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
  const uint32_t u32 = ek_u32_type(m), v4 = spvgen_type_vector(m, u32, 4);
  pack_operand oa, ob;
  memset(&oa, 0, sizeof oa);
  memset(&ob, 0, sizeof ob);
  oa.src = A;
  ob.src = B;
  if (bda) {
    if (pa) oa.dst = ek_buffer_view(m, &ws, v4, 0, false, "A_packed");
    if (pb) ob.dst = ek_buffer_view(m, &ws, v4, 0, false, "B_packed");
  } else { /* one binding: both copies as 16-byte units */
    oa.dst = ob.dst = ek_buffer_decl(m, v4, p->workspace_binding, false, "packed");
  }
  pack_operand *ops[2] = {pa ? &oa : NULL, pb ? &ob : NULL};
  bool any_transposed = false;
  for (int w = 0; w < 2; w++) { /* the sources' wide views, before the entry point */
    pack_operand *op = ops[w];
    if (!op) continue;
    const uint32_t esize = spvgen_component_type_size(w == 0 ? d->a_type : d->b_type);
    op->epv = 16u / esize;
    op->per_word = 4u / esize;
    op->transposed = gemm_pack_transposes(d, w == 0 ? 'a' : 'b');
    any_transposed |= op->transposed;
    op->vec = pack_source_vec(d, w == 0, op->epv, op->transposed);
    if (op->vec && !bda)
      op->src4 = ek_buffer_view(m, &op->src, op->transposed ? u32 : v4, w == 0 ? 0 : 1, true,
                                op->transposed ? (w == 0 ? "A32" : "B32") : (w == 0 ? "A4" : "B4"));
  }
  ek_shared tile;
  memset(&tile, 0, sizeof tile);
  if (any_transposed) tile = ek_shared_array(m, u32, GEMM_PACK_TILE * TILE_ROW_WORDS, "tile");
  uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  uint32_t nwg_var = gemm_runtime(d) ? ek_builtin_v3(m, SpvBuiltInNumWorkgroups) : 0;
  uint32_t lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  spvgen_name(m, spvgen_compute_main(m, "main", GEMM_PACK_LOCAL, 1, 1), "main");
  ek_gemm_shape_load(m, p, &sh);
  gemm_pack_ids ids;
  gemm_pack_ids_of(m, p, &sh, &ids);
  const uint32_t z = gemm_runtime(d) || d->batch > 1 ? ek_load_v3_component(m, wg_var, 2) : ek_u32(m, 0);
  const bool batched = gemm_runtime(d) || d->batch > 1;
  const uint32_t per = d->pack_units ? d->pack_units : 1u;
  for (int w = 0; w < 2; w++) {
    pack_operand *op = ops[w];
    if (!op) continue;
    const bool is_a = w == 0;
    const spvgen_matrix_layout lay = is_a ? d->a_layout : d->b_layout;
    const uint32_t rows = is_a ? sh.m : sh.k, cols = is_a ? sh.k : sh.n;
    const uint32_t esize = 16u / op->epv;
    op->outer = lay == SPVGEN_ROW_MAJOR ? rows : cols;
    op->inner = lay == SPVGEN_ROW_MAJOR ? cols : rows;
    op->inner_units = ek_div_imm(m, op->inner, op->epv);
    op->ld = is_a ? sh.lda : sh.ldb;
    const uint32_t wide = op->transposed ? 4u : op->epv; /* elements per wide load */
    if (op->vec) op->ld4 = ek_div_imm(m, op->ld, wide);
    const uint32_t stride = is_a ? sh.stride_a : sh.stride_b;
    const uint32_t copy_ld = is_a ? ids.lda : ids.ldb;
    op->upr = ek_div_imm(m, copy_ld, op->epv);
    const uint32_t elems = is_a ? ids.stride_a : ids.stride_b;
    op->units = ek_div_imm(m, elems, op->epv);
    if (op->transposed) { /* tiles over the copy's rows (the source's inner extent) and K */
      op->rows = is_a ? ids.mp : ids.np;
      op->tiles_i = ek_div_imm(m, ek_add_imm(m, op->rows, GEMM_PACK_TILE - 1), GEMM_PACK_TILE);
      op->tiles = ek_imul(m, op->tiles_i, ek_div_imm(m, ek_add_imm(m, copy_ld, GEMM_PACK_TILE - 1), GEMM_PACK_TILE));
      op->groups = op->tiles;
    } else {
      op->groups = ek_div_imm(m, ek_add_imm(m, op->units, GEMM_PACK_LOCAL * per - 1), GEMM_PACK_LOCAL * per);
    }
    const uint32_t off = is_a ? ids.a_off : ids.b_off;
    if (bda) { /* the pointers move to the batch (64-bit), indices count from there */
      const uint32_t u64 = spvgen_type_int(m, 64, false);
      uint32_t dst_off = spvgen_op_u_convert(m, u64, off);
      if (batched) {
        ek_buffer_rebase(m, &op->src, ek_batch_bytes64(m, z, stride, esize));
        dst_off = spvgen_op_i_add(m, u64, dst_off, ek_batch_bytes64(m, z, elems, esize));
      }
      ek_buffer_rebase(m, &op->dst, dst_off);
      if (op->vec)
        op->src4 = ek_buffer_view(m, &op->src, op->transposed ? u32 : v4, 0, true,
                                  op->transposed ? (is_a ? "A32" : "B32") : (is_a ? "A4" : "B4"));
    } else {
      op->src_base = batched ? ek_imul(m, z, stride) : 0;
      if (op->vec && batched) op->src_base4 = ek_imul(m, z, ek_div_imm(m, stride, wide));
      op->dst_base = ek_iadd(m, ek_div_imm(m, off, 16), batched ? ek_imul(m, z, op->units) : ek_u32(m, 0));
    }
  }
  /* this workgroup's part (A's workgroups first, then B's; a copy's part uniform over the
   * workgroup, as the transposing tiles' barrier needs) */
  uint32_t nx = nwg_var ? ek_load_v3_component(m, nwg_var, 0) : ek_u32(m, p->pack_groups[0]);
  uint32_t wgl = ek_iadd(m, ek_imul(m, ek_load_v3_component(m, wg_var, 1), nx), ek_load_v3_component(m, wg_var, 0));
  const uint32_t lid = ek_load_u32(m, lid_var);
  if (pa && pb) {
    spvgen_if(m, ek_ult(m, wgl, oa.groups));
    pack_group(m, &oa, &tile, per, wgl, lid);
    spvgen_else(m);
    pack_group(m, &ob, &tile, per, ek_isub(m, wgl, oa.groups), lid);
    spvgen_end_if(m);
  } else {
    pack_group(m, pa ? &oa : &ob, &tile, per, wgl, lid);
  }
  spvgen_function_end(m);
}
