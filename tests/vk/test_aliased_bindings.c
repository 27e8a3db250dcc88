/* tests/vk/test_aliased_bindings.c — a module that reads one buffer through two variables
 * at the same binding (u32 elements and 128-bit u32x4 elements, as the KHR GEMM stages
 * tiles) runs through the runner, with info read back from the words or none at all:
 * the aliases are one descriptor, and the results match the CPU. */
#include <string.h>

#include "vk_fixture.h"

static void test_two_views_of_one_binding_run(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), v4 = spvgen_type_vector(m, u32, 4);
  uint32_t ps, pv, po;
  uint32_t in_s = spvgen_storage_buffer(m, u32, 0, 0, true, &ps);
  uint32_t in_v = spvgen_storage_buffer(m, v4, 0, 0, true, &pv);
  uint32_t out = spvgen_storage_buffer(m, u32, 0, 1, false, &po);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, spvgen_type_vector(m, u32, 3));
  spvgen_compute_main(m, "main", 64, 1, 1);
  uint32_t zero = spvgen_const_u32(m, 0), lane0 = 0, lane3 = 3;
  uint32_t i = spvgen_op_composite_extract(m, u32, spvgen_load(m, spvgen_type_vector(m, u32, 3), gid), &lane0, 1);
  uint32_t i4 = spvgen_op_i_mul(m, u32, i, spvgen_const_u32(m, 4));
  uint32_t a[2] = {zero, i4}, b[2] = {zero, i};
  uint32_t x = spvgen_load(m, u32, spvgen_access_chain(m, ps, in_s, a, 2));          /* word 4i */
  uint32_t v = spvgen_load(m, v4, spvgen_access_chain(m, pv, in_v, b, 2));           /* words 4i..4i+3 */
  uint32_t y = spvgen_op_composite_extract(m, u32, v, &lane3, 1);                    /* word 4i+3 */
  spvgen_store(m, spvgen_access_chain(m, po, out, b, 2), spvgen_op_i_add(m, u32, x, y));
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *w = check_module(m, &count);
  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  char msg[256];
  spvgen_vk_buffer *bufs[2] = {0};
  spvgen_vk_pipeline *p1 = NULL, *p2 = NULL;
  uint32_t host_in[256], host_out[64];
  if (!w) goto done;
  CHECK_MSG(spvgen_kernel_reflect(w, count, &info, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(info.binding_count, 2);
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, w, count, &info, NULL, &p1));
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, w, count, NULL, NULL, &p2));
  CHECK_EQ_U64(spvgen_vk_pipeline_info(p2)->binding_count, 2);
  for (uint32_t k = 0; k < 256; k++) host_in[k] = test_rand_u32() >> 2;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof host_in, 0, &bufs[0]));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof host_out, 0, &bufs[1]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, host_in, sizeof host_in));
  for (int which = 0; which < 2; which++) {
    VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, bufs[1], 0, sizeof host_out, 0xDEADBEEFu));
    VK_CHECK(ctx, spvgen_vk_dispatch(ctx, which ? p2 : p1, bufs, 2, NULL, 0, 1, 1, 1, NULL));
    VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[1], 0, host_out, sizeof host_out));
    for (uint32_t k = 0; k < 64; k++)
      CHECK_MSG(host_out[k] == host_in[4 * k] + host_in[4 * k + 3], "element %u: %u != %u", k, host_out[k],
                host_in[4 * k] + host_in[4 * k + 3]);
  }
done:
  spvgen_vk_pipeline_destroy(p1);
  spvgen_vk_pipeline_destroy(p2);
  spvgen_vk_buffer_destroy(bufs[0]);
  spvgen_vk_buffer_destroy(bufs[1]);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  int skip = vk_test_device_present();
  if (skip) return skip;
  static const test_case tests[] = {TEST_CASE(test_two_views_of_one_binding_run)};
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
