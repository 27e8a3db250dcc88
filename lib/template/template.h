/* lib/template/template.h — the kernel templates as the tools above the library see them
 * (the tuner, tools/common, bench/, the tests). Internal to spvgen. */
#ifndef SPVGEN_TEMPLATE_H
#define SPVGEN_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#include "spvgen/mlp.h"
#include "spvgen/vk.h"

/* The weight buffer of an MLP plan as the device reads it. With
 * SPVGEN_MLP_WEIGHTS_OPTIMAL (mlp.h): the row-major weights (plan->weight_bytes, biases
 * included) copied to [0, weight_bytes), then each layer's matrix converted by the driver
 * (vkConvertCooperativeVectorMatrixNV, row-major f16 -> InferencingOptimalNV f16) at the
 * next multiple of 64. *out (malloc'd, *out_bytes bytes) and spec[layer_count] (the
 * matrix_offset_<l> values) are the caller's; for a row-major plan, *out is a copy and no
 * spec constant is written (*spec_count 0). */
spvgen_status sg_mlp_device_weights(spvgen_vk_context *ctx, const spvgen_mlp_config *plan, const uint8_t *weights,
                                    uint8_t **out, uint64_t *out_bytes,
                                    spvgen_spec_constant spec[SPVGEN_MLP_MAX_LAYERS], uint32_t *spec_count,
                                    char *msg, size_t size);

#endif
