/* tools/common/clock.h — the monotonic clock and the qsort comparisons every timing
 * loop of the tools and benchmarks uses (one copy instead of one per file). */
#ifndef SPVGEN_TOOLS_CLOCK_H
#define SPVGEN_TOOLS_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Microseconds of CLOCK_MONOTONIC (callers need _POSIX_C_SOURCE >= 199309L). */
static inline double sg_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline double sg_now_ms(void) { return sg_now_us() / 1e3; }

/* qsort comparisons, ascending. */
static inline int sg_cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static inline int sg_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#endif
