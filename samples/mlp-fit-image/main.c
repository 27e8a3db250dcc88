/* samples/mlp-fit-image — trains a small MLP to be an image: (x, y) -> RGB, twice, on
 * whatever Vulkan device there is: once with the template's fused frequency encoding,
 * once with the fused multiresolution hash grid (Instant-NGP's encoding: its table is in
 * the weight buffer, trained by the same Adam), and prints each fit's PSNR and training
 * time side by side. The image is made here (an analytic pattern: rings, a gradient, a
 * soft checkerboard and fine stripes); every step is one batch of all its pixels through
 * the two training kernels of spvgen/mlp.h (gradient kernel: forward + backward +
 * per-workgroup gradient sums, the hash grid's table gradient added with atomics;
 * optimizer kernel: Adam on f32 master weights, f16 copy), many steps per submission,
 * the loss of each step read back from the loss history the optimizer keeps on the
 * device. Then the inference kernel evaluates each trained network at every pixel.
 *
 *   build/samples/mlp-fit-image [OUT_DIR]
 * writes OUT_DIR/mlp-fit-image.png (target | frequency fit | hash grid fit, side by side)
 * and OUT_DIR/mlp-fit-loss.png (log10 loss per step: frequency green, hash grid red),
 * prints the loss per step and a line per encoding:
 *   fit     hashgrid:16x2  PSNR 31.2 dB  train 45.1 ms on the device (300 steps)
 * A GPU gets a 128x128 image and a 64x3 network for 300 steps, trained on cooperative
 * matrices where the device has them (the mat variant), else on plain loops; a CPU device
 * (lavapipe, CI) 40x40, 24x2, 100 steps on loops. Exit 0 when both losses fell by at least
 * REQUIRED_FACTOR, 1 otherwise or on an error, 77 without a Vulkan device. The PNG
 * writer below is the whole format: signature, IHDR, one IDAT of stored (uncompressed)
 * deflate blocks in a zlib stream with its Adler-32, IEND, each chunk with its CRC-32. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spvgen/spvgen.h>

#define REQUIRED_FACTOR 20.0 /* the loss must fall at least this much (lavapipe: ~97) */

/* ---- PNG ---- */
static uint32_t crc_table[256];
static uint32_t crc32_update(uint32_t c, const uint8_t *p, size_t n) {
  if (!crc_table[1])
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t v = i;
      for (int k = 0; k < 8; k++) v = v & 1 ? 0xEDB88320u ^ (v >> 1) : v >> 1;
      crc_table[i] = v;
    }
  for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c;
}
static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}
static void chunk(FILE *f, const char *type, const uint8_t *data, uint32_t n) {
  uint8_t h[8];
  put32(h, n);
  memcpy(h + 4, type, 4);
  fwrite(h, 1, 8, f);
  if (n) fwrite(data, 1, n, f);
  uint32_t c = crc32_update(crc32_update(0xFFFFFFFFu, h + 4, 4), data, n) ^ 0xFFFFFFFFu;
  put32(h, c);
  fwrite(h, 1, 4, f);
}
/* rgb: w * h * 3 bytes, rows top to bottom. */
static int write_png(const char *path, const uint8_t *rgb, uint32_t w, uint32_t h) {
  size_t raw_n = (size_t)h * (1 + 3 * w), blocks = (raw_n + 65534) / 65535;
  uint8_t *raw = malloc(raw_n), *z = malloc(2 + raw_n + 5 * blocks + 4);
  FILE *f = fopen(path, "wb");
  if (!raw || !z || !f) return free(raw), free(z), f ? fclose(f) : 0, -1;
  for (uint32_t y = 0; y < h; y++) { /* filter type 0 (none) per row */
    raw[(size_t)y * (1 + 3 * w)] = 0;
    memcpy(raw + (size_t)y * (1 + 3 * w) + 1, rgb + (size_t)y * 3 * w, 3 * (size_t)w);
  }
  size_t zn = 0;
  z[zn++] = 0x78, z[zn++] = 0x01; /* zlib header: deflate, 32K window, no dictionary */
  uint32_t a = 1, b = 0;
  for (size_t off = 0; off < raw_n; off += 65535) {
    uint32_t n = (uint32_t)(raw_n - off < 65535 ? raw_n - off : 65535);
    z[zn++] = off + n == raw_n; /* BFINAL, BTYPE 00 (stored) */
    z[zn++] = (uint8_t)n, z[zn++] = (uint8_t)(n >> 8), z[zn++] = (uint8_t)~n, z[zn++] = (uint8_t)(~n >> 8);
    memcpy(z + zn, raw + off, n);
    zn += n;
    for (uint32_t i = 0; i < n; i++) a = (a + raw[off + i]) % 65521, b = (b + a) % 65521;
  }
  put32(z + zn, b << 16 | a);
  zn += 4;
  uint8_t ihdr[13] = {0};
  put32(ihdr, w), put32(ihdr + 4, h);
  ihdr[8] = 8, ihdr[9] = 2; /* 8 bits, RGB; deflate, adaptive filters, no interlace */
  fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
  chunk(f, "IHDR", ihdr, 13);
  chunk(f, "IDAT", z, (uint32_t)zn);
  chunk(f, "IEND", NULL, 0);
  int rc = ferror(f) ? -1 : 0;
  rc |= fclose(f);
  free(raw), free(z);
  return rc;
}

/* ---- the image and f16 ---- */
static void pattern(double x, double y, float rgb[3]) {
  double r = hypot(x - 0.5, y - 0.5);
  rgb[0] = (float)(0.5 + 0.5 * cos(18 * r));
  rgb[1] = (float)(0.2 + 0.6 * x * y + 0.2 * (y > 0.5));
  rgb[2] = (float)(0.5 + 0.45 * sin(4 * 3.14159265358979 * x) * sin(4 * 3.14159265358979 * y));
}
/* f16 on the host: the builder's codec (round to nearest even). */
static uint16_t to_f16(double x) {
  uint64_t bits = 0;
  spvgen_float_bits(16, SPVGEN_ABSENT, x, &bits);
  return (uint16_t)bits;
}
static uint8_t to_byte(float v) { return (uint8_t)lrintf(255 * (v < 0 ? 0 : v > 1 ? 1 : v)); }

/* One training run: the network (2 -> encoding -> hidden -> 3) trained for `steps` steps
 * on the S x S image; fit[] gets the trained network's colours, hist[] the loss per step,
 * *gpu_ms the device time of the training. Returns 0, or 1 on an error (message printed). */
typedef struct fit_setup {
  spvgen_vk_context *ctx;
  uint32_t S, steps, hidden, count;
  float lr;
  const float *xy, *target;
} fit_setup;

static int fit(const fit_setup *f, spvgen_mlp_encoding enc, float *out, float *hist, double *gpu_ms,
               char *name, size_t name_size) {
  spvgen_vk_context *ctx = f->ctx;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  bool cpu = caps->type == SPVGEN_DEVICE_CPU;
  const uint32_t S = f->S, steps = f->steps, chunk_steps = 20;
  char msg[1024];
  spvgen_mlp_train_desc td = {
      .net = {.input_width = 2, .output_width = 3, .hidden_width = f->hidden, .hidden_count = f->count,
              .encoding = enc, .input_type = SPVGEN_COMPONENT_F32, .output_type = SPVGEN_COMPONENT_F32},
      .loss = SPVGEN_MLP_LOSS_L2, .optimizer = SPVGEN_MLP_OPTIMIZER_ADAM};
  if (enc == SPVGEN_MLP_ENCODING_FREQUENCY) {
    td.net.encoding_size = 6;
  } else { /* 2-D: 16 levels of 2 features (12 on a CPU device), tables of 2^14 (2^10) */
    td.net.grid.levels = cpu ? 8 : 16;
    td.net.grid.log2_hashmap_size = cpu ? 10 : 14;
    td.net.grid.base_resolution = cpu ? 4 : 8;
    td.net.grid.per_level_scale = cpu ? 1.5f : 1.4f;
  }
  spvgen_mlp_train_config plan;
  spvgen_kernel kg = {0}, ko = {0}, ki = {0};
  /* Cooperative matrices where the device has them (13x torch on the H100,
   * bench/results/mlp-train-h100-2026-11-24.md), else plain loops. */
  td.net.variant = SPVGEN_MLP_MAT;
  if (cpu || spvgen_mlp_train_plan(&td, caps, &plan, msg, sizeof msg) != SPVGEN_OK) td.net.variant = SPVGEN_MLP_LOOP;
  if (spvgen_mlp_train_plan(&td, caps, &plan, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_mlp_train(&td, caps, SPVGEN_MLP_TRAIN_GRADIENT, &kg, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_mlp_train(&td, caps, SPVGEN_MLP_TRAIN_OPTIMIZER, &ko, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_mlp(&plan.net.desc, caps, &ki, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "mlp-fit-image: %s\n", msg);
    return 1;
  }
  snprintf(name, name_size, "%s", plan.net.name);
  printf("plan    %s, %llu parameters, %ux%u image, %u steps\n", plan.name, (unsigned long long)plan.params, S, S,
         steps);

  /* Host data: initial weights (uniform +-sqrt(6 / inputs), biases 0; the hash grid's
   * table uniform +-1e-4, as tiny-cuda-nn's) as f32 master and f16 copy. */
  const uint32_t N = S * S, E = (uint32_t)plan.elements, G = plan.grad_workgroups;
  float *state = calloc(plan.state_bytes / 4, 4), *loss = malloc(4ull * (G + steps));
  uint16_t *w16 = calloc(E, 2);
  int rc = 1;
  enum { IN, W, TGT, GRAD, LOSS, STATE, OUT, NBUF };
  spvgen_vk_buffer *b[NBUF] = {0};
  spvgen_vk_pipeline *pg = NULL, *po = NULL, *pi = NULL;
  if (!state || !loss || !w16) goto done;
  srand(3);
  for (uint32_t l = 0; l < plan.net.layer_count; l++) {
    const spvgen_mlp_layer *L = &plan.net.layers[l];
    for (uint32_t o = 0; o < L->outputs; o++)
      for (uint32_t j = 0; j < L->inputs; j++)
        state[L->matrix_offset / 2 + o * (L->row_stride / 2) + j] =
            (float)((2.0 * rand() / RAND_MAX - 1) * sqrt(6.0 / L->inputs));
  }
  for (uint64_t e = 0; e < (uint64_t)plan.net.grid_entries * plan.net.desc.grid.features; e++)
    state[plan.net.grid_offset / 2 + e] = (float)((2.0 * rand() / RAND_MAX - 1) * 1e-4);
  for (uint32_t e = 0; e < E; e++) w16[e] = to_f16(state[e]);

  /* Buffers (the gradient's hash grid part starts at 0: spvgen/mlp.h); the pipelines. */
  uint64_t sizes[NBUF] = {8ull * N, 2ull * E + 2, 12ull * N, plan.grad_bytes, 4ull * (G + steps),
                          plan.state_bytes, 12ull * N};
  for (int i = 0; i < NBUF; i++)
    if (spvgen_vk_buffer_create(ctx, (sizes[i] + 3) & ~3ull, 0, &b[i]) != SPVGEN_OK) goto done;
  if (spvgen_vk_buffer_upload(ctx, b[IN], 0, f->xy, sizes[IN]) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, b[W], 0, w16, 2ull * E) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, b[TGT], 0, f->target, sizes[TGT]) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, b[STATE], 0, state, sizes[STATE]) != SPVGEN_OK ||
      spvgen_vk_buffer_fill(ctx, b[GRAD], 0, (sizes[GRAD] + 3) & ~3ull, 0) != SPVGEN_OK ||
      spvgen_vk_pipeline_create_kernel(ctx, &kg, NULL, &pg) != SPVGEN_OK ||
      spvgen_vk_pipeline_create_kernel(ctx, &ko, NULL, &po) != SPVGEN_OK ||
      spvgen_vk_pipeline_create_kernel(ctx, &ki, NULL, &pi) != SPVGEN_OK)
    goto done;

  /* Train: chunk_steps steps (gradient, optimizer) per submission. */
  spvgen_vk_buffer *gb[5] = {b[IN], b[W], b[TGT], b[GRAD], b[LOSS]};
  spvgen_vk_buffer *ob[4] = {b[W], b[GRAD], b[STATE], b[LOSS]};
  struct { uint32_t step; float lr; } push[64];
  spvgen_vk_dispatch_desc runs[128];
  uint64_t ns[128];
  *gpu_ms = 0;
  for (uint32_t s0 = 0; s0 < steps; s0 += chunk_steps) {
    uint32_t n = steps - s0 < chunk_steps ? steps - s0 : chunk_steps;
    for (uint32_t k = 0; k < n; k++) {
      push[k].step = s0 + k + 1, push[k].lr = f->lr;
      runs[2 * k] = (spvgen_vk_dispatch_desc){.pipeline = pg, .buffers = gb, .buffer_count = 5,
                                               .push_data = &N, .push_size = 4,
                                               .groups = {kg.info.groups[0], 1, 1}};
      runs[2 * k + 1] = (spvgen_vk_dispatch_desc){.pipeline = po, .buffers = ob, .buffer_count = 4,
                                                   .push_data = &push[k], .push_size = 8,
                                                   .groups = {ko.info.groups[0], 1, 1}};
    }
    if (spvgen_vk_run(ctx, runs, 2 * n, ns) != SPVGEN_OK ||
        spvgen_vk_buffer_download(ctx, b[LOSS], 0, loss, sizes[LOSS]) != SPVGEN_OK)
      goto done;
    for (uint32_t k = 0; k < 2 * n; k++) *gpu_ms += ns[k] / 1e6;
    for (uint32_t k = 0; k < n; k++) printf("step %3u  loss %.6f\n", s0 + k + 1, loss[G + s0 + k]);
  }
  memcpy(hist, loss + G, 4ull * steps);

  /* The trained network at every pixel (the inference kernel reads the f16 copy). */
  spvgen_vk_buffer *ib[3] = {b[IN], b[W], b[OUT]};
  uint32_t groups[3];
  spvgen_mlp_groups(&plan.net, N, groups);
  spvgen_vk_dispatch_desc inf = {.pipeline = pi, .buffers = ib, .buffer_count = 3, .push_data = &N,
                                 .push_size = 4, .groups = {groups[0], 1, 1}};
  if (spvgen_vk_run(ctx, &inf, 1, NULL) != SPVGEN_OK || spvgen_vk_buffer_download(ctx, b[OUT], 0, out, sizes[OUT]) != SPVGEN_OK)
    goto done;
  rc = 0;
done:
  if (rc) fprintf(stderr, "mlp-fit-image: failed: %s\n", spvgen_vk_error(ctx));
  for (int i = 0; i < NBUF; i++) spvgen_vk_buffer_destroy(b[i]);
  spvgen_vk_pipeline_destroy(pg), spvgen_vk_pipeline_destroy(po), spvgen_vk_pipeline_destroy(pi);
  spvgen_kernel_free(&kg), spvgen_kernel_free(&ko), spvgen_kernel_free(&ki);
  free(state), free(loss), free(w16);
  return rc;
}

/* PSNR of a fit against the target (colours in [0, 1]): 10 log10(1 / mean squared error). */
static double psnr(const float *fit, const float *target, uint32_t n) {
  double se = 0;
  for (uint32_t i = 0; i < n; i++) {
    double v = fit[i] < 0 ? 0 : fit[i] > 1 ? 1 : fit[i];
    se += (v - target[i]) * (v - target[i]);
  }
  return 10 * log10((double)n / (se > 0 ? se : 1e-30));
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char msg[1024], path[4096];
  spvgen_vk_context *ctx;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE) return printf("mlp-fit-image: no Vulkan device (%s): skipped\n", msg), 77;
  if (st != SPVGEN_OK) return fprintf(stderr, "mlp-fit-image: %s\n", msg), 1;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  bool cpu = caps->type == SPVGEN_DEVICE_CPU;
  printf("device  %s\n", caps->name);
  fit_setup f = {.ctx = ctx, .S = cpu ? 40 : 128, .steps = cpu ? 100 : 300, .hidden = cpu ? 24 : 64,
                 .count = cpu ? 2 : 3, .lr = cpu ? 0.02f : 0.01f};
  const uint32_t S = f.S, N = S * S, steps = f.steps;
  static const spvgen_mlp_encoding encs[2] = {SPVGEN_MLP_ENCODING_FREQUENCY, SPVGEN_MLP_ENCODING_HASH_GRID};
  float *xy = malloc(8ull * N), *target = malloc(12ull * N), *fits = malloc(2 * 12ull * N);
  float *hist = malloc(2 * 4ull * steps);
  uint8_t *img = malloc(3 * 3ull * 256 * 256), *plot = NULL; /* target | fits, zoomed to S * Z <= 256 */
  int rc = 1;
  double ms[2] = {0, 0}, db[2] = {0, 0};
  char names[2][96];
  if (!xy || !target || !fits || !hist || !img) goto done;
  for (uint32_t i = 0; i < N; i++) {
    xy[2 * i] = ((float)(i % S) + 0.5f) / (float)S;
    xy[2 * i + 1] = ((float)(i / S) + 0.5f) / (float)S;
    pattern(xy[2 * i], xy[2 * i + 1], target + 3 * i);
  }
  f.xy = xy;
  f.target = target;
  for (int k = 0; k < 2; k++) {
    if (fit(&f, encs[k], fits + 3ull * N * k, hist + (size_t)steps * k, &ms[k], names[k], sizeof names[k])) goto done;
    db[k] = psnr(fits + 3ull * N * k, target, 3 * N);
  }

  /* The PNGs: target | frequency fit | hash grid fit; the loss curves (log10). */
  const uint32_t Z = 256 / S > 1 ? 256 / S : 1, IW = 3 * S * Z; /* nearest-neighbour zoom */
  for (uint32_t y = 0; y < S * Z; y++)
    for (uint32_t x = 0; x < S * Z; x++)
      for (int c = 0; c < 3; c++) {
        uint32_t px = 3 * ((y / Z) * S + x / Z) + c;
        img[(size_t)y * 3 * IW + 3 * x + c] = to_byte(target[px]);
        for (int k = 0; k < 2; k++) img[(size_t)y * 3 * IW + 3 * ((k + 1) * S * Z + x) + c] = to_byte(fits[3ull * N * k + px]);
      }
  const uint32_t PW = 400, PH = 200;
  plot = calloc(3ull * PW * PH, 1);
  if (!plot) goto done;
  double lo = log10(hist[0]), hi = lo;
  for (uint32_t s = 0; s < 2 * steps; s++) {
    double v = log10(hist[s]);
    lo = v < lo ? v : lo, hi = v > hi ? v : hi;
  }
  for (int k = 0; k < 2; k++)
    for (uint32_t x = 0; x < PW; x++) {
      double v = log10(hist[(size_t)steps * k + (uint64_t)x * steps / PW]);
      uint32_t y = (uint32_t)((PH - 1) * (hi - v) / (hi - lo + 1e-12));
      plot[3 * ((size_t)y * PW + x) + (k ? 0 : 1)] = 255;
    }
  snprintf(path, sizeof path, "%s/mlp-fit-image.png", dir);
  if (write_png(path, img, IW, S * Z)) goto done;
  snprintf(path, sizeof path, "%s/mlp-fit-loss.png", dir);
  if (write_png(path, plot, PW, PH)) goto done;
  printf("wrote   %s/mlp-fit-image.png (target | frequency | hash grid), %s/mlp-fit-loss.png\n", dir, dir);
  rc = 0;
  for (int k = 0; k < 2; k++) {
    const float *h = hist + (size_t)steps * k;
    double factor = h[0] / h[steps - 1];
    printf("fit     %-44s PSNR %5.1f dB  train %8.1f ms on the device (%u steps); loss %.6f -> %.6f, fell by %.1f (required %.1f)\n",
           names[k], db[k], ms[k], steps, h[0], h[steps - 1], factor, REQUIRED_FACTOR);
    if (!(factor >= REQUIRED_FACTOR)) rc = 1;
  }
done:
  spvgen_vk_destroy(ctx);
  free(xy), free(target), free(fits), free(hist), free(img), free(plot);
  return rc;
}
