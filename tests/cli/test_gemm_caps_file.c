/* tests/cli/test_gemm_caps_file.c — `spvgen gemm --caps FILE`: a caps file written by
 * `spvgen devices --json` (here from the h100 preset, and the one recorded on the real
 * H100 in tests/data) emits the same module as the preset; broken files are refused with
 * a message naming what is wrong, exit 1. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "harness.h"

static char *emit(const char *caps, size_t *size) {
  const char *out = cli_path(caps[0] == 'h' ? "preset.spv" : "file.spv");
  cli_result r = cli_run("gemm", "--m", "999", "--n", "777", "--k", "555", "--types", "s8,s32", "--caps", caps, "-o", out);
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
  return cli_read(out, size);
}

static void test_caps_file_round_trips_the_preset(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("devices", "--json", "--preset", "h100");
  CHECK_EXIT(r, 0);
  const char *json = cli_write("h100.json", r.out, strlen(r.out));
  cli_result_free(&r);
  size_t a = 0, b = 0, c = 0;
  char *preset = emit("h100", &a);
  char *file = emit(json, &b);
  char recorded_path[1024];
  snprintf(recorded_path, sizeof recorded_path, "%s/tests/data/h100-devices.json", getenv("SPVGEN_SOURCE_DIR"));
  char *recorded = emit(recorded_path, &c);
  CHECK(preset && file && recorded && a > 100 && a == b && a == c);
  CHECK(preset && file && !memcmp(preset, file, a));
  CHECK(preset && recorded && a == c && !memcmp(preset, recorded, a));
  free(preset);
  free(file);
  free(recorded);
}

static void test_broken_caps_files_are_refused(void) {
  if (!cli_binary()) return;
  static const struct { const char *json, *message; } cases[] = {
      {"{\"devices\": []}", "\"devices\" is empty"},
      {"[1, 2]", "not a JSON object"},
      {"{\"devices\": [{\"name\": \"x\", \"max_workgroup_invocations\": 64, \"features\": [\"warpDrive\"]}]}",
       "unknown feature \"warpDrive\""},
      {"{\"devices\": [{\"name\": \"x\", \"max_workgroup_invocations\": \"many\"}]}",
       "\"max_workgroup_invocations\": expected an unsigned 32-bit integer"},
      {"{\"devices\": [{\"name\": \"x\", \"max_workgroup_invocations\": 64.5}]}",
       "\"max_workgroup_invocations\": expected an unsigned 32-bit integer"},
      {"{\"devices\": [{\"name\": \"x\", \"max_buffer_size\": 1e27}]}",
       "\"max_buffer_size\": expected an unsigned 64-bit integer"},
      {"{\"devices\": [{\"name\": \"x\"", "expected"},
      {"{\"other\": 1}", "no \"devices\" array"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *path = cli_write("bad.json", cases[i].json, strlen(cases[i].json));
    cli_result r = cli_run("gemm", "--m", "9", "--n", "9", "--k", "9", "--caps", path, "-o", cli_path("x.spv"));
    CHECK_EXIT(r, 1);
    CHECK_CONTAINS(r.err, "spvgen gemm: --caps ");
    CHECK_CONTAINS(r.err, cases[i].message);
    cli_result_free(&r);
  }
  cli_result r = cli_run("gemm", "--m", "9", "--n", "9", "--k", "9", "--caps", "no-such-preset-or-file");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "is neither a preset nor a readable caps file");
  cli_result_free(&r);
  /* The MLP commands read caps the same way (one reader, spvgen_cli_resolve_caps), the
   * parser's message included. */
  const char *path = cli_write("bad.json", cases[0].json, strlen(cases[0].json));
  r = cli_run("mlp", "--in", "4", "--hidden", "16x1", "--out", "4", "--caps", path, "-o", cli_path("x.spv"));
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "spvgen mlp: --caps ");
  CHECK_CONTAINS(r.err, cases[0].message);
  cli_result_free(&r);
  r = cli_run("mlp", "--in", "4", "--hidden", "16x1", "--out", "4", "--caps", "no-such-preset-or-file");
  CHECK_EXIT(r, 2);
  CHECK_CONTAINS(r.err, "is neither a preset nor a readable caps file");
  cli_result_free(&r);
}

/* shared/repro/2026-11-26: caps files with a zero coopmat2 granularity or a zero KHR K
 * were a SIGFPE (exit 136) in the planner; now exit 1 naming the field. */
static void test_caps_files_with_a_zero_granularity_or_shape_are_refused_naming_it(void) {
  if (!cli_binary()) return;
  static const struct {
    const char *file, *variant, *field;
  } cases[] = {
      {"caps-flex-granularity0.json", "auto", "coopmat_flex[0].m_granularity 0 is not 1 to 256"},
      {"caps-flex-granularity0.json", "coopmat2", "coopmat_flex[0].m_granularity 0"},
      {"caps-coopmat-k0.json", "khr", "coopmat[0].k 0 is not 1 to 256"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/repro-2026-11-26/%s", getenv("SPVGEN_SOURCE_DIR"),
             cases[i].file);
    cli_result r = cli_run("gemm", "--m", "64", "--n", "64", "--k", "64", "--variant", cases[i].variant,
                           "--caps", path, "-o", cli_path("out.spv"));
    CHECK_EXIT(r, 1);
    CHECK_CONTAINS(r.err, cases[i].field);
    cli_result_free(&r);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_caps_file_round_trips_the_preset),
      TEST_CASE(test_broken_caps_files_are_refused),
      TEST_CASE(test_caps_files_with_a_zero_granularity_or_shape_are_refused_naming_it),
  };
  int rc = test_main(argc, argv, tests, TEST_COUNT(tests));
  cli_cleanup();
  return rc;
}
