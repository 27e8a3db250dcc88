/* tests/core/test_api.c — the builder's convenience layer (issue 10): float constants of
 * every float type with exact bit patterns, type and id names, the messages that use
 * them, storage buffers that hand back every pointer type, push-constant blocks with
 * std430 offsets, access chains whose result type is computed or checked, and the
 * refusal of stores into read-only buffers. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/coop.h"

#define E4M3 SPVGEN_FP_ENCODING_FLOAT8_E4M3
#define E5M2 SPVGEN_FP_ENCODING_FLOAT8_E5M2
#define BF16 SPVGEN_FP_ENCODING_BFLOAT16
#define IEEE SPVGEN_ABSENT

static uint64_t bits_of(uint32_t width, uint32_t encoding, double v) {
  uint64_t b = 0xDEADBEEFull;
  CHECK(spvgen_float_bits(width, encoding, v, &b));
  return b;
}

/* ------------------------------------------------------------ const_float ---- */

static void test_float_bits_are_exact_for_every_float_type(void) {
  /* float16 */
  CHECK_EQ_U64(bits_of(16, IEEE, 1.0), 0x3C00);
  CHECK_EQ_U64(bits_of(16, IEEE, -2.0), 0xC000);
  CHECK_EQ_U64(bits_of(16, IEEE, 0.1), 0x2E66);
  CHECK_EQ_U64(bits_of(16, IEEE, 65504.0), 0x7BFF);
  CHECK_EQ_U64(bits_of(16, IEEE, ldexp(1, -24)), 0x0001);      /* smallest subnormal */
  CHECK_EQ_U64(bits_of(16, IEEE, ldexp(1, -14)), 0x0400);      /* smallest normal */
  CHECK_EQ_U64(bits_of(16, IEEE, -0.0), 0x8000);
  CHECK_EQ_U64(bits_of(16, IEEE, INFINITY), 0x7C00);
  CHECK_EQ_U64(bits_of(16, IEEE, -INFINITY), 0xFC00);
  CHECK_EQ_U64(bits_of(16, IEEE, NAN), 0x7E00);
  /* bfloat16 */
  CHECK_EQ_U64(bits_of(16, BF16, 1.0), 0x3F80);
  CHECK_EQ_U64(bits_of(16, BF16, -1.5), 0xBFC0);
  CHECK_EQ_U64(bits_of(16, BF16, INFINITY), 0x7F80);
  CHECK_EQ_U64(bits_of(16, BF16, NAN), 0x7FC0);
  CHECK_EQ_U64(bits_of(16, BF16, 3.0e38), 0x7F62);
  /* float8 E4M3 (OCP, no infinities) */
  CHECK_EQ_U64(bits_of(8, E4M3, 1.0), 0x38);
  CHECK_EQ_U64(bits_of(8, E4M3, 448.0), 0x7E);
  CHECK_EQ_U64(bits_of(8, E4M3, -448.0), 0xFE);
  CHECK_EQ_U64(bits_of(8, E4M3, ldexp(1, -9)), 0x01);          /* smallest subnormal */
  CHECK_EQ_U64(bits_of(8, E4M3, 464.0), 0x7E);                 /* tie with "480": even */
  CHECK_EQ_U64(bits_of(8, E4M3, 465.0), 0x7F);                 /* beyond: NaN */
  CHECK_EQ_U64(bits_of(8, E4M3, INFINITY), 0x7F);
  CHECK_EQ_U64(bits_of(8, E4M3, -INFINITY), 0xFF);
  CHECK_EQ_U64(bits_of(8, E4M3, NAN), 0x7F);
  /* float8 E5M2 */
  CHECK_EQ_U64(bits_of(8, E5M2, 1.0), 0x3C);
  CHECK_EQ_U64(bits_of(8, E5M2, 57344.0), 0x7B);
  CHECK_EQ_U64(bits_of(8, E5M2, 61440.0), 0x7C);               /* tie: to even = Inf */
  CHECK_EQ_U64(bits_of(8, E5M2, INFINITY), 0x7C);
  CHECK_EQ_U64(bits_of(8, E5M2, NAN), 0x7E);
  CHECK_EQ_U64(bits_of(8, E5M2, ldexp(1, -16)), 0x01);
  /* float32, float64 */
  CHECK_EQ_U64(bits_of(32, IEEE, 1.0), 0x3F800000);
  CHECK_EQ_U64(bits_of(32, IEEE, 0.1), 0x3DCCCCCD);
  CHECK_EQ_U64(bits_of(64, IEEE, 1.0), 0x3FF0000000000000ull);
  /* unknown */
  uint64_t b;
  CHECK(!spvgen_float_bits(8, IEEE, 1.0, &b));
  CHECK(!spvgen_float_bits(32, BF16, 1.0, &b));
}

/* Round to nearest, ties to even: halfway cases go to the even neighbour, whether that
 * is below or above. */
static void test_float_bits_round_ties_to_even(void) {
  CHECK_EQ_U64(bits_of(16, IEEE, 1.0 + ldexp(1, -11)), 0x3C00);      /* 1 + half ulp: down */
  CHECK_EQ_U64(bits_of(16, IEEE, 1.0 + 3 * ldexp(1, -11)), 0x3C02);  /* 1 + 1.5 ulp: up */
  CHECK_EQ_U64(bits_of(16, IEEE, 1.0 + ldexp(1, -11) + ldexp(1, -30)), 0x3C01); /* above half */
  CHECK_EQ_U64(bits_of(16, BF16, 1.0 + ldexp(1, -8)), 0x3F80);
  CHECK_EQ_U64(bits_of(16, BF16, 1.0 + 3 * ldexp(1, -8)), 0x3F82);
  CHECK_EQ_U64(bits_of(8, E4M3, 1.0 + ldexp(1, -4)), 0x38);
  CHECK_EQ_U64(bits_of(8, E4M3, 1.0 + 3 * ldexp(1, -4)), 0x3A);
  CHECK_EQ_U64(bits_of(8, E5M2, 1.0 + ldexp(1, -3)), 0x3C);
  CHECK_EQ_U64(bits_of(8, E5M2, 1.0 + 3 * ldexp(1, -3)), 0x3E);
  CHECK_EQ_U64(bits_of(16, IEEE, 65520.0), 0x7C00);                   /* max + half ulp: Inf */
  CHECK_EQ_U64(bits_of(16, IEEE, 3 * ldexp(1, -25)), 0x0002);         /* subnormal tie: even */
  CHECK_EQ_U64(bits_of(32, IEEE, 1.0 + ldexp(1, -24)), 0x3F800000);
}

static void test_const_float_makes_the_constant_of_the_type(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f16 = spvgen_type_float(m, 16), f32 = spvgen_type_float(m, 32);
  uint32_t f64 = spvgen_type_float(m, 64);
  uint32_t one16 = spvgen_const_float(m, f16, 1.0);
  CHECK_EQ_U64(one16, spvgen_const_bits(m, f16, 0x3C00)); /* hash-consed: the same id */
  CHECK_EQ_U64(spvgen_const_float(m, f32, 0.5), spvgen_const_f32(m, 0.5f));
  uint64_t v = 0;
  CHECK(spvgen_const_value(m, spvgen_const_float(m, f64, -1.0), &v));
  CHECK_EQ_U64(v, 0xBFF0000000000000ull);
  uint32_t e4 = spvgen_type_float_e4m3(m), bf = spvgen_type_bfloat16(m);
  CHECK(spvgen_const_value(m, spvgen_const_float(m, e4, 448.0), &v));
  CHECK_EQ_U64(v, 0x7E);
  CHECK(spvgen_const_value(m, spvgen_const_float(m, bf, 1.0), &v));
  CHECK_EQ_U64(v, 0x3F80);
  char name[128], want[128];
  snprintf(want, sizeof want, "id %u, a constant float16 1", one16);
  CHECK_STR_EQ(spvgen_id_name(m, one16, name, sizeof name), want);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  CHECK_EQ_U64(spvgen_const_float(m, u32, 1.0), 0);
  char expected[128];
  snprintf(expected, sizeof expected,
           "spvgen_const_float: type is id %u, the type uint32; expected a float type", u32);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);
}

/* ----------------------------------------------------------------- names ---- */

static void test_type_names_read_as_text(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  char b[192];
  uint32_t f16 = spvgen_type_float(m, 16), f32 = spvgen_type_float(m, 32);
  uint32_t u32 = spvgen_type_int(m, 32, false), i8 = spvgen_type_int(m, 8, true);
  CHECK_STR_EQ(spvgen_type_name(m, f16, b, sizeof b), "float16");
  CHECK_STR_EQ(spvgen_type_name(m, u32, b, sizeof b), "uint32");
  CHECK_STR_EQ(spvgen_type_name(m, i8, b, sizeof b), "int8");
  CHECK_STR_EQ(spvgen_type_name(m, spvgen_type_bfloat16(m), b, sizeof b), "bfloat16");
  CHECK_STR_EQ(spvgen_type_name(m, spvgen_type_float_e4m3(m), b, sizeof b), "float8 E4M3");
  uint32_t v4 = spvgen_type_vector(m, f32, 4);
  CHECK_STR_EQ(spvgen_type_name(m, v4, b, sizeof b), "vec4 float32");
  CHECK_STR_EQ(spvgen_type_name(m, spvgen_type_matrix(m, v4, 3), b, sizeof b), "mat3 vec4 float32");
  uint32_t arr = spvgen_type_array(m, u32, 16);
  CHECK_STR_EQ(spvgen_type_name(m, arr, b, sizeof b), "array[16] uint32");
  uint32_t rta = spvgen_type_runtime_array_strided(m, f32, 4);
  CHECK_STR_EQ(spvgen_type_name(m, rta, b, sizeof b), "array[] float32 stride 4");
  CHECK_STR_EQ(spvgen_type_name(m, spvgen_type_pointer(m, SpvStorageClassStorageBuffer, f32), b,
                                sizeof b),
               "ptr StorageBuffer float32");
  uint32_t st = spvgen_type_struct(m, (const uint32_t[]){u32, rta}, 2);
  char want[64];
  snprintf(want, sizeof want, "struct#%u {uint32, array[] float32 stride 4}", st);
  CHECK_STR_EQ(spvgen_type_name(m, st, b, sizeof b), want);
  uint32_t A = spvgen_type_coopmat(m, f16, SpvScopeSubgroup, 16, 16,
                                   SpvCooperativeMatrixUseMatrixAKHR);
  CHECK_STR_EQ(spvgen_type_name(m, A, b, sizeof b), "coopmat<float16, Subgroup, 16x16, MatrixAKHR>");
  CHECK_STR_EQ(spvgen_type_name(m, spvgen_type_coopvec(m, f16, 32), b, sizeof b),
               "coopvec<float16, 32>");
  /* ids */
  uint32_t zero = spvgen_const_u32(m, 0);
  snprintf(want, sizeof want, "id %u, a constant uint32 0", zero);
  CHECK_STR_EQ(spvgen_id_name(m, zero, b, sizeof b), want);
  snprintf(want, sizeof want, "id %u, the type float16", f16);
  CHECK_STR_EQ(spvgen_id_name(m, f16, b, sizeof b), want);
  uint32_t spec = spvgen_spec_const_u32(m, 16, 3);
  snprintf(want, sizeof want, "id %u, a specialization constant uint32 (default 16)", spec);
  CHECK_STR_EQ(spvgen_id_name(m, spec, b, sizeof b), want);
  CHECK_STR_EQ(spvgen_id_name(m, 9999, b, sizeof b), "id 9999, which this module never allocated");
  uint32_t minus3 = spvgen_const_i32(m, -3);
  snprintf(want, sizeof want, "id %u, a constant int32 -3", minus3);
  CHECK_STR_EQ(spvgen_id_name(m, minus3, b, sizeof b), want);
  /* A small buffer truncates and stays terminated. */
  char small[8];
  CHECK_STR_EQ(spvgen_type_name(m, v4, small, sizeof small), "vec4 fl");
  spvgen_module_destroy(m);
}

/* The core messages name types as text, not as raw ids. */
static void test_core_messages_name_types(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f16 = spvgen_type_float(m, 16), f32 = spvgen_type_float(m, 32);
  uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassFunction, f16);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t var = spvgen_variable(m, ptr, SpvStorageClassFunction, 0);
  spvgen_load(m, f32, var);
  char expected[160];
  snprintf(expected, sizeof expected, "spvgen_load: pointer %u points to float16, not float32", var);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  f16 = spvgen_type_float(m, 16);
  ptr = spvgen_type_pointer(m, SpvStorageClassFunction, f16);
  spvgen_compute_main(m, "main", 1, 1, 1);
  var = spvgen_variable(m, ptr, SpvStorageClassFunction, 0);
  uint32_t one = spvgen_const_u32(m, 1);
  spvgen_store(m, var, one);
  snprintf(expected, sizeof expected,
           "spvgen_store: value %u has type uint32, the pointer %u points to float16", one, var);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  uint32_t c = spvgen_const_u32(m, 7);
  spvgen_type_vector(m, c, 4);
  snprintf(expected, sizeof expected,
           "spvgen_type_vector: component type %u is not a scalar int, float or bool type: it is "
           "id %u, a constant uint32 7", c, c);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);
}

/* spvgen_type_array_id takes its length as an id (length_id): anything but an integer
 * constant's id is refused, and the message says what it is. */
static void test_array_length_ids_are_checked_and_named(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  spvgen_type_array_id(m, f32, f32);
  char expected[200];
  snprintf(expected, sizeof expected,
           "spvgen_type_array_id: length_id %u is not the id of an integer constant: it is id %u, "
           "the type float32", f32, f32);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);
}

/* -------------------------------------------------------------- resources ---- */

static void test_buffer_declare_hands_back_every_pointer_type(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t v3 = spvgen_type_vector(m, f32, 3);
  spvgen_buffer in = spvgen_buffer_declare(m, v3, 0, 0, SPVGEN_BUFFER_READONLY);
  spvgen_buffer out = spvgen_buffer_declare(m, f32, 0, 1, 0);
  CHECK(in.variable != 0 && in.readonly && !out.readonly);
  CHECK_EQ_U64(in.element_type, v3);
  CHECK_EQ_U64(in.array_stride, 16); /* std430: vec3 takes a vec4's room */
  CHECK_EQ_U64(out.array_stride, 4);
  CHECK_EQ_U64(in.element_pointer_type, spvgen_type_pointer(m, SpvStorageClassStorageBuffer, v3));
  char b[96];
  CHECK_STR_EQ(spvgen_type_name(m, out.array_pointer_type, b, sizeof b),
               "ptr StorageBuffer array[] float32 stride 4");
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t i = spvgen_const_u32(m, 3);
  uint32_t pin = spvgen_buffer_element(m, &in, i);
  uint32_t x = spvgen_op_composite_extract(m, f32, spvgen_load(m, v3, pin), (const uint32_t[]){1}, 1);
  spvgen_store(m, spvgen_buffer_element(m, &out, i), x);
  CHECK_EQ_U64(spvgen_type_of(m, spvgen_buffer_array(m, &out)), out.array_pointer_type);
  spvgen_function_end(m);
  check_module(m, NULL);
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  u32 = spvgen_type_int(m, 32, false);
  spvgen_buffer_declare(m, u32, 0, 0, 0x10);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_buffer_declare: flags 0x10 has bits that are not SPVGEN_BUFFER_*");
  spvgen_module_destroy(m);
}

static void test_push_constants_get_std430_offsets_and_load_by_index(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t v3 = spvgen_type_vector(m, f32, 3), v2 = spvgen_type_vector(m, f32, 2);
  spvgen_push_constant_block pc =
      spvgen_push_constants(m, (const uint32_t[]){u32, v3, f32, v2}, 4);
  CHECK_EQ_U64(pc.count, 4);
  CHECK_EQ_U64(pc.offsets[0], 0);
  CHECK_EQ_U64(pc.offsets[1], 16); /* vec3 aligns to 16 */
  CHECK_EQ_U64(pc.offsets[2], 28); /* a scalar fills the vec3's tail */
  CHECK_EQ_U64(pc.offsets[3], 32);
  CHECK_EQ_U64(pc.size, 48);
  CHECK_EQ_U64(pc.member_pointer_types[2], spvgen_type_pointer(m, SpvStorageClassPushConstant, f32));
  spvgen_buffer out = spvgen_buffer_declare(m, f32, 0, 0, 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t k = spvgen_push_constant_load(m, &pc, 0);
  uint32_t s = spvgen_push_constant_load(m, &pc, 2);
  spvgen_store(m, spvgen_buffer_element(m, &out, k), s);
  spvgen_function_end(m);
  size_t count;
  const uint32_t *words = check_module(m, &count);
  char *text = words ? check_disassemble(words, count) : NULL;
  CHECK_CONTAINS(text, "1 Offset 16");
  CHECK_CONTAINS(text, "2 Offset 28");
  CHECK_CONTAINS(text, "3 Offset 32");
  spvgen_free_text(text);
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  u32 = spvgen_type_int(m, 32, false);
  pc = spvgen_push_constants(m, &u32, 1);
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_push_constant_load(m, &pc, 1);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_push_constant_load: member 1 does not exist; the block has 1 members");
  spvgen_module_destroy(m);
}

/* A device address in a push-constant block (8 bytes, 8-aligned by std430), and loads
 * and stores through PhysicalStorageBuffer pointers: spvgen_load / spvgen_store add the
 * Aligned operand Vulkan requires (the module validates only with it). */
static void test_physical_pointers_in_push_constants_are_aligned(void) {
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = SpvAddressingModelPhysicalStorageBuffer64});
  uint32_t f16 = spvgen_type_float(m, 16), u32 = spvgen_type_int(m, 32, false);
  uint32_t rta = spvgen_type_runtime_array_strided(m, f16, 2);
  uint32_t st = spvgen_type_struct(m, &rta, 1);
  spvgen_decorate(m, st, SpvDecorationBlock);
  spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
  uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, st);
  CHECK_EQ_U64(spvgen_type_size(m, ptr), 8);
  spvgen_push_constant_block pc = spvgen_push_constants(m, (const uint32_t[]){u32, ptr}, 2);
  CHECK_EQ_U64(pc.offsets[1], 8);
  CHECK_EQ_U64(pc.size, 16);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t n = spvgen_push_constant_load(m, &pc, 0);
  uint32_t base = spvgen_push_constant_load(m, &pc, 1);
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t x = spvgen_load(m, f16, spvgen_access(m, base, (const uint32_t[]){zero, zero}, 2));
  spvgen_store(m, spvgen_access(m, base, (const uint32_t[]){zero, n}, 2), x);
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *w = check_module(m, &count);
  char *text = w ? check_disassemble(w, count) : NULL;
  CHECK(text && strstr(text, "Aligned 2"));
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------ access chains ---- */

static void test_access_computes_the_result_type(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t v4 = spvgen_type_vector(m, f32, 4);
  uint32_t arr = spvgen_type_array(m, v4, 8);
  uint32_t st = spvgen_type_struct(m, (const uint32_t[]){u32, arr}, 2);
  uint32_t var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPrivate, st),
                                 SpvStorageClassPrivate, 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t one = spvgen_const_u32(m, 1), i = spvgen_load(m, u32, spvgen_access(m, var, (const uint32_t[]){spvgen_const_u32(m, 0)}, 1));
  uint32_t p = spvgen_access(m, var, (const uint32_t[]){one, i, spvgen_const_u32(m, 2)}, 3);
  CHECK_EQ_U64(spvgen_type_of(m, p), spvgen_type_pointer(m, SpvStorageClassPrivate, f32));
  spvgen_store(m, p, spvgen_const_f32(m, 1.0f));
  spvgen_function_end(m);
  check_module(m, NULL);
  spvgen_module_destroy(m);
}

/* The report: a wrong result type surfaced only at validation as "OpAccessChain result
 * type (OpTypeFloat) does not match ... (OpTypeFloat)". Now the call names both. */
static void test_access_chain_checks_its_result_type_and_names_both(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f16 = spvgen_type_float(m, 16), f32 = spvgen_type_float(m, 32);
  uint32_t ep16 = 0;
  uint32_t buf = spvgen_storage_buffer(m, f32, 0, 0, false, NULL);
  spvgen_storage_buffer(m, f16, 0, 1, false, &ep16);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t zero = spvgen_const_u32(m, 0);
  CHECK_EQ_U64(spvgen_access_chain(m, ep16, buf, (const uint32_t[]){zero, zero}, 2), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_access_chain: the indices reach ptr StorageBuffer float32, but "
                     "pointer_type is ptr StorageBuffer float16 (use spvgen_access to have the "
                     "result type computed)");
  spvgen_module_destroy(m);

  /* A struct member index must be a constant; a float index is refused by name. */
  m = spvgen_module_create(NULL);
  f32 = spvgen_type_float(m, 32);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  spvgen_buffer b = spvgen_buffer_declare(m, f32, 0, 0, 0);
  spvgen_push_constant_block pc = spvgen_push_constants(m, &u32, 1);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t k = spvgen_push_constant_load(m, &pc, 0);
  spvgen_access(m, b.variable, &k, 1);
  uint32_t ops[2] = {0, 0};
  spvgen_type_operands(m, spvgen_type_of(m, b.variable), ops, 2); /* storage, the struct */
  char expected[256];
  snprintf(expected, sizeof expected,
           "spvgen_access: index 0 selects a member of struct#%u {array[] float32 stride 4} but is "
           "id %u, a value of type uint32; a struct member index must be an integer constant",
           ops[1], k);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);

  m = spvgen_module_create(NULL);
  f32 = spvgen_type_float(m, 32);
  b = spvgen_buffer_declare(m, f32, 0, 0, 0);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t half = spvgen_const_f32(m, 0.5f);
  spvgen_buffer_element(m, &b, half);
  snprintf(expected, sizeof expected,
           "spvgen_buffer_element: index 1 is id %u, a constant float32 0.5; expected the id of "
           "an integer value", half);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);
}

/* ----------------------------------------------------------------- read-only ---- */

/* The report: a store into a buffer created read-only (NonWritable) passed the builder,
 * the validator and the runner. */
static void test_stores_into_read_only_buffers_are_refused(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  spvgen_buffer in = spvgen_buffer_declare(m, f32, 0, 1, SPVGEN_BUFFER_READONLY);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t p = spvgen_buffer_element(m, &in, spvgen_const_u32(m, 0));
  spvgen_store(m, p, spvgen_const_f32(m, 1.0f));
  char expected[256];
  snprintf(expected, sizeof expected,
           "spvgen_store: the pointer (id %u) leads to buffer variable %u (set 0, binding 1), "
           "whose member 0 is NonWritable (declared read-only)", p, in.variable);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
  spvgen_module_destroy(m);

  /* The same through spvgen_storage_buffer(readonly = true) and spvgen_access_chain. */
  m = spvgen_module_create(NULL);
  f32 = spvgen_type_float(m, 32);
  uint32_t ep;
  uint32_t buf = spvgen_storage_buffer(m, f32, 2, 3, true, &ep);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t zero = spvgen_const_u32(m, 0);
  p = spvgen_access_chain(m, ep, buf, (const uint32_t[]){zero, zero}, 2);
  spvgen_store(m, p, spvgen_const_f32(m, 1.0f));
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "(set 2, binding 3), whose member 0 is NonWritable");
  spvgen_module_destroy(m);

  /* A variable decorated NonWritable by hand counts too; a writable buffer does not. */
  m = spvgen_module_create(NULL);
  f32 = spvgen_type_float(m, 32);
  spvgen_buffer w = spvgen_buffer_declare(m, f32, 0, 0, 0);
  spvgen_buffer h = spvgen_buffer_declare(m, f32, 0, 1, 0);
  spvgen_decorate(m, h.variable, SpvDecorationNonWritable);
  spvgen_compute_main(m, "main", 1, 1, 1);
  zero = spvgen_const_u32(m, 0);
  spvgen_store(m, spvgen_buffer_element(m, &w, zero), spvgen_const_f32(m, 2.0f));
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  spvgen_store(m, spvgen_buffer_element(m, &h, zero), spvgen_const_f32(m, 2.0f));
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "whose variable is NonWritable");
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_float_bits_are_exact_for_every_float_type),
      TEST_CASE(test_float_bits_round_ties_to_even),
      TEST_CASE(test_const_float_makes_the_constant_of_the_type),
      TEST_CASE(test_type_names_read_as_text),
      TEST_CASE(test_core_messages_name_types),
      TEST_CASE(test_array_length_ids_are_checked_and_named),
      TEST_CASE(test_buffer_declare_hands_back_every_pointer_type),
      TEST_CASE(test_push_constants_get_std430_offsets_and_load_by_index),
      TEST_CASE(test_physical_pointers_in_push_constants_are_aligned),
      TEST_CASE(test_access_computes_the_result_type),
      TEST_CASE(test_access_chain_checks_its_result_type_and_names_both),
      TEST_CASE(test_stores_into_read_only_buffers_are_refused),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
