/* tests/gemm/test_gemm_runtime.c — GEMM kernels with run-time shapes (spvgen/gemm.h,
 * "Run-time shapes"): the desc's modes, spvgen_gemm_launch_for's checks and push
 * constants, spvgen_gemm_class_for and spvgen_gemm_class_key; one SIMT pipeline on the
 * test device (lavapipe in CI) dispatched for many shapes, layouts, batches, scalars and
 * epilogues, every element against the float64 reference; and the KHR and coopmat2
 * kernels, which need a GPU with cooperative matrices, emitted and validated for the
 * h100 preset over every mode they have (tests/gpu/test_gpu_gemm.c runs them). */
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
  CHECK(spvgen_caps_preset(name, &c) == SPVGEN_OK);
  return c;
}

/* ------------------------------------------------------------------ the API ---- */

static void a_zeroed_desc_is_a_run_time_shape_plan(void) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_config p;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.desc.shapes, SPVGEN_GEMM_SHAPES_RUNTIME);
  CHECK_EQ_U64(p.push_size, sizeof(spvgen_gemm_push));
  CHECK_EQ_U64(p.groups[0], 0);
  CHECK(p.compile_ms > 0);
  spvgen_kernel k;
  CHECK_MSG(spvgen_gemm(&d, &c, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(k.info.push_constant_size, sizeof(spvgen_gemm_push));
  CHECK_EQ_U64(k.info.groups[0], 0);
  check_words(k.words, k.word_count);
  spvgen_kernel_free(&k);
}

static void a_fixed_shape_keeps_its_module_and_grid(void) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = 100, d.n = 60, d.k = 30;
  spvgen_device_caps c = preset("vulkan13");
  spvgen_gemm_config p;
  char msg[512];
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(p.desc.shapes, SPVGEN_GEMM_SHAPES_FIXED);
  CHECK_EQ_U64(p.push_size, 0);
  spvgen_gemm_launch l;
  CHECK_MSG(spvgen_gemm_launch_for(&p, NULL, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.push_size, 0);
  for (int i = 0; i < 3; i++) CHECK_EQ_U64(l.groups[i], p.groups[i]);
  spvgen_gemm_args a = {.m = 100, .n = 61, .k = 30};
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "fixed-shape plan");
}

static void a_partly_set_shape_is_refused(void) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = 64;
  spvgen_gemm_config p;
  char msg[512];
  CHECK(spvgen_gemm_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "m, n and k: set all three");
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME; /* m as a hint */
  CHECK_MSG(spvgen_gemm_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  d.lda = 80;
  CHECK(spvgen_gemm_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "per call");
  d.lda = 0;
  d.shapes = SPVGEN_GEMM_SHAPES_FIXED;
  d.n = d.k = 8;
  d.ld_multiple = 8;
  CHECK(spvgen_gemm_plan(&d, NULL, &p, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "ld_multiple");
}

static spvgen_gemm_config runtime_plan(spvgen_gemm_desc d, const char *caps) {
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  spvgen_device_caps c = preset(caps);
  spvgen_gemm_config p;
  char msg[512];
  memset(&p, 0, sizeof p);
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  return p;
}

static void launch_fills_the_push_constants_and_grid(void) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.tile_m = 32, d.tile_n = 64;
  d.beta = 1.0f;
  d.alpha = 2.0f; /* a run-time alpha */
  spvgen_gemm_config p = runtime_plan(d, "vulkan13");
  spvgen_gemm_args a = {.m = 70, .n = 130, .k = 9, .batch = 3, .lda = 12, .alpha = 0.5f, .beta = 0.25f};
  spvgen_gemm_launch l;
  char msg[512];
  CHECK_MSG(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(l.push_size, 72);
  CHECK_EQ_U64(l.groups[0], 3);
  CHECK_EQ_U64(l.groups[1], 3);
  CHECK_EQ_U64(l.groups[2], 3);
  CHECK_EQ_U64(l.push.m, 70);
  CHECK_EQ_U64(l.push.lda, 12);
  CHECK_EQ_U64(l.push.ldb, 130);   /* tight */
  CHECK_EQ_U64(l.push.stride_a, 70 * 12);
  CHECK_EQ_U64(l.push.stride_d, 70 * 130);
  CHECK(l.push.alpha == 0.5f && l.push.beta == 0.25f);
  CHECK_EQ_U64(l.push.tiles_n, 3);
  a.lda = 8; /* less than K = 9 */
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "lda 8 is less than the row length 9");
  CHECK_CONTAINS(msg, "spvgen_gemm_launch_for");
}

static void launch_refuses_shapes_outside_the_class(void) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.n_multiple = 8;
  d.ld_multiple = 4;
  spvgen_gemm_config p = runtime_plan(d, "vulkan13");
  char msg[512];
  spvgen_gemm_launch l;
  spvgen_gemm_args a = {.m = 5, .n = 12, .k = 16};
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "n 12 is not a multiple of the plan's n_multiple 8");
  a.n = 16;
  a.lda = 18;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "lda 18 is not a multiple of the plan's ld_multiple 4");
  a.lda = 0;
  a.alpha = 3.0f;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "alpha 3");
  a.alpha = 1.0f;
  a.beta = 0.5f;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "no C operand");
  a.beta = 0.0f;
  a.k = 0;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "m, n and k");
  a.k = 16;
  a.m = 1u << 24; /* M's tiles past 65535: refused unless the class folds them (test_gemm_fold.c) */
  a.batch = 1;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "SPVGEN_GEMM_CODEGEN_FOLD_M");
  p.desc.codegen |= SPVGEN_GEMM_CODEGEN_FOLD_M; /* the launch reads the plan's desc */
  CHECK_MSG(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  uint32_t tiles_m = a.m / p.desc.tile_m, fold = (tiles_m + 65534) / 65535;
  CHECK_EQ_U64(l.groups[0], (a.n + p.desc.tile_n - 1) / p.desc.tile_n * fold);
  CHECK_EQ_U64(l.groups[1], (tiles_m + fold - 1) / fold);
  a.m = (1u << 24) + 1; /* past SPVGEN_GEMM_MAX_DIM */
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "at most 2^24");
  CHECK_MSG(spvgen_gemm_launch_for(&p, NULL, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT, "%s", msg);
}

static void class_for_reads_the_class_off_a_shape(void) {
  spvgen_gemm_desc base;
  memset(&base, 0, sizeof base);
  spvgen_gemm_args a = {.m = 257, .n = 3584, .k = 4608, .lda = 4608};
  spvgen_gemm_desc d;
  char msg[512];
  CHECK_MSG(spvgen_gemm_class_for(&base, &a, &d, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(d.shapes, SPVGEN_GEMM_SHAPES_RUNTIME);
  CHECK_EQ_U64(d.m_multiple, 1);
  CHECK_EQ_U64(d.n_multiple, 256);
  CHECK_EQ_U64(d.k_multiple, 256);
  CHECK_EQ_U64(d.ld_multiple, 16);
  CHECK_EQ_U64(d.m, 257);
  a.ldb = 3586; /* 2 * 1793 */
  a.beta = 1.0f;
  CHECK_MSG(spvgen_gemm_class_for(&base, &a, &d, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(d.ld_multiple, 2);
  CHECK(d.beta != 0.0f); /* the shape needs a C operand */
  a.m = 0;
  CHECK(spvgen_gemm_class_for(&base, &a, &d, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "spvgen_gemm_class_for");
}

static void class_keys_follow_the_kernel(void) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.tile_m = d.tile_n = 32;
  spvgen_gemm_config p1 = runtime_plan(d, "vulkan13");
  d.m = 5000; /* another hint, the same kernel */
  spvgen_gemm_config p2 = runtime_plan(d, "vulkan13");
  CHECK_EQ_U64(spvgen_gemm_class_key(&p1), spvgen_gemm_class_key(&p2));
  d.ld_multiple = 8; /* another class */
  spvgen_gemm_config p3 = runtime_plan(d, "vulkan13");
  CHECK_NE_U64(spvgen_gemm_class_key(&p1), spvgen_gemm_class_key(&p3));
  d.ld_multiple = 0;
  d.tile_n = 64; /* another tile */
  spvgen_gemm_config p4 = runtime_plan(d, "vulkan13");
  CHECK_NE_U64(spvgen_gemm_class_key(&p1), spvgen_gemm_class_key(&p4));
  CHECK_EQ_U64(spvgen_gemm_class_key(NULL), 0);
}

/* ------------------------------------------------------- SIMT on the device ---- */


/* One pipeline, every shape of `shapes`; each element checked. */
static void run_shapes(spvgen_vk_context *ctx, spvgen_gemm_desc d, const spvgen_gemm_args *shapes, uint32_t n,
                       const char *what) {
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  gemm_run_result r[16];
  char msg[512];
  gemm_run_options o = {0};
  o.seed = test_rand_u32() | 1u;
  spvgen_status st = gemm_run_shapes(ctx, &d, shapes, n, &o, r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
  if (st != SPVGEN_OK) return;
  for (uint32_t i = 0; i < n; i++) gemm_result_checked(&r[i], what);
}

static void one_simt_pipeline_serves_many_shapes(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const spvgen_gemm_args shapes[] = {
      {.m = 1, .n = 1, .k = 1},       {.m = 1, .n = 37, .k = 5},  {.m = 65, .n = 63, .k = 17},
      {.m = 64, .n = 64, .k = 16},    {.m = 128, .n = 96, .k = 200}, {.m = 23, .n = 1, .k = 29},
      {.m = 33, .n = 17, .k = 9, .lda = 40, .ldb = 41, .ldd = 35}};
  for (int lay = 0; lay < 8; lay++) {
    spvgen_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.variant = SPVGEN_GEMM_SIMT;
    d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
    d.a_layout = (spvgen_matrix_layout)(lay & 1);
    d.b_layout = (spvgen_matrix_layout)((lay >> 1) & 1);
    d.d_layout = (spvgen_matrix_layout)(lay >> 2);
    char what[64];
    snprintf(what, sizeof what, "f16->f32 layout %d", lay);
    run_shapes(ctx, d, shapes, sizeof shapes / sizeof shapes[0], what);
  }
  spvgen_vk_destroy(ctx);
}

static void run_time_batches_scalars_and_epilogues(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.alpha = 2.0f, d.beta = 1.0f; /* run-time alpha, a C operand */
  d.bias = SPVGEN_GEMM_BIAS_COLUMN;
  d.activation = SPVGEN_ACTIVATION_GELU;
  d.c_layout = SPVGEN_COL_MAJOR;
  static const spvgen_gemm_args shapes[] = {
      {.m = 17, .n = 33, .k = 20, .batch = 3, .alpha = 0.5f, .beta = -1.5f},
      {.m = 40, .n = 5, .k = 64, .batch = 2, .stride_a = 40 * 64 + 7, .alpha = 1.0f, .beta = 0.0f},
      {.m = 1, .n = 70, .k = 3, .alpha = -2.0f, .beta = 0.75f, .ldc = 3}};
  run_shapes(ctx, d, shapes, 3, "epilogue f32");
  /* integer inputs, bias and relu */
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.a_type = d.b_type = SPVGEN_COMPONENT_S8;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_S32;
  d.bias = SPVGEN_GEMM_BIAS_ROW;
  d.activation = SPVGEN_ACTIVATION_RELU;
  static const spvgen_gemm_args ishapes[] = {{.m = 9, .n = 65, .k = 33}, {.m = 64, .n = 64, .k = 64, .batch = 2}};
  run_shapes(ctx, d, ishapes, 2, "s8");
  spvgen_vk_destroy(ctx);
}

static void run_time_split_k_on_the_device(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.split_k = 3;
  d.tile_m = d.tile_n = 16;
  static const spvgen_gemm_args shapes[] = {{.m = 20, .n = 30, .k = 100}, {.m = 16, .n = 16, .k = 16, .batch = 2},
                                            {.m = 5, .n = 7, .k = 2}};
  run_shapes(ctx, d, shapes, 3, "split-K 3");
  spvgen_vk_destroy(ctx);
}

/* The runner checks a run-time kernel's buffers against the shape in each dispatch's
 * push constants (the info's size function), naming the binding. */
static void a_small_buffer_for_the_shape_is_refused(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  char msg[512];
  spvgen_kernel k;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *buf[3] = {NULL, NULL, NULL};
  spvgen_gemm_config plan;
  spvgen_gemm_launch l;
  spvgen_gemm_args a = {.m = 40, .n = 24, .k = 16};
  memset(&k, 0, sizeof k);
  CHECK_MSG(spvgen_gemm_plan(&d, spvgen_vk_caps(ctx), &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(spvgen_gemm(&d, spvgen_vk_caps(ctx), &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  VK_CHECK(ctx, spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &pipe));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 40 * 16 * 2, 0, &buf[0]));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 16 * 24 * 2, 0, &buf[1]));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, 40 * 24 * 4 - 4, 0, &buf[2])); /* one element short */
  CHECK(spvgen_vk_dispatch(ctx, pipe, buf, 3, &l.push, l.push_size, l.groups[0], l.groups[1], l.groups[2],
                           NULL) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(spvgen_vk_error(ctx), "'D'");
  CHECK_CONTAINS(spvgen_vk_error(ctx), "3840");
  a.m = 39; /* a shape the buffers hold */
  CHECK_MSG(spvgen_gemm_launch_for(&plan, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, buf, 3, &l.push, l.push_size, l.groups[0], l.groups[1],
                                   l.groups[2], NULL));
done:
  spvgen_kernel_free(&k);
  spvgen_vk_destroy(ctx);
}

static void a_class_promise_takes_the_unchecked_paths(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.tile_m = d.tile_n = 32;
  d.m_multiple = d.n_multiple = 32;
  d.k_multiple = 16;
  d.ld_multiple = 8;
  static const spvgen_gemm_args shapes[] = {{.m = 32, .n = 64, .k = 48}, {.m = 96, .n = 32, .k = 16, .lda = 24}};
  run_shapes(ctx, d, shapes, 2, "class 32x32x16, ld 8");
  spvgen_vk_destroy(ctx);
}

/* ---------------------------------------- cooperative kernels: validation only ---- */

/* Emits and validates d's kernels (split-K: both) for the h100 preset; false (and a
 * failure) when one does not. */
static bool emits_valid(spvgen_gemm_desc d, const char *what) {
  spvgen_device_caps c = preset("h100");
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t n = 0;
  char msg[512];
  spvgen_status st = spvgen_gemm_kernels(&d, &c, k, &n, NULL, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
  if (st != SPVGEN_OK) return false;
  int ok = 1;
  for (uint32_t i = 0; i < n; i++) {
    ok &= check_words(k[i].words, k[i].word_count);
    CHECK_EQ_U64(k[i].info.push_constant_size, sizeof(spvgen_gemm_push));
    spvgen_kernel_free(&k[i]);
  }
  return ok;
}

/* A class of one K (desc.k_fixed): the plan says "K=", its class key follows K, its
 * launch takes any M, N and leading dimension of that K and refuses another K naming
 * k_fixed; a fixed shape with k_fixed, k_fixed without a K, and a packed class of one K
 * are refused naming what is wrong. */
static void a_class_of_one_k_names_and_checks_its_k(void) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.variant = SPVGEN_GEMM_SIMT;
  d.k = 40;
  d.k_fixed = 1;
  spvgen_gemm_config p = runtime_plan(d, "vulkan13");
  CHECK_CONTAINS(p.name, "K=40");
  d.k = 48;
  spvgen_gemm_config q = runtime_plan(d, "vulkan13");
  CHECK(spvgen_gemm_class_key(&p) != spvgen_gemm_class_key(&q));
  char msg[512];
  spvgen_gemm_launch l;
  spvgen_gemm_args a = {.m = 5, .n = 12, .k = 40, .lda = 41};
  CHECK_MSG(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  a.k = 41;
  CHECK(spvgen_gemm_launch_for(&p, &a, &l, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "k 41 is not the plan's K 40");
  CHECK_CONTAINS(msg, "k_fixed");
  spvgen_device_caps c = preset("h100");
  spvgen_gemm_config r;
  d.shapes = SPVGEN_GEMM_SHAPES_FIXED;
  d.m = d.n = 64;
  CHECK(spvgen_gemm_plan(&d, &c, &r, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "k_fixed describe");
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  d.m = d.n = d.k = 0;
  CHECK(spvgen_gemm_plan(&d, &c, &r, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "k_fixed: the class's one K is desc.k, which is 0");
  d.k = 256;
  d.variant = SPVGEN_GEMM_COOPMAT2;
  d.pack = SPVGEN_GEMM_PACK_AB;
  CHECK(spvgen_gemm_plan(&d, &c, &r, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(msg, "not packed");
  d.pack = SPVGEN_GEMM_PACK_AUTO; /* AUTO plans it unpacked, where the plain class packs */
  d.m = d.n = 1000;
  d.k_fixed = 0;
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &r, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK(r.desc.pack != SPVGEN_GEMM_PACK_NONE);
  d.k_fixed = 1;
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &r, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_EQ_U64(r.desc.pack, SPVGEN_GEMM_PACK_NONE);
  d.k_multiple = 3;
  CHECK(spvgen_gemm_plan(&d, &c, &r, msg, sizeof msg) == SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(msg, "k 256 is not a multiple of the class's k_multiple 3");
  /* a short K loop (8 steps of 32) takes the short loop's tile, as a fixed shape does,
   * though it is not in the run-time menu */
  d.k_multiple = 0;
  d.m = 1u << 20, d.n = 256;
  d.ld_multiple = 8;
  d.acc_type = SPVGEN_COMPONENT_F32;
  CHECK_MSG(spvgen_gemm_plan(&d, &c, &r, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(r.desc.tile_m == 128 && r.desc.tile_n == 128 && r.desc.tile_k == 32, "%s", r.name);
}

/* One pipeline of a class of one K serves every M and N of it, each element against
 * float64: simt on the device (the K loop, its edge and the unrolled rest of a constant
 * K), K 1, 40 (an edge step of 16-deep tiles), 200 at unroll 4 and 4096. */
static void a_class_of_one_k_on_the_device(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const uint32_t ks[] = {1, 40, 200, 4096};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    spvgen_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.variant = SPVGEN_GEMM_SIMT;
    d.acc_type = SPVGEN_COMPONENT_F32;
    d.out_type = i & 1 ? SPVGEN_COMPONENT_F16 : SPVGEN_COMPONENT_F32;
    d.b_layout = (spvgen_matrix_layout)(i & 1);
    d.k = ks[i];
    d.k_fixed = 1;
    d.unroll = ks[i] == 200 ? 4 : 0;
    d.bias = SPVGEN_GEMM_BIAS_COLUMN;
    d.activation = SPVGEN_ACTIVATION_TANH;
    const uint32_t k = ks[i];
    const spvgen_gemm_args shapes[] = {{.m = 1, .n = 3, .k = k}, {.m = 70, .n = 65, .k = k},
                                       {.m = 64, .n = 64, .k = k, .lda = k + 3, .ldd = 70},
                                       {.m = 9, .n = 130, .k = k, .batch = 2}};
    char what[64];
    snprintf(what, sizeof what, "k_fixed K %u", k);
    run_shapes(ctx, d, shapes, k == 4096 ? 2 : 4, what);
  }
  spvgen_vk_destroy(ctx);
}

/* Classes of one K on coopmat2 and khr validate (the h100 preset, offline): K a short
 * loop, a main loop and its rest (3008: 47 steps of 64, 94 of 32), a K edge (200), 8-bit
 * operands along M and N (unpacked: a class of one K is not packed), unroll 1 and 2,
 * every edge mode. */
static void classes_of_one_k_validate(void) {
  spvgen_device_caps c = preset("h100");
  static const uint32_t ks[] = {256, 3008, 200};
  static const spvgen_gemm_edge edges[] = {SPVGEN_GEMM_EDGE_BRANCH, SPVGEN_GEMM_EDGE_CLAMP, SPVGEN_GEMM_EDGE_SHIFT};
  int n = 0;
  for (int v = SPVGEN_GEMM_COOPMAT2; v <= SPVGEN_GEMM_COOPMAT_KHR; v++)
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
      for (int t = 0; t < 2; t++)
        for (int u = 1; u <= 2; u++) {
          spvgen_gemm_desc d;
          memset(&d, 0, sizeof d);
          d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
          d.variant = (spvgen_gemm_variant)v;
          d.a_type = d.b_type = t ? SPVGEN_COMPONENT_S8 : SPVGEN_COMPONENT_F16;
          d.acc_type = d.out_type = t ? SPVGEN_COMPONENT_S32 : SPVGEN_COMPONENT_F32;
          d.a_layout = (spvgen_matrix_layout)(u - 1);
          d.m = 2000, d.n = 1000, d.k = ks[i];
          d.k_fixed = 1;
          if (v == SPVGEN_GEMM_COOPMAT2) {
            d.unroll = (uint32_t)u;
            d.edge = edges[(i + (size_t)t + (size_t)u) % 3];
          }
          spvgen_gemm_config p;
          char msg[512];
          spvgen_status st = spvgen_gemm_plan(&d, &c, &p, msg, sizeof msg);
          CHECK_MSG(st == SPVGEN_OK, "variant %d K %u types %d unroll %d: %s", v, ks[i], t, u, msg);
          if (st != SPVGEN_OK) continue;
          CHECK_CONTAINS(p.name, "K=");
          spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
          uint32_t count = 0;
          st = spvgen_gemm_plan_kernels(&p, k, &count, msg, sizeof msg);
          CHECK_MSG(st == SPVGEN_OK, "%s: %s", p.name, msg);
          for (uint32_t j = 0; st == SPVGEN_OK && j < count; j++) {
            check_words(k[j].words, k[j].word_count);
            spvgen_kernel_free(&k[j]);
            n++;
          }
        }
  CHECK(n >= 24);
  /* the kernel holds K: coopmat2's K loop at K 3008, 47 steps of 64, is a fixed shape's, a
   * main loop of 40 steps (to K 2560) and the rest, where the class of any K loops to a
   * count it reads from the push constants */
  for (int kf = 0; kf < 2; kf++) {
    spvgen_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
    d.variant = SPVGEN_GEMM_COOPMAT2;
    d.m = d.n = 2048, d.k = 3008;
    d.tile_m = d.tile_n = 128, d.tile_k = 64, d.unroll = 1;
    d.ld_multiple = 8;
    d.pack = SPVGEN_GEMM_PACK_NONE;
    d.k_fixed = (uint32_t)kf;
    spvgen_kernel k;
    char msg[512];
    CHECK_MSG(spvgen_gemm(&d, &c, &k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    char *text = check_disassemble(k.words, k.word_count);
    CHECK_MSG(text && (strstr(text, "%uint_2560 ") != NULL) == (kf == 1), "k_fixed %d: the main loop's end, K 2560, %s",
              kf, kf ? "missing" : "present");
    free(text);
    spvgen_kernel_free(&k);
  }
}

static void khr_and_coopmat2_run_time_kernels_validate(void) {
  static const spvgen_component_type types[][3] = {{SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32},
                                                   {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16},
                                                   {SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32}};
  static const spvgen_gemm_edge edges[] = {SPVGEN_GEMM_EDGE_BRANCH, SPVGEN_GEMM_EDGE_CLAMP, SPVGEN_GEMM_EDGE_SHIFT};
  int n = 0;
  for (int v = SPVGEN_GEMM_COOPMAT2; v <= SPVGEN_GEMM_COOPMAT_KHR; v++)
    for (size_t t = 0; t < 3; t++)
      for (int lay = 0; lay < 8; lay++)
        for (int cls = 0; cls < 3; cls++) {
          spvgen_gemm_desc d;
          memset(&d, 0, sizeof d);
          d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
          d.variant = (spvgen_gemm_variant)v;
          d.a_type = d.b_type = types[t][0];
          d.acc_type = types[t][1];
          d.out_type = types[t][2];
          d.a_layout = (spvgen_matrix_layout)(lay & 1);
          d.b_layout = (spvgen_matrix_layout)((lay >> 1) & 1);
          d.d_layout = (spvgen_matrix_layout)(lay >> 2);
          /* no promise; aligned rows; whole tiles in every dimension */
          d.ld_multiple = cls ? 16 : 0;
          d.m_multiple = d.n_multiple = d.k_multiple = cls == 2 ? 256 : 0;
          if (v == SPVGEN_GEMM_COOPMAT2) d.edge = edges[(lay + cls + t) % 3];
          if (lay == 5 && t == 0) { /* the epilogue's run-time pieces */
            d.alpha = 2.0f, d.beta = 1.0f;
            d.bias = SPVGEN_GEMM_BIAS_ROW;
            d.activation = SPVGEN_ACTIVATION_SILU;
            if (v == SPVGEN_GEMM_COOPMAT2) d.edge = SPVGEN_GEMM_EDGE_BRANCH;
          }
          if (lay == 6) d.batch = 4;
          char what[96];
          snprintf(what, sizeof what, "%s types %zu layout %d class %d", spvgen_gemm_variant_name(d.variant), t, lay,
                   cls);
          n += emits_valid(d, what);
        }
  CHECK_EQ_U64(n, 2 * 3 * 8 * 3);
}

static void coopmat2_run_time_split_k_and_unrolls_validate(void) {
  for (uint32_t u = 1; u <= 4; u++)
    for (uint32_t sk = 1; sk <= 4; sk *= 2) {
      spvgen_gemm_desc d;
      memset(&d, 0, sizeof d);
      d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
      d.variant = SPVGEN_GEMM_COOPMAT2;
      d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
      d.unroll = u;
      d.edge_unroll = u > 1 ? 1 : 0;
      d.split_k = sk;
      d.beta = sk == 2 ? 1.0f : 0.0f;
      char what[64];
      snprintf(what, sizeof what, "coopmat2 u%u split_k %u", u, sk);
      emits_valid(d, what);
    }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(a_zeroed_desc_is_a_run_time_shape_plan),
      TEST_CASE(a_fixed_shape_keeps_its_module_and_grid),
      TEST_CASE(a_partly_set_shape_is_refused),
      TEST_CASE(launch_fills_the_push_constants_and_grid),
      TEST_CASE(launch_refuses_shapes_outside_the_class),
      TEST_CASE(class_for_reads_the_class_off_a_shape),
      TEST_CASE(class_keys_follow_the_kernel),
      TEST_CASE(one_simt_pipeline_serves_many_shapes),
      TEST_CASE(run_time_batches_scalars_and_epilogues),
      TEST_CASE(run_time_split_k_on_the_device),
      TEST_CASE(a_small_buffer_for_the_shape_is_refused),
      TEST_CASE(a_class_promise_takes_the_unchecked_paths),
      TEST_CASE(a_class_of_one_k_names_and_checks_its_k),
      TEST_CASE(a_class_of_one_k_on_the_device),
      TEST_CASE(classes_of_one_k_validate),
      TEST_CASE(khr_and_coopmat2_run_time_kernels_validate),
      TEST_CASE(coopmat2_run_time_split_k_and_unrolls_validate),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
