/* spvgen/coop.h — typed helpers for cooperative matrices and cooperative vectors.
 *
 * They sit on the generated emitters of spvgen/ops.h and add three things:
 *  - plain C values where SPIR-V wants constant ids (scope, rows, columns, use, memory
 *    layouts, interpretations, M, K, tensor dimensions, clamp modes, permutations): the
 *    helper makes the u32 / bool constants. The *_id variants (and the *_id fields of the
 *    descriptor structs) take ids instead, for specialization constants.
 *  - the capabilities and extensions the grammar cannot infer (bfloat16 and float8
 *    cooperative matrices, Use conversions, Workgroup-scope matrices).
 *  - argument checks taken from the specs. A failed check records a sticky
 *    SPVGEN_ERROR_INVALID_ARGUMENT whose message names the call, the value that is wrong
 *    and the rule with the spec it comes from, e.g.
 *      "spvgen_coopvec_matmul: the result has 16 components but M is 32
 *       (SPV_NV_cooperative_vector: M must equal the result's component count)"
 *    Checks on values given as ids run only when the id is a (non-spec) constant.
 *
 * Specs: SPV_KHR_cooperative_matrix, SPV_NV_cooperative_matrix2, SPV_NV_tensor_addressing,
 * SPV_NV_cooperative_vector (with GLSL_NV_cooperative_vector for the rules it leaves to
 * the shading language), SPV_KHR_bfloat16, SPV_EXT_float8. docs/cooperative.md has a tour.
 *
 * Enumerations are the SPIR-V ones of spirv.h: SpvScope, SpvCooperativeMatrixUse,
 * SpvCooperativeMatrixLayout, SpvCooperativeMatrixOperandsMask, SpvCooperativeMatrixReduceMask,
 * SpvTensorClampMode, SpvCooperativeVectorMatrixLayout, SpvMemoryAccessMask, and
 * SpvComponentType for the interpretations of cooperative vector data (its values are
 * VkComponentTypeKHR's; spvgen_component_to_spirv in spvgen/caps.h converts from the
 * component types of caps and templates). */
#ifndef SPVGEN_COOP_H
#define SPVGEN_COOP_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/builder.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

/* ========================================================== component types ==== */
/* FP encodings of OpTypeFloat and the capabilities that come with them. The SPIR-V
 * headers spvgen builds against may predate these extensions, so the values are here. */
#define SPVGEN_FP_ENCODING_BFLOAT16 0u       /* BFloat16KHR (SPV_KHR_bfloat16) */
#define SPVGEN_FP_ENCODING_FLOAT8_E4M3 4214u /* Float8E4M3EXT (SPV_EXT_float8) */
#define SPVGEN_FP_ENCODING_FLOAT8_E5M2 4215u /* Float8E5M2EXT (SPV_EXT_float8) */
#define SPVGEN_CAPABILITY_BFLOAT16_TYPE 5116u               /* BFloat16TypeKHR */
#define SPVGEN_CAPABILITY_BFLOAT16_COOPERATIVE_MATRIX 5118u /* BFloat16CooperativeMatrixKHR */
#define SPVGEN_CAPABILITY_FLOAT8 4212u                      /* Float8EXT */
#define SPVGEN_CAPABILITY_FLOAT8_COOPERATIVE_MATRIX 4213u   /* Float8CooperativeMatrixEXT */

/* float16 is spvgen_type_float(m, 16), int8 spvgen_type_int(m, 8, signed): capabilities
 * Float16 / Int8 (and the 8/16-bit storage ones for buffer pointers) are inferred. */
/* OpTypeFloat 16 BFloat16KHR: capability BFloat16TypeKHR, extension SPV_KHR_bfloat16. */
uint32_t spvgen_type_bfloat16(spvgen_module *m);
/* OpTypeFloat 8 Float8E4M3EXT / Float8E5M2EXT: capability Float8EXT, SPV_EXT_float8. */
uint32_t spvgen_type_float_e4m3(spvgen_module *m);
uint32_t spvgen_type_float_e5m2(spvgen_module *m);

/* Interpretations of cooperative vector data are spirv.h's SpvComponentType (SPIR-V
 * operand kind ComponentType; the values are VkComponentTypeKHR's, and GLSL's
 * gl_ComponentType*NV). The packed kinds hold four 8-bit integers in each 32-bit
 * component of an input vector. */
/* "Float16NV", "SignedInt8PackedNV", ... (the grammar's names); NULL if not one. */
const char *spvgen_interpretation_name(SpvComponentType interp);
/* Bytes per element: 2 for Float16NV, 1 for the 8-bit and packed kinds...; 0 if unknown. */
uint32_t spvgen_interpretation_size(SpvComponentType interp);
/* The scalar type an interpretation names (Float16NV -> float16, SignedInt8NV -> signed
 * int8, FloatE4M3NV -> float8 E4M3, packed kinds -> uint32: the type that holds them). */
uint32_t spvgen_type_for_interpretation(spvgen_module *m, SpvComponentType interp);

/* ======================================================== type introspection ==== */
typedef struct spvgen_coop_type_info {
  uint32_t opcode;      /* SpvOpTypeCooperativeMatrixKHR, SpvOpTypeCooperativeVectorNV */
  uint32_t component;   /* component type id */
  /* matrices: values, or SPVGEN_ABSENT where a specialization constant gives them */
  uint32_t scope, rows, columns, use;
  uint32_t scope_id, rows_id, columns_id, use_id;
  /* vectors: component count (SPVGEN_ABSENT if a spec constant) and its id */
  uint32_t count, count_id;
} spvgen_coop_type_info;
/* Fills *info for a cooperative matrix (KHR) or vector type; false for anything else. */
bool spvgen_coop_type_query(const spvgen_module *m, uint32_t type, spvgen_coop_type_info *info);

/* Memory operands of the cooperative loads and stores (SPIR-V 3.26). NULL or a zeroed
 * struct means "None". Operands follow the mask in bit order. */
typedef struct spvgen_memory_operands {
  uint32_t mask;      /* SpvMemoryAccessMask bits */
  uint32_t alignment; /* with SpvMemoryAccessAlignedMask: bytes, a power of two */
  SpvScope scope;     /* with MakePointerAvailable (stores) / MakePointerVisible (loads) */
} spvgen_memory_operands;

/* ============================================ SPV_KHR_cooperative_matrix ==== */
/* OpTypeCooperativeMatrixKHR. component: a scalar int or float type (bfloat16 adds
 * BFloat16CooperativeMatrixKHR, float8 Float8CooperativeMatrixEXT). scope: Subgroup, or
 * Workgroup (SPV_NV_cooperative_matrix2: "the workgroup size must have already been
 * specified in the module, including any constant instructions used by LocalSizeId":
 * execution modes precede types in the module, so a LocalSize may come before or after
 * the type; the constants of a LocalSizeId must be defined before it, else
 * SPVGEN_ERROR_INVALID_ARGUMENT). rows, cols >= 1. use: MatrixAKHR, MatrixBKHR or
 * MatrixAccumulatorKHR. */
uint32_t spvgen_type_coopmat(spvgen_module *m, uint32_t component, SpvScope scope, uint32_t rows,
                             uint32_t cols, SpvCooperativeMatrixUse use);
/* Same with ids of integer constants or specialization constants. A scope given by a
 * specialization constant that may be Workgroup needs spvgen_extension(m,
 * "SPV_NV_cooperative_matrix2") from the caller (a known Workgroup scope adds it), and is
 * not checked for the workgroup size rule above (a constant Workgroup scope is). */
uint32_t spvgen_type_coopmat_id(spvgen_module *m, uint32_t component, uint32_t scope_id,
                                uint32_t rows_id, uint32_t cols_id, uint32_t use_id);

/* OpCooperativeMatrixLoadKHR / StoreKHR. pointer: to a scalar or vector element (an
 * OpAccessChain into an array, e.g. spvgen_buffer_element) in Workgroup, StorageBuffer or
 * PhysicalStorageBuffer. stride: a NUMBER of elements of the pointee between rows
 * (RowMajorKHR) or columns (ColumnMajorKHR); the helper makes the constant. Required by
 * those layouts; 0 means no Stride operand. The ARM blocked layouts
 * (SPV_ARM_cooperative_matrix_layouts) take a stride of 1, 2 or 4. mem may be NULL.
 * Stores follow spvgen_store: (pointer, object, ...); a pointer into a read-only buffer
 * is refused. */
uint32_t spvgen_coopmat_load(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                             SpvCooperativeMatrixLayout layout, uint32_t stride,
                             const spvgen_memory_operands *mem);
void spvgen_coopmat_store(spvgen_module *m, uint32_t pointer, uint32_t object,
                          SpvCooperativeMatrixLayout layout, uint32_t stride,
                          const spvgen_memory_operands *mem);
/* Same with the stride as an id: an integer value (a run-time stride, a specialization
 * constant). Anything else (a type, a label, a float...) is refused with a message that
 * names what the id is. */
uint32_t spvgen_coopmat_load_stride_id(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                                       SpvCooperativeMatrixLayout layout, uint32_t stride_id,
                                       const spvgen_memory_operands *mem);
void spvgen_coopmat_store_stride_id(spvgen_module *m, uint32_t pointer, uint32_t object,
                                    SpvCooperativeMatrixLayout layout, uint32_t stride_id,
                                    const spvgen_memory_operands *mem);
/* Same with the layout as the id of a constant or specialization constant, and the
 * stride as an id (0: none). */
uint32_t spvgen_coopmat_load_id(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                                uint32_t layout_id, uint32_t stride_id,
                                const spvgen_memory_operands *mem);
void spvgen_coopmat_store_id(spvgen_module *m, uint32_t pointer, uint32_t object,
                             uint32_t layout_id, uint32_t stride_id,
                             const spvgen_memory_operands *mem);

/* OR this into the operands of spvgen_coopmat_muladd to set the Matrix{A,B,C,Result}-
 * SignedComponentsKHR bits from the signedness of the integer component types. */
#define SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES 0x80000000u
/* OpCooperativeMatrixMulAddKHR: result = a * b + c. a: M x K, Use MatrixAKHR; b: K x N,
 * Use MatrixBKHR; c and result_type: M x N, Use MatrixAccumulatorKHR; one scope for all.
 * result_type 0: c's type. operands: SpvCooperativeMatrixOperandsMask bits (signedness
 * only on integer matrices, SaturatingAccumulationKHR only with integer C and result),
 * optionally with SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES; 0 emits no operand. */
uint32_t spvgen_coopmat_muladd(spvgen_module *m, uint32_t result_type, uint32_t a, uint32_t b,
                               uint32_t c, uint32_t operands);
/* OpCooperativeMatrixLengthKHR: components of `type` owned by each invocation (uint). */
uint32_t spvgen_coopmat_length(spvgen_module *m, uint32_t type);

/* ======================= operations on both cooperative matrices and vectors ==== */
/* Every component = scalar (of the component type). A constant scalar gives an
 * OpConstantComposite, anything else OpCompositeConstruct (a matrix takes the one
 * scalar, a vector one copy per component). */
uint32_t spvgen_coop_splat(spvgen_module *m, uint32_t type, uint32_t scalar);
/* Every component = value, for float component types (float16, bfloat16, float32, float8
 * ...): spvgen_const_float's rounding, then a constant splat. */
uint32_t spvgen_coop_splat_float(spvgen_module *m, uint32_t type, double value);
/* OpCompositeConstruct of a cooperative vector from one scalar per component. */
uint32_t spvgen_coop_construct(spvgen_module *m, uint32_t type, const uint32_t *parts,
                               uint32_t count);
/* OpCompositeExtract / OpCompositeInsert of component `index` (for matrices: of this
 * invocation's components, index < spvgen_coopmat_length). */
uint32_t spvgen_coop_extract(spvgen_module *m, uint32_t composite, uint32_t index);
uint32_t spvgen_coop_insert(spvgen_module *m, uint32_t composite, uint32_t value, uint32_t index);
/* Component-wise binary arithmetic; a and b of one type, which the result has.
 * Matrices: OpFAdd OpFSub OpFMul OpFDiv / OpIAdd OpISub OpIMul OpSDiv OpUDiv (OpUDiv only
 * on unsigned components).
 * Vectors: the same, and on integers OpBitwiseAnd/Or/Xor, OpShiftLeftLogical,
 * OpShiftRightLogical, OpShiftRightArithmetic (GLSL_NV_cooperative_vector 5.9). */
uint32_t spvgen_coop_arith(spvgen_module *m, SpvOp op, uint32_t a, uint32_t b);
/* OpFNegate or OpSNegate by component type. */
uint32_t spvgen_coop_negate(spvgen_module *m, uint32_t a);
/* OpNot of an integer cooperative vector. */
uint32_t spvgen_coop_not(spvgen_module *m, uint32_t a);
/* a * scalar: OpMatrixTimesScalar for matrices, OpVectorTimesScalar for float vectors,
 * a splat and OpIMul for integer vectors. scalar has the component type. */
uint32_t spvgen_coop_scale(spvgen_module *m, uint32_t a, uint32_t scalar);
/* Component type conversion between matrices of one shape (or vectors of one length):
 * OpFConvert, OpConvert{F,S,U}To{F,S,U}, OpSConvert/OpUConvert, or OpBitcast between
 * integers of one width. A matrix conversion may also change Use from
 * MatrixAccumulatorKHR to MatrixA/BKHR (SPV_NV_cooperative_matrix2; adds
 * CooperativeMatrixConversionsNV). */
uint32_t spvgen_coop_convert(spvgen_module *m, uint32_t result_type, uint32_t a);

/* ============================ SPV_NV_cooperative_matrix2 / SPV_NV_tensor_addressing ==== */
/* Workgroup-scope matrices: spvgen_type_coopmat(..., SpvScopeWorkgroup, ...). */

/* OpTypeTensorLayoutNV: dim in [1, 5], clamp_mode a SpvTensorClampMode. */
uint32_t spvgen_type_tensor_layout(spvgen_module *m, uint32_t dim, SpvTensorClampMode clamp_mode);
uint32_t spvgen_type_tensor_layout_id(spvgen_module *m, uint32_t dim_id, uint32_t clamp_mode_id);
/* OpTypeTensorViewNV: dim in [1, 5]; permutation: dim values forming a permutation of
 * 0..dim-1 (NULL: identity). */
uint32_t spvgen_type_tensor_view(spvgen_module *m, uint32_t dim, bool has_dimensions,
                                 const uint32_t *permutation);
/* Same with ids (dim_id and permutation ids of 32-bit integer constants, has_dimensions_id
 * of a bool constant); permutation_count must equal the dimension. */
uint32_t spvgen_type_tensor_view_id(spvgen_module *m, uint32_t dim_id, uint32_t has_dimensions_id,
                                    const uint32_t *permutation_ids, uint32_t permutation_count);

/* The tensor layout/view instructions return the updated object (same type). Their
 * value operands are ids of 32-bit integers (run-time values are fine); the counts are
 * checked against the type's dimension. */
uint32_t spvgen_tensor_layout_create(spvgen_module *m, uint32_t layout_type);
uint32_t spvgen_tensor_layout_set_dimension(spvgen_module *m, uint32_t layout, const uint32_t *dims,
                                            uint32_t count);
uint32_t spvgen_tensor_layout_set_stride(spvgen_module *m, uint32_t layout, const uint32_t *strides,
                                         uint32_t count);
/* OpTensorLayoutSliceNV: (offset, span) for every dimension. */
uint32_t spvgen_tensor_layout_slice(spvgen_module *m, uint32_t layout, const uint32_t *offsets,
                                    const uint32_t *spans, uint32_t count);
uint32_t spvgen_tensor_layout_set_clamp_value(spvgen_module *m, uint32_t layout, uint32_t value);
uint32_t spvgen_tensor_layout_set_block_size(spvgen_module *m, uint32_t layout,
                                             const uint32_t *block_sizes, uint32_t count);
uint32_t spvgen_tensor_view_create(spvgen_module *m, uint32_t view_type);
uint32_t spvgen_tensor_view_set_dimension(spvgen_module *m, uint32_t view, const uint32_t *dims,
                                          uint32_t count);
uint32_t spvgen_tensor_view_set_stride(spvgen_module *m, uint32_t view, const uint32_t *strides,
                                       uint32_t count);
uint32_t spvgen_tensor_view_set_clip(spvgen_module *m, uint32_t view, uint32_t row_offset,
                                     uint32_t row_span, uint32_t col_offset, uint32_t col_span);

/* The tensor addressing operands of the tensor loads and stores; each nonzero id sets
 * its bit, and the ids follow the mask in bit order (TensorView, then DecodeFunc). */
typedef struct spvgen_tensor_operands {
  uint32_t tensor_view; /* a tensor view value */
  uint32_t decode_func; /* loads only: a function (see spvgen_type_decode_func) */
} spvgen_tensor_operands;

/* OpCooperativeMatrixLoadTensorNV. pointer: into an array (an element pointer) in
 * Workgroup, StorageBuffer or PhysicalStorageBuffer (not Workgroup with a DecodeFunc).
 * object: the value clipped elements keep (result_type; 0: OpConstantNull). mem and
 * tensor may be NULL. */
uint32_t spvgen_coopmat_load_tensor(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                                    uint32_t object, uint32_t tensor_layout,
                                    const spvgen_memory_operands *mem,
                                    const spvgen_tensor_operands *tensor);
/* OpCooperativeMatrixStoreTensorNV (no DecodeFunc). */
void spvgen_coopmat_store_tensor(spvgen_module *m, uint32_t pointer, uint32_t object,
                                 uint32_t tensor_layout, const spvgen_memory_operands *mem,
                                 const spvgen_tensor_operands *tensor);

/* OpCooperativeMatrixReduceNV. reduce: SpvCooperativeMatrixReduce{Row,Column,2x2}Mask
 * (Row|Column allowed, 2x2 alone). matrix and result_type: MatrixAccumulatorKHR, one
 * component type and scope; Row keeps the rows, Column the columns, 2x2 halves both.
 * combine_func: a function (component, component) -> component. */
uint32_t spvgen_coopmat_reduce(spvgen_module *m, uint32_t result_type, uint32_t matrix,
                               uint32_t reduce, uint32_t combine_func);
/* OpCooperativeMatrixPerElementOpNV: func(row, col, element, extra...) -> element is
 * called for every element; the result has the matrix's type. extra: further operands
 * (a cooperative matrix operand passes its corresponding element). */
uint32_t spvgen_coopmat_per_element(spvgen_module *m, uint32_t matrix, uint32_t func,
                                    const uint32_t *extra, uint32_t extra_count);
/* OpCooperativeMatrixConvertNV: MatrixAccumulatorKHR -> MatrixAKHR / MatrixBKHR, same
 * component type, scope and shape. */
uint32_t spvgen_coopmat_convert_use(spvgen_module *m, uint32_t result_type, uint32_t matrix);
/* OpCooperativeMatrixTransposeNV: MatrixAccumulatorKHR R x C -> MatrixBKHR C x R. */
uint32_t spvgen_coopmat_transpose(spvgen_module *m, uint32_t result_type, uint32_t matrix);

/* Function types of the callbacks, and helpers that begin such a function (its first
 * block is current; emit the body, spvgen_return_value, spvgen_function_end). Call the
 * *_begin helpers outside any function. params receives the parameter ids.
 *   combine:     component (component a, component b)
 *   per-element: component (uint row, uint col, component element, extra...)
 *   decode:      component (PhysicalStorageBuffer pointer to `pointee`,
 *                           uint blockCoord[dim], uint coordInBlock[dim])
 * The decode helpers need a module whose addressing model is PhysicalStorageBuffer64
 * (spvgen_module_desc.addressing); the pointer parameter is decorated Aliased. */
uint32_t spvgen_type_combine_func(spvgen_module *m, uint32_t component);
uint32_t spvgen_type_per_element_func(spvgen_module *m, uint32_t component,
                                      const uint32_t *extra_types, uint32_t extra_count);
uint32_t spvgen_type_decode_func(spvgen_module *m, uint32_t component, uint32_t pointee,
                                 uint32_t dim);
uint32_t spvgen_combine_func_begin(spvgen_module *m, uint32_t component, uint32_t params[2]);
uint32_t spvgen_per_element_func_begin(spvgen_module *m, uint32_t component,
                                       const uint32_t *extra_types, uint32_t extra_count,
                                       uint32_t *params /* 3 + extra_count */);
uint32_t spvgen_decode_func_begin(spvgen_module *m, uint32_t component, uint32_t pointee,
                                  uint32_t dim, uint32_t params[3]);

/* ============================================== SPV_NV_cooperative_vector ==== */
/* OpTypeCooperativeVectorNV: a scalar int or float component type, count >= 1. */
uint32_t spvgen_type_coopvec(spvgen_module *m, uint32_t component, uint32_t count);
uint32_t spvgen_type_coopvec_id(spvgen_module *m, uint32_t component, uint32_t count_id);

/* OpCooperativeVectorLoadNV / StoreNV. pointer: to an array (sized or runtime) of
 * scalars or vectors in Workgroup, StorageBuffer or PhysicalStorageBuffer
 * (spvgen_buffer_array). offset: id of a 32-bit integer (a run-time value), in bytes from
 * the start of the array, a multiple of 16; 0: offset 0. mem may be NULL. The store takes
 * (pointer, object, offset), like spvgen_store and spvgen_coopmat_store. */
uint32_t spvgen_coopvec_load(spvgen_module *m, uint32_t result_type, uint32_t pointer,
                             uint32_t offset, const spvgen_memory_operands *mem);
void spvgen_coopvec_store(spvgen_module *m, uint32_t pointer, uint32_t object, uint32_t offset,
                          const spvgen_memory_operands *mem);

/* A matrix-vector multiply: result = M x K matrix * K-vector input (+ M-vector bias).
 * A zeroed struct plus result_type, input and matrix is a complete request: float16
 * interpretations, offset 0, row-major, no transpose, M and K from the vector lengths,
 * the tight stride. */
typedef struct spvgen_coopvec_matmul_desc {
  uint32_t result_type; /* cooperative vector of M float16, float32, int32 or uint32 */
  uint32_t input;       /* cooperative vector value */
  SpvComponentType input_interpretation;
  uint32_t matrix;        /* pointer to an array in StorageBuffer / PhysicalStorageBuffer */
  uint32_t matrix_offset; /* id of a 32-bit integer, bytes, multiple of 64; 0: offset 0 */
  SpvComponentType matrix_interpretation;
  uint32_t bias;          /* spvgen_coopvec_matmul_add only: pointer as for matrix */
  uint32_t bias_offset;   /* bytes, multiple of 16; 0: offset 0 */
  SpvComponentType bias_interpretation;
  uint32_t m;             /* 0: the result's component count */
  uint32_t k;             /* 0: the input's count (times 4 with a packed interpretation) */
  SpvCooperativeVectorMatrixLayout layout; /* 0: RowMajorNV */
  bool transpose;         /* not with RowMajorNV / ColumnMajorNV */
  uint32_t matrix_stride; /* bytes between rows (columns), multiple of 16, at least a row
                             (K elements; M for ColumnMajor); 0 with RowMajor/ColumnMajor:
                             that tight stride; unused by optimal layouts */
  uint32_t operands;      /* SpvCooperativeMatrixOperandsMask bits; 0: inferred, the
                             way GLSL does: MatrixBSignedComponents for a signed integer
                             input type, MatrixResultSignedComponents for a signed integer
                             result (without them the driver reads the integers as
                             unsigned); none for float vectors */
  /* Ids that replace the plain values above when nonzero (specialization constants, or
   * a run-time stride). */
  uint32_t m_id, k_id, layout_id, transpose_id, matrix_stride_id;
  uint32_t input_interpretation_id, matrix_interpretation_id, bias_interpretation_id;
} spvgen_coopvec_matmul_desc;

/* OpCooperativeVectorMatrixMulNV (desc->bias must be 0). */
uint32_t spvgen_coopvec_matmul(spvgen_module *m, const spvgen_coopvec_matmul_desc *desc);
/* OpCooperativeVectorMatrixMulAddNV (desc->bias required). */
uint32_t spvgen_coopvec_matmul_add(spvgen_module *m, const spvgen_coopvec_matmul_desc *desc);

/* OpCooperativeVectorOuterProductAccumulateNV: atomically adds a * b^T (M x N) to the
 * matrix at pointer + offset (capability CooperativeVectorTrainingNV). */
typedef struct spvgen_coopvec_outer_product_desc {
  uint32_t pointer; /* array in StorageBuffer / PhysicalStorageBuffer */
  uint32_t offset;  /* id, bytes, multiple of 16; 0: offset 0 */
  uint32_t a, b;    /* cooperative vectors of one component type (M and N components) */
  SpvCooperativeVectorMatrixLayout layout; /* 0: RowMajorNV */
  SpvComponentType matrix_interpretation; /* the accumulation type; 0: Float16NV */
  uint32_t matrix_stride; /* bytes, multiple of 16; 0 with Row/ColumnMajor: N (M) elements */
  uint32_t layout_id, matrix_interpretation_id, matrix_stride_id; /* replace when nonzero */
} spvgen_coopvec_outer_product_desc;
void spvgen_coopvec_outer_product_accumulate(spvgen_module *m,
                                             const spvgen_coopvec_outer_product_desc *desc);
/* OpCooperativeVectorReduceSumAccumulateNV: atomically adds v's components to the array
 * elements at pointer + offset (an id, bytes, a multiple of 16; 0: offset 0). Argument
 * order as for stores: (pointer, object, offset). */
void spvgen_coopvec_reduce_sum_accumulate(spvgen_module *m, uint32_t pointer, uint32_t v,
                                          uint32_t offset);

/* The GLSL.std.450 functions GLSL_NV_cooperative_vector allows on cooperative vectors
 * (5.9: fma, exp, log, tanh, atan, min, max, clamp, step), component-wise; all operands
 * have one cooperative vector type. min/max/clamp pick the F/S/U form by component type;
 * the others need float components. */
uint32_t spvgen_coopvec_fma(spvgen_module *m, uint32_t a, uint32_t b, uint32_t c);
uint32_t spvgen_coopvec_exp(spvgen_module *m, uint32_t x);
uint32_t spvgen_coopvec_log(spvgen_module *m, uint32_t x);
uint32_t spvgen_coopvec_tanh(spvgen_module *m, uint32_t x);
uint32_t spvgen_coopvec_atan(spvgen_module *m, uint32_t x);
uint32_t spvgen_coopvec_min(spvgen_module *m, uint32_t x, uint32_t y);
uint32_t spvgen_coopvec_max(spvgen_module *m, uint32_t x, uint32_t y);
uint32_t spvgen_coopvec_clamp(spvgen_module *m, uint32_t x, uint32_t lo, uint32_t hi);
uint32_t spvgen_coopvec_step(spvgen_module *m, uint32_t edge, uint32_t x);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif

#endif
