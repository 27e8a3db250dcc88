/* tests/check/test_module_check.c — the test helpers of tests/support/module_check.h
 * themselves: check_module passes valid modules and fails invalid ones with the
 * validator's message, dumps to SPVGEN_TEST_DUMP, line matching trims and reports,
 * check_module_error, and the random streams. Failures the helpers are expected to
 * report are captured (stderr into a temporary file) and taken back from the count. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* ------------------------------------------------ capturing expected failures ---- */

typedef struct expected_failure {
  int failed_before;
  int saved_stderr;
  FILE *file;
} expected_failure;

static void expect_failure_begin(expected_failure *e) {
  fflush(stderr);
  e->failed_before = test_current_failed;
  e->file = tmpfile();
  e->saved_stderr = e->file ? dup(2) : -1;
  if (e->saved_stderr >= 0) dup2(fileno(e->file), 2);
}

/* Returns what was printed (malloc'd, "" if nothing) and sets *failures to the number
 * of failures recorded since begin, which are then taken back. */
static char *expect_failure_end(expected_failure *e, int *failures) {
  fflush(stderr);
  if (e->saved_stderr >= 0) {
    dup2(e->saved_stderr, 2);
    close(e->saved_stderr);
  }
  *failures = test_current_failed - e->failed_before;
  test_current_failed = e->failed_before;
  char *text = calloc(1, 1);
  if (e->file) {
    long size = (fseek(e->file, 0, SEEK_END) == 0) ? ftell(e->file) : 0;
    rewind(e->file);
    char *all = size > 0 ? malloc((size_t)size + 1) : NULL;
    if (all) {
      size_t got = fread(all, 1, (size_t)size, e->file);
      all[got] = '\0';
      free(text);
      text = all;
    }
    fclose(e->file);
  }
  return text;
}

/* --------------------------------------------------------------- modules ---- */

static spvgen_module *empty_compute_module(const spvgen_module_desc *desc) {
  spvgen_module *m = spvgen_module_create(desc);
  if (!m) return NULL;
  spvgen_compute_main(m, "main", 64, 1, 1);
  spvgen_function_end(m);
  return m;
}

static void test_check_module_returns_the_words_of_a_valid_module(void) {
  spvgen_module *m = empty_compute_module(NULL);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  CHECK(words != NULL);
  CHECK(count > 5);
  if (words) CHECK_EQ_U64(words[0], 0x07230203u);
  CHECK_EQ_U64(spvgen_validate(words, count, NULL, NULL, 0), SPVGEN_OK);
  spvgen_module_destroy(m);
}

static void test_check_module_fails_an_invalid_module_with_the_validator_message(void) {
  spvgen_module_desc desc = {.no_memory_model = true};
  spvgen_module *m = empty_compute_module(&desc);
  expected_failure e;
  expect_failure_begin(&e);
  size_t count = 99;
  const uint32_t *words = check_module(m, &count);
  int failures = 0;
  char *printed = expect_failure_end(&e, &failures);
  CHECK(words == NULL);
  CHECK_EQ_U64(count, 0);
  CHECK_EQ_U64(failures, 1);
  CHECK_CONTAINS(printed, "test_module_check.c:"); /* the caller's line */
  CHECK_CONTAINS(printed, "invalid under vulkan1.3 rules");
  CHECK_CONTAINS(printed, "memory model");
  CHECK_CONTAINS(printed, "--- disassembly:");
  CHECK_CONTAINS(printed, "OpEntryPoint GLCompute");
  free(printed);
  spvgen_module_destroy(m);
}

static void test_check_module_fails_on_a_builder_error_with_its_message(void) {
  spvgen_module *m = empty_compute_module(NULL);
  spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_something: deliberate %d", 42);
  expected_failure e;
  expect_failure_begin(&e);
  const uint32_t *words = check_module(m, NULL);
  int failures = 0;
  char *printed = expect_failure_end(&e, &failures);
  CHECK(words == NULL);
  CHECK_EQ_U64(failures, 1);
  CHECK_CONTAINS(printed, "SPVGEN_ERROR_UNSUPPORTED");
  CHECK_CONTAINS(printed, "spvgen_something: deliberate 42");
  free(printed);
  spvgen_module_destroy(m);

  expect_failure_begin(&e);
  words = check_module(NULL, NULL);
  printed = expect_failure_end(&e, &failures);
  CHECK(words == NULL);
  CHECK_EQ_U64(failures, 1);
  CHECK_CONTAINS(printed, "module is NULL");
  free(printed);
}

static int file_equals(const char *path, const uint32_t *words, size_t count) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t bytes = count * sizeof *words;
  unsigned char *buf = malloc(bytes + 1);
  size_t got = buf ? fread(buf, 1, bytes + 1, f) : 0;
  fclose(f);
  int same = buf && got == bytes && memcmp(buf, words, bytes) == 0;
  free(buf);
  return same;
}

static void test_check_module_dumps_every_module_to_SPVGEN_TEST_DUMP(void) {
  char root[] = "/tmp/spvgen-dump-XXXXXX";
  if (!mkdtemp(root)) {
    test_skip("mkdtemp failed");
    return;
  }
  char dir[128], first[256], second[256];
  snprintf(dir, sizeof dir, "%s/nested/dir", root); /* created on demand */
  const char *outer = getenv("SPVGEN_TEST_DUMP");   /* the caller's, put back at the end */
  char *outer_copy = outer ? strdup(outer) : NULL;
  setenv("SPVGEN_TEST_DUMP", dir, 1);

  spvgen_module *a = empty_compute_module(NULL);
  spvgen_module_desc desc = {.no_memory_model = true};
  spvgen_module *b = empty_compute_module(&desc); /* invalid modules are dumped too */
  size_t na = 0, nb = 0;
  const uint32_t *wa = check_module(a, &na);
  expected_failure e;
  expect_failure_begin(&e);
  check_module(b, NULL);
  int failures = 0;
  free(expect_failure_end(&e, &failures));
  CHECK_EQ_U64(failures, 1);
  const uint32_t *wb = NULL;
  spvgen_module_finish(b, &wb, &nb);
  unsetenv("SPVGEN_TEST_DUMP");

  snprintf(first, sizeof first, "%s/%s-0.spv", dir, test_current_name);
  snprintf(second, sizeof second, "%s/%s-1.spv", dir, test_current_name);
  CHECK_MSG(wa && file_equals(first, wa, na), "%s missing or different", first);
  CHECK_MSG(wb && file_equals(second, wb, nb), "%s missing or different", second);

  /* Without the variable nothing more is written. */
  spvgen_module *c = empty_compute_module(NULL);
  check_module(c, NULL);
  char third[256];
  snprintf(third, sizeof third, "%s/%s-2.spv", dir, test_current_name);
  struct stat st;
  CHECK(stat(third, &st) != 0);

  remove(first);
  remove(second);
  snprintf(third, sizeof third, "%s/nested/dir", root);
  rmdir(third);
  snprintf(third, sizeof third, "%s/nested", root);
  rmdir(third);
  rmdir(root);
  spvgen_module_destroy(a);
  spvgen_module_destroy(b);
  spvgen_module_destroy(c);
  if (outer_copy) setenv("SPVGEN_TEST_DUMP", outer_copy, 1);
  free(outer_copy);
}

/* -------------------------------------------------------------- matching ---- */

static const char sample_text[] =
    "         %a = OpTypeFloat 32\n"
    "\tOpStore %p %a   \n"
    "%b = OpFAdd %a %x %y\n"
    "OpFunctionEnd";

static void test_check_has_lines_matches_whole_lines_with_whitespace_trimmed(void) {
  static const char *const present[] = {"%a = OpTypeFloat 32", "OpStore %p %a",
                                        "  OpFunctionEnd  ", "%b = OpFAdd %a %x %y"};
  check_has_lines(sample_text, present, TEST_COUNT(present));
  check_has_line(sample_text, "OpFunctionEnd"); /* the last line needs no newline */
}

static void test_check_has_lines_reports_each_missing_line_and_the_text(void) {
  static const char *const lines[] = {"OpTypeFloat 32", "%a = OpTypeFloat 32", "OpStore %p",
                                      "%b = OpFAdd %a %x %y %z"};
  expected_failure e;
  expect_failure_begin(&e);
  check_has_lines(sample_text, lines, TEST_COUNT(lines));
  int failures = 0;
  char *printed = expect_failure_end(&e, &failures);
  CHECK_EQ_U64(failures, 1);
  CHECK_CONTAINS(printed, "3 of 4 expected lines not found");
  CHECK_CONTAINS(printed, "missing line: OpTypeFloat 32\n"); /* part of a line */
  CHECK_CONTAINS(printed, "missing line: OpStore %p\n");     /* a prefix */
  CHECK_CONTAINS(printed, "missing line: %b = OpFAdd %a %x %y %z\n");
  CHECK_NOT_CONTAINS(printed, "missing line: %a = OpTypeFloat 32");
  CHECK_CONTAINS(printed, "\tOpStore %p %a   \n"); /* the whole text, as it was */
  free(printed);
}

static void test_check_lacks_line_fails_only_when_the_line_is_there(void) {
  check_lacks_line(sample_text, "OpTypeFloat 32");
  check_lacks_line(sample_text, "OpReturn");
  expected_failure e;
  expect_failure_begin(&e);
  check_lacks_line(sample_text, "OpStore %p %a");
  int failures = 0;
  char *printed = expect_failure_end(&e, &failures);
  CHECK_EQ_U64(failures, 1);
  CHECK_CONTAINS(printed, "unexpected line: OpStore %p %a");
  free(printed);
}

static void test_helpers_stay_quiet_on_null_after_an_earlier_failure(void) {
  expected_failure e;
  expect_failure_begin(&e);
  test_current_failed++; /* an earlier failure in the same test */
  char *text = check_disassemble(NULL, 0);
  check_has_line(text, "OpReturn");
  int failures = 0;
  char *printed = expect_failure_end(&e, &failures);
  CHECK(text == NULL);
  CHECK_EQ_U64(failures, 1); /* only the simulated one */
  CHECK_STR_EQ(printed, "");
  free(printed);

  /* Without an earlier failure, NULL is itself reported. */
  expect_failure_begin(&e);
  check_has_line(NULL, "OpReturn");
  printed = expect_failure_end(&e, &failures);
  CHECK_EQ_U64(failures, 1);
  free(printed);
}

/* ----------------------------------------------------------- module errors ---- */

static void test_check_module_error_accepts_the_sticky_status_and_message(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_thing: cannot do %s", "that");
  spvgen_type_float(m, 32); /* a no-op after the error */
  check_module_error(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_thing: cannot do that");
  check_module_error(m, SPVGEN_ERROR_UNSUPPORTED, NULL);
  spvgen_module_destroy(m);
}

static void test_check_module_error_rejects_another_status_or_message(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_thing: cannot do that");
  expected_failure e;
  int failures = 0;

  expect_failure_begin(&e);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, NULL);
  char *printed = expect_failure_end(&e, &failures);
  CHECK_EQ_U64(failures, 1);
  CHECK_CONTAINS(printed,
                 "SPVGEN_ERROR_UNSUPPORTED, expected SPVGEN_ERROR_INVALID_ARGUMENT");
  free(printed);

  expect_failure_begin(&e);
  check_module_error(m, SPVGEN_ERROR_UNSUPPORTED, "something else");
  printed = expect_failure_end(&e, &failures);
  CHECK_EQ_U64(failures, 1);
  CHECK_CONTAINS(printed, "does not mention \"something else\"");
  free(printed);
  spvgen_module_destroy(m);

  /* A module without an error does not pass for one that has it. */
  m = spvgen_module_create(NULL);
  expect_failure_begin(&e);
  check_module_error(m, SPVGEN_ERROR_INVALID_STATE, NULL);
  free(expect_failure_end(&e, &failures));
  CHECK_EQ_U64(failures, 1);
  spvgen_module_destroy(m);
}

/* ---------------------------------------------------------------- random ---- */

static void draw(uint32_t out[4]) {
  for (int i = 0; i < 4; i++) out[i] = test_rand_u32();
}

static void test_random_streams_depend_only_on_seed_and_test_name(void) {
  const char *saved = test_current_name;
  /* Distinct buffers with equal text: the stream restarts and repeats. */
  char name_a1[] = "stream_a", name_a2[] = "stream_a", name_b[] = "stream_b";
  uint32_t a1[4], a2[4], b[4];
  test_current_name = name_a1;
  draw(a1);
  test_current_name = name_a2;
  draw(a2);
  test_current_name = name_b;
  draw(b);
  test_current_name = saved;
  CHECK(memcmp(a1, a2, sizeof a1) == 0);
  CHECK(memcmp(a1, b, sizeof a1) != 0);
  CHECK(a1[0] != a1[1] || a1[1] != a1[2]);
}

static void test_random_floats_cover_the_half_open_range(void) {
  float lo = 3.0f, hi = -2.0f;
  for (int i = 0; i < 10000; i++) {
    float f = test_rand_float(-2.0f, 3.0f);
    CHECK_MSG(f >= -2.0f && f < 3.0f, "draw %d: %g outside [-2, 3)", i, (double)f);
    if (f < lo) lo = f;
    if (f > hi) hi = f;
  }
  CHECK_MSG(lo < -1.99f && hi > 2.99f, "draws span only [%g, %g]", (double)lo, (double)hi);
  CHECK(test_rand_float(1.0f, 1.0f) == 1.0f);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_check_module_returns_the_words_of_a_valid_module),
      TEST_CASE(test_check_module_fails_an_invalid_module_with_the_validator_message),
      TEST_CASE(test_check_module_fails_on_a_builder_error_with_its_message),
      TEST_CASE(test_check_module_dumps_every_module_to_SPVGEN_TEST_DUMP),
      TEST_CASE(test_check_has_lines_matches_whole_lines_with_whitespace_trimmed),
      TEST_CASE(test_check_has_lines_reports_each_missing_line_and_the_text),
      TEST_CASE(test_check_lacks_line_fails_only_when_the_line_is_there),
      TEST_CASE(test_helpers_stay_quiet_on_null_after_an_earlier_failure),
      TEST_CASE(test_check_module_error_accepts_the_sticky_status_and_message),
      TEST_CASE(test_check_module_error_rejects_another_status_or_message),
      TEST_CASE(test_random_streams_depend_only_on_seed_and_test_name),
      TEST_CASE(test_random_floats_cover_the_half_open_range),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
