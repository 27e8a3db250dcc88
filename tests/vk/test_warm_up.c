/* tests/vk/test_warm_up.c — spvgen_vk_warm_up, the runner's warm-up before timing (the
 * tuner's and the tools'): it runs the dispatches back to back for at least min_ms and
 * stops at the limit when timings never settle, leaves the kernel's results as they
 * would be, does nothing for min_ms 0, and names bad arguments. Whether it reaches the
 * GPU's working clocks is measured on the GPU (bench/results/slowmode-2026-11-27-s15.md);
 * lavapipe has no clock to raise. */
#include <stdio.h>
#include <string.h>

#include "vk_fixture.h"

static void test_warm_up_runs_min_ms_and_names_bad_arguments(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  spvgen_vk_pipeline *pipe = NULL;
  enum { N = 4096 };
  static float a[N], b[N], c[N];
  vk_build_vector_add(m, 64);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  for (int k = 0; k < N; k++) a[k] = vk_rand_f32(), b[k] = vk_rand_f32();
  for (int k = 0; k < 3; k++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof a, 0, &bufs[k]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, a, sizeof a));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, b, sizeof b));
  uint32_t n = N;
  spvgen_vk_dispatch_desc dd;
  memset(&dd, 0, sizeof dd);
  dd.pipeline = pipe;
  dd.buffers = bufs;
  dd.buffer_count = 3;
  dd.push_data = &n;
  dd.push_size = 4;
  dd.groups[0] = N / 64;

  spvgen_vk_warm_up_info info;
  spvgen_vk_warm_up_desc wd;
  memset(&wd, 0, sizeof wd);
  /* bad arguments, by name; info cleared */
  memset(&info, 0xff, sizeof info);
  VK_EXPECT_ERROR(ctx, spvgen_vk_warm_up(ctx, NULL, &info), SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_vk_warm_up: desc");
  CHECK_EQ_U64(info.batches, 0);
  wd.count = 1;
  VK_EXPECT_ERROR(ctx, spvgen_vk_warm_up(ctx, &wd, NULL), SPVGEN_ERROR_INVALID_ARGUMENT, "dispatches is NULL");
  wd.dispatches = &dd;
  wd.count = 3;
  wd.group = 2;
  wd.min_ms = 10;
  VK_EXPECT_ERROR(ctx, spvgen_vk_warm_up(ctx, &wd, NULL), SPVGEN_ERROR_INVALID_ARGUMENT,
                  "count 3 is not a multiple of group 2");
  CHECK_EQ_U64(spvgen_vk_warm_up(NULL, &wd, NULL), SPVGEN_ERROR_INVALID_ARGUMENT);
  /* min_ms 0: nothing runs */
  wd.count = 1;
  wd.group = 0;
  wd.min_ms = 0;
  VK_CHECK(ctx, spvgen_vk_warm_up(ctx, &wd, &info));
  CHECK_EQ_U64(info.batches, 0);
  CHECK(info.ms == 0);
  /* 60 ms at least; steady (two full batches 500 ms apart within 2 %), or stopped at the
   * 700 ms limit: lavapipe's CPU timings may never settle */
  wd.min_ms = 60;
  wd.limit_ms = 700;
  VK_CHECK(ctx, spvgen_vk_warm_up(ctx, &wd, &info));
  CHECK_MSG(info.ms >= 60, "ran %.1f ms", info.ms);
  CHECK_MSG(info.batches >= 2, "%u batches", info.batches);
  CHECK_MSG(info.last_ns > 0, "last_ns %.1f", info.last_ns);
  CHECK_MSG(info.steady ? info.ms >= 500 : info.ms >= 700, "steady %d after %.1f ms", info.steady, info.ms);
  printf("  warm-up: %.1f ms, %u batches, %.0f ns per dispatch, %s\n", info.ms, info.batches, info.last_ns,
         info.steady ? "steady" : "at the limit");
  /* the kernel's results are what one dispatch leaves */
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[2], 0, c, sizeof c));
  int bad = 0;
  for (int k = 0; k < N; k++) bad += c[k] != a[k] + b[k];
  CHECK_EQ_U64(bad, 0);
done:
  for (int k = 0; k < 3; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  int present = vk_test_device_present();
  if (present) return present;
  static const test_case tests[] = {
      TEST_CASE(test_warm_up_runs_min_ms_and_names_bad_arguments),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
