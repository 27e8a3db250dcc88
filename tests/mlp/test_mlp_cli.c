/* tests/mlp/test_mlp_cli.c — `spvgen mlp` and `spvgen run mlp`: a module for the h100
 * preset that validates, JSON with the weight layout, disassembly, usage errors, the
 * plan's refusal as exit 1, and a run on the CI device checking every output. */
#define _POSIX_C_SOURCE 200809L
#include "../cli/cli_run.h"

static void test_mlp_emits_a_valid_module_for_h100(void) {
  const char *path = cli_path("net.spv");
  cli_result r = cli_run("mlp", "--in", "32", "--hidden", "64x4", "--out", "16", "--act", "relu", "--types",
                         "f16", "--caps", "h100", "-o", path);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.err, "vec 32-64x4-16 relu f16");
  cli_result_free(&r);
  r = cli_run("val", path);
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--hidden", "17,33", "--out", "1", "--encoding", "oneblob:8", "--caps",
              "vulkan13", "--json");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "\"variant\": \"loop\"");
  CHECK_CONTAINS(r.out, "\"encoded_width\": 24");
  CHECK_CONTAINS(r.out, "{\"inputs\": 24, \"outputs\": 17, \"row_stride\": 48, \"matrix_offset\": 0");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "2", "--out", "2", "--encoding", "freq:2", "--caps", "h100", "-S");
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "OpCooperativeVectorMatrixMulAddNV");
  cli_result_free(&r);
}

static void test_mlp_usage_and_refusals(void) {
  cli_result r = cli_run("mlp", "--in", "3");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "--in and --out are required");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--act", "gelu");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "unknown activation 'gelu'");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--types", "e4m3", "--caps", "h100");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "weight_type e4m3: only f16 weights");
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "3", "--out", "2", "--variant", "vec", "--caps", "vulkan13");
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "the vec variant needs cooperativeVector");
  cli_result_free(&r);
}

static void test_run_mlp_checks_every_output(void) {
  cli_result r = cli_run("run", "mlp", "--in", "3", "--hidden", "16x2", "--out", "4", "--act", "tanh",
                         "--encoding", "freq:3", "--points", "500");
  if (r.exited && r.code == 1 && strstr(r.err, "no Vulkan device")) {
    test_skip("no Vulkan device");
    cli_result_free(&r);
    return;
  }
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "check    2000 of 2000 outputs match");
  cli_result_free(&r);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mlp_emits_a_valid_module_for_h100),
      TEST_CASE(test_mlp_usage_and_refusals),
      TEST_CASE(test_run_mlp_checks_every_output),
  };
  int rc = test_main(argc, argv, tests, TEST_COUNT(tests));
  cli_cleanup();
  return rc;
}
