/* spvgen/status.h — the status codes every spvgen layer returns.
 *
 * The library never prints, aborts or exits: each failure is a status plus, where an
 * object exists to hold it, a message naming the call and what was wrong. */
#ifndef SPVGEN_STATUS_H
#define SPVGEN_STATUS_H

#include "spvgen/export.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

typedef enum spvgen_status {
  SPVGEN_OK = 0,
  SPVGEN_ERROR_INVALID_ARGUMENT = 1, /* a parameter is wrong (bad id, value out of range) */
  SPVGEN_ERROR_INVALID_STATE = 2,    /* a call in the wrong place (outside a block, after finish) */
  SPVGEN_ERROR_UNSUPPORTED = 3,      /* a combination the target or device cannot do */
  SPVGEN_ERROR_OUT_OF_MEMORY = 4,
  SPVGEN_ERROR_VALIDATION = 5,       /* spirv-val rejected a module */
  SPVGEN_ERROR_VULKAN = 6,           /* a Vulkan call failed */
  SPVGEN_ERROR_NO_DEVICE = 7,        /* no Vulkan implementation or device */
  SPVGEN_ERROR_IO = 8,               /* a file could not be read or written */
  SPVGEN_ERROR_MISSING_FEATURE = 9,  /* the device lacks a feature the kernel needs */
  SPVGEN_ERROR_NOT_CACHED = 10,      /* a create asked for cached_only needs the driver's compile */
} spvgen_status;

/* "SPVGEN_OK", "SPVGEN_ERROR_INVALID_ARGUMENT", ...; never NULL. */
const char *spvgen_status_name(spvgen_status status);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
