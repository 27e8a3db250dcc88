/* tests/mlp/test_mlp_mat_train_emulated.c — training on the mat variant (spvgen/mlp.h,
 * "training"; emitters/mlp/mat.c) on the CI device. lavapipe has no cooperative
 * matrices, so (as tests/mlp/test_mlp_mat_emulated.c) the plan is made for the device's
 * caps with a 16x16x16 f16 cooperative matrix entry added and its cooperativeMatrix bit
 * then cleared: the gradient kernel emulates each fragment load, store, MulAdd and
 * component-wise multiply in plain SPIR-V at the positions the KHR layouts define.
 * Everything else is the code the H100 runs: the chunks of points per workgroup, every
 * layer's activations kept in shared memory, the output deltas, delta^T a tiles owned by
 * subgroups and added into the slot through their scratch tiles, the bias column sums,
 * the deltas of the hidden layers written over the activations, the derivatives taken
 * from the outputs or (SiLU, leaky ReLU with a slope <= 0) kept from the forward, the
 * biases from 16 rows per layer (the row stride padded), staged weights of layers that
 * are not 16-multiples, guards where the fragments do not divide among the subgroups, and
 * partial chunks. These are the plan's forms where they fit (spvgen_mlp_grad_bias,
 * spvgen_mlp_grad_act_deriv: act'(z) in z blocks, 16 bias rows); the levers (act'(z) in
 * registers, one bias row at stride 0), chunks of 32 points and a 256-wide layer:
 * tests/mlp/test_mlp_mat_train_chunks_emulated.c; the case runner:
 * tests/support/mat_train_emulated.c).
 *
 * Through tools/common/mlp_train_run: three steps of gradient + optimizer kernels on a
 * batch, every weight and bias gradient against the float64 reference at 2^-5 (|ref| +
 * the layer's largest |gradient|) (f16 activations and deltas between the layers; a
 * wrong index, transposition or missing term is off by O(1) of the layer's gradients),
 * the loss at 2^-5 relative, every optimizer value as for the loop variant. The worst
 * error must also stay under a quarter of that bound. tests/gpu/test_gpu_mlp_train.c
 * runs the real instructions on the H100. */
#include "gpu_fixture.h"
#include "harness.h"
#include "mat_train_emulated.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

/* The sample's network at half its width (lavapipe compiles the emulation slowly):
 * frequency encoding, four layers, the first and last staged
 * (24 inputs, 3 outputs: padded deltas), ReLU derivatives from the outputs, L2, Adam;
 * 100 points in chunks of 16 (the last partial). */
static void test_mat_train_sample_network_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const mat_train_case c = {2, 32, 3, 3, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE,
                               SPVGEN_MLP_ENCODING_FREQUENCY, 6, true, false, SPVGEN_MLP_LOSS_L2,
                               SPVGEN_MLP_OPTIMIZER_ADAM, 0, 0, 100, {0, 0, 0, 0, 0}, 0, false, 0, 0};
  mat_train_emulated_run(ctx, &c);
  spvgen_vk_destroy(ctx);
}

/* Odd widths and the other paths: SiLU (derivatives kept in z blocks), a sigmoid output,
 * one-blob encoding, no bias, relative L2, SGD, 2 output fragments of 32 on 2 subgroups;
 * tanh hidden layers (derivative of the output) with an exp output, 48 wide: 3
 * fragments on 2 subgroups (guards in every pass), in the slot-adds form (the others run
 * the held one, the plan's default). Each kernel takes lavapipe about 40 s
 * to compile (the emulation inlined at every fragment operation), hence two cases. */
static void test_mat_train_odd_networks_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const mat_train_case cases[] = {
      {3, 20, 2, 5, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ENCODING_ONE_BLOB, 8, true, true,
       SPVGEN_MLP_LOSS_RELATIVE_L2, SPVGEN_MLP_OPTIMIZER_SGD, 0, 2, 50, {0, 0, 0, 0, 0}, 0, false, 0, 0},
      {4, 48, 2, 2, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_EXP, 0, 0, true, false,
       SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 0, 2, 61, {0, 0, 0, 0, 0}, 0, true, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) mat_train_emulated_run(ctx, &cases[i]);
  spvgen_vk_destroy(ctx);
}

/* The hash grid (3-D, 4 levels of 2 features, dense and hashed): the encoded input's
 * delta W_0^T delta_0 written over block 0 and scattered into the table's gradient with
 * atomic adds; Adam on the table, its gradient left at 0 by the optimizer. tanh: no
 * kink where the f16 features' error could flip a unit (the bound allows for that, but
 * the worst error would then be near the bound, not under a quarter of it). */
static void test_mat_train_hash_grid_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const mat_train_case c = {3, 16, 2, 3, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_NONE,
                               SPVGEN_MLP_ENCODING_HASH_GRID, 0, true, false, SPVGEN_MLP_LOSS_L2,
                               SPVGEN_MLP_OPTIMIZER_ADAM, 0, 0, 45, {4, 2, 8, 4, 1.5f}, 0, false, 0, 0};
  mat_train_emulated_run(ctx, &c);
  spvgen_vk_destroy(ctx);
}

/* The held form summing over chunks: the dW tiles and bias sums stay in Function
 * variables across 2 chunks of 16 points per workgroup (the last workgroup one partial
 * chunk), then go to the slot once; 48 wide on 2 subgroups (3 output fragments: the
 * guarded tiles accumulate too). Two chunks, not more: from 3 or 4 chunks per workgroup
 * on, lavapipe computes a wrong forward pass (the loss differs already) in both forms,
 * the slot-adds one included (see the note in tests/support/mat_train_emulated.c). */
static void test_mat_train_held_sums_over_chunks_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const mat_train_case c = {4, 48, 2, 2, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_NONE, 0, 0, true, false,
                               SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 0, 2, 150, {0, 0, 0, 0, 0}, 2, false,
                               0, 0};
  mat_train_emulated_run(ctx, &c);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mat_train_sample_network_emulated),
      TEST_CASE(test_mat_train_odd_networks_emulated),
      TEST_CASE(test_mat_train_hash_grid_emulated),
      TEST_CASE(test_mat_train_held_sums_over_chunks_emulated),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
