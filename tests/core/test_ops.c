/* tests/core/test_ops.c — the generated emitters (spvgen/ops.h): a sample from every
 * class of instruction in one valid module; every opcode of the SPIR-V headers and every
 * GLSL.std.450 instruction has an emitter; instructions the grammar files under class
 * "Reserved" or "Function" (NV cooperative matrix 2) are emitted by opcode into the
 * function body. */
#define _POSIX_C_SOURCE 200809L
#define SPV_ENABLE_UTILITY_CODE /* SpvOpToString: the headers' list of opcodes */

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "module_check.h"
#include "words.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* The headers define it `inline`; this declaration makes this file hold its definition. */
extern const char *SpvOpToString(SpvOp value);

static int count_of(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; p && (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
  return n;
}

/* ------------------------------------------------ a sample of every class ---- */

static void test_a_sample_of_every_instruction_class_builds_one_valid_module(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false),
           i32 = spvgen_type_int(m, 32, true), bool_t = spvgen_type_bool(m);
  uint32_t v2f = spvgen_type_vector(m, f32, 2), v3f = spvgen_type_vector(m, f32, 3),
           v4f = spvgen_type_vector(m, f32, 4), v4u = spvgen_type_vector(m, u32, 4),
           v4b = spvgen_type_vector(m, bool_t, 4);
  uint32_t fin_ptr = 0, uin_ptr = 0, out_ptr = 0;
  uint32_t fin = spvgen_storage_buffer(m, f32, 0, 0, true, &fin_ptr);
  uint32_t uin = spvgen_storage_buffer(m, u32, 0, 1, false, &uin_ptr);
  uint32_t out = spvgen_storage_buffer(m, f32, 0, 2, false, &out_ptr);
  uint32_t c64 = spvgen_const_u32(m, 64);
  uint32_t shared_t = spvgen_type_array_id(m, f32, c64);
  uint32_t shared = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, shared_t),
                                    SpvStorageClassWorkgroup, 0);
  uint32_t lid_var = spvgen_builtin_input(m, SpvBuiltInLocalInvocationIndex, u32);
  uint32_t k0 = spvgen_const_u32(m, 0), k1 = spvgen_const_u32(m, 1), k3 = spvgen_const_u32(m, 3),
           k8 = spvgen_const_u32(m, 8);
  uint32_t f1 = spvgen_const_f32(m, 1.0f), f2 = spvgen_const_f32(m, 2.0f),
           fhalf = spvgen_const_f32(m, 0.5f);
  uint32_t subgroup = spvgen_const_u32(m, SpvScopeSubgroup),
           workgroup = spvgen_const_u32(m, SpvScopeWorkgroup);
  uint32_t relaxed = spvgen_const_u32(m, SpvMemorySemanticsMaskNone);
  uint32_t acq_rel = spvgen_const_u32(m, SpvMemorySemanticsAcquireReleaseMask |
                                             SpvMemorySemanticsUniformMemoryMask);

  spvgen_compute_main(m, "main", 64, 1, 1);
  uint32_t lid = spvgen_load(m, u32, lid_var);
  uint32_t idx[2] = {k0, lid};
  uint32_t px = spvgen_access_chain(m, fin_ptr, fin, idx, 2);
  uint32_t pu = spvgen_op_in_bounds_access_chain(m, uin_ptr, uin, idx, 2);
  uint32_t po = spvgen_access_chain(m, out_ptr, out, idx, 2);
  /* memory */
  uint32_t x = spvgen_op_load(m, f32, px, SpvMemoryAccessNontemporalMask, NULL, 0);
  uint32_t u = spvgen_load(m, u32, pu);
  uint32_t len = spvgen_op_array_length(m, u32, fin, 0);
  uint32_t fptr = spvgen_type_pointer(m, SpvStorageClassFunction, f32);
  uint32_t va = spvgen_variable(m, fptr, SpvStorageClassFunction, f1);
  uint32_t vb = spvgen_variable(m, fptr, SpvStorageClassFunction, 0);
  spvgen_op_copy_memory(m, vb, va, 0, NULL, 0, 0, NULL, 0);
  uint32_t y = spvgen_load(m, f32, vb);
  /* float arithmetic */
  uint32_t a = spvgen_op_f_add(m, f32, x, y);
  a = spvgen_op_f_sub(m, f32, a, fhalf);
  a = spvgen_op_f_mul(m, f32, a, f2);
  a = spvgen_op_f_div(m, f32, a, f2);
  a = spvgen_op_f_mod(m, f32, a, f2);
  a = spvgen_op_f_negate(m, f32, a);
  /* integer arithmetic and bit ops */
  uint32_t b = spvgen_op_i_add(m, u32, u, lid);
  b = spvgen_op_i_sub(m, u32, b, k1);
  b = spvgen_op_i_mul(m, u32, b, k3);
  b = spvgen_op_u_div(m, u32, b, k3);
  b = spvgen_op_u_mod(m, u32, b, k8);
  b = spvgen_op_shift_left_logical(m, u32, b, k1);
  b = spvgen_op_shift_right_logical(m, u32, b, k1);
  b = spvgen_op_bitwise_and(m, u32, b, len);
  b = spvgen_op_bitwise_or(m, u32, b, k8);
  b = spvgen_op_bitwise_xor(m, u32, b, k3);
  b = spvgen_op_not(m, u32, b);
  b = spvgen_op_bit_count(m, u32, b);
  b = spvgen_op_bit_reverse(m, u32, b);
  b = spvgen_op_bit_field_u_extract(m, u32, b, k1, k3);
  b = spvgen_op_bit_field_insert(m, u32, b, k1, k3, k1);
  uint32_t s = spvgen_op_bitcast(m, i32, b);
  s = spvgen_op_s_negate(m, i32, s);
  s = spvgen_op_s_div(m, i32, s, spvgen_const_i32(m, -3));
  s = spvgen_op_shift_right_arithmetic(m, i32, s, k1);
  /* conversions */
  uint32_t cf = spvgen_op_convert_u_to_f(m, f32, b);
  uint32_t cs = spvgen_op_convert_s_to_f(m, f32, s);
  uint32_t cu = spvgen_op_convert_f_to_u(m, u32, a);
  uint32_t ci = spvgen_op_convert_f_to_s(m, i32, a);
  /* composites */
  uint32_t parts[4] = {a, cf, cs, x};
  uint32_t v = spvgen_op_composite_construct(m, v4f, parts, 4);
  v = spvgen_op_composite_insert(m, v4f, y, v, (const uint32_t[]){2}, 1);
  v = spvgen_op_vector_times_scalar(m, v4f, v, f2);
  uint32_t sw = spvgen_op_vector_shuffle(m, v3f, v, v, (const uint32_t[]){3, 2, 5}, 3);
  uint32_t e = spvgen_op_vector_extract_dynamic(m, f32, v, k1);
  v = spvgen_op_vector_insert_dynamic(m, v4f, v, e, k3);
  uint32_t d = spvgen_op_dot(m, f32, v, v);
  uint32_t e0 = spvgen_op_composite_extract(m, f32, v, (const uint32_t[]){0}, 1);
  /* relational and logical */
  uint32_t lt = spvgen_op_f_ord_less_than(m, bool_t, d, e0);
  uint32_t gt = spvgen_op_u_greater_than(m, bool_t, cu, b);
  uint32_t slt = spvgen_op_s_less_than(m, bool_t, ci, s);
  uint32_t nan = spvgen_op_is_nan(m, bool_t, d);
  uint32_t both = spvgen_op_logical_and(m, bool_t, lt, spvgen_op_logical_not(m, bool_t, nan));
  uint32_t vb4 = spvgen_op_composite_construct(m, v4b, (const uint32_t[]){both, gt, slt, lt}, 4);
  uint32_t any = spvgen_op_any(m, bool_t, vb4);
  uint32_t all = spvgen_op_all(m, bool_t, vb4);
  uint32_t pick = spvgen_op_select(m, f32, any, d, e0);
  pick = spvgen_op_select(m, f32, all, pick, x);
  /* GLSL.std.450 */
  uint32_t g = spvgen_glsl_f_abs(m, f32, pick);
  g = spvgen_glsl_sqrt(m, f32, g);
  g = spvgen_glsl_inverse_sqrt(m, f32, spvgen_op_f_add(m, f32, g, f1));
  g = spvgen_glsl_exp(m, f32, g);
  g = spvgen_glsl_pow(m, f32, g, fhalf);
  g = spvgen_glsl_sin(m, f32, g);
  g = spvgen_glsl_tanh(m, f32, g);
  g = spvgen_glsl_floor(m, f32, g);
  g = spvgen_glsl_fma(m, f32, g, f2, fhalf);
  g = spvgen_glsl_f_min(m, f32, g, f2);
  g = spvgen_glsl_f_max(m, f32, g, fhalf);
  g = spvgen_glsl_f_clamp(m, f32, g, fhalf, f2);
  g = spvgen_glsl_f_mix(m, f32, g, f2, fhalf);
  g = spvgen_glsl_step(m, f32, fhalf, g);
  g = spvgen_glsl_smooth_step(m, f32, fhalf, f2, g);
  uint32_t n3 = spvgen_glsl_normalize(m, v3f, spvgen_glsl_cross(m, v3f, sw, sw));
  g = spvgen_op_f_add(m, f32, g, spvgen_glsl_length(m, f32, n3));
  uint32_t um = spvgen_glsl_u_min(m, u32, b, cu);
  uint32_t sm = spvgen_glsl_s_max(m, i32, s, ci);
  uint32_t msb = spvgen_glsl_find_u_msb(m, u32, um);
  uint32_t h2 = spvgen_op_composite_construct(m, v2f, (const uint32_t[]){g, g}, 2);
  uint32_t packed = spvgen_glsl_pack_half2x16(m, u32, h2);
  uint32_t unpacked = spvgen_glsl_unpack_half2x16(m, v2f, packed);
  g = spvgen_op_f_add(m, f32, g, spvgen_op_composite_extract(m, f32, unpacked, (const uint32_t[]){1}, 1));
  /* atomics on the u32 buffer */
  uint32_t old = spvgen_op_atomic_i_add(m, u32, pu, workgroup, relaxed, msb);
  old = spvgen_op_atomic_u_max(m, u32, pu, workgroup, acq_rel, old);
  old = spvgen_op_atomic_exchange(m, u32, pu, workgroup, relaxed, old);
  old = spvgen_op_atomic_compare_exchange(m, u32, pu, workgroup, relaxed, relaxed, old, k0);
  uint32_t al = spvgen_op_atomic_load(m, u32, pu, workgroup, relaxed);
  spvgen_op_atomic_store(m, pu, workgroup, relaxed, spvgen_op_bitcast(m, u32, sm));
  /* subgroup operations */
  uint32_t elect = spvgen_op_group_non_uniform_elect(m, bool_t, subgroup);
  uint32_t ballot = spvgen_op_group_non_uniform_ballot(m, v4u, subgroup, elect);
  uint32_t first = spvgen_op_group_non_uniform_broadcast_first(m, u32, subgroup, al);
  uint32_t sum = spvgen_op_group_non_uniform_f_add(m, f32, subgroup, SpvGroupOperationReduce, g,
                                                   0);
  uint32_t scan = spvgen_op_group_non_uniform_i_add(m, u32, subgroup,
                                                    SpvGroupOperationExclusiveScan, first, 0);
  uint32_t shuf = spvgen_op_group_non_uniform_shuffle(m, f32, subgroup, sum, scan);
  uint32_t bw = spvgen_op_composite_extract(m, u32, ballot, (const uint32_t[]){0}, 1);
  /* barriers around a workgroup-memory round trip */
  uint32_t slot = spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, f32),
                                      shared, &lid, 1);
  spvgen_store(m, slot, shuf);
  spvgen_workgroup_barrier(m);
  spvgen_op_memory_barrier(m, workgroup, spvgen_const_u32(m, SpvMemorySemanticsAcquireReleaseMask |
                                                                 SpvMemorySemanticsWorkgroupMemoryMask));
  uint32_t back = spvgen_load(m, f32, slot);
  uint32_t res = spvgen_op_f_add(m, f32, back, spvgen_op_convert_u_to_f(m, f32, bw));
  spvgen_op_store(m, po, res, 0, NULL, 0);
  spvgen_function_end(m);

  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  const char *lines[] = {"OpCapability GroupNonUniform", "OpCapability GroupNonUniformBallot",
                         "OpCapability GroupNonUniformArithmetic",
                         "OpCapability GroupNonUniformShuffle"};
  check_has_lines(text, lines, 4);
  /* Distinct opcodes in the function: the sample is as broad as intended. */
  if (w) {
    unsigned char seen[65536 / 8] = {0};
    int distinct = 0, in_function = 0, glsl = 0;
    WORDS_FOR_EACH(w, n, i) {
      uint32_t op = w[i] & 0xFFFF;
      if (op == SpvOpFunction) in_function = 1;
      if (in_function && !(seen[op >> 3] & (1u << (op & 7)))) {
        seen[op >> 3] |= (unsigned char)(1u << (op & 7));
        distinct++;
      }
      if (op == SpvOpExtInst) glsl++;
    }
    CHECK_MSG(distinct >= 70, "only %d distinct opcodes in the function", distinct);
    CHECK_MSG(glsl >= 21, "only %d GLSL.std.450 calls", glsl);
  }
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------- coverage ---- */

/* "OpCooperativeMatrixLoadKHR" -> "cooperative_matrix_load_khr", the generator's rule:
 * '_' between a lower-case letter or digit and an upper-case letter, and before the
 * last capital of a run of capitals followed by a lower-case letter. */
static void snake_case(const char *name, char *out, size_t size) {
  char tmp[256];
  size_t t = 0;
  for (size_t i = 0; name[i] && t + 2 < sizeof tmp; i++) {
    if (i > 0 && isupper((unsigned char)name[i]) &&
        (islower((unsigned char)name[i - 1]) || isdigit((unsigned char)name[i - 1])))
      tmp[t++] = '_';
    tmp[t++] = name[i];
  }
  tmp[t] = '\0';
  size_t o = 0;
  for (size_t i = 0; tmp[i] && o + 2 < size; i++) {
    if (i > 0 && isupper((unsigned char)tmp[i]) && isupper((unsigned char)tmp[i - 1]) &&
        islower((unsigned char)tmp[i + 1]))
      out[o++] = '_';
    out[o++] = (char)tolower((unsigned char)tmp[i]);
  }
  out[o] = '\0';
}

/* The generated header's text: $SPVGEN_OPS_H, or include/spvgen/ops.h of the source tree
 * ($SPVGEN_SOURCE_DIR, which ctest sets; the header is committed). malloc'd; NULL if not
 * found. */
static char *read_ops_header(char *path, size_t size) {
  const char *env = getenv("SPVGEN_OPS_H");
  const char *src = getenv("SPVGEN_SOURCE_DIR");
  if (env && env[0]) {
    snprintf(path, size, "%s", env);
  } else if (src && src[0]) {
    snprintf(path, size, "%s/include/spvgen/ops.h", src);
  } else {
    snprintf(path, size, "include/spvgen/ops.h");
  }
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = n > 0 ? malloc((size_t)n + 1) : NULL;
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
    free(text);
    text = NULL;
  }
  if (text) text[n] = '\0';
  fclose(f);
  return text;
}

static void test_every_opcode_of_the_spirv_headers_has_an_emitter(void) {
  char path[1100];
  char *header = read_ops_header(path, sizeof path);
  CHECK_MSG(header != NULL, "cannot read the generated header %s (set SPVGEN_OPS_H)", path);
  if (!header) return;
  spvgen_module *m = spvgen_module_create(NULL);
  int opcodes = 0, missing = 0, unknown = 0;
  for (uint32_t op = 0; op < 0x10000; op++) {
    const char *name = SpvOpToString((SpvOp)op);
    if (!strcmp(name, "Unknown")) continue;
    opcodes++;
    char snake[200], decl[256];
    snake_case(name + 2, snake, sizeof snake);
    snprintf(decl, sizeof decl, " spvgen_op_%s(spvgen_module *m", snake);
    if (!strstr(header, decl)) {
      if (missing++ < 20) test_fail_at(__FILE__, __LINE__, "no emitter for %s (%s)", name, decl + 1);
    }
    /* The builder knows the opcode: raw emission fails on operands, not on the opcode. */
    spvgen_module_reset(m, NULL);
    spvgen_emit(m, (SpvOp)op, NULL, 0);
    if (strstr(spvgen_module_error(m), "unknown opcode")) {
      if (unknown++ < 20)
        test_fail_at(__FILE__, __LINE__, "%s (%u): %s", name, op, spvgen_module_error(m));
    }
  }
  CHECK_MSG(opcodes > 700, "the headers list only %d opcodes", opcodes);
  CHECK_EQ_U64(missing, 0);
  CHECK_EQ_U64(unknown, 0);
  /* And the builder refuses what the headers do not list. */
  spvgen_module_reset(m, NULL);
  spvgen_emit(m, (SpvOp)0xFFFE, NULL, 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "unknown opcode 65534");
  spvgen_module_destroy(m);
  free(header);
}

static void test_every_glsl_std_450_instruction_has_an_emitter(void) {
  char path[1100];
  char *header = read_ops_header(path, sizeof path);
  CHECK_MSG(header != NULL, "cannot read the generated header %s (set SPVGEN_OPS_H)", path);
  if (!header) return;
  /* GLSL.std.450 numbers its instructions 1 .. GLSLstd450Count - 1. */
  CHECK_EQ_U64(count_of(header, "\nuint32_t spvgen_glsl_"), GLSLstd450Count - 1);
  const char *some[] = {" spvgen_glsl_round(", " spvgen_glsl_fma(", " spvgen_glsl_n_clamp(",
                        " spvgen_glsl_interpolate_at_offset(", " spvgen_glsl_modf_struct(",
                        " spvgen_glsl_pack_snorm4x8(", " spvgen_glsl_find_i_lsb("};
  for (size_t i = 0; i < sizeof some / sizeof some[0]; i++)
    CHECK_MSG(strstr(header, some[i]) != NULL, "missing%s", some[i]);
  free(header);
}

/* The grammar files OpCooperativeMatrixPerElementOpNV under class "Function" (and
 * several NV ops under "Reserved"); spvgen places instructions by opcode, so it is an
 * ordinary body instruction. */
static void test_cooperative_matrix_per_element_op_nv_is_emitted_into_the_body(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f16 = spvgen_type_float(m, 16), u32 = spvgen_type_int(m, 32, false);
  uint32_t scope = spvgen_const_u32(m, SpvScopeSubgroup), k16 = spvgen_const_u32(m, 16),
           use = spvgen_const_u32(m, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  uint32_t mat_t = spvgen_op_type_cooperative_matrix_khr(m, f16, scope, k16, k16, use);
  /* f16 twice_it(uint row, uint col, f16 e) { return e + e; } */
  uint32_t params[3] = {u32, u32, f16}, p[3] = {0};
  uint32_t fn = spvgen_function_begin(m, f16, SpvFunctionControlMaskNone, params, 3, p);
  spvgen_name(m, fn, "twice_it");
  spvgen_return_value(m, spvgen_op_f_add(m, f16, p[2], p[2]));
  spvgen_function_end(m);
  uint32_t one = spvgen_const_bits(m, f16, 0x3c00);
  uint32_t mat = spvgen_const_composite(m, mat_t, &one, 1);
  uint32_t main_fn = spvgen_compute_main(m, "main", 32, 1, 1);
  spvgen_name(m, main_fn, "main");
  uint32_t r = spvgen_op_cooperative_matrix_per_element_op_nv(m, mat_t, mat, fn, NULL, 0);
  CHECK(r != 0);
  spvgen_name(m, r, "r");
  spvgen_function_end(m);
  CHECK(spvgen_has_capability(m, SpvCapabilityCooperativeMatrixPerElementOperationsNV));
  CHECK(spvgen_has_extension(m, "SPV_NV_cooperative_matrix2"));
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  if (text) {
    const char *body = strstr(text, "%main = OpFunction");
    const char *op = strstr(text, "%r = OpCooperativeMatrixPerElementOpNV");
    CHECK_MSG(body && op && op > body, "the op is not in main's body:\n%s", text);
  }
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* OpSwitch literals take the selector's width: one word for 32-bit, two for 64-bit. */
static void test_switch_literals_follow_the_selector_width(void) {
  for (int wide = 0; wide < 2; wide++) {
    spvgen_module *m = spvgen_module_create(NULL);
    uint32_t t = spvgen_type_int(m, wide ? 64 : 32, false);
    uint32_t selector = spvgen_const_bits(m, t, 5);
    spvgen_compute_main(m, "main", 1, 1, 1);
    uint32_t a = spvgen_label(m), b = spvgen_label(m), dflt = spvgen_label(m),
             merge = spvgen_label(m);
    spvgen_op_selection_merge(m, merge, SpvSelectionControlMaskNone);
    /* case 5: a; case 0x1_0000_0007 (64-bit) or 7: b */
    uint32_t narrow[4] = {5, a, 7, b}, broad[6] = {5, 0, a, 7, 1, b};
    spvgen_op_switch(m, selector, dflt, wide ? broad : narrow, wide ? 6 : 4);
    spvgen_block(m, a);
    spvgen_op_branch(m, merge);
    spvgen_block(m, b);
    spvgen_op_branch(m, merge);
    spvgen_block(m, dflt);
    spvgen_op_branch(m, merge);
    spvgen_block(m, merge);
    spvgen_function_end(m);
    CHECK_MSG(spvgen_module_status(m) == SPVGEN_OK, "%s selector: %s", wide ? "64-bit" : "32-bit",
              spvgen_module_error(m));
    size_t n = 0;
    const uint32_t *w = check_module(m, &n);
    char *text = check_disassemble(w, n);
    CHECK_CONTAINS(text, wide ? " 4294967303 %" : " 7 %");
    spvgen_free_text(text);
    spvgen_module_destroy(m);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_a_sample_of_every_instruction_class_builds_one_valid_module),
      TEST_CASE(test_every_opcode_of_the_spirv_headers_has_an_emitter),
      TEST_CASE(test_every_glsl_std_450_instruction_has_an_emitter),
      TEST_CASE(test_cooperative_matrix_per_element_op_nv_is_emitted_into_the_body),
      TEST_CASE(test_switch_literals_follow_the_selector_width),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
