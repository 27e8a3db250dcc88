/* tests/core/test_kernel_features.c — "features are the truth": for every template
 * (GEMM, MLP inference and training, elementwise), every caps preset and every plan the
 * template offers there, the device features the plan lists cover what the emitted
 * words declare (each capability's enabling feature, read back by spvgen_kernel_reflect),
 * the plan lists nothing the preset lacks (the planner refuses caps without a needed
 * feature), and the kernel info carries the same set, the declared capabilities, the
 * hash and bindings with names and sizes. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "spvgen/spvgen.h"

/* What a set of features misses, named, for a failure message. */
static const char *missing_name(uint64_t have, uint64_t need) {
  uint64_t miss = need & ~have;
  return miss ? spvgen_feature_name(spvgen_feature_first(miss)) : "(none)";
}

/* Finishes m, reflects the words over info and checks the features against plan_features
 * and caps; what: the plan's name for messages. Returns the number of checks failed. */
static void check_words(spvgen_module *m, spvgen_kernel_info *info, uint64_t plan_features,
                        const spvgen_device_caps *caps, const char *preset, const char *what) {
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_status st = spvgen_module_finish(m, &words, &count);
  CHECK_MSG(st == SPVGEN_OK, "%s %s: finish: %s", preset, what, spvgen_module_error(m));
  if (st != SPVGEN_OK) return;
  char msg[512];
  st = spvgen_kernel_reflect(words, count, info, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s %s: reflect: %s", preset, what, msg);
  if (st != SPVGEN_OK) return;
  CHECK_MSG((info->features & ~plan_features) == 0,
            "%s %s: the words need %s, which the plan's features do not list", preset, what,
            missing_name(plan_features, info->features));
  CHECK_MSG((plan_features & ~caps->features) == 0,
            "%s %s: the plan needs %s, which the preset lacks, and was accepted", preset, what,
            missing_name(caps->features, plan_features));
  CHECK_MSG(info->capability_count > 0, "%s %s: no capabilities in the info", preset, what);
  CHECK_MSG(info->hash == spvgen_words_hash(words, count), "%s %s: info hash", preset, what);
  /* Every capability maps: its feature is in info->features. */
  for (uint32_t i = 0; i < info->capability_count; i++) {
    const spvgen_vk_capability *c = spvgen_vk_capability_find(info->capabilities[i]);
    CHECK_MSG(c != NULL, "%s %s: capability %u unknown to Vulkan", preset, what, info->capabilities[i]);
    if (c && c->kind == SPVGEN_VK_CAP_FEATURE)
      CHECK_MSG((info->features & c->feature) == c->feature, "%s %s: %s declared, %s not in info->features",
                preset, what, c->name, spvgen_feature_name(c->feature));
  }
  for (uint32_t i = 0; i < info->binding_count; i++)
    CHECK_MSG(info->bindings[i].name != NULL, "%s %s: binding %u has no name", preset, what, i);
}

static void test_gemm_plans_list_every_feature_their_words_need(void) {
  const char *const *presets = spvgen_caps_preset_names();
  static const spvgen_component_type types[][3] = {
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16},
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
      {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
      {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32},
      {SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_BF16},
      {SPVGEN_COMPONENT_E4M3, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16},
  };
  spvgen_module *m = spvgen_module_create(NULL);
  enum { MAX = 96 };
  spvgen_gemm_config *plans = malloc(MAX * sizeof *plans);
  uint32_t checked = 0;
  for (int p = 0; presets[p]; p++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
      for (int shape = 0; shape < 2; shape++) {
        spvgen_gemm_desc d = {.m = shape ? 257 : 64, .n = shape ? 130 : 64, .k = shape ? 1024 : 64,
                              .a_type = types[t][0], .b_type = types[t][0], .acc_type = types[t][1],
                              .out_type = types[t][2]};
        if (shape) {
          d.bias = SPVGEN_GEMM_BIAS_COLUMN;
          d.activation = SPVGEN_ACTIVATION_GELU;
          d.beta = 0.5f;
        }
        uint32_t n = 0;
        if (spvgen_gemm_plans(&d, &caps, plans, MAX, &n, NULL, 0) != SPVGEN_OK) continue;
        if (n > MAX) n = MAX;
        for (uint32_t i = 0; i < n; i++)
          for (uint32_t kern = 0; kern < spvgen_gemm_kernel_count(&plans[i]); kern++) { /* split-K: both */
            spvgen_module_reset(m, NULL);
            spvgen_kernel_info info;
            if (spvgen_gemm_emit_kernel(m, &plans[i], spvgen_gemm_kernel_at(&plans[i], kern), &info) != SPVGEN_OK) {
              CHECK_MSG(0, "%s %s: emit: %s", presets[p], plans[i].name, spvgen_module_error(m));
              continue;
            }
            check_words(m, &info, plans[i].features, &caps, presets[p], plans[i].name);
            checked++;
            /* (packed plans: the pack kernel's and the main kernel's bindings are
             * test_gemm_pack.c's and test_gemm_tpack.c's) */
            if (plans[i].desc.pack != SPVGEN_GEMM_PACK_NONE) continue;
            /* the one kernel, or split-K's partials: A, B, then D or the workspace; the
             * reduction: D first */
            const uint32_t d_at = kern ? 0 : 2;
            const char *third = plans[i].desc.split_k > 1 && !kern ? "workspace" : "D";
            CHECK_MSG(info.binding_count > d_at && !strcmp(info.bindings[d_at].name, third) &&
                          (kern || !strcmp(info.bindings[0].name, "A")) && info.bindings[d_at].min_size > 0,
                      "%s %s kernel %u: bindings A, B, D (or the workspace) with sizes", presets[p], plans[i].name,
                      kern);
          }
      }
  }
  CHECK_MSG(checked > 50, "only %u GEMM plans checked", checked);
  free(plans);
  spvgen_module_destroy(m);
}

static void test_mlp_plans_list_every_feature_their_words_need(void) {
  const char *const *presets = spvgen_caps_preset_names();
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_mlp_config plans[32];
  uint32_t checked = 0;
  for (int p = 0; presets[p]; p++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    for (int net = 0; net < 3; net++) {
      spvgen_mlp_desc d = {.input_width = 3, .output_width = 4, .hidden_count = 2, .hidden_width = 64};
      if (net == 1) {
        d.input_type = SPVGEN_COMPONENT_F32;
        d.output_type = SPVGEN_COMPONENT_F32;
        d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
      }
      if (net == 2) d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
      uint32_t n = 0;
      if (spvgen_mlp_plans(&d, &caps, plans, 32, &n, NULL, 0) != SPVGEN_OK) continue;
      if (n > 32) n = 32;
      for (uint32_t i = 0; i < n; i++) {
        spvgen_module_reset(m, NULL);
        spvgen_kernel_info info;
        if (spvgen_mlp_emit(m, &plans[i], &info) != SPVGEN_OK) {
          CHECK_MSG(0, "%s %s: emit: %s", presets[p], plans[i].name, spvgen_module_error(m));
          continue;
        }
        check_words(m, &info, plans[i].features, &caps, presets[p], plans[i].name);
        checked++;
      }
      /* Training, where the preset can: with descriptors and device addresses, and (the
       * third network) the hash grid's atomics instead of the optimal layout. */
      for (int form = 0; form < 2; form++) {
        spvgen_mlp_train_desc td = {.net = d};
        td.net.weight_layout = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
        td.net.addressing = form ? SPVGEN_ADDRESSING_DEVICE_ADDRESS : SPVGEN_ADDRESSING_DESCRIPTORS;
        if (net == 2) td.net.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
        spvgen_mlp_train_config tp;
        if (spvgen_mlp_train_plan(&td, &caps, &tp, NULL, 0) != SPVGEN_OK) continue;
        for (int which = 0; which < 2; which++) {
          spvgen_module_reset(m, &(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&tp.net)});
          spvgen_kernel_info info;
          if (spvgen_mlp_train_emit(m, &tp, (spvgen_mlp_train_kernel)which, &info) != SPVGEN_OK) {
            CHECK_MSG(0, "%s %s: emit: %s", presets[p], tp.name, spvgen_module_error(m));
            continue;
          }
          uint64_t need = info.features;
          const uint32_t *w;
          size_t c;
          if (spvgen_module_finish(m, &w, &c) != SPVGEN_OK) continue;
          char msg[256];
          if (spvgen_kernel_reflect(w, c, &info, msg, sizeof msg) != SPVGEN_OK) continue;
          need = info.features;
          CHECK_MSG((need & ~tp.features) == 0, "%s %s (%s): the words need %s, which the plan's features do not list",
                    presets[p], tp.name, which ? "optimizer" : "gradient", missing_name(tp.features, need));
          CHECK_MSG((tp.features & ~caps.features) == 0, "%s %s: needs %s, which the preset lacks", presets[p],
                    tp.name, missing_name(caps.features, tp.features));
          checked++;
        }
      }
    }
  }
  CHECK_MSG(checked > 10, "only %u MLP plans checked", checked);
  spvgen_module_destroy(m);
}

static void test_elementwise_plans_list_every_feature_their_words_need(void) {
  const char *const *presets = spvgen_caps_preset_names();
  spvgen_module *m = spvgen_module_create(NULL);
  for (int p = 0; presets[p]; p++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    for (int type = 0; type < 4; type++)
      for (int model = 0; model < 2; model++) {
        spvgen_elementwise_desc d = {.type = (spvgen_elementwise_type)type, .glsl450_memory_model = model};
        spvgen_elementwise_config plan;
        if (spvgen_elementwise_plan(&d, &caps, &plan, NULL, 0) != SPVGEN_OK) continue;
        spvgen_module_desc md = {0};
        if (model) md.memory_model = SpvMemoryModelGLSL450;
        spvgen_module_reset(m, &md);
        spvgen_kernel_info info;
        CHECK(spvgen_elementwise_emit(m, &plan, &info) == SPVGEN_OK);
        check_words(m, &info, plan.features, &caps, presets[p], "elementwise");
        CHECK(info.binding_sizes != NULL && info.push_field_count == 1);
      }
  }
  spvgen_module_destroy(m);
}

/* The one-shot calls return complete info: names, sizes, features (issue: NULL names). */
static void test_one_shot_kernels_have_named_sized_bindings(void) {
  char msg[512];
  spvgen_device_caps caps;
  spvgen_caps_preset("lavapipe", &caps);
  spvgen_kernel k;
  spvgen_gemm_desc g = {.m = 300, .n = 200, .k = 64, .a_type = SPVGEN_COMPONENT_F32, .b_type = SPVGEN_COMPONENT_F32,
                        .acc_type = SPVGEN_COMPONENT_F32, .out_type = SPVGEN_COMPONENT_F32};
  CHECK(spvgen_gemm(&g, &caps, &k, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(k.info.binding_count, 3);
  CHECK_STR_EQ(k.info.bindings[0].name, "A");
  CHECK_STR_EQ(k.info.bindings[1].name, "B");
  CHECK_STR_EQ(k.info.bindings[2].name, "D");
  CHECK_EQ_U64(k.info.bindings[0].min_size, 300 * 64 * 4);
  CHECK_EQ_U64(k.info.bindings[1].min_size, 64 * 200 * 4);
  CHECK_EQ_U64(k.info.bindings[2].min_size, 300 * 200 * 4);
  CHECK(k.info.features & SPVGEN_FEATURE_VULKAN_MEMORY_MODEL);
  spvgen_kernel_free(&k);

  spvgen_mlp_desc md = {.input_width = 3, .output_width = 4, .hidden_count = 2, .hidden_width = 64};
  spvgen_mlp_config mp;
  CHECK(spvgen_mlp_plan(&md, &caps, &mp, msg, sizeof msg) == SPVGEN_OK);
  CHECK(spvgen_mlp(&md, &caps, &k, msg, sizeof msg) == SPVGEN_OK);
  CHECK_STR_EQ(k.info.bindings[1].name, "weights");
  CHECK_EQ_U64(k.info.bindings[1].min_size, mp.weight_bytes);
  CHECK_STR_EQ(k.info.push_fields[0].name, "points");
  /* 1000 points: 1000 * 3 f16 in, 1000 * 4 f16 out. */
  uint64_t sizes[3] = {k.info.bindings[0].min_size, k.info.bindings[1].min_size, k.info.bindings[2].min_size};
  uint32_t points = 1000;
  CHECK(k.info.binding_sizes && k.info.binding_sizes(&k.info, &points, 4, sizes));
  CHECK_EQ_U64(sizes[0], 6000);
  CHECK_EQ_U64(sizes[1], mp.weight_bytes);
  CHECK_EQ_U64(sizes[2], 8000);
  spvgen_kernel_free(&k);
}

/* A device without a feature the words need is refused by the planner, naming it. */
static void test_planners_refuse_caps_without_the_memory_model(void) {
  spvgen_device_caps caps;
  spvgen_caps_preset("lavapipe", &caps);
  caps.features &= ~SPVGEN_FEATURE_VULKAN_MEMORY_MODEL;
  char msg[512];
  spvgen_gemm_config gp;
  spvgen_gemm_desc g = {.m = 64, .n = 64, .k = 64, .a_type = SPVGEN_COMPONENT_F32, .b_type = SPVGEN_COMPONENT_F32,
                        .acc_type = SPVGEN_COMPONENT_F32, .out_type = SPVGEN_COMPONENT_F32};
  CHECK(spvgen_gemm_plan(&g, &caps, &gp, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "vulkanMemoryModel");
  spvgen_mlp_config mp;
  spvgen_mlp_desc md = {.input_width = 3, .output_width = 4};
  CHECK(spvgen_mlp_plan(&md, &caps, &mp, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "vulkanMemoryModel");
  spvgen_elementwise_config ep;
  CHECK(spvgen_elementwise_plan(NULL, &caps, &ep, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "vulkanMemoryModel");
  spvgen_elementwise_desc glsl = {.glsl450_memory_model = true};
  CHECK(spvgen_elementwise_plan(&glsl, &caps, &ep, msg, sizeof msg) == SPVGEN_OK);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_gemm_plans_list_every_feature_their_words_need),
      TEST_CASE(test_mlp_plans_list_every_feature_their_words_need),
      TEST_CASE(test_elementwise_plans_list_every_feature_their_words_need),
      TEST_CASE(test_one_shot_kernels_have_named_sized_bindings),
      TEST_CASE(test_planners_refuse_caps_without_the_memory_model),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
