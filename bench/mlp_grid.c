/* bench/mlp_grid.c — the fused MLP over a grid of networks (issue 28): input width 1-64,
 * hidden width 16-256, depth 1-8, output width 1-64, every activation, the three
 * encodings. For each network it measures every variant class (vec with row-major
 * weights, vec with the driver's optimal weights, mat, loop) over the plans worth trying
 * (class_plans: the knobs that won or came close on the first H100 grid, and for wide
 * networks the structure knobs vec_rows / vec_stage / layer_loop), and reports:
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
 * tools/gen_mlp_select.py turns into emitters/mlp/select_table.c (the variant choice and
 * the compile-time model).
 *
 * Two phases, so that a whole grid fits one GPU call:
 *   1. compile: --compile-threads threads (default: the cores less one), each with a
 *      Vulkan context of its own (spvgen/vk.h, "Threads"), create every plan's pipeline,
 *      longest estimated compile first (plan.compile_ms), each timed: the driver's first
 *      compile (the run's pipeline cache directory starts empty); each thread then saves
 *      its pipelines into that directory, one thread at a time (a save merges with the
 *      file). Plans estimated over --max-compile-ms are listed as skipped; the phase
 *      stops taking plans after --compile-budget seconds.
 *   2. measure: one context on the same cache directory runs the networks in order (its
 *      pipeline creates are cache hits), until --budget seconds from the start; the
 *      networks left are listed as skipped.
 *
 *   bench_mlp_grid --write-nets FILE           the networks, "NAME<TAB>FLAGS<TAB>POINTS"
 *   bench_mlp_grid [--anchor-results FILE] [--tsv FILE] [--md FILE] [--budget S]
 *                  [--compile-budget S] [--compile-threads N] [--max-compile-ms MS]
 *                  [--cache-dir DIR] [--only N,N..] [--classes vec,vec-opt,mat,loop,layers]
 *                  [--quick] [--repeats N] [--warmup-ms MS] [--sample N]
 *   bench_mlp_grid --plan-only h100 [--compile-threads N]   no device: the plans, their
 *                  estimated compiles and the compile phase's length on N threads
 *
 * Point counts: each network's kernels should run about 0.4 ms or more (shorter ones
 * measure the launch): the count is 0.4 ms at an optimistic rate (400 TFLOP/s, 3 TB/s of
 * points in and out, 200 G points/s), a power of two from 2^18 to 2^25; the host draws
 * at most 2^25 input values (64 MB of f16, past the L2) and the device buffer repeats
 * them (mlp_run_options.input_period). The loop class runs an eighth of the points.
 * --quick (tests on lavapipe) runs a few small networks on a few thousand points. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* layers (a GEMM per layer) only when --classes names it: its rows feed the selection
 * table's layers class (tools/gen_mlp_select.py), which AUTO takes only where measured. */
enum { C_VEC, C_VEC_OPT, C_MAT, C_LOOP, C_LAYERS, C_COUNT };
static const char *const class_names[C_COUNT] = {"vec", "vec-opt", "mat", "loop", "layers"};

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

/* About 0.4 ms at an optimistic rate (see the header), a power of two in [2^18, 2^25]. */
static uint64_t points_of(const spvgen_mlp_config *p, bool quick) {
  if (quick) return 3000;
  double io = 2.0 * (p->desc.input_width + p->desc.output_width);
  double rate = 400e12 / (double)p->flops_per_point;
  if (3e12 / io < rate) rate = 3e12 / io;
  if (200e9 < rate) rate = 200e9;
  double want = 0.4e-3 * rate;
  uint64_t n = 1ull << 18;
  while (n * 2 <= want && n < (1ull << 25)) n *= 2;
  return n;
}

/* ------------------------------------------------------------ the plans ---- */

typedef struct knobs {
  uint32_t wg, ppg, vec_rows, slab;
  bool stage, loop, f16acc, mat_rows;
} knobs;

/* The knobs worth trying per class, from the first H100 grid (136 plans of 11 networks):
 * vec row-major w64, w128; optimal w32, w128, w32 p2 (w64 was within 2 % of w32 or w128,
 * p4 won nowhere by more than 4 % and compiled 2-9x longer); mat its default, 64 points,
 * f16 accumulators, the rows arrangement (two subgroups and 64-point rows never won);
 * loop w64. Networks with a hidden layer of 128 or more take the structure knobs instead
 * of the second row-major size and p2 (pieces of 64 rows in registers, staging with and
 * without pieces); networks whose hidden layers can loop, the layer loop (alone, with
 * pieces, staged); deep wide ones (256 x 8: each unrolled plan is estimated at 10 s of
 * compile) keep one unrolled plan per layout and try the structures in the loop only. */
static uint32_t class_knobs(const spvgen_mlp_config *base, int cls, bool quick, knobs *out) {
  const spvgen_mlp_desc *d = &base->desc;
  uint32_t wmax = 0;
  bool same = d->hidden_count >= 3;
  for (uint32_t i = 0; i < d->hidden_count; i++) {
    if (d->hidden_widths[i] > wmax) wmax = d->hidden_widths[i];
    same &= d->hidden_widths[i] == d->hidden_widths[0];
  }
  const bool wide = wmax >= 128, loops = same, deep = same && d->hidden_count >= 5;
  uint32_t n = 0;
#define K(...) out[n++] = (knobs){__VA_ARGS__}
  switch (cls) {
  case C_VEC:
    K(.wg = 64, .ppg = 1);
    if (quick) break;
    if (!wide) K(.wg = 128, .ppg = 1);
    if (wide && !loops) K(.wg = 32, .ppg = 1, .vec_rows = 64, .stage = true);
    if (wide && loops) K(.wg = 32, .ppg = 1, .vec_rows = 64, .stage = true, .loop = true);
    break;
  case C_VEC_OPT:
    K(.wg = 32, .ppg = 1);
    if (quick) break;
    if (!wide) {
      K(.wg = 128, .ppg = 1);
      K(.wg = 32, .ppg = 2);
      if (deep) K(.wg = 32, .ppg = 1, .loop = true);
      break;
    }
    if (!deep) {
      K(.wg = 128, .ppg = 1);
      K(.wg = 32, .ppg = 1, .vec_rows = 64);
      K(.wg = 32, .ppg = 1, .stage = true);
      K(.wg = 32, .ppg = 1, .vec_rows = 64, .stage = true);
    }
    if (loops) {
      K(.wg = 32, .ppg = 1, .loop = true);
      K(.wg = 32, .ppg = 1, .vec_rows = 64, .stage = true, .loop = true);
    }
    if (deep) {
      K(.wg = 128, .ppg = 1, .loop = true);
      K(.wg = 32, .ppg = 1, .vec_rows = 64, .loop = true);
      K(.wg = 32, .ppg = 1, .stage = true, .loop = true);
    }
    break;
  case C_MAT:
    K(.wg = 0);
    if (quick) break;
    K(.ppg = 64);
    K(.f16acc = true);
    K(.mat_rows = true);
    /* the streamed form (mat_slab) where a layer is 64 wide or more: slabs of 16 and 32,
     * its default block (2 point fragments per subgroup where registers allow, else 1) */
    if (wmax >= 64) {
      K(.slab = 16);
      K(.slab = 32);
    }
    break;
  case C_LAYERS: K(.wg = 0); break; /* its GEMMs choose their tiles */
  default: K(.wg = 64); break;
  }
#undef K
  return n;
}

typedef struct grid_plan {
  uint32_t net;       /* index into the run's networks */
  int cls;            /* C_*, or -1: a choice of spvgen_mlp_plan that no class plan is */
  spvgen_mlp_config plan;
  bool skipped;       /* estimated compile over --max-compile-ms */
  int compiled;       /* phase 1: 0 not compiled, 1 compiled, -1 failed, 2 compiling */
  double compile_ms;  /* phase 1's first compile */
  double compile_t0;  /* phase 1: when its compile started (s) */
  char why[200];
} grid_plan;

typedef struct run_net {
  const grid_net *g;
  uint32_t index;     /* in the grid */
  spvgen_mlp_desc desc;
  spvgen_mlp_config base;
  uint64_t points;
  char flags[512];
  uint32_t first, count; /* its plans */
  spvgen_mlp_config choice[2]; /* row-major, weights auto */
  bool have_choice[2];
} run_net;

static int class_of(const spvgen_mlp_config *p) {
  return p->variant == SPVGEN_MLP_VEC ? (p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL ? C_VEC_OPT : C_VEC)
         : p->variant == SPVGEN_MLP_MAT    ? C_MAT
         : p->variant == SPVGEN_MLP_LAYERS ? C_LAYERS
                                           : C_LOOP;
}

/* The plans of a network: each class's, then the choices no class plan is. */
static uint32_t net_plans(const spvgen_device_caps *caps, run_net *rn, const bool *want, bool quick,
                          double max_compile_ms, grid_plan *out, uint32_t max) {
  uint32_t n = 0;
  char msg[512];
  for (int c = 0; c < C_COUNT; c++) {
    if (!want[c]) continue;
    knobs k[16];
    uint32_t nk = class_knobs(&rn->base, c, quick, k);
    bool any = false;
    for (uint32_t i = 0; i < nk && n < max; i++) {
      spvgen_mlp_desc e = rn->desc;
      e.weight_layout = c == C_VEC_OPT ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      e.variant = c == C_MAT      ? SPVGEN_MLP_MAT
                  : c == C_LOOP   ? SPVGEN_MLP_LOOP
                  : c == C_LAYERS ? SPVGEN_MLP_LAYERS
                                  : SPVGEN_MLP_VEC;
      e.workgroup_size = c == C_MAT && k[i].wg == 0 ? 0 : k[i].wg;
      e.points_per_group = k[i].ppg;
      e.vec_rows = k[i].vec_rows;
      e.vec_stage = k[i].stage;
      e.layer_loop = k[i].loop;
      e.f16_accumulation = k[i].f16acc;
      e.mat_rows = k[i].mat_rows;
      e.mat_slab = k[i].slab;
      e.compile_budget_ms = 600000; /* the grid measures what the knobs give */
      grid_plan *gp = &out[n];
      memset(gp, 0, sizeof *gp);
      if (spvgen_mlp_plan(&e, caps, &gp->plan, msg, sizeof msg) != SPVGEN_OK) {
        if (!any && i + 1 == nk) printf("  %-8s -  (%s)\n", class_names[c], msg);
        continue;
      }
      bool dup = false; /* a knob the plan resolved to one already listed */
      for (uint32_t j = 0; j < n; j++) dup |= out[j].cls == c && !strcmp(out[j].plan.name, gp->plan.name);
      if (dup) continue;
      gp->cls = c;
      gp->net = 0;
      gp->skipped = gp->plan.compile_ms > max_compile_ms;
      any = true;
      n++;
    }
  }
  /* spvgen_mlp_plan's choices: row-major weights (the default), and weights auto */
  for (int k = 0; k < 2; k++) {
    spvgen_mlp_desc e = rn->desc;
    e.weight_layout = k ? SPVGEN_MLP_WEIGHTS_AUTO : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    rn->have_choice[k] = spvgen_mlp_plan(&e, caps, &rn->choice[k], msg, sizeof msg) == SPVGEN_OK;
    if (!rn->have_choice[k] || n == max) continue;
    int c = class_of(&rn->choice[k]);
    if (!want[c]) continue;
    bool have = false;
    for (uint32_t j = 0; j < n; j++) have |= out[j].cls == c && !strcmp(out[j].plan.name, rn->choice[k].name);
    if (have) continue;
    memset(&out[n], 0, sizeof out[n]);
    out[n].plan = rn->choice[k];
    out[n].cls = c;
    out[n].skipped = rn->choice[k].compile_ms > max_compile_ms;
    n++;
  }
  return n;
}

/* ------------------------------------------------- phase 1: compiling ---- */

#define COMPILE_MAX_THREADS 64u

typedef struct compiler {
  grid_plan *plans;
  uint32_t *order, n, next;
  double deadline;
  const char *cache_dir;
  pthread_mutex_t lock, save_lock;
  uint32_t done, failed, finished; /* finished: worker threads that returned */
  double sum_ms;
  /* What each worker is doing (for the progress lines: S15-7 and S16-1 saw the phase
   * silent past its deadline with no plan in a compile) and since when. */
  const char *stage[COMPILE_MAX_THREADS];
  double stage_t0[COMPILE_MAX_THREADS];
} compiler;

typedef struct compile_thread {
  compiler *c;
  uint32_t index;
} compile_thread;

static void set_stage(compiler *c, uint32_t t, const char *what) {
  pthread_mutex_lock(&c->lock);
  c->stage[t] = what;
  c->stage_t0[t] = now_s();
  pthread_mutex_unlock(&c->lock);
}

static void *compile_worker(void *arg) {
  compiler *c = ((compile_thread *)arg)->c;
  const uint32_t self = ((compile_thread *)arg)->index;
  spvgen_vk_desc vd;
  memset(&vd, 0, sizeof vd);
  vd.cache_dir = c->cache_dir;
  spvgen_vk_context *ctx = NULL;
  char msg[1024];
  set_stage(c, self, "creating its context");
  if (spvgen_vk_create(&vd, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    pthread_mutex_lock(&c->lock);
    printf("# compile thread: no context: %s\n", msg);
    c->stage[self] = "done";
    c->finished++; /* the phase waits for every thread it started */
    pthread_mutex_unlock(&c->lock);
    return NULL;
  }
  set_stage(c, self, "compiling");
  for (;;) {
    pthread_mutex_lock(&c->lock);
    uint32_t i = c->next < c->n && now_s() < c->deadline ? c->order[c->next++] : UINT32_MAX;
    pthread_mutex_unlock(&c->lock);
    if (i == UINT32_MAX) break;
    grid_plan *gp = &c->plans[i];
    pthread_mutex_lock(&c->lock);
    gp->compiled = 2;
    gp->compile_t0 = now_s();
    pthread_mutex_unlock(&c->lock);
    double ms = 0;
    spvgen_status st = mlp_compile_plan(ctx, &gp->plan, &ms, msg, sizeof msg);
    pthread_mutex_lock(&c->lock);
    gp->compiled = st == SPVGEN_OK ? 1 : -1;
    gp->compile_ms = ms;
    if (st != SPVGEN_OK) snprintf(gp->why, sizeof gp->why, "%.190s", msg);
    c->done++;
    c->failed += st != SPVGEN_OK;
    c->sum_ms += ms;
    pthread_mutex_unlock(&c->lock);
  }
  /* The pipelines into the cache file: one save at a time (each merges with the file). */
  set_stage(c, self, "waiting to save the pipeline cache");
  pthread_mutex_lock(&c->save_lock);
  set_stage(c, self, "saving the pipeline cache");
  if (spvgen_vk_kernel_cache_save(ctx) != SPVGEN_OK) printf("# compile thread: %s\n", spvgen_vk_error(ctx));
  pthread_mutex_unlock(&c->save_lock);
  set_stage(c, self, "destroying its context");
  spvgen_vk_destroy(ctx);
  pthread_mutex_lock(&c->lock);
  c->stage[self] = "done";
  c->finished++;
  pthread_mutex_unlock(&c->lock);
  return NULL;
}

/* The compile order: plans estimated over 2 s first, longest first (they set the phase's
 * length), then the others in the networks' order (a phase cut short leaves the last
 * networks, which the measuring phase reaches last, to compile there). */
static int by_estimate(const void *a, const void *b, void *plans) {
  const grid_plan *p = plans, *x = &p[*(const uint32_t *)a], *y = &p[*(const uint32_t *)b];
  bool lx = x->plan.compile_ms > 2000, ly = y->plan.compile_ms > 2000;
  if (lx != ly) return lx ? -1 : 1;
  if (lx) return x->plan.compile_ms > y->plan.compile_ms ? -1 : x->plan.compile_ms < y->plan.compile_ms;
  return x->net < y->net ? -1 : x->net > y->net;
}

/* qsort_r is not C11: an insertion sort of the job order. */
static void sort_jobs(uint32_t *order, uint32_t n, grid_plan *plans) {
  for (uint32_t i = 1; i < n; i++)
    for (uint32_t j = i; j > 0 && by_estimate(&order[j], &order[j - 1], plans) < 0; j--) {
      uint32_t t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
}

static void precompile(grid_plan *plans, uint32_t n, uint32_t threads, double seconds, const char *cache_dir) {
  compiler c;
  memset(&c, 0, sizeof c);
  c.plans = plans;
  c.order = malloc(sizeof *c.order * (n ? n : 1));
  if (!c.order) return;
  for (uint32_t i = 0; i < n; i++)
    if (!plans[i].skipped) c.order[c.n++] = i;
  sort_jobs(c.order, c.n, plans);
  double t0 = now_s();
  c.deadline = t0 + seconds;
  c.cache_dir = cache_dir;
  pthread_mutex_init(&c.lock, NULL);
  pthread_mutex_init(&c.save_lock, NULL);
  if (threads > COMPILE_MAX_THREADS) threads = COMPILE_MAX_THREADS;
  pthread_t *th = calloc(threads, sizeof *th);
  compile_thread *ct = calloc(threads, sizeof *ct);
  uint32_t started = 0;
  for (uint32_t t = 0; th && ct && t < threads; t++) {
    ct[t].c = &c;
    ct[t].index = t;
    c.stage[t] = "starting";
    c.stage_t0[t] = t0;
    if (pthread_create(&th[t], NULL, compile_worker, &ct[t]) == 0) started++;
    else break;
  }
  /* Past the phase's deadline, every 30 s: the plans still in the driver's compile (one
   * that never returns holds the run here: call S15-7's layers plans). */
  double reported = c.deadline;
  for (;;) {
    pthread_mutex_lock(&c.lock);
    const bool all = c.finished >= started;
    if (!all && now_s() - reported >= 30.0) {
      reported = now_s();
      for (uint32_t i = 0; i < n; i++)
        if (plans[i].compiled == 2)
          printf("# compile phase: %.0f s past its deadline, still compiling (%.0f s): %s\n", reported - c.deadline,
                 reported - plans[i].compile_t0, plans[i].plan.name);
      for (uint32_t t = 0; t < started; t++)
        if (strcmp(c.stage[t], "done") && strcmp(c.stage[t], "compiling"))
          printf("# compile phase: %.0f s past its deadline, thread %u %s (%.0f s)\n", reported - c.deadline, t,
                 c.stage[t], reported - c.stage_t0[t]);
      fflush(stdout);
    }
    pthread_mutex_unlock(&c.lock);
    if (all) break;
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  for (uint32_t t = 0; t < started; t++) pthread_join(th[t], NULL);
  double wall = now_s() - t0;
  printf("# compile phase: %u of %u plans in %.1f s on %u threads (%u failed; %.1f s of compiles: %.1fx parallel)\n",
         c.done, c.n, wall, started, c.failed, c.sum_ms / 1e3, wall > 0 ? c.sum_ms / 1e3 / wall : 0);
  fflush(stdout);
  free(th);
  free(ct);
  free(c.order);
  pthread_mutex_destroy(&c.lock);
  pthread_mutex_destroy(&c.save_lock);
}

/* -------------------------------------------------------------- anchors ---- */

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

/* A fresh cache directory under /tmp (the compiles are first ones), removed at the end. */
static bool make_cache_dir(char *dir, size_t size) {
  snprintf(dir, size, "/tmp/spvgen-grid-XXXXXX");
  return mkdtemp(dir) != NULL;
}

static void remove_cache_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char path[1200];
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      remove(path);
    }
  closedir(d);
  rmdir(dir);
}

/* ------------------------------------------------ phase 2: measuring ---- */

typedef struct grid_run {
  spvgen_vk_context *ctx;
  const spvgen_device_caps *caps;
  grid_plan *plans;
  anchor_row *anchors;
  uint32_t nanchors;
  FILE *tsv, *md;
  bool quick;
  bool layers; /* the layers class is measured: its own column */
  uint32_t repeats, warmup_ms;
  uint64_t sample;
  int failures, under_half, below5, measured;
} grid_run;

typedef struct net_result {
  mlp_run_result r;
  int cls;
  bool ok;
} net_result;

static void tsv_row(grid_run *G, const run_net *rn, const grid_plan *gp, const mlp_run_result *r, uint64_t points,
                    double cached_ms) {
  if (!G->tsv) return;
  const spvgen_mlp_config *p = &r->plan;
  const grid_net *g = rn->g;
  /* compile_ms: phase 1's first compile, else the session's when it was a first one */
  double cms = gp->compiled == 1 ? gp->compile_ms : r->compile_ms > 0 ? r->compile_ms : 0;
  int cold = gp->compiled == 1 || (gp->compiled == 0 && r->compile_ms > 0);
  fprintf(G->tsv,
          "%u\t%u\t%s\t%s\t%s\t%llu\t%llu\t%u\t%u\t%u\t%u\t%d\t%d\t%s\t%s\t%u\t%u\t%d\t%d\t%.5f\t%.3f\t%.5f\t%.2f\t%.2f\t%zu"
          "\t%s\t%.5g\t%d\t%u\t%d\t%d\t%d\t%u\t%.2f\t%s\t%u\n",
          G->caps->vendor_id, G->caps->device_id, G->caps->name, g->name, rn->flags, (unsigned long long)points,
          (unsigned long long)p->flops_per_point, p->encoded_width, g->width, g->depth, g->out, act_class(g->act),
          (int)g->enc, class_names[gp->cls], p->name, p->desc.workgroup_size, p->desc.points_per_group,
          p->desc.bias_path == SPVGEN_MLP_BIAS_ADD, (int)p->desc.f16_accumulation, r->points_per_s / 1e9, r->tflops,
          r->median_ns / 1e6, cms, r->emit_us, r->words, r->bad ? "fail" : "ok", p->estimated_ns_per_point,
          (int)p->desc.mat_rows, p->desc.vec_rows, (int)p->desc.vec_stage, (int)p->desc.layer_loop, cold,
          p->compile_ms, cached_ms, p->selection, p->desc.mat_slab);
  fflush(G->tsv);
}

/* One network: its sessions, every plan, the choices' audit, the best against torch. */
static void measure_net(grid_run *G, run_net *rn, uint32_t index) {
  char msg[1024];
  const grid_net *g = rn->g;
  double t_net = now_s();
  printf("\nnet %u %s  [%s]  %llu points, %llu FLOP/point\n", rn->index, g->name, rn->flags,
         (unsigned long long)rn->points, (unsigned long long)rn->base.flops_per_point);
  mlp_run_options o;
  memset(&o, 0, sizeof o);
  o.points = rn->points;
  o.seed = 1000 + rn->index;
  o.warmup = 2;
  o.warmup_ms = G->quick ? 0 : G->warmup_ms;
  o.warmup_limit_ms = 3 * G->warmup_ms;
  o.repeats = G->repeats;
  o.sample = G->sample;
  o.emit_ms = 2;
  /* At most 2^25 input values drawn: 64 MB of f16, more than the L2 holds. */
  uint64_t values = 1ull << 25;
  o.input_period = values / rn->desc.input_width;
  mlp_run_options ol = o; /* loop: an eighth of the points, 3 repeats */
  ol.points = o.points / 8 > 1000 ? o.points / 8 : o.points;
  ol.repeats = o.repeats < 3 ? o.repeats : 3;
  mlp_session *sess = NULL, *sess_loop = NULL;
  enum { MAXR = 64 };
  static net_result res[MAXR];
  int nres = 0, best = -1, best_row = -1;
  double best_cls[C_COUNT] = {0}, t_open = 0;
  (void)index;
  for (uint32_t k = 0; k < rn->count && nres < MAXR; k++) {
    grid_plan *gp = &G->plans[rn->first + k];
    const spvgen_mlp_config *p = &gp->plan;
    const char *cn = gp->cls >= 0 ? class_names[gp->cls] : "choice";
    if (gp->skipped) {
      printf("  %-8s %-60s -  (skipped: compile estimated at %u ms)\n", cn, p->name, p->compile_ms);
      continue;
    }
    if (gp->compiled < 0) {
      printf("  %-8s %-60s -  (compile: %s)\n", cn, p->name, gp->why);
      G->failures++;
      continue;
    }
    const bool loop = p->variant == SPVGEN_MLP_LOOP;
    mlp_session **sp = loop ? &sess_loop : &sess;
    double t0 = now_s();
    if (!*sp && mlp_session_open(G->ctx, p, loop ? &ol : &o, sp, msg, sizeof msg) != SPVGEN_OK) {
      printf("  %-8s %s: %s\n", cn, p->name, msg);
      continue;
    }
    t_open += now_s() - t0;
    net_result *nr = &res[nres];
    mlp_run_result *r = &nr->r;
    double t_run = now_s();
    if (mlp_session_run(*sp, p, r, msg, sizeof msg) != SPVGEN_OK) {
      printf("  %-8s %-60s -  (%s)\n", cn, p->name, msg);
      continue;
    }
    t_run = now_s() - t_run;
    nr->cls = gp->cls;
    nr->ok = !r->bad && r->points_per_s > 0;
    double cms = gp->compiled == 1 ? gp->compile_ms : r->compile_ms;
    printf("  %-8s %-60s %9.3f G pts/s %8.2f TFLOP/s %9.4f ms  compile %8.1f ms (est %6u)  emit %6.1f us  %.2f s  %s\n",
           cn, p->name, r->points_per_s / 1e9, r->tflops, r->median_ns / 1e6, cms, p->compile_ms, r->emit_us, t_run,
           r->bad ? "FAIL" : "ok");
    if (r->bad) {
      G->failures++;
      printf("  FAIL %llu of %llu sampled outputs; point %llu component %llu: gpu %.7g cpu %.7g tol %.3g\n",
             (unsigned long long)r->bad, (unsigned long long)r->checked, (unsigned long long)r->first_bad_point,
             (unsigned long long)r->first_bad_component, r->first_bad_gpu, r->first_bad_ref, r->first_bad_tol);
    }
    tsv_row(G, rn, gp, r, loop ? ol.points : o.points, gp->compiled == 1 ? r->compile_ms : -1);
    fflush(stdout);
    if (nr->ok && r->points_per_s / 1e9 > best_cls[gp->cls]) best_cls[gp->cls] = r->points_per_s / 1e9;
    if (nr->ok && (best < 0 || r->points_per_s > res[best].r.points_per_s)) best = nres;
    if (nr->ok && gp->cls != C_VEC_OPT && (best_row < 0 || r->points_per_s > res[best_row].r.points_per_s))
      best_row = nres;
    nres++;
  }
  /* spvgen_mlp_plan's choices against the best: row-major weights (the default), auto */
  double ch_ratio[2] = {0, 0};
  char ch_name[2][200];
  for (int k = 0; k < 2; k++) {
    snprintf(ch_name[k], sizeof ch_name[k], "-");
    if (!rn->have_choice[k]) continue;
    const spvgen_mlp_config *p = &rn->choice[k];
    double g1 = 0;
    for (int i = 0; i < nres; i++)
      if (!strcmp(res[i].r.plan.name, p->name) && res[i].ok) g1 = res[i].r.points_per_s;
    int ref = k ? best : best_row;
    ch_ratio[k] = ref >= 0 && g1 > 0 ? g1 / res[ref].r.points_per_s : 0;
    snprintf(ch_name[k], sizeof ch_name[k], "%s [%s, %u ms] %.2f", p->name, p->selection, p->compile_ms, ch_ratio[k]);
    printf("  choice   %-10s %s (%s, compile est %u ms): %.3f G pts/s, %.2f of the best%s\n", k ? "auto" : "row-major",
           p->name, p->selection, p->compile_ms, g1 / 1e9, ch_ratio[k],
           ch_ratio[k] > 0 && ch_ratio[k] < 0.5 ? "  UNDER HALF" : g1 == 0 ? "  (not measured)" : "");
    if (ch_ratio[k] > 0 && ch_ratio[k] < 0.5) G->under_half++;
  }
  double comp = 0, eager = 0;
  for (uint32_t a = 0; a < G->nanchors; a++)
    if (!strcmp(G->anchors[a].name, g->name)) comp = G->anchors[a].compiled, eager = G->anchors[a].eager;
  if (best >= 0) {
    const mlp_run_result *b = &res[best].r;
    G->measured++;
    double x = comp > 0 ? b->points_per_s / 1e9 / comp : 0;
    if (comp > 0 && x < 5) G->below5++;
    printf("  best     %s %s: %.3f G pts/s, %.2f TFLOP/s", class_names[res[best].cls], b->plan.name,
           b->points_per_s / 1e9, b->tflops);
    if (comp > 0) printf("; torch eager %.3f, torch.compile %.3f G pts/s: %.2fx compile", eager, comp, x);
    printf("\n");
    if (G->md) {
      char ce[32], cc[32], cx[32];
      snprintf(ce, sizeof ce, eager > 0 ? "%.3f" : "-", eager);
      snprintf(cc, sizeof cc, comp > 0 ? "%.3f" : "-", comp);
      snprintf(cx, sizeof cx, comp > 0 ? "%.2fx" : "-", x);
      fprintf(G->md, "| %s | %llu | %s: %s | %.3f | %.1f | %s | %s | %s |", g->name, (unsigned long long)rn->points,
              class_names[res[best].cls], b->plan.name, b->points_per_s / 1e9, b->tflops, ce, cc, cx);
      for (int c = 0; c < (G->layers ? C_COUNT : C_LAYERS); c++) {
        if (best_cls[c] > 0) fprintf(G->md, " %.3f |", best_cls[c]);
        else fprintf(G->md, " - |");
      }
      fprintf(G->md, " %s | %s |\n", ch_name[0], ch_name[1]);
      fflush(G->md);
    }
  }
  printf("  time     %.2f s (sessions %.2f s)\n", now_s() - t_net, t_open);
  mlp_session_close(sess);
  mlp_session_close(sess_loop);
}

static bool listed(const char *only, uint32_t i) { /* "--only 3,5": those indices */
  if (!only) return true;
  char key[16], list[512];
  snprintf(key, sizeof key, ",%u,", i);
  snprintf(list, sizeof list, ",%s,", only);
  return strstr(list, key) != NULL;
}

/* --plan-only: every network's plans for a caps preset, their estimated compiles, and
 * the compile phase's length on `threads` threads (longest first onto the least loaded). */
static int plan_report(const spvgen_device_caps *caps, const grid_net *nets, uint32_t nn, const char *only,
                       const bool *want, bool quick, double max_compile_ms, uint32_t threads) {
  enum { MAXP = 64 };
  static grid_plan plans[MAXP];
  double load[256] = {0}, total = 0, skipped_ms = 0;
  uint32_t all = 0, skipped = 0;
  static uint32_t est[4096];
  uint32_t ne = 0;
  if (threads > 256) threads = 256;
  if (!threads) threads = 1;
  for (uint32_t i = 0; i < nn; i++) {
    if (!listed(only, i)) continue;
    run_net rn;
    memset(&rn, 0, sizeof rn);
    rn.g = &nets[i];
    rn.desc = desc_of(&nets[i]);
    char msg[512];
    if (spvgen_mlp_plan(&rn.desc, caps, &rn.base, msg, sizeof msg) != SPVGEN_OK) {
      printf("net %s: %s\n", nets[i].name, msg);
      continue;
    }
    uint32_t n = net_plans(caps, &rn, want, quick, max_compile_ms, plans, MAXP);
    double net_ms = 0;
    for (uint32_t k = 0; k < n; k++) {
      if (plans[k].skipped) {
        skipped++;
        skipped_ms += plans[k].plan.compile_ms;
        continue;
      }
      net_ms += plans[k].plan.compile_ms;
      if (ne < 4096) est[ne++] = plans[k].plan.compile_ms;
    }
    all += n;
    total += net_ms;
    printf("%-24s %8llu points %2u plans, compile est %7.0f ms; choices: %s [%s, %u ms] | %s [%s, %u ms]\n",
           nets[i].name, (unsigned long long)points_of(&rn.base, quick), n, net_ms,
           rn.have_choice[0] ? rn.choice[0].name : "-", rn.have_choice[0] ? rn.choice[0].selection : "",
           rn.choice[0].compile_ms, rn.have_choice[1] ? rn.choice[1].name : "-",
           rn.have_choice[1] ? rn.choice[1].selection : "", rn.choice[1].compile_ms);
    for (uint32_t k = 0; k < n; k++)
      if (plans[k].plan.compile_ms > 2000)
        printf("    %-8s %-60s est %6u ms%s\n", plans[k].cls >= 0 ? class_names[plans[k].cls] : "choice",
               plans[k].plan.name, plans[k].plan.compile_ms, plans[k].skipped ? " (skipped)" : "");
  }
  for (uint32_t i = 1; i < ne; i++) /* longest first */
    for (uint32_t j = i; j > 0 && est[j] > est[j - 1]; j--) {
      uint32_t t = est[j];
      est[j] = est[j - 1];
      est[j - 1] = t;
    }
  for (uint32_t i = 0; i < ne; i++) {
    uint32_t m = 0;
    for (uint32_t t = 1; t < threads; t++)
      if (load[t] < load[m]) m = t;
    load[m] += est[i];
  }
  double span = 0;
  for (uint32_t t = 0; t < threads; t++)
    if (load[t] > span) span = load[t];
  printf("# %u plans (%u skipped, %.0f s of their estimates); %.0f s of estimated compiles, %.0f s on %u threads\n",
         all, skipped, skipped_ms / 1e3, total / 1e3, span / 1e3, threads);
  return 0;
}

static void usage(void) {
  fprintf(stderr, "usage: bench_mlp_grid [--write-nets FILE] [--anchor-results FILE] [--tsv FILE] [--md FILE]\n"
                  "                      [--budget S] [--compile-budget S] [--compile-threads N]\n"
                  "                      [--max-compile-ms MS] [--cache-dir DIR] [--only N,N..]\n"
                  "                      [--classes vec,vec-opt,mat,loop,layers] [--quick] [--repeats N]\n"
                  "                      [--warmup-ms MS] [--sample N] [--plan-only PRESET]\n");
}

int main(int argc, char **argv) {
  /* Line by line into a file too: a run killed by its time limit (a driver compile that did
   * not return, call S15-7) keeps every line it printed. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *nets_out = NULL, *anchors = NULL, *tsv_path = NULL, *md_path = NULL, *only = NULL, *cache_arg = NULL;
  const char *classes = "vec,vec-opt,mat,loop", *plan_only = NULL;
  double budget = 300, compile_budget = 120, max_compile_ms = 25000;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  uint32_t threads = ncpu > 1 ? (uint32_t)(ncpu - 1) : 1;
  bool quick = false;
  uint32_t repeats = 7, warmup_ms = 20;
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
    else if (!strcmp(a, "--compile-budget") && v) compile_budget = atof(v), i++;
    else if (!strcmp(a, "--compile-threads") && v) threads = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--max-compile-ms") && v) max_compile_ms = atof(v), i++;
    else if (!strcmp(a, "--cache-dir") && v) cache_arg = v, i++;
    else if (!strcmp(a, "--repeats") && v) repeats = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--warmup-ms") && v) warmup_ms = (uint32_t)atoi(v), i++;
    else if (!strcmp(a, "--sample") && v) sample = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--plan-only") && v) plan_only = v, i++;
    else return usage(), 2;
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
  char msg[1024];
  if (nets_out) { /* the list for the anchor script: same networks, same point counts */
    FILE *f = fopen(nets_out, "w");
    if (!f) return fprintf(stderr, "bench_mlp_grid: cannot write %s\n", nets_out), 1;
    for (uint32_t i = 0; i < nn; i++) {
      if (!listed(only, i)) continue;
      spvgen_mlp_desc d = desc_of(&nets[i]);
      spvgen_mlp_config p;
      char flags[512];
      if (spvgen_mlp_plan(&d, NULL, &p, msg, sizeof msg) != SPVGEN_OK)
        return fprintf(stderr, "bench_mlp_grid: %s: %s\n", nets[i].name, msg), 1;
      mlp_net_flags(&p.desc, flags, sizeof flags);
      fprintf(f, "%s\t%s\t%llu\n", nets[i].name, flags, (unsigned long long)points_of(&p, quick));
    }
    fclose(f);
    printf("bench_mlp_grid: %u networks written to %s\n", nn, nets_out);
    return 0;
  }
  if (plan_only) { /* no device: the plans and their estimated compiles for a preset */
    static spvgen_device_caps pc;
    if (spvgen_caps_preset(plan_only, &pc) != SPVGEN_OK)
      return fprintf(stderr, "bench_mlp_grid: --plan-only: no preset '%s'\n", plan_only), 2;
    return plan_report(&pc, nets, nn, only, want, quick, max_compile_ms, threads);
  }
  const double t0 = now_s();
  char cache_dir[1024];
  bool own_dir = !cache_arg;
  if (cache_arg) snprintf(cache_dir, sizeof cache_dir, "%s", cache_arg);
  else if (!make_cache_dir(cache_dir, sizeof cache_dir)) return fprintf(stderr, "bench_mlp_grid: no cache directory\n"), 1;
  spvgen_vk_desc vd;
  memset(&vd, 0, sizeof vd);
  vd.cache_dir = cache_dir;
  /* The caps for planning: a first context (closed before the compile threads start, so
   * that the measuring context is created after their saves and reads them all). */
  spvgen_vk_context *ctx;
  spvgen_status st = spvgen_vk_create(&vd, &ctx, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    if (own_dir) remove_cache_dir(cache_dir);
    return fprintf(stderr, "bench_mlp_grid: %s\n", msg), st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
  }
  static spvgen_device_caps caps;
  caps = *spvgen_vk_caps(ctx);
  spvgen_vk_destroy(ctx);
  printf("# bench_mlp_grid on %s (%s %s), %u networks, budget %.0f s (compile %.0f s on %u threads)\n", caps.name,
         caps.driver_name, caps.driver_info, nn, budget, compile_budget, threads);
  /* Every network's plans. */
  enum { MAX_PLANS = 4096 };
  static grid_plan plans[MAX_PLANS];
  static run_net rnets[256];
  uint32_t np = 0, nr = 0;
  for (uint32_t i = 0; i < nn && nr < 256; i++) {
    if (!listed(only, i)) continue;
    run_net *rn = &rnets[nr];
    memset(rn, 0, sizeof *rn);
    rn->g = &nets[i];
    rn->index = i;
    rn->desc = desc_of(&nets[i]);
    if (spvgen_mlp_plan(&rn->desc, &caps, &rn->base, msg, sizeof msg) != SPVGEN_OK) {
      printf("net %s: %s\n", nets[i].name, msg);
      continue;
    }
    rn->points = points_of(&rn->base, quick);
    mlp_net_flags(&rn->base.desc, rn->flags, sizeof rn->flags);
    rn->first = np;
    rn->count = net_plans(&caps, rn, want, quick, max_compile_ms, &plans[np], MAX_PLANS - np);
    for (uint32_t k = 0; k < rn->count; k++) plans[np + k].net = nr;
    np += rn->count;
    nr++;
  }
  uint32_t skipped = 0;
  for (uint32_t i = 0; i < np; i++) skipped += plans[i].skipped;
  printf("# %u plans of %u networks (%u estimated over %.0f ms of compile: skipped)\n", np, nr, skipped, max_compile_ms);
  if (threads) precompile(plans, np, threads, compile_budget < budget ? compile_budget : budget, cache_dir);
  st = spvgen_vk_create(&vd, &ctx, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    if (own_dir) remove_cache_dir(cache_dir);
    return fprintf(stderr, "bench_mlp_grid: %s\n", msg), 1;
  }
  { /* the compile phase's pipelines, as the measuring context found them */
    spvgen_vk_kernel_cache_stats cs;
    spvgen_vk_kernel_cache_stats_get(ctx, &cs);
    printf("# measuring context: %llu bytes of pipeline cache read from %s%s%s\n",
           (unsigned long long)cs.disk_bytes_read, cs.path[0] ? cs.path : "(no disk cache)",
           cs.notice[0] ? "; " : "", cs.notice);
  }
  static anchor_row arows[256];
  grid_run G;
  memset(&G, 0, sizeof G);
  G.ctx = ctx;
  G.caps = spvgen_vk_caps(ctx);
  G.plans = plans;
  G.anchors = arows;
  G.nanchors = read_anchors(anchors, arows, 256);
  G.quick = quick;
  G.layers = want[C_LAYERS];
  G.repeats = repeats;
  G.warmup_ms = warmup_ms;
  G.sample = sample;
  G.tsv = tsv_path ? fopen(tsv_path, "w") : NULL;
  G.md = md_path ? fopen(md_path, "w") : NULL;
  if (G.tsv)
    fprintf(G.tsv, "vendor\tdevice\tdevice_name\tnet\tflags\tpoints\tflops\tencoded_width\thidden_width\tdepth\toutput_width"
                   "\tact_class\tencoding\tclass\tplan\tworkgroup_size\tpoints_per_group\tbias_add\tf16_acc\tgpts\ttflops\tms"
                   "\tcompile_ms\temit_us\twords\tcheck\testimate_ns\tmat_rows\tvec_rows\tvec_stage\tlayer_loop"
                   "\tcompile_cold\tcompile_est_ms\tcached_ms\tselection\tmat_slab\n");
  if (G.md)
    fprintf(G.md, "| network | points | best: class, plan | G points/s | TFLOP/s | torch eager G points/s "
                  "| torch.compile G points/s | vs compile | vec | vec-opt | mat | loop%s "
                  "| choice, row-major [selection, compile estimate] (of best row-major) "
                  "| choice, weights auto (of best) |\n"
                  "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|%s---|---|\n",
            G.layers ? " | layers" : "", G.layers ? "---:|" : "");
  /* The clocks up before the first figure: a second of the first network's first plan. */
  if (!quick && nr && rnets[0].count) {
    mlp_run_options o;
    memset(&o, 0, sizeof o);
    o.points = rnets[0].points;
    o.warmup_ms = 1000;
    o.warmup_limit_ms = 1500;
    o.repeats = 1;
    o.no_check = true;
    o.input_period = 1 << 20;
    mlp_run_result r;
    if (mlp_run_plan(ctx, &plans[rnets[0].first].plan, &o, &r, msg, sizeof msg) != SPVGEN_OK)
      printf("# warm-up: %s\n", msg);
  }
  uint32_t measured_nets = 0;
  for (uint32_t i = 0; i < nr; i++) {
    if (now_s() - t0 > budget) {
      printf("skipped %s (budget)\n", rnets[i].g->name);
      continue;
    }
    measure_net(&G, &rnets[i], i);
    measured_nets++;
  }
  printf("\n# %d networks measured in %.0f s; %d wrong or failed plans; %d choices under half the best; %d networks "
         "under 5x torch.compile (of those with an anchor)\n",
         G.measured, now_s() - t0, G.failures, G.under_half, G.below5);
  if (G.tsv) fclose(G.tsv);
  if (G.md) fclose(G.md);
  spvgen_vk_destroy(ctx);
  if (own_dir) remove_cache_dir(cache_dir);
  (void)measured_nets;
  return G.failures ? 1 : 0;
}
