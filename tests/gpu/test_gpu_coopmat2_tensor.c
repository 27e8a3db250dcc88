/* tests/gpu/test_gpu_coopmat2_tensor.c — SPV_NV_cooperative_matrix2 with
 * SPV_NV_tensor_addressing on a real device: one workgroup-scope tile (32x32x32 by
 * default, rounded up to the device's flexible-dimension granularity) loads A, B and C
 * through 2-D tensor layouts whose dimensions are smaller than the tile and whose clamp
 * mode is Constant (out-of-bounds elements read as the clamp value, 0), sliced at (0, 0)
 * with the tile's shape as the span, computes A * B + C, and stores through a tensor
 * layout whose dimensions clip the write and whose row stride is wider than the row. The
 * CPU oracle is lib/ref/ref_tensor.h: it gives the loaded tiles and, for every
 * element of the output buffer, which matrix element (if any) must land there. Output
 * memory is pre-filled with a sentinel so the test sees both the in-bounds results and
 * that nothing else was written.
 *
 * The module is built and validated (Vulkan 1.3 rules) on every machine; running it needs
 * the cooperative_matrix2 workgroup-scope, flexible-dimensions and tensor-addressing
 * features. Without them the run is skipped with the reason, unless SPVGEN_GPU_REQUIRED=1
 * (scripts/gpu-check sets it on the GPU machine), where it is a failure.
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
#include "ref_tensor.h"

/* ----------------------------------------------------------------- module ---- */

/* The problem: D (M x N, row stride LDD) = A (M x K) * B (K x N) + C (M x N); A, B, C
 * tightly packed row-major. None of M, N, K is a multiple of the tile. */
enum { PROBLEM_M = 20, PROBLEM_N = 24, PROBLEM_K = 28, PROBLEM_LDD = 40 };

typedef struct tile_shape {
  uint32_t m, n, k;        /* the cooperative matrix sizes */
  uint32_t invocations;    /* workgroup size */
} tile_shape;

/* What the module is built for when there is no device: the H100's 128-invocation entry
 * (granularity 32x16x16) takes a 32x32x32 tile. */
static const tile_shape DEFAULT_TILE = {32, 32, 32, 128};

static uint32_t round_up(uint32_t v, uint32_t g) { return g ? (v + g - 1) / g * g : v; }

/* Binding 0: A (f16), 1: B (f16), 2: C (f32), 3: D (f32). One workgroup. */
static void build_tensor_module(spvgen_module *m, const tile_shape *s) {
  uint32_t f16 = spvgen_type_float(m, 16), f32 = spvgen_type_float(m, 32);
  uint32_t p16 = 0, p32 = 0;
  uint32_t a = spvgen_storage_buffer(m, f16, 0, 0, true, &p16);
  uint32_t b = spvgen_storage_buffer(m, f16, 0, 1, true, NULL);
  uint32_t c = spvgen_storage_buffer(m, f32, 0, 2, true, &p32);
  uint32_t d = spvgen_storage_buffer(m, f32, 0, 3, false, NULL);

  /* Workgroup-scope types need the entry point's LocalSize first. */
  spvgen_compute_main(m, "main", s->invocations, 1, 1);
  uint32_t ta = spvgen_type_coopmat(m, f16, SpvScopeWorkgroup, s->m, s->k,
                                    SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t tb = spvgen_type_coopmat(m, f16, SpvScopeWorkgroup, s->k, s->n,
                                    SpvCooperativeMatrixUseMatrixBKHR);
  uint32_t tc = spvgen_type_coopmat(m, f32, SpvScopeWorkgroup, s->m, s->n,
                                    SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  uint32_t tl = spvgen_type_tensor_layout(m, 2, SpvTensorClampModeConstant);

#define U(v) spvgen_const_u32(m, (v))
  uint32_t zero = U(0);
  uint32_t layout = spvgen_tensor_layout_create(m, tl);
  const uint32_t mk[2] = {U(PROBLEM_M), U(PROBLEM_K)}, kn[2] = {U(PROBLEM_K), U(PROBLEM_N)};
  const uint32_t mn[2] = {U(PROBLEM_M), U(PROBLEM_N)}, dstride[2] = {U(PROBLEM_LDD), U(1)};
  /* SetDimension makes the span the tensor's size; the matrix is linearized row-major
   * and re-split by the span, so the span must be the tile's shape (a slice at 0, 0) for
   * matrix element (r, c) to address tensor element (r, c). */
  const uint32_t at00[2] = {zero, zero};
  const uint32_t span_mk[2] = {U(s->m), U(s->k)}, span_kn[2] = {U(s->k), U(s->n)};
  const uint32_t span_mn[2] = {U(s->m), U(s->n)};
  uint32_t la = spvgen_tensor_layout_set_dimension(m, layout, mk, 2);
  la = spvgen_tensor_layout_slice(m, la, at00, span_mk, 2);
  uint32_t lb = spvgen_tensor_layout_set_dimension(m, layout, kn, 2);
  lb = spvgen_tensor_layout_slice(m, lb, at00, span_kn, 2);
  uint32_t lc = spvgen_tensor_layout_set_dimension(m, layout, mn, 2);
  uint32_t ld = spvgen_tensor_layout_set_stride(m, lc, dstride, 2);
  lc = spvgen_tensor_layout_slice(m, lc, at00, span_mn, 2);
  ld = spvgen_tensor_layout_slice(m, ld, at00, span_mn, 2);
  /* Tensor loads and stores take a pointer into the array: element 0 of each buffer. */
  uint32_t pa = spvgen_access_chain(m, p16, a, (uint32_t[]){zero, zero}, 2);
  uint32_t pb = spvgen_access_chain(m, p16, b, (uint32_t[]){zero, zero}, 2);
  uint32_t pc = spvgen_access_chain(m, p32, c, (uint32_t[]){zero, zero}, 2);
  uint32_t pd = spvgen_access_chain(m, p32, d, (uint32_t[]){zero, zero}, 2);
  /* The Object operand supplies the elements a TensorView clips; there is no view here. */
  uint32_t h0 = spvgen_const_bits(m, f16, 0), f0 = spvgen_const_f32(m, 0.0f);
  uint32_t za = spvgen_coop_splat(m, ta, h0), zb = spvgen_coop_splat(m, tb, h0);
  uint32_t zc = spvgen_coop_splat(m, tc, f0);
  uint32_t ma = spvgen_coopmat_load_tensor(m, ta, pa, za, la, NULL, NULL);
  uint32_t mb = spvgen_coopmat_load_tensor(m, tb, pb, zb, lb, NULL, NULL);
  uint32_t mc = spvgen_coopmat_load_tensor(m, tc, pc, zc, lc, NULL, NULL);
  uint32_t md = spvgen_coopmat_muladd(m, tc, ma, mb, mc, 0);
  spvgen_coopmat_store_tensor(m, pd, md, ld, NULL, NULL);
  spvgen_function_end(m);
#undef U
}

/* ------------------------------------------------------------------ tests ---- */

/* The module is valid SPIR-V for Vulkan 1.3 and declares the extensions and capabilities
 * tensor addressing needs; runs everywhere, device or not. */
static void test_tensor_muladd_module_passes_vulkan13_validation(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  build_tensor_module(m, &DEFAULT_TILE);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  char *text = check_disassemble(words, count);
  check_has_line(text, "OpCapability CooperativeMatrixKHR");
  check_has_line(text, "OpCapability CooperativeMatrixTensorAddressingNV");
  check_has_line(text, "OpCapability TensorAddressingNV");
  check_has_line(text, "OpExtension \"SPV_NV_cooperative_matrix2\"");
  check_has_line(text, "OpExtension \"SPV_NV_tensor_addressing\"");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

/* Picks the workgroup size and tile from the device's flexible-dimension entries for
 * f16 x f16 + f32 -> f32 at workgroup scope. false when there is none that fits. */
static bool pick_tile(const spvgen_device_caps *caps, tile_shape *out, char *why, size_t why_size) {
  static const uint32_t preferred[] = {128, 256, 64, 32};
  for (size_t i = 0; i < sizeof preferred / sizeof preferred[0]; i++) {
    const spvgen_coopmat_flex *f = spvgen_caps_find_coopmat_flex(
        caps, SpvScopeWorkgroup, preferred[i], SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16,
        SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32);
    if (!f) continue;
    if (caps->coopmat2_workgroup_scope_max_workgroup_size &&
        preferred[i] > caps->coopmat2_workgroup_scope_max_workgroup_size)
      continue;
    tile_shape s = {round_up(32, f->m_granularity), round_up(32, f->n_granularity),
                    round_up(32, f->k_granularity), preferred[i]};
    uint32_t max_dim = caps->coopmat2_flexible_dimensions_max_dimension;
    if (max_dim && (s.m > max_dim || s.n > max_dim || s.k > max_dim)) continue;
    *out = s;
    return true;
  }
  snprintf(why, why_size,
           "device \"%s\" lists no workgroup-scope flexible-dimension entry for f16*f16+f32->f32 "
           "with 32, 64, 128 or 256 invocations (%u entries listed)",
           caps->name, caps->coopmat_flex_count);
  return false;
}

/* OpCooperativeMatrixLoadTensorNV through a layout with clamp mode Constant reads every
 * element outside layoutDimension as the clamp value (0 by default), and
 * OpCooperativeMatrixStoreTensorNV discards every element outside it and honours the
 * layout's stride: the product over the in-bounds 20x28 * 28x24 region matches the CPU
 * and no other byte of the output buffer changes. */
static void test_tensor_load_clamps_to_zero_and_store_clips_to_layout_dimensions_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(
      SPVGEN_FEATURE_COOPMAT | SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE |
      SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS | SPVGEN_FEATURE_COOPMAT2_TENSOR_ADDRESSING |
      SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_module *m = NULL;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[4] = {NULL, NULL, NULL, NULL};
  uint16_t *ha = NULL, *hb = NULL;
  float *hc = NULL, *hd = NULL;
  double *ta = NULL, *tb = NULL, *tc = NULL;
  int64_t *writer = NULL;

  tile_shape s;
  char why[512];
  if (!pick_tile(caps, &s, why, sizeof why)) {
    gpu_unavailable("%s", why);
    goto done;
  }
  m = spvgen_module_create(NULL);
  build_tensor_module(m, &s);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  if (!words) goto done;
  VK_CHECK(ctx, spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));

  /* Each input buffer holds its tensor followed by random values up to the size of a full
   * tile: a load that did not clamp would read those (or the next row) instead of 0. */
  const size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
  const size_t nd = (size_t)s.m * PROBLEM_LDD;
  ha = malloc(na * 2);
  hb = malloc(nb * 2);
  hc = malloc(nc * 4);
  hd = malloc(nd * 4);
  ta = malloc(na * sizeof *ta);
  tb = malloc(nb * sizeof *tb);
  tc = malloc(nc * sizeof *tc);
  writer = malloc(nd * sizeof *writer);
  if (!ha || !hb || !hc || !hd || !ta || !tb || !tc || !writer) {
    CHECK_MSG(0, "out of host memory");
    goto done;
  }
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
  VK_CHECK(ctx, spvgen_vk_dispatch(ctx, pipe, bufs, 4, NULL, 0, 1, 1, 1, &ns));
  VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, bufs[3], 0, hd, sizes[3]));

  /* The oracle: the same layouts on the CPU. */
  const uint32_t mk[2] = {PROBLEM_M, PROBLEM_K}, kn[2] = {PROBLEM_K, PROBLEM_N},
                 mn[2] = {PROBLEM_M, PROBLEM_N}, dstride[2] = {PROBLEM_LDD, 1};
  const int32_t at00[2] = {0, 0};
  const uint32_t span_mk[2] = {s.m, s.k}, span_kn[2] = {s.k, s.n}, span_mn[2] = {s.m, s.n};
  tensor_ref_layout base = tensor_ref_layout_create(2, TENSOR_REF_CLAMP_CONSTANT);
  tensor_ref_layout la = tensor_ref_layout_slice(tensor_ref_layout_set_dimension(base, mk), at00,
                                                 span_mk);
  tensor_ref_layout lb = tensor_ref_layout_slice(tensor_ref_layout_set_dimension(base, kn), at00,
                                                 span_kn);
  tensor_ref_layout lc = tensor_ref_layout_set_dimension(base, mn);
  tensor_ref_layout ld = tensor_ref_layout_slice(tensor_ref_layout_set_stride(lc, dstride), at00,
                                                 span_mn);
  lc = tensor_ref_layout_slice(lc, at00, span_mn);
  tensor_ref_status rs;
  rs = tensor_ref_load_f64(&la, NULL, s.m, s.k, TENSOR_REF_F16, ha, na, ta);
  CHECK_MSG(rs == TENSOR_REF_OK, "oracle load A: %s", tensor_ref_status_name(rs));
  rs = tensor_ref_load_f64(&lb, NULL, s.k, s.n, TENSOR_REF_F16, hb, nb, tb);
  CHECK_MSG(rs == TENSOR_REF_OK, "oracle load B: %s", tensor_ref_status_name(rs));
  rs = tensor_ref_load_f64(&lc, NULL, s.m, s.n, TENSOR_REF_F32, hc, nc, tc);
  CHECK_MSG(rs == TENSOR_REF_OK, "oracle load C: %s", tensor_ref_status_name(rs));
  size_t conflicts = 0;
  rs = tensor_ref_store_map(&ld, NULL, s.m, s.n, nd, writer, &conflicts);
  CHECK_MSG(rs == TENSOR_REF_OK, "oracle store map: %s", tensor_ref_status_name(rs));
  if (test_current_failed) goto done;

  double max_err = 0, max_tol = 0;
  uint32_t bad = 0, stray = 0, written = 0;
  for (size_t i = 0; i < nd; i++) {
    uint32_t got_bits;
    memcpy(&got_bits, &hd[i], 4);
    if (writer[i] < 0) {
      if (got_bits != sentinel && stray++ < 5)
        test_fail_at(__FILE__, __LINE__,
                     "D buffer element %zu (row %zu, column %zu) is outside the layout but was "
                     "written (0x%08x)",
                     i, i / PROBLEM_LDD, i % PROBLEM_LDD, got_bits);
      continue;
    }
    written++;
    uint32_t r = (uint32_t)(writer[i] / s.n), col = (uint32_t)(writer[i] % s.n);
    double ref = tc[(size_t)r * s.n + col], mag = fabs(ref);
    for (uint32_t k = 0; k < s.k; k++) {
      double p = ta[(size_t)r * s.k + k] * tb[(size_t)k * s.n + col];
      ref += p;
      mag += fabs(p);
    }
    /* f16 products are exact in f32; the rest is the f32 sum's rounding, with room for
     * accumulators that keep fewer bits. A non-zero out-of-bounds element read instead of
     * 0, or a missing term, is at least 1/64 off. */
    double tol = mag * 0x1p-14 + 1e-6;
    double err = fabs((double)hd[i] - ref);
    if (!(err <= tol)) {
      if (bad++ < 5)
        test_fail_at(__FILE__, __LINE__, "D[%u][%u] = %.7g, expected %.7g (tol %.3g)", r, col,
                     (double)hd[i], ref, tol);
    } else if (err > max_err) {
      max_err = err;
    }
    if (tol > max_tol) max_tol = tol;
  }
  CHECK_EQ_U64(written, PROBLEM_M * PROBLEM_N);
  CHECK_MSG(bad == 0, "%u of %u in-bounds elements outside tolerance", bad, written);
  CHECK_MSG(stray == 0, "%u elements outside the layout were written", stray);
  printf("gpu-summary %s max_abs_err=%.3g tolerance=%.3g gpu_us=%.2f tile=%ux%ux%u/%u "
         "device=%s\n",
         test_current_name, bad ? NAN : max_err, max_tol, ns / 1000.0, s.m, s.n, s.k,
         s.invocations, caps->name);

done:
  for (int i = 0; i < 4; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
  free(ha);
  free(hb);
  free(hc);
  free(hd);
  free(ta);
  free(tb);
  free(tc);
  free(writer);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_tensor_muladd_module_passes_vulkan13_validation),
      TEST_CASE(test_tensor_load_clamps_to_zero_and_store_clips_to_layout_dimensions_matches_cpu),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
