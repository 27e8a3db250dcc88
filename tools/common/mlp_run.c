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
#include "mlp_ref.h"   /* lib/tune */

/* The data and the reference are lib/tune/mlp_ref.c's (shared with the tuner). */

static double get_io(const void *p, spvgen_component_type t, uint64_t i) {
  return t == SPVGEN_COMPONENT_F32 ? ((const float *)p)[i] : gemm_run_f16_to_f32(((const uint16_t *)p)[i]);
}

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
  for (uint64_t pt = 0; pt < data->points; pt = pt + step < data->points || pt + 1 == data->points ? pt + step : data->points - 1) {
    mlp_reference(p, data, pt, ref, err);
    for (uint32_t c = 0; c < d->output_width; c++) {
      double g = get_io(gpu, d->output_type, pt * d->output_width + c);
      double tol = sg_ref_mlp_tolerance(p, ref[c], err[c]);
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
  /* The weights as the device reads them (the optimal layout: converted by the driver,
   * offsets as specialization constants). Made from the host data below. */
  mlp_run_data data;
  memset(&data, 0, sizeof data);
  uint8_t *dev_weights = NULL;
  uint64_t dev_weight_bytes = 0;
  spvgen_spec_constant spec[SPVGEN_MLP_MAX_LAYERS];
  uint32_t nspec = 0;
  if (st == SPVGEN_OK && !mlp_run_make_data(p, opt.points, opt.seed, &data)) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory for %llu points", (unsigned long long)opt.points);
  }
  if (st == SPVGEN_OK)
    st = sg_ref_mlp_device_weights(ctx, p, data.weights, &dev_weights, &dev_weight_bytes, spec, &nspec, msg, size);
  spvgen_vk_pipeline_options popt;
  memset(&popt, 0, sizeof popt);
  popt.spec_constants = spec;
  popt.spec_constant_count = nspec;
  spvgen_vk_pipeline *pipe = NULL;
  if (st == SPVGEN_OK && spvgen_vk_pipeline_create(ctx, words, count, &info, &popt, &pipe) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  }
  spvgen_module_destroy(m);
  void *hout = NULL;
  spvgen_vk_buffer *bufs[3] = {0};
  spvgen_vk_dispatch_desc *dd = NULL;
  uint64_t *ns = NULL;
  uint32_t osz = spvgen_component_type_size(p->desc.output_type);
  uint64_t out_bytes = opt.points * p->desc.output_width * osz;
  uint64_t in_bytes = opt.points * p->desc.input_width * spvgen_component_type_size(p->desc.input_type);
  if (st != SPVGEN_OK) goto done;
  if (!(hout = malloc(out_bytes ? out_bytes : 1))) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory for %llu points", (unsigned long long)opt.points);
    goto done;
  }
  uint64_t sizes[3] = {in_bytes, dev_weight_bytes, out_bytes};
  for (int i = 0; i < 3; i++) {
    uint64_t b = (sizes[i] < 4 ? 4 : sizes[i] + 3) & ~3ull;
    if (spvgen_vk_buffer_create(ctx, b, 0, &bufs[i]) != SPVGEN_OK) VKFAIL();
  }
  if (spvgen_vk_buffer_upload(ctx, bufs[0], 0, data.input, in_bytes) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, bufs[1], 0, dev_weights, dev_weight_bytes) != SPVGEN_OK ||
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
  free(dev_weights);
  free(hout);
  return st;
}
