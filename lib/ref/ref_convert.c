/* lib/ref/ref_convert.c — see ref_convert.h. */
#define _POSIX_C_SOURCE 200809L
#include "ref_convert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spvgen/builder.h" /* spvgen_float_bits / spvgen_float_value: the one codec */
#include "spvgen/coop.h"    /* the float8 encodings */

/* ------------------------------------------------------- f16 and bf16 ---- */
/* Bit-level: the references and data generators convert every element of large
 * operands. tests/core/test_ref_convert.c checks them against the codec. */

uint16_t sg_ref_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = (int32_t)((x >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = x & 0x7FFFFFu;
  if (((x >> 23) & 0xFF) == 0xFF) return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0));
  if (exp >= 31) return (uint16_t)(sign | 0x7C00u);
  if (exp <= 0) {
    if (exp < -10) return (uint16_t)sign;
    mant |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - exp);
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
  return (uint16_t)(sign | h);
}

float sg_ref_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, mant = h & 0x3FFu;
  float f;
  if (exp == 0) {
    f = ldexpf((float)mant, -24);
    return sign ? -f : f;
  }
  uint32_t x = exp == 31 ? sign | 0x7F800000u | (mant << 13) : sign | ((exp + 112) << 23) | (mant << 13);
  memcpy(&f, &x, 4);
  return f;
}

uint16_t sg_ref_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7F800000u) == 0x7F800000u) return (uint16_t)((x >> 16) | ((x & 0xFFFF) ? 0x40 : 0));
  x += 0x7FFFu + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

float sg_ref_bf16_to_f32(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* ------------------------------------------------------------- the codec ---- */

/* The width and encoding of a float component type for the builder's codec. */
static bool float_format(spvgen_component_type t, uint32_t *width, uint32_t *encoding) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: *width = 16, *encoding = SPVGEN_ABSENT; return true;
  case SPVGEN_COMPONENT_BF16: *width = 16, *encoding = SPVGEN_FP_ENCODING_BFLOAT16; return true;
  case SPVGEN_COMPONENT_F32: *width = 32, *encoding = SPVGEN_ABSENT; return true;
  case SPVGEN_COMPONENT_F64: *width = 64, *encoding = SPVGEN_ABSENT; return true;
  case SPVGEN_COMPONENT_E4M3: *width = 8, *encoding = SPVGEN_FP_ENCODING_FLOAT8_E4M3; return true;
  case SPVGEN_COMPONENT_E5M2: *width = 8, *encoding = SPVGEN_FP_ENCODING_FLOAT8_E5M2; return true;
  default: return false;
  }
}

double sg_ref_f8_value(uint8_t v, bool e4m3) {
  return sg_ref_decode(e4m3 ? SPVGEN_COMPONENT_E4M3 : SPVGEN_COMPONENT_E5M2, v);
}

uint8_t sg_ref_f8_encode(double x, bool e4m3) {
  return (uint8_t)sg_ref_encode(e4m3 ? SPVGEN_COMPONENT_E4M3 : SPVGEN_COMPONENT_E5M2, x);
}

double sg_ref_decode(spvgen_component_type t, uint64_t bits) {
  uint32_t width, encoding;
  double v;
  if (float_format(t, &width, &encoding)) return spvgen_float_value(width, encoding, bits, &v) ? v : NAN;
  switch (t) {
  case SPVGEN_COMPONENT_S8: return (double)(int8_t)(uint8_t)bits;
  case SPVGEN_COMPONENT_U8: return (double)(uint8_t)bits;
  case SPVGEN_COMPONENT_S16: return (double)(int16_t)(uint16_t)bits;
  case SPVGEN_COMPONENT_U16: return (double)(uint16_t)bits;
  case SPVGEN_COMPONENT_S32: return (double)(int32_t)(uint32_t)bits;
  case SPVGEN_COMPONENT_U32: return (double)(uint32_t)bits;
  case SPVGEN_COMPONENT_S64: return (double)(int64_t)bits;
  case SPVGEN_COMPONENT_U64: return (double)bits;
  default: return NAN;
  }
}

/* C's conversion of a double to an integer of `bits` bits, wrapped (out-of-range and
 * NaN values are undefined in C: through int64 / uint64 with the range checked). */
static uint64_t to_int_bits(double x, uint32_t bits) {
  uint64_t u;
  if (!(x == x)) u = 0;
  else if (x >= 0 && x < 18446744073709551616.0) u = (uint64_t)x;
  else if (x < 0 && x >= -9223372036854775808.0) u = (uint64_t)(int64_t)x;
  else u = 0;
  return bits == 64 ? u : u & ((1ull << bits) - 1);
}

uint64_t sg_ref_encode(spvgen_component_type t, double x) {
  uint32_t width, encoding;
  uint64_t bits = 0;
  if (float_format(t, &width, &encoding)) return spvgen_float_bits(width, encoding, x, &bits) ? bits : 0;
  switch (t) {
  case SPVGEN_COMPONENT_S8: case SPVGEN_COMPONENT_U8: return to_int_bits(x, 8);
  case SPVGEN_COMPONENT_S16: case SPVGEN_COMPONENT_U16: return to_int_bits(x, 16);
  case SPVGEN_COMPONENT_S32: case SPVGEN_COMPONENT_U32: return to_int_bits(x, 32);
  case SPVGEN_COMPONENT_S64: case SPVGEN_COMPONENT_U64: return to_int_bits(x, 64);
  default: return 0;
  }
}

/* ------------------------------------------------------------ host arrays ---- */

double sg_ref_get(const void *p, spvgen_component_type t, uint64_t i) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: return sg_ref_f16_to_f32(((const uint16_t *)p)[i]);
  case SPVGEN_COMPONENT_BF16: return sg_ref_bf16_to_f32(((const uint16_t *)p)[i]);
  case SPVGEN_COMPONENT_F32: return ((const float *)p)[i];
  case SPVGEN_COMPONENT_S8: return ((const int8_t *)p)[i];
  case SPVGEN_COMPONENT_U8: return ((const uint8_t *)p)[i];
  case SPVGEN_COMPONENT_S32: return ((const int32_t *)p)[i];
  case SPVGEN_COMPONENT_U32: return ((const uint32_t *)p)[i];
  case SPVGEN_COMPONENT_E4M3: return sg_ref_f8_value(((const uint8_t *)p)[i], true);
  case SPVGEN_COMPONENT_E5M2: return sg_ref_f8_value(((const uint8_t *)p)[i], false);
  default: return NAN;
  }
}

void sg_ref_put(void *p, spvgen_component_type t, uint64_t i, double v) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: ((uint16_t *)p)[i] = sg_ref_f32_to_f16((float)v); break;
  case SPVGEN_COMPONENT_BF16: ((uint16_t *)p)[i] = sg_ref_f32_to_bf16((float)v); break;
  case SPVGEN_COMPONENT_F32: ((float *)p)[i] = (float)v; break;
  case SPVGEN_COMPONENT_S8: ((int8_t *)p)[i] = (int8_t)v; break;
  case SPVGEN_COMPONENT_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
  case SPVGEN_COMPONENT_S32: ((int32_t *)p)[i] = (int32_t)v; break;
  case SPVGEN_COMPONENT_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
  case SPVGEN_COMPONENT_E4M3: ((uint8_t *)p)[i] = sg_ref_f8_encode(v, true); break;
  case SPVGEN_COMPONENT_E5M2: ((uint8_t *)p)[i] = sg_ref_f8_encode(v, false); break;
  default: break;
  }
}

double sg_ref_f16_at(const void *base, uint64_t byte_offset) {
  uint16_t h;
  memcpy(&h, (const uint8_t *)base + byte_offset, 2);
  return sg_ref_f16_to_f32(h);
}

void sg_ref_f16_put(void *base, uint64_t byte_offset, double v) {
  uint16_t h = sg_ref_f32_to_f16((float)v);
  memcpy((uint8_t *)base + byte_offset, &h, 2);
}

bool sg_ref_is_float(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_BF16 || t == SPVGEN_COMPONENT_F32;
}

double sg_ref_unit(spvgen_component_type t) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: return ldexp(1.0, -11);
  case SPVGEN_COMPONENT_BF16: return ldexp(1.0, -8);
  case SPVGEN_COMPONENT_F32: return ldexp(1.0, -24);
  default: return 0.0;
  }
}

/* ----------------------------------------------------------- random data ---- */

uint64_t sg_ref_rng_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double sg_ref_rng_unit(uint64_t *s) { return (double)(sg_ref_rng_next(s) >> 11) / 9007199254740992.0; }

double sg_ref_random_value(uint64_t *s, spvgen_component_type t) {
  uint64_t r = sg_ref_rng_next(s);
  if (t == SPVGEN_COMPONENT_S8) {
    int v = (int)(r % 16) - 8;
    return v >= 0 ? v + 1 : v;
  }
  if (t == SPVGEN_COMPONENT_U8) return (double)(r % 15 + 1);
  double mag = 0.125 + 0.875 * (double)(r >> 11) / 9007199254740992.0;
  return (r & 1) ? -mag : mag;
}

void *sg_ref_fill(uint64_t *s, spvgen_component_type t, uint64_t n) {
  uint32_t es = spvgen_component_type_size(t);
  void *p = malloc(n * es > 0 ? n * es : 1);
  if (!p) return NULL;
  for (uint64_t i = 0; i < n; i++) sg_ref_put(p, t, i, sg_ref_random_value(s, t));
  return p;
}
