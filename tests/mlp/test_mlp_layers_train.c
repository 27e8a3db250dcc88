/* tests/mlp/test_mlp_layers_train.c — training on the layers variant (spvgen/mlp.h,
 * "Training on the layers variant": the gradient step as GEMMs and small kernels):
 * every kernel of its plans validates on the h100 and lavapipe presets and every
 * dispatch binds as many buffers as its kernel declares; small networks train on the CI
 * device (lavapipe: the GEMM's simt variant) checked against the float64 training
 * reference, every gradient, optimizer value and loss of every step, with every
 * activation, with and without biases, and at point counts around the workspace's rows
 * (1, 257, 512; a NaN-filled workspace); leaving out the relu mask, a bias gradient, an
 * activation kernel or a derivative kernel fails that check; and each refusal names its
 * reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_train_run.h"
#include "module_check.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  spvgen_caps_preset(name, &c);
  return c;
}

static spvgen_mlp_train_desc tdesc(uint32_t in, uint32_t width, uint32_t count, uint32_t out,
                                   spvgen_mlp_activation act, spvgen_mlp_activation out_act) {
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  d.net.input_width = in;
  d.net.hidden_width = width;
  d.net.hidden_count = count;
  d.net.output_width = out;
  d.net.activation = act;
  d.net.output_activation = out_act;
  d.net.variant = SPVGEN_MLP_LAYERS;
  return d;
}

/* The networks: widths that are multiples of 16, widths that are not (24, 40, 5: every
 * GEMM's edges), relu on the output too, one hidden layer with a linear output, and the
 * relative L2 loss with SGD; then the other activations, hidden and at the output, at
 * widths that are not multiples of 16: silu (z kept, an activation kernel), sigmoid,
 * tanh, leaky relu (a positive slope: in the GEMM, act' from the output; a negative one:
 * z kept), exp, and one of each kind in one network; then no_bias (no bias in the
 * forward GEMMs, no bias gradient) with relu, with tanh and exp in the GEMM and sigmoid
 * out, and with silu (z kept). */
typedef struct lt_case {
  spvgen_mlp_train_desc d;
  uint64_t points;
} lt_case;
static lt_case case_at(int i) {
  lt_case c;
  switch (i) {
  case 0: c.d = tdesc(16, 32, 2, 8, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE), c.points = 600; break;
  case 1: c.d = tdesc(24, 40, 2, 5, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_RELU), c.points = 517; break;
  case 2:
    c.d = tdesc(8, 16, 1, 4, SPVGEN_MLP_ACT_NONE, SPVGEN_MLP_ACT_NONE), c.points = 300;
    c.d.loss = SPVGEN_MLP_LOSS_RELATIVE_L2;
    c.d.optimizer = SPVGEN_MLP_OPTIMIZER_SGD;
    break;
  case 3: c.d = tdesc(12, 40, 2, 5, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_SILU), c.points = 411; break;
  case 4: c.d = tdesc(10, 24, 2, 3, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_SIGMOID), c.points = 389; break;
  case 5: c.d = tdesc(16, 40, 2, 6, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_TANH), c.points = 357; break;
  case 6:
    c.d = tdesc(8, 20, 2, 4, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_LEAKY_RELU), c.points = 333;
    c.d.loss = SPVGEN_MLP_LOSS_RELATIVE_L2;
    break;
  case 7:
    c.d = tdesc(6, 24, 2, 3, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_EXP), c.points = 301;
    c.d.net.leaky_slope = -0.25f;
    break;
  case 8: /* silu, sigmoid and leaky relu hidden, tanh out: every kind in one step */
    c.d = tdesc(9, 0, 0, 2, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_TANH), c.points = 277;
    c.d.net.hidden_widths[0] = 24, c.d.net.hidden_widths[1] = 40, c.d.net.hidden_widths[2] = 24;
    c.d.net.layer_activations[0] = SPVGEN_MLP_ACT_SILU, c.d.net.layer_activations[1] = SPVGEN_MLP_ACT_SIGMOID;
    c.d.net.layer_activations[2] = SPVGEN_MLP_ACT_LEAKY_RELU;
    break;
  case 9: c.d = tdesc(16, 32, 2, 8, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE), c.d.net.no_bias = true, c.points = 517; break;
  case 10: /* tanh, exp hidden (in the GEMM), sigmoid out */
    c.d = tdesc(10, 0, 0, 3, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_SIGMOID), c.points = 389;
    c.d.net.hidden_widths[0] = 24, c.d.net.hidden_widths[1] = 40;
    c.d.net.layer_activations[1] = SPVGEN_MLP_ACT_EXP;
    c.d.net.no_bias = true;
    break;
  default:
    c.d = tdesc(12, 40, 2, 5, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE), c.points = 301;
    c.d.net.no_bias = true;
    c.d.loss = SPVGEN_MLP_LOSS_RELATIVE_L2;
    break;
  }
  return c;
}

enum { CASES = 12 };

/* Every kernel of the step and the optimizer validates; the dispatches bind as many
 * buffers as their kernels declare, the workspace ranges lie inside the workspace, the
 * gradients' at the layout's f32 places; the one-kernel gradient emit is refused naming
 * the per-kernel one. */
static void test_layers_train_kernels_validate(void) {
  const char *presets[2] = {"h100", "lavapipe"};
  for (int pi = 0; pi < 2; pi++) {
    spvgen_device_caps caps = preset(presets[pi]);
    for (int i = 0; i < CASES + 2; i++) {
      spvgen_mlp_train_desc d = i < CASES  ? case_at(i).d
                                : i == CASES ? tdesc(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE)
                                             : tdesc(16, 128, 3, 3, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE);
      spvgen_mlp_train_config t;
      char msg[512];
      spvgen_status st = spvgen_mlp_train_plan(&d, &caps, &t, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s case %d: %s", presets[pi], i, msg);
      if (st != SPVGEN_OK) continue;
      CHECK(t.net.variant == SPVGEN_MLP_LAYERS);
      CHECK_EQ_U64(t.grad_workgroups, 1);
      CHECK_EQ_U64(t.grad_bytes, t.elements * 4);
      const uint32_t K = spvgen_mlp_train_kernel_count(&t), D = spvgen_mlp_train_dispatch_count(&t);
      CHECK(K >= 4 && K == t.layers_kernel_count);
      uint32_t bindings[SPVGEN_MLP_TRAIN_LAYERS_MAX_KERNELS] = {0};
      for (uint32_t k = 0; k < K; k++) {
        spvgen_module *m = spvgen_module_create(NULL);
        spvgen_kernel_info info;
        const uint32_t *w = NULL;
        size_t count = 0;
        st = spvgen_mlp_train_emit_kernel(m, &t, k, &info);
        if (st == SPVGEN_OK) st = spvgen_module_finish(m, &w, &count);
        CHECK_MSG(st == SPVGEN_OK, "%s kernel %u: %s", t.name, k, spvgen_module_error(m));
        if (st == SPVGEN_OK) {
          CHECK(check_words(w, count));
          bindings[k] = info.binding_count;
        }
        spvgen_module_destroy(m);
      }
      spvgen_module *m = spvgen_module_create(NULL);
      CHECK(spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_GRADIENT, NULL) == SPVGEN_ERROR_UNSUPPORTED);
      CHECK_MSG(strstr(spvgen_module_error(m), "spvgen_mlp_train_emit_kernel") != NULL, "%s", spvgen_module_error(m));
      spvgen_module_reset(m, NULL);
      const uint32_t *w = NULL;
      size_t count = 0;
      st = spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_OPTIMIZER, NULL);
      if (st == SPVGEN_OK) st = spvgen_module_finish(m, &w, &count);
      CHECK_MSG(st == SPVGEN_OK, "%s optimizer: %s", t.name, spvgen_module_error(m));
      if (st == SPVGEN_OK) CHECK(check_words(w, count));
      spvgen_module_destroy(m);
      CHECK(spvgen_mlp_train_emit_kernel(NULL, &t, 0, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
      const uint64_t points = 4096, ws = spvgen_mlp_train_workspace_bytes(&t, points);
      CHECK(ws >= points * 2 * 3);
      uint32_t masks = 0;
      for (uint32_t k = 0; k < D; k++) {
        spvgen_mlp_train_dispatch dp;
        st = spvgen_mlp_train_dispatch_for(&t, k, points, &dp, msg, sizeof msg);
        CHECK_MSG(st == SPVGEN_OK, "%s dispatch %u: %s", t.name, k, msg);
        if (st != SPVGEN_OK) continue;
        CHECK(dp.kernel < K);
        CHECK_EQ_U64(dp.binding_count, bindings[dp.kernel]);
        for (uint32_t b = 0; b < dp.binding_count; b++) {
          if (dp.bindings[b].buffer == SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE) CHECK(dp.bindings[b].offset < ws);
          if (dp.bindings[b].buffer == SPVGEN_MLP_TRAIN_BUFFER_GRADIENTS) {
            bool at = false;
            for (uint32_t l = 0; l < t.net.layer_count; l++)
              at |= dp.bindings[b].offset == 2 * t.net.layers[l].matrix_offset ||
                    dp.bindings[b].offset == 2 * t.net.layers[l].bias_offset;
            CHECK_MSG(at, "%s dispatch %u: gradient at byte %llu", t.name, k,
                      (unsigned long long)dp.bindings[b].offset);
          }
        }
        masks += dp.binding_count == 2 && dp.bindings[0].buffer == SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE &&
                 dp.bindings[1].buffer == SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE;
      }
      /* the derivative of every hidden activation but none; an activation kernel only
       * for those whose act' needs z (silu, leaky relu with a negative slope): the
       * others are the forward GEMM's epilogue */
      uint32_t elementwise = 0;
      for (uint32_t l = 0; l + 1 < t.net.layer_count; l++) {
        const spvgen_mlp_activation a = t.net.layers[l].activation;
        const bool keeps_z = a == SPVGEN_MLP_ACT_SILU || (a == SPVGEN_MLP_ACT_LEAKY_RELU && t.net.desc.leaky_slope < 0);
        elementwise += (a != SPVGEN_MLP_ACT_NONE) + keeps_z;
      }
      CHECK_EQ_U64(masks, elementwise);
      /* the forward GEMMs: the activation in the epilogue unless the layer keeps z; no
       * bias with no_bias, and no bias-gradient GEMMs */
      for (uint32_t l = 0; l < t.net.layer_count; l++) {
        const spvgen_gemm_desc *g = &t.layers_gemms[t.layers_fwd[l]].desc;
        const spvgen_mlp_activation a = t.net.layers[l].activation;
        const bool hidden = l + 1 < t.net.layer_count;
        const bool keeps_z = a == SPVGEN_MLP_ACT_SILU || (a == SPVGEN_MLP_ACT_LEAKY_RELU && t.net.desc.leaky_slope < 0);
        const bool in_gemm = a == SPVGEN_MLP_ACT_NONE || a == SPVGEN_MLP_ACT_RELU || (hidden && !keeps_z);
        CHECK_MSG(g->activation == (in_gemm ? a : SPVGEN_ACTIVATION_NONE), "%s layer %u: forward GEMM %s", t.name, l,
                  spvgen_activation_name(g->activation));
        CHECK(g->bias == (t.net.desc.no_bias ? SPVGEN_GEMM_BIAS_NONE : SPVGEN_GEMM_BIAS_COLUMN));
      }
      uint32_t grad_gemms = 0;
      for (uint32_t k = 0; k < D; k++) {
        spvgen_mlp_train_dispatch dp;
        if (spvgen_mlp_train_dispatch_for(&t, k, points, &dp, NULL, 0) == SPVGEN_OK &&
            dp.bindings[0].buffer == SPVGEN_MLP_TRAIN_BUFFER_GRADIENTS)
          grad_gemms++;
      }
      CHECK_EQ_U64(grad_gemms, t.net.layer_count * (t.net.desc.no_bias ? 1u : 2u));
      spvgen_mlp_train_dispatch dp;
      CHECK(spvgen_mlp_train_dispatch_for(&t, D, points, &dp, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
      CHECK_MSG(strstr(msg, "dispatch") != NULL, "%s", msg);
    }
  }
  /* the other variants: one gradient kernel, one dispatch of the five buffers */
  spvgen_mlp_train_desc d = case_at(0).d;
  d.net.variant = SPVGEN_MLP_LOOP;
  spvgen_mlp_train_config t;
  CHECK(spvgen_mlp_train_plan(&d, NULL, &t, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(spvgen_mlp_train_kernel_count(&t), 1);
  CHECK_EQ_U64(spvgen_mlp_train_dispatch_count(&t), 1);
  CHECK_EQ_U64(spvgen_mlp_train_workspace_bytes(&t, 100), 0);
  spvgen_mlp_train_dispatch dp;
  CHECK(spvgen_mlp_train_dispatch_for(&t, 0, 100, &dp, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(dp.binding_count, 5);
  CHECK_EQ_U64(dp.groups[0], t.grad_workgroups);
}

/* Training's GEMMs whose K is a layer width are classes of one K ("K=") where the plan's
 * SPVGEN_MLP_TRAIN_LAYERS_MAX_GEMMS kernels hold them; a network that needs more takes
 * classes of any K, which share kernels across input widths (16-64,64,128,96,32,32,128-8 on
 * the h100 preset: refused without that second try). */
static void test_layers_train_classes_of_one_k_where_they_fit(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_train_config t;
  char msg[512];
  spvgen_mlp_train_desc d = tdesc(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE);
  CHECK_MSG(spvgen_mlp_train_plan(&d, &caps, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  uint32_t one_k = 0;
  for (uint32_t i = 0; i < t.layers_gemm_count; i++) one_k += strstr(t.layers_gemms[i].name, "K=") != NULL;
  CHECK_MSG(one_k > 0, "64-256x3-64: no class of one K among %u", t.layers_gemm_count);
  d = tdesc(16, 64, 7, 8, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE);
  static const uint32_t widths[7] = {64, 64, 128, 96, 32, 32, 128};
  for (int i = 0; i < 7; i++) d.net.hidden_widths[i] = widths[i];
  CHECK_MSG(spvgen_mlp_train_plan(&d, &caps, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  for (uint32_t i = 0; i < t.layers_gemm_count; i++)
    CHECK_MSG(strstr(t.layers_gemms[i].name, "K=") == NULL, "%s: a class of one K in a plan of classes of any K",
              t.layers_gemms[i].name);
}

/* What the layers step does not do yet, and its knobs that do not apply, each refused
 * naming the reason. */
static void test_layers_train_refusals(void) {
  struct {
    const char *want;
    int what;
  } cases[] = {
      {"gelu", 0},
      {"layer_activations[3] is set", 1},
      {"grad_workgroups 4", 2},
      {"device-address", 3},
      {"encoding freq", 4},
      {"input_type f32", 5},
      {"grad_workgroup_size", 7},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_mlp_train_desc d = case_at(0).d;
    switch (cases[i].what) {
    case 0: d.net.activation = SPVGEN_ACTIVATION_GELU; break;
    case 1: d.net.layer_activations[3] = SPVGEN_MLP_ACT_SIGMOID; break;
    case 2: d.grad_workgroups = 4; break;
    case 3: d.net.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS; break;
    case 4:
      d.net.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
      d.net.encoding_size = 2;
      break;
    case 5: d.net.input_type = SPVGEN_COMPONENT_F32; break;
    default: d.grad_workgroup_size = 64; break;
    }
    spvgen_mlp_train_config t;
    char msg[512] = "";
    spvgen_status st = spvgen_mlp_train_plan(&d, NULL, &t, msg, sizeof msg);
    CHECK_MSG(st != SPVGEN_OK, "case %zu planned", i);
    CHECK_MSG(strstr(msg, cases[i].want) != NULL, "want \"%s\": %s", cases[i].want, msg);
  }
}

/* One run of case i (drop: 1 + a dispatch to leave out; 0 none). */
static bool run_case(spvgen_vk_context *ctx, int i, uint32_t drop, mlp_train_run_result *r) {
  lt_case c = case_at(i);
  mlp_train_run_options o;
  memset(&o, 0, sizeof o);
  o.seed = test_rand_u32() | 1u;
  o.points = c.points;
  o.steps = 2;
  o.lr = c.d.optimizer == SPVGEN_MLP_OPTIMIZER_SGD ? 0.05f : 0.01f;
  o.drop_dispatch = drop;
  char msg[512];
  spvgen_status st = mlp_train_run(ctx, &c.d, &o, r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "case %d: %s", i, msg);
  return st == SPVGEN_OK;
}

static void test_layers_training_matches_cpu(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  for (int i = 0; i < CASES; i++) {
    mlp_train_run_result r;
    if (!run_case(ctx, i, 0, &r)) continue;
    CHECK(r.plan.net.variant == SPVGEN_MLP_LAYERS);
    CHECK_EQ_U64(r.grad.checked, r.plan.params * 2);
    CHECK_MSG(r.grad.bad == 0, "%s: %llu of %llu gradients wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
              r.plan.name, (unsigned long long)r.grad.bad, (unsigned long long)r.grad.checked,
              (unsigned long long)r.grad.first_bad, r.grad.first_gpu, r.grad.first_ref, r.grad.first_tol);
    CHECK_MSG(r.opt.bad == 0, "%s: %llu of %llu optimizer values wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
              r.plan.name, (unsigned long long)r.opt.bad, (unsigned long long)r.opt.checked,
              (unsigned long long)r.opt.first_bad, r.opt.first_gpu, r.opt.first_ref, r.opt.first_tol);
    CHECK_MSG(r.loss_bad == 0, "%s: loss gpu %.8g cpu %.8g (step 1)", r.plan.name, r.loss_gpu[0], r.loss_ref[0]);
    CHECK(r.loss_gpu[0] > 0);
    fprintf(stderr, "  %-64s %llu grads x 2 steps, worst err/tol %.3f; optimizer worst %.3f; loss %.5g -> %.5g\n",
            r.plan.name, (unsigned long long)r.plan.params, r.grad.worst_ratio, r.opt.worst_ratio, r.loss_gpu[0],
            r.loss_gpu[1]);
  }
  spvgen_vk_destroy(ctx);
}

/* Point counts around the workspace's rows (1, 257: a row past a multiple of 256, and
 * 512). The plan: the first layer's forward runs on the points, every other forward and
 * the deltas' GEMMs on the points rounded up to 256 rows, and the gradient GEMMs sum K =
 * the points. On the device, every gradient, optimizer value and loss of two steps
 * against float64, on a relu network and a silu one (z kept) of three hidden layers; the
 * runner NaN-fills the workspace, so a row past the points summed into a gradient fails:
 * giving the weight-gradient GEMMs K = the rounded rows fails this test (NaN gradients). */
static void test_layers_train_point_counts(void) {
  static const uint64_t counts[3] = {1, 257, 512}, rows[3] = {256, 512, 512};
  spvgen_mlp_train_desc nets[2] = {tdesc(16, 32, 3, 8, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE),
                                   tdesc(12, 40, 3, 5, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_TANH)};
  spvgen_device_caps caps = preset("h100");
  for (int i = 0; i < 2; i++) {
    spvgen_mlp_train_config t;
    char msg[512];
    CHECK_MSG(spvgen_mlp_train_plan(&nets[i], &caps, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    for (int c = 0; c < 3; c++) {
      uint32_t fwd = 0, deltas = 0, grads = 0;
      for (uint32_t k = 0; k < spvgen_mlp_train_dispatch_count(&t); k++) {
        spvgen_mlp_train_dispatch dp;
        if (spvgen_mlp_train_dispatch_for(&t, k, counts[c], &dp, msg, sizeof msg) != SPVGEN_OK) continue;
        spvgen_gemm_push push;
        if (dp.push_size != sizeof push) continue; /* the step's own kernels */
        memcpy(&push, dp.push, sizeof push);
        if (dp.bindings[1].buffer == SPVGEN_MLP_TRAIN_BUFFER_WEIGHTS) { /* forward or deltas: points in M */
          const bool first = dp.bindings[0].buffer == SPVGEN_MLP_TRAIN_BUFFER_INPUT;
          CHECK_EQ_U64(push.m, first ? counts[c] : rows[c]);
          fwd += first;
          deltas += !first;
        } else if (dp.bindings[2].buffer == SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE && push.n) { /* a gradient's partials */
          CHECK_EQ_U64(push.k, counts[c]);
          grads++;
        }
      }
      CHECK_EQ_U64(fwd, 1);
      CHECK_EQ_U64(deltas, 2 * t.net.layer_count - 2);
      CHECK_EQ_U64(grads, 2 * t.net.layer_count);
    }
  }
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  for (int i = 0; i < 2; i++)
    for (int c = 0; c < 3; c++) {
      mlp_train_run_options o;
      memset(&o, 0, sizeof o);
      o.seed = test_rand_u32() | 1u;
      o.points = counts[c];
      o.steps = 2;
      o.lr = 0.01f;
      mlp_train_run_result r;
      char msg[512];
      spvgen_status st = mlp_train_run(ctx, &nets[i], &o, &r, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "net %d, %llu points: %s", i, (unsigned long long)o.points, msg);
      if (st != SPVGEN_OK) continue;
      CHECK_EQ_U64(r.grad.checked, r.plan.params * 2);
      CHECK_MSG(r.grad.bad == 0 && r.opt.bad == 0 && r.loss_bad == 0,
                "%s, %llu points: %llu gradients, %llu optimizer values, %u losses wrong; first gradient %llu: gpu "
                "%.8g cpu %.8g tol %.3g",
                r.plan.name, (unsigned long long)o.points, (unsigned long long)r.grad.bad,
                (unsigned long long)r.opt.bad, (unsigned)r.loss_bad, (unsigned long long)r.grad.first_bad,
                r.grad.first_gpu, r.grad.first_ref, r.grad.first_tol);
      fprintf(stderr, "  %-60s %4llu points: worst gradient err/tol %.3f, optimizer %.3f\n", r.plan.name,
              (unsigned long long)o.points, r.grad.worst_ratio, r.opt.worst_ratio);
    }
  spvgen_vk_destroy(ctx);
}

/* The check catches a step that leaves out the relu mask of a hidden layer, or a layer's
 * bias gradient (its reduction: the gradients there keep the NaN the run fills them
 * with). */
static void test_layers_check_fails_without_mask_or_bias(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  lt_case c = case_at(0);
  spvgen_mlp_train_config t;
  char msg[512];
  CHECK_MSG(spvgen_mlp_train_plan(&c.d, spvgen_vk_caps(ctx), &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  uint32_t mask = 0, bias = 0;
  for (uint32_t k = 0; k < spvgen_mlp_train_dispatch_count(&t); k++) {
    spvgen_mlp_train_dispatch dp;
    if (spvgen_mlp_train_dispatch_for(&t, k, c.points, &dp, msg, sizeof msg) != SPVGEN_OK) continue;
    if (!mask && dp.binding_count == 2 && dp.bindings[0].buffer == SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE &&
        dp.bindings[1].buffer == SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE)
      mask = k + 1;
    if (!bias && dp.bindings[0].buffer == SPVGEN_MLP_TRAIN_BUFFER_GRADIENTS &&
        dp.bindings[0].offset == 2 * t.net.layers[1].bias_offset)
      bias = k + 1;
  }
  CHECK(mask && bias);
  uint32_t drops[2] = {mask, bias};
  for (int j = 0; j < 2; j++) {
    mlp_train_run_result r;
    if (!drops[j] || !run_case(ctx, 0, drops[j], &r)) continue;
    CHECK_MSG(r.grad.bad > 0, "%s without dispatch %u: every gradient passed", r.plan.name, drops[j] - 1);
    fprintf(stderr, "  without the %s: %llu of %llu gradients wrong\n", j ? "bias gradient" : "relu mask",
            (unsigned long long)r.grad.bad, (unsigned long long)r.grad.checked);
  }
  spvgen_vk_destroy(ctx);
}

/* The check catches a step that leaves out a hidden layer's activation kernel (silu: the
 * GEMM left z there, and the next layer reads z for a) or the derivative of an activation
 * other than relu (silu, sigmoid and tanh networks: the elementwise dispatches are the
 * ones that bind two workspace ranges, silu's activations in the forward pass, then the
 * derivatives from the last hidden layer: the first of those is dropped, whose deltas
 * the reference bounds most tightly). Sigmoid and tanh are their GEMM's epilogue: no
 * activation kernel. */
static void test_layers_check_fails_without_act_or_deriv(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const int cases[3] = {3, 4, 5};
  for (int ci = 0; ci < 3; ci++) {
    lt_case c = case_at(cases[ci]);
    spvgen_mlp_train_config t;
    char msg[512];
    CHECK_MSG(spvgen_mlp_train_plan(&c.d, spvgen_vk_caps(ctx), &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    uint32_t found[2 * SPVGEN_MLP_MAX_LAYERS], n = 0;
    for (uint32_t k = 0; k < spvgen_mlp_train_dispatch_count(&t); k++) {
      spvgen_mlp_train_dispatch dp;
      if (spvgen_mlp_train_dispatch_for(&t, k, c.points, &dp, msg, sizeof msg) != SPVGEN_OK) continue;
      if (dp.binding_count == 2 && dp.bindings[0].buffer == SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE &&
          dp.bindings[1].buffer == SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE && n < 2 * SPVGEN_MLP_MAX_LAYERS)
        found[n++] = k + 1;
    }
    const uint32_t acts = c.d.net.activation == SPVGEN_MLP_ACT_SILU ? t.net.layer_count - 1 : 0;
    CHECK_EQ_U64(n, t.net.layer_count - 1 + acts);
    if (n < 1) continue;
    uint32_t drops[2] = {acts ? found[0] : 0, found[acts]};
    for (int j = 0; j < 2; j++) {
      mlp_train_run_result r;
      if (!drops[j] || !run_case(ctx, cases[ci], drops[j], &r)) continue;
      CHECK_MSG(r.grad.bad > 0, "%s without dispatch %u: every gradient passed", r.plan.name, drops[j] - 1);
      fprintf(stderr, "  %s without the %s: %llu of %llu gradients wrong\n", r.plan.name,
              j ? "derivative" : "activation", (unsigned long long)r.grad.bad, (unsigned long long)r.grad.checked);
    }
  }
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_layers_train_kernels_validate),
      TEST_CASE(test_layers_train_classes_of_one_k_where_they_fit),
      TEST_CASE(test_layers_train_refusals),
      TEST_CASE(test_layers_training_matches_cpu),
      TEST_CASE(test_layers_train_point_counts),
      TEST_CASE(test_layers_check_fails_without_mask_or_bias),
      TEST_CASE(test_layers_check_fails_without_act_or_deriv),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
