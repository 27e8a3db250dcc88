/* tests/mlp/test_mlp_mat_emulated.c — the mat variant's kernel logic on the CI device
 * (lavapipe, which has no cooperative matrices): a mat plan made for the device's caps
 * with a 16x16x16 f16 cooperative matrix entry added, whose cooperativeMatrix feature
 * bit is then cleared, which makes emitters/mlp/mat.c emulate each fragment operation in
 * plain SPIR-V (element-wise loads and stores at the positions the KHR layouts define,
 * MulAdds through shared memory). Everything else — the workgroup blocks, the output
 * fragments per subgroup, the weight staging and zero padding of layers that are not
 * 16-multiples (the weight buffer's padding holds 1000.0), the biases, the in-place
 * activation block and its barriers, the encodings, the direct and the staged output
 * paths, partial last blocks — is the code the H100 runs. Every output component of
 * every point is checked against the float64 reference of tools/common/mlp_run.c with
 * the mat tolerance (mlp_run.h: f16 between layers, 2^-9 accumulation; f16 accumulators
 * (inputs + 1) 2^-11), and the worst error must stay under a quarter of it.
 * tests/gpu/test_gpu_mlp.c runs the real instructions on the H100. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coopmat_emulated.h"
#include "gpu_fixture.h"
#include "harness.h"
#include "mlp_run.h"
#include "module_check.h"
#include "mlp_net.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

static void run_case(spvgen_vk_context *ctx, spvgen_mlp_desc d, uint64_t points) {
  spvgen_device_caps caps = coopmat_emulated_caps(spvgen_vk_caps(ctx), true);
  d.variant = SPVGEN_MLP_MAT;
  spvgen_mlp_config plan;
  char msg[512];
  spvgen_status st = spvgen_mlp_plan(&d, &caps, &plan, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s", msg);
  if (st != SPVGEN_OK) return;
  plan.features &= ~SPVGEN_FEATURE_COOPMAT; /* the emulation */
  mlp_run_options o;
  memset(&o, 0, sizeof o);
  o.seed = test_rand_u32() | 1u;
  o.points = points;
  mlp_run_result r;
  st = mlp_run_plan(ctx, &plan, &o, &r, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "[%s]: %s", plan.name, msg);
  if (st != SPVGEN_OK) return;
  CHECK_EQ_U64(r.checked, points * d.output_width);
  CHECK_MSG(r.bad == 0,
            "[%s] %llu points: %llu of %llu outputs wrong; first point %llu component %llu: gpu "
            "%.7g cpu %.7g tol %.3g", plan.name, (unsigned long long)points, (unsigned long long)r.bad,
            (unsigned long long)r.checked, (unsigned long long)r.first_bad_point,
            (unsigned long long)r.first_bad_component, r.first_bad_gpu, r.first_bad_ref, r.first_bad_tol);
  /* The bound is a worst case; the emulation rounds where the kernel does, and its
   * errors stay near 1% of it (0.000 - 0.012 seen). A bug that moves outputs (a
   * dropped bias made 27 of 600 outputs fail, worst ratio 1.25) shows well before. */
  CHECK_MSG(r.worst_ratio <= 0.25, "[%s]: worst |err| / tolerance %.3f, expected <= 0.25", plan.name,
            r.worst_ratio);
  /* The bound allows the tensor units 2^-9 of each sum's magnitudes a layer (tolerances
   * 0.02 - 0.17 here; the worst case alone, before the statistical bound, 6 and more for
   * 32-64x4-16); the outputs are O(1) and the emulation's errors stay under 1e-3 (f16
   * rounding between layers): an absolute 0.01 catches what the bound lets through. */
  CHECK_MSG(r.max_err <= 0.01, "[%s]: max |err| %.3g, expected <= 0.01", plan.name, r.max_err);
  fprintf(stderr, "  %-52s %6llu points, max |err| %.3g (tolerance there %.3g), worst err/tol %.3f\n",
          plan.name, (unsigned long long)points, r.max_err, r.max_err_tol, r.worst_ratio);
}

/* The network (a), smaller blocks (lavapipe's 32 KiB of shared memory with the
 * emulation's scratch): direct output fragments, 16-byte input loads, partial blocks. */
static void test_mat_anchor_network_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  spvgen_mlp_desc d;
  memset(&d, 0, sizeof d);
  d.input_width = 32;
  d.hidden_width = 64;
  d.hidden_count = 4;
  d.output_width = 16;
  d.points_per_group = 32;
  run_case(ctx, d, 100);  /* 3 full blocks and a partial one */
  d.output_type = SPVGEN_COMPONENT_F32; /* (blocks of 16: lavapipe compiles the emulation slowly) */
  d.points_per_group = 16;
  d.f16_accumulation = true;
  run_case(ctx, d, 57);
  spvgen_vk_destroy(ctx);
}

/* Odd widths (staged, zero-padded weights; a guard where the output fragments do not
 * divide among the subgroups), encodings, f32 points, no bias, every activation. */
static void test_mat_odd_networks_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    uint32_t in, width, count, out;
    spvgen_mlp_activation act, out_act;
    spvgen_mlp_encoding enc;
    uint32_t enc_size;
    bool f32_io, no_bias;
    uint32_t wg_subgroups, ppg;
  } cases[] = {
      {8, 64, 3, 8, SPVGEN_MLP_ACT_RELU, 0, 0, 0, false, false, 0, 16},            /* network (b) */
      {3, 33, 3, 4, SPVGEN_MLP_ACT_SILU, 0, SPVGEN_MLP_ENCODING_FREQUENCY, 6, true, false, 0, 16},
      {2, 17, 2, 3, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ENCODING_ONE_BLOB, 16, false, false, 0, 32},
      {5, 48, 2, 20, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_EXP, 0, 0, false, true, 2, 16}, /* 3 fragments on 2 subgroups */
      {1, 16, 1, 1, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_NONE, 0, 0, true, false, 0, 16},
      {16, 16, 0, 32, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_RELU, 0, 0, false, false, 1, 16},  /* one layer, direct output */
      /* 256 wide: 16 output fragments on 8 subgroups, one layer's biases at a time */
      {3, 256, 2, 16, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_NONE, 0, 0, false, false, 0, 16},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) {
    spvgen_mlp_desc d = test_mlp_net(cases[i].in, cases[i].width, cases[i].count, cases[i].out, cases[i].act);
    d.output_activation = cases[i].out_act;
    d.encoding = cases[i].enc;
    d.encoding_size = cases[i].enc_size;
    d.no_bias = cases[i].no_bias;
    if (cases[i].f32_io) d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
    d.workgroup_size = cases[i].wg_subgroups * spvgen_vk_caps(ctx)->subgroup_size;
    d.points_per_group = cases[i].ppg;
    run_case(ctx, d, 75);
  }
  spvgen_vk_destroy(ctx);
}

/* output_path staged: the last layer through the activation block, the block written in
 * 16-byte chunks (eight f16 outputs of a point each), full and partial blocks, 64 outputs
 * (four fragments, which the direct path would store as fragments) and 24 (one and a half
 * fragments: no direct path), one and two subgroups. */
static void test_mat_output_staged_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    uint32_t in, width, count, out, wg_subgroups, ppg;
    uint64_t points;
  } cases[] = {
      {1, 16, 2, 64, 1, 16, 75},
      {3, 32, 1, 24, 2, 32, 100},
      {8, 16, 1, 64, 2, 32, 64}, /* two full blocks */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) {
    spvgen_mlp_desc d =
        test_mlp_net(cases[i].in, cases[i].width, cases[i].count, cases[i].out, SPVGEN_MLP_ACT_SIGMOID);
    d.output_path = SPVGEN_MLP_OUTPUT_STAGED;
    d.workgroup_size = cases[i].wg_subgroups * spvgen_vk_caps(ctx)->subgroup_size;
    d.points_per_group = cases[i].ppg;
    run_case(ctx, d, cases[i].points);
  }
  spvgen_vk_destroy(ctx);
}

/* The hash grid staged level by level into the activation block (dense and hashed
 * levels, 2-D and 3-D points, 1 / 2 / 4 features), the first layer 16-multiple or not. */
static void test_mat_hash_grid_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    uint32_t in, levels, features, log2size, base;
    float scale;
    uint32_t width, out;
  } cases[] = {
      {3, 8, 2, 12, 4, 1.5f, 32, 4},  /* 16 inputs: direct B fragments */
      {2, 5, 4, 10, 8, 1.7f, 16, 3},  /* 20 inputs: staged first layer */
      {3, 3, 1, 6, 2, 2.0f, 16, 16},  /* 3 inputs (padded to 16), every level hashed past the first */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = cases[i].in;
    d.hidden_width = cases[i].width;
    d.hidden_count = 2;
    d.output_width = cases[i].out;
    d.encoding = SPVGEN_MLP_ENCODING_HASH_GRID;
    d.grid.levels = cases[i].levels;
    d.grid.features = cases[i].features;
    d.grid.log2_hashmap_size = cases[i].log2size;
    d.grid.base_resolution = cases[i].base;
    d.grid.per_level_scale = cases[i].scale;
    d.input_type = i == 1 ? SPVGEN_COMPONENT_F32 : SPVGEN_COMPONENT_F16;
    d.points_per_group = 16;
    run_case(ctx, d, 75);
  }
  spvgen_vk_destroy(ctx);
}

/* The rows arrangement (desc.mat_rows): each subgroup its own point fragments and every
 * output fragment, no workgroup barrier between layers; direct and staged outputs, staged
 * (odd) layers, an encoding, f32 points, no bias, one and two fragments per subgroup. */
static void test_mat_rows_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    uint32_t in, width, count, out;
    spvgen_mlp_activation act;
    spvgen_mlp_encoding enc;
    uint32_t enc_size, subgroups, ppg;
    bool f32_io, no_bias;
  } cases[] = {
      {16, 32, 2, 16, SPVGEN_MLP_ACT_RELU, 0, 0, 2, 32, false, false},                /* direct output */
      {3, 33, 3, 4, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ENCODING_FREQUENCY, 6, 2, 64, true, false}, /* 2 fragments each */
      {5, 48, 2, 20, SPVGEN_MLP_ACT_LEAKY_RELU, 0, 0, 1, 16, false, true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) {
    spvgen_mlp_desc d;
    memset(&d, 0, sizeof d);
    d.input_width = cases[i].in;
    d.hidden_width = cases[i].width;
    d.hidden_count = cases[i].count;
    d.output_width = cases[i].out;
    d.activation = cases[i].act;
    d.encoding = cases[i].enc;
    d.encoding_size = cases[i].enc_size;
    d.no_bias = cases[i].no_bias;
    if (cases[i].f32_io) d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
    d.workgroup_size = cases[i].subgroups * spvgen_vk_caps(ctx)->subgroup_size;
    d.points_per_group = cases[i].ppg;
    d.mat_rows = true;
    run_case(ctx, d, 75);
  }
  spvgen_vk_destroy(ctx);
}

/* The streamed form (desc.mat_slab): 256 wide at depths 1 and 2, 128 and 112 wide at
 * depths 1 to 5, 32 wide at depth 8; slabs of 16, 32 and 64 inputs (layers whose K is
 * not a whole number of slabs: zero A padding, 48 and 112 wide), one and two point
 * fragments per subgroup, odd input and output widths (staged inputs, the tile output
 * path), f16 points in chunks and f32 points, an encoding, no bias, f16 accumulators,
 * every activation; point counts that end in a partial block. Workgroups of 32
 * invocations whatever lavapipe's subgroup size: a 256-wide slab of 16 inputs is 512
 * chunks, 16 per invocation, and two slab buffers (24 KiB), the biases and the
 * emulation's scratch fit lavapipe's 32 KiB of shared memory. Deeper 256-wide networks
 * run on the GPU only (tests/gpu/test_gpu_mlp.c): here a subgroup makes every emulated
 * MulAdd of its rows (about 100 loop passes each), and past llvmpipe's 65,535 loop
 * passes per invocation its loops stop early, silently (docs/design-notes.md). */
static void test_mat_stream_emulated(void) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  static const struct {
    uint32_t in, width, count, out;
    spvgen_mlp_activation act, out_act;
    uint32_t slab, rs;
    bool f32_io, no_bias, acc16, freq;
    uint32_t points;
  } cases[] = {
      {64, 256, 1, 64, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_NONE, 16, 1, false, false, false, false, 75},
      {32, 128, 1, 16, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_SIGMOID, 16, 2, false, false, false, false, 41},
      {5, 256, 2, 3, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE, 16, 1, true, false, false, false, 70},
      {3, 32, 8, 7, SPVGEN_MLP_ACT_LEAKY_RELU, SPVGEN_MLP_ACT_EXP, 16, 1, false, true, false, false, 33},
      {16, 128, 3, 3, SPVGEN_MLP_ACT_SILU, SPVGEN_MLP_ACT_NONE, 32, 1, false, false, false, false, 100},
      {24, 48, 2, 20, SPVGEN_MLP_ACT_SIGMOID, SPVGEN_MLP_ACT_TANH, 32, 2, false, false, true, false, 130},
      {3, 64, 4, 16, SPVGEN_MLP_ACT_RELU, SPVGEN_MLP_ACT_RELU, 64, 1, true, false, false, true, 64},
      {17, 112, 5, 33, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_NONE, 32, 1, false, false, false, false, 50},
  };
  const uint32_t sg = spvgen_vk_caps(ctx)->subgroup_size;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !test_current_failed; i++) {
    spvgen_mlp_desc d = test_mlp_net(cases[i].in, cases[i].width, cases[i].count, cases[i].out, cases[i].act);
    d.output_activation = cases[i].out_act;
    d.no_bias = cases[i].no_bias;
    d.f16_accumulation = cases[i].acc16;
    if (cases[i].freq) {
      d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
      d.encoding_size = 4;
    }
    if (cases[i].f32_io) d.input_type = d.output_type = SPVGEN_COMPONENT_F32;
    d.workgroup_size = sg < 32 ? 32 : sg;
    d.points_per_group = 16 * (d.workgroup_size / sg) * cases[i].rs;
    d.mat_slab = cases[i].slab;
    run_case(ctx, d, cases[i].points);
  }
  spvgen_vk_destroy(ctx);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mat_rows_emulated),
      TEST_CASE(test_mat_anchor_network_emulated),
      TEST_CASE(test_mat_odd_networks_emulated),
      TEST_CASE(test_mat_hash_grid_emulated),
      TEST_CASE(test_mat_stream_emulated),
      TEST_CASE(test_mat_output_staged_emulated),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
