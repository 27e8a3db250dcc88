/* bench/loop_limit.c — how many loop iterations one invocation of a compute shader may
 * run on this device: a minimal module whose invocation runs two counting loops, one
 * after the other, for n1 and n2 iterations (push constants), and stores the two
 * counts. A device that runs the shader as written stores n1 and n2.
 *
 * llvmpipe (lavapipe) does not: its shader compiler (gallivm) ends every loop once a
 * per-invocation budget of 65535 iterations, shared by all of the shader's loops
 * (LP_MAX_TGSI_LOOP_ITERATIONS), is spent, without an error. The MLP's loop variant
 * stays inside that budget (emitters/mlp/loop.c, mlp_loop_unroll); this probe is the
 * evidence (docs/design-notes.md, "lavapipe's loop budget").
 *
 *   build/bench/bench_loop_limit
 * prints one line per (n1, n2) pair with the stored counts and whether they are exact;
 * exit 77 without Vulkan. */
#include <stdio.h>
#include <string.h>

#include "spvgen/spvgen.h"

/* for (i = 0; i < n; i++) count++ on Function variables, count stored to out[slot]. */
static void counting_loop(spvgen_module *m, uint32_t u32, uint32_t bt, uint32_t n, uint32_t out,
                          uint32_t out_ptr, uint32_t slot, uint32_t iv, uint32_t cv) {
  uint32_t zero = spvgen_const_u32(m, 0), one = spvgen_const_u32(m, 1);
  spvgen_store(m, iv, zero);
  spvgen_store(m, cv, zero);
  spvgen_loop(m, SpvLoopControlDontUnrollMask);
  spvgen_loop_while(m, spvgen_op_u_less_than(m, bt, spvgen_load(m, u32, iv), n));
  spvgen_store(m, cv, spvgen_op_i_add(m, u32, spvgen_load(m, u32, cv), one));
  spvgen_loop_continue_block(m);
  spvgen_store(m, iv, spvgen_op_i_add(m, u32, spvgen_load(m, u32, iv), one));
  spvgen_end_loop(m);
  uint32_t idx[2] = {zero, spvgen_const_u32(m, slot)};
  spvgen_store(m, spvgen_access_chain(m, out_ptr, out, idx, 2), spvgen_load(m, u32, cv));
}

int main(void) {
  char msg[512];
  spvgen_vk_context *ctx = NULL;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg);
  if (st != SPVGEN_OK) return fprintf(stderr, "bench_loop_limit: %s\n", msg), st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false), bt = spvgen_type_bool(m), out_ptr = 0;
  uint32_t out = spvgen_storage_buffer(m, u32, 0, 0, false, &out_ptr);
  uint32_t pct[2] = {u32, u32};
  spvgen_push_constant_block pc = spvgen_push_constants(m, pct, 2);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t fptr = spvgen_type_pointer(m, SpvStorageClassFunction, u32);
  uint32_t iv = spvgen_variable(m, fptr, SpvStorageClassFunction, 0);
  uint32_t cv = spvgen_variable(m, fptr, SpvStorageClassFunction, 0);
  uint32_t n1 = spvgen_push_constant_load(m, &pc, 0), n2 = spvgen_push_constant_load(m, &pc, 1);
  counting_loop(m, u32, bt, n1, out, out_ptr, 0, iv, cv);
  counting_loop(m, u32, bt, n2, out, out_ptr, 1, iv, cv);
  spvgen_function_end(m);
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *buf = NULL;
  int rc = 0;
  if (spvgen_module_finish(m, &words, &count) != SPVGEN_OK ||
      spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, 8, 0, &buf) != SPVGEN_OK) {
    fprintf(stderr, "bench_loop_limit: %s %s\n", spvgen_module_error(m), spvgen_vk_error(ctx));
    rc = 1;
    goto done;
  }
  printf("# bench_loop_limit on %s: two counting loops of n1 and n2 iterations in one invocation\n",
         spvgen_vk_caps(ctx)->name);
  static const uint32_t cases[][2] = {{1000, 1000}, {65000, 0}, {65535, 0}, {70000, 0},
                                      {100000, 0}, {40000, 40000}, {60000, 10000}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    uint32_t got[2] = {0, 0};
    if (spvgen_vk_dispatch(ctx, pipe, &buf, 1, cases[k], 8, 1, 1, 1, NULL) != SPVGEN_OK ||
        spvgen_vk_buffer_download(ctx, buf, 0, got, 8) != SPVGEN_OK) {
      fprintf(stderr, "bench_loop_limit: %s\n", spvgen_vk_error(ctx));
      rc = 1;
      break;
    }
    printf("n1 %6u n2 %6u: counted %6u and %6u (%s)\n", cases[k][0], cases[k][1], got[0], got[1],
           got[0] == cases[k][0] && got[1] == cases[k][1] ? "exact" : "LOOPS CUT SHORT");
  }
done:
  spvgen_vk_buffer_destroy(buf);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
  return rc;
}
