/* tests/gemm/test_gemm_sweep.c — every plan spvgen_gemm_plans offers, for the "h100" and
 * "vulkan13" presets, across a sweep of GEMM descs (shapes with awkward edges, every
 * type combination, layout, epilogue and batch class), is emitted and validated with
 * Vulkan 1.3 rules. Descs the device cannot run must be refused with a message. Counts
 * are printed; SPVGEN_GEMM_SWEEP_SHARD=i/n runs every n-th desc from i (CI runs all). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/gemm.h"

static const uint32_t shapes[][3] = {
    {1, 1, 1},       {1, 64, 64},      {64, 1, 64},     {17, 19, 23},   {97, 131, 67},
    {128, 128, 128}, {255, 257, 33},   {1024, 1024, 1024}, {4096, 64, 4096}, {64, 4096, 4096},
    {3000, 2999, 3001}, {8192, 8192, 8192}, {16, 16, 4096}};

static const spvgen_component_type types[][3] = { /* AB, ACC, OUT */
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16},
    {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16},
    {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32},
    {SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
    {SPVGEN_COMPONENT_E4M3, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16}, /* refused: no float8 */
};

typedef struct counts {
  uint64_t descs, plans, valid, refused, invalid;
} counts;

static void sweep_preset(const char *name, counts *c, uint32_t shard, uint32_t nshards) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset(name, &caps) == SPVGEN_OK);
  spvgen_module *m = spvgen_module_create(NULL);
  enum { MAXP = 256 };
  static spvgen_gemm_config plans[MAXP];
  uint64_t serial = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
      for (int lay = 0; lay < 4; lay++)
        for (int epi = 0; epi < 3; epi++) {
          if (serial++ % nshards != shard) continue;
          spvgen_gemm_desc d;
          memset(&d, 0, sizeof d);
          d.m = shapes[s][0];
          d.n = shapes[s][1];
          d.k = shapes[s][2];
          d.a_type = d.b_type = types[t][0];
          d.acc_type = types[t][1];
          d.out_type = types[t][2];
          d.a_layout = (spvgen_matrix_layout)(lay & 1);
          d.b_layout = (spvgen_matrix_layout)(lay >> 1);
          d.d_layout = (spvgen_matrix_layout)(epi == 2);
          d.batch = (s + epi) % 3 == 0 ? 3 : 1;
          bool int_out = d.out_type == SPVGEN_COMPONENT_S32;
          if (epi == 1) {
            d.bias = SPVGEN_GEMM_BIAS_ROW;
            d.activation = int_out ? SPVGEN_ACTIVATION_RELU : SPVGEN_ACTIVATION_GELU;
            if (!int_out) {
              d.alpha = 0.5f;
              d.beta = 1.25f;
              d.c_layout = SPVGEN_COL_MAJOR;
            }
          } else if (epi == 2) {
            d.bias = SPVGEN_GEMM_BIAS_COLUMN;
            d.activation = int_out ? SPVGEN_ACTIVATION_NONE : SPVGEN_ACTIVATION_SILU;
          }
          c->descs++;
          uint32_t n = 0;
          char msg[512];
          spvgen_status st = spvgen_gemm_plans(&d, &caps, plans, MAXP, &n, msg, sizeof msg);
          if (st != SPVGEN_OK) {
            c->refused++;
            CHECK_MSG(strstr(msg, "spvgen_gemm_plan: ") && strlen(msg) > 30,
                      "%s: desc %llu refused without a reason: '%s'", name,
                      (unsigned long long)serial, msg);
            /* Float8 is refused on both presets; everything else here must be plannable. */
            CHECK_MSG(d.a_type == SPVGEN_COMPONENT_E4M3, "%s: %ux%ux%u %s refused: %s", name, d.m, d.n,
                      d.k, spvgen_component_type_name(d.a_type), msg);
            continue;
          }
          CHECK_MSG(n <= MAXP, "%u plans", n);
          for (uint32_t i = 0; i < n && i < MAXP; i++) {
            c->plans++;
            spvgen_module_reset(m, NULL);
            spvgen_kernel_info info;
            const uint32_t *w = NULL;
            size_t count = 0;
            st = spvgen_gemm_emit(m, &plans[i], &info);
            if (st == SPVGEN_OK) st = spvgen_module_finish(m, &w, &count);
            if (st != SPVGEN_OK) {
              c->invalid++;
              CHECK_MSG(0, "%s: plan %s of %ux%ux%u did not emit: %s", name, plans[i].name, d.m, d.n,
                        d.k, spvgen_module_error(m));
              continue;
            }
            static char vmsg[8192];
            spvgen_validate_options vo = {0};
            if (spvgen_validate(w, count, &vo, vmsg, sizeof vmsg) != SPVGEN_OK) {
              c->invalid++;
              CHECK_MSG(0, "%s: plan %s of %ux%ux%u (layouts %d epilogue %d) is invalid: %s", name,
                        plans[i].name, d.m, d.n, d.k, lay, epi, vmsg);
              continue;
            }
            c->valid++;
          }
        }
  spvgen_module_destroy(m);
}

static void parse_shard(uint32_t *shard, uint32_t *n) {
  *shard = 0;
  *n = 1;
  const char *s = getenv("SPVGEN_GEMM_SWEEP_SHARD");
  unsigned a, b;
  if (s && sscanf(s, "%u/%u", &a, &b) == 2 && b > 0 && a < b) *shard = a, *n = b;
}

static void test_every_plan_validates_h100(void) {
  counts c = {0};
  uint32_t sh, n;
  parse_shard(&sh, &n);
  sweep_preset("h100", &c, sh, n);
  printf("h100: %llu descs, %llu refused with a reason, %llu plans: %llu valid, %llu invalid\n",
         (unsigned long long)c.descs, (unsigned long long)c.refused, (unsigned long long)c.plans,
         (unsigned long long)c.valid, (unsigned long long)c.invalid);
  CHECK(c.invalid == 0);
  CHECK(n > 1 || c.descs >= 1000);
}

static void test_every_plan_validates_vulkan13(void) {
  counts c = {0};
  uint32_t sh, n;
  parse_shard(&sh, &n);
  sweep_preset("vulkan13", &c, sh, n);
  printf("vulkan13: %llu descs, %llu refused with a reason, %llu plans: %llu valid, %llu invalid\n",
         (unsigned long long)c.descs, (unsigned long long)c.refused, (unsigned long long)c.plans,
         (unsigned long long)c.valid, (unsigned long long)c.invalid);
  CHECK(c.invalid == 0);
  CHECK(n > 1 || c.descs >= 1000);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_every_plan_validates_h100),
      TEST_CASE(test_every_plan_validates_vulkan13),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
