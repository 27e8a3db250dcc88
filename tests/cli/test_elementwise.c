/* tests/cli/test_elementwise.c — `spvgen elementwise` and `spvgen run elementwise`, the
 * commands a template gets from its table entry alone (tools/spvgen/cmd_template.c):
 * the module written as a file that validates, as disassembly and as JSON naming the
 * plan, and a C header; a bad flag is exit 2 naming it (also through MLP's and the
 * tuner's tables, and as --flag=value); every op and type runs on the CI device
 * (lavapipe) with every element checked against the float64 reference, exit 0. */
#define _POSIX_C_SOURCE 200809L

#include "cli_run.h"

static void check_usage_error(cli_result *r, const char *needle, const char *what) {
  CHECK_EXIT(*r, 2);
  CHECK_MSG(strstr(r->err, needle) != NULL, "%s: stderr does not name '%s':\n%s", what, needle, r->err);
  CHECK_MSG(r->out[0] == '\0', "%s: usage error printed to stdout: %s", what, r->out);
  cli_result_free(r);
}

static void test_the_module_as_file_disassembly_and_json(void) {
  if (!cli_binary()) return;
  const char *path = cli_path("ew.spv");
  cli_result r = cli_run("elementwise", "--op", "mul", "--type", "f16", "--caps", "h100", "-o", path);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.err, "mul f16 w64");
  cli_result_free(&r);
  r = cli_run("val", path);
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("elementwise", "--op", "max", "--type", "s32", "--local-size", "128", "--caps", "vulkan13", "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "OpEntryPoint GLCompute");
  CHECK_CONTAINS(r.out, "LocalSize 128 1 1");
  cli_result_free(&r);
  r = cli_run("elementwise", "--caps", "vulkan13", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"template\": \"elementwise\"");
  CHECK_CONTAINS(r.out, "\"plan\": \"add f32 w64\"");
  cli_result_free(&r);
  /* the emit command's outputs are every template's: a C header too, --flag=value */
  r = cli_run("elementwise", "--op=mul", "--caps", "vulkan13", "--c-header", "ew_words");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "static const uint32_t ew_words[ew_words_word_count] = {");
  CHECK_CONTAINS(r.out, "plan: mul f32 w64");
  cli_result_free(&r);
  r = cli_run("elementwise", "--help");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "--op add|mul|max");
  cli_result_free(&r);
  r = cli_run("run", "elementwise", "--help");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "--type f32|f16|u32|s32");
  cli_result_free(&r);
  r = cli_run("--help");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "elementwise");
  cli_result_free(&r);
}

static void test_bad_flags_are_usage_errors_naming_the_flag(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("elementwise", "--op", "div");
  check_usage_error(&r, "--op: 'div' is not one of add, mul, max", "--op div");
  r = cli_run("elementwise", "--type", "f64");
  check_usage_error(&r, "--type: 'f64'", "--type f64");
  r = cli_run("elementwise", "--local-size", "0");
  check_usage_error(&r, "--local-size: '0'", "--local-size 0");
  r = cli_run("elementwise", "--op");
  check_usage_error(&r, "--op needs a value", "--op without value");
  r = cli_run("elementwise", "--frobnicate");
  check_usage_error(&r, "unknown option '--frobnicate'", "unknown option");
  r = cli_run("elementwise", "-S", "--json");
  check_usage_error(&r, "choose one output", "-S and --json");
  r = cli_run("run", "elementwise", "--size", "0");
  check_usage_error(&r, "--size: '0'", "run --size 0");
  r = cli_run("run", "elementwise", "--caps", "h100");
  check_usage_error(&r, "--caps", "run --caps");
  r = cli_run("run", "gemv");
  check_usage_error(&r, "unknown template 'gemv' (gemm, mlp, elementwise)", "run gemv");
  /* the one parser of every command: --flag=value, a switch given a value, MLP's and the
   * tuner's flags in the same words */
  r = cli_run("elementwise", "--op=div");
  check_usage_error(&r, "--op: 'div' is not one of add, mul, max", "--op=div");
  r = cli_run("elementwise", "--glsl450=1");
  check_usage_error(&r, "--glsl450 takes no value", "--glsl450=1");
  r = cli_run("mlp", "--in", "3", "--out", "2", "--hidden", "3x");
  check_usage_error(&r, "--hidden: '3x' is not WxC", "mlp --hidden 3x");
  r = cli_run("tune", "mlp", "--in", "3", "--out", "2", "--points=0");
  check_usage_error(&r, "--points: '0' must be at least 1", "tune mlp --points=0");
  /* a device refusal is exit 1 naming the limit */
  r = cli_run("elementwise", "--local-size", "1024", "--caps", "vulkan13");
  CHECK_MSG(r.code == 0 || (r.code == 1 && strstr(r.err, "local")), "local size 1024: exit %d: %s", r.code, r.err);
  cli_result_free(&r);
}

static void test_every_op_and_type_runs_and_checks_on_the_device(void) {
  if (!cli_binary()) return;
  static const char *const ops[] = {"add", "mul", "max"};
  static const char *const types[] = {"f32", "f16", "u32", "s32"};
  for (int o = 0; o < 3; o++)
    for (int t = 0; t < 4; t++) {
      cli_result r = cli_run("run", "elementwise", "--op", ops[o], "--type", types[t], "--size", "5000", "--repeats",
                             "1", "--local-size", t == 1 ? "32" : "64");
      if (r.code == 1 && (strstr(r.err, "no Vulkan device") || strstr(r.err, "shaderFloat16") ||
                          strstr(r.err, "16-bit"))) {
        cli_result_free(&r);
        continue; /* this machine lacks the device or the f16 features */
      }
      CHECK_MSG(r.exited && r.code == 0, "run elementwise --op %s --type %s: exit %d\n%s%s", ops[o], types[t], r.code,
                r.out, r.err);
      CHECK_MSG(strstr(r.out, "check    5000 of 5000 elements match") != NULL, "%s %s: %s", ops[o], types[t], r.out);
      cli_result_free(&r);
    }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_the_module_as_file_disassembly_and_json),
      TEST_CASE(test_bad_flags_are_usage_errors_naming_the_flag),
      TEST_CASE(test_every_op_and_type_runs_and_checks_on_the_device),
  };
  const char *cli = getenv("SPVGEN_CLI");
  if (!cli || !cli[0]) {
    printf("SPVGEN_CLI is not set (ctest sets it to the spvgen binary): skipped\n");
    return 77;
  }
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
