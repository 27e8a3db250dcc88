/* bench/mlp_grid.c — the fused MLP over a grid of networks (issue 28): input width 1-64,
 * hidden width 16-256, depth 1-8, output width 1-64, every activation, the three
 * encodings. For each network it measures every variant class (vec with row-major
 * weights, vec with the driver's optimal weights, mat, loop) over a few plans each (the
 * knobs worth trying), and reports:
 *   - every plan's G points/s, TFLOP/s (2 sum(in * out) per point), the driver's first
 *     compile of its module, emit time and the check of --sample points against the
 *     float64 reference (every output of each);
 *   - the best class and plan, and its ratio to torch.compile where the anchor's results
 *     are given (--anchor-results: bench/anchors/mlp_anchor_net.py --out, run on the
 *     --write-nets list: same networks, same point counts, in the same GPU call);
 *   - what spvgen_mlp_plan chooses for row-major weights and for weight_layout auto, and
 *     that choice's measured figure against the best (the selection's audit: it must
 *     never be under half the best);
 * as text, a markdown summary (--md) and a TSV of every plan (--tsv), which
 * tools/gen_mlp_select.py turns into emitters/mlp/select_table.c.
 *
 *   bench_mlp_grid --write-nets FILE           the networks, "NAME<TAB>FLAGS<TAB>POINTS"
 *   bench_mlp_grid [--anchor-results FILE] [--tsv FILE] [--md FILE] [--budget S]
 *                  [--only N,N..] [--classes vec,vec-opt,mat,loop] [--quick]
 *                  [--repeats N] [--warmup-ms MS] [--sample N]
 *
 * Point counts: 2^31 / 5 FLOP per network (about 1 ms at 400 TFLOP/s), between 2^18 and
 * 2^22, and at most 2^26 input or output values (the host's random data); the loop class
 * runs an eighth of them. --budget stops starting networks after S seconds (default
 * 300: scripts/gpu-mlp.sh's share of a GPU call); --quick (tests on lavapipe) runs a few
 * small networks on a few thousand points. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mlp_run.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

typedef struct grid_net {
  const char *name;
  uint32_t in, width, depth, out;
  spvgen_mlp_activation act, out_act;
  spvgen_mlp_encoding enc;
  uint32_t enc_size;
} grid_net;

#define R SPVGEN_MLP_ACT_RELU
#define T SPVGEN_MLP_ACT_TANH
#define S SPVGEN_MLP_ACT_SIGMOID
#define SI SPVGEN_MLP_ACT_SILU
#define LR SPVGEN_MLP_ACT_LEAKY_RELU
#define EX SPVGEN_MLP_ACT_EXP
#define NO SPVGEN_MLP_ACT_NONE
/* The most telling networks first (a --budget cut loses the tail): the four and
 * our two benchmarks, the 16 corners of input x width x depth x output, then sweeps of
 * one dimension around the middle, the activations, the encodings. */
static const grid_net grid[] = {
    {"issue-3-48x2-1", 3, 48, 2, 1, S, NO, 0, 0},
    {"issue-8-32x1-8", 8, 32, 1, 8, T, NO, 0, 0},
    {"issue-64-64x5-64", 64, 64, 5, 64, R, NO, 0, 0},
    {"issue-16-128x3-3", 16, 128, 3, 3, SI, NO, 0, 0},
    {"a-32-64x4-16", 32, 64, 4, 16, R, NO, 0, 0},
    {"b-8-64x3-8", 8, 64, 3, 8, R, NO, 0, 0},
    /* corners */
    {"c-1-16x1-1", 1, 16, 1, 1, R, NO, 0, 0},
    {"c-1-16x1-64", 1, 16, 1, 64, T, NO, 0, 0},
    {"c-1-16x8-1", 1, 16, 8, 1, SI, NO, 0, 0},
    {"c-1-16x8-64", 1, 16, 8, 64, S, NO, 0, 0},
    {"c-1-256x1-1", 1, 256, 1, 1, LR, NO, 0, 0},
    {"c-1-256x1-64", 1, 256, 1, 64, R, NO, 0, 0},
    {"c-1-256x8-1", 1, 256, 8, 1, T, NO, 0, 0},
    {"c-1-256x8-64", 1, 256, 8, 64, R, NO, 0, 0},
    {"c-64-16x1-1", 64, 16, 1, 1, S, NO, 0, 0},
    {"c-64-16x1-64", 64, 16, 1, 64, R, NO, 0, 0},
    {"c-64-16x8-1", 64, 16, 8, 1, R, NO, 0, 0},
    {"c-64-16x8-64", 64, 16, 8, 64, SI, NO, 0, 0},
    {"c-64-256x1-1", 64, 256, 1, 1, T, NO, 0, 0},
    {"c-64-256x1-64", 64, 256, 1, 64, LR, NO, 0, 0},
    {"c-64-256x8-1", 64, 256, 8, 1, R, NO, 0, 0},
    {"c-64-256x8-64", 64, 256, 8, 64, R, NO, 0, 0},
    /* width at depth 3 */
    {"w-32-16x3-16", 32, 16, 3, 16, R, NO, 0, 0},
    {"w-32-32x3-16", 32, 32, 3, 16, R, NO, 0, 0},
    {"w-32-128x3-16", 32, 128, 3, 16, R, NO, 0, 0},
    {"w-32-256x3-16", 32, 256, 3, 16, R, NO, 0, 0},
    /* depth at width 64 */
    {"d-16-64x1-16", 16, 64, 1, 16, R, NO, 0, 0},
    {"d-16-64x2-16", 16, 64, 2, 16, R, NO, 0, 0},
    {"d-16-64x5-16", 16, 64, 5, 16, R, NO, 0, 0},
    {"d-16-64x8-16", 16, 64, 8, 16, R, NO, 0, 0},
    /* compute-bound: width 128 and 256, deep */
    {"k-32-128x5-32", 32, 128, 5, 32, R, NO, 0, 0},
    {"k-32-128x8-32", 32, 128, 8, 32, SI, NO, 0, 0},
    {"k-64-256x3-64", 64, 256, 3, 64, R, NO, 0, 0},
    {"k-64-256x5-64", 64, 256, 5, 64, R, NO, 0, 0},
    {"k-64-128x4-64", 64, 128, 4, 64, T, NO, 0, 0},
    /* output width */
    {"o-32-64x4-1", 32, 64, 4, 1, R, NO, 0, 0},
    {"o-32-64x4-3", 32, 64, 4, 3, R, SPVGEN_MLP_ACT_SIGMOID, 0, 0},
    {"o-32-64x4-32", 32, 64, 4, 32, R, NO, 0, 0},
    {"o-32-64x4-64", 32, 64, 4, 64, R, NO, 0, 0},
    /* input width */
    {"i-1-64x3-16", 1, 64, 3, 16, R, NO, 0, 0},
    {"i-3-64x3-16", 3, 64, 3, 16, R, NO, 0, 0},
    {"i-8-64x3-16", 8, 64, 3, 16, R, NO, 0, 0},
    {"i-64-64x3-16", 64, 64, 3, 16, R, NO, 0, 0},
    /* activations */
    {"act-32-64x3-16-tanh", 32, 64, 3, 16, T, NO, 0, 0},
    {"act-32-64x3-16-sigmoid", 32, 64, 3, 16, S, NO, 0, 0},
    {"act-32-64x3-16-silu", 32, 64, 3, 16, SI, NO, 0, 0},
    {"act-32-64x3-16-leaky", 32, 64, 3, 16, LR, NO, 0, 0},
    {"act-32-64x3-4-exp", 32, 64, 3, 4, R, EX, 0, 0},
    /* encodings */
    {"e-3-freq6-64x3-4", 3, 64, 3, 4, R, NO, SPVGEN_MLP_ENCODING_FREQUENCY, 6},
    {"e-2-oneblob16-64x2-3", 2, 64, 2, 3, R, S, SPVGEN_MLP_ENCODING_ONE_BLOB, 16},
    {"e-3-hashgrid-64x2-16", 3, 64, 2, 16, R, NO, SPVGEN_MLP_ENCODING_HASH_GRID, 0},
};
/* --quick: lavapipe-sized */
static const grid_net quick_grid[] = {
    {"q-3-16x2-1", 3, 16, 2, 1, S, NO, 0, 0},
    {"q-8-32x1-8", 8, 32, 1, 8, T, NO, 0, 0},
    {"q-2-hashgrid-16x1-3", 2, 16, 1, 3, R, NO, SPVGEN_MLP_ENCODING_HASH_GRID, 0},
};
#undef R
#undef T
#undef S
#undef SI
#undef LR
#undef EX
#undef NO

enum { C_VEC, C_VEC_OPT, C_MAT, C_LOOP, C_COUNT };
static const char *const class_names[C_COUNT] = {"vec", "vec-opt", "mat", "loop"};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static spvgen_mlp_desc desc_of(const grid_net *n) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = n->in;
  d.hidden_width = n->width;
  d.hidden_count = n->depth;
  d.output_width = n->out;
  d.activation = n->act;
  d.output_activation = n->out_act;
  d.encoding = n->enc;
  d.encoding_size = n->enc_size;
  if (n->enc == SPVGEN_MLP_ENCODING_HASH_GRID) { /* Instant-NGP's image / SDF setting, a 2^16 table */
    d.grid.levels = 16;
    d.grid.log2_hashmap_size = 16;
    d.grid.per_level_scale = 1.5f;
  }
  return d;
}

static uint64_t points_of(const spvgen_mlp_config *p, bool quick) {
  if (quick) return 3000;
  double want = 2147483648.0 / 5.0 / (double)p->flops_per_point;
  uint64_t n = 1ull << 18;
  while (n * 2 <= want && n < (1ull << 22)) n *= 2;
  uint32_t io = p->desc.input_width > p->desc.output_width ? p->desc.input_width : p->desc.output_width;
  while (n > (1ull << 16) && n * io > (1ull << 26)) n /= 2;
  return n;
}

/* The knobs worth trying per class (a subset of spvgen_mlp_plans, to keep the grid within
 * a GPU call): vec row-major w32, w64; optimal w32, w64, w128, w32 p2, w32 p4; mat its
 * default, 64 points, 2 subgroups, f16 accumulators, the rows arrangement (its default,
 * and 4 subgroups over 64 points); loop w64. */
static uint32_t class_plans(const spvgen_device_caps *caps, const spvgen_mlp_desc *base, int cls, bool quick,
                            spvgen_mlp_config *out, uint32_t max, char *why, size_t size) {
  static const uint32_t vec_row[][2] = {{32, 1}, {64, 1}};
  static const uint32_t vec_opt[][2] = {{32, 1}, {64, 1}, {128, 1}, {32, 2}, {32, 4}};
  /* mat: subgroups, points, f16 accumulators, rows arrangement */
  static const uint32_t mat[][4] = {{0, 0, 0, 0}, {0, 64, 0, 0}, {2, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, {4, 64, 0, 1}};
  uint32_t n = 0;
  spvgen_mlp_desc d = *base;
  d.weight_layout = cls == C_VEC_OPT ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
  d.variant = cls == C_MAT ? SPVGEN_MLP_MAT : cls == C_LOOP ? SPVGEN_MLP_LOOP : SPVGEN_MLP_VEC;
  uint32_t count = cls == C_VEC ? 2 : cls == C_VEC_OPT ? 5 : cls == C_MAT ? 6 : 1;
  if (quick) count = 1;
  why[0] = 0;
  for (uint32_t i = 0; i < count && n < max; i++) {
    spvgen_mlp_desc e = d;
    if (cls == C_VEC || cls == C_VEC_OPT) {
      e.workgroup_size = cls == C_VEC ? vec_row[i][0] : vec_opt[i][0];
      e.points_per_group = cls == C_VEC ? vec_row[i][1] : vec_opt[i][1];
    } else if (cls == C_MAT) {
      e.workgroup_size = mat[i][0] * (caps->subgroup_size ? caps->subgroup_size : 32);
      e.points_per_group = mat[i][1];
      e.f16_accumulation = mat[i][2] != 0;
      e.mat_rows = mat[i][3] != 0;
    } else {
      e.workgroup_size = 64;
    }
    char msg[512];
    if (spvgen_mlp_plan(&e, caps, &out[n], msg, sizeof msg) == SPVGEN_OK) {
      bool dup = false; /* a knob the plan resolved to one already listed */
      for (uint32_t k = 0; k < n; k++) dup |= !strcmp(out[k].name, out[n].name);
      if (!dup) n++;
    } else if (!n && !why[0]) {
      snprintf(why, size, "%s", msg);
    }
  }
  return n;
}

typedef struct anchor_row {
  char name[64];
  double eager, compiled; /* G points/s */
} anchor_row;

static uint32_t read_anchors(const char *path, anchor_row *rows, uint32_t max) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) {
    if (path) fprintf(stderr, "bench_mlp_grid: cannot read %s\n", path);
    return 0;
  }
  uint32_t n = 0;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    char name[64], mode[32];
    unsigned long long pts;
    double ms, g, tf;
    if (sscanf(line, "anchor\t%63[^\t]\t%31[^\t]\t%llu\t%lf\t%lf\t%lf", name, mode, &pts, &ms, &g, &tf) != 6) continue;
    uint32_t i = 0;
    while (i < n && strcmp(rows[i].name, name)) i++;
    if (i == n) {
      if (n == max) continue;
      memset(&rows[n], 0, sizeof rows[n]);
      snprintf(rows[n].name, sizeof rows[n].name, "%s", name);
      n++;
    }
    if (!strcmp(mode, "eager")) rows[i].eager = g;
    if (!strcmp(mode, "compile")) rows[i].compiled = g;
  }
  fclose(f);
  return n;
}

static int act_class(spvgen_mlp_activation a) {
  return a == SPVGEN_MLP_ACT_RELU || a == SPVGEN_MLP_ACT_LEAKY_RELU || a == SPVGEN_MLP_ACT_NONE ? 0 : 1;
}

int main(int argc, char **argv) {
  const char *nets_out = NULL, *anchors = NULL, *tsv_path = NULL, *md_path = NULL, *only = NULL;
  const char *classes = "vec,vec-opt,mat,loop";
  double budget = 300;
  bool quick = false;
  uint32_t repeats = 7, warmup_ms = 25;
  uint64_t sample = 128;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--quick")) quick = true;
    else if (!strcmp(a, "--write-nets") && v) nets_out = v, i++;
    else if (!strcmp(a, "--anchor-results") && v) anchors = v, i++;
    else if (!strcmp(a, "--tsv") && v) tsv_path = v, i++;
    else if (!strcmp(a, "--md") && v) md_path = v, i++;
    else if (!strcmp(a, "--only") && v) only = v, i++;
    else if (!strcmp(a, "--classes") && v) classes = v, i++;
    else if (!strcmp(a, "--budget") && v) budget = atof(v), i++;
    else if (!strcmp(a, "--repeats") && v) repeats = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--warmup-ms") && v) warmup_ms = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--sample") && v) sample = strtoull(v, NULL, 10), i++;
    else {
      fprintf(stderr, "usage: bench_mlp_grid [--write-nets FILE] [--anchor-results FILE] [--tsv FILE] [--md FILE]\n"
                      "                      [--budget S] [--only N,N..] [--classes vec,vec-opt,mat,loop] [--quick]\n"
                      "                      [--repeats N] [--warmup-ms MS] [--sample N]\n");
      return 2;
    }
  }
  if (!repeats) repeats = 1;
  const grid_net *nets = quick ? quick_grid : grid;
  const uint32_t nn = quick ? sizeof quick_grid / sizeof quick_grid[0] : sizeof grid / sizeof grid[0];
  bool want[C_COUNT] = {false};
  {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", classes);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      int c = 0;
      while (c < C_COUNT && strcmp(class_names[c], t)) c++;
      if (c == C_COUNT) return fprintf(stderr, "bench_mlp_grid: --classes: unknown class '%s'\n", t), 2;
      want[c] = true;
    }
  }
  char msg[1024], flags[512];
  if (nets_out) { /* the list for the anchor script: same networks, same point counts */
    FILE *f = fopen(nets_out, "w");
    if (!f) return fprintf(stderr, "bench_mlp_grid: cannot write %s\n", nets_out), 1;
    for (uint32_t i = 0; i < nn; i++) {
      spvgen_mlp_desc d = desc_of(&nets[i]);
      spvgen_mlp_config p;
      if (spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) != SPVGEN_OK)
        return fprintf(stderr, "bench_mlp_grid: %s: %s\n", nets[i].name, msg), 1;
      mlp_net_flags(&p.desc, flags, sizeof flags);
      fprintf(f, "%s\t%s\t%llu\n", nets[i].name, flags, (unsigned long long)points_of(&p, quick));
    }
    fclose(f);
    printf("bench_mlp_grid: %u networks written to %s\n", nn, nets_out);
    return 0;
  }
  spvgen_vk_context *ctx;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg);
  if (st != SPVGEN_OK) return fprintf(stderr, "bench_mlp_grid: %s\n", msg), st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  static anchor_row arows[256];
  uint32_t na = read_anchors(anchors, arows, 256);
  FILE *tsv = tsv_path ? fopen(tsv_path, "w") : NULL, *md = md_path ? fopen(md_path, "w") : NULL;
  if (tsv)
    fprintf(tsv, "vendor\tdevice\tdevice_name\tnet\tflags\tpoints\tflops\tencoded_width\thidden_width\tdepth\toutput_width"
                 "\tact_class\tencoding\tclass\tplan\tworkgroup_size\tpoints_per_group\tbias_add\tf16_acc\tgpts\ttflops\tms"
                 "\tcompile_ms\temit_us\twords\tcheck\testimate_ns\tmat_rows\n");
  if (md)
    fprintf(md, "| network | points | best: class, plan | G points/s | TFLOP/s | torch.compile G points/s | vs compile "
                "| vec | vec-opt | mat | loop | choice, row-major (of best row-major) | choice, weights auto (of best) |\n"
                "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
  printf("# bench_mlp_grid on %s (%s %s), %u networks, budget %.0f s\n", caps->name, caps->driver_name,
         caps->driver_info, nn, budget);
  double t0 = now_s();
  int failures = 0, under_half = 0, below5 = 0, measured = 0;
  for (uint32_t i = 0; i < nn; i++) {
    if (only) { /* "--only 3,5": those indices */
      char key[16];
      snprintf(key, sizeof key, ",%u,", i);
      char list[256];
      snprintf(list, sizeof list, ",%s,", only);
      if (!strstr(list, key)) continue;
    }
    const grid_net *g = &nets[i];
    if (now_s() - t0 > budget) {
      printf("skipped %s (budget)\n", g->name);
      continue;
    }
    spvgen_mlp_desc d = desc_of(g);
    spvgen_mlp_config base;
    if (spvgen_mlp_plan(&d, caps, &base, msg, sizeof msg) != SPVGEN_OK) {
      printf("net %s: %s\n", g->name, msg);
      failures++;
      continue;
    }
    uint64_t points = points_of(&base, quick);
    mlp_net_flags(&base.desc, flags, sizeof flags);
    printf("\nnet %u %s  [%s]  %llu points, %llu FLOP/point\n", i, g->name, flags, (unsigned long long)points,
           (unsigned long long)base.flops_per_point);
    mlp_run_options o;
    memset(&o, 0, sizeof o);
    o.points = points;
    o.seed = 1000 + i;
    o.warmup = 2;
    o.warmup_ms = quick ? 0 : warmup_ms;
    o.warmup_limit_ms = 80;
    o.repeats = repeats;
    o.sample = sample;
    mlp_run_options ol = o; /* loop: an eighth of the points, 3 repeats */
    ol.points = points / 8 > 1000 ? points / 8 : points;
    ol.repeats = repeats < 3 ? repeats : 3;
    mlp_session *sess = NULL, *sess_loop = NULL;
    enum { MAXR = 64 };
    mlp_run_result res[MAXR];
    int rcls[MAXR], nres = 0;
    double best_cls[C_COUNT] = {0};
    int best = -1, best_row = -1;
    for (int c = 0; c < C_COUNT; c++) {
      if (!want[c]) continue;
      spvgen_mlp_config plans[8];
      char why[512];
      uint32_t np = class_plans(caps, &d, c, quick, plans, 8, why, sizeof why);
      if (!np) {
        printf("  %-8s -  (%s)\n", class_names[c], why);
        continue;
      }
      for (uint32_t k = 0; k < np && nres < MAXR; k++) {
        mlp_session **sp = c == C_LOOP ? &sess_loop : &sess;
        if (!*sp && mlp_session_open(ctx, &plans[k], c == C_LOOP ? &ol : &o, sp, msg, sizeof msg) != SPVGEN_OK) {
          printf("  %-8s %s: %s\n", class_names[c], plans[k].name, msg);
          break;
        }
        mlp_run_result *r = &res[nres];
        if (mlp_session_run(*sp, &plans[k], r, msg, sizeof msg) != SPVGEN_OK) {
          printf("  %-8s %-56s -  (%s)\n", class_names[c], plans[k].name, msg);
          continue;
        }
        rcls[nres] = c;
        const spvgen_mlp_config *p = &r->plan;
        bool ok = !r->bad && r->points_per_s > 0;
        printf("  %-8s %-56s %9.3f G pts/s %8.2f TFLOP/s %9.3f ms  compile %7.1f ms  emit %6.1f us  %s\n",
               class_names[c], p->name, r->points_per_s / 1e9, r->tflops, r->median_ns / 1e6, r->compile_ms,
               r->emit_us, r->bad ? "FAIL" : "ok");
        if (r->bad) {
          failures++;
          printf("  FAIL %llu of %llu sampled outputs; point %llu component %llu: gpu %.7g cpu %.7g tol %.3g\n",
                 (unsigned long long)r->bad, (unsigned long long)r->checked, (unsigned long long)r->first_bad_point,
                 (unsigned long long)r->first_bad_component, r->first_bad_gpu, r->first_bad_ref, r->first_bad_tol);
        }
        if (tsv)
          fprintf(tsv, "%u\t%u\t%s\t%s\t%s\t%llu\t%llu\t%u\t%u\t%u\t%u\t%d\t%d\t%s\t%s\t%u\t%u\t%d\t%d\t%.5f\t%.3f\t%.5f\t%.2f\t%.2f\t%zu\t%s\t%.5g\t%d\n",
                  caps->vendor_id, caps->device_id, caps->name, g->name, flags,
                  (unsigned long long)(c == C_LOOP ? ol.points : points), (unsigned long long)p->flops_per_point,
                  p->encoded_width, g->width, g->depth, g->out, act_class(g->act), (int)g->enc, class_names[c], p->name,
                  p->desc.workgroup_size, p->desc.points_per_group, p->desc.bias_path == SPVGEN_MLP_BIAS_ADD,
                  (int)p->desc.f16_accumulation, r->points_per_s / 1e9, r->tflops, r->median_ns / 1e6, r->compile_ms,
                  r->emit_us, r->words, r->bad ? "fail" : "ok", p->estimated_ns_per_point, (int)p->desc.mat_rows);
        fflush(stdout);
        if (ok && r->points_per_s / 1e9 > best_cls[c]) best_cls[c] = r->points_per_s / 1e9;
        if (ok && (best < 0 || r->points_per_s > res[best].points_per_s)) best = nres;
        if (ok && c != C_VEC_OPT && (best_row < 0 || r->points_per_s > res[best_row].points_per_s)) best_row = nres;
        nres++;
      }
    }
    /* spvgen_mlp_plan's choices: row-major weights (the default), and weights auto */
    double ch_ratio[2] = {0, 0};
    char ch_name[2][200];
    for (int k = 0; k < 2; k++) {
      spvgen_mlp_desc e = d;
      e.weight_layout = k ? SPVGEN_MLP_WEIGHTS_AUTO : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      spvgen_mlp_config p;
      snprintf(ch_name[k], sizeof ch_name[k], "-");
      if (spvgen_mlp_plan(&e, caps, &p, msg, sizeof msg) != SPVGEN_OK) continue;
      double g1 = 0;
      for (int r2 = 0; r2 < nres; r2++)
        if (!strcmp(res[r2].plan.name, p.name) && !res[r2].bad) g1 = res[r2].points_per_s;
      if (g1 == 0) { /* not among the measured plans: measure it */
        mlp_session **sp = p.variant == SPVGEN_MLP_LOOP ? &sess_loop : &sess;
        mlp_run_result rr;
        if ((*sp || mlp_session_open(ctx, &p, p.variant == SPVGEN_MLP_LOOP ? &ol : &o, sp, msg, sizeof msg) == SPVGEN_OK) &&
            mlp_session_run(*sp, &p, &rr, msg, sizeof msg) == SPVGEN_OK && !rr.bad) {
          g1 = rr.points_per_s;
          printf("  %-8s %-56s %9.3f G pts/s %8.2f TFLOP/s %9.3f ms  compile %7.1f ms (the plan's choice)\n", "choice",
                 p.name, rr.points_per_s / 1e9, rr.tflops, rr.median_ns / 1e6, rr.compile_ms);
        }
      }
      int ref = k ? best : best_row;
      ch_ratio[k] = ref >= 0 && g1 > 0 ? g1 / res[ref].points_per_s : 0;
      snprintf(ch_name[k], sizeof ch_name[k], "%s [%s] %.2f", p.name, p.selection, ch_ratio[k]);
      printf("  choice   %-10s %s (%s): %.3f G pts/s, %.2f of the best%s\n", k ? "auto" : "row-major", p.name,
             p.selection, g1 / 1e9, ch_ratio[k], ch_ratio[k] > 0 && ch_ratio[k] < 0.5 ? "  UNDER HALF" : "");
      if (ch_ratio[k] > 0 && ch_ratio[k] < 0.5) under_half++;
    }
    double comp = 0, eager = 0;
    for (uint32_t a = 0; a < na; a++)
      if (!strcmp(arows[a].name, g->name)) comp = arows[a].compiled, eager = arows[a].eager;
    if (best >= 0) {
      const mlp_run_result *b = &res[best];
      measured++;
      double x = comp > 0 ? b->points_per_s / 1e9 / comp : 0;
      if (comp > 0 && x < 5) below5++;
      printf("  best     %s %s: %.3f G pts/s, %.2f TFLOP/s", class_names[rcls[best]], b->plan.name,
             b->points_per_s / 1e9, b->tflops);
      if (comp > 0) printf("; torch eager %.3f, torch.compile %.3f G pts/s: %.2fx compile", eager, comp, x);
      printf("\n");
      if (md) {
        char cc[32], cx[32];
        snprintf(cc, sizeof cc, comp > 0 ? "%.3f" : "-", comp);
        snprintf(cx, sizeof cx, comp > 0 ? "%.2fx" : "-", x);
        fprintf(md, "| %s | %llu | %s: %s | %.3f | %.1f | %s | %s |", g->name, (unsigned long long)points,
                class_names[rcls[best]], b->plan.name, b->points_per_s / 1e9, b->tflops, cc, cx);
        for (int c = 0; c < C_COUNT; c++) {
          if (best_cls[c] > 0) fprintf(md, " %.3f |", best_cls[c]);
          else fprintf(md, " - |");
        }
        fprintf(md, " %s | %s |\n", ch_name[0], ch_name[1]);
        fflush(md);
      }
    }
    mlp_session_close(sess);
    mlp_session_close(sess_loop);
  }
  printf("\n# %d networks measured in %.0f s; %d wrong plans; %d choices under half the best; %d networks under 5x "
         "torch.compile (of those with an anchor)\n",
         measured, now_s() - t0, failures, under_half, below5);
  if (tsv) fclose(tsv);
  if (md) fclose(md);
  spvgen_vk_destroy(ctx);
  return failures ? 1 : 0;
}
