/* tools/common/mlp_train_ref.c — see mlp_train_ref.h. */
#define _POSIX_C_SOURCE 200809L
#include "mlp_train_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_run.h" /* f16 conversions */
#include "mlp_ref.h"   /* lib/tune: the hash grid's cells and weights */
#include "mlp_run.h"

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double f16at(const uint8_t *w, uint64_t byte) {
  uint16_t h;
  memcpy(&h, w + byte, 2);
  return gemm_run_f16_to_f32(h);
}

/* The hash grid's table: elements [grid_offset / 2, + entries * features). */
static bool is_table(const spvgen_mlp_config *p, uint64_t e) {
  return p->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID && e >= p->grid_offset / 2 &&
         e < p->grid_offset / 2 + (uint64_t)p->grid_entries * p->desc.grid.features;
}

/* Element e's gradient in the device's gradient buffer (the slots summed; the table's
 * single sum), and the sum of the magnitudes of its parts. */
static double device_grad(const spvgen_mlp_train_config *t, const float *slots, uint64_t e, double *mag) {
  const uint64_t Es = t->slot_elements;
  if (e >= Es) {
    double g = slots[t->grid_grad_offset + e - Es];
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
  mlp_run_data rd;
  if (!mlp_run_make_data(&t->net, points, seed, &rd)) return false;
  d->weights = rd.weights;
  d->input = rd.input;
  d->points = points;
  uint64_t n = points * t->net.desc.output_width;
  d->targets = malloc((n ? n : 1) * sizeof(float));
  if (!d->targets) {
    mlp_train_free_data(d);
    return false;
  }
  uint64_t s = (seed ? seed : 0x7a26e75ull) ^ 0xA5A5A5A5ull;
  bool unit = t->net.layers[t->net.layer_count - 1].activation == SPVGEN_MLP_ACT_SIGMOID;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t r = rng_next(&s);
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

static double act(double x, spvgen_mlp_activation a, double slope) {
  switch (a) {
  case SPVGEN_MLP_ACT_RELU: return x > 0 ? x : 0;
  case SPVGEN_MLP_ACT_LEAKY_RELU: return x >= 0 ? x : slope * x;
  case SPVGEN_MLP_ACT_SIGMOID: return 1.0 / (1.0 + exp(-x));
  case SPVGEN_MLP_ACT_TANH: return tanh(x);
  case SPVGEN_MLP_ACT_SILU: return x / (1.0 + exp(-x));
  case SPVGEN_MLP_ACT_EXP: return exp(x);
  default: return x;
  }
}

/* act'(z), with the kernel's conventions at the kinks (relu' (0) = 0, leaky' (0) = 1). */
static double dact(double z, spvgen_mlp_activation a, double slope) {
  switch (a) {
  case SPVGEN_MLP_ACT_RELU: return z > 0 ? 1 : 0;
  case SPVGEN_MLP_ACT_LEAKY_RELU: return z >= 0 ? 1 : slope;
  case SPVGEN_MLP_ACT_SIGMOID: {
    double s = 1.0 / (1.0 + exp(-z));
    return s * (1 - s);
  }
  case SPVGEN_MLP_ACT_TANH: {
    double y = tanh(z);
    return 1 - y * y;
  }
  case SPVGEN_MLP_ACT_SILU: {
    double s = 1.0 / (1.0 + exp(-z));
    return s * (1 + z * (1 - s));
  }
  case SPVGEN_MLP_ACT_EXP: return exp(z);
  default: return 1;
  }
}

/* Bounds on |act'| and |act''| over [z - e, z + e]. */
static double d1_bound(double z, double e, spvgen_mlp_activation a, double slope) {
  switch (a) {
  case SPVGEN_MLP_ACT_LEAKY_RELU: return fabs(slope) > 1 ? fabs(slope) : 1;
  case SPVGEN_MLP_ACT_SIGMOID: return 0.25;
  case SPVGEN_MLP_ACT_SILU: return 1.1;
  case SPVGEN_MLP_ACT_EXP: return exp(z + e);
  default: return 1;
  }
}
static double d2_bound(double z, double e, spvgen_mlp_activation a) {
  switch (a) {
  case SPVGEN_MLP_ACT_SIGMOID: return 0.1;
  case SPVGEN_MLP_ACT_TANH: return 0.77;
  case SPVGEN_MLP_ACT_SILU: return 0.5;
  case SPVGEN_MLP_ACT_EXP: return exp(z + e);
  default: return 0;
  }
}

/* The hash grid's features of point x (as lib/tune/mlp_ref.c's forward: the fused f32
 * position, the unfused one's distance through the corners, f32 rounding). */
static void grid_forward(const spvgen_mlp_config *p, const uint8_t *w, const double *x, double *a, double *ea) {
  const uint32_t F = p->desc.grid.features, D = p->desc.input_width;
  for (uint32_t l = 0; l < p->desc.grid.levels; l++) {
    uint64_t elem[8];
    double wc[8], fe;
    uint32_t nc = sg_ref_mlp_grid_corners(p, x, l, elem, wc, &fe);
    for (uint32_t f = 0; f < F; f++) {
      double v = 0, mag = 0, vmag = 0;
      for (uint32_t c = 0; c < nc; c++) {
        double tv = f16at(w, p->grid_offset + 2 * (elem[c] + f));
        v += wc[c] * tv;
        mag += fabs(wc[c] * tv);
        vmag += fabs(tv);
      }
      a[l * F + f] = v;
      ea[l * F + f] = (D * fe + ldexp(1, -21)) * vmag + ldexp(1, -21) * mag;
    }
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
  const bool f16s = p->variant == SPVGEN_MLP_MAT;
  const uint64_t W = f16s ? d->points_per_group : t->grad_local_size[0];
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
  double *buf = malloc(sizeof(double) * (3 * (size_t)A + 5 * (size_t)Z + 2 * (size_t)p->encoded_width + 2 * T));
  if (!buf) return false;
  double *denc = buf + 3 * (size_t)A + 5 * (size_t)Z, *edenc = denc + p->encoded_width;
  double *tcount = edenc + p->encoded_width, *tmag = tcount + T; /* atomic terms per table element */
  for (uint64_t i = 0; i < 2 * T; i++) tcount[i] = 0;
  double xin[3];
  double *a = buf, *ea = a + A, *amag = ea + A, *z = amag + A, *ez = z + Z, *del = ez + Z,
         *edel = del + Z, *amb = edel + Z;
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
                                                       : gemm_run_f16_to_f32(((const uint16_t *)data->input)[i]);
      if (grid) {
        xin[c] = x;
        if (c + 1 == d->input_width) grid_forward(p, w, xin, a, ea);
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
    /* forward */
    for (uint32_t l = 0; l < L; l++) {
      const spvgen_mlp_layer *Ly = &p->layers[l];
      for (uint32_t i = 0; i < Ly->outputs; i++) {
        double zz = d->no_bias ? 0 : f16at(w, Ly->bias_offset + 2ull * i);
        double mag = fabs(zz), prop = 0;
        for (uint32_t j = 0; j < Ly->inputs; j++) {
          double wij = f16at(w, Ly->matrix_offset + (uint64_t)i * Ly->row_stride + 2ull * j);
          zz += wij * a[aoff[l] + j];
          mag += fabs(wij * a[aoff[l] + j]);
          prop += fabs(wij) * ea[aoff[l] + j];
        }
        double e = prop + u_acc * mag;
        double y = act(zz, Ly->activation, slope);
        double ey = d1_bound(zz, e, Ly->activation, slope) * e;
        if (Ly->activation != SPVGEN_MLP_ACT_NONE && Ly->activation != SPVGEN_MLP_ACT_RELU &&
            Ly->activation != SPVGEN_MLP_ACT_LEAKY_RELU)
          ey += 1e-6 * (fabs(y) + 1);
        z[zoff[l] + i] = zz;
        ez[zoff[l] + i] = e;
        amb[zoff[l] + i] = (Ly->activation == SPVGEN_MLP_ACT_RELU ||
                            Ly->activation == SPVGEN_MLP_ACT_LEAKY_RELU) && fabs(zz) <= e;
        if (f16s && l + 1 < L) ey += u16 * (fabs(y) + ey) + tiny16; /* stored as f16 */
        a[aoff[l + 1] + i] = y;
        ea[aoff[l + 1] + i] = ey;
      }
    }
    for (uint32_t i = 0; i < A; i++) amag[i] = fabs(a[i]) + ea[i];
    /* loss and the output deltas */
    {
      const spvgen_mlp_layer *Ly = &p->layers[L - 1];
      for (uint32_t o = 0; o < d->output_width; o++) {
        double y = a[aoff[L] + o], eyv = ea[aoff[L] + o], zz = z[zoff[L - 1] + o], e = ez[zoff[L - 1] + o];
        double tv = data->targets[pt * d->output_width + o], diff = y - tv;
        double lv, g, eg, el;
        if (t->desc.loss == SPVGEN_MLP_LOSS_RELATIVE_L2) {
          double den = y * y + 0.01, eden = 2 * fabs(y) * eyv + eyv * eyv;
          lv = diff * diff / den;
          g = 2 * diff / den;
          el = (2 * fabs(diff) * eyv + eyv * eyv) / den + diff * diff * eden / (den * (den - eden > 0.005 ? den - eden : 0.005));
          eg = 2 * eyv / den + 2 * fabs(diff) * eden / (den * (den - eden > 0.005 ? den - eden : 0.005));
        } else {
          lv = diff * diff;
          g = 2 * diff;
          el = 2 * fabs(diff) * eyv + eyv * eyv;
          eg = 2 * eyv;
        }
        lsum += scale * lv;
        ltol += scale * (el + ldexp(1, -12) * lv);
        double dv = dact(zz, Ly->activation, slope), d1 = d1_bound(zz, e, Ly->activation, slope);
        uint32_t q = zoff[L - 1] + o;
        del[q] = scale * g * dv;
        edel[q] = scale * (eg * fabs(dv) + fabs(g) * d2_bound(zz, e, Ly->activation) * e) +
                  u_acc * fabs(del[q]) + (amb[q] != 0 ? scale * (fabs(g) + eg) * d1 : 0);
        if (f16s) edel[q] += u16 * (fabs(del[q]) + edel[q]) + scale * tiny16; /* stored as f16 */
      }
    }
    /* backward: delta and a bound on the device's error in it (its own error through
     * |act'|, the pre-activation's error through act'', f32 rounding of the sum, and at
     * an ambiguous kink the whole value act' could take) */
    for (uint32_t l = L - 1; l >= 1; l--) {
      const spvgen_mlp_layer *Ly = &p->layers[l];
      const spvgen_mlp_layer *Lp = &p->layers[l - 1];
      for (uint32_t j = 0; j < Ly->inputs; j++) {
        double s = 0, sm = 0, se = 0;
        for (uint32_t i = 0; i < Ly->outputs; i++) {
          double wij = f16at(w, Ly->matrix_offset + (uint64_t)i * Ly->row_stride + 2ull * j);
          s += wij * del[zoff[l] + i];
          sm += fabs(wij * del[zoff[l] + i]);
          se += fabs(wij) * edel[zoff[l] + i];
        }
        uint32_t q = zoff[l - 1] + j;
        double dv = dact(z[q], Lp->activation, slope), d1 = d1_bound(z[q], ez[q], Lp->activation, slope);
        del[q] = s * dv;
        edel[q] = fabs(dv) * (se + u_acc * sm) + fabs(s) * d2_bound(z[q], ez[q], Lp->activation) * ez[q] +
                  u_acc * fabs(del[q]) + (amb[q] != 0 ? (fabs(s) + se + u_acc * sm) * d1 : 0);
        if (f16s) /* act' of the f16 output (|d act' / dy| <= 2) or an f16 act'; the f16 store */
          edel[q] += (fabs(s) + se) * u16 * (2 * fabs(a[aoff[l] + j]) + fabs(dv)) +
                     u16 * (fabs(del[q]) + edel[q]) + scale * tiny16;
      }
    }
    /* the hash grid: dLoss/d(encoded) = W_0^T delta_0 (f32 sums; mat: stored f16, as
     * the deltas), each level's share scattered into its corners' entries (an f32 product
     * and an atomic f32 sum: the sum's bound is taken below from the terms per element) */
    if (grid) {
      const spvgen_mlp_layer *L0 = &p->layers[0];
      for (uint32_t j = 0; j < L0->inputs; j++) {
        double s0 = 0, sm = 0, se = 0;
        for (uint32_t i = 0; i < L0->outputs; i++) {
          double wij = f16at(w, L0->matrix_offset + (uint64_t)i * L0->row_stride + 2ull * j);
          s0 += wij * del[zoff[0] + i];
          sm += fabs(wij * del[zoff[0] + i]);
          se += fabs(wij) * edel[zoff[0] + i];
        }
        denc[j] = s0;
        edenc[j] = se + u_acc * sm;
        if (f16s) edenc[j] += u16 * (fabs(s0) + edenc[j]) + scale * tiny16;
      }
      const uint32_t Fg = d->grid.features, D = d->input_width;
      for (uint32_t l = 0; l < d->grid.levels; l++) {
        uint64_t elem[8];
        double wc[8], fe;
        uint32_t nc = sg_ref_mlp_grid_corners(p, xin, l, elem, wc, &fe);
        for (uint32_t cc = 0; cc < nc; cc++)
          for (uint32_t f = 0; f < Fg; f++) {
            double dv = denc[l * Fg + f], term = wc[cc] * dv;
            uint64_t te = elem[cc] + f, e = p->grid_offset / 2 + te;
            grad[e] += term;
            tol[e] += fabs(wc[cc]) * edenc[l * Fg + f] + fabs(dv) * (D * fe + ldexp(1, -21)) + ldexp(1, -24) * fabs(term);
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
        double di = del[zoff[l] + i], de = edel[zoff[l] + i];
        uint64_t row = Ly->matrix_offset / 2 + (uint64_t)i * (Ly->row_stride / 2);
        for (uint32_t j = 0; j < Ly->inputs; j++) {
          uint32_t q = aoff[l] + j;
          grad[row + j] += di * a[q];
          tol[row + j] += fabs(di) * ea[q] + de * amag[q] + u_sum * fabs(di * a[q]);
        }
        if (!d->no_bias) {
          uint64_t b = Ly->bias_offset / 2 + i;
          grad[b] += di;
          tol[b] += de + u_sum * fabs(di);
        }
      }
    }
  }
  for (uint64_t te = 0; te < T; te++) tol[p->grid_offset / 2 + te] += tcount[te] * ldexp(1, -24) * tmag[te];
  for (uint64_t e = 0; e < E; e++) tol[e] += 1e-30;
  *loss = lsum;
  *loss_tol = ltol + 1e-30;
  free(buf);
  return true;
}

static void check_one(mlp_train_check *c, uint64_t e, double g, double ref, double tl) {
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
    check_one(c, e, device_grad(t, slots, e, &mag), grad[e], tol[e]);
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
    check_one(c, e, gpu[e], ref[e], tol[e]);
    if (adam) {
      check_one(c, E + e, gpu[E + e], ref[E + e], tol[E + e]);
      check_one(c, 2 * E + e, gpu[2 * E + e], ref[2 * E + e], tol[2 * E + e]);
    }
    /* the f16 copy: the device master rounded either way */
    double h = f16at(gw, 2 * e), mw = gpu[e];
    double ulp = ldexp(1, (int)floor(log2(fabs(mw) > ldexp(1, -14) ? fabs(mw) : ldexp(1, -14))) - 10);
    check_one(c, e, h, mw, ulp);
  }
}

#define VKFAIL()                                          \
  do {                                                    \
    st = SPVGEN_ERROR_VULKAN;                             \
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));      \
    goto done;                                            \
  } while (0)

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static spvgen_status make_pipe(spvgen_vk_context *ctx, const spvgen_mlp_train_config *t,
                               spvgen_mlp_train_kernel which, spvgen_vk_pipeline **pipe,
                               spvgen_kernel_info *info, char *msg, size_t size) {
  spvgen_module *m = spvgen_module_create(NULL);
  if (!m) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_status st = spvgen_mlp_train_emit(m, t, which, info);
  if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
  if (st != SPVGEN_OK) snprintf(msg, size, "emit: %s", spvgen_module_error(m));
  if (st == SPVGEN_OK) st = spvgen_kernel_reflect(words, count, info, msg, size);
  if (st == SPVGEN_OK && spvgen_vk_pipeline_create(ctx, words, count, info, NULL, pipe) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  }
  spvgen_module_destroy(m);
  return st;
}

/* The vec variant's gradient buffer (spvgen/mlp.h): the weight layout's row-major part,
 * then each layer's TrainingOptimal f16 matrix (64-byte aligned). push: the gradient
 * kernel's push constants but loss_scale. Returns the buffer's size, 0 on failure. */
static uint64_t vec_layout(spvgen_vk_context *ctx, const spvgen_mlp_train_config *t, uint32_t *push,
                           size_t *msize) {
  const spvgen_mlp_config *p = &t->net;
  uint64_t off = (p->weight_bytes + 63) & ~63ull;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    spvgen_vk_coopvec_matrix cm = {.rows = p->layers[l].outputs, .columns = p->layers[l].inputs,
                                   .src_type = SPVGEN_COMPONENT_F16, .dst_type = SPVGEN_COMPONENT_F16,
                                   .src_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV,
                                   .dst_layout = SpvCooperativeVectorMatrixLayoutTrainingOptimalNV};
    if (spvgen_vk_coopvec_matrix_size(ctx, &cm, &msize[l]) != SPVGEN_OK) return 0;
    push[2 + l] = (uint32_t)off;
    push[2 + p->layer_count + l] = (uint32_t)p->layers[l].bias_offset;
    off = (off + msize[l] + 63) & ~63ull;
  }
  return off;
}

/* Zeroes the vec gradient buffer before a step (fill) or converts its TrainingOptimal
 * matrices into the row-major part after one. */
static spvgen_status vec_convert(spvgen_vk_context *ctx, const spvgen_mlp_train_config *t,
                                 spvgen_vk_buffer *g, const uint32_t *push) {
  const spvgen_mlp_config *p = &t->net;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    spvgen_vk_coopvec_matrix cm = {.rows = L->outputs, .columns = L->inputs,
                                   .src_type = SPVGEN_COMPONENT_F16, .dst_type = SPVGEN_COMPONENT_F16,
                                   .src_layout = SpvCooperativeVectorMatrixLayoutTrainingOptimalNV,
                                   .dst_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV, .dst_stride = L->row_stride};
    spvgen_status st = spvgen_vk_convert_coopvec_matrix_buffers(ctx, &cm, g, push[2 + l], g, L->matrix_offset);
    if (st != SPVGEN_OK) return st;
  }
  return SPVGEN_OK;
}

spvgen_status mlp_train_run(spvgen_vk_context *ctx, const spvgen_mlp_train_desc *desc,
                            const mlp_train_run_options *options, mlp_train_run_result *res,
                            char *msg, size_t size) {
  mlp_train_run_options opt = options ? *options : (mlp_train_run_options){0};
  if (!opt.points) opt.points = 1024;
  if (!opt.steps) opt.steps = 3;
  if (!(opt.lr > 0)) opt.lr = 1e-3f;
  memset(res, 0, sizeof *res);
  uint32_t max_steps = opt.no_check ? 1024 : MLP_TRAIN_RUN_MAX_STEPS;
  if (opt.steps > max_steps || opt.warmup > 1024 || opt.points > 0xFFFFFFFFull) {
    snprintf(msg, size, "steps %u (at most %u), warmup %u (at most 1024) or points %llu (at most 2^32 - 1)",
             opt.steps, max_steps, opt.warmup, (unsigned long long)opt.points);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_status st = SPVGEN_OK;
  if (opt.plan) res->plan = *opt.plan;
  else st = spvgen_mlp_train_plan(desc, caps, &res->plan, msg, size);
  if (st != SPVGEN_OK) return st;
  const spvgen_mlp_train_config *t = &res->plan;
  const spvgen_mlp_desc *nd = &t->net.desc;
  const uint64_t E = t->elements, N = opt.points;
  const uint32_t G = t->grad_workgroups;
  bool adam = t->desc.optimizer == SPVGEN_MLP_OPTIMIZER_ADAM;
  const bool vec = t->net.variant == SPVGEN_MLP_VEC;
  /* vec: push constants of the gradient kernel, f16 gradients scaled by loss_scale */
  uint32_t gpush[2 + 2 * SPVGEN_MLP_MAX_LAYERS];
  size_t msize[SPVGEN_MLP_MAX_LAYERS];
  const float loss_scale = 1024.0f, grad_scale = 1.0f / 1024.0f;
  spvgen_mlp_train_config t1 = *t; /* the optimizer's view: vec has one slot */
  if (vec) t1.grad_workgroups = 1;
  uint16_t *h16 = NULL;
  uint64_t gbytes = t->grad_bytes;
  gpush[0] = (uint32_t)N;
  memcpy(&gpush[1], &loss_scale, 4);
  spvgen_vk_pipeline *gp = NULL, *op = NULL;
  spvgen_kernel_info gi, oi;
  spvgen_vk_buffer *b_in = NULL, *b_w = NULL, *b_t = NULL, *b_g = NULL, *b_s = NULL, *b_l = NULL;
  mlp_train_data data;
  memset(&data, 0, sizeof data);
  float *slots = NULL, *state = NULL, *state2 = NULL, *lossv = NULL;
  uint8_t *wcur = NULL;
  double *grad = NULL, *tol = NULL, *sref = NULL, *stol = NULL;
  uint64_t *tns = NULL;
  st = make_pipe(ctx, t, SPVGEN_MLP_TRAIN_GRADIENT, &gp, &gi, msg, size);
  if (st == SPVGEN_OK) st = make_pipe(ctx, t, SPVGEN_MLP_TRAIN_OPTIMIZER, &op, &oi, msg, size);
  if (st != SPVGEN_OK) goto done;
  uint64_t sw = adam ? 3 * E : E;
  if (vec && !(gbytes = vec_layout(ctx, t, gpush, msize))) VKFAIL();
  uint64_t in_bytes = N * nd->input_width * spvgen_component_type_size(nd->input_type);
  uint64_t loss_n = G + opt.warmup + opt.steps;
  if (!mlp_train_make_data(t, N, opt.seed, &data) || !(slots = malloc(vec ? E * 4 : t->grad_bytes)) ||
      !(h16 = malloc(t->net.weight_bytes)) ||
      !(state = calloc(sw, 4)) || !(state2 = malloc(sw * 4)) || !(lossv = malloc(loss_n * 4)) ||
      !(wcur = malloc(t->net.weight_bytes)) || !(grad = malloc(E * 8)) || !(tol = malloc(E * 8)) ||
      !(sref = malloc(sw * 8)) || !(stol = malloc(sw * 8)) || !(tns = calloc(3ull * opt.steps + 2ull * opt.warmup + 1, 8))) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory");
    goto done;
  }
  for (uint64_t e = 0; e < E; e++) state[e] = (float)f16at(data.weights, 2 * e);
  if (spvgen_vk_buffer_create(ctx, (in_bytes + 3) & ~3ull, 0, &b_in) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, (t->net.weight_bytes + 3) & ~3ull, 0, &b_w) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, N * nd->output_width * 4, 0, &b_t) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, (gbytes + 3) & ~3ull, vec ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0, &b_g) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, sw * 4, 0, &b_s) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, loss_n * 4, 0, &b_l) != SPVGEN_OK)
    VKFAIL();
  if (spvgen_vk_buffer_upload(ctx, b_in, 0, data.input, in_bytes) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, b_w, 0, data.weights, t->net.weight_bytes) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, b_t, 0, data.targets, N * nd->output_width * 4) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, b_s, 0, state, sw * 4) != SPVGEN_OK ||
      spvgen_vk_buffer_fill(ctx, b_g, 0, (gbytes + 3) & ~3ull, 0x7FC00000u) != SPVGEN_OK ||
      (t->grid_grad_offset &&
       spvgen_vk_buffer_fill(ctx, b_g, t->grid_grad_offset * 4, (E - t->slot_elements) * 4, 0) != SPVGEN_OK) ||
      spvgen_vk_buffer_fill(ctx, b_l, 0, loss_n * 4, 0x7FC00000u) != SPVGEN_OK)
    VKFAIL(); /* NaN-filled gradients and loss: an element never written fails */
  uint32_t npoints = (uint32_t)N;
  if (opt.no_check) {
    uint32_t total = opt.warmup + opt.steps;
    spvgen_vk_buffer *gb[5] = {b_in, b_w, b_t, b_g, b_l};
    spvgen_vk_buffer *ob[4] = {b_w, b_g, b_s, b_l};
    struct pc { uint32_t step; float lr, grad_scale; } *opc = calloc(total, sizeof *opc);
    spvgen_vk_dispatch_desc *dd = calloc(2 * total, sizeof *dd);
    if (!opc || !dd) {
      free(opc);
      free(dd);
      st = SPVGEN_ERROR_OUT_OF_MEMORY;
      snprintf(msg, size, "out of host memory");
      goto done;
    }
    for (uint32_t k = 0; k < total; k++) {
      opc[k].step = k + 1;
      opc[k].lr = opt.lr;
      opc[k].grad_scale = grad_scale;
      dd[2 * k] = (spvgen_vk_dispatch_desc){.pipeline = gp, .buffers = gb, .buffer_count = 5,
                                             .push_data = vec ? (const void *)gpush : &npoints,
                                             .push_size = t->grad_push_constant_size,
                                             .groups = {gi.groups[0], 1, 1}};
      dd[2 * k + 1] = (spvgen_vk_dispatch_desc){.pipeline = op, .buffers = ob, .buffer_count = 4,
                                                 .push_data = &opc[k], .push_size = vec ? 12 : 8,
                                                 .groups = {oi.groups[0], 1, 1}};
    }
    if (!vec) {
      if (opt.warmup) st = spvgen_vk_run(ctx, dd, 2 * opt.warmup, tns);
      if (st == SPVGEN_OK) st = spvgen_vk_run(ctx, dd + 2 * opt.warmup, 2 * opt.steps, tns);
    } else { /* zero, gradient, conversions (untimed), optimizer: step by step */
      for (uint32_t k = 0; k < total && st == SPVGEN_OK; k++) {
        uint64_t *at = tns + 2 * (k < opt.warmup ? 0 : k - opt.warmup);
        st = spvgen_vk_buffer_fill(ctx, b_g, 0, (gbytes + 3) & ~3ull, 0);
        if (st == SPVGEN_OK) st = spvgen_vk_run(ctx, dd + 2 * k, 1, at);
        if (st == SPVGEN_OK) st = vec_convert(ctx, t, b_g, gpush);
        if (st == SPVGEN_OK) st = spvgen_vk_run(ctx, dd + 2 * k + 1, 1, at + 1);
      }
    }
    free(opc);
    free(dd);
    if (st != SPVGEN_OK) VKFAIL();
    uint64_t *g2 = tns + 2 * opt.steps; /* scratch: the gradient times, then the optimizer's */
    for (uint32_t k = 0; k < opt.steps; k++) g2[k] = tns[2 * k];
    qsort(g2, opt.steps, 8, cmp_u64);
    res->grad_ns = (double)g2[opt.steps / 2];
    for (uint32_t k = 0; k < opt.steps; k++) g2[k] = tns[2 * k + 1];
    qsort(g2, opt.steps, 8, cmp_u64);
    res->opt_ns = (double)g2[opt.steps / 2];
    if (spvgen_vk_buffer_download(ctx, b_l, 0, lossv, loss_n * 4) != SPVGEN_OK) VKFAIL();
    for (uint32_t k = 0; k < opt.steps && k < MLP_TRAIN_RUN_MAX_STEPS; k++)
      res->loss_gpu[k] = lossv[G + opt.warmup + k];
  }
  for (uint32_t step = 1; step <= opt.steps && !opt.no_check; step++) {
    spvgen_vk_buffer *gb[5] = {b_in, b_w, b_t, b_g, b_l};
    spvgen_vk_buffer *ob[4] = {b_w, b_g, b_s, b_l};
    struct { uint32_t step; float lr, grad_scale; } opc = {step, opt.lr, grad_scale};
    spvgen_vk_dispatch_desc dd[2];
    memset(dd, 0, sizeof dd);
    dd[0].pipeline = gp;
    dd[0].buffers = gb;
    dd[0].buffer_count = 5;
    dd[0].push_data = vec ? (const void *)gpush : &npoints;
    dd[0].push_size = t->grad_push_constant_size;
    memcpy(dd[0].groups, gi.groups, sizeof dd[0].groups);
    dd[1].pipeline = op;
    dd[1].buffers = ob;
    dd[1].buffer_count = 4;
    dd[1].push_data = &opc;
    dd[1].push_size = vec ? 12 : 8;
    memcpy(dd[1].groups, oi.groups, sizeof dd[1].groups);
    uint64_t ns[2] = {0, 0};
    {
      /* the weights and state before the step, the gradient kernel, its check */
      if (spvgen_vk_buffer_download(ctx, b_w, 0, wcur, t->net.weight_bytes) != SPVGEN_OK ||
          spvgen_vk_buffer_download(ctx, b_s, 0, state, sw * 4) != SPVGEN_OK ||
          (vec && spvgen_vk_buffer_fill(ctx, b_g, 0, (gbytes + 3) & ~3ull, 0) != SPVGEN_OK) ||
          spvgen_vk_run(ctx, dd, 1, ns) != SPVGEN_OK ||
          (vec && vec_convert(ctx, t, b_g, gpush) != SPVGEN_OK) ||
          spvgen_vk_buffer_download(ctx, b_g, 0, vec ? (void *)h16 : (void *)slots,
                                    vec ? t->net.weight_bytes : t->grad_bytes) != SPVGEN_OK ||
          spvgen_vk_buffer_download(ctx, b_l, 0, lossv, loss_n * 4) != SPVGEN_OK)
        VKFAIL();
      /* vec: the f16 gradients as the optimizer reads them (f32(h) * grad_scale) */
      for (uint64_t e = 0; vec && e < E; e++) slots[e] = (float)gemm_run_f16_to_f32(h16[e]) * grad_scale;
      double lref, ltol;
      if (!mlp_train_reference(t, wcur, &data, grad, tol, &lref, &ltol)) {
        st = SPVGEN_ERROR_OUT_OF_MEMORY;
        snprintf(msg, size, "out of host memory");
        goto done;
      }
      if (vec) { /* f16 arithmetic and f16 atomic sums: 2^-5 (|ref| + the layer's largest) */
        for (uint32_t l = 0; l < t->net.layer_count; l++) {
          const spvgen_mlp_layer *L = &t->net.layers[l];
          uint64_t lo = L->matrix_offset / 2, hi = (l + 1 < t->net.layer_count ? t->net.layers[l + 1].matrix_offset : t->net.weight_bytes) / 2;
          double lmax = 0;
          for (uint64_t e = lo; e < hi; e++) lmax = fabs(grad[e]) > lmax ? fabs(grad[e]) : lmax;
          for (uint64_t e = lo; e < hi; e++) tol[e] = ldexp(fabs(grad[e]) + lmax, -5) + 1e-30;
        }
        ltol = ldexp(fabs(lref), -5);
      }
      mlp_train_check_gradients(&t1, slots, grad, tol, &res->grad);
      double lg = 0;
      for (uint32_t g = 0; g < G; g++) lg += lossv[g];
      res->loss_gpu[step - 1] = lg;
      res->loss_ref[step - 1] = lref;
      if (!(fabs(lg - lref) <= ltol)) res->loss_bad++;
      /* the optimizer and its check */
      if (spvgen_vk_run(ctx, dd + 1, 1, ns + 1) != SPVGEN_OK ||
          spvgen_vk_buffer_download(ctx, b_s, 0, state2, sw * 4) != SPVGEN_OK ||
          spvgen_vk_buffer_download(ctx, b_w, 0, wcur, t->net.weight_bytes) != SPVGEN_OK ||
          spvgen_vk_buffer_download(ctx, b_l, 0, lossv, loss_n * 4) != SPVGEN_OK)
        VKFAIL();
      mlp_train_optimizer_reference(&t1, state, slots, step, opt.lr, sref, stol);
      mlp_train_check_optimizer(&t1, sref, stol, state2, wcur, &res->opt);
      if (t->grid_grad_offset) { /* the optimizer leaves the table's gradient at 0 */
        if (spvgen_vk_buffer_download(ctx, b_g, 0, slots, t->grad_bytes) != SPVGEN_OK) VKFAIL();
        for (uint64_t e = t->slot_elements; e < E; e++)
          check_one(&res->opt, e, slots[t->grid_grad_offset + e - t->slot_elements], 0.0, 1e-30);
      }
      /* the loss history element */
      if (!(fabs(lossv[G + step - 1] - lg) <= 1e-6 * fabs(lg) + 1e-30)) res->loss_bad++;
    }
    res->grad_ns = (double)ns[0];
    res->opt_ns = (double)ns[1];
  }
  if (res->grad_ns + res->opt_ns > 0) res->samples_per_s = N / ((res->grad_ns + res->opt_ns) * 1e-9);
done:
  spvgen_vk_buffer_destroy(b_in);
  spvgen_vk_buffer_destroy(b_w);
  spvgen_vk_buffer_destroy(b_t);
  spvgen_vk_buffer_destroy(b_g);
  spvgen_vk_buffer_destroy(b_s);
  spvgen_vk_buffer_destroy(b_l);
  spvgen_vk_pipeline_destroy(gp);
  spvgen_vk_pipeline_destroy(op);
  mlp_train_free_data(&data);
  free(slots);
  free(state);
  free(state2);
  free(lossv);
  free(wcur);
  free(grad);
  free(tol);
  free(sref);
  free(stol);
  free(tns);
  free(h16);
  return st;
}
