/* lib/vk/statistics.c — what the driver says about a compiled pipeline
 * (VK_KHR_pipeline_executable_properties): the statistics of its compute executable,
 * converted to spvgen_vk_pipeline_stat. The extension and its feature are enabled by
 * device creation (lib/vk/device_query.c, lib/vk/context.c), the capture flag set by
 * lib/vk/pipeline.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void copy_text(char *dst, size_t size, const char *src) {
  size_t n = 0;
  while (n < size - 1 && src[n]) n++;
  memcpy(dst, src, n);
  dst[n] = 0;
}

static double stat_value(const VkPipelineExecutableStatisticKHR *s) {
  switch (s->format) {
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return s->value.b32 ? 1.0 : 0.0;
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return (double)s->value.i64;
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return (double)s->value.u64;
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return s->value.f64;
  default: return NAN; /* a format newer than spvgen */
  }
}

/* Index of the first executable whose stages include compute (UINT32_MAX: none). */
static spvgen_status compute_executable(spvgen_vk_context *ctx, const char *who,
                                        VkPipeline pipeline, uint32_t *index) {
  *index = UINT32_MAX;
  VkPipelineInfoKHR pi = {VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, NULL, pipeline};
  uint32_t n = 0;
  VkResult r = ctx->GetPipelineExecutablePropertiesKHR(ctx->device, &pi, &n, NULL);
  if (r != VK_SUCCESS)
    return sg_vk_fail_call(ctx, who, "vkGetPipelineExecutablePropertiesKHR", r);
  if (n == 0) return SPVGEN_OK;
  VkPipelineExecutablePropertiesKHR *props = calloc(n, sizeof *props);
  if (!props) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  for (uint32_t i = 0; i < n; i++)
    props[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
  r = ctx->GetPipelineExecutablePropertiesKHR(ctx->device, &pi, &n, props);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
    free(props);
    return sg_vk_fail_call(ctx, who, "vkGetPipelineExecutablePropertiesKHR", r);
  }
  for (uint32_t i = 0; i < n && *index == UINT32_MAX; i++)
    if (props[i].stages & VK_SHADER_STAGE_COMPUTE_BIT) *index = i;
  free(props);
  return SPVGEN_OK;
}

spvgen_status spvgen_vk_pipeline_statistics(spvgen_vk_context *ctx,
                                            const spvgen_vk_pipeline *pipeline,
                                            spvgen_vk_pipeline_stat *out, uint32_t max,
                                            uint32_t *count) {
  static const char *who = "spvgen_vk_pipeline_statistics";
  if (count) *count = 0;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!pipeline || !count || (max && !out))
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", who,
                          !pipeline ? "pipeline" : !count ? "count" : "out (with max > 0)");
  if (pipeline->ctx != ctx)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: the pipeline belongs to another context", who);
  spvgen_status st = sg_vk_check_usable(ctx, who);
  if (st != SPVGEN_OK) return st;
  if (!ctx->pipeline_statistics)
    return sg_vk_fail(
        ctx, SPVGEN_ERROR_UNSUPPORTED,
        "%s: VK_KHR_pipeline_executable_properties (pipelineExecutableInfo) is not enabled "
        "on '%s'%s",
        who, ctx->caps.name,
        ctx->wrapped ? ": a wrapped context never enables it" : ": the device lacks it");

  uint32_t index;
  st = compute_executable(ctx, who, pipeline->pipeline, &index);
  if (st != SPVGEN_OK) return st;
  if (index == UINT32_MAX)
    return sg_vk_fail(ctx, SPVGEN_ERROR_UNSUPPORTED,
                          "%s: vkGetPipelineExecutablePropertiesKHR lists no compute "
                          "executable for the pipeline",
                          who);
  VkPipelineExecutableInfoKHR ei = {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, NULL,
                                    pipeline->pipeline, index};
  uint32_t n = 0;
  VkResult r = ctx->GetPipelineExecutableStatisticsKHR(ctx->device, &ei, &n, NULL);
  if (r != VK_SUCCESS)
    return sg_vk_fail_call(ctx, who, "vkGetPipelineExecutableStatisticsKHR", r);
  if (n == 0 || max == 0) {
    *count = n;
    return SPVGEN_OK;
  }
  VkPipelineExecutableStatisticKHR *stats = calloc(n, sizeof *stats);
  if (!stats) return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  for (uint32_t i = 0; i < n; i++)
    stats[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
  r = ctx->GetPipelineExecutableStatisticsKHR(ctx->device, &ei, &n, stats);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
    free(stats);
    return sg_vk_fail_call(ctx, who, "vkGetPipelineExecutableStatisticsKHR", r);
  }
  for (uint32_t i = 0; i < n && i < max; i++) {
    copy_text(out[i].name, sizeof out[i].name, stats[i].name);
    copy_text(out[i].description, sizeof out[i].description, stats[i].description);
    out[i].value = stat_value(&stats[i]);
  }
  free(stats);
  *count = n;
  return SPVGEN_OK;
}
