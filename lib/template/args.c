/* lib/template/args.c — the one strict reader of numeric arguments (the CLI's flags, the
 * templates' flag tables, the benchmarks'): the whole text must be the number (no sign,
 * no spaces, nothing after it), within the range the flag allows; anything else is
 * false, and the caller's usage error names the flag.
 * strtoul-style parsing had let "4294967297" wrap to 1, "" read as 0 and "3junk" read as
 * 3. */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

static int digit_value(char c, bool hex) {
  if (c >= '0' && c <= '9') return c - '0';
  if (hex && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (hex && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool sg_parse_u64(const char *s, bool hex_ok, uint64_t min, uint64_t max, uint64_t *out) {
  if (!s || !*s) return false;
  bool hex = hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hex) s += 2;
  if (!*s) return false;
  uint64_t v = 0, base = hex ? 16 : 10;
  for (; *s; s++) {
    int d = digit_value(*s, hex);
    if (d < 0) return false;
    if (v > (UINT64_MAX - (uint64_t)d) / base) return false; /* overflow */
    v = v * base + (uint64_t)d;
  }
  if (v < min || v > max) return false;
  *out = v;
  return true;
}

bool sg_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out) {
  uint64_t v;
  if (!sg_parse_u64(s, false, min, max, &v)) return false;
  *out = (uint32_t)v;
  return true;
}

bool sg_parse_number(const char *s, double min, double max, double *out) {
  if (!s || !*s || isspace((unsigned char)s[0])) return false;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno == ERANGE || !isfinite(v) || v < min || v > max) return false;
  *out = v;
  return true;
}

bool sg_parse_u32_list(const char *s, char sep, uint32_t min, uint32_t max, uint32_t *values,
                         uint32_t capacity, uint32_t *count) {
  if (!s || !*s) return false;
  uint32_t n = 0;
  for (;;) {
    const char *end = strchr(s, sep);
    size_t len = end ? (size_t)(end - s) : strlen(s);
    char item[32];
    if (len == 0 || len >= sizeof item || n == capacity) return false; /* "", "64,", ",64" */
    memcpy(item, s, len);
    item[len] = 0;
    if (!sg_parse_u32(item, min, max, &values[n])) return false;
    n++;
    if (!end) break;
    s = end + 1;
  }
  *count = n;
  return true;
}

/* ------------------------------------------------------------ flag values ---- */

bool sg_flag_bad(char *why, size_t size, const char *value, const char *fmt, ...) {
  int n = snprintf(why, size, "'%s' ", value ? value : "");
  if (n >= 0 && (size_t)n < size) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + n, size - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return false;
}

bool sg_flag_u64(const char *value, bool hex_ok, uint64_t min, uint64_t max, uint64_t *out, char *why, size_t size) {
  if (sg_parse_u64(value, hex_ok, min, max, out)) return true;
  uint64_t v;
  if (min > 0 && sg_parse_u64(value, hex_ok, 0, min - 1, &v))
    return sg_flag_bad(why, size, value, "must be at least %" PRIu64, min);
  return sg_flag_bad(why, size, value, "is not a number from %" PRIu64 " to %" PRIu64 "%s", min, max,
                     hex_ok ? " (decimal or 0x...)" : "");
}

bool sg_flag_u32(const char *value, uint32_t min, uint32_t max, uint32_t *out, char *why, size_t size) {
  uint64_t v;
  if (!sg_flag_u64(value, false, min, max, &v, why, size)) return false;
  *out = (uint32_t)v;
  return true;
}

bool sg_flag_seed(const char *value, uint64_t *out, char *why, size_t size) {
  return sg_flag_u64(value, true, 0, UINT64_MAX, out, why, size);
}
