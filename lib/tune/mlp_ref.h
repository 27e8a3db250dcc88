/* lib/tune/mlp_ref.h — the host side of checking an MLP (mlp_ref.c): random nonzero
 * weights and points, and the float64 forward reference with its propagated error bound
 * (tools/common/mlp_run.h describes the bound). Internal: used by the tuner
 * (tune_mlp.c) and by tools/common/mlp_run.c; not exported from libspvgen.so. */
#ifndef SPVGEN_TUNE_MLP_REF_H
#define SPVGEN_TUNE_MLP_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/mlp.h"
#include "spvgen/vk.h"

/* Random weights (f16, nonzero, scaled by 1/sqrt(inputs)) and biases into weights
 * (plan->weight_bytes bytes; the padding gets 1000.0 so that a kernel reading it fails),
 * and points * input_width random input components of input_type into input (one-blob and
 * hash grid: in (0, 1), the grid's points never where an f32 rounding could change their
 * cell; else +-[1/8, 1)); the hash grid's table +-[1/8, 1). seed 0: a fixed default. */
void sg_ref_mlp_fill(const spvgen_mlp_config *plan, uint64_t points, uint64_t seed, uint8_t *weights,
                     void *input);

/* The hash grid (spvgen/mlp.h) at level l for raw point x[input_width]: the 2^D corners'
 * table elements (of feature 0, from the table's start: (offset + index) * features),
 * their interpolation weights from the fused f32 position fma(scale, x, 0.5), and in
 * *frac_err the largest distance between that and the unfused position (the device may
 * compute either). Returns 2^D. */
uint32_t sg_ref_mlp_grid_corners(const spvgen_mlp_config *plan, const double *x, uint32_t l,
                                 uint64_t *elem, double *weight, double *frac_err);
/* Whether fused and unfused f32 positions of x fall into different cells at some level
 * (the data generator redraws such points: the device could take either cell). */
bool sg_ref_mlp_grid_ambiguous(const spvgen_mlp_config *plan, const double *x);

/* The float64 reference of point pt: out[output_width] and err[output_width], a bound on
 * the device's error for the plan's variant. */
void sg_ref_mlp_point(const spvgen_mlp_config *plan, const uint8_t *weights, const void *input, uint64_t pt,
                      double *out, double *err);

/* The tolerance of an output with reference ref and bound err:
 * 2 err + 2^-10 |ref| (f16 output; 2^-24 for f32) + 1e-6. */
double sg_ref_mlp_tolerance(const spvgen_mlp_config *plan, double ref, double err);

/* Output component i (of output_type) of a host array. */
double sg_ref_mlp_get_output(const spvgen_mlp_config *plan, const void *out, uint64_t i);

/* The weight buffer of a plan with SPVGEN_MLP_WEIGHTS_OPTIMAL (mlp.h): the row-major
 * weights (plan->weight_bytes, biases included) copied to [0, weight_bytes), then each
 * layer's matrix converted by the driver (vkConvertCooperativeVectorMatrixNV, row-major
 * f16 -> InferencingOptimalNV f16) at the next multiple of 64; a layer that vec_rows
 * splits as its pieces, each converted on its own, one piece stride (the full piece's
 * size rounded to 64) apart. *out (malloc'd, *out_bytes bytes) and spec
 * [SPVGEN_MLP_MAX_SPEC] (the matrix_offset_<l> values, then the matrix_piece_bytes_<l>
 * of the split layers) are the caller's; for a row-major plan, *out is a copy and no spec
 * constant is written (*spec_count 0). */
spvgen_status sg_ref_mlp_device_weights(spvgen_vk_context *ctx, const spvgen_mlp_config *plan,
                                        const uint8_t *weights, uint8_t **out, uint64_t *out_bytes,
                                        spvgen_spec_constant spec[SPVGEN_MLP_MAX_SPEC],
                                        uint32_t *spec_count, char *msg, size_t size);

#endif
