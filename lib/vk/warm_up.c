/* lib/vk/warm_up.c — spvgen_vk_warm_up (spvgen/vk.h): the one warm-up before timing, for
 * the tuner (lib/tune) and the tools' benchmarks (tools/common/warm_up.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* Long enough in GPU time for the power manager to see a busy GPU: a submission of a
 * few short dispatches (60 us each) followed by the host's wait looks idle, and the H100
 * stayed at 345 MHz through such a "warm-up" while timings looked steady. */
#define WARM_SUBMIT_MS 25.0
#define WARM_MAX_BATCH 4096u
/* The steadiness test's span: after an idle second the governor keeps the clock at idle
 * (345 MHz on the H100 and H200) for the first 100-400 ms of back-to-back work, so two
 * batches less than that apart can agree at a fifth of the speed (docs/design-notes.md,
 * "The slow mode is the clock's ramp (session 15)": 150 ms let a fifth of the MLP trials
 * of call S15-3 be timed at 345 MHz, 500 ms none of call S15-4's 28). */
#define WARM_WINDOW_MS 500.0

double sg_vk_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

spvgen_status spvgen_vk_warm_up(spvgen_vk_context *ctx, const spvgen_vk_warm_up_desc *desc,
                                spvgen_vk_warm_up_info *info) {
  static const char who[] = "spvgen_vk_warm_up";
  spvgen_vk_warm_up_info w;
  memset(&w, 0, sizeof w);
  if (info) *info = w;
  if (!ctx) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!desc || (desc->count && !desc->dispatches))
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", who, desc ? "dispatches" : "desc");
  const uint32_t group = desc->group ? desc->group : 1;
  if (desc->count % group)
    return sg_vk_fail(ctx, SPVGEN_ERROR_INVALID_ARGUMENT, "%s: count %u is not a multiple of group %u", who,
                      desc->count, group);
  if (!desc->min_ms || !desc->count) return SPVGEN_OK;
  /* The batch grows past the caller's steps by repeating the first step. */
  spvgen_vk_dispatch_desc *big = malloc(sizeof *big * WARM_MAX_BATCH * group);
  uint64_t *ns = malloc(sizeof *ns * WARM_MAX_BATCH);
  if (!big || !ns) {
    free(big);
    free(ns);
    return sg_vk_fail(ctx, SPVGEN_ERROR_OUT_OF_MEMORY, "%s: out of memory", who);
  }
  for (uint32_t i = 0; i < WARM_MAX_BATCH; i++)
    for (uint32_t k = 0; k < group; k++) big[i * group + k] = desc->dispatches[k];
  const double min_ms = desc->min_ms;
  const double max_ms = desc->limit_ms ? (desc->limit_ms > min_ms ? desc->limit_ms : min_ms)
                                       : (4.0 * min_ms > 2000.0 ? 4.0 * min_ms : 2000.0);
  spvgen_status st = SPVGEN_OK;
  double t0 = sg_vk_now_ms(), prev = 0, prev_ms = 0;
  uint32_t batch = 1;
  bool full = false; /* the batch stopped growing: medians compare like with like */
  for (;;) {
    double b0 = sg_vk_now_ms();
    memset(ns, 0, sizeof *ns * batch);
    st = spvgen_vk_run_steps(ctx, big, batch * group, group, ns);
    if (st != SPVGEN_OK) break;
    w.batches++;
    double took = sg_vk_now_ms() - b0, elapsed = sg_vk_now_ms() - t0;
    qsort(ns, batch, sizeof *ns, cmp_u64);
    double med = ns[batch / 2] ? (double)ns[batch / 2] : took * 1e6 / batch;
    if (full) {
      /* Steady: this batch's median within 2 % of one at least WARM_WINDOW_MS older.
       * Consecutive batches are not enough: after a second or more of idling the clock
       * governor raises the clock only after a few hundred ms of work, and two batches
       * 25 ms apart (or 150: session 8's span) then agree at idle clocks. */
      w.last_ns = med;
      if (prev > 0 && sg_vk_now_ms() - prev_ms >= WARM_WINDOW_MS) {
        if (med <= prev * 1.02 && med >= prev * 0.98 && elapsed >= min_ms) {
          w.steady = true;
          break;
        }
        prev = 0;
      }
      if (prev == 0) prev = med, prev_ms = sg_vk_now_ms();
    }
    if (elapsed >= max_ms) break;
    if (!full && took < WARM_SUBMIT_MS && batch * 2 <= WARM_MAX_BATCH) batch *= 2;
    else full = true;
  }
  w.ms = sg_vk_now_ms() - t0;
  free(big);
  free(ns);
  if (info) *info = w;
  return st;
}
