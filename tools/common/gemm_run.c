/* tools/common/gemm_run.c — see gemm_run.h: the one run-and-check lifecycle
 * (template_run.h) with the GEMM's options and result. */
#define _POSIX_C_SOURCE 200809L
#include "gemm_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ref_gemm.h"
#include "template_run.h"

static template_run_options lifecycle_options(const gemm_run_options *o) {
  template_run_options t;
  memset(&t, 0, sizeof t);
  t.request.seed = o->seed;
  t.request.args = o->args;
  t.warmup = o->warmup;
  t.warmup_ms = o->warmup_ms;
  t.repeats = o->repeats ? o->repeats : 1;
  t.rounds = 3; /* the best median of three back-to-back submissions counts */
  t.stable_pct = o->stable_pct;
  t.round_ms = o->round_ms;
  t.sample = o->sample;
  t.no_check = o->no_check;
  t.recheck = o->recheck;
  t.statistics = o->statistics;
  t.glsl450_memory_model = o->glsl450_memory_model;
  return t;
}

static void on_data(const sg_run_data *data, void *user) {
  gemm_run_result *res = user;
  sg_gemm_run_shape(data, &res->launch, &res->shape);
}

/* The lifecycle's result in gemm_run_result's words. */
static void fill_result(const template_run_result *t, gemm_run_result *res) {
  const sg_check *c = &t->check;
  res->checked = c->checked;
  res->bad = c->bad;
  res->max_err = c->max_err;
  res->max_err_tol = c->max_err_tol;
  res->worst_ratio = c->worst_ratio;
  if (c->bad) {
    sg_ref_d_offset(&res->shape, c->first_bad, &res->first_bad_batch, &res->first_bad_row, &res->first_bad_col);
    res->first_bad_gpu = c->first_bad_gpu;
    res->first_bad_ref = c->first_bad_ref;
  }
  res->median_ns = t->median_ns;
  res->min_ns = t->min_ns;
  res->repeats = t->repeats;
  res->rounds = t->rounds;
  res->stable = t->stable;
  res->worst_round_median_ns = t->worst_round_median_ns;
  res->wall_ns = t->wall_ns;
  res->warmup_ms = t->warmup_ms;
  res->warmup_steady = t->warmup_steady;
  res->clock_mhz = t->clock_mhz;
  res->tflops = t->tflops;
  res->emit_us = t->emit_us;
  res->pipeline_ms = t->pipeline_ms;
  res->kernels = t->kernels;
  for (uint32_t k = 0; k < t->kernels && k < 3; k++) res->kernel_pipeline_ms[k] = t->kernel_pipeline_ms[k];
  res->first_compile = t->first_compile;
  memcpy(res->stats, t->stats, sizeof res->stats);
}

spvgen_status gemm_run(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc, const gemm_run_options *options,
                       gemm_run_result *res, char *msg, size_t size) {
  return gemm_run_shapes(ctx, desc, NULL, 1, options, res, msg, size);
}

spvgen_status gemm_run_shapes(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc, const spvgen_gemm_args *shapes,
                              uint32_t count, const gemm_run_options *options, gemm_run_result *res, char *msg,
                              size_t size) {
  const gemm_run_options opt = options ? *options : (gemm_run_options){0};
  if (!count) return snprintf(msg, size, "no shapes"), SPVGEN_ERROR_INVALID_ARGUMENT;
  memset(res, 0, count * sizeof *res);
  template_run_options t = lifecycle_options(&opt);
  template_run_result tr;
  memset(&tr, 0, sizeof tr);
  template_built *b = NULL;
  spvgen_status st = template_build(ctx, &sg_template_gemm, desc, NULL, &t, &b, &tr, msg, size);
  for (uint32_t i = 0; i < count && st == SPVGEN_OK; i++) {
    res[i].plan = *(const spvgen_gemm_config *)template_built_plan(b);
    t.request.args = shapes ? &shapes[i] : opt.args;
    t.on_data = on_data;
    t.user = &res[i];
    st = template_run_built(b, &t, &tr, msg, size);
    fill_result(&tr, &res[i]);
  }
  if (st != SPVGEN_OK && b == NULL) res[0].emit_us = tr.emit_us;
  template_built_free(b);
  return st;
}

spvgen_status gemm_compile_in_background(spvgen_vk_context *ctx, const spvgen_gemm_config *plan,
                                         const spvgen_vk_pipeline_options *options,
                                         spvgen_vk_compile *c[SPVGEN_GEMM_KERNEL_COUNT], uint32_t *count,
                                         char *message, size_t message_size) {
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT] = {{0}};
  uint32_t n = 0;
  *count = 0;
  spvgen_status st = spvgen_gemm_plan_kernels(plan, k, &n, message, message_size);
  for (uint32_t j = 0; j < n && st == SPVGEN_OK; j++) {
    const spvgen_vk_pipeline_request rq = {k[j].words, k[j].word_count, &k[j].info, options};
    st = spvgen_vk_pipeline_create_async(ctx, &rq, &c[j]); /* the words are copied */
    if (st == SPVGEN_OK) (*count)++;
    else snprintf(message, message_size, "%s: kernel %u: %s", plan->name, j, spvgen_vk_error(ctx));
  }
  if (st != SPVGEN_OK) {
    for (uint32_t j = 0; j < *count; j++) spvgen_vk_compile_cancel(c[j]), c[j] = NULL;
    *count = 0;
  }
  for (uint32_t j = 0; j < n; j++) spvgen_kernel_free(&k[j]);
  return st;
}

spvgen_status gemm_finish_background(spvgen_vk_context *ctx, spvgen_vk_compile *c[SPVGEN_GEMM_KERNEL_COUNT],
                                     uint32_t count, spvgen_vk_pipeline *p[SPVGEN_GEMM_KERNEL_COUNT], double *ms,
                                     char *message, size_t message_size) {
  spvgen_status first = SPVGEN_OK;
  if (ms) *ms = 0;
  for (uint32_t j = 0; j < count; j++) {
    double t = 0;
    p[j] = NULL;
    spvgen_status st = spvgen_vk_compile_finish(c[j], &p[j], &t);
    c[j] = NULL;
    if (ms) *ms += t;
    if (st != SPVGEN_OK && first == SPVGEN_OK) {
      first = st;
      snprintf(message, message_size, "kernel %u: %s", j, spvgen_vk_error(ctx));
    }
  }
  if (first != SPVGEN_OK) /* all or none */
    for (uint32_t j = 0; j < count; j++) spvgen_vk_pipeline_destroy(p[j]), p[j] = NULL;
  return first;
}

spvgen_status gemm_ask_cached(spvgen_vk_context *ctx, const spvgen_gemm_config *plans, uint32_t count, bool *found,
                              char *message, size_t message_size) {
  static const spvgen_vk_pipeline_options cached_only = {.cached_only = true};
  spvgen_status first = SPVGEN_OK;
  spvgen_vk_compile *(*ask)[SPVGEN_GEMM_KERNEL_COUNT] = calloc(count ? count : 1, sizeof *ask);
  uint32_t *na = calloc(count ? count : 1, sizeof *na);
  if (!ask || !na) {
    free(ask);
    free(na);
    snprintf(message, message_size, "out of host memory");
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  for (uint32_t j = 0; j < count; j++) {
    found[j] = false;
    if (first == SPVGEN_OK) first = gemm_compile_in_background(ctx, &plans[j], &cached_only, ask[j], &na[j], message,
                                                               message_size);
  }
  for (uint32_t j = 0; j < count; j++) { /* every ask started is answered, failure or not */
    if (!na[j]) continue;
    spvgen_vk_pipeline *p[SPVGEN_GEMM_KERNEL_COUNT] = {0};
    char why[512];
    const spvgen_status st = gemm_finish_background(ctx, ask[j], na[j], p, NULL, why, sizeof why);
    for (uint32_t k = 0; k < SPVGEN_GEMM_KERNEL_COUNT; k++) spvgen_vk_pipeline_destroy(p[k]);
    found[j] = st == SPVGEN_OK;
    if (st != SPVGEN_OK && st != SPVGEN_ERROR_NOT_CACHED && first == SPVGEN_OK) {
      first = st;
      snprintf(message, message_size, "%s", why);
    }
  }
  free(ask);
  free(na);
  return first;
}

spvgen_status gemm_tier_ask(spvgen_vk_context *ctx, const spvgen_gemm_config *plan, const spvgen_gemm_config *quick,
                            spvgen_vk_compile *qc[SPVGEN_GEMM_KERNEL_COUNT], uint32_t *nq,
                            spvgen_vk_pipeline *p[SPVGEN_GEMM_KERNEL_COUNT], double *ask_ms, char *message,
                            size_t message_size) {
  static const spvgen_vk_pipeline_options cached_only = {.cached_only = true};
  spvgen_vk_compile *ask[SPVGEN_GEMM_KERNEL_COUNT] = {0};
  uint32_t na = 0;
  if (ask_ms) *ask_ms = 0;
  /* the quick form first: a process's first pipeline creation pays the driver's set-up,
   * which the question then need not wait for */
  spvgen_status st = gemm_compile_in_background(ctx, quick, NULL, qc, nq, message, message_size);
  if (st != SPVGEN_OK) return st;
  const double t0 = sg_now_ms();
  st = gemm_compile_in_background(ctx, plan, &cached_only, ask, &na, message, message_size);
  if (st == SPVGEN_OK) st = gemm_finish_background(ctx, ask, na, p, NULL, message, message_size);
  if (ask_ms) *ask_ms = sg_now_ms() - t0;
  if (st != SPVGEN_OK && st != SPVGEN_ERROR_NOT_CACHED) { /* failed: nothing left running */
    for (uint32_t j = 0; j < *nq; j++) spvgen_vk_compile_cancel(qc[j]), qc[j] = NULL;
    *nq = 0;
  }
  return st;
}
