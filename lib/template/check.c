/* lib/template/check.c — the one element comparison every template's check makes
 * (template.h, sg_check_element). */
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
