/* lib/core/names.c — see names.h. */
#include "names.h"

#include <string.h>

const char *sg_names_name(const char *const *names, size_t count, unsigned value, const char *unknown) {
  return value < count && names[value] ? names[value] : unknown;
}

bool sg_names_parse(const char *const *names, size_t count, const char *name, unsigned *value) {
  for (size_t i = 0; name && i < count; i++)
    if (names[i] && !strcmp(names[i], name)) {
      *value = (unsigned)i;
      return true;
    }
  return false;
}
