/* tests/mlp/test_mlp_mat_train_chunks_emulated.c — mat training (emitters/mlp/mat.c) on
 * the CI device through the emulated cooperative matrix instructions
 * (tests/support/mat_train_emulated.h), for what lets wide networks take larger chunks:
 * act'(z) of SiLU layers kept from the forward to the backward in the registers of the
 * subgroup that computed it (or in z blocks past 8 fragments per subgroup), one bias row
 * per layer loaded with a stride of 0, chunks of 32 points, and a 256-wide layer: the
 * levers a plan takes only where they buy the chunk (spvgen_mlp_grad_bias,
 * spvgen_mlp_grad_act_deriv), asked for here. Each case asserts the plan's exact shared
 * memory and resolved forms (so that the form under test is the one planned) and checks
 * every gradient against the float64 reference at 2^-5 (|ref| + the layer's largest
 * |gradient|), the worst under a quarter of that, the loss and every optimizer value
 * (tests/mlp/test_mlp_mat_train_emulated.c says more). The networks with 128 and 256
 * inputs per layer run on the GPU (tests/gpu/test_gpu_mlp_train.c). */
#include "gpu_fixture.h"
#include "harness.h"
#include "mat_train_emulated.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

/* SiLU, act'(z) kept from the forward to the backward in both of its places: 16-64x2-3
 * in chunks of 32 points on 4 subgroups keeps 4 fragments per subgroup in registers
 * (shared memory 16,928 bytes: every layer's activations and the deltas 12,288, f32 z
 * 2,048, one bias row per layer 288, the staged last layer 2,304: no z blocks);
 * 16-16x9-3 on 1 subgroup would keep 9, over the register limit of 8, so they go to z
 * blocks (17,472 bytes, 6,912 of them z blocks). f16 points (the 16-byte input path),
 * partial last chunks. Sizes kept small: lavapipe gives an invocation 65,535 loop passes
 * over the whole kernel, one emulated MulAdd costs about 610 of them (docs/design-notes.md,
 * "lavapipe's loop budget"), and its compile time grows with the fragment operations
 * the kernel emits (one subgroup owning every fragment emits the most). */
static void test_mat_train_silu_act_deriv_kept_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const mat_train_case cases[] = {
      {16, 64, 2, 3, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE, 0, 0, false, false, SPVGEN_MLP_LOSS_L2,
       SPVGEN_MLP_OPTIMIZER_ADAM, 0, 4, 52, {0, 0, 0, 0, 0}, 0, false, 32, 16928},
      {16, 16, 9, 3, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE, 0, 0, false, false, SPVGEN_MLP_LOSS_L2,
       SPVGEN_MLP_OPTIMIZER_ADAM, 0, 1, 40, {0, 0, 0, 0, 0}, 0, false, 16, 17472},
  };
  /* asked for: the plan's own choice on lavapipe's shared memory is the staged form */
  mat_train_emulated_run_form(ctx, &cases[0], SPVGEN_MLP_GRAD_BIAS_ROW, SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS);
  if (!test_current_failed)
    mat_train_emulated_run_form(ctx, &cases[1], SPVGEN_MLP_GRAD_BIAS_ROW, SPVGEN_MLP_GRAD_ACT_DERIV_AUTO);
  spvgen_vk_destroy(ctx);
}

/* A 256-wide hidden layer (16-256x1-16, SiLU) in the slot-adds form, the form 256-wide
 * networks train in on the GPU (their dW tiles do not fit the registers): 16 B fragments
 * per output column of the last layer, 4 output fragments per subgroup on 4 subgroups
 * (act'(z) of 4 fragments in registers), a bias row of 256 loaded with a stride of 0;
 * shared memory 15,648 bytes (activations and deltas 9,984, f32 z and tiles 5,120, bias
 * rows 544), where 16 bias rows would have added 8,160. Two 256-wide layers do not fit
 * lavapipe's loop budget (above). */
static void test_mat_train_256_wide_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const mat_train_case c = {16, 256, 1, 16, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE, 0, 0, false, false,
                               SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 0, 4, 40, {0, 0, 0, 0, 0}, 0, true,
                               16, 15648};
  mat_train_emulated_run_form(ctx, &c, SPVGEN_MLP_GRAD_BIAS_ROW, SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mat_train_silu_act_deriv_kept_emulated),
      TEST_CASE(test_mat_train_256_wide_emulated),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
