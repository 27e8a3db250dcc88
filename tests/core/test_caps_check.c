/* tests/core/test_caps_check.c — caps are validated data: spvgen_caps_check holds every
 * source (presets, a caps JSON file, a struct a caller filled, spvgen_vk_caps) to one set
 * of rules and names the field it refuses; every plan function applies it, so no planner
 * divides by a granularity or shape nobody checked (the SIGFPE of
 * shared/repro/2026-11-26/caps_div0.c); and random caps never crash a planner or an
 * emitter. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "caps_json.h"
#include "harness.h"
#include "module_check.h"
#include "rand.h"
#include "spvgen/spvgen.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  CHECK_EQ_U64(spvgen_caps_preset(name, &c), SPVGEN_OK);
  return c;
}

static void test_every_preset_passes_the_check(void) {
  for (const char *const *n = spvgen_caps_preset_names(); *n; n++) {
    spvgen_device_caps c = preset(*n);
    char msg[512];
    CHECK_MSG(spvgen_caps_check(&c, msg, sizeof msg) == SPVGEN_OK, "%s: %s", *n, msg);
    CHECK_STR_EQ(msg, "");
  }
  char msg[128];
  CHECK_EQ_U64(spvgen_caps_check(NULL, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "caps is NULL");
}

/* One broken field each: the check refuses it and names it. */
static void test_each_rule_names_its_field(void) {
  struct rule {
    const char *want;
    int which;
  };
  static const struct rule rules[] = {
      {"coopmat_flex[0].m_granularity 0 is not 1 to 256", 0},
      {"coopmat_flex[1].k_granularity 0 is not 1 to 256", 1},
      {"coopmat_flex[0].n_granularity 4096 is not 1 to 256", 2},
      {"coopmat[0].k 0 is not 1 to 256", 3},
      {"coopmat[2].m 512 is not 1 to 256", 4},
      {"subgroup_size 48 is not a power of two", 5},
      {"max_workgroup_invocations 0 is not 1 to 65536", 6},
      {"max_workgroup_size[1] 0 is not 1 to 65536", 7},
      {"max_workgroup_count[2] 0 is not 1 to", 8},
      {"coopmat_count 65 is over SPVGEN_MAX_COOPMAT_SHAPES", 9},
      {"coopmat_flex_count 1000 is over SPVGEN_MAX_COOPMAT_FLEX", 10},
      {"coopvec_count 65 is over SPVGEN_MAX_COOPVEC_COMBOS", 11},
      {"name is not NUL-terminated", 12},
      {"coopmat[0].scope 0 is not device, workgroup or subgroup", 13},
      {"coopvec[0] has a component type outside", 14},
      {"min_subgroup_size 64 is over max_subgroup_size 32", 15},
      {"max_shared_memory 2147483648 is over", 16},
      {"coopmat_flex[0].workgroup_invocations 100000 is over 65536", 17},
  };
  for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
    spvgen_device_caps c = preset("h100");
    switch (rules[r].which) {
      case 0: c.coopmat_flex[0].m_granularity = 0; break;
      case 1: c.coopmat_flex[1].k_granularity = 0; break;
      case 2: c.coopmat_flex[0].n_granularity = 4096; break;
      case 3: c.coopmat[0].k = 0; break;
      case 4: c.coopmat[2].m = 512; break;
      case 5: c.subgroup_size = 48; break;
      case 6: c.max_workgroup_invocations = 0; break;
      case 7: c.max_workgroup_size[1] = 0; break;
      case 8: c.max_workgroup_count[2] = 0; break;
      case 9: c.coopmat_count = 65; break;
      case 10: c.coopmat_flex_count = 1000; break;
      case 11: c.coopvec_count = 65; break;
      case 12: memset(c.name, 'x', sizeof c.name); break;
      case 13: c.coopmat[0].scope = (SpvScope)0; break;
      case 14: c.coopvec[0].input = (spvgen_component_type)99; break;
      case 15: c.min_subgroup_size = 64, c.max_subgroup_size = 32; break;
      case 16: c.max_shared_memory = 1u << 31; break;
      case 17: c.coopmat_flex[0].workgroup_invocations = 100000; break;
    }
    char msg[512];
    CHECK_EQ_U64(spvgen_caps_check(&c, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(msg, "spvgen_caps_check: ");
    CHECK_CONTAINS(msg, rules[r].want);
  }
}

/* shared/repro/2026-11-26/caps_div0.c: a zero flexible-dimension granularity, or a zero
 * K in the KHR shapes, was a SIGFPE in the GEMM planner; now every plan function refuses
 * the caps with the field's name, before any planner runs. */
static void test_plan_functions_refuse_bad_caps_naming_the_field(void) {
  spvgen_device_caps flex0 = preset("h100"), k0 = preset("h100");
  for (uint32_t i = 0; i < flex0.coopmat_flex_count; i++) flex0.coopmat_flex[i].m_granularity = 0;
  for (uint32_t i = 0; i < k0.coopmat_count; i++) k0.coopmat[i].k = 0;
  const spvgen_device_caps *bad[2] = {&flex0, &k0};
  const char *field[2] = {"coopmat_flex[0].m_granularity 0", "coopmat[0].k 0"};
  for (int b = 0; b < 2; b++) {
    char msg[512];
    for (int v = 0; v < SPVGEN_GEMM_VARIANT_COUNT; v++) {
      spvgen_gemm_desc d = {.m = 64, .n = 64, .k = 64, .acc_type = SPVGEN_COMPONENT_F32,
                            .out_type = SPVGEN_COMPONENT_F32, .variant = (spvgen_gemm_variant)v};
      spvgen_gemm_config plan;
      CHECK_EQ_U64(spvgen_gemm_plan(&d, bad[b], &plan, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
      CHECK_CONTAINS(msg, field[b]);
      spvgen_gemm_config plans[4];
      uint32_t n = 9;
      CHECK_EQ_U64(spvgen_gemm_plans(&d, bad[b], plans, 4, &n, msg, sizeof msg),
                   SPVGEN_ERROR_INVALID_ARGUMENT);
      CHECK_EQ_U64(n, 0);
      CHECK_CONTAINS(msg, field[b]);
    }
    spvgen_mlp_desc md = {.input_width = 16, .output_width = 16, .hidden_width = 32, .hidden_count = 2};
    spvgen_mlp_config mp;
    CHECK_EQ_U64(spvgen_mlp_plan(&md, bad[b], &mp, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(msg, field[b]);
    spvgen_mlp_config mps[4];
    uint32_t n = 0;
    CHECK_EQ_U64(spvgen_mlp_plans(&md, bad[b], mps, 4, &n, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(msg, field[b]);
    spvgen_mlp_train_desc td = {.net = md};
    spvgen_mlp_train_config tp;
    CHECK_EQ_U64(spvgen_mlp_train_plan(&td, bad[b], &tp, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(msg, field[b]);
    spvgen_mlp_train_config tps[4];
    CHECK_EQ_U64(spvgen_mlp_train_plans(&td, bad[b], tps, 4, &n, msg, sizeof msg),
                 SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(msg, field[b]);
    spvgen_elementwise_desc ed = {0};
    spvgen_elementwise_config ep;
    CHECK_EQ_U64(spvgen_elementwise_plan(&ed, bad[b], &ep, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(msg, field[b]);
  }
}

/* The caps JSON reader applies the same check (the repro files of 2026-11-26). */
static void test_a_caps_file_with_a_zero_granularity_is_refused_naming_it(void) {
  spvgen_device_caps h = preset("h100");
  const char *json =
      "{\"devices\": [{\"name\": \"x\", \"max_workgroup_invocations\": 1024,"
      " \"max_workgroup_size\": [1024, 1024, 64], \"max_workgroup_count\": [65535, 65535, 65535],"
      " \"coopmat_flexible\": [{\"m_granularity\": 16, \"n_granularity\": 0, \"k_granularity\": 16,"
      " \"a\": \"f16\", \"b\": \"f16\", \"c\": \"f32\", \"result\": \"f32\", \"scope\": \"workgroup\"}]}]}";
  char msg[512];
  CHECK(!spvgen_caps_from_json(json, strlen(json), &h, msg, sizeof msg));
  CHECK_CONTAINS(msg, "coopmat_flex[0].n_granularity 0 is not 1 to 256");
}

/* A random u32 written into a random field of a preset, 3000 times: the check refuses
 * or lets it through, and then the GEMM, MLP and elementwise planners answer (and an
 * accepted plan emits), never a crash or a signal. */
typedef struct caps_field {
  size_t offset;
} caps_field;

static uint32_t random_value(void) {
  switch (test_rand_u32() % 6) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 0xFFFFFFFFu;
    case 3: return 1u << (test_rand_u32() % 32);
    case 4: return test_rand_u32() % 300;
    default: return test_rand_u32();
  }
}

static void test_random_caps_never_crash_a_planner(void) {
  static const char *const presets[] = {"h100", "vulkan13", "lavapipe"};
  int accepted = 0, refused = 0;
  spvgen_module *m = spvgen_module_create(NULL);
  for (int round = 0; round < 3000; round++) {
    spvgen_device_caps c = preset(presets[round % 3]);
    /* 1-3 random 32-bit words of the struct past the strings (counts, limits, list
     * entries; the bools and enums inside get any value too). */
    size_t first = offsetof(spvgen_device_caps, vendor_id);
    size_t words = (sizeof c - first) / 4;
    int edits = 1 + (int)(test_rand_u32() % 3);
    for (int e = 0; e < edits; e++) {
      size_t at = first + 4 * (test_rand_u32() % words);
      uint32_t v = random_value();
      memcpy((char *)&c + at, &v, 4);
    }
    char msg[512];
    if (spvgen_caps_check(&c, msg, sizeof msg) != SPVGEN_OK) {
      refused++;
      continue;
    }
    accepted++;
    spvgen_gemm_desc d = {.m = 1 + test_rand_u32() % 300, .n = 1 + test_rand_u32() % 300,
                          .k = 1 + test_rand_u32() % 300,
                          .variant = (spvgen_gemm_variant)(test_rand_u32() % SPVGEN_GEMM_VARIANT_COUNT)};
    spvgen_gemm_config gp;
    if (spvgen_gemm_plan(&d, &c, &gp, msg, sizeof msg) == SPVGEN_OK && round % 10 == 0) {
      spvgen_module_reset(m, NULL);
      spvgen_gemm_emit(m, &gp, NULL);
    }
    spvgen_mlp_desc md = {.input_width = 1 + test_rand_u32() % 64, .output_width = 1 + test_rand_u32() % 64,
                          .hidden_width = 16 << (test_rand_u32() % 3), .hidden_count = test_rand_u32() % 4,
                          .variant = (spvgen_mlp_variant)(test_rand_u32() % 4)};
    spvgen_mlp_config mp;
    if (spvgen_mlp_plan(&md, &c, &mp, msg, sizeof msg) == SPVGEN_OK && round % 10 == 0) {
      spvgen_module_reset(m, NULL);
      spvgen_mlp_emit(m, &mp, NULL);
    }
    spvgen_elementwise_desc ed = {.local_size = random_value() % 2048};
    spvgen_elementwise_config ep;
    spvgen_elementwise_plan(&ed, &c, &ep, msg, sizeof msg);
  }
  spvgen_module_destroy(m);
  CHECK(accepted > 100);
  CHECK(refused > 100);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_every_preset_passes_the_check),
      TEST_CASE(test_each_rule_names_its_field),
      TEST_CASE(test_plan_functions_refuse_bad_caps_naming_the_field),
      TEST_CASE(test_a_caps_file_with_a_zero_granularity_is_refused_naming_it),
      TEST_CASE(test_random_caps_never_crash_a_planner),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
