/* tests/mlp/test_mlp_run.c — the loop variant on the CI device (lavapipe) against the
 * float64 reference of tools/common/mlp_run.c, every output component of every point
 * checked: several random networks (odd widths, depths 1-6, every activation, both
 * encodings, f16 and f32 points, with and without bias), the function shape inside a
 * caller-built kernel, and the check itself failing on a corrupted output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_fixture.h"
#include "harness.h"
#include "ref_convert.h"
#include "mlp_run.h"
#include "module_check.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

#define VK_CHECK_OK(call)                                                         \
  do {                                                                            \
    if ((call) != SPVGEN_OK) {                                                    \
      test_fail_at(__FILE__, __LINE__, "%s: %s", #call, spvgen_vk_error(ctx));    \
      goto done;                                                                  \
    }                                                                             \
  } while (0)

static void run_case(spvgen_vk_context *ctx, spvgen_mlp_desc d, uint64_t points, const char *what) {
  d.variant = SPVGEN_MLP_LOOP;
  mlp_run_result r;
  char msg[512];
  mlp_run_options o = {0};
  o.seed = test_rand_u32() | 1u;
  o.points = points;
  spvgen_status st = mlp_run(ctx, &d, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s: %s", what, msg);
  if (st != SPVGEN_OK) return;
  CHECK_EQ_U64(r.checked, points * d.output_width);
  CHECK_MSG(r.bad == 0,
            "%s [%s]: %llu of %llu outputs wrong; first point %llu component %llu: gpu %.7g cpu "
            "%.7g tol %.3g",
            what, r.plan.name, (unsigned long long)r.bad, (unsigned long long)r.checked,
            (unsigned long long)r.first_bad_point, (unsigned long long)r.first_bad_component,
            r.first_bad_gpu, r.first_bad_ref, r.first_bad_tol);
  fprintf(stderr, "  %-48s %llu outputs, max |err| %.3g (tolerance there %.3g), worst err/tol %.3f\n",
          r.plan.name, (unsigned long long)r.checked, r.max_err, r.max_err_tol, r.worst_ratio);
}

static void test_loop_networks_match_cpu(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    uint32_t in, hidden, count, out;
    spvgen_mlp_activation act, out_act;
    spvgen_mlp_encoding enc;
    uint32_t enc_size;
    bool f32_io, no_bias;
  } nets[] = {
      {32, 64, 4, 16, SPVGEN_MLP_ACT_RELU, 0, 0, 0, false, false},
      {3, 17, 1, 1, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_SIGMOID, 0, 0, true, false},
      {3, 33, 3, 4, SPVGEN_MLP_ACT_SILU, 0, SPVGEN_MLP_ENCODING_FREQUENCY, 6, true, false},
      {2, 32, 2, 3, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_EXP, SPVGEN_MLP_ENCODING_ONE_BLOB, 16, false, false},
      {5, 7, 6, 9, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_TANH, 0, 0, false, true},
      {1, 0, 0, 5, 0, SPVGEN_MLP_ACT_EXP, 0, 0, true, false},
      {16, 64, 2, 16, SPVGEN_MLP_ACT_EXP, SPVGEN_MLP_ACT_RELU, 0, 0, false, true},
  };
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = nets[i].in;
    d.hidden_width = nets[i].hidden;
    d.hidden_count = nets[i].count;
    d.output_width = nets[i].out;
    d.activation = nets[i].act;
    d.output_activation = nets[i].out_act;
    d.encoding = nets[i].enc;
    d.encoding_size = nets[i].enc_size;
    d.no_bias = nets[i].no_bias;
    if (nets[i].f32_io) d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
    char what[32];
    snprintf(what, sizeof what, "net %zu", i);
    run_case(ctx, d, i == 0 ? 1000 : 333, what);
  }
  /* An explicit list of widths with per-layer activations. */
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 4;
  d.output_width = 2;
  d.hidden_widths[0] = 9;
  d.hidden_widths[1] = 24;
  d.hidden_widths[2] = 5;
  d.layer_activations[0] = SPVGEN_MLP_ACT_TANH;
  d.layer_activations[2] = SPVGEN_MLP_ACT_SILU;
  d.layer_activations[3] = SPVGEN_MLP_ACT_SIGMOID;
  run_case(ctx, d, 129, "widths list");
  spvgen_vk_destroy(ctx);
}

/* Networks wide enough that one-input inner loops would run past lavapipe's 65,535 loop
 * iterations per invocation (16-256x2-32: 78k; lavapipe ends every later loop early,
 * silently: 94 of 131,072 outputs right before the loop variant took several inputs per
 * iteration, emitters/mlp/loop.c). Two equal 256-wide layers, an odd width (the inputs
 * left over after the unrolled loop), a 256-wide layer between narrower ones, and three
 * 512-wide layers (several inputs per iteration in every layer), every output checked. */
static void test_loop_wide_networks_match_cpu(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    uint32_t in, widths[8], out;
    uint64_t points;
  } nets[] = {
      {16, {256, 256}, 32, 300},
      {16, {255, 255}, 32, 100},
      {16, {128, 256, 128}, 32, 100},
      {16, {512, 512, 512}, 16, 16},
  };
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = nets[i].in;
    d.output_width = nets[i].out;
    d.activation = SPVGEN_MLP_ACT_TANH; /* bounded: the 512-wide layers stay in range */
    memcpy(d.hidden_widths, nets[i].widths, sizeof nets[i].widths);
    char what[32];
    snprintf(what, sizeof what, "wide net %zu", i);
    run_case(ctx, d, nets[i].points, what);
  }
  spvgen_vk_destroy(ctx);
}

/* The hash grid (loop variant): 2-D and 3-D points, 1 to 8 features per level, dense,
 * wrapping and hashed levels, f16 and f32 points, and tiny-cuda-nn's default grid
 * (16 levels, 2^19 entries: the finest levels' f32 positions keep a few bits of
 * fraction, which the bound allows for). */
static void test_loop_hash_grid_matches_cpu(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    uint32_t in, levels, features, log2size, base;
    float scale;
    bool f32_io;
  } nets[] = {
      {3, 8, 2, 12, 4, 1.5f, false}, {2, 6, 1, 10, 8, 2.0f, true}, {3, 4, 4, 8, 2, 1.3f, true},
      {2, 3, 8, 16, 16, 1.9f, false}, {3, 0, 0, 0, 0, 0.0f, false},
  };
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = nets[i].in;
    d.hidden_width = 32;
    d.hidden_count = 2;
    d.output_width = 3;
    d.activation = SPVGEN_MLP_ACT_SILU;
    d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
    d.grid.levels = nets[i].levels;
    d.grid.features = nets[i].features;
    d.grid.log2_hashmap_size = nets[i].log2size;
    d.grid.base_resolution = nets[i].base;
    d.grid.per_level_scale = nets[i].scale;
    if (nets[i].f32_io) d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
    char what[32];
    snprintf(what, sizeof what, "grid %zu", i);
    run_case(ctx, d, 333, what);
  }
  spvgen_vk_destroy(ctx);
}

/* The check is able to fail: a correct output altered in one component by a little more
 * than the tolerance fails, and exactly the reference passes. */
static void test_check_fails_on_a_wrong_output(void) {
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 3;
  d.hidden_width = 16;
  d.hidden_count = 2;
  d.output_width = 2;
  d.output_type = SPVGEN_COMPONENT_F32;
  d.variant = SPVGEN_MLP_LOOP;
  spvgen_mlp_config p;
  CHECK(spvgen_mlp_plan(&d, NULL, &p, NULL, 0) == SPVGEN_OK);
  mlp_run_data data;
  CHECK(mlp_run_make_data(&p, 10, 7, &data));
  float out[20];
  double ref[2], err[2];
  for (uint64_t pt = 0; pt < 10; pt++) {
    mlp_reference(&p, &data, pt, ref, err);
    for (int c = 0; c < 2; c++) out[pt * 2 + c] = (float)ref[c];
    CHECK(err[0] > 0 && err[0] < 1e-3);
  }
  mlp_run_result r;
  memset(&r, 0, sizeof r);
  mlp_run_check(&p, &data, out, &r);
  CHECK_EQ_U64(r.checked, 20);
  CHECK_EQ_U64(r.bad, 0);
  out[7] += 1e-3f;
  mlp_run_check(&p, &data, out, &r);
  CHECK_EQ_U64(r.bad, 1);
  CHECK_EQ_U64(r.first_bad_point, 3);
  CHECK_EQ_U64(r.first_bad_component, 1);
  out[7] = NAN;
  mlp_run_check(&p, &data, out, &r);
  CHECK_EQ_U64(r.bad, 1);
  mlp_run_free_data(&data);
}

/* Float8 weights (planned for the h100 preset, no device): the host data puts every
 * matrix value on the float8 grid (normal: |w| >= 2^-6 E4M3 / 2^-14 E5M2; 3 / 2 mantissa
 * bits), the reference rounds each layer's input, so it differs from the f16 network's,
 * and its error bounds stay small (most roundings agree with the device's). */
static void test_float8_weights_data_and_reference(void) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset("h100", &caps) == SPVGEN_OK);
  for (int t = 0; t < 2; t++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = 32;
    d.hidden_width = 64;
    d.hidden_count = 4;
    d.output_width = 16;
    d.variant = SPVGEN_MLP_VEC;
    d.weight_layout = SPVGEN_MLP_WEIGHTS_OPTIMAL;
    d.weight_type = t ? SPVGEN_COMPONENT_E5M2 : SPVGEN_COMPONENT_E4M3;
    spvgen_mlp_config p, p16;
    char msg[256];
    CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
    d.weight_type = SPVGEN_COMPONENT_F16;
    CHECK(spvgen_mlp_plan(&d, &caps, &p16, NULL, 0) == SPVGEN_OK);
    mlp_run_data data;
    CHECK(mlp_run_make_data(&p, 64, 11, &data));
    int mbits = t ? 2 : 3;
    double min_normal = t ? ldexp(1, -14) : ldexp(1, -6);
    uint64_t off_grid = 0, n = 0;
    for (uint32_t l = 0; l < p.layer_count; l++)
      for (uint32_t i = 0; i < p.layers[l].outputs; i++)
        for (uint32_t j = 0; j < p.layers[l].inputs; j++) {
          uint16_t h;
          memcpy(&h, data.weights + p.layers[l].matrix_offset + (uint64_t)i * p.layers[l].row_stride + 2ull * j, 2);
          double w = sg_ref_f16_to_f32(h);
          double ulp = ldexp(1, ilogb(fabs(w)) - mbits);
          off_grid += fabs(w) < min_normal || w / ulp != floor(w / ulp);
          n++;
        }
    CHECK_EQ_U64(off_grid, 0);
    CHECK(n == 32 * 64 + 3 * 64 * 64 + 64 * 16);
    double ref[16], err[16], ref16[16], err16[16], diff = 0, maxerr = 0;
    for (uint64_t pt = 0; pt < 64; pt++) {
      mlp_reference(&p, &data, pt, ref, err);
      mlp_reference(&p16, &data, pt, ref16, err16);
      for (int c = 0; c < 16; c++) {
        diff = fmax(diff, fabs(ref[c] - ref16[c]));
        maxerr = fmax(maxerr, err[c]);
      }
    }
    CHECK_MSG(diff > 1e-3, "the float8 reference equals the f16 one (%g): inputs not rounded", diff);
    CHECK_MSG(maxerr < 0.5, "error bound %g", maxerr);
    mlp_run_free_data(&data);
  }
}

/* int8 weights (h100 preset, no device): the host data holds s8 rows within +-127 (each
 * row reaching 127 in magnitude), positive f32 scales, and a reference whose outputs are
 * not degenerate and whose error bounds (rounding flips) stay small. */
static void test_int8_weights_data_and_reference(void) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset("h100", &caps) == SPVGEN_OK);
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 32;
  d.hidden_width = 64;
  d.hidden_count = 4;
  d.output_width = 16;
  d.variant = SPVGEN_MLP_VEC;
  d.weight_type = SPVGEN_COMPONENT_S8;
  spvgen_mlp_config p;
  char msg[256];
  CHECK_MSG(spvgen_mlp_plan(&d, &caps, &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  mlp_run_data data;
  CHECK(mlp_run_make_data(&p, 256, 5, &data));
  for (uint32_t l = 0; l < p.layer_count; l++) {
    const spvgen_mlp_layer *L = &p.layers[l];
    for (uint32_t i = 0; i < L->outputs; i++) {
      int mx = 0;
      for (uint32_t j = 0; j < L->inputs; j++) {
        int8_t w = (int8_t)data.weights[L->matrix_offset + (uint64_t)i * L->row_stride + j];
        CHECK(w >= -127);
        mx = abs(w) > mx ? abs(w) : mx;
      }
      CHECK_EQ_U64(mx, 127);
      float os;
      memcpy(&os, data.weights + L->scale_offset + 4ull * ((L->inputs + 3) / 4 * 4) + 4ull * i, 4);
      CHECK(os > 0 && os < 1);
    }
  }
  /* A rounding that may flip widens the next layers' windows: the bound is loose for the
   * few points where one may (a flip in layer 0 has odds of about 1e-4 per input), tight
   * (f32 rounding only) elsewhere. */
  double ref[16], err[16], big = 0, maxerr = 0;
  uint64_t loose = 0;
  for (uint64_t pt = 0; pt < 256; pt++) {
    mlp_reference(&p, &data, pt, ref, err);
    for (int c = 0; c < 16; c++) {
      big = fmax(big, fabs(ref[c]));
      maxerr = fmax(maxerr, err[c]);
      loose += err[c] > 1e-4;
    }
  }
  CHECK_MSG(big > 0.05, "outputs up to %g", big);
  CHECK_MSG(loose * 20 < 256 * 16, "%llu of %u outputs with error bounds over 1e-4", (unsigned long long)loose, 256 * 16);
  printf("int8 reference: outputs up to %.3g, error bound up to %.3g, %llu of 4096 over 1e-4\n", big, maxerr,
         (unsigned long long)loose);
  mlp_run_free_data(&data);
}

/* A caller's kernel around spvgen_mlp_emit_function (loop variant): its own f32 point
 * buffer at binding 0 (input components, then output components, per point), the
 * weights at binding 3; run on the device and checked against the reference. */
static void test_function_shape_runs(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 2;
  d.output_width = 3;
  d.hidden_width = 17;
  d.hidden_count = 2;
  d.activation = SPVGEN_MLP_ACT_TANH;
  d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
  d.encoding_size = 3;
  d.input_type = SPVGEN_COMPONENT_F32;
  d.variant = SPVGEN_MLP_LOOP;
  spvgen_mlp_config p;
  char msg[512];
  CHECK_MSG(spvgen_mlp_plan(&d, spvgen_vk_caps(ctx), &p, msg, sizeof msg) == SPVGEN_OK, "%s", msg);
  enum { POINTS = 100, STRIDE = 5, LOCAL = 32 };
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  spvgen_buffer io = spvgen_buffer_declare(m, f32, 0, 0, 0);
  spvgen_buffer w = spvgen_buffer_declare(m, spvgen_type_float(m, 16), 0, 3, SPVGEN_BUFFER_READONLY);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, spvgen_type_vector(m, u32, 3));
  spvgen_mlp_function_info fi;
  memset(&fi, 0, sizeof fi);
  fi.weights_buffer = w.variable;
  CHECK(spvgen_mlp_emit_function(m, &p, &fi) == SPVGEN_OK);
  spvgen_compute_main(m, "main", LOCAL, 1, 1);
  uint32_t zero = 0;
  uint32_t i = spvgen_op_composite_extract(m, u32, spvgen_load(m, spvgen_type_vector(m, u32, 3), gid), &zero, 1);
  spvgen_if(m, spvgen_op_u_less_than(m, spvgen_type_bool(m), i, spvgen_const_u32(m, POINTS)));
  uint32_t base = spvgen_op_i_mul(m, u32, i, spvgen_const_u32(m, STRIDE));
  uint32_t parts[2];
  for (uint32_t c = 0; c < 2; c++)
    parts[c] = spvgen_load(m, f32, spvgen_buffer_element(m, &io, spvgen_op_i_add(m, u32, base, spvgen_const_u32(m, c))));
  uint32_t x = spvgen_op_composite_construct(m, fi.param_type, parts, 2);
  uint32_t y = spvgen_op_function_call(m, fi.return_type, fi.function, &x, 1);
  for (uint32_t c = 0; c < 3; c++)
    spvgen_store(m, spvgen_buffer_element(m, &io, spvgen_op_i_add(m, u32, base, spvgen_const_u32(m, 2 + c))),
                 spvgen_op_composite_extract(m, f32, y, &c, 1));
  spvgen_end_if(m);
  spvgen_function_end(m);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  spvgen_vk_pipeline *pipe = NULL;
  spvgen_vk_buffer *bufs[2] = {NULL, NULL};
  mlp_run_data data;
  memset(&data, 0, sizeof data);
  if (!words) goto done;
  CHECK(mlp_run_make_data(&p, POINTS, 11, &data));
  float host[POINTS * STRIDE];
  for (int k = 0; k < POINTS; k++) {
    for (int c = 0; c < 2; c++) host[k * STRIDE + c] = ((float *)data.input)[k * 2 + c];
    for (int c = 2; c < STRIDE; c++) host[k * STRIDE + c] = NAN;
  }
  VK_CHECK_OK(spvgen_vk_pipeline_create(ctx, words, count, NULL, NULL, &pipe));
  VK_CHECK_OK(spvgen_vk_buffer_create(ctx, sizeof host, 0, &bufs[0]));
  VK_CHECK_OK(spvgen_vk_buffer_create(ctx, p.weight_bytes, 0, &bufs[1]));
  VK_CHECK_OK(spvgen_vk_buffer_upload(ctx, bufs[0], 0, host, sizeof host));
  VK_CHECK_OK(spvgen_vk_buffer_upload(ctx, bufs[1], 0, data.weights, p.weight_bytes));
  VK_CHECK_OK(spvgen_vk_dispatch(ctx, pipe, bufs, 2, NULL, 0, (POINTS + LOCAL - 1) / LOCAL, 1, 1, NULL));
  VK_CHECK_OK(spvgen_vk_buffer_download(ctx, bufs[0], 0, host, sizeof host));
  float out[POINTS * 3];
  for (int k = 0; k < POINTS; k++)
    for (int c = 0; c < 3; c++) out[k * 3 + c] = host[k * STRIDE + 2 + c];
  d.output_type = SPVGEN_COMPONENT_F32; /* the caller's buffer is f32 */
  spvgen_mlp_config pc = p;
  pc.desc.output_type = SPVGEN_COMPONENT_F32;
  mlp_run_result r;
  memset(&r, 0, sizeof r);
  mlp_run_check(&pc, &data, out, &r);
  CHECK_EQ_U64(r.checked, POINTS * 3);
  CHECK_MSG(r.bad == 0, "%llu wrong; first point %llu: gpu %g cpu %g", (unsigned long long)r.bad,
            (unsigned long long)r.first_bad_point, r.first_bad_gpu, r.first_bad_ref);
done:
  for (int k = 0; k < 2; k++) spvgen_vk_buffer_destroy(bufs[k]);
  spvgen_vk_pipeline_destroy(pipe);
  mlp_run_free_data(&data);
  spvgen_module_destroy(m);
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_loop_networks_match_cpu),
      TEST_CASE(test_loop_wide_networks_match_cpu),
      TEST_CASE(test_loop_hash_grid_matches_cpu),
      TEST_CASE(test_check_fails_on_a_wrong_output),
      TEST_CASE(test_float8_weights_data_and_reference),
      TEST_CASE(test_int8_weights_data_and_reference),
      TEST_CASE(test_function_shape_runs),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
