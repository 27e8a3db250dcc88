/* emitters/common/kernel_builder.c — see kernel_builder.h. */
#include "kernel_builder.h"

#include <string.h>

/* ---------------------------------------------------------------- values ---- */

bool ek_const_int(spvgen_module *m, uint32_t id, uint32_t *value) {
  uint32_t t = spvgen_type_of(m, id);
  if (!t || spvgen_type_opcode(m, t) != SpvOpTypeInt) return false;
  uint32_t ops[2] = {0, 0};
  if (spvgen_type_operands(m, t, ops, 2) < 1 || ops[0] > 32) return false;
  uint64_t bits;
  if (!spvgen_const_value(m, id, &bits)) return false;
  if (value) *value = (uint32_t)bits;
  return true;
}

static bool const_bool(spvgen_module *m, uint32_t id, bool *value) {
  uint32_t t = spvgen_type_of(m, id);
  uint64_t bits;
  if (!t || spvgen_type_opcode(m, t) != SpvOpTypeBool || !spvgen_const_value(m, id, &bits)) return false;
  *value = bits != 0;
  return true;
}

/* ------------------------------------------------- arithmetic that folds ---- */

typedef enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_MIN, OP_LT, OP_LE } int_op;

static uint32_t emit_op(spvgen_module *m, int_op op, uint32_t t, uint32_t a, uint32_t b) {
  uint32_t bt = spvgen_type_bool(m);
  switch (op) {
  case OP_ADD: return spvgen_op_i_add(m, t, a, b);
  case OP_SUB: return spvgen_op_i_sub(m, t, a, b);
  case OP_MUL: return spvgen_op_i_mul(m, t, a, b);
  case OP_DIV: return spvgen_op_u_div(m, t, a, b);
  case OP_MOD: return spvgen_op_u_mod(m, t, a, b);
  case OP_MIN: return spvgen_glsl_u_min(m, t, a, b);
  case OP_LT: return spvgen_op_u_less_than(m, bt, a, b);
  case OP_LE: return spvgen_op_u_less_than_equal(m, bt, a, b);
  }
  return 0;
}

/* The folded result of a op b where a (ka) and/or b (kb) may be constants (av, bv), or
 * 0 when the operation must be emitted. */
static uint32_t fold(spvgen_module *m, int_op op, uint32_t t, uint32_t a, uint32_t b, bool ka, uint32_t av,
                     bool kb, uint32_t bv) {
  if (ka && kb) {
    uint32_t r = 0;
    switch (op) {
    case OP_ADD: r = av + bv; break;
    case OP_SUB: r = av - bv; break;
    case OP_MUL: r = av * bv; break;
    case OP_DIV:
      if (!bv) return 0; /* undefined: left to the instruction (and the validator) */
      r = av / bv;
      break;
    case OP_MOD:
      if (!bv) return 0;
      r = av % bv;
      break;
    case OP_MIN: r = av < bv ? av : bv; break;
    case OP_LT: return spvgen_const_bool(m, av < bv);
    case OP_LE: return spvgen_const_bool(m, av <= bv);
    }
    return spvgen_const_bits(m, t, r);
  }
  switch (op) {
  case OP_ADD:
    if (kb && bv == 0) return a;
    if (ka && av == 0) return b;
    break;
  case OP_SUB:
    if (kb && bv == 0) return a;
    break;
  case OP_MUL:
    if (kb && bv == 1) return a;
    if (ka && av == 1) return b;
    if ((kb && bv == 0) || (ka && av == 0)) return spvgen_const_bits(m, t, 0);
    break;
  case OP_DIV:
    if (kb && bv == 1) return a;
    break;
  case OP_MOD:
    if (kb && bv == 1) return spvgen_const_bits(m, t, 0);
    break;
  case OP_MIN:
    if (a == b) return a;
    break;
  case OP_LT:
    if (kb && bv == 0) return spvgen_const_bool(m, false); /* x < 0 (unsigned) */
    break;
  case OP_LE:
    if (kb && bv == 0xFFFFFFFFu) return spvgen_const_bool(m, true);
    break;
  }
  return 0;
}

static uint32_t int_op2(spvgen_module *m, int_op op, uint32_t a, uint32_t b) {
  uint32_t av = 0, bv = 0;
  bool ka = ek_const_int(m, a, &av), kb = ek_const_int(m, b, &bv);
  uint32_t t = spvgen_type_of(m, a);
  uint32_t r = fold(m, op, t, a, b, ka, av, kb, bv);
  return r ? r : emit_op(m, op, t, a, b);
}

/* The public forms, one line each. */
#define EK_INT_OP(name, op) \
  uint32_t name(spvgen_module *m, uint32_t a, uint32_t b) { return int_op2(m, op, a, b); }
EK_INT_OP(ek_iadd, OP_ADD)
EK_INT_OP(ek_isub, OP_SUB)
EK_INT_OP(ek_imul, OP_MUL)
EK_INT_OP(ek_udiv, OP_DIV)
EK_INT_OP(ek_umod, OP_MOD)
EK_INT_OP(ek_umin, OP_MIN)
EK_INT_OP(ek_ult, OP_LT)
EK_INT_OP(ek_ule, OP_LE)

/* x op c: the constant c is declared only when the operation is emitted (or the folded
 * result is c itself). */
static uint32_t imm_op(spvgen_module *m, int_op op, uint32_t x, uint32_t c) {
  uint32_t xv = 0;
  bool kx = ek_const_int(m, x, &xv);
  uint32_t t = spvgen_type_int(m, 32, false);
  bool folds = kx || (op == OP_ADD && c == 0) || (op == OP_SUB && c == 0) ||
               (op == OP_MUL && c <= 1) || (op == OP_DIV && c == 1) || (op == OP_MOD && c == 1) ||
               (op == OP_LT && c == 0) || (op == OP_LE && c == 0xFFFFFFFFu);
  if (folds) {
    uint32_t r = fold(m, op, t, x, 0, kx, xv, true, c);
    if (r) return r;
  }
  return emit_op(m, op, t, x, spvgen_const_u32(m, c));
}

#define EK_IMM_OP(name, op) \
  uint32_t name(spvgen_module *m, uint32_t x, uint32_t c) { return imm_op(m, op, x, c); }
EK_IMM_OP(ek_add_imm, OP_ADD)
EK_IMM_OP(ek_mul_imm, OP_MUL)
EK_IMM_OP(ek_div_imm, OP_DIV)
EK_IMM_OP(ek_mod_imm, OP_MOD)
EK_IMM_OP(ek_min_imm, OP_MIN)
EK_IMM_OP(ek_lt_imm, OP_LT)
EK_IMM_OP(ek_le_imm, OP_LE)

uint32_t ek_all(spvgen_module *m, uint32_t a, uint32_t b) {
  if (!a) return b;
  if (!b) return a;
  bool v;
  if (const_bool(m, a, &v)) return v ? b : a;
  if (const_bool(m, b, &v)) return v ? a : b;
  return spvgen_op_logical_and(m, spvgen_type_bool(m), a, b);
}

uint32_t ek_below(spvgen_module *m, bool needed, uint32_t x, uint32_t limit) {
  return needed ? ek_ult(m, x, limit) : 0;
}

uint32_t ek_select(spvgen_module *m, uint32_t cond, uint32_t a, uint32_t b) {
  if (!cond) return a;
  bool v;
  if (const_bool(m, cond, &v)) return v ? a : b;
  return spvgen_op_select(m, spvgen_type_of(m, a), cond, a, b);
}

/* ------------------------------------------------------------ counted loops ---- */

static uint32_t loop_head(spvgen_module *m, ek_for *l, uint32_t end, SpvLoopControlMask control) {
  spvgen_loop(m, control);
  l->i = spvgen_load(m, spvgen_type_int(m, 32, false), l->var);
  if (end) spvgen_loop_while(m, spvgen_op_u_less_than(m, spvgen_type_bool(m), l->i, end));
  return l->i;
}

uint32_t ek_for_begin(spvgen_module *m, ek_for *l, uint32_t start, uint32_t end, uint32_t step,
                      SpvLoopControlMask control) {
  uint32_t u32 = spvgen_type_int(m, 32, false);
  /* A constant start may be the counter's initializer only where the loop runs once per
   * invocation: the initializer is applied at function entry, so a loop nested in another
   * would start its second round where its first ended (no iterations). */
  bool constant = ek_const_int(m, start, NULL) && !spvgen_loop_header(m);
  l->var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassFunction, u32), SpvStorageClassFunction,
                           constant ? start : spvgen_const_u32(m, 0));
  l->step = step;
  if (!constant) spvgen_store(m, l->var, start);
  return loop_head(m, l, end, control);
}

uint32_t ek_for_begin_var(spvgen_module *m, ek_for *l, uint32_t var, uint32_t start, uint32_t end,
                          uint32_t step, SpvLoopControlMask control) {
  l->var = var;
  l->step = step;
  if (start) spvgen_store(m, var, start);
  return loop_head(m, l, end, control);
}

void ek_for_end(spvgen_module *m, ek_for *l) {
  spvgen_loop_continue_block(m);
  spvgen_store(m, l->var, spvgen_op_i_add(m, spvgen_type_int(m, 32, false), l->i, l->step));
  spvgen_end_loop(m);
}

/* ------------------------------------------------------------------- guards ---- */

ek_guard ek_guard_begin(spvgen_module *m, uint32_t cond) {
  ek_guard g = {cond != 0};
  if (cond) spvgen_if(m, cond);
  return g;
}

void ek_guard_end(spvgen_module *m, ek_guard g) {
  if (g.open) spvgen_end_if(m);
}

uint32_t ek_own_begin(spvgen_module *m, ek_own *o, uint32_t item, uint32_t count, bool guard, bool uniform) {
  memset(o, 0, sizeof *o);
  if (!guard) return item;
  if (!uniform) {
    o->g = ek_guard_begin(m, ek_lt_imm(m, item, count));
    return item;
  }
  o->ok = ek_lt_imm(m, item, count);
  return ek_min_imm(m, item, count - 1);
}

void ek_own_end(spvgen_module *m, ek_own *o) { ek_guard_end(m, o->g); }

/* ------------------------------------------------------------- typed access ---- */

ek_shared ek_shared_array(spvgen_module *m, uint32_t elem_type, uint32_t count, const char *name) {
  ek_shared s;
  s.elem_type = elem_type;
  spvgen_type_pointer(m, SpvStorageClassWorkgroup, elem_type);
  uint32_t arr = spvgen_type_array(m, elem_type, count);
  s.var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, arr), SpvStorageClassWorkgroup, 0);
  if (name) spvgen_name(m, s.var, name);
  return s;
}

uint32_t ek_at(spvgen_module *m, uint32_t base, uint32_t index) { return spvgen_access(m, base, &index, 1); }

uint32_t ek_at2(spvgen_module *m, uint32_t base, uint32_t i, uint32_t j) {
  uint32_t idx[2] = {i, j};
  return spvgen_access(m, base, idx, 2);
}

uint32_t ek_shared_load(spvgen_module *m, const ek_shared *s, uint32_t index) {
  return spvgen_load(m, s->elem_type, ek_at(m, s->var, index));
}

void ek_shared_store(spvgen_module *m, const ek_shared *s, uint32_t index, uint32_t value) {
  spvgen_store(m, ek_at(m, s->var, index), value);
}
