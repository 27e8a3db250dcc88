/* tests/gemm/test_elementwise.c — the elementwise template on the template contract:
 * plan defaults and errors, the candidate list, emission into a reused module, and the
 * one-shot's metadata read back from the words. (Running it: tests/cli's demo tests.) */
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/elementwise.h"

static void test_plan_defaults_and_errors(void) {
  spvgen_elementwise_config p;
  char msg[256];
  CHECK(spvgen_elementwise_plan(NULL, NULL, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.local_size, 64);
  CHECK_EQ_U64(p.features, SPVGEN_FEATURE_VULKAN_MEMORY_MODEL); /* the default memory model */
  spvgen_elementwise_desc d = {0};
  d.type = SPVGEN_ELEMENTWISE_F16;
  CHECK(spvgen_elementwise_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK(p.features & SPVGEN_FEATURE_FLOAT16);
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset("vulkan13", &c) == SPVGEN_OK);
  c.features &= ~SPVGEN_FEATURE_FLOAT16;
  CHECK(spvgen_elementwise_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "spvgen_elementwise_plan: f16 needs shaderFloat16");
  d.type = (spvgen_elementwise_type)9;
  CHECK(spvgen_elementwise_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "unknown type 9");
  d.type = 0;
  d.local_size = 2000;
  CHECK(spvgen_elementwise_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "local_size 2000 is over 1024");
  CHECK(spvgen_elementwise_plan(&d, NULL, NULL, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
}

static void test_plans_emit_and_validate(void) {
  spvgen_device_caps c;
  CHECK(spvgen_caps_preset("lavapipe", &c) == SPVGEN_OK);
  spvgen_elementwise_config plans[8];
  uint32_t n = 0;
  CHECK(spvgen_elementwise_plans(NULL, &c, plans, 8, &n, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(n, 4);
  spvgen_elementwise_desc d = {0};
  d.local_size = 128;
  uint32_t n1 = 0;
  CHECK(spvgen_elementwise_plans(&d, &c, NULL, 0, &n1, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(n1, 1);
  spvgen_module *m = spvgen_module_create(NULL);
  for (uint32_t i = 0; i < n && i < 8; i++)
    for (int op = 0; op <= SPVGEN_ELEMENTWISE_MAX; op++)
      for (int t = 0; t <= SPVGEN_ELEMENTWISE_S32; t++) {
        spvgen_elementwise_config p = plans[i];
        p.desc.op = (spvgen_elementwise_op)op;
        p.desc.type = (spvgen_elementwise_type)t;
        spvgen_module_reset(m, NULL);
        spvgen_kernel_info info;
        CHECK(spvgen_elementwise_emit(m, &p, &info) == SPVGEN_OK);
        CHECK_EQ_U64(info.local_size[0], p.desc.local_size);
        CHECK(check_module(m, NULL) != NULL);
      }
  spvgen_module_reset(m, NULL);
  spvgen_elementwise_config bogus;
  memset(&bogus, 0, sizeof bogus);
  CHECK(spvgen_elementwise_emit(m, &bogus, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_elementwise_emit: plan is NULL");
  spvgen_module_destroy(m);
}

static void test_one_shot_metadata_from_words(void) {
  spvgen_kernel k;
  char msg[256];
  spvgen_elementwise_desc d = {0};
  d.local_size = 256;
  CHECK_MSG(spvgen_elementwise(&d, NULL, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(check_words(k.words, k.word_count));
  CHECK_EQ_U64(k.info.binding_count, 3);
  CHECK_STR_EQ(k.info.bindings[2].name, "c");
  CHECK_EQ_U64(k.info.bindings[2].binding, 2);
  CHECK_EQ_U64(k.info.push_constant_size, 4);
  CHECK_EQ_U64(k.info.local_size[0], 256);
  spvgen_kernel_free(&k);
  CHECK(spvgen_elementwise(&d, NULL, NULL, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_plan_defaults_and_errors),
      TEST_CASE(test_plans_emit_and_validate),
      TEST_CASE(test_one_shot_metadata_from_words),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
