/* tests/support/mat_train_emulated.c — see mat_train_emulated.h. */
#include "mat_train_emulated.h"

#include <stdio.h>
#include <string.h>

#include "coopmat_emulated.h"
#include "harness.h"
#include "mlp_train_run.h"
#include "rand.h"

static void run_case(spvgen_vk_context *ctx, const mat_train_case *tc, const mat_train_grid_options *go,
                     spvgen_mlp_grad_bias bias, spvgen_mlp_grad_act_deriv act_deriv);

void mat_train_emulated_run(spvgen_vk_context *ctx, const mat_train_case *tc) {
  run_case(ctx, tc, NULL, SPVGEN_MLP_GRAD_BIAS_AUTO, SPVGEN_MLP_GRAD_ACT_DERIV_AUTO);
}

void mat_train_emulated_run_grid(spvgen_vk_context *ctx, const mat_train_case *tc, const mat_train_grid_options *go) {
  run_case(ctx, tc, go, SPVGEN_MLP_GRAD_BIAS_AUTO, SPVGEN_MLP_GRAD_ACT_DERIV_AUTO);
}

void mat_train_emulated_run_form(spvgen_vk_context *ctx, const mat_train_case *tc, spvgen_mlp_grad_bias bias,
                                 spvgen_mlp_grad_act_deriv act_deriv) {
  run_case(ctx, tc, NULL, bias, act_deriv);
}

static void run_case(spvgen_vk_context *ctx, const mat_train_case *tc, const mat_train_grid_options *go,
                     spvgen_mlp_grad_bias bias, spvgen_mlp_grad_act_deriv act_deriv) {
  static const mat_train_grid_options none;
  if (!go) go = &none;
  spvgen_device_caps caps = coopmat_emulated_caps(spvgen_vk_caps(ctx), false);
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
  d.grid_spread = go->spread;
  d.grad_bias = bias;
  d.grad_act_deriv = act_deriv;
  if (go->atomics == MT_ATOMICS_F16_PAIRS) {
    caps.features |= SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR;
    d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F16;
    d.grid_gradient_scale = go->scale;
  }
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
  if (bias) CHECK_EQ_U64(plan.desc.grad_bias, bias);
  if (act_deriv) CHECK_EQ_U64(plan.desc.grad_act_deriv, act_deriv);
  if (tc->enc == SPVGEN_MLP_ENCODING_HASH_GRID)
    CHECK_EQ_U64(plan.desc.grid_spread, go->spread ? go->spread : SPVGEN_MLP_GRID_SPREAD_FLAT);
  plan.net.features &= ~SPVGEN_FEATURE_COOPMAT; /* the emulation */
  if (go->atomics != MT_ATOMICS_DEVICE) /* the compare-exchange loops */
    plan.features &= ~(SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD | SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR);
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
  static const char *const how[] = {"", " (compare-exchange)", " (f16 pairs)"};
  fprintf(stderr, "  %-64s%s %u points: worst gradient err/tol %.3f, optimizer %.3f, loss %.5g -> %.5g\n",
          plan.name, tc->enc == SPVGEN_MLP_ENCODING_HASH_GRID ? how[go->atomics] : "", tc->points, r.grad.worst_ratio,
          r.opt.worst_ratio, r.loss_gpu[0], r.loss_gpu[2]);
}
