/* tests/mlp/test_mlp_train.c — MLP training (spvgen/mlp.h, "training"):
 *   - every training plan of a set of networks (both kernels) validates for the h100,
 *     vulkan13 and lavapipe presets;
 *   - on the CI device (lavapipe, the loop variant), random networks (every activation,
 *     both encodings, f16 and f32 points, bias on and off, L2 and relative L2, Adam and
 *     SGD, batches that do and do not fill the last chunk) train for a few steps: every
 *     weight and bias gradient, the loss and every optimizer update checked against the
 *     float64 reference of lib/ref/ref_mlp_train.c with its stated tolerances;
 *   - the gradient check fails on a gradient off by a few tolerances;
 *   - bad descs are refused naming the field. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_train_run.h"
#include "module_check.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

typedef struct net_case {
  uint32_t in, hidden, count, out;
  spvgen_mlp_activation act, out_act;
  spvgen_mlp_encoding enc;
  uint32_t enc_size;
  bool f32_io, no_bias;
  spvgen_mlp_loss loss;
  spvgen_mlp_optimizer opt;
  uint32_t points;
} net_case;

static const net_case cases[] = {
    {2, 32, 2, 3, SPVGEN_MLP_ACT_RELU, 0, SPVGEN_MLP_ENCODING_FREQUENCY, 4, true, false, SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 700},
    {3, 17, 1, 1, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_SIGMOID, 0, 0, true, false, SPVGEN_MLP_LOSS_RELATIVE_L2, SPVGEN_MLP_OPTIMIZER_SGD, 300},
    {5, 7, 4, 9, SPVGEN_MLP_ACT_SILU, 0, 0, 0, false, true, SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 257},
    {2, 16, 2, 4, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ENCODING_ONE_BLOB, 8, false, false, SPVGEN_MLP_LOSS_RELATIVE_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 1000},
    {4, 24, 3, 2, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_EXP, 0, 0, true, false, SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_SGD, 128},
    {6, 0, 0, 5, 0, SPVGEN_MLP_ACT_NONE, 0, 0, true, false, SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 64},
    /* the hash grid (enc_size: which of hash_grids below) */
    {3, 16, 2, 3, SPVGEN_MLP_ACT_RELU, 0, SPVGEN_MLP_ENCODING_HASH_GRID, 0, true, false, SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 300},
    {2, 16, 1, 2, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ENCODING_HASH_GRID, 1, false, false, SPVGEN_MLP_LOSS_RELATIVE_L2, SPVGEN_MLP_OPTIMIZER_SGD, 200},
};

enum { NC_GRID_3D = 6 }; /* the 3-D hash grid case above */

/* 3-D: 5 levels of 2 features, dense and hashed; 2-D: 4 features per level, a 2^6 table
 * (every level past the first hashed) */
static const spvgen_mlp_hash_grid hash_grids[] = {{5, 2, 9, 4, 1.6f}, {3, 4, 6, 4, 2.0f}};

static spvgen_mlp_train_desc make_desc(const net_case *c) {
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  d.net.input_width = c->in;
  d.net.output_width = c->out;
  d.net.hidden_width = c->hidden;
  d.net.hidden_count = c->count;
  d.net.activation = c->act;
  d.net.output_activation = c->out_act;
  d.net.encoding = c->enc;
  d.net.encoding_size = c->enc == SPVGEN_MLP_ENCODING_HASH_GRID ? 0 : c->enc_size;
  if (c->enc == SPVGEN_MLP_ENCODING_HASH_GRID) d.net.grid = hash_grids[c->enc_size];
  d.net.no_bias = c->no_bias;
  if (c->f32_io) d.net.input_type = d.net.output_type = SPVGEN_COMPONENT_F32;
  d.loss = c->loss;
  d.optimizer = c->opt;
  /* 8, 13 and 3 slots: the optimizer sums them 8 loads at a time, then the rest */
  static const uint32_t slots[3] = {8, 13, 3};
  d.grad_workgroups = slots[(size_t)(c - cases) % 3];
  return d;
}

static void test_train_plans_validate(void) {
  static const char *const presets[] = {"h100", "vulkan13", "lavapipe"};
  for (size_t pi = 0; pi < 3; pi++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[pi], &caps) == SPVGEN_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      spvgen_mlp_train_desc d = make_desc(&cases[i]);
      d.grad_workgroups = 0;
      spvgen_mlp_train_config plans[8];
      uint32_t n = 0;
      char msg[512];
      spvgen_status st = spvgen_mlp_train_plans(&d, &caps, plans, 8, &n, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK && n > 0, "%s case %zu: %s", presets[pi], i, msg);
      /* the list starts with the plan AUTO gives: mat where the device has cooperative
       * matrices and mat plans the network, else loop */
      spvgen_mlp_train_config one;
      CHECK(spvgen_mlp_train_plan(&d, &caps, &one, msg, sizeof msg) == SPVGEN_OK);
      if (n > 0) CHECK_STR_EQ(plans[0].name, one.name);
      if (pi == 2) CHECK_MSG(one.net.variant == SPVGEN_MLP_LOOP, "lavapipe: %s", one.name);
      for (uint32_t k = 0; k < n && k < 8; k++)
        for (int which = 0; which < 2; which++) {
          spvgen_module *m = spvgen_module_create(NULL);
          spvgen_kernel_info info;
          st = spvgen_mlp_train_emit(m, &plans[k], (spvgen_mlp_train_kernel)which, &info);
          CHECK_MSG(st == SPVGEN_OK, "%s %s: %s", presets[pi], plans[k].name, spvgen_module_error(m));
          CHECK(check_module(m, NULL) != NULL);
          CHECK(plans[k].grad_shared_bytes <= caps.max_shared_memory);
          CHECK_EQ_U64(info.binding_count, which ? 4u : 5u);
          spvgen_module_destroy(m);
        }
    }
  }
  /* the mat variant's gradient kernels, for the h100 preset (every case, and its chunk
   * and subgroup knobs) */
  spvgen_device_caps h100;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int knob = 0; knob < 3; knob++) {
      spvgen_mlp_train_desc d = make_desc(&cases[i]);
      d.net.variant = SPVGEN_MLP_MAT;
      if (knob == 1) d.net.points_per_group = 16;
      if (knob == 2) d.grad_workgroup_size = 64;
      spvgen_mlp_train_config t;
      char msg[512];
      spvgen_status st = spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "mat case %zu knob %d: %s", i, knob, msg);
      if (st != SPVGEN_OK) continue;
      CHECK(t.grad_shared_bytes <= h100.max_shared_memory);
      CHECK(t.features & SPVGEN_FEATURE_COOPMAT);
      CHECK_EQ_U64(t.grad_push_constant_size, 4u);
      if (knob == 1) CHECK_EQ_U64(t.net.desc.points_per_group, 16u);
      if (knob == 2) CHECK_EQ_U64(t.grad_local_size[0], 64u);
      spvgen_module *m = spvgen_module_create(NULL);
      spvgen_kernel_info info;
      st = spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_GRADIENT, &info);
      CHECK_MSG(st == SPVGEN_OK, "%s: %s", t.name, spvgen_module_error(m));
      size_t count = 0;
      const uint32_t *words = check_module(m, &count);
      CHECK_MSG(words != NULL, "%s", t.name);
      char *text = words ? check_disassemble(words, count) : NULL;
      if (text) CHECK_CONTAINS(text, "OpCooperativeMatrixMulAddKHR");
      spvgen_free_text(text);
      CHECK_EQ_U64(info.binding_count, 5u);
      CHECK_EQ_U64(info.groups[0], t.grad_workgroups);
      spvgen_module_destroy(m);
    }
  /* the one-shot */
  spvgen_mlp_train_desc d = make_desc(&cases[0]);
  spvgen_kernel k;
  char msg[512];
  CHECK_MSG(spvgen_mlp_train(&d, NULL, SPVGEN_MLP_TRAIN_OPTIMIZER, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(check_words(k.words, k.word_count));
  CHECK_EQ_U64(k.info.push_constant_size, 8u);
  spvgen_kernel_free(&k);
}

/* The GPU test's three grid networks (tests/gpu/test_gpu_mlp_train.c) plan and validate
 * on every variant for the h100 preset: the inference choice's knobs (e.g. mat blocks of
 * 256 invocations for 16-128x3-3) must leave a training chunk room in shared memory. */
static void test_grid_networks_train_plans_on_every_variant(void) {
  spvgen_device_caps h100;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  static const uint32_t nets[3][4] = {{3, 48, 2, 1}, {32, 64, 4, 16}, {16, 128, 3, 3}};
  static const spvgen_mlp_activation acts[3] = {SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_SILU};
  for (int n = 0; n < 3; n++)
    for (int v = SPVGEN_MLP_VEC; v <= SPVGEN_MLP_LOOP; v++) {
      spvgen_mlp_train_desc d;
      memset(&d, 0, sizeof d);
      d.net.input_width = nets[n][0];
      d.net.hidden_width = nets[n][1];
      d.net.hidden_count = nets[n][2];
      d.net.output_width = nets[n][3];
      d.net.activation = acts[n];
      d.net.variant = (spvgen_mlp_variant)v;
      d.grad_workgroups = 128;
      spvgen_mlp_train_config t;
      char msg[512];
      spvgen_status st = spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%u-%ux%u-%u %s: %s", nets[n][0], nets[n][1], nets[n][2], nets[n][3],
                spvgen_mlp_variant_name((spvgen_mlp_variant)v), msg);
      if (st != SPVGEN_OK) continue;
      CHECK(t.grad_shared_bytes <= h100.max_shared_memory);
      spvgen_module *m = spvgen_module_create(NULL);
      spvgen_kernel_info info;
      st = spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_GRADIENT, &info);
      CHECK_MSG(st == SPVGEN_OK, "%s: %s", t.name, spvgen_module_error(m));
      size_t count = 0;
      CHECK_MSG(check_module(m, &count) != NULL, "%s", t.name);
      spvgen_module_destroy(m);
    }
}

/* Lines of text holding both a and the ending tail. */
static uint32_t count_lines_with(const char *text, const char *a, const char *tail) {
  uint32_t n = 0;
  for (const char *l = text; l && *l;) {
    const char *e = strchr(l, '\n');
    size_t len = e ? (size_t)(e - l) : strlen(l), tl = strlen(tail);
    char line[512];
    if (len < sizeof line) {
      memcpy(line, l, len);
      line[len] = 0;
      if (strstr(line, a) && len >= tl && !strcmp(line + len - tl, tail)) n++;
    }
    l = e ? e + 1 : NULL;
  }
  return n;
}

/* A training desc of a network (variant AUTO, every other field 0). */
static spvgen_mlp_train_desc net_desc(uint32_t in, uint32_t width, uint32_t count, uint32_t out,
                                      spvgen_mlp_activation act) {
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  d.net.input_width = in;
  d.net.hidden_width = width;
  d.net.hidden_count = count;
  d.net.output_width = out;
  d.net.activation = act;
  return d;
}

/* vec training's silu and sigmoid take the forward pass's f16 form on Tanh, the derivative
 * too (silu'(z) = s (1 + z (1 - s)), s on Tanh): no Exp and no division on the vectors of
 * a 16-64x2-3 silu (and sigmoid) gradient kernel with an L2 loss. */
static void test_vec_training_silu_on_tanh(void) {
  spvgen_device_caps h100;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  for (int a = 0; a < 2; a++) {
    spvgen_mlp_train_desc d = net_desc(16, 64, 2, 3, a ? SPVGEN_MLP_ACT_SIGMOID : SPVGEN_MLP_ACT_SILU);
    d.net.variant = SPVGEN_MLP_VEC;
    d.loss = SPVGEN_MLP_LOSS_L2;
    d.grad_workgroups = 128;
    spvgen_mlp_train_config t;
    char msg[512];
    spvgen_status st = spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) continue;
    spvgen_module *m = spvgen_module_create(NULL);
    st = spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_GRADIENT, NULL);
    CHECK_MSG(st == SPVGEN_OK, "%s: %s", t.name, spvgen_module_error(m));
    size_t count = 0;
    const uint32_t *words = check_module(m, &count);
    char *text = words ? check_disassemble(words, count) : NULL;
    CHECK_MSG(text != NULL, "%s", t.name);
    if (text) {
      /* the forward pass's two hidden activations; silu's derivative at both (sigmoid's
       * derivative is y (1 - y), from the forward's output) */
      CHECK_EQ_U64(count_lines_with(text, " Tanh ", ""), a ? 2u : 4u);
      CHECK_EQ_U64(count_lines_with(text, " Exp ", ""), 0u);
      /* one scalar division: the loss's mean scale, 1 / (points x outputs) */
      CHECK_EQ_U64(count_lines_with(text, "OpFDiv", ""), 1u);
    }
    spvgen_free_text(text);
    spvgen_module_destroy(m);
  }
}


/* The wide networks' mat training plans for the h100 preset (49,152 bytes of shared
 * memory): act'(z) in registers and one bias row per layer (loaded with a stride of 0)
 * give 16-128x3-3 SiLU chunks of 32 points (it had 16) and width 256 a plan at all. The
 * shared memory of each, in bytes:
 *   16-128x3-3 silu, p32 held, 8 subgroups: 36,384 = activations and deltas 29,184
 *     (blocks of 24, 136 x 3, 24 halves per point) + f32 z 2,048 + bias rows 800 + the
 *     staged last layer 4,352 (with 16 bias rows, their stride padded: 49,408; with the
 *     act'(z) blocks too: 75,520);
 *   64-256x3-64 relu and silu, p16 slot adds, 8 subgroups: 43,904 = 29,952 + f32 z and
 *     the 8 tiles 12,288 + bias rows 1,664 (16 rows: 69,888).
 * Each gradient kernel validates and loads its biases with a stride of 0 (one load per
 * owned output fragment and layer); a chunk of 64 points of 16-128x3-3 is refused with
 * the breakdown. */
static void test_mat_wide_networks_plan_larger_chunks_for_h100(void) {
  spvgen_device_caps h100;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  static const struct {
    uint32_t in, width, count, out;
    spvgen_mlp_activation act;
    uint32_t ppg, size, shared, stride0_loads;
    bool held;
  } nets[] = {{16, 128, 3, 3, SPVGEN_MLP_ACT_SILU, 32, 256, 36384, 4, true},
              {64, 256, 3, 64, SPVGEN_MLP_ACT_RELU, 16, 256, 43904, 2 + 2 + 2 + 1, false},
              {64, 256, 3, 64, SPVGEN_MLP_ACT_SILU, 16, 256, 43904, 7, false}};
  for (size_t n = 0; n < sizeof nets / sizeof nets[0]; n++) {
    spvgen_mlp_train_desc d;
    memset(&d, 0, sizeof d);
    d.net.input_width = nets[n].in;
    d.net.hidden_width = nets[n].width;
    d.net.hidden_count = nets[n].count;
    d.net.output_width = nets[n].out;
    d.net.activation = nets[n].act;
    d.net.variant = SPVGEN_MLP_MAT;
    spvgen_mlp_train_config t;
    char msg[1024];
    spvgen_status st = spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "net %zu: %s", n, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_EQ_U64(t.net.desc.points_per_group, nets[n].ppg);
    CHECK_EQ_U64(t.grad_local_size[0], nets[n].size);
    CHECK_EQ_U64(t.grad_shared_bytes, nets[n].shared);
    CHECK_MSG(t.grad_held == nets[n].held, "[%s] held %d", t.name, (int)t.grad_held);
    spvgen_module *m = spvgen_module_create(NULL);
    st = spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_GRADIENT, NULL);
    CHECK_MSG(st == SPVGEN_OK, "%s: %s", t.name, spvgen_module_error(m));
    size_t count = 0;
    const uint32_t *words = check_module(m, &count);
    CHECK_MSG(words != NULL, "%s", t.name);
    char *text = words ? check_disassemble(words, count) : NULL;
    /* layout RowMajorKHR (0), stride 0 */
    if (text)
      CHECK_EQ_U64(count_lines_with(text, "OpCooperativeMatrixLoadKHR", " %uint_0 %uint_0"), nets[n].stride0_loads);
    spvgen_free_text(text);
    spvgen_module_destroy(m);
  }
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  d.net.input_width = 16;
  d.net.hidden_width = 128;
  d.net.hidden_count = 3;
  d.net.output_width = 3;
  d.net.activation = SPVGEN_MLP_ACT_SILU;
  d.net.variant = SPVGEN_MLP_MAT;
  d.net.points_per_group = 64;
  spvgen_mlp_train_config t;
  char msg[1024];
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "a chunk of 64 points with 8 subgroups needs");
  CHECK_CONTAINS(msg, "act'(z) blocks 52224 (12 fragments per subgroup, over 8 for registers)");
  CHECK_CONTAINS(msg, "one bias row per layer 800, staged weights 4352");
}

/* The mat gradient kernel's two levers (spvgen_mlp_grad_bias, spvgen_mlp_grad_act_deriv)
 * on the h100 preset: the plan takes each only where it buys a larger chunk, else the
 * staged form (16 bias rows with a padded stride, act'(z) in z blocks: the module the
 * kernel had before the levers). Per network and
 * asked-for forms: the chunk, the held form, the shared memory, the resolved forms, the
 * act'(z) fragments in registers, the name's tokens and the module's stride-0 loads.
 *   3-48x2-1 sigmoid, 32-64x4-16 relu: no act'(z) to keep; the bias row would free
 *     4,128 / 9,440 bytes but no larger chunk (p64 is the largest tried; 32-64x4-16 at
 *     p64 needs 49,696 even with it): rows;
 *   16-64x2-3 silu: p64 only with act'(z) in registers (8 fragments per subgroup; the bias
 *     row alone: p32), which the plan takes with the bias row;
 *   16-128x3-3 silu: p32 only with both (16 rows and registers: 49,408 bytes at p32);
 *   64-256x3-64 relu: no chunk at all without the bias row (16 rows: 69,888 at p16).
 * Refused: 16 rows asked for on 64-256x3-64 (the breakdown names them), registers asked
 * for past 8 fragments, a form on the loop variant, values out of range. */
static void test_mat_grad_forms_levers_only_where_they_buy_the_chunk(void) {
  spvgen_device_caps h100;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  enum { AUTO_ = 0, ROWS = SPVGEN_MLP_GRAD_BIAS_ROWS, ROW = SPVGEN_MLP_GRAD_BIAS_ROW };
  enum { SH = SPVGEN_MLP_GRAD_ACT_DERIV_SHARED, REG = SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS };
  static const struct {
    uint32_t in, width, count, out;
    spvgen_mlp_activation act;
    uint32_t bias, act_deriv;             /* asked for */
    uint32_t ppg, shared, frags, stride0; /* planned */
    bool held;
    uint32_t r_bias, r_act_deriv; /* resolved */
  } forms[] = {
      {3, 48, 2, 1, SPVGEN_MLP_ACT_SIGMOID, AUTO_, AUTO_, 64, 33024, 0, 0, true, ROWS, SH},
      {3, 48, 2, 1, SPVGEN_MLP_ACT_SIGMOID, ROW, AUTO_, 64, 28896, 0, 3, true, ROW, SH},
      {32, 64, 4, 16, SPVGEN_MLP_ACT_RELU, AUTO_, AUTO_, 32, 34560, 0, 0, true, ROWS, SH},
      {32, 64, 4, 16, SPVGEN_MLP_ACT_RELU, ROW, REG, 32, 25120, 0, 5, true, ROW, REG},
      {16, 64, 2, 3, SPVGEN_MLP_ACT_SILU, AUTO_, AUTO_, 64, 31264, 8, 3, true, ROW, REG},
      {16, 64, 2, 3, SPVGEN_MLP_ACT_SILU, ROWS, SH, 32, 31232, 0, 0, true, ROWS, SH},
      {16, 64, 2, 3, SPVGEN_MLP_ACT_SILU, ROW, SH, 32, 26144, 0, 3, true, ROW, SH},
      {16, 64, 2, 3, SPVGEN_MLP_ACT_SILU, ROWS, AUTO_, 64, 36352, 8, 0, true, ROWS, REG},
      {16, 128, 3, 3, SPVGEN_MLP_ACT_SILU, AUTO_, AUTO_, 32, 36384, 6, 4, true, ROW, REG},
      {16, 128, 3, 3, SPVGEN_MLP_ACT_SILU, ROWS, SH, 16, 46848, 0, 0, true, ROWS, SH},
      {16, 128, 3, 3, SPVGEN_MLP_ACT_SILU, ROWS, REG, 16, 33792, 3, 0, true, ROWS, REG},
      {64, 256, 3, 64, SPVGEN_MLP_ACT_RELU, AUTO_, AUTO_, 16, 43904, 0, 7, false, ROW, SH},
  };
  for (size_t n = 0; n < sizeof forms / sizeof forms[0]; n++) {
    spvgen_mlp_train_desc d;
    memset(&d, 0, sizeof d);
    d.net.input_width = forms[n].in;
    d.net.hidden_width = forms[n].width;
    d.net.hidden_count = forms[n].count;
    d.net.output_width = forms[n].out;
    d.net.activation = forms[n].act;
    d.net.variant = SPVGEN_MLP_MAT;
    d.grad_bias = (spvgen_mlp_grad_bias)forms[n].bias;
    d.grad_act_deriv = (spvgen_mlp_grad_act_deriv)forms[n].act_deriv;
    spvgen_mlp_train_config t;
    char msg[1024];
    spvgen_status st = spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "case %zu: %s", n, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_MSG(t.net.desc.points_per_group == forms[n].ppg, "case %zu [%s]: expected p%u", n, t.name, forms[n].ppg);
    CHECK_MSG(t.grad_held == forms[n].held, "case %zu [%s] held %d", n, t.name, (int)t.grad_held);
    CHECK_MSG(t.grad_shared_bytes == forms[n].shared, "case %zu [%s]: %u bytes, expected %u", n, t.name,
              t.grad_shared_bytes, forms[n].shared);
    CHECK_MSG(t.desc.grad_bias == (spvgen_mlp_grad_bias)forms[n].r_bias, "case %zu [%s]: grad_bias %s", n, t.name,
              spvgen_mlp_grad_bias_name(t.desc.grad_bias));
    CHECK_MSG(t.desc.grad_act_deriv == (spvgen_mlp_grad_act_deriv)forms[n].r_act_deriv,
              "case %zu [%s]: grad_act_deriv %s", n, t.name, spvgen_mlp_grad_act_deriv_name(t.desc.grad_act_deriv));
    CHECK_EQ_U64(t.grad_act_deriv_frags, forms[n].frags);
    CHECK_MSG((strstr(t.name, " bias-row") != NULL) == (forms[n].r_bias == ROW), "case %zu [%s]", n, t.name);
    CHECK_MSG((strstr(t.name, " act-regs") != NULL) == (forms[n].frags > 0), "case %zu [%s]", n, t.name);
    spvgen_module *m = spvgen_module_create(NULL);
    st = spvgen_mlp_train_emit(m, &t, SPVGEN_MLP_TRAIN_GRADIENT, NULL);
    CHECK_MSG(st == SPVGEN_OK, "%s: %s", t.name, spvgen_module_error(m));
    size_t count = 0;
    const uint32_t *words = check_module(m, &count);
    CHECK_MSG(words != NULL, "%s", t.name);
    char *text = words ? check_disassemble(words, count) : NULL;
    /* layout RowMajorKHR (0), stride 0: the bias row's loads, one per owned output
     * fragment and layer */
    if (text)
      CHECK_MSG(count_lines_with(text, "OpCooperativeMatrixLoadKHR", " %uint_0 %uint_0") == forms[n].stride0,
                "case %zu [%s]: expected %u stride-0 loads", n, t.name, forms[n].stride0);
    spvgen_free_text(text);
    spvgen_module_destroy(m);
  }
  /* refusals */
  spvgen_mlp_train_desc d;
  memset(&d, 0, sizeof d);
  d.net.input_width = 64;
  d.net.hidden_width = 256;
  d.net.hidden_count = 3;
  d.net.output_width = 64;
  d.net.variant = SPVGEN_MLP_MAT;
  d.grad_bias = SPVGEN_MLP_GRAD_BIAS_ROWS;
  spvgen_mlp_train_config t;
  char msg[1024];
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "a chunk of 16 points with 8 subgroups needs 69888 bytes");
  CHECK_CONTAINS(msg, "16 bias rows per layer 27648");
  d.net.input_width = 16;
  d.net.hidden_width = 128;
  d.net.output_width = 3;
  d.net.activation = SPVGEN_MLP_ACT_SILU;
  d.net.points_per_group = 64;
  d.grad_bias = SPVGEN_MLP_GRAD_BIAS_AUTO;
  d.grad_act_deriv = SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "grad_act_deriv registers: a chunk of 64 points with 8 subgroups keeps 12 act'(z) fragments");
  d.net.points_per_group = 0;
  d.net.variant = SPVGEN_MLP_LOOP;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grad_act_deriv registers: a form of the mat variant's gradient kernel; the loop variant");
  d.grad_act_deriv = SPVGEN_MLP_GRAD_ACT_DERIV_AUTO;
  d.grad_bias = SPVGEN_MLP_GRAD_BIAS_ROW;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grad_bias row: a form of the mat variant's gradient kernel");
  d.net.variant = SPVGEN_MLP_MAT;
  d.grad_bias = (spvgen_mlp_grad_bias)SPVGEN_MLP_GRAD_BIAS_COUNT;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grad_bias 3: not a spvgen_mlp_grad_bias");
  d.grad_bias = SPVGEN_MLP_GRAD_BIAS_AUTO;
  d.grad_act_deriv = (spvgen_mlp_grad_act_deriv)7;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grad_act_deriv 7: not a spvgen_mlp_grad_act_deriv");
  /* the names */
  spvgen_mlp_grad_bias b;
  spvgen_mlp_grad_act_deriv a;
  CHECK(spvgen_mlp_grad_bias_parse("rows", &b) && b == SPVGEN_MLP_GRAD_BIAS_ROWS);
  CHECK(spvgen_mlp_grad_act_deriv_parse("registers", &a) && a == SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS);
  CHECK(!spvgen_mlp_grad_bias_parse("rows16", &b));
  CHECK(!strcmp(spvgen_mlp_grad_act_deriv_name(SPVGEN_MLP_GRAD_ACT_DERIV_SHARED), "shared"));
}

/* The f16 table gradient (grid_gradient F16): AUTO resolves to it where the device has
 * f16 vector atomics and a level has 2 or more features; the gradient kernels (loop and
 * mat, 2 and 4 features: 2- and 4-vectors) add f16 vectors with OpAtomicFAddEXT under
 * AtomicFloat16VectorNV, which the plan's features cover; the gradient buffer's table
 * part is f16; the optimizer's grid form dispatches net groups, the loss group and the
 * table groups; refusals name the field. */
static void test_grid_gradient_f16(void) {
  /* h100v: the preset (its driver reports f16 vector atomics); h100: the same without */
  spvgen_device_caps h100, h100v;
  CHECK(spvgen_caps_preset("h100", &h100v) == SPVGEN_OK);
  CHECK(h100v.features & SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR);
  h100 = h100v;
  h100.features &= ~(uint64_t)SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR;
  const size_t NC = sizeof cases / sizeof cases[0];
  for (size_t i = NC - 2; i < NC; i++)
    for (int v = SPVGEN_MLP_MAT; v <= SPVGEN_MLP_LOOP; v++) {
      spvgen_mlp_train_desc d = make_desc(&cases[i]);
      d.net.variant = (spvgen_mlp_variant)v;
      spvgen_mlp_train_config t, t32;
      char msg[512];
      CHECK_MSG(spvgen_mlp_train_plan(&d, &h100, &t32, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      CHECK_EQ_U64(t32.desc.grid_gradient, SPVGEN_MLP_GRID_GRADIENT_F32);
      /* AUTO: f16 pairs (2 features) only; 4 features stay f32 unless asked for */
      CHECK_MSG(spvgen_mlp_train_plan(&d, &h100v, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      CHECK_EQ_U64(t.desc.grid_gradient,
                   cases[i].enc_size ? SPVGEN_MLP_GRID_GRADIENT_F32 : SPVGEN_MLP_GRID_GRADIENT_F16);
      d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F16;
      CHECK_MSG(spvgen_mlp_train_plan(&d, &h100v, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      CHECK_EQ_U64(t.desc.grid_gradient, SPVGEN_MLP_GRID_GRADIENT_F16);
      CHECK(t.desc.grid_gradient_scale == 1024.0f);
      CHECK(t.features & SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR);
      CHECK(!(t.features & SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD));
      CHECK_CONTAINS(t.name, " table-grad-f16");
      const uint64_t T = t.elements - t.slot_elements;
      CHECK_EQ_U64(t.grad_bytes, t.grid_grad_offset * 4 + T * 2);
      CHECK_EQ_U64(t32.grad_bytes, t32.grid_grad_offset * 4 + T * 4);
      CHECK_EQ_U64(t.opt_local_size[0], 256u);
      CHECK_EQ_U64(t.opt_table_groups, (T / 4 + 255) / 256);
      for (int which = 0; which < 2; which++) {
        spvgen_module *m = spvgen_module_create(NULL);
        spvgen_kernel_info info;
        spvgen_status st = spvgen_mlp_train_emit(m, &t, (spvgen_mlp_train_kernel)which, &info);
        CHECK_MSG(st == SPVGEN_OK, "%s: %s", t.name, spvgen_module_error(m));
        size_t count = 0;
        const uint32_t *words = st == SPVGEN_OK ? check_module(m, &count) : NULL;
        CHECK_MSG(words != NULL, "%s", t.name);
        if (!words) {
          spvgen_module_destroy(m);
          continue;
        }
        spvgen_kernel_info got = info;
        CHECK(spvgen_kernel_reflect(words, count, &got, msg, sizeof msg) == SPVGEN_OK);
        CHECK_MSG((got.features & ~t.features) == 0, "%s: the words need features 0x%llx the plan does not list",
                  t.name, (unsigned long long)(got.features & ~t.features));
        char *text = check_disassemble(words, count);
        if (text && !which) {
          CHECK_CONTAINS(text, "OpCapability AtomicFloat16VectorNV");
          CHECK_CONTAINS(text, "OpExtension \"SPV_NV_shader_atomic_fp16_vector\"");
          CHECK(got.features & SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR);
          /* the atomics' result type: an f16 vector of 2 (2 features) or 4 */
          const char *at = strstr(text, "OpAtomicFAddEXT %");
          CHECK(at != NULL);
          if (at) CHECK_MSG(!strncmp(at + 17, cases[i].enc_size ? "v4half" : "v2half", 6), "%.60s", at);
        }
        if (text && which) {
          uint32_t net = (uint32_t)((t.slot_elements + 31) / 32);
          CHECK_EQ_U64(info.groups[0], net + 1 + t.opt_table_groups);
          CHECK_EQ_U64(info.local_size[0], 256u);
        }
        spvgen_free_text(text);
        spvgen_module_destroy(m);
      }
    }
  /* AUTO keeps f32 for one feature per level; the refusals */
  spvgen_mlp_train_desc d = make_desc(&cases[NC - 2]);
  spvgen_mlp_train_config t;
  char msg[512];
  d.net.grid.features = 1;
  CHECK(spvgen_mlp_train_plan(&d, &h100v, &t, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(t.desc.grid_gradient, SPVGEN_MLP_GRID_GRADIENT_F32);
  d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F16;
  CHECK(spvgen_mlp_train_plan(&d, &h100v, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "grid_gradient f16: the f16 atomics add 2 or 4 features at once; grid.features is 1");
  d = make_desc(&cases[NC - 2]);
  d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F16;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "grid_gradient f16 needs shaderFloat16VectorAtomics (VK_NV_shader_atomic_float16_vector), which");
  d.grid_gradient_scale = 3;
  CHECK(spvgen_mlp_train_plan(&d, &h100v, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grid_gradient_scale 3: a power of two");
  d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F32;
  d.grid_gradient_scale = 1024;
  CHECK(spvgen_mlp_train_plan(&d, &h100v, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grid_gradient_scale 1024: the scale of an f16 table gradient");
  d.grid_gradient = (spvgen_mlp_grid_gradient)7;
  CHECK(spvgen_mlp_train_plan(&d, &h100v, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grid_gradient 7: not a spvgen_mlp_grid_gradient");
  d = make_desc(&cases[0]);
  d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F16;
  CHECK(spvgen_mlp_train_plan(&d, &h100v, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grid_gradient f16 / grid_gradient_scale 0: the network has no hash grid");
  spvgen_mlp_grid_gradient g;
  CHECK(spvgen_mlp_grid_gradient_parse("f16", &g) && g == SPVGEN_MLP_GRID_GRADIENT_F16);
  CHECK(!spvgen_mlp_grid_gradient_parse("f8", &g));
  CHECK_STR_EQ(spvgen_mlp_grid_gradient_name(SPVGEN_MLP_GRID_GRADIENT_AUTO), "auto");
}

/* The mat gradient kernel's spread of the grid's (point, level) pairs (grid_spread):
 * AUTO resolves to FLAT on mat (the plan's name silent about it), each other form named
 * in the plan and giving a module that validates (the runs: test_mlp_mat_train_grid_emulated);
 * refused without a hash grid, on the loop variant and for values out of range. */
static void test_grid_spread(void) {
  spvgen_device_caps h100;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  spvgen_mlp_train_desc d = make_desc(&cases[NC_GRID_3D]);
  d.net.variant = SPVGEN_MLP_MAT;
  spvgen_mlp_train_config t;
  char msg[512];
  static const char *const suffix[] = {"", " grid-level-loop", "", " grid-flat-by-point"};
  for (int s = 0; s < SPVGEN_MLP_GRID_SPREAD_COUNT; s++) {
    d.grid_spread = (spvgen_mlp_grid_spread)s;
    CHECK_MSG(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_EQ_U64(t.desc.grid_spread, s ? (uint64_t)s : SPVGEN_MLP_GRID_SPREAD_FLAT);
    size_t n = strlen(t.name), k = strlen(suffix[s]);
    CHECK_MSG(n >= k && !strcmp(t.name + n - k, suffix[s]), "%s", t.name);
    CHECK_MSG(!!strstr(t.name, " grid-") == (k > 0), "%s", t.name);
    spvgen_kernel kern;
    CHECK_MSG(spvgen_mlp_train(&d, &h100, SPVGEN_MLP_TRAIN_GRADIENT, &kern, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK(check_words(kern.words, kern.word_count));
    spvgen_kernel_free(&kern);
  }
  d.grid_spread = (spvgen_mlp_grid_spread)9;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grid_spread 9: not a spvgen_mlp_grid_spread");
  d.grid_spread = SPVGEN_MLP_GRID_SPREAD_FLAT;
  d.net.variant = SPVGEN_MLP_LOOP;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grid_spread flat: a form of the mat variant's gradient kernel; the loop variant runs the "
                      "hash grid one point per invocation (leave it auto)");
  d.grid_spread = SPVGEN_MLP_GRID_SPREAD_AUTO;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(t.desc.grid_spread, SPVGEN_MLP_GRID_SPREAD_AUTO);
  d = make_desc(&cases[0]);
  d.net.variant = SPVGEN_MLP_MAT;
  d.grid_spread = SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grid_spread level-loop: the network has no hash grid (leave it auto)");
  d.grid_spread = SPVGEN_MLP_GRID_SPREAD_AUTO;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &t, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(t.desc.grid_spread, SPVGEN_MLP_GRID_SPREAD_AUTO);
  spvgen_mlp_grid_spread g;
  CHECK(spvgen_mlp_grid_spread_parse("flat-by-point", &g) && g == SPVGEN_MLP_GRID_SPREAD_FLAT_BY_POINT);
  CHECK(spvgen_mlp_grid_spread_parse("level-loop", &g) && g == SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP);
  CHECK(!spvgen_mlp_grid_spread_parse("flat-by-level", &g));
  CHECK_STR_EQ(spvgen_mlp_grid_spread_name(SPVGEN_MLP_GRID_SPREAD_FLAT), "flat");
}

static void test_train_refusals(void) {
  spvgen_mlp_train_desc d = make_desc(&cases[0]);
  spvgen_mlp_train_config p;
  char msg[512];
  d.net.variant = SPVGEN_MLP_VEC;
  CHECK(spvgen_mlp_train_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "variant vec: training needs cooperativeVectorTraining, which");
  {
    spvgen_device_caps hc;
    spvgen_caps_preset("h100", &hc);
    spvgen_mlp_train_desc g = make_desc(&cases[6]);
    g.net.variant = SPVGEN_MLP_VEC;
    CHECK(spvgen_mlp_train_plan(&g, &hc, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
    CHECK_CONTAINS(msg, "variant vec: the hash grid trains on the loop and mat variants");
  }
  d.net.variant = SPVGEN_MLP_MAT;
  CHECK(spvgen_mlp_train_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "net: spvgen_mlp_plan: the mat variant needs cooperativeMatrix");
  spvgen_device_caps h100;
  spvgen_caps_preset("h100", &h100);
  d.net.f16_accumulation = true;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "variant mat: training accumulates in f32");
  d.net.f16_accumulation = false;
  d.net.points_per_group = 24;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "net.points_per_group 24: mat training takes a multiple of 16");
  d.net.points_per_group = 0;
  d.grad_workgroup_size = 48;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "grad_workgroup_size 48: the mat variant takes 1 to 16 subgroups of 32");
  d.grad_workgroup_size = 0;
  d.net.hidden_width = 256; /* 16 column fragments x 4 point fragments on 1 subgroup */
  d.net.points_per_group = 64;
  d.grad_workgroup_size = 32;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "accumulator fragments per subgroup in the backward pass");
  d.grad_workgroup_size = 512; /* 16 subgroups: 16 accumulators, but 256 points */
  d.net.points_per_group = 256;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "bytes of shared memory");
  d = make_desc(&cases[0]);
  d.loss = (spvgen_mlp_loss)7;
  CHECK(spvgen_mlp_train_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "loss 7");
  d = make_desc(&cases[0]);
  d.beta2 = 1.5f;
  CHECK(spvgen_mlp_train_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "beta2");
  d = make_desc(&cases[0]);
  d.net.output_width = 0;
  CHECK(spvgen_mlp_train_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "net: spvgen_mlp_plan: input_width and output_width");
  d = make_desc(&cases[0]);
  d.grad_workgroup_size = 1024;
  d.net.hidden_width = 256;
  spvgen_device_caps v13;
  spvgen_caps_preset("vulkan13", &v13);
  CHECK(spvgen_mlp_train_plan(&d, &v13, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "shared memory");
  spvgen_module *m = spvgen_module_create(NULL);
  memset(&p, 0, sizeof p);
  CHECK(spvgen_mlp_train_emit(m, &p, SPVGEN_MLP_TRAIN_GRADIENT, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "not made by spvgen_mlp_train_plan");
  spvgen_module_destroy(m);
  CHECK_STR_EQ(spvgen_mlp_loss_name(SPVGEN_MLP_LOSS_RELATIVE_L2), "rel-l2");
  spvgen_mlp_optimizer o;
  CHECK(spvgen_mlp_optimizer_parse("sgd", &o) && o == SPVGEN_MLP_OPTIMIZER_SGD);
  CHECK(!spvgen_mlp_optimizer_parse("adamw", &o));
}

/* The vec variant's gradient kernel for the h100 preset: validates, carries the
 * cooperative vector training instructions (the weight gradients through
 * OuterProductAccumulate in the TrainingOptimal layout, the bias gradients through
 * ReduceSumAccumulate, W^T delta as a ColumnMajor MatrixMul), one push constant per
 * layer offset; its optimizer reads one f16 slot with a grad_scale push constant. Runs
 * only on the GPU machine. */
static void test_vec_gradient_kernel_validates_for_h100(void) {
  spvgen_device_caps h100;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].enc == SPVGEN_MLP_ENCODING_HASH_GRID) continue; /* refused: test_train_refusals */
    spvgen_mlp_train_desc d = make_desc(&cases[i]);
    d.net.variant = SPVGEN_MLP_VEC;
    spvgen_mlp_train_config p;
    char msg[512];
    spvgen_status st = spvgen_mlp_train_plan(&d, &h100, &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "case %zu: %s", i, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_EQ_U64(p.grad_push_constant_size, 8 + 8 * p.net.layer_count);
    spvgen_module *m = spvgen_module_create(NULL);
    spvgen_kernel_info info;
    CHECK_MSG(spvgen_mlp_train_emit(m, &p, SPVGEN_MLP_TRAIN_GRADIENT, &info) == SPVGEN_OK, "%s", spvgen_module_error(m));
    CHECK_EQ_U64(info.push_constant_size, p.grad_push_constant_size);
    size_t count = 0;
    const uint32_t *words = check_module(m, &count);
    char *text = words ? check_disassemble(words, count) : NULL;
    if (text) {
      uint32_t layers = p.net.layer_count;
      size_t outer = 0, reduce = 0, colmajor = 0;
      for (const char *q = text; (q = strstr(q, "OpCooperativeVectorOuterProductAccumulateNV")); q++) outer++;
      for (const char *q = text; (q = strstr(q, "OpCooperativeVectorReduceSumAccumulateNV")); q++) reduce++;
      for (const char *q = text; (q = strstr(q, "OpCooperativeVectorMatrixMulNV")); q++) colmajor++;
      CHECK_EQ_U64(outer, layers);
      CHECK_EQ_U64(reduce, d.net.no_bias ? 0 : layers);
      CHECK_EQ_U64(colmajor, (d.net.no_bias ? layers : 0) + layers - 1);
      spvgen_free_text(text);
    }
    spvgen_module_destroy(m);
    m = spvgen_module_create(NULL);
    CHECK(spvgen_mlp_train_emit(m, &p, SPVGEN_MLP_TRAIN_OPTIMIZER, &info) == SPVGEN_OK);
    CHECK_EQ_U64(info.push_constant_size, 12);
    words = check_module(m, &count);
    text = words ? check_disassemble(words, count) : NULL;
    if (text) CHECK_CONTAINS(text, " 2 \"grad_scale\"");
    spvgen_free_text(text);
    spvgen_module_destroy(m);
  }
}

static void test_training_matches_cpu(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  /* the hash grid cases three times: with the device's float atomics where it has them
   * (lavapipe: VK_EXT_shader_atomic_float), with the compare-exchange loops, and with an
   * f16 table gradient (grid_gradient F16, planned as for a device with f16 vector
   * atomics, run through compare-exchange loops on f16 pairs: lavapipe has no such
   * atomics; the first with one table group of the optimizer, which then loops over the
   * table, the second at a scale of 4096 and with the optimizer's 128-invocation form) */
  const size_t NC = sizeof cases / sizeof cases[0];
  for (size_t run = 0; run < NC + 4; run++) {
    size_t i = run < NC ? run : run < NC + 2 ? run - 2 : run - 4;
    bool cas = run >= NC, h16 = run >= NC + 2;
    spvgen_mlp_train_desc d = make_desc(&cases[i]);
    if (i == 2) d.weight_decay = 0.01f;
    spvgen_mlp_train_config plan;
    char pmsg[512];
    if (cas) {
      spvgen_device_caps caps = *spvgen_vk_caps(ctx);
      if (h16) {
        caps.features |= SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR;
        d.grid_gradient = SPVGEN_MLP_GRID_GRADIENT_F16;
        if (i == NC - 1) {
          d.grid_gradient_scale = 4096;
          caps.max_workgroup_invocations = 128; /* Vulkan's least: the optimizer's 128-invocation form */
        }
      }
      CHECK_MSG(spvgen_mlp_train_plan(&d, &caps, &plan, pmsg, sizeof pmsg) == SPVGEN_OK, "%s", pmsg);
      plan.features &= ~(SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD | SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR);
      if (h16 && i == NC - 2) {
        CHECK_MSG(plan.opt_table_groups > 1, "%s: %u table groups", plan.name, plan.opt_table_groups);
        plan.opt_table_groups = 1;
      }
      if (h16) CHECK_EQ_U64(plan.opt_local_size[0], i == NC - 1 ? 128u : 256u);
    }
    mlp_train_run_options o;
    memset(&o, 0, sizeof o);
    if (cas) o.plan = &plan;
    o.seed = test_rand_u32() | 1u;
    o.points = cases[i].points;
    o.steps = 3;
    o.lr = cases[i].opt == SPVGEN_MLP_OPTIMIZER_SGD ? 0.05f : 0.01f;
    mlp_train_run_result r;
    char msg[512];
    spvgen_status st = mlp_train_run(ctx, &d, &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "case %zu: %s", i, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_EQ_U64(r.grad.checked, r.plan.params * o.steps);
    CHECK_MSG(r.grad.bad == 0, "%s: %llu of %llu gradients wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
              r.plan.name, (unsigned long long)r.grad.bad, (unsigned long long)r.grad.checked,
              (unsigned long long)r.grad.first_bad, r.grad.first_gpu, r.grad.first_ref, r.grad.first_tol);
    CHECK_MSG(r.opt.bad == 0, "%s: %llu of %llu optimizer values wrong; first element %llu: gpu %.8g cpu %.8g tol %.3g",
              r.plan.name, (unsigned long long)r.opt.bad, (unsigned long long)r.opt.checked,
              (unsigned long long)r.opt.first_bad, r.opt.first_gpu, r.opt.first_ref, r.opt.first_tol);
    CHECK_MSG(r.loss_bad == 0, "%s: loss gpu %.8g cpu %.8g (step 1)", r.plan.name, r.loss_gpu[0], r.loss_ref[0]);
    const char *how = h16   ? " (f16 pairs)"
                      : cas ? " (compare-exchange)"
                      : (r.plan.features & SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD) ? " (float atomics)"
                                                                             : "";
    fprintf(stderr, "  %-58s%s %llu grads x %u steps, worst err/tol %.3f; optimizer worst %.3f; loss %.5g -> %.5g\n",
            r.plan.name, how, (unsigned long long)r.plan.params, o.steps, r.grad.worst_ratio, r.opt.worst_ratio,
            r.loss_gpu[0], r.loss_gpu[o.steps - 1]);
  }
  spvgen_vk_destroy(ctx);
}


/* The gradient check itself: the reference's own gradients pass, one element moved by
 * three tolerances fails, and only that one. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void check_case(const net_case *nc, double max_median_ratio) {
  spvgen_mlp_train_desc d = make_desc(nc);
  const bool grid = nc->enc == SPVGEN_MLP_ENCODING_HASH_GRID;
  spvgen_mlp_train_config t;
  char msg[512];
  CHECK_MSG(spvgen_mlp_train_plan(&d, NULL, &t, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  mlp_train_data data;
  CHECK(mlp_train_make_data(&t, 100, 7, &data));
  uint64_t E = t.elements, Es = t.slot_elements;
  double *grad = malloc(E * 8), *tol = malloc(E * 8), loss, ltol;
  float *slots = calloc(t.grad_bytes / 4, 4);
  CHECK(grad && tol && slots && mlp_train_reference(&t, data.weights, &data, grad, tol, &loss, &ltol));
  for (uint64_t e = 0; e < E; e++) slots[e < Es ? e : t.grid_grad_offset + e - Es] = (float)grad[e];
  mlp_train_check c;
  memset(&c, 0, sizeof c);
  mlp_train_check_gradients(&t, slots, grad, tol, &c);
  CHECK_EQ_U64(c.bad, 0);
  CHECK_EQ_U64(c.checked, t.params);
  /* in the second slot; with the hash grid, an entry of the table's gradient */
  uint64_t victim = grid ? Es + 5 : t.net.layers[1].matrix_offset / 2 + 3;
  slots[grid ? t.grid_grad_offset + 5 : Es + victim] += (float)(3 * tol[victim]);
  memset(&c, 0, sizeof c);
  mlp_train_check_gradients(&t, slots, grad, tol, &c);
  CHECK_EQ_U64(c.bad, 1);
  CHECK_EQ_U64(c.first_bad, victim);
  CHECK(loss > 0);
  /* The tolerances are tight enough to mean something: relative to |gradient|, the
   * median below the bound stated here (the frequency encoding's 2^-11 error of sin /
   * cos, which Vulkan allows, dominates the first case). */
  double *ratio = malloc(E * 8);
  uint64_t n = 0;
  for (uint64_t e = 0; e < E; e++)
    if (mlp_train_is_param(&t, e)) ratio[n++] = tol[e] / (fabs(grad[e]) + 1e-30);
  qsort(ratio, n, 8, cmp_double);
  fprintf(stderr, "  %s: tolerance / |gradient|: median %.3g, 90th percentile %.3g; loss %.5g tolerance %.3g\n",
          t.name, ratio[n / 2], ratio[n * 9 / 10], loss, ltol);
  CHECK(ratio[n / 2] < max_median_ratio);
  CHECK(ltol < loss * 0.05);
  free(ratio);
  free(grad);
  free(tol);
  free(slots);
  mlp_train_free_data(&data);
}

static void test_gradient_check_fails_on_a_wrong_gradient(void) {
  check_case(&cases[0], 0.5);  /* measured 0.054: Vulkan's 2^-11 for sin / cos (0.23 by the worst case alone) */
  check_case(&cases[2], 0.05); /* measured 0.0043 (0.012) */
  check_case(&cases[4], 0.002); /* measured 0.00008 (0.0001) */
  check_case(&cases[7], 0.05);  /* the hash grid */
}


/* llvmpipe's loop budget (emitters/mlp/train.c gradient_budget_canary): the loop
 * variant's gradient kernel on a network whose per-point loops pass it (16-128x3-3 on
 * lavapipe) reports the step as cut, a NaN loss, never a finite wrong one; on a device
 * without the budget the same run matches float64 everywhere. */
static void test_loop_training_cut_by_a_loop_budget_says_so(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_mlp_train_desc d = net_desc(16, 128, 3, 3, SPVGEN_MLP_ACT_DEFAULT);
  d.net.variant = SPVGEN_MLP_LOOP;
  mlp_train_run_options o;
  memset(&o, 0, sizeof o);
  o.seed = test_rand_u32() | 1u;
  o.points = 128;
  o.steps = 1;
  o.lr = 0.01f;
  mlp_train_run_result r;
  char msg[512];
  spvgen_status st = mlp_train_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK && spvgen_vk_caps(ctx)->type == SPVGEN_DEVICE_CPU) {
    CHECK_MSG(isnan(r.loss_gpu[0]) && !isnan(r.loss_ref[0]), "%s on %s: loss %g (cpu %g): a cut step must say so",
              r.plan.name, spvgen_vk_caps(ctx)->name, r.loss_gpu[0], r.loss_ref[0]);
  } else if (st == SPVGEN_OK) {
    CHECK_MSG(r.grad.bad == 0 && r.loss_bad == 0, "%s: %llu gradients wrong, loss gpu %g cpu %g", r.plan.name,
              (unsigned long long)r.grad.bad, r.loss_gpu[0], r.loss_ref[0]);
  }
  spvgen_vk_destroy(ctx);
}

/* Training's AUTO takes the layers variant where mat's plan is the slot-adds form with
 * more gradient traffic per point than the line in emitters/mlp/train.c (the 256-wide
 * networks, docs/design-notes.md "Training AUTO: layers where mat's gradient traffic is
 * large"), where mat's held form is estimated slower per point than the layers step
 * ("Training AUTO: the held form against layers"), and where mat cannot hold the network
 * at all (before loop); it keeps mat on the networks mat trains well and where the layers
 * variant refuses the desc. spvgen_mlp_train (two kernels) leaves layers out: its kernels
 * are mat's, byte for byte. spvgen_mlp_train_plans lists layers, then mat, then loop.
 * lavapipe (no cooperative matrices, which mat needs too): loop. */
static void test_train_auto_takes_layers_where_mat_slot_traffic_is_large(void) {
  spvgen_device_caps h100, lvp;
  CHECK(spvgen_caps_preset("h100", &h100) == SPVGEN_OK);
  CHECK(spvgen_caps_preset("lavapipe", &lvp) == SPVGEN_OK);
  static const struct {
    uint32_t in, width, count, out;
    spvgen_mlp_activation act;
    spvgen_mlp_variant expect;
  } nets[] = {
      {64, 256, 3, 64, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_LAYERS}, {64, 256, 3, 64, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_LAYERS},
      {16, 128, 3, 3, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_MAT},     {32, 64, 4, 16, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_MAT},
      {3, 48, 2, 1, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_MAT},
      /* held form: measured 1.37x (32-128x4-32) and 1.85x (64-160x3-64) faster on layers,
       * 1.56x (64-64x8-64) and 2.65x (64-64x4-64) faster on mat */
      {32, 128, 4, 32, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_LAYERS}, {64, 160, 3, 64, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_LAYERS},
      {64, 64, 8, 64, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_MAT},     {64, 64, 4, 64, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_MAT},
      /* mat cannot hold it: layers, not loop (measured 80x faster) */
      {16, 160, 8, 16, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_LAYERS},
  };
  char msg[1024];
  for (size_t n = 0; n < sizeof nets / sizeof nets[0]; n++) {
    spvgen_mlp_train_desc d = net_desc(nets[n].in, nets[n].width, nets[n].count, nets[n].out, nets[n].act);
    spvgen_mlp_train_config a, m;
    CHECK_MSG(spvgen_mlp_train_plan(&d, &h100, &a, msg, sizeof msg) == SPVGEN_OK, "net %zu: %s", n, msg);
    d.net.variant = SPVGEN_MLP_MAT;
    const bool mat_plans = spvgen_mlp_train_plan(&d, &h100, &m, msg, sizeof msg) == SPVGEN_OK;
    CHECK_MSG(mat_plans || nets[n].expect == SPVGEN_MLP_LAYERS, "net %zu mat: %s", n, msg);
    CHECK_MSG(a.net.variant == nets[n].expect, "net %zu: AUTO took %s (%s; mat: %s, %u bytes per point)", n, a.name,
              a.net.selection, mat_plans ? m.name : msg, mat_plans ? m.grad_slot_bytes_per_point : 0u);
    /* mat's traffic as the plan states it: 8 slot_elements / points per chunk, slot adds only */
    if (!mat_plans) {
      /* mat cannot hold it */
    } else if (m.grad_held) CHECK_EQ_U64(m.grad_slot_bytes_per_point, 0u);
    else
      CHECK_EQ_U64(m.grad_slot_bytes_per_point,
                   (8 * m.slot_elements + m.net.desc.points_per_group - 1) / m.net.desc.points_per_group);
    if (nets[n].expect == SPVGEN_MLP_LAYERS) {
      if (!mat_plans) CHECK_CONTAINS(a.net.selection, "auto: mat cannot hold this network");
      else if (m.grad_held) CHECK_CONTAINS(a.net.selection, "auto: layers est.");
      else {
        CHECK_MSG(m.grad_slot_bytes_per_point > 16 * 1024, "%s: %u", m.name, m.grad_slot_bytes_per_point);
        CHECK_CONTAINS(a.net.selection, "auto: mat's slot adds");
      }
      CHECK_EQ_U64(a.grad_workgroups, 1u);
      CHECK(spvgen_mlp_train_kernel_count(&a) > 1);
    } else {
      CHECK_STR_EQ(a.name, m.name); /* AUTO's mat plan is the mat plan */
    }
    /* lavapipe: loop (mat needs cooperative matrices), though layers plans there */
    d.net.variant = SPVGEN_MLP_AUTO;
    CHECK_MSG(spvgen_mlp_train_plan(&d, &lvp, &a, msg, sizeof msg) == SPVGEN_OK, "net %zu lavapipe: %s", n, msg);
    CHECK_MSG(a.net.variant == SPVGEN_MLP_LOOP, "net %zu lavapipe: %s", n, a.name);
  }
  spvgen_mlp_train_desc d = net_desc(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
  d.net.variant = SPVGEN_MLP_LAYERS;
  spvgen_mlp_train_config t;
  CHECK_MSG(spvgen_mlp_train_plan(&d, &lvp, &t, msg, sizeof msg) == SPVGEN_OK, "lavapipe layers: %s", msg);

  /* the list: layers (AUTO's plan), then mat's, then loop's */
  d.net.variant = SPVGEN_MLP_AUTO;
  spvgen_mlp_train_config plans[8];
  uint32_t count = 0;
  CHECK_MSG(spvgen_mlp_train_plans(&d, &h100, plans, 8, &count, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(count >= 3);
  if (count >= 3) {
    CHECK_MSG(plans[0].net.variant == SPVGEN_MLP_LAYERS, "%s", plans[0].name);
    CHECK_MSG(plans[1].net.variant == SPVGEN_MLP_MAT, "%s", plans[1].name);
    for (uint32_t i = 2; i < count && i < 8; i++) CHECK_MSG(plans[i].net.variant == SPVGEN_MLP_LOOP, "%s", plans[i].name);
  }
  uint32_t count_max0 = 0;
  CHECK(spvgen_mlp_train_plans(&d, &h100, NULL, 0, &count_max0, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(count_max0, count);

  /* spvgen_mlp_train: two kernels, mat's (the same words as the desc naming mat) */
  for (int which = 0; which < 2; which++) {
    spvgen_kernel ka, km;
    spvgen_mlp_train_desc dm = d;
    dm.net.variant = SPVGEN_MLP_MAT;
    CHECK_MSG(spvgen_mlp_train(&d, &h100, (spvgen_mlp_train_kernel)which, &ka, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(spvgen_mlp_train(&dm, &h100, (spvgen_mlp_train_kernel)which, &km, msg, sizeof msg) == SPVGEN_OK, "%s",
              msg);
    CHECK(ka.word_count == km.word_count && ka.words && km.words &&
          !memcmp(ka.words, km.words, ka.word_count * sizeof *ka.words));
    spvgen_kernel_free(&ka);
    spvgen_kernel_free(&km);
  }
  /* the layers plan's own gradient through the two-kernel call: refused by name */
  spvgen_mlp_train_config lay;
  CHECK(spvgen_mlp_train_plan(&d, &h100, &lay, msg, sizeof msg) == SPVGEN_OK);
  spvgen_module *mod = spvgen_module_create(NULL);
  CHECK(spvgen_mlp_train_emit(mod, &lay, SPVGEN_MLP_TRAIN_GRADIENT, NULL) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(spvgen_module_error(mod), "spvgen_mlp_train_emit_kernel");
  spvgen_module_destroy(mod);

  /* where the layers variant refuses the desc, AUTO keeps mat, silently: an encoding,
   * device addresses, f32 points, and the fused kernels' knobs (slots, workgroup size) */
  for (int k = 0; k < 5; k++) {
    spvgen_mlp_train_desc e = net_desc(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
    if (k == 0) e.net.encoding = SPVGEN_MLP_ENCODING_FREQUENCY, e.net.encoding_size = 2, e.net.input_width = 16;
    if (k == 1) e.net.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
    if (k == 2) e.net.input_type = SPVGEN_COMPONENT_F32;
    if (k == 3) e.grad_workgroups = 128;
    if (k == 4) e.grad_workgroup_size = 128;
    spvgen_mlp_train_config a;
    CHECK_MSG(spvgen_mlp_train_plan(&e, &h100, &a, msg, sizeof msg) == SPVGEN_OK, "refusal %d: %s", k, msg);
    CHECK_MSG(a.net.variant == SPVGEN_MLP_MAT, "refusal %d: %s", k, a.name);
    CHECK_STR_EQ(msg, "");
  }
  /* no_bias and the activations outside relu train on layers too */
  for (int k = 0; k < 2; k++) {
    spvgen_mlp_train_desc e = net_desc(64, 256, 3, 64, k ? SPVGEN_MLP_ACT_TANH : SPVGEN_MLP_ACT_RELU);
    e.net.no_bias = !k;
    spvgen_mlp_train_config a;
    CHECK_MSG(spvgen_mlp_train_plan(&e, &h100, &a, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(a.net.variant == SPVGEN_MLP_LAYERS, "%s: %s", k ? "tanh" : "no_bias", a.name);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_train_plans_validate),
      TEST_CASE(test_train_auto_takes_layers_where_mat_slot_traffic_is_large),
      TEST_CASE(test_train_refusals),
      TEST_CASE(test_grid_gradient_f16),
      TEST_CASE(test_grid_spread),
      TEST_CASE(test_grid_networks_train_plans_on_every_variant),
      TEST_CASE(test_vec_training_silu_on_tanh),
      TEST_CASE(test_mat_wide_networks_plan_larger_chunks_for_h100),
      TEST_CASE(test_mat_grad_forms_levers_only_where_they_buy_the_chunk),
      TEST_CASE(test_vec_gradient_kernel_validates_for_h100),
      TEST_CASE(test_gradient_check_fails_on_a_wrong_gradient),
      TEST_CASE(test_training_matches_cpu),
      TEST_CASE(test_loop_training_cut_by_a_loop_budget_says_so),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
