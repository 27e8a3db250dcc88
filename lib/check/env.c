/* lib/check/env.c — names of the target environments, spelled as spirv-val's
 * --target-env spells them so that the CLI and spirv-val agree. */
#include "names.h" /* lib/core: one table per enum */
#include "spvgen/check.h"

static const char *const env_names[] = {
    [SPVGEN_ENV_VULKAN_1_3] = "vulkan1.3", [SPVGEN_ENV_VULKAN_1_4] = "vulkan1.4",
    [SPVGEN_ENV_VULKAN_1_2] = "vulkan1.2", [SPVGEN_ENV_VULKAN_1_1] = "vulkan1.1",
    [SPVGEN_ENV_UNIVERSAL_1_6] = "universal1.6",
};

const char *spvgen_target_env_name(spvgen_target_env env) {
  return sg_names_name(env_names, sizeof env_names / sizeof env_names[0], (unsigned)env, "unknown");
}

spvgen_status spvgen_target_env_parse(const char *name, spvgen_target_env *env) {
  unsigned v;
  if (!sg_names_parse(env_names, sizeof env_names / sizeof env_names[0], name, &v))
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (env) *env = (spvgen_target_env)v;
  return SPVGEN_OK;
}
