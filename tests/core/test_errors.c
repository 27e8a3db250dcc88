/* tests/core/test_errors.c — misuse of the builder: each mistake records a status and a
 * message naming the call; the first error sticks (a later one does not replace it);
 * every later call returns 0 and emits nothing; finish returns the sticky status. */
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* A module with u32, bool, f32, two u32 values in an open block of main. */
typedef struct fixture {
  spvgen_module *m;
  uint32_t u32, f32, bool_t, a, b, main_fn;
} fixture;

static fixture in_main(void) {
  fixture f = {0};
  f.m = spvgen_module_create(NULL);
  f.u32 = spvgen_type_int(f.m, 32, false);
  f.f32 = spvgen_type_float(f.m, 32);
  f.bool_t = spvgen_type_bool(f.m);
  f.a = spvgen_const_u32(f.m, 1);
  f.b = spvgen_const_u32(f.m, 2);
  f.main_fn = spvgen_compute_main(f.m, "main", 1, 1, 1);
  CHECK_EQ_U64(spvgen_module_status(f.m), SPVGEN_OK);
  return f;
}

/* ------------------------------------------------------- wrong operands ---- */

static void test_an_entry_point_on_an_id_that_is_not_a_function_is_an_invalid_argument(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, u32, "main", SPVGEN_INTERFACE_ALL);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_entry_point: id 1 is not a function");
  spvgen_module_destroy(m);
}

/* OpEntryPoint: "the order of the Execution Model and Name pair must be unique" across a
 * module's entry points; another name, or the same name with another model, is fine. */
static void test_two_entry_points_with_one_name_and_model_are_an_invalid_argument(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t fn = spvgen_compute_main(m, "main", 8, 1, 1);
  spvgen_function_end(m);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, fn, "other", SPVGEN_INTERFACE_ALL);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, fn, "main", SPVGEN_INTERFACE_ALL);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_entry_point: an entry point named \"main\" with execution model "
                     "GLCompute exists already (SPIR-V OpEntryPoint: the name and execution "
                     "model pair must be unique)");
  spvgen_module_destroy(m);
}

static void test_a_result_type_that_is_not_a_type_is_an_invalid_argument(void) {
  fixture f = in_main();
  char expected[96];
  snprintf(expected, sizeof expected, "spvgen_op_i_add: OpIAdd: result type %u is not a type", f.a);
  CHECK_EQ_U64(spvgen_op_i_add(f.m, f.a, f.a, f.b), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
}

static void test_a_value_where_a_type_operand_belongs_is_an_invalid_argument(void) {
  fixture f = in_main();
  char expected[96];
  snprintf(expected, sizeof expected, "spvgen_type_vector: component type %u is not a scalar", f.a);
  CHECK_EQ_U64(spvgen_type_vector(f.m, f.a, 4), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  snprintf(expected, sizeof expected, "spvgen_type_pointer: pointee type (id %u) is not a type", f.b);
  CHECK_EQ_U64(spvgen_type_pointer(f.m, SpvStorageClassPrivate, f.b), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  snprintf(expected, sizeof expected, "spvgen_load: id %u is not a pointer", f.a);
  CHECK_EQ_U64(spvgen_load(f.m, f.u32, f.a), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
}

static void test_raw_emission_with_too_few_or_too_many_operands_is_an_invalid_argument(void) {
  fixture f = in_main();
  uint32_t r = spvgen_reserve_id(f.m);
  uint32_t few[3] = {f.u32, r, f.a};
  spvgen_emit(f.m, SpvOpIAdd, few, 3);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_emit: OpIAdd: missing operand 'Operand 2'");
  CHECK_NOT_CONTAINS(spvgen_module_error(f.m), "(null)");
  spvgen_module_destroy(f.m);

  /* A string operand must end with a NUL inside the operand words. */
  f = in_main();
  uint32_t unterminated[2] = {f.u32, 0x64636261u}; /* "abcd", no NUL word */
  spvgen_emit(f.m, SpvOpName, unterminated, 2);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_emit: OpName: string operand 'Name' has no terminating NUL");
  CHECK_NOT_CONTAINS(spvgen_module_error(f.m), "(null)");
  spvgen_module_destroy(f.m);

  f = in_main();
  r = spvgen_reserve_id(f.m);
  uint32_t many[5] = {f.u32, r, f.a, f.b, f.b};
  spvgen_emit(f.m, SpvOpIAdd, many, 5);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_emit: OpIAdd: too many operand words (5 given, the grammar takes 4)");
  spvgen_module_destroy(f.m);

  /* A 64-bit constant needs two literal words. */
  f = in_main();
  uint32_t u64 = spvgen_type_int(f.m, 64, false);
  uint32_t one_word[3] = {u64, 0, 5};
  one_word[1] = spvgen_reserve_id(f.m);
  spvgen_emit(f.m, SpvOpConstant, one_word, 3);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "needs 2 words");
  spvgen_module_destroy(f.m);
}

static void test_an_id_this_module_never_allocated_is_an_invalid_argument(void) {
  /* An id from a bigger module is beyond this one's bound. */
  spvgen_module *other = spvgen_module_create(NULL);
  uint32_t foreign = 0;
  for (int i = 0; i < 100; i++) foreign = spvgen_const_u32(other, (uint32_t)i);
  fixture f = in_main();
  CHECK(foreign >= spvgen_module_bound(f.m));
  char expected[128];
  snprintf(expected, sizeof expected,
           "spvgen_op_i_add: OpIAdd: operand 'Operand 2' is id %u, which this module never allocated",
           foreign);
  CHECK_EQ_U64(spvgen_op_i_add(f.m, f.u32, f.a, foreign), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  /* Id 0 is never valid. */
  f = in_main();
  CHECK_EQ_U64(spvgen_op_i_add(f.m, f.u32, 0, f.a), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "is id 0, which this module never allocated");
  spvgen_module_destroy(f.m);
  spvgen_module_destroy(other);
}

static void test_an_unknown_enumerant_value_is_an_invalid_argument(void) {
  fixture f = in_main();
  CHECK_EQ_U64(spvgen_type_pointer(f.m, (SpvStorageClass)999, f.u32), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "999 is not a StorageClass value");
  CHECK_CONTAINS(spvgen_module_error(f.m), "spvgen_type_pointer");
  spvgen_module_destroy(f.m);

  f = in_main();
  spvgen_decorate(f.m, f.u32, (SpvDecoration)77777);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "77777 is not a Decoration value");
  spvgen_module_destroy(f.m);

  f = in_main();
  spvgen_loop(f.m, (SpvLoopControlMask)0x40000000u);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "bit 0x40000000 is not a LoopControl flag");
  spvgen_module_destroy(f.m);
}

static void test_null_arrays_with_nonzero_counts_are_invalid_arguments(void) {
  fixture f = in_main();
  uint32_t v4 = spvgen_type_vector(f.m, f.u32, 4);
  CHECK_EQ_U64(spvgen_op_composite_construct(f.m, v4, NULL, 4), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_op_composite_construct: an operand array is NULL with count 4");
  spvgen_module_destroy(f.m);

  f = in_main();
  CHECK_EQ_U64(spvgen_type_struct(f.m, NULL, 2), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_type_struct: members is NULL with count 2");
  spvgen_module_destroy(f.m);

  f = in_main();
  spvgen_emit(f.m, SpvOpIAdd, NULL, 4);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_emit: OpIAdd: operands are NULL");
  spvgen_module_destroy(f.m);

  f = in_main();
  CHECK_EQ_U64(spvgen_emit_result(f.m, SpvOpIAdd, f.u32, NULL, 2), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_emit_result: operands is NULL with count 2");
  spvgen_module_destroy(f.m);

  f = in_main();
  CHECK_EQ_U64(spvgen_type_function(f.m, f.u32, NULL, 1), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_type_function: params is NULL with count 1");
  spvgen_module_destroy(f.m);

  f = in_main();
  spvgen_function_end(f.m);
  spvgen_entry_point(f.m, SpvExecutionModelGLCompute, 1, "other", NULL, 2);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_entry_point: interface is NULL with count 2");
  spvgen_module_destroy(f.m);

  f = in_main();
  spvgen_decorate_n(f.m, f.u32, SpvDecorationSpecId, NULL, 1);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_decorate_n: args is NULL with count 1");
  spvgen_module_destroy(f.m);
}

/* ------------------------------------------------ ids of the wrong kind ---- */

/* The value operands of body instructions take no type, label or function id; each
 * emission path checks it: the fast path (OpIAdd), the inline check of instructions that
 * need a capability (OpBitReverse), a repeated tail (OpCompositeConstruct) and the walk
 * (OpControlBarrier's scope). */
static void test_a_type_id_as_a_value_operand_is_an_invalid_argument(void) {
  fixture f = in_main();
  char expected[128];
  snprintf(expected, sizeof expected,
           "spvgen_op_i_add: OpIAdd: operand 'Operand 2' is id %u, a type, where a value belongs", f.u32);
  CHECK_EQ_U64(spvgen_op_i_add(f.m, f.u32, f.a, f.u32), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  snprintf(expected, sizeof expected,
           "spvgen_op_bit_reverse: OpBitReverse: operand 'Base' is id %u, a type, where a value belongs", f.f32);
  CHECK_EQ_U64(spvgen_op_bit_reverse(f.m, f.u32, f.f32), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  uint32_t v2 = spvgen_type_vector(f.m, f.u32, 2);
  snprintf(expected, sizeof expected,
           "spvgen_op_composite_construct: OpCompositeConstruct: operand 'Constituents' is id %u, a type, where a value belongs",
           f.u32);
  CHECK_EQ_U64(spvgen_op_composite_construct(f.m, v2, (const uint32_t[]){f.a, f.u32}, 2), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  snprintf(expected, sizeof expected,
           "spvgen_op_control_barrier: OpControlBarrier: operand 'Execution' (a Scope) is id %u, a type: it must "
           "be an integer constant",
           f.u32);
  spvgen_op_control_barrier(f.m, f.u32, f.a, f.b);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
}

static void test_a_label_id_as_a_value_operand_is_an_invalid_argument(void) {
  fixture f = in_main();
  uint32_t label = spvgen_current_block(f.m);
  CHECK(label != 0);
  char expected[128];
  snprintf(expected, sizeof expected,
           "spvgen_op_i_add: OpIAdd: operand 'Operand 1' is id %u, a label, where a value belongs", label);
  CHECK_EQ_U64(spvgen_op_i_add(f.m, f.u32, label, f.b), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
}

static void test_a_function_id_as_a_pointer_operand_is_an_invalid_argument(void) {
  fixture f = in_main();
  char expected[128];
  snprintf(expected, sizeof expected,
           "spvgen_op_load: OpLoad: operand 'Pointer' is id %u, a function, where a value belongs", f.main_fn);
  CHECK_EQ_U64(spvgen_op_load(f.m, f.u32, f.main_fn, 0, NULL, 0), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  /* With memory operands (the general walk). */
  f = in_main();
  CHECK_EQ_U64(spvgen_op_load(f.m, f.u32, f.main_fn, SpvMemoryAccessVolatileMask, NULL, 0), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
}

/* Branch targets and merge blocks take labels only (or reserved ids, placed later). */
static void test_a_non_label_as_a_branch_target_is_an_invalid_argument(void) {
  fixture f = in_main();
  char expected[128];
  snprintf(expected, sizeof expected,
           "spvgen_op_branch: OpBranch: operand 'Target Label' is id %u, a value, where a label belongs", f.a);
  spvgen_op_branch(f.m, f.a);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  snprintf(expected, sizeof expected,
           "spvgen_op_branch_conditional: OpBranchConditional: operand 'False Label' is id %u, a type, where a label belongs",
           f.u32);
  spvgen_op_branch_conditional(f.m, spvgen_const_bool(f.m, true), spvgen_label(f.m), f.u32, NULL, 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  /* A case target of OpSwitch (a literal-label pair). */
  f = in_main();
  snprintf(expected, sizeof expected,
           "spvgen_op_switch: OpSwitch: operand 'Target' is id %u, a value, where a label belongs", f.b);
  spvgen_op_switch(f.m, f.a, spvgen_label(f.m), (const uint32_t[]){7, f.b}, 2);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  snprintf(expected, sizeof expected,
           "spvgen_op_loop_merge: OpLoopMerge: operand 'Merge Block' is id %u, a function, where a label belongs",
           f.main_fn);
  spvgen_op_loop_merge(f.m, f.main_fn, spvgen_label(f.m), SpvLoopControlMaskNone, NULL, 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
}

static void test_an_id_from_another_module_that_is_a_type_here_is_an_invalid_argument(void) {
  /* In range of this module's bound, so only its kind here gives it away. */
  spvgen_module *other = spvgen_module_create(NULL);
  spvgen_type_int(other, 32, false);
  uint32_t foreign = spvgen_const_u32(other, 7);
  CHECK(spvgen_type_of(other, foreign) != 0);
  fixture f = in_main();
  CHECK(foreign < spvgen_module_bound(f.m));
  CHECK(spvgen_is_type(f.m, foreign));
  char expected[128];
  snprintf(expected, sizeof expected,
           "spvgen_op_i_add: OpIAdd: operand 'Operand 2' is id %u, a type, where a value belongs", foreign);
  CHECK_EQ_U64(spvgen_op_i_add(f.m, f.u32, f.a, foreign), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
  spvgen_module_destroy(other);
}

/* Operands that do take functions, labels, types or imports are not value operands: a
 * call's function, OpPhi's parent blocks, a branch to a label placed later, an
 * extended instruction's set. The module validates. */
static void test_ids_of_other_kinds_where_the_grammar_takes_them_still_build(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, u32, 0, 0, false, &elem_ptr);
  uint32_t zero = spvgen_const_u32(m, 0), one = spvgen_const_u32(m, 1),
           five = spvgen_const_u32(m, 5);

  uint32_t param = 0;
  uint32_t inc = spvgen_function_begin(m, u32, SpvFunctionControlMaskNone, &u32, 1, &param);
  spvgen_name(m, inc, "inc");
  spvgen_return_value(m, spvgen_op_i_add(m, u32, param, one));
  spvgen_function_end(m);

  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t entry = spvgen_current_block(m);
  uint32_t called = spvgen_op_function_call(m, u32, inc, &five, 1); /* a defined function */
  CHECK(called != 0);
  uint32_t next = spvgen_label(m); /* reserved, placed below */
  spvgen_name(m, next, "next");
  spvgen_op_branch(m, next);
  CHECK_EQ_U64(spvgen_block(m, next), next);
  uint32_t pairs[2] = {called, entry}; /* the parent is a placed label */
  uint32_t phi = spvgen_op_phi(m, u32, pairs, 2);
  CHECK(phi != 0);
  uint32_t low = spvgen_glsl_u_min(m, u32, phi, five);
  uint32_t glsl = spvgen_glsl_std_450(m);
  uint32_t high = spvgen_ext_inst(m, u32, glsl, 41 /* UMax */, (const uint32_t[]){low, one}, 2);
  CHECK(high != 0);
  uint32_t idx[2] = {zero, zero};
  spvgen_store(m, spvgen_access_chain(m, elem_ptr, buf, idx, 2), high);
  spvgen_function_end(m);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);

  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  CHECK_CONTAINS(text, "OpFunctionCall %uint %inc %uint_5");
  CHECK_CONTAINS(text, "OpBranch %next");
  CHECK_CONTAINS(text, "OpPhi %uint %");
  CHECK_CONTAINS(text, "UMin");
  CHECK_CONTAINS(text, "UMax");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------ wrong places ---- */

static void test_an_instruction_after_a_terminator_is_an_invalid_state(void) {
  fixture f = in_main();
  spvgen_return(f.m);
  CHECK_EQ_U64(spvgen_op_i_add(f.m, f.u32, f.a, f.b), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE,
                     "spvgen_op_i_add: OpIAdd: instruction outside a block (the previous block was terminated");
  spvgen_module_destroy(f.m);
}

static void test_an_instruction_outside_a_function_is_an_invalid_state(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), a = spvgen_const_u32(m, 3);
  CHECK_EQ_U64(spvgen_op_i_add(m, u32, a, a), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE,
                     "spvgen_op_i_add: OpIAdd: instruction outside a block (no function is open)");
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  spvgen_return(m);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE, "spvgen_return: OpReturn: instruction outside a block");
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  u32 = spvgen_type_int(m, 32, false);
  spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassFunction, u32), SpvStorageClassFunction, 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE,
                     "spvgen_variable: a Function-storage variable outside a function");
  spvgen_module_destroy(m);
}

static void test_a_block_placed_before_the_previous_one_ends_is_an_invalid_state(void) {
  fixture f = in_main();
  uint32_t current = spvgen_current_block(f.m);
  CHECK_EQ_U64(spvgen_block(f.m, 0), 0);
  char expected[64];
  snprintf(expected, sizeof expected, "spvgen_block: block %u is not terminated yet", current);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, expected);
  spvgen_module_destroy(f.m);
}

static void test_a_function_begun_inside_a_function_is_an_invalid_state(void) {
  fixture f = in_main();
  CHECK_EQ_U64(spvgen_function_begin(f.m, spvgen_type_void(f.m), SpvFunctionControlMaskNone, NULL, 0, NULL), 0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_function_begin: function"); /* the call made */
  CHECK_CONTAINS(spvgen_module_error(f.m), "is still open");
  spvgen_module_destroy(f.m);
}

static void test_finish_with_an_open_function_is_an_invalid_state(void) {
  fixture f = in_main();
  CHECK_EQ_U64(spvgen_module_finish(f.m, NULL, NULL), SPVGEN_ERROR_INVALID_STATE);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_module_finish: function");
  CHECK_CONTAINS(spvgen_module_error(f.m), "is not ended (spvgen_function_end)");
  spvgen_module_destroy(f.m);
}

/* --------------------------------------------- structured control flow ---- */

static void test_else_without_an_if_is_an_invalid_state(void) {
  fixture f = in_main();
  spvgen_else(f.m);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_else: no open if construct");
  spvgen_module_destroy(f.m);

  /* Nor may an if have two elses. */
  f = in_main();
  spvgen_if(f.m, spvgen_const_bool(f.m, true));
  spvgen_else(f.m);
  spvgen_else(f.m);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_else: this if already has an else");
  spvgen_module_destroy(f.m);
}

static void test_end_loop_without_a_loop_is_an_invalid_state(void) {
  fixture f = in_main();
  spvgen_end_loop(f.m);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_end_loop: no open loop construct");
  spvgen_module_destroy(f.m);

  /* The innermost construct is an if: end_loop may not close it. */
  f = in_main();
  spvgen_loop(f.m, SpvLoopControlMaskNone);
  spvgen_if(f.m, spvgen_const_bool(f.m, true));
  spvgen_end_loop(f.m);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_end_loop: no open loop construct");
  spvgen_module_destroy(f.m);

  f = in_main();
  spvgen_end_if(f.m);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_end_if: no open if construct");
  spvgen_module_destroy(f.m);
}

static void test_function_end_with_an_open_if_is_an_invalid_state(void) {
  fixture f = in_main();
  spvgen_if(f.m, spvgen_const_bool(f.m, true));
  spvgen_function_end(f.m);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE,
                     "spvgen_function_end: 1 if/loop constructs are still open");
  spvgen_module_destroy(f.m);
}

static void test_break_and_continue_outside_a_loop_are_invalid_states(void) {
  fixture f = in_main();
  spvgen_break(f.m);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_break: break outside a loop");
  spvgen_module_destroy(f.m);
  f = in_main();
  spvgen_continue(f.m);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_STATE, "spvgen_continue: continue outside a loop");
  spvgen_module_destroy(f.m);
}

static void test_a_condition_that_is_not_a_bool_is_an_invalid_argument(void) {
  fixture f = in_main();
  char expected[80];
  snprintf(expected, sizeof expected, "spvgen_if: condition %u is not a bool value", f.a);
  spvgen_if(f.m, f.a);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  spvgen_loop(f.m, SpvLoopControlMaskNone);
  spvgen_loop_while(f.m, f.b);
  snprintf(expected, sizeof expected, "spvgen_loop_while: condition %u is not a bool value", f.b);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
}

/* ------------------------------------------------------------- returns ---- */

static void test_a_non_void_function_must_end_with_a_return_value(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t fn = spvgen_function_begin(m, u32, SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_function_end(m);
  char expected[96];
  snprintf(expected, sizeof expected, "the last block of non-void function %u has no OpReturnValue", fn);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE, expected);
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  u32 = spvgen_type_int(m, 32, false);
  fn = spvgen_function_begin(m, u32, SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_return(m);
  snprintf(expected, sizeof expected, "spvgen_return: function %u returns a value", fn);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE, expected);
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  u32 = spvgen_type_int(m, 32, false);
  uint32_t half = spvgen_const_f32(m, 0.5f);
  spvgen_function_begin(m, u32, SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_return_value(m, half);
  snprintf(expected, sizeof expected, "spvgen_return_value: value %u is not of the function's return type", half);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);
}

static void test_stores_and_variables_check_their_types(void) {
  fixture f = in_main();
  uint32_t pp = spvgen_type_pointer(f.m, SpvStorageClassFunction, f.u32);
  uint32_t var = spvgen_variable(f.m, pp, SpvStorageClassFunction, 0);
  spvgen_store(f.m, var, spvgen_const_f32(f.m, 1.0f));
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_store: value");
  spvgen_module_destroy(f.m);

  f = in_main();
  pp = spvgen_type_pointer(f.m, SpvStorageClassPrivate, f.u32);
  spvgen_variable(f.m, pp, SpvStorageClassWorkgroup, 0);
  char expected[96];
  snprintf(expected, sizeof expected, "spvgen_variable: pointer type %u (ptr Private uint32) has storage class %u", pp,
           (unsigned)SpvStorageClassPrivate);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);

  f = in_main();
  uint32_t st = spvgen_type_struct(f.m, &f.u32, 1);
  spvgen_member_decorate1(f.m, st, 3, SpvDecorationOffset, 0);
  snprintf(expected, sizeof expected, "struct %u has 1 members; member 3 does not exist", st);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(f.m);
}

/* ------------------------------------------------------------ stickiness ---- */

static void test_the_first_error_sticks_and_later_calls_return_zero(void) {
  fixture f = in_main();
  uint32_t bound = spvgen_module_bound(f.m);
  CHECK_EQ_U64(spvgen_type_int(f.m, 12, true), 0);
  const char *first = "spvgen_type_int: integer width 12 is not 8, 16, 32 or 64";
  CHECK_STR_EQ(spvgen_module_error(f.m), first);
  /* A second, different mistake does not replace the first. */
  spvgen_else(f.m);
  spvgen_type_pointer(f.m, (SpvStorageClass)999, f.u32);
  CHECK_EQ_U64(spvgen_module_fail(f.m, SPVGEN_ERROR_UNSUPPORTED, "later %d", 2), 0);
  CHECK_EQ_U64(spvgen_module_status(f.m), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_EQ(spvgen_module_error(f.m), first);
  /* Valid calls now do nothing and return 0, even lookups of existing types. */
  CHECK_EQ_U64(spvgen_type_int(f.m, 32, false), 0);
  CHECK_EQ_U64(spvgen_type_float(f.m, 32), 0);
  CHECK_EQ_U64(spvgen_const_u32(f.m, 1), 0);
  CHECK_EQ_U64(spvgen_reserve_id(f.m), 0);
  CHECK_EQ_U64(spvgen_label(f.m), 0);
  CHECK_EQ_U64(spvgen_op_i_add(f.m, f.u32, f.a, f.b), 0);
  CHECK_EQ_U64(spvgen_glsl_f_abs(f.m, f.f32, spvgen_const_f32(f.m, -1.0f)), 0);
  CHECK_EQ_U64(spvgen_emit_result(f.m, SpvOpIAdd, f.u32, (const uint32_t[]){f.a, f.b}, 2), 0);
  CHECK_EQ_U64(spvgen_spec_const_u32(f.m, 1, 0), 0);
  CHECK_EQ_U64(spvgen_storage_buffer(f.m, f.u32, 0, 0, false, NULL), 0);
  spvgen_function_end(f.m);
  CHECK_EQ_U64(spvgen_module_bound(f.m), bound);
  CHECK_STR_EQ(spvgen_module_error(f.m), first);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, first);
  spvgen_module_destroy(f.m);
}

static void test_module_fail_records_an_error_for_layers_above(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK_EQ_U64(spvgen_module_fail(m, SPVGEN_ERROR_MISSING_FEATURE, "spvgen_gemm: tile %dx%d", 64, 32), 0);
  CHECK_EQ_U64(spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED, "second"), 0);
  check_module_error(m, SPVGEN_ERROR_MISSING_FEATURE, "spvgen_gemm: tile 64x32");
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_an_entry_point_on_an_id_that_is_not_a_function_is_an_invalid_argument),
      TEST_CASE(test_two_entry_points_with_one_name_and_model_are_an_invalid_argument),
      TEST_CASE(test_a_result_type_that_is_not_a_type_is_an_invalid_argument),
      TEST_CASE(test_a_value_where_a_type_operand_belongs_is_an_invalid_argument),
      TEST_CASE(test_raw_emission_with_too_few_or_too_many_operands_is_an_invalid_argument),
      TEST_CASE(test_an_id_this_module_never_allocated_is_an_invalid_argument),
      TEST_CASE(test_an_unknown_enumerant_value_is_an_invalid_argument),
      TEST_CASE(test_null_arrays_with_nonzero_counts_are_invalid_arguments),
      TEST_CASE(test_a_type_id_as_a_value_operand_is_an_invalid_argument),
      TEST_CASE(test_a_label_id_as_a_value_operand_is_an_invalid_argument),
      TEST_CASE(test_a_function_id_as_a_pointer_operand_is_an_invalid_argument),
      TEST_CASE(test_a_non_label_as_a_branch_target_is_an_invalid_argument),
      TEST_CASE(test_an_id_from_another_module_that_is_a_type_here_is_an_invalid_argument),
      TEST_CASE(test_ids_of_other_kinds_where_the_grammar_takes_them_still_build),
      TEST_CASE(test_an_instruction_after_a_terminator_is_an_invalid_state),
      TEST_CASE(test_an_instruction_outside_a_function_is_an_invalid_state),
      TEST_CASE(test_a_block_placed_before_the_previous_one_ends_is_an_invalid_state),
      TEST_CASE(test_a_function_begun_inside_a_function_is_an_invalid_state),
      TEST_CASE(test_finish_with_an_open_function_is_an_invalid_state),
      TEST_CASE(test_else_without_an_if_is_an_invalid_state),
      TEST_CASE(test_end_loop_without_a_loop_is_an_invalid_state),
      TEST_CASE(test_function_end_with_an_open_if_is_an_invalid_state),
      TEST_CASE(test_break_and_continue_outside_a_loop_are_invalid_states),
      TEST_CASE(test_a_condition_that_is_not_a_bool_is_an_invalid_argument),
      TEST_CASE(test_a_non_void_function_must_end_with_a_return_value),
      TEST_CASE(test_stores_and_variables_check_their_types),
      TEST_CASE(test_the_first_error_sticks_and_later_calls_return_zero),
      TEST_CASE(test_module_fail_records_an_error_for_layers_above),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
