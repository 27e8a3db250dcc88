/* tests/mlp/test_mlp_select_layers.c — the MLP selection's layers class end to end:
 * tools/gen_mlp_select.py writes a selection table from a synthetic grid TSV that has
 * layers rows (tests/data/mlp/select-layers.tsv, on the h100 preset's device), and this
 * binary links that table in place of the shipped one (tests/CMakeLists.txt). Then:
 *   - AUTO takes layers where the nearest measured network's fastest allowed class is
 *     layers (row-major weights), and not where another class is faster (weights auto:
 *     the optimal-layout vec variant on the same networks; a narrow silu network);
 *   - where the layers planner refuses the desc (a weight offset the device cannot bind,
 *     f32 points, device addresses, a knob it does not take) the measured network's next
 *     class is planned, never a failure;
 *   - the compile budget: layers gives way to a class that keeps half its measured speed
 *     and fits the budget, and stays (over the budget) where none does;
 *   - spvgen_mlp (one kernel) never takes layers; the cost model never proposes it;
 *   - every kernel of a chosen layers plan validates. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "mlp_net.h"
#include "module_check.h"
#include "select.h"
/* select.h: emitters/mlp, the table this binary links */
#include "spvgen/mlp.h"

static spvgen_device_caps h100(void) {
  spvgen_device_caps c;
  spvgen_caps_preset("h100", &c);
  return c;
}

static spvgen_mlp_desc net(uint32_t in, uint32_t width, uint32_t count, uint32_t out, spvgen_mlp_activation act) {
  spvgen_mlp_desc d = test_mlp_net(in, width, count, out, act);
  d.compile_budget_ms = 10000; /* the choice alone (the budget's own tests below) */
  return d;
}

/* The measured network of the synthetic table with these widths (NULL: none). */
static const mlp_select_entry *entry(uint32_t in, uint32_t width, uint32_t depth, uint32_t out) {
  spvgen_device_caps caps = h100();
  const mlp_select_device *dv = mlp_select_find_device(&caps);
  for (uint32_t i = 0; dv && i < dv->entry_count; i++) {
    const mlp_select_entry *e = &dv->entries[i];
    if (e->encoded_width == in && e->hidden_width == width && e->depth == depth && e->output_width == out) return e;
  }
  return NULL;
}

static spvgen_mlp_config plan_of(spvgen_mlp_desc d) {
  spvgen_device_caps caps = h100();
  spvgen_mlp_config p;
  char msg[512];
  spvgen_status st = spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%u-%ux%u-%u: %s", d.input_width, d.hidden_width, d.hidden_count, d.output_width, msg);
  if (st != SPVGEN_OK) memset(&p, 0, sizeof p);
  return p;
}

static void test_the_table_holds_the_layers_rows(void) {
  spvgen_device_caps caps = h100();
  const mlp_select_device *dv = mlp_select_find_device(&caps);
  CHECK_MSG(dv && dv->device_id == caps.device_id, "the synthetic table names the h100 preset's device");
  const mlp_select_entry *e = entry(64, 256, 3, 64);
  CHECK(e != NULL);
  if (e) {
    CHECK(e->cls[MLP_CLASS_LAYERS].gpts > 0.36f && e->cls[MLP_CLASS_LAYERS].gpts < 0.37f);
    CHECK_EQ_U64(e->cls[MLP_CLASS_LAYERS].workgroup_size, 0); /* no knobs of its own */
  }
  e = entry(8, 64, 3, 8);
  CHECK(e && e->cls[MLP_CLASS_LAYERS].gpts == 0); /* not measured there */
}

static void test_layers_where_it_is_the_measured_best(void) {
  /* row-major: layers 0.364 vs mat 0.254; 0.382 vs 0.303; 0.126 vs 0.043 */
  const uint32_t nets[3][4] = {{64, 256, 3, 64}, {32, 256, 3, 16}, {1, 256, 8, 1}};
  for (int i = 0; i < 3; i++) {
    spvgen_mlp_desc d = net(nets[i][0], nets[i][1], nets[i][2], nets[i][3], SPVGEN_MLP_ACT_RELU);
    spvgen_mlp_config p = plan_of(d);
    CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS, "%s [%s]", p.name, p.selection);
    CHECK_MSG(!strncmp(p.selection, "measured h100", 13), "%s", p.selection);
    CHECK(p.desc.weight_layout == SPVGEN_MLP_WEIGHTS_ROW_MAJOR);
    CHECK_EQ_U64(spvgen_mlp_kernel_count(&p), p.layer_count);
    /* weights auto: the optimal-layout vec plan is faster on all three (0.395, 0.881, 0.143) */
    d.weight_layout = SPVGEN_MLP_WEIGHTS_AUTO;
    p = plan_of(d);
    CHECK_MSG(p.variant == SPVGEN_MLP_VEC && p.desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL, "%s [%s]", p.name,
              p.selection);
    /* optimal weights: never layers (row-major only) */
    d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
    p = plan_of(d);
    CHECK_MSG(p.variant == SPVGEN_MLP_VEC, "%s", p.name);
  }
  /* a network near the measured one (one hidden layer more): its measurements decide */
  spvgen_mlp_config p = plan_of(net(64, 256, 4, 64, SPVGEN_MLP_ACT_RELU));
  CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS, "%s [%s]", p.name, p.selection);
}

static void test_not_where_another_class_is_faster(void) {
  /* 16-128x3-3 silu: in the synthetic table layers is far slower than the fused classes */
  spvgen_mlp_desc d = net(16, 128, 3, 3, SPVGEN_MLP_ACT_SILU);
  for (int layout = 0; layout < 2; layout++) {
    d.weight_layout = layout ? SPVGEN_MLP_WEIGHTS_AUTO : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    spvgen_mlp_config p = plan_of(d);
    CHECK_MSG(p.variant == SPVGEN_MLP_VEC, "%s [%s]", p.name, p.selection);
  }
  /* networks with no layers measurement near them */
  spvgen_mlp_config p = plan_of(net(8, 64, 3, 8, SPVGEN_MLP_ACT_RELU));
  CHECK_MSG(p.variant != SPVGEN_MLP_LAYERS, "%s", p.name);
  /* far from every measured network: the cost model, which never proposes layers (the
   * synthetic table has a layers fit: the model path still leaves it out) */
  spvgen_device_caps caps = h100();
  const mlp_select_device *dv = mlp_select_find_device(&caps);
  CHECK(dv && (dv->model.a[MLP_CLASS_LAYERS] > 0 || dv->model.b[MLP_CLASS_LAYERS] > 0 ||
               dv->model.c[MLP_CLASS_LAYERS] > 0));
  p = plan_of(net(2, 512, 1, 2, SPVGEN_MLP_ACT_RELU));
  CHECK_MSG(!strcmp(p.selection, "model") || strstr(p.selection, "model,") == p.selection, "%s", p.selection);
  CHECK_MSG(p.variant != SPVGEN_MLP_LAYERS, "%s", p.name);
}

/* Where the layers planner refuses, the measured network's next class (mat here: 0.254 on
 * 64-256x3-64 row-major; vec 0.0925 / mat 0.303 on 32-256x3-16), never an error. */
static void test_refused_layers_falls_back(void) {
  for (int i = 0; i < 5; i++) {
    spvgen_device_caps caps = h100();
    spvgen_mlp_desc d = net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
    const char *what = "";
    switch (i) {
    case 0: /* a layer's matrix after a 512-byte bias, at an offset the device cannot bind */
      caps.min_storage_buffer_offset_alignment = 1024, what = "offset alignment 1024";
      break;
    case 1: d.input_type = SPVGEN_COMPONENT_F32, what = "f32 points"; break;
    case 2: d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS, what = "device addresses"; break;
    case 3: d.workgroup_size = 256, what = "workgroup_size"; break;
    case 4: d.output_type = SPVGEN_COMPONENT_F32, what = "f32 output with biases"; break;
    }
    /* the layers planner itself refuses it */
    spvgen_mlp_desc l = d;
    l.variant = SPVGEN_MLP_LAYERS;
    spvgen_mlp_config p;
    char msg[512];
    CHECK_MSG(spvgen_mlp_plan(&l, &caps, &p, msg, sizeof msg) != SPVGEN_OK, "%s: layers planned", what);
    /* AUTO: the next measured class */
    spvgen_status st = spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
    if (st != SPVGEN_OK) continue;
    CHECK_MSG(p.variant == SPVGEN_MLP_MAT, "%s: %s [%s]", what, p.name, p.selection);
    CHECK_MSG(!strncmp(p.selection, "measured h100 64-256x3-64", 25), "%s: %s", what, p.selection);
  }
}

/* The budget against the layers plans' estimates (the sum of their GEMM kernels'): on
 * 64-256x3-64 the plan fits the default budget (1000 ms), its hidden-to-hidden GEMMs on
 * whole tiles of rows (no M edge), so AUTO takes the measured layers; a budget under that
 * estimate makes the first layer's GEMM trade the edge branch for clamp (layers.c,
 * layers_fit_budget), which fits it at a lower estimate; a budget under that gets mat,
 * which keeps half of layers' measured speed within it. On 1-256x8-1 no class keeps half
 * (mat 0.043 of 0.126), so layers stays, over the budget, and says so. */
static void test_compile_budget(void) {
  spvgen_device_caps caps = h100();
  spvgen_mlp_desc d = net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
  d.variant = SPVGEN_MLP_LAYERS;
  d.compile_budget_ms = 0; /* the default */
  spvgen_mlp_config layers, clamped, wide;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &layers, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(layers.compile_ms <= 1000, "layers' estimate %u ms", layers.compile_ms);
  const spvgen_gemm_config *g0 = &layers.gemms[layers.layer_gemm[0]];
  CHECK_MSG(g0->desc.edge == SPVGEN_GEMM_EDGE_BRANCH, "%s", g0->name);
  d.compile_budget_ms = 5000; /* a larger budget changes nothing that fits */
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &wide, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(wide.gemms[wide.layer_gemm[0]].desc.edge == SPVGEN_GEMM_EDGE_BRANCH && wide.compile_ms == layers.compile_ms,
            "%s: %u ms", wide.gemms[wide.layer_gemm[0]].name, wide.compile_ms);
  d.compile_budget_ms = layers.compile_ms - 1; /* just under: the first layer clamps */
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &clamped, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(clamped.gemms[clamped.layer_gemm[0]].desc.edge == SPVGEN_GEMM_EDGE_CLAMP &&
                clamped.compile_ms < layers.compile_ms,
            "%s: %u ms", clamped.gemms[clamped.layer_gemm[0]].name, clamped.compile_ms);
  d.variant = SPVGEN_MLP_AUTO;
  d.compile_budget_ms = 0; /* the default */
  spvgen_mlp_config p = plan_of(d);
  CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS && p.compile_ms == layers.compile_ms, "%s [%s] %u ms", p.name,
            p.selection, p.compile_ms);
  CHECK_MSG(!strstr(p.selection, "budget"), "%s", p.selection);
  d.compile_budget_ms = clamped.compile_ms - 1; /* under every layers plan */
  spvgen_mlp_desc dm = d;
  dm.variant = SPVGEN_MLP_MAT;
  dm.compile_budget_ms = 0;
  const spvgen_mlp_config mat = plan_of(dm);
  p = plan_of(d);
  if (mat.compile_ms <= d.compile_budget_ms) { /* mat fits: it keeps half of layers' speed */
    CHECK_MSG(p.variant == SPVGEN_MLP_MAT && p.compile_ms <= d.compile_budget_ms, "%s [%s] %u ms", p.name,
              p.selection, p.compile_ms);
    CHECK_CONTAINS(p.selection, "compile budget");
  } else { /* nothing measured fits: the cheapest of the plans that keep the speed, saying so */
    CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS && p.compile_ms == clamped.compile_ms, "%s [%s] %u ms (mat %u ms)",
              p.name, p.selection, p.compile_ms, mat.compile_ms);
    CHECK_CONTAINS(p.selection, "over compile budget");
  }
  d.compile_budget_ms = mat.compile_ms; /* mat's own estimate: mat */
  if (mat.compile_ms < clamped.compile_ms) {
    p = plan_of(d);
    CHECK_MSG(p.variant == SPVGEN_MLP_MAT, "%s [%s] %u ms", p.name, p.selection, p.compile_ms);
  }
  const mlp_select_entry *e = entry(64, 256, 3, 64);
  CHECK(e && e->cls[MLP_CLASS_MAT].gpts >= 0.5f * e->cls[MLP_CLASS_LAYERS].gpts);

  d = net(1, 256, 8, 1, SPVGEN_MLP_ACT_RELU);
  d.compile_budget_ms = 0;
  p = plan_of(d);
  CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS, "%s [%s]", p.name, p.selection);
  CHECK_MSG(p.compile_ms > 1000, "%u ms", p.compile_ms);
  CHECK_CONTAINS(p.selection, "over compile budget");
}

/* spvgen_mlp emits one kernel: AUTO chooses among the fused variants there. */
static void test_one_kernel_paths_never_take_layers(void) {
  spvgen_device_caps caps = h100();
  spvgen_mlp_desc d = net(64, 256, 3, 64, SPVGEN_MLP_ACT_RELU);
  spvgen_kernel k;
  char msg[512];
  spvgen_status st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK) {
    CHECK(check_words(k.words, k.word_count));
    spvgen_kernel_free(&k);
  }
  /* spvgen_mlp_plans' candidates stay the fused variants' for AUTO */
  static spvgen_mlp_config plans[64];
  uint32_t n = 0;
  CHECK(spvgen_mlp_plans(&d, &caps, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  CHECK(n > 0);
  for (uint32_t i = 0; i < n && i < 64; i++) CHECK_MSG(plans[i].variant != SPVGEN_MLP_LAYERS, "%s", plans[i].name);
}

/* The layers plan AUTO chose: every kernel emits and validates. */
static void test_chosen_layers_plan_validates(void) {
  spvgen_mlp_config p = plan_of(net(32, 256, 3, 16, SPVGEN_MLP_ACT_RELU));
  CHECK(p.variant == SPVGEN_MLP_LAYERS);
  if (p.variant != SPVGEN_MLP_LAYERS) return;
  for (uint32_t l = 0; l < spvgen_mlp_kernel_count(&p); l++) {
    spvgen_module *m = spvgen_module_create(NULL);
    const uint32_t *w = NULL;
    size_t count = 0;
    spvgen_status st = spvgen_mlp_emit_kernel(m, &p, l, NULL);
    if (st == SPVGEN_OK) st = spvgen_module_finish(m, &w, &count);
    CHECK_MSG(st == SPVGEN_OK, "layer %u: %s", l, spvgen_module_error(m));
    if (st == SPVGEN_OK) CHECK(check_words(w, count));
    spvgen_module_destroy(m);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_the_table_holds_the_layers_rows),
      TEST_CASE(test_layers_where_it_is_the_measured_best),
      TEST_CASE(test_not_where_another_class_is_faster),
      TEST_CASE(test_refused_layers_falls_back),
      TEST_CASE(test_compile_budget),
      TEST_CASE(test_one_kernel_paths_never_take_layers),
      TEST_CASE(test_chosen_layers_plan_validates),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
