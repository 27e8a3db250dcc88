/* lib/vk/context.c — runner contexts: loading Vulkan through volk, instance and device
 * creation with every feature the device has, device selection, wrapping a caller's
 * objects, device enumeration for `spvgen devices`, and teardown. */
#include <ctype.h>
#if !defined(_WIN32) && !defined(__APPLE__)
#include <dlfcn.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <windows.h>
#else
#include <pthread.h>
#endif

#include "internal.h"

/* ------------------------------------------------------------ the loader lock ---- */
#if defined(_WIN32)
static SRWLOCK loader_mutex = SRWLOCK_INIT;
void sg_vk_loader_lock(void) { AcquireSRWLockExclusive(&loader_mutex); }
void sg_vk_loader_unlock(void) { ReleaseSRWLockExclusive(&loader_mutex); }
#else
static pthread_mutex_t loader_mutex = PTHREAD_MUTEX_INITIALIZER;
void sg_vk_loader_lock(void) { pthread_mutex_lock(&loader_mutex); }
void sg_vk_loader_unlock(void) { pthread_mutex_unlock(&loader_mutex); }
#endif

void sg_vk_load_device_fns(sg_vk_device_fns *fns, PFN_vkGetDeviceProcAddr gdpa, VkDevice device) {
  memset(fns, 0, sizeof *fns);
#define SG_VK_LOAD(name) fns->name = (PFN_##name)gdpa(device, #name);
  SG_VK_DEVICE_FUNCTIONS(SG_VK_LOAD)
#undef SG_VK_LOAD
}

/* Written once, under the loader lock; read only after a locked load_loader returned OK
 * (the lock's release orders the write before every later reader's acquire). */
static bool loader_loaded;

/* Loads libvulkan once (the caller holds the loader lock). volk's globals are written
 * only here, once, and used only for the loader-level functions (vkCreateInstance,
 * vkEnumerateInstance*); everything else goes through per-context tables. */
static spvgen_status load_loader(char *message, size_t message_size) {
  if (loader_loaded) return SPVGEN_OK;
#if !defined(_WIN32) && !defined(__APPLE__)
  /* volkInitialize calls through vkGetInstanceProcAddr without checking that the
   * library it opened has it: a libvulkan.so.1 that is not a Vulkan loader (a stub, a
   * broken install) crashed the process. Open it here and hand volk the entry point. */
  void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    sg_vk_format(message, message_size,
                     "no Vulkan loader: libvulkan.so.1 could not be loaded (%s); install a Vulkan "
                     "loader and driver", why ? why : "dlopen failed");
    return SPVGEN_ERROR_NO_DEVICE;
  }
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)(void (*)(void))dlsym(lib, "vkGetInstanceProcAddr");
  if (!gipa) {
    sg_vk_format(message, message_size,
                     "no Vulkan loader: libvulkan.so.1 could not be loaded (it has no "
                     "vkGetInstanceProcAddr: not a Vulkan loader); install a Vulkan loader and driver");
    dlclose(lib);
    return SPVGEN_ERROR_NO_DEVICE;
  }
  volkInitializeCustom(gipa); /* lib stays open for the process's life */
  VkResult r = vkCreateInstance ? VK_SUCCESS : VK_ERROR_INITIALIZATION_FAILED;
#else
  VkResult r = volkInitialize();
#endif
  if (r != VK_SUCCESS || !vkGetInstanceProcAddr || !vkCreateInstance) {
    sg_vk_format(message, message_size,
                     "no Vulkan loader: libvulkan.so.1 could not be loaded (volkInitialize: "
                     "%s); install a Vulkan loader and driver",
                     sg_vk_result_name(r));
    return SPVGEN_ERROR_NO_DEVICE;
  }
  loader_loaded = true;
  return SPVGEN_OK;
}

static bool has_instance_extension(const VkExtensionProperties *e, uint32_t n, const char *name) {
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp(e[i].extensionName, name)) return true;
  return false;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  (void)types;
  spvgen_vk_context *ctx = user;
  if (ctx && (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
    if (ctx->validation_errors++ == 0 && data && data->pMessage)
      sg_vk_format(ctx->validation_first, sizeof ctx->validation_first, "%s",
                       data->pMessage);
  }
  return VK_FALSE;
}

/* Creates an instance (Vulkan 1.3 requested; the loader must be at least 1.1). */
static spvgen_status create_instance(bool validation, VkInstance *out, bool *debug_utils,
                                     char *message, size_t message_size) {
  *out = VK_NULL_HANDLE;
  *debug_utils = false;
  spvgen_status st = load_loader(message, message_size);
  if (st != SPVGEN_OK) return st;
  uint32_t loader_version = volkGetInstanceVersion();
  if (loader_version < VK_API_VERSION_1_1) {
    sg_vk_format(message, message_size,
                     "the Vulkan loader supports only Vulkan 1.0; spvgen needs 1.1 or later");
    return SPVGEN_ERROR_NO_DEVICE;
  }

  uint32_t ne = 0;
  VkExtensionProperties *exts = NULL;
  if (vkEnumerateInstanceExtensionProperties(NULL, &ne, NULL) == VK_SUCCESS && ne) {
    exts = calloc(ne, sizeof *exts);
    if (exts && vkEnumerateInstanceExtensionProperties(NULL, &ne, exts) != VK_SUCCESS) ne = 0;
    if (!exts) ne = 0;
  }
  const char *names[4];
  uint32_t count = 0;
  VkInstanceCreateFlags flags = 0;
  if (has_instance_extension(exts, ne, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    names[count++] = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }
  if (validation && has_instance_extension(exts, ne, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
    names[count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    *debug_utils = true;
  }
  free(exts);

  const char *layer = "VK_LAYER_KHRONOS_validation";
  if (validation) {
    uint32_t nl = 0;
    bool found = false;
    if (vkEnumerateInstanceLayerProperties(&nl, NULL) == VK_SUCCESS && nl) {
      VkLayerProperties *layers = calloc(nl, sizeof *layers);
      if (layers && vkEnumerateInstanceLayerProperties(&nl, layers) == VK_SUCCESS)
        for (uint32_t i = 0; i < nl; i++)
          if (!strcmp(layers[i].layerName, layer)) found = true;
      free(layers);
    }
    if (!found) {
      sg_vk_format(message, message_size,
                       "enable_validation: the layer %s is not installed", layer);
      return SPVGEN_ERROR_UNSUPPORTED;
    }
  }

  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "spvgen", 1, "spvgen", 1,
                           VK_API_VERSION_1_3};
  VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, flags, &app,
                             validation ? 1u : 0u, validation ? &layer : NULL, count, names};
  VkResult r = vkCreateInstance(&ci, NULL, out);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED) {
    sg_vk_format(message, message_size,
                     "no Vulkan driver: vkCreateInstance failed: %s (%d); no installable "
                     "client driver (ICD) was found or none loaded",
                     sg_vk_result_name(r), (int)r);
    *out = VK_NULL_HANDLE;
    return SPVGEN_ERROR_NO_DEVICE;
  }
  if (r != VK_SUCCESS) {
    sg_vk_format(message, message_size, "vkCreateInstance failed: %s (%d)",
                     sg_vk_result_name(r), (int)r);
    *out = VK_NULL_HANDLE;
    return SPVGEN_ERROR_VULKAN;
  }
  return SPVGEN_OK;
}

/* The physical devices of an instance (malloc'd, *count of them). */
static spvgen_status list_physical_devices(const sg_vk_instance_fns *fns, VkInstance inst,
                                           VkPhysicalDevice **out, uint32_t *count,
                                           char *message, size_t message_size) {
  *out = NULL;
  *count = 0;
  uint32_t n = 0;
  VkResult r = fns->EnumeratePhysicalDevices(inst, &n, NULL);
  if (r == VK_ERROR_INITIALIZATION_FAILED) {
    sg_vk_format(message, message_size,
                     "no Vulkan device: vkEnumeratePhysicalDevices failed: %s (%d)",
                     sg_vk_result_name(r), (int)r);
    return SPVGEN_ERROR_NO_DEVICE;
  }
  if (r != VK_SUCCESS) {
    sg_vk_format(message, message_size, "vkEnumeratePhysicalDevices failed: %s (%d)",
                     sg_vk_result_name(r), (int)r);
    return SPVGEN_ERROR_VULKAN;
  }
  if (n == 0) return SPVGEN_OK;
  VkPhysicalDevice *pds = calloc(n, sizeof *pds);
  if (!pds) {
    sg_vk_format(message, message_size, "out of memory listing devices");
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  r = fns->EnumeratePhysicalDevices(inst, &n, pds);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
    free(pds);
    sg_vk_format(message, message_size, "vkEnumeratePhysicalDevices failed: %s (%d)",
                     sg_vk_result_name(r), (int)r);
    return SPVGEN_ERROR_VULKAN;
  }
  *out = pds;
  *count = n;
  return SPVGEN_OK;
}

static bool name_contains(const char *name, const char *part) {
  size_t n = strlen(name), m = strlen(part);
  if (m == 0) return true;
  for (size_t i = 0; i + m <= n; i++) {
    size_t j = 0;
    while (j < m && tolower((unsigned char)name[i + j]) == tolower((unsigned char)part[j])) j++;
    if (j == m) return true;
  }
  return false;
}

static int type_rank(spvgen_device_type t) {
  switch (t) {
  case SPVGEN_DEVICE_DISCRETE_GPU: return 0;
  case SPVGEN_DEVICE_INTEGRATED_GPU: return 1;
  case SPVGEN_DEVICE_VIRTUAL_GPU: return 2;
  case SPVGEN_DEVICE_CPU: return 3;
  default: return 4;
  }
}

static bool usable(const sg_vk_device_info *d) {
  return d->api_version >= VK_API_VERSION_1_1 && d->queue_family != UINT32_MAX;
}

/* Features that make no sense without another one. */
static uint64_t close_dependencies(uint64_t f) {
  if (!(f & SPVGEN_FEATURE_COOPMAT))
    f &= ~(SPVGEN_FEATURE_COOPMAT_ROBUST_BUFFER_ACCESS | SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE |
           SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS | SPVGEN_FEATURE_COOPMAT2_REDUCTIONS |
           SPVGEN_FEATURE_COOPMAT2_CONVERSIONS | SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS |
           SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING | SPVGEN_FEATURE_COOPMAT2_BLOCK_LOADS |
           SPVGEN_FEATURE_BFLOAT16_COOPMAT | SPVGEN_FEATURE_FLOAT8_COOPMAT);
  if (!(f & SPVGEN_FEATURE_COOPVEC)) f &= ~SPVGEN_FEATURE_COOPVEC_TRAINING;
  if (!(f & SPVGEN_FEATURE_BFLOAT16))
    f &= ~(SPVGEN_FEATURE_BFLOAT16_DOT_PRODUCT | SPVGEN_FEATURE_BFLOAT16_COOPMAT);
  if (!(f & SPVGEN_FEATURE_FLOAT8)) f &= ~SPVGEN_FEATURE_FLOAT8_COOPMAT;
  if (!(f & SPVGEN_FEATURE_VULKAN_MEMORY_MODEL))
    f &= ~SPVGEN_FEATURE_VULKAN_MEMORY_MODEL_DEVICE_SCOPE;
  return f;
}

/* Caps as the context sees them: only enabled features, and lists only where usable. */
static void restrict_caps(spvgen_device_caps *caps, uint64_t enabled) {
  caps->features &= enabled;
  if (!(caps->features & SPVGEN_FEATURE_COOPMAT)) caps->coopmat_count = 0;
  if (!(caps->features & SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS)) caps->coopmat_flex_count = 0;
  if (!(caps->features & SPVGEN_FEATURE_COOPVEC)) caps->coopvec_count = 0;
}

/* Device-level objects every context has: function table, command pool and buffer,
 * fence, pipeline cache. */
static spvgen_status setup_device_objects(spvgen_vk_context *ctx, const char *who,
                                          const void *cache_data, size_t cache_size,
                                          bool disk_cache, const char *cache_dir) {
  /* Through this instance's vkGetDeviceProcAddr, never volk's global one. The lookups
   * walk the loader's global lists: under the loader lock (sg_vk_loader_lock). */
  sg_vk_loader_lock();
  sg_vk_load_device_fns(&ctx->vkd, ctx->vki.GetDeviceProcAddr, ctx->device);
  /* Not in volk 1.4.304's tables: load them here, whatever volk's version. */
  ctx->ConvertCooperativeVectorMatrixNV = (PFN_vkConvertCooperativeVectorMatrixNV)
      ctx->vki.GetDeviceProcAddr(ctx->device, "vkConvertCooperativeVectorMatrixNV");
  ctx->CmdConvertCooperativeVectorMatrixNV = (PFN_vkCmdConvertCooperativeVectorMatrixNV)
      ctx->vki.GetDeviceProcAddr(ctx->device, "vkCmdConvertCooperativeVectorMatrixNV");
  /* Loaded here too (not from volk's table) so that the check for them is one place. */
  if (ctx->pipeline_statistics) {
    ctx->GetPipelineExecutablePropertiesKHR = (PFN_vkGetPipelineExecutablePropertiesKHR)
        ctx->vki.GetDeviceProcAddr(ctx->device, "vkGetPipelineExecutablePropertiesKHR");
    ctx->GetPipelineExecutableStatisticsKHR = (PFN_vkGetPipelineExecutableStatisticsKHR)
        ctx->vki.GetDeviceProcAddr(ctx->device, "vkGetPipelineExecutableStatisticsKHR");
    ctx->pipeline_statistics =
        ctx->GetPipelineExecutablePropertiesKHR && ctx->GetPipelineExecutableStatisticsKHR;
  }
  sg_vk_loader_unlock();
  ctx->push_descriptors = ctx->push_descriptors && ctx->vkd.vkCmdPushDescriptorSetKHR;
  ctx->timeline_semaphores = ctx->timeline_semaphores && ctx->vkd.vkCreateSemaphore;
  ctx->idle_capacity = 256;
  if (!ctx->vkd.vkCreateCommandPool || !ctx->vkd.vkQueueSubmit || !ctx->vkd.vkCreateComputePipelines)
    return sg_vk_fail(ctx, SPVGEN_ERROR_VULKAN,
                          "%s: vkGetDeviceProcAddr returned no core device functions", who);

  ctx->vki.GetPhysicalDeviceMemoryProperties(ctx->physical_device, &ctx->memory);

  VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                 VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, ctx->queue_family};
  VkResult r = ctx->vkd.vkCreateCommandPool(ctx->device, &pci, NULL, &ctx->command_pool);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkCreateCommandPool", r);
  VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL,
                                     ctx->command_pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  r = ctx->vkd.vkAllocateCommandBuffers(ctx->device, &cai, &ctx->cmd);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkAllocateCommandBuffers", r);
  VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
  r = ctx->vkd.vkCreateFence(ctx->device, &fci, NULL, &ctx->fence);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkCreateFence", r);
  /* The disk cache's contents, then the caller's on top (merged). */
  size_t disk_size = 0;
  void *disk = disk_cache ? sg_vk_disk_cache_read(ctx, cache_dir, &disk_size) : NULL;
  VkPipelineCacheCreateInfo cci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, NULL, 0,
                                   disk_size, disk};
  r = ctx->vkd.vkCreatePipelineCache(ctx->device, &cci, NULL, &ctx->pipeline_cache);
  if (r != VK_SUCCESS && disk) {
    /* A cache the driver rejects is no reason to fail: start empty. */
    sg_vk_format(ctx->cache_notice, sizeof ctx->cache_notice,
                 "%s: the driver refused it (vkCreatePipelineCache: %s); starting empty",
                 ctx->cache_path, sg_vk_result_name(r));
    ctx->stats.disk_bytes_read = 0;
    cci.initialDataSize = 0;
    cci.pInitialData = NULL;
    r = ctx->vkd.vkCreatePipelineCache(ctx->device, &cci, NULL, &ctx->pipeline_cache);
  }
  free(disk);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkCreatePipelineCache", r);
  if (cache_data && cache_size) {
    VkPipelineCacheCreateInfo uci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, NULL, 0,
                                     cache_size, cache_data};
    VkPipelineCache given = VK_NULL_HANDLE;
    /* A cache the driver rejects is no reason to fail: ignored. */
    if (ctx->vkd.vkCreatePipelineCache(ctx->device, &uci, NULL, &given) == VK_SUCCESS) {
      if (ctx->vkd.vkMergePipelineCaches)
        ctx->vkd.vkMergePipelineCaches(ctx->device, ctx->pipeline_cache, 1, &given);
      ctx->vkd.vkDestroyPipelineCache(ctx->device, given, NULL);
    }
  }
  return SPVGEN_OK;
}

/* The disk cache is on unless the desc or SPVGEN_PIPELINE_CACHE=off says otherwise. */
static bool disk_cache_wanted(bool no_disk_cache) {
  if (no_disk_cache) return false;
  const char *env = getenv("SPVGEN_PIPELINE_CACHE");
  return !(env && (!strcmp(env, "off") || !strcmp(env, "0") || !strcmp(env, "none")));
}

static void copy_message(char *message, size_t message_size, const char *text) {
  if (message && message_size) sg_vk_format(message, message_size, "%s", text);
}

/* spvgen_vk_create's steps. Each returns SPVGEN_OK or a status with the reason in msg
 * (the caller prefixes "spvgen_vk_create: "). */

/* The instance, its functions, and the validation messenger when validation is on. */
static spvgen_status open_instance(spvgen_vk_context *ctx, const spvgen_vk_desc *desc, char *msg,
                                   size_t msg_size) {
  bool debug_utils = false;
  spvgen_status st = create_instance(desc->enable_validation, &ctx->instance, &debug_utils, msg,
                                     msg_size);
  if (st != SPVGEN_OK) return st;
  if (!sg_vk_load_instance_fns(&ctx->vki, vkGetInstanceProcAddr, ctx->instance)) {
    sg_vk_format(msg, msg_size, "vkGetInstanceProcAddr returned no core instance functions");
    return SPVGEN_ERROR_VULKAN;
  }
  if (debug_utils && ctx->vki.CreateDebugUtilsMessengerEXT) {
    VkDebugUtilsMessengerCreateInfoEXT mci;
    memset(&mci, 0, sizeof mci);
    mci.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    mci.pfnUserCallback = on_validation_message;
    mci.pUserData = ctx;
    VkResult mr = ctx->vki.CreateDebugUtilsMessengerEXT(ctx->instance, &mci, NULL, &ctx->messenger);
    if (mr != VK_SUCCESS) {
      /* Validation asked for but its messages would go nowhere: an error, not a quiet run. */
      ctx->messenger = VK_NULL_HANDLE;
      sg_vk_format(msg, msg_size, "vkCreateDebugUtilsMessengerEXT failed: %s (%d)",
                       sg_vk_result_name(mr), (int)mr);
      return SPVGEN_ERROR_VULKAN;
    }
  }
  return SPVGEN_OK;
}

/* Every physical device with what it offers (*pds and *infos: the caller frees them). */
static spvgen_status query_devices(spvgen_vk_context *ctx, VkPhysicalDevice **pds,
                                   sg_vk_device_info **infos, uint32_t *count, char *msg,
                                   size_t msg_size) {
  uint32_t n = 0;
  spvgen_status st = list_physical_devices(&ctx->vki, ctx->instance, pds, &n, msg, msg_size);
  if (st != SPVGEN_OK) return st;
  if (n == 0) {
    sg_vk_format(msg, msg_size, "no Vulkan device: the loader lists no physical device");
    return SPVGEN_ERROR_NO_DEVICE;
  }
  *infos = calloc(n, sizeof **infos);
  if (!*infos) {
    sg_vk_format(msg, msg_size, "out of memory");
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  for (uint32_t i = 0; i < n; i++) {
    st = sg_vk_query_device(&ctx->vki, (*pds)[i], i, &(*infos)[i], msg, msg_size);
    if (st != SPVGEN_OK) return st;
  }
  *count = n;
  return SPVGEN_OK;
}

/* The device desc asks for: by name, by index, else the usable one of the best type. */
static spvgen_status pick_device(const spvgen_vk_desc *desc, const sg_vk_device_info *infos,
                                 uint32_t n, uint32_t *picked, char *msg, size_t msg_size) {
  uint32_t pick = UINT32_MAX;
  if (desc->device_name) {
    for (uint32_t i = 0; i < n && pick == UINT32_MAX; i++)
      if (name_contains(infos[i].caps.name, desc->device_name)) pick = i;
    if (pick == UINT32_MAX) {
      int len = snprintf(msg, msg_size, "no Vulkan device name contains '%s'; devices:",
                         desc->device_name);
      for (uint32_t i = 0; i < n && len > 0 && (size_t)len < msg_size; i++)
        len += snprintf(msg + len, msg_size - (size_t)len, "%s [%u] %s", i ? "," : "", i,
                        infos[i].caps.name);
      return SPVGEN_ERROR_NO_DEVICE;
    }
  } else if (desc->use_device_index) {
    if (desc->device_index >= n) {
      sg_vk_format(msg, msg_size, "device_index %u is out of range: %u device%s",
                       desc->device_index, n, n == 1 ? "" : "s");
      return SPVGEN_ERROR_NO_DEVICE;
    }
    pick = desc->device_index;
  } else {
    for (uint32_t i = 0; i < n; i++)
      if (usable(&infos[i]) &&
          (pick == UINT32_MAX || type_rank(infos[i].caps.type) < type_rank(infos[pick].caps.type)))
        pick = i;
    if (pick == UINT32_MAX) pick = 0; /* reported as unusable below */
  }
  *picked = pick;
  return SPVGEN_OK;
}

/* The picked device can run spvgen and has what desc requires; *enabled: the features to
 * enable (what it has, less desc's disabled ones, closed over their dependencies). */
static spvgen_status check_device(const spvgen_vk_desc *desc, const sg_vk_device_info *dev,
                                  uint64_t *enabled, char *msg, size_t msg_size) {
  if (dev->api_version < VK_API_VERSION_1_1) {
    sg_vk_format(msg, msg_size, "device '%s' supports Vulkan %u.%u; spvgen needs 1.1",
                     dev->caps.name, VK_API_VERSION_MAJOR(dev->api_version),
                     VK_API_VERSION_MINOR(dev->api_version));
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  if (dev->queue_family == UINT32_MAX) {
    sg_vk_format(msg, msg_size, "device '%s' has no queue family with compute",
                     dev->caps.name);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  uint64_t missing = desc->required_features & ~dev->caps.features;
  if (missing) {
    uint64_t first = spvgen_feature_first(missing);
    sg_vk_format(msg, msg_size,
                     "device '%s' lacks the required feature %s (%s)%s", dev->caps.name,
                     spvgen_feature_name(first), spvgen_feature_source(first),
                     (missing & ~first) ? " and others" : "");
    return SPVGEN_ERROR_MISSING_FEATURE;
  }
  *enabled = close_dependencies(dev->caps.features & ~desc->disabled_features);
  missing = desc->required_features & ~*enabled;
  if (missing) {
    uint64_t first = spvgen_feature_first(missing);
    sg_vk_format(msg, msg_size,
                     "required feature %s cannot be enabled: a feature it depends on is in "
                     "disabled_features",
                     spvgen_feature_name(first));
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  return SPVGEN_OK;
}

/* The VkDevice with the enabled features and the picked extensions. */
static spvgen_status create_device(spvgen_vk_context *ctx, VkPhysicalDevice pd,
                                   sg_vk_device_info *dev, uint64_t enabled, char *msg,
                                   size_t msg_size) {
  ctx->physical_device = pd;
  ctx->queue_family = dev->queue_family;
  ctx->caps = dev->caps;
  restrict_caps(&ctx->caps, enabled);
  sg_vk_features_restrict(&dev->features, enabled);
  sg_vk_features_link(&dev->features);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0,
                                 dev->queue_family, 1, &priority};
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &dev->features.f2, 0, 1, &qci,
                            0, NULL, dev->extension_count, dev->extensions, NULL};
  VkResult r = ctx->vki.CreateDevice(ctx->physical_device, &dci, NULL, &ctx->device);
  if (r != VK_SUCCESS) {
    ctx->device = VK_NULL_HANDLE;
    sg_vk_format(msg, msg_size, "vkCreateDevice failed on '%s': %s (%d)", dev->caps.name,
                     sg_vk_result_name(r), (int)r);
    return SPVGEN_ERROR_VULKAN;
  }
  ctx->pipeline_statistics = dev->pipeline_executable_info;
  ctx->push_descriptors = dev->push_descriptor;
  ctx->timeline_semaphores = dev->timeline_semaphore;
  ctx->cache_control = dev->cache_control;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_create(const spvgen_vk_desc *desc_in, spvgen_vk_context **out,
                               char *message, size_t message_size) {
  static const char *who = "spvgen_vk_create";
  if (message && message_size) message[0] = 0;
  if (!out) {
    sg_vk_format(message, message_size, "%s: out is NULL", who);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  *out = NULL;
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  if (desc_in) desc = *desc_in;
  if (desc.required_features & desc.disabled_features) {
    uint64_t both = spvgen_feature_first(desc.required_features & desc.disabled_features);
    sg_vk_format(message, message_size, "%s: feature %s is both required and disabled",
                     who, spvgen_feature_name(both));
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  if (desc.pipeline_cache_size && !desc.pipeline_cache_data) {
    sg_vk_format(message, message_size,
                     "%s: pipeline_cache_size is %zu but pipeline_cache_data is NULL", who,
                     desc.pipeline_cache_size);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }

  spvgen_vk_context *ctx = calloc(1, sizeof *ctx);
  sg_vk_device_info *infos = NULL;
  VkPhysicalDevice *pds = NULL;
  if (!ctx) {
    sg_vk_format(message, message_size, "%s: out of memory", who);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  ctx->timeout_ms = desc.timeout_ms ? desc.timeout_ms : 60000;
  char msg[1024] = "";
  uint32_t n = 0, pick = 0;
  uint64_t enabled = 0;
  sg_vk_loader_lock(); /* instance, device and their functions: loader-level calls */
  spvgen_status st = open_instance(ctx, &desc, msg, sizeof msg);
  if (st == SPVGEN_OK) st = query_devices(ctx, &pds, &infos, &n, msg, sizeof msg);
  if (st == SPVGEN_OK) st = pick_device(&desc, infos, n, &pick, msg, sizeof msg);
  if (st == SPVGEN_OK) st = check_device(&desc, &infos[pick], &enabled, msg, sizeof msg);
  if (st == SPVGEN_OK) st = create_device(ctx, pds[pick], &infos[pick], enabled, msg, sizeof msg);
  free(infos);
  free(pds);
  PFN_vkGetDeviceQueue get_queue = NULL;
  if (st == SPVGEN_OK) {
    get_queue = (PFN_vkGetDeviceQueue)ctx->vki.GetDeviceProcAddr(ctx->device, "vkGetDeviceQueue");
    if (!get_queue) {
      sg_vk_format(msg, sizeof msg, "vkGetDeviceProcAddr returned no vkGetDeviceQueue");
      st = SPVGEN_ERROR_VULKAN;
    }
  }
  sg_vk_loader_unlock();
  if (st != SPVGEN_OK) {
    if (message && message_size) sg_vk_format(message, message_size, "%s: %s", who, msg);
    spvgen_vk_destroy(ctx);
    return st;
  }
  get_queue(ctx->device, ctx->queue_family, 0, &ctx->queue);
  ctx->no_reuse = desc.no_pipeline_reuse;
  st = setup_device_objects(ctx, who, desc.pipeline_cache_data, desc.pipeline_cache_size,
                            disk_cache_wanted(desc.no_disk_cache), desc.cache_dir);
  if (st != SPVGEN_OK) {
    copy_message(message, message_size, ctx->error);
    spvgen_vk_destroy(ctx);
    return st;
  }
  *out = ctx;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_wrap(const spvgen_vk_wrap_desc *desc, spvgen_vk_context **out,
                             char *message, size_t message_size) {
  static const char *who = "spvgen_vk_wrap";
  if (message && message_size) message[0] = 0;
  if (!out || !desc) {
    sg_vk_format(message, message_size, "%s: %s is NULL", who, out ? "desc" : "out");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  *out = NULL;
  const char *null_handle = !desc->instance          ? "instance"
                            : !desc->physical_device ? "physical_device"
                            : !desc->device          ? "device"
                            : !desc->queue           ? "queue"
                                                     : NULL;
  if (null_handle) {
    sg_vk_format(message, message_size, "%s: desc->%s is NULL", who, null_handle);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)desc->get_instance_proc_addr;
  char msg[1024] = "";
  if (!gipa) {
    sg_vk_loader_lock();
    spvgen_status st = load_loader(msg, sizeof msg);
    sg_vk_loader_unlock();
    if (st != SPVGEN_OK) {
      sg_vk_format(message, message_size, "%s: %s", who, msg);
      return st;
    }
    gipa = vkGetInstanceProcAddr;
  }
  spvgen_vk_context *ctx = calloc(1, sizeof *ctx);
  sg_vk_device_info *info = calloc(1, sizeof *info);
  if (!ctx || !info) {
    free(ctx);
    free(info);
    sg_vk_format(message, message_size, "%s: out of memory", who);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  ctx->wrapped = true;
  ctx->timeout_ms = desc->timeout_ms ? desc->timeout_ms : 60000;
  ctx->instance = (VkInstance)desc->instance;
  ctx->physical_device = (VkPhysicalDevice)desc->physical_device;
  ctx->device = (VkDevice)desc->device;
  ctx->queue = (VkQueue)desc->queue;
  ctx->queue_family = desc->queue_family_index;
  spvgen_status st = SPVGEN_OK;
  sg_vk_loader_lock();
  if (!sg_vk_load_instance_fns(&ctx->vki, gipa, ctx->instance)) {
    sg_vk_loader_unlock();
    sg_vk_format(msg, sizeof msg, "vkGetInstanceProcAddr returned no core instance functions");
    st = SPVGEN_ERROR_VULKAN;
    goto fail;
  }
  /* The device's position in the instance's list, for caps.device_index. */
  uint32_t index = 0, n = 0;
  VkPhysicalDevice *pds = NULL;
  if (list_physical_devices(&ctx->vki, ctx->instance, &pds, &n, msg, sizeof msg) == SPVGEN_OK)
    for (uint32_t i = 0; i < n; i++)
      if (pds[i] == ctx->physical_device) index = i;
  free(pds);
  msg[0] = 0;
  st = sg_vk_query_device(&ctx->vki, ctx->physical_device, index, info, msg, sizeof msg);
  sg_vk_loader_unlock();
  if (st != SPVGEN_OK) goto fail;
  if (info->api_version < VK_API_VERSION_1_1) {
    sg_vk_format(msg, sizeof msg, "device '%s' supports Vulkan 1.0; spvgen needs 1.1",
                     info->caps.name);
    st = SPVGEN_ERROR_UNSUPPORTED;
    goto fail;
  }
  uint32_t nq = 0;
  ctx->vki.GetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &nq, NULL);
  VkQueueFamilyProperties *qf = nq ? calloc(nq, sizeof *qf) : NULL;
  if (qf) ctx->vki.GetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &nq, qf);
  bool compute = qf && desc->queue_family_index < nq &&
                 (qf[desc->queue_family_index].queueFlags & VK_QUEUE_COMPUTE_BIT);
  uint32_t ts_bits = compute ? qf[desc->queue_family_index].timestampValidBits : 0;
  free(qf);
  if (!compute) {
    sg_vk_format(msg, sizeof msg,
                     "queue_family_index %u is not a queue family with compute on '%s'",
                     desc->queue_family_index, info->caps.name);
    st = SPVGEN_ERROR_INVALID_ARGUMENT;
    goto fail;
  }
  ctx->caps = info->caps;
  ctx->caps.timestamp_valid_bits = ts_bits;
  ctx->caps.features &= ~SPVGEN_FEATURE_TIMESTAMPS;
  if (ts_bits) ctx->caps.features |= SPVGEN_FEATURE_TIMESTAMPS;
  uint64_t enabled = desc->enabled_features;
  if (desc->device_create_info) {
    /* The truth: what the device was created with. */
    sg_vk_enabled *en = malloc(sizeof *en);
    if (!en) {
      sg_vk_format(msg, sizeof msg, "out of memory");
      st = SPVGEN_ERROR_OUT_OF_MEMORY;
      goto fail;
    }
    if (!sg_vk_read_enabled_chain(desc->device_create_info, en, msg, sizeof msg)) {
      free(en);
      st = SPVGEN_ERROR_INVALID_ARGUMENT;
      goto fail;
    }
    enabled = en->mask;
    ctx->push_descriptors = en->push_descriptor;
    ctx->timeline_semaphores = en->timeline;
    ctx->cache_control = en->cache_control;
    free(en);
  }
  restrict_caps(&ctx->caps, close_dependencies(enabled | SPVGEN_FEATURE_TIMESTAMPS));
  free(info);
  info = NULL;
  ctx->no_reuse = desc->no_pipeline_reuse;
  st = setup_device_objects(ctx, who, NULL, 0, disk_cache_wanted(desc->no_disk_cache), desc->cache_dir);
  if (st != SPVGEN_OK) {
    copy_message(message, message_size, ctx->error);
    spvgen_vk_destroy(ctx);
    return st;
  }
  *out = ctx;
  return SPVGEN_OK;
fail:
  sg_vk_format(message, message_size, "%s: %s", who, msg);
  free(info);
  spvgen_vk_destroy(ctx);
  return st;
}

void spvgen_vk_destroy(spvgen_vk_context *ctx) {
  if (!ctx) return;
  sg_vk_compiles_cancel(ctx); /* first: their threads use the device and the pipeline cache */
  if (ctx->device && ctx->vkd.vkDeviceWaitIdle) {
    /* Every call waits for its own submission, so only a timed-out one can be pending.
     * A wrapped device may be busy with the caller's work on other queues: wait for
     * ours only. */
    sg_vk_settle(ctx);
    if (!ctx->wrapped) ctx->vkd.vkDeviceWaitIdle(ctx->device);
    if (ctx->pipeline_cache && !ctx->lost) sg_vk_disk_cache_write(ctx, "spvgen_vk_destroy");
    while (ctx->pipelines) spvgen_vk_pipeline_destroy(ctx->pipelines);
    sg_vk_programs_destroy(ctx);
    while (ctx->buffers) spvgen_vk_buffer_destroy(ctx->buffers);
    sg_vk_buffer_free(ctx->staging);
    ctx->staging = NULL;
    sg_vk_frames_destroy(ctx);
    if (ctx->query_pool) ctx->vkd.vkDestroyQueryPool(ctx->device, ctx->query_pool, NULL);
    sg_vk_pool_destroy(ctx, &ctx->descriptors);
    if (ctx->pipeline_cache) ctx->vkd.vkDestroyPipelineCache(ctx->device, ctx->pipeline_cache, NULL);
    if (ctx->fence) ctx->vkd.vkDestroyFence(ctx->device, ctx->fence, NULL);
    if (ctx->command_pool) ctx->vkd.vkDestroyCommandPool(ctx->device, ctx->command_pool, NULL);
  }
  if (!ctx->wrapped) {
    sg_vk_loader_lock(); /* the loader unlinks the device and instance from its lists */
    if (ctx->device && ctx->vkd.vkDestroyDevice) ctx->vkd.vkDestroyDevice(ctx->device, NULL);
    else if (ctx->device && ctx->vki.GetDeviceProcAddr) {
      PFN_vkDestroyDevice destroy_device =
          (PFN_vkDestroyDevice)ctx->vki.GetDeviceProcAddr(ctx->device, "vkDestroyDevice");
      if (destroy_device) destroy_device(ctx->device, NULL);
    }
    if (ctx->messenger && ctx->vki.DestroyDebugUtilsMessengerEXT)
      ctx->vki.DestroyDebugUtilsMessengerEXT(ctx->instance, ctx->messenger, NULL);
    if (ctx->instance && ctx->vki.DestroyInstance) ctx->vki.DestroyInstance(ctx->instance, NULL);
    else if (ctx->instance && vkGetInstanceProcAddr) {
      PFN_vkDestroyInstance destroy_instance =
          (PFN_vkDestroyInstance)vkGetInstanceProcAddr(ctx->instance, "vkDestroyInstance");
      if (destroy_instance) destroy_instance(ctx->instance, NULL);
    }
    sg_vk_loader_unlock();
  }
  free(ctx);
}

const spvgen_device_caps *spvgen_vk_caps(const spvgen_vk_context *ctx) {
  return ctx ? &ctx->caps : NULL;
}

uint32_t spvgen_vk_validation_errors(const spvgen_vk_context *ctx, const char **first) {
  if (first) *first = ctx ? ctx->validation_first : "";
  return ctx ? ctx->validation_errors : 0;
}

void spvgen_vk_get_handles(const spvgen_vk_context *ctx, spvgen_vk_handles *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!ctx) return;
  out->instance = ctx->instance;
  out->physical_device = ctx->physical_device;
  out->device = ctx->device;
  out->queue = ctx->queue;
  out->queue_family_index = ctx->queue_family;
}

spvgen_status spvgen_device_caps_from_vk(spvgen_vk_proc get_instance_proc_addr, void *instance,
                                         void *physical_device, const void *enabled_chain,
                                         uint32_t queue_family_index, spvgen_device_caps *out,
                                         char *message, size_t message_size) {
  static const char *who = "spvgen_device_caps_from_vk";
  if (message && message_size) message[0] = 0;
  if (!out || !instance || !physical_device) {
    sg_vk_format(message, message_size, "%s: %s is NULL", who,
                 !out ? "out" : !instance ? "instance" : "physical_device");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  char msg[1024] = "";
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)get_instance_proc_addr;
  sg_vk_loader_lock();
  spvgen_status st = SPVGEN_OK;
  if (!gipa) {
    st = load_loader(msg, sizeof msg);
    gipa = vkGetInstanceProcAddr;
  }
  sg_vk_instance_fns fns;
  sg_vk_device_info *info = malloc(sizeof *info);
  sg_vk_enabled *en = malloc(sizeof *en);
  if (st == SPVGEN_OK && (!info || !en)) {
    sg_vk_format(msg, sizeof msg, "out of memory");
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  if (st == SPVGEN_OK && !sg_vk_load_instance_fns(&fns, gipa, (VkInstance)instance)) {
    sg_vk_format(msg, sizeof msg, "vkGetInstanceProcAddr returned no core instance functions");
    st = SPVGEN_ERROR_VULKAN;
  }
  if (st == SPVGEN_OK) {
    uint32_t index = 0, n = 0;
    VkPhysicalDevice *pds = NULL;
    if (list_physical_devices(&fns, (VkInstance)instance, &pds, &n, msg, sizeof msg) == SPVGEN_OK)
      for (uint32_t i = 0; i < n; i++)
        if (pds[i] == (VkPhysicalDevice)physical_device) index = i;
    free(pds);
    msg[0] = 0;
    st = sg_vk_query_device(&fns, (VkPhysicalDevice)physical_device, index, info, msg, sizeof msg);
  }
  sg_vk_loader_unlock();
  if (st == SPVGEN_OK && enabled_chain && !sg_vk_read_enabled_chain(enabled_chain, en, msg, sizeof msg))
    st = SPVGEN_ERROR_INVALID_ARGUMENT;
  /* No chain: everything the device supports (to plan before creating the device). */
  if (st == SPVGEN_OK && !enabled_chain) en->mask = info->caps.features;
  if (st == SPVGEN_OK) {
    *out = info->caps;
    /* Timestamps: of the queue family the caller will use. */
    uint32_t nq = 0;
    fns.GetPhysicalDeviceQueueFamilyProperties((VkPhysicalDevice)physical_device, &nq, NULL);
    VkQueueFamilyProperties *qf = nq ? calloc(nq, sizeof *qf) : NULL;
    uint32_t bits = 0;
    if (qf) {
      fns.GetPhysicalDeviceQueueFamilyProperties((VkPhysicalDevice)physical_device, &nq, qf);
      for (uint32_t i = 0; i < nq; i++) {
        bool pick = queue_family_index == UINT32_MAX ? (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0
                                                      : i == queue_family_index;
        if (pick) {
          bits = qf[i].timestampValidBits;
          break;
        }
      }
    }
    free(qf);
    out->timestamp_valid_bits = bits;
    out->features &= ~SPVGEN_FEATURE_TIMESTAMPS;
    if (bits) out->features |= SPVGEN_FEATURE_TIMESTAMPS;
    restrict_caps(out, close_dependencies(en->mask | SPVGEN_FEATURE_TIMESTAMPS));
  }
  free(info);
  free(en);
  if (st != SPVGEN_OK) sg_vk_format(message, message_size, "%s: %s", who, msg);
  return st;
}

static spvgen_status enumerate_locked(spvgen_device_caps *out, uint32_t max, uint32_t *count,
                                      char *msg, size_t msg_size);

spvgen_status spvgen_vk_enumerate(spvgen_device_caps *out, uint32_t max, uint32_t *count,
                                  char *message, size_t message_size) {
  static const char *who = "spvgen_vk_enumerate";
  if (message && message_size) message[0] = 0;
  if (count) *count = 0;
  if (!count || (max && !out)) {
    sg_vk_format(message, message_size, "%s: %s is NULL", who, count ? "out" : "count");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  char msg[1024] = "";
  sg_vk_loader_lock();
  spvgen_status st = enumerate_locked(out, max, count, msg, sizeof msg);
  sg_vk_loader_unlock();
  if (st != SPVGEN_OK) sg_vk_format(message, message_size, "%s: %s", who, msg);
  return st;
}

/* spvgen_vk_enumerate's work, under the loader lock; the reason in msg. */
static spvgen_status enumerate_locked(spvgen_device_caps *out, uint32_t max, uint32_t *count,
                                      char *msg, size_t msg_size) {
  VkInstance inst = VK_NULL_HANDLE;
  bool debug_utils;
  spvgen_status st = create_instance(false, &inst, &debug_utils, msg, msg_size);
  if (st != SPVGEN_OK) return st;
  sg_vk_instance_fns fns;
  VkPhysicalDevice *pds = NULL;
  uint32_t n = 0;
  if (!sg_vk_load_instance_fns(&fns, vkGetInstanceProcAddr, inst)) {
    sg_vk_format(msg, msg_size, "vkGetInstanceProcAddr returned no core instance functions");
    PFN_vkDestroyInstance destroy_instance =
        (PFN_vkDestroyInstance)vkGetInstanceProcAddr(inst, "vkDestroyInstance");
    if (destroy_instance) destroy_instance(inst, NULL);
    return SPVGEN_ERROR_VULKAN;
  }
  st = list_physical_devices(&fns, inst, &pds, &n, msg, msg_size);
  sg_vk_device_info *info = n ? malloc(sizeof *info) : NULL;
  if (st == SPVGEN_OK && n && !info) {
    sg_vk_format(msg, msg_size, "out of memory");
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  if (st == SPVGEN_OK) {
    *count = n;
    for (uint32_t i = 0; i < n && i < max && st == SPVGEN_OK; i++) {
      st = sg_vk_query_device(&fns, pds[i], i, info, msg, msg_size);
      if (st == SPVGEN_OK) out[i] = info->caps;
    }
  }
  free(info);
  free(pds);
  fns.DestroyInstance(inst, NULL);
  return st;
}
