/* emitters/gemm/gemm_internal.h — what the GEMM variants share with emitters/gemm/gemm.c:
 * one table entry per variant (zstd's block-compressor table: one signature, picked by
 * an enum), and the plan-time helpers they use. */
#ifndef SPVGEN_EMITTERS_GEMM_INTERNAL_H
#define SPVGEN_EMITTERS_GEMM_INTERNAL_H

#include <stdarg.h>

#include "../common/common.h"
#include "spvgen/gemm.h"

typedef struct gemm_variant_ops {
  const char *name; /* as spvgen_gemm_variant_name */
  /* Completes a plan whose desc is resolved except the knobs (tile_*, workgroup_size,
   * subgroups, stages, unroll: 0 = the variant chooses): checks what the variant needs
   * from the device and the desc, fills those knobs, local_size, groups, frag_*,
   * warp_*, shared_bytes, features, subgroup_size. On failure: a status and a message
   * (gemm_fail) naming the field and the reason. */
  spvgen_status (*plan)(const spvgen_device_caps *caps, spvgen_gemm_config *plan, char *msg,
                        size_t size);
  /* Knob settings worth trying for desc on this device, best guess first: copies of desc
   * with knobs set (knobs desc already sets must be kept). Returns the count written (at
   * most max). */
  uint32_t (*candidates)(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc,
                         spvgen_gemm_desc *out, uint32_t max);
  /* Emits the kernel of a complete plan into m (errors: the module's sticky error). */
  void (*emit)(spvgen_module *m, const spvgen_gemm_config *plan);
} gemm_variant_ops;

extern const gemm_variant_ops gemm_variant_coopmat2;
extern const gemm_variant_ops gemm_variant_khr;
extern const gemm_variant_ops gemm_variant_simt;

/* Writes "spvgen_gemm_plan: <fmt>" into msg; returns st. */
spvgen_status gemm_fail(char *msg, size_t size, spvgen_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The largest u32 element index any operand reaches must stay below 2^32 (indices are
 * 32-bit in the kernels). Checked by gemm.c before the variants see a plan. */

/* Fills plan->name: "<variant> <a>,<b>-><acc>[-><out>] <tm>x<tn>x<tk> w<local> ...". */
void gemm_plan_name(spvgen_gemm_config *plan, const char *extra);

static inline uint32_t gemm_ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static inline bool gemm_pow2(uint32_t x) { return x && !(x & (x - 1)); }

/* Dispatch grid for a workgroup tile: (ceil(N / tile_n), ceil(M / tile_m), batch). */
void gemm_set_grid(spvgen_gemm_config *plan);

/* The type features every variant needs for the desc's element types (f16 arithmetic and
 * 16-bit storage, int8 and 8-bit storage ...), not counting cooperative ones. */
uint64_t gemm_type_features(const spvgen_gemm_desc *d);

/* The desc's batch offsets as u32 ids for batch index `z` (an id): z * stride_x, or 0
 * when batch is 1. */
uint32_t gemm_batch_offset(spvgen_module *m, const spvgen_gemm_desc *d, uint32_t z,
                           uint64_t stride);

#endif
