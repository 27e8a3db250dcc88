/* bench/gemm_shapes.c — what a framework pays for a GEMM: the driver's first compile of
 * the kernel and the GPU time, per shape and per plan or knob variant, over the shapes of
 * issue 24 (big and off-tile squares, prompt lengths against an LLM's weights, a skinny
 * int8 one), next to cuBLAS when the anchor script is given; and a compile-time matrix
 * (variant x tile x unroll x edge mode) for docs/gemm.md's trade-off table.
 *
 *   bench_gemm_shapes [--set targets,prompt,compile,tiny,call,splitk,splitk2,skptr,recheck,fixloop,split,random,smallgrid,pack] [--anchor PATH/gemm_anchor.py]
 *                     [--deadline-s S] [--quick] [--list] [--plans CAPS] [--rows FILE]
 *
 * Compile times are cold only with an empty driver cache: scripts/gpu-gemm.sh points
 * __GL_SHADER_DISK_CACHE_PATH at a fresh directory. A run-time-shape pipeline is compiled
 * once and serves every shape of its group ("cached" in the compile column after the
 * first). A split-K plan is two pipelines (the partials, then the reduction): its compile
 * column reads "partials+reduction" and its GPU time spans both dispatches and the
 * barrier between them. GPU time: a sustained warm-up, then submissions of about 20 ms of dispatches
 * until two medians agree within 3 %; a sample of 256 output elements is checked against
 * the float64 reference (a mismatch prints FAIL). Rows that would start after the
 * deadline (default 420 s) print "skipped (deadline)". A calibration kernel timed after
 * every row flags the rows measured while the whole GPU was slow ("slow-gpu xR": the
 * slow mode of issue 24 item 7) and measures them once more. --plans CAPS prints the plan each
 * row would run on a caps preset (e.g. h100), with its compile estimate, and exits: no
 * device needed.
 *
 * Plan specs: default (the planner's choice for the fixed shape), rt (run-time shapes,
 * the class the shape falls in, planned for the shape), rt-m1 (run-time, M any: one
 * pipeline for every M of the group, planned for no M in particular), rt-call (run-time,
 * M any, each shape planned for its own M as a framework plans per call: pipelines shared
 * where the kernels are the same, through the driver's cache), khr / rt-khr,
 * cm2:uU[:EDGE[/EU]][:tMxNxK][:skS] (coopmat2 with those knobs; EDGE branch, clamp or
 * shift; EU the edge path's unroll; S split-K slices), rt-cm2:... and rt-m1-cm2:...
 * likewise run-time; any of them with :cgLETTERS for desc.codegen (o: the open K loop, d:
 * constant layout dimensions, c: khr checks every load, m: coopmat2's masked K edge), e.g.
 * rt-cm2:u1:cgo, khr:cgc, cm2:u1:shift:cgm; and :pkMODE for desc.pack (pknone, pka, pkb,
 * pkab: packed operands), e.g. cm2:u1:pkab; simt for that variant; :wN the workgroup's
 * invocations.
 *
 * --rows FILE runs (or with --plans, plans) the rows of FILE instead of the sets, one a
 * line: "SET MxNxK TYPES LAYOUT SPEC" (as --list prints them; '#' starts a comment), e.g.
 * the rows whose plans a change moved. --plans takes a caps preset or a caps JSON file
 * (`spvgen devices --json`). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "caps_json.h"
#include "gemm_run.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"

#define MAX_SHAPES 16
#define MAX_ANCHORS 128

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ anchors ---- */

typedef struct anchor_row {
  uint32_t m, n, k;
  double f16, int8;
} anchor_row;
static anchor_row anchors[MAX_ANCHORS];
static int anchor_count;
static int bad_specs; /* rows whose spec does not parse: the exit status says so */

static void run_anchor(const char *script, uint32_t (*shapes)[3], int n) {
  size_t cap = 64 + (size_t)n * 40;
  char *cmd = malloc(cap);
  if (!cmd) return;
  size_t len = (size_t)snprintf(cmd, cap, "python3 %s", script);
  for (int i = 0; i < n; i++) len += (size_t)snprintf(cmd + len, cap - len, " %u,%u,%u", shapes[i][0], shapes[i][1], shapes[i][2]);
  snprintf(cmd + len, cap - len, " 2>&1");
  FILE *p = popen(cmd, "r");
  free(cmd);
  if (!p) return;
  char line[1024];
  while (fgets(line, sizeof line, p)) {
    printf("# anchor: %s", line);
    anchor_row r = {0};
    if (sscanf(line, "cuBLAS %ux%ux%u", &r.m, &r.n, &r.k) != 3 || anchor_count >= MAX_ANCHORS) continue;
    char *s;
    if ((s = strstr(line, "float16 "))) r.f16 = atof(s + 8);
    if ((s = strstr(line, "int8 ")) && !strstr(s, "n/a")) r.int8 = atof(s + 5);
    anchors[anchor_count++] = r;
  }
  pclose(p);
}

static double anchor_for(uint32_t m, uint32_t n, uint32_t k, bool int8) {
  for (int i = 0; i < anchor_count; i++)
    if (anchors[i].m == m && anchors[i].n == n && anchors[i].k == k) return int8 ? anchors[i].int8 : anchors[i].f16;
  return 0;
}

/* ------------------------------------------------------------------- groups ---- */

/* One group: a plan spec over shapes of one type set and layout. */
typedef struct group {
  const char *set;    /* targets, prompt, compile */
  const char *types;  /* "f16,f32", "f16,f16", "s8,s32" */
  const char *layout; /* "nn", "nt" */
  const char *spec;
  uint32_t count;
  uint32_t shapes[MAX_SHAPES][3];
  bool compile_only; /* the compile matrix: pipeline only, no GPU run */
} group;

static bool parse_types(const char *t, spvgen_gemm_desc *d) {
  d->a_type = d->b_type = !strncmp(t, "s8", 2) ? SPVGEN_COMPONENT_S8 : SPVGEN_COMPONENT_F16;
  d->acc_type = strstr(t, "s32") ? SPVGEN_COMPONENT_S32 : strstr(t, ",f16") ? SPVGEN_COMPONENT_F16 : SPVGEN_COMPONENT_F32;
  d->out_type = d->acc_type;
  return true;
}

/* Whether a spec plans each shape on its own with M free (rt-call). */
static bool spec_per_call(const char *spec) { return !strncmp(spec, "rt-call", 7); }

/* Applies a spec's knobs to d; sets *runtime and *class_m1. False on a malformed spec. */
static bool apply_spec(const char *spec, spvgen_gemm_desc *d, bool *runtime, bool *m_any) {
  *runtime = !strncmp(spec, "rt", 2);
  *m_any = !strncmp(spec, "rt-m1", 5) || spec_per_call(spec);
  const char *s = spec;
  if (*runtime) s = spec[2] == '-' ? spec + 3 : spec + 2;
  if (!strncmp(spec, "rt-m1", 5)) s = spec + 5;
  if (spec_per_call(spec)) s = spec + 7;
  if (*s == ':' || *s == '-') s++;
  if (!*s || !strcmp(s, "default")) return true;
  if (!strncmp(s, "khr", 3)) {
    d->variant = SPVGEN_GEMM_COOPMAT_KHR;
    s += 3;
  } else if (!strncmp(s, "cm2", 3)) {
    d->variant = SPVGEN_GEMM_COOPMAT2;
    s += 3;
  } else if (!strncmp(s, "simt", 4)) {
    d->variant = SPVGEN_GEMM_SIMT;
    s += 4;
  } else if (!strncmp(s, "auto", 4)) {
    s += 4;
  } else {
    return false;
  }
  while (*s == ':') {
    s++;
    unsigned a, b, c;
    char cg[16] = "";
    if (sscanf(s, "cg%15[a-z]", cg) == 1) { /* SPVGEN_GEMM_CODEGEN_*: o(pen K loop), d(ims), c(heck all) */
      for (const char *l = cg; *l; l++) {
        if (*l == 'o') d->codegen |= SPVGEN_GEMM_CODEGEN_OPEN_K_LOOP;
        else if (*l == 'd') d->codegen |= SPVGEN_GEMM_CODEGEN_CONST_DIMS;
        else if (*l == 'c') d->codegen |= SPVGEN_GEMM_CODEGEN_CHECK_ALL;
        else if (*l == 'm') d->codegen |= SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE;
        else if (*l == 'u') d->codegen |= SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL;
        else if (*l == 's') d->codegen |= SPVGEN_GEMM_CODEGEN_SPLIT_ALL;
        else if (*l == 'n') d->codegen |= SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL;
        else return false;
      }
    } else if (sscanf(s, "b%u", &a) == 1) { /* compile budget, ms */
      d->compile_budget_ms = a;
    } else if (!strncmp(s, "pk", 2)) { /* packed operands: pknone, pka, pkb, pkab */
      char pk[8] = "";
      if (sscanf(s + 2, "%7[a-z]", pk) != 1 || !spvgen_gemm_pack_parse(pk, &d->pack)) return false;
    } else if (sscanf(s, "sk%u", &a) == 1) {
      d->split_k = a;
    } else if (sscanf(s, "w%u", &a) == 1) { /* invocations per workgroup */
      d->workgroup_size = a;
    } else if (sscanf(s, "u%u", &a) == 1) {
      d->unroll = a;
    } else if (sscanf(s, "t%ux%ux%u", &a, &b, &c) == 3) {
      d->tile_m = a, d->tile_n = b, d->tile_k = c;
    } else {
      char e[16] = "";
      unsigned eu = 0;
      if (sscanf(s, "%15[a-z]/%u", e, &eu) < 1 || !spvgen_gemm_edge_parse(e, &d->edge)) return false;
      d->edge_unroll = eu;
    }
    s = strchr(s, ':');
    if (!s) break;
  }
  return true;
}

/* The desc of a group's shape i. */
static bool desc_for(const group *g, uint32_t i, spvgen_gemm_desc *d, bool *runtime, bool *m_any) {
  memset(d, 0, sizeof *d);
  parse_types(g->types, d);
  d->a_layout = g->layout[0] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
  d->b_layout = g->layout[1] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
  if (!apply_spec(g->spec, d, runtime, m_any)) return false;
  spvgen_gemm_args a = {.m = g->shapes[i][0], .n = g->shapes[i][1], .k = g->shapes[i][2]};
  if (!*runtime) {
    d->m = a.m, d->n = a.n, d->k = a.k;
    d->shapes = SPVGEN_GEMM_SHAPES_FIXED;
    return true;
  }
  spvgen_gemm_desc c;
  if (spvgen_gemm_class_for(d, &a, &c, NULL, 0) != SPVGEN_OK) return false;
  if (*m_any) c.m_multiple = 1;
  *d = c;
  return true;
}

static void print_header(void) {
  printf("%-8s %-16s %-8s %-3s %-22s %-54s %10s %10s %9s %8s %6s %s\n", "set", "shape", "types", "lay", "spec", "plan",
         "compile", "gpu_ms", "TFLOP/s", "cuBLAS", "ratio", "check");
}

static void print_row(const group *g, uint32_t i, const char *plan, const char *compile, double gpu_ms, double tflops,
                      const char *check) {
  char shape[32];
  snprintf(shape, sizeof shape, "%ux%ux%u", g->shapes[i][0], g->shapes[i][1], g->shapes[i][2]);
  bool int8 = !strncmp(g->types, "s8", 2);
  double ref = anchor_for(g->shapes[i][0], g->shapes[i][1], g->shapes[i][2], int8);
  char refs[16] = "-", ratio[16] = "-";
  if (ref > 0) snprintf(refs, sizeof refs, "%.1f", ref);
  if (ref > 0 && tflops > 0) snprintf(ratio, sizeof ratio, "%.2f", tflops / ref);
  if (!strcmp(plan, "bad spec")) bad_specs++;
  char gms[16] = "-", tfs[16] = "-";
  if (gpu_ms > 0) snprintf(gms, sizeof gms, "%.4f", gpu_ms);
  if (tflops > 0) snprintf(tfs, sizeof tfs, "%.1f", tflops);
  printf("%-8s %-16s %-8s %-3s %-22s %-54s %10s %10s %9s %8s %6s %s\n", g->set, shape, g->types, g->layout, g->spec,
         plan, compile, gms, tfs, refs, ratio, check);
  fflush(stdout);
}

static gemm_run_options run_options(bool compile_only, bool quick) {
  gemm_run_options o;
  memset(&o, 0, sizeof o);
  o.sample = 256;
  o.warmup = 2;
  o.repeats = 5;
  o.warmup_ms = compile_only ? 0 : quick ? 60 : 150;
  o.round_ms = 20;
  o.stable_pct = 3.0;
  if (compile_only) o.no_check = true, o.repeats = 1, o.warmup = 0;
  return o;
}

/* Compile only: plan, emit, create the pipeline, time it. */
static void compile_one(spvgen_vk_context *ctx, const group *g, uint32_t i) {
  spvgen_gemm_desc d;
  bool rt, m1;
  if (!desc_for(g, i, &d, &rt, &m1)) return print_row(g, i, "bad spec", "-", 0, 0, "-");
  spvgen_gemm_config p;
  char msg[512];
  if (spvgen_gemm_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg) != SPVGEN_OK) return print_row(g, i, msg, "-", 0, 0, "refused");
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t nk = 0;
  if (spvgen_gemm_kernels(&d, spvgen_vk_caps(ctx), k, &nk, NULL, msg, sizeof msg) != SPVGEN_OK)
    return print_row(g, i, msg, "-", 0, 0, "emit failed");
  spvgen_status st = SPVGEN_OK;
  char comp[32] = "", name[128];
  for (uint32_t j = 0; j < nk && st == SPVGEN_OK; j++) { /* split-K: the partials, then the reduction */
    spvgen_vk_pipeline *pipe = NULL;
    double t0 = now_s();
    st = spvgen_vk_pipeline_create(ctx, k[j].words, k[j].word_count, &k[j].info, NULL, &pipe);
    double ms = (now_s() - t0) * 1e3;
    size_t len = strlen(comp);
    snprintf(comp + len, sizeof comp - len, "%s%.0f", j ? "+" : "", ms);
    spvgen_vk_pipeline_destroy(pipe);
  }
  snprintf(name, sizeof name, "%s (est %u)", p.name, p.compile_ms);
  print_row(g, i, name, comp, 0, 0, st == SPVGEN_OK ? "compiled" : spvgen_vk_error(ctx));
  for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]);
}

/* The slow mode (issue 24 item 7): now and then a row runs at a third of its speed for
 * its whole measurement. A calibration kernel (2048^3 f16->f32, the fixed KHR plan: quick
 * to compile, steady) is timed once at the start and again after every measured row; a
 * row whose calibration after it ran over SLOW_RATIO x the first is measured again (once),
 * and the row says so ("slow-gpu xR"): the GPU as a whole was slow, not that plan. A row
 * slow with a steady calibration is the plan's own. */
#define SLOW_RATIO 1.4
static double cal_base_ns;   /* the first calibration (0: none) */
static uint32_t cal_slow_rows, cal_remeasured_fast;
static char row_note[48]; /* " slow-gpu x2.1" for the row being printed */

static double calibrate(spvgen_vk_context *ctx) {
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = d.n = d.k = 2048;
  d.a_type = d.b_type = SPVGEN_COMPONENT_F16;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.variant = SPVGEN_GEMM_COOPMAT_KHR;
  gemm_run_options o;
  memset(&o, 0, sizeof o);
  o.no_check = true;
  o.warmup = 2;
  o.repeats = 20;
  o.stable_pct = 3.0;
  gemm_run_result r;
  char msg[256];
  if (gemm_run(ctx, &d, &o, &r, msg, sizeof msg) != SPVGEN_OK) {
    d.variant = SPVGEN_GEMM_AUTO; /* a device without KHR cooperative matrices */
    if (gemm_run(ctx, &d, &o, &r, msg, sizeof msg) != SPVGEN_OK) return 0;
  }
  return r.median_ns;
}

/* After a row: the calibration's ratio to the first one (0: no calibration). */
static double cal_ratio(spvgen_vk_context *ctx) {
  if (cal_base_ns <= 0) return 0;
  double t = calibrate(ctx);
  return t > 0 ? t / cal_base_ns : 0;
}

static void result_row(const group *g, uint32_t i, const gemm_run_result *r, bool first) {
  char comp[32], check[64], name[128];
  if (first && r->kernels > 1) /* split-K: the partials' compile + the reduction's */
    snprintf(comp, sizeof comp, r->kernels > 2 ? "%.0f+%.0f+%.0f" : "%.0f+%.0f", r->kernel_pipeline_ms[0],
             r->kernel_pipeline_ms[1], r->kernel_pipeline_ms[2]);
  else if (first) snprintf(comp, sizeof comp, "%.0f", r->pipeline_ms);
  else snprintf(comp, sizeof comp, "cached");
  snprintf(check, sizeof check, "%s%s%s", r->bad ? "FAIL" : "ok", r->stable ? "" : " (unsteady)", row_note);
  snprintf(name, sizeof name, "%s (est %u)", r->plan.name, r->plan.compile_ms);
  print_row(g, i, name, comp, r->median_ns / 1e6, r->tflops, check);
}

static void run_group(spvgen_vk_context *ctx, const group *g, double deadline, bool quick) {
  gemm_run_options o = run_options(g->compile_only, quick);
  char msg[1024];
  bool rt = !strncmp(g->spec, "rt", 2), m1 = !strncmp(g->spec, "rt-m1", 5);
  if (rt && m1) { /* one pipeline for the group, planned for no M in particular */
    if (now_s() > deadline) {
      for (uint32_t i = 0; i < g->count; i++) print_row(g, i, "-", "-", 0, 0, "skipped (deadline)");
      return;
    }
    spvgen_gemm_desc d;
    bool r1, r2;
    if (!desc_for(g, 0, &d, &r1, &r2)) return print_row(g, 0, "bad spec", "-", 0, 0, "-");
    d.m = 0; /* M: any (planned for the default hint) */
    spvgen_gemm_args a[MAX_SHAPES];
    for (uint32_t i = 0; i < g->count; i++) a[i] = (spvgen_gemm_args){.m = g->shapes[i][0], .n = g->shapes[i][1], .k = g->shapes[i][2]};
    gemm_run_result r[MAX_SHAPES];
    spvgen_status st = gemm_run_shapes(ctx, &d, a, g->count, &o, r, msg, sizeof msg);
    double ratio = cal_ratio(ctx); /* one calibration after the group (not re-measured) */
    row_note[0] = 0;
    if (ratio > SLOW_RATIO) {
      cal_slow_rows += g->count;
      snprintf(row_note, sizeof row_note, " slow-gpu x%.1f (group)", ratio);
    }
    for (uint32_t i = 0; i < g->count; i++) {
      if (st != SPVGEN_OK && r[i].median_ns <= 0) print_row(g, i, msg, "-", 0, 0, "failed");
      else result_row(g, i, &r[i], i == 0);
    }
    return;
  }
  for (uint32_t i = 0; i < g->count; i++) {
    if (now_s() > deadline) {
      spvgen_gemm_desc d;
      bool r1, r2;
      print_row(g, i, desc_for(g, i, &d, &r1, &r2) ? "-" : "bad spec", "-", 0, 0, "skipped (deadline)");
      continue;
    }
    if (g->compile_only) {
      compile_one(ctx, g, i);
      continue;
    }
    spvgen_gemm_desc d;
    bool r1, r2;
    if (!desc_for(g, i, &d, &r1, &r2)) {
      print_row(g, i, "bad spec", "-", 0, 0, "-");
      continue;
    }
    gemm_run_result r;
    row_note[0] = 0;
    if (gemm_run(ctx, &d, &o, &r, msg, sizeof msg) != SPVGEN_OK) {
      print_row(g, i, msg, "-", 0, 0, "failed");
      continue;
    }
    double ratio = cal_ratio(ctx);
    if (ratio > SLOW_RATIO) {
      /* the GPU was slow: once more (the compile is cached now), and say so */
      cal_slow_rows++;
      gemm_run_result again;
      double first_ms = r.pipeline_ms;
      if (gemm_run(ctx, &d, &o, &again, msg, sizeof msg) == SPVGEN_OK) {
        double ratio2 = cal_ratio(ctx);
        if (again.median_ns < r.median_ns) r = again, r.pipeline_ms = first_ms;
        if (ratio2 <= SLOW_RATIO) cal_remeasured_fast++;
        snprintf(row_note, sizeof row_note, " slow-gpu x%.1f, again x%.1f", ratio, ratio2);
      } else {
        snprintf(row_note, sizeof row_note, " slow-gpu x%.1f", ratio);
      }
    }
    result_row(g, i, &r, true);
  }
}

/* ----------------------------------------------------------------- the sets ---- */

static group groups[2048]; /* the sets' groups, or --rows' lines */
static uint32_t ngroups;

static void add(const char *set, const char *types, const char *layout, const char *spec, bool compile_only, uint32_t n,
                const uint32_t (*shapes)[3]) {
  if (ngroups >= sizeof groups / sizeof groups[0]) return;
  group *g = &groups[ngroups++];
  memset(g, 0, sizeof *g);
  g->set = set, g->types = types, g->layout = layout, g->spec = spec, g->compile_only = compile_only;
  g->count = n > MAX_SHAPES ? MAX_SHAPES : n;
  memcpy(g->shapes, shapes, g->count * sizeof g->shapes[0]);
}

#define ONE(m, n, k) ((const uint32_t[][3]){{m, n, k}})

/* Split-K and the prompt-length plans (set "splitk"): split-K against the unsplit tile
 * where 84 tiles leave SMs idle, and each
 * prompt shape's default beside the plan the model chose before (128x256x32). */
static void build_splitk_set(void) {
  static const char *const longk[] = {"default",
                                      "cm2:u1:shift:t128x128x64",
                                      "cm2:u1:shift:t128x128x64:sk3",
                                      "cm2:u1:shift:t128x128x64:sk4",
                                      "cm2:u1:shift:t128x128x64:sk6",
                                      "cm2:u1:shift:sk3"};
  for (size_t s = 0; s < sizeof longk / sizeof longk[0]; s++)
    add("splitk", "f16,f32", "nt", longk[s], false, 1, ONE(257, 3584, 18944));
  static const char *const shortk[] = {"default", "cm2:u1:shift:t128x128x64:sk3"};
  for (size_t s = 0; s < sizeof shortk / sizeof shortk[0]; s++)
    add("splitk", "f16,f32", "nt", shortk[s], false, 1, ONE(257, 3584, 3584));
  static const uint32_t before[][3] = {{1000, 3584, 3584}, {2048, 3584, 3584}, {4096, 3584, 3584}, {257, 18944, 3584},
                                       {1999, 3584, 3584}};
  add("splitk", "f16,f32", "nt", "default", false, 5, before);
  add("splitk", "f16,f32", "nt", "cm2:u1:t128x256x32", false, 5, before);
  static const uint32_t nn[][3] = {{2048, 3584, 3584}, {4096, 3584, 3584}};
  add("splitk", "f16,f32", "nn", "default", false, 2, nn);
  add("splitk", "f16,f32", "nn", "cm2:u1:t128x256x32", false, 2, nn);
  add("splitk", "f16,f32", "nt", "rt-call", false, 5, before);
  /* the long runs whose budget is 1 s: 8192^3 nt and 4096x18944x3584 nt, default against
   * the earlier one (128x256x32 unroll 2); nn 8192^3 keeps its default */
  static const uint32_t big[][3] = {{8192, 8192, 8192}, {4096, 18944, 3584}};
  add("splitk", "f16,f32", "nt", "default", false, 2, big);
  add("splitk", "f16,f32", "nt", "cm2:u2:t128x256x32", false, 2, big);
  add("splitk", "f16,f32", "nn", "default", false, 1, ONE(8192, 8192, 8192));
}

/* Two-dispatch split-K (set "splitk2"): the prompt-length shapes of the split-K record
 * (bench/results/gemm-splitk-prompt-h100-2026-11-26-s4.md) and the short prompts, each
 * with the planner's default, then coopmat2 unroll 1 at the three tiles the split-K
 * plans use, unsplit and split 2, 3 and 4 ways (the edge mode the plan picks: shift
 * where the shape allows it). */
static void build_splitk2_set(void) {
  static const uint32_t shapes[][3] = {{16, 3584, 3584},  {64, 3584, 3584},   {257, 3584, 3584},
                                       {257, 3584, 18944}, {1, 3584, 3584},   {16, 18944, 3584}};
  static const char *const tiles[] = {"t32x64x64", "t64x64x64", "t128x128x64"};
  static char specs[3][4][40];
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    add("splitk2", "f16,f32", "nt", "default", false, 1, (const uint32_t(*)[3])shapes[s]);
    for (size_t t = 0; t < 3; t++)
      for (uint32_t sk = 1; sk <= 4; sk++) {
        snprintf(specs[t][sk - 1], sizeof specs[t][sk - 1], "cm2:u1:%s:sk%u", tiles[t], sk);
        add("splitk2", "f16,f32", "nt", specs[t][sk - 1], false, 1, (const uint32_t(*)[3])shapes[s]);
      }
  }
}

/* Split-K from the slice's first K (set "skptr"): the prompt-length defaults (the plan's
 * choice at the default 300 ms budget and at 1 s, where the wave model's split-K fits),
 * and coopmat2 128x128x64 unsplit against split 2 and 4 ways on the grids under one wave. */
static void build_skptr_set(void) {
  static const uint32_t shapes[][3] = {{257, 3584, 3584},  {256, 3584, 3584},  {257, 3584, 18944}, {256, 3584, 18944},
                                       {257, 18944, 3584}, {1000, 3584, 3584}, {2048, 3584, 3584}, {4096, 3584, 3584},
                                       {1, 3584, 3584},    {16, 3584, 3584},   {64, 3584, 3584}};
  static const char *const specs[] = {"default", "auto:b1000"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t i = 0; i < 2; i++) add("skptr", "f16,f32", "nt", specs[i], false, 1, (const uint32_t(*)[3])shapes[s]);
  static const char *const split[] = {"cm2:u2:t128x128x64:sk1", "cm2:u2:t128x128x64:sk2", "cm2:u2:t128x128x64:sk4"};
  for (size_t s = 0; s < 4; s++)
    for (size_t i = 0; i < 3; i++) add("skptr", "f16,f32", "nt", split[i], false, 1, (const uint32_t(*)[3])shapes[s]);
  add("skptr", "s8,s32", "nt", "default", false, 1, ONE(257, 3584, 3584));
  add("skptr", "s8,s32", "nt", "auto:b1000", false, 1, ONE(257, 3584, 3584));
}

/* The set of one final GPU call (scripts/gpu-gemm.sh --call): every issue-24 target with
 * the alternatives the code keeps as knobs side by side, most important first (rows past
 * the deadline are skipped). */
static void build_call_set(void) {
  /* 8192^3: the default (within 1 s of compile), fixed against run-time at each unroll,
   * the K loop alternatives (cgo: the open loop of before; cgd: constant dimensions) */
  static const char *const big[] = {"default", "cm2:u1", "cm2:u4", "rt", "rt-cm2:u2", "rt-cm2:u1:cgo",
                                    "rt-cm2:u1:cgd", "rt-cm2:u4", "khr", "rt-khr"};
  for (size_t s = 0; s < sizeof big / sizeof big[0]; s++) add("call", "f16,f32", "nn", big[s], false, 1, ONE(8192, 8192, 8192));
  /* nt against nn: the default, and K steps of 128 bytes (every B row's cache lines whole) */
  static const char *const bignt[] = {"default", "cm2:u2:t128x256x64", "cm2:u2:t256x128x32", "rt"};
  for (size_t s = 0; s < sizeof bignt / sizeof bignt[0]; s++)
    add("call", "f16,f32", "nt", bignt[s], false, 1, ONE(8192, 8192, 8192));
  /* off-tile: khr fixed and run-time with the new fetch and the old (cgc) */
  static const char *const odd[] = {"default", "rt", "khr:cgc", "rt-khr:cgc", "cm2:u1:branch"};
  for (size_t s = 0; s < sizeof odd / sizeof odd[0]; s++) add("call", "f16,f32", "nn", odd[s], false, 1, ONE(4097, 4095, 4093));
  add("call", "f16,f16", "nn", "default", false, 1, ONE(4097, 4095, 4093));
  add("call", "f16,f16", "nn", "rt", false, 1, ONE(4097, 4095, 4093));
  add("call", "s8,s32", "nn", "default", false, 1, ONE(4097, 4095, 4093));
  /* prompt lengths against Qwen2-7B weights (N x K), fixed and planned per call */
  static const uint32_t weights[][2] = {{3584, 3584}, {18944, 3584}};
  static const uint32_t ms[] = {1, 16, 64, 257, 1000, 4096};
  static const char *const pspecs[] = {"default", "rt-call", "rt-m1"};
  for (size_t w = 0; w < 2; w++)
    for (size_t s = 0; s < sizeof pspecs / sizeof pspecs[0]; s++) {
      uint32_t sh[6][3];
      for (size_t i = 0; i < 6; i++) sh[i][0] = ms[i], sh[i][1] = weights[w][0], sh[i][2] = weights[w][1];
      add("call", "f16,f32", "nt", pspecs[s], false, 6, (const uint32_t(*)[3])sh);
    }
  /* M between the small-M tiles and the run-time menu: the plan's choice (khr where
   * coopmat2's estimate is over the budget) against coopmat2's 128x64 small-M tile with
   * split-K */
  static const uint32_t mid[][3] = {{77, 3584, 3584}, {100, 18944, 3584}};
  add("call", "f16,f32", "nt", "rt-call", false, 2, mid);
  add("call", "f16,f32", "nt", "rt-call-cm2", false, 2, mid);
  /* nt against nn at 2048x3584x3584 */
  static const char *const ntnn[] = {"default", "cm2:u2", "rt"};
  for (size_t s = 0; s < sizeof ntnn / sizeof ntnn[0]; s++) {
    add("call", "f16,f32", "nn", ntnn[s], false, 1, ONE(2048, 3584, 3584));
    add("call", "f16,f32", "nt", ntnn[s], false, 1, ONE(2048, 3584, 3584));
  }
  add("call", "f16,f32", "nt", "cm2:u2:t128x256x64", false, 1, ONE(2048, 3584, 3584));
  /* s8 skinny */
  static const char *const skinny[] = {"default", "rt", "khr", "cm2:u2"};
  for (size_t s = 0; s < sizeof skinny / sizeof skinny[0]; s++)
    add("call", "s8,s32", "nt", skinny[s], false, 1, ONE(128, 16384, 4096));
  /* 3000^3 */
  static const char *const sq[] = {"default", "rt", "khr:cgc", "cm2:u2:shift", "cm2:u1:shift:cgm", "cm2:u2:shift:cgm",
                                   "cm2:u1:branch:cgm"};
  for (size_t s = 0; s < sizeof sq / sizeof sq[0]; s++) {
    add("call", "f16,f32", "nn", sq[s], false, 1, ONE(3000, 3000, 3000));
    add("call", "f16,f16", "nn", sq[s], false, 1, ONE(3000, 3000, 3000));
  }
  /* compile matrix (first compiles only): the cost model's terms one at a time */
  static const struct { const char *spec; uint32_t m, n, k; } cm[] = {
      {"cm2:u1:t128x256x32", 4096, 4096, 4096},           {"cm2:u2:t128x256x32", 4096, 4096, 4096},
      {"cm2:u4:t128x256x32", 4096, 4096, 4096},           {"cm2:u1:t128x128x64", 4096, 4096, 4096},
      {"cm2:u2:t128x128x64", 4096, 4096, 4096},           {"cm2:u1:clamp:t128x256x32", 4095, 4096, 4096},
      {"cm2:u1:shift:t128x256x32", 4095, 4096, 4096},     {"cm2:u1:branch:t128x256x32", 4095, 4096, 4096},
      {"cm2:u1:clamp:t128x256x32", 4096, 4096, 4080},     {"cm2:u1:shift:t128x256x32", 4096, 4096, 4080},
      {"cm2:u1:t128x256x32:cgm", 4096, 4096, 4080},       {"cm2:u1:shift:t128x256x32:cgm", 4095, 4096, 4080},
      {"rt-cm2:u1:t128x256x32", 4096, 4096, 4096},        {"rt-cm2:u2:t128x256x32", 4096, 4096, 4096},
      {"rt-call-cm2:u1:clamp:t32x64x64", 17, 3584, 3584}, {"rt-call-cm2:u2:clamp:t32x64x64", 17, 3584, 3584},
      {"rt-call-cm2:u1:clamp:t128x64x64", 77, 3584, 3584}, {"khr", 4096, 4096, 4096},
      {"khr", 4097, 4095, 4093},                          {"rt-khr", 4096, 4096, 4096}};
  for (size_t i = 0; i < sizeof cm / sizeof cm[0]; i++)
    add("call", "f16,f32", "nn", cm[i].spec, true, 1, ONE(cm[i].m, cm[i].n, cm[i].k));
}

/* Run-time plans of small grids (set "smallgrid"): the per-call plan (64-row tiles shifted
 * inside M with split-K for 65..127 rows and for grids under half the SMs) beside the
 * plans such calls got before: the run-time menu's 128x128x64 unsplit, and khr. */
static void build_smallgrid_set(void) {
  static const uint32_t shapes[][3] = {{77, 3584, 3584},  {77, 3584, 18944}, {77, 18944, 3584}, {77, 512, 3584},
                                       {200, 512, 3584},  {200, 3584, 3584}, {200, 3584, 18944}, {999, 512, 3584},
                                       {1537, 512, 3584}, {100, 4608, 3584}};
  static const char *const specs[] = {"rt-call", "rt-call-cm2:t128x128x64", "rt-call-khr"};
  for (size_t s = 0; s < 3; s++) add("smallgrid", "f16,f32", "nt", specs[s], false, 10, shapes);
}

/* Packed operands, second look (set "pack2"): the AUTO default where it packs (4097x4095x4093,
 * every type; an odd-K prompt class), and 3000^3 packed on the tiles the aligned class
 * does not pick, beside the khr default; run-time classes of odd leading dimensions. */
static void build_pack2_set(void) {
  static const char *const types[] = {"f16,f32", "f16,f16", "s8,s32"};
  for (size_t t = 0; t < 3; t++) add("pack2", types[t], "nn", "default", false, 1, ONE(4097, 4095, 4093));
  add("pack2", "f16,f32", "nn", "rt-call", false, 1, ONE(4097, 4095, 4093));
  add("pack2", "f16,f32", "nt", "default", false, 1, ONE(1999, 3584, 3581));
  add("pack2", "f16,f32", "nt", "rt-call", false, 1, ONE(1999, 3584, 3581));
  static const char *const sq[] = {"default", "cm2:pkab:t128x256x32", "cm2:pkab:t128x128x64", "cm2:pkab:t256x128x32",
                                   "cm2:u2:pkab:t128x256x32"};
  for (size_t s = 0; s < sizeof sq / sizeof sq[0]; s++) {
    add("pack2", "f16,f32", "nn", sq[s], false, 1, ONE(3000, 3000, 3000));
    add("pack2", "f16,f16", "nn", sq[s], false, 1, ONE(3000, 3000, 3000));
  }
}

/* Around 3000^3 (set "sq3k"): the aligned 3072^3 and 3008^3 on the coopmat2 tiles and khr,
 * beside 3000^3's default, to tell the tile's speed at this size from the edges' cost. */
static void build_sq3k_set(void) {
  static const char *const specs[] = {"default", "cm2:u1:t128x256x32", "cm2:u1:t128x128x64", "cm2:u2:t128x256x32", "khr"};
  static const uint32_t sh[][3] = {{3072, 3072, 3072}, {3008, 3008, 3008}};
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) add("sq3k", "f16,f32", "nn", specs[s], false, 2, sh);
  add("sq3k", "f16,f32", "nn", "default", false, 1, ONE(3000, 3000, 3000));
  add("sq3k", "f16,f32", "nn", "default", false, 1, ONE(4096, 4096, 4096));
}

/* The FIXED K loop's shape (set "fixloop"): K counts off a multiple of 8 iterations with
 * the split on every tile (cg:s), the rest loop marked DontUnroll (cg:u), the main loop
 * marked DontUnroll (cg:n), beside each tile as it is; 3072^3 the control. */
static void build_fixloop_set(void) {
  static const char *const specs[] = {"cm2:u1:t128x128x64", "cm2:u1:t128x128x64:cgs", "cm2:u1:t128x128x64:cgsu",
                                      "cm2:u1:t128x256x32", "cm2:u1:t128x256x32:cgu", "cm2:u1:t128x256x32:cgn",
                                      "cm2:u2:t128x256x32", "cm2:u2:t128x256x32:cgu",
                                      "cm2:u1:t128x192x64", "cm2:u1:t128x192x64:cgu"};
  static const uint32_t sh[][3] = {{3072, 3072, 3008}, {6144, 6144, 6080}, {3072, 3072, 3072}};
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) add("fixloop", "f16,f32", "nn", specs[s], false, 3, sh);
  static const char *const f16[] = {"cm2:u1:t192x192x32", "cm2:u1:t192x192x32:cgs", "cm2:u1:t192x192x32:cgsu",
                                    "cm2:u1:t256x256x32", "cm2:u1:t256x256x32:cgs"};
  for (size_t s = 0; s < sizeof f16 / sizeof f16[0]; s++) add("fixloop", "f16,f16", "nn", f16[s], false, 2, sh);
}

/* The split K loop on every tile (set "split"; run with main's binary beside): FIXED
 * shapes whose K loop counts no multiple of 8 iterations on the tiles the split now
 * reaches (128x128, 64x128, 64x64, 32x64 with f32 accumulators; 192x192 and 128x128 with
 * f16 ones), each default, and controls whose count divides (K 3584 at tile_k 64). */
static void build_split_set(void) {
  add("split", "f16,f32", "nn", "default", false, 1, ONE(3072, 3072, 3008));
  add("split", "f16,f32", "nn", "default", false, 1, ONE(6144, 6144, 6080));
  add("split", "f16,f32", "nn", "default", false, 1, ONE(1024, 1024, 6080));
  add("split", "f16,f32", "nt", "default", false, 1, ONE(512, 3584, 3008));
  add("split", "f16,f32", "nt", "default", false, 1, ONE(2049, 4608, 3584));
  add("split", "f16,f32", "nt", "default", false, 1, ONE(999, 3584, 3584));
  static const uint32_t mid[][3] = {{1024, 1024, 6080}, {3072, 3072, 3008}};
  add("split", "f16,f32", "nn", "cm2:u1:t64x128x64", false, 2, mid);
  add("split", "f16,f32", "nn", "cm2:u1:t64x64x64", false, 2, mid);
  add("split", "f16,f32", "nn", "cm2:u2:t32x64x64", false, 2, mid);
  add("split", "f16,f16", "nn", "cm2:u1:t128x128x64", false, 2, mid);
  add("split", "f16,f16", "nn", "cm2:pkab", false, 1, ONE(3000, 3000, 3000));
  add("split", "f16,f16", "nn", "cm2:u1:t192x192x32", false, 1, ONE(6144, 6144, 6080));
  add("split", "s8,s32", "nt", "default", false, 1, ONE(3072, 3072, 3008));
}

/* Shapes nobody tuned for (set "random"): 15 drawn uniformly (M, N in 256-6144, K in
 * 512-8192; Python's random.Random(1127)), then 6 of whole 64-element multiples, cycling
 * f16->f32, f16->f16 and s8->s32 over nn and nt, each at its default plan: a check of
 * the planner on shapes outside the list. */
static void build_random_set(void) {
  add("random", "f16,f32", "nn", "default", false, 1, ONE(4335, 1535, 2606));
  add("random", "f16,f16", "nn", "default", false, 1, ONE(1039, 1727, 3819));
  add("random", "s8,s32", "nn", "default", false, 1, ONE(4917, 4836, 5044));
  add("random", "f16,f32", "nt", "default", false, 1, ONE(1655, 5892, 2310));
  add("random", "f16,f16", "nt", "default", false, 1, ONE(342, 4828, 7003));
  add("random", "s8,s32", "nt", "default", false, 1, ONE(4136, 1665, 7754));
  add("random", "f16,f32", "nn", "default", false, 1, ONE(4309, 263, 4198));
  add("random", "f16,f16", "nn", "default", false, 1, ONE(5238, 1540, 4765));
  add("random", "s8,s32", "nn", "default", false, 1, ONE(4772, 3120, 2488));
  add("random", "f16,f32", "nt", "default", false, 1, ONE(4619, 1940, 8160));
  add("random", "f16,f16", "nt", "default", false, 1, ONE(2635, 3371, 517));
  add("random", "s8,s32", "nt", "default", false, 1, ONE(2379, 3413, 7265));
  add("random", "f16,f32", "nn", "default", false, 1, ONE(3071, 6091, 3603));
  add("random", "f16,f16", "nn", "default", false, 1, ONE(3240, 2458, 5796));
  add("random", "s8,s32", "nn", "default", false, 1, ONE(3271, 4177, 5415));
  add("random", "f16,f32", "nn", "default", false, 1, ONE(5696, 1408, 4864));
  add("random", "f16,f16", "nn", "default", false, 1, ONE(5120, 4608, 960));
  add("random", "s8,s32", "nn", "default", false, 1, ONE(2816, 4096, 6528));
  add("random", "f16,f32", "nt", "default", false, 1, ONE(2112, 832, 1920));
  add("random", "f16,f16", "nt", "default", false, 1, ONE(832, 3008, 3392));
  add("random", "s8,s32", "nt", "default", false, 1, ONE(2560, 896, 3392));
}

/* The issue-24 targets once more, at their defaults (set "recheck"): the odd and square
 * shapes, 8192^3, prompt shapes nt and nn, and the skinny int8 shape, each default plan
 * beside its run-time-class plan (what a framework calling per shape gets). */
static void build_recheck_set(void) {
  static const char *const specs[] = {"default", "rt-call"};
  for (size_t s = 0; s < 2; s++) {
    add("recheck", "f16,f32", "nn", specs[s], false, 1, ONE(4097, 4095, 4093));
    add("recheck", "f16,f16", "nn", specs[s], false, 1, ONE(4097, 4095, 4093));
    add("recheck", "s8,s32", "nn", specs[s], false, 1, ONE(4097, 4095, 4093));
    add("recheck", "f16,f32", "nn", specs[s], false, 1, ONE(3000, 3000, 3000));
    add("recheck", "f16,f16", "nn", specs[s], false, 1, ONE(3000, 3000, 3000));
    add("recheck", "s8,s32", "nt", specs[s], false, 1, ONE(128, 16384, 4096));
    static const uint32_t mids[][3] = {{257, 3584, 3584}, {1999, 3584, 3584}, {2048, 3584, 3584}};
    add("recheck", "f16,f32", "nt", specs[s], false, 3, mids);
    add("recheck", "f16,f32", "nn", specs[s], false, 3, mids);
  }
  add("recheck", "f16,f32", "nn", "default", false, 1, ONE(8192, 8192, 8192));
  add("recheck", "f16,f32", "nt", "default", false, 1, ONE(8192, 8192, 8192));
}

/* Packed operands (set "pack"): the off-tile and misaligned shapes of issue 24 item 3
 * with both operands packed (the aligned coopmat2 kernel on zero-padded copies, at the
 * planner's unroll and at unroll 2), beside today's default and coopmat2 unpacked at
 * unroll 1 (the planner's edge mode); the prompt shapes nt and nn; and 2048x3584x3584 nt,
 * a control that needs no packing (its rows are whole tiles and 16-byte aligned). The
 * compile column of a packed plan reads "pack+main". */
static void build_pack_set(void) {
  static const char *const specs[] = {"default", "cm2:u1:pknone", "cm2:pkab", "cm2:u2:pkab"};
  for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
    add("pack", "f16,f32", "nn", specs[s], false, 1, ONE(4097, 4095, 4093));
    add("pack", "f16,f16", "nn", specs[s], false, 1, ONE(4097, 4095, 4093));
    add("pack", "s8,s32", "nn", specs[s], false, 1, ONE(4097, 4095, 4093));
    add("pack", "f16,f32", "nn", specs[s], false, 1, ONE(3000, 3000, 3000));
    add("pack", "f16,f16", "nn", specs[s], false, 1, ONE(3000, 3000, 3000));
    static const uint32_t prompt[][3] = {{1999, 3584, 3584}, {257, 3584, 3584}, {2048, 3584, 3584}};
    add("pack", "f16,f32", "nt", specs[s], false, 3, prompt);
    add("pack", "f16,f32", "nn", specs[s], false, 1, prompt);
  }
  /* only A packed (the weights B are aligned N x K): the prompt shapes nt */
  static const uint32_t prompt_a[][3] = {{1999, 3584, 3584}, {257, 3584, 3584}};
  add("pack", "f16,f32", "nt", "cm2:u1:pka", false, 2, prompt_a);
}

static void build_sets(bool targets, bool prompt, bool compile, bool tiny) {
  if (tiny) { /* a smoke test of every path, small enough for lavapipe */
    static const uint32_t sh[][3] = {{1, 40, 24}, {33, 40, 24}, {64, 40, 24}};
    add("tiny", "f16,f32", "nt", "default", false, 2, sh);
    add("tiny", "f16,f32", "nt", "rt", false, 1, sh + 1);
    add("tiny", "f16,f32", "nt", "rt-m1", false, 3, sh);
    add("tiny", "f16,f32", "nn", "default", true, 1, sh + 2);
  }
  if (targets) {
    static const char *const big[] = {"default", "rt", "cm2:u4", "cm2:u1", "khr"};
    for (size_t s = 0; s < sizeof big / sizeof big[0]; s++) add("targets", "f16,f32", "nn", big[s], false, 1, ONE(8192, 8192, 8192));
    add("targets", "f16,f32", "nt", "default", false, 1, ONE(8192, 8192, 8192));
    static const char *const odd[] = {"default", "rt", "khr", "cm2:u1:clamp", "cm2:u1:branch", "cm2:u2:branch",
                                      "cm2:u4:branch", "cm2:u2:shift", "rt-cm2:u2:branch", "rt-cm2:u1:clamp"};
    for (size_t s = 0; s < sizeof odd / sizeof odd[0]; s++) add("targets", "f16,f32", "nn", odd[s], false, 1, ONE(4097, 4095, 4093));
    static const char *const sq[] = {"default", "rt", "khr", "cm2:u1:clamp", "cm2:u2:branch", "cm2:u2:shift"};
    for (size_t s = 0; s < sizeof sq / sizeof sq[0]; s++) {
      add("targets", "f16,f32", "nn", sq[s], false, 1, ONE(3000, 3000, 3000));
      add("targets", "f16,f16", "nn", sq[s], false, 1, ONE(3000, 3000, 3000));
    }
    static const uint32_t mids[][3] = {{257, 3584, 3584}, {2048, 3584, 3584}, {1999, 3584, 3584}};
    static const char *const mid[] = {"default", "rt-m1", "khr", "rt-m1-khr", "cm2:u2:shift"};
    for (size_t s = 0; s < sizeof mid / sizeof mid[0]; s++) {
      add("targets", "f16,f32", "nt", mid[s], false, 3, mids);
      add("targets", "f16,f32", "nn", mid[s], false, 3, mids);
    }
    static const char *const skinny[] = {"default", "rt", "khr", "cm2:u1", "cm2:u2"};
    for (size_t s = 0; s < sizeof skinny / sizeof skinny[0]; s++)
      add("targets", "s8,s32", "nt", skinny[s], false, 1, ONE(128, 16384, 4096));
    add("targets", "s8,s32", "nn", "default", false, 1, ONE(4097, 4095, 4093));
    /* the old branch: the edge path unrolled like the interior (compiles for many seconds) */
    add("targets", "f16,f32", "nn", "cm2:u4:branch/4", false, 1, ONE(4097, 4095, 4093));
  }
  if (prompt) {
    /* Qwen2-7B's linear layers as (N, K) of N x K weights: qkv, o, up (gate alike), down */
    static const uint32_t weights[][2] = {{4608, 3584}, {3584, 3584}, {18944, 3584}, {3584, 18944}};
    static const uint32_t ms[] = {1, 3, 16, 31, 64, 100, 128, 255, 512, 1000, 2048, 4096};
    /* the planner's choice for any M; a small tile for short prompts, with split-K */
    static const char *const specs[] = {"rt-m1", "rt-m1-khr", "rt-m1-cm2:u2:t32x64x64", "rt-m1-cm2:u2:t32x64x64:sk4"};
    for (size_t w = 0; w < 4; w++)
      for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        uint32_t sh[12][3];
        for (size_t i = 0; i < 12; i++) sh[i][0] = ms[i], sh[i][1] = weights[w][0], sh[i][2] = weights[w][1];
        add("prompt", "f16,f32", "nt", specs[s], false, 12, (const uint32_t(*)[3])sh);
      }
  }
  if (compile) {
    static const char *const tiles[] = {"t128x256x32", "t128x128x64", "t64x128x64", "t64x64x64"};
    static const char *const edges[] = {"clamp", "branch", "shift"};
    char *spec;
    for (size_t t = 0; t < 4; t++)
      for (uint32_t u = 1; u <= 4; u *= 2) {
        spec = malloc(48);
        snprintf(spec, 48, "cm2:u%u:%s", u, tiles[t]);
        add("compile", "f16,f32", "nn", spec, true, 1, ONE(4096, 4096, 4096));
        for (size_t e = 0; e < 3; e++) {
          spec = malloc(48);
          snprintf(spec, 48, "cm2:u%u:%s:%s", u, edges[e], tiles[t]);
          add("compile", "f16,f32", "nn", spec, true, 1, ONE(4097, 4095, 4093));
        }
      }
    add("compile", "f16,f32", "nn", "khr", true, 1, ONE(4097, 4095, 4093));
    add("compile", "f16,f32", "nn", "rt", true, 1, ONE(4097, 4095, 4093));
    add("compile", "f16,f32", "nn", "rt-khr", true, 1, ONE(4097, 4095, 4093));
    add("compile", "f16,f32", "nn", "rt-cm2:u1:clamp", true, 1, ONE(4097, 4095, 4093));
    add("compile", "f16,f32", "nn", "rt-cm2:u2:branch", true, 1, ONE(4097, 4095, 4093));
  }
}

/* Whether the comma-separated list holds name (whole words: "splitk" is not "splitk2"). */
static bool has_set(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return true;
    p = end ? end + 1 : NULL;
  }
  return false;
}

/* A caps file written by `spvgen devices --json`. */
static bool caps_file(const char *path, spvgen_device_caps *caps, char *msg, size_t size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, size, "cannot open it");
    return false;
  }
  static char text[1 << 16];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  return spvgen_caps_from_json(text, len, caps, msg, size);
}

/* --rows FILE: each line a group of one shape ("SET MxNxK TYPES LAYOUT SPEC"). False,
 * with a message, on a line that does not read so. */
static bool read_rows(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "bench_gemm_shapes: --rows: cannot open '%s'\n", path);
    return false;
  }
  char line[512];
  unsigned no = 0;
  bool ok = true;
  while (ok && fgets(line, sizeof line, f)) {
    no++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char set[32], types[32], layout[8], spec[96];
    unsigned m, n, k;
    int got = sscanf(line, "%31s %ux%ux%u %31s %7s %95s", set, &m, &n, &k, types, layout, spec);
    if (got <= 0) continue; /* blank or comment */
    if (got != 7 || strlen(layout) != 2 || !strchr("nt", layout[0]) || !strchr("nt", layout[1]) || !m || !n || !k) {
      fprintf(stderr, "bench_gemm_shapes: --rows: %s:%u: not \"SET MxNxK TYPES LAYOUT SPEC\"\n", path, no);
      ok = false;
      break;
    }
    if (ngroups >= sizeof groups / sizeof groups[0]) {
      fprintf(stderr, "bench_gemm_shapes: --rows: %s: more than %zu rows\n", path, sizeof groups / sizeof groups[0]);
      ok = false;
      break;
    }
    const uint32_t sh[1][3] = {{m, n, k}};
    add(strdup(set), strdup(types), strdup(layout), strdup(spec), false, 1, sh);
  }
  fclose(f);
  return ok;
}

int main(int argc, char **argv) {
  const char *anchor = NULL, *sets = "targets,prompt,compile", *plans_for = NULL, *rows = NULL;
  double deadline_s = 420;
  bool quick = false, list = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--anchor") && i + 1 < argc) anchor = argv[++i];
    else if (!strcmp(argv[i], "--set") && i + 1 < argc) sets = argv[++i];
    else if (!strcmp(argv[i], "--deadline-s") && i + 1 < argc) deadline_s = atof(argv[++i]);
    else if (!strcmp(argv[i], "--quick")) quick = true;
    else if (!strcmp(argv[i], "--list")) list = true;
    else if (!strcmp(argv[i], "--plans") && i + 1 < argc) plans_for = argv[++i];
    else if (!strcmp(argv[i], "--rows") && i + 1 < argc) rows = argv[++i];
    else {
      fprintf(stderr, "usage: bench_gemm_shapes [--set targets,prompt,compile,tiny,call,splitk,splitk2,skptr,recheck,fixloop,split,random,smallgrid,pack2,sq3k,pack] [--anchor PATH] [--deadline-s S] "
                      "[--quick] [--list] [--plans CAPS] [--rows FILE]\n");
      return 2;
    }
  }
  static const char *const known[] = {"targets", "prompt", "compile", "tiny", "call", "splitk", "splitk2", "skptr",
                                      "recheck", "fixloop", "split", "random", "smallgrid", "pack2", "sq3k", "pack"};
  for (const char *p = sets; *p;) { /* a name no set has is an error, not an empty run */
    const size_t len = strcspn(p, ",");
    bool ok = false;
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) ok |= strlen(known[k]) == len && !strncmp(p, known[k], len);
    if (!ok) {
      fprintf(stderr, "bench_gemm_shapes: --set: no set named '%.*s'\n", (int)len, p);
      return 2;
    }
    p += len + (p[len] == ',');
  }
  if (rows) {
    if (!read_rows(rows)) return 2;
    sets = ""; /* the file's rows alone */
  }
  build_sets(has_set(sets, "targets"), has_set(sets, "prompt"), has_set(sets, "compile"), has_set(sets, "tiny"));
  if (has_set(sets, "call")) build_call_set();
  if (has_set(sets, "splitk")) build_splitk_set();
  if (has_set(sets, "splitk2")) build_splitk2_set();
  if (has_set(sets, "skptr")) build_skptr_set();
  if (has_set(sets, "recheck")) build_recheck_set();
  if (has_set(sets, "fixloop")) build_fixloop_set();
  if (has_set(sets, "split")) build_split_set();
  if (has_set(sets, "random")) build_random_set();
  if (has_set(sets, "smallgrid")) build_smallgrid_set();
  if (has_set(sets, "pack2")) build_pack2_set();
  if (has_set(sets, "sq3k")) build_sq3k_set();
  if (has_set(sets, "pack")) build_pack_set();
  if (list) {
    for (uint32_t gi = 0; gi < ngroups; gi++)
      for (uint32_t i = 0; i < groups[gi].count; i++)
        printf("%s %ux%ux%u %s %s %s\n", groups[gi].set, groups[gi].shapes[i][0], groups[gi].shapes[i][1],
               groups[gi].shapes[i][2], groups[gi].types, groups[gi].layout, groups[gi].spec);
    return 0;
  }
  if (plans_for) { /* what each row would run, planned offline for a caps preset or file */
    spvgen_device_caps caps;
    char msg[512];
    if (spvgen_caps_preset(plans_for, &caps) != SPVGEN_OK && !caps_file(plans_for, &caps, msg, sizeof msg)) {
      fprintf(stderr, "bench_gemm_shapes: --plans: '%s' is no caps preset, nor a caps file: %s\n", plans_for, msg);
      return 2;
    }
    print_header();
    for (uint32_t gi = 0; gi < ngroups; gi++)
      for (uint32_t i = 0; i < groups[gi].count; i++) {
        spvgen_gemm_desc d;
        bool r1, r2;
        if (!desc_for(&groups[gi], i, &d, &r1, &r2)) {
          print_row(&groups[gi], i, "bad spec", "-", 0, 0, "-");
          continue;
        }
        if (!strncmp(groups[gi].spec, "rt-m1", 5)) d.m = 0; /* as run_group plans it */
        spvgen_gemm_config p;
        char name[160];
        if (spvgen_gemm_plan(&d, &caps, &p, msg, sizeof msg) != SPVGEN_OK) {
          print_row(&groups[gi], i, msg, "-", 0, 0, "refused");
          continue;
        }
        snprintf(name, sizeof name, "%s (est %u)", p.name, p.compile_ms);
        print_row(&groups[gi], i, name, "-", 0, 0, "planned");
      }
    return bad_specs ? 1 : 0;
  }
  double t0 = now_s(), deadline = t0 + deadline_s;
  if (anchor) {
    static uint32_t uniq[MAX_ANCHORS][3];
    int nu = 0;
    for (uint32_t gi = 0; gi < ngroups; gi++)
      for (uint32_t i = 0; i < groups[gi].count && !groups[gi].compile_only; i++) {
        bool seen = false;
        for (int u = 0; u < nu && !seen; u++) seen = !memcmp(uniq[u], groups[gi].shapes[i], sizeof uniq[0]);
        if (!seen && nu < MAX_ANCHORS) memcpy(uniq[nu++], groups[gi].shapes[i], sizeof uniq[0]);
      }
    run_anchor(anchor, uniq, nu);
  }
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "bench_gemm_shapes: no Vulkan device: %s\n", msg);
    return 1;
  }
  printf("# device %s, driver cache %s\n", spvgen_vk_caps(ctx)->name,
         getenv("__GL_SHADER_DISK_CACHE_PATH") ? getenv("__GL_SHADER_DISK_CACHE_PATH") : "(the driver's default)");
  /* (not on CPU devices: 2048^3 there takes seconds, and the slow mode is a GPU's) */
  cal_base_ns = spvgen_vk_caps(ctx)->type == SPVGEN_DEVICE_CPU ? 0 : calibrate(ctx);
  if (cal_base_ns > 0)
    printf("# calibration: 2048^3 f16->f32 %.4f ms (%.1f TFLOP/s), timed again after every row\n", cal_base_ns / 1e6,
           2.0 * 2048 * 2048 * 2048 / cal_base_ns / 1e3);
  print_header();
  for (uint32_t gi = 0; gi < ngroups; gi++) run_group(ctx, &groups[gi], deadline, quick);
  if (cal_base_ns > 0)
    printf("# slow mode: %u rows measured while the calibration ran over %.1fx its first time (flagged slow-gpu; "
           "re-measured once, %u of them with the calibration back to normal)\n",
           cal_slow_rows, SLOW_RATIO, cal_remeasured_fast);
  printf("# %.1f s\n", now_s() - t0);
  spvgen_vk_destroy(ctx);
  if (bad_specs) fprintf(stderr, "bench_gemm_shapes: %d rows with a malformed spec\n", bad_specs);
  return bad_specs ? 1 : 0;
}
