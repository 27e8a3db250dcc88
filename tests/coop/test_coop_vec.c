/* tests/coop/test_coop_vec.c — the SPV_NV_cooperative_vector helpers of spvgen/coop.h:
 * the vector type, loads and stores, MatrixMul / MatrixMulAdd with every interpretation,
 * layout, transpose and stride form, the training accumulations, the arithmetic and the
 * GLSL.std.450 functions GLSL_NV_cooperative_vector allows. Each module validates (Vulkan
 * 1.3) and its disassembly has the instruction with the expected operands. The last test
 * is the MLP of the "Example syntax" section of GLSL_NV_cooperative_vector. */
#include <stdio.h>
#include <string.h>

#include "coop_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/coop.h"

#define U32S(...) ((const uint32_t[]){__VA_ARGS__})

/* ----------------------------------------------------------------- fixture ---- */

typedef coop_fixture fixture;

static uint32_t c(fixture *f, uint32_t v) { return spvgen_const_u32(f->m, v); }

/* &buffer.data: a pointer to the runtime array member of a spvgen_storage_buffer. */
static uint32_t array_of(spvgen_module *m, uint32_t buffer, uint32_t element_type) {
  uint32_t rta = spvgen_type_runtime_array_strided(m, element_type, spvgen_type_size(m, element_type));
  uint32_t pt = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, rta);
  uint32_t zero = spvgen_const_u32(m, 0);
  return spvgen_access_chain(m, pt, buffer, &zero, 1);
}

/* ------------------------------------------------------------------ types ---- */

static void test_coopvec_type_takes_component_and_count(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 32), "V32");
  uint32_t a = spvgen_type_coopvec(f.m, f.u32, 4), b = spvgen_type_coopvec(f.m, f.u32, 4);
  CHECK_EQ_U64(a, b);
  const char *lines[] = {
      "OpCapability CooperativeVectorNV",
      "OpExtension \"SPV_NV_cooperative_vector\"",
      "%V32 = OpTypeCooperativeVectorNV %half %uint_32",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_type_id_takes_a_specialization_constant_count(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t n = coop_named(f.m, spvgen_spec_const_u32(f.m, 16, 0), "n");
  uint32_t t = coop_named(f.m, spvgen_type_coopvec_id(f.m, f.f32, n), "Vn");
  spvgen_coop_type_info info;
  CHECK(spvgen_coop_type_query(f.m, t, &info));
  CHECK_EQ_U64(info.opcode, SpvOpTypeCooperativeVectorNV);
  CHECK_EQ_U64(info.count, SPVGEN_ABSENT);
  CHECK_EQ_U64(info.count_id, n);
  const char *lines[] = {"%Vn = OpTypeCooperativeVectorNV %float %n"};
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ---------------------------------------------------------- load/store ---- */

static void test_coopvec_load_store_from_buffer_and_shared_arrays(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t V = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "V");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "arr");
  uint32_t shared_t = spvgen_type_array(f.m, f.f16, 256);
  uint32_t shared = coop_named(f.m, spvgen_variable(f.m, spvgen_type_pointer(f.m, SpvStorageClassWorkgroup,
                                                                      shared_t),
                                             SpvStorageClassWorkgroup, 0), "shared");
  uint32_t v = coop_named(f.m, spvgen_coopvec_load(f.m, V, arr, c(&f, 32), NULL), "v");
  spvgen_coopvec_store(f.m, shared, v, 0, NULL);
  spvgen_memory_operands aligned = {SpvMemoryAccessAlignedMask, 16, 0};
  uint32_t w = coop_named(f.m, spvgen_coopvec_load(f.m, V, shared, c(&f, 16), &aligned), "w");
  spvgen_coopvec_store(f.m, arr, w, c(&f, 64), &aligned);
  const char *lines[] = {
      "%v = OpCooperativeVectorLoadNV %V %arr %uint_32",
      "OpCooperativeVectorStoreNV %shared %uint_0 %v",
      "%w = OpCooperativeVectorLoadNV %V %shared %uint_16 Aligned 16",
      "OpCooperativeVectorStoreNV %arr %uint_64 %w Aligned 16",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ---------------------------------------------------------------- matmul ---- */

static void test_coopvec_matmul_zeroed_desc_means_f16_row_major_tight_stride(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t R = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "R");
  uint32_t I = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 8), "I");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "arr");
  uint32_t in = coop_named(f.m, spvgen_coopvec_load(f.m, I, arr, 0, NULL), "in");
  spvgen_coopvec_matmul_desc d = {.result_type = R, .input = in, .matrix = arr};
  coop_named(f.m, spvgen_coopvec_matmul(f.m, &d), "r");
  const char *lines[] = {
      "%r = OpCooperativeVectorMatrixMulNV %R %in %uint_0 %arr %uint_0 %uint_0 %uint_16 %uint_8 "
      "%uint_0 %false %uint_16",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_matmul_add_takes_bias_offsets_layout_and_operands(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t R = coop_named(f.m, spvgen_type_coopvec(f.m, f.f32, 16), "R");
  uint32_t I = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 8), "I");
  uint32_t mat = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "mat");
  uint32_t bias = coop_named(f.m, array_of(f.m, f.buf32, f.f32), "bias");
  uint32_t in = coop_named(f.m, spvgen_coopvec_load(f.m, I, mat, 0, NULL), "in");
  spvgen_coopvec_matmul_desc d = {
      .result_type = R, .input = in, .matrix = mat, .matrix_offset = c(&f, 128),
      .bias = bias, .bias_offset = c(&f, 48), .bias_interpretation = SpvComponentTypeFloat32NV,
      .layout = SpvCooperativeVectorMatrixLayoutColumnMajorNV,
      .operands = SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask};
  coop_named(f.m, spvgen_coopvec_matmul_add(f.m, &d), "r");
  const char *lines[] = {
      "%r = OpCooperativeVectorMatrixMulAddNV %R %in %uint_0 %mat %uint_128 %uint_0 %bias %uint_48 "
      "%uint_1 %uint_16 %uint_8 %uint_1 %false %uint_32 MatrixBSignedComponentsKHR",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_matmul_packed_int8_input_holds_four_values_per_component(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t R = coop_named(f.m, spvgen_type_coopvec(f.m, f.s32, 8), "R");
  uint32_t I = coop_named(f.m, spvgen_type_coopvec(f.m, f.u32, 4), "I");
  uint32_t ep;
  uint32_t bufu = spvgen_storage_buffer(f.m, f.u32, 0, 2, true, &ep);
  uint32_t mat = coop_named(f.m, array_of(f.m, bufu, f.u32), "mat");
  uint32_t in = coop_named(f.m, spvgen_coopvec_load(f.m, I, mat, 0, NULL), "in");
  spvgen_coopvec_matmul_desc d = {
      .result_type = R, .input = in, .input_interpretation = SpvComponentTypeSignedInt8PackedNV,
      .matrix = mat, .matrix_interpretation = SpvComponentTypeSignedInt8NV, .bias = mat,
      .bias_offset = c(&f, 512), .bias_interpretation = SpvComponentTypeSignedInt32NV};
  coop_named(f.m, spvgen_coopvec_matmul_add(f.m, &d), "r");
  /* operands 0 are inferred from the types: the u32 packed input stays unsigned, the s32
   * result is signed (the H100 lists u32 s8-packed -> s32); an s32 input gets
   * MatrixBSignedComponents too; explicit operands are kept as given. */
  uint32_t sin = coop_named(f.m, spvgen_coopvec_load(f.m, R, mat, 0, NULL), "sin");
  spvgen_coopvec_matmul_desc e = {
      .result_type = R, .input = sin, .input_interpretation = SpvComponentTypeSignedInt8NV,
      .matrix = mat, .matrix_interpretation = SpvComponentTypeSignedInt8NV, .matrix_stride = 16};
  coop_named(f.m, spvgen_coopvec_matmul(f.m, &e), "r2");
  e.operands = SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask;
  coop_named(f.m, spvgen_coopvec_matmul(f.m, &e), "r3");
  const char *lines[] = {
      "%r = OpCooperativeVectorMatrixMulAddNV %R %in %uint_1000491000 %mat %uint_0 %uint_3 %mat "
      "%uint_512 %uint_5 %uint_8 %uint_16 %uint_0 %false %uint_16 MatrixResultSignedComponentsKHR",
      "%r2 = OpCooperativeVectorMatrixMulNV %R %sin %uint_3 %mat %uint_0 %uint_3 %uint_8 %uint_8 %uint_0 "
      "%false %uint_16 MatrixBSignedComponentsKHR|MatrixResultSignedComponentsKHR",
      "%r3 = OpCooperativeVectorMatrixMulNV %R %sin %uint_3 %mat %uint_0 %uint_3 %uint_8 %uint_8 %uint_0 "
      "%false %uint_16 MatrixResultSignedComponentsKHR",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* Every VkComponentTypeKHR value is accepted as the input interpretation, and every
 * non-packed one as the matrix interpretation. */
static void test_coopvec_matmul_accepts_every_interpretation(void) {
  static const SpvComponentType all[] = {
      SpvComponentTypeFloat16NV,       SpvComponentTypeFloat32NV,
      SpvComponentTypeFloat64NV,       SpvComponentTypeSignedInt8NV,
      SpvComponentTypeSignedInt16NV,   SpvComponentTypeSignedInt32NV,
      SpvComponentTypeSignedInt64NV,   SpvComponentTypeUnsignedInt8NV,
      SpvComponentTypeUnsignedInt16NV, SpvComponentTypeUnsignedInt32NV,
      SpvComponentTypeUnsignedInt64NV, SpvComponentTypeSignedInt8PackedNV,
      SpvComponentTypeUnsignedInt8PackedNV, SpvComponentTypeFloatE4M3NV,
      SpvComponentTypeFloatE5M2NV,
  };
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t R = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "R");
  uint32_t I = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 8), "I");
  uint32_t P = coop_named(f.m, spvgen_type_coopvec(f.m, f.u32, 2), "P");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "arr");
  uint32_t in = coop_named(f.m, spvgen_coopvec_load(f.m, I, arr, 0, NULL), "in");
  uint32_t packed = coop_named(f.m, spvgen_coopvec_load(f.m, P, arr, 0, NULL), "packed");
  const char *lines[15];
  static char text[15][160];
  for (int i = 0; i < 15; i++) {
    bool is_packed = all[i] == SpvComponentTypeSignedInt8PackedNV || all[i] == SpvComponentTypeUnsignedInt8PackedNV;
    spvgen_coopvec_matmul_desc d = {
        .result_type = R, .input = is_packed ? packed : in, .input_interpretation = all[i],
        .matrix = arr, .matrix_interpretation = is_packed ? SpvComponentTypeSignedInt8NV : all[i],
        .layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV};
    char name[16];
    snprintf(name, sizeof name, "r%d", i);
    coop_named(f.m, spvgen_coopvec_matmul(f.m, &d), name);
    snprintf(text[i], sizeof text[i],
             "%%%s = OpCooperativeVectorMatrixMulNV %%R %%%s %%uint_%u %%arr %%uint_0 %%uint_%u "
             "%%uint_16 %%uint_8 %%uint_2 %%false", name, is_packed ? "packed" : "in",
             (uint32_t)all[i], (uint32_t)(is_packed ? SpvComponentTypeSignedInt8NV : all[i]));
    lines[i] = text[i];
  }
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_matmul_optimal_layouts_take_transpose_and_optional_stride(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t R = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "R");
  uint32_t I = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "I");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "arr");
  uint32_t in = coop_named(f.m, spvgen_coopvec_load(f.m, I, arr, 0, NULL), "in");
  spvgen_coopvec_matmul_desc d = {.result_type = R, .input = in, .matrix = arr,
                                  .layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV,
                                  .transpose = true};
  coop_named(f.m, spvgen_coopvec_matmul(f.m, &d), "inf");
  d.layout = SpvCooperativeVectorMatrixLayoutTrainingOptimalNV;
  d.transpose = false;
  d.matrix_stride = 40; /* ignored by optimal layouts, but passed through */
  coop_named(f.m, spvgen_coopvec_matmul(f.m, &d), "train");
  const char *lines[] = {
      "%inf = OpCooperativeVectorMatrixMulNV %R %in %uint_0 %arr %uint_0 %uint_0 %uint_16 %uint_16 "
      "%uint_2 %true",
      "%train = OpCooperativeVectorMatrixMulNV %R %in %uint_0 %arr %uint_0 %uint_0 %uint_16 "
      "%uint_16 %uint_3 %false %uint_40",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_matmul_id_fields_take_specialization_constants(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t R = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "R");
  uint32_t I = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "I");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "arr");
  uint32_t in = coop_named(f.m, spvgen_coopvec_load(f.m, I, arr, 0, NULL), "in");
  uint32_t layout = coop_named(f.m, spvgen_spec_const_u32(f.m, 0, 1), "layout");
  uint32_t tr = coop_named(f.m, spvgen_spec_const_bool(f.m, false, 2), "tr");
  uint32_t interp = coop_named(f.m, spvgen_spec_const_u32(f.m, 0, 3), "interp");
  spvgen_coopvec_matmul_desc d = {.result_type = R, .input = in, .matrix = arr,
                                  .layout_id = layout, .transpose_id = tr,
                                  .matrix_interpretation_id = interp, .matrix_stride = 32};
  coop_named(f.m, spvgen_coopvec_matmul(f.m, &d), "r");
  /* The other id fields, through MatrixMulAdd (the only form with a bias interpretation):
   * M, K and the three interpretations from spec constants whose defaults agree with the
   * vector lengths (16) and FLOAT16 (0). */
  uint32_t mm = coop_named(f.m, spvgen_spec_const_u32(f.m, 16, 4), "M");
  uint32_t kk = coop_named(f.m, spvgen_spec_const_u32(f.m, 16, 5), "K");
  uint32_t in_interp = coop_named(f.m, spvgen_spec_const_u32(f.m, 0, 6), "in_interp");
  uint32_t bias_interp = coop_named(f.m, spvgen_spec_const_u32(f.m, 0, 7), "bias_interp");
  d = (spvgen_coopvec_matmul_desc){.result_type = R, .input = in, .matrix = arr,
                                   .bias = arr, .bias_offset = c(&f, 64),
                                   .m_id = mm, .k_id = kk, .layout_id = layout, .transpose_id = tr,
                                   .input_interpretation_id = in_interp,
                                   .matrix_interpretation_id = interp,
                                   .bias_interpretation_id = bias_interp, .matrix_stride = 32};
  coop_named(f.m, spvgen_coopvec_matmul_add(f.m, &d), "ra");
  const char *lines[] = {
      "%r = OpCooperativeVectorMatrixMulNV %R %in %uint_0 %arr %uint_0 %interp %uint_16 %uint_16 "
      "%layout %tr %uint_32",
      "OpDecorate %M SpecId 4",
      "OpDecorate %K SpecId 5",
      "OpDecorate %in_interp SpecId 6",
      "OpDecorate %bias_interp SpecId 7",
      "%M = OpSpecConstant %uint 16",
      "%K = OpSpecConstant %uint 16",
      "%ra = OpCooperativeVectorMatrixMulAddNV %R %in %in_interp %arr %uint_0 %interp %arr "
      "%uint_64 %bias_interp %M %K %layout %tr %uint_32",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_matmul_takes_a_run_time_stride(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t R = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "R");
  uint32_t I = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 8), "I");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "arr");
  uint32_t in = coop_named(f.m, spvgen_coopvec_load(f.m, I, arr, 0, NULL), "in");
  uint32_t ep;
  uint32_t bufu = spvgen_storage_buffer(f.m, f.u32, 0, 2, true, &ep);
  uint32_t stride = coop_named(f.m, spvgen_load(f.m, f.u32, spvgen_access_chain(f.m, ep, bufu,
                                                                          U32S(c(&f, 0), c(&f, 0)),
                                                                          2)), "stride");
  spvgen_coopvec_matmul_desc d = {.result_type = R, .input = in, .matrix = arr,
                                  .matrix_stride_id = stride};
  coop_named(f.m, spvgen_coopvec_matmul(f.m, &d), "r");
  const char *lines[] = {
      "%r = OpCooperativeVectorMatrixMulNV %R %in %uint_0 %arr %uint_0 %uint_0 %uint_16 %uint_8 "
      "%uint_0 %false %stride",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* Cooperative Matrix Operands come after MatrixStride: with an optimal layout and no
 * stride given, a 0 stride holds its place. */
static void test_coopvec_matmul_operands_follow_a_placeholder_stride(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t R = coop_named(f.m, spvgen_type_coopvec(f.m, f.s32, 16), "R");
  uint32_t I = coop_named(f.m, spvgen_type_coopvec(f.m, f.s32, 8), "I");
  uint32_t ep;
  uint32_t bufi = spvgen_storage_buffer(f.m, f.s32, 0, 2, true, &ep);
  uint32_t arr = coop_named(f.m, array_of(f.m, bufi, f.s32), "arr");
  uint32_t in = coop_named(f.m, spvgen_coopvec_load(f.m, I, arr, 0, NULL), "in");
  spvgen_coopvec_matmul_desc d = {
      .result_type = R, .input = in, .input_interpretation = SpvComponentTypeSignedInt8NV, .matrix = arr,
      .matrix_interpretation = SpvComponentTypeSignedInt8NV,
      .layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV,
      .operands = SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask};
  coop_named(f.m, spvgen_coopvec_matmul(f.m, &d), "r");
  const char *lines[] = {
      "%r = OpCooperativeVectorMatrixMulNV %R %in %uint_3 %arr %uint_0 %uint_3 %uint_16 %uint_8 "
      "%uint_2 %false %uint_0 MatrixBSignedComponentsKHR",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ------------------------------------------------------------- training ---- */

static void test_coopvec_outer_product_accumulate(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t A = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "A");
  uint32_t B = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 8), "B");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "arr");
  uint32_t a = coop_named(f.m, spvgen_coopvec_load(f.m, A, arr, 0, NULL), "a");
  uint32_t b = coop_named(f.m, spvgen_coopvec_load(f.m, B, arr, c(&f, 32), NULL), "b");
  spvgen_coopvec_outer_product_desc d = {.pointer = arr, .a = a, .b = b};
  spvgen_coopvec_outer_product_accumulate(f.m, &d);
  d.layout = SpvCooperativeVectorMatrixLayoutColumnMajorNV; /* columns of M = 16 halves */
  spvgen_coopvec_outer_product_accumulate(f.m, &d);
  d.offset = c(&f, 256);
  d.layout = SpvCooperativeVectorMatrixLayoutTrainingOptimalNV;
  d.matrix_interpretation = SpvComponentTypeFloat32NV;
  spvgen_coopvec_outer_product_accumulate(f.m, &d);
  const char *lines[] = {
      "OpCapability CooperativeVectorTrainingNV",
      "OpCooperativeVectorOuterProductAccumulateNV %arr %uint_0 %a %b %uint_0 %uint_0 %uint_16",
      "OpCooperativeVectorOuterProductAccumulateNV %arr %uint_0 %a %b %uint_1 %uint_0 %uint_32",
      "OpCooperativeVectorOuterProductAccumulateNV %arr %uint_256 %a %b %uint_3 %uint_1",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* Every *_id field of the outer-product desc: the layout, the accumulation type and the
 * stride from spec constants (defaults RowMajorNV 0, FLOAT16 0, 16 bytes = N halves). */
static void test_coopvec_outer_product_id_fields_take_specialization_constants(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t A = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 16), "A");
  uint32_t B = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 8), "B");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf16, f.f16), "arr");
  uint32_t a = coop_named(f.m, spvgen_coopvec_load(f.m, A, arr, 0, NULL), "a");
  uint32_t b = coop_named(f.m, spvgen_coopvec_load(f.m, B, arr, c(&f, 32), NULL), "b");
  uint32_t layout = coop_named(f.m, spvgen_spec_const_u32(f.m, 0, 1), "layout");
  uint32_t interp = coop_named(f.m, spvgen_spec_const_u32(f.m, 0, 2), "interp");
  uint32_t stride = coop_named(f.m, spvgen_spec_const_u32(f.m, 16, 3), "stride");
  spvgen_coopvec_outer_product_desc d = {.pointer = arr, .offset = c(&f, 128), .a = a, .b = b,
                                         .layout_id = layout, .matrix_interpretation_id = interp,
                                         .matrix_stride_id = stride};
  spvgen_coopvec_outer_product_accumulate(f.m, &d);
  const char *lines[] = {
      "OpCapability CooperativeVectorTrainingNV",
      "OpDecorate %layout SpecId 1",
      "OpDecorate %interp SpecId 2",
      "OpDecorate %stride SpecId 3",
      "%layout = OpSpecConstant %uint 0",
      "%interp = OpSpecConstant %uint 0",
      "%stride = OpSpecConstant %uint 16",
      "OpCooperativeVectorOuterProductAccumulateNV %arr %uint_128 %a %b %layout %interp %stride",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_reduce_sum_accumulate(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t V = coop_named(f.m, spvgen_type_coopvec(f.m, f.f32, 8), "V");
  uint32_t arr = coop_named(f.m, array_of(f.m, f.buf32, f.f32), "arr");
  uint32_t v = coop_named(f.m, spvgen_coopvec_load(f.m, V, arr, 0, NULL), "v");
  spvgen_coopvec_reduce_sum_accumulate(f.m, arr, v, c(&f, 32));
  const char *lines[] = {
      "OpCapability CooperativeVectorTrainingNV",
      "OpCooperativeVectorReduceSumAccumulateNV %arr %uint_32 %v",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ------------------------------------------------------ composite & math ---- */

static void test_coopvec_splat_construct_extract_insert_convert(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t V = coop_named(f.m, spvgen_type_coopvec(f.m, f.f32, 3), "V");
  uint32_t H = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 3), "H");
  uint32_t one = spvgen_const_f32(f.m, 1.0f);
  coop_named(f.m, spvgen_coop_splat(f.m, V, one), "ones");
  uint32_t arr = array_of(f.m, f.buf32, f.f32);
  uint32_t x = coop_named(f.m, spvgen_coopvec_load(f.m, V, arr, 0, NULL), "x");
  uint32_t e0 = coop_named(f.m, spvgen_coop_extract(f.m, x, 0), "e0");
  uint32_t e2 = coop_named(f.m, spvgen_coop_extract(f.m, x, 2), "e2");
  uint32_t y = coop_named(f.m, spvgen_coop_construct(f.m, V, U32S(e2, e0, e0), 3), "y");
  coop_named(f.m, spvgen_coop_splat(f.m, V, e0), "s");
  uint32_t z = coop_named(f.m, spvgen_coop_insert(f.m, y, one, 1), "z");
  coop_named(f.m, spvgen_coop_convert(f.m, H, z), "h");
  const char *lines[] = {
      "%ones = OpConstantComposite %V %float_1 %float_1 %float_1",
      "%e2 = OpCompositeExtract %float %x 2",
      "%y = OpCompositeConstruct %V %e2 %e0 %e0",
      "%s = OpCompositeConstruct %V %e0 %e0 %e0",
      "%z = OpCompositeInsert %V %float_1 %y 1",
      "%h = OpFConvert %H %z",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_float_arithmetic(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t V = coop_named(f.m, spvgen_type_coopvec(f.m, f.f32, 8), "V");
  uint32_t arr = array_of(f.m, f.buf32, f.f32);
  uint32_t a = coop_named(f.m, spvgen_coopvec_load(f.m, V, arr, 0, NULL), "a");
  uint32_t b = coop_named(f.m, spvgen_coopvec_load(f.m, V, arr, c(&f, 32), NULL), "b");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpFAdd, a, b), "add");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpFSub, a, b), "sub");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpFMul, a, b), "mul");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpFDiv, a, b), "div");
  coop_named(f.m, spvgen_coop_negate(f.m, a), "neg");
  coop_named(f.m, spvgen_coop_scale(f.m, a, spvgen_const_f32(f.m, 0.5f)), "half");
  const char *lines[] = {
      "%add = OpFAdd %V %a %b", "%sub = OpFSub %V %a %b", "%mul = OpFMul %V %a %b",
      "%div = OpFDiv %V %a %b", "%neg = OpFNegate %V %a",
      "%half = OpVectorTimesScalar %V %a %float_0_5",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_integer_arithmetic_and_bitwise_operators(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t U = coop_named(f.m, spvgen_type_coopvec(f.m, f.u32, 4), "U");
  uint32_t S = coop_named(f.m, spvgen_type_coopvec(f.m, f.s32, 4), "S");
  uint32_t ep;
  uint32_t bufu = spvgen_storage_buffer(f.m, f.u32, 0, 2, false, &ep);
  uint32_t arr = array_of(f.m, bufu, f.u32);
  uint32_t a = coop_named(f.m, spvgen_coopvec_load(f.m, U, arr, 0, NULL), "a");
  uint32_t b = coop_named(f.m, spvgen_coopvec_load(f.m, U, arr, c(&f, 16), NULL), "b");
  uint32_t s = coop_named(f.m, spvgen_coopvec_load(f.m, S, arr, c(&f, 32), NULL), "s");
  static const struct { SpvOp op; const char *name; } ops[] = {
      {SpvOpIAdd, "IAdd"}, {SpvOpISub, "ISub"}, {SpvOpIMul, "IMul"}, {SpvOpUDiv, "UDiv"},
      {SpvOpBitwiseAnd, "BitwiseAnd"}, {SpvOpBitwiseOr, "BitwiseOr"},
      {SpvOpBitwiseXor, "BitwiseXor"}, {SpvOpShiftLeftLogical, "ShiftLeftLogical"},
      {SpvOpShiftRightLogical, "ShiftRightLogical"},
  };
  static char text[12][96];
  const char *lines[12];
  int n = 0;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    char name[16];
    snprintf(name, sizeof name, "r%zu", i);
    coop_named(f.m, spvgen_coop_arith(f.m, ops[i].op, a, b), name);
    snprintf(text[n], sizeof text[n], "%%%s = Op%s %%U %%a %%b", name, ops[i].name);
    lines[n] = text[n];
    n++;
  }
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpShiftRightArithmetic, s, s), "sra");
  coop_named(f.m, spvgen_coop_arith(f.m, SpvOpSDiv, s, s), "sdiv");
  coop_named(f.m, spvgen_coop_not(f.m, a), "not");
  lines[n++] = "%sra = OpShiftRightArithmetic %S %s %s";
  lines[n++] = "%sdiv = OpSDiv %S %s %s";
  lines[n++] = "%not = OpNot %U %a";
  coop_finish_and_match(&f, lines, n);
}

static void test_coopvec_integer_scale_splats_the_scalar(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t U = coop_named(f.m, spvgen_type_coopvec(f.m, f.u32, 4), "U");
  uint32_t a = coop_named(f.m, spvgen_coop_splat(f.m, U, c(&f, 5)), "a");
  coop_named(f.m, spvgen_coop_scale(f.m, a, c(&f, 3)), "r");
  coop_named(f.m, spvgen_coop_splat(f.m, U, c(&f, 3)), "threes");
  const char *lines[] = {
      "%threes = OpConstantComposite %U %uint_3 %uint_3 %uint_3 %uint_3",
      "%r = OpIMul %U %a %threes",
  };
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

static void test_coopvec_glsl_functions_allowed_on_cooperative_vectors(void) {
  fixture f = coop_begin(32, COOP_FIXTURE_S32);
  uint32_t glsl = spvgen_glsl_std_450(f.m);
  uint32_t V = coop_named(f.m, spvgen_type_coopvec(f.m, f.f16, 8), "V");
  uint32_t S = coop_named(f.m, spvgen_type_coopvec(f.m, f.s32, 4), "S");
  uint32_t U = coop_named(f.m, spvgen_type_coopvec(f.m, f.u32, 4), "U");
  uint32_t arr = array_of(f.m, f.buf16, f.f16);
  uint32_t x = coop_named(f.m, spvgen_coopvec_load(f.m, V, arr, 0, NULL), "x");
  uint32_t y = coop_named(f.m, spvgen_coopvec_load(f.m, V, arr, c(&f, 16), NULL), "y");
  uint32_t z = coop_named(f.m, spvgen_coopvec_load(f.m, V, arr, c(&f, 32), NULL), "z");
  uint32_t si = coop_named(f.m, spvgen_coop_splat(f.m, S, spvgen_const_i32(f.m, -2)), "si");
  uint32_t ui = coop_named(f.m, spvgen_coop_splat(f.m, U, c(&f, 2)), "ui");
  coop_named(f.m, spvgen_coopvec_fma(f.m, x, y, z), "fma");
  coop_named(f.m, spvgen_coopvec_exp(f.m, x), "exp");
  coop_named(f.m, spvgen_coopvec_log(f.m, x), "log");
  coop_named(f.m, spvgen_coopvec_tanh(f.m, x), "tanh");
  coop_named(f.m, spvgen_coopvec_atan(f.m, x), "atan");
  coop_named(f.m, spvgen_coopvec_min(f.m, x, y), "fmin");
  coop_named(f.m, spvgen_coopvec_max(f.m, x, y), "fmax");
  coop_named(f.m, spvgen_coopvec_clamp(f.m, x, y, z), "fclamp");
  coop_named(f.m, spvgen_coopvec_step(f.m, y, x), "step");
  coop_named(f.m, spvgen_coopvec_min(f.m, si, si), "smin");
  coop_named(f.m, spvgen_coopvec_max(f.m, si, si), "smax");
  coop_named(f.m, spvgen_coopvec_clamp(f.m, si, si, si), "sclamp");
  coop_named(f.m, spvgen_coopvec_min(f.m, ui, ui), "umin");
  coop_named(f.m, spvgen_coopvec_max(f.m, ui, ui), "umax");
  coop_named(f.m, spvgen_coopvec_clamp(f.m, ui, ui, ui), "uclamp");
  /* The disassembler gives OpExtInstImport no friendly name: use its number. */
  static const char *const expected[] = {
      "%%fma = OpExtInst %%V %%%u Fma %%x %%y %%z",
      "%%exp = OpExtInst %%V %%%u Exp %%x",
      "%%log = OpExtInst %%V %%%u Log %%x",
      "%%tanh = OpExtInst %%V %%%u Tanh %%x",
      "%%atan = OpExtInst %%V %%%u Atan %%x",
      "%%fmin = OpExtInst %%V %%%u FMin %%x %%y",
      "%%fmax = OpExtInst %%V %%%u FMax %%x %%y",
      "%%fclamp = OpExtInst %%V %%%u FClamp %%x %%y %%z",
      "%%step = OpExtInst %%V %%%u Step %%y %%x",
      "%%smin = OpExtInst %%S %%%u SMin %%si %%si",
      "%%smax = OpExtInst %%S %%%u SMax %%si %%si",
      "%%sclamp = OpExtInst %%S %%%u SClamp %%si %%si %%si",
      "%%umin = OpExtInst %%U %%%u UMin %%ui %%ui",
      "%%umax = OpExtInst %%U %%%u UMax %%ui %%ui",
      "%%uclamp = OpExtInst %%U %%%u UClamp %%ui %%ui %%ui",
  };
  static char text[15][96];
  const char *lines[15];
  for (int i = 0; i < 15; i++) {
    snprintf(text[i], sizeof text[i], expected[i], glsl);
    lines[i] = text[i];
  }
  coop_finish_and_match(&f, lines, (int)(sizeof lines / sizeof *lines));
}

/* ------------------------------------------------------------------ MLP ---- */

/* The "Example syntax" section of GLSL_NV_cooperative_vector, written with the builder:
 *   inputVec (6 x f16) -> matmul 32x6 -> max(0, .) -> matmul 32x32 -> tanh ->
 *   matmul 8x32 -> resultVec (8 x f16),
 * every matrix float16 row-major in one buffer, strides as the example writes them
 * (MLPDim * 2, MLPDim * 2) except the last: the example's resultDim * 2 = 16 bytes is
 * smaller than a row of the 8 x 32 matrix (K = 32 float16 = 64 bytes), which the helper
 * refuses (rows would overlap; tests/coop/test_coop_errors.c), so it is MLPDim * 2. The inputs come from a second buffer,
 * the result goes to a third at 16 bytes per invocation. */
static void test_mlp_of_the_glsl_example_syntax(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f16 = spvgen_type_float(m, 16), u32 = spvgen_type_int(m, 32, false);
  uint32_t ep16;
  uint32_t matrix_buf = spvgen_storage_buffer(m, f16, 0, 0, true, NULL);
  uint32_t input_buf = spvgen_storage_buffer(m, f16, 0, 1, true, &ep16);
  uint32_t output_buf = spvgen_storage_buffer(m, f16, 0, 2, false, NULL);
  uint32_t uvec3 = spvgen_type_vector(m, u32, 3);
  uint32_t gid_var = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, uvec3);
  spvgen_compute_main(m, "main", 32, 1, 1);
  uint32_t glsl = spvgen_glsl_std_450(m);

  const uint32_t input_dim = 6, mlp_dim = 32, result_dim = 8;
  uint32_t in_t = coop_named(m, spvgen_type_coopvec(m, f16, input_dim), "vec6");
  uint32_t mlp_t = coop_named(m, spvgen_type_coopvec(m, f16, mlp_dim), "vec32");
  uint32_t res_t = coop_named(m, spvgen_type_coopvec(m, f16, result_dim), "vec8");
  uint32_t matrix = coop_named(m, array_of(m, matrix_buf, f16), "matrixData");

  uint32_t gid = spvgen_op_composite_extract(m, u32, spvgen_load(m, uvec3, gid_var), U32S(0), 1);
  /* coopvecNV<float16_t, inputDim> inputVec = coopvecNV<float16_t, inputDim>(materialstate, ...) */
  uint32_t parts[6];
  for (uint32_t i = 0; i < input_dim; i++) {
    uint32_t index = spvgen_op_i_add(m, u32, spvgen_op_i_mul(m, u32, gid, spvgen_const_u32(m, 8)),
                                     spvgen_const_u32(m, i));
    uint32_t idx[2] = {spvgen_const_u32(m, 0), index};
    parts[i] = spvgen_load(m, f16, spvgen_access_chain(m, ep16, input_buf, idx, 2));
  }
  uint32_t input_vec = coop_named(m, spvgen_coop_construct(m, in_t, parts, input_dim), "inputVec");

  uint32_t offset1 = spvgen_const_u32(m, 0), offset2 = spvgen_const_u32(m, 2048),
           offset3 = spvgen_const_u32(m, 4096);
  spvgen_coopvec_matmul_desc d = {.result_type = mlp_t, .input = input_vec, .matrix = matrix,
                                  .matrix_offset = offset1, .m = mlp_dim, .k = input_dim,
                                  .matrix_stride = mlp_dim * 2};
  uint32_t mlp = coop_named(m, spvgen_coopvec_matmul(m, &d), "layer1");
  /* ReLU activation: mlpVec = max(coopvecNV<float16_t, MLPDim>(0), mlpVec) */
  uint32_t zeros = coop_named(m, spvgen_coop_splat_float(m, mlp_t, 0.0), "zeros");
  mlp = coop_named(m, spvgen_coopvec_max(m, zeros, mlp), "relu");
  d = (spvgen_coopvec_matmul_desc){.result_type = mlp_t, .input = mlp, .matrix = matrix,
                                   .matrix_offset = offset2, .m = mlp_dim, .k = mlp_dim,
                                   .matrix_stride = mlp_dim * 2};
  mlp = coop_named(m, spvgen_coopvec_matmul(m, &d), "layer2");
  /* tanh activation */
  mlp = coop_named(m, spvgen_coopvec_tanh(m, mlp), "act");
  d = (spvgen_coopvec_matmul_desc){.result_type = res_t, .input = mlp, .matrix = matrix,
                                   .matrix_offset = offset3, .m = result_dim, .k = mlp_dim,
                                   .matrix_stride = mlp_dim * 2};
  uint32_t result = coop_named(m, spvgen_coopvec_matmul(m, &d), "resultVec");
  uint32_t out_offset = spvgen_op_i_mul(m, u32, gid, spvgen_const_u32(m, 16));
  spvgen_coopvec_store(m, array_of(m, output_buf, f16), result, out_offset, NULL);
  spvgen_function_end(m);

  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  char *text = words ? check_disassemble(words, count) : NULL;
  char relu_line[80], act_line[80];
  snprintf(relu_line, sizeof relu_line, "%%relu = OpExtInst %%vec32 %%%u FMax %%zeros %%layer1", glsl);
  snprintf(act_line, sizeof act_line, "%%act = OpExtInst %%vec32 %%%u Tanh %%layer2", glsl);
  const char *lines[] = {
      "%layer1 = OpCooperativeVectorMatrixMulNV %vec32 %inputVec %uint_0 %matrixData %uint_0 "
      "%uint_0 %uint_32 %uint_6 %uint_0 %false %uint_64",
      relu_line,
      "%layer2 = OpCooperativeVectorMatrixMulNV %vec32 %relu %uint_0 %matrixData %uint_2048 "
      "%uint_0 %uint_32 %uint_32 %uint_0 %false %uint_64",
      act_line,
      "%resultVec = OpCooperativeVectorMatrixMulNV %vec8 %act %uint_0 %matrixData %uint_4096 "
      "%uint_0 %uint_8 %uint_32 %uint_0 %false %uint_64",
  };
  check_has_lines(text, lines, (int)(sizeof lines / sizeof *lines));
  /* Exactly three matrix multiplies. */
  int matmuls = 0;
  for (const char *p = text; p && (p = strstr(p, "OpCooperativeVectorMatrixMulNV")); p++) matmuls++;
  CHECK_EQ_U64(matmuls, 3);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_coopvec_type_takes_component_and_count),
      TEST_CASE(test_coopvec_type_id_takes_a_specialization_constant_count),
      TEST_CASE(test_coopvec_load_store_from_buffer_and_shared_arrays),
      TEST_CASE(test_coopvec_matmul_zeroed_desc_means_f16_row_major_tight_stride),
      TEST_CASE(test_coopvec_matmul_add_takes_bias_offsets_layout_and_operands),
      TEST_CASE(test_coopvec_matmul_packed_int8_input_holds_four_values_per_component),
      TEST_CASE(test_coopvec_matmul_accepts_every_interpretation),
      TEST_CASE(test_coopvec_matmul_optimal_layouts_take_transpose_and_optional_stride),
      TEST_CASE(test_coopvec_matmul_id_fields_take_specialization_constants),
      TEST_CASE(test_coopvec_matmul_takes_a_run_time_stride),
      TEST_CASE(test_coopvec_matmul_operands_follow_a_placeholder_stride),
      TEST_CASE(test_coopvec_outer_product_accumulate),
      TEST_CASE(test_coopvec_outer_product_id_fields_take_specialization_constants),
      TEST_CASE(test_coopvec_reduce_sum_accumulate),
      TEST_CASE(test_coopvec_splat_construct_extract_insert_convert),
      TEST_CASE(test_coopvec_float_arithmetic),
      TEST_CASE(test_coopvec_integer_arithmetic_and_bitwise_operators),
      TEST_CASE(test_coopvec_integer_scale_splats_the_scalar),
      TEST_CASE(test_coopvec_glsl_functions_allowed_on_cooperative_vectors),
      TEST_CASE(test_mlp_of_the_glsl_example_syntax),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
