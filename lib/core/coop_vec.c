/* lib/core/coop_vec.c — SPV_NV_cooperative_vector: the vector type, loads and stores,
 * matrix-vector multiplies (with the rules GLSL_NV_cooperative_vector states for them),
 * the training accumulations, and the GLSL.std.450 functions allowed on the vectors. */
#include <stdio.h>
#include <string.h>

#include "coop_internal.h"

/* ================================================================== type ==== */

static uint32_t coopvec_type(spvgen_module *m, const char *fn, uint32_t component,
                             uint32_t count_id) {
  if (!sg_coop_need_scalar_numeric_type(m, fn, component, "the component type",
                                     "SPV_NV_cooperative_vector: Component Type must be a scalar "
                                     "numerical type"))
    return 0;
  if (!sg_coop_is_int_constant(m, count_id))
    return COOP_BAD(m, fn, "count (id %u) is not an integer constant or specialization constant "
                    "(SPV_NV_cooperative_vector: Component Count is a constant instruction of "
                    "integer type)", count_id);
  if (sg_coop_const_or_absent(m, count_id) == 0)
    return COOP_BAD(m, fn, "component count 0 (SPV_NV_cooperative_vector: Component Count must be "
                    "at least 1)");
  uint32_t ops[3] = {0, component, count_id};
  return sg_inst(m, fn, SpvOpTypeCooperativeVectorNV, ops, 3);
}

uint32_t spvgen_type_coopvec(spvgen_module *m, uint32_t component, uint32_t count) {
  uint32_t id = sg_decl_memo_get(m, SG_MEMO_COOPVEC, component, count, 0);
  if (id) return id;
  if (!sg_ok(m, __func__)) return 0;
  if (!count)
    return COOP_BAD(m, __func__, "component count 0 (SPV_NV_cooperative_vector: Component Count "
                    "must be at least 1)");
  uint32_t c = spvgen_const_u32(m, count);
  id = c ? coopvec_type(m, __func__, component, c) : 0;
  sg_decl_memo_put(m, SG_MEMO_COOPVEC, component, count, 0, id);
  return id;
}

uint32_t spvgen_type_coopvec_id(spvgen_module *m, uint32_t component, uint32_t count_id) {
  if (!sg_ok(m, __func__)) return 0;
  return coopvec_type(m, __func__, component, count_id);
}

/* ============================================================== pointers ==== */

/* A pointer to an array of scalars or vectors; buffer_only: StorageBuffer or
 * PhysicalStorageBuffer (the matrix/bias/accumulation operands), else Workgroup too. */
static bool array_pointer(spvgen_module *m, const char *fn, uint32_t pointer, const char *what,
                          bool buffer_only) {
  uint32_t storage, pointee;
  if (!sg_coop_need_pointer(m, fn, pointer, what, &storage, &pointee)) return false;
  bool ok = storage == SpvStorageClassStorageBuffer ||
            storage == SpvStorageClassPhysicalStorageBuffer ||
            (!buffer_only && storage == SpvStorageClassWorkgroup);
  if (!ok)
    return COOP_BAD(m, fn, "%s's storage class is %u (GLSL_NV_cooperative_vector: %s)", what,
                    storage,
                    buffer_only ? "the array must be in buffer storage (StorageBuffer or "
                                  "PhysicalStorageBuffer)"
                                : "the array must be in buffer or shared storage (StorageBuffer, "
                                  "PhysicalStorageBuffer or Workgroup)"),
           false;
  uint32_t op = sg_coop_def_opcode(m, pointee);
  uint32_t elem = (op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray)
                      ? spvgen_type_element(m, pointee) : 0;
  if (sg_coop_def_opcode(m, elem) == SpvOpTypeVector) elem = spvgen_type_element(m, elem);
  uint32_t eop = sg_coop_def_opcode(m, elem);
  if (eop != SpvOpTypeInt && eop != SpvOpTypeFloat) {
    char t[160];
    return COOP_BAD(m, fn, "%s points to %s; it must point to an array of scalars or vectors, "
                    "e.g. the runtime array member of a buffer block (SPV_NV_cooperative_vector: "
                    "Pointer points to an array)", what, sg_coop_type_name(m, pointee, t, sizeof t)),
           false;
  }
  return true;
}

static const char RULE_OFFSET16[] = "GLSL_NV_cooperative_vector: offset must be a multiple of 16";

/* ========================================================== load / store ==== */

uint32_t spvgen_coopvec_load(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                             uint32_t offset, const spvgen_memory_operands *mem) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  if (!sg_coop_need_vector_type(m, fn, result_type, "result_type", &ti) ||
      !array_pointer(m, fn, pointer, "pointer", false))
    return 0;
  uint32_t off = sg_coop_offset(m, fn, offset, "offset", 16, RULE_OFFSET16);
  if (!off) return 0;
  uint32_t ops[8] = {result_type, 0, pointer, off}, n = 4;
  if (!sg_coop_pack_memory(m, fn, mem, true, false, ops, &n)) return 0;
  return sg_inst(m, fn, SpvOpCooperativeVectorLoadNV, ops, n);
}

void spvgen_coopvec_store(spvgen_module *m, uint32_t pointer, uint32_t object, uint32_t offset,
                          const spvgen_memory_operands *mem) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return;
  spvgen_coop_type_info ti;
  if (!array_pointer(m, fn, pointer, "pointer", false) ||
      !sg_coop_need_vector_value(m, fn, object, "object", &ti))
    return;
  uint32_t off = sg_coop_offset(m, fn, offset, "offset", 16, RULE_OFFSET16);
  if (!off) return;
  uint32_t ops[8] = {pointer, off, object}, n = 3;
  if (!sg_coop_pack_memory(m, fn, mem, false, false, ops, &n)) return;
  sg_inst(m, fn, SpvOpCooperativeVectorStoreNV, ops, n);
}

/* ======================================================== interpretations ==== */

static bool interp_packed(uint32_t v) {
  return v == SpvComponentTypeSignedInt8PackedNV || v == SpvComponentTypeUnsignedInt8PackedNV;
}

/* Makes (or checks) the constant id of an interpretation; *value receives it
 * (SPVGEN_ABSENT when a spec constant gives it). */
static uint32_t interp_id(spvgen_module *m, const char *fn, const char *what, uint32_t plain,
                          uint32_t id, bool allow_packed, uint32_t *value) {
  if (id) {
    if (!sg_coop_is_int_constant(m, id) || !sg_coop_is_int32_value(m, id))
      return COOP_BAD(m, fn, "%s_id (id %u) is not a 32-bit integer constant "
                      "(SPV_NV_cooperative_vector: interpretations are 32-bit integer constant "
                      "instructions)", what, id);
    *value = sg_coop_const_or_absent(m, id);
  } else {
    *value = plain;
  }
  if (*value != SPVGEN_ABSENT && !spvgen_interpretation_name((SpvComponentType)*value))
    return COOP_BAD(m, fn, "%s %u is not a ComponentType (an SpvComponentType enumerant)", what,
                    *value);
  if (!allow_packed && interp_packed(*value))
    return COOP_BAD(m, fn, "%s is %s; packed interpretations are for the input only (Vulkan "
                    "VK_NV_cooperative_vector: SINT8_PACKED_NV and UINT8_PACKED_NV are not used "
                    "for members other than inputInterpretation)", what,
                    spvgen_interpretation_name((SpvComponentType)*value));
  return id ? id : spvgen_const_u32(m, plain);
}

static const char RULE_LAYOUT[] =
    "CooperativeVectorMatrixLayout: RowMajorNV 0, ColumnMajorNV 1, InferencingOptimalNV 2, "
    "TrainingOptimalNV 3";

static uint32_t layout_id_of(spvgen_module *m, const char *fn, uint32_t plain, uint32_t id,
                             uint32_t *value) {
  if (id) {
    if (!sg_coop_is_int_constant(m, id) || !sg_coop_is_int32_value(m, id))
      return COOP_BAD(m, fn, "layout_id (id %u) is not a 32-bit integer constant "
                      "(GLSL_NV_cooperative_vector: matrixLayout must be a constant expression)",
                      id);
    *value = sg_coop_const_or_absent(m, id);
  } else {
    *value = plain;
  }
  if (*value != SPVGEN_ABSENT && *value > SpvCooperativeVectorMatrixLayoutTrainingOptimalNV)
    return COOP_BAD(m, fn, "layout %u is not a %s", *value, RULE_LAYOUT);
  return id ? id : spvgen_const_u32(m, plain);
}

static bool layout_is_linear(uint32_t layout) {
  return layout == SpvCooperativeVectorMatrixLayoutRowMajorNV ||
         layout == SpvCooperativeVectorMatrixLayoutColumnMajorNV;
}

static const char RULE_STRIDE[] =
    "GLSL_NV_cooperative_vector: with RowMajorNV or ColumnMajorNV the stride must be a "
    "multiple of 16";

/* The MatrixStride operand: the given id, the given byte count, or for the linear
 * layouts the tight stride (`tight` bytes). 0 with *emit false: none. */
/* A constant stride of a linear layout smaller than a row (column) of `tight` bytes. */
static bool stride_too_small(spvgen_module *m, const char *fn, uint32_t layout, uint32_t stride,
                             uint32_t tight) {
  if (!layout_is_linear(layout) || tight == SPVGEN_ABSENT || stride >= tight) return false;
  COOP_BAD(m, fn, "matrix stride %u bytes is smaller than a %s of %u bytes (GLSL_NV_cooperative_"
           "vector, VK_NV_cooperative_vector: with %s the stride is the distance between %ss, "
           "at least one %s's size; rows would overlap)", stride,
           layout == SpvCooperativeVectorMatrixLayoutRowMajorNV ? "row" : "column", tight,
           layout == SpvCooperativeVectorMatrixLayoutRowMajorNV ? "RowMajorNV" : "ColumnMajorNV",
           layout == SpvCooperativeVectorMatrixLayoutRowMajorNV ? "row" : "column",
           layout == SpvCooperativeVectorMatrixLayoutRowMajorNV ? "row" : "column");
  return true;
}

static bool stride_operand(spvgen_module *m, const char *fn, uint32_t layout, uint32_t plain,
                           uint32_t id, uint32_t tight, uint32_t *out, bool *emit) {
  *emit = false;
  *out = 0;
  if (id) {
    if (!sg_coop_is_int32_value(m, id)) {
      char t[224];
      return COOP_BAD(m, fn, "matrix_stride_id is %s; expected the id of a 32-bit integer value",
                      spvgen_id_name(m, id, t, sizeof t)), false;
    }
    uint32_t v;
    if (layout_is_linear(layout) && sg_coop_const_u32(m, id, &v) && v % 16)
      return COOP_BAD(m, fn, "matrix stride %u is not a multiple of 16 (%s)", v, RULE_STRIDE), false;
    if (sg_coop_const_u32(m, id, &v) && stride_too_small(m, fn, layout, v, tight)) return false;
    *out = id;
    *emit = true;
    return true;
  }
  uint32_t bytes = plain;
  if (!bytes && layout_is_linear(layout)) {
    if (tight == SPVGEN_ABSENT)
      return COOP_BAD(m, fn, "the tight stride is unknown (a dimension is a specialization "
                      "constant): give matrix_stride or matrix_stride_id"), false;
    bytes = tight;
  }
  if (!bytes) return true;
  if (layout_is_linear(layout) && bytes % 16)
    return COOP_BAD(m, fn, "matrix stride %u is not a multiple of 16 (%s)", bytes, RULE_STRIDE),
           false;
  if (stride_too_small(m, fn, layout, bytes, tight)) return false;
  *out = spvgen_const_u32(m, bytes);
  *emit = *out != 0;
  return *emit;
}

/* ================================================================ matmul ==== */

static uint32_t matmul(spvgen_module *m, const char *fn, const spvgen_coopvec_matmul_desc *d,
                       bool with_bias) {
  if (!sg_ok(m, fn)) return 0;
  if (!d) return COOP_BAD(m, fn, "desc is NULL");
  if (with_bias && !d->bias)
    return COOP_BAD(m, fn, "desc->bias is 0 (spvgen_coopvec_matmul multiplies without a bias)");
  if (!with_bias && d->bias)
    return COOP_BAD(m, fn, "desc->bias is set (spvgen_coopvec_matmul_add adds a bias)");
  spvgen_coop_type_info R, I;
  if (!sg_coop_need_vector_type(m, fn, d->result_type, "result_type", &R) ||
      !sg_coop_need_vector_value(m, fn, d->input, "input", &I))
    return 0;
  char t[96];
  uint32_t rw = 0;
  bool r_int = sg_coop_int_type(m, R.component, &rw, NULL);
  bool r_float = sg_coop_float_type(m, R.component, &rw, NULL);
  uint32_t renc = SPVGEN_ABSENT;
  if (r_float) sg_coop_float_type(m, R.component, NULL, &renc);
  if (!((r_int && rw == 32) || (r_float && renc == SPVGEN_ABSENT && (rw == 16 || rw == 32))))
    return COOP_BAD(m, fn, "the result's components are %s (SPV_NV_cooperative_vector: the "
                    "result component type is a 32-bit integer or a 16- or 32-bit float)",
                    sg_coop_type_name(m, R.component, t, sizeof t));

  uint32_t in_interp, mat_interp, bias_interp = SPVGEN_ABSENT;
  uint32_t in_id = interp_id(m, fn, "input_interpretation", d->input_interpretation,
                             d->input_interpretation_id, true, &in_interp);
  if (!in_id) return 0;
  uint32_t mat_id = interp_id(m, fn, "matrix_interpretation", d->matrix_interpretation,
                              d->matrix_interpretation_id, false, &mat_interp);
  if (!mat_id) return 0;
  uint32_t bias_id = 0;
  if (with_bias) {
    bias_id = interp_id(m, fn, "bias_interpretation", d->bias_interpretation,
                        d->bias_interpretation_id, false, &bias_interp);
    if (!bias_id) return 0;
  }
  bool packed = interp_packed(in_interp);
  uint32_t iw = 0;
  if (packed && (!sg_coop_int_type(m, I.component, &iw, NULL) || iw != 32))
    return COOP_BAD(m, fn, "the input's components are %s but %s is a packed interpretation "
                    "(GLSL_NV_cooperative_vector: with a packed inputInterpretation the input "
                    "type must be uint32_t)", sg_coop_type_name(m, I.component, t, sizeof t),
                    spvgen_interpretation_name((SpvComponentType)in_interp));

  /* M and K. */
  uint32_t mv, kv, m_id, k_id;
  if (d->m_id) {
    if (!sg_coop_is_int_constant(m, d->m_id) || !sg_coop_is_int32_value(m, d->m_id))
      return COOP_BAD(m, fn, "m_id (id %u) is not a 32-bit integer constant "
                      "(GLSL_NV_cooperative_vector: M must be a constant expression)", d->m_id);
    m_id = d->m_id;
    mv = sg_coop_const_or_absent(m, m_id);
  } else {
    mv = d->m ? d->m : R.count;
    if (mv == SPVGEN_ABSENT)
      return COOP_BAD(m, fn, "m is 0 and the result's length is a specialization constant: give "
                      "m or m_id");
    m_id = spvgen_const_u32(m, mv);
  }
  if (d->k_id) {
    if (!sg_coop_is_int_constant(m, d->k_id) || !sg_coop_is_int32_value(m, d->k_id))
      return COOP_BAD(m, fn, "k_id (id %u) is not a 32-bit integer constant "
                      "(GLSL_NV_cooperative_vector: K must be a constant expression)", d->k_id);
    k_id = d->k_id;
    kv = sg_coop_const_or_absent(m, k_id);
  } else {
    kv = d->k ? d->k : (I.count == SPVGEN_ABSENT ? SPVGEN_ABSENT : packed ? 4 * I.count : I.count);
    if (kv == SPVGEN_ABSENT)
      return COOP_BAD(m, fn, "k is 0 and the input's length is a specialization constant: give "
                      "k or k_id");
    k_id = spvgen_const_u32(m, kv);
  }
  if (mv == 0 || kv == 0)
    return COOP_BAD(m, fn, "M %u x K %u is empty (both are at least 1)", mv, kv);
  if (mv != SPVGEN_ABSENT && R.count != SPVGEN_ABSENT && mv != R.count)
    return COOP_BAD(m, fn, "the result has %u components but M is %u (SPV_NV_cooperative_vector: "
                    "M must equal the result's component count)", R.count, mv);
  if (kv != SPVGEN_ABSENT && I.count != SPVGEN_ABSENT && in_interp != SPVGEN_ABSENT) {
    if (packed && kv > 4 * I.count)
      return COOP_BAD(m, fn, "K is %u but the input's %u 32-bit components hold only %u packed "
                      "8-bit values (GLSL_NV_cooperative_vector: the input vector must have "
                      "enough components to hold K values of the packed type)", kv, I.count,
                      4 * I.count);
    if (!packed && kv != I.count)
      return COOP_BAD(m, fn, "the input has %u components but K is %u (SPV_NV_cooperative_vector: "
                      "with a non-packed InputInterpretation the input has K components)",
                      I.count, kv);
  }

  /* Layout, transpose, stride. */
  uint32_t layout;
  uint32_t lay_id = layout_id_of(m, fn, (uint32_t)d->layout, d->layout_id, &layout);
  if (!lay_id) return 0;
  uint32_t tr_id, tr = SPVGEN_ABSENT;
  if (d->transpose_id) {
    const sg_id_info *ti = sg_id(m, d->transpose_id);
    if (!ti || !(ti->flags & (SG_TF_CONSTANT | SG_TF_SPEC_CONSTANT)) ||
        sg_coop_def_opcode(m, ti->type) != SpvOpTypeBool)
      return COOP_BAD(m, fn, "transpose_id (id %u) is not a bool constant "
                      "(GLSL_NV_cooperative_vector: transpose must be a constant expression)",
                      d->transpose_id);
    tr_id = d->transpose_id;
    tr = sg_coop_const_or_absent(m, tr_id);
  } else {
    tr = d->transpose ? 1 : 0;
    tr_id = spvgen_const_bool(m, d->transpose);
  }
  if (tr == 1 && layout != SPVGEN_ABSENT && layout_is_linear(layout))
    return COOP_BAD(m, fn, "transpose with the %s layout (GLSL_NV_cooperative_vector: "
                    "transposing is not supported for the RowMajorNV/ColumnMajorNV layouts)",
                    layout == 0 ? "RowMajorNV" : "ColumnMajorNV");
  uint32_t esize = mat_interp == SPVGEN_ABSENT
                       ? 0 : spvgen_interpretation_size((SpvComponentType)mat_interp);
  uint32_t tight = SPVGEN_ABSENT;
  if (esize && layout == SpvCooperativeVectorMatrixLayoutRowMajorNV && kv != SPVGEN_ABSENT)
    tight = kv * esize;
  if (esize && layout == SpvCooperativeVectorMatrixLayoutColumnMajorNV && mv != SPVGEN_ABSENT)
    tight = mv * esize;
  uint32_t stride_id;
  bool emit_stride;
  if (layout == SPVGEN_ABSENT && !d->matrix_stride && !d->matrix_stride_id)
    return COOP_BAD(m, fn, "the layout is a specialization constant: give matrix_stride or "
                    "matrix_stride_id");
  if (!stride_operand(m, fn, layout, d->matrix_stride, d->matrix_stride_id, tight, &stride_id,
                      &emit_stride))
    return 0;

  /* Pointers and offsets. */
  if (!array_pointer(m, fn, d->matrix, "matrix", true)) return 0;
  uint32_t moff = sg_coop_offset(m, fn, d->matrix_offset, "matrix_offset", 64,
                              "GLSL_NV_cooperative_vector: matrixOffset must be 64B aligned");
  if (!moff) return 0;
  uint32_t boff = 0;
  if (with_bias) {
    if (!array_pointer(m, fn, d->bias, "bias", true)) return 0;
    boff = sg_coop_offset(m, fn, d->bias_offset, "bias_offset", 16,
                       "GLSL_NV_cooperative_vector: biasOffset must be 16B aligned");
    if (!boff) return 0;
  }
  if (d->operands & ~0x1Fu)
    return COOP_BAD(m, fn, "operand bits 0x%x are not CooperativeMatrixOperands",
                    d->operands & ~0x1Fu);
  /* operands 0: the signedness of the integer input and result types, as GLSL does; the
   * driver and the validation layers read an integer vector without these bits as
   * unsigned (an s32 input or result otherwise becomes u32). */
  uint32_t operands = d->operands;
  if (!operands) {
    bool sgn = false;
    if (sg_coop_int_type(m, I.component, NULL, &sgn) && sgn)
      operands |= SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask;
    sgn = false;
    if (sg_coop_int_type(m, R.component, NULL, &sgn) && sgn)
      operands |= SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask;
  }
  if (operands && !emit_stride) {
    stride_id = spvgen_const_u32(m, 0); /* positional: the operands follow MatrixStride */
    emit_stride = true;
  }
  if (m->status != SPVGEN_OK) return 0;

  uint32_t ops[20], n = 0;
  ops[n++] = d->result_type;
  ops[n++] = 0;
  ops[n++] = d->input;
  ops[n++] = in_id;
  ops[n++] = d->matrix;
  ops[n++] = moff;
  ops[n++] = mat_id;
  if (with_bias) {
    ops[n++] = d->bias;
    ops[n++] = boff;
    ops[n++] = bias_id;
  }
  ops[n++] = m_id;
  ops[n++] = k_id;
  ops[n++] = lay_id;
  ops[n++] = tr_id;
  if (emit_stride) ops[n++] = stride_id;
  if (operands) ops[n++] = operands;
  return sg_inst(m, fn, with_bias ? SpvOpCooperativeVectorMatrixMulAddNV
                                  : SpvOpCooperativeVectorMatrixMulNV, ops, n);
}

uint32_t spvgen_coopvec_matmul(spvgen_module *m, const spvgen_coopvec_matmul_desc *desc) {
  return matmul(m, __func__, desc, false);
}

uint32_t spvgen_coopvec_matmul_add(spvgen_module *m, const spvgen_coopvec_matmul_desc *desc) {
  return matmul(m, __func__, desc, true);
}

/* ============================================================== training ==== */

void spvgen_coopvec_outer_product_accumulate(spvgen_module *m,
                                             const spvgen_coopvec_outer_product_desc *d) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return;
  if (!d) {
    COOP_BAD(m, fn, "desc is NULL");
    return;
  }
  spvgen_coop_type_info A, B;
  if (!array_pointer(m, fn, d->pointer, "pointer", true) ||
      !sg_coop_need_vector_value(m, fn, d->a, "a", &A) || !sg_coop_need_vector_value(m, fn, d->b, "b", &B))
    return;
  if (A.component != B.component) {
    char x[96], y[96];
    COOP_BAD(m, fn, "a's components are %s but b's are %s (SPV_NV_cooperative_vector: A and B "
             "have the same component type)", sg_coop_type_name(m, A.component, x, sizeof x),
             sg_coop_type_name(m, B.component, y, sizeof y));
    return;
  }
  uint32_t off = sg_coop_offset(m, fn, d->offset, "offset", 16, RULE_OFFSET16);
  if (!off) return;
  uint32_t layout, interp;
  uint32_t lay_id = layout_id_of(m, fn, (uint32_t)d->layout, d->layout_id, &layout);
  if (!lay_id) return;
  uint32_t int_id = interp_id(m, fn, "matrix_interpretation", d->matrix_interpretation,
                              d->matrix_interpretation_id, false, &interp);
  if (!int_id) return;
  if (layout == SPVGEN_ABSENT && !d->matrix_stride && !d->matrix_stride_id) {
    COOP_BAD(m, fn, "the layout is a specialization constant: give matrix_stride or "
             "matrix_stride_id");
    return;
  }
  /* The accumulated matrix is M x N (M = a's length, N = b's). */
  uint32_t esize = interp == SPVGEN_ABSENT ? 0
                                           : spvgen_interpretation_size((SpvComponentType)interp);
  uint32_t tight = SPVGEN_ABSENT;
  if (esize && layout == SpvCooperativeVectorMatrixLayoutRowMajorNV && B.count != SPVGEN_ABSENT)
    tight = B.count * esize;
  if (esize && layout == SpvCooperativeVectorMatrixLayoutColumnMajorNV && A.count != SPVGEN_ABSENT)
    tight = A.count * esize;
  uint32_t stride_id;
  bool emit;
  if (!stride_operand(m, fn, layout, d->matrix_stride, d->matrix_stride_id, tight, &stride_id, &emit))
    return;
  uint32_t ops[7] = {d->pointer, off, d->a, d->b, lay_id, int_id, stride_id};
  sg_inst(m, fn, SpvOpCooperativeVectorOuterProductAccumulateNV, ops, emit ? 7 : 6);
}

void spvgen_coopvec_reduce_sum_accumulate(spvgen_module *m, uint32_t pointer, uint32_t v,
                                          uint32_t offset) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return;
  spvgen_coop_type_info V;
  if (!array_pointer(m, fn, pointer, "pointer", true) ||
      !sg_coop_need_vector_value(m, fn, v, "v", &V))
    return;
  uint32_t off = sg_coop_offset(m, fn, offset, "offset", 16, RULE_OFFSET16);
  if (!off) return;
  uint32_t ops[3] = {pointer, off, v};
  sg_inst(m, fn, SpvOpCooperativeVectorReduceSumAccumulateNV, ops, 3);
}

/* ============================================================ GLSL.std.450 ==== */

enum { KIND_FLOAT_ONLY, KIND_ANY };

static uint32_t vec_math(spvgen_module *m, const char *fn, const char *name, int kind,
                         uint32_t f_inst, uint32_t s_inst, uint32_t u_inst, const uint32_t *args,
                         uint32_t n) {
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  if (!sg_coop_need_vector_value(m, fn, args[0], "the first operand", &ti)) return 0;
  uint32_t type = spvgen_type_of(m, args[0]);
  char x[160], y[160];
  for (uint32_t i = 1; i < n; i++)
    if (spvgen_type_of(m, args[i]) != type) {
      uint32_t ot = spvgen_type_of(m, args[i]);
      return COOP_BAD(m, fn, "operand %u has type %s, operand 1 %s (GLSL_NV_cooperative_vector "
                      "5.9: the operands of %s have one cooperative vector type)", i + 1,
                      ot ? sg_coop_type_name(m, ot, x, sizeof x) : "(not a value)",
                      sg_coop_type_name(m, type, y, sizeof y), name);
    }
  bool is_signed = false;
  uint32_t inst;
  if (sg_coop_float_type(m, ti.component, NULL, NULL)) {
    inst = f_inst;
  } else if (kind == KIND_ANY && sg_coop_int_type(m, ti.component, NULL, &is_signed)) {
    inst = is_signed ? s_inst : u_inst;
  } else {
    return COOP_BAD(m, fn, "%s needs %s components, not %s (GLSL_NV_cooperative_vector 5.9: "
                    "the function must be supported for the component type)", name,
                    kind == KIND_ANY ? "integer or float" : "float",
                    sg_coop_type_name(m, ti.component, x, sizeof x));
  }
  uint32_t set = spvgen_glsl_std_450(m);
  if (!set) return 0;
  uint32_t ops[7] = {type, 0, set, inst};
  for (uint32_t i = 0; i < n; i++) ops[4 + i] = args[i];
  return sg_inst(m, fn, SpvOpExtInst, ops, 4 + n);
}

uint32_t spvgen_coopvec_fma(spvgen_module *m, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t args[3] = {a, b, c};
  return vec_math(m, __func__, "fma", KIND_FLOAT_ONLY, GLSLstd450Fma, 0, 0, args, 3);
}

uint32_t spvgen_coopvec_exp(spvgen_module *m, uint32_t x) {
  return vec_math(m, __func__, "exp", KIND_FLOAT_ONLY, GLSLstd450Exp, 0, 0, &x, 1);
}

uint32_t spvgen_coopvec_log(spvgen_module *m, uint32_t x) {
  return vec_math(m, __func__, "log", KIND_FLOAT_ONLY, GLSLstd450Log, 0, 0, &x, 1);
}

uint32_t spvgen_coopvec_tanh(spvgen_module *m, uint32_t x) {
  return vec_math(m, __func__, "tanh", KIND_FLOAT_ONLY, GLSLstd450Tanh, 0, 0, &x, 1);
}

uint32_t spvgen_coopvec_atan(spvgen_module *m, uint32_t x) {
  return vec_math(m, __func__, "atan", KIND_FLOAT_ONLY, GLSLstd450Atan, 0, 0, &x, 1);
}

uint32_t spvgen_coopvec_min(spvgen_module *m, uint32_t x, uint32_t y) {
  uint32_t args[2] = {x, y};
  return vec_math(m, __func__, "min", KIND_ANY, GLSLstd450FMin, GLSLstd450SMin, GLSLstd450UMin,
                  args, 2);
}

uint32_t spvgen_coopvec_max(spvgen_module *m, uint32_t x, uint32_t y) {
  uint32_t args[2] = {x, y};
  return vec_math(m, __func__, "max", KIND_ANY, GLSLstd450FMax, GLSLstd450SMax, GLSLstd450UMax,
                  args, 2);
}

uint32_t spvgen_coopvec_clamp(spvgen_module *m, uint32_t x, uint32_t lo, uint32_t hi) {
  uint32_t args[3] = {x, lo, hi};
  return vec_math(m, __func__, "clamp", KIND_ANY, GLSLstd450FClamp, GLSLstd450SClamp,
                  GLSLstd450UClamp, args, 3);
}

uint32_t spvgen_coopvec_step(spvgen_module *m, uint32_t edge, uint32_t x) {
  uint32_t args[2] = {edge, x};
  return vec_math(m, __func__, "step", KIND_FLOAT_ONLY, GLSLstd450Step, 0, 0, args, 2);
}
