/* lib/core/version.c — spvgen_version(): the version this library was built as. */
#include "spvgen/version.h"

const char *spvgen_version(void) { return SPVGEN_VERSION_STRING; }
