/* bench/mlp_hashgrid.c — the multiresolution hash grid fused into the MLP (spvgen/mlp.h,
 * SPVGEN_MLP_ENCODING_HASH_GRID): inference points/s of each variant class and training
 * samples/s (gradient + optimizer kernels: the table's gradient by atomics, Adam on the
 * table) on two Instant-NGP-style networks, next to a torch implementation of the same
 * encoding and network (bench/anchors/mlp_anchor_net.py: eager and torch.compile, same
 * points and batch, in the same run):
 *   ngp32:  3-D points, tiny-cuda-nn's default grid (16 levels x 2 features, 2^19 entries,
 *           base resolution 16, per-level scale 2: a 32-value encoding) -> 64x2 -> 16, relu
 *   ngp128: the same with 8 features per level (a 128-value encoding), scale 1.5: the
 *           shape of tiny-cuda-nn's public figure (64-wide network, 128-value input
 *           encoding: about 1.1 G evaluations/s inference, 0.2 G/s training, RTX 3090).
 * Inference: --points (default 2^22) points in [0, 1)^3, each class's default plan, --sample
 * points checked against the float64 reference. Training: batches of --batch (default
 * 2^18), mat and loop (the vec variant's training has no hash grid), each with the f32
 * and the f16 table gradient (desc.grid_gradient; f16 where the device has
 * shaderFloat16VectorAtomics, else the row says why not), each first checked for one
 * step of 4096 points on the same network with a 2^14 table (every gradient, the table's
 * included, and every optimizer value against float64), then --steps timed steps. A
 * training row gives both kernels' times, the optimizer's as GB/s of what Adam moves
 * (34 bytes a table element with an f32 gradient, 30 with f16, plus the network's slot
 * reads) and its time alone (the same dispatches back to back, no gradient kernel between).
 * spvgen's rows are measured first and the torch references after them, under a hard
 * time cap (--anchor-cap S seconds, half for inference and half for training, default
 * 40; --anchor-reps R timed repetitions, default 5; eager modes before compiled ones):
 * torch.compile of the hash grid's gathers can take minutes cold, and a reference that
 * does not come within the cap leaves its column empty, not the benchmark's own rows.
 *
 * The mat training rows' knobs (an A/B in one run): --spread LIST (desc.grid_spread,
 * comma-separated names: auto, level-loop, flat, flat-by-point; default auto) and
 * --groups LIST (grad_workgroups; default 256), every combination with both table
 * gradients; --train-only skips the inference rows, --mat-only the loop variant's
 * training rows, --nets ngp32|ngp128 runs one network.
 *
 *   bench_mlp_hashgrid [--points N] [--batch N] [--steps S] [--sample N]
 *                      [--anchor bench/anchors/mlp_anchor_net.py] [--anchor-cap S]
 *                      [--anchor-reps R] [--spread LIST] [--groups LIST] [--train-only]
 *                      [--mat-only] [--nets NAME] [--quick] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlp_run.h"
#include "mlp_train_run.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

static bool quick; /* lavapipe-sized: a 2^14 table */

static spvgen_mlp_desc net(int which) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 3;
  d.hidden_width = 64;
  d.hidden_count = 2;
  d.output_width = 16;
  d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
  d.input_type = SPVGEN_COMPONENT_F32;
  d.grid.levels = 16;
  d.grid.features = which ? 8 : 2;
  d.grid.log2_hashmap_size = quick ? 14 : 19;
  d.grid.base_resolution = 16;
  d.grid.per_level_scale = which ? 1.5f : 2.0f;
  return d;
}

static const char *const names[2] = {"ngp32", "ngp128"};

/* One measured row: printed as soon as it is measured ("# measured: | net | mode | plan |
 * spvgen G/s | check |", so a run cut short keeps its figures), and again in the table
 * once the references are in. */
typedef struct hg_row {
  int net;
  bool train;
  char text[1280]; /* the plan (and kernel times), or what went wrong */
  double rate;    /* G points/s or G samples/s; 0: none */
  char check[64];
} hg_row;

/* A comma-separated list of at most max values through parse (false: a bad item). */
static bool parse_list(const char *v, uint32_t max, uint32_t *out, uint32_t *n, bool (*parse)(const char *, uint32_t *)) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", v);
  *n = 0;
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (*n == max || !parse(t, &out[*n])) return false;
    ++*n;
  }
  return *n > 0;
}
static bool parse_spread(const char *t, uint32_t *out) {
  spvgen_mlp_grid_spread s;
  if (!spvgen_mlp_grid_spread_parse(t, &s)) return false;
  return *out = (uint32_t)s, true;
}
static bool parse_groups(const char *t, uint32_t *out) {
  char *end;
  unsigned long g = strtoul(t, &end, 10);
  if (*end || g < 1 || g > 65535) return false;
  return *out = (uint32_t)g, true;
}

int main(int argc, char **argv) {
  uint64_t points = 1ull << 22, batch = 1ull << 18, sample = 256;
  uint32_t steps = 20, anchor_cap = 40, anchor_reps = 5;
  const char *anchor = NULL;
  uint32_t spreads[SPVGEN_MLP_GRID_SPREAD_COUNT] = {SPVGEN_MLP_GRID_SPREAD_AUTO}, nspreads = 1;
  uint32_t groups[4] = {256}, ngroups = 1;
  bool train_only = false, mat_only = false;
  int only_net = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--quick")) quick = true;
    else if (!strcmp(a, "--points") && v) points = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--batch") && v) batch = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--steps") && v) steps = (uint32_t)strtoul(v, NULL, 10), i++;
    else if (!strcmp(a, "--sample") && v) sample = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--anchor") && v) anchor = v, i++;
    else if (!strcmp(a, "--anchor-cap") && v) anchor_cap = (uint32_t)strtoul(v, NULL, 10), i++;
    else if (!strcmp(a, "--anchor-reps") && v) anchor_reps = (uint32_t)strtoul(v, NULL, 10), i++;
    else if (!strcmp(a, "--spread") && v && parse_list(v, SPVGEN_MLP_GRID_SPREAD_COUNT, spreads, &nspreads, parse_spread)) i++;
    else if (!strcmp(a, "--groups") && v && parse_list(v, 4, groups, &ngroups, parse_groups)) i++;
    else if (!strcmp(a, "--train-only")) train_only = true;
    else if (!strcmp(a, "--mat-only")) mat_only = true;
    else if (!strcmp(a, "--nets") && v && (!strcmp(v, names[0]) || !strcmp(v, names[1]))) only_net = strcmp(v, names[0]) != 0, i++;
    else
      return fprintf(stderr, "usage: bench_mlp_hashgrid [--points N] [--batch N] [--steps S] [--sample N] [--anchor SCRIPT]\n"
                             "                          [--anchor-cap S] [--anchor-reps R] [--spread auto|level-loop|flat|flat-by-point,...]\n"
                             "                          [--groups G,...] [--train-only] [--mat-only] [--nets ngp32|ngp128] [--quick]\n"), 2;
  }
  if (quick) points = 3000, batch = 1000, steps = 2, sample = 64;
  if (!points || !batch || !steps || anchor_cap < 2 || !anchor_reps)
    return fprintf(stderr, "bench_mlp_hashgrid: points, batch, steps and anchor reps must be >= 1, the anchor cap >= 2 s\n"), 2;
  char msg[1024];
  spvgen_vk_context *ctx;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg);
  if (st != SPVGEN_OK) return fprintf(stderr, "bench_mlp_hashgrid: %s\n", msg), st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  printf("# bench_mlp_hashgrid on %s (%s %s): inference %llu points, training batches of %llu\n", caps->name,
         caps->driver_name, caps->driver_info, (unsigned long long)points, (unsigned long long)batch);
  hg_row out[96];
  uint32_t nout = 0;
  int rc = 0;
#define ROW(w_, train_, rate_, check_, ...)                                             \
  do {                                                                                 \
    hg_row *row_ = &out[nout++];                                                       \
    row_->net = (w_), row_->train = (train_), row_->rate = (rate_);                    \
    snprintf(row_->check, sizeof row_->check, "%s", (check_));                         \
    snprintf(row_->text, sizeof row_->text, __VA_ARGS__);                              \
    printf("# measured: | %s | %s | %s | %.4g | %s |\n", names[row_->net], train_ ? "training" : "inference", \
           row_->text, row_->rate, row_->check);                                       \
    fflush(stdout);                                                                    \
  } while (0)
  for (int w = 0; w < 2; w++) {
    if (only_net >= 0 && w != only_net) continue;
    /* inference: each class's default plan */
    mlp_session *sess = NULL;
    mlp_run_options o = {.points = points, .seed = 17 + w, .warmup = 2, .warmup_ms = quick ? 0 : 100,
                         .repeats = quick ? 1 : 10, .sample = sample};
    for (int cls = 0; cls < (train_only ? 0 : 4); cls++) {
      spvgen_mlp_desc d = net(w);
      d.variant = cls == 3 ? SPVGEN_MLP_LOOP : cls == 2 ? SPVGEN_MLP_MAT : SPVGEN_MLP_VEC;
      if (cls == 1) d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
      spvgen_mlp_config p;
      if (spvgen_mlp_plan(&d, caps, &p, msg, sizeof msg) != SPVGEN_OK) {
        ROW(w, false, 0, "", "%s", msg);
        continue;
      }
      mlp_run_result r;
      if ((!sess && mlp_session_open(ctx, &p, &o, &sess, msg, sizeof msg) != SPVGEN_OK) ||
          mlp_session_run(sess, &p, &r, msg, sizeof msg) != SPVGEN_OK) {
        ROW(w, false, 0, "", "%s: %s", p.name, msg);
        rc = 1;
        continue;
      }
      ROW(w, false, r.points_per_s / 1e9, r.bad ? "FAIL" : "ok", "%s (first compile %.0f ms)", p.name, r.compile_ms);
      if (r.bad) rc = 1;
    }
    mlp_session_close(sess);
    /* training: mat (each spread and workgroup count) and loop, each with the f32 and the
     * f16 table gradient */
    const uint32_t mat_runs = 2 * nspreads * ngroups;
    for (uint32_t run = 0; run < mat_runs + (mat_only ? 0 : 2); run++) {
      const int v = run < mat_runs ? SPVGEN_MLP_MAT : SPVGEN_MLP_LOOP;
      const bool g16 = run & 1;
      spvgen_mlp_train_desc td = {.net = net(w), .loss = SPVGEN_MLP_LOSS_L2, .optimizer = SPVGEN_MLP_OPTIMIZER_ADAM,
                                  .grad_workgroups = v == SPVGEN_MLP_LOOP ? 1024 : groups[run / 2 / nspreads]};
      if (v == SPVGEN_MLP_MAT) td.grid_spread = (spvgen_mlp_grid_spread)spreads[run / 2 % nspreads];
      td.net.variant = (spvgen_mlp_variant)v;
      td.grid_gradient = g16 ? SPVGEN_MLP_GRID_GRADIENT_F16 : SPVGEN_MLP_GRID_GRADIENT_F32;
      spvgen_mlp_train_desc small = td; /* the check: the same network with a 2^14 table */
      small.net.grid.log2_hashmap_size = 14;
      spvgen_mlp_train_config t;
      if (spvgen_mlp_train_plan(&td, caps, &t, msg, sizeof msg) != SPVGEN_OK) {
        ROW(w, true, 0, "", "%s", msg);
        continue;
      }
      mlp_train_run_options o1 = {.points = quick ? 300 : 4096, .steps = 1, .lr = 1e-3f, .seed = 3};
      mlp_train_run_result r;
      st = mlp_train_run(ctx, &small, &o1, &r, msg, sizeof msg);
      bool ok = st == SPVGEN_OK && !r.grad.bad && !r.opt.bad && !r.loss_bad;
      if (!ok) {
        ROW(w, true, 0, "FAIL", "%s: %s", t.name, st != SPVGEN_OK ? msg : "the check");
        rc = 1;
        continue;
      }
      mlp_train_run_options o2 = {.points = batch, .steps = steps, .warmup = quick ? 1 : 5, .lr = 1e-3f,
                                  .no_check = true, .time_optimizer_alone = true};
      st = mlp_train_run(ctx, &td, &o2, &r, msg, sizeof msg);
      if (st != SPVGEN_OK) {
        ROW(w, true, 0, "", "%s: %s", t.name, msg);
        rc = 1;
        continue;
      }
      char ck[64];
      snprintf(ck, sizeof ck, "ok (%llu points, 2^14 table)", (unsigned long long)o1.points);
      /* what Adam moves: each table element's gradient (f32 or f16) read and reset, master
       * weight, m and v read and written, the f16 weight written; each network element's
       * slots read */
      const uint64_t T = r.plan.elements - r.plan.slot_elements;
      const double bytes =
          (double)T * (g16 ? 30 : 34) + (double)r.plan.slot_elements * (4.0 * r.plan.grad_workgroups + 30);
      ROW(w, true, r.samples_per_s / 1e9, ck,
          "%s (gradient %.3f ms, optimizer %.3f ms = %.0f GB/s, alone %.3f ms; first compile %.0f + %.0f ms)",
          r.plan.name, r.grad_ns / 1e6, r.opt_ns / 1e6, r.opt_ns > 0 ? bytes / r.opt_ns : 0.0, r.opt_alone_ns / 1e6,
          r.grad_compile_ms, r.opt_compile_ms);
    }
  }
#undef ROW
  /* the torch references, inference and training, in this run */
  mlp_anchor_row rows[32];
  uint32_t nrows = 0;
  if (anchor) {
    char path[] = "/tmp/bench_mlp_hashgrid_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
      for (int w = 0; w < 2; w++) {
        if (only_net >= 0 && w != only_net) continue;
        spvgen_mlp_desc d = net(w);
        spvgen_mlp_config p;
        char flags[512];
        if (spvgen_mlp_plan(&d, NULL, &p, NULL, 0) != SPVGEN_OK) continue;
        mlp_net_flags(&p.desc, flags, sizeof flags);
        fprintf(f, "%s\t%s\n", names[w], flags);
      }
      fclose(f);
      char args[512];
      /* --train-only: the training references get the whole cap */
      const uint32_t icap = train_only ? 0 : anchor_cap / 2;
      snprintf(args, sizeof args, "--points %llu --reps %u --time-cap %u --eager-first --nets %s", (unsigned long long)points,
               anchor_reps, icap, path);
      if (!train_only) nrows = mlp_anchor_run(anchor, args, rows, 32, stdout);
      snprintf(args, sizeof args, "--train --points %llu --reps %u --time-cap %u --eager-first --nets %s",
               (unsigned long long)batch, anchor_reps, anchor_cap - icap, path);
      nrows += mlp_anchor_run(anchor, args, rows + nrows, 32 - nrows, stdout);
      remove(path);
    }
  }
  printf("| network | mode | spvgen plan | spvgen G/s | torch eager G/s | torch.compile G/s | vs compile | check |\n"
         "|---|---|---|---:|---:|---:|---:|---|\n");
  for (uint32_t i = 0; i < nout; i++) {
    const hg_row *h = &out[i];
    double e = mlp_anchor_rate(rows, nrows, names[h->net], h->train ? "train-eager" : "eager");
    double c = mlp_anchor_rate(rows, nrows, names[h->net], h->train ? "train-compile" : "compile");
    char rs[32], es[32], cs[32], xs[32];
    snprintf(rs, sizeof rs, h->rate > 0 ? "%.4g" : "-", h->rate);
    snprintf(es, sizeof es, e > 0 ? "%.4g" : "-", e);
    snprintf(cs, sizeof cs, c > 0 ? "%.4g" : "-", c);
    snprintf(xs, sizeof xs, c > 0 && h->rate > 0 ? "%.2fx" : "-", c > 0 ? h->rate / c : 0.0);
    printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", names[h->net], h->train ? "training" : "inference", h->text, rs,
           es, cs, xs, h->check);
  }
  spvgen_vk_destroy(ctx);
  return rc;
}
