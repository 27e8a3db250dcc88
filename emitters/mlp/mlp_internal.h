/* emitters/mlp/mlp_internal.h — what the MLP variants share with emitters/mlp/mlp.c: one
 * table entry per variant (as emitters/gemm/gemm_internal.h), and the emission helpers
 * every variant uses (encoding, activations, the I/O bindings). */
#ifndef SPVGEN_EMITTERS_MLP_INTERNAL_H
#define SPVGEN_EMITTERS_MLP_INTERNAL_H

#include <stdarg.h>

#include "../common/common.h"
#include "spvgen/mlp.h"

typedef struct mlp_variant_ops {
  const char *name; /* as spvgen_mlp_variant_name */
  /* Completes a plan whose desc and layers are resolved except the knobs
   * (workgroup_size, points_per_group: 0 = the variant chooses): checks what the variant
   * needs, fills the knobs, local_size, points_per_workgroup, shared_bytes, features,
   * subgroup_size. On failure a status and a message (mlp_fail). */
  spvgen_status (*plan)(const spvgen_device_caps *caps, spvgen_mlp_config *plan, char *msg,
                        size_t size);
  /* Knob settings worth trying (copies of desc; knobs desc sets are kept). */
  uint32_t (*candidates)(const spvgen_device_caps *caps, const spvgen_mlp_desc *desc,
                         spvgen_mlp_desc *out, uint32_t max);
  /* Emits the kernel of a complete plan into m (errors: the module's sticky error). */
  void (*emit)(spvgen_module *m, const spvgen_mlp_config *plan);
  /* Emits the network as a function (NULL: the variant has no function shape). */
  void (*emit_function)(spvgen_module *m, const spvgen_mlp_config *plan,
                        spvgen_mlp_function_info *info);
  /* The same function reading the weights through `weights`, a device-address buffer
   * of the kernel's push constants (mlp_emit_pointwise_kernel with device addresses;
   * NULL: the variant has no function shape). */
  void (*emit_function_at)(spvgen_module *m, const spvgen_mlp_config *plan, spvgen_mlp_function_info *info,
                           const ek_buffer *weights);
} mlp_variant_ops;

extern const mlp_variant_ops mlp_variant_vec;
extern const mlp_variant_ops mlp_variant_mat;
extern const mlp_variant_ops mlp_variant_loop;
extern const mlp_variant_ops mlp_variant_layers;

/* The layers variant (layers.c): dispatch `index`'s kernel (layer index's GEMM), one
 * workspace half's bytes for a point count, and a dispatch of the plan. */
spvgen_status mlp_layers_emit_kernel(spvgen_module *m, const spvgen_mlp_config *p, uint32_t index,
                                     spvgen_kernel_info *info);
uint64_t mlp_layers_half_bytes(const spvgen_mlp_config *p, uint64_t points);
/* The workspace of a layers plan: the two halves, then (pad_width) the padded copy of the
 * weights, mlp_layers_pad_bytes of it (0 unpadded). */
uint64_t mlp_layers_workspace_bytes(const spvgen_mlp_config *p, uint64_t points);
uint64_t mlp_layers_pad_bytes(const spvgen_mlp_config *p);
/* Layer l's GEMM N and K: its outputs and inputs, padded to pad_width where the plan pads
 * (hidden outputs, and the inputs of the layers after the first). */
uint32_t mlp_layers_n(const spvgen_mlp_config *p, uint32_t l);
uint32_t mlp_layers_k(const spvgen_mlp_config *p, uint32_t l);
/* A layers plan with its padding taken off (the GEMMs on the real widths, no pad kernel):
 * training's net, whose step keeps the unpadded GEMMs. Nothing for an unpadded plan. */
spvgen_status mlp_layers_unpad(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg, size_t size);
spvgen_status mlp_layers_dispatch(const spvgen_mlp_config *p, uint32_t index, uint64_t points,
                                  spvgen_mlp_dispatch *out, char *msg, size_t size);

/* The layers variant's GEMM helpers (layers.c): the largest power of two up to cap that
 * divides x; whether two GEMM descs are one RUNTIME kernel (shape hints aside); the plan
 * of a RUNTIME class (cls, its leading dimensions ld[3] = lda, ldb, ldd as planned),
 * with the knobs the fixed shape would take and no edge shift. */
/* The GEMM class of g (spvgen_gemm_class_for of its m, n, k and of ld = lda, ldb, ldd)
 * for any point count: the points in M, or in K (points_in_k); whole_rows (points in M):
 * M is the workspace's rows, the point count rounded up (mlp_layers_rows), for a GEMM
 * that reads and writes the workspace only. */
spvgen_status mlp_layers_gemm_class(spvgen_gemm_desc *g, const uint32_t ld[3], bool points_in_k, bool whole_rows);
/* The rows the workspace holds per activation plane for a point count: the count
 * rounded up to whole tiles of every GEMM the layers variant plans (layers.c). */
uint64_t mlp_layers_rows(uint64_t points);
bool mlp_layers_same_class(const spvgen_gemm_desc *a, const spvgen_gemm_desc *b);
spvgen_status mlp_layers_plan_gemm(const spvgen_device_caps *caps, const spvgen_gemm_desc *cls, const uint32_t ld[3],
                                   spvgen_gemm_config *out, char *msg, size_t size);

/* Training on the layers variant (layers_train.c, spvgen/mlp.h "Training on the layers
 * variant"): completes a training plan whose net is a layers plan (the backward GEMMs,
 * the kernels); the step's kernels and dispatches. */
spvgen_status mlp_layers_train_plan(const spvgen_device_caps *caps, spvgen_mlp_train_config *t, char *msg,
                                    size_t size);
uint32_t mlp_layers_train_dispatch_count(const spvgen_mlp_train_config *t);
/* Whether layer l's forward GEMM applies its activation (else a kernel of its own does, on
 * a hidden layer, or the loss kernel, on the output layer). */
bool mlp_layers_train_act_in_gemm(const spvgen_mlp_config *p, uint32_t l);
spvgen_status mlp_layers_train_emit_kernel(spvgen_module *m, const spvgen_mlp_train_config *t, uint32_t index,
                                           spvgen_kernel_info *info);
spvgen_status mlp_layers_train_dispatch(const spvgen_mlp_train_config *t, uint32_t index, uint64_t points,
                                        spvgen_mlp_train_dispatch *out, char *msg, size_t size);
uint64_t mlp_layers_train_workspace_bytes(const spvgen_mlp_train_config *t, uint64_t points);

/* Writes "spvgen_mlp_plan: <fmt>" into msg; returns st. */
spvgen_status mlp_fail(char *msg, size_t size, spvgen_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static inline uint32_t mlp_ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static inline uint32_t mlp_round_up(uint32_t a, uint32_t b) { return mlp_ceil_div(a, b) * b; }

/* The widest layer input or output of the plan (encoded input included). */
uint32_t mlp_max_width(const spvgen_mlp_config *p);

/* Encodes the raw input components in[0..input_width) (f32 ids) into
 * out[0..encoded_width) (f32 ids), as spvgen_mlp_encoding documents. */
void mlp_encode(spvgen_module *m, const spvgen_mlp_config *p, const uint32_t *in, uint32_t *out);

/* f32 -> f32 activation: the one builder of emitters/common (an unknown value sets the
 * module's error), in the MLP's style. */
static inline uint32_t mlp_activation_f32(spvgen_module *m, const spvgen_mlp_config *p, uint32_t x,
                                          spvgen_mlp_activation act) {
  return ek_activation(m, x, act, p->desc.leaky_slope, EK_ACT_MLP);
}

/* The layers layer_loop evaluates in a loop (vec.c): first .. first + count - 1; count 0
 * when the plan has no layer loop. */
void mlp_vec_loop_layers(const spvgen_mlp_config *p, uint32_t *first, uint32_t *count);

/* The driver's first compile of the plan's kernel, ms, estimated (plan_cost.c). */
uint32_t mlp_compile_ms(const spvgen_device_caps *caps, const spvgen_mlp_config *p);
/* The compile budget of a desc (compile_budget_ms, or the default). */
uint32_t mlp_budget_ms(const spvgen_mlp_desc *d);

/* sigmoid on a cooperative vector: on Tanh for f16, Exp and a division for f32 (vec.c; the
 * vec training kernel's silu derivative too). */
uint32_t mlp_vec_sigmoid(spvgen_module *m, uint32_t y);
/* The activation on a float16 cooperative vector (vec.c; the vec training kernel too). */
uint32_t mlp_vec_activation(spvgen_module *m, const spvgen_mlp_config *p, uint32_t y,
                            spvgen_mlp_activation act);

/* The weight buffer of a function: info->weights_buffer, or a new one at (0, 1). */
ek_buffer mlp_weights_buffer(spvgen_module *m, spvgen_mlp_function_info *info);

/* The per-invocation kernel the loop and vec variants share: binding 0/2 points, the push
 * constant, one point per invocation through the variant's function. `array_shape`: the
 * function takes and returns float32 arrays (loop), else float32 cooperative vectors. */
void mlp_emit_pointwise_kernel(spvgen_module *m, const spvgen_mlp_config *p,
                               const mlp_variant_ops *ops, bool array_shape);

/* The SpecId of layer l's matrix offset (optimal weights). */
static inline uint32_t mlp_spec_id(const spvgen_mlp_desc *d, uint32_t l) {
  return (d->spec_id_base ? d->spec_id_base : SPVGEN_MLP_SPEC_MATRIX_OFFSET) + l;
}

/* The loop variant's kernel moves a point of more components than this through a
 * run-time loop over a Function array, fewer one component after another. */
#define MLP_UNROLLED_IO 4u

/* A plan of variant v for a resolved config (base: desc checked, layers and layout filled;
 * its weight_layout row-major or optimal), with the knobs of `knobs` (NULL: base's desc's)
 * (emitters/mlp/mlp.c). */
spvgen_status mlp_plan_variant(const spvgen_device_caps *caps, const spvgen_mlp_config *base,
                               const spvgen_mlp_desc *knobs, spvgen_mlp_variant v, spvgen_mlp_config *p,
                               char *msg, size_t size);
/* The choice of variant, weight layout and knobs where the desc leaves them open
 * (emitters/mlp/select.c): fills *plan, its selection and estimate. layers: the caller
 * takes a plan of several kernels (the layers variant may be chosen). */
spvgen_status mlp_select(const spvgen_device_caps *caps, const spvgen_mlp_config *base, bool layers,
                         spvgen_mlp_config *plan, char *msg, size_t size);
/* spvgen_mlp_plan, with the layers variant open to AUTO (layers) or not: spvgen_mlp
 * emits one kernel (emitters/mlp/mlp.c). */
spvgen_status mlp_plan_desc(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps, bool layers,
                            spvgen_mlp_config *plan, char *msg, size_t size);
/* mlp_select_find_device: select.h */
struct mlp_select_device;
/* The variant class of a plan (select.h: vec with row-major or optimal weights, mat,
 * loop, layers). */
int mlp_select_class(const spvgen_mlp_config *p);
/* The cost model's ns per point for a plan on the device (select.c). */
double mlp_select_estimate(const spvgen_device_caps *caps, const spvgen_mlp_config *p);

/* Writes p->name from the plan (emitters/mlp/mlp.c). */
void mlp_plan_name(spvgen_mlp_config *p);

/* Writes "spvgen_mlp_train_plan: <fmt>" into msg; returns st (emitters/mlp/train.c). */
spvgen_status mlp_train_fail(char *msg, size_t size, spvgen_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The loss of output y against target t (f32 ids) and dLoss/dy, before the 1 / (N
 * outputs) of the mean; emitters/mlp/train.c. */
void mlp_loss_terms(spvgen_module *m, spvgen_mlp_loss loss, uint32_t y, uint32_t t, uint32_t *lv,
                    uint32_t *grad);

/* act'(z) from z and y = act(z) (f32 ids); emitters/mlp/train.c. */
uint32_t mlp_act_deriv_f32(spvgen_module *m, const spvgen_mlp_config *p, uint32_t z, uint32_t y,
                           spvgen_mlp_activation act);

/* Training on the mat variant (emitters/mlp/mat.c). mlp_mat_train_plan completes a
 * training plan whose net is a mat plan: the chunk of points (net.points_per_group: 0
 * chooses), the subgroups (invocations: 0 chooses), the shared memory; sets
 * grad_local_size, grad_shared_bytes and the net's knobs. mlp_mat_emit_gradient emits
 * the gradient kernel (the loop variant's bindings and push constants). */
spvgen_status mlp_mat_train_plan(const spvgen_device_caps *caps, spvgen_mlp_train_config *t,
                                 uint32_t invocations, char *msg, size_t size);
void mlp_mat_emit_gradient(spvgen_module *m, const spvgen_mlp_train_config *t);

/* ----------------------------------------------------------- hash grid ----
 * emitters/mlp/grid.c (spvgen/mlp.h, SPVGEN_MLP_ENCODING_HASH_GRID). */

/* Checks and completes desc.grid and fills p->grid[], grid_entries and encoded_width. */
spvgen_status mlp_grid_resolve(spvgen_mlp_config *p, char *msg, size_t size);

/* A function's view of the grid: the table's buffer (f16 elements; the table at element
 * p->grid_offset / 2) and the level parameters as Function arrays (mlp_grid_begin, inside
 * the function that uses them). */
typedef struct mlp_grid {
  const spvgen_mlp_config *p;
  ek_buffer table;
  uint32_t f32, u32;
  uint32_t scale, res, entries, offset, hashed; /* Function arrays, one value per level */
} mlp_grid;
void mlp_grid_begin(spvgen_module *m, const spvgen_mlp_config *p, const ek_buffer *table,
                    mlp_grid *g);
/* Level `level` (a u32 id) of point x[input_width] (f32 ids): its features feat[0..F)
 * (f32 ids), the D-linear interpolation of the 2^D corner entries, summed in f32. */
void mlp_grid_level_features(spvgen_module *m, const mlp_grid *g, uint32_t level, const uint32_t *x,
                             uint32_t *feat);
/* A buffer that atomic adds go to. f32 sums: its f32 view where the plan has
 * SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD (floats; OpAtomicFAddEXT), else its u32 view
 * (words; compare-exchange loops). f16 sums (the hash grid's table gradient, desc
 * grid_gradient F16, the values times `scale`): its view as f16 vectors of `width` (2 or
 * 4) where the plan has SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR (halves; OpAtomicFAddEXT on
 * the vector), else as u32 words of two f16 (hwords; compare-exchange loops: a plan
 * with the feature bit cleared, which the tests run on devices without it). */
typedef struct mlp_atomics {
  const ek_buffer *floats, *words;
  const ek_buffer *halves, *hwords;
  uint32_t width;
  float scale;
} mlp_atomics;
/* The table gradient's atomics for plan t (hash grid), into *at, with *view the buffer
 * they go through where grad itself is not (view's storage stays the caller's). With
 * descriptors call it before the entry function (a view is a second variable at
 * binding 3); with device addresses in the entry block, before grad is moved to the
 * workgroup's slot (the view is grad's pointer moved to the table's gradient,
 * grid_grad_offset). */
void mlp_grid_gradient_atomics(spvgen_module *m, const spvgen_mlp_train_config *t, const ek_buffer *grad,
                               ek_buffer *view, mlp_atomics *at);
/* The gradient of the level's table entries for dLoss/dfeature dfeat[0..F) (f32 ids):
 * weight * dfeat[f] added atomically to f32 element grad_base + (offset + index) * F + f
 * of grad (f16 sums: f16 element 2 grad_base + ...); grad_base a u32 id, a constant
 * (grid_grad_offset with descriptors, 0 where the view is moved there). */
void mlp_grid_level_scatter(spvgen_module *m, const mlp_grid *g, uint32_t level, const uint32_t *x,
                            const uint32_t *dfeat, const mlp_atomics *grad, uint32_t grad_base);
/* Every level into the Function f32 array `arr` at arr_base + level * F + f (a run-time
 * loop over the levels with the Unroll hint). */
void mlp_grid_encode_array(spvgen_module *m, const mlp_grid *g, const uint32_t *x, uint32_t arr,
                           uint32_t arr_base);
/* The same, returning the encoded_width values as ids. */
void mlp_grid_encode(spvgen_module *m, const mlp_grid *g, const uint32_t *x, uint32_t *out);
/* buffer[index] += value (f32) atomically (mlp_atomics says how). */
void mlp_atomic_add_f32(spvgen_module *m, const mlp_atomics *at, uint32_t index, uint32_t value);

typedef struct mlp_io {
  ek_buffer in, out;
  ek_buffer weights; /* device addresses only (descriptors: mlp_weights_buffer) */
  spvgen_push_constant_block pc;
} mlp_io;
/* The push-constant block of a device-address kernel: the point count, then the
 * input, weights and output pointers at 8, 16 and 24. */
#define MLP_BDA_PUSH_SIZE 32u
/* Device addresses: moves the input and output pointers of io to point `first` (a u32
 * id: the workgroup's first point) in 64-bit arithmetic, so that the kernel then indexes
 * the workgroup's own points from 0 with small 32-bit indices however far past 4 GB
 * they lie. Call where every later access of io->in / io->out is dominated (views of
 * them made after). Returns n - first, or 0 where first >= n (a u32 id: the points left
 * from the workgroup's first; n the point count). Descriptors: nothing (returns n). */
uint32_t mlp_io_rebase(spvgen_module *m, const spvgen_mlp_config *p, mlp_io *io, uint32_t first, uint32_t n);
/* Training with device addresses (spvgen/mlp.h, "training"): the gradient kernel's
 * pointers (input, weights, targets, gradients, loss) and the optimizer kernel's
 * (weights, gradients, state, loss) follow its push constants, 8-byte aligned; the
 * optimizer's block is { step, learning_rate, [grad_scale,] loss_elements } then the
 * pointers at 16, 24, 32, 40. */
#define MLP_TRAIN_GRAD_POINTERS 5u
#define MLP_TRAIN_OPT_POINTERS 4u
#define MLP_TRAIN_OPT_PUSH_SIZE 48u
/* Device addresses: the input and target pointers moved to point `first` (a u32 id: a
 * chunk's first point) in 64-bit arithmetic, as mlp_io_rebase does for inference, so
 * that the chunk's points are indexed from 0. Call inside the chunk loop on copies of
 * the block's (unmoved) pointers: the moved ones are valid in that iteration only. */
void mlp_train_rebase_points(spvgen_module *m, const spvgen_mlp_config *p, ek_buffer *in, ek_buffer *tgt,
                             uint32_t first);
/* Whether the mat variant loads the input points in 16-byte chunks (f16 points without
 * encoding, input_width a multiple of 8). */
static inline bool mlp_mat_input_chunks(const spvgen_mlp_desc *d) {
  return d->encoding == SPVGEN_MLP_ENCODING_NONE && d->input_type == SPVGEN_COMPONENT_F16 && d->input_width % 8 == 0;
}
/* The memory operands of a cooperative load or store through buffer b: Aligned 16 for a
 * device-address buffer (Vulkan wants every access through a physical pointer to say
 * its alignment; the cooperative instructions' pointers are 16-byte aligned), none
 * (the same words as NULL) for a descriptor buffer. */
static inline spvgen_memory_operands mlp_mem16(const ek_buffer *b) {
  spvgen_memory_operands mem = {0, 0, (SpvScope)0};
  if (b->ptr_type) mem.mask = SpvMemoryAccessAlignedMask, mem.alignment = 16;
  return mem;
}
/* The loop variant's network function reading the weights through `weights` (NULL: the
 * descriptor buffer of info->weights_buffer, as spvgen_mlp_emit_function). */
void mlp_loop_function(spvgen_module *m, const spvgen_mlp_config *p, spvgen_mlp_function_info *info,
                       const ek_buffer *weights);
/* The loop iterations one invocation of the loop variant's kernel runs (each loop counted
 * as its iterations + 1, the test that leaves it), with `unroll` inputs per iteration of
 * the layers' inner loops. lavapipe ends every loop of an invocation, without an error,
 * once MLP_LOOP_BUDGET iterations are spent (bench/loop_limit.c); mlp_loop_unroll picks
 * the smallest unroll (1, 2, 4, ..., then whole rows) that stays inside it. */
#define MLP_LOOP_BUDGET 65535u
uint64_t mlp_loop_iterations(const spvgen_mlp_config *p, uint32_t unroll);
uint32_t mlp_loop_unroll(const spvgen_mlp_config *p);
void mlp_declare_io(spvgen_module *m, const spvgen_mlp_config *p, mlp_io *io);
/* Loads input component c of point `point` (u32 ids) as f32. */
uint32_t mlp_load_input(spvgen_module *m, const spvgen_mlp_config *p, const mlp_io *io,
                        uint32_t point, uint32_t c);
/* Stores f32 value v as output component c of point `point` (c an id). */
void mlp_store_output(spvgen_module *m, const spvgen_mlp_config *p, const mlp_io *io,
                      uint32_t point, uint32_t c, uint32_t v);

#endif
