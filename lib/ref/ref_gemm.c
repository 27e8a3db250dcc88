/* lib/ref/ref_gemm.c — the float64 reference of a GEMM with the tolerance that follows
 * the precision; see ref_gemm.h. */
#define _POSIX_C_SOURCE 200809L
#include "ref_gemm.h"

#include "ref_activation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t sg_ref_idx(spvgen_matrix_layout layout, uint32_t ld, uint64_t r, uint64_t c) {
  return layout == SPVGEN_ROW_MAJOR ? r * ld + c : c * ld + r;
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

/* The float64 reference of D's element lin and its tolerance (see ref_gemm.h). */
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
  double ref, z = 0;
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
    z = ref;
    ref = sg_ref_activation(ref, d->activation, d->leaky_slope);
    if (!sg_ref_is_float(d->out_type)) ref = nearbyint(ref);
  }
  double acc_ulps = d->acc_type == SPVGEN_COMPONENT_F16 ? 8.0 : 16.0;
  /* z's accumulation error, carried through the activation by its largest slope within
   * that error of z (exp: e^(z + e)); then D's rounding, and the f32 transcendental
   * functions' own error (GLSL.std.450 exp and tanh, a division) */
  double ez = acc_ulps * sg_ref_unit(d->acc_type) * sabs * fabs(d->alpha) * 1.1;
  double tol = int_exact ? 0.0
                         : sg_ref_activation_slope_bound(z, ez, d->activation, d->leaky_slope) * ez +
                               2.0 * sg_ref_unit(d->out_type) * fabs(ref) + (sg_ref_is_float(d->out_type) ? 1e-6 : 1.0);
  if (sg_ref_activation_transcendental(d->activation)) tol += 3e-5 * (fabs(ref) + 1.0);
  *ref_out = ref;
  *tol_out = tol;
}

