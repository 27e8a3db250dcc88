/* emitters/gemm/gemm_internal.h — what the GEMM variants share with emitters/gemm/gemm.c:
 * one table entry per variant (zstd's block-compressor table: one signature, picked by
 * an enum), and the plan-time helpers they use. */
#ifndef SPVGEN_EMITTERS_GEMM_INTERNAL_H
#define SPVGEN_EMITTERS_GEMM_INTERNAL_H

#include <stdarg.h>

#include "../common/common.h"
#include "spvgen/gemm.h"

typedef struct gemm_variant_ops {
  const char *name; /* as spvgen_gemm_variant_name */
  /* Completes a plan whose desc is resolved except the knobs (tile_*, workgroup_size,
   * subgroups, stages, unroll: 0 = the variant chooses): checks what the variant needs
   * from the device and the desc, fills those knobs, local_size, groups, frag_*,
   * warp_*, shared_bytes, features, subgroup_size. On failure: a status and a message
   * (gemm_fail) naming the field and the reason. */
  spvgen_status (*plan)(const spvgen_device_caps *caps, spvgen_gemm_config *plan, char *msg,
                        size_t size);
  /* Knob settings worth trying for desc on this device, best guess first: copies of desc
   * with knobs set (knobs desc already sets must be kept). Returns the count written (at
   * most max). */
  uint32_t (*candidates)(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc,
                         spvgen_gemm_desc *out, uint32_t max);
  /* Emits the kernel of a complete plan into m (errors: the module's sticky error). */
  void (*emit)(spvgen_module *m, const spvgen_gemm_config *plan);
} gemm_variant_ops;

extern const gemm_variant_ops gemm_variant_coopmat2;
extern const gemm_variant_ops gemm_variant_khr;
extern const gemm_variant_ops gemm_variant_simt;

/* Writes "spvgen_gemm_plan: <fmt>" into msg; returns st. */
spvgen_status gemm_fail(char *msg, size_t size, spvgen_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The largest u32 element index any operand reaches must stay below 2^32 (indices are
 * 32-bit in the kernels). Checked by gemm.c before the variants see a plan. */

/* Fills plan->name: "<variant> <a>,<b>-><acc>[-><out>] <tm>x<tn>x<tk> w<local> ...". */
void gemm_plan_name(spvgen_gemm_config *plan, const char *extra);

static inline uint32_t gemm_ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static inline bool gemm_pow2(uint32_t x) { return x && !(x & (x - 1)); }

/* The compute units (SMs) the planners spread tiles over: the device's, else 132 (an
 * H100's). */
static inline uint32_t gemm_units(const spvgen_device_caps *caps) {
  return caps && caps->compute_units ? caps->compute_units : 132u;
}

/* The shape a RUNTIME plan is chosen for: the desc's hints, 4096 where it gives none. */
#define GEMM_RUNTIME_HINT 4096u

/* Whether the plan's shapes are run-time values (push constants). */
static inline bool gemm_runtime(const spvgen_gemm_desc *d) { return d->shapes == SPVGEN_GEMM_SHAPES_RUNTIME; }

/* Whether the kernel's K is a constant: FIXED shapes, and a RUNTIME class of one K
 * (desc.k_fixed). Such a kernel has FIXED's K loop (coopmat2.c, tile_acc). */
static inline bool gemm_k_const(const spvgen_gemm_desc *d) { return !gemm_runtime(d) || d->k_fixed; }

/* Whether M ('m'), N ('n') or K ('k') of every shape the plan serves is a multiple of q:
 * FIXED, the value; RUNTIME, the class (m_multiple ...; K itself where k_fixed). */
static inline bool gemm_dim_multiple(const spvgen_gemm_desc *d, char dim, uint32_t q) {
  uint32_t v = gemm_runtime(d) && !(dim == 'k' && d->k_fixed)
                   ? (dim == 'm' ? d->m_multiple : dim == 'n' ? d->n_multiple : d->k_multiple)
                   : (dim == 'm' ? d->m : dim == 'n' ? d->n : d->k);
  return q && v && v % q == 0;
}

/* Whether an operand's leading dimension and batch stride (ld, stride) are multiples of q
 * for every shape the plan serves (RUNTIME: the class's ld_multiple). */
static inline bool gemm_ld_multiple(const spvgen_gemm_desc *d, uint32_t ld, uint64_t stride, uint32_t q) {
  if (gemm_runtime(d)) return q && d->ld_multiple && d->ld_multiple % q == 0;
  return q && ld % q == 0 && (d->batch <= 1 || stride % q == 0);
}

/* A leading dimension or batch stride id with the class's alignment made visible to the
 * driver (ek_gemm_aligned by the largest power of two dividing ld_multiple; FIXED: as
 * is). */
static inline uint32_t gemm_ld_hint(spvgen_module *m, const spvgen_gemm_desc *d, const ek_gemm_shape *sh,
                                    uint32_t ld) {
  uint32_t q = d->ld_multiple & (~d->ld_multiple + 1u);
  return ek_gemm_aligned(m, sh, ld, q);
}

/* ------------------------------------------------------------ the tile grid ---- */
/* grid.c: the main kernel's grid and each workgroup's tile. N tiles run across x, M
 * tiles down y, batch (x split-K slices) in z; M tiles past EK_GRID_MAX (65535: every
 * Vulkan device's least per-dimension limit) fold into x (common.h, "folded grids"):
 * x = ceil(N / tile_n) * f, y = ceil(ceil(M / tile_m) / f). A FIXED plan decodes only
 * when its M tiles fold (with constants: every other FIXED kernel emits as before); a
 * RUNTIME kernel decodes where its class asks for it (SPVGEN_GEMM_CODEGEN_FOLD_M: M is
 * per launch), with the N tiles from its push constant N and the rows from
 * NumWorkgroups.y, and returns from workgroups past M; without the bit its launch
 * refuses an M that would fold. */

/* The grid for an m x n output of the desc's tile. */
ek_folded_grid gemm_grid_of(const spvgen_gemm_desc *d, uint32_t m, uint32_t n);
/* Dispatch grid of a FIXED plan: (N tiles x folds, rows, batch); across saturates at
 * 2^32 - 1 (the caps check refuses it). */
void gemm_set_grid(spvgen_gemm_config *plan);
/* Whether a plan's kernel decodes its tile from a folded grid: RUNTIME plans with
 * SPVGEN_GEMM_CODEGEN_FOLD_M, and FIXED ones whose M tiles pass EK_GRID_MAX. */
bool gemm_grid_decodes(const spvgen_gemm_config *p);
/* The built-ins the tile needs, before the entry point: WorkgroupId, and for a RUNTIME
 * plan NumWorkgroups (which split-K's slice count reads too: one variable per module). */
typedef struct gemm_grid_vars {
  uint32_t wg;  /* WorkgroupId */
  uint32_t nwg; /* NumWorkgroups (RUNTIME), else 0 */
} gemm_grid_vars;
void gemm_grid_declare(spvgen_module *m, const spvgen_gemm_config *p, gemm_grid_vars *v);
/* In main, before any barrier: this workgroup's tile origin, row *bm and column *bn of D
 * (ids), and a return for the workgroups of the last fold that lie past M (where the
 * grid has them: RUNTIME always checks, a FIXED plan only where rows x folds pass its M
 * tiles). An unfolded FIXED plan emits exactly what the kernels emitted before folding. */
void gemm_tile_origin(spvgen_module *m, const spvgen_gemm_config *p, const ek_gemm_shape *sh,
                      const gemm_grid_vars *v, uint32_t *bm, uint32_t *bn);

/* The type features every variant needs for the desc's element types (f16 arithmetic and
 * 16-bit storage, int8 and 8-bit storage ...), not counting cooperative ones. */
uint64_t gemm_type_features(const spvgen_gemm_desc *d);

/* A batch offset as a u32 id for batch index `z` (an id): z * stride (an id), or 0 when
 * a FIXED plan has batch 1. The device-address form returns 0 and moves buf's base by
 * the batch's bytes in 64 bits instead (ek_buffer_rebase; buf NULL: a view made after
 * its buffer was moved), so a batch may start past 4 GB; call it in the entry block. */
uint32_t gemm_batch_offset(spvgen_module *m, const spvgen_gemm_desc *d, const ek_gemm_shape *sh, uint32_t z,
                           uint32_t stride, ek_buffer *buf);

/* ------------------------------------------------------------- plan costs ---- */
/* plan_cost.c: the estimated first compile of a plan's kernels by the driver (ms), and the
 * compile budget of a desc (its compile_budget_ms, or the default). */
uint32_t gemm_compile_ms(const spvgen_gemm_config *p);
/* The pack kernel's share of a packed plan's compile estimate (a few loads and stores per
 * element, like the reduction: an estimate until measured; bench_gemm_shapes --set pack
 * prints it). */
#define GEMM_PACK_KERNEL_MS 20u
uint32_t gemm_budget_ms(const spvgen_gemm_desc *d);

/* ------------------------------------------------------ speed estimates ---- */
/* What AUTO compares between the cooperative variants of a FIXED 16-bit shape (spvgen_
 * gemm_plan): a plan's estimated throughput relative to coopmat2's best tiling on a full
 * grid (1.0). The share of SM-slots a grid's waves fill: */
double gemm_wave_efficiency(uint64_t tiles, uint32_t units);
/* The share of the grid's tile area inside the matrix, (M x N) / (M and N rounded up to
 * whole tiles): a tile wider than the matrix costs its whole area for the part it holds
 * (1048576 x 64 x 256 nt on khr's 128x256 tiles, a quarter of each tile used: 1.157 ms,
 * 3.4x coopmat2's 64x64x64; H100, call S21-4, docs/design-notes.md, "Tiles wider than the
 * matrix"). */
double gemm_tile_coverage(const spvgen_gemm_desc *d);
/* coopmat2: the tiling's efficiency (the cost model's table, with its bonuses) x the knob
 * score (unroll, edge mode) x the wave efficiency of its grid (split-K slices counted)
 * x its coverage. */
double cm2_speed(const spvgen_device_caps *caps, const spvgen_gemm_config *p);
/* cm2_speed without the wave efficiency: the tiling's own rate (what one workgroup of it
 * does per SM, relative to the best tiling). */
double cm2_tile_rate(const spvgen_gemm_config *p);
/* khr: its 128x256 tile ran 301 TFLOP/s at 8192^3 f16->f32 (coopmat2's best: 326), 0.92;
 * smaller tiles less (x (area / 128x256)^0.25), operands gathered element by element
 * x 0.6, the grid's wave efficiency and its coverage. Edge tiles cost it nothing
 * measurable beyond their empty area (their loads are clamped per chunk in every tile
 * alike). */
double khr_speed(const spvgen_device_caps *caps, const spvgen_gemm_config *p);
/* A plan's tile rate, whatever its variant (cm2_tile_rate, khr_speed without the waves,
 * a small constant for simt): what gemm_split_time weighs a tile's K loop by. */
double gemm_tile_rate(const spvgen_gemm_config *p);

/* --------------------------------------------------------------- coopmat2 ---- */
/* coopmat2_plan.c plans, coopmat2.c emits (gemm_variant_coopmat2 joins them). */
spvgen_status cm2_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg, size_t size);
uint32_t cm2_candidates(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc, spvgen_gemm_desc *out,
                        uint32_t max);

/* stages 2: at most this many 16-byte chunks of an operand's K-step tile per invocation. */
#define CM2_STAGE_MAX_CHUNKS 16u

/* The accumulator's component type in the MulAdd: u32 for unsigned integer inputs (the
 * combination devices list for u8 x u8), else acc_type. */
static inline spvgen_component_type cm2_acc_matrix_type(const spvgen_gemm_desc *d) {
  if (!ek_is_float(d->a_type) && !ek_is_signed(d->a_type) && !ek_is_signed(d->b_type))
    return SPVGEN_COMPONENT_U32;
  return d->acc_type;
}

/* Whether a coopmat2 plan's K edge is the masked step (SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE:
 * asked for, a FIXED K of whole 16-byte rows, longer than tile_k and no multiple of it).
 * tile_k 0 (not chosen yet): whether it can be for some tile. */
static inline bool cm2_masked_k_edge(const spvgen_gemm_desc *d) {
  if (!(d->codegen & SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE) || d->shapes == SPVGEN_GEMM_SHAPES_RUNTIME) return false;
  if ((uint64_t)d->k * spvgen_component_type_size(d->a_type) % 16) return false;
  return !d->tile_k || (d->k > d->tile_k && d->k % d->tile_k);
}

/* Whether the epilogue needs OpCooperativeMatrixPerElementOpNV. */
static inline bool cm2_needs_per_element(const spvgen_gemm_desc *d) {
  bool float_path = ek_epilogue_type(d) == SPVGEN_COMPONENT_F32;
  return d->bias != SPVGEN_GEMM_BIAS_NONE || d->activation != SPVGEN_ACTIVATION_NONE ||
         (float_path && !ek_is_float(d->out_type));
}

/* ------------------------------------------------------------ loop budget ---- */
/* lavapipe (llvmpipe's gallivm) ends every loop of an invocation, without an error, once
 * 65,535 loop passes are spent, counting every loop of the shader together (bench/
 * loop_limit.c; the MLP's MLP_LOOP_BUDGET). Devices do not report it, so every GEMM plan
 * keeps to it, as the MLP planner does: a GPU loses nothing by it. */
#define GEMM_LOOP_BUDGET 65535u
/* The most loop passes one invocation of any kernel of plan p runs (each loop counted as
 * its passes + 1): the K loop over the longest slice (RUNTIME: SPVGEN_GEMM_MAX_SERIAL_K,
 * which spvgen_gemm_launch_for keeps to), its leftover and edge loops, the reduction's
 * loop over the slices (RUNTIME: up to SPVGEN_GEMM_MAX_SPLIT_K) and the pack kernel's. */
uint64_t gemm_loop_passes(const spvgen_gemm_config *p);
/* OK, or the refusal naming the budget when gemm_loop_passes is over it. */
spvgen_status gemm_check_loop_budget(const spvgen_gemm_config *p, char *msg, size_t size);

/* ---------------------------------------------------------------- split-K ---- */
/* splitk.c: what the variants share for desc.split_k > 1 (spvgen/gemm.h,
 * "Split-K"): their kernel is the partials kernel; splitk_reduce.c the reduction. */

/* The reduction's workgroup: one invocation per 4 consecutive columns of a row. */
#define GEMM_REDUCE_LOCAL 128u

/* Completes a variant's plan for split_k > 1: checks split_k against ceil(k / tile_k),
 * sets slice_k, groups[2] (batch * split_k), the workspace fields and the reduction's
 * grid, and appends " sk<split_k>" to the name. */
spvgen_status gemm_splitk_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg,
                               size_t size);
/* The reduction's grid for an M x N output and batch: ceil(M * ceil(N / 4) / 128)
 * workgroups, at most 65535 in x and the rest in y, batch in z. */
void gemm_splitk_reduce_grid(uint32_t m, uint32_t n, uint32_t batch, uint32_t groups[3]);
/* The most 32-bit words a split-K workspace (its partial planes) may hold, and that limit
 * for messages: both kernels index its words from its base in 32 bits, signed through
 * device addresses (SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS words: the reduction's 16-byte
 * word indices stay below it too), unsigned with descriptors. */
static inline uint64_t gemm_splitk_max_words(const spvgen_gemm_desc *d) {
  return d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS
                                                           : SPVGEN_GEMM_MAX_INDEX;
}
static inline const char *gemm_splitk_max_words_name(const spvgen_gemm_desc *d) {
  return d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? "2^31 - 1 (device addresses: signed)" : "2^32 - 1";
}
/* The estimated time of `tiles` output tiles split S ways over `units` SMs, relative to
 * one unsplit tile's K loop of `steps` K steps (S 1: unsplit). */
double gemm_splitk_time(uint64_t tiles, uint32_t S, uint32_t units, uint32_t steps);
/* The estimated time of plan p (its tile and workgroup) run as S slices of K (FIXED: the
 * desc's k; RUNTIME: the hint k, GEMM's 4096 where none) over the device's SMs, in
 * arbitrary units comparable across tilings, slice counts and variants: the busiest SM's
 * slices x (the slice's K + the partial's store) x tile area / (the tile's rate
 * (gemm_tile_rate) x its occupancy), + the reduction's read of every partial spread over
 * the SMs (docs/design-notes.md, "Long K: tile and slices together (session 8)"). */
double gemm_split_time(const spvgen_device_caps *caps, const spvgen_gemm_config *p, uint32_t k, uint32_t S);
/* The invocations an SM needs resident for a tile's full rate (gemm_split_time's
 * occupancy): 256, more for tiles of little arithmetic per loaded byte. */
uint32_t gemm_split_invocations(const spvgen_gemm_desc *d);
/* Split-K descs worth trying for a plan's tile (copies of base->desc with split_k set):
 * up to 4 split counts that gemm_splitk_time puts under the unsplit grid, fastest first;
 * none unless the grid is under two waves of SMs and K has 8 steps or more and is at
 * least 512. */
uint32_t gemm_splitk_candidates(const spvgen_device_caps *caps, const spvgen_gemm_config *base, spvgen_gemm_desc *out,
                                uint32_t max);

typedef struct gemm_splitk {
  const spvgen_gemm_config *p;
  const ek_gemm_shape *sh;  /* the shape's ids (set by gemm_splitk_ids) */
  ek_buffer ws;             /* the workspace, as u32 words */
  uint32_t nwg_var;         /* RUNTIME: the NumWorkgroups built-in (the slice count;
                               gemm_grid_declare's) */
  uint32_t count;           /* id: the number of slices (set by gemm_splitk_ids) */
  uint32_t slice, z;        /* ids: this workgroup's slice and batch */
  uint32_t k_begin, k_end;  /* ids: its K range */
} gemm_splitk;

/* Declares the workspace binding (ws non-NULL: the device-address workspace that
 * ek_gemm_interface declared), before the entry point. */
void gemm_splitk_declare(spvgen_module *m, const spvgen_gemm_config *p, gemm_splitk *s, const ek_buffer *ws);
/* In main: slice, z, the slice count and the K range from the workgroup's z id. The count
 * is split_k for a FIXED plan; a RUNTIME kernel reads it off the grid (NumWorkgroups.z /
 * batch), so its words do not depend on split_k: spvgen_gemm_launch_for picks the count
 * per shape, and plans that differ only in split_k share one pipeline. */
void gemm_splitk_ids(spvgen_module *m, gemm_splitk *s, const ek_gemm_shape *sh, const gemm_grid_vars *grid,
                     uint32_t wgz);
/* Word index of the partial plane (slice (an id), this batch). */
uint32_t gemm_splitk_plane(spvgen_module *m, const gemm_splitk *s, uint32_t slice);
/* One workspace word (u32 ids). */
void gemm_splitk_store(spvgen_module *m, const gemm_splitk *s, uint32_t index, uint32_t word);

/* splitk_reduce.c: the reduction kernel of a split-K plan (SPVGEN_GEMM_KERNEL_REDUCE). */
void gemm_splitk_reduce_emit(spvgen_module *m, const spvgen_gemm_config *p);

/* ----------------------------------------------------------- packed operands ---- */
/* pack.c: spvgen/gemm.h, "Packed operands". */

/* The pack kernel's workgroup size; the most 16-byte units an invocation writes
 * (desc.pack_units). */
#define GEMM_PACK_LOCAL 256u
#define GEMM_PACK_MAX_UNITS 16u
/* A transposing copy's tile: GEMM_PACK_TILE x GEMM_PACK_TILE bytes (8-bit elements) per
 * workgroup of GEMM_PACK_LOCAL invocations, each moving a 4 x 4-byte block in and a
 * 16-byte unit out. */
#define GEMM_PACK_TILE 64u

/* Whether operand A (is_a) or B can be read 16 bytes at a time: its leading dimension,
 * batch stride and contiguous extent multiples of 16 bytes (a RUNTIME class: by its
 * ld_multiple and the dimension's multiple). */
static inline bool gemm_operand_16b(const spvgen_gemm_desc *d, bool is_a) {
  uint32_t epv = 16u / spvgen_component_type_size(d->a_type);
  spvgen_matrix_layout lay = is_a ? d->a_layout : d->b_layout;
  char inner = is_a ? (lay == SPVGEN_ROW_MAJOR ? 'k' : 'm') : (lay == SPVGEN_ROW_MAJOR ? 'n' : 'k');
  return gemm_ld_multiple(d, is_a ? d->lda : d->ldb, is_a ? d->stride_a : d->stride_b, epv) &&
         gemm_dim_multiple(d, inner, epv);
}

/* The buffers of a GEMM in gemm.h's binding order (BUF_*), which kernel of a plan declares
 * which, and their binding numbers: the one list the emitter's kernel info, the template
 * runner and the launch read. */
enum { BUF_A, BUF_B, BUF_D, BUF_C, BUF_BIAS, BUF_WORKSPACE, BUF_COUNT };
/* The buffers kernel `which` of a plan with desc d declares, in binding order (BUF_*
 * indices into out[BUF_COUNT]); returns the count. */
uint32_t gemm_kernel_buffers(const spvgen_gemm_desc *d, spvgen_gemm_kernel which, uint32_t out[]);
/* The binding number of buffer b (BUF_*): A 0, B 1, D 2, then C, bias, workspace as the
 * plan has them (the same numbers in every kernel of a plan). */
uint32_t gemm_buffer_binding(const spvgen_gemm_desc *d, uint32_t b);

/* Whether the plan packs operand op ('a' or 'b'). */
static inline bool gemm_packs(const spvgen_gemm_desc *d, char op) { return ek_gemm_packs(d, op); }
static inline bool gemm_packed(const spvgen_gemm_desc *d) { return gemm_packs(d, 'a') || gemm_packs(d, 'b'); }
/* The iterations a FIXED coopmat2 K loop's main loop runs are a multiple of this
 * (coopmat2.c, k_loop), and K pads to whole groups of it in packed copies (pack.c). */
#define GEMM_K_LOOP_GROUP 8u

/* Whether a coopmat2 FIXED plan's K loop runs its iterations as a multiple of 8 and the
 * rest in a second loop (coopmat2.c, k_loop). NVIDIA's driver runs a constant-count loop
 * whose count is no multiple of 8 slower, and compiles it longer: every tile with 4-byte
 * accumulators, and f16 accumulators up to 192x192 (256x256 with f16 accumulators lost
 * nothing unsplit and ran slower split: docs/design-notes.md,
 * "The K loop's constant trip count" and "The split K loop on every tile"). */
static inline bool cm2_split_k_loop(const spvgen_gemm_desc *d) {
  if (d->codegen & SPVGEN_GEMM_CODEGEN_SPLIT_ALL) return true;
  return spvgen_component_type_size(d->acc_type) == 4 || (uint64_t)d->tile_m * d->tile_n <= 192u * 192u;
}

/* Of a FIXED K loop of `outer` iterations, those its main loop runs (coopmat2.c, k_loop):
 * a multiple of GEMM_K_LOOP_GROUP where the split applies, else all of them. */
static inline uint32_t cm2_main_iterations(const spvgen_gemm_desc *d, uint32_t outer) {
  return outer >= GEMM_K_LOOP_GROUP && cm2_split_k_loop(d) ? outer / GEMM_K_LOOP_GROUP * GEMM_K_LOOP_GROUP : outer;
}

/* Whether a coopmat2 unsplit plan of a constant K (gemm_k_const) has a second loop for
 * the iterations past its main loop (k_loop: two or more of them; one runs
 * straight-line). */
static inline bool cm2_rest_loop(const spvgen_gemm_desc *d) {
  if (!gemm_k_const(d) || d->split_k > 1 || !d->tile_k) return false;
  const uint32_t outer = d->k / d->tile_k / (d->unroll ? d->unroll : 1);
  return outer - cm2_main_iterations(d, outer) > 1;
}

/* Whether a coopmat2 plan's edge tiles differ from its interior ones only in D's store
 * (and C's load): both operands packed (the copies hold whole tiles, zeros past M, N and
 * K), unsplit and not self-staged. Its branch edge mode is then one K loop and the
 * epilogue twice (coopmat2.c). */
static inline bool cm2_store_only_branch(const spvgen_gemm_desc *d) {
  return gemm_packs(d, 'a') && gemm_packs(d, 'b') && d->split_k <= 1 && d->stages != 2;
}

/* Whether operand op ('a' or 'b') of d is K-contiguous: A row-major, B column-major. */
static inline bool gemm_k_contiguous(const spvgen_gemm_desc *d, char op) {
  return op == 'a' ? d->a_layout == SPVGEN_ROW_MAJOR : d->b_layout == SPVGEN_COL_MAJOR;
}
/* Whether the plan copies operand op transposed (pack_order K, an operand stored along M
 * or N): its copy is K-contiguous (A row-major, B column-major). A plan's inner desc
 * (gemm_pack_inner) has the copies' layouts, so it transposes nothing. */
static inline bool gemm_pack_transposes(const spvgen_gemm_desc *d, char op) {
  return gemm_packs(d, op) && d->pack_order == SPVGEN_GEMM_PACK_ORDER_K && !gemm_k_contiguous(d, op);
}
/* The layout of operand op's copy (its own, or K-contiguous where transposed). */
static inline spvgen_matrix_layout gemm_pack_copy_layout(const spvgen_gemm_desc *d, char op) {
  if (!gemm_pack_transposes(d, op)) return op == 'a' ? d->a_layout : d->b_layout;
  return op == 'a' ? SPVGEN_ROW_MAJOR : SPVGEN_COL_MAJOR;
}

/* The copies of one shape (the desc's tiles and layouts, pack, pack_order): K, M, N padded
 * to tile_k, tile_m, tile_n (each at least GEMM_PACK_MIN_PAD: whole 16-byte rows for every
 * input type); the copies' leading dimensions (in the copies' layouts,
 * gemm_pack_copy_layout) and batch strides (elements); their byte offsets in the
 * workspace after partial_bytes of split-K's planes (0: not packed); the workspace's end;
 * the pack kernel's workgroups per batch (A's, then B's: 256 x pack_units 16-byte units
 * of a copy each, or one GEMM_PACK_TILE-square tile of a transposed copy). */
#define GEMM_PACK_MIN_PAD 16u
typedef struct gemm_pack_layout {
  uint32_t kp, mp, np;
  uint32_t lda, ldb;
  uint64_t stride_a, stride_b;
  uint64_t a_off, b_off, end;
  uint64_t groups_a, groups_b;
} gemm_pack_layout;
void gemm_pack_layout_of(const spvgen_gemm_desc *d, uint32_t m, uint32_t n, uint32_t k, uint32_t batch,
                         uint64_t partial_bytes, gemm_pack_layout *l);
/* The pack kernel's grid for l's workgroups per batch (x and y: 65535 at most each). */
void gemm_pack_grid(const gemm_pack_layout *l, uint32_t batch, uint32_t groups[3]);
/* The desc the main kernel is planned and emitted for (tiles chosen): a FIXED one with
 * the copies' leading dimensions and strides (and K padded when both are packed), a
 * RUNTIME one with k_multiple tile_k when both are. */
void gemm_pack_inner(const spvgen_gemm_desc *outer, spvgen_gemm_desc *inner);
/* Completes a packed plan (its variant planned): the workspace binding, the name, and for
 * a FIXED shape the layout, workspace size and grid (after split-K's planes). */
spvgen_status gemm_pack_plan(spvgen_gemm_config *p, char *msg, size_t size);
/* The limits of a layout for a shape (messages from fn). */
spvgen_status gemm_pack_check(const spvgen_gemm_desc *d, const gemm_pack_layout *l, uint32_t m, uint32_t n,
                              uint32_t k, uint32_t lda, uint32_t ldb, const char *fn, char *msg, size_t size);

/* The layout as ids, from a kernel's shape ids (gemm_pack_layout_of's rule; byte offsets
 * as u32). */
typedef struct gemm_pack_ids {
  uint32_t kp, mp, np, lda, ldb, stride_a, stride_b, a_off, b_off;
} gemm_pack_ids;
void gemm_pack_ids_of(spvgen_module *m, const spvgen_gemm_config *p, const ek_gemm_shape *sh, gemm_pack_ids *ids);
/* In a main kernel, after ek_gemm_shape_load: the packed operands' leading dimensions and
 * strides (and K, both packed) in sh replaced by the copies'; false when nothing is
 * packed. */
bool gemm_pack_main(spvgen_module *m, const spvgen_gemm_config *p, ek_gemm_shape *sh, gemm_pack_ids *ids);
/* A packed operand's start in the workspace: descriptors, base (an element offset id, 0:
 * none) plus the copy's offset in elements; device addresses, buf rebased to the copy
 * (entry block) and base as is. Unpacked operands: base. */
uint32_t gemm_pack_base(spvgen_module *m, const spvgen_gemm_desc *d, const gemm_pack_ids *ids, char op, ek_buffer *buf,
                        uint32_t base);
/* The pack kernel (SPVGEN_GEMM_KERNEL_PACK). */
void gemm_pack_emit(spvgen_module *m, const spvgen_gemm_config *p);

/* Whether plan was made by the planner (a resolved variant, its desc naming it, a
 * workgroup size): what every entry point taking a plan checks first. */
bool gemm_plan_made(const spvgen_gemm_config *plan);
/* The run-time estimate of a FIXED plan at its own shape (spvgen_gemm_estimate_ms's model,
 * the pack kernel's copies included), for comparing plans the planner makes. */
double gemm_plan_time_ms(const spvgen_device_caps *caps, const spvgen_gemm_config *p);

#endif
