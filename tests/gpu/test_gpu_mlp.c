/* tests/gpu/test_gpu_mlp.c — the MLP template on a real device: each variant the device
 * has (vec: VK_NV_cooperative_vector with the f16 combination; mat: KHR cooperative
 * matrices; loop: any device) runs the reference networks (32-64x4-16 relu, and smaller
 * odd ones with encodings) on random weights and points, every output component checked
 * against the float64 reference of tools/common/mlp_run.c (tolerance: mlp_run.h).
 * Missing features skip (fail under SPVGEN_GPU_REQUIRED=1). The mat variant runs with
 * f32 and with f16 accumulator fragments. Point counts leave a partial last workgroup
 * block. The validation part emits the same kernels for the "h100" preset (mat: both
 * accumulators) and validates them, everywhere.
 *
 * Each run prints a line for scripts/gpu-check:
 *   gpu-summary <test> max_abs_err=<e> tolerance=<t> gpu_us=<us> device=<name> */
#include <stdio.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_run.h"
#include "module_check.h"
#include "mlp_net.h"
#include "spvgen/mlp.h"

static spvgen_mlp_desc net(int which) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  switch (which) {
  case 0: /* the anchor network of shared/anchors/mlp_anchor.py */
    d.input_width = 32;
    d.hidden_width = 64;
    d.hidden_count = 4;
    d.output_width = 16;
    break;
  case 1:
    d.input_width = 3;
    d.hidden_width = 33;
    d.hidden_count = 3;
    d.output_width = 4;
    d.activation = SPVGEN_MLP_ACT_SILU;
    d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
    d.encoding_size = 6;
    d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
    break;
  default:
    d.input_width = 2;
    d.hidden_width = 17;
    d.hidden_count = 2;
    d.output_width = 3;
    d.activation = SPVGEN_MLP_ACT_TANH;
    d.output_activation = SPVGEN_MLP_ACT_SIGMOID;
    d.encoding = SPVGEN_MLP_ENCODING_ONE_BLOB;
    d.encoding_size = 16;
    break;
  }
  return d;
}

static spvgen_mlp_weight_layout_kind g_weights; /* the layout run_variant asks for */
static uint32_t g_points_per_group;               /* and the knob (0: the plan's) */
static spvgen_mlp_bias_path g_bias_path;          /* vec's bias knob (0: the plan's) */
static spvgen_component_type g_weight_type;       /* 0: f16 */
static bool g_mat_rows;                           /* mat: the rows arrangement */

static void run_variant(spvgen_mlp_variant v, uint64_t features, bool acc16) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT | features);
  if (!ctx) return;
  for (int which = 0; which < 3 && !test_current_failed && !test_current_skipped; which++) {
    spvgen_mlp_desc d = net(which);
    d.variant = v;
    d.f16_accumulation = acc16;
    d.weight_layout = g_weights;
    d.points_per_group = g_points_per_group;
    d.bias_path = g_bias_path;
    d.weight_type = g_weight_type;
    d.mat_rows = g_mat_rows;
    char msg[512];
    spvgen_mlp_config p;
    spvgen_status st = spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg);
    if (st == SPVGEN_ERROR_UNSUPPORTED && strstr(msg, "not implemented yet")) {
      test_skip("%s", msg);
      break;
    }
    if (st == SPVGEN_ERROR_UNSUPPORTED) {
      gpu_unavailable("%s", msg);
      break;
    }
    mlp_run_options o = {0};
    bool cpu = spvgen_vk_caps(ctx)->type == SPVGEN_DEVICE_CPU; /* lavapipe: keep it short */
    o.points = cpu ? 1000 : which == 0 ? (1u << 16) + 37 : 5000; /* partial last blocks */
    o.seed = 1234 + which;
    o.warmup = cpu ? 0 : 2;
    o.repeats = cpu ? 1 : 5;
    mlp_run_result r;
    st = mlp_run(ctx, &d, &o, &r, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) break;
    CHECK_EQ_U64(r.checked, o.points * d.output_width);
    CHECK_MSG(r.bad == 0,
              "[%s]: %llu of %llu outputs wrong; first point %llu component %llu: gpu %.7g cpu %.7g "
              "tol %.3g", r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
              (unsigned long long)r.first_bad_point, (unsigned long long)r.first_bad_component,
              r.first_bad_gpu, r.first_bad_ref, r.first_bad_tol);
    printf("gpu-summary %s/%d max_abs_err=%.3g tolerance=%.3g gpu_us=%.1f device=%s\n",
           test_current_name, which, r.max_err, r.max_err_tol, r.median_ns / 1e3, spvgen_vk_caps(ctx)->name);
    printf("  [%s] %llu points: %.3f ms, %.2f G points/s, %.1f TFLOP/s\n", r.plan.name,
           (unsigned long long)o.points, r.median_ns / 1e6, r.points_per_s / 1e9, r.tflops);
  }
  spvgen_vk_destroy(ctx);
}

static void test_mlp_vec_matches_cpu(void) { run_variant(SPVGEN_MLP_VEC, SPVGEN_FEATURE_COOPVEC, false); }

/* output_path staged (vec and mat): the outputs through shared memory, written in 16-byte
 * chunks. Wide f16 outputs (64: the store the path is for), f32 ones, 24 outputs (mat:
 * not whole fragments), several points per invocation and workgroup sizes (vec), device
 * addresses; vec's element form (points of no whole 16-byte chunks: 59 and 22 halves, 5
 * floats), with several points per invocation and device addresses; point counts that
 * leave partial last workgroups. */
static void test_mlp_output_staged_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                                    SPVGEN_FEATURE_COOPVEC | SPVGEN_FEATURE_COOPMAT);
  if (!ctx) return;
  static const struct {
    spvgen_mlp_variant v;
    uint32_t in, width, count, out;
    bool f32_io, bda;
    uint32_t wg, ppg;
  } cases[] = {
      {SPVGEN_MLP_VEC, 1, 16, 2, 64, false, false, 32, 1},  {SPVGEN_MLP_VEC, 64, 16, 1, 64, false, false, 64, 2},
      {SPVGEN_MLP_VEC, 8, 32, 1, 16, true, false, 32, 4},   {SPVGEN_MLP_VEC, 1, 16, 8, 64, false, true, 128, 1},
      {SPVGEN_MLP_MAT, 1, 16, 1, 64, false, false, 0, 0},   {SPVGEN_MLP_MAT, 3, 32, 2, 24, false, false, 0, 0},
      {SPVGEN_MLP_MAT, 64, 16, 1, 64, false, true, 0, 0},
      {SPVGEN_MLP_VEC, 2, 16, 7, 59, false, false, 32, 1},  {SPVGEN_MLP_VEC, 3, 32, 2, 22, false, false, 64, 2},
      {SPVGEN_MLP_VEC, 8, 16, 1, 5, true, false, 128, 1},   {SPVGEN_MLP_VEC, 1, 16, 2, 59, false, true, 32, 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed && !test_current_skipped; i++) {
    spvgen_mlp_desc d = test_mlp_net(cases[i].in, cases[i].width, cases[i].count, cases[i].out, SPVGEN_MLP_ACT_SIGMOID);
    d.variant = cases[i].v;
    d.output_path = SPVGEN_MLP_OUTPUT_STAGED;
    d.workgroup_size = cases[i].wg;
    d.points_per_group = cases[i].ppg;
    if (cases[i].f32_io) d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
    if (cases[i].bda) d.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS;
    for (int pass = 0; pass < 2 && !test_current_failed; pass++) {
      mlp_run_options o = {0};
      o.points = pass ? 5000 : (1u << 16) + 37;
      o.seed = 99 + (uint32_t)i;
      o.warmup = 1;
      o.repeats = 3;
      mlp_run_result r;
      char msg[512];
      spvgen_status st = mlp_run(ctx, &d, &o, &r, msg, sizeof msg);
      if (st == SPVGEN_ERROR_UNSUPPORTED && !i) {
        gpu_unavailable("%s", msg);
        break;
      }
      CHECK_MSG(st == SPVGEN_OK, "case %zu: %s", i, msg);
      if (st != SPVGEN_OK) break;
      CHECK_MSG(strstr(r.plan.name, " ostage") != NULL, "case %zu: plan [%s] is not staged", i, r.plan.name);
      CHECK_EQ_U64(r.checked, o.points * d.output_width);
      CHECK_MSG(r.bad == 0,
                "[%s]: %llu of %llu outputs wrong; first point %llu component %llu: gpu %.7g cpu %.7g tol %.3g",
                r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
                (unsigned long long)r.first_bad_point, (unsigned long long)r.first_bad_component, r.first_bad_gpu,
                r.first_bad_ref, r.first_bad_tol);
      printf("  [%s] %llu points: %.3f ms, %.2f G points/s\n", r.plan.name, (unsigned long long)o.points,
             r.median_ns / 1e6, r.points_per_s / 1e9);
    }
  }
  spvgen_vk_destroy(ctx);
}
/* The driver's inferencing-optimal weights (converted on the host, offsets as
 * specialization constants). */
static void test_mlp_vec_optimal_weights_matches_cpu(void) {
  g_weights = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  run_variant(SPVGEN_MLP_VEC, SPVGEN_FEATURE_COOPVEC, false);
  g_weights = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
}
/* Two and four points per invocation, one after another; the point counts leave partial
 * last workgroups (65573 and 5000 points). */
static void test_mlp_vec_two_and_four_points_per_invocation_matches_cpu(void) {
  g_weights = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  for (uint32_t ppi = 2; ppi <= 4 && !test_current_failed && !test_current_skipped; ppi += 2) {
    g_points_per_group = ppi;
    run_variant(SPVGEN_MLP_VEC, SPVGEN_FEATURE_COOPVEC, false);
  }
  g_points_per_group = 0;
  g_weights = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
}
/* The bias loaded as a cooperative vector and added after MatrixMul (bias_path add), with
 * row-major and optimal weights, one and two points per invocation. */
static void test_mlp_vec_bias_add_matches_cpu(void) {
  g_bias_path = SPVGEN_MLP_BIAS_ADD;
  for (int i = 0; i < 3 && !test_current_failed && !test_current_skipped; i++) {
    g_weights = i ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    g_points_per_group = i == 2 ? 2 : 0;
    run_variant(SPVGEN_MLP_VEC, SPVGEN_FEATURE_COOPVEC, false);
  }
  g_points_per_group = 0;
  g_weights = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
  g_bias_path = SPVGEN_MLP_BIAS_AUTO;
}
/* Float8 weights (E4M3, E5M2; optimal layout, converted by the driver from f16 values on
 * the float8 grid): the reference rounds each layer's input to float8 as the device does
 * (lib/ref/ref_mlp.c says the tolerance). */
static void test_mlp_vec_float8_weights_matches_cpu(void) {
  g_weights = SPVGEN_MLP_WEIGHTS_OPTIMAL;
  for (int t = 0; t < 2 && !test_current_failed && !test_current_skipped; t++) {
    g_weight_type = t ? SPVGEN_COMPONENT_E5M2 : SPVGEN_COMPONENT_E4M3;
    run_variant(SPVGEN_MLP_VEC, SPVGEN_FEATURE_COOPVEC, false);
  }
  g_weight_type = SPVGEN_COMPONENT_F16;
  g_weights = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
}
/* int8 weights with scales (row-major and optimal): the reference quantizes each layer's
 * input as the kernel does (lib/ref/ref_mlp.c says the tolerance). */
static void test_mlp_vec_int8_weights_matches_cpu(void) {
  g_weight_type = SPVGEN_COMPONENT_S8;
  for (int opt = 0; opt < 2 && !test_current_failed && !test_current_skipped; opt++) {
    g_weights = opt ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
    run_variant(SPVGEN_MLP_VEC, SPVGEN_FEATURE_COOPVEC, false);
  }
  g_weight_type = SPVGEN_COMPONENT_F16;
  g_weights = SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
}
static void test_mlp_mat_matches_cpu(void) { run_variant(SPVGEN_MLP_MAT, SPVGEN_FEATURE_COOPMAT, false); }
/* f16 accumulator fragments (tolerance: (inputs + 1) 2^-11 per layer, mlp_run.h). */
static void test_mlp_mat_f16acc_matches_cpu(void) { run_variant(SPVGEN_MLP_MAT, SPVGEN_FEATURE_COOPMAT, true); }
static void test_mlp_loop_matches_cpu(void) { run_variant(SPVGEN_MLP_LOOP, 0, false); }
/* The mat variant's rows arrangement (desc.mat_rows: each subgroup its own point
 * fragments, every output fragment; no workgroup barrier between layers). */
static void test_mlp_mat_rows_matches_cpu(void) {
  g_mat_rows = true;
  run_variant(SPVGEN_MLP_MAT, SPVGEN_FEATURE_COOPMAT, false);
  g_mat_rows = false;
}

/* One desc on the device, every output of every point checked; false when the device
 * cannot run it (skipped, or under SPVGEN_GPU_REQUIRED a failure). */
static bool run_desc(spvgen_vk_context *ctx, const spvgen_mlp_desc *d, uint64_t points, const char *tag) {
  char msg[512];
  spvgen_mlp_config p;
  spvgen_status st = spvgen_mlp_plan(d, spvgen_vk_caps(ctx), &p, msg, sizeof msg);
  if (st == SPVGEN_ERROR_UNSUPPORTED) {
    gpu_unavailable("%s", msg);
    return false;
  }
  mlp_run_options o = {0};
  bool cpu = spvgen_vk_caps(ctx)->type == SPVGEN_DEVICE_CPU;
  o.points = cpu && points > 1000 ? 1000 : points;
  o.seed = 4242 + points;
  o.warmup = cpu ? 0 : 2;
  o.repeats = cpu ? 1 : 5;
  mlp_run_result r;
  st = mlp_run(ctx, d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return false;
  CHECK_EQ_U64(r.checked, o.points * d->output_width);
  CHECK_MSG(r.bad == 0,
            "[%s]: %llu of %llu outputs wrong; first point %llu component %llu: gpu %.7g cpu %.7g tol %.3g",
            r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
            (unsigned long long)r.first_bad_point, (unsigned long long)r.first_bad_component, r.first_bad_gpu,
            r.first_bad_ref, r.first_bad_tol);
  printf("gpu-summary %s/%s max_abs_err=%.3g tolerance=%.3g gpu_us=%.1f device=%s\n", test_current_name, tag,
         r.max_err, r.max_err_tol, r.median_ns / 1e3, spvgen_vk_caps(ctx)->name);
  printf("  [%s] (%s) %llu points: %.3f ms, %.2f G points/s, %.1f TFLOP/s, compile %.1f ms\n", r.plan.name,
         r.plan.selection, (unsigned long long)o.points, r.median_ns / 1e6, r.points_per_s / 1e9, r.tflops,
         r.compile_ms);
  return true;
}

/* The vec variant's f16 sigmoid and silu, written on the cooperative-vector Tanh
 * (emitters/mlp/vec.c), hidden and at the output, against the float64 reference: four
 * networks, row-major and optimal weights. */
static void test_mlp_vec_sigmoid_silu_matches_cpu(void) {
  static const struct {
    uint32_t in, width, count, out;
    spvgen_mlp_activation act, out_act;
  } nets[] = {{8, 32, 1, 8, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_SILU},
              {32, 64, 3, 16, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_SIGMOID},
              {3, 48, 2, 1, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_SIGMOID},
              {16, 128, 3, 3, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE}};
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT | SPVGEN_FEATURE_COOPVEC);
  if (!ctx) return;
  for (size_t n = 0; n < sizeof nets / sizeof nets[0] && !test_current_failed; n++)
    for (int opt = 0; opt < 2 && !test_current_failed; opt++) {
      spvgen_mlp_desc d = test_mlp_net(nets[n].in, nets[n].width, nets[n].count, nets[n].out, nets[n].act);
      d.output_activation = nets[n].out_act;
      d.variant = SPVGEN_MLP_VEC;
      d.weight_layout = opt ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      char tag[48];
      snprintf(tag, sizeof tag, "%u-%ux%u-%u-%s", nets[n].in, nets[n].width, nets[n].count, nets[n].out,
               opt ? "opt" : "rm");
      if (!run_desc(ctx, &d, 65537, tag) && test_current_skipped) break;
    }
}

/* The hash grid's lookups and interpolation fused into each variant's first layer: 3-D
 * (16 levels of 2 features, a 2^16 table: dense and hashed levels) and 2-D (8 levels of
 * 4, every level past the third hashed), f16 and f32 points, partial last blocks. */
static void test_mlp_hash_grid_every_variant_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  for (int cls = 0; cls < 4 && !test_current_failed; cls++)
    for (int g = 0; g < 2 && !test_current_failed; g++) {
      spvgen_mlp_desc d;
      memset(&d, 0, sizeof d);
      d.input_width = g ? 2 : 3;
      d.hidden_width = 64;
      d.hidden_count = 2;
      d.output_width = g ? 3 : 16;
      d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
      d.grid.levels = g ? 8 : 16;
      d.grid.features = g ? 4 : 2;
      d.grid.log2_hashmap_size = g ? 12 : 16;
      d.grid.per_level_scale = g ? 1.7f : 1.5f;
      if (g) d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
      d.variant = cls == 3 ? SPVGEN_MLP_LOOP : cls == 2 ? SPVGEN_MLP_MAT : SPVGEN_MLP_VEC;
      d.weight_layout = cls == 1 ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      static const char *const tags[4] = {"vec", "vec-opt", "mat", "loop"};
      char tag[32];
      snprintf(tag, sizeof tag, "%s-%dd", tags[cls], g ? 2 : 3);
      if (!run_desc(ctx, &d, (1u << 16) + 37, tag) && test_current_skipped) break;
    }
  spvgen_vk_destroy(ctx);
}

/* Width 256 (tiny-cuda-nn's fully fused MLP stops at 128): the mat variant (one layer's
 * biases in shared memory at a time) and the vec variant, 64-256x3-64 and 1-256x2-1. */
static void test_mlp_width_256_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  static const uint32_t nets[2][4] = {{64, 256, 3, 64}, {1, 256, 2, 1}};
  /* lavapipe (Mesa 22.3) computes the loop variant wrong once its weights pass 2^16 f16
   * values (128 KiB: 260-260 fails, 240-240 passes; so before this work too): the loop
   * variant's 256-wide case runs on GPUs only. */
  const bool cpu = spvgen_vk_caps(ctx)->type == SPVGEN_DEVICE_CPU;
  for (int v = 0; v < (cpu ? 2 : 3) && !test_current_failed; v++)
    for (int n = 0; n < 2 && !test_current_failed; n++) {
      spvgen_mlp_desc d;
      memset(&d, 0, sizeof d);
      d.input_width = nets[n][0];
      d.hidden_width = nets[n][1];
      d.hidden_count = nets[n][2];
      d.output_width = nets[n][3];
      d.activation = n ? SPVGEN_MLP_ACT_TANH : SPVGEN_MLP_ACT_RELU;
      d.variant = v == 2 ? SPVGEN_MLP_LOOP : v ? SPVGEN_MLP_MAT : SPVGEN_MLP_VEC;
      if (v == 0) d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
      char tag[32];
      snprintf(tag, sizeof tag, "%s-%d", spvgen_mlp_variant_name(d.variant), n);
      if (!run_desc(ctx, &d, 20011, tag) && test_current_skipped) break;
    }
  spvgen_vk_destroy(ctx);
}

/* The layers variant (a GEMM per layer: coopmat2 or khr GEMMs on the GPU) with every MLP
 * activation in its GEMM epilogues: 64-256x3-64 with relu, leaky relu, sigmoid, tanh and
 * silu hidden, and sigmoid, tanh, exp and leaky relu at the output; one network without
 * biases. lavapipe (simt GEMMs) runs 16-64x2-8 instead (the 256-wide networks' float64
 * reference and simt GEMMs are the time). */
static void test_mlp_layers_every_activation_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  const bool cpu = spvgen_vk_caps(ctx)->type == SPVGEN_DEVICE_CPU;
  static const struct { spvgen_mlp_activation hidden, out; bool no_bias; } nets[] = {
      {SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_SIGMOID, false},    {SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_EXP, false},
      {SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_NONE, false},    {SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_TANH, false},
      {SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_LEAKY_RELU, false}, {SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_NONE, true}};
  for (size_t i = 0; i < sizeof nets / sizeof nets[0] && !test_current_failed; i++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = cpu ? 16 : 64;
    d.hidden_width = cpu ? 64 : 256;
    d.hidden_count = cpu ? 2 : 3;
    d.output_width = cpu ? 8 : 64;
    d.activation = nets[i].hidden;
    d.output_activation = nets[i].out;
    d.no_bias = nets[i].no_bias;
    d.variant = SPVGEN_MLP_LAYERS;
    char tag[48];
    snprintf(tag, sizeof tag, "layers-%s-%s%s", spvgen_mlp_activation_name(d.activation),
             spvgen_mlp_activation_name(d.output_activation), d.no_bias ? "-nobias" : "");
    if (!run_desc(ctx, &d, 20011, tag) && test_current_skipped) break;
  }
  spvgen_vk_destroy(ctx);
}

/* The layers variant past the GEMM grid's 65535 workgroups per dimension: 64-256x1-1
 * tanh (a network AUTO gives the layers variant) at 4,194,305 points, whose last layer's
 * GEMM (64-row tiles) has 65537 tiles of M and folds them into dimension 0 (spvgen/gemm.h,
 * "Limits"; before, the dispatch was refused); about 65536 points checked, evenly spread,
 * the last included. GPUs only: lavapipe runs folded GEMMs in tests/gemm/test_gemm_fold.c,
 * and tests/mlp/test_mlp_layers.c checks the plan's grids. */
static void test_mlp_layers_past_the_grid_limit_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  if (spvgen_vk_caps(ctx)->type == SPVGEN_DEVICE_CPU) {
    spvgen_vk_destroy(ctx);
    test_skip("a CPU device: 4 million points through 256-wide GEMMs run on GPUs (lavapipe: test_gemm_fold)");
    return;
  }
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 64;
  d.hidden_width = 256;
  d.hidden_count = 1;
  d.output_width = 1;
  d.activation = SPVGEN_MLP_ACT_TANH;
  d.variant = SPVGEN_MLP_LAYERS;
  char msg[512];
  spvgen_mlp_config p;
  spvgen_status st = spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg);
  if (st == SPVGEN_ERROR_UNSUPPORTED) {
    gpu_unavailable("%s", msg);
    spvgen_vk_destroy(ctx);
    return;
  }
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  mlp_run_options o = {0};
  o.points = 4194305;
  o.sample = 65536;
  o.seed = 4242;
  o.warmup = 1;
  o.repeats = 3;
  mlp_run_result r;
  st = mlp_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st == SPVGEN_OK) {
    CHECK(r.checked >= 65536 && r.checked <= 2 * 65536);
    CHECK_MSG(r.bad == 0,
              "[%s]: %llu of %llu outputs wrong; first point %llu component %llu: gpu %.7g cpu %.7g tol %.3g",
              r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
              (unsigned long long)r.first_bad_point, (unsigned long long)r.first_bad_component, r.first_bad_gpu,
              r.first_bad_ref, r.first_bad_tol);
    printf("gpu-summary %s/layers-4194305 max_abs_err=%.3g tolerance=%.3g gpu_us=%.1f device=%s\n", test_current_name,
           r.max_err, r.max_err_tol, r.median_ns / 1e3, spvgen_vk_caps(ctx)->name);
    printf("  [%s] %llu points: %.3f ms, %.2f G points/s, driver compile %.0f ms\n", r.plan.name,
           (unsigned long long)o.points, r.median_ns / 1e6, r.points_per_s / 1e9, r.compile_ms);
  }
  spvgen_vk_destroy(ctx);
}

/* The mat variant's streamed form (desc.mat_slab) on wide networks with the real
 * cooperative matrices: 64-256x3-64 relu (direct output fragments), 3-256x8-7 tanh with
 * f32 points (staged inputs, the tile output path, depth 8), 32-256x3-16 relu with f16
 * accumulators and 16-128x3-3 silu (two point fragments per subgroup), each at slabs of
 * 16 and 32 inputs (64 where it fits), every output of 4099 points (a partial last
 * block; the float64 reference of a 256 x 8 network is the time) against float64. On lavapipe: the emulation covers the form in
 * tests/mlp/test_mlp_mat_emulated.c. */
static void test_mlp_mat_stream_wide_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                                    SPVGEN_FEATURE_COOPMAT);
  if (!ctx) return;
  static const struct {
    uint32_t in, width, count, out;
    spvgen_mlp_activation act;
    bool f32_io, acc16;
  } nets[] = {{64, 256, 3, 64, SPVGEN_MLP_ACT_RELU, false, false},
              {3, 256, 8, 7, SPVGEN_MLP_ACT_TANH, true, false},
              {32, 256, 3, 16, SPVGEN_MLP_ACT_RELU, false, true},
              {16, 128, 3, 3, SPVGEN_MLP_ACT_SILU, false, false}};
  static const uint32_t slabs[] = {16, 32, 64};
  for (size_t n = 0; n < sizeof nets / sizeof nets[0] && !test_current_failed; n++)
    for (size_t k = 0; k < sizeof slabs / sizeof slabs[0] && !test_current_failed; k++) {
      spvgen_mlp_desc d = test_mlp_net(nets[n].in, nets[n].width, nets[n].count, nets[n].out, nets[n].act);
      d.f16_accumulation = nets[n].acc16;
      if (nets[n].f32_io) d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
      d.variant = SPVGEN_MLP_MAT;
      d.mat_slab = slabs[k];
      spvgen_mlp_config p;
      char msg[512];
      if (spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED &&
          strstr(msg, "shared memory"))
        continue; /* slab 64 of a 256-wide layer: two slabs do not fit 48 KiB */
      char tag[48];
      snprintf(tag, sizeof tag, "net%zu-slab%u", n, slabs[k]);
      if (!run_desc(ctx, &d, 4099, tag) && test_current_skipped) break;
    }
  spvgen_vk_destroy(ctx);
}

/* The vec variant's structure knobs (spvgen/mlp.h): layers in pieces of 64 rows (48 for
 * uneven pieces), staged through shared memory, the hidden layers in a loop (and, staged,
 * a layer's pieces), on 16-128x3-3 silu and 1-256x5-16 tanh (row-major: looped only),
 * row-major and optimal (each piece converted on its own), every output of 20011 points
 * against float64. */
/* The structure knobs on network n (0: 16-128x3-3 silu, 1: 1-256x5-16 tanh), weight
 * layouts opt_first..opt_last. Split into three tests so each fits a GPU test's time limit:
 * the 256-wide kernels take 10-40 s each to compile on the H100, and the whole set took
 * over 330 s as one test. */
static void structure_knobs(int n, int opt_first, int opt_last) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT |
                                    SPVGEN_FEATURE_COOPVEC);
  if (!ctx) return;
  static const uint32_t nets[2][4] = {{16, 128, 3, 3}, {1, 256, 5, 16}};
  static const struct {
    uint32_t rows;
    bool stage, loop;
  } knobs[] = {{64, false, false}, {48, false, false}, {0, true, false}, {64, true, false},
               {0, false, true},   {64, false, true},  {64, true, true}};
  for (int opt = opt_first; opt <= opt_last && !test_current_failed; opt++)
      for (size_t k = 0; k < sizeof knobs / sizeof knobs[0] && !test_current_failed; k++) {
        if (n == 1 && !opt && !knobs[k].loop) continue; /* 256 wide, row-major, unrolled: ~20 s of compile */
        spvgen_mlp_desc d;
        memset(&d, 0, sizeof d);
        d.input_width = nets[n][0];
        d.hidden_width = nets[n][1];
        d.hidden_count = nets[n][2];
        d.output_width = nets[n][3];
        d.activation = n ? SPVGEN_MLP_ACT_TANH : SPVGEN_MLP_ACT_SILU;
        d.variant = SPVGEN_MLP_VEC;
        d.workgroup_size = 32;
        d.weight_layout = opt ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
        d.vec_rows = knobs[k].rows;
        d.vec_stage = knobs[k].stage;
        d.layer_loop = knobs[k].loop;
        char tag[48];
        snprintf(tag, sizeof tag, "net%d-%s-r%u%s%s", n, opt ? "opt" : "row", knobs[k].rows,
                 knobs[k].stage ? "-stage" : "", knobs[k].loop ? "-loop" : "");
        if (!run_desc(ctx, &d, 20011, tag) && test_current_skipped) break;
      }
  spvgen_vk_destroy(ctx);
}

static void test_mlp_vec_structure_knobs_matches_cpu(void) { structure_knobs(0, 0, 1); }
static void test_mlp_vec_structure_knobs_256_optimal_matches_cpu(void) { structure_knobs(1, 1, 1); }
static void test_mlp_vec_structure_knobs_256_row_major_matches_cpu(void) { structure_knobs(1, 0, 0); }

/* What spvgen_mlp_plan chooses with variant and weight layout auto (emitters/mlp/select.c)
 * runs correctly on the four networks. */
static void test_mlp_chosen_plans_matches_cpu(void) {
  spvgen_vk_context *ctx = gpu_open(SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT);
  if (!ctx) return;
  static const uint32_t nets[4][4] = {{3, 48, 2, 1}, {8, 32, 1, 8}, {64, 64, 5, 64}, {16, 128, 3, 3}};
  static const spvgen_mlp_activation acts[4] = {SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_RELU,
                                                SPVGEN_MLP_ACT_SILU};
  for (int n = 0; n < 4 && !test_current_failed; n++)
    for (int layout = 0; layout < 2 && !test_current_failed; layout++) {
      spvgen_mlp_desc d;
      memset(&d, 0, sizeof d);
      d.input_width = nets[n][0];
      d.hidden_width = nets[n][1];
      d.hidden_count = nets[n][2];
      d.output_width = nets[n][3];
      d.activation = acts[n];
      d.weight_layout = layout ? SPVGEN_MLP_WEIGHTS_AUTO : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
      char tag[32];
      snprintf(tag, sizeof tag, "net%d-%s", n, layout ? "auto" : "row");
      run_desc(ctx, &d, 100003, tag);
    }
  spvgen_vk_destroy(ctx);
}

static void test_mlp_kernels_h100_validation(void) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset("h100", &caps) == SPVGEN_OK);
  for (int which = 0; which < 3; which++) { /* the rows arrangement's kernels */
    spvgen_mlp_desc d = net(which);
    d.variant = SPVGEN_MLP_MAT;
    d.mat_rows = true;
    spvgen_kernel k;
    char msg[512];
    spvgen_status st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s", msg);
    if (st != SPVGEN_OK) continue;
    CHECK(check_words(k.words, k.word_count));
    spvgen_kernel_free(&k);
  }
  /* v: vec, mat, loop (the fused variants, up to layers), then mat with f16 accumulators, vec with 2 and 4 points per
   * invocation, vec with bias_path add */
  for (int v = SPVGEN_MLP_VEC; v <= SPVGEN_MLP_LAYERS + 3; v++)
    for (int which = 0; which < 3; which++) {
      spvgen_mlp_desc d = net(which);
      d.variant = v == SPVGEN_MLP_LAYERS ? SPVGEN_MLP_MAT
                  : v > SPVGEN_MLP_LAYERS ? SPVGEN_MLP_VEC : (spvgen_mlp_variant)v;
      d.f16_accumulation = v == SPVGEN_MLP_LAYERS;
      if (v > SPVGEN_MLP_LAYERS) d.points_per_group = 2u * (uint32_t)(v - SPVGEN_MLP_LAYERS);
      if (v == SPVGEN_MLP_LAYERS + 3) {
        d.points_per_group = 1;
        d.bias_path = SPVGEN_MLP_BIAS_ADD;
      }
      spvgen_kernel k;
      char msg[512];
      spvgen_status st = spvgen_mlp(&d, &caps, &k, msg, sizeof msg);
      CHECK_MSG(st == SPVGEN_OK, "%s", msg);
      if (st != SPVGEN_OK) continue;
      CHECK(check_words(k.words, k.word_count));
      spvgen_kernel_free(&k);
    }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mlp_output_staged_matches_cpu),
      TEST_CASE(test_mlp_vec_matches_cpu),
      TEST_CASE(test_mlp_vec_optimal_weights_matches_cpu),
      TEST_CASE(test_mlp_vec_two_and_four_points_per_invocation_matches_cpu),
      TEST_CASE(test_mlp_vec_bias_add_matches_cpu),
      TEST_CASE(test_mlp_vec_sigmoid_silu_matches_cpu),
      TEST_CASE(test_mlp_vec_float8_weights_matches_cpu),
      TEST_CASE(test_mlp_vec_int8_weights_matches_cpu),
      TEST_CASE(test_mlp_mat_matches_cpu),
      TEST_CASE(test_mlp_mat_f16acc_matches_cpu),
      TEST_CASE(test_mlp_loop_matches_cpu),
      TEST_CASE(test_mlp_mat_rows_matches_cpu),
      TEST_CASE(test_mlp_hash_grid_every_variant_matches_cpu),
      TEST_CASE(test_mlp_width_256_matches_cpu),
      TEST_CASE(test_mlp_layers_every_activation_matches_cpu),
      TEST_CASE(test_mlp_layers_past_the_grid_limit_matches_cpu),
      TEST_CASE(test_mlp_mat_stream_wide_matches_cpu),
      TEST_CASE(test_mlp_vec_structure_knobs_matches_cpu),
      TEST_CASE(test_mlp_vec_structure_knobs_256_optimal_matches_cpu),
      TEST_CASE(test_mlp_vec_structure_knobs_256_row_major_matches_cpu),
      TEST_CASE(test_mlp_chosen_plans_matches_cpu),
      TEST_CASE(test_mlp_kernels_h100_validation),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
