/* spvgen/elementwise.h — the simplest kernel template: c[i] = a[i] <op> b[i] over n
 * elements, n in a push constant. It is the demo kernel (`spvgen demo`) and the smallest
 * example of the template contract (spvgen/gemm.h describes it in full):
 *   spvgen_elementwise_plan   pure: defaults filled, checked against the device
 *   spvgen_elementwise_plans  the candidates (one per workgroup size)
 *   spvgen_elementwise_emit   into a module the caller owns and reuses
 *   spvgen_elementwise        one-shot: words + metadata. */
#ifndef SPVGEN_ELEMENTWISE_H
#define SPVGEN_ELEMENTWISE_H

#include <stdint.h>

#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

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

/* A resolved desc: every default filled, and what the kernel needs from the device. */
typedef struct spvgen_elementwise_config {
  spvgen_elementwise_desc desc; /* local_size filled */
  uint64_t features;            /* SPVGEN_FEATURE_* the kernel needs */
} spvgen_elementwise_config;

/* Resolves desc (NULL: all defaults) for caps (NULL: no device checks). Fails with
 * SPVGEN_ERROR_INVALID_ARGUMENT (unknown op or type, local_size over 1024) or
 * SPVGEN_ERROR_UNSUPPORTED (an f16 kernel on a device without shaderFloat16 + 16-bit
 * storage, a workgroup over the device's limit); message (optional) says which. */
spvgen_status spvgen_elementwise_plan(const spvgen_elementwise_desc *desc,
                                      const spvgen_device_caps *caps,
                                      spvgen_elementwise_config *plan, char *message,
                                      size_t message_size);
/* The candidates: local sizes 64, 128, 256, 32 (those the device allows; only the
 * desc's own when it sets one). *count gets how many; at most max are written. */
spvgen_status spvgen_elementwise_plans(const spvgen_elementwise_desc *desc,
                                       const spvgen_device_caps *caps,
                                       spvgen_elementwise_config *plans, uint32_t max,
                                       uint32_t *count, char *message, size_t message_size);
/* Builds the kernel into m (fresh or reset; its memory model is the desc's). info
 * (optional) gets the entry point and local size; the dispatch grid depends on n:
 * ceil(n / local_size) workgroups. Errors: the module's sticky error. */
spvgen_status spvgen_elementwise_emit(spvgen_module *m, const spvgen_elementwise_config *plan,
                                      spvgen_kernel_info *info);
/* plan + emit + finish. Bindings: 0 = a (read), 1 = b (read), 2 = c (written), read back
 * from the words into out->info with the push-constant size (4: uint32 n). */
spvgen_status spvgen_elementwise(const spvgen_elementwise_desc *desc,
                                 const spvgen_device_caps *caps, spvgen_kernel *out,
                                 char *message, size_t message_size);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
