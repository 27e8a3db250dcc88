/* tools/common/mlp_run.c — see mlp_run.h. */
#define _POSIX_C_SOURCE 200809L
#include "mlp_run.h"

#include "clock.h"
#include "warm_up.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ref_convert.h"
#include "ref_mlp.h"
#include "template.h"
#include "template_run.h"

/* The data and the reference are lib/ref/ref_mlp.c's (shared with the tuner). */

bool mlp_run_make_data(const spvgen_mlp_config *p, uint64_t points, uint64_t seed,
                       mlp_run_data *data) {
  memset(data, 0, sizeof *data);
  data->points = points;
  data->weights = malloc(p->weight_bytes ? p->weight_bytes : 1);
  uint32_t isz = spvgen_component_type_size(p->desc.input_type);
  uint64_t in_bytes = points * p->desc.input_width * isz;
  data->input = malloc(in_bytes ? in_bytes : 1);
  if (!data->weights || !data->input) {
    mlp_run_free_data(data);
    return false;
  }
  sg_ref_mlp_fill(p, points, seed, data->weights, data->input);
  return true;
}

void mlp_run_free_data(mlp_run_data *data) {
  free(data->weights);
  free(data->input);
  memset(data, 0, sizeof *data);
}

void mlp_reference(const spvgen_mlp_config *p, const mlp_run_data *data, uint64_t pt,
                   double *out, double *err) {
  sg_ref_mlp_point(p, data->weights, data->input, pt, out, err);
}

/* Point pt's outputs, at row `at` of the host copy gpu (the index of an element is
 * pt * output_width + component, as the template's run_check has it). */
static void check_point(const spvgen_mlp_config *p, const void *gpu, uint64_t pt, uint64_t at, const double *ref,
                        const double *err, sg_check *c) {
  const spvgen_mlp_desc *d = &p->desc;
  for (uint32_t k = 0; k < d->output_width; k++)
    sg_check_element(c, pt * d->output_width + k, sg_ref_get(gpu, d->output_type, at * d->output_width + k), ref[k],
                     sg_ref_mlp_tolerance(p, ref[k], err[k]));
}

/* A check's verdict in mlp_run_result's words. */
static void check_result(const sg_check *c, uint32_t output_width, mlp_run_result *res) {
  res->checked = c->checked;
  res->bad = c->bad;
  res->max_err = c->max_err;
  res->max_err_tol = c->max_err_tol;
  res->worst_ratio = c->worst_ratio;
  if (c->bad) {
    res->first_bad_point = c->first_bad / output_width;
    res->first_bad_component = c->first_bad % output_width;
    res->first_bad_gpu = c->first_bad_gpu;
    res->first_bad_ref = c->first_bad_ref;
    res->first_bad_tol = c->first_bad_tol;
  }
}

void mlp_run_check(const spvgen_mlp_config *p, const mlp_run_data *data, const void *gpu,
                   mlp_run_result *res) {
  mlp_run_check_sampled(p, data, gpu, 1, res);
}

void mlp_run_check_sampled(const spvgen_mlp_config *p, const mlp_run_data *data, const void *gpu,
                           uint64_t step, mlp_run_result *res) {
  if (step < 1) step = 1;
  double ref[SPVGEN_MLP_MAX_WIDTH], err[SPVGEN_MLP_MAX_WIDTH];
  sg_check c;
  memset(&c, 0, sizeof c);
  for (uint64_t pt = 0; pt < data->points; pt = pt + step < data->points || pt + 1 == data->points ? pt + step : data->points - 1) {
    mlp_reference(p, data, pt, ref, err);
    check_point(p, gpu, pt, pt, ref, err, &c);
  }
  check_result(&c, p->desc.output_width, res);
}

#define VKFAIL()                                          \
  do {                                                    \
    st = SPVGEN_ERROR_VULKAN;                             \
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));      \
    goto done;                                            \
  } while (0)

spvgen_status mlp_run(spvgen_vk_context *ctx, const spvgen_mlp_desc *desc,
                      const mlp_run_options *options, mlp_run_result *res, char *msg,
                      size_t size) {
  memset(res, 0, sizeof *res);
  spvgen_mlp_config plan;
  spvgen_status st = spvgen_mlp_plan(desc, spvgen_vk_caps(ctx), &plan, msg, size);
  if (st != SPVGEN_OK) return st;
  return mlp_run_plan(ctx, &plan, options, res, msg, size);
}

spvgen_status mlp_run_plan(spvgen_vk_context *ctx, const spvgen_mlp_config *plan,
                           const mlp_run_options *options, mlp_run_result *res, char *msg,
                           size_t size) {
  /* The one run-and-check lifecycle (template_run.h) with the MLP's hooks
   * (emitters/mlp/mlp_template.c): one submission, its median. */
  const mlp_run_options opt = options ? *options : (mlp_run_options){0};
  memset(res, 0, sizeof *res);
  res->plan = *plan;
  template_run_options t;
  memset(&t, 0, sizeof t);
  t.request.seed = opt.seed;
  t.request.size = opt.points ? opt.points : 4096;
  t.request.period = opt.input_period;
  t.warmup = opt.warmup;
  t.warmup_ms = opt.warmup_ms;
  t.warmup_limit_ms = opt.warmup_limit_ms;
  t.repeats = opt.repeats ? opt.repeats : 1;
  t.rounds = 1;
  t.sample = opt.sample;
  t.no_check = opt.no_check;
  t.emit_ms = opt.emit_ms;
  t.statistics = opt.statistics;
  template_run_result tr;
  spvgen_status st = template_run_plan(ctx, &sg_template_mlp, plan, &t, &tr, msg, size);
  check_result(&tr.check, plan->desc.output_width, res);
  res->median_ns = tr.median_ns;
  res->min_ns = tr.min_ns;
  res->clock_mhz = tr.clock_mhz;
  res->points_per_s = tr.items_per_s;
  res->tflops = tr.tflops;
  res->emit_us = tr.emit_us;
  res->compile_ms = tr.first_compile ? tr.pipeline_ms : -1;
  res->words = tr.words;
  memcpy(res->stats, tr.stats, sizeof res->stats);
  return st;
}

/* ------------------------------------------------------------------ flags ---- */

void mlp_net_flags(const spvgen_mlp_desc *d, char *buf, size_t size) {
  size_t o = (size_t)snprintf(buf, size, "--in %u --out %u", d->input_width, d->output_width);
  if (d->hidden_count) {
    o += (size_t)snprintf(buf + o, o < size ? size - o : 0, " --hidden ");
    for (uint32_t i = 0; i < d->hidden_count; i++)
      o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%u", i ? "," : "", d->hidden_widths[i]);
    o += (size_t)snprintf(buf + o, o < size ? size - o : 0, " --act %s", spvgen_mlp_activation_name(d->activation));
  }
  o += (size_t)snprintf(buf + o, o < size ? size - o : 0, " --out-act %s",
                        spvgen_mlp_activation_name(d->output_activation));
  if (d->activation == SPVGEN_MLP_ACT_LEAKY_RELU || d->output_activation == SPVGEN_MLP_ACT_LEAKY_RELU)
    o += (size_t)snprintf(buf + o, o < size ? size - o : 0, " --leaky-slope %g", (double)d->leaky_slope);
  if (d->no_bias) o += (size_t)snprintf(buf + o, o < size ? size - o : 0, " --no-bias");
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID)
    o += (size_t)snprintf(buf + o, o < size ? size - o : 0, " --encoding hashgrid:%u,%u,%u,%u,%g", d->grid.levels,
                          d->grid.features, d->grid.log2_hashmap_size, d->grid.base_resolution,
                          (double)d->grid.per_level_scale);
  else if (d->encoding)
    o += (size_t)snprintf(buf + o, o < size ? size - o : 0, " --encoding %s:%u", spvgen_mlp_encoding_name(d->encoding),
                          d->encoding_size);
  snprintf(buf + o, o < size ? size - o : 0, " --types f16,%s", spvgen_component_type_name(d->input_type));
}

/* ---------------------------------------------------------------- anchors ---- */

uint32_t mlp_anchor_run(const char *script, const char *args, mlp_anchor_row *rows, uint32_t max, FILE *echo) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "python3 '%s' %s 2>&1", script, args);
  FILE *f = popen(cmd, "r");
  if (!f) {
    if (echo) fprintf(echo, "# anchor: cannot run python3 %s\n", script);
    return 0;
  }
  uint32_t n = 0;
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    mlp_anchor_row r;
    unsigned long long pts;
    memset(&r, 0, sizeof r);
    if (sscanf(line, "anchor\t%63[^\t]\t%23[^\t]\t%llu\t%lf\t%lf\t%lf", r.name, r.mode, &pts, &r.ms, &r.rate_g,
               &r.tflops) == 6) {
      r.points = pts;
      if (n < max) rows[n++] = r;
    }
    if (echo) fprintf(echo, "# anchor: %s", line);
  }
  pclose(f);
  return n;
}

double mlp_anchor_rate(const mlp_anchor_row *rows, uint32_t n, const char *name, const char *mode) {
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp(rows[i].name, name) && !strcmp(rows[i].mode, mode)) return rows[i].rate_g;
  return 0;
}

/* ---------------------------------------------------------------- session ---- */

/* The reference of the sampled points for one error model (sg_ref_mlp_point's: the loop
 * variant's f32 path, the f16 paths, f16 accumulation). */
enum { REF_LOOP, REF_F16, REF_F16ACC, REF_CLASSES };

struct mlp_session {
  spvgen_vk_context *ctx;
  spvgen_mlp_config net; /* the plan it was opened with */
  mlp_run_options opt;
  mlp_run_data data;
  spvgen_vk_buffer *in, *out, *w_row;
  struct session_opt {   /* the optimal-layout weights, per vec_rows (its pieces) */
    uint32_t vec_rows;
    spvgen_vk_buffer *buf;
    spvgen_spec_constant spec[SPVGEN_MLP_MAX_SPEC];
    uint32_t nspec;
  } opt_w[4];
  uint32_t nopt;
  uint64_t in_bytes, out_bytes;
  uint64_t period;       /* the points the host drew (opt.input_period, or all) */
  void *hout;
  bool hout_sampled;     /* hout holds the sampled points' rows only, in order */
  uint64_t *pts, npts;   /* the checked points (sampled); NULL: every point, not cached */
  double *ref[REF_CLASSES], *err[REF_CLASSES];
};

static int ref_class(const spvgen_mlp_config *p) {
  return p->variant == SPVGEN_MLP_LOOP ? REF_LOOP : p->desc.f16_accumulation ? REF_F16ACC : REF_F16;
}

bool mlp_session_accepts(const mlp_session *s, const spvgen_mlp_config *p) {
  const spvgen_mlp_config *n = &s->net;
  const spvgen_mlp_desc *a = &n->desc, *b = &p->desc;
  if (p->layer_count != n->layer_count || p->weight_bytes != n->weight_bytes || a->input_width != b->input_width ||
      a->output_width != b->output_width || a->encoding != b->encoding || a->encoding_size != b->encoding_size ||
      memcmp(&a->grid, &b->grid, sizeof a->grid) || a->weight_type != b->weight_type ||
      a->input_type != b->input_type || a->output_type != b->output_type || a->no_bias != b->no_bias ||
      a->leaky_slope != b->leaky_slope)
    return false;
  for (uint32_t l = 0; l < p->layer_count; l++)
    if (p->layers[l].inputs != n->layers[l].inputs || p->layers[l].outputs != n->layers[l].outputs ||
        p->layers[l].activation != n->layers[l].activation || p->layers[l].matrix_offset != n->layers[l].matrix_offset)
      return false;
  return true;
}

void mlp_session_close(mlp_session *s) {
  if (!s) return;
  spvgen_vk_buffer_destroy(s->in);
  spvgen_vk_buffer_destroy(s->out);
  spvgen_vk_buffer_destroy(s->w_row);
  for (uint32_t i = 0; i < s->nopt; i++) spvgen_vk_buffer_destroy(s->opt_w[i].buf);
  mlp_run_free_data(&s->data);
  free(s->hout);
  free(s->pts);
  for (int c = 0; c < REF_CLASSES; c++) free(s->ref[c]), free(s->err[c]);
  free(s);
}

spvgen_status mlp_session_open(spvgen_vk_context *ctx, const spvgen_mlp_config *plan,
                               const mlp_run_options *options, mlp_session **out, char *msg,
                               size_t size) {
  *out = NULL;
  mlp_run_options opt = options ? *options : (mlp_run_options){0};
  if (!opt.repeats) opt.repeats = 1;
  if (!opt.points) opt.points = 4096;
  if (opt.points > 0xFFFFFFFFull) {
    snprintf(msg, size, "points %llu: the kernel's point count is a uint32", (unsigned long long)opt.points);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  mlp_session *s = calloc(1, sizeof *s);
  if (!s) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->net = *plan;
  s->opt = opt;
  const spvgen_mlp_desc *d = &plan->desc;
  s->in_bytes = opt.points * d->input_width * spvgen_component_type_size(d->input_type);
  s->out_bytes = opt.points * d->output_width * spvgen_component_type_size(d->output_type);
  spvgen_status st = SPVGEN_OK;
  /* The checked points: about `sample` of them evenly spread, the last included (their
   * references cached), or every point. */
  if (!opt.no_check && opt.sample && opt.points > opt.sample) {
    uint64_t step = opt.points / opt.sample;
    s->pts = malloc(sizeof *s->pts * (opt.points / step + 2));
    if (!s->pts) goto oom;
    for (uint64_t pt = 0; pt < opt.points; pt += step) s->pts[s->npts++] = pt;
    if (s->pts[s->npts - 1] != opt.points - 1) s->pts[s->npts++] = opt.points - 1;
  }
  s->period = opt.input_period && opt.input_period < opt.points ? opt.input_period : opt.points;
  /* Sampled runs of large outputs download the sampled rows only. */
  const uint64_t row = (uint64_t)d->output_width * spvgen_component_type_size(d->output_type);
  s->hout_sampled = s->pts && s->out_bytes > (64ull << 20);
  if (!mlp_run_make_data(plan, s->period, opt.seed, &s->data) ||
      !(s->hout = malloc(s->hout_sampled ? s->npts * row : s->out_bytes ? s->out_bytes : 1)))
    goto oom;
  /* the output past the points: a guard, NaN-filled with it and checked after a run */
  uint64_t sizes[3] = {s->in_bytes, s->out_bytes + SG_RUN_OUT_GUARD, plan->weight_bytes};
  spvgen_vk_buffer **bufs[3] = {&s->in, &s->out, &s->w_row};
  for (int i = 0; i < 3; i++) {
    uint64_t b = (sizes[i] < 4 ? 4 : sizes[i] + 3) & ~3ull;
    /* device-address kernels take buffers that have an address (the flag costs nothing
     * for descriptor kernels, but they keep the runner's plain buffers) */
    uint32_t flags = plan->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0;
    if (spvgen_vk_buffer_create(ctx, b, flags, bufs[i]) != SPVGEN_OK) VKFAIL();
  }
  const uint64_t period_bytes = s->period * d->input_width * spvgen_component_type_size(d->input_type);
  for (uint64_t at = 0; at < s->in_bytes; at += period_bytes) /* the period over and over */
    if (spvgen_vk_buffer_upload(ctx, s->in, at, s->data.input,
                                s->in_bytes - at < period_bytes ? s->in_bytes - at : period_bytes) != SPVGEN_OK)
      VKFAIL();
  if (spvgen_vk_buffer_upload(ctx, s->w_row, 0, s->data.weights, plan->weight_bytes) != SPVGEN_OK) VKFAIL();
  *out = s;
  return SPVGEN_OK;
oom:
  st = SPVGEN_ERROR_OUT_OF_MEMORY;
  snprintf(msg, size, "out of host memory for %llu points", (unsigned long long)opt.points);
done:
  mlp_session_close(s);
  return st;
}

/* The optimal-layout weight buffer of p's pieces (made once per vec_rows): row-major
 * weights with each layer's matrix (or pieces) converted by the driver after them
 * (lib/template/mlp_weights.c). */
static spvgen_status session_optimal(mlp_session *s, const spvgen_mlp_config *p, struct session_opt **out, char *msg,
                                     size_t size) {
  for (uint32_t i = 0; i < s->nopt; i++)
    if (s->opt_w[i].vec_rows == p->desc.vec_rows) return *out = &s->opt_w[i], SPVGEN_OK;
  if (s->nopt == sizeof s->opt_w / sizeof s->opt_w[0]) { /* the oldest goes */
    spvgen_vk_buffer_destroy(s->opt_w[0].buf);
    memmove(&s->opt_w[0], &s->opt_w[1], sizeof s->opt_w[0] * (s->nopt - 1));
    s->nopt--;
  }
  spvgen_vk_context *ctx = s->ctx;
  struct session_opt *o = &s->opt_w[s->nopt];
  memset(o, 0, sizeof *o);
  o->vec_rows = p->desc.vec_rows;
  uint8_t *w = NULL;
  uint64_t bytes = 0;
  spvgen_status st = sg_mlp_device_weights(ctx, p, s->data.weights, &w, &bytes, o->spec, &o->nspec, msg, size);
  if (st != SPVGEN_OK) return st;
  if (spvgen_vk_buffer_create(ctx, (bytes + 3) & ~3ull,
                              p->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0,
                              &o->buf) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, o->buf, 0, w, bytes) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
    spvgen_vk_buffer_destroy(o->buf);
  } else {
    s->nopt++;
    *out = o;
  }
  free(w);
  return st;
}

/* The checked points' references for p's error model (computed once). */
static bool session_refs(mlp_session *s, const spvgen_mlp_config *p, double **ref, double **err) {
  int c = ref_class(p);
  const uint32_t ow = p->desc.output_width;
  if (!s->ref[c]) {
    s->ref[c] = malloc(sizeof(double) * s->npts * ow);
    s->err[c] = malloc(sizeof(double) * s->npts * ow);
    if (!s->ref[c] || !s->err[c]) {
      free(s->ref[c]), free(s->err[c]);
      s->ref[c] = s->err[c] = NULL;
      return false;
    }
    for (uint64_t i = 0; i < s->npts; i++) /* the period's point that the device saw */
      mlp_reference(p, &s->data, s->pts[i] % s->period, s->ref[c] + i * ow, s->err[c] + i * ow);
  }
  *ref = s->ref[c];
  *err = s->err[c];
  return true;
}

/* The output's guard (SG_RUN_OUT_GUARD bytes past the points' outputs) left as the fill wrote
 * it: an element written there is a bad output past the last point. */
static spvgen_status check_guard(mlp_session *s, mlp_run_result *res, char *msg, size_t size) {
  uint8_t guard[SG_RUN_OUT_GUARD];
  if (spvgen_vk_buffer_download(s->ctx, s->out, s->out_bytes, guard, SG_RUN_OUT_GUARD) != SPVGEN_OK)
    return snprintf(msg, size, "%s", spvgen_vk_error(s->ctx)), SPVGEN_ERROR_VULKAN;
  const uint32_t ow = s->net.desc.output_width, esize = spvgen_component_type_size(s->net.desc.output_type);
  sg_check c;
  memset(&c, 0, sizeof c);
  sg_check_guard(&c, guard, SG_RUN_OUT_GUARD, s->out_bytes, esize, s->out_bytes / esize);
  if (c.bad && !res->bad) {
    res->first_bad_point = c.first_bad / ow;
    res->first_bad_component = c.first_bad % ow;
    res->first_bad_gpu = res->first_bad_ref = NAN;
    res->first_bad_tol = 0;
  }
  res->bad += c.bad;
  return SPVGEN_OK;
}

spvgen_status mlp_session_run(mlp_session *s, const spvgen_mlp_config *plan, mlp_run_result *res, char *msg,
                              size_t size) {
  memset(res, 0, sizeof *res);
  res->plan = *plan;
  spvgen_vk_context *ctx = s->ctx;
  const mlp_run_options opt = s->opt;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  const spvgen_mlp_config *p = &res->plan;
  if (!mlp_session_accepts(s, p)) {
    snprintf(msg, size, "plan %s is not of the session's network %s", p->name, s->net.name);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  /* The plan's dispatches (one; the layers variant: one per layer, each on its own push
   * constants and ranges of the buffers, spvgen/mlp.h). */
  const uint32_t K = spvgen_mlp_kernel_count(p);
  if (K < 1 || K > SPVGEN_MLP_MAX_KERNELS) {
    snprintf(msg, size, "plan %s: %u kernels", p->name, K);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  spvgen_mlp_dispatch disp[SPVGEN_MLP_MAX_KERNELS];
  for (uint32_t k = 0; k < K; k++) {
    spvgen_status st = spvgen_mlp_dispatch_for(p, k, opt.points, &disp[k], msg, size);
    if (st != SPVGEN_OK) return st;
    for (int j = 0; j < 3; j++)
      if (caps->max_workgroup_count[j] && disp[k].groups[j] > caps->max_workgroup_count[j]) {
        if (K == 1)
          snprintf(msg, size, "%llu points need %u workgroups; %s allows %u (fewer points)",
                   (unsigned long long)opt.points, disp[k].groups[j], caps->name, caps->max_workgroup_count[j]);
        else
          snprintf(msg, size, "%llu points: kernel %u of the plan needs %u workgroups in %c; %s allows %u (fewer points)",
                   (unsigned long long)opt.points, k, disp[k].groups[j], "xyz"[j], caps->name,
                   caps->max_workgroup_count[j]);
        return SPVGEN_ERROR_UNSUPPORTED;
      }
  }
  spvgen_module_desc md = {.addressing = spvgen_mlp_addressing_model(p)};
  spvgen_module *mods[SPVGEN_MLP_MAX_KERNELS] = {0};
  spvgen_kernel_info info[SPVGEN_MLP_MAX_KERNELS];
  const uint32_t *words[SPVGEN_MLP_MAX_KERNELS] = {0};
  size_t count[SPVGEN_MLP_MAX_KERNELS] = {0};
  spvgen_vk_pipeline *pipes[SPVGEN_MLP_MAX_KERNELS] = {0};
  spvgen_vk_buffer *ws = NULL;
  spvgen_vk_dispatch_desc *dd = NULL;
  uint64_t *ns = NULL;
  spvgen_status st = SPVGEN_OK;
  for (uint32_t k = 0; k < K; k++)
    if (!(mods[k] = spvgen_module_create(&md))) {
      st = SPVGEN_ERROR_OUT_OF_MEMORY;
      snprintf(msg, size, "out of memory");
      goto done;
    }
  double t0 = sg_now_us();
  int reps = 0;
  const double emit_us = (opt.emit_ms ? opt.emit_ms : 20) * 1e3;
  uint32_t failed = 0;
  do { /* every kernel of the plan counts */
    for (uint32_t k = 0; st == SPVGEN_OK && k < K; k++) {
      spvgen_module_reset(mods[k], &md);
      st = spvgen_mlp_emit_kernel(mods[k], p, k, &info[k]);
      if (st == SPVGEN_OK) st = spvgen_module_finish(mods[k], &words[k], &count[k]);
      failed = k;
    }
    reps++;
  } while (st == SPVGEN_OK && sg_now_us() - t0 < emit_us && reps < 2000);
  res->emit_us = (sg_now_us() - t0) / reps;
  for (uint32_t k = 0; k < K; k++) res->words += count[k];
  if (st != SPVGEN_OK) {
    snprintf(msg, size, "emit: %s", spvgen_module_error(mods[failed]));
    goto done;
  }
  for (uint32_t k = 0; st == SPVGEN_OK && k < K; k++) st = spvgen_kernel_reflect(words[k], count[k], &info[k], msg, size);
  spvgen_vk_buffer *wbuf = s->w_row;
  spvgen_vk_pipeline_options popt;
  memset(&popt, 0, sizeof popt);
  if (st == SPVGEN_OK && p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) {
    struct session_opt *o = NULL;
    st = session_optimal(s, p, &o, msg, size);
    if (st == SPVGEN_OK) {
      wbuf = o->buf;
      popt.spec_constants = o->spec;
      popt.spec_constant_count = o->nspec;
    }
  }
  /* First compiles are judged before any of the plan's own; a kernel of an earlier one's
   * words takes its pipeline. */
  bool first = true;
  for (uint32_t k = 0; k < K; k++)
    if (disp[k].kernel == k) first &= !template_compiled_before(words[k], count[k]);
  double c0 = sg_now_us();
  { /* one batch: the driver compiles the plan's kernels on several threads */
    spvgen_vk_pipeline_request rq[SPVGEN_MLP_MAX_KERNELS];
    spvgen_vk_pipeline *made[SPVGEN_MLP_MAX_KERNELS];
    uint32_t at[SPVGEN_MLP_MAX_KERNELS], nr = 0;
    for (uint32_t k = 0; k < K; k++)
      if (disp[k].kernel == k) {
        rq[nr] = (spvgen_vk_pipeline_request){words[k], count[k], &info[k], &popt};
        at[nr++] = k;
      }
    if (st == SPVGEN_OK && spvgen_vk_pipelines_create(ctx, rq, nr, template_compile_threads(nr), made) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN;
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
    }
    for (uint32_t i = 0; st == SPVGEN_OK && i < nr; i++) pipes[at[i]] = made[i];
  }
  res->compile_ms = first ? (sg_now_us() - c0) / 1e3 : -1;
  for (uint32_t k = 0; st == SPVGEN_OK && k < K; k++) template_compiled_now(words[k], count[k]);
  if (st != SPVGEN_OK) goto done;
  const uint64_t ws_bytes = spvgen_mlp_workspace_bytes(p, opt.points);
  /* NaN-filled workspace (the layers variant's rows past the points hold NaN: one read into
   * a real row would show) and output (a component never written fails the check; its
   * guard, written, too) */
  if (ws_bytes && (spvgen_vk_buffer_create(ctx, (ws_bytes + 3) & ~3ull, 0, &ws) != SPVGEN_OK ||
                   spvgen_vk_buffer_fill(ctx, ws, 0, (ws_bytes + 3) & ~3ull, SG_RUN_NAN_BITS) != SPVGEN_OK))
    VKFAIL();
  if (spvgen_vk_buffer_fill(ctx, s->out, 0, spvgen_vk_buffer_size(s->out), SG_RUN_NAN_BITS) != SPVGEN_OK) VKFAIL();
  const uint32_t total = opt.warmup + opt.repeats;
  dd = calloc((size_t)total * K, sizeof *dd);
  ns = calloc(total, sizeof *ns);
  if (!dd || !ns) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory");
    goto done;
  }
  spvgen_vk_buffer *roles[4] = {s->in, wbuf, s->out, ws};
  spvgen_vk_buffer *bound[SPVGEN_MLP_MAX_KERNELS][4];
  uint64_t offsets[SPVGEN_MLP_MAX_KERNELS][4];
  for (uint32_t k = 0; k < K; k++)
    for (uint32_t b = 0; b < disp[k].binding_count; b++) {
      bound[k][b] = roles[disp[k].bindings[b].buffer];
      offsets[k][b] = disp[k].bindings[b].offset;
    }
  for (uint32_t i = 0; i < total; i++)
    for (uint32_t k = 0; k < K; k++) {
      spvgen_vk_dispatch_desc *d = &dd[i * K + k];
      d->pipeline = pipes[disp[k].kernel];
      d->buffers = bound[k];
      d->buffer_count = disp[k].binding_count;
      d->offsets = offsets[k];
      d->push_data = disp[k].push;
      d->push_size = disp[k].push_size;
      for (int j = 0; j < 3; j++) d->groups[j] = disp[k].groups[j];
    }
  if (opt.warmup_ms) { /* until the timings are steady (warm_up.h) */
    warm_up_info wi;
    st = warm_up_run_steps(ctx, dd, total, K, opt.warmup_ms, opt.warmup_limit_ms, ns, &wi);
  }
  if (st == SPVGEN_OK) st = spvgen_vk_run_steps(ctx, dd, total * K, K, ns);
  if (st != SPVGEN_OK) VKFAIL();
  qsort(ns + opt.warmup, opt.repeats, sizeof *ns, sg_cmp_u64);
  res->median_ns = (double)ns[opt.warmup + opt.repeats / 2];
  res->min_ns = (double)ns[opt.warmup];
  if (res->median_ns > 0) {
    res->points_per_s = opt.points / (res->median_ns * 1e-9);
    res->tflops = (double)p->flops_per_point * opt.points / res->median_ns / 1e3;
  }
  if (!opt.no_check) {
    const uint64_t row = (uint64_t)p->desc.output_width * spvgen_component_type_size(p->desc.output_type);
    if (s->hout_sampled) { /* the sampled rows, one download each */
      for (uint64_t i = 0; i < s->npts; i++)
        if (spvgen_vk_buffer_download(ctx, s->out, s->pts[i] * row, (char *)s->hout + i * row, row) != SPVGEN_OK)
          VKFAIL();
    } else if (spvgen_vk_buffer_download(ctx, s->out, 0, s->hout, s->out_bytes) != SPVGEN_OK) {
      VKFAIL();
    }
    double *ref, *err;
    if (!s->pts) {
      mlp_run_check_sampled(p, &s->data, s->hout, 1, res);
    } else if (!session_refs(s, p, &ref, &err)) {
      st = SPVGEN_ERROR_OUT_OF_MEMORY;
      snprintf(msg, size, "out of host memory");
    } else {
      sg_check c;
      memset(&c, 0, sizeof c);
      for (uint64_t i = 0; i < s->npts; i++)
        check_point(p, s->hout, s->pts[i], s->hout_sampled ? i : s->pts[i], ref + i * p->desc.output_width,
                    err + i * p->desc.output_width, &c);
      check_result(&c, p->desc.output_width, res);
    }
    if (st == SPVGEN_OK) st = check_guard(s, res, msg, size);
  }
done:
  free(dd);
  free(ns);
  for (uint32_t k = 0; k < K; k++) {
    spvgen_vk_pipeline_destroy(pipes[k]);
    spvgen_module_destroy(mods[k]);
  }
  spvgen_vk_buffer_destroy(ws);
  return st;
}

/* One kernel of the plan, as mlp_session_run creates it. */
static spvgen_status compile_kernel(spvgen_vk_context *ctx, const spvgen_mlp_config *p, uint32_t index,
                                    double *compile_ms, char *msg, size_t size) {
  *compile_ms = 0;
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(p)});
  if (!m) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  spvgen_kernel_info info;
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_status st = spvgen_mlp_emit_kernel(m, p, index, &info);
  if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
  if (st != SPVGEN_OK) snprintf(msg, size, "emit: %s", spvgen_module_error(m));
  if (st == SPVGEN_OK) st = spvgen_kernel_reflect(words, count, &info, msg, size);
  /* The optimal layout's offsets depend on the driver's matrix sizes only: any weights. */
  uint8_t *zeros = NULL, *w = NULL;
  uint64_t bytes = 0;
  spvgen_spec_constant spec[SPVGEN_MLP_MAX_SPEC];
  uint32_t nspec = 0;
  if (st == SPVGEN_OK && p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL) {
    zeros = calloc(p->weight_bytes ? p->weight_bytes : 1, 1);
    st = zeros ? sg_mlp_device_weights(ctx, p, zeros, &w, &bytes, spec, &nspec, msg, size)
               : (snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY);
  }
  free(zeros);
  free(w);
  spvgen_vk_pipeline_options popt;
  memset(&popt, 0, sizeof popt);
  popt.spec_constants = spec;
  popt.spec_constant_count = nspec;
  spvgen_vk_pipeline *pipe = NULL;
  double c0 = sg_now_us();
  if (st == SPVGEN_OK && spvgen_vk_pipeline_create(ctx, words, count, &info, &popt, &pipe) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  }
  if (st == SPVGEN_OK) *compile_ms = (sg_now_us() - c0) / 1e3;
  spvgen_vk_pipeline_destroy(pipe);
  spvgen_module_destroy(m);
  return st;
}

spvgen_status mlp_compile_plan(spvgen_vk_context *ctx, const spvgen_mlp_config *p, double *compile_ms, char *msg,
                               size_t size) {
  *compile_ms = 0;
  /* Every kernel of the plan that mlp_session_run creates a pipeline for (the layers
   * variant: a kernel per GEMM class, spvgen_mlp_dispatch.kernel). */
  const uint32_t K = spvgen_mlp_kernel_count(p);
  spvgen_status st = K ? SPVGEN_OK : (snprintf(msg, size, "plan is not made by spvgen_mlp_plan"),
                                      SPVGEN_ERROR_INVALID_ARGUMENT);
  for (uint32_t k = 0; st == SPVGEN_OK && k < K; k++) {
    spvgen_mlp_dispatch dp;
    if (K > 1) {
      st = spvgen_mlp_dispatch_for(p, k, 1, &dp, msg, size);
      if (st != SPVGEN_OK || dp.kernel != k) continue;
    }
    double ms = 0;
    st = compile_kernel(ctx, p, k, &ms, msg, size);
    *compile_ms += ms;
  }
  return st;
}
