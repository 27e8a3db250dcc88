/* tests/vk/test_api_examples.c — the three kernels of issue 10's report, written with the
 * helpers the report asked for (spvgen_buffer_declare, spvgen_push_constants,
 * spvgen_access / spvgen_buffer_element, numbers for strides, spvgen_coop_splat_float).
 *
 * Lines of kernel-building code (the builder function's body), before -> after:
 *   KHR cooperative-matrix GEMM tile: 35 -> 23. Before: build_khr_module in
 *     tests/gpu/test_gpu_coopmat_khr.c (element pointer types threaded through every
 *     access chain, strides made as constant ids by hand); here with a run-time lda from
 *     a push constant on top.
 *   cooperative-vector MLP layer: 21 -> 15. Before: the same layer in the style of
 *     tests/coop/test_coop_vec.c (a runtime-array type, its pointer type and one access
 *     chain per buffer to get the array pointers, ReLU's zero from
 *     spvgen_const_bits(m, f16, 0), the offset before the object in the store).
 *   saxpy with push constants {float a; uint n;} through the runner: 40 -> 13. Before:
 *     vk_build_vector_add and the helpers it needs in tests/vk/vk_fixture.h (push
 *     constants: struct, Block, member Offsets, pointer types, variable, and an access
 *     chain with the member pointer type on every load; element access chains).
 * The GEMM tile and the MLP layer are validated offline (Vulkan 1.3 rules); saxpy runs on
 * the test device (lavapipe in CI) and is compared with the CPU. */
#include <math.h>
#include <string.h>

#include "spvgen/coop.h"
#include "vk_fixture.h"

/* ------------------------------------------------ KHR cooperative-matrix GEMM tile ---- */

/* D_t = A_t * B_t + C_t for the 16x16 tile t = WorkgroupId.x; tiles stacked vertically.
 * lda comes from a push constant (a run-time stride: the _stride_id call), the others
 * are numbers. */
enum { TILE = 16, LDB = 20, LDC = 20, LDD = 28 };

static void build_gemm_tile(spvgen_module *m) {
  uint32_t f16 = spvgen_type_float(m, 16), f32 = spvgen_type_float(m, 32);
  uint32_t u32 = spvgen_type_int(m, 32, false), v3 = spvgen_type_vector(m, u32, 3);
  spvgen_buffer A = spvgen_buffer_declare(m, f16, 0, 0, SPVGEN_BUFFER_READONLY);
  spvgen_buffer B = spvgen_buffer_declare(m, f16, 0, 1, SPVGEN_BUFFER_READONLY);
  spvgen_buffer C = spvgen_buffer_declare(m, f32, 0, 2, SPVGEN_BUFFER_READONLY);
  spvgen_buffer D = spvgen_buffer_declare(m, f32, 0, 3, 0);
  spvgen_push_constant_block pc = spvgen_push_constants(m, &u32, 1); /* { uint lda; } */
  uint32_t wg = spvgen_builtin_input(m, SpvBuiltInWorkgroupId, v3);
  uint32_t ta = spvgen_type_coopmat(m, f16, SpvScopeSubgroup, TILE, TILE, SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t tb = spvgen_type_coopmat(m, f16, SpvScopeSubgroup, TILE, TILE, SpvCooperativeMatrixUseMatrixBKHR);
  uint32_t tc = spvgen_type_coopmat(m, f32, SpvScopeSubgroup, TILE, TILE,
                                    SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  spvgen_compute_main(m, "main", 32, 1, 1);
  const SpvCooperativeMatrixLayout row = SpvCooperativeMatrixLayoutRowMajorKHR;
  uint32_t t = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, wg), (const uint32_t[]){0}, 1);
  uint32_t lda = spvgen_push_constant_load(m, &pc, 0);
  uint32_t row0 = spvgen_op_i_mul(m, u32, t, spvgen_const_u32(m, TILE));
  uint32_t a = spvgen_coopmat_load_stride_id(m, ta, spvgen_buffer_element(m, &A, spvgen_op_i_mul(m, u32, row0, lda)), row, lda, NULL);
  uint32_t b = spvgen_coopmat_load(m, tb, spvgen_buffer_element(m, &B, spvgen_op_i_mul(m, u32, row0, spvgen_const_u32(m, LDB))), row, LDB, NULL);
  uint32_t c = spvgen_coopmat_load(m, tc, spvgen_buffer_element(m, &C, spvgen_op_i_mul(m, u32, row0, spvgen_const_u32(m, LDC))), row, LDC, NULL);
  uint32_t d = spvgen_coopmat_muladd(m, tc, a, b, c, 0);
  spvgen_coopmat_store(m, spvgen_buffer_element(m, &D, spvgen_op_i_mul(m, u32, row0, spvgen_const_u32(m, LDD))), d, row, LDD, NULL);
  spvgen_function_end(m);
}

static void test_khr_gemm_tile_with_the_helpers_validates(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_gemm_tile(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  char *text = words ? check_disassemble(words, count) : NULL;
  CHECK_CONTAINS(text, "OpCooperativeMatrixMulAddKHR");
  CHECK_CONTAINS(text, "%uint_20\n"); /* B's and C's strides: the numbers given */
  CHECK_CONTAINS(text, "%uint_28\n");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* ----------------------------------------------- cooperative-vector MLP layer ---- */

/* out[i] = relu(W x_i + bias): x_i 32 float16 at 64 bytes per invocation, W 16 x 32
 * float16 row-major (tight stride), bias 16 float16, out 16 float16 per invocation. */
static void build_mlp_layer(spvgen_module *m) {
  uint32_t f16 = spvgen_type_float(m, 16), u32 = spvgen_type_int(m, 32, false);
  spvgen_buffer in = spvgen_buffer_declare(m, f16, 0, 0, SPVGEN_BUFFER_READONLY);
  spvgen_buffer weights = spvgen_buffer_declare(m, f16, 0, 1, SPVGEN_BUFFER_READONLY);
  spvgen_buffer out = spvgen_buffer_declare(m, f16, 0, 2, 0);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, spvgen_type_vector(m, u32, 3));
  uint32_t X = spvgen_type_coopvec(m, f16, 32), Y = spvgen_type_coopvec(m, f16, 16);
  spvgen_compute_main(m, "main", 32, 1, 1);
  uint32_t i = spvgen_op_composite_extract(m, u32, spvgen_load(m, spvgen_type_vector(m, u32, 3), gid), (const uint32_t[]){0}, 1);
  uint32_t x = spvgen_coopvec_load(m, X, spvgen_buffer_array(m, &in), spvgen_op_i_mul(m, u32, i, spvgen_const_u32(m, 64)), NULL);
  uint32_t w = spvgen_buffer_array(m, &weights);
  spvgen_coopvec_matmul_desc d = {.result_type = Y, .input = x, .matrix = w, .bias = w,
                                  .bias_offset = spvgen_const_u32(m, 16 * 32 * 2)};
  uint32_t y = spvgen_coopvec_max(m, spvgen_coopvec_matmul_add(m, &d), spvgen_coop_splat_float(m, Y, 0.0));
  spvgen_coopvec_store(m, spvgen_buffer_array(m, &out), y, spvgen_op_i_mul(m, u32, i, spvgen_const_u32(m, 32)), NULL);
  spvgen_function_end(m);
}

static void test_coopvec_mlp_layer_with_the_helpers_validates(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_mlp_layer(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  char *text = words ? check_disassemble(words, count) : NULL;
  CHECK_CONTAINS(text, "OpCooperativeVectorMatrixMulAddNV");
  CHECK_CONTAINS(text, "OpCooperativeVectorStoreNV");
  CHECK_CONTAINS(text, "%half_0x0p_0 = OpConstant %half 0x0p+0");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------- saxpy on a device ---- */

/* y[i] = a * x[i] + y[i] for i < n; push constants { float a; uint n; }. */
static void build_saxpy(spvgen_module *m) {
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  spvgen_buffer x = spvgen_buffer_declare(m, f32, 0, 0, SPVGEN_BUFFER_READONLY);
  spvgen_buffer y = spvgen_buffer_declare(m, f32, 0, 1, 0);
  spvgen_push_constant_block pc = spvgen_push_constants(m, (const uint32_t[]){f32, u32}, 2);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, spvgen_type_vector(m, u32, 3));
  spvgen_compute_main(m, "main", 64, 1, 1);
  uint32_t i = spvgen_op_composite_extract(m, u32, spvgen_load(m, spvgen_type_vector(m, u32, 3), gid), (const uint32_t[]){0}, 1);
  spvgen_if(m, spvgen_op_u_less_than(m, spvgen_type_bool(m), i, spvgen_push_constant_load(m, &pc, 1)));
  uint32_t py = spvgen_buffer_element(m, &y, i);
  uint32_t xi = spvgen_load(m, f32, spvgen_buffer_element(m, &x, i));
  spvgen_store(m, py, spvgen_glsl_fma(m, f32, spvgen_push_constant_load(m, &pc, 0), xi, spvgen_load(m, f32, py)));
  spvgen_end_if(m);
  spvgen_function_end(m);
}

static void test_saxpy_with_the_helpers_runs_on_the_device(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_saxpy(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) {
    spvgen_module_destroy(m);
    return;
  }
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) {
    spvgen_module_destroy(m);
    return;
  }
  enum { N = 1000, CAP = 1024 };
  static float xs[CAP], ys[CAP], got[CAP];
  for (int k = 0; k < CAP; k++) {
    xs[k] = vk_rand_f32();
    ys[k] = vk_rand_f32();
  }
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[2] = {NULL, NULL};
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  for (int k = 0; k < 2; k++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizeof xs, 0, &bufs[k]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, xs, sizeof xs));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, ys, sizeof ys));
  struct { float a; uint32_t n; } push = {1.5f, N};
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 2, &push, sizeof push, (N + 63) / 64, 1, 1, NULL));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[1], 0, got, sizeof got));
  int bad = 0;
  for (int k = 0; k < CAP && bad < 5; k++) {
    float want = k < N ? fmaf(push.a, xs[k], ys[k]) : ys[k];
    if (fabsf(got[k] - want) > 1e-6f * (1.0f + fabsf(want))) {
      CHECK_MSG(0, "y[%d] = %g, expected %g", k, (double)got[k], (double)want);
      bad++;
    }
  }
done:
  for (int k = 0; k < 2; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_vk_destroy(ctx);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_khr_gemm_tile_with_the_helpers_validates),
      TEST_CASE(test_coopvec_mlp_layer_with_the_helpers_validates),
      TEST_CASE(test_saxpy_with_the_helpers_runs_on_the_device),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
