/* lib/vk/pipeline.c — compute pipelines from SPIR-V words plus spvgen_kernel_info: the
 * module is checked against the metadata and the device first (lib/vk/reflect.c), then
 * descriptor set layouts for its buffers, a push constant range, specialization
 * constants and a required subgroup size go into one vkCreateComputePipelines call
 * through the context's VkPipelineCache. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include "internal.h"

static const char *binding_label(const spvgen_binding *b, char *buf, size_t size) {
  if (b->name)
    sg_vk_format(buf, size, "set %u binding %u ('%s')", b->set, b->binding, b->name);
  else
    sg_vk_format(buf, size, "set %u binding %u", b->set, b->binding);
  return buf;
}

static const char *kind_name(spvgen_binding_kind k) {
  return k == SPVGEN_BINDING_UNIFORM_BUFFER   ? "uniform buffer"
         : k == SPVGEN_BINDING_DEVICE_ADDRESS ? "device address"
                                              : "storage buffer";
}

static bool is_power_of_two(uint32_t v) { return v && !(v & (v - 1)); }

/* check_module's steps. Each returns SPVGEN_OK, or the status of the failure it recorded
 * on ctx (who: the public function, first in the message). */

/* The module itself against the device: the entry point, the SPIR-V and Vulkan versions,
 * the features and subgroup operations its capabilities need. */
static spvgen_status check_device_support(spvgen_vk_context *ctx, const char *who,
                                          const sg_reflection *refl, const char *entry) {
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
                                      const sg_reflection *refl, spvgen_kernel_info *info,
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
 * Counts the sets and descriptors into p, and each binding's minimum size. Bindings
 * taken by device address have no descriptor: they need bufferDeviceAddress, and their
 * places in the push-constant block are checked with it (check_push_constants). */
static spvgen_status check_bindings(spvgen_vk_context *ctx, const char *who,
                                    const sg_reflection *refl, spvgen_kernel_info *info,
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
    spvgen_status rs = sg_reflection_to_info(refl, info, msg, sizeof msg);
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
    if (b->kind == SPVGEN_BINDING_DEVICE_ADDRESS) {
      if (!(caps->features & SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS))
        return sg_vk_fail(ctx, SPVGEN_ERROR_MISSING_FEATURE,
                          "%s: info->bindings[%u]%s%s%s is taken by device address, which needs the "
                          "device feature bufferDeviceAddress; '%s' does not have it enabled",
                          who, i, b->name ? " ('" : "", b->name ? b->name : "", b->name ? "')" : "",
                          caps->name);
      p->address_count++;
      continue;
    }
    if (b->set >= max_sets)
      return sg_vk_fail(ctx, st, "%s: info->bindings[%u] (%s): set must be below %u", who, i, label,
                            max_sets);
    if (b->kind != SPVGEN_BINDING_STORAGE_BUFFER && b->kind != SPVGEN_BINDING_UNIFORM_BUFFER)
      return sg_vk_fail(ctx, st, "%s: info->bindings[%u] (%s): unknown kind %d", who, i, label,
                            (int)b->kind);
    for (uint32_t j = 0; j < i; j++)
      if (info->bindings[j].kind != SPVGEN_BINDING_DEVICE_ADDRESS &&
          info->bindings[j].set == b->set && info->bindings[j].binding == b->binding)
        return sg_vk_fail(ctx, st, "%s: info->bindings[%u] and [%u] are both %s", who, j, i, label);
    if (b->set + 1 > p->set_count) p->set_count = b->set + 1;
    if (b->kind == SPVGEN_BINDING_UNIFORM_BUFFER) p->uniform_count++;
    else p->storage_count++;
  }
  for (uint32_t r = 0; r < refl->binding_count; r++) {
    const sg_reflected_binding *rb = &refl->bindings[r];
    uint32_t found = UINT32_MAX;
    for (uint32_t i = 0; i < info->binding_count; i++)
      if (info->bindings[i].kind != SPVGEN_BINDING_DEVICE_ADDRESS &&
          info->bindings[i].set == rb->set && info->bindings[i].binding == rb->binding)
        found = i;
    if (found == UINT32_MAX)
      return sg_vk_fail(ctx, st,
                            "%s: the module declares a %s at set %u binding %u that info->bindings "
                            "does not list",
                            who, kind_name(rb->kind), rb->set, rb->binding);
    if (info->bindings[found].kind != rb->kind)
      return sg_vk_fail(ctx, st, "%s: info->bindings[%u] (%s) says %s; the module declares a %s",
                            who, found, binding_label(&info->bindings[found], label, sizeof label),
                            kind_name(info->bindings[found].kind), kind_name(rb->kind));
    if (rb->min_size > p->binding_min_size[found]) p->binding_min_size[found] = rb->min_size;
  }
  return SPVGEN_OK;
}

/* The push constant block: a multiple of 4 within the device's limit, and at least as
 * large as the module's. */
static spvgen_status check_push_constants(spvgen_vk_context *ctx, const char *who,
                                          const sg_reflection *refl,
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
  /* Device addresses: 8 aligned bytes each inside the block, no two overlapping; the
   * runner assembles such a block itself (at most SG_VK_PUSH_MAX bytes). */
  bool addresses = false;
  for (uint32_t i = 0; i < info->binding_count; i++) {
    const spvgen_binding *b = &info->bindings[i];
    if (b->kind != SPVGEN_BINDING_DEVICE_ADDRESS) continue;
    addresses = true;
    if (b->address_offset % 8 || (uint64_t)b->address_offset + 8 > info->push_constant_size)
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "%s: info->bindings[%u]%s%s%s: address_offset %u is not a multiple of 8 "
                        "inside the %u-byte push-constant block",
                        who, i, b->name ? " ('" : "", b->name ? b->name : "", b->name ? "')" : "",
                        b->address_offset, info->push_constant_size);
    for (uint32_t j = 0; j < i; j++)
      if (info->bindings[j].kind == SPVGEN_BINDING_DEVICE_ADDRESS &&
          info->bindings[j].address_offset == b->address_offset)
        return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: info->bindings[%u] and [%u] both have address_offset %u", who, j, i,
                          b->address_offset);
  }
  if (addresses && info->push_constant_size > SG_VK_PUSH_MAX)
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                      "%s: a push-constant block with device addresses is at most %d bytes (%u given)",
                      who, SG_VK_PUSH_MAX, info->push_constant_size);
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

  sg_reflection *refl = malloc(sizeof *refl);
  if (!refl) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  char msg[512];
  uint32_t size[3];
  spvgen_status st = sg_reflect(words, count, entry, refl, msg, sizeof msg);
  if (st != SPVGEN_OK) sg_vk_fail(ctx, st, "%s: %s", who, msg);
  if (st == SPVGEN_OK) st = check_device_support(ctx, who, refl, entry);
  if (st == SPVGEN_OK) st = check_local_size(ctx, who, refl, info, size);
  if (st == SPVGEN_OK) st = check_bindings(ctx, who, refl, info, info_in != NULL, p);
  if (st == SPVGEN_OK) st = check_push_constants(ctx, who, refl, info);
  if (st == SPVGEN_OK) st = merge_spec_constants(ctx, who, info, opt);
  if (st == SPVGEN_OK)
    st = check_subgroup_size(ctx, who, info, opt, refl->local_size[0] != 0, size[0], subgroup_size);
  if (st == SPVGEN_OK) {
    /* What the words need, as the words say (whatever info claimed). */
    info->features = refl->required_features;
    if (*subgroup_size) info->features |= SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL;
    info->subgroup_operations = refl->required_subgroup_ops;
    info->api_version = refl->required_api_version;
    info->spirv_version = refl->version;
    info->capability_count = refl->capability_count;
    memcpy(info->capabilities, refl->capabilities, refl->capability_count * sizeof refl->capabilities[0]);
  }
  free(refl);
  return st;
}

/* ------------------------------------------------------------- programs ---- */
static void program_free(spvgen_vk_context *ctx, sg_vk_program *g) {
  if (g->pipeline) ctx->vkd.vkDestroyPipeline(ctx->device, g->pipeline, NULL);
  if (g->layout) ctx->vkd.vkDestroyPipelineLayout(ctx->device, g->layout, NULL);
  for (uint32_t i = 0; i < SPVGEN_VK_MAX_SETS; i++)
    if (g->set_layouts[i]) ctx->vkd.vkDestroyDescriptorSetLayout(ctx->device, g->set_layouts[i], NULL);
  free(g->words);
  free(g->sig);
  free(g);
}

static void program_unlink(spvgen_vk_context *ctx, sg_vk_program *g) {
  if (g->prev) g->prev->next = g->next;
  else ctx->programs = g->next;
  if (g->next) g->next->prev = g->prev;
  g->prev = g->next = NULL;
  ctx->program_count--;
}

static void program_push_front(spvgen_vk_context *ctx, sg_vk_program *g) {
  g->prev = NULL;
  g->next = ctx->programs;
  if (ctx->programs) ctx->programs->prev = g;
  ctx->programs = g;
  ctx->program_count++;
}

void sg_vk_programs_destroy(spvgen_vk_context *ctx) {
  while (ctx->programs) {
    sg_vk_program *g = ctx->programs;
    program_unlink(ctx, g);
    program_free(ctx, g);
  }
  ctx->idle_programs = 0;
}

/* Appends bytes to a signature being built (fixed capacity; sizes are bounded). */
typedef struct sig_buf {
  unsigned char bytes[4096];
  size_t size;
} sig_buf;

static void sig_put(sig_buf *b, const void *data, size_t n) {
  if (b->size + n > sizeof b->bytes) n = sizeof b->bytes - b->size;
  memcpy(b->bytes + b->size, data, n);
  b->size += n;
}

static void sig_u32(sig_buf *b, uint32_t v) { sig_put(b, &v, 4); }

/* What, besides the words, decides the compiled pipeline and its layout. */
static void program_signature(const spvgen_vk_pipeline *p, uint32_t subgroup_size, bool full,
                              bool push_set, sig_buf *b) {
  const spvgen_kernel_info *info = &p->info;
  b->size = 0;
  const char *entry = info->entry_point ? info->entry_point : "main";
  sig_put(b, entry, strlen(entry) + 1);
  sig_u32(b, info->push_constant_size);
  sig_u32(b, subgroup_size);
  sig_u32(b, (full ? 1u : 0u) | (push_set ? 2u : 0u));
  for (uint32_t i = 0; i < info->binding_count; i++) {
    const spvgen_binding *bd = &info->bindings[i];
    if (bd->kind == SPVGEN_BINDING_DEVICE_ADDRESS) continue;
    sig_u32(b, bd->set);
    sig_u32(b, bd->binding);
    sig_u32(b, (uint32_t)bd->kind);
  }
  sig_u32(b, 0xFFFFFFFFu);
  for (uint32_t i = 0; i < info->spec_constant_count; i++) {
    const spvgen_spec_constant *sc = &info->spec_constants[i];
    uint32_t size = sc->size ? sc->size : 4;
    uint64_t v = size == 4 ? (uint32_t)sc->value : sc->value;
    sig_u32(b, sc->id);
    sig_u32(b, size);
    sig_put(b, &v, 8);
  }
}

static uint64_t fnv_more(uint64_t h, const unsigned char *bytes, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
}

static sg_vk_program *program_find(spvgen_vk_context *ctx, uint64_t key, const uint32_t *words,
                                   size_t count, const sig_buf *sig) {
  for (sg_vk_program *g = ctx->programs; g; g = g->next)
    if (g->words && g->key == key && g->word_count == count && g->sig_size == sig->size &&
        !memcmp(g->sig, sig->bytes, sig->size) && !memcmp(g->words, words, count * sizeof *words))
      return g;
  return NULL;
}

/* Frees idle programs, least recently used first, until at most `keep` are idle. */
static void programs_trim(spvgen_vk_context *ctx, uint32_t keep) {
  sg_vk_program *g = ctx->programs;
  while (g && g->next) g = g->next;
  while (g && ctx->idle_programs > keep) {
    sg_vk_program *prev = g->prev;
    if (!g->refs) {
      program_unlink(ctx, g);
      program_free(ctx, g);
      ctx->idle_programs--;
    }
    g = prev;
  }
}

/* A program's compile in three steps, so that a batch can run the middle one on several
 * threads: prepare (descriptor set layouts, set 0 a push-descriptor set where it can be,
 * the pipeline layout, the shader module, the create info), run (the driver's
 * vkCreateComputePipelines through the context's VkPipelineCache, which Vulkan
 * synchronizes internally: any thread), finish (the module freed, the result recorded).
 * The job holds everything the create info points at, so it must not move between the
 * steps. */
typedef struct compile_job {
  spvgen_vk_context *ctx;
  sg_vk_program *g;
  VkShaderModule module;
  VkSpecializationMapEntry entries[SPVGEN_MAX_SPEC_CONSTANTS];
  uint64_t data[SPVGEN_MAX_SPEC_CONSTANTS];
  VkSpecializationInfo spec;
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rss;
  VkComputePipelineCreateInfo cpci;
  VkResult result;
} compile_job;

static spvgen_status program_prepare(spvgen_vk_context *ctx, const char *who, sg_vk_program *g,
                                     const spvgen_vk_pipeline *p, const uint32_t *words,
                                     size_t word_count, uint32_t subgroup_size,
                                     const spvgen_vk_pipeline_options *options, compile_job *job) {
  memset(job, 0, sizeof *job);
  job->ctx = ctx;
  job->g = g;
  if (options && options->cached_only && !ctx->cache_control)
    return sg_vk_fail(ctx, SPVGEN_ERROR_NOT_CACHED,
                      "%s: cached_only: not in the kernel cache, and the device cannot say whether the driver's "
                      "caches hold it (pipelineCreationCacheControl is not enabled)", who);
  VkResult r;
  for (uint32_t s = 0; s < g->set_count; s++) {
    VkDescriptorSetLayoutBinding lb[SPVGEN_MAX_BINDINGS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->info.binding_count; i++) {
      const spvgen_binding *b = &p->info.bindings[i];
      if (b->kind == SPVGEN_BINDING_DEVICE_ADDRESS || b->set != s) continue;
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
    if (g->push_set) dci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    r = ctx->vkd.vkCreateDescriptorSetLayout(ctx->device, &dci, NULL, &g->set_layouts[s]);
    if (r != VK_SUCCESS) {
      g->set_layouts[s] = VK_NULL_HANDLE;
      return sg_vk_fail_call(ctx, who, "vkCreateDescriptorSetLayout", r);
    }
  }
  VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, p->info.push_constant_size};
  VkPipelineLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0,
                                    g->set_count, g->set_count ? g->set_layouts : NULL,
                                    p->info.push_constant_size ? 1u : 0u,
                                    p->info.push_constant_size ? &range : NULL};
  r = ctx->vkd.vkCreatePipelineLayout(ctx->device, &lci, NULL, &g->layout);
  if (r != VK_SUCCESS) {
    g->layout = VK_NULL_HANDLE;
    return sg_vk_fail_call(ctx, who, "vkCreatePipelineLayout", r);
  }

  VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0,
                                   word_count * sizeof(uint32_t), words};
  r = ctx->vkd.vkCreateShaderModule(ctx->device, &smci, NULL, &job->module);
  if (r != VK_SUCCESS) {
    job->module = VK_NULL_HANDLE;
    return sg_vk_fail_call(ctx, who, "vkCreateShaderModule", r);
  }

  uint32_t n = p->info.spec_constant_count;
  for (uint32_t i = 0; i < n; i++) {
    const spvgen_spec_constant *sc = &p->info.spec_constants[i];
    uint32_t size = sc->size ? sc->size : 4;
    job->entries[i].constantID = sc->id;
    job->entries[i].offset = i * 8;
    job->entries[i].size = size;
    if (size == 4) {
      uint32_t v = (uint32_t)sc->value;
      memcpy(&job->data[i], &v, 4);
    } else {
      job->data[i] = sc->value;
    }
  }
  job->spec = (VkSpecializationInfo){n, job->entries, n * sizeof job->data[0], job->data};
  job->rss = (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo){
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, NULL, subgroup_size};
  VkPipelineShaderStageCreateInfo *stage = &job->cpci.stage;
  stage->sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stage->pNext = subgroup_size ? &job->rss : NULL;
  if (options && options->require_full_subgroups)
    stage->flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  stage->stage = VK_SHADER_STAGE_COMPUTE_BIT;
  stage->module = job->module;
  stage->pName = p->info.entry_point ? p->info.entry_point : "main";
  stage->pSpecializationInfo = n ? &job->spec : NULL;
  job->cpci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  job->cpci.layout = g->layout;
  job->cpci.basePipelineIndex = -1;
  /* For spvgen_vk_pipeline_statistics; the generated code does not change. */
  if (ctx->pipeline_statistics) job->cpci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  /* cached_only: the driver's answer whether it has the pipeline without a compile */
  if (options && options->cached_only) job->cpci.flags |= VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
  job->result = VK_NOT_READY;
  return SPVGEN_OK;
}

/* The driver's compile: touches only the job (and the internally synchronized cache). */
static void program_run(compile_job *job) {
  spvgen_vk_context *ctx = job->ctx;
  job->result = ctx->vkd.vkCreateComputePipelines(ctx->device, ctx->pipeline_cache, 1, &job->cpci, NULL,
                                                  &job->g->pipeline);
  if (job->result != VK_SUCCESS) job->g->pipeline = VK_NULL_HANDLE;
}

static spvgen_status program_finish(spvgen_vk_context *ctx, const char *who, compile_job *job) {
  if (job->module) ctx->vkd.vkDestroyShaderModule(ctx->device, job->module, NULL);
  job->module = VK_NULL_HANDLE;
  if (job->result == VK_PIPELINE_COMPILE_REQUIRED)
    return sg_vk_fail(ctx, SPVGEN_ERROR_NOT_CACHED,
                      "%s: cached_only: the driver would compile this pipeline (it is in none of its caches)", who);
  if (job->result != VK_SUCCESS) return sg_vk_fail_call(ctx, who, "vkCreateComputePipelines", job->result);
  ctx->stats.compiled++;
  ctx->cache_dirty = true;
  return SPVGEN_OK;
}

/* One request of a create (spvgen_vk_pipeline_create or a batch), between its steps. */
typedef struct pending {
  spvgen_vk_pipeline *p;
  sg_vk_program *g;      /* the program it takes (found, or new) */
  bool found;            /* g came from the kernel cache */
  int alias;             /* a batch: the earlier request whose new program this one shares (-1: none) */
  sig_buf *sig;
  uint32_t subgroup_size;
  const uint32_t *words;
  size_t word_count;
  const spvgen_vk_pipeline_options *options;
  compile_job job;
} pending;

/* Checks a request and finds its program in the kernel cache (or marks it new). */
static spvgen_status request_begin(spvgen_vk_context *ctx, const char *who, const uint32_t *words, size_t word_count,
                                   const spvgen_kernel_info *info, const spvgen_vk_pipeline_options *options,
                                   pending *q) {
  memset(q, 0, sizeof *q);
  q->alias = -1;
  q->words = words;
  q->word_count = word_count;
  q->options = options;
  if (info && info->entry_point && strlen(info->entry_point) >= SPVGEN_VK_ENTRY_MAX)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: info->entry_point is longer than %zu characters", who,
                          (size_t)SPVGEN_VK_ENTRY_MAX - 1);
  if (!words || word_count == 0)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s", who,
                          words ? "word_count is 0" : "words is NULL");
  spvgen_vk_pipeline *p = calloc(1, sizeof *p);
  if (!p) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  p->ctx = ctx;
  spvgen_status st = check_module(ctx, who, words, word_count, info, options, p, &q->subgroup_size);
  if (st != SPVGEN_OK) {
    free(p);
    return st;
  }
  /* The caller's entry point string need not outlive the call. */
  sg_vk_format(p->entry_point, sizeof p->entry_point, "%s",
               p->info.entry_point ? p->info.entry_point : "main");
  p->info.entry_point = p->entry_point;
  p->info.hash = spvgen_words_hash(words, word_count);
  q->p = p;
  q->sig = malloc(sizeof *q->sig);
  if (!q->sig) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  /* Set 0 as a push-descriptor set when that is the only set: how buffers get into a
   * caller's command buffer without descriptor sets whose life spvgen would manage. */
  bool push_set = ctx->push_descriptors && p->set_count == 1;
  bool full = options && options->require_full_subgroups;
  program_signature(p, q->subgroup_size, full, push_set, q->sig);
  uint64_t key = fnv_more(p->info.hash, q->sig->bytes, q->sig->size);
  q->g = ctx->no_reuse ? NULL : program_find(ctx, key, words, word_count, q->sig);
  if (q->g) {
    q->found = true;
    return SPVGEN_OK;
  }
  q->g = calloc(1, sizeof *q->g);
  if (!q->g) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  q->g->key = key;
  q->g->set_count = p->set_count;
  q->g->push_set = push_set;
  return SPVGEN_OK;
}

/* Whether request b would compile the same program as the new one of request a. */
static bool same_new_program(const spvgen_vk_context *ctx, const pending *a, const pending *b) {
  return !ctx->no_reuse && !a->found && a->alias < 0 && a->g->key == b->g->key && a->word_count == b->word_count &&
         a->sig->size == b->sig->size && !memcmp(a->sig->bytes, b->sig->bytes, a->sig->size) &&
         !memcmp(a->words, b->words, a->word_count * sizeof *a->words);
}

/* Undoes request_begin (and a prepared compile) of a request that will not complete. */
static void request_abandon(spvgen_vk_context *ctx, pending *q) {
  if (q->job.module) ctx->vkd.vkDestroyShaderModule(ctx->device, q->job.module, NULL);
  if (q->g && !q->found && q->alias < 0) program_free(ctx, q->g);
  free(q->sig);
  free(q->p);
  memset(q, 0, sizeof *q);
  q->alias = -1;
}

/* Links a request whose program is ready (found, compiled, or an alias's) to ctx. */
static spvgen_vk_pipeline *request_end(spvgen_vk_context *ctx, pending *q, sg_vk_program *g) {
  if (q->found) {
    program_unlink(ctx, g);
    program_push_front(ctx, g);
    if (!g->refs) ctx->idle_programs--;
    ctx->stats.reused++;
  } else if (q->alias >= 0) {
    ctx->stats.reused++;
  } else {
    /* What a later create compares with. Without the memory for it the program is
     * still good, just never shared (program_find needs the words). */
    if (!ctx->no_reuse) {
      g->words = malloc(q->word_count * sizeof *q->words);
      g->sig = malloc(q->sig->size ? q->sig->size : 1);
      if (g->words && g->sig) {
        memcpy(g->words, q->words, q->word_count * sizeof *q->words);
        g->word_count = q->word_count;
        memcpy(g->sig, q->sig->bytes, q->sig->size);
        g->sig_size = q->sig->size;
      } else {
        free(g->words);
        free(g->sig);
        g->words = NULL;
        g->sig = NULL;
      }
    }
    program_push_front(ctx, g);
  }
  free(q->sig);
  q->sig = NULL;
  spvgen_vk_pipeline *p = q->p;
  q->p = NULL;
  g->refs++;
  p->program = g;
  p->pipeline = g->pipeline;
  p->layout = g->layout;
  p->push_set = g->push_set;
  p->next = ctx->pipelines;
  if (ctx->pipelines) ctx->pipelines->prev = p;
  ctx->pipelines = p;
  return p;
}

spvgen_status spvgen_vk_pipeline_create(spvgen_vk_context *ctx, const uint32_t *words,
                                        size_t word_count, const spvgen_kernel_info *info,
                                        const spvgen_vk_pipeline_options *options,
                                        spvgen_vk_pipeline **out) {
  static const char *who = "spvgen_vk_pipeline_create";
  if (out) *out = NULL;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!out) return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: out is NULL", who);
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  pending *q = malloc(sizeof *q);
  if (!q) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  st = request_begin(ctx, who, words, word_count, info, options, q);
  if (st == SPVGEN_OK && !q->found) {
    double t0 = sg_vk_now_ms();
    st = program_prepare(ctx, who, q->g, q->p, words, word_count, q->subgroup_size, options, &q->job);
    if (st == SPVGEN_OK) program_run(&q->job);
    if (st == SPVGEN_OK) st = program_finish(ctx, who, &q->job);
    if (st == SPVGEN_OK) ctx->stats.compile_ms += sg_vk_now_ms() - t0;
  }
  if (st != SPVGEN_OK) {
    request_abandon(ctx, q);
    free(q);
    return st;
  }
  *out = request_end(ctx, q, q->g);
  free(q);
  return SPVGEN_OK;
}

/* The batch's compile threads: each takes the next job until none is left. */
typedef struct batch_work {
  pending *q;
  uint32_t count;
  uint32_t next;
  pthread_mutex_t lock;
} batch_work;

static void *batch_worker(void *arg) {
  batch_work *w = arg;
  for (;;) {
    pthread_mutex_lock(&w->lock);
    uint32_t i = w->next;
    while (i < w->count && (w->q[i].found || w->q[i].alias >= 0)) i++;
    w->next = i < w->count ? i + 1 : i;
    pthread_mutex_unlock(&w->lock);
    if (i >= w->count) return NULL;
    program_run(&w->q[i].job);
  }
}

spvgen_status spvgen_vk_pipelines_create(spvgen_vk_context *ctx, const spvgen_vk_pipeline_request *requests,
                                         uint32_t count, uint32_t threads, spvgen_vk_pipeline **out) {
  static const char *who = "spvgen_vk_pipelines_create";
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!out || (count && !requests))
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", who, out ? "requests" : "out");
  for (uint32_t i = 0; i < count; i++) out[i] = NULL;
  if (count > SPVGEN_VK_MAX_BATCH)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: count %u is over %u (SPVGEN_VK_MAX_BATCH)", who, count,
                      (unsigned)SPVGEN_VK_MAX_BATCH);
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK || !count) return st;
  pending *q = calloc(count, sizeof *q);
  if (!q) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  for (uint32_t i = 0; i < count; i++) q[i].alias = -1;
  const double t0 = sg_vk_now_ms();
  char whoi[64];
  uint32_t i = 0, news = 0;
  /* 1. every request checked, found or prepared, on this thread */
  for (; i < count && st == SPVGEN_OK; i++) {
    sg_vk_format(whoi, sizeof whoi, "%s: request %u", who, i);
    const spvgen_vk_pipeline_request *r = &requests[i];
    st = request_begin(ctx, whoi, r->words, r->word_count, r->info, r->options, &q[i]);
    if (st != SPVGEN_OK || q[i].found) continue;
    for (uint32_t j = 0; j < i; j++)
      if (same_new_program(ctx, &q[j], &q[i])) {
        program_free(ctx, q[i].g); /* the earlier request's compile serves both */
        q[i].g = q[j].g;
        q[i].alias = (int)j;
        break;
      }
    if (q[i].alias >= 0) continue;
    st = program_prepare(ctx, whoi, q[i].g, q[i].p, r->words, r->word_count, q[i].subgroup_size, r->options, &q[i].job);
    news++;
  }
  /* 2. the driver's compiles, on up to `threads` threads (this one among them) */
  if (st == SPVGEN_OK && news) {
    batch_work w = {q, count, 0, PTHREAD_MUTEX_INITIALIZER};
    uint32_t n = threads > news ? news : threads ? threads : 1;
    pthread_t tid[SPVGEN_VK_MAX_BATCH];
    uint32_t started = 0;
    for (uint32_t t = 1; t < n; t++) /* a thread that cannot start leaves its share to the others */
      if (pthread_create(&tid[started], NULL, batch_worker, &w) == 0) started++;
    batch_worker(&w);
    for (uint32_t t = 0; t < started; t++) pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&w.lock);
  }
  /* 3. results, in order: the first failure names its request; all or nothing */
  for (uint32_t k = 0; k < count && st == SPVGEN_OK; k++) {
    if (q[k].found || q[k].alias >= 0) continue;
    sg_vk_format(whoi, sizeof whoi, "%s: request %u", who, k);
    st = program_finish(ctx, whoi, &q[k].job);
  }
  if (st != SPVGEN_OK) {
    for (uint32_t k = 0; k < count; k++) { /* aliases first: they share an earlier request's program */
      if (q[k].alias >= 0) q[k].g = NULL;
      if (q[k].p || q[k].g) request_abandon(ctx, &q[k]);
    }
    free(q);
    return st;
  }
  if (news) ctx->stats.compile_ms += sg_vk_now_ms() - t0;
  for (uint32_t k = 0; k < count; k++) out[k] = request_end(ctx, &q[k], q[k].alias >= 0 ? q[q[k].alias].g : q[k].g);
  free(q);
  return SPVGEN_OK;
}

/* ---------------------------------------------- compiles in the background ---- */
/* One spvgen_vk_pipeline_create_async: a single create's steps with the driver's compile
 * (program_run) on a thread of its own. Heap-allocated and never moved: the job's create
 * info points into the job. */
struct spvgen_vk_compile {
  spvgen_vk_context *ctx;
  spvgen_vk_compile *prev, *next; /* ctx->compiles */
  pending q;
  uint32_t *words;                /* the request's, copied: request_end keeps them later */
  spvgen_vk_pipeline *ready;      /* a kernel-cache hit, ended at create */
  pthread_t thread;
  bool threaded, joined;
  double ms;                      /* the driver's compile, timed on its thread */
  atomic_bool done;               /* set last: the job and ms are then the thread's no more */
};

static void compile_run(spvgen_vk_compile *c) {
  double t0 = sg_vk_now_ms();
  program_run(&c->q.job);
  c->ms = sg_vk_now_ms() - t0;
  atomic_store(&c->done, true);
}

static void *compile_thread(void *arg) {
  compile_run(arg);
  return NULL;
}

/* Waits for the compile's thread to end (once: a save may have waited already). */
static void compile_join(spvgen_vk_compile *c) {
  if (c->threaded && !c->joined) pthread_join(c->thread, NULL);
  c->joined = true;
}

static void compile_unlink(spvgen_vk_compile *c) {
  if (c->prev) c->prev->next = c->next;
  else c->ctx->compiles = c->next;
  if (c->next) c->next->prev = c->prev;
  c->prev = c->next = NULL;
}

static void compile_free(spvgen_vk_compile *c) {
  free(c->words);
  free(c);
}

/* The request's steps on the calling thread: checks and kernel-cache lookup (a hit ends
 * the request here: a program found is never left unreferenced where an idle-list trim
 * could free it), then the module and create info. Nothing of the caller's is kept: the
 * words are copied, info is copied into the pipeline by request_begin, the options are
 * read by request_begin and program_prepare only. */
static spvgen_status compile_begin(spvgen_vk_context *ctx, const char *who, const spvgen_vk_pipeline_request *r,
                                   spvgen_vk_compile *c) {
  const uint32_t *words = r->words;
  if (words && r->word_count) { /* request_begin names a NULL or empty module */
    if (r->word_count > SIZE_MAX / sizeof *words)
      return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: word_count %zu is too large", who, r->word_count);
    c->words = malloc(r->word_count * sizeof *words);
    if (!c->words) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
    memcpy(c->words, words, r->word_count * sizeof *words);
    words = c->words;
  }
  spvgen_status st = request_begin(ctx, who, words, r->word_count, r->info, r->options, &c->q);
  c->q.options = NULL; /* the caller's: not kept */
  if (st == SPVGEN_OK && c->q.found) {
    c->ready = request_end(ctx, &c->q, c->q.g);
    atomic_store(&c->done, true);
    return SPVGEN_OK;
  }
  if (st == SPVGEN_OK)
    st = program_prepare(ctx, who, c->q.g, c->q.p, words, r->word_count, c->q.subgroup_size, r->options, &c->q.job);
  if (st != SPVGEN_OK) request_abandon(ctx, &c->q);
  return st;
}

spvgen_status spvgen_vk_pipeline_create_async(spvgen_vk_context *ctx, const spvgen_vk_pipeline_request *request,
                                              spvgen_vk_compile **out) {
  static const char *who = "spvgen_vk_pipeline_create_async";
  if (out) *out = NULL;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!request || !out)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", who, out ? "request" : "out");
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  spvgen_vk_compile *c = calloc(1, sizeof *c);
  if (!c) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  c->ctx = ctx;
  atomic_init(&c->done, false);
  st = compile_begin(ctx, who, request, c);
  if (st != SPVGEN_OK) {
    compile_free(c);
    return st;
  }
  if (!c->ready) {
    /* Without a thread of its own the compile runs here, done at return: a slow create,
     * still a working one. */
    c->threaded = pthread_create(&c->thread, NULL, compile_thread, c) == 0;
    if (!c->threaded) compile_run(c);
  }
  c->next = ctx->compiles; /* the thread never reads prev and next */
  if (ctx->compiles) ctx->compiles->prev = c;
  ctx->compiles = c;
  *out = c;
  return SPVGEN_OK;
}

bool spvgen_vk_compile_done(const spvgen_vk_compile *compile) {
  return !compile || atomic_load(&compile->done);
}

spvgen_status spvgen_vk_compile_finish(spvgen_vk_compile *compile, spvgen_vk_pipeline **out, double *compile_ms) {
  static const char *who = "spvgen_vk_compile_finish";
  if (out) *out = NULL;
  if (compile_ms) *compile_ms = 0;
  if (!compile) return SPVGEN_ERROR_INVALID_ARGUMENT;
  spvgen_vk_context *ctx = compile->ctx;
  if (!out) {
    spvgen_vk_compile_cancel(compile);
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: out is NULL", who);
  }
  compile_join(compile);
  compile_unlink(compile);
  spvgen_vk_pipeline *p = compile->ready;
  spvgen_status st = p ? SPVGEN_OK : program_finish(ctx, who, &compile->q.job);
  if (!p && st == SPVGEN_OK) {
    /* The driver's time on its thread: the caller's work meanwhile is no compile's. */
    ctx->stats.compile_ms += compile->ms;
    if (compile_ms) *compile_ms = compile->ms;
    p = request_end(ctx, &compile->q, compile->q.g);
  }
  if (st != SPVGEN_OK) request_abandon(ctx, &compile->q);
  compile_free(compile);
  *out = p;
  return st;
}

void spvgen_vk_compile_cancel(spvgen_vk_compile *compile) {
  if (!compile) return;
  compile_join(compile);
  compile_unlink(compile);
  if (compile->ready) spvgen_vk_pipeline_destroy(compile->ready);
  else request_abandon(compile->ctx, &compile->q);
  compile_free(compile);
}

void sg_vk_compiles_wait(spvgen_vk_context *ctx) {
  for (spvgen_vk_compile *c = ctx->compiles; c; c = c->next) compile_join(c);
}

void sg_vk_compiles_cancel(spvgen_vk_context *ctx) {
  while (ctx->compiles) spvgen_vk_compile_cancel(ctx->compiles);
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
  sg_vk_program *g = p->program;
  free(p);
  if (g && --g->refs == 0) {
    ctx->idle_programs++;
    /* An idle program stays for a later create of the same words, up to the capacity
     * (none when reuse is off). */
    programs_trim(ctx, ctx->no_reuse ? 0 : ctx->idle_capacity);
  }
}

void spvgen_vk_pipeline_handles(const spvgen_vk_pipeline *p, uint64_t *vk_pipeline,
                                uint64_t *vk_pipeline_layout) {
  if (vk_pipeline) *vk_pipeline = p ? (uint64_t)p->pipeline : 0;
  if (vk_pipeline_layout) *vk_pipeline_layout = p ? (uint64_t)p->layout : 0;
}

const spvgen_kernel_info *spvgen_vk_pipeline_info(const spvgen_vk_pipeline *p) {
  return p ? &p->info : NULL;
}

uint64_t spvgen_vk_pipeline_binding_min_size(const spvgen_vk_pipeline *p, uint32_t i) {
  if (!p || i >= p->info.binding_count) return 0;
  uint64_t a = p->binding_min_size[i], b = p->info.bindings[i].min_size;
  return a > b ? a : b;
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
