/* lib/ref/ref_mlp_train.c — see ref_mlp_train.h. */
#define _POSIX_C_SOURCE 200809L
#include "ref_mlp_train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_activation.h"
#include "ref_convert.h"
#include "ref_grid.h"
#include "ref_mlp.h"

/* The statistical bound of a value (ref_mlp.h, SG_REF_MLP_SIGMAS): F g + c + l, with g the
 * scale of the independent errors that passed through sums (root-sum-square), c the last
 * operation's own worst case, and l the worst cases that add linearly (a relu's kink
 * taken on the other side: not a small random error); the bound believed is the smaller
 * of it and the worst case e. */
static double believed(double e, double g, double c, double l) {
  double s = SG_REF_MLP_SIGMAS * g + c + l;
  return s < e ? s : e;
}

/* The gradient's margin over the bounds believed: each weight's gradient sums, over the
 * points, terms whose errors come from the same forward activations and deltas, so they
 * are less independent than one forward output's. On the H200 (call S20-3,
 * tests/results/raw/gpu-2026-11-28-s20/) the mat variant's 2-64x3-3 relu network's worst
 * gradient error reached 0.835 of the tolerance without it; 2 keeps such a network under
 * half of it, still 50x tighter than the worst case alone there (0.0084 on the H100,
 * session 19), and a relu network's median tolerance, which its kinks dominate, at 3.4x
 * |gradient| (tests/mlp/test_mlp_ref_bound.c). It multiplies the gradient's terms only:
 * the kinks' windows (where a relu pre-activation lies within its bound of 0) keep the
 * bound believed. */
#define SG_REF_MLP_TRAIN_MARGIN 2.0

/* The hash grid's table: elements [grid_offset / 2, + entries * features). */
static bool is_table(const spvgen_mlp_config *p, uint64_t e) {
  return p->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID && e >= p->grid_offset / 2 &&
         e < p->grid_offset / 2 + (uint64_t)p->grid_entries * p->desc.grid.features;
}

/* Element e's gradient in the device's gradient buffer (the slots summed; the table's
 * single sum), and the sum of the magnitudes of its parts. */
double mlp_train_table_gradient(const spvgen_mlp_train_config *t, const float *buf, uint64_t e) {
  const uint64_t i = e - t->slot_elements;
  if (t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16)
    return sg_ref_f16_at(buf, t->grid_grad_offset * 4 + 2 * i) / t->desc.grid_gradient_scale;
  return buf[t->grid_grad_offset + i];
}

static double device_grad(const spvgen_mlp_train_config *t, const float *slots, uint64_t e, double *mag) {
  const uint64_t Es = t->slot_elements;
  if (e >= Es) {
    double g = mlp_train_table_gradient(t, slots, e);
    *mag = fabs(g);
    return g;
  }
  double g = 0, m = 0;
  for (uint32_t k = 0; k < t->grad_workgroups; k++) {
    g += slots[(uint64_t)k * Es + e];
    m += fabs(slots[(uint64_t)k * Es + e]);
  }
  *mag = m;
  return g;
}

bool mlp_train_is_param(const spvgen_mlp_train_config *t, uint64_t e) {
  const spvgen_mlp_config *p = &t->net;
  if (is_table(p, e)) return true;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint64_t mo = L->matrix_offset / 2, rs = L->row_stride / 2;
    if (e >= mo && e < mo + L->outputs * rs && (e - mo) % rs < L->inputs) return true;
    if (!p->desc.no_bias && e >= L->bias_offset / 2 && e < L->bias_offset / 2 + L->outputs) return true;
  }
  return false;
}

bool mlp_train_make_data(const spvgen_mlp_train_config *t, uint64_t points, uint64_t seed,
                         mlp_train_data *d) {
  memset(d, 0, sizeof *d);
  const spvgen_mlp_config *p = &t->net;
  uint64_t in_bytes = points * p->desc.input_width * spvgen_component_type_size(p->desc.input_type);
  d->weights = malloc(p->weight_bytes ? p->weight_bytes : 1);
  d->input = malloc(in_bytes ? in_bytes : 1);
  d->points = points;
  if (!d->weights || !d->input) {
    mlp_train_free_data(d);
    return false;
  }
  sg_ref_mlp_fill(p, points, seed, d->weights, d->input);
  uint64_t n = points * t->net.desc.output_width;
  d->targets = malloc((n ? n : 1) * sizeof(float));
  if (!d->targets) {
    mlp_train_free_data(d);
    return false;
  }
  uint64_t s = (seed ? seed : 0x7a26e75ull) ^ 0xA5A5A5A5ull;
  bool unit = t->net.layers[t->net.layer_count - 1].activation == SPVGEN_MLP_ACT_SIGMOID;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t r = sg_ref_rng_next(&s);
    double mag = 0.125 + 0.875 * (double)(r >> 11) / 9007199254740992.0;
    d->targets[i] = (float)(unit ? 0.05 + 0.9 * (mag - 0.125) / 0.875 : (r & 1) ? -mag : mag);
  }
  return true;
}

void mlp_train_free_data(mlp_train_data *d) {
  free(d->weights);
  free(d->input);
  free(d->targets);
  memset(d, 0, sizeof *d);
}

/* The loss of an output y (diff = y - target) and its derivative g, and bounds on their
 * errors (el, eg) where y's is at most eyv. */
static void output_loss(spvgen_mlp_loss loss, double y, double diff, double eyv, double *lv, double *g, double *eg,
                        double *el) {
  if (loss == SPVGEN_MLP_LOSS_RELATIVE_L2) {
    double den = y * y + 0.01, eden = 2 * fabs(y) * eyv + eyv * eyv;
    *lv = diff * diff / den;
    *g = 2 * diff / den;
    *el = (2 * fabs(diff) * eyv + eyv * eyv) / den + diff * diff * eden / (den * (den - eden > 0.005 ? den - eden : 0.005));
    *eg = 2 * eyv / den + 2 * fabs(diff) * eden / (den * (den - eden > 0.005 ? den - eden : 0.005));
  } else {
    *lv = diff * diff;
    *g = 2 * diff;
    *el = 2 * fabs(diff) * eyv + eyv * eyv;
    *eg = 2 * eyv;
  }
}

bool mlp_train_reference(const spvgen_mlp_train_config *t, const uint8_t *w,
                         const mlp_train_data *data, double *grad, double *tol, double *loss,
                         double *loss_tol) {
  const spvgen_mlp_config *p = &t->net;
  const spvgen_mlp_desc *d = &p->desc;
  const uint32_t L = p->layer_count;
  const uint64_t E = t->elements, N = data->points;
  const double u_acc = ldexp(1, -20), slope = d->leaky_slope;
  /* mat: a chunk is points_per_group points; its activations (the encoded input and the
   * hidden layers' outputs) and deltas are stored as f16 between the products */
  /* layers: the same f16 stores, the output layer's too (the loss reads it from the
   * workspace), z's f16 store where the activation is not the GEMM's, and the gradients
   * summed over the points by split-K GEMMs: a slice's serial f32 sum (at most the whole
   * batch, bounded here by it), then the slices */
  const bool layers = p->variant == SPVGEN_MLP_LAYERS;
  const bool f16s = p->variant == SPVGEN_MLP_MAT || layers;
  const uint64_t W = layers ? N : p->variant == SPVGEN_MLP_MAT ? d->points_per_group : t->grad_local_size[0];
  const uint64_t chunks = (N + (uint64_t)t->grad_workgroups * W - 1) / ((uint64_t)t->grad_workgroups * W);
  const double u_sum = ldexp(1, -23) * (double)(W + chunks + 4), u16 = ldexp(1, -11), tiny16 = ldexp(1, -25);
  uint32_t aoff[SPVGEN_MLP_MAX_LAYERS + 1], zoff[SPVGEN_MLP_MAX_LAYERS];
  uint32_t A = p->encoded_width, Z = 0;
  aoff[0] = 0;
  for (uint32_t l = 0; l < L; l++) {
    aoff[l + 1] = A;
    zoff[l] = Z;
    A += p->layers[l].outputs;
    Z += p->layers[l].outputs;
  }
  const bool grid = d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID;
  const uint64_t T = grid ? E - p->grid_offset / 2 : 0; /* the table's part of the layout */
  double *buf = malloc(sizeof(double) * (6 * (size_t)A + 13 * (size_t)Z + 2 * (size_t)p->encoded_width + 2 * T));
  if (!buf) return false;
  double *denc = buf + 6 * (size_t)A + 13 * (size_t)Z, *edenc = denc + p->encoded_width;
  double *tcount = edenc + p->encoded_width, *tmag = tcount + T; /* atomic terms per table element */
  for (uint64_t i = 0; i < 2 * T; i++) tcount[i] = 0;
  double xin[3];
  double *a = buf, *ea = a + A, *amag = ea + A, *z = amag + A, *ez = z + Z, *del = ez + Z,
         *edel = del + Z, *amb = edel + Z;
  /* each value's worst-case bound (ea, ez, edel) and its statistical one: the parts g, c
   * (l: deltas only), and the bound believed, the smaller (ab, zb, delb); ambb: amb by
   * the believed bound */
  double *ga = amb + Z, *ca = ga + A, *ab = ca + A, *gz = ab + A, *cz = gz + Z, *zb = cz + Z, *gdel = zb + Z,
         *cdel = gdel + Z, *ldel = cdel + Z, *delb = ldel + Z, *ambb = delb + Z;
  memset(grad, 0, E * sizeof *grad);
  memset(tol, 0, E * sizeof *tol);
  double lsum = 0, ltol = 0;
  const double scale = 1.0 / ((double)N * d->output_width);
  const double pi = 3.14159265358979323846;
  const uint32_t F = d->encoding_size;
  for (uint64_t pt = 0; pt < N; pt++) {
    /* encode */
    for (uint32_t c = 0; c < d->input_width; c++) {
      uint64_t i = pt * d->input_width + c;
      double x = d->input_type == SPVGEN_COMPONENT_F32 ? ((const float *)data->input)[i]
                                                       : sg_ref_f16_to_f32(((const uint16_t *)data->input)[i]);
      if (grid) {
        xin[c] = x;
        if (c + 1 == d->input_width) sg_ref_grid_features(p, w, xin, 0.0, a, ea);
      } else if (d->encoding == SPVGEN_MLP_ENCODING_NONE) {
        a[c] = x;
        ea[c] = 0;
      } else if (d->encoding == SPVGEN_MLP_ENCODING_FREQUENCY) {
        for (uint32_t k = 0; k < F; k++) {
          a[c * 2 * F + 2 * k] = sin(ldexp(pi, (int)k) * x);
          a[c * 2 * F + 2 * k + 1] = cos(ldexp(pi, (int)k) * x);
          ea[c * 2 * F + 2 * k] = ea[c * 2 * F + 2 * k + 1] = ldexp(1, -11) + 8 * ldexp(1, -24);
        }
      } else {
        for (uint32_t i2 = 0; i2 < F; i2++) {
          double tt = x * F - i2 - 0.5, v = exp(-0.5 * tt * tt);
          a[c * F + i2] = v;
          ea[c * F + i2] = v * (1e-6 + 4 * ldexp(1, -24) * (0.5 * tt * tt + 1));
        }
      }
    }
    if (f16s)
      for (uint32_t j = 0; j < p->encoded_width; j++) ea[j] += u16 * fabs(a[j]) + tiny16;
    for (uint32_t j = 0; j < p->encoded_width; j++) ga[j] = 0, ca[j] = ab[j] = ea[j]; /* the encoding's own */
    /* forward */
    for (uint32_t l = 0; l < L; l++) {
      const spvgen_mlp_layer *Ly = &p->layers[l];
      for (uint32_t i = 0; i < Ly->outputs; i++) {
        double zz = d->no_bias ? 0 : sg_ref_f16_at(w, Ly->bias_offset + 2ull * i);
        double mag = fabs(zz), prop = 0, prop2 = 0;
        for (uint32_t j = 0; j < Ly->inputs; j++) {
          double wij = sg_ref_f16_at(w, Ly->matrix_offset + (uint64_t)i * Ly->row_stride + 2ull * j);
          const uint32_t q = aoff[l] + j;
          zz += wij * a[q];
          mag += fabs(wij * a[q]);
          prop += fabs(wij) * ea[q];
          prop2 += (wij * (ga[q] + ca[q])) * (wij * (ga[q] + ca[q]));
        }
        double e = prop + u_acc * mag;
        double g = sqrt(prop2), c = u_acc * mag; /* statistical: root-sum-square */
        /* layers: an activation outside the forward GEMM's epilogue is applied to z as
         * stored f16 (the GEMM writes z, a kernel of its own or the loss kernel reads it):
         * the output layer's other than none and relu, and the hidden layers' whose act'
         * needs z (silu, leaky relu with a negative slope; emitters/mlp/layers_train.c
         * lt_in_gemm) */
        const spvgen_activation act = Ly->activation;
        const bool keeps_z = act == SPVGEN_MLP_ACT_SILU || (act == SPVGEN_MLP_ACT_LEAKY_RELU && slope < 0);
        const bool in_gemm = act == SPVGEN_MLP_ACT_NONE || act == SPVGEN_MLP_ACT_RELU || (l + 1 < L && !keeps_z);
        if (layers && !in_gemm) {
          c += u16 * (fabs(zz) + believed(e, g, c, 0)) + tiny16;
          e += u16 * (fabs(zz) + e) + tiny16;
        }
        const double eb = believed(e, g, c, 0);
        double y = sg_ref_activation(zz, Ly->activation, slope);
        double ey = sg_ref_activation_slope_bound(zz, e, Ly->activation, slope) * e;
        const double sl = sg_ref_activation_slope_bound(zz, eb, Ly->activation, slope);
        double gy = sl * g, cy = sl * c;
        if (Ly->activation != SPVGEN_MLP_ACT_NONE && Ly->activation != SPVGEN_MLP_ACT_RELU &&
            Ly->activation != SPVGEN_MLP_ACT_LEAKY_RELU) {
          ey += 1e-6 * (fabs(y) + 1);
          cy += 1e-6 * (fabs(y) + 1);
        }
        const uint32_t qz = zoff[l] + i, qa = aoff[l + 1] + i;
        const bool kink = Ly->activation == SPVGEN_MLP_ACT_RELU || Ly->activation == SPVGEN_MLP_ACT_LEAKY_RELU;
        z[qz] = zz;
        ez[qz] = e;
        gz[qz] = g;
        cz[qz] = c;
        zb[qz] = eb;
        amb[qz] = kink && fabs(zz) <= e;
        ambb[qz] = kink && fabs(zz) <= eb;
        if (f16s && (l + 1 < L || layers)) { /* stored as f16 */
          cy += u16 * (fabs(y) + believed(ey, gy, cy, 0)) + tiny16;
          ey += u16 * (fabs(y) + ey) + tiny16;
        }
        a[qa] = y;
        ea[qa] = ey;
        ga[qa] = gy;
        ca[qa] = cy;
        ab[qa] = believed(ey, gy, cy, 0);
      }
    }
    for (uint32_t i = 0; i < A; i++) amag[i] = fabs(a[i]) + ab[i];
    /* loss and the output deltas */
    {
      const spvgen_mlp_layer *Ly = &p->layers[L - 1];
      for (uint32_t o = 0; o < d->output_width; o++) {
        const uint32_t qa = aoff[L] + o, q = zoff[L - 1] + o;
        double y = a[qa], eyv = ea[qa], zz = z[q], e = ez[q];
        double tv = data->targets[pt * d->output_width + o], diff = y - tv;
        double lv, g, eg, el, egb, elb;
        output_loss(t->desc.loss, y, diff, eyv, &lv, &g, &eg, &el);
        output_loss(t->desc.loss, y, diff, ab[qa], &lv, &g, &egb, &elb); /* the believed bound's */
        lsum += scale * lv;
        ltol += scale * (elb + ldexp(1, -12) * lv);
        double dv = sg_ref_activation_deriv(zz, Ly->activation, slope);
        double d1 = sg_ref_activation_slope_bound(zz, e, Ly->activation, slope);
        del[q] = scale * g * dv;
        edel[q] = scale * (eg * fabs(dv) + fabs(g) * sg_ref_activation_curvature_bound(zz, e, Ly->activation) * e) +
                  u_acc * fabs(del[q]) + (amb[q] != 0 ? scale * (fabs(g) + eg) * d1 : 0);
        /* statistical: within the believed bound the loss derivative's error is at most k
         * times the output's (eg / eyv does not fall as eyv grows) */
        const double k = ab[qa] > 0 ? egb / ab[qa] : 0;
        const double cb = sg_ref_activation_curvature_bound(zz, zb[q], Ly->activation);
        gdel[q] = scale * (k * fabs(dv) * ga[qa] + fabs(g) * cb * gz[q]);
        cdel[q] = scale * (k * fabs(dv) * ca[qa] + fabs(g) * cb * cz[q]) + u_acc * fabs(del[q]);
        ldel[q] = ambb[q] != 0 ? scale * (fabs(g) + egb) * sg_ref_activation_slope_bound(zz, zb[q], Ly->activation, slope)
                               : 0;
        if (f16s) { /* stored as f16 */
          cdel[q] += u16 * (fabs(del[q]) + believed(edel[q], gdel[q], cdel[q], ldel[q])) + scale * tiny16;
          edel[q] += u16 * (fabs(del[q]) + edel[q]) + scale * tiny16;
        }
        delb[q] = believed(edel[q], gdel[q], cdel[q], ldel[q]);
      }
    }
    /* backward: delta and a bound on the device's error in it (its own error through
     * |act'|, the pre-activation's error through act'', f32 rounding of the sum, and at
     * an ambiguous kink the whole value act' could take) */
    for (uint32_t l = L - 1; l >= 1; l--) {
      const spvgen_mlp_layer *Ly = &p->layers[l];
      const spvgen_mlp_layer *Lp = &p->layers[l - 1];
      for (uint32_t j = 0; j < Ly->inputs; j++) {
        double s = 0, sm = 0, se = 0, sg2 = 0, sl = 0;
        for (uint32_t i = 0; i < Ly->outputs; i++) {
          double wij = sg_ref_f16_at(w, Ly->matrix_offset + (uint64_t)i * Ly->row_stride + 2ull * j);
          const uint32_t qi = zoff[l] + i;
          s += wij * del[qi];
          sm += fabs(wij * del[qi]);
          se += fabs(wij) * edel[qi];
          sg2 += (wij * (gdel[qi] + cdel[qi])) * (wij * (gdel[qi] + cdel[qi]));
          sl += fabs(wij) * ldel[qi];
        }
        uint32_t q = zoff[l - 1] + j;
        double dv = sg_ref_activation_deriv(z[q], Lp->activation, slope);
        double d1 = sg_ref_activation_slope_bound(z[q], ez[q], Lp->activation, slope);
        del[q] = s * dv;
        edel[q] = fabs(dv) * (se + u_acc * sm) + fabs(s) * sg_ref_activation_curvature_bound(z[q], ez[q], Lp->activation) * ez[q] +
                  u_acc * fabs(del[q]) + (amb[q] != 0 ? (fabs(s) + se + u_acc * sm) * d1 : 0);
        /* statistical: the deltas' errors root-sum-square, the kinks' linearly */
        const double sgv = sqrt(sg2), sb = believed(se + u_acc * sm, sgv, u_acc * sm, sl);
        const double cb = sg_ref_activation_curvature_bound(z[q], zb[q], Lp->activation);
        gdel[q] = fabs(dv) * sgv + fabs(s) * cb * gz[q];
        cdel[q] = fabs(dv) * u_acc * sm + fabs(s) * cb * cz[q] + u_acc * fabs(del[q]);
        ldel[q] = fabs(dv) * sl;
        if (ambb[q] != 0) ldel[q] += (fabs(s) + sb) * sg_ref_activation_slope_bound(z[q], zb[q], Lp->activation, slope);
        if (f16s) { /* act' of the f16 output (|d act' / dy| <= 2) or an f16 act'; the f16 store */
          cdel[q] += (fabs(s) + sb) * u16 * (2 * fabs(a[aoff[l] + j]) + fabs(dv)) +
                     u16 * (fabs(del[q]) + believed(edel[q], gdel[q], cdel[q], ldel[q])) + scale * tiny16;
          edel[q] += (fabs(s) + se) * u16 * (2 * fabs(a[aoff[l] + j]) + fabs(dv)) +
                     u16 * (fabs(del[q]) + edel[q]) + scale * tiny16;
        }
        delb[q] = believed(edel[q], gdel[q], cdel[q], ldel[q]);
      }
    }
    /* the hash grid: dLoss/d(encoded) = W_0^T delta_0 (f32 sums; mat: stored f16, as
     * the deltas), each level's share scattered into its corners' entries (an f32 product
     * and an atomic f32 sum: the sum's bound is taken below from the terms per element) */
    if (grid) {
      const spvgen_mlp_layer *L0 = &p->layers[0];
      for (uint32_t j = 0; j < L0->inputs; j++) {
        double s0 = 0, sm = 0, se = 0, sg2 = 0, sl = 0;
        for (uint32_t i = 0; i < L0->outputs; i++) {
          double wij = sg_ref_f16_at(w, L0->matrix_offset + (uint64_t)i * L0->row_stride + 2ull * j);
          const uint32_t qi = zoff[0] + i;
          s0 += wij * del[qi];
          sm += fabs(wij * del[qi]);
          se += fabs(wij) * edel[qi];
          sg2 += (wij * (gdel[qi] + cdel[qi])) * (wij * (gdel[qi] + cdel[qi]));
          sl += fabs(wij) * ldel[qi];
        }
        denc[j] = s0;
        edenc[j] = believed(se + u_acc * sm, sqrt(sg2), u_acc * sm, sl); /* the bound believed */
        if (f16s) edenc[j] += u16 * (fabs(s0) + edenc[j]) + scale * tiny16;
      }
      const uint32_t Fg = d->grid.features, D = d->input_width;
      for (uint32_t l = 0; l < d->grid.levels; l++) {
        uint64_t elem[8];
        double wc[8], fe;
        uint32_t nc = sg_ref_grid_corners(p, xin, l, elem, wc, &fe);
        for (uint32_t cc = 0; cc < nc; cc++)
          for (uint32_t f = 0; f < Fg; f++) {
            double dv = denc[l * Fg + f], term = wc[cc] * dv;
            uint64_t te = elem[cc] + f, e = p->grid_offset / 2 + te;
            grad[e] += term;
            tol[e] += SG_REF_MLP_TRAIN_MARGIN * fabs(wc[cc]) * edenc[l * Fg + f] + fabs(dv) * (D * fe + ldexp(1, -21)) +
                      ldexp(1, -24) * fabs(term);
            tcount[te] += 1;
            tmag[te] += fabs(term);
          }
      }
    }
    /* gradients: the terms' error, and the f32 sums over points (W in a workgroup's
     * chunk, then the chunks; the slots are summed in double) */
    for (uint32_t l = 0; l < L; l++) {
      const spvgen_mlp_layer *Ly = &p->layers[l];
      for (uint32_t i = 0; i < Ly->outputs; i++) {
        double di = del[zoff[l] + i], de = delb[zoff[l] + i]; /* the bounds believed */
        uint64_t row = Ly->matrix_offset / 2 + (uint64_t)i * (Ly->row_stride / 2);
        for (uint32_t j = 0; j < Ly->inputs; j++) {
          uint32_t q = aoff[l] + j;
          grad[row + j] += di * a[q];
          tol[row + j] += SG_REF_MLP_TRAIN_MARGIN * (fabs(di) * ab[q] + de * amag[q]) + u_sum * fabs(di * a[q]);
        }
        if (!d->no_bias) {
          uint64_t b = Ly->bias_offset / 2 + i;
          grad[b] += di;
          tol[b] += SG_REF_MLP_TRAIN_MARGIN * de + u_sum * fabs(di);
        }
      }
    }
  }
  /* the table's atomic sums: f32, or f16 (the gradient times a power of two S, rounded
   * to f16 as each term is converted and at every add: (n + 1) 2^-10 of the terms'
   * magnitudes, a whole f16 ulp per rounding since the atomics' rounding mode is the
   * device's (nearest or toward zero), and 2^-14 / S absolute per rounding, whether or
   * not the device keeps f16 subnormals) */
  const bool t16 = t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16;
  const double S = t16 ? t->desc.grid_gradient_scale : 1;
  for (uint64_t te = 0; te < T; te++)
    tol[p->grid_offset / 2 + te] += t16 ? (tcount[te] + 1) * 2 * u16 * tmag[te] + 2 * tcount[te] * ldexp(1, -14) / S
                                        : tcount[te] * ldexp(1, -24) * tmag[te];
  for (uint64_t e = 0; e < E; e++) tol[e] += 1e-30;
  *loss = lsum;
  *loss_tol = ltol + 1e-30;
  free(buf);
  return true;
}

void mlp_train_check_value(mlp_train_check *c, uint64_t e, double g, double ref, double tl) {
  double err = fabs(g - ref);
  c->checked++;
  if (!(err <= tl)) {
    if (!c->bad) {
      c->first_bad = e;
      c->first_gpu = g;
      c->first_ref = ref;
      c->first_tol = tl;
    }
    c->bad++;
  }
  double ratio = err / tl;
  if (!(ratio <= c->worst_ratio)) c->worst_ratio = ratio;
}

void mlp_train_check_gradients(const spvgen_mlp_train_config *t, const float *slots,
                               const double *grad, const double *tol, mlp_train_check *c) {
  const uint64_t E = t->elements;
  for (uint64_t e = 0; e < E; e++) {
    if (!mlp_train_is_param(t, e)) continue;
    double mag;
    mlp_train_check_value(c, e, device_grad(t, slots, e, &mag), grad[e], tol[e]);
  }
}

void mlp_train_optimizer_reference(const spvgen_mlp_train_config *t, const float *before,
                                   const float *slots, uint32_t step, float lr, double *after,
                                   double *tol) {
  const uint64_t E = t->elements;
  const spvgen_mlp_train_desc *d = &t->desc;
  bool adam = d->optimizer == SPVGEN_MLP_OPTIMIZER_ADAM;
  for (uint64_t e = 0; e < E * (adam ? 3 : 1); e++) after[e] = before[e], tol[e] = 0;
  for (uint64_t e = 0; e < E; e++) {
    if (!mlp_train_is_param(t, e)) continue;
    double gmag, w = before[e];
    double g = device_grad(t, slots, e, &gmag);
    g += (double)d->weight_decay * w;
    gmag += fabs((double)d->weight_decay * w);
    /* the device's f32 sum of the slots (and the decay's fma) */
    double eg = (t->grad_workgroups + 2) * ldexp(1, -24) * gmag;
    const double u = 1e-6; /* a few f32 roundings, pow's error */
    if (adam) {
      double b1 = d->beta1, b2 = d->beta2;
      double m = b1 * before[E + e] + (1 - b1) * g;
      double v = b2 * before[2 * E + e] + (1 - b2) * g * g;
      after[E + e] = m;
      after[2 * E + e] = v;
      tol[E + e] = (1 - b1) * eg + u * (fabs(b1 * before[E + e]) + fabs((1 - b1) * g)) + 1e-38;
      tol[2 * E + e] = (1 - b2) * (2 * fabs(g) + eg) * eg + u * (b2 * before[2 * E + e] + (1 - b2) * g * g) + 1e-38;
      double c1 = 1 - pow(b1, step), c2 = 1 - pow(b2, step);
      double mh = m / c1, vh = v / c2, den = sqrt(vh) + d->epsilon;
      after[e] = w - (double)lr * mh / den;
      /* first order in the errors of m and v, at most the update's whole range */
      double em = tol[E + e] / c1, ev = tol[2 * E + e] / c2;
      double eu = em / den + fabs(mh) * (ev / (2 * sqrt(vh) + 1e-300)) / (den * den) + 1e-4 * (fabs(mh) / den + 1);
      tol[e] = (double)lr * (eu < 4 ? eu : 4) + ldexp(1, -22) * fabs(after[e]) + 1e-38;
    } else {
      after[e] = w - (double)lr * g;
      tol[e] = (double)lr * (eg + u * fabs(g)) + ldexp(1, -22) * fabs(after[e]) + 1e-38;
    }
  }
}

void mlp_train_check_optimizer(const spvgen_mlp_train_config *t, const double *ref,
                               const double *tol, const float *gpu, const uint8_t *gw,
                               mlp_train_check *c) {
  const uint64_t E = t->elements;
  bool adam = t->desc.optimizer == SPVGEN_MLP_OPTIMIZER_ADAM;
  for (uint64_t e = 0; e < E; e++) {
    if (!mlp_train_is_param(t, e)) continue;
    mlp_train_check_value(c, e, gpu[e], ref[e], tol[e]);
    if (adam) {
      mlp_train_check_value(c, E + e, gpu[E + e], ref[E + e], tol[E + e]);
      mlp_train_check_value(c, 2 * E + e, gpu[2 * E + e], ref[2 * E + e], tol[2 * E + e]);
    }
    /* the f16 copy: the device master rounded either way */
    double h = sg_ref_f16_at(gw, 2 * e), mw = gpu[e];
    double ulp = ldexp(1, (int)floor(log2(fabs(mw) > ldexp(1, -14) ? fabs(mw) : ldexp(1, -14))) - 10);
    mlp_train_check_value(c, e, h, mw, ulp);
  }
}
