/* tests/support/harness.c — see harness.h. */
#include "harness.h"

#include <stdarg.h>
#include <stdlib.h>

const char *test_current_name = "";
int test_current_failed = 0;
int test_current_skipped = 0;

void test_fail_at(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "FAIL %s (%s:%d): ", test_current_name, file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  test_current_failed++;
}

void test_skip(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "SKIP %s: ", test_current_name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  test_current_skipped = 1;
}

int test_main(int argc, char **argv, const test_case *tests, int count) {
  int passed = 0, failed = 0, skipped = 0;
  const char *filter = argc > 1 ? argv[1] : NULL;
  if (filter && !strcmp(filter, "--list")) { /* the names, one a line: for running shards */
    for (int i = 0; i < count; i++) printf("%s\n", tests[i].name);
    return 0;
  }
  for (int i = 0; i < count; i++) {
    if (filter && !strstr(tests[i].name, filter)) continue;
    test_current_name = tests[i].name;
    test_current_failed = 0;
    test_current_skipped = 0;
    tests[i].fn();
    if (test_current_failed) {
      failed++;
    } else if (test_current_skipped) {
      skipped++;
    } else {
      passed++;
    }
  }
  fflush(stderr);
  if (skipped)
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  else
    printf("%d passed, %d failed\n", passed, failed);
  /* A filter that matched nothing is a mistake, not a pass. */
  if (passed + failed + skipped == 0) return 1;
  if (failed) return 1;
  /* Every selected test skipped: report a skip (ctest's SKIP_RETURN_CODE), not a pass. */
  return passed == 0 ? 77 : 0;
}
