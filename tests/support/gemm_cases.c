/* tests/support/gemm_cases.c — see gemm_cases.h. */
#include "gemm_cases.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ref_activation.h"
#include "ref_convert.h"

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

/* The values of gemm_activation_precision, at most `max` of them up to max_x. */
static uint32_t precision_values(double max_x, float *x, uint32_t max) {
  uint32_t n = 0;
  static const double fixed[] = {0.0, 0x1p-24, 3 * 0x1p-24, -0x1p-20, 0.125 - 0x1p-14, 0.125, 0.125 + 0x1p-13,
                                 -0.125 - 0x1p-13};
  for (uint32_t i = 0; i < sizeof fixed / sizeof fixed[0] && n < max; i++) x[n++] = (float)fixed[i];
  for (int e = -14; e <= 4; e++)
    for (int f = 0; f < 8; f += 3)
      for (int sign = 0; sign < 2; sign++) {
        const double v = ldexp(1.0 + f / 8.0, e) * (sign ? -1.0 : 1.0);
        if (fabs(v) <= max_x && n < max) x[n++] = (float)v;
      }
  return n;
}

int gemm_activation_precision(spvgen_vk_context *ctx, spvgen_gemm_variant variant, spvgen_activation act,
                              double max_x, double rel_tol, char *first, size_t size) {
  enum { MAXV = 128 };
  float x[MAXV];
  const uint32_t n = precision_values(max_x, x, MAXV);
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = 1;
  d.n = n;
  d.k = 1;
  d.acc_type = d.out_type = SPVGEN_COMPONENT_F32;
  d.activation = act;
  d.variant = variant;
  d.split_k = 1;
  d.pack = SPVGEN_GEMM_PACK_NONE;
  spvgen_kernel k;
  memset(&k, 0, sizeof k);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *buf[3] = {NULL, NULL, NULL};
  int bad = -1;
  uint16_t a[8] = {0}, b[MAXV] = {0};
  float out[MAXV];
  snprintf(first, size, "no value off");
  if (spvgen_gemm(&d, spvgen_vk_caps(ctx), &k, first, size) != SPVGEN_OK) goto done;
  if (spvgen_vk_pipeline_create_kernel(ctx, &k, NULL, &pipe) != SPVGEN_OK) goto vk_failed;
  a[0] = sg_ref_f32_to_f16(1.0f);
  for (uint32_t i = 0; i < n; i++) b[i] = sg_ref_f32_to_f16(x[i]);
  const void *data[3] = {a, b, NULL};
  const uint64_t bytes[3] = {sizeof a, sizeof b, sizeof out};
  for (uint32_t i = 0; i < 3; i++) {
    uint64_t want = spvgen_vk_pipeline_binding_min_size(pipe, i);
    if (want < bytes[i]) want = bytes[i];
    if (spvgen_vk_buffer_create(ctx, (want + 255) / 256 * 256, 0, &buf[i]) != SPVGEN_OK ||
        spvgen_vk_buffer_fill(ctx, buf[i], 0, (want + 255) / 256 * 256, 0) != SPVGEN_OK ||
        (data[i] && spvgen_vk_buffer_upload(ctx, buf[i], 0, data[i], bytes[i]) != SPVGEN_OK))
      goto vk_failed;
  }
  if (spvgen_vk_dispatch(ctx, pipe, buf, 3, NULL, 0, k.info.groups[0] ? k.info.groups[0] : 1, k.info.groups[1] ? k.info.groups[1] : 1,
                         k.info.groups[2] ? k.info.groups[2] : 1,
                         NULL) != SPVGEN_OK ||
      spvgen_vk_buffer_download(ctx, buf[2], 0, out, sizeof out) != SPVGEN_OK)
    goto vk_failed;
  bad = 0;
  for (uint32_t i = 0; i < n; i++) {
    const double xv = (double)sg_ref_f16_to_f32(b[i]), ref = sg_ref_activation(xv, act, 0.0);
    const double err = fabs((double)out[i] - ref);
    if (err <= rel_tol * fabs(ref)) continue;
    if (bad++ == 0)
      snprintf(first, size, "%s on %s: x %.9g gave %.9g, float64 %.9g (relative error %.3g, bound %.3g)",
               spvgen_activation_name(act), spvgen_gemm_variant_name(variant), xv, (double)out[i], ref,
               ref != 0.0 ? err / fabs(ref) : INFINITY, rel_tol);
  }
  goto done;
vk_failed:
  snprintf(first, size, "%s", spvgen_vk_error(ctx));
done:
  for (uint32_t i = 0; i < 3; i++) spvgen_vk_buffer_destroy(buf[i]);
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_kernel_free(&k);
  return bad;
}

void gemm_activations_precise_at(const char *file, int line, spvgen_vk_context *ctx, spvgen_gemm_variant variant) {
  static const struct { spvgen_activation act; double max_x, tol; } cases[] = {
      {SPVGEN_ACTIVATION_TANH, 16.0, 8e-6},
      {SPVGEN_ACTIVATION_GELU, 4.0, 1e-5},
      {SPVGEN_ACTIVATION_SIGMOID, 16.0, 8e-6},
      {SPVGEN_ACTIVATION_SILU, 16.0, 8e-6}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char first[512];
    int bad = gemm_activation_precision(ctx, variant, cases[i].act, cases[i].max_x, cases[i].tol, first, sizeof first);
    if (bad != 0)
      test_fail_at(file, line, "%s: %d values off; first: %s", spvgen_activation_name(cases[i].act), bad, first);
  }
}
