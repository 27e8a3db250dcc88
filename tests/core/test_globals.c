/* tests/core/test_globals.c — variables (global, and function variables hoisted to the
 * first block), decorations and member decorations, debug names, entry points with
 * explicit and automatic interface lists, execution modes (LocalSize, LocalSizeId with
 * specialization constants). Every module validates. */
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* The line after the first line equal to `line` (trimmed), copied into out. */
static void line_after(const char *text, const char *line, char *out, size_t size) {
  out[0] = '\0';
  size_t len = strlen(line);
  for (const char *p = text; p && *p;) {
    const char *nl = strchr(p, '\n');
    while (*p == ' ') p++;
    if (!strncmp(p, line, len) && (p[len] == '\n' || p[len] == '\0')) {
      if (!nl) return;
      const char *q = nl + 1;
      while (*q == ' ') q++;
      const char *e = strchr(q, '\n');
      size_t n = e ? (size_t)(e - q) : strlen(q);
      if (n >= size) n = size - 1;
      memcpy(out, q, n);
      out[n] = '\0';
      return;
    }
    p = nl ? nl + 1 : NULL;
  }
}

static void test_global_variables_of_each_storage_class_validate(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t c64 = spvgen_const_u32(m, 64);
  uint32_t shared_t = spvgen_type_array_id(m, f32, c64);
  uint32_t shared = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, shared_t),
                                    SpvStorageClassWorkgroup, 0);
  uint32_t seven = spvgen_const_u32(m, 7);
  uint32_t priv = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPrivate, u32),
                                  SpvStorageClassPrivate, seven);
  uint32_t pc_t = spvgen_type_struct(m, &u32, 1);
  spvgen_decorate(m, pc_t, SpvDecorationBlock);
  spvgen_member_decorate1(m, pc_t, 0, SpvDecorationOffset, 0);
  uint32_t pc = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, pc_t),
                                SpvStorageClassPushConstant, 0);
  spvgen_name(m, shared, "shared");
  spvgen_name(m, priv, "priv");
  spvgen_name(m, pc, "pc");
  spvgen_name(m, pc_t, "Push");
  CHECK(shared && priv && pc);
  CHECK_EQ_U64(spvgen_type_of(m, priv), spvgen_type_pointer(m, SpvStorageClassPrivate, u32));

  spvgen_compute_main(m, "main", 64, 1, 1);
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t pcu = spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, u32),
                                     pc, &zero, 1);
  uint32_t n = spvgen_load(m, u32, pcu);
  spvgen_store(m, priv, n);
  uint32_t slot = spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, f32),
                                      shared, &zero, 1);
  spvgen_store(m, slot, spvgen_op_convert_u_to_f(m, f32, spvgen_load(m, u32, priv)));
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *w = check_module(m, &count);
  char *text = check_disassemble(w, count);
  const char *lines[] = {
      "%shared = OpVariable %_ptr_Workgroup__arr_float_uint_64 Workgroup",
      "%priv = OpVariable %_ptr_Private_uint Private %uint_7",
      "%pc = OpVariable %_ptr_PushConstant_Push PushConstant",
  };
  check_has_lines(text, lines, 3);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_function_variables_are_hoisted_to_the_first_block(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), bool_t = spvgen_type_bool(m);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, u32, 0, 0, false, &elem_ptr);
  uint32_t fptr = spvgen_type_pointer(m, SpvStorageClassFunction, u32);
  uint32_t zero = spvgen_const_u32(m, 0), one = spvgen_const_u32(m, 1);
  uint32_t main_fn = spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_name(m, main_fn, "main");
  uint32_t entry = spvgen_current_block(m);
  spvgen_name(m, entry, "entry");
  uint32_t idx[2] = {zero, zero};
  uint32_t p = spvgen_access_chain(m, elem_ptr, buf, idx, 2);
  uint32_t x = spvgen_load(m, u32, p);
  spvgen_if(m, spvgen_op_i_equal(m, bool_t, x, zero));
  /* Declared inside an if, after several instructions and blocks. */
  uint32_t a = spvgen_variable(m, fptr, SpvStorageClassFunction, one);
  spvgen_name(m, a, "a");
  spvgen_store(m, p, spvgen_load(m, u32, a));
  spvgen_end_if(m);
  uint32_t b = spvgen_variable(m, fptr, SpvStorageClassFunction, 0);
  spvgen_name(m, b, "b");
  spvgen_store(m, b, x);
  spvgen_store(m, p, spvgen_load(m, u32, b));
  spvgen_function_end(m);

  /* A second function: its variables go to its own first block. */
  uint32_t helper = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone,
                                          NULL, 0, NULL);
  uint32_t helper_entry = spvgen_current_block(m);
  spvgen_name(m, helper_entry, "helper_entry");
  spvgen_store(m, p = spvgen_access_chain(m, elem_ptr, buf, idx, 2), one);
  uint32_t c = spvgen_variable(m, fptr, SpvStorageClassFunction, zero);
  spvgen_name(m, c, "c");
  spvgen_store(m, p, spvgen_load(m, u32, c));
  spvgen_function_end(m);
  (void)helper;

  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  if (text) {
    char next[128];
    line_after(text, "%entry = OpLabel", next, sizeof next);
    CHECK_STR_EQ(next, "%a = OpVariable %_ptr_Function_uint Function %uint_1");
    line_after(text, "%a = OpVariable %_ptr_Function_uint Function %uint_1", next, sizeof next);
    CHECK_STR_EQ(next, "%b = OpVariable %_ptr_Function_uint Function");
    line_after(text, "%helper_entry = OpLabel", next, sizeof next);
    CHECK_STR_EQ(next, "%c = OpVariable %_ptr_Function_uint Function %uint_0");
  }
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_decorations_and_member_decorations_are_emitted(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t v4 = spvgen_type_vector(m, f32, 4);
  uint32_t rta = spvgen_type_runtime_array_strided(m, v4, 16);
  uint32_t members[3] = {u32, v4, rta};
  uint32_t st = spvgen_type_struct(m, members, 3);
  spvgen_name(m, st, "Data");
  spvgen_member_name(m, st, 0, "count");
  spvgen_member_name(m, st, 1, "scale");
  spvgen_member_name(m, st, 2, "items");
  spvgen_decorate(m, st, SpvDecorationBlock);
  spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
  spvgen_member_decorate1(m, st, 1, SpvDecorationOffset, 16);
  spvgen_member_decorate1(m, st, 2, SpvDecorationOffset, 32);
  spvgen_member_decorate(m, st, 0, SpvDecorationNonWritable);
  uint32_t var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassStorageBuffer, st),
                                 SpvStorageClassStorageBuffer, 0);
  spvgen_name(m, var, "data");
  uint32_t binding[1] = {3};
  spvgen_decorate_n(m, var, SpvDecorationBinding, binding, 1);
  spvgen_decorate1(m, var, SpvDecorationDescriptorSet, 1);
  spvgen_decorate(m, var, SpvDecorationRestrict);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  const char *lines[] = {
      "OpName %Data \"Data\"",
      "OpMemberName %Data 0 \"count\"",
      "OpMemberName %Data 2 \"items\"",
      "OpName %data \"data\"",
      "OpDecorate %_runtimearr_v4float ArrayStride 16",
      "OpDecorate %Data Block",
      "OpMemberDecorate %Data 0 Offset 0",
      "OpMemberDecorate %Data 1 Offset 16",
      "OpMemberDecorate %Data 2 Offset 32",
      "OpMemberDecorate %Data 0 NonWritable",
      "OpDecorate %data Binding 3",
      "OpDecorate %data DescriptorSet 1",
      "OpDecorate %data Restrict",
      "%Data = OpTypeStruct %uint %v4float %_runtimearr_v4float",
  };
  check_has_lines(text, lines, 14);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_entry_point_with_an_explicit_interface_list(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, u32, 0, 0, false, &elem_ptr);
  spvgen_name(m, buf, "buf");
  uint32_t main_fn = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone,
                                           NULL, 0, NULL);
  spvgen_name(m, main_fn, "main");
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t g = spvgen_load(m, v3, gid);
  uint32_t i = spvgen_op_composite_extract(m, u32, g, (const uint32_t[]){0}, 1);
  uint32_t idx[2] = {zero, i};
  spvgen_store(m, spvgen_access_chain(m, elem_ptr, buf, idx, 2), i);
  spvgen_function_end(m);
  uint32_t iface[2] = {buf, gid};
  spvgen_entry_point(m, SpvExecutionModelGLCompute, main_fn, "main", iface, 2);
  spvgen_local_size(m, main_fn, 32, 1, 1);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  check_has_line(text, "OpEntryPoint GLCompute %main \"main\" %buf %gl_GlobalInvocationID");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_entry_point_interface_all_lists_every_global_at_finish(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t a = spvgen_storage_buffer(m, u32, 0, 0, false, NULL);
  spvgen_name(m, a, "a");
  uint32_t main_fn = spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_name(m, main_fn, "main");
  spvgen_function_end(m);
  /* Declared after the entry point: still listed. */
  uint32_t b = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPrivate, u32),
                               SpvStorageClassPrivate, 0);
  uint32_t c = spvgen_builtin_input(m, SpvBuiltInLocalInvocationIndex, u32);
  spvgen_name(m, b, "b");
  (void)c;
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  check_has_line(text, "OpEntryPoint GLCompute %main \"main\" %a %b %gl_LocalInvocationIndex");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* Before SPIR-V 1.4 the interface holds only Input and Output variables. */
static void test_entry_point_interface_all_lists_only_inputs_and_outputs_before_1_4(void) {
  spvgen_module_desc d = {.version = SPVGEN_VERSION(1, 3)};
  spvgen_module *m = spvgen_module_create(&d);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t a = spvgen_storage_buffer(m, u32, 0, 0, false, NULL);
  spvgen_name(m, a, "a");
  spvgen_builtin_input(m, SpvBuiltInLocalInvocationIndex, u32);
  uint32_t main_fn = spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_name(m, main_fn, "main");
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  check_has_line(text, "OpEntryPoint GLCompute %main \"main\" %gl_LocalInvocationIndex");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_execution_mode_local_size(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_name(m, f, "main");
  spvgen_function_end(m);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, f, "main", SPVGEN_INTERFACE_ALL);
  spvgen_local_size(m, f, 8, 4, 2);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  check_has_line(text, "OpExecutionMode %main LocalSize 8 4 2");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_execution_mode_local_size_id_takes_spec_constants(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t x = spvgen_spec_const_u32(m, 64, 0);
  uint32_t y = spvgen_spec_const_u32(m, 1, 1);
  uint32_t z = spvgen_const_u32(m, 1);
  spvgen_name(m, x, "wg_x");
  spvgen_name(m, y, "wg_y");
  uint32_t f = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_name(m, f, "main");
  spvgen_function_end(m);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, f, "main", SPVGEN_INTERFACE_ALL);
  uint32_t ids[3] = {x, y, z};
  spvgen_execution_mode_id(m, f, SpvExecutionModeLocalSizeId, ids, 3);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  const char *lines[] = {"OpExecutionModeId %main LocalSizeId %wg_x %wg_y %uint_1",
                         "OpDecorate %wg_x SpecId 0", "OpDecorate %wg_y SpecId 1"};
  check_has_lines(text, lines, 3);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_local_size_rejects_a_zero_dimension(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_function_end(m);
  spvgen_local_size(m, f, 8, 0, 1);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_local_size: local size 8x0x1");
  spvgen_module_destroy(m);
}

static void test_builtin_inputs_are_decorated_input_variables(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t wg = spvgen_builtin_input(m, SpvBuiltInWorkgroupId, v3);
  uint32_t li = spvgen_builtin_input(m, SpvBuiltInLocalInvocationId, v3);
  CHECK(wg && li);
  CHECK_NE_U64(wg, li);
  CHECK_EQ_U64(spvgen_type_of(m, wg), spvgen_type_pointer(m, SpvStorageClassInput, v3));
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  const char *lines[] = {"OpDecorate %gl_WorkGroupID BuiltIn WorkgroupId",
                         "OpDecorate %gl_LocalInvocationID BuiltIn LocalInvocationId",
                         "%gl_WorkGroupID = OpVariable %_ptr_Input_v3uint Input"};
  check_has_lines(text, lines, 3);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_global_variables_of_each_storage_class_validate),
      TEST_CASE(test_function_variables_are_hoisted_to_the_first_block),
      TEST_CASE(test_decorations_and_member_decorations_are_emitted),
      TEST_CASE(test_entry_point_with_an_explicit_interface_list),
      TEST_CASE(test_entry_point_interface_all_lists_every_global_at_finish),
      TEST_CASE(test_entry_point_interface_all_lists_only_inputs_and_outputs_before_1_4),
      TEST_CASE(test_execution_mode_local_size),
      TEST_CASE(test_execution_mode_local_size_id_takes_spec_constants),
      TEST_CASE(test_local_size_rejects_a_zero_dimension),
      TEST_CASE(test_builtin_inputs_are_decorated_input_variables),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
