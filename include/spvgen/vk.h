/* spvgen/vk.h — the Vulkan runner: device, capabilities, buffers, pipelines, dispatch,
 * GPU timestamps and cooperative-vector matrix conversion.
 *
 * Vulkan is loaded at run time through volk (no link-time libvulkan). The runner either
 * creates its own instance and device, enabling every cooperative feature the device
 * has, or wraps a caller's VkInstance/VkPhysicalDevice/VkDevice/VkQueue.
 *
 * This header needs no Vulkan headers: Vulkan handles are passed as `void *`
 * (VkInstance, VkPhysicalDevice, VkDevice and VkQueue are pointers) or `uint64_t`
 * (VkBuffer, VkPipeline, ...).
 *
 * Every call is synchronous: it records, submits and waits. Every failure returns a
 * status and leaves a message in spvgen_vk_error(ctx) that names the spvgen call, the
 * Vulkan call and its VkResult (or the argument that was wrong, or the missing feature
 * by its Vulkan name). Nothing aborts or prints. A Vulkan call that fails for memory
 * (VK_ERROR_OUT_OF_HOST_MEMORY, VK_ERROR_OUT_OF_DEVICE_MEMORY: a buffer the heap cannot
 * hold, a driver out of memory while creating a pipeline) is SPVGEN_ERROR_OUT_OF_MEMORY,
 * any other failure SPVGEN_ERROR_VULKAN. The runner's faults and their errors are tested
 * in tests/vk/test_faults.c (no loader, no driver, out of memory, pipeline creation in
 * the driver, a grid beyond the device) and tests/vk/test_errors.c.
 *
 * Threads (docs/runner.md, "Threads", has the table per object):
 *  - A context, and its buffers and pipelines, are used from one thread at a time: two
 *    threads sharing one context need the caller's lock around every call on it.
 *  - Different contexts may be used on different threads at once, created and destroyed
 *    included, in any order: each has its own device (or wrapped objects), queue,
 *    command buffer and function tables. The loader-level calls spvgen makes (loading
 *    libvulkan, creating and destroying instances and devices, resolving functions) run
 *    under one process-wide lock, and volk's globals are written once, under it; no
 *    first call before starting threads is needed.
 *  - spvgen_kernel_reflect, the spvgen_caps_* functions and the template functions
 *    (plan, emit into a module of the thread's own) share nothing and may run anywhere.
 *  - An application that creates or destroys Vulkan objects itself on other threads
 *    relies on its loader's own thread safety for those calls.
 * tests/threads/test_threads.c checks this under ThreadSanitizer and tests/threads/
 * test_stress.c with 8 threads of create, dispatch and destroy.
 *
 * A submission that runs past the timeout (or a lost device) leaves the context
 * unusable: every later call fails with SPVGEN_ERROR_INVALID_STATE, and destroying its
 * objects first waits for the submission to end. docs/runner.md has the details. */
#ifndef SPVGEN_VK_H
#define SPVGEN_VK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/caps.h"
#include "spvgen/kernel.h"
#include "spvgen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

typedef struct spvgen_vk_context spvgen_vk_context;
typedef struct spvgen_vk_buffer spvgen_vk_buffer;
typedef struct spvgen_vk_pipeline spvgen_vk_pipeline;

/* A Vulkan function pointer of any type (cast PFN_vkGetInstanceProcAddr to it). */
typedef void (*spvgen_vk_proc)(void);

/* ---------------------------------------------------------------- context ---- */
/* Zero-initialized: the best device (discrete GPU, then integrated, virtual, CPU; the
 * first of a kind), every feature it has, no validation layers. */
typedef struct spvgen_vk_desc {
  /* Which device. device_name: the first device whose name contains it
   * (case-insensitive). Else, with use_device_index, the device at device_index in
   * vkEnumeratePhysicalDevices order (the number `spvgen devices` prints). */
  const char *device_name;
  bool use_device_index;
  uint32_t device_index;
  /* SPVGEN_FEATURE_* the device must have; creation fails with
   * SPVGEN_ERROR_MISSING_FEATURE naming the first one it lacks. */
  uint64_t required_features;
  /* SPVGEN_FEATURE_* to leave disabled even when present (to exercise fallbacks); they
   * are absent from the context's caps. */
  uint64_t disabled_features;
  /* Enable VK_LAYER_KHRONOS_validation (an error when it is not installed). Validation
   * messages of severity error are counted: spvgen_vk_validation_errors(). */
  bool enable_validation;
  /* How long one submission may run before the call fails with VK_TIMEOUT; 0: 60 s. */
  uint32_t timeout_ms;
  /* Initial VkPipelineCache contents (from spvgen_vk_pipeline_cache_data); optional. A
   * cache from another device or driver is ignored by the driver. */
  const void *pipeline_cache_data;
  size_t pipeline_cache_size;
} spvgen_vk_desc;

/* Creates an instance and a device. desc may be NULL (defaults). On failure *out is NULL
 * and message (when not NULL; message_size bytes, NUL-terminated) says why:
 * SPVGEN_ERROR_NO_DEVICE when there is no Vulkan loader (or a libvulkan.so.1 that is
 * not one), no driver or no device matching the selection; SPVGEN_ERROR_MISSING_FEATURE;
 * SPVGEN_ERROR_VULKAN. */
spvgen_status spvgen_vk_create(const spvgen_vk_desc *desc, spvgen_vk_context **out,
                               char *message, size_t message_size);

/* Wraps objects the caller created and keeps owning: spvgen never destroys them. The
 * device must have been created on physical_device with Vulkan 1.1 or later; queue must
 * be of a family with compute. */
typedef struct spvgen_vk_wrap_desc {
  void *instance;        /* VkInstance */
  void *physical_device; /* VkPhysicalDevice */
  void *device;          /* VkDevice */
  void *queue;           /* VkQueue */
  uint32_t queue_family_index;
  /* The caller's vkGetInstanceProcAddr; NULL: spvgen loads the system's loader. */
  spvgen_vk_proc get_instance_proc_addr;
  /* SPVGEN_FEATURE_* the caller enabled on the device (spvgen cannot ask the device).
   * The context's caps keep only those the device also supports. */
  uint64_t enabled_features;
  uint32_t timeout_ms; /* as in spvgen_vk_desc */
} spvgen_vk_wrap_desc;

spvgen_status spvgen_vk_wrap(const spvgen_vk_wrap_desc *desc, spvgen_vk_context **out,
                             char *message, size_t message_size);

/* Destroys every buffer and pipeline still alive, then the device and instance unless
 * wrapped (after vkDeviceWaitIdle; a wrapped device is not waited on, since spvgen has
 * nothing in flight between calls). NULL is fine. */
void spvgen_vk_destroy(spvgen_vk_context *ctx);

/* The last failure's message ("spvgen_vk_buffer_create: vkAllocateMemory failed:
 * VK_ERROR_OUT_OF_DEVICE_MEMORY ..."), or "" when nothing failed. Never NULL. */
const char *spvgen_vk_error(const spvgen_vk_context *ctx);

/* The device's capabilities with the enabled features (NULL for a NULL context). */
const spvgen_device_caps *spvgen_vk_caps(const spvgen_vk_context *ctx);

/* Error-severity messages the validation layer reported so far, and the first one. */
uint32_t spvgen_vk_validation_errors(const spvgen_vk_context *ctx, const char **first);

typedef struct spvgen_vk_handles {
  void *instance, *physical_device, *device, *queue;
  uint32_t queue_family_index;
} spvgen_vk_handles;
/* The Vulkan objects behind a context (for interop). */
void spvgen_vk_get_handles(const spvgen_vk_context *ctx, spvgen_vk_handles *out);

/* Lists every device's capabilities (the features each supports). Creates and destroys
 * its own instance. *count gets the number of devices; at most max entries are written
 * to out (out may be NULL when max is 0). Returns SPVGEN_ERROR_NO_DEVICE (with a message)
 * when there is no loader or no driver; zero devices is SPVGEN_OK with *count 0. */
spvgen_status spvgen_vk_enumerate(spvgen_device_caps *out, uint32_t max, uint32_t *count,
                                  char *message, size_t message_size);

/* ---------------------------------------------------------------- buffers ---- */
enum {
  /* Default: device-local memory; upload/download go through a staging buffer. */
  SPVGEN_VK_BUFFER_DEVICE_LOCAL = 0,
  /* Host-visible, coherent memory, mapped for the buffer's life: spvgen_vk_buffer_map. */
  SPVGEN_VK_BUFFER_HOST_VISIBLE = 1u << 0,
  /* Usable through its device address (needs SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS). */
  SPVGEN_VK_BUFFER_DEVICE_ADDRESS = 1u << 1,
};

/* A storage (and uniform) buffer of size bytes (> 0), contents undefined. */
spvgen_status spvgen_vk_buffer_create(spvgen_vk_context *ctx, uint64_t size, uint32_t flags,
                                      spvgen_vk_buffer **out);
/* NULL is fine. Buffers still alive are destroyed with their context. */
void spvgen_vk_buffer_destroy(spvgen_vk_buffer *buffer);

/* Copies size bytes between host memory and the buffer at offset. */
spvgen_status spvgen_vk_buffer_upload(spvgen_vk_context *ctx, spvgen_vk_buffer *buffer,
                                      uint64_t offset, const void *data, uint64_t size);
spvgen_status spvgen_vk_buffer_download(spvgen_vk_context *ctx, spvgen_vk_buffer *buffer,
                                        uint64_t offset, void *data, uint64_t size);
/* Fills size bytes at offset (both multiples of 4) with a 32-bit pattern. */
spvgen_status spvgen_vk_buffer_fill(spvgen_vk_context *ctx, spvgen_vk_buffer *buffer,
                                    uint64_t offset, uint64_t size, uint32_t value);

uint64_t spvgen_vk_buffer_size(const spvgen_vk_buffer *buffer);
/* The VkDeviceAddress (0 without SPVGEN_VK_BUFFER_DEVICE_ADDRESS). */
uint64_t spvgen_vk_buffer_address(const spvgen_vk_buffer *buffer);
/* The mapping of a host-visible buffer (NULL for device-local ones). */
void *spvgen_vk_buffer_map(const spvgen_vk_buffer *buffer);
/* The VkBuffer, as an integer. */
uint64_t spvgen_vk_buffer_handle(const spvgen_vk_buffer *buffer);

/* -------------------------------------------------------------- pipelines ---- */
typedef struct spvgen_vk_pipeline_options {
  /* Values by SpecId; they replace the kernel info's values for the same id. */
  const spvgen_spec_constant *spec_constants;
  uint32_t spec_constant_count;
  /* Replaces info->required_subgroup_size when not 0. */
  uint32_t required_subgroup_size;
  /* VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT (computeFullSubgroups). */
  bool require_full_subgroups;
} spvgen_vk_pipeline_options;

/* A compute pipeline for words with the metadata info. The module is checked against
 * info and the device before Vulkan sees it: entry point present, every buffer the
 * module declares listed in info with the same kind, push constants within
 * push_constant_size, local size within the limits, SPIR-V version and every
 * capability supported by the enabled features (SPVGEN_ERROR_MISSING_FEATURE naming the
 * feature). info NULL means: bindings and push constant size taken from the module (in
 * (set, binding) order), entry point "main". options may be NULL. */
spvgen_status spvgen_vk_pipeline_create(spvgen_vk_context *ctx, const uint32_t *words,
                                        size_t word_count, const spvgen_kernel_info *info,
                                        const spvgen_vk_pipeline_options *options,
                                        spvgen_vk_pipeline **out);
/* Same with kernel->words and kernel->info. */
spvgen_status spvgen_vk_pipeline_create_kernel(spvgen_vk_context *ctx,
                                               const spvgen_kernel *kernel,
                                               const spvgen_vk_pipeline_options *options,
                                               spvgen_vk_pipeline **out);
void spvgen_vk_pipeline_destroy(spvgen_vk_pipeline *pipeline);
/* The metadata the pipeline was built with (bindings in dispatch order). */
const spvgen_kernel_info *spvgen_vk_pipeline_info(const spvgen_vk_pipeline *pipeline);
/* Minimum size of the buffer bound to binding number i of the info (the static part of
 * its block), 0 if the module does not use it. */
uint64_t spvgen_vk_pipeline_binding_min_size(const spvgen_vk_pipeline *pipeline, uint32_t i);

/* The VkPipelineCache contents: with data NULL, *size gets the size; else at most *size
 * bytes are written and *size is set to the count written. */
spvgen_status spvgen_vk_pipeline_cache_data(spvgen_vk_context *ctx, void *data, size_t *size);

/* One statistic the driver reports for a compiled pipeline
 * (VkPipelineExecutableStatisticKHR): name and description as the driver gives them
 * (cut to fit), the value of any format (bool32 as 0/1, int64, uint64, float64) as a
 * double. Names are the driver's own ("Register Count", "SGPRs", ...): there is no
 * standard list. */
typedef struct spvgen_vk_pipeline_stat {
  char name[64];
  char description[128];
  double value;
} spvgen_vk_pipeline_stat;

/* The driver's statistics of the pipeline's compute executable (registers, spills,
 * shared memory, ... whatever it reports), through VK_KHR_pipeline_executable_properties
 * (vkGetPipelineExecutablePropertiesKHR, vkGetPipelineExecutableStatisticsKHR). A created
 * context enables that extension and its pipelineExecutableInfo feature whenever the
 * device has both, and then creates every pipeline with
 * VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR (the code generated is the same); a
 * wrapped context never does. *count gets the number of statistics; at most max are
 * written to out in the driver's order (out may be NULL when max is 0).
 * SPVGEN_ERROR_UNSUPPORTED (message naming VK_KHR_pipeline_executable_properties) when
 * the extension is not enabled; SPVGEN_ERROR_INVALID_ARGUMENT for NULL arguments or a
 * pipeline of another context; SPVGEN_ERROR_VULKAN naming the failed call. */
spvgen_status spvgen_vk_pipeline_statistics(spvgen_vk_context *ctx,
                                            const spvgen_vk_pipeline *pipeline,
                                            spvgen_vk_pipeline_stat *out, uint32_t max,
                                            uint32_t *count);

/* --------------------------------------------------------------- dispatch ---- */
typedef struct spvgen_vk_dispatch_desc {
  spvgen_vk_pipeline *pipeline;
  /* One buffer per binding of the pipeline's info, in that order. */
  spvgen_vk_buffer *const *buffers;
  uint32_t buffer_count;
  /* Exactly info->push_constant_size bytes (or none when that is 0). */
  const void *push_data;
  uint32_t push_size;
  uint32_t groups[3]; /* workgroup counts; 0 entries mean 1 */
} spvgen_vk_dispatch_desc;

/* Runs count dispatches in one submission, in order, with a full memory barrier between
 * consecutive ones, and waits. ns (optional, count entries) gets each dispatch's GPU
 * time in nanoseconds, from timestamps (0 where the queue has none). */
spvgen_status spvgen_vk_run(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dispatches,
                            uint32_t count, uint64_t *ns);

/* One dispatch; ns optional. */
spvgen_status spvgen_vk_dispatch(spvgen_vk_context *ctx, spvgen_vk_pipeline *pipeline,
                                 spvgen_vk_buffer *const *buffers, uint32_t buffer_count,
                                 const void *push_data, uint32_t push_size,
                                 uint32_t groups_x, uint32_t groups_y, uint32_t groups_z,
                                 uint64_t *ns);

/* ------------------------------------------- cooperative vector matrices ---- */
/* A matrix conversion: rows x columns elements from (src_type, src_layout) to
 * (dst_type, dst_layout). The layouts are spirv.h's SpvCooperativeVectorMatrixLayout
 * (RowMajorNV, ColumnMajorNV, InferencingOptimalNV, TrainingOptimalNV: the values of
 * VkCooperativeVectorMatrixLayoutNV, and the layout operand of
 * OpCooperativeVectorMatrixMulNV). Strides are bytes between consecutive rows (row-major) or
 * columns (column-major); 0 means tightly packed. Optimal layouts ignore them. */
typedef struct spvgen_vk_coopvec_matrix {
  uint32_t rows, columns;
  spvgen_component_type src_type, dst_type;
  SpvCooperativeVectorMatrixLayout src_layout, dst_layout;
  size_t src_stride, dst_stride;
} spvgen_vk_coopvec_matrix;

/* Bytes the source occupies (standard layouts only; computed here, no Vulkan). */
spvgen_status spvgen_vk_coopvec_src_size(const spvgen_vk_coopvec_matrix *matrix,
                                         size_t *size);
/* Bytes the converted matrix needs (vkConvertCooperativeVectorMatrixNV size query). */
spvgen_status spvgen_vk_coopvec_matrix_size(spvgen_vk_context *ctx,
                                            const spvgen_vk_coopvec_matrix *matrix,
                                            size_t *dst_size);
/* Converts on the host (vkConvertCooperativeVectorMatrixNV). src_size must cover the
 * source, dst_size the result; *written (optional) gets the bytes written. */
spvgen_status spvgen_vk_convert_coopvec_matrix(spvgen_vk_context *ctx,
                                               const spvgen_vk_coopvec_matrix *matrix,
                                               const void *src, size_t src_size, void *dst,
                                               size_t dst_size, size_t *written);
/* Converts on the device (vkCmdConvertCooperativeVectorMatrixNV) from one buffer to
 * another; both need SPVGEN_VK_BUFFER_DEVICE_ADDRESS, offsets must be multiples of 64. */
spvgen_status spvgen_vk_convert_coopvec_matrix_buffers(spvgen_vk_context *ctx,
                                                       const spvgen_vk_coopvec_matrix *matrix,
                                                       spvgen_vk_buffer *src,
                                                       uint64_t src_offset,
                                                       spvgen_vk_buffer *dst,
                                                       uint64_t dst_offset);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
