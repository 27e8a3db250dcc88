/* tests/gpu/test_gpu_gemm_bda.c — the GEMM's device-address form (desc.addressing
 * SPVGEN_ADDRESSING_DEVICE_ADDRESS) of the cooperative variants on a real device, every
 * output element against a float64 reference:
 *   - a spread of khr and coopmat2 plans through gemm_run (types, layouts, edges,
 *     batches, C, bias, split-K, run-time shapes), and AUTO (the cooperative variant);
 *   - sub-allocation: A, B, C, bias and D at non-zero 256-byte-aligned offsets of one
 *     buffer, the bytes around D checked untouched;
 *   - tensors over 4 GB: batch 1 of A and of D starts past byte 2^32 (the kernel moves
 *     its pointers in 64 bits), for simt, khr and coopmat2, fixed and run-time shapes;
 *   - tile moves: every workgroup moves its pointers on to its tile, over many tiles,
 *     every layout, unaligned leading dimensions, padded batches, coopmat2's edge modes,
 *     split-K, stages 2 and run-time shapes;
 *   - one matrix over 2^31 elements: A of 2^31 + 1,024,000 f16 (4 GiB, one buffer) and
 *     s8 elements in one batch, every variant (a sample of D checked: see the test);
 *   - split-K with C and D over 2^31 elements (a leading dimension of 2^24 or 2^25): the
 *     reduction kernel's 64-bit moves, simt and coopmat2, every element of D checked;
 *     the same at small leading dimensions (either layout, C tight or padded), which
 *     lavapipe runs too (its simt).
 * lavapipe has no cooperative matrices, so the device tests skip in CI (failures where
 * SPVGEN_GPU_REQUIRED=1), except the small split-K one, which passes on lavapipe's simt
 * alone; the _validation test builds and validates the modules
 * everywhere. Run on the GPU machine: scripts/gpu-gemm-bda.sh (one process per test,
 * a pass/fail line each). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_run.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"

static spvgen_gemm_desc bda_desc(spvgen_gemm_variant v, uint32_t m, uint32_t n, uint32_t k) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = m, d.n = n, d.k = k;
  d.variant = v;
  d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  return d;
}

/* ------------------------------------------------------------ the spread ---- */

typedef struct spread_case {
  uint32_t m, n, k, batch;
  spvgen_component_type a, acc, out;
  float alpha, beta;
  spvgen_gemm_bias bias;
  spvgen_activation act;
  spvgen_gemm_shapes shapes;
  int layout;       /* bit 0: A column-major, bit 1: B column-major */
  uint32_t split_k; /* coopmat2 only */
} spread_case;

static const spread_case SPREAD[] = {
    {256, 128, 64, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0, 0, 0,
     SPVGEN_GEMM_SHAPES_FIXED, 0, 1},
    {97, 131, 67, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 1.5f, 0.5f, SPVGEN_GEMM_BIAS_ROW,
     SPVGEN_ACTIVATION_GELU, SPVGEN_GEMM_SHAPES_FIXED, 3, 1},
    {255, 257, 129, 3, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0.25f,
     SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_ACTIVATION_RELU, SPVGEN_GEMM_SHAPES_FIXED, 1, 1},
    {128, 128, 128, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, 0, 0, 0, 0,
     SPVGEN_GEMM_SHAPES_FIXED, 2, 1},
    {97, 131, 67, 2, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, SPVGEN_COMPONENT_S32, 0, 0, SPVGEN_GEMM_BIAS_ROW,
     SPVGEN_ACTIVATION_RELU, SPVGEN_GEMM_SHAPES_FIXED, 0, 1},
    {33, 520, 300, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0.5f, SPVGEN_GEMM_BIAS_ROW, 0,
     SPVGEN_GEMM_SHAPES_RUNTIME, 0, 1},
    {300, 200, 100, 3, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 0, 0, SPVGEN_GEMM_BIAS_COLUMN,
     SPVGEN_ACTIVATION_SILU, SPVGEN_GEMM_SHAPES_RUNTIME, 3, 1},
    {64, 96, 4096, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F32, 0, 0.5f, SPVGEN_GEMM_BIAS_ROW, 0,
     SPVGEN_GEMM_SHAPES_FIXED, 0, 4},
    {40, 70, 3000, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, 0, 0, 0, 0,
     SPVGEN_GEMM_SHAPES_RUNTIME, 1, 3},
};

static spvgen_gemm_desc spread_desc(spvgen_gemm_variant v, const spread_case *c) {
  spvgen_gemm_desc d = bda_desc(v, c->m, c->n, c->k);
  d.batch = c->batch;
  d.a_type = d.b_type = c->a;
  d.acc_type = c->acc;
  d.out_type = c->out;
  d.alpha = c->alpha;
  d.beta = c->beta;
  d.bias = c->bias;
  d.activation = c->act;
  d.shapes = c->shapes;
  d.a_layout = (spvgen_matrix_layout)(c->layout & 1);
  d.b_layout = (spvgen_matrix_layout)(c->layout >> 1);
  d.split_k = v == SPVGEN_GEMM_COOPMAT_KHR ? 1 : c->split_k;
  return d;
}

/* Runs d through gemm_run (buffers with device addresses), every element checked. */
static void run_checked(spvgen_vk_context *ctx, const spvgen_gemm_desc *d, const char *what, size_t i) {
  spvgen_gemm_args args;
  memset(&args, 0, sizeof args);
  args.m = d->m, args.n = d->n, args.k = d->k, args.batch = d->batch;
  args.alpha = d->alpha ? d->alpha : 1.0f;
  args.beta = d->beta;
  gemm_run_options o = {0};
  o.seed = test_rand_u32() | 1u;
  o.recheck = d->split_k > 1;
  if (d->shapes == SPVGEN_GEMM_SHAPES_RUNTIME) o.args = &args;
  gemm_run_result r;
  char msg[1024];
  spvgen_status st = gemm_run(ctx, d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s case %zu: %s", what, i, msg);
  if (st != SPVGEN_OK) return;
  CHECK_EQ_U64(r.checked, (uint64_t)d->m * d->n * (d->batch ? d->batch : 1));
  CHECK_MSG(r.bad == 0, "%s case %zu [%s]: %llu of %llu wrong; first (%llu,%llu) batch %llu gpu %g cpu %g", what, i,
            r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
            (unsigned long long)r.first_bad_row, (unsigned long long)r.first_bad_col,
            (unsigned long long)r.first_bad_batch, r.first_bad_gpu, r.first_bad_ref);
  if (d->variant != SPVGEN_GEMM_AUTO) CHECK_EQ_U64(r.plan.variant, d->variant);
  printf("gpu-case %s %zu [%s] %s\n", what, i, r.plan.name, r.bad == 0 ? "pass" : "FAIL");
}

/* A context whose device plans the variant with device addresses, or NULL (skipped). */
static spvgen_vk_context *open_for(spvgen_gemm_variant v) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  if (!ctx) return NULL;
  spvgen_gemm_desc d = bda_desc(v, 64, 64, 64);
  spvgen_gemm_config p;
  char msg[512];
  if (spvgen_gemm_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg) != SPVGEN_OK ||
      (v == SPVGEN_GEMM_AUTO && p.variant == SPVGEN_GEMM_SIMT)) {
    gpu_unavailable("%s", msg[0] ? msg : "AUTO plans simt: no cooperative variant on this device");
    spvgen_vk_destroy(ctx);
    return NULL;
  }
  return ctx;
}

static void spread(spvgen_gemm_variant v, const char *what) {
  spvgen_vk_context *ctx = open_for(v);
  if (!ctx) return;
  for (size_t i = 0; i < sizeof SPREAD / sizeof SPREAD[0]; i++) {
    spvgen_gemm_desc d = spread_desc(v, &SPREAD[i]);
    run_checked(ctx, &d, what, i);
  }
  spvgen_vk_destroy(ctx);
}

static void test_gemm_bda_khr_matches_cpu(void) { spread(SPVGEN_GEMM_COOPMAT_KHR, "khr"); }
static void test_gemm_bda_coopmat2_matches_cpu(void) { spread(SPVGEN_GEMM_COOPMAT2, "coopmat2"); }

/* AUTO with device addresses plans a cooperative variant where the device has one. */
static void test_gemm_bda_auto_matches_cpu(void) {
  spvgen_vk_context *ctx = open_for(SPVGEN_GEMM_AUTO);
  if (!ctx) return;
  for (size_t i = 0; i < 3; i++) {
    spvgen_gemm_desc d = spread_desc(SPVGEN_GEMM_AUTO, &SPREAD[i]);
    spvgen_gemm_config p;
    char msg[512];
    CHECK_MSG(spvgen_gemm_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    CHECK_MSG(p.variant != SPVGEN_GEMM_SIMT, "case %zu: AUTO planned %s", i, p.name);
    run_checked(ctx, &d, "auto", i);
  }
  spvgen_vk_destroy(ctx);
}

/* ------------------------------------------------- hand-placed operands ---- */

/* f16 inputs, f32 output: D = A B (+ 0.5 C + bias per row), A and B row-major, in
 * float64 from the f16 bits. */
typedef struct placed {
  uint32_t m, n, k, batch;
  uint64_t stride_a, stride_d;      /* elements between batches */
  uint16_t *a, *b;                  /* batch-packed host copies (m*k, k*n per batch) */
  float *c, *bias;                  /* c: m*n per batch (NULL: no C) */
  double *ref;                      /* m*n per batch */
} placed;

static bool placed_init(placed *p, uint32_t m, uint32_t n, uint32_t k, uint32_t batch, bool with_c) {
  memset(p, 0, sizeof *p);
  p->m = m, p->n = n, p->k = k, p->batch = batch;
  size_t na = (size_t)m * k * batch, nb = (size_t)k * n * batch, nd = (size_t)m * n * batch;
  p->a = malloc(na * 2);
  p->b = malloc(nb * 2);
  p->bias = malloc((size_t)m * 4);
  p->c = with_c ? malloc(nd * 4) : NULL;
  p->ref = malloc(nd * 8);
  if (!p->a || !p->b || !p->bias || (with_c && !p->c) || !p->ref) return false;
  for (size_t i = 0; i < na; i++) p->a[i] = gpu_rand_f16();
  for (size_t i = 0; i < nb; i++) p->b[i] = gpu_rand_f16();
  for (uint32_t i = 0; i < m; i++) p->bias[i] = gpu_rand_f32();
  for (size_t i = 0; with_c && i < nd; i++) p->c[i] = gpu_rand_f32();
  for (uint32_t z = 0; z < batch; z++)
    for (uint32_t i = 0; i < m; i++)
      for (uint32_t j = 0; j < n; j++) {
        double s = 0;
        for (uint32_t l = 0; l < k; l++)
          s += gpu_f16_value(p->a[(size_t)z * m * k + (size_t)i * k + l]) *
               gpu_f16_value(p->b[(size_t)z * k * n + (size_t)l * n + j]);
        size_t o = (size_t)z * m * n + (size_t)i * n + j;
        if (with_c) s += 0.5 * p->c[o];
        p->ref[o] = s + p->bias[i];
      }
  return true;
}

static void placed_free(placed *p) {
  free(p->a), free(p->b), free(p->c), free(p->bias), free(p->ref);
}

/* Bad elements of one batch of D (m x n f32, row-major) against the reference. */
static uint64_t count_bad(const placed *p, const float *d, uint32_t z, double *first_gpu, double *first_ref) {
  uint64_t bad = 0;
  for (size_t i = 0; i < (size_t)p->m * p->n; i++) {
    double ref = p->ref[(size_t)z * p->m * p->n + i];
    /* f16 products summed in f32: K ulps of f32 on the magnitudes, generously */
    if (!(fabs(d[i] - ref) <= 1e-5 * p->k * (1.0 + fabs(ref)))) {
      if (!bad) *first_gpu = d[i], *first_ref = ref;
      bad++;
    }
  }
  return bad;
}

/* The plan, kernel and pipeline of d on ctx; false after a failed check. */
static bool build(spvgen_vk_context *ctx, const spvgen_gemm_desc *d, spvgen_gemm_config *plan, spvgen_kernel *k,
                  spvgen_vk_pipeline **pl) {
  char msg[1024];
  memset(k, 0, sizeof *k);
  *pl = NULL;
  CHECK_MSG(spvgen_gemm_plan(d, spvgen_vk_caps(ctx), plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  CHECK_MSG(spvgen_gemm(d, spvgen_vk_caps(ctx), k, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  if (!k->words) return false;
  if (spvgen_vk_pipeline_create(ctx, k->words, k->word_count, &k->info, NULL, pl) != SPVGEN_OK) {
    CHECK_MSG(0, "pipeline: %s", spvgen_vk_error(ctx));
    spvgen_kernel_free(k);
    return false;
  }
  return true;
}

static const spvgen_gemm_variant VARIANTS[3] = {SPVGEN_GEMM_SIMT, SPVGEN_GEMM_COOPMAT_KHR, SPVGEN_GEMM_COOPMAT2};
static const char *const VARIANT_NAMES[3] = {"simt", "khr", "coopmat2"};

/* Whether ctx's device plans variant v with device addresses; a cooperative one it
 * cannot is reported (a skip, or a failure where a GPU is required) once per test by
 * the caller, after the variants that can run have run. */
static bool device_plans(spvgen_vk_context *ctx, int v, char *why, size_t size) {
  spvgen_gemm_desc d = bda_desc(VARIANTS[v], 64, 64, 64);
  spvgen_gemm_config p;
  char msg[512];
  if (spvgen_gemm_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg) == SPVGEN_OK) return true;
  if (!why[0]) snprintf(why, size, "%s", msg);
  return false;
}

/* A framework's sub-allocations: A, B, C, bias and D at non-zero 256-byte-aligned offsets
 * of one device-local buffer (the order scrambled: D first), fixed and run-time shapes,
 * each variant; every element of D checked and 4 KiB on both sides of D untouched. */
static void test_gemm_bda_suballocated_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  char why[512] = "";
  if (!ctx) return;
  const uint32_t M = 200, N = 136, K = 72, GUARD = 4096;
  placed p;
  spvgen_vk_buffer *big = NULL;
  float *dd = NULL;
  if (!placed_init(&p, M, N, K, 1, true)) goto done;
  const uint64_t bd = (uint64_t)M * N * 4, ba = (uint64_t)M * K * 2, bb = (uint64_t)K * N * 2;
  const uint64_t off_d = 256 + GUARD, off_a = off_d + bd + GUARD + 768, off_c = off_a + ba + 512,
                 off_b = off_c + bd + 256, off_bias = off_b + bb + 1280, total = off_bias + M * 4 + 256;
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, total, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &big));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, big, off_a, p.a, ba));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, big, off_b, p.b, bb));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, big, off_c, p.c, bd));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, big, off_bias, p.bias, (uint64_t)M * 4));
  dd = malloc(bd + 2 * GUARD);
  if (!dd) goto done;
  for (int v = 0; v < 3; v++)
    for (int runtime = 0; runtime < 2 && device_plans(ctx, v, why, sizeof why); runtime++) {
      spvgen_gemm_desc d = bda_desc(VARIANTS[v], M, N, K);
      d.beta = 0.5f;
      d.bias = SPVGEN_GEMM_BIAS_ROW;
      d.shapes = runtime ? SPVGEN_GEMM_SHAPES_RUNTIME : SPVGEN_GEMM_SHAPES_FIXED;
      spvgen_gemm_config plan;
      spvgen_kernel k;
      spvgen_vk_pipeline *pl;
      if (!build(ctx, &d, &plan, &k, &pl)) continue;
      spvgen_gemm_args args;
      memset(&args, 0, sizeof args);
      args.m = M, args.n = N, args.k = K, args.alpha = 1.0f, args.beta = 0.5f;
      spvgen_gemm_launch l;
      char msg[512];
      CHECK_MSG(spvgen_gemm_launch_for(&plan, runtime ? &args : NULL, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, big, off_d - GUARD, bd + 2 * GUARD, 0x7FC00000u));
      spvgen_vk_buffer_range r[5] = {{.buffer = big, .offset = off_a, .range = ba},
                                     {.buffer = big, .offset = off_b, .range = bb},
                                     {.buffer = big, .offset = off_d, .range = bd},
                                     {.buffer = big, .offset = off_c, .range = bd},
                                     {.buffer = big, .offset = off_bias, .range = (uint64_t)M * 4}};
      VK_CHECK(ctx, gemm_dispatch_wait(ctx, pl, r, k.info.binding_count, &l));
      VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, big, off_d - GUARD, dd, bd + 2 * GUARD));
      double g = 0, rf = 0;
      uint64_t bad = count_bad(&p, dd + GUARD / 4, 0, &g, &rf);
      uint32_t touched = 0;
      for (uint32_t i = 0; i < GUARD / 4; i++) touched += !isnan(dd[i]) + !isnan(dd[GUARD / 4 + M * N + i]);
      CHECK_MSG(bad == 0, "%s runtime %d [%s]: %llu of %u wrong (first gpu %g ref %g)", VARIANT_NAMES[v], runtime,
                plan.name, (unsigned long long)bad, M * N, g, rf);
      CHECK_MSG(touched == 0, "%s runtime %d: %u words around D written", VARIANT_NAMES[v], runtime, touched);
      printf("gpu-case suballocated %s runtime %d [%s] %s\n", VARIANT_NAMES[v], runtime, plan.name,
             bad == 0 && touched == 0 ? "pass" : "FAIL");
      spvgen_vk_pipeline_destroy(pl);
      spvgen_kernel_free(&k);
    }
done:
  free(dd);
  placed_free(&p);
  spvgen_vk_buffer_destroy(big);
  spvgen_vk_destroy(ctx);
  if (why[0]) gpu_unavailable("%s", why);
}

/* Tensors over 4 GB: batch 1 of A and of D lies more than 4 GB past batch 0. One
 * allocation cannot hold that on every driver (the H100 reports maxMemoryAllocationSize
 * just under 4 GiB), so the batches live in two of a pool of 1 GiB buffers whose device
 * addresses are 4-8 GiB apart, and the batch strides are that distance: the kernel
 * reaches batch 1 only through its 64-bit pointer arithmetic (base + z * stride * size;
 * 32-bit arithmetic would wrap into batch 0's buffer). The buffers go in by address, as
 * a framework's own memory would. Every variant, fixed and run-time shapes, every element
 * of both batches checked. */
static void test_gemm_bda_over_4gb_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  char why[512] = "";
  if (!ctx) return;
  enum { POOL = 12 };
  const uint64_t GIB = 1ull << 30, D_AT = GIB / 2; /* D's batches at 512 MiB into the same buffers */
  const uint32_t M = 256, N = 64, K = 128, B = 2;
  placed p;
  spvgen_vk_buffer *pool[POOL] = {0}, *bb = NULL, *bbias = NULL;
  float *dd = NULL;
  int lo = -1, hi = -1;
  uint64_t dist = 0;
  if (!placed_init(&p, M, N, K, B, false)) goto done;
  for (int n = 0; n < POOL && lo < 0; n++) {
    if (spvgen_vk_buffer_create(ctx, GIB, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &pool[n]) != SPVGEN_OK) break;
    for (int i = 0; i < n && lo < 0; i++) {
      uint64_t x = spvgen_vk_buffer_address(pool[i]), y = spvgen_vk_buffer_address(pool[n]);
      int a = x < y ? i : n, b = x < y ? n : i;
      uint64_t g = x < y ? y - x : x - y;
      /* past 4 GiB, f16 stride under 2^32 elements, whole 16-byte chunks */
      if (g > (1ull << 32) + GIB && g < (1ull << 33) && g % 16 == 0) lo = a, hi = b, dist = g;
    }
  }
  if (lo < 0) {
    gpu_unavailable("no two 1 GiB buffers of %d came 4-8 GiB apart (the driver's address layout)", POOL);
    goto done;
  }
  printf("gpu-note over-4gb: batch 1 is %.3f GiB past batch 0\n", (double)dist / (double)GIB);
  const uint64_t one_a = (uint64_t)M * K * 2, one_d = (uint64_t)M * N * 4;
  const uint64_t SA = dist / 2, SD = dist / 4; /* elements */
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, (uint64_t)K * N * 2 * B, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bb));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, (uint64_t)M * 4, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bbias));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, pool[lo], 0, p.a, one_a));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, pool[hi], 0, p.a + (size_t)M * K, one_a));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bb, 0, p.b, (uint64_t)K * N * 2 * B));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bbias, 0, p.bias, (uint64_t)M * 4));
  dd = malloc(one_d);
  if (!dd) goto done;
  for (int v = 0; v < 3; v++)
    for (int runtime = 0; runtime < 2 && device_plans(ctx, v, why, sizeof why); runtime++) {
      spvgen_gemm_desc d = bda_desc(VARIANTS[v], M, N, K);
      d.batch = B;
      d.bias = SPVGEN_GEMM_BIAS_ROW;
      d.shapes = runtime ? SPVGEN_GEMM_SHAPES_RUNTIME : SPVGEN_GEMM_SHAPES_FIXED;
      if (runtime) /* strides per launch; coopmat2: 16-byte batch starts, the 64-bit path */
        d.ld_multiple = 8;
      else
        d.stride_a = SA, d.stride_d = SD;
      spvgen_gemm_config plan;
      spvgen_kernel k;
      spvgen_vk_pipeline *pl;
      if (!build(ctx, &d, &plan, &k, &pl)) continue;
      spvgen_gemm_args args;
      memset(&args, 0, sizeof args);
      args.m = M, args.n = N, args.k = K, args.batch = B, args.alpha = 1.0f;
      args.stride_a = (uint32_t)SA, args.stride_d = (uint32_t)SD;
      spvgen_gemm_launch l;
      char msg[512];
      CHECK_MSG(spvgen_gemm_launch_for(&plan, runtime ? &args : NULL, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, pool[lo], D_AT, one_d, 0x7FC00000u));
      VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, pool[hi], D_AT, one_d, 0x7FC00000u));
      /* A and D by address from batch 0's buffer, spanning both batches */
      const uint64_t base = spvgen_vk_buffer_address(pool[lo]);
      spvgen_vk_buffer_range r[4] = {{.address = base, .range = SA * 2 + one_a},
                                     {.buffer = bb},
                                     {.address = base + D_AT, .range = SD * 4 + one_d},
                                     {.buffer = bbias}};
      VK_CHECK(ctx, gemm_dispatch_wait(ctx, pl, r, k.info.binding_count, &l));
      uint64_t bad = 0;
      double g = 0, rf = 0;
      for (uint32_t z = 0; z < B; z++) {
        VK_CHECK(ctx, spvgen_vk_buffer_download(ctx, pool[z ? hi : lo], D_AT, dd, one_d));
        bad += count_bad(&p, dd, z, &g, &rf);
      }
      CHECK_MSG(bad == 0, "%s runtime %d [%s]: %llu of %u wrong (first gpu %g ref %g)", VARIANT_NAMES[v], runtime,
                plan.name, (unsigned long long)bad, M * N * B, g, rf);
      printf("gpu-case over-4gb %s runtime %d [%s] %s\n", VARIANT_NAMES[v], runtime, plan.name,
             bad == 0 ? "pass" : "FAIL");
      spvgen_vk_pipeline_destroy(pl);
      spvgen_kernel_free(&k);
    }
done:
  free(dd);
  placed_free(&p);
  for (int n = 0; n < POOL; n++) spvgen_vk_buffer_destroy(pool[n]);
  spvgen_vk_buffer_destroy(bb);
  spvgen_vk_buffer_destroy(bbias);
  spvgen_vk_destroy(ctx);
  if (why[0]) gpu_unavailable("%s", why);
}

/* ---------------------------------------------------------- tile moves ---- */

/* Each workgroup moves its pointers to its tile (A's first row, B's first column, C's and
 * D's first element; coopmat2 aligned down to 16 bytes, the rest in its slices): many
 * tiles in both dimensions, every layout of A, B, C and D, leading dimensions whose rows
 * are not whole 16-byte chunks (coopmat2's rest is then a run-time value), batches with
 * padded strides (coopmat2: flat and 3-D), coopmat2's three edge modes, split-K, stages 2
 * and run-time shapes with their leading dimensions per launch. Per variant (the khr one
 * skips what it refuses: edge modes and split-K). */
typedef struct move_case {
  uint32_t m, n, k, batch;
  spvgen_component_type a, out;
  uint32_t lda, ldb, ldc, ldd, pad; /* pad: extra elements between batches */
  int layout;                       /* bits: A, B, C, D column-major */
  float beta;
  spvgen_gemm_bias bias;
  spvgen_gemm_edge edge;            /* coopmat2 */
  spvgen_gemm_shapes shapes;
  uint32_t split_k, stages;         /* simt and coopmat2; coopmat2 */
} move_case;

static const move_case MOVES[] = {
    {300, 333, 96, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 100, 340, 0, 345, 8, 0, 0, SPVGEN_GEMM_BIAS_ROW,
     SPVGEN_GEMM_EDGE_BRANCH, SPVGEN_GEMM_SHAPES_FIXED, 1, 0},
    {300, 333, 96, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0, 0, 0, 0, 0, 2 | 8, 0, 0,
     SPVGEN_GEMM_EDGE_SHIFT, SPVGEN_GEMM_SHAPES_FIXED, 1, 0},
    {257, 190, 77, 3, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, 261, 83, 270, 263, 5, 1 | 2 | 4 | 8, 0.5f,
     SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_GEMM_EDGE_CLAMP, SPVGEN_GEMM_SHAPES_FIXED, 1, 0},
    {513, 250, 130, 1, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, 521, 0, 0, 523, 0, 1 | 8, 0, SPVGEN_GEMM_BIAS_ROW,
     SPVGEN_GEMM_EDGE_SHIFT, SPVGEN_GEMM_SHAPES_FIXED, 1, 0},
    {200, 300, 2048, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 2056, 0, 310, 0, 24, 4, 0.25f,
     SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_EDGE_AUTO, SPVGEN_GEMM_SHAPES_FIXED, 4, 0},
    {390, 270, 150, 2, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 155, 275, 0, 277, 3, 2, 0, 0,
     SPVGEN_GEMM_EDGE_AUTO, SPVGEN_GEMM_SHAPES_RUNTIME, 1, 0},
    {300, 200, 1500, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16, 1512, 0, 0, 307, 0, 1 | 8, 0, SPVGEN_GEMM_BIAS_COLUMN,
     SPVGEN_GEMM_EDGE_AUTO, SPVGEN_GEMM_SHAPES_RUNTIME, 3, 0},
    {1024, 1024, 1024, 1, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0, 0, 0, 0, 0, 0, 0, 0,
     SPVGEN_GEMM_EDGE_AUTO, SPVGEN_GEMM_SHAPES_FIXED, 1, 2},
};

/* MOVES[i] for variant v (false: the variant does not take the case). */
static bool move_desc(spvgen_gemm_variant v, const move_case *c, spvgen_gemm_desc *d, spvgen_gemm_args *args) {
  if (v == SPVGEN_GEMM_COOPMAT_KHR && (c->split_k > 1 || c->edge)) return false;
  if (c->stages == 2 && v != SPVGEN_GEMM_COOPMAT2) return false;
  *d = bda_desc(v, c->m, c->n, c->k);
  d->batch = c->batch;
  d->a_type = d->b_type = c->a;
  d->acc_type = c->a == SPVGEN_COMPONENT_S8 ? SPVGEN_COMPONENT_S32 : SPVGEN_COMPONENT_F32;
  d->out_type = c->out;
  d->a_layout = (spvgen_matrix_layout)(c->layout & 1);
  d->b_layout = (spvgen_matrix_layout)((c->layout >> 1) & 1);
  d->c_layout = (spvgen_matrix_layout)((c->layout >> 2) & 1);
  d->d_layout = (spvgen_matrix_layout)((c->layout >> 3) & 1);
  d->beta = c->beta;
  d->bias = c->bias;
  if (c->bias && c->a == SPVGEN_COMPONENT_S8) d->activation = SPVGEN_ACTIVATION_RELU;
  if (v == SPVGEN_GEMM_COOPMAT2) d->edge = c->edge, d->stages = c->stages;
  d->split_k = c->split_k;
  memset(args, 0, sizeof *args);
  args->m = c->m, args->n = c->n, args->k = c->k, args->batch = c->batch, args->alpha = 1.0f, args->beta = c->beta;
  args->lda = c->lda, args->ldb = c->ldb, args->ldd = c->ldd, args->ldc = c->beta != 0.0f ? c->ldc : 0;
  if (c->pad) { /* one padded matrix per batch: ld x the outer extent + pad */
    const uint32_t ao = d->a_layout ? c->k : c->m, bo = d->b_layout ? c->n : c->k, co = d->c_layout ? c->n : c->m,
                   dout = d->d_layout ? c->n : c->m;
    const uint32_t ai = d->a_layout ? c->m : c->k, bi = d->b_layout ? c->k : c->n, ci = d->c_layout ? c->m : c->n,
                   di = d->d_layout ? c->m : c->n;
    args->stride_a = (uint64_t)(c->lda ? c->lda : ai) * ao + c->pad;
    args->stride_b = (uint64_t)(c->ldb ? c->ldb : bi) * bo + c->pad;
    args->stride_d = (uint64_t)(c->ldd ? c->ldd : di) * dout + c->pad;
    if (c->beta != 0.0f) args->stride_c = (uint64_t)(args->ldc ? args->ldc : ci) * co + c->pad;
  }
  if (c->shapes == SPVGEN_GEMM_SHAPES_RUNTIME) {
    d->shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  } else {
    d->lda = args->lda, d->ldb = args->ldb, d->ldc = args->ldc, d->ldd = args->ldd;
    d->stride_a = args->stride_a, d->stride_b = args->stride_b, d->stride_c = args->stride_c;
    d->stride_d = args->stride_d;
  }
  return true;
}

static void test_gemm_bda_tile_moves_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS);
  char why[512] = "";
  if (!ctx) return;
  for (int v = 0; v < 3; v++) {
    if (!device_plans(ctx, v, why, sizeof why)) continue;
    for (size_t i = 0; i < sizeof MOVES / sizeof MOVES[0]; i++) {
      spvgen_gemm_desc d;
      spvgen_gemm_args args;
      if (!move_desc(VARIANTS[v], &MOVES[i], &d, &args)) continue;
      gemm_run_options o = {0};
      o.seed = test_rand_u32() | 1u;
      o.recheck = d.split_k > 1;
      if (d.shapes == SPVGEN_GEMM_SHAPES_RUNTIME) o.args = &args;
      gemm_run_result r;
      char msg[1024];
      spvgen_status st = gemm_run(ctx, &d, &o, &r, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s case %zu: %s", VARIANT_NAMES[v], i, msg);
      if (st != SPVGEN_OK) continue;
      CHECK_EQ_U64(r.checked, (uint64_t)d.m * d.n * d.batch);
      CHECK_MSG(r.bad == 0, "%s case %zu [%s]: %llu of %llu wrong; first (%llu,%llu) batch %llu gpu %g cpu %g",
                VARIANT_NAMES[v], i, r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
                (unsigned long long)r.first_bad_row, (unsigned long long)r.first_bad_col,
                (unsigned long long)r.first_bad_batch, r.first_bad_gpu, r.first_bad_ref);
      printf("gpu-case tile-moves %s %zu [%s] %s\n", VARIANT_NAMES[v], i, r.plan.name, r.bad == 0 ? "pass" : "FAIL");
    }
  }
  spvgen_vk_destroy(ctx);
  if (why[0]) gpu_unavailable("%s", why);
}

/* --------------------------------------------- one matrix over 2^31 elements ---- */

/* The shape: A row-major of BIG_M x BIG_K, 2^31 + 1,024,000 elements in one batch (row
 * 2^21 starts at element 2^31), B of BIG_K x BIG_N, D of BIG_M x BIG_N. The grid's y is
 * ceil(M / tile_m) <= 65535 for every variant's tile (simt 64: 32,784). */
enum { BIG_K = 1024, BIG_N = 64 };
#define BIG_M ((1u << 21) + 1000u)

/* A's element i, from a hash of i (the host writes A in chunks and never holds it
 * whole): f16 k / 1024 or s8 k for a nonzero k in [-1000, 1000] / [-127, 127], exact in
 * either type. */
static uint64_t big_hash(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
static int big_value(uint64_t i, bool s8) {
  /* scaled, not divided: a division for each of 2^31 elements would be most of the time */
  uint64_t h = big_hash(i) >> 32;
  int k = s8 ? (int)((h * 255u) >> 32) - 127 : (int)((h * 2001u) >> 32) - 1000;
  return k ? k : 1;
}
static uint16_t f16_of_k(int k) { /* k / 1024 as f16 bits (exact), k nonzero, |k| <= 1000 */
  uint32_t a = (uint32_t)(k < 0 ? -k : k), e = 0;
  while (a >> (e + 1)) e++; /* a in [2^e, 2^(e+1)): k / 1024 = 1.m x 2^(e - 10) */
  return (uint16_t)((k < 0 ? 0x8000u : 0u) | ((e + 5u) << 10) | ((a << (10u - e)) & 0x3FFu));
}

/* The rows whose every element is checked: the first ones, those around the one that
 * starts at element 2^31, 512 spread evenly, and the last 64 (the last workgroups'
 * tiles, all past 2^31). Ascending, no repeats; returns the count. */
static uint32_t big_rows(uint32_t *rows) {
  uint32_t n = 0, at = (uint32_t)((1ull << 31) / BIG_K); /* the row element 2^31 starts */
  for (uint32_t r = 0; r < 16; r++) rows[n++] = r;
  for (uint32_t i = 0; i < 512; i++) {
    uint32_t r = 16 + (uint32_t)((uint64_t)i * (BIG_M - 16) / 512);
    if (r > rows[n - 1]) rows[n++] = r;
  }
  for (uint32_t r = at - 8; r <= at + 8; r++) rows[n++] = r;
  for (uint32_t r = BIG_M - 64; r < BIG_M; r++) rows[n++] = r;
  /* sort (the evenly spread ones interleave with the two fixed runs) and drop repeats */
  for (uint32_t i = 1; i < n; i++)
    for (uint32_t j = i; j > 0 && rows[j - 1] > rows[j]; j--) {
      uint32_t t = rows[j];
      rows[j] = rows[j - 1], rows[j - 1] = t;
    }
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    if (!m || rows[i] != rows[m - 1]) rows[m++] = rows[i];
  return m;
}

/* One input type's run: A (BIG_M x BIG_K, f16 or s8) written in chunks, with each row's
 * sum kept; B random, its column 0 all ones, so D's column 0 is A's row sums and every
 * row of D is checked there; every element of the big_rows rows against float64 dot
 * products. Each variant the device plans, fixed and run-time shapes. Returns false when
 * the device could not hold A (a note says why; not a failure). */
static bool big_run(spvgen_vk_context *ctx, bool s8, char *why, size_t why_size) {
  const spvgen_component_type in = s8 ? SPVGEN_COMPONENT_S8 : SPVGEN_COMPONENT_F16;
  const uint32_t es = s8 ? 1 : 2;
  const uint64_t na = (uint64_t)BIG_M * BIG_K, bytes_a = na * es, bytes_d = (uint64_t)BIG_M * BIG_N * 4;
  const char *tname = s8 ? "s8" : "f16";
  bool ran = false;
  spvgen_vk_buffer *ba = NULL, *bb = NULL, *bd = NULL;
  uint8_t *chunk = NULL;
  int64_t *rowsum = NULL; /* A's row sums in units of the value's step (1 / 1024 for f16) */
  double *bv = NULL, *arow = NULL;
  uint16_t f16[2001];
  for (int k = -1000; k <= 1000; k++) f16[k + 1000] = f16_of_k(k ? k : 1);
  void *hb = NULL, *hd = NULL;
  uint32_t *rows = NULL;
  if (spvgen_vk_buffer_create(ctx, bytes_a, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &ba) != SPVGEN_OK) {
    printf("gpu-note over-2^31 %s: no buffer of %llu bytes for A: %s\n", tname, (unsigned long long)bytes_a,
           spvgen_vk_error(ctx));
    goto done;
  }
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, bytes_d, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bd));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, (uint64_t)BIG_K * BIG_N * es, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bb));
  const uint64_t CHUNK = 64ull << 20; /* bytes, whole rows of either type */
  chunk = malloc(CHUNK);
  rowsum = calloc(BIG_M, sizeof *rowsum);
  hb = malloc((size_t)BIG_K * BIG_N * es);
  hd = malloc(bytes_d);
  rows = malloc(sizeof *rows * 1024);
  bv = malloc(sizeof *bv * BIG_K * BIG_N);
  arow = malloc(sizeof *arow * BIG_K);
  if (!chunk || !rowsum || !hb || !hd || !rows || !bv || !arow) {
    CHECK_MSG(0, "out of host memory (%llu bytes of D)", (unsigned long long)bytes_d);
    goto done;
  }
  for (uint64_t at = 0; at < bytes_a; at += CHUNK) {
    uint64_t part = bytes_a - at < CHUNK ? bytes_a - at : CHUNK, first = at / es;
    for (uint64_t j = 0; j < part / es; j++) {
      int k = big_value(first + j, s8);
      if (s8) chunk[j] = (uint8_t)(int8_t)k;
      else ((uint16_t *)chunk)[j] = f16[k + 1000];
      rowsum[(first + j) / BIG_K] += k;
    }
    VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, ba, at, chunk, part));
  }
  /* B: column 0 ones, the rest from the hash (another range of it) */
  for (uint32_t l = 0; l < BIG_K; l++)
    for (uint32_t j = 0; j < BIG_N; j++) {
      int k = j ? big_value((1ull << 40) + (uint64_t)l * BIG_N + j, s8) : (s8 ? 1 : 1024);
      size_t o = (size_t)l * BIG_N + j;
      if (s8) ((int8_t *)hb)[o] = (int8_t)k;
      else ((uint16_t *)hb)[o] = f16_of_k(k);
      bv[o] = s8 ? k : k / 1024.0;
    }
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bb, 0, hb, (uint64_t)BIG_K * BIG_N * es));
  const uint32_t nrows = big_rows(rows);
  for (int v = 0; v < 3; v++)
    for (int runtime = 0; runtime < 2 && device_plans(ctx, v, why, why_size); runtime++) {
      spvgen_gemm_desc d = bda_desc(VARIANTS[v], BIG_M, BIG_N, BIG_K);
      d.a_type = d.b_type = in;
      d.acc_type = d.out_type = s8 ? SPVGEN_COMPONENT_S32 : SPVGEN_COMPONENT_F32;
      if (runtime) d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME, d.ld_multiple = 8;
      spvgen_gemm_config plan;
      spvgen_kernel k;
      spvgen_vk_pipeline *pl;
      if (!build(ctx, &d, &plan, &k, &pl)) continue;
      spvgen_gemm_args args;
      memset(&args, 0, sizeof args);
      args.m = BIG_M, args.n = BIG_N, args.k = BIG_K, args.alpha = 1.0f;
      spvgen_gemm_launch l;
      char msg[512];
      CHECK_MSG(spvgen_gemm_launch_for(&plan, runtime ? &args : NULL, &l, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
      spvgen_status st = spvgen_vk_buffer_fill(ctx, bd, 0, bytes_d, 0x7FC00000u);
      spvgen_vk_buffer_range r[3] = {{.buffer = ba}, {.buffer = bb}, {.buffer = bd}};
      if (st == SPVGEN_OK) st = gemm_dispatch_wait(ctx, pl, r, k.info.binding_count, &l);
      if (st == SPVGEN_OK) st = spvgen_vk_buffer_download(ctx, bd, 0, hd, bytes_d);
      CHECK_MSG(st == SPVGEN_OK, "%s %s runtime %d: %s", tname, VARIANT_NAMES[v], runtime, spvgen_vk_error(ctx));
      spvgen_vk_pipeline_destroy(pl);
      spvgen_kernel_free(&k);
      if (st != SPVGEN_OK) continue;
      ran = true;
      /* f16 products summed in f32 over K 1024: K ulps of f32 on the magnitudes,
       * generously; s8 into s32: exact */
      uint64_t bad = 0, checked = 0, first = UINT64_MAX;
      double g0 = 0, r0 = 0;
      for (uint32_t i = 0; i < BIG_M; i++) { /* column 0 of every row: A's row sums */
        double got = s8 ? (double)((int32_t *)hd)[(size_t)i * BIG_N] : ((float *)hd)[(size_t)i * BIG_N];
        double ref = s8 ? (double)rowsum[i] : (double)rowsum[i] / 1024.0;
        bool ok = s8 ? got == ref : fabs(got - ref) <= 1e-5 * BIG_K * (1.0 + fabs(ref));
        checked++;
        if (!ok && !bad++) first = (uint64_t)i * BIG_N, g0 = got, r0 = ref;
      }
      for (uint32_t q = 0; q < nrows; q++) { /* every element of the sampled rows */
        const uint32_t i = rows[q];
        for (uint32_t c = 0; c < BIG_K; c++) {
          int a = big_value((uint64_t)i * BIG_K + c, s8);
          arow[c] = s8 ? a : a / 1024.0;
        }
        for (uint32_t j = 1; j < BIG_N; j++) {
          double ref = 0;
          for (uint32_t c = 0; c < BIG_K; c++) ref += arow[c] * bv[(size_t)c * BIG_N + j];
          size_t o = (size_t)i * BIG_N + j;
          double got = s8 ? (double)((int32_t *)hd)[o] : ((float *)hd)[o];
          bool ok = s8 ? got == ref : fabs(got - ref) <= 1e-5 * BIG_K * (1.0 + fabs(ref));
          checked++;
          if (!ok && !bad++) first = o, g0 = got, r0 = ref;
        }
      }
      CHECK_MSG(bad == 0, "%s %s runtime %d [%s]: %llu of %llu checked elements wrong; first row %llu column %llu: gpu "
                "%.9g cpu %.9g", tname, VARIANT_NAMES[v], runtime, plan.name, (unsigned long long)bad,
                (unsigned long long)checked, (unsigned long long)(first / BIG_N), (unsigned long long)(first % BIG_N),
                g0, r0);
      printf("gpu-case over-2^31 %s %s runtime %d [%s] A %llu elements, %llu checked (%u full rows) %s\n", tname,
             VARIANT_NAMES[v], runtime, plan.name, (unsigned long long)na, (unsigned long long)checked, nrows,
             bad == 0 ? "pass" : "FAIL");
    }
done:
  free(chunk), free(rowsum), free(hb), free(hd), free(rows), free(bv), free(arow);
  spvgen_vk_buffer_destroy(ba);
  spvgen_vk_buffer_destroy(bb);
  spvgen_vk_buffer_destroy(bd);
  return ran;
}

/* One matrix of more than 2^31 elements in one batch: A of (2^21 + 1000) x 1024, in f16
 * (4 GiB + 2 MB: one buffer over the H100's stated maxMemoryAllocationSize, which the
 * runner tries, spvgen/vk.h) and in s8 (2 GiB + 1 MB: within it). Every workgroup moves
 * its pointers to its tile in 64 bits, so the last 1000 rows, past element 2^31, are read
 * with small indices; 32-bit signed element indices would go negative there. Checked:
 * column 0 of every row of D (B's column 0 is all ones: A's row sums, summed on the host
 * as A is written), and every element of 609 rows (the first 16, 512 spread evenly, the
 * 17 around row 2^21 where element 2^31 starts, the last 64). Not every element: D's 134
 * million dot products of 1024 terms are 1.4 x 10^11 float64 multiply-adds on the host,
 * minutes on one core, past the script's limit per test. Each variant, fixed and run-time
 * shapes. A device without the memory (A, D and margin) skips, naming what it has. */
static void test_gemm_bda_one_matrix_over_2_31_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS | SPVGEN_FEATURE_INT64);
  char why[512] = "";
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  const uint64_t need = (uint64_t)BIG_M * BIG_K * 2 + (uint64_t)BIG_M * BIG_N * 4 + (1ull << 30);
  if (!(caps->features & (SPVGEN_FEATURE_COOPMAT | SPVGEN_FEATURE_COOPVEC))) {
    /* 5 GB of buffers: a GPU's test (lavapipe would take them from the machine's memory) */
    gpu_unavailable("%s has no cooperative features: the 5 GB test runs on a GPU", caps->name);
  } else if (caps->device_local_memory && caps->device_local_memory < need) {
    test_skip("%s has %.1f GiB of device-local memory; A (4 GiB), D and a margin need %.1f", caps->name,
              (double)caps->device_local_memory / (1u << 30), (double)need / (1u << 30));
  } else {
    bool f16 = big_run(ctx, false, why, sizeof why);
    bool s8 = !test_current_failed && big_run(ctx, true, why, sizeof why);
    CHECK_MSG(f16 || s8 || test_current_failed, "neither the f16 nor the s8 A could be allocated (gpu-note lines)");
  }
  spvgen_vk_destroy(ctx);
  if (why[0]) gpu_unavailable("%s", why);
}

/* ------------------------------ split-K with C and D over 2^31 elements ---- */

/* Split-K's reduction kernel moves D and C in 64 bits to each invocation's first element
 * (emitters/gemm/splitk_reduce.c), so a C or D that spans more than 2^31 elements through
 * its leading dimension is read and written right (32-bit signed element indices would go
 * negative past element 2^31). M 136 x N 70 x K 1024, split 4, 64 x 64 tiles (what one
 * tile reaches stays under 2^31: check_tiles), beta 0.5 and a per-row bias:
 *   - C and D row-major, ldc 2^24 + 16 and ldd 2^24: rows 128 .. 135 start past element
 *     2^31 (9 GB each in f32);
 *   - D column-major, ldd 2^25: columns 64 .. 69 start past element 2^31; C tight,
 *     column-major (its columns abut, so C's NaN fences go down before its elements).
 * simt and coopmat2 (what the device plans), fixed and run-time shapes: the partials and
 * the reduction as two dispatches of one submission (spvgen's barrier between), the
 * workspace NaN-filled. Every element of D against float64, and the 4 elements after
 * each row (column) of D still NaN (only the rows and columns and their neighbours are
 * written from the host: the buffers' other pages are never touched). A device without
 * the memory (about 19 GB) skips, naming what it has. */
enum { SKB_M = 136, SKB_N = 70, SKB_K = 1024, SKB_S = 4 };
typedef struct skb_case {
  bool col;          /* C and D column-major */
  uint32_t ldc, ldd; /* 0: tight */
} skb_case;
static const skb_case SKB[2] = {{false, (1u << 24) + 16u, 1u << 24}, {true, 0, 1u << 25}};

/* The elements a C or D buffer of case c spans (D: plus 4 after its last row/column). */
static uint64_t skb_elems(const skb_case *c, bool is_d) {
  const uint32_t outer = c->col ? SKB_N : SKB_M, inner = c->col ? SKB_M : SKB_N;
  const uint32_t ld = is_d ? c->ldd : c->ldc;
  return (uint64_t)(outer - 1) * (ld ? ld : inner) + inner + (is_d ? 4u : 0u);
}

static void skb_desc(const skb_case *c, int v, bool runtime, spvgen_gemm_desc *d, spvgen_gemm_args *a) {
  *d = bda_desc(VARIANTS[v], SKB_M, SKB_N, SKB_K);
  d->split_k = SKB_S;
  d->tile_m = d->tile_n = 64;
  d->beta = 0.5f;
  d->bias = SPVGEN_GEMM_BIAS_ROW;
  d->c_layout = d->d_layout = c->col ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
  memset(a, 0, sizeof *a);
  a->m = SKB_M, a->n = SKB_N, a->k = SKB_K, a->alpha = 1.0f, a->beta = 0.5f, a->ldc = c->ldc, a->ldd = c->ldd;
  if (runtime) d->shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  else d->ldc = c->ldc, d->ldd = c->ldd;
}

/* One case on ctx: C and D in buffers of their own (C's elements uploaded row by row or
 * column by column), then each variant and shape form; false when the device could not
 * give the buffers (a note says why). */
static bool skb_run(spvgen_vk_context *ctx, const skb_case *c, size_t ci, const uint16_t *ha, const uint16_t *hb,
                    const float *hbias, const float *hc, const double *ref, char *why, size_t why_size) {
  const uint32_t outer = c->col ? SKB_N : SKB_M, inner = c->col ? SKB_M : SKB_N;
  const uint64_t ldc = c->ldc ? c->ldc : inner, ldd = c->ldd ? c->ldd : inner;
  const uint64_t bytes_c = skb_elems(c, false) * 4, bytes_d = skb_elems(c, true) * 4;
  spvgen_vk_buffer *ba = NULL, *bb = NULL, *bbias = NULL, *bc = NULL, *bd = NULL;
  float *col = malloc(sizeof *col * (inner + 4));
  bool ran = false;
  if (!col) {
    CHECK_MSG(0, "out of host memory");
    return false;
  }
  if (spvgen_vk_buffer_create(ctx, bytes_d, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bd) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, bytes_c, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bc) != SPVGEN_OK) {
    printf("gpu-note splitk-ld case %zu: no buffers of %llu (D) and %llu (C) bytes: %s\n", ci,
           (unsigned long long)bytes_d, (unsigned long long)bytes_c, spvgen_vk_error(ctx));
    goto done;
  }
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, (uint64_t)SKB_M * SKB_K * 2, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &ba));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, (uint64_t)SKB_K * SKB_N * 2, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bb));
  VK_CHECK(ctx, spvgen_vk_buffer_create(ctx, (uint64_t)SKB_M * 4, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &bbias));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, ba, 0, ha, (uint64_t)SKB_M * SKB_K * 2));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bb, 0, hb, (uint64_t)SKB_K * SKB_N * 2));
  VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bbias, 0, hbias, (uint64_t)SKB_M * 4));
  /* NaN around C's rows (columns) first, then their elements: with a tight ldc (or one
   * under inner + 4) the 16 bytes around one row (column) are its neighbours' elements,
   * which the second pass writes back. */
  for (uint32_t o = 0; o < outer; o++) {
    const uint64_t at = o * ldc * 4, end = at + (uint64_t)inner * 4;
    if (at) VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, bc, at - 16, 16, 0x7FC00000u));
    if (end + 16 <= bytes_c) VK_CHECK(ctx, spvgen_vk_buffer_fill(ctx, bc, end, 16, 0x7FC00000u));
  }
  for (uint32_t o = 0; o < outer; o++) { /* C's row (column) o (hc is row-major) */
    for (uint32_t i = 0; i < inner; i++) col[i] = c->col ? hc[(size_t)i * SKB_N + o] : hc[(size_t)o * SKB_N + i];
    VK_CHECK(ctx, spvgen_vk_buffer_upload(ctx, bc, o * ldc * 4, col, (uint64_t)inner * 4));
  }
  for (int v = 0; v < 3; v++) {
    for (int runtime = 0; runtime < 2 && device_plans(ctx, v, why, why_size); runtime++) {
      spvgen_gemm_desc d;
      spvgen_gemm_args args;
      skb_desc(c, v, runtime, &d, &args);
      char msg[1024];
      spvgen_gemm_config plan;
      spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
      uint32_t nk = 0;
      spvgen_status st = spvgen_gemm_kernels(&d, spvgen_vk_caps(ctx), k, &nk, &plan, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK && nk == 2, "case %zu %s runtime %d: %s", ci, VARIANT_NAMES[v], runtime, msg);
      if (st != SPVGEN_OK) continue;
      spvgen_gemm_launch l;
      spvgen_vk_pipeline *pl[2] = {NULL, NULL};
      spvgen_vk_buffer *ws = NULL;
      st = spvgen_gemm_launch_for(&plan, runtime ? &args : NULL, &l, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "case %zu %s runtime %d: %s", ci, VARIANT_NAMES[v], runtime, msg);
      for (uint32_t j = 0; j < 2 && st == SPVGEN_OK; j++)
        st = spvgen_vk_pipeline_create_kernel(ctx, &k[j], NULL, &pl[j]);
      if (st == SPVGEN_OK) st = spvgen_vk_buffer_create(ctx, l.workspace_bytes, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, &ws);
      if (st == SPVGEN_OK) st = spvgen_vk_buffer_fill(ctx, ws, 0, l.workspace_bytes, 0x7FC00000u);
      for (uint32_t o = 0; o < outer && st == SPVGEN_OK; o++) /* D's rows (columns) and 4 elements after */
        st = spvgen_vk_buffer_fill(ctx, bd, o * ldd * 4, (uint64_t)(inner + 4) * 4, 0x7FC00000u);
      const spvgen_vk_buffer_range partials[3] = {{.buffer = ba}, {.buffer = bb}, {.buffer = ws}};
      const spvgen_vk_buffer_range reduction[4] = {{.buffer = bd}, {.buffer = bc}, {.buffer = bbias}, {.buffer = ws}};
      spvgen_vk_record_desc rd[2] = {
          {.pipeline = pl[0], .buffers = partials, .buffer_count = 3, .push_data = l.push_size ? &l.push : NULL,
           .push_size = l.push_size, .groups = {l.groups[0], l.groups[1], l.groups[2]}},
          {.pipeline = pl[1], .buffers = reduction, .buffer_count = 4,
           .push_data = l.reduce_push_size ? &l.push : NULL, .push_size = l.reduce_push_size,
           .groups = {l.reduce_groups[0], l.reduce_groups[1], l.reduce_groups[2]}}};
      spvgen_vk_submit_desc sd = {.dispatches = rd, .count = 2};
      uint64_t t = 0;
      if (st == SPVGEN_OK) st = spvgen_vk_submit(ctx, &sd, &t);
      if (st == SPVGEN_OK) st = spvgen_vk_wait(ctx, t);
      CHECK_MSG(st == SPVGEN_OK, "case %zu %s runtime %d: %s", ci, VARIANT_NAMES[v], runtime, spvgen_vk_error(ctx));
      uint64_t bad = 0, touched = 0;
      double g0 = 0, r0 = 0;
      uint32_t fr = 0, fc = 0;
      for (uint32_t o = 0; o < outer && st == SPVGEN_OK; o++) {
        st = spvgen_vk_buffer_download(ctx, bd, o * ldd * 4, col, (uint64_t)(inner + 4) * 4);
        CHECK_MSG(st == SPVGEN_OK, "download: %s", spvgen_vk_error(ctx));
        for (uint32_t i = 0; i < inner && st == SPVGEN_OK; i++) {
          const uint32_t r = c->col ? i : o, cc = c->col ? o : i;
          const double e = ref[(size_t)r * SKB_N + cc];
          /* f16 products summed in f32 over K: K ulps of f32 on the magnitudes */
          if (!(fabs(col[i] - e) <= 1e-5 * SKB_K * (1.0 + fabs(e))) && !bad++) g0 = col[i], r0 = e, fr = r, fc = cc;
        }
        for (uint32_t i = inner; i < inner + 4 && st == SPVGEN_OK; i++) touched += !isnan(col[i]);
      }
      CHECK_MSG(bad == 0, "case %zu %s runtime %d [%s]: %llu of %u wrong; first (%u,%u) gpu %g cpu %g", ci,
                VARIANT_NAMES[v], runtime, plan.name, (unsigned long long)bad, SKB_M * SKB_N, fr, fc, g0, r0);
      CHECK_MSG(touched == 0, "case %zu %s runtime %d: %llu elements after D's rows (columns) written", ci,
                VARIANT_NAMES[v], runtime, (unsigned long long)touched);
      if (st == SPVGEN_OK) {
        ran = true;
        printf("gpu-case splitk-ld-%s %zu %s runtime %d [%s] %s\n", ldd >= (1u << 24) ? "over-2^31" : "small", ci,
               VARIANT_NAMES[v], runtime, plan.name,
               bad == 0 && touched == 0 ? "pass" : "FAIL");
      }
      spvgen_vk_buffer_destroy(ws);
      for (uint32_t j = 0; j < 2; j++) spvgen_vk_pipeline_destroy(pl[j]);
      for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]);
    }
  }
done:
  free(col);
  spvgen_vk_buffer_destroy(ba);
  spvgen_vk_buffer_destroy(bb);
  spvgen_vk_buffer_destroy(bbias);
  spvgen_vk_buffer_destroy(bc);
  spvgen_vk_buffer_destroy(bd);
  return ran;
}

/* Cases (n of them) of the split-K test on a device with device addresses: the inputs,
 * C and bias random, every case's D against float64. huge: the 19 GB cases, a GPU's
 * (skipped without cooperative features or the memory); else every device, each variant
 * that plans there (lavapipe: simt), skipped only when none does (or, with
 * SPVGEN_GPU_REQUIRED, when any does not). */
static void skb_test(const skb_case *cases, size_t n, bool huge) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS | SPVGEN_FEATURE_INT64);
  char why[512] = "";
  if (!ctx) return;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  uint64_t need = 1ull << 30;
  for (size_t i = 0; i < n; i++) {
    uint64_t b = (skb_elems(&cases[i], false) + skb_elems(&cases[i], true)) * 4 + (1ull << 30);
    if (b > need) need = b;
  }
  uint16_t *ha = malloc(sizeof *ha * SKB_M * SKB_K), *hb = malloc(sizeof *hb * SKB_K * SKB_N);
  float *hbias = malloc(sizeof *hbias * SKB_M), *hc = malloc(sizeof *hc * SKB_M * SKB_N);
  double *ref = malloc(sizeof *ref * SKB_M * SKB_N);
  bool any = false;
  if (huge && !(caps->features & (SPVGEN_FEATURE_COOPMAT | SPVGEN_FEATURE_COOPVEC))) {
    /* 19 GB of buffers: a GPU's test (lavapipe would take them from the machine's memory) */
    gpu_unavailable("%s has no cooperative features: the 19 GB split-K test runs on a GPU", caps->name);
  } else if (huge && caps->device_local_memory && caps->device_local_memory < need) {
    test_skip("%s has %.1f GiB of device-local memory; C, D and a margin need %.1f", caps->name,
              (double)caps->device_local_memory / (1u << 30), (double)need / (1u << 30));
  } else if (!ha || !hb || !hbias || !hc || !ref) {
    CHECK_MSG(0, "out of host memory");
  } else {
    for (uint32_t i = 0; i < SKB_M * SKB_K; i++) ha[i] = gpu_rand_f16();
    for (uint32_t i = 0; i < SKB_K * SKB_N; i++) hb[i] = gpu_rand_f16();
    for (uint32_t i = 0; i < SKB_M; i++) hbias[i] = gpu_rand_f32();
    for (uint32_t i = 0; i < SKB_M * SKB_N; i++) hc[i] = gpu_rand_f32();
    for (uint32_t r = 0; r < SKB_M; r++)
      for (uint32_t j = 0; j < SKB_N; j++) {
        double acc = 0;
        for (uint32_t l = 0; l < SKB_K; l++)
          acc += gpu_f16_value(ha[(size_t)r * SKB_K + l]) * gpu_f16_value(hb[(size_t)l * SKB_N + j]);
        ref[(size_t)r * SKB_N + j] = acc + 0.5 * hc[(size_t)r * SKB_N + j] + hbias[r];
      }
    for (size_t i = 0; i < n && !test_current_failed; i++)
      any |= skb_run(ctx, &cases[i], i, ha, hb, hbias, hc, ref, why, sizeof why);
    CHECK_MSG(any || test_current_failed || (!huge && why[0]), "no case's buffers could be allocated (gpu-note lines)");
  }
  free(ha), free(hb), free(hbias), free(hc), free(ref);
  spvgen_vk_destroy(ctx);
  if (why[0] && (huge || !any || gpu_required())) gpu_unavailable("%s", why);
  else if (why[0]) printf("gpu-note splitk-ld: a variant does not plan here: %s\n", why);
}

static void test_gemm_bda_splitk_ld_over_2_31_matches_cpu(void) { skb_test(SKB, 2, true); }

/* The same split-K test at leading dimensions every device holds (lavapipe included: its
 * simt plans), so the test's own host side (C and D uploaded and NaN-fenced row by row
 * or column by column) and the reduction's moves for each layout run in CI: C tight and
 * column-major (its columns abut: the NaN fences around one column fall on its
 * neighbours' elements), D column-major at ldd 2^16 (18 MB); C tight and D at ldd 80,
 * row-major; both column-major with ldc 144 and ldd 152. */
static const skb_case SKB_SMALL[3] = {{true, 0, 1u << 16}, {false, 0, 80}, {true, 144, 152}};

static void test_gemm_bda_splitk_ld_small_matches_cpu(void) { skb_test(SKB_SMALL, 3, false); }

/* ------------------------------------------------------------ validation ---- */

/* Runs everywhere: every module the device tests emit (the H100's caps) validates. */
static void test_gemm_bda_h100_kernels_validation(void) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset("h100", &caps) == SPVGEN_OK);
  char msg[1024];
  for (int v = 1; v < 3; v++)
    for (size_t i = 0; i < sizeof SPREAD / sizeof SPREAD[0]; i++) {
      spvgen_gemm_desc d = spread_desc(VARIANTS[v], &SPREAD[i]);
      spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
      uint32_t nk = 0; /* split-K: the partials and the reduction */
      CHECK_MSG(spvgen_gemm_kernels(&d, &caps, k, &nk, NULL, msg, sizeof msg) == SPVGEN_OK, "%s case %zu: %s",
                VARIANT_NAMES[v], i, msg);
      for (uint32_t j = 0; j < nk; j++) {
        CHECK_MSG(check_words(k[j].words, k[j].word_count), "%s case %zu kernel %u", VARIANT_NAMES[v], i, j);
        spvgen_kernel_free(&k[j]);
      }
    }
  for (int v = 0; v < 3; v++)
    for (size_t i = 0; i < sizeof MOVES / sizeof MOVES[0]; i++) {
      spvgen_gemm_desc d;
      spvgen_gemm_args args;
      if (!move_desc(VARIANTS[v], &MOVES[i], &d, &args)) continue;
      spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
      uint32_t nk = 0; /* split-K: the partials and the reduction; a packed plan: the pack kernel first */
      spvgen_gemm_config kp;
      CHECK_MSG(spvgen_gemm_kernels(&d, &caps, k, &nk, &kp, msg, sizeof msg) == SPVGEN_OK, "%s move %zu: %s",
                VARIANT_NAMES[v], i, msg);
      CHECK_EQ_U64(nk, (d.split_k > 1 ? 2u : 1u) + (kp.desc.pack != SPVGEN_GEMM_PACK_NONE ? 1u : 0u));
      for (uint32_t j = 0; j < nk; j++) {
        CHECK_MSG(check_words(k[j].words, k[j].word_count), "%s move %zu kernel %u", VARIANT_NAMES[v], i, j);
        spvgen_kernel_free(&k[j]);
      }
      if (d.shapes == SPVGEN_GEMM_SHAPES_RUNTIME) { /* the launch takes the case's shape */
        spvgen_gemm_config plan;
        spvgen_gemm_launch l;
        CHECK_MSG(spvgen_gemm_plan(&d, &caps, &plan, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
        CHECK_MSG(spvgen_gemm_launch_for(&plan, &args, &l, msg, sizeof msg) == SPVGEN_OK, "%s move %zu: %s",
                  VARIANT_NAMES[v], i, msg);
      }
    }
  for (size_t i = 0; i < 2; i++) /* the split-K over-2^31 test's kernels and launches */
    for (int v = 0; v < 3; v += 2)
      for (int runtime = 0; runtime < 2; runtime++) {
        spvgen_gemm_desc d;
        spvgen_gemm_args args;
        skb_desc(&SKB[i], v, runtime, &d, &args);
        spvgen_gemm_config plan;
        spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
        uint32_t nk = 0;
        CHECK_MSG(spvgen_gemm_kernels(&d, &caps, k, &nk, &plan, msg, sizeof msg) == SPVGEN_OK, "%s split-K ld %zu: %s",
                  VARIANT_NAMES[v], i, msg);
        CHECK_EQ_U64(nk, 2);
        for (uint32_t j = 0; j < nk; j++) {
          CHECK_MSG(check_words(k[j].words, k[j].word_count), "%s split-K ld %zu kernel %u", VARIANT_NAMES[v], i, j);
          spvgen_kernel_free(&k[j]);
        }
        spvgen_gemm_launch l;
        if (nk == 2)
          CHECK_MSG(spvgen_gemm_launch_for(&plan, runtime ? &args : NULL, &l, msg, sizeof msg) == SPVGEN_OK,
                    "%s split-K ld %zu: %s", VARIANT_NAMES[v], i, msg);
      }
  for (int v = 0; v < 3; v++) /* the over-2^31 test's kernels */
    for (int s8 = 0; s8 < 2; s8++) {
      spvgen_gemm_desc d = bda_desc(VARIANTS[v], BIG_M, BIG_N, BIG_K);
      if (s8) d.a_type = d.b_type = SPVGEN_COMPONENT_S8, d.acc_type = d.out_type = SPVGEN_COMPONENT_S32;
      spvgen_kernel k;
      CHECK_MSG(spvgen_gemm(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK, "%s over 2^31: %s", VARIANT_NAMES[v], msg);
      if (k.words) CHECK_MSG(check_words(k.words, k.word_count), "%s over 2^31", VARIANT_NAMES[v]);
      spvgen_kernel_free(&k);
    }
  for (int v = 0; v < 3; v++)
    for (int runtime = 0; runtime < 2; runtime++) {
      spvgen_gemm_desc d = bda_desc(VARIANTS[v], 256, 64, 128);
      d.batch = 2;
      d.stride_a = (1ull << 31) + 1024;
      d.stride_d = (1ull << 30) + 256;
      d.bias = SPVGEN_GEMM_BIAS_ROW;
      d.shapes = runtime ? SPVGEN_GEMM_SHAPES_RUNTIME : SPVGEN_GEMM_SHAPES_FIXED;
      if (runtime) {
        d.ld_multiple = 8;
        d.stride_a = d.stride_d = 0;
      }
      spvgen_kernel k;
      CHECK_MSG(spvgen_gemm(&d, &caps, &k, msg, sizeof msg) == SPVGEN_OK, "%s: %s", VARIANT_NAMES[v], msg);
      if (k.words) CHECK_MSG(check_words(k.words, k.word_count), "%s over 4 GB", VARIANT_NAMES[v]);
      spvgen_kernel_free(&k);
    }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_gemm_bda_khr_matches_cpu),
      TEST_CASE(test_gemm_bda_coopmat2_matches_cpu),
      TEST_CASE(test_gemm_bda_auto_matches_cpu),
      TEST_CASE(test_gemm_bda_suballocated_matches_cpu),
      TEST_CASE(test_gemm_bda_over_4gb_matches_cpu),
      TEST_CASE(test_gemm_bda_tile_moves_matches_cpu),
      TEST_CASE(test_gemm_bda_one_matrix_over_2_31_matches_cpu),
      TEST_CASE(test_gemm_bda_splitk_ld_over_2_31_matches_cpu),
      TEST_CASE(test_gemm_bda_splitk_ld_small_matches_cpu),
      TEST_CASE(test_gemm_bda_h100_kernels_validation),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
