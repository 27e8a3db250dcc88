/* tests/support/gemm_cases.h — GEMM run cases written as rows of plain values, and what
 * turns a row into the desc and arguments gemm_run takes (tools/common/gemm_run.h).
 *
 *   gemm_pack_case       a packed-operand case (desc.pack): the lavapipe runs of the simt
 *                        variant (tests/gemm/test_gemm_pack.c) and the coopmat2 runs on
 *                        the GPU (tests/gpu/test_gpu_gemm.c) use the same rows, so a
 *                        case means the same on both.
 *   gemm_padded_stride   the elements between batches of a padded matrix.
 *   gemm_case_shapes     a case's arguments as run-time shapes, or fixed in the desc.
 *   gemm_run_checked     a case's run, every element of D against the reference. */
#ifndef SPVGEN_TEST_GEMM_CASES_H
#define SPVGEN_TEST_GEMM_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "gemm_run.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"

/* One packed-operand case. Zero fields take the defaults: tight leading dimensions and
 * strides, alpha 1, no C, bias or activation, one K slice. */
typedef struct gemm_pack_case {
  uint32_t m, n, k, batch;
  spvgen_component_type ab, acc, out; /* A's and B's type, the accumulator's, D's */
  spvgen_gemm_pack pack;
  int layout; /* bits: A, B column-major */
  uint32_t lda, ldb, ldd;
  uint32_t pad; /* nonzero: A's and B's batches this many elements further apart than
                   their leading dimension times their outer extent */
  float alpha, beta;
  spvgen_gemm_bias bias;
  spvgen_activation act;
  uint32_t split_k;
  bool runtime, bda; /* run-time shapes; operands by device address */
  uint32_t ld_multiple; /* run-time shapes: the class's (0: 1) */
} gemm_pack_case;

/* c's desc for `variant` (the plan's tile sizes left to the planner) and the arguments
 * its shape, leading dimensions, strides, alpha and beta make. The desc's shapes stay
 * fixed with tight leading dimensions: gemm_case_shapes puts the arguments in. */
void gemm_pack_case_desc(const gemm_pack_case *c, spvgen_gemm_variant variant, spvgen_gemm_desc *d,
                         spvgen_gemm_args *args);

/* The batch stride of a rows x cols matrix in `layout` with leading dimension ld (0:
 * tight) and `pad` elements after each matrix: ld times the outer extent, plus pad. */
uint64_t gemm_padded_stride(spvgen_matrix_layout layout, uint32_t rows, uint32_t cols, uint32_t ld, uint32_t pad);

/* args as run-time shapes (d's shapes RUNTIME, o->args = args, which must outlive the
 * run), or, where !runtime, fixed in d: its leading dimensions and strides from args. */
void gemm_case_shapes(spvgen_gemm_desc *d, gemm_run_options *o, const spvgen_gemm_args *args, bool runtime);

/* gemm_run of d with o into *r, checked: fails the test (at the caller's line, naming the
 * case by the printf-style `what`) unless the run succeeded, the reference checked every
 * element of D (m x n x batch of o->args, else of d; any number where o->sample is set)
 * and none was wrong (the failure names the first). Returns whether the run succeeded,
 * so the caller can check more of *r. */
/* A finished run's result, checked: every element of its shape (r->shape: m x n x batch)
 * compared and none wrong; a failure names `what`, the plan and the first wrong element. */
#define gemm_result_checked(r, what) gemm_result_checked_at(__FILE__, __LINE__, (r), (what))
void gemm_result_checked_at(const char *file, int line, const gemm_run_result *r, const char *what);

#define gemm_run_checked(ctx, d, o, r, ...) gemm_run_checked_at(__FILE__, __LINE__, (ctx), (d), (o), (r), __VA_ARGS__)
bool gemm_run_checked_at(const char *file, int line, spvgen_vk_context *ctx, const spvgen_gemm_desc *d,
                         const gemm_run_options *o, gemm_run_result *r, const char *what, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* The epilogue's f32 activation against float64, value by value, with a relative bound:
 * D = act(x) through a FIXED 1 x n x 1 GEMM on `variant` (A = 1, B the values x, exact
 * in f16: 0, subnormals, then +-(1 + f/8) 2^e from 2^-14 up to `max_x`, and the three
 * halves next to 1/8), f32 out, no bias. Returns the number of values whose error passes
 * rel_tol x |act(x)| (a zero must come back zero), or -1 where the kernel could not be
 * made or run (msg says why); *first gets a description of the first value off. */
int gemm_activation_precision(spvgen_vk_context *ctx, spvgen_gemm_variant variant, spvgen_activation act,
                              double max_x, double rel_tol, char *first, size_t size);

/* gemm_activation_precision of tanh, gelu, sigmoid and silu on `variant`, each with its
 * bound (8e-6 relative up to |x| 16; gelu 1e-5 up to 4), checked: a failure names the
 * activation, the count and the first value off. */
#define gemm_activations_precise(ctx, variant) gemm_activations_precise_at(__FILE__, __LINE__, (ctx), (variant))
void gemm_activations_precise_at(const char *file, int line, spvgen_vk_context *ctx, spvgen_gemm_variant variant);

#endif
