/* lib/core/function.c — functions and what goes in them, in the hand-written API
 * (spvgen/builder.h): functions and compute entry functions, blocks, structured control
 * flow (if/else, loops with merge and continue blocks, break, continue, return), and the
 * body instructions people use most (raw emission, load, store, access chains, extended
 * instructions, barriers). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"

/* ------------------------------------------------------------- functions ---- */

uint32_t spvgen_function_begin_id(spvgen_module *m, uint32_t id, uint32_t return_type,
                                  SpvFunctionControlMask control, const uint32_t *param_types,
                                  uint32_t param_count, uint32_t *params) {
  if (!sg_ok(m, __func__)) return 0;
  if (m->in_function) return STATE(m, "function %u is still open (spvgen_function_end)", m->current_function);
  uint32_t ft = spvgen_type_function(m, return_type, param_types, param_count);
  if (!ft) return 0;
  uint32_t ops[4] = {return_type, id, (uint32_t)control, ft};
  uint32_t f = sg_inst(m, __func__, SpvOpFunction, ops, 4);
  if (!f) return 0;
  for (uint32_t i = 0; i < param_count; i++) {
    uint32_t pops[2] = {param_types[i], 0};
    uint32_t p = sg_inst(m, __func__, SpvOpFunctionParameter, pops, 2);
    if (params) params[i] = p;
  }
  spvgen_block(m, 0);
  return m->status == SPVGEN_OK ? f : 0;
}

uint32_t spvgen_function_begin(spvgen_module *m, uint32_t return_type,
                               SpvFunctionControlMask control, const uint32_t *param_types,
                               uint32_t param_count, uint32_t *params) {
  const char *outer = sg_api_enter(m, __func__);
  uint32_t f = spvgen_function_begin_id(m, 0, return_type, control, param_types, param_count, params);
  sg_api_leave(m, outer);
  return f;
}

void spvgen_function_end(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  if (!m->in_function) {
    STATE(m, "no function is open");
    return;
  }
  if (m->cf_n) {
    STATE(m, "%u if/loop constructs are still open (spvgen_end_if / spvgen_end_loop)", m->cf_n);
    return;
  }
  if (m->block_open) {
    if (sg_op_of(m, m->function_return_type) != SpvOpTypeVoid) {
      STATE(m, "the last block of non-void function %u has no OpReturnValue", m->current_function);
      return;
    }
    sg_inst(m, __func__, SpvOpReturn, NULL, 0);
  }
  sg_inst(m, __func__, SpvOpFunctionEnd, NULL, 0);
}

uint32_t spvgen_compute_main(spvgen_module *m, const char *name, uint32_t x, uint32_t y, uint32_t z) {
  if (!sg_ok(m, __func__)) return 0;
  const char *outer = sg_api_enter(m, __func__);
  uint32_t f = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, f, name ? name : "main", SPVGEN_INTERFACE_ALL);
  spvgen_local_size(m, f, x, y, z);
  sg_api_leave(m, outer);
  return m->status == SPVGEN_OK ? f : 0;
}

/* ---------------------------------------------------------------- blocks ---- */

uint32_t spvgen_label(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return 0;
  return spvgen_reserve_id(m);
}

uint32_t spvgen_block(spvgen_module *m, uint32_t label) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t placed = sg_place_label(m, label);
  if (placed) return placed;
  uint32_t ops[1] = {label};
  return sg_inst(m, __func__, SpvOpLabel, ops, 1);
}

uint32_t spvgen_current_block(const spvgen_module *m) {
  return m && m->block_open ? m->current_block : 0;
}

bool spvgen_block_open(const spvgen_module *m) { return m && m->block_open; }

/* ------------------------------------------------ structured control flow ---- */

static sg_cf_frame *push_frame(spvgen_module *m, const char *fn) {
  if (!sg_grow(&m->cf, &m->cf_cap, (size_t)m->cf_n + 1, sizeof *m->cf, 8, SIZE_MAX)) {
    sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, fn, "out of memory");
    return NULL;
  }
  sg_cf_frame *f = &m->cf[m->cf_n++];
  memset(f, 0, sizeof *f);
  return f;
}

static sg_cf_frame *top_frame(spvgen_module *m, const char *fn, uint8_t kind) {
  if (!m->cf_n || m->cf[m->cf_n - 1].kind != kind) {
    sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "no open %s construct", kind == 1 ? "if" : "loop");
    return NULL;
  }
  return &m->cf[m->cf_n - 1];
}

static void branch(spvgen_module *m, const char *fn, uint32_t target) {
  uint32_t ops[1] = {target};
  sg_inst(m, fn, SpvOpBranch, ops, 1);
}

void spvgen_if(spvgen_module *m, uint32_t condition) {
  if (!sg_ok(m, __func__)) return;
  if (!m->block_open) {
    STATE(m, "no open block for the condition");
    return;
  }
  uint32_t ct = spvgen_type_of(m, condition);
  if (sg_op_of(m, ct) != SpvOpTypeBool) {
    BAD(m, "condition %u is not a bool value", condition);
    return;
  }
  uint32_t merge = spvgen_reserve_id(m), then = spvgen_reserve_id(m);
  sg_cf_frame *f = push_frame(m, __func__);
  if (!f) return;
  f->kind = 1;
  f->merge = merge;
  uint32_t sm[2] = {merge, SpvSelectionControlMaskNone};
  if (!sg_append_body(m, SpvOpSelectionMerge, sm, 2)) sg_inst(m, __func__, SpvOpSelectionMerge, sm, 2);
  uint32_t bc[3] = {condition, then, merge};
  sg_inst(m, __func__, SpvOpBranchConditional, bc, 3);
  f = &m->cf[m->cf_n - 1];
  f->else_patch = m->sec[SG_SEC_FUNCTIONS].len - 1; /* the false-target word */
  spvgen_block(m, then);
}

void spvgen_else(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  sg_cf_frame *f = top_frame(m, __func__, 1);
  if (!f) return;
  if (f->has_else) {
    STATE(m, "this if already has an else");
    return;
  }
  if (m->block_open) branch(m, __func__, f->merge);
  uint32_t else_label = spvgen_reserve_id(m);
  f = &m->cf[m->cf_n - 1];
  f->has_else = 1;
  f->else_label = else_label;
  m->sec[SG_SEC_FUNCTIONS].data[f->else_patch] = else_label;
  spvgen_block(m, else_label);
}

void spvgen_end_if(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  sg_cf_frame *f = top_frame(m, __func__, 1);
  if (!f) return;
  uint32_t merge = f->merge;
  if (m->block_open) branch(m, __func__, merge);
  m->cf_n--;
  spvgen_block(m, merge);
}

void spvgen_loop(spvgen_module *m, SpvLoopControlMask control) {
  if (!sg_ok(m, __func__)) return;
  if (!m->block_open) {
    STATE(m, "no open block to enter the loop from");
    return;
  }
  uint32_t header = spvgen_reserve_id(m), merge = spvgen_reserve_id(m),
           cont = spvgen_reserve_id(m), first = spvgen_reserve_id(m);
  sg_cf_frame *f = push_frame(m, __func__);
  if (!f) return;
  f->kind = 2;
  f->header = header;
  f->merge = merge;
  f->continue_label = cont;
  branch(m, __func__, header);
  spvgen_block(m, header);
  uint32_t lm[3] = {merge, cont, (uint32_t)control};
  if (control != SpvLoopControlMaskNone || !sg_append_body(m, SpvOpLoopMerge, lm, 3))
    sg_inst(m, __func__, SpvOpLoopMerge, lm, 3); /* masks are checked against the grammar */
  branch(m, __func__, first);
  spvgen_block(m, first);
}

void spvgen_loop_while(spvgen_module *m, uint32_t condition) {
  if (!sg_ok(m, __func__)) return;
  sg_cf_frame *f = top_frame(m, __func__, 2);
  if (!f) return;
  if (f->has_while || f->in_continue) {
    STATE(m, "the loop condition was already given");
    return;
  }
  if (sg_op_of(m, spvgen_type_of(m, condition)) != SpvOpTypeBool) {
    BAD(m, "condition %u is not a bool value", condition);
    return;
  }
  f->has_while = 1;
  uint32_t merge = f->merge;
  uint32_t body = spvgen_reserve_id(m);
  uint32_t bc[3] = {condition, body, merge};
  sg_inst(m, __func__, SpvOpBranchConditional, bc, 3);
  spvgen_block(m, body);
}

void spvgen_loop_continue_block(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  sg_cf_frame *f = top_frame(m, __func__, 2);
  if (!f) return;
  if (f->in_continue) {
    STATE(m, "already in the continue block");
    return;
  }
  f->in_continue = 1;
  uint32_t cont = f->continue_label;
  if (m->block_open) branch(m, __func__, cont);
  spvgen_block(m, cont);
}

void spvgen_end_loop(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  sg_cf_frame *f = top_frame(m, __func__, 2);
  if (!f) return;
  if (!f->in_continue) {
    spvgen_loop_continue_block(m);
    f = &m->cf[m->cf_n - 1];
  }
  uint32_t header = f->header, merge = f->merge;
  if (m->block_open) branch(m, __func__, header);
  m->cf_n--;
  spvgen_block(m, merge);
}

static const sg_cf_frame *innermost_loop(const spvgen_module *m) {
  for (uint32_t i = m ? m->cf_n : 0; i > 0; i--)
    if (m->cf[i - 1].kind == 2) return &m->cf[i - 1];
  return NULL;
}

uint32_t spvgen_loop_header(const spvgen_module *m) {
  const sg_cf_frame *f = innermost_loop(m);
  return f ? f->header : 0;
}
uint32_t spvgen_loop_continue_target(const spvgen_module *m) {
  const sg_cf_frame *f = innermost_loop(m);
  return f ? f->continue_label : 0;
}
uint32_t spvgen_loop_merge(const spvgen_module *m) {
  const sg_cf_frame *f = innermost_loop(m);
  return f ? f->merge : 0;
}

void spvgen_break(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  const sg_cf_frame *f = innermost_loop(m);
  if (!f) {
    STATE(m, "break outside a loop");
    return;
  }
  branch(m, __func__, f->merge);
}

void spvgen_continue(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  const sg_cf_frame *f = innermost_loop(m);
  if (!f) {
    STATE(m, "continue outside a loop");
    return;
  }
  branch(m, __func__, f->continue_label);
}

void spvgen_return(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  if (m->in_function && sg_op_of(m, m->function_return_type) != SpvOpTypeVoid) {
    STATE(m, "function %u returns a value: use spvgen_return_value", m->current_function);
    return;
  }
  sg_inst(m, __func__, SpvOpReturn, NULL, 0);
}

void spvgen_return_value(spvgen_module *m, uint32_t value) {
  if (!sg_ok(m, __func__)) return;
  if (m->in_function && sg_op_of(m, m->function_return_type) == SpvOpTypeVoid) {
    STATE(m, "function %u returns void: use spvgen_return", m->current_function);
    return;
  }
  if (m->in_function && spvgen_type_of(m, value) != m->function_return_type) {
    BAD(m, "value %u is not of the function's return type %u: it is %s, the function returns %s",
        value, m->function_return_type, IDN(m, value), TN(m, m->function_return_type));
    return;
  }
  uint32_t ops[1] = {value};
  sg_inst(m, __func__, SpvOpReturnValue, ops, 1);
}

/* ------------------------------------------------------- instructions ---- */

void spvgen_emit(spvgen_module *m, SpvOp opcode, const uint32_t *operands, uint32_t count) {
  sg_inst(m, __func__, (uint32_t)opcode, operands, count);
}

uint32_t spvgen_emit_result(spvgen_module *m, SpvOp opcode, uint32_t result_type,
                            const uint32_t *operands, uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  const sg_instruction *ins = sg_find_instruction((uint32_t)opcode);
  if (!ins) return BAD(m, "unknown opcode %u", (uint32_t)opcode);
  if (!ins->has_result) return BAD(m, "%s has no result id", ins->name);
  if (ins->has_type && !result_type) return BAD(m, "%s needs a result type", ins->name);
  if (!ins->has_type && result_type) return BAD(m, "%s takes no result type", ins->name);
  if (count && !operands) return BAD(m, "operands is NULL with count %u", count);
  if (count > 65000) return BAD(m, "too many operands");
  uint32_t stack[32], *ops = count + 2 <= 32 ? stack : malloc((count + 2) * sizeof *ops);
  if (!ops) return FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  uint32_t n = 0;
  if (ins->has_type) ops[n++] = result_type;
  ops[n++] = 0;
  if (count) memcpy(ops + n, operands, count * sizeof *ops);
  uint32_t id = sg_inst(m, __func__, (uint32_t)opcode, ops, n + count);
  if (ops != stack) free(ops);
  return id;
}

/* A load or store through a PhysicalStorageBuffer pointer must say how aligned the
 * address is (Vulkan: the Aligned memory operand); the pointee's std430 alignment (its
 * scalar size, a vector's size) is what a buffer of such elements guarantees. pt: the
 * pointer type's words. */
static bool physical_alignment(const spvgen_module *m, const uint32_t *pt, uint32_t *align) {
  uint64_t size, a;
  if (pt[2] != SpvStorageClassPhysicalStorageBuffer || !sg_std430(m, pt[3], &size, &a)) return false;
  *align = (uint32_t)a;
  return true;
}

uint32_t spvgen_load(spvgen_module *m, uint32_t type, uint32_t pointer) {
  if (!sg_ok(m, __func__)) return 0;
  const uint32_t *pt = sg_def_words(m, spvgen_type_of(m, pointer));
  if (!pt || (pt[0] & 0xFFFF) != SpvOpTypePointer)
    return BAD(m, "id %u is not a pointer: it is %s", pointer, IDN(m, pointer));
  if (pt[3] != type)
    return BAD(m, "pointer %u points to %s, not %s (the type to load)", pointer, TN(m, pt[3]),
               TN(m, type));
  uint32_t ops[5] = {type, 0, pointer, SpvMemoryAccessAlignedMask, 0};
  return sg_inst(m, __func__, SpvOpLoad, ops, physical_alignment(m, pt, &ops[4]) ? 5 : 3);
}

void spvgen_store(spvgen_module *m, uint32_t pointer, uint32_t value) {
  if (!sg_ok(m, __func__)) return;
  const uint32_t *pt = sg_def_words(m, spvgen_type_of(m, pointer));
  if (!pt || (pt[0] & 0xFFFF) != SpvOpTypePointer) {
    BAD(m, "id %u is not a pointer: it is %s", pointer, IDN(m, pointer));
    return;
  }
  if (spvgen_type_of(m, value) != pt[3]) {
    BAD(m, "value %u has type %s, the pointer %u points to %s", value,
        spvgen_type_of(m, value) ? TN(m, spvgen_type_of(m, value)) : "(none: not a value)", pointer,
        TN(m, pt[3]));
    return;
  }
  uint32_t ops[4] = {pointer, value, SpvMemoryAccessAlignedMask, 0};
  sg_inst(m, __func__, SpvOpStore, ops, physical_alignment(m, pt, &ops[3]) ? 4 : 2);
}

uint32_t spvgen_access_chain(spvgen_module *m, uint32_t pointer_type, uint32_t base,
                             const uint32_t *indices, uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  if (count > 30 || (count && !indices)) return BAD(m, "bad index list (count %u)", count);
  if (sg_op_of(m, pointer_type) != SpvOpTypePointer || !sg_is_type(m, pointer_type))
    return BAD(m, "pointer_type is %s, not a pointer type", IDN(m, pointer_type));
  uint32_t storage, pointee;
  int reach = sg_access_pointee(m, __func__, base, indices, count, &storage, &pointee);
  if (!reach) return 0;
  const uint32_t *pd = sg_def_words(m, pointer_type);
  if (reach > 0 && (pd[2] != storage || pd[3] != pointee)) {
    const char *sc = sg_enumerant_name(SG_KIND_StorageClass, storage);
    return BAD(m, "the indices reach ptr %s %s, but pointer_type is %s (use spvgen_access to "
               "have the result type computed)", sc ? sc : "?", TN(m, pointee), TN(m, pointer_type));
  }
  uint32_t ops[33];
  ops[0] = pointer_type;
  ops[1] = 0;
  ops[2] = base;
  for (uint32_t i = 0; i < count; i++) ops[3 + i] = indices[i];
  return sg_inst(m, __func__, SpvOpAccessChain, ops, 3 + count);
}

uint32_t spvgen_ext_inst(spvgen_module *m, uint32_t type, uint32_t set, uint32_t instruction,
                         const uint32_t *operands, uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  if (count > 28 || (count && !operands)) return BAD(m, "bad operand list (count %u)", count);
  uint32_t ops[32];
  ops[0] = type;
  ops[1] = 0;
  ops[2] = set;
  ops[3] = instruction;
  for (uint32_t i = 0; i < count; i++) ops[4 + i] = operands[i];
  return sg_inst(m, __func__, SpvOpExtInst, ops, 4 + count);
}

void spvgen_workgroup_barrier(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return;
  uint32_t wg = spvgen_const_u32(m, SpvScopeWorkgroup);
  uint32_t sem = spvgen_const_u32(m, SpvMemorySemanticsAcquireReleaseMask |
                                         SpvMemorySemanticsWorkgroupMemoryMask);
  uint32_t ops[3] = {wg, wg, sem};
  sg_inst(m, __func__, SpvOpControlBarrier, ops, 3);
}
