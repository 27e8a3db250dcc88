/* spvgen/activation.h — the activations every template names the same way: one enum, one
 * name per value (the CLI's --act, JSON, cache keys), for the GEMM epilogue and the MLP's
 * layers alike. A template takes the subset it implements and refuses the others by name
 * in its plan:
 *   GEMM (spvgen/gemm.h)  every one (leaky_relu's slope: desc.leaky_slope); integer
 *                         outputs: none and relu (float inputs also gelu, silu)
 *   MLP  (spvgen/mlp.h)   none, relu, leaky_relu, sigmoid, tanh, silu, exp (every
 *                         variant, the layers variant's GEMM epilogues included)
 * 0 is DEFAULT, the template's own default (GEMM: none; MLP: relu on hidden layers, none
 * on the output layer), so a zeroed desc is a complete request. Both templates build
 * them with one f32 builder (the same formulas; leaky_slope 0 is 0.01 in both).
 *
 * Until 2026-11 the GEMM and the MLP had an enum each, with different numbers (GEMM: relu
 * 1; MLP: relu 2). The names SPVGEN_ACTIVATION_NONE / RELU / GELU / SILU and the MLP's
 * SPVGEN_MLP_ACT_* and spvgen_mlp_activation remain (the latter as aliases in mlp.h), so
 * source that uses names compiles unchanged; code that stored GEMM activations as numbers
 * must be rebuilt, and a zeroed GEMM desc now reads DEFAULT where it read NONE (the plan
 * resolves it to NONE). */
#ifndef SPVGEN_ACTIVATION_H
#define SPVGEN_ACTIVATION_H

#include <stdbool.h>

#include "spvgen/export.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

typedef enum spvgen_activation {
  SPVGEN_ACTIVATION_DEFAULT = 0,    /* the template's default (above) */
  SPVGEN_ACTIVATION_NONE = 1,       /* x */
  SPVGEN_ACTIVATION_RELU = 2,       /* max(x, 0) */
  SPVGEN_ACTIVATION_LEAKY_RELU = 3, /* x >= 0 ? x : slope * x (desc.leaky_slope, GEMM and MLP) */
  SPVGEN_ACTIVATION_SIGMOID = 4,    /* 1 / (1 + exp(-x)) */
  SPVGEN_ACTIVATION_TANH = 5,       /* tanh(x) (in f32 as 1 - 2 / (e^2x + 1), a polynomial
                                       below |x| 1/8) */
  SPVGEN_ACTIVATION_SILU = 6,       /* x * sigmoid(x) */
  SPVGEN_ACTIVATION_EXP = 7,        /* exp(x) (density outputs of NeRF-like networks) */
  SPVGEN_ACTIVATION_GELU = 8,       /* the tanh approximation:
                                       0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))),
                                       in f32 as x / (1 + e^-2z) with z the tanh's argument */
  SPVGEN_ACTIVATION_COUNT = 9,
} spvgen_activation;

/* "default", "none", "relu", "leaky_relu", "sigmoid", "tanh", "silu", "exp", "gelu";
 * NULL for an unknown value. */
const char *spvgen_activation_name(spvgen_activation act);
/* The value of a name spvgen_activation_name gives; false (and *out unchanged) for any
 * other string. */
bool spvgen_activation_parse(const char *name, spvgen_activation *out);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
