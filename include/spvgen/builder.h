/* spvgen/builder.h — the SPIR-V module builder.
 *
 * A spvgen_module collects instructions into one word buffer per section of the SPIR-V
 * logical layout (capabilities, extensions, imports, memory model, entry points,
 * execution modes, debug, annotations, types/constants/globals, functions) and joins
 * them in spvgen_module_finish(). Every instruction of the core grammar and of
 * GLSL.std.450 has an emitter in the generated header spvgen/ops.h (included below);
 * this header holds the hand-written layer: ids, types and constants (hash-consed),
 * variables, decorations, entry points, functions, blocks and structured control flow.
 *
 * Rules the builder keeps for you:
 *  - Capabilities, extensions and the minimum SPIR-V version are inferred from every
 *    instruction, type, enumerant and decoration emitted (the grammar says which).
 *  - Types and constants are deduplicated: asking twice gives the same id. Struct types
 *    and specialization constants are never merged.
 *  - Errors are sticky: the first misuse records a status and a message naming the call
 *    (the public function called, not one it uses inside: "spvgen_compute_main: ...");
 *    every later call does nothing and returns 0. Check spvgen_module_status() or the
 *    status returned by spvgen_module_finish(). Nothing aborts or prints.
 *  - What finishes with SPVGEN_OK decodes: an instruction over SPIR-V's 65,535-word
 *    limit (a long name, an entry point's interface of every global, checked at finish),
 *    an id bound over 0x3FFFFF (SPIRV-Tools' limit), a size past 64 bits, or a value a
 *    decoder rejects (an unknown capability, FP encoding, scalar width, extended
 *    instruction set or OpSpecConstantOp opcode) is an error naming the call and limit.
 *  - Output is deterministic: the same calls give the same bytes.
 *
 * Threads: a module is used by one thread at a time (every call, queries included, reads
 * or writes it). Different modules may be built on different threads at once: the
 * builder has no global mutable state (the grammar tables are read-only), so N threads
 * with N modules need no locking. tests/threads/test_threads.c runs that under
 * ThreadSanitizer (the tsan preset).
 *
 * Ids are uint32_t; 0 is never a valid id and is what failed calls return.
 *
 * Values and ids: ids and numbers are both uint32_t, so the API keeps one rule to tell
 * them apart.
 *  - A parameter that is usually a compile-time constant (a count, a size, a stride, a
 *    width, a layout, a scope, a member index) takes a plain C value; the builder makes
 *    the constant. Where such a parameter may also come from a specialization constant
 *    or a computed value, a variant whose name ends in `_id` (spvgen_type_coopvec_id,
 *    spvgen_coopmat_load_stride_id, ...) or a descriptor field ending in `_id` takes the
 *    id instead. Parameters and fields that take ids say so in their names (`length_id`,
 *    `stride_id`, `layout_id`); the others are numbers.
 *  - Operands that are values of the kernel (pointers, objects, conditions, indices,
 *    byte offsets computed at run time) are ids, always.
 *  - Where an id is required, the builder checks its kind (type, value, label, ...) and
 *    its type and names both on a mismatch, e.g.
 *      "spvgen_coopmat_load_stride_id: stride_id is id 1, the type uint32; expected the
 *       id of an integer value (or pass the number to spvgen_coopmat_load)".
 *    Messages name types as text ("float16", "ptr StorageBuffer float32",
 *    "array[16] uint32"; spvgen_type_name below), not as raw ids.
 *  - Loads take (m, result type, pointer, addressing..., memory operands); stores take
 *    (m, pointer, object, addressing..., memory operands), like spvgen_load/spvgen_store. */
#ifndef SPVGEN_BUILDER_H
#define SPVGEN_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "spvgen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

typedef struct spvgen_module spvgen_module;

/* A value meaning "operand not given" for optional literal or value-enum operands of the
 * generated emitters (optional ids use 0, optional bit masks use 0). */
#define SPVGEN_ABSENT 0xFFFFFFFFu

/* SPIR-V versions as they appear in the header word. */
#define SPVGEN_VERSION(major, minor) (((uint32_t)(major) << 16) | ((uint32_t)(minor) << 8))

/* ------------------------------------------------------------------ module ---- */

typedef struct spvgen_module_desc {
  uint32_t version;         /* SPVGEN_VERSION(1, x); 0 means 1.6 */
  uint32_t addressing;      /* SpvAddressingModel; 0 (Logical) is the default */
  uint32_t memory_model;    /* SpvMemoryModel; 0 means Vulkan. GLSL450 = 1 */
  uint32_t generator;       /* the header's generator word; 0 by default (spvgen has no
                               registered tool id yet) */
  bool no_memory_model;     /* do not emit OpMemoryModel (for partial modules) */
} spvgen_module_desc;

/* desc may be NULL (defaults). Returns NULL only when memory is exhausted. */
spvgen_module *spvgen_module_create(const spvgen_module_desc *desc);
void spvgen_module_destroy(spvgen_module *m);
/* Empties the module for the next one but keeps its allocations; desc as in create. */
void spvgen_module_reset(spvgen_module *m, const spvgen_module_desc *desc);

/* Joins the sections and returns the words (owned by the module, valid until reset or
 * destroy). After finish, every emitting call is an error. words/count may be NULL. */
spvgen_status spvgen_module_finish(spvgen_module *m, const uint32_t **words, size_t *count);

spvgen_status spvgen_module_status(const spvgen_module *m);
/* The first error's message ("spvgen_type_vector: ..."), or "" when none. */
const char *spvgen_module_error(const spvgen_module *m);
/* Records an error from a layer built on the builder (emitters); the first one sticks.
 * Always returns 0, so callers can `return spvgen_module_fail(...)`. */
uint32_t spvgen_module_fail(spvgen_module *m, spvgen_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

uint32_t spvgen_module_version(const spvgen_module *m);
/* The lowest SPIR-V version the module's content needs (from the grammar). */
uint32_t spvgen_module_min_version(const spvgen_module *m);
/* The addressing model the module was created with (SpvAddressingModel; 0: Logical). */
uint32_t spvgen_module_addressing(const spvgen_module *m);
/* Number of ids allocated so far + 1 (the header's bound). */
uint32_t spvgen_module_bound(const spvgen_module *m);

/* ------------------------------------------------------------ capabilities ---- */
/* Explicit requests; inference usually makes these unnecessary. Both are idempotent. */
void spvgen_capability(spvgen_module *m, SpvCapability cap);
void spvgen_extension(spvgen_module *m, const char *name);
bool spvgen_has_capability(const spvgen_module *m, SpvCapability cap);
bool spvgen_has_extension(const spvgen_module *m, const char *name);
/* Id of "GLSL.std.450" (imported on first use). */
uint32_t spvgen_glsl_std_450(spvgen_module *m);
uint32_t spvgen_ext_inst_import(spvgen_module *m, const char *name);

/* --------------------------------------------------------------------- ids ---- */
/* A fresh id to be defined later (forward reference: branch targets, OpPhi, function
 * ids used before their definition). */
uint32_t spvgen_reserve_id(spvgen_module *m);
/* The result type of a value id (0 for types, labels, or unknown ids). */
uint32_t spvgen_type_of(const spvgen_module *m, uint32_t id);
bool spvgen_is_type(const spvgen_module *m, uint32_t id);

/* ------------------------------------------------------------------- types ---- */
uint32_t spvgen_type_void(spvgen_module *m);
uint32_t spvgen_type_bool(spvgen_module *m);
uint32_t spvgen_type_int(spvgen_module *m, uint32_t width, bool is_signed);
/* width 16, 32 or 64 IEEE floats. */
uint32_t spvgen_type_float(spvgen_module *m, uint32_t width);
/* OpTypeFloat with an FP encoding operand (SPV_KHR_bfloat16: 16-bit BFloat16KHR,
 * SPV_EXT_float8: 8-bit Float8E4M3EXT / Float8E5M2EXT); see spvgen/coop.h for the
 * named helpers. */
uint32_t spvgen_type_float_encoded(spvgen_module *m, uint32_t width, uint32_t encoding);
uint32_t spvgen_type_vector(spvgen_module *m, uint32_t component, uint32_t count);
uint32_t spvgen_type_matrix(spvgen_module *m, uint32_t column_type, uint32_t columns);
/* An array of count elements (a number, at least 1; the length constant is made here).
 * The _id forms take the length as the id of an integer constant the caller made
 * (spvgen_const_u32, spvgen_const_bits for a 64-bit length, or a specialization
 * constant), and refuse any other id: a count can never be taken for an id, nor an id
 * for a count. */
uint32_t spvgen_type_array(spvgen_module *m, uint32_t element, uint32_t count);
uint32_t spvgen_type_array_id(spvgen_module *m, uint32_t element, uint32_t length_id);
uint32_t spvgen_type_runtime_array(spvgen_module *m, uint32_t element);
/* Same, decorated with ArrayStride; distinct strides give distinct types. */
uint32_t spvgen_type_array_strided(spvgen_module *m, uint32_t element, uint32_t count, uint32_t stride);
uint32_t spvgen_type_array_strided_id(spvgen_module *m, uint32_t element, uint32_t length_id,
                                      uint32_t stride);
uint32_t spvgen_type_runtime_array_strided(spvgen_module *m, uint32_t element,
                                           uint32_t stride);
/* Never merged: each call gives a new struct type. */
uint32_t spvgen_type_struct(spvgen_module *m, const uint32_t *members, uint32_t count);
uint32_t spvgen_type_pointer(spvgen_module *m, SpvStorageClass storage, uint32_t pointee);
uint32_t spvgen_type_function(spvgen_module *m, uint32_t return_type, const uint32_t *params,
                              uint32_t count);

/* Byte size of a scalar/vector/matrix/array type built here (an array with an ArrayStride
 * decoration: stride x length); 0 when unknown (runtime arrays, structs, opaque types) or
 * too large: 4 GiB or more (u32[2^62 + 1] is 0, not the 4 that 64-bit arithmetic wraps
 * to). spvgen_storage_buffer refuses such an element type. */
uint32_t spvgen_type_size(const spvgen_module *m, uint32_t type);
/* Component or element type of a vector/matrix/array/coop type; 0 otherwise. */
uint32_t spvgen_type_element(const spvgen_module *m, uint32_t type);
/* The SpvOp that declared a type id (SpvOpTypeFloat, ...), or 0. */
uint32_t spvgen_type_opcode(const spvgen_module *m, uint32_t type);
/* The literal operand words of a type (width, signedness, encoding; id operands as ids).
 * Returns the count, copies at most max. */
uint32_t spvgen_type_operands(const spvgen_module *m, uint32_t type, uint32_t *out,
                              uint32_t max);

/* --------------------------------------------------------------- constants ---- */
uint32_t spvgen_const_bool(spvgen_module *m, bool value);
uint32_t spvgen_const_u32(spvgen_module *m, uint32_t value);
uint32_t spvgen_const_i32(spvgen_module *m, int32_t value);
uint32_t spvgen_const_f32(spvgen_module *m, float value);
/* A float constant of any float type: float16, bfloat16, float32, float64, float8 E4M3 /
 * E5M2 (spvgen/coop.h). value is rounded to nearest, ties to even. NaN gives the
 * canonical quiet NaN (float16 0x7E00, bfloat16 0x7FC0, E5M2 0x7E, E4M3 0x7F), +-Inf
 * and overflow give +-Inf where the type has one. E4M3 (OCP FP8 E4M3, no infinities,
 * max 448 = 0x7E) follows the OCP spec's non-saturating conversion: +-Inf and values
 * that round beyond +-448 give NaN (0x7F / 0xFF), as ml_dtypes' float8_e4m3fn does;
 * clamp first for saturation. */
uint32_t spvgen_const_float(spvgen_module *m, uint32_t type, double value);
/* The bits spvgen_const_float stores for a float type of `width` bits and `encoding`
 * (SPVGEN_ABSENT for IEEE, else an FP encoding of spvgen/coop.h); false if unknown. */
bool spvgen_float_bits(uint32_t width, uint32_t encoding, double value, uint64_t *bits);
/* The inverse: the value of `bits` (the low `width` bits) in that float type, exactly
 * (every float16, bfloat16, float32 and float8 value is a double); NaN for NaN codes,
 * +-Inf where the type has them. false if width and encoding name no known type. The
 * host side of a kernel's f16 / bf16 / fp8 buffers can use these two. */
bool spvgen_float_value(uint32_t width, uint32_t encoding, uint64_t bits, double *value);
/* A scalar constant of any int/float type from raw bits (low `width` bits used). */
uint32_t spvgen_const_bits(spvgen_module *m, uint32_t type, uint64_t bits);
uint32_t spvgen_const_composite(spvgen_module *m, uint32_t type, const uint32_t *parts,
                                uint32_t count);
uint32_t spvgen_const_null(spvgen_module *m, uint32_t type);
/* Specialization constants: never merged; each gets SpecId spec_id. */
uint32_t spvgen_spec_const_bits(spvgen_module *m, uint32_t type, uint64_t default_bits,
                                uint32_t spec_id);
uint32_t spvgen_spec_const_u32(spvgen_module *m, uint32_t default_value, uint32_t spec_id);
uint32_t spvgen_spec_const_bool(spvgen_module *m, bool default_value, uint32_t spec_id);
/* Value of a non-spec scalar constant built here; false when id is not one. */
bool spvgen_const_value(const spvgen_module *m, uint32_t id, uint64_t *bits);

/* --------------------------------------------------------------- variables ---- */
/* Global (any storage class but Function) or function-local variable; function
 * variables may be declared anywhere in a function: they are hoisted to the start of
 * its first block. pointer_type must be a pointer of the same storage class.
 * initializer may be 0. */
uint32_t spvgen_variable(spvgen_module *m, uint32_t pointer_type, SpvStorageClass storage,
                         uint32_t initializer);

/* Convenience: a storage buffer `struct { T data[]; }` at (set, binding), decorated
 * Block / ArrayStride / Offset / DescriptorSet / Binding. T is a scalar, a vector, or an
 * array with an ArrayStride (spvgen_type_array_strided) of those; the buffer's ArrayStride
 * is T's std430 size rounded up to its alignment (a 3-component vector takes 4
 * components' room). Returns the variable; the pointer type of elements (StorageBuffer,
 * T) is written to *element_pointer_type. spvgen_buffer_declare (below) returns every
 * type an access needs, the runtime array's pointer type included. */
uint32_t spvgen_storage_buffer(spvgen_module *m, uint32_t element_type, uint32_t set,
                               uint32_t binding, bool readonly,
                               uint32_t *element_pointer_type);
/* An Input variable decorated with a BuiltIn (e.g. SpvBuiltInGlobalInvocationId). */
uint32_t spvgen_builtin_input(spvgen_module *m, SpvBuiltIn builtin, uint32_t type);

/* ----------------------------------------------------- decorations & names ---- */
void spvgen_decorate(spvgen_module *m, uint32_t target, SpvDecoration decoration);
void spvgen_decorate1(spvgen_module *m, uint32_t target, SpvDecoration decoration,
                      uint32_t value);
void spvgen_decorate_n(spvgen_module *m, uint32_t target, SpvDecoration decoration,
                       const uint32_t *args, uint32_t count);
void spvgen_decorate_id(spvgen_module *m, uint32_t target, SpvDecoration decoration,
                        const uint32_t *ids, uint32_t count);
void spvgen_member_decorate(spvgen_module *m, uint32_t struct_type, uint32_t member,
                            SpvDecoration decoration);
void spvgen_member_decorate1(spvgen_module *m, uint32_t struct_type, uint32_t member,
                             SpvDecoration decoration, uint32_t value);
void spvgen_name(spvgen_module *m, uint32_t target, const char *name);
void spvgen_member_name(spvgen_module *m, uint32_t struct_type, uint32_t member,
                        const char *name);

/* ---------------------------------------------------------- entry points ---- */
/* interface: the global variables the entry point uses. SPVGEN_INTERFACE_ALL (NULL with
 * count SPVGEN_ABSENT) means "every global variable of the module", filled at finish. */
#define SPVGEN_INTERFACE_ALL NULL, SPVGEN_ABSENT
void spvgen_entry_point(spvgen_module *m, SpvExecutionModel model, uint32_t function,
                        const char *name, const uint32_t *interface, uint32_t count);
void spvgen_execution_mode(spvgen_module *m, uint32_t entry, SpvExecutionMode mode,
                           const uint32_t *args, uint32_t count);
/* ExecutionModeId (args are ids, e.g. LocalSizeId with spec constants). */
void spvgen_execution_mode_id(spvgen_module *m, uint32_t entry, SpvExecutionMode mode,
                              const uint32_t *ids, uint32_t count);
void spvgen_local_size(spvgen_module *m, uint32_t entry, uint32_t x, uint32_t y, uint32_t z);

/* ------------------------------------------------------------- functions ---- */
/* Begins a function and its first block. The function type is made from return_type
 * and param_types; *params (if not NULL) receives param_count parameter ids.
 * Returns the function id. */
uint32_t spvgen_function_begin(spvgen_module *m, uint32_t return_type,
                               SpvFunctionControlMask control, const uint32_t *param_types,
                               uint32_t param_count, uint32_t *params);
/* Same, defining a previously reserved id (for calls before the definition). */
uint32_t spvgen_function_begin_id(spvgen_module *m, uint32_t id, uint32_t return_type,
                                  SpvFunctionControlMask control,
                                  const uint32_t *param_types, uint32_t param_count,
                                  uint32_t *params);
/* Ends the function. An open last block of a void function gets OpReturn. */
void spvgen_function_end(spvgen_module *m);
/* Shorthand: void main() with a compute entry point, LocalSize and the full interface.
 * Returns the function id; emit the body, then spvgen_function_end. */
uint32_t spvgen_compute_main(spvgen_module *m, const char *name, uint32_t x, uint32_t y,
                             uint32_t z);

/* ---------------------------------------------------------------- blocks ---- */
/* A new label id (not yet placed). */
uint32_t spvgen_label(spvgen_module *m);
/* Places `label` (0: a new one) and makes it the current block. The previous block must
 * be terminated. Returns the label id. */
uint32_t spvgen_block(spvgen_module *m, uint32_t label);
uint32_t spvgen_current_block(const spvgen_module *m);
bool spvgen_block_open(const spvgen_module *m);

/* ------------------------------------------------ structured control flow ---- */
/* if (cond) { ... } [else { ... }]: merge blocks and branches are placed for you.
 *   spvgen_if(m, c); ...; spvgen_else(m); ...; spvgen_end_if(m);
 * A branch that already ended (return, break) is left as is. */
void spvgen_if(spvgen_module *m, uint32_t condition);
void spvgen_else(spvgen_module *m);
void spvgen_end_if(spvgen_module *m);

/* Loops:
 *   spvgen_loop(m);                   header with OpLoopMerge; current block: condition
 *   cond = ...; spvgen_loop_while(m, cond);   exits when cond is false; body follows
 *   ... body ...
 *   spvgen_loop_continue_block(m);    current block: the continue target (increments)
 *   spvgen_end_loop(m);               back edge; current block: after the loop
 * spvgen_loop_while is optional (an infinite loop left by spvgen_break); so is
 * spvgen_loop_continue_block (an empty continue target is made). */
void spvgen_loop(spvgen_module *m, SpvLoopControlMask control);
void spvgen_loop_while(spvgen_module *m, uint32_t condition);
void spvgen_loop_continue_block(spvgen_module *m);
void spvgen_end_loop(spvgen_module *m);
/* Labels of the innermost loop: header, continue target, merge. The header block is
 * closed by spvgen_loop (it holds OpLoopMerge), so an OpPhi cannot go there; use a
 * Function variable for loop-carried values, or build the loop by hand with
 * spvgen_block and the generated spvgen_op_loop_merge / spvgen_op_phi. */
uint32_t spvgen_loop_header(const spvgen_module *m);
uint32_t spvgen_loop_continue_target(const spvgen_module *m);
uint32_t spvgen_loop_merge(const spvgen_module *m);
/* Early exits. They end the current block. */
void spvgen_break(spvgen_module *m);
void spvgen_continue(spvgen_module *m);
void spvgen_return(spvgen_module *m);
void spvgen_return_value(spvgen_module *m, uint32_t value);

/* ------------------------------------------------------------ resources ---- */
/* The helpers below declare a resource in one call and hand back every type its
 * accesses need. */

/* Flags of spvgen_buffer_declare. */
#define SPVGEN_BUFFER_READONLY 1u /* NonWritable: stores through it are refused */

/* A storage buffer `struct { T data[]; }` (see spvgen_storage_buffer). */
typedef struct spvgen_buffer {
  uint32_t variable;             /* the StorageBuffer variable */
  uint32_t element_type;         /* T */
  uint32_t element_pointer_type; /* ptr StorageBuffer T: one element (loads, coopmat) */
  uint32_t array_pointer_type;   /* ptr StorageBuffer T[]: the runtime array (coopvec) */
  uint32_t array_stride;         /* bytes between elements (std430) */
  bool readonly;                 /* declared with SPVGEN_BUFFER_READONLY */
} spvgen_buffer;

/* Declares the buffer at (set, binding) with flags SPVGEN_BUFFER_*; a zeroed struct on
 * error. */
spvgen_buffer spvgen_buffer_declare(spvgen_module *m, uint32_t element_type, uint32_t set,
                                    uint32_t binding, uint32_t flags);
/* Pointer to element `index_id` (an integer value id): OpAccessChain buf {0, index}. */
uint32_t spvgen_buffer_element(spvgen_module *m, const spvgen_buffer *buffer, uint32_t index_id);
/* Pointer to the runtime array (what cooperative vector loads, stores and matrix
 * operands take): OpAccessChain buf {0}. */
uint32_t spvgen_buffer_array(spvgen_module *m, const spvgen_buffer *buffer);

/* A push-constant block `struct { members... }`, decorated Block with std430 Offsets. */
#define SPVGEN_PUSH_CONSTANT_MAX_MEMBERS 32
typedef struct spvgen_push_constant_block {
  uint32_t variable;    /* the PushConstant variable */
  uint32_t struct_type;
  uint32_t count;       /* members */
  uint32_t member_types[SPVGEN_PUSH_CONSTANT_MAX_MEMBERS];
  uint32_t member_pointer_types[SPVGEN_PUSH_CONSTANT_MAX_MEMBERS]; /* ptr PushConstant T */
  uint32_t offsets[SPVGEN_PUSH_CONSTANT_MAX_MEMBERS];              /* bytes */
  uint32_t size;        /* bytes, the block's std430 size (the push-constant range) */
} spvgen_push_constant_block;

/* member_types: scalars, vectors, or arrays with an ArrayStride of those; at most
 * SPVGEN_PUSH_CONSTANT_MAX_MEMBERS. Offsets follow std430 (each member at its alignment).
 * One block per entry point (Vulkan); a zeroed struct on error. */
spvgen_push_constant_block spvgen_push_constants(spvgen_module *m, const uint32_t *member_types,
                                                 uint32_t count);
/* Loads member `member` (an index, not an id) of the block. */
uint32_t spvgen_push_constant_load(spvgen_module *m, const spvgen_push_constant_block *block,
                                   uint32_t member);

/* OpAccessChain whose result type the builder computes: walks the pointee of
 * base_pointer through struct members (constant integer index ids required), arrays,
 * runtime arrays, vectors and matrices (any integer index), and returns a pointer of the
 * base's storage class to what it reaches. */
uint32_t spvgen_access(spvgen_module *m, uint32_t base_pointer, const uint32_t *indices,
                       uint32_t count);

/* -------------------------------------------------------- descriptions ---- */
/* Text for messages, written into buf (always NUL-terminated), returned.
 * spvgen_type_name: "float16", "uint32", "bfloat16", "float8 E4M3", "vec4 float32",
 * "mat3 vec4 float32", "array[16] uint32", "array[] float32 stride 4",
 * "ptr StorageBuffer float32", "struct#12 {array[] float32 stride 4}",
 * "coopmat<float16, Subgroup, 16x16, MatrixAKHR>", "coopvec<float16, 32>"...
 * spvgen_id_name: "id 7, the type float32", "id 16, a constant uint32 0",
 * "id 9, a value of type ptr StorageBuffer float32", "id 3, a label"... */
const char *spvgen_type_name(const spvgen_module *m, uint32_t type, char *buf, size_t size);
const char *spvgen_id_name(const spvgen_module *m, uint32_t id, char *buf, size_t size);

/* ------------------------------------------------------- instructions ---- */
/* Raw emission of any instruction: opcode plus operand words (result type and result id
 * included when the opcode has them; pass a reserved id or use spvgen_emit_result).
 * Operands are checked against the grammar (count, id bounds), capabilities inferred,
 * and the instruction placed in its section by opcode. */
void spvgen_emit(spvgen_module *m, SpvOp opcode, const uint32_t *operands, uint32_t count);
/* For opcodes with a result: emits `opcode result_type <new id> operands...`, returns the
 * new id. result_type 0 for opcodes without a result type (types, labels). */
uint32_t spvgen_emit_result(spvgen_module *m, SpvOp opcode, uint32_t result_type,
                            const uint32_t *operands, uint32_t count);

/* Common helpers (typed; the generated spvgen_op_* cover everything else). Every
 * instruction that writes memory (spvgen_store, OpStore, OpCopyMemory(Sized), atomics,
 * the cooperative stores of spvgen/coop.h; through any emitter, generated or raw) is
 * refused when its pointer may come, through access chains, copies, bitcasts, selects or
 * phis (no hop limit), from a buffer whose member or variable is decorated NonWritable (a
 * read-only spvgen_storage_buffer / spvgen_buffer_declare, or spvgen_decorate /
 * spvgen_member_decorate with NonWritable; a decoration emitted through the raw
 * spvgen_op_decorate is not seen); spvgen_module_finish also refuses a write through a
 * function parameter that a call binds to such a buffer. Through a PhysicalStorageBuffer
 * pointer, spvgen_load and spvgen_store add the Aligned memory operand Vulkan requires,
 * with the pointee's std430 alignment (spvgen_op_load / spvgen_op_store take your own). */
uint32_t spvgen_load(spvgen_module *m, uint32_t type, uint32_t pointer);
void spvgen_store(spvgen_module *m, uint32_t pointer, uint32_t value);
/* OpAccessChain with index ids. The result pointer type is pointer_type; it is checked
 * against the type the indices reach (storage class and pointee; a mismatch names both).
 * spvgen_access computes it instead. */
uint32_t spvgen_access_chain(spvgen_module *m, uint32_t pointer_type, uint32_t base,
                             const uint32_t *indices, uint32_t count);
/* Calls an extended instruction set: OpExtInst type set instruction operands... */
uint32_t spvgen_ext_inst(spvgen_module *m, uint32_t type, uint32_t set, uint32_t instruction,
                         const uint32_t *operands, uint32_t count);
/* OpControlBarrier Workgroup/Workgroup/AcquireRelease|WorkgroupMemory. */
void spvgen_workgroup_barrier(spvgen_module *m);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif

#include "spvgen/ops.h" /* generated: spvgen_op_* and spvgen_glsl_* */

#endif
