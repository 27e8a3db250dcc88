/* tests/cli/test_gemm.c — `spvgen gemm` and `spvgen bench gemm` at the shell: every
 * bad argument is exit 2 with a message naming it (numbers that are not numbers, zero
 * or negative shapes, unknown types, options of another command, unknown options,
 * conflicting outputs, a bad C identifier); a combination the device cannot do is exit 1
 * naming the type; the outputs (.spv to a file or stdout, -S, --json, --c-header) agree
 * with each other: the JSON's word count and hash, and the C header (compiled with the C
 * compiler and run) reproduce the .spv byte for byte. Also: `dis -` reads stdin, every
 * command's --help has examples, `version` prints the library's version. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>

#include "cli_run.h"
#include "spvgen/version.h"

#define SHAPE "--m", "20", "--n", "12", "--k", "8"

static void check_usage_error(cli_result *r, const char *needle, const char *what) {
  CHECK_EXIT(*r, 2);
  CHECK_MSG(strstr(r->err, needle) != NULL, "%s: stderr does not name '%s':\n%s", what, needle, r->err);
  CHECK_MSG(r->out[0] == '\0', "%s: usage error printed to stdout: %s", what, r->out);
  cli_result_free(r);
}

static void test_bad_numbers_are_usage_errors_naming_the_flag(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("gemm", "--m", "abc", "--n", "4", "--k", "4");
  check_usage_error(&r, "--m: 'abc'", "--m abc");
  r = cli_run("gemm", "--m", "-1", "--n", "4", "--k", "4");
  check_usage_error(&r, "--m: '-1'", "--m -1");
  r = cli_run("gemm", "--m", "0", "--n", "4", "--k", "4");
  check_usage_error(&r, "--m: '0' must be at least 1", "--m 0");
  r = cli_run("gemm", "--m", "4", "--n", "4", "--k", "4x");
  check_usage_error(&r, "--k: '4x'", "--k 4x");
  r = cli_run("gemm", "--m", "4", "--n", "99999999999", "--k", "4");
  check_usage_error(&r, "--n: '99999999999'", "--n overflow");
  r = cli_run("gemm", "--m", "4", "--n", "4", "--k", "4", "--alpha", "one");
  check_usage_error(&r, "--alpha: 'one'", "--alpha one");
  r = cli_run("gemm", "--m", "4", "--n", "4", "--k", "4", "--tile", "-64x64x16");
  check_usage_error(&r, "--tile: '-64x64x16'", "--tile negative");
  r = cli_run("gemm", "--n", "4", "--k", "4");
  check_usage_error(&r, "--m is required", "no --m");
  r = cli_run("gemm", "--m", "4", "--n", "4", "--k");
  check_usage_error(&r, "--k needs a value", "--k without value");
}

static void test_unknown_types_and_options_are_usage_errors(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("gemm", SHAPE, "--types", "f16,f99");
  check_usage_error(&r, "unknown type 'f99'", "--types f16,f99");
  r = cli_run("gemm", SHAPE, "--types", "f16");
  check_usage_error(&r, "--types: 'f16'", "--types with one type");
  r = cli_run("gemm", SHAPE, "--layout", "nx");
  check_usage_error(&r, "--layout: 'nx'", "--layout nx");
  r = cli_run("gemm", SHAPE, "--variant", "fastest");
  check_usage_error(&r, "--variant: 'fastest'", "--variant fastest");
  r = cli_run("gemm", SHAPE, "--frobnicate");
  check_usage_error(&r, "unknown option '--frobnicate'", "unknown option");
  r = cli_run("gemm", SHAPE, "stray");
  check_usage_error(&r, "unknown argument 'stray'", "stray argument");
  r = cli_run("gemm", SHAPE, "--repeats", "3"); /* an option of run/bench */
  check_usage_error(&r, "'--repeats'", "--repeats on gemm");
  r = cli_run("gemm", SHAPE, "--caps", "h200x");
  check_usage_error(&r, "'h200x' is neither a preset nor a readable caps file", "--caps h200x");
  r = cli_run("gemm", SHAPE, "-S", "--json");
  check_usage_error(&r, "exclude each other", "-S and --json");
  r = cli_run("gemm", SHAPE, "--c-header", "1st");
  check_usage_error(&r, "'1st' is not a C identifier", "--c-header 1st");
  r = cli_run("gemm", SHAPE, "--c-header");
  check_usage_error(&r, "--c-header needs a value (NAME)", "--c-header without name");
  r = cli_run("gemm", SHAPE, "--act", "softmax");
  check_usage_error(&r, "--act: 'softmax' is not none, relu, leaky_relu, sigmoid, tanh, silu, exp or gelu", "--act softmax");
  r = cli_run("gemm", SHAPE, "--act", "leaky_relu", "--leaky-slope", "x");
  check_usage_error(&r, "--leaky-slope: 'x'", "--leaky-slope x");
  r = cli_run("bench", "gemm", SHAPE, "--repeats", "0");
  check_usage_error(&r, "--repeats: '0' must be at least 1", "bench --repeats 0");
  r = cli_run("bench", "gemv", SHAPE);
  check_usage_error(&r, "unknown template 'gemv'", "bench gemv");
  r = cli_run("bench");
  CHECK_EXIT(r, 2);
  cli_result_free(&r);
}

static void test_a_combination_the_device_lacks_is_exit_1_naming_the_type(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("gemm", SHAPE, "--types", "e4m3,f32", "--caps", "lavapipe", "-o", cli_path("e4m3.spv"));
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "e4m3");
  CHECK_CONTAINS(r.err, "shaderFloat8");
  cli_result_free(&r);
  FILE *f = fopen(cli_path("e4m3.spv"), "rb");
  CHECK_MSG(f == NULL, "a refused GEMM still wrote its output file");
  if (f) fclose(f);
}

static uint64_t fnv1a64(const unsigned char *b, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

/* The .spv of SHAPE for the h100 preset, the reference the other outputs must match. */
static char *reference_spv(size_t *size) {
  const char *path = cli_path("ref.spv");
  cli_result r = cli_run("gemm", SHAPE, "--caps", "h100", "--bias", "row", "-o", path);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.err, "words"); /* the one-line summary goes to stderr */
  cli_result_free(&r);
  char *bytes = cli_read(path, size);
  CHECK_MSG(*size >= 20 && *size % 4 == 0, "ref.spv has %zu bytes", *size);
  uint32_t magic = 0;
  if (*size >= 4) memcpy(&magic, bytes, 4);
  CHECK_EQ_U64(magic, 0x07230203u);
  return bytes;
}

static void test_stdout_output_is_the_same_module(void) {
  if (!cli_binary()) return;
  size_t size = 0, out_size = 0;
  char *ref = reference_spv(&size);
  cli_result r = cli_run("gemm", SHAPE, "--caps", "h100", "--bias", "row", "-o", "-");
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  char *out = cli_read(cli_path("stdout.txt"), &out_size); /* binary: read it back whole */
  CHECK_EQ_U64(out_size, size);
  CHECK(out_size == size && !memcmp(out, ref, size));
  /* and a pipe into `val -` */
  r = cli_run_in(cli_path("ref.spv"), (const char *const[]){"val", "-", NULL});
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "-: valid");
  cli_result_free(&r);
  free(out);
  free(ref);
}

static void test_disassembly_option_prints_assembly(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("gemm", SHAPE, "--caps", "vulkan13", "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "; SPIR-V");
  CHECK_CONTAINS(r.out, "OpCapability Shader");
  CHECK_CONTAINS(r.out, "OpEntryPoint GLCompute %");
  CHECK_CONTAINS(r.out, " \"main\" %A %B %D");
  CHECK_CONTAINS(r.out, "OpFunctionEnd");
  cli_result_free(&r);
  /* to a file with -o */
  const char *path = cli_path("gemm.spvasm");
  r = cli_run("gemm", SHAPE, "--caps", "vulkan13", "-S", "-o", path);
  CHECK_EXIT(r, 0);
  CHECK(r.out[0] == '\0');
  cli_result_free(&r);
  char *text = cli_read(path, NULL);
  CHECK_CONTAINS(text, "OpExecutionMode %");
  CHECK_CONTAINS(text, " LocalSize ");
  free(text);
}

static void test_dis_reads_stdin_for_a_dash(void) {
  if (!cli_binary()) return;
  size_t size = 0;
  free(reference_spv(&size));
  cli_result r = cli_run_in(cli_path("ref.spv"), (const char *const[]){"dis", "-", NULL});
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "OpCapability Shader");
  cli_result_free(&r);
  r = cli_run_in(NULL, (const char *const[]){"dis", "-", NULL}); /* empty stdin */
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "-: not a SPIR-V module: empty file");
  cli_result_free(&r);
}

/* The value of "key": N in JSON text, or -1. */
static long long json_number(const char *json, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = strstr(json, pat);
  return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

static void test_json_has_the_metadata_and_matches_the_module(void) {
  if (!cli_binary()) return;
  size_t size = 0;
  char *ref = reference_spv(&size);
  cli_result r = cli_run("gemm", SHAPE, "--caps", "h100", "--bias", "row", "--json");
  CHECK_EXIT(r, 0);
  const char *j = r.out;
  CHECK_CONTAINS(j, "\"template\": \"gemm\"");
  CHECK_CONTAINS(j, "\"variant\": \"");
  CHECK_CONTAINS(j, "\"plan\": \"");
  CHECK_CONTAINS(j, "\"workgroup_size\": [");
  CHECK_CONTAINS(j, "\"dispatch\": [");
  CHECK_CONTAINS(j, "\"push_constant_size\": 0");
  CHECK_CONTAINS(j, "\"spec_constants\": [");
  CHECK_CONTAINS(j, "{\"set\": 0, \"binding\": 0, \"kind\": \"storage_buffer\", \"name\": \"A\", \"min_size\": ");
  CHECK_CONTAINS(j, "{\"set\": 0, \"binding\": 3, \"kind\": \"storage_buffer\", \"name\": \"bias\", \"min_size\": ");
  CHECK_CONTAINS(j, "\"features\": [");
  CHECK_CONTAINS(j, "\"vulkanMemoryModel\"");
  CHECK_CONTAINS(j, "\"capabilities\": [");
  CHECK_CONTAINS(j, "\"Shader\"");
  CHECK_CONTAINS(j, "\"Float16\"");
  CHECK_CONTAINS(j, "\"extensions\": [");
  CHECK_EQ_U64(json_number(j, "words"), size / 4);
  /* the planner's estimates: the compile, and one run's GPU time on the caps given (what
   * tools/speed_fit.py sets against measured times): a positive number of ms */
  CHECK(json_number(j, "compile_ms_estimate") > 0);
  const char *t = strstr(j, "\"time_ms_estimate\": ");
  CHECK_MSG(t && strtod(t + strlen("\"time_ms_estimate\": "), NULL) > 0.0, "no positive time_ms_estimate in:\n%s", j);
  char hash[32];
  snprintf(hash, sizeof hash, "\"hash\": \"%016" PRIx64 "\"", fnv1a64((const unsigned char *)ref, size));
  CHECK_CONTAINS(j, hash);
  /* balanced, and nothing after the object */
  int depth = 0, min_depth = 0;
  for (const char *p = j; *p; p++) {
    depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
    if (depth < min_depth) min_depth = depth;
  }
  CHECK(depth == 0 && min_depth == 0);
  cli_result_free(&r);
  free(ref);
}

static void test_c_header_compiles_and_reproduces_the_module(void) {
  if (!cli_binary()) return;
  size_t size = 0;
  char *ref = reference_spv(&size);
  const char *header = cli_path("gemm_words.h");
  cli_result r = cli_run("gemm", SHAPE, "--caps", "h100", "--bias", "row", "--c-header", "gemm_words", "-o", header);
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  char *text = cli_read(header, NULL);
  CHECK_CONTAINS(text, "static const uint32_t gemm_words[gemm_words_word_count] = {");
  char count_line[80];
  snprintf(count_line, sizeof count_line, "#define gemm_words_word_count %zu\n", size / 4);
  CHECK_CONTAINS(text, count_line);
  CHECK_CONTAINS(text, "#define gemm_words_size");
  CHECK_CONTAINS(text, "0x07230203");
  /* Counted from the array on: the comment above it repeats the command line, whose -o
   * path (mkdtemp's random suffix) may itself contain "0x". */
  size_t hex = 0;
  const char *body = strstr(text, "gemm_words[gemm_words_word_count] = {");
  for (const char *p = body; p && (p = strstr(p, "0x")); p += 2) hex++;
  CHECK_EQ_U64(hex, size / 4 + 0); /* the words, and no other 0x after them */
  free(text);

  /* stdout when there is no -o */
  r = cli_run("gemm", SHAPE, "--caps", "h100", "--bias", "row", "--c-header", "gemm_words");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "static const uint32_t gemm_words[");
  cli_result_free(&r);

  /* Compile a program that includes it and writes the array out; compare with the .spv. */
  const char *cc = getenv("SPVGEN_CC");
  if (!cc || !cc[0]) {
    test_skip("SPVGEN_CC is not set: the header is not compiled");
    free(ref);
    return;
  }
  const char *prog = cli_path("dump.c");
  char src[512];
  snprintf(src, sizeof src,
           "#include <stdio.h>\n#include \"%s\"\n"
           "int main(int argc, char **argv) {\n"
           "  FILE *f = fopen(argv[1], \"wb\");\n"
           "  if (argc < 2 || !f) return 1;\n"
           "  if (sizeof gemm_words != gemm_words_size) return 2;\n"
           "  return fwrite(gemm_words, 4, gemm_words_word_count, f) == gemm_words_word_count && !fclose(f) ? 0 : 3;\n"
           "}\n",
           header);
  cli_write("dump.c", src, strlen(src));
  const char *exe = cli_path("dump");
  const char *out = cli_path("dumped.spv");
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' -std=c11 -Wall -Wextra -Werror -o '%s' '%s' && '%s' '%s'", cc, exe, prog, exe, out);
  int status = system(cmd);
  CHECK_MSG(status == 0, "compiling and running the header's dump program failed (%d): %s", status, cmd);
  size_t got = 0;
  char *dumped = cli_read(out, &got);
  CHECK_EQ_U64(got, size);
  CHECK(got == size && !memcmp(dumped, ref, size));
  free(dumped);
  free(ref);
}

/* run gemm of a plan of three kernels (A packed, split-K) on the CI device: each kernel's
 * compile named in dispatch order, the pack and split-K lines, every element checked. */
static void test_run_names_each_kernels_compile(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("run", "gemm", "--m", "33", "--n", "40", "--k", "301", "--variant", "simt", "--pack", "a",
                         "--split-k", "2");
  if (r.exited && r.code == 1 && strstr(r.err, "no Vulkan device")) {
    test_skip("no Vulkan device");
    cli_result_free(&r);
    return;
  }
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "split-K  2 slices");
  CHECK_CONTAINS(r.out, "pack     a copied to the workspace first");
  CHECK_CONTAINS(r.out, "(the driver's compile: pack ");
  CHECK_CONTAINS(r.out, " + partials ");
  CHECK_CONTAINS(r.out, " + reduction ");
  CHECK_CONTAINS(r.out, "check    1320 of 1320 elements match");
  cli_result_free(&r);
  /* the epilogue's leaky relu with its slope (split-K: the reduction applies it) */
  r = cli_run("run", "gemm", "--m", "33", "--n", "40", "--k", "301", "--variant", "simt", "--split-k", "2", "--act",
              "leaky_relu", "--leaky-slope", "-0.5", "--bias", "column");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "check    1320 of 1320 elements match");
  cli_result_free(&r);
}

/* --tiered: a plan with a quick form prints the first call's kernel (its compile, its run,
 * its check) and then the plan's, compiled in the background, or, where a cached-only
 * create finds the plan compiled already (a warm process), the plan alone; one without a
 * quick form (simt, on lavapipe) says so and runs as without the flag. Each checks every
 * element. */
static void test_run_tiered_prints_both_kernels_or_why_not(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("run", "gemm", "--m", "97", "--n", "131", "--k", "67", "--tiered");
  if (r.exited && r.code == 1 && strstr(r.err, "no Vulkan device")) {
    test_skip("no Vulkan device");
    cli_result_free(&r);
    return;
  }
  CHECK_EXIT(r, 0);
  if (strstr(r.out, "simt ")) {
    CHECK_CONTAINS(r.out, "has no quicker form: it is compiled as it is");
    CHECK_CONTAINS(r.out, "check    12707 of 12707 elements match");
  } else if (strstr(r.out, "needs no compile")) {
    /* a warm process (the kernel cache or the driver's had the plan): no quick form */
    CHECK_CONTAINS(r.out, "it runs from the first call");
    CHECK_CONTAINS(r.out, "check    12707 of 12707 elements match");
  } else {
    CHECK_CONTAINS(r.out, "is not cached (the driver answered in");
    CHECK_CONTAINS(r.out, "first    ");
    CHECK_CONTAINS(r.out, "cg:");
    CHECK_CONTAINS(r.out, "what the first call waits for");
    CHECK_CONTAINS(r.out, "in the background while the quick form ran");
    CHECK_CONTAINS(r.out, "ready    ");
    const char *first = strstr(r.out, "check    12707 of 12707 elements match");
    CHECK_MSG(first && strstr(first + 1, "check    12707 of 12707 elements match"), "both checks\n%s", r.out);
  }
  cli_result_free(&r);
}

/* A split-K plan is two modules (the partials, then the reduction): -o out.spv writes
 * out.spv and out.reduce.spv, both valid; -S and --c-header hold both, --json lists the
 * second under "next_kernels"; a binary to stdout is refused (two modules). */
static void test_split_k_writes_both_modules(void) {
  if (!cli_binary()) return;
#define SPLIT "--m", "16", "--n", "200", "--k", "1000", "--caps", "vulkan13", "--split-k", "3", "--beta", "0.5"
  const char *path = cli_path("sk.spv");
  cli_path("sk.reduce.spv"); /* removed after the test too */
  cli_result r = cli_run("gemm", SPLIT, "-o", path);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.err, "sk.spv: simt");
  CHECK_CONTAINS(r.err, "kernel main");
  CHECK_CONTAINS(r.err, "sk.reduce.spv: simt");
  CHECK_CONTAINS(r.err, "kernel reduce");
  cli_result_free(&r);
  for (int i = 0; i < 2; i++) {
    r = cli_run("val", i ? cli_path("sk.reduce.spv") : path);
    CHECK_EXIT(r, 0);
    CHECK_CONTAINS(r.out, ": valid");
    cli_result_free(&r);
  }
  r = cli_run("gemm", SPLIT, "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "; kernel 1 of 2: main");
  CHECK_CONTAINS(r.out, "; kernel 2 of 2: reduce");
  CHECK_CONTAINS(r.out, " \"main\" %A %B %As %Bs");
  CHECK_CONTAINS(r.out, " \"main\" %D %C %workspace");
  cli_result_free(&r);
  r = cli_run("gemm", SPLIT, "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"kernels\": 2");
  CHECK_CONTAINS(r.out, "\"next_kernels\": [");
  CHECK_CONTAINS(r.out, "\"kernel\": \"reduce\"");
  CHECK_CONTAINS(r.out, "\"reduce_groups\": [");
  CHECK_NOT_CONTAINS(r.out, "counters");
  cli_result_free(&r);
  r = cli_run("gemm", SPLIT, "--c-header", "sk_words");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "static const uint32_t sk_words[");
  CHECK_CONTAINS(r.out, "static const uint32_t sk_words_reduce[");
  cli_result_free(&r);
  r = cli_run("gemm", SPLIT, "-o", "-");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "the plan has 2 kernels: give -o PATH");
  cli_result_free(&r);
#undef SPLIT
}

static void test_bench_times_the_emission(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("bench", "gemm", SHAPE, "--caps", "h100", "--repeats", "5");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "caps     h100");
  CHECK_CONTAINS(r.out, "plan     ");
  CHECK_CONTAINS(r.out, "us per module (median of 5;");
  CHECK(!strstr(r.out, "gpu "));
  cli_result_free(&r);
  /* with the device when there is one (lavapipe in CI): a sampled check and a GPU time */
  r = cli_run("bench", "gemm", SHAPE, "--repeats", "3", "--gpu-repeats", "2");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "us per module");
  if (strstr(r.out, "device   none")) {
    CHECK(!strstr(r.out, "gpu "));
  } else {
    CHECK_CONTAINS(r.out, "pipeline "); /* with its first compile */
    CHECK_CONTAINS(r.out, "(the driver's compile; the plan estimated ");
    CHECK_CONTAINS(r.out, "gpu      ");
    CHECK_CONTAINS(r.out, "sampled elements match");
  }
  CHECK(!strstr(r.out, "device   none") || !strstr(r.out, "pipeline "));
  cli_result_free(&r);
  /* a refusal is exit 1 */
  r = cli_run("bench", "gemm", SHAPE, "--types", "e4m3,f32", "--caps", "lavapipe");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "e4m3");
  cli_result_free(&r);
}

static void test_every_command_has_help_with_examples(void) {
  if (!cli_binary()) return;
  static const char *const cmds[][3] = {{"gemm", "--help"}, {"run", "gemm", "--help"}, {"bench", "gemm", "--help"},
                                        {"val", "--help"},  {"dis", "--help"},          {"devices", "--help"},
                                        {"demo", "--help"}, {"version", "--help"},      {"--help"},
                                        {"tune", "--help"}, {"tune", "gemm", "--help"}};
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    cli_result r = cli_run_in(NULL, (const char *const[]){cmds[i][0], cmds[i][1], cmds[i][2], NULL});
    CHECK_EXIT(r, 0);
    CHECK_MSG(strstr(r.out, "usage: spvgen") != NULL, "%s --help: no usage line", cmds[i][0]);
    CHECK_MSG(strstr(r.out, "example") != NULL, "%s --help: no examples", cmds[i][0]);
    cli_result_free(&r);
  }
  cli_result r = cli_run("--help");
  CHECK_CONTAINS(r.out, "  bench ");
  CHECK_CONTAINS(r.out, "  tune ");
  cli_result_free(&r);
}

static void test_version_prints_the_library_version(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("version");
  CHECK_EXIT(r, 0);
  char line[64];
  snprintf(line, sizeof line, "spvgen %s\n", spvgen_version());
  CHECK_MSG(!strncmp(r.out, line, strlen(line)), "version printed: %s", r.out);
  CHECK_STR_EQ(spvgen_version(), SPVGEN_VERSION_STRING);
  CHECK_CONTAINS(r.out, "SPIRV-Tools");
  cli_result_free(&r);
  r = cli_run("version", "--verbose");
  check_usage_error(&r, "'--verbose'", "version --verbose");
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_bad_numbers_are_usage_errors_naming_the_flag),
      TEST_CASE(test_unknown_types_and_options_are_usage_errors),
      TEST_CASE(test_a_combination_the_device_lacks_is_exit_1_naming_the_type),
      TEST_CASE(test_stdout_output_is_the_same_module),
      TEST_CASE(test_disassembly_option_prints_assembly),
      TEST_CASE(test_dis_reads_stdin_for_a_dash),
      TEST_CASE(test_json_has_the_metadata_and_matches_the_module),
      TEST_CASE(test_c_header_compiles_and_reproduces_the_module),
      TEST_CASE(test_split_k_writes_both_modules),
      TEST_CASE(test_run_names_each_kernels_compile),
      TEST_CASE(test_run_tiered_prints_both_kernels_or_why_not),
      TEST_CASE(test_bench_times_the_emission),
      TEST_CASE(test_every_command_has_help_with_examples),
      TEST_CASE(test_version_prints_the_library_version),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
