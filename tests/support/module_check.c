/* tests/support/module_check.c — see module_check.h. */
#define _POSIX_C_SOURCE 200809L

#include "module_check.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Validator messages quote an instruction or two; this holds any of them. */
#define MESSAGE_SIZE (16 * 1024)

/* ------------------------------------------------------------------- dumps ---- */

/* mkdir -p. 0 on success. */
static int make_dirs(const char *dir) {
  size_t len = strlen(dir);
  char *path = malloc(len + 1);
  if (!path) return -1;
  memcpy(path, dir, len + 1);
  for (size_t i = 1; i <= len; i++) {
    if (path[i] != '/' && path[i] != '\0') continue;
    char saved = path[i];
    path[i] = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      free(path);
      return -1;
    }
    path[i] = saved;
  }
  free(path);
  return 0;
}

/* Writes words to $SPVGEN_TEST_DUMP/<test>-<n>.spv when that is set. */
static void dump_words(const char *file, int line, const uint32_t *words, size_t count) {
  static const char *last_test = NULL;
  static int next_index = 0;
  const char *dir = getenv("SPVGEN_TEST_DUMP");
  if (!dir || !dir[0]) return;
  if (last_test != test_current_name) {
    last_test = test_current_name;
    next_index = 0;
  }
  int index = next_index++;
  if (make_dirs(dir) != 0) {
    test_fail_at(file, line, "SPVGEN_TEST_DUMP: cannot create %s: %s", dir,
                 strerror(errno));
    return;
  }
  size_t size = strlen(dir) + strlen(test_current_name) + 32;
  char *path = malloc(size);
  if (!path) return;
  snprintf(path, size, "%s/%s-%d.spv", dir, test_current_name, index);
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(words, sizeof *words, count, f) == count;
  if (f && fclose(f) != 0) ok = 0;
  if (!ok) test_fail_at(file, line, "SPVGEN_TEST_DUMP: cannot write %s", path);
  free(path);
}

/* ---------------------------------------------------------------- modules ---- */

int check_words_at(const char *file, int line, const uint32_t *words, size_t count,
                   const spvgen_validate_options *options) {
  if (!words) {
    if (!test_current_failed) test_fail_at(file, line, "check_words: words is NULL");
    return 0;
  }
  dump_words(file, line, words, count);
  static char message[MESSAGE_SIZE];
  spvgen_status status = spvgen_validate(words, count, options, message, sizeof message);
  if (status == SPVGEN_OK) return 1;
  char *text = NULL;
  spvgen_disassemble(words, count,
                     SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_INDENT | SPVGEN_DIS_NO_HEADER,
                     &text, NULL, 0);
  test_fail_at(file, line,
               "module is invalid under %s rules (%s):\n%s\n--- disassembly:\n%s",
               spvgen_target_env_name(options ? options->env : SPVGEN_ENV_VULKAN_1_3),
               spvgen_status_name(status), message, text ? text : "(none)");
  spvgen_free_text(text);
  return 0;
}

const uint32_t *check_module_at(const char *file, int line, spvgen_module *m,
                                size_t *count) {
  if (count) *count = 0;
  if (!m) {
    test_fail_at(file, line, "check_module: module is NULL (spvgen_module_create failed?)");
    return NULL;
  }
  const uint32_t *words = NULL;
  size_t n = 0;
  spvgen_status status = spvgen_module_finish(m, &words, &n);
  if (status != SPVGEN_OK) {
    test_fail_at(file, line, "spvgen_module_finish: %s: %s", spvgen_status_name(status),
                 spvgen_module_error(m));
    return NULL;
  }
  if (!words || n == 0) {
    test_fail_at(file, line, "spvgen_module_finish returned SPVGEN_OK but no words");
    return NULL;
  }
  if (!check_words_at(file, line, words, n, NULL)) return NULL;
  if (count) *count = n;
  return words;
}

char *check_disassemble_at(const char *file, int line, const uint32_t *words,
                           size_t count) {
  if (!words) {
    if (!test_current_failed) test_fail_at(file, line, "check_disassemble: words is NULL");
    return NULL;
  }
  char *text = NULL;
  static char message[MESSAGE_SIZE];
  spvgen_status status =
      spvgen_disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_NO_HEADER,
                         &text, message, sizeof message);
  if (status != SPVGEN_OK) {
    test_fail_at(file, line, "%s: %s", spvgen_status_name(status), message);
    return NULL;
  }
  return text;
}

/* --------------------------------------------------------------- matching ---- */

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Trims [*begin, *end). */
static void trim(const char **begin, const char **end) {
  while (*begin < *end && is_space(**begin)) (*begin)++;
  while (*end > *begin && is_space((*end)[-1])) (*end)--;
}

/* Whether some line of text equals expected, both trimmed. */
static int text_has_line(const char *text, const char *expected) {
  const char *eb = expected, *ee = expected + strlen(expected);
  trim(&eb, &ee);
  size_t elen = (size_t)(ee - eb);
  const char *p = text;
  for (;;) {
    const char *nl = strchr(p, '\n');
    const char *lb = p, *le = nl ? nl : p + strlen(p);
    trim(&lb, &le);
    if ((size_t)(le - lb) == elen && memcmp(lb, eb, elen) == 0) return 1;
    if (!nl) return 0;
    p = nl + 1;
  }
}

void check_has_lines_at(const char *file, int line, const char *text,
                        const char *const *lines, int n) {
  if (!text) {
    if (!test_current_failed) test_fail_at(file, line, "check_has_lines: text is NULL");
    return;
  }
  /* One failure listing every missing line, then the text once. */
  size_t size = 1;
  for (int i = 0; i < n; i++) size += strlen(lines[i]) + 32;
  char *missing = malloc(size);
  if (!missing) return;
  size_t used = 0;
  int count = 0;
  missing[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (text_has_line(text, lines[i])) continue;
    count++;
    used += (size_t)snprintf(missing + used, size - used, "  missing line: %s\n", lines[i]);
  }
  if (count)
    test_fail_at(file, line, "%d of %d expected lines not found:\n%s--- in:\n%s", count, n,
                 missing, text);
  free(missing);
}

void check_lacks_line_at(const char *file, int line, const char *text,
                         const char *expected) {
  if (!text) {
    if (!test_current_failed) test_fail_at(file, line, "check_lacks_line: text is NULL");
    return;
  }
  if (text_has_line(text, expected))
    test_fail_at(file, line, "unexpected line: %s\n--- in:\n%s", expected, text);
}

void check_module_error_at(const char *file, int line, spvgen_module *m,
                           spvgen_status expected, const char *message_substring) {
  if (!m) {
    test_fail_at(file, line, "check_module_error: module is NULL");
    return;
  }
  spvgen_status status = spvgen_module_status(m);
  const char *error = spvgen_module_error(m);
  if (status != expected) {
    test_fail_at(file, line, "module status %s, expected %s (error: \"%s\")",
                 spvgen_status_name(status), spvgen_status_name(expected), error);
    return;
  }
  if (message_substring && !strstr(error, message_substring))
    test_fail_at(file, line, "module error \"%s\" does not mention \"%s\"", error,
                 message_substring);
  spvgen_status finished = spvgen_module_finish(m, NULL, NULL);
  if (finished != expected)
    test_fail_at(file, line, "spvgen_module_finish returned %s, expected the sticky %s",
                 spvgen_status_name(finished), spvgen_status_name(expected));
}

/* ----------------------------------------------------------------- random ---- */

#define DEFAULT_SEED UINT64_C(0x5eed5eed)

uint64_t test_rand_seed(void) {
  static int known = 0;
  static uint64_t seed = DEFAULT_SEED;
  if (!known) {
    known = 1;
    const char *env = getenv("SPVGEN_TEST_SEED");
    if (env && env[0]) {
      char *end = NULL;
      errno = 0;
      unsigned long long v = strtoull(env, &end, 0);
      if (errno == 0 && end && *end == '\0') {
        seed = (uint64_t)v;
      } else {
        fprintf(stderr, "test_rand: ignoring SPVGEN_TEST_SEED='%s' (not a number)\n", env);
      }
    }
  }
  return seed;
}

uint32_t test_rand_u32(void) {
  static const char *stream_test = NULL;
  static uint64_t state = 0;
  static int announced = 0;
  if (!announced) {
    announced = 1;
    fprintf(stderr, "test_rand: SPVGEN_TEST_SEED=0x%" PRIx64 "\n", test_rand_seed());
  }
  if (stream_test != test_current_name || state == 0) {
    /* FNV-1a of the test name, mixed with the seed: a stream per test. */
    stream_test = test_current_name;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const char *p = test_current_name; p && *p; p++)
      h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
    uint64_t x = test_rand_seed() ^ h;
    state = test_splitmix64(&x);
    if (state == 0) state = UINT64_C(0x9e3779b97f4a7c15); /* xorshift's one bad state */
  }
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return (uint32_t)((state * UINT64_C(0x2545f4914f6cdd1d)) >> 32);
}

float test_rand_float(float lo, float hi) {
  /* 24 random bits: every value is exact in a float before scaling. */
  float unit = (float)(test_rand_u32() >> 8) * (1.0f / 16777216.0f);
  float r = lo + (hi - lo) * unit;
  if (r >= hi && hi > lo) r = nextafterf(hi, lo); /* rounding can land on hi */
  return r;
}
