/* emitters/common/common.h — pieces every kernel template needs, written once: scalar
 * types by component type, storage buffers with their element pointers, invocation ids,
 * constants, conversions, activations, and the GEMM-style epilogue
 * (alpha * acc + beta * C + bias, activation, conversion, store).
 *
 * Internal to the emitters (prefix ek_); built on the public builder only. */
#ifndef SPVGEN_EMITTERS_COMMON_H
#define SPVGEN_EMITTERS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/builder.h"
#include "spvgen/caps.h"
#include "spvgen/coop.h"
#include "spvgen/gemm.h"
#include "spvgen/kernel.h"

#include "kernel_builder.h" /* loops, guards, folding arithmetic, typed access */

/* ------------------------------------------------------------------- types ---- */
/* The scalar type of a component type (f16, f32, bf16, e4m3, e5m2, s8, u8, s32, ...). */
uint32_t ek_type(spvgen_module *m, spvgen_component_type t);
bool ek_is_float(spvgen_component_type t);
bool ek_is_signed(spvgen_component_type t);
uint32_t ek_u32_type(spvgen_module *m);
uint32_t ek_f32_type(spvgen_module *m);
uint32_t ek_bool_type(spvgen_module *m);
static inline uint32_t ek_u32(spvgen_module *m, uint32_t v) { return spvgen_const_u32(m, v); }

/* Converts a scalar value between component types (float<->float, int<->float,
 * int<->int of any width and signedness). Float to integer rounds to nearest even. */
uint32_t ek_convert(spvgen_module *m, uint32_t value, spvgen_component_type from,
                    spvgen_component_type to);

/* ----------------------------------------------------------------- buffers ---- */
typedef struct ek_buffer {
  uint32_t var;       /* the variable (a Block struct { T data[]; }); a device-address
                         buffer: the push-constant block's variable (non-zero: declared) */
  uint32_t elem_ptr;  /* pointer type (StorageBuffer or PhysicalStorageBuffer, T) */
  uint32_t elem_type; /* T */
  uint32_t array_ptr; /* pointer type (StorageBuffer or PhysicalStorageBuffer, T[])
                         (cooperative loads take it) */
  /* A device-address buffer (ptr_type != 0): the pointer (ptr PhysicalStorageBuffer
   * struct { T data[]; }) is member pc_member of the push-constant block var, whose
   * member pointer type is pc_member_ptr. Every access loads it from the block (typed
   * pc_ptr_type, the member's own type; a view of another element type converts it). */
  uint32_t ptr_type, pc_member, pc_member_ptr, pc_ptr_type;
  /* A device-address buffer moved by ek_buffer_rebase: its base pointer (ptr_type),
   * computed once in the entry block; 0: loaded from the block at each access. */
  uint32_t base;
} ek_buffer;

/* A storage buffer of `t` elements at (0, binding); named for the disassembly. */
ek_buffer ek_buffer_decl(spvgen_module *m, uint32_t elem_type, uint32_t binding, bool readonly,
                         const char *name);
/* Device addresses: `count` buffers of elem_types[i] (readonly[i]: NonWritable; names
 * for the disassembly) as PhysicalStorageBuffer pointers, members of one push-constant
 * block after `lead` members of the caller's (lead_types / lead_names as
 * ek_push_constants; 0: the block holds only the pointers), 8-byte aligned by std430.
 * Fills out[i]; returns the block. Loads and stores through these buffers carry the
 * Aligned operand (spvgen_load / spvgen_store add it). */
spvgen_push_constant_block ek_push_constants_bda(spvgen_module *m, const uint32_t *lead_types,
                                                 const char *const *lead_names, uint32_t lead,
                                                 const uint32_t *elem_types, const bool *readonly,
                                                 const char *const *names, uint32_t count, ek_buffer *out);
/* A view of buffer b as elements of elem_type (the same memory): with descriptors a
 * second variable at (0, binding), with device addresses the same push-constant pointer
 * read as a pointer to elem_type[] (moved as b is, when b was rebased first). */
ek_buffer ek_buffer_view(spvgen_module *m, const ek_buffer *b, uint32_t elem_type, uint32_t binding, bool readonly,
                         const char *name);
/* A device-address buffer's base moved by a byte offset (a u64 id; call in the entry
 * block, before any view of b): later accesses index from base + offset, so element
 * indices stay 32-bit while the address is 64-bit (tensors over 4 GB). No-op for
 * descriptor buffers (their offsets are indices). */
void ek_buffer_rebase(spvgen_module *m, ek_buffer *b, uint32_t offset64);
/* The byte offset of batch z (a u32 id) for a batch stride (a u32 id, elements) of esize-
 * byte elements: (u64)z * stride * esize, a u64 id (the module then declares Int64). */
uint32_t ek_batch_bytes64(spvgen_module *m, uint32_t z, uint32_t stride, uint32_t esize);
/* The byte offset of element (row0, col0) of a matrix of `layout` with leading dimension
 * ld (u32 ids; row0 or col0 0: none) of esize-byte elements: ((u64)outer0 * ld + inner0)
 * * esize, a u64 id (the module then declares Int64). */
uint32_t ek_matrix_bytes64(spvgen_module *m, spvgen_matrix_layout layout, uint32_t ld, uint32_t row0, uint32_t col0,
                           uint32_t esize);
/* A device-address buffer's base moved to element (row0, col0) of such a matrix
 * (ek_buffer_rebase by ek_matrix_bytes64; call in the entry block, after the batch's
 * move and before any view of b): a workgroup's tile origin, from which its indices then
 * count, so they stay small 32-bit values while the matrix may hold more than 2^31
 * elements. No-op for descriptor buffers and for row0 = col0 = 0 (ids). */
void ek_buffer_move_to(spvgen_module *m, ek_buffer *b, spvgen_matrix_layout layout, uint32_t ld, uint32_t row0,
                       uint32_t col0);
/* &buffer.data[index] (index: a u32 id). */
uint32_t ek_elem(spvgen_module *m, const ek_buffer *b, uint32_t index);
/* buffer.data[index] loaded (a value of elem_type), or value stored there. */
uint32_t ek_load_elem(spvgen_module *m, const ek_buffer *b, uint32_t index);
void ek_store_elem(spvgen_module *m, const ek_buffer *b, uint32_t index, uint32_t value);
/* &buffer.data (the runtime array, for cooperative loads and stores). */
uint32_t ek_array(spvgen_module *m, const ek_buffer *b);

/* Plan names without snprintf (a plan is made per module emitted): appends to buf[size]
 * with snprintf's truncation (the longest prefix that fits, always NUL-terminated). */
typedef struct ek_str {
  char *buf;
  size_t size, len;
} ek_str;
/* Writing at the start of buf (empty), or after the string it holds. */
static inline ek_str ek_str_start(char *buf, size_t size) {
  ek_str s = {buf, size, 0};
  if (size) buf[0] = 0;
  return s;
}
static inline ek_str ek_str_after(char *buf, size_t size) {
  ek_str s = {buf, size, 0};
  while (s.len + 1 < size && buf[s.len]) s.len++;
  return s;
}
/* At most max characters of t (printf's %.<max>s). */
static inline void ek_str_putn(ek_str *s, const char *t, size_t max) {
  if (!s->size) return;
  for (; max && *t && s->len + 1 < s->size; max--) s->buf[s->len++] = *t++;
  s->buf[s->len] = 0;
}
static inline void ek_str_put(ek_str *s, const char *t) { ek_str_putn(s, t, (size_t)-1); }
/* v in decimal (%u); returns the number of digits. */
static inline size_t ek_str_u32(ek_str *s, uint32_t v) {
  char d[10];
  size_t n = 0;
  do d[n++] = (char)('0' + v % 10); while (v /= 10);
  char t[11];
  for (size_t i = 0; i < n; i++) t[i] = d[n - 1 - i];
  t[n] = 0;
  ek_str_put(s, t);
  return n;
}

/* A push-constant block of `count` members (types: scalars, vectors or strided arrays;
 * std430 offsets), each member named for the disassembly (names may be NULL). */
spvgen_push_constant_block ek_push_constants(spvgen_module *m, const uint32_t *types,
                                             const char *const *names, uint32_t count);

/* ----------------------------------------------------------- invocations ---- */
/* Component c of a uvec3 built-in (WorkgroupId, LocalInvocationId, ...), declared once
 * per module by the builder's deduplication of the variable is NOT assumed: pass the
 * variable from ek_builtin_v3. */
uint32_t ek_builtin_v3(spvgen_module *m, SpvBuiltIn builtin);
uint32_t ek_builtin_u32(spvgen_module *m, SpvBuiltIn builtin);
uint32_t ek_load_v3_component(spvgen_module *m, uint32_t var, uint32_t component);
uint32_t ek_load_u32(spvgen_module *m, uint32_t var);

/* ---------------------------------------------------------- folded grids ---- */
/* A 2-D grid of tiles, tiles_x across and tiles_y down, where tiles_y may pass
 * EK_GRID_MAX, the most workgroups one dimension of a dispatch holds on every Vulkan
 * device (the least maxComputeWorkGroupCount the spec allows): the rows past it fold
 * into x. With f = ceil(tiles_y / EK_GRID_MAX) folds the grid is tiles_x * f across and
 * rows = ceil(tiles_y / f) down, and workgroup (x, y) computes tile
 * (x % tiles_x, y + (x / tiles_x) * rows). rows * f may pass tiles_y by up to f - 1:
 * those workgroups of the last fold have no tile (the kernel returns, ek_return_if).
 * f 1 is the plain grid. */
#define EK_GRID_MAX 65535u
typedef struct ek_folded_grid {
  uint32_t fold;   /* f: 1 where tiles_y fits */
  uint32_t rows;   /* the grid's y count */
  uint64_t across; /* the grid's x count, tiles_x * f (may pass EK_GRID_MAX: the caller
                      refuses what the device cannot dispatch) */
} ek_folded_grid;
ek_folded_grid ek_fold_grid(uint64_t tiles_x, uint64_t tiles_y);
/* In a kernel: the origin (*x0, *y0) = (tile x * size_x, tile y * size_y) of this
 * workgroup's tile (wg_var: the WorkgroupId variable). fold false: the plain grid, wg.x
 * and wg.y as they are (load x, multiply, load y, multiply: nothing else emitted). fold
 * true: decoded as above from tiles_x and rows (ids: constants fold; a run-time grid
 * passes NumWorkgroups.y as rows): q = x / tiles_x, tile x = x - q * tiles_x, tile y =
 * y + q * rows: five instructions (UDiv, IMul, ISub; IMul, IAdd; less what folds) and
 * the loads. Every workgroup of an unfolded grid has q 0, so one decode serves both. */
void ek_grid_tile_origin(spvgen_module *m, uint32_t wg_var, bool fold, uint32_t tiles_x, uint32_t rows,
                         uint32_t size_x, uint32_t size_y, uint32_t *x0, uint32_t *y0);
/* if (cond) return; for a condition uniform across the workgroup, before any barrier
 * (a workgroup with no work leaves as a whole). cond 0: nothing emitted. */
void ek_return_if(spvgen_module *m, uint32_t cond);

/* u32 arithmetic shorthands (a, b ids). */
uint32_t ek_add(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_mul(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_lt(spvgen_module *m, uint32_t a, uint32_t b); /* bool a < b */
uint32_t ek_and(spvgen_module *m, uint32_t a, uint32_t b); /* bool && */
uint32_t ek_div(spvgen_module *m, uint32_t a, uint32_t b);
uint32_t ek_mod(spvgen_module *m, uint32_t a, uint32_t b);
/* OpControlBarrier Subgroup/Subgroup/AcquireRelease|WorkgroupMemory: orders a subgroup's
 * own shared-memory writes before its reads (spvgen_workgroup_barrier is the workgroup
 * one). */
void ek_subgroup_barrier(spvgen_module *m);
/* A Function variable of `type` (hoisted to the entry block by the builder). */
uint32_t ek_local(spvgen_module *m, uint32_t type, uint32_t init);

/* Offset of element (row, col) of a matrix: row * ld + col or col * ld + row, plus base
 * (ids; base may be 0 for none). */
uint32_t ek_matrix_index(spvgen_module *m, spvgen_matrix_layout layout, uint32_t ld,
                         uint32_t row, uint32_t col, uint32_t base);
/* The same with the leading dimension as an id (a constant or a run-time value), folding
 * constants (ek_iadd / ek_imul). */
uint32_t ek_matrix_offset(spvgen_module *m, spvgen_matrix_layout layout, uint32_t ld, uint32_t row,
                          uint32_t col, uint32_t base);

/* ---------------------------------------------------------- activations ---- */
/* The two ways the templates wrote activations before they shared one builder, kept
 * because this refactor changes no kernel (docs/design-notes.md, "One vocabulary"):
 *   EK_ACT_EPILOGUE  the GEMM epilogue: SiLU as x / (1 + e^-x), one division
 *   EK_ACT_MLP       the MLP's layers: SiLU as x * sigmoid(x), and the constant 1.0
 *                    declared before the activation whatever it is (the modules' id
 *                    order) */
typedef enum ek_act_style { EK_ACT_EPILOGUE = 0, EK_ACT_MLP = 1 } ek_act_style;

/* The activation act (spvgen/activation.h) of an f32 value x, an f32 id: every value
 * the enum names (DEFAULT is x, as a plan resolves it for the GEMM; the MLP resolves its
 * layers before emitting); leaky_slope is LEAKY_RELU's; tanh's argument is clamped to
 * +-15 (some implementations give NaN for large |x|). A value the enum does not name sets
 * the module's error, naming it. (emitters/common/activation.c) */
uint32_t ek_activation(spvgen_module *m, uint32_t x, spvgen_activation act, float leaky_slope,
                       ek_act_style style);

/* ------------------------------------------------------------- GEMM shape ---- */
/* A GEMM's extents, leading dimensions, batch strides and scalars as ids: module
 * constants for a FIXED plan, members of the push-constant block (spvgen_gemm_push) for a
 * RUNTIME one. The kernels compute with these ids only; the folding arithmetic of
 * kernel_builder.h turns the FIXED ones back into constants. */
typedef struct ek_gemm_shape {
  bool runtime;
  spvgen_push_constant_block pc; /* RUNTIME: the block */
  uint32_t m, n, k, batch;
  uint32_t lda, ldb, ldc, ldd;
  uint32_t stride_a, stride_b, stride_c, stride_d;
  uint32_t alpha, beta; /* f32 */
  uint32_t slice_k, workspace_ld, split_k, tiles_n;
} ek_gemm_shape;

/* Before the entry point: the push-constant block of a RUNTIME plan (nothing for FIXED). */
void ek_gemm_shape_declare(spvgen_module *m, const spvgen_gemm_config *p, ek_gemm_shape *s);
/* In a function: the ids (constants, or loads of the block's members; loads again in
 * each function that calls it). */
void ek_gemm_shape_load(spvgen_module *m, const spvgen_gemm_config *p, ek_gemm_shape *s);
/* A leading dimension (stride) id with the class's alignment made visible to the driver:
 * RUNTIME ld & ~(multiple - 1) for a power-of-two multiple > 1 (the value is unchanged
 * for every shape of the class, and the driver can prove 16-byte rows); FIXED as is. */
uint32_t ek_gemm_aligned(spvgen_module *m, const ek_gemm_shape *s, uint32_t ld, uint32_t multiple);

/* ---------------------------------------------------------- GEMM epilogue ---- */
/* What the epilogue of a GEMM-like kernel needs: the output and optional C / bias
 * buffers, their layouts, the shape and the batch offsets (ids) of this workgroup. */
typedef struct ek_epilogue {
  const spvgen_gemm_desc *desc;
  const ek_gemm_shape *shape; /* alpha, beta, ldc, ldd */
  ek_buffer d, c, bias;    /* c.var / bias.var 0 when unused */
  uint32_t d_base, c_base; /* batch offsets (u32 ids; 0 for none) */
  /* Device addresses: the element D and C were moved to (ek_epilogue_move; ids, 0: not
   * moved). The epilogue's rows and columns stay the matrix's (bounds, bias); D's and C's
   * indices count from (row0, col0). */
  uint32_t row0, col0;
} ek_epilogue;

/* The bindings of a GEMM (A, B, D, then C and bias as the desc asks), declared in the
 * order gemm.h documents. */
void ek_gemm_buffers(spvgen_module *m, const spvgen_gemm_desc *d, ek_buffer *a, ek_buffer *b,
                     ek_epilogue *epi);
/* Whether a GEMM desc packs operand op ('a' or 'b') into the workspace (spvgen/gemm.h,
 * "Packed operands"; AUTO and NONE pack nothing). */
bool ek_gemm_packs(const spvgen_gemm_desc *d, char op);
/* A GEMM's whole interface before the entry point: descriptors (ek_gemm_buffers, then
 * ek_gemm_shape_declare), or with desc.addressing DEVICE_ADDRESS one push-constant block
 * of the run-time shape's members (if any) followed by the pointers to A, B, D, C, bias
 * and (split_k > 1 or packed operands) the workspace, in that order (a packed operand's
 * own pointer left out); *workspace (may be NULL without split-K) receives the last (descriptors: left zeroed, gemm_splitk_declare declares
 * it). A split-K plan's kernel is its partials kernel: A, B and the workspace only (epi
 * is left empty). */
void ek_gemm_interface(spvgen_module *m, const spvgen_gemm_config *p, ek_buffer *a, ek_buffer *b,
                       ek_epilogue *epi, ek_gemm_shape *s, ek_buffer *workspace);
/* The same for a split-K plan's reduction kernel: D, C, bias (binding numbers as
 * ek_gemm_buffers), the shape's push constants, and with device addresses the pointers
 * to D, C, bias and the workspace (read only here). */
void ek_gemm_reduce_interface(spvgen_module *m, const spvgen_gemm_config *p, ek_epilogue *epi, ek_gemm_shape *s,
                              ek_buffer *workspace);
/* The pack kernel's (packed operands, SPVGEN_GEMM_KERNEL_PACK): the sources A and / or B
 * it copies (binding numbers as ek_gemm_buffers), the shape's push constants, and with
 * device addresses their pointers and the workspace's (written; descriptors: *workspace
 * is left zeroed, the kernel declares its views of the binding). The main kernel of a
 * packed plan gets its packed A / B from ek_gemm_interface as views of the workspace
 * (descriptors: at plan.workspace_binding), indexed from the workspace's start. */
void ek_gemm_pack_interface(spvgen_module *m, const spvgen_gemm_config *p, ek_buffer *a, ek_buffer *b,
                            ek_gemm_shape *s, ek_buffer *workspace);
/* Device addresses: moves D and C (when used) to element (row0, col0) (ids; the
 * workgroup's tile origin) with ek_buffer_move_to and records it, after their batch's
 * move; e->shape must be set. No-op with descriptors. */
void ek_epilogue_move(spvgen_module *m, ek_epilogue *e, uint32_t row0, uint32_t col0);
/* Whether the epilogue is a plain store (no alpha, C, bias or activation, and acc and
 * out of one type): cooperative variants may then store the accumulator directly. */
bool ek_epilogue_is_plain(const spvgen_gemm_desc *d);
/* Whether the epilogue only converts: alpha 1, no C, bias or activation, acc and out both
 * float types (possibly different): cooperative variants may then convert the
 * accumulator matrix and store it directly. Implied by ek_epilogue_is_plain for floats. */
bool ek_epilogue_is_convert_only(const spvgen_gemm_desc *d);
/* The type the epilogue computes in: s32 when acc_type and out_type are both integers,
 * else f32 (alpha, beta and the float activations). */
spvgen_component_type ek_epilogue_type(const spvgen_gemm_desc *d);
/* The bias (element `row` or `col` of the bias vector, as desc->bias says; the caller
 * keeps that index inside the vector) added to x, then the activation; x and the result
 * are values of ek_epilogue_type. Returns x when the desc has neither. Variants that do
 * alpha and beta * C elsewhere (cooperative matrices) use it for the per-element rest. */
uint32_t ek_epilogue_bias_activation(spvgen_module *m, const ek_epilogue *e, uint32_t x,
                                     uint32_t row, uint32_t col);
/* The epilogue's value for one element (acc: a value of acc_type) at (row, col); returns
 * a value of out_type. The caller checks the bounds. */
uint32_t ek_epilogue_value(spvgen_module *m, const ek_epilogue *e, uint32_t acc, uint32_t row,
                           uint32_t col);
/* The same, stored to D(row, col). */
void ek_epilogue_store(spvgen_module *m, const ek_epilogue *e, uint32_t acc, uint32_t row,
                       uint32_t col);

/* ------------------------------------------------------- kernel metadata ---- */
/* A spvgen_binding_sizes_fn for kernels whose buffers grow with one run-time count (the
 * MLP's points, the elementwise n): the count is the uint32 at push-constant offset 0;
 * binding i (i < SPVGEN_MAX_SIZE_ARGS) needs count * info->size_args[i] bytes (0: a
 * static size), rounded up to 4. */
bool ek_sizes_per_count(const spvgen_kernel_info *info, const void *push_data, uint32_t push_size,
                        uint64_t *sizes);
/* info's bindings: n storage buffers, set 0 bindings 0 .. n-1, named names[i], with access
 * access[i] (SPVGEN_ACCESS_* bits); binding_count n, the rest of each binding (min_size)
 * zero for the caller to fill. */
void ek_info_storage_buffers(spvgen_kernel_info *info, uint32_t n, const char *const *names, const uint32_t *access);

/* ------------------------------------------------------------- one-shot ---- */
/* The end of every template's one-shot: st is the emit's status; finishes m, copies its
 * words into kernel (owned by the caller), reads the metadata back from them over *info
 * (which keeps what the emitter set that words cannot say), and destroys m. On failure
 * message says "<fn>: <why>" and kernel is empty. */
spvgen_status ek_kernel_finish(spvgen_module *m, spvgen_status st, spvgen_kernel_info *info,
                               spvgen_kernel *kernel, const char *fn, char *message, size_t size);

#endif
