/* tests/vk/test_buffers.c — how the runner allocates buffers (lib/vk/buffer.c), read
 * through its internal struct: every device-local buffer is a dedicated allocation (the
 * slow mode followed a session's buffers until they were: docs/design-notes.md, "The slow
 * mode follows a session's buffers"), host-visible ones are not, and a dedicated buffer
 * with a device address holds random data through an upload and download. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* lib/vk: struct spvgen_vk_buffer */
#include "vk_fixture.h"

static void test_device_local_buffers_are_dedicated_allocations(void) {
  enum { WORDS = 3u << 18 };
  spvgen_vk_buffer *d = NULL, *h = NULL, *a = NULL;
  uint32_t *in = malloc(WORDS * 4u), *out = malloc(WORDS * 4u);
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) goto done;
  CHECK(in && out);
  if (!in || !out) goto done;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, WORDS * 4u, SPVGEN_VK_BUFFER_DEVICE_LOCAL, &d));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 4096, SPVGEN_VK_BUFFER_HOST_VISIBLE, &h));
  CHECK_MSG(d->dedicated, "a device-local buffer was not a dedicated allocation");
  CHECK_MSG(!h->dedicated, "a host-visible buffer was marked dedicated");
  /* the data round trip through a dedicated buffer, every word checked */
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (uint32_t i = 0; i < WORDS; i++) x ^= x << 13, x ^= x >> 7, x ^= x << 17, in[i] = (uint32_t)(x >> 11) | 1u;
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, d, 0, in, WORDS * 4u));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, d, 0, out, WORDS * 4u));
  uint32_t bad = 0;
  for (uint32_t i = 0; i < WORDS; i++) bad += in[i] != out[i];
  CHECK_EQ_U64(bad, 0);
  /* with a device address too */
  if (spvgen_vk_caps(ctx)->features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS) {
    VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 1u << 20, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &a));
    CHECK(a->dedicated);
    CHECK(spvgen_vk_buffer_address(a) != 0);
    memset(out, 0, 65536);
    VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, a, 4096, in, 65536));
    VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, a, 4096, out, 65536));
    CHECK(memcmp(in, out, 65536) == 0);
  }
done:
  spvgen_vk_buffer_destroy(a);
  spvgen_vk_buffer_destroy(d);
  spvgen_vk_buffer_destroy(h);
  spvgen_vk_destroy(ctx);
  free(in);
  free(out);
}

int main(int argc, char **argv) {
  int present = vk_test_device_present();
  if (present) return present;
  static const test_case tests[] = {
      TEST_CASE(test_device_local_buffers_are_dedicated_allocations),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
