/* lib/template/check.c — the one element comparison every template's check makes
 * (template.h, sg_check_element), and the check of a guard past the outputs
 * (sg_check_guard). */
#include <math.h>

#include "template.h"

void sg_check_element(sg_check *c, uint64_t index, double gpu, double ref, double tol) {
  double err = fabs(gpu - ref);
  if (!(err <= tol)) { /* NaN counts as bad */
    if (!c->bad) {
      c->first_bad = index;
      c->first_bad_gpu = gpu;
      c->first_bad_ref = ref;
      c->first_bad_tol = tol;
    }
    c->bad++;
  }
  if (!(err <= c->max_err)) {
    c->max_err = err;
    c->max_err_tol = tol;
  }
  double ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
  if (!(ratio <= c->worst_ratio)) c->worst_ratio = ratio;
  c->checked++;
}

void sg_check_guard(sg_check *c, const void *guard, uint64_t bytes, uint64_t offset, uint32_t esize, uint64_t index) {
  const uint8_t *g = guard;
  if (!esize) esize = 1;
  for (uint64_t e = 0; e * esize < bytes; e++) {
    bool same = true;
    for (uint64_t i = e * esize; i < (e + 1) * esize && i < bytes; i++)
      same &= g[i] == (uint8_t)(SG_RUN_NAN_BITS >> 8 * ((offset + i) % 4));
    if (same) continue;
    if (!c->bad) {
      c->first_bad = index + e;
      c->first_bad_gpu = NAN; /* no value: the element should not exist */
      c->first_bad_ref = NAN;
      c->first_bad_tol = 0;
    }
    c->bad++;
  }
}
