/* tests/cli/test_val.c — `spvgen val`: exit 0 and "FILE: valid" on stdout for a valid
 * module, 1 and "FILE: invalid: <validator message>" on stderr for an invalid one, 1
 * with a message for anything that is not a module, 2 for usage errors; --env and the
 * layout flags reach the validator; no input makes it crash. */
#define _POSIX_C_SOURCE 200809L

#include "cli_run.h"
#include "module_check.h"
#include "repro_modules.h"

#define COMPUTE_MAIN                        \
  "OpCapability Shader\n"                   \
  "OpMemoryModel Logical GLSL450\n"         \
  "OpEntryPoint GLCompute %main \"main\"\n" \
  "OpExecutionMode %main LocalSize 1 1 1\n" \
  "OpName %main \"main\"\n"                 \
  "%void = OpTypeVoid\n"                    \
  "%fn = OpTypeFunction %void\n"            \
  "%main = OpFunction %void None %fn\n"     \
  "%entry = OpLabel\n"                      \
  "OpReturn\n"                              \
  "OpFunctionEnd\n"

static const char valid_text[] = COMPUTE_MAIN;

/* The entry point comes before the memory model: invalid. */
static const char no_memory_model_text[] =
    "OpCapability Shader\n"
    "OpEntryPoint GLCompute %main \"main\"\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "OpMemoryModel Logical GLSL450\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

/* A block member vec3 at offset 8: only scalar block layout allows it. */
static const char scalar_layout_text[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %buf\n"
    "OpExecutionMode %main LocalSize 1 1 1\n"
    "OpDecorate %Block Block\n"
    "OpMemberDecorate %Block 0 Offset 0\n"
    "OpMemberDecorate %Block 1 Offset 4\n"
    "OpMemberDecorate %Block 2 Offset 8\n"
    "OpDecorate %buf DescriptorSet 0\n"
    "OpDecorate %buf Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%float = OpTypeFloat 32\n"
    "%v3float = OpTypeVector %float 3\n"
    "%Block = OpTypeStruct %float %float %v3float\n"
    "%ptr = OpTypePointer StorageBuffer %Block\n"
    "%buf = OpVariable %ptr StorageBuffer\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static char *expected_line(const char *path, const char *suffix) {
  size_t size = strlen(path) + strlen(suffix) + 1;
  char *s = malloc(size);
  snprintf(s, size, "%s%s", path, suffix);
  return s;
}

static void test_a_valid_module_exits_0_and_says_valid_on_stdout(void) {
  if (!cli_binary()) return;
  const char *path = cli_write_assembled("valid.spv", valid_text, SPVGEN_ENV_VULKAN_1_3);
  cli_result r = cli_run("val", path);
  CHECK_EXIT(r, 0);
  char *line = expected_line(path, ": valid\n");
  CHECK_STR_EQ(r.out, line);
  CHECK_STR_EQ(r.err, "");
  free(line);
  cli_result_free(&r);
}

static void test_an_invalid_module_exits_1_with_the_validator_message_on_stderr(void) {
  if (!cli_binary()) return;
  const char *path =
      cli_write_assembled("invalid.spv", no_memory_model_text, SPVGEN_ENV_VULKAN_1_3);
  cli_result r = cli_run("val", path);
  CHECK_EXIT(r, 1);
  char *prefix = expected_line(path, ": invalid: ");
  CHECK(strncmp(r.err, prefix, strlen(prefix)) == 0);
  CHECK_CONTAINS(r.err, "memory model");
  CHECK_STR_EQ(r.out, "");
  free(prefix);
  cli_result_free(&r);
}

static void test_several_files_are_each_reported_and_any_failure_exits_1(void) {
  if (!cli_binary()) return;
  const char *good = cli_write_assembled("good.spv", valid_text, SPVGEN_ENV_VULKAN_1_3);
  const char *bad =
      cli_write_assembled("bad.spv", no_memory_model_text, SPVGEN_ENV_VULKAN_1_3);
  cli_result r = cli_run("val", good, bad, good);
  CHECK_EXIT(r, 1);
  char *valid = expected_line(good, ": valid\n");
  char *both = malloc(2 * strlen(valid) + 1);
  snprintf(both, 2 * strlen(valid) + 1, "%s%s", valid, valid);
  CHECK_STR_EQ(r.out, both);
  CHECK_CONTAINS(r.err, ": invalid: ");
  free(valid);
  free(both);
  cli_result_free(&r);

  r = cli_run("val", good, good);
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
}

static void test_env_selects_the_rules(void) {
  if (!cli_binary()) return;
  /* SPIR-V 1.6 (assembled for Vulkan 1.3): fine for Vulkan 1.3/1.4, not for 1.1/1.2. */
  const char *path = cli_write_assembled("v16.spv", valid_text, SPVGEN_ENV_VULKAN_1_3);
  static const struct {
    const char *flag;
    const char *value;
    int code;
  } cases[] = {
      {"--env", "vulkan1.3", 0},    {"--env", "vulkan1.4", 0}, {"--env", "universal1.6", 0},
      {"--env", "vulkan1.1", 1},    {"--env", "vulkan1.2", 1}, {"--env=vulkan1.1", NULL, 1},
      {"--env=vulkan1.4", NULL, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_result r = cases[i].value ? cli_run("val", cases[i].flag, cases[i].value, path)
                                  : cli_run("val", path, cases[i].flag);
    CHECK_MSG(r.exited && r.code == cases[i].code, "%s %s: exit %d, expected %d; %s",
              cases[i].flag, cases[i].value ? cases[i].value : "", r.code, cases[i].code,
              r.err);
    if (cases[i].code == 1) CHECK_CONTAINS(r.err, "1.6");
    cli_result_free(&r);
  }
}

static void test_scalar_block_layout_flag_reaches_the_validator(void) {
  if (!cli_binary()) return;
  const char *path =
      cli_write_assembled("scalar.spv", scalar_layout_text, SPVGEN_ENV_VULKAN_1_3);
  cli_result r = cli_run("val", path);
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "layout");
  cli_result_free(&r);
  r = cli_run("val", "--scalar-block-layout", path);
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("val", "--relax-block-layout", path); /* relaxed is not enough */
  CHECK_EXIT(r, 1);
  cli_result_free(&r);
}

static void test_help_goes_to_stdout_and_exits_0(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("val", "--help");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "usage: spvgen val");
  CHECK_CONTAINS(r.out, "--env");
  CHECK_CONTAINS(r.out, "--scalar-block-layout");
  CHECK_STR_EQ(r.err, "");
  cli_result_free(&r);
  r = cli_run("val", "-h");
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
}

static void test_usage_errors_exit_2_with_a_message(void) {
  if (!cli_binary()) return;
  const char *path = cli_write_assembled("usage.spv", valid_text, SPVGEN_ENV_VULKAN_1_3);
  const char *const cases[][4] = {
      {"val", NULL},
      {"val", "--bogus", path, NULL},
      {"val", path, "--env", NULL},
      {"val", "--env", "vulkan9.9", path},
      {"val", "--env=", path, NULL},
      {"val", "-x", path, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_result r = cli_run_in(NULL, cases[i]);
    CHECK_MSG(r.exited && r.code == 2, "case %zu (%s): exit %d, expected 2; %s", i,
              cases[i][1] ? cases[i][1] : "no args", r.code, r.err);
    CHECK_CONTAINS(r.err, "spvgen val: ");
    CHECK_STR_EQ(r.out, "");
    cli_result_free(&r);
  }
}

static void test_stdin_is_read_for_a_dash(void) {
  if (!cli_binary()) return;
  const char *path = cli_write_assembled("stdin.spv", valid_text, SPVGEN_ENV_VULKAN_1_3);
  cli_result r = cli_run_in(path, (const char *const[]){"val", "-", NULL});
  CHECK_EXIT(r, 0);
  CHECK_STR_EQ(r.out, "-: valid\n");
  cli_result_free(&r);
  r = cli_run_in(NULL, (const char *const[]){"val", "-", NULL}); /* empty stdin */
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "empty");
  cli_result_free(&r);
}

/* Each case: a file that is not a module, the exit status 1, and part of the message. */
static void check_rejected(const char *path, const char *message_part) {
  cli_result r = cli_run("val", path);
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, path);
  if (message_part) CHECK_CONTAINS(r.err, message_part);
  CHECK_NOT_CONTAINS(r.out, "valid");
  cli_result_free(&r);
}

static void test_files_that_are_not_modules_exit_1_with_a_reason(void) {
  if (!cli_binary()) return;
  check_rejected(cli_write("empty.spv", "", 0), "empty");
  check_rejected(cli_write("seven.spv", "\x03\x02\x23\x07\x00\x00\x01", 7),
                 "multiple of 4");
  static const uint32_t short_header[4] = {0x07230203u, 0x00010600u, 0, 5};
  check_rejected(cli_write("short.spv", short_header, sizeof short_header), "header");
  static const uint32_t text_magic[8] = {0x636e7566u, 0x6e6f6974u, 0, 0, 0, 0, 0, 0};
  check_rejected(cli_write("text.spv", text_magic, sizeof text_magic), "magic");
  check_rejected(cli_path("does-not-exist.spv"), "No such file");
  check_rejected(cli_dir(), "directory");
}

static void test_damaged_modules_exit_1_with_a_reason(void) {
  if (!cli_binary()) return;
  uint32_t *words = NULL;
  size_t count = 0;
  if (spvgen_assemble(valid_text, SPVGEN_ENV_VULKAN_1_3, &words, &count, NULL, 0) !=
      SPVGEN_OK) {
    CHECK_MSG(0, "spvgen_assemble failed");
    return;
  }
  /* Truncated at every byte length past the header: never valid, never a crash. */
  const unsigned char *bytes = (const unsigned char *)words;
  for (size_t n = 20; n < count * 4; n++) {
    const char *path = cli_write("truncated.spv", bytes, n);
    cli_result r = cli_run("val", path);
    CHECK_MSG(r.exited && r.code == 1, "truncated to %zu bytes: exit %d signal %d; %s", n,
              r.code, r.signal, r.err);
    CHECK_MSG(r.err[0] != '\0', "truncated to %zu bytes: no message", n);
    cli_result_free(&r);
  }
  /* An id bound far past the universal limit. */
  words[3] = 0xFFFFFFFFu;
  check_rejected(cli_write("huge-bound.spv", words, count * 4), "bound");
  words[3] = 0;
  check_rejected(cli_write("zero-bound.spv", words, count * 4), NULL);
  spvgen_free_words(words);
}

/* shared/repro/validator-crash-coopvec-scalar-input.spv: `spvgen val` died of SIGSEGV
 * inside SPIRV-Tools 2025.1's validator; now it exits 1 naming the instruction. */
static void test_the_coopvec_validator_crash_repro_exits_1_with_a_message(void) {
  if (!cli_binary()) return;
  const char *path = cli_write("validator-crash-coopvec-scalar-input.spv",
                               repro_coopvec_scalar_input, sizeof repro_coopvec_scalar_input);
  static const char *const envs[] = {"vulkan1.3", "vulkan1.4", "universal1.6"};
  for (int e = 0; e < 3; e++) {
    cli_result r = cli_run("val", "--env", envs[e], path);
    CHECK_EXIT(r, 1);
    char *prefix = expected_line(path, ": invalid: ");
    CHECK(strncmp(r.err, prefix, strlen(prefix)) == 0);
    CHECK_CONTAINS(r.err, "OpCooperativeVectorMatrixMulNV at word 119: operand Input is id %11");
    CHECK_STR_EQ(r.out, "");
    free(prefix);
    cli_result_free(&r);
  }
}

/* shared/repro/2026-11-26/decodefunc0.spv: `spvgen val` aborted (std::out_of_range inside
 * SPIRV-Tools, exit 134) on a tensor load whose DecodeFunc takes no parameters; now it
 * exits 1 with the reason, for every env. */
static void test_the_decode_func_validator_crash_repro_exits_1_with_a_message(void) {
  if (!cli_binary()) return;
  const char *src = getenv("SPVGEN_SOURCE_DIR");
  if (!src) {
    test_skip("SPVGEN_SOURCE_DIR is not set");
    return;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/data/repro-2026-11-26/decodefunc0.spv", src);
  static const char *const envs[] = {"vulkan1.3", "vulkan1.4", "vulkan1.2", "vulkan1.1",
                                     "universal1.6"};
  for (int e = 0; e < 5; e++) {
    cli_result r = cli_run("val", "--env", envs[e], path);
    CHECK_EXIT(r, 1);
    CHECK_CONTAINS(r.err, ": invalid: ");
    CHECK_CONTAINS(r.err, "operand DecodeFunc is id %85, an OpFunction whose type %38 has 0 "
                          "parameters");
    cli_result_free(&r);
  }
}

/* A file larger than the check layer takes (SPVGEN_VALIDATE_MAX_WORDS words) is refused
 * by its size before it is read: a sparse 1 GiB + 4 file answers at once. So is standard
 * input past the limit, read no further than it. */
static void test_a_file_over_the_size_limit_is_refused_before_it_is_read(void) {
  if (!cli_binary()) return;
  const char *path = cli_write("huge.spv", "", 0);
  CHECK(truncate(path, (off_t)((1ull << 30) + 4)) == 0);
  for (int dis = 0; dis < 2; dis++) {
    cli_result r = cli_run(dis ? "dis" : "val", path);
    CHECK_EXIT(r, 1);
    CHECK_CONTAINS(r.err, "1073741828 bytes is over the 4 MiB a module may have");
    CHECK_CONTAINS(r.err, "not read");
    cli_result_free(&r);
  }
  CHECK(truncate(path, (off_t)(SPVGEN_VALIDATE_MAX_WORDS * 4 + 4)) == 0);
  const char *args[] = {"val", "-", NULL};
  cli_result r = cli_run_in(path, args);
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "larger than the 4 MiB a module may have");
  cli_result_free(&r);
  CHECK(truncate(path, 0) == 0);
}

static void test_random_bytes_never_crash_it(void) {
  if (!cli_binary()) return;
  unsigned char bytes[4096];
  for (int round = 0; round < 40; round++) {
    size_t n = 4 * (1 + test_rand_u32() % (sizeof bytes / 4 - 1));
    for (size_t i = 0; i < n; i++) bytes[i] = (unsigned char)test_rand_u32();
    /* Half the rounds get a real header so that the bytes reach the validator. */
    if (round % 2) {
      static const uint32_t header[5] = {0x07230203u, 0x00010600u, 0, 64, 0};
      memcpy(bytes, header, n < sizeof header ? n : sizeof header);
    }
    const char *path = cli_write("random.spv", bytes, n);
    cli_result r = cli_run("val", path);
    CHECK_MSG(r.exited && r.code == 1, "round %d (%zu bytes): exit %d signal %d; %s", round,
              n, r.code, r.signal, r.err);
    CHECK_MSG(r.err[0] != '\0', "round %d: no message", round);
    cli_result_free(&r);
    if (test_current_failed) break;
  }
}

static void test_mutated_modules_are_judged_never_crashed_on(void) {
  if (!cli_binary()) return;
  uint32_t *original = NULL;
  size_t count = 0;
  if (spvgen_assemble(scalar_layout_text, SPVGEN_ENV_VULKAN_1_3, &original, &count, NULL,
                      0) != SPVGEN_OK) {
    CHECK_MSG(0, "spvgen_assemble failed");
    return;
  }
  uint32_t *words = malloc(count * sizeof *words);
  for (int round = 0; round < 60; round++) {
    memcpy(words, original, count * sizeof *words);
    size_t at = 1 + test_rand_u32() % (count - 1);
    words[at] =
        (round % 3 == 0) ? test_rand_u32() : (words[at] ^ (1u << (test_rand_u32() % 32)));
    const char *path = cli_write("mutated.spv", words, count * sizeof *words);
    cli_result r = cli_run("val", "--scalar-block-layout", path);
    CHECK_MSG(r.exited && (r.code == 0 || r.code == 1),
              "round %d (word %zu = 0x%08x): %s %d; %s", round, at, (unsigned)words[at],
              r.exited ? "exit" : "signal", r.exited ? r.code : r.signal, r.err);
    if (r.code == 1)
      CHECK_MSG(r.err[0] != '\0', "round %d: exit 1 without a message", round);
    /* Exactly one of the two streams speaks. */
    CHECK_MSG((r.code == 0) == (r.out[0] != '\0' && r.err[0] == '\0'),
              "round %d: exit %d with stdout '%s' stderr '%s'", round, r.code, r.out,
              r.err);
    cli_result_free(&r);
    if (test_current_failed) break;
  }
  free(words);
  spvgen_free_words(original);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_a_valid_module_exits_0_and_says_valid_on_stdout),
      TEST_CASE(test_an_invalid_module_exits_1_with_the_validator_message_on_stderr),
      TEST_CASE(test_several_files_are_each_reported_and_any_failure_exits_1),
      TEST_CASE(test_env_selects_the_rules),
      TEST_CASE(test_scalar_block_layout_flag_reaches_the_validator),
      TEST_CASE(test_help_goes_to_stdout_and_exits_0),
      TEST_CASE(test_usage_errors_exit_2_with_a_message),
      TEST_CASE(test_stdin_is_read_for_a_dash),
      TEST_CASE(test_files_that_are_not_modules_exit_1_with_a_reason),
      TEST_CASE(test_damaged_modules_exit_1_with_a_reason),
      TEST_CASE(test_the_coopvec_validator_crash_repro_exits_1_with_a_message),
      TEST_CASE(test_the_decode_func_validator_crash_repro_exits_1_with_a_message),
      TEST_CASE(test_a_file_over_the_size_limit_is_refused_before_it_is_read),
      TEST_CASE(test_random_bytes_never_crash_it),
      TEST_CASE(test_mutated_modules_are_judged_never_crashed_on),
  };
  const char *cli = getenv("SPVGEN_CLI");
  if (!cli || !cli[0]) {
    printf("SPVGEN_CLI is not set (ctest sets it to the spvgen binary): skipped\n");
    return 77;
  }
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
