/* tests/core/test_types.c — hash-consed types and constants: asking twice gives the
 * same id, different operands give different ids; struct types and specialization
 * constants are never merged; strided and unstrided arrays are distinct; a SpecId is
 * used once. Every module built here validates. */
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* Finishes with an empty main and validates; returns the disassembly (free it). */
static char *finish_with_main(spvgen_module *m) {
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  return check_disassemble(w, n);
}

/* Number of lines of text that contain needle. */
static int count_lines_with(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; p && (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
  return n;
}

static void test_scalar_types_are_hash_consed(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t ids[16];
  int k = 0;
  ids[k++] = spvgen_type_void(m);
  ids[k++] = spvgen_type_bool(m);
  const uint32_t widths[] = {8, 16, 32, 64};
  for (int i = 0; i < 4; i++) {
    ids[k++] = spvgen_type_int(m, widths[i], true);
    ids[k++] = spvgen_type_int(m, widths[i], false);
  }
  ids[k++] = spvgen_type_float(m, 16);
  ids[k++] = spvgen_type_float(m, 32);
  ids[k++] = spvgen_type_float(m, 64);
  /* Again, in another order: the same ids, and no new id allocated. */
  uint32_t bound = spvgen_module_bound(m);
  CHECK_EQ_U64(spvgen_type_float(m, 64), ids[12]);
  CHECK_EQ_U64(spvgen_type_float(m, 32), ids[11]);
  CHECK_EQ_U64(spvgen_type_float(m, 16), ids[10]);
  for (int i = 3; i >= 0; i--) {
    CHECK_EQ_U64(spvgen_type_int(m, widths[i], false), ids[2 + 2 * i + 1]);
    CHECK_EQ_U64(spvgen_type_int(m, widths[i], true), ids[2 + 2 * i]);
  }
  CHECK_EQ_U64(spvgen_type_bool(m), ids[1]);
  CHECK_EQ_U64(spvgen_type_void(m), ids[0]);
  /* The generated emitter goes through the same table. */
  CHECK_EQ_U64(spvgen_op_type_int(m, 32, 1), ids[6]);
  CHECK_EQ_U64(spvgen_op_type_float(m, 32, SPVGEN_ABSENT), ids[11]);
  CHECK_EQ_U64(spvgen_module_bound(m), bound);
  for (int i = 0; i < k; i++) {
    CHECK(ids[i] != 0);
    for (int j = 0; j < i; j++) CHECK_MSG(ids[i] != ids[j], "types %d and %d share id %u", i, j, ids[i]);
  }
  char *text = finish_with_main(m);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeInt 32 1\n"), 1);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeFloat 32\n"), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_composite_types_are_hash_consed_by_operands(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t c4 = spvgen_const_u32(m, 4), c8 = spvgen_const_u32(m, 8);

  uint32_t v4 = spvgen_type_vector(m, f32, 4);
  CHECK_EQ_U64(spvgen_type_vector(m, f32, 4), v4);
  CHECK_NE_U64(spvgen_type_vector(m, f32, 3), v4);
  CHECK_NE_U64(spvgen_type_vector(m, u32, 4), v4);

  uint32_t m4 = spvgen_type_matrix(m, v4, 4);
  CHECK_EQ_U64(spvgen_type_matrix(m, v4, 4), m4);
  CHECK_NE_U64(spvgen_type_matrix(m, v4, 3), m4);

  uint32_t a4 = spvgen_type_array_id(m, f32, c4);
  CHECK_EQ_U64(spvgen_type_array_id(m, f32, c4), a4);
  CHECK_EQ_U64(spvgen_type_array(m, f32, 4), a4);
  CHECK_NE_U64(spvgen_type_array_id(m, f32, c8), a4);
  CHECK_NE_U64(spvgen_type_array_id(m, u32, c4), a4);

  uint32_t ra = spvgen_type_runtime_array(m, f32);
  CHECK_EQ_U64(spvgen_type_runtime_array(m, f32), ra);
  CHECK_NE_U64(spvgen_type_runtime_array(m, u32), ra);

  uint32_t pw = spvgen_type_pointer(m, SpvStorageClassWorkgroup, a4);
  CHECK_EQ_U64(spvgen_type_pointer(m, SpvStorageClassWorkgroup, a4), pw);
  CHECK_NE_U64(spvgen_type_pointer(m, SpvStorageClassPrivate, a4), pw);
  CHECK_NE_U64(spvgen_type_pointer(m, SpvStorageClassWorkgroup, v4), pw);

  uint32_t params[2] = {f32, u32}, swapped[2] = {u32, f32};
  uint32_t fn = spvgen_type_function(m, f32, params, 2);
  CHECK_EQ_U64(spvgen_type_function(m, f32, params, 2), fn);
  CHECK_NE_U64(spvgen_type_function(m, f32, swapped, 2), fn);
  CHECK_NE_U64(spvgen_type_function(m, f32, params, 1), fn);
  CHECK_NE_U64(spvgen_type_function(m, u32, params, 2), fn);
  uint32_t void_fn = spvgen_type_function(m, spvgen_type_void(m), NULL, 0);
  CHECK_EQ_U64(spvgen_type_function(m, spvgen_type_void(m), NULL, 0), void_fn);

  /* Queries on what was built. */
  CHECK_EQ_U64(spvgen_type_opcode(m, m4), SpvOpTypeMatrix);
  CHECK_EQ_U64(spvgen_type_element(m, v4), f32);
  CHECK_EQ_U64(spvgen_type_element(m, a4), f32);
  CHECK_EQ_U64(spvgen_type_size(m, v4), 16);
  CHECK_EQ_U64(spvgen_type_size(m, m4), 64);
  CHECK_EQ_U64(spvgen_type_size(m, a4), 16);
  CHECK_EQ_U64(spvgen_type_size(m, ra), 0);
  uint32_t ops[4] = {0};
  CHECK_EQ_U64(spvgen_type_operands(m, v4, ops, 4), 2);
  CHECK_EQ_U64(ops[0], f32);
  CHECK_EQ_U64(ops[1], 4);

  char *text = finish_with_main(m);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeVector %float 4\n"), 1);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeArray %float %uint_4\n"), 1);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeFunction %float %float %uint\n"), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_struct_types_are_never_merged(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t a = spvgen_type_struct(m, &f32, 1);
  uint32_t b = spvgen_type_struct(m, &f32, 1);
  uint32_t e1 = spvgen_type_struct(m, NULL, 0);
  uint32_t e2 = spvgen_op_type_struct(m, NULL, 0);
  CHECK(a && b && e1 && e2);
  CHECK_NE_U64(a, b);
  CHECK_NE_U64(e1, e2);
  /* Pointers to distinct structs are distinct too. */
  CHECK_NE_U64(spvgen_type_pointer(m, SpvStorageClassPrivate, a),
               spvgen_type_pointer(m, SpvStorageClassPrivate, b));
  char *text = finish_with_main(m);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeStruct %float\n"), 2);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* Plain arrays carry no ArrayStride; strided ones do, one per stride. Three orders of
 * asking, because each must keep the types apart. */
static void test_a_strided_array_after_a_plain_one_is_a_distinct_type(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t c4 = spvgen_const_u32(m, 4);
  uint32_t plain = spvgen_type_array_id(m, f32, c4);
  uint32_t s4 = spvgen_type_array_strided_id(m, f32, c4, 4);
  CHECK(plain != 0);
  CHECK(s4 != 0);
  CHECK_NE_U64(plain, s4);
  CHECK_EQ_U64(spvgen_type_array_strided_id(m, f32, c4, 4), s4);
  CHECK_EQ_U64(spvgen_type_array_id(m, f32, c4), plain);
  uint32_t rplain = spvgen_type_runtime_array(m, f32);
  uint32_t r4 = spvgen_type_runtime_array_strided(m, f32, 4);
  CHECK(r4 != 0);
  CHECK_NE_U64(rplain, r4);
  char *text = finish_with_main(m);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeArray %float %uint_4\n"), 2);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeRuntimeArray %float\n"), 2);
  CHECK_EQ_U64(count_lines_with(text, " ArrayStride 4\n"), 2);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_a_plain_array_after_a_strided_one_is_a_distinct_type(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t c4 = spvgen_const_u32(m, 4);
  uint32_t s4 = spvgen_type_array_strided_id(m, f32, c4, 4);
  uint32_t plain = spvgen_type_array_id(m, f32, c4);
  CHECK(s4 != 0);
  CHECK_NE_U64(plain, s4); /* else the plain array would carry ArrayStride 4 */
  uint32_t r4 = spvgen_type_runtime_array_strided(m, f32, 4);
  uint32_t rplain = spvgen_type_runtime_array(m, f32);
  CHECK(r4 != 0);
  CHECK_NE_U64(rplain, r4);
  char *text = finish_with_main(m);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeArray %float %uint_4\n"), 2);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeRuntimeArray %float\n"), 2);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_arrays_with_different_strides_are_distinct_types(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t c4 = spvgen_const_u32(m, 4);
  uint32_t s4 = spvgen_type_array_strided_id(m, f32, c4, 4);
  uint32_t s8 = spvgen_type_array_strided_id(m, f32, c4, 8);
  CHECK(s4 != 0);
  CHECK(s8 != 0);
  CHECK_NE_U64(s4, s8);
  CHECK_EQ_U64(spvgen_type_array_strided_id(m, f32, c4, 8), s8);
  uint32_t r4 = spvgen_type_runtime_array_strided(m, f32, 4);
  uint32_t r16 = spvgen_type_runtime_array_strided(m, f32, 16);
  CHECK(r4 != 0);
  CHECK(r16 != 0);
  CHECK_NE_U64(r4, r16);
  CHECK_NE_U64(r4, s4); /* the same element and stride, but one is not sized */
  char *text = finish_with_main(m);
  CHECK_EQ_U64(count_lines_with(text, " ArrayStride 4\n"), 2);
  CHECK_EQ_U64(count_lines_with(text, " ArrayStride 8\n"), 1);
  CHECK_EQ_U64(count_lines_with(text, " ArrayStride 16\n"), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* spvgen_storage_buffer makes a strided runtime array; a plain one of the same element
 * asked for before or after must stay a different type. */
static void test_storage_buffers_and_plain_runtime_arrays_coexist(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t before = spvgen_type_runtime_array(m, f32);
  uint32_t a = spvgen_storage_buffer(m, f32, 0, 0, true, NULL);
  uint32_t b = spvgen_storage_buffer(m, f32, 0, 1, false, NULL);
  uint32_t after = spvgen_type_runtime_array(m, f32);
  CHECK(before != 0);
  CHECK(a != 0);
  CHECK(b != 0);
  CHECK_EQ_U64(after, before);
  char *text = finish_with_main(m);
  CHECK_EQ_U64(count_lines_with(text, "= OpTypeRuntimeArray %float\n"), 2);
  CHECK_EQ_U64(count_lines_with(text, " ArrayStride 4\n"), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_scalar_constants_are_hash_consed_by_type_and_bits(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u5 = spvgen_const_u32(m, 5);
  CHECK_EQ_U64(spvgen_const_u32(m, 5), u5);
  CHECK_NE_U64(spvgen_const_u32(m, 6), u5);
  uint32_t i5 = spvgen_const_i32(m, 5);
  CHECK_NE_U64(i5, u5); /* same bits, other type */
  CHECK_EQ_U64(spvgen_const_i32(m, 5), i5);
  uint32_t one = spvgen_const_f32(m, 1.0f);
  CHECK_EQ_U64(spvgen_const_f32(m, 1.0f), one);
  CHECK_NE_U64(spvgen_const_f32(m, 0.0f), spvgen_const_f32(m, -0.0f));
  /* 64-bit constants take two words and are keyed by both. */
  uint32_t u64 = spvgen_type_int(m, 64, false);
  uint32_t big = spvgen_const_bits(m, u64, 0x100000005ull);
  CHECK_EQ_U64(spvgen_const_bits(m, u64, 0x100000005ull), big);
  CHECK_NE_U64(spvgen_const_bits(m, u64, 0x200000005ull), big);
  uint64_t bits = 0;
  CHECK(spvgen_const_value(m, big, &bits));
  CHECK_EQ_U64(bits, 0x100000005ull);
  /* A narrow signed constant is sign-extended, so -1 and 0xFFFF are one constant. */
  uint32_t i16 = spvgen_type_int(m, 16, true);
  uint32_t minus_one = spvgen_const_bits(m, i16, (uint64_t)-1);
  CHECK_EQ_U64(spvgen_const_bits(m, i16, 0xFFFF), minus_one);
  CHECK(spvgen_const_value(m, minus_one, &bits));
  CHECK_EQ_U64(bits, 0xFFFF);
  /* The generated emitter shares the table. */
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t five = 5;
  CHECK_EQ_U64(spvgen_op_constant(m, u32, &five, 1), u5);
  CHECK(spvgen_const_value(m, u5, &bits));
  CHECK_EQ_U64(bits, 5);
  CHECK(!spvgen_const_value(m, u32, &bits));

  char *text = finish_with_main(m);
  const char *lines[] = {"%uint_5 = OpConstant %uint 5", "%int_5 = OpConstant %int 5",
                         "%short_n1 = OpConstant %short -1",
                         "%ulong_4294967301 = OpConstant %ulong 4294967301"};
  check_has_lines(text, lines, 4);
  CHECK_EQ_U64(count_lines_with(text, "= OpConstant %uint 5\n"), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_composite_null_and_bool_constants_are_hash_consed(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t v2 = spvgen_type_vector(m, u32, 2);
  uint32_t c1 = spvgen_const_u32(m, 1), c2 = spvgen_const_u32(m, 2);
  uint32_t ab[2] = {c1, c2}, ba[2] = {c2, c1};
  uint32_t v12 = spvgen_const_composite(m, v2, ab, 2);
  CHECK(v12 != 0);
  CHECK_EQ_U64(spvgen_const_composite(m, v2, ab, 2), v12);
  CHECK_NE_U64(spvgen_const_composite(m, v2, ba, 2), v12);
  CHECK_EQ_U64(spvgen_type_of(m, v12), v2);

  uint32_t n1 = spvgen_const_null(m, v2);
  CHECK_EQ_U64(spvgen_const_null(m, v2), n1);
  CHECK_NE_U64(spvgen_const_null(m, u32), n1);
  CHECK_NE_U64(spvgen_const_null(m, v2), v12);

  uint32_t t = spvgen_const_bool(m, true), f = spvgen_const_bool(m, false);
  CHECK(t && f);
  CHECK_NE_U64(t, f);
  CHECK_EQ_U64(spvgen_const_bool(m, true), t);
  CHECK_EQ_U64(spvgen_const_bool(m, false), f);
  uint64_t bits = 7;
  CHECK(spvgen_const_value(m, t, &bits));
  CHECK_EQ_U64(bits, 1);
  CHECK(spvgen_const_value(m, f, &bits));
  CHECK_EQ_U64(bits, 0);

  char *text = finish_with_main(m);
  CHECK_EQ_U64(count_lines_with(text, "= OpConstantComposite %v2uint %uint_1 %uint_2\n"), 1);
  CHECK_EQ_U64(count_lines_with(text, "= OpConstantNull %v2uint\n"), 1);
  CHECK_EQ_U64(count_lines_with(text, "= OpConstantTrue %bool\n"), 1);
  CHECK_EQ_U64(count_lines_with(text, "= OpConstantFalse %bool\n"), 1);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_spec_constants_are_never_merged_and_carry_their_spec_id(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t a = spvgen_spec_const_u32(m, 4, 0);
  uint32_t b = spvgen_spec_const_u32(m, 4, 1);
  uint32_t c = spvgen_spec_const_bool(m, true, 2);
  uint32_t d = spvgen_spec_const_bool(m, true, 3);
  uint32_t e = spvgen_spec_const_bits(m, spvgen_type_float(m, 32), 0x3f800000u, 4);
  uint32_t plain = spvgen_const_u32(m, 4);
  CHECK(a && b && c && d && e && plain);
  CHECK_NE_U64(a, b);
  CHECK_NE_U64(c, d);
  CHECK_NE_U64(a, plain);
  /* A spec constant has no compile-time value. */
  CHECK(!spvgen_const_value(m, a, NULL));
  spvgen_name(m, a, "a");
  spvgen_name(m, b, "b");
  spvgen_name(m, c, "c");
  spvgen_name(m, d, "d");
  spvgen_name(m, e, "e");
  char *text = finish_with_main(m);
  const char *lines[] = {"OpDecorate %a SpecId 0", "OpDecorate %b SpecId 1",
                         "OpDecorate %c SpecId 2", "OpDecorate %d SpecId 3",
                         "OpDecorate %e SpecId 4", "%a = OpSpecConstant %uint 4",
                         "%b = OpSpecConstant %uint 4", "%c = OpSpecConstantTrue %bool",
                         "%d = OpSpecConstantTrue %bool", "%e = OpSpecConstant %float 1",
                         "%uint_4 = OpConstant %uint 4"};
  check_has_lines(text, lines, 11);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_a_duplicate_spec_id_is_rejected(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t a = spvgen_spec_const_u32(m, 1, 7);
  CHECK(a != 0);
  CHECK_EQ_U64(spvgen_spec_const_bool(m, false, 7), 0);
  char expected[64];
  snprintf(expected, sizeof expected, "SpecId 7 is already used by id %u", a);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  CHECK_CONTAINS(spvgen_module_error(m), "spvgen_spec_const_bool");
  spvgen_module_destroy(m);
}

/* Hash-consing does not stop at some operand count: a 100-element table constant and a
 * 70-parameter function type are found again like small ones. (A duplicate
 * OpTypeFunction is also invalid SPIR-V.) */
static void test_large_types_and_constants_are_hash_consed_too(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t arr = spvgen_type_array(m, u32, 100);
  uint32_t parts[100], params[70];
  for (uint32_t i = 0; i < 100; i++) parts[i] = spvgen_const_u32(m, i * 7u);
  for (uint32_t i = 0; i < 70; i++) params[i] = u32;
  uint32_t table = spvgen_const_composite(m, arr, parts, 100);
  CHECK(table != 0);
  CHECK_EQ_U64(spvgen_const_composite(m, arr, parts, 100), table);
  uint32_t fn = spvgen_type_function(m, u32, params, 70);
  CHECK(fn != 0);
  CHECK_EQ_U64(spvgen_type_function(m, u32, params, 70), fn);
  char *text = finish_with_main(m);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* Raw emission may define a reserved id as a type. For a type SPIR-V requires to be
 * unique (scalars, vectors, function types) that already exists, the builder must either
 * refuse it or still give a valid module; never a silent duplicate. */
static void test_a_reserved_id_cannot_duplicate_an_existing_unique_type(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t r = spvgen_reserve_id(m);
  spvgen_emit(m, SpvOpTypeInt, (const uint32_t[]){r, 32, 0}, 3);
  if (spvgen_module_status(m) == SPVGEN_OK) {
    char *text = finish_with_main(m); /* must validate */
    spvgen_free_text(text);
  } else {
    char expected[64];
    snprintf(expected, sizeof expected, "already exists as id %u", u32);
    check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  }
  spvgen_module_destroy(m);
}

static void test_array_lengths_may_be_spec_constants_and_stay_distinct(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t s1 = spvgen_spec_const_u32(m, 16, 0), s2 = spvgen_spec_const_u32(m, 16, 1);
  uint32_t a1 = spvgen_type_array_id(m, f32, s1), a2 = spvgen_type_array_id(m, f32, s2);
  CHECK(a1 && a2);
  CHECK_NE_U64(a1, a2);
  CHECK_EQ_U64(spvgen_type_array_id(m, f32, s1), a1);
  CHECK_EQ_U64(spvgen_type_size(m, a1), 0); /* not known until specialization */
  char *text = finish_with_main(m);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_scalar_types_are_hash_consed),
      TEST_CASE(test_composite_types_are_hash_consed_by_operands),
      TEST_CASE(test_struct_types_are_never_merged),
      TEST_CASE(test_a_strided_array_after_a_plain_one_is_a_distinct_type),
      TEST_CASE(test_a_plain_array_after_a_strided_one_is_a_distinct_type),
      TEST_CASE(test_arrays_with_different_strides_are_distinct_types),
      TEST_CASE(test_storage_buffers_and_plain_runtime_arrays_coexist),
      TEST_CASE(test_scalar_constants_are_hash_consed_by_type_and_bits),
      TEST_CASE(test_composite_null_and_bool_constants_are_hash_consed),
      TEST_CASE(test_spec_constants_are_never_merged_and_carry_their_spec_id),
      TEST_CASE(test_a_duplicate_spec_id_is_rejected),
      TEST_CASE(test_large_types_and_constants_are_hash_consed_too),
      TEST_CASE(test_a_reserved_id_cannot_duplicate_an_existing_unique_type),
      TEST_CASE(test_array_lengths_may_be_spec_constants_and_stay_distinct),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
