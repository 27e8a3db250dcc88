/* tests/core/test_ids.c — id allocation: ids count up from 1, the header's bound,
 * forward references (a function called before its definition, a label branched to
 * before it is placed, an OpPhi naming a value defined later), a reserved id defined at
 * most once and reported at finish when never defined. */
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

static void test_ids_count_up_from_one_and_the_bound_is_the_next_id(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t b0 = spvgen_module_bound(m);
  CHECK(b0 >= 1);
  uint32_t r = spvgen_reserve_id(m);
  CHECK_EQ_U64(r, b0);
  CHECK_EQ_U64(spvgen_module_bound(m), b0 + 1);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  CHECK_EQ_U64(u32, b0 + 1);
  /* A deduplicated type allocates nothing. */
  CHECK_EQ_U64(spvgen_type_int(m, 32, false), u32);
  CHECK_EQ_U64(spvgen_module_bound(m), b0 + 2);
  spvgen_module_destroy(m);
}

static void test_type_of_and_is_type_describe_ids(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t c = spvgen_const_u32(m, 7);
  uint32_t r = spvgen_reserve_id(m);
  CHECK(spvgen_is_type(m, u32));
  CHECK(!spvgen_is_type(m, c));
  CHECK(!spvgen_is_type(m, r));
  CHECK(!spvgen_is_type(m, 0));
  CHECK(!spvgen_is_type(m, 100000));
  CHECK_EQ_U64(spvgen_type_of(m, c), u32);
  CHECK_EQ_U64(spvgen_type_of(m, u32), 0);
  CHECK_EQ_U64(spvgen_type_of(m, r), 0);
  CHECK_EQ_U64(spvgen_type_of(m, 100000), 0);
  spvgen_module_destroy(m);
}

static void test_a_function_can_be_called_before_its_definition(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, u32, 0, 0, false, &elem_ptr);
  uint32_t twice = spvgen_reserve_id(m);
  spvgen_name(m, twice, "twice");

  uint32_t main_fn = spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_name(m, main_fn, "main");
  uint32_t arg = spvgen_const_u32(m, 21);
  uint32_t r = spvgen_op_function_call(m, u32, twice, &arg, 1);
  CHECK(r != 0);
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t idx[2] = {zero, zero};
  spvgen_store(m, spvgen_access_chain(m, elem_ptr, buf, idx, 2), r);
  spvgen_function_end(m);

  uint32_t param = 0;
  uint32_t f = spvgen_function_begin_id(m, twice, u32, SpvFunctionControlMaskNone, &u32, 1, &param);
  CHECK_EQ_U64(f, twice);
  spvgen_return_value(m, spvgen_op_i_add(m, u32, param, param));
  spvgen_function_end(m);

  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  CHECK_CONTAINS(text, "%twice = OpFunction %uint None %");
  /* The call precedes the definition in the words. */
  if (text) {
    const char *call = strstr(text, "OpFunctionCall %uint %twice %uint_21");
    const char *def = strstr(text, "%twice = OpFunction");
    CHECK(call != NULL && def != NULL && call < def);
  }
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_a_label_can_be_branched_to_before_it_is_placed(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t target = spvgen_label(m);
  spvgen_name(m, target, "target");
  CHECK(target != 0);
  CHECK(!spvgen_is_type(m, target));
  spvgen_op_branch(m, target);
  CHECK(!spvgen_block_open(m));
  CHECK_EQ_U64(spvgen_block(m, target), target);
  CHECK_EQ_U64(spvgen_current_block(m), target);
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  const char *lines[] = {"OpBranch %target", "%target = OpLabel", "OpReturn"};
  check_has_lines(text, lines, 3);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* A hand-made loop whose header phi names the incremented counter, defined later in the
 * continue block through a reserved id. */
static void test_a_phi_can_name_a_value_defined_later(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), bool_t = spvgen_type_bool(m);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, u32, 0, 0, false, &elem_ptr);
  uint32_t zero = spvgen_const_u32(m, 0), one = spvgen_const_u32(m, 1),
           ten = spvgen_const_u32(m, 10);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t entry = spvgen_current_block(m);
  uint32_t header = spvgen_label(m), body = spvgen_label(m), cont = spvgen_label(m),
           merge = spvgen_label(m);
  uint32_t next = spvgen_reserve_id(m);
  spvgen_name(m, next, "next");
  spvgen_op_branch(m, header);
  spvgen_block(m, header);
  uint32_t pairs[4] = {zero, entry, next, cont};
  uint32_t i = spvgen_op_phi(m, u32, pairs, 4);
  spvgen_name(m, i, "i");
  uint32_t more = spvgen_op_u_less_than(m, bool_t, i, ten);
  spvgen_op_loop_merge(m, merge, cont, SpvLoopControlMaskNone, NULL, 0);
  spvgen_op_branch_conditional(m, more, body, merge, NULL, 0);
  spvgen_block(m, body);
  uint32_t idx[2] = {zero, i};
  spvgen_store(m, spvgen_access_chain(m, elem_ptr, buf, idx, 2), i);
  spvgen_op_branch(m, cont);
  spvgen_block(m, cont);
  /* Define the reserved id with raw emission. */
  spvgen_emit(m, SpvOpIAdd, (const uint32_t[]){u32, next, i, one}, 4);
  CHECK_EQ_U64(spvgen_type_of(m, next), u32);
  spvgen_op_branch(m, header);
  spvgen_block(m, merge);
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  check_has_line(text, "%next = OpIAdd %uint %i %uint_1");
  CHECK_CONTAINS(text, "%i = OpPhi %uint %uint_0 %");
  CHECK_CONTAINS(text, " %next %");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_a_reserved_id_never_defined_is_reported_at_finish(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t nowhere = spvgen_label(m);
  spvgen_op_branch(m, nowhere);
  spvgen_function_end(m);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK); /* legal until finish */
  CHECK_EQ_U64(spvgen_module_finish(m, NULL, NULL), SPVGEN_ERROR_INVALID_STATE);
  char expected[64];
  snprintf(expected, sizeof expected, "id %u was reserved but never defined", nowhere);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE, expected);
  CHECK_CONTAINS(spvgen_module_error(m), "spvgen_module_finish");
  spvgen_module_destroy(m);
}

static void test_a_reserved_id_can_be_defined_only_once(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t void_t = spvgen_type_void(m);
  uint32_t f = spvgen_reserve_id(m);
  CHECK_EQ_U64(spvgen_function_begin_id(m, f, void_t, SpvFunctionControlMaskNone, NULL, 0, NULL), f);
  spvgen_function_end(m);
  CHECK_EQ_U64(spvgen_function_begin_id(m, f, void_t, SpvFunctionControlMaskNone, NULL, 0, NULL), 0);
  char expected[64];
  snprintf(expected, sizeof expected, "result id %u is not a reserved, undefined id", f);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_ids_count_up_from_one_and_the_bound_is_the_next_id),
      TEST_CASE(test_type_of_and_is_type_describe_ids),
      TEST_CASE(test_a_function_can_be_called_before_its_definition),
      TEST_CASE(test_a_label_can_be_branched_to_before_it_is_placed),
      TEST_CASE(test_a_phi_can_name_a_value_defined_later),
      TEST_CASE(test_a_reserved_id_never_defined_is_reported_at_finish),
      TEST_CASE(test_a_reserved_id_can_be_defined_only_once),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
