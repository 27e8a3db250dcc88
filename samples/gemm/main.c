/* samples/gemm — a GEMM through the library API, end to end: open the best Vulkan
 * device, emit D = A * B (f16 inputs, f32 accumulation and output) for it, upload random
 * inputs, run it, check every element against a CPU reference and time it.
 *
 *   build/samples/gemm [M N K [SPLIT_K]]   default 256 256 256, split-K as the plan chooses
 * Exit 0 when D matches, 1 on a mismatch or error, 77 when there is no Vulkan device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spvgen/spvgen.h>

/* f16 <-> double on the host: the builder's own codec (spvgen/builder.h), the bits
 * spvgen_const_float writes (round to nearest even). */
static uint16_t to_f16(double x) {
  uint64_t bits = 0;
  spvgen_float_bits(16, SPVGEN_ABSENT, x, &bits);
  return (uint16_t)bits;
}
static double from_f16(uint16_t h) {
  double v = 0;
  spvgen_float_value(16, SPVGEN_ABSENT, h, &v);
  return v;
}

int main(int argc, char **argv) {
  uint32_t M = 256, N = 256, K = 256, split_k = 0;
  if (argc == 4 || argc == 5) {
    M = (uint32_t)atoi(argv[1]), N = (uint32_t)atoi(argv[2]), K = (uint32_t)atoi(argv[3]);
    split_k = argc == 5 ? (uint32_t)atoi(argv[4]) : 0;
    if (!M || !N || !K || (argc == 5 && !split_k)) return fprintf(stderr, "usage: gemm [M N K [SPLIT_K]]\n"), 2;
  }
  char msg[1024];
  spvgen_vk_context *ctx;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg); /* best device, all features */
  if (st == SPVGEN_ERROR_NO_DEVICE) return printf("gemm: no Vulkan device (%s): skipped\n", msg), 77;
  if (st != SPVGEN_OK) return fprintf(stderr, "gemm: %s\n", msg), 1;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);

  /* 1. The kernels for this device. Everything left 0 is chosen by the plan: variant
   *    (coopmat2, KHR cooperative matrix or SIMT), tile, workgroup size, split-K. One
   *    kernel, or two when the plan splits K (as it does for a few rows against wide B):
   *    the partials, then their reduction. */
  spvgen_gemm_desc desc = {.m = M, .n = N, .k = K,
                           .a_type = SPVGEN_COMPONENT_F16, .b_type = SPVGEN_COMPONENT_F16,
                           .acc_type = SPVGEN_COMPONENT_F32, .out_type = SPVGEN_COMPONENT_F32,
                           .split_k = split_k};
  spvgen_gemm_config plan;
  spvgen_kernel kernel[SPVGEN_GEMM_KERNEL_COUNT] = {{0}}; /* this desc packs nothing: at most 2 */
  uint32_t kernels = 0;
  if (spvgen_gemm_kernels(&desc, caps, kernel, &kernels, &plan, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "gemm: %s\n", msg);
    spvgen_vk_destroy(ctx);
    return 1;
  }
  printf("device  %s\nplan    %s (%u kernel%s, %zu words)\n", caps->name, plan.name, kernels, kernels > 1 ? "s" : "",
         kernel[0].word_count + kernel[1].word_count);

  /* 2. Inputs (row-major, tightly packed), in [-1, 1]. */
  uint16_t *a = malloc(sizeof *a * M * K), *b = malloc(sizeof *b * K * N);
  float *d = malloc(sizeof *d * M * N);
  srand(1);
  for (size_t i = 0; i < (size_t)M * K; i++) a[i] = to_f16((float)rand() / RAND_MAX * 2 - 1);
  for (size_t i = 0; i < (size_t)K * N; i++) b[i] = to_f16((float)rand() / RAND_MAX * 2 - 1);

  /* 3. Buffers A, B, D (and the split-K workspace: no initialization needed); a pipeline
   *    per kernel from its words and metadata. */
  spvgen_vk_buffer *buf[4] = {0}; /* A, B, D, workspace */
  spvgen_vk_pipeline *pipe[2] = {0};
  uint64_t ns[5] = {0};
  size_t bad = 0;
  double max_err = 0;
  int rc = 1;
  if (spvgen_vk_buffer_create(ctx, sizeof *a * M * K, 0, &buf[0]) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, sizeof *b * K * N, 0, &buf[1]) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, sizeof *d * M * N, 0, &buf[2]) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, buf[0], 0, a, sizeof *a * M * K) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, buf[1], 0, b, sizeof *b * K * N) != SPVGEN_OK ||
      (kernels > 1 && spvgen_vk_buffer_create(ctx, plan.workspace_bytes, 0, &buf[3]) != SPVGEN_OK) ||
      spvgen_vk_pipeline_create_kernel(ctx, &kernel[0], NULL, &pipe[0]) != SPVGEN_OK ||
      (kernels > 1 && spvgen_vk_pipeline_create_kernel(ctx, &kernel[1], NULL, &pipe[1]) != SPVGEN_OK))
    goto done;

  /* 4. Run it 5 times in one submission (the grids are the kernels' info), read D back.
   *    One kernel binds A, B, D; split-K's partials A, B and the workspace, its reduction
   *    D and the workspace, after the barrier spvgen_vk_run puts between dispatches. A run
   *    of the plan is timed from its first dispatch's start to its last's end. */
  spvgen_vk_buffer *one[3] = {buf[0], buf[1], buf[2]}, *partials[3] = {buf[0], buf[1], buf[3]},
                   *reduction[2] = {buf[2], buf[3]};
  spvgen_vk_dispatch_desc runs[10];
  for (uint32_t r = 0; r < 5 * kernels; r++) {
    const spvgen_kernel *kr = &kernel[r % kernels];
    runs[r] = (spvgen_vk_dispatch_desc){.pipeline = pipe[r % kernels],
                                         .buffers = kernels == 1 ? one : r % 2 ? reduction : partials,
                                         .buffer_count = kr->info.binding_count,
                                         .groups = {kr->info.groups[0], kr->info.groups[1], kr->info.groups[2]}};
  }
  if (spvgen_vk_run_steps(ctx, runs, 5 * kernels, kernels, ns) != SPVGEN_OK ||
      spvgen_vk_buffer_download(ctx, buf[2], 0, d, sizeof *d * M * N) != SPVGEN_OK)
    goto done;

  /* 5. The CPU reference, in double, from the same f16 inputs. The tolerance follows
   *    f32 accumulation: a few ulps of the sum of |a*b| over K. */
  for (uint32_t i = 0; i < M; i++)
    for (uint32_t j = 0; j < N; j++) {
      double ref = 0, mag = 0;
      for (uint32_t k = 0; k < K; k++) {
        double p = from_f16(a[(size_t)i * K + k]) * from_f16(b[(size_t)k * N + j]);
        ref += p, mag += fabs(p);
      }
      double err = fabs(d[(size_t)i * N + j] - ref);
      if (err > max_err) max_err = err;
      if (err > 16 * 0x1p-23 * mag + 1e-6 && bad++ == 0)
        fprintf(stderr, "gemm: D[%u][%u] = %g, expected %g\n", i, j, d[(size_t)i * N + j], ref);
    }
  uint64_t best = ns[0];
  for (int r = 1; r < 5; r++) best = ns[r] && ns[r] < best ? ns[r] : best;
  printf("check   %s: %zu of %u elements off, max |error| %.3g\n", bad ? "MISMATCH" : "ok", bad, M * N, max_err);
  if (best) printf("time    %.3f ms (best of 5), %.2f GFLOP/s\n", best / 1e6, 2.0 * M * N * K / best);
  rc = bad ? 1 : 0;
done:
  if (rc && !bad) fprintf(stderr, "gemm: %s\n", spvgen_vk_error(ctx));
  spvgen_vk_destroy(ctx); /* and every buffer and pipeline still alive */
  for (int i = 0; i < SPVGEN_GEMM_KERNEL_COUNT; i++) spvgen_kernel_free(&kernel[i]);
  free(a), free(b), free(d);
  return rc;
}
