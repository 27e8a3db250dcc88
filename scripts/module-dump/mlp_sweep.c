/* scripts/module-dump/mlp_sweep.c — every MLP module of a broad sweep of configurations
 * written to a directory, one file per configuration in a fixed order, so that two builds
 * of the library (before and after a refactor of emitters/mlp) can be compared module by
 * module:
 *
 *   mlp_sweep DIR      writes DIR/NNNNNN.spv and DIR/list.txt ("NNNNNN <what>")
 *
 * The sweep: the "h100", "vulkan13" and "lavapipe" presets; networks over widths, depths,
 * every activation, the three plain encodings and the hash grid (2 and 3 dimensions,
 * several feature counts, dense and hashed levels), bias on and off, f16/f32 points,
 * float8 and int8 weights, both weight layouts; every plan spvgen_mlp_plans offers, plus
 * plans with the knobs set by hand (mat: rows, f16 accumulation, block sizes; vec: pieces,
 * staging, the layer loop, bias paths, points per invocation); mat plans also emulated
 * (the cooperative-matrix feature cleared, as the tests do); the function shape of loop
 * and vec plans; training (loop, mat and its emulation, vec): both kernels, both losses,
 * both optimizers. A configuration that a preset refuses is skipped (the same in both
 * builds). Built, run and compared by scripts/module-dump/mlp-sweep.sh; not part of the
 * library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spvgen/spvgen.h"

static const char *out_dir;
static FILE *list;
static unsigned serial, failed;
static spvgen_module *mod;

static void write_module(const char *what) {
  const uint32_t *words = NULL;
  size_t count = 0;
  char path[4096];
  snprintf(path, sizeof path, "%s/%06u.spv", out_dir, serial);
  if (spvgen_module_finish(mod, &words, &count) != SPVGEN_OK) {
    fprintf(list, "%06u FAILED %s: %s\n", serial++, what, spvgen_module_error(mod));
    failed++;
    return;
  }
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(words, 4, count, f) != count) {
    fprintf(stderr, "mlp_sweep: cannot write %s\n", path);
    exit(1);
  }
  fclose(f);
  fprintf(list, "%06u %s\n", serial++, what);
}

static void emit_plan(const spvgen_mlp_config *p, const char *tag) {
  char what[512];
  spvgen_module_reset(mod, NULL);
  spvgen_kernel_info info;
  if (spvgen_mlp_emit(mod, p, &info) == SPVGEN_OK) {
    snprintf(what, sizeof what, "%s [%s]", tag, p->name);
    write_module(what);
  }
  if (p->variant == SPVGEN_MLP_MAT && (p->features & SPVGEN_FEATURE_COOPMAT)) {
    spvgen_mlp_config e = *p;
    e.features &= ~SPVGEN_FEATURE_COOPMAT;
    spvgen_module_reset(mod, NULL);
    if (spvgen_mlp_emit(mod, &e, &info) == SPVGEN_OK) {
      snprintf(what, sizeof what, "%s emulated [%s]", tag, p->name);
      write_module(what);
    }
  }
  if (p->variant == SPVGEN_MLP_LOOP || (p->variant == SPVGEN_MLP_VEC && !p->desc.vec_stage)) {
    spvgen_module_reset(mod, NULL);
    spvgen_mlp_function_info fi;
    memset(&fi, 0, sizeof fi);
    if (spvgen_mlp_emit_function(mod, p, &fi) == SPVGEN_OK) {
      snprintf(what, sizeof what, "%s function [%s]", tag, p->name);
      write_module(what);
    }
  }
}

static void inference(const spvgen_device_caps *caps, const char *preset, const spvgen_mlp_desc *d) {
  enum { MAXP = 48 };
  static spvgen_mlp_config plans[MAXP];
  uint32_t n = 0;
  char msg[512], tag[64];
  if (spvgen_mlp_plans(d, caps, plans, MAXP, &n, msg, sizeof msg) != SPVGEN_OK) return;
  snprintf(tag, sizeof tag, "%s", preset);
  for (uint32_t i = 0; i < n && i < MAXP; i++) emit_plan(&plans[i], tag);
}

static void one_plan(const spvgen_device_caps *caps, const char *preset, const spvgen_mlp_desc *d) {
  spvgen_mlp_config p;
  char msg[512];
  if (spvgen_mlp_plan(d, caps, &p, msg, sizeof msg) != SPVGEN_OK) return;
  emit_plan(&p, preset);
}

static void training(const spvgen_device_caps *caps, const char *preset, const spvgen_mlp_train_desc *t) {
  enum { MAXP = 16 };
  static spvgen_mlp_train_config plans[MAXP];
  uint32_t n = 0;
  char msg[512], what[512];
  if (spvgen_mlp_train_plans(t, caps, plans, MAXP, &n, msg, sizeof msg) != SPVGEN_OK) {
    spvgen_mlp_train_config p; /* mat: a single plan */
    if (spvgen_mlp_train_plan(t, caps, &p, msg, sizeof msg) != SPVGEN_OK) return;
    plans[0] = p;
    n = 1;
  }
  for (uint32_t i = 0; i < n && i < MAXP; i++) {
    for (int emu = 0; emu < 2; emu++) {
      spvgen_mlp_train_config p = plans[i];
      if (emu) {
        if (p.net.variant != SPVGEN_MLP_MAT || !(p.net.features & SPVGEN_FEATURE_COOPMAT)) continue;
        p.net.features &= ~SPVGEN_FEATURE_COOPMAT;
      }
      for (int k = 0; k < 2; k++) {
        spvgen_module_reset(mod, NULL);
        spvgen_kernel_info info;
        if (spvgen_mlp_train_emit(mod, &p, (spvgen_mlp_train_kernel)k, &info) != SPVGEN_OK) continue;
        snprintf(what, sizeof what, "%s train %s%s [%s]", preset, k ? "optimizer" : "gradient",
                 emu ? " emulated" : "", p.name);
        write_module(what);
      }
    }
  }
}

static void grid_desc(spvgen_mlp_desc *d, uint32_t dims, uint32_t levels, uint32_t features, uint32_t log2_size) {
  d->input_width = dims;
  d->encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
  d->grid.levels = levels;
  d->grid.features = features;
  d->grid.log2_hashmap_size = log2_size;
  d->grid.base_resolution = 4;
}

static void sweep(const char *preset) {
  spvgen_device_caps caps;
  if (spvgen_caps_preset(preset, &caps) != SPVGEN_OK) exit(1);
  static const uint32_t ins[] = {1, 3, 8, 17, 32};
  static const uint32_t hidden[] = {3, 16, 33, 64, 128};
  static const uint32_t outs[] = {1, 4, 16, 17};
  static const uint32_t depths[] = {0, 1, 2, 3, 5};
  uint32_t k = 0;
  /* Networks: widths, depths, activations, encodings, types. */
  for (size_t a = 0; a < sizeof ins / sizeof ins[0]; a++)
    for (size_t b = 0; b < sizeof hidden / sizeof hidden[0]; b++)
      for (size_t c = 0; c < sizeof outs / sizeof outs[0]; c++)
        for (size_t e = 0; e < sizeof depths / sizeof depths[0]; e++) {
          if (!depths[e] && b) continue;
          k++;
          spvgen_mlp_desc d;
          memset(&d, 0, sizeof d);
          d.input_width = ins[a];
          d.output_width = outs[c];
          d.hidden_width = hidden[b];
          d.hidden_count = depths[e];
          d.activation = (spvgen_mlp_activation)(SPVGEN_MLP_ACT_NONE + k % 7);
          d.output_activation = (spvgen_mlp_activation)(k / 7 % 8);
          d.encoding = (spvgen_mlp_encoding)(k % 3);
          if (d.encoding == SPVGEN_MLP_ENCODING_FREQUENCY) d.encoding_size = ins[a] > 3 ? 2 : 1 + k % 8;
          if (d.encoding == SPVGEN_MLP_ENCODING_ONE_BLOB) d.encoding_size = ins[a] > 3 ? 4 : 8 + k % 9;
          d.no_bias = k % 5 == 0;
          if (k % 4 == 1) d.input_type = SPVGEN_COMPONENT_F32;
          if (k % 3 == 1) d.output_type = SPVGEN_COMPONENT_F32;
          if (k % 6 == 0 && depths[e] >= 2) d.layer_activations[1] = SPVGEN_MLP_ACT_EXP;
          if (k % 11 == 3) d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
          inference(&caps, preset, &d);
          if (k % 4 == 0) { /* knobs by hand */
            spvgen_mlp_desc v = d;
            v.variant = SPVGEN_MLP_MAT;
            v.mat_rows = k % 8 == 0;
            v.f16_accumulation = k % 12 == 0;
            v.points_per_group = 16u << (k % 4 ? 0 : (k / 4) % 4);
            one_plan(&caps, preset, &v);
            v = d;
            v.variant = SPVGEN_MLP_VEC;
            v.vec_rows = hidden[b] >= 32 ? 16 : 0;
            v.vec_stage = k % 8 == 0;
            v.layer_loop = depths[e] >= 3;
            v.bias_path = (spvgen_mlp_bias_path)(k % 3);
            v.points_per_group = 1u << (k / 4 % 4);
            one_plan(&caps, preset, &v);
          }
        }
  /* Weight types (vec). */
  static const spvgen_component_type wts[] = {SPVGEN_COMPONENT_E4M3, SPVGEN_COMPONENT_E5M2, SPVGEN_COMPONENT_S8};
  for (size_t w = 0; w < 3; w++)
    for (uint32_t h = 16; h <= 128; h *= 2)
      for (uint32_t depth = 1; depth <= 4; depth += 3) {
        spvgen_mlp_desc d;
        memset(&d, 0, sizeof d);
        d.input_width = 16;
        d.output_width = 16;
        d.hidden_width = h;
        d.hidden_count = depth;
        d.weight_type = wts[w];
        d.variant = SPVGEN_MLP_VEC;
        d.weight_layout = wts[w] == SPVGEN_COMPONENT_S8 ? SPVGEN_MLP_WEIGHTS_ROW_MAJOR : SPVGEN_MLP_WEIGHTS_OPTIMAL;
        d.activation = (spvgen_mlp_activation)(SPVGEN_MLP_ACT_RELU + (h + depth) % 5);
        inference(&caps, preset, &d);
      }
  /* Hash grids. */
  static const uint32_t feats[] = {1, 2, 4, 8};
  for (uint32_t dims = 2; dims <= 3; dims++)
    for (size_t f = 0; f < 4; f++)
      for (uint32_t lv = 2; lv <= 16; lv *= 2) {
        spvgen_mlp_desc d;
        memset(&d, 0, sizeof d);
        grid_desc(&d, dims, lv, feats[f], lv > 4 ? 15 : 19);
        d.output_width = 1 + (lv + f) % 4;
        d.hidden_width = 64;
        d.hidden_count = 1 + f % 3;
        if (f == 1) d.input_type = SPVGEN_COMPONENT_F32;
        if (lv * feats[f] <= 128) inference(&caps, preset, &d);
      }
  /* Training: loop (every plan), mat and vec when asked for. */
  static const spvgen_mlp_variant tvars[] = {SPVGEN_MLP_AUTO, SPVGEN_MLP_MAT, SPVGEN_MLP_VEC};
  static const uint32_t twidths[] = {16, 24, 33, 64, 100};
  uint32_t tk = 0;
  for (size_t v = 0; v < 3; v++)
    for (uint32_t in = 2; in <= 3; in++)
      for (size_t hw = 0; hw < sizeof twidths / sizeof twidths[0]; hw++)
        for (uint32_t depth = 1; depth <= 3; depth++)
          for (int grid = 0; grid < 2; grid++) {
            tk++;
            spvgen_mlp_train_desc t;
            memset(&t, 0, sizeof t);
            t.net.input_width = in;
            t.net.output_width = 1 + tk % 4;
            t.net.hidden_width = twidths[hw];
            t.net.hidden_count = depth;
            t.net.variant = tvars[v];
            t.net.activation = (spvgen_mlp_activation)(SPVGEN_MLP_ACT_NONE + tk % 7);
            t.net.output_activation = (spvgen_mlp_activation)(tk / 7 % 8);
            t.net.no_bias = tk % 5 == 0;
            if (tk % 4 == 1) t.net.input_type = SPVGEN_COMPONENT_F32;
            if (grid) grid_desc(&t.net, in, 2 + tk % 6, 1u << (tk % 3), 14);
            else t.net.encoding = (spvgen_mlp_encoding)(tk % 3);
            t.loss = (spvgen_mlp_loss)(tk % 2);
            t.optimizer = (spvgen_mlp_optimizer)(tk / 2 % 2);
            t.weight_decay = tk % 3 == 0 ? 0.01f : 0.0f;
            t.grad_workgroups = tk % 2 ? 0 : 32;
            if (tvars[v] == SPVGEN_MLP_MAT && tk % 3 == 0) t.net.mat_rows = true;
            training(&caps, preset, &t);
          }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mlp_sweep DIR\n");
    return 2;
  }
  out_dir = argv[1];
  char path[4096];
  snprintf(path, sizeof path, "%s/list.txt", out_dir);
  list = fopen(path, "w");
  if (!list) {
    fprintf(stderr, "mlp_sweep: cannot write %s\n", path);
    return 1;
  }
  mod = spvgen_module_create(NULL);
  static const char *presets[] = {"h100", "vulkan13", "lavapipe"};
  for (int i = 0; i < 3; i++) sweep(presets[i]);
  spvgen_module_destroy(mod);
  fclose(list);
  fprintf(stderr, "mlp_sweep: %u modules in %s (%u failed to emit)\n", serial - failed, out_dir, failed);
  return 0;
}
