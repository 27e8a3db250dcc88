/* spvgen/mlp.h — the fused MLP template (inference): every point of a batch goes
 * through a small fully connected network in one kernel,
 *
 *     x0 = encode(input point)                      (optional input encoding)
 *     x(l+1)[i] = act_l( sum_j W_l[i][j] * x_l[j] + b_l[i] )   for each layer l
 *     output point = x(L)
 *
 * with the weights of every layer in one buffer and the activations never leaving the
 * chip (registers or shared memory).
 *
 * The template contract (as spvgen/gemm.h):
 *   spvgen_mlp_plan(desc, caps, &plan)          pure: resolves every zero field, picks the
 *                                               variant, or fails naming the field
 *   spvgen_mlp_plans(desc, caps, plans, max, &n) every plan the device can run
 *   spvgen_mlp_emit(module, &plan, &info)       builds into a module the caller owns
 *   spvgen_mlp(desc, caps, &kernel, msg, size)  the one-shot convenience
 * and, for callers that build their own kernels, spvgen_mlp_emit_function (below): the
 * network as a SPIR-V function  out f(in)  in the caller's module.
 *
 * A zero-initialized desc is valid once input_width and output_width are set: a single
 * linear layer (no hidden layer), f16 weights with a bias, f16 points in memory, the
 * variant and knobs chosen for the device (from measurements or a cost model: select.c). Hidden layers come from hidden_count / hidden_width
 * (or the explicit hidden_widths list); they use `activation` (0: relu), the output
 * layer `output_activation` (0: none); layer_activations overrides single layers.
 *
 * Bindings (set 0), each a storage buffer:
 *   0 input points:  point p's component c at element p * input_width + c, of
 *                    desc.input_type (f16 or f32; 0: f16)
 *   1 weights:       f16, every layer packed as spvgen_mlp_weight_layout says: layer l's
 *                    matrix (outputs x inputs, row-major, each row padded to a multiple of
 *                    8 elements = 16 bytes) at a byte offset that is a multiple of 64,
 *                    its bias (outputs f16 values) right after it at a multiple of 16
 *                    bytes, then the next layer at the next multiple of 64. Padding is
 *                    never read as a weight (its value does not matter).
 *   2 output points: point p's component c at element p * output_width + c, of
 *                    desc.output_type (f16 or f32; 0: f16)
 * Push constants: one uint32 at offset 0, the number of points (points past it are not
 * read or written). Dispatch: spvgen_mlp_groups(plan, points, groups) workgroups, i.e.
 * ceil(points / plan.points_per_workgroup) x 1 x 1 (the kernel info's groups are 0:
 * the caller decides by the point count).
 *
 * Arithmetic: the loop variant computes in f32 (f16 weights and biases converted, sums
 * and activations in f32); the vec variant in f16 cooperative vectors (the device's
 * matrix-vector unit, f16 results between layers; the only float combination the H100
 * lists); the mat variant multiplies f16 tiles with f32 accumulation (f16 with
 * f16_accumulation) and rounds each layer's activations to f16 between layers.
 *
 * caps may be NULL in plan/plans/spvgen_mlp: the "vulkan13" preset is assumed. Nothing
 * here prints, allocates (but spvgen_mlp's words) or exits. */
#ifndef SPVGEN_MLP_H
#define SPVGEN_MLP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/activation.h"
#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/gemm.h"
#include "spvgen/kernel.h"
#include "spvgen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

/* Layers in all (hidden layers + the output layer). */
#define SPVGEN_MLP_MAX_LAYERS 16
/* Widest layer (and widest encoded input) any variant takes. */
#define SPVGEN_MLP_MAX_WIDTH 512
/* Points one dispatch evaluates: the kernel reads the count as a uint32 push constant
 * (and ceil(points / plan.points_per_workgroup) must be within the device's
 * maxComputeWorkGroupCount[0], which the runner checks). With descriptors the point
 * buffers are bound ranges (under maxStorageBufferRange, so under 4 GiB); with device
 * addresses they may be larger (points past byte 2^32: each workgroup moves its pointers
 * in 64 bits). docs/limits.md lists every limit. */
#define SPVGEN_MLP_MAX_POINTS 0xFFFFFFFFull

typedef enum spvgen_mlp_variant {
  SPVGEN_MLP_AUTO = 0, /* the plan chooses (emitters/mlp/select.c, docs/mlp.md "Choosing
                          the variant"): what was fastest on the nearest network measured
                          on this device, else a fitted cost model's lowest estimate; the
                          result's selection field says which */
  SPVGEN_MLP_VEC = 1,  /* NV cooperative vectors: a matrix-vector MulAdd per layer and
                          invocation (VK_NV_cooperative_vector) */
  SPVGEN_MLP_MAT = 2,  /* KHR cooperative matrices: a workgroup evaluates a block of
                          points, each subgroup a set of 16-wide output fragments */
  SPVGEN_MLP_LOOP = 3, /* no cooperative features: plain loops, one point per invocation */
  /* Layer by layer, for wide networks: one GEMM per layer (spvgen/gemm.h, the variant the
   * device has: coopmat2, KHR or SIMT), the bias and activation in the GEMM's epilogue,
   * the f16 activations between layers through a workspace buffer. Several kernels per
   * plan (spvgen_mlp_kernel_count, "Plans of several kernels" below). AUTO picks it
   * (spvgen_mlp_plan) for hidden widths of whole 64s, or widths it pads to whole 128s at
   * most 1.35x the FLOPs (221-255 to 256, 111-127 to 128: spvgen_mlp_config.pad_width;
   * a desc that names the variant gets any widths padded): where the device's measured
   * selection table says it is the fastest class for the nearest measured network, where
   * the cost model estimates it fastest for a network far from every measured one, or as
   * the compile budget's stand-in (docs/mlp.md "Choosing the variant"); never in
   * spvgen_mlp (one kernel); spvgen_mlp_plans lists it only for a desc that names it. Training's
   * AUTO has a rule of its own (spvgen_mlp_train_plan).
   * Encoding none, f16 points in, every activation (the GEMM epilogue's; leaky relu with
   * desc.leaky_slope), with or without biases, row-major weights, descriptors; an f32
   * output only with no_bias (the GEMM's bias has the output's type). */
  SPVGEN_MLP_LAYERS = 4,
  SPVGEN_MLP_VARIANT_COUNT = 5,
} spvgen_mlp_variant;

/* "auto", "vec", "mat", "loop", "layers"; NULL for an unknown value. */
const char *spvgen_mlp_variant_name(spvgen_mlp_variant variant);
bool spvgen_mlp_variant_parse(const char *name, spvgen_mlp_variant *out);

/* A layer's activation (spvgen/activation.h: one enum for every template): none, relu,
 * leaky_relu, sigmoid, tanh, silu, exp; DEFAULT (0) is relu for hidden layers and none
 * for the output layer. The MLP's former names remain as aliases of the same values. */
typedef spvgen_activation spvgen_mlp_activation;
#define SPVGEN_MLP_ACT_DEFAULT SPVGEN_ACTIVATION_DEFAULT
#define SPVGEN_MLP_ACT_NONE SPVGEN_ACTIVATION_NONE
#define SPVGEN_MLP_ACT_RELU SPVGEN_ACTIVATION_RELU
#define SPVGEN_MLP_ACT_LEAKY_RELU SPVGEN_ACTIVATION_LEAKY_RELU
#define SPVGEN_MLP_ACT_SIGMOID SPVGEN_ACTIVATION_SIGMOID
#define SPVGEN_MLP_ACT_TANH SPVGEN_ACTIVATION_TANH
#define SPVGEN_MLP_ACT_SILU SPVGEN_ACTIVATION_SILU
#define SPVGEN_MLP_ACT_EXP SPVGEN_ACTIVATION_EXP
#define SPVGEN_MLP_ACT_COUNT SPVGEN_ACTIVATION_COUNT
#define spvgen_mlp_activation_name spvgen_activation_name
#define spvgen_mlp_activation_parse spvgen_activation_parse

typedef enum spvgen_mlp_encoding {
  SPVGEN_MLP_ENCODING_NONE = 0,
  /* encoding_size octaves F (0: 8): each input component x becomes 2F values,
   * sin(2^k pi x), cos(2^k pi x) for k = 0..F-1, in that order (component c's values at
   * c * 2F + 2k and c * 2F + 2k + 1). */
  SPVGEN_MLP_ENCODING_FREQUENCY = 1,
  /* encoding_size bins B (0: 16): each input component x (meant in [0, 1]) becomes B
   * values exp(-((x - (i + 0.5) / B) * B)^2 / 2), a Gaussian of width 1/B at each bin
   * centre i = 0..B-1 (component c's values at c * B + i). */
  SPVGEN_MLP_ENCODING_ONE_BLOB = 2,
  /* The multiresolution hash grid of Instant-NGP, in tiny-cuda-nn's parameterization
   * (desc.grid below; input_width 2 or 3, components meant in [0, 1]): levels * features
   * values, level l's features at l * features + f. Its trainable table lives in the
   * weight buffer (spvgen_mlp_config.grid_offset). */
  SPVGEN_MLP_ENCODING_HASH_GRID = 3,
  SPVGEN_MLP_ENCODING_COUNT = 4,
} spvgen_mlp_encoding;

/* The hash grid encoding's parameters (desc.grid; 0 fields take tiny-cuda-nn's defaults).
 * Level l (0 .. levels - 1) is a grid of
 *     scale_l = 2^(l log2(per_level_scale)) * base_resolution - 1     (computed in double,
 *                                                                      rounded to f32)
 *     resolution_l = ceil(scale_l) + 1 vertices per axis
 * whose table holds entries_l = min(resolution_l^D rounded up to a multiple of 8,
 * 2^log2_hashmap_size) entries of `features` f16 values. A point x (D components) is
 * placed at pos = fma(scale_l, x, 0.5) per axis (the 0.5 staggers the levels, Instant-NGP
 * appendix A); its cell is floor(pos), its weights the fractions pos - floor(pos), and
 * its level-l features are the D-linear interpolation of the 2^D corner entries. A corner
 * c (integer coordinates) indexes the table as
 *     dense  (resolution_l^D <= 2^log2_hashmap_size):  c_0 + c_1 r + c_2 r^2
 *     hashed (otherwise):  c_0 * 1 ^ c_1 * 2654435761 ^ c_2 * 805459861  (u32 products)
 * taken modulo entries_l, i.e. tiny-cuda-nn's coherent prime hash and its dense indexing
 * (which wraps at the grid's far edge). spvgen_mlp_config.grid[] lists every level. */
typedef struct spvgen_mlp_hash_grid {
  uint32_t levels;             /* 1 .. SPVGEN_MLP_MAX_GRID_LEVELS (0: 16) */
  uint32_t features;           /* per level: 1, 2, 4 or 8 (0: 2) */
  uint32_t log2_hashmap_size;  /* 4 .. 24 (0: 19) */
  uint32_t base_resolution;    /* >= 1 (0: 16) */
  float per_level_scale;       /* >= 1 (0: 2) */
} spvgen_mlp_hash_grid;

#define SPVGEN_MLP_MAX_GRID_LEVELS 32

/* "none", "freq", "oneblob", "hashgrid"; NULL for an unknown value. */
const char *spvgen_mlp_encoding_name(spvgen_mlp_encoding encoding);

typedef enum spvgen_mlp_weight_layout_kind {
  SPVGEN_MLP_WEIGHTS_ROW_MAJOR = 0, /* the packing described above */
  /* The driver's InferencingOptimalNV layout (vec variant only; inference kernels and the
   * function shape, not training). The biases stay where the row-major layout puts them;
   * layer l's matrix (outputs x inputs f16, converted from row-major with
   * vkConvertCooperativeVectorMatrixNV, e.g. spvgen_vk_convert_coopvec_matrix, the size
   * spvgen_vk_coopvec_matrix_size gives) sits at a byte offset (a multiple of 64) the host
   * chooses and gives as the u32 specialization constant SpecId
   * SPVGEN_MLP_SPEC_MATRIX_OFFSET + l, or desc.spec_id_base + l (named matrix_offset_<l>; its default is the
   * row-major matrix_offset, which only a host that packs the converted matrices there
   * may keep). mlp_run (tools/common) places them after weight_bytes, each at the next
   * multiple of 64. */
  SPVGEN_MLP_WEIGHTS_OPTIMAL = 1,
  /* Either, as the plan expects faster on the device (the vec variant reads the optimal
   * layout 2.4x to 3.8x faster on the H100: bench/results/mlp-h100-2026-11-23c.md); the
   * plan's desc.weight_layout says which one it took, and the host prepares that one. */
  SPVGEN_MLP_WEIGHTS_AUTO = 2,
} spvgen_mlp_weight_layout_kind;

/* SpecId of layer 0's matrix offset with SPVGEN_MLP_WEIGHTS_OPTIMAL (layer l: + l), unless
 * desc.spec_id_base moves them. */
#define SPVGEN_MLP_SPEC_MATRIX_OFFSET 0u
/* SpecId of layer l's piece stride with SPVGEN_MLP_WEIGHTS_OPTIMAL and vec_rows splitting
 * the layer (below): + l, after the spec_id_base's matrix offsets. */
#define SPVGEN_MLP_SPEC_PIECE_BYTES SPVGEN_MLP_MAX_LAYERS
/* Specialization constants an MLP kernel may have: a matrix offset per layer and a piece
 * stride per layer that vec_rows splits (SpecIds spec_id_base + 0 .. + this - 1). */
#define SPVGEN_MLP_MAX_SPEC (2u * SPVGEN_MLP_MAX_LAYERS)

/* How the vec variant adds a layer's bias. */
typedef enum spvgen_mlp_bias_path {
  SPVGEN_MLP_BIAS_AUTO = 0,
  SPVGEN_MLP_BIAS_FUSED = 1, /* the bias operand of OpCooperativeVectorMatrixMulAddNV */
  SPVGEN_MLP_BIAS_ADD = 2,   /* OpCooperativeVectorMatrixMulNV, then the bias loaded as a
                                cooperative vector (OpCooperativeVectorLoadNV) and added */
  SPVGEN_MLP_BIAS_PATH_COUNT = 3,
} spvgen_mlp_bias_path;

/* How the vec and mat variants write a block's output points (the other variants
 * write directly). */
typedef enum spvgen_mlp_output_path {
  SPVGEN_MLP_OUTPUT_AUTO = 0,
  /* Each invocation (vec: one cooperative-vector store of its point) or subgroup (mat:
   * fragment stores) writes its results straight to binding 2. A point of more than 16
   * bytes then arrives at the memory system as 16-byte pieces of distinct 32-byte
   * sectors (vec) or rows of 32 bytes (mat). */
  SPVGEN_MLP_OUTPUT_DIRECT = 1,
  /* The results go through shared memory first, and the workgroup writes the block's
   * output as consecutive 16-byte pieces (adjacent invocations, adjacent bytes). vec: a
   * row per invocation of the output bytes + 16 (workgroup_size x that), where the
   * output row is a multiple of 16 bytes; else (the element form) the workgroup's output
   * points back to back (workgroup_size x the row's bytes), written element by element
   * on adjacent invocations; mat: the activation block (f16 output, output_width a
   * multiple of 8, the default columns arrangement). */
  SPVGEN_MLP_OUTPUT_STAGED = 2,
  SPVGEN_MLP_OUTPUT_PATH_COUNT = 3,
} spvgen_mlp_output_path;

typedef struct spvgen_mlp_desc {
  /* ---- the network ---- */
  uint32_t input_width;  /* >= 1 (required): components of an input point */
  uint32_t output_width; /* >= 1 (required) */
  /* Hidden layers: hidden_count (at most SPVGEN_MLP_MAX_LAYERS - 1), each
   * hidden_widths[i] wide, or hidden_width where that entry is 0. hidden_count 0 with
   * hidden_widths[0] set: the leading nonzero entries of hidden_widths; with only
   * hidden_width set: one hidden layer. Everything 0: no hidden layer. */
  uint32_t hidden_count;
  uint32_t hidden_width;
  uint32_t hidden_widths[SPVGEN_MLP_MAX_LAYERS - 1];
  spvgen_mlp_activation activation;        /* every hidden layer; 0: relu */
  spvgen_mlp_activation output_activation; /* the output layer; 0: none */
  /* Per layer (0..hidden layers, the output layer last); 0: the two fields above. */
  spvgen_mlp_activation layer_activations[SPVGEN_MLP_MAX_LAYERS];
  float leaky_slope; /* leaky relu's slope for x < 0; 0: 0.01 */
  bool no_bias;      /* layers without bias (the weight layout then holds no biases) */

  /* ---- input encoding ---- */
  spvgen_mlp_encoding encoding;
  uint32_t encoding_size; /* octaves (frequency) or bins (one-blob); 0: 8 / 16; the hash
                             grid takes `grid` and leaves this 0 */
  spvgen_mlp_hash_grid grid; /* the hash grid (encoding SPVGEN_MLP_ENCODING_HASH_GRID) */

  /* ---- types and layouts ---- */
  spvgen_component_type weight_type; /* 0: f16; E4M3 / E5M2: float8 weights (vec variant,
                                        weight_layout optimal, where the device lists
                                        (f16 input as X, X matrix, f16 bias, f16 result):
                                        the f16 activations are read as float8 too; the
                                        buffer keeps the f16 row-major packing, converted
                                        by the host to the float8 optimal layout);
                                        S8: int8 weights with scales (vec variant, where
                                        the device lists (s32 input as s8, s8 matrix,
                                        s32 result)): per layer l, q = round(clamp(x / s_l,
                                        -127, 127)) (halves up), acc = W8 q exactly in
                                        s32, y = acc * out_scale + bias (f32), activation
                                        in f32; row_stride = inputs rounded up to 16 bytes,
                                        scale_offset and f32 biases as spvgen_mlp_layer
                                        says; the host picks s_l and w_scale */
  spvgen_component_type input_type;  /* points in memory: f16 (0) or f32 */
  spvgen_component_type output_type; /* f16 (0) or f32 */
  spvgen_mlp_weight_layout_kind weight_layout;
  /* With SPVGEN_MLP_WEIGHTS_OPTIMAL: layer l's matrix offset is SpecId spec_id_base + l
   * (0: SPVGEN_MLP_SPEC_MATRIX_OFFSET + l). For a caller's module whose own specialization
   * constants already use those ids (the function shape), or two networks in one module.
   * At most 0xFFFFFFFF - SPVGEN_MLP_MAX_SPEC. */
  uint32_t spec_id_base;

  /* ---- knobs: 0 means "choose" ---- */
  spvgen_mlp_variant variant;
  uint32_t workgroup_size;   /* invocations per workgroup */
  uint32_t points_per_group; /* mat: points per workgroup block, a multiple of 16 (0:
                                128 where registers and shared memory allow);
                                vec: points per invocation, one after another (1, 2,
                                4 or 8; 0: 1); loop:
                                points per invocation (1, the only value) */
  bool f16_accumulation;     /* mat: f16 accumulator fragments (where the device lists
                                f16 x f16 + f16), else f32 */
  bool mat_rows;             /* mat: each subgroup owns whole 16-point fragments of the
                                block and computes every output fragment of a layer for
                                them (tiny-cuda-nn's arrangement: no workgroup barrier
                                between layers, each activation read once), instead of
                                owning output fragments of all the block's points (the
                                default: each weight fragment loaded once per workgroup) */
  /* mat: the streamed form for wide layers (0: off). Each subgroup owns whole 16-point
   * fragments of the block and keeps their activations in registers through the whole
   * network (accumulators, converted to the next layer's A fragments through a small
   * per-subgroup tile of shared memory); every layer's weights pass through shared
   * memory in slabs of mat_slab inputs x all outputs (16, 32 or 64; two buffers, the
   * next slab loaded while the subgroups multiply the current one), each slab shared by
   * every subgroup. A weight byte read from L2 serves points_per_group points, and the
   * shared memory holds two slabs, not the layers: width 256 fits the H100's 48 KiB.
   * points_per_group = 16 x subgroups x point fragments per subgroup. */
  uint32_t mat_slab;
  spvgen_mlp_bias_path bias_path; /* vec: how the bias is added (AUTO: the variant's
                                     choice); other variants take AUTO only */
  /* vec: output rows per matrix-vector multiply (0: the whole layer). A layer with more
   * outputs is evaluated in pieces of vec_rows rows (the last one shorter), each its own
   * OpCooperativeVectorMatrixMulAddNV of that piece of the matrix: fewer accumulators
   * live at once. A multiple of 16, 16 to 256. With the optimal weight layout each piece
   * is converted on its own: piece i of layer l at matrix_offset_<l> + i *
   * matrix_piece_bytes_<l> (SpecId spec_id_base + SPVGEN_MLP_SPEC_PIECE_BYTES + l: at
   * least the converted size of a full piece, a multiple of 64), for the layers that it
   * splits. */
  uint32_t vec_rows;
  /* vec: the activations between layers go through the invocation's own row of shared
   * memory (each piece stored as it is computed, the next layer's input loaded whole)
   * instead of staying in registers; shared memory workgroup_size x (widest layer + 8)
   * halves. Not for the function shape (its workgroup is the caller's). */
  bool vec_stage;
  /* vec: the hidden layers after the first (at least two, all of one width and one
   * activation) are a run-time loop over the layers instead of being unrolled, and with
   * vec_stage a layer's pieces too: the module, and the driver's compile, hold one such
   * layer. */
  bool layer_loop;
  /* vec, mat: how the kernel writes the output (AUTO: the variant's choice, vec STAGED
   * from 64-byte output points, mat DIRECT; see the enum). spvgen_mlp_emit_function's
   * function returns its point's output whatever this holds. */
  spvgen_mlp_output_path output_path;
  /* The driver's first compile the plan may cost, in ms, estimated (plan.compile_ms):
   * where the desc leaves the variant or knobs open, the plan takes none estimated over
   * it (if every plan is, the cheapest to compile). 0: 1000 ms. */
  uint32_t compile_budget_ms;
  /* How the kernel reaches input, weights and output (spvgen/kernel.h): descriptors (0),
   * or device addresses, 8 bytes each at offsets 8, 16, 24 of the push-constant block
   * after the point count (every variant; training has its own blocks, below;
   * spvgen_mlp_emit_function refuses it; emit into a module created with
   * spvgen_mlp_addressing_model's addressing). Each workgroup moves the input and
   * output pointers to its first point in 64-bit arithmetic (plan.features lists
   * shaderInt64), so the points may lie past 4 GB: the limits are the point count
   * (SPVGEN_MLP_MAX_POINTS) and the grid, not the bytes. The info's bindings say the
   * alignment each address needs (the vec variant's weights 64, cooperative and 16-byte
   * point and weight accesses 16, else 4). */
  spvgen_addressing addressing;
} spvgen_mlp_desc;

/* One layer's place in the weight buffer (binding 1). */
typedef struct spvgen_mlp_layer {
  uint32_t inputs, outputs;      /* the matrix is outputs x inputs */
  uint32_t row_stride;           /* bytes between rows: inputs * 2 rounded up to 16 */
  uint64_t matrix_offset;        /* bytes, a multiple of 64 */
  uint64_t bias_offset;          /* bytes, a multiple of 16 (no_bias: 0); f16 values, f32
                                    with s8 weights */
  uint64_t scale_offset;         /* s8 weights only (else 0), bytes, a multiple of 16: f32
                                    1/s_l repeated inputs times (s_l the layer's input
                                    scale), padded to a multiple of 4 values, then f32
                                    out_scale[outputs] = s_l * w_scale[o] */
  spvgen_mlp_activation activation; /* resolved (never DEFAULT) */
} spvgen_mlp_layer;

/* The layers variant's distinct GEMM kernels a plan may hold (layers of one GEMM class,
 * the same widths and activation, share one). */
#define SPVGEN_MLP_LAYERS_MAX_GEMMS 8
/* The multiple the layers variant pads hidden widths to (spvgen_mlp_config.pad_width). */
#define SPVGEN_MLP_LAYERS_PAD 64
/* The most kernels (dispatches) a plan runs: a GEMM per layer and the pad kernel. */
#define SPVGEN_MLP_MAX_KERNELS (SPVGEN_MLP_MAX_LAYERS + 1)

/* A resolved MLP. */
typedef struct spvgen_mlp_config {
  spvgen_mlp_desc desc;       /* zero fields resolved: hidden_count and hidden_widths,
                                 layer_activations, leaky_slope, encoding_size, knobs */
  spvgen_mlp_variant variant; /* = desc.variant */
  uint32_t layer_count;       /* hidden_count + 1 */
  uint32_t encoded_width;     /* the first layer's inputs */
  spvgen_mlp_layer layers[SPVGEN_MLP_MAX_LAYERS];
  uint64_t weight_bytes;      /* the weight buffer's size */
  uint32_t local_size[3];
  uint32_t points_per_workgroup;
  uint32_t shared_bytes;      /* shared memory the kernel declares */
  uint64_t features;          /* SPVGEN_FEATURE_* the kernel needs */
  uint32_t subgroup_size;     /* the subgroup size the kernel assumes (0: any) */
  uint64_t flops_per_point;   /* 2 * sum of inputs * outputs over the layers */
  /* The hash grid (encoding SPVGEN_MLP_ENCODING_HASH_GRID; else 0): its table, f16, at byte
   * grid_offset of the weight buffer (a multiple of 64, after the layers), grid_entries
   * entries of desc.grid.features values each; level l's entry i at element
   * grid_offset / 2 + (grid[l].offset + i) * features + f. */
  uint64_t grid_offset;
  uint32_t grid_entries;
  struct spvgen_mlp_grid_level {
    float scale;         /* pos = fma(scale, x, 0.5) */
    uint32_t resolution; /* ceil(scale) + 1 */
    uint32_t entries;    /* table entries of the level (the modulus) */
    uint32_t offset;     /* its first entry */
    bool hashed;         /* resolution^D > 2^log2_hashmap_size */
  } grid[SPVGEN_MLP_MAX_GRID_LEVELS];
  char name[96];              /* "vec 32-64x4-16 relu f16 w64" */
  /* How the variant, the weight layout (AUTO) and the knobs the desc left open were
   * chosen: "desc" (it fixed them), "measured <device> <network> (distance d)" (the
   * nearest network measured on this device, emitters/mlp/select_table.c), "model"
   * (the cost model's fastest estimate) or "order" (vec, mat, loop: the first the device
   * has). */
  char selection[80];
  double estimated_ns_per_point; /* the cost model's estimate of the plan (0: none) */
  /* The driver's first compile of the kernel, ms, estimated (a model fitted to the grid
   * benchmark's compiles on the device: emitters/mlp/select_table.c). */
  uint32_t compile_ms;
  /* The layers variant (else 0): layer l runs GEMM plan gemms[layer_gemm[l]] (a RUNTIME
   * class: M is the point count, or between two hidden layers the workspace's rows (the
   * count rounded up to 256; m_multiple 256), N the layer's outputs, K its inputs, A the activations
   * row-major, B the layer's matrix as a column-major K x N with ldb = row_stride / 2,
   * D row-major; split_k 1, no packing), and the hidden activations lie in the workspace
   * (spvgen_mlp_workspace_bytes) with workspace_ld f16 elements per point. */
  uint32_t gemm_count;
  uint32_t workspace_ld;
  uint8_t layer_gemm[SPVGEN_MLP_MAX_LAYERS];
  spvgen_gemm_config gemms[SPVGEN_MLP_LAYERS_MAX_GEMMS];
  /* The layers variant's padding (else 0): SPVGEN_MLP_LAYERS_PAD (64) where a hidden width
   * is not a multiple of it. The plan then runs a pad kernel first (kernel 0) that copies
   * every layer's matrix and bias into the workspace, the hidden widths rounded up to
   * multiples of 64 with zeros, and the layers' GEMMs read the copy: their hidden-to-hidden
   * classes are whole 64s in N and K ("Plans of several kernels" below; docs/mlp.md). */
  uint32_t pad_width;
} spvgen_mlp_config;

/* Resolves desc for a device. Fails with SPVGEN_ERROR_INVALID_ARGUMENT (a field out of
 * range) or SPVGEN_ERROR_UNSUPPORTED (the device or the variant cannot), message naming
 * the field: "spvgen_mlp_plan: hidden_widths[2] 0 ...". */
spvgen_status spvgen_mlp_plan(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                              spvgen_mlp_config *plan, char *message, size_t message_size);
/* Every plan the device can run for desc (each variant it can, with the knobs desc
 * leaves open set to the values worth trying), variants in enum order. *count gets the
 * number (may exceed max). Fails like spvgen_mlp_plan when none is possible. */
spvgen_status spvgen_mlp_plans(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                               spvgen_mlp_config *plans, uint32_t max, uint32_t *count,
                               char *message, size_t message_size);
/* Builds the kernel into m (fresh or reset). info (optional): entry point, local size,
 * push-constant size, binding names; groups are 0 (see spvgen_mlp_groups). A plan of
 * several kernels (the layers variant: spvgen_mlp_kernel_count > 1) is refused with
 * SPVGEN_ERROR_INVALID_ARGUMENT: emit each with spvgen_mlp_emit_kernel. */
spvgen_status spvgen_mlp_emit(spvgen_module *m, const spvgen_mlp_config *plan,
                              spvgen_kernel_info *info);
/* plan + emit + finish; the caller frees the kernel (spvgen_kernel_free). AUTO chooses
 * among the one-kernel variants here; a desc naming the layers variant is refused naming
 * spvgen_mlp_emit_kernel. */
/* The addressing model the plan's module is created with (spvgen_module_desc.addressing):
 * SpvAddressingModelPhysicalStorageBuffer64 for addressing DEVICE_ADDRESS, else Logical
 * (0). */
uint32_t spvgen_mlp_addressing_model(const spvgen_mlp_config *plan);

spvgen_status spvgen_mlp(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                         spvgen_kernel *kernel, char *message, size_t message_size);

/* The weight buffer's layout: layers[0..plan->layer_count) (layers may be NULL) and the
 * total size in bytes (total may be NULL); the same as plan->layers / weight_bytes. */
spvgen_status spvgen_mlp_weight_layout(const spvgen_mlp_config *plan, spvgen_mlp_layer *layers,
                                       uint64_t *total_bytes);
/* The dispatch grid for `points` points (the layers variant: its first dispatch's; see
 * spvgen_mlp_dispatch_for). */
void spvgen_mlp_groups(const spvgen_mlp_config *plan, uint64_t points, uint32_t groups[3]);

/* ------------------------------------------------ plans of several kernels ----
 * A plan runs spvgen_mlp_kernel_count(plan) dispatches in order, with a compute-to-compute
 * barrier between consecutive ones (shader writes visible to the next one's shader reads:
 * spvgen_vk_run and spvgen_vk_cmd_dispatch record it). Every variant but layers has one,
 * the kernel of spvgen_mlp_emit with the bindings and push constant above. The layers
 * variant has one per layer: dispatch l is layer l's GEMM (spvgen_mlp_emit_kernel(m,
 * plan, l, info); layers that share a GEMM plan, plan->layer_gemm, give the same words:
 * one pipeline serves them); a padded plan (pad_width 64: a hidden width not a multiple
 * of 64) runs the pad kernel first, dispatch 0, and layer l is dispatch l + 1
 * (layer_count + 1 dispatches). The GEMMs take the bindings of spvgen/gemm.h (0 A, 1 B, 2 D, 3 bias)
 * bound to ranges of the MLP's buffers, and the GEMM's run-time push constants
 * (spvgen_gemm_push); spvgen_mlp_dispatch_for says which buffer and byte offset each
 * binding takes, the push bytes and the grid, for a point count:
 *   A     layer 0: the input points; layer l: the workspace half (l - 1) % 2
 *   B     the weights at the layer's matrix_offset (a multiple of 64); padded: the
 *         layer's matrix in the copy
 *   D     the last layer: the output points; layer l: the workspace half l % 2
 *   bias  the weights at the layer's bias_offset (a multiple of 16; absent with no_bias);
 *         padded: the layer's bias in the copy
 * The workspace holds two halves of rows x workspace_ld f16 values, rows the point count
 * rounded up to a multiple of 256, the second half at a multiple of 256 bytes, and in a
 * padded plan then the padded copy of the weights, which the pad kernel (binding 0 the
 * weights, binding 1 the copy: the workspace from 2 halves on) writes on every run: each
 * layer's matrix as N x K f16 row-major (N the GEMM's columns: hidden outputs rounded up
 * to 64; K its inputs, the layer before's N, layer 0's real inputs rounded up to 8) and
 * its bias as N f16, zeros past the real weights, each piece at a multiple of 256 bytes;
 * the GEMMs then run on the padded widths (a hidden layer's pad columns hold act(0), which
 * the next layer's zero columns cancel; docs/mlp.md, "Hidden widths off 64: padding").
 * spvgen_mlp_workspace_bytes: the halves and the copy, 0 for a single layer or another
 * variant; it needs no initialization. A layer between two hidden layers (it reads and writes the workspace)
 * runs on all the rows, its push constant's m the rounded count: its GEMM class has no M
 * edge; the rows past the point count compute whatever the workspace held there and
 * nothing reads them into an output. The first and last layers run on the point count. spvgen_mlp_plan refuses a network whose offsets
 * are not multiples of the device's minStorageBufferOffsetAlignment. */

/* The plan's dispatches (0 for NULL or a plan not made by spvgen_mlp_plan; layers: its
 * layer_count, + 1 for the pad kernel where pad_width; at most SPVGEN_MLP_MAX_KERNELS). */
uint32_t spvgen_mlp_kernel_count(const spvgen_mlp_config *plan);
/* Builds dispatch `index`'s kernel into m (index 0 is spvgen_mlp_emit's); info as
 * spvgen_mlp_emit's (layers: spvgen_gemm_emit_kernel's). An index past the count is
 * refused naming it. */
spvgen_status spvgen_mlp_emit_kernel(spvgen_module *m, const spvgen_mlp_config *plan, uint32_t index,
                                     spvgen_kernel_info *info);

/* The MLP's buffers a dispatch binds. */
typedef enum spvgen_mlp_buffer {
  SPVGEN_MLP_BUFFER_INPUT = 0,
  SPVGEN_MLP_BUFFER_WEIGHTS = 1,
  SPVGEN_MLP_BUFFER_OUTPUT = 2,
  SPVGEN_MLP_BUFFER_WORKSPACE = 3,
} spvgen_mlp_buffer;

/* One dispatch of a plan for a point count. */
typedef struct spvgen_mlp_dispatch {
  uint32_t kernel;       /* the first dispatch whose kernel has the same words (<= index) */
  uint32_t groups[3];
  uint8_t push[sizeof(spvgen_gemm_push)]; /* the push-constant bytes */
  uint32_t push_size;
  uint32_t binding_count; /* binding i (in the kernel's binding order) is buffer
                             bindings[i].buffer from byte bindings[i].offset */
  struct spvgen_mlp_dispatch_binding {
    spvgen_mlp_buffer buffer;
    uint64_t offset;
  } bindings[4];
} spvgen_mlp_dispatch;

/* Dispatch `index` of plan for `points` points (1 .. SPVGEN_MLP_MAX_POINTS): refuses an
 * index past the count, and (layers) a point count whose GEMMs would pass the GEMM's
 * limits, naming them. */
spvgen_status spvgen_mlp_dispatch_for(const spvgen_mlp_config *plan, uint32_t index, uint64_t points,
                                      spvgen_mlp_dispatch *dispatch, char *message, size_t message_size);
/* The workspace's bytes for `points` points (0: the plan needs none; layers: the two
 * activation halves, and a padded plan's copy of the weights after them). */
uint64_t spvgen_mlp_workspace_bytes(const spvgen_mlp_config *plan, uint64_t points);

/* The network as a function of the caller's module (loop and vec plans; mat works on
 * a subgroup's tile and is refused):
 *   loop:  array[input_width] float32  f(array[input_width] float32)   -> output_width
 *   vec:   coopvec<float32, input_width> f(coopvec<float32, input_width>)
 *          (returns coopvec<float32, output_width>)
 * The input is the raw point: the encoding happens inside. Call it outside any function
 * (between spvgen_function_end and the next begin); OpFunctionCall it from anywhere. */
typedef struct spvgen_mlp_function_info {
  /* in: the weight buffer to read, a StorageBuffer variable `struct { float16 data[]; }`
   * as spvgen_buffer_declare(m, float16, set, binding, SPVGEN_BUFFER_READONLY) makes
   * (0: one is declared at set 0, binding 1). out: the variable used. */
  uint32_t weights_buffer;
  /* out */
  uint32_t function;      /* the function id, for OpFunctionCall */
  uint32_t function_type;
  uint32_t param_type;    /* the input's type */
  uint32_t return_type;   /* the output's type */
} spvgen_mlp_function_info;

spvgen_status spvgen_mlp_emit_function(spvgen_module *m, const spvgen_mlp_config *plan,
                                       spvgen_mlp_function_info *info);

/* ------------------------------------------------------------- training ----
 * Training (the loop variant here; the vec, mat and layers variants below; AUTO takes
 * mat, loop or layers as spvgen_mlp_train_plan says): two kernels per step, both emitted
 * by the builder (the layers variant: its step's kernels, then the same optimizer),
 *
 *   gradient kernel   forward and backward of every point of the batch, one point per
 *                     invocation, the weight and bias gradients of the mean loss summed
 *                     per workgroup (through shared memory, no atomics: deterministic)
 *                     into that workgroup's slot of the gradient buffer, and the
 *                     workgroup's share of the loss into the loss buffer;
 *   optimizer kernel  sums the slots, applies Adam or SGD to f32 master weights, writes
 *                     the f16 copy the gradient and inference kernels read, and sums the
 *                     loss shares into the loss history.
 *
 * Layout: the gradients, the master weights and Adam's moments are f32 arrays with the
 * weight buffer's layout element for element (spvgen_mlp_weight_layout, byte offsets / 2
 * = element indices; E = weight_bytes / 2 elements, padding included: its gradient is
 * 0 and it never moves). The master weights start as the f16 weights converted.
 *
 * Gradient kernel bindings (set 0):
 *   0 input points   as for inference (input_type)
 *   1 weights        f16, read only, the packing above
 *   2 targets        f32, point p's component c at p * output_width + c
 *   3 gradients      f32, grad_workgroups slots of E elements: slot g at g * E (written,
 *                    never read first: no clearing between steps)
 *   4 loss           f32, element g (g < grad_workgroups): workgroup g's share
 * With the hash grid (loop and mat variants; not vec) the slots cover the network's part
 * of the layout only (slot_elements), and the gradient of the table follows them
 * (grid_grad_offset): the kernel adds each point's share to it with atomic adds
 * (order-dependent in the last bits), and the optimizer
 * reads it and writes it back to 0. The host zeroes that region once, before the first
 * step. With desc.grid_gradient F32 the adds are f32, OpAtomicFAddEXT where the device
 * has shaderBufferFloat32AtomicAdd (the plan's features then include
 * SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD), else compare-exchange loops; with F16 (features
 * include SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR) the region holds f16 values times
 * grid_gradient_scale, 2 or 4 features added at once; either way at Device scope (the
 * features include vulkanMemoryModelDeviceScope).
 * Push constants: uint32 at 0, the batch's point count N (>= 1). Dispatch exactly
 * grad_workgroups x 1 x 1 (the kernel info's groups): workgroup g takes the points
 * g * W + k * grad_workgroups * W + (0..W), W = grad_local_size[0].
 *
 * Loss, the mean over the batch's N * output_width components (y the network's output,
 * t the target):
 *   L2           sum (y - t)^2 / (N * output_width)
 *   relative L2  sum (y - t)^2 / (y^2 + 0.01) / (N * output_width), y in the denominator
 *                held constant for the gradient (as instant-ngp / tiny-cuda-nn)
 *
 * Optimizer kernel bindings (set 0):
 *   0 weights        f16, written: the rounded master weights
 *   1 gradients      f32, read: the gradient kernel's slots (summed here)
 *   2 state          f32: master weights at [0, E), Adam's m at [E, 2E) and v at
 *                    [2E, 3E) (SGD: master only; state_bytes says)
 *   3 loss           f32: reads [0, grad_workgroups), writes their sum to element
 *                    grad_workgroups + step - 1 when the buffer has it (the loss history;
 *                    a buffer of grad_workgroups + steps elements keeps every step's)
 * Push constants: uint32 step at 0 (1, 2, ...: Adam's bias correction), float
 * learning_rate at 4. Dispatch spvgen_mlp_train_optimizer_groups (the info's groups: one
 * element per invocation, at most 65535 workgroups, the kernel looping over the rest;
 * with the hash grid, opt_local_size invocations a group: the network's elements 8
 * invocations each, a group for the loss history, then opt_table_groups groups over the
 * table, 4 elements an invocation).
 *   Adam: m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
 *         w -= lr * (m / (1 - b1^step)) / (sqrt(v / (1 - b2^step)) + eps)
 *   SGD:  w -= lr * g
 * (weight_decay, when set, adds weight_decay * w to g first; biases included).
 *
 * The vec variant (net.variant = SPVGEN_MLP_VEC explicitly; AUTO never takes it), on NV
 * cooperative vectors (needs cooperativeVectorTraining and f16 training accumulation, as
 * the H100 lists). Gradient kernel: forward with MatrixMulAdd on the row-major f16
 * weights, backward with MatrixMul on the same weights read ColumnMajor (W^T delta),
 * weight gradients by OpCooperativeVectorOuterProductAccumulateNV into TrainingOptimal
 * f16 matrices and bias gradients by ReduceSumAccumulate, atomically by every invocation
 * into ONE f16 gradient buffer (binding 3; no slots; the host zeroes it before each
 * step). Layer l's matrix (outputs x inputs, TrainingOptimal, the size
 * vkConvertCooperativeVectorMatrixNV reports) and bias (outputs f16) sit at byte
 * offsets the host chooses (multiples of 64 and 16), given as push constants: uint32
 * points at 0, float loss_scale at 4 (the gradients are loss_scale * dLoss/dW: f16
 * accumulation needs the per-point terms well above f16's subnormals), uint32 matrix
 * offsets [layer_count], uint32 bias offsets [layer_count] (grad_push_constant_size
 * bytes). The intended layout, which mlp_train_run (tools/common) uses: the biases at
 * the weight layout's bias_offset, the TrainingOptimal matrices after weight_bytes; after
 * the gradient kernel each matrix is converted (vkCmdConvertCooperativeVectorMatrixNV,
 * TrainingOptimal f16 -> RowMajor f16, stride row_stride) to its layout's matrix_offset,
 * so that [0, weight_bytes) holds the gradients in the weight layout. The vec optimizer
 * kernel reads that (binding 1: f16, one slot) times a third push constant, float
 * grad_scale at 8 (= 1 / loss_scale); the rest as above. ReLU's derivative at 0 is 1 here
 * (step), 0 in the loop variant. Validated offline for the h100 preset; never run here. */
/* Device addresses (net.addressing = SPVGEN_ADDRESSING_DEVICE_ADDRESS; every variant):
 * the same bindings as PhysicalStorageBuffer64 pointers in the push-constant block after
 * the push constants above, 8 bytes each, no descriptor set (kernel info: bindings of
 * kind SPVGEN_BINDING_DEVICE_ADDRESS with their address_offset, alignment and sizes).
 *   gradient kernel   the push constants above (loop, mat: the point count, padded to
 *                     8 bytes), then input, weights, targets, gradients, loss: loop and
 *                     mat 48 bytes (pointers at 8 .. 40), vec 48 + 8 * layer_count
 *   optimizer kernel  step at 0, learning_rate at 4, (vec) grad_scale at 8, then
 *                     uint32 loss_elements (at 8; vec 12): the loss buffer's length in
 *                     floats, which the history write is checked against (descriptors
 *                     read it from the buffer); pointers weights, gradients, state, loss
 *                     at 16, 24, 32, 40 (48 bytes)
 * (grad_push_constant_size, opt_push_constant_size). The runner writes the addresses:
 * a caller gives the bytes before them (spvgen/vk.h). The gradient kernel moves the input
 * and target pointers to each chunk's first point and the gradient pointer to its
 * workgroup's slot (the hash grid: a pointer to the table's gradient) in 64-bit
 * arithmetic, so batches may lie past 4 GB; the optimizer indexes the whole gradient
 * buffer, which is refused past 2^31 - 1 elements (signed access-chain indices).
 * Alignments: vec weights and gradients 64 (the cooperative vector instructions' matrix
 * offsets), mat weights 16 and f16 points without encoding 16 (16-byte loads), else 4.
 * plan.features adds bufferDeviceAddress and shaderInt64. */
/* The mat variant (net.variant = SPVGEN_MLP_MAT, or AUTO's choice), on KHR cooperative
 * matrices (16x16x16 f16 x f16 + f32, subgroup scope; f16_accumulation is refused): the
 * loop variant's gradient kernel contract above in full (bindings, push constants, f32
 * slots, dispatch), so the same optimizer kernel and host code serve both. W is then
 * net.points_per_group (P, a multiple of 16; 0: the largest of 64, 32, 16 that fits
 * the shared memory) and grad_local_size[0] the invocations, grad_workgroup_size (a
 * multiple of the subgroup size, up to 16 subgroups; 0: one subgroup per 16-wide
 * fragment of the widest layer, at most 8): workgroup g takes the chunks of P points
 * g * P + k * grad_workgroups * P. Per chunk: the forward as the inference kernel keeping
 * every layer's input in shared memory (f16), the output layer's z in f32, the loss and
 * the output deltas per component, then per layer from the last: dW += delta^T a
 * (cooperative matrix products, f32, a subgroup per 16x16 tile, added to the slot by
 * the invocation that owns each element), the bias column sums, and delta of the layer
 * before = (delta W) .* act' (act' from the f16 output, or for SiLU and leaky ReLU with
 * a slope <= 0 kept as f16 from the forward: in a shared block, or in the registers of
 * the subgroup that computed it), stored f16 over that layer's input. The biases are
 * staged once in shared memory, 16 rows or one row per layer (desc.grad_bias and
 * desc.grad_act_deriv: the forms that give the largest chunk, below). Deltas are kept
 * unscaled (O(1) in f16); the 1 / (N outputs) of the mean is applied to the f32 sums.
 * Held form (grad_held; the default where it fits, unless grad_slot_adds): each
 * subgroup keeps its 16x16 dW tiles (and each invocation its bias sums) in registers
 * across all of its workgroup's chunks, and writes them to the slot once at the end, so
 * the chunk loop touches no gradient memory; it needs at most 20 tiles per subgroup over
 * all layers (a grad_workgroup_size of 0 takes more subgroups for that, up to 16), else
 * the kernel adds each chunk's tiles to the slot. Checked on the H100 against the
 * float64 reference (whose error model adds the f16 stores), and on lavapipe through an
 * emulation of the cooperative matrix instructions
 * (tests/mlp/test_mlp_mat_train_emulated.c). */
typedef enum spvgen_mlp_loss {
  SPVGEN_MLP_LOSS_L2 = 0,
  SPVGEN_MLP_LOSS_RELATIVE_L2 = 1,
  SPVGEN_MLP_LOSS_COUNT = 2,
} spvgen_mlp_loss;

typedef enum spvgen_mlp_optimizer {
  SPVGEN_MLP_OPTIMIZER_ADAM = 0,
  SPVGEN_MLP_OPTIMIZER_SGD = 1,
  SPVGEN_MLP_OPTIMIZER_COUNT = 2,
} spvgen_mlp_optimizer;

/* The precision of the hash grid table's gradient (the atomic sums of the gradient
 * kernel, spvgen_mlp_train_config below):
 *   AUTO  F16 where the device has shaderFloat16VectorAtomics
 *         (SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR) and the grid has exactly 2 features per
 *         level (one 32-bit atomic per corner in place of two), else F32: on the H100 the
 *         f16 pairs made the mat gradient kernel of a 16 x 2 grid 11% faster, while 8
 *         features (two 4-vector atomics per corner) made it 51% slower than f32
 *         (bench/results/mlp-train-hashgrid-h100-2026-11-26-s5.md);
 *   F32   f32 atomic adds, one per feature (OpAtomicFAddEXT, or compare-exchange loops
 *         where the device lacks shaderBufferFloat32AtomicAdd);
 *   F16   f16 vectors of 2 or 4 features added by one atomic (OpAtomicFAddEXT on an f16
 *         vector, AtomicFloat16VectorNV: as tiny-cuda-nn adds __half2), the values times
 *         grid_gradient_scale, a power of two (0: 1024), so that a point's share of the
 *         mean loss's gradient stays clear of f16's subnormals; the optimizer divides it
 *         out. Needs the feature and features >= 2. The sums round to f16 (11 bits) at
 *         every add: lib/ref/ref_mlp_train.h states the bound the tests check. An entry's
 *         sum times the scale must stay below 65504 (f16's largest; beyond it the sum is
 *         inf and Adam's update NaN): an entry's gradient is at most the largest over
 *         the points of |d(the point's loss summed over its outputs) / dfeature| /
 *         output_width, so 1024 leaves room for that up to ~64; lower the scale for
 *         losses whose gradients reach further (relative L2 with outputs near 0). */
typedef enum spvgen_mlp_grid_gradient {
  SPVGEN_MLP_GRID_GRADIENT_AUTO = 0,
  SPVGEN_MLP_GRID_GRADIENT_F32 = 1,
  SPVGEN_MLP_GRID_GRADIENT_F16 = 2,
  SPVGEN_MLP_GRID_GRADIENT_COUNT = 3,
} spvgen_mlp_grid_gradient;

/* How the mat gradient kernel spreads the hash grid's work over its workgroup: the
 * lookups of the forward (the encoded inputs staged for a chunk of points) and the
 * scatter of the backward (each point's d(loss)/d(encoding), read from shared memory,
 * added into the table's gradient with atomics), both a piece of work per (point, level)
 * pair of the chunk:
 *   AUTO         FLAT (the pairs keep every invocation busy where the chunk has fewer
 *                points than the workgroup has invocations, the H100 plans' 64 points
 *                on 128, and otherwise do what LEVEL_LOOP does in one loop);
 *   LEVEL_LOOP   a loop over the levels around the chunk's points strided over the
 *                invocations (invocations past the chunk's points idle);
 *   FLAT         the chunk's points x levels pairs strided over all invocations, a
 *                level's points on consecutive invocations (the level uniform across a
 *                subgroup where the chunk's points are a multiple of the subgroup size:
 *                no divergence between dense and hashed levels, one level's parameters);
 *   FLAT_BY_POINT  the same pairs, a point's levels on consecutive invocations.
 * The loop variant runs one point per invocation and takes AUTO only. */
typedef enum spvgen_mlp_grid_spread {
  SPVGEN_MLP_GRID_SPREAD_AUTO = 0,
  SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP = 1,
  SPVGEN_MLP_GRID_SPREAD_FLAT = 2,
  SPVGEN_MLP_GRID_SPREAD_FLAT_BY_POINT = 3,
  SPVGEN_MLP_GRID_SPREAD_COUNT = 4,
} spvgen_mlp_grid_spread;

/* Two forms of the mat gradient kernel's shared memory (spvgen_mlp_train_desc), each a
 * lever that frees bytes for a larger chunk of points (docs/design-notes.md, "mat
 * training of wide networks: where the 48 KiB go" and "mat training: each lever only
 * where it buys the chunk"):
 *   grad_bias       the layers' biases, staged once for all the chunks:
 *     AUTO          ROWS where the plan's chunk fits with them, else ROW;
 *     ROWS          16 rows per layer (the row stride padded by 8 halves), an
 *                   accumulator fragment loaded from them with that stride, as the
 *                   inference kernel does (the form before the wide networks);
 *     ROW           one zero-padded row per layer, the fragment loaded from it with a
 *                   stride of 0 (SPV_KHR_cooperative_matrix allows Stride 0 for loads):
 *                   1/16 of the bytes;
 *   grad_act_deriv  act'(z) of the hidden layers whose derivative is not a function of
 *                   their f16 output (SiLU; leaky ReLU with a slope <= 0), kept from
 *                   the forward of a chunk to its backward:
 *     AUTO          SHARED where the plan's chunk fits with it, else REGISTERS (with
 *                   bias ROW: the registers are the last lever);
 *     SHARED        f16 blocks in shared memory (P x the layer's padded width each);
 *     REGISTERS     f16 accumulator fragments in the registers of the subgroup whose
 *                   forward computed them (the backward's owner of the same delta
 *                   fragment), at most 8 per subgroup: more is refused.
 *                   Networks with no such layer keep nothing either way.
 * The plan tries its chunks (points_per_group 64, 32, 16; the held form first) from the
 * largest, and at each the forms in the order ROWS + SHARED, ROW + SHARED, ROW +
 * REGISTERS (only those the desc allows, ROWS + REGISTERS where the desc asks for both):
 * a lever is taken only where it makes a larger chunk (or the held form) fit. The plan's
 * desc holds the resolved forms. Other variants take AUTO only. */
typedef enum spvgen_mlp_grad_bias {
  SPVGEN_MLP_GRAD_BIAS_AUTO = 0,
  SPVGEN_MLP_GRAD_BIAS_ROWS = 1,
  SPVGEN_MLP_GRAD_BIAS_ROW = 2,
  SPVGEN_MLP_GRAD_BIAS_COUNT = 3,
} spvgen_mlp_grad_bias;

typedef enum spvgen_mlp_grad_act_deriv {
  SPVGEN_MLP_GRAD_ACT_DERIV_AUTO = 0,
  SPVGEN_MLP_GRAD_ACT_DERIV_SHARED = 1,
  SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS = 2,
  SPVGEN_MLP_GRAD_ACT_DERIV_COUNT = 3,
} spvgen_mlp_grad_act_deriv;

/* "l2", "rel-l2"; "adam", "sgd"; "auto", "f32", "f16"; "auto", "level-loop", "flat",
 * "flat-by-point"; "auto", "rows", "row"; "auto", "shared", "registers"; NULL for
 * unknown values. */
const char *spvgen_mlp_loss_name(spvgen_mlp_loss loss);
bool spvgen_mlp_loss_parse(const char *name, spvgen_mlp_loss *out);
const char *spvgen_mlp_optimizer_name(spvgen_mlp_optimizer opt);
bool spvgen_mlp_optimizer_parse(const char *name, spvgen_mlp_optimizer *out);
const char *spvgen_mlp_grid_gradient_name(spvgen_mlp_grid_gradient g);
bool spvgen_mlp_grid_gradient_parse(const char *name, spvgen_mlp_grid_gradient *out);
const char *spvgen_mlp_grid_spread_name(spvgen_mlp_grid_spread s);
bool spvgen_mlp_grid_spread_parse(const char *name, spvgen_mlp_grid_spread *out);
const char *spvgen_mlp_grad_bias_name(spvgen_mlp_grad_bias b);
bool spvgen_mlp_grad_bias_parse(const char *name, spvgen_mlp_grad_bias *out);
const char *spvgen_mlp_grad_act_deriv_name(spvgen_mlp_grad_act_deriv a);
bool spvgen_mlp_grad_act_deriv_parse(const char *name, spvgen_mlp_grad_act_deriv *out);

/* The layers variant's training plan: its distinct GEMM plans and kernels at most. */
#define SPVGEN_MLP_TRAIN_LAYERS_MAX_GEMMS 24
/* the GEMMs' main and reduction kernels, the loss and its sum, and per activation a
 * derivative and an activation kernel */
#define SPVGEN_MLP_TRAIN_LAYERS_MAX_KERNELS (2 * SPVGEN_MLP_TRAIN_LAYERS_MAX_GEMMS + 2 + 2 * SPVGEN_MLP_ACT_COUNT)

typedef struct spvgen_mlp_train_desc {
  spvgen_mlp_desc net; /* the network, as for inference (output_type is not used:
                          the targets are f32) */
  spvgen_mlp_loss loss;
  spvgen_mlp_optimizer optimizer;
  float beta1, beta2, epsilon; /* Adam; 0: 0.9, 0.999, 1e-8 */
  float weight_decay;          /* 0: none */
  uint32_t grad_workgroups;    /* gradient slots = workgroups of the gradient kernel;
                                  0: 64 */
  uint32_t grad_workgroup_size; /* W, points a workgroup reduces at once; 0: the largest
                                   of 64, 32, ... whose shared memory fits the device */
  bool grad_slot_adds;          /* mat: add every chunk's weight gradients to the slot
                                   instead of holding them in registers across the
                                   chunks (the held form's limits: below) */
  spvgen_mlp_grid_gradient grid_gradient; /* hash grid: the table's gradient, f32 or f16
                                             (AUTO: above; resolved in the plan) */
  float grid_gradient_scale;    /* grid_gradient F16: the power of two the table's
                                   gradient is kept times (0: 1024; F32: leave 0) */
  spvgen_mlp_grid_spread grid_spread; /* hash grid, mat: how the lookups and the
                                         scatter spread over the workgroup (above;
                                         resolved in the plan) */
  spvgen_mlp_grad_bias grad_bias;           /* mat: the biases' form in shared memory */
  spvgen_mlp_grad_act_deriv grad_act_deriv; /* mat: where act'(z) is kept (both above;
                                               resolved in the plan) */
} spvgen_mlp_train_desc;

typedef struct spvgen_mlp_train_config {
  spvgen_mlp_train_desc desc; /* zero fields resolved */
  spvgen_mlp_config net;      /* the network's plan: layers, weight layout, variant */
  uint32_t grad_workgroups;
  uint32_t grad_local_size[3];
  uint32_t grad_shared_bytes;
  bool grad_held;             /* mat: the weight-gradient tiles held across the chunks */
  uint32_t grad_act_deriv_frags; /* mat, grad_act_deriv REGISTERS: the act'(z) fragments
                                    (f16) a subgroup keeps from a chunk's forward to its
                                    backward; 0 where none are kept in registers */
  uint32_t opt_local_size[3];
  uint32_t opt_table_groups; /* hash grid: the optimizer's workgroups over the table (the
                                quads need, up to what 65535 leaves; the kernel loops over
                                the rest); spvgen_mlp_train_optimizer_groups adds the
                                network's */
  uint64_t elements;       /* E = net.weight_bytes / 2 */
  /* The gradient buffer (loop and mat variants): grad_workgroups slots of slot_elements
   * f32 each (slot g at g * slot_elements), then, with the hash grid, the table's
   * gradient: element e >= slot_elements of the layout (e < E) at f32 element
   * grid_grad_offset + e - slot_elements (desc.grid_gradient F32), or (F16) at f16
   * element 2 grid_grad_offset + e - slot_elements, the gradient times
   * desc.grid_gradient_scale. slot_elements = E, or net.grid_offset / 2 with the hash grid (the
   * network's part: the table is not summed per workgroup, its gradient is added there
   * with atomics); grid_grad_offset = grad_workgroups * slot_elements (0 without it). */
  uint64_t slot_elements;
  uint64_t grid_grad_offset;
  /* mat's slot-adds form (grad_held false): the bytes of the gradient slot read and
   * written per point, 8 slot_elements / net.desc.points_per_group (each chunk adds its
   * sums to the whole f32 slot); 0 for the held form and the other variants. AUTO weighs
   * it (spvgen_mlp_train_plan below). */
  uint32_t grad_slot_bytes_per_point;
  uint64_t grad_bytes;     /* grad_workgroups * slot_elements * 4 + (E - slot_elements)
                              * 4 (F16: * 2) (vec: 0, the host sizes it) */
  uint64_t state_bytes;    /* Adam 3 E * 4, SGD E * 4 */
  uint64_t loss_bytes;     /* the least: grad_workgroups * 4 (+ 4 per step of history) */
  uint64_t params;         /* trainable values: sum of outputs * (inputs + bias), plus the
                              hash grid's table (grid_entries * features) */
  uint64_t features;
  uint32_t grad_push_constant_size; /* loop, mat 4; vec 8 + 8 * layer_count; with device
                                       addresses the block's whole size, pointers included:
                                       loop, mat 48; vec 48 + 8 * layer_count */
  uint32_t opt_push_constant_size;  /* 8; vec 12; device addresses 48 */
  char name[160];          /* "train loop 2-64x3-3 ... l2 adam w32 g64" */
  /* The layers variant (else 0): the gradient step's GEMM plans (forward, weight and bias
   * gradients, the deltas of the layer before; layers of one class share a plan), which
   * plan each layer's GEMMs take (layers_da[0] unused), the f16 elements per point of
   * each layer's output in the workspace, and the step's distinct kernels (see "Training
   * on the layers variant" below). */
  uint32_t layers_gemm_count;
  spvgen_gemm_config layers_gemms[SPVGEN_MLP_TRAIN_LAYERS_MAX_GEMMS];
  uint8_t layers_fwd[SPVGEN_MLP_MAX_LAYERS], layers_dw[SPVGEN_MLP_MAX_LAYERS];
  uint8_t layers_db[SPVGEN_MLP_MAX_LAYERS], layers_da[SPVGEN_MLP_MAX_LAYERS];
  uint32_t layers_ld[SPVGEN_MLP_MAX_LAYERS];
  uint32_t layers_kernel_count;
  uint8_t layers_kernel_kind[SPVGEN_MLP_TRAIN_LAYERS_MAX_KERNELS]; /* internal kinds */
  uint8_t layers_kernel_gemm[SPVGEN_MLP_TRAIN_LAYERS_MAX_KERNELS];
} spvgen_mlp_train_config;

/* Which of the two kernels. */
typedef enum spvgen_mlp_train_kernel {
  SPVGEN_MLP_TRAIN_GRADIENT = 0,
  SPVGEN_MLP_TRAIN_OPTIMIZER = 1,
} spvgen_mlp_train_kernel;

/* As spvgen_mlp_plan / plans / emit / spvgen_mlp, for training. The network's variant
 * AUTO means mat where the device and the network allow it (cooperative matrices), else
 * loop; and the layers variant (below) instead of mat where mat's plan is the slot-adds
 * form with a large grad_slot_bytes_per_point (wide networks: docs/mlp.md "Training"
 * has the line and the measurements) and the layers variant plans the desc (else mat,
 * silently); the plan's net.selection then begins "auto:" and says why. vec only when
 * asked for; a named variant is refused naming the reason where the device or the
 * network does not allow it. plans lists, for AUTO, the plan spvgen_mlp_train_plan gives
 * first, then (where that is layers) mat's, then loop plans; the one vec, mat or layers
 * plan when net.variant asks for it. spvgen_mlp_train builds one of the two kernels of
 * spvgen_mlp_train_emit: its AUTO leaves the layers variant out (mat or loop), so a plan
 * that sizes its buffers must leave it out too (name the variant, or check that
 * spvgen_mlp_train_plan's is not SPVGEN_MLP_LAYERS); a desc naming layers is refused
 * there, naming spvgen_mlp_train_emit_kernel. */
spvgen_status spvgen_mlp_train_plan(const spvgen_mlp_train_desc *desc,
                                    const spvgen_device_caps *caps, spvgen_mlp_train_config *plan,
                                    char *message, size_t message_size);
spvgen_status spvgen_mlp_train_plans(const spvgen_mlp_train_desc *desc,
                                     const spvgen_device_caps *caps,
                                     spvgen_mlp_train_config *plans, uint32_t max,
                                     uint32_t *count, char *message, size_t message_size);
/* info: bindings and push constants as above; groups set (gradient: grad_workgroups;
 * optimizer: spvgen_mlp_train_optimizer_groups). */
spvgen_status spvgen_mlp_train_emit(spvgen_module *m, const spvgen_mlp_train_config *plan,
                                    spvgen_mlp_train_kernel which, spvgen_kernel_info *info);
spvgen_status spvgen_mlp_train(const spvgen_mlp_train_desc *desc, const spvgen_device_caps *caps,
                               spvgen_mlp_train_kernel which, spvgen_kernel *kernel,
                               char *message, size_t message_size);
void spvgen_mlp_train_optimizer_groups(const spvgen_mlp_train_config *plan, uint32_t groups[3]);

/* ------------------------------------------- training on the layers variant ----
 * (net.variant = SPVGEN_MLP_LAYERS, or AUTO's choice above.) The gradient step is a sequence of
 * dispatches instead of one gradient kernel, each with a compute-to-compute barrier after
 * it (as the inference plans of several kernels, above); then the optimizer kernel above,
 * unchanged, reading ONE gradient slot (grad_workgroups is 1: the GEMMs sum over every
 * point, deterministically). Per step, for N points:
 *   1. forward, layer by layer: a GEMM per layer as inference runs it, but every layer's
 *      output kept in the workspace (f16, layers_ld[l] elements per point; the last
 *      layer's output too, f16). Activations other than none and relu: the GEMM writes
 *      z, a kernel a = act(z) (silu, and leaky relu with a negative slope, keep z for
 *      act'); at the output the loss kernel applies it to the stored z;
 *   2. the loss kernel: per output, the loss and its derivative times act' (relu: y >
 *      0; the others act'(z) in f32), stored f16 unscaled (2 (y - t) for L2) as the output layer's deltas, each
 *      workgroup's loss share into the workspace; a ones vector (N f16) for the bias
 *      sums; then a one-invocation kernel sums the shares into loss element 0;
 *   3. per layer from the last: the weight gradient dW = delta^T a_prev, a split-K GEMM
 *      (M outputs, N inputs, K the points; alpha 1 / (N output_width), the mean's scale),
 *      written f32 straight into the gradient buffer at the layer's place (f32 element
 *      matrix_offset / 2, ld row_stride / 2); the bias gradient delta^T ones, the same
 *      GEMM with one column, at bias_offset / 2; and (not for the first layer) the deltas
 *      of the layer before, delta W (a GEMM, f16 out), then unless that layer's activation
 *      is none its derivative in place (relu: the mask kernel, delta = 0 where its stored
 *      output is 0; the others delta act' in f32, from the stored a or the kept z).
 * The workspace's planes of activations, z and deltas hold the N points rounded up to a
 * multiple of 256 rows: the GEMMs that read and write only the workspace (the forward of
 * every layer but the first, the deltas' GEMMs) run on those whole rows (no M edge), the
 * rows past N computing whatever the workspace held; the first layer's forward (the
 * caller's points), the kernels of step 2 and the derivatives, and the gradient GEMMs
 * (K the points: a row past N would add its garbage to the sums) stop at N.
 * Scope: every activation (none, relu, leaky relu, sigmoid, tanh, silu, exp); biases;
 * encoding none, f16 input, descriptors; the L2 and relative L2 losses; Adam and SGD.
 * Anything else is refused naming it. The plan's net of a network with sigmoid, tanh,
 * exp or leaky relu is no inference plan (spvgen_mlp_emit_kernel and
 * spvgen_mlp_dispatch_for refuse it naming the layer). The gradient
 * buffer holds every real element of the layout after a step (padding is never written;
 * the optimizer skips it); the loss buffer needs 1 + steps elements for the history.
 *
 * spvgen_mlp_train_emit(GRADIENT) refuses a layers plan naming spvgen_mlp_train_emit_kernel;
 * the optimizer is emitted as for the other variants. For every other variant the
 * functions below describe the one gradient kernel (count 1, its bindings 0 .. 4 = the
 * buffers of the same number, push: the point count). */
typedef enum spvgen_mlp_train_buffer {
  SPVGEN_MLP_TRAIN_BUFFER_INPUT = 0,
  SPVGEN_MLP_TRAIN_BUFFER_WEIGHTS = 1,   /* f16 */
  SPVGEN_MLP_TRAIN_BUFFER_TARGETS = 2,
  SPVGEN_MLP_TRAIN_BUFFER_GRADIENTS = 3,
  SPVGEN_MLP_TRAIN_BUFFER_LOSS = 4,
  SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE = 5, /* spvgen_mlp_train_workspace_bytes; needs no
                                            initialization, holds nothing between steps */
} spvgen_mlp_train_buffer;

/* One dispatch of the gradient step for a point count. */
typedef struct spvgen_mlp_train_dispatch {
  uint32_t kernel;       /* which of the step's distinct kernels (emit_kernel's index) */
  uint32_t groups[3];
  uint8_t push[sizeof(spvgen_gemm_push)]; /* the push-constant bytes */
  uint32_t push_size;
  uint32_t binding_count; /* binding i of the kernel's info, in its order, is buffer
                             bindings[i].buffer from byte bindings[i].offset */
  struct spvgen_mlp_train_dispatch_binding {
    spvgen_mlp_train_buffer buffer;
    uint64_t offset;
  } bindings[5];
} spvgen_mlp_train_dispatch;

/* The gradient step's distinct kernels and its dispatches (0 for a plan not made by
 * spvgen_mlp_train_plan; 1 and 1 for the variants of one gradient kernel). */
uint32_t spvgen_mlp_train_kernel_count(const spvgen_mlp_train_config *plan);
uint32_t spvgen_mlp_train_dispatch_count(const spvgen_mlp_train_config *plan);
/* Kernel `index` into m; info as spvgen_mlp_train_emit's (the GEMMs': spvgen_gemm_emit_kernel's). */
spvgen_status spvgen_mlp_train_emit_kernel(spvgen_module *m, const spvgen_mlp_train_config *plan, uint32_t index,
                                           spvgen_kernel_info *info);
/* Dispatch `index` of the step for `points` points: refuses an index past the count and
 * a point count the GEMMs cannot take, naming them. */
spvgen_status spvgen_mlp_train_dispatch_for(const spvgen_mlp_train_config *plan, uint32_t index, uint64_t points,
                                            spvgen_mlp_train_dispatch *dispatch, char *message,
                                            size_t message_size);
/* The workspace's bytes for `points` points (0: the plan needs none; layers: the two
 * activation halves, and a padded plan's copy of the weights after them). */
uint64_t spvgen_mlp_train_workspace_bytes(const spvgen_mlp_train_config *plan, uint64_t points);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
