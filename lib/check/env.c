/* lib/check/env.c — names of the target environments, spelled as spirv-val's
 * --target-env spells them so that the CLI and spirv-val agree. */
#include <string.h>

#include "spvgen/check.h"

static const struct {
  spvgen_target_env env;
  const char *name;
} envs[] = {
  {SPVGEN_ENV_VULKAN_1_3, "vulkan1.3"},
  {SPVGEN_ENV_VULKAN_1_4, "vulkan1.4"},
  {SPVGEN_ENV_VULKAN_1_2, "vulkan1.2"},
  {SPVGEN_ENV_VULKAN_1_1, "vulkan1.1"},
  {SPVGEN_ENV_UNIVERSAL_1_6, "universal1.6"},
};

const char *spvgen_target_env_name(spvgen_target_env env) {
  for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++)
    if (envs[i].env == env) return envs[i].name;
  return "unknown";
}

spvgen_status spvgen_target_env_parse(const char *name, spvgen_target_env *env) {
  if (!name) return SPVGEN_ERROR_INVALID_ARGUMENT;
  for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++) {
    if (!strcmp(name, envs[i].name)) {
      if (env) *env = envs[i].env;
      return SPVGEN_OK;
    }
  }
  return SPVGEN_ERROR_INVALID_ARGUMENT;
}
