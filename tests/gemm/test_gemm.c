/* tests/gemm/test_gemm.c — the GEMM template's contract (spvgen/gemm.h) and the SIMT
 * variant run on the test device (lavapipe in CI) against the float64 CPU reference of
 * tools/common/gemm_run.c, every element checked, on random nonzero inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_cases.h"
#include "gemm_run.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/check.h"
#include "spvgen/gemm.h"

static spvgen_device_caps preset(const char *name) {
  spvgen_device_caps c;
  memset(&c, 0, sizeof c);
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

static bool ek_float_type(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_F32 || t == SPVGEN_COMPONENT_BF16;
}

static spvgen_gemm_desc shape(uint32_t m, uint32_t n, uint32_t k) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m;
  d.n = n;
  d.k = k;
  return d;
}

/* Expects plan to fail with `st` and a message containing `text`. */
#define EXPECT_PLAN_ERROR(desc, caps, st, text)                                                  \
  do {                                                                                           \
    spvgen_gemm_config p_;                                                                       \
    char m_[512];                                                                                \
    spvgen_status s_ = spvgen_gemm_plan((desc), (caps), &p_, m_, sizeof m_);                     \
    CHECK_MSG(s_ == (st), "plan returned %s, expected %s (%s)", spvgen_status_name(s_),          \
              spvgen_status_name(st), m_);                                                       \
    CHECK_CONTAINS(m_, text);                                                                    \
    CHECK_CONTAINS(m_, "spvgen_gemm_plan: ");                                                    \
  } while (0)

/* ---------------------------------------------------------------- contract ---- */

static void test_zero_desc_resolves_every_field(void) {
  spvgen_device_caps c = preset("vulkan13");
  spvgen_gemm_desc d = shape(300, 200, 100);
  spvgen_gemm_config p;
  char msg[256];
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.variant, SPVGEN_GEMM_SIMT);
  CHECK_EQ_U64(p.desc.variant, SPVGEN_GEMM_SIMT);
  CHECK_EQ_U64(p.desc.a_type, SPVGEN_COMPONENT_F16);
  CHECK_EQ_U64(p.desc.acc_type, SPVGEN_COMPONENT_F16);
  CHECK_EQ_U64(p.desc.batch, 1);
  CHECK_EQ_U64(p.desc.lda, 100); /* row-major M x K: K */
  CHECK_EQ_U64(p.desc.ldb, 200);
  CHECK_EQ_U64(p.desc.ldd, 200);
  CHECK_EQ_U64(p.desc.stride_a, 300 * 100);
  CHECK(p.desc.alpha == 1.0f);
  CHECK_EQ_U64(p.desc.split_k, 1);
  CHECK(p.desc.tile_m && p.desc.tile_n && p.desc.tile_k && p.desc.workgroup_size && p.desc.stages &&
        p.desc.unroll);
  CHECK_EQ_U64(p.local_size[0] * p.local_size[1] * p.local_size[2], p.desc.workgroup_size);
  CHECK_EQ_U64(p.groups[0], (200 + p.desc.tile_n - 1) / p.desc.tile_n);
  CHECK_EQ_U64(p.groups[1], (300 + p.desc.tile_m - 1) / p.desc.tile_m);
  CHECK_EQ_U64(p.groups[2], 1);
  CHECK(p.features & SPVGEN_FEATURE_FLOAT16);
  CHECK_CONTAINS(p.name, "simt f16->f16");
  /* A column-major operand's tight leading dimension is its column length. */
  d.a_layout = SPVGEN_COL_MAJOR;
  CHECK(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(p.desc.lda, 300);
  /* NULL caps: the vulkan13 preset. A success leaves no message (not the refusals of the
   * variants AUTO tried first). */
  strcpy(msg, "stale");
  CHECK(spvgen_gemm_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK);
  CHECK_EQ_U64(p.variant, SPVGEN_GEMM_SIMT);
  CHECK_STR_EQ(msg, "");
}

static void test_plan_errors_name_the_field(void) {
  spvgen_device_caps c = preset("vulkan13"), lvp = preset("lavapipe");
  spvgen_gemm_desc d = shape(0, 5, 5);
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "m, n and k: set all three");
  d.shapes = SPVGEN_GEMM_SHAPES_FIXED;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "m, n and k must be at least 1");
  d = shape(64, 64, 64);
  d.lda = 10;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "lda 10 is less than the row length 64");
  d = shape(64, 64, 64);
  d.b_layout = SPVGEN_COL_MAJOR;
  d.ldb = 63;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "ldb 63 is less than the column length 64");
  d = shape(64, 64, 64);
  d.a_type = d.b_type = SPVGEN_COMPONENT_S8;
  d.acc_type = SPVGEN_COMPONENT_F32;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_UNSUPPORTED, "acc_type f32 with s8 inputs");
  d.acc_type = SPVGEN_COMPONENT_S32;
  d.out_type = SPVGEN_COMPONENT_S32;
  d.alpha = 2.0f;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_UNSUPPORTED, "alpha and beta with integer output s32");
  d = shape(64, 64, 64);
  d.a_type = SPVGEN_COMPONENT_S8;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_UNSUPPORTED, "a_type s8 and b_type f16");
  d = shape(64, 64, 64);
  d.b_type = d.a_type = SPVGEN_COMPONENT_E4M3;
  d.acc_type = SPVGEN_COMPONENT_F32;
  EXPECT_PLAN_ERROR(&d, &lvp, SPVGEN_ERROR_UNSUPPORTED, "a_type e4m3 needs shaderFloat8, which");
  d = shape(64, 64, 64);
  d.variant = SPVGEN_GEMM_COOPMAT2;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_UNSUPPORTED, "coopmat2");
  d.variant = SPVGEN_GEMM_COOPMAT_KHR;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_UNSUPPORTED, "");
  d.variant = (spvgen_gemm_variant)9;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "variant 9 is unknown");
  d = shape(64, 64, 64);
  d.split_k = 17; /* over ceil(k / 4) */
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "split_k 17 is over ceil(k / 4) = 16");
  d.split_k = 5; /* simt's tile_k 16: 4 K steps */
  d.variant = SPVGEN_GEMM_SIMT;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "split_k 5 is over the 4 K steps of tile_k 16");
  d.split_k = 17; /* khr splits K too (tile_k 32 for f16: 2 K steps) */
  d.variant = SPVGEN_GEMM_COOPMAT_KHR;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "split_k 17 is over ceil(k / 4) = 16");
  d = shape(64, 64, 64);
  d.tile_m = 48;
  d.variant = SPVGEN_GEMM_SIMT;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "tile_m 48");
  d = shape(64, 64, 64);
  d.workgroup_size = 100;
  d.variant = SPVGEN_GEMM_SIMT;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "workgroup_size 100");
  d = shape(64, 64, 64);
  d.beta = NAN;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "alpha and beta must be finite");
  d = shape(65536, 65536, 16);
  d.batch = 2;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_UNSUPPORTED, "indices past 2^32 - 1");
  d = shape(64, 64, 64);
  d.batch = 2;
  d.stride_a = 100;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "stride_a 100 is less than one a");
  d = shape(64, 64, 64);
  d.out_type = SPVGEN_COMPONENT_E5M2;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "out_type e5m2 is not a GEMM output type");
  spvgen_gemm_config p;
  CHECK(spvgen_gemm_plan(NULL, &c, &p, NULL, 0) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(spvgen_gemm_plan(&d, &c, NULL, NULL, 0) == SPVGEN_ERROR_INVALID_ARGUMENT);
}

static void test_names_parse_both_ways(void) {
  for (int v = 0; v < SPVGEN_GEMM_VARIANT_COUNT; v++) {
    spvgen_gemm_variant back;
    CHECK(spvgen_gemm_variant_parse(spvgen_gemm_variant_name((spvgen_gemm_variant)v), &back));
    CHECK_EQ_U64(back, v);
  }
  for (int a = 0; a < SPVGEN_ACTIVATION_COUNT; a++) {
    spvgen_activation back;
    CHECK(spvgen_activation_parse(spvgen_activation_name((spvgen_activation)a), &back));
    CHECK_EQ_U64(back, a);
  }
  CHECK(!spvgen_gemm_variant_parse("fast", NULL));
  CHECK(spvgen_gemm_variant_name((spvgen_gemm_variant)7) == NULL);
  CHECK(!spvgen_activation_parse(NULL, NULL));
}

/* One activation enum for every template (spvgen/activation.h): the GEMM epilogue takes
 * every activation of the enum for float outputs, resolves DEFAULT to none and leaky
 * relu's slope 0 to the MLP's 0.01 (and the slope of every other activation to 0),
 * and refuses the MLP-only ones for integer outputs by name. */
static void test_the_epilogue_takes_its_activations_and_names_the_others(void) {
  spvgen_device_caps c = preset("vulkan13");
  spvgen_gemm_desc d = shape(64, 64, 64);
  spvgen_gemm_config p;
  char msg[256];
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.desc.activation, SPVGEN_ACTIVATION_NONE);
  for (int a = SPVGEN_ACTIVATION_NONE; a < SPVGEN_ACTIVATION_COUNT; a++) {
    d.activation = (spvgen_activation)a;
    d.leaky_slope = 0.5f;
    CHECK_MSG(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK, "%s: %s", spvgen_activation_name(d.activation),
              msg);
    CHECK(p.desc.leaky_slope == (a == SPVGEN_ACTIVATION_LEAKY_RELU ? 0.5f : 0.0f));
  }
  d.activation = SPVGEN_ACTIVATION_LEAKY_RELU;
  d.leaky_slope = 0.0f;
  CHECK(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK && p.desc.leaky_slope == 0.01f);
  uint64_t key = spvgen_gemm_class_key(&p);
  d.leaky_slope = 0.02f; /* another slope is another kernel */
  CHECK(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK && spvgen_gemm_class_key(&p) != key);
  d.leaky_slope = (float)INFINITY;
  CHECK(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "leaky_slope must be finite");
  d.leaky_slope = 0.0f;
  d.a_type = d.b_type = SPVGEN_COMPONENT_S8;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_S32;
  d.activation = SPVGEN_ACTIVATION_SIGMOID;
  CHECK(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "activation sigmoid with integer output s32: an integer output takes none or relu");
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.acc_type = SPVGEN_COMPONENT_F32;
  d.out_type = SPVGEN_COMPONENT_S8;
  d.activation = SPVGEN_ACTIVATION_TANH;
  CHECK(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "activation tanh with integer output s8");
  d.out_type = SPVGEN_COMPONENT_F16;
  d.activation = SPVGEN_ACTIVATION_COUNT;
  CHECK(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "activation 9 is unknown");
  spvgen_activation a;
  CHECK(spvgen_activation_parse("leaky_relu", &a) && a == SPVGEN_ACTIVATION_LEAKY_RELU);
  CHECK(spvgen_activation_parse("default", &a) && a == SPVGEN_ACTIVATION_DEFAULT);
  CHECK(!spvgen_activation_parse("Relu", &a));
}

/* Every candidate validates; they differ; emission into a reset module is deterministic. */
static void test_plans_validate_and_emit_deterministically(void) {
  spvgen_device_caps c = preset("vulkan13");
  spvgen_gemm_desc d = shape(129, 77, 45);
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  spvgen_gemm_config plans[64];
  uint32_t n = 0;
  char msg[256];
  CHECK_MSG(spvgen_gemm_plans(&d, &c, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(n >= 8);
  uint32_t count_only = 0;
  CHECK(spvgen_gemm_plans(&d, &c, NULL, 0, &count_only, NULL, 0) == SPVGEN_OK);
  CHECK_EQ_U64(count_only, n);
  spvgen_module *m = spvgen_module_create(NULL);
  for (uint32_t i = 0; i < n && i < 64; i++) {
    for (uint32_t j = 0; j < i; j++) CHECK_MSG(strcmp(plans[i].name, plans[j].name), "duplicate plan %s", plans[i].name);
    spvgen_module_reset(m, NULL);
    spvgen_kernel_info info;
    CHECK(spvgen_gemm_emit(m, &plans[i], &info) == SPVGEN_OK);
    size_t count = 0;
    const uint32_t *w = check_module(m, &count);
    if (!w) break;
    uint32_t *copy = malloc(count * 4);
    memcpy(copy, w, count * 4);
    spvgen_module_reset(m, NULL);
    CHECK(spvgen_gemm_emit(m, &plans[i], NULL) == SPVGEN_OK);
    const uint32_t *w2 = NULL;
    size_t count2 = 0;
    CHECK(spvgen_module_finish(m, &w2, &count2) == SPVGEN_OK);
    CHECK(count2 == count && !memcmp(copy, w2, count * 4));
    free(copy);
    CHECK_EQ_U64(info.groups[0], plans[i].groups[0]);
    CHECK_EQ_U64(info.local_size[0], plans[i].local_size[0]);
  }
  /* A plan not made by spvgen_gemm_plan is refused through the module's error. */
  spvgen_module_reset(m, NULL);
  spvgen_gemm_config bogus;
  memset(&bogus, 0, sizeof bogus);
  CHECK(spvgen_gemm_emit(m, &bogus, NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_gemm_emit: plan is NULL or not made by");
  spvgen_module_destroy(m);
}

static void test_one_shot_fills_the_kernel_info(void) {
  spvgen_device_caps c = preset("lavapipe");
  spvgen_gemm_desc d = shape(50, 60, 70);
  d.beta = 0.5f;
  d.bias = SPVGEN_GEMM_BIAS_COLUMN;
  spvgen_kernel k;
  char msg[256];
  CHECK_MSG(spvgen_gemm(&d, &c, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(check_words(k.words, k.word_count));
  CHECK_EQ_U64(k.info.binding_count, 5); /* A B D C bias */
  for (uint32_t i = 0; i < k.info.binding_count; i++) CHECK_EQ_U64(k.info.bindings[i].binding, i);
  CHECK_EQ_U64(k.info.push_constant_size, 0);
  CHECK(k.info.local_size[0] > 0 && k.info.groups[0] > 0 && k.info.groups[1] > 0);
  spvgen_kernel_free(&k);
  CHECK(k.words == NULL);
  d.m = 0;
  CHECK(spvgen_gemm(&d, &c, &k, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(k.words == NULL);
  CHECK_CONTAINS(msg, "m, n and k");
}

/* ------------------------------------------------------- SIMT on the device ---- */

/* Runs d (SIMT forced) and checks every element. */
static void run_case(spvgen_vk_context *ctx, spvgen_gemm_desc d, const char *what) {
  d.variant = SPVGEN_GEMM_SIMT;
  gemm_run_result r;
  char msg[512];
  gemm_run_options o = {0};
  o.seed = test_rand_u32() | 1u;
  spvgen_status st = gemm_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
  if (st != SPVGEN_OK) return;
  CHECK_EQ_U64(r.checked, (uint64_t)d.m * d.n * (d.batch ? d.batch : 1));
  CHECK_MSG(r.bad == 0,
            "%s [%s] %ux%ux%u: %llu of %llu elements wrong; first (%llu,%llu) batch %llu gpu %g cpu %g",
            what, r.plan.name, d.m, d.n, d.k, (unsigned long long)r.bad, (unsigned long long)r.checked,
            (unsigned long long)r.first_bad_row, (unsigned long long)r.first_bad_col,
            (unsigned long long)r.first_bad_batch, r.first_bad_gpu, r.first_bad_ref);
}

static const uint32_t shapes[][3] = {{1, 1, 1}, {1, 37, 5}, {23, 1, 29}, {7, 3, 1},
                                     {67, 71, 37}, {64, 64, 16}, {65, 63, 17}, {128, 96, 200}};

static void test_simt_shapes_and_layouts_f16(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int lay = 0; lay < 4; lay++) {
      spvgen_gemm_desc d = shape(shapes[s][0], shapes[s][1], shapes[s][2]);
      d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
      d.a_layout = (spvgen_matrix_layout)(lay & 1);
      d.b_layout = (spvgen_matrix_layout)(lay >> 1);
      d.d_layout = (spvgen_matrix_layout)((s + lay) & 1);
      char what[64];
      snprintf(what, sizeof what, "f16/f32 layout %d", lay);
      run_case(ctx, d, what);
    }
  spvgen_vk_destroy(ctx);
}

static void test_simt_type_pairs(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const spvgen_component_type t[][4] = {
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16},
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16},
      {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
      {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32},
      {SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32},
      {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_F32},
      {SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S8},
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_S32},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    for (int lay = 0; lay < 4; lay++) {
      spvgen_gemm_desc d = shape(61, 45, 83);
      d.a_type = t[i][0];
      d.b_type = t[i][1];
      d.acc_type = t[i][2];
      d.out_type = t[i][3];
      d.a_layout = (spvgen_matrix_layout)(lay & 1);
      d.b_layout = (spvgen_matrix_layout)(lay >> 1);
      char what[64];
      snprintf(what, sizeof what, "types %s,%s,%s layout %d", spvgen_component_type_name(t[i][0]),
               spvgen_component_type_name(t[i][2]), spvgen_component_type_name(t[i][3]), lay);
      run_case(ctx, d, what);
    }
  spvgen_vk_destroy(ctx);
}

static void test_simt_epilogue_batch_and_strides(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  /* the GEMM's activations (spvgen/activation.h), in the order of the enum before it was
   * shared: index 0..3 */
  static const spvgen_activation acts[] = {SPVGEN_ACTIVATION_NONE, SPVGEN_ACTIVATION_RELU, SPVGEN_ACTIVATION_GELU,
                                           SPVGEN_ACTIVATION_SILU};
  for (int act = 0; act < 4; act++)
    for (int bias = 0; bias < 3; bias++) {
      spvgen_gemm_desc d = shape(37, 53, 41);
      d.acc_type = SPVGEN_COMPONENT_F32;
      d.out_type = act & 1 ? SPVGEN_COMPONENT_F16 : SPVGEN_COMPONENT_F32;
      d.alpha = 0.75f;
      d.beta = bias == 1 ? -1.5f : 0.0f;
      d.c_layout = (spvgen_matrix_layout)(act & 1);
      d.bias = (spvgen_gemm_bias)bias;
      d.activation = acts[act];
      d.batch = 1 + (uint32_t)bias;
      char what[64];
      snprintf(what, sizeof what, "epilogue act %s bias %d", spvgen_activation_name(d.activation), bias);
      run_case(ctx, d, what);
    }
  /* Padded leading dimensions and batch strides, column-major D. */
  spvgen_gemm_desc d = shape(30, 20, 50);
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.lda = 57;
  d.ldb = 33;
  d.ldd = 31;
  d.d_layout = SPVGEN_COL_MAJOR;
  d.batch = 3;
  d.stride_a = 57 * 30 + 11;
  d.stride_b = 33 * 50 + 5;
  d.stride_d = 31 * 20 + 7;
  run_case(ctx, d, "padded lds and strides");
  /* Integer epilogue: bias and relu. */
  d = shape(33, 17, 300);
  d.a_type = d.b_type = SPVGEN_COMPONENT_S8;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_S32;
  d.bias = SPVGEN_GEMM_BIAS_ROW;
  d.activation = SPVGEN_ACTIVATION_RELU;
  run_case(ctx, d, "s8 bias relu");
  spvgen_vk_destroy(ctx);
}

static void test_simt_every_candidate_runs(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_gemm_desc d = shape(90, 70, 50);
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  spvgen_gemm_config plans[32];
  uint32_t n = 0;
  CHECK(spvgen_gemm_plans(&d, spvgen_vk_caps(ctx), plans, 32, &n, NULL, 0) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 32; i++) {
    spvgen_gemm_desc e = plans[i].desc;
    run_case(ctx, e, plans[i].name);
  }
  spvgen_vk_destroy(ctx);
}

/* ----------------------------------------------------------------- split-K ---- */

static void test_splitk_plan(void) {
  spvgen_device_caps c = preset("vulkan13");
  /* split_k 1 (and 0) plans exactly as before: no workspace, grid z = batch. */
  spvgen_gemm_desc d = shape(100, 90, 301);
  d.batch = 2;
  spvgen_gemm_config p1, p2;
  char msg[256];
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p1, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p1.desc.split_k, 1);
  CHECK_EQ_U64(p1.workspace_bytes, 0);
  CHECK_EQ_U64(p1.groups[2], 2);
  d.split_k = 3;
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p2, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p2.variant, SPVGEN_GEMM_SIMT);
  CHECK_EQ_U64(p2.desc.tile_k, 16);
  CHECK_EQ_U64(p2.slice_k, 112); /* ceil(301 / 3) = 101, rounded up to 16 */
  CHECK_EQ_U64(p2.groups[0], p1.groups[0]);
  CHECK_EQ_U64(p2.groups[1], p1.groups[1]);
  CHECK_EQ_U64(p2.groups[2], 6);
  CHECK_EQ_U64(p2.workspace_binding, 3);
  CHECK_EQ_U64(p2.workspace_ld, 92);
  /* the partial planes only: 3 slices x 2 batches x 100 rows of 92 words */
  CHECK_EQ_U64(p2.workspace_bytes, 3ull * 2 * 100 * 92 * 4);
  CHECK_CONTAINS(p2.name, " sk3");
  CHECK_EQ_U64(spvgen_gemm_kernel_count(&p1), 1);
  CHECK_EQ_U64(spvgen_gemm_kernel_count(&p2), 2);
  /* the reduction: 100 rows x 23 chunks of 4 columns, 128 per workgroup, per batch */
  CHECK_EQ_U64(p2.reduce_groups[0], (100 * 23 + 127) / 128);
  CHECK_EQ_U64(p2.reduce_groups[1], 1);
  CHECK_EQ_U64(p2.reduce_groups[2], 2);
  /* C and bias push the workspace's binding back; each kernel declares its own buffers
   * with the plan's binding numbers. */
  d.beta = 0.5f;
  d.bias = SPVGEN_GEMM_BIAS_COLUMN;
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p2, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p2.workspace_binding, 5);
  spvgen_kernel ks[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t nk = 0;
  CHECK_MSG(spvgen_gemm_kernels(&d, &c, ks, &nk, NULL, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(nk, 2);
  if (nk == 2) {
    static const char *const main_names[] = {"A", "B", "workspace"}, *const reduce_names[] = {"D", "C", "bias",
                                                                                             "workspace"};
    static const uint32_t main_bind[] = {0, 1, 5}, reduce_bind[] = {2, 3, 4, 5};
    CHECK_EQ_U64(ks[0].info.binding_count, 3);
    CHECK_EQ_U64(ks[1].info.binding_count, 4);
    for (uint32_t i = 0; i < 3 && i < ks[0].info.binding_count; i++) {
      CHECK_EQ_U64(ks[0].info.bindings[i].binding, main_bind[i]);
      CHECK_STR_EQ(ks[0].info.bindings[i].name, main_names[i]);
    }
    for (uint32_t i = 0; i < 4 && i < ks[1].info.binding_count; i++) {
      CHECK_EQ_U64(ks[1].info.bindings[i].binding, reduce_bind[i]);
      CHECK_STR_EQ(ks[1].info.bindings[i].name, reduce_names[i]);
    }
    CHECK_EQ_U64(ks[1].info.local_size[0], 128);
    CHECK_EQ_U64(ks[1].info.groups[2], 2);
    for (uint32_t i = 0; i < 2; i++) {
      CHECK_MSG(spvgen_validate(ks[i].words, ks[i].word_count, NULL, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      spvgen_kernel_free(&ks[i]);
    }
  }
  /* The one-shot gives one kernel: an explicit split_k is refused naming the way to both. */
  spvgen_kernel k;
  CHECK(spvgen_gemm(&d, &c, &k, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_gemm_kernels");
  /* The limit: ceil(k / tile_k) slices. */
  d = shape(64, 64, 100);
  d.variant = SPVGEN_GEMM_SIMT;
  d.split_k = 7;
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p2, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  d.split_k = 8;
  EXPECT_PLAN_ERROR(&d, &c, SPVGEN_ERROR_INVALID_ARGUMENT, "split_k 8 is over the 7 K steps");
  /* Candidates: split-K ones only after the others, only for small grids with long K. */
  spvgen_gemm_config plans[64];
  uint32_t n = 0, n_split = 0, first_split = 0;
  d = shape(64, 64, 4096);
  CHECK(spvgen_gemm_plans(&d, &c, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 64; i++) {
    if (plans[i].desc.split_k > 1 && !n_split++) first_split = i;
    if (plans[i].desc.split_k == 1) CHECK_MSG(!n_split, "plan %u (%s) after a split-K one", i, plans[i].name);
  }
  CHECK(n_split >= 2);
  CHECK(first_split > 0);
  d = shape(4096, 4096, 4096);
  CHECK(spvgen_gemm_plans(&d, &c, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 64; i++) CHECK_EQ_U64(plans[i].desc.split_k, 1);
  d = shape(64, 64, 64); /* 4 K steps: too short */
  CHECK(spvgen_gemm_plans(&d, &c, plans, 64, &n, msg, sizeof msg) == SPVGEN_OK);
  for (uint32_t i = 0; i < n && i < 64; i++) CHECK_EQ_U64(plans[i].desc.split_k, 1);
}

/* SIMT split-K on the device (the two dispatches: partials, then the reduction), every
 * element against the float64 reference, run twice (D and the workspace poisoned with
 * NaN before the second run: nothing may depend on what an earlier run left). */
static void run_splitk(spvgen_vk_context *ctx, spvgen_gemm_desc d, const char *what) {
  d.variant = SPVGEN_GEMM_SIMT;
  gemm_run_result r;
  char msg[512];
  gemm_run_options o = {0};
  o.seed = test_rand_u32() | 1u;
  o.recheck = true;
  spvgen_status st = gemm_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
  if (st != SPVGEN_OK) return;
  CHECK_EQ_U64(r.plan.desc.split_k, d.split_k);
  CHECK_EQ_U64(r.checked, (uint64_t)d.m * d.n * (d.batch ? d.batch : 1));
  CHECK_MSG(r.bad == 0,
            "%s [%s] %ux%ux%u: %llu of %llu elements wrong; first (%llu,%llu) batch %llu gpu %g cpu %g",
            what, r.plan.name, d.m, d.n, d.k, (unsigned long long)r.bad, (unsigned long long)r.checked,
            (unsigned long long)r.first_bad_row, (unsigned long long)r.first_bad_col,
            (unsigned long long)r.first_bad_batch, r.first_bad_gpu, r.first_bad_ref);
  CHECK_EQ_U64(r.kernels, 2);
}

static void test_simt_splitk_on_the_device(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  /* K not a multiple of tile_k, odd M and N, batch 2, every epilogue feature. */
  static const spvgen_component_type t[][4] = {
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16},
      {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16},
      {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
      {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32},
      {SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S8},
      {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_F32},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    for (uint32_t sk = 2; sk <= 4; sk++) {
      spvgen_gemm_desc d = shape(37 + 2 * (uint32_t)i, 45, 201 + 16 * sk);
      d.a_type = t[i][0];
      d.b_type = t[i][1];
      d.acc_type = t[i][2];
      d.out_type = t[i][3];
      d.batch = sk == 3 ? 1 : 2;
      d.split_k = sk;
      d.a_layout = (spvgen_matrix_layout)(sk & 1);
      d.b_layout = (spvgen_matrix_layout)((i + sk) & 1);
      d.d_layout = (spvgen_matrix_layout)(i & 1);
      bool int_out = !ek_float_type(t[i][3]);
      if (!int_out) {
        d.alpha = sk == 2 ? 0.75f : -1.25f;
        d.beta = 0.5f;
        d.c_layout = (spvgen_matrix_layout)!d.d_layout;
        static const spvgen_activation float_acts[3] = {SPVGEN_ACTIVATION_RELU, SPVGEN_ACTIVATION_GELU,
                                                        SPVGEN_ACTIVATION_SILU};
        d.activation = float_acts[(i + sk) % 3];
      } else {
        d.activation = SPVGEN_ACTIVATION_RELU;
      }
      d.bias = (spvgen_gemm_bias)(1 + (i + sk) % 2);
      char what[96];
      snprintf(what, sizeof what, "split_k %u types %s,%s->%s", sk, spvgen_component_type_name(t[i][0]),
               spvgen_component_type_name(t[i][2]), spvgen_component_type_name(t[i][3]));
      run_splitk(ctx, d, what);
    }
  /* The plain epilogue; a slice past K (k 100 split 5 with tile_k 16: slices of 32);
   * the most slices (one K step each); padded leading dimensions and batch strides. */
  spvgen_gemm_desc d = shape(19, 23, 100);
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.split_k = 5;
  run_splitk(ctx, d, "empty last slice");
  d.split_k = 7;
  run_splitk(ctx, d, "one K step per slice");
  d = shape(30, 20, 150);
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.lda = 157;
  d.ldb = 33;
  d.ldd = 31;
  d.d_layout = SPVGEN_COL_MAJOR;
  d.batch = 3;
  d.stride_a = 157 * 30 + 11;
  d.stride_b = 33 * 150 + 5;
  d.stride_d = 31 * 20 + 7;
  d.split_k = 2;
  run_splitk(ctx, d, "padded lds and strides");
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  run_splitk(ctx, d, "padded lds and strides, device addresses");
  /* Both addressing forms with run-time shapes (the slices, grids and workspace per
   * launch), odd shapes whose K is no multiple of split_k x tile_k, batches, C, bias and
   * an activation, f16 and f32 D. */
  static const struct { uint32_t m, n, k, batch, sk; spvgen_component_type out; } rt[] = {
      {33, 70, 333, 2, 3, SPVGEN_COMPONENT_F32}, {5, 129, 500, 1, 4, SPVGEN_COMPONENT_F16},
      {64, 61, 97, 3, 2, SPVGEN_COMPONENT_F16}};
  for (size_t i = 0; i < sizeof rt / sizeof rt[0]; i++)
    for (int bda = 0; bda < 2; bda++) {
      d = shape(rt[i].m, rt[i].n, rt[i].k);
      d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
      d.batch = rt[i].batch;
      d.split_k = rt[i].sk;
      d.acc_type = SPVGEN_COMPONENT_F32;
      d.out_type = rt[i].out;
      d.b_layout = (spvgen_matrix_layout)(i & 1);
      d.d_layout = (spvgen_matrix_layout)bda;
      d.alpha = 1.5f;
      d.beta = 0.25f;
      d.bias = (spvgen_gemm_bias)(1 + (i + bda) % 2);
      d.activation = SPVGEN_ACTIVATION_SILU;
      d.addressing = bda ? SPVGEN_ADDRESSING_DEVICE_ADDRESS : SPVGEN_ADDRESSING_DESCRIPTORS;
      char what[64];
      snprintf(what, sizeof what, "run-time %ux%ux%u split_k %u%s", rt[i].m, rt[i].n, rt[i].k, rt[i].sk,
               bda ? " device addresses" : "");
      run_splitk(ctx, d, what);
    }
  spvgen_vk_destroy(ctx);
}


/* The activations the epilogue shares with the MLP (leaky relu with the default and a
 * custom slope, sigmoid, tanh, exp) on the device, every element against float64: fixed
 * and run-time shapes, split-K (the reduction kernel runs the epilogue), f16 and f32 D,
 * bias and C. |z| stays under about 8 (alpha 0.25 on K <= 75), so exp fits f16. */
static void test_simt_every_activation_on_the_device(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct { spvgen_activation act; float slope; } acts[] = {
      {SPVGEN_ACTIVATION_LEAKY_RELU, 0.0f}, {SPVGEN_ACTIVATION_LEAKY_RELU, -0.3f}, {SPVGEN_ACTIVATION_SIGMOID, 0.0f},
      {SPVGEN_ACTIVATION_TANH, 0.0f},       {SPVGEN_ACTIVATION_EXP, 0.0f}};
  for (size_t a = 0; a < sizeof acts / sizeof acts[0]; a++)
    for (int form = 0; form < 3; form++) { /* fixed, run-time, split-K */
      spvgen_gemm_desc d = shape(37 + 4 * (uint32_t)form, 53, 41 + 17 * (uint32_t)form);
      d.acc_type = SPVGEN_COMPONENT_F32;
      d.out_type = (a + (size_t)form) & 1 ? SPVGEN_COMPONENT_F16 : SPVGEN_COMPONENT_F32;
      d.alpha = 0.25f;
      d.beta = form == 1 ? 0.0f : -0.5f;
      d.c_layout = (spvgen_matrix_layout)(form & 1);
      d.bias = (spvgen_gemm_bias)(1 + (a + (size_t)form) % 2);
      d.activation = acts[a].act;
      d.leaky_slope = acts[a].slope;
      d.batch = 1 + (uint32_t)(form == 2);
      if (form == 1) d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
      if (form == 2) d.split_k = 3;
      char what[96];
      snprintf(what, sizeof what, "epilogue %s slope %g %s %s", spvgen_activation_name(d.activation),
               (double)acts[a].slope, form == 0 ? "fixed" : form == 1 ? "run-time" : "split-K",
               spvgen_component_type_name(d.out_type));
      if (form == 2) run_splitk(ctx, d, what);
      else run_case(ctx, d, what);
    }
  spvgen_vk_destroy(ctx);
}

/* The float activations keep their relative precision value by value, near 0 included
 * (gemm_activation_precision, tests/support/gemm_cases.h: tanh's 1 - 2 / (e^2x + 1)
 * alone fails it below 1/8, and the old 0.5 x (1 + tanh z) of gelu fails it for
 * negative x); the test above allows 3e-5 + 3e-5 |ref|, which such a loss passes. */
static void test_simt_activations_keep_their_relative_precision_on_the_device(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  gemm_activations_precise(ctx, SPVGEN_GEMM_SIMT);
  spvgen_vk_destroy(ctx);
}

/* Every variant's kernels with each of those activations validate (coopmat2 and khr on
 * the h100 preset, offline; fixed and run-time shapes; split-K's reduction), and the
 * kernel that runs the epilogue computes the activation (its instruction is there). */
static void test_every_variant_emits_every_activation(void) {
  spvgen_device_caps caps = preset("h100");
  static const spvgen_gemm_variant variants[] = {SPVGEN_GEMM_COOPMAT2, SPVGEN_GEMM_COOPMAT_KHR, SPVGEN_GEMM_SIMT};
  static const struct { spvgen_activation act; const char *op; } acts[] = {
      {SPVGEN_ACTIVATION_LEAKY_RELU, "OpSelect"}, {SPVGEN_ACTIVATION_SIGMOID, " Exp "},
      {SPVGEN_ACTIVATION_TANH, " Exp "}, {SPVGEN_ACTIVATION_EXP, " Exp "}};
  spvgen_module *m = spvgen_module_create(NULL);
  for (size_t v = 0; v < 3; v++)
    for (size_t a = 0; a < sizeof acts / sizeof acts[0]; a++)
      for (int form = 0; form < 4; form++) { /* fixed, run-time; each unsplit and split-K */
        spvgen_gemm_desc d = shape(256, 192, form & 2 ? 4096 : 128);
        d.acc_type = SPVGEN_COMPONENT_F32;
        d.out_type = a & 1 ? SPVGEN_COMPONENT_F16 : SPVGEN_COMPONENT_F32;
        d.bias = SPVGEN_GEMM_BIAS_COLUMN;
        d.activation = acts[a].act;
        d.variant = variants[v];
        if (form & 1) d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
        d.split_k = form & 2 ? 4 : 1;
        spvgen_gemm_config p;
        char msg[512];
        spvgen_status st = spvgen_gemm_plan(&d, &caps, &p, msg, sizeof msg);
        CHECK_MSG(st == SPVGEN_OK, "%s %s form %d: %s", spvgen_gemm_variant_name(variants[v]),
                  spvgen_activation_name(acts[a].act), form, msg);
        if (st != SPVGEN_OK) continue;
        const spvgen_gemm_kernel epi = p.desc.split_k > 1 ? SPVGEN_GEMM_KERNEL_REDUCE : SPVGEN_GEMM_KERNEL_MAIN;
        CHECK_MSG((form & 2) == 0 || p.desc.split_k > 1, "%s: not split", p.name);
        for (uint32_t k = 0; k < spvgen_gemm_kernel_count(&p); k++) {
          spvgen_module_reset(m, NULL);
          CHECK_EQ_U64(spvgen_gemm_emit_kernel(m, &p, (spvgen_gemm_kernel)k, NULL), SPVGEN_OK);
          size_t count = 0;
          const uint32_t *w = check_module(m, &count);
          if (!w || k != (uint32_t)epi) continue;
          char *text = check_disassemble(w, count);
          CHECK_MSG(text && strstr(text, acts[a].op), "%s, kernel %u: no%s in the epilogue", p.name, k, acts[a].op);
          /* tanh is written with Exp: the driver's Tanh costs far more (activation.c) */
          CHECK_MSG(!text || !strstr(text, " Tanh "), "%s, kernel %u: Tanh in the module", p.name, k);
          free(text);
        }
      }
  spvgen_module_destroy(m);
}

/* The default plans keep to the compile budget (estimates, emitters/gemm/plan_cost.c):
 * 300 ms for a short run, 1000 for one of a millisecond or more; none above 1000 ms. A
 * cooperative plan over the budget is never replaced by SIMT (the fallback of devices
 * without cooperative matrices), and a desc's own budget buys the slower compiles. */
static void test_default_plans_keep_to_the_compile_budget(void) {
  spvgen_device_caps caps = preset("h100");
  static const struct { uint32_t m, n, k; spvgen_component_type a, acc; spvgen_matrix_layout bl; } cases[] = {
      {8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_ROW_MAJOR},
      {8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COL_MAJOR},
      {4097, 4095, 4093, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_ROW_MAJOR},
      {4097, 4095, 4093, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_ROW_MAJOR},
      {3000, 3000, 3000, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_ROW_MAJOR},
      {2048, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COL_MAJOR},
      {257, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COL_MAJOR},
      {1, 3584, 3584, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COL_MAJOR},
      {128, 16384, 4096, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COL_MAJOR}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spvgen_gemm_desc d = shape(cases[i].m, cases[i].n, cases[i].k);
    d.a_type = d.b_type = cases[i].a;
    d.acc_type = d.out_type = cases[i].acc;
    d.b_layout = cases[i].bl;
    spvgen_gemm_config p;
    char msg[512];
    CHECK_MSG(spvgen_gemm_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    double run_ms = 2.0 * d.m * (double)d.n * d.k / 200e12 * 1e3;
    uint32_t budget = run_ms >= 1.0 ? 1000 : 300;
    CHECK_MSG(p.compile_ms <= 1000, "%ux%ux%u: %s estimated at %u ms", d.m, d.n, d.k, p.name, p.compile_ms);
    CHECK_MSG(p.variant != SPVGEN_GEMM_SIMT, "%ux%ux%u: %s", d.m, d.n, d.k, p.name);
    if (p.compile_ms > budget) { /* only when no cooperative plan fits: then the cheapest */
      spvgen_gemm_desc k = d;
      k.variant = SPVGEN_GEMM_COOPMAT_KHR;
      spvgen_gemm_config kp;
      CHECK(spvgen_gemm_plan(&k, &caps, &kp, NULL, 0) == SPVGEN_OK);
      CHECK_MSG(p.compile_ms <= kp.compile_ms, "%ux%ux%u over budget: %s (%u ms) where khr's is %u ms", d.m, d.n, d.k,
                p.name, p.compile_ms, kp.compile_ms);
    }
    if (i == 0) CHECK_MSG(p.variant == SPVGEN_GEMM_COOPMAT2 && p.desc.unroll == 2, "8192^3: %s", p.name);
    if (i == 8) CHECK_MSG(p.variant == SPVGEN_GEMM_COOPMAT2, "s8 128x16384x4096: %s", p.name);
  }
  spvgen_gemm_desc d = shape(8192, 8192, 8192);
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.compile_budget_ms = 5000;
  spvgen_gemm_config p;
  CHECK(spvgen_gemm_plan(&d, &caps, &p, NULL, 0) == SPVGEN_OK);
  CHECK_MSG(p.desc.unroll == 4 && p.compile_ms > 1000, "budget 5000: %s (%u ms)", p.name, p.compile_ms);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_zero_desc_resolves_every_field),
      TEST_CASE(test_plan_errors_name_the_field),
      TEST_CASE(test_names_parse_both_ways),
      TEST_CASE(test_the_epilogue_takes_its_activations_and_names_the_others),
      TEST_CASE(test_plans_validate_and_emit_deterministically),
      TEST_CASE(test_one_shot_fills_the_kernel_info),
      TEST_CASE(test_simt_shapes_and_layouts_f16),
      TEST_CASE(test_simt_type_pairs),
      TEST_CASE(test_simt_epilogue_batch_and_strides),
      TEST_CASE(test_simt_every_activation_on_the_device),
      TEST_CASE(test_simt_activations_keep_their_relative_precision_on_the_device),
      TEST_CASE(test_every_variant_emits_every_activation),
      TEST_CASE(test_simt_every_candidate_runs),
      TEST_CASE(test_splitk_plan),
      TEST_CASE(test_simt_splitk_on_the_device),
      TEST_CASE(test_default_plans_keep_to_the_compile_budget),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
