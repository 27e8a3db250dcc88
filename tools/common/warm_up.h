/* tools/common/warm_up.h — bring the GPU to its working clocks before timing: the
 * runner's warm-up (spvgen_vk_warm_up, spvgen/vk.h, which the library tuner uses too)
 * under the names the tools and benchmarks call. It runs the kernel being timed in
 * back-to-back submissions of growing batches until it has run min_ms and is steady
 * (two full batches at least 500 ms apart within 2 %), giving up at max(4 * min_ms,
 * 2000 ms) or limit_ms. Why: GPUs idle at low clocks between short bursts, and a fixed
 * 300 ms warm-up left some benchmark rows at half speed
 * (bench/results/gemm-h100-2026-11-23.md); docs/design-notes.md, "The slow mode is the
 * clock's ramp (session 15)". */
#ifndef SPVGEN_TOOLS_WARM_UP_H
#define SPVGEN_TOOLS_WARM_UP_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/vk.h"

typedef spvgen_vk_warm_up_info warm_up_info; /* ms, batches, last_ns, steady */

/* dd: `count` identical dispatches (the batch repeats the first); ns: unused (kept for
 * the callers). min_ms 0 does nothing. Returns the first failing spvgen_vk_run status. */
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
