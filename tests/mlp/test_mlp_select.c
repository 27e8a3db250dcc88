/* tests/mlp/test_mlp_select.c — how spvgen_mlp_plan chooses the variant, the weight layout
 * and the knobs the desc leaves open (emitters/mlp/select.c), against the measurements it
 * ships (emitters/mlp/select_table.c, whatever grid run wrote it):
 *   - every measured network of the h100 preset's device gets the class that was fastest
 *     there (of all classes with weights auto, of the row-major ones by default), with
 *     that class's measured knobs, and says so in plan.selection;
 *   - a desc that fixes the variant still gets the measured knobs of its class;
 *   - knobs the desc sets are kept;
 *   - far from every measured network, and on devices without measurements, the cost
 *     model decides, and its estimate grows with the network;
 *   - the model's wide term: the fused classes' estimates of the measured 256-wide deep
 *     networks within 2x of their measurements, and a far 256-wide deep network planned
 *     on layers within the default compile budget (session 20);
 *   - hidden widths off 64: the layers class offered, padded, estimated on the padded
 *     widths. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "mlp_net.h"
#include "select.h"
/* select.h: emitters/mlp, the shipped measurements */
#include "spvgen/mlp.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  spvgen_caps_preset(name, &c);
  return c;
}

/* The measurements the h100 preset plans from: its own, or a measured sibling's (the
 * library's lookup: select.c) */
static const mlp_select_device *h100_table(const spvgen_device_caps *caps) { return mlp_select_find_device(caps); }

static int class_of(const spvgen_mlp_config *p) {
  if (p->variant == SPVGEN_MLP_VEC)
    return p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL ? MLP_CLASS_VEC_OPT : MLP_CLASS_VEC;
  return p->variant == SPVGEN_MLP_MAT ? MLP_CLASS_MAT : p->variant == SPVGEN_MLP_LAYERS ? MLP_CLASS_LAYERS : MLP_CLASS_LOOP;
}

static spvgen_mlp_desc desc_of(const mlp_select_entry *e) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = e->encoded_width;
  d.hidden_width = e->hidden_width;
  d.hidden_count = e->depth;
  d.output_width = e->output_width;
  d.activation = e->act_class ? SPVGEN_MLP_ACT_TANH : SPVGEN_MLP_ACT_RELU;
  return d;
}

static void test_measured_networks_choose_their_fastest_class(void) {
  spvgen_device_caps h100 = preset("h100");
  const mlp_select_device *dv = h100_table(&h100);
  CHECK_MSG(dv != NULL, "the table has no entry for the h100 preset's device");
  if (!dv) return;
  uint32_t tried = 0;
  for (uint32_t i = 0; i < dv->entry_count; i++) {
    const mlp_select_entry *e = &dv->entries[i];
    if (e->encoding || !e->depth) continue; /* the desc is rebuilt from the widths */
    bool twin = false; /* an earlier entry the selection cannot tell apart (e.g. sigmoid and tanh) */
    for (uint32_t j = 0; j < i && !twin; j++) {
      const mlp_select_entry *f = &dv->entries[j];
      twin = f->encoded_width == e->encoded_width && f->hidden_width == e->hidden_width && f->depth == e->depth &&
             f->output_width == e->output_width && f->act_class == e->act_class && f->encoding == e->encoding;
    }
    if (twin) continue;
    for (int layout = 0; layout < 2; layout++) {
      int best = -1;
      for (int c = 0; c < MLP_CLASS_COUNT; c++)
        if (e->cls[c].gpts > 0 && (layout || c != MLP_CLASS_VEC_OPT) && (best < 0 || e->cls[c].gpts > e->cls[best].gpts))
          best = c;
      if (best < 0) continue;
      spvgen_mlp_desc d = desc_of(e);
      /* the layers class's GEMM epilogue has silu, not tanh, of the second activation class */
      if (best == MLP_CLASS_LAYERS && e->act_class) d.activation = SPVGEN_MLP_ACT_SILU;
      d.weight_layout = layout ? SPVGEN_MLP_WEIGHTS_AUTO : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      spvgen_mlp_config p;
      char msg[512];
      CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      char want[64];
      snprintf(want, sizeof want, "measured %s", dv->name);
      CHECK_MSG(!strncmp(p.selection, want, strlen(want)), "%s: selection '%s' (want '%s')", p.name, p.selection, want);
      if ((strstr(p.selection, "compile budget") && !strstr(p.selection, "over compile budget")) ||
          strstr(p.selection, "cheapest compile")) {
        /* the measured best is estimated over the compile budget: its stand-in keeps at
         * least half the network's measured best (the rule) */
        CHECK_MSG(e->cls[class_of(&p)].gpts >= 0.5f * e->cls[best].gpts,
                  "%u-%ux%u-%u (%s): the budget chose %s (class %d, %.3g G points/s measured), under half the best "
                  "class %d (%.3g)", e->encoded_width, e->hidden_width, e->depth, e->output_width,
                  layout ? "auto" : "row-major", p.name, class_of(&p), e->cls[class_of(&p)].gpts, best, e->cls[best].gpts);
      } else {
        CHECK_MSG(class_of(&p) == best, "%u-%ux%u-%u (%s): chose %s (class %d), the measured best is class %d",
                  e->encoded_width, e->hidden_width, e->depth, e->output_width, layout ? "auto" : "row-major", p.name,
                  class_of(&p), best);
        CHECK_MSG(p.desc.workgroup_size == e->cls[best].workgroup_size &&
                      p.desc.points_per_group == e->cls[best].points_per_group,
                  "%s (%s): workgroup %u points per group %u, measured best's %u / %u", p.name, p.selection,
                  p.desc.workgroup_size, p.desc.points_per_group, e->cls[best].workgroup_size,
                  e->cls[best].points_per_group);
      }
      CHECK(p.estimated_ns_per_point > 0);
      tried++;
    }
  }
  CHECK(tried >= 2);
}

static void test_fixed_variant_takes_the_measured_knobs_and_keeps_the_descs(void) {
  spvgen_device_caps h100 = preset("h100");
  const mlp_select_device *dv = h100_table(&h100);
  if (!dv) return;
  for (uint32_t i = 0; i < dv->entry_count; i++) {
    const mlp_select_entry *e = &dv->entries[i];
    if (e->encoding || !e->depth || e->cls[MLP_CLASS_MAT].gpts <= 0) continue;
    spvgen_mlp_desc d = desc_of(e);
    d.variant = SPVGEN_MLP_MAT;
    spvgen_mlp_config p;
    char msg[512];
    CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_EQ_U64(p.variant, SPVGEN_MLP_MAT);
    CHECK_EQ_U64(p.desc.workgroup_size, e->cls[MLP_CLASS_MAT].workgroup_size);
    CHECK_EQ_U64(p.desc.points_per_group, e->cls[MLP_CLASS_MAT].points_per_group);
    /* a knob the desc sets stays */
    d.points_per_group = 16;
    CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_EQ_U64(p.desc.points_per_group, 16);
    /* everything fixed: the desc's */
    d.workgroup_size = 64;
    CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_STR_EQ(p.selection, "desc");
    CHECK_EQ_U64(p.desc.workgroup_size, 64);
    return;
  }
}

/* The wide term (select.h): on every measured network with 256-wide hidden-to-hidden
 * layers, the vec classes' estimates are within 2x of what they measured (a single FLOP
 * rate put them 2.3-10x too fast). A 256-wide deep network far from the measured ones
 * (64-256x6-22: 2.04 from 64-256x5-64) gets the model's choice, and within the default
 * budget: on the H100 the model's earlier choice, vec with the optimal layout, compiled
 * for 14 s and ran at 0.36x torch (call S20-1); layers fits the budget. */
static void test_wide_networks_in_the_model(void) {
  spvgen_device_caps h100 = preset("h100");
  const mlp_select_device *dv = h100_table(&h100);
  CHECK(dv != NULL);
  if (!dv) return;
  uint32_t seen = 0;
  for (uint32_t i = 0; i < dv->entry_count; i++) {
    const mlp_select_entry *e = &dv->entries[i];
    if (e->encoding || e->hidden_width != 256 || e->depth < 3) continue;
    for (int c = MLP_CLASS_VEC; c <= MLP_CLASS_VEC_OPT; c++) {
      if (e->cls[c].gpts <= 0) continue;
      spvgen_mlp_desc d = desc_of(e);
      d.variant = SPVGEN_MLP_VEC;
      d.weight_layout = c == MLP_CLASS_VEC_OPT ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      d.workgroup_size = e->cls[c].workgroup_size;
      d.points_per_group = e->cls[c].points_per_group;
      d.layer_loop = e->cls[c].layer_loop != 0;
      spvgen_mlp_config p;
      char msg[512];
      CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      /* everything fixed by the desc: the plan carries the model's estimate */
      CHECK_STR_EQ(p.selection, "desc");
      const double est = p.estimated_ns_per_point, meas = 1.0 / e->cls[c].gpts;
      CHECK_MSG(est > 0.5 * meas && est < 2.0 * meas, "%u-%ux%u-%u class %d: estimated %.3g ns a point, measured %.3g",
                e->encoded_width, e->hidden_width, e->depth, e->output_width, c, est, meas);
      seen++;
    }
  }
  CHECK(seen >= 4);
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 64;
  d.hidden_width = 256;
  d.hidden_count = 6;
  d.output_width = 22;
  d.activation = SPVGEN_MLP_ACT_NONE;
  d.weight_layout = SPVGEN_MLP_WEIGHTS_AUTO;
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(!strncmp(p.selection, "model", 5), "%s", p.selection);
  CHECK_MSG(p.compile_ms <= 1000, "%s [%s]: %u ms", p.name, p.selection, p.compile_ms);
  CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS, "%s [%s]", p.name, p.selection);
  /* one kernel (spvgen_mlp's path): a fused class, the budget's stand-ins without layers */
  spvgen_kernel k;
  CHECK_MSG(spvgen_mlp(&d, &h100, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  spvgen_kernel_free(&k);
}

static void test_far_networks_and_other_devices_use_the_model(void) {
  spvgen_device_caps h100 = preset("h100"), v13 = preset("vulkan13");
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 500; /* log2 distance > 2 from every width the grid measures */
  d.hidden_width = 512;
  d.hidden_count = 15;
  d.output_width = 500;
  d.weight_layout = SPVGEN_MLP_WEIGHTS_AUTO;
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(!strncmp(p.selection, "model", 5), "%s", p.selection); /* "model, ...": the compile budget */
  CHECK(p.estimated_ns_per_point > 0);
  CHECK_MSG(spvgen_mlp_plan(&d, &v13, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(!strncmp(p.selection, "model", 5), "%s", p.selection); /* "model, over compile budget" */
  CHECK_EQ_U64(p.variant, SPVGEN_MLP_LOOP);
  CHECK_EQ_U64(p.desc.weight_layout, SPVGEN_MLP_WEIGHTS_ROW_MAJOR); /* auto resolved */
  /* the estimate grows with the work */
  double small = 0, big = 0;
  d.hidden_width = 64;
  d.hidden_count = 2;
  d.input_width = d.output_width = 16;
  d.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
  CHECK(spvgen_mlp_plan(&d, &v13, &p, NULL, 0) == SPVGEN_OK);
  small = p.estimated_ns_per_point;
  d.hidden_width = 256;
  d.hidden_count = 8;
  CHECK(spvgen_mlp_plan(&d, &v13, &p, NULL, 0) == SPVGEN_OK);
  big = p.estimated_ns_per_point;
  CHECK_MSG(big > 10 * small, "estimates %g (16-64x2-16) and %g (16-256x8-16)", small, big);
}

/* Hidden widths off 64 (the rule changed with the layers plan's padding): AUTO offers
 * the layers class on any hidden widths, where it offered it on whole 64s only
 * (layers_whole: the GEMMs of widths off 16 ran at 33-50 TFLOP/s, call S20-2). The
 * padded plan runs the GEMMs of the widths rounded up to 64, so the model estimates it
 * on those widths (the FLOPs that run: the same estimate as the network of whole 64s),
 * and its compile is those GEMMs' and the pad kernel's. On the h100 preset 46-223x8-10
 * (tanh) and 36-250x4-58 (leaky relu) took the looped vec kernel (4.6-7.3 s of estimated
 * first compile) and now take layers, padded, as 46-256x8-10 and 36-256x4-58 do; a desc
 * that leaves out several kernels (spvgen_mlp) still gets a fused class. */
static void test_layers_offered_on_hidden_widths_off_64(void) {
  spvgen_device_caps h100 = preset("h100");
  static const struct { uint32_t in, width, count, out; spvgen_mlp_activation act; } nets[] = {
      {46, 223, 8, 10, SPVGEN_MLP_ACT_TANH}, {36, 250, 4, 58, SPVGEN_MLP_ACT_LEAKY_RELU}};
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
    spvgen_mlp_desc d = test_mlp_net(nets[i].in, nets[i].width, nets[i].count, nets[i].out, nets[i].act);
    d.weight_layout = SPVGEN_MLP_WEIGHTS_AUTO;
    spvgen_mlp_desc whole = d;
    whole.hidden_width = (d.hidden_width + 63) / 64 * 64;
    spvgen_mlp_config p, w;
    char msg[512];
    CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(spvgen_mlp_plan(&whole, &h100, &w, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS && p.pad_width == 64, "%s [%s]", p.name, p.selection);
    CHECK_MSG(w.variant == SPVGEN_MLP_LAYERS && w.pad_width == 0, "%s [%s]", w.name, w.selection);
    CHECK_STR_EQ(p.selection, w.selection);
    /* the estimate of the padded widths: the whole-64 network's */
    CHECK_MSG(p.estimated_ns_per_point > 0 && p.estimated_ns_per_point == w.estimated_ns_per_point,
              "%s: %.4g ns a point, %s: %.4g", p.name, p.estimated_ns_per_point, w.name, w.estimated_ns_per_point);
    CHECK_MSG(p.compile_ms > w.compile_ms && p.compile_ms - w.compile_ms <= 50, "%s: %u ms, %s: %u ms", p.name,
              p.compile_ms, w.name, w.compile_ms);
    /* one kernel: a fused class */
    spvgen_kernel k;
    CHECK_MSG(spvgen_mlp(&d, &h100, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    spvgen_kernel_free(&k);
  }
  /* Widths that pad to 192 (one and a half of the GEMMs' 128-wide tiles) or to 256 at over
   * 1.35x the FLOPs: padded layers ran 0.13-0.19x the looped vec kernel there (call S21-2,
   * H100), so AUTO does not offer them; a desc that asks for layers still gets them. */
  static const struct { uint32_t in, width, count, out; spvgen_mlp_activation act; } far[] = {
      {7, 180, 5, 43, SPVGEN_MLP_ACT_NONE}, {14, 173, 8, 24, SPVGEN_MLP_ACT_TANH}, {5, 205, 4, 34, SPVGEN_MLP_ACT_TANH}};
  for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
    spvgen_mlp_desc d = test_mlp_net(far[i].in, far[i].width, far[i].count, far[i].out, far[i].act);
    d.weight_layout = SPVGEN_MLP_WEIGHTS_AUTO;
    spvgen_mlp_config p;
    char msg[512];
    CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.variant != SPVGEN_MLP_LAYERS, "%u wide: %s [%s]", far[i].width, p.name, p.selection);
    d.variant = SPVGEN_MLP_LAYERS;
    d.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    CHECK_MSG(spvgen_mlp_plan(&d, &h100, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.variant == SPVGEN_MLP_LAYERS && p.pad_width == 64, "%u wide, asked: %s", far[i].width, p.name);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_measured_networks_choose_their_fastest_class),
      TEST_CASE(test_fixed_variant_takes_the_measured_knobs_and_keeps_the_descs),
      TEST_CASE(test_far_networks_and_other_devices_use_the_model),
      TEST_CASE(test_wide_networks_in_the_model),
      TEST_CASE(test_layers_offered_on_hidden_widths_off_64),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
