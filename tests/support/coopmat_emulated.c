/* tests/support/coopmat_emulated.c — see coopmat_emulated.h. */
#include "coopmat_emulated.h"

#include <string.h>

spvgen_device_caps coopmat_emulated_caps(const spvgen_device_caps *dev, bool f16_acc) {
  spvgen_device_caps c = *dev;
  c.features |= SPVGEN_FEATURE_COOPMAT;
  c.coopmat_count = 0;
  for (int acc16 = 0; acc16 < (f16_acc ? 2 : 1); acc16++) {
    spvgen_coopmat_shape *s = &c.coopmat[c.coopmat_count++];
    memset(s, 0, sizeof *s);
    s->m = s->n = s->k = 16;
    s->a = s->b = SPVGEN_COMPONENT_F16;
    s->c = s->result = acc16 ? SPVGEN_COMPONENT_F16 : SPVGEN_COMPONENT_F32;
    s->scope = SpvScopeSubgroup;
  }
  return c;
}
