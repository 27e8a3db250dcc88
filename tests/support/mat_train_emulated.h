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

/* How a hash grid case adds the table's gradient. */
typedef enum mat_train_atomics {
  MT_ATOMICS_DEVICE = 0, /* f32: the device's float atomics where it has them (lavapipe does) */
  MT_ATOMICS_CAS,        /* f32 by compare-exchange loops (the plan's float-atomics bit cleared) */
  MT_ATOMICS_F16_PAIRS,  /* grid_gradient F16, planned as for a device with f16 vector atomics and
                            run by compare-exchange loops on f16 pairs */
} mat_train_atomics;

/* The hash grid's knobs of a case (mat_train_emulated_run_grid). */
typedef struct mat_train_grid_options {
  spvgen_mlp_grid_spread spread; /* the plan must resolve AUTO to FLAT */
  mat_train_atomics atomics;
  float scale; /* F16: grid_gradient_scale (0: the default) */
} mat_train_grid_options;

/* Plans, runs and checks the case (CHECK failures on the current test); prints its
 * worst errors to stderr. */
void mat_train_emulated_run(spvgen_vk_context *ctx, const mat_train_case *tc);
/* ... with the hash grid's knobs (go NULL: the defaults, as mat_train_emulated_run). */
void mat_train_emulated_run_grid(spvgen_vk_context *ctx, const mat_train_case *tc, const mat_train_grid_options *go);
/* ... with the gradient kernel's shared-memory forms asked for (spvgen_mlp_grad_bias,
 * spvgen_mlp_grad_act_deriv; AUTO: the plan's choice), checked resolved as asked. */
void mat_train_emulated_run_form(spvgen_vk_context *ctx, const mat_train_case *tc, spvgen_mlp_grad_bias bias,
                                 spvgen_mlp_grad_act_deriv act_deriv);

#endif
