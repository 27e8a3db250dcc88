/* bench/emit_count.c — instructions per module for the rows of bench_emit_gemm and
 * bench_emit_mlp (warm path: reset + plan + emit + finish), for machines too loaded for
 * wall-clock numbers. Run under callgrind:
 *   valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=/tmp/cg.%p \
 *     build-release/bench/bench_emit_count 200
 * It prints the rows; callgrind writes one dump per row ("Desc: Trigger: Client Request:
 * <row>", its "summary:" line is that row's instruction count for N modules), which
 * scripts/emit-count.sh divides by N. Outside valgrind it only emits. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spvgen/gemm.h"
#include "spvgen/mlp.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(s) ((void)(s))
#endif

typedef struct grow {
  const char *preset;
  spvgen_gemm_variant variant;
  uint32_t m, n, k;
  spvgen_component_type ab, acc;
} grow;

typedef struct mrow {
  const char *preset;
  spvgen_mlp_variant variant;
  uint32_t in, width, count, out;
  spvgen_mlp_encoding encoding;
} mrow;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  if (n <= 0) n = 200;
  static const grow grows[] = {
      {"h100", SPVGEN_GEMM_COOPMAT2, 8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"h100", SPVGEN_GEMM_COOPMAT2, 2999, 3001, 2997, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 2999, 3001, 2997, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 8192, 8192, 8192, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32},
      {"vulkan13", SPVGEN_GEMM_SIMT, 1024, 1024, 1024, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
  };
  static const mrow mrows[] = {
      {"h100", SPVGEN_MLP_VEC, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"vulkan13", SPVGEN_MLP_LOOP, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_VEC, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"vulkan13", SPVGEN_MLP_LOOP, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 3, 33, 3, 4, SPVGEN_MLP_ENCODING_FREQUENCY},
  };
  spvgen_module *m = spvgen_module_create(NULL);
  char label[160];
  for (size_t r = 0; r < sizeof grows / sizeof grows[0]; r++) {
    spvgen_device_caps caps;
    spvgen_caps_preset(grows[r].preset, &caps);
    spvgen_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.m = grows[r].m, d.n = grows[r].n, d.k = grows[r].k;
    d.a_type = d.b_type = grows[r].ab;
    d.acc_type = d.out_type = grows[r].acc;
    d.variant = grows[r].variant;
    size_t words = 0;
    for (int warmup = 0; warmup < 2; warmup++) { /* the first module grows the arrays */
      spvgen_module_reset(m, NULL);
      spvgen_gemm_config p;
      const uint32_t *w;
      if (spvgen_gemm_plan(&d, &caps, &p, NULL, 0) != SPVGEN_OK || spvgen_gemm_emit(m, &p, NULL) != SPVGEN_OK ||
          spvgen_module_finish(m, &w, &words) != SPVGEN_OK) {
        fprintf(stderr, "emit failed: %s\n", spvgen_module_error(m));
        return 1;
      }
      snprintf(label, sizeof label, "gemm%zu %s %s %zu words", r, grows[r].preset, p.name, words);
    }
    CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < n; i++) {
      spvgen_module_reset(m, NULL);
      spvgen_gemm_config p;
      const uint32_t *w;
      if (spvgen_gemm_plan(&d, &caps, &p, NULL, 0) != SPVGEN_OK || spvgen_gemm_emit(m, &p, NULL) != SPVGEN_OK ||
          spvgen_module_finish(m, &w, &words) != SPVGEN_OK)
        return 1;
    }
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(label);
    printf("%s\n", label);
  }
  for (size_t r = 0; r < sizeof mrows / sizeof mrows[0]; r++) {
    spvgen_device_caps caps;
    spvgen_caps_preset(mrows[r].preset, &caps);
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = mrows[r].in;
    d.hidden_width = mrows[r].width;
    d.hidden_count = mrows[r].count;
    d.output_width = mrows[r].out;
    d.encoding = mrows[r].encoding;
    d.variant = mrows[r].variant;
    size_t words = 0;
    for (int warmup = 0; warmup < 2; warmup++) {
      spvgen_module_reset(m, NULL);
      spvgen_mlp_config p;
      const uint32_t *w;
      if (spvgen_mlp_plan(&d, &caps, &p, NULL, 0) != SPVGEN_OK || spvgen_mlp_emit(m, &p, NULL) != SPVGEN_OK ||
          spvgen_module_finish(m, &w, &words) != SPVGEN_OK) {
        fprintf(stderr, "emit failed: %s\n", spvgen_module_error(m));
        return 1;
      }
      snprintf(label, sizeof label, "mlp%zu %s %s %zu words", r, mrows[r].preset, p.name, words);
    }
    CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < n; i++) {
      spvgen_module_reset(m, NULL);
      spvgen_mlp_config p;
      const uint32_t *w;
      if (spvgen_mlp_plan(&d, &caps, &p, NULL, 0) != SPVGEN_OK || spvgen_mlp_emit(m, &p, NULL) != SPVGEN_OK ||
          spvgen_module_finish(m, &w, &words) != SPVGEN_OK)
        return 1;
    }
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(label);
    printf("%s\n", label);
  }
  spvgen_module_destroy(m);
  return 0;
}
