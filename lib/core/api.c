/* lib/core/api.c — the hand-written builder API (spvgen/builder.h) on top of sg_inst:
 * types, constants, variables, decorations, entry points, functions, blocks and
 * structured control flow. Each function checks its arguments and names itself in
 * the error it records. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "spvgen/coop.h" /* SPVGEN_FP_ENCODING_* */

#define FAIL(m, st, ...) sg_fail((m), (st), __func__, __VA_ARGS__)
#define BAD(m, ...) sg_fail((m), SPVGEN_ERROR_INVALID_ARGUMENT, __func__, __VA_ARGS__)
#define STATE(m, ...) sg_fail((m), SPVGEN_ERROR_INVALID_STATE, __func__, __VA_ARGS__)
/* Type and id text for messages (spvgen_type_name / spvgen_id_name; one buffer per use). */
#define TN(m, t) spvgen_type_name((m), (t), (char[192]){0}, 192)
#define IDN(m, id) spvgen_id_name((m), (id), (char[224]){0}, 224)

static uint32_t op_of(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = sg_id(m, id);
  return i && i->kind > SG_ID_RESERVED ? i->opcode : 0;
}

static bool is_type(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = sg_id(m, id);
  return i && i->kind == SG_ID_TYPE;
}

static bool need_type(spvgen_module *m, const char *fn, uint32_t id, const char *what) {
  if (is_type(m, id)) return true;
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
  uint32_t op = op_of(m, component);
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
  if (op_of(m, column_type) != SpvOpTypeVector || op_of(m, d[2]) != SpvOpTypeFloat)
    return BAD(m, "column type %u is not a float vector type: it is %s", column_type,
               IDN(m, column_type));
  if (columns < 2 || columns > 4) return BAD(m, "column count %u is not 2, 3 or 4", columns);
  uint32_t ops[3] = {0, column_type, columns};
  return sg_inst(m, __func__, SpvOpTypeMatrix, ops, 3);
}

static bool check_length(spvgen_module *m, const char *fn, uint32_t length_id) {
  const sg_id_info *i = sg_id(m, length_id);
  if (!i || !(i->flags & (SG_TF_CONSTANT | SG_TF_SPEC_CONSTANT)) || op_of(m, i->type) != SpvOpTypeInt) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
            "length_id %u is not the id of an integer constant: it is %s (a length is an id here: "
            "spvgen_const_u32(m, n) or a specialization constant)", length_id, IDN(m, length_id));
    return false;
  }
  uint64_t v;
  if (spvgen_const_value(m, length_id, &v) && v == 0) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "array length must be at least 1");
    return false;
  }
  return true;
}

uint32_t spvgen_type_array(spvgen_module *m, uint32_t element, uint32_t length_id) {
  if (!sg_ok(m, __func__) || !need_type(m, __func__, element, "element type") ||
      !check_length(m, __func__, length_id))
    return 0;
  uint32_t ops[3] = {0, element, length_id};
  return sg_inst(m, __func__, SpvOpTypeArray, ops, 3);
}

uint32_t spvgen_type_runtime_array(spvgen_module *m, uint32_t element) {
  if (!sg_ok(m, __func__) || !need_type(m, __func__, element, "element type")) return 0;
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

uint32_t spvgen_type_array_strided(spvgen_module *m, uint32_t element, uint32_t length_id,
                                   uint32_t stride) {
  if (!sg_ok(m, __func__) || !need_type(m, __func__, element, "element type") ||
      !check_length(m, __func__, length_id))
    return 0;
  return strided(m, __func__, SpvOpTypeArray, element, length_id, stride);
}

uint32_t spvgen_type_runtime_array_strided(spvgen_module *m, uint32_t element, uint32_t stride) {
  if (!sg_ok(m, __func__) || !need_type(m, __func__, element, "element type")) return 0;
  return strided(m, __func__, SpvOpTypeRuntimeArray, element, 0, stride);
}

uint32_t spvgen_type_struct(spvgen_module *m, const uint32_t *members, uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  if (count && !members) return BAD(m, "members is NULL with count %u", count);
  if (count > 16000) return BAD(m, "%u members is too many", count);
  for (uint32_t i = 0; i < count; i++)
    if (!need_type(m, __func__, members[i], "member type")) return 0;
  uint32_t stack[64], *ops = count + 1 <= 64 ? stack : malloc((count + 1) * sizeof *ops);
  if (!ops) return FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  ops[0] = 0;
  if (count) memcpy(ops + 1, members, count * sizeof *ops);
  uint32_t id = sg_inst(m, __func__, SpvOpTypeStruct, ops, count + 1);
  if (ops != stack) free(ops);
  return id;
}

uint32_t spvgen_type_pointer(spvgen_module *m, SpvStorageClass storage, uint32_t pointee) {
  if (!sg_ok(m, __func__) || !need_type(m, __func__, pointee, "pointee type")) return 0;
  uint32_t ops[3] = {0, (uint32_t)storage, pointee};
  return sg_inst(m, __func__, SpvOpTypePointer, ops, 3);
}

uint32_t spvgen_type_function(spvgen_module *m, uint32_t return_type, const uint32_t *params,
                              uint32_t count) {
  if (!sg_ok(m, __func__) || !need_type(m, __func__, return_type, "return type")) return 0;
  if (count && !params) return BAD(m, "params is NULL with count %u", count);
  if (count > 255) return BAD(m, "%u parameters is too many", count);
  uint32_t ops[258];
  ops[0] = 0;
  ops[1] = return_type;
  for (uint32_t i = 0; i < count; i++) {
    if (!need_type(m, __func__, params[i], "parameter type")) return 0;
    ops[2 + i] = params[i];
  }
  return sg_inst(m, __func__, SpvOpTypeFunction, ops, count + 2);
}

uint32_t spvgen_type_opcode(const spvgen_module *m, uint32_t type) {
  return m && is_type(m, type) ? op_of(m, type) : 0;
}

uint32_t spvgen_type_operands(const spvgen_module *m, uint32_t type, uint32_t *out, uint32_t max) {
  if (!m || !is_type(m, type)) return 0;
  const uint32_t *d = sg_def_words(m, type);
  if (!d) return 0;
  uint32_t n = (d[0] >> 16) - 2; /* minus opcode word and result id */
  for (uint32_t i = 0; i < n && i < max && out; i++) out[i] = d[2 + i];
  return n;
}

uint32_t spvgen_type_element(const spvgen_module *m, uint32_t type) {
  if (!m || !is_type(m, type)) return 0;
  const uint32_t *d = sg_def_words(m, type);
  switch (op_of(m, type)) {
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
static bool std430_layout(const spvgen_module *m, uint32_t type, uint64_t *size, uint64_t *align,
                          bool need_stride, bool *overflow) {
  if (!is_type(m, type)) return false;
  const uint32_t *d = sg_def_words(m, type);
  uint64_t s, a, v;
  switch (op_of(m, type)) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat:
    *size = *align = d[2] / 8;
    return *size != 0;
  case SpvOpTypeVector:
    if (!std430_layout(m, d[2], &s, &a, need_stride, overflow)) return false;
    *size = s * d[3];
    *align = a * (d[3] == 3 ? 4 : d[3]);
    return true;
  case SpvOpTypeMatrix: /* columns tightly packed (no MatrixStride: spvgen_type_size only) */
    if (need_stride || !std430_layout(m, d[2], &s, &a, need_stride, overflow)) return false;
    *size = s * d[3];
    *align = a;
    return true;
  case SpvOpTypeArray: {
    if (!spvgen_const_value(m, d[3], &v) || !std430_layout(m, d[2], &s, &a, need_stride, overflow))
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
  if (!m || !std430_layout(m, type, &size, &align, false, &overflow) || size > UINT32_MAX)
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
  uint32_t op = op_of(m, type);
  if (!is_type(m, type) || (op != SpvOpTypeInt && op != SpvOpTypeFloat)) {
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
  if (!sg_ok(m, __func__)) return 0;
  uint32_t w[2], n;
  if (!scalar_bits(m, __func__, type, bits, w, &n)) return 0;
  uint32_t ops[4] = {type, 0, w[0], w[1]};
  return sg_inst(m, __func__, SpvOpConstant, ops, 2 + n);
}

uint32_t spvgen_const_u32(spvgen_module *m, uint32_t value) {
  if (value < 64 && MEMO_OK(m) && m->memo_u32[value]) return m->memo_u32[value];
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
  switch (op_of(m, type)) {
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
  if (!sg_ok(m, __func__) || !need_type(m, __func__, type, "type")) return 0;
  uint32_t op = op_of(m, type);
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
  if (!sg_ok(m, __func__) || !need_type(m, __func__, type, "type")) return 0;
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

bool spvgen_const_value(const spvgen_module *m, uint32_t id, uint64_t *bits) {
  if (!m) return false;
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

/* --------------------------------------------------------------- variables ---- */

uint32_t spvgen_variable(spvgen_module *m, uint32_t pointer_type, SpvStorageClass storage,
                         uint32_t initializer) {
  if (!sg_ok(m, __func__)) return 0;
  const uint32_t *d = sg_def_words(m, pointer_type);
  if (op_of(m, pointer_type) != SpvOpTypePointer || !is_type(m, pointer_type))
    return BAD(m, "type %u is not a pointer type: it is %s", pointer_type, IDN(m, pointer_type));
  if (d[2] != (uint32_t)storage)
    return BAD(m, "pointer type %u (%s) has storage class %u, the variable %u", pointer_type,
               TN(m, pointer_type), d[2], (uint32_t)storage);
  if (initializer && spvgen_type_of(m, initializer) != d[3])
    return BAD(m, "initializer %u is not of the pointee type %u: it is %s, the pointee %s",
               initializer, d[3], IDN(m, initializer), TN(m, d[3]));
  uint32_t ops[4] = {pointer_type, 0, (uint32_t)storage, initializer};
  return sg_inst(m, __func__, SpvOpVariable, ops, initializer ? 4 : 3);
}

uint32_t spvgen_storage_buffer(spvgen_module *m, uint32_t element_type, uint32_t set,
                               uint32_t binding, bool readonly, uint32_t *element_pointer_type) {
  if (element_pointer_type) *element_pointer_type = 0;
  if (!sg_ok(m, __func__) || !need_type(m, __func__, element_type, "element type")) return 0;
  uint64_t size, align;
  bool overflow = false;
  if (!std430_layout(m, element_type, &size, &align, true, &overflow))
    return overflow ? BAD(m, "element type %u (%s) is larger than 2^64 bytes", element_type, TN(m, element_type))
                    : BAD(m, "element type %u (%s) has no explicit layout (use a scalar, a vector, or "
                             "an array from spvgen_type_array_strided of those)", element_type, TN(m, element_type));
  uint64_t stride = (size + align - 1) / align * align; /* std430: round up to the alignment */
  if (size > UINT32_MAX || stride > UINT32_MAX)
    return BAD(m, "element type %u is %llu bytes; a buffer element's ArrayStride is at most "
                  "%u", element_type, (unsigned long long)size, UINT32_MAX);
  const char *outer = sg_api_enter(m, __func__);
  uint32_t rta = spvgen_type_runtime_array_strided(m, element_type, (uint32_t)stride);
  uint32_t st = spvgen_type_struct(m, &rta, 1);
  spvgen_decorate(m, st, SpvDecorationBlock);
  spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
  if (readonly) spvgen_member_decorate(m, st, 0, SpvDecorationNonWritable);
  uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, st);
  uint32_t var = spvgen_variable(m, ptr, SpvStorageClassStorageBuffer, 0);
  spvgen_decorate1(m, var, SpvDecorationDescriptorSet, set);
  spvgen_decorate1(m, var, SpvDecorationBinding, binding);
  uint32_t ep = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, element_type);
  sg_api_leave(m, outer);
  if (m->status != SPVGEN_OK) return 0;
  if (element_pointer_type) *element_pointer_type = ep;
  return var;
}

uint32_t spvgen_builtin_input(spvgen_module *m, SpvBuiltIn builtin, uint32_t type) {
  const char *outer = sg_api_enter(m, __func__);
  uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassInput, type);
  uint32_t var = spvgen_variable(m, ptr, SpvStorageClassInput, 0);
  sg_api_leave(m, outer);
  /* Through sg_inst under this call's name: a built-in Vulkan cannot have is named here. */
  if (var) {
    const uint32_t ops[3] = {var, SpvDecorationBuiltIn, (uint32_t)builtin};
    sg_inst(m, __func__, SpvOpDecorate, ops, 3);
  }
  return m && m->status == SPVGEN_OK ? var : 0;
}

/* ----------------------------------------------------- decorations & names ---- */

/* Decorations whose parameters are all literal integers (Binding, Offset, SpecId,
 * ArrayStride, Block, ...) are checked here and appended directly; the rest take the
 * general path. ops: target [member] decoration args...; dec_at: index of the
 * decoration word. Returns false to fall back. */
static bool decorate_fast(spvgen_module *m, const char *fn, uint32_t opcode, const uint32_t *ops,
                          uint32_t n, uint32_t dec_at) {
  if (!ops[0] || ops[0] >= m->bound) return false;
  const sg_enumerant *e = sg_find_enumerant(SG_KIND_Decoration, ops[dec_at]);
  if (!e || e->params_n != n - dec_at - 1) return false;
  for (uint32_t i = 0; i < e->params_n; i++)
    if (sg_param_pool[e->params_off + i] != SG_KIND_LiteralInteger) return false;
  if (!sg_require_enumerant(m, fn, SG_KIND_Decoration, ops[dec_at])) return true; /* failed */
  return sg_append(m, SG_SEC_ANNOTATIONS, opcode, ops, n) || m->status != SPVGEN_OK;
}

void spvgen_decorate_n(spvgen_module *m, uint32_t target, SpvDecoration decoration,
                       const uint32_t *args, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if (count && !args) {
    BAD(m, "args is NULL with count %u", count);
    return;
  }
  if (count > 16) {
    BAD(m, "%u decoration arguments is too many", count);
    return;
  }
  uint32_t ops[18];
  ops[0] = target;
  ops[1] = (uint32_t)decoration;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = args[i];
  if (!decorate_fast(m, __func__, SpvOpDecorate, ops, 2 + count, 1))
    sg_inst(m, __func__, SpvOpDecorate, ops, 2 + count);
  if (decoration == SpvDecorationNonWritable) sg_mark_nonwritable(m, target);
}

void spvgen_decorate(spvgen_module *m, uint32_t target, SpvDecoration decoration) {
  const char *outer = sg_api_enter(m, __func__);
  spvgen_decorate_n(m, target, decoration, NULL, 0);
  sg_api_leave(m, outer);
}

void spvgen_decorate1(spvgen_module *m, uint32_t target, SpvDecoration decoration, uint32_t value) {
  const char *outer = sg_api_enter(m, __func__);
  spvgen_decorate_n(m, target, decoration, &value, 1);
  sg_api_leave(m, outer);
}

void spvgen_decorate_id(spvgen_module *m, uint32_t target, SpvDecoration decoration,
                        const uint32_t *ids, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if ((count && !ids) || count > 16) {
    BAD(m, "bad id list (count %u)", count);
    return;
  }
  uint32_t ops[18];
  ops[0] = target;
  ops[1] = (uint32_t)decoration;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = ids[i];
  sg_inst(m, __func__, SpvOpDecorateId, ops, 2 + count);
}

static bool check_member(spvgen_module *m, const char *fn, uint32_t struct_type, uint32_t member) {
  if (op_of(m, struct_type) != SpvOpTypeStruct) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "id %u is not a struct type: it is %s", struct_type,
            IDN(m, struct_type));
    return false;
  }
  const uint32_t *d = sg_def_words(m, struct_type);
  if (member >= (d[0] >> 16) - 2) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "struct %u has %u members; member %u does not exist",
            struct_type, (d[0] >> 16) - 2, member);
    return false;
  }
  return true;
}

void spvgen_member_decorate1(spvgen_module *m, uint32_t struct_type, uint32_t member,
                             SpvDecoration decoration, uint32_t value) {
  if (!sg_ok(m, __func__) || !check_member(m, __func__, struct_type, member)) return;
  uint32_t ops[4] = {struct_type, member, (uint32_t)decoration, value};
  if (!decorate_fast(m, __func__, SpvOpMemberDecorate, ops, 4, 2))
    sg_inst(m, __func__, SpvOpMemberDecorate, ops, 4);
}

void spvgen_member_decorate(spvgen_module *m, uint32_t struct_type, uint32_t member,
                            SpvDecoration decoration) {
  if (!sg_ok(m, __func__) || !check_member(m, __func__, struct_type, member)) return;
  uint32_t ops[3] = {struct_type, member, (uint32_t)decoration};
  if (!decorate_fast(m, __func__, SpvOpMemberDecorate, ops, 3, 2))
    sg_inst(m, __func__, SpvOpMemberDecorate, ops, 3);
  if (decoration == SpvDecorationNonWritable) sg_mark_nonwritable(m, struct_type);
}

/* Packs prefix words + a NUL-terminated string into ops (a caller's stack buffer of
 * `cap` words, or a malloc'd one when too small: *heap says which). */
static uint32_t *string_ops(spvgen_module *m, const char *fn, const uint32_t *prefix, uint32_t np,
                            const char *s, uint32_t *stack, uint32_t cap, uint32_t *n, bool *heap) {
  *heap = false;
  if (!s) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "name is NULL");
    return NULL;
  }
  size_t len = strlen(s), nw = len / 4 + 1;
  if (nw > 60000) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "name is too long");
    return NULL;
  }
  uint32_t *ops = stack;
  if (np + nw > cap) {
    ops = malloc((np + nw) * sizeof *ops);
    if (!ops) {
      sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, fn, "out of memory");
      return NULL;
    }
    *heap = true;
  }
  memcpy(ops, prefix, np * sizeof *ops);
  ops[np + nw - 1] = 0; /* the padding of the last word */
  memcpy(ops + np, s, len);
  *n = (uint32_t)(np + nw);
  return ops;
}

void spvgen_name(spvgen_module *m, uint32_t target, const char *name) {
  if (!sg_ok(m, __func__)) return;
  uint32_t stack[32], n;
  bool heap;
  uint32_t *ops = string_ops(m, __func__, &target, 1, name, stack, 32, &n, &heap);
  if (!ops) return;
  sg_inst(m, __func__, SpvOpName, ops, n);
  if (heap) free(ops);
}

void spvgen_member_name(spvgen_module *m, uint32_t struct_type, uint32_t member, const char *name) {
  if (!sg_ok(m, __func__) || !check_member(m, __func__, struct_type, member)) return;
  uint32_t pre[2] = {struct_type, member};
  uint32_t stack[32], n;
  bool heap;
  uint32_t *ops = string_ops(m, __func__, pre, 2, name, stack, 32, &n, &heap);
  if (!ops) return;
  sg_inst(m, __func__, SpvOpMemberName, ops, n);
  if (heap) free(ops);
}

uint32_t spvgen_ext_inst_import(spvgen_module *m, const char *name) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t zero = 0, stack[32], n;
  bool heap;
  uint32_t *ops = string_ops(m, __func__, &zero, 1, name, stack, 32, &n, &heap);
  if (!ops) return 0;
  uint32_t id = sg_inst(m, __func__, SpvOpExtInstImport, ops, n);
  if (heap) free(ops);
  return id;
}

uint32_t spvgen_glsl_std_450(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return 0; /* sticky errors: 0 once the module failed */
  const char *outer = sg_api_enter(m, __func__);
  if (!m->glsl_set) m->glsl_set = spvgen_ext_inst_import(m, "GLSL.std.450");
  sg_api_leave(m, outer);
  return m->glsl_set;
}

/* ---------------------------------------------------------- entry points ---- */

void spvgen_entry_point(spvgen_module *m, SpvExecutionModel model, uint32_t function,
                        const char *name, const uint32_t *interface, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if (!name || !*name) {
    BAD(m, "entry point name is empty");
    return;
  }
  size_t name_len = strlen(name);
  uint64_t words = 3 + (uint64_t)(name_len / 4 + 1) + (count != SPVGEN_ABSENT ? count : 0);
  if (words > SG_INSTRUCTION_WORDS_MAX) {
    BAD(m, "OpEntryPoint would be %llu words (a %zu-byte name, %u interface variables); an "
           "instruction has at most %u words",
        (unsigned long long)words, name_len, count != SPVGEN_ABSENT ? count : 0,
        SG_INSTRUCTION_WORDS_MAX);
    return;
  }
  const sg_id_info *fi = sg_id(m, function);
  if (!fi) {
    BAD(m, "function id %u was never allocated", function);
    return;
  }
  if (count != SPVGEN_ABSENT) {
    if (count && !interface) {
      BAD(m, "interface is NULL with count %u", count);
      return;
    }
    for (uint32_t i = 0; i < count; i++)
      if (!sg_id(m, interface[i]) || m->ids[interface[i]].opcode != SpvOpVariable) {
        BAD(m, "interface id %u is not a global variable", interface[i]);
        return;
      }
  }
  if (fi->kind != SG_ID_FUNCTION && fi->kind != SG_ID_RESERVED) {
    BAD(m, "id %u is not a function", function);
    return;
  }
  for (uint32_t i = 0; i < m->entries_n; i++)
    if (m->entries[i].model == (uint32_t)model && !strcmp(m->strings + m->entries[i].name_off, name)) {
      BAD(m, "an entry point named \"%s\" with execution model %s exists already (SPIR-V "
             "OpEntryPoint: the name and execution model pair must be unique)",
          name, sg_enumerant_name(SG_KIND_ExecutionModel, (uint32_t)model)
                    ? sg_enumerant_name(SG_KIND_ExecutionModel, (uint32_t)model)
                    : "?");
      return;
    }
  if (m->entries_n == m->entries_cap) {
    uint32_t cap = m->entries_cap ? m->entries_cap * 2 : 4;
    sg_entry *e = realloc(m->entries, cap * sizeof *e);
    if (!e) {
      FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
      return;
    }
    m->entries = e;
    m->entries_cap = cap;
  }
  size_t len = strlen(name) + 1;
  if (m->strings_len + len > m->strings_cap) {
    size_t cap = m->strings_cap ? m->strings_cap * 2 : 256;
    while (cap < m->strings_len + len) cap *= 2;
    char *s = realloc(m->strings, cap);
    if (!s) {
      FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
      return;
    }
    m->strings = s;
    m->strings_cap = cap;
  }
  memcpy(m->strings + m->strings_len, name, len);
  sg_entry *e = &m->entries[m->entries_n];
  e->model = (uint32_t)model;
  e->function = function;
  e->name_off = (uint32_t)m->strings_len;
  e->iface_n = count;
  e->iface_off = 0;
  if (count != SPVGEN_ABSENT && count) {
    e->iface_off = (uint32_t)m->arena.len;
    uint32_t *dst = NULL;
    if (m->arena.len + count <= m->arena.cap) {
      dst = m->arena.data + m->arena.len;
      m->arena.len += count;
    } else {
      size_t cap = m->arena.cap ? m->arena.cap * 2 : 256;
      while (cap < m->arena.len + count) cap *= 2;
      uint32_t *d = realloc(m->arena.data, cap * sizeof *d);
      if (!d) {
        FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
        return;
      }
      m->arena.data = d;
      m->arena.cap = cap;
      dst = d + m->arena.len;
      m->arena.len += count;
    }
    memcpy(dst, interface, count * sizeof *dst);
  }
  m->strings_len += len;
  m->entries_n++;
  /* ExecutionModel enumerants carry capabilities (GLCompute -> Shader). */
  const sg_enumerant *en = sg_find_enumerant(SG_KIND_ExecutionModel, (uint32_t)model);
  if (!en) {
    BAD(m, "%u is not an ExecutionModel", (uint32_t)model);
    return;
  }
  if (en->caps_n) sg_require_capability(m, sg_cap_pool[en->caps_off]);
}

void spvgen_execution_mode(spvgen_module *m, uint32_t entry, SpvExecutionMode mode,
                           const uint32_t *args, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if ((count && !args) || count > 16) {
    BAD(m, "bad argument list (count %u)", count);
    return;
  }
  uint32_t ops[18];
  ops[0] = entry;
  ops[1] = (uint32_t)mode;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = args[i];
  sg_inst(m, __func__, SpvOpExecutionMode, ops, 2 + count);
}

void spvgen_execution_mode_id(spvgen_module *m, uint32_t entry, SpvExecutionMode mode,
                              const uint32_t *ids, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if ((count && !ids) || count > 16) {
    BAD(m, "bad id list (count %u)", count);
    return;
  }
  uint32_t ops[18];
  ops[0] = entry;
  ops[1] = (uint32_t)mode;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = ids[i];
  sg_inst(m, __func__, SpvOpExecutionModeId, ops, 2 + count);
}

void spvgen_local_size(spvgen_module *m, uint32_t entry, uint32_t x, uint32_t y, uint32_t z) {
  if (!sg_ok(m, __func__)) return;
  if (!x || !y || !z) {
    BAD(m, "local size %ux%ux%u has a zero dimension", x, y, z);
    return;
  }
  uint32_t args[3] = {x, y, z};
  const char *outer = sg_api_enter(m, __func__);
  spvgen_execution_mode(m, entry, SpvExecutionModeLocalSize, args, 3);
  sg_api_leave(m, outer);
}

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
    if (op_of(m, m->function_return_type) != SpvOpTypeVoid) {
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
  if (m->cf_n == m->cf_cap) {
    uint32_t cap = m->cf_cap ? m->cf_cap * 2 : 8;
    sg_cf_frame *f = realloc(m->cf, cap * sizeof *f);
    if (!f) {
      sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, fn, "out of memory");
      return NULL;
    }
    m->cf = f;
    m->cf_cap = cap;
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
  if (op_of(m, ct) != SpvOpTypeBool) {
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
  if (op_of(m, spvgen_type_of(m, condition)) != SpvOpTypeBool) {
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
  if (m->in_function && op_of(m, m->function_return_type) != SpvOpTypeVoid) {
    STATE(m, "function %u returns a value: use spvgen_return_value", m->current_function);
    return;
  }
  sg_inst(m, __func__, SpvOpReturn, NULL, 0);
}

void spvgen_return_value(spvgen_module *m, uint32_t value) {
  if (!sg_ok(m, __func__)) return;
  if (m->in_function && op_of(m, m->function_return_type) == SpvOpTypeVoid) {
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

uint32_t spvgen_load(spvgen_module *m, uint32_t type, uint32_t pointer) {
  if (!sg_ok(m, __func__)) return 0;
  const uint32_t *pt = sg_def_words(m, spvgen_type_of(m, pointer));
  if (!pt || (pt[0] & 0xFFFF) != SpvOpTypePointer)
    return BAD(m, "id %u is not a pointer: it is %s", pointer, IDN(m, pointer));
  if (pt[3] != type)
    return BAD(m, "pointer %u points to %s, not %s (the type to load)", pointer, TN(m, pt[3]),
               TN(m, type));
  uint32_t ops[3] = {type, 0, pointer};
  return sg_inst(m, __func__, SpvOpLoad, ops, 3);
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
  if (!sg_check_writable(m, __func__, pointer)) return;
  uint32_t ops[2] = {pointer, value};
  sg_inst(m, __func__, SpvOpStore, ops, 2);
}

uint32_t spvgen_access_chain(spvgen_module *m, uint32_t pointer_type, uint32_t base,
                             const uint32_t *indices, uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  if (count > 30 || (count && !indices)) return BAD(m, "bad index list (count %u)", count);
  if (op_of(m, pointer_type) != SpvOpTypePointer || !is_type(m, pointer_type))
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

/* ------------------------------------------------ shared with helpers.c ---- */

bool sg_std430(const spvgen_module *m, uint32_t type, uint64_t *size, uint64_t *align) {
  bool overflow = false;
  return std430_layout(m, type, size, align, true, &overflow) && !overflow;
}
