/* lib/vk/pipeline.c — compute pipelines from SPIR-V words plus spvgen_kernel_info: the
 * module is checked against the metadata and the device first (lib/vk/reflect.c), then
 * descriptor set layouts for its buffers, a push constant range, specialization
 * constants and a required subgroup size go into one vkCreateComputePipelines call
 * through the context's VkPipelineCache. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *binding_label(const spvgen_binding *b, char *buf, size_t size) {
  if (b->name)
    sg_vk_format(buf, size, "set %u binding %u ('%s')", b->set, b->binding, b->name);
  else
    sg_vk_format(buf, size, "set %u binding %u", b->set, b->binding);
  return buf;
}

static const char *kind_name(spvgen_binding_kind k) {
  return k == SPVGEN_BINDING_UNIFORM_BUFFER ? "uniform buffer" : "storage buffer";
}

static bool is_power_of_two(uint32_t v) { return v && !(v & (v - 1)); }

/* check_module's steps. Each returns SPVGEN_OK, or the status of the failure it recorded
 * on ctx (who: the public function, first in the message). */

/* The module itself against the device: the entry point, the SPIR-V and Vulkan versions,
 * the features and subgroup operations its capabilities need. */
static spvgen_status check_device_support(spvgen_vk_context *ctx, const char *who,
                                          const spvgen_vk_reflection *refl, const char *entry) {
  const spvgen_device_caps *caps = &ctx->caps;
  if (!refl->entry_found)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: the module has no GLCompute entry point named '%s' (it has: %s)", who,
                          entry, refl->entry_points[0] ? refl->entry_points : "none");
  if (refl->version > caps->max_spirv_version)
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                          "%s: the module is SPIR-V %u.%u; device '%s' takes at most SPIR-V %u.%u", who,
                          (refl->version >> 16) & 0xFF, (refl->version >> 8) & 0xFF, caps->name,
                          (caps->max_spirv_version >> 16) & 0xFF, (caps->max_spirv_version >> 8) & 0xFF);
  if (refl->required_api_version > caps->api_version)
    return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: the module declares %s, which needs Vulkan %u.%u; device '%s' is "
                          "Vulkan %u.%u",
                          who, refl->api_version_reason ? refl->api_version_reason : "a capability",
                          SPVGEN_API_VERSION_MAJOR(refl->required_api_version),
                          SPVGEN_API_VERSION_MINOR(refl->required_api_version), caps->name,
                          SPVGEN_API_VERSION_MAJOR(caps->api_version),
                          SPVGEN_API_VERSION_MINOR(caps->api_version));
  uint64_t missing = refl->required_features & ~caps->features;
  if (missing) {
    uint64_t first = spvgen_feature_first(missing);
    int bit = 0;
    while (bit < 63 && !((first >> bit) & 1)) bit++;
    const char *why = bit < SPVGEN_FEATURE_COUNT && refl->feature_reason[bit]
                          ? refl->feature_reason[bit]
                          : "its capabilities";
    return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: the module needs the device feature %s (%s) for %s; device '%s' does "
                          "not have it enabled",
                          who, spvgen_feature_name(first), spvgen_feature_source(first), why, caps->name);
  }
  uint32_t ops_missing = refl->required_subgroup_ops & ~caps->subgroup_operations;
  if (ops_missing)
    return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: the module uses subgroup operations (GroupNonUniform capabilities, "
                          "VkSubgroupFeatureFlags 0x%x) that device '%s' does not support in compute "
                          "shaders",
                          who, ops_missing, caps->name);
  return SPVGEN_OK;
}

/* The local size: the module's LocalSize fills (or must equal) info's, and fits the
 * device's limits. size: the local size with 0s as 1s. */
static spvgen_status check_local_size(spvgen_vk_context *ctx, const char *who,
                                      const spvgen_vk_reflection *refl, spvgen_kernel_info *info,
                                      uint32_t size[3]) {
  const spvgen_device_caps *caps = &ctx->caps;
  const uint32_t *ls = refl->local_size;
  if (ls[0]) {
    for (int i = 0; i < 3; i++)
      if (info->local_size[i] && ls[i] != info->local_size[i])
        return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "%s: info->local_size is %ux%ux%u but the module's LocalSize is %ux%ux%u",
                              who, info->local_size[0], info->local_size[1], info->local_size[2], ls[0],
                              ls[1], ls[2]);
    for (int i = 0; i < 3; i++) info->local_size[i] = ls[i];
  }
  for (int i = 0; i < 3; i++) size[i] = info->local_size[i] ? info->local_size[i] : 1;
  static const char axis[3] = {'x', 'y', 'z'};
  for (int i = 0; i < 3; i++)
    if (size[i] > caps->max_workgroup_size[i])
      return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                            "%s: local size %c = %u exceeds maxComputeWorkGroupSize[%d] = %u of '%s'",
                            who, axis[i], size[i], i, caps->max_workgroup_size[i], caps->name);
  uint64_t invocations = (uint64_t)size[0] * size[1] * size[2];
  if (invocations > caps->max_workgroup_invocations)
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                          "%s: local size %ux%ux%u = %llu invocations exceeds "
                          "maxComputeWorkGroupInvocations = %u of '%s'",
                          who, size[0], size[1], size[2], (unsigned long long)invocations,
                          caps->max_workgroup_invocations, caps->name);
  return SPVGEN_OK;
}

/* The bindings: the module's resources are buffer blocks; info's list (read from the
 * module when info_in is NULL) is well formed and names each of them with its kind.
 * Counts the sets and descriptors into p, and each binding's minimum size. */
static spvgen_status check_bindings(spvgen_vk_context *ctx, const char *who,
                                    const spvgen_vk_reflection *refl, spvgen_kernel_info *info,
                                    bool info_given, spvgen_vk_pipeline *p) {
  const spvgen_device_caps *caps = &ctx->caps;
  const spvgen_status st = SPVGEN_ERROR_INVALID_ARGUMENT;
  char label[160], msg[512];
  for (uint32_t i = 0; i < refl->binding_count; i++)
    if (!refl->bindings[i].supported)
      return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                            "%s: the module declares a resource at set %u binding %u that is not a "
                            "buffer block (images, samplers and descriptor arrays are not supported)",
                            who, refl->bindings[i].set, refl->bindings[i].binding);
  if (!info_given) {
    spvgen_status rs = spvgen_reflection_to_info(refl, info, msg, sizeof msg);
    if (rs != SPVGEN_OK) return sg_vk_fail(ctx, rs, "%s: %s", who, msg);
  }
  if (info->binding_count > SPVGEN_MAX_BINDINGS)
    return sg_vk_fail(ctx, st, "%s: info->binding_count is %u; at most %d", who, info->binding_count,
                          SPVGEN_MAX_BINDINGS);
  uint32_t max_sets = caps->max_bound_descriptor_sets < SPVGEN_VK_MAX_SETS
                          ? caps->max_bound_descriptor_sets
                          : SPVGEN_VK_MAX_SETS;
  for (uint32_t i = 0; i < info->binding_count; i++) {
    const spvgen_binding *b = &info->bindings[i];
    binding_label(b, label, sizeof label);
    if (b->set >= max_sets)
      return sg_vk_fail(ctx, st, "%s: info->bindings[%u] (%s): set must be below %u", who, i, label,
                            max_sets);
    if (b->kind != SPVGEN_BINDING_STORAGE_BUFFER && b->kind != SPVGEN_BINDING_UNIFORM_BUFFER)
      return sg_vk_fail(ctx, st, "%s: info->bindings[%u] (%s): unknown kind %d", who, i, label,
                            (int)b->kind);
    for (uint32_t j = 0; j < i; j++)
      if (info->bindings[j].set == b->set && info->bindings[j].binding == b->binding)
        return sg_vk_fail(ctx, st, "%s: info->bindings[%u] and [%u] are both %s", who, j, i, label);
    if (b->set + 1 > p->set_count) p->set_count = b->set + 1;
    if (b->kind == SPVGEN_BINDING_UNIFORM_BUFFER) p->uniform_count++;
    else p->storage_count++;
  }
  for (uint32_t r = 0; r < refl->binding_count; r++) {
    const spvgen_vk_reflected_binding *rb = &refl->bindings[r];
    uint32_t found = UINT32_MAX;
    for (uint32_t i = 0; i < info->binding_count; i++)
      if (info->bindings[i].set == rb->set && info->bindings[i].binding == rb->binding) found = i;
    if (found == UINT32_MAX)
      return sg_vk_fail(ctx, st,
                            "%s: the module declares a %s at set %u binding %u that info->bindings "
                            "does not list",
                            who, kind_name(rb->kind), rb->set, rb->binding);
    if (info->bindings[found].kind != rb->kind)
      return sg_vk_fail(ctx, st, "%s: info->bindings[%u] (%s) says %s; the module declares a %s",
                            who, found, binding_label(&info->bindings[found], label, sizeof label),
                            kind_name(info->bindings[found].kind), kind_name(rb->kind));
    p->binding_min_size[found] = rb->min_size;
  }
  return SPVGEN_OK;
}

/* The push constant block: a multiple of 4 within the device's limit, and at least as
 * large as the module's. */
static spvgen_status check_push_constants(spvgen_vk_context *ctx, const char *who,
                                          const spvgen_vk_reflection *refl,
                                          const spvgen_kernel_info *info) {
  const spvgen_device_caps *caps = &ctx->caps;
  if (info->push_constant_size % 4)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: info->push_constant_size %u is not a multiple of 4", who,
                          info->push_constant_size);
  if (info->push_constant_size > caps->max_push_constants_size)
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                          "%s: info->push_constant_size %u exceeds maxPushConstantsSize %u of '%s'", who,
                          info->push_constant_size, caps->max_push_constants_size, caps->name);
  if (refl->push_constant_size > info->push_constant_size)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: the module's push constant block is %u bytes but "
                          "info->push_constant_size is %u",
                          who, refl->push_constant_size, info->push_constant_size);
  return SPVGEN_OK;
}

/* Specialization constants: info's, then the options' by id (an option replaces info's
 * constant of the same SpecId); sizes 4 or 8, each SpecId once. */
static spvgen_status merge_spec_constants(spvgen_vk_context *ctx, const char *who,
                                          spvgen_kernel_info *info,
                                          const spvgen_vk_pipeline_options *opt) {
  const spvgen_status st = SPVGEN_ERROR_INVALID_ARGUMENT;
  if (info->spec_constant_count > SPVGEN_MAX_SPEC_CONSTANTS)
    return sg_vk_fail(ctx, st, "%s: info->spec_constant_count is %u; at most %d", who,
                          info->spec_constant_count, SPVGEN_MAX_SPEC_CONSTANTS);
  if (opt && opt->spec_constant_count && !opt->spec_constants)
    return sg_vk_fail(ctx, st, "%s: options->spec_constants is NULL with a count of %u", who,
                          opt->spec_constant_count);
  for (uint32_t i = 0; opt && i < opt->spec_constant_count; i++) {
    const spvgen_spec_constant *sc = &opt->spec_constants[i];
    uint32_t at = UINT32_MAX;
    for (uint32_t j = 0; j < info->spec_constant_count; j++)
      if (info->spec_constants[j].id == sc->id) at = j;
    if (at == UINT32_MAX) {
      if (info->spec_constant_count == SPVGEN_MAX_SPEC_CONSTANTS)
        return sg_vk_fail(ctx, st, "%s: more than %d specialization constants", who,
                              SPVGEN_MAX_SPEC_CONSTANTS);
      at = info->spec_constant_count++;
    }
    info->spec_constants[at] = *sc;
  }
  for (uint32_t i = 0; i < info->spec_constant_count; i++) {
    uint32_t s = info->spec_constants[i].size;
    if (s != 0 && s != 4 && s != 8)
      return sg_vk_fail(ctx, st, "%s: specialization constant %u (SpecId %u) has size %u; use 4 or 8",
                            who, i, info->spec_constants[i].id, s);
    for (uint32_t j = 0; j < i; j++)
      if (info->spec_constants[j].id == info->spec_constants[i].id)
        return sg_vk_fail(ctx, st, "%s: SpecId %u is given twice in info->spec_constants", who,
                              info->spec_constants[i].id);
  }
  return SPVGEN_OK;
}

/* The subgroup size to require (options' over info's; 0: none) and full subgroups: the
 * device must allow them, and full subgroups need a local size x the subgroup size
 * divides (when the module states its local size: has_local_size). */
static spvgen_status check_subgroup_size(spvgen_vk_context *ctx, const char *who,
                                         const spvgen_kernel_info *info,
                                         const spvgen_vk_pipeline_options *opt, bool has_local_size,
                                         uint32_t size_x, uint32_t *subgroup_size) {
  const spvgen_device_caps *caps = &ctx->caps;
  uint32_t sg = opt && opt->required_subgroup_size ? opt->required_subgroup_size
                                                   : info->required_subgroup_size;
  bool full = opt && opt->require_full_subgroups;
  if (sg) {
    if (!(caps->features & SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL))
      return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                            "%s: a required subgroup size (%u) needs the device feature "
                            "subgroupSizeControl, which '%s' does not have enabled",
                            who, sg, caps->name);
    if (!caps->required_subgroup_size_in_compute || !is_power_of_two(sg) ||
        sg < caps->min_subgroup_size || sg > caps->max_subgroup_size)
      return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                            "%s: required subgroup size %u is not available on '%s' (compute: %s, "
                            "sizes %u..%u, powers of two)",
                            who, sg, caps->name, caps->required_subgroup_size_in_compute ? "yes" : "no",
                            caps->min_subgroup_size, caps->max_subgroup_size);
  }
  if (full) {
    if (!(caps->features & SPVGEN_FEATURE_COMPUTE_FULL_SUBGROUPS))
      return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                            "%s: require_full_subgroups needs the device feature computeFullSubgroups, "
                            "which '%s' does not have enabled",
                            who, caps->name);
    uint32_t unit = sg ? sg : caps->max_subgroup_size;
    if (has_local_size && unit && size_x % unit)
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                            "%s: require_full_subgroups needs local size x (%u) to be a multiple of "
                            "the subgroup size %u",
                            who, size_x, unit);
  }
  *subgroup_size = sg;
  return SPVGEN_OK;
}

/* Checks words + info against each other and the device; fills p->info (a complete
 * copy), p->binding_min_size, and the subgroup size to require. */
static spvgen_status check_module(spvgen_vk_context *ctx, const char *who, const uint32_t *words,
                                  size_t count, const spvgen_kernel_info *info_in,
                                  const spvgen_vk_pipeline_options *opt, spvgen_vk_pipeline *p,
                                  uint32_t *subgroup_size) {
  spvgen_kernel_info *info = &p->info;
  if (info_in) *info = *info_in;
  else memset(info, 0, sizeof *info);
  const char *entry = info->entry_point ? info->entry_point : "main";

  spvgen_vk_reflection *refl = malloc(sizeof *refl);
  if (!refl) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  char msg[512];
  uint32_t size[3];
  spvgen_status st = spvgen_vk_reflect(words, count, entry, refl, msg, sizeof msg);
  if (st != SPVGEN_OK) sg_vk_fail(ctx, st, "%s: %s", who, msg);
  if (st == SPVGEN_OK) st = check_device_support(ctx, who, refl, entry);
  if (st == SPVGEN_OK) st = check_local_size(ctx, who, refl, info, size);
  if (st == SPVGEN_OK) st = check_bindings(ctx, who, refl, info, info_in != NULL, p);
  if (st == SPVGEN_OK) st = check_push_constants(ctx, who, refl, info);
  if (st == SPVGEN_OK) st = merge_spec_constants(ctx, who, info, opt);
  if (st == SPVGEN_OK)
    st = check_subgroup_size(ctx, who, info, opt, refl->local_size[0] != 0, size[0], subgroup_size);
  free(refl);
  return st;
}

static void pipeline_free(spvgen_vk_pipeline *p) {
  spvgen_vk_context *ctx = p->ctx;
  if (p->pipeline) ctx->vkd.vkDestroyPipeline(ctx->device, p->pipeline, NULL);
  if (p->layout) ctx->vkd.vkDestroyPipelineLayout(ctx->device, p->layout, NULL);
  for (uint32_t i = 0; i < SPVGEN_VK_MAX_SETS; i++)
    if (p->set_layouts[i]) ctx->vkd.vkDestroyDescriptorSetLayout(ctx->device, p->set_layouts[i], NULL);
  free(p);
}

spvgen_status spvgen_vk_pipeline_create(spvgen_vk_context *ctx, const uint32_t *words,
                                        size_t word_count, const spvgen_kernel_info *info,
                                        const spvgen_vk_pipeline_options *options,
                                        spvgen_vk_pipeline **out) {
  static const char *who = "spvgen_vk_pipeline_create";
  if (out) *out = NULL;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!out) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: out is NULL", who);
  if (info && info->entry_point && strlen(info->entry_point) >= SPVGEN_VK_ENTRY_MAX)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: info->entry_point is longer than %zu characters", who,
                          (size_t)SPVGEN_VK_ENTRY_MAX - 1);
  if (!words || word_count == 0)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s", who,
                          words ? "word_count is 0" : "words is NULL");
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  spvgen_vk_pipeline *p = calloc(1, sizeof *p);
  if (!p) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  p->ctx = ctx;
  uint32_t subgroup_size = 0;
  st = check_module(ctx, who, words, word_count, info, options, p, &subgroup_size);
  if (st != SPVGEN_OK) {
    free(p);
    return st;
  }

  /* Descriptor set layouts: one per set up to the highest used (gaps get empty ones). */
  VkResult r;
  for (uint32_t s = 0; s < p->set_count; s++) {
    VkDescriptorSetLayoutBinding lb[SPVGEN_MAX_BINDINGS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->info.binding_count; i++) {
      const spvgen_binding *b = &p->info.bindings[i];
      if (b->set != s) continue;
      memset(&lb[n], 0, sizeof lb[n]);
      lb[n].binding = b->binding;
      lb[n].descriptorType = b->kind == SPVGEN_BINDING_UNIFORM_BUFFER
                                 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                 : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      lb[n].descriptorCount = 1;
      lb[n].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      n++;
    }
    VkDescriptorSetLayoutCreateInfo dci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           NULL, 0, n, n ? lb : NULL};
    r = ctx->vkd.vkCreateDescriptorSetLayout(ctx->device, &dci, NULL, &p->set_layouts[s]);
    if (r != VK_SUCCESS) {
      p->set_layouts[s] = VK_NULL_HANDLE;
      pipeline_free(p);
      return sg_vk_fail_call(ctx, who, "vkCreateDescriptorSetLayout", r);
    }
  }
  VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, p->info.push_constant_size};
  VkPipelineLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0,
                                    p->set_count, p->set_count ? p->set_layouts : NULL,
                                    p->info.push_constant_size ? 1u : 0u,
                                    p->info.push_constant_size ? &range : NULL};
  r = ctx->vkd.vkCreatePipelineLayout(ctx->device, &lci, NULL, &p->layout);
  if (r != VK_SUCCESS) {
    p->layout = VK_NULL_HANDLE;
    pipeline_free(p);
    return sg_vk_fail_call(ctx, who, "vkCreatePipelineLayout", r);
  }

  VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0,
                                   word_count * sizeof(uint32_t), words};
  VkShaderModule module;
  r = ctx->vkd.vkCreateShaderModule(ctx->device, &smci, NULL, &module);
  if (r != VK_SUCCESS) {
    pipeline_free(p);
    return sg_vk_fail_call(ctx, who, "vkCreateShaderModule", r);
  }

  VkSpecializationMapEntry entries[SPVGEN_MAX_SPEC_CONSTANTS];
  uint64_t data[SPVGEN_MAX_SPEC_CONSTANTS];
  uint32_t n = p->info.spec_constant_count;
  for (uint32_t i = 0; i < n; i++) {
    const spvgen_spec_constant *sc = &p->info.spec_constants[i];
    uint32_t size = sc->size ? sc->size : 4;
    entries[i].constantID = sc->id;
    entries[i].offset = i * 8;
    entries[i].size = size;
    if (size == 4) {
      uint32_t v = (uint32_t)sc->value;
      memcpy(&data[i], &v, 4);
    } else {
      data[i] = sc->value;
    }
  }
  VkSpecializationInfo spec = {n, entries, n * sizeof data[0], data};
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rss = {
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, NULL,
      subgroup_size};
  VkPipelineShaderStageCreateInfo stage;
  memset(&stage, 0, sizeof stage);
  stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stage.pNext = subgroup_size ? &rss : NULL;
  if (options && options->require_full_subgroups)
    stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  stage.module = module;
  stage.pName = p->info.entry_point ? p->info.entry_point : "main";
  stage.pSpecializationInfo = n ? &spec : NULL;
  VkComputePipelineCreateInfo cpci;
  memset(&cpci, 0, sizeof cpci);
  cpci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  cpci.stage = stage;
  cpci.layout = p->layout;
  cpci.basePipelineIndex = -1;
  /* For spvgen_vk_pipeline_statistics; the generated code does not change. */
  if (ctx->pipeline_statistics) cpci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  r = ctx->vkd.vkCreateComputePipelines(ctx->device, ctx->pipeline_cache, 1, &cpci, NULL,
                                        &p->pipeline);
  ctx->vkd.vkDestroyShaderModule(ctx->device, module, NULL);
  if (r != VK_SUCCESS) {
    p->pipeline = VK_NULL_HANDLE;
    pipeline_free(p);
    return sg_vk_fail_call(ctx, who, "vkCreateComputePipelines", r);
  }
  /* The caller's entry point string need not outlive the call. */
  sg_vk_format(p->entry_point, sizeof p->entry_point, "%s", stage.pName);
  p->info.entry_point = p->entry_point;

  p->next = ctx->pipelines;
  if (ctx->pipelines) ctx->pipelines->prev = p;
  ctx->pipelines = p;
  *out = p;
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_pipeline_create_kernel(spvgen_vk_context *ctx, const spvgen_kernel *kernel,
                                               const spvgen_vk_pipeline_options *options,
                                               spvgen_vk_pipeline **out) {
  if (out) *out = NULL;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!kernel)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "spvgen_vk_pipeline_create_kernel: kernel is NULL");
  return spvgen_vk_pipeline_create(ctx, kernel->words, kernel->word_count, &kernel->info, options,
                                   out);
}

void spvgen_vk_pipeline_destroy(spvgen_vk_pipeline *p) {
  if (!p) return;
  spvgen_vk_context *ctx = p->ctx;
  sg_vk_settle(ctx);
  if (p->prev) p->prev->next = p->next;
  else if (ctx->pipelines == p) ctx->pipelines = p->next;
  if (p->next) p->next->prev = p->prev;
  pipeline_free(p);
}

const spvgen_kernel_info *spvgen_vk_pipeline_info(const spvgen_vk_pipeline *p) {
  return p ? &p->info : NULL;
}

uint64_t spvgen_vk_pipeline_binding_min_size(const spvgen_vk_pipeline *p, uint32_t i) {
  return p && i < p->info.binding_count ? p->binding_min_size[i] : 0;
}

spvgen_status spvgen_vk_pipeline_cache_data(spvgen_vk_context *ctx, void *data, size_t *size) {
  static const char *who = "spvgen_vk_pipeline_cache_data";
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!size) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: size is NULL", who);
  VkResult r = ctx->vkd.vkGetPipelineCacheData(ctx->device, ctx->pipeline_cache, size, data);
  if (r == VK_INCOMPLETE)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: *size is smaller than the cache (VK_INCOMPLETE); query the size "
                          "with data NULL first",
                          who);
  if (r != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkGetPipelineCacheData", r);
  return SPVGEN_OK;
}
