/* lib/vk/buffer.c — buffers: device-local ones filled and read through a staging buffer,
 * host-visible ones mapped for life, device addresses, fills. One allocation per buffer:
 * the runner serves tests, samples and benchmarks, not thousands of small objects. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Staging chunk: transfers larger than this are done in several submissions. */
#define STAGING_MAX (64ull << 20)

uint32_t sg_vk_memory_type(const spvgen_vk_context *ctx, uint32_t type_bits,
                               VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  uint32_t fallback = UINT32_MAX;
  for (uint32_t i = 0; i < ctx->memory.memoryTypeCount && i < VK_MAX_MEMORY_TYPES; i++) {
    if (!(type_bits & (1u << i))) continue;
    VkMemoryPropertyFlags f = ctx->memory.memoryTypes[i].propertyFlags;
    if ((f & required) != required) continue;
    if ((f & preferred) == preferred) return i;
    if (fallback == UINT32_MAX) fallback = i;
  }
  return fallback;
}

void sg_vk_buffer_free(spvgen_vk_buffer *b) {
  if (!b) return;
  spvgen_vk_context *ctx = b->ctx;
  if (b->mapped) ctx->vkd.vkUnmapMemory(ctx->device, b->memory);
  if (b->buffer) ctx->vkd.vkDestroyBuffer(ctx->device, b->buffer, NULL);
  if (b->memory) ctx->vkd.vkFreeMemory(ctx->device, b->memory, NULL);
  free(b);
}

spvgen_status sg_vk_buffer_make(spvgen_vk_context *ctx, const char *who, uint64_t size,
                                    uint32_t flags, spvgen_vk_buffer **out) {
  *out = NULL;
  const spvgen_device_caps *caps = &ctx->caps;
  if (size == 0)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: size is 0", who);
  if (flags & ~(uint32_t)(SPVGEN_VK_BUFFER_HOST_VISIBLE | SPVGEN_VK_BUFFER_DEVICE_ADDRESS))
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", who,
                          flags);
  if (caps->max_buffer_size && size > caps->max_buffer_size)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: size %llu exceeds the device's maxBufferSize %llu", who,
                          (unsigned long long)size, (unsigned long long)caps->max_buffer_size);
  /* maxMemoryAllocationSize is a soft limit: Vulkan lets an allocation past it fail with
   * VK_ERROR_OUT_OF_DEVICE_MEMORY, not forbids it, and drivers that report about 4 GiB
   * (NVIDIA's) allocate more. A buffer's hard limit is maintenance4's maxBufferSize
   * (above); only a device that reports none is held to maxMemoryAllocationSize. */
  if (!caps->max_buffer_size && caps->max_memory_allocation_size && size > caps->max_memory_allocation_size)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: size %llu exceeds the device's maxMemoryAllocationSize %llu", who,
                          (unsigned long long)size,
                          (unsigned long long)caps->max_memory_allocation_size);
  bool address = (flags & SPVGEN_VK_BUFFER_DEVICE_ADDRESS) != 0;
  if (address && !(caps->features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS))
    return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: SPVGEN_VK_BUFFER_DEVICE_ADDRESS needs the feature "
                          "bufferDeviceAddress, which device '%s' does not have enabled",
                          who, caps->name);

  spvgen_vk_buffer *b = calloc(1, sizeof *b);
  if (!b) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  b->ctx = ctx;
  b->size = size;
  b->flags = flags;
  VkBufferCreateInfo bci;
  memset(&bci, 0, sizeof bci);
  bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bci.size = size;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (address) bci.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkResult r = ctx->vkd.vkCreateBuffer(ctx->device, &bci, NULL, &b->buffer);
  if (r != VK_SUCCESS) {
    b->buffer = VK_NULL_HANDLE;
    sg_vk_buffer_free(b);
    return sg_vk_fail_call(ctx, who, "vkCreateBuffer", r);
  }
  VkMemoryRequirements req;
  ctx->vkd.vkGetBufferMemoryRequirements(ctx->device, b->buffer, &req);
  bool host = (flags & SPVGEN_VK_BUFFER_HOST_VISIBLE) != 0;
  uint32_t type =
      host ? sg_vk_memory_type(ctx, req.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                   VK_MEMORY_PROPERTY_HOST_CACHED_BIT)
           : sg_vk_memory_type(ctx, req.memoryTypeBits, 0,
                                   VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type == UINT32_MAX) {
    sg_vk_buffer_free(b);
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                          "%s: no %s memory type fits the buffer (memoryTypeBits 0x%x)", who,
                          host ? "host-visible coherent" : "", req.memoryTypeBits);
  }
  /* An allocation must fit its heap (VUID-vkAllocateMemory-pAllocateInfo-01713). */
  uint32_t heap = ctx->memory.memoryTypes[type].heapIndex;
  if (heap < ctx->memory.memoryHeapCount && req.size > ctx->memory.memoryHeaps[heap].size) {
    uint64_t heap_size = ctx->memory.memoryHeaps[heap].size;
    sg_vk_buffer_free(b);
    return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY,
                      "%s: %llu bytes of memory type %u exceed its heap %u (%llu bytes)", who,
                      (unsigned long long)req.size, type, heap, (unsigned long long)heap_size);
  }
  VkMemoryAllocateFlagsInfo mafi = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, NULL,
                                    VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, 0};
  VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, address ? &mafi : NULL,
                              req.size, type};
  r = ctx->vkd.vkAllocateMemory(ctx->device, &mai, NULL, &b->memory);
  if (r != VK_SUCCESS) {
    b->memory = VK_NULL_HANDLE;
    sg_vk_buffer_free(b);
    return sg_vk_fail(ctx,
                          r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY
                              ? SPVGEN_ERROR_OUT_OF_MEMORY
                              : SPVGEN_ERROR_VULKAN,
                          "%s: vkAllocateMemory failed: %s (%d) for %llu bytes of memory type %u%s",
                          who, sg_vk_result_name(r), (int)r,
                          (unsigned long long)req.size, type,
                          caps->max_memory_allocation_size && req.size > caps->max_memory_allocation_size
                              ? " (more than the device's maxMemoryAllocationSize, which drivers may "
                                "refuse)"
                              : "");
  }
  r = ctx->vkd.vkBindBufferMemory(ctx->device, b->buffer, b->memory, 0);
  if (r != VK_SUCCESS) {
    sg_vk_buffer_free(b);
    return sg_vk_fail_call(ctx, who, "vkBindBufferMemory", r);
  }
  if (host) {
    r = ctx->vkd.vkMapMemory(ctx->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped);
    if (r != VK_SUCCESS) {
      b->mapped = NULL;
      sg_vk_buffer_free(b);
      return sg_vk_fail_call(ctx, who, "vkMapMemory", r);
    }
  }
  if (address) {
    VkBufferDeviceAddressInfo ai = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, b->buffer};
    /* Core in Vulkan 1.2; a 1.1 device has it through VK_KHR_buffer_device_address. */
    PFN_vkGetBufferDeviceAddress get_address = ctx->vkd.vkGetBufferDeviceAddress
                                                   ? ctx->vkd.vkGetBufferDeviceAddress
                                                   : ctx->vkd.vkGetBufferDeviceAddressKHR;
    if (!get_address) {
      sg_vk_buffer_free(b);
      return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                            "%s: neither vkGetBufferDeviceAddress nor vkGetBufferDeviceAddressKHR "
                            "is available on this device (bufferDeviceAddress)", who);
    }
    b->address = get_address(ctx->device, &ai);
    if (!b->address) {
      sg_vk_buffer_free(b);
      return sg_vk_fail(ctx, SPVGEN_ERROR_VULKAN,
                            "%s: vkGetBufferDeviceAddress returned 0", who);
    }
  }
  *out = b;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_buffer_create(spvgen_vk_context *ctx, uint64_t size, uint32_t flags,
                                      spvgen_vk_buffer **out) {
  static const char *who = "spvgen_vk_buffer_create";
  if (out) *out = NULL;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!out) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: out is NULL", who);
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  st = sg_vk_buffer_make(ctx, who, size, flags, out);
  if (st != SPVGEN_OK) return st;
  spvgen_vk_buffer *b = *out;
  b->next = ctx->buffers;
  if (ctx->buffers) ctx->buffers->prev = b;
  ctx->buffers = b;
  return SPVGEN_OK;
}

void spvgen_vk_buffer_destroy(spvgen_vk_buffer *b) {
  if (!b) return;
  spvgen_vk_context *ctx = b->ctx;
  sg_vk_settle(ctx);
  if (b->prev) b->prev->next = b->next;
  else if (ctx->buffers == b) ctx->buffers = b->next;
  if (b->next) b->next->prev = b->prev;
  sg_vk_buffer_free(b);
}

spvgen_status sg_vk_check_buffer(spvgen_vk_context *ctx, const char *who,
                                     const spvgen_vk_buffer *b, const char *what) {
  if (!b)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", who, what);
  if (b->ctx != ctx)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: %s belongs to another context", who, what);
  return SPVGEN_OK;
}

/* Checks a host transfer's arguments. */
static spvgen_status check_range(spvgen_vk_context *ctx, const char *who,
                                 const spvgen_vk_buffer *b, uint64_t offset, const void *data,
                                 uint64_t size) {
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  st = sg_vk_check_buffer(ctx, who, b, "buffer");
  if (st != SPVGEN_OK) return st;
  if (size && !data)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: data is NULL", who);
  if (offset > b->size || size > b->size - offset)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: range [%llu, %llu) is outside the buffer of %llu bytes", who,
                          (unsigned long long)offset, (unsigned long long)(offset + size),
                          (unsigned long long)b->size);
  return SPVGEN_OK;
}

static spvgen_status ensure_staging(spvgen_vk_context *ctx, const char *who, uint64_t size) {
  if (ctx->staging && ctx->staging->size >= size) return SPVGEN_OK;
  uint64_t want = ctx->staging ? ctx->staging->size : (1ull << 20);
  while (want < size) want *= 2;
  if (want > STAGING_MAX) want = STAGING_MAX;
  if (want < size) want = size;
  sg_vk_buffer_free(ctx->staging);
  ctx->staging = NULL;
  return sg_vk_buffer_make(ctx, who, want, SPVGEN_VK_BUFFER_HOST_VISIBLE, &ctx->staging);
}

static spvgen_status copy_buffer(spvgen_vk_context *ctx, const char *who, VkBuffer src,
                                 uint64_t src_offset, VkBuffer dst, uint64_t dst_offset,
                                 uint64_t size) {
  spvgen_status st = sg_vk_begin(ctx, who);
  if (st != SPVGEN_OK) return st;
  VkBufferCopy region = {src_offset, dst_offset, size};
  ctx->vkd.vkCmdCopyBuffer(ctx->cmd, src, dst, 1, &region);
  return sg_vk_submit_wait(ctx, who);
}

spvgen_status spvgen_vk_buffer_upload(spvgen_vk_context *ctx, spvgen_vk_buffer *b,
                                      uint64_t offset, const void *data, uint64_t size) {
  static const char *who = "spvgen_vk_buffer_upload";
  spvgen_status st = check_range(ctx, who, b, offset, data, size);
  if (st != SPVGEN_OK || size == 0) return st;
  if (b->mapped) {
    memcpy((char *)b->mapped + offset, data, (size_t)size);
    return SPVGEN_OK;
  }
  const char *src = data;
  while (size > 0) {
    uint64_t chunk = size < STAGING_MAX ? size : STAGING_MAX;
    st = ensure_staging(ctx, who, chunk);
    if (st != SPVGEN_OK) return st;
    memcpy(ctx->staging->mapped, src, (size_t)chunk);
    st = copy_buffer(ctx, who, ctx->staging->buffer, 0, b->buffer, offset, chunk);
    if (st != SPVGEN_OK) return st;
    src += chunk;
    offset += chunk;
    size -= chunk;
  }
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_buffer_download(spvgen_vk_context *ctx, spvgen_vk_buffer *b,
                                        uint64_t offset, void *data, uint64_t size) {
  static const char *who = "spvgen_vk_buffer_download";
  spvgen_status st = check_range(ctx, who, b, offset, data, size);
  if (st != SPVGEN_OK || size == 0) return st;
  if (b->mapped) {
    memcpy(data, (const char *)b->mapped + offset, (size_t)size);
    return SPVGEN_OK;
  }
  char *dst = data;
  while (size > 0) {
    uint64_t chunk = size < STAGING_MAX ? size : STAGING_MAX;
    st = ensure_staging(ctx, who, chunk);
    if (st != SPVGEN_OK) return st;
    st = copy_buffer(ctx, who, b->buffer, offset, ctx->staging->buffer, 0, chunk);
    if (st != SPVGEN_OK) return st;
    memcpy(dst, ctx->staging->mapped, (size_t)chunk);
    dst += chunk;
    offset += chunk;
    size -= chunk;
  }
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_buffer_fill(spvgen_vk_context *ctx, spvgen_vk_buffer *b, uint64_t offset,
                                    uint64_t size, uint32_t value) {
  static const char *who = "spvgen_vk_buffer_fill";
  static const char dummy = 0;
  spvgen_status st = check_range(ctx, who, b, offset, &dummy, size);
  if (st != SPVGEN_OK || size == 0) return st;
  if (offset % 4 || size % 4)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: offset %llu and size %llu must be multiples of 4", who,
                          (unsigned long long)offset, (unsigned long long)size);
  st = sg_vk_begin(ctx, who);
  if (st != SPVGEN_OK) return st;
  ctx->vkd.vkCmdFillBuffer(ctx->cmd, b->buffer, offset, size, value);
  return sg_vk_submit_wait(ctx, who);
}

uint64_t spvgen_vk_buffer_size(const spvgen_vk_buffer *b) { return b ? b->size : 0; }
uint64_t spvgen_vk_buffer_address(const spvgen_vk_buffer *b) { return b ? b->address : 0; }
void *spvgen_vk_buffer_map(const spvgen_vk_buffer *b) { return b ? b->mapped : NULL; }
uint64_t spvgen_vk_buffer_handle(const spvgen_vk_buffer *b) {
  if (!b) return 0;
#if defined(VK_USE_64_BIT_PTR_DEFINES) && VK_USE_64_BIT_PTR_DEFINES == 1
  return (uint64_t)(uintptr_t)b->buffer; /* non-dispatchable handles are pointers here */
#else
  return (uint64_t)b->buffer;
#endif
}
