/* lib/tune/gemm_ref.h — the host side of checking a GEMM (gemm_ref.c): conversions of
 * operand elements, random nonzero operands, and the float64 reference with its
 * tolerance. Internal: used by the tuner (tune_gemm.c) and by tools/common/gemm_run.c;
 * not exported from libspvgen.so. */
#ifndef SPVGEN_TUNE_GEMM_REF_H
#define SPVGEN_TUNE_GEMM_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/gemm.h"

/* Round to nearest even. */
uint16_t sg_ref_f32_to_f16(float f);
float sg_ref_f16_to_f32(uint16_t h);
uint16_t sg_ref_f32_to_bf16(float f);
float sg_ref_bf16_to_f32(uint16_t h);
double sg_ref_f8_value(uint8_t v, bool e4m3);
uint8_t sg_ref_f8_encode(double x, bool e4m3);

/* Element i of a host array of component type t, and storing v there (rounded). */
double sg_ref_get(const void *p, spvgen_component_type t, uint64_t i);
void sg_ref_put(void *p, spvgen_component_type t, uint64_t i, double v);
bool sg_ref_is_float(spvgen_component_type t);
/* Unit roundoff of a float type (0 for integers). */
double sg_ref_unit(spvgen_component_type t);

/* splitmix64 */
uint64_t sg_ref_rng_next(uint64_t *s);
/* Nonzero values: floats of magnitude in [1/8, 1) with a random sign, s8 in [-8, 8]
 * without 0, u8 in [1, 15]. */
double sg_ref_random_value(uint64_t *s, spvgen_component_type t);
/* n random elements of type t (malloc'd; NULL when out of memory). */
void *sg_ref_fill(uint64_t *s, spvgen_component_type t, uint64_t n);

uint64_t sg_ref_idx(spvgen_matrix_layout layout, uint32_t ld, uint64_t r, uint64_t c);
double sg_ref_activation(double x, spvgen_activation act);
/* Offset in D of its element lin (over batch, row, column), with the coordinates. */
uint64_t sg_ref_d_offset(const spvgen_gemm_desc *d, uint64_t lin, uint64_t *bz, uint64_t *r,
                         uint64_t *c);
/* The float64 reference of D's element lin for a resolved desc and host operands (hc,
 * hbias NULL when unused), and its tolerance: exact for integer accumulate and output,
 * else 16 ulps of sum |a*b| for f32 accumulation (8 for f16: tensor cores truncate in
 * chunks), 2 ulps of the output, and 3e-5 relative for gelu/silu (exp/tanh precision is
 * implementation-defined in Vulkan). d_index (optional) gets the element's offset in D. */
void sg_ref_gemm_element(const spvgen_gemm_desc *d, const void *ha, const void *hb, const void *hc,
                         const void *hbias, uint64_t lin, double *ref_out, double *tol_out,
                         uint64_t *d_index);

#endif
