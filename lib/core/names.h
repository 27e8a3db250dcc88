/* lib/core/names.h — one table of names per public enum. Each public name / parse pair
 * (spvgen_gemm_variant_name and _parse, spvgen_activation_name and _parse, ...) is
 * defined by SG_NAMES over the enum's one table, indexed by value, so a printed name
 * always parses back to its value and the two cannot drift apart. Internal to spvgen's
 * libraries (tests/scripts/check_includes.py lets lib/ and emitters/ include it). */
#ifndef SPVGEN_CORE_NAMES_H
#define SPVGEN_CORE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* names[value], or `unknown` for a value past the table or without a name. */
const char *sg_names_name(const char *const *names, size_t count, unsigned value, const char *unknown);
/* The value whose name is `name` (not NULL); false when none is. */
bool sg_names_parse(const char *const *names, size_t count, const char *name, unsigned *value);

/* Defines `const char *NAME_FN(TYPE)` (UNKNOWN for a value without a name) and
 * `bool PARSE_FN(const char *, TYPE *)` (out optional; false for any other string) over
 * the array TABLE (indexed by the enum's values; NULL entries are holes). */
#define SG_NAMES(TYPE, TABLE, UNKNOWN, NAME_FN, PARSE_FN)                                \
  const char *NAME_FN(TYPE value) {                                                    \
    return sg_names_name(TABLE, sizeof TABLE / sizeof TABLE[0], (unsigned)value, UNKNOWN); \
  }                                                                                    \
  bool PARSE_FN(const char *name, TYPE *out) {                                         \
    unsigned v;                                                                        \
    if (!sg_names_parse(TABLE, sizeof TABLE / sizeof TABLE[0], name, &v)) return false; \
    if (out) *out = (TYPE)v;                                                           \
    return true;                                                                       \
  }

#endif
