/* tests/core/test_control_flow.c — functions, parameters, blocks and the structured
 * control flow helpers (spvgen_if / else / end_if, spvgen_loop / loop_while /
 * loop_continue_block / end_loop, break, continue, return). Every shape validates under
 * the structured control flow rules of spirv-val (Vulkan 1.3). */
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* A compute main over a u32 buffer: x = buf[gid.x], p = &buf[gid.x]. */
typedef struct fixture {
  spvgen_module *m;
  uint32_t u32, bool_t, elem_ptr, buf, zero, one, two, x, p;
} fixture;

static fixture setup(void) {
  fixture f = {0};
  spvgen_module *m = f.m = spvgen_module_create(NULL);
  f.u32 = spvgen_type_int(m, 32, false);
  f.bool_t = spvgen_type_bool(m);
  f.buf = spvgen_storage_buffer(m, f.u32, 0, 0, false, &f.elem_ptr);
  spvgen_name(m, f.buf, "buf");
  uint32_t v3 = spvgen_type_vector(m, f.u32, 3);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  f.zero = spvgen_const_u32(m, 0);
  f.one = spvgen_const_u32(m, 1);
  f.two = spvgen_const_u32(m, 2);
  uint32_t main_fn = spvgen_compute_main(m, "main", 64, 1, 1);
  spvgen_name(m, main_fn, "main");
  uint32_t g = spvgen_load(m, v3, gid);
  uint32_t i = spvgen_op_composite_extract(m, f.u32, g, (const uint32_t[]){0}, 1);
  uint32_t idx[2] = {f.zero, i};
  f.p = spvgen_access_chain(m, f.elem_ptr, f.buf, idx, 2);
  f.x = spvgen_load(m, f.u32, f.p);
  spvgen_name(m, f.x, "x");
  return f;
}

/* x == k */
static uint32_t x_is(fixture *f, uint32_t k) {
  return spvgen_op_i_equal(f->m, f->bool_t, f->x, spvgen_const_u32(f->m, k));
}

/* Ends main, validates, returns the disassembly (or NULL; free with spvgen_free_text). */
static char *finish(fixture *f) {
  spvgen_function_end(f->m);
  size_t n = 0;
  const uint32_t *w = check_module(f->m, &n);
  return check_disassemble(w, n);
}

static int count_of(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; p && (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
  return n;
}

/* ------------------------------------------------------------------ tests ---- */

static void test_if_without_else_branches_to_then_or_merge(void) {
  fixture f = setup();
  spvgen_if(f.m, x_is(&f, 1));
  spvgen_store(f.m, f.p, f.two);
  spvgen_end_if(f.m);
  spvgen_store(f.m, f.p, f.one);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpSelectionMerge "), 1);
  CHECK_EQ_U64(count_of(text, "OpBranchConditional "), 1);
  CHECK_EQ_U64(count_of(text, " = OpLabel"), 3);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_if_else_branches_to_both_arms(void) {
  fixture f = setup();
  spvgen_if(f.m, x_is(&f, 1));
  spvgen_store(f.m, f.p, f.two);
  spvgen_else(f.m);
  spvgen_store(f.m, f.p, f.zero);
  spvgen_end_if(f.m);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpSelectionMerge "), 1);
  CHECK_EQ_U64(count_of(text, " = OpLabel"), 4);
  CHECK_EQ_U64(count_of(text, "OpBranch "), 2); /* each arm to the merge */
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_nested_ifs_each_get_their_own_merge(void) {
  fixture f = setup();
  spvgen_if(f.m, x_is(&f, 1));
  spvgen_if(f.m, x_is(&f, 2));
  spvgen_store(f.m, f.p, f.two);
  spvgen_else(f.m);
  spvgen_if(f.m, x_is(&f, 3));
  spvgen_store(f.m, f.p, f.one);
  spvgen_end_if(f.m);
  spvgen_end_if(f.m);
  spvgen_else(f.m);
  spvgen_store(f.m, f.p, f.zero);
  spvgen_end_if(f.m);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpSelectionMerge "), 3);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_early_return_inside_an_if(void) {
  fixture f = setup();
  spvgen_if(f.m, x_is(&f, 0));
  spvgen_return(f.m);
  CHECK(!spvgen_block_open(f.m));
  spvgen_end_if(f.m);
  CHECK(spvgen_block_open(f.m));
  spvgen_store(f.m, f.p, f.one);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpReturn\n"), 2);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

/* Both arms return: the merge block is unreachable and the caller ends it. */
static void test_if_else_where_both_arms_return(void) {
  fixture f = setup();
  spvgen_if(f.m, x_is(&f, 0));
  spvgen_store(f.m, f.p, f.one);
  spvgen_return(f.m);
  spvgen_else(f.m);
  spvgen_store(f.m, f.p, f.two);
  spvgen_return(f.m);
  spvgen_end_if(f.m);
  spvgen_op_unreachable(f.m);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpUnreachable\n"), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_loop_with_a_while_condition(void) {
  fixture f = setup();
  uint32_t ctr = spvgen_variable(f.m, spvgen_type_pointer(f.m, SpvStorageClassFunction, f.u32),
                                 SpvStorageClassFunction, f.zero);
  spvgen_loop(f.m, SpvLoopControlMaskNone);
  spvgen_name(f.m, spvgen_loop_header(f.m), "header");
  spvgen_name(f.m, spvgen_loop_merge(f.m), "merge");
  spvgen_name(f.m, spvgen_loop_continue_target(f.m), "cont");
  uint32_t c = spvgen_load(f.m, f.u32, ctr);
  spvgen_loop_while(f.m, spvgen_op_u_less_than(f.m, f.bool_t, c, f.x));
  spvgen_store(f.m, f.p, spvgen_op_i_add(f.m, f.u32, spvgen_load(f.m, f.u32, f.p), c));
  spvgen_loop_continue_block(f.m);
  CHECK_EQ_U64(spvgen_current_block(f.m), spvgen_loop_continue_target(f.m));
  spvgen_store(f.m, ctr, spvgen_op_i_add(f.m, f.u32, spvgen_load(f.m, f.u32, ctr), f.one));
  spvgen_end_loop(f.m);
  char *text = finish(&f);
  const char *lines[] = {"%header = OpLabel", "OpLoopMerge %merge %cont None", "%cont = OpLabel",
                         "OpBranch %header", "%merge = OpLabel"};
  check_has_lines(text, lines, 5);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_loop_with_break_and_continue(void) {
  fixture f = setup();
  uint32_t fptr = spvgen_type_pointer(f.m, SpvStorageClassFunction, f.u32);
  uint32_t ctr = spvgen_variable(f.m, fptr, SpvStorageClassFunction, f.zero);
  spvgen_loop(f.m, SpvLoopControlMaskNone);
  uint32_t c = spvgen_load(f.m, f.u32, ctr);
  spvgen_loop_while(f.m, spvgen_op_u_less_than(f.m, f.bool_t, c, spvgen_const_u32(f.m, 100)));
  spvgen_if(f.m, spvgen_op_i_equal(f.m, f.bool_t, c, f.x));
  spvgen_break(f.m);
  spvgen_end_if(f.m);
  uint32_t odd = spvgen_op_bitwise_and(f.m, f.u32, c, f.one);
  spvgen_if(f.m, spvgen_op_i_equal(f.m, f.bool_t, odd, f.one));
  spvgen_continue(f.m);
  spvgen_end_if(f.m);
  spvgen_store(f.m, f.p, c);
  spvgen_loop_continue_block(f.m);
  spvgen_store(f.m, ctr, spvgen_op_i_add(f.m, f.u32, spvgen_load(f.m, f.u32, ctr), f.one));
  spvgen_end_loop(f.m);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpLoopMerge "), 1);
  CHECK_EQ_U64(count_of(text, "OpSelectionMerge "), 2);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

/* No condition: the loop runs until a break. No continue block given: an empty one is
 * made. */
static void test_loop_without_a_condition_left_by_a_break(void) {
  fixture f = setup();
  uint32_t fptr = spvgen_type_pointer(f.m, SpvStorageClassFunction, f.u32);
  uint32_t ctr = spvgen_variable(f.m, fptr, SpvStorageClassFunction, f.zero);
  spvgen_loop(f.m, SpvLoopControlDontUnrollMask);
  uint32_t c = spvgen_op_i_add(f.m, f.u32, spvgen_load(f.m, f.u32, ctr), f.one);
  spvgen_store(f.m, ctr, c);
  spvgen_if(f.m, spvgen_op_u_greater_than_equal(f.m, f.bool_t, c, f.x));
  spvgen_break(f.m);
  spvgen_end_if(f.m);
  spvgen_end_loop(f.m);
  spvgen_store(f.m, f.p, spvgen_load(f.m, f.u32, ctr));
  char *text = finish(&f);
  CHECK_CONTAINS(text, " DontUnroll\n");
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_loop_inside_an_if(void) {
  fixture f = setup();
  uint32_t fptr = spvgen_type_pointer(f.m, SpvStorageClassFunction, f.u32);
  uint32_t ctr = spvgen_variable(f.m, fptr, SpvStorageClassFunction, f.zero);
  spvgen_if(f.m, x_is(&f, 5));
  spvgen_loop(f.m, SpvLoopControlUnrollMask);
  uint32_t c = spvgen_load(f.m, f.u32, ctr);
  spvgen_loop_while(f.m, spvgen_op_u_less_than(f.m, f.bool_t, c, f.two));
  spvgen_store(f.m, f.p, c);
  spvgen_loop_continue_block(f.m);
  spvgen_store(f.m, ctr, spvgen_op_i_add(f.m, f.u32, spvgen_load(f.m, f.u32, ctr), f.one));
  spvgen_end_loop(f.m);
  spvgen_else(f.m);
  spvgen_store(f.m, f.p, f.zero);
  spvgen_end_if(f.m);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpLoopMerge "), 1);
  CHECK_EQ_U64(count_of(text, "OpSelectionMerge "), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_nested_loops_with_an_early_return(void) {
  fixture f = setup();
  uint32_t fptr = spvgen_type_pointer(f.m, SpvStorageClassFunction, f.u32);
  uint32_t i = spvgen_variable(f.m, fptr, SpvStorageClassFunction, f.zero);
  uint32_t j = spvgen_variable(f.m, fptr, SpvStorageClassFunction, 0);
  spvgen_loop(f.m, SpvLoopControlMaskNone);
  uint32_t outer_merge = spvgen_loop_merge(f.m);
  uint32_t iv = spvgen_load(f.m, f.u32, i);
  spvgen_loop_while(f.m, spvgen_op_u_less_than(f.m, f.bool_t, iv, f.two));
  spvgen_store(f.m, j, f.zero);
  spvgen_loop(f.m, SpvLoopControlMaskNone);
  CHECK_NE_U64(spvgen_loop_merge(f.m), outer_merge);
  uint32_t jv = spvgen_load(f.m, f.u32, j);
  spvgen_loop_while(f.m, spvgen_op_u_less_than(f.m, f.bool_t, jv, f.two));
  uint32_t sum = spvgen_op_i_add(f.m, f.u32, spvgen_load(f.m, f.u32, i), jv);
  spvgen_if(f.m, spvgen_op_i_equal(f.m, f.bool_t, sum, f.x));
  spvgen_store(f.m, f.p, f.zero);
  spvgen_return(f.m);
  spvgen_end_if(f.m);
  spvgen_loop_continue_block(f.m);
  spvgen_store(f.m, j, spvgen_op_i_add(f.m, f.u32, spvgen_load(f.m, f.u32, j), f.one));
  spvgen_end_loop(f.m);
  CHECK_EQ_U64(spvgen_loop_merge(f.m), outer_merge);
  spvgen_loop_continue_block(f.m);
  spvgen_store(f.m, i, spvgen_op_i_add(f.m, f.u32, spvgen_load(f.m, f.u32, i), f.one));
  spvgen_end_loop(f.m);
  CHECK_EQ_U64(spvgen_loop_merge(f.m), 0);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpLoopMerge "), 2);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_loop_labels_are_reported_only_inside_a_loop(void) {
  fixture f = setup();
  CHECK_EQ_U64(spvgen_loop_header(f.m), 0);
  CHECK_EQ_U64(spvgen_loop_continue_target(f.m), 0);
  CHECK_EQ_U64(spvgen_loop_merge(f.m), 0);
  uint32_t before = spvgen_current_block(f.m);
  spvgen_loop(f.m, SpvLoopControlMaskNone);
  uint32_t h = spvgen_loop_header(f.m), c = spvgen_loop_continue_target(f.m),
           mg = spvgen_loop_merge(f.m);
  CHECK(h && c && mg);
  CHECK(h != c && c != mg && h != mg && h != before);
  spvgen_break(f.m);
  spvgen_end_loop(f.m);
  CHECK_EQ_U64(spvgen_current_block(f.m), mg);
  CHECK_EQ_U64(spvgen_loop_header(f.m), 0);
  char *text = finish(&f);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_functions_with_parameters_return_values(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), bool_t = spvgen_type_bool(m);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, u32, 0, 0, false, &elem_ptr);
  /* uint pick(bool c, uint a, uint b) { if (c) return a; else return b; } */
  uint32_t ptypes[3] = {bool_t, u32, u32}, params[3] = {0};
  uint32_t pick = spvgen_function_begin(m, u32, SpvFunctionControlInlineMask, ptypes, 3, params);
  spvgen_name(m, pick, "pick");
  CHECK(params[0] && params[1] && params[2]);
  CHECK_EQ_U64(spvgen_type_of(m, params[1]), u32);
  spvgen_if(m, params[0]);
  spvgen_return_value(m, params[1]);
  spvgen_else(m);
  spvgen_return_value(m, params[2]);
  spvgen_end_if(m);
  spvgen_op_unreachable(m);
  spvgen_function_end(m);
  /* uint twice(uint a) { return a + a; } */
  uint32_t a = 0;
  uint32_t twice = spvgen_function_begin(m, u32, SpvFunctionControlMaskNone, &u32, 1, &a);
  spvgen_name(m, twice, "twice");
  spvgen_return_value(m, spvgen_op_i_add(m, u32, a, a));
  spvgen_function_end(m);

  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t zero = spvgen_const_u32(m, 0), three = spvgen_const_u32(m, 3);
  uint32_t args[3] = {spvgen_const_bool(m, true), three, zero};
  uint32_t r = spvgen_op_function_call(m, u32, pick, args, 3);
  r = spvgen_op_function_call(m, u32, twice, &r, 1);
  uint32_t idx[2] = {zero, zero};
  spvgen_store(m, spvgen_access_chain(m, elem_ptr, buf, idx, 2), r);
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  CHECK_CONTAINS(text, "%pick = OpFunction %uint Inline %");
  CHECK_EQ_U64(count_of(text, "OpFunctionParameter %uint\n"), 3);
  CHECK_EQ_U64(count_of(text, "OpFunctionParameter %bool\n"), 1);
  CHECK_CONTAINS(text, " = OpFunctionCall %uint %twice %");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_function_end_returns_from_an_open_void_block(void) {
  fixture f = setup();
  spvgen_store(f.m, f.p, f.one);
  CHECK(spvgen_block_open(f.m));
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, "OpReturn\n"), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

static void test_blocks_can_be_placed_by_hand(void) {
  fixture f = setup();
  uint32_t a = spvgen_label(f.m), b = spvgen_label(f.m), merge = spvgen_label(f.m);
  uint32_t cond = x_is(&f, 0);
  spvgen_op_selection_merge(f.m, merge, SpvSelectionControlMaskNone);
  spvgen_op_branch_conditional(f.m, cond, a, b, NULL, 0);
  /* Placed in reverse order of the branch targets. */
  spvgen_block(f.m, b);
  spvgen_op_branch(f.m, merge);
  spvgen_block(f.m, a);
  spvgen_store(f.m, f.p, f.two);
  spvgen_op_branch(f.m, merge);
  CHECK_EQ_U64(spvgen_block(f.m, merge), merge);
  char *text = finish(&f);
  CHECK_EQ_U64(count_of(text, " = OpLabel"), 4);
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_if_without_else_branches_to_then_or_merge),
      TEST_CASE(test_if_else_branches_to_both_arms),
      TEST_CASE(test_nested_ifs_each_get_their_own_merge),
      TEST_CASE(test_early_return_inside_an_if),
      TEST_CASE(test_if_else_where_both_arms_return),
      TEST_CASE(test_loop_with_a_while_condition),
      TEST_CASE(test_loop_with_break_and_continue),
      TEST_CASE(test_loop_without_a_condition_left_by_a_break),
      TEST_CASE(test_loop_inside_an_if),
      TEST_CASE(test_nested_loops_with_an_early_return),
      TEST_CASE(test_loop_labels_are_reported_only_inside_a_loop),
      TEST_CASE(test_functions_with_parameters_return_values),
      TEST_CASE(test_function_end_returns_from_an_open_void_block),
      TEST_CASE(test_blocks_can_be_placed_by_hand),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
