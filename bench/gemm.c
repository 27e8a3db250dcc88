/* bench/gemm.c — GEMM throughput of spvgen's kernels on the first Vulkan device, next to
 * cuBLAS measured in the same run (the anchor script, through python3 with torch).
 *
 * For each shape and type triple: the default plan (what spvgen_gemm_plan picks), and
 * with --all-plans every candidate of spvgen_gemm_plans (the best is reported), each
 * GPU-timestamp timed: a sustained warm-up (--warmup-ms, default 300: the GPU must leave
 * its idle clocks), then --repeats dispatches in one submission, median.
 * Inputs are random; a sample of output elements (--sample, default 1024) is checked
 * against the float64 CPU reference, and a mismatch is printed as FAIL.
 *
 *   bench_gemm [--shapes M,N,K;M,N,K...] [--types f16,f32;f16,f16;s8,s32]
 *              [--variant auto|coopmat2|khr|simt] [--all-plans] [--repeats N]
 *              [--anchor PATH/gemm_anchor.py] [--md] [--cache TUNE-CACHE] [--runtime]
 *
 * With --runtime each shape runs through the run-time-shape kernel of its class
 * (spvgen_gemm_class_for; the shape as push constants).
 * With --cache (a tune cache file, docs/tune.md) each row also runs the plan
 * spvgen_gemm_plan_cached picks from it: default vs tuned vs cuBLAS (use without
 * --all-plans).
 * Output: one row per (shape, types): plan, TFLOP/s (TOP/s for integer inputs), and the
 * cuBLAS figure for the same shape and input type (f16 rows: cuBLAS f16; s8: int8).
 * Results are recorded in bench/results/gemm-*.md. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_run.h"
#include "spvgen/gemm.h"
#include "spvgen/tune.h"
#include "spvgen/vk.h"

#define MAX_SHAPES 32
#define MAX_TYPES 8

typedef struct anchor_row {
  uint32_t m, n, k;
  double f16, bf16, int8; /* TFLOP/s, TOP/s; 0: unknown */
} anchor_row;

static anchor_row anchors[MAX_SHAPES];
static int anchor_count;

/* Runs the anchor script for the shapes and parses its "cuBLAS MxNxK f16 X ... int8 Z"
 * lines. */
static void run_anchor(const char *script, uint32_t (*shapes)[3], int nshapes) {
  char cmd[4096];
  int len = snprintf(cmd, sizeof cmd, "python3 %s", script);
  for (int i = 0; i < nshapes && len < (int)sizeof cmd - 64; i++)
    len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %u,%u,%u", shapes[i][0], shapes[i][1], shapes[i][2]);
  len += snprintf(cmd + len, sizeof cmd - (size_t)len, " 2>&1");
  FILE *p = popen(cmd, "r");
  if (!p) return;
  char line[1024];
  while (fgets(line, sizeof line, p)) {
    fputs("# anchor: ", stdout);
    fputs(line, stdout);
    anchor_row r = {0};
    if (sscanf(line, "cuBLAS %ux%ux%u", &r.m, &r.n, &r.k) != 3 || anchor_count >= MAX_SHAPES) continue;
    char *s;
    if ((s = strstr(line, "float16 "))) r.f16 = atof(s + 8);
    if ((s = strstr(line, "bfloat16 "))) r.bf16 = atof(s + 9);
    if ((s = strstr(line, "int8 "))) r.int8 = atof(s + 5);
    anchors[anchor_count++] = r;
  }
  pclose(p);
}

static double anchor_for(uint32_t m, uint32_t n, uint32_t k, spvgen_component_type t) {
  for (int i = 0; i < anchor_count; i++)
    if (anchors[i].m == m && anchors[i].n == n && anchors[i].k == k)
      return t == SPVGEN_COMPONENT_S8 || t == SPVGEN_COMPONENT_U8 ? anchors[i].int8
             : t == SPVGEN_COMPONENT_BF16                         ? anchors[i].bf16
                                                                  : anchors[i].f16;
  return 0;
}

static int parse_list(const char *s, char items[][64], int max) {
  int n = 0;
  const char *p = s;
  while (*p && n < max) {
    const char *e = strchr(p, ';');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l >= 64) l = 63;
    memcpy(items[n], p, l);
    items[n][l] = 0;
    n++;
    if (!e) break;
    p = e + 1;
  }
  return n;
}

int main(int argc, char **argv) {
  const char *shape_arg = "8192,8192,8192;4096,4096,4096;2999,3001,2997;3000,3000,3000;1000,1000,1000;"
                          "512,512,512;8192,256,4096;256,8192,4096;16384,128,4096;128,16384,4096";
  const char *type_arg = "f16,f32;f16,f16;s8,s32";
  const char *anchor = NULL;
  const char *cache_path = NULL; /* --cache: also run the tuned plan (spvgen_gemm_plan_cached) */
  const char *layout_arg = "nn";
  spvgen_gemm_variant variant = SPVGEN_GEMM_AUTO;
  bool all_plans = false, md = false, glsl450 = false, stats = false, runtime = false;
  uint32_t repeats = 20, sample = 1024, warmup_ms = 300;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--shapes") && v) shape_arg = v, i++;
    else if (!strcmp(a, "--types") && v) type_arg = v, i++;
    else if (!strcmp(a, "--anchor") && v) anchor = v, i++;
    else if (!strcmp(a, "--cache") && v) cache_path = v, i++;
    else if (!strcmp(a, "--layouts") && v) layout_arg = v, i++;
    else if (!strcmp(a, "--repeats") && v) repeats = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--sample") && v) sample = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--warmup-ms") && v) warmup_ms = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--variant") && v) {
      if (!spvgen_gemm_variant_parse(v, &variant)) return fprintf(stderr, "bench_gemm: unknown variant %s\n", v), 2;
      i++;
    } else if (!strcmp(a, "--all-plans")) all_plans = true;
    else if (!strcmp(a, "--md")) md = true;
    else if (!strcmp(a, "--glsl450")) glsl450 = true;
    else if (!strcmp(a, "--stats")) stats = true;
    else if (!strcmp(a, "--runtime")) runtime = true;
    else {
      fprintf(stderr, "usage: bench_gemm [--shapes M,N,K;...] [--types AB,ACC;...] [--variant V] [--all-plans]\n"
                      "                  [--repeats N] [--sample N] [--anchor gemm_anchor.py] [--md] [--glsl450]\n"
                      "                  [--layouts nn;nt;tn;tt] [--stats] [--warmup-ms N] [--cache TUNE-CACHE]\n"
                      "                  [--runtime]\n");
      return 2;
    }
  }
  char items[MAX_SHAPES][64];
  uint32_t shapes[MAX_SHAPES][3];
  int nshapes = parse_list(shape_arg, items, MAX_SHAPES);
  for (int i = 0; i < nshapes; i++)
    if (sscanf(items[i], "%u,%u,%u", &shapes[i][0], &shapes[i][1], &shapes[i][2]) != 3)
      return fprintf(stderr, "bench_gemm: bad shape '%s'\n", items[i]), 2;
  char titems[MAX_TYPES][64];
  int ntypes = parse_list(type_arg, titems, MAX_TYPES);
  spvgen_component_type types[MAX_TYPES][3];
  for (int i = 0; i < ntypes; i++) {
    char a[16], b[16], c[16] = "";
    int got = sscanf(titems[i], "%15[^,],%15[^,],%15s", a, b, c);
    if (got < 2 || !spvgen_component_type_parse(a, &types[i][0]) || !spvgen_component_type_parse(b, &types[i][1]) ||
        (got == 3 && !spvgen_component_type_parse(c, &types[i][2])))
      return fprintf(stderr, "bench_gemm: bad types '%s'\n", titems[i]), 2;
    if (got == 2) types[i][2] = types[i][1];
  }

  char litems[4][64];  /* layouts: two letters each (checked) */
  int nlayouts = parse_list(layout_arg, litems, 4);
  for (int i = 0; i < nlayouts; i++)
    if (strlen(litems[i]) != 2 || !strchr("nt", litems[i][0]) || !strchr("nt", litems[i][1]))
      return fprintf(stderr, "bench_gemm: bad layout '%s' (nn, nt, tn, tt)\n", litems[i]), 2;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "bench_gemm: %s\n", msg);
    return 1;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  printf("# bench_gemm on %s (%s %s)\n", caps->name, caps->driver_name, caps->driver_info);
  if (anchor) run_anchor(anchor, shapes, nshapes);
  spvgen_tune_cache *cache = NULL;
  if (cache_path) {
    if (spvgen_tune_cache_open(cache_path, &cache, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "bench_gemm: %s\n", msg);
      spvgen_vk_destroy(ctx);
      return 1;
    }
    if (msg[0]) printf("# tune cache %s: %s\n", cache_path, msg);
  }
  if (md && cache)
    printf("| shape | types | default plan | default TFLOP/s | tuned plan | tuned TFLOP/s | cuBLAS | tuned/cuBLAS | check | pipeline ms |\n"
           "|---|---|---|---:|---|---:|---:|---:|---|---:|\n");
  else if (md)
    printf("| shape | types | plan | spvgen TFLOP/s | cuBLAS | ratio | check | emit us | pipeline ms |\n"
           "|---|---|---|---:|---:|---:|---|---:|---:|\n");
  else
    printf("%-18s %-13s %-58s %9s %9s %6s %s\n", "shape", "types", "plan", "spvgen", "cuBLAS", "ratio", "check");
  int failures = 0;
  for (int s = 0; s < nshapes; s++)
    for (int t = 0; t < ntypes; t++)
    for (int l = 0; l < nlayouts; l++) {
      spvgen_gemm_desc d;
      memset(&d, 0, sizeof d);
      d.m = shapes[s][0];
      d.n = shapes[s][1];
      d.k = shapes[s][2];
      d.a_type = d.b_type = types[t][0];
      d.acc_type = types[t][1];
      d.out_type = types[t][2];
      d.variant = variant;
      d.a_layout = litems[l][0] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
      d.b_layout = litems[l][1] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
      spvgen_gemm_args shape_args = {.m = d.m, .n = d.n, .k = d.k};
      if (runtime) { /* the class this shape falls in, the shape through push constants */
        spvgen_gemm_desc cls;
        if (spvgen_gemm_class_for(&d, &shape_args, &cls, msg, sizeof msg) != SPVGEN_OK) {
          printf("# %ux%ux%u: %s\n", d.m, d.n, d.k, msg);
          continue;
        }
        d = cls;
      }
      spvgen_gemm_config plans[64];
      uint32_t np = 1;
      if (all_plans) {
        if (spvgen_gemm_plans(&d, caps, plans, 64, &np, msg, sizeof msg) != SPVGEN_OK) np = 0;
        if (np > 64) np = 64;
      }
      char tname[48];
      snprintf(tname, sizeof tname, "%s,%s,%s %.2s", spvgen_component_type_name(types[t][0]),
               spvgen_component_type_name(types[t][1]), spvgen_component_type_name(types[t][2]), litems[l]);
      char sname[48];
      snprintf(sname, sizeof sname, "%ux%ux%u", d.m, d.n, d.k);
      gemm_run_result best;
      memset(&best, 0, sizeof best);
      bool any = false, bad = false;
      for (uint32_t i = 0; i < (all_plans ? np : 1); i++) {
        spvgen_gemm_desc e = all_plans ? plans[i].desc : d;
        gemm_run_options o = {0};
        o.warmup = 3;
        o.warmup_ms = warmup_ms;
        o.repeats = repeats;
        o.sample = sample;
        o.glsl450_memory_model = glsl450;
        o.statistics = stats;
        o.args = runtime ? &shape_args : NULL;
        gemm_run_result r;
        spvgen_status st = gemm_run(ctx, &e, &o, &r, msg, sizeof msg);
        if (st != SPVGEN_OK) {
          printf("# %s %s: %s\n", sname, tname, msg);
          continue;
        }
        if (all_plans)
          printf("#   %-58s %8.1f%s  (gpu %.3f ms, wall %.3f ms per run; pipeline %.0f ms)%s%s\n", r.plan.name,
                 r.tflops, r.bad ? " FAIL" : "", r.median_ns / 1e6, r.wall_ns / 1e6, r.pipeline_ms,
                 stats ? "\n#       " : "",
                 stats ? r.stats : "");
        if (r.bad)
          printf("# %s %s [%s]: %llu of %llu sampled elements off, worst |err|/tol %.3g; first (%llu,%llu) gpu %g cpu %g\n",
                 sname, tname, r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
                 r.worst_ratio, (unsigned long long)r.first_bad_row, (unsigned long long)r.first_bad_col,
                 r.first_bad_gpu, r.first_bad_ref);
        if (!r.warmup_steady && warmup_ms)
          printf("# %s %s [%s]: timings still moving after %.0f ms of warm-up\n", sname, tname, r.plan.name,
                 r.warmup_ms);
        if (r.bad) bad = true;
        if (!any || r.tflops > best.tflops) best = r;
        any = true;
      }
      if (!any) {
        failures++;
        continue;
      }
      double cub = anchor_for(d.m, d.n, d.k, d.a_type);
      char ratio[16] = "-";
      if (cub > 0) snprintf(ratio, sizeof ratio, "%.2f", best.tflops / cub);
      if (cache) { /* default vs tuned vs cuBLAS */
        spvgen_gemm_config tp;
        gemm_run_result tr = best;
        if (spvgen_gemm_plan_cached(&d, caps, cache, &tp, msg, sizeof msg) != SPVGEN_OK) {
          printf("# %s %s: tuned plan: %s\n", sname, tname, msg);
        } else {
          if (msg[0]) printf("# %s %s: %s\n", sname, tname, msg);
          if (strcmp(tp.name, best.plan.name)) {
            gemm_run_options o = {0};
            o.warmup = 3;
            o.warmup_ms = warmup_ms;
            o.repeats = repeats;
            o.sample = sample;
            o.statistics = stats;
            if (gemm_run(ctx, &tp.desc, &o, &tr, msg, sizeof msg) != SPVGEN_OK) {
              printf("# %s %s [%s]: %s\n", sname, tname, tp.name, msg);
              tr = best;
            } else if (tr.bad) {
              bad = true;
            }
          }
        }
        if (cub > 0) snprintf(ratio, sizeof ratio, "%.2f", tr.tflops / cub);
        const char *chk = best.bad || tr.bad ? "FAIL" : "ok";
        if (best.bad || tr.bad) failures++;
        if (md)
          printf("| %s | %s | %s | %.1f | %s | %.1f | %.1f | %s | %s | %.0f |\n", sname, tname, best.plan.name,
                 best.tflops, tr.plan.name, tr.tflops, cub, ratio, chk, best.pipeline_ms);
        else
          printf("%-18s %-13s %-40s %9.1f  tuned %-40s %9.1f %9.1f %6s %s\n", sname, tname, best.plan.name,
                 best.tflops, tr.plan.name, tr.tflops, cub, ratio, chk);
        fflush(stdout);
        continue;
      }
      const char *check = best.bad ? "FAIL" : bad ? "ok (a plan FAILED)" : "ok";
      if (best.bad || bad) failures++;
      if (md)
        printf("| %s | %s | %s | %.1f | %.1f | %s | %s | %.1f | %.0f |\n", sname, tname, best.plan.name, best.tflops,
               cub, ratio, check, best.emit_us, best.pipeline_ms);
      else
        printf("%-18s %-13s %-58s %9.1f %9.1f %6s %s\n", sname, tname, best.plan.name, best.tflops, cub, ratio,
               check);
      fflush(stdout);
    }
  spvgen_tune_cache_close(cache);
  spvgen_vk_destroy(ctx);
  return failures ? 1 : 0;
}
