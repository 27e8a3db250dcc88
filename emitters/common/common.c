/* emitters/common/common.c — see common.h. */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------- types ---- */

uint32_t ek_type(spvgen_module *m, spvgen_component_type t) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: return spvgen_type_float(m, 16);
  case SPVGEN_COMPONENT_F32: return spvgen_type_float(m, 32);
  case SPVGEN_COMPONENT_F64: return spvgen_type_float(m, 64);
  case SPVGEN_COMPONENT_BF16: return spvgen_type_bfloat16(m);
  case SPVGEN_COMPONENT_E4M3: return spvgen_type_float_e4m3(m);
  case SPVGEN_COMPONENT_E5M2: return spvgen_type_float_e5m2(m);
  case SPVGEN_COMPONENT_S8: return spvgen_type_int(m, 8, true);
  case SPVGEN_COMPONENT_S16: return spvgen_type_int(m, 16, true);
  case SPVGEN_COMPONENT_S32: return spvgen_type_int(m, 32, true);
  case SPVGEN_COMPONENT_S64: return spvgen_type_int(m, 64, true);
  case SPVGEN_COMPONENT_U8: return spvgen_type_int(m, 8, false);
  case SPVGEN_COMPONENT_U16: return spvgen_type_int(m, 16, false);
  case SPVGEN_COMPONENT_U32: return spvgen_type_int(m, 32, false);
  case SPVGEN_COMPONENT_U64: return spvgen_type_int(m, 64, false);
  default:
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "emitter: component type %s has no scalar type",
                              spvgen_component_type_name(t));
  }
}

bool ek_is_float(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_F32 || t == SPVGEN_COMPONENT_F64 ||
         t == SPVGEN_COMPONENT_BF16 || t == SPVGEN_COMPONENT_E4M3 || t == SPVGEN_COMPONENT_E5M2;
}

bool ek_is_signed(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_S8 || t == SPVGEN_COMPONENT_S16 || t == SPVGEN_COMPONENT_S32 ||
         t == SPVGEN_COMPONENT_S64;
}

uint32_t ek_u32_type(spvgen_module *m) { return spvgen_type_int(m, 32, false); }
uint32_t ek_f32_type(spvgen_module *m) { return spvgen_type_float(m, 32); }
uint32_t ek_bool_type(spvgen_module *m) { return spvgen_type_bool(m); }

static uint32_t width_of(spvgen_component_type t) { return spvgen_component_type_size(t) * 8; }

uint32_t ek_convert(spvgen_module *m, uint32_t v, spvgen_component_type from,
                    spvgen_component_type to) {
  if (from == to) return v;
  uint32_t rt = ek_type(m, to);
  bool ff = ek_is_float(from), tf = ek_is_float(to);
  if (ff && tf) return spvgen_op_f_convert(m, rt, v);
  if (!ff && tf)
    return ek_is_signed(from) ? spvgen_op_convert_s_to_f(m, rt, v) : spvgen_op_convert_u_to_f(m, rt, v);
  if (ff && !tf) {
    uint32_t r = spvgen_glsl_round_even(m, ek_type(m, from), v);
    return ek_is_signed(to) ? spvgen_op_convert_f_to_s(m, rt, r) : spvgen_op_convert_f_to_u(m, rt, r);
  }
  /* integer to integer */
  if (width_of(from) == width_of(to)) return spvgen_op_bitcast(m, rt, v);
  if (ek_is_signed(from)) {
    /* sign-extend (or truncate) at the source's signedness, then reinterpret */
    uint32_t st = spvgen_type_int(m, width_of(to), true);
    uint32_t x = spvgen_op_s_convert(m, st, v);
    return st == rt ? x : spvgen_op_bitcast(m, rt, x);
  }
  uint32_t ut = spvgen_type_int(m, width_of(to), false);
  uint32_t x = spvgen_op_u_convert(m, ut, v);
  return ut == rt ? x : spvgen_op_bitcast(m, rt, x);
}

/* ----------------------------------------------------------------- buffers ---- */

ek_buffer ek_buffer_decl(spvgen_module *m, uint32_t elem_type, uint32_t binding, bool readonly,
                         const char *name) {
  ek_buffer b;
  memset(&b, 0, sizeof b);
  b.elem_type = elem_type;
  b.var = spvgen_storage_buffer(m, elem_type, 0, binding, readonly, &b.elem_ptr);
  uint32_t size = spvgen_type_size(m, elem_type);
  if (size)
    b.array_ptr = spvgen_type_pointer(m, SpvStorageClassStorageBuffer,
                                      spvgen_type_runtime_array_strided(m, elem_type, size));
  if (name) spvgen_name(m, b.var, name);
  return b;
}

spvgen_push_constant_block ek_push_constants_bda(spvgen_module *m, const uint32_t *lead_types,
                                                 const char *const *lead_names, uint32_t lead,
                                                 const uint32_t *elem_types, const bool *readonly,
                                                 const char *const *names, uint32_t count, ek_buffer *out) {
  uint32_t types[SPVGEN_PUSH_CONSTANT_MAX_MEMBERS];
  const char *member_names[SPVGEN_PUSH_CONSTANT_MAX_MEMBERS];
  spvgen_push_constant_block none;
  memset(&none, 0, sizeof none);
  if (lead + count > SPVGEN_PUSH_CONSTANT_MAX_MEMBERS) {
    spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "ek_push_constants_bda: %u members; a block has at most %u",
                       lead + count, SPVGEN_PUSH_CONSTANT_MAX_MEMBERS);
    return none;
  }
  for (uint32_t i = 0; i < lead; i++) {
    types[i] = lead_types[i];
    member_names[i] = lead_names ? lead_names[i] : NULL;
  }
  for (uint32_t i = 0; i < count; i++) {
    ek_buffer *b = &out[i];
    memset(b, 0, sizeof *b);
    b->elem_type = elem_types[i];
    uint32_t rta = spvgen_type_runtime_array_strided(m, elem_types[i], spvgen_type_size(m, elem_types[i]));
    uint32_t st = spvgen_type_struct(m, &rta, 1);
    spvgen_decorate(m, st, SpvDecorationBlock);
    spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
    if (readonly[i]) spvgen_member_decorate(m, st, 0, SpvDecorationNonWritable);
    b->ptr_type = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, st);
    b->pc_ptr_type = b->ptr_type;
    b->elem_ptr = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, elem_types[i]);
    b->array_ptr = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, rta);
    types[lead + i] = b->ptr_type;
    member_names[lead + i] = names ? names[i] : NULL;
  }
  spvgen_push_constant_block blk = ek_push_constants(m, types, member_names, lead + count);
  for (uint32_t i = 0; i < count && blk.count; i++) {
    out[i].var = blk.variable;
    out[i].pc_member = lead + i;
    out[i].pc_member_ptr = blk.member_pointer_types[lead + i];
  }
  return blk;
}

/* The buffer's base pointer: its variable, or its address loaded from the push
 * constants (a load per access; drivers fold the repeats). */
static uint32_t buffer_base(spvgen_module *m, const ek_buffer *b) {
  if (!b->ptr_type) return b->var;
  if (b->base) return b->base;
  uint32_t member = ek_u32(m, b->pc_member);
  uint32_t p = spvgen_load(m, b->pc_ptr_type, spvgen_access_chain(m, b->pc_member_ptr, b->var, &member, 1));
  return b->pc_ptr_type == b->ptr_type ? p : spvgen_op_bitcast(m, b->ptr_type, p);
}

ek_buffer ek_buffer_view(spvgen_module *m, const ek_buffer *b, uint32_t elem_type, uint32_t binding, bool readonly,
                         const char *name) {
  if (!b->ptr_type) return ek_buffer_decl(m, elem_type, binding, readonly, name);
  ek_buffer v = *b;
  v.elem_type = elem_type;
  uint32_t rta = spvgen_type_runtime_array_strided(m, elem_type, spvgen_type_size(m, elem_type));
  uint32_t st = spvgen_type_struct(m, &rta, 1);
  spvgen_decorate(m, st, SpvDecorationBlock);
  spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
  if (readonly) spvgen_member_decorate(m, st, 0, SpvDecorationNonWritable);
  v.ptr_type = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, st);
  v.elem_ptr = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, elem_type);
  v.array_ptr = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, rta);
  if (b->base) v.base = spvgen_op_bitcast(m, v.ptr_type, b->base);
  return v;
}

void ek_buffer_rebase(spvgen_module *m, ek_buffer *b, uint32_t offset64) {
  if (!b->ptr_type || !offset64) return;
  uint32_t u64 = spvgen_type_int(m, 64, false);
  uint32_t at = spvgen_op_convert_ptr_to_u(m, u64, buffer_base(m, b));
  b->base = spvgen_op_convert_u_to_ptr(m, b->ptr_type, spvgen_op_i_add(m, u64, at, offset64));
}

uint32_t ek_batch_bytes64(spvgen_module *m, uint32_t z, uint32_t stride, uint32_t esize) {
  uint32_t u64 = spvgen_type_int(m, 64, false);
  uint32_t s = spvgen_op_u_convert(m, u64, stride);
  if (esize > 1) s = spvgen_op_i_mul(m, u64, s, spvgen_const_bits(m, u64, esize));
  return spvgen_op_i_mul(m, u64, spvgen_op_u_convert(m, u64, z), s);
}

uint32_t ek_matrix_bytes64(spvgen_module *m, spvgen_matrix_layout layout, uint32_t ld, uint32_t row0, uint32_t col0,
                           uint32_t esize) {
  uint32_t u64 = spvgen_type_int(m, 64, false);
  uint32_t outer = layout == SPVGEN_ROW_MAJOR ? row0 : col0, inner = layout == SPVGEN_ROW_MAJOR ? col0 : row0;
  uint32_t bytes = 0, ldv = 0;
  if (outer) { /* outer * (ld * esize): one constant for a constant ld */
    uint32_t row = ek_const_int(m, ld, &ldv) ? spvgen_const_bits(m, u64, (uint64_t)ldv * esize)
                                             : spvgen_op_u_convert(m, u64, ld);
    if (!ek_const_int(m, ld, &ldv) && esize > 1) row = spvgen_op_i_mul(m, u64, row, spvgen_const_bits(m, u64, esize));
    bytes = spvgen_op_i_mul(m, u64, spvgen_op_u_convert(m, u64, outer), row);
  }
  if (inner) {
    uint32_t i = spvgen_op_u_convert(m, u64, inner);
    if (esize > 1) i = spvgen_op_i_mul(m, u64, i, spvgen_const_bits(m, u64, esize));
    bytes = bytes ? spvgen_op_i_add(m, u64, bytes, i) : i;
  }
  return bytes ? bytes : spvgen_const_bits(m, u64, 0);
}

void ek_buffer_move_to(spvgen_module *m, ek_buffer *b, spvgen_matrix_layout layout, uint32_t ld, uint32_t row0,
                       uint32_t col0) {
  if (!b->ptr_type || (!row0 && !col0)) return;
  ek_buffer_rebase(m, b, ek_matrix_bytes64(m, layout, ld, row0, col0, spvgen_type_size(m, b->elem_type)));
}

uint32_t ek_elem(spvgen_module *m, const ek_buffer *b, uint32_t index) {
  return ek_at2(m, buffer_base(m, b), ek_u32(m, 0), index);
}

uint32_t ek_load_elem(spvgen_module *m, const ek_buffer *b, uint32_t index) {
  return spvgen_load(m, b->elem_type, ek_elem(m, b, index));
}

void ek_store_elem(spvgen_module *m, const ek_buffer *b, uint32_t index, uint32_t value) {
  spvgen_store(m, ek_elem(m, b, index), value);
}

uint32_t ek_array(spvgen_module *m, const ek_buffer *b) { return ek_at(m, buffer_base(m, b), ek_u32(m, 0)); }

spvgen_push_constant_block ek_push_constants(spvgen_module *m, const uint32_t *types,
                                             const char *const *names, uint32_t count) {
  spvgen_push_constant_block b = spvgen_push_constants(m, types, count);
  for (uint32_t i = 0; names && b.count && i < count; i++)
    if (names[i]) spvgen_member_name(m, b.struct_type, i, names[i]);
  return b;
}

/* ----------------------------------------------------------- invocations ---- */

uint32_t ek_builtin_v3(spvgen_module *m, SpvBuiltIn builtin) {
  return spvgen_builtin_input(m, builtin, spvgen_type_vector(m, ek_u32_type(m), 3));
}

uint32_t ek_builtin_u32(spvgen_module *m, SpvBuiltIn builtin) {
  return spvgen_builtin_input(m, builtin, ek_u32_type(m));
}

uint32_t ek_load_v3_component(spvgen_module *m, uint32_t var, uint32_t component) {
  uint32_t v = spvgen_load(m, spvgen_type_vector(m, ek_u32_type(m), 3), var);
  return spvgen_op_composite_extract(m, ek_u32_type(m), v, &component, 1);
}

ek_folded_grid ek_fold_grid(uint64_t tiles_x, uint64_t tiles_y) {
  ek_folded_grid g;
  if (!tiles_y) tiles_y = 1;
  uint64_t f = (tiles_y + EK_GRID_MAX - 1) / EK_GRID_MAX;
  g.fold = (uint32_t)f;
  g.rows = (uint32_t)((tiles_y + f - 1) / f);
  g.across = tiles_x * f;
  return g;
}

void ek_grid_tile_origin(spvgen_module *m, uint32_t wg_var, bool fold, uint32_t tiles_x, uint32_t rows,
                         uint32_t size_x, uint32_t size_y, uint32_t *x0, uint32_t *y0) {
  if (!fold) { /* the plain grid, in the order the kernels always emitted it */
    *x0 = ek_mul_imm(m, ek_load_v3_component(m, wg_var, 0), size_x);
    *y0 = ek_mul_imm(m, ek_load_v3_component(m, wg_var, 1), size_y);
    return;
  }
  uint32_t x = ek_load_v3_component(m, wg_var, 0), y = ek_load_v3_component(m, wg_var, 1);
  uint32_t q = ek_udiv(m, x, tiles_x); /* the fold */
  *x0 = ek_mul_imm(m, ek_isub(m, x, ek_imul(m, q, tiles_x)), size_x);
  *y0 = ek_mul_imm(m, ek_iadd(m, y, ek_imul(m, q, rows)), size_y);
}

void ek_return_if(spvgen_module *m, uint32_t cond) {
  if (!cond) return;
  spvgen_if(m, cond);
  spvgen_return(m);
  spvgen_end_if(m);
}

uint32_t ek_load_u32(spvgen_module *m, uint32_t var) { return spvgen_load(m, ek_u32_type(m), var); }

uint32_t ek_add(spvgen_module *m, uint32_t a, uint32_t b) { return spvgen_op_i_add(m, ek_u32_type(m), a, b); }
uint32_t ek_mul(spvgen_module *m, uint32_t a, uint32_t b) { return spvgen_op_i_mul(m, ek_u32_type(m), a, b); }
uint32_t ek_div(spvgen_module *m, uint32_t a, uint32_t b) { return spvgen_op_u_div(m, ek_u32_type(m), a, b); }
uint32_t ek_mod(spvgen_module *m, uint32_t a, uint32_t b) { return spvgen_op_u_mod(m, ek_u32_type(m), a, b); }
uint32_t ek_lt(spvgen_module *m, uint32_t a, uint32_t b) { return spvgen_op_u_less_than(m, ek_bool_type(m), a, b); }
uint32_t ek_and(spvgen_module *m, uint32_t a, uint32_t b) { return spvgen_op_logical_and(m, ek_bool_type(m), a, b); }

void ek_subgroup_barrier(spvgen_module *m) {
  uint32_t sg = ek_u32(m, SpvScopeSubgroup);
  spvgen_op_control_barrier(m, sg, sg,
                            ek_u32(m, SpvMemorySemanticsAcquireReleaseMask |
                                          SpvMemorySemanticsWorkgroupMemoryMask));
}

uint32_t ek_local(spvgen_module *m, uint32_t type, uint32_t init) {
  return spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassFunction, type),
                         SpvStorageClassFunction, init);
}

uint32_t ek_matrix_index(spvgen_module *m, spvgen_matrix_layout layout, uint32_t ld,
                         uint32_t row, uint32_t col, uint32_t base) {
  uint32_t ldc = ek_u32(m, ld);
  uint32_t i = layout == SPVGEN_ROW_MAJOR ? ek_add(m, ek_mul(m, row, ldc), col)
                                          : ek_add(m, ek_mul(m, col, ldc), row);
  return base ? ek_add(m, i, base) : i;
}

uint32_t ek_matrix_offset(spvgen_module *m, spvgen_matrix_layout layout, uint32_t ld, uint32_t row,
                          uint32_t col, uint32_t base) {
  uint32_t i = layout == SPVGEN_ROW_MAJOR ? ek_iadd(m, ek_imul(m, row, ld), col)
                                          : ek_iadd(m, ek_imul(m, col, ld), row);
  return base ? ek_iadd(m, i, base) : i;
}

/* ------------------------------------------------------------- GEMM shape ---- */

/* spvgen_gemm_push, member by member. */
static const char *const push_names[] = {"m", "n", "k", "batch", "lda", "ldb", "ldc", "ldd", "stride_a", "stride_b",
                                         "stride_c", "stride_d", "alpha", "beta", "slice_k", "workspace_ld",
                                         "split_k", "tiles_n"};
#define PUSH_MEMBERS (sizeof push_names / sizeof push_names[0])

void ek_gemm_shape_declare(spvgen_module *m, const spvgen_gemm_config *p, ek_gemm_shape *s) {
  memset(s, 0, sizeof *s);
  s->runtime = p->desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME;
  if (!s->runtime) return;
  uint32_t types[PUSH_MEMBERS];
  for (uint32_t i = 0; i < PUSH_MEMBERS; i++) types[i] = i == 12 || i == 13 ? ek_f32_type(m) : ek_u32_type(m);
  s->pc = ek_push_constants(m, types, push_names, PUSH_MEMBERS);
}

void ek_gemm_shape_load(spvgen_module *m, const spvgen_gemm_config *p, ek_gemm_shape *s) {
  const spvgen_gemm_desc *d = &p->desc;
  uint32_t *ids[PUSH_MEMBERS] = {&s->m, &s->n, &s->k, &s->batch, &s->lda, &s->ldb, &s->ldc, &s->ldd,
                                 &s->stride_a, &s->stride_b, &s->stride_c, &s->stride_d, &s->alpha, &s->beta,
                                 &s->slice_k, &s->workspace_ld, &s->split_k, &s->tiles_n};
  if (s->runtime) {
    for (uint32_t i = 0; i < PUSH_MEMBERS; i++) *ids[i] = spvgen_push_constant_load(m, &s->pc, i);
    /* a class of one K holds it as a constant (the push constant carries the same value,
     * which the launch checks) */
    if (d->k_fixed) s->k = ek_u32(m, d->k);
    return;
  }
  uint32_t v[PUSH_MEMBERS] = {d->m, d->n, d->k, d->batch, d->lda, d->ldb, d->ldc, d->ldd, (uint32_t)d->stride_a,
                              (uint32_t)d->stride_b, (uint32_t)d->stride_c, (uint32_t)d->stride_d, 0, 0,
                              p->slice_k, p->workspace_ld, d->split_k,
                              d->tile_n ? (d->n + d->tile_n - 1) / d->tile_n : 0};
  for (uint32_t i = 0; i < PUSH_MEMBERS; i++) *ids[i] = i == 12 || i == 13 ? 0 : ek_u32(m, v[i]);
  s->alpha = spvgen_const_f32(m, d->alpha);
  s->beta = spvgen_const_f32(m, d->beta);
}

uint32_t ek_gemm_aligned(spvgen_module *m, const ek_gemm_shape *s, uint32_t ld, uint32_t multiple) {
  if (!s->runtime || multiple < 2 || (multiple & (multiple - 1))) return ld;
  return spvgen_op_bitwise_and(m, ek_u32_type(m), ld, ek_u32(m, ~(multiple - 1)));
}

/* ---------------------------------------------------------- GEMM epilogue ---- */

/* Which buffers a kernel of the GEMM declares (IF_* bits): A and B (its main loop, or the
 * pack kernel's sources), D, C and bias (its epilogue), the workspace (split-K, packed
 * operands). */
enum { IF_A = 1, IF_B = 2, IF_EPILOGUE = 4, IF_WORKSPACE = 8 };

bool ek_gemm_packs(const spvgen_gemm_desc *d, char op) {
  return op == 'a' ? d->pack == SPVGEN_GEMM_PACK_A || d->pack == SPVGEN_GEMM_PACK_AB
                   : d->pack == SPVGEN_GEMM_PACK_B || d->pack == SPVGEN_GEMM_PACK_AB;
}

/* The descriptor bindings of `what`, each in gemm.h's binding order. */
static void gemm_buffers(spvgen_module *m, const spvgen_gemm_desc *d, unsigned what, ek_buffer *a, ek_buffer *b,
                         ek_epilogue *epi) {
  memset(epi, 0, sizeof *epi);
  epi->desc = d;
  if (what & IF_A) *a = ek_buffer_decl(m, ek_type(m, d->a_type), 0, true, "A");
  if (what & IF_B) *b = ek_buffer_decl(m, ek_type(m, d->b_type), 1, true, "B");
  if (!(what & IF_EPILOGUE)) return;
  epi->d = ek_buffer_decl(m, ek_type(m, d->out_type), 2, false, "D");
  uint32_t next = 3;
  if (d->beta != 0.0f) epi->c = ek_buffer_decl(m, ek_type(m, d->out_type), next++, true, "C");
  if (d->bias != SPVGEN_GEMM_BIAS_NONE)
    epi->bias = ek_buffer_decl(m, ek_type(m, d->out_type), next++, true, "bias");
}

void ek_gemm_buffers(spvgen_module *m, const spvgen_gemm_desc *d, ek_buffer *a, ek_buffer *b,
                     ek_epilogue *epi) {
  gemm_buffers(m, d, IF_A | IF_B | IF_EPILOGUE, a, b, epi);
}

/* The interface of one kernel of a GEMM plan: the buffers of `what`, the shape's push
 * constants. packed (the main kernel of packed operands): a and b of a packed operand are
 * views of the workspace (its copy; the kernel adds the copy's offset). */
static void gemm_interface(spvgen_module *m, const spvgen_gemm_config *p, unsigned what, bool packed, bool ws_writes,
                           ek_buffer *a,
                           ek_buffer *b, ek_epilogue *epi, ek_gemm_shape *s, ek_buffer *workspace) {
  const spvgen_gemm_desc *d = &p->desc;
  const bool pa = packed && ek_gemm_packs(d, 'a'), pb = packed && ek_gemm_packs(d, 'b');
  if (workspace) memset(workspace, 0, sizeof *workspace);
  if (d->addressing != SPVGEN_ADDRESSING_DEVICE_ADDRESS) {
    gemm_buffers(m, d, what & ~(unsigned)((pa ? IF_A : 0) | (pb ? IF_B : 0)), a, b, epi);
    if (pa) *a = ek_buffer_decl(m, ek_type(m, d->a_type), p->workspace_binding, true, "A_packed");
    if (pb) *b = ek_buffer_decl(m, ek_type(m, d->b_type), p->workspace_binding, true, "B_packed");
    ek_gemm_shape_declare(m, p, s);
    return;
  }
  memset(epi, 0, sizeof *epi);
  epi->desc = d;
  memset(s, 0, sizeof *s);
  s->runtime = d->shapes == SPVGEN_GEMM_SHAPES_RUNTIME;
  uint32_t lead[PUSH_MEMBERS];
  for (uint32_t i = 0; i < PUSH_MEMBERS; i++) lead[i] = i == 12 || i == 13 ? ek_f32_type(m) : ek_u32_type(m);
  uint32_t out = ek_type(m, d->out_type), types[6];
  const char *names[6];
  bool ro[6];
  ek_buffer *dst[6];
  uint32_t n = 0;
  if ((what & IF_A) && !pa) types[n] = ek_type(m, d->a_type), names[n] = "A", ro[n] = true, dst[n++] = a;
  if ((what & IF_B) && !pb) types[n] = ek_type(m, d->b_type), names[n] = "B", ro[n] = true, dst[n++] = b;
  if (what & IF_EPILOGUE) {
    types[n] = out, names[n] = "D", ro[n] = false, dst[n++] = &epi->d;
    if (d->beta != 0.0f) types[n] = out, names[n] = "C", ro[n] = true, dst[n++] = &epi->c;
    if (d->bias != SPVGEN_GEMM_BIAS_NONE) types[n] = out, names[n] = "bias", ro[n] = true, dst[n++] = &epi->bias;
  }
  ek_buffer ws_local;
  if (what & IF_WORKSPACE) {
    /* written by split-K's partials and by the pack kernel; read by the others */
    types[n] = ek_u32_type(m), names[n] = "workspace", ro[n] = !ws_writes, dst[n++] = workspace ? workspace : &ws_local;
  }
  ek_buffer bufs[6];
  s->pc = ek_push_constants_bda(m, lead, push_names, s->runtime ? PUSH_MEMBERS : 0, types, ro, names, n, bufs);
  for (uint32_t i = 0; i < n; i++) *dst[i] = bufs[i];
  const ek_buffer *ws = workspace ? workspace : &ws_local;
  if (pa) *a = ek_buffer_view(m, ws, ek_type(m, d->a_type), 0, true, "A_packed");
  if (pb) *b = ek_buffer_view(m, ws, ek_type(m, d->b_type), 0, true, "B_packed");
}

void ek_gemm_interface(spvgen_module *m, const spvgen_gemm_config *p, ek_buffer *a, ek_buffer *b,
                       ek_epilogue *epi, ek_gemm_shape *s, ek_buffer *workspace) {
  const spvgen_gemm_desc *d = &p->desc;
  const bool packed = ek_gemm_packs(d, 'a') || ek_gemm_packs(d, 'b');
  /* split-K: the partials kernel has no epilogue (the reduction's) */
  unsigned what = IF_A | IF_B | (d->split_k <= 1 ? IF_EPILOGUE : 0) | (d->split_k > 1 || packed ? IF_WORKSPACE : 0);
  gemm_interface(m, p, what, true, d->split_k > 1, a, b, epi, s, workspace);
}

void ek_gemm_reduce_interface(spvgen_module *m, const spvgen_gemm_config *p, ek_epilogue *epi, ek_gemm_shape *s,
                              ek_buffer *workspace) {
  gemm_interface(m, p, IF_EPILOGUE | IF_WORKSPACE, false, false, NULL, NULL, epi, s, workspace);
}

void ek_gemm_pack_interface(spvgen_module *m, const spvgen_gemm_config *p, ek_buffer *a, ek_buffer *b,
                            ek_gemm_shape *s, ek_buffer *workspace) {
  const spvgen_gemm_desc *d = &p->desc;
  ek_epilogue epi;
  unsigned what = (ek_gemm_packs(d, 'a') ? IF_A : 0) | (ek_gemm_packs(d, 'b') ? IF_B : 0) | IF_WORKSPACE;
  gemm_interface(m, p, what, false, true, a, b, &epi, s, workspace);
}

void ek_epilogue_move(spvgen_module *m, ek_epilogue *e, uint32_t row0, uint32_t col0) {
  if (!e->d.ptr_type) return;
  const spvgen_gemm_desc *d = e->desc;
  ek_buffer_move_to(m, &e->d, d->d_layout, e->shape->ldd, row0, col0);
  if (e->c.var) ek_buffer_move_to(m, &e->c, d->c_layout, e->shape->ldc, row0, col0);
  e->row0 = row0;
  e->col0 = col0;
}

/* The row and column of D and C's indices: from the element they were moved to (0 for
 * that element's own row or column id). */
static void epilogue_at(spvgen_module *m, const ek_epilogue *e, uint32_t *row, uint32_t *col) {
  if (e->row0) *row = *row == e->row0 ? ek_u32(m, 0) : ek_isub(m, *row, e->row0);
  if (e->col0) *col = *col == e->col0 ? ek_u32(m, 0) : ek_isub(m, *col, e->col0);
}

bool ek_epilogue_is_plain(const spvgen_gemm_desc *d) {
  return d->alpha == 1.0f && d->beta == 0.0f && d->bias == SPVGEN_GEMM_BIAS_NONE &&
         d->activation == SPVGEN_ACTIVATION_NONE && d->acc_type == d->out_type;
}

bool ek_epilogue_is_convert_only(const spvgen_gemm_desc *d) {
  return d->alpha == 1.0f && d->beta == 0.0f && d->bias == SPVGEN_GEMM_BIAS_NONE &&
         d->activation == SPVGEN_ACTIVATION_NONE && ek_is_float(d->acc_type) &&
         ek_is_float(d->out_type);
}

spvgen_component_type ek_epilogue_type(const spvgen_gemm_desc *d) {
  return !ek_is_float(d->acc_type) && !ek_is_float(d->out_type) ? SPVGEN_COMPONENT_S32
                                                                  : SPVGEN_COMPONENT_F32;
}

uint32_t ek_epilogue_bias_activation(spvgen_module *m, const ek_epilogue *e, uint32_t x,
                                     uint32_t row, uint32_t col) {
  const spvgen_gemm_desc *d = e->desc;
  spvgen_component_type et = ek_epilogue_type(d);
  uint32_t t = ek_type(m, et);
  if (e->bias.var) {
    uint32_t bv = spvgen_load(m, e->bias.elem_type,
                              ek_elem(m, &e->bias, d->bias == SPVGEN_GEMM_BIAS_ROW ? row : col));
    bv = ek_convert(m, bv, d->out_type, et);
    x = et == SPVGEN_COMPONENT_F32 ? spvgen_op_f_add(m, t, x, bv) : spvgen_op_i_add(m, t, x, bv);
  }
  if (et == SPVGEN_COMPONENT_S32) {
    /* Integer epilogue: ReLU only (the plan refuses the other activations). */
    if (d->activation == SPVGEN_ACTIVATION_RELU)
      x = spvgen_glsl_s_max(m, t, x, spvgen_const_i32(m, 0));
    return x;
  }
  return ek_activation(m, x, d->activation, d->leaky_slope, EK_ACT_EPILOGUE);
}

uint32_t ek_epilogue_value(spvgen_module *m, const ek_epilogue *e, uint32_t acc, uint32_t row,
                           uint32_t col) {
  const spvgen_gemm_desc *d = e->desc;
  if (ek_epilogue_type(d) == SPVGEN_COMPONENT_S32) {
    /* Integer accumulate and output: bias and ReLU (the plan refuses the rest). */
    uint32_t x = ek_convert(m, acc, d->acc_type, SPVGEN_COMPONENT_S32);
    x = ek_epilogue_bias_activation(m, e, x, row, col);
    return ek_convert(m, x, SPVGEN_COMPONENT_S32, d->out_type);
  }
  if (ek_epilogue_is_plain(d)) return acc;
  uint32_t f = ek_f32_type(m);
  uint32_t x = ek_convert(m, acc, d->acc_type, SPVGEN_COMPONENT_F32);
  if (d->alpha != 1.0f) x = spvgen_op_f_mul(m, f, x, e->shape->alpha);
  if (e->c.var) {
    uint32_t cr = row, cc = col;
    epilogue_at(m, e, &cr, &cc);
    uint32_t ci = ek_matrix_offset(m, d->c_layout, e->shape->ldc, cr, cc, e->c_base);
    uint32_t cv = ek_convert(m, ek_load_elem(m, &e->c, ci), d->out_type, SPVGEN_COMPONENT_F32);
    x = spvgen_op_f_add(m, f, x, spvgen_op_f_mul(m, f, cv, e->shape->beta));
  }
  x = ek_epilogue_bias_activation(m, e, x, row, col);
  return ek_convert(m, x, SPVGEN_COMPONENT_F32, d->out_type);
}

void ek_epilogue_store(spvgen_module *m, const ek_epilogue *e, uint32_t acc, uint32_t row,
                       uint32_t col) {
  const spvgen_gemm_desc *d = e->desc;
  uint32_t v = ek_epilogue_value(m, e, acc, row, col);
  epilogue_at(m, e, &row, &col);
  uint32_t di = ek_matrix_offset(m, d->d_layout, e->shape->ldd, row, col, e->d_base);
  ek_store_elem(m, &e->d, di, v);
}

/* ------------------------------------------------------------- one-shot ---- */

void ek_info_storage_buffers(spvgen_kernel_info *info, uint32_t n, const char *const *names, const uint32_t *access) {
  if (n > SPVGEN_MAX_BINDINGS) n = SPVGEN_MAX_BINDINGS;
  info->binding_count = n;
  for (uint32_t i = 0; i < n; i++) {
    memset(&info->bindings[i], 0, sizeof info->bindings[i]);
    info->bindings[i].binding = i;
    info->bindings[i].kind = SPVGEN_BINDING_STORAGE_BUFFER;
    info->bindings[i].name = names[i];
    info->bindings[i].access = access[i];
  }
}

bool ek_sizes_per_count(const spvgen_kernel_info *info, const void *push_data, uint32_t push_size,
                        uint64_t *sizes) {
  uint32_t count = 0;
  if (push_data && push_size >= 4) memcpy(&count, push_data, 4);
  for (uint32_t i = 0; i < info->binding_count && i < SPVGEN_MAX_SIZE_ARGS; i++) {
    uint64_t per = info->size_args[i];
    if (!per) continue;
    if (count && per > (UINT64_MAX - 3) / count) return false;
    uint64_t need = ((uint64_t)count * per + 3) & ~3ull;
    if (need > sizes[i]) sizes[i] = need;
  }
  return true;
}

spvgen_status ek_kernel_finish(spvgen_module *m, spvgen_status st, spvgen_kernel_info *info,
                               spvgen_kernel *kernel, const char *fn, char *message, size_t size) {
  const uint32_t *words = NULL;
  size_t count = 0;
  if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
  if (st == SPVGEN_OK && !(kernel->words = malloc(count * sizeof *words))) st = SPVGEN_ERROR_OUT_OF_MEMORY;
  if (st != SPVGEN_OK) {
    if (message && size)
      snprintf(message, size, "%s: %s", fn,
               spvgen_module_error(m)[0] ? spvgen_module_error(m) : "out of memory");
    spvgen_module_destroy(m);
    return st;
  }
  memcpy(kernel->words, words, count * sizeof *words);
  kernel->word_count = count;
  spvgen_module_destroy(m);
  st = spvgen_kernel_reflect(kernel->words, kernel->word_count, info, message, size);
  if (st != SPVGEN_OK) {
    spvgen_kernel_free(kernel);
    return st;
  }
  kernel->info = *info;
  return SPVGEN_OK;
}

