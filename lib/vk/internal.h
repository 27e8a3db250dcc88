/* lib/vk/internal.h — what the runner's files share: the context, buffer and pipeline
 * structs, per-context Vulkan function tables, the feature-struct chain, the SPIR-V
 * reflection record and the error helpers. */
#ifndef SPVGEN_VK_INTERNAL_H
#define SPVGEN_VK_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "volk.h"

#include "error_private.h" /* lib/core: the one error formatter */
#include "spvgen/vk.h"

/* ------------------------------------------- extensions newer than the headers ---- */
/* VK_KHR_shader_bfloat16 and VK_EXT_shader_float8 are missing from some headers spvgen
 * builds with; the values are the registry's (vk.xml). spvgen_ names avoid clashing
 * with the real ones of newer headers. */
#define SPVGEN_VK_KHR_SHADER_BFLOAT16_NAME "VK_KHR_shader_bfloat16"
#define SPVGEN_VK_EXT_SHADER_FLOAT8_NAME "VK_EXT_shader_float8"
#define SPVGEN_VK_STRUCTURE_TYPE_BFLOAT16_FEATURES ((VkStructureType)1000141000)
#define SPVGEN_VK_STRUCTURE_TYPE_FLOAT8_FEATURES ((VkStructureType)1000567000)
#define SPVGEN_VK_COMPONENT_TYPE_BFLOAT16 ((VkComponentTypeKHR)1000141000)

/* spvgen_component_type <-> VkComponentTypeKHR (lib/vk/device_query.c): through the
 * public spvgen_component_to_spirv / spvgen_component_from_spirv, since
 * VkComponentTypeKHR's values are SPIR-V ComponentType's for every type both have, plus
 * bfloat16, which only Vulkan has. VK_COMPONENT_TYPE_MAX_ENUM_KHR / UNKNOWN for a type
 * the other side lacks. */
VkComponentTypeKHR sg_vk_component_to_vk(spvgen_component_type t);
spvgen_component_type sg_vk_component_from_vk(VkComponentTypeKHR t);

typedef struct sg_vk_bfloat16_features { /* VkPhysicalDeviceShaderBfloat16FeaturesKHR */
  VkStructureType sType;
  void *pNext;
  VkBool32 shaderBFloat16Type;
  VkBool32 shaderBFloat16DotProduct;
  VkBool32 shaderBFloat16CooperativeMatrix;
} sg_vk_bfloat16_features;

typedef struct sg_vk_float8_features { /* VkPhysicalDeviceShaderFloat8FeaturesEXT */
  VkStructureType sType;
  void *pNext;
  VkBool32 shaderFloat8;
  VkBool32 shaderFloat8CooperativeMatrix;
} sg_vk_float8_features;

/* ------------------------------------------------------------ function tables ---- */
/* Instance-level functions, loaded per instance through vkGetInstanceProcAddr so that
 * several contexts (or a wrapped instance) never share volk's global pointers. */
typedef struct sg_vk_instance_fns {
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
  PFN_vkDestroyInstance DestroyInstance;
  PFN_vkEnumeratePhysicalDevices EnumeratePhysicalDevices;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
  PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties;
  PFN_vkCreateDevice CreateDevice;
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
  PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR GetCoopMatProps;
  PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV GetCoopMatFlexProps;
  PFN_vkGetPhysicalDeviceCooperativeVectorPropertiesNV GetCoopVecProps;
  PFN_vkCreateDebugUtilsMessengerEXT CreateDebugUtilsMessengerEXT;
  PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT;
} sg_vk_instance_fns;

/* Loads the table; false when a function every instance has is missing. */
bool sg_vk_load_instance_fns(sg_vk_instance_fns *fns, PFN_vkGetInstanceProcAddr gipa,
                                 VkInstance instance);

/* Device-level functions, loaded per device through the instance's vkGetDeviceProcAddr
 * (sg_vk_load_device_fns): volk's device table is not used, because filling it goes
 * through volk's process-global vkGetDeviceProcAddr, which two contexts on two threads
 * would share. The fields keep the Vulkan names (ctx->vkd.vkQueueSubmit). */
#define SG_VK_DEVICE_FUNCTIONS(X) \
  X(vkAllocateCommandBuffers) \
  X(vkAllocateDescriptorSets) \
  X(vkAllocateMemory) \
  X(vkBeginCommandBuffer) \
  X(vkBindBufferMemory) \
  X(vkCmdBindDescriptorSets) \
  X(vkCmdBindPipeline) \
  X(vkCmdCopyBuffer) \
  X(vkCmdDispatch) \
  X(vkCmdFillBuffer) \
  X(vkCmdPipelineBarrier) \
  X(vkCmdPushConstants) \
  X(vkCmdPushDescriptorSetKHR) \
  X(vkCmdResetQueryPool) \
  X(vkCmdWriteTimestamp) \
  X(vkCreateBuffer) \
  X(vkCreateCommandPool) \
  X(vkCreateComputePipelines) \
  X(vkCreateDescriptorPool) \
  X(vkCreateDescriptorSetLayout) \
  X(vkCreateFence) \
  X(vkCreatePipelineCache) \
  X(vkCreatePipelineLayout) \
  X(vkCreateQueryPool) \
  X(vkCreateShaderModule) \
  X(vkDestroyBuffer) \
  X(vkDestroyCommandPool) \
  X(vkDestroyDescriptorPool) \
  X(vkDestroyDescriptorSetLayout) \
  X(vkDestroyDevice) \
  X(vkDestroyFence) \
  X(vkDestroyPipeline) \
  X(vkDestroyPipelineCache) \
  X(vkDestroyPipelineLayout) \
  X(vkDestroyQueryPool) \
  X(vkDestroyShaderModule) \
  X(vkDeviceWaitIdle) \
  X(vkEndCommandBuffer) \
  X(vkFreeMemory) \
  X(vkGetBufferDeviceAddress) \
  X(vkGetBufferDeviceAddressKHR) \
  X(vkGetBufferMemoryRequirements) \
  X(vkGetPipelineCacheData) \
  X(vkGetQueryPoolResults) \
  X(vkGetSemaphoreCounterValue) \
  X(vkCreateSemaphore) \
  X(vkDestroySemaphore) \
  X(vkMergePipelineCaches) \
  X(vkGetFenceStatus) \
  X(vkWaitSemaphores) \
  X(vkMapMemory) \
  X(vkQueueSubmit) \
  X(vkResetCommandPool) \
  X(vkResetDescriptorPool) \
  X(vkResetFences) \
  X(vkUnmapMemory) \
  X(vkUpdateDescriptorSets) \
  X(vkWaitForFences)

typedef struct sg_vk_device_fns {
#define SG_VK_FIELD(name) PFN_##name name;
  SG_VK_DEVICE_FUNCTIONS(SG_VK_FIELD)
#undef SG_VK_FIELD
} sg_vk_device_fns;

/* Fills every field through gdpa (NULL where the device lacks the function). */
void sg_vk_load_device_fns(sg_vk_device_fns *fns, PFN_vkGetDeviceProcAddr gdpa, VkDevice device);

/* The process-wide lock around spvgen's loader-level calls: loading libvulkan (once),
 * creating and destroying instances and devices, enumerating physical devices and
 * resolving function pointers. Two threads resolving device functions at once crashed
 * inside Debian 12's loader (1.3.239): volk's table asks for some 500 names, most of
 * them unknown to that loader, and its lookup of unknown device functions is not
 * thread-safe (tests/threads, ASan: 12 and 13 of 300 runs with volk's table and no lock,
 * 0 of 300 with the lock, 0 of 300 with this table; docs/design-notes.md). Held only
 * around those calls, never across a submission or a pipeline compile. */
void sg_vk_loader_lock(void);
void sg_vk_loader_unlock(void);

/* ---------------------------------------------------------- physical devices ---- */
/* The feature structs spvgen queries and enables, chained from f2. A struct is in the
 * chain only when the device has its Vulkan version or extension. */
typedef struct sg_vk_features {
  VkPhysicalDeviceFeatures2 f2;
  VkPhysicalDevice16BitStorageFeatures storage16;
  VkPhysicalDevice8BitStorageFeatures storage8;
  VkPhysicalDeviceShaderFloat16Int8Features float16_int8;
  VkPhysicalDeviceBufferDeviceAddressFeatures bda;
  VkPhysicalDeviceVulkanMemoryModelFeatures vmm;
  VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_size_control;
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures subgroup_types;
  VkPhysicalDeviceMaintenance4Features maintenance4;
  VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat;
  VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2;
  VkPhysicalDeviceCooperativeVectorFeaturesNV coopvec;
  sg_vk_bfloat16_features bf16;
  sg_vk_float8_features float8;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
  VkPhysicalDeviceShaderAtomicFloat16VectorFeaturesNV atomic_float16_vector;
  /* Not a SPVGEN_FEATURE_*: chained only when the extension is present, kept as the
   * driver reports it (sg_vk_features_restrict leaves it alone). */
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pipeline_executable;
  /* Not a SPVGEN_FEATURE_* either: timelineSemaphore as the driver reports it (chained
   * only when supported; sg_vk_features_restrict leaves it alone). */
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline;
  /* Nor this: pipelineCreationCacheControl (core in 1.3, VK_EXT_pipeline_creation_cache_control
   * before), enabled whenever supported, for the cached-only creates
   * (spvgen_vk_pipeline_options.cached_only). */
  VkPhysicalDevicePipelineCreationCacheControlFeatures cache_control;
  VkPhysicalDeviceShaderClockFeaturesKHR shader_clock; /* SPVGEN_FEATURE_SHADER_CLOCK */
  uint32_t chained; /* bit i: the i-th struct after f2 (in the order above) is chained */
} sg_vk_features;

/* Rebuilds the pNext chain from f->chained (after the struct was copied). */
void sg_vk_features_link(sg_vk_features *f);

#define SPVGEN_VK_MAX_DEVICE_EXTENSIONS 24

/* What one physical device offers: caps (every supported feature), the feature chain,
 * the extensions to enable, the queue family to use. */
typedef struct sg_vk_device_info {
  spvgen_device_caps caps;
  sg_vk_features features;
  uint32_t extension_count;
  const char *extensions[SPVGEN_VK_MAX_DEVICE_EXTENSIONS];
  uint32_t queue_family;   /* UINT32_MAX: none with compute */
  uint32_t api_version;
  /* VK_KHR_pipeline_executable_properties with pipelineExecutableInfo: both supported,
   * so the extension is in extensions[] and the feature on in the chain. */
  bool pipeline_executable_info;
  bool timeline_semaphore; /* timelineSemaphore supported: chained and enabled */
  bool cache_control;      /* pipelineCreationCacheControl supported: chained and enabled */
  bool push_descriptor;    /* VK_KHR_push_descriptor present: in extensions[] */
} sg_vk_device_info;

/* What a caller enabled on its device, read from its VkDeviceCreateInfo or feature
 * chain (spvgen_vk_wrap, spvgen_device_caps_from_vk). */
typedef struct sg_vk_enabled {
  sg_vk_features features; /* the enabled members, OR-ed over the chain */
  uint64_t mask;           /* as SPVGEN_FEATURE_* bits */
  bool timeline;           /* timelineSemaphore */
  bool cache_control;      /* pipelineCreationCacheControl */
  bool push_descriptor;    /* VK_KHR_push_descriptor among the enabled extensions */
  bool from_create_info;   /* head was a VkDeviceCreateInfo (extensions known) */
} sg_vk_enabled;
/* false (message) for a malformed chain. */
bool sg_vk_read_enabled_chain(const void *head, sg_vk_enabled *out, char *message,
                              size_t message_size);

/* Queries everything (caps.c of lib/vk). who names the public call for messages. */
spvgen_status sg_vk_query_device(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                     uint32_t index, sg_vk_device_info *info,
                                     char *message, size_t message_size);
/* Keeps only `features` in the chain (fields zeroed otherwise) for vkCreateDevice. */
void sg_vk_features_restrict(sg_vk_features *f, uint64_t features);

/* ---------------------------------------------------------------- objects ---- */
struct spvgen_vk_buffer {
  spvgen_vk_context *ctx;
  spvgen_vk_buffer *prev, *next;
  VkBuffer buffer;
  VkDeviceMemory memory;
  uint64_t size;
  uint32_t flags;
  void *mapped;
  uint64_t address;
};

#define SPVGEN_VK_MAX_SETS 4
#define SPVGEN_VK_ENTRY_MAX 128
/* The largest push-constant block the runner assembles itself (kernels with device
 * addresses: the caller's values plus the addresses). */
#define SG_VK_PUSH_MAX 256

/* A compiled compute pipeline with its layout, shared by every spvgen_vk_pipeline created
 * from the same words and layout (lib/vk/pipeline.c: the in-process kernel cache). */
typedef struct sg_vk_program {
  struct sg_vk_program *prev, *next; /* ctx->programs, most recently used first */
  uint64_t key;                      /* spvgen_words_hash of the words, mixed with sig's */
  uint32_t *words;                   /* a copy: a hit compares the words themselves */
  size_t word_count;
  unsigned char *sig;                /* what else decides the pipeline (layout, entry
                                        point, specialization, subgroup size) */
  size_t sig_size;
  VkPipeline pipeline;
  VkPipelineLayout layout;
  VkDescriptorSetLayout set_layouts[SPVGEN_VK_MAX_SETS];
  uint32_t set_count;  /* highest set used + 1 */
  bool push_set;       /* set 0 is a push-descriptor set (VK_KHR_push_descriptor) */
  uint32_t refs;       /* spvgen_vk_pipeline handles using it */
} sg_vk_program;

struct spvgen_vk_pipeline {
  spvgen_vk_context *ctx;
  spvgen_vk_pipeline *prev, *next;
  sg_vk_program *program;
  VkPipeline pipeline;     /* = program->pipeline */
  VkPipelineLayout layout; /* = program->layout */
  uint32_t set_count;
  bool push_set;
  spvgen_kernel_info info; /* entry_point points at entry_point below */
  char entry_point[SPVGEN_VK_ENTRY_MAX];
  uint64_t binding_min_size[SPVGEN_MAX_BINDINGS]; /* the block's static part (words) */
  uint32_t storage_count, uniform_count;          /* descriptors */
  uint32_t address_count;                         /* DEVICE_ADDRESS bindings */
};

/* A descriptor pool that grows on demand (the runner's own submissions, on devices
 * without push descriptors). */
typedef struct sg_vk_pool {
  VkDescriptorPool pool;
  uint32_t sets, storage, uniform; /* capacity */
} sg_vk_pool;

/* One slot of spvgen_vk_submit's ring: a command buffer of its own, the fence of its
 * submission, its descriptor pool. */
#define SG_VK_FRAMES 4
typedef struct sg_vk_frame {
  VkCommandPool command_pool;
  VkCommandBuffer cmd;
  VkFence fence;
  sg_vk_pool descriptors;
  uint64_t ticket; /* the submission it holds (0: free, or completed and noted) */
} sg_vk_frame;

/* Command buffers begun and ended through spvgen_vk_command_buffer_begin/_end: the only
 * ones whose recording state spvgen knows. */
#define SG_VK_TRACKED 32
typedef struct sg_vk_tracked {
  VkCommandBuffer cmd;
  bool recording;
} sg_vk_tracked;

struct spvgen_vk_context {
  char error[1024];
  bool wrapped;
  bool lost;                /* a submission timed out or the device was lost */
  bool pending;             /* that submission may still run: destruction waits for it */
  uint32_t timeout_ms;
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  VkQueue queue;
  uint32_t queue_family;
  sg_vk_instance_fns vki;
  sg_vk_device_fns vkd;
  PFN_vkConvertCooperativeVectorMatrixNV ConvertCooperativeVectorMatrixNV;
  PFN_vkCmdConvertCooperativeVectorMatrixNV CmdConvertCooperativeVectorMatrixNV;
  /* VK_KHR_pipeline_executable_properties: pipeline_statistics is true when it and
   * pipelineExecutableInfo are enabled (never for a wrapped device) and both functions
   * resolved; pipelines are then created with CAPTURE_STATISTICS. */
  bool pipeline_statistics;
  PFN_vkGetPipelineExecutablePropertiesKHR GetPipelineExecutablePropertiesKHR;
  PFN_vkGetPipelineExecutableStatisticsKHR GetPipelineExecutableStatisticsKHR;
  VkDebugUtilsMessengerEXT messenger;
  uint32_t validation_errors;
  char validation_first[512];
  /* VK_KHR_push_descriptor is enabled (and vkCmdPushDescriptorSetKHR resolved). */
  bool push_descriptors;
  /* timelineSemaphore is enabled: spvgen_vk_submit signals `timeline` with each ticket. */
  bool timeline_semaphores;
  /* pipelineCreationCacheControl is enabled: a cached_only create asks the driver with
   * VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT. */
  bool cache_control;

  spvgen_device_caps caps;
  VkPhysicalDeviceMemoryProperties memory;

  VkCommandPool command_pool;
  VkCommandBuffer cmd;
  VkFence fence;
  VkPipelineCache pipeline_cache;
  sg_vk_pool descriptors;   /* the synchronous calls' (spvgen_vk_run) */
  VkQueryPool query_pool;
  uint32_t query_capacity;

  /* spvgen_vk_submit: the ring, tickets submitted and known complete, the timeline. */
  sg_vk_frame frames[SG_VK_FRAMES];
  uint32_t next_frame;
  uint64_t submitted, completed;
  VkSemaphore timeline;

  sg_vk_tracked tracked[SG_VK_TRACKED];

  /* The kernel cache (lib/vk/pipeline.c, lib/vk/pipeline_cache.c). */
  sg_vk_program *programs;  /* every compiled program, most recently used first */
  uint32_t program_count, idle_programs; /* idle: no handle uses it */
  uint32_t idle_capacity;   /* idle programs kept for a later create of the same words */
  bool no_reuse;            /* desc: never share (every create compiles) */
  spvgen_vk_kernel_cache_stats stats;
  char cache_path[1024];    /* the disk cache file ("" : none) */
  char cache_notice[512];   /* why a cache file was ignored or not written */
  bool cache_dirty;         /* a pipeline was compiled since the cache was read */

  spvgen_vk_buffer *staging; /* host-visible, grows on demand */

  spvgen_vk_buffer *buffers;   /* every live buffer (staging excluded) */
  spvgen_vk_pipeline *pipelines;
  spvgen_vk_compile *compiles; /* spvgen_vk_pipeline_create_async's, not yet finished */
};

/* Milliseconds of CLOCK_MONOTONIC (lib/vk/warm_up.c): the pipeline compile times and the
 * warm-up's spans. */
double sg_vk_now_ms(void);

/* ------------------------------------------------------------- errors ---- */
const char *sg_vk_result_name(VkResult result);
/* Formats into ctx->error and returns status. */
spvgen_status sg_vk_fail(spvgen_vk_context *ctx, spvgen_status status, const char *fmt, ...)
    SG_PRINTF(3, 4);
/* "<who>: <call> failed: <VK_RESULT>"; returns SPVGEN_ERROR_VULKAN. Marks the context
 * lost on VK_ERROR_DEVICE_LOST. */
spvgen_status sg_vk_fail_call(spvgen_vk_context *ctx, const char *who, const char *call,
                                  VkResult result);
void sg_vk_format(char *out, size_t size, const char *fmt, ...)
    SG_PRINTF(3, 4);
/* Refuses to work on a lost context (status set, message naming who). */
spvgen_status sg_vk_check_usable(spvgen_vk_context *ctx, const char *who);

/* ---------------------------------------------------------- recording ---- */
/* One dispatch checked against its pipeline and the device (lib/vk/record.c), ready to
 * record: buffer ranges per descriptor binding, the push-constant block (with device
 * addresses written in), the grid. */
typedef struct sg_vk_resolved {
  const spvgen_vk_pipeline *p;
  VkDescriptorBufferInfo buffers[SPVGEN_MAX_BINDINGS]; /* by binding index of p->info */
  const void *push;       /* push_size bytes: the caller's, or push_copy */
  uint32_t push_size;
  uint8_t push_copy[SG_VK_PUSH_MAX];
  uint32_t groups[3];
} sg_vk_resolved;

/* Checks dispatch `index` (who: the public call) and fills r. Nothing is recorded. */
spvgen_status sg_vk_resolve(spvgen_vk_context *ctx, const char *who, uint32_t index,
                            const spvgen_vk_record_desc *d, sg_vk_resolved *r);
/* Records r into cmd: pipeline (unless *bound is it already), descriptors (pushed when
 * the pipeline has a push set, else the sets given), push constants, dispatch.
 * Timestamps around it when query_pool is not null (queries 2*index, 2*index+1). */
void sg_vk_record(spvgen_vk_context *ctx, VkCommandBuffer cmd, const sg_vk_resolved *r,
                  const VkDescriptorSet *sets, const spvgen_vk_pipeline **bound,
                  VkQueryPool query_pool, uint32_t query);
/* Descriptor sets for a resolved dispatch without a push set, from pool (grown as
 * needed by sg_vk_pool_reserve first). */
spvgen_status sg_vk_pool_reserve(spvgen_vk_context *ctx, const char *who, sg_vk_pool *pool,
                                 uint32_t sets, uint32_t storage, uint32_t uniform);
spvgen_status sg_vk_write_sets(spvgen_vk_context *ctx, const char *who, sg_vk_pool *pool,
                               const sg_vk_resolved *r, VkDescriptorSet *sets);
void sg_vk_pool_destroy(spvgen_vk_context *ctx, sg_vk_pool *pool);
/* A barrier between two dispatches: compute-shader writes before compute-shader reads
 * and writes. */
void sg_vk_compute_barrier(spvgen_vk_context *ctx, VkCommandBuffer cmd);

/* ---------------------------------------------------------- submissions ---- */
/* Begins recording into ctx->cmd (after the previous submission completed), with a
 * full memory barrier first so earlier submissions' writes are visible. */
spvgen_status sg_vk_begin(spvgen_vk_context *ctx, const char *who);
/* Records a barrier making every earlier write visible to every later access (and to
 * host reads). */
void sg_vk_full_barrier(spvgen_vk_context *ctx);
void sg_vk_full_barrier_on(spvgen_vk_context *ctx, VkCommandBuffer cmd);
/* Ends, submits, waits (timeout_ms). */
spvgen_status sg_vk_submit_wait(spvgen_vk_context *ctx, const char *who);
/* Before destroying anything: waits (without limit) for a submission that timed out,
 * and for every spvgen_vk_submit submission still in flight. */
void sg_vk_settle(spvgen_vk_context *ctx);
/* Frees the ring of spvgen_vk_submit (after sg_vk_settle). */
void sg_vk_frames_destroy(spvgen_vk_context *ctx);

/* ------------------------------------------------------------ kernel cache ---- */
/* Reads the disk cache for the context's device (context creation); fills
 * ctx->cache_path and, when a file is ignored, ctx->cache_notice. Returns the initial
 * data (malloc'd, NULL when none) for vkCreatePipelineCache. */
void *sg_vk_disk_cache_read(spvgen_vk_context *ctx, const char *dir_override, size_t *size);
/* Writes the context's VkPipelineCache to ctx->cache_path when pipelines were compiled
 * since it was read (atomically: temporary file, fsync, rename). */
spvgen_status sg_vk_disk_cache_write(spvgen_vk_context *ctx, const char *who);
/* Frees every program (the context's teardown, after every pipeline handle). */
void sg_vk_programs_destroy(spvgen_vk_context *ctx);
/* Compiles in the background (lib/vk/pipeline.c). wait: every compile thread of ctx
 * has ended when it returns (their requests stay to be finished); cancel: every
 * unfinished compile discarded (the context's teardown, first: the threads use the
 * device and the VkPipelineCache). */
void sg_vk_compiles_wait(spvgen_vk_context *ctx);
void sg_vk_compiles_cancel(spvgen_vk_context *ctx);

/* Index of a memory type in type_bits with `required` flags, preferring `preferred`;
 * UINT32_MAX when none. */
uint32_t sg_vk_memory_type(const spvgen_vk_context *ctx, uint32_t type_bits,
                               VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred);
/* Creates a buffer object without linking it into ctx->buffers (for staging). */
spvgen_status sg_vk_buffer_make(spvgen_vk_context *ctx, const char *who, uint64_t size,
                                    uint32_t flags, spvgen_vk_buffer **out);
void sg_vk_buffer_free(spvgen_vk_buffer *buffer);
/* Checks that buffer is non-NULL and belongs to ctx. */
spvgen_status sg_vk_check_buffer(spvgen_vk_context *ctx, const char *who,
                                     const spvgen_vk_buffer *buffer, const char *what);

/* SPIR-V reflection: lib/core/reflect.h (the reader lives in lib/core, shared with the
 * emitters' kernel metadata). */
#include "reflect.h"

#endif
