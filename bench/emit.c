/* bench/emit.c — emission speed of the builder: how long it takes to turn the calls for
 * a representative compute kernel into finished SPIR-V words.
 *
 * The kernel is a small GEMM-like shader: three storage buffers and a push constant,
 * a bounds check, a loop over K unrolled by 4 (default; `--unroll N`) with loads, index
 * arithmetic and 16 GLSL Fma per iteration into four accumulators, then an epilogue with
 * an if/else and guarded stores — 283 instructions with the default unroll, 211 with
 * `--unroll 1`: the size of what a JIT backend emits per kernel variant.
 *
 * Two numbers:
 *  - warm: one module reused with spvgen_module_reset (how a backend that keeps a
 *    builder around works), build + finish per module;
 *  - cold: create + build + finish + destroy per module.
 * Each is the median of 7 runs of N modules (default 20000; `bench_emit N`).
 * `bench_emit --dump FILE` writes the module's words to FILE (to validate or read it).
 *
 * Results and the command line are recorded in bench/results/emit.md. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spvgen/builder.h"

#define RUNS 7
#define UNROLL 4 /* default; `--unroll U` changes it (fewer instructions per module) */
static uint32_t g_unroll = UNROLL;
#define COLUMNS 4

/* Builds the kernel into m (fresh or just reset). Returns false on a builder error. */
static bool build_kernel(spvgen_module *m) {
  uint32_t f32 = spvgen_type_float(m, 32);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t bool_t = spvgen_type_bool(m);
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t elem = 0;
  uint32_t a = spvgen_storage_buffer(m, f32, 0, 0, true, &elem);
  uint32_t b = spvgen_storage_buffer(m, f32, 0, 1, true, NULL);
  uint32_t c = spvgen_storage_buffer(m, f32, 0, 2, false, NULL);
  uint32_t push_members[2] = {u32, f32};
  uint32_t push_t = spvgen_type_struct(m, push_members, 2);
  spvgen_decorate(m, push_t, SpvDecorationBlock);
  spvgen_member_decorate1(m, push_t, 0, SpvDecorationOffset, 0);
  spvgen_member_decorate1(m, push_t, 1, SpvDecorationOffset, 4);
  uint32_t push = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, push_t),
                                  SpvStorageClassPushConstant, 0);
  uint32_t gid_var = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  uint32_t k0 = spvgen_const_u32(m, 0), k1 = spvgen_const_u32(m, 1);
  uint32_t kunroll = spvgen_const_u32(m, g_unroll);
  uint32_t fzero = spvgen_const_f32(m, 0.0f), fone = spvgen_const_f32(m, 1.0f);
  uint32_t fu32 = spvgen_type_pointer(m, SpvStorageClassFunction, u32);
  uint32_t ff32 = spvgen_type_pointer(m, SpvStorageClassFunction, f32);

  spvgen_compute_main(m, "gemm", 16, 16, 1);
  uint32_t gid = spvgen_load(m, v3, gid_var);
  uint32_t col0 = spvgen_op_composite_extract(m, u32, gid, (const uint32_t[]){0}, 1);
  uint32_t row = spvgen_op_composite_extract(m, u32, gid, (const uint32_t[]){1}, 1);
  uint32_t col = spvgen_op_i_mul(m, u32, col0, spvgen_const_u32(m, COLUMNS));
  uint32_t n_ptr = spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, u32),
                                       push, &k0, 1);
  uint32_t n = spvgen_load(m, u32, n_ptr);
  uint32_t row_out = spvgen_op_u_greater_than_equal(m, bool_t, row, n);
  uint32_t col_out = spvgen_op_u_greater_than_equal(m, bool_t, col, n);
  uint32_t out = spvgen_op_logical_or(m, bool_t, row_out, col_out);
  spvgen_if(m, out);
  spvgen_return(m);
  spvgen_end_if(m);
  uint32_t row_base = spvgen_op_i_mul(m, u32, row, n);

  uint32_t acc[COLUMNS];
  for (int j = 0; j < COLUMNS; j++) acc[j] = spvgen_variable(m, ff32, SpvStorageClassFunction, fzero);
  uint32_t k = spvgen_variable(m, fu32, SpvStorageClassFunction, k0);
  spvgen_loop(m, SpvLoopControlMaskNone);
  uint32_t kv = spvgen_load(m, u32, k);
  uint32_t more = spvgen_op_u_less_than(m, bool_t, kv, n);
  spvgen_loop_while(m, more);
  uint32_t sums[COLUMNS];
  for (int j = 0; j < COLUMNS; j++) sums[j] = spvgen_load(m, f32, acc[j]);
  for (uint32_t u = 0; u < g_unroll; u++) {
    uint32_t ku = u ? spvgen_op_i_add(m, u32, kv, spvgen_const_u32(m, u)) : kv;
    uint32_t ai = spvgen_op_i_add(m, u32, row_base, ku);
    uint32_t aidx[2] = {k0, ai};
    uint32_t av = spvgen_load(m, f32, spvgen_access_chain(m, elem, a, aidx, 2));
    uint32_t brow = spvgen_op_i_mul(m, u32, ku, n);
    for (uint32_t j = 0; j < COLUMNS; j++) {
      uint32_t cj = j ? spvgen_op_i_add(m, u32, col, spvgen_const_u32(m, j)) : col;
      uint32_t bi = spvgen_op_i_add(m, u32, brow, cj);
      uint32_t bidx[2] = {k0, bi};
      uint32_t bv = spvgen_load(m, f32, spvgen_access_chain(m, elem, b, bidx, 2));
      sums[j] = spvgen_glsl_fma(m, f32, av, bv, sums[j]);
    }
  }
  for (int j = 0; j < COLUMNS; j++) spvgen_store(m, acc[j], sums[j]);
  spvgen_loop_continue_block(m);
  uint32_t kv2 = spvgen_load(m, u32, k);
  spvgen_store(m, k, spvgen_op_i_add(m, u32, kv2, kunroll));
  spvgen_end_loop(m);

  /* Epilogue: C = alpha * acc (alpha from the push constant), skipped scaling when 1. */
  uint32_t alpha_ptr = spvgen_access_chain(
      m, spvgen_type_pointer(m, SpvStorageClassPushConstant, f32), push, &k1, 1);
  uint32_t alpha = spvgen_load(m, f32, alpha_ptr);
  uint32_t unit = spvgen_op_f_ord_equal(m, bool_t, alpha, fone);
  for (uint32_t j = 0; j < COLUMNS; j++) {
    uint32_t cj = j ? spvgen_op_i_add(m, u32, col, spvgen_const_u32(m, j)) : col;
    uint32_t inside = spvgen_op_u_less_than(m, bool_t, cj, n);
    spvgen_if(m, inside);
    uint32_t ci = spvgen_op_i_add(m, u32, row_base, cj);
    uint32_t cidx[2] = {k0, ci};
    uint32_t cp = spvgen_access_chain(m, elem, c, cidx, 2);
    uint32_t v = spvgen_load(m, f32, acc[j]);
    spvgen_if(m, unit);
    spvgen_store(m, cp, v);
    spvgen_else(m);
    spvgen_store(m, cp, spvgen_op_f_mul(m, f32, v, alpha));
    spvgen_end_if(m);
    spvgen_end_if(m);
  }
  spvgen_function_end(m);
  return spvgen_module_status(m) == SPVGEN_OK;
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* Instructions in a finished module. */
static size_t count_instructions(const uint32_t *w, size_t n) {
  size_t count = 0;
  for (size_t i = 5; i < n;) {
    uint32_t wc = w[i] >> 16;
    if (!wc) break;
    count++;
    i += wc;
  }
  return count;
}

int main(int argc, char **argv) {
  long modules = 20000;
  const char *dump = NULL;
  if (argc > 2 && !strcmp(argv[1], "--unroll")) {
    g_unroll = (uint32_t)strtoul(argv[2], NULL, 10);
    if (g_unroll < 1 || g_unroll > 64) {
      fprintf(stderr, "usage: %s --unroll U (1..64) [modules per run]\n", argv[0]);
      return 2;
    }
    argc -= 2;
    argv += 2;
  }
  if (argc > 2 && !strcmp(argv[1], "--dump")) {
    dump = argv[2];
  } else if (argc > 1) {
    char *end = NULL;
    modules = strtol(argv[1], &end, 10);
    if (!end || *end || modules < 1) {
      fprintf(stderr, "usage: %s [modules per run, default 20000]\n", argv[0]);
      return 2;
    }
  }

  /* One module to describe what is built, and a checksum of its words. */
  spvgen_module *m = spvgen_module_create(NULL);
  if (!m || !build_kernel(m)) {
    fprintf(stderr, "bench_emit: build failed: %s\n", m ? spvgen_module_error(m) : "out of memory");
    return 1;
  }
  const uint32_t *words = NULL;
  size_t nwords = 0;
  if (spvgen_module_finish(m, &words, &nwords) != SPVGEN_OK) {
    fprintf(stderr, "bench_emit: finish failed: %s\n", spvgen_module_error(m));
    return 1;
  }
  size_t ninst = count_instructions(words, nwords);
  if (dump) {
    FILE *f = fopen(dump, "wb");
    int ok = f && fwrite(words, sizeof *words, nwords, f) == nwords;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) fprintf(stderr, "bench_emit: cannot write %s\n", dump);
    spvgen_module_destroy(m);
    return ok ? 0 : 1;
  }
  uint32_t hash = 2166136261u;
  for (size_t i = 0; i < nwords; i++) hash = (hash ^ words[i]) * 16777619u;

  /* Warm: one module, reset between builds. */
  double warm[RUNS], cold[RUNS];
  size_t total_words = 0;
  for (int r = 0; r < RUNS; r++) {
    double t0 = now_us();
    for (long i = 0; i < modules; i++) {
      spvgen_module_reset(m, NULL);
      build_kernel(m);
      size_t n = 0;
      if (spvgen_module_finish(m, NULL, &n) != SPVGEN_OK) {
        fprintf(stderr, "bench_emit: %s\n", spvgen_module_error(m));
        return 1;
      }
      total_words += n;
    }
    warm[r] = (now_us() - t0) / (double)modules;
  }
  /* Cold: a new module every time. */
  for (int r = 0; r < RUNS; r++) {
    double t0 = now_us();
    for (long i = 0; i < modules; i++) {
      spvgen_module *c = spvgen_module_create(NULL);
      build_kernel(c);
      size_t n = 0;
      if (!c || spvgen_module_finish(c, NULL, &n) != SPVGEN_OK) {
        fprintf(stderr, "bench_emit: %s\n", c ? spvgen_module_error(c) : "out of memory");
        return 1;
      }
      total_words += n;
      spvgen_module_destroy(c);
    }
    cold[r] = (now_us() - t0) / (double)modules;
  }
  if (total_words != (size_t)modules * RUNS * 2 * nwords) {
    fprintf(stderr, "bench_emit: module sizes varied between builds\n");
    return 1;
  }
  spvgen_module_destroy(m);

  double warm_runs[RUNS], cold_runs[RUNS];
  memcpy(warm_runs, warm, sizeof warm);
  memcpy(cold_runs, cold, sizeof cold);
  double w_us = median(warm, RUNS), c_us = median(cold, RUNS);
  printf("bench_emit: GEMM-like compute kernel (K loop unrolled %u times), %ld modules per run, "
         "median of %d runs\n",
         g_unroll, modules, RUNS);
  printf("module: %zu instructions, %zu words (%zu bytes), checksum %08x\n\n", ninst, nwords,
         nwords * 4, hash);
  printf("| mode | us/module | instructions/module | words/module | Mwords/s | modules/s |\n");
  printf("|------|-----------|---------------------|--------------|----------|-----------|\n");
  printf("| warm (reset + build + finish) | %.2f | %zu | %zu | %.1f | %.0f |\n", w_us, ninst,
         nwords, (double)nwords / w_us, 1e6 / w_us);
  printf("| cold (create + build + finish + destroy) | %.2f | %zu | %zu | %.1f | %.0f |\n", c_us,
         ninst, nwords, (double)nwords / c_us, 1e6 / c_us);
  printf("\nruns (us/module) warm:");
  for (int r = 0; r < RUNS; r++) printf(" %.2f", warm_runs[r]);
  printf("\nruns (us/module) cold:");
  for (int r = 0; r < RUNS; r++) printf(" %.2f", cold_runs[r]);
  printf("\n");
  return 0;
}
