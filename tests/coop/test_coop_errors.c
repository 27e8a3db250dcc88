/* tests/coop/test_coop_errors.c — every argument check of spvgen/coop.h: each test breaks
 * one rule and asserts that the module's sticky error is SPVGEN_ERROR_INVALID_ARGUMENT
 * (SPVGEN_ERROR_INVALID_STATE where said) with a message that names the call and the
 * rule. Tests are named after the rule; where one rule is checked by several calls, the
 * test breaks it through each of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/coop.h"

#define U32S(...) ((const uint32_t[]){__VA_ARGS__})

/* ----------------------------------------------------------------- fixture ---- */

typedef struct fx {
  spvgen_module *m;
  uint32_t f16, f32, f64, u32, s32, s8, u8, boolean;
  uint32_t A, B, C, Ci;   /* f16 16x8 MatrixA, f16 8x16 MatrixB, f32 16x16 Acc, s32 16x16 Acc */
  uint32_t a, b, c, ci;   /* values of those */
  uint32_t x;             /* a float16 value that is not a constant */
  uint32_t buf16, p16;    /* float16 storage buffer, &data[0] */
  uint32_t arr16;         /* &data (the runtime array) */
  uint32_t fvar;          /* Function-storage float16 variable */
  uint32_t V8, V16, v8, v16; /* float16 cooperative vectors */
  uint32_t U4, u4;        /* uint32 x 4 */
  uint32_t L, t, VT, view; /* 2-D tensor layout (Constant) and view (transposing) */
  uint32_t zero, sixteen; /* uint constants */
} fx;

static uint32_t array_of(spvgen_module *m, uint32_t buffer, uint32_t element_type) {
  uint32_t rta = spvgen_type_runtime_array_strided(m, element_type, spvgen_type_size(m, element_type));
  uint32_t pt = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, rta);
  uint32_t zero = spvgen_const_u32(m, 0);
  return spvgen_access_chain(m, pt, buffer, &zero, 1);
}

/* Types and values most tests need; main() is open. `desc` may be NULL. */
static fx setup(const spvgen_module_desc *desc, bool open_main) {
  fx f;
  memset(&f, 0, sizeof f);
  spvgen_module *m = f.m = spvgen_module_create(desc);
  f.f16 = spvgen_type_float(m, 16);
  f.f32 = spvgen_type_float(m, 32);
  f.f64 = spvgen_type_float(m, 64);
  f.u32 = spvgen_type_int(m, 32, false);
  f.s32 = spvgen_type_int(m, 32, true);
  f.s8 = spvgen_type_int(m, 8, true);
  f.u8 = spvgen_type_int(m, 8, false);
  f.boolean = spvgen_type_bool(m);
  uint32_t ep;
  f.buf16 = spvgen_storage_buffer(m, f.f16, 0, 0, false, &ep);
  f.zero = spvgen_const_u32(m, 0);
  f.sixteen = spvgen_const_u32(m, 16);
  SpvScope sg = SpvScopeSubgroup;
  f.A = spvgen_type_coopmat(m, f.f16, sg, 16, 8, SpvCooperativeMatrixUseMatrixAKHR);
  f.B = spvgen_type_coopmat(m, f.f16, sg, 8, 16, SpvCooperativeMatrixUseMatrixBKHR);
  f.C = spvgen_type_coopmat(m, f.f32, sg, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  f.Ci = spvgen_type_coopmat(m, f.s32, sg, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  f.V8 = spvgen_type_coopvec(m, f.f16, 8);
  f.V16 = spvgen_type_coopvec(m, f.f16, 16);
  f.U4 = spvgen_type_coopvec(m, f.u32, 4);
  f.L = spvgen_type_tensor_layout(m, 2, SpvTensorClampModeConstant);
  f.VT = spvgen_type_tensor_view(m, 2, false, U32S(1, 0));
  if (!open_main) return f;
  spvgen_compute_main(m, "main", 32, 1, 1);
  uint32_t one16 = spvgen_const_bits(m, f.f16, 0x3C00);
  f.a = spvgen_coop_splat(m, f.A, one16);
  f.b = spvgen_coop_splat(m, f.B, one16);
  f.c = spvgen_coop_splat(m, f.C, spvgen_const_f32(m, 0.0f));
  f.ci = spvgen_coop_splat(m, f.Ci, spvgen_const_i32(m, 0));
  f.p16 = spvgen_access_chain(m, ep, f.buf16, U32S(f.zero, f.zero), 2);
  f.arr16 = array_of(m, f.buf16, f.f16);
  f.x = spvgen_load(m, f.f16, f.p16);
  f.fvar = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassFunction, f.f16),
                           SpvStorageClassFunction, 0);
  f.v8 = spvgen_coopvec_load(m, f.V8, f.arr16, 0, NULL);
  f.v16 = spvgen_coopvec_load(m, f.V16, f.arr16, 0, NULL);
  f.u4 = spvgen_coop_splat(m, f.U4, spvgen_const_u32(m, 1));
  f.t = spvgen_tensor_layout_create(m, f.L);
  f.view = spvgen_tensor_view_create(m, f.VT);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  return f;
}

static fx begin(void) { return setup(NULL, true); }

/* The module's first error is `st` and its message contains `msg`. */
#define EXPECT_STATUS(f, st, msg)                     \
  do {                                                \
    check_module_error((f).m, (st), (msg));           \
    spvgen_module_destroy((f).m);                     \
  } while (0)
#define EXPECT(f, msg) EXPECT_STATUS(f, SPVGEN_ERROR_INVALID_ARGUMENT, msg)

static uint32_t matmul_with(fx *f, spvgen_coopvec_matmul_desc d) {
  if (!d.result_type) d.result_type = f->V16;
  if (!d.input) d.input = f->v8;
  if (!d.matrix) d.matrix = f->arr16;
  return d.bias ? spvgen_coopvec_matmul_add(f->m, &d) : spvgen_coopvec_matmul(f->m, &d);
}

/* A function f16 name(params...) { return 0; } defined outside main (begin with setup(.,false)). */
static uint32_t dummy_function(fx *f, uint32_t ret, const uint32_t *params, uint32_t n) {
  uint32_t fn = spvgen_function_begin(f->m, ret, SpvFunctionControlMaskNone, params, n, NULL);
  spvgen_return_value(f->m, spvgen_const_null(f->m, ret));
  spvgen_function_end(f->m);
  return fn;
}

/* ====================================================== argument kinds ==== */

static void test_matrix_type_arguments_must_be_cooperative_matrix_types(void) {
  fx f = begin();
  spvgen_coopmat_length(f.m, f.f16);
  EXPECT(f, "spvgen_coopmat_length: type is float16, not a cooperative matrix type "
            "(OpTypeCooperativeMatrixKHR)");
}

static void test_matrix_operands_must_be_values(void) {
  fx f = begin();
  spvgen_coopmat_muladd(f.m, 0, f.A, f.b, f.c, 0);
  EXPECT(f, "spvgen_coopmat_muladd: a (id");
}

static void test_matrix_operands_must_have_cooperative_matrix_types(void) {
  fx f = begin();
  spvgen_coopmat_muladd(f.m, 0, f.x, f.b, f.c, 0);
  EXPECT(f, "has type float16, not a cooperative matrix type");
}

static void test_vector_type_arguments_must_be_cooperative_vector_types(void) {
  fx f = begin();
  spvgen_coopvec_load(f.m, f.f16, f.arr16, 0, NULL);
  EXPECT(f, "spvgen_coopvec_load: result_type is float16, not a cooperative vector type "
            "(OpTypeCooperativeVectorNV)");
}

static void test_vector_operands_must_be_values(void) {
  fx f = begin();
  spvgen_coopvec_store(f.m, f.arr16, f.V8, 0, NULL);
  EXPECT(f, "spvgen_coopvec_store: object (id");
}

static void test_vector_operands_must_have_cooperative_vector_types(void) {
  fx f = begin();
  spvgen_coopvec_store(f.m, f.arr16, f.a, 0, NULL);
  EXPECT(f, "has type coopmat<float16, Subgroup, 16x8, MatrixAKHR>, not a cooperative vector type");
}

static void test_pointers_must_be_values(void) {
  fx f = begin();
  spvgen_coopmat_load(f.m, f.A, f.A, 0, 16, NULL);
  EXPECT(f, "spvgen_coopmat_load: pointer (id");
}

static void test_pointers_must_have_pointer_types(void) {
  fx f = begin();
  spvgen_coopmat_load(f.m, f.A, f.x, 0, 16, NULL);
  EXPECT(f, "has type float16, not a pointer");
}

static void test_component_types_must_be_scalar_numerical_types(void) {
  fx f = begin();
  spvgen_type_coopmat(f.m, f.boolean, SpvScopeSubgroup, 16, 16, 0);
  EXPECT(f, "spvgen_type_coopmat: the component type is bool, not a scalar integer or float type "
            "(SPV_KHR_cooperative_matrix: Component Type must be a scalar numerical type)");
  f = begin();
  spvgen_type_coopvec(f.m, f.V8, 4);
  EXPECT(f, "(SPV_NV_cooperative_vector: Component Type must be a scalar numerical type)");
}

static void test_offsets_must_be_32_bit_integers(void) {
  fx f = begin();
  spvgen_coopvec_load(f.m, f.V8, f.arr16, f.x, NULL);
  EXPECT(f, "has type float16; it must be a 32-bit integer");
}

static void test_vector_load_store_offsets_must_be_multiples_of_16(void) {
  fx f = begin();
  spvgen_coopvec_load(f.m, f.V8, f.arr16, spvgen_const_u32(f.m, 8), NULL);
  EXPECT(f, "spvgen_coopvec_load: offset 8 is not a multiple of 16 (GLSL_NV_cooperative_vector: "
            "offset must be a multiple of 16)");
  f = begin();
  spvgen_coopvec_store(f.m, f.arr16, f.v8, spvgen_const_u32(f.m, 24), NULL);
  EXPECT(f, "spvgen_coopvec_store: offset 24 is not a multiple of 16");
}

/* ====================================================== memory operands ==== */

static void test_memory_operands_are_the_supported_bits(void) {
  fx f = begin();
  spvgen_memory_operands mem = {0x10000, 0, 0};
  spvgen_coopmat_load(f.m, f.A, f.p16, 0, 16, &mem);
  EXPECT(f, "memory operand bits 0x10000 are not supported here");
}

static void test_make_pointer_available_is_not_valid_on_loads(void) {
  fx f = begin();
  spvgen_memory_operands mem = {SpvMemoryAccessMakePointerAvailableMask |
                                    SpvMemoryAccessNonPrivatePointerMask, 0, SpvScopeWorkgroup};
  spvgen_coopmat_load(f.m, f.A, f.p16, 0, 16, &mem);
  EXPECT(f, "MakePointerAvailable is not valid on a load (SPIR-V 3.26 Memory Operands, as amended "
            "by SPV_NV_cooperative_matrix2");
}

static void test_make_pointer_visible_is_not_valid_on_stores(void) {
  fx f = begin();
  spvgen_memory_operands mem = {SpvMemoryAccessMakePointerVisibleMask |
                                    SpvMemoryAccessNonPrivatePointerMask, 0, SpvScopeWorkgroup};
  spvgen_coopmat_store(f.m, f.p16, f.a, 0, 16, &mem);
  EXPECT(f, "MakePointerVisible is not valid on a store");
}

static void test_make_pointer_available_and_visible_need_non_private_pointer(void) {
  fx f = begin();
  spvgen_memory_operands mem = {SpvMemoryAccessMakePointerVisibleMask, 0, SpvScopeWorkgroup};
  spvgen_coopvec_load(f.m, f.V8, f.arr16, 0, &mem);
  EXPECT(f, "MakePointerAvailable/MakePointerVisible need NonPrivatePointer set too");
}

static void test_aligned_takes_a_power_of_two(void) {
  fx f = begin();
  spvgen_memory_operands mem = {SpvMemoryAccessAlignedMask, 12, 0};
  spvgen_coopmat_load(f.m, f.A, f.p16, 0, 16, &mem);
  EXPECT(f, "alignment 12 is not a power of two");
}

/* ====================================================== component types ==== */

static void test_interpretation_must_be_a_component_type(void) {
  fx f = begin();
  spvgen_type_for_interpretation(f.m, (SpvComponentType)11);
  EXPECT(f, "spvgen_type_for_interpretation: 11 is not a ComponentType");
}

/* =========================================== SPV_KHR_cooperative_matrix ==== */

static void test_coopmat_scope_rows_cols_use_must_be_integer_constants(void) {
  fx f = begin();
  uint32_t one = spvgen_const_u32(f.m, 1);
  spvgen_type_coopmat_id(f.m, f.f16, f.x, one, one, one);
  EXPECT(f, "spvgen_type_coopmat_id: scope (id");
  f = begin();
  spvgen_type_coopmat_id(f.m, f.f16, spvgen_const_u32(f.m, 3), f.x, f.sixteen, f.zero);
  EXPECT(f, "is not an integer constant or specialization constant (SPV_KHR_cooperative_matrix: "
            "Scope, Rows, Columns and Use are constant instructions of scalar integer type)");
}

static void test_coopmat_scope_is_subgroup_or_workgroup(void) {
  fx f = begin();
  spvgen_type_coopmat(f.m, f.f16, SpvScopeDevice, 16, 16, 0);
  EXPECT(f, "scope 1 (Device) is not Subgroup or Workgroup (Vulkan: cooperative matrices have "
            "Subgroup scope, or Workgroup scope with SPV_NV_cooperative_matrix2)");
}

static void test_coopmat_rows_and_columns_are_at_least_one(void) {
  fx f = begin();
  spvgen_type_coopmat(f.m, f.f16, SpvScopeSubgroup, 0, 16, 0);
  EXPECT(f, "spvgen_type_coopmat: a 0x16 matrix has no elements (Rows and Columns must be at least 1)");
  f = begin();
  spvgen_type_coopmat_id(f.m, f.f16, spvgen_const_u32(f.m, 3), f.sixteen, f.zero, f.zero);
  EXPECT(f, "spvgen_type_coopmat_id: a 16x0 matrix has no elements");
}

static void test_coopmat_use_is_a_cooperative_matrix_use(void) {
  fx f = begin();
  spvgen_type_coopmat(f.m, f.f16, SpvScopeSubgroup, 16, 16, (SpvCooperativeMatrixUse)3);
  EXPECT(f, "use 3 is not a CooperativeMatrixUse");
}

static void test_coopmat_load_pointer_storage_class(void) {
  fx f = begin();
  spvgen_coopmat_load(f.m, f.A, f.fvar, 0, 16, NULL);
  EXPECT(f, "the pointer's storage class is 7 (Vulkan (VUID-StandaloneSpirv-OpCooperativeMatrixLoadKHR"
            "-08973): the pointer's storage class is Workgroup, StorageBuffer or "
            "PhysicalStorageBuffer)");
}

static void test_coopmat_load_pointer_points_to_an_element(void) {
  fx f = begin();
  spvgen_coopmat_load(f.m, f.A, f.arr16, 0, 16, NULL);
  EXPECT(f, "the pointer points to runtime array of float16; it must point to a scalar or vector "
            "element");
}

static void test_coopmat_layout_must_be_a_constant(void) {
  fx f = begin();
  spvgen_coopmat_load_id(f.m, f.A, f.p16, f.x, f.sixteen, NULL);
  EXPECT(f, "layout (id");
  f = begin();
  spvgen_coopmat_store_id(f.m, f.p16, f.a, f.x, f.sixteen, NULL);
  EXPECT(f, "(SPV_KHR_cooperative_matrix: MemoryLayout comes from a constant instruction)");
}

static void test_coopmat_layout_must_be_a_cooperative_matrix_layout(void) {
  fx f = begin();
  spvgen_coopmat_load(f.m, f.A, f.p16, (SpvCooperativeMatrixLayout)2, 16, NULL);
  EXPECT(f, "layout 2 is not a CooperativeMatrixLayout");
}

static void test_coopmat_stride_must_be_an_integer(void) {
  fx f = begin();
  spvgen_coopmat_load_stride_id(f.m, f.A, f.p16, 0, f.x, NULL);
  EXPECT(f, "a value of type float16; expected the id of an integer value (a constant, a "
            "specialization constant or a computed value; SPV_KHR_cooperative_matrix: Stride must "
            "be a scalar integer type)");
}

static void test_coopmat_row_and_column_major_need_a_stride(void) {
  fx f = begin();
  spvgen_coopmat_store(f.m, f.p16, f.a, SpvCooperativeMatrixLayoutColumnMajorKHR, 0, NULL);
  EXPECT(f, "layout ColumnMajorKHR needs a stride (SPV_KHR_cooperative_matrix: Stride is required "
            "for RowMajorKHR and ColumnMajorKHR)");
}

static void test_coopmat_blocked_arm_layouts_need_stride_1_2_or_4(void) {
  fx f = begin();
  spvgen_coopmat_load(f.m, f.A, f.p16, SpvCooperativeMatrixLayoutRowBlockedInterleavedARM,
                      8, NULL);
  EXPECT(f, "the blocked interleaved layouts need a constant stride of 1, 2 or 4 "
            "(SPV_ARM_cooperative_matrix_layouts)");
}

static void test_coopmat_memory_operands_follow_the_stride(void) {
  fx f = begin();
  uint32_t layout = spvgen_spec_const_u32(f.m, 0, 0);
  spvgen_memory_operands mem = {SpvMemoryAccessAlignedMask, 16, 0};
  spvgen_coopmat_load_id(f.m, f.A, f.p16, layout, 0, &mem);
  EXPECT(f, "memory operands need the Stride operand before them");
}

static void test_muladd_a_has_use_matrix_a(void) {
  fx f = begin();
  spvgen_coopmat_muladd(f.m, 0, f.b, f.b, f.c, 0);
  EXPECT(f, "spvgen_coopmat_muladd: a has Use MatrixBKHR, not MatrixAKHR (SPV_KHR_cooperative_matrix, "
            "OpCooperativeMatrixMulAddKHR: A has Use MatrixAKHR, B MatrixBKHR, C and Result Type "
            "MatrixAccumulatorKHR)");
}

static void test_muladd_b_has_use_matrix_b(void) {
  fx f = begin();
  spvgen_coopmat_muladd(f.m, 0, f.a, f.a, f.c, 0);
  EXPECT(f, "b has Use MatrixAKHR, not MatrixBKHR");
}

static void test_muladd_c_has_use_accumulator(void) {
  fx f = begin();
  spvgen_coopmat_muladd(f.m, f.C, f.a, f.b, f.b, 0);
  EXPECT(f, "c has Use MatrixBKHR, not MatrixAccumulatorKHR");
}

static void test_muladd_result_has_use_accumulator(void) {
  fx f = begin();
  spvgen_coopmat_muladd(f.m, f.A, f.a, f.b, f.c, 0);
  EXPECT(f, "result_type has Use MatrixAKHR, not MatrixAccumulatorKHR");
}

static void test_muladd_matrices_have_one_scope(void) {
  fx f = begin();
  uint32_t WA = spvgen_type_coopmat(f.m, f.f16, SpvScopeWorkgroup, 16, 8,
                                    SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t wa = spvgen_coop_splat(f.m, WA, spvgen_const_bits(f.m, f.f16, 0));
  spvgen_coopmat_muladd(f.m, 0, wa, f.b, f.c, 0);
  EXPECT(f, "the scopes differ: a Workgroup, b Subgroup, c Subgroup, result Subgroup "
            "(SPV_KHR_cooperative_matrix: all matrices of OpCooperativeMatrixMulAddKHR have the "
            "same scope)");
}

static void test_muladd_m_matches(void) {
  fx f = begin();
  uint32_t A2 = spvgen_type_coopmat(f.m, f.f16, SpvScopeSubgroup, 8, 8, 0);
  spvgen_coopmat_muladd(f.m, 0, spvgen_coop_splat(f.m, A2, spvgen_const_bits(f.m, f.f16, 0)), f.b,
                        f.c, 0);
  EXPECT(f, "M differs: a has 8 rows, c 16, the result 16 (SPV_KHR_cooperative_matrix: A is MxK, C "
            "and Result Type are MxN)");
}

static void test_muladd_n_matches(void) {
  fx f = begin();
  uint32_t B2 = spvgen_type_coopmat(f.m, f.f16, SpvScopeSubgroup, 8, 8, 1);
  spvgen_coopmat_muladd(f.m, 0, f.a, spvgen_coop_splat(f.m, B2, spvgen_const_bits(f.m, f.f16, 0)),
                        f.c, 0);
  EXPECT(f, "N differs: b has 8 columns, c 16, the result 16");
}

static void test_muladd_k_matches(void) {
  fx f = begin();
  uint32_t B2 = spvgen_type_coopmat(f.m, f.f16, SpvScopeSubgroup, 16, 16, 1);
  spvgen_coopmat_muladd(f.m, 0, f.a, spvgen_coop_splat(f.m, B2, spvgen_const_bits(f.m, f.f16, 0)),
                        f.c, 0);
  EXPECT(f, "K differs: a has 8 columns but b has 16 rows (SPV_KHR_cooperative_matrix: A is MxK and "
            "B is KxN)");
}

static void test_muladd_operands_are_cooperative_matrix_operands(void) {
  fx f = begin();
  spvgen_coopmat_muladd(f.m, 0, f.a, f.b, f.c, 0x20);
  EXPECT(f, "operand bits 0x20 are not CooperativeMatrixOperands");
}

static void test_signedness_operands_need_integer_matrices(void) {
  static const struct { uint32_t bit; const char *msg; } cases[] = {
      {SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask,
       "MatrixASignedComponentsKHR is set but a's components are float16 (SPV_KHR_cooperative_matrix: "
       "the Signed Components operands give the signedness of integer components and are not used "
       "with floating-point matrices)"},
      {SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask,
       "MatrixBSignedComponentsKHR is set but b's components are float16"},
      {SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask,
       "MatrixCSignedComponentsKHR is set but c's components are float32"},
      {SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask,
       "MatrixResultSignedComponentsKHR is set but the result's components are float32"},
  };
  for (int i = 0; i < 4; i++) {
    fx f = begin();
    spvgen_coopmat_muladd(f.m, 0, f.a, f.b, f.c, cases[i].bit);
    EXPECT(f, cases[i].msg);
  }
}

static void test_saturating_accumulation_needs_integer_accumulators(void) {
  fx f = begin();
  spvgen_coopmat_muladd(f.m, 0, f.a, f.b, f.c, SpvCooperativeMatrixOperandsSaturatingAccumulationKHRMask);
  EXPECT(f, "SaturatingAccumulationKHR needs integer C and result components");
}

/* ============================================ matrices & vectors together ==== */

static void test_composite_operands_must_be_values(void) {
  fx f = begin();
  spvgen_coop_extract(f.m, f.A, 0);
  EXPECT(f, "spvgen_coop_extract: composite (id");
}

static void test_composite_operands_must_be_cooperative(void) {
  fx f = begin();
  spvgen_coop_extract(f.m, f.x, 0);
  EXPECT(f, "has type float16, not a cooperative matrix or vector type");
}

static void test_scalars_must_have_the_component_type(void) {
  fx f = begin();
  spvgen_coop_splat(f.m, f.C, spvgen_const_bits(f.m, f.f16, 0));
  EXPECT(f, "spvgen_coop_splat: scalar (id");
  f = begin();
  spvgen_coop_insert(f.m, f.c, f.x, 0);
  EXPECT(f, "has type float16 but the component type is float32");
}

static void test_splat_type_must_be_cooperative(void) {
  fx f = begin();
  spvgen_coop_splat(f.m, f.f16, f.x);
  EXPECT(f, "type is float16, not a cooperative matrix or vector type");
}

static void test_splat_needs_a_known_vector_length(void) {
  fx f = begin();
  uint32_t V = spvgen_type_coopvec_id(f.m, f.f16, spvgen_spec_const_u32(f.m, 8, 0));
  spvgen_coop_splat(f.m, V, f.x);
  EXPECT(f, "the vector's length is a specialization constant; construct it from its components");
}

static void test_splat_and_construct_limit_the_component_count(void) {
  fx f = begin();
  uint32_t V = spvgen_type_coopvec(f.m, f.f16, 5000);
  spvgen_coop_splat(f.m, V, f.x);
  EXPECT(f, "5000 components is too many to splat");
  f = begin();
  uint32_t W = spvgen_type_coopvec_id(f.m, f.f16, spvgen_spec_const_u32(f.m, 8, 0));
  uint32_t *parts = malloc(5000 * sizeof *parts);
  for (int i = 0; i < 5000; i++) parts[i] = f.x;
  spvgen_coop_construct(f.m, W, parts, 5000);
  free(parts);
  EXPECT(f, "spvgen_coop_construct: 5000 components is too many");
}

static void test_construct_parts_not_null(void) {
  fx f = begin();
  spvgen_coop_construct(f.m, f.V8, NULL, 8);
  EXPECT(f, "parts is NULL with count 8");
}

static void test_construct_takes_one_part_per_component(void) {
  fx f = begin();
  spvgen_coop_construct(f.m, f.V8, U32S(f.x, f.x), 2);
  EXPECT(f, "2 parts given for a vector of 8 components (OpCompositeConstruct: one constituent per "
            "component)");
}

static void test_vector_component_index_in_range(void) {
  fx f = begin();
  spvgen_coop_extract(f.m, f.v8, 8);
  EXPECT(f, "spvgen_coop_extract: index 8 is out of range for a vector of 8 components");
  f = begin();
  spvgen_coop_insert(f.m, f.v8, f.x, 9);
  EXPECT(f, "spvgen_coop_insert: index 9 is out of range for a vector of 8 components");
}

static void test_arithmetic_operands_have_one_type(void) {
  fx f = begin();
  spvgen_coop_arith(f.m, SpvOpFAdd, f.v8, f.v16);
  EXPECT(f, "a has type coopvec<float16, 8> but b has type coopvec<float16, 16> (the operands of "
            "component-wise arithmetic have one type)");
}

static void test_arithmetic_opcode_fits_the_component_type(void) {
  fx f = begin();
  spvgen_coop_arith(f.m, SpvOpIAdd, f.c, f.c);
  EXPECT(f, "OpIAdd is not a component-wise operation on coopmat<float32, Subgroup, 16x16, "
            "MatrixAccumulatorKHR> (SPV_KHR_cooperative_matrix: FAdd FSub FMul FDiv on float "
            "matrices, IAdd ISub IMul SDiv UDiv on integer ones)");
  f = begin();
  spvgen_coop_arith(f.m, SpvOpBitwiseAnd, f.ci, f.ci);
  EXPECT(f, "OpBitwiseAnd is not a component-wise operation");
  f = begin();
  spvgen_coop_arith(f.m, SpvOpShiftLeftLogical, f.v8, f.v8);
  EXPECT(f, "(GLSL_NV_cooperative_vector 5.9: + - * / on all cooperative vectors, & | ^ << >> on "
            "integer ones)");
}

static void test_udiv_needs_unsigned_components(void) {
  fx f = begin();
  spvgen_coop_arith(f.m, SpvOpUDiv, f.ci, f.ci);
  EXPECT(f, "spvgen_coop_arith: OpUDiv on coopmat<int32, Subgroup, 16x16, MatrixAccumulatorKHR>: "
            "its result type needs unsigned components (SPIR-V OpUDiv; use OpSDiv for signed "
            "ones)");
  f = begin();
  uint32_t s4 = spvgen_coop_splat(f.m, spvgen_type_coopvec(f.m, f.s32, 4), spvgen_const_i32(f.m, 3));
  spvgen_coop_arith(f.m, SpvOpUDiv, s4, s4);
  EXPECT(f, "spvgen_coop_arith: OpUDiv on coopvec<int32, 4>: its result type needs unsigned "
            "components (SPIR-V OpUDiv; use OpSDiv for signed ones)");
}

static void test_bitwise_not_needs_integer_vectors(void) {
  fx f = begin();
  spvgen_coop_not(f.m, f.v8);
  EXPECT(f, "~ needs integer components, not float16");
}

static void test_conversion_result_is_the_same_kind(void) {
  fx f = begin();
  spvgen_coop_convert(f.m, f.V16, f.c);
  EXPECT(f, "result_type is coopvec<float16, 16>; a conversion of coopmat<float32, Subgroup, "
            "16x16, MatrixAccumulatorKHR> gives a cooperative matrix of the same shape");
}

static void test_matrix_conversion_keeps_scope_and_shape(void) {
  fx f = begin();
  spvgen_coop_convert(f.m, f.A, f.c);
  EXPECT(f, "differ in scope or shape (SPV_KHR_cooperative_matrix: conversions keep the scope, rows "
            "and columns)");
}

static void test_matrix_conversion_changes_use_only_from_accumulator(void) {
  fx f = begin();
  uint32_t B16 = spvgen_type_coopmat(f.m, f.f32, SpvScopeSubgroup, 16, 8, 1);
  spvgen_coop_convert(f.m, B16, f.a);
  EXPECT(f, "Use changes from MatrixAKHR to MatrixBKHR (SPV_NV_cooperative_matrix2: a conversion may "
            "only change Use from MatrixAccumulatorKHR to MatrixAKHR or MatrixBKHR)");
}

static void test_vector_conversion_keeps_the_length(void) {
  fx f = begin();
  spvgen_coop_convert(f.m, spvgen_type_coopvec(f.m, f.f32, 16), f.v8);
  EXPECT(f, "the vectors have 8 and 16 components (GLSL_NV_cooperative_vector: conversions are "
            "between vectors with the same number of components)");
}

static void test_conversion_changes_the_component_type(void) {
  fx f = begin();
  spvgen_coop_convert(f.m, f.V8, f.v8);
  EXPECT(f, "the component types are both float16: nothing to convert");
  f = begin();
  uint32_t Ai = spvgen_type_coopmat(f.m, f.s32, SpvScopeSubgroup, 16, 16, 0);
  spvgen_coop_convert(f.m, Ai, f.ci);
  EXPECT(f, "the component types are both int32: nothing to convert (a Use change alone is "
            "spvgen_coopmat_convert_use)");
}

static void test_bitcast_conversion_cannot_change_use(void) {
  fx f = begin();
  uint32_t Au = spvgen_type_coopmat(f.m, f.u32, SpvScopeSubgroup, 16, 16, 0);
  spvgen_coop_convert(f.m, Au, f.ci);
  EXPECT(f, "a signedness change is an OpBitcast, which cannot change Use "
            "(SPV_NV_cooperative_matrix2: the restriction on OpBitcast is not relaxed)");
}

static void test_unsigned_to_wider_signed_conversion_goes_through_unsigned(void) {
  fx f = begin();
  uint32_t U8 = spvgen_type_coopvec(f.m, f.u8, 4);
  uint32_t S32 = spvgen_type_coopvec(f.m, f.s32, 4);
  uint32_t x = spvgen_coop_splat(f.m, U8, spvgen_const_bits(f.m, f.u8, 1));
  spvgen_coop_convert(f.m, S32, x);
  EXPECT(f, "uint8 to int32: OpUConvert gives unsigned results; convert to uint32 first and then "
            "bitcast");
}

/* ========================================= SPV_NV_cooperative_matrix2 ==== */

/* "If an OpTypeCooperativeMatrixKHR instruction uses a Scope of Workgroup, then the
 * workgroup size must have already been specified in the module, including any constant
 * instructions used by LocalSizeId." Checked when the scope is a known constant. */
static void test_workgroup_scope_matrix_needs_the_workgroup_size_first(void) {
  static const char rule[] =
      "(SPV_NV_cooperative_matrix2: if an OpTypeCooperativeMatrixKHR instruction uses a Scope of "
      "Workgroup, then the workgroup size must have already been specified in the module, "
      "including any constant instructions used by LocalSizeId)";
  char msg[512];
  uint32_t fn;
  fx f;
  /* LocalSizeId naming a constant that is not defined yet */
  f = setup(NULL, false);
  fn = spvgen_function_begin(f.m, spvgen_type_void(f.m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_entry_point(f.m, SpvExecutionModelGLCompute, fn, "main", SPVGEN_INTERFACE_ALL);
  uint32_t later = spvgen_reserve_id(f.m);
  uint32_t one = spvgen_const_u32(f.m, 1);
  spvgen_execution_mode_id(f.m, fn, SpvExecutionModeLocalSizeId, U32S(f.sixteen, later, one), 3);
  CHECK_EQ_U64(spvgen_module_status(f.m), SPVGEN_OK);
  spvgen_type_coopmat(f.m, f.f32, SpvScopeWorkgroup, 16, 16, 2);
  snprintf(msg, sizeof msg, "spvgen_type_coopmat: a Workgroup-scope matrix needs the workgroup "
           "size first, and the LocalSizeId of function %u uses id %u, which is not "
           "defined yet %s", fn, later, rule);
  EXPECT(f, msg);
  /* the _id form with a constant Workgroup scope, the same way */
  f = setup(NULL, false);
  fn = spvgen_function_begin(f.m, spvgen_type_void(f.m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_entry_point(f.m, SpvExecutionModelGLCompute, fn, "main", SPVGEN_INTERFACE_ALL);
  later = spvgen_reserve_id(f.m);
  spvgen_execution_mode_id(f.m, fn, SpvExecutionModeLocalSizeId, U32S(later, f.sixteen, f.sixteen), 3);
  spvgen_type_coopmat_id(f.m, f.f16, spvgen_const_u32(f.m, SpvScopeWorkgroup), f.sixteen,
                         f.sixteen, f.zero);
  EXPECT(f, "spvgen_type_coopmat_id: a Workgroup-scope matrix needs the workgroup size first");
  /* A LocalSize given after the type is fine: execution modes precede types in the
   * module, so the module is valid. */
  f = setup(NULL, false);
  uint32_t early = spvgen_type_coopmat(f.m, f.f32, SpvScopeWorkgroup, 16, 16, 2);
  CHECK(early != 0);
  spvgen_compute_main(f.m, "main", 64, 1, 1);
  spvgen_function_end(f.m);
  CHECK_EQ_U64(spvgen_module_status(f.m), SPVGEN_OK);
  check_module(f.m, NULL);
  spvgen_module_destroy(f.m);
  /* after spvgen_compute_main (LocalSize) it is fine */
  f = begin();
  CHECK(spvgen_type_coopmat(f.m, f.f32, SpvScopeWorkgroup, 16, 16, 2) != 0);
  CHECK_EQ_U64(spvgen_module_status(f.m), SPVGEN_OK);
  spvgen_module_destroy(f.m);
}

static void test_tensor_dim_and_clamp_mode_are_32_bit_integer_constants(void) {
  fx f = begin();
  spvgen_type_tensor_layout_id(f.m, f.x, f.zero);
  EXPECT(f, "dim (id");
  f = begin();
  spvgen_type_tensor_layout_id(f.m, spvgen_const_u32(f.m, 2), spvgen_const_bits(f.m, f.u8, 0));
  EXPECT(f, "is not a 32-bit integer constant or specialization constant (SPV_NV_tensor_addressing: "
            "Dim, ClampMode and the permutation are 32-bit integer constant instructions)");
}

static void test_tensor_dimension_is_1_to_5(void) {
  static const char rule[] = "(SPV_NV_cooperative_matrix2, Tensor Layout and View: tensor layouts "
                             "and views have 1 to 5 dimensions)";
  fx f = begin();
  spvgen_type_tensor_layout(f.m, 0, 0);
  EXPECT(f, "spvgen_type_tensor_layout: tensor dimension 0 is outside [1, 5]");
  f = begin();
  spvgen_type_tensor_layout_id(f.m, spvgen_const_u32(f.m, 6), f.zero);
  EXPECT(f, rule);
  f = begin();
  spvgen_type_tensor_view(f.m, 6, false, NULL);
  EXPECT(f, "spvgen_type_tensor_view: tensor dimension 6 is outside [1, 5]");
  f = begin();
  spvgen_type_tensor_view_id(f.m, spvgen_const_u32(f.m, 7), spvgen_const_bool(f.m, true), NULL, 0);
  EXPECT(f, "spvgen_type_tensor_view_id: tensor dimension 7 is outside [1, 5]");
}

static void test_tensor_clamp_mode_is_a_tensor_clamp_mode(void) {
  fx f = begin();
  spvgen_type_tensor_layout(f.m, 2, (SpvTensorClampMode)5);
  EXPECT(f, "clamp mode 5 is not a TensorClampMode");
}

static void test_tensor_view_has_dimensions_is_a_bool_constant(void) {
  fx f = begin();
  spvgen_type_tensor_view_id(f.m, spvgen_const_u32(f.m, 1), f.zero, U32S(f.zero), 1);
  EXPECT(f, "is not a bool constant (SPV_NV_tensor_addressing: HasDimensions is a boolean constant)");
}

static void test_tensor_view_permutation_not_null(void) {
  fx f = begin();
  spvgen_type_tensor_view_id(f.m, spvgen_const_u32(f.m, 2), spvgen_const_bool(f.m, true), NULL, 2);
  EXPECT(f, "the permutation is NULL with count 2");
}

static void test_tensor_view_has_one_permutation_value_per_dimension(void) {
  fx f = begin();
  spvgen_type_tensor_view_id(f.m, spvgen_const_u32(f.m, 2), spvgen_const_bool(f.m, true),
                             U32S(f.zero), 1);
  EXPECT(f, "1 permutation values for 2 dimensions (SPV_NV_tensor_addressing: one permutation value "
            "p<i> per dimension)");
  f = begin();
  uint32_t p[6];
  for (int i = 0; i < 6; i++) p[i] = spvgen_const_u32(f.m, (uint32_t)i);
  spvgen_type_tensor_view_id(f.m, spvgen_spec_const_u32(f.m, 2, 0), spvgen_const_bool(f.m, true),
                             p, 6);
  EXPECT(f, "6 permutation values: at most 5");
}

static void test_tensor_view_permutation_is_a_permutation(void) {
  fx f = begin();
  spvgen_type_tensor_view(f.m, 2, false, U32S(1, 1));
  EXPECT(f, "the permutation {1, 1} is not a permutation of 0..1 (SPV_NV_tensor_addressing: "
            "p0..p<Dim-1> hold every dimension once)");
  f = begin();
  spvgen_type_tensor_view(f.m, 3, true, U32S(0, 3, 1));
  EXPECT(f, "the permutation {0, 3, 1} is not a permutation of 0..2");
}

static void test_tensor_instructions_take_a_tensor_layout_or_view(void) {
  fx f = begin();
  spvgen_tensor_layout_set_dimension(f.m, f.view, U32S(f.zero, f.zero), 2);
  EXPECT(f, "spvgen_tensor_layout_set_dimension: layout (id");
  f = begin();
  spvgen_tensor_view_set_clip(f.m, f.t, f.zero, f.zero, f.zero, f.zero);
  EXPECT(f, "is tensor layout (2 dimensions), not a tensor view value (spvgen_tensor_view_create)");
}

static void test_tensor_instruction_values_not_null(void) {
  fx f = begin();
  spvgen_tensor_layout_set_stride(f.m, f.t, NULL, 2);
  EXPECT(f, "the values are NULL with count 2");
  f = begin();
  spvgen_tensor_layout_slice(f.m, f.t, NULL, U32S(f.zero, f.zero), 2);
  EXPECT(f, "offsets or spans is NULL with count 2");
}

static void test_tensor_instructions_take_one_value_per_dimension(void) {
  fx f = begin();
  spvgen_tensor_layout_set_dimension(f.m, f.t, U32S(f.zero, f.zero, f.zero), 3);
  EXPECT(f, "3 values given for a tensor layout of 2 dimensions (SPV_NV_tensor_addressing: "
            "OpTensorLayoutSetDimensionNV takes one value per dimension)");
  f = begin();
  spvgen_tensor_layout_slice(f.m, f.t, U32S(f.zero), U32S(f.zero), 1);
  EXPECT(f, "1 offset/span pair given for a tensor layout of 2 dimensions (SPV_NV_tensor_addressing: "
            "OpTensorLayoutSliceNV takes an offset and a span per dimension)");
  f = begin();
  spvgen_tensor_view_set_stride(f.m, f.view, U32S(f.zero), 1);
  EXPECT(f, "1 value given for a tensor view of 2 dimensions");
}

static void test_tensor_instruction_value_count_is_bounded(void) {
  fx f = begin();
  uint32_t L = spvgen_type_tensor_layout_id(f.m, spvgen_spec_const_u32(f.m, 2, 0), f.zero);
  uint32_t t = spvgen_tensor_layout_create(f.m, L);
  uint32_t v[11];
  for (int i = 0; i < 11; i++) v[i] = f.zero;
  spvgen_tensor_layout_set_block_size(f.m, t, v, 11);
  EXPECT(f, "11 values is too many");
  f = begin();
  spvgen_tensor_layout_slice(f.m, f.t, v, v, 6);
  EXPECT(f, "6 dimensions is too many");
}

static void test_tensor_instruction_values_are_32_bit_integers(void) {
  fx f = begin();
  spvgen_tensor_layout_set_clamp_value(f.m, f.t, f.x);
  EXPECT(f, "is float16; tensor layout values are 32-bit integers (SPV_NV_tensor_addressing)");
}

static void test_tensor_create_takes_the_matching_type(void) {
  fx f = begin();
  spvgen_tensor_layout_create(f.m, f.VT);
  EXPECT(f, "layout_type is tensor view (2 dimensions), not a tensor layout type");
  f = begin();
  spvgen_tensor_view_create(f.m, f.L);
  EXPECT(f, "view_type is tensor layout (2 dimensions), not a tensor view type");
}

static void test_tensor_load_pointer_storage_class(void) {
  fx f = begin();
  spvgen_coopmat_load_tensor(f.m, f.A, f.fvar, 0, f.t, NULL, NULL);
  EXPECT(f, "spvgen_coopmat_load_tensor: the pointer's storage class is 7");
}

static void test_tensor_load_object_has_the_result_type(void) {
  fx f = begin();
  spvgen_coopmat_load_tensor(f.m, f.A, f.p16, f.b, f.t, NULL, NULL);
  EXPECT(f, "object has type coopmat<float16, Subgroup, 8x16, MatrixBKHR>, not the result type "
            "coopmat<float16, Subgroup, 16x8, MatrixAKHR> (SPV_NV_cooperative_matrix2: Object must "
            "have the same type as Result Type)");
}

static void test_decode_func_is_not_allowed_on_stores(void) {
  fx f = begin();
  spvgen_tensor_operands ops = {.decode_func = 1};
  spvgen_coopmat_store_tensor(f.m, f.p16, f.a, f.t, NULL, &ops);
  EXPECT(f, "spvgen_coopmat_store_tensor: DecodeFunc is not allowed with "
            "OpCooperativeMatrixStoreTensorNV (SPV_NV_cooperative_matrix2)");
}

static void test_decode_func_needs_buffer_storage(void) {
  fx f = setup(NULL, false);
  uint32_t fn = dummy_function(&f, f.f16, NULL, 0);
  spvgen_compute_main(f.m, "main", 32, 1, 1);
  uint32_t sh = spvgen_variable(f.m, spvgen_type_pointer(f.m, SpvStorageClassWorkgroup, f.f16),
                                SpvStorageClassWorkgroup, 0);
  uint32_t t = spvgen_tensor_layout_create(f.m, f.L);
  spvgen_tensor_operands ops = {.decode_func = fn};
  spvgen_coopmat_load_tensor(f.m, f.A, sh, 0, t, NULL, &ops);
  EXPECT(f, "with a DecodeFunc the pointer must be StorageBuffer or PhysicalStorageBuffer, not "
            "Workgroup");
}

static void test_decode_func_is_a_function(void) {
  fx f = begin();
  spvgen_tensor_operands ops = {.decode_func = f.zero};
  spvgen_coopmat_load_tensor(f.m, f.A, f.p16, 0, f.t, NULL, &ops);
  EXPECT(f, "decode_func (id");
}

static void test_decode_func_returns_the_component_type(void) {
  fx f = setup(NULL, false);
  uint32_t fn = dummy_function(&f, f.f32, NULL, 0);
  spvgen_compute_main(f.m, "main", 32, 1, 1);
  uint32_t p = array_of(f.m, f.buf16, f.f16); /* any StorageBuffer pointer */
  spvgen_tensor_operands ops = {.decode_func = fn};
  spvgen_coopmat_load_tensor(f.m, f.A, p, 0, spvgen_tensor_layout_create(f.m, f.L), NULL, &ops);
  EXPECT(f, "decode_func returns float32 but the matrix's components are float16 "
            "(SPV_NV_cooperative_matrix2: DecodeFunc returns the matrix's component type and takes "
            "a PhysicalStorageBuffer pointer and two arrays of 32-bit integers with the tensor's "
            "dimension)");
}

static void test_decode_func_takes_three_parameters(void) {
  fx f = setup(NULL, false);
  uint32_t fn = dummy_function(&f, f.f16, NULL, 0);
  spvgen_compute_main(f.m, "main", 32, 1, 1);
  uint32_t p = array_of(f.m, f.buf16, f.f16);
  spvgen_tensor_operands ops = {.decode_func = fn};
  spvgen_coopmat_load_tensor(f.m, f.A, p, 0, spvgen_tensor_layout_create(f.m, f.L), NULL, &ops);
  EXPECT(f, "decode_func has 0 parameters, not 3");
}

static void test_decode_func_first_parameter_is_a_physical_storage_buffer_pointer(void) {
  fx f = setup(NULL, false);
  uint32_t arr = spvgen_type_array(f.m, f.u32, 2);
  uint32_t fn = dummy_function(&f, f.f16, U32S(f.u32, arr, arr), 3);
  spvgen_compute_main(f.m, "main", 32, 1, 1);
  uint32_t p = array_of(f.m, f.buf16, f.f16);
  spvgen_tensor_operands ops = {.decode_func = fn};
  spvgen_coopmat_load_tensor(f.m, f.A, p, 0, spvgen_tensor_layout_create(f.m, f.L), NULL, &ops);
  EXPECT(f, "decode_func's first parameter is uint32, not a PhysicalStorageBuffer pointer");
}

static void test_decode_func_arrays_have_the_tensor_dimension(void) {
  spvgen_module_desc desc = {.addressing = SpvAddressingModelPhysicalStorageBuffer64};
  uint32_t params[3];
  fx f = setup(&desc, false);
  /* a 3-D decode function for a 2-D layout */
  uint32_t decode = spvgen_decode_func_begin(f.m, f.f16, f.f16, 3, params);
  spvgen_return_value(f.m, spvgen_const_bits(f.m, f.f16, 0));
  spvgen_function_end(f.m);
  spvgen_compute_main(f.m, "main", 32, 1, 1);
  uint32_t p = array_of(f.m, f.buf16, f.f16);
  spvgen_tensor_operands ops = {.decode_func = decode};
  spvgen_coopmat_load_tensor(f.m, f.A, p, 0, spvgen_tensor_layout_create(f.m, f.L), NULL, &ops);
  EXPECT(f, "decode_func's parameter 2 is array of 3 uint32; the tensor layout has 2 dimensions");
}

static void test_reduce_mode_is_row_column_or_2x2(void) {
  fx f = begin();
  spvgen_coopmat_reduce(f.m, f.C, f.c, 0x8, 1);
  EXPECT(f, "reduce 0x8 is not a combination of Row (0x1), Column (0x2) and 2x2 (0x4)");
}

static void test_reduce_2x2_is_not_combined_with_row_or_column(void) {
  fx f = begin();
  spvgen_coopmat_reduce(f.m, f.C, f.c, SpvCooperativeMatrixReduce2x2Mask |
                        SpvCooperativeMatrixReduceRowMask, 1);
  EXPECT(f, "spvgen_coopmat_reduce: 2x2 is combined with Row or Column (SPV_NV_cooperative_matrix2, "
            "Cooperative Matrix Reduce Mode: it is invalid to combine 2x2 with Row or Column)");
}

static void test_reduce_keeps_the_component_type(void) {
  fx f = begin();
  spvgen_coopmat_reduce(f.m, f.Ci, f.c, SpvCooperativeMatrixReduceRowMask, 1);
  EXPECT(f, "the result's components are int32 but the matrix's are float32");
}

static void test_reduce_needs_accumulators(void) {
  fx f = begin();
  uint32_t A16 = spvgen_type_coopmat(f.m, f.f32, SpvScopeSubgroup, 16, 16, 0);
  spvgen_coopmat_reduce(f.m, A16, f.c, SpvCooperativeMatrixReduceRowMask, 1);
  EXPECT(f, "Use is MatrixAKHR (result) and MatrixAccumulatorKHR (matrix) "
            "(SPV_NV_cooperative_matrix2: both have Use MatrixAccumulatorKHR)");
}

static void test_reduce_keeps_the_scope(void) {
  fx f = begin();
  uint32_t W = spvgen_type_coopmat(f.m, f.f32, SpvScopeWorkgroup, 16, 16, 2);
  spvgen_coopmat_reduce(f.m, W, f.c, SpvCooperativeMatrixReduceRowMask, 1);
  EXPECT(f, "the scopes differ: result Workgroup, matrix Subgroup");
}

static void test_reduce_2x2_halves_both_dimensions(void) {
  fx f = begin();
  spvgen_coopmat_reduce(f.m, f.C, f.c, SpvCooperativeMatrixReduce2x2Mask, 1);
  EXPECT(f, "a 2x2 reduction of 16x16 gives 8x8, not 16x16");
}

static void test_reduce_row_keeps_rows_and_column_keeps_columns(void) {
  fx f = begin();
  uint32_t R = spvgen_type_coopmat(f.m, f.f32, SpvScopeSubgroup, 8, 1, 2);
  spvgen_coopmat_reduce(f.m, R, f.c, SpvCooperativeMatrixReduceRowMask, 1);
  EXPECT(f, "a Row reduction keeps the rows: the matrix has 16, the result 8");
  f = begin();
  R = spvgen_type_coopmat(f.m, f.f32, SpvScopeSubgroup, 1, 8, 2);
  spvgen_coopmat_reduce(f.m, R, f.c, SpvCooperativeMatrixReduceColumnMask, 1);
  EXPECT(f, "a Column reduction keeps the columns: the matrix has 16, the result 8");
}

static void test_reduce_combine_func_is_a_function(void) {
  fx f = begin();
  spvgen_coopmat_reduce(f.m, f.C, f.c, SpvCooperativeMatrixReduceRowMask, f.zero);
  EXPECT(f, "combine_func (id");
}

static void test_reduce_combine_func_takes_two_components(void) {
  fx f = setup(NULL, false);
  uint32_t fn = dummy_function(&f, f.f32, U32S(f.f32), 1);
  spvgen_compute_main(f.m, "main", 32, 1, 1);
  uint32_t c = spvgen_coop_splat(f.m, f.C, spvgen_const_f32(f.m, 0.0f));
  spvgen_coopmat_reduce(f.m, f.C, c, SpvCooperativeMatrixReduceRowMask, fn);
  EXPECT(f, "combine_func must be float32 (float32, float32) (SPV_NV_cooperative_matrix2: "
            "CombineFunc has two parameters whose types and result type match the component type");
}

static void test_per_element_extra_operands_not_null_and_bounded(void) {
  fx f = begin();
  spvgen_coopmat_per_element(f.m, f.c, 1, NULL, 2);
  EXPECT(f, "extra is NULL with count 2");
  f = begin();
  uint32_t extra[17] = {0};
  spvgen_coopmat_per_element(f.m, f.c, 1, extra, 17);
  EXPECT(f, "17 extra operands is too many");
}

static void test_per_element_func_is_a_function(void) {
  fx f = begin();
  spvgen_coopmat_per_element(f.m, f.c, f.zero, NULL, 0);
  EXPECT(f, "func (id");
}

static fx per_element_setup(uint32_t ret_kind, const uint32_t *params_kind, uint32_t n,
                            uint32_t *fn) {
  fx f = setup(NULL, false);
  uint32_t types[8];
  for (uint32_t i = 0; i < n; i++) {
    uint32_t k = params_kind[i];
    types[i] = k == 0 ? f.u32 : k == 1 ? f.f32 : f.f16;
  }
  *fn = dummy_function(&f, ret_kind == 1 ? f.f32 : f.f16, types, n);
  spvgen_compute_main(f.m, "main", 32, 1, 1);
  f.c = spvgen_coop_splat(f.m, f.C, spvgen_const_f32(f.m, 0.0f));
  return f;
}

static void test_per_element_func_returns_the_component_type(void) {
  uint32_t fn;
  fx f = per_element_setup(2, U32S(0, 0, 1), 3, &fn);
  spvgen_coopmat_per_element(f.m, f.c, fn, NULL, 0);
  EXPECT(f, "func returns float16 but the matrix's components are float32 "
            "(SPV_NV_cooperative_matrix2, OpCooperativeMatrixPerElementOpNV: Func returns the "
            "component type and takes (32-bit int row, 32-bit int column, component, operands...)");
}

static void test_per_element_func_takes_three_parameters_plus_the_extras(void) {
  uint32_t fn;
  fx f = per_element_setup(1, U32S(0, 0, 1), 3, &fn);
  spvgen_coopmat_per_element(f.m, f.c, fn, U32S(f.c), 1);
  EXPECT(f, "func has 3 parameters but 4 are passed (3 + 1 extra operands)");
}

static void test_per_element_func_takes_row_column_and_element(void) {
  uint32_t fn;
  fx f = per_element_setup(1, U32S(0, 1, 1), 3, &fn);
  spvgen_coopmat_per_element(f.m, f.c, fn, NULL, 0);
  EXPECT(f, "func's first three parameters are not (int32/uint32, int32/uint32, float32)");
}

static void test_per_element_extra_operands_are_values(void) {
  uint32_t fn;
  fx f = per_element_setup(1, U32S(0, 0, 1, 1), 4, &fn);
  spvgen_coopmat_per_element(f.m, f.c, fn, U32S(f.C), 1);
  EXPECT(f, "extra operand 0 (id");
}

static void test_per_element_extra_operands_match_the_parameters(void) {
  uint32_t fn;
  fx f = per_element_setup(1, U32S(0, 0, 1, 2), 4, &fn);
  spvgen_coopmat_per_element(f.m, f.c, fn, U32S(f.c), 1); /* passes float32, parameter is float16 */
  EXPECT(f, "extra operand 0 passes float32 but func's parameter 4 is float16");
}

static void test_convert_use_keeps_component_scope_and_shape(void) {
  fx f = begin();
  spvgen_coopmat_convert_use(f.m, f.A, f.c);
  EXPECT(f, "cannot become coopmat<float16, Subgroup, 16x8, MatrixAKHR> (SPV_NV_cooperative_matrix2, "
            "OpCooperativeMatrixConvertNV: the same Component Type, Scope, Rows and Columns; Use "
            "MatrixAccumulatorKHR to MatrixAKHR or MatrixBKHR; use spvgen_coop_convert to change the "
            "component type)");
}

static void test_convert_use_goes_from_accumulator_to_a_or_b(void) {
  fx f = begin();
  spvgen_coopmat_convert_use(f.m, f.C, f.c);
  EXPECT(f, "spvgen_coopmat_convert_use: Use MatrixAccumulatorKHR to MatrixAccumulatorKHR");
}

static void test_transpose_goes_from_accumulator_to_b(void) {
  fx f = begin();
  uint32_t A16 = spvgen_type_coopmat(f.m, f.f32, SpvScopeSubgroup, 16, 16, 0);
  spvgen_coopmat_transpose(f.m, A16, f.c);
  EXPECT(f, "spvgen_coopmat_transpose: Use MatrixAccumulatorKHR to MatrixAKHR "
            "(SPV_NV_cooperative_matrix2, OpCooperativeMatrixTransposeNV: MatrixAccumulatorKHR R x C "
            "to MatrixBKHR C x R, same Scope)");
}

static void test_transpose_swaps_rows_and_columns(void) {
  fx f = begin();
  uint32_t Acc = spvgen_type_coopmat(f.m, f.f16, SpvScopeSubgroup, 16, 8, 2);
  uint32_t acc = spvgen_coop_splat(f.m, Acc, spvgen_const_bits(f.m, f.f16, 0));
  spvgen_coopmat_transpose(f.m, spvgen_type_coopmat(f.m, f.f16, SpvScopeSubgroup, 16, 8, 1), acc);
  EXPECT(f, "a 16x8 Subgroup matrix transposes to 8x16 Subgroup, not 16x8 Subgroup");
}

static void test_callback_extra_parameter_types_not_null_and_bounded(void) {
  fx f = setup(NULL, false);
  spvgen_type_per_element_func(f.m, f.f32, NULL, 1);
  EXPECT(f, "extra_types is NULL with count 1");
  f = setup(NULL, false);
  uint32_t types[17];
  for (int i = 0; i < 17; i++) types[i] = f.f32;
  spvgen_per_element_func_begin(f.m, f.f32, types, 17, NULL);
  EXPECT(f, "17 extra parameters is too many");
}

static void test_callback_component_is_a_scalar_numerical_type(void) {
  fx f = setup(NULL, false);
  spvgen_type_combine_func(f.m, f.V8);
  EXPECT(f, "(SPV_NV_cooperative_matrix2: the callbacks work on the matrix's component type)");
  f = setup(NULL, false);
  spvgen_combine_func_begin(f.m, f.boolean, NULL);
  EXPECT(f, "spvgen_combine_func_begin: component is bool");
}

static void test_decode_func_needs_physical_storage_buffer_addressing(void) {
  fx f = setup(NULL, false);
  spvgen_type_decode_func(f.m, f.f16, f.f16, 2);
  EXPECT(f, "the module's addressing model is 0; a DecodeFunc's pointer needs PhysicalStorageBuffer64 "
            "(spvgen_module_desc.addressing = 5348)");
}

static void test_decode_func_dimension_and_pointee(void) {
  spvgen_module_desc desc = {.addressing = SpvAddressingModelPhysicalStorageBuffer64};
  fx f = setup(&desc, false);
  spvgen_type_decode_func(f.m, f.f16, f.f16, 0);
  EXPECT(f, "spvgen_type_decode_func: tensor dimension 0 is outside [1, 5]");
  f = setup(&desc, false);
  spvgen_decode_func_begin(f.m, f.f16, f.zero, 2, NULL);
  EXPECT(f, "spvgen_decode_func_begin: pointee (id");
}

static void test_callbacks_begin_outside_other_functions(void) {
  fx f = begin();
  spvgen_combine_func_begin(f.m, f.f32, NULL);
  EXPECT_STATUS(f, SPVGEN_ERROR_INVALID_STATE, "is still open; begin callbacks outside other functions");
}

/* ============================================= SPV_NV_cooperative_vector ==== */

static void test_coopvec_count_is_a_constant_of_at_least_one(void) {
  fx f = begin();
  spvgen_type_coopvec_id(f.m, f.f16, f.x);
  EXPECT(f, "(SPV_NV_cooperative_vector: Component Count is a constant instruction of integer type)");
  f = begin();
  spvgen_type_coopvec_id(f.m, f.f16, f.zero);
  EXPECT(f, "spvgen_type_coopvec_id: component count 0 (SPV_NV_cooperative_vector: Component Count "
            "must be at least 1)");
  f = begin();
  spvgen_type_coopvec(f.m, f.f16, 0);
  EXPECT(f, "spvgen_type_coopvec: component count 0");
}

static void test_coopvec_load_store_arrays_are_in_buffer_or_shared_storage(void) {
  fx f = begin();
  uint32_t at = spvgen_type_array_id(f.m, f.f16, f.sixteen);
  uint32_t var = spvgen_variable(f.m, spvgen_type_pointer(f.m, SpvStorageClassFunction, at),
                                 SpvStorageClassFunction, 0);
  spvgen_coopvec_load(f.m, f.V8, var, 0, NULL);
  EXPECT(f, "pointer's storage class is 7 (GLSL_NV_cooperative_vector: the array must be in buffer "
            "or shared storage (StorageBuffer, PhysicalStorageBuffer or Workgroup))");
}

static void test_coopvec_matrix_and_bias_are_in_buffer_storage(void) {
  fx f = begin();
  uint32_t at = spvgen_type_array_id(f.m, f.f16, f.sixteen);
  uint32_t sh = spvgen_variable(f.m, spvgen_type_pointer(f.m, SpvStorageClassWorkgroup, at),
                                SpvStorageClassWorkgroup, 0);
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.matrix = sh});
  EXPECT(f, "matrix's storage class is 4 (GLSL_NV_cooperative_vector: the array must be in buffer "
            "storage (StorageBuffer or PhysicalStorageBuffer))");
}

static void test_coopvec_pointers_point_to_arrays(void) {
  fx f = begin();
  spvgen_coopvec_load(f.m, f.V8, f.p16, 0, NULL);
  EXPECT(f, "pointer points to float16; it must point to an array of scalars or vectors, e.g. the "
            "runtime array member of a buffer block (SPV_NV_cooperative_vector: Pointer points to an "
            "array)");
}

static void test_coopvec_interpretations_are_32_bit_integer_constants(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.input_interpretation_id = f.x});
  EXPECT(f, "input_interpretation_id (id");
}

static void test_coopvec_interpretations_are_component_types(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.matrix_interpretation = 11});
  EXPECT(f, "matrix_interpretation 11 is not a ComponentType");
}

static void test_coopvec_packed_interpretations_are_for_the_input_only(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.matrix_interpretation = SpvComponentTypeUnsignedInt8PackedNV});
  EXPECT(f, "matrix_interpretation is UnsignedInt8PackedNV; packed interpretations are for the input "
            "only");
  f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.bias = f.arr16,
                                               .bias_interpretation = SpvComponentTypeSignedInt8PackedNV});
  EXPECT(f, "bias_interpretation is SignedInt8PackedNV");
  f = begin();
  spvgen_coopvec_outer_product_accumulate(
      f.m, &(spvgen_coopvec_outer_product_desc){.pointer = f.arr16, .a = f.v8, .b = f.v8,
                                                .matrix_interpretation = SpvComponentTypeSignedInt8PackedNV});
  EXPECT(f, "spvgen_coopvec_outer_product_accumulate: matrix_interpretation is SignedInt8PackedNV");
}

static void test_coopvec_layout_is_a_constant_layout(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.layout_id = f.x});
  EXPECT(f, "layout_id (id");
  f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.layout = 4});
  EXPECT(f, "layout 4 is not a CooperativeVectorMatrixLayout");
}

static void test_coopvec_stride_is_a_32_bit_integer(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.matrix_stride_id = f.x});
  char expected[160];
  snprintf(expected, sizeof expected, "spvgen_coopvec_matmul: matrix_stride_id is id %u, a value "
           "of type float16; expected the id of a 32-bit integer value", f.x);
  EXPECT(f, expected);
}

static void test_coopvec_linear_layout_strides_are_multiples_of_16(void) {
  static const char rule[] = "(GLSL_NV_cooperative_vector: with RowMajorNV or ColumnMajorNV the "
                             "stride must be a multiple of 16)";
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.matrix_stride = 24});
  EXPECT(f, "matrix stride 24 is not a multiple of 16");
  f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.matrix_stride_id = spvgen_const_u32(f.m, 40)});
  EXPECT(f, rule);
  f = begin(); /* the tight stride of a 6-element float16 row is 12 bytes */
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.input = spvgen_coop_splat(
                                                   f.m, spvgen_type_coopvec(f.m, f.f16, 6), f.x)});
  EXPECT(f, "matrix stride 12 is not a multiple of 16");
  f = begin();
  spvgen_coopvec_outer_product_accumulate(
      f.m, &(spvgen_coopvec_outer_product_desc){.pointer = f.arr16, .a = f.v8, .b = f.v8,
                                                .matrix_stride = 8});
  EXPECT(f, "spvgen_coopvec_outer_product_accumulate: matrix stride 8 is not a multiple of 16");
}

static void test_coopvec_stride_needs_known_dimensions_or_layout(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.k_id = spvgen_spec_const_u32(f.m, 8, 0)});
  EXPECT(f, "the tight stride is unknown (a dimension is a specialization constant): give "
            "matrix_stride or matrix_stride_id");
  f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.layout_id = spvgen_spec_const_u32(f.m, 0, 0)});
  EXPECT(f, "spvgen_coopvec_matmul: the layout is a specialization constant: give matrix_stride or "
            "matrix_stride_id");
  f = begin();
  spvgen_coopvec_outer_product_accumulate(
      f.m, &(spvgen_coopvec_outer_product_desc){.pointer = f.arr16, .a = f.v8, .b = f.v8,
                                                .layout_id = spvgen_spec_const_u32(f.m, 0, 0)});
  EXPECT(f, "spvgen_coopvec_outer_product_accumulate: the layout is a specialization constant");
}

static void test_coopvec_desc_not_null(void) {
  fx f = begin();
  spvgen_coopvec_matmul(f.m, NULL);
  EXPECT(f, "spvgen_coopvec_matmul: desc is NULL");
  f = begin();
  spvgen_coopvec_outer_product_accumulate(f.m, NULL);
  EXPECT(f, "spvgen_coopvec_outer_product_accumulate: desc is NULL");
}

static void test_coopvec_matmul_add_has_a_bias_and_matmul_has_none(void) {
  fx f = begin();
  spvgen_coopvec_matmul_add(f.m, &(spvgen_coopvec_matmul_desc){.result_type = f.V16,
                                                               .input = f.v8, .matrix = f.arr16});
  EXPECT(f, "desc->bias is 0 (spvgen_coopvec_matmul multiplies without a bias)");
  f = begin();
  spvgen_coopvec_matmul(f.m, &(spvgen_coopvec_matmul_desc){.result_type = f.V16, .input = f.v8,
                                                           .matrix = f.arr16, .bias = f.arr16});
  EXPECT(f, "desc->bias is set (spvgen_coopvec_matmul_add adds a bias)");
}

static void test_coopvec_result_components_are_32_bit_ints_or_16_32_bit_floats(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.result_type = spvgen_type_coopvec(f.m, f.s8, 16)});
  EXPECT(f, "the result's components are int8 (SPV_NV_cooperative_vector: the result component "
            "type is a 32-bit integer or a 16- or 32-bit float)");
}

static void test_coopvec_packed_input_is_uint32(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.input_interpretation = SpvComponentTypeSignedInt8PackedNV});
  EXPECT(f, "the input's components are float16 but SignedInt8PackedNV is a packed interpretation "
            "(GLSL_NV_cooperative_vector: with a packed inputInterpretation the input type must be "
            "uint32_t)");
}

static void test_coopvec_m_and_k_are_constants(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.m_id = f.x});
  EXPECT(f, "m_id (id");
  f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.k_id = f.x});
  EXPECT(f, "k_id (id");
}

static void test_coopvec_m_and_k_default_needs_known_lengths(void) {
  fx f = begin();
  uint32_t Rs = spvgen_type_coopvec_id(f.m, f.f16, spvgen_spec_const_u32(f.m, 16, 0));
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.result_type = Rs});
  EXPECT(f, "m is 0 and the result's length is a specialization constant: give m or m_id");
  f = begin();
  uint32_t Is = spvgen_type_coopvec_id(f.m, f.f16, spvgen_spec_const_u32(f.m, 8, 0));
  uint32_t in = spvgen_coopvec_load(f.m, Is, f.arr16, 0, NULL);
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.input = in});
  EXPECT(f, "k is 0 and the input's length is a specialization constant: give k or k_id");
}

static void test_coopvec_m_and_k_are_at_least_one(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.m_id = f.zero});
  EXPECT(f, "M 0 x K 8 is empty (both are at least 1)");
}

static void test_coopvec_result_components_equal_m(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.m = 32});
  EXPECT(f, "spvgen_coopvec_matmul: the result has 16 components but M is 32 "
            "(SPV_NV_cooperative_vector: M must equal the result's component count)");
}

static void test_coopvec_k_fits_in_the_packed_input(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.input = f.u4, .k = 20,
                                               .input_interpretation = SpvComponentTypeUnsignedInt8PackedNV,
                                               .matrix_interpretation = SpvComponentTypeUnsignedInt8NV});
  EXPECT(f, "K is 20 but the input's 4 32-bit components hold only 16 packed 8-bit values "
            "(GLSL_NV_cooperative_vector: the input vector must have enough components to hold K "
            "values of the packed type)");
}

static void test_coopvec_unpacked_input_has_k_components(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.k = 16});
  EXPECT(f, "the input has 8 components but K is 16 (SPV_NV_cooperative_vector: with a non-packed "
            "InputInterpretation the input has K components)");
}

static void test_coopvec_transpose_is_a_bool_constant(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.transpose_id = f.zero});
  EXPECT(f, "transpose_id (id");
}

static void test_coopvec_transpose_is_not_supported_with_row_or_column_major(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.transpose = true});
  EXPECT(f, "transpose with the RowMajorNV layout (GLSL_NV_cooperative_vector: transposing is not "
            "supported for the RowMajorNV/ColumnMajorNV layouts)");
}

static void test_coopvec_matrix_offset_is_a_multiple_of_64(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.matrix_offset = spvgen_const_u32(f.m, 32)});
  EXPECT(f, "matrix_offset 32 is not a multiple of 64 (GLSL_NV_cooperative_vector: matrixOffset must "
            "be 64B aligned)");
}

static void test_coopvec_bias_offset_is_a_multiple_of_16(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.bias = f.arr16,
                                               .bias_offset = spvgen_const_u32(f.m, 8)});
  EXPECT(f, "bias_offset 8 is not a multiple of 16 (GLSL_NV_cooperative_vector: biasOffset must be "
            "16B aligned)");
}

static void test_coopvec_matmul_operands_are_cooperative_matrix_operands(void) {
  fx f = begin();
  matmul_with(&f, (spvgen_coopvec_matmul_desc){.operands = 0x40});
  EXPECT(f, "spvgen_coopvec_matmul: operand bits 0x40 are not CooperativeMatrixOperands");
}

static void test_coopvec_outer_product_vectors_share_a_component_type(void) {
  fx f = begin();
  uint32_t w = spvgen_coop_splat(f.m, spvgen_type_coopvec(f.m, f.f32, 8), spvgen_const_f32(f.m, 1));
  spvgen_coopvec_outer_product_accumulate(
      f.m, &(spvgen_coopvec_outer_product_desc){.pointer = f.arr16, .a = f.v8, .b = w});
  EXPECT(f, "a's components are float16 but b's are float32 (SPV_NV_cooperative_vector: A and B "
            "have the same component type)");
}

static void test_coopvec_training_offsets_are_multiples_of_16(void) {
  fx f = begin();
  spvgen_coopvec_outer_product_accumulate(
      f.m, &(spvgen_coopvec_outer_product_desc){.pointer = f.arr16, .a = f.v8, .b = f.v8,
                                                .offset = spvgen_const_u32(f.m, 4)});
  EXPECT(f, "spvgen_coopvec_outer_product_accumulate: offset 4 is not a multiple of 16");
  f = begin();
  spvgen_coopvec_reduce_sum_accumulate(f.m, f.arr16, f.v8, spvgen_const_u32(f.m, 20));
  EXPECT(f, "spvgen_coopvec_reduce_sum_accumulate: offset 20 is not a multiple of 16");
}

static void test_coopvec_math_operands_have_one_type(void) {
  fx f = begin();
  spvgen_coopvec_max(f.m, f.v8, f.v16);
  EXPECT(f, "spvgen_coopvec_max: operand 2 has type coopvec<float16, 16>, operand 1 coopvec<float16, "
            "8> (GLSL_NV_cooperative_vector 5.9: the operands of max have one cooperative vector "
            "type)");
}

static void test_coopvec_float_functions_need_float_components(void) {
  fx f = begin();
  spvgen_coopvec_exp(f.m, f.u4);
  EXPECT(f, "exp needs float components, not uint32 (GLSL_NV_cooperative_vector 5.9: the function "
            "must be supported for the component type)");
}

/* ======================================================= sticky errors ==== */

static void test_the_first_error_sticks(void) {
  fx f = begin();
  spvgen_coopvec_matmul(f.m, NULL);
  CHECK_EQ_U64(spvgen_type_coopvec(f.m, f.f16, 4), 0);
  CHECK_EQ_U64(spvgen_coop_splat(f.m, f.V8, f.x), 0);
  EXPECT(f, "spvgen_coopvec_matmul: desc is NULL");
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_matrix_type_arguments_must_be_cooperative_matrix_types),
      TEST_CASE(test_matrix_operands_must_be_values),
      TEST_CASE(test_matrix_operands_must_have_cooperative_matrix_types),
      TEST_CASE(test_vector_type_arguments_must_be_cooperative_vector_types),
      TEST_CASE(test_vector_operands_must_be_values),
      TEST_CASE(test_vector_operands_must_have_cooperative_vector_types),
      TEST_CASE(test_pointers_must_be_values),
      TEST_CASE(test_pointers_must_have_pointer_types),
      TEST_CASE(test_component_types_must_be_scalar_numerical_types),
      TEST_CASE(test_offsets_must_be_32_bit_integers),
      TEST_CASE(test_vector_load_store_offsets_must_be_multiples_of_16),
      TEST_CASE(test_memory_operands_are_the_supported_bits),
      TEST_CASE(test_make_pointer_available_is_not_valid_on_loads),
      TEST_CASE(test_make_pointer_visible_is_not_valid_on_stores),
      TEST_CASE(test_make_pointer_available_and_visible_need_non_private_pointer),
      TEST_CASE(test_aligned_takes_a_power_of_two),
      TEST_CASE(test_interpretation_must_be_a_component_type),
      TEST_CASE(test_coopmat_scope_rows_cols_use_must_be_integer_constants),
      TEST_CASE(test_coopmat_scope_is_subgroup_or_workgroup),
      TEST_CASE(test_coopmat_rows_and_columns_are_at_least_one),
      TEST_CASE(test_coopmat_use_is_a_cooperative_matrix_use),
      TEST_CASE(test_coopmat_load_pointer_storage_class),
      TEST_CASE(test_coopmat_load_pointer_points_to_an_element),
      TEST_CASE(test_coopmat_layout_must_be_a_constant),
      TEST_CASE(test_coopmat_layout_must_be_a_cooperative_matrix_layout),
      TEST_CASE(test_coopmat_stride_must_be_an_integer),
      TEST_CASE(test_coopmat_row_and_column_major_need_a_stride),
      TEST_CASE(test_coopmat_blocked_arm_layouts_need_stride_1_2_or_4),
      TEST_CASE(test_coopmat_memory_operands_follow_the_stride),
      TEST_CASE(test_muladd_a_has_use_matrix_a),
      TEST_CASE(test_muladd_b_has_use_matrix_b),
      TEST_CASE(test_muladd_c_has_use_accumulator),
      TEST_CASE(test_muladd_result_has_use_accumulator),
      TEST_CASE(test_muladd_matrices_have_one_scope),
      TEST_CASE(test_muladd_m_matches),
      TEST_CASE(test_muladd_n_matches),
      TEST_CASE(test_muladd_k_matches),
      TEST_CASE(test_muladd_operands_are_cooperative_matrix_operands),
      TEST_CASE(test_signedness_operands_need_integer_matrices),
      TEST_CASE(test_saturating_accumulation_needs_integer_accumulators),
      TEST_CASE(test_composite_operands_must_be_values),
      TEST_CASE(test_composite_operands_must_be_cooperative),
      TEST_CASE(test_scalars_must_have_the_component_type),
      TEST_CASE(test_splat_type_must_be_cooperative),
      TEST_CASE(test_splat_needs_a_known_vector_length),
      TEST_CASE(test_splat_and_construct_limit_the_component_count),
      TEST_CASE(test_construct_parts_not_null),
      TEST_CASE(test_construct_takes_one_part_per_component),
      TEST_CASE(test_vector_component_index_in_range),
      TEST_CASE(test_arithmetic_operands_have_one_type),
      TEST_CASE(test_arithmetic_opcode_fits_the_component_type),
      TEST_CASE(test_udiv_needs_unsigned_components),
      TEST_CASE(test_bitwise_not_needs_integer_vectors),
      TEST_CASE(test_conversion_result_is_the_same_kind),
      TEST_CASE(test_matrix_conversion_keeps_scope_and_shape),
      TEST_CASE(test_matrix_conversion_changes_use_only_from_accumulator),
      TEST_CASE(test_vector_conversion_keeps_the_length),
      TEST_CASE(test_conversion_changes_the_component_type),
      TEST_CASE(test_bitcast_conversion_cannot_change_use),
      TEST_CASE(test_unsigned_to_wider_signed_conversion_goes_through_unsigned),
      TEST_CASE(test_workgroup_scope_matrix_needs_the_workgroup_size_first),
      TEST_CASE(test_tensor_dim_and_clamp_mode_are_32_bit_integer_constants),
      TEST_CASE(test_tensor_dimension_is_1_to_5),
      TEST_CASE(test_tensor_clamp_mode_is_a_tensor_clamp_mode),
      TEST_CASE(test_tensor_view_has_dimensions_is_a_bool_constant),
      TEST_CASE(test_tensor_view_permutation_not_null),
      TEST_CASE(test_tensor_view_has_one_permutation_value_per_dimension),
      TEST_CASE(test_tensor_view_permutation_is_a_permutation),
      TEST_CASE(test_tensor_instructions_take_a_tensor_layout_or_view),
      TEST_CASE(test_tensor_instruction_values_not_null),
      TEST_CASE(test_tensor_instructions_take_one_value_per_dimension),
      TEST_CASE(test_tensor_instruction_value_count_is_bounded),
      TEST_CASE(test_tensor_instruction_values_are_32_bit_integers),
      TEST_CASE(test_tensor_create_takes_the_matching_type),
      TEST_CASE(test_tensor_load_pointer_storage_class),
      TEST_CASE(test_tensor_load_object_has_the_result_type),
      TEST_CASE(test_decode_func_is_not_allowed_on_stores),
      TEST_CASE(test_decode_func_needs_buffer_storage),
      TEST_CASE(test_decode_func_is_a_function),
      TEST_CASE(test_decode_func_returns_the_component_type),
      TEST_CASE(test_decode_func_takes_three_parameters),
      TEST_CASE(test_decode_func_first_parameter_is_a_physical_storage_buffer_pointer),
      TEST_CASE(test_decode_func_arrays_have_the_tensor_dimension),
      TEST_CASE(test_reduce_mode_is_row_column_or_2x2),
      TEST_CASE(test_reduce_2x2_is_not_combined_with_row_or_column),
      TEST_CASE(test_reduce_keeps_the_component_type),
      TEST_CASE(test_reduce_needs_accumulators),
      TEST_CASE(test_reduce_keeps_the_scope),
      TEST_CASE(test_reduce_2x2_halves_both_dimensions),
      TEST_CASE(test_reduce_row_keeps_rows_and_column_keeps_columns),
      TEST_CASE(test_reduce_combine_func_is_a_function),
      TEST_CASE(test_reduce_combine_func_takes_two_components),
      TEST_CASE(test_per_element_extra_operands_not_null_and_bounded),
      TEST_CASE(test_per_element_func_is_a_function),
      TEST_CASE(test_per_element_func_returns_the_component_type),
      TEST_CASE(test_per_element_func_takes_three_parameters_plus_the_extras),
      TEST_CASE(test_per_element_func_takes_row_column_and_element),
      TEST_CASE(test_per_element_extra_operands_are_values),
      TEST_CASE(test_per_element_extra_operands_match_the_parameters),
      TEST_CASE(test_convert_use_keeps_component_scope_and_shape),
      TEST_CASE(test_convert_use_goes_from_accumulator_to_a_or_b),
      TEST_CASE(test_transpose_goes_from_accumulator_to_b),
      TEST_CASE(test_transpose_swaps_rows_and_columns),
      TEST_CASE(test_callback_extra_parameter_types_not_null_and_bounded),
      TEST_CASE(test_callback_component_is_a_scalar_numerical_type),
      TEST_CASE(test_decode_func_needs_physical_storage_buffer_addressing),
      TEST_CASE(test_decode_func_dimension_and_pointee),
      TEST_CASE(test_callbacks_begin_outside_other_functions),
      TEST_CASE(test_coopvec_count_is_a_constant_of_at_least_one),
      TEST_CASE(test_coopvec_load_store_arrays_are_in_buffer_or_shared_storage),
      TEST_CASE(test_coopvec_matrix_and_bias_are_in_buffer_storage),
      TEST_CASE(test_coopvec_pointers_point_to_arrays),
      TEST_CASE(test_coopvec_interpretations_are_32_bit_integer_constants),
      TEST_CASE(test_coopvec_interpretations_are_component_types),
      TEST_CASE(test_coopvec_packed_interpretations_are_for_the_input_only),
      TEST_CASE(test_coopvec_layout_is_a_constant_layout),
      TEST_CASE(test_coopvec_stride_is_a_32_bit_integer),
      TEST_CASE(test_coopvec_linear_layout_strides_are_multiples_of_16),
      TEST_CASE(test_coopvec_stride_needs_known_dimensions_or_layout),
      TEST_CASE(test_coopvec_desc_not_null),
      TEST_CASE(test_coopvec_matmul_add_has_a_bias_and_matmul_has_none),
      TEST_CASE(test_coopvec_result_components_are_32_bit_ints_or_16_32_bit_floats),
      TEST_CASE(test_coopvec_packed_input_is_uint32),
      TEST_CASE(test_coopvec_m_and_k_are_constants),
      TEST_CASE(test_coopvec_m_and_k_default_needs_known_lengths),
      TEST_CASE(test_coopvec_m_and_k_are_at_least_one),
      TEST_CASE(test_coopvec_result_components_equal_m),
      TEST_CASE(test_coopvec_k_fits_in_the_packed_input),
      TEST_CASE(test_coopvec_unpacked_input_has_k_components),
      TEST_CASE(test_coopvec_transpose_is_a_bool_constant),
      TEST_CASE(test_coopvec_transpose_is_not_supported_with_row_or_column_major),
      TEST_CASE(test_coopvec_matrix_offset_is_a_multiple_of_64),
      TEST_CASE(test_coopvec_bias_offset_is_a_multiple_of_16),
      TEST_CASE(test_coopvec_matmul_operands_are_cooperative_matrix_operands),
      TEST_CASE(test_coopvec_outer_product_vectors_share_a_component_type),
      TEST_CASE(test_coopvec_training_offsets_are_multiples_of_16),
      TEST_CASE(test_coopvec_math_operands_have_one_type),
      TEST_CASE(test_coopvec_float_functions_need_float_components),
      TEST_CASE(test_the_first_error_sticks),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
