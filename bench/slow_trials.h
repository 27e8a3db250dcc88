/* bench/slow_trials.h — what the slow-mode benchmarks (bench/slowmode.c, GEMM;
 * bench/slowmode_mlp.c, MLP) say about one mode's trials: the best and worst time, and
 * each trial slower than SLOW_TRIAL_FACTOR times the best, printed as
 * "slow MODE trial I: X.XXx the best". Header-only: each benchmark is one program. */
#ifndef SPVGEN_BENCH_SLOW_TRIALS_H
#define SPVGEN_BENCH_SLOW_TRIALS_H

#include <stdint.h>
#include <stdio.h>

#define SLOW_TRIAL_FACTOR 1.6

/* t[n]: the trials' times (0: the trial did not run). Returns the number of slow trials;
 * *best and *worst get the extremes of those that ran (0 when none did). */
static inline unsigned slow_trials(const char *mode, const double *t, uint64_t n, double *best, double *worst) {
  *best = *worst = 0;
  for (uint64_t i = 0; i < n; i++)
    if (t[i] > 0) {
      if (*best == 0 || t[i] < *best) *best = t[i];
      if (t[i] > *worst) *worst = t[i];
    }
  unsigned slow = 0;
  for (uint64_t i = 0; i < n; i++)
    if (t[i] > SLOW_TRIAL_FACTOR * *best) {
      slow++;
      printf("slow %s trial %llu: %.2fx the best\n", mode, (unsigned long long)i, t[i] / *best);
    }
  return slow;
}

#endif
