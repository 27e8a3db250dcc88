/* tests/coop/test_coop_khr.c — the SPV_KHR_cooperative_matrix helpers of spvgen/coop.h
 * and the component types around them (float16, int8, SPV_KHR_bfloat16, SPV_EXT_float8):
 * each test builds a module that uses one instruction or rule, checks that it validates
 * (Vulkan 1.3) and that its disassembly has the instruction with the expected operands.
 * bfloat16 / float8 modules are checked on their words instead: SPIRV-Tools 2025.1 knows
 * neither encoding, so it can neither validate nor disassemble them. */
#include <stdlib.h>
#include <string.h>

#include "coop_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "words.h"
#include "spvgen/coop.h"

/* ----------------------------------------------------------------- fixture ---- */

typedef coop_fixture fixture;

static uint32_t mat(fixture *f, uint32_t component, uint32_t rows, uint32_t cols,
                    SpvCooperativeMatrixUse use) {
  return spvgen_type_coopmat(f->m, component, SpvScopeSubgroup, rows, cols, use);
}

/* ------------------------------------------------------------------- types ---- */

static void test_coopmat_type_makes_constants_for_scope_rows_cols_and_use(void) {
  fixture f = coop_begin(32, 0);
  coop_named(f.m, mat(&f, f.f16, 16, 8, SpvCooperativeMatrixUseMatrixAKHR), "A");
  coop_named(f.m, spvgen_type_coopmat(f.m, f.f32, SpvScopeSubgroup, 16, 8,
                                 SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  const char *lines[] = {
      "OpCapability CooperativeMatrixKHR",
      "OpExtension \"SPV_KHR_cooperative_matrix\"",
      "%uint_3 = OpConstant %uint 3",
      "%A = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_8 %uint_0",
      "%C = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_8 %uint_2",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_types_are_deduplicated(void) {
  fixture f = coop_begin(32, 0);
  uint32_t a = mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t b = mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t c = mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixBKHR);
  CHECK_EQ_U64(a, b);
  CHECK_NE_U64(a, c);
  coop_finish_and_match(&f, NULL, 0);
}

static void test_coopmat_type_id_variant_takes_specialization_constants(void) {
  fixture f = coop_begin(32, 0);
  uint32_t rows = coop_named(f.m, spvgen_spec_const_u32(f.m, 16, 0), "rows");
  uint32_t cols = coop_named(f.m, spvgen_spec_const_u32(f.m, 8, 1), "cols");
  uint32_t t = spvgen_type_coopmat_id(f.m, f.f16, spvgen_const_u32(f.m, SpvScopeSubgroup), rows,
                                      cols, spvgen_const_u32(f.m, 2));
  coop_named(f.m, t, "Cspec");
  spvgen_coop_type_info info;
  CHECK(spvgen_coop_type_query(f.m, t, &info));
  CHECK_EQ_U64(info.rows, SPVGEN_ABSENT);
  CHECK_EQ_U64(info.rows_id, rows);
  CHECK_EQ_U64(info.scope, SpvScopeSubgroup);
  CHECK_EQ_U64(info.use, 2);
  const char *lines[] = {
      "OpDecorate %rows SpecId 0",
      "%rows = OpSpecConstant %uint 16",
      "%Cspec = OpTypeCooperativeMatrixKHR %half %uint_3 %rows %cols %uint_2",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coop_type_query_reports_matrices_and_vectors_only(void) {
  fixture f = coop_begin(32, 0);
  spvgen_coop_type_info info;
  uint32_t t = mat(&f, f.f16, 16, 8, SpvCooperativeMatrixUseMatrixBKHR);
  CHECK(spvgen_coop_type_query(f.m, t, &info));
  CHECK_EQ_U64(info.opcode, SpvOpTypeCooperativeMatrixKHR);
  CHECK_EQ_U64(info.component, f.f16);
  CHECK_EQ_U64(info.rows, 16);
  CHECK_EQ_U64(info.columns, 8);
  CHECK_EQ_U64(info.use, 1);
  CHECK(!spvgen_coop_type_query(f.m, f.f16, &info));
  CHECK_EQ_U64(info.opcode, 0);
  coop_finish_and_match(&f, NULL, 0);
}

/* ------------------------------------------------------------ load/store ---- */

static void test_coopmat_load_store_take_layout_and_stride(void) {
  fixture f = coop_begin(32, 0);
  uint32_t A = coop_named(f.m, mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t p = coop_named(f.m, coop_element(&f, f.buf16, f.ptr16, 0), "p");
  uint32_t stride = 32; /* elements: a number, the helper makes the constant */;
  coop_named(f.m, spvgen_coopmat_load(f.m, A, p, SpvCooperativeMatrixLayoutRowMajorKHR, stride, NULL), "r");
  uint32_t c = coop_named(f.m, spvgen_coopmat_load(f.m, A, p, SpvCooperativeMatrixLayoutColumnMajorKHR,
                                              stride, NULL), "c");
  spvgen_coopmat_store(f.m, p, c, SpvCooperativeMatrixLayoutRowMajorKHR, stride, NULL);
  const char *lines[] = {
      "%r = OpCooperativeMatrixLoadKHR %A %p %uint_0 %uint_32",
      "%c = OpCooperativeMatrixLoadKHR %A %p %uint_1 %uint_32",
      "OpCooperativeMatrixStoreKHR %p %c %uint_0 %uint_32",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_load_store_emit_memory_operands_in_bit_order(void) {
  fixture f = coop_begin(32, 0);
  uint32_t A = coop_named(f.m, mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t p = coop_named(f.m, coop_element(&f, f.buf16, f.ptr16, 0), "p");
  uint32_t stride = 16;
  spvgen_memory_operands load_mem = {
      SpvMemoryAccessAlignedMask | SpvMemoryAccessMakePointerVisibleMask |
          SpvMemoryAccessNonPrivatePointerMask,
      16, SpvScopeWorkgroup};
  spvgen_memory_operands store_mem = {
      SpvMemoryAccessMakePointerAvailableMask | SpvMemoryAccessNonPrivatePointerMask, 0,
      SpvScopeWorkgroup};
  uint32_t v = coop_named(f.m, spvgen_coopmat_load(f.m, A, p, SpvCooperativeMatrixLayoutRowMajorKHR,
                                              stride, &load_mem), "v");
  spvgen_coopmat_store(f.m, p, v, SpvCooperativeMatrixLayoutRowMajorKHR, stride, &store_mem);
  const char *lines[] = {
      "%v = OpCooperativeMatrixLoadKHR %A %p %uint_0 %uint_16 "
      "Aligned|MakePointerVisible|NonPrivatePointer 16 %uint_2",
      "OpCooperativeMatrixStoreKHR %p %v %uint_0 %uint_16 MakePointerAvailable|NonPrivatePointer "
      "%uint_2",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_load_id_takes_a_specialization_constant_layout(void) {
  fixture f = coop_begin(32, 0);
  uint32_t A = coop_named(f.m, mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t layout = coop_named(f.m, spvgen_spec_const_u32(f.m, 1, 7), "layout");
  uint32_t p = coop_named(f.m, coop_element(&f, f.buf16, f.ptr16, 0), "p");
  uint32_t v = coop_named(f.m, spvgen_coopmat_load_id(f.m, A, p, layout, spvgen_const_u32(f.m, 16),
                                                 NULL), "v");
  spvgen_coopmat_store_id(f.m, p, v, layout, spvgen_const_u32(f.m, 16), NULL);
  const char *lines[] = {
      "%v = OpCooperativeMatrixLoadKHR %A %p %layout %uint_16",
      "OpCooperativeMatrixStoreKHR %p %v %layout %uint_16",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_arm_blocked_layouts_take_a_small_constant_stride(void) {
  fixture f = coop_begin(32, 0);
  uint32_t A = coop_named(f.m, mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t p = coop_named(f.m, coop_element(&f, f.buf16, f.ptr16, 0), "p");
  coop_named(f.m, spvgen_coopmat_load(f.m, A, p, SpvCooperativeMatrixLayoutRowBlockedInterleavedARM,
                                 2, NULL), "v");
  const char *lines[] = {
      "OpCapability CooperativeMatrixLayoutsARM",
      "OpExtension \"SPV_ARM_cooperative_matrix_layouts\"",
      "%v = OpCooperativeMatrixLoadKHR %A %p %uint_4202 %uint_2",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ---------------------------------------------------------------- muladd ---- */

static void test_coopmat_muladd_of_float_matrices_has_no_operands(void) {
  fixture f = coop_begin(32, 0);
  uint32_t A = coop_named(f.m, mat(&f, f.f16, 16, 8, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t B = coop_named(f.m, mat(&f, f.f16, 8, 16, SpvCooperativeMatrixUseMatrixBKHR), "B");
  uint32_t C = coop_named(f.m, mat(&f, f.f32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t p16 = coop_element(&f, f.buf16, f.ptr16, 0), p32 = coop_element(&f, f.buf32, f.ptr32, 0);
  uint32_t s = 16;
  uint32_t a = coop_named(f.m, spvgen_coopmat_load(f.m, A, p16, 0, s, NULL), "a");
  uint32_t b = coop_named(f.m, spvgen_coopmat_load(f.m, B, p16, 0, s, NULL), "b");
  uint32_t c = coop_named(f.m, spvgen_coopmat_load(f.m, C, p32, 0, s, NULL), "c");
  uint32_t d = coop_named(f.m, spvgen_coopmat_muladd(f.m, 0, a, b, c, 0), "d");
  spvgen_coopmat_store(f.m, p32, d, 0, s, NULL);
  const char *lines[] = {"%d = OpCooperativeMatrixMulAddKHR %C %a %b %c"};
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_muladd_signedness_comes_from_integer_component_types(void) {
  fixture f = coop_begin(32, 0);
  uint32_t s8 = spvgen_type_int(f.m, 8, true), s32 = spvgen_type_int(f.m, 32, true);
  uint32_t A = coop_named(f.m, mat(&f, s8, 16, 32, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t B = coop_named(f.m, mat(&f, s8, 32, 16, SpvCooperativeMatrixUseMatrixBKHR), "B");
  uint32_t C = coop_named(f.m, mat(&f, s32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t a = coop_named(f.m, spvgen_coop_splat(f.m, A, spvgen_const_bits(f.m, s8, 1)), "a");
  uint32_t b = coop_named(f.m, spvgen_coop_splat(f.m, B, spvgen_const_bits(f.m, s8, 2)), "b");
  uint32_t c = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_i32(f.m, 3)), "c");
  coop_named(f.m, spvgen_coopmat_muladd(f.m, C, a, b, c, SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES), "d");
  const char *lines[] = {
      "OpCapability Int8",
      "%d = OpCooperativeMatrixMulAddKHR %C %a %b %c MatrixASignedComponentsKHR|"
      "MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|MatrixResultSignedComponentsKHR",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_muladd_passes_saturating_accumulation(void) {
  fixture f = coop_begin(32, 0);
  uint32_t u8 = spvgen_type_int(f.m, 8, false);
  uint32_t A = coop_named(f.m, mat(&f, u8, 16, 32, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t B = coop_named(f.m, mat(&f, u8, 32, 16, SpvCooperativeMatrixUseMatrixBKHR), "B");
  uint32_t C = coop_named(f.m, mat(&f, f.u32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t a = coop_named(f.m, spvgen_coop_splat(f.m, A, spvgen_const_bits(f.m, u8, 1)), "a");
  uint32_t b = coop_named(f.m, spvgen_coop_splat(f.m, B, spvgen_const_bits(f.m, u8, 2)), "b");
  uint32_t c = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_u32(f.m, 3)), "c");
  coop_named(f.m, spvgen_coopmat_muladd(f.m, 0, a, b, c,
                                   SpvCooperativeMatrixOperandsSaturatingAccumulationKHRMask), "d");
  const char *lines[] = {"%d = OpCooperativeMatrixMulAddKHR %C %a %b %c SaturatingAccumulationKHR"};
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_length_is_a_uint(void) {
  fixture f = coop_begin(32, 0);
  uint32_t C = coop_named(f.m, mat(&f, f.f32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  coop_named(f.m, spvgen_coopmat_length(f.m, C), "len");
  const char *lines[] = {"%len = OpCooperativeMatrixLengthKHR %uint %C"};
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ------------------------------------------------------- composite & math ---- */

static void test_coopmat_splat_construct_extract_insert(void) {
  fixture f = coop_begin(32, 0);
  uint32_t C = coop_named(f.m, mat(&f, f.f32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t zero = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_f32(f.m, 0.0f)), "zero");
  uint32_t x = coop_named(f.m, spvgen_load(f.m, f.f32, coop_element(&f, f.buf32, f.ptr32, 0)), "x");
  coop_named(f.m, spvgen_coop_splat(f.m, C, x), "filled");
  uint32_t e = coop_named(f.m, spvgen_coop_extract(f.m, zero, 1), "e");
  coop_named(f.m, spvgen_coop_insert(f.m, zero, e, 0), "ins");
  const char *lines[] = {
      "%zero = OpConstantComposite %C %float_0",
      "%filled = OpCompositeConstruct %C %x",
      "%e = OpCompositeExtract %float %zero 1",
      "%ins = OpCompositeInsert %C %e %zero 0",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_float_arithmetic_instructions(void) {
  fixture f = coop_begin(32, 0);
  uint32_t C = coop_named(f.m, mat(&f, f.f32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t p = coop_element(&f, f.buf32, f.ptr32, 0), s = 16;
  uint32_t a = coop_named(f.m, spvgen_coopmat_load(f.m, C, p, 0, s, NULL), "a");
  uint32_t b = coop_named(f.m, spvgen_coopmat_load(f.m, C, p, 1, s, NULL), "b");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpFAdd, a, b), "add");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpFSub, a, b), "sub");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpFMul, a, b), "mul");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpFDiv, a, b), "div");
  coop_named(f.m, spvgen_coop_negate(f.m, a), "neg");
  coop_named(f.m, spvgen_coop_scale(f.m, a, spvgen_const_f32(f.m, 2.0f)), "scaled");
  const char *lines[] = {
      "%add = OpFAdd %C %a %b", "%sub = OpFSub %C %a %b", "%mul = OpFMul %C %a %b",
      "%div = OpFDiv %C %a %b", "%neg = OpFNegate %C %a",
      "%scaled = OpMatrixTimesScalar %C %a %float_2",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_integer_arithmetic_instructions(void) {
  fixture f = coop_begin(32, 0);
  uint32_t s32 = spvgen_type_int(f.m, 32, true);
  uint32_t C = coop_named(f.m, mat(&f, s32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t a = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_i32(f.m, 7)), "a");
  uint32_t b = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_i32(f.m, 3)), "b");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpIAdd, a, b), "add");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpISub, a, b), "sub");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpIMul, a, b), "mul");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpSDiv, a, b), "sdiv");
  coop_named(f.m, spvgen_coop_negate(f.m, a), "neg");
  coop_named(f.m, spvgen_coop_scale(f.m, a, spvgen_const_i32(f.m, 2)), "scaled");
  uint32_t U = coop_named(f.m, mat(&f, f.u32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "U");
  uint32_t u = coop_named(f.m, spvgen_coop_splat(f.m, U, spvgen_const_u32(f.m, 9)), "u");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpUDiv, u, u), "udiv");
  const char *lines[] = {
      "%add = OpIAdd %C %a %b", "%sub = OpISub %C %a %b",   "%mul = OpIMul %C %a %b",
      "%sdiv = OpSDiv %C %a %b", "%neg = OpSNegate %C %a", "%scaled = OpMatrixTimesScalar %C %a %int_2",
      "%udiv = OpUDiv %U %u %u",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_conversions_pick_the_opcode_from_component_types(void) {
  fixture f = coop_begin(32, 0);
  uint32_t s32 = spvgen_type_int(f.m, 32, true), s8 = spvgen_type_int(f.m, 8, true);
  uint32_t u8 = spvgen_type_int(f.m, 8, false);
  SpvCooperativeMatrixUse acc = SpvCooperativeMatrixUseMatrixAccumulatorKHR;
  uint32_t F32 = coop_named(f.m, mat(&f, f.f32, 16, 16, acc), "F32");
  uint32_t F16 = coop_named(f.m, mat(&f, f.f16, 16, 16, acc), "F16");
  uint32_t S32 = coop_named(f.m, mat(&f, s32, 16, 16, acc), "S32");
  uint32_t U32 = coop_named(f.m, mat(&f, f.u32, 16, 16, acc), "U32");
  uint32_t S8 = coop_named(f.m, mat(&f, s8, 16, 16, acc), "S8");
  uint32_t U8 = coop_named(f.m, mat(&f, u8, 16, 16, acc), "U8");
  uint32_t x = coop_named(f.m, spvgen_coop_splat(f.m, F32, spvgen_const_f32(f.m, 1.5f)), "x");
  uint32_t h = coop_named(f.m, spvgen_coop_convert(f.m, F16, x), "h");
  uint32_t i = coop_named(f.m, spvgen_coop_convert(f.m, S32, h), "i");
  coop_named(f.m, spvgen_coop_convert(f.m, U32, x), "u");
  coop_named(f.m, spvgen_coop_convert(f.m, F32, i), "fi");
  uint32_t b8 = coop_named(f.m, spvgen_coop_convert(f.m, S8, i), "b8");
  coop_named(f.m, spvgen_coop_convert(f.m, S32, b8), "wide");
  uint32_t ub = coop_named(f.m, spvgen_coop_splat(f.m, U8, spvgen_const_bits(f.m, u8, 200)), "ub");
  uint32_t uw = coop_named(f.m, spvgen_coop_convert(f.m, U32, ub), "uw");
  coop_named(f.m, spvgen_coop_convert(f.m, F16, uw), "fu");
  coop_named(f.m, spvgen_coop_convert(f.m, S32, uw), "bits");
  const char *lines[] = {
      "%h = OpFConvert %F16 %x",    "%i = OpConvertFToS %S32 %h",  "%u = OpConvertFToU %U32 %x",
      "%fi = OpConvertSToF %F32 %i", "%b8 = OpSConvert %S8 %i",     "%wide = OpSConvert %S32 %b8",
      "%uw = OpUConvert %U32 %ub",   "%fu = OpConvertUToF %F16 %uw", "%bits = OpBitcast %S32 %uw",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopmat_conversion_from_accumulator_to_a_adds_conversions_capability(void) {
  fixture f = coop_begin(32, 0);
  uint32_t C = coop_named(f.m, mat(&f, f.f32, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR), "C");
  uint32_t A = coop_named(f.m, mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixAKHR), "A");
  uint32_t c = coop_named(f.m, spvgen_coop_splat(f.m, C, spvgen_const_f32(f.m, 1.0f)), "c");
  coop_named(f.m, spvgen_coop_convert(f.m, A, c), "a");
  const char *lines[] = {
      "OpCapability CooperativeMatrixConversionsNV",
      "OpExtension \"SPV_NV_cooperative_matrix2\"",
      "%a = OpFConvert %A %c",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ------------------------------------------------------- component types ---- */

static void test_float16_int8_and_int16_components_infer_their_capabilities(void) {
  fixture f = coop_begin(32, 0);
  uint32_t s8 = spvgen_type_int(f.m, 8, true), u16 = spvgen_type_int(f.m, 16, false);
  mat(&f, s8, 16, 32, SpvCooperativeMatrixUseMatrixAKHR);
  mat(&f, f.f16, 16, 16, SpvCooperativeMatrixUseMatrixBKHR);
  mat(&f, u16, 16, 16, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  uint32_t ep8;
  spvgen_storage_buffer(f.m, s8, 0, 2, true, &ep8);
  const char *lines[] = {
      "OpCapability Int8",
      "OpCapability Float16",
      "OpCapability Int16",
      "OpCapability StorageBuffer16BitAccess",
      "OpCapability StorageBuffer8BitAccess",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* SPIRV-Tools 2025.1 predates SPV_KHR_bfloat16 (its FPEncoding list is empty), so the module
 * is checked on its words: the encoded OpTypeFloat, the capabilities and extensions. */
static void test_bfloat16_matrix_declares_type_and_cooperative_matrix_capabilities(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t bf16 = spvgen_type_bfloat16(m);
  uint32_t f32 = spvgen_type_float(m, 32);
  spvgen_compute_main(m, "main", 32, 1, 1);
  uint32_t A = spvgen_type_coopmat(m, bf16, SpvScopeSubgroup, 16, 16,
                                   SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t C = spvgen_type_coopmat(m, f32, SpvScopeSubgroup, 16, 16,
                                   SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  uint32_t B = spvgen_type_coopmat(m, bf16, SpvScopeSubgroup, 16, 16,
                                   SpvCooperativeMatrixUseMatrixBKHR);
  uint32_t a = spvgen_coop_splat(m, A, spvgen_const_bits(m, bf16, 0x3F80));
  uint32_t b = spvgen_coop_splat(m, B, spvgen_const_bits(m, bf16, 0x3F80));
  uint32_t c = spvgen_coop_splat(m, C, spvgen_const_f32(m, 0.0f));
  spvgen_coopmat_muladd(m, 0, a, b, c, 0);
  spvgen_function_end(m);
  const uint32_t *w = NULL;
  size_t n = 0;
  CHECK_EQ_U64(spvgen_module_finish(m, &w, &n), SPVGEN_OK);
  CHECK_STR_EQ(spvgen_module_error(m), "");
  if (w) {
    CHECK(words_find(w, n, SpvOpTypeFloat, 0, (const uint32_t[]){bf16, 16, 0}, 3));
    CHECK(words_has_capability(w, n, SPVGEN_CAPABILITY_BFLOAT16_TYPE));
    CHECK(words_has_capability(w, n, SPVGEN_CAPABILITY_BFLOAT16_COOPERATIVE_MATRIX));
    CHECK(words_has_capability(w, n, SpvCapabilityCooperativeMatrixKHR));
    CHECK(words_has_extension(w, n, "SPV_KHR_bfloat16"));
    CHECK(words_has_extension(w, n, "SPV_KHR_cooperative_matrix"));
    CHECK(words_find(w, n, SpvOpTypeCooperativeMatrixKHR, 0, (const uint32_t[]){A, bf16}, 2));
  }
  spvgen_module_destroy(m);
}

/* Same reason as above for SPV_EXT_float8. */
static void test_float8_matrices_declare_float8_and_cooperative_matrix_capabilities(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t e4m3 = spvgen_type_float_e4m3(m), e5m2 = spvgen_type_float_e5m2(m);
  spvgen_compute_main(m, "main", 32, 1, 1);
  uint32_t A = spvgen_type_coopmat(m, e4m3, SpvScopeSubgroup, 16, 32,
                                   SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t B = spvgen_type_coopmat(m, e5m2, SpvScopeSubgroup, 32, 16,
                                   SpvCooperativeMatrixUseMatrixBKHR);
  spvgen_coop_splat(m, A, spvgen_const_bits(m, e4m3, 0x38));
  spvgen_coop_splat(m, B, spvgen_const_bits(m, e5m2, 0x3C));
  spvgen_function_end(m);
  const uint32_t *w = NULL;
  size_t n = 0;
  CHECK_EQ_U64(spvgen_module_finish(m, &w, &n), SPVGEN_OK);
  CHECK_STR_EQ(spvgen_module_error(m), "");
  if (w) {
    CHECK(words_find(w, n, SpvOpTypeFloat, 0, (const uint32_t[]){e4m3, 8, 4214}, 3));
    CHECK(words_find(w, n, SpvOpTypeFloat, 0, (const uint32_t[]){e5m2, 8, 4215}, 3));
    CHECK(words_has_capability(w, n, SPVGEN_CAPABILITY_FLOAT8));
    CHECK(words_has_capability(w, n, SPVGEN_CAPABILITY_FLOAT8_COOPERATIVE_MATRIX));
    CHECK(words_has_extension(w, n, "SPV_EXT_float8"));
    CHECK(words_find(w, n, SpvOpTypeCooperativeMatrixKHR, 0, (const uint32_t[]){B, e5m2}, 2));
  }
  spvgen_module_destroy(m);
}

static void test_interpretations_name_their_scalar_types(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK_EQ_U64(spvgen_type_for_interpretation(m, SpvComponentTypeFloat16NV), spvgen_type_float(m, 16));
  CHECK_EQ_U64(spvgen_type_for_interpretation(m, SpvComponentTypeSignedInt8NV), spvgen_type_int(m, 8, true));
  CHECK_EQ_U64(spvgen_type_for_interpretation(m, SpvComponentTypeUnsignedInt8PackedNV),
               spvgen_type_int(m, 32, false));
  CHECK_EQ_U64(spvgen_type_for_interpretation(m, SpvComponentTypeFloatE5M2NV), spvgen_type_float_e5m2(m));
  CHECK_STR_EQ(spvgen_interpretation_name(SpvComponentTypeSignedInt8PackedNV), "SignedInt8PackedNV");
  CHECK_STR_EQ(spvgen_interpretation_name(SpvComponentTypeFloatE4M3NV), "FloatE4M3NV");
  CHECK(spvgen_interpretation_name((SpvComponentType)11) == NULL);
  CHECK_EQ_U64(spvgen_interpretation_size(SpvComponentTypeFloat64NV), 8);
  CHECK_EQ_U64(spvgen_interpretation_size(SpvComponentTypeUnsignedInt8PackedNV), 1);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_coopmat_type_makes_constants_for_scope_rows_cols_and_use),
      TEST_CASE(test_coopmat_types_are_deduplicated),
      TEST_CASE(test_coopmat_type_id_variant_takes_specialization_constants),
      TEST_CASE(test_coop_type_query_reports_matrices_and_vectors_only),
      TEST_CASE(test_coopmat_load_store_take_layout_and_stride),
      TEST_CASE(test_coopmat_load_store_emit_memory_operands_in_bit_order),
      TEST_CASE(test_coopmat_load_id_takes_a_specialization_constant_layout),
      TEST_CASE(test_coopmat_arm_blocked_layouts_take_a_small_constant_stride),
      TEST_CASE(test_coopmat_muladd_of_float_matrices_has_no_operands),
      TEST_CASE(test_coopmat_muladd_signedness_comes_from_integer_component_types),
      TEST_CASE(test_coopmat_muladd_passes_saturating_accumulation),
      TEST_CASE(test_coopmat_length_is_a_uint),
      TEST_CASE(test_coopmat_splat_construct_extract_insert),
      TEST_CASE(test_coopmat_float_arithmetic_instructions),
      TEST_CASE(test_coopmat_integer_arithmetic_instructions),
      TEST_CASE(test_coopmat_conversions_pick_the_opcode_from_component_types),
      TEST_CASE(test_coopmat_conversion_from_accumulator_to_a_adds_conversions_capability),
      TEST_CASE(test_float16_int8_and_int16_components_infer_their_capabilities),
      TEST_CASE(test_bfloat16_matrix_declares_type_and_cooperative_matrix_capabilities),
      TEST_CASE(test_float8_matrices_declare_float8_and_cooperative_matrix_capabilities),
      TEST_CASE(test_interpretations_name_their_scalar_types),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
