/* tests/fuzz/fuzz_common.h — what the libFuzzer targets (tests/fuzz/fuzz_*.c) share: a
 * broken contract prints why and aborts, so that libFuzzer (or the replay driver,
 * tests/fuzz/replay_main.c) reports the input. */
#ifndef SPVGEN_FUZZ_COMMON_H
#define SPVGEN_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_FAIL(...)                                                   \
  do {                                                                   \
    fprintf(stderr, "\n*** fuzz contract broken (%s:%d): ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__);                                        \
    fprintf(stderr, "\n");                                               \
    fflush(stderr);                                                      \
    abort();                                                             \
  } while (0)

#endif
