/* lib/ref/ref_mlp.c — see ref_mlp.h. */
#include "ref_mlp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_activation.h"
#include "ref_convert.h"
#include "ref_grid.h"

/* Float8 (OCP E4M3 / E5M2) rounding of a double, to nearest even (rint under the default
 * rounding mode), saturated to the largest finite value; *spacing gets the grid step at
 * the result, *min_normal the smallest normal. F16 weights: the value itself. */
static double fp8_round(spvgen_component_type t, double x, double *spacing, double *min_normal) {
  int mbits = t == SPVGEN_COMPONENT_E4M3 ? 3 : 2, emin = t == SPVGEN_COMPONENT_E4M3 ? -6 : -14;
  double maxv = t == SPVGEN_COMPONENT_E4M3 ? 448.0 : 57344.0;
  *min_normal = ldexp(1, emin);
  double a = fabs(x);
  int e = a > 0 ? ilogb(a) : emin;
  if (e < emin) e = emin;
  double ulp = ldexp(1, e - mbits);
  double q = rint(a / ulp) * ulp;
  if (q > maxv) q = maxv;
  *spacing = ulp;
  return x < 0 ? -q : q;
}

static uint32_t mlp_ref_round4(uint32_t n) { return (n + 3) / 4 * 4; }

static double f32v(const uint8_t *base, uint64_t byte_offset) {
  float f;
  memcpy(&f, base + byte_offset, 4);
  return f;
}

static void put_f32(uint8_t *base, uint64_t byte_offset, double v) {
  float f = (float)v;
  memcpy(base + byte_offset, &f, 4);
}

/* int8 weights (mlp.h): W, b drawn as for f16; per row w_scale = max |W[o][j]| / 127,
 * W8 = round(W / w_scale); the layer's input scale s_l = M_l / 127 with M_0 = 1 (the
 * test inputs and encodings lie in [-1, 1]) and M_(l+1) an estimate of the layer's output
 * range, max_o (2 |W[o]|_2 M_l + |b_o|) through the activation's bound. A value past it
 * is clamped to +-127 s_l, as the reference does too: any scale is checked exactly; a
 * real host calibrates s_l on its data. */
static void fill_s8(const spvgen_mlp_config *p, uint8_t *weights, uint64_t *s) {
  double M = 1.0;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    double scale = 1.0 / sqrt((double)L->inputs), sl = M / 127.0, next = 0;
    for (uint32_t j = 0; j < mlp_ref_round4(L->inputs); j++)
      put_f32(weights, L->scale_offset + 4ull * j, j < L->inputs ? 1.0 / sl : 1000.0);
    double w[SPVGEN_MLP_MAX_WIDTH];
    for (uint32_t i = 0; i < L->outputs; i++) {
      double mx = 0, n2 = 0;
      for (uint32_t j = 0; j < L->inputs; j++) {
        w[j] = sg_ref_random_value(s, SPVGEN_COMPONENT_F16) * scale;
        mx = fmax(mx, fabs(w[j]));
        n2 += w[j] * w[j];
      }
      double ws = mx / 127.0;
      for (uint32_t j = 0; j < L->inputs; j++) {
        int8_t q = (int8_t)lrint(w[j] / ws);
        memcpy(weights + L->matrix_offset + (uint64_t)i * L->row_stride + j, &q, 1);
      }
      for (uint32_t j = L->inputs; j < L->row_stride; j++) weights[L->matrix_offset + (uint64_t)i * L->row_stride + j] = 99;
      put_f32(weights, L->scale_offset + 4ull * mlp_ref_round4(L->inputs) + 4ull * i, sl * ws);
      double b = 0;
      if (!p->desc.no_bias) {
        b = sg_ref_random_value(s, SPVGEN_COMPONENT_F16) * 0.5;
        put_f32(weights, L->bias_offset + 4ull * i, b);
      }
      next = fmax(next, 2 * sqrt(n2) * M + fabs(b));
    }
    switch (L->activation) {
    case SPVGEN_MLP_ACT_SIGMOID:
    case SPVGEN_MLP_ACT_TANH: next = 1; break;
    case SPVGEN_MLP_ACT_EXP: next = exp(fmin(next, 8.0)); break;
    default: break;
    }
    M = next > 1e-3 ? next : 1e-3;
  }
}

static bool fp8_weights(const spvgen_mlp_config *p) {
  return p->desc.weight_type == SPVGEN_COMPONENT_E4M3 || p->desc.weight_type == SPVGEN_COMPONENT_E5M2;
}

void sg_ref_mlp_fill(const spvgen_mlp_config *p, uint64_t points, uint64_t seed, uint8_t *weights,
                     void *input) {
  uint64_t s = seed ? seed : 0x5eed0171full;
  uint64_t nin = points * p->desc.input_width;
  for (uint64_t b = 0; b + 1 < p->weight_bytes; b += 2) sg_ref_f16_put(weights, b, 1000.0);
  if (p->desc.weight_type == SPVGEN_COMPONENT_S8) fill_s8(p, weights, &s);
  for (uint32_t l = 0; p->desc.weight_type != SPVGEN_COMPONENT_S8 && l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    double scale = 1.0 / sqrt((double)L->inputs);
    for (uint32_t i = 0; i < L->outputs; i++)
      for (uint32_t j = 0; j < L->inputs; j++) {
        double w = sg_ref_random_value(&s, SPVGEN_COMPONENT_F16) * scale;
        if (fp8_weights(p)) { /* on the float8 grid, normal: the driver's conversion is exact */
          double sp, mn;
          if (fabs(w) < ldexp(1, -6)) w = w < 0 ? -ldexp(1, -6) : ldexp(1, -6);
          w = fp8_round(p->desc.weight_type, w, &sp, &mn);
        }
        sg_ref_f16_put(weights, L->matrix_offset + (uint64_t)i * L->row_stride + 2ull * j, w);
      }
    if (!p->desc.no_bias)
      for (uint32_t i = 0; i < L->outputs; i++) sg_ref_f16_put(weights, L->bias_offset + 2ull * i, sg_ref_random_value(&s, SPVGEN_COMPONENT_F16) * 0.5);
  }
  bool grid = p->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID;
  if (grid) /* the table: +-[1/8, 1), f16 */
    for (uint64_t e = 0; e < (uint64_t)p->grid_entries * p->desc.grid.features; e++)
      sg_ref_f16_put(weights, p->grid_offset + 2 * e, sg_ref_random_value(&s, SPVGEN_COMPONENT_F16));
  bool unit = p->desc.encoding == SPVGEN_MLP_ENCODING_ONE_BLOB || grid;
  const uint32_t iw = p->desc.input_width;
  for (uint64_t pt = 0; pt < points; pt++) {
    /* in (0, 1) for the one-blob and the hash grid; the grid redraws a point where an f32
     * rounding could move it to another cell (sg_ref_grid_ambiguous) */
    for (int tries = 0; tries < 64; tries++) {
      double xs[SPVGEN_MLP_MAX_WIDTH];
      for (uint32_t c = 0; c < iw; c++) {
        double v = unit ? 0.01 + 0.98 * sg_ref_rng_unit(&s) : sg_ref_random_value(&s, SPVGEN_COMPONENT_F16);
        uint64_t i = pt * iw + c;
        if (p->desc.input_type == SPVGEN_COMPONENT_F32) ((float *)input)[i] = (float)v;
        else ((uint16_t *)input)[i] = sg_ref_f32_to_f16((float)v);
        xs[c] = sg_ref_get(input, p->desc.input_type, i);
      }
      if (!grid || !sg_ref_grid_ambiguous(p, xs)) break;
    }
  }
  (void)nin;
}

void sg_ref_mlp_point(const spvgen_mlp_config *p, const uint8_t *weights, const void *input, uint64_t pt,
                      double *out, double *err) {
  const spvgen_mlp_desc *d = &p->desc;
  bool s8 = d->weight_type == SPVGEN_COMPONENT_S8;
  bool f16_path = p->variant != SPVGEN_MLP_LOOP && !s8; /* s8: f32 activations */
  /* layers: f16 activations between the GEMMs, but each layer's sum in f32 (any order:
   * (inputs + 1) units of the sum of magnitudes; tensor cores that truncate their
   * partial sums, 16 units, as the GEMM's own check allows) and the activation in f32
   * on the f32 sum (the GEMM epilogue: no f16 z) */
  const bool layers = p->variant == SPVGEN_MLP_LAYERS;
  const double u_acc = f16_path ? ldexp(1, -9) : ldexp(1, -20);
  const double u_store = f16_path ? ldexp(1, -10) : ldexp(1, -24); /* f32->f16 may round toward zero */
  const double act_rel = f16_path ? ldexp(1, -9) : s8 ? ldexp(1, -16) : 1e-6;
  /* Each value's error bounds (ref_mlp.h, SG_REF_MLP_SIGMAS): e the worst case; the
   * statistical bound F g + c, with g a scale of the errors that passed through a sum
   * (independent ones, which add as root-sum-square) and c the worst case of the last
   * operation's own roundings. */
  double xa[SPVGEN_MLP_MAX_WIDTH], ea[SPVGEN_MLP_MAX_WIDTH], ga[SPVGEN_MLP_MAX_WIDTH], ca[SPVGEN_MLP_MAX_WIDTH];
  double xb[SPVGEN_MLP_MAX_WIDTH], eb[SPVGEN_MLP_MAX_WIDTH], gb[SPVGEN_MLP_MAX_WIDTH], cb[SPVGEN_MLP_MAX_WIDTH];
  double raw[SPVGEN_MLP_MAX_WIDTH];
  for (uint32_t c = 0; c < d->input_width; c++)
    raw[c] = sg_ref_get(input, d->input_type, pt * d->input_width + c);
  const uint32_t F = d->encoding_size;
  const double pi = 3.14159265358979323846;
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) sg_ref_grid_features(p, weights, raw, f16_path ? u_store : 0, xa, ea);
  for (uint32_t c = 0; d->encoding != SPVGEN_MLP_ENCODING_HASH_GRID && c < d->input_width; c++) {
    if (d->encoding == SPVGEN_MLP_ENCODING_NONE) {
      xa[c] = raw[c];
      ea[c] = f16_path ? u_store * fabs(raw[c]) : 0;
    } else if (d->encoding == SPVGEN_MLP_ENCODING_FREQUENCY) {
      for (uint32_t k = 0; k < F; k++) {
        double a = ldexp(pi, (int)k) * raw[c];
        xa[c * 2 * F + 2 * k] = sin(a);
        xa[c * 2 * F + 2 * k + 1] = cos(a);
        /* sin/cos of the reduced f32 argument: 2^-11 absolute (Vulkan), the reduction's
         * f32 rounding (|2 pi fract| ulps), and f16 rounding on the f16 paths. */
        ea[c * 2 * F + 2 * k] = ea[c * 2 * F + 2 * k + 1] = ldexp(1, -11) + 8 * ldexp(1, -24) + (f16_path ? u_store : 0);
      }
    } else {
      for (uint32_t i = 0; i < F; i++) {
        double t = raw[c] * F - i - 0.5;
        double v = exp(-0.5 * t * t);
        xa[c * F + i] = v;
        /* exp's own error and the f32 rounding of its argument (relative to t^2 / 2). */
        ea[c * F + i] = v * (1e-6 + 4 * ldexp(1, -24) * (0.5 * t * t + 1)) + (f16_path ? u_store * v : 0);
      }
    }
  }
  for (uint32_t j = 0; p->layer_count && j < p->layers[0].inputs; j++) { /* the encoding's: its own */
    ga[j] = 0;
    ca[j] = ea[j];
  }
  const double sig = SG_REF_MLP_SIGMAS;
  double *x = xa, *e = ea, *g = ga, *c = ca, *y = xb, *ey = eb, *gy = gb, *cy = cb;
  for (uint32_t l = 0; s8 && l < p->layer_count; l++) {
    /* int8: q = floor(clamp(x / s, -127, 127) + 0.5) as the kernel computes it (f32
     * product, then ConvertFToS(v + 128.5) - 128). The device's x differs from the
     * reference's by at most e[j], its f32 product and sum by a few ulps: the two q
     * agree unless v + 0.5 lies that close to an integer, where they may differ by one
     * (flip[j]). The s32 products are exact; the rescale adds f32 rounding. */
    const spvgen_mlp_layer *L = &p->layers[l];
    double q[SPVGEN_MLP_MAX_WIDTH], flip[SPVGEN_MLP_MAX_WIDTH];
    for (uint32_t j = 0; j < L->inputs; j++) {
      double inv = f32v(weights, L->scale_offset + 4ull * j);
      double v = fmin(fmax(x[j] * inv, -127.0), 127.0) + 0.5;
      double fl = floor(v), window = e[j] * inv + fabs(v) * ldexp(1, -22) + ldexp(1, -15);
      q[j] = fl;
      flip[j] = (v - fl <= window || fl + 1 - v <= window) ? 1 : 0;
    }
    for (uint32_t i = 0; i < L->outputs; i++) {
      double acc = 0, dacc = 0;
      for (uint32_t j = 0; j < L->inputs; j++) {
        int8_t w8;
        memcpy(&w8, weights + L->matrix_offset + (uint64_t)i * L->row_stride + j, 1);
        acc += w8 * q[j];
        dacc += fabs((double)w8) * flip[j];
      }
      double os = f32v(weights, L->scale_offset + 4ull * mlp_ref_round4(L->inputs) + 4ull * i);
      double b = d->no_bias ? 0 : f32v(weights, L->bias_offset + 4ull * i);
      double z = acc * os + b;
      double ez = dacc * os + ldexp(1, -22) * (fabs(acc * os) + fabs(b));
      double v = sg_ref_activation(z, L->activation, d->leaky_slope);
      double ev = sg_ref_activation_slope_bound(z, ez, L->activation, d->leaky_slope) * ez;
      if (L->activation != SPVGEN_MLP_ACT_NONE && L->activation != SPVGEN_MLP_ACT_RELU &&
          L->activation != SPVGEN_MLP_ACT_LEAKY_RELU)
        ev += act_rel * (fabs(v) + 1);
      y[i] = v;
      ey[i] = ev;
      gy[i] = 0; /* the flips are worst cases, not small independent errors */
      cy[i] = ev;
    }
    double *t = x; x = y; y = t;
    t = e; e = ey; ey = t;
    t = g; g = gy; gy = t;
    t = c; c = cy; cy = t;
  }
  for (uint32_t l = 0; !s8 && l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    if (fp8_weights(p)) {
      /* The device reads the f16 input as float8. The reference rounds its own value
       * (to nearest even); the device's value differs from it by at most e[j], so the
       * two roundings agree unless a rounding boundary (a midpoint between grid values)
       * lies within e[j] of it (or is hit: ties may break either way), where they may
       * differ by one grid step; below the smallest normal the device may also flush to
       * zero. Otherwise the float8 inputs are equal and carry no error. */
      for (uint32_t j = 0; j < L->inputs; j++) {
        double sp, mn;
        double q = fp8_round(d->weight_type, x[j], &sp, &mn);
        double lo = floor(x[j] / sp) * sp, mid = lo + 0.5 * sp;
        double ej = fabs(x[j] - mid) <= e[j] + 1e-12 * sp ? sp : 0;
        if (fabs(x[j]) < mn) ej = fmax(ej, fabs(x[j]) + sp);
        x[j] = q;
        e[j] = c[j] = ej; /* a flip: a worst case, propagated linearly (below) */
        g[j] = 0;
      }
    }
    for (uint32_t i = 0; i < L->outputs; i++) {
      double z = d->no_bias ? 0 : sg_ref_f16_at(weights, L->bias_offset + 2ull * i);
      double mag = fabs(z), prop = 0, prop2 = 0;
      for (uint32_t j = 0; j < L->inputs; j++) {
        double w = sg_ref_f16_at(weights, L->matrix_offset + (uint64_t)i * L->row_stride + 2ull * j);
        z += w * x[j];
        mag += fabs(w * x[j]);
        prop += fabs(w) * e[j];
        prop2 += (w * (g[j] + c[j])) * (w * (g[j] + c[j]));
      }
      /* f16 accumulation (mat, f16_accumulation): each of the inputs + 1 additions
       * rounds the partial sum to f16, a worst case of (inputs + 1) 2^-11 of the sum of
       * magnitudes. */
      double ua = layers ? 1.1 * fmax(16.0, L->inputs + 1.0) * ldexp(1, -24)
                  : p->desc.f16_accumulation ? (L->inputs + 1) * ldexp(1, -11) : u_acc;
      double local = ua * mag + (f16_path && !layers ? u_store * fabs(z) : 0);
      double ez = prop + local;
      /* statistical: the inputs' errors as independent ones, root-sum-square; the f16
       * accumulator's inputs + 1 roundings so too (sqrt(inputs + 1) 2^-11 of the
       * magnitudes), its f16 z a worst case. Float8 inputs carry rounding flips only,
       * worst cases, added linearly. */
      double gz = sqrt(prop2), cz = local;
      if (fp8_weights(p)) gz = 0, cz = ez;
      else if (p->desc.f16_accumulation && !layers) {
        gz = hypot(gz, sqrt(L->inputs + 1.0) * ldexp(1, -11) * mag);
        cz = u_store * fabs(z);
      }
      double v = sg_ref_activation(z, L->activation, d->leaky_slope);
      double ev = sg_ref_activation_slope_bound(z, ez, L->activation, d->leaky_slope) * ez;
      /* the statistical bound's slope: over the interval it bounds, as e's over e */
      double sl = sg_ref_activation_slope_bound(z, fmin(ez, sig * gz + cz), L->activation, d->leaky_slope);
      double act_local = 0;
      if (L->activation != SPVGEN_MLP_ACT_NONE && L->activation != SPVGEN_MLP_ACT_RELU &&
          L->activation != SPVGEN_MLP_ACT_LEAKY_RELU)
        act_local += (layers ? 3e-5 : act_rel) * (fabs(v) + 1); /* layers: the GEMM's f32 exp / tanh */
      act_local += u_store * fabs(v);
      y[i] = v;
      ey[i] = ev + act_local;
      gy[i] = sl * gz;
      cy[i] = sl * cz + act_local;
    }
    double *t = x; x = y; y = t;
    t = e; e = ey; ey = t;
    t = g; g = gy; gy = t;
    t = c; c = cy; cy = t;
  }
  /* err: the smaller of the two bounds, one number (ref_mlp.h) */
  for (uint32_t k = 0; k < d->output_width; k++) {
    out[k] = x[k];
    err[k] = fmin(e[k], sig * g[k] + c[k]);
  }
}

double sg_ref_mlp_tolerance(const spvgen_mlp_config *p, double ref, double err) {
  double uo = p->desc.output_type == SPVGEN_COMPONENT_F16 ? ldexp(1, -10) : ldexp(1, -24);
  return 2 * err + uo * fabs(ref) + 1e-6;
}

double sg_ref_mlp_get_output(const spvgen_mlp_config *p, const void *out, uint64_t i) {
  return sg_ref_get(out, p->desc.output_type, i);
}
