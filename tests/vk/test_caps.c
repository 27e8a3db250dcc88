/* tests/vk/test_caps.c — device capabilities: what the runner reports for real devices
 * (lavapipe in CI: no cooperative features, subgroup size 8), device selection and
 * feature requests, and the Vulkan-free parts of spvgen/caps.h (presets, names,
 * lookups), which need no device. */
#include <stdlib.h>
#include <string.h>

#include "spvgen/coop.h" /* spvgen_interpretation_size */
#include "vk_fixture.h"

/* ------------------------------------------------------------ helpers ---- */

/* Every device's caps (malloc'd) or NULL after test_skip when there is none. */
static spvgen_device_caps *all_devices(uint32_t *count) {
  char msg[1024];
  *count = 0;
  spvgen_status st = spvgen_vk_enumerate(NULL, 0, count, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE || (st == SPVGEN_OK && *count == 0)) {
    test_skip("no Vulkan device: %s", st == SPVGEN_OK ? "none listed" : msg);
    return NULL;
  }
  CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_enumerate: %s", msg);
  if (st != SPVGEN_OK) return NULL;
  spvgen_device_caps *caps = calloc(*count, sizeof *caps);
  uint32_t again = 0;
  st = spvgen_vk_enumerate(caps, *count, &again, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "spvgen_vk_enumerate: %s", msg);
  CHECK_EQ_U64(again, *count);
  if (st != SPVGEN_OK) {
    free(caps);
    return NULL;
  }
  return caps;
}

static bool is_lavapipe(const spvgen_device_caps *c) {
  return strstr(c->name, "llvmpipe") != NULL || !strcmp(c->driver_name, "llvmpipe");
}

/* lavapipe's caps from enumeration, or NULL after test_skip. */
static spvgen_device_caps *find_lavapipe(spvgen_device_caps **all) {
  uint32_t n = 0;
  *all = all_devices(&n);
  if (!*all) return NULL;
  for (uint32_t i = 0; i < n; i++)
    if (is_lavapipe(&(*all)[i])) return &(*all)[i];
  test_skip("no lavapipe device among the %u listed", n);
  return NULL;
}

/* ------------------------------------------------------------ devices ---- */

static void test_lavapipe_reports_no_cooperative_features(void) {
  spvgen_device_caps *all = NULL;
  const spvgen_device_caps *lp = find_lavapipe(&all);
  if (lp) {
    CHECK_EQ_U64(lp->features & SPVGEN_FEATURES_COOPERATIVE, 0);
    CHECK_EQ_U64(lp->coopmat_count, 0);
    CHECK_EQ_U64(lp->coopmat_flex_count, 0);
    CHECK_EQ_U64(lp->coopvec_count, 0);
    CHECK_EQ_U64(lp->subgroup_size, 8);
    CHECK_EQ_U64(lp->type, SPVGEN_DEVICE_CPU);
    /* What the SIMT kernels and the tests rely on. */
    CHECK(spvgen_caps_has(lp, SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                                  SPVGEN_FEATURE_VULKAN_MEMORY_MODEL |
                                  SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS));
    /* A context on it says the same. */
    spvgen_vk_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.device_name = "LLVMPIPE"; /* case does not matter */
    spvgen_vk_context *ctx = NULL;
    char msg[1024];
    spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st == SPVGEN_OK) {
      const spvgen_device_caps *c = spvgen_vk_caps(ctx);
      CHECK_STR_EQ(c->name, lp->name);
      CHECK_EQ_U64(c->features & SPVGEN_FEATURES_COOPERATIVE, 0);
      CHECK_EQ_U64(c->subgroup_size, 8);
    }
    spvgen_vk_destroy(ctx);
  }
  free(all);
}

/* The "lavapipe" preset is what CI's lavapipe reports, so offline emission for it and a
 * run on it agree. Compared field by field where a Mesa update could differ. */
static void test_lavapipe_preset_matches_the_device(void) {
  spvgen_device_caps *all = NULL;
  const spvgen_device_caps *lp = find_lavapipe(&all);
  if (lp) {
    spvgen_device_caps preset;
    CHECK_EQ_U64(spvgen_caps_preset("lavapipe", &preset), SPVGEN_OK);
    uint64_t diff = preset.features ^ lp->features;
    CHECK_MSG(diff == 0, "features differ, first: %s", spvgen_feature_name(spvgen_feature_first(diff)));
    CHECK_EQ_U64(preset.subgroup_size, lp->subgroup_size);
    CHECK_EQ_U64(preset.min_subgroup_size, lp->min_subgroup_size);
    CHECK_EQ_U64(preset.max_subgroup_size, lp->max_subgroup_size);
    CHECK_EQ_U64(preset.subgroup_operations, lp->subgroup_operations);
    CHECK_EQ_U64(preset.max_shared_memory, lp->max_shared_memory);
    CHECK_EQ_U64(preset.max_workgroup_invocations, lp->max_workgroup_invocations);
    for (int i = 0; i < 3; i++) {
      CHECK_EQ_U64(preset.max_workgroup_size[i], lp->max_workgroup_size[i]);
      CHECK_EQ_U64(preset.max_workgroup_count[i], lp->max_workgroup_count[i]);
    }
    CHECK_EQ_U64(preset.max_push_constants_size, lp->max_push_constants_size);
    CHECK_EQ_U64(preset.max_storage_buffer_range, lp->max_storage_buffer_range);
    CHECK_EQ_U64(preset.max_spirv_version, lp->max_spirv_version);
  }
  free(all);
}

static void test_enumerated_caps_equal_a_created_contexts_caps(void) {
  uint32_t n = 0;
  spvgen_device_caps *all = all_devices(&n);
  if (!all) return;
  for (uint32_t i = 0; i < n; i++) {
    spvgen_vk_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.use_device_index = true;
    desc.device_index = i;
    spvgen_vk_context *ctx = NULL;
    char msg[1024];
    spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "device %u: %s", i, msg);
    if (st != SPVGEN_OK) continue;
    const spvgen_device_caps *c = spvgen_vk_caps(ctx);
    CHECK_STR_EQ(c->name, all[i].name);
    CHECK_EQ_U64(c->device_index, i);
    CHECK_EQ_U64(c->features, all[i].features);
    CHECK_EQ_U64(c->coopmat_count, all[i].coopmat_count);
    CHECK_EQ_U64(c->coopvec_count, all[i].coopvec_count);
    CHECK_EQ_U64(c->subgroup_size, all[i].subgroup_size);
    CHECK(c->max_shared_memory > 0 && c->max_workgroup_invocations > 0);
    spvgen_vk_destroy(ctx);
  }
  free(all);
}

static void test_enumerate_counts_without_output(void) {
  uint32_t n = 0;
  spvgen_device_caps *all = all_devices(&n);
  if (!all) return;
  uint32_t count = 99;
  char msg[256];
  CHECK_EQ_U64(spvgen_vk_enumerate(NULL, 0, &count, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(count, n);
  /* A smaller array gets the first entries and the full count. */
  spvgen_device_caps one;
  CHECK_EQ_U64(spvgen_vk_enumerate(&one, 1, &count, msg, sizeof msg), SPVGEN_OK);
  CHECK_EQ_U64(count, n);
  CHECK_STR_EQ(one.name, all[0].name);
  CHECK_EQ_U64(spvgen_vk_enumerate(NULL, 1, &count, msg, sizeof msg),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "out is NULL");
  free(all);
}

static void test_required_feature_the_device_lacks_is_named(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  uint64_t absent = SPVGEN_FEATURES_ALL & ~caps->features;
  char name[256];
  snprintf(name, sizeof name, "%s", caps->name);
  spvgen_vk_destroy(ctx);
  if (!absent) {
    test_skip("device '%s' has every feature", name);
    return;
  }
  uint64_t f = spvgen_feature_first(absent);
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = name;
  desc.required_features = f | SPVGEN_FEATURE_INT16;
  char msg[1024];
  spvgen_vk_context *out = (spvgen_vk_context *)&desc; /* must be reset to NULL */
  CHECK_EQ_U64(spvgen_vk_create(&desc, &out, msg, sizeof msg), SPVGEN_ERROR_MISSING_FEATURE);
  CHECK(out == NULL);
  CHECK_CONTAINS(msg, spvgen_feature_name(f));
  CHECK_CONTAINS(msg, spvgen_feature_source(f));
  CHECK_CONTAINS(msg, name);
}

/* disabled_features leaves a feature off: absent from caps, and a module that needs it
 * is refused with the feature's name before the driver sees it. */
static void test_disabled_feature_is_absent_and_named_by_pipeline_creation(void) {
  spvgen_vk_context *probe = vk_open(SPVGEN_FEATURE_FLOAT16);
  if (!probe) return;
  spvgen_vk_destroy(probe);
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.device_name = test_device_name();
  desc.disabled_features = SPVGEN_FEATURE_FLOAT16;
  spvgen_vk_context *ctx = NULL;
  char msg[1024];
  spvgen_status st = spvgen_vk_create(&desc, &ctx, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return;
  CHECK(!spvgen_caps_has(spvgen_vk_caps(ctx), SPVGEN_FEATURE_FLOAT16));

  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_vk_pipeline *pipe = NULL;
  uint32_t f16 = spvgen_type_float(m, 16);
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t pf = 0;
  uint32_t buf = spvgen_storage_buffer(m, f32, 0, 0, false, &pf);
  spvgen_compute_main(m, "main", 8, 1, 1);
  uint32_t i = vk_builtin_x(m, SpvBuiltInGlobalInvocationId);
  uint32_t h = spvgen_op_f_convert(m, f16, spvgen_load(m, f32, vk_element(m, pf, buf, i)));
  uint32_t d = spvgen_op_f_add(m, f16, h, h);
  spvgen_store(m, vk_element(m, pf, buf, i), spvgen_op_f_convert(m, f32, d));
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (words) {
    VK_EXPECT_ERROR(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe),
                    SPVGEN_ERROR_MISSING_FEATURE, "shaderFloat16");
    CHECK_CONTAINS(spvgen_vk_error(ctx), "capability Float16");
    CHECK(pipe == NULL);
  }
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

static void test_device_selection_errors_name_the_devices(void) {
  uint32_t n = 0;
  spvgen_device_caps *all = all_devices(&n);
  if (!all) return;
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.use_device_index = true;
  desc.device_index = n;
  spvgen_vk_context *ctx = NULL;
  char msg[1024];
  CHECK_EQ_U64(spvgen_vk_create(&desc, &ctx, msg, sizeof msg), SPVGEN_ERROR_NO_DEVICE);
  CHECK_CONTAINS(msg, "out of range");
  memset(&desc, 0, sizeof desc);
  desc.device_name = "no such device name 42";
  CHECK_EQ_U64(spvgen_vk_create(&desc, &ctx, msg, sizeof msg), SPVGEN_ERROR_NO_DEVICE);
  CHECK_CONTAINS(msg, "no such device name 42");
  CHECK_CONTAINS(msg, all[0].name);
  CHECK(ctx == NULL);
  free(all);
}

static void test_required_and_disabled_feature_conflict_is_an_error(void) {
  spvgen_vk_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.required_features = SPVGEN_FEATURE_INT8;
  desc.disabled_features = SPVGEN_FEATURE_INT8;
  spvgen_vk_context *ctx = NULL;
  char msg[512];
  CHECK_EQ_U64(spvgen_vk_create(&desc, &ctx, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "shaderInt8 is both required and disabled");
  CHECK_EQ_U64(spvgen_vk_create(NULL, NULL, msg, sizeof msg), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "out is NULL");
}

/* ------------------------------------------------------- without Vulkan ---- */

static void test_h100_preset_holds_the_recorded_caps(void) {
  spvgen_device_caps c;
  CHECK_EQ_U64(spvgen_caps_preset("h100", &c), SPVGEN_OK);
  CHECK_CONTAINS(c.name, "H100");
  CHECK_EQ_U64(c.subgroup_size, 32);
  CHECK_EQ_U64(c.max_shared_memory, 49152);
  CHECK_EQ_U64(c.max_workgroup_invocations, 1024);
  CHECK_EQ_U64(c.coopmat_count, 11);
  CHECK_EQ_U64(c.coopmat_flex_count, 25);
  CHECK_EQ_U64(c.coopvec_count, 16);
  CHECK_EQ_U64(c.coopmat2_workgroup_scope_max_workgroup_size, 256);
  CHECK_EQ_U64(c.coopmat2_flexible_dimensions_max_dimension, 1024);
  CHECK_EQ_U64(c.coopmat2_workgroup_scope_reserved_shared_memory, 8192);
  CHECK(spvgen_caps_has(&c, SPVGEN_FEATURE_COOPMAT | SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE |
                                SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING |
                                SPVGEN_FEATURE_COOPVEC | SPVGEN_FEATURE_COOPVEC_TRAINING |
                                SPVGEN_FEATURE_BFLOAT16_COOPMAT));
  CHECK(!spvgen_caps_has(&c, SPVGEN_FEATURE_FLOAT8));
  CHECK(!spvgen_caps_has(&c, SPVGEN_FEATURE_COOPMAT_ROBUST_BUFFER_ACCESS));
  CHECK(c.coopvec_training_float16_accumulation && !c.coopvec_training_float32_accumulation);
}

static void test_caps_lookups_find_only_listed_entries(void) {
  spvgen_device_caps c;
  CHECK_EQ_U64(spvgen_caps_preset("h100", &c), SPVGEN_OK);
  const spvgen_component_type f16 = SPVGEN_COMPONENT_F16, f32 = SPVGEN_COMPONENT_F32;
  const spvgen_coopmat_shape *s =
      spvgen_caps_find_coopmat(&c, SpvScopeSubgroup, 16, 16, 16, f16, f16, f32, f32);
  CHECK(s && s->m == 16 && s->n == 16 && s->k == 16 && s->c == f32);
  CHECK(spvgen_caps_find_coopmat(&c, SpvScopeSubgroup, 0, 0, 0, SPVGEN_COMPONENT_S8,
                                 SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32,
                                 SPVGEN_COMPONENT_S32) != NULL);
  CHECK(!spvgen_caps_find_coopmat(&c, SpvScopeSubgroup, 8, 8, 8, f16, f16, f32, f32));
  CHECK(!spvgen_caps_find_coopmat(&c, SpvScopeWorkgroup, 16, 16, 16, f16, f16, f32, f32));
  const spvgen_coopmat_flex *fl =
      spvgen_caps_find_coopmat_flex(&c, SpvScopeWorkgroup, 256, f16, f16, f32, f32);
  CHECK(fl && fl->m_granularity == 32 && fl->n_granularity == 32 && fl->k_granularity == 16);
  CHECK(!spvgen_caps_find_coopmat_flex(&c, SpvScopeWorkgroup, 512, f16, f16, f32, f32));
  CHECK(spvgen_caps_find_coopvec(&c, f16, f16, f16, f16, f16, true) != NULL);
  CHECK(spvgen_caps_find_coopvec(&c, f16, SPVGEN_COMPONENT_E4M3, SPVGEN_COMPONENT_E4M3, f16, f16,
                                 false) != NULL);
  CHECK(!spvgen_caps_find_coopvec(&c, f16, SPVGEN_COMPONENT_E4M3, SPVGEN_COMPONENT_E4M3, f16,
                                  f16, true));
  CHECK(!spvgen_caps_find_coopmat(NULL, SpvScopeSubgroup, 0, 0, 0, f16, f16, f32, f32));
}

static void test_vulkan13_preset_has_no_cooperative_features(void) {
  spvgen_device_caps c;
  CHECK_EQ_U64(spvgen_caps_preset("vulkan13", &c), SPVGEN_OK);
  CHECK_EQ_U64(c.features & SPVGEN_FEATURES_COOPERATIVE, 0);
  CHECK_EQ_U64(c.coopmat_count + c.coopmat_flex_count + c.coopvec_count, 0);
  CHECK(spvgen_caps_has(&c, SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_INT8 |
                                SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                                SPVGEN_FEATURE_STORAGE_BUFFER_8BIT |
                                SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS |
                                SPVGEN_FEATURE_VULKAN_MEMORY_MODEL));
  CHECK_EQ_U64(c.api_version, SPVGEN_API_VERSION(1, 3, 0));
  CHECK(c.subgroup_size > 0 && c.max_shared_memory > 0);
}

static void test_unknown_preset_is_an_error_and_names_are_listed(void) {
  spvgen_device_caps c;
  CHECK_EQ_U64(spvgen_caps_preset("h200", &c), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(spvgen_caps_preset(NULL, &c), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(spvgen_caps_preset("h100", NULL), SPVGEN_ERROR_INVALID_ARGUMENT);
  int found = 0, n = 0;
  for (const char *const *p = spvgen_caps_preset_names(); *p; p++, n++) {
    CHECK_EQ_U64(spvgen_caps_preset(*p, &c), SPVGEN_OK);
    found += !strcmp(*p, "h100") + !strcmp(*p, "vulkan13") + !strcmp(*p, "lavapipe");
  }
  CHECK_EQ_U64(found, 3);
  CHECK_EQ_U64(n, 3);
}

static void test_feature_names_are_distinct_vulkan_names(void) {
  for (int i = 0; i < SPVGEN_FEATURE_COUNT; i++) {
    const char *a = spvgen_feature_name(1ull << i);
    CHECK_MSG(strcmp(a, "unknown feature") != 0, "bit %d has no name", i);
    CHECK_MSG(strcmp(spvgen_feature_source(1ull << i), "unknown") != 0, "bit %d has no source", i);
    for (int j = 0; j < i; j++)
      CHECK_MSG(strcmp(a, spvgen_feature_name(1ull << j)) != 0, "bits %d and %d are both %s", j,
                i, a);
  }
  CHECK_STR_EQ(spvgen_feature_name(0), "unknown feature");
  CHECK_STR_EQ(spvgen_feature_name(SPVGEN_FEATURE_INT8 | SPVGEN_FEATURE_INT16), "unknown feature");
  CHECK_STR_EQ(spvgen_feature_name(SPVGEN_FEATURE_COOPMAT), "cooperativeMatrix");
  CHECK_STR_EQ(spvgen_feature_source(SPVGEN_FEATURE_COOPVEC), "VK_NV_cooperative_vector");
  CHECK_EQ_U64(spvgen_feature_first(SPVGEN_FEATURE_INT16 | SPVGEN_FEATURE_FLOAT8),
               SPVGEN_FEATURE_INT16);
  CHECK_EQ_U64(spvgen_feature_first(0), 0);
}

static void test_component_type_names_round_trip(void) {
  for (int t = 0; t < SPVGEN_COMPONENT_UNKNOWN; t++) {
    spvgen_component_type back = SPVGEN_COMPONENT_UNKNOWN;
    const char *name = spvgen_component_type_name((spvgen_component_type)t);
    CHECK_MSG(spvgen_component_type_parse(name, &back) && back == (spvgen_component_type)t,
              "type %d (%s) does not round-trip", t, name);
    CHECK(spvgen_component_type_size((spvgen_component_type)t) > 0);
  }
  CHECK_STR_EQ(spvgen_component_type_name(SPVGEN_COMPONENT_UNKNOWN), "unknown");
  CHECK_EQ_U64(spvgen_component_type_size(SPVGEN_COMPONENT_UNKNOWN), 0);
  CHECK_EQ_U64(spvgen_component_type_size(SPVGEN_COMPONENT_BF16), 2);
  CHECK_EQ_U64(spvgen_component_type_size(SPVGEN_COMPONENT_E4M3), 1);
  CHECK(!spvgen_component_type_parse("f17", NULL));
  CHECK(!spvgen_component_type_parse(NULL, NULL));
}

/* spvgen_component_to_spirv / spvgen_component_from_spirv: each spvgen type with a SPIR-V
 * ComponentType converts to it and back; the rest (BF16, UNKNOWN, out of range) have
 * none, nor do values that are not ComponentType enumerants; a failed conversion leaves
 * *out alone. */
static void test_component_types_convert_to_and_from_spirv(void) {
  static const struct {
    spvgen_component_type type;
    SpvComponentType spirv;
  } pairs[] = {
      {SPVGEN_COMPONENT_F16, SpvComponentTypeFloat16NV},
      {SPVGEN_COMPONENT_F32, SpvComponentTypeFloat32NV},
      {SPVGEN_COMPONENT_F64, SpvComponentTypeFloat64NV},
      {SPVGEN_COMPONENT_S8, SpvComponentTypeSignedInt8NV},
      {SPVGEN_COMPONENT_S16, SpvComponentTypeSignedInt16NV},
      {SPVGEN_COMPONENT_S32, SpvComponentTypeSignedInt32NV},
      {SPVGEN_COMPONENT_S64, SpvComponentTypeSignedInt64NV},
      {SPVGEN_COMPONENT_U8, SpvComponentTypeUnsignedInt8NV},
      {SPVGEN_COMPONENT_U16, SpvComponentTypeUnsignedInt16NV},
      {SPVGEN_COMPONENT_U32, SpvComponentTypeUnsignedInt32NV},
      {SPVGEN_COMPONENT_U64, SpvComponentTypeUnsignedInt64NV},
      {SPVGEN_COMPONENT_E4M3, SpvComponentTypeFloatE4M3NV},
      {SPVGEN_COMPONENT_E5M2, SpvComponentTypeFloatE5M2NV},
      {SPVGEN_COMPONENT_S8_PACKED, SpvComponentTypeSignedInt8PackedNV},
      {SPVGEN_COMPONENT_U8_PACKED, SpvComponentTypeUnsignedInt8PackedNV},
  };
  const size_t n = sizeof pairs / sizeof pairs[0];
  /* Every spvgen value (and one past the end): the listed ones round-trip, the others
   * have no ComponentType. */
  for (int t = 0; t <= SPVGEN_COMPONENT_UNKNOWN + 1; t++) {
    const SpvComponentType *want = NULL;
    for (size_t i = 0; i < n; i++)
      if ((int)pairs[i].type == t) want = &pairs[i].spirv;
    SpvComponentType s = SpvComponentTypeMax;
    bool ok = spvgen_component_to_spirv((spvgen_component_type)t, &s);
    CHECK_MSG(ok == (want != NULL), "%s (%d): to_spirv returned %d",
              spvgen_component_type_name((spvgen_component_type)t), t, ok);
    if (!want) {
      CHECK_MSG(s == SpvComponentTypeMax, "%d: *out changed to %u on failure", t, (unsigned)s);
      continue;
    }
    CHECK_MSG(s == *want, "%s: ComponentType %u, expected %u",
              spvgen_component_type_name((spvgen_component_type)t), (unsigned)s, (unsigned)*want);
    spvgen_component_type back = SPVGEN_COMPONENT_UNKNOWN;
    CHECK_MSG(spvgen_component_from_spirv(s, &back) && (int)back == t,
              "ComponentType %u came back as %s, not %s", (unsigned)s,
              spvgen_component_type_name(back), spvgen_component_type_name((spvgen_component_type)t));
    /* The SPIR-V side agrees on the element size. */
    CHECK_EQ_U64(spvgen_interpretation_size(s),
                 spvgen_component_type_size((spvgen_component_type)t));
  }
  CHECK(!spvgen_component_to_spirv(SPVGEN_COMPONENT_BF16, &(SpvComponentType){0}));
  CHECK(!spvgen_component_to_spirv(SPVGEN_COMPONENT_UNKNOWN, &(SpvComponentType){0}));
  CHECK(!spvgen_component_to_spirv((spvgen_component_type)-1, &(SpvComponentType){0}));
  CHECK(!spvgen_component_to_spirv(SPVGEN_COMPONENT_F16, NULL));

  /* Values that are not ComponentType enumerants (11 is BF16's spvgen number, not a
   * ComponentType), and a NULL out. */
  static const uint32_t not_component_types[] = {11, 12, 16, 1000491004, 1000141000,
                                                 0x7FFFFFFFu, 0xFFFFFFFFu};
  for (size_t i = 0; i < sizeof not_component_types / sizeof not_component_types[0]; i++) {
    spvgen_component_type c = SPVGEN_COMPONENT_F64;
    CHECK_MSG(!spvgen_component_from_spirv((SpvComponentType)not_component_types[i], &c) &&
                  c == SPVGEN_COMPONENT_F64,
              "ComponentType %u converted (to %s)", not_component_types[i],
              spvgen_component_type_name(c));
  }
  CHECK(!spvgen_component_from_spirv(SpvComponentTypeFloat16NV, NULL));
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_lavapipe_reports_no_cooperative_features),
      TEST_CASE(test_lavapipe_preset_matches_the_device),
      TEST_CASE(test_enumerated_caps_equal_a_created_contexts_caps),
      TEST_CASE(test_enumerate_counts_without_output),
      TEST_CASE(test_required_feature_the_device_lacks_is_named),
      TEST_CASE(test_disabled_feature_is_absent_and_named_by_pipeline_creation),
      TEST_CASE(test_device_selection_errors_name_the_devices),
      TEST_CASE(test_required_and_disabled_feature_conflict_is_an_error),
      TEST_CASE(test_h100_preset_holds_the_recorded_caps),
      TEST_CASE(test_caps_lookups_find_only_listed_entries),
      TEST_CASE(test_vulkan13_preset_has_no_cooperative_features),
      TEST_CASE(test_unknown_preset_is_an_error_and_names_are_listed),
      TEST_CASE(test_feature_names_are_distinct_vulkan_names),
      TEST_CASE(test_component_type_names_round_trip),
      TEST_CASE(test_component_types_convert_to_and_from_spirv),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
