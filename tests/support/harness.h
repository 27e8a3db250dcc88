/* tests/support/harness.h — a small test harness: one binary per test file, each test a
 * function, every CHECK counted. Prints one line per failure and closes with
 * "N passed, N failed[, N skipped]". Exit status: 1 when something failed (or a filter
 * matched nothing), 77 when every selected test skipped (ctest shows it as skipped),
 * else 0.
 *
 *   static void test_vector_types_are_deduplicated(void) { CHECK(a == b); }
 *   int main(int argc, char **argv) {
 *     static const test_case tests[] = { TEST_CASE(test_vector_types_are_deduplicated) };
 *     return test_main(argc, argv, tests, TEST_COUNT(tests));
 *   }
 * A single test can be run with `binary name-substring`; `binary --list` prints the test
 * names, one a line (to run them as parallel processes, e.g. scripts/gpu-gemm.sh). */
#ifndef SPVGEN_TEST_HARNESS_H
#define SPVGEN_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct test_case {
  const char *name;
  void (*fn)(void);
} test_case;

#define TEST_CASE(fn) {#fn, fn}
#define TEST_COUNT(arr) ((int)(sizeof(arr) / sizeof((arr)[0])))

/* State of the running test (defined in harness.c). */
extern const char *test_current_name;
extern int test_current_failed;
extern int test_current_skipped;

void test_fail_at(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Marks the current test skipped with a reason (printed). */
void test_skip(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
int test_main(int argc, char **argv, const test_case *tests, int count);

#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) test_fail_at(__FILE__, __LINE__, "CHECK(%s)", #cond); \
  } while (0)

#define CHECK_MSG(cond, ...)                                \
  do {                                                      \
    if (!(cond)) test_fail_at(__FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

#define CHECK_EQ_U64(a, b)                                                               \
  do {                                                                                   \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);       \
    if (a_ != b_)                                                                        \
      test_fail_at(__FILE__, __LINE__, "%s == %s: %llu != %llu", #a, #b, a_, b_);         \
  } while (0)

#define CHECK_NE_U64(a, b)                                                         \
  do {                                                                             \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
    if (a_ == b_) test_fail_at(__FILE__, __LINE__, "%s != %s: both %llu", #a, #b, a_); \
  } while (0)

#define CHECK_STR_EQ(a, b)                                                                \
  do {                                                                                    \
    const char *a_ = (a), *b_ = (b);                                                      \
    if (!a_ || !b_ || strcmp(a_, b_) != 0)                                                \
      test_fail_at(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,              \
                   a_ ? a_ : "(null)", b_ ? b_ : "(null)");                               \
  } while (0)

#define CHECK_CONTAINS(hay, needle)                                                        \
  do {                                                                                     \
    const char *h_ = (hay), *n_ = (needle);                                                \
    if (!h_ || !strstr(h_, n_))                                                            \
      test_fail_at(__FILE__, __LINE__, "expected \"%s\" in:\n%s", n_, h_ ? h_ : "(null)"); \
  } while (0)

#define CHECK_NOT_CONTAINS(hay, needle)                                                     \
  do {                                                                                      \
    const char *h_ = (hay), *n_ = (needle);                                                 \
    if (h_ && strstr(h_, n_))                                                               \
      test_fail_at(__FILE__, __LINE__, "did not expect \"%s\" in:\n%s", n_, h_);            \
  } while (0)

#endif
