/* tests/cli/test_dis.c — `spvgen dis`: friendly names and aligned columns by default,
 * --raw-ids / --no-indent / --no-header / -o, exit 1 with a message for undecodable
 * input, 2 for usage errors, and no input makes it crash. */
#define _POSIX_C_SOURCE 200809L

#include "cli_run.h"
#include "module_check.h"

static const char module_text[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\"\n"
    "OpExecutionMode %main LocalSize 32 1 1\n"
    "OpName %main \"main\"\n"
    "OpName %fn \"fn\"\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%float = OpTypeFloat 32\n"
    "%float_1 = OpConstant %float 1\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static const char *module_path(void) {
  return cli_write_assembled("module.spv", module_text, SPVGEN_ENV_VULKAN_1_3);
}

static void test_default_output_has_friendly_names_header_and_alignment(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("dis", module_path());
  CHECK_EXIT(r, 0);
  static const char *const lines[] = {
      "; SPIR-V",
      "; Version: 1.6",
      "OpEntryPoint GLCompute %main \"main\"",
      "%void = OpTypeVoid",
      "%float = OpTypeFloat 32",
      "%float_1 = OpConstant %float 1",
      "%fn = OpTypeFunction %void",
      "%main = OpFunction %void None %fn",
  };
  check_has_lines(r.out, lines, TEST_COUNT(lines));
  CHECK_CONTAINS(r.out, "\n               OpReturn\n"); /* aligned */
  CHECK_STR_EQ(r.err, "");
  cli_result_free(&r);
}

static void test_raw_ids_prints_numbers(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("dis", "--raw-ids", module_path());
  CHECK_EXIT(r, 0);
  check_has_line(r.out, "OpEntryPoint GLCompute %1 \"main\"");
  CHECK_NOT_CONTAINS(r.out, "%main");
  CHECK_NOT_CONTAINS(r.out, "%float");
  cli_result_free(&r);
}

static void test_no_indent_and_no_header_give_plain_lines(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("dis", "--no-indent", "--no-header", module_path());
  CHECK_EXIT(r, 0);
  CHECK(strncmp(r.out, "OpCapability Shader\n", 20) == 0);
  CHECK_NOT_CONTAINS(r.out, "\n ");
  CHECK_NOT_CONTAINS(r.out, "; SPIR-V");
  CHECK_CONTAINS(r.out, "\n%float_1 = OpConstant %float 1\n");
  cli_result_free(&r);
}

static void test_comment_adds_section_comments(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("dis", "--comment", module_path());
  CHECK_EXIT(r, 0);
  check_has_line(r.out, "; Debug Information");
  cli_result_free(&r);
}

static void test_output_file_gets_the_text_and_stdout_stays_empty(void) {
  if (!cli_binary()) return;
  const char *input = module_path();
  cli_result shown = cli_run("dis", input);
  CHECK_EXIT(shown, 0);
  const char *out = cli_path("module.spvasm");
  cli_result r = cli_run("dis", input, "-o", out);
  CHECK_EXIT(r, 0);
  CHECK_STR_EQ(r.out, "");
  char *written = cli_read(out, NULL);
  CHECK_STR_EQ(written, shown.out);
  free(written);
  cli_result_free(&r);
  cli_result_free(&shown);

  r = cli_run("dis", "-o", "-", input); /* "-" is stdout */
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "OpFunctionEnd");
  cli_result_free(&r);
}

static void test_an_unwritable_output_exits_1(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("dis", module_path(), "-o", "/nonexistent-dir/out.spvasm");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "/nonexistent-dir/out.spvasm");
  cli_result_free(&r);
}

static void test_an_invalid_but_decodable_module_is_still_disassembled(void) {
  if (!cli_binary()) return;
  /* No OpMemoryModel at all: the validator refuses it, the decoder does not. */
  const char *path = cli_write_assembled("no-memory-model.spv",
                                         "OpCapability Shader\n"
                                         "%void = OpTypeVoid\n",
                                         SPVGEN_ENV_VULKAN_1_3);
  cli_result r = cli_run("dis", path);
  CHECK_EXIT(r, 0);
  check_has_line(r.out, "%void = OpTypeVoid");
  cli_result_free(&r);
}

static void test_undecodable_input_exits_1_with_the_decoder_message(void) {
  if (!cli_binary()) return;
  uint32_t *words = NULL;
  size_t count = 0;
  if (spvgen_assemble(module_text, SPVGEN_ENV_VULKAN_1_3, &words, &count, NULL, 0) !=
      SPVGEN_OK) {
    CHECK_MSG(0, "spvgen_assemble failed");
    return;
  }
  /* The first instruction claims 200 words. */
  words[5] = (200u << 16) | (words[5] & 0xFFFFu);
  const char *path = cli_write("overlong.spv", words, count * 4);
  cli_result r = cli_run("dis", path);
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "spvgen dis: ");
  CHECK_CONTAINS(r.err, path);
  CHECK_CONTAINS(r.err, "word 5");
  CHECK_STR_EQ(r.out, "");
  cli_result_free(&r);

  /* With -o, a failure leaves no output file behind. */
  const char *out = cli_path("never-written.spvasm");
  r = cli_run("dis", path, "-o", out);
  CHECK_EXIT(r, 1);
  struct stat st;
  CHECK(stat(out, &st) != 0);
  cli_result_free(&r);
  spvgen_free_words(words);
}

static void test_files_that_are_not_modules_exit_1_with_a_reason(void) {
  if (!cli_binary()) return;
  static const uint32_t bad_magic[5] = {0xdeadbeefu, 0x00010600u, 0, 1, 0};
  const struct {
    const char *path;
    const char *part;
  } cases[] = {
      {cli_write("empty.spv", "", 0), "empty"},
      {cli_write("odd.spv", "\x03\x02\x23\x07\x00\x00", 6), "multiple of 4"},
      {cli_write("magic.spv", bad_magic, sizeof bad_magic), "magic"},
      {cli_path("missing.spv"), "No such file"},
      {cli_dir(), "directory"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_result r = cli_run("dis", cases[i].path);
    CHECK_EXIT(r, 1);
    CHECK_CONTAINS(r.err, cases[i].path);
    CHECK_CONTAINS(r.err, cases[i].part);
    CHECK_STR_EQ(r.out, "");
    cli_result_free(&r);
  }
}

static void test_help_goes_to_stdout_and_exits_0(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("dis", "--help");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "usage: spvgen dis");
  CHECK_CONTAINS(r.out, "--raw-ids");
  CHECK_CONTAINS(r.out, "--no-indent");
  CHECK_STR_EQ(r.err, "");
  cli_result_free(&r);
}

static void test_usage_errors_exit_2_with_a_message(void) {
  if (!cli_binary()) return;
  const char *path = module_path();
  static const char *cases[][4] = {
      {"dis", NULL},
      {"dis", "--bogus", NULL, NULL},
      {"dis", NULL, NULL, NULL}, /* two inputs (filled below) */
      {"dis", NULL, "-o", NULL}, /* -o without a value (filled below) */
  };
  cases[1][2] = path;
  cases[2][1] = path;
  cases[2][2] = path;
  cases[3][1] = path;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_result r = cli_run_in(NULL, cases[i]);
    CHECK_MSG(r.exited && r.code == 2, "case %zu: exit %d, expected 2; %s", i, r.code,
              r.err);
    CHECK_CONTAINS(r.err, "spvgen dis: ");
    CHECK_STR_EQ(r.out, "");
    cli_result_free(&r);
  }
}

static void test_random_and_mutated_input_never_crashes_it(void) {
  if (!cli_binary()) return;
  uint32_t *original = NULL;
  size_t count = 0;
  if (spvgen_assemble(module_text, SPVGEN_ENV_VULKAN_1_3, &original, &count, NULL, 0) !=
      SPVGEN_OK) {
    CHECK_MSG(0, "spvgen_assemble failed");
    return;
  }
  uint32_t *words = malloc(count * sizeof *words);
  for (int round = 0; round < 60; round++) {
    memcpy(words, original, count * sizeof *words);
    size_t n = count;
    if (round % 3 == 0) {
      for (size_t i = 5; i < count; i++) words[i] = test_rand_u32();
    } else if (round % 3 == 1) {
      size_t at = 1 + test_rand_u32() % (count - 1);
      words[at] = test_rand_u32();
    } else {
      n = 5 + test_rand_u32() % (count - 5); /* cut at a word boundary */
    }
    const char *path = cli_write("fuzz.spv", words, n * sizeof *words);
    cli_result r = cli_run("dis", path);
    CHECK_MSG(r.exited && (r.code == 0 || r.code == 1), "round %d: %s %d; %s", round,
              r.exited ? "exit" : "signal", r.exited ? r.code : r.signal, r.err);
    if (r.code == 1)
      CHECK_MSG(r.err[0] != '\0', "round %d: exit 1 without a message", round);
    cli_result_free(&r);
    if (test_current_failed) break;
  }
  free(words);
  spvgen_free_words(original);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_default_output_has_friendly_names_header_and_alignment),
      TEST_CASE(test_raw_ids_prints_numbers),
      TEST_CASE(test_no_indent_and_no_header_give_plain_lines),
      TEST_CASE(test_comment_adds_section_comments),
      TEST_CASE(test_output_file_gets_the_text_and_stdout_stays_empty),
      TEST_CASE(test_an_unwritable_output_exits_1),
      TEST_CASE(test_an_invalid_but_decodable_module_is_still_disassembled),
      TEST_CASE(test_undecodable_input_exits_1_with_the_decoder_message),
      TEST_CASE(test_files_that_are_not_modules_exit_1_with_a_reason),
      TEST_CASE(test_help_goes_to_stdout_and_exits_0),
      TEST_CASE(test_usage_errors_exit_2_with_a_message),
      TEST_CASE(test_random_and_mutated_input_never_crashes_it),
  };
  const char *cli = getenv("SPVGEN_CLI");
  if (!cli || !cli[0]) {
    printf("SPVGEN_CLI is not set (ctest sets it to the spvgen binary): skipped\n");
    return 77;
  }
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
