/* tools/common/caps_json.h — device caps from the JSON that `spvgen devices --json`
 * writes (its first device). */
#ifndef SPVGEN_TOOLS_CAPS_JSON_H
#define SPVGEN_TOOLS_CAPS_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "spvgen/caps.h"

/* Parses text (length bytes) into *caps; false with a message naming what is wrong. */
bool spvgen_caps_from_json(const char *text, size_t length, spvgen_device_caps *caps, char *msg,
                           size_t size);

#endif
