/* tools/common/warm_up.h — bring the GPU to its working clocks before timing.
 *
 * GPUs idle at low clocks between short bursts, and a host-side pause (building the next
 * pipeline, computing a reference) is one: the H100 under Vulkan sat at 345 MHz instead of
 * 1980 between runs, and a fixed 300 ms warm-up still left some benchmark rows at half
 * speed (bench/results/gemm-h100-2026-11-23.md). So the warm-up runs the kernel being
 * timed, in back-to-back submissions of growing batches (up to 25 ms of GPU work each: a
 * few short dispatches and a host wait look idle to the power manager, which kept the
 * H100 at 345 MHz through such a warm-up while its timings looked steady), until it is
 * both long enough (min_ms) and steady: a full batch whose median GPU time per dispatch
 * is within 2% of a full batch's at least 500 ms earlier (after a second or more of
 * idling the governor holds the idle clock through the first 100-400 ms of back-to-back
 * work, then raises it: batches closer than that agree while the clock is still low,
 * and 150 ms let a fifth of the MLP trials of call S15-3 be timed at 345 MHz). It gives
 * up waiting for steadiness at max(4 * min_ms, 2000 ms). */
#ifndef SPVGEN_TOOLS_WARM_UP_H
#define SPVGEN_TOOLS_WARM_UP_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/vk.h"

typedef struct warm_up_info {
  double ms;          /* how long it ran */
  uint32_t batches;   /* submissions */
  double last_ns;     /* median GPU ns per dispatch of the last full batch (0: no timestamps) */
  bool steady;        /* false: stopped at the time limit while timings still moved */
} warm_up_info;

/* dd: `count` identical dispatches (the batch grows up to count); ns: count entries of
 * scratch. min_ms 0 does nothing. Returns the first failing spvgen_vk_run status. */
spvgen_status warm_up_run(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                          uint32_t min_ms, uint64_t *ns, warm_up_info *info);

/* The same with its own time limit (limit_ms, at least min_ms; 0: the default above): for
 * benchmarks of many short kernels, which give up waiting for steadiness sooner. */
spvgen_status warm_up_run_limit(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                                uint32_t min_ms, uint32_t limit_ms, uint64_t *ns, warm_up_info *info);

/* The same for a plan of several kernels: dd holds `count` steps of `group` dispatches
 * each (the batch repeats the first step), each step timed from its first dispatch's
 * start to its last's end (spvgen_vk_run_steps); last_ns is per step. */
spvgen_status warm_up_run_steps(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                                uint32_t group, uint32_t min_ms, uint32_t limit_ms, uint64_t *ns,
                                warm_up_info *info);

#endif
