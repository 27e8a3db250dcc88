/* tools/common/mlp_train_ref.h — the float64 CPU reference of MLP training (spvgen/mlp.h,
 * "training") and a runner that checks the device against it: gradients of every weight
 * and bias, the loss, and every optimizer step (Adam / SGD) element for element. For
 * `spvgen run mlp --train`, tests/mlp and bench/. Not part of the library.
 *
 * Gradient tolerance, per element e (weight W_l[i][j] or bias b_l[i]), summed over the
 * batch's points:
 *     tol_e = sum_p  |delta_i| ea_j  +  edel_i (|a_j| + ea_j)  +  u_sum |delta_i a_j|
 * with a_j / ea_j the layer input and a bound on the device's error in it (forward, as
 * mlp_run.h: f32 sums 2^-20 relative to sum |W a|, the encoding's 2^-11 for sin / cos
 * (Vulkan's bound), activations 1e-6); edel_i a bound on the device's error in delta_i:
 * the output's error through the loss derivative, the pre-activation's error through
 * act'' (0 for relu / leaky / none, 1/10 sigmoid, 0.77 tanh, 1/2 silu, e^z exp), f32
 * rounding (2^-20 relative to sum |W delta|), propagated back through |W| |act'|, and
 * where the pre-activation of a relu or leaky relu unit lies within its error bound of 0
 * (the device may take either side of the kink) the whole value delta could take there;
 * u_sum = 2^-23 (W + chunks + 4), the f32 sums over the points. The loss: relative
 * 2^-12 plus its first-order error from the outputs' bounds. The test
 * (tests/mlp/test_mlp_train.c) states how tight this is: the median tolerance is 0.01 %
 * to 1 % of |gradient| without encoding, about 25 % with the frequency encoding, whose
 * 2^-11 allowance dominates. The vec variant (f16 arithmetic, f16 atomic sums with a
 * loss scale of 1024) is checked by mlp_train_run at 2^-5 (|ref| + the layer's largest
 * |gradient|), the loss at 2^-5 relative.
 *
 * Optimizer: recomputed in double from the device's state before the step and the
 * device's gradient slots (summed in double), with a bound per value: the device's f32
 * sum of the slots ((slots + 2) 2^-24 sum |slot|, which matters where they cancel),
 * 1e-6 relative per f32 operation and pow, carried to m, v and (first order, at most
 * 4 lr) the update, plus 1e-4 lr and 2^-22 |w|; the f16 weight must be the device's
 * master rounded to f16 (either direction). */
#ifndef SPVGEN_TOOLS_MLP_TRAIN_REF_H
#define SPVGEN_TOOLS_MLP_TRAIN_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/mlp.h"
#include "spvgen/vk.h"

/* Whether element e (of the E of the weight layout) is a weight or a bias. */
bool mlp_train_is_param(const spvgen_mlp_train_config *t, uint64_t e);

/* Host data: weights f16 (as mlp_run_make_data: nonzero, padding 1000.0), input points,
 * targets f32 (+-[1/8, 1); in (0, 1) for a sigmoid output). */
typedef struct mlp_train_data {
  uint8_t *weights;
  void *input;
  float *targets;
  uint64_t points;
} mlp_train_data;
bool mlp_train_make_data(const spvgen_mlp_train_config *t, uint64_t points, uint64_t seed,
                         mlp_train_data *data);
void mlp_train_free_data(mlp_train_data *data);

/* grad[E] and tol[E] (padding: 0), *loss and *loss_tol for the batch; false when out of
 * memory. weights: f16 in the layout (may differ from data->weights). */
bool mlp_train_reference(const spvgen_mlp_train_config *t, const uint8_t *weights,
                         const mlp_train_data *data, double *grad, double *tol, double *loss,
                         double *loss_tol);

typedef struct mlp_train_check {
  uint64_t checked, bad;
  double worst_ratio; /* max |gpu - ref| / tol */
  uint64_t first_bad;
  double first_gpu, first_ref, first_tol;
} mlp_train_check;

/* Sums the device's gradient slots (grad_workgroups x E floats) and compares each real
 * element with grad / tol; padding is skipped. Accumulates into *c. */
void mlp_train_check_gradients(const spvgen_mlp_train_config *t, const float *slots,
                               const double *grad, const double *tol, mlp_train_check *c);

/* One optimizer step in double: state_before (master, then m, v for Adam), the slots,
 * step, lr -> the expected state_after and its tolerance (double, state size each). */
void mlp_train_optimizer_reference(const spvgen_mlp_train_config *t, const float *state_before,
                                   const float *slots, uint32_t step, float lr,
                                   double *state_after, double *tol);
/* Compares the device's state and f16 weights after a step with the reference. */
void mlp_train_check_optimizer(const spvgen_mlp_train_config *t, const double *ref_state,
                               const double *tol, const float *gpu_state,
                               const uint8_t *gpu_weights, mlp_train_check *c);

typedef struct mlp_train_run_options {
  uint64_t seed;    /* 0: a fixed default */
  uint64_t points;  /* batch; 0: 1024 */
  uint32_t steps;   /* 0: 3 */
  float lr;         /* 0: 1e-3 */
  bool no_check;    /* timing only: `warmup` untimed steps, then `steps` timed ones
                       (steps up to 1024 here), all [gradient, optimizer] pairs in one
                       submission each */
  uint32_t warmup;
  /* A plan to run instead of planning the desc for the device (tests: a mat plan with
   * the cooperativeMatrix bit cleared runs its emulation); NULL: plan. */
  const spvgen_mlp_train_config *plan;
} mlp_train_run_options;

#define MLP_TRAIN_RUN_MAX_STEPS 64
typedef struct mlp_train_run_result {
  spvgen_mlp_train_config plan;
  mlp_train_check grad, opt;
  double loss_gpu[MLP_TRAIN_RUN_MAX_STEPS], loss_ref[MLP_TRAIN_RUN_MAX_STEPS];
  uint32_t loss_bad; /* steps whose loss missed its tolerance */
  double grad_ns, opt_ns; /* GPU time of the kernels: the last step's, or (no_check) the
                             medians over the timed steps */
  double samples_per_s;   /* points / (grad_ns + opt_ns) */
} mlp_train_run_result;

/* Plans, emits both kernels, runs `steps` steps on one random batch, checking every
 * step's gradients, loss and optimizer update. SPVGEN_OK means it ran; the verdict is
 * grad.bad == opt.bad == loss_bad == 0. */
spvgen_status mlp_train_run(spvgen_vk_context *ctx, const spvgen_mlp_train_desc *desc,
                            const mlp_train_run_options *options, mlp_train_run_result *res,
                            char *message, size_t message_size);

#endif
