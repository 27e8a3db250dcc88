/* samples/mlp-infer — the fused MLP template for inference, end to end: emit the network
 * for this device (the plan picks cooperative vectors, cooperative matrices or plain
 * loops), run it on random points and random f16 weights, check every output against a
 * float64 CPU evaluation of the same network, and print the throughput.
 *
 *   build/samples/mlp-infer [POINTS]      default 4096 on a CPU device (lavapipe), 4M on a GPU
 * The network: 32 -> 64 -> 64 -> 16, ReLU, f16 weights, f32 points in and out. Exit 0
 * when every output matches, 1 on a mismatch or error, 77 without a Vulkan device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spvgen/spvgen.h>

/* f16 <-> double on the host: the builder's codec (round to nearest even). */
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
static double rnd(void) { return 2.0 * rand() / RAND_MAX - 1; }

int main(int argc, char **argv) {
  char msg[1024];
  spvgen_vk_context *ctx;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE) return printf("mlp-infer: no Vulkan device (%s): skipped\n", msg), 77;
  if (st != SPVGEN_OK) return fprintf(stderr, "mlp-infer: %s\n", msg), 1;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  uint32_t N = caps->type == SPVGEN_DEVICE_CPU ? 4096 : 4u << 20;
  if (argc > 1 && !(N = (uint32_t)strtoul(argv[1], NULL, 10))) return fprintf(stderr, "usage: mlp-infer [POINTS]\n"), 2;

  /* 1. The kernel. Left 0: the variant and workgroup size (the plan's choice). */
  spvgen_mlp_desc desc = {.input_width = 32, .output_width = 16, .hidden_width = 64, .hidden_count = 2,
                          .input_type = SPVGEN_COMPONENT_F32, .output_type = SPVGEN_COMPONENT_F32};
  spvgen_mlp_config plan;
  spvgen_kernel k = {0};
  if (spvgen_mlp_plan(&desc, caps, &plan, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_mlp(&desc, caps, &k, msg, sizeof msg) != SPVGEN_OK)
    return fprintf(stderr, "mlp-infer: %s\n", msg), spvgen_vk_destroy(ctx), 1;
  printf("device  %s\nplan    %s (%zu words), %u points\n", caps->name, plan.name, k.word_count, N);

  /* 2. Weights where spvgen_mlp_weight_layout puts them (row-major rows, each padded;
   *    the bias after each matrix), scaled by 1/sqrt(inputs); points in [-1, 1]. */
  uint16_t *w = calloc(plan.weight_bytes / 2, 2);
  float *in = malloc(4ull * N * 32), *out = malloc(4ull * N * 16);
  double *x = malloc(8 * 64), *y = malloc(8 * 64);
  int rc = 1;
  uint64_t bad = 0;
  if (!w || !in || !out || !x || !y) goto done;
  srand(5);
  for (uint32_t l = 0; l < plan.layer_count; l++) {
    const spvgen_mlp_layer *L = &plan.layers[l];
    for (uint32_t o = 0; o < L->outputs; o++) {
      for (uint32_t j = 0; j < L->inputs; j++)
        w[L->matrix_offset / 2 + o * (L->row_stride / 2) + j] = to_f16((float)(rnd() / sqrt(L->inputs)));
      w[L->bias_offset / 2 + o] = to_f16((float)(0.1 * rnd()));
    }
  }
  for (uint64_t i = 0; i < 32ull * N; i++) in[i] = (float)rnd();

  /* 3. Buffers 0 points, 1 weights, 2 outputs; 1 warm-up and 3 timed runs. */
  spvgen_vk_buffer *b[3] = {0};
  spvgen_vk_pipeline *pipe;
  if (spvgen_vk_buffer_create(ctx, 4ull * N * 32, 0, &b[0]) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, plan.weight_bytes, 0, &b[1]) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, 4ull * N * 16, 0, &b[2]) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, b[0], 0, in, 4ull * N * 32) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, b[1], 0, w, plan.weight_bytes) != SPVGEN_OK ||
      spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &pipe) != SPVGEN_OK)
    goto done;
  uint32_t groups[3];
  spvgen_mlp_groups(&plan, N, groups);
  spvgen_vk_dispatch_desc runs[4];
  for (int r = 0; r < 4; r++)
    runs[r] = (spvgen_vk_dispatch_desc){.pipeline = pipe, .buffers = b, .buffer_count = 3, .push_data = &N,
                                         .push_size = 4, .groups = {groups[0], groups[1], groups[2]}};
  uint64_t ns[4] = {0};
  if (spvgen_vk_run(ctx, runs, 4, ns) != SPVGEN_OK ||
      spvgen_vk_buffer_download(ctx, b[2], 0, out, 4ull * N * 16) != SPVGEN_OK)
    goto done;

  /* 4. The CPU, in double from the same f16 weights. Tolerance: the device may keep
   *    activations in f16 between layers (vec, mat): 2^-8 of the sum of |terms| per
   *    layer, carried through; far below any indexing or activation mistake. */
  double max_err = 0;
  for (uint32_t p = 0; p < N; p++) {
    double mag = 0;
    for (uint32_t c = 0; c < 32; c++) x[c] = in[32ull * p + c];
    for (uint32_t l = 0; l < plan.layer_count; l++) {
      const spvgen_mlp_layer *L = &plan.layers[l];
      double lmag = 0;
      for (uint32_t o = 0; o < L->outputs; o++) {
        double z = from_f16(w[L->bias_offset / 2 + o]), m = fabs(z);
        for (uint32_t j = 0; j < L->inputs; j++) {
          double t = from_f16(w[L->matrix_offset / 2 + o * (L->row_stride / 2) + j]) * x[j];
          z += t, m += fabs(t);
        }
        y[o] = l + 1 < plan.layer_count && z < 0 ? 0 : z;
        lmag = m > lmag ? m : lmag;
      }
      mag = mag + lmag;
      memcpy(x, y, 8 * L->outputs);
    }
    for (uint32_t c = 0; c < 16; c++) {
      double err = fabs(out[16ull * p + c] - x[c]);
      max_err = err > max_err ? err : max_err;
      if (!(err <= 0x1p-8 * mag + 1e-6) && bad++ == 0)
        fprintf(stderr, "mlp-infer: point %u output %u = %g, expected %g\n", p, c, out[16ull * p + c], x[c]);
    }
  }
  uint64_t best = 0;
  for (int r = 1; r < 4; r++) best = ns[r] && (!best || ns[r] < best) ? ns[r] : best;
  printf("check   %s: %llu of %llu outputs off, max |error| %.3g\n", bad ? "MISMATCH" : "ok",
         (unsigned long long)bad, 16ull * N, max_err);
  if (best)
    printf("time    %.3f ms (best of 3): %.4g G points/s, %.3g TFLOP/s\n", best / 1e6, N / (double)best,
           (double)plan.flops_per_point * N / best / 1e3);
  rc = bad ? 1 : 0;
done:
  if (rc && !bad) fprintf(stderr, "mlp-infer: %s\n", spvgen_vk_error(ctx));
  spvgen_vk_destroy(ctx);
  spvgen_kernel_free(&k);
  free(w), free(in), free(out), free(x), free(y);
  return rc;
}
