/* tests/vk/vk_fixture.h — what the runner tests share: an expected-error macro for runner calls, and builders for the small
 * compute kernels the tests run (vector add, with push constants and a bounds check).
 * VK_CHECK and the random inputs come from tests/support/gpu_fixture.h.
 *
 * Device: vk_open (tests/support/gpu_fixture.h) on the runner's default choice, or the one
 * whose name contains $SPVGEN_VK_DEVICE. In CI that is lavapipe (subgroup size 8, no
 * cooperative features). */
#ifndef SPVGEN_TEST_VK_FIXTURE_H
#define SPVGEN_TEST_VK_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/elementwise.h"
#include "spvgen/vk.h"

/* Exit status of a test binary that skipped everything (ctest SKIP_RETURN_CODE). */
#define VK_TEST_SKIP_ALL 77

/* For main(): 0 when some Vulkan device exists, else prints why and returns 77. */
static inline int vk_test_device_present(void) {
  char msg[1024];
  uint32_t count = 0;
  spvgen_status st = spvgen_vk_enumerate(NULL, 0, &count, msg, sizeof msg);
  if (st == SPVGEN_OK && count > 0) return 0;
  printf("SKIP all: no Vulkan device (%s): %s\n", spvgen_status_name(st),
         st == SPVGEN_OK ? "the loader lists no physical device" : msg);
  return VK_TEST_SKIP_ALL;
}

/* Expects `call` to fail with `status` and the context's message to contain `text`. */
#define VK_EXPECT_ERROR(ctx, call, status, text)                                             \
  do {                                                                                       \
    spvgen_status vk_st_ = (call);                                                           \
    CHECK_MSG(vk_st_ == (status), "%s returned %s, expected %s (message: %s)", #call,        \
              spvgen_status_name(vk_st_), spvgen_status_name(status), spvgen_vk_error(ctx)); \
    CHECK_CONTAINS(spvgen_vk_error(ctx), (text));                                            \
  } while (0)

/* A push constant block `struct { uint32 v[count]; }` (Block, offsets 0, 4, ...);
 * returns the variable; *member_ptr gets the PushConstant pointer-to-uint type. */
static inline uint32_t vk_push_constants_u32(spvgen_module *m, uint32_t count,
                                             uint32_t *member_ptr) {
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t members[8];
  for (uint32_t i = 0; i < count && i < 8; i++) members[i] = u32;
  uint32_t st = spvgen_type_struct(m, members, count);
  spvgen_decorate(m, st, SpvDecorationBlock);
  for (uint32_t i = 0; i < count && i < 8; i++)
    spvgen_member_decorate1(m, st, i, SpvDecorationOffset, 4 * i);
  uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassPushConstant, st);
  *member_ptr = spvgen_type_pointer(m, SpvStorageClassPushConstant, u32);
  return spvgen_variable(m, ptr, SpvStorageClassPushConstant, 0);
}

/* Loads member `index` of a push constant block made by vk_push_constants_u32. */
static inline uint32_t vk_load_push_u32(spvgen_module *m, uint32_t var, uint32_t member_ptr,
                                        uint32_t index) {
  uint32_t idx = spvgen_const_u32(m, index);
  uint32_t p = spvgen_access_chain(m, member_ptr, var, &idx, 1);
  return spvgen_load(m, spvgen_type_int(m, 32, false), p);
}

/* gl_GlobalInvocationID.x (or another builtin's x). */
static inline uint32_t vk_builtin_x(spvgen_module *m, SpvBuiltIn builtin) {
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t var = spvgen_builtin_input(m, builtin, v3);
  uint32_t v = spvgen_load(m, v3, var);
  uint32_t zero = 0;
  return spvgen_op_composite_extract(m, u32, v, &zero, 1);
}

/* element pointer of buffer `var` at `index` (an id). */
static inline uint32_t vk_element(spvgen_module *m, uint32_t element_ptr, uint32_t var,
                                  uint32_t index) {
  uint32_t idx[2] = {spvgen_const_u32(m, 0), index};
  return spvgen_access_chain(m, element_ptr, var, idx, 2);
}

/* c[i] = a[i] + b[i] for i < n; f32 buffers at set 0 bindings 0 (a), 1 (b), 2 (c);
 * push constant { uint n; }; local size `local` x 1 x 1. */
static inline void vk_build_vector_add(spvgen_module *m, uint32_t local) {
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t pf = 0;
  uint32_t a = spvgen_storage_buffer(m, f32, 0, 0, true, &pf);
  uint32_t b = spvgen_storage_buffer(m, f32, 0, 1, true, NULL);
  uint32_t c = spvgen_storage_buffer(m, f32, 0, 2, false, NULL);
  uint32_t pc_ptr = 0;
  uint32_t pc = vk_push_constants_u32(m, 1, &pc_ptr);
  spvgen_compute_main(m, "main", local, 1, 1);
  uint32_t i = vk_builtin_x(m, SpvBuiltInGlobalInvocationId);
  uint32_t n = vk_load_push_u32(m, pc, pc_ptr, 0);
  spvgen_if(m, spvgen_op_u_less_than(m, spvgen_type_bool(m), i, n));
  uint32_t va = spvgen_load(m, f32, vk_element(m, pf, a, i));
  uint32_t vb = spvgen_load(m, f32, vk_element(m, pf, b, i));
  spvgen_store(m, vk_element(m, pf, c, i), spvgen_op_f_add(m, f32, va, vb));
  spvgen_end_if(m);
  spvgen_function_end(m);
}

/* A random float with magnitude in [1/8, 1) and a random sign. */
static inline float vk_rand_f32(void) { return gpu_rand_f32(); }

/* spvgen_elementwise's f32 kernel of op for ctx's device in *k; false (after a failed
 * check) when it cannot be made. */
static inline bool vk_elementwise_kernel(spvgen_vk_context *ctx, spvgen_elementwise_op op, spvgen_kernel *k) {
  spvgen_elementwise_desc d = {.op = op};
  char msg[512] = "";
  spvgen_status st = spvgen_elementwise(&d, spvgen_vk_caps(ctx), k, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "spvgen_elementwise: %s", msg);
  return st == SPVGEN_OK;
}

/* Runs c = a <op> b (spvgen_elementwise's f32 kernel in p, ADD or MUL) over n random
 * elements and checks every element against the CPU; false (after a failed check) on any
 * difference or failed call. */
static inline bool vk_elementwise_matches_cpu(spvgen_vk_context *ctx, spvgen_vk_pipeline *p,
                                              spvgen_elementwise_op op, uint32_t n) {
  float *a = malloc(3 * (size_t)n * sizeof *a);
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  bool ok = false;
  uint32_t bad = 0, first = 0;
  float first_want = 0;
  if (!a) {
    test_fail_at(__FILE__, __LINE__, "out of memory");
    return false;
  }
  float *b = a + n, *c = b + n;
  for (uint32_t i = 0; i < n; i++) a[i] = vk_rand_f32(), b[i] = vk_rand_f32(), c[i] = -7.0f;
  const uint64_t bytes = (uint64_t)n * sizeof *a;
  for (int i = 0; i < 3; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, bytes, 0, &bufs[i]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, a, bytes));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, b, bytes));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[2], 0, c, bytes));
  const uint32_t local = spvgen_vk_pipeline_info(p)->local_size[0];
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, p, bufs, 3, &n, sizeof n, (n + local - 1) / local, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[2], 0, c, bytes));
  for (uint32_t i = 0; i < n; i++) {
    float want = op == SPVGEN_ELEMENTWISE_MUL ? a[i] * b[i] : a[i] + b[i];
    if (c[i] != want && bad++ == 0) first = i, first_want = want;
  }
  CHECK_MSG(bad == 0, "%u of %u elements differ; first [%u]: %g, expected %g", bad, n, first,
            bad ? (double)c[first] : 0.0, (double)first_want);
  ok = bad == 0;
done:
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  free(a);
  return ok;
}

/* A context on the test device (test_device_name()) with the disk cache at cache_dir, or
 * none when cache_dir is NULL (stats and compile times the test's alone). Skips the test
 * when there is no device; NULL (after a failure) when the create fails otherwise. */
static inline spvgen_vk_context *vk_open_cached(const char *cache_dir) {
  spvgen_vk_desc d = {.device_name = test_device_name(), .no_disk_cache = cache_dir == NULL, .cache_dir = cache_dir,
                      .timeout_ms = 300000};
  spvgen_vk_context *ctx = NULL;
  char msg[1024];
  spvgen_status st = spvgen_vk_create(&d, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE) test_skip("no device: %s", msg);
  else if (st != SPVGEN_OK) test_fail_at(__FILE__, __LINE__, "spvgen_vk_create: %s", msg);
  return ctx;
}

/* A wrap desc of owner's Vulkan objects, as a framework that made them would fill it:
 * enabled_features the owner's features, no disk cache. */
static inline spvgen_vk_wrap_desc vk_wrap_desc_of(const spvgen_vk_context *owner) {
  spvgen_vk_handles h;
  spvgen_vk_get_handles(owner, &h);
  spvgen_vk_wrap_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.instance = h.instance;
  wd.physical_device = h.physical_device;
  wd.device = h.device;
  wd.queue = h.queue;
  wd.queue_family_index = h.queue_family_index;
  wd.enabled_features = spvgen_vk_caps(owner)->features;
  wd.no_disk_cache = true;
  return wd;
}

#endif
