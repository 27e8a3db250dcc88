/* lib/core/coop.c — the cooperative helpers of spvgen/coop.h that are not specific to
 * tensors or vectors: component types (SPV_KHR_bfloat16, SPV_EXT_float8), interpretations,
 * type queries, memory operands, SPV_KHR_cooperative_matrix (types, load/store, MulAdd,
 * length) and the composite, arithmetic and conversion instructions that take both
 * cooperative matrices and cooperative vectors. The shared checks live here too
 * (coop_internal.h). */
#include <stdio.h>
#include <string.h>

#include "coop_internal.h"

/* ================================================================= queries ==== */

uint32_t sg_coop_def_opcode(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = m ? sg_id(m, id) : NULL;
  return i && i->kind > SG_ID_RESERVED ? i->opcode : 0;
}

bool sg_coop_const_u32(const spvgen_module *m, uint32_t id, uint32_t *value) {
  uint64_t v;
  if (!sg_const_value(m, id, &v)) return false;
  if (value) *value = (uint32_t)v;
  return true;
}

bool sg_coop_is_int_constant(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = sg_id(m, id);
  if (!i || i->kind != SG_ID_VALUE || !(i->flags & (SG_TF_CONSTANT | SG_TF_SPEC_CONSTANT)))
    return false;
  return sg_coop_def_opcode(m, i->type) == SpvOpTypeInt;
}

bool sg_coop_int_type(const spvgen_module *m, uint32_t t, uint32_t *width, bool *is_signed) {
  if (!spvgen_is_type(m, t) || sg_coop_def_opcode(m, t) != SpvOpTypeInt) return false;
  const uint32_t *d = sg_def_words(m, t);
  if (width) *width = d[2];
  if (is_signed) *is_signed = d[3] != 0;
  return true;
}

bool sg_coop_float_type(const spvgen_module *m, uint32_t t, uint32_t *width, uint32_t *encoding) {
  if (!spvgen_is_type(m, t) || sg_coop_def_opcode(m, t) != SpvOpTypeFloat) return false;
  const uint32_t *d = sg_def_words(m, t);
  if (width) *width = d[2];
  if (encoding) *encoding = (d[0] >> 16) > 3 ? d[3] : SPVGEN_ABSENT;
  return true;
}

bool sg_coop_is_int32_value(const spvgen_module *m, uint32_t id) {
  /* sg_coop_int_type(m, spvgen_type_of(m, id), &w, NULL) && w == 32, inline. */
  if (!m) return false;
  uint32_t t = sg_type_of(m, id);
  const sg_id_info *i = sg_id(m, t);
  if (!i || i->kind != SG_ID_TYPE || i->opcode != SpvOpTypeInt) return false;
  const uint32_t *d = sg_def_words(m, t);
  return d[2] == 32;
}

bool sg_coop_function_signature(const spvgen_module *m, uint32_t f, bool *defined, uint32_t *ret,
                             const uint32_t **params, uint32_t *param_count) {
  const sg_id_info *i = sg_id(m, f);
  *defined = false;
  if (!i) return false;
  if (i->kind == SG_ID_RESERVED) return true; /* defined later: checked by the validator */
  if (i->kind != SG_ID_FUNCTION || i->opcode != SpvOpFunction) return false;
  const uint32_t *d = sg_def_words(m, f);
  const uint32_t *ft = d ? sg_def_words(m, d[4]) : NULL;
  if (!ft) return false;
  *defined = true;
  *ret = ft[2];
  *params = ft + 3;
  *param_count = (ft[0] >> 16) - 3;
  return true;
}

const char *sg_coop_use_name(uint32_t use) {
  switch (use) {
  case 0: return "MatrixAKHR";
  case 1: return "MatrixBKHR";
  case 2: return "MatrixAccumulatorKHR";
  case SPVGEN_ABSENT: return "(a specialization constant)";
  default: return "(not a CooperativeMatrixUse)";
  }
}

const char *sg_coop_scope_name(uint32_t scope) {
  switch (scope) {
  case 0: return "CrossDevice";
  case 1: return "Device";
  case 2: return "Workgroup";
  case 3: return "Subgroup";
  case 4: return "Invocation";
  case 5: return "QueueFamily";
  case SPVGEN_ABSENT: return "(a specialization constant)";
  default: return "(not a Scope)";
  }
}

static void dim_text(const spvgen_module *m, uint32_t id, char *buf, size_t size) {
  uint32_t v;
  if (sg_coop_const_u32(m, id, &v))
    snprintf(buf, size, "%u", v);
  else
    snprintf(buf, size, "%%%u", id);
}

const char *sg_coop_type_name(const spvgen_module *m, uint32_t t, char *buf, size_t size) {
  char inner[96], a[16], b[16], c[16];
  if (!spvgen_is_type(m, t)) {
    snprintf(buf, size, "id %u (not a type)", t);
    return buf;
  }
  const uint32_t *d = sg_def_words(m, t);
  uint32_t w, enc, v;
  bool sgn;
  switch (sg_coop_def_opcode(m, t)) {
  case SpvOpTypeInt:
    sg_coop_int_type(m, t, &w, &sgn);
    snprintf(buf, size, "%sint%u", sgn ? "" : "u", w);
    break;
  case SpvOpTypeFloat:
    sg_coop_float_type(m, t, &w, &enc);
    if (enc == SPVGEN_FP_ENCODING_BFLOAT16)
      snprintf(buf, size, "bfloat16");
    else if (enc == SPVGEN_FP_ENCODING_FLOAT8_E4M3)
      snprintf(buf, size, "float8 E4M3");
    else if (enc == SPVGEN_FP_ENCODING_FLOAT8_E5M2)
      snprintf(buf, size, "float8 E5M2");
    else
      snprintf(buf, size, "float%u", w);
    break;
  case SpvOpTypeBool: snprintf(buf, size, "bool"); break;
  case SpvOpTypeVoid: snprintf(buf, size, "void"); break;
  case SpvOpTypeVector:
    snprintf(buf, size, "vector of %u %s", d[3], sg_coop_type_name(m, d[2], inner, sizeof inner));
    break;
  case SpvOpTypeArray:
    dim_text(m, d[3], a, sizeof a);
    snprintf(buf, size, "array of %s %s", a, sg_coop_type_name(m, d[2], inner, sizeof inner));
    break;
  case SpvOpTypeRuntimeArray:
    snprintf(buf, size, "runtime array of %s", sg_coop_type_name(m, d[2], inner, sizeof inner));
    break;
  case SpvOpTypeStruct: snprintf(buf, size, "struct %%%u", t); break;
  case SpvOpTypePointer:
    snprintf(buf, size, "pointer to %s", sg_coop_type_name(m, d[3], inner, sizeof inner));
    break;
  case SpvOpTypeCooperativeMatrixKHR: {
    sg_coop_type_name(m, d[2], inner, sizeof inner);
    dim_text(m, d[4], a, sizeof a);
    dim_text(m, d[5], b, sizeof b);
    const char *scope = sg_coop_const_u32(m, d[3], &v) ? sg_coop_scope_name(v) : "%scope";
    const char *use = sg_coop_const_u32(m, d[6], &v) ? sg_coop_use_name(v) : "%use";
    snprintf(buf, size, "coopmat<%s, %s, %sx%s, %s>", inner, scope, a, b, use);
    break;
  }
  case SpvOpTypeCooperativeVectorNV:
    dim_text(m, d[3], c, sizeof c);
    snprintf(buf, size, "coopvec<%s, %s>", sg_coop_type_name(m, d[2], inner, sizeof inner), c);
    break;
  case SpvOpTypeTensorLayoutNV:
    dim_text(m, d[2], a, sizeof a);
    snprintf(buf, size, "tensor layout (%s dimensions)", a);
    break;
  case SpvOpTypeTensorViewNV:
    dim_text(m, d[2], a, sizeof a);
    snprintf(buf, size, "tensor view (%s dimensions)", a);
    break;
  default: snprintf(buf, size, "type %%%u", t); break;
  }
  return buf;
}

bool spvgen_coop_type_query(const spvgen_module *m, uint32_t type, spvgen_coop_type_info *info) {
  spvgen_coop_type_info z;
  memset(&z, 0, sizeof z);
  if (info) *info = z;
  if (!m || !spvgen_is_type(m, type)) return false;
  const uint32_t *d = sg_def_words(m, type);
  uint32_t op = sg_coop_def_opcode(m, type);
  if (op == SpvOpTypeCooperativeMatrixKHR) {
    z.opcode = op;
    z.component = d[2];
    z.scope_id = d[3];
    z.rows_id = d[4];
    z.columns_id = d[5];
    z.use_id = d[6];
    z.scope = sg_coop_const_or_absent(m, d[3]);
    z.rows = sg_coop_const_or_absent(m, d[4]);
    z.columns = sg_coop_const_or_absent(m, d[5]);
    z.use = sg_coop_const_or_absent(m, d[6]);
    z.count = z.count_id = 0;
  } else if (op == SpvOpTypeCooperativeVectorNV) {
    z.opcode = op;
    z.component = d[2];
    z.count_id = d[3];
    z.count = sg_coop_const_or_absent(m, d[3]);
    z.scope = z.rows = z.columns = z.use = SPVGEN_ABSENT;
  } else {
    return false;
  }
  if (info) *info = z;
  return true;
}

/* spvgen_coop_type_query through the module's memo (the checks below ask about the same
 * few types for every operation). Only successful answers are kept: a type id defined
 * as a cooperative type stays one, with the same operands, until reset. */
_Static_assert(sizeof(spvgen_coop_type_info) == 12 * sizeof(uint32_t), "coop_memo layout");
static bool coop_type_query_memo(spvgen_module *m, uint32_t type, spvgen_coop_type_info *info) {
  if (!m || !type) return spvgen_coop_type_query(m, type, info);
  uint32_t slot = type & 7u;
  if (m->coop_memo[slot].type == type) {
    if (info) memcpy(info, m->coop_memo[slot].info, sizeof *info);
    return true;
  }
  spvgen_coop_type_info z;
  if (!spvgen_coop_type_query(m, type, &z)) {
    if (info) *info = z;
    return false;
  }
  m->coop_memo[slot].type = type;
  memcpy(m->coop_memo[slot].info, &z, sizeof z);
  if (info) *info = z;
  return true;
}
/* From here on, the builder's own calls go through the memo. */
#define spvgen_coop_type_query coop_type_query_memo

/* ============================================================ checked views ==== */

bool sg_coop_need_matrix_type(spvgen_module *m, const char *fn, uint32_t type, const char *what,
                           spvgen_coop_type_info *info) {
  if (spvgen_coop_type_query(m, type, info) && info->opcode == SpvOpTypeCooperativeMatrixKHR)
    return true;
  char t[160];
  COOP_BAD(m, fn, "%s is %s, not a cooperative matrix type (OpTypeCooperativeMatrixKHR)", what,
           sg_coop_type_name(m, type, t, sizeof t));
  return false;
}

bool sg_coop_need_matrix_value(spvgen_module *m, const char *fn, uint32_t value, const char *what,
                            spvgen_coop_type_info *info) {
  uint32_t t = spvgen_type_of(m, value);
  if (t && spvgen_coop_type_query(m, t, info) && info->opcode == SpvOpTypeCooperativeMatrixKHR)
    return true;
  char buf[160];
  if (!t)
    COOP_BAD(m, fn, "%s (id %u) is not a value", what, value);
  else
    COOP_BAD(m, fn, "%s (id %u) has type %s, not a cooperative matrix type", what, value,
             sg_coop_type_name(m, t, buf, sizeof buf));
  return false;
}

bool sg_coop_need_vector_type(spvgen_module *m, const char *fn, uint32_t type, const char *what,
                           spvgen_coop_type_info *info) {
  if (spvgen_coop_type_query(m, type, info) && info->opcode == SpvOpTypeCooperativeVectorNV)
    return true;
  char t[160];
  COOP_BAD(m, fn, "%s is %s, not a cooperative vector type (OpTypeCooperativeVectorNV)", what,
           sg_coop_type_name(m, type, t, sizeof t));
  return false;
}

bool sg_coop_need_vector_value(spvgen_module *m, const char *fn, uint32_t value, const char *what,
                            spvgen_coop_type_info *info) {
  uint32_t t = spvgen_type_of(m, value);
  if (t && spvgen_coop_type_query(m, t, info) && info->opcode == SpvOpTypeCooperativeVectorNV)
    return true;
  char buf[160];
  if (!t)
    COOP_BAD(m, fn, "%s (id %u) is not a value", what, value);
  else
    COOP_BAD(m, fn, "%s (id %u) has type %s, not a cooperative vector type", what, value,
             sg_coop_type_name(m, t, buf, sizeof buf));
  return false;
}

bool sg_coop_need_pointer(spvgen_module *m, const char *fn, uint32_t pointer, const char *what,
                       uint32_t *storage, uint32_t *pointee) {
  uint32_t t = spvgen_type_of(m, pointer);
  if (sg_coop_def_opcode(m, t) != SpvOpTypePointer) {
    char buf[160];
    if (!t)
      COOP_BAD(m, fn, "%s (id %u) is not a value", what, pointer);
    else
      COOP_BAD(m, fn, "%s (id %u) has type %s, not a pointer", what, pointer,
               sg_coop_type_name(m, t, buf, sizeof buf));
    return false;
  }
  const uint32_t *d = sg_def_words(m, t);
  if (storage) *storage = d[2];
  if (pointee) *pointee = d[3];
  return true;
}

bool sg_coop_need_scalar_numeric_type(spvgen_module *m, const char *fn, uint32_t type,
                                   const char *what, const char *rule) {
  uint32_t op = sg_coop_def_opcode(m, type);
  if (spvgen_is_type(m, type) && (op == SpvOpTypeInt || op == SpvOpTypeFloat)) return true;
  char t[160];
  COOP_BAD(m, fn, "%s is %s, not a scalar integer or float type (%s)", what,
           sg_coop_type_name(m, type, t, sizeof t), rule);
  return false;
}

uint32_t sg_coop_offset(spvgen_module *m, const char *fn, uint32_t offset, const char *what,
                     uint32_t align, const char *rule) {
  if (!offset) return spvgen_const_u32(m, 0);
  if (!sg_coop_is_int32_value(m, offset)) {
    char t[160];
    COOP_BAD(m, fn, "%s (id %u) has type %s; it must be a 32-bit integer", what, offset,
             sg_coop_type_name(m, spvgen_type_of(m, offset), t, sizeof t));
    return 0;
  }
  uint32_t v;
  if (align && sg_coop_const_u32(m, offset, &v) && v % align) {
    COOP_BAD(m, fn, "%s %u is not a multiple of %u (%s)", what, v, align, rule);
    return 0;
  }
  return offset;
}

/* ========================================================= memory operands ==== */

bool sg_coop_pack_memory(spvgen_module *m, const char *fn, const spvgen_memory_operands *mem,
                      bool is_load, bool always, uint32_t *ops, uint32_t *n) {
  uint32_t mask = mem ? mem->mask : 0;
  if (!mask) {
    if (always) ops[(*n)++] = 0;
    return true;
  }
  const uint32_t known = SpvMemoryAccessVolatileMask | SpvMemoryAccessAlignedMask |
                         SpvMemoryAccessNontemporalMask | SpvMemoryAccessMakePointerAvailableMask |
                         SpvMemoryAccessMakePointerVisibleMask |
                         SpvMemoryAccessNonPrivatePointerMask;
  if (mask & ~known) {
    COOP_BAD(m, fn, "memory operand bits 0x%x are not supported here (Volatile, Aligned, "
             "Nontemporal, MakePointerAvailable, MakePointerVisible, NonPrivatePointer are)",
             mask & ~known);
    return false;
  }
  if (is_load && (mask & SpvMemoryAccessMakePointerAvailableMask)) {
    COOP_BAD(m, fn, "MakePointerAvailable is not valid on a load (SPIR-V 3.26 Memory Operands, "
             "as amended by SPV_NV_cooperative_matrix2: not valid with OpLoad, "
             "OpCooperativeMatrixLoadKHR or OpCooperativeMatrixLoadTensorNV)");
    return false;
  }
  if (!is_load && (mask & SpvMemoryAccessMakePointerVisibleMask)) {
    COOP_BAD(m, fn, "MakePointerVisible is not valid on a store (SPIR-V 3.26 Memory Operands, "
             "as amended by SPV_NV_cooperative_matrix2: not valid with OpStore, "
             "OpCooperativeMatrixStoreKHR or OpCooperativeMatrixStoreTensorNV)");
    return false;
  }
  if ((mask & (SpvMemoryAccessMakePointerAvailableMask | SpvMemoryAccessMakePointerVisibleMask)) &&
      !(mask & SpvMemoryAccessNonPrivatePointerMask)) {
    COOP_BAD(m, fn, "MakePointerAvailable/MakePointerVisible need NonPrivatePointer set too "
             "(SPIR-V 3.26 Memory Operands)");
    return false;
  }
  ops[(*n)++] = mask;
  if (mask & SpvMemoryAccessAlignedMask) {
    uint32_t a = mem->alignment;
    if (!a || (a & (a - 1))) {
      COOP_BAD(m, fn, "alignment %u is not a power of two (SPIR-V 3.26 Memory Operands: "
               "Aligned takes a power of two)", a);
      return false;
    }
    ops[(*n)++] = a;
  }
  if (mask & (SpvMemoryAccessMakePointerAvailableMask | SpvMemoryAccessMakePointerVisibleMask)) {
    uint32_t s = spvgen_const_u32(m, (uint32_t)mem->scope);
    if (!s) return false;
    ops[(*n)++] = s;
  }
  return true;
}

/* ========================================================= component types ==== */

uint32_t spvgen_type_bfloat16(spvgen_module *m) {
  return spvgen_type_float_encoded(m, 16, SPVGEN_FP_ENCODING_BFLOAT16);
}

uint32_t spvgen_type_float_e4m3(spvgen_module *m) {
  return spvgen_type_float_encoded(m, 8, SPVGEN_FP_ENCODING_FLOAT8_E4M3);
}

uint32_t spvgen_type_float_e5m2(spvgen_module *m) {
  return spvgen_type_float_encoded(m, 8, SPVGEN_FP_ENCODING_FLOAT8_E5M2);
}

const char *spvgen_interpretation_name(SpvComponentType interp) {
  switch (interp) {
  case SpvComponentTypeFloat16NV: return "Float16NV";
  case SpvComponentTypeFloat32NV: return "Float32NV";
  case SpvComponentTypeFloat64NV: return "Float64NV";
  case SpvComponentTypeSignedInt8NV: return "SignedInt8NV";
  case SpvComponentTypeSignedInt16NV: return "SignedInt16NV";
  case SpvComponentTypeSignedInt32NV: return "SignedInt32NV";
  case SpvComponentTypeSignedInt64NV: return "SignedInt64NV";
  case SpvComponentTypeUnsignedInt8NV: return "UnsignedInt8NV";
  case SpvComponentTypeUnsignedInt16NV: return "UnsignedInt16NV";
  case SpvComponentTypeUnsignedInt32NV: return "UnsignedInt32NV";
  case SpvComponentTypeUnsignedInt64NV: return "UnsignedInt64NV";
  case SpvComponentTypeSignedInt8PackedNV: return "SignedInt8PackedNV";
  case SpvComponentTypeUnsignedInt8PackedNV: return "UnsignedInt8PackedNV";
  case SpvComponentTypeFloatE4M3NV: return "FloatE4M3NV";
  case SpvComponentTypeFloatE5M2NV: return "FloatE5M2NV";
  case SpvComponentTypeMax: break;
  }
  return NULL;
}

uint32_t spvgen_interpretation_size(SpvComponentType interp) {
  switch (interp) {
  case SpvComponentTypeFloat16NV:
  case SpvComponentTypeSignedInt16NV:
  case SpvComponentTypeUnsignedInt16NV: return 2;
  case SpvComponentTypeFloat32NV:
  case SpvComponentTypeSignedInt32NV:
  case SpvComponentTypeUnsignedInt32NV: return 4;
  case SpvComponentTypeFloat64NV:
  case SpvComponentTypeSignedInt64NV:
  case SpvComponentTypeUnsignedInt64NV: return 8;
  case SpvComponentTypeSignedInt8NV:
  case SpvComponentTypeUnsignedInt8NV:
  case SpvComponentTypeSignedInt8PackedNV:
  case SpvComponentTypeUnsignedInt8PackedNV:
  case SpvComponentTypeFloatE4M3NV:
  case SpvComponentTypeFloatE5M2NV: return 1;
  case SpvComponentTypeMax: break;
  }
  return 0;
}

uint32_t spvgen_type_for_interpretation(spvgen_module *m, SpvComponentType interp) {
  switch (interp) {
  case SpvComponentTypeFloat16NV: return spvgen_type_float(m, 16);
  case SpvComponentTypeFloat32NV: return spvgen_type_float(m, 32);
  case SpvComponentTypeFloat64NV: return spvgen_type_float(m, 64);
  case SpvComponentTypeSignedInt8NV: return spvgen_type_int(m, 8, true);
  case SpvComponentTypeSignedInt16NV: return spvgen_type_int(m, 16, true);
  case SpvComponentTypeSignedInt32NV: return spvgen_type_int(m, 32, true);
  case SpvComponentTypeSignedInt64NV: return spvgen_type_int(m, 64, true);
  case SpvComponentTypeUnsignedInt8NV: return spvgen_type_int(m, 8, false);
  case SpvComponentTypeUnsignedInt16NV: return spvgen_type_int(m, 16, false);
  case SpvComponentTypeUnsignedInt32NV: return spvgen_type_int(m, 32, false);
  case SpvComponentTypeUnsignedInt64NV: return spvgen_type_int(m, 64, false);
  case SpvComponentTypeSignedInt8PackedNV:
  case SpvComponentTypeUnsignedInt8PackedNV: return spvgen_type_int(m, 32, false);
  case SpvComponentTypeFloatE4M3NV: return spvgen_type_float_e4m3(m);
  case SpvComponentTypeFloatE5M2NV: return spvgen_type_float_e5m2(m);
  case SpvComponentTypeMax: break;
  }
  if (!sg_ok(m, __func__)) return 0;
  return COOP_BAD(m, __func__, "%u is not a ComponentType (an SpvComponentType enumerant)",
                  (uint32_t)interp);
}

/* ============================================ SPV_KHR_cooperative_matrix ==== */

static const char RULE_TYPE[] =
    "SPV_KHR_cooperative_matrix: Scope, Rows, Columns and Use are constant instructions "
    "of scalar integer type";

static bool need_int_constant(spvgen_module *m, const char *fn, uint32_t id, const char *what,
                              const char *rule) {
  if (sg_coop_is_int_constant(m, id)) return true;
  COOP_BAD(m, fn, "%s (id %u) is not an integer constant or specialization constant (%s)", what,
           id, rule);
  return false;
}

static const char RULE_WORKGROUP_SIZE[] =
    "SPV_NV_cooperative_matrix2: if an OpTypeCooperativeMatrixKHR instruction uses a Scope of "
    "Workgroup, then the workgroup size must have already been specified in the module, "
    "including any constant instructions used by LocalSizeId";

/* A Workgroup-scope matrix type and the workgroup size. The module's layout puts every
 * execution mode before the types, so a LocalSize given after the type is still
 * "specified already" in the module, and a missing one is the validator's to report (it
 * checks every entry point). What the call order can get wrong is a LocalSizeId whose
 * constants are defined after the type: refused here when such a LocalSizeId exists. */
static bool workgroup_size_specified(spvgen_module *m, const char *fn) {
  size_t pos = 0;
  for (const uint32_t *w; (w = sg_next_inst(m, SG_SEC_EXECUTION_MODES, SpvOpExecutionModeId, &pos));) {
    uint32_t len = w[0] >> 16;
    if (len < 3 || w[2] != SpvExecutionModeLocalSizeId) continue;
    for (uint32_t k = 3; k < len; k++) {
      const sg_id_info *id = sg_id(m, w[k]);
      if (!id || id->kind <= SG_ID_RESERVED) {
        COOP_BAD(m, fn, "a Workgroup-scope matrix needs the workgroup size first, and the "
                 "LocalSizeId of function %u uses id %u, which is not defined yet (%s)",
                 w[1], w[k], RULE_WORKGROUP_SIZE);
        return false;
      }
    }
  }
  return true;
}

static uint32_t coopmat_type(spvgen_module *m, const char *fn, uint32_t component,
                             uint32_t scope_id, uint32_t rows_id, uint32_t cols_id,
                             uint32_t use_id) {
  if (!sg_coop_need_scalar_numeric_type(m, fn, component, "the component type",
                                     "SPV_KHR_cooperative_matrix: Component Type must be a "
                                     "scalar numerical type"))
    return 0;
  if (!need_int_constant(m, fn, scope_id, "scope", RULE_TYPE) ||
      !need_int_constant(m, fn, rows_id, "rows", RULE_TYPE) ||
      !need_int_constant(m, fn, cols_id, "cols", RULE_TYPE) ||
      !need_int_constant(m, fn, use_id, "use", RULE_TYPE))
    return 0;
  uint32_t scope = sg_coop_const_or_absent(m, scope_id), rows = sg_coop_const_or_absent(m, rows_id),
           cols = sg_coop_const_or_absent(m, cols_id), use = sg_coop_const_or_absent(m, use_id);
  if (scope != SPVGEN_ABSENT && scope != SpvScopeSubgroup && scope != SpvScopeWorkgroup)
    return COOP_BAD(m, fn, "scope %u (%s) is not Subgroup or Workgroup (Vulkan: cooperative "
                    "matrices have Subgroup scope, or Workgroup scope with "
                    "SPV_NV_cooperative_matrix2)", scope, sg_coop_scope_name(scope));
  if (rows == 0 || cols == 0)
    return COOP_BAD(m, fn, "a %ux%u matrix has no elements (Rows and Columns must be at least 1)",
                    rows == SPVGEN_ABSENT ? 0 : rows, cols == SPVGEN_ABSENT ? 0 : cols);
  if (use != SPVGEN_ABSENT && use > SpvCooperativeMatrixUseMatrixAccumulatorKHR)
    return COOP_BAD(m, fn, "use %u is not a CooperativeMatrixUse (MatrixAKHR 0, MatrixBKHR 1, "
                    "MatrixAccumulatorKHR 2)", use);
  if (scope == SpvScopeWorkgroup && !workgroup_size_specified(m, fn)) return 0;
  uint32_t ops[6] = {0, component, scope_id, rows_id, cols_id, use_id};
  uint32_t t = sg_inst(m, fn, SpvOpTypeCooperativeMatrixKHR, ops, 6);
  if (!t) return 0;
  /* What the grammar of these headers cannot infer (SPV_KHR_bfloat16, SPV_EXT_float8:
   * a cooperative matrix of such a component needs its own capability). */
  uint32_t enc = SPVGEN_ABSENT;
  sg_coop_float_type(m, component, NULL, &enc);
  if (enc == SPVGEN_FP_ENCODING_BFLOAT16)
    sg_require_capability(m, SPVGEN_CAPABILITY_BFLOAT16_COOPERATIVE_MATRIX);
  else if (enc == SPVGEN_FP_ENCODING_FLOAT8_E4M3 || enc == SPVGEN_FP_ENCODING_FLOAT8_E5M2)
    sg_require_capability(m, SPVGEN_CAPABILITY_FLOAT8_COOPERATIVE_MATRIX);
  /* Workgroup scope is what SPV_NV_cooperative_matrix2 adds; it has no capability. */
  if (scope == SpvScopeWorkgroup) sg_require_extension_name(m, "SPV_NV_cooperative_matrix2");
  return m->status == SPVGEN_OK ? t : 0;
}

uint32_t spvgen_type_coopmat(spvgen_module *m, uint32_t component, SpvScope scope, uint32_t rows,
                             uint32_t cols, SpvCooperativeMatrixUse use) {
  /* The same arguments give the same (deduplicated) type, its requirements applied. */
  bool memo = (uint32_t)scope < 16 && (uint32_t)use < 16;
  uint32_t tag = SG_MEMO_COOPMAT | (uint32_t)scope << 4 | (uint32_t)use;
  if (memo) {
    uint32_t id = sg_decl_memo_get(m, tag, component, rows, cols);
    if (id) return id;
  }
  if (!sg_ok(m, __func__)) return 0;
  if (rows == 0 || cols == 0)
    return COOP_BAD(m, __func__, "a %ux%u matrix has no elements (Rows and Columns must be at "
                    "least 1)", rows, cols);
  uint32_t s = spvgen_const_u32(m, (uint32_t)scope), r = spvgen_const_u32(m, rows),
           c = spvgen_const_u32(m, cols), u = spvgen_const_u32(m, (uint32_t)use);
  if (m->status != SPVGEN_OK) return 0;
  uint32_t id = coopmat_type(m, __func__, component, s, r, c, u);
  if (memo) sg_decl_memo_put(m, tag, component, rows, cols, id);
  return id;
}

uint32_t spvgen_type_coopmat_id(spvgen_module *m, uint32_t component, uint32_t scope_id,
                                uint32_t rows_id, uint32_t cols_id, uint32_t use_id) {
  if (!sg_ok(m, __func__)) return 0;
  return coopmat_type(m, __func__, component, scope_id, rows_id, cols_id, use_id);
}

static const char RULE_COOPMAT_STORAGE[] =
    "Vulkan (VUID-StandaloneSpirv-OpCooperativeMatrixLoadKHR-08973): the pointer's storage "
    "class is Workgroup, StorageBuffer or PhysicalStorageBuffer";

static bool coopmat_pointer(spvgen_module *m, const char *fn, uint32_t pointer) {
  uint32_t storage, pointee;
  if (!sg_coop_need_pointer(m, fn, pointer, "pointer", &storage, &pointee)) return false;
  if (storage != SpvStorageClassWorkgroup && storage != SpvStorageClassStorageBuffer &&
      storage != SpvStorageClassPhysicalStorageBuffer) {
    COOP_BAD(m, fn, "the pointer's storage class is %u (%s)", storage, RULE_COOPMAT_STORAGE);
    return false;
  }
  uint32_t op = sg_coop_def_opcode(m, pointee);
  uint32_t elem = op == SpvOpTypeVector ? spvgen_type_element(m, pointee) : pointee;
  uint32_t eop = sg_coop_def_opcode(m, elem);
  if (eop != SpvOpTypeInt && eop != SpvOpTypeFloat) {
    char t[160];
    COOP_BAD(m, fn, "the pointer points to %s; it must point to a scalar or vector element, "
             "e.g. an OpAccessChain into the array (SPV_KHR_cooperative_matrix: Pointer's type "
             "is a pointer to a scalar or vector)", sg_coop_type_name(m, pointee, t, sizeof t));
    return false;
  }
  return true;
}

/* id is a value (not a type, label, function...) of a scalar integer type. */
static bool coop_int_value(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = sg_id(m, id);
  return i && i->kind == SG_ID_VALUE && sg_coop_int_type(m, i->type, NULL, NULL);
}

/* Builds the operands of OpCooperativeMatrixLoadKHR/StoreKHR after the pointer/object. */
static bool coopmat_layout_ops(spvgen_module *m, const char *fn, uint32_t layout_id,
                               uint32_t stride, const spvgen_memory_operands *mem, bool is_load,
                               uint32_t *ops, uint32_t *n) {
  if (!need_int_constant(m, fn, layout_id, "layout",
                         "SPV_KHR_cooperative_matrix: MemoryLayout comes from a constant "
                         "instruction"))
    return false;
  uint32_t layout = sg_coop_const_or_absent(m, layout_id);
  bool arm = layout == SpvCooperativeMatrixLayoutRowBlockedInterleavedARM ||
             layout == SpvCooperativeMatrixLayoutColumnBlockedInterleavedARM;
  if (layout != SPVGEN_ABSENT && layout > SpvCooperativeMatrixLayoutColumnMajorKHR && !arm)
    return COOP_BAD(m, fn, "layout %u is not a CooperativeMatrixLayout (RowMajorKHR 0, "
                    "ColumnMajorKHR 1, RowBlockedInterleavedARM 4202, "
                    "ColumnBlockedInterleavedARM 4203)", layout),
           false;
  if (stride && !coop_int_value(m, stride)) {
    char t[224];
    return COOP_BAD(m, fn, "stride_id is %s; expected the id of an integer value (a constant, a "
                    "specialization constant or a computed value; SPV_KHR_cooperative_matrix: "
                    "Stride must be a scalar integer type). A stride known when the kernel is "
                    "built goes to spvgen_coopmat_load / spvgen_coopmat_store as a number",
                    spvgen_id_name(m, stride, t, sizeof t)),
           false;
  }
  if (!stride && layout <= SpvCooperativeMatrixLayoutColumnMajorKHR)
    return COOP_BAD(m, fn, "layout %s needs a stride (SPV_KHR_cooperative_matrix: Stride is "
                    "required for RowMajorKHR and ColumnMajorKHR)",
                    layout == 0 ? "RowMajorKHR" : "ColumnMajorKHR"),
           false;
  if (arm) {
    uint32_t s;
    if (!stride || !sg_coop_const_u32(m, stride, &s) || (s != 1 && s != 2 && s != 4))
      return COOP_BAD(m, fn, "the blocked interleaved layouts need a constant stride of 1, 2 or 4 "
                      "(SPV_ARM_cooperative_matrix_layouts)"),
             false;
    sg_require_capability(m, SpvCapabilityCooperativeMatrixLayoutsARM);
  }
  if (!stride && mem && mem->mask)
    return COOP_BAD(m, fn, "memory operands need the Stride operand before them"), false;
  ops[(*n)++] = layout_id;
  if (stride) ops[(*n)++] = stride;
  return sg_coop_pack_memory(m, fn, mem, is_load, false, ops, n);
}

static uint32_t coopmat_load(spvgen_module *m, const char *fn, uint32_t result_type,
                             uint32_t pointer, uint32_t layout_id, uint32_t stride,
                             const spvgen_memory_operands *mem) {
  spvgen_coop_type_info ti;
  if (!sg_coop_need_matrix_type(m, fn, result_type, "result_type", &ti) ||
      !coopmat_pointer(m, fn, pointer))
    return 0;
  uint32_t ops[12] = {result_type, 0, pointer}, n = 3;
  if (!coopmat_layout_ops(m, fn, layout_id, stride, mem, true, ops, &n)) return 0;
  return sg_inst(m, fn, SpvOpCooperativeMatrixLoadKHR, ops, n);
}

static void coopmat_store(spvgen_module *m, const char *fn, uint32_t pointer, uint32_t object,
                          uint32_t layout_id, uint32_t stride, const spvgen_memory_operands *mem) {
  spvgen_coop_type_info ti;
  if (!coopmat_pointer(m, fn, pointer) || !sg_coop_need_matrix_value(m, fn, object, "object", &ti))
    return;
  uint32_t ops[12] = {pointer, object}, n = 2;
  if (!coopmat_layout_ops(m, fn, layout_id, stride, mem, false, ops, &n)) return;
  sg_inst(m, fn, SpvOpCooperativeMatrixStoreKHR, ops, n);
}

/* The plain calls take the stride as a number of elements (0: no Stride operand) and
 * make the constant; the _stride_id / _id calls take the id. */
uint32_t spvgen_coopmat_load(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                             SpvCooperativeMatrixLayout layout, uint32_t stride,
                             const spvgen_memory_operands *mem) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t l = spvgen_const_u32(m, (uint32_t)layout);
  uint32_t s = stride ? spvgen_const_u32(m, stride) : 0;
  return l && (s || !stride) ? coopmat_load(m, __func__, result_type, pointer, l, s, mem) : 0;
}

uint32_t spvgen_coopmat_load_stride_id(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                                       SpvCooperativeMatrixLayout layout, uint32_t stride_id,
                                       const spvgen_memory_operands *mem) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t l = spvgen_const_u32(m, (uint32_t)layout);
  return l ? coopmat_load(m, __func__, result_type, pointer, l, stride_id, mem) : 0;
}

uint32_t spvgen_coopmat_load_id(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                                uint32_t layout_id, uint32_t stride_id,
                                const spvgen_memory_operands *mem) {
  if (!sg_ok(m, __func__)) return 0;
  return coopmat_load(m, __func__, result_type, pointer, layout_id, stride_id, mem);
}

void spvgen_coopmat_store(spvgen_module *m, uint32_t pointer, uint32_t object,
                          SpvCooperativeMatrixLayout layout, uint32_t stride,
                          const spvgen_memory_operands *mem) {
  if (!sg_ok(m, __func__)) return;
  uint32_t l = spvgen_const_u32(m, (uint32_t)layout);
  uint32_t s = stride ? spvgen_const_u32(m, stride) : 0;
  if (l && (s || !stride)) coopmat_store(m, __func__, pointer, object, l, s, mem);
}

void spvgen_coopmat_store_stride_id(spvgen_module *m, uint32_t pointer, uint32_t object,
                                    SpvCooperativeMatrixLayout layout, uint32_t stride_id,
                                    const spvgen_memory_operands *mem) {
  if (!sg_ok(m, __func__)) return;
  uint32_t l = spvgen_const_u32(m, (uint32_t)layout);
  if (l) coopmat_store(m, __func__, pointer, object, l, stride_id, mem);
}

void spvgen_coopmat_store_id(spvgen_module *m, uint32_t pointer, uint32_t object,
                             uint32_t layout_id, uint32_t stride_id,
                             const spvgen_memory_operands *mem) {
  if (!sg_ok(m, __func__)) return;
  coopmat_store(m, __func__, pointer, object, layout_id, stride_id, mem);
}

static bool int_component(const spvgen_module *m, uint32_t t, bool *is_signed) {
  return sg_coop_int_type(m, t, NULL, is_signed);
}

uint32_t spvgen_coopmat_muladd(spvgen_module *m, uint32_t result_type, uint32_t a, uint32_t b,
                               uint32_t c, uint32_t operands) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info A, B, C, R;
  if (!sg_coop_need_matrix_value(m, fn, a, "a", &A) || !sg_coop_need_matrix_value(m, fn, b, "b", &B) ||
      !sg_coop_need_matrix_value(m, fn, c, "c", &C))
    return 0;
  if (!result_type) result_type = spvgen_type_of(m, c);
  if (!sg_coop_need_matrix_type(m, fn, result_type, "result_type", &R)) return 0;

  static const char RULE_USE[] =
      "SPV_KHR_cooperative_matrix, OpCooperativeMatrixMulAddKHR: A has Use MatrixAKHR, B "
      "MatrixBKHR, C and Result Type MatrixAccumulatorKHR";
  if (sg_coop_differ(A.use, 0))
    return COOP_BAD(m, fn, "a has Use %s, not MatrixAKHR (%s)", sg_coop_use_name(A.use), RULE_USE);
  if (sg_coop_differ(B.use, 1))
    return COOP_BAD(m, fn, "b has Use %s, not MatrixBKHR (%s)", sg_coop_use_name(B.use), RULE_USE);
  if (sg_coop_differ(C.use, 2))
    return COOP_BAD(m, fn, "c has Use %s, not MatrixAccumulatorKHR (%s)", sg_coop_use_name(C.use),
                    RULE_USE);
  if (sg_coop_differ(R.use, 2))
    return COOP_BAD(m, fn, "result_type has Use %s, not MatrixAccumulatorKHR (%s)",
                    sg_coop_use_name(R.use), RULE_USE);

  if (sg_coop_differ(A.scope, B.scope) || sg_coop_differ(A.scope, C.scope) || sg_coop_differ(A.scope, R.scope) ||
      sg_coop_differ(B.scope, C.scope) || sg_coop_differ(B.scope, R.scope) || sg_coop_differ(C.scope, R.scope))
    return COOP_BAD(m, fn, "the scopes differ: a %s, b %s, c %s, result %s "
                    "(SPV_KHR_cooperative_matrix: all matrices of OpCooperativeMatrixMulAddKHR "
                    "have the same scope)", sg_coop_scope_name(A.scope), sg_coop_scope_name(B.scope),
                    sg_coop_scope_name(C.scope), sg_coop_scope_name(R.scope));
  if (sg_coop_differ(A.rows, C.rows) || sg_coop_differ(A.rows, R.rows) || sg_coop_differ(C.rows, R.rows))
    return COOP_BAD(m, fn, "M differs: a has %u rows, c %u, the result %u "
                    "(SPV_KHR_cooperative_matrix: A is MxK, C and Result Type are MxN)", A.rows,
                    C.rows, R.rows);
  if (sg_coop_differ(B.columns, C.columns) || sg_coop_differ(B.columns, R.columns) ||
      sg_coop_differ(C.columns, R.columns))
    return COOP_BAD(m, fn, "N differs: b has %u columns, c %u, the result %u "
                    "(SPV_KHR_cooperative_matrix: B is KxN, C and Result Type are MxN)",
                    B.columns, C.columns, R.columns);
  if (sg_coop_differ(A.columns, B.rows))
    return COOP_BAD(m, fn, "K differs: a has %u columns but b has %u rows "
                    "(SPV_KHR_cooperative_matrix: A is MxK and B is KxN)", A.columns, B.rows);

  bool sa = false, sb = false, sc = false, sr = false;
  bool ia = int_component(m, A.component, &sa), ib = int_component(m, B.component, &sb),
       ic = int_component(m, C.component, &sc), ir = int_component(m, R.component, &sr);
  if (operands & SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES) {
    operands &= ~SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES;
    if (ia && sa) operands |= SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask;
    if (ib && sb) operands |= SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask;
    if (ic && sc) operands |= SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask;
    if (ir && sr) operands |= SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask;
  }
  if (operands & ~0x1Fu)
    return COOP_BAD(m, fn, "operand bits 0x%x are not CooperativeMatrixOperands", operands & ~0x1Fu);
  static const char RULE_SIGN[] =
      "SPV_KHR_cooperative_matrix: the Signed Components operands give the signedness of "
      "integer components and are not used with floating-point matrices";
  char t[96];
  if ((operands & SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask) && !ia)
    return COOP_BAD(m, fn, "MatrixASignedComponentsKHR is set but a's components are %s (%s)",
                    sg_coop_type_name(m, A.component, t, sizeof t), RULE_SIGN);
  if ((operands & SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask) && !ib)
    return COOP_BAD(m, fn, "MatrixBSignedComponentsKHR is set but b's components are %s (%s)",
                    sg_coop_type_name(m, B.component, t, sizeof t), RULE_SIGN);
  if ((operands & SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask) && !ic)
    return COOP_BAD(m, fn, "MatrixCSignedComponentsKHR is set but c's components are %s (%s)",
                    sg_coop_type_name(m, C.component, t, sizeof t), RULE_SIGN);
  if ((operands & SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask) && !ir)
    return COOP_BAD(m, fn, "MatrixResultSignedComponentsKHR is set but the result's components "
                    "are %s (%s)", sg_coop_type_name(m, R.component, t, sizeof t), RULE_SIGN);
  if ((operands & SpvCooperativeMatrixOperandsSaturatingAccumulationKHRMask) && !(ic && ir))
    return COOP_BAD(m, fn, "SaturatingAccumulationKHR needs integer C and result components "
                    "(SPV_KHR_cooperative_matrix: saturating accumulation is an integer "
                    "operation)");

  uint32_t ops[6] = {result_type, 0, a, b, c, operands};
  return sg_inst(m, fn, SpvOpCooperativeMatrixMulAddKHR, ops, operands ? 6 : 5);
}

uint32_t spvgen_coopmat_length(spvgen_module *m, uint32_t type) {
  if (!sg_ok(m, __func__)) return 0;
  spvgen_coop_type_info ti;
  if (!sg_coop_need_matrix_type(m, __func__, type, "type", &ti)) return 0;
  uint32_t ops[3] = {spvgen_type_int(m, 32, false), 0, type};
  return ops[0] ? sg_inst(m, __func__, SpvOpCooperativeMatrixLengthKHR, ops, 3) : 0;
}

/* ======================= operations on both cooperative matrices and vectors ==== */

static bool need_coop_value(spvgen_module *m, const char *fn, uint32_t value, const char *what,
                            spvgen_coop_type_info *info) {
  uint32_t t = spvgen_type_of(m, value);
  if (t && spvgen_coop_type_query(m, t, info)) return true;
  char buf[160];
  if (!t)
    COOP_BAD(m, fn, "%s (id %u) is not a value", what, value);
  else
    COOP_BAD(m, fn, "%s (id %u) has type %s, not a cooperative matrix or vector type", what, value,
             sg_coop_type_name(m, t, buf, sizeof buf));
  return false;
}

static bool need_component_value(spvgen_module *m, const char *fn, uint32_t value,
                                 const char *what, uint32_t component) {
  uint32_t t = spvgen_type_of(m, value);
  if (t == component) return true;
  char a[96], b[96];
  COOP_BAD(m, fn, "%s (id %u) has type %s but the component type is %s", what, value,
           t ? sg_coop_type_name(m, t, a, sizeof a) : "(not a value)",
           sg_coop_type_name(m, component, b, sizeof b));
  return false;
}

uint32_t spvgen_coop_splat(spvgen_module *m, uint32_t type, uint32_t scalar) {
  const char *fn = __func__;
  /* A splat of a constant is a deduplicated constant: the same one for the same ids. */
  uint32_t id = sg_decl_memo_get(m, SG_MEMO_SPLAT, type, scalar, 0);
  if (id) return id;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  if (!spvgen_coop_type_query(m, type, &ti)) {
    char t[160];
    return COOP_BAD(m, fn, "type is %s, not a cooperative matrix or vector type",
                    sg_coop_type_name(m, type, t, sizeof t));
  }
  if (!need_component_value(m, fn, scalar, "scalar", ti.component)) return 0;
  uint32_t count = 1;
  if (ti.opcode == SpvOpTypeCooperativeVectorNV) {
    if (ti.count == SPVGEN_ABSENT)
      return COOP_BAD(m, fn, "the vector's length is a specialization constant; construct it "
                      "from its components");
    count = ti.count;
  }
  if (count > 4096) return COOP_BAD(m, fn, "%u components is too many to splat", count);
  uint32_t ops[2 + 4096];
  ops[0] = type;
  ops[1] = 0;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = scalar;
  const sg_id_info *si = sg_id(m, scalar);
  if (si && (si->flags & SG_TF_CONSTANT)) {
    id = spvgen_const_composite(m, type, ops + 2, count);
    sg_decl_memo_put(m, SG_MEMO_SPLAT, type, scalar, 0, id);
    return id;
  }
  return sg_inst(m, fn, SpvOpCompositeConstruct, ops, count + 2);
}

uint32_t spvgen_coop_construct(spvgen_module *m, uint32_t type, const uint32_t *parts,
                               uint32_t count) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  if (!sg_coop_need_vector_type(m, fn, type, "type", &ti)) return 0;
  if (count && !parts) return COOP_BAD(m, fn, "parts is NULL with count %u", count);
  if (ti.count != SPVGEN_ABSENT && count != ti.count)
    return COOP_BAD(m, fn, "%u parts given for a vector of %u components "
                    "(OpCompositeConstruct: one constituent per component)", count, ti.count);
  if (count > 4096) return COOP_BAD(m, fn, "%u components is too many", count);
  for (uint32_t i = 0; i < count; i++)
    if (!need_component_value(m, fn, parts[i], "a part", ti.component)) return 0;
  uint32_t ops[4098];
  ops[0] = type;
  ops[1] = 0;
  memcpy(ops + 2, parts, count * sizeof *ops);
  return sg_inst(m, fn, SpvOpCompositeConstruct, ops, count + 2);
}

uint32_t spvgen_coop_extract(spvgen_module *m, uint32_t composite, uint32_t index) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  if (!need_coop_value(m, fn, composite, "composite", &ti)) return 0;
  if (ti.opcode == SpvOpTypeCooperativeVectorNV && ti.count != SPVGEN_ABSENT && index >= ti.count)
    return COOP_BAD(m, fn, "index %u is out of range for a vector of %u components", index,
                    ti.count);
  uint32_t ops[4] = {ti.component, 0, composite, index};
  return sg_inst(m, fn, SpvOpCompositeExtract, ops, 4);
}

uint32_t spvgen_coop_insert(spvgen_module *m, uint32_t composite, uint32_t value, uint32_t index) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  if (!need_coop_value(m, fn, composite, "composite", &ti) ||
      !need_component_value(m, fn, value, "value", ti.component))
    return 0;
  if (ti.opcode == SpvOpTypeCooperativeVectorNV && ti.count != SPVGEN_ABSENT && index >= ti.count)
    return COOP_BAD(m, fn, "index %u is out of range for a vector of %u components", index,
                    ti.count);
  uint32_t ops[5] = {spvgen_type_of(m, composite), 0, value, composite, index};
  return sg_inst(m, fn, SpvOpCompositeInsert, ops, 5);
}

static bool op_in(SpvOp op, const SpvOp *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (list[i] == op) return true;
  return false;
}

uint32_t spvgen_coop_arith(spvgen_module *m, SpvOp op, uint32_t a, uint32_t b) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti, tb;
  if (!need_coop_value(m, fn, a, "a", &ti) || !need_coop_value(m, fn, b, "b", &tb)) return 0;
  uint32_t type = spvgen_type_of(m, a);
  if (spvgen_type_of(m, b) != type) {
    char x[160], y[160];
    return COOP_BAD(m, fn, "a has type %s but b has type %s (the operands of component-wise "
                    "arithmetic have one type)", sg_coop_type_name(m, type, x, sizeof x),
                    sg_coop_type_name(m, spvgen_type_of(m, b), y, sizeof y));
  }
  static const SpvOp FLOAT_OPS[] = {SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv};
  static const SpvOp INT_OPS[] = {SpvOpIAdd, SpvOpISub, SpvOpIMul, SpvOpSDiv, SpvOpUDiv};
  static const SpvOp BIT_OPS[] = {SpvOpBitwiseAnd, SpvOpBitwiseOr, SpvOpBitwiseXor,
                                  SpvOpShiftLeftLogical, SpvOpShiftRightLogical,
                                  SpvOpShiftRightArithmetic};
  bool is_float = sg_coop_float_type(m, ti.component, NULL, NULL);
  bool is_vector = ti.opcode == SpvOpTypeCooperativeVectorNV;
  bool ok = is_float ? op_in(op, FLOAT_OPS, 4)
                     : op_in(op, INT_OPS, 5) || (is_vector && op_in(op, BIT_OPS, 6));
  if (!ok) {
    const sg_instruction *ins = sg_find_instruction((uint32_t)op);
    char t[160];
    return COOP_BAD(m, fn, "%s is not a component-wise operation on %s (%s)",
                    ins ? ins->name : "this opcode", sg_coop_type_name(m, type, t, sizeof t),
                    is_vector ? "GLSL_NV_cooperative_vector 5.9: + - * / on all cooperative "
                                "vectors, & | ^ << >> on integer ones"
                              : "SPV_KHR_cooperative_matrix: FAdd FSub FMul FDiv on float "
                                "matrices, IAdd ISub IMul SDiv UDiv on integer ones");
  }
  bool is_signed = false;
  if (op == SpvOpUDiv && sg_coop_int_type(m, ti.component, NULL, &is_signed) && is_signed) {
    char t[160];
    return COOP_BAD(m, fn, "OpUDiv on %s: its result type needs unsigned components (SPIR-V "
                    "OpUDiv; use OpSDiv for signed ones)", sg_coop_type_name(m, type, t, sizeof t));
  }
  uint32_t ops[4] = {type, 0, a, b};
  return sg_inst(m, fn, (uint32_t)op, ops, 4);
}

uint32_t spvgen_coop_negate(spvgen_module *m, uint32_t a) {
  if (!sg_ok(m, __func__)) return 0;
  spvgen_coop_type_info ti;
  if (!need_coop_value(m, __func__, a, "a", &ti)) return 0;
  uint32_t ops[3] = {spvgen_type_of(m, a), 0, a};
  bool is_float = sg_coop_float_type(m, ti.component, NULL, NULL);
  return sg_inst(m, __func__, is_float ? SpvOpFNegate : SpvOpSNegate, ops, 3);
}

uint32_t spvgen_coop_not(spvgen_module *m, uint32_t a) {
  if (!sg_ok(m, __func__)) return 0;
  spvgen_coop_type_info ti;
  if (!sg_coop_need_vector_value(m, __func__, a, "a", &ti)) return 0;
  if (!sg_coop_int_type(m, ti.component, NULL, NULL)) {
    char t[96];
    return COOP_BAD(m, __func__, "~ needs integer components, not %s (GLSL_NV_cooperative_vector "
                    "5.9: bitwise operators on integer cooperative vectors)",
                    sg_coop_type_name(m, ti.component, t, sizeof t));
  }
  uint32_t ops[3] = {spvgen_type_of(m, a), 0, a};
  return sg_inst(m, __func__, SpvOpNot, ops, 3);
}

uint32_t spvgen_coop_scale(spvgen_module *m, uint32_t a, uint32_t scalar) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  if (!need_coop_value(m, fn, a, "a", &ti) ||
      !need_component_value(m, fn, scalar, "scalar", ti.component))
    return 0;
  uint32_t type = spvgen_type_of(m, a);
  uint32_t ops[4] = {type, 0, a, scalar};
  if (ti.opcode == SpvOpTypeCooperativeMatrixKHR)
    return sg_inst(m, fn, SpvOpMatrixTimesScalar, ops, 4);
  if (sg_coop_float_type(m, ti.component, NULL, NULL))
    return sg_inst(m, fn, SpvOpVectorTimesScalar, ops, 4);
  uint32_t s = spvgen_coop_splat(m, type, scalar);
  if (!s) return 0;
  ops[3] = s;
  return sg_inst(m, fn, SpvOpIMul, ops, 4);
}

uint32_t spvgen_coop_convert(spvgen_module *m, uint32_t result_type, uint32_t a) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info src, dst;
  if (!need_coop_value(m, fn, a, "a", &src)) return 0;
  char x[160], y[160];
  if (!spvgen_coop_type_query(m, result_type, &dst) || dst.opcode != src.opcode)
    return COOP_BAD(m, fn, "result_type is %s; a conversion of %s gives a %s of the same shape",
                    sg_coop_type_name(m, result_type, x, sizeof x),
                    sg_coop_type_name(m, spvgen_type_of(m, a), y, sizeof y),
                    src.opcode == SpvOpTypeCooperativeMatrixKHR ? "cooperative matrix"
                                                                : "cooperative vector");
  bool use_change = false;
  if (src.opcode == SpvOpTypeCooperativeMatrixKHR) {
    if (sg_coop_differ(src.scope, dst.scope) || sg_coop_differ(src.rows, dst.rows) ||
        sg_coop_differ(src.columns, dst.columns))
      return COOP_BAD(m, fn, "%s and %s differ in scope or shape (SPV_KHR_cooperative_matrix: "
                      "conversions keep the scope, rows and columns)",
                      sg_coop_type_name(m, spvgen_type_of(m, a), x, sizeof x),
                      sg_coop_type_name(m, result_type, y, sizeof y));
    if (sg_coop_differ(src.use, dst.use)) {
      if (src.use != 2 || dst.use == 2)
        return COOP_BAD(m, fn, "Use changes from %s to %s (SPV_NV_cooperative_matrix2: a "
                        "conversion may only change Use from MatrixAccumulatorKHR to MatrixAKHR "
                        "or MatrixBKHR)", sg_coop_use_name(src.use), sg_coop_use_name(dst.use));
      use_change = true;
    }
  } else if (sg_coop_differ(src.count, dst.count)) {
    return COOP_BAD(m, fn, "the vectors have %u and %u components (GLSL_NV_cooperative_vector: "
                    "conversions are between vectors with the same number of components)",
                    src.count, dst.count);
  }
  uint32_t sw = 0, dw = 0, se = 0, de = 0;
  bool ss = false, ds = false;
  bool sf = sg_coop_float_type(m, src.component, &sw, &se);
  bool df = sg_coop_float_type(m, dst.component, &dw, &de);
  if (!sf) sg_coop_int_type(m, src.component, &sw, &ss);
  if (!df) sg_coop_int_type(m, dst.component, &dw, &ds);
  SpvOp op;
  if (sf && df) {
    if (sw == dw && se == de)
      return COOP_BAD(m, fn, "the component types are both %s: nothing to convert%s",
                      sg_coop_type_name(m, src.component, x, sizeof x),
                      use_change ? " (a Use change alone is spvgen_coopmat_convert_use)" : "");
    op = SpvOpFConvert;
  } else if (sf) {
    op = ds ? SpvOpConvertFToS : SpvOpConvertFToU;
  } else if (df) {
    op = ss ? SpvOpConvertSToF : SpvOpConvertUToF;
  } else if (sw == dw) {
    if (ss == ds)
      return COOP_BAD(m, fn, "the component types are both %s: nothing to convert%s",
                      sg_coop_type_name(m, src.component, x, sizeof x),
                      use_change ? " (a Use change alone is spvgen_coopmat_convert_use)" : "");
    if (use_change)
      return COOP_BAD(m, fn, "a signedness change is an OpBitcast, which cannot change Use "
                      "(SPV_NV_cooperative_matrix2: the restriction on OpBitcast is not relaxed)");
    op = SpvOpBitcast;
  } else if (ss) {
    op = SpvOpSConvert;
  } else if (!ds) {
    op = SpvOpUConvert;
  } else {
    return COOP_BAD(m, fn, "%s to %s: OpUConvert gives unsigned results; convert to uint%u first "
                    "and then bitcast", sg_coop_type_name(m, src.component, x, sizeof x),
                    sg_coop_type_name(m, dst.component, y, sizeof y), dw);
  }
  if (use_change) sg_require_capability(m, SpvCapabilityCooperativeMatrixConversionsNV);
  uint32_t ops[3] = {result_type, 0, a};
  return sg_inst(m, fn, (uint32_t)op, ops, 3);
}

/* ============================================================ float splats ==== */

uint32_t spvgen_coop_splat_float(spvgen_module *m, uint32_t type, double value) {
  const char *fn = __func__;
  uint64_t vb;
  memcpy(&vb, &value, sizeof vb);
  uint32_t id = sg_decl_memo_get(m, SG_MEMO_SPLAT_F, type, (uint32_t)vb, (uint32_t)(vb >> 32));
  if (id) return id;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  char t[192];
  if (!spvgen_coop_type_query(m, type, &ti))
    return COOP_BAD(m, fn, "type is %s; expected a cooperative matrix or vector type",
                    spvgen_id_name(m, type, t, sizeof t));
  if (!sg_coop_float_type(m, ti.component, NULL, NULL))
    return COOP_BAD(m, fn, "the components of %s are not floats (spvgen_coop_splat takes a "
                    "scalar of any component type)", sg_coop_type_name(m, type, t, sizeof t));
  uint32_t s = spvgen_const_float(m, ti.component, value);
  id = s ? spvgen_coop_splat(m, type, s) : 0;
  /* A constant scalar: the splat is a deduplicated constant. */
  sg_decl_memo_put(m, SG_MEMO_SPLAT_F, type, (uint32_t)vb, (uint32_t)(vb >> 32), id);
  return id;
}
