/* bench/mlp_train.c — training throughput of the fused MLP (spvgen/mlp.h, "training"):
 * samples/s of one step (gradient kernel + optimizer kernel, GPU timestamps, median of
 * the timed steps after untimed warm-up steps), for the network of
 * samples/mlp-fit-image (GPU size: 2 -> freq:6 -> 64x3 -> 3, ReLU, L2, Adam) and the
 * issue's 32 -> 64x4 -> 16. One step checked against the float64 reference first
 * (tools/common/mlp_train_ref.c), so a number is never printed for a wrong kernel. Each
 * network with 64, 256 and 1024 gradient slots (workgroups of the gradient kernel), and
 * the vec variant where the device has cooperative vector training (the TrainingOptimal
 * -> row-major conversions between its kernels are not in the time).
 * The comparison, torch autograd + Adam on the same networks, is bench/mlp_train_torch.py.
 *
 *   build/bench/bench_mlp_train [--points N] [--steps S] [--warmup W]
 * defaults: 65536 points, 50 timed steps, 20 warm-up steps (lavapipe: try --points 1024
 * --steps 3 --warmup 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlp_train_ref.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

int main(int argc, char **argv) {
  uint64_t points = 65536;
  uint32_t steps = 50, warmup = 20;
  bool sweep = false;
  uint32_t repeat = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--mat-sweep")) sweep = !strcmp(argv[i + 1], "1");
    else if (!strcmp(argv[i], "--mat-repeat")) repeat = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--points")) points = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--steps")) steps = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--warmup")) warmup = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    else return fprintf(stderr, "usage: bench_mlp_train [--points N] [--steps S] [--warmup W] [--mat-sweep 1] [--mat-repeat N]\n"), 2;
  }
  if (!points || !steps) return fprintf(stderr, "bench_mlp_train: --points and --steps must be >= 1\n"), 2;
  char msg[1024];
  spvgen_vk_context *ctx;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg);
  if (st != SPVGEN_OK) return fprintf(stderr, "bench_mlp_train: %s\n", msg), st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
  printf("device %s, batch %llu points, median of %u steps after %u warm-up steps\n",
         spvgen_vk_caps(ctx)->name, (unsigned long long)points, steps, warmup);
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
