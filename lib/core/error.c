/* lib/core/error.c — the formatter of error_private.h, the one every layer's
 * error path ends in. */
#include <stdio.h>

#include "error_private.h"

spvgen_status sg_error_vformat(char *buf, size_t size, spvgen_status status, const char *fn,
                               const char *fmt, va_list ap) {
  if (!buf || size == 0) return status;
  int n = 0;
  if (fn) {
    n = snprintf(buf, size, "%s: ", fn);
    if (n < 0) n = 0;
  }
  if ((size_t)n < size) vsnprintf(buf + n, size - (size_t)n, fmt, ap);
  return status;
}

spvgen_status sg_error_format(char *buf, size_t size, spvgen_status status, const char *fn,
                              const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(buf, size, status, fn, fmt, ap);
  va_end(ap);
  return status;
}
