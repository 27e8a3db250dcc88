/* emitters/common/kernel_builder.h — the helper layer kernel templates are written in, in
 * the spirit of Mesa's nir_builder: a loop, a guard, a typed access or an address
 * computation each take one line, and the bookkeeping (loop variables, merge blocks,
 * pointer types, constants that fold) lives here.
 *
 *   ek_iadd / ek_imul / ...    integer arithmetic that folds constants (x + 0 is x,
 *   ek_add_imm / ek_mul_imm     x * 1 is x, x * 0 is 0, constant op constant is a
 *                               constant): the same template code serves a shape that is
 *                               a module constant and one that is a run-time value
 *   ek_for_begin / ek_for_end  counted loops; the counter lives with the loop
 *   ek_guard_begin / _end      a body that runs only where a condition holds (a 0
 *                               condition: nothing to check, no branch emitted)
 *   ek_own_begin / _end        work item i of n over a fixed set of workers (the spare
 *                               ones skip, or redo the last item with the writes guarded
 *                               where every worker must reach every barrier)
 *   ek_shared_array, ek_at     typed access: pointers whose types the builder computes
 *                               (spvgen_access), loads and stores by index
 *
 * Values carry their type (spvgen_type_of), so the arithmetic takes no result type. All
 * of it is internal to the emitters (prefix ek_) and built on the public builder only. */
#ifndef SPVGEN_EMITTERS_KERNEL_BUILDER_H
#define SPVGEN_EMITTERS_KERNEL_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/builder.h"

/* ---------------------------------------------------------------- values ---- */
/* The value of a 32-bit integer constant made with spvgen_const_u32 / _i32 (or any
 * non-spec scalar constant of an integer type of 32 bits or less); false for anything
 * else (run-time values, spec constants). */
bool ek_const_int(spvgen_module *m, uint32_t id, uint32_t *value);

/* ------------------------------------------------- arithmetic that folds ---- */
/* Integer arithmetic on two values of one integer type (the result has a's type; the
 * comparisons give bool). Constants fold: identities (x + 0, x - 0, x * 1, x / 1, x % 1,
 * x * 0, min(x, x)) return an operand or a constant, and two constant operands give a
 * constant (u32 wrap-around, as the instruction would compute). Nothing is emitted for a
 * folded operation. */
uint32_t ek_iadd(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_isub(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_imul(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_udiv(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_umod(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_umin(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_ult(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_ule(spvgen_module *m, uint32_t a, uint32_t b);

/* The same with a u32 immediate as the second operand (x is a u32 value). No constant
 * is declared for an immediate that folds away. */
uint32_t ek_add_imm(spvgen_module *m, uint32_t x, uint32_t c);
uint32_t ek_mul_imm(spvgen_module *m, uint32_t x, uint32_t c);
uint32_t ek_div_imm(spvgen_module *m, uint32_t x, uint32_t c);
uint32_t ek_mod_imm(spvgen_module *m, uint32_t x, uint32_t c);
uint32_t ek_min_imm(spvgen_module *m, uint32_t x, uint32_t c);
uint32_t ek_lt_imm(spvgen_module *m, uint32_t x, uint32_t c); /* bool x < c */
uint32_t ek_le_imm(spvgen_module *m, uint32_t x, uint32_t c); /* bool x <= c */

/* Bool conjunction of optional conditions: 0 stands for "nothing to check" (true), so
 * ek_all(m, 0, c) is c and ek_all(m, 0, 0) is 0. Constants fold (true && c is c). */
uint32_t ek_all(spvgen_module *m, uint32_t a, uint32_t b);
/* (x < limit), or 0 (nothing to check) when `needed` is false: the bounds check of a
 * dimension a tile may or may not overhang. */
uint32_t ek_below(spvgen_module *m, bool needed, uint32_t x, uint32_t limit);
/* select(cond, a, b); cond 0 (nothing checked) gives a. */
uint32_t ek_select(spvgen_module *m, uint32_t cond, uint32_t a, uint32_t b);

/* ------------------------------------------------------------ counted loops ---- */
/* for (i = start; i < end; i += step) { body }, with ids:
 *     ek_for l;
 *     uint32_t i = ek_for_begin(m, &l, start, end, step, SpvLoopControlMaskNone);
 *     ... body (i is valid here) ...
 *     ek_for_end(m, &l);
 * The counter is a u32 Function variable of the loop's own: a constant start is its
 * initializer outside any loop, any other start (and every start of a loop nested in
 * another, which must restart on each round of the outer one) is stored before the loop. end 0: the caller writes the
 * condition itself right after ek_for_begin (spvgen_loop_while(m, cond(i))). */
typedef struct ek_for {
  uint32_t var;  /* the counter's Function variable */
  uint32_t i;    /* the counter's value in this iteration */
  uint32_t step; /* the increment (id) */
} ek_for;
uint32_t ek_for_begin(spvgen_module *m, ek_for *l, uint32_t start, uint32_t end, uint32_t step,
                      SpvLoopControlMask control);
/* The same with the counter in the caller's variable `var` (one variable for several
 * loops in a row): start is stored into it before the loop, or, when start is 0, the loop
 * goes on from the value var holds (a second loop that resumes where the first ended). */
uint32_t ek_for_begin_var(spvgen_module *m, ek_for *l, uint32_t var, uint32_t start, uint32_t end,
                          uint32_t step, SpvLoopControlMask control);
/* The continue block (i += step) and the back edge; the current block is after the loop. */
void ek_for_end(spvgen_module *m, ek_for *l);

/* ------------------------------------------------------------------- guards ---- */
/* if (cond) { ... } where cond may be 0 (nothing to check: no branch, the body runs
 * unconditionally). Guards nest; each ek_guard_begin is closed by ek_guard_end with the
 * value it returned. */
typedef struct ek_guard {
  bool open; /* an OpSelectionMerge was emitted */
} ek_guard;
ek_guard ek_guard_begin(spvgen_module *m, uint32_t cond);
void ek_guard_end(spvgen_module *m, ek_guard g);

/* Work item `item` (an id) of `count` over a fixed set of workers (subgroups, lanes)
 * where some workers may have none:
 *   guard false     every worker has an item: item as it is, nothing checked;
 *   skip (default)  if (item < count) { body }: the spare workers skip the body (no
 *                   workgroup barrier may sit inside);
 *   uniform         every worker must run the body (it holds barriers, or the code
 *                   emulates a device where it must): the spare workers redo the last
 *                   item (item clamped to count - 1) and own.ok is the predicate that
 *                   their writes must honour (0: none to honour).
 * Returns the item to use. */
typedef struct ek_own {
  uint32_t ok;  /* uniform mode: bool id, the writes of this worker count; else 0 */
  ek_guard g;   /* skip mode: the guard */
} ek_own;
uint32_t ek_own_begin(spvgen_module *m, ek_own *o, uint32_t item, uint32_t count, bool guard,
                      bool uniform);
void ek_own_end(spvgen_module *m, ek_own *o);

/* ------------------------------------------------------------- typed access ---- */
/* A Workgroup array `elem[count]` named for the disassembly (the pointer types are
 * declared here, in the order element pointer, array, array pointer). */
typedef struct ek_shared {
  uint32_t var;       /* the Workgroup variable */
  uint32_t elem_type; /* its element type */
} ek_shared;
ek_shared ek_shared_array(spvgen_module *m, uint32_t elem_type, uint32_t count, const char *name);
/* &base[index] through spvgen_access (the pointer type is computed). */
uint32_t ek_at(spvgen_module *m, uint32_t base, uint32_t index);
/* &base[i][j] (e.g. a word of an array of vectors). */
uint32_t ek_at2(spvgen_module *m, uint32_t base, uint32_t i, uint32_t j);
/* shared[index] loaded, or value stored there. */
uint32_t ek_shared_load(spvgen_module *m, const ek_shared *s, uint32_t index);
void ek_shared_store(spvgen_module *m, const ek_shared *s, uint32_t index, uint32_t value);

#endif
