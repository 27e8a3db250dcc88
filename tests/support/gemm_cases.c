/* tests/support/gemm_cases.c — see gemm_cases.h. */
#include "gemm_cases.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

void gemm_pack_case_desc(const gemm_pack_case *c, spvgen_gemm_variant variant, spvgen_gemm_desc *d,
                         spvgen_gemm_args *args) {
  memset(d, 0, sizeof *d);
  d->m = c->m, d->n = c->n, d->k = c->k, d->batch = c->batch;
  d->a_type = d->b_type = c->ab;
  d->acc_type = c->acc;
  d->out_type = c->out;
  d->pack = c->pack;
  d->variant = variant;
  d->a_layout = (spvgen_matrix_layout)(c->layout & 1);
  d->b_layout = (spvgen_matrix_layout)(c->layout >> 1);
  d->alpha = c->alpha, d->beta = c->beta, d->bias = c->bias, d->activation = c->act;
  d->split_k = c->split_k;
  d->addressing = c->bda ? SPVGEN_ADDRESSING_DEVICE_ADDRESS : SPVGEN_ADDRESSING_DESCRIPTORS;
  if (c->runtime) d->ld_multiple = c->ld_multiple;
  memset(args, 0, sizeof *args);
  args->m = d->m, args->n = d->n, args->k = d->k, args->batch = d->batch;
  args->alpha = d->alpha ? d->alpha : 1.0f, args->beta = d->beta;
  args->lda = c->lda, args->ldb = c->ldb, args->ldd = c->ldd;
  if (c->pad) {
    args->stride_a = gemm_padded_stride(d->a_layout, d->m, d->k, args->lda, c->pad);
    args->stride_b = gemm_padded_stride(d->b_layout, d->k, d->n, args->ldb, c->pad);
  }
}

uint64_t gemm_padded_stride(spvgen_matrix_layout layout, uint32_t rows, uint32_t cols, uint32_t ld, uint32_t pad) {
  const bool col = layout == SPVGEN_COL_MAJOR;
  const uint32_t inner = col ? rows : cols, outer = col ? cols : rows;
  return (uint64_t)(ld ? ld : inner) * outer + pad;
}

void gemm_case_shapes(spvgen_gemm_desc *d, gemm_run_options *o, const spvgen_gemm_args *args, bool runtime) {
  if (runtime) {
    d->shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
    o->args = args;
    return;
  }
  d->lda = args->lda, d->ldb = args->ldb, d->ldc = args->ldc, d->ldd = args->ldd;
  d->stride_a = args->stride_a, d->stride_b = args->stride_b;
  d->stride_c = args->stride_c, d->stride_d = args->stride_d;
}

bool gemm_run_checked_at(const char *file, int line, spvgen_vk_context *ctx, const spvgen_gemm_desc *d,
                         const gemm_run_options *o, gemm_run_result *r, const char *what, ...) {
  char name[128], msg[1024];
  va_list ap;
  va_start(ap, what);
  vsnprintf(name, sizeof name, what, ap);
  va_end(ap);
  spvgen_status st = gemm_run(ctx, d, o, r, msg, sizeof msg);
  if (st != SPVGEN_OK) {
    test_fail_at(file, line, "%s: %s", name, msg);
    return false;
  }
  const spvgen_gemm_args *a = o->args;
  const uint64_t batch = a ? a->batch : d->batch;
  const uint64_t elements = (uint64_t)(a ? a->m : d->m) * (a ? a->n : d->n) * (batch ? batch : 1);
  if (!o->sample && r->checked != elements)
    test_fail_at(file, line, "%s [%s]: the reference checked %llu elements of %llu", name, r->plan.name,
                 (unsigned long long)r->checked, (unsigned long long)elements);
  if (r->bad != 0)
    test_fail_at(file, line, "%s [%s]: %llu of %llu elements wrong; first (%llu,%llu) batch %llu gpu %g cpu %g", name,
                 r->plan.name, (unsigned long long)r->bad, (unsigned long long)r->checked,
                 (unsigned long long)r->first_bad_row, (unsigned long long)r->first_bad_col,
                 (unsigned long long)r->first_bad_batch, r->first_bad_gpu, r->first_bad_ref);
  return true;
}

void gemm_result_checked_at(const char *file, int line, const gemm_run_result *r, const char *what) {
  const spvgen_gemm_desc *s = &r->shape;
  const uint64_t elements = (uint64_t)s->m * s->n * s->batch;
  if (r->checked != elements)
    test_fail_at(file, line, "%s [%s]: the reference checked %llu elements of %llu", what, r->plan.name,
                 (unsigned long long)r->checked, (unsigned long long)elements);
  if (r->bad != 0)
    test_fail_at(file, line, "%s [%s] %ux%ux%u batch %u: %llu of %llu wrong; first (%llu,%llu) batch %llu gpu %g cpu %g",
                 what, r->plan.name, s->m, s->n, s->k, s->batch, (unsigned long long)r->bad,
                 (unsigned long long)r->checked, (unsigned long long)r->first_bad_row,
                 (unsigned long long)r->first_bad_col, (unsigned long long)r->first_bad_batch, r->first_bad_gpu,
                 r->first_bad_ref);
}
