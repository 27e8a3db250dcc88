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
 * Three ways to run a kernel, one recording path behind them (lib/vk/record.c):
 *  - spvgen_vk_run / spvgen_vk_dispatch: record, submit and wait (synchronous).
 *  - spvgen_vk_submit: record and submit without waiting; a ticket (a timeline
 *    semaphore value, or a fence of the caller's) says when it is done.
 *  - spvgen_vk_cmd_dispatch: record into the caller's own VkCommandBuffer with the
 *    caller's own buffers; never submits (the "Recording" section says which barriers
 *    the caller owns).
 * Every dispatch is checked before anything is recorded: each buffer or range against
 * the size its binding needs (the kernel info's, or computed from the dispatch's push
 * constants for run-time shapes), push-constant sizes, the grid, and which device a
 * buffer belongs to where spvgen can tell.
 *
 * Pipelines are cached: a second spvgen_vk_pipeline_create of the same words and layout
 * reuses the compiled pipeline (in process), and the driver's VkPipelineCache persists in
 * the XDG cache directory across processes ("Kernel cache" below).
 *
 * Every failure returns a
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
 *    The calls on a context include spvgen_vk_cmd_dispatch (which also follows Vulkan's
 *    rule for the caller's command buffer), spvgen_vk_submit / _wait / _completed,
 *    the kernel cache calls and the compiles in the background (create_async, finish,
 *    cancel); a ticket's timeline semaphore or fence may be waited on, and
 *    spvgen_vk_compile_done asked, by any thread.
 *  - spvgen_kernel_reflect, the spvgen_caps_* functions and the template functions
 *    (plan, emit into a module of the thread's own), spvgen_vk_features_chain,
 *    spvgen_device_caps_from_vk and the kernel cache file functions (export, import,
 *    file_check: atomic writes) share nothing and may run anywhere. Contexts of any
 *    threads or processes may read and write the same disk cache file at once.
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
   * cache from another device or driver is ignored by the driver. Merged with the disk
   * cache's contents when both exist. */
  const void *pipeline_cache_data;
  size_t pipeline_cache_size;
  /* The kernel cache ("Kernel cache" below): no_disk_cache leaves the disk alone (no
   * read, no write; so does the environment variable SPVGEN_PIPELINE_CACHE=off);
   * cache_dir replaces the default directory ($XDG_CACHE_HOME/spvgen, else
   * $HOME/.cache/spvgen; the environment variable SPVGEN_PIPELINE_CACHE=DIR also does);
   * no_pipeline_reuse makes every spvgen_vk_pipeline_create compile. */
  bool no_disk_cache;
  const char *cache_dir;
  bool no_pipeline_reuse;
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
  /* What the caller enabled on the device, which spvgen cannot ask the device for. The
   * truth is device_create_info: the VkDeviceCreateInfo the device was created with (its
   * pEnabledFeatures, its pNext chain of feature structs, VkPhysicalDeviceVulkan11/12/
   * 13Features included, and its enabled extensions), or just the head of a feature
   * chain (a VkPhysicalDeviceFeatures2 or any feature struct); read during the call
   * only. Without it, enabled_features (SPVGEN_FEATURE_* bits, the older way) is taken on
   * trust: a bit the device does not really have enabled makes the driver see modules it
   * may reject (VUID-VkShaderModuleCreateInfo-pCode-01091). Either way the context's caps
   * keep only what the device also supports. */
  const void *device_create_info;
  uint64_t enabled_features;
  uint32_t timeout_ms; /* as in spvgen_vk_desc */
  bool no_disk_cache;  /* as in spvgen_vk_desc */
  const char *cache_dir;
  bool no_pipeline_reuse;
} spvgen_vk_wrap_desc;

spvgen_status spvgen_vk_wrap(const spvgen_vk_wrap_desc *desc, spvgen_vk_context **out,
                             char *message, size_t message_size);

/* Cancels the compiles in the background not finished (spvgen_vk_compile_cancel), then
 * destroys every buffer and pipeline still alive, then the device and instance unless
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

/* ------------------------------------------- a framework's own device ---- */
/* The caps of a device the caller created: what physical_device supports (queried
 * through get_instance_proc_addr and instance: NULL get_instance_proc_addr loads the
 * system's loader), keeping only the features enabled_chain enables. enabled_chain is
 * the VkDeviceCreateInfo the device was created with, or the head of its feature chain
 * (a VkPhysicalDeviceFeatures2, a VkPhysicalDeviceVulkan12Features, ...). NULL: every
 * feature the device supports, to plan kernels before creating the device (then create
 * it with spvgen_vk_features_chain of what the kernels' infos list, and call this again
 * with its VkDeviceCreateInfo). queue_family_index decides the timestamp support
 * (UINT32_MAX: the first family with compute). Plan kernels with these caps and they only use what the
 * device really has on. SPVGEN_ERROR_INVALID_ARGUMENT for NULL handles or an unknown
 * structure at the head of the chain; SPVGEN_ERROR_NO_DEVICE without a loader. */
spvgen_status spvgen_device_caps_from_vk(spvgen_vk_proc get_instance_proc_addr, void *instance,
                                         void *physical_device, const void *enabled_chain,
                                         uint32_t queue_family_index, spvgen_device_caps *out,
                                         char *message, size_t message_size);

/* Storage for a feature chain, filled by spvgen_vk_features_chain: opaque, aligned for
 * every Vulkan structure it holds. */
typedef struct spvgen_vk_feature_chain {
  union {
    uint64_t align;
    unsigned char bytes[4096];
  } storage;
} spvgen_vk_feature_chain;

/* Fills chain with a VkPhysicalDeviceFeatures2 and the feature structs that turn on
 * `features` (SPVGEN_FEATURE_* bits: e.g. the union of the kernel infos' features of
 * the kernels to run), every member spvgen does not need left VK_FALSE, structs with
 * nothing to enable left out. Returns the VkPhysicalDeviceFeatures2 * (as void *) to put
 * in VkDeviceCreateInfo.pNext (a caller's own structs may be appended: *tail, when not
 * NULL, gets the address of the last struct's pNext). extensions (optional, max entries)
 * gets the device extensions those features need on a device of api_version (the ones
 * core there are left out), plus VK_KHR_push_descriptor when recommended_extensions is
 * true (what spvgen_vk_cmd_dispatch binds buffers with); *extension_count gets how many
 * (may exceed max). NULL for a NULL chain or a bit spvgen does not know (timestamps are
 * a queue property: ignored). */
void *spvgen_vk_features_chain(uint64_t features, uint32_t api_version,
                               bool recommended_extensions, spvgen_vk_feature_chain *chain,
                               void ***tail, const char **extensions, uint32_t max,
                               uint32_t *extension_count);

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
  /* Create only what costs no compile: a pipeline the kernel cache holds in process, or one
   * the driver takes from a cache (the context's VkPipelineCache, which the disk cache
   * fills, or the driver's own), asked with
   * VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT. Anything else fails with
   * SPVGEN_ERROR_NOT_CACHED after no more than the driver's lookup (a few ms), and
   * nothing is created. Needs pipelineCreationCacheControl (core in Vulkan 1.3; a context
   * of its own enables it where supported, a wrapped one where the caller's
   * VkDeviceCreateInfo enabled it); without it only the in-process cache answers and
   * every other request is SPVGEN_ERROR_NOT_CACHED. Which drivers answer from which cache
   * is theirs to decide (lavapipe always asks for the compile): a tier's test, "is the
   * fast kernel ready without waiting", never a promise that a compile will be slow. */
  bool cached_only;
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

/* One pipeline of spvgen_vk_pipelines_create: spvgen_vk_pipeline_create's arguments. */
typedef struct spvgen_vk_pipeline_request {
  const uint32_t *words;
  size_t word_count;
  const spvgen_kernel_info *info;            /* may be NULL, as in spvgen_vk_pipeline_create */
  const spvgen_vk_pipeline_options *options; /* may be NULL */
} spvgen_vk_pipeline_request;

#define SPVGEN_VK_MAX_BATCH 128u

/* Creates count pipelines (at most SPVGEN_VK_MAX_BATCH), out[i] as spvgen_vk_pipeline_create
 * would make it from requests[i], and runs the driver's compiles of those that neither
 * the kernel cache nor an earlier request of the same call holds on up to `threads`
 * threads at once (0 or 1: one after another on the calling thread). A plan of several
 * kernels (a split-K GEMM, the MLP's layers variant) then waits about as long as its
 * longest compile, not the sum, on a driver that compiles in parallel.
 * - Every request is checked (and its module against the device) before any compile.
 * - All or nothing: on failure no pipeline of the call is left, out[] is all NULL, and
 *   the error names the request ("spvgen_vk_pipelines_create: request 3: ...").
 * - The kernel cache's stats count each compile and reuse as single creates do;
 *   compile_ms grows by the call's wall time.
 * - Threads: it is one call on ctx (the context's rule). The threads it starts are its
 *   own, touch only the driver's pipeline creation (VkPipelineCache is internally
 *   synchronized), and have ended when it returns. */
spvgen_status spvgen_vk_pipelines_create(spvgen_vk_context *ctx, const spvgen_vk_pipeline_request *requests,
                                         uint32_t count, uint32_t threads, spvgen_vk_pipeline **out);
void spvgen_vk_pipeline_destroy(spvgen_vk_pipeline *pipeline);
/* The metadata the pipeline was built with (bindings in dispatch order). */
const spvgen_kernel_info *spvgen_vk_pipeline_info(const spvgen_vk_pipeline *pipeline);
/* Minimum size of the buffer bound to binding number i of the info: the larger of the
 * info's min_size and the static part of its block in the words (0 when neither says
 * anything). A dispatch may need more (run-time sizes: spvgen_binding_sizes_fn). */
uint64_t spvgen_vk_pipeline_binding_min_size(const spvgen_vk_pipeline *pipeline, uint32_t i);

/* The VkPipeline and VkPipelineLayout (as integers; either may be NULL) of a pipeline,
 * for a framework that binds it itself. They belong to the pipeline: valid until its
 * last handle is destroyed. The layout has set 0 as a push-descriptor set when the
 * context has VK_KHR_push_descriptor and the kernel uses only set 0. */
void spvgen_vk_pipeline_handles(const spvgen_vk_pipeline *pipeline, uint64_t *vk_pipeline,
                                uint64_t *vk_pipeline_layout);

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

/* ------------------------------------------------------------- GPU clock ---- */
/* The shader clock as it is now. NVIDIA's driver keeps the SM clock at its idle value
 * (345 MHz on the H100 and H200, against ~1.98 GHz busy) through the first 100-400 ms of
 * work after an idle second, so a kernel timed then runs 3-5x slow; this says which clock
 * a timing ran at. */
typedef struct spvgen_vk_clock {
  double mhz;      /* the subgroup clock's rate (on NVIDIA the SM clock), MHz */
  uint32_t cycles; /* the longer probe's cycles */
  uint64_t ns;     /* its GPU time (the queue's timestamps) */
} spvgen_vk_clock;
/* Runs two probe dispatches (one invocation each, spinning on OpReadClockKHR until 20,000
 * and 2,020,000 cycles have passed, after an unmeasured first short one: ~1 ms at 2 GHz,
 * ~6 ms at 345 MHz; the runner's own submit and wait) and gives the rate from the
 * difference of their cycles over the difference of their timestamps. Needs
 * SPVGEN_FEATURE_SHADER_CLOCK (VK_KHR_shader_clock's shaderSubgroupClock: a context of its
 * own enables it where the device has it, a wrapped one where device_create_info or
 * enabled_features says so) and timestamps: SPVGEN_ERROR_UNSUPPORTED naming what is
 * missing otherwise; SPVGEN_ERROR_VULKAN when three tries gave no sane reading (a CPU
 * implementation's counter read across cores). The probe is work too: a clock that ramps
 * up when work starts may read low on the first call and higher on the next. */
spvgen_status spvgen_vk_measure_clock(spvgen_vk_context *ctx, spvgen_vk_clock *out);

/* ------------------------------------------------- compiles in the background ---- */
/* A quick kernel now and the fast one when its driver compile ends, without blocking:
 * spvgen_vk_pipeline_create in two calls, the compile on a thread of its own between
 * them.
 * - create_async, finish and cancel are calls on the context (its one-thread-at-a-time
 *   rule); spvgen_vk_compile_done may be called from any thread. While a compile runs,
 *   the context may be used for anything else on its thread (dispatches, other creates,
 *   other compiles in the background).
 * - The kernel cache's stats count each compile and reuse as a single create does, at
 *   finish (a hit's reuse at create); compile_ms grows by the driver's time on the
 *   compile's thread, not the wall time between the calls.
 * - The kernel cache shares a compile once it has been finished: a create of the same
 *   words while their compile in the background still runs is not served by it and
 *   compiles again.
 * - spvgen_vk_destroy cancels the compiles not finished, waiting for their threads;
 *   spvgen_vk_kernel_cache_save waits for those still running (their requests stay to
 *   be finished). */
typedef struct spvgen_vk_compile spvgen_vk_compile;
/* Starts creating request's pipeline and returns without waiting for the driver's compile:
 * the checks, the kernel-cache lookup and the shader module happen on this thread (their
 * errors are returned here, as spvgen_vk_pipeline_create's), the compile on a thread of its
 * own. A pipeline the kernel cache holds is ready at once (no thread). The request's words,
 * info and options need not outlive the call. *out is NULL on failure. Where no thread can
 * be started the compile runs in this call (done when it returns). */
spvgen_status spvgen_vk_pipeline_create_async(spvgen_vk_context *ctx, const spvgen_vk_pipeline_request *request,
                                              spvgen_vk_compile **out);
/* Whether its compile has ended (never blocks; any thread; NULL: true). */
bool spvgen_vk_compile_done(const spvgen_vk_compile *compile);
/* Waits for the compile if it has not ended, and ends the request: *out gets the pipeline, as
 * spvgen_vk_pipeline_create would have made it; compile_ms (optional) the driver's compile
 * time on its thread (0 for a kernel-cache hit). The compile object is freed, success or
 * not; on failure *out is NULL and spvgen_vk_error says why (a NULL compile:
 * SPVGEN_ERROR_INVALID_ARGUMENT, no message; a NULL out discards the compile). */
spvgen_status spvgen_vk_compile_finish(spvgen_vk_compile *compile, spvgen_vk_pipeline **out, double *compile_ms);
/* Waits for the compile and discards it (NULL is fine). */
void spvgen_vk_compile_cancel(spvgen_vk_compile *compile);

/* ----------------------------------------------------------- kernel cache ---- */
/* In process: spvgen_vk_pipeline_create hashes the words (spvgen_words_hash) and what else
 * decides the compiled pipeline (entry point, descriptor layout, push-constant size,
 * specialization constants, subgroup size); a create that matches an earlier one (words
 * compared in full) shares its VkPipeline and costs no compile. Every create returns a
 * handle of its own, with its own info (names, sizes), to be destroyed on its own:
 * handles never alias, destroying one never affects another. A compiled pipeline lives
 * while a handle uses it, and after that in a list of idle ones (the 256 most recently
 * used) that a later create of the same words revives; the context's destruction frees
 * all. spvgen_vk_desc.no_pipeline_reuse turns this off.
 *
 * On disk: the context's VkPipelineCache starts from, and is written back to,
 * <cache dir>/pipelines-<vendor>-<device>-<driver version>-<pipelineCacheUUID>.bin
 * (versioned by device and driver: another device's file is never read). The write
 * happens at spvgen_vk_destroy (or spvgen_vk_kernel_cache_save) when something was
 * compiled, merged with the file's current contents, atomically (a temporary file,
 * fsync, rename). A file that is corrupt, truncated, of another version or of another
 * device is ignored, never a crash: spvgen_vk_kernel_cache_stats' notice says why.
 * `spvgen cache export FILE` / `spvgen cache import FILE` move the files (to ship them
 * with an application). */
typedef struct spvgen_vk_kernel_cache_stats {
  uint64_t compiled;         /* pipelines compiled (vkCreateComputePipelines calls) */
  uint64_t reused;           /* creates served by an already compiled pipeline */
  double compile_ms;         /* wall time of the compiles (module + pipeline creation) */
  uint32_t pipelines;        /* compiled pipelines alive, idle ones included */
  uint64_t disk_bytes_read;  /* VkPipelineCache bytes read from the disk cache (0: none) */
  char path[1024];           /* the disk cache file ("" when off) */
  char notice[512];          /* why the file was ignored or not written ("" when fine) */
} spvgen_vk_kernel_cache_stats;

void spvgen_vk_kernel_cache_stats_get(const spvgen_vk_context *ctx,
                                      spvgen_vk_kernel_cache_stats *out);
/* Writes the disk cache now (as spvgen_vk_destroy does), after waiting for the compiles
 * in the background still running. SPVGEN_OK when there was nothing to write or the disk
 * cache is off; SPVGEN_ERROR_IO with the reason otherwise. */
spvgen_status spvgen_vk_kernel_cache_save(spvgen_vk_context *ctx);
/* The default cache directory: $XDG_CACHE_HOME/spvgen when XDG_CACHE_HOME is an absolute
 * path, else $HOME/.cache/spvgen. SPVGEN_ERROR_IO when neither is set. */
spvgen_status spvgen_vk_kernel_cache_dir(char *path, size_t size);
/* Writes every valid pipeline cache file of dir (NULL: the default directory) into one
 * bundle file at path (atomically); *count gets the number of files. No device needed. */
spvgen_status spvgen_vk_kernel_cache_export(const char *dir, const char *path, uint32_t *count,
                                            char *message, size_t message_size);
/* Reads a bundle written by export and writes its files into dir (NULL: the default),
 * after checking every one (a truncated or corrupt bundle imports nothing:
 * SPVGEN_ERROR_IO). A device's file already there is not replaced: the import is kept
 * beside it and merged the next time a context opens that device. *count: files written. */
spvgen_status spvgen_vk_kernel_cache_import(const char *dir, const char *path, uint32_t *count,
                                            char *message, size_t message_size);
/* Checks one cache file; identity (optional) gets its vendor_id, device_id,
 * driver_version and pipeline_cache_uuid (the other fields zero), *data_bytes the size of
 * the driver's data. SPVGEN_ERROR_IO with the reason for a file that would be ignored. */
spvgen_status spvgen_vk_kernel_cache_file_check(const char *path, spvgen_device_caps *identity,
                                                uint64_t *data_bytes, char *message,
                                                size_t message_size);

/* --------------------------------------------------------------- dispatch ---- */
typedef struct spvgen_vk_dispatch_desc {
  spvgen_vk_pipeline *pipeline;
  /* One buffer per binding of the pipeline's info, in that order (all of it: offset 0,
   * the buffer's size, unless offsets below says otherwise; device addresses for
   * DEVICE_ADDRESS bindings). */
  spvgen_vk_buffer *const *buffers;
  uint32_t buffer_count;
  /* Exactly info->push_constant_size bytes (or none when that is 0; or none when the
   * block holds only device addresses, which the runner writes). */
  const void *push_data;
  uint32_t push_size;
  uint32_t groups[3]; /* workgroup counts; 0 entries mean 1 */
  /* Optional, one per binding: bytes this dispatch needs (run-time shapes; see
   * spvgen_vk_record_desc.min_sizes). */
  const uint64_t *min_sizes;
  /* Optional, one per binding: the binding's range starts this many bytes into its
   * buffer (to the buffer's end; a multiple of minStorageBufferOffsetAlignment, checked
   * as spvgen_vk_buffer_range.offset). NULL: every binding from byte 0. */
  const uint64_t *offsets;
} spvgen_vk_dispatch_desc;

/* Runs count dispatches in one submission, in order, with a full memory barrier between
 * consecutive ones, and waits. ns (optional, count entries) gets each dispatch's GPU
 * time in nanoseconds, from timestamps (0 where the queue has none). */
spvgen_status spvgen_vk_run(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dispatches,
                            uint32_t count, uint64_t *ns);

/* As spvgen_vk_run, timed in steps of `group` consecutive dispatches (a plan of several
 * kernels, such as a split-K GEMM's partials and reduction): count must be a multiple of
 * group, and ns (optional, count / group entries) gets each step's GPU time from the
 * start of its first dispatch to the end of its last, the barriers between them
 * included. group 1 is spvgen_vk_run. */
spvgen_status spvgen_vk_run_steps(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dispatches,
                                  uint32_t count, uint32_t group, uint64_t *ns);

/* ------------------------------------------------------------- warm-up ---- */
/* Bringing the GPU to its working clocks before timing. GPUs idle at low clocks between
 * short bursts, and a host-side pause (building the next pipeline, computing a
 * reference) is one: after a second or more of idling, the H100 and H200 under this
 * driver kept 345 MHz through the first 100-400 ms of back-to-back work
 * (docs/runner.md, "GPU clocks"). spvgen_vk_warm_up runs the dispatches being timed in
 * back-to-back submissions of growing batches (up to about 25 ms of GPU work each: a
 * few short dispatches and a host wait look idle to the power manager) until it has run
 * at least min_ms and is steady: a full batch's median GPU time per step within 2 % of a
 * full batch's at least 500 ms earlier. It gives up waiting for steadiness at limit_ms
 * (at least min_ms; 0: max(4 min_ms, 2000 ms)). The tuner (spvgen/tune.h) and the
 * tools' benchmarks time after it. */
typedef struct spvgen_vk_warm_up_desc {
  /* count dispatches: count / group steps of group dispatches each (group 0: 1), timed
   * as spvgen_vk_run_steps does; a batch repeats the first step */
  const spvgen_vk_dispatch_desc *dispatches;
  uint32_t count, group;
  uint32_t min_ms;   /* 0: nothing runs */
  uint32_t limit_ms; /* 0: the default above */
} spvgen_vk_warm_up_desc;

typedef struct spvgen_vk_warm_up_info {
  double ms;        /* how long it ran */
  uint32_t batches; /* submissions */
  double last_ns;   /* median GPU ns per step of the last full batch (host time per step
                       where the queue has no timestamps; 0: no full batch) */
  bool steady;      /* false: stopped at the limit while timings still moved */
} spvgen_vk_warm_up_info;

/* info optional. Returns the first failing spvgen_vk_run_steps status. */
spvgen_status spvgen_vk_warm_up(spvgen_vk_context *ctx, const spvgen_vk_warm_up_desc *desc,
                                spvgen_vk_warm_up_info *info);

/* One dispatch; ns optional. */
spvgen_status spvgen_vk_dispatch(spvgen_vk_context *ctx, spvgen_vk_pipeline *pipeline,
                                 spvgen_vk_buffer *const *buffers, uint32_t buffer_count,
                                 const void *push_data, uint32_t push_size,
                                 uint32_t groups_x, uint32_t groups_y, uint32_t groups_z,
                                 uint64_t *ns);

/* -------------------------------------------------------------- recording ---- */
/* One binding's buffer in a recorded dispatch: a spvgen buffer of this context, or the
 * caller's own VkBuffer, or (DEVICE_ADDRESS bindings) a device address. */
typedef struct spvgen_vk_buffer_range {
  spvgen_vk_buffer *buffer; /* a spvgen buffer; NULL: handle or address below */
  uint64_t handle;          /* the caller's VkBuffer (buffer NULL) */
  uint64_t offset;          /* bytes from the buffer's start (or added to address) */
  /* Bytes the kernel may use from offset. 0 with `buffer`: up to its end. REQUIRED with a
   * handle or an address: spvgen cannot ask Vulkan how large a VkBuffer is, and the
   * check that keeps a kernel inside it compares this with what the binding needs. */
  uint64_t range;
  /* DEVICE_ADDRESS bindings only, with neither buffer nor handle: the VkDeviceAddress of
   * the buffer (offset is added). */
  uint64_t address;
} spvgen_vk_buffer_range;

typedef struct spvgen_vk_record_desc {
  spvgen_vk_pipeline *pipeline;
  const spvgen_vk_buffer_range *buffers; /* one per binding of the pipeline's info */
  uint32_t buffer_count;
  const void *push_data; /* as spvgen_vk_dispatch_desc */
  uint32_t push_size;
  uint32_t groups[3];    /* 0 entries mean 1 */
  /* Optional, one per binding: the bytes this dispatch needs, for kernels whose sizes
   * depend on run-time values the info does not compute (a template's size function
   * for run-time shapes). The check uses the largest of these, the info's min_size, the
   * info's binding_sizes for this dispatch's push constants and the block's static
   * size in the words: no source can lower what another requires. */
  const uint64_t *min_sizes;
} spvgen_vk_record_desc;

/* spvgen_vk_cmd_dispatch / spvgen_vk_submit flags. */
enum {
  /* No barrier between consecutive dispatches of the call (they are independent). By
   * default each dispatch's shader writes are made visible to the next one's shader
   * reads and writes (a compute-to-compute memory barrier). */
  SPVGEN_VK_RECORD_NO_BARRIERS = 1u << 0,
};

/* Records count dispatches into the caller's command_buffer (a VkCommandBuffer in the
 * recording state, of a queue family with compute, on this context's device). Never
 * begins, ends or submits it. Every dispatch is checked first; on any error nothing at
 * all is recorded and the message names the dispatch, the binding (its name), the size
 * given and the size needed.
 *
 * Barriers the caller owns (spvgen records only those between the call's own
 * dispatches):
 *  - before: whatever wrote the buffers the kernels read (a copy, an upload, an earlier
 *    dispatch, the host) must be made visible to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT /
 *    VK_ACCESS_SHADER_READ_BIT, and earlier reads of the buffers they write must be
 *    finished (a write-after-read dependency into COMPUTE_SHADER / SHADER_WRITE);
 *  - after: the kernels' writes (COMPUTE_SHADER / SHADER_WRITE, info access
 *    SPVGEN_ACCESS_WRITE) must be made visible to whatever reads them next (a copy, a
 *    later dispatch, the host: VK_PIPELINE_STAGE_HOST_BIT / VK_ACCESS_HOST_READ_BIT
 *    before mapping);
 *  - between the kernels of one plan recorded in separate calls (or with
 *    SPVGEN_VK_RECORD_NO_BARRIERS): a split-K GEMM's partials kernel writes the
 *    workspace its reduction reads (spvgen/gemm.h, "Split-K"): COMPUTE_SHADER /
 *    SHADER_WRITE to COMPUTE_SHADER / SHADER_READ. Recorded as consecutive dispatches of
 *    one call, spvgen's own barrier is that one.
 * The call changes the command buffer's compute state: the bound compute pipeline, set
 * 0's descriptors and the push constants; rebind yours afterwards.
 *
 * Buffers are bound with push descriptors (VK_KHR_push_descriptor: a created context
 * enables it where present; a wrapped one when device_create_info lists it), so nothing
 * spvgen allocates has to outlive the command buffer. Without it only kernels that take
 * every buffer by device address can be recorded (SPVGEN_ERROR_UNSUPPORTED otherwise).
 *
 * What spvgen checks: sizes and ranges (against the binding's needs and, for spvgen
 * buffers, the buffer's size), offsets (minStorageBufferOffsetAlignment; a binding's
 * alignment for addresses), buffers of another context (spvgen buffers), a NULL command
 * buffer, the context's own command buffers, and command buffers begun and ended through
 * spvgen_vk_command_buffer_begin / _end (one that was ended is refused). What it cannot
 * know: whether a caller's VkBuffer or VkCommandBuffer belongs to this device, how large
 * a caller's VkBuffer really is (the range is taken as the truth), whether a command
 * buffer spvgen never saw is recording, whether a handle is alive. Those are the
 * caller's (the validation layer reports them: VUID-vkCmdDispatch-commandBuffer-recording
 * and friends). */
spvgen_status spvgen_vk_cmd_dispatch(spvgen_vk_context *ctx, void *command_buffer,
                                     const spvgen_vk_record_desc *dispatches, uint32_t count,
                                     uint32_t flags);

/* vkBeginCommandBuffer (ONE_TIME_SUBMIT) / vkEndCommandBuffer on a caller's command
 * buffer, remembered (up to 32 command buffers per context) so that
 * spvgen_vk_cmd_dispatch can refuse one that is not recording. Optional: recording works
 * on command buffers the caller begins itself. */
spvgen_status spvgen_vk_command_buffer_begin(spvgen_vk_context *ctx, void *command_buffer);
spvgen_status spvgen_vk_command_buffer_end(spvgen_vk_context *ctx, void *command_buffer);

/* ------------------------------------------------------------------ async ---- */
typedef struct spvgen_vk_submit_desc {
  const spvgen_vk_record_desc *dispatches;
  uint32_t count;
  uint32_t flags;  /* SPVGEN_VK_RECORD_* */
  /* Optional: a VkFence of the caller's (unsignaled) that the submission signals. */
  uint64_t fence;
} spvgen_vk_submit_desc;

/* Records the dispatches into a command buffer of the context's own ring (4 deep),
 * submits them as one submission on the context's queue and returns without waiting.
 * *ticket gets the submission's number (1, 2, ...): spvgen_vk_wait(ctx, ticket) waits
 * for it; spvgen_vk_timeline gives a timeline semaphore that reaches ticket when it is
 * done (for a caller's own queue submissions to wait on). The submission begins with a
 * barrier after everything submitted before (spvgen's earlier work and the host's
 * writes) and ends with one that makes its writes visible to later work and to the host.
 * When the ring is full, the oldest submission is waited for first. Buffers and
 * pipelines in use must stay alive until the ticket completes (destroying them waits
 * for every submission in flight). */
spvgen_status spvgen_vk_submit(spvgen_vk_context *ctx, const spvgen_vk_submit_desc *desc,
                               uint64_t *ticket);
/* Waits (the context's timeout) until ticket has completed; ticket 0: everything
 * submitted. A ticket past the last one submitted is an error. */
spvgen_status spvgen_vk_wait(spvgen_vk_context *ctx, uint64_t ticket);
/* The highest ticket known to be complete (asks the device; never waits). */
uint64_t spvgen_vk_completed(spvgen_vk_context *ctx);
/* The timeline VkSemaphore (as an integer) that spvgen_vk_submit signals with each
 * ticket; 0 when the device has no timelineSemaphore (use the ticket or a fence). */
uint64_t spvgen_vk_timeline(const spvgen_vk_context *ctx);

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
