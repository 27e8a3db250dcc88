/* tests/core/test_ref_convert.c — the host conversions of lib/ref (ref_convert.h) are the
 * builder's codec (spvgen_float_bits / spvgen_float_value, the bits spvgen_const_float
 * writes): the f16 and bf16 fast paths agree with it on every code and on the floats
 * around every rounding boundary, and the float8 paths are it. One copy of each
 * conversion in the tree: this test is what keeps the fast paths honest. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ref_convert.h"
#include "spvgen/builder.h"
#include "spvgen/coop.h"

static double codec_value(uint32_t width, uint32_t encoding, uint64_t bits) {
  double v = 0;
  CHECK(spvgen_float_value(width, encoding, bits, &v));
  return v;
}

static uint64_t codec_bits(uint32_t width, uint32_t encoding, double x) {
  uint64_t b = 0;
  CHECK(spvgen_float_bits(width, encoding, x, &b));
  return b;
}

static float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Every f16 and bf16 code decodes to the codec's value (NaN codes to NaN). */
static void test_every_f16_and_bf16_code_decodes_as_the_codec(void) {
  uint32_t bad = 0;
  for (uint32_t h = 0; h < 0x10000; h++) {
    double want = codec_value(16, SPVGEN_ABSENT, h), got = sg_ref_f16_to_f32((uint16_t)h);
    bad += isnan(want) ? !isnan(got) : want != got;
    want = codec_value(16, SPVGEN_FP_ENCODING_BFLOAT16, h), got = sg_ref_bf16_to_f32((uint16_t)h);
    bad += isnan(want) ? !isnan(got) : want != got;
    double any = sg_ref_decode(SPVGEN_COMPONENT_F16, h);
    bad += isnan(any) ? !isnan(codec_value(16, SPVGEN_ABSENT, h)) : any != codec_value(16, SPVGEN_ABSENT, h);
  }
  CHECK_EQ_U64(bad, 0);
}

/* f32 -> f16 / bf16 rounds as the codec on the floats next to every midpoint between two
 * neighbouring codes (ties to even), on the codes themselves, and on random floats of
 * every exponent (subnormal results, overflow to infinity). NaN stays NaN. */
static void test_f32_to_f16_and_bf16_round_as_the_codec(void) {
  uint32_t bad = 0, checked = 0;
  for (uint32_t h = 0; h < 0x7C00; h++) { /* positive finite f16 codes and their midpoints */
    double lo = codec_value(16, SPVGEN_ABSENT, h), hi = codec_value(16, SPVGEN_ABSENT, h + 1);
    float mid = (float)((lo + hi) / 2); /* exact: a midpoint of halves is a float */
    float around[5] = {(float)lo, mid, nextafterf(mid, 0), nextafterf(mid, INFINITY), -mid};
    for (int i = 0; i < 5; i++, checked++)
      bad += sg_ref_f32_to_f16(around[i]) != codec_bits(16, SPVGEN_ABSENT, around[i]);
  }
  uint64_t s = 0x5eedull;
  for (int i = 0; i < 200000; i++, checked += 2) {
    float f = bits_float((uint32_t)sg_ref_rng_next(&s));
    if (isnan(f)) {
      bad += !isnan(sg_ref_f16_to_f32(sg_ref_f32_to_f16(f))) + !isnan(sg_ref_bf16_to_f32(sg_ref_f32_to_bf16(f)));
      continue;
    }
    bad += sg_ref_f32_to_f16(f) != codec_bits(16, SPVGEN_ABSENT, f);
    bad += sg_ref_f32_to_bf16(f) != codec_bits(16, SPVGEN_FP_ENCODING_BFLOAT16, f);
  }
  CHECK_MSG(bad == 0, "%u of %u conversions differ from spvgen_float_bits", bad, checked);
}

/* float8: every code decodes as the codec and encodes back to itself; sg_ref_put /
 * sg_ref_get go through the same path. */
static void test_float8_codes_round_trip(void) {
  uint32_t bad = 0;
  for (uint32_t c = 0; c < 256; c++) {
    for (int e4 = 0; e4 < 2; e4++) {
      double v = sg_ref_f8_value((uint8_t)c, e4);
      double want = codec_value(8, e4 ? SPVGEN_FP_ENCODING_FLOAT8_E4M3 : SPVGEN_FP_ENCODING_FLOAT8_E5M2, c);
      bad += isnan(want) ? !isnan(v) : v != want;
      if (!isnan(v) && !isinf(v)) bad += sg_ref_f8_encode(v, e4) != c;
      uint8_t slot = 0;
      spvgen_component_type t = e4 ? SPVGEN_COMPONENT_E4M3 : SPVGEN_COMPONENT_E5M2;
      if (!isnan(v) && !isinf(v)) {
        sg_ref_put(&slot, t, 0, v);
        bad += slot != c || sg_ref_get(&slot, t, 0) != v;
      }
    }
  }
  CHECK_EQ_U64(bad, 0);
}

/* Integers: C's conversion, wrapped to the width. */
static void test_integer_codes(void) {
  CHECK_EQ_U64(sg_ref_encode(SPVGEN_COMPONENT_S8, -1.0), 0xFF);
  CHECK_EQ_U64(sg_ref_encode(SPVGEN_COMPONENT_U16, 65537.0), 1);
  CHECK(sg_ref_decode(SPVGEN_COMPONENT_S8, 0xFF) == -1.0);
  CHECK(sg_ref_decode(SPVGEN_COMPONENT_U32, 0xFFFFFFFFull) == 4294967295.0);
  CHECK(isnan(sg_ref_decode(SPVGEN_COMPONENT_S8_PACKED, 0)));
}

/* The random data the checks run on is never zero. */
static void test_random_values_are_never_zero(void) {
  uint64_t s = 1;
  spvgen_component_type ts[] = {SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_BF16, SPVGEN_COMPONENT_F32,
                                SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_U8, SPVGEN_COMPONENT_E4M3};
  uint32_t zeros = 0;
  for (size_t t = 0; t < sizeof ts / sizeof ts[0]; t++) {
    uint8_t *p = sg_ref_fill(&s, ts[t], 4096);
    CHECK(p != NULL);
    for (uint64_t i = 0; p && i < 4096; i++) zeros += sg_ref_get(p, ts[t], i) == 0.0;
    free(p);
  }
  CHECK_EQ_U64(zeros, 0);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_every_f16_and_bf16_code_decodes_as_the_codec),
      TEST_CASE(test_f32_to_f16_and_bf16_round_as_the_codec),
      TEST_CASE(test_float8_codes_round_trip),
      TEST_CASE(test_integer_codes),
      TEST_CASE(test_random_values_are_never_zero),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
