/* lib/ref/ref_mlp.h — the host side of checking an MLP (ref_mlp.c): random nonzero
 * weights and points, and the float64 forward reference with its propagated error bounds,
 * worst-case and statistical (tools/common/mlp_run.h describes them). Internal to spvgen
 * (lib/ref): the tuner, tools/common and the tests check MLP kernels with it. */
#ifndef SPVGEN_REF_MLP_H
#define SPVGEN_REF_MLP_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/mlp.h"

/* Random weights (f16, nonzero, scaled by 1/sqrt(inputs)) and biases into weights
 * (plan->weight_bytes bytes; the padding gets 1000.0 so that a kernel reading it fails),
 * and points * input_width random input components of input_type into input (one-blob and
 * hash grid: in (0, 1), the grid's points never where an f32 rounding could change their
 * cell; else +-[1/8, 1)); the hash grid's table +-[1/8, 1). seed 0: a fixed default. */
void sg_ref_mlp_fill(const spvgen_mlp_config *plan, uint64_t points, uint64_t seed, uint8_t *weights,
                     void *input);

/* The safety factor F of the statistical error bound F g + c (tools/common/mlp_run.h):
 * g the root-sum-square of the bounds of the independent rounding errors that came
 * through the sums (a bound is at least the error's standard deviation), c the worst case
 * of the value's own last roundings. A sum of independent zero-mean errors bounded so lies
 * past F g with probability at most 2 exp(-F^2 / 2) (Hoeffding): 3e-14 at 8; the largest
 * of millions of outputs' errors stays within about 6. lib/ref/ref_mlp_train.c takes it
 * too. */
#define SG_REF_MLP_SIGMAS 8.0

/* The float64 reference of point pt: out[output_width] and err[output_width], a bound on
 * the device's error for the plan's variant: the smaller of the worst case and the
 * statistical bound (one number, so that the callers — the checks, the tuner's pairwise
 * comparison, the sessions' cached references — take it as they took the worst case). */
void sg_ref_mlp_point(const spvgen_mlp_config *plan, const uint8_t *weights, const void *input, uint64_t pt,
                      double *out, double *err);

/* The tolerance of an output with reference ref and bound err:
 * 2 err + 2^-10 |ref| (f16 output; 2^-24 for f32) + 1e-6. */
double sg_ref_mlp_tolerance(const spvgen_mlp_config *plan, double ref, double err);

/* Output component i (of output_type) of a host array. */
double sg_ref_mlp_get_output(const spvgen_mlp_config *plan, const void *out, uint64_t i);

#endif
