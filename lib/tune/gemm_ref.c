/* lib/tune/gemm_ref.c — the host side of checking a GEMM: operand conversions, the
 * random operands (never zero), and the float64 reference with the tolerance that
 * follows the precision. One implementation for the tuner and for tools/common/gemm_run.c
 * (the CLI, bench/ and the tests). Internal to spvgen (lib/tune/gemm_ref.h). */
#define _POSIX_C_SOURCE 200809L
#include "gemm_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ data ---- */

uint16_t sg_ref_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = (int32_t)((x >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = x & 0x7FFFFFu;
  if (((x >> 23) & 0xFF) == 0xFF) return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0));
  if (exp >= 31) return (uint16_t)(sign | 0x7C00u);
  if (exp <= 0) {
    if (exp < -10) return (uint16_t)sign;
    mant |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - exp);
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
  return (uint16_t)(sign | h);
}

float sg_ref_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, mant = h & 0x3FFu;
  float f;
  if (exp == 0) {
    f = ldexpf((float)mant, -24);
    return sign ? -f : f;
  }
  uint32_t x = exp == 31 ? sign | 0x7F800000u | (mant << 13) : sign | ((exp + 112) << 23) | (mant << 13);
  memcpy(&f, &x, 4);
  return f;
}

uint16_t sg_ref_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7F800000u) == 0x7F800000u) return (uint16_t)((x >> 16) | ((x & 0xFFFF) ? 0x40 : 0));
  x += 0x7FFFu + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

float sg_ref_bf16_to_f32(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* float8 (e4m3: bias 7, no infinities, S.1111.111 NaN; e5m2: bias 15, IEEE-like). */
double sg_ref_f8_value(uint8_t v, bool e4m3) {
  int ebits = e4m3 ? 4 : 5, mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  int sign = v >> 7, e = (v >> mbits) & ((1 << ebits) - 1), mant = v & ((1 << mbits) - 1);
  if (e4m3 && e == 15 && mant == 7) return NAN;
  if (!e4m3 && e == 31) return mant ? NAN : (sign ? -INFINITY : INFINITY);
  double x = e == 0 ? ldexp(mant, 1 - bias - mbits) : ldexp((1 << mbits) + mant, e - bias - mbits);
  return sign ? -x : x;
}

/* The float8 encoding nearest to x (by search: 256 codes), ties to even. */
uint8_t sg_ref_f8_encode(double x, bool e4m3) {
  uint8_t best = 0;
  double bd = INFINITY;
  for (int c = 0; c < 256; c++) {
    double v = sg_ref_f8_value((uint8_t)c, e4m3);
    if (isnan(v) || isinf(v)) continue;
    double dd = fabs(v - x);
    if (dd < bd || (dd == bd && !(c & 1))) {
      bd = dd;
      best = (uint8_t)c;
    }
  }
  return best;
}

double sg_ref_get(const void *p, spvgen_component_type t, uint64_t i) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: return sg_ref_f16_to_f32(((const uint16_t *)p)[i]);
  case SPVGEN_COMPONENT_BF16: return sg_ref_bf16_to_f32(((const uint16_t *)p)[i]);
  case SPVGEN_COMPONENT_F32: return ((const float *)p)[i];
  case SPVGEN_COMPONENT_S8: return ((const int8_t *)p)[i];
  case SPVGEN_COMPONENT_U8: return ((const uint8_t *)p)[i];
  case SPVGEN_COMPONENT_S32: return ((const int32_t *)p)[i];
  case SPVGEN_COMPONENT_U32: return ((const uint32_t *)p)[i];
  case SPVGEN_COMPONENT_E4M3: return sg_ref_f8_value(((const uint8_t *)p)[i], true);
  case SPVGEN_COMPONENT_E5M2: return sg_ref_f8_value(((const uint8_t *)p)[i], false);
  default: return NAN;
  }
}

void sg_ref_put(void *p, spvgen_component_type t, uint64_t i, double v) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: ((uint16_t *)p)[i] = sg_ref_f32_to_f16((float)v); break;
  case SPVGEN_COMPONENT_BF16: ((uint16_t *)p)[i] = sg_ref_f32_to_bf16((float)v); break;
  case SPVGEN_COMPONENT_F32: ((float *)p)[i] = (float)v; break;
  case SPVGEN_COMPONENT_S8: ((int8_t *)p)[i] = (int8_t)v; break;
  case SPVGEN_COMPONENT_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
  case SPVGEN_COMPONENT_S32: ((int32_t *)p)[i] = (int32_t)v; break;
  case SPVGEN_COMPONENT_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
  case SPVGEN_COMPONENT_E4M3: ((uint8_t *)p)[i] = sg_ref_f8_encode(v, true); break;
  case SPVGEN_COMPONENT_E5M2: ((uint8_t *)p)[i] = sg_ref_f8_encode(v, false); break;
  default: break;
  }
}

bool sg_ref_is_float(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_BF16 || t == SPVGEN_COMPONENT_F32;
}

/* Unit roundoff of a float type (0 for integers). */
double sg_ref_unit(spvgen_component_type t) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: return ldexp(1.0, -11);
  case SPVGEN_COMPONENT_BF16: return ldexp(1.0, -8);
  case SPVGEN_COMPONENT_F32: return ldexp(1.0, -24);
  default: return 0.0;
  }
}

uint64_t sg_ref_rng_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Nonzero values: floats of magnitude in [1/8, 1) with a random sign, s8 in [-8, 8] \ {0},
 * u8 in [1, 15] (gemm_run's data). */
double sg_ref_random_value(uint64_t *s, spvgen_component_type t) {
  uint64_t r = sg_ref_rng_next(s);
  if (t == SPVGEN_COMPONENT_S8) {
    int v = (int)(r % 16) - 8;
    return v >= 0 ? v + 1 : v;
  }
  if (t == SPVGEN_COMPONENT_U8) return (double)(r % 15 + 1);
  double mag = 0.125 + 0.875 * (double)(r >> 11) / 9007199254740992.0;
  return (r & 1) ? -mag : mag;
}

void *sg_ref_fill(uint64_t *s, spvgen_component_type t, uint64_t n) {
  uint32_t es = spvgen_component_type_size(t);
  void *p = malloc(n * es > 0 ? n * es : 1);
  if (!p) return NULL;
  for (uint64_t i = 0; i < n; i++) sg_ref_put(p, t, i, sg_ref_random_value(s, t));
  return p;
}

uint64_t sg_ref_idx(spvgen_matrix_layout layout, uint32_t ld, uint64_t r, uint64_t c) {
  return layout == SPVGEN_ROW_MAJOR ? r * ld + c : c * ld + r;
}

double sg_ref_activation(double x, spvgen_activation act) {
  switch (act) {
  case SPVGEN_ACTIVATION_RELU: return x > 0 ? x : 0;
  case SPVGEN_ACTIVATION_GELU: return 0.5 * x * (1.0 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
  case SPVGEN_ACTIVATION_SILU: return x / (1.0 + exp(-x));
  default: return x;
  }
}

/* Offset of D's element lin (over batch, row, column). */
uint64_t sg_ref_d_offset(const spvgen_gemm_desc *d, uint64_t lin, uint64_t *bz, uint64_t *r, uint64_t *c) {
  uint64_t mn = (uint64_t)d->m * d->n;
  *bz = lin / mn;
  uint64_t rem = lin % mn;
  *r = rem / d->n;
  *c = rem % d->n;
  return *bz * d->stride_d + sg_ref_idx(d->d_layout, d->ldd, *r, *c);
}

/* The float64 reference of D's element lin and its tolerance (see gemm_ref.h). */
void sg_ref_gemm_element(const spvgen_gemm_desc *d, const void *ha, const void *hb, const void *hc,
                         const void *hbias, uint64_t lin, double *ref_out, double *tol_out,
                         uint64_t *d_index) {
  bool int_exact = !sg_ref_is_float(d->acc_type) && !sg_ref_is_float(d->out_type);
  uint64_t bz, r, c;
  uint64_t at = sg_ref_d_offset(d, lin, &bz, &r, &c);
  if (d_index) *d_index = at;
  double acc = 0, sabs = 0;
  for (uint64_t k = 0; k < d->k; k++) {
    double p = sg_ref_get(ha, d->a_type, bz * d->stride_a + sg_ref_idx(d->a_layout, d->lda, r, k)) *
               sg_ref_get(hb, d->b_type, bz * d->stride_b + sg_ref_idx(d->b_layout, d->ldb, k, c));
    acc += p;
    sabs += fabs(p);
  }
  double ref;
  if (int_exact) {
    int64_t v = (int64_t)acc;
    if (hbias) v += (int64_t)sg_ref_get(hbias, d->out_type, d->bias == SPVGEN_GEMM_BIAS_ROW ? r : c);
    if (d->activation == SPVGEN_ACTIVATION_RELU && v < 0) v = 0;
    int32_t w = (int32_t)(uint32_t)(uint64_t)v;
    if (d->out_type == SPVGEN_COMPONENT_S8) ref = (int8_t)(uint8_t)(uint32_t)w;
    else if (d->out_type == SPVGEN_COMPONENT_U8) ref = (uint8_t)(uint32_t)w;
    else if (d->out_type == SPVGEN_COMPONENT_U32) ref = (uint32_t)w;
    else ref = w;
  } else {
    ref = acc * d->alpha;
    if (hc) ref += d->beta * sg_ref_get(hc, d->out_type, bz * d->stride_c + sg_ref_idx(d->c_layout, d->ldc, r, c));
    if (hbias) ref += sg_ref_get(hbias, d->out_type, d->bias == SPVGEN_GEMM_BIAS_ROW ? r : c);
    ref = sg_ref_activation(ref, d->activation);
    if (!sg_ref_is_float(d->out_type)) ref = nearbyint(ref);
  }
  double acc_ulps = d->acc_type == SPVGEN_COMPONENT_F16 ? 8.0 : 16.0;
  double tol = int_exact ? 0.0
                            : acc_ulps * sg_ref_unit(d->acc_type) * sabs * fabs(d->alpha) * 1.1 +
                                  2.0 * sg_ref_unit(d->out_type) * fabs(ref) + (sg_ref_is_float(d->out_type) ? 1e-6 : 1.0);
  if (d->activation == SPVGEN_ACTIVATION_GELU || d->activation == SPVGEN_ACTIVATION_SILU)
    tol += 3e-5 * (fabs(ref) + 1.0);
  *ref_out = ref;
  *tol_out = tol;
}

