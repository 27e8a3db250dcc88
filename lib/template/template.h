/* lib/template/template.h — the kernel templates as the tools above the library see them
 * (the tuner, tools/common, bench/, the CLI, the tests): the MLP's device data and the
 * strict number parsers every command and benchmark shares. Internal to spvgen
 * (tests/scripts/check_includes.py lists who may include this). */
#ifndef SPVGEN_TEMPLATE_H
#define SPVGEN_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/mlp.h"
#include "spvgen/vk.h"

/* --------------------------------------------------------- MLP device data ---- */
/* The weight buffer of an MLP plan as the device reads it. With
 * SPVGEN_MLP_WEIGHTS_OPTIMAL (mlp.h): the row-major weights (plan->weight_bytes, biases
 * included) copied to [0, weight_bytes), then each layer's matrix converted by the driver
 * (vkConvertCooperativeVectorMatrixNV, row-major f16 -> InferencingOptimalNV f16) at the
 * next multiple of 64; a layer that vec_rows splits as its pieces, each converted on its
 * own, one piece stride (the full piece's size rounded to 64) apart. *out (malloc'd,
 * *out_bytes bytes) and spec[SPVGEN_MLP_MAX_SPEC] (the matrix_offset_<l> values, then the
 * matrix_piece_bytes_<l> of the split layers) are the caller's; for a row-major plan,
 * *out is a copy and no spec constant is written (*spec_count 0). (mlp_weights.c) */
spvgen_status sg_mlp_device_weights(spvgen_vk_context *ctx, const spvgen_mlp_config *plan, const uint8_t *weights,
                                    uint8_t **out, uint64_t *out_bytes, spvgen_spec_constant spec[SPVGEN_MLP_MAX_SPEC],
                                    uint32_t *spec_count, char *msg, size_t size);

/* ------------------------------------------------------- strict numbers ---- */
/* The whole text is the number, no sign or spaces, within [min, max]; false otherwise
 * (the caller's usage error names the flag). sg_parse_u64 takes "0x..." too when hex_ok;
 * sg_parse_number any finite decimal or hexadecimal float; sg_parse_u32_list
 * 1..capacity numbers separated by sep ("64," and "" are refused). (args.c) */
bool sg_parse_u64(const char *s, bool hex_ok, uint64_t min, uint64_t max, uint64_t *out);
bool sg_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
bool sg_parse_number(const char *s, double min, double max, double *out);
bool sg_parse_u32_list(const char *s, char sep, uint32_t min, uint32_t max, uint32_t *values, uint32_t capacity,
                       uint32_t *count);

#endif
