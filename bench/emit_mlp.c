/* bench/emit_mlp.c — emission speed of the MLP template: plan + emit + finish per module,
 * the way a JIT framework calls it (one module reused with spvgen_module_reset: "warm";
 * or spvgen_mlp one-shot, which creates, reflects and copies: "one-shot"). One thread;
 * median of 7 runs of N modules (default 2000; `bench_emit_mlp N`). Rows: each variant on
 * the preset it targets, on the two networks of the MLP issue and an odd one with an
 * encoding. Target (issue 12): <= 10 us per module on one core. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spvgen/mlp.h"

#define RUNS 7

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct row {
  const char *preset;
  spvgen_mlp_variant variant;
  uint32_t in, width, count, out;
  spvgen_mlp_encoding encoding;
} row;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2000;
  if (n <= 0) n = 2000;
  static const row rows[] = {
      {"h100", SPVGEN_MLP_VEC, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"vulkan13", SPVGEN_MLP_LOOP, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_VEC, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"vulkan13", SPVGEN_MLP_LOOP, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 3, 33, 3, 4, SPVGEN_MLP_ENCODING_FREQUENCY},
  };
  printf("%-9s %-52s %7s %10s %12s\n", "preset", "plan", "words", "warm us", "one-shot us");
  spvgen_module *m = spvgen_module_create(NULL);
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    spvgen_device_caps caps;
    spvgen_caps_preset(rows[r].preset, &caps);
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = rows[r].in;
    d.hidden_width = rows[r].width;
    d.hidden_count = rows[r].count;
    d.output_width = rows[r].out;
    d.encoding = rows[r].encoding;
    d.variant = rows[r].variant;
    spvgen_mlp_config plan;
    char msg[512];
    if (spvgen_mlp_plan(&d, &caps, &plan, msg, sizeof msg) != SPVGEN_OK) {
      printf("%-9s %s\n", rows[r].preset, msg);
      continue;
    }
    double warm[RUNS], cold[RUNS];
    size_t words = 0;
    for (int run = 0; run < RUNS; run++) {
      double t0 = now_us();
      for (int i = 0; i < n; i++) {
        spvgen_module_reset(m, NULL);
        spvgen_mlp_config p;
        const uint32_t *w;
        if (spvgen_mlp_plan(&d, &caps, &p, NULL, 0) != SPVGEN_OK || spvgen_mlp_emit(m, &p, NULL) != SPVGEN_OK ||
            spvgen_module_finish(m, &w, &words) != SPVGEN_OK) {
          fprintf(stderr, "emit failed: %s\n", spvgen_module_error(m));
          return 1;
        }
      }
      warm[run] = (now_us() - t0) / n;
      t0 = now_us();
      for (int i = 0; i < n / 4 + 1; i++) {
        spvgen_kernel k;
        if (spvgen_mlp(&d, &caps, &k, msg, sizeof msg) != SPVGEN_OK) {
          fprintf(stderr, "%s\n", msg);
          return 1;
        }
        spvgen_kernel_free(&k);
      }
      cold[run] = (now_us() - t0) / (n / 4 + 1);
    }
    qsort(warm, RUNS, sizeof warm[0], cmp_double);
    qsort(cold, RUNS, sizeof cold[0], cmp_double);
    printf("%-9s %-52s %7zu %10.2f %12.2f\n", rows[r].preset, plan.name, words, warm[RUNS / 2], cold[RUNS / 2]);
  }
  spvgen_module_destroy(m);
  return 0;
}
