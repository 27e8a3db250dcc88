/* tools/spvgen/cmd_demo.c — `spvgen demo`: the main job end to end. Emits the
 * elementwise kernel, validates it in process, prints its disassembly, and runs it on
 * the first Vulkan device (if any), checking every output element against the CPU. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "ref_convert.h"
#include "spvgen/check.h"
#include "spvgen/elementwise.h"
#include "spvgen/vk.h"

static void demo_usage(FILE *f) {
  fprintf(f,
          "usage: spvgen demo [--type f32|f16] [--n N] [--device NAME] [--require-device]\n"
          "                   [--no-run] [--quiet]\n"
          "\n"
          "Emits c[i] = a[i] + b[i] as SPIR-V with the builder, validates it (spirv-val,\n"
          "Vulkan 1.3), prints the disassembly, then runs it on a Vulkan device when one is\n"
          "present and checks all N results against the CPU.\n"
          "  --type T      element type (default f32)\n"
          "  --n N         element count (default 1000003)\n"
          "  --device S    first device whose name contains S (default: best device)\n"
          "  --require-device  no Vulkan device is a failure, not a skip (also with\n"
          "                SPVGEN_GPU_REQUIRED=1 in the environment, as on the GPU machine)\n"
          "  --no-run      stop after validation\n"
          "  --quiet       do not print the disassembly\n"
          "examples:\n"
          "  spvgen demo\n"
          "  spvgen demo --type f16 --n 4096 --quiet --require-device\n"
          "exit: 0 ok (or no device, unless required), 1 failure, 2 usage\n");
}

int spvgen_cmd_demo(int argc, char **argv) {
  spvgen_elementwise_desc desc = {0};
  uint32_t n = 1000003;
  const char *device = NULL;
  int run = 1, quiet = 0, timing = 1;
  const char *required_env = getenv("SPVGEN_GPU_REQUIRED");
  int require_device = required_env && !strcmp(required_env, "1");
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      demo_usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
      const char *t = argv[++i];
      if (!strcmp(t, "f32")) desc.type = SPVGEN_ELEMENTWISE_F32;
      else if (!strcmp(t, "f16")) desc.type = SPVGEN_ELEMENTWISE_F16;
      else {
        fprintf(stderr, "spvgen demo: unknown type '%s' (f32 or f16)\n", t);
        return 2;
      }
    } else if (!strcmp(argv[i], "--require-device")) {
      require_device = 1;
    } else if (!strcmp(argv[i], "--n") && i + 1 < argc) {
      if (!sg_parse_u32(argv[++i], 1, 1u << 28, &n)) {
        fprintf(stderr, "spvgen demo: --n '%s': must be a number from 1 to %u\n", argv[i], 1u << 28);
        return 2;
      }
    } else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
      device = argv[++i];
    } else if (!strcmp(argv[i], "--no-run")) {
      run = 0;
    } else if (!strcmp(argv[i], "--glsl450")) {
      desc.glsl450_memory_model = true;
    } else if (!strcmp(argv[i], "--no-timing")) {
      timing = 0;
    } else if (!strcmp(argv[i], "--quiet")) {
      quiet = 1;
    } else {
      fprintf(stderr, "spvgen demo: unknown or incomplete option '%s'\n", argv[i]);
      demo_usage(stderr);
      return 2;
    }
  }
  int f16 = desc.type == SPVGEN_ELEMENTWISE_F16;

  /* 1. Emit. */
  char msg[1024];
  spvgen_kernel k;
  spvgen_status st = spvgen_elementwise(&desc, NULL, &k, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen demo: emit failed: %s\n", msg);
    return 1;
  }
  printf("emitted: c[i] = a[i] + b[i] (%s), %zu words\n", f16 ? "f16" : "f32", k.word_count);

  /* 2. Validate. */
  st = spvgen_validate(k.words, k.word_count, NULL, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen demo: validation failed: %s\n", msg);
    spvgen_kernel_free(&k);
    return 1;
  }
  printf("validated: spirv-val (Vulkan 1.3) accepts it\n");
  if (!quiet) {
    char *text = NULL;
    if (spvgen_disassemble(k.words, k.word_count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_INDENT,
                           &text, NULL, 0) == SPVGEN_OK)
      printf("\n%s\n", text);
    spvgen_free_text(text);
  }
  if (!run) {
    spvgen_kernel_free(&k);
    return 0;
  }

  /* 3. Run. */
  spvgen_vk_context *ctx = NULL;
  spvgen_vk_desc vd = {0};
  vd.device_name = device;
  st = spvgen_vk_create(&vd, &ctx, msg, sizeof msg);
  if (st == SPVGEN_ERROR_NO_DEVICE && !device && !require_device) {
    printf("run: skipped, no Vulkan device here (%s)\n", msg);
    spvgen_kernel_free(&k);
    return 0;
  }
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen demo: %s\n", msg);
    spvgen_kernel_free(&k);
    return 1;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  int rc = 1;
  size_t esize = f16 ? 2 : 4, bytes = (size_t)n * esize;
  void *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
  spvgen_vk_buffer *buf[3] = {0};
  spvgen_vk_pipeline *pipe = NULL;
  if (!ha || !hb || !hc) {
    fprintf(stderr, "spvgen demo: out of memory\n");
    goto done;
  }
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (uint32_t i = 0; i < n; i++) {
    float x[2];
    for (int j = 0; j < 2; j++) {
      seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
      x[j] = (float)((seed >> 40) % 20000) / 1000.0f - 10.0f + 0.001f; /* [-10, 10), never 0 */
    }
    if (f16) {
      ((uint16_t *)ha)[i] = sg_ref_f32_to_f16(x[0]);
      ((uint16_t *)hb)[i] = sg_ref_f32_to_f16(x[1]);
    } else {
      ((float *)ha)[i] = x[0];
      ((float *)hb)[i] = x[1];
    }
  }
  for (int j = 0; j < 3; j++)
    if ((st = spvgen_vk_buffer_create(ctx, bytes, 0, &buf[j])) != SPVGEN_OK) goto vkfail;
  if ((st = spvgen_vk_buffer_upload(ctx, buf[0], 0, ha, bytes)) != SPVGEN_OK) goto vkfail;
  if ((st = spvgen_vk_buffer_upload(ctx, buf[1], 0, hb, bytes)) != SPVGEN_OK) goto vkfail;
  if ((st = spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &pipe)) != SPVGEN_OK) goto vkfail;
  uint64_t ns = 0;
  uint32_t groups = (n + 63) / 64;
  if ((st = spvgen_vk_dispatch(ctx, pipe, buf, 3, &n, 4, groups, 1, 1, timing ? &ns : NULL)) != SPVGEN_OK)
    goto vkfail;
  if ((st = spvgen_vk_buffer_download(ctx, buf[2], 0, hc, bytes)) != SPVGEN_OK) goto vkfail;

  uint32_t bad = 0;
  double max_err = 0;
  for (uint32_t i = 0; i < n; i++) {
    double want, got, tol;
    if (f16) {
      /* f16 add: exact sum rounded once; allow one ulp of the result */
      float s = sg_ref_f16_to_f32(((uint16_t *)ha)[i]) + sg_ref_f16_to_f32(((uint16_t *)hb)[i]);
      want = sg_ref_f16_to_f32(sg_ref_f32_to_f16(s));
      got = sg_ref_f16_to_f32(((uint16_t *)hc)[i]);
      tol = fabs(want) * (1.0 / 1024) + 1e-3;
    } else {
      want = (double)(((float *)ha)[i] + ((float *)hb)[i]);
      got = ((float *)hc)[i];
      tol = 0;
    }
    double err = fabs(got - want);
    if (err > max_err) max_err = err;
    if (err > tol) {
      if (bad < 5) fprintf(stderr, "  c[%u] = %g, expected %g\n", i, got, want);
      bad++;
    }
  }
  printf("ran on: %s (%s)\n", caps->name, spvgen_device_type_name(caps->type));
  printf("checked: %u of %u elements match the CPU (max abs error %g)%s\n", n - bad, n, max_err,
         bad ? "  FAILED" : "");
  if (ns)
    printf("gpu time: %.1f us (%.1f GB/s)\n", ns / 1000.0, 3.0 * (double)bytes / (double)ns);
  rc = bad ? 1 : 0;
  goto done;
vkfail:
  fprintf(stderr, "spvgen demo: %s (%s)\n", spvgen_vk_error(ctx), spvgen_status_name(st));
done:
  spvgen_vk_pipeline_destroy(pipe);
  for (int j = 0; j < 3; j++) spvgen_vk_buffer_destroy(buf[j]);
  spvgen_vk_destroy(ctx);
  free(ha);
  free(hb);
  free(hc);
  spvgen_kernel_free(&k);
  return rc;
}
