/* lib/ref/ref_grid.h — the float64 reference of the MLP's multiresolution hash grid
 * encoding (spvgen/mlp.h, SPVGEN_MLP_ENCODING_HASH_GRID): which table entries a point
 * reads at each level, with which weights, and the encoded features with a bound on the
 * device's error. One copy for the inference reference (ref_mlp.c) and the training one
 * (ref_mlp_train.c). Internal to spvgen (lib/ref). */
#ifndef SPVGEN_REF_GRID_H
#define SPVGEN_REF_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/mlp.h"

/* The hash grid at level l for raw point x[input_width]: the 2^D corners' table elements
 * (of feature 0, from the table's start: (offset + index) * features), their
 * interpolation weights from the fused f32 position fma(scale, x, 0.5), and in *frac_err
 * the largest distance between that and the unfused position (the device may compute
 * either). Returns 2^D. */
uint32_t sg_ref_grid_corners(const spvgen_mlp_config *plan, const double *x, uint32_t l, uint64_t *elem,
                             double *weight, double *frac_err);
/* Whether fused and unfused f32 positions of x fall into different cells at some level
 * (the data generator redraws such points: the device could take either cell). */
bool sg_ref_grid_ambiguous(const spvgen_mlp_config *plan, const double *x);
/* The features of raw point x into out[levels * features], read from the f16 table in
 * weights (at plan->grid_offset), with err[] a bound on the device's error: the
 * fraction's (fused against unfused position, through the corners' values), f32
 * rounding of weights and sums (2^-21 of the magnitudes), and u_store |value| (f16
 * features on the vec / mat paths; 0 where they stay f32). */
void sg_ref_grid_features(const spvgen_mlp_config *plan, const uint8_t *weights, const double *x,
                          double u_store, double *out, double *err);

#endif
