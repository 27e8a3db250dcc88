/* spvgen/kernel.h — a generated kernel: SPIR-V words plus the metadata the runner (or a
 * framework's own Vulkan code) needs to build a pipeline for it. Emitters fill it; the
 * runner reads it; neither knows the other. A zero-initialized spvgen_kernel_info is a
 * kernel with entry point "main", no bindings, no push constants. */
#ifndef SPVGEN_KERNEL_H
#define SPVGEN_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

#define SPVGEN_MAX_BINDINGS 16
#define SPVGEN_MAX_SPEC_CONSTANTS 32
#define SPVGEN_MAX_PUSH_FIELDS 24
#define SPVGEN_MAX_CAPABILITIES 48
#define SPVGEN_MAX_SIZE_ARGS 8

typedef enum spvgen_binding_kind {
  SPVGEN_BINDING_STORAGE_BUFFER = 0,
  SPVGEN_BINDING_UNIFORM_BUFFER = 1,
  /* A buffer the kernel reaches through a 64-bit device address (a PhysicalStorageBuffer
   * pointer in its push-constant block, at address_offset): no descriptor; set and
   * binding are unused. The runner writes the address of the buffer it is given into
   * the push constants (spvgen/vk.h, spvgen_vk_cmd_dispatch). Needs the device feature
   * bufferDeviceAddress. */
  SPVGEN_BINDING_DEVICE_ADDRESS = 2,
} spvgen_binding_kind;

/* How a template's kernel reaches its buffers (spvgen_gemm_desc.addressing,
 * spvgen_mlp_desc.addressing). */
typedef enum spvgen_addressing {
  /* Storage-buffer descriptors at set 0 (SPVGEN_BINDING_STORAGE_BUFFER): the default. */
  SPVGEN_ADDRESSING_DESCRIPTORS = 0,
  /* Every buffer a PhysicalStorageBuffer64 pointer in the push-constant block, after the
   * template's own push constants, 8 bytes each (SPVGEN_BINDING_DEVICE_ADDRESS at
   * address_offset): no descriptor set. The module must be created with addressing
   * SpvAddressingModelPhysicalStorageBuffer64 (spvgen_module_desc.addressing); the
   * kernel needs SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS. */
  SPVGEN_ADDRESSING_DEVICE_ADDRESS = 1,
  SPVGEN_ADDRESSING_COUNT = 2,
} spvgen_addressing;

/* "descriptors", "device-address"; NULL for an unknown value. */
const char *spvgen_addressing_name(spvgen_addressing addressing);
bool spvgen_addressing_parse(const char *name, spvgen_addressing *out);

/* How a kernel uses a binding (spvgen_binding.access); 0 means "not said": read and
 * written, as far as a caller's barriers go. */
#define SPVGEN_ACCESS_READ 1u
#define SPVGEN_ACCESS_WRITE 2u

typedef struct spvgen_binding {
  uint32_t set;
  uint32_t binding;
  spvgen_binding_kind kind;
  const char *name;  /* optional, for messages ("A", "weights"); static storage */
  /* The bytes the kernel may touch, from the start of the range it is given: the runner
   * refuses a smaller buffer or range, naming the binding. A template fills it for the
   * shape it planned; 0: no requirement beyond the block's static part (which the runner
   * reads from the words). Sizes that depend on run-time values come from
   * binding_sizes below, or from the dispatch (spvgen_vk_record_desc.min_sizes). */
  uint64_t min_size;
  uint32_t access;          /* SPVGEN_ACCESS_* bits; 0: not said */
  uint32_t address_offset;  /* DEVICE_ADDRESS: byte offset of the 64-bit address in the
                               push-constant block (a multiple of 8) */
  uint32_t alignment;       /* bytes the start of the range must be aligned to beyond the
                               device's own rule; 0: 4 (DEVICE_ADDRESS), none otherwise */
} spvgen_binding;

/* One named value of the push-constant block (a shape, a count, a scalar). Device
 * addresses are bindings (SPVGEN_BINDING_DEVICE_ADDRESS), not fields. */
typedef struct spvgen_push_field {
  const char *name; /* static storage */
  uint32_t offset;  /* bytes from the block's start */
  uint32_t size;    /* bytes: 4 or 8 */
} spvgen_push_field;

typedef struct spvgen_spec_constant {
  uint32_t id;       /* SpecId */
  uint32_t size;     /* 4 (bool/int/float 32) or 8; 0 means 4 */
  uint64_t value;    /* default value as bits; the runner may override */
  const char *name;  /* optional */
} spvgen_spec_constant;

struct spvgen_kernel_info;
/* A kernel's binding sizes as a function of its run-time values: given one dispatch's
 * push-constant data (push_size bytes, the block's full size), raises sizes[i] (one
 * entry per binding, prefilled with the bindings' min_size) to what that dispatch's
 * kernel may touch. Pure; reads info->size_args for the constants the template put
 * there (element sizes, widths). Returns false when the push data asks for more than 64
 * bits can count (the dispatch is then refused). */
typedef bool (*spvgen_binding_sizes_fn)(const struct spvgen_kernel_info *info,
                                        const void *push_data, uint32_t push_size,
                                        uint64_t *sizes);

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

  /* ---- the push-constant block's named values (templates fill them) ---- */
  uint32_t push_field_count;
  spvgen_push_field push_fields[SPVGEN_MAX_PUSH_FIELDS];
  /* Run-time sizes (NULL: every size is static, bindings[i].min_size): see
   * spvgen_binding_sizes_fn. The runner calls it for every dispatch. */
  spvgen_binding_sizes_fn binding_sizes;
  uint64_t size_args[SPVGEN_MAX_SIZE_ARGS];

  /* ---- what the words need from a device: spvgen_kernel_reflect fills these from the
   * module's declarations (the one reader; templates never list them by hand) ---- */
  uint64_t features;             /* SPVGEN_FEATURE_* its capabilities and types need */
  uint32_t subgroup_operations;  /* SPVGEN_SUBGROUP_* its GroupNonUniform capabilities need */
  uint32_t api_version;          /* the Vulkan version its capabilities need
                                    (SPVGEN_API_VERSION; 1.0 as 0) */
  uint32_t spirv_version;        /* the module's SPIR-V version (header word) */
  uint32_t capability_count;     /* OpCapability declarations, in module order (at most
                                    SPVGEN_MAX_CAPABILITIES kept) */
  uint32_t capabilities[SPVGEN_MAX_CAPABILITIES]; /* SpvCapability values */
  uint64_t hash;                 /* spvgen_words_hash of the words */
} spvgen_kernel_info;

typedef struct spvgen_kernel {
  uint32_t *words;      /* owned; free with spvgen_kernel_free */
  size_t word_count;
  spvgen_kernel_info info;
} spvgen_kernel;

/* Reads a kernel's metadata from its words: the buffer bindings (descriptor bindings in
 * (set, binding) order, then DEVICE_ADDRESS bindings as the caller listed them), the
 * push-constant block's size, the literal local size of the entry point
 * info->entry_point (NULL: "main"), and what the words need from a device (features,
 * subgroup operations, Vulkan and SPIR-V versions, capabilities) and their hash. What the
 * words cannot say is kept as the caller set it: the entry point name, dispatch grid,
 * required subgroup size, spec constant values, push fields, size function, and each
 * binding's name, min_size, access and alignment (matched by set and binding). Fails
 * with a message on malformed words, a missing entry point, a resource that is not a
 * buffer, or a capability Vulkan does not allow or the runner cannot map to a feature. */
spvgen_status spvgen_kernel_reflect(const uint32_t *words, size_t count, spvgen_kernel_info *info,
                                    char *message, size_t message_size);

/* The content hash of a module: FNV-1a 64 over its bytes (little-endian words), the
 * value `spvgen gemm --json` prints as "hash" and the runner keys compiled pipelines on.
 * 0 for NULL words. */
uint64_t spvgen_words_hash(const uint32_t *words, size_t count);

/* Frees kernel->words and zeroes the struct; NULL is fine. */
void spvgen_kernel_free(spvgen_kernel *kernel);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
