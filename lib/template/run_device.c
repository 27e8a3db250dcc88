/* lib/template/run_device.c — the device side of a run's data (template.h, "run and
 * check"): its bindings created and filled as their roles say, outputs poisoned again
 * before another dispatch, outputs downloaded after. The lifecycle
 * (tools/common/template_run.c) and the tuners (lib/tune: many plans over one data) share
 * it. */
#include <stdio.h>
#include <stdlib.h>

#include "template.h"

#define NAN_BITS 0x7FC07FC0u /* a NaN as f32, as both f16 halves and as bf16 */

static uint64_t device_bytes(uint64_t bytes) { return ((bytes < 4 ? 4 : bytes) + 3) & ~3ull; }

spvgen_status sg_run_upload(spvgen_vk_context *ctx, const sg_run_data *data, spvgen_vk_buffer **bufs, char *msg,
                            size_t size) {
  for (uint32_t i = 0; i < data->buffer_count; i++) {
    const sg_run_buffer *rb = &data->buffers[i];
    uint64_t bytes = device_bytes(rb->bytes);
    if (spvgen_vk_buffer_create(ctx, bytes, data->buffer_flags, &bufs[i]) != SPVGEN_OK)
      return snprintf(msg, size, "%s", spvgen_vk_error(ctx)), SPVGEN_ERROR_VULKAN;
    if (rb->role == SG_RUN_INPUT && rb->host) {
      uint64_t period = rb->host_bytes ? rb->host_bytes : rb->bytes;
      for (uint64_t at = 0; at < rb->bytes; at += period)
        if (spvgen_vk_buffer_upload(ctx, bufs[i], at, rb->host, rb->bytes - at < period ? rb->bytes - at : period) !=
            SPVGEN_OK)
          return snprintf(msg, size, "%s", spvgen_vk_error(ctx)), SPVGEN_ERROR_VULKAN;
    }
  }
  return sg_run_poison(ctx, data, bufs, msg, size);
}

spvgen_status sg_run_poison(spvgen_vk_context *ctx, const sg_run_data *data, spvgen_vk_buffer **bufs, char *msg,
                            size_t size) {
  for (uint32_t i = 0; i < data->buffer_count; i++) {
    const sg_run_buffer *rb = &data->buffers[i];
    if (rb->role != SG_RUN_INPUT &&
        spvgen_vk_buffer_fill(ctx, bufs[i], 0, device_bytes(rb->bytes), rb->role == SG_RUN_OUTPUT ? NAN_BITS : 0) !=
            SPVGEN_OK)
      return snprintf(msg, size, "%s", spvgen_vk_error(ctx)), SPVGEN_ERROR_VULKAN;
  }
  return SPVGEN_OK;
}

spvgen_status sg_run_download(spvgen_vk_context *ctx, const sg_run_data *data, spvgen_vk_buffer **bufs,
                              bool outputs, uint64_t *scratch_left, char *msg, size_t size) {
  for (uint32_t i = 0; i < data->buffer_count; i++) {
    const sg_run_buffer *rb = &data->buffers[i];
    if (rb->role == SG_RUN_OUTPUT && outputs &&
        spvgen_vk_buffer_download(ctx, bufs[i], 0, rb->host, rb->bytes) != SPVGEN_OK)
      return snprintf(msg, size, "%s", spvgen_vk_error(ctx)), SPVGEN_ERROR_VULKAN;
    if (!scratch_left || rb->role != SG_RUN_SCRATCH || rb->zero_from >= rb->bytes) continue;
    uint64_t cbytes = rb->bytes - rb->zero_from;
    uint32_t *cnt = malloc(cbytes);
    if (!cnt) return snprintf(msg, size, "out of host memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
    if (spvgen_vk_buffer_download(ctx, bufs[i], rb->zero_from, cnt, cbytes) != SPVGEN_OK) {
      free(cnt);
      return snprintf(msg, size, "%s", spvgen_vk_error(ctx)), SPVGEN_ERROR_VULKAN;
    }
    for (uint64_t w = 0; w < cbytes / 4; w++) *scratch_left += cnt[w] != 0;
    free(cnt);
  }
  return SPVGEN_OK;
}

void sg_run_destroy(const sg_run_data *data, spvgen_vk_buffer **bufs) {
  for (uint32_t i = 0; i < data->buffer_count; i++) {
    spvgen_vk_buffer_destroy(bufs[i]);
    bufs[i] = NULL;
  }
}
