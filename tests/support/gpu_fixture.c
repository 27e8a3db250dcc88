/* tests/support/gpu_fixture.c — see gpu_fixture.h. */
#include "gpu_fixture.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module_check.h"
#include "spvgen/caps.h"
#include "ref_tensor.h"

const char *test_device_name(void) { return getenv("SPVGEN_VK_DEVICE"); }

spvgen_vk_context *vk_open_at(const char *file, int line, uint64_t required) {
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = test_device_name();
  desc.required_features = required;
  /* Five minutes per submission, not the library's 60 s: on lavapipe the CPU runs the
   * kernels, and a loaded 2-core machine once took over a minute for one submission of
   * the emulated mat MLP test (a fresh-clone run beside a full test suite). ctest's own
   * timeouts still catch a hang. */
  desc.timeout_ms = 300000;
  char msg[1024] = "";
  spvgen_vk_context *ctx = NULL;
  spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE || st == SPVGEN_ERROR_MISSING_FEATURE) {
    test_skip("%s", msg);
    return NULL;
  }
  if (st != SPVGEN_OK) {
    test_fail_at(file, line, "spvgen_vk_create: %s: %s", spvgen_status_name(st), msg);
    return NULL;
  }
  return ctx;
}

int gpu_required(void) {
  const char *e = getenv("SPVGEN_GPU_REQUIRED");
  return e && *e && strcmp(e, "0") != 0;
}

void gpu_unavailable_at(const char *file, int line, const char *fmt, ...) {
  char why[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  if (gpu_required())
    test_fail_at(file, line, "%s (and SPVGEN_GPU_REQUIRED is set)", why);
  else
    test_skip("%s", why);
}

spvgen_vk_context *gpu_open_at(const char *file, int line, uint64_t needed) {
  char msg[1024] = "";
  spvgen_vk_desc desc = {0};
  if (getenv("SPVGEN_GPU_DEVICE")) {
    test_fail_at(file, line, "SPVGEN_GPU_DEVICE is set: the test device is now named by "
                             "SPVGEN_VK_DEVICE, for every test");
    return NULL;
  }
  desc.device_name = test_device_name();
  spvgen_vk_context *ctx = NULL;
  spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE) {
    gpu_unavailable_at(file, line, "no Vulkan device: %s", msg);
    return NULL;
  }
  if (st != SPVGEN_OK) {
    test_fail_at(file, line, "spvgen_vk_create: %s: %s", spvgen_status_name(st), msg);
    return NULL;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  uint64_t missing = needed & ~caps->features;
  if (missing) {
    uint64_t f = spvgen_feature_first(missing);
    gpu_unavailable_at(file, line, "device \"%s\" lacks %s (%s)", caps->name,
                       spvgen_feature_name(f), spvgen_feature_source(f));
    spvgen_vk_destroy(ctx);
    return NULL;
  }
  return ctx;
}

float gpu_rand_f32(void) {
  float v = test_rand_float(0.125f, 1.0f);
  return (test_rand_u32() & 1) ? -v : v;
}

uint16_t gpu_rand_f16(void) { return (uint16_t)tensor_ref_encode(TENSOR_REF_F16, gpu_rand_f32()); }

double gpu_f16_value(uint16_t bits) { return tensor_ref_decode(TENSOR_REF_F16, bits); }

spvgen_status gemm_dispatch_wait(spvgen_vk_context *ctx, spvgen_vk_pipeline *pl, const spvgen_vk_buffer_range *r,
                                 uint32_t n, const spvgen_gemm_launch *l) {
  spvgen_vk_record_desc rd = {.pipeline = pl, .buffers = r, .buffer_count = n,
                              .push_data = l->push_size ? &l->push : NULL, .push_size = l->push_size,
                              .groups = {l->groups[0], l->groups[1], l->groups[2]}};
  spvgen_vk_submit_desc sd = {.dispatches = &rd, .count = 1};
  uint64_t t = 0;
  spvgen_status st = spvgen_vk_submit(ctx, &sd, &t);
  return st == SPVGEN_OK ? spvgen_vk_wait(ctx, t) : st;
}
