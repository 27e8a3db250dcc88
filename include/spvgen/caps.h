/* spvgen/caps.h — what a device can do, as plain C data.
 *
 * spvgen_device_caps is filled by the Vulkan runner (spvgen/vk.h) from the feature and
 * property queries, or by the caller, or from a named preset for offline use. It holds
 * no Vulkan types, so kernel emitters and offline tools take it without Vulkan headers.
 * Enumerations here reuse Vulkan's numbering where Vulkan has one (component types 0..10,
 * device types, subgroup operation bits), so converting is a cast; scopes are spirv.h's
 * SpvScope (= VkScopeKHR). */
#ifndef SPVGEN_CAPS_H
#define SPVGEN_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "spvgen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

/* ------------------------------------------------------------- features ---- */
/* One bit per device feature spvgen can use. The runner enables every one the device
 * has; caps.features lists what is enabled (on a created device) or supported (from
 * spvgen_vk_enumerate). spvgen_feature_name() gives the Vulkan feature's name. */
#define SPVGEN_FEATURE_FLOAT16 (1ull << 0)                    /* shaderFloat16 */
#define SPVGEN_FEATURE_INT8 (1ull << 1)                       /* shaderInt8 */
#define SPVGEN_FEATURE_INT16 (1ull << 2)                      /* shaderInt16 */
#define SPVGEN_FEATURE_INT64 (1ull << 3)                      /* shaderInt64 */
#define SPVGEN_FEATURE_FLOAT64 (1ull << 4)                    /* shaderFloat64 */
#define SPVGEN_FEATURE_STORAGE_BUFFER_16BIT (1ull << 5)       /* storageBuffer16BitAccess */
#define SPVGEN_FEATURE_UNIFORM_16BIT (1ull << 6)      /* uniformAndStorageBuffer16BitAccess */
#define SPVGEN_FEATURE_PUSH_CONSTANT_16BIT (1ull << 7)        /* storagePushConstant16 */
#define SPVGEN_FEATURE_STORAGE_BUFFER_8BIT (1ull << 8)        /* storageBuffer8BitAccess */
#define SPVGEN_FEATURE_UNIFORM_8BIT (1ull << 9)        /* uniformAndStorageBuffer8BitAccess */
#define SPVGEN_FEATURE_PUSH_CONSTANT_8BIT (1ull << 10)        /* storagePushConstant8 */
#define SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS (1ull << 11)     /* bufferDeviceAddress */
#define SPVGEN_FEATURE_VULKAN_MEMORY_MODEL (1ull << 12)       /* vulkanMemoryModel */
#define SPVGEN_FEATURE_VULKAN_MEMORY_MODEL_DEVICE_SCOPE (1ull << 13)
#define SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL (1ull << 14)     /* subgroupSizeControl */
#define SPVGEN_FEATURE_COMPUTE_FULL_SUBGROUPS (1ull << 15)    /* computeFullSubgroups */
#define SPVGEN_FEATURE_SUBGROUP_EXTENDED_TYPES (1ull << 16)   /* shaderSubgroupExtendedTypes */
#define SPVGEN_FEATURE_MAINTENANCE4 (1ull << 17)              /* maintenance4 (LocalSizeId) */
#define SPVGEN_FEATURE_COOPMAT (1ull << 18)                   /* KHR cooperativeMatrix */
#define SPVGEN_FEATURE_COOPMAT_ROBUST_BUFFER_ACCESS (1ull << 19)
#define SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE (1ull << 20)
#define SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS (1ull << 21)
#define SPVGEN_FEATURE_COOPMAT2_REDUCTIONS (1ull << 22)
#define SPVGEN_FEATURE_COOPMAT2_CONVERSIONS (1ull << 23)
#define SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS (1ull << 24)
#define SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING (1ull << 25)
#define SPVGEN_FEATURE_COOPMAT2_BLOCK_LOADS (1ull << 26)
#define SPVGEN_FEATURE_COOPVEC (1ull << 27)                   /* cooperativeVector */
#define SPVGEN_FEATURE_COOPVEC_TRAINING (1ull << 28)          /* cooperativeVectorTraining */
#define SPVGEN_FEATURE_BFLOAT16 (1ull << 29)                  /* shaderBFloat16Type */
#define SPVGEN_FEATURE_BFLOAT16_DOT_PRODUCT (1ull << 30)
#define SPVGEN_FEATURE_BFLOAT16_COOPMAT (1ull << 31)
#define SPVGEN_FEATURE_FLOAT8 (1ull << 32)                    /* shaderFloat8 */
#define SPVGEN_FEATURE_FLOAT8_COOPMAT (1ull << 33)
#define SPVGEN_FEATURE_TIMESTAMPS (1ull << 34) /* compute queue writes timestamps */
#define SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD (1ull << 35) /* shaderBufferFloat32AtomicAdd */
#define SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR (1ull << 36) /* shaderFloat16VectorAtomics (NV) */
#define SPVGEN_FEATURE_SHADER_CLOCK (1ull << 37) /* shaderSubgroupClock (OpReadClockKHR) */
#define SPVGEN_FEATURE_COUNT 38
#define SPVGEN_FEATURES_ALL ((1ull << SPVGEN_FEATURE_COUNT) - 1)

/* Every cooperative feature (what the "no cooperative features" preset lacks). */
#define SPVGEN_FEATURES_COOPERATIVE                                                       \
  (SPVGEN_FEATURE_COOPMAT | SPVGEN_FEATURE_COOPMAT_ROBUST_BUFFER_ACCESS |                 \
   SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE | SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS | \
   SPVGEN_FEATURE_COOPMAT2_REDUCTIONS | SPVGEN_FEATURE_COOPMAT2_CONVERSIONS |             \
   SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS | SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING |   \
   SPVGEN_FEATURE_COOPMAT2_BLOCK_LOADS | SPVGEN_FEATURE_COOPVEC |                         \
   SPVGEN_FEATURE_COOPVEC_TRAINING | SPVGEN_FEATURE_BFLOAT16_COOPMAT |                    \
   SPVGEN_FEATURE_FLOAT8_COOPMAT)

/* The Vulkan name of one feature bit ("shaderFloat16", "cooperativeMatrixWorkgroupScope",
 * ...); "unknown feature" for anything that is not exactly one known bit. */
const char *spvgen_feature_name(uint64_t feature);
/* The extension that provides it ("VK_KHR_cooperative_matrix", "core 1.2", ...). */
const char *spvgen_feature_source(uint64_t feature);
/* The lowest set bit of mask, or 0 (to name the first missing one of several). */
uint64_t spvgen_feature_first(uint64_t mask);

/* ------------------------------------------------------- component types ---- */
/* Element types of cooperative matrices and vectors, as the caps lists, presets and
 * kernel templates name them. 0..10 equal VkComponentTypeKHR (and SPIR-V's
 * ComponentType); the rest are numbered compactly (so a type indexes a table), which is
 * why SPIR-V operands take spirv.h's SpvComponentType instead (spvgen/coop.h) and the
 * two convert with spvgen_component_to_spirv / spvgen_component_from_spirv below. */
typedef enum spvgen_component_type {
  SPVGEN_COMPONENT_F16 = 0,
  SPVGEN_COMPONENT_F32 = 1,
  SPVGEN_COMPONENT_F64 = 2,
  SPVGEN_COMPONENT_S8 = 3,
  SPVGEN_COMPONENT_S16 = 4,
  SPVGEN_COMPONENT_S32 = 5,
  SPVGEN_COMPONENT_S64 = 6,
  SPVGEN_COMPONENT_U8 = 7,
  SPVGEN_COMPONENT_U16 = 8,
  SPVGEN_COMPONENT_U32 = 9,
  SPVGEN_COMPONENT_U64 = 10,
  SPVGEN_COMPONENT_BF16 = 11,      /* VK_COMPONENT_TYPE_BFLOAT16_KHR */
  SPVGEN_COMPONENT_E4M3 = 12,      /* VK_COMPONENT_TYPE_FLOAT_E4M3_NV / FLOAT8_E4M3_EXT */
  SPVGEN_COMPONENT_E5M2 = 13,      /* VK_COMPONENT_TYPE_FLOAT_E5M2_NV / FLOAT8_E5M2_EXT */
  SPVGEN_COMPONENT_S8_PACKED = 14, /* four s8 in a 32-bit word (cooperative vector input) */
  SPVGEN_COMPONENT_U8_PACKED = 15,
  SPVGEN_COMPONENT_UNKNOWN = 16,   /* a value this version of spvgen does not know */
} spvgen_component_type;

/* "f16", "f32", "s8", "bf16", "e4m3", "s8packed", ...; "unknown" otherwise. */
const char *spvgen_component_type_name(spvgen_component_type type);
/* Bytes per element (packed types: 1, the size of one packed element); 0 if unknown. */
uint32_t spvgen_component_type_size(spvgen_component_type type);
/* Parses a name as printed by spvgen_component_type_name; false if unknown. */
bool spvgen_component_type_parse(const char *name, spvgen_component_type *type);

/* The SPIR-V ComponentType (the interpretation operands of SPV_NV_cooperative_vector,
 * spvgen/coop.h) of a component type: F16..U64 -> Float16NV..UnsignedInt64NV (same
 * values), E4M3 / E5M2 -> FloatE4M3NV / FloatE5M2NV, S8_PACKED / U8_PACKED ->
 * SignedInt8PackedNV / UnsignedInt8PackedNV. False, *out untouched, for a type SPIR-V's
 * ComponentType has no value for (BF16 in the SPIR-V headers spvgen builds with,
 * UNKNOWN, anything out of range) or a NULL out. */
bool spvgen_component_to_spirv(spvgen_component_type type, SpvComponentType *out);
/* The inverse: false, *out untouched, for a value with no spvgen_component_type (one
 * that is not a ComponentType enumerant, or NULL out). */
bool spvgen_component_from_spirv(SpvComponentType type, spvgen_component_type *out);

typedef enum spvgen_device_type { /* = VkPhysicalDeviceType */
  SPVGEN_DEVICE_OTHER = 0,
  SPVGEN_DEVICE_INTEGRATED_GPU = 1,
  SPVGEN_DEVICE_DISCRETE_GPU = 2,
  SPVGEN_DEVICE_VIRTUAL_GPU = 3,
  SPVGEN_DEVICE_CPU = 4,
} spvgen_device_type;

/* "discrete", "integrated", "virtual", "cpu", "other". */
const char *spvgen_device_type_name(spvgen_device_type type);

/* Subgroup operations in compute shaders (= VkSubgroupFeatureFlagBits). */
#define SPVGEN_SUBGROUP_BASIC 0x001u
#define SPVGEN_SUBGROUP_VOTE 0x002u
#define SPVGEN_SUBGROUP_ARITHMETIC 0x004u
#define SPVGEN_SUBGROUP_BALLOT 0x008u
#define SPVGEN_SUBGROUP_SHUFFLE 0x010u
#define SPVGEN_SUBGROUP_SHUFFLE_RELATIVE 0x020u
#define SPVGEN_SUBGROUP_CLUSTERED 0x040u
#define SPVGEN_SUBGROUP_QUAD 0x080u
#define SPVGEN_SUBGROUP_PARTITIONED_NV 0x100u
#define SPVGEN_SUBGROUP_ROTATE 0x200u
#define SPVGEN_SUBGROUP_ROTATE_CLUSTERED 0x400u

/* Vulkan's version packing (variant 0). */
#define SPVGEN_API_VERSION(major, minor, patch) \
  (((uint32_t)(major) << 22) | ((uint32_t)(minor) << 12) | (uint32_t)(patch))
#define SPVGEN_API_VERSION_MAJOR(v) (((uint32_t)(v) >> 22) & 0x7Fu)
#define SPVGEN_API_VERSION_MINOR(v) (((uint32_t)(v) >> 12) & 0x3FFu)
#define SPVGEN_API_VERSION_PATCH(v) ((uint32_t)(v)&0xFFFu)
/* SPIR-V version as in a module's header word (same as SPVGEN_VERSION in builder.h). */
#define SPVGEN_SPIRV_VERSION(major, minor) (((uint32_t)(major) << 16) | ((uint32_t)(minor) << 8))

/* ------------------------------------------------ SPIR-V capabilities in Vulkan ---- */
/* What enables each SPIR-V capability in Vulkan: the Capabilities table of the Vulkan
 * specification's "SPIR-V Environment" appendix (as of Vulkan 1.4.309, plus the bfloat16
 * and float8 capabilities). One table serves the builder (capability inference never
 * picks a capability that is not here), spvgen_validate (a capability that is not here is
 * an error in every Vulkan env) and the runner (a declared capability must map to a
 * Vulkan version, a tracked feature or subgroup operations, or the module is refused). */
typedef enum spvgen_vk_capability_kind {
  SPVGEN_VK_CAP_CORE = 1,  /* the Vulkan version alone enables it (Shader, Matrix, ...) */
  SPVGEN_VK_CAP_FEATURE,   /* one device feature spvgen tracks: `feature` */
  SPVGEN_VK_CAP_SUBGROUP,  /* compute subgroup operations: `subgroup_ops` */
  SPVGEN_VK_CAP_UNTRACKED, /* a feature, property or extension spvgen neither queries nor
                              enables (VariablePointers, Int64Atomics, DotProduct, ...) */
} spvgen_vk_capability_kind;

typedef struct spvgen_vk_capability {
  uint32_t capability;  /* the SpvCapability value */
  const char *name;     /* "GroupNonUniformBallot" */
  const char *what;     /* "capability GroupNonUniformBallot", as messages name it */
  spvgen_vk_capability_kind kind;
  uint32_t version;     /* SPVGEN_API_VERSION: CORE, the Vulkan version that has it; else
                           the version whose core has the enabling feature, 0 when only an
                           extension provides it */
  uint64_t feature;     /* FEATURE: one SPVGEN_FEATURE_* bit */
  uint32_t subgroup_ops; /* SUBGROUP: SPVGEN_SUBGROUP_* bits */
  const char *enabled_by; /* what Vulkan enables it by, e.g. "variablePointers (Vulkan
                             1.1, VK_KHR_variable_pointers)" */
} spvgen_vk_capability;

/* The entry of a capability, or NULL when no Vulkan version or extension allows it
 * (Kernel, Addresses, Linkage, Vector16, Float16Buffer, ...). */
const spvgen_vk_capability *spvgen_vk_capability_find(uint32_t capability);
/* The whole table, sorted by capability value. */
const spvgen_vk_capability *spvgen_vk_capabilities(size_t *count);
/* The SPIR-V name of a capability ("Kernel"), from the grammar or the table; NULL when
 * neither knows the value. */
const char *spvgen_capability_name(uint32_t capability);

/* ----------------------------------------------------- cooperative shapes ---- */
/* One VkCooperativeMatrixPropertiesKHR entry: a supported M x N x K MulAdd. */
typedef struct spvgen_coopmat_shape {
  uint32_t m, n, k;
  spvgen_component_type a, b, c, result;
  bool saturating;
  SpvScope scope;
} spvgen_coopmat_shape;

/* One VkCooperativeMatrixFlexibleDimensionsPropertiesNV entry: any M, N, K that are
 * multiples of the granularities (up to coopmat2_flexible_dimensions_max_dimension),
 * for workgroups of workgroup_invocations (workgroup scope; 0 for subgroup scope). */
typedef struct spvgen_coopmat_flex {
  uint32_t m_granularity, n_granularity, k_granularity;
  spvgen_component_type a, b, c, result;
  bool saturating;
  SpvScope scope;
  uint32_t workgroup_invocations;
} spvgen_coopmat_flex;

/* One VkCooperativeVectorPropertiesNV entry: a supported MatrixMul(Add) combination. */
typedef struct spvgen_coopvec_combo {
  spvgen_component_type input, input_interpretation, matrix_interpretation,
      bias_interpretation, result;
  bool transpose; /* the matrix may be transposed */
} spvgen_coopvec_combo;

#define SPVGEN_MAX_COOPMAT_SHAPES 64
#define SPVGEN_MAX_COOPMAT_FLEX 64
#define SPVGEN_MAX_COOPVEC_COMBOS 64

/* ------------------------------------------------------------------ caps ---- */
typedef struct spvgen_device_caps {
  char name[256];        /* deviceName */
  char driver_name[256]; /* VkPhysicalDeviceDriverProperties (Vulkan 1.2), or "" */
  char driver_info[256];
  uint32_t vendor_id, device_id;
  spvgen_device_type type;
  uint32_t api_version;    /* SPVGEN_API_VERSION packing */
  uint32_t driver_version; /* vendor's own packing */
  uint8_t pipeline_cache_uuid[16]; /* VkPhysicalDeviceProperties::pipelineCacheUUID: a
                                      pipeline cache is valid only where it matches */
  uint32_t device_index;   /* position in vkEnumeratePhysicalDevices */
  uint32_t max_spirv_version; /* highest SPIR-V the device takes, as SPVGEN_SPIRV_VERSION */

  uint64_t features; /* SPVGEN_FEATURE_* */

  /* Subgroups (compute stage). */
  uint32_t subgroup_size;     /* the default one */
  uint32_t min_subgroup_size; /* with subgroup size control; else = subgroup_size */
  uint32_t max_subgroup_size;
  uint32_t subgroup_operations;          /* SPVGEN_SUBGROUP_* */
  uint32_t max_compute_workgroup_subgroups;
  bool required_subgroup_size_in_compute; /* requiredSubgroupSizeStages has compute */

  /* Limits. */
  uint32_t max_shared_memory; /* maxComputeSharedMemorySize, bytes */
  uint32_t max_workgroup_invocations;
  uint32_t max_workgroup_size[3];
  uint32_t max_workgroup_count[3];
  uint32_t max_push_constants_size;
  uint32_t max_storage_buffer_range;
  uint32_t max_uniform_buffer_range;
  uint32_t max_bound_descriptor_sets;
  uint32_t max_per_stage_storage_buffers;
  uint64_t min_storage_buffer_offset_alignment;
  uint64_t max_memory_allocation_size; /* 0: unknown */
  uint64_t max_buffer_size;            /* 0: unknown (before maintenance4) */
  uint64_t device_local_memory;        /* size of the largest device-local heap */
  float timestamp_period;              /* ns per timestamp tick */
  uint32_t timestamp_valid_bits;       /* of the queue the runner uses; 0: none */

  /* VK_NV_cooperative_matrix2 properties. */
  uint32_t coopmat2_workgroup_scope_max_workgroup_size;
  uint32_t coopmat2_flexible_dimensions_max_dimension;
  uint32_t coopmat2_workgroup_scope_reserved_shared_memory;
  /* Shader stages (Vulkan bits; compute is 0x20) with cooperative matrices / vectors. */
  uint32_t coopmat_supported_stages;
  uint32_t coopvec_supported_stages;
  /* VK_NV_cooperative_vector properties. */
  uint32_t coopvec_max_components;
  bool coopvec_training_float16_accumulation;
  bool coopvec_training_float32_accumulation;

  uint32_t coopmat_count;
  spvgen_coopmat_shape coopmat[SPVGEN_MAX_COOPMAT_SHAPES];
  uint32_t coopmat_flex_count;
  spvgen_coopmat_flex coopmat_flex[SPVGEN_MAX_COOPMAT_FLEX];
  uint32_t coopvec_count;
  spvgen_coopvec_combo coopvec[SPVGEN_MAX_COOPVEC_COMBOS];
  bool lists_truncated; /* the driver listed more entries than the arrays hold */
  /* Streaming multiprocessors (VK_NV_shader_sm_builtins' shaderSMCount) or the vendor's
   * compute units: what the GEMM planner spreads tiles over (0: unknown; it assumes 132). */
  uint32_t compute_units;
} spvgen_device_caps;

/* Caps are data from outside (a driver, a JSON file, a struct a caller filled): before
 * anything divides by or loops over them, this one check holds every source to the same
 * rules, and the plan functions (gemm, mlp, elementwise), the caps JSON reader, the
 * presets and spvgen_vk_caps all apply it. SPVGEN_OK, or SPVGEN_ERROR_INVALID_ARGUMENT
 * with a message naming the field, its value and the rule ("spvgen_caps_check: <device>:
 * coopmat_flex[0].k_granularity 0 is not 1 to 256"):
 *  - name, driver_name, driver_info NUL-terminated in their arrays;
 *  - subgroup_size, min_ and max_subgroup_size 0 (unknown) or a power of two up to 128,
 *    min <= subgroup_size <= max when all are known;
 *  - max_workgroup_invocations and each max_workgroup_size 1 to 65536, each
 *    max_workgroup_count 1 to 2^31 - 1, max_shared_memory up to 1 GiB,
 *    max_push_constants_size up to 64 KiB,
 *    coopmat2_workgroup_scope_max_workgroup_size up to 65536;
 *  - the list counts at most their arrays (SPVGEN_MAX_COOPMAT_SHAPES, ...);
 *  - in each listed entry: M, N, K and each granularity 1 to 256, component types within
 *    spvgen_component_type (UNKNOWN included), scope device, workgroup or subgroup,
 *    workgroup_invocations up to 65536;
 *  - every bool field 0 or 1 (a byte pattern there would be undefined to read).
 * NULL caps is SPVGEN_ERROR_INVALID_ARGUMENT. */
spvgen_status spvgen_caps_check(const spvgen_device_caps *caps, char *message, size_t message_size);

/* (caps->features & mask) == mask; false for NULL caps. */
bool spvgen_caps_has(const spvgen_device_caps *caps, uint64_t mask);

/* The first KHR cooperative matrix entry with these types and scope. m, n, k of 0 match
 * any size. NULL when there is none (or caps is NULL). */
const spvgen_coopmat_shape *spvgen_caps_find_coopmat(const spvgen_device_caps *caps,
                                                     SpvScope scope, uint32_t m,
                                                     uint32_t n, uint32_t k,
                                                     spvgen_component_type a,
                                                     spvgen_component_type b,
                                                     spvgen_component_type c,
                                                     spvgen_component_type result);
/* The first flexible-dimensions entry with these types and scope; workgroup_invocations
 * of 0 matches any. */
const spvgen_coopmat_flex *spvgen_caps_find_coopmat_flex(const spvgen_device_caps *caps,
                                                         SpvScope scope,
                                                         uint32_t workgroup_invocations,
                                                         spvgen_component_type a,
                                                         spvgen_component_type b,
                                                         spvgen_component_type c,
                                                         spvgen_component_type result);
/* The cooperative vector entry with these types (transpose: the entry must allow it). */
const spvgen_coopvec_combo *spvgen_caps_find_coopvec(const spvgen_device_caps *caps,
                                                     spvgen_component_type input,
                                                     spvgen_component_type input_interpretation,
                                                     spvgen_component_type matrix_interpretation,
                                                     spvgen_component_type bias_interpretation,
                                                     spvgen_component_type result,
                                                     bool transpose);

/* ---------------------------------------------------------------- presets ---- */
/* Named caps for emitting kernels without a device:
 *   "h100"      NVIDIA H100 80GB HBM3, driver 580 (as recorded in shared/gpu/): KHR
 *               cooperative matrix, every cooperative_matrix2 feature, cooperative
 *               vectors with training, bf16; subgroup 32, 48 KiB shared memory.
 *   "vulkan13"  a Vulkan 1.3 device with no cooperative features: float16, int8,
 *               16/8-bit storage, buffer device address, memory model; subgroup 32,
 *               32 KiB shared memory (the SIMT fallback target).
 *   "lavapipe"  Mesa's lavapipe (22.3) as in CI: like "vulkan13" with subgroup size 8.
 * Returns SPVGEN_ERROR_INVALID_ARGUMENT for an unknown name (or NULL out). */
spvgen_status spvgen_caps_preset(const char *name, spvgen_device_caps *out);
/* The preset names, NULL-terminated. */
const char *const *spvgen_caps_preset_names(void);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
