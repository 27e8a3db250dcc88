/* tests/cli/test_devices.c — `spvgen devices`: the offline presets, and the H100 preset
 * against what the real H100 reported (tests/data/h100-devices.json, recorded with
 * `spvgen devices --json` on the GPU machine, 2026-11-22). */
#define _GNU_SOURCE
#include <stdlib.h>

#include "cli_run.h"
#include "harness.h"

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
    free(s);
    s = NULL;
  }
  if (s) s[n] = 0;
  fclose(f);
  return s;
}

static void test_h100_preset_equals_the_measured_device(void) {
  const char *src = getenv("SPVGEN_SOURCE_DIR");
  if (!src) {
    test_skip("SPVGEN_SOURCE_DIR is not set");
    return;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/data/h100-devices.json", src);
  char *want = read_text(path);
  CHECK_MSG(want != NULL, "cannot read %s", path);
  cli_result r = cli_run("devices", "--json", "--preset", "h100");
  CHECK(r.ran && r.exited);
  CHECK_EQ_U64(r.code, 0);
  /* The measured file lists the device at index 0, as the preset does. */
  if (want) CHECK_STR_EQ(r.out, want);
  free(want);
  cli_result_free(&r);
}

static void test_unknown_preset_is_a_usage_error_naming_it(void) {
  cli_result r = cli_run("devices", "--preset", "no-such-gpu");
  if (!r.ran) {
    test_skip("SPVGEN_CLI is not set");
    cli_result_free(&r);
    return;
  }
  CHECK(r.exited);
  CHECK_NE_U64(r.code, 0);
  CHECK_CONTAINS(r.err, "no-such-gpu");
  cli_result_free(&r);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_h100_preset_equals_the_measured_device),
      TEST_CASE(test_unknown_preset_is_a_usage_error_naming_it),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
