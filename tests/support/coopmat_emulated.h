/* tests/support/coopmat_emulated.h — a device's caps with 16x16x16 KHR cooperative matrix
 * entries (f16 x f16 + f32, and with f16_acc f16 x f16 + f16) added: a mat plan made for
 * them, with the cooperativeMatrix bit then cleared (emitters/mlp/mat.c, emulated()),
 * emulates each fragment operation in plain SPIR-V, so the mat variant runs on lavapipe. */
#ifndef SPVGEN_TESTS_COOPMAT_EMULATED_H
#define SPVGEN_TESTS_COOPMAT_EMULATED_H

#include <stdbool.h>

#include "spvgen/caps.h"

spvgen_device_caps coopmat_emulated_caps(const spvgen_device_caps *dev, bool f16_acc);

#endif
