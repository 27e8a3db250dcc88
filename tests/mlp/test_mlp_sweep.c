/* tests/mlp/test_mlp_sweep.c — every plan spvgen_mlp_plans offers for the "h100" and
 * "vulkan13" presets, over a sweep of networks (widths incl. 1, 3, 17, 33, 64, 128,
 * depths 1-6, every activation, both encodings, f16/f32 points, bias on/off), is emitted
 * and validated with Vulkan 1.3 rules. Every desc must be plannable (the loop variant
 * always is); counts are printed. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/mlp.h"

static void sweep(const char *preset, uint64_t *descs, uint64_t *plans_total) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset(preset, &caps) == SPVGEN_OK);
  static const uint32_t ins[] = {1, 3, 17, 32};
  static const uint32_t hidden[] = {3, 16, 33, 64, 128};
  static const uint32_t outs[] = {1, 4, 17};
  static const uint32_t depths[] = {0, 1, 2, 4, 5};
  spvgen_module *m = spvgen_module_create(NULL);
  enum { MAXP = 32 };
  spvgen_mlp_config plans[MAXP];
  uint32_t serial = 0;
  uint64_t by_variant[SPVGEN_MLP_VARIANT_COUNT] = {0};
  for (size_t a = 0; a < sizeof ins / sizeof ins[0]; a++)
    for (size_t b = 0; b < sizeof hidden / sizeof hidden[0]; b++)
      for (size_t c = 0; c < sizeof outs / sizeof outs[0]; c++)
        for (size_t e = 0; e < sizeof depths / sizeof depths[0]; e++) {
          serial++;
          spvgen_mlp_desc d;
          memset(&d, 0, sizeof d);
          d.input_width = ins[a];
          d.output_width = outs[c];
          d.hidden_width = hidden[b];
          d.hidden_count = depths[e];
          if (!depths[e] && b) continue; /* one no-hidden network per input/output pair */
          d.activation = (spvgen_mlp_activation)(SPVGEN_MLP_ACT_NONE + serial % 7);
          d.output_activation = (spvgen_mlp_activation)(serial / 7 % 8);
          d.encoding = (spvgen_mlp_encoding)(serial % 3);
          if (d.encoding == SPVGEN_MLP_ENCODING_FREQUENCY) d.encoding_size = ins[a] > 3 ? 2 : 1 + serial % 8;
          if (d.encoding == SPVGEN_MLP_ENCODING_ONE_BLOB) d.encoding_size = ins[a] > 3 ? 4 : 8 + serial % 9;
          d.no_bias = serial % 5 == 0;
          if (serial % 4 == 1) d.input_type = SPVGEN_COMPONENT_F32;
          if (serial % 3 == 1) d.output_type = SPVGEN_COMPONENT_F32;
          if (serial % 6 == 0 && depths[e] >= 2) d.layer_activations[1] = SPVGEN_MLP_ACT_EXP;
          (*descs)++;
          uint32_t n = 0;
          char msg[512];
          spvgen_status st = spvgen_mlp_plans(&d, &caps, plans, MAXP, &n, msg, sizeof msg);
          CHECK_MSG(st == SPVGEN_OK, "%s desc %u refused: %s", preset, serial, msg);
          if (st != SPVGEN_OK) continue;
          for (uint32_t i = 0; i < n && i < MAXP; i++) {
            spvgen_module_reset(m, NULL);
            spvgen_kernel_info info;
            st = spvgen_mlp_emit(m, &plans[i], &info);
            CHECK_MSG(st == SPVGEN_OK, "%s [%s]: %s", preset, plans[i].name, spvgen_module_error(m));
            size_t count = 0;
            const uint32_t *words = NULL;
            if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
            if (st == SPVGEN_OK && !check_words(words, count))
              fprintf(stderr, "  invalid: %s [%s]\n", preset, plans[i].name);
            by_variant[plans[i].variant]++;
            (*plans_total)++;
          }
          /* The AUTO plan is one of them. */
          spvgen_mlp_config p;
          CHECK(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK);
        }
  fprintf(stderr, "%s: vec %llu, mat %llu, loop %llu plans\n", preset,
          (unsigned long long)by_variant[SPVGEN_MLP_VEC], (unsigned long long)by_variant[SPVGEN_MLP_MAT],
          (unsigned long long)by_variant[SPVGEN_MLP_LOOP]);
  if (!strcmp(preset, "h100")) CHECK(by_variant[SPVGEN_MLP_VEC] > 0 && by_variant[SPVGEN_MLP_MAT] > 0);
  if (!strcmp(preset, "vulkan13")) CHECK_EQ_U64(by_variant[SPVGEN_MLP_MAT], 0);
  CHECK(by_variant[SPVGEN_MLP_LOOP] > 0);
  spvgen_module_destroy(m);
}

static void test_every_plan_validates_h100_and_vulkan13(void) {
  uint64_t descs = 0, plans = 0;
  sweep("h100", &descs, &plans);
  sweep("vulkan13", &descs, &plans);
  fprintf(stderr, "%llu descs, %llu plans emitted and validated\n", (unsigned long long)descs,
          (unsigned long long)plans);
  CHECK(descs >= 400); /* >= 200 networks per preset */
}

int main(int argc, char **argv) {
  static const test_case tests[] = {TEST_CASE(test_every_plan_validates_h100_and_vulkan13)};
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
