/* lib/ref/ref_convert.h — the host side of every kernel's data: element conversions
 * (f16, bf16, float8, integers) between host arrays and doubles, unit roundoffs, and the
 * seeded random values the checks run on (never zero). The one copy in the tree: the
 * tuner, tools/common, bench/ and the tests convert through these. Exotic encodings go
 * through the builder's own codec (spvgen_float_bits / spvgen_float_value, the bits
 * spvgen_const_float writes); f16 and bf16 have bit-level fast paths, checked against
 * that codec by tests/core/test_ref_convert.c. Internal to spvgen (lib/ref). */
#ifndef SPVGEN_REF_CONVERT_H
#define SPVGEN_REF_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/caps.h"

/* Round to nearest even; NaN stays NaN, overflow gives +-Inf. */
uint16_t sg_ref_f32_to_f16(float f);
float sg_ref_f16_to_f32(uint16_t h);
uint16_t sg_ref_f32_to_bf16(float f);
float sg_ref_bf16_to_f32(uint16_t h);
/* float8 (OCP E4M3: no infinities; E5M2: IEEE-like): the value of a code, and the code
 * nearest to x (ties to even; what spvgen_const_float writes: E4M3 past +-448 is NaN). */
double sg_ref_f8_value(uint8_t v, bool e4m3);
uint8_t sg_ref_f8_encode(double x, bool e4m3);

/* The value of the bits of one element of a float or integer component type (the low
 * bits of `bits`), and the bits of the element nearest to x (integers: C's conversion,
 * wrapped to the width). NaN / 0 for a type without a scalar value (packed types). */
double sg_ref_decode(spvgen_component_type t, uint64_t bits);
uint64_t sg_ref_encode(spvgen_component_type t, double x);

/* Element i of a host array of component type t, and storing v there (rounded). */
double sg_ref_get(const void *p, spvgen_component_type t, uint64_t i);
void sg_ref_put(void *p, spvgen_component_type t, uint64_t i, double v);
/* An f16 at a byte offset of a byte buffer (weights, tables), and storing one there. */
double sg_ref_f16_at(const void *base, uint64_t byte_offset);
void sg_ref_f16_put(void *base, uint64_t byte_offset, double v);

bool sg_ref_is_float(spvgen_component_type t);
/* Unit roundoff of f16, bf16 and f32 (2^-11, 2^-8, 2^-24); 0 for the others. */
double sg_ref_unit(spvgen_component_type t);

/* splitmix64 */
uint64_t sg_ref_rng_next(uint64_t *s);
/* A double in [0, 1) from the stream. */
double sg_ref_rng_unit(uint64_t *s);
/* Nonzero values: floats of magnitude in [1/8, 1) with a random sign, s8 in [-8, 8]
 * without 0, u8 in [1, 15]. */
double sg_ref_random_value(uint64_t *s, spvgen_component_type t);
/* n random elements of type t (malloc'd; NULL when out of memory). */
void *sg_ref_fill(uint64_t *s, spvgen_component_type t, uint64_t n);

#endif
