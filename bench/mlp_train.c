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
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--points")) points = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--steps")) steps = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--warmup")) warmup = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    else return fprintf(stderr, "usage: bench_mlp_train [--points N] [--steps S] [--warmup W]\n"), 2;
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
  static const uint32_t slot_counts[] = {64, 256, 1024}; /* grad_workgroups: parallelism vs
                                                           the optimizer's sum over slots */
  bool vec_ok = spvgen_caps_has(spvgen_vk_caps(ctx), SPVGEN_FEATURE_COOPVEC_TRAINING);
  for (size_t n = 0; n < sizeof nets / sizeof nets[0] * 4; n++) {
    size_t i = n / 4;
    spvgen_mlp_train_desc td = {.net = nets[i].net, .loss = SPVGEN_MLP_LOSS_L2,
                                .optimizer = SPVGEN_MLP_OPTIMIZER_ADAM,
                                .grad_workgroups = slot_counts[n % 4 == 3 ? 1 : n % 4]};
    if (n % 4 == 3) { /* the vec variant (its conversions between the kernels untimed) */
      if (!vec_ok) continue;
      td.net.variant = SPVGEN_MLP_VEC;
    }
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
