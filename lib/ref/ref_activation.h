/* lib/ref/ref_activation.h — the float64 activations (spvgen/activation.h) the references
 * compute with: the values, their derivatives with the kernels' conventions at the
 * kinks, and bounds on the first and second derivative over an interval (the error
 * bounds of ref_mlp.c and ref_mlp_train.c carry a value's error through them). One copy
 * for the GEMM's epilogue and the MLP's forward and backward references. Internal to
 * spvgen (lib/ref). */
#ifndef SPVGEN_REF_ACTIVATION_H
#define SPVGEN_REF_ACTIVATION_H

#include "spvgen/activation.h"

/* act(x); DEFAULT and NONE are x (the templates resolve DEFAULT before a reference
 * sees it); slope: LEAKY_RELU's; GELU the tanh approximation the kernels emit. */
double sg_ref_activation(double x, spvgen_activation act, double slope);
/* act'(z), with the kernels' conventions at the kinks: relu'(0) = 0, leaky'(0) = 1. */
double sg_ref_activation_deriv(double z, spvgen_activation act, double slope);
/* Bounds on |act'| and |act''| over [z - e, z + e]. */
double sg_ref_activation_slope_bound(double z, double e, spvgen_activation act, double slope);
double sg_ref_activation_curvature_bound(double z, double e, spvgen_activation act);
/* Whether the kernels compute act with exp or tanh (sigmoid, tanh, silu, exp, gelu): an
 * f32 result carries those functions' error on top of its inputs'. */
bool sg_ref_activation_transcendental(spvgen_activation act);

#endif
