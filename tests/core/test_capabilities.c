/* tests/core/test_capabilities.c — capability, extension and minimum-version inference
 * from the grammar: types, storage of small types, instructions, enumerants, the memory
 * model; each capability and extension declared once; an item newer than the module's
 * SPIR-V version is SPVGEN_ERROR_UNSUPPORTED. */
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "words.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* Finishes with an empty main (unless one is open already) and validates. Returns the
 * words (owned by the module). */
static const uint32_t *finish_with_main(spvgen_module *m, size_t *n) {
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  return check_module(m, n);
}

/* ------------------------------------------------------------------ tests ---- */

static void test_small_and_wide_scalar_types_declare_their_capabilities(void) {
  static const struct {
    int is_float;
    uint32_t width;
    SpvCapability cap;
  } cases[] = {{1, 16, SpvCapabilityFloat16}, {1, 64, SpvCapabilityFloat64},
               {0, 8, SpvCapabilityInt8},     {0, 16, SpvCapabilityInt16},
               {0, 64, SpvCapabilityInt64}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_module *m = spvgen_module_create(NULL);
    CHECK(!spvgen_has_capability(m, cases[i].cap));
    if (cases[i].is_float)
      spvgen_type_float(m, cases[i].width);
    else
      spvgen_type_int(m, cases[i].width, false);
    CHECK_MSG(spvgen_has_capability(m, cases[i].cap), "case %zu: capability %u missing", i,
              (unsigned)cases[i].cap);
    size_t n = 0;
    const uint32_t *w = finish_with_main(m, &n);
    CHECK_EQ_U64(words_capability_count(w, n, cases[i].cap), 1);
    spvgen_module_destroy(m);
  }
  /* 32-bit types need nothing beyond Shader. */
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_type_float(m, 32);
  spvgen_type_int(m, 32, true);
  size_t n = 0;
  const uint32_t *w = finish_with_main(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityFloat16), 0);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityInt8), 0);
  spvgen_module_destroy(m);
}

static void test_small_types_in_buffers_declare_storage_capabilities(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f16 = spvgen_type_float(m, 16), u8 = spvgen_type_int(m, 8, false);
  /* Private and Function storage need no storage capability. */
  spvgen_type_pointer(m, SpvStorageClassPrivate, f16);
  CHECK(!spvgen_has_capability(m, SpvCapabilityStorageBuffer16BitAccess));
  uint32_t h = spvgen_storage_buffer(m, f16, 0, 0, false, NULL);
  CHECK(h != 0);
  CHECK(spvgen_has_capability(m, SpvCapabilityStorageBuffer16BitAccess));
  CHECK(!spvgen_has_capability(m, SpvCapabilityStorageBuffer8BitAccess));
  uint32_t b = spvgen_storage_buffer(m, u8, 0, 1, false, NULL);
  CHECK(b != 0);
  CHECK(spvgen_has_capability(m, SpvCapabilityStorageBuffer8BitAccess));
  /* A 16-bit member of a push-constant block. */
  uint32_t pc_t = spvgen_type_struct(m, &f16, 1);
  spvgen_decorate(m, pc_t, SpvDecorationBlock);
  spvgen_member_decorate1(m, pc_t, 0, SpvDecorationOffset, 0);
  spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, pc_t),
                  SpvStorageClassPushConstant, 0);
  CHECK(spvgen_has_capability(m, SpvCapabilityStoragePushConstant16));
  size_t n = 0;
  const uint32_t *w = finish_with_main(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityStorageBuffer16BitAccess), 1);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityStorageBuffer8BitAccess), 1);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityStoragePushConstant16), 1);
  /* Core since SPIR-V 1.3 and 1.5: no extension in a 1.6 module. */
  CHECK_EQ_U64(words_extension_count(w, n, "SPV_KHR_16bit_storage"), 0);
  CHECK_EQ_U64(words_extension_count(w, n, "SPV_KHR_8bit_storage"), 0);
  spvgen_module_destroy(m);
}

static void test_16bit_storage_before_spirv_1_3_declares_the_extension(void) {
  spvgen_module_desc d = {.version = SPVGEN_VERSION(1, 2), .memory_model = SpvMemoryModelGLSL450};
  spvgen_module *m = spvgen_module_create(&d);
  uint32_t f16 = spvgen_type_float(m, 16);
  uint32_t st = spvgen_type_struct(m, &f16, 1);
  spvgen_decorate(m, st, SpvDecorationBlock);
  spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
  spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, st),
                  SpvStorageClassPushConstant, 0);
  CHECK(spvgen_has_extension(m, "SPV_KHR_16bit_storage"));
  size_t n = 0;
  const uint32_t *w = finish_with_main(m, &n);
  CHECK_EQ_U64(words_extension_count(w, n, "SPV_KHR_16bit_storage"), 1);
  spvgen_module_destroy(m);
}

static void test_subgroup_operations_declare_group_non_uniform_capabilities(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), f32 = spvgen_type_float(m, 32),
           bool_t = spvgen_type_bool(m);
  uint32_t v4u = spvgen_type_vector(m, u32, 4);
  uint32_t sg = spvgen_const_u32(m, SpvScopeSubgroup);
  spvgen_compute_main(m, "main", 32, 1, 1);
  uint32_t e = spvgen_op_group_non_uniform_elect(m, bool_t, sg);
  CHECK(spvgen_has_capability(m, SpvCapabilityGroupNonUniform));
  CHECK(!spvgen_has_capability(m, SpvCapabilityGroupNonUniformBallot));
  spvgen_op_group_non_uniform_ballot(m, v4u, sg, e);
  CHECK(spvgen_has_capability(m, SpvCapabilityGroupNonUniformBallot));
  spvgen_op_group_non_uniform_f_add(m, f32, sg, SpvGroupOperationReduce, spvgen_const_f32(m, 1.0f), 0);
  CHECK(spvgen_has_capability(m, SpvCapabilityGroupNonUniformArithmetic));
  spvgen_op_group_non_uniform_shuffle_xor(m, u32, sg, spvgen_const_u32(m, 5), spvgen_const_u32(m, 1));
  CHECK(spvgen_has_capability(m, SpvCapabilityGroupNonUniformShuffle));
  spvgen_op_group_non_uniform_all(m, bool_t, sg, e);
  CHECK(spvgen_has_capability(m, SpvCapabilityGroupNonUniformVote));
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityGroupNonUniform), 1);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityGroupNonUniformArithmetic), 1);
  spvgen_module_destroy(m);
}

static void test_cooperative_matrix_type_declares_capability_and_extension(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f16 = spvgen_type_float(m, 16);
  uint32_t scope = spvgen_const_u32(m, SpvScopeSubgroup), k16 = spvgen_const_u32(m, 16),
           use = spvgen_const_u32(m, SpvCooperativeMatrixUseMatrixAKHR);
  CHECK(!spvgen_has_capability(m, SpvCapabilityCooperativeMatrixKHR));
  uint32_t t = spvgen_op_type_cooperative_matrix_khr(m, f16, scope, k16, k16, use);
  CHECK(t != 0);
  CHECK(spvgen_has_capability(m, SpvCapabilityCooperativeMatrixKHR));
  CHECK(spvgen_has_extension(m, "SPV_KHR_cooperative_matrix"));
  /* Asking again changes nothing. */
  CHECK_EQ_U64(spvgen_op_type_cooperative_matrix_khr(m, f16, scope, k16, k16, use), t);
  size_t n = 0;
  const uint32_t *w = finish_with_main(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityCooperativeMatrixKHR), 1);
  CHECK_EQ_U64(words_extension_count(w, n, "SPV_KHR_cooperative_matrix"), 1);
  spvgen_module_destroy(m);
}

static void test_the_vulkan_memory_model_declares_its_capability(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(spvgen_has_capability(m, SpvCapabilityVulkanMemoryModel));
  size_t n = 0;
  const uint32_t *w = finish_with_main(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityVulkanMemoryModel), 1);
  CHECK_EQ_U64(words_extension_count(w, n, "SPV_KHR_vulkan_memory_model"), 0); /* core in 1.5 */
  spvgen_module_destroy(m);

  spvgen_module_desc glsl = {.memory_model = SpvMemoryModelGLSL450};
  m = spvgen_module_create(&glsl);
  CHECK(!spvgen_has_capability(m, SpvCapabilityVulkanMemoryModel));
  w = finish_with_main(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityVulkanMemoryModel), 0);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityShader), 1);
  spvgen_module_destroy(m);

  /* Before 1.5 the Vulkan memory model comes from an extension. */
  spvgen_module_desc old = {.version = SPVGEN_VERSION(1, 3)};
  m = spvgen_module_create(&old);
  CHECK(spvgen_has_extension(m, "SPV_KHR_vulkan_memory_model"));
  w = finish_with_main(m, &n);
  CHECK_EQ_U64(words_extension_count(w, n, "SPV_KHR_vulkan_memory_model"), 1);
  spvgen_module_destroy(m);
}

/* Under the Vulkan memory model, Device scope (an id operand, so beyond what the grammar
 * says) needs VulkanMemoryModelDeviceScope; split-k GEMM atomics use it. */
static void test_device_scope_under_the_vulkan_memory_model_declares_its_capability(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, u32, 0, 0, false, &elem_ptr);
  uint32_t device = spvgen_const_u32(m, SpvScopeDevice);
  uint32_t relaxed = spvgen_const_u32(m, SpvMemorySemanticsMaskNone);
  uint32_t zero = spvgen_const_u32(m, 0), one = spvgen_const_u32(m, 1);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t idx[2] = {zero, zero};
  uint32_t p = spvgen_access_chain(m, elem_ptr, buf, idx, 2);
  spvgen_op_atomic_i_add(m, u32, p, device, relaxed, one);
  CHECK(spvgen_has_capability(m, SpvCapabilityVulkanMemoryModelDeviceScope));
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityVulkanMemoryModelDeviceScope), 1);
  spvgen_module_destroy(m);
}

static void test_an_instruction_newer_than_the_target_version_is_unsupported(void) {
  spvgen_module_desc d = {.version = SPVGEN_VERSION(1, 3), .memory_model = SpvMemoryModelGLSL450};
  spvgen_module *m = spvgen_module_create(&d);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t a = spvgen_type_struct(m, &u32, 1), b = spvgen_type_struct(m, &u32, 1);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t c = spvgen_const_null(m, a);
  CHECK_EQ_U64(spvgen_op_copy_logical(m, b, c), 0);
  check_module_error(m, SPVGEN_ERROR_UNSUPPORTED,
                     "OpCopyLogical requires SPIR-V 1.4, but the module targets 1.3");
  CHECK_CONTAINS(spvgen_module_error(m), "spvgen_op_copy_logical");
  spvgen_module_destroy(m);

  m = spvgen_module_create(&d);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t pp = spvgen_type_pointer(m, SpvStorageClassPrivate, f32);
  uint32_t v = spvgen_variable(m, pp, SpvStorageClassPrivate, 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  CHECK_EQ_U64(spvgen_op_ptr_equal(m, spvgen_type_bool(m), v, v), 0);
  check_module_error(m, SPVGEN_ERROR_UNSUPPORTED,
                     "OpPtrEqual requires SPIR-V 1.4, but the module targets 1.3");
  spvgen_module_destroy(m);
}

static void test_an_enumerant_newer_than_the_target_version_is_unsupported(void) {
  /* LocalSizeId is SPIR-V 1.2. */
  spvgen_module_desc d = {.version = SPVGEN_VERSION(1, 1), .memory_model = SpvMemoryModelGLSL450};
  spvgen_module *m = spvgen_module_create(&d);
  uint32_t one = spvgen_const_u32(m, 1);
  uint32_t f = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_function_end(m);
  uint32_t ids[3] = {one, one, one};
  spvgen_execution_mode_id(m, f, SpvExecutionModeLocalSizeId, ids, 3);
  check_module_error(m, SPVGEN_ERROR_UNSUPPORTED, "requires SPIR-V 1.2, but the module targets 1.1");
  spvgen_module_destroy(m);
}

static void test_min_version_follows_the_content(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK_EQ_U64(spvgen_module_min_version(m), SPVGEN_VERSION(1, 0));
  uint32_t u32 = spvgen_type_int(m, 32, false);
  /* Two structs with the same members (never merged) match logically. */
  uint32_t a = spvgen_type_struct(m, &u32, 1), b = spvgen_type_struct(m, &u32, 1);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t va = spvgen_const_null(m, a);
  CHECK_EQ_U64(spvgen_module_min_version(m), SPVGEN_VERSION(1, 0));
  CHECK(spvgen_op_copy_logical(m, b, va) != 0);
  CHECK_EQ_U64(spvgen_module_min_version(m), SPVGEN_VERSION(1, 4));
  spvgen_function_end(m);
  CHECK(check_module(m, NULL) != NULL);
  spvgen_module_destroy(m);
}

static void test_each_capability_and_extension_is_declared_once(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_capability(m, SpvCapabilityFloat16);
  uint32_t f16 = spvgen_type_float(m, 16);
  uint32_t v2 = spvgen_type_vector(m, f16, 2), v4 = spvgen_type_vector(m, f16, 4);
  spvgen_capability(m, SpvCapabilityFloat16);
  spvgen_capability(m, SpvCapabilityShader);
  spvgen_storage_buffer(m, f16, 0, 0, false, NULL);
  spvgen_storage_buffer(m, v2, 0, 1, false, NULL);
  spvgen_storage_buffer(m, v4, 0, 2, false, NULL);
  spvgen_extension(m, "SPV_KHR_16bit_storage");
  spvgen_extension(m, "SPV_KHR_16bit_storage");
  spvgen_extension(m, "SPV_KHR_storage_buffer_storage_class");
  uint32_t scope = spvgen_const_u32(m, SpvScopeSubgroup), k16 = spvgen_const_u32(m, 16);
  for (uint32_t use = 0; use < 3; use++)
    spvgen_op_type_cooperative_matrix_khr(m, f16, scope, k16, k16, spvgen_const_u32(m, use));
  spvgen_extension(m, "SPV_KHR_cooperative_matrix");
  CHECK(spvgen_has_extension(m, "SPV_KHR_16bit_storage"));
  CHECK(!spvgen_has_extension(m, "SPV_KHR_8bit_storage"));
  CHECK(!spvgen_has_extension(m, NULL));
  size_t n = 0;
  const uint32_t *w = finish_with_main(m, &n);
  if (w) {
    /* No capability value twice, no extension name twice. */
    WORDS_FOR_EACH(w, n, i) {
      if ((w[i] & 0xFFFF) == SpvOpCapability)
        CHECK_MSG(words_capability_count(w, n, w[i + 1]) == 1, "capability %u declared %d times",
                  w[i + 1], words_capability_count(w, n, w[i + 1]));
      if ((w[i] & 0xFFFF) == SpvOpExtension)
        CHECK_MSG(words_extension_count(w, n, (const char *)(w + i + 1)) == 1, "%s declared twice",
                  (const char *)(w + i + 1));
    }
    CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityFloat16), 1);
    CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityShader), 1);
    CHECK_EQ_U64(words_extension_count(w, n, "SPV_KHR_16bit_storage"), 1);
    CHECK_EQ_U64(words_extension_count(w, n, "SPV_KHR_cooperative_matrix"), 1);
  }
  spvgen_module_destroy(m);
}

/* GLCompute needs Shader; so does the memory model. Declared once either way. */
static void test_a_decoration_that_needs_a_capability_declares_it(void) {
  /* Stream needs GeometryStreams (which implies Geometry). */
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPrivate, u32),
                                 SpvStorageClassPrivate, 0);
  spvgen_name(m, var, "var");
  CHECK(!spvgen_has_capability(m, SpvCapabilityGeometryStreams));
  spvgen_decorate1(m, var, SpvDecorationStream, 0);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  CHECK(spvgen_has_capability(m, SpvCapabilityGeometryStreams));
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityGeometryStreams), 1);
  char *text = check_disassemble(w, n);
  const char *lines[] = {"OpCapability GeometryStreams", "OpDecorate %var Stream 0"};
  check_has_lines(text, lines, 2);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_compute_entry_points_declare_shader_once(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_compute_main(m, "main", 1, 1, 1);
  CHECK(spvgen_has_capability(m, SpvCapabilityShader));
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  CHECK_EQ_U64(words_capability_count(w, n, SpvCapabilityShader), 1);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_small_and_wide_scalar_types_declare_their_capabilities),
      TEST_CASE(test_small_types_in_buffers_declare_storage_capabilities),
      TEST_CASE(test_16bit_storage_before_spirv_1_3_declares_the_extension),
      TEST_CASE(test_subgroup_operations_declare_group_non_uniform_capabilities),
      TEST_CASE(test_cooperative_matrix_type_declares_capability_and_extension),
      TEST_CASE(test_the_vulkan_memory_model_declares_its_capability),
      TEST_CASE(test_device_scope_under_the_vulkan_memory_model_declares_its_capability),
      TEST_CASE(test_an_instruction_newer_than_the_target_version_is_unsupported),
      TEST_CASE(test_an_enumerant_newer_than_the_target_version_is_unsupported),
      TEST_CASE(test_min_version_follows_the_content),
      TEST_CASE(test_each_capability_and_extension_is_declared_once),
      TEST_CASE(test_a_decoration_that_needs_a_capability_declares_it),
      TEST_CASE(test_compute_entry_points_declare_shader_once),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
