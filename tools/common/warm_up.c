/* tools/common/warm_up.c — see warm_up.h. */
#define _POSIX_C_SOURCE 200809L

#include "warm_up.h"

#include "clock.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Long enough in GPU time for the power manager to see a busy GPU: a submission of a
 * few short dispatches (60 us each) followed by the host's wait looks idle, and the H100
 * stayed at 345 MHz through such a "warm-up" while timings looked steady. */
#define WARM_SUBMIT_MS 25.0
#define WARM_MAX_BATCH 4096u
/* The steadiness test's span: after an idle second the governor keeps the clock at idle
 * (345 MHz on the H100 and H200) for the first 100-400 ms of back-to-back work, so two
 * batches less than that apart can agree at a fifth of the speed (docs/design-notes.md,
 * "The slow mode is the clock's ramp (session 15)"). */
#define WARM_WINDOW_MS 500.0

spvgen_status warm_up_run(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                          uint32_t min_ms, uint64_t *ns, warm_up_info *info) {
  return warm_up_run_limit(ctx, dd, count, min_ms, 0, ns, info);
}

spvgen_status warm_up_run_limit(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                                uint32_t min_ms, uint32_t limit_ms, uint64_t *ns, warm_up_info *info) {
  return warm_up_run_steps(ctx, dd, count, 1, min_ms, limit_ms, ns, info);
}

spvgen_status warm_up_run_steps(spvgen_vk_context *ctx, const spvgen_vk_dispatch_desc *dd, uint32_t count,
                                uint32_t group, uint32_t min_ms, uint32_t limit_ms, uint64_t *ns,
                                warm_up_info *info) {
  warm_up_info w;
  if (!group) group = 1;
  memset(&w, 0, sizeof w);
  spvgen_status st = SPVGEN_OK;
  if (min_ms && count) {
    /* The batch grows past `count` by repeating the first step (its own arrays). */
    spvgen_vk_dispatch_desc *big = malloc(sizeof *big * WARM_MAX_BATCH * group);
    uint64_t *bns = malloc(sizeof *bns * WARM_MAX_BATCH);
    if (!big || !bns) {
      free(big);
      free(bns);
      big = NULL;
      bns = NULL;
    } else {
      for (uint32_t i = 0; i < WARM_MAX_BATCH; i++)
        for (uint32_t k = 0; k < group; k++) big[i * group + k] = dd[k];
    }
    const spvgen_vk_dispatch_desc *use = big ? big : dd;
    uint64_t *tns = bns ? bns : ns;
    uint32_t cap = big ? WARM_MAX_BATCH : count;
    double max_ms = limit_ms ? (limit_ms > min_ms ? limit_ms : min_ms) : 4.0 * min_ms > 2000.0 ? 4.0 * min_ms : 2000.0;
    double t0 = sg_now_ms(), prev = 0, prev_ms = 0;
    uint32_t batch = 1;
    bool full = false; /* the batch stopped growing: medians compare like with like */
    for (;;) {
      double b0 = sg_now_ms();
      memset(tns, 0, sizeof *tns * batch);
      st = spvgen_vk_run_steps(ctx, use, batch * group, group, tns);
      if (st != SPVGEN_OK) break;
      w.batches++;
      double took = sg_now_ms() - b0, elapsed = sg_now_ms() - t0;
      qsort(tns, batch, sizeof *tns, sg_cmp_u64);
      double med = tns[batch / 2] ? (double)tns[batch / 2] : took * 1e6 / batch;
      if (full) {
        /* Steady: this batch's median within 2% of one at least WARM_WINDOW_MS older.
         * Consecutive batches are not enough: after a second or more of idling, the
         * clock governor raises the clock only after a few hundred ms of work, and two
         * batches 25 ms apart (or 150: session 8's span) then agree at idle clocks
         * (docs/runner.md, "GPU clocks"). */
        w.last_ns = med;
        if (prev > 0 && sg_now_ms() - prev_ms >= WARM_WINDOW_MS) {
          if (med <= prev * 1.02 && med >= prev * 0.98 && elapsed >= min_ms) {
            w.steady = true;
            break;
          }
          prev = 0;
        }
        if (prev == 0) prev = med, prev_ms = sg_now_ms();
      }
      if (elapsed >= max_ms) break;
      if (!full && took < WARM_SUBMIT_MS && batch * 2 <= cap) batch *= 2;
      else full = true;
    }
    w.ms = sg_now_ms() - t0;
    free(big);
    free(bns);
  }
  if (info) *info = w;
  return st;
}
