/* tests/mlp/test_mlp_mat_train_grid_emulated.c — the hash grid trained on the mat variant
 * (spvgen/mlp.h, "training", SPVGEN_MLP_ENCODING_HASH_GRID; emitters/mlp/mat.c and
 * grid.c) on the CI device, through the emulation of the cooperative matrix instructions
 * (tests/support/mat_train_emulated.c: three steps, every weight, bias and table
 * gradient, the loss and every optimizer value against the float64 reference; the f16
 * table gradient at the bound of lib/ref/ref_mlp_train.h).
 *
 * Every form of the grid's (point, level) pairs (desc.grid_spread: the level loop, the
 * flat pairs by level and by point), each with 2-D and 3-D points, 1, 2, 4 and 8 features
 * per level, level counts that do and do not divide the pairs among the invocations,
 * tables where every level past the first few is hashed, and the three ways the table's
 * gradient is added (f32 float atomics, f32 compare-exchange loops, f16 pairs by
 * compare-exchange loops). Workgroups of 1 to 4 subgroups against chunks of 16 points:
 * with lavapipe's 8-wide subgroups, more invocations than points (the flat form's reason)
 * and fewer. Point counts leave the last chunk partial. */
#include "gpu_fixture.h"
#include "harness.h"
#include "mat_train_emulated.h"
#include "spvgen/mlp.h"
#include "spvgen/vk.h"

typedef struct grid_case {
  uint32_t in, subgroups, points;
  spvgen_mlp_hash_grid grid; /* levels, features, log2 table size, base resolution, scale */
  mat_train_grid_options go;
} grid_case;

static void run_cases(const grid_case *cases, size_t n) {
  spvgen_vk_context *ctx = vk_open(0);
  if (!ctx) return;
  for (size_t i = 0; i < n && !test_current_failed; i++) {
    const grid_case *g = &cases[i];
    /* one hidden layer of 16, tanh (no kink for the f16 features' error to flip) */
    mat_train_case c = {g->in, 16, 1, 3, SPVGEN_MLP_ACT_TANH, SPVGEN_MLP_ACT_NONE, SPVGEN_MLP_ENCODING_HASH_GRID, 0,
                        true, false, SPVGEN_MLP_LOSS_L2, SPVGEN_MLP_OPTIMIZER_ADAM, 0, g->subgroups, g->points,
                        g->grid, 0, false, 0, 0};
    mat_train_emulated_run_grid(ctx, &c, &g->go);
  }
  spvgen_vk_destroy(ctx);
}

/* The flat pairs by level (the default: AUTO must resolve to it). */
static void test_mat_train_grid_flat_emulated(void) {
  static const grid_case cases[] = {
      /* 3-D, 1 feature, 5 levels: 80 pairs on 32 invocations (2.5 passes) */
      {3, 4, 77, {5, 1, 8, 4, 1.6f}, {SPVGEN_MLP_GRID_SPREAD_AUTO, MT_ATOMICS_DEVICE, 0}},
      /* 2-D, 2 features, 7 levels, f16 pairs at a scale of 4096, 16 invocations */
      {2, 2, 61, {7, 2, 7, 3, 1.7f}, {SPVGEN_MLP_GRID_SPREAD_FLAT, MT_ATOMICS_F16_PAIRS, 4096}},
      /* 3-D, 4 features, f32 compare-exchange, 24 invocations (3 subgroups) */
      {3, 3, 50, {3, 4, 9, 4, 2.0f}, {SPVGEN_MLP_GRID_SPREAD_FLAT, MT_ATOMICS_CAS, 0}},
      /* 2-D, 8 features (two f16 4-vectors a corner, as pairs), 8 invocations */
      {2, 1, 40, {4, 8, 6, 2, 1.5f}, {SPVGEN_MLP_GRID_SPREAD_FLAT, MT_ATOMICS_F16_PAIRS, 0}},
  };
  run_cases(cases, sizeof cases / sizeof cases[0]);
}

/* The flat pairs by point. */
static void test_mat_train_grid_flat_by_point_emulated(void) {
  static const grid_case cases[] = {
      {2, 3, 45, {5, 4, 6, 4, 2.0f}, {SPVGEN_MLP_GRID_SPREAD_FLAT_BY_POINT, MT_ATOMICS_CAS, 0}},
      {3, 4, 70, {6, 2, 9, 4, 1.5f}, {SPVGEN_MLP_GRID_SPREAD_FLAT_BY_POINT, MT_ATOMICS_F16_PAIRS, 0}},
      {3, 1, 33, {3, 8, 10, 2, 2.0f}, {SPVGEN_MLP_GRID_SPREAD_FLAT_BY_POINT, MT_ATOMICS_DEVICE, 0}},
  };
  run_cases(cases, sizeof cases / sizeof cases[0]);
}

/* The level loop (the form before the pairs). */
static void test_mat_train_grid_level_loop_emulated(void) {
  static const grid_case cases[] = {
      {2, 4, 52, {3, 1, 7, 4, 2.0f}, {SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP, MT_ATOMICS_CAS, 0}},
      {3, 2, 39, {4, 8, 10, 2, 1.5f}, {SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP, MT_ATOMICS_F16_PAIRS, 0}},
      {2, 1, 29, {5, 2, 8, 4, 1.8f}, {SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP, MT_ATOMICS_DEVICE, 0}},
  };
  run_cases(cases, sizeof cases / sizeof cases[0]);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_mat_train_grid_flat_emulated),
      TEST_CASE(test_mat_train_grid_flat_by_point_emulated),
      TEST_CASE(test_mat_train_grid_level_loop_emulated),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
