/* tests/gpu/test_gpu_coopvec.c — SPV_NV_cooperative_vector on a real device: every
 * invocation loads its own f16 input vector (K = 32), computes one
 * OpCooperativeVectorMatrixMulAddNV with an f16 16x32 matrix and f16 bias (all
 * interpretations Float16, f16 result) and stores the 16 results; many invocations, one
 * shared matrix. Once with the matrix in RowMajor layout with a row stride wider than the
 * row, and once with the same matrix converted on the host by the runner
 * (spvgen_vk_convert_coopvec_matrix) into the driver's InferencingOptimal layout. The
 * matrix sits at a non-zero MatrixOffset and the bias at a non-zero BiasOffset, with
 * random values before them. Every result is checked against the CPU.
 *
 * The modules are built and validated (Vulkan 1.3 rules) on every machine; running them
 * needs VK_NV_cooperative_vector with the f16 combination. Without it the runs are skipped
 * with the reason, unless SPVGEN_GPU_REQUIRED=1 (scripts/gpu-check sets it on the GPU
 * machine), where it is a failure.
 *
 * Each run prints one line on stdout for scripts/gpu-check:
 *   gpu-summary <test> max_abs_err=<e> tolerance=<t> gpu_us=<us> device=<name> */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/coop.h"
#include "spvgen/vk.h"

/* ----------------------------------------------------------------- module ---- */

enum {
  VEC_M = 16,                      /* result components (matrix rows) */
  VEC_K = 32,                      /* input components (matrix columns) */
  ROW_ELEMS = VEC_K + 8,           /* row-major row stride in elements: 80 bytes */
  ROW_STRIDE = ROW_ELEMS * 2,      /* bytes; MatrixStride must be a multiple of 16 */
  MATRIX_OFFSET = 64,              /* bytes; MatrixOffset must be a multiple of 64 */
  BIAS_OFFSET = 16,                /* bytes; BiasOffset must be a multiple of 16 */
  LOCAL_SIZE = 64,
  GROUPS = 8,
  VECTORS = LOCAL_SIZE * GROUPS,
};

/* Binding 0: inputs (f16, VEC_K per invocation), 1: matrix, 2: bias, 3: results (f16,
 * VEC_M per invocation). Offsets into inputs/results are in bytes, as the cooperative
 * vector load/store take them. */
static void build_coopvec_module(spvgen_module *m, SpvCooperativeVectorMatrixLayout layout) {
  uint32_t f16 = spvgen_type_float(m, 16), u32 = spvgen_type_int(m, 32, false);
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t in = spvgen_storage_buffer(m, f16, 0, 0, true, NULL);
  uint32_t mat = spvgen_storage_buffer(m, f16, 0, 1, true, NULL);
  uint32_t bias = spvgen_storage_buffer(m, f16, 0, 2, true, NULL);
  uint32_t out = spvgen_storage_buffer(m, f16, 0, 3, false, NULL);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  /* The cooperative vector instructions take a pointer to the array itself. */
  uint32_t parr = spvgen_type_pointer(m, SpvStorageClassStorageBuffer,
                                      spvgen_type_runtime_array_strided(m, f16, 2));
#define U(v) spvgen_const_u32(m, (v))
  uint32_t tin = spvgen_type_coopvec(m, f16, VEC_K);
  uint32_t tout = spvgen_type_coopvec(m, f16, VEC_M);

  spvgen_compute_main(m, "main", LOCAL_SIZE, 1, 1);
  uint32_t zero = U(0);
  uint32_t i = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, gid), (uint32_t[]){0}, 1);
  uint32_t pin = spvgen_access_chain(m, parr, in, &zero, 1);
  uint32_t pmat = spvgen_access_chain(m, parr, mat, &zero, 1);
  uint32_t pbias = spvgen_access_chain(m, parr, bias, &zero, 1);
  uint32_t pout = spvgen_access_chain(m, parr, out, &zero, 1);
  uint32_t x = spvgen_coopvec_load(m, tin, pin, spvgen_op_i_mul(m, u32, i, U(VEC_K * 2)), NULL);
  spvgen_coopvec_matmul_desc d = {
      .result_type = tout,
      .input = x,
      .input_interpretation = SpvComponentTypeFloat16NV,
      .matrix = pmat,
      .matrix_offset = U(MATRIX_OFFSET),
      .matrix_interpretation = SpvComponentTypeFloat16NV,
      .bias = pbias,
      .bias_offset = U(BIAS_OFFSET),
      .bias_interpretation = SpvComponentTypeFloat16NV,
      .m = VEC_M,
      .k = VEC_K,
      .layout = (SpvCooperativeVectorMatrixLayout)layout,
      /* Optimal layouts ignore MatrixStride. */
      .matrix_stride = layout == SpvCooperativeVectorMatrixLayoutRowMajorNV ? ROW_STRIDE : 0,
  };
  uint32_t y = spvgen_coopvec_matmul_add(m, &d);
  spvgen_coopvec_store(m, pout, y, spvgen_op_i_mul(m, u32, i, U(VEC_M * 2)), NULL);
  spvgen_function_end(m);
#undef U
}

/* ------------------------------------------------------------------ tests ---- */

/* Both modules (row-major and inferencing-optimal matrix) are valid SPIR-V for Vulkan 1.3
 * and declare SPV_NV_cooperative_vector; runs everywhere, device or not. */
static void test_coopvec_muladd_modules_pass_vulkan13_validation(void) {
  const SpvCooperativeVectorMatrixLayout layouts[2] = {SpvCooperativeVectorMatrixLayoutRowMajorNV,
                                            SpvCooperativeVectorMatrixLayoutInferencingOptimalNV};
  for (int l = 0; l < 2; l++) {
    spvgen_module *m = spvgen_module_create(NULL);
    build_coopvec_module(m, layouts[l]);
    size_t count = 0;
    const uint32_t *words = check_module(m, &count);
    char *text = check_disassemble(words, count);
    check_has_line(text, "OpCapability CooperativeVectorNV");
    check_has_line(text, "OpExtension \"SPV_NV_cooperative_vector\"");
    spvgen_free_text(text);
    spvgen_module_destroy(m);
  }
}

/* One run: result[j] = bias[j] + sum_k W[j][k] * x[k] for every invocation's x. An
 * optimal layout is converted on the host, or with device_conversion by
 * vkCmdConvertCooperativeVectorMatrixNV between two buffers' device addresses. */
static void run_coopvec_muladd(SpvCooperativeVectorMatrixLayout layout, bool device_conversion) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_COOPVEC | SPVGEN_FEATURE_FLOAT16 |
                                    SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                                    (device_conversion ? SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS : 0));
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_module *m = NULL;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[4] = {NULL, NULL, NULL, NULL}, *src_buf = NULL;
  uint16_t *hin = NULL, *hw = NULL, *hout = NULL;
  uint8_t *hmat = NULL;
  uint16_t hbias[BIAS_OFFSET / 2 + VEC_M];

  if (!spvgen_caps_find_coopvec(caps, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16,
                                SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16,
                                false)) {
    gpu_unavailable("device \"%s\" lists no f16 input/matrix/bias/result cooperative vector "
                    "combination (%u listed)",
                    caps->name, caps->coopvec_count);
    goto done;
  }
  m = spvgen_module_create(NULL);
  build_coopvec_module(m, layout);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));

  /* The matrix, row-major with ROW_ELEMS-element rows; the padding is random too. */
  hin = malloc((size_t)VECTORS * VEC_K * 2);
  hw = malloc((size_t)VEC_M * ROW_ELEMS * 2);
  hout = malloc((size_t)VECTORS * VEC_M * 2);
  if (!hin || !hw || !hout) {
    CHECK_MSG(0, "out of host memory");
    goto done;
  }
  for (size_t i = 0; i < (size_t)VECTORS * VEC_K; i++) hin[i] = gpu_rand_f16();
  for (size_t i = 0; i < (size_t)VEC_M * ROW_ELEMS; i++) hw[i] = gpu_rand_f16();
  for (size_t i = 0; i < sizeof hbias / 2; i++) hbias[i] = gpu_rand_f16();
  const uint16_t *bias = hbias + BIAS_OFFSET / 2;

  /* The matrix buffer: MATRIX_OFFSET random bytes, then the matrix in `layout`. */
  spvgen_vk_coopvec_matrix conv = {
      .rows = VEC_M,
      .columns = VEC_K,
      .src_type = SPVGEN_COMPONENT_F16,
      .dst_type = SPVGEN_COMPONENT_F16,
      .src_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV,
      .dst_layout = layout,
      .src_stride = ROW_STRIDE,
      .dst_stride = layout == SpvCooperativeVectorMatrixLayoutRowMajorNV ? ROW_STRIDE : 0,
  };
  size_t src_size = 0, matrix_size = 0;
  VK_CHECK(ctx, spvgen_vk_coopvec_src_size(&conv, &src_size));
  CHECK_MSG(src_size <= (size_t)VEC_M * ROW_STRIDE &&
                src_size >= (size_t)(VEC_M - 1) * ROW_STRIDE + VEC_K * 2,
            "spvgen_vk_coopvec_src_size gave %zu bytes for a %ux%u f16 matrix with a %u-byte "
            "row stride",
            src_size, VEC_M, VEC_K, ROW_STRIDE);
  if (layout == SpvCooperativeVectorMatrixLayoutRowMajorNV) {
    matrix_size = (size_t)VEC_M * ROW_STRIDE;
  } else {
    VK_CHECK(ctx, spvgen_vk_coopvec_matrix_size(ctx, &conv, &matrix_size));
    CHECK_MSG(matrix_size > 0, "spvgen_vk_coopvec_matrix_size gave 0 bytes");
  }
  hmat = malloc(MATRIX_OFFSET + matrix_size + 4);
  if (!hmat || test_current_failed) {
    CHECK_MSG(hmat, "out of host memory");
    goto done;
  }
  for (size_t i = 0; i < MATRIX_OFFSET; i += 2) {
    uint16_t h = gpu_rand_f16();
    memcpy(hmat + i, &h, 2);
  }
  if (layout == SpvCooperativeVectorMatrixLayoutRowMajorNV) {
    memcpy(hmat + MATRIX_OFFSET, hw, matrix_size);
  } else if (device_conversion) {
    /* Converted below, on the device, straight into the matrix buffer. */
  } else {
    size_t written = 0;
    VK_CHECK(ctx, spvgen_vk_convert_coopvec_matrix(ctx, &conv, hw, src_size,
                                                   hmat + MATRIX_OFFSET, matrix_size, &written));
    CHECK_MSG(written > 0 && written <= matrix_size,
              "spvgen_vk_convert_coopvec_matrix wrote %zu bytes of %zu", written, matrix_size);
  }

  const uint64_t sizes[4] = {(uint64_t)VECTORS * VEC_K * 2,
                             (uint64_t)(MATRIX_OFFSET + matrix_size + 3) / 4 * 4, sizeof hbias,
                             (uint64_t)VECTORS * VEC_M * 2};
  for (int i = 0; i < 4; i++)
    VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizes[i],
                                          i == 1 && device_conversion ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0,
                                          &bufs[i]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, hin, sizes[0]));
  if (device_conversion && layout != SpvCooperativeVectorMatrixLayoutRowMajorNV) {
    /* The random prefix, then the row-major source in a buffer of its own, converted
     * into the matrix buffer at MATRIX_OFFSET (a multiple of 64, as the command needs). */
    VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, hmat, MATRIX_OFFSET));
    VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, (src_size + 3) / 4 * 4,
                                          SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &src_buf));
    VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, src_buf, 0, hw, src_size));
    VK_CHECK(ctx, spvgen_vk_convert_coopvec_matrix_buffers(ctx, &conv, src_buf, 0, bufs[1],
                                                           MATRIX_OFFSET));
  } else {
    VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, hmat, MATRIX_OFFSET + matrix_size));
  }
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[2], 0, hbias, sizes[2]));
  const uint32_t sentinel = 0x7E017E01u; /* two f16 NaNs */
  VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, bufs[3], 0, sizes[3], sentinel));
  uint64_t ns = 0;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 4, NULL, 0, GROUPS, 1, 1, &ns));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[3], 0, hout, sizes[3]));

  double max_err = 0, max_tol = 0;
  uint32_t bad = 0;
  for (uint32_t v = 0; v < VECTORS; v++) {
    for (uint32_t j = 0; j < VEC_M; j++) {
      double ref = gpu_f16_value(bias[j]), mag = fabs(ref);
      for (uint32_t k = 0; k < VEC_K; k++) {
        double p = gpu_f16_value(hw[(size_t)j * ROW_ELEMS + k]) *
                   gpu_f16_value(hin[(size_t)v * VEC_K + k]);
        ref += p;
        mag += fabs(p);
      }
      /* The f16 result's rounding (2^-11 relative) plus the implementation's internal
       * precision, which the spec leaves to the device: allow f16-level error in the sum
       * of magnitudes. A wrong layout or stride gives errors of order 1. */
      double tol = mag * 0x1p-9 + fabs(ref) * 0x1p-10;
      double got = gpu_f16_value(hout[(size_t)v * VEC_M + j]);
      double err = fabs(got - ref);
      if (!(err <= tol)) {
        if (bad++ < 5)
          test_fail_at(__FILE__, __LINE__,
                       "invocation %u result[%u] = %.5g, expected %.5g (tol %.3g)", v, j, got,
                       ref, tol);
      } else if (err > max_err) {
        max_err = err;
      }
      if (tol > max_tol) max_tol = tol;
    }
  }
  CHECK_MSG(bad == 0, "%u of %u results outside tolerance", bad, VECTORS * VEC_M);
  printf("gpu-summary %s max_abs_err=%.3g tolerance=%.3g gpu_us=%.2f device=%s\n",
         test_current_name, bad ? NAN : max_err, max_tol, ns / 1000.0, caps->name);

done:
  for (int i = 0; i < 4; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_buffer_destroy(src_buf);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
  free(hin);
  free(hw);
  free(hout);
  free(hmat);
}

/* RowMajorNV: row j of the matrix is the MatrixStride bytes starting at MatrixOffset +
 * j * MatrixStride; the bias is VEC_M elements at BiasOffset. */
static void test_coopvec_muladd_with_row_major_strided_matrix_matches_cpu(void) {
  run_coopvec_muladd(SpvCooperativeVectorMatrixLayoutRowMajorNV, false);
}

/* InferencingOptimalNV: a matrix converted by vkConvertCooperativeVectorMatrixNV (through
 * spvgen_vk_convert_coopvec_matrix) gives the same products as the row-major original. */
static void test_coopvec_muladd_with_inferencing_optimal_matrix_matches_cpu(void) {
  run_coopvec_muladd(SpvCooperativeVectorMatrixLayoutInferencingOptimalNV, false);
}

/* The same, converted on the device (vkCmdConvertCooperativeVectorMatrixNV through
 * spvgen_vk_convert_coopvec_matrix_buffers) from a row-major buffer into the matrix
 * buffer, after a random prefix that must survive. */
static void test_coopvec_muladd_with_device_converted_optimal_matrix_matches_cpu(void) {
  run_coopvec_muladd(SpvCooperativeVectorMatrixLayoutInferencingOptimalNV, true);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_coopvec_muladd_modules_pass_vulkan13_validation),
      TEST_CASE(test_coopvec_muladd_with_row_major_strided_matrix_matches_cpu),
      TEST_CASE(test_coopvec_muladd_with_inferencing_optimal_matrix_matches_cpu),
      TEST_CASE(test_coopvec_muladd_with_device_converted_optimal_matrix_matches_cpu),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
