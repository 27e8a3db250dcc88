/* lib/template/mlp_weights.c — the MLP weight buffer as the device reads it; see template.h. */
#include "template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

spvgen_status sg_mlp_device_weights(spvgen_vk_context *ctx, const spvgen_mlp_config *plan,
                                        const uint8_t *weights, uint8_t **out, uint64_t *out_bytes,
                                        spvgen_spec_constant spec[SPVGEN_MLP_MAX_LAYERS],
                                        uint32_t *spec_count, char *msg, size_t size) {
  *out = NULL;
  *out_bytes = 0;
  *spec_count = 0;
  bool optimal = plan->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL;
  spvgen_vk_coopvec_matrix mat[SPVGEN_MLP_MAX_LAYERS];
  size_t dst[SPVGEN_MLP_MAX_LAYERS];
  uint64_t total = plan->weight_bytes;
  for (uint32_t l = 0; optimal && l < plan->layer_count; l++) {
    const spvgen_mlp_layer *L = &plan->layers[l];
    memset(&mat[l], 0, sizeof mat[l]);
    mat[l].rows = L->outputs;
    mat[l].columns = L->inputs;
    mat[l].src_type = plan->desc.weight_type == SPVGEN_COMPONENT_S8 ? SPVGEN_COMPONENT_S8 : SPVGEN_COMPONENT_F16;
    mat[l].dst_type = plan->desc.weight_type; /* f16, or float8: the host's weights are on its grid */
    mat[l].src_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV;
    mat[l].dst_layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV;
    mat[l].src_stride = L->row_stride;
    if (spvgen_vk_coopvec_matrix_size(ctx, &mat[l], &dst[l]) != SPVGEN_OK) {
      snprintf(msg, size, "layer %u's optimal matrix: %s", l, spvgen_vk_error(ctx));
      return SPVGEN_ERROR_VULKAN;
    }
    total = (total + 63) & ~63ull;
    spec[l].id = (plan->desc.spec_id_base ? plan->desc.spec_id_base : SPVGEN_MLP_SPEC_MATRIX_OFFSET) + l;
    spec[l].size = 4;
    spec[l].value = total;
    spec[l].name = NULL;
    total += dst[l];
  }
  total = (total + 15) & ~15ull;
  if (total > 0xFFFFFFFFull) {
    snprintf(msg, size, "the optimal weights need %llu bytes; offsets are 32-bit", (unsigned long long)total);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  uint8_t *buf = calloc(total ? total : 1, 1);
  if (!buf) {
    snprintf(msg, size, "out of host memory for %llu weight bytes", (unsigned long long)total);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  memcpy(buf, weights, plan->weight_bytes);
  for (uint32_t l = 0; optimal && l < plan->layer_count; l++) {
    const spvgen_mlp_layer *L = &plan->layers[l];
    size_t written = 0;
    if (spvgen_vk_convert_coopvec_matrix(ctx, &mat[l], weights + L->matrix_offset,
                                         (size_t)L->row_stride * L->outputs, buf + spec[l].value, dst[l],
                                         &written) != SPVGEN_OK) {
      snprintf(msg, size, "layer %u's optimal matrix: %s", l, spvgen_vk_error(ctx));
      free(buf);
      return SPVGEN_ERROR_VULKAN;
    }
  }
  *out = buf;
  *out_bytes = total;
  *spec_count = optimal ? plan->layer_count : 0;
  return SPVGEN_OK;
}
