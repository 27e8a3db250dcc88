/* emitters/common/activation.c — the activations (spvgen/activation.h): their one table of
 * names, and the one SPIR-V builder of an f32 activation every template calls (the GEMM
 * epilogue, the MLP's loop and mat layers). The f16 cooperative-vector forms of the MLP's
 * vec variant are its own (emitters/mlp/vec.c): GLSL's cooperative vector arithmetic has
 * other operations. */
#include "common.h"
#include "names.h" /* lib/core: one table of names per enum */

static const char *const activation_names[SPVGEN_ACTIVATION_COUNT] = {
    [SPVGEN_ACTIVATION_DEFAULT] = "default", [SPVGEN_ACTIVATION_NONE] = "none",
    [SPVGEN_ACTIVATION_RELU] = "relu",       [SPVGEN_ACTIVATION_LEAKY_RELU] = "leaky_relu",
    [SPVGEN_ACTIVATION_SIGMOID] = "sigmoid", [SPVGEN_ACTIVATION_TANH] = "tanh",
    [SPVGEN_ACTIVATION_SILU] = "silu",       [SPVGEN_ACTIVATION_EXP] = "exp",
    [SPVGEN_ACTIVATION_GELU] = "gelu",
};

SG_NAMES(spvgen_activation, activation_names, NULL, spvgen_activation_name, spvgen_activation_parse)

/* tanh(x) without GLSL.std.450 Tanh, whose NVIDIA lowering costs a GEMM epilogue several
 * times what Exp and a division do (docs/design-notes.md, "tanh without Tanh"):
 * 1 - 2 / (e^2x + 1), exact in the limits (e^2x overflowing to +inf gives 1, underflowing
 * to 0 gives -1, NaN stays NaN), and below |x| 1/8, where that difference cancels, the
 * Taylor polynomial x - x^3/3 + 2x^5/15 - 17x^7/315 (its next term is under 2^-28 of x
 * there). */
static uint32_t tanh_f32(spvgen_module *m, uint32_t f32, uint32_t x) {
  uint32_t one = spvgen_const_f32(m, 1.0f), two = spvgen_const_f32(m, 2.0f);
  uint32_t e = spvgen_glsl_exp(m, f32, spvgen_op_f_mul(m, f32, x, two));
  uint32_t outer = spvgen_op_f_sub(m, f32, one, spvgen_op_f_div(m, f32, two, spvgen_op_f_add(m, f32, e, one)));
  uint32_t x2 = spvgen_op_f_mul(m, f32, x, x);
  uint32_t p = spvgen_glsl_fma(m, f32, x2, spvgen_const_f32(m, -17.0f / 315.0f), spvgen_const_f32(m, 2.0f / 15.0f));
  p = spvgen_glsl_fma(m, f32, x2, p, spvgen_const_f32(m, -1.0f / 3.0f));
  p = spvgen_glsl_fma(m, f32, spvgen_op_f_mul(m, f32, x2, x), p, x);
  uint32_t inner = spvgen_op_f_ord_less_than(m, ek_bool_type(m), spvgen_glsl_f_abs(m, f32, x),
                                            spvgen_const_f32(m, 0.125f));
  return spvgen_op_select(m, f32, inner, p, outer);
}

/* 1 / (1 + exp(-x)), with `one` the constant 1.0. */
static uint32_t sigmoid(spvgen_module *m, uint32_t f32, uint32_t x, uint32_t one) {
  uint32_t e = spvgen_glsl_exp(m, f32, spvgen_op_f_negate(m, f32, x));
  return spvgen_op_f_div(m, f32, one, spvgen_op_f_add(m, f32, one, e));
}

uint32_t ek_activation(spvgen_module *m, uint32_t x, spvgen_activation act, float leaky_slope,
                       ek_act_style style) {
  uint32_t f32 = ek_f32_type(m);
  uint32_t one = style == EK_ACT_MLP ? spvgen_const_f32(m, 1.0f) : 0;
  switch (act) {
  case SPVGEN_ACTIVATION_DEFAULT:
  case SPVGEN_ACTIVATION_NONE: return x;
  case SPVGEN_ACTIVATION_RELU: return spvgen_glsl_f_max(m, f32, x, spvgen_const_f32(m, 0.0f));
  case SPVGEN_ACTIVATION_LEAKY_RELU: {
    uint32_t ge = spvgen_op_f_ord_greater_than_equal(m, ek_bool_type(m), x, spvgen_const_f32(m, 0.0f));
    return spvgen_op_select(m, f32, ge, x, spvgen_op_f_mul(m, f32, x, spvgen_const_f32(m, leaky_slope)));
  }
  case SPVGEN_ACTIVATION_SIGMOID: return sigmoid(m, f32, x, one ? one : spvgen_const_f32(m, 1.0f));
  case SPVGEN_ACTIVATION_SILU:
    if (style == EK_ACT_MLP) return spvgen_op_f_mul(m, f32, x, sigmoid(m, f32, x, one));
    { /* x / (1 + exp(-x)): one division */
      uint32_t e = spvgen_glsl_exp(m, f32, spvgen_op_f_negate(m, f32, x));
      return spvgen_op_f_div(m, f32, x, spvgen_op_f_add(m, f32, spvgen_const_f32(m, 1.0f), e));
    }
  case SPVGEN_ACTIVATION_TANH: return tanh_f32(m, f32, x);
  case SPVGEN_ACTIVATION_EXP: return spvgen_glsl_exp(m, f32, x);
  case SPVGEN_ACTIVATION_GELU: {
    /* 0.5 x (1 + tanh(z)) with z = sqrt(2/pi) (x + 0.044715 x^3), written as
     * x / (1 + e^-2z) (0.5 (1 + tanh z) = sigmoid(2z)): one Exp and one division, no Tanh,
     * and no cancellation near 0 */
    uint32_t x2 = spvgen_op_f_mul(m, f32, x, x);
    uint32_t inner = spvgen_glsl_fma(m, f32, x2, spvgen_const_f32(m, 0.044715f), spvgen_const_f32(m, 1.0f));
    uint32_t neg2z = spvgen_op_f_mul(m, f32, spvgen_op_f_mul(m, f32, x, inner), spvgen_const_f32(m, -1.5957691216f));
    uint32_t e = spvgen_glsl_exp(m, f32, neg2z);
    return spvgen_op_f_div(m, f32, x, spvgen_op_f_add(m, f32, spvgen_const_f32(m, 1.0f), e));
  }
  default:
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "emitter: activation %d is not one of spvgen/activation.h's", (int)act);
  }
}
