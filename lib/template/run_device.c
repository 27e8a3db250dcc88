/* lib/template/run_device.c — the device side of a run's data (template.h, "run and
 * check"): its bindings created and filled as their roles say, outputs poisoned again
 * before another dispatch, outputs downloaded after, and the dispatches of a run. The lifecycle
 * (tools/common/template_run.c) and the tuners (lib/tune: many plans over one data) share
 * it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

#define NAN_BITS SG_RUN_NAN_BITS

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
        spvgen_vk_buffer_fill(ctx, bufs[i], 0, device_bytes(rb->bytes), NAN_BITS) != SPVGEN_OK)
      return snprintf(msg, size, "%s", spvgen_vk_error(ctx)), SPVGEN_ERROR_VULKAN;
  }
  return SPVGEN_OK;
}

spvgen_status sg_run_download(spvgen_vk_context *ctx, const sg_run_data *data, spvgen_vk_buffer **bufs,
                              bool outputs, char *msg, size_t size) {
  for (uint32_t i = 0; i < data->buffer_count && outputs; i++) {
    const sg_run_buffer *rb = &data->buffers[i];
    if (rb->role == SG_RUN_OUTPUT && spvgen_vk_buffer_download(ctx, bufs[i], 0, rb->host, rb->bytes) != SPVGEN_OK)
      return snprintf(msg, size, "%s", spvgen_vk_error(ctx)), SPVGEN_ERROR_VULKAN;
  }
  return SPVGEN_OK;
}

uint32_t sg_run_dispatches(const sg_run_data *data, spvgen_vk_pipeline *const *pipes, spvgen_vk_buffer *const *bufs,
                           spvgen_vk_buffer *bound[SG_RUN_MAX_KERNELS][SG_RUN_MAX_BUFFERS],
                           spvgen_vk_dispatch_desc out[SG_RUN_MAX_KERNELS]) {
  memset(out, 0, SG_RUN_MAX_KERNELS * sizeof *out);
  if (!data->kernel_count) {
    out[0].pipeline = pipes[0];
    out[0].buffers = bufs;
    out[0].buffer_count = data->bind_count ? data->bind_count : data->buffer_count;
    out[0].push_data = data->push_size ? data->push : NULL;
    out[0].push_size = data->push_size;
    for (int j = 0; j < 3; j++) out[0].groups[j] = data->groups[j];
    return 1;
  }
  uint32_t n = data->kernel_count < SG_RUN_MAX_KERNELS ? data->kernel_count : SG_RUN_MAX_KERNELS;
  for (uint32_t k = 0; k < n; k++) {
    const sg_run_kernel *rk = &data->kernels[k];
    for (uint32_t b = 0; b < rk->buffer_count && b < SG_RUN_MAX_BUFFERS; b++) bound[k][b] = bufs[rk->buffers[b]];
    out[k].pipeline = rk->same_as && rk->same_as <= k ? pipes[rk->same_as - 1] : pipes[k];
    out[k].buffers = bound[k];
    out[k].buffer_count = rk->buffer_count;
    out[k].push_data = rk->push_size ? (rk->own_push ? rk->push : data->push) : NULL;
    out[k].offsets = rk->offsets;
    out[k].push_size = rk->push_size;
    for (int j = 0; j < 3; j++) out[k].groups[j] = rk->groups[j];
  }
  return n;
}

void sg_run_destroy(const sg_run_data *data, spvgen_vk_buffer **bufs) {
  for (uint32_t i = 0; i < data->buffer_count; i++) {
    spvgen_vk_buffer_destroy(bufs[i]);
    bufs[i] = NULL;
  }
}
