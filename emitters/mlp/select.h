/* emitters/mlp/select.h — the data behind the MLP's variant choice (select.c): per device,
 * the networks measured on it (what each variant class reached, with its best knobs) and
 * the fitted parameters of a cost model. emitters/mlp/select_table.c holds the data;
 * tools/gen_mlp_select.py writes it from the grid benchmark's TSV (bench/mlp_grid.c). */
#ifndef SPVGEN_EMITTERS_MLP_SELECT_H
#define SPVGEN_EMITTERS_MLP_SELECT_H

#include <stdbool.h>
#include <stdint.h>

struct spvgen_device_caps; /* spvgen/caps.h */

/* The variant classes the grid measures: the vec variant with row-major and with the
 * driver's optimal weights, mat, loop, and layers (a GEMM per layer, row-major weights, no
 * knobs of its own: its cell's knobs are zero). Layers is chosen where a measured network
 * says it is the fastest, or (a network far from every measured one) where the cost model
 * estimates it fastest, or as the compile budget's stand-in (select.c). */
enum { MLP_CLASS_VEC, MLP_CLASS_VEC_OPT, MLP_CLASS_MAT, MLP_CLASS_LOOP, MLP_CLASS_LAYERS, MLP_CLASS_COUNT };

/* One class's best plan on one network. */
typedef struct mlp_select_knobs {
  float gpts;                /* G points/s it reached; 0: not measured, refused or wrong */
  uint16_t workgroup_size;   /* its knobs */
  uint16_t points_per_group;
  uint8_t bias_add;          /* vec: bias_path add */
  uint8_t f16_accumulation;  /* mat */
  uint8_t mat_rows;          /* mat */
  uint16_t vec_rows;         /* vec: rows per piece (0: whole layers) */
  uint8_t vec_stage;         /* vec: activations staged in shared memory */
  uint8_t layer_loop;        /* vec: the hidden layers in a loop */
} mlp_select_knobs;

/* A measured network: the features the distance compares, and each class's best. */
typedef struct mlp_select_entry {
  uint16_t encoded_width, hidden_width, depth, output_width;
  uint8_t act_class;         /* 0: relu, leaky relu, none; 1: sigmoid, tanh, silu, exp */
  uint8_t encoding;          /* spvgen_mlp_encoding */
  mlp_select_knobs cls[MLP_CLASS_COUNT];
} mlp_select_entry;

/* The cost model, per class: ns per point = max(a + b * work + c * acts + w * wide,
 * bytes / bw), work the FLOPs of the layers (vec, mat, layers: widths padded to 16), acts
 * the activations (the layers' outputs, padded likewise), wide the FLOPs of the layers
 * whose inputs and outputs both exceed MLP_SELECT_WIDE (padded likewise), bytes the
 * point's input and output. The wide term is the register cliff of the fused classes: a
 * 256 x 256 layer holds a point's 256 activations and 256 accumulators per invocation
 * (vec) or spills its fragments (mat); on the H200 grid the vec classes ran 256-wide
 * hidden-to-hidden layers at a third to a seventh of their narrower FLOP rate, which a
 * single FLOP rate fitted mostly on narrow networks put 2.3-10x too fast (session 20,
 * docs/design-notes.md "The selection's wide term"). A class with a, b, c and w all zero
 * has no fit (too few measurements): no estimate. */
#define MLP_SELECT_WIDE 128u
typedef struct mlp_select_model {
  double bw;                          /* bytes per ns */
  double a[MLP_CLASS_COUNT], b[MLP_CLASS_COUNT], c[MLP_CLASS_COUNT], w[MLP_CLASS_COUNT];
} mlp_select_model;

/* The driver's first compile, per class: ms = a + b * p^q * (T + c * A)^e (plan_cost.c:
 * T the 16 x 16 tiles of the layers' code, A the activations' weight, p the points per
 * invocation). Unused for layers: its compile is the sum of its GEMM kernels' estimates. */
typedef struct mlp_compile_model {
  double a, b, c, q, e;
} mlp_compile_model;

typedef struct mlp_select_device {
  uint32_t vendor_id, device_id;      /* 0 device_id: any device of the vendor */
  const char *name;                   /* for plan.selection: "h100" */
  mlp_select_model model;
  mlp_compile_model compile[MLP_CLASS_COUNT];
  const mlp_select_entry *entries;
  uint32_t entry_count;
} mlp_select_device;

extern const mlp_select_device mlp_select_devices[];
extern const uint32_t mlp_select_device_count;
/* The model for devices no entry names (the H100's fit, or until there is one the
 * figures recorded in bench/results). */
extern const mlp_select_model mlp_select_default_model;
extern const mlp_compile_model mlp_compile_default_model[MLP_CLASS_COUNT];

/* The measurements a device plans from: its own entry, else its vendor's (device 0),
 * else its vendor's first measured device (a sibling: select.c), else NULL. */
const mlp_select_device *mlp_select_find_device(const struct spvgen_device_caps *caps);


#endif
