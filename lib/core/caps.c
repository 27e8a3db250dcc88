/* lib/core/caps.c — spvgen_device_caps without Vulkan: feature and type names, lookups
 * in the cooperative shape lists, and the named presets for offline emission. It lives
 * in spvgen_core so that emitters and tools use caps without linking the runner. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "names.h"
#include "spvgen/caps.h"

static const struct {
  const char *name;
  const char *source;
} feature_info[SPVGEN_FEATURE_COUNT] = {
    {"shaderFloat16", "VK_KHR_shader_float16_int8, core in Vulkan 1.2"},
    {"shaderInt8", "VK_KHR_shader_float16_int8, core in Vulkan 1.2"},
    {"shaderInt16", "Vulkan 1.0"},
    {"shaderInt64", "Vulkan 1.0"},
    {"shaderFloat64", "Vulkan 1.0"},
    {"storageBuffer16BitAccess", "VK_KHR_16bit_storage, core in Vulkan 1.1"},
    {"uniformAndStorageBuffer16BitAccess", "VK_KHR_16bit_storage, core in Vulkan 1.1"},
    {"storagePushConstant16", "VK_KHR_16bit_storage, core in Vulkan 1.1"},
    {"storageBuffer8BitAccess", "VK_KHR_8bit_storage, core in Vulkan 1.2"},
    {"uniformAndStorageBuffer8BitAccess", "VK_KHR_8bit_storage, core in Vulkan 1.2"},
    {"storagePushConstant8", "VK_KHR_8bit_storage, core in Vulkan 1.2"},
    {"bufferDeviceAddress", "VK_KHR_buffer_device_address, core in Vulkan 1.2"},
    {"vulkanMemoryModel", "VK_KHR_vulkan_memory_model, core in Vulkan 1.2"},
    {"vulkanMemoryModelDeviceScope", "VK_KHR_vulkan_memory_model, core in Vulkan 1.2"},
    {"subgroupSizeControl", "VK_EXT_subgroup_size_control, core in Vulkan 1.3"},
    {"computeFullSubgroups", "VK_EXT_subgroup_size_control, core in Vulkan 1.3"},
    {"shaderSubgroupExtendedTypes", "VK_KHR_shader_subgroup_extended_types, core in Vulkan 1.2"},
    {"maintenance4", "VK_KHR_maintenance4, core in Vulkan 1.3"},
    {"cooperativeMatrix", "VK_KHR_cooperative_matrix"},
    {"cooperativeMatrixRobustBufferAccess", "VK_KHR_cooperative_matrix"},
    {"cooperativeMatrixWorkgroupScope", "VK_NV_cooperative_matrix2"},
    {"cooperativeMatrixFlexibleDimensions", "VK_NV_cooperative_matrix2"},
    {"cooperativeMatrixReductions", "VK_NV_cooperative_matrix2"},
    {"cooperativeMatrixConversions", "VK_NV_cooperative_matrix2"},
    {"cooperativeMatrixPerElementOperations", "VK_NV_cooperative_matrix2"},
    {"cooperativeMatrixTensorAddressing", "VK_NV_cooperative_matrix2"},
    {"cooperativeMatrixBlockLoads", "VK_NV_cooperative_matrix2"},
    {"cooperativeVector", "VK_NV_cooperative_vector"},
    {"cooperativeVectorTraining", "VK_NV_cooperative_vector"},
    {"shaderBFloat16Type", "VK_KHR_shader_bfloat16"},
    {"shaderBFloat16DotProduct", "VK_KHR_shader_bfloat16"},
    {"shaderBFloat16CooperativeMatrix", "VK_KHR_shader_bfloat16"},
    {"shaderFloat8", "VK_EXT_shader_float8"},
    {"shaderFloat8CooperativeMatrix", "VK_EXT_shader_float8"},
    {"timestamps", "a queue with timestampValidBits > 0"},
    {"shaderBufferFloat32AtomicAdd", "VK_EXT_shader_atomic_float"},
    {"shaderFloat16VectorAtomics", "VK_NV_shader_atomic_float16_vector"},
    {"shaderSubgroupClock", "VK_KHR_shader_clock"},
};

static int feature_index(uint64_t feature) {
  if (feature == 0 || (feature & (feature - 1))) return -1;
  for (int i = 0; i < SPVGEN_FEATURE_COUNT; i++)
    if (feature == (1ull << i)) return i;
  return -1;
}

const char *spvgen_feature_name(uint64_t feature) {
  int i = feature_index(feature);
  return i < 0 ? "unknown feature" : feature_info[i].name;
}

const char *spvgen_feature_source(uint64_t feature) {
  int i = feature_index(feature);
  return i < 0 ? "unknown" : feature_info[i].source;
}

uint64_t spvgen_feature_first(uint64_t mask) { return mask & (~mask + 1); }

static const char *const component_names[] = {
    [SPVGEN_COMPONENT_F16] = "f16",
    [SPVGEN_COMPONENT_F32] = "f32",
    [SPVGEN_COMPONENT_F64] = "f64",
    [SPVGEN_COMPONENT_S8] = "s8",
    [SPVGEN_COMPONENT_S16] = "s16",
    [SPVGEN_COMPONENT_S32] = "s32",
    [SPVGEN_COMPONENT_S64] = "s64",
    [SPVGEN_COMPONENT_U8] = "u8",
    [SPVGEN_COMPONENT_U16] = "u16",
    [SPVGEN_COMPONENT_U32] = "u32",
    [SPVGEN_COMPONENT_U64] = "u64",
    [SPVGEN_COMPONENT_BF16] = "bf16",
    [SPVGEN_COMPONENT_E4M3] = "e4m3",
    [SPVGEN_COMPONENT_E5M2] = "e5m2",
    [SPVGEN_COMPONENT_S8_PACKED] = "s8packed",
    [SPVGEN_COMPONENT_U8_PACKED] = "u8packed",
};
static const uint8_t component_sizes[] = {
    [SPVGEN_COMPONENT_F16] = 2,
    [SPVGEN_COMPONENT_F32] = 4,
    [SPVGEN_COMPONENT_F64] = 8,
    [SPVGEN_COMPONENT_S8] = 1,
    [SPVGEN_COMPONENT_S16] = 2,
    [SPVGEN_COMPONENT_S32] = 4,
    [SPVGEN_COMPONENT_S64] = 8,
    [SPVGEN_COMPONENT_U8] = 1,
    [SPVGEN_COMPONENT_U16] = 2,
    [SPVGEN_COMPONENT_U32] = 4,
    [SPVGEN_COMPONENT_U64] = 8,
    [SPVGEN_COMPONENT_BF16] = 2,
    [SPVGEN_COMPONENT_E4M3] = 1,
    [SPVGEN_COMPONENT_E5M2] = 1,
    [SPVGEN_COMPONENT_S8_PACKED] = 1,
    [SPVGEN_COMPONENT_U8_PACKED] = 1,
};

SG_NAMES(spvgen_component_type, component_names, "unknown", spvgen_component_type_name, spvgen_component_type_parse)

uint32_t spvgen_component_type_size(spvgen_component_type type) {
  return (unsigned)type < sizeof component_sizes / sizeof component_sizes[0] ? component_sizes[type] : 0;
}

/* spvgen_component_type <-> SPIR-V ComponentType: 0..10 are equal, the rest is this
 * table (BF16 has no ComponentType in the SPIR-V headers spvgen builds with). */
static const struct {
  spvgen_component_type type;
  SpvComponentType spirv;
} component_spirv[] = {
    {SPVGEN_COMPONENT_E4M3, SpvComponentTypeFloatE4M3NV},
    {SPVGEN_COMPONENT_E5M2, SpvComponentTypeFloatE5M2NV},
    {SPVGEN_COMPONENT_S8_PACKED, SpvComponentTypeSignedInt8PackedNV},
    {SPVGEN_COMPONENT_U8_PACKED, SpvComponentTypeUnsignedInt8PackedNV},
};

bool spvgen_component_to_spirv(spvgen_component_type type, SpvComponentType *out) {
  if (!out) return false;
  if ((unsigned)type <= SPVGEN_COMPONENT_U64) {
    *out = (SpvComponentType)type;
    return true;
  }
  for (size_t i = 0; i < sizeof component_spirv / sizeof component_spirv[0]; i++)
    if (component_spirv[i].type == type) {
      *out = component_spirv[i].spirv;
      return true;
    }
  return false;
}

bool spvgen_component_from_spirv(SpvComponentType type, spvgen_component_type *out) {
  if (!out) return false;
  if ((unsigned)type <= SpvComponentTypeUnsignedInt64NV) {
    *out = (spvgen_component_type)type;
    return true;
  }
  for (size_t i = 0; i < sizeof component_spirv / sizeof component_spirv[0]; i++)
    if (component_spirv[i].spirv == type) {
      *out = component_spirv[i].type;
      return true;
    }
  return false;
}

const char *spvgen_device_type_name(spvgen_device_type type) {
  switch (type) {
  case SPVGEN_DEVICE_INTEGRATED_GPU: return "integrated";
  case SPVGEN_DEVICE_DISCRETE_GPU: return "discrete";
  case SPVGEN_DEVICE_VIRTUAL_GPU: return "virtual";
  case SPVGEN_DEVICE_CPU: return "cpu";
  default: return "other";
  }
}

bool spvgen_caps_has(const spvgen_device_caps *caps, uint64_t mask) {
  return caps && (caps->features & mask) == mask;
}

const spvgen_coopmat_shape *spvgen_caps_find_coopmat(const spvgen_device_caps *caps,
                                                     SpvScope scope, uint32_t m, uint32_t n,
                                                     uint32_t k, spvgen_component_type a,
                                                     spvgen_component_type b,
                                                     spvgen_component_type c,
                                                     spvgen_component_type result) {
  if (!caps) return NULL;
  for (uint32_t i = 0; i < caps->coopmat_count && i < SPVGEN_MAX_COOPMAT_SHAPES; i++) {
    const spvgen_coopmat_shape *s = &caps->coopmat[i];
    if (s->scope == scope && (!m || s->m == m) && (!n || s->n == n) && (!k || s->k == k) &&
        s->a == a && s->b == b && s->c == c && s->result == result)
      return s;
  }
  return NULL;
}

const spvgen_coopmat_flex *spvgen_caps_find_coopmat_flex(const spvgen_device_caps *caps,
                                                         SpvScope scope,
                                                         uint32_t workgroup_invocations,
                                                         spvgen_component_type a,
                                                         spvgen_component_type b,
                                                         spvgen_component_type c,
                                                         spvgen_component_type result) {
  if (!caps) return NULL;
  for (uint32_t i = 0; i < caps->coopmat_flex_count && i < SPVGEN_MAX_COOPMAT_FLEX; i++) {
    const spvgen_coopmat_flex *s = &caps->coopmat_flex[i];
    if (s->scope == scope &&
        (!workgroup_invocations || s->workgroup_invocations == workgroup_invocations) &&
        s->a == a && s->b == b && s->c == c && s->result == result)
      return s;
  }
  return NULL;
}

const spvgen_coopvec_combo *spvgen_caps_find_coopvec(const spvgen_device_caps *caps,
                                                     spvgen_component_type input,
                                                     spvgen_component_type input_interpretation,
                                                     spvgen_component_type matrix_interpretation,
                                                     spvgen_component_type bias_interpretation,
                                                     spvgen_component_type result,
                                                     bool transpose) {
  if (!caps) return NULL;
  for (uint32_t i = 0; i < caps->coopvec_count && i < SPVGEN_MAX_COOPVEC_COMBOS; i++) {
    const spvgen_coopvec_combo *c = &caps->coopvec[i];
    if (c->input == input && c->input_interpretation == input_interpretation &&
        c->matrix_interpretation == matrix_interpretation &&
        c->bias_interpretation == bias_interpretation && c->result == result &&
        (!transpose || c->transpose))
      return c;
  }
  return NULL;
}

/* ---------------------------------------------------------------- presets ---- */
static void copy_str(char *dst, size_t size, const char *src) {
  size_t n = strlen(src);
  if (n >= size) n = size - 1;
  memcpy(dst, src, n);
  dst[n] = 0;
}

/* What every preset shares: a Vulkan 1.3 compute device with 16/8-bit types and
 * storage, buffer device address and the memory model. */
static void preset_base(spvgen_device_caps *c) {
  memset(c, 0, sizeof *c);
  c->type = SPVGEN_DEVICE_OTHER;
  c->api_version = SPVGEN_API_VERSION(1, 3, 0);
  c->max_spirv_version = SPVGEN_SPIRV_VERSION(1, 6);
  c->features = SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_INT8 | SPVGEN_FEATURE_INT16 |
                SPVGEN_FEATURE_INT64 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                SPVGEN_FEATURE_UNIFORM_16BIT | SPVGEN_FEATURE_STORAGE_BUFFER_8BIT |
                SPVGEN_FEATURE_UNIFORM_8BIT | SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS |
                SPVGEN_FEATURE_VULKAN_MEMORY_MODEL |
                SPVGEN_FEATURE_VULKAN_MEMORY_MODEL_DEVICE_SCOPE |
                SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL | SPVGEN_FEATURE_COMPUTE_FULL_SUBGROUPS |
                SPVGEN_FEATURE_SUBGROUP_EXTENDED_TYPES | SPVGEN_FEATURE_MAINTENANCE4 |
                SPVGEN_FEATURE_TIMESTAMPS;
  c->subgroup_size = c->min_subgroup_size = c->max_subgroup_size = 32;
  c->subgroup_operations = SPVGEN_SUBGROUP_BASIC | SPVGEN_SUBGROUP_VOTE |
                           SPVGEN_SUBGROUP_ARITHMETIC | SPVGEN_SUBGROUP_BALLOT |
                           SPVGEN_SUBGROUP_SHUFFLE | SPVGEN_SUBGROUP_SHUFFLE_RELATIVE |
                           SPVGEN_SUBGROUP_CLUSTERED | SPVGEN_SUBGROUP_QUAD;
  c->max_compute_workgroup_subgroups = 32;
  c->required_subgroup_size_in_compute = true;
  c->max_shared_memory = 32768;
  c->max_workgroup_invocations = 1024;
  c->max_workgroup_size[0] = 1024;
  c->max_workgroup_size[1] = 1024;
  c->max_workgroup_size[2] = 64;
  c->max_workgroup_count[0] = c->max_workgroup_count[1] = c->max_workgroup_count[2] = 65535;
  c->max_push_constants_size = 128;
  c->max_storage_buffer_range = 1u << 27;
  c->max_uniform_buffer_range = 65536;
  c->max_bound_descriptor_sets = 4;
  c->max_per_stage_storage_buffers = 16;
  c->min_storage_buffer_offset_alignment = 64;
  c->max_memory_allocation_size = 1ull << 30;
  c->max_buffer_size = 1ull << 30;
  c->timestamp_period = 1.0f;
  c->timestamp_valid_bits = 64;
}

static void preset_vulkan13(spvgen_device_caps *c) {
  preset_base(c);
  copy_str(c->name, sizeof c->name, "Vulkan 1.3 device without cooperative features");
  copy_str(c->driver_name, sizeof c->driver_name, "preset vulkan13");
}

/* Mesa 22.3.6 lavapipe (llvmpipe, LLVM 15) as `spvgen devices --json` reports it in CI
 * (Debian 12): subgroup size 8 (fixed), 32 KiB of shared memory, no clustered subgroup
 * operations. */
static void preset_lavapipe(spvgen_device_caps *c) {
  preset_base(c);
  copy_str(c->name, sizeof c->name, "llvmpipe (LLVM 15.0.6, 256 bits)");
  copy_str(c->driver_name, sizeof c->driver_name, "llvmpipe");
  copy_str(c->driver_info, sizeof c->driver_info, "Mesa 22.3.6 (LLVM 15.0.6)");
  c->type = SPVGEN_DEVICE_CPU;
  c->vendor_id = 0x10005;
  c->api_version = SPVGEN_API_VERSION(1, 3, 230);
  c->driver_version = 1;
  c->features |= SPVGEN_FEATURE_FLOAT64 | SPVGEN_FEATURE_PUSH_CONSTANT_16BIT |
                 SPVGEN_FEATURE_PUSH_CONSTANT_8BIT | SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD |
                 SPVGEN_FEATURE_SHADER_CLOCK;
  c->subgroup_size = c->min_subgroup_size = c->max_subgroup_size = 8;
  c->subgroup_operations &= ~SPVGEN_SUBGROUP_CLUSTERED;
  c->max_compute_workgroup_subgroups = 32;
  c->max_workgroup_size[2] = 1024;
  c->max_bound_descriptor_sets = 8;
  c->max_per_stage_storage_buffers = 32;
  c->min_storage_buffer_offset_alignment = 16;
  c->max_memory_allocation_size = 1ull << 31;
  c->max_buffer_size = 4294967295u;
  c->device_local_memory = 1ull << 31;
}

static void add_shape(spvgen_device_caps *c, uint32_t m, uint32_t n, uint32_t k,
                      spvgen_component_type ab, spvgen_component_type cr) {
  spvgen_coopmat_shape *s = &c->coopmat[c->coopmat_count++];
  s->m = m;
  s->n = n;
  s->k = k;
  s->a = s->b = ab;
  s->c = s->result = cr;
  s->saturating = false;
  s->scope = SpvScopeSubgroup;
}

static void add_flex(spvgen_device_caps *c, uint32_t m, uint32_t n, uint32_t k,
                     spvgen_component_type ab, spvgen_component_type cr, SpvScope scope,
                     uint32_t invocations) {
  spvgen_coopmat_flex *s = &c->coopmat_flex[c->coopmat_flex_count++];
  s->m_granularity = m;
  s->n_granularity = n;
  s->k_granularity = k;
  s->a = s->b = ab;
  s->c = s->result = cr;
  s->saturating = false;
  s->scope = scope;
  s->workgroup_invocations = invocations;
}

static void add_combo(spvgen_device_caps *c, spvgen_component_type in,
                      spvgen_component_type in_interp, spvgen_component_type mat,
                      spvgen_component_type bias, spvgen_component_type res, bool transpose) {
  spvgen_coopvec_combo *v = &c->coopvec[c->coopvec_count++];
  v->input = in;
  v->input_interpretation = in_interp;
  v->matrix_interpretation = mat;
  v->bias_interpretation = bias;
  v->result = res;
  v->transpose = transpose;
}

/* NVIDIA H100 80GB HBM3, driver 580.159, Vulkan 1.4.312: every value recorded in
 * shared/gpu/h100-vulkan-caps.txt. Limits that file does not list (workgroup counts,
 * push constant size, buffer ranges, allocation sizes) are NVIDIA's usual ones. */
static void preset_h100(spvgen_device_caps *c) {
  typedef spvgen_component_type T;
  const T f16 = SPVGEN_COMPONENT_F16, f32 = SPVGEN_COMPONENT_F32, s8 = SPVGEN_COMPONENT_S8,
          u8 = SPVGEN_COMPONENT_U8, s32 = SPVGEN_COMPONENT_S32, u32 = SPVGEN_COMPONENT_U32,
          bf16 = SPVGEN_COMPONENT_BF16, e4m3 = SPVGEN_COMPONENT_E4M3,
          e5m2 = SPVGEN_COMPONENT_E5M2, s8p = SPVGEN_COMPONENT_S8_PACKED,
          u8p = SPVGEN_COMPONENT_U8_PACKED;
  preset_base(c);
  copy_str(c->name, sizeof c->name, "NVIDIA H100 80GB HBM3");
  copy_str(c->driver_name, sizeof c->driver_name, "NVIDIA");
  copy_str(c->driver_info, sizeof c->driver_info, "580.159.04");
  c->vendor_id = 0x10de;
  c->device_id = 0x2330;
  c->type = SPVGEN_DEVICE_DISCRETE_GPU;
  c->api_version = SPVGEN_API_VERSION(1, 4, 312);
  c->driver_version = 2435301632u;
  c->features |= SPVGEN_FEATURE_FLOAT64 | SPVGEN_FEATURE_PUSH_CONSTANT_16BIT |
                 SPVGEN_FEATURE_PUSH_CONSTANT_8BIT | SPVGEN_FEATURE_COOPMAT |
                 SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE |
                 SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS | SPVGEN_FEATURE_COOPMAT2_REDUCTIONS |
                 SPVGEN_FEATURE_COOPMAT2_CONVERSIONS | SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS |
                 SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING | SPVGEN_FEATURE_COOPMAT2_BLOCK_LOADS |
                 SPVGEN_FEATURE_COOPVEC | SPVGEN_FEATURE_COOPVEC_TRAINING |
                 SPVGEN_FEATURE_BFLOAT16 | SPVGEN_FEATURE_BFLOAT16_COOPMAT |
                 SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD |
                 SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR | /* shaderFloat16VectorAtomics: driver 580 reports it */
                 SPVGEN_FEATURE_SHADER_CLOCK; /* shaderSubgroupClock: the device dump of call S18-2 */
  c->subgroup_operations |= SPVGEN_SUBGROUP_ROTATE | SPVGEN_SUBGROUP_ROTATE_CLUSTERED |
                            0x100u; /* measured 2047: also partitioned (NV) */
  c->max_shared_memory = 49152;
  /* the H100 SXM's 132 SMs, as the device printed them (tests/data/h100-devices.json):
   * what the GEMM planner's wave model spreads tiles over */
  c->compute_units = 132;
  c->max_workgroup_count[0] = 2147483647u;
  c->max_push_constants_size = 256;
  c->max_storage_buffer_range = 4294967295u;
  c->max_bound_descriptor_sets = 32;
  c->max_per_stage_storage_buffers = 1048576;
  c->min_storage_buffer_offset_alignment = 16;
  c->max_memory_allocation_size = 4292870144ull; /* measured: spvgen devices --json */
  c->max_buffer_size = 1ull << 40;
  c->device_local_memory = 85520809984ull;
  c->coopmat2_workgroup_scope_max_workgroup_size = 256;
  c->coopmat2_flexible_dimensions_max_dimension = 1024;
  c->coopmat2_workgroup_scope_reserved_shared_memory = 8192;
  c->coopmat_supported_stages = 0x20; /* compute */
  c->coopvec_supported_stages = 0x3fff;
  c->coopvec_max_components = 512; /* measured: spvgen devices --json, 2026-11-22 */
  c->coopvec_training_float16_accumulation = true;
  c->coopvec_training_float32_accumulation = false;

  add_shape(c, 16, 16, 16, f16, f16);
  add_shape(c, 16, 8, 16, f16, f16);
  add_shape(c, 16, 8, 8, f16, f16);
  add_shape(c, 16, 16, 16, f16, f32);
  add_shape(c, 16, 8, 16, f16, f32);
  add_shape(c, 16, 8, 8, f16, f32);
  add_shape(c, 16, 16, 32, u8, u32);
  add_shape(c, 16, 16, 32, s8, s32);
  add_shape(c, 16, 8, 32, u8, u32);
  add_shape(c, 16, 8, 32, s8, s32);
  add_shape(c, 16, 16, 16, bf16, f32);

  static const struct {
    uint32_t m, n, k;
    SpvScope scope;
    uint32_t invocations;
  } granules[] = {
      {16, 16, 16, SpvScopeSubgroup, 0},    {16, 16, 16, SpvScopeWorkgroup, 32},
      {16, 16, 16, SpvScopeWorkgroup, 64},  {32, 16, 16, SpvScopeWorkgroup, 128},
      {32, 32, 16, SpvScopeWorkgroup, 256},
  };
  for (size_t g = 0; g < sizeof granules / sizeof granules[0]; g++) {
    uint32_t m = granules[g].m, n = granules[g].n, k = granules[g].k;
    SpvScope sc = granules[g].scope;
    uint32_t inv = granules[g].invocations;
    add_flex(c, m, n, k, f16, f16, sc, inv);
    add_flex(c, m, n, k, f16, f32, sc, inv);
    add_flex(c, m, n, 2 * k, u8, u32, sc, inv);
    add_flex(c, m, n, 2 * k, s8, s32, sc, inv);
    add_flex(c, m, n, k, bf16, f32, sc, inv);
  }

  add_combo(c, f16, f16, f16, f16, f16, true);
  add_combo(c, s8, s8, s8, s32, s32, false);
  add_combo(c, s32, s8, s8, s32, s32, false);
  add_combo(c, f32, s8, s8, s32, s32, false);
  add_combo(c, u32, s8p, s8, s32, s32, false);
  add_combo(c, u8, u8, s8, s32, s32, false);
  add_combo(c, s32, u8, s8, s32, s32, false);
  add_combo(c, u32, u8p, s8, s32, s32, false);
  add_combo(c, u8, u8, u8, s32, s32, false);
  add_combo(c, s32, u8, u8, s32, s32, false);
  add_combo(c, u32, u8p, u8, s32, s32, false);
  add_combo(c, s8, s8, u8, s32, s32, false);
  add_combo(c, s32, s8, u8, s32, s32, false);
  add_combo(c, u32, s8p, u8, s32, s32, false);
  add_combo(c, f16, e4m3, e4m3, f16, f16, false);
  add_combo(c, f16, e5m2, e5m2, f16, f16, false);
}

static const char *const preset_names[] = {"h100", "vulkan13", "lavapipe", NULL};

const char *const *spvgen_caps_preset_names(void) { return preset_names; }

spvgen_status spvgen_caps_preset(const char *name, spvgen_device_caps *out) {
  if (!name || !out) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!strcmp(name, "h100")) preset_h100(out);
  else if (!strcmp(name, "vulkan13")) preset_vulkan13(out);
  else if (!strcmp(name, "lavapipe")) preset_lavapipe(out);
  else return SPVGEN_ERROR_INVALID_ARGUMENT;
  return SPVGEN_OK;
}

/* ------------------------------------------------------------ caps check ---- */

/* The message "spvgen_caps_check: FIELD ...: WHY"; false. */
static bool caps_refuse(char *message, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool caps_refuse(char *message, size_t size, const char *fmt, ...) {
  if (message && size) {
    int n = snprintf(message, size, "spvgen_caps_check: ");
    if (n > 0 && (size_t)n < size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(message + n, size - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  return false;
}

static bool pow2_upto(uint32_t v, uint32_t max) { return v && v <= max && !(v & (v - 1)); }

static bool component_known(spvgen_component_type t) {
  return (uint32_t)t <= (uint32_t)SPVGEN_COMPONENT_UNKNOWN;
}

static bool scope_known(SpvScope s) {
  return s == SpvScopeDevice || s == SpvScopeWorkgroup || s == SpvScopeSubgroup;
}

/* The limits every source of caps is held to (see spvgen_caps_check in spvgen/caps.h). */
#define CAPS_MAX_SHAPE 256u           /* a fragment's M, N or K; a granularity */
#define CAPS_MAX_SUBGROUP 128u
#define CAPS_MAX_INVOCATIONS 65536u   /* per workgroup (real devices: 1024) */
#define CAPS_MAX_GROUPS 0x7FFFFFFFu   /* workgroups per dimension */
#define CAPS_MAX_SHARED (1u << 30)    /* bytes of shared memory */
#define CAPS_MAX_PUSH (1u << 16)      /* bytes of push constants */

/* A bool field's byte is 0 or 1: a struct filled from elsewhere (memset with a pattern,
 * a cast buffer) may hold any byte there, and reading it as a bool would be undefined. */
static bool bool_ok(const bool *field) {
  uint8_t byte;
  memcpy(&byte, field, 1);
  return byte <= 1;
}

static bool caps_valid(const spvgen_device_caps *c, char *m, size_t z) {
  static const char *const strings[] = {"name", "driver_name", "driver_info"};
  const char *const fields[] = {c->name, c->driver_name, c->driver_info};
  for (int i = 0; i < 3; i++)
    if (!memchr(fields[i], 0, sizeof c->name))
      return caps_refuse(m, z, "%s is not NUL-terminated within its %zu bytes", strings[i],
                         sizeof c->name);
  const char *dev = c->name;
  const struct {
    const bool *field;
    const char *name;
  } bools[] = {{&c->required_subgroup_size_in_compute, "required_subgroup_size_in_compute"},
               {&c->coopvec_training_float16_accumulation, "coopvec_training_float16_accumulation"},
               {&c->coopvec_training_float32_accumulation, "coopvec_training_float32_accumulation"},
               {&c->lists_truncated, "lists_truncated"}};
  for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
    if (!bool_ok(bools[i].field)) return caps_refuse(m, z, "%s: %s is not a bool (0 or 1)", dev, bools[i].name);
  if (c->subgroup_size && !pow2_upto(c->subgroup_size, CAPS_MAX_SUBGROUP))
    return caps_refuse(m, z, "%s: subgroup_size %u is not a power of two from 1 to %u (0: unknown)",
                       dev, c->subgroup_size, CAPS_MAX_SUBGROUP);
  if (c->min_subgroup_size && !pow2_upto(c->min_subgroup_size, CAPS_MAX_SUBGROUP))
    return caps_refuse(m, z, "%s: min_subgroup_size %u is not a power of two from 1 to %u (0: unknown)",
                       dev, c->min_subgroup_size, CAPS_MAX_SUBGROUP);
  if (c->max_subgroup_size && !pow2_upto(c->max_subgroup_size, CAPS_MAX_SUBGROUP))
    return caps_refuse(m, z, "%s: max_subgroup_size %u is not a power of two from 1 to %u (0: unknown)",
                       dev, c->max_subgroup_size, CAPS_MAX_SUBGROUP);
  if (c->min_subgroup_size && c->max_subgroup_size && c->min_subgroup_size > c->max_subgroup_size)
    return caps_refuse(m, z, "%s: min_subgroup_size %u is over max_subgroup_size %u", dev,
                       c->min_subgroup_size, c->max_subgroup_size);
  if (c->subgroup_size && c->min_subgroup_size && c->max_subgroup_size &&
      (c->subgroup_size < c->min_subgroup_size || c->subgroup_size > c->max_subgroup_size))
    return caps_refuse(m, z, "%s: subgroup_size %u is outside min_subgroup_size %u .. max_subgroup_size %u",
                       dev, c->subgroup_size, c->min_subgroup_size, c->max_subgroup_size);
  if (!c->max_workgroup_invocations || c->max_workgroup_invocations > CAPS_MAX_INVOCATIONS)
    return caps_refuse(m, z, "%s: max_workgroup_invocations %u is not 1 to %u", dev,
                       c->max_workgroup_invocations, CAPS_MAX_INVOCATIONS);
  for (int i = 0; i < 3; i++) {
    if (!c->max_workgroup_size[i] || c->max_workgroup_size[i] > CAPS_MAX_INVOCATIONS)
      return caps_refuse(m, z, "%s: max_workgroup_size[%d] %u is not 1 to %u", dev, i,
                         c->max_workgroup_size[i], CAPS_MAX_INVOCATIONS);
    if (!c->max_workgroup_count[i] || c->max_workgroup_count[i] > CAPS_MAX_GROUPS)
      return caps_refuse(m, z, "%s: max_workgroup_count[%d] %u is not 1 to %u", dev, i,
                         c->max_workgroup_count[i], CAPS_MAX_GROUPS);
  }
  if (c->max_shared_memory > CAPS_MAX_SHARED)
    return caps_refuse(m, z, "%s: max_shared_memory %u is over %u bytes", dev, c->max_shared_memory,
                       CAPS_MAX_SHARED);
  if (c->max_push_constants_size > CAPS_MAX_PUSH)
    return caps_refuse(m, z, "%s: max_push_constants_size %u is over %u bytes", dev,
                       c->max_push_constants_size, CAPS_MAX_PUSH);
  if (c->coopmat2_workgroup_scope_max_workgroup_size > CAPS_MAX_INVOCATIONS)
    return caps_refuse(m, z, "%s: coopmat2_workgroup_scope_max_workgroup_size %u is over %u", dev,
                       c->coopmat2_workgroup_scope_max_workgroup_size, CAPS_MAX_INVOCATIONS);
  if (c->coopmat_count > SPVGEN_MAX_COOPMAT_SHAPES)
    return caps_refuse(m, z, "%s: coopmat_count %u is over SPVGEN_MAX_COOPMAT_SHAPES (%d)", dev,
                       c->coopmat_count, SPVGEN_MAX_COOPMAT_SHAPES);
  if (c->coopmat_flex_count > SPVGEN_MAX_COOPMAT_FLEX)
    return caps_refuse(m, z, "%s: coopmat_flex_count %u is over SPVGEN_MAX_COOPMAT_FLEX (%d)", dev,
                       c->coopmat_flex_count, SPVGEN_MAX_COOPMAT_FLEX);
  if (c->coopvec_count > SPVGEN_MAX_COOPVEC_COMBOS)
    return caps_refuse(m, z, "%s: coopvec_count %u is over SPVGEN_MAX_COOPVEC_COMBOS (%d)", dev,
                       c->coopvec_count, SPVGEN_MAX_COOPVEC_COMBOS);
  for (uint32_t i = 0; i < c->coopmat_count; i++) {
    const spvgen_coopmat_shape *s = &c->coopmat[i];
    const uint32_t v[3] = {s->m, s->n, s->k};
    for (int d = 0; d < 3; d++)
      if (!v[d] || v[d] > CAPS_MAX_SHAPE)
        return caps_refuse(m, z, "%s: coopmat[%u].%c %u is not 1 to %u", dev, i, "mnk"[d], v[d],
                           CAPS_MAX_SHAPE);
    if (!component_known(s->a) || !component_known(s->b) || !component_known(s->c) ||
        !component_known(s->result))
      return caps_refuse(m, z, "%s: coopmat[%u] has a component type outside spvgen_component_type",
                         dev, i);
    if (!scope_known(s->scope))
      return caps_refuse(m, z, "%s: coopmat[%u].scope %d is not device, workgroup or subgroup", dev, i,
                         (int)s->scope);
    if (!bool_ok(&s->saturating)) return caps_refuse(m, z, "%s: coopmat[%u].saturating is not a bool (0 or 1)", dev, i);
  }
  for (uint32_t i = 0; i < c->coopmat_flex_count; i++) {
    const spvgen_coopmat_flex *s = &c->coopmat_flex[i];
    const uint32_t v[3] = {s->m_granularity, s->n_granularity, s->k_granularity};
    for (int d = 0; d < 3; d++)
      if (!v[d] || v[d] > CAPS_MAX_SHAPE)
        return caps_refuse(m, z, "%s: coopmat_flex[%u].%c_granularity %u is not 1 to %u", dev, i,
                           "mnk"[d], v[d], CAPS_MAX_SHAPE);
    if (s->workgroup_invocations > CAPS_MAX_INVOCATIONS)
      return caps_refuse(m, z, "%s: coopmat_flex[%u].workgroup_invocations %u is over %u", dev, i,
                         s->workgroup_invocations, CAPS_MAX_INVOCATIONS);
    if (!component_known(s->a) || !component_known(s->b) || !component_known(s->c) ||
        !component_known(s->result))
      return caps_refuse(m, z,
                         "%s: coopmat_flex[%u] has a component type outside spvgen_component_type",
                         dev, i);
    if (!scope_known(s->scope))
      return caps_refuse(m, z, "%s: coopmat_flex[%u].scope %d is not device, workgroup or subgroup",
                         dev, i, (int)s->scope);
    if (!bool_ok(&s->saturating))
      return caps_refuse(m, z, "%s: coopmat_flex[%u].saturating is not a bool (0 or 1)", dev, i);
  }
  for (uint32_t i = 0; i < c->coopvec_count; i++) {
    const spvgen_coopvec_combo *v = &c->coopvec[i];
    if (!component_known(v->input) || !component_known(v->input_interpretation) ||
        !component_known(v->matrix_interpretation) || !component_known(v->bias_interpretation) ||
        !component_known(v->result))
      return caps_refuse(m, z, "%s: coopvec[%u] has a component type outside spvgen_component_type",
                         dev, i);
    if (!bool_ok(&v->transpose)) return caps_refuse(m, z, "%s: coopvec[%u].transpose is not a bool (0 or 1)", dev, i);
  }
  return true;
}

spvgen_status spvgen_caps_check(const spvgen_device_caps *caps, char *message, size_t message_size) {
  if (message && message_size) message[0] = 0;
  if (!caps) {
    caps_refuse(message, message_size, "caps is NULL");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  return caps_valid(caps, message, message_size) ? SPVGEN_OK : SPVGEN_ERROR_INVALID_ARGUMENT;
}
