/* lib/vk/record.c — the one recording path: a dispatch is checked against its pipeline's
 * metadata and the device (buffers and ranges against the sizes their bindings need,
 * offsets, push constants, device addresses, the grid), then recorded into a command
 * buffer: pipeline, descriptors (pushed, or sets from a pool), push constants, dispatch.
 * spvgen_vk_cmd_dispatch records into the caller's command buffer with it;
 * spvgen_vk_run and spvgen_vk_submit (lib/vk/dispatch.c) into the context's own. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* "binding 2 'D' (set 0 binding 2)", or "binding 1 'x' (device address at push offset
 * 8)", for messages. */
static const char *binding_label(const spvgen_binding *b, uint32_t i, char *out, size_t size) {
  char name[80] = "";
  if (b->name) sg_vk_format(name, sizeof name, " '%s'", b->name);
  if (b->kind == SPVGEN_BINDING_DEVICE_ADDRESS)
    sg_vk_format(out, size, "binding %u%s (device address at push offset %u)", i, name,
                 b->address_offset);
  else
    sg_vk_format(out, size, "binding %u%s (set %u binding %u)", i, name, b->set, b->binding);
  return out;
}

/* The bytes each binding of dispatch d needs: the largest of the info's min_size, the
 * block's static size in the words, the info's size function for these push constants
 * and the dispatch's own. */
static spvgen_status needed_sizes(spvgen_vk_context *ctx, const char *who, uint32_t index,
                                  const spvgen_vk_record_desc *d, const void *push,
                                  uint32_t push_size, uint64_t *need) {
  const spvgen_vk_pipeline *p = d->pipeline;
  const spvgen_kernel_info *info = &p->info;
  for (uint32_t i = 0; i < info->binding_count; i++) {
    need[i] = info->bindings[i].min_size;
    if (p->binding_min_size[i] > need[i]) need[i] = p->binding_min_size[i];
  }
  if (info->binding_sizes) {
    uint64_t computed[SPVGEN_MAX_BINDINGS];
    memcpy(computed, need, info->binding_count * sizeof need[0]);
    if (!info->binding_sizes(info, push, push_size, computed))
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "%s: dispatch %u: the push constants ask for buffers larger than 2^64 "
                        "bytes (the kernel info's size function refused them)",
                        who, index);
    for (uint32_t i = 0; i < info->binding_count; i++)
      if (computed[i] > need[i]) need[i] = computed[i];
  }
  if (d->min_sizes)
    for (uint32_t i = 0; i < info->binding_count; i++)
      if (d->min_sizes[i] > need[i]) need[i] = d->min_sizes[i];
  return SPVGEN_OK;
}

/* The push-constant block: the caller's bytes, or (kernels with device addresses) a copy
 * the addresses are written into later. */
static spvgen_status resolve_push(spvgen_vk_context *ctx, const char *who, uint32_t index,
                                  const spvgen_vk_record_desc *d, sg_vk_resolved *r) {
  const spvgen_vk_pipeline *p = d->pipeline;
  const spvgen_kernel_info *info = &p->info;
  uint32_t size = info->push_constant_size;
  /* With the addresses packed at the block's end (as the templates place them), the
   * caller may pass only the bytes before them (0 when the block holds only addresses):
   * the runner writes the rest. */
  uint32_t lead = size >= 8u * p->address_count ? size - 8u * p->address_count : size;
  bool addresses_last = p->address_count != 0;
  for (uint32_t i = 0; i < info->binding_count; i++)
    if (info->bindings[i].kind == SPVGEN_BINDING_DEVICE_ADDRESS && info->bindings[i].address_offset < lead)
      addresses_last = false;
  /* ... or the bytes of the named fields before them (an MLP's 4-byte point count before
   * 8-aligned addresses) */
  uint32_t fields_end = 0;
  for (uint32_t i = 0; i < info->push_field_count; i++)
    if (info->push_fields[i].offset + info->push_fields[i].size > fields_end)
      fields_end = info->push_fields[i].offset + info->push_fields[i].size;
  bool short_ok = addresses_last && (d->push_size == lead || (fields_end <= lead && d->push_size == fields_end &&
                                                              fields_end));
  if (d->push_size != size && !short_ok)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "%s: dispatch %u: push_size is %u but the pipeline's push-constant block "
                      "is %u bytes%s",
                      who, index, d->push_size, size,
                      !addresses_last ? ""
                      : lead ? " (or the bytes of the push constants before its device addresses)"
                             : " (or 0: it holds only device addresses)");
  if (d->push_size && !d->push_data)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "%s: dispatch %u: push_data is NULL with push_size %u", who, index,
                      d->push_size);
  r->push_size = size;
  if (!p->address_count) {
    r->push = d->push_data;
    return SPVGEN_OK;
  }
  /* pipeline creation keeps blocks with addresses within SG_VK_PUSH_MAX */
  memset(r->push_copy, 0, size);
  if (d->push_size) memcpy(r->push_copy, d->push_data, d->push_size);
  r->push = r->push_copy;
  return SPVGEN_OK;
}

/* One binding: its range checked and resolved (descriptor info, or the address written
 * into the push copy). */
static spvgen_status resolve_binding(spvgen_vk_context *ctx, const char *who, uint32_t index,
                                     uint32_t i, const spvgen_vk_buffer_range *br, uint64_t need,
                                     sg_vk_resolved *r) {
  const spvgen_vk_pipeline *p = r->p;
  const spvgen_binding *b = &p->info.bindings[i];
  const spvgen_device_caps *caps = &ctx->caps;
  /* Messages are formatted only when something fails (this runs for every binding of
   * every dispatch). */
  char label_buf[160];
#define LABEL binding_label(b, i, label_buf, sizeof label_buf)
  const spvgen_status bad = SPVGEN_ERROR_INVALID_ARGUMENT;
  bool address = b->kind == SPVGEN_BINDING_DEVICE_ADDRESS;
  uint64_t start = 0, range = br->range;
  char origin_buf[96]; /* what the range is of, for the size message */
  if (br->buffer) {
    const spvgen_vk_buffer *sb = br->buffer;
    if (sb->ctx != ctx)
      return sg_vk_fail(ctx, bad,
                        "%s: dispatch %u: %s: the buffer belongs to another context (another "
                        "device, or another spvgen context on the same one)",
                        who, index, LABEL);
    if (br->handle)
      return sg_vk_fail(ctx, bad, "%s: dispatch %u: %s: both buffer and handle are set", who,
                        index, LABEL);
    if (br->offset > sb->size)
      return sg_vk_fail(ctx, bad, "%s: dispatch %u: %s: offset %llu is past the buffer's end (%llu bytes)",
                        who, index, LABEL, (unsigned long long)br->offset,
                        (unsigned long long)sb->size);
    if (!range) range = sb->size - br->offset;
    if (range > sb->size - br->offset)
      return sg_vk_fail(ctx, bad,
                        "%s: dispatch %u: %s: offset %llu + range %llu runs past the buffer's end "
                        "(%llu bytes)",
                        who, index, LABEL, (unsigned long long)br->offset,
                        (unsigned long long)range, (unsigned long long)sb->size);
    if (address) {
      if (!sb->address)
        return sg_vk_fail(ctx, bad,
                          "%s: dispatch %u: %s: the kernel takes this buffer by device address; "
                          "create it with SPVGEN_VK_BUFFER_DEVICE_ADDRESS",
                          who, index, LABEL);
      start = sb->address + br->offset;
    } else {
      r->buffers[i].buffer = sb->buffer;
    }

  } else if (br->handle || (address && br->address)) {
    if (br->handle && br->address)
      return sg_vk_fail(ctx, bad, "%s: dispatch %u: %s: both handle and address are set", who,
                        index, LABEL);
    if (!range)
      return sg_vk_fail(ctx, bad,
                        "%s: dispatch %u: %s: range is 0; give the bytes the kernel may use "
                        "(spvgen cannot ask Vulkan how large a %s is)",
                        who, index, LABEL, br->handle ? "VkBuffer" : "device address's buffer");
    if (address && br->handle) {
      if (!ctx->vkd.vkGetBufferDeviceAddress && !ctx->vkd.vkGetBufferDeviceAddressKHR)
        return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: dispatch %u: %s: vkGetBufferDeviceAddress is not available", who,
                          index, LABEL);
      VkBufferDeviceAddressInfo ai = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL,
                                      (VkBuffer)br->handle};
      uint64_t base = ctx->vkd.vkGetBufferDeviceAddress
                          ? ctx->vkd.vkGetBufferDeviceAddress(ctx->device, &ai)
                          : ctx->vkd.vkGetBufferDeviceAddressKHR(ctx->device, &ai);
      if (!base)
        return sg_vk_fail(ctx, bad,
                          "%s: dispatch %u: %s: the VkBuffer has no device address (created "
                          "without VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT?)",
                          who, index, LABEL);
      start = base + br->offset;
    } else if (address) {
      start = br->address + br->offset;
    } else {
      r->buffers[i].buffer = (VkBuffer)br->handle;
    }

  } else {
    return sg_vk_fail(ctx, bad,
                      "%s: dispatch %u: %s: no buffer (buffer, handle%s are all 0)", who, index,
                      LABEL, address ? " and address" : "");
  }
  if (range < need) {
    if (br->buffer)
      sg_vk_format(origin_buf, sizeof origin_buf, "a %llu-byte buffer at offset %llu",
                   (unsigned long long)br->buffer->size, (unsigned long long)br->offset);
    else
      sg_vk_format(origin_buf, sizeof origin_buf, "the caller's %s at offset %llu",
                   br->handle ? "VkBuffer" : "address", (unsigned long long)br->offset);
    return sg_vk_fail(ctx, bad,
                      "%s: dispatch %u: %s: %llu bytes given (%s), the kernel needs %llu", who,
                      index, LABEL, (unsigned long long)range, origin_buf,
                      (unsigned long long)need);
  }
  if (address) {
    uint32_t align = b->alignment ? b->alignment : 4;
    if (start % align)
      return sg_vk_fail(ctx, bad,
                        "%s: dispatch %u: %s: device address 0x%llx is not a multiple of %u", who,
                        index, LABEL, (unsigned long long)start, align);
    memcpy(r->push_copy + b->address_offset, &start, 8);
    return SPVGEN_OK;
  }
  uint64_t align = b->kind == SPVGEN_BINDING_STORAGE_BUFFER ? caps->min_storage_buffer_offset_alignment : 0;
  if (b->alignment > align) align = b->alignment;
  if (align && br->offset % align)
    return sg_vk_fail(ctx, bad,
                      "%s: dispatch %u: %s: offset %llu is not a multiple of %llu "
                      "(minStorageBufferOffsetAlignment)",
                      who, index, LABEL, (unsigned long long)br->offset, (unsigned long long)align);
  uint64_t limit = b->kind == SPVGEN_BINDING_UNIFORM_BUFFER ? caps->max_uniform_buffer_range
                                                            : caps->max_storage_buffer_range;
  if (limit && range > limit) {
    if (need > limit)
      return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                        "%s: dispatch %u: %s: the kernel needs %llu bytes, over the device's "
                        "max%sBufferRange %llu (take it by device address instead)",
                        who, index, LABEL, (unsigned long long)need,
                        b->kind == SPVGEN_BINDING_UNIFORM_BUFFER ? "Uniform" : "Storage",
                        (unsigned long long)limit);
    range = limit; /* the kernel uses less than the limit: bind what the device allows */
  }
  r->buffers[i].offset = br->offset;
  r->buffers[i].range = range;
  return SPVGEN_OK;
#undef LABEL
}

spvgen_status sg_vk_resolve(spvgen_vk_context *ctx, const char *who, uint32_t index,
                            const spvgen_vk_record_desc *d, sg_vk_resolved *r) {
  const spvgen_vk_pipeline *p = d->pipeline;
  if (!p)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: dispatch %u: pipeline is NULL",
                      who, index);
  if (p->ctx != ctx)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "%s: dispatch %u: the pipeline belongs to another context", who, index);
  const spvgen_kernel_info *info = &p->info;
  r->p = p;
  if (d->buffer_count != info->binding_count)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "%s: dispatch %u: the pipeline has %u binding%s but %u buffer%s given",
                      who, index, info->binding_count, info->binding_count == 1 ? "" : "s",
                      d->buffer_count, d->buffer_count == 1 ? " was" : "s were");
  if (d->buffer_count && !d->buffers)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "%s: dispatch %u: buffers is NULL with buffer_count %u", who, index,
                      d->buffer_count);
  spvgen_status st = resolve_push(ctx, who, index, d, r);
  if (st != SPVGEN_OK) return st;
  uint64_t need[SPVGEN_MAX_BINDINGS];
  /* The size function reads the caller's values (the addresses are not yet in). */
  st = needed_sizes(ctx, who, index, d, r->push, r->push_size, need);
  if (st != SPVGEN_OK) return st;
  for (uint32_t i = 0; i < d->buffer_count; i++) {
    st = resolve_binding(ctx, who, index, i, &d->buffers[i], need[i], r);
    if (st != SPVGEN_OK) return st;
  }
  const spvgen_device_caps *caps = &ctx->caps;
  for (int i = 0; i < 3; i++) {
    uint32_t g = d->groups[i] ? d->groups[i] : 1;
    if (g > caps->max_workgroup_count[i])
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "%s: dispatch %u: groups[%d] = %u exceeds maxComputeWorkGroupCount[%d] = %u",
                        who, index, i, g, i, caps->max_workgroup_count[i]);
    r->groups[i] = g;
  }
  return SPVGEN_OK;
}

/* The descriptor writes of a resolved dispatch (dst_sets: the set of each binding's
 * `set`; NULL for push descriptors). */
static uint32_t descriptor_writes(const sg_vk_resolved *r, const VkDescriptorSet *dst_sets,
                                  VkWriteDescriptorSet *w) {
  const spvgen_kernel_info *info = &r->p->info;
  uint32_t n = 0;
  for (uint32_t k = 0; k < info->binding_count; k++) {
    const spvgen_binding *b = &info->bindings[k];
    if (b->kind == SPVGEN_BINDING_DEVICE_ADDRESS) continue;
    memset(&w[n], 0, sizeof w[n]);
    w[n].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w[n].dstSet = dst_sets ? dst_sets[b->set] : VK_NULL_HANDLE;
    w[n].dstBinding = b->binding;
    w[n].descriptorCount = 1;
    w[n].descriptorType = b->kind == SPVGEN_BINDING_UNIFORM_BUFFER ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                                   : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[n].pBufferInfo = &r->buffers[k];
    n++;
  }
  return n;
}

void sg_vk_record(spvgen_vk_context *ctx, VkCommandBuffer cmd, const sg_vk_resolved *r,
                  const VkDescriptorSet *sets, const spvgen_vk_pipeline **bound,
                  VkQueryPool query_pool, uint32_t query) {
  const spvgen_vk_pipeline *p = r->p;
  if (!bound || *bound != p) {
    ctx->vkd.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    if (bound) *bound = p;
  }
  if (p->set_count) {
    if (p->push_set) {
      VkWriteDescriptorSet w[SPVGEN_MAX_BINDINGS];
      uint32_t n = descriptor_writes(r, NULL, w);
      ctx->vkd.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, n, w);
    } else {
      ctx->vkd.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0,
                                       p->set_count, sets, 0, NULL);
    }
  }
  if (r->push_size)
    ctx->vkd.vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, r->push_size,
                                r->push);
  if (query_pool)
    ctx->vkd.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, query_pool, query);
  ctx->vkd.vkCmdDispatch(cmd, r->groups[0], r->groups[1], r->groups[2]);
  if (query_pool)
    ctx->vkd.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, query_pool, query + 1);
}

void sg_vk_compute_barrier(spvgen_vk_context *ctx, VkCommandBuffer cmd) {
  VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  ctx->vkd.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* ------------------------------------------------------- descriptor pools ---- */
spvgen_status sg_vk_pool_reserve(spvgen_vk_context *ctx, const char *who, sg_vk_pool *pool,
                                 uint32_t sets, uint32_t storage, uint32_t uniform) {
  if (pool->pool && sets <= pool->sets && storage <= pool->storage && uniform <= pool->uniform) {
    VkResult r = ctx->vkd.vkResetDescriptorPool(ctx->device, pool->pool, 0);
    if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkResetDescriptorPool", r);
    return SPVGEN_OK;
  }
  if (pool->pool) ctx->vkd.vkDestroyDescriptorPool(ctx->device, pool->pool, NULL);
  pool->pool = VK_NULL_HANDLE;
  uint32_t want_sets = pool->sets > 64 ? pool->sets : 64;
  uint32_t want_storage = pool->storage > 256 ? pool->storage : 256;
  uint32_t want_uniform = pool->uniform > 32 ? pool->uniform : 32;
  while (want_sets < sets) want_sets *= 2;
  while (want_storage < storage) want_storage *= 2;
  while (want_uniform < uniform) want_uniform *= 2;
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, want_storage},
                                   {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, want_uniform}};
  VkDescriptorPoolCreateInfo ci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0,
                                   want_sets, 2, sizes};
  VkResult r = ctx->vkd.vkCreateDescriptorPool(ctx->device, &ci, NULL, &pool->pool);
  if (r != VK_SUCCESS) {
    pool->pool = VK_NULL_HANDLE;
    pool->sets = pool->storage = pool->uniform = 0;
    return sg_vk_fail_call(ctx, who, "vkCreateDescriptorPool", r);
  }
  pool->sets = want_sets;
  pool->storage = want_storage;
  pool->uniform = want_uniform;
  return SPVGEN_OK;
}

spvgen_status sg_vk_write_sets(spvgen_vk_context *ctx, const char *who, sg_vk_pool *pool,
                               const sg_vk_resolved *r, VkDescriptorSet *sets) {
  const spvgen_vk_pipeline *p = r->p;
  VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
                                    pool->pool, p->set_count, p->program->set_layouts};
  VkResult res = ctx->vkd.vkAllocateDescriptorSets(ctx->device, &ai, sets);
  if (res != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkAllocateDescriptorSets", res);
  VkWriteDescriptorSet w[SPVGEN_MAX_BINDINGS];
  uint32_t n = descriptor_writes(r, sets, w);
  if (n) ctx->vkd.vkUpdateDescriptorSets(ctx->device, n, w, 0, NULL);
  return SPVGEN_OK;
}

void sg_vk_pool_destroy(spvgen_vk_context *ctx, sg_vk_pool *pool) {
  if (pool->pool) ctx->vkd.vkDestroyDescriptorPool(ctx->device, pool->pool, NULL);
  memset(pool, 0, sizeof *pool);
}

/* ------------------------------------------------ the caller's command buffer ---- */
static sg_vk_tracked *find_tracked(spvgen_vk_context *ctx, VkCommandBuffer cmd) {
  for (int i = 0; i < SG_VK_TRACKED; i++)
    if (ctx->tracked[i].cmd == cmd) return &ctx->tracked[i];
  return NULL;
}

/* The command buffer's state as far as spvgen knows it. */
static spvgen_status check_command_buffer(spvgen_vk_context *ctx, const char *who,
                                          VkCommandBuffer cmd) {
  if (!cmd)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: command_buffer is NULL", who);
  bool own = cmd == ctx->cmd;
  for (int i = 0; i < SG_VK_FRAMES; i++) own = own || cmd == ctx->frames[i].cmd;
  if (own)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "%s: command_buffer is one of the context's own (spvgen_vk_run and "
                      "spvgen_vk_submit record into it); pass a command buffer of yours",
                      who);
  const sg_vk_tracked *t = find_tracked(ctx, cmd);
  if (t && !t->recording)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_STATE,
                      "%s: command_buffer is not in the recording state "
                      "(spvgen_vk_command_buffer_end ended it; begin it again first)",
                      who);
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_cmd_dispatch(spvgen_vk_context *ctx, void *command_buffer,
                                     const spvgen_vk_record_desc *dispatches, uint32_t count,
                                     uint32_t flags) {
  static const char *who = "spvgen_vk_cmd_dispatch";
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  VkCommandBuffer cmd = (VkCommandBuffer)command_buffer;
  st = check_command_buffer(ctx, who, cmd);
  if (st != SPVGEN_OK) return st;
  if (count == 0) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: count is 0", who);
  if (!dispatches)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: dispatches is NULL", who);
  if (flags & ~(uint32_t)SPVGEN_VK_RECORD_NO_BARRIERS)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", who,
                      flags & ~(uint32_t)SPVGEN_VK_RECORD_NO_BARRIERS);
  /* Everything is checked before the first command goes in. */
  sg_vk_resolved r;
  for (uint32_t i = 0; i < count; i++) {
    st = sg_vk_resolve(ctx, who, i, &dispatches[i], &r);
    if (st != SPVGEN_OK) return st;
    if (r.p->set_count && !r.p->push_set)
      return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                        "%s: dispatch %u: recording into a caller's command buffer binds buffers "
                        "with push descriptors: %s",
                        who, i,
                        ctx->push_descriptors
                            ? "the kernel uses more than descriptor set 0"
                            : "enable VK_KHR_push_descriptor on the device (and list it in "
                              "spvgen_vk_wrap_desc.device_create_info), or take every buffer by "
                              "device address");
  }
  const spvgen_vk_pipeline *bound = NULL;
  for (uint32_t i = 0; i < count; i++) {
    if (count > 1) sg_vk_resolve(ctx, who, i, &dispatches[i], &r); /* checked above */
    if (i > 0 && !(flags & SPVGEN_VK_RECORD_NO_BARRIERS)) sg_vk_compute_barrier(ctx, cmd);
    sg_vk_record(ctx, cmd, &r, NULL, &bound, VK_NULL_HANDLE, 0);
  }
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_command_buffer_begin(spvgen_vk_context *ctx, void *command_buffer) {
  static const char *who = "spvgen_vk_command_buffer_begin";
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  VkCommandBuffer cmd = (VkCommandBuffer)command_buffer;
  spvgen_status st = check_command_buffer(ctx, who, cmd);
  if (st != SPVGEN_OK && st != SPVGEN_ERROR_INVALID_STATE) return st;
  sg_vk_tracked *t = find_tracked(ctx, cmd);
  if (t && t->recording)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_STATE,
                      "%s: the command buffer is already recording", who);
  VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                 VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
  VkResult r = ctx->vkd.vkBeginCommandBuffer(cmd, &bi);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkBeginCommandBuffer", r);
  if (!t) {
    /* A free slot, else the oldest entry goes (the table only refines what is known). */
    for (int i = 0; i < SG_VK_TRACKED && !t; i++)
      if (!ctx->tracked[i].cmd) t = &ctx->tracked[i];
    if (!t) {
      memmove(ctx->tracked, ctx->tracked + 1, (SG_VK_TRACKED - 1) * sizeof ctx->tracked[0]);
      t = &ctx->tracked[SG_VK_TRACKED - 1];
    }
    t->cmd = cmd;
  }
  t->recording = true;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_command_buffer_end(spvgen_vk_context *ctx, void *command_buffer) {
  static const char *who = "spvgen_vk_command_buffer_end";
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  VkCommandBuffer cmd = (VkCommandBuffer)command_buffer;
  spvgen_status st = check_command_buffer(ctx, who, cmd);
  if (st != SPVGEN_OK) return st;
  sg_vk_tracked *t = find_tracked(ctx, cmd);
  if (!t)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_STATE,
                      "%s: the command buffer was not begun with spvgen_vk_command_buffer_begin",
                      who);
  VkResult r = ctx->vkd.vkEndCommandBuffer(cmd);
  t->recording = false;
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkEndCommandBuffer", r);
  return SPVGEN_OK;
}
