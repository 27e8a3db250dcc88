/* tools/common/mlp_train_run.h — runs MLP training on a device (the gradient and optimizer
 * kernels of spvgen/mlp.h) and checks every step against the float64 reference of
 * lib/ref/ref_mlp_train.h: gradients, loss, optimizer state. For `spvgen run mlp --train`,
 * tests/mlp and bench/. Not part of the library. */
#ifndef SPVGEN_TOOLS_MLP_TRAIN_RUN_H
#define SPVGEN_TOOLS_MLP_TRAIN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ref_mlp_train.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

typedef struct mlp_train_run_options {
  uint64_t seed;    /* 0: a fixed default */
  uint64_t points;  /* batch; 0: 1024 */
  uint32_t steps;   /* 0: 3 */
  float lr;         /* 0: 1e-3 */
  bool no_check;    /* timing only: `warmup` untimed steps, then `steps` timed ones
                       (steps up to 1024 here), each step its gradient dispatches (the
                       fused variants' one, the layers variant's list) and the optimizer,
                       the warm-up steps in one submission and the timed ones in another
                       (vec: step by step) */
  uint32_t warmup;
  /* no_check, all but vec: after the timed steps, `steps` optimizer dispatches on their
   * own, back to back (result opt_alone_ns): the optimizer's time without a gradient
   * kernel before it. */
  bool time_optimizer_alone;
  /* A plan to run instead of planning the desc for the device (tests: a mat plan with
   * the cooperativeMatrix bit cleared runs its emulation); NULL: plan. */
  const spvgen_mlp_train_config *plan;
  /* Device-address plans, checked runs: the six buffers (input, weights, targets,
   * gradients, state, loss) sub-allocated from one, each at an offset that is an odd
   * multiple of the alignment its pointers need (4 at least) past 4 KiB of guard words;
   * after every step the guards are checked (result guard_bad). */
  bool suballocate;
  /* Tests, the layers variant: 1 + the index of a gradient-step dispatch to leave out
   * (0: none), to show that the checks catch what that dispatch does. */
  uint32_t drop_dispatch;
} mlp_train_run_options;

#define MLP_TRAIN_RUN_MAX_STEPS 64
typedef struct mlp_train_run_result {
  spvgen_mlp_train_config plan;
  mlp_train_check grad, opt;
  double loss_gpu[MLP_TRAIN_RUN_MAX_STEPS], loss_ref[MLP_TRAIN_RUN_MAX_STEPS];
  uint32_t loss_bad; /* steps whose loss missed its tolerance */
  double grad_ns, opt_ns; /* GPU time of the kernels: the last step's, or (no_check) the
                             medians over the timed steps */
  double opt_alone_ns;    /* time_optimizer_alone: the median of the optimizer on its own */
  double step_ns;         /* no_check, the layers variant: the median of whole steps (its
                             gradient dispatches and the optimizer, the barriers between
                             them included; grad_ns sums the dispatches' own times) */
  double samples_per_s;   /* points / (grad_ns + opt_ns), or / step_ns where measured */
  double grad_compile_ms, opt_compile_ms; /* the driver's pipeline creation of each kernel
                                             (vkCreateComputePipelines, wall time) */
  uint64_t offsets[6];  /* each buffer's offset (suballocate; else 0), in the order above */
  uint64_t guard_bad;   /* suballocate: guard words found written, over every step */
  uint64_t guard_words; /* ... of this many checked */
} mlp_train_run_result;

/* Plans, emits both kernels, runs `steps` steps on one random batch, checking every
 * step's gradients, loss and optimizer update. SPVGEN_OK means it ran; the verdict is
 * grad.bad == opt.bad == loss_bad == 0. */
spvgen_status mlp_train_run(spvgen_vk_context *ctx, const spvgen_mlp_train_desc *desc,
                            const mlp_train_run_options *options, mlp_train_run_result *res,
                            char *message, size_t message_size);

#endif
