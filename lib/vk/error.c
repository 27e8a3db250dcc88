/* lib/vk/error.c — the runner's error messages: VkResult names and the formatting every
 * failing call goes through. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *sg_vk_result_name(VkResult result) {
  switch ((int)result) {
  case VK_SUCCESS: return "VK_SUCCESS";
  case VK_NOT_READY: return "VK_NOT_READY";
  case VK_TIMEOUT: return "VK_TIMEOUT";
  case VK_EVENT_SET: return "VK_EVENT_SET";
  case VK_EVENT_RESET: return "VK_EVENT_RESET";
  case VK_INCOMPLETE: return "VK_INCOMPLETE";
  case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
  case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
  case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
  case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
  case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
  case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
  case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
  case VK_ERROR_INVALID_EXTERNAL_HANDLE: return "VK_ERROR_INVALID_EXTERNAL_HANDLE";
  case VK_ERROR_FRAGMENTATION: return "VK_ERROR_FRAGMENTATION";
  case VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS: return "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS";
  case VK_PIPELINE_COMPILE_REQUIRED: return "VK_PIPELINE_COMPILE_REQUIRED";
  case VK_ERROR_NOT_PERMITTED: return "VK_ERROR_NOT_PERMITTED";
  case VK_ERROR_VALIDATION_FAILED_EXT: return "VK_ERROR_VALIDATION_FAILED_EXT";
  case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
  case VK_ERROR_OUT_OF_DATE_KHR: return "VK_ERROR_OUT_OF_DATE_KHR";
  case VK_ERROR_SURFACE_LOST_KHR: return "VK_ERROR_SURFACE_LOST_KHR";
  case VK_THREAD_IDLE_KHR: return "VK_THREAD_IDLE_KHR";
  case VK_THREAD_DONE_KHR: return "VK_THREAD_DONE_KHR";
  case VK_OPERATION_DEFERRED_KHR: return "VK_OPERATION_DEFERRED_KHR";
  case VK_OPERATION_NOT_DEFERRED_KHR: return "VK_OPERATION_NOT_DEFERRED_KHR";
  case VK_ERROR_COMPRESSION_EXHAUSTED_EXT: return "VK_ERROR_COMPRESSION_EXHAUSTED_EXT";
  default: return "VkResult (unknown value)";
  }
}

void sg_vk_format(char *out, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(out, size, SPVGEN_OK, NULL, fmt, ap);
  va_end(ap);
}

spvgen_status sg_vk_fail(spvgen_vk_context *ctx, spvgen_status status, const char *fmt, ...) {
  if (!ctx) return status;
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(ctx->error, sizeof ctx->error, status, NULL, fmt, ap);
  va_end(ap);
  return status;
}

spvgen_status sg_vk_fail_call(spvgen_vk_context *ctx, const char *who, const char *call,
                                  VkResult result) {
  if (result == VK_ERROR_DEVICE_LOST && ctx) ctx->lost = true;
  /* Memory the driver could not get is SPVGEN_ERROR_OUT_OF_MEMORY, like ours. */
  spvgen_status st = result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY
                         ? SPVGEN_ERROR_OUT_OF_MEMORY
                         : SPVGEN_ERROR_VULKAN;
  return sg_vk_fail(ctx, st, "%s: %s failed: %s (%d)", who, call, sg_vk_result_name(result), (int)result);
}

spvgen_status sg_vk_check_usable(spvgen_vk_context *ctx, const char *who) {
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (ctx->lost)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_STATE,
                          "%s: the context is unusable after an earlier device loss or "
                          "timeout; destroy it and create a new one",
                          who);
  return SPVGEN_OK;
}

const char *spvgen_vk_error(const spvgen_vk_context *ctx) {
  return ctx ? ctx->error : "";
}
