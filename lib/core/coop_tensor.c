/* lib/core/coop_tensor.c — SPV_NV_cooperative_matrix2 and SPV_NV_tensor_addressing:
 * tensor layout and view types and instructions, the tensor loads and stores with their
 * addressing operands, reductions, per-element operations, Use conversion and
 * transposition, and the function types of the callbacks these take. */
#include <stdio.h>
#include <string.h>

#include "coop_internal.h"

#define MAX_TENSOR_DIM 5u

static const char RULE_DIM[] =
    "SPV_NV_cooperative_matrix2, Tensor Layout and View: tensor layouts and views have 1 to "
    "5 dimensions";

static bool need_int32_constant(spvgen_module *m, const char *fn, uint32_t id, const char *what) {
  uint32_t w;
  const sg_id_info *i = sg_id(m, id);
  if (sg_coop_is_int_constant(m, id) && sg_coop_int_type(m, i->type, &w, NULL) && w == 32) return true;
  COOP_BAD(m, fn, "%s (id %u) is not a 32-bit integer constant or specialization constant "
           "(SPV_NV_tensor_addressing: Dim, ClampMode and the permutation are 32-bit integer "
           "constant instructions)", what, id);
  return false;
}

/* ================================================================== types ==== */

static uint32_t tensor_layout_type(spvgen_module *m, const char *fn, uint32_t dim_id,
                                   uint32_t clamp_id) {
  if (!need_int32_constant(m, fn, dim_id, "dim") || !need_int32_constant(m, fn, clamp_id, "clamp_mode"))
    return 0;
  uint32_t dim = sg_coop_const_or_absent(m, dim_id), clamp = sg_coop_const_or_absent(m, clamp_id);
  if (dim != SPVGEN_ABSENT && (dim < 1 || dim > MAX_TENSOR_DIM))
    return COOP_BAD(m, fn, "tensor dimension %u is outside [1, 5] (%s)", dim, RULE_DIM);
  if (clamp != SPVGEN_ABSENT && clamp > SpvTensorClampModeRepeatMirrored)
    return COOP_BAD(m, fn, "clamp mode %u is not a TensorClampMode (Undefined 0, Constant 1, "
                    "ClampToEdge 2, Repeat 3, RepeatMirrored 4)", clamp);
  uint32_t ops[3] = {0, dim_id, clamp_id};
  return sg_inst(m, fn, SpvOpTypeTensorLayoutNV, ops, 3);
}

uint32_t spvgen_type_tensor_layout(spvgen_module *m, uint32_t dim, SpvTensorClampMode clamp_mode) {
  /* The same arguments give the same (deduplicated) type, its requirements applied. */
  uint32_t id = sg_decl_memo_get(m, SG_MEMO_TENSOR_LAYOUT, dim, (uint32_t)clamp_mode, 0);
  if (id) return id;
  if (!sg_ok(m, __func__)) return 0;
  if (dim < 1 || dim > MAX_TENSOR_DIM)
    return COOP_BAD(m, __func__, "tensor dimension %u is outside [1, 5] (%s)", dim, RULE_DIM);
  uint32_t d = spvgen_const_u32(m, dim), c = spvgen_const_u32(m, (uint32_t)clamp_mode);
  id = d && c ? tensor_layout_type(m, __func__, d, c) : 0;
  sg_decl_memo_put(m, SG_MEMO_TENSOR_LAYOUT, dim, (uint32_t)clamp_mode, 0, id);
  return id;
}

uint32_t spvgen_type_tensor_layout_id(spvgen_module *m, uint32_t dim_id, uint32_t clamp_mode_id) {
  if (!sg_ok(m, __func__)) return 0;
  return tensor_layout_type(m, __func__, dim_id, clamp_mode_id);
}

static uint32_t tensor_view_type(spvgen_module *m, const char *fn, uint32_t dim_id,
                                 uint32_t has_dim_id, const uint32_t *perm, uint32_t n) {
  if (!need_int32_constant(m, fn, dim_id, "dim")) return 0;
  const sg_id_info *hi = sg_id(m, has_dim_id);
  if (!hi || !(hi->flags & (SG_TF_CONSTANT | SG_TF_SPEC_CONSTANT)) ||
      sg_coop_def_opcode(m, hi->type) != SpvOpTypeBool)
    return COOP_BAD(m, fn, "has_dimensions (id %u) is not a bool constant "
                    "(SPV_NV_tensor_addressing: HasDimensions is a boolean constant)", has_dim_id);
  uint32_t dim = sg_coop_const_or_absent(m, dim_id);
  if (dim != SPVGEN_ABSENT && (dim < 1 || dim > MAX_TENSOR_DIM))
    return COOP_BAD(m, fn, "tensor dimension %u is outside [1, 5] (%s)", dim, RULE_DIM);
  if (n && !perm) return COOP_BAD(m, fn, "the permutation is NULL with count %u", n);
  if (dim != SPVGEN_ABSENT && n != dim)
    return COOP_BAD(m, fn, "%u permutation values for %u dimensions (SPV_NV_tensor_addressing: "
                    "one permutation value p<i> per dimension)", n, dim);
  if (n > MAX_TENSOR_DIM)
    return COOP_BAD(m, fn, "%u permutation values: at most 5 (%s)", n, RULE_DIM);
  uint32_t seen = 0;
  bool all_known = true;
  char list[64] = "";
  for (uint32_t i = 0; i < n; i++) {
    if (!need_int32_constant(m, fn, perm[i], "a permutation value")) return 0;
    uint32_t p = sg_coop_const_or_absent(m, perm[i]);
    size_t len = strlen(list);
    if (p == SPVGEN_ABSENT) {
      all_known = false;
      snprintf(list + len, sizeof list - len, "%s?", i ? ", " : "");
    } else {
      snprintf(list + len, sizeof list - len, "%s%u", i ? ", " : "", p);
      if (p < 32) seen |= 1u << p;
      if (p >= n) seen |= 1u << 31; /* out of range: never a permutation */
    }
  }
  if (all_known && seen != (n == 32 ? ~0u : (1u << n) - 1u))
    return COOP_BAD(m, fn, "the permutation {%s} is not a permutation of 0..%u "
                    "(SPV_NV_tensor_addressing: p0..p<Dim-1> hold every dimension once)", list,
                    n - 1);
  uint32_t ops[3 + MAX_TENSOR_DIM] = {0, dim_id, has_dim_id};
  for (uint32_t i = 0; i < n; i++) ops[3 + i] = perm[i];
  return sg_inst(m, fn, SpvOpTypeTensorViewNV, ops, 3 + n);
}

uint32_t spvgen_type_tensor_view(spvgen_module *m, uint32_t dim, bool has_dimensions,
                                 const uint32_t *permutation) {
  if (!sg_ok(m, __func__)) return 0;
  if (dim < 1 || dim > MAX_TENSOR_DIM)
    return COOP_BAD(m, __func__, "tensor dimension %u is outside [1, 5] (%s)", dim, RULE_DIM);
  uint32_t ids[MAX_TENSOR_DIM];
  for (uint32_t i = 0; i < dim; i++) ids[i] = spvgen_const_u32(m, permutation ? permutation[i] : i);
  uint32_t d = spvgen_const_u32(m, dim), h = spvgen_const_bool(m, has_dimensions);
  if (m->status != SPVGEN_OK) return 0;
  return tensor_view_type(m, __func__, d, h, ids, dim);
}

uint32_t spvgen_type_tensor_view_id(spvgen_module *m, uint32_t dim_id, uint32_t has_dimensions_id,
                                    const uint32_t *permutation_ids, uint32_t permutation_count) {
  if (!sg_ok(m, __func__)) return 0;
  return tensor_view_type(m, __func__, dim_id, has_dimensions_id, permutation_ids,
                          permutation_count);
}

/* ======================================================= layout/view ops ==== */

enum { COUNT_DIM, COUNT_DIM_X2, COUNT_ONE, COUNT_FOUR };

/* obj: a tensor layout (view == false) or view value. Returns its type and dimension
 * (SPVGEN_ABSENT for a spec constant). */
static uint32_t tensor_object(spvgen_module *m, const char *fn, uint32_t obj, bool view,
                              uint32_t *dim) {
  uint32_t t = spvgen_type_of(m, obj);
  uint32_t want = view ? SpvOpTypeTensorViewNV : SpvOpTypeTensorLayoutNV;
  if (!t || sg_coop_def_opcode(m, t) != want) {
    char buf[160];
    return COOP_BAD(m, fn, "%s (id %u) is %s, not a tensor %s value (spvgen_tensor_%s_create)",
                    view ? "view" : "layout", obj,
                    t ? sg_coop_type_name(m, t, buf, sizeof buf) : "not a value",
                    view ? "view" : "layout", view ? "view" : "layout");
  }
  *dim = sg_coop_const_or_absent(m, sg_def_words(m, t)[2]);
  return t;
}

static uint32_t tensor_op(spvgen_module *m, const char *fn, uint32_t opcode, bool view,
                          uint32_t obj, const uint32_t *vals, uint32_t n, int count_kind) {
  if (!sg_ok(m, fn)) return 0;
  uint32_t dim;
  uint32_t t = tensor_object(m, fn, obj, view, &dim);
  if (!t) return 0;
  if (n && !vals) return COOP_BAD(m, fn, "the values are NULL with count %u", n);
  if (dim != SPVGEN_ABSENT && (count_kind == COUNT_DIM || count_kind == COUNT_DIM_X2)) {
    uint32_t want = count_kind == COUNT_DIM ? dim : 2 * dim;
    uint32_t given = count_kind == COUNT_DIM ? n : n / 2;
    const sg_instruction *ins = n != want ? sg_find_instruction(opcode) : NULL; /* the message's */
    if (n != want)
      return COOP_BAD(m, fn, "%u %s given for a tensor %s of %u dimensions "
                      "(SPV_NV_tensor_addressing: %s takes %s per dimension)", given,
                      count_kind == COUNT_DIM ? (given == 1 ? "value" : "values")
                                              : (given == 1 ? "offset/span pair" : "offset/span pairs"),
                      view ? "view" : "layout", dim, ins ? ins->name : "it",
                      count_kind == COUNT_DIM ? "one value" : "an offset and a span");
  }
  if (n > 2 * MAX_TENSOR_DIM) return COOP_BAD(m, fn, "%u values is too many", n);
  for (uint32_t i = 0; i < n; i++)
    if (!sg_coop_is_int32_value(m, vals[i])) {
      char buf[160];
      uint32_t vt = spvgen_type_of(m, vals[i]);
      return COOP_BAD(m, fn, "value %u (id %u) is %s; tensor %s values are 32-bit integers "
                      "(SPV_NV_tensor_addressing)", i, vals[i],
                      vt ? sg_coop_type_name(m, vt, buf, sizeof buf) : "not a value",
                      view ? "view" : "layout");
    }
  uint32_t ops[3 + 2 * MAX_TENSOR_DIM] = {t, 0, obj};
  for (uint32_t i = 0; i < n; i++) ops[3 + i] = vals[i];
  return sg_inst(m, fn, opcode, ops, 3 + n);
}

uint32_t spvgen_tensor_layout_create(spvgen_module *m, uint32_t layout_type) {
  if (!sg_ok(m, __func__)) return 0;
  if (sg_coop_def_opcode(m, layout_type) != SpvOpTypeTensorLayoutNV || !spvgen_is_type(m, layout_type)) {
    char t[160];
    return COOP_BAD(m, __func__, "layout_type is %s, not a tensor layout type "
                    "(spvgen_type_tensor_layout)", sg_coop_type_name(m, layout_type, t, sizeof t));
  }
  uint32_t ops[2] = {layout_type, 0};
  return sg_inst(m, __func__, SpvOpCreateTensorLayoutNV, ops, 2);
}

uint32_t spvgen_tensor_view_create(spvgen_module *m, uint32_t view_type) {
  if (!sg_ok(m, __func__)) return 0;
  if (sg_coop_def_opcode(m, view_type) != SpvOpTypeTensorViewNV || !spvgen_is_type(m, view_type)) {
    char t[160];
    return COOP_BAD(m, __func__, "view_type is %s, not a tensor view type "
                    "(spvgen_type_tensor_view)", sg_coop_type_name(m, view_type, t, sizeof t));
  }
  uint32_t ops[2] = {view_type, 0};
  return sg_inst(m, __func__, SpvOpCreateTensorViewNV, ops, 2);
}

uint32_t spvgen_tensor_layout_set_dimension(spvgen_module *m, uint32_t layout, const uint32_t *dims,
                                            uint32_t count) {
  return tensor_op(m, __func__, SpvOpTensorLayoutSetDimensionNV, false, layout, dims, count,
                   COUNT_DIM);
}

uint32_t spvgen_tensor_layout_set_stride(spvgen_module *m, uint32_t layout, const uint32_t *strides,
                                         uint32_t count) {
  return tensor_op(m, __func__, SpvOpTensorLayoutSetStrideNV, false, layout, strides, count,
                   COUNT_DIM);
}

uint32_t spvgen_tensor_layout_slice(spvgen_module *m, uint32_t layout, const uint32_t *offsets,
                                    const uint32_t *spans, uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  if (count && (!offsets || !spans))
    return COOP_BAD(m, __func__, "offsets or spans is NULL with count %u", count);
  if (count > MAX_TENSOR_DIM) return COOP_BAD(m, __func__, "%u dimensions is too many", count);
  uint32_t vals[2 * MAX_TENSOR_DIM];
  for (uint32_t i = 0; i < count; i++) {
    vals[2 * i] = offsets[i];
    vals[2 * i + 1] = spans[i];
  }
  return tensor_op(m, __func__, SpvOpTensorLayoutSliceNV, false, layout, vals, 2 * count,
                   COUNT_DIM_X2);
}

uint32_t spvgen_tensor_layout_set_clamp_value(spvgen_module *m, uint32_t layout, uint32_t value) {
  return tensor_op(m, __func__, SpvOpTensorLayoutSetClampValueNV, false, layout, &value, 1,
                   COUNT_ONE);
}

uint32_t spvgen_tensor_layout_set_block_size(spvgen_module *m, uint32_t layout,
                                             const uint32_t *block_sizes, uint32_t count) {
  return tensor_op(m, __func__, SpvOpTensorLayoutSetBlockSizeNV, false, layout, block_sizes,
                   count, COUNT_DIM);
}

uint32_t spvgen_tensor_view_set_dimension(spvgen_module *m, uint32_t view, const uint32_t *dims,
                                          uint32_t count) {
  return tensor_op(m, __func__, SpvOpTensorViewSetDimensionNV, true, view, dims, count, COUNT_DIM);
}

uint32_t spvgen_tensor_view_set_stride(spvgen_module *m, uint32_t view, const uint32_t *strides,
                                       uint32_t count) {
  return tensor_op(m, __func__, SpvOpTensorViewSetStrideNV, true, view, strides, count, COUNT_DIM);
}

uint32_t spvgen_tensor_view_set_clip(spvgen_module *m, uint32_t view, uint32_t row_offset,
                                     uint32_t row_span, uint32_t col_offset, uint32_t col_span) {
  uint32_t vals[4] = {row_offset, row_span, col_offset, col_span};
  return tensor_op(m, __func__, SpvOpTensorViewSetClipNV, true, view, vals, 4, COUNT_FOUR);
}

/* ====================================================== tensor load/store ==== */

static bool array_of_u32(const spvgen_module *m, uint32_t t, uint32_t *length) {
  if (sg_coop_def_opcode(m, t) != SpvOpTypeArray) return false;
  const uint32_t *d = sg_def_words(m, t);
  uint32_t w;
  if (!sg_coop_int_type(m, d[2], &w, NULL) || w != 32) return false;
  *length = sg_coop_const_or_absent(m, d[3]);
  return true;
}

static const char RULE_DECODE[] =
    "SPV_NV_cooperative_matrix2: DecodeFunc returns the matrix's component type and takes "
    "a PhysicalStorageBuffer pointer and two arrays of 32-bit integers with the tensor's "
    "dimension";

static bool check_decode_func(spvgen_module *m, const char *fn, uint32_t f, uint32_t component,
                              uint32_t layout_dim) {
  bool defined;
  uint32_t ret = 0, np = 0;
  const uint32_t *p = NULL;
  if (!sg_coop_function_signature(m, f, &defined, &ret, &p, &np))
    return COOP_BAD(m, fn, "decode_func (id %u) is not a function", f), false;
  if (!defined) return true;
  char a[96], b[96];
  if (ret != component)
    return COOP_BAD(m, fn, "decode_func returns %s but the matrix's components are %s (%s)",
                    sg_coop_type_name(m, ret, a, sizeof a), sg_coop_type_name(m, component, b, sizeof b),
                    RULE_DECODE),
           false;
  if (np != 3) return COOP_BAD(m, fn, "decode_func has %u parameters, not 3 (%s)", np, RULE_DECODE), false;
  const uint32_t *pd = sg_coop_def_opcode(m, p[0]) == SpvOpTypePointer ? sg_def_words(m, p[0]) : NULL;
  if (!pd || pd[2] != SpvStorageClassPhysicalStorageBuffer)
    return COOP_BAD(m, fn, "decode_func's first parameter is %s, not a PhysicalStorageBuffer "
                    "pointer (%s)", sg_coop_type_name(m, p[0], a, sizeof a), RULE_DECODE),
           false;
  for (uint32_t i = 1; i < 3; i++) {
    uint32_t len;
    if (!array_of_u32(m, p[i], &len) ||
        (len != SPVGEN_ABSENT && layout_dim != SPVGEN_ABSENT && len != layout_dim))
      return COOP_BAD(m, fn, "decode_func's parameter %u is %s; the tensor layout has %u "
                      "dimensions (%s)", i + 1, sg_coop_type_name(m, p[i], a, sizeof a),
                      layout_dim, RULE_DECODE),
             false;
  }
  return true;
}

static const char RULE_TENSOR_STORAGE[] =
    "Vulkan (VUID-StandaloneSpirv-OpCooperativeMatrixLoadKHR-08973): the pointer's storage "
    "class is Workgroup, StorageBuffer or PhysicalStorageBuffer";

static bool tensor_ops(spvgen_module *m, const char *fn, bool is_load, uint32_t pointer,
                       uint32_t tensor_layout, uint32_t component, const spvgen_memory_operands *mem,
                       const spvgen_tensor_operands *tensor, uint32_t *ops, uint32_t *n) {
  uint32_t storage, dim;
  if (!sg_coop_need_pointer(m, fn, pointer, "pointer", &storage, NULL)) return false;
  if (storage != SpvStorageClassWorkgroup && storage != SpvStorageClassStorageBuffer &&
      storage != SpvStorageClassPhysicalStorageBuffer)
    return COOP_BAD(m, fn, "the pointer's storage class is %u (%s)", storage, RULE_TENSOR_STORAGE),
           false;
  if (!tensor_object(m, fn, tensor_layout, false, &dim)) return false;
  uint32_t view = tensor ? tensor->tensor_view : 0, decode = tensor ? tensor->decode_func : 0;
  uint32_t vdim;
  if (view && !tensor_object(m, fn, view, true, &vdim)) return false;
  if (decode) {
    if (!is_load)
      return COOP_BAD(m, fn, "DecodeFunc is not allowed with OpCooperativeMatrixStoreTensorNV "
                      "(SPV_NV_cooperative_matrix2)"),
             false;
    if (storage == SpvStorageClassWorkgroup)
      return COOP_BAD(m, fn, "with a DecodeFunc the pointer must be StorageBuffer or "
                      "PhysicalStorageBuffer, not Workgroup (SPV_NV_cooperative_matrix2, "
                      "OpCooperativeMatrixLoadTensorNV)"),
             false;
    if (!check_decode_func(m, fn, decode, component, dim)) return false;
  }
  ops[(*n)++] = tensor_layout;
  if (!sg_coop_pack_memory(m, fn, mem, is_load, true, ops, n)) return false;
  ops[(*n)++] = (view ? SpvTensorAddressingOperandsTensorViewMask : 0) |
                (decode ? SpvTensorAddressingOperandsDecodeFuncMask : 0);
  if (view) ops[(*n)++] = view;
  if (decode) ops[(*n)++] = decode;
  return true;
}

uint32_t spvgen_coopmat_load_tensor(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                                    uint32_t object, uint32_t tensor_layout,
                                    const spvgen_memory_operands *mem,
                                    const spvgen_tensor_operands *tensor) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info ti;
  if (!sg_coop_need_matrix_type(m, fn, result_type, "result_type", &ti)) return 0;
  if (!object) {
    object = spvgen_const_null(m, result_type);
    if (!object) return 0;
  } else if (spvgen_type_of(m, object) != result_type) {
    char a[160], b[160];
    uint32_t ot = spvgen_type_of(m, object);
    return COOP_BAD(m, fn, "object has type %s, not the result type %s "
                    "(SPV_NV_cooperative_matrix2: Object must have the same type as Result Type)",
                    ot ? sg_coop_type_name(m, ot, a, sizeof a) : "(not a value)",
                    sg_coop_type_name(m, result_type, b, sizeof b));
  }
  uint32_t ops[16] = {result_type, 0, pointer, object}, n = 4;
  if (!tensor_ops(m, fn, true, pointer, tensor_layout, ti.component, mem, tensor, ops, &n)) return 0;
  return sg_inst(m, fn, SpvOpCooperativeMatrixLoadTensorNV, ops, n);
}

void spvgen_coopmat_store_tensor(spvgen_module *m, uint32_t pointer, uint32_t object,
                                 uint32_t tensor_layout, const spvgen_memory_operands *mem,
                                 const spvgen_tensor_operands *tensor) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return;
  spvgen_coop_type_info ti;
  if (!sg_coop_need_matrix_value(m, fn, object, "object", &ti)) return;
  uint32_t ops[16] = {pointer, object}, n = 2;
  if (!tensor_ops(m, fn, false, pointer, tensor_layout, ti.component, mem, tensor, ops, &n)) return;
  sg_inst(m, fn, SpvOpCooperativeMatrixStoreTensorNV, ops, n);
}

/* ================================================================ reduce ==== */

uint32_t spvgen_coopmat_reduce(spvgen_module *m, uint32_t result_type, uint32_t matrix,
                               uint32_t reduce, uint32_t combine_func) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info R, M;
  if (!sg_coop_need_matrix_type(m, fn, result_type, "result_type", &R) ||
      !sg_coop_need_matrix_value(m, fn, matrix, "matrix", &M))
    return 0;
  const uint32_t row = SpvCooperativeMatrixReduceRowMask, col = SpvCooperativeMatrixReduceColumnMask,
                 quad = SpvCooperativeMatrixReduce2x2Mask;
  if (!reduce || (reduce & ~(row | col | quad)))
    return COOP_BAD(m, fn, "reduce 0x%x is not a combination of Row (0x1), Column (0x2) and "
                    "2x2 (0x4)", reduce);
  if ((reduce & quad) && (reduce & (row | col)))
    return COOP_BAD(m, fn, "2x2 is combined with Row or Column (SPV_NV_cooperative_matrix2, "
                    "Cooperative Matrix Reduce Mode: it is invalid to combine 2x2 with Row or "
                    "Column)");
  char a[96], b[96];
  if (R.component != M.component)
    return COOP_BAD(m, fn, "the result's components are %s but the matrix's are %s "
                    "(SPV_NV_cooperative_matrix2: the same Component Type)",
                    sg_coop_type_name(m, R.component, a, sizeof a),
                    sg_coop_type_name(m, M.component, b, sizeof b));
  if (sg_coop_differ(R.use, 2) || sg_coop_differ(M.use, 2))
    return COOP_BAD(m, fn, "Use is %s (result) and %s (matrix) (SPV_NV_cooperative_matrix2: "
                    "both have Use MatrixAccumulatorKHR)", sg_coop_use_name(R.use),
                    sg_coop_use_name(M.use));
  if (R.scope_id != M.scope_id && (sg_coop_differ(R.scope, M.scope) || R.scope == SPVGEN_ABSENT ||
                                   M.scope == SPVGEN_ABSENT))
    return COOP_BAD(m, fn, "the scopes differ: result %s, matrix %s (SPV_NV_cooperative_matrix2: "
                    "matching Scope)", sg_coop_scope_name(R.scope), sg_coop_scope_name(M.scope));
  if (reduce == quad) {
    if ((M.rows != SPVGEN_ABSENT && sg_coop_differ(R.rows, M.rows / 2)) ||
        (M.columns != SPVGEN_ABSENT && sg_coop_differ(R.columns, M.columns / 2)))
      return COOP_BAD(m, fn, "a 2x2 reduction of %ux%u gives %ux%u, not %ux%u "
                      "(SPV_NV_cooperative_matrix2: with 2x2 the result's dimensions are half "
                      "the matrix's)", M.rows, M.columns, M.rows / 2, M.columns / 2, R.rows,
                      R.columns);
  } else if (reduce == row && sg_coop_differ(R.rows, M.rows)) {
    return COOP_BAD(m, fn, "a Row reduction keeps the rows: the matrix has %u, the result %u "
                    "(SPV_NV_cooperative_matrix2)", M.rows, R.rows);
  } else if (reduce == col && sg_coop_differ(R.columns, M.columns)) {
    return COOP_BAD(m, fn, "a Column reduction keeps the columns: the matrix has %u, the result "
                    "%u (SPV_NV_cooperative_matrix2)", M.columns, R.columns);
  }
  bool defined;
  uint32_t ret = 0, np = 0;
  const uint32_t *p = NULL;
  if (!sg_coop_function_signature(m, combine_func, &defined, &ret, &p, &np))
    return COOP_BAD(m, fn, "combine_func (id %u) is not a function", combine_func);
  if (defined && (np != 2 || ret != M.component || p[0] != M.component || p[1] != M.component))
    return COOP_BAD(m, fn, "combine_func must be %s (%s, %s) (SPV_NV_cooperative_matrix2: "
                    "CombineFunc has two parameters whose types and result type match the "
                    "component type; spvgen_type_combine_func)",
                    sg_coop_type_name(m, M.component, a, sizeof a), a, a);
  uint32_t ops[5] = {result_type, 0, matrix, reduce, combine_func};
  return sg_inst(m, fn, SpvOpCooperativeMatrixReduceNV, ops, 5);
}

/* ============================================================ per-element ==== */

uint32_t spvgen_coopmat_per_element(spvgen_module *m, uint32_t matrix, uint32_t func,
                                    const uint32_t *extra, uint32_t extra_count) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info M;
  if (!sg_coop_need_matrix_value(m, fn, matrix, "matrix", &M)) return 0;
  if (extra_count && !extra) return COOP_BAD(m, fn, "extra is NULL with count %u", extra_count);
  if (extra_count > 16) return COOP_BAD(m, fn, "%u extra operands is too many", extra_count);
  static const char RULE[] =
      "SPV_NV_cooperative_matrix2, OpCooperativeMatrixPerElementOpNV: Func returns the "
      "component type and takes (32-bit int row, 32-bit int column, component, operands...); "
      "spvgen_type_per_element_func";
  bool defined;
  uint32_t ret = 0, np = 0;
  const uint32_t *p = NULL;
  if (!sg_coop_function_signature(m, func, &defined, &ret, &p, &np))
    return COOP_BAD(m, fn, "func (id %u) is not a function", func);
  char a[96], b[96];
  if (defined) {
    uint32_t w0 = 0, w1 = 0;
    if (ret != M.component)
      return COOP_BAD(m, fn, "func returns %s but the matrix's components are %s (%s)",
                      sg_coop_type_name(m, ret, a, sizeof a),
                      sg_coop_type_name(m, M.component, b, sizeof b), RULE);
    if (np != 3 + extra_count)
      return COOP_BAD(m, fn, "func has %u parameters but %u are passed (3 + %u extra operands) "
                      "(%s)", np, 3 + extra_count, extra_count, RULE);
    if (!sg_coop_int_type(m, p[0], &w0, NULL) || w0 != 32 || !sg_coop_int_type(m, p[1], &w1, NULL) ||
        w1 != 32 || p[2] != M.component)
      return COOP_BAD(m, fn, "func's first three parameters are not (int32/uint32, int32/uint32, "
                      "%s) (%s)", sg_coop_type_name(m, M.component, a, sizeof a), RULE);
  }
  for (uint32_t i = 0; i < extra_count; i++) {
    uint32_t t = spvgen_type_of(m, extra[i]);
    if (!t) return COOP_BAD(m, fn, "extra operand %u (id %u) is not a value", i, extra[i]);
    spvgen_coop_type_info e;
    uint32_t passed = t;
    if (spvgen_coop_type_query(m, t, &e) && e.opcode == SpvOpTypeCooperativeMatrixKHR)
      passed = e.component;
    if (defined && p[3 + i] != passed)
      return COOP_BAD(m, fn, "extra operand %u passes %s but func's parameter %u is %s (%s)", i,
                      sg_coop_type_name(m, passed, a, sizeof a), 4 + i,
                      sg_coop_type_name(m, p[3 + i], b, sizeof b), RULE);
  }
  uint32_t ops[4 + 16] = {spvgen_type_of(m, matrix), 0, matrix, func};
  for (uint32_t i = 0; i < extra_count; i++) ops[4 + i] = extra[i];
  return sg_inst(m, fn, SpvOpCooperativeMatrixPerElementOpNV, ops, 4 + extra_count);
}

/* ====================================================== convert/transpose ==== */

uint32_t spvgen_coopmat_convert_use(spvgen_module *m, uint32_t result_type, uint32_t matrix) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info R, M;
  if (!sg_coop_need_matrix_type(m, fn, result_type, "result_type", &R) ||
      !sg_coop_need_matrix_value(m, fn, matrix, "matrix", &M))
    return 0;
  static const char RULE[] =
      "SPV_NV_cooperative_matrix2, OpCooperativeMatrixConvertNV: the same Component Type, "
      "Scope, Rows and Columns; Use MatrixAccumulatorKHR to MatrixAKHR or MatrixBKHR";
  char a[160], b[160];
  if (R.component != M.component || sg_coop_differ(R.scope, M.scope) || sg_coop_differ(R.rows, M.rows) ||
      sg_coop_differ(R.columns, M.columns))
    return COOP_BAD(m, fn, "%s cannot become %s (%s; use spvgen_coop_convert to change the "
                    "component type)", sg_coop_type_name(m, spvgen_type_of(m, matrix), a, sizeof a),
                    sg_coop_type_name(m, result_type, b, sizeof b), RULE);
  if (sg_coop_differ(M.use, 2) || R.use == 2)
    return COOP_BAD(m, fn, "Use %s to %s (%s)", sg_coop_use_name(M.use), sg_coop_use_name(R.use), RULE);
  uint32_t ops[3] = {result_type, 0, matrix};
  return sg_inst(m, fn, SpvOpCooperativeMatrixConvertNV, ops, 3);
}

uint32_t spvgen_coopmat_transpose(spvgen_module *m, uint32_t result_type, uint32_t matrix) {
  const char *fn = __func__;
  if (!sg_ok(m, fn)) return 0;
  spvgen_coop_type_info R, M;
  if (!sg_coop_need_matrix_type(m, fn, result_type, "result_type", &R) ||
      !sg_coop_need_matrix_value(m, fn, matrix, "matrix", &M))
    return 0;
  static const char RULE[] =
      "SPV_NV_cooperative_matrix2, OpCooperativeMatrixTransposeNV: MatrixAccumulatorKHR R x C "
      "to MatrixBKHR C x R, same Scope";
  if (sg_coop_differ(M.use, 2) || sg_coop_differ(R.use, 1))
    return COOP_BAD(m, fn, "Use %s to %s (%s)", sg_coop_use_name(M.use), sg_coop_use_name(R.use), RULE);
  if (sg_coop_differ(R.rows, M.columns) || sg_coop_differ(R.columns, M.rows) || sg_coop_differ(R.scope, M.scope))
    return COOP_BAD(m, fn, "a %ux%u %s matrix transposes to %ux%u %s, not %ux%u %s (%s)", M.rows,
                    M.columns, sg_coop_scope_name(M.scope), M.columns, M.rows,
                    sg_coop_scope_name(M.scope), R.rows, R.columns, sg_coop_scope_name(R.scope), RULE);
  uint32_t ops[3] = {result_type, 0, matrix};
  return sg_inst(m, fn, SpvOpCooperativeMatrixTransposeNV, ops, 3);
}

/* ========================================================= callback types ==== */

static const char RULE_COMPONENT[] =
    "SPV_NV_cooperative_matrix2: the callbacks work on the matrix's component type";

uint32_t spvgen_type_combine_func(spvgen_module *m, uint32_t component) {
  if (!sg_ok(m, __func__) ||
      !sg_coop_need_scalar_numeric_type(m, __func__, component, "component", RULE_COMPONENT))
    return 0;
  uint32_t params[2] = {component, component};
  return spvgen_type_function(m, component, params, 2);
}

static bool per_element_params(spvgen_module *m, const char *fn, uint32_t component,
                               const uint32_t *extra, uint32_t n, uint32_t *params) {
  if (!sg_coop_need_scalar_numeric_type(m, fn, component, "component", RULE_COMPONENT)) return false;
  if (n && !extra) return COOP_BAD(m, fn, "extra_types is NULL with count %u", n), false;
  if (n > 16) return COOP_BAD(m, fn, "%u extra parameters is too many", n), false;
  uint32_t u32 = spvgen_type_int(m, 32, false);
  params[0] = params[1] = u32;
  params[2] = component;
  for (uint32_t i = 0; i < n; i++) params[3 + i] = extra[i];
  return m->status == SPVGEN_OK;
}

uint32_t spvgen_type_per_element_func(spvgen_module *m, uint32_t component,
                                      const uint32_t *extra_types, uint32_t extra_count) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t params[3 + 16];
  if (!per_element_params(m, __func__, component, extra_types, extra_count, params)) return 0;
  return spvgen_type_function(m, component, params, 3 + extra_count);
}

static bool decode_params(spvgen_module *m, const char *fn, uint32_t component, uint32_t pointee,
                          uint32_t dim, uint32_t params[3]) {
  if (!sg_coop_need_scalar_numeric_type(m, fn, component, "component", RULE_COMPONENT)) return false;
  if (m->addressing != SpvAddressingModelPhysicalStorageBuffer64)
    return COOP_BAD(m, fn, "the module's addressing model is %u; a DecodeFunc's pointer needs "
                    "PhysicalStorageBuffer64 (spvgen_module_desc.addressing = %u) "
                    "(SPV_NV_cooperative_matrix2: the first parameter is a PhysicalStorageBuffer "
                    "pointer)", m->addressing, (uint32_t)SpvAddressingModelPhysicalStorageBuffer64),
           false;
  if (dim < 1 || dim > MAX_TENSOR_DIM)
    return COOP_BAD(m, fn, "tensor dimension %u is outside [1, 5] (%s)", dim, RULE_DIM), false;
  if (!spvgen_is_type(m, pointee)) return COOP_BAD(m, fn, "pointee (id %u) is not a type", pointee), false;
  uint32_t arr = spvgen_type_array(m, spvgen_type_int(m, 32, false), dim);
  params[0] = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, pointee);
  params[1] = params[2] = arr;
  return m->status == SPVGEN_OK;
}

uint32_t spvgen_type_decode_func(spvgen_module *m, uint32_t component, uint32_t pointee,
                                 uint32_t dim) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t params[3];
  if (!decode_params(m, __func__, component, pointee, dim, params)) return 0;
  return spvgen_type_function(m, component, params, 3);
}

static uint32_t begin_callback(spvgen_module *m, const char *fn, uint32_t ret,
                               const uint32_t *param_types, uint32_t n, uint32_t *params) {
  if (m->in_function)
    return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "function %u is still open; begin "
                   "callbacks outside other functions", m->current_function);
  uint32_t local[3 + 16];
  uint32_t f = spvgen_function_begin(m, ret, SpvFunctionControlMaskNone, param_types, n,
                                     params ? params : local);
  return m->status == SPVGEN_OK ? f : 0;
}

uint32_t spvgen_combine_func_begin(spvgen_module *m, uint32_t component, uint32_t params[2]) {
  if (!sg_ok(m, __func__) ||
      !sg_coop_need_scalar_numeric_type(m, __func__, component, "component", RULE_COMPONENT))
    return 0;
  uint32_t types[2] = {component, component};
  return begin_callback(m, __func__, component, types, 2, params);
}

uint32_t spvgen_per_element_func_begin(spvgen_module *m, uint32_t component,
                                       const uint32_t *extra_types, uint32_t extra_count,
                                       uint32_t *params) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t types[3 + 16];
  if (!per_element_params(m, __func__, component, extra_types, extra_count, types)) return 0;
  return begin_callback(m, __func__, component, types, 3 + extra_count, params);
}

uint32_t spvgen_decode_func_begin(spvgen_module *m, uint32_t component, uint32_t pointee,
                                  uint32_t dim, uint32_t params[3]) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t types[3], local[3];
  if (!decode_params(m, __func__, component, pointee, dim, types)) return 0;
  uint32_t *p = params ? params : local;
  uint32_t f = begin_callback(m, __func__, component, types, 3, p);
  /* A PhysicalStorageBuffer pointer parameter must be Aliased or Restrict (Vulkan). */
  if (f) spvgen_decorate(m, p[0], SpvDecorationAliased);
  return m->status == SPVGEN_OK ? f : 0;
}
