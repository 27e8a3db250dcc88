/* lib/core/vk_capabilities.c — which SPIR-V capabilities Vulkan allows, and what enables
 * each: the one table behind the builder's capability inference (infer.c), the Vulkan
 * check of spvgen_validate (lib/check) and the runner's SPIR-V reader (lib/vk/reflect.c).
 *
 * The facts are those of the Vulkan specification's "SPIR-V Environment" appendix
 * (chapters/appendices/spirvenv.adoc, its Capabilities table; machine-readable as the
 * <spirvcapabilities> of vk.xml), as of Vulkan 1.4.309, plus the capabilities of four
 * extensions added later: bfloat16 and float8 (VK_KHR_shader_bfloat16,
 * VK_EXT_shader_float8; given by value, the 1.4.309 SPIR-V headers lack them),
 * CooperativeMatrixLayoutsARM (VK_ARM_cooperative_matrix_layouts) and UntypedPointersKHR
 * (VK_KHR_shader_untyped_pointers). A capability that is not here is one no Vulkan
 * version or extension enables: Kernel, Addresses, Linkage, Vector16, Float16Buffer,
 * Groups, the OpenCL image and pipe capabilities, the INTEL FPGA ones, ...
 *
 * Kinds (spvgen_vk_capability_kind):
 *   CORE      enabled by the Vulkan version alone (no feature)
 *   FEATURE   enabled by one device feature that spvgen tracks (an SPVGEN_FEATURE_ bit)
 *   SUBGROUP  enabled by subgroup operation bits (subgroupSupportedOperations)
 *   UNTRACKED enabled by a feature, property or extension that spvgen neither queries nor
 *             enables; `enabled_by` names it.
 * The table is sorted by capability value (tests/core/test_vk_capabilities.c checks it
 * and checks every name against the grammar). */
#include <stddef.h>

#include "internal.h"
#include "spvgen/caps.h"

#define V(major, minor) SPVGEN_API_VERSION(major, minor, 0)
/* Capability value, name, and the name as messages use it. */
#define C(v, name) (v), #name, "capability " #name
#define CORE(v, name, major, minor, by) \
  {C(v, name), SPVGEN_VK_CAP_CORE, V(major, minor), 0, 0, by}
#define FEAT(v, name, version, feature, by) \
  {C(v, name), SPVGEN_VK_CAP_FEATURE, version, feature, 0, by}
#define SUBGROUP(v, name, version, ops, by) \
  {C(v, name), SPVGEN_VK_CAP_SUBGROUP, version, 0, ops, by}
#define OTHER(v, name, version, by) {C(v, name), SPVGEN_VK_CAP_UNTRACKED, version, 0, 0, by}

static const spvgen_vk_capability table[] = {
    CORE(0, Matrix, 1, 0, "Vulkan 1.0"),
    CORE(1, Shader, 1, 0, "Vulkan 1.0"),
    OTHER(2, Geometry, V(1, 0), "geometryShader (Vulkan 1.0 feature)"),
    OTHER(3, Tessellation, V(1, 0), "tessellationShader (Vulkan 1.0 feature)"),
    FEAT(9, Float16, V(1, 2), SPVGEN_FEATURE_FLOAT16,
         "shaderFloat16 (Vulkan 1.2, VK_KHR_shader_float16_int8), or VK_AMD_gpu_shader_half_float"),
    FEAT(10, Float64, V(1, 0), SPVGEN_FEATURE_FLOAT64, "shaderFloat64 (Vulkan 1.0 feature)"),
    FEAT(11, Int64, V(1, 0), SPVGEN_FEATURE_INT64, "shaderInt64 (Vulkan 1.0 feature)"),
    OTHER(12, Int64Atomics, V(1, 2),
          "shaderBufferInt64Atomics or shaderSharedInt64Atomics (Vulkan 1.2, "
          "VK_KHR_shader_atomic_int64), or shaderImageInt64Atomics "
          "(VK_EXT_shader_image_atomic_int64)"),
    FEAT(22, Int16, V(1, 0), SPVGEN_FEATURE_INT16, "shaderInt16 (Vulkan 1.0 feature)"),
    OTHER(23, TessellationPointSize, V(1, 0),
          "shaderTessellationAndGeometryPointSize (Vulkan 1.0 feature)"),
    OTHER(24, GeometryPointSize, V(1, 0),
          "shaderTessellationAndGeometryPointSize (Vulkan 1.0 feature)"),
    OTHER(25, ImageGatherExtended, V(1, 0), "shaderImageGatherExtended (Vulkan 1.0 feature)"),
    OTHER(27, StorageImageMultisample, V(1, 0),
          "shaderStorageImageMultisample (Vulkan 1.0 feature)"),
    OTHER(28, UniformBufferArrayDynamicIndexing, V(1, 0),
          "shaderUniformBufferArrayDynamicIndexing (Vulkan 1.0 feature)"),
    OTHER(29, SampledImageArrayDynamicIndexing, V(1, 0),
          "shaderSampledImageArrayDynamicIndexing (Vulkan 1.0 feature)"),
    OTHER(30, StorageBufferArrayDynamicIndexing, V(1, 0),
          "shaderStorageBufferArrayDynamicIndexing (Vulkan 1.0 feature)"),
    OTHER(31, StorageImageArrayDynamicIndexing, V(1, 0),
          "shaderStorageImageArrayDynamicIndexing (Vulkan 1.0 feature)"),
    OTHER(32, ClipDistance, V(1, 0), "shaderClipDistance (Vulkan 1.0 feature)"),
    OTHER(33, CullDistance, V(1, 0), "shaderCullDistance (Vulkan 1.0 feature)"),
    OTHER(34, ImageCubeArray, V(1, 0), "imageCubeArray (Vulkan 1.0 feature)"),
    OTHER(35, SampleRateShading, V(1, 0), "sampleRateShading (Vulkan 1.0 feature)"),
    FEAT(39, Int8, V(1, 2), SPVGEN_FEATURE_INT8,
         "shaderInt8 (Vulkan 1.2, VK_KHR_shader_float16_int8)"),
    CORE(40, InputAttachment, 1, 0, "Vulkan 1.0"),
    OTHER(41, SparseResidency, V(1, 0), "shaderResourceResidency (Vulkan 1.0 feature)"),
    OTHER(42, MinLod, V(1, 0), "shaderResourceMinLod (Vulkan 1.0 feature)"),
    CORE(43, Sampled1D, 1, 0, "Vulkan 1.0"),
    CORE(44, Image1D, 1, 0, "Vulkan 1.0"),
    OTHER(45, SampledCubeArray, V(1, 0), "imageCubeArray (Vulkan 1.0 feature)"),
    CORE(46, SampledBuffer, 1, 0, "Vulkan 1.0"),
    CORE(47, ImageBuffer, 1, 0, "Vulkan 1.0"),
    OTHER(48, ImageMSArray, V(1, 0), "shaderStorageImageMultisample (Vulkan 1.0 feature)"),
    CORE(49, StorageImageExtendedFormats, 1, 0, "Vulkan 1.0"),
    CORE(50, ImageQuery, 1, 0, "Vulkan 1.0"),
    CORE(51, DerivativeControl, 1, 0, "Vulkan 1.0"),
    OTHER(52, InterpolationFunction, V(1, 0), "sampleRateShading (Vulkan 1.0 feature)"),
    OTHER(53, TransformFeedback, 0, "transformFeedback (VK_EXT_transform_feedback)"),
    OTHER(54, GeometryStreams, 0, "geometryStreams (VK_EXT_transform_feedback)"),
    /* Core in 1.3; before, the shaderStorageImage*WithoutFormat feature. */
    CORE(55, StorageImageReadWithoutFormat, 1, 3,
         "Vulkan 1.3 or VK_KHR_format_feature_flags2, or shaderStorageImageReadWithoutFormat"),
    CORE(56, StorageImageWriteWithoutFormat, 1, 3,
         "Vulkan 1.3 or VK_KHR_format_feature_flags2, or shaderStorageImageWriteWithoutFormat"),
    OTHER(57, MultiViewport, V(1, 0), "multiViewport (Vulkan 1.0 feature)"),
    SUBGROUP(61, GroupNonUniform, V(1, 1), SPVGEN_SUBGROUP_BASIC,
             "subgroupSupportedOperations BASIC (Vulkan 1.1)"),
    SUBGROUP(62, GroupNonUniformVote, V(1, 1), SPVGEN_SUBGROUP_VOTE,
             "subgroupSupportedOperations VOTE (Vulkan 1.1)"),
    SUBGROUP(63, GroupNonUniformArithmetic, V(1, 1), SPVGEN_SUBGROUP_ARITHMETIC,
             "subgroupSupportedOperations ARITHMETIC (Vulkan 1.1)"),
    SUBGROUP(64, GroupNonUniformBallot, V(1, 1), SPVGEN_SUBGROUP_BALLOT,
             "subgroupSupportedOperations BALLOT (Vulkan 1.1)"),
    SUBGROUP(65, GroupNonUniformShuffle, V(1, 1), SPVGEN_SUBGROUP_SHUFFLE,
             "subgroupSupportedOperations SHUFFLE (Vulkan 1.1)"),
    SUBGROUP(66, GroupNonUniformShuffleRelative, V(1, 1), SPVGEN_SUBGROUP_SHUFFLE_RELATIVE,
             "subgroupSupportedOperations SHUFFLE_RELATIVE (Vulkan 1.1)"),
    SUBGROUP(67, GroupNonUniformClustered, V(1, 1), SPVGEN_SUBGROUP_CLUSTERED,
             "subgroupSupportedOperations CLUSTERED (Vulkan 1.1)"),
    SUBGROUP(68, GroupNonUniformQuad, V(1, 1), SPVGEN_SUBGROUP_QUAD,
             "subgroupSupportedOperations QUAD (Vulkan 1.1)"),
    OTHER(69, ShaderLayer, V(1, 2), "shaderOutputLayer (Vulkan 1.2 feature)"),
    OTHER(70, ShaderViewportIndex, V(1, 2), "shaderOutputViewportIndex (Vulkan 1.2 feature)"),
    OTHER(4165, CoreBuiltinsARM, 0, "shaderCoreBuiltins (VK_ARM_shader_core_builtins)"),
    OTHER(4166, TileImageColorReadAccessEXT, 0,
          "shaderTileImageColorReadAccess (VK_EXT_shader_tile_image)"),
    OTHER(4167, TileImageDepthReadAccessEXT, 0,
          "shaderTileImageDepthReadAccess (VK_EXT_shader_tile_image)"),
    OTHER(4168, TileImageStencilReadAccessEXT, 0,
          "shaderTileImageStencilReadAccess (VK_EXT_shader_tile_image)"),
    OTHER(4201, CooperativeMatrixLayoutsARM, 0,
          "cooperativeMatrixLayouts (VK_ARM_cooperative_matrix_layouts)"),
    FEAT(4212, Float8EXT, 0, SPVGEN_FEATURE_FLOAT8, "shaderFloat8 (VK_EXT_shader_float8)"),
    FEAT(4213, Float8CooperativeMatrixEXT, 0, SPVGEN_FEATURE_FLOAT8_COOPMAT,
         "shaderFloat8CooperativeMatrix (VK_EXT_shader_float8)"),
    OTHER(4422, FragmentShadingRateKHR, 0,
          "pipeline, primitive or attachment FragmentShadingRate (VK_KHR_fragment_shading_rate)"),
    OTHER(4423, SubgroupBallotKHR, 0, "VK_EXT_shader_subgroup_ballot"),
    OTHER(4427, DrawParameters, V(1, 1),
          "shaderDrawParameters (Vulkan 1.1 feature), or VK_KHR_shader_draw_parameters"),
    OTHER(4428, WorkgroupMemoryExplicitLayoutKHR, 0,
          "workgroupMemoryExplicitLayout (VK_KHR_workgroup_memory_explicit_layout)"),
    OTHER(4429, WorkgroupMemoryExplicitLayout8BitAccessKHR, 0,
          "workgroupMemoryExplicitLayout8BitAccess (VK_KHR_workgroup_memory_explicit_layout)"),
    OTHER(4430, WorkgroupMemoryExplicitLayout16BitAccessKHR, 0,
          "workgroupMemoryExplicitLayout16BitAccess (VK_KHR_workgroup_memory_explicit_layout)"),
    OTHER(4431, SubgroupVoteKHR, 0, "VK_EXT_shader_subgroup_vote"),
    FEAT(4433, StorageBuffer16BitAccess, V(1, 1), SPVGEN_FEATURE_STORAGE_BUFFER_16BIT,
         "storageBuffer16BitAccess (Vulkan 1.1, VK_KHR_16bit_storage)"),
    FEAT(4434, UniformAndStorageBuffer16BitAccess, V(1, 1), SPVGEN_FEATURE_UNIFORM_16BIT,
         "uniformAndStorageBuffer16BitAccess (Vulkan 1.1, VK_KHR_16bit_storage)"),
    FEAT(4435, StoragePushConstant16, V(1, 1), SPVGEN_FEATURE_PUSH_CONSTANT_16BIT,
         "storagePushConstant16 (Vulkan 1.1, VK_KHR_16bit_storage)"),
    OTHER(4436, StorageInputOutput16, V(1, 1),
          "storageInputOutput16 (Vulkan 1.1, VK_KHR_16bit_storage)"),
    CORE(4437, DeviceGroup, 1, 1, "Vulkan 1.1 or VK_KHR_device_group"),
    OTHER(4439, MultiView, V(1, 1), "multiview (Vulkan 1.1, VK_KHR_multiview)"),
    OTHER(4441, VariablePointersStorageBuffer, V(1, 1),
          "variablePointersStorageBuffer (Vulkan 1.1, VK_KHR_variable_pointers)"),
    OTHER(4442, VariablePointers, V(1, 1),
          "variablePointers (Vulkan 1.1, VK_KHR_variable_pointers)"),
    OTHER(4447, SampleMaskPostDepthCoverage, 0, "VK_EXT_post_depth_coverage"),
    FEAT(4448, StorageBuffer8BitAccess, V(1, 2), SPVGEN_FEATURE_STORAGE_BUFFER_8BIT,
         "storageBuffer8BitAccess (Vulkan 1.2, VK_KHR_8bit_storage)"),
    FEAT(4449, UniformAndStorageBuffer8BitAccess, V(1, 2), SPVGEN_FEATURE_UNIFORM_8BIT,
         "uniformAndStorageBuffer8BitAccess (Vulkan 1.2, VK_KHR_8bit_storage)"),
    FEAT(4450, StoragePushConstant8, V(1, 2), SPVGEN_FEATURE_PUSH_CONSTANT_8BIT,
         "storagePushConstant8 (Vulkan 1.2, VK_KHR_8bit_storage)"),
    OTHER(4464, DenormPreserve, V(1, 2),
          "the shaderDenormPreserveFloat16/32/64 property (Vulkan 1.2, "
          "VK_KHR_shader_float_controls)"),
    OTHER(4465, DenormFlushToZero, V(1, 2),
          "the shaderDenormFlushToZeroFloat16/32/64 property (Vulkan 1.2, "
          "VK_KHR_shader_float_controls)"),
    OTHER(4466, SignedZeroInfNanPreserve, V(1, 2),
          "the shaderSignedZeroInfNanPreserveFloat16/32/64 property (Vulkan 1.2, "
          "VK_KHR_shader_float_controls)"),
    OTHER(4467, RoundingModeRTE, V(1, 2),
          "the shaderRoundingModeRTEFloat16/32/64 property (Vulkan 1.2, "
          "VK_KHR_shader_float_controls)"),
    OTHER(4468, RoundingModeRTZ, V(1, 2),
          "the shaderRoundingModeRTZFloat16/32/64 property (Vulkan 1.2, "
          "VK_KHR_shader_float_controls)"),
    OTHER(4472, RayQueryKHR, 0, "rayQuery (VK_KHR_ray_query)"),
    OTHER(4473, UntypedPointersKHR, 0, "shaderUntypedPointers (VK_KHR_shader_untyped_pointers)"),
    OTHER(4478, RayTraversalPrimitiveCullingKHR, 0,
          "rayTraversalPrimitiveCulling (VK_KHR_ray_tracing_pipeline) or rayQuery "
          "(VK_KHR_ray_query)"),
    OTHER(4479, RayTracingKHR, 0, "rayTracingPipeline (VK_KHR_ray_tracing_pipeline)"),
    OTHER(4484, TextureSampleWeightedQCOM, 0, "textureSampleWeighted (VK_QCOM_image_processing)"),
    OTHER(4485, TextureBoxFilterQCOM, 0, "textureBoxFilter (VK_QCOM_image_processing)"),
    OTHER(4486, TextureBlockMatchQCOM, 0, "textureBlockMatch (VK_QCOM_image_processing)"),
    OTHER(4498, TextureBlockMatch2QCOM, 0, "textureBlockMatch2 (VK_QCOM_image_processing2)"),
    OTHER(5009, ImageGatherBiasLodAMD, 0, "VK_AMD_texture_gather_bias_lod"),
    OTHER(5010, FragmentMaskAMD, 0, "VK_AMD_shader_fragment_mask"),
    OTHER(5013, StencilExportEXT, 0, "VK_EXT_shader_stencil_export"),
    OTHER(5015, ImageReadWriteLodAMD, 0, "VK_AMD_shader_image_load_store_lod"),
    OTHER(5016, Int64ImageEXT, 0, "shaderImageInt64Atomics (VK_EXT_shader_image_atomic_int64)"),
    FEAT(5055, ShaderClockKHR, 0, SPVGEN_FEATURE_SHADER_CLOCK, "shaderSubgroupClock (VK_KHR_shader_clock)"),
    OTHER(5067, ShaderEnqueueAMDX, 0, "shaderEnqueue (VK_AMDX_shader_enqueue)"),
    OTHER(5087, QuadControlKHR, 0, "shaderQuadControl (VK_KHR_shader_quad_control)"),
    FEAT(5116, BFloat16TypeKHR, 0, SPVGEN_FEATURE_BFLOAT16,
         "shaderBFloat16Type (VK_KHR_shader_bfloat16)"),
    FEAT(5117, BFloat16DotProductKHR, 0, SPVGEN_FEATURE_BFLOAT16_DOT_PRODUCT,
         "shaderBFloat16DotProduct (VK_KHR_shader_bfloat16)"),
    FEAT(5118, BFloat16CooperativeMatrixKHR, 0, SPVGEN_FEATURE_BFLOAT16_COOPMAT,
         "shaderBFloat16CooperativeMatrix (VK_KHR_shader_bfloat16)"),
    OTHER(5249, SampleMaskOverrideCoverageNV, 0, "VK_NV_sample_mask_override_coverage"),
    OTHER(5251, GeometryShaderPassthroughNV, 0, "VK_NV_geometry_shader_passthrough"),
    OTHER(5254, ShaderViewportIndexLayerEXT, 0,
          "VK_EXT_shader_viewport_index_layer or VK_NV_viewport_array2"),
    OTHER(5255, ShaderViewportMaskNV, 0, "VK_NV_viewport_array2"),
    OTHER(5260, PerViewAttributesNV, 0, "VK_NVX_multiview_per_view_attributes"),
    OTHER(5265, FragmentFullyCoveredEXT, 0, "VK_EXT_conservative_rasterization"),
    OTHER(5266, MeshShadingNV, 0, "VK_NV_mesh_shader"),
    OTHER(5282, ImageFootprintNV, 0, "imageFootprint (VK_NV_shader_image_footprint)"),
    OTHER(5283, MeshShadingEXT, 0, "VK_EXT_mesh_shader"),
    OTHER(5284, FragmentBarycentricKHR, 0,
          "fragmentShaderBarycentric (VK_KHR_fragment_shader_barycentric or "
          "VK_NV_fragment_shader_barycentric)"),
    OTHER(5288, ComputeDerivativeGroupQuadsKHR, 0,
          "computeDerivativeGroupQuads (VK_KHR_compute_shader_derivatives or "
          "VK_NV_compute_shader_derivatives)"),
    OTHER(5291, FragmentDensityEXT, 0,
          "fragmentDensityMap (VK_EXT_fragment_density_map) or shadingRateImage "
          "(VK_NV_shading_rate_image)"),
    SUBGROUP(5297, GroupNonUniformPartitionedNV, 0, SPVGEN_SUBGROUP_PARTITIONED_NV,
             "subgroupSupportedOperations PARTITIONED_NV (VK_NV_shader_subgroup_partitioned)"),
    CORE(5301, ShaderNonUniform, 1, 2, "Vulkan 1.2 or VK_EXT_descriptor_indexing"),
    OTHER(5302, RuntimeDescriptorArray, V(1, 2),
          "runtimeDescriptorArray (Vulkan 1.2, VK_EXT_descriptor_indexing)"),
    OTHER(5303, InputAttachmentArrayDynamicIndexing, V(1, 2),
          "shaderInputAttachmentArrayDynamicIndexing (Vulkan 1.2, VK_EXT_descriptor_indexing)"),
    OTHER(5304, UniformTexelBufferArrayDynamicIndexing, V(1, 2),
          "shaderUniformTexelBufferArrayDynamicIndexing (Vulkan 1.2, "
          "VK_EXT_descriptor_indexing)"),
    OTHER(5305, StorageTexelBufferArrayDynamicIndexing, V(1, 2),
          "shaderStorageTexelBufferArrayDynamicIndexing (Vulkan 1.2, "
          "VK_EXT_descriptor_indexing)"),
    OTHER(5306, UniformBufferArrayNonUniformIndexing, V(1, 2),
          "shaderUniformBufferArrayNonUniformIndexing (Vulkan 1.2, VK_EXT_descriptor_indexing)"),
    OTHER(5307, SampledImageArrayNonUniformIndexing, V(1, 2),
          "shaderSampledImageArrayNonUniformIndexing (Vulkan 1.2, VK_EXT_descriptor_indexing)"),
    OTHER(5308, StorageBufferArrayNonUniformIndexing, V(1, 2),
          "shaderStorageBufferArrayNonUniformIndexing (Vulkan 1.2, VK_EXT_descriptor_indexing)"),
    OTHER(5309, StorageImageArrayNonUniformIndexing, V(1, 2),
          "shaderStorageImageArrayNonUniformIndexing (Vulkan 1.2, VK_EXT_descriptor_indexing)"),
    OTHER(5310, InputAttachmentArrayNonUniformIndexing, V(1, 2),
          "shaderInputAttachmentArrayNonUniformIndexing (Vulkan 1.2, "
          "VK_EXT_descriptor_indexing)"),
    OTHER(5311, UniformTexelBufferArrayNonUniformIndexing, V(1, 2),
          "shaderUniformTexelBufferArrayNonUniformIndexing (Vulkan 1.2, "
          "VK_EXT_descriptor_indexing)"),
    OTHER(5312, StorageTexelBufferArrayNonUniformIndexing, V(1, 2),
          "shaderStorageTexelBufferArrayNonUniformIndexing (Vulkan 1.2, "
          "VK_EXT_descriptor_indexing)"),
    OTHER(5336, RayTracingPositionFetchKHR, 0,
          "rayTracingPositionFetch (VK_KHR_ray_tracing_position_fetch)"),
    OTHER(5340, RayTracingNV, 0, "VK_NV_ray_tracing"),
    OTHER(5341, RayTracingMotionBlurNV, 0, "rayTracingMotionBlur (VK_NV_ray_tracing_motion_blur)"),
    FEAT(5345, VulkanMemoryModel, V(1, 2), SPVGEN_FEATURE_VULKAN_MEMORY_MODEL,
         "vulkanMemoryModel (Vulkan 1.2, VK_KHR_vulkan_memory_model)"),
    FEAT(5346, VulkanMemoryModelDeviceScope, V(1, 2),
         SPVGEN_FEATURE_VULKAN_MEMORY_MODEL_DEVICE_SCOPE,
         "vulkanMemoryModelDeviceScope (Vulkan 1.2, VK_KHR_vulkan_memory_model)"),
    FEAT(5347, PhysicalStorageBufferAddresses, V(1, 2), SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS,
         "bufferDeviceAddress (Vulkan 1.2, VK_KHR_buffer_device_address or "
         "VK_EXT_buffer_device_address)"),
    OTHER(5350, ComputeDerivativeGroupLinearKHR, 0,
          "computeDerivativeGroupLinear (VK_KHR_compute_shader_derivatives or "
          "VK_NV_compute_shader_derivatives)"),
    OTHER(5357, CooperativeMatrixNV, 0, "cooperativeMatrix (VK_NV_cooperative_matrix)"),
    OTHER(5363, FragmentShaderSampleInterlockEXT, 0,
          "fragmentShaderSampleInterlock (VK_EXT_fragment_shader_interlock)"),
    OTHER(5372, FragmentShaderShadingRateInterlockEXT, 0,
          "fragmentShaderShadingRateInterlock (VK_EXT_fragment_shader_interlock) or "
          "shadingRateImage (VK_NV_shading_rate_image)"),
    OTHER(5373, ShaderSMBuiltinsNV, 0, "shaderSMBuiltins (VK_NV_shader_sm_builtins)"),
    OTHER(5378, FragmentShaderPixelInterlockEXT, 0,
          "fragmentShaderPixelInterlock (VK_EXT_fragment_shader_interlock)"),
    OTHER(5379, DemoteToHelperInvocation, V(1, 3),
          "shaderDemoteToHelperInvocation (Vulkan 1.3, "
          "VK_EXT_shader_demote_to_helper_invocation)"),
    OTHER(5381, RayTracingOpacityMicromapEXT, 0, "VK_EXT_opacity_micromap"),
    OTHER(5383, ShaderInvocationReorderNV, 0, "VK_NV_ray_tracing_invocation_reorder"),
    OTHER(5391, RayQueryPositionFetchKHR, 0,
          "rayTracingPositionFetch (VK_KHR_ray_tracing_position_fetch)"),
    FEAT(5394, CooperativeVectorNV, 0, SPVGEN_FEATURE_COOPVEC,
         "cooperativeVector (VK_NV_cooperative_vector)"),
    FEAT(5404, AtomicFloat16VectorNV, 0, SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR,
         "shaderFloat16VectorAtomics (VK_NV_shader_atomic_float16_vector)"),
    OTHER(5414, RawAccessChainsNV, 0, "shaderRawAccessChains (VK_NV_raw_access_chains)"),
    OTHER(5418, RayTracingSpheresGeometryNV, 0,
          "spheres (VK_NV_ray_tracing_linear_swept_spheres)"),
    OTHER(5419, RayTracingLinearSweptSpheresGeometryNV, 0,
          "linearSweptSpheres (VK_NV_ray_tracing_linear_swept_spheres)"),
    FEAT(5430, CooperativeMatrixReductionsNV, 0, SPVGEN_FEATURE_COOPMAT2_REDUCTIONS,
         "cooperativeMatrixReductions (VK_NV_cooperative_matrix2)"),
    FEAT(5431, CooperativeMatrixConversionsNV, 0, SPVGEN_FEATURE_COOPMAT2_CONVERSIONS,
         "cooperativeMatrixConversions (VK_NV_cooperative_matrix2)"),
    FEAT(5432, CooperativeMatrixPerElementOperationsNV, 0,
         SPVGEN_FEATURE_COOPMAT2_PER_ELEMENT_OPS,
         "cooperativeMatrixPerElementOperations (VK_NV_cooperative_matrix2)"),
    FEAT(5433, CooperativeMatrixTensorAddressingNV, 0,
         SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING,
         "cooperativeMatrixTensorAddressing (VK_NV_cooperative_matrix2)"),
    FEAT(5434, CooperativeMatrixBlockLoadsNV, 0, SPVGEN_FEATURE_COOPMAT2_BLOCK_LOADS,
         "cooperativeMatrixBlockLoads (VK_NV_cooperative_matrix2)"),
    FEAT(5435, CooperativeVectorTrainingNV, 0, SPVGEN_FEATURE_COOPVEC_TRAINING,
         "cooperativeVectorTraining (VK_NV_cooperative_vector)"),
    OTHER(5437, RayTracingClusterAccelerationStructureNV, 0,
          "clusterAccelerationStructure (VK_NV_cluster_acceleration_structure)"),
    FEAT(5439, TensorAddressingNV, 0, SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING,
         "cooperativeMatrixTensorAddressing (VK_NV_cooperative_matrix2)"),
    OTHER(5584, IntegerFunctions2INTEL, 0,
          "shaderIntegerFunctions2 (VK_INTEL_shader_integer_functions2)"),
    OTHER(5612, AtomicFloat32MinMaxEXT, 0,
          "shaderBuffer/Shared/ImageFloat32AtomicMinMax (VK_EXT_shader_atomic_float2)"),
    OTHER(5613, AtomicFloat64MinMaxEXT, 0,
          "shaderBuffer/SharedFloat64AtomicMinMax (VK_EXT_shader_atomic_float2)"),
    OTHER(5616, AtomicFloat16MinMaxEXT, 0,
          "shaderBuffer/SharedFloat16AtomicMinMax (VK_EXT_shader_atomic_float2)"),
    OTHER(5629, ExpectAssumeKHR, V(1, 4),
          "shaderExpectAssume (Vulkan 1.4, VK_KHR_shader_expect_assume)"),
    OTHER(6016, DotProductInputAll, V(1, 3),
          "shaderIntegerDotProduct (Vulkan 1.3, VK_KHR_shader_integer_dot_product)"),
    OTHER(6017, DotProductInput4x8Bit, V(1, 3),
          "shaderIntegerDotProduct (Vulkan 1.3, VK_KHR_shader_integer_dot_product)"),
    OTHER(6018, DotProductInput4x8BitPacked, V(1, 3),
          "shaderIntegerDotProduct (Vulkan 1.3, VK_KHR_shader_integer_dot_product)"),
    OTHER(6019, DotProduct, V(1, 3),
          "shaderIntegerDotProduct (Vulkan 1.3, VK_KHR_shader_integer_dot_product)"),
    OTHER(6020, RayCullMaskKHR, 0, "rayTracingMaintenance1 (VK_KHR_ray_tracing_maintenance1)"),
    FEAT(6022, CooperativeMatrixKHR, 0, SPVGEN_FEATURE_COOPMAT,
         "cooperativeMatrix (VK_KHR_cooperative_matrix)"),
    OTHER(6024, ReplicatedCompositesEXT, 0,
          "shaderReplicatedComposites (VK_EXT_shader_replicated_composites)"),
    /* Vulkan names the shaderSubgroupRotate feature; a device with it reports the ROTATE
     * subgroup operation bit, which is what the runner checks. */
    SUBGROUP(6026, GroupNonUniformRotateKHR, V(1, 4), SPVGEN_SUBGROUP_ROTATE,
             "shaderSubgroupRotate (Vulkan 1.4, VK_KHR_shader_subgroup_rotate)"),
    OTHER(6029, FloatControls2, V(1, 4),
          "shaderFloatControls2 (Vulkan 1.4, VK_KHR_shader_float_controls2)"),
    /* spvgen's kernels add to buffers only (the MLP's hash grid gradient): the buffer
     * feature stands for the capability. */
    FEAT(6033, AtomicFloat32AddEXT, 0, SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD,
         "shaderBufferFloat32AtomicAdd (VK_EXT_shader_atomic_float)"),
    OTHER(6034, AtomicFloat64AddEXT, 0,
          "shaderBuffer/SharedFloat64AtomicAdd (VK_EXT_shader_atomic_float)"),
    OTHER(6095, AtomicFloat16AddEXT, 0,
          "shaderBuffer/SharedFloat16AtomicAdd (VK_EXT_shader_atomic_float2)"),
};

const spvgen_vk_capability *spvgen_vk_capabilities(size_t *count) {
  if (count) *count = sizeof table / sizeof table[0];
  return table;
}

const spvgen_vk_capability *spvgen_vk_capability_find(uint32_t capability) {
  return sg_vk_capability_find(capability);
}

const spvgen_vk_capability *sg_vk_capability_find(uint32_t capability) {
  size_t lo = 0, hi = sizeof table / sizeof table[0];
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (table[mid].capability == capability) return &table[mid];
    if (table[mid].capability < capability) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

const char *spvgen_capability_name(uint32_t capability) { return sg_capability_name(capability); }

const char *sg_capability_name(uint32_t capability) {
  const char *name = sg_enumerant_name(SG_KIND_Capability, capability);
  if (name) return name;
  const spvgen_vk_capability *c = sg_vk_capability_find(capability);
  return c ? c->name : NULL;
}
