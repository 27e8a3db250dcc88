/* lib/ref/ref_gemm.h — the float64 reference of a GEMM (D = alpha op(A) op(B) + beta C,
 * bias, activation) and its tolerance, over host operands made with ref_convert.h's
 * random data. Internal to spvgen (lib/ref): the tuner, tools/common and the tests check
 * GEMM kernels with it. */
#ifndef SPVGEN_REF_GEMM_H
#define SPVGEN_REF_GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "ref_convert.h"
#include "spvgen/gemm.h"

uint64_t sg_ref_idx(spvgen_matrix_layout layout, uint32_t ld, uint64_t r, uint64_t c);
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
