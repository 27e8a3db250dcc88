/* lib/vk/dispatch.c — the runner's own submissions, on the one recording path of
 * lib/vk/record.c: spvgen_vk_run / spvgen_vk_dispatch record into the context's command
 * buffer, submit and wait (with GPU timestamps); spvgen_vk_submit records into a ring of
 * command buffers and returns a ticket (a timeline semaphore value) without waiting. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

/* Checks every dispatch (nothing recorded on a failure) and counts the descriptors the
 * ones without push descriptors need from a pool. */
static spvgen_status check_all(spvgen_vk_context *ctx, const char *who,
                               const spvgen_vk_record_desc *d, uint32_t count, uint64_t *sets,
                               uint64_t *storage, uint64_t *uniform) {
  if (count == 0) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: count is 0", who);
  if (!d) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: dispatches is NULL", who);
  if (count > (1u << 20))
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %u dispatches in one call; at most %u",
                      who, count, 1u << 20);
  *sets = *storage = *uniform = 0;
  sg_vk_resolved r;
  for (uint32_t i = 0; i < count; i++) {
    spvgen_status st = sg_vk_resolve(ctx, who, i, &d[i], &r);
    if (st != SPVGEN_OK) return st;
    if (r.p->push_set) continue;
    *sets += r.p->set_count;
    *storage += r.p->storage_count;
    *uniform += r.p->uniform_count;
  }
  if (*sets > UINT32_MAX / 2 || *storage > UINT32_MAX / 2)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: too many descriptors in one call", who);
  return SPVGEN_OK;
}

/* Records every dispatch into cmd (begun), descriptor sets from pool where needed,
 * timestamps when query_pool is set. */
static spvgen_status record_all(spvgen_vk_context *ctx, const char *who, VkCommandBuffer cmd,
                                sg_vk_pool *pool, const spvgen_vk_record_desc *d, uint32_t count,
                                uint32_t flags, VkQueryPool query_pool) {
  const spvgen_vk_pipeline *bound = NULL;
  for (uint32_t i = 0; i < count; i++) {
    sg_vk_resolved r;
    spvgen_status st = sg_vk_resolve(ctx, who, i, &d[i], &r); /* checked by check_all */
    if (st != SPVGEN_OK) return st;
    VkDescriptorSet sets[SPVGEN_VK_MAX_SETS];
    if (r.p->set_count && !r.p->push_set) {
      st = sg_vk_write_sets(ctx, who, pool, &r, sets);
      if (st != SPVGEN_OK) return st;
    }
    if (i > 0 && !(flags & SPVGEN_VK_RECORD_NO_BARRIERS)) sg_vk_compute_barrier(ctx, cmd);
    sg_vk_record(ctx, cmd, &r, sets, &bound, query_pool, 2 * i);
  }
  return SPVGEN_OK;
}

/* spvgen_vk_dispatch_desc (spvgen buffers, whole) as record descs. */
static spvgen_status to_record(spvgen_vk_context *ctx, const char *who,
                               const spvgen_vk_dispatch_desc *in, uint32_t count,
                               spvgen_vk_record_desc **out, spvgen_vk_buffer_range **ranges) {
  *out = NULL;
  *ranges = NULL;
  if (count == 0) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: count is 0", who);
  if (!in) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: dispatches is NULL", who);
  if (count > (1u << 20))
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %u dispatches in one call; at most %u",
                      who, count, 1u << 20);
  size_t nb = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (in[i].buffer_count > SPVGEN_MAX_BINDINGS)
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "%s: dispatch %u: %u buffers; a pipeline has at most %d bindings", who, i,
                        in[i].buffer_count, SPVGEN_MAX_BINDINGS);
    if (in[i].buffer_count && !in[i].buffers)
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "%s: dispatch %u: buffers is NULL with buffer_count %u", who, i,
                        in[i].buffer_count);
    nb += in[i].buffer_count;
  }
  spvgen_vk_record_desc *rd = calloc(count, sizeof *rd);
  spvgen_vk_buffer_range *br = nb ? calloc(nb, sizeof *br) : NULL;
  if (!rd || (nb && !br)) {
    free(rd);
    free(br);
    return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  }
  size_t at = 0;
  for (uint32_t i = 0; i < count; i++) {
    rd[i].pipeline = in[i].pipeline;
    rd[i].buffers = br + at;
    rd[i].buffer_count = in[i].buffer_count;
    rd[i].push_data = in[i].push_data;
    rd[i].push_size = in[i].push_size;
    memcpy(rd[i].groups, in[i].groups, sizeof rd[i].groups);
    rd[i].min_sizes = in[i].min_sizes;
    /* Only as many buffers as the pipeline has are read (sg_vk_resolve names the other
     * mismatches). */
    const spvgen_vk_pipeline *pp = in[i].pipeline;
    bool readable = pp && pp->ctx == ctx && in[i].buffer_count == pp->info.binding_count;
    for (uint32_t k = 0; readable && k < in[i].buffer_count; k++) {
      const spvgen_vk_buffer *b = in[i].buffers[k];
      if (!b) {
        const spvgen_vk_pipeline *p = in[i].pipeline;
        const char *name = p && p->ctx == ctx && k < p->info.binding_count ? p->info.bindings[k].name : NULL;
        free(rd);
        free(br);
        return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: dispatch %u: buffers[%u] (binding %u%s%s%s) is NULL", who, i, k, k,
                          name ? " '" : "", name ? name : "", name ? "'" : "");
      }
      br[at + k].buffer = (spvgen_vk_buffer *)b;
      if (in[i].offsets) br[at + k].offset = in[i].offsets[k];
    }
    at += in[i].buffer_count;
  }
  *out = rd;
  *ranges = br;
  return SPVGEN_OK;
}

/* spvgen_vk_run, spvgen_vk_run_steps and spvgen_vk_dispatch; who: the one called, for
 * messages; ns (count / group entries) timed per step of `group` dispatches. */
static spvgen_status run(spvgen_vk_context *ctx, const char *who,
                         const spvgen_vk_dispatch_desc *dispatches, uint32_t count, uint32_t group, uint64_t *ns) {
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  if (!group || count % group)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %u dispatches are not whole steps of %u", who, count,
                      group);
  spvgen_vk_record_desc *d;
  spvgen_vk_buffer_range *ranges;
  st = to_record(ctx, who, dispatches, count, &d, &ranges);
  if (st != SPVGEN_OK) return st;
  uint64_t sets, storage, uniform;
  st = check_all(ctx, who, d, count, &sets, &storage, &uniform);
  if (ns) memset(ns, 0, count / group * sizeof *ns);
  bool timing = ns && (ctx->caps.features & SPVGEN_FEATURE_TIMESTAMPS);
  if (st == SPVGEN_OK)
    st = sg_vk_pool_reserve(ctx, who, &ctx->descriptors, (uint32_t)sets, (uint32_t)storage,
                            (uint32_t)uniform);
  if (st == SPVGEN_OK && timing) st = ensure_query_pool(ctx, who, 2 * count);
  if (st == SPVGEN_OK) st = sg_vk_begin(ctx, who);
  if (st != SPVGEN_OK) {
    free(d);
    free(ranges);
    return st;
  }
  if (timing) ctx->vkd.vkCmdResetQueryPool(ctx->cmd, ctx->query_pool, 0, 2 * count);
  st = record_all(ctx, who, ctx->cmd, &ctx->descriptors, d, count, 0,
                  timing ? ctx->query_pool : VK_NULL_HANDLE);
  free(d);
  free(ranges);
  if (st != SPVGEN_OK) {
    ctx->vkd.vkEndCommandBuffer(ctx->cmd); /* never submitted; reset by the next begin */
    return st;
  }
  st = sg_vk_submit_wait(ctx, who);
  if (st != SPVGEN_OK || !timing) return st;

  uint64_t *ticks = calloc(2 * (size_t)count, sizeof *ticks);
  if (!ticks) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  VkResult r = ctx->vkd.vkGetQueryPoolResults(ctx->device, ctx->query_pool, 0, 2 * count,
                                              2 * count * sizeof *ticks, ticks, sizeof *ticks,
                                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  if (r != VK_SUCCESS) {
    free(ticks);
    return sg_vk_fail_call(ctx, who, "vkGetQueryPoolResults", r);
  }
  uint32_t bits = ctx->caps.timestamp_valid_bits;
  uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  double period = ctx->caps.timestamp_period > 0 ? ctx->caps.timestamp_period : 1.0;
  for (uint32_t i = 0; i < count / group; i++) { /* from the step's first start to its last end */
    uint64_t delta = ((ticks[2 * (i * group + group - 1) + 1] & mask) - (ticks[2 * i * group] & mask)) & mask;
    ns[i] = (uint64_t)((double)delta * period + 0.5);
  }
  free(ticks);
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_run(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dispatches,
                            uint32_t count, uint64_t *ns) {
  return run(ctx, "spvgen_vk_run", dispatches, count, 1, ns);
}

spvgen_status spvgen_vk_run_steps(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dispatches, uint32_t count,
                                  uint32_t group, uint64_t *ns) {
  return run(ctx, "spvgen_vk_run_steps", dispatches, count, group, ns);
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
  return run(ctx, "spvgen_vk_dispatch", &d, 1, 1, ns);
}

/* ------------------------------------------------------------------ async ---- */
/* The frame's submission is done: note its ticket. */
static void frame_done(spvgen_vk_context *ctx, sg_vk_frame *f) {
  if (f->ticket > ctx->completed) ctx->completed = f->ticket;
  f->ticket = 0;
}

/* Waits for a frame's submission (the context's timeout); a timeout makes the context
 * unusable, as for the synchronous calls. */
static spvgen_status frame_wait(spvgen_vk_context *ctx, const char *who, sg_vk_frame *f) {
  if (!f->ticket) return SPVGEN_OK;
  VkResult r = ctx->vkd.vkWaitForFences(ctx->device, 1, &f->fence, VK_TRUE,
                                        (uint64_t)ctx->timeout_ms * 1000000ull);
  if (r == VK_TIMEOUT) {
    ctx->lost = true;
    return sg_vk_fail(ctx, SPVGEN_ERROR_VULKAN,
                      "%s: vkWaitForFences failed: VK_TIMEOUT (%d): submission %llu ran longer than "
                      "%u ms; the context is now unusable",
                      who, (int)r, (unsigned long long)f->ticket, ctx->timeout_ms);
  }
  if (r != VK_SUCCESS) {
    ctx->lost = true;
    return sg_vk_fail_call(ctx, who, "vkWaitForFences", r);
  }
  frame_done(ctx, f);
  return SPVGEN_OK;
}

static spvgen_status frames_create(spvgen_vk_context *ctx, const char *who) {
  if (ctx->frames[0].cmd) return SPVGEN_OK;
  for (int i = 0; i < SG_VK_FRAMES; i++) {
    sg_vk_frame *f = &ctx->frames[i];
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                   VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, ctx->queue_family};
    VkResult r = ctx->vkd.vkCreateCommandPool(ctx->device, &pci, NULL, &f->command_pool);
    if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkCreateCommandPool", r);
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL,
                                       f->command_pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    r = ctx->vkd.vkAllocateCommandBuffers(ctx->device, &cai, &f->cmd);
    if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkAllocateCommandBuffers", r);
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
    r = ctx->vkd.vkCreateFence(ctx->device, &fci, NULL, &f->fence);
    if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkCreateFence", r);
  }
  if (ctx->timeline_semaphores && !ctx->timeline) {
    VkSemaphoreTypeCreateInfo tci = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL,
                                     VK_SEMAPHORE_TYPE_TIMELINE, ctx->submitted};
    VkSemaphoreCreateInfo sci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &tci, 0};
    VkResult r = ctx->vkd.vkCreateSemaphore(ctx->device, &sci, NULL, &ctx->timeline);
    if (r != VK_SUCCESS) {
      ctx->timeline = VK_NULL_HANDLE;
      return sg_vk_fail_call(ctx, who, "vkCreateSemaphore", r);
    }
  }
  return SPVGEN_OK;
}

void sg_vk_frames_destroy(spvgen_vk_context *ctx) {
  for (int i = 0; i < SG_VK_FRAMES; i++) {
    sg_vk_frame *f = &ctx->frames[i];
    sg_vk_pool_destroy(ctx, &f->descriptors);
    if (f->fence) ctx->vkd.vkDestroyFence(ctx->device, f->fence, NULL);
    if (f->command_pool) ctx->vkd.vkDestroyCommandPool(ctx->device, f->command_pool, NULL);
    memset(f, 0, sizeof *f);
  }
  if (ctx->timeline) ctx->vkd.vkDestroySemaphore(ctx->device, ctx->timeline, NULL);
  ctx->timeline = VK_NULL_HANDLE;
}

spvgen_status spvgen_vk_submit(spvgen_vk_context *ctx, const spvgen_vk_submit_desc *desc,
                               uint64_t *ticket) {
  static const char *who = "spvgen_vk_submit";
  if (ticket) *ticket = 0;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  if (!desc) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: desc is NULL", who);
  if (desc->flags & ~(uint32_t)SPVGEN_VK_RECORD_NO_BARRIERS)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", who,
                      desc->flags & ~(uint32_t)SPVGEN_VK_RECORD_NO_BARRIERS);
  uint64_t sets, storage, uniform;
  st = check_all(ctx, who, desc->dispatches, desc->count, &sets, &storage, &uniform);
  if (st == SPVGEN_OK) st = frames_create(ctx, who);
  if (st != SPVGEN_OK) return st;
  sg_vk_frame *f = &ctx->frames[ctx->next_frame];
  st = frame_wait(ctx, who, f); /* the ring is full: the oldest submission first */
  if (st != SPVGEN_OK) return st;
  if (sets) {
    st = sg_vk_pool_reserve(ctx, who, &f->descriptors, (uint32_t)sets, (uint32_t)storage,
                            (uint32_t)uniform);
    if (st != SPVGEN_OK) return st;
  }
  VkResult r = ctx->vkd.vkResetCommandPool(ctx->device, f->command_pool, 0);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkResetCommandPool", r);
  VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                 VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
  r = ctx->vkd.vkBeginCommandBuffer(f->cmd, &bi);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkBeginCommandBuffer", r);
  /* The same barriers as a synchronous call: after everything before, and visible to
   * everything after (the host included). */
  sg_vk_full_barrier_on(ctx, f->cmd);
  st = record_all(ctx, who, f->cmd, &f->descriptors, desc->dispatches, desc->count, desc->flags,
                  VK_NULL_HANDLE);
  sg_vk_full_barrier_on(ctx, f->cmd);
  r = ctx->vkd.vkEndCommandBuffer(f->cmd);
  if (st != SPVGEN_OK) return st;
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkEndCommandBuffer", r);
  r = ctx->vkd.vkResetFences(ctx->device, 1, &f->fence);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkResetFences", r);

  uint64_t value = ctx->submitted + 1;
  VkTimelineSemaphoreSubmitInfo tsi = {VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, NULL, 0,
                                       NULL, 1, &value};
  VkSubmitInfo si;
  memset(&si, 0, sizeof si);
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &f->cmd;
  if (ctx->timeline) {
    si.pNext = &tsi;
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &ctx->timeline;
  }
  r = ctx->vkd.vkQueueSubmit(ctx->queue, 1, &si, f->fence);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkQueueSubmit", r);
  if (desc->fence) {
    /* The caller's fence: signaled by an empty submission after ours (queue order). */
    r = ctx->vkd.vkQueueSubmit(ctx->queue, 0, NULL, (VkFence)desc->fence);
    if (r != VK_SUCCESS) {
      ctx->submitted = value;
      f->ticket = value;
      ctx->next_frame = (ctx->next_frame + 1) % SG_VK_FRAMES;
      return sg_vk_fail_call(ctx, who, "vkQueueSubmit (the caller's fence)", r);
    }
  }
  ctx->submitted = value;
  f->ticket = value;
  ctx->next_frame = (ctx->next_frame + 1) % SG_VK_FRAMES;
  if (ticket) *ticket = value;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_wait(spvgen_vk_context *ctx, uint64_t ticket) {
  static const char *who = "spvgen_vk_wait";
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (ticket > ctx->submitted)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "%s: ticket %llu was never submitted (the last is %llu)", who,
                      (unsigned long long)ticket, (unsigned long long)ctx->submitted);
  if (ticket == 0) ticket = ctx->submitted;
  if (ticket <= ctx->completed) return SPVGEN_OK;
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  /* Submissions complete in order: wait for every frame up to the ticket. */
  for (int i = 0; i < SG_VK_FRAMES; i++) {
    sg_vk_frame *f = &ctx->frames[i];
    if (f->ticket && f->ticket <= ticket) {
      st = frame_wait(ctx, who, f);
      if (st != SPVGEN_OK) return st;
    }
  }
  if (ticket > ctx->completed) ctx->completed = ticket;
  return SPVGEN_OK;
}

uint64_t spvgen_vk_completed(spvgen_vk_context *ctx) {
  if (!ctx) return 0;
  for (int i = 0; i < SG_VK_FRAMES; i++) {
    sg_vk_frame *f = &ctx->frames[i];
    if (f->ticket && ctx->vkd.vkGetFenceStatus(ctx->device, f->fence) == VK_SUCCESS) frame_done(ctx, f);
  }
  /* Tickets below the oldest one still in flight are complete too. */
  uint64_t oldest = 0;
  for (int i = 0; i < SG_VK_FRAMES; i++)
    if (ctx->frames[i].ticket && (!oldest || ctx->frames[i].ticket < oldest)) oldest = ctx->frames[i].ticket;
  if (!oldest) return ctx->completed = ctx->submitted;
  if (oldest - 1 > ctx->completed) ctx->completed = oldest - 1;
  return ctx->completed;
}

uint64_t spvgen_vk_timeline(const spvgen_vk_context *ctx) {
  return ctx ? (uint64_t)ctx->timeline : 0;
}
