/* tests/support/mlp_net.h — the MLP desc of a network the tests name by its shape:
 * in -> count hidden layers of width -> out, activation act, every other field zero
 * (f16 points and weights, biases, the plan's choice of variant and knobs); a test sets
 * what it varies on the result. */
#ifndef SPVGEN_TEST_MLP_NET_H
#define SPVGEN_TEST_MLP_NET_H

#include <string.h>

#include "spvgen/mlp.h"

static inline spvgen_mlp_desc test_mlp_net(uint32_t in, uint32_t width, uint32_t count, uint32_t out,
                                           spvgen_mlp_activation act) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = in;
  d.hidden_width = width;
  d.hidden_count = count;
  d.output_width = out;
  d.activation = act;
  return d;
}

#endif
