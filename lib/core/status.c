/* lib/core/status.c — names of status codes, and spvgen_kernel_free. */
#include <stdlib.h>
#include <string.h>

#include "spvgen/kernel.h"
#include "spvgen/status.h"
#include "names.h"

const char *spvgen_status_name(spvgen_status status) {
  switch (status) {
  case SPVGEN_OK: return "SPVGEN_OK";
  case SPVGEN_ERROR_INVALID_ARGUMENT: return "SPVGEN_ERROR_INVALID_ARGUMENT";
  case SPVGEN_ERROR_INVALID_STATE: return "SPVGEN_ERROR_INVALID_STATE";
  case SPVGEN_ERROR_UNSUPPORTED: return "SPVGEN_ERROR_UNSUPPORTED";
  case SPVGEN_ERROR_OUT_OF_MEMORY: return "SPVGEN_ERROR_OUT_OF_MEMORY";
  case SPVGEN_ERROR_VALIDATION: return "SPVGEN_ERROR_VALIDATION";
  case SPVGEN_ERROR_VULKAN: return "SPVGEN_ERROR_VULKAN";
  case SPVGEN_ERROR_NO_DEVICE: return "SPVGEN_ERROR_NO_DEVICE";
  case SPVGEN_ERROR_IO: return "SPVGEN_ERROR_IO";
  case SPVGEN_ERROR_MISSING_FEATURE: return "SPVGEN_ERROR_MISSING_FEATURE";
  case SPVGEN_ERROR_NOT_CACHED: return "SPVGEN_ERROR_NOT_CACHED";
  }
  return "SPVGEN_ERROR_UNKNOWN";
}

void spvgen_kernel_free(spvgen_kernel *kernel) {
  if (!kernel) return;
  free(kernel->words);
  memset(kernel, 0, sizeof *kernel);
}

static const char *const addressing_names[SPVGEN_ADDRESSING_COUNT] = {"descriptors", "device-address"};
SG_NAMES(spvgen_addressing, addressing_names, NULL, spvgen_addressing_name, spvgen_addressing_parse)
