/* lib/ref/ref_tensor.h — a CPU reference of tensor layout / tensor view addressing
 * (SPV_NV_tensor_addressing + SPV_NV_cooperative_matrix2, section "Tensor Layout and
 * View"; GLSL_NV_cooperative_matrix2 section 8.X). It is the oracle GPU tests compare
 * OpCooperativeMatrixLoadTensorNV / StoreTensorNV results against.
 *
 * The state structs are the spec's tensorLayoutNV / tensorViewNV; the setters copy a state
 * and update it the way the OpTensorLayout* / OpTensorView* instructions do (including the
 * defaults OpTensorLayoutSetDimensionNV writes into offset and stride), and the addressing
 * functions follow the spec pseudocode step by step (matrixCoordToTensorElement and
 * matrixCoordToTensorElementWithView). docs/tensor_addressing.md explains the model with a
 * worked example.
 *
 * Where the pseudocode leaves something undefined (an out-of-bounds coordinate with the
 * Undefined clamp mode, a division by a zero span/block size/view dimension, RepeatMirrored
 * on a dimension of size 1, ...) the reference reports TENSOR_REF_UNDEFINED instead of
 * guessing, so a test can assert that it never depends on such an element.
 *
 * Plain C11; depends on nothing but the C library. */
#ifndef SPVGEN_REF_TENSOR_H
#define SPVGEN_REF_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TENSOR_REF_MAX_DIM 5

/* Tensor Clamp Mode (SPV_NV_tensor_addressing), same numbering as the SPIR-V enumerants. */
typedef enum tensor_ref_clamp_mode {
  TENSOR_REF_CLAMP_UNDEFINED = 0,
  TENSOR_REF_CLAMP_CONSTANT = 1,
  TENSOR_REF_CLAMP_TO_EDGE = 2,
  TENSOR_REF_CLAMP_REPEAT = 3,
  TENSOR_REF_CLAMP_REPEAT_MIRRORED = 4,
} tensor_ref_clamp_mode;

/* tensorLayoutNV<Dim, Mode>: `dim` and `clamp_mode` are the type's parameters, the rest is
 * the object state. Entries at index >= dim are unused (kept zero by the setters). */
typedef struct tensor_ref_layout {
  uint32_t dim;                             /* LDim, 1..5 */
  tensor_ref_clamp_mode clamp_mode;
  uint32_t block_size[TENSOR_REF_MAX_DIM];
  uint32_t dimension[TENSOR_REF_MAX_DIM];   /* layoutDimension */
  uint32_t stride[TENSOR_REF_MAX_DIM];      /* in blocks when block_size != 1 */
  int32_t offset[TENSOR_REF_MAX_DIM];
  uint32_t span[TENSOR_REF_MAX_DIM];
  uint32_t clamp_value;
} tensor_ref_layout;

/* tensorViewNV<Dim, hasDimensions, p0..p<Dim-1>>. */
typedef struct tensor_ref_view {
  uint32_t dim;                             /* VDim, 1..5 */
  bool has_dimensions;
  uint32_t permutation[TENSOR_REF_MAX_DIM];
  uint32_t dimension[TENSOR_REF_MAX_DIM];   /* viewDimension */
  uint32_t stride[TENSOR_REF_MAX_DIM];      /* viewStride */
  uint32_t clip_row_offset, clip_row_span, clip_col_offset, clip_col_span;
} tensor_ref_view;

/* ---- OpCreateTensorLayoutNV and OpTensorLayoutSet*NV: each returns an updated copy. The
 * arrays hold `t.dim` values. ---- */

/* OpCreateTensorLayoutNV: dimension, stride, span and offset zero; block sizes one; clamp
 * value zero. */
tensor_ref_layout tensor_ref_layout_create(uint32_t dim, tensor_ref_clamp_mode mode);
/* OpTensorLayoutSetBlockSizeNV: sets blockSize only (so set it before the dimensions: it
 * feeds the default strides SetDimension computes). */
tensor_ref_layout tensor_ref_layout_set_block_size(tensor_ref_layout t, const uint32_t *block_size);
/* OpTensorLayoutSetDimensionNV: layoutDimension = span = dims, offset = 0,
 * stride[LDim-1] = 1, stride[i] = stride[i+1] * ceil(dims[i+1] / blockSize[i+1]). */
tensor_ref_layout tensor_ref_layout_set_dimension(tensor_ref_layout t, const uint32_t *dims);
/* OpTensorLayoutSetStrideNV: sets the strides only. */
tensor_ref_layout tensor_ref_layout_set_stride(tensor_ref_layout t, const uint32_t *stride);
/* OpTensorLayoutSliceNV: offset[i] += offsets[i] (accumulates), span[i] = spans[i]. */
tensor_ref_layout tensor_ref_layout_slice(tensor_ref_layout t, const int32_t *offsets,
                                          const uint32_t *spans);
/* OpTensorLayoutSetClampValueNV. Loads of out-of-bounds elements in Constant mode return
 * the low bits of this value (as many as the element has). */
tensor_ref_layout tensor_ref_layout_set_clamp_value(tensor_ref_layout t, uint32_t value);

/* ---- OpCreateTensorViewNV and OpTensorViewSet*NV ---- */

/* OpCreateTensorViewNV: dimension and stride zero, clip offsets 0 and spans 0xFFFFFFFF.
 * `permutation` (dim entries) may be NULL for the identity {0, 1, ..., dim-1}. */
tensor_ref_view tensor_ref_view_create(uint32_t dim, bool has_dimensions,
                                       const uint32_t *permutation);
/* OpTensorViewSetDimensionNV: viewDimension = dims, viewStride[VDim-1] = 1 and viewStride[i]
 * = dims[i+1] * ... * dims[VDim-1]. */
tensor_ref_view tensor_ref_view_set_dimension(tensor_ref_view v, const uint32_t *dims);
/* OpTensorViewSetStrideNV. */
tensor_ref_view tensor_ref_view_set_stride(tensor_ref_view v, const uint32_t *stride);
/* OpTensorViewSetClipNV. */
tensor_ref_view tensor_ref_view_set_clip(tensor_ref_view v, uint32_t row_offset, uint32_t row_span,
                                         uint32_t col_offset, uint32_t col_span);

/* Checks of the "must" rules the spec states on the state (dimension count in [1,5], block
 * sizes nonzero, Stride<i> >= Stride<i+1> * ceil(layoutDimension[i+1] / blockSize[i+1]);
 * for views: a valid permutation of [0, VDim)). NULL when fine, otherwise a sentence
 * naming the first violated rule (static storage). */
const char *tensor_ref_layout_problem(const tensor_ref_layout *t);
const char *tensor_ref_view_problem(const tensor_ref_view *v);

/* ---- addressing ---- */

typedef enum tensor_ref_op { TENSOR_REF_LOAD, TENSOR_REF_STORE } tensor_ref_op;

typedef enum tensor_ref_outcome {
  /* `index` is the element loaded from / stored to (possibly after clamping a coordinate) */
  TENSOR_REF_ELEMENT = 0,
  /* load, Constant mode, a coordinate out of bounds: the element is the clamp value */
  TENSOR_REF_CLAMP_VALUE,
  /* store with any clamp mode but Undefined, a coordinate out of bounds: nothing written */
  TENSOR_REF_DISCARDED,
  /* outside the view's clip rectangle: a load leaves the matrix element unmodified, a store
   * is skipped */
  TENSOR_REF_CLIPPED,
  /* the spec leaves the result undefined (see the file comment) */
  TENSOR_REF_UNDEFINED,
} tensor_ref_outcome;

typedef struct tensor_ref_address {
  tensor_ref_outcome outcome;
  /* TENSOR_REF_ELEMENT: the element index (tensorCoordToLinear), in units of the element
   * (or, with a DecodeFunc, of the decode function's pointee struct) from the base pointer.
   * 32-bit arithmetic, as in the pseudocode. */
  uint32_t index;
  /* TENSOR_REF_ELEMENT: true when some coordinate was out of bounds and was moved in by
   * ClampToEdge / Repeat / RepeatMirrored. */
  bool clamped;
  /* TENSOR_REF_ELEMENT: what a DecodeFunc receives (entries >= LDim are zero). */
  uint32_t block_coord[TENSOR_REF_MAX_DIM];
  uint32_t coord_in_block[TENSOR_REF_MAX_DIM];
} tensor_ref_address;

/* The clamp step of spanCoordToTensorCoord for one coordinate c = spanCoord + offset,
 * against a layout dimension `dim_size`. Returns TENSOR_REF_ELEMENT with *out the in-bounds
 * coordinate, or CLAMP_VALUE / DISCARDED / UNDEFINED. Remainders follow OpSMod (the sign of
 * the divisor), so Repeat maps -1 to dim_size-1; RepeatMirrored has period 2*dim_size-2 and
 * does not repeat the edge element: with dim_size 4, c = -2..7 gives 2 1 0 1 2 3 2 1 0 1. */
tensor_ref_outcome tensor_ref_clamp_coordinate(tensor_ref_clamp_mode mode, tensor_ref_op op,
                                               int64_t c, uint32_t dim_size, uint32_t *out);

/* matrixCoordToTensorElement: element (row, col) of a matrix with `cols` columns (the
 * pseudocode's N), through layout `t` alone. */
tensor_ref_address tensor_ref_matrix_coord_to_tensor_element(const tensor_ref_layout *t,
                                                             tensor_ref_op op, uint32_t row,
                                                             uint32_t col, uint32_t cols);
/* matrixCoordToTensorElementWithView: the same through view `v` and then layout `t` (v NULL:
 * as without a view). */
tensor_ref_address tensor_ref_matrix_coord_to_tensor_element_with_view(
    const tensor_ref_layout *t, const tensor_ref_view *v, tensor_ref_op op, uint32_t row,
    uint32_t col, uint32_t cols);

/* ---- whole matrices ---- */

typedef enum tensor_ref_status {
  TENSOR_REF_OK = 0,
  TENSOR_REF_INVALID_ARGUMENT,  /* bad layout/view (see *_problem), NULL array, block size
                                 * > 1 with a store */
  TENSOR_REF_UNDEFINED_BEHAVIOR, /* some element's result is undefined by the spec */
  TENSOR_REF_OUT_OF_BUFFER,     /* some element index is >= the given buffer length */
  TENSOR_REF_STORE_CONFLICT,    /* two matrix elements store different values to one element */
} tensor_ref_status;

const char *tensor_ref_status_name(tensor_ref_status s);

/* The address of every element of a rows x cols matrix (row-major, rows*cols entries) for a
 * load or store through `t` and, when not NULL, `v`. TENSOR_REF_UNDEFINED_BEHAVIOR when
 * some entry is TENSOR_REF_UNDEFINED (all entries are still filled). */
tensor_ref_status tensor_ref_matrix_addresses(const tensor_ref_layout *t, const tensor_ref_view *v,
                                              tensor_ref_op op, uint32_t rows, uint32_t cols,
                                              tensor_ref_address *out);

/* OpCooperativeMatrixLoadTensorNV on raw element bits: `buf` holds `buf_len` elements of
 * `elem_size` bytes (1, 2, 4 or 8; host byte order), `matrix` holds rows*cols values, one
 * element's bits each, and is read-modify-write: clipped elements keep what they had.
 * Clamp-value elements get the low elem_size*8 bits of the clamp value (zero-extended for
 * 8-byte elements). Undefined or out-of-buffer elements are set to 0 and reported by the
 * status (the first problem found, UNDEFINED before OUT_OF_BUFFER). */
tensor_ref_status tensor_ref_load_bits(const tensor_ref_layout *t, const tensor_ref_view *v,
                                       uint32_t rows, uint32_t cols, uint32_t elem_size,
                                       const void *buf, size_t buf_len, uint64_t *matrix);

/* OpCooperativeMatrixStoreTensorNV, as a map: writer[i] (buf_len entries) becomes the
 * row-major matrix element index (row*cols+col) stored to buffer element i, or -1 when no
 * element is stored there. When two matrix elements store to one buffer element the first
 * in row-major order is kept and *conflicts (optional) counts the others; the status is
 * TENSOR_REF_STORE_CONFLICT then (values may still agree: tensor_ref_store_bits checks
 * that). A block size > 1 is TENSOR_REF_INVALID_ARGUMENT ("a block size larger than 1 must
 * not be used with OpCooperativeMatrixStoreTensorNV"). */
tensor_ref_status tensor_ref_store_map(const tensor_ref_layout *t, const tensor_ref_view *v,
                                       uint32_t rows, uint32_t cols, size_t buf_len,
                                       int64_t *writer, size_t *conflicts);

/* OpCooperativeMatrixStoreTensorNV on raw bits: writes matrix[row*cols+col] (low elem_size
 * bytes) into buf wherever the store reaches; untouched elements keep their contents.
 * TENSOR_REF_STORE_CONFLICT only when two stores to one element carry different bits. */
tensor_ref_status tensor_ref_store_bits(const tensor_ref_layout *t, const tensor_ref_view *v,
                                        uint32_t rows, uint32_t cols, uint32_t elem_size,
                                        const uint64_t *matrix, void *buf, size_t buf_len);

/* ---- element types, to see loads as numbers ---- */

typedef enum tensor_ref_type {
  TENSOR_REF_F16, TENSOR_REF_BF16, TENSOR_REF_F32, TENSOR_REF_F64,
  TENSOR_REF_E4M3, /* SPV_EXT_float8 Float8E4M3EXT (OCP E4M3: no infinity, 0x7F/0xFF NaN) */
  TENSOR_REF_E5M2, /* SPV_EXT_float8 Float8E5M2EXT (IEEE-like) */
  TENSOR_REF_S8, TENSOR_REF_U8, TENSOR_REF_S16, TENSOR_REF_U16,
  TENSOR_REF_S32, TENSOR_REF_U32, TENSOR_REF_S64, TENSOR_REF_U64,
} tensor_ref_type;

uint32_t tensor_ref_type_size(tensor_ref_type type);
/* The value of an element from its bits (low bits of `bits`). */
double tensor_ref_decode(tensor_ref_type type, uint64_t bits);
/* The bits of the nearest element to x (round to nearest even; overflow gives infinity, or
 * NaN for E4M3; integers are converted with C semantics and wrapped to their width). */
uint64_t tensor_ref_encode(tensor_ref_type type, double x);

/* tensor_ref_load_bits, then decoded: `matrix` (rows*cols doubles, read-modify-write for
 * clipped elements) gets the element values; undefined / out-of-buffer elements get NaN. */
tensor_ref_status tensor_ref_load_f64(const tensor_ref_layout *t, const tensor_ref_view *v,
                                      uint32_t rows, uint32_t cols, tensor_ref_type type,
                                      const void *buf, size_t buf_len, double *matrix);

#endif
