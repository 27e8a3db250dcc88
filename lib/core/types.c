/* lib/core/types.c — types and constants of the hand-written API (spvgen/builder.h):
 * scalar, vector, matrix, array, struct, pointer and function types (hash-consed by
 * sg_inst, the commonest memoized), their queries and std430 layout, and constants and
 * specialization constants with the value queries. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "spvgen/coop.h" /* SPVGEN_FP_ENCODING_* */

bool sg_need_type(spvgen_module *m, const char *fn, uint32_t id, const char *what) {
  if (sg_is_type(m, id)) return true;
  sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "%s (id %u) is not a type: it is %s", what, id,
          IDN(m, id));
  return false;
}

/* ------------------------------------------------------------------- types ---- */

/* Memo hits are valid only while the module is usable (the memo is cleared by reset). */
#define MEMO_OK(m) ((m) && (m)->status == SPVGEN_OK && !(m)->finished)

uint32_t spvgen_type_void(spvgen_module *m) {
  if (MEMO_OK(m) && m->memo_void) return m->memo_void;
  uint32_t ops[1] = {0};
  uint32_t id = sg_inst(m, __func__, SpvOpTypeVoid, ops, 1);
  if (m) m->memo_void = id;
  return id;
}

uint32_t spvgen_type_bool(spvgen_module *m) {
  if (MEMO_OK(m) && m->memo_bool) return m->memo_bool;
  uint32_t ops[1] = {0};
  uint32_t id = sg_inst(m, __func__, SpvOpTypeBool, ops, 1);
  if (m) m->memo_bool = id;
  return id;
}

static int width_class(uint32_t width) {
  return width == 8 ? 0 : width == 16 ? 1 : width == 32 ? 2 : width == 64 ? 3 : -1;
}

uint32_t spvgen_type_int(spvgen_module *m, uint32_t width, bool is_signed) {
  int wc = width_class(width);
  if (MEMO_OK(m) && wc >= 0 && m->memo_scalar[is_signed][wc]) return m->memo_scalar[is_signed][wc];
  if (!sg_ok(m, __func__)) return 0;
  if (wc < 0) return BAD(m, "integer width %u is not 8, 16, 32 or 64", width);
  uint32_t ops[3] = {0, width, is_signed ? 1u : 0u};
  uint32_t id = sg_inst(m, __func__, SpvOpTypeInt, ops, 3);
  m->memo_scalar[is_signed][wc] = id;
  return id;
}

uint32_t spvgen_type_float(spvgen_module *m, uint32_t width) {
  int wc = width_class(width);
  if (MEMO_OK(m) && wc > 0 && m->memo_scalar[2][wc]) return m->memo_scalar[2][wc];
  if (!sg_ok(m, __func__)) return 0;
  if (wc <= 0)
    return BAD(m, "float width %u is not 16, 32 or 64 (8-bit and bfloat16 floats need an encoding: spvgen_type_float_encoded)", width);
  uint32_t ops[2] = {0, width};
  uint32_t id = sg_inst(m, __func__, SpvOpTypeFloat, ops, 2);
  m->memo_scalar[2][wc] = id;
  return id;
}

uint32_t spvgen_type_float_encoded(spvgen_module *m, uint32_t width, uint32_t encoding) {
  if (!sg_ok(m, __func__)) return 0;
  if (encoding == SPVGEN_FP_ENCODING_BFLOAT16 && width != 16)
    return BAD(m, "BFloat16KHR encoding needs width 16, not %u", width);
  if ((encoding == SPVGEN_FP_ENCODING_FLOAT8_E4M3 || encoding == SPVGEN_FP_ENCODING_FLOAT8_E5M2) &&
      width != 8)
    return BAD(m, "Float8 encodings need width 8, not %u", width);
  if (encoding != SPVGEN_FP_ENCODING_BFLOAT16 && encoding != SPVGEN_FP_ENCODING_FLOAT8_E4M3 &&
      encoding != SPVGEN_FP_ENCODING_FLOAT8_E5M2 && !sg_find_enumerant(SG_KIND_FPEncoding, encoding))
    return BAD(m, "unknown FP encoding %u", encoding);
  uint32_t ops[3] = {0, width, encoding};
  return sg_inst(m, __func__, SpvOpTypeFloat, ops, 3);
}

uint32_t spvgen_type_vector(spvgen_module *m, uint32_t component, uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t op = sg_op_of(m, component);
  if (op != SpvOpTypeInt && op != SpvOpTypeFloat && op != SpvOpTypeBool)
    return BAD(m, "component type %u is not a scalar int, float or bool type: it is %s", component,
               IDN(m, component));
  if (count < 2 || count > 4) return BAD(m, "component count %u is not 2, 3 or 4", count);
  uint32_t ops[3] = {0, component, count};
  return sg_inst(m, __func__, SpvOpTypeVector, ops, 3);
}

uint32_t spvgen_type_matrix(spvgen_module *m, uint32_t column_type, uint32_t columns) {
  if (!sg_ok(m, __func__)) return 0;
  const uint32_t *d = sg_def_words(m, column_type);
  if (sg_op_of(m, column_type) != SpvOpTypeVector || sg_op_of(m, d[2]) != SpvOpTypeFloat)
    return BAD(m, "column type %u is not a float vector type: it is %s", column_type,
               IDN(m, column_type));
  if (columns < 2 || columns > 4) return BAD(m, "column count %u is not 2, 3 or 4", columns);
  uint32_t ops[3] = {0, column_type, columns};
  return sg_inst(m, __func__, SpvOpTypeMatrix, ops, 3);
}

static bool check_length(spvgen_module *m, const char *fn, uint32_t length_id) {
  const sg_id_info *i = sg_id(m, length_id);
  if (!i || !(i->flags & (SG_TF_CONSTANT | SG_TF_SPEC_CONSTANT)) || sg_op_of(m, i->type) != SpvOpTypeInt) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
            "length_id %u is not the id of an integer constant: it is %s (the _id forms take a "
            "constant's id, spvgen_const_u32(m, n) or a specialization constant; spvgen_type_array "
            "takes the count itself)", length_id, IDN(m, length_id));
    return false;
  }
  uint64_t v;
  if (spvgen_const_value(m, length_id, &v) && v == 0) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "array length must be at least 1");
    return false;
  }
  return true;
}

/* The length constant of a literal count (the count itself checked: at least 1). */
static uint32_t count_constant(spvgen_module *m, const char *fn, uint32_t count) {
  if (count == 0) return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "count 0: an array has at least 1 element");
  return spvgen_const_u32(m, count);
}

uint32_t spvgen_type_array(spvgen_module *m, uint32_t element, uint32_t count) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, element, "element type")) return 0;
  uint32_t length_id = count_constant(m, __func__, count);
  if (!length_id) return 0;
  uint32_t ops[3] = {0, element, length_id};
  return sg_inst(m, __func__, SpvOpTypeArray, ops, 3);
}

uint32_t spvgen_type_array_id(spvgen_module *m, uint32_t element, uint32_t length_id) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, element, "element type") ||
      !check_length(m, __func__, length_id))
    return 0;
  uint32_t ops[3] = {0, element, length_id};
  return sg_inst(m, __func__, SpvOpTypeArray, ops, 3);
}

uint32_t spvgen_type_runtime_array(spvgen_module *m, uint32_t element) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, element, "element type")) return 0;
  uint32_t ops[2] = {0, element};
  return sg_inst(m, __func__, SpvOpTypeRuntimeArray, ops, 2);
}

/* Strided arrays are keyed by (tag, element, length, stride) in the same table; the
 * type itself is emitted without the generic dedupe so that plain and strided arrays
 * of one element type stay distinct. */
static uint32_t strided(spvgen_module *m, const char *fn, uint32_t opcode, uint32_t element,
                        uint32_t length_id, uint32_t stride) {
  if (!stride) return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "ArrayStride must be > 0");
  uint32_t key[4] = {0x80000000u | opcode, element, length_id, stride};
  uint32_t hash = 0x9e3779b9u;
  for (int i = 0; i < 4; i++) hash = (hash ^ key[i]) * 16777619u;
  hash = hash ? hash : 1;
  uint32_t hit = sg_table_lookup(m, key, 4, hash);
  if (hit) return hit;
  uint32_t id = spvgen_reserve_id(m);
  uint32_t ops[3] = {id, element, length_id};
  if (!sg_inst(m, fn, opcode, ops, opcode == SpvOpTypeArray ? 3 : 2)) return 0;
  spvgen_decorate1(m, id, SpvDecorationArrayStride, stride);
  sg_table_add(m, key, 4, hash, id);
  return m->status == SPVGEN_OK ? id : 0;
}

uint32_t spvgen_type_array_strided(spvgen_module *m, uint32_t element, uint32_t count, uint32_t stride) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, element, "element type")) return 0;
  uint32_t length_id = count_constant(m, __func__, count);
  if (!length_id) return 0;
  return strided(m, __func__, SpvOpTypeArray, element, length_id, stride);
}

uint32_t spvgen_type_array_strided_id(spvgen_module *m, uint32_t element, uint32_t length_id,
                                      uint32_t stride) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, element, "element type") ||
      !check_length(m, __func__, length_id))
    return 0;
  return strided(m, __func__, SpvOpTypeArray, element, length_id, stride);
}

uint32_t spvgen_type_runtime_array_strided(spvgen_module *m, uint32_t element, uint32_t stride) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, element, "element type")) return 0;
  return strided(m, __func__, SpvOpTypeRuntimeArray, element, 0, stride);
}

uint32_t spvgen_type_struct(spvgen_module *m, const uint32_t *members, uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  if (count && !members) return BAD(m, "members is NULL with count %u", count);
  if (count > 16000) return BAD(m, "%u members is too many", count);
  for (uint32_t i = 0; i < count; i++)
    if (!sg_need_type(m, __func__, members[i], "member type")) return 0;
  uint32_t stack[64], *ops = count + 1 <= 64 ? stack : malloc((count + 1) * sizeof *ops);
  if (!ops) return FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  ops[0] = 0;
  if (count) memcpy(ops + 1, members, count * sizeof *ops);
  uint32_t id = sg_inst(m, __func__, SpvOpTypeStruct, ops, count + 1);
  if (ops != stack) free(ops);
  return id;
}

uint32_t spvgen_type_pointer(spvgen_module *m, SpvStorageClass storage, uint32_t pointee) {
  uint32_t id = sg_decl_memo_get(m, SpvOpTypePointer, (uint32_t)storage, pointee, 0);
  if (id) return id;
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, pointee, "pointee type")) return 0;
  uint32_t ops[3] = {0, (uint32_t)storage, pointee};
  id = sg_inst(m, __func__, SpvOpTypePointer, ops, 3);
  sg_decl_memo_put(m, SpvOpTypePointer, (uint32_t)storage, pointee, 0, id);
  return id;
}

uint32_t spvgen_type_function(spvgen_module *m, uint32_t return_type, const uint32_t *params,
                              uint32_t count) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, return_type, "return type")) return 0;
  if (count && !params) return BAD(m, "params is NULL with count %u", count);
  if (count > 255) return BAD(m, "%u parameters is too many", count);
  uint32_t ops[258];
  ops[0] = 0;
  ops[1] = return_type;
  for (uint32_t i = 0; i < count; i++) {
    if (!sg_need_type(m, __func__, params[i], "parameter type")) return 0;
    ops[2 + i] = params[i];
  }
  return sg_inst(m, __func__, SpvOpTypeFunction, ops, count + 2);
}

uint32_t spvgen_type_opcode(const spvgen_module *m, uint32_t type) {
  return m && sg_is_type(m, type) ? sg_op_of(m, type) : 0;
}

uint32_t spvgen_type_operands(const spvgen_module *m, uint32_t type, uint32_t *out, uint32_t max) {
  if (!m || !sg_is_type(m, type)) return 0;
  const uint32_t *d = sg_def_words(m, type);
  if (!d) return 0;
  uint32_t n = (d[0] >> 16) - 2; /* minus opcode word and result id */
  for (uint32_t i = 0; i < n && i < max && out; i++) out[i] = d[2 + i];
  return n;
}

uint32_t spvgen_type_element(const spvgen_module *m, uint32_t type) {
  if (!m || !sg_is_type(m, type)) return 0;
  const uint32_t *d = sg_def_words(m, type);
  switch (sg_op_of(m, type)) {
  case SpvOpTypeVector:
  case SpvOpTypeMatrix:
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray:
  case SpvOpTypeCooperativeMatrixKHR:
  case SpvOpTypeCooperativeMatrixNV:
  case SpvOpTypeCooperativeVectorNV:
    return d[2];
  default:
    return 0;
  }
}

/* The literal of `OpDecorate target decoration literal`, or 0 when there is none. A scan
 * of the annotations: only the layout queries below use it, a few times per module. */
static uint32_t decoration_literal(const spvgen_module *m, uint32_t target, uint32_t decoration) {
  size_t pos = 0;
  for (const uint32_t *w; (w = sg_next_inst(m, SG_SEC_ANNOTATIONS, SpvOpDecorate, &pos));)
    if ((w[0] >> 16) >= 4 && w[1] == target && w[2] == decoration) return w[3];
  return 0;
}

/* a * b into *out; false when it does not fit in 64 bits. */
static bool mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
  if (a && b > UINT64_MAX / a) return false;
  *out = a * b;
  return true;
}

/* Size and base alignment under Vulkan's storage buffer layout (std430, which is what
 * spirv-val checks for StorageBuffer blocks): a 3-component vector aligns like a
 * 4-component one; an array is ArrayStride x length, aligned like its element. False for
 * types without an explicit layout (bool, opaque types, arrays without ArrayStride...),
 * and for sizes of 2^64 bytes or more (*overflow set: u32[2^62 + 1] is not 4 bytes).
 * Types can only use ids declared before them, so the recursion ends. */
bool sg_std430_layout(const spvgen_module *m, uint32_t type, uint64_t *size, uint64_t *align,
                      bool need_stride, bool *overflow) {
  if (!sg_is_type(m, type)) return false;
  const uint32_t *d = sg_def_words(m, type);
  uint64_t s, a, v;
  switch (sg_op_of(m, type)) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat:
    *size = *align = d[2] / 8;
    return *size != 0;
  case SpvOpTypePointer: /* a device address (PhysicalStorageBuffer64): 8 bytes; other
                           pointers have no layout */
    if (d[2] != SpvStorageClassPhysicalStorageBuffer) return false;
    *size = *align = 8;
    return true;
  case SpvOpTypeVector:
    if (!sg_std430_layout(m, d[2], &s, &a, need_stride, overflow)) return false;
    *size = s * d[3];
    *align = a * (d[3] == 3 ? 4 : d[3]);
    return true;
  case SpvOpTypeMatrix: /* columns tightly packed (no MatrixStride: spvgen_type_size only) */
    if (need_stride || !sg_std430_layout(m, d[2], &s, &a, need_stride, overflow)) return false;
    *size = s * d[3];
    *align = a;
    return true;
  case SpvOpTypeArray: {
    if (!spvgen_const_value(m, d[3], &v) || !sg_std430_layout(m, d[2], &s, &a, need_stride, overflow))
      return false;
    uint32_t stride = decoration_literal(m, type, SpvDecorationArrayStride);
    if (!stride && need_stride) return false;
    if (!mul_u64(stride ? stride : s, v, size)) {
      *overflow = true;
      return false;
    }
    *align = a;
    return true;
  }
  default:
    return false;
  }
}

uint32_t spvgen_type_size(const spvgen_module *m, uint32_t type) {
  uint64_t size, align;
  bool overflow = false;
  if (!m || !sg_std430_layout(m, type, &size, &align, false, &overflow) || size > UINT32_MAX)
    return 0;
  return (uint32_t)size;
}

/* --------------------------------------------------------------- constants ---- */

uint32_t spvgen_const_bool(spvgen_module *m, bool value) {
  uint32_t t = spvgen_type_bool(m);
  if (!t) return 0;
  uint32_t ops[2] = {t, 0};
  return sg_inst(m, __func__, value ? SpvOpConstantTrue : SpvOpConstantFalse, ops, 2);
}

static bool scalar_bits(spvgen_module *m, const char *fn, uint32_t type, uint64_t bits,
                        uint32_t *words, uint32_t *nwords) {
  uint32_t op = sg_op_of(m, type);
  if (!sg_is_type(m, type) || (op != SpvOpTypeInt && op != SpvOpTypeFloat)) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "type %u is not a scalar int or float type: it is %s",
            type, IDN(m, type));
    return false;
  }
  const uint32_t *d = sg_def_words(m, type);
  uint32_t width = d[2];
  if (width < 64) bits &= (1ull << width) - 1;
  if (width < 32 && op == SpvOpTypeInt && d[3] && (bits >> (width - 1)) & 1)
    bits |= ~0ull << width; /* sign-extend narrow signed ints, as SPIR-V requires */
  words[0] = (uint32_t)bits;
  words[1] = (uint32_t)(bits >> 32);
  *nwords = width > 32 ? 2 : 1;
  return true;
}

uint32_t spvgen_const_bits(spvgen_module *m, uint32_t type, uint64_t bits) {
  uint32_t id = sg_decl_memo_get(m, SpvOpConstant, type, (uint32_t)bits, (uint32_t)(bits >> 32));
  if (id) return id;
  if (!sg_ok(m, __func__)) return 0;
  uint32_t w[2], n;
  if (!scalar_bits(m, __func__, type, bits, w, &n)) return 0;
  uint32_t ops[4] = {type, 0, w[0], w[1]};
  id = sg_inst(m, __func__, SpvOpConstant, ops, 2 + n);
  sg_decl_memo_put(m, SpvOpConstant, type, (uint32_t)bits, (uint32_t)(bits >> 32), id);
  return id;
}

uint32_t spvgen_const_u32(spvgen_module *m, uint32_t value) {
  if (value < 64 && MEMO_OK(m) && m->memo_u32[value]) return m->memo_u32[value];
  /* What spvgen_const_bits's memo answers for the uint32 type, without the calls. */
  if (value >= 64 && MEMO_OK(m) && m->memo_scalar[0][2]) {
    uint32_t id = sg_decl_memo_get(m, SpvOpConstant, m->memo_scalar[0][2], value, 0);
    if (id) return id;
  }
  const char *outer = sg_api_enter(m, __func__);
  uint32_t id = spvgen_const_bits(m, spvgen_type_int(m, 32, false), value);
  sg_api_leave(m, outer);
  if (value < 64 && m) m->memo_u32[value] = id;
  return id;
}

uint32_t spvgen_const_i32(spvgen_module *m, int32_t value) {
  const char *outer = sg_api_enter(m, __func__);
  uint32_t id = spvgen_const_bits(m, spvgen_type_int(m, 32, true), (uint32_t)value);
  sg_api_leave(m, outer);
  return id;
}

uint32_t spvgen_const_f32(spvgen_module *m, float value) {
  uint32_t bits;
  memcpy(&bits, &value, 4);
  const char *outer = sg_api_enter(m, __func__);
  uint32_t id = spvgen_const_bits(m, spvgen_type_float(m, 32), bits);
  sg_api_leave(m, outer);
  return id;
}

static uint32_t composite_count(const spvgen_module *m, uint32_t type, bool *known) {
  const uint32_t *d = sg_def_words(m, type);
  uint64_t v;
  *known = true;
  switch (sg_op_of(m, type)) {
  case SpvOpTypeVector:
  case SpvOpTypeMatrix:
    return d[3];
  case SpvOpTypeArray:
    if (spvgen_const_value(m, d[3], &v)) return (uint32_t)v;
    *known = false;
    return 0;
  case SpvOpTypeStruct:
    return (d[0] >> 16) - 2;
  case SpvOpTypeCooperativeMatrixKHR:
  case SpvOpTypeCooperativeMatrixNV:
    return 1;
  default:
    *known = false;
    return 0;
  }
}

uint32_t spvgen_const_composite(spvgen_module *m, uint32_t type, const uint32_t *parts,
                                uint32_t count) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, type, "type")) return 0;
  uint32_t op = sg_op_of(m, type);
  if (op != SpvOpTypeVector && op != SpvOpTypeMatrix && op != SpvOpTypeArray &&
      op != SpvOpTypeStruct && op != SpvOpTypeCooperativeMatrixKHR &&
      op != SpvOpTypeCooperativeMatrixNV && op != SpvOpTypeCooperativeVectorNV)
    return BAD(m, "type %u is not a composite type: it is %s", type, TN(m, type));
  if (count && !parts) return BAD(m, "parts is NULL with count %u", count);
  bool known;
  uint32_t want = composite_count(m, type, &known);
  if (known && want != count)
    return BAD(m, "type %u (%s) has %u constituents, %u given", type, TN(m, type), want, count);
  for (uint32_t i = 0; i < count; i++) {
    const sg_id_info *pi = sg_id(m, parts[i]);
    if (!pi || !(pi->flags & (SG_TF_CONSTANT | SG_TF_SPEC_CONSTANT)))
      return BAD(m, "constituent %u (id %u) is not a constant: it is %s", i, parts[i], IDN(m, parts[i]));
  }
  if (count > 4096) return BAD(m, "%u constituents is too many", count);
  uint32_t stack[64], *ops = count + 2 <= 64 ? stack : malloc((count + 2) * sizeof *ops);
  if (!ops) return FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  ops[0] = type;
  ops[1] = 0;
  if (count) memcpy(ops + 2, parts, count * sizeof *ops);
  uint32_t id = sg_inst(m, __func__, SpvOpConstantComposite, ops, count + 2);
  if (ops != stack) free(ops);
  return id;
}

uint32_t spvgen_const_null(spvgen_module *m, uint32_t type) {
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, type, "type")) return 0;
  uint32_t ops[2] = {type, 0};
  return sg_inst(m, __func__, SpvOpConstantNull, ops, 2);
}

static bool claim_spec_id(spvgen_module *m, const char *fn, uint32_t spec_id, uint32_t id) {
  uint32_t key[2] = {0xC0000000u, spec_id};
  uint32_t hash = (spec_id * 2654435761u) ^ 0x5bd1e995u;
  hash = hash ? hash : 1;
  uint32_t other = sg_table_lookup(m, key, 2, hash);
  if (other) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "SpecId %u is already used by id %u", spec_id, other);
    return false;
  }
  sg_table_add(m, key, 2, hash, id);
  return true;
}

uint32_t spvgen_spec_const_bits(spvgen_module *m, uint32_t type, uint64_t default_bits,
                                uint32_t spec_id) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t w[2], n;
  if (!scalar_bits(m, __func__, type, default_bits, w, &n)) return 0;
  uint32_t id = spvgen_reserve_id(m);
  if (!id || !claim_spec_id(m, __func__, spec_id, id)) return 0;
  uint32_t ops[4] = {type, id, w[0], w[1]};
  if (!sg_inst(m, __func__, SpvOpSpecConstant, ops, 2 + n)) return 0;
  const char *outer = sg_api_enter(m, __func__);
  spvgen_decorate1(m, id, SpvDecorationSpecId, spec_id);
  sg_api_leave(m, outer);
  return m->status == SPVGEN_OK ? id : 0;
}

uint32_t spvgen_spec_const_u32(spvgen_module *m, uint32_t default_value, uint32_t spec_id) {
  const char *outer = sg_api_enter(m, __func__);
  uint32_t id = spvgen_spec_const_bits(m, spvgen_type_int(m, 32, false), default_value, spec_id);
  sg_api_leave(m, outer);
  return id;
}

uint32_t spvgen_spec_const_bool(spvgen_module *m, bool default_value, uint32_t spec_id) {
  uint32_t t = spvgen_type_bool(m);
  if (!t) return 0;
  uint32_t id = spvgen_reserve_id(m);
  if (!id || !claim_spec_id(m, __func__, spec_id, id)) return 0;
  uint32_t ops[2] = {t, id};
  if (!sg_inst(m, __func__, default_value ? SpvOpSpecConstantTrue : SpvOpSpecConstantFalse, ops, 2))
    return 0;
  const char *outer = sg_api_enter(m, __func__);
  spvgen_decorate1(m, id, SpvDecorationSpecId, spec_id);
  sg_api_leave(m, outer);
  return m->status == SPVGEN_OK ? id : 0;
}

bool sg_const_value(const spvgen_module *m, uint32_t id, uint64_t *bits) {
  const sg_id_info *i = sg_id(m, id);
  if (!i || !(i->flags & SG_TF_CONSTANT)) return false;
  const uint32_t *d = sg_def_words(m, id);
  uint64_t v;
  switch (i->opcode) {
  case SpvOpConstantTrue: v = 1; break;
  case SpvOpConstantFalse: v = 0; break;
  case SpvOpConstant:
    v = d[3];
    if ((d[0] >> 16) > 4) v |= (uint64_t)d[4] << 32;
    else {
      const uint32_t *t = sg_def_words(m, d[1]);
      if (t && (t[0] & 0xFFFF) == SpvOpTypeInt && t[3] && t[2] < 32) v &= (1ull << t[2]) - 1;
    }
    break;
  default:
    return false;
  }
  if (bits) *bits = v;
  return true;
}

bool spvgen_const_value(const spvgen_module *m, uint32_t id, uint64_t *bits) {
  return m && sg_const_value(m, id, bits);
}

/* ------------------------------------------------ shared with helpers.c ---- */

bool sg_std430(const spvgen_module *m, uint32_t type, uint64_t *size, uint64_t *align) {
  bool overflow = false;
  return sg_std430_layout(m, type, size, align, true, &overflow) && !overflow;
}

