/* tests/limits/test_limits.c — the documented maximums (docs/limits.md) at their
 * boundaries: the largest accepted request plans, emits and validates (and its dispatch
 * grid fits the device's maxComputeWorkGroupCount), one more is refused with a message
 * naming the field and the limit. GEMM (SPVGEN_GEMM_MAX_DIM, SPVGEN_GEMM_MAX_BATCH,
 * SPVGEN_GEMM_MAX_INDEX), MLP (SPVGEN_MLP_MAX_WIDTH, SPVGEN_MLP_MAX_LAYERS, encoded
 * width, SPVGEN_MLP_MAX_POINTS). The builder's limits (id bound 0x3FFFFF, 65535-word
 * instructions, sizes past 2^64) are tested in tests/core/test_limits.c. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/gemm.h"
#include "spvgen/mlp.h"

static const char *const presets[] = {"h100", "vulkan13", "lavapipe"};

static void gemm_desc(spvgen_gemm_desc *d, uint32_t m, uint32_t n, uint32_t k, uint32_t batch) {
  memset(d, 0, sizeof *d);
  d->m = m;
  d->n = n;
  d->k = k;
  d->batch = batch;
  d->acc_type = d->out_type = SPVGEN_COMPONENT_F32;
}

/* Plans desc on the presets whose bit is in `which` (1 h100, 2 vulkan13, 4 lavapipe);
 * each plan's grid fits the device and its module validates. */
static void expect_gemm_ok_on(const spvgen_gemm_desc *d, const char *what, int which) {
  for (int p = 0; p < 3; p++) {
    if (!(which >> p & 1)) continue;
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    spvgen_gemm_config plan;
    char msg[512];
    spvgen_status st = spvgen_gemm_plan(d, &caps, &plan, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s on %s refused: %s", what, presets[p], msg);
    if (st != SPVGEN_OK) continue;
    for (int i = 0; i < 3; i++)
      CHECK_MSG(plan.groups[i] >= 1 && plan.groups[i] <= caps.max_workgroup_count[i],
                "%s on %s: groups[%d] = %u, the device allows %u", what, presets[p], i, plan.groups[i],
                caps.max_workgroup_count[i]);
    spvgen_module *m = spvgen_module_create(NULL);
    spvgen_kernel_info info;
    CHECK_MSG(spvgen_gemm_emit(m, &plan, &info) == SPVGEN_OK, "%s: %s", what, spvgen_module_error(m));
    check_module(m, NULL);
    spvgen_module_destroy(m);
  }
}

static void expect_gemm_ok(const spvgen_gemm_desc *d, const char *what) { expect_gemm_ok_on(d, what, 7); }

static void expect_gemm_refused_on(const spvgen_gemm_desc *d, const char *text, const char *preset) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset(preset, &caps) == SPVGEN_OK);
  spvgen_gemm_config plan;
  char msg[512];
  spvgen_status st = spvgen_gemm_plan(d, &caps, &plan, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_ERROR_UNSUPPORTED, "expected a refusal containing '%s', got %s: %s", text,
            spvgen_status_name(st), msg);
  CHECK_CONTAINS(msg, text);
  uint32_t n = 9;
  CHECK(spvgen_gemm_plans(d, &caps, NULL, 0, &n, msg, sizeof msg) == SPVGEN_ERROR_UNSUPPORTED);
  CHECK_EQ_U64(n, 0);
}

static void expect_gemm_refused(const spvgen_gemm_desc *d, const char *text) {
  expect_gemm_refused_on(d, text, "h100");
}

static void test_gemm_dimensions_stop_at_2_to_the_24(void) {
  spvgen_gemm_desc d;
  /* The largest of each dimension (the others small enough for 32-bit indices). The
   * grid must also fit the device: ceil(n / tile_n) in dimension 0, whose limit is 65535
   * on the vulkan13 and lavapipe presets, so there a 2^24 N is refused naming the grid.
   * M's tiles past 65535 fold into dimension 0 (spvgen/gemm.h, "Limits"): a 2^24 M
   * plans everywhere. */
  gemm_desc(&d, 16, SPVGEN_GEMM_MAX_DIM, 16, 1);
  expect_gemm_ok_on(&d, "n = 2^24", 1);
  expect_gemm_refused_on(&d, "262144 workgroups in dimension 0 exceed", "vulkan13");
  expect_gemm_refused_on(&d, "262144 workgroups in dimension 0 exceed", "lavapipe");
  gemm_desc(&d, SPVGEN_GEMM_MAX_DIM, 16, 16, 1);
  expect_gemm_ok(&d, "m = 2^24 (M tiles folded into dimension 0)");
  gemm_desc(&d, 65535u * 16, 16, 16, 1); /* the largest M a 16-row tile covers everywhere */
  d.tile_m = d.tile_n = 16;
  d.variant = SPVGEN_GEMM_SIMT;
  expect_gemm_ok(&d, "m = 65535 x 16");
  gemm_desc(&d, 16, 16, SPVGEN_GEMM_MAX_DIM, 1);
  expect_gemm_ok(&d, "k = 2^24");
  gemm_desc(&d, SPVGEN_GEMM_MAX_DIM + 1, 16, 16, 1);
  expect_gemm_refused(&d, "each dimension must be at most 2^24");
  gemm_desc(&d, 16, SPVGEN_GEMM_MAX_DIM + 1, 16, 1);
  expect_gemm_refused(&d, "m=16 n=16777217 k=16");
  gemm_desc(&d, 16, 16, 0xFFFFFFFFu, 1);
  expect_gemm_refused(&d, "k=4294967295");
}

static void test_gemm_batch_stops_at_65535(void) {
  spvgen_gemm_desc d;
  gemm_desc(&d, 16, 16, 16, SPVGEN_GEMM_MAX_BATCH);
  expect_gemm_ok(&d, "batch 65535");
  gemm_desc(&d, 16, 16, 16, SPVGEN_GEMM_MAX_BATCH + 1);
  expect_gemm_refused(&d, "batch 65536 is over 65535");
  gemm_desc(&d, 16, 16, 16, 0xFFFFFFFFu);
  expect_gemm_refused(&d, "batch 4294967295");
}

static void test_gemm_indices_stop_at_2_to_the_32_minus_1(void) {
  spvgen_gemm_desc d;
  /* A is 65536 x 65536: its last element is 2^32 - 1 exactly. */
  gemm_desc(&d, 65536, 16, 65536, 1);
  expect_gemm_ok(&d, "A of 2^32 elements");
  gemm_desc(&d, 65536, 16, 65536, 1);
  d.lda = 65537; /* one more */
  expect_gemm_refused(&d, "a reaches element 4295032830: indices past 2^32 - 1");
  /* Batches: the last batch's last element, through the stride. */
  gemm_desc(&d, 16, 16, 16, 3);
  d.stride_b = (SPVGEN_GEMM_MAX_INDEX - 255) / 2; /* b's last element: 2 * stride + 255 */
  expect_gemm_ok(&d, "stride_b at the limit");
  d.stride_b++;
  expect_gemm_refused(&d, "b reaches element 4294967297");
  /* A 64-bit stride far past it, where 32-bit arithmetic would wrap to a small value. */
  d.stride_b = (1ull << 63) + 16;
  expect_gemm_refused(&d, "stride_b 9223372036854775824: b reaches past element 2^32 - 1");
}

/* ---------------------------------------------------------------------- MLP ---- */

static void mlp_desc(spvgen_mlp_desc *d, uint32_t in, uint32_t width, uint32_t layers, uint32_t out) {
  memset(d, 0, sizeof *d);
  d->input_width = in;
  d->output_width = out;
  d->hidden_count = layers;
  d->hidden_width = width;
}

static void expect_mlp_ok(const spvgen_mlp_desc *d, const char *what) {
  for (int p = 0; p < 3; p++) {
    spvgen_device_caps caps;
    CHECK(spvgen_caps_preset(presets[p], &caps) == SPVGEN_OK);
    spvgen_mlp_config plan;
    char msg[512];
    spvgen_status st = spvgen_mlp_plan(d, &caps, &plan, msg, sizeof msg);
    CHECK_MSG(st == SPVGEN_OK, "%s on %s refused: %s", what, presets[p], msg);
    if (st != SPVGEN_OK) continue;
    /* every kernel of the plan (a layers plan has one per layer: the model may take it
     * for wide networks far from the measured ones) */
    const uint32_t kernels = spvgen_mlp_kernel_count(&plan);
    CHECK_MSG(kernels >= 1, "%s: %u kernels", what, kernels);
    for (uint32_t k = 0; k < kernels; k++) {
      spvgen_module *m = spvgen_module_create(NULL);
      spvgen_kernel_info info;
      CHECK_MSG(spvgen_mlp_emit_kernel(m, &plan, k, &info) == SPVGEN_OK, "%s kernel %u: %s", what, k,
                spvgen_module_error(m));
      check_module(m, NULL);
      spvgen_module_destroy(m);
    }
  }
}

static void expect_mlp_refused(const spvgen_mlp_desc *d, const char *text) {
  spvgen_mlp_config plan;
  char msg[512];
  spvgen_status st = spvgen_mlp_plan(d, NULL, &plan, msg, sizeof msg);
  CHECK_MSG(st != SPVGEN_OK, "expected a refusal containing '%s'", text);
  CHECK_CONTAINS(msg, text);
}

static void test_mlp_widths_stop_at_512(void) {
  spvgen_mlp_desc d;
  mlp_desc(&d, SPVGEN_MLP_MAX_WIDTH, SPVGEN_MLP_MAX_WIDTH, 1, SPVGEN_MLP_MAX_WIDTH);
  expect_mlp_ok(&d, "512 wide");
  mlp_desc(&d, SPVGEN_MLP_MAX_WIDTH + 1, 16, 1, 1);
  expect_mlp_refused(&d, "input_width 513 / output_width 1: at most 512");
  mlp_desc(&d, 1, 16, 1, SPVGEN_MLP_MAX_WIDTH + 1);
  expect_mlp_refused(&d, "output_width 513: at most 512");
  mlp_desc(&d, 1, SPVGEN_MLP_MAX_WIDTH + 1, 1, 1);
  expect_mlp_refused(&d, "hidden_widths[0] 513: at most 512");
  mlp_desc(&d, 1, 0xFFFFFFFFu, 1, 1);
  expect_mlp_refused(&d, "hidden_widths[0] 4294967295: at most 512");
  /* The encoded input: 32 components x 2 x 8 octaves = 512; 33 make 528. */
  mlp_desc(&d, 32, 16, 1, 1);
  d.encoding = SPVGEN_MLP_ENCODING_FREQUENCY;
  d.encoding_size = 8;
  expect_mlp_ok(&d, "an encoded input of 512");
  d.input_width = 33;
  expect_mlp_refused(&d, "is 528 wide: at most 512");
  /* A width x encoding product that would wrap 32 bits. */
  mlp_desc(&d, 512, 16, 1, 1);
  d.encoding = SPVGEN_MLP_ENCODING_ONE_BLOB;
  d.encoding_size = 128;
  expect_mlp_refused(&d, "is 65536 wide: at most 512");
}

static void test_mlp_layers_stop_at_16(void) {
  spvgen_mlp_desc d;
  mlp_desc(&d, 3, 16, SPVGEN_MLP_MAX_LAYERS - 1, 4);
  expect_mlp_ok(&d, "15 hidden layers");
  mlp_desc(&d, 3, 16, SPVGEN_MLP_MAX_LAYERS, 4);
  expect_mlp_refused(&d, "hidden_count 16: at most 15 hidden layers");
  mlp_desc(&d, 3, 16, 0xFFFFFFFFu, 4);
  expect_mlp_refused(&d, "hidden_count 4294967295");
}

static void test_mlp_points_fit_a_uint32_and_the_grid(void) {
  spvgen_mlp_desc d;
  mlp_desc(&d, 3, 16, 1, 4);
  spvgen_mlp_config plan;
  char msg[512];
  CHECK(spvgen_mlp_plan(&d, NULL, &plan, msg, sizeof msg) == SPVGEN_OK);
  uint32_t g[3];
  spvgen_mlp_groups(&plan, SPVGEN_MLP_MAX_POINTS, g);
  uint64_t per = plan.points_per_workgroup;
  CHECK_EQ_U64(g[0], (SPVGEN_MLP_MAX_POINTS + per - 1) / per);
  CHECK(g[1] == 1 && g[2] == 1);
  /* Past the push constant's range the grid saturates (the runner refuses it against
   * maxComputeWorkGroupCount, and mlp_run refuses the count itself). */
  spvgen_mlp_groups(&plan, 1ull << 62, g);
  CHECK_EQ_U64(g[0], 0xFFFFFFFFu);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_gemm_dimensions_stop_at_2_to_the_24),
      TEST_CASE(test_gemm_batch_stops_at_65535),
      TEST_CASE(test_gemm_indices_stop_at_2_to_the_32_minus_1),
      TEST_CASE(test_mlp_widths_stop_at_512),
      TEST_CASE(test_mlp_layers_stop_at_16),
      TEST_CASE(test_mlp_points_fit_a_uint32_and_the_grid),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
