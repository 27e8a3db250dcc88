/* tests/vk/test_statistics.c — spvgen_vk_pipeline_statistics: the driver's statistics of
 * a compiled pipeline (VK_KHR_pipeline_executable_properties). What the runner must do
 * is decided here independently of it: the test asks the device itself (through volk)
 * whether it has the extension and the pipelineExecutableInfo feature. With both,
 * statistics must come back (the runner enabled them and captured them); without, the
 * call must refuse with UNSUPPORTED naming the extension. Wrapped contexts never enable
 * it. Argument errors are named either way. Last, gemm_run's one-line summary
 * (tools/common/gemm_run.h, `spvgen run gemm --stats`). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_run.h"
#include "volk.h"
#include "vk_fixture.h"

/* Whether the context's physical device offers the extension with its feature, asked
 * of Vulkan directly (volk's globals were loaded by the context's creation). */
static bool device_has_pipeline_statistics(spvgen_vk_context *ctx) {
  spvgen_vk_handles h;
  spvgen_vk_get_handles(ctx, &h);
  VkInstance inst = (VkInstance)h.instance;
  VkPhysicalDevice pd = (VkPhysicalDevice)h.physical_device;
  PFN_vkEnumerateDeviceExtensionProperties enumerate =
      (PFN_vkEnumerateDeviceExtensionProperties)vkGetInstanceProcAddr(
          inst, "vkEnumerateDeviceExtensionProperties");
  PFN_vkGetPhysicalDeviceFeatures2 features2 =
      (PFN_vkGetPhysicalDeviceFeatures2)vkGetInstanceProcAddr(inst,
                                                              "vkGetPhysicalDeviceFeatures2");
  CHECK(enumerate && features2);
  if (!enumerate || !features2) return false;
  uint32_t n = 0;
  CHECK_EQ_U64(enumerate(pd, NULL, &n, NULL), VK_SUCCESS);
  VkExtensionProperties *e = calloc(n ? n : 1, sizeof *e);
  if (!e) return false;
  VkResult r = enumerate(pd, NULL, &n, e);
  CHECK(r == VK_SUCCESS || r == VK_INCOMPLETE);
  bool ext = false;
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp(e[i].extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME))
      ext = true;
  free(e);
  if (!ext) return false;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pe;
  memset(&pe, 0, sizeof pe);
  pe.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
  VkPhysicalDeviceFeatures2 f2;
  memset(&f2, 0, sizeof f2);
  f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f2.pNext = &pe;
  features2(pd, &f2);
  return pe.pipelineExecutableInfo != VK_FALSE;
}

static spvgen_vk_pipeline *vector_add_pipeline(spvgen_vk_context *ctx, spvgen_module *m) {
  vk_build_vector_add(m, 64);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) return NULL;
  spvgen_vk_pipeline *pipe = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
done:
  return pipe;
}

/* The device decides: statistics with names, or UNSUPPORTED naming the extension. The
 * pipeline still dispatches correctly with statistics captured. */
static void test_statistics_follow_the_device(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = vector_add_pipeline(ctx, m);
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  if (!pipe) goto done;
  bool expected = device_has_pipeline_statistics(ctx);
  printf("  device '%s': VK_KHR_pipeline_executable_properties with pipelineExecutableInfo: %s\n",
         spvgen_vk_caps(ctx)->name, expected ? "yes" : "no");
  spvgen_vk_pipeline_stat stats[64];
  memset(stats, 0, sizeof stats);
  uint32_t count = 12345;
  spvgen_status st = spvgen_vk_pipeline_statistics(ctx, pipe, stats, 64, &count);
  if (expected) {
    CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_pipeline_statistics: %s: %s", spvgen_status_name(st),
              spvgen_vk_error(ctx));
    CHECK(count > 0 && count != 12345);
    for (uint32_t i = 0; i < count && i < 64; i++) {
      CHECK_MSG(stats[i].name[0] != 0, "statistic %u has no name", i);
      CHECK_MSG(strlen(stats[i].name) < sizeof stats[i].name, "statistic %u name unterminated", i);
      CHECK_MSG(strlen(stats[i].description) < sizeof stats[i].description,
                "statistic %u description unterminated", i);
      printf("  %-40s %.15g  (%s)\n", stats[i].name, stats[i].value, stats[i].description);
    }
  } else {
    CHECK_EQ_U64(st, SPVGEN_ERROR_UNSUPPORTED);
    CHECK_EQ_U64(count, 0);
    CHECK_CONTAINS(spvgen_vk_error(ctx), "spvgen_vk_pipeline_statistics");
    CHECK_CONTAINS(spvgen_vk_error(ctx), "VK_KHR_pipeline_executable_properties");
  }

  /* Capturing statistics changes nothing about what the pipeline computes. */
  enum { N = 200 };
  static float a[N], b[N], c[N];
  for (int k = 0; k < N; k++) {
    a[k] = vk_rand_f32();
    b[k] = vk_rand_f32();
  }
  for (int k = 0; k < 3; k++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof a, 0, &bufs[k]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, a, sizeof a));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, b, sizeof b));
  uint32_t n = N;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 3, &n, 4, (N + 63) / 64, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[2], 0, c, sizeof c));
  int bad = 0;
  for (int k = 0; k < N; k++)
    if (c[k] != a[k] + b[k]) bad++;
  CHECK_EQ_U64(bad, 0);
done:
  for (int k = 0; k < 3; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* max 0 with out NULL counts; a short array gets the first max entries, *count all of
 * them, and the same entries as a full query. */
static void test_count_query_and_short_array(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = vector_add_pipeline(ctx, m);
  if (!pipe) goto done;
  if (!device_has_pipeline_statistics(ctx)) {
    uint32_t count = 7;
    VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_statistics(ctx, pipe, NULL, 0, &count),
                    SPVGEN_ERROR_UNSUPPORTED, "VK_KHR_pipeline_executable_properties");
    CHECK_EQ_U64(count, 0);
    test_skip("the device has no VK_KHR_pipeline_executable_properties");
    goto done;
  }
  uint32_t total = 0;
  VK_CHECK(ctx, spvgen_vk_pipeline_statistics(ctx, pipe, NULL, 0, &total));
  CHECK(total > 0);
  spvgen_vk_pipeline_stat *all = calloc(total + 1, sizeof *all);
  CHECK(all != NULL);
  if (!all) goto done;
  uint32_t count = 0;
  VK_CHECK(ctx, spvgen_vk_pipeline_statistics(ctx, pipe, all, total + 1, &count));
  CHECK_EQ_U64(count, total);
  CHECK(all[total].name[0] == 0); /* nothing written past *count */
  if (total >= 2) {
    spvgen_vk_pipeline_stat one[2];
    memset(one, 0, sizeof one);
    count = 0;
    VK_CHECK(ctx, spvgen_vk_pipeline_statistics(ctx, pipe, one, 1, &count));
    CHECK_EQ_U64(count, total);
    CHECK_STR_EQ(one[0].name, all[0].name);
    CHECK(one[0].value == all[0].value || (isnan(one[0].value) && isnan(all[0].value)));
    CHECK(one[1].name[0] == 0); /* max 1: the second entry untouched */
  }
  free(all);
done:
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

static void test_null_arguments_are_named(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_context *other = NULL;
  spvgen_vk_pipeline *pipe = vector_add_pipeline(ctx, m);
  if (!pipe) goto done;
  spvgen_vk_pipeline_stat stats[4];
  uint32_t count = 99;
  CHECK_EQ_U64(spvgen_vk_pipeline_statistics(NULL, pipe, stats, 4, &count),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(count, 0);
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_statistics(ctx, NULL, stats, 4, &count),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_vk_pipeline_statistics: pipeline is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_statistics(ctx, pipe, stats, 4, NULL),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_vk_pipeline_statistics: count is NULL");
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_statistics(ctx, pipe, NULL, 4, &count),
                  SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_vk_pipeline_statistics: out");
  /* A pipeline of another context. */
  other = vk_open(0);
  if (other)
    VK_EXPECT_ERROR(other, spvgen_vk_pipeline_statistics(other, pipe, stats, 4, &count),
                    SPVGEN_ERROR_INVALID_ARGUMENT, "another context");
done:
  spvgen_vk_destroy(other);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

/* A wrapped device may not have the extension enabled: the wrapper never assumes it. */
static void test_wrapped_context_refuses(void) {
  spvgen_vk_context *owner = vk_open(0);
  if (!owner) return;
  spvgen_vk_context *ctx = NULL;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_wrap_desc wd = vk_wrap_desc_of(owner);
  char msg[1024];
  spvgen_status st = spvgen_vk_wrap(&wd, &ctx, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_wrap: %s: %s", spvgen_status_name(st), msg);
  if (st != SPVGEN_OK) goto done;
  spvgen_vk_pipeline *pipe = vector_add_pipeline(ctx, m);
  if (!pipe) goto done;
  uint32_t count = 5;
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_statistics(ctx, pipe, NULL, 0, &count),
                  SPVGEN_ERROR_UNSUPPORTED, "VK_KHR_pipeline_executable_properties");
  CHECK_CONTAINS(spvgen_vk_error(ctx), "wrapped");
  CHECK_EQ_U64(count, 0);
done:
  spvgen_vk_destroy(ctx);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(owner);
}

/* tools/common/gemm_run's summary line: absent unless asked for; with the extension
 * "name=value" pairs, else "unavailable: " and the refusal. The run itself is unaffected. */
static void test_gemm_run_summarizes_statistics(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  bool expected = device_has_pipeline_statistics(ctx);
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = 33;
  d.n = 17;
  d.k = 9;
  d.variant = SPVGEN_GEMM_SIMT;
  gemm_run_options o;
  memset(&o, 0, sizeof o);
  gemm_run_result r;
  char msg[512];
  spvgen_status st = gemm_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "gemm_run: %s", msg);
  CHECK_STR_EQ(r.stats, "");
  o.statistics = true;
  st = gemm_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "gemm_run with statistics: %s", msg);
  if (st != SPVGEN_OK) goto done;
  CHECK_EQ_U64(r.bad, 0);
  CHECK(strlen(r.stats) < sizeof r.stats);
  printf("  stats: %s\n", r.stats);
  if (expected) {
    CHECK_MSG(strncmp(r.stats, "unavailable", 11) != 0, "stats: %s", r.stats);
    CHECK_MSG(strchr(r.stats, '=') != NULL, "stats: %s", r.stats);
  } else {
    CHECK_CONTAINS(r.stats, "unavailable: ");
    CHECK_CONTAINS(r.stats, "VK_KHR_pipeline_executable_properties");
  }
done:
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  int present = vk_test_device_present();
  if (present) return present;
  static const test_case tests[] = {
      TEST_CASE(test_statistics_follow_the_device),
      TEST_CASE(test_count_query_and_short_array),
      TEST_CASE(test_null_arguments_are_named),
      TEST_CASE(test_wrapped_context_refuses),
      TEST_CASE(test_gemm_run_summarizes_statistics),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
