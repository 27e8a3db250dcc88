/* tests/support/mat_train_emulated.h — one case of mat training (spvgen/mlp.h,
 * "training", the mat variant) on the CI device through the emulation of the cooperative
 * matrix instructions: the plan made for the device's caps with a 16x16x16 f16 cooperative
 * matrix entry added, its cooperativeMatrix bit then cleared (emitters/mlp/mat.c,
 * emulated()), three steps through tools/common/mlp_train_run, every weight and bias
 * gradient, the loss and every optimizer value against the float64 reference. Used by
 * tests/mlp/test_mlp_mat_train_emulated.c and test_mlp_mat_train_chunks_emulated.c (two
 * binaries: lavapipe compiles each emulated kernel for tens of seconds, and one binary
 * of all the cases came near ctest's 600 s limit on a loaded CI machine). */
#ifndef SPVGEN_TESTS_MAT_TRAIN_EMULATED_H
#define SPVGEN_TESTS_MAT_TRAIN_EMULATED_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/mlp.h"
#include "spvgen/vk.h"

typedef struct mat_train_case {
  uint32_t in, width, count, out;
  spvgen_mlp_activation act, out_act;
  spvgen_mlp_encoding enc;
  uint32_t enc_size;
  bool f32_in, no_bias;
  spvgen_mlp_loss loss;
  spvgen_mlp_optimizer opt;
  float slope;
  uint32_t subgroups, points;
  spvgen_mlp_hash_grid grid; /* encoding hashgrid */
  uint32_t chunks;           /* chunks of points per workgroup (0: 1) */
  bool slot_adds;            /* the slot-adds form instead of the held one */
  uint32_t ppg;              /* points per chunk (0: 16) */
  uint32_t shared_bytes;     /* the gradient kernel's shared memory the plan must give (0: any) */
} mat_train_case;

/* Plans, runs and checks the case (CHECK failures on the current test); prints its
 * worst errors to stderr. */
void mat_train_emulated_run(spvgen_vk_context *ctx, const mat_train_case *tc);

#endif
