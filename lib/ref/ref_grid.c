/* lib/ref/ref_grid.c — see ref_grid.h. */
#include "ref_grid.h"

#include <math.h>

#include "ref_convert.h"

/* The device computes pos = fma(scale, x, 0.5) in f32, fused or not (Vulkan's fma may be
 * a multiply and an add, each correctly rounded): the reference takes the fused value,
 * and the other one's distance from it bounds the device's error in the fraction. */
static void grid_pos(float scale, float x, float *fused, float *unfused) {
  *fused = fmaf(scale, x, 0.5f);
  volatile float prod = scale * x; /* rounded to f32, never contracted into an fma */
  volatile float sum = prod + 0.5f;
  *unfused = sum;
}

uint32_t sg_ref_grid_corners(const spvgen_mlp_config *p, const double *x, uint32_t l, uint64_t *elem,
                             double *weight, double *frac_err) {
  const uint32_t D = p->desc.input_width;
  const struct spvgen_mlp_grid_level *L = &p->grid[l];
  uint32_t cell[3];
  double frac[3];
  *frac_err = 0;
  for (uint32_t k = 0; k < D; k++) {
    float fused, unfused;
    grid_pos(L->scale, (float)x[k], &fused, &unfused);
    float fl = floorf(fused);
    cell[k] = (uint32_t)(int32_t)fl;
    frac[k] = (double)fused - (double)fl;
    double e = fabs((double)unfused - (double)fused);
    if (e > *frac_err) *frac_err = e;
  }
  static const uint32_t primes[3] = {1u, 2654435761u, 805459861u};
  for (uint32_t c = 0; c < (1u << D); c++) {
    uint32_t dense = 0, hash = 0, stride = 1;
    double w = 1;
    for (uint32_t k = 0; k < D; k++) {
      uint32_t ck = cell[k] + ((c >> k) & 1);
      w *= (c >> k) & 1 ? frac[k] : 1 - frac[k];
      dense += ck * stride;
      stride *= L->resolution;
      hash ^= ck * primes[k];
    }
    uint32_t idx = L->hashed ? hash & (L->entries - 1) : dense % L->entries;
    elem[c] = ((uint64_t)L->offset + idx) * p->desc.grid.features;
    weight[c] = w;
  }
  return 1u << D;
}

bool sg_ref_grid_ambiguous(const spvgen_mlp_config *p, const double *x) {
  for (uint32_t l = 0; l < p->desc.grid.levels; l++)
    for (uint32_t k = 0; k < p->desc.input_width; k++) {
      float fused, unfused;
      grid_pos(p->grid[l].scale, (float)x[k], &fused, &unfused);
      if (floorf(fused) != floorf(unfused)) return true;
    }
  return false;
}

void sg_ref_grid_features(const spvgen_mlp_config *p, const uint8_t *weights, const double *x, double u_store,
                          double *out, double *err) {
  const uint32_t F = p->desc.grid.features, D = p->desc.input_width;
  for (uint32_t l = 0; l < p->desc.grid.levels; l++) {
    uint64_t elem[8];
    double w[8], fe;
    uint32_t nc = sg_ref_grid_corners(p, x, l, elem, w, &fe);
    for (uint32_t f = 0; f < F; f++) {
      double v = 0, mag = 0, vmag = 0;
      for (uint32_t c = 0; c < nc; c++) {
        double t = sg_ref_f16_at(weights, p->grid_offset + 2 * (elem[c] + f));
        v += w[c] * t;
        mag += fabs(w[c] * t);
        vmag += fabs(t);
      }
      out[l * F + f] = v;
      err[l * F + f] = (D * fe + ldexp(1, -21)) * vmag + ldexp(1, -21) * mag + u_store * fabs(v);
    }
  }
}
