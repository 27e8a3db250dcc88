/* tools/common/mlp_run.h — runs an MLP desc on a device against a float64 CPU reference:
 * random weights, biases and points (never zero; the weight buffer's padding holds 1000.0
 * so that a kernel reading it fails), every output component of every point compared
 * with a tolerance from a propagated error bound (mlp_reference), and GPU timestamps
 * (sustained warm-up, repeats, median) as gemm_run. For `spvgen run mlp`, the MLP tests
 * and later the benchmark. Not part of the library.
 *
 * The tolerance: mlp_reference carries, next to each value, a bound on the device's error
 * for the plan's arithmetic: per layer
 *     e_out = L * (sum_j |W_ij| e_j + u_acc * (sum_j |W_ij x_j| + |b_i|)) + e_act + u_store |y|
 * with L the activation's slope bound near the value (1 for relu / leaky / tanh / none,
 * 1/4 sigmoid, 1.1 silu, exp(z + e) for exp), u_acc the accumulation's relative error
 * (loop: f32 sums, 2^-20; vec / mat: tensor units with f16 results, 2^-9; mat with
 * f16_accumulation: (inputs + 1) 2^-11, each addition rounded to f16), u_store the
 * rounding of activations between layers (loop 2^-24; vec / mat f16, 2^-10: Vulkan lets
 * f32 -> f16 conversions round toward zero), e_act the
 * activation's own error (loop 1e-6 (|y| + 1); vec / mat f16 exp / tanh, 2^-9 (|y| + 1)),
 * and the encoding's error (2^-11 absolute for sin / cos, Vulkan's precision, and f16
 * rounding of the encoded values for vec / mat).
 *
 * That worst case adds the inputs' errors linearly, sum_j |W_ij| e_j: with weights of
 * 1/sqrt(inputs) it grows by about sqrt(width) a layer, 10^3 - 10^4 on the outputs of
 * O(1) of a 6-layer 256-wide network. Next to it each value carries a statistical bound
 * F g + c (F = SG_REF_MLP_SIGMAS, 8): c the worst case of the value's own last roundings
 * (the terms u_acc, u_store, e_act above, unchanged), g the scale of the errors that came
 * through the sums, which add as independent ones do, root-sum-square:
 *     g_out = L * sqrt(sum_j (W_ij (g_j + c_j))^2)
 * (the f16 accumulator's inputs + 1 roundings so too, sqrt(inputs + 1) 2^-11 of the
 * magnitudes, next to its linear (inputs + 1) 2^-11; L over the interval the statistical
 * bound gives). For independent zero-mean errors bounded by b_k, Hoeffding's inequality
 * puts their sum beyond F sqrt(sum b_k^2) with probability at most 2 exp(-F^2 / 2), 3e-14
 * at F = 8 (independence across a layer's units is the assumption: the test
 * tests/mlp/test_mlp_ref_bound.c checks it against CPU emulations of the f16 paths that
 * round to nearest and toward zero). The rounding flips of float8 and int8 inputs (a whole grid step where a value
 * lies within its bound of a rounding boundary) are not small random errors: they stay
 * worst cases there, and the bound of those paths is the worst case. mlp_reference's err
 * is the smaller of the two, e_out or F g_out + c_out. An output passes when
 * |gpu - ref| <= 2 err + 2^-10 |ref| (f16 output, either rounding) + 1e-6. */
#ifndef SPVGEN_TOOLS_MLP_RUN_H
#define SPVGEN_TOOLS_MLP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spvgen/mlp.h"
#include "spvgen/vk.h"

typedef struct mlp_run_options {
  uint64_t seed;      /* 0: a fixed default */
  uint64_t points;    /* 0: 4096 */
  uint32_t warmup;    /* dispatches before timing */
  uint32_t warmup_ms; /* sustained warm-up (see gemm_run.h) */
  uint32_t repeats;   /* timed dispatches; 0: 1 */
  bool no_check;
  uint64_t sample;    /* 0: check every point; else about this many points, evenly spread
                         (the first and the last included: large benchmark runs), every
                         output component of each */
  uint32_t warmup_limit_ms; /* the warm-up's time limit (warm_up_run_limit; 0: its default) */
  uint64_t input_period; /* 0: every point drawn at random; else the points repeat with this
                            period (the host draws and checks that many, the device buffer
                            holds them over and over: large point counts without the host's
                            cost; keep period * point bytes past the caches) */
  uint32_t emit_ms;      /* how long emit + finish is repeated to time it (0: 20 ms) */
  bool statistics;       /* fill res->stats (spvgen_vk_pipeline_statistics) */
} mlp_run_options;

typedef struct mlp_run_result {
  spvgen_mlp_config plan;
  uint64_t checked, bad;
  double max_err, max_err_tol, worst_ratio;
  uint64_t first_bad_point, first_bad_component;
  double first_bad_gpu, first_bad_ref, first_bad_tol;
  double median_ns, min_ns;
  double clock_mhz;   /* the shader clock right after the timing (0: not read) */
  double points_per_s, tflops;
  double emit_us;     /* emit + finish of the plan, one core, averaged over repeats */
  double compile_ms;  /* the driver's pipeline creation (vkCreateComputePipelines), wall
                         time of the first compile of this module in the process */
  size_t words;       /* the module's size */
  /* With options->statistics: the driver's pipeline statistics of the first kernel on one
   * line ("Register Count=... Shared Memory Size=...": template_run.h) */
  char stats[512];
} mlp_run_result;

/* Host data of a run: what mlp_run_make_data fills. */
typedef struct mlp_run_data {
  uint8_t *weights; /* plan.weight_bytes */
  void *input;      /* points * input_width of input_type */
  uint64_t points;
} mlp_run_data;

/* Random weights (f16, nonzero, scaled by 1/sqrt(inputs)) and biases, padding 1000.0,
 * and random points (one-blob: in (0, 1); else +-[1/8, 1)). Returns false when out of
 * memory. Free with mlp_run_free_data. */
bool mlp_run_make_data(const spvgen_mlp_config *plan, uint64_t points, uint64_t seed,
                       mlp_run_data *data);
void mlp_run_free_data(mlp_run_data *data);

/* The float64 reference of point `p`: out[output_width] and err[output_width] (the bound
 * above for the plan's variant). */
void mlp_reference(const spvgen_mlp_config *plan, const mlp_run_data *data, uint64_t p,
                   double *out, double *err);

/* Checks device output (output_type values) against the reference; fills the check
 * fields of res. */
void mlp_run_check(const spvgen_mlp_config *plan, const mlp_run_data *data, const void *gpu_out,
                   mlp_run_result *res);
/* The same on every step-th point (and the last one); step 0 or 1: every point. */
void mlp_run_check_sampled(const spvgen_mlp_config *plan, const mlp_run_data *data,
                           const void *gpu_out, uint64_t step, mlp_run_result *res);

/* A network's data on the device, for running several plans of it (benchmarks): random
 * weights (row-major, and the driver's optimal layout made when a plan first needs it),
 * points, the output buffer, and the float64 reference of the sampled points (per error
 * model: loop / f16 paths / f16 accumulation), computed once. Plans run on a session must
 * be of its network (layers, encoding, types: mlp_session_accepts). */
typedef struct mlp_session mlp_session;
spvgen_status mlp_session_open(spvgen_vk_context *ctx, const spvgen_mlp_config *plan,
                               const mlp_run_options *options, mlp_session **out, char *message,
                               size_t message_size);
bool mlp_session_accepts(const mlp_session *s, const spvgen_mlp_config *plan);
/* Emits (timed), compiles (timed), warms up, times and checks one plan. */
spvgen_status mlp_session_run(mlp_session *s, const spvgen_mlp_config *plan, mlp_run_result *res,
                              char *message, size_t message_size);

/* Creates (and destroys) the pipeline of a plan on ctx exactly as mlp_session_run does
 * (the same words, specialization constants and subgroup size), so that a later session's
 * create finds it in the kernel cache: for compiling plans ahead on other threads, each
 * with a context of its own (spvgen/vk.h, "Threads"). *compile_ms: the create's wall
 * time. */
spvgen_status mlp_compile_plan(spvgen_vk_context *ctx, const spvgen_mlp_config *plan, double *compile_ms,
                               char *message, size_t message_size);
void mlp_session_close(mlp_session *s);

/* The network of a resolved desc (plan.desc) as `spvgen mlp`'s flags ("--in 3 --out 1
 * --hidden 48,48 --act sigmoid ..."), which bench/anchors/mlp_anchor_net.py reads too. */
void mlp_net_flags(const spvgen_mlp_desc *d, char *buf, size_t size);

/* bench/anchors/mlp_anchor_net.py's results: "anchor<TAB>NAME<TAB>MODE<TAB>POINTS<TAB>MS<TAB>
 * G/S<TAB>TFLOP/S" lines. mlp_anchor_run runs `python3 SCRIPT ARGS` (popen, in the same
 * process run as the benchmark) and collects them; its other lines go to echo (NULL:
 * dropped), prefixed "# anchor: ". Returns the number of rows. */
typedef struct mlp_anchor_row {
  char name[64], mode[24];
  uint64_t points;
  double ms, rate_g, tflops; /* rate_g: G points/s (inference) or G samples/s (train-*) */
} mlp_anchor_row;
uint32_t mlp_anchor_run(const char *script, const char *args, mlp_anchor_row *rows, uint32_t max, FILE *echo);
/* The rate of NAME's MODE among rows (0: none). */
double mlp_anchor_rate(const mlp_anchor_row *rows, uint32_t n, const char *name, const char *mode);

/* Plans desc for ctx's device, emits, runs and checks. SPVGEN_OK means it ran; the
 * verdict is res->bad == 0. */
spvgen_status mlp_run(spvgen_vk_context *ctx, const spvgen_mlp_desc *desc,
                      const mlp_run_options *options, mlp_run_result *res, char *message,
                      size_t message_size);
/* The same for a plan made by the caller (emit_us: emit + finish, without the plan). */
spvgen_status mlp_run_plan(spvgen_vk_context *ctx, const spvgen_mlp_config *plan,
                           const mlp_run_options *options, mlp_run_result *res, char *message,
                           size_t message_size);

#endif
