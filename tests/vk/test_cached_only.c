/* tests/vk/test_cached_only.c — creates that cost no compile
 * (spvgen_vk_pipeline_options.cached_only): a pipeline in no cache is refused with
 * SPVGEN_ERROR_NOT_CACHED and nothing is created (single, batch and background creates);
 * one the kernel cache holds in process is created and runs right; in a new context on the
 * same disk cache the driver decides (lavapipe compiles again: refused; NVIDIA's driver
 * takes it from the VkPipelineCache) and either answer leaves a working context; a
 * wrapped context knows whether pipelineCreationCacheControl is on only from the
 * caller's VkDeviceCreateInfo chain, and says so when it is not. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h> /* a caller's VkPhysicalDeviceVulkan13Features, for the wrapped case */

#include "spvgen/elementwise.h"
#include "vk_fixture.h"

enum { N = 777 }; /* not a multiple of the workgroup */

static bool make_kernel(spvgen_vk_context *ctx, spvgen_elementwise_op op, spvgen_kernel *k) {
  return vk_elementwise_kernel(ctx, op, k);
}

/* c = a + b over N random elements with p, every element checked against the CPU. */
static void run_matches_cpu(spvgen_vk_context *ctx, spvgen_vk_pipeline *p) {
  vk_elementwise_matches_cpu(ctx, p, SPVGEN_ELEMENTWISE_ADD, N);
}

static const spvgen_vk_pipeline_options CACHED_ONLY = {.cached_only = true};

/* In one context: refused before the first compile (nothing created, nothing counted),
 * served from the kernel cache after it. */
static void in_process(void) {
  spvgen_vk_context *ctx = vk_open_cached(NULL);
  if (!ctx) return;
  spvgen_kernel add = {0};
  spvgen_vk_pipeline *p = NULL, *q = NULL;
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_ADD, &add)) goto done;
  spvgen_vk_kernel_cache_stats s0, s1, s2;
  spvgen_vk_kernel_cache_stats_get(ctx, &s0);
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create_kernel(ctx, &add, &CACHED_ONLY, &q), SPVGEN_ERROR_NOT_CACHED,
                  "cached_only");
  CHECK(q == NULL);
  spvgen_vk_kernel_cache_stats_get(ctx, &s1);
  CHECK_EQ_U64(s1.compiled, s0.compiled);
  CHECK_EQ_U64(s1.reused, s0.reused);
  CHECK_EQ_U64(s1.pipelines, s0.pipelines);
  /* compiled once, then a cached-only create of the same words is a reuse */
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &add, NULL, &p));
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &add, &CACHED_ONLY, &q));
  spvgen_vk_kernel_cache_stats_get(ctx, &s2);
  CHECK_EQ_U64(s2.compiled, s1.compiled + 1);
  CHECK_EQ_U64(s2.reused, s1.reused + 1);
  spvgen_vk_pipeline_destroy(p);
  p = NULL;
  run_matches_cpu(ctx, q);
done:
  spvgen_vk_pipeline_destroy(p);
  spvgen_vk_pipeline_destroy(q);
  spvgen_kernel_free(&add);
  spvgen_vk_destroy(ctx);
}

/* A batch is all or nothing: one request in no cache refuses the batch, the cached one
 * included; a background create's refusal comes at finish. */
static void batch_and_background(void) {
  spvgen_vk_context *ctx = vk_open_cached(NULL);
  if (!ctx) return;
  spvgen_kernel add = {0}, mul = {0};
  spvgen_vk_pipeline *p = NULL, *out[2] = {NULL, NULL};
  spvgen_vk_compile *c = NULL;
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_ADD, &add) || !make_kernel(ctx, SPVGEN_ELEMENTWISE_MUL, &mul)) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &add, NULL, &p)); /* add is cached, mul is not */
  spvgen_vk_pipeline_request rq[2] = {{add.words, add.word_count, &add.info, &CACHED_ONLY},
                                      {mul.words, mul.word_count, &mul.info, &CACHED_ONLY}};
  VK_EXPECT_ERROR(ctx, spvgen_vk_pipelines_create(ctx, rq, 2, 2, out), SPVGEN_ERROR_NOT_CACHED, "request 1");
  CHECK(out[0] == NULL && out[1] == NULL);
  VK_CHECK(ctx, spvgen_vk_pipelines_create(ctx, rq, 1, 1, out)); /* add alone: served */
  CHECK(out[0] != NULL);
  VK_CHECK(ctx, spvgen_vk_pipeline_create_async(ctx, &rq[1], &c));
  spvgen_vk_pipeline *got = NULL;
  VK_EXPECT_ERROR(ctx, spvgen_vk_compile_finish(c, &got, NULL), SPVGEN_ERROR_NOT_CACHED, "cached_only");
  c = NULL;
  CHECK(got == NULL);
  /* the refusals left the context working: mul compiles and runs */
  spvgen_vk_pipeline *pm = NULL;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &mul, NULL, &pm));
  spvgen_vk_pipeline_destroy(pm);
  if (out[0]) run_matches_cpu(ctx, out[0]);
done:
  spvgen_vk_compile_cancel(c);
  spvgen_vk_pipeline_destroy(out[0]);
  spvgen_vk_pipeline_destroy(out[1]);
  spvgen_vk_pipeline_destroy(p);
  spvgen_kernel_free(&add);
  spvgen_kernel_free(&mul);
  spvgen_vk_destroy(ctx);
}

/* A new context on the disk cache one context wrote: the driver decides whether that is a
 * compile. Either answer is legal; a pipeline it gives runs right, a refusal is the
 * driver's (the message says the driver would compile), never the context's. */
static void new_context_same_disk_cache(void) {
  char dir[] = "/tmp/spvgen-cached-only-XXXXXX";
  if (!mkdtemp(dir)) {
    test_fail_at(__FILE__, __LINE__, "mkdtemp failed");
    return;
  }
  spvgen_kernel add = {0};
  spvgen_vk_pipeline *p = NULL;
  spvgen_vk_context *ctx = vk_open_cached(dir);
  if (!ctx) goto out;
  if (!make_kernel(ctx, SPVGEN_ELEMENTWISE_ADD, &add)) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &add, NULL, &p));
  spvgen_vk_pipeline_destroy(p);
  p = NULL;
  VK_CHECK(ctx, spvgen_vk_kernel_cache_save(ctx));
  spvgen_vk_destroy(ctx);
  ctx = vk_open_cached(dir);
  if (!ctx) goto out;
  spvgen_status st = spvgen_vk_pipeline_create_kernel(ctx, &add, &CACHED_ONLY, &p);
  CHECK_MSG(st == SPVGEN_OK || st == SPVGEN_ERROR_NOT_CACHED, "%s: %s", spvgen_status_name(st), spvgen_vk_error(ctx));
  if (st == SPVGEN_OK) {
    printf("  the driver (%s) took the pipeline from the disk cache without a compile\n",
           spvgen_vk_caps(ctx)->driver_name);
    run_matches_cpu(ctx, p);
  } else {
    printf("  the driver (%s) asks to compile again: %s\n", spvgen_vk_caps(ctx)->driver_name, spvgen_vk_error(ctx));
    CHECK_CONTAINS(spvgen_vk_error(ctx), "the driver would compile");
    VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &add, NULL, &p));
    run_matches_cpu(ctx, p);
  }
done:
  spvgen_vk_pipeline_destroy(p);
  spvgen_vk_destroy(ctx);
out:
  spvgen_kernel_free(&add);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* Wrapped: with only enabled_features (no chain) the context cannot know that
 * pipelineCreationCacheControl is on and refuses with that reason; with a chain that
 * enables it, the driver is asked (the same device, which enabled it where supported). */
static void wrapped(void) {
  spvgen_vk_context *owner = vk_open_cached(NULL);
  if (!owner) return;
  spvgen_vk_context *a = NULL, *b = NULL;
  spvgen_kernel add = {0};
  spvgen_vk_pipeline *p = NULL;
  if (!make_kernel(owner, SPVGEN_ELEMENTWISE_ADD, &add)) goto done;
  spvgen_vk_wrap_desc wd = vk_wrap_desc_of(owner);
  char msg[1024];
  spvgen_status st = spvgen_vk_wrap(&wd, &a, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_wrap: %s", msg);
  if (st != SPVGEN_OK) goto done;
  VK_EXPECT_ERROR(a, spvgen_vk_pipeline_create_kernel(a, &add, &CACHED_ONLY, &p), SPVGEN_ERROR_NOT_CACHED,
                  "pipelineCreationCacheControl is not enabled");
  const spvgen_device_caps *caps = spvgen_vk_caps(owner);
  if (caps->api_version < ((1u << 22) | (3u << 12))) {
    printf("  a Vulkan %u.%u device: the chain case needs 1.3\n", caps->api_version >> 22,
           (caps->api_version >> 12) & 0x3ff);
    goto done;
  }
  VkPhysicalDeviceVulkan13Features v13;
  memset(&v13, 0, sizeof v13);
  v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  v13.pipelineCreationCacheControl = VK_TRUE;
  /* the caller's chain: the features the owner enabled, then its Vulkan 1.3 struct */
  spvgen_vk_feature_chain chain;
  void **tail = NULL;
  wd.device_create_info = spvgen_vk_features_chain(caps->features, caps->api_version, false, &chain, &tail, NULL, 0,
                                                   NULL);
  CHECK(wd.device_create_info != NULL && tail != NULL);
  if (!tail) goto done;
  *tail = &v13;
  st = spvgen_vk_wrap(&wd, &b, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_wrap: %s", msg);
  if (st != SPVGEN_OK) goto done;
  st = spvgen_vk_pipeline_create_kernel(b, &add, &CACHED_ONLY, &p);
  CHECK_MSG(st == SPVGEN_OK || st == SPVGEN_ERROR_NOT_CACHED, "%s: %s", spvgen_status_name(st), spvgen_vk_error(b));
  if (st == SPVGEN_ERROR_NOT_CACHED) CHECK_CONTAINS(spvgen_vk_error(b), "the driver would compile");
done:
  spvgen_vk_pipeline_destroy(p);
  spvgen_kernel_free(&add);
  spvgen_vk_destroy(a);
  spvgen_vk_destroy(b);
  spvgen_vk_destroy(owner);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(in_process),
      TEST_CASE(batch_and_background),
      TEST_CASE(new_context_same_disk_cache),
      TEST_CASE(wrapped),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
