/* tests/mlp/test_mlp_layers.c — the layers variant (spvgen/mlp.h, SPVGEN_MLP_LAYERS: a
 * GEMM per layer): every kernel of its plans validates on the h100 and lavapipe presets;
 * its dispatches bind the documented buffers and offsets; networks run on the CI device
 * (lavapipe: the GEMM's simt variant) through both run paths (the template lifecycle of
 * `spvgen run mlp` and the session of `spvgen bench mlp`) against the float64
 * reference, every output component of every point, at point counts around the
 * workspace's rows too (1, 257, 512: the hidden-to-hidden GEMMs run on the count rounded
 * up to 256, with a NaN-filled workspace and a guard past the output); a plan whose GEMM
 * drops an activation fails that check; and each refusal names its reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_run.h"
#include "mlp_net.h"
#include "module_check.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  spvgen_caps_preset(name, &c);
  return c;
}

/* The network on the layers variant. */
static spvgen_mlp_desc net(uint32_t in, uint32_t width, uint32_t count, uint32_t out, spvgen_mlp_activation act) {
  spvgen_mlp_desc d = test_mlp_net(in, width, count, out, act);
  d.variant = SPVGEN_MLP_LAYERS;
  return d;
}

/* The networks of the device tests: widths that are multiples of 16 and widths that are
 * not (K and N edges in every GEMM), SiLU, one layer alone (no workspace), an f32 output
 * without biases; then every other MLP activation in the GEMM epilogue, hidden and at the
 * output: sigmoid, tanh, leaky relu (the default slope and a negative one), exp, one of
 * each in one network, and tanh without biases. */
static spvgen_mlp_desc case_net(int i) {
  spvgen_mlp_desc d;
  switch (i) {
  case 0: return net(16, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  case 1: return net(8, 32, 3, 4, SPVGEN_MLP_ACT_SILU);
  case 2: return net(24, 40, 2, 5, SPVGEN_MLP_ACT_RELU);
  case 3: return net(12, 0, 0, 7, SPVGEN_MLP_ACT_RELU);
  case 4:
    d = net(8, 24, 1, 3, SPVGEN_MLP_ACT_RELU);
    d.no_bias = true;
    d.output_type = SPVGEN_COMPONENT_F32;
    return d;
  case 5:
    d = net(16, 48, 2, 5, SPVGEN_MLP_ACT_SIGMOID);
    d.output_activation = SPVGEN_MLP_ACT_SIGMOID;
    return d;
  case 6:
    d = net(10, 40, 2, 6, SPVGEN_MLP_ACT_TANH);
    d.output_activation = SPVGEN_MLP_ACT_TANH;
    return d;
  case 7:
    d = net(12, 32, 2, 4, SPVGEN_MLP_ACT_LEAKY_RELU);
    d.output_activation = SPVGEN_MLP_ACT_LEAKY_RELU;
    return d;
  case 8:
    d = net(6, 24, 2, 3, SPVGEN_MLP_ACT_LEAKY_RELU);
    d.leaky_slope = -0.25f;
    d.output_activation = SPVGEN_MLP_ACT_EXP;
    return d;
  case 9: /* tanh, sigmoid, exp hidden, leaky relu out (four GEMM classes, the most) */
    d = net(9, 0, 0, 2, SPVGEN_MLP_ACT_RELU);
    d.hidden_widths[0] = 24, d.hidden_widths[1] = 40, d.hidden_widths[2] = 24;
    d.layer_activations[0] = SPVGEN_MLP_ACT_TANH, d.layer_activations[1] = SPVGEN_MLP_ACT_SIGMOID;
    d.layer_activations[2] = SPVGEN_MLP_ACT_EXP;
    d.output_activation = SPVGEN_MLP_ACT_LEAKY_RELU;
    return d;
  default:
    d = net(16, 64, 2, 8, SPVGEN_MLP_ACT_TANH);
    d.no_bias = true;
    return d;
  }
}
enum { CASES = 11 };

/* ------------------------------------------------------------------ plans ---- */

/* The padded copy's layout as spvgen/mlp.h documents it, computed here apart from the
 * library: layer l's GEMM N (hidden outputs rounded up to 64 where the plan pads), B's
 * leading dimension (the copy's row: layer 0 its real inputs in whole 16 bytes, later
 * layers the layer before's N), and the byte offsets in the copy of its matrix and bias
 * (256-byte pieces); returns the copy's bytes. */
static uint32_t pad_n(const spvgen_mlp_config *p, uint32_t l) {
  const uint32_t n = p->layers[l].outputs;
  return p->pad_width && l + 1 < p->layer_count ? (n + 63) / 64 * 64 : n;
}
static uint32_t pad_ldb(const spvgen_mlp_config *p, uint32_t l) {
  return l ? pad_n(p, l - 1) : (p->layers[0].inputs + 7) / 8 * 8;
}
static uint64_t pad_layout(const spvgen_mlp_config *p, uint64_t matrix[], uint64_t bias[]) {
  uint64_t off = 0;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    matrix[l] = off;
    bias[l] = (off + 2ull * pad_n(p, l) * pad_ldb(p, l) + 255) / 256 * 256;
    off = p->desc.no_bias ? bias[l] : (bias[l] + 2ull * pad_n(p, l) + 255) / 256 * 256;
  }
  return off;
}

/* Every kernel of every case's plan validates, a kernel per layer (and the pad kernel
 * first where a hidden width is not a multiple of 64; none where every one is: such a
 * plan is what it was before padding), layers of one GEMM class give the same words, and
 * the dispatches bind what spvgen/mlp.h says. */
static void test_layers_kernels_validate_and_dispatch_as_documented(void) {
  const char *presets[2] = {"h100", "lavapipe"};
  for (int pi = 0; pi < 2; pi++) {
    spvgen_device_caps caps = preset(presets[pi]);
    for (int i = 0; i < CASES + 4; i++) {
      spvgen_mlp_desc d = i < CASES ? case_net(i) : net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
      if (i == CASES + 1) d = net(36, 250, 4, 58, SPVGEN_MLP_ACT_LEAKY_RELU); /* padded */
      if (i == CASES + 2) { /* padded, mixed, one hidden width of whole 64s, no biases */
        d = net(7, 100, 3, 3, SPVGEN_MLP_ACT_SIGMOID);
        d.hidden_widths[1] = 223, d.hidden_widths[2] = 64;
        d.no_bias = true;
        d.output_type = SPVGEN_COMPONENT_F32;
      }
      if (i == CASES + 3) d = net(32, 128, 2, 10, SPVGEN_MLP_ACT_EXP); /* whole 64s: unpadded */
      spvgen_mlp_config p;
      char msg[512];
      spvgen_status st = spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s case %d: %s", presets[pi], i, msg);
      if (st != SPVGEN_OK) continue;
      CHECK(p.variant == SPVGEN_MLP_LAYERS);
      bool off64 = false;
      for (uint32_t l = 0; l + 1 < p.layer_count; l++) off64 |= p.layers[l].outputs % 64 != 0;
      CHECK_MSG(p.pad_width == (off64 ? 64u : 0u), "%s: pad_width %u", p.name, p.pad_width);
      CHECK_MSG((strstr(p.name, " pad64") != NULL) == off64, "%s", p.name);
      const uint32_t pad = p.pad_width ? 1u : 0u;
      CHECK_EQ_U64(spvgen_mlp_kernel_count(&p), p.layer_count + pad);
      CHECK(p.gemm_count >= 1 && p.gemm_count <= SPVGEN_MLP_LAYERS_MAX_GEMMS);
      if (pi == 1) CHECK_MSG(p.gemms[0].variant == SPVGEN_GEMM_SIMT, "%s", p.gemms[0].name);
      uint32_t widest = 0;
      for (uint32_t l = 0; l + 1 < p.layer_count; l++) widest = pad_n(&p, l) > widest ? pad_n(&p, l) : widest;
      CHECK_EQ_U64(p.workspace_ld, (widest + 7) / 8 * 8);
      uint64_t pm[SPVGEN_MLP_MAX_LAYERS], pb[SPVGEN_MLP_MAX_LAYERS];
      const uint64_t pad_bytes = pad ? pad_layout(&p, pm, pb) : 0;
      uint32_t *words[SPVGEN_MLP_MAX_KERNELS] = {0};
      size_t count[SPVGEN_MLP_MAX_KERNELS] = {0};
      const uint64_t points = 1000, rows = 1024; /* the workspace's rows: whole 256s */
      const uint64_t half = p.layer_count == 1 ? 0 : (rows * p.workspace_ld * 2 + 255) / 256 * 256;
      CHECK_EQ_U64(spvgen_mlp_workspace_bytes(&p, points), 2 * half + pad_bytes); /* the copy after the halves */
      for (uint32_t k = 0; k < p.layer_count + pad; k++) {
        spvgen_module *m = spvgen_module_create(NULL);
        spvgen_kernel_info info;
        const uint32_t *w = NULL;
        st = spvgen_mlp_emit_kernel(m, &p, k, &info);
        if (st == SPVGEN_OK) st = spvgen_module_finish(m, &w, &count[k]);
        CHECK_MSG(st == SPVGEN_OK, "%s: %s", p.name, spvgen_module_error(m));
        if (st == SPVGEN_OK) {
          CHECK(check_words(w, count[k]));
          words[k] = malloc(count[k] * 4);
          if (words[k]) memcpy(words[k], w, count[k] * 4);
          CHECK_EQ_U64(info.binding_count, pad && !k ? 2 : d.no_bias ? 3 : 4);
        }
        spvgen_module_destroy(m);
        spvgen_mlp_dispatch dp;
        st = spvgen_mlp_dispatch_for(&p, k, points, &dp, msg, sizeof msg);
        CHECK_MSG(st == SPVGEN_OK, "%s kernel %u: %s", p.name, k, msg);
        if (st != SPVGEN_OK) continue;
        if (pad && !k) { /* the pad kernel: the weights into the copy after the halves */
          CHECK_EQ_U64(dp.kernel, 0);
          CHECK_EQ_U64(dp.binding_count, 2);
          CHECK(dp.bindings[0].buffer == SPVGEN_MLP_BUFFER_WEIGHTS && dp.bindings[0].offset == 0);
          CHECK(dp.bindings[1].buffer == SPVGEN_MLP_BUFFER_WORKSPACE);
          CHECK_EQ_U64(dp.bindings[1].offset, 2 * half);
          CHECK_EQ_U64(dp.push_size, 0);
          CHECK(dp.groups[0] >= 1 && dp.groups[1] == 1 && dp.groups[2] == 1);
          continue;
        }
        const uint32_t l = k - pad;
        const bool first = l == 0, last = l + 1 == p.layer_count;
        CHECK_EQ_U64(dp.binding_count, d.no_bias ? 3 : 4);
        CHECK(dp.bindings[0].buffer == (first ? SPVGEN_MLP_BUFFER_INPUT : SPVGEN_MLP_BUFFER_WORKSPACE));
        CHECK_EQ_U64(dp.bindings[0].offset, first ? 0 : ((l - 1) % 2) * half);
        CHECK(dp.bindings[1].buffer == (pad ? SPVGEN_MLP_BUFFER_WORKSPACE : SPVGEN_MLP_BUFFER_WEIGHTS));
        CHECK_EQ_U64(dp.bindings[1].offset, pad ? 2 * half + pm[l] : p.layers[l].matrix_offset);
        CHECK_EQ_U64(dp.bindings[1].offset % 256 == 0 || !pad, 1);
        CHECK(dp.bindings[2].buffer == (last ? SPVGEN_MLP_BUFFER_OUTPUT : SPVGEN_MLP_BUFFER_WORKSPACE));
        CHECK_EQ_U64(dp.bindings[2].offset, last ? 0 : (l % 2) * half);
        if (!d.no_bias) {
          CHECK(dp.bindings[3].buffer == (pad ? SPVGEN_MLP_BUFFER_WORKSPACE : SPVGEN_MLP_BUFFER_WEIGHTS));
          CHECK_EQ_U64(dp.bindings[3].offset, pad ? 2 * half + pb[l] : p.layers[l].bias_offset);
        }
        spvgen_gemm_push push;
        CHECK_EQ_U64(dp.push_size, sizeof push);
        memcpy(&push, dp.push, sizeof push);
        CHECK_EQ_U64(push.m, first || last ? points : rows); /* between workspace planes: whole rows */
        CHECK_EQ_U64(push.n, pad_n(&p, l));
        CHECK_EQ_U64(push.k, l ? pad_n(&p, l - 1) : p.layers[0].inputs);
        CHECK_EQ_U64(push.ldb, pad ? pad_ldb(&p, l) : p.layers[l].row_stride / 2);
        CHECK_EQ_U64(push.lda, first ? d.input_width : p.workspace_ld);
        CHECK_EQ_U64(push.ldd, last ? d.output_width : p.workspace_ld);
        /* padded: the hidden-to-hidden GEMMs are whole 64s in N and K */
        if (pad && !first && !last) CHECK(push.n % 64 == 0 && push.k % 64 == 0 && push.ldb % 64 == 0);
        /* the kernel it shares words with: the first layer of its GEMM */
        uint32_t same = l;
        for (uint32_t j = 0; j < l; j++)
          if (p.layer_gemm[j] == p.layer_gemm[l]) {
            same = j;
            break;
          }
        CHECK_EQ_U64(dp.kernel, same + pad);
        if (same != l && words[same + pad] && words[k])
          CHECK(count[same + pad] == count[k] && !memcmp(words[same + pad], words[k], count[k] * 4));
      }
      for (uint32_t k = 0; k < p.layer_count + pad; k++) free(words[k]);
    }
  }
}

/* A network of hidden widths off 64 runs the GEMM kernels of the same network at the
 * widths rounded up to 64 (36-250x4-58 and 36-256x4-58: the same GEMM classes), and a
 * network of whole 64s is planned as before padding existed: no pad kernel, the GEMMs on
 * the weights themselves. */
static void test_layers_padded_gemms_are_the_whole_widths(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc a = net(36, 250, 4, 58, SPVGEN_MLP_ACT_LEAKY_RELU), b = net(36, 256, 4, 58, SPVGEN_MLP_ACT_LEAKY_RELU);
  spvgen_mlp_config pa, pb;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&a, &caps, &pa, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(spvgen_mlp_plan(&b, &caps, &pb, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(pa.pad_width, 64);
  CHECK_EQ_U64(pb.pad_width, 0);
  CHECK_EQ_U64(spvgen_mlp_kernel_count(&pb), pb.layer_count);
  CHECK_EQ_U64(pa.gemm_count, pb.gemm_count);
  CHECK_EQ_U64(pa.workspace_ld, pb.workspace_ld);
  for (uint32_t i = 0; i < pa.gemm_count; i++) CHECK_STR_EQ(pa.gemms[i].name, pb.gemms[i].name);
  CHECK_MSG(pa.compile_ms > pb.compile_ms && pa.compile_ms <= pb.compile_ms + 50, "%u ms padded, %u ms whole",
            pa.compile_ms, pb.compile_ms);
  CHECK_CONTAINS(pa.name, "layers 36-250x4-58 leaky_relu");
  CHECK_CONTAINS(pa.name, " pad64");
  CHECK(strstr(pb.name, "pad") == NULL);
  /* the padded plan's workspace: the whole-64 plan's and the copy of the weights */
  CHECK(spvgen_mlp_workspace_bytes(&pa, 1000) > spvgen_mlp_workspace_bytes(&pb, 1000) + pb.weight_bytes / 2);
  /* training keeps the real widths (its step's GEMMs take the unpadded net) */
  spvgen_mlp_train_desc td;
  memset(&td, 0, sizeof td);
  td.net = a;
  spvgen_mlp_train_config tp;
  CHECK_MSG(spvgen_mlp_train_plan(&td, &caps, &tp, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(tp.net.pad_width, 0);
  CHECK_EQ_U64(spvgen_mlp_kernel_count(&tp.net), tp.net.layer_count);
  CHECK(strstr(tp.net.name, "pad") == NULL);
  CHECK_EQ_U64(tp.net.workspace_ld, 256); /* 250 in whole 16 bytes */
  CHECK_EQ_U64(tp.net.features & pb.features & SPVGEN_FEATURE_FLOAT16, SPVGEN_FEATURE_FLOAT16);
  CHECK_EQ_U64(tp.net.features & SPVGEN_FEATURE_VULKAN_MEMORY_MODEL, SPVGEN_FEATURE_VULKAN_MEMORY_MODEL);
  for (uint32_t l = 0; l < tp.net.layer_count; l++) { /* the GEMMs of the real widths (classes of one K) */
    const spvgen_gemm_desc *g = &tp.net.gemms[tp.net.layer_gemm[l]].desc;
    if (g->k_fixed) CHECK_EQ_U64(g->k, tp.net.layers[l].inputs);
  }
}

/* The rows between layers: the workspace holds the point count rounded up to 256 (two
 * halves, each at a 256-byte multiple), the GEMM of a layer between two hidden layers is a
 * class of whole rows (m_multiple 256: its launch refuses any other count, and the tiles
 * divide it: no M edge, the edge mode moot) dispatched on the rounded count, and the first
 * and last layers' classes take any count, dispatched on the points themselves, down to
 * one. A layer whose class is the first layer's but for the rows shares that kernel. */
static void test_layers_workspace_rows(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc d = net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.layer_count, 4);
  const spvgen_gemm_config *first = &p.gemms[p.layer_gemm[0]], *mid = &p.gemms[p.layer_gemm[1]],
                           *last = &p.gemms[p.layer_gemm[3]];
  CHECK_EQ_U64(first->desc.m_multiple, 1);
  CHECK_EQ_U64(last->desc.m_multiple, 1);
  CHECK_EQ_U64(mid->desc.m_multiple, 256);
  CHECK_MSG(256 % mid->desc.tile_m == 0, "%s", mid->name);
  CHECK_EQ_U64(p.layer_gemm[2], p.layer_gemm[1]);
  static const uint64_t counts[][2] = {{1, 256}, {255, 256}, {256, 256}, {257, 512}, {512, 512}, {100000, 100096}};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    const uint64_t n = counts[i][0], rows = counts[i][1];
    CHECK_EQ_U64(spvgen_mlp_workspace_bytes(&p, n), 2 * (rows * 256 * 2));
    for (uint32_t l = 0; l < p.layer_count; l++) {
      spvgen_mlp_dispatch dp;
      CHECK_MSG(spvgen_mlp_dispatch_for(&p, l, n, &dp, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      spvgen_gemm_push push;
      memcpy(&push, dp.push, sizeof push);
      CHECK_EQ_U64(push.m, l == 0 || l == 3 ? n : rows);
    }
  }
  spvgen_gemm_args a = {.m = 257, .n = 256, .k = 256, .batch = 1, .lda = 256, .ldb = 256, .ldd = 256};
  spvgen_gemm_launch launch;
  CHECK(spvgen_gemm_launch_for(mid, &a, &launch, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "m_multiple 256");
  /* the first layer's class and the hidden layers' differ only in the rows: one kernel */
  d = net(128, 128, 3, 8, SPVGEN_MLP_ACT_RELU);
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.gemm_count, 2);
  CHECK(p.layer_gemm[1] == p.layer_gemm[0] && p.layer_gemm[2] == p.layer_gemm[0]);
  CHECK_EQ_U64(p.gemms[p.layer_gemm[0]].desc.m_multiple, 1);
}

/* The wide networks share a GEMM among their equal hidden layers: three kernels for
 * 64-256x3-64, whatever its depth. */
static void test_layers_equal_hidden_layers_share_one_gemm(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc d = net(1, 256, 8, 1, SPVGEN_MLP_ACT_RELU);
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.layer_count, 9);
  CHECK_EQ_U64(p.gemm_count, 3);
  for (uint32_t l = 2; l + 1 < p.layer_count; l++) CHECK_EQ_U64(p.layer_gemm[l], p.layer_gemm[1]);
  CHECK_CONTAINS(p.name, "layers 1-256x8-1");
  /* the one-kernel emit refuses a plan of several kernels (it would compute layer 1 only);
   * each kernel emits through spvgen_mlp_emit_kernel */
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(spvgen_mlp_emit(m, &p, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "is 9 kernels (a GEMM per layer); emit each with spvgen_mlp_emit_kernel");
  spvgen_module_reset(m, NULL);
  CHECK(spvgen_mlp_emit_kernel(m, &p, 8, NULL) == SPVGEN_OK);
  spvgen_module_destroy(m);
}

/* The layers' GEMMs are classes of one K (the layer's input width, "K=" in their names)
 * where the plan's SPVGEN_MLP_LAYERS_MAX_GEMMS kernels hold them; a network whose widths
 * need more takes classes of any K instead, which share kernels across input widths, and
 * still plans (10 hidden widths here, padded to multiples of 64: 11 classes of one K,
 * fewer of any K). Both run, every output against float64. */
static void check_result(const mlp_run_result *r, uint64_t points, uint32_t ow, const char *what);

static void test_layers_classes_of_one_k_where_they_fit(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc d = net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  for (uint32_t i = 0; i < p.gemm_count; i++) CHECK_CONTAINS(p.gemms[i].name, "K=");
  spvgen_mlp_desc w = net(16, 32, 10, 8, SPVGEN_MLP_ACT_RELU);
  /* (padded to 64, 128, ..., 512, 128, 256: ten inputs widths, nine distinct, after the
   * padding too) */
  static const uint32_t widths[10] = {32, 80, 144, 208, 272, 336, 400, 464, 100, 200};
  for (int i = 0; i < 10; i++) w.hidden_widths[i] = widths[i];
  CHECK_MSG(spvgen_mlp_plan(&w, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(p.gemm_count <= SPVGEN_MLP_LAYERS_MAX_GEMMS);
  for (uint32_t i = 0; i < p.gemm_count; i++)
    CHECK_MSG(strstr(p.gemms[i].name, "K=") == NULL, "%s: a class of one K in a plan that needs classes of any K",
              p.gemms[i].name);
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const spvgen_mlp_desc nets[2] = {d, w};
  for (int n = 0; n < 2; n++) {
    mlp_run_options o;
    memset(&o, 0, sizeof o);
    o.seed = test_rand_u32() | 1u;
    o.points = 300;
    mlp_run_result r;
    spvgen_status st = mlp_run(ctx, &nets[n], &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "net %d: %s", n, msg);
    if (st == SPVGEN_OK) check_result(&r, o.points, nets[n].output_width, n ? "classes of any K" : "classes of one K");
  }
  spvgen_vk_destroy(ctx);
}

/* AUTO picks layers only where a measured network says it is the fastest class, never
 * from the cost model; spvgen_mlp_plans lists it only when the desc names it. */
static void test_layers_only_when_asked_for(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc d = net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
  d.variant = SPVGEN_MLP_AUTO;
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  /* AUTO takes layers only from a measured network where it was the fastest class
   * (emitters/mlp/select.c; tests/mlp/test_mlp_select_layers.c), never from the model */
  CHECK_MSG(p.variant != SPVGEN_MLP_LAYERS || !strncmp(p.selection, "measured ", 9), "%s [%s]", p.name, p.selection);
  spvgen_mlp_desc far = net(2, 512, 1, 2, SPVGEN_MLP_ACT_RELU); /* far from every measured network */
  far.variant = SPVGEN_MLP_AUTO;
  CHECK_MSG(spvgen_mlp_plan(&far, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(!strcmp(p.selection, "model") || !strncmp(p.selection, "model,", 6), "%s", p.selection);
  CHECK(p.variant != SPVGEN_MLP_LAYERS);
  static spvgen_mlp_config plans[64];
  uint32_t n = 0;
  CHECK(spvgen_mlp_plans(&d, &caps, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 64; i++) CHECK_MSG(plans[i].variant != SPVGEN_MLP_LAYERS, "%s", plans[i].name);
  d.variant = SPVGEN_MLP_LAYERS;
  CHECK(spvgen_mlp_plans(&d, &caps, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(n, 1);
  CHECK(plans[0].variant == SPVGEN_MLP_LAYERS);
  spvgen_mlp_variant v;
  CHECK(spvgen_mlp_variant_parse("layers", &v) && v == SPVGEN_MLP_LAYERS);
  CHECK_STR_EQ(spvgen_mlp_variant_name(SPVGEN_MLP_LAYERS), "layers");
}

/* AUTO (the shipped H200 measurements, the h100 preset as their sibling) takes layers for
 * a wide network with leaky relu, sigmoid, tanh or exp hidden layers, or a sigmoid output,
 * wherever it takes layers for the same network with relu: the layers planner refused
 * those activations until they were the GEMM epilogue's, and AUTO fell to a class the
 * grid measured several times slower. With the default compile budget and with a budget
 * that lets the measured choice stand (2000 ms or more: docs/design-notes.md, "The
 * selection's layers class"). */
static void test_layers_auto_takes_every_activation_where_it_takes_relu(void) {
  spvgen_device_caps caps = preset("h100");
  static const uint32_t nets[][4] = {{64, 256, 5, 64}, {64, 256, 3, 64}, {1, 256, 8, 64}, {32, 256, 3, 16},
                                     {16, 128, 3, 3}};
  static const spvgen_mlp_activation acts[] = {SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_TANH,
                                               SPVGEN_MLP_ACT_EXP};
  uint32_t layers_for_relu = 0;
  for (int budget = 0; budget < 2; budget++)
    for (size_t n = 0; n < sizeof nets / sizeof nets[0]; n++) {
      spvgen_mlp_desc d = net(nets[n][0], nets[n][1], nets[n][2], nets[n][3], SPVGEN_MLP_ACT_RELU);
      d.variant = SPVGEN_MLP_AUTO;
      d.compile_budget_ms = budget ? 5000 : 0;
      spvgen_mlp_config relu, p;
      char msg[512];
      CHECK_MSG(spvgen_mlp_plan(&d, &caps, &relu, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      layers_for_relu += relu.variant == SPVGEN_MLP_LAYERS;
      for (size_t a = 0; a <= sizeof acts / sizeof acts[0]; a++) {
        spvgen_mlp_desc x = d;
        if (a < sizeof acts / sizeof acts[0]) x.activation = acts[a];
        else x.output_activation = SPVGEN_MLP_ACT_SIGMOID;
        spvgen_status st = spvgen_mlp_plan(&x, &caps, &p, msg, sizeof msg);
        CHECK_MSG(st == SPVGEN_OK, "%s", msg);
        if (st != SPVGEN_OK) continue;
        CHECK_MSG((p.variant == SPVGEN_MLP_LAYERS) == (relu.variant == SPVGEN_MLP_LAYERS),
                  "%u-%ux%u-%u budget %u %s: %s [%s], relu: %s [%s]", nets[n][0], nets[n][1], nets[n][2], nets[n][3],
                  x.compile_budget_ms, a < sizeof acts / sizeof acts[0] ? spvgen_mlp_activation_name(acts[a]) : "sigmoid out",
                  p.name, p.selection, relu.name, relu.selection);
      }
    }
  CHECK_MSG(layers_for_relu >= 3, "AUTO took layers for %u relu networks", layers_for_relu);
}

/* AUTO on the shipped H200 measurements (the h100 preset as their sibling) takes layers
 * for 64-256x3-64 (relu and tanh) and 64-256x5-64 at the default compile budget, for the
 * reason that it measured fastest there, with no budget stand-in: the plans are
 * estimated at 904 ms, under the budget's 1000, because the hidden-to-hidden GEMMs run
 * whole tiles of rows and the first layer's GEMM takes the edge clamp (with every GEMM
 * taking any point count, 1,580 ms, AUTO took mat p64, measured 0.70-0.76x layers'
 * speed: bench/results/mlp-2026-11-27-s9.md). */
static void test_layers_auto_within_the_default_budget(void) {
  spvgen_device_caps caps = preset("h100");
  static const struct { uint32_t net[4]; spvgen_mlp_activation act; const char *measured; } cases[] = {
      {{64, 256, 3, 64}, SPVGEN_MLP_ACT_RELU, "measured h200 64-256x3-64 (distance 0)"},
      {{64, 256, 3, 64}, SPVGEN_MLP_ACT_TANH, "measured h200 64-256x3-64 (distance 0.5)"},
      {{64, 256, 5, 64}, SPVGEN_MLP_ACT_RELU, "measured h200 64-256x5-64 (distance 0)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_mlp_desc d = net(cases[i].net[0], cases[i].net[1], cases[i].net[2], cases[i].net[3], cases[i].act);
    d.variant = SPVGEN_MLP_AUTO;
    spvgen_mlp_config p;
    char msg[512];
    CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS && !strcmp(p.selection, cases[i].measured), "%s [%s] %u ms", p.name,
              p.selection, p.compile_ms);
    CHECK_MSG(p.compile_ms <= 1000, "%s: %u ms", p.name, p.compile_ms);
  }
}

/* ---------------------------------------------------------------- refusals ---- */

static void refused(spvgen_mlp_desc d, const spvgen_device_caps *caps, const char *why) {
  spvgen_mlp_config p;
  char msg[512];
  spvgen_status st = spvgen_mlp_plan(&d, caps, &p, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_ERROR_UNSUPPORTED, "expected a refusal naming '%s', got %d: %s", why, (int)st, msg);
  CHECK_CONTAINS(msg, why);
}

static void test_layers_refusals_name_their_reason(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc d = net(2, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
  refused(d, &caps, "layers: encoding hashgrid is not supported");
  d = net(2, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
  refused(d, &caps, "layers: encoding freq is not supported");
  d = net(16, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  d.input_type = SPVGEN_COMPONENT_F32;
  refused(d, &caps, "layers: input_type f32 is not supported");
  d = net(16, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  d.output_type = SPVGEN_COMPONENT_F32;
  refused(d, &caps, "layers: output_type f32 with biases is not supported");
  d = net(16, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  refused(d, &caps, "layers: addressing device-address is not supported");
  d = net(16, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  d.workgroup_size = 64;
  refused(d, &caps, "layers: workgroup_size is not a knob of the layers variant");
  d = net(16, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  d.mat_slab = 32;
  refused(d, &caps, "mat_slab is a knob of the mat variant");
  /* a device whose binding offsets must be coarser than the weight layout's */
  spvgen_device_caps coarse = caps;
  coarse.min_storage_buffer_offset_alignment = 256;
  /* (hidden widths of whole 64s: a padded plan binds its copy's 256-byte pieces instead) */
  d = net(24, 64, 2, 5, SPVGEN_MLP_ACT_RELU);
  refused(d, &coarse, "is not a multiple of the device's minStorageBufferOffsetAlignment 256 (NVIDIA H100");
  d = net(24, 40, 2, 5, SPVGEN_MLP_ACT_RELU);
  {
    spvgen_mlp_config pc;
    char mc[512];
    CHECK_MSG(spvgen_mlp_plan(&d, &coarse, &pc, mc, sizeof mc) == SPVGEN_OK, "%s", mc);
    CHECK_EQ_U64(pc.pad_width, 64);
  }
  /* more GEMM classes than a plan holds: eight hidden layers of one width, the seven
   * 64 -> 64 ones each with another activation, plus the first and the last layer
   * (nine); six hidden layers with five activations past the first (seven: planned) */
  d = net(8, 64, 8, 8, SPVGEN_MLP_ACT_RELU);
  const spvgen_mlp_activation seven[7] = {SPVGEN_MLP_ACT_NONE,    SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_LEAKY_RELU,
                                          SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_SILU,
                                          SPVGEN_MLP_ACT_EXP};
  for (int i = 0; i < 7; i++) d.layer_activations[1 + i] = seven[i];
  refused(d, &caps, "layer 8 needs a GEMM kernel of its own beyond the 8 a plan holds");
  d = net(8, 64, 6, 8, SPVGEN_MLP_ACT_RELU);
  const spvgen_mlp_activation six[6] = {SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_SIGMOID,
                                        SPVGEN_MLP_ACT_EXP, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_SILU};
  for (int i = 0; i < 6; i++) d.layer_activations[i] = six[i];
  {
    spvgen_mlp_config p7;
    char m7[512];
    CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p7, m7, sizeof m7) == SPVGEN_OK, "%s", m7);
    CHECK_EQ_U64(p7.gemm_count, 7);
  }

  /* the one-shot, the function shape and training refuse it; indices past the count */
  d = net(16, 64, 2, 8, SPVGEN_MLP_ACT_RELU);
  spvgen_kernel k;
  char msg[512];
  CHECK(spvgen_mlp(&d, &caps, &k, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "emit each with spvgen_mlp_emit_kernel");
  spvgen_mlp_config p;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK);
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_mlp_function_info fi;
  memset(&fi, 0, sizeof fi);
  CHECK(spvgen_mlp_emit_function(m, &p, &fi) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(spvgen_module_error(m), "the layers variant runs a GEMM per layer");
  spvgen_module_reset(m, NULL);
  CHECK(spvgen_mlp_emit_kernel(m, &p, 3, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_module_error(m), "kernel 3: the plan has 3");
  spvgen_module_destroy(m);
  spvgen_mlp_dispatch dp;
  CHECK(spvgen_mlp_dispatch_for(&p, 3, 100, &dp, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "dispatch 3: the plan has 3");
  CHECK(spvgen_mlp_dispatch_for(&p, 0, 1ull << 25, &dp, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "at most 16777216 rows");
  /* training (tests/mlp/test_mlp_layers_train.c) plans with every activation and
   * without biases; its net is an inference plan like any other (sigmoid in its GEMMs'
   * epilogues) */
  spvgen_mlp_train_desc td;
  memset(&td, 0, sizeof td);
  td.net = d;
  spvgen_mlp_train_config tp;
  CHECK(spvgen_mlp_train_plan(&td, &caps, &tp, msg, sizeof msg) == SPVGEN_OK);
  td.net.activation = SPVGEN_MLP_ACT_SILU;
  CHECK_MSG(spvgen_mlp_train_plan(&td, &caps, &tp, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  td.net.activation = SPVGEN_MLP_ACT_SIGMOID;
  td.net.no_bias = true;
  CHECK_MSG(spvgen_mlp_train_plan(&td, &caps, &tp, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(tp.net.layers[0].activation == SPVGEN_MLP_ACT_SIGMOID);
  CHECK(tp.net.gemms[tp.net.layer_gemm[0]].desc.activation == SPVGEN_ACTIVATION_SIGMOID);
  CHECK_MSG(spvgen_mlp_dispatch_for(&tp.net, 0, 100, &dp, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
}

/* Every MLP activation is in the layers variant's GEMM epilogue: each layer's GEMM class
 * carries the layer's activation (leaky relu with the net's slope), and a layer of
 * another activation is another kernel. */
static void test_layers_every_activation_is_a_gemm_epilogue(void) {
  spvgen_device_caps caps = preset("h100");
  static const spvgen_mlp_activation acts[] = {SPVGEN_MLP_ACT_NONE,    SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_LEAKY_RELU,
                                               SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_SILU,
                                               SPVGEN_MLP_ACT_EXP};
  for (size_t h = 0; h < sizeof acts / sizeof acts[0]; h++) {
    spvgen_mlp_desc d = net(64, 256, 3, 64, acts[h]);
    d.output_activation = acts[(h + 3) % 7];
    d.leaky_slope = 0.2f;
    spvgen_mlp_config p;
    char msg[512];
    spvgen_status st = spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "hidden %s: %s", spvgen_mlp_activation_name(acts[h]), msg);
    if (st != SPVGEN_OK) continue;
    for (uint32_t l = 0; l < p.layer_count; l++) {
      const spvgen_gemm_desc *g = &p.gemms[p.layer_gemm[l]].desc;
      CHECK_MSG(g->activation == p.layers[l].activation, "%s layer %u: GEMM %s", p.name, l,
                spvgen_activation_name(g->activation));
      CHECK(g->leaky_slope == (g->activation == SPVGEN_ACTIVATION_LEAKY_RELU ? 0.2f : 0.0f));
    }
  }
  /* one hidden layer of another activation than the two of its class: its own kernel */
  spvgen_mlp_desc d = net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
  spvgen_mlp_config p;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  const uint32_t gemms = p.gemm_count;
  d.layer_activations[1] = SPVGEN_MLP_ACT_TANH;
  CHECK(spvgen_mlp_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(p.gemm_count, gemms + 1);
  CHECK(p.layer_gemm[1] != p.layer_gemm[2]);
}

/* ------------------------------------------------------------------ device ---- */

static void check_result(const mlp_run_result *r, uint64_t points, uint32_t ow, const char *what) {
  CHECK_EQ_U64(r->checked, points * ow);
  CHECK_MSG(r->bad == 0 || r->first_bad_point < points, "%s [%s]: %llu outputs written past the %llu points (the "
            "output's guard), the first at point %llu", what, r->plan.name, (unsigned long long)r->bad,
            (unsigned long long)points, (unsigned long long)r->first_bad_point);
  CHECK_MSG(r->bad == 0 || r->first_bad_point >= points,
            "%s [%s]: %llu of %llu outputs wrong; first point %llu component %llu: gpu %.7g cpu %.7g tol %.3g", what,
            r->plan.name, (unsigned long long)r->bad, (unsigned long long)r->checked,
            (unsigned long long)r->first_bad_point, (unsigned long long)r->first_bad_component, r->first_bad_gpu,
            r->first_bad_ref, r->first_bad_tol);
  fprintf(stderr, "  %-44s %-10s %llu outputs, max |err| %.3g (tolerance there %.3g), worst err/tol %.3f\n",
          r->plan.name, what, (unsigned long long)r->checked, r->max_err, r->max_err_tol, r->worst_ratio);
}

/* Every case through `spvgen run mlp`'s lifecycle (a point count that is no multiple of
 * any tile), and through `spvgen bench mlp`'s session, every output checked. */
static void test_layers_networks_match_cpu(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  for (int i = 0; i < CASES; i++) {
    spvgen_mlp_desc d = case_net(i);
    mlp_run_options o;
    memset(&o, 0, sizeof o);
    o.seed = test_rand_u32() | 1u;
    o.points = 333;
    mlp_run_result r;
    char msg[512];
    spvgen_status st = mlp_run(ctx, &d, &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "case %d: %s", i, msg);
    if (st == SPVGEN_OK) check_result(&r, o.points, d.output_width, "run");
    /* the session (bench mlp) */
    spvgen_mlp_config p;
    st = spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) continue;
    o.points = 257;
    o.repeats = 2;
    mlp_session *s = NULL;
    st = mlp_session_open(ctx, &p, &o, &s, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st == SPVGEN_OK) st = mlp_session_run(s, &p, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "case %d session: %s", i, msg);
    if (st == SPVGEN_OK) check_result(&r, o.points, d.output_width, "session");
    mlp_session_close(s);
  }
  spvgen_vk_destroy(ctx);
}

/* One network at one point count through both run paths (`spvgen run mlp`'s lifecycle
 * and `spvgen bench mlp`'s session on plan p), every output checked; name: the plan's
 * name must hold it (NULL: not checked). */
static void run_both_paths(spvgen_vk_context *ctx, const spvgen_mlp_desc *d, const spvgen_mlp_config *p,
                           uint64_t points, int i, const char *name) {
  mlp_run_options o;
  memset(&o, 0, sizeof o);
  o.seed = test_rand_u32() | 1u;
  o.points = points;
  mlp_run_result r;
  char msg[512];
  spvgen_status st = mlp_run(ctx, d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "net %d, %llu points: %s", i, (unsigned long long)points, msg);
  if (st == SPVGEN_OK) {
    if (name) CHECK_MSG(strstr(r.plan.name, name) != NULL, "%s lacks %s", r.plan.name, name);
    check_result(&r, points, d->output_width, "run");
  }
  o.repeats = 2;
  mlp_session *s = NULL;
  st = mlp_session_open(ctx, p, &o, &s, msg, sizeof msg);
  if (st == SPVGEN_OK) st = mlp_session_run(s, p, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "net %d session, %llu points: %s", i, (unsigned long long)points, msg);
  if (st == SPVGEN_OK) check_result(&r, points, d->output_width, "session");
  mlp_session_close(s);
}

/* Point counts around the workspace's rows: 1, 257 (a row past a multiple of 256: the
 * hidden layers run 511 rows the caller does not have) and 512, through both run paths,
 * every output checked against float64, on networks of two hidden-to-hidden layers (the
 * workspace halves both written past the points). The runs NaN-fill the workspace (its
 * rows past the points hold NaN: one read into a real row fails the check) and keep a
 * NaN guard past the output that must stay untouched (a layer that wrote past the points
 * fails it): dispatching the last layer on the rounded rows fails this test with every
 * output matching and the guard written (257 points: 255 rows x 8 outputs), and sizing
 * the workspace halves for the points instead of the rows fails it with NaN outputs. */
static void test_layers_point_counts_match_cpu(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_mlp_desc nets[3] = {net(16, 64, 3, 8, SPVGEN_MLP_ACT_RELU), net(8, 32, 3, 4, SPVGEN_MLP_ACT_SILU),
                             net(24, 40, 3, 5, SPVGEN_MLP_ACT_TANH)};
  static const uint64_t counts[3] = {1, 257, 512};
  for (int i = 0; i < 3; i++) {
    spvgen_mlp_config p;
    char msg[512];
    spvgen_status st = spvgen_mlp_plan(&nets[i], spvgen_vk_caps(ctx), &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "net %d: %s", i, msg);
    if (st != SPVGEN_OK) continue;
    for (int c = 0; c < 3; c++) run_both_paths(ctx, &nets[i], &p, counts[c], i, NULL);
  }
  spvgen_vk_destroy(ctx);
}

/* Padded networks (hidden widths off 64: the pad kernel copies the weights into the
 * workspace, zero-padded, and the GEMMs run on whole 64s) through both run paths, every
 * output of every point against float64, at 1 and 257 points, on a NaN-filled workspace
 * (the copy's every word, zeros included, must be written by the pad kernel before a GEMM
 * reads it: a pad kernel that skipped the zeros fails here with NaN outputs, checked by
 * hand). Hidden width 250 (a hidden-to-hidden layer), 100, 223 and 64 mixed with an odd
 * input width, sigmoid and exp hidden (act(0) = 0.5 and 1 in the pad columns: the next
 * layer's zero columns must cancel them), no biases with an f32 output, tanh at the
 * output. */
static void test_layers_padded_networks_match_cpu(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_mlp_desc nets[4];
  nets[0] = net(16, 250, 2, 9, SPVGEN_MLP_ACT_RELU);
  nets[1] = net(7, 100, 3, 5, SPVGEN_MLP_ACT_SIGMOID);
  nets[1].hidden_widths[1] = 223, nets[1].hidden_widths[2] = 64;
  nets[2] = net(12, 50, 2, 3, SPVGEN_MLP_ACT_EXP);
  nets[2].hidden_widths[1] = 130;
  nets[2].no_bias = true;
  nets[2].output_type = SPVGEN_COMPONENT_F32;
  nets[3] = net(9, 223, 3, 7, SPVGEN_MLP_ACT_LEAKY_RELU);
  nets[3].output_activation = SPVGEN_MLP_ACT_TANH;
  static const uint64_t counts[2] = {257, 1};
  for (int i = 0; i < 4; i++) {
    spvgen_mlp_config p;
    char msg[512];
    spvgen_status st = spvgen_mlp_plan(&nets[i], spvgen_vk_caps(ctx), &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "net %d: %s", i, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_MSG(p.pad_width == 64 && spvgen_mlp_kernel_count(&p) == p.layer_count + 1, "net %d: %s", i, p.name);
    for (int c = 0; c < 2; c++) run_both_paths(ctx, &nets[i], &p, counts[c], i, " pad64");
  }
  spvgen_vk_destroy(ctx);
}

/* The check is not blind to the layers: a plan whose hidden GEMM lost its ReLU (the
 * reference keeps it) fails it. */
static void test_layers_check_fails_without_an_activation(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_mlp_desc d = case_net(0);
  spvgen_mlp_config p;
  char msg[512];
  spvgen_status st = spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK) {
    p.gemms[p.layer_gemm[1]].desc.activation = SPVGEN_ACTIVATION_NONE;
    mlp_run_options o;
    memset(&o, 0, sizeof o);
    o.seed = 7;
    o.points = 200;
    mlp_run_result r;
    st = mlp_run_plan(ctx, &p, &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    CHECK_EQ_U64(r.checked, 200ull * d.output_width);
    CHECK_MSG(r.bad > 0, "the check passed a network without its hidden ReLU");
  }
  spvgen_vk_destroy(ctx);
}

/* Point counts past 65535 GEMM tiles of M (4,194,305 points over 64-row tiles): each
 * layer's GEMM folds its M tiles into dimension 0 (spvgen/gemm.h, "Limits"), so the
 * network that AUTO gives the layers variant runs at 4-16 million points; 2^24 + 1
 * points stay refused (the GEMM's M). tests/gpu/test_gpu_mlp.c runs it on a GPU. */
static void test_layers_dispatch_past_the_grid_limit(void) {
  spvgen_device_caps caps = preset("h100");
  spvgen_mlp_desc d = net(64, 256, 1, 1, SPVGEN_MLP_ACT_TANH);
  d.variant = SPVGEN_MLP_LAYERS;
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  static const uint64_t counts[] = {4194305, 16u << 20};
  for (size_t c = 0; c < 2; c++)
    for (uint32_t l = 0; l < spvgen_mlp_kernel_count(&p); l++) {
      spvgen_mlp_dispatch dp;
      CHECK_MSG(spvgen_mlp_dispatch_for(&p, l, counts[c], &dp, msg, sizeof msg) == SPVGEN_OK, "%llu points: %s",
                (unsigned long long)counts[c], msg);
      CHECK(dp.groups[0] <= 65535 && dp.groups[1] <= 65535 && dp.groups[2] <= 65535);
      uint32_t tile_m = p.gemms[p.layer_gemm[l]].desc.tile_m, tile_n = p.gemms[p.layer_gemm[l]].desc.tile_n;
      uint64_t tiles_m = (counts[c] + tile_m - 1) / tile_m;
      uint32_t n = l + 1 < p.layer_count ? d.hidden_width : d.output_width, tiles_n = (n + tile_n - 1) / tile_n;
      uint64_t fold = (tiles_m + 65534) / 65535;
      CHECK_MSG(dp.groups[0] == tiles_n * fold && (uint64_t)dp.groups[1] * fold >= tiles_m,
                "layer %u, %llu points: grid %u x %u for %llu x %u tiles", l, (unsigned long long)counts[c],
                dp.groups[0], dp.groups[1], (unsigned long long)tiles_m, tiles_n);
      if (c == 0 && tile_m <= 64) CHECK(fold > 1);
    }
  spvgen_mlp_dispatch dp;
  CHECK(spvgen_mlp_dispatch_for(&p, 0, (16u << 20) + 1, &dp, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "at most 16777216 rows");
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_layers_kernels_validate_and_dispatch_as_documented),
      TEST_CASE(test_layers_padded_gemms_are_the_whole_widths),
      TEST_CASE(test_layers_workspace_rows),
      TEST_CASE(test_layers_equal_hidden_layers_share_one_gemm),
      TEST_CASE(test_layers_classes_of_one_k_where_they_fit),
      TEST_CASE(test_layers_only_when_asked_for),
      TEST_CASE(test_layers_auto_takes_every_activation_where_it_takes_relu),
      TEST_CASE(test_layers_auto_within_the_default_budget),
      TEST_CASE(test_layers_refusals_name_their_reason),
      TEST_CASE(test_layers_every_activation_is_a_gemm_epilogue),
      TEST_CASE(test_layers_networks_match_cpu),
      TEST_CASE(test_layers_point_counts_match_cpu),
      TEST_CASE(test_layers_padded_networks_match_cpu),
      TEST_CASE(test_layers_check_fails_without_an_activation),
      TEST_CASE(test_layers_dispatch_past_the_grid_limit),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
