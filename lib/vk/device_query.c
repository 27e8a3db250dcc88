/* lib/vk/device_query.c — what one physical device offers, as spvgen_device_caps: the
 * feature structs (vkGetPhysicalDeviceFeatures2), properties and limits
 * (vkGetPhysicalDeviceProperties2), the cooperative matrix / flexible dimensions /
 * cooperative vector lists, memory heaps and the queue family the runner will use. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

bool sg_vk_load_instance_fns(sg_vk_instance_fns *fns, PFN_vkGetInstanceProcAddr gipa,
                                 VkInstance instance) {
  memset(fns, 0, sizeof *fns);
  fns->GetInstanceProcAddr = gipa;
#define LOAD(field, name) fns->field = (PFN_##name)gipa(instance, #name)
  LOAD(DestroyInstance, vkDestroyInstance);
  LOAD(EnumeratePhysicalDevices, vkEnumeratePhysicalDevices);
  LOAD(GetPhysicalDeviceProperties, vkGetPhysicalDeviceProperties);
  LOAD(GetPhysicalDeviceProperties2, vkGetPhysicalDeviceProperties2);
  LOAD(GetPhysicalDeviceFeatures2, vkGetPhysicalDeviceFeatures2);
  LOAD(GetPhysicalDeviceQueueFamilyProperties, vkGetPhysicalDeviceQueueFamilyProperties);
  LOAD(GetPhysicalDeviceMemoryProperties, vkGetPhysicalDeviceMemoryProperties);
  LOAD(EnumerateDeviceExtensionProperties, vkEnumerateDeviceExtensionProperties);
  LOAD(CreateDevice, vkCreateDevice);
  LOAD(GetDeviceProcAddr, vkGetDeviceProcAddr);
  LOAD(CreateDebugUtilsMessengerEXT, vkCreateDebugUtilsMessengerEXT);
  LOAD(DestroyDebugUtilsMessengerEXT, vkDestroyDebugUtilsMessengerEXT);
#undef LOAD
  /* Device-extension queries: the loader hands out trampolines for physical-device
   * functions it does not know, so these resolve even with an older loader. */
  fns->GetCoopMatProps = (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)gipa(
      instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
  fns->GetCoopMatFlexProps =
      (PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV)gipa(
          instance, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
  fns->GetCoopVecProps = (PFN_vkGetPhysicalDeviceCooperativeVectorPropertiesNV)gipa(
      instance, "vkGetPhysicalDeviceCooperativeVectorPropertiesNV");
  return fns->DestroyInstance && fns->EnumeratePhysicalDevices &&
         fns->GetPhysicalDeviceProperties && fns->GetPhysicalDeviceQueueFamilyProperties &&
         fns->GetPhysicalDeviceMemoryProperties && fns->EnumerateDeviceExtensionProperties &&
         fns->CreateDevice && fns->GetDeviceProcAddr;
}

/* ------------------------------------------------------------- the chain ---- */
enum {
  CHAIN_STORAGE16,
  CHAIN_STORAGE8,
  CHAIN_FLOAT16_INT8,
  CHAIN_BDA,
  CHAIN_VMM,
  CHAIN_SUBGROUP_SIZE_CONTROL,
  CHAIN_SUBGROUP_TYPES,
  CHAIN_MAINTENANCE4,
  CHAIN_COOPMAT,
  CHAIN_COOPMAT2,
  CHAIN_COOPVEC,
  CHAIN_BF16,
  CHAIN_FLOAT8,
  CHAIN_ATOMIC_FLOAT,
  CHAIN_ATOMIC_FLOAT16_VECTOR,
  CHAIN_PIPELINE_EXECUTABLE,
  CHAIN_TIMELINE,
  CHAIN_CACHE_CONTROL,
  CHAIN_SHADER_CLOCK,
  CHAIN_COUNT
};

static void *chain_member(sg_vk_features *f, int i) {
  switch (i) {
  case CHAIN_STORAGE16: return &f->storage16;
  case CHAIN_STORAGE8: return &f->storage8;
  case CHAIN_FLOAT16_INT8: return &f->float16_int8;
  case CHAIN_BDA: return &f->bda;
  case CHAIN_VMM: return &f->vmm;
  case CHAIN_SUBGROUP_SIZE_CONTROL: return &f->subgroup_size_control;
  case CHAIN_SUBGROUP_TYPES: return &f->subgroup_types;
  case CHAIN_MAINTENANCE4: return &f->maintenance4;
  case CHAIN_COOPMAT: return &f->coopmat;
  case CHAIN_COOPMAT2: return &f->coopmat2;
  case CHAIN_COOPVEC: return &f->coopvec;
  case CHAIN_BF16: return &f->bf16;
  case CHAIN_FLOAT8: return &f->float8;
  case CHAIN_ATOMIC_FLOAT: return &f->atomic_float;
  case CHAIN_ATOMIC_FLOAT16_VECTOR: return &f->atomic_float16_vector;
  case CHAIN_PIPELINE_EXECUTABLE: return &f->pipeline_executable;
  case CHAIN_TIMELINE: return &f->timeline;
  case CHAIN_CACHE_CONTROL: return &f->cache_control;
  case CHAIN_SHADER_CLOCK: return &f->shader_clock;
  default: return NULL;
  }
}

/* Every Vulkan extensible struct starts with sType, pNext. */
typedef struct chain_head {
  VkStructureType sType;
  void *pNext;
} chain_head;

void sg_vk_features_link(sg_vk_features *f) {
  f->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f->storage16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  f->storage8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
  f->float16_int8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
  f->bda.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES;
  f->vmm.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES;
  f->subgroup_size_control.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
  f->subgroup_types.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES;
  f->maintenance4.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES;
  f->coopmat.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR;
  f->coopmat2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV;
  f->coopvec.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_FEATURES_NV;
  f->bf16.sType = SPVGEN_VK_STRUCTURE_TYPE_BFLOAT16_FEATURES;
  f->float8.sType = SPVGEN_VK_STRUCTURE_TYPE_FLOAT8_FEATURES;
  f->atomic_float.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
  f->atomic_float16_vector.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT16_VECTOR_FEATURES_NV;
  f->pipeline_executable.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
  f->timeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES;
  f->cache_control.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES;
  f->shader_clock.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR;
  chain_head *tail = (chain_head *)&f->f2;
  tail->pNext = NULL;
  for (int i = 0; i < CHAIN_COUNT; i++) {
    chain_head *h = chain_member(f, i);
    h->pNext = NULL;
    if (!(f->chained & (1u << i))) continue;
    tail->pNext = h;
    tail = h;
  }
}

/* Every feature the runner knows: where its VkBool32 sits in sg_vk_features and its
 * SPVGEN_FEATURE_* bit. Reading the device's features and choosing the ones to enable
 * both walk this one table. */
typedef struct feature_field {
  size_t offset;
  uint64_t bit;
} feature_field;

#define FIELD(member, bit) {offsetof(sg_vk_features, member), (bit)}
static const feature_field FEATURE_FIELDS[] = {
    FIELD(float16_int8.shaderFloat16, SPVGEN_FEATURE_FLOAT16),
    FIELD(float16_int8.shaderInt8, SPVGEN_FEATURE_INT8),
    FIELD(f2.features.shaderInt16, SPVGEN_FEATURE_INT16),
    FIELD(f2.features.shaderInt64, SPVGEN_FEATURE_INT64),
    FIELD(f2.features.shaderFloat64, SPVGEN_FEATURE_FLOAT64),
    FIELD(storage16.storageBuffer16BitAccess, SPVGEN_FEATURE_STORAGE_BUFFER_16BIT),
    FIELD(storage16.uniformAndStorageBuffer16BitAccess, SPVGEN_FEATURE_UNIFORM_16BIT),
    FIELD(storage16.storagePushConstant16, SPVGEN_FEATURE_PUSH_CONSTANT_16BIT),
    FIELD(storage8.storageBuffer8BitAccess, SPVGEN_FEATURE_STORAGE_BUFFER_8BIT),
    FIELD(storage8.uniformAndStorageBuffer8BitAccess, SPVGEN_FEATURE_UNIFORM_8BIT),
    FIELD(storage8.storagePushConstant8, SPVGEN_FEATURE_PUSH_CONSTANT_8BIT),
    FIELD(bda.bufferDeviceAddress, SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS),
    FIELD(vmm.vulkanMemoryModel, SPVGEN_FEATURE_VULKAN_MEMORY_MODEL),
    FIELD(vmm.vulkanMemoryModelDeviceScope, SPVGEN_FEATURE_VULKAN_MEMORY_MODEL_DEVICE_SCOPE),
    FIELD(subgroup_size_control.subgroupSizeControl, SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL),
    FIELD(subgroup_size_control.computeFullSubgroups, SPVGEN_FEATURE_COMPUTE_FULL_SUBGROUPS),
    FIELD(subgroup_types.shaderSubgroupExtendedTypes, SPVGEN_FEATURE_SUBGROUP_EXTENDED_TYPES),
    FIELD(maintenance4.maintenance4, SPVGEN_FEATURE_MAINTENANCE4),
    FIELD(coopmat.cooperativeMatrix, SPVGEN_FEATURE_COOPMAT),
    FIELD(coopmat.cooperativeMatrixRobustBufferAccess, SPVGEN_FEATURE_COOPMAT_ROBUST_BUFFER_ACCESS),
    FIELD(coopmat2.cooperativeMatrixWorkgroupScope, SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE),
    FIELD(coopmat2.cooperativeMatrixFlexibleDimensions,
          SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS),
    FIELD(coopmat2.cooperativeMatrixReductions, SPVGEN_FEATURE_COOPMAT2_REDUCTIONS),
    FIELD(coopmat2.cooperativeMatrixConversions, SPVGEN_FEATURE_COOPMAT2_CONVERSIONS),
    FIELD(coopmat2.cooperativeMatrixPerElementOperations, SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS),
    FIELD(coopmat2.cooperativeMatrixTensorAddressing, SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING),
    FIELD(coopmat2.cooperativeMatrixBlockLoads, SPVGEN_FEATURE_COOPMAT2_BLOCK_LOADS),
    FIELD(coopvec.cooperativeVector, SPVGEN_FEATURE_COOPVEC),
    FIELD(coopvec.cooperativeVectorTraining, SPVGEN_FEATURE_COOPVEC_TRAINING),
    FIELD(bf16.shaderBFloat16Type, SPVGEN_FEATURE_BFLOAT16),
    FIELD(bf16.shaderBFloat16DotProduct, SPVGEN_FEATURE_BFLOAT16_DOT_PRODUCT),
    FIELD(bf16.shaderBFloat16CooperativeMatrix, SPVGEN_FEATURE_BFLOAT16_COOPMAT),
    FIELD(float8.shaderFloat8, SPVGEN_FEATURE_FLOAT8),
    FIELD(float8.shaderFloat8CooperativeMatrix, SPVGEN_FEATURE_FLOAT8_COOPMAT),
    FIELD(atomic_float.shaderBufferFloat32AtomicAdd, SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD),
    FIELD(atomic_float16_vector.shaderFloat16VectorAtomics, SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR),
    FIELD(shader_clock.shaderSubgroupClock, SPVGEN_FEATURE_SHADER_CLOCK),
};
#undef FIELD
#define FEATURE_FIELD_COUNT (sizeof FEATURE_FIELDS / sizeof FEATURE_FIELDS[0])

static uint64_t features_mask(const sg_vk_features *f) {
  uint64_t m = 0;
  for (size_t i = 0; i < FEATURE_FIELD_COUNT; i++) {
    const char *field = (const char *)f + FEATURE_FIELDS[i].offset;
    if (*(const VkBool32 *)(const void *)field) m |= FEATURE_FIELDS[i].bit;
  }
  return m;
}

void sg_vk_features_restrict(sg_vk_features *f, uint64_t m) {
  /* Core 1.0 features: only the table's; robustBufferAccess and the graphics ones stay
   * off. These members of the other structs are not in the table, and kernels never need
   * them. pipeline_executable.pipelineExecutableInfo keeps the driver's value: the query
   * unchains it when the device lacks it. */
  memset(&f->f2.features, 0, sizeof f->f2.features);
  f->storage16.storageInputOutput16 = VK_FALSE;
  f->bda.bufferDeviceAddressCaptureReplay = VK_FALSE;
  f->bda.bufferDeviceAddressMultiDevice = VK_FALSE;
  f->vmm.vulkanMemoryModelAvailabilityVisibilityChains = VK_FALSE;
  f->shader_clock.shaderDeviceClock = VK_FALSE;
  { /* of the float atomics only the table's buffer add (no image or sparse ones) */
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT a;
    memset(&a, 0, sizeof a);
    a.sType = f->atomic_float.sType;
    a.pNext = f->atomic_float.pNext;
    f->atomic_float = a;
  }
  for (size_t i = 0; i < FEATURE_FIELD_COUNT; i++) {
    char *field = (char *)f + FEATURE_FIELDS[i].offset;
    *(VkBool32 *)(void *)field = (m & FEATURE_FIELDS[i].bit) ? VK_TRUE : VK_FALSE;
  }
}

/* ------------------------------------------------------------ conversions ---- */
VkComponentTypeKHR sg_vk_component_to_vk(spvgen_component_type t) {
  SpvComponentType spirv;
  if (spvgen_component_to_spirv(t, &spirv)) return (VkComponentTypeKHR)spirv;
  if (t == SPVGEN_COMPONENT_BF16) return SPVGEN_VK_COMPONENT_TYPE_BFLOAT16;
  return VK_COMPONENT_TYPE_MAX_ENUM_KHR;
}

spvgen_component_type sg_vk_component_from_vk(VkComponentTypeKHR t) {
  spvgen_component_type c;
  if (t == SPVGEN_VK_COMPONENT_TYPE_BFLOAT16) return SPVGEN_COMPONENT_BF16;
  if (spvgen_component_from_spirv((SpvComponentType)t, &c)) return c;
  return SPVGEN_COMPONENT_UNKNOWN;
}

static SpvScope scope_from_vk(VkScopeKHR s) {
  switch (s) {
  case VK_SCOPE_DEVICE_KHR: return SpvScopeDevice;
  case VK_SCOPE_WORKGROUP_KHR: return SpvScopeWorkgroup;
  default: return SpvScopeSubgroup;
  }
}

static bool has_extension(const VkExtensionProperties *exts, uint32_t n, const char *name) {
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp(exts[i].extensionName, name)) return true;
  return false;
}

static void copy_name(char *dst, size_t size, const char *src) {
  size_t n = 0;
  while (n < size - 1 && src[n]) n++;
  memcpy(dst, src, n);
  dst[n] = 0;
}

/* ------------------------------------------------------ cooperative lists ---- */
/* A failed list query is an error of the whole query (an empty list would look like a
 * device without those shapes). */
static spvgen_status list_failed(char *message, size_t message_size, const char *call,
                                 VkResult r) {
  if (r == VK_SUCCESS) {
    sg_vk_format(message, message_size, "out of memory for the %s list", call);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  sg_vk_format(message, message_size, "%s failed: %s (%d)", call, sg_vk_result_name(r),
                   (int)r);
  return SPVGEN_ERROR_VULKAN;
}

/* The three cooperative lists share Vulkan's two-call enumeration; each list is named
 * here once (which entry point, its element struct and sType). */
enum list_kind { LIST_COOPMAT, LIST_COOPMAT_FLEX, LIST_COOPVEC };
static const struct {
  const char *call;
  size_t size;
  VkStructureType stype;
} k_lists[] = {
    {"vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", sizeof(VkCooperativeMatrixPropertiesKHR),
     VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR},
    {"vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV",
     sizeof(VkCooperativeMatrixFlexibleDimensionsPropertiesNV),
     VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FLEXIBLE_DIMENSIONS_PROPERTIES_NV},
    {"vkGetPhysicalDeviceCooperativeVectorPropertiesNV", sizeof(VkCooperativeVectorPropertiesNV),
     VK_STRUCTURE_TYPE_COOPERATIVE_VECTOR_PROPERTIES_NV},
};

static VkResult call_list(const sg_vk_instance_fns *fns, enum list_kind kind,
                          VkPhysicalDevice pd, uint32_t *n, void *p) {
  switch (kind) {
  case LIST_COOPMAT: return fns->GetCoopMatProps(pd, n, p);
  case LIST_COOPMAT_FLEX: return fns->GetCoopMatFlexProps(pd, n, p);
  default: return fns->GetCoopVecProps(pd, n, p);
  }
}

/* *out: a calloc'ed array of *count elements with sType set and filled by the driver
 * (NULL and 0 for an empty list); free it. */
static spvgen_status fetch_list(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                enum list_kind kind, void **out, uint32_t *count, char *msg,
                                size_t msg_size) {
  *out = NULL;
  *count = 0;
  uint32_t n = 0;
  VkResult r = call_list(fns, kind, pd, &n, NULL);
  if (r != VK_SUCCESS) return list_failed(msg, msg_size, k_lists[kind].call, r);
  if (n == 0) return SPVGEN_OK;
  unsigned char *p = calloc(n, k_lists[kind].size);
  if (!p) return list_failed(msg, msg_size, k_lists[kind].call, VK_SUCCESS);
  for (uint32_t i = 0; i < n; i++)
    ((VkBaseOutStructure *)(void *)(p + i * k_lists[kind].size))->sType = k_lists[kind].stype;
  r = call_list(fns, kind, pd, &n, p);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
    free(p);
    return list_failed(msg, msg_size, k_lists[kind].call, r);
  }
  *out = p;
  *count = n;
  return SPVGEN_OK;
}

static spvgen_status query_coopmat(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                   spvgen_device_caps *caps, char *msg, size_t msg_size) {
  void *raw;
  uint32_t n;
  spvgen_status st = fetch_list(fns, pd, LIST_COOPMAT, &raw, &n, msg, msg_size);
  if (st != SPVGEN_OK) return st;
  VkCooperativeMatrixPropertiesKHR *p = raw;
  for (uint32_t i = 0; i < n; i++) {
    if (caps->coopmat_count == SPVGEN_MAX_COOPMAT_SHAPES) {
      caps->lists_truncated = true;
      break;
    }
    spvgen_coopmat_shape *s = &caps->coopmat[caps->coopmat_count++];
    s->m = p[i].MSize;
    s->n = p[i].NSize;
    s->k = p[i].KSize;
    s->a = sg_vk_component_from_vk(p[i].AType);
    s->b = sg_vk_component_from_vk(p[i].BType);
    s->c = sg_vk_component_from_vk(p[i].CType);
    s->result = sg_vk_component_from_vk(p[i].ResultType);
    s->saturating = p[i].saturatingAccumulation != VK_FALSE;
    s->scope = scope_from_vk(p[i].scope);
  }
  free(p);
  return SPVGEN_OK;
}

static spvgen_status query_coopmat_flex(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                        spvgen_device_caps *caps, char *msg, size_t msg_size) {
  void *raw;
  uint32_t n;
  spvgen_status st = fetch_list(fns, pd, LIST_COOPMAT_FLEX, &raw, &n, msg, msg_size);
  if (st != SPVGEN_OK) return st;
  VkCooperativeMatrixFlexibleDimensionsPropertiesNV *p = raw;
  for (uint32_t i = 0; i < n; i++) {
    if (caps->coopmat_flex_count == SPVGEN_MAX_COOPMAT_FLEX) {
      caps->lists_truncated = true;
      break;
    }
    spvgen_coopmat_flex *s = &caps->coopmat_flex[caps->coopmat_flex_count++];
    s->m_granularity = p[i].MGranularity;
    s->n_granularity = p[i].NGranularity;
    s->k_granularity = p[i].KGranularity;
    s->a = sg_vk_component_from_vk(p[i].AType);
    s->b = sg_vk_component_from_vk(p[i].BType);
    s->c = sg_vk_component_from_vk(p[i].CType);
    s->result = sg_vk_component_from_vk(p[i].ResultType);
    s->saturating = p[i].saturatingAccumulation != VK_FALSE;
    s->scope = scope_from_vk(p[i].scope);
    s->workgroup_invocations = p[i].workgroupInvocations;
  }
  free(p);
  return SPVGEN_OK;
}

static spvgen_status query_coopvec(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                   spvgen_device_caps *caps, char *msg, size_t msg_size) {
  void *raw;
  uint32_t n;
  spvgen_status st = fetch_list(fns, pd, LIST_COOPVEC, &raw, &n, msg, msg_size);
  if (st != SPVGEN_OK) return st;
  VkCooperativeVectorPropertiesNV *p = raw;
  for (uint32_t i = 0; i < n; i++) {
    if (caps->coopvec_count == SPVGEN_MAX_COOPVEC_COMBOS) {
      caps->lists_truncated = true;
      break;
    }
    spvgen_coopvec_combo *c = &caps->coopvec[caps->coopvec_count++];
    c->input = sg_vk_component_from_vk(p[i].inputType);
    c->input_interpretation = sg_vk_component_from_vk(p[i].inputInterpretation);
    c->matrix_interpretation = sg_vk_component_from_vk(p[i].matrixInterpretation);
    c->bias_interpretation = sg_vk_component_from_vk(p[i].biasInterpretation);
    c->result = sg_vk_component_from_vk(p[i].resultType);
    c->transpose = p[i].transpose != VK_FALSE;
  }
  free(p);
  return SPVGEN_OK;
}

/* ------------------------------------------------------------ the query ---- */
/* sg_vk_query_device's steps. */

/* VkPhysicalDeviceProperties: names, versions, the limits spvgen reads. */
static void read_properties(const sg_vk_instance_fns *fns, VkPhysicalDevice pd, uint32_t index,
                            sg_vk_device_info *info, VkPhysicalDeviceProperties *out) {
  spvgen_device_caps *caps = &info->caps;
  VkPhysicalDeviceProperties props;
  memset(&props, 0, sizeof props);
  fns->GetPhysicalDeviceProperties(pd, &props);
  info->api_version = props.apiVersion;
  copy_name(caps->name, sizeof caps->name, props.deviceName);
  caps->vendor_id = props.vendorID;
  caps->device_id = props.deviceID;
  caps->type = (props.deviceType <= VK_PHYSICAL_DEVICE_TYPE_CPU)
                   ? (spvgen_device_type)props.deviceType
                   : SPVGEN_DEVICE_OTHER;
  caps->api_version = props.apiVersion & 0x1FFFFFFFu; /* drop the variant */
  caps->driver_version = props.driverVersion;
  memcpy(caps->pipeline_cache_uuid, props.pipelineCacheUUID, sizeof caps->pipeline_cache_uuid);
  caps->device_index = index;

  const VkPhysicalDeviceLimits *lim = &props.limits;
  caps->max_shared_memory = lim->maxComputeSharedMemorySize;
  caps->max_workgroup_invocations = lim->maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; i++) {
    caps->max_workgroup_size[i] = lim->maxComputeWorkGroupSize[i];
    caps->max_workgroup_count[i] = lim->maxComputeWorkGroupCount[i];
  }
  caps->max_push_constants_size = lim->maxPushConstantsSize;
  caps->max_storage_buffer_range = lim->maxStorageBufferRange;
  caps->max_uniform_buffer_range = lim->maxUniformBufferRange;
  caps->max_bound_descriptor_sets = lim->maxBoundDescriptorSets;
  caps->max_per_stage_storage_buffers = lim->maxPerStageDescriptorStorageBuffers;
  caps->min_storage_buffer_offset_alignment = lim->minStorageBufferOffsetAlignment;
  caps->timestamp_period = lim->timestampPeriod;
  *out = props;
}

/* The queue family: the first with compute and timestamps, else the first with compute. */
static spvgen_status choose_queue_family(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                         sg_vk_device_info *info, char *message,
                                         size_t message_size) {
  spvgen_device_caps *caps = &info->caps;
  uint32_t nq = 0;
  fns->GetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
  VkQueueFamilyProperties *qf = nq ? calloc(nq, sizeof *qf) : NULL;
  if (nq && !qf) {
    sg_vk_format(message, message_size, "out of memory listing queue families");
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  if (qf) fns->GetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
  for (int pass = 0; pass < 2 && info->queue_family == UINT32_MAX; pass++)
    for (uint32_t i = 0; i < nq; i++)
      if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && qf[i].queueCount > 0 &&
          (pass == 1 || qf[i].timestampValidBits > 0)) {
        info->queue_family = i;
        caps->timestamp_valid_bits = qf[i].timestampValidBits;
        break;
      }
  free(qf);
  return SPVGEN_OK;
}

/* The largest device-local heap. */
static void read_memory_heaps(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                              spvgen_device_caps *caps) {
  VkPhysicalDeviceMemoryProperties mem;
  memset(&mem, 0, sizeof mem);
  fns->GetPhysicalDeviceMemoryProperties(pd, &mem);
  for (uint32_t i = 0; i < mem.memoryHeapCount && i < VK_MAX_MEMORY_HEAPS; i++)
    if ((mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
        mem.memoryHeaps[i].size > caps->device_local_memory)
      caps->device_local_memory = mem.memoryHeaps[i].size;
}

/* What choose_extensions found that the later steps need. */
typedef struct extension_plan {
  bool has_pipeline_executable, has_driver_props;
  bool has_sm_builtins; /* VK_NV_shader_sm_builtins: the SM count (properties only) */
} extension_plan;

/* The device extensions: which feature structs to chain, which extensions to enable, the
 * SPIR-V version the device takes. */
static spvgen_status choose_extensions(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                       sg_vk_device_info *info, bool v11, bool v12, bool v13,
                                       extension_plan *plan, char *message, size_t message_size) {
  spvgen_device_caps *caps = &info->caps;
  /* Extensions. */
  uint32_t ne = 0;
  VkResult r = fns->EnumerateDeviceExtensionProperties(pd, NULL, &ne, NULL);
  VkExtensionProperties *exts = NULL;
  if (r == VK_SUCCESS && ne) {
    exts = calloc(ne, sizeof *exts);
    if (!exts) {
      sg_vk_format(message, message_size, "out of memory listing extensions");
      return SPVGEN_ERROR_OUT_OF_MEMORY;
    }
    r = fns->EnumerateDeviceExtensionProperties(pd, NULL, &ne, exts);
  }
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
    free(exts);
    sg_vk_format(message, message_size,
                     "vkEnumerateDeviceExtensionProperties failed: %s (%d) on '%s'",
                     sg_vk_result_name(r), (int)r, caps->name);
    return SPVGEN_ERROR_VULKAN;
  }

  /* Which feature structs to chain, which extensions to enable. An extension is
   * enabled when present and not already core in the device's version. */
  sg_vk_features *f = &info->features;
  struct {
    int chain;
    const char *ext;
    bool core;
  } const table[] = {
      {CHAIN_STORAGE16, VK_KHR_16BIT_STORAGE_EXTENSION_NAME, v11},
      {CHAIN_STORAGE8, VK_KHR_8BIT_STORAGE_EXTENSION_NAME, v12},
      {CHAIN_FLOAT16_INT8, VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME, v12},
      {CHAIN_BDA, VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME, v12},
      {CHAIN_VMM, VK_KHR_VULKAN_MEMORY_MODEL_EXTENSION_NAME, v12},
      {CHAIN_SUBGROUP_SIZE_CONTROL, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME, v13},
      {CHAIN_SUBGROUP_TYPES, VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME, v12},
      {CHAIN_MAINTENANCE4, VK_KHR_MAINTENANCE_4_EXTENSION_NAME, v13},
      {CHAIN_COOPMAT, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, false},
      {CHAIN_COOPMAT2, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME, false},
      {CHAIN_COOPVEC, VK_NV_COOPERATIVE_VECTOR_EXTENSION_NAME, false},
      {CHAIN_BF16, SPVGEN_VK_KHR_SHADER_BFLOAT16_NAME, false},
      {CHAIN_FLOAT8, SPVGEN_VK_EXT_SHADER_FLOAT8_NAME, false},
      {CHAIN_ATOMIC_FLOAT, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, false},
      {CHAIN_ATOMIC_FLOAT16_VECTOR, VK_NV_SHADER_ATOMIC_FLOAT16_VECTOR_EXTENSION_NAME, false},
      {CHAIN_SHADER_CLOCK, VK_KHR_SHADER_CLOCK_EXTENSION_NAME, false},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    bool present = has_extension(exts, ne, table[i].ext);
    if (table[i].chain == CHAIN_COOPMAT2 &&
        !has_extension(exts, ne, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME))
      present = false; /* cooperative_matrix2 requires the KHR extension */
    if (table[i].core || present) f->chained |= 1u << table[i].chain;
    if (present && !table[i].core && info->extension_count < SPVGEN_VK_MAX_DEVICE_EXTENSIONS)
      info->extensions[info->extension_count++] = table[i].ext;
  }
  /* Pipeline statistics (VK_KHR_pipeline_executable_properties): chained to read the
   * feature; enabled below only when the driver reports pipelineExecutableInfo. */
  bool has_pipeline_executable =
      has_extension(exts, ne, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (has_pipeline_executable) f->chained |= 1u << CHAIN_PIPELINE_EXECUTABLE;
  /* Timeline semaphores (spvgen_vk_submit's completion values): core in 1.2. Push
   * descriptors: how a dispatch binds its buffers in a caller's command buffer (no
   * descriptor set whose life spvgen would have to manage). Neither is a SPVGEN_FEATURE_*:
   * enabled whenever present. */
  bool has_timeline = v12 || has_extension(exts, ne, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
  if (has_timeline) {
    f->chained |= 1u << CHAIN_TIMELINE;
    if (!v12 && info->extension_count < SPVGEN_VK_MAX_DEVICE_EXTENSIONS)
      info->extensions[info->extension_count++] = VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME;
  }
  /* pipelineCreationCacheControl (core in 1.3): whether the driver can say that a
   * pipeline is in its cache (spvgen_vk_pipeline_options.cached_only). Not a
   * SPVGEN_FEATURE_* either: enabled whenever supported. */
  bool has_cache_control = v13 || has_extension(exts, ne, VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME);
  if (has_cache_control) {
    f->chained |= 1u << CHAIN_CACHE_CONTROL;
    if (!v13 && info->extension_count < SPVGEN_VK_MAX_DEVICE_EXTENSIONS)
      info->extensions[info->extension_count++] = VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME;
  }
  if (has_extension(exts, ne, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) &&
      info->extension_count < SPVGEN_VK_MAX_DEVICE_EXTENSIONS) {
    info->extensions[info->extension_count++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    info->push_descriptor = true;
  }
  /* Needed by the extensions above on a Vulkan 1.1 device. */
  if (!v12 && has_extension(exts, ne, VK_KHR_SPIRV_1_4_EXTENSION_NAME)) {
    info->extensions[info->extension_count++] = VK_KHR_SPIRV_1_4_EXTENSION_NAME;
    if (has_extension(exts, ne, VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME))
      info->extensions[info->extension_count++] = VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME;
  }
  caps->max_spirv_version = v13 ? SPVGEN_SPIRV_VERSION(1, 6)
                            : v12 ? SPVGEN_SPIRV_VERSION(1, 5)
                            : has_extension(exts, ne, VK_KHR_SPIRV_1_4_EXTENSION_NAME)
                                ? SPVGEN_SPIRV_VERSION(1, 4)
                                : SPVGEN_SPIRV_VERSION(1, 3);
  bool has_driver_props = v12 || has_extension(exts, ne, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
  plan->has_sm_builtins = has_extension(exts, ne, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  free(exts);
  plan->has_pipeline_executable = has_pipeline_executable;
  plan->has_driver_props = has_driver_props;
  return SPVGEN_OK;
}

/* The features (VkPhysicalDeviceFeatures2 and the chained structs) as SPVGEN_FEATURE_*
 * bits; pipeline statistics stay enabled only when the driver reports them. */
static void read_features(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                          sg_vk_device_info *info, bool has_pipeline_executable) {
  spvgen_device_caps *caps = &info->caps;
  sg_vk_features *f = &info->features;
  sg_vk_features_link(f);
  fns->GetPhysicalDeviceFeatures2(pd, &f->f2);
  sg_vk_features_link(f); /* the driver must not, but keep the chain ours */
  if (has_pipeline_executable && f->pipeline_executable.pipelineExecutableInfo &&
      info->extension_count < SPVGEN_VK_MAX_DEVICE_EXTENSIONS) {
    info->extensions[info->extension_count++] =
        VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    info->pipeline_executable_info = true;
  } else if (has_pipeline_executable) {
    /* Extension without the feature: neither is enabled, the struct leaves the chain. */
    f->chained &= ~(1u << CHAIN_PIPELINE_EXECUTABLE);
    f->pipeline_executable.pipelineExecutableInfo = VK_FALSE;
    sg_vk_features_link(f);
  }
  info->timeline_semaphore = ((f->chained >> CHAIN_TIMELINE) & 1) && f->timeline.timelineSemaphore;
  if (!info->timeline_semaphore) {
    f->chained &= ~(1u << CHAIN_TIMELINE);
    sg_vk_features_link(f);
  }
  info->cache_control =
      ((f->chained >> CHAIN_CACHE_CONTROL) & 1) && f->cache_control.pipelineCreationCacheControl;
  if (!info->cache_control) {
    /* (an extension named above without the feature is enabled and unused: harmless) */
    f->chained &= ~(1u << CHAIN_CACHE_CONTROL);
    sg_vk_features_link(f);
  }

  caps->features = features_mask(f);
  if (caps->timestamp_valid_bits > 0) caps->features |= SPVGEN_FEATURE_TIMESTAMPS;
}

/* The properties of the chained extensions (subgroups, maintenance, driver, cooperative
 * matrix / vector) and the cooperative shape lists. */
static spvgen_status read_properties2(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                      sg_vk_device_info *info, bool has_driver_props, bool has_sm_builtins,
                                      char *message, size_t message_size) {
  spvgen_device_caps *caps = &info->caps;
  const sg_vk_features *f = &info->features;
  bool has_m4 = (f->chained >> CHAIN_MAINTENANCE4) & 1;
  bool has_ssc = (f->chained >> CHAIN_SUBGROUP_SIZE_CONTROL) & 1;
  bool has_coopmat = (f->chained >> CHAIN_COOPMAT) & 1;
  bool has_coopmat2 = (f->chained >> CHAIN_COOPMAT2) & 1;
  bool has_coopvec = (f->chained >> CHAIN_COOPVEC) & 1;
  VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, NULL, {0}};
  VkPhysicalDeviceSubgroupProperties subgroup = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, NULL, 0, 0, 0, 0};
  VkPhysicalDeviceMaintenance3Properties m3 = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES, NULL, 0, 0};
  VkPhysicalDeviceMaintenance4Properties m4 = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES, NULL, 0};
  VkPhysicalDeviceSubgroupSizeControlProperties ssc = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES, NULL, 0, 0, 0, 0};
  VkPhysicalDeviceDriverProperties driver;
  memset(&driver, 0, sizeof driver);
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceCooperativeMatrixPropertiesKHR cm = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_PROPERTIES_KHR, NULL, 0};
  VkPhysicalDeviceCooperativeMatrix2PropertiesNV cm2 = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_PROPERTIES_NV, NULL, 0, 0, 0};
  VkPhysicalDeviceCooperativeVectorPropertiesNV cv = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_VECTOR_PROPERTIES_NV, NULL, 0, 0, 0, 0};
  chain_head *tail = (chain_head *)&p2;
#define CHAIN(s)               \
  do {                         \
    tail->pNext = &(s);        \
    tail = (chain_head *)&(s); \
  } while (0)
  CHAIN(subgroup);
  CHAIN(m3);
  if (has_m4) CHAIN(m4);
  if (has_ssc) CHAIN(ssc);
  if (has_driver_props) CHAIN(driver);
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV, NULL, 0, 0};
  if (has_sm_builtins) CHAIN(sm);
  if (has_coopmat) CHAIN(cm);
  if (has_coopmat2) CHAIN(cm2);
  if (has_coopvec) CHAIN(cv);
#undef CHAIN
  fns->GetPhysicalDeviceProperties2(pd, &p2);

  caps->subgroup_size = subgroup.subgroupSize ? subgroup.subgroupSize : 1;
  caps->min_subgroup_size = caps->max_subgroup_size = caps->subgroup_size;
  if (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)
    caps->subgroup_operations = subgroup.supportedOperations;
  caps->max_memory_allocation_size = m3.maxMemoryAllocationSize;
  if (has_m4) caps->max_buffer_size = m4.maxBufferSize;
  if (has_ssc && ssc.minSubgroupSize) {
    caps->min_subgroup_size = ssc.minSubgroupSize;
    caps->max_subgroup_size = ssc.maxSubgroupSize;
    caps->max_compute_workgroup_subgroups = ssc.maxComputeWorkgroupSubgroups;
    caps->required_subgroup_size_in_compute =
        (ssc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  }
  caps->compute_units = has_sm_builtins ? sm.shaderSMCount : 0;
  if (has_driver_props) {
    copy_name(caps->driver_name, sizeof caps->driver_name, driver.driverName);
    copy_name(caps->driver_info, sizeof caps->driver_info, driver.driverInfo);
  }
  if (has_coopmat) {
    caps->coopmat_supported_stages = cm.cooperativeMatrixSupportedStages;
    if (fns->GetCoopMatProps) {
      spvgen_status st = query_coopmat(fns, pd, caps, message, message_size);
      if (st != SPVGEN_OK) return st;
    }
  }
  if (has_coopmat2) {
    caps->coopmat2_workgroup_scope_max_workgroup_size =
        cm2.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
    caps->coopmat2_flexible_dimensions_max_dimension =
        cm2.cooperativeMatrixFlexibleDimensionsMaxDimension;
    caps->coopmat2_workgroup_scope_reserved_shared_memory =
        cm2.cooperativeMatrixWorkgroupScopeReservedSharedMemory;
    if (fns->GetCoopMatFlexProps &&
        (caps->features & SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS)) {
      spvgen_status st = query_coopmat_flex(fns, pd, caps, message, message_size);
      if (st != SPVGEN_OK) return st;
    }
  }
  if (has_coopvec) {
    caps->coopvec_supported_stages = cv.cooperativeVectorSupportedStages;
    caps->coopvec_max_components = cv.maxCooperativeVectorComponents;
    caps->coopvec_training_float16_accumulation =
        cv.cooperativeVectorTrainingFloat16Accumulation != VK_FALSE;
    caps->coopvec_training_float32_accumulation =
        cv.cooperativeVectorTrainingFloat32Accumulation != VK_FALSE;
    if (fns->GetCoopVecProps && (caps->features & SPVGEN_FEATURE_COOPVEC)) {
      spvgen_status st = query_coopvec(fns, pd, caps, message, message_size);
      if (st != SPVGEN_OK) return st;
    }
  }
  return SPVGEN_OK;
}

spvgen_status sg_vk_query_device(const sg_vk_instance_fns *fns, VkPhysicalDevice pd,
                                     uint32_t index, sg_vk_device_info *info,
                                     char *message, size_t message_size) {
  memset(info, 0, sizeof *info);
  spvgen_device_caps *caps = &info->caps;
  info->queue_family = UINT32_MAX;

  VkPhysicalDeviceProperties props;
  read_properties(fns, pd, index, info, &props);
  uint32_t major = VK_API_VERSION_MAJOR(props.apiVersion);
  uint32_t minor = VK_API_VERSION_MINOR(props.apiVersion);
  bool v11 = major > 1 || minor >= 1, v12 = major > 1 || minor >= 2,
       v13 = major > 1 || minor >= 3;
  spvgen_status st = choose_queue_family(fns, pd, info, message, message_size);
  if (st != SPVGEN_OK) return st;
  read_memory_heaps(fns, pd, caps);

  caps->subgroup_size = 1;
  caps->min_subgroup_size = caps->max_subgroup_size = 1;
  caps->max_spirv_version = SPVGEN_SPIRV_VERSION(1, 0);
  if (!v11 || !fns->GetPhysicalDeviceProperties2 || !fns->GetPhysicalDeviceFeatures2) {
    /* Vulkan 1.0: listed, but spvgen does not run on it (no features 2 queries). */
    return SPVGEN_OK;
  }
  extension_plan plan;
  st = choose_extensions(fns, pd, info, v11, v12, v13, &plan, message, message_size);
  if (st != SPVGEN_OK) return st;
  read_features(fns, pd, info, plan.has_pipeline_executable);
  st = read_properties2(fns, pd, info, plan.has_driver_props, plan.has_sm_builtins, message, message_size);
  if (st != SPVGEN_OK) return st;
  /* What the driver reported is held to the rules every source of caps is (spvgen/caps.h:
   * spvgen_caps_check): a device that breaks them is refused rather than planned for. */
  char why[512];
  if (spvgen_caps_check(caps, why, sizeof why) != SPVGEN_OK) {
    sg_vk_format(message, message_size, "the device's properties cannot be used: %s", why);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  return SPVGEN_OK;
}

/* ------------------------------------------------- a caller's feature chain ---- */
/* A member of sg_vk_features by its structure type (NULL: not one spvgen chains). */
static void *member_by_type(sg_vk_features *f, VkStructureType type, size_t *size) {
  for (int i = 0; i < CHAIN_COUNT; i++) {
    chain_head *h = chain_member(f, i);
    if (h->sType != type) continue;
    switch (i) {
    case CHAIN_STORAGE16: *size = sizeof f->storage16; break;
    case CHAIN_STORAGE8: *size = sizeof f->storage8; break;
    case CHAIN_FLOAT16_INT8: *size = sizeof f->float16_int8; break;
    case CHAIN_BDA: *size = sizeof f->bda; break;
    case CHAIN_VMM: *size = sizeof f->vmm; break;
    case CHAIN_SUBGROUP_SIZE_CONTROL: *size = sizeof f->subgroup_size_control; break;
    case CHAIN_SUBGROUP_TYPES: *size = sizeof f->subgroup_types; break;
    case CHAIN_MAINTENANCE4: *size = sizeof f->maintenance4; break;
    case CHAIN_COOPMAT: *size = sizeof f->coopmat; break;
    case CHAIN_COOPMAT2: *size = sizeof f->coopmat2; break;
    case CHAIN_COOPVEC: *size = sizeof f->coopvec; break;
    case CHAIN_BF16: *size = sizeof f->bf16; break;
    case CHAIN_FLOAT8: *size = sizeof f->float8; break;
    case CHAIN_ATOMIC_FLOAT: *size = sizeof f->atomic_float; break;
    case CHAIN_ATOMIC_FLOAT16_VECTOR: *size = sizeof f->atomic_float16_vector; break;
    case CHAIN_PIPELINE_EXECUTABLE: *size = sizeof f->pipeline_executable; break;
    case CHAIN_TIMELINE: *size = sizeof f->timeline; break;
    case CHAIN_CACHE_CONTROL: *size = sizeof f->cache_control; break;
    case CHAIN_SHADER_CLOCK: *size = sizeof f->shader_clock; break;
    default: return NULL;
    }
    return h;
  }
  return NULL;
}

/* Sets a VkBool32 of f when the caller's value is true (the Vulkan 1.1-1.3 structs
 * carry the same features as the extension structs spvgen chains). */
#define TAKE(dst, src) \
  do {                 \
    if (src) dst = VK_TRUE; \
  } while (0)

bool sg_vk_read_enabled_chain(const void *head, sg_vk_enabled *out, char *message,
                              size_t message_size) {
  memset(out, 0, sizeof *out);
  sg_vk_features *f = &out->features;
  sg_vk_features_link(f); /* sTypes set: member_by_type finds them */
  const chain_head *h = head;
  if (!h) return true;
  if (h->sType == VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO) {
    const VkDeviceCreateInfo *dci = head;
    if (dci->pEnabledFeatures) f->f2.features = *dci->pEnabledFeatures;
    for (uint32_t i = 0; i < dci->enabledExtensionCount; i++) {
      const char *e = dci->ppEnabledExtensionNames ? dci->ppEnabledExtensionNames[i] : NULL;
      if (!e) continue;
      if (!strcmp(e, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) out->push_descriptor = true;
    }
    out->from_create_info = true;
    h = dci->pNext;
  }
  int seen = 0;
  for (; h; h = h->pNext) {
    if (++seen > 256) {
      sg_vk_format(message, message_size, "the feature chain has more than 256 structures (a loop?)");
      return false;
    }
    size_t size = 0;
    void *m;
    switch ((int)h->sType) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2: {
      const VkPhysicalDeviceFeatures2 *x = (const void *)h;
      f->f2.features = x->features;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: {
      const VkPhysicalDeviceVulkan11Features *x = (const void *)h;
      TAKE(f->storage16.storageBuffer16BitAccess, x->storageBuffer16BitAccess);
      TAKE(f->storage16.uniformAndStorageBuffer16BitAccess, x->uniformAndStorageBuffer16BitAccess);
      TAKE(f->storage16.storagePushConstant16, x->storagePushConstant16);
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
      const VkPhysicalDeviceVulkan12Features *x = (const void *)h;
      TAKE(f->storage8.storageBuffer8BitAccess, x->storageBuffer8BitAccess);
      TAKE(f->storage8.uniformAndStorageBuffer8BitAccess, x->uniformAndStorageBuffer8BitAccess);
      TAKE(f->storage8.storagePushConstant8, x->storagePushConstant8);
      TAKE(f->float16_int8.shaderFloat16, x->shaderFloat16);
      TAKE(f->float16_int8.shaderInt8, x->shaderInt8);
      TAKE(f->bda.bufferDeviceAddress, x->bufferDeviceAddress);
      TAKE(f->vmm.vulkanMemoryModel, x->vulkanMemoryModel);
      TAKE(f->vmm.vulkanMemoryModelDeviceScope, x->vulkanMemoryModelDeviceScope);
      TAKE(f->subgroup_types.shaderSubgroupExtendedTypes, x->shaderSubgroupExtendedTypes);
      TAKE(f->timeline.timelineSemaphore, x->timelineSemaphore);
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
      const VkPhysicalDeviceVulkan13Features *x = (const void *)h;
      TAKE(f->subgroup_size_control.subgroupSizeControl, x->subgroupSizeControl);
      TAKE(f->subgroup_size_control.computeFullSubgroups, x->computeFullSubgroups);
      TAKE(f->maintenance4.maintenance4, x->maintenance4);
      TAKE(f->cache_control.pipelineCreationCacheControl, x->pipelineCreationCacheControl);
      break;
    }
    default:
      m = member_by_type(f, h->sType, &size);
      if (m && size > sizeof(chain_head)) {
        /* The members after sType and pNext, OR-ed in (a struct may come twice). */
        const VkBool32 *src = (const void *)((const char *)h + sizeof(chain_head));
        VkBool32 *dst = (void *)((char *)m + sizeof(chain_head));
        for (size_t k = 0; k < (size - sizeof(chain_head)) / sizeof(VkBool32); k++)
          if (src[k]) dst[k] = VK_TRUE;
      }
      break;
    }
  }
  out->mask = features_mask(f);
  out->timeline = f->timeline.timelineSemaphore != VK_FALSE;
  out->cache_control = f->cache_control.pipelineCreationCacheControl != VK_FALSE;
  return true;
}
#undef TAKE

void *spvgen_vk_features_chain(uint64_t features, uint32_t api_version, bool recommended,
                               spvgen_vk_feature_chain *chain, void ***tail,
                               const char **extensions, uint32_t max, uint32_t *extension_count) {
  _Static_assert(sizeof(sg_vk_features) <= sizeof(chain->storage.bytes),
                 "spvgen_vk_feature_chain is too small for sg_vk_features");
  if (extension_count) *extension_count = 0;
  if (tail) *tail = NULL;
  features &= ~SPVGEN_FEATURE_TIMESTAMPS;
  if (!chain || (features & ~SPVGEN_FEATURES_ALL)) return NULL;
  sg_vk_features *f = (sg_vk_features *)(void *)chain->storage.bytes;
  memset(f, 0, sizeof *f);
  sg_vk_features_restrict(f, features);
  /* Only the structs with something to enable. */
  uint32_t chained = 0;
  sg_vk_features_link(f); /* sTypes, for member_by_type */
  for (int i = 0; i < CHAIN_COUNT; i++) {
    if (i == CHAIN_PIPELINE_EXECUTABLE || i == CHAIN_TIMELINE || i == CHAIN_CACHE_CONTROL) continue;
    size_t size = 0;
    chain_head *h = chain_member(f, i);
    if (!member_by_type(f, h->sType, &size) || size <= sizeof(chain_head)) continue;
    const VkBool32 *b = (const void *)((const char *)h + sizeof(chain_head));
    for (size_t k = 0; k < (size - sizeof(chain_head)) / sizeof(VkBool32); k++)
      if (b[k]) chained |= 1u << i;
  }
  f->chained = chained;
  sg_vk_features_link(f);
  if (tail) {
    chain_head *last = (chain_head *)&f->f2;
    while (last->pNext) last = last->pNext;
    *tail = &last->pNext;
  }
  uint32_t major = VK_API_VERSION_MAJOR(api_version), minor = VK_API_VERSION_MINOR(api_version);
  bool v11 = major > 1 || minor >= 1, v12 = major > 1 || minor >= 2, v13 = major > 1 || minor >= 3;
  struct { int chain; const char *ext; bool core; } const table[] = {
      {CHAIN_STORAGE16, VK_KHR_16BIT_STORAGE_EXTENSION_NAME, v11},
      {CHAIN_STORAGE8, VK_KHR_8BIT_STORAGE_EXTENSION_NAME, v12},
      {CHAIN_FLOAT16_INT8, VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME, v12},
      {CHAIN_BDA, VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME, v12},
      {CHAIN_VMM, VK_KHR_VULKAN_MEMORY_MODEL_EXTENSION_NAME, v12},
      {CHAIN_SUBGROUP_SIZE_CONTROL, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME, v13},
      {CHAIN_SUBGROUP_TYPES, VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME, v12},
      {CHAIN_MAINTENANCE4, VK_KHR_MAINTENANCE_4_EXTENSION_NAME, v13},
      {CHAIN_COOPMAT, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, false},
      {CHAIN_COOPMAT2, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME, false},
      {CHAIN_COOPVEC, VK_NV_COOPERATIVE_VECTOR_EXTENSION_NAME, false},
      {CHAIN_BF16, SPVGEN_VK_KHR_SHADER_BFLOAT16_NAME, false},
      {CHAIN_FLOAT8, SPVGEN_VK_EXT_SHADER_FLOAT8_NAME, false},
      {CHAIN_ATOMIC_FLOAT, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, false},
      {CHAIN_ATOMIC_FLOAT16_VECTOR, VK_NV_SHADER_ATOMIC_FLOAT16_VECTOR_EXTENSION_NAME, false},
      {CHAIN_SHADER_CLOCK, VK_KHR_SHADER_CLOCK_EXTENSION_NAME, false},
  };
  uint32_t n = 0;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (!(chained & (1u << table[i].chain)) || table[i].core) continue;
    if (extensions && n < max) extensions[n] = table[i].ext;
    n++;
  }
  if (recommended) {
    if (extensions && n < max) extensions[n] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    n++;
  }
  if (extension_count) *extension_count = n;
  return &f->f2;
}
