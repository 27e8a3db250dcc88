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
 * from the outputs or (SiLU, leaky ReLU with a slope <= 0) kept from the forward (in the
 * registers of the subgroup that computed them, or in z blocks where too many), the
 * biases from one row loaded with a stride of 0, staged weights of layers that are not
 * 16-multiples, guards where the fragments do not divide among the subgroups, chunks of
 * 16 and 32 points, a 256-wide layer, and partial chunks.
 *
 * Through tools/common/mlp_train_run: three steps of gradient + optimizer kernels on a
 * batch, every weight and bias gradient against the float64 reference at 2^-5 (|ref| +
 * the layer's largest |gradient|) (f16 activations and deltas between the layers; a
 * wrong index, transposition or missing term is off by O(1) of the layer's gradients),
 * the loss at 2^-5 relative, every optimizer value as for the loop variant. The worst
 * error must also stay under a quarter of that bound. tests/gpu/test_gpu_mlp_train.c
 * runs the real instructions on the H100. */
#include <stdio.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_train_run.h"
#include "rand.h"
#include "rand.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

static spvgen_device_caps with_coopmat(const spvgen_device_caps *dev) {
  spvgen_device_caps c = *dev;
  c.features |= SPVGEN_FEATURE_COOPMAT;
  c.coopmat_count = 0;
  spvgen_coopmat_shape *s = &c.coopmat[c.coopmat_count++];
  memset(s, 0, sizeof *s);
  s->m = s->n = s->k = 16;
  s->a = s->b = SPVGEN_COMPONENT_F16;
  s->c = s->result = SPVGEN_COMPONENT_F32;
  s->scope = SpvScopeSubgroup;
  return c;
}

typedef struct train_case {
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
} train_case;

static void run_case(spvgen_vk_context *ctx, const train_case *tc) {
  spvgen_device_caps caps = with_coopmat(spvgen_vk_caps(ctx));
  /* The emulation's MulAdd scratch (1 KiB per subgroup, at most 4 here) is not in the
   * plan's shared memory: keep room for it, so that the kernel stays within the device's
   * limit. */
  caps.max_shared_memory -= 4096;
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  d.net.variant = SPVGEN_MLP_MAT;
  d.net.input_width = tc->in;
  d.net.hidden_width = tc->width;
  d.net.hidden_count = tc->count;
  d.net.output_width = tc->out;
  d.net.activation = tc->act;
  d.net.output_activation = tc->out_act;
  d.net.encoding = tc->enc;
  d.net.encoding_size = tc->enc_size;
  d.net.grid = tc->grid;
  d.net.no_bias = tc->no_bias;
  d.net.leaky_slope = tc->slope;
  /* 16 unless the case says: lavapipe's shared memory, with the emulation's scratch */
  const uint32_t ppg = tc->ppg ? tc->ppg : 16;
  d.net.points_per_group = ppg;
  if (tc->f32_in) d.net.input_type = SPVGEN_COMPONENT_F32;
  d.loss = tc->loss;
  d.optimizer = tc->opt;
  /* One chunk of 16 points per workgroup, the last partial. Several chunks per workgroup
   * (the slots accumulating over chunks) go wrong on lavapipe (Mesa 22.3, Debian 12)
   * from about 3 chunks on, for this kernel only: the same emulated SPIR-V passes on a
   * real device with more chunks, and so does the real kernel with 8
   * (tests/gpu/test_gpu_mlp_train.c; the record: tests/results/gpu-h100-2026-11-24b.md). */
  uint32_t chunks = tc->chunks ? tc->chunks : 1;
  d.grad_workgroups = (tc->points + ppg * chunks - 1) / (ppg * chunks);
  d.grad_workgroup_size = tc->subgroups * caps.subgroup_size;
  d.grad_slot_adds = tc->slot_adds;
  spvgen_mlp_train_config plan;
  char msg[512];
  spvgen_status st = spvgen_mlp_train_plan(&d, &caps, &plan, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return;
  CHECK(plan.net.features & SPVGEN_FEATURE_COOPMAT);
  CHECK(plan.grad_local_size[0] / plan.net.subgroup_size <= 4);
  CHECK_MSG(plan.grad_held == !tc->slot_adds, "[%s] held %d", plan.name, (int)plan.grad_held);
  CHECK_EQ_U64(plan.net.desc.points_per_group, ppg);
  if (tc->shared_bytes) CHECK_EQ_U64(plan.grad_shared_bytes, tc->shared_bytes);
  plan.net.features &= ~SPVGEN_FEATURE_COOPMAT; /* the emulation */
  mlp_train_run_options o;
  memset(&o, 0, sizeof o);
  o.seed = test_rand_u32() | 1u;
  o.points = tc->points;
  o.steps = 3;
  o.lr = tc->opt == SPVGEN_MLP_OPTIMIZER_SGD ? 0.05f : 0.01f;
  o.plan = &plan;
  mlp_train_run_result r;
  st = mlp_train_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "[%s]: %s", plan.name, msg);
  if (st != SPVGEN_OK) return;
  CHECK_EQ_U64(r.grad.checked, r.plan.params * o.steps);
  CHECK_MSG(r.grad.bad == 0, "[%s] %llu of %llu gradients wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
            plan.name, (unsigned long long)r.grad.bad, (unsigned long long)r.grad.checked,
            (unsigned long long)r.grad.first_bad, r.grad.first_gpu, r.grad.first_ref, r.grad.first_tol);
  CHECK_MSG(r.grad.worst_ratio <= 0.25, "[%s]: worst gradient |err| / tolerance %.3f, expected <= 0.25",
            plan.name, r.grad.worst_ratio);
  CHECK_MSG(r.opt.bad == 0, "[%s] %llu optimizer values wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
            plan.name, (unsigned long long)r.opt.bad, (unsigned long long)r.opt.first_bad, r.opt.first_gpu,
            r.opt.first_ref, r.opt.first_tol);
  CHECK_MSG(r.loss_bad == 0, "[%s] loss gpu %.8g cpu %.8g", plan.name, r.loss_gpu[0], r.loss_ref[0]);
  fprintf(stderr, "  %-64s %u points: worst gradient err/tol %.3f, optimizer %.3f, loss %.5g -> %.5g\n",
          plan.name, tc->points, r.grad.worst_ratio, r.opt.worst_ratio, r.loss_gpu[0], r.loss_gpu[2]);
}

/* The sample's network at half its width (lavapipe compiles the emulation slowly):
 * frequency encoding, four layers, the first and last staged
 * (24 inputs, 3 outputs: padded deltas), ReLU derivatives from the outputs, L2, Adam;
 * 100 points in chunks of 16 (the last partial). */
static void test_mat_train_sample_network_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const train_case c = {2, 32, 3, 3, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE,
                               SPVGEN_MLP_ENCODING_FREQUENCY, 6, true, false, SPVGEN_MLP_LOSS_L2,
                               SPVGEN_MLP_OPTIMIZER_ADAM, 0, 0, 100, {0, 0, 0, 0, 0}, 0, false, 0, 0};
  run_case(ctx, &c);
  spvgen_vk_destroy(ctx);
}

/* Odd widths and the other paths: SiLU (derivatives kept in registers), a sigmoid output,
 * one-blob encoding, no bias, relative L2, SGD, 2 output fragments of 32 on 2 subgroups;
 * tanh hidden layers (derivative of the output) with an exp output, 48 wide: 3
 * fragments on 2 subgroups (guards in every pass), in the slot-adds form (the others run
 * the held one, the plan's default). Each kernel takes lavapipe about 40 s
 * to compile (the emulation inlined at every fragment operation), hence two cases. */
static void test_mat_train_odd_networks_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const train_case cases[] = {
      {3, 20, 2, 5, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ENCODING_ONE_BLOB, 8, true, true,
       SPVGEN_MLP_LOSS_RELATIVE_L2, SPVGEN_MLP_OPTIMIZER_SGD, 0, 2, 50, {0, 0, 0, 0, 0}, 0, false, 0, 0},
      {4, 48, 2, 2, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_EXP, 0, 0, true, false,
       SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 0, 2, 61, {0, 0, 0, 0, 0}, 0, true, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) run_case(ctx, &cases[i]);
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
  static const train_case c = {3, 16, 2, 3, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_NONE,
                               SPVGEN_MLP_ENCODING_HASH_GRID, 0, true, false, SPVGEN_MLP_LOSS_L2,
                               SPVGEN_MLP_OPTIMIZER_ADAM, 0, 0, 45, {4, 2, 8, 4, 1.5f}, 0, false, 0, 0};
  run_case(ctx, &c);
  spvgen_vk_destroy(ctx);
}

/* The held form summing over chunks: the dW tiles and bias sums stay in Function
 * variables across 2 chunks of 16 points per workgroup (the last workgroup one partial
 * chunk), then go to the slot once; 48 wide on 2 subgroups (3 output fragments: the
 * guarded tiles accumulate too). Two chunks, not more: from 3 or 4 chunks per workgroup
 * on, lavapipe computes a wrong forward pass (the loss differs already) in both forms,
 * the slot-adds one included (see the note in run_case). */
static void test_mat_train_held_sums_over_chunks_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const train_case c = {4, 48, 2, 2, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_NONE, 0, 0, true, false,
                               SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 0, 2, 150, {0, 0, 0, 0, 0}, 2, false,
                               0, 0};
  run_case(ctx, &c);
  spvgen_vk_destroy(ctx);
}

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
  static const train_case cases[] = {
      {16, 64, 2, 3, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE, 0, 0, false, false, SPVGEN_MLP_LOSS_L2,
       SPVGEN_MLP_OPTIMIZER_ADAM, 0, 4, 52, {0, 0, 0, 0, 0}, 0, false, 32, 16928},
      {16, 16, 9, 3, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE, 0, 0, false, false, SPVGEN_MLP_LOSS_L2,
       SPVGEN_MLP_OPTIMIZER_ADAM, 0, 1, 40, {0, 0, 0, 0, 0}, 0, false, 16, 17472},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) run_case(ctx, &cases[i]);
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
  static const train_case c = {16, 256, 1, 16, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE, 0, 0, false, false,
                               SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 0, 4, 40, {0, 0, 0, 0, 0}, 0, true,
                               16, 15648};
  run_case(ctx, &c);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mat_train_sample_network_emulated),
      TEST_CASE(test_mat_train_odd_networks_emulated),
      TEST_CASE(test_mat_train_hash_grid_emulated),
      TEST_CASE(test_mat_train_held_sums_over_chunks_emulated),
      TEST_CASE(test_mat_train_silu_act_deriv_kept_emulated),
      TEST_CASE(test_mat_train_256_wide_emulated),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
