/* lib/core/error_private.h — the one way spvgen's internals write an error message, for
 * lib/core, lib/check, lib/vk and emitters/ (after zstd's lib/common/error_private.h: one
 * formatter, one set of macros). A message names the public function that failed first,
 * "<function>: <what is wrong, and the rule>"; the library never prints it. Where it goes
 * differs by layer and stays so: a module's sticky error (lib/core, sg_fail), a runner
 * context's error (lib/vk, sg_vk_fail), or the caller's message buffer. Not public. */
#ifndef SPVGEN_ERROR_PRIVATE_H
#define SPVGEN_ERROR_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>

#include "spvgen/status.h"

#if defined(__GNUC__)
#define SG_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define SG_PRINTF(fmt_index, first_arg)
#endif

/* The formatter (error.c): "<fn>: " when fn is not NULL, then the text, into buf
 * (size bytes, always terminated, truncated when longer; nothing when buf is NULL or size
 * is 0). Returns status, so that a failing path reads `return sg_error_format(...)`. */
spvgen_status sg_error_vformat(char *buf, size_t size, spvgen_status status, const char *fn,
                               const char *fmt, va_list ap);
spvgen_status sg_error_format(char *buf, size_t size, spvgen_status status, const char *fn,
                              const char *fmt, ...) SG_PRINTF(5, 6);

/* Into a caller's buffer, named after the calling function. */
#define SG_ERROR(buf, size, status, ...) sg_error_format((buf), (size), (status), __func__, __VA_ARGS__)

#endif
