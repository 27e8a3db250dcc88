/* lib/vk/submit.c — one command buffer, recorded and submitted per call, then waited
 * on. Each recording starts with a full memory barrier so that writes of earlier
 * submissions (dispatches, copies, conversions) are visible to this one. */
#include <string.h>

#include "internal.h"

void sg_vk_full_barrier_on(spvgen_vk_context *ctx, VkCommandBuffer cmd) {
  VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL,
                        VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                            VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT |
                            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                            VK_ACCESS_HOST_READ_BIT};
  ctx->vkd.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                                VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0,
                                1, &mb, 0, NULL, 0, NULL);
}

void sg_vk_full_barrier(spvgen_vk_context *ctx) { sg_vk_full_barrier_on(ctx, ctx->cmd); }

spvgen_status sg_vk_begin(spvgen_vk_context *ctx, const char *who) {
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  VkResult r = ctx->vkd.vkResetCommandPool(ctx->device, ctx->command_pool, 0);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkResetCommandPool", r);
  VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                 VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
  r = ctx->vkd.vkBeginCommandBuffer(ctx->cmd, &bi);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkBeginCommandBuffer", r);
  sg_vk_full_barrier(ctx);
  return SPVGEN_OK;
}

spvgen_status sg_vk_submit_wait(spvgen_vk_context *ctx, const char *who) {
  /* Last barrier: make the results visible to the host (downloads, mapped buffers). */
  sg_vk_full_barrier(ctx);
  VkResult r = ctx->vkd.vkEndCommandBuffer(ctx->cmd);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkEndCommandBuffer", r);
  r = ctx->vkd.vkResetFences(ctx->device, 1, &ctx->fence);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkResetFences", r);
  VkSubmitInfo si;
  memset(&si, 0, sizeof si);
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &ctx->cmd;
  r = ctx->vkd.vkQueueSubmit(ctx->queue, 1, &si, ctx->fence);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkQueueSubmit", r);
  r = ctx->vkd.vkWaitForFences(ctx->device, 1, &ctx->fence, VK_TRUE,
                               (uint64_t)ctx->timeout_ms * 1000000ull);
  if (r == VK_TIMEOUT) {
    /* The command buffer is still pending: this context cannot record again, and the
     * buffers it uses must outlive it. */
    ctx->lost = true;
    ctx->pending = true;
    return sg_vk_fail(ctx, SPVGEN_ERROR_VULKAN,
                          "%s: vkWaitForFences failed: VK_TIMEOUT (%d): the submission ran "
                          "longer than %u ms; the context is now unusable",
                          who, (int)r, ctx->timeout_ms);
  }
  if (r != VK_SUCCESS) {
    ctx->lost = true;
    return sg_vk_fail_call(ctx, who, "vkWaitForFences", r);
  }
  return SPVGEN_OK;
}

void sg_vk_settle(spvgen_vk_context *ctx) {
  if (!ctx || !ctx->device) return;
  /* Fails at once on a lost device; otherwise the work ends eventually. */
  if (ctx->pending) ctx->vkd.vkWaitForFences(ctx->device, 1, &ctx->fence, VK_TRUE, UINT64_MAX);
  ctx->pending = false;
  for (int i = 0; i < SG_VK_FRAMES; i++) {
    sg_vk_frame *f = &ctx->frames[i];
    if (!f->ticket) continue;
    ctx->vkd.vkWaitForFences(ctx->device, 1, &f->fence, VK_TRUE, UINT64_MAX);
    if (f->ticket > ctx->completed) ctx->completed = f->ticket;
    f->ticket = 0;
  }
}
