/* lib/template/mlp_weights.c — the MLP weight buffer as the device reads it; see template.h. */
#include "template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The conversion of rows [r0, r0 + rows) of layer L's row-major matrix. */
static spvgen_vk_coopvec_matrix optimal_piece(const spvgen_mlp_config *plan, const spvgen_mlp_layer *L, uint32_t rows) {
  spvgen_vk_coopvec_matrix mat;
  memset(&mat, 0, sizeof mat);
  mat.rows = rows;
  mat.columns = L->inputs;
  mat.src_type = plan->desc.weight_type == SPVGEN_COMPONENT_S8 ? SPVGEN_COMPONENT_S8 : SPVGEN_COMPONENT_F16;
  mat.dst_type = plan->desc.weight_type; /* f16, or float8: the host's weights are on its grid */
  mat.src_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV;
  mat.dst_layout = SpvCooperativeVectorMatrixLayoutInferencingOptimalNV;
  mat.src_stride = L->row_stride;
  return mat;
}

spvgen_status sg_mlp_device_weights(spvgen_vk_context *ctx, const spvgen_mlp_config *plan,
                                        const uint8_t *weights, uint8_t **out, uint64_t *out_bytes,
                                        spvgen_spec_constant spec[SPVGEN_MLP_MAX_SPEC],
                                        uint32_t *spec_count, char *msg, size_t size) {
  *out = NULL;
  *out_bytes = 0;
  *spec_count = 0;
  const bool optimal = plan->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL;
  const uint32_t base = plan->desc.spec_id_base ? plan->desc.spec_id_base : SPVGEN_MLP_SPEC_MATRIX_OFFSET;
  uint64_t stride[SPVGEN_MLP_MAX_LAYERS]; /* a layer's piece stride (its one matrix's size) */
  uint32_t prows[SPVGEN_MLP_MAX_LAYERS];  /* rows per piece */
  uint64_t total = plan->weight_bytes;
  uint32_t n = 0;
  for (uint32_t l = 0; optimal && l < plan->layer_count; l++) {
    const spvgen_mlp_layer *L = &plan->layers[l];
    const uint32_t R = plan->desc.vec_rows && plan->desc.vec_rows < L->outputs ? plan->desc.vec_rows : L->outputs;
    const uint32_t pieces = (L->outputs + R - 1) / R;
    spvgen_vk_coopvec_matrix mat = optimal_piece(plan, L, R);
    size_t bytes = 0;
    if (spvgen_vk_coopvec_matrix_size(ctx, &mat, &bytes) != SPVGEN_OK) {
      snprintf(msg, size, "layer %u's optimal matrix: %s", l, spvgen_vk_error(ctx));
      return SPVGEN_ERROR_VULKAN;
    }
    prows[l] = R;
    stride[l] = pieces > 1 ? (bytes + 63) & ~63ull : bytes;
    total = (total + 63) & ~63ull;
    spec[n].id = base + l;
    spec[n].size = 4;
    spec[n].value = total;
    spec[n].name = NULL;
    n++;
    total += stride[l] * (pieces - 1);
    if (pieces > 1) { /* the last piece may be shorter: its own size */
      mat = optimal_piece(plan, L, L->outputs - R * (pieces - 1));
      if (spvgen_vk_coopvec_matrix_size(ctx, &mat, &bytes) != SPVGEN_OK) {
        snprintf(msg, size, "layer %u's optimal matrix: %s", l, spvgen_vk_error(ctx));
        return SPVGEN_ERROR_VULKAN;
      }
    }
    total += bytes;
  }
  for (uint32_t l = 0; optimal && l < plan->layer_count; l++)
    if (prows[l] < plan->layers[l].outputs) { /* the split layers' piece strides */
      spec[n].id = base + SPVGEN_MLP_SPEC_PIECE_BYTES + l;
      spec[n].size = 4;
      spec[n].value = stride[l];
      spec[n].name = NULL;
      n++;
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
    for (uint32_t r0 = 0; r0 < L->outputs; r0 += prows[l]) {
      const uint32_t rows = L->outputs - r0 < prows[l] ? L->outputs - r0 : prows[l];
      spvgen_vk_coopvec_matrix mat = optimal_piece(plan, L, rows);
      const uint64_t at = spec[l].value + stride[l] * (r0 / prows[l]);
      size_t written = 0;
      if (spvgen_vk_convert_coopvec_matrix(ctx, &mat, weights + L->matrix_offset + (uint64_t)r0 * L->row_stride,
                                           (size_t)L->row_stride * rows, buf + at, (size_t)(total - at),
                                           &written) != SPVGEN_OK) {
        snprintf(msg, size, "layer %u's optimal matrix (rows %u..%u): %s", l, r0, r0 + rows, spvgen_vk_error(ctx));
        free(buf);
        return SPVGEN_ERROR_VULKAN;
      }
    }
  }
  *out = buf;
  *out_bytes = total;
  *spec_count = n;
  return SPVGEN_OK;
}
