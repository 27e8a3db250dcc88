/* spvgen/kernel.h — a generated kernel: SPIR-V words plus the metadata the runner (or a
 * framework's own Vulkan code) needs to build a pipeline for it. Emitters fill it; the
 * runner reads it; neither knows the other. A zero-initialized spvgen_kernel_info is a
 * kernel with entry point "main", no bindings, no push constants. */
#ifndef SPVGEN_KERNEL_H
#define SPVGEN_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "spvgen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

#define SPVGEN_MAX_BINDINGS 16
#define SPVGEN_MAX_SPEC_CONSTANTS 32

typedef enum spvgen_binding_kind {
  SPVGEN_BINDING_STORAGE_BUFFER = 0,
  SPVGEN_BINDING_UNIFORM_BUFFER = 1,
} spvgen_binding_kind;

typedef struct spvgen_binding {
  uint32_t set;
  uint32_t binding;
  spvgen_binding_kind kind;
  const char *name; /* optional, for messages; static storage */
} spvgen_binding;

typedef struct spvgen_spec_constant {
  uint32_t id;       /* SpecId */
  uint32_t size;     /* 4 (bool/int/float 32) or 8; 0 means 4 */
  uint64_t value;    /* default value as bits; the runner may override */
  const char *name;  /* optional */
} spvgen_spec_constant;

typedef struct spvgen_kernel_info {
  const char *entry_point;          /* NULL means "main" */
  uint32_t local_size[3];           /* 0 entries mean 1 */
  uint32_t groups[3];               /* the dispatch grid a template chose; 0 entries mean 1
                                       (0, 0, 0: the caller decides, e.g. by problem size) */
  uint32_t required_subgroup_size;  /* 0: any */
  uint32_t push_constant_size;      /* bytes, multiple of 4 */
  uint32_t binding_count;
  spvgen_binding bindings[SPVGEN_MAX_BINDINGS];
  uint32_t spec_constant_count;
  spvgen_spec_constant spec_constants[SPVGEN_MAX_SPEC_CONSTANTS];
} spvgen_kernel_info;

typedef struct spvgen_kernel {
  uint32_t *words;      /* owned; free with spvgen_kernel_free */
  size_t word_count;
  spvgen_kernel_info info;
} spvgen_kernel;

/* Reads a kernel's metadata from its words: the buffer bindings (in (set, binding)
 * order), the push-constant block's size and the literal local size of the entry point
 * info->entry_point (NULL: "main"). What the words cannot say (entry point name, dispatch
 * grid, required subgroup size, spec constant values, binding names) is left as the
 * caller set it. Fails with a message on malformed words, a missing entry point, or a
 * resource that is not a buffer. */
spvgen_status spvgen_kernel_reflect(const uint32_t *words, size_t count, spvgen_kernel_info *info,
                                    char *message, size_t message_size);

/* Frees kernel->words and zeroes the struct; NULL is fine. */
void spvgen_kernel_free(spvgen_kernel *kernel);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
