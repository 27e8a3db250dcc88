/* tests/support/rand.h — the tests' random numbers, all of them reproducible from a seed.
 *
 *   test_rand_*        the per-test stream (xorshift64*, module_check.c): reseeded for each
 *                      test from SPVGEN_TEST_SEED (or a fixed default) and the test's name,
 *                      so a test's values do not depend on which tests ran before it.
 *   test_splitmix64    a stream whose state the caller holds (seeding the per-test stream,
 *                      the fuzz interpreter of fuzz_api.h, the runner's reflection fuzz).
 *
 * Header-only for the splitmix64 part, so the libFuzzer targets can use it too. */
#ifndef SPVGEN_TEST_RAND_H
#define SPVGEN_TEST_RAND_H

#include <stdint.h>

/* splitmix64's finalizer: a 64-bit mix (also for hashing seeds together). */
static inline uint64_t test_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* splitmix64: advances *state and returns the next value. */
static inline uint64_t test_splitmix64(uint64_t *state) {
  return test_mix64(*state += UINT64_C(0x9e3779b97f4a7c15));
}

/* Uniform-ish in [0, n) from test_splitmix64 (modulo); 0 when n is 0. */
static inline uint32_t test_splitmix64_below(uint64_t *state, uint32_t n) {
  return n ? (uint32_t)(test_splitmix64(state) % n) : 0;
}

/* The per-test stream: a 32-bit value. */
uint32_t test_rand_u32(void);
/* Uniform in [lo, hi). */
float test_rand_float(float lo, float hi);
/* The base seed in use (SPVGEN_TEST_SEED or the default). */
uint64_t test_rand_seed(void);

#endif
