/* bench/mlp_train.c — training throughput of the fused MLP (spvgen/mlp.h, "training"):
 * samples/s of one step (gradient kernel + optimizer kernel, GPU timestamps, median of
 * the timed steps after untimed warm-up steps), for the network of
 * samples/mlp-fit-image (GPU size: 2 -> freq:6 -> 64x3 -> 3, ReLU, L2, Adam) and the
 * issue's 32 -> 64x4 -> 16. One step checked against the float64 reference first
 * (lib/ref/ref_mlp_train.c), so a number is never printed for a wrong kernel. Each
 * network with 64, 256 and 1024 gradient slots (workgroups of the gradient kernel), and
 * the vec variant where the device has cooperative vector training (the TrainingOptimal
 * -> row-major conversions between its kernels are not in the time).
 * The comparison, torch autograd + Adam on the same networks, is bench/mlp_train_torch.py.
 *
 *   build/bench/bench_mlp_train [--points N] [--steps S] [--warmup W]
 *   build/bench/bench_mlp_train --grid3 [--anchor bench/anchors/mlp_anchor_net.py] (see grid3)
 * defaults: 65536 points, 50 timed steps, 20 warm-up steps (lavapipe: try --points 1024
 * --steps 3 --warmup 1). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlp_run.h"
#include "mlp_train_run.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

/* --grid3: three networks of the grid benchmark (bench/mlp_grid.c) and the 256-wide
 * 64-256x3-64 ReLU on every variant the device trains with (loop, mat, vec), each first
 * checked on one step against the float64 reference (4096 points; 1024 for the 256-wide
 * network, whose CPU reference costs 5-11x as much per point), then timed; next to torch
 * eager and torch.compile (bench/anchors/mlp_anchor_net.py --train: autograd + Adam, f16
 * autocast) on the same networks and batch, in the same run; each row prints its
 * kernels' first compiles. mat runs in its plan's form (held, the dW tiles in registers
 * across the chunks, where they fit: not at width 256) at 256, 512 and 1024 workgroups
 * of the plan's size and at 256 workgroups of 512 invocations (16 subgroups: fewer tiles
 * each), in the slot-adds form at 256 (the form before the held one), and with chunks
 * of 16 points at 256 (16-128x3-3's chunk before act'(z) and the biases left shared
 * memory; its plan now takes 32), so that each is measured in the same process. The
 * 256-wide network runs loop, mat at 256 and 512 and vec only (the others repeat its
 * plan). */
static int grid3(spvgen_vk_context *ctx, uint64_t points, uint32_t steps, uint32_t warmup, const char *anchor) {
  static const struct {
    const char *name;
    spvgen_mlp_desc net;
  } nets[] = {
      {"issue-3-48x2-1", {.input_width = 3, .output_width = 1, .hidden_width = 48, .hidden_count = 2,
                          .activation = SPVGEN_MLP_ACT_SIGMOID}},
      {"a-32-64x4-16", {.input_width = 32, .output_width = 16, .hidden_width = 64, .hidden_count = 4}},
      {"issue-16-128x3-3", {.input_width = 16, .output_width = 3, .hidden_width = 128, .hidden_count = 3,
                            .activation = SPVGEN_MLP_ACT_SILU}},
      {"b-64-256x3-64", {.input_width = 64, .output_width = 64, .hidden_width = 256, .hidden_count = 3,
                         .activation = SPVGEN_MLP_ACT_RELU}},
  };
  enum { NARROW = 7, NET128 = 4, WIDE = 8, ALL = 15 }; /* the networks (bits) a run is for */
  const size_t N = sizeof nets / sizeof nets[0];
  mlp_anchor_row rows[32];
  uint32_t nrows = 0;
  if (anchor) {
    char path[] = "/tmp/bench_mlp_train_nets_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
      for (size_t i = 0; i < N; i++) {
        spvgen_mlp_config p;
        char flags[512];
        if (spvgen_mlp_plan(&nets[i].net, NULL, &p, NULL, 0) != SPVGEN_OK) continue;
        mlp_net_flags(&p.desc, flags, sizeof flags);
        fprintf(f, "%s\t%s\t%llu\n", nets[i].name, flags, (unsigned long long)points);
      }
      fclose(f);
      char args[512];
      snprintf(args, sizeof args, "--train --reps %u --nets %s", steps < 10 ? 10 : steps, path);
      nrows = mlp_anchor_run(anchor, args, rows, 32, stdout);
      remove(path);
    }
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  printf("| network | plan | gradient ms | optimizer ms | samples/s | torch eager | torch.compile | vs compile |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|\n");
  int rc = 0;
  /* the runs per network: variant, gradient workgroups, their size (0: the plan's), slot
   * adds, points per chunk (0: the plan's), the networks */
  static const struct {
    spvgen_mlp_variant v;
    uint32_t groups, size;
    bool slot_adds;
    uint32_t points, nets;
  } runs[] = {{SPVGEN_MLP_LOOP, 1024, 0, false, 0, ALL},      {SPVGEN_MLP_MAT, 256, 0, false, 0, ALL},
              {SPVGEN_MLP_MAT, 512, 0, false, 0, ALL},        {SPVGEN_MLP_MAT, 1024, 0, false, 0, NARROW},
              {SPVGEN_MLP_MAT, 256, 512, false, 0, NARROW},   {SPVGEN_MLP_MAT, 256, 0, true, 0, NARROW},
              {SPVGEN_MLP_MAT, 256, 0, false, 16, NET128},    {SPVGEN_MLP_VEC, 256, 0, false, 0, ALL}};
  for (size_t i = 0; i < N; i++)
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
      if (!(runs[k].nets >> i & 1)) continue;
      int v = runs[k].v;
      spvgen_mlp_train_desc td = {.net = nets[i].net, .loss = SPVGEN_MLP_LOSS_L2, .optimizer = SPVGEN_MLP_OPTIMIZER_ADAM,
                                  .grad_workgroups = runs[k].groups, .grad_workgroup_size = runs[k].size,
                                  .grad_slot_adds = runs[k].slot_adds};
      td.net.variant = (spvgen_mlp_variant)v;
      td.net.points_per_group = runs[k].points;
      char msg[1024];
      spvgen_mlp_train_config t;
      if (spvgen_mlp_train_plan(&td, caps, &t, msg, sizeof msg) != SPVGEN_OK) {
        printf("| %s | %s: %s | | | | | | |\n", nets[i].name, spvgen_mlp_variant_name((spvgen_mlp_variant)v), msg);
        continue;
      }
      mlp_train_run_options o = {.points = WIDE >> i & 1 ? 1024 : 4096, .steps = 1, .lr = 1e-3f, .seed = 5};
      mlp_train_run_result r;
      spvgen_status st = mlp_train_run(ctx, &td, &o, &r, msg, sizeof msg);
      if (st != SPVGEN_OK || r.grad.bad || r.opt.bad || r.loss_bad) {
        printf("| %s | %s: %s | | | | | | |\n", nets[i].name, t.name, st != SPVGEN_OK ? msg : "CHECK FAILED: no timing");
        rc = 1;
        continue;
      }
      /* The checked run above compiled both kernels; the timed run below finds them in
       * spvgen's pipeline cache, so the first compile is the checked run's. */
      double grad_compile_ms = r.grad_compile_ms, opt_compile_ms = r.opt_compile_ms;
      o = (mlp_train_run_options){.points = points, .steps = steps, .warmup = warmup, .lr = 1e-3f, .no_check = true};
      st = mlp_train_run(ctx, &td, &o, &r, msg, sizeof msg);
      if (st != SPVGEN_OK) {
        printf("| %s | %s: %s | | | | | | |\n", nets[i].name, t.name, msg);
        rc = 1;
        continue;
      }
      double e = mlp_anchor_rate(rows, nrows, nets[i].name, "train-eager") * 1e9;
      double c = mlp_anchor_rate(rows, nrows, nets[i].name, "train-compile") * 1e9;
      char ce[32], cc[32], cx[32];
      snprintf(ce, sizeof ce, e > 0 ? "%.4g" : "-", e);
      snprintf(cc, sizeof cc, c > 0 ? "%.4g" : "-", c);
      snprintf(cx, sizeof cx, c > 0 ? "%.2fx" : "-", c > 0 ? r.samples_per_s / c : 0.0);
      printf("| %s | %s (first compile %.0f + %.0f ms) | %.3f | %.3f | %.4g | %s | %s | %s |\n", nets[i].name,
             r.plan.name, grad_compile_ms, opt_compile_ms, r.grad_ns / 1e6, r.opt_ns / 1e6, r.samples_per_s, ce, cc,
             cx);
      fflush(stdout);
    }
  return rc;
}

int main(int argc, char **argv) {
  uint64_t points = 65536;
  uint32_t steps = 50, warmup = 20;
  bool sweep = false, g3 = false;
  uint32_t repeat = 0;
  const char *anchor = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--grid3")) {
      g3 = true;
      continue;
    }
    if (i + 1 >= argc) return fprintf(stderr, "bench_mlp_train: %s needs a value\n", argv[i]), 2;
    if (!strcmp(argv[i], "--anchor")) anchor = argv[i + 1];
    else if (!strcmp(argv[i], "--mat-sweep")) sweep = !strcmp(argv[i + 1], "1");
    else if (!strcmp(argv[i], "--mat-repeat")) repeat = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--points")) points = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--steps")) steps = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--warmup")) warmup = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    else return fprintf(stderr, "usage: bench_mlp_train [--points N] [--steps S] [--warmup W] [--mat-sweep 1] [--mat-repeat N]\n"
                                "                       [--grid3 [--anchor bench/anchors/mlp_anchor_net.py]]\n"), 2;
    i++;
  }
  if (!points || !steps) return fprintf(stderr, "bench_mlp_train: --points and --steps must be >= 1\n"), 2;
  char msg[1024];
  spvgen_vk_context *ctx;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg);
  if (st != SPVGEN_OK) return fprintf(stderr, "bench_mlp_train: %s\n", msg), st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
  printf("device %s, batch %llu points, median of %u steps after %u warm-up steps\n",
         spvgen_vk_caps(ctx)->name, (unsigned long long)points, steps, warmup);
  if (g3) {
    int r3 = grid3(ctx, points, steps, warmup, anchor);
    spvgen_vk_destroy(ctx);
    return r3;
  }
  printf("| network | plan | gradient ms | optimizer ms | samples/s |\n|---|---|---|---|---|\n");
  static const struct {
    const char *name;
    spvgen_mlp_desc net;
  } nets[] = {
      {"2-freq:6-64x3-3 relu (mlp-fit-image)",
       {.input_width = 2, .output_width = 3, .hidden_width = 64, .hidden_count = 3,
        .encoding = SPVGEN_MLP_ENCODING_FREQUENCY, .encoding_size = 6,
        .input_type = SPVGEN_COMPONENT_F32}},
      {"32-64x4-16 relu", {.input_width = 32, .output_width = 16, .hidden_width = 64, .hidden_count = 4}},
  };
  int rc = 0;
  if (repeat) { /* the mat variant's default plan, N fresh runs (new buffers) each */
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
      for (uint32_t k = 0; k < repeat && k < 64; k++) {
        spvgen_mlp_train_desc td = {.net = nets[i].net, .loss = SPVGEN_MLP_LOSS_L2,
                                    .optimizer = SPVGEN_MLP_OPTIMIZER_ADAM, .grad_workgroups = 256};
        td.net.variant = SPVGEN_MLP_MAT;
        mlp_train_run_options o = {.points = points, .steps = steps, .warmup = warmup, .lr = 1e-3f,
                                   .no_check = true, .seed = 1 + k / 2};
        mlp_train_run_result r;
        st = mlp_train_run(ctx, &td, &o, &r, msg, sizeof msg);
        if (st != SPVGEN_OK) {
          printf("%s: %s\n", nets[i].name, msg);
          break;
        }
        printf("| %s | %s | run %u | %.3f | %.3f | %.4g |\n", nets[i].name, r.plan.name, k, r.grad_ns / 1e6,
               r.opt_ns / 1e6, r.samples_per_s);
      }
    spvgen_vk_destroy(ctx);
    return 0;
  }
  if (sweep) { /* the mat variant's knobs on networks that isolate encoding and staging */
    static const struct {
      const char *name;
      spvgen_mlp_desc net;
    } dn[] = {
        {"2-freq:6-64x3-3 f32 in", nets[0].net},
        {"24-64x3-3 (first layer staged)", {.input_width = 24, .output_width = 3, .hidden_width = 64, .hidden_count = 3}},
        {"32-64x3-3 (last layer staged)", {.input_width = 32, .output_width = 3, .hidden_width = 64, .hidden_count = 3}},
        {"32-64x3-16 (none staged)", {.input_width = 32, .output_width = 16, .hidden_width = 64, .hidden_count = 3}},
        {"32-64x4-16", nets[1].net},
    };
    static const uint32_t knobs[][3] = {{32, 0, 256}, {16, 0, 256}, {64, 0, 256}, {32, 0, 512}, {32, 64, 256}, {32, 256, 256}};
    printf("mat sweep: points_per_group, invocations, slots\n");
    for (size_t i = 0; i < sizeof dn / sizeof dn[0]; i++)
      for (size_t k = 0; k < sizeof knobs / sizeof knobs[0]; k++) {
        spvgen_mlp_train_desc td = {.net = dn[i].net, .loss = SPVGEN_MLP_LOSS_L2,
                                    .optimizer = SPVGEN_MLP_OPTIMIZER_ADAM, .grad_workgroups = knobs[k][2],
                                    .grad_workgroup_size = knobs[k][1]};
        td.net.variant = SPVGEN_MLP_MAT;
        td.net.points_per_group = knobs[k][0];
        mlp_train_run_options o = {.points = 4096, .steps = 1, .lr = 1e-3f};
        mlp_train_run_result r;
        st = mlp_train_run(ctx, &td, &o, &r, msg, sizeof msg);
        if (st != SPVGEN_OK || r.grad.bad || r.opt.bad || r.loss_bad) {
          printf("| %s | p%u w%u g%u | %s |\n", dn[i].name, knobs[k][0], knobs[k][1], knobs[k][2],
                 st != SPVGEN_OK ? msg : "check failed");
          continue;
        }
        o = (mlp_train_run_options){.points = points, .steps = steps, .warmup = warmup, .lr = 1e-3f, .no_check = true};
        st = mlp_train_run(ctx, &td, &o, &r, msg, sizeof msg);
        if (st != SPVGEN_OK) continue;
        printf("| %s | %s | %.3f | %.3f | %.4g |\n", dn[i].name, r.plan.name, r.grad_ns / 1e6, r.opt_ns / 1e6,
               r.samples_per_s);
      }
    spvgen_vk_destroy(ctx);
    return 0;
  }
  /* per network: the loop variant at 64, 256 and 1024 gradient slots (parallelism vs the
   * optimizer's sum over slots), the vec variant (its conversions between the kernels
   * untimed) and the mat variant (KHR cooperative matrices) at 256 and 1024 */
  static const struct {
    spvgen_mlp_variant variant;
    uint32_t slots;
  } runs[] = {{SPVGEN_MLP_LOOP, 64}, {SPVGEN_MLP_LOOP, 256}, {SPVGEN_MLP_LOOP, 1024},
              {SPVGEN_MLP_VEC, 256}, {SPVGEN_MLP_MAT, 256}, {SPVGEN_MLP_MAT, 1024}};
  const size_t R = sizeof runs / sizeof runs[0];
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  for (size_t n = 0; n < sizeof nets / sizeof nets[0] * R; n++) {
    size_t i = n / R;
    spvgen_mlp_train_desc td = {.net = nets[i].net, .loss = SPVGEN_MLP_LOSS_L2,
                                .optimizer = SPVGEN_MLP_OPTIMIZER_ADAM,
                                .grad_workgroups = runs[n % R].slots};
    td.net.variant = runs[n % R].variant;
    if (td.net.variant == SPVGEN_MLP_VEC && !spvgen_caps_has(caps, SPVGEN_FEATURE_COOPVEC_TRAINING)) continue;
    if (td.net.variant == SPVGEN_MLP_MAT && !spvgen_caps_has(caps, SPVGEN_FEATURE_COOPMAT)) continue;
    if (td.grad_workgroups > 64 && points <= 65536 / 16) continue; /* small batches: 64 */
    mlp_train_run_options o = {.points = points < 4096 ? points : 4096, .steps = 1, .lr = 1e-3f};
    mlp_train_run_result r;
    st = mlp_train_run(ctx, &td, &o, &r, msg, sizeof msg);
    if (st != SPVGEN_OK || r.grad.bad || r.opt.bad || r.loss_bad) {
      fprintf(stderr, "bench_mlp_train: %s: %s\n", nets[i].name,
              st != SPVGEN_OK ? msg : "the check against the CPU failed: no timing");
      rc = 1;
      continue;
    }
    o = (mlp_train_run_options){.points = points, .steps = steps, .warmup = warmup, .lr = 1e-3f, .no_check = true};
    st = mlp_train_run(ctx, &td, &o, &r, msg, sizeof msg);
    if (st != SPVGEN_OK) {
      fprintf(stderr, "bench_mlp_train: %s: %s\n", nets[i].name, msg);
      rc = 1;
      continue;
    }
    printf("| %s | %s | %.3f | %.3f | %.4g |\n", nets[i].name, r.plan.name, r.grad_ns / 1e6, r.opt_ns / 1e6,
           r.samples_per_s);
  }
  spvgen_vk_destroy(ctx);
  return rc;
}
