/* lib/core/coop_internal.h — what the cooperative helpers (coop.c, coop_tensor.c,
 * coop_vec.c) share: type and value queries phrased for their checks, messages that
 * name types the way the specs do, and the memory-operand packer. Not public. */
#ifndef SPVGEN_CORE_COOP_INTERNAL_H
#define SPVGEN_CORE_COOP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "spvgen/coop.h"

/* Records an invalid-argument error for the public function `fn`; returns 0. */
#define COOP_BAD(m, fn, ...) sg_fail((m), SPVGEN_ERROR_INVALID_ARGUMENT, (fn), __VA_ARGS__)

/* The opcode that defined id (a type, a value, a function), 0 if none. */
uint32_t sg_coop_def_opcode(const spvgen_module *m, uint32_t id);
/* Value of a non-specialization integer/bool constant. */
bool sg_coop_const_u32(const spvgen_module *m, uint32_t id, uint32_t *value);
/* The value of a uint32 constant id, or SPVGEN_ABSENT when id is not one. */
static inline uint32_t sg_coop_const_or_absent(const spvgen_module *m, uint32_t id) {
  uint32_t v;
  return sg_coop_const_u32(m, id, &v) ? v : SPVGEN_ABSENT;
}
/* Two known values that differ (SPVGEN_ABSENT matches anything). */
static inline bool sg_coop_differ(uint32_t a, uint32_t b) {
  return a != SPVGEN_ABSENT && b != SPVGEN_ABSENT && a != b;
}
/* id is a constant or specialization constant instruction whose type is a scalar int
 * (any width). */
bool sg_coop_is_int_constant(const spvgen_module *m, uint32_t id);
/* t is OpTypeInt; width / signedness out (either may be NULL). */
bool sg_coop_int_type(const spvgen_module *m, uint32_t t, uint32_t *width, bool *is_signed);
/* t is OpTypeFloat; encoding is SPVGEN_ABSENT for IEEE floats. */
bool sg_coop_float_type(const spvgen_module *m, uint32_t t, uint32_t *width, uint32_t *encoding);
/* id is a value of 32-bit integer scalar type. */
bool sg_coop_is_int32_value(const spvgen_module *m, uint32_t id);
/* A function id (defined) and its function type's words: ret, params. Returns false
 * for anything else. A reserved, not yet defined id (forward reference) gives
 * *defined = false and true. */
bool sg_coop_function_signature(const spvgen_module *m, uint32_t f, bool *defined, uint32_t *ret,
                             const uint32_t **params, uint32_t *param_count);

/* Describes a type for messages: "float16", "uint32", "bfloat16",
 * "coopmat<float16, Subgroup, 16x16, MatrixAKHR>", "coopvec<float16, 32>", ... */
const char *sg_coop_type_name(const spvgen_module *m, uint32_t t, char *buf, size_t size);
const char *sg_coop_use_name(uint32_t use);
const char *sg_coop_scope_name(uint32_t scope);

/* Checked views of arguments. On failure they record an error naming `what`. */
bool sg_coop_need_matrix_type(spvgen_module *m, const char *fn, uint32_t type, const char *what,
                           spvgen_coop_type_info *info);
bool sg_coop_need_matrix_value(spvgen_module *m, const char *fn, uint32_t value, const char *what,
                            spvgen_coop_type_info *info);
bool sg_coop_need_vector_type(spvgen_module *m, const char *fn, uint32_t type, const char *what,
                           spvgen_coop_type_info *info);
bool sg_coop_need_vector_value(spvgen_module *m, const char *fn, uint32_t value, const char *what,
                            spvgen_coop_type_info *info);
/* A pointer value; *storage and *pointee (may be NULL) are filled. */
bool sg_coop_need_pointer(spvgen_module *m, const char *fn, uint32_t pointer, const char *what,
                       uint32_t *storage, uint32_t *pointee);
bool sg_coop_need_scalar_numeric_type(spvgen_module *m, const char *fn, uint32_t type,
                                   const char *what, const char *rule);
/* An optional 32-bit integer offset value: 0 becomes the constant 0. A constant offset
 * must be a multiple of `align` (message names `rule`). Returns the id or 0. */
uint32_t sg_coop_offset(spvgen_module *m, const char *fn, uint32_t offset, const char *what,
                     uint32_t align, const char *rule);

/* Appends the memory operands (mask, then Aligned's literal, then the scope constant of
 * MakePointerAvailable/Visible) to ops. always: emit a 0 mask for NULL/None (operands
 * that are not optional). */
bool sg_coop_pack_memory(spvgen_module *m, const char *fn, const spvgen_memory_operands *mem,
                      bool is_load, bool always, uint32_t *ops, uint32_t *n);

#endif
