/* bench/coopmat_peak.c — the ceiling of the cooperative-matrix MulAdd on this device and
 * driver, with no GEMM around it: the variant that isolates the limit of the GEMM
 * templates (issue 9 §6).
 *
 * Each workgroup loads two A tiles (BM x BK) and two B tiles (BK x BN) once, then runs
 * `iters` iterations of  C = A0 B0 + C;  C = A1 B1 + C  on matrices of the chosen scope
 * (workgroup scope, as the coopmat2 template uses, with `--wg` invocations; or subgroup
 * scope, one BMxBN accumulator per subgroup), and stores C. With `--load` each iteration
 * also loads its A and B tiles again from a small, cache-resident buffer (the tile at
 * (i mod 8)), which adds the load path without DRAM traffic; `--load tensor` does the
 * same through tensor layouts (OpCooperativeMatrixLoadTensorNV on slices, as the coopmat2
 * GEMM loads), `--load shared` loads from one tile pair in Workgroup memory (copied
 * there once), shifted by a row every other iteration (shared-u32 / shared-u32x4: the
 * Workgroup arrays hold u32 / u32x4 words, the load's stride counts them, as the GEMM's
 * stages 2 stores them). Nothing else runs: no
 * shared-memory staging of a real K loop, no edges, no epilogue.
 *
 * Counted: 2 * BM * BN * BK * 2 * iters * groups per dispatch. GPU timestamps, after the
 * same sustained warm-up as bench_gemm (tools/common/warm_up.h), best of three timed
 * submissions of --repeats dispatches (median per submission). The driver's register /
 * spill statistics are printed with --stats.
 *
 *   bench_coopmat_peak [--types f16,f16|f16,f32|s8,s32|u8,u32|bf16,f32] [--tile 128x256x32]
 *                      [--wg 256] [--scope wg|sg] [--iters 2048] [--groups 0 (= 4 per SM
 *                      guess: 528)] [--load [global|shared|shared-u32|shared-u32x4|tensor]]
 *                      [--repeats 10] [--warmup-ms 300] [--stats]
 *                      [--offline: build and validate the modules only, no device (CI)]
 * Several --types (';' between them) and --tile (':' between them, e.g.
 * --tile 128x256x32:128x128x32) print one row each. Results: bench/results/gemm-*.md. */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/check.h"
#include "spvgen/coop.h"
#include "spvgen/vk.h"
#include "warm_up.h"

typedef struct peak_row {
  spvgen_component_type ab, acc;
  uint32_t bm, bn, bk, wg, iters, groups;
  SpvScope scope;
  int load; /* LOAD_* */
} peak_row;

enum { LOAD_NONE = 0, LOAD_GLOBAL = 1, LOAD_SHARED = 2, LOAD_TENSOR = 3, LOAD_SHARED_U32 = 4, LOAD_SHARED_V4 = 5 };
static const char *const load_names[] = {"", " load", " load-shared", " load-tensor", " load-shared-u32",
                                         " load-shared-u32x4"};

static uint32_t elem_type(spvgen_module *m, spvgen_component_type t) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: return spvgen_type_float(m, 16);
  case SPVGEN_COMPONENT_F32: return spvgen_type_float(m, 32);
  case SPVGEN_COMPONENT_S8: return spvgen_type_int(m, 8, true);
  case SPVGEN_COMPONENT_U8: return spvgen_type_int(m, 8, false);
  case SPVGEN_COMPONENT_S32: return spvgen_type_int(m, 32, true);
  case SPVGEN_COMPONENT_U32: return spvgen_type_int(m, 32, false);
  case SPVGEN_COMPONENT_BF16: return spvgen_type_bfloat16(m);
  default: return 0;
  }
}

static uint32_t elem_bytes(spvgen_component_type t) {
  switch (t) {
  case SPVGEN_COMPONENT_S8:
  case SPVGEN_COMPONENT_U8: return 1;
  case SPVGEN_COMPONENT_F32:
  case SPVGEN_COMPONENT_S32:
  case SPVGEN_COMPONENT_U32: return 4;
  default: return 2;
  }
}

/* Bindings: 0 A (8 pairs of BMxBK tiles, row-major, stride BK), 1 B (8 pairs of BKxBN,
 * stride BN), 2 D (groups x BM x BN accumulators, row-major). */
static void build(spvgen_module *m, const peak_row *r) {
  uint32_t tab = elem_type(m, r->ab), tacc = elem_type(m, r->acc);
  uint32_t u32 = spvgen_type_int(m, 32, false), v3 = spvgen_type_vector(m, u32, 3);
  uint32_t pab = 0, pacc = 0;
  uint32_t a = spvgen_storage_buffer(m, tab, 0, 0, true, &pab);
  uint32_t b = spvgen_storage_buffer(m, tab, 0, 1, true, NULL);
  uint32_t d = spvgen_storage_buffer(m, tacc, 0, 2, false, &pacc);
  uint32_t wgid = spvgen_builtin_input(m, SpvBuiltInWorkgroupId, v3);
  uint32_t lid = r->scope == SpvScopeSubgroup ? spvgen_builtin_input(m, SpvBuiltInLocalInvocationIndex, u32) : 0;
  uint32_t ta = spvgen_type_coopmat(m, tab, r->scope, r->bm, r->bk, SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t tb = spvgen_type_coopmat(m, tab, r->scope, r->bk, r->bn, SpvCooperativeMatrixUseMatrixBKHR);
  uint32_t tc = spvgen_type_coopmat(m, tacc, r->scope, r->bm, r->bn, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  uint32_t pc = spvgen_type_pointer(m, SpvStorageClassFunction, tc);
  uint32_t pu = spvgen_type_pointer(m, SpvStorageClassFunction, u32);
  uint32_t boolean = spvgen_type_bool(m);
  /* --load shared: one A and one B tile (plus a row of slack, so the per-iteration offset
   * stays inside) in Workgroup memory, filled once. */
  uint32_t ta_n = r->bm * r->bk, tb_n = r->bk * r->bn;
  uint32_t sa = 0, sb = 0, psh = 0, lidx = 0;
  /* The shared arrays' element: the matrix's component type, or u32 / u32x4 words holding
   * the same bytes (the matrix load's stride then counts those elements). */
  uint32_t sel = tab, per = 1; /* components per shared element */
  if (r->load == LOAD_SHARED_U32) sel = u32, per = 4 / elem_bytes(r->ab);
  if (r->load == LOAD_SHARED_V4) sel = spvgen_type_vector(m, u32, 4), per = 16 / elem_bytes(r->ab);
  bool shared = r->load == LOAD_SHARED || r->load == LOAD_SHARED_U32 || r->load == LOAD_SHARED_V4;
  if (shared) {
    psh = spvgen_type_pointer(m, SpvStorageClassWorkgroup, sel);
    uint32_t arr_a = spvgen_type_array(m, sel, (ta_n + r->bk) / per);
    uint32_t arr_b = spvgen_type_array(m, sel, (tb_n + r->bn) / per);
    sa = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, arr_a), SpvStorageClassWorkgroup, 0);
    sb = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, arr_b), SpvStorageClassWorkgroup, 0);
    lidx = lid ? lid : spvgen_builtin_input(m, SpvBuiltInLocalInvocationIndex, u32);
  }
  /* --load tensor: A as a [16 BM, BK] tensor, B as [16 BK, BN], sliced per iteration as the
   * coopmat2 GEMM slices its operands (unclamped layouts). */
  uint32_t lay_a = 0, lay_b = 0;

  spvgen_compute_main(m, "main", r->wg, 1, 1);
  uint32_t vc = spvgen_variable(m, pc, SpvStorageClassFunction, 0);
  uint32_t vi = spvgen_variable(m, pu, SpvStorageClassFunction, 0);
  uint32_t zero = spvgen_const_u32(m, 0);
  const SpvCooperativeMatrixLayout rm = SpvCooperativeMatrixLayoutRowMajorKHR;
  uint32_t ma[2], mb[2];
  if (shared) { /* each invocation copies every wg-th element, then a barrier */
    uint32_t me = spvgen_load(m, u32, lidx);
    for (int which = 0; which < 2; which++) {
      uint32_t total = which ? tb_n + r->bn : ta_n + r->bk;
      if (per > 1) { /* whole u32 / u32x4 elements: fill them with a constant pattern instead */
        uint32_t pat = r->ab == SPVGEN_COMPONENT_BF16 ? 0x3F803F80u : r->ab == SPVGEN_COMPONENT_F16 ? 0x24002400u : 0x01010101u;
        uint32_t cv = spvgen_const_u32(m, pat);
        if (r->load == LOAD_SHARED_V4) cv = spvgen_const_composite(m, sel, (uint32_t[]){cv, cv, cv, cv}, 4);
        total /= per;
        uint32_t vk = spvgen_variable(m, pu, SpvStorageClassFunction, 0);
        spvgen_store(m, vk, me);
        spvgen_loop(m, SpvLoopControlMaskNone);
        uint32_t k = spvgen_load(m, u32, vk);
        spvgen_loop_while(m, spvgen_op_u_less_than(m, boolean, k, spvgen_const_u32(m, total)));
        spvgen_store(m, spvgen_access_chain(m, psh, which ? sb : sa, (uint32_t[]){k}, 1), cv);
        spvgen_loop_continue_block(m);
        spvgen_store(m, vk, spvgen_op_i_add(m, u32, spvgen_load(m, u32, vk), spvgen_const_u32(m, r->wg)));
        spvgen_end_loop(m);
        continue;
      }
      uint32_t vk = spvgen_variable(m, pu, SpvStorageClassFunction, 0);
      spvgen_store(m, vk, me);
      spvgen_loop(m, SpvLoopControlMaskNone);
      uint32_t k = spvgen_load(m, u32, vk);
      spvgen_loop_while(m, spvgen_op_u_less_than(m, boolean, k, spvgen_const_u32(m, total)));
      uint32_t src = spvgen_access_chain(m, pab, which ? b : a, (uint32_t[]){zero, k}, 2);
      uint32_t dst = spvgen_access_chain(m, psh, which ? sb : sa, (uint32_t[]){k}, 1);
      spvgen_store(m, dst, spvgen_load(m, tab, src));
      spvgen_loop_continue_block(m);
      spvgen_store(m, vk, spvgen_op_i_add(m, u32, spvgen_load(m, u32, vk), spvgen_const_u32(m, r->wg)));
      spvgen_end_loop(m);
    }
    spvgen_workgroup_barrier(m);
  }
  if (r->load == LOAD_TENSOR) {
    uint32_t lt = spvgen_type_tensor_layout(m, 2, SpvTensorClampModeUndefined);
    uint32_t la = spvgen_tensor_layout_create(m, lt), lb = spvgen_tensor_layout_create(m, lt);
    la = spvgen_tensor_layout_set_dimension(m, la, (uint32_t[]){spvgen_const_u32(m, 16 * r->bm), spvgen_const_u32(m, r->bk)}, 2);
    lay_a = spvgen_tensor_layout_set_stride(m, la, (uint32_t[]){spvgen_const_u32(m, r->bk), spvgen_const_u32(m, 1)}, 2);
    lb = spvgen_tensor_layout_set_dimension(m, lb, (uint32_t[]){spvgen_const_u32(m, 16 * r->bk), spvgen_const_u32(m, r->bn)}, 2);
    lay_b = spvgen_tensor_layout_set_stride(m, lb, (uint32_t[]){spvgen_const_u32(m, r->bn), spvgen_const_u32(m, 1)}, 2);
  }
  for (uint32_t j = 0; j < 2; j++) {
    uint32_t pa = spvgen_access_chain(m, pab, a, (uint32_t[]){zero, spvgen_const_u32(m, j * ta_n)}, 2);
    uint32_t pb = spvgen_access_chain(m, pab, b, (uint32_t[]){zero, spvgen_const_u32(m, j * tb_n)}, 2);
    ma[j] = spvgen_coopmat_load(m, ta, pa, rm, r->bk, NULL);
    mb[j] = spvgen_coopmat_load(m, tb, pb, rm, r->bn, NULL);
  }
  spvgen_store(m, vc, spvgen_coop_splat(m, tc, spvgen_const_bits(m, tacc, 0)));
  spvgen_store(m, vi, zero);
  spvgen_loop(m, SpvLoopControlMaskNone);
  uint32_t i = spvgen_load(m, u32, vi);
  spvgen_loop_while(m, spvgen_op_u_less_than(m, boolean, i, spvgen_const_u32(m, r->iters)));
  uint32_t c = spvgen_load(m, tc, vc);
  for (uint32_t j = 0; j < 2; j++) {
    uint32_t la = ma[j], lb = mb[j];
    uint32_t slot = r->load ? spvgen_op_bitwise_and(m, u32, i, spvgen_const_u32(m, 7)) : 0;
    uint32_t pair = r->load ? spvgen_op_i_add(m, u32, spvgen_op_i_mul(m, u32, slot, spvgen_const_u32(m, 2)),
                                              spvgen_const_u32(m, j)) : 0;
    if (r->load == LOAD_GLOBAL) { /* tile pair (i mod 8): cache resident, a different address each time */
      uint32_t pa = spvgen_access_chain(m, pab, a, (uint32_t[]){zero, spvgen_op_i_mul(m, u32, pair, spvgen_const_u32(m, ta_n))}, 2);
      uint32_t pb = spvgen_access_chain(m, pab, b, (uint32_t[]){zero, spvgen_op_i_mul(m, u32, pair, spvgen_const_u32(m, tb_n))}, 2);
      la = spvgen_coopmat_load(m, ta, pa, rm, r->bk, NULL);
      lb = spvgen_coopmat_load(m, tb, pb, rm, r->bn, NULL);
    } else if (shared) { /* the one shared tile, shifted by (i & 1) rows */
      uint32_t odd = spvgen_op_bitwise_and(m, u32, i, spvgen_const_u32(m, 1));
      uint32_t pa = spvgen_access_chain(m, psh, sa, (uint32_t[]){spvgen_op_i_mul(m, u32, odd, spvgen_const_u32(m, r->bk / per))}, 1);
      uint32_t pb = spvgen_access_chain(m, psh, sb, (uint32_t[]){spvgen_op_i_mul(m, u32, odd, spvgen_const_u32(m, r->bn / per))}, 1);
      la = spvgen_coopmat_load(m, ta, pa, rm, r->bk / per, NULL);
      lb = spvgen_coopmat_load(m, tb, pb, rm, r->bn / per, NULL);
    } else if (r->load == LOAD_TENSOR) {
      uint32_t pa = spvgen_access_chain(m, pab, a, (uint32_t[]){zero, zero}, 2);
      uint32_t pb = spvgen_access_chain(m, pab, b, (uint32_t[]){zero, zero}, 2);
      uint32_t sla = spvgen_tensor_layout_slice(m, lay_a, (uint32_t[]){spvgen_op_i_mul(m, u32, pair, spvgen_const_u32(m, r->bm)), zero},
                                                (uint32_t[]){spvgen_const_u32(m, r->bm), spvgen_const_u32(m, r->bk)}, 2);
      uint32_t slb = spvgen_tensor_layout_slice(m, lay_b, (uint32_t[]){spvgen_op_i_mul(m, u32, pair, spvgen_const_u32(m, r->bk)), zero},
                                                (uint32_t[]){spvgen_const_u32(m, r->bk), spvgen_const_u32(m, r->bn)}, 2);
      la = spvgen_coopmat_load_tensor(m, ta, pa, spvgen_op_constant_null(m, ta), sla, NULL, NULL);
      lb = spvgen_coopmat_load_tensor(m, tb, pb, spvgen_op_constant_null(m, tb), slb, NULL, NULL);
    }
    c = spvgen_coopmat_muladd(m, tc, la, lb, c, 0);
  }
  spvgen_store(m, vc, c);
  spvgen_loop_continue_block(m);
  spvgen_store(m, vi, spvgen_op_i_add(m, u32, spvgen_load(m, u32, vi), spvgen_const_u32(m, 1)));
  spvgen_end_loop(m);
  uint32_t g = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, wgid), (uint32_t[]){0}, 1);
  uint32_t tile = g;
  if (r->scope == SpvScopeSubgroup) { /* one accumulator per subgroup: tile = g * subgroups + sg */
    uint32_t sg = spvgen_op_u_div(m, u32, spvgen_load(m, u32, lid), spvgen_const_u32(m, 32));
    tile = spvgen_op_i_add(m, u32, spvgen_op_i_mul(m, u32, g, spvgen_const_u32(m, r->wg / 32)), sg);
  }
  uint32_t at = spvgen_op_i_mul(m, u32, tile, spvgen_const_u32(m, r->bm * r->bn));
  uint32_t pd = spvgen_access_chain(m, pacc, d, (uint32_t[]){zero, at}, 2);
  spvgen_coopmat_store(m, pd, spvgen_load(m, tc, vc), rm, r->bn, NULL);
  spvgen_function_end(m);
}

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

static bool parse_types(const char *s, spvgen_component_type *ab, spvgen_component_type *acc) {
  static const struct { const char *n; spvgen_component_type ab, acc; } t[] = {
      {"f16,f16", SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F16},
      {"f16,f32", SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"s8,s32", SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32},
      {"u8,u32", SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_U32},
      {"bf16,f32", SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_F32},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (!strcmp(s, t[i].n)) {
      *ab = t[i].ab;
      *acc = t[i].acc;
      return true;
    }
  return false;
}

/* ctx NULL (--offline): build and validate only. */
static int run_row(spvgen_vk_context *ctx, const peak_row *r, uint32_t repeats, uint32_t warmup_ms, bool stats) {
  char msg[1024];
  spvgen_module *m = spvgen_module_create(NULL);
  build(m, r);
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_status st = spvgen_module_finish(m, &words, &count);
  if (st == SPVGEN_OK) st = spvgen_validate(words, count, NULL, msg, sizeof msg);
  else snprintf(msg, sizeof msg, "%s", spvgen_module_error(m));
  const char *sc = r->scope == SpvScopeSubgroup ? "sg" : "wg";
  char name[96];
  snprintf(name, sizeof name, "%s,%s %ux%ux%u %s%u%s", spvgen_component_type_name(r->ab),
           spvgen_component_type_name(r->acc), r->bm, r->bn, r->bk, sc, r->wg, load_names[r->load]);
  if (st != SPVGEN_OK) {
    printf("# %s: %s\n", name, msg);
    spvgen_module_destroy(m);
    return 1;
  }
  if (!ctx) {
    printf("%-40s valid (%zu words)\n", name, count);
    spvgen_module_destroy(m);
    return 0;
  }
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[3] = {NULL, NULL, NULL};
  uint64_t *ns = NULL;
  int rc = 1;
  if (spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe) != SPVGEN_OK) {
    printf("# %s: %s\n", name, spvgen_vk_error(ctx));
    goto out;
  }
  uint32_t tiles_per_group = r->scope == SpvScopeSubgroup ? r->wg / 32 : 1;
  uint64_t sizes[3] = {16ull * r->bm * r->bk * elem_bytes(r->ab), 16ull * r->bk * r->bn * elem_bytes(r->ab),
                       (uint64_t)r->groups * tiles_per_group * r->bm * r->bn * elem_bytes(r->acc)};
  for (int i = 0; i < 3; i++)
    if (spvgen_vk_buffer_create(ctx, sizes[i], 0, &bufs[i]) != SPVGEN_OK) {
      printf("# %s: %s\n", name, spvgen_vk_error(ctx));
      goto out;
    }
  /* Small values, nonzero, finite in every type: 0x3C00 is 1.0 in f16 (and 0x3C in 8-bit
   * types: 60), 0x3F80 1.0 in bf16; the products stay finite for these iteration counts in
   * f32 and wrap harmlessly in s32. f16 accumulators of a few thousand sums saturate to
   * inf, which costs the tensor cores nothing. */
  uint32_t pattern = r->ab == SPVGEN_COMPONENT_BF16 ? 0x3F803F80u : r->ab == SPVGEN_COMPONENT_F16 ? 0x24002400u : 0x01010101u;
  spvgen_vk_buffer_fill(ctx, bufs[0], 0, sizes[0], pattern);
  spvgen_vk_buffer_fill(ctx, bufs[1], 0, sizes[1], pattern);
  spvgen_vk_dispatch_desc dd;
  memset(&dd, 0, sizeof dd);
  dd.pipeline = pipe;
  dd.buffers = bufs;
  dd.buffer_count = 3;
  dd.groups[0] = r->groups;
  dd.groups[1] = dd.groups[2] = 1;
  spvgen_vk_dispatch_desc *dds = malloc(sizeof *dds * repeats);
  ns = malloc(sizeof *ns * (repeats > 4096 ? repeats : 4096));
  if (!dds || !ns) {
    free(dds);
    printf("# %s: out of host memory\n", name);
    goto out;
  }
  for (uint32_t i = 0; i < repeats; i++) dds[i] = dd;
  warm_up_info w;
  warm_up_run(ctx, dds, repeats, warmup_ms, ns, &w);
  double best = 0;
  for (int round = 0; round < 3; round++) {
    if (spvgen_vk_run(ctx, dds, repeats, ns) != SPVGEN_OK) {
      printf("# %s: %s\n", name, spvgen_vk_error(ctx));
      free(dds);
      goto out;
    }
    qsort(ns, repeats, sizeof *ns, cmp_u64);
    double med = (double)ns[repeats / 2];
    if (med > 0 && (best == 0 || med < best)) best = med;
  }
  free(dds);
  double flops = 2.0 * r->bm * r->bn * r->bk * 2.0 * r->iters * r->groups * tiles_per_group;
  printf("%-40s groups %5u iters %5u  %8.3f ms  %7.1f T%sOP/s%s\n", name, r->groups, r->iters, best / 1e6,
         best > 0 ? flops / best / 1e3 : 0.0, r->ab == SPVGEN_COMPONENT_S8 || r->ab == SPVGEN_COMPONENT_U8 ? "" : "FL",
         w.steady || !warmup_ms ? "" : "  (warm-up not steady)");
  if (stats) {
    spvgen_vk_pipeline_stat s[32];
    uint32_t n = 0;
    if (spvgen_vk_pipeline_statistics(ctx, pipe, s, 32, &n) == SPVGEN_OK) {
      printf("#   ");
      for (uint32_t i = 0; i < n && i < 32; i++)
        if (strstr(s[i].name, "Register") || strstr(s[i].name, "Local") || strstr(s[i].name, "Shared"))
          printf("%s=%.0f  ", s[i].name, s[i].value);
      printf("\n");
    }
  }
  fflush(stdout);
  rc = 0;
out:
  free(ns);
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  return rc;
}

int main(int argc, char **argv) {
  const char *types = "f16,f16;f16,f32;s8,s32", *tiles = NULL;
  uint32_t wg = 256, iters = 2048, groups = 0, repeats = 10, warmup_ms = 300;
  SpvScope scope = SpvScopeWorkgroup;
  int load = LOAD_NONE;
  bool stats = false, offline = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--types") && v) types = v, i++;
    else if (!strcmp(a, "--tile") && v) tiles = v, i++;
    else if (!strcmp(a, "--wg") && v) wg = (uint32_t)strtoul(v, NULL, 10), i++;
    else if (!strcmp(a, "--iters") && v) iters = (uint32_t)strtoul(v, NULL, 10), i++;
    else if (!strcmp(a, "--groups") && v) groups = (uint32_t)strtoul(v, NULL, 10), i++;
    else if (!strcmp(a, "--repeats") && v) repeats = (uint32_t)strtoul(v, NULL, 10), i++;
    else if (!strcmp(a, "--warmup-ms") && v) warmup_ms = (uint32_t)strtoul(v, NULL, 10), i++;
    else if (!strcmp(a, "--scope") && v) scope = !strcmp(v, "sg") ? SpvScopeSubgroup : SpvScopeWorkgroup, i++;
    else if (!strcmp(a, "--load")) { /* --load [global|shared|tensor] */
      load = LOAD_GLOBAL;
      if (v && !strcmp(v, "shared")) load = LOAD_SHARED, i++;
      else if (v && !strcmp(v, "shared-u32")) load = LOAD_SHARED_U32, i++;
      else if (v && !strcmp(v, "shared-u32x4")) load = LOAD_SHARED_V4, i++;
      else if (v && !strcmp(v, "tensor")) load = LOAD_TENSOR, i++;
      else if (v && !strcmp(v, "global")) i++;
    }
    else if (!strcmp(a, "--stats")) stats = true;
    else if (!strcmp(a, "--offline")) offline = true;
    else {
      fprintf(stderr, "bench_coopmat_peak: unknown or incomplete option '%s' (see the header of bench/coopmat_peak.c)\n", a);
      return 2;
    }
  }
  if (!repeats || !iters || !wg) return fprintf(stderr, "bench_coopmat_peak: --repeats, --iters and --wg must be > 0\n"), 2;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (!offline) {
    if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "bench_coopmat_peak: %s\n", msg);
      return 1;
    }
    const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
    printf("# bench_coopmat_peak on %s (%s %s)\n", caps->name, caps->driver_name, caps->driver_info);
  }
  if (!groups) groups = 4 * 132;
  int failures = 0;
  char tbuf[256], tybuf[256];
  snprintf(tybuf, sizeof tybuf, "%s", types);
  for (char *ts = strtok(tybuf, ";"); ts; ts = strtok(NULL, ";")) {
    peak_row r;
    memset(&r, 0, sizeof r);
    if (!parse_types(ts, &r.ab, &r.acc)) {
      fprintf(stderr, "bench_coopmat_peak: --types '%s' (f16,f16 f16,f32 s8,s32 u8,u32 bf16,f32; ';' between)\n", ts);
      failures++;
      continue;
    }
    bool eight = r.ab == SPVGEN_COMPONENT_S8 || r.ab == SPVGEN_COMPONENT_U8;
    const char *def = scope == SpvScopeSubgroup ? (eight ? "16x16x32" : "16x16x16") : (eight ? "128x256x64" : "128x256x32");
    snprintf(tbuf, sizeof tbuf, "%s", tiles ? tiles : def);
    /* strtok is busy with the type list: walk the tile list by hand. */
    for (char *t = tbuf; t && *t;) {
      char *next = strchr(t, ':');
      if (next) *next++ = 0;
      if (sscanf(t, "%ux%ux%u", &r.bm, &r.bn, &r.bk) != 3) {
        fprintf(stderr, "bench_coopmat_peak: --tile '%s' (MxNxK)\n", t);
        failures++;
      } else {
        r.wg = wg;
        r.iters = iters;
        r.groups = groups;
        r.scope = scope;
        r.load = load;
        failures += run_row(ctx, &r, repeats, warmup_ms, stats);
      }
      t = next;
    }
  }
  spvgen_vk_destroy(ctx);
  return failures ? 1 : 0;
}
