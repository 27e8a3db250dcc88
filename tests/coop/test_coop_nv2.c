/* tests/coop/test_coop_nv2.c — the SPV_NV_cooperative_matrix2 / SPV_NV_tensor_addressing
 * helpers of spvgen/coop.h: workgroup-scope matrices, tensor layout and view types and
 * every OpTensorLayout.. and OpTensorView.. instruction, tensor loads and stores with their
 * memory and tensor-addressing operands, reductions, per-element operations, Use
 * conversion, transposition and the callback function types. Each module validates
 * (Vulkan 1.3) and its disassembly has the instruction with the expected operands; the
 * last test is a whole workgroup-scope GEMM tile with clamped edges and a row reduction. */
#include <string.h>

#include "coop_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/coop.h"

#define U32S(...) ((const uint32_t[]){__VA_ARGS__})

/* ----------------------------------------------------------------- fixture ---- */

typedef coop_fixture fixture;

static uint32_t wmat(fixture *f, uint32_t component, uint32_t rows, uint32_t cols,
                     SpvCooperativeMatrixUse use) {
  return spvgen_type_coopmat(f->m, component, SpvScopeWorkgroup, rows, cols, use);
}

static uint32_t c(fixture *f, uint32_t v) { return spvgen_const_u32(f->m, v); }

/* ---------------------------------------------------------------- types ---- */

static void test_workgroup_scope_matrix_declares_cooperative_matrix2(void) {
  fixture f = coop_begin(64, 0);
  coop_named(f.m, wmat(&f, f.f16, 64, 32, SpvCooperativeMatrixUseMatrixAKHR), "A");
  const char *lines[] = {
      "OpExtension \"SPV_NV_cooperative_matrix2\"",
      "%A = OpTypeCooperativeMatrixKHR %half %uint_2 %uint_64 %uint_32 %uint_0",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* SPV_NV_cooperative_matrix2: "the workgroup size must have already been specified in the
 * module, including any constant instructions used by LocalSizeId" — here by LocalSizeId
 * with specialization constants defined before the type. */
static void test_workgroup_scope_matrix_after_local_size_id(void) {
  fixture f = coop_setup(NULL, 0);
  uint32_t x = coop_named(f.m, spvgen_spec_const_u32(f.m, 128, 0), "size_x");
  uint32_t one = c(&f, 1);
  uint32_t fn = coop_named(f.m, spvgen_function_begin(f.m, spvgen_type_void(f.m),
                                                 SpvFunctionControlMaskNone, NULL, 0, NULL), "main");
  spvgen_entry_point(f.m, SpvExecutionModelGLCompute, fn, "main", SPVGEN_INTERFACE_ALL);
  spvgen_execution_mode_id(f.m, fn, SpvExecutionModeLocalSizeId, U32S(x, one, one), 3);
  coop_named(f.m, wmat(&f, f.f16, 32, 32, SpvCooperativeMatrixUseMatrixAKHR), "A");
  const char *lines[] = {
      "OpExecutionModeId %main LocalSizeId %size_x %uint_1 %uint_1",
      "%size_x = OpSpecConstant %uint 128",
      "%A = OpTypeCooperativeMatrixKHR %half %uint_2 %uint_32 %uint_32 %uint_0",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_tensor_layout_type_takes_dimension_and_clamp_mode(void) {
  fixture f = coop_begin(64, 0);
  coop_named(f.m, spvgen_type_tensor_layout(f.m, 2, SpvTensorClampModeConstant), "L2c");
  coop_named(f.m, spvgen_type_tensor_layout(f.m, 5, SpvTensorClampModeRepeatMirrored), "L5m");
  coop_named(f.m, spvgen_type_tensor_layout(f.m, 3, SpvTensorClampModeRepeat), "L3r");
  coop_named(f.m, spvgen_type_tensor_layout(f.m, 4, SpvTensorClampModeClampToEdge), "L4e");
  coop_named(f.m, spvgen_type_tensor_layout(f.m, 1, SpvTensorClampModeUndefined), "L1u");
  const char *lines[] = {
      "OpCapability TensorAddressingNV",
      "OpExtension \"SPV_NV_tensor_addressing\"",
      "%L2c = OpTypeTensorLayoutNV %uint_2 %uint_1",
      "%L5m = OpTypeTensorLayoutNV %uint_5 %uint_4",
      "%L3r = OpTypeTensorLayoutNV %uint_3 %uint_3",
      "%L4e = OpTypeTensorLayoutNV %uint_4 %uint_2",
      "%L1u = OpTypeTensorLayoutNV %uint_1 %uint_0",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_tensor_layout_type_id_takes_specialization_constants(void) {
  fixture f = coop_begin(64, 0);
  uint32_t clamp = coop_named(f.m, spvgen_spec_const_u32(f.m, 1, 0), "clamp");
  coop_named(f.m, spvgen_type_tensor_layout_id(f.m, c(&f, 3), clamp), "L");
  const char *lines[] = {"%L = OpTypeTensorLayoutNV %uint_3 %clamp"};
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_tensor_view_type_takes_dimension_has_dimensions_and_permutation(void) {
  fixture f = coop_begin(64, 0);
  coop_named(f.m, spvgen_type_tensor_view(f.m, 2, false, U32S(1, 0)), "Vt");
  coop_named(f.m, spvgen_type_tensor_view(f.m, 3, true, NULL), "V3");
  const char *lines[] = {
      "%Vt = OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_0",
      "%V3 = OpTypeTensorViewNV %uint_3 %true %uint_0 %uint_1 %uint_2",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_tensor_view_type_id_takes_ids(void) {
  fixture f = coop_begin(64, 0);
  uint32_t has = coop_named(f.m, spvgen_spec_const_bool(f.m, true, 3), "has");
  coop_named(f.m, spvgen_type_tensor_view_id(f.m, c(&f, 2), has, U32S(c(&f, 1), c(&f, 0)), 2), "V");
  const char *lines[] = {"%V = OpTypeTensorViewNV %uint_2 %has %uint_1 %uint_0"};
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ------------------------------------------------------ layout/view ops ---- */

static void test_every_tensor_layout_instruction(void) {
  fixture f = coop_begin(64, 0);
  uint32_t L = coop_named(f.m, spvgen_type_tensor_layout(f.m, 2, SpvTensorClampModeConstant), "L");
  uint32_t t0 = coop_named(f.m, spvgen_tensor_layout_create(f.m, L), "t0");
  uint32_t t1 = coop_named(f.m, spvgen_tensor_layout_set_block_size(f.m, t0, U32S(c(&f, 1), c(&f, 4)), 2),
                      "t1");
  uint32_t t2 = coop_named(f.m, spvgen_tensor_layout_set_dimension(f.m, t1, U32S(c(&f, 256), c(&f, 128)),
                                                              2), "t2");
  uint32_t t3 = coop_named(f.m, spvgen_tensor_layout_set_stride(f.m, t2, U32S(c(&f, 160), c(&f, 1)), 2),
                      "t3");
  uint32_t t4 = coop_named(f.m, spvgen_tensor_layout_slice(f.m, t3, U32S(c(&f, 64), c(&f, 32)),
                                                      U32S(c(&f, 16), c(&f, 8)), 2), "t4");
  coop_named(f.m, spvgen_tensor_layout_set_clamp_value(f.m, t4, c(&f, 0x3C00)), "t5");
  const char *lines[] = {
      "%t0 = OpCreateTensorLayoutNV %L",
      "%t1 = OpTensorLayoutSetBlockSizeNV %L %t0 %uint_1 %uint_4",
      "%t2 = OpTensorLayoutSetDimensionNV %L %t1 %uint_256 %uint_128",
      "%t3 = OpTensorLayoutSetStrideNV %L %t2 %uint_160 %uint_1",
      "%t4 = OpTensorLayoutSliceNV %L %t3 %uint_64 %uint_16 %uint_32 %uint_8",
      "%t5 = OpTensorLayoutSetClampValueNV %L %t4 %uint_15360",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_every_tensor_view_instruction(void) {
  fixture f = coop_begin(64, 0);
  uint32_t V = coop_named(f.m, spvgen_type_tensor_view(f.m, 2, true, U32S(1, 0)), "V");
  uint32_t v0 = coop_named(f.m, spvgen_tensor_view_create(f.m, V), "v0");
  uint32_t v1 = coop_named(f.m, spvgen_tensor_view_set_dimension(f.m, v0, U32S(c(&f, 8), c(&f, 16)), 2),
                      "v1");
  uint32_t v2 = coop_named(f.m, spvgen_tensor_view_set_stride(f.m, v1, U32S(c(&f, 32), c(&f, 1)), 2),
                      "v2");
  coop_named(f.m, spvgen_tensor_view_set_clip(f.m, v2, c(&f, 0), c(&f, 8), c(&f, 4), c(&f, 12)), "v3");
  const char *lines[] = {
      "%v0 = OpCreateTensorViewNV %V",
      "%v1 = OpTensorViewSetDimensionNV %V %v0 %uint_8 %uint_16",
      "%v2 = OpTensorViewSetStrideNV %V %v1 %uint_32 %uint_1",
      "%v3 = OpTensorViewSetClipNV %V %v2 %uint_0 %uint_8 %uint_4 %uint_12",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ---------------------------------------------------------- load/store ---- */

static void test_tensor_load_store_without_addressing_operands(void) {
  fixture f = coop_begin(64, 0);
  uint32_t A = coop_named(f.m, wmat(&f, f.f16, 32, 32, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t L = coop_named(f.m, spvgen_type_tensor_layout(f.m, 2, SpvTensorClampModeUndefined), "L");
  uint32_t t = coop_named(f.m, spvgen_tensor_layout_set_dimension(
                              f.m, spvgen_tensor_layout_create(f.m, L), U32S(c(&f, 32), c(&f, 32)),
                              2), "t");
  uint32_t p = coop_named(f.m, coop_element(&f, f.buf16, f.ptr16, 0), "p");
  uint32_t a = coop_named(f.m, spvgen_coopmat_load_tensor(f.m, A, p, 0, t, NULL, NULL), "a");
  spvgen_coopmat_store_tensor(f.m, p, a, t, NULL, NULL);
  coop_named(f.m, spvgen_const_null(f.m, A), "null"); /* object 0: clipped elements are 0 */
  const char *lines[] = {
      "OpCapability CooperativeMatrixTensorAddressingNV",
      "%null = OpConstantNull %A",
      "%a = OpCooperativeMatrixLoadTensorNV %A %p %null %t None None",
      "OpCooperativeMatrixStoreTensorNV %p %a %t None None",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_tensor_load_store_with_a_view_and_memory_operands(void) {
  fixture f = coop_begin(64, 0);
  uint32_t A = coop_named(f.m, wmat(&f, f.f16, 32, 16, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t L = coop_named(f.m, spvgen_type_tensor_layout(f.m, 2, SpvTensorClampModeClampToEdge), "L");
  uint32_t V = coop_named(f.m, spvgen_type_tensor_view(f.m, 2, false, U32S(1, 0)), "V");
  uint32_t t = coop_named(f.m, spvgen_tensor_layout_set_dimension(
                              f.m, spvgen_tensor_layout_create(f.m, L), U32S(c(&f, 16), c(&f, 32)),
                              2), "t");
  uint32_t v = coop_named(f.m, spvgen_tensor_view_create(f.m, V), "v");
  uint32_t p = coop_named(f.m, coop_element(&f, f.buf16, f.ptr16, 0), "p");
  uint32_t obj = coop_named(f.m, spvgen_coop_splat(f.m, A, spvgen_const_bits(f.m, f.f16, 0)), "obj");
  spvgen_memory_operands mem = {SpvMemoryAccessAlignedMask, 16, 0};
  spvgen_tensor_operands view = {.tensor_view = v};
  uint32_t a = coop_named(f.m, spvgen_coopmat_load_tensor(f.m, A, p, obj, t, &mem, &view), "a");
  spvgen_coopmat_store_tensor(f.m, p, a, t, &mem, &view);
  const char *lines[] = {
      "%a = OpCooperativeMatrixLoadTensorNV %A %p %obj %t Aligned 16 TensorView %v",
      "OpCooperativeMatrixStoreTensorNV %p %a %t Aligned 16 TensorView %v",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* The DecodeFunc of SPV_NV_cooperative_matrix2: (PhysicalStorageBuffer pointer, uint[dim],
 * uint[dim]) -> component; here it reads element 0 of a one-member struct. */
static void test_tensor_load_with_decode_func_and_view(void) {
  spvgen_module_desc desc = {.addressing = SpvAddressingModelPhysicalStorageBuffer64};
  fixture f = coop_setup(&desc, 0);
  uint32_t block = coop_named(f.m, spvgen_type_struct(f.m, &f.f16, 1), "Block16");
  spvgen_decorate(f.m, block, SpvDecorationBlock);
  spvgen_member_decorate1(f.m, block, 0, SpvDecorationOffset, 0);
  uint32_t params[3];
  uint32_t decode = coop_named(f.m, spvgen_decode_func_begin(f.m, f.f16, block, 2, params), "decode");
  uint32_t pp = spvgen_type_pointer(f.m, SpvStorageClassPhysicalStorageBuffer, f.f16);
  uint32_t zero = spvgen_const_u32(f.m, 0);
  uint32_t ep = spvgen_access_chain(f.m, pp, params[0], &zero, 1);
  uint32_t x = spvgen_op_load(f.m, f.f16, ep, SpvMemoryAccessAlignedMask, U32S(2), 1);
  spvgen_return_value(f.m, x);
  spvgen_function_end(f.m);
  uint32_t u2 = spvgen_type_array(f.m, f.u32, 2);
  uint32_t psb = spvgen_type_pointer(f.m, SpvStorageClassPhysicalStorageBuffer, block);
  CHECK_EQ_U64(spvgen_type_decode_func(f.m, f.f16, block, 2),
               spvgen_type_function(f.m, f.f16, U32S(psb, u2, u2), 3));
  coop_named(f.m, params[0], "ptr");
  coop_named(f.m, spvgen_type_decode_func(f.m, f.f16, block, 2), "DecodeFn");

  coop_main(&f, 64);
  uint32_t A = coop_named(f.m, wmat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t L = coop_named(f.m, spvgen_type_tensor_layout(f.m, 2, SpvTensorClampModeUndefined), "L");
  uint32_t V = coop_named(f.m, spvgen_type_tensor_view(f.m, 2, false, NULL), "V");
  uint32_t t = coop_named(f.m, spvgen_tensor_layout_set_dimension(
                              f.m, spvgen_tensor_layout_create(f.m, L), U32S(c(&f, 16), c(&f, 16)),
                              2), "t");
  uint32_t v = coop_named(f.m, spvgen_tensor_view_create(f.m, V), "v");
  uint32_t p = coop_named(f.m, coop_element(&f, f.buf16, f.ptr16, 0), "p");
  spvgen_tensor_operands d = {.decode_func = decode};
  spvgen_tensor_operands vd = {.tensor_view = v, .decode_func = decode};
  uint32_t a = coop_named(f.m, spvgen_coopmat_load_tensor(f.m, A, p, 0, t, NULL, &d), "a");
  coop_named(f.m, spvgen_coopmat_load_tensor(f.m, A, p, a, t, NULL, &vd), "b");
  coop_named(f.m, spvgen_const_null(f.m, A), "null");
  const char *lines[] = {
      "OpCapability CooperativeMatrixBlockLoadsNV",
      "OpMemoryModel PhysicalStorageBuffer64 Vulkan",
      "OpDecorate %ptr Aliased",
      ("%DecodeFn = OpTypeFunction %half %_ptr_PhysicalStorageBuffer_Block16 %_arr_uint_uint_2 "
       "%_arr_uint_uint_2"),
      "%decode = OpFunction %half None %DecodeFn",
      "%a = OpCooperativeMatrixLoadTensorNV %A %p %null %t None DecodeFunc %decode",
      "%b = OpCooperativeMatrixLoadTensorNV %A %p %a %t None TensorView|DecodeFunc %v %decode",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ---------------------------------------------------------- reductions ---- */

static uint32_t combine_add(fixture *f) {
  uint32_t p[2];
  uint32_t fn = spvgen_combine_func_begin(f->m, f->f32, p);
  spvgen_return_value(f->m, spvgen_op_f_add(f->m, f->f32, p[0], p[1]));
  spvgen_function_end(f->m);
  return coop_named(f->m, fn, "combine");
}

static void test_reduce_rows_columns_both_and_2x2_with_a_combine_function(void) {
  fixture f = coop_setup(NULL, 0);
  uint32_t combine = combine_add(&f);
  CHECK_EQ_U64(spvgen_type_combine_func(f.m, f.f32),
               spvgen_type_function(f.m, f.f32, U32S(f.f32, f.f32), 2));
  coop_main(&f, 64);
  SpvCooperativeMatrixUse acc = SpvCooperativeMatrixUseMatrixAccumulatorKHR;
  uint32_t C = coop_named(f.m, wmat(&f, f.f32, 32, 16, acc), "C");
  uint32_t R = coop_named(f.m, wmat(&f, f.f32, 32, 1, acc), "R");
  uint32_t K = coop_named(f.m, wmat(&f, f.f32, 1, 16, acc), "K");
  uint32_t Q = coop_named(f.m, wmat(&f, f.f32, 16, 8, acc), "Q");
  uint32_t x = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_f32(f.m, 1.0f)), "x");
  coop_named(f.m, spvgen_coopmat_reduce(f.m, R, x, SpvCooperativeMatrixReduceRowMask, combine), "rows");
  coop_named(f.m, spvgen_coopmat_reduce(f.m, K, x, SpvCooperativeMatrixReduceColumnMask, combine), "cols");
  coop_named(f.m, spvgen_coopmat_reduce(f.m, C, x, SpvCooperativeMatrixReduceRowMask |
                                   SpvCooperativeMatrixReduceColumnMask, combine), "all");
  coop_named(f.m, spvgen_coopmat_reduce(f.m, Q, x, SpvCooperativeMatrixReduce2x2Mask, combine), "quad");
  const char *lines[] = {
      "OpCapability CooperativeMatrixReductionsNV",
      "%rows = OpCooperativeMatrixReduceNV %R %x Row %combine",
      "%cols = OpCooperativeMatrixReduceNV %K %x Column %combine",
      "%all = OpCooperativeMatrixReduceNV %C %x Row|Column %combine",
      "%quad = OpCooperativeMatrixReduceNV %Q %x 2x2 %combine",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* A callback may be defined after the instruction that names it (a reserved id). */
static void test_reduce_accepts_a_combine_function_defined_later(void) {
  fixture f = coop_begin(64, 0);
  uint32_t combine = coop_named(f.m, spvgen_reserve_id(f.m), "combine");
  uint32_t C = coop_named(f.m, wmat(&f, f.f32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t x = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_f32(f.m, 1.0f)), "x");
  coop_named(f.m, spvgen_coopmat_reduce(f.m, C, x, SpvCooperativeMatrixReduceColumnMask, combine), "r");
  spvgen_function_end(f.m);
  uint32_t p[2];
  spvgen_function_begin_id(f.m, combine, f.f32, SpvFunctionControlMaskNone, U32S(f.f32, f.f32), 2, p);
  spvgen_return_value(f.m, spvgen_op_f_add(f.m, f.f32, p[0], p[1]));
  /* finish_and_match ends this function */
  const char *lines[] = {"%r = OpCooperativeMatrixReduceNV %C %x Column %combine"};
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ---------------------------------------------------------- per element ---- */

static void test_per_element_op_passes_row_column_element_and_extra_operands(void) {
  fixture f = coop_setup(NULL, 0);
  uint32_t params[5];
  /* func(row, col, x, scale, other) = x * scale + other */
  uint32_t fn = coop_named(f.m, spvgen_per_element_func_begin(f.m, f.f32, U32S(f.f32, f.f32), 2, params),
                      "scale_add");
  uint32_t prod = spvgen_op_f_mul(f.m, f.f32, params[2], params[3]);
  spvgen_return_value(f.m, spvgen_op_f_add(f.m, f.f32, prod, params[4]));
  spvgen_function_end(f.m);
  CHECK_EQ_U64(spvgen_type_per_element_func(f.m, f.f32, U32S(f.f32, f.f32), 2),
               spvgen_type_function(f.m, f.f32, U32S(f.u32, f.u32, f.f32, f.f32, f.f32), 5));
  coop_main(&f, 64);
  uint32_t C = coop_named(f.m, wmat(&f, f.f32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t x = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_f32(f.m, 1.0f)), "x");
  uint32_t y = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_f32(f.m, 2.0f)), "y");
  uint32_t s = spvgen_const_f32(f.m, 0.5f);
  coop_named(f.m, spvgen_coopmat_per_element(f.m, x, fn, U32S(s, y), 2), "r");
  const char *lines[] = {
      "OpCapability CooperativeMatrixPerElementOperationsNV",
      "%r = OpCooperativeMatrixPerElementOpNV %C %x %scale_add %float_0_5 %y",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ----------------------------------------------------- convert/transpose ---- */

static void test_convert_use_and_transpose(void) {
  fixture f = coop_begin(64, 0);
  uint32_t C = coop_named(f.m, wmat(&f, f.f16, 32, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t A = coop_named(f.m, wmat(&f, f.f16, 32, 16, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t Bt = coop_named(f.m, wmat(&f, f.f16, 16, 32, SpvCooperativeMatrixUseMatrixBKHR), "Bt");
  uint32_t x = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_bits(f.m, f.f16, 0x3C00)), "x");
  coop_named(f.m, spvgen_coopmat_convert_use(f.m, A, x), "a");
  coop_named(f.m, spvgen_coopmat_transpose(f.m, Bt, x), "bt");
  const char *lines[] = {
      "OpCapability CooperativeMatrixConversionsNV",
      "%a = OpCooperativeMatrixConvertNV %A %x",
      "%bt = OpCooperativeMatrixTransposeNV %Bt %x",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ------------------------------------------------------------ the kernel ---- */

/* One workgroup computes a 32x32 tile of D = A * B^T (A: M x K row-major, B: N x K
 * row-major, loaded transposed through a view), reads past the edges as 0 (Constant clamp
 * mode), sums every row with a combine function and stores the row sums through a layout
 * whose out-of-bounds elements are dropped. M, N, K come from push constants. */
static void test_cooperative_matrix2_gemm_tile_with_views_clamping_and_row_reduction(void) {
  fixture f = coop_setup(NULL, 0);
  uint32_t combine = combine_add(&f);
  spvgen_module *m = f.m;
  uint32_t uvec3 = spvgen_type_vector(m, f.u32, 3);
  uint32_t wg_id = spvgen_builtin_input(m, SpvBuiltInWorkgroupId, uvec3);
  uint32_t members[3] = {f.u32, f.u32, f.u32};
  uint32_t pc_t = spvgen_type_struct(m, members, 3);
  spvgen_decorate(m, pc_t, SpvDecorationBlock);
  for (uint32_t i = 0; i < 3; i++) spvgen_member_decorate1(m, pc_t, i, SpvDecorationOffset, 4 * i);
  uint32_t pc = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, pc_t),
                                SpvStorageClassPushConstant, 0);
  uint32_t pc_u32 = spvgen_type_pointer(m, SpvStorageClassPushConstant, f.u32);
  coop_main(&f, 64);

  const uint32_t TM = 32, TN = 32, TK = 16;
  uint32_t A = coop_named(m, wmat(&f, f.f16, TM, TK, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t B = coop_named(m, wmat(&f, f.f16, TK, TN, SpvCooperativeMatrixUseMatrixBKHR), "B");
  uint32_t C = coop_named(m, wmat(&f, f.f32, TM, TN, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t R = coop_named(m, wmat(&f, f.f32, TM, 1, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "R");
  uint32_t Lc = coop_named(m, spvgen_type_tensor_layout(m, 2, SpvTensorClampModeConstant), "Lc");
  uint32_t Vt = coop_named(m, spvgen_type_tensor_view(m, 2, false, U32S(1, 0)), "Vt");

  uint32_t dims[3];
  for (uint32_t i = 0; i < 3; i++)
    dims[i] = spvgen_load(m, f.u32, spvgen_access_chain(m, pc_u32, pc, U32S(c(&f, i)), 1));
  uint32_t Mv = dims[0], Nv = dims[1], Kv = dims[2];
  uint32_t wg = spvgen_load(m, uvec3, wg_id);
  uint32_t row0_id, col0_id;
  uint32_t row0 = spvgen_op_i_mul(m, f.u32, spvgen_op_composite_extract(m, f.u32, wg, U32S(1), 1),
                                  c(&f, TM));
  uint32_t col0 = spvgen_op_i_mul(m, f.u32, spvgen_op_composite_extract(m, f.u32, wg, U32S(0), 1),
                                  c(&f, TN));
  row0_id = coop_named(m, row0, "row0");
  col0_id = coop_named(m, col0, "col0");
  (void)row0_id;
  (void)col0_id;

  /* Layouts of A (M x K) and B (N x K), out-of-bounds elements read as 0. */
  uint32_t zero = c(&f, 0);
  uint32_t tA = spvgen_tensor_layout_create(m, Lc);
  tA = spvgen_tensor_layout_set_dimension(m, tA, U32S(Mv, Kv), 2);
  tA = coop_named(m, spvgen_tensor_layout_set_clamp_value(m, tA, zero), "tA");
  uint32_t tB = spvgen_tensor_layout_create(m, Lc);
  tB = spvgen_tensor_layout_set_dimension(m, tB, U32S(Nv, Kv), 2);
  tB = coop_named(m, spvgen_tensor_layout_set_clamp_value(m, tB, zero), "tB");
  uint32_t vT = coop_named(m, spvgen_tensor_view_create(m, Vt), "vT");

  uint32_t pA = coop_named(m, coop_element(&f, f.buf16, f.ptr16, 0), "pA");
  uint32_t bufB_ptr;
  uint32_t bufB = spvgen_storage_buffer(m, f.f16, 0, 2, true, &bufB_ptr);
  uint32_t pB = coop_named(m, spvgen_access_chain(m, bufB_ptr, bufB, U32S(zero, zero), 2), "pB");

  uint32_t accp = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassFunction, C),
                                  SpvStorageClassFunction, 0);
  spvgen_store(m, accp, spvgen_coop_splat(m, C, spvgen_const_f32(m, 0.0f)));
  uint32_t kp = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassFunction, f.u32),
                                SpvStorageClassFunction, zero);
  spvgen_loop(m, SpvLoopControlMaskNone);
  uint32_t k = coop_named(m, spvgen_load(m, f.u32, kp), "k");
  spvgen_loop_while(m, spvgen_op_u_less_than(m, spvgen_type_bool(m), k, Kv));
  uint32_t sA = coop_named(m, spvgen_tensor_layout_slice(m, tA, U32S(row0, k), U32S(c(&f, TM), c(&f, TK)), 2), "sA");
  uint32_t sB = coop_named(m, spvgen_tensor_layout_slice(m, tB, U32S(col0, k), U32S(c(&f, TN), c(&f, TK)), 2), "sB");
  uint32_t a = coop_named(m, spvgen_coopmat_load_tensor(m, A, pA, 0, sA, NULL, NULL), "a");
  spvgen_tensor_operands transposed = {.tensor_view = vT};
  uint32_t b = coop_named(m, spvgen_coopmat_load_tensor(m, B, pB, 0, sB, NULL, &transposed), "b");
  uint32_t acc = coop_named(m, spvgen_load(m, C, accp), "acc");
  spvgen_store(m, accp, coop_named(m, spvgen_coopmat_muladd(m, 0, a, b, acc, 0), "d"));
  spvgen_loop_continue_block(m);
  spvgen_store(m, kp, spvgen_op_i_add(m, f.u32, spvgen_load(m, f.u32, kp), c(&f, TK)));
  spvgen_end_loop(m);

  uint32_t d = coop_named(m, spvgen_load(m, C, accp), "total");
  coop_named(m, spvgen_const_null(m, A), "nullA");
  coop_named(m, spvgen_const_null(m, B), "nullB");
  uint32_t sums = coop_named(m, spvgen_coopmat_reduce(m, R, d, SpvCooperativeMatrixReduceRowMask,
                                                 combine), "sums");
  /* Row sums land in an M x 1 column of the f32 buffer; rows past M are dropped. */
  uint32_t tD = spvgen_tensor_layout_create(m, Lc);
  tD = spvgen_tensor_layout_set_dimension(m, tD, U32S(Mv, c(&f, 1)), 2);
  tD = coop_named(m, spvgen_tensor_layout_slice(m, tD, U32S(row0, zero), U32S(c(&f, TM), c(&f, 1)), 2),
             "tD");
  uint32_t pD = coop_named(m, coop_element(&f, f.buf32, f.ptr32, 0), "pD");
  spvgen_coopmat_store_tensor(m, pD, sums, tD, NULL, NULL);

  const char *lines[] = {
      "%Lc = OpTypeTensorLayoutNV %uint_2 %uint_1",
      "%Vt = OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_0",
      "%C = OpTypeCooperativeMatrixKHR %float %uint_2 %uint_32 %uint_32 %uint_2",
      "%sA = OpTensorLayoutSliceNV %Lc %tA %row0 %uint_32 %k %uint_16",
      "%a = OpCooperativeMatrixLoadTensorNV %A %pA %nullA %sA None None",
      "%b = OpCooperativeMatrixLoadTensorNV %B %pB %nullB %sB None TensorView %vT",
      "%d = OpCooperativeMatrixMulAddKHR %C %a %b %acc",
      "%sums = OpCooperativeMatrixReduceNV %R %total Row %combine",
      "OpCooperativeMatrixStoreTensorNV %pD %sums %tD None None",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_workgroup_scope_matrix_declares_cooperative_matrix2),
      TEST_CASE(test_workgroup_scope_matrix_after_local_size_id),
      TEST_CASE(test_tensor_layout_type_takes_dimension_and_clamp_mode),
      TEST_CASE(test_tensor_layout_type_id_takes_specialization_constants),
      TEST_CASE(test_tensor_view_type_takes_dimension_has_dimensions_and_permutation),
      TEST_CASE(test_tensor_view_type_id_takes_ids),
      TEST_CASE(test_every_tensor_layout_instruction),
      TEST_CASE(test_every_tensor_view_instruction),
      TEST_CASE(test_tensor_load_store_without_addressing_operands),
      TEST_CASE(test_tensor_load_store_with_a_view_and_memory_operands),
      TEST_CASE(test_tensor_load_with_decode_func_and_view),
      TEST_CASE(test_reduce_rows_columns_both_and_2x2_with_a_combine_function),
      TEST_CASE(test_reduce_accepts_a_combine_function_defined_later),
      TEST_CASE(test_per_element_op_passes_row_column_element_and_extra_operands),
      TEST_CASE(test_convert_use_and_transpose),
      TEST_CASE(test_cooperative_matrix2_gemm_tile_with_views_clamping_and_row_reduction),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
