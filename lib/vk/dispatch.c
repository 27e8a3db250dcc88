/* lib/vk/dispatch.c — dispatches: every argument checked against the pipeline's
 * metadata first (buffer count, sizes, push constants, group counts), then one
 * submission with a memory barrier between consecutive dispatches, descriptor sets from
 * a pool reset per submission, and a pair of timestamps around each dispatch. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static spvgen_status check_dispatch(spvgen_vk_context *ctx, const char *who, uint32_t index,
                                    const spvgen_vk_dispatch_desc *d) {
  const spvgen_device_caps *caps = &ctx->caps;
  const spvgen_vk_pipeline *p = d->pipeline;
  if (!p)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: dispatch %u: pipeline is NULL",
                          who, index);
  if (p->ctx != ctx)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: dispatch %u: the pipeline belongs to another context", who, index);
  const spvgen_kernel_info *info = &p->info;
  if (d->buffer_count != info->binding_count)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: dispatch %u: the pipeline has %u binding%s but %u buffer%s given",
                          who, index, info->binding_count, info->binding_count == 1 ? "" : "s",
                          d->buffer_count, d->buffer_count == 1 ? " was" : "s were");
  if (d->buffer_count && !d->buffers)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: dispatch %u: buffers is NULL with buffer_count %u", who, index,
                          d->buffer_count);
  for (uint32_t i = 0; i < d->buffer_count; i++) {
    const spvgen_vk_buffer *b = d->buffers[i];
    const spvgen_binding *bind = &info->bindings[i];
    char what[96];
    sg_vk_format(what, sizeof what, "dispatch %u: buffers[%u] (set %u binding %u%s%s%s)",
                     index, i, bind->set, bind->binding, bind->name ? ", '" : "",
                     bind->name ? bind->name : "", bind->name ? "'" : "");
    spvgen_status st = sg_vk_check_buffer(ctx, who, b, what);
    if (st != SPVGEN_OK) return st;
    if (b->size < p->binding_min_size[i])
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                            "%s: %s is %llu bytes; the shader's block needs at least %llu", who,
                            what, (unsigned long long)b->size,
                            (unsigned long long)p->binding_min_size[i]);
  }
  if (d->push_size != info->push_constant_size)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: dispatch %u: push_size is %u but the pipeline's push constant "
                          "size is %u",
                          who, index, d->push_size, info->push_constant_size);
  if (d->push_size && !d->push_data)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: dispatch %u: push_data is NULL with push_size %u", who, index,
                          d->push_size);
  for (int i = 0; i < 3; i++) {
    uint32_t g = d->groups[i] ? d->groups[i] : 1;
    if (g > caps->max_workgroup_count[i])
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                            "%s: dispatch %u: groups[%d] = %u exceeds maxComputeWorkGroupCount[%d] "
                            "= %u",
                            who, index, i, g, i, caps->max_workgroup_count[i]);
  }
  return SPVGEN_OK;
}

static spvgen_status ensure_descriptor_pool(spvgen_vk_context *ctx, const char *who,
                                            uint32_t sets, uint32_t storage, uint32_t uniform) {
  if (ctx->descriptor_pool && sets <= ctx->pool_sets && storage <= ctx->pool_storage &&
      uniform <= ctx->pool_uniform)
    return SPVGEN_OK;
  if (ctx->descriptor_pool) ctx->vkd.vkDestroyDescriptorPool(ctx->device, ctx->descriptor_pool, NULL);
  ctx->descriptor_pool = VK_NULL_HANDLE;
  uint32_t want_sets = ctx->pool_sets > 64 ? ctx->pool_sets : 64;
  uint32_t want_storage = ctx->pool_storage > 256 ? ctx->pool_storage : 256;
  uint32_t want_uniform = ctx->pool_uniform > 32 ? ctx->pool_uniform : 32;
  while (want_sets < sets) want_sets *= 2;
  while (want_storage < storage) want_storage *= 2;
  while (want_uniform < uniform) want_uniform *= 2;
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, want_storage},
                                   {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, want_uniform}};
  VkDescriptorPoolCreateInfo ci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0,
                                   want_sets, 2, sizes};
  VkResult r = ctx->vkd.vkCreateDescriptorPool(ctx->device, &ci, NULL, &ctx->descriptor_pool);
  if (r != VK_SUCCESS) {
    ctx->descriptor_pool = VK_NULL_HANDLE;
    ctx->pool_sets = ctx->pool_storage = ctx->pool_uniform = 0;
    return sg_vk_fail_call(ctx, who, "vkCreateDescriptorPool", r);
  }
  ctx->pool_sets = want_sets;
  ctx->pool_storage = want_storage;
  ctx->pool_uniform = want_uniform;
  return SPVGEN_OK;
}

static spvgen_status ensure_query_pool(spvgen_vk_context *ctx, const char *who, uint32_t count) {
  if (ctx->query_pool && count <= ctx->query_capacity) return SPVGEN_OK;
  if (ctx->query_pool) ctx->vkd.vkDestroyQueryPool(ctx->device, ctx->query_pool, NULL);
  ctx->query_pool = VK_NULL_HANDLE;
  uint32_t want = ctx->query_capacity > 64 ? ctx->query_capacity : 64;
  while (want < count) want *= 2;
  VkQueryPoolCreateInfo ci;
  memset(&ci, 0, sizeof ci);
  ci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  ci.queryCount = want;
  VkResult r = ctx->vkd.vkCreateQueryPool(ctx->device, &ci, NULL, &ctx->query_pool);
  if (r != VK_SUCCESS) {
    ctx->query_pool = VK_NULL_HANDLE;
    ctx->query_capacity = 0;
    return sg_vk_fail_call(ctx, who, "vkCreateQueryPool", r);
  }
  ctx->query_capacity = want;
  return SPVGEN_OK;
}

/* spvgen_vk_run and spvgen_vk_dispatch; who: the one called, for messages. */
static spvgen_status run(spvgen_vk_context *ctx, const char *who,
                         const spvgen_vk_dispatch_desc *dispatches, uint32_t count, uint64_t *ns) {
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  if (count == 0)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: count is 0", who);
  if (!dispatches)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: dispatches is NULL", who);
  if (count > (1u << 20))
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: %u dispatches in one call; at most %u", who, count, 1u << 20);
  uint64_t sets = 0, storage = 0, uniform = 0;
  for (uint32_t i = 0; i < count; i++) {
    st = check_dispatch(ctx, who, i, &dispatches[i]);
    if (st != SPVGEN_OK) return st;
    sets += dispatches[i].pipeline->set_count;
    storage += dispatches[i].pipeline->storage_count;
    uniform += dispatches[i].pipeline->uniform_count;
  }
  if (ns) memset(ns, 0, count * sizeof *ns);
  bool timing = ns && (ctx->caps.features & SPVGEN_FEATURE_TIMESTAMPS);

  st = ensure_descriptor_pool(ctx, who, (uint32_t)sets, (uint32_t)storage, (uint32_t)uniform);
  if (st != SPVGEN_OK) return st;
  if (timing) {
    st = ensure_query_pool(ctx, who, 2 * count);
    if (st != SPVGEN_OK) return st;
  }
  VkResult r = ctx->vkd.vkResetDescriptorPool(ctx->device, ctx->descriptor_pool, 0);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkResetDescriptorPool", r);

  /* Descriptor sets for every dispatch, allocated and written up front. */
  VkDescriptorSet *all_sets = sets ? calloc((size_t)sets, sizeof *all_sets) : NULL;
  if (sets && !all_sets) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  size_t at = 0;
  for (uint32_t i = 0; i < count; i++) {
    const spvgen_vk_dispatch_desc *d = &dispatches[i];
    const spvgen_vk_pipeline *p = d->pipeline;
    if (!p->set_count) continue;
    VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
                                      ctx->descriptor_pool, p->set_count, p->set_layouts};
    r = ctx->vkd.vkAllocateDescriptorSets(ctx->device, &ai, all_sets + at);
    if (r != VK_SUCCESS) {
      free(all_sets);
      return sg_vk_fail_call(ctx, who, "vkAllocateDescriptorSets", r);
    }
    VkDescriptorBufferInfo bi[SPVGEN_MAX_BINDINGS];
    VkWriteDescriptorSet w[SPVGEN_MAX_BINDINGS];
    for (uint32_t k = 0; k < d->buffer_count; k++) {
      const spvgen_binding *bind = &p->info.bindings[k];
      const spvgen_vk_buffer *b = d->buffers[k];
      bool uniform_kind = bind->kind == SPVGEN_BINDING_UNIFORM_BUFFER;
      uint64_t limit = uniform_kind ? ctx->caps.max_uniform_buffer_range
                                    : ctx->caps.max_storage_buffer_range;
      bi[k].buffer = b->buffer;
      bi[k].offset = 0;
      bi[k].range = (limit && b->size > limit) ? limit : VK_WHOLE_SIZE;
      memset(&w[k], 0, sizeof w[k]);
      w[k].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      w[k].dstSet = all_sets[at + bind->set];
      w[k].dstBinding = bind->binding;
      w[k].descriptorCount = 1;
      w[k].descriptorType =
          uniform_kind ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w[k].pBufferInfo = &bi[k];
    }
    if (d->buffer_count) ctx->vkd.vkUpdateDescriptorSets(ctx->device, d->buffer_count, w, 0, NULL);
    at += p->set_count;
  }

  st = sg_vk_begin(ctx, who);
  if (st != SPVGEN_OK) {
    free(all_sets);
    return st;
  }
  if (timing) ctx->vkd.vkCmdResetQueryPool(ctx->cmd, ctx->query_pool, 0, 2 * count);
  at = 0;
  const spvgen_vk_pipeline *bound = NULL;
  for (uint32_t i = 0; i < count; i++) {
    const spvgen_vk_dispatch_desc *d = &dispatches[i];
    const spvgen_vk_pipeline *p = d->pipeline;
    if (i > 0) sg_vk_full_barrier(ctx);
    if (p != bound) {
      ctx->vkd.vkCmdBindPipeline(ctx->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
      bound = p;
    }
    if (p->set_count)
      ctx->vkd.vkCmdBindDescriptorSets(ctx->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0,
                                       p->set_count, all_sets + at, 0, NULL);
    at += p->set_count;
    if (d->push_size)
      ctx->vkd.vkCmdPushConstants(ctx->cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                  d->push_size, d->push_data);
    if (timing)
      ctx->vkd.vkCmdWriteTimestamp(ctx->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, ctx->query_pool,
                                   2 * i);
    ctx->vkd.vkCmdDispatch(ctx->cmd, d->groups[0] ? d->groups[0] : 1,
                           d->groups[1] ? d->groups[1] : 1, d->groups[2] ? d->groups[2] : 1);
    if (timing)
      ctx->vkd.vkCmdWriteTimestamp(ctx->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                                   ctx->query_pool, 2 * i + 1);
  }
  st = sg_vk_submit_wait(ctx, who);
  free(all_sets);
  if (st != SPVGEN_OK || !timing) return st;

  uint64_t *ticks = calloc(2 * (size_t)count, sizeof *ticks);
  if (!ticks) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  r = ctx->vkd.vkGetQueryPoolResults(ctx->device, ctx->query_pool, 0, 2 * count,
                                     2 * count * sizeof *ticks, ticks, sizeof *ticks,
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  if (r != VK_SUCCESS) {
    free(ticks);
    return sg_vk_fail_call(ctx, who, "vkGetQueryPoolResults", r);
  }
  uint32_t bits = ctx->caps.timestamp_valid_bits;
  uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  double period = ctx->caps.timestamp_period > 0 ? ctx->caps.timestamp_period : 1.0;
  for (uint32_t i = 0; i < count; i++) {
    uint64_t delta = ((ticks[2 * i + 1] & mask) - (ticks[2 * i] & mask)) & mask;
    ns[i] = (uint64_t)((double)delta * period + 0.5);
  }
  free(ticks);
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_run(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dispatches,
                            uint32_t count, uint64_t *ns) {
  return run(ctx, "spvgen_vk_run", dispatches, count, ns);
}

spvgen_status spvgen_vk_dispatch(spvgen_vk_context *ctx, spvgen_vk_pipeline *pipeline,
                                 spvgen_vk_buffer *const *buffers, uint32_t buffer_count,
                                 const void *push_data, uint32_t push_size, uint32_t groups_x,
                                 uint32_t groups_y, uint32_t groups_z, uint64_t *ns) {
  spvgen_vk_dispatch_desc d;
  memset(&d, 0, sizeof d);
  d.pipeline = pipeline;
  d.buffers = buffers;
  d.buffer_count = buffer_count;
  d.push_data = push_data;
  d.push_size = push_size;
  d.groups[0] = groups_x;
  d.groups[1] = groups_y;
  d.groups[2] = groups_z;
  return run(ctx, "spvgen_vk_dispatch", &d, 1, ns);
}
