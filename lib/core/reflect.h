/* lib/core/reflect.h — the SPIR-V reader behind spvgen_kernel_reflect (kernel.h) and the
 * runner's checks before a driver sees a module (lib/vk/pipeline.c). Private to spvgen's
 * libraries. */
#ifndef SPVGEN_CORE_REFLECT_H
#define SPVGEN_CORE_REFLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/caps.h"
#include "spvgen/kernel.h"
#include "spvgen/status.h"

/* ------------------------------------------------------- SPIR-V reflection ---- */
typedef struct sg_reflected_binding {
  uint32_t set, binding;
  spvgen_binding_kind kind;
  uint64_t min_size; /* static part of the block */
  bool supported;    /* false: an image, sampler or other non-buffer descriptor */
} sg_reflected_binding;

#define SG_REFLECT_MAX_BINDINGS 64

typedef struct sg_reflection {
  uint32_t version;            /* header word */
  bool entry_found;
  uint32_t local_size[3];      /* 0: not a literal LocalSize */
  bool local_size_id;          /* LocalSizeId was used */
  uint32_t push_constant_size; /* static size of the push constant block, 0 if none */
  uint32_t binding_count;
  sg_reflected_binding bindings[SG_REFLECT_MAX_BINDINGS];
  uint64_t required_features;      /* SPVGEN_FEATURE_* implied by capabilities and types */
  uint32_t required_subgroup_ops;  /* SPVGEN_SUBGROUP_* implied by capabilities */
  uint32_t required_api_version;   /* SPVGEN_API_VERSION its core capabilities need (0: 1.0) */
  const char *api_version_reason;  /* the capability that needs it */
  const char *feature_reason[SPVGEN_FEATURE_COUNT]; /* what in the module needs it */
  char entry_points[256];          /* names of the GLCompute entry points, for messages */
  uint32_t capability_count;       /* OpCapability declarations kept (module order) */
  uint32_t capabilities[SPVGEN_MAX_CAPABILITIES];
  uint64_t size_work;              /* operands visited computing type sizes: linear in the
                                      module (tests bound it by the word count) */
} sg_reflection;

/* Reads what the runner checks from a module. Returns SPVGEN_OK,
 * SPVGEN_ERROR_INVALID_ARGUMENT with message (malformed words), or
 * SPVGEN_ERROR_UNSUPPORTED with message naming a declared capability that Vulkan does not
 * allow or that the runner cannot map to a Vulkan version, feature or subgroup operation. */
spvgen_status sg_reflect(const uint32_t *words, size_t count, const char *entry_point,
                                sg_reflection *out, char *message, size_t message_size);

/* Fills info's bindings (sorted by set, binding; each keeps the name, min_size, access
 * and alignment info gave the same set and binding; DEVICE_ADDRESS bindings of info
 * follow), push constant size, literal local size and what the words need (features,
 * subgroup operations, versions, capabilities) from a reflection: the one derivation
 * behind spvgen_kernel_reflect and the runner's info-less pipelines. */
spvgen_status sg_reflection_to_info(const sg_reflection *r, spvgen_kernel_info *info,
                                        char *message, size_t message_size);

#endif
