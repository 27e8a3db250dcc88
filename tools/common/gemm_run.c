/* tools/common/gemm_run.c — see gemm_run.h. */
#define _POSIX_C_SOURCE 200809L
#include "gemm_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ conversions ---- */

uint16_t gemm_run_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = (int32_t)((x >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = x & 0x7FFFFFu;
  if (((x >> 23) & 0xFF) == 0xFF) return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0));
  if (exp >= 31) return (uint16_t)(sign | 0x7C00u);
  if (exp <= 0) {
    if (exp < -10) return (uint16_t)sign;
    mant |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - exp);
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
  return (uint16_t)(sign | h);
}

float gemm_run_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, mant = h & 0x3FFu;
  float f;
  if (exp == 0) {
    f = ldexpf((float)mant, -24);
    return sign ? -f : f;
  }
  uint32_t x = exp == 31 ? sign | 0x7F800000u | (mant << 13) : sign | ((exp + 112) << 23) | (mant << 13);
  memcpy(&f, &x, 4);
  return f;
}

uint16_t gemm_run_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7F800000u) == 0x7F800000u) return (uint16_t)((x >> 16) | ((x & 0xFFFF) ? 0x40 : 0));
  x += 0x7FFFu + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

float gemm_run_bf16_to_f32(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* Value of element i of a host array of type t. */
static double get(const void *p, spvgen_component_type t, uint64_t i) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: return gemm_run_f16_to_f32(((const uint16_t *)p)[i]);
  case SPVGEN_COMPONENT_BF16: return gemm_run_bf16_to_f32(((const uint16_t *)p)[i]);
  case SPVGEN_COMPONENT_F32: return ((const float *)p)[i];
  case SPVGEN_COMPONENT_S8: return ((const int8_t *)p)[i];
  case SPVGEN_COMPONENT_U8: return ((const uint8_t *)p)[i];
  case SPVGEN_COMPONENT_S32: return ((const int32_t *)p)[i];
  case SPVGEN_COMPONENT_U32: return ((const uint32_t *)p)[i];
  default: return NAN;
  }
}

/* Stores v (already representable, or rounded here) as element i. */
static void put(void *p, spvgen_component_type t, uint64_t i, double v) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: ((uint16_t *)p)[i] = gemm_run_f32_to_f16((float)v); break;
  case SPVGEN_COMPONENT_BF16: ((uint16_t *)p)[i] = gemm_run_f32_to_bf16((float)v); break;
  case SPVGEN_COMPONENT_F32: ((float *)p)[i] = (float)v; break;
  case SPVGEN_COMPONENT_S8: ((int8_t *)p)[i] = (int8_t)v; break;
  case SPVGEN_COMPONENT_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
  case SPVGEN_COMPONENT_S32: ((int32_t *)p)[i] = (int32_t)v; break;
  case SPVGEN_COMPONENT_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
  default: break;
  }
}

static bool is_float(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_BF16 || t == SPVGEN_COMPONENT_F32;
}

/* Unit roundoff of a float type (0 for integers). */
static double unit(spvgen_component_type t) {
  switch (t) {
  case SPVGEN_COMPONENT_F16: return ldexp(1.0, -11);
  case SPVGEN_COMPONENT_BF16: return ldexp(1.0, -8);
  case SPVGEN_COMPONENT_F32: return ldexp(1.0, -24);
  default: return 0.0;
  }
}

/* ------------------------------------------------------------- random data ---- */

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A nonzero random value of type t: floats of magnitude in [1/8, 1) with a random sign,
 * s8 in [-8, 8] \ {0}, u8 in [1, 15]. */
static double random_value(uint64_t *s, spvgen_component_type t) {
  uint64_t r = rng_next(s);
  if (t == SPVGEN_COMPONENT_S8) {
    int v = (int)(r % 16) - 8;
    return v >= 0 ? v + 1 : v;
  }
  if (t == SPVGEN_COMPONENT_U8) return (double)(r % 15 + 1);
  double mag = 0.125 + 0.875 * (double)(r >> 11) / 9007199254740992.0;
  return (r & 1) ? -mag : mag;
}

static void *fill(uint64_t *s, spvgen_component_type t, uint64_t n) {
  uint32_t es = spvgen_component_type_size(t);
  void *p = malloc(n * es > 0 ? n * es : 1);
  if (!p) return NULL;
  for (uint64_t i = 0; i < n; i++) put(p, t, i, random_value(s, t));
  return p;
}

static uint64_t idx(spvgen_matrix_layout layout, uint32_t ld, uint64_t r, uint64_t c) {
  return layout == SPVGEN_ROW_MAJOR ? r * ld + c : c * ld + r;
}

static double activation(double x, spvgen_activation act) {
  switch (act) {
  case SPVGEN_ACTIVATION_RELU: return x > 0 ? x : 0;
  case SPVGEN_ACTIVATION_GELU: return 0.5 * x * (1.0 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
  case SPVGEN_ACTIVATION_SILU: return x / (1.0 + exp(-x));
  default: return x;
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

/* ------------------------------------------------------------- statistics ---- */
/* Whether a statistic's name says something about registers, spills, local / shared /
 * stack memory, occupancy or instructions (case-insensitive; drivers name them
 * differently). */
static bool interesting_stat(const char *name) {
  static const char *const keys[] = {"register", "spill",     "local",      "shared",
                                     "stack",    "occupancy", "instruction"};
  char lower[64];
  size_t j = 0;
  for (; j + 1 < sizeof lower && name[j]; j++)
    lower[j] = (char)((name[j] >= 'A' && name[j] <= 'Z') ? name[j] - 'A' + 'a' : name[j]);
  lower[j] = 0;
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
    if (strstr(lower, keys[k])) return true;
  return false;
}

/* res->stats for gemm_run_options.statistics: the interesting statistics, else the first
 * few, as "name=value ...". */
static void statistics_line(spvgen_vk_context *ctx, const spvgen_vk_pipeline *pipe, char *out,
                            size_t size) {
  enum { MAX_STATS = 64, FIRST_FEW = 6 };
  spvgen_vk_pipeline_stat stats[MAX_STATS];
  uint32_t n = 0;
  if (spvgen_vk_pipeline_statistics(ctx, pipe, stats, MAX_STATS, &n) != SPVGEN_OK) {
    snprintf(out, size, "unavailable: %s", spvgen_vk_error(ctx));
    return;
  }
  if (n > MAX_STATS) n = MAX_STATS;
  bool any = false;
  for (uint32_t i = 0; i < n && !any; i++) any = interesting_stat(stats[i].name);
  size_t len = 0;
  uint32_t shown = 0;
  out[0] = 0;
  for (uint32_t i = 0; i < n && len + 1 < size; i++) {
    if (any ? !interesting_stat(stats[i].name) : shown >= FIRST_FEW) continue;
    int w = snprintf(out + len, size - len, "%s%s=%.15g", shown ? " " : "", stats[i].name,
                     stats[i].value);
    if (w < 0) break;
    len += (size_t)w < size - len ? (size_t)w : size - len - 1;
    shown++;
  }
  if (n == 0) snprintf(out, size, "none reported");
}

/* --------------------------------------------------------------------- run ---- */

spvgen_status gemm_run(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc,
                       const gemm_run_options *options, gemm_run_result *res, char *msg,
                       size_t size) {
  gemm_run_options opt = options ? *options : (gemm_run_options){0};
  if (!opt.repeats) opt.repeats = 1;
  memset(res, 0, sizeof *res);
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_status st = spvgen_gemm_plan(desc, caps, &res->plan, msg, size);
  if (st != SPVGEN_OK) return st;
  const spvgen_gemm_desc *d = &res->plan.desc;

  /* Emission time: plan + emit + finish into a reused module (the steady state). */
  spvgen_module_desc md;
  memset(&md, 0, sizeof md);
  if (opt.glsl450_memory_model) md.memory_model = SpvMemoryModelGLSL450;
  spvgen_module *m = spvgen_module_create(&md);
  if (!m) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  spvgen_kernel kernel;
  memset(&kernel, 0, sizeof kernel);
  spvgen_kernel_info info;
  const uint32_t *words = NULL;
  size_t count = 0;
  double t0 = now_us();
  int reps = 0;
  do {
    spvgen_module_reset(m, &md);
    spvgen_gemm_config p;
    st = spvgen_gemm_plan(desc, caps, &p, NULL, 0);
    if (st == SPVGEN_OK) st = spvgen_gemm_emit(m, &p, &info);
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
  if (opt.statistics) statistics_line(ctx, pipe, res->stats, sizeof res->stats);

  /* Host data. */
  uint64_t seed = opt.seed ? opt.seed : 0x5eed6e33ull;
  uint64_t na = d->stride_a * d->batch, nb = d->stride_b * d->batch, nd = d->stride_d * d->batch;
  uint64_t nc = d->beta != 0.0f ? d->stride_c * d->batch : 0;
  uint64_t nbias = d->bias == SPVGEN_GEMM_BIAS_ROW ? d->m : d->bias == SPVGEN_GEMM_BIAS_COLUMN ? d->n : 0;
  void *ha = fill(&seed, d->a_type, na), *hb = fill(&seed, d->b_type, nb);
  void *hc = nc ? fill(&seed, d->out_type, nc) : NULL;
  void *hbias = nbias ? fill(&seed, d->out_type, nbias) : NULL;
  uint32_t out_size = spvgen_component_type_size(d->out_type);
  void *hd = malloc(nd * out_size);
  spvgen_vk_buffer *bufs[5] = {0};
  uint32_t nbuf = 0;
  if (!ha || !hb || !hd || (nc && !hc) || (nbias && !hbias)) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory for the operands");
    goto done;
  }
  struct { void *host; uint64_t bytes; } ops[5] = {
      {ha, na * spvgen_component_type_size(d->a_type)},
      {hb, nb * spvgen_component_type_size(d->b_type)},
      {NULL, nd * out_size},
      {hc, nc * out_size},
      {hbias, nbias * out_size}};
  for (int i = 0; i < 5; i++) {
    if (i >= 3 && !ops[i].bytes) continue;
    uint64_t bytes = ops[i].bytes < 4 ? 4 : ops[i].bytes;
    if (spvgen_vk_buffer_create(ctx, (bytes + 3) & ~3ull, 0, &bufs[nbuf]) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN;
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
      goto done;
    }
    if (ops[i].host && spvgen_vk_buffer_upload(ctx, bufs[nbuf], 0, ops[i].host, ops[i].bytes) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN;
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
      goto done;
    }
    if (i == 2 && spvgen_vk_buffer_fill(ctx, bufs[nbuf], 0, (bytes + 3) & ~3ull, 0x7FC07FC0u) != SPVGEN_OK) {
      st = SPVGEN_ERROR_VULKAN; /* NaN-filled: an element the kernel never writes fails the check */
      snprintf(msg, size, "%s", spvgen_vk_error(ctx));
      goto done;
    }
    nbuf++;
  }

  /* Runs: warm-up, then the timed repeats in one submission. */
  uint32_t total = opt.warmup + opt.repeats;
  spvgen_vk_dispatch_desc *dd = calloc(total, sizeof *dd);
  uint64_t *ns = calloc(total, sizeof *ns);
  if (!dd || !ns) {
    free(dd);
    free(ns);
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory");
    goto done;
  }
  for (uint32_t i = 0; i < total; i++) {
    dd[i].pipeline = pipe;
    dd[i].buffers = bufs;
    dd[i].buffer_count = nbuf;
    for (int j = 0; j < 3; j++) dd[i].groups[j] = res->plan.groups[j];
  }
  if (opt.warmup_ms) {
    /* Back-to-back submissions of growing batches until the time is up. */
    uint32_t batch = 1;
    double wt0 = now_us();
    while (st == SPVGEN_OK && now_us() - wt0 < opt.warmup_ms * 1000.0) {
      double b0 = now_us();
      st = spvgen_vk_run(ctx, dd, batch, NULL);
      if (now_us() - b0 < 50000.0 && batch * 2 <= total) batch *= 2;
    }
  }
  double w0 = now_us();
  if (st == SPVGEN_OK) st = spvgen_vk_run(ctx, dd, total, ns);
  res->wall_ns = (now_us() - w0) * 1e3 / total;
  if (st != SPVGEN_OK) snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  if (st == SPVGEN_OK && opt.repeats) {
    qsort(ns + opt.warmup, opt.repeats, sizeof *ns, cmp_u64);
    res->median_ns = (double)ns[opt.warmup + opt.repeats / 2];
    res->min_ns = (double)ns[opt.warmup];
    if (res->median_ns > 0)
      res->tflops = 2.0 * d->m * d->n * (double)d->k * d->batch / res->median_ns / 1e3;
  }
  free(dd);
  free(ns);
  if (st != SPVGEN_OK) goto done;
  if (spvgen_vk_buffer_download(ctx, bufs[2], 0, hd, nd * out_size) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
    goto done;
  }
  if (opt.no_check) goto done;

  /* Reference: float64 over every element (or a sample), compared with a tolerance from
   * the accumulator's and output's unit roundoff and sum |a*b|. */
  uint64_t total_el = (uint64_t)d->m * d->n * d->batch;
  uint64_t n_check = opt.sample && opt.sample < total_el ? opt.sample : total_el;
  uint64_t s2 = seed ^ 0xC0FFEEull;
  bool int_exact = !is_float(d->acc_type) && !is_float(d->out_type);
  double ua = unit(d->acc_type), uo = unit(d->out_type);
  res->worst_ratio = 0;
  for (uint64_t e = 0; e < n_check; e++) {
    uint64_t lin = n_check == total_el ? e : rng_next(&s2) % total_el;
    uint64_t bz = lin / ((uint64_t)d->m * d->n), rem = lin % ((uint64_t)d->m * d->n);
    uint64_t r = rem / d->n, c = rem % d->n;
    double acc = 0, sabs = 0;
    for (uint64_t k = 0; k < d->k; k++) {
      double p = get(ha, d->a_type, bz * d->stride_a + idx(d->a_layout, d->lda, r, k)) *
                 get(hb, d->b_type, bz * d->stride_b + idx(d->b_layout, d->ldb, k, c));
      acc += p;
      sabs += fabs(p);
    }
    double ref;
    if (int_exact) {
      int64_t v = (int64_t)acc;
      if (hbias) v += (int64_t)get(hbias, d->out_type, d->bias == SPVGEN_GEMM_BIAS_ROW ? r : c);
      if (d->activation == SPVGEN_ACTIVATION_RELU && v < 0) v = 0;
      int32_t w = (int32_t)(uint32_t)(uint64_t)v;
      if (d->out_type == SPVGEN_COMPONENT_S8) ref = (int8_t)(uint8_t)(uint32_t)w;
      else if (d->out_type == SPVGEN_COMPONENT_U8) ref = (uint8_t)(uint32_t)w;
      else if (d->out_type == SPVGEN_COMPONENT_U32) ref = (uint32_t)w;
      else ref = w;
    } else {
      ref = acc * d->alpha;
      if (hc) ref += d->beta * get(hc, d->out_type, bz * d->stride_c + idx(d->c_layout, d->ldc, r, c));
      if (hbias) ref += get(hbias, d->out_type, d->bias == SPVGEN_GEMM_BIAS_ROW ? r : c);
      ref = activation(ref, d->activation);
      if (!is_float(d->out_type)) ref = nearbyint(ref);
    }
    double gpu = get(hd, d->out_type, bz * d->stride_d + idx(d->d_layout, d->ldd, r, c));
    /* Accumulation error grows with sum |a*b| (f16 accumulation: several ulps of the
     * running sum); the epilogue adds the output's rounding and one rounding of the
     * accumulator when it is converted. Activations have slope <= 1.1. */
    /* Tensor cores accumulate f32 with truncation in chunks (the H100 measured up to
     * 1.4x a 4-ulp bound at K = 8192); 16 ulps of sum |a*b| stays far inside the
     * (K - 1)-ulp worst case of a sequential sum. */
    double acc_ulps = d->acc_type == SPVGEN_COMPONENT_F16 ? 8.0 : 16.0;
    double tol = int_exact ? 0.0
                           : acc_ulps * ua * sabs * fabs(d->alpha) * 1.1 + 2.0 * uo * fabs(ref) +
                                 (is_float(d->out_type) ? 1e-6 : 1.0);
    /* exp and tanh have implementation-defined precision in Vulkan (a few ulp of f32). */
    if (d->activation == SPVGEN_ACTIVATION_GELU || d->activation == SPVGEN_ACTIVATION_SILU)
      tol += 3e-5 * (fabs(ref) + 1.0);
    double err = fabs(gpu - ref);
    if (!(err <= tol)) { /* NaN counts as bad */
      if (!res->bad) {
        res->first_bad_row = r;
        res->first_bad_col = c;
        res->first_bad_batch = bz;
        res->first_bad_gpu = gpu;
        res->first_bad_ref = ref;
      }
      res->bad++;
    }
    if (!(err <= res->max_err)) {
      res->max_err = err;
      res->max_err_tol = tol;
    }
    double ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
    if (!(ratio <= res->worst_ratio)) res->worst_ratio = ratio;
    res->checked++;
  }

done:
  for (uint32_t i = 0; i < nbuf; i++) spvgen_vk_buffer_destroy(bufs[i]);
  spvgen_vk_pipeline_destroy(pipe);
  free(ha);
  free(hb);
  free(hc);
  free(hbias);
  free(hd);
  return st;
}
