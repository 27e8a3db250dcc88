/* tests/core/test_limits.c — the builder never finishes with SPVGEN_OK on words that no
 * decoder can read (issue 15): SPIR-V's limits (16-bit instruction word counts, the id
 * bound SPIRV-Tools accepts), sizes that overflow 64 bits, raw emission of values a
 * decoder rejects; and each error names the public function that was called, not one it
 * calls inside.
 *
 * Every module these tests finish with SPVGEN_OK is read back with spvgen_disassemble
 * (check_finish_decodes); the randomized sequences of tests/core/test_fuzz_api.c do the
 * same after every successful finish. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "words.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"
#include "spvgen/ops.h"

/* Finishes m: on SPVGEN_OK the words must decode. Returns the finish status. */
#define check_finish_decodes(m) check_finish_decodes_at(__FILE__, __LINE__, (m))
static spvgen_status check_finish_decodes_at(const char *file, int line, spvgen_module *m) {
  const uint32_t *w = NULL;
  size_t n = 0;
  spvgen_status st = spvgen_module_finish(m, &w, &n);
  if (st != SPVGEN_OK) return st;
  char *text = NULL;
  static char message[1024];
  if (spvgen_disassemble(w, n, 0, &text, message, sizeof message) != SPVGEN_OK)
    test_fail_at(file, line, "finished with SPVGEN_OK but the words do not decode: %s",
                 message);
  spvgen_free_text(text);
  return st;
}

/* A NUL-terminated string of n 'a's (malloc'd). */
static char *long_name(size_t n) {
  char *s = malloc(n + 1);
  if (!s) return NULL;
  memset(s, 'a', n);
  s[n] = 0;
  return s;
}

/* --------------------------------------------- 16-bit instruction word counts ---- */

/* OpEntryPoint: 3 words + the name (len/4 + 1 words) + the interface. A 300,000-byte name
 * made 75,004 words, whose count wrapped: the module finished OK and did not decode. The
 * longest name that fits (262,127 bytes, 65,535 words) works. */
static void test_an_entry_point_name_over_the_word_limit_is_refused(void) {
  char *name = long_name(300000);
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK_EQ_U64(spvgen_compute_main(m, name, 1, 1, 1), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_compute_main: OpEntryPoint would be 75004 words (a 300000-byte "
                     "name, 0 interface variables); an instruction has at most 65535 words");
  spvgen_module_reset(m, NULL);
  uint32_t f = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_function_end(m);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, f, name, SPVGEN_INTERFACE_ALL);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_entry_point: OpEntryPoint would be 75004 words");
  free(name);

  name = long_name(262127);
  spvgen_module_reset(m, NULL);
  spvgen_compute_main(m, name, 1, 1, 1);
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *w = check_module(m, &count); /* valid, so it decodes */
  const uint32_t *entry = words_find(w, count, SpvOpEntryPoint, 0, NULL, 0);
  CHECK(entry != NULL);
  if (entry) CHECK_EQ_U64(entry[0] >> 16, 65535);
  spvgen_module_reset(m, NULL);
  name[262127 - 1] = 0; /* so that compute_main's name differs: 262126 bytes */
  spvgen_compute_main(m, name, 1, 1, 1);
  spvgen_function_end(m);
  CHECK_EQ_U64(check_finish_decodes(m), SPVGEN_OK);
  free(name);
  spvgen_module_destroy(m);
}

/* An explicit interface is counted at the call; "every global" at finish. 70,000
 * variables made a 70,005-word OpEntryPoint that finished OK. 65,530 (65,535 words) fit. */
static void test_an_interface_over_the_word_limit_is_refused(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassPrivate, f32);
  uint32_t *vars = malloc(70000 * sizeof *vars);
  for (uint32_t i = 0; i < 70000; i++) vars[i] = spvgen_variable(m, ptr, SpvStorageClassPrivate, 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  CHECK_EQ_U64(spvgen_module_finish(m, NULL, NULL), SPVGEN_ERROR_INVALID_ARGUMENT);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_module_finish: the OpEntryPoint of \"main\" would be 70005 words (a "
                     "2-word name and 70000 interface variables); an instruction has at most "
                     "65535 words");

  spvgen_module_reset(m, NULL);
  f32 = spvgen_type_float(m, 32);
  ptr = spvgen_type_pointer(m, SpvStorageClassPrivate, f32);
  for (uint32_t i = 0; i < 70000; i++) vars[i] = spvgen_variable(m, ptr, SpvStorageClassPrivate, 0);
  uint32_t f = spvgen_function_begin(m, spvgen_type_void(m), SpvFunctionControlMaskNone, NULL, 0, NULL);
  spvgen_function_end(m);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, f, "main", vars, 70000);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_entry_point: OpEntryPoint would be 70005 words (a 4-byte name, "
                     "70000 interface variables)");

  spvgen_module_reset(m, NULL);
  f32 = spvgen_type_float(m, 32);
  ptr = spvgen_type_pointer(m, SpvStorageClassPrivate, f32);
  for (uint32_t i = 0; i < 65530; i++) spvgen_variable(m, ptr, SpvStorageClassPrivate, 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  CHECK_EQ_U64(check_finish_decodes(m), SPVGEN_OK);
  free(vars);
  spvgen_module_destroy(m);
}

/* OpExtension: 1 word + the name. A 300,000-byte name finished OK and did not decode;
 * 262,135 bytes (65,535 words) is the longest that fits. */
static void test_an_extension_name_over_the_word_limit_is_refused(void) {
  char *name = long_name(300000);
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_extension(m, name);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_extension: an extension name of 300000 bytes makes OpExtension "
                     "75002 words; an instruction has at most 65535 words");
  spvgen_module_reset(m, NULL);
  name[262136] = 0;
  spvgen_extension(m, name);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_extension: an extension name of 262136 bytes");
  spvgen_module_reset(m, NULL);
  name[262135] = 0;
  spvgen_extension(m, name);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  CHECK_EQ_U64(check_finish_decodes(m), SPVGEN_OK);
  free(name);
  spvgen_module_destroy(m);
}

/* The generic path (generated emitters, spvgen_emit) refuses 65,535 operand words. */
static void test_raw_instructions_over_the_word_limit_are_refused(void) {
  uint32_t *ops = calloc(65535, sizeof *ops);
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  ops[0] = f32;
  memset(ops + 1, 'a', 65533 * 4); /* OpName's string without its NUL word */
  spvgen_emit(m, SpvOpName, ops, 65535);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_emit: OpName: 65535 operand words is over the 65534 limit");
  spvgen_module_reset(m, NULL);
  f32 = spvgen_type_float(m, 32);
  ops[0] = f32;
  ops[65533] = 0; /* 65534 operand words with the NUL word: the largest instruction */
  spvgen_emit(m, SpvOpName, ops, 65534);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  CHECK_EQ_U64(check_finish_decodes(m), SPVGEN_OK);
  free(ops);
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------------ id bound ---- */

/* SPIRV-Tools accepts an id bound up to 0x3FFFFF. The builder's ids grow through a
 * doubling array of 0x400000 entries, and its fast path let the bound reach 0x400000,
 * which finished OK and spirv-val refused ("id bound is larger than the max id bound
 * 4194303"). Now the bound stops at 0x3FFFFF: the id after that is "too many ids". */
static void test_the_id_bound_stops_at_the_largest_one_spirv_tools_accepts(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  for (int pass = 0; pass < 2; pass++) {
    spvgen_module_reset(m, NULL);
    uint32_t u32 = spvgen_type_int(m, 32, false), x = spvgen_const_u32(m, 7);
    spvgen_compute_main(m, "main", 1, 1, 1);
    while (spvgen_module_bound(m) < 0x3FFFFF && spvgen_module_status(m) == SPVGEN_OK)
      spvgen_op_copy_object(m, u32, x);
    CHECK_EQ_U64(spvgen_module_bound(m), 0x3FFFFF);
    CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
    if (pass == 0) {
      spvgen_function_end(m);
      const uint32_t *w = NULL;
      size_t n = 0;
      CHECK_EQ_U64(spvgen_module_finish(m, &w, &n), SPVGEN_OK);
      if (w) CHECK_EQ_U64(w[3], 0x3FFFFF);
    } else {
      CHECK_EQ_U64(spvgen_op_copy_object(m, u32, x), 0);
      CHECK_EQ_U64(spvgen_module_bound(m), 0x3FFFFF);
      check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                         "spvgen_op_copy_object: too many ids: a module's id bound is at most "
                         "4194303 (0x3FFFFF");
    }
  }
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------------- sizes ---- */

/* u32[2^62 + 1]: 4 * (2^62 + 1) wrapped to 4 in 64 bits, spvgen_type_size said 4 and
 * spvgen_storage_buffer took it. Now the size is unknown (0) and the buffer refused. */
static void test_sizes_that_overflow_are_unknown_and_refused(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), u64 = spvgen_type_int(m, 64, false);
  uint32_t huge = spvgen_type_array_id(m, u32, spvgen_const_bits(m, u64, (1ull << 62) + 1));
  uint32_t huge_strided =
      spvgen_type_array_strided_id(m, u32, spvgen_const_bits(m, u64, (1ull << 62) + 1), 4);
  uint32_t big = spvgen_type_array_strided_id(m, u32, spvgen_const_bits(m, u64, 1ull << 31), 4);
  uint32_t nested = spvgen_type_array_strided_id(m, big, spvgen_const_bits(m, u64, 1ull << 32), 1u << 31);
  uint32_t small = spvgen_type_array_strided(m, u32, 5, 4);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  CHECK_EQ_U64(spvgen_type_size(m, huge), 0);
  CHECK_EQ_U64(spvgen_type_size(m, huge_strided), 0);
  CHECK_EQ_U64(spvgen_type_size(m, big), 0);    /* 8 GiB: more than 32 bits say */
  CHECK_EQ_U64(spvgen_type_size(m, nested), 0); /* 2^63: fits 64 bits, not 32 */
  CHECK_EQ_U64(spvgen_type_size(m, small), 20);
  uint32_t ep = 1;
  CHECK_EQ_U64(spvgen_storage_buffer(m, huge_strided, 0, 0, false, &ep), 0);
  CHECK_EQ_U64(ep, 0);
  char expected[160];
  snprintf(expected, sizeof expected,
           "spvgen_storage_buffer: element type %u (array[4611686018427387905] uint32 stride 4) is "
           "larger than 2^64 bytes", huge_strided);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);

  spvgen_module_reset(m, NULL);
  u32 = spvgen_type_int(m, 32, false);
  u64 = spvgen_type_int(m, 64, false);
  big = spvgen_type_array_strided_id(m, u32, spvgen_const_bits(m, u64, 1ull << 31), 4);
  CHECK_EQ_U64(spvgen_storage_buffer(m, big, 0, 0, false, NULL), 0);
  snprintf(expected, sizeof expected, "spvgen_storage_buffer: element type %u is 8589934592 bytes", big);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);
}

/* ------------------------------------------------- raw emission, decodable ---- */

static void test_raw_emission_a_decoder_rejects_is_refused(void) {
  spvgen_module *m = spvgen_module_create(NULL);

  /* OpExtInstImport of a set no decoder knows ("Invalid extended instruction import"). */
  CHECK_EQ_U64(spvgen_ext_inst_import(m, ""), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_ext_inst_import: OpExtInstImport: \"\" is not an extended "
                     "instruction set a decoder knows");
  spvgen_module_reset(m, NULL);
  CHECK_EQ_U64(spvgen_ext_inst_import(m, "My.Set"), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "\"My.Set\" is not an extended instruction set");
  spvgen_module_reset(m, NULL);
  uint32_t raw_import[2] = {0, 0};
  spvgen_emit(m, SpvOpExtInstImport, raw_import, 2);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_emit: OpExtInstImport: \"\"");
  spvgen_module_reset(m, NULL);
  CHECK(spvgen_ext_inst_import(m, "NonSemantic.My.Set") != 0);
  CHECK(spvgen_glsl_std_450(m) != 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  CHECK_EQ_U64(check_finish_decodes(m), SPVGEN_OK);

  /* OpTypeFloat 16 with FP encoding 77 ("Invalid FP encoding operand: 77"). */
  spvgen_module_reset(m, NULL);
  uint32_t float77[3] = {0, 16, 77};
  spvgen_emit(m, SpvOpTypeFloat, float77, 3);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_emit: OpTypeFloat: 77 is not a FPEncoding value");
  spvgen_module_reset(m, NULL);
  CHECK_EQ_U64(spvgen_type_float_encoded(m, 16, 77), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_type_float_encoded: unknown FP encoding 77");

  /* A float of width 4002747540 and a constant of it (the decoder sizes the literal by
   * the width: "End of input reached while decoding OpConstant"); an int of 128 bits. */
  spvgen_module_reset(m, NULL);
  uint32_t width[1] = {4002747540u};
  CHECK_EQ_U64(spvgen_emit_result(m, SpvOpTypeFloat, 0, width, 1), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_emit_result: OpTypeFloat: width 4002747540 is not 16, 32 or 64");
  spvgen_module_reset(m, NULL);
  uint32_t int128[2] = {128, 0};
  CHECK_EQ_U64(spvgen_emit_result(m, SpvOpTypeInt, 0, int128, 2), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_emit_result: OpTypeInt: width 128 is not 8, 16, 32 or 64");
  spvgen_module_reset(m, NULL);
  uint32_t bf16_width[3] = {0, 32, 0};
  spvgen_emit(m, SpvOpTypeFloat, bf16_width, 3);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_emit: OpTypeFloat: FP encoding 0 needs width 16, not 32");

  /* OpSpecConstantOp names an instruction whose operands follow: opcode 0 (OpNop) is not
   * one it allows ("Invalid OpSpecConstantOp opcode: 0"); IAdd needs its two operands. */
  spvgen_module_reset(m, NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t nop[1] = {SpvOpNop};
  CHECK_EQ_U64(spvgen_emit_result(m, SpvOpSpecConstantOp, u32, nop, 1), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_emit_result: OpSpecConstantOp: opcode 0 OpNop is not one "
                     "OpSpecConstantOp allows");
  spvgen_module_reset(m, NULL);
  u32 = spvgen_type_int(m, 32, false);
  uint32_t a = spvgen_spec_const_u32(m, 3, 0), b = spvgen_spec_const_u32(m, 4, 1);
  uint32_t iadd_short[2] = {SpvOpIAdd, a};
  CHECK_EQ_U64(spvgen_emit_result(m, SpvOpSpecConstantOp, u32, iadd_short, 2), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_emit_result: OpSpecConstantOp: missing operand");
  spvgen_module_reset(m, NULL);
  u32 = spvgen_type_int(m, 32, false);
  a = spvgen_spec_const_u32(m, 3, 0);
  b = spvgen_spec_const_u32(m, 4, 1);
  uint32_t iadd[3] = {SpvOpIAdd, a, b};
  CHECK(spvgen_emit_result(m, SpvOpSpecConstantOp, u32, iadd, 3) != 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  check_module(m, NULL); /* valid (so decodable) */

  /* A capability value nobody knows ("Invalid capability operand: 4456"). */
  spvgen_module_reset(m, NULL);
  spvgen_capability(m, (SpvCapability)4456);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_capability: unknown capability 4456");
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------ the function named ---- */

static void test_errors_name_the_function_that_was_called(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_decorate(m, 999, SpvDecorationBlock);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_decorate: OpDecorate: operand 'Target' is id 999");
  spvgen_module_reset(m, NULL);
  spvgen_decorate1(m, 999, SpvDecorationBinding, 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_decorate1: OpDecorate:");

  spvgen_module_reset(m, NULL);
  CHECK(spvgen_spec_const_u32(m, 1, 0) != 0);
  CHECK_EQ_U64(spvgen_spec_const_u32(m, 1, 0), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_spec_const_u32: SpecId 0 is already used by id");

  spvgen_module_reset(m, NULL);
  uint32_t main_fn = spvgen_compute_main(m, "main", 1, 1, 1);
  CHECK_EQ_U64(spvgen_compute_main(m, "other", 1, 1, 1), 0);
  char expected[128];
  snprintf(expected, sizeof expected, "spvgen_compute_main: function %u is still open (spvgen_function_end)",
           main_fn);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE, expected);

  spvgen_module_reset(m, NULL);
  main_fn = spvgen_compute_main(m, "main", 1, 0, 1);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_compute_main: local size 1x0x1 has a zero dimension");

  spvgen_module_reset(m, NULL);
  main_fn = spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_return_value(m, spvgen_const_u32(m, 1));
  snprintf(expected, sizeof expected, "spvgen_return_value: function %u returns void: use spvgen_return", main_fn);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE, expected);

  spvgen_module_reset(m, NULL);
  spvgen_storage_buffer(m, spvgen_type_float(m, 32), 0, 0, false, NULL);
  spvgen_storage_buffer(m, spvgen_type_float(m, 32), 0, 1, false, NULL);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, 12345);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_builtin_input: ");

  /* After an error inside a wrapped call, a later error on a fresh module names its own
   * call (nothing of the wrapper stays behind). */
  spvgen_module_reset(m, NULL);
  spvgen_variable(m, 12345, SpvStorageClassPrivate, 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_variable: type 12345 is not a pointer type");
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_an_entry_point_name_over_the_word_limit_is_refused),
      TEST_CASE(test_an_interface_over_the_word_limit_is_refused),
      TEST_CASE(test_an_extension_name_over_the_word_limit_is_refused),
      TEST_CASE(test_raw_instructions_over_the_word_limit_are_refused),
      TEST_CASE(test_the_id_bound_stops_at_the_largest_one_spirv_tools_accepts),
      TEST_CASE(test_sizes_that_overflow_are_unknown_and_refused),
      TEST_CASE(test_raw_emission_a_decoder_rejects_is_refused),
      TEST_CASE(test_errors_name_the_function_that_was_called),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
