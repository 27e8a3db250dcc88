/* tests/gpu/test_gpu_coopmat_khr.c — SPV_KHR_cooperative_matrix on a real device: one
 * 16x16x16 f16 x f16 + f32 -> f32 OpCooperativeMatrixMulAddKHR at subgroup scope per
 * workgroup, with OpCooperativeMatrixLoadKHR / StoreKHR in row-major layout and a row
 * stride wider than the tile, checked element by element against a CPU reference.
 *
 * The module is built and validated (Vulkan 1.3 rules) on every machine; running it needs
 * a device with VK_KHR_cooperative_matrix and a 16x16x16 f16/f32 subgroup shape. Without
 * one the run is skipped with the reason (CI has lavapipe), unless SPVGEN_GPU_REQUIRED=1
 * (set by scripts/gpu-check on the GPU machine), where it is a failure.
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

#define TILE 16u

/* ----------------------------------------------------------------- module ---- */

/* Row strides in elements: all wider than the tile, so a load or store that ignored the
 * stride would read padding or write into it. */
typedef struct khr_layout {
  uint32_t lda, ldb, ldc, ldd;
} khr_layout;

static const khr_layout LAYOUT = {24, 20, 20, 28};

/* Binding 0: A (f16), 1: B (f16), 2: C (f32), 3: D (f32). Workgroup t (x) computes
 * D_t = A_t * B_t + C_t, where tile t of each matrix starts at row t * 16 (tiles stacked
 * vertically, each 16 rows of `ld` elements). local_size is one subgroup. */
static void build_khr_module(spvgen_module *m, uint32_t local_size) {
  uint32_t f16 = spvgen_type_float(m, 16), f32 = spvgen_type_float(m, 32);
  uint32_t u32 = spvgen_type_int(m, 32, false), v3 = spvgen_type_vector(m, u32, 3);
  uint32_t p16 = 0, p32 = 0;
  uint32_t a = spvgen_storage_buffer(m, f16, 0, 0, true, &p16);
  uint32_t b = spvgen_storage_buffer(m, f16, 0, 1, true, NULL);
  uint32_t c = spvgen_storage_buffer(m, f32, 0, 2, true, &p32);
  uint32_t d = spvgen_storage_buffer(m, f32, 0, 3, false, NULL);
  uint32_t wg = spvgen_builtin_input(m, SpvBuiltInWorkgroupId, v3);

  uint32_t ta = spvgen_type_coopmat(m, f16, SpvScopeSubgroup, TILE, TILE,
                                    SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t tb = spvgen_type_coopmat(m, f16, SpvScopeSubgroup, TILE, TILE,
                                    SpvCooperativeMatrixUseMatrixBKHR);
  uint32_t tc = spvgen_type_coopmat(m, f32, SpvScopeSubgroup, TILE, TILE,
                                    SpvCooperativeMatrixUseMatrixAccumulatorKHR);

  spvgen_compute_main(m, "main", local_size, 1, 1);
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t t = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, wg), (uint32_t[]){0}, 1);
  const SpvCooperativeMatrixLayout row_major = SpvCooperativeMatrixLayoutRowMajorKHR;
  const uint32_t lds[4] = {LAYOUT.lda, LAYOUT.ldb, LAYOUT.ldc, LAYOUT.ldd};
  const uint32_t vars[4] = {a, b, c, d};
  const uint32_t ptrs[4] = {p16, p16, p32, p32};
  uint32_t at[4], stride[4];
  for (int i = 0; i < 4; i++) {
    uint32_t first = spvgen_op_i_mul(m, u32, t, spvgen_const_u32(m, TILE * lds[i]));
    at[i] = spvgen_access_chain(m, ptrs[i], vars[i], (uint32_t[]){zero, first}, 2);
    stride[i] = lds[i]; /* elements: a number */
  }
  uint32_t ma = spvgen_coopmat_load(m, ta, at[0], row_major, stride[0], NULL);
  uint32_t mb = spvgen_coopmat_load(m, tb, at[1], row_major, stride[1], NULL);
  uint32_t mc = spvgen_coopmat_load(m, tc, at[2], row_major, stride[2], NULL);
  uint32_t md = spvgen_coopmat_muladd(m, tc, ma, mb, mc, 0);
  spvgen_coopmat_store(m, at[3], md, row_major, stride[3], NULL);
  spvgen_function_end(m);
}

/* ------------------------------------------------------------------ tests ---- */

/* The module is valid SPIR-V for Vulkan 1.3 and declares what KHR cooperative matrices
 * need; runs everywhere, device or not. */
static void test_khr_muladd_module_passes_vulkan13_validation(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_khr_module(m, 32);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  char *text = check_disassemble(words, count);
  check_has_line(text, "OpCapability CooperativeMatrixKHR");
  check_has_line(text, "OpCapability Float16");
  check_has_line(text, "OpCapability StorageBuffer16BitAccess");
  check_has_line(text, "OpExtension \"SPV_KHR_cooperative_matrix\"");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

#define TILES 4u

/* OpCooperativeMatrixMulAddKHR computes A * B + C, and loads/stores with RowMajorKHR and
 * a Stride read and write row r of a tile at element r * Stride: every element of every
 * tile matches the CPU, and the padding between rows is never written. */
static void test_khr_subgroup_muladd_16x16x16_with_strided_row_major_memory_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_COOPMAT | SPVGEN_FEATURE_FLOAT16 |
                                    SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_module *m = NULL;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[4] = {NULL, NULL, NULL, NULL};
  uint16_t *ha = NULL, *hb = NULL;
  float *hc = NULL, *hd = NULL;

  if (!spvgen_caps_find_coopmat(caps, SpvScopeSubgroup, TILE, TILE, TILE, SPVGEN_COMPONENT_F16,
                                SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32)) {
    gpu_unavailable("device \"%s\" lists no 16x16x16 f16*f16+f32->f32 subgroup cooperative "
                    "matrix shape (%u shapes listed)",
                    caps->name, caps->coopmat_count);
    goto done;
  }
  /* One subgroup per workgroup, of the size the shapes were reported for. */
  uint32_t sg = caps->subgroup_size ? caps->subgroup_size : 32;
  spvgen_vk_pipeline_options opts = {0};
  if (spvgen_caps_has(caps, SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL) &&
      caps->required_subgroup_size_in_compute && caps->min_subgroup_size != caps->max_subgroup_size)
    opts.required_subgroup_size = sg;
  if (spvgen_caps_has(caps, SPVGEN_FEATURE_COMPUTE_FULL_SUBGROUPS))
    opts.require_full_subgroups = true;

  m = spvgen_module_create(NULL);
  build_khr_module(m, sg);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, &opts, &pipe));

  const size_t na = (size_t)TILES * TILE * LAYOUT.lda, nb = (size_t)TILES * TILE * LAYOUT.ldb;
  const size_t nc = (size_t)TILES * TILE * LAYOUT.ldc, nd = (size_t)TILES * TILE * LAYOUT.ldd;
  ha = malloc(na * 2);
  hb = malloc(nb * 2);
  hc = malloc(nc * 4);
  hd = malloc(nd * 4);
  if (!ha || !hb || !hc || !hd) {
    CHECK_MSG(0, "out of host memory");
    goto done;
  }
  /* Padding columns get random values too: a load that ignored the stride would use them. */
  for (size_t i = 0; i < na; i++) ha[i] = gpu_rand_f16();
  for (size_t i = 0; i < nb; i++) hb[i] = gpu_rand_f16();
  for (size_t i = 0; i < nc; i++) hc[i] = gpu_rand_f32();
  const uint32_t sentinel = 0x7FC0DEADu; /* a NaN nothing computes */

  const uint64_t sizes[4] = {na * 2, nb * 2, nc * 4, nd * 4};
  for (int i = 0; i < 4; i++) VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, sizes[i], 0, &bufs[i]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[0], 0, ha, sizes[0]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[1], 0, hb, sizes[1]));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bufs[2], 0, hc, sizes[2]));
  VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, bufs[3], 0, sizes[3], sentinel));
  uint64_t ns = 0;
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 4, NULL, 0, TILES, 1, 1, &ns));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[3], 0, hd, sizes[3]));

  double max_err = 0, max_tol = 0;
  uint32_t bad = 0, padding_written = 0;
  for (uint32_t t = 0; t < TILES; t++) {
    for (uint32_t r = 0; r < TILE; r++) {
      for (uint32_t col = 0; col < LAYOUT.ldd; col++) {
        size_t di = (size_t)(t * TILE + r) * LAYOUT.ldd + col;
        uint32_t got_bits;
        memcpy(&got_bits, &hd[di], 4);
        if (col >= TILE) {
          if (got_bits != sentinel && padding_written++ < 5)
            test_fail_at(__FILE__, __LINE__,
                         "tile %u row %u: padding column %u was written (0x%08x)", t, r, col,
                         got_bits);
          continue;
        }
        double ref = hc[(size_t)(t * TILE + r) * LAYOUT.ldc + col], mag = fabs(ref);
        for (uint32_t k = 0; k < TILE; k++) {
          double p = gpu_f16_value(ha[(size_t)(t * TILE + r) * LAYOUT.lda + k]) *
                     gpu_f16_value(hb[(size_t)(t * TILE + k) * LAYOUT.ldb + col]);
          ref += p;
          mag += fabs(p);
        }
        /* f16 products are exact in f32; what remains is f32 rounding of the sum, with
         * room for accumulators that keep fewer bits. A wrong element or a dropped term
         * (at least 1/64 here) is far outside. */
        double tol = mag * 0x1p-14 + 1e-6;
        double err = fabs((double)hd[di] - ref);
        if (!(err <= tol)) {
          if (bad++ < 5)
            test_fail_at(__FILE__, __LINE__, "tile %u D[%u][%u] = %.7g, expected %.7g (tol %.3g)",
                         t, r, col, (double)hd[di], ref, tol);
        } else if (err > max_err) {
          max_err = err;
        }
        if (tol > max_tol) max_tol = tol;
      }
    }
  }
  CHECK_MSG(bad == 0, "%u of %u elements outside tolerance", bad, TILES * TILE * TILE);
  CHECK_MSG(padding_written == 0, "%u padding elements written", padding_written);
  printf("gpu-summary %s max_abs_err=%.3g tolerance=%.3g gpu_us=%.2f device=%s\n",
         test_current_name, bad ? NAN : max_err, max_tol, ns / 1000.0, caps->name);

done:
  for (int i = 0; i < 4; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
  free(ha);
  free(hb);
  free(hc);
  free(hd);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_khr_muladd_module_passes_vulkan13_validation),
      TEST_CASE(test_khr_subgroup_muladd_16x16x16_with_strided_row_major_memory_matches_cpu),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
