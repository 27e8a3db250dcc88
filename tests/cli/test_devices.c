/* tests/cli/test_devices.c — `spvgen devices`: the devices of this machine (lavapipe in
 * CI), no driver at all, the offline presets, and the H100 preset against what the real
 * H100 reported (tests/data/h100-devices.json, recorded with `spvgen devices --json` on
 * the GPU machine, 2026-11-22). */
#define _GNU_SOURCE
#include <stdlib.h>

#include "cli_run.h"
#include "harness.h"
#include "spvgen/vk.h"

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
  if (!cli_binary()) return;
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
  if (!cli_binary()) return;
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

/* The first device the runner sees, or a skip when there is none. */
static bool first_device(spvgen_device_caps *caps) {
  uint32_t count = 0;
  char msg[512];
  if (spvgen_vk_enumerate(caps, 1, &count, msg, sizeof msg) != SPVGEN_OK || count == 0) {
    test_skip("no Vulkan device here (%s)", count ? "" : msg);
    return false;
  }
  return true;
}

static void test_devices_lists_every_device_with_its_cooperative_caps(void) {
  if (!cli_binary()) return;
  spvgen_device_caps caps;
  if (!first_device(&caps)) return;
  cli_result r = cli_run("devices");
  if (!r.ran) {
    test_skip("SPVGEN_CLI is not set");
    cli_result_free(&r);
    return;
  }
  CHECK(r.exited);
  CHECK_EQ_U64(r.code, 0);
  char head[300];
  snprintf(head, sizeof head, "[0] %s\n", caps.name);
  CHECK_CONTAINS(r.out, head);
  CHECK_CONTAINS(r.out, "  features   ");
  CHECK_CONTAINS(r.out, "  cooperative matrix");
  CHECK_CONTAINS(r.out, "  cooperative vector");
  cli_result_free(&r);

  r = cli_run("devices", "--json");
  CHECK(r.ran && r.exited);
  CHECK_EQ_U64(r.code, 0);
  snprintf(head, sizeof head, "\"name\": \"%s\"", caps.name);
  CHECK_CONTAINS(r.out, "{\n  \"devices\": [");
  CHECK_CONTAINS(r.out, head);
  CHECK_EQ_U64(r.err[0], 0);
  cli_result_free(&r);
}

/* Points the Vulkan loader of child processes at a driver file that does not exist, and
 * back. */
static char *g_saved_icd, *g_saved_drv;
static void hide_drivers(void) {
  g_saved_icd = getenv("VK_ICD_FILENAMES") ? strdup(getenv("VK_ICD_FILENAMES")) : NULL;
  g_saved_drv = getenv("VK_DRIVER_FILES") ? strdup(getenv("VK_DRIVER_FILES")) : NULL;
  setenv("VK_ICD_FILENAMES", "/nonexistent/icd.json", 1);
  setenv("VK_DRIVER_FILES", "/nonexistent/icd.json", 1);
}
static void restore_drivers(void) {
  if (g_saved_icd) setenv("VK_ICD_FILENAMES", g_saved_icd, 1);
  else unsetenv("VK_ICD_FILENAMES");
  if (g_saved_drv) setenv("VK_DRIVER_FILES", g_saved_drv, 1);
  else unsetenv("VK_DRIVER_FILES");
  free(g_saved_icd);
  free(g_saved_drv);
  g_saved_icd = g_saved_drv = NULL;
}

/* No driver at all: exit 1 with the reason on stderr, and nothing on stdout (so a
 * script reading --json never parses half an answer). */
static void test_devices_without_a_driver_exits_1_with_the_reason(void) {
  if (!cli_binary()) return;
  hide_drivers();
  for (int json = 0; json < 2; json++) {
    cli_result r = json ? cli_run("devices", "--json") : cli_run("devices");
    if (!r.ran) {
      test_skip("SPVGEN_CLI is not set");
      cli_result_free(&r);
      break;
    }
    CHECK(r.exited);
    CHECK_EQ_U64(r.code, 1);
    CHECK_CONTAINS(r.err, "spvgen devices: ");
    CHECK_CONTAINS(r.err, "SPVGEN_ERROR_NO_DEVICE");
    CHECK_EQ_U64(r.out[0], 0);
    cli_result_free(&r);
  }
  restore_drivers();
}

/* `spvgen demo` without a device: a skip (exit 0, saying so) by default; a failure with
 * --require-device or SPVGEN_GPU_REQUIRED=1, so a GPU run cannot pass without its GPU. */
static void test_demo_without_a_device_skips_unless_a_device_is_required(void) {
  if (!cli_binary()) return;
  hide_drivers();
  cli_result r = cli_run("demo", "--quiet", "--n", "10");
  if (!r.ran) {
    test_skip("SPVGEN_CLI is not set");
  } else {
    CHECK(r.exited);
    CHECK_EQ_U64(r.code, 0);
    CHECK_CONTAINS(r.out, "run: skipped, no Vulkan device here");
    cli_result_free(&r);
    r = cli_run("demo", "--quiet", "--n", "10", "--require-device");
    CHECK(r.exited);
    CHECK_EQ_U64(r.code, 1);
    CHECK_CONTAINS(r.err, "spvgen demo: spvgen_vk_create: no Vulkan driver");
    cli_result_free(&r);
    setenv("SPVGEN_GPU_REQUIRED", "1", 1);
    r = cli_run("demo", "--quiet", "--n", "10");
    unsetenv("SPVGEN_GPU_REQUIRED");
    CHECK(r.exited);
    CHECK_EQ_U64(r.code, 1);
  }
  cli_result_free(&r);
  restore_drivers();
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_devices_lists_every_device_with_its_cooperative_caps),
      TEST_CASE(test_devices_without_a_driver_exits_1_with_the_reason),
      TEST_CASE(test_demo_without_a_device_skips_unless_a_device_is_required),
      TEST_CASE(test_h100_preset_equals_the_measured_device),
      TEST_CASE(test_unknown_preset_is_a_usage_error_naming_it),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
