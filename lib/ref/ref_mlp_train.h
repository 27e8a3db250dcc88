/* lib/ref/ref_mlp_train.h — the float64 CPU reference of MLP training (spvgen/mlp.h,
 * "training"): gradients of every weight and bias, the loss, and every optimizer step
 * (Adam / SGD) element for element, with the checks that compare a device's buffers to
 * it (tools/common/mlp_train_run.h runs the kernels). Internal to spvgen (lib/ref).
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
 * u_sum = 2^-23 (W + chunks + 4), the f32 sums over the points. A hash grid table
 * element, the sum of n terms (a corner weight times dLoss/dfeature) added atomically:
 * the terms' errors, plus the sum's rounding, f32 n 2^-24 sum |term|, or f16
 * (grid_gradient F16, the terms times the power of two S) (n + 1) 2^-10 sum |term| +
 * 2 n 2^-14 / S (each term's conversion and each add off by at most one f16 ulp: the
 * atomics round to nearest or toward zero as the device does; and at most 2^-14 lost
 * where a value falls below f16's normals, kept or flushed). The loss: relative
 * 2^-12 plus its first-order error from the outputs' bounds.
 *
 * Each bound above (ea, edel and the pre-activation's) is carried twice, as in ref_mlp.c
 * (tools/common/mlp_run.h): the worst case, which adds the errors of a sum's terms
 * linearly and grows about sqrt(width) a layer (10^5 - 10^8 times |gradient| on 6- and
 * 7-layer networks 128 - 256 wide), and the statistical bound F g + c + l
 * (F = SG_REF_MLP_SIGMAS; a gradient's terms take twice the bounds believed:
 * ref_mlp_train.c, SG_REF_MLP_TRAIN_MARGIN): g the root-sum-square of the errors that came through sums
 * (forward and back), c the value's own last roundings, l the relu / leaky kinks taken on
 * the other side, worst cases that stay linear. The smaller of the two is the bound
 * believed: the act' and act'' bounds, the kinks' ambiguity and the gradient, loss and
 * table terms take it; the sums over the points stay linear. The tests state how tight
 * this is (with the margin): tests/mlp/test_mlp_train.c's median tolerance is 0.02 % to
 * 1 % of |gradient| without encoding, about 10 % with the frequency encoding, whose
 * 2^-11 allowance dominates; tests/mlp/test_mlp_ref_bound.c's deep, wide networks 0.3 % -
 * 44 %, and 340 % for a 6-layer relu network, the kinks' (where its pre-activation lies
 * within its bound of 0, a unit's whole delta is allowed). The vec variant (f16 arithmetic, f16 atomic sums with a
 * loss scale of 1024) is checked by tools/common's mlp_train_run at 2^-5 (|ref| + the layer's largest
 * |gradient|), the loss at 2^-5 relative.
 *
 * Optimizer: recomputed in double from the device's state before the step and the
 * device's gradient slots (summed in double), with a bound per value: the device's f32
 * sum of the slots ((slots + 2) 2^-24 sum |slot|, which matters where they cancel),
 * 1e-6 relative per f32 operation and pow, carried to m, v and (first order, at most
 * 4 lr) the update, plus 1e-4 lr and 2^-22 |w|; the f16 weight must be the device's
 * master rounded to f16 (either direction). */
#ifndef SPVGEN_REF_MLP_TRAIN_H
#define SPVGEN_REF_MLP_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/mlp.h"

/* Whether element e (of the E of the weight layout) is a weight or a bias. */
bool mlp_train_is_param(const spvgen_mlp_train_config *t, uint64_t e);

/* Host data: weights f16 (sg_ref_mlp_fill's: nonzero, padding 1000.0), input points,
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

/* The device's gradient of table element e (hash grid, e >= slot_elements) in the
 * gradient buffer buf (grad_bytes, read as floats): f32, or with grid_gradient F16 the
 * f16 value divided by grid_gradient_scale. */
double mlp_train_table_gradient(const spvgen_mlp_train_config *t, const float *buf, uint64_t e);

/* Compares one value g with its reference and tolerance (NaN fails), into *c. */
void mlp_train_check_value(mlp_train_check *c, uint64_t e, double g, double ref, double tol);

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

#endif
