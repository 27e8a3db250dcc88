/* tests/core/test_module.c — the module's life: create / destroy / reset, the header's
 * version, addressing and memory model, finish returning words and a status, use after
 * finish, deterministic output, and SPVGEN_TEST_DUMP of built modules. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* void main() with LocalSize 1 1 1 and nothing in it. */
static void empty_main(spvgen_module *m) {
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
}

/* A small but not trivial module: a buffer, a builtin, an if, a loop, names. The same
 * calls every time. */
static void build_sample(spvgen_module *m) {
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, f32, 0, 0, false, &elem_ptr);
  spvgen_name(m, buf, "buf");
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  uint32_t main_fn = spvgen_compute_main(m, "main", 64, 1, 1);
  spvgen_name(m, main_fn, "main");
  uint32_t g = spvgen_load(m, v3, gid);
  uint32_t i = spvgen_op_composite_extract(m, u32, g, (const uint32_t[]){0}, 1);
  uint32_t bool_t = spvgen_type_bool(m);
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t idx[2] = {zero, i};
  uint32_t p = spvgen_access_chain(m, elem_ptr, buf, idx, 2);
  uint32_t x = spvgen_load(m, f32, p);
  uint32_t pos = spvgen_op_f_ord_greater_than(m, bool_t, x, spvgen_const_f32(m, 0.0f));
  spvgen_if(m, pos);
  spvgen_store(m, p, spvgen_op_f_mul(m, f32, x, spvgen_const_f32(m, 2.0f)));
  spvgen_end_if(m);
  uint32_t ctr_ptr = spvgen_type_pointer(m, SpvStorageClassFunction, u32);
  uint32_t ctr = spvgen_variable(m, ctr_ptr, SpvStorageClassFunction, zero);
  spvgen_loop(m, SpvLoopControlMaskNone);
  uint32_t c = spvgen_load(m, u32, ctr);
  spvgen_loop_while(m, spvgen_op_u_less_than(m, bool_t, c, spvgen_const_u32(m, 3)));
  uint32_t y = spvgen_load(m, f32, p);
  spvgen_store(m, p, spvgen_op_f_add(m, f32, y, spvgen_const_f32(m, 1.0f)));
  spvgen_loop_continue_block(m);
  uint32_t c2 = spvgen_load(m, u32, ctr);
  spvgen_store(m, ctr, spvgen_op_i_add(m, u32, c2, spvgen_const_u32(m, 1)));
  spvgen_end_loop(m);
  spvgen_function_end(m);
}

/* A malloc'd copy of a finished module's words (NULL when finish failed). */
static uint32_t *finish_copy(spvgen_module *m, size_t *count) {
  const uint32_t *w = check_module(m, count);
  if (!w) return NULL;
  uint32_t *copy = malloc(*count * sizeof *copy);
  if (copy) memcpy(copy, w, *count * sizeof *copy);
  return copy;
}

/* ------------------------------------------------------------------ tests ---- */

static void test_create_defaults_to_spirv_1_6_logical_addressing_and_vulkan_memory_model(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(m != NULL);
  CHECK_EQ_U64(spvgen_module_version(m), SPVGEN_VERSION(1, 6));
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  CHECK_STR_EQ(spvgen_module_error(m), "");
  empty_main(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  if (w) {
    CHECK_EQ_U64(w[0], 0x07230203u);
    CHECK_EQ_U64(w[1], 0x00010600u);
    CHECK_EQ_U64(w[4], 0);
  }
  char *text = check_disassemble(w, n);
  check_has_line(text, "OpMemoryModel Logical Vulkan");
  check_has_line(text, "OpCapability VulkanMemoryModel");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_desc_sets_version_addressing_memory_model_and_generator(void) {
  spvgen_module_desc d = {.version = SPVGEN_VERSION(1, 3),
                          .addressing = SpvAddressingModelLogical,
                          .memory_model = SpvMemoryModelGLSL450,
                          .generator = 0x00ab0007u};
  spvgen_module *m = spvgen_module_create(&d);
  CHECK_EQ_U64(spvgen_module_version(m), SPVGEN_VERSION(1, 3));
  empty_main(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  if (w) {
    CHECK_EQ_U64(w[1], 0x00010300u);
    CHECK_EQ_U64(w[2], 0x00ab0007u);
  }
  char *text = check_disassemble(w, n);
  check_has_line(text, "OpMemoryModel Logical GLSL450");
  check_lacks_line(text, "OpCapability VulkanMemoryModel");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_every_spirv_version_1_0_to_1_6_is_accepted_in_the_header(void) {
  for (uint32_t minor = 0; minor <= 6; minor++) {
    spvgen_module_desc d = {.version = SPVGEN_VERSION(1, minor),
                            .memory_model = SpvMemoryModelGLSL450};
    spvgen_module *m = spvgen_module_create(&d);
    empty_main(m);
    const uint32_t *w = check_module(m, NULL);
    CHECK_MSG(w && w[1] == SPVGEN_VERSION(1, minor), "1.%u: header version 0x%08x", minor,
              w ? w[1] : 0);
    spvgen_module_destroy(m);
  }
}

static void test_a_version_outside_1_0_to_1_6_is_an_invalid_argument(void) {
  const uint32_t bad[] = {SPVGEN_VERSION(1, 7), SPVGEN_VERSION(2, 0), 0x00010601u, 5};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    spvgen_module_desc d = {.version = bad[i]};
    spvgen_module *m = spvgen_module_create(&d);
    CHECK(m != NULL);
    CHECK_EQ_U64(spvgen_type_void(m), 0);
    check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_module_create: version");
    spvgen_module_destroy(m);
  }
}

static void test_finish_returns_the_words_and_ok_and_is_repeatable(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  empty_main(m);
  uint32_t bound = spvgen_module_bound(m);
  const uint32_t *w1 = NULL, *w2 = NULL;
  size_t n1 = 0, n2 = 0;
  CHECK_EQ_U64(spvgen_module_finish(m, &w1, &n1), SPVGEN_OK);
  CHECK(w1 != NULL);
  CHECK(n1 > 5);
  if (w1) CHECK_EQ_U64(w1[3], bound); /* the header's bound */
  CHECK_EQ_U64(spvgen_module_finish(m, &w2, &n2), SPVGEN_OK);
  CHECK(w1 == w2);
  CHECK_EQ_U64(n1, n2);
  CHECK_EQ_U64(spvgen_module_finish(m, NULL, NULL), SPVGEN_OK); /* both outputs optional */
  if (w1) CHECK(check_words(w1, n1));
  spvgen_module_destroy(m);
}

static void test_finish_reports_the_sticky_status_and_no_words(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  empty_main(m);
  spvgen_type_int(m, 12, false);
  const uint32_t *w = (const uint32_t *)&w; /* overwritten */
  size_t n = 99;
  CHECK_EQ_U64(spvgen_module_finish(m, &w, &n), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(w == NULL);
  CHECK_EQ_U64(n, 0);
  CHECK_CONTAINS(spvgen_module_error(m), "spvgen_type_int: integer width 12");
  spvgen_module_destroy(m);
}

static void test_emitting_after_finish_is_an_invalid_state(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  empty_main(m);
  CHECK(check_module(m, NULL) != NULL);
  CHECK_EQ_U64(spvgen_type_int(m, 32, true), 0);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_ERROR_INVALID_STATE);
  CHECK_CONTAINS(spvgen_module_error(m), "spvgen_type_int: the module is finished");
  /* Even an already deduplicated type is refused, and so is a generated emitter. */
  CHECK_EQ_U64(spvgen_type_void(m), 0);
  CHECK_EQ_U64(spvgen_op_type_void(m), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE, "spvgen_type_int: the module is finished");
  spvgen_module_destroy(m);
}

static void test_reset_gives_the_same_bytes_for_the_same_calls_in_the_same_buffer(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_sample(m);
  size_t n1 = 0;
  uint32_t *first = finish_copy(m, &n1);
  const uint32_t *w1 = NULL;
  spvgen_module_finish(m, &w1, NULL);

  spvgen_module_reset(m, NULL);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  CHECK_EQ_U64(spvgen_module_bound(m), 1);
  build_sample(m);
  size_t n2 = 0;
  const uint32_t *w2 = check_module(m, &n2);
  CHECK_EQ_U64(n1, n2);
  CHECK(first && w2 && n1 == n2 && memcmp(first, w2, n1 * sizeof *w2) == 0);
  /* The allocations were kept: the joined words land in the same buffer. */
  CHECK(w1 == w2);
  free(first);
  spvgen_module_destroy(m);
}

static void test_reset_clears_the_error_and_applies_the_new_desc(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_type_vector(m, 12345, 4);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_ERROR_INVALID_ARGUMENT);
  spvgen_module_desc d = {.version = SPVGEN_VERSION(1, 5), .memory_model = SpvMemoryModelGLSL450};
  spvgen_module_reset(m, &d);
  CHECK_EQ_U64(spvgen_module_status(m), SPVGEN_OK);
  CHECK_STR_EQ(spvgen_module_error(m), "");
  CHECK_EQ_U64(spvgen_module_version(m), SPVGEN_VERSION(1, 5));
  CHECK(!spvgen_has_capability(m, SpvCapabilityVulkanMemoryModel));
  empty_main(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  if (w) CHECK_EQ_U64(w[1], SPVGEN_VERSION(1, 5));
  char *text = check_disassemble(w, n);
  check_has_line(text, "OpMemoryModel Logical GLSL450");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_reset_forgets_types_capabilities_and_extensions(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_type_float(m, 16);
  spvgen_extension(m, "SPV_KHR_16bit_storage");
  spvgen_glsl_std_450(m);
  empty_main(m);
  CHECK(check_module(m, NULL) != NULL);
  spvgen_module_reset(m, NULL);
  CHECK(!spvgen_has_capability(m, SpvCapabilityFloat16));
  CHECK(!spvgen_has_extension(m, "SPV_KHR_16bit_storage"));
  empty_main(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  char *text = check_disassemble(w, n);
  check_lacks_line(text, "OpCapability Float16");
  check_lacks_line(text, "OpExtension \"SPV_KHR_16bit_storage\"");
  CHECK_NOT_CONTAINS(text, "GLSL.std.450");
  CHECK_NOT_CONTAINS(text, "OpTypeFloat 16");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_destroy_reset_and_finish_accept_null(void) {
  spvgen_module_destroy(NULL);
  spvgen_module_reset(NULL, NULL);
  const uint32_t *w = (const uint32_t *)&w;
  size_t n = 7;
  CHECK_EQ_U64(spvgen_module_finish(NULL, &w, &n), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(w == NULL);
  CHECK_EQ_U64(n, 0);
  CHECK_EQ_U64(spvgen_module_status(NULL), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(spvgen_module_error(NULL) != NULL);
  CHECK_EQ_U64(spvgen_type_void(NULL), 0);
}

static void test_the_same_calls_give_identical_bytes_in_separate_modules(void) {
  spvgen_module *a = spvgen_module_create(NULL);
  spvgen_module *b = spvgen_module_create(NULL);
  build_sample(a);
  build_sample(b);
  size_t na = 0, nb = 0;
  const uint32_t *wa = check_module(a, &na);
  const uint32_t *wb = check_module(b, &nb);
  CHECK_EQ_U64(na, nb);
  CHECK(wa && wb && na == nb && memcmp(wa, wb, na * sizeof *wa) == 0);
  /* And a third time after a reset of a module that built something else first. */
  spvgen_module_reset(a, NULL);
  spvgen_type_float(a, 64);
  spvgen_module_reset(a, NULL);
  build_sample(a);
  wa = check_module(a, &na);
  CHECK(wa && wb && na == nb && memcmp(wa, wb, na * sizeof *wa) == 0);
  spvgen_module_destroy(a);
  spvgen_module_destroy(b);
}

static void test_check_module_dumps_each_module_to_SPVGEN_TEST_DUMP(void) {
  char dir[] = "/tmp/spvgen-core-dump-XXXXXX";
  if (!mkdtemp(dir)) {
    test_skip("mkdtemp failed");
    return;
  }
  const char *outer = getenv("SPVGEN_TEST_DUMP");
  char *outer_copy = outer ? strdup(outer) : NULL;
  setenv("SPVGEN_TEST_DUMP", dir, 1);
  spvgen_module *a = spvgen_module_create(NULL);
  spvgen_module *b = spvgen_module_create(NULL);
  empty_main(a);
  build_sample(b);
  size_t na = 0, nb = 0;
  check_module(a, &na);
  check_module(b, &nb);
  unsetenv("SPVGEN_TEST_DUMP");
  if (outer_copy) setenv("SPVGEN_TEST_DUMP", outer_copy, 1);
  free(outer_copy);

  size_t expected[2] = {na, nb};
  for (int i = 0; i < 2; i++) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s-%d.spv", dir, test_current_name, i);
    struct stat st;
    CHECK_MSG(stat(path, &st) == 0, "%s was not written", path);
    CHECK_MSG(stat(path, &st) != 0 || (size_t)st.st_size == expected[i] * 4,
              "%s has %lld bytes, expected %zu", path, (long long)st.st_size, expected[i] * 4);
    remove(path);
  }
  rmdir(dir);
  spvgen_module_destroy(a);
  spvgen_module_destroy(b);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_create_defaults_to_spirv_1_6_logical_addressing_and_vulkan_memory_model),
      TEST_CASE(test_desc_sets_version_addressing_memory_model_and_generator),
      TEST_CASE(test_every_spirv_version_1_0_to_1_6_is_accepted_in_the_header),
      TEST_CASE(test_a_version_outside_1_0_to_1_6_is_an_invalid_argument),
      TEST_CASE(test_finish_returns_the_words_and_ok_and_is_repeatable),
      TEST_CASE(test_finish_reports_the_sticky_status_and_no_words),
      TEST_CASE(test_emitting_after_finish_is_an_invalid_state),
      TEST_CASE(test_reset_gives_the_same_bytes_for_the_same_calls_in_the_same_buffer),
      TEST_CASE(test_reset_clears_the_error_and_applies_the_new_desc),
      TEST_CASE(test_reset_forgets_types_capabilities_and_extensions),
      TEST_CASE(test_destroy_reset_and_finish_accept_null),
      TEST_CASE(test_the_same_calls_give_identical_bytes_in_separate_modules),
      TEST_CASE(test_check_module_dumps_each_module_to_SPVGEN_TEST_DUMP),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
