/* emitters/mlp/select_table.c — the measurements behind the MLP's variant choice
 * (select.h). Written by tools/gen_mlp_select.py from a grid benchmark's TSV
 * (bench/mlp_grid.c, scripts/gpu-mlp.sh); until the first grid run on the H100 it holds
 * the two networks of bench/results/mlp-h100-2026-11-23c.md and mlp-h100-2026-11-26.md
 * (G points/s of each class's best plan: vec row-major 3.9 / 6.5, vec optimal 15.1 /
 * 26.9, mat 2.52 / 3.18, loop 0.274 / 0.487) and a model through their TFLOP/s. */
#include "select.h"

static const mlp_select_entry h100_entries[] = {
    /* 32-64x4-16 relu */
    {32, 64, 4, 16, 0, 0, {{3.9f, 32, 1, 0, 0, 0, 0, 0, 0}, {15.1f, 32, 1, 0, 0, 0, 0, 0, 0}, {2.52f, 128, 128, 0, 0, 0, 0, 0, 0}, {0.274f, 64, 1, 0, 0, 0, 0, 0, 0}}},
    /* 8-64x3-8 relu */
    {8, 64, 3, 8, 0, 0, {{6.5f, 32, 1, 0, 0, 0, 0, 0, 0}, {26.9f, 64, 1, 0, 0, 0, 0, 0, 0}, {3.18f, 128, 128, 0, 0, 0, 0, 0, 0}, {0.487f, 64, 1, 0, 0, 0, 0, 0, 0}}},
};

/* ns per FLOP from the recorded TFLOP/s (1 TFLOP/s = 1000 FLOP/ns): vec row-major 120,
 * optimal 480, mat 77, loop 9; bandwidth 3000 GB/s (3000 bytes per ns). */
const mlp_select_model mlp_select_default_model = {
    3000.0,
    {0.01, 0.01, 0.02, 0.02},
    {1.0 / 120e3, 1.0 / 480e3, 1.0 / 77e3, 1.0 / 9e3},
    {0, 0, 0, 0},
};

/* The driver's first compiles (plan_cost.c), fitted to the first grid run on the H100
 * (bench/results/raw/mlp-grid-h100-2026-11-26cb1, driver 580, the 136 first compiles of 11
 * networks; tools/gen_mlp_select.py's fit, rms 1.3x for vec, 1.5x mat, 2x loop): vec, vec
 * optimal, mat, loop. */
#define H100_COMPILE                                                                                  \
  {{33.2, 1.01, 1.01, 1.22, 1.41}, {25.8, 2.02, 1.34, 1.33, 1.12}, {59.9, 5.85, 1.98, 1.0, 0.81},      \
   {0.0, 33.7, 0.0, 1.0, 1.52}}
const mlp_compile_model mlp_compile_default_model[MLP_CLASS_COUNT] = H100_COMPILE;

const mlp_select_device mlp_select_devices[] = {
    {0x10de, 0x2330, "h100",
     {3000.0, {0.01, 0.01, 0.02, 0.02}, {1.0 / 120e3, 1.0 / 480e3, 1.0 / 77e3, 1.0 / 9e3}, {0, 0, 0, 0}},
     H100_COMPILE, h100_entries, sizeof h100_entries / sizeof h100_entries[0]},
};
const uint32_t mlp_select_device_count = sizeof mlp_select_devices / sizeof mlp_select_devices[0];
