/* tools/common/mlp_run.c — see mlp_run.h. */
#define _POSIX_C_SOURCE 200809L
#include "mlp_run.h"
#include "warm_up.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemm_run.h" /* f16 conversions */

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double unit01(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

/* +-[1/8, 1) */
static double rand_signed(uint64_t *s) {
  uint64_t r = rng_next(s);
  double mag = 0.125 + 0.875 * (double)(r >> 11) / 9007199254740992.0;
  return (r & 1) ? -mag : mag;
}

static double f16v(const uint8_t *base, uint64_t byte_offset) {
  uint16_t h;
  memcpy(&h, base + byte_offset, 2);
  return gemm_run_f16_to_f32(h);
}

static void put_f16(uint8_t *base, uint64_t byte_offset, double v) {
  uint16_t h = gemm_run_f32_to_f16((float)v);
  memcpy(base + byte_offset, &h, 2);
}

static double get_io(const void *p, spvgen_component_type t, uint64_t i) {
  return t == SPVGEN_COMPONENT_F32 ? ((const float *)p)[i] : gemm_run_f16_to_f32(((const uint16_t *)p)[i]);
}

bool mlp_run_make_data(const spvgen_mlp_config *p, uint64_t points, uint64_t seed,
                       mlp_run_data *data) {
  memset(data, 0, sizeof *data);
  uint64_t s = seed ? seed : 0x5eed0171full;
  data->points = points;
  data->weights = malloc(p->weight_bytes ? p->weight_bytes : 1);
  uint32_t isz = spvgen_component_type_size(p->desc.input_type);
  uint64_t nin = points * p->desc.input_width;
  uint64_t in_bytes = nin * isz;
  data->input = malloc(in_bytes ? in_bytes : 1);
  if (!data->weights || !data->input) {
    mlp_run_free_data(data);
    return false;
  }
  for (uint64_t b = 0; b + 1 < p->weight_bytes; b += 2) put_f16(data->weights, b, 1000.0);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    double scale = 1.0 / sqrt((double)L->inputs);
    for (uint32_t i = 0; i < L->outputs; i++)
      for (uint32_t j = 0; j < L->inputs; j++)
        put_f16(data->weights, L->matrix_offset + (uint64_t)i * L->row_stride + 2ull * j,
                rand_signed(&s) * scale);
    if (!p->desc.no_bias)
      for (uint32_t i = 0; i < L->outputs; i++)
        put_f16(data->weights, L->bias_offset + 2ull * i, rand_signed(&s) * 0.5);
  }
  bool blob = p->desc.encoding == SPVGEN_MLP_ENCODING_ONE_BLOB;
  for (uint64_t i = 0; i < nin; i++) {
    double v = blob ? 0.01 + 0.98 * unit01(&s) : rand_signed(&s);
    if (p->desc.input_type == SPVGEN_COMPONENT_F32) ((float *)data->input)[i] = (float)v;
    else ((uint16_t *)data->input)[i] = gemm_run_f32_to_f16((float)v);
  }
  return true;
}

void mlp_run_free_data(mlp_run_data *data) {
  free(data->weights);
  free(data->input);
  memset(data, 0, sizeof *data);
}

static double act(double x, spvgen_mlp_activation a, double slope) {
  switch (a) {
  case SPVGEN_MLP_ACT_RELU: return x > 0 ? x : 0;
  case SPVGEN_MLP_ACT_LEAKY_RELU: return x >= 0 ? x : slope * x;
  case SPVGEN_MLP_ACT_SIGMOID: return 1.0 / (1.0 + exp(-x));
  case SPVGEN_MLP_ACT_TANH: return tanh(x);
  case SPVGEN_MLP_ACT_SILU: return x / (1.0 + exp(-x));
  case SPVGEN_MLP_ACT_EXP: return exp(x);
  default: return x;
  }
}

/* A bound on |act'| over [x - e, x + e]. */
static double slope_bound(double x, double e, spvgen_mlp_activation a, double slope) {
  switch (a) {
  case SPVGEN_MLP_ACT_LEAKY_RELU: return fabs(slope) > 1 ? fabs(slope) : 1;
  case SPVGEN_MLP_ACT_SIGMOID: return 0.25;
  case SPVGEN_MLP_ACT_SILU: return 1.1;
  case SPVGEN_MLP_ACT_EXP: return exp(x + e);
  default: return 1;
  }
}

void mlp_reference(const spvgen_mlp_config *p, const mlp_run_data *data, uint64_t pt,
                   double *out, double *err) {
  const spvgen_mlp_desc *d = &p->desc;
  bool f16_path = p->variant != SPVGEN_MLP_LOOP;
  const double u_acc = f16_path ? ldexp(1, -9) : ldexp(1, -20);
  const double u_store = f16_path ? ldexp(1, -10) : ldexp(1, -24); /* f32->f16 may round toward zero */
  const double act_rel = f16_path ? ldexp(1, -9) : 1e-6;
  double xa[SPVGEN_MLP_MAX_WIDTH], ea[SPVGEN_MLP_MAX_WIDTH];
  double xb[SPVGEN_MLP_MAX_WIDTH], eb[SPVGEN_MLP_MAX_WIDTH];
  double raw[SPVGEN_MLP_MAX_WIDTH];
  for (uint32_t c = 0; c < d->input_width; c++)
    raw[c] = get_io(data->input, d->input_type, pt * d->input_width + c);
  const uint32_t F = d->encoding_size;
  const double pi = 3.14159265358979323846;
  for (uint32_t c = 0; c < d->input_width; c++) {
    if (d->encoding == SPVGEN_MLP_ENCODING_NONE) {
      xa[c] = raw[c];
      ea[c] = f16_path ? u_store * fabs(raw[c]) : 0;
    } else if (d->encoding == SPVGEN_MLP_ENCODING_FREQUENCY) {
      for (uint32_t k = 0; k < F; k++) {
        double a = ldexp(pi, (int)k) * raw[c];
        xa[c * 2 * F + 2 * k] = sin(a);
        xa[c * 2 * F + 2 * k + 1] = cos(a);
        /* sin/cos of the reduced f32 argument: 2^-11 absolute (Vulkan), the reduction's
         * f32 rounding (|2 pi fract| ulps), and f16 rounding on the f16 paths. */
        ea[c * 2 * F + 2 * k] = ea[c * 2 * F + 2 * k + 1] = ldexp(1, -11) + 8 * ldexp(1, -24) + (f16_path ? u_store : 0);
      }
    } else {
      for (uint32_t i = 0; i < F; i++) {
        double t = raw[c] * F - i - 0.5;
        double v = exp(-0.5 * t * t);
        xa[c * F + i] = v;
        /* exp's own error and the f32 rounding of its argument (relative to t^2 / 2). */
        ea[c * F + i] = v * (1e-6 + 4 * ldexp(1, -24) * (0.5 * t * t + 1)) + (f16_path ? u_store * v : 0);
      }
    }
  }
  double *x = xa, *e = ea, *y = xb, *ey = eb;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    for (uint32_t i = 0; i < L->outputs; i++) {
      double z = d->no_bias ? 0 : f16v(data->weights, L->bias_offset + 2ull * i);
      double mag = fabs(z), prop = 0;
      for (uint32_t j = 0; j < L->inputs; j++) {
        double w = f16v(data->weights, L->matrix_offset + (uint64_t)i * L->row_stride + 2ull * j);
        z += w * x[j];
        mag += fabs(w * x[j]);
        prop += fabs(w) * e[j];
      }
      /* f16 accumulation (mat, f16_accumulation): each of the inputs + 1 additions
       * rounds the partial sum to f16, a worst case of (inputs + 1) 2^-11 of the sum of
       * magnitudes. */
      double ua = p->desc.f16_accumulation ? (L->inputs + 1) * ldexp(1, -11) : u_acc;
      double ez = prop + ua * mag + (f16_path ? u_store * fabs(z) : 0);
      double v = act(z, L->activation, d->leaky_slope);
      double ev = slope_bound(z, ez, L->activation, d->leaky_slope) * ez;
      if (L->activation != SPVGEN_MLP_ACT_NONE && L->activation != SPVGEN_MLP_ACT_RELU &&
          L->activation != SPVGEN_MLP_ACT_LEAKY_RELU)
        ev += act_rel * (fabs(v) + 1);
      ev += u_store * fabs(v);
      y[i] = v;
      ey[i] = ev;
    }
    double *t = x; x = y; y = t;
    t = e; e = ey; ey = t;
  }
  for (uint32_t c = 0; c < d->output_width; c++) {
    out[c] = x[c];
    err[c] = e[c];
  }
}

void mlp_run_check(const spvgen_mlp_config *p, const mlp_run_data *data, const void *gpu,
                   mlp_run_result *res) {
  mlp_run_check_sampled(p, data, gpu, 1, res);
}

void mlp_run_check_sampled(const spvgen_mlp_config *p, const mlp_run_data *data, const void *gpu,
                           uint64_t step, mlp_run_result *res) {
  const spvgen_mlp_desc *d = &p->desc;
  if (step < 1) step = 1;
  double ref[SPVGEN_MLP_MAX_WIDTH], err[SPVGEN_MLP_MAX_WIDTH];
  res->checked = res->bad = 0;
  res->max_err = res->max_err_tol = res->worst_ratio = 0;
  double uo = d->output_type == SPVGEN_COMPONENT_F16 ? ldexp(1, -10) : ldexp(1, -24);
  for (uint64_t pt = 0; pt < data->points; pt = pt + step < data->points || pt + 1 == data->points ? pt + step : data->points - 1) {
    mlp_reference(p, data, pt, ref, err);
    for (uint32_t c = 0; c < d->output_width; c++) {
      double g = get_io(gpu, d->output_type, pt * d->output_width + c);
      double tol = 2 * err[c] + uo * fabs(ref[c]) + 1e-6;
      double e = fabs(g - ref[c]);
      if (!(e <= tol)) {
        if (!res->bad) {
          res->first_bad_point = pt;
          res->first_bad_component = c;
          res->first_bad_gpu = g;
          res->first_bad_ref = ref[c];
          res->first_bad_tol = tol;
        }
        res->bad++;
      }
      if (!(e <= res->max_err)) {
        res->max_err = e;
        res->max_err_tol = tol;
      }
      double ratio = e / tol;
      if (!(ratio <= res->worst_ratio)) res->worst_ratio = ratio;
      res->checked++;
    }
  }
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
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
  mlp_run_options opt = options ? *options : (mlp_run_options){0};
  if (!opt.repeats) opt.repeats = 1;
  if (!opt.points) opt.points = 4096;
  memset(res, 0, sizeof *res);
  res->plan = *plan;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_status st = SPVGEN_OK;
  const spvgen_mlp_config *p = &res->plan;
  if (opt.points > 0xFFFFFFFFull) {
    snprintf(msg, size, "points %llu: the kernel's point count is a uint32",
             (unsigned long long)opt.points);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  uint32_t groups[3];
  spvgen_mlp_groups(p, opt.points, groups);
  if (caps->max_workgroup_count[0] && groups[0] > caps->max_workgroup_count[0]) {
    snprintf(msg, size, "%llu points need %u workgroups; %s allows %u (fewer points)",
             (unsigned long long)opt.points, groups[0], caps->name, caps->max_workgroup_count[0]);
    return SPVGEN_ERROR_UNSUPPORTED;
  }

  spvgen_module *m = spvgen_module_create(NULL);
  if (!m) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  spvgen_kernel_info info;
  const uint32_t *words = NULL;
  size_t count = 0;
  double t0 = now_us();
  int reps = 0;
  do {
    spvgen_module_reset(m, NULL);
    st = spvgen_mlp_emit(m, p, &info);
    if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
    reps++;
  } while (st == SPVGEN_OK && now_us() - t0 < 20000.0 && reps < 2000);
  res->emit_us = (now_us() - t0) / reps;
  if (st != SPVGEN_OK) {
    snprintf(msg, size, "emit: %s", spvgen_module_error(m));
    spvgen_module_destroy(m);
    return st;
  }
  st = spvgen_kernel_reflect(words, count, &info, msg, size);
  spvgen_vk_pipeline *pipe = NULL;
  if (st == SPVGEN_OK && spvgen_vk_pipeline_create(ctx, words, count, &info, NULL, &pipe) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  }
  spvgen_module_destroy(m);
  if (st != SPVGEN_OK) return st;

  mlp_run_data data;
  memset(&data, 0, sizeof data);
  void *hout = NULL;
  spvgen_vk_buffer *bufs[3] = {0};
  spvgen_vk_dispatch_desc *dd = NULL;
  uint64_t *ns = NULL;
  uint32_t osz = spvgen_component_type_size(p->desc.output_type);
  uint64_t out_bytes = opt.points * p->desc.output_width * osz;
  uint64_t in_bytes = opt.points * p->desc.input_width * spvgen_component_type_size(p->desc.input_type);
  if (!mlp_run_make_data(p, opt.points, opt.seed, &data) || !(hout = malloc(out_bytes ? out_bytes : 1))) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory for %llu points", (unsigned long long)opt.points);
    goto done;
  }
  uint64_t sizes[3] = {in_bytes, p->weight_bytes, out_bytes};
  for (int i = 0; i < 3; i++) {
    uint64_t b = (sizes[i] < 4 ? 4 : sizes[i] + 3) & ~3ull;
    if (spvgen_vk_buffer_create(ctx, b, 0, &bufs[i]) != SPVGEN_OK) VKFAIL();
  }
  if (spvgen_vk_buffer_upload(ctx, bufs[0], 0, data.input, in_bytes) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, bufs[1], 0, data.weights, p->weight_bytes) != SPVGEN_OK ||
      spvgen_vk_buffer_fill(ctx, bufs[2], 0, (out_bytes < 4 ? 4 : out_bytes + 3) & ~3ull, 0x7FC07FC0u) != SPVGEN_OK)
    VKFAIL(); /* NaN-filled output: a component never written fails the check */
  uint32_t total = opt.warmup + opt.repeats;
  uint32_t npoints = (uint32_t)opt.points;
  dd = calloc(total, sizeof *dd);
  ns = calloc(total, sizeof *ns);
  if (!dd || !ns) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory");
    goto done;
  }
  for (uint32_t i = 0; i < total; i++) {
    dd[i].pipeline = pipe;
    dd[i].buffers = bufs;
    dd[i].buffer_count = 3;
    dd[i].push_data = &npoints;
    dd[i].push_size = 4;
    for (int j = 0; j < 3; j++) dd[i].groups[j] = groups[j];
  }
  if (opt.warmup_ms) { /* until the timings are steady (warm_up.h) */
    warm_up_info wi;
    st = warm_up_run(ctx, dd, total, opt.warmup_ms, ns, &wi);
  }

  if (st == SPVGEN_OK) st = spvgen_vk_run(ctx, dd, total, ns);
  if (st != SPVGEN_OK) VKFAIL();
  qsort(ns + opt.warmup, opt.repeats, sizeof *ns, cmp_u64);
  res->median_ns = (double)ns[opt.warmup + opt.repeats / 2];
  res->min_ns = (double)ns[opt.warmup];
  if (res->median_ns > 0) {
    res->points_per_s = opt.points / (res->median_ns * 1e-9);
    res->tflops = (double)p->flops_per_point * opt.points / res->median_ns / 1e3;
  }
  if (spvgen_vk_buffer_download(ctx, bufs[2], 0, hout, out_bytes) != SPVGEN_OK) VKFAIL();
  if (!opt.no_check)
    mlp_run_check_sampled(p, &data, hout, opt.sample && opt.points > opt.sample ? opt.points / opt.sample : 1, res);

done:
  free(dd);
  free(ns);
  for (int i = 0; i < 3; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  mlp_run_free_data(&data);
  free(hout);
  return st;
}
