/* lib/ref/ref_activation.c — see ref_activation.h. */
#include "ref_activation.h"

#include <math.h>

/* The tanh approximation's constant as the kernels write it (emitters/common/activation.c). */
#define GELU_C 0.7978845608

double sg_ref_activation(double x, spvgen_activation a, double slope) {
  switch (a) {
  case SPVGEN_ACTIVATION_RELU: return x > 0 ? x : 0;
  case SPVGEN_ACTIVATION_LEAKY_RELU: return x >= 0 ? x : slope * x;
  case SPVGEN_ACTIVATION_SIGMOID: return 1.0 / (1.0 + exp(-x));
  case SPVGEN_ACTIVATION_TANH: return tanh(x);
  case SPVGEN_ACTIVATION_SILU: return x / (1.0 + exp(-x));
  case SPVGEN_ACTIVATION_EXP: return exp(x);
  case SPVGEN_ACTIVATION_GELU: return 0.5 * x * (1.0 + tanh(GELU_C * (x + 0.044715 * x * x * x)));
  default: return x;
  }
}

double sg_ref_activation_deriv(double z, spvgen_activation a, double slope) {
  switch (a) {
  case SPVGEN_ACTIVATION_RELU: return z > 0 ? 1 : 0;
  case SPVGEN_ACTIVATION_LEAKY_RELU: return z >= 0 ? 1 : slope;
  case SPVGEN_ACTIVATION_SIGMOID: {
    double s = 1.0 / (1.0 + exp(-z));
    return s * (1 - s);
  }
  case SPVGEN_ACTIVATION_TANH: {
    double y = tanh(z);
    return 1 - y * y;
  }
  case SPVGEN_ACTIVATION_SILU: {
    double s = 1.0 / (1.0 + exp(-z));
    return s * (1 + z * (1 - s));
  }
  case SPVGEN_ACTIVATION_EXP: return exp(z);
  case SPVGEN_ACTIVATION_GELU: {
    double t = tanh(GELU_C * (z + 0.044715 * z * z * z));
    return 0.5 * (1 + t) + 0.5 * z * (1 - t * t) * GELU_C * (1 + 3 * 0.044715 * z * z);
  }
  default: return 1;
  }
}

double sg_ref_activation_slope_bound(double z, double e, spvgen_activation a, double slope) {
  switch (a) {
  case SPVGEN_ACTIVATION_LEAKY_RELU: return fabs(slope) > 1 ? fabs(slope) : 1;
  case SPVGEN_ACTIVATION_SIGMOID: return 0.25;
  case SPVGEN_ACTIVATION_SILU: return 1.1;
  case SPVGEN_ACTIVATION_EXP: return exp(z + e);
  case SPVGEN_ACTIVATION_GELU: return 1.13; /* max |gelu'| = 1.129 near z = 1.5 */
  default: return 1;
  }
}

double sg_ref_activation_curvature_bound(double z, double e, spvgen_activation a) {
  switch (a) {
  case SPVGEN_ACTIVATION_SIGMOID: return 0.1;
  case SPVGEN_ACTIVATION_TANH: return 0.77;
  case SPVGEN_ACTIVATION_SILU: return 0.5;
  case SPVGEN_ACTIVATION_EXP: return exp(z + e);
  case SPVGEN_ACTIVATION_GELU: return 0.8; /* gelu''(0) = 2 / sqrt(2 pi), the largest */
  default: return 0;
  }
}

bool sg_ref_activation_transcendental(spvgen_activation a) {
  return a == SPVGEN_ACTIVATION_SIGMOID || a == SPVGEN_ACTIVATION_TANH || a == SPVGEN_ACTIVATION_SILU ||
         a == SPVGEN_ACTIVATION_EXP || a == SPVGEN_ACTIVATION_GELU;
}
