/* spvgen/elementwise.h — the simplest kernel template: c[i] = a[i] <op> b[i] over n
 * elements, n in a push constant. It is the demo kernel (`spvgen demo`) and a worked
 * example of the emitter contract every template follows:
 *   parameters (zero-initialized = defaults) + device caps -> spvgen_kernel
 *   (words + the metadata the runner needs). */
#ifndef SPVGEN_ELEMENTWISE_H
#define SPVGEN_ELEMENTWISE_H

#include <stdint.h>

#include "spvgen/caps.h"
#include "spvgen/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum spvgen_elementwise_op {
  SPVGEN_ELEMENTWISE_ADD = 0,
  SPVGEN_ELEMENTWISE_MUL = 1,
  SPVGEN_ELEMENTWISE_MAX = 2,
} spvgen_elementwise_op;

typedef enum spvgen_elementwise_type {
  SPVGEN_ELEMENTWISE_F32 = 0,
  SPVGEN_ELEMENTWISE_F16 = 1,
  SPVGEN_ELEMENTWISE_U32 = 2,
  SPVGEN_ELEMENTWISE_S32 = 3,
} spvgen_elementwise_type;

/* A zero-initialized desc is an f32 add with 64 invocations per workgroup. */
typedef struct spvgen_elementwise_desc {
  spvgen_elementwise_op op;
  spvgen_elementwise_type type;
  uint32_t local_size; /* invocations per workgroup; 0: 64 */
  bool glsl450_memory_model; /* default: the Vulkan memory model */
} spvgen_elementwise_desc;

/* Bindings: 0 = a (read), 1 = b (read), 2 = c (written). Push constant: uint32 n.
 * Dispatch ceil(n / local_size) workgroups. caps may be NULL (no checks); with caps,
 * an f16 kernel on a device without shaderFloat16 + 16-bit storage fails with
 * SPVGEN_ERROR_UNSUPPORTED. On failure message (optional) says why. */
spvgen_status spvgen_elementwise(const spvgen_elementwise_desc *desc,
                                 const spvgen_device_caps *caps, spvgen_kernel *out,
                                 char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif
