/* lib/ref/ref_tensor.c — CPU reference of tensor layout/view addressing; see
 * ref_tensor.h. The functions below follow the pseudocode of SPV_NV_cooperative_matrix2
 * "Tensor Layout and View" one step each (matrixCoordToLinear, linearToSpanCoord,
 * spanCoordToTensorCoord, tensorCoordToLinear, linearToViewCoord, viewCoordToLinear), and
 * the state updates of SPV_NV_tensor_addressing's OpTensorLayout* / OpTensorView*. */
#include "ref_tensor.h"

#include "ref_convert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- state (SPV_NV_tensor_addressing, "Tensor Layout and View Instructions") ---- */

static uint32_t clamp_dim(uint32_t dim) {
  return dim > TENSOR_REF_MAX_DIM ? TENSOR_REF_MAX_DIM : dim;
}

/* ceiling(a / b); b == 0 is an invalid block size (tensor_ref_layout_problem reports it),
 * taken as 0 here so that nothing divides by zero. */
static uint32_t ceil_div(uint32_t a, uint32_t b) {
  return b ? (uint32_t)(((uint64_t)a + b - 1) / b) : 0;
}

tensor_ref_layout tensor_ref_layout_create(uint32_t dim, tensor_ref_clamp_mode mode) {
  tensor_ref_layout t;
  memset(&t, 0, sizeof t);
  t.dim = dim;
  t.clamp_mode = mode;
  /* "The layoutDimension, stride, span, and offset elements are initialized to zero. The
   * blockSize elements are initialized to one. clampValue is initialized to zero." */
  for (uint32_t i = 0; i < clamp_dim(dim); i++) t.block_size[i] = 1;
  return t;
}

tensor_ref_layout tensor_ref_layout_set_block_size(tensor_ref_layout t, const uint32_t *block_size) {
  if (!block_size) return t;
  for (uint32_t i = 0; i < clamp_dim(t.dim); i++) t.block_size[i] = block_size[i];
  return t;
}

tensor_ref_layout tensor_ref_layout_set_dimension(tensor_ref_layout t, const uint32_t *dims) {
  uint32_t n = clamp_dim(t.dim);
  if (!dims || n == 0) return t;
  /* "setting the layoutDimension and span elements to Dim<i>. Sets offset elements to
   * zero. Sets stride[LDim-1] to 1 and sets stride[i] to stride[i+1] *
   * ceiling(Dim<i+1> / blockSize[i+1])." */
  for (uint32_t i = 0; i < n; i++) {
    t.dimension[i] = dims[i];
    t.span[i] = dims[i];
    t.offset[i] = 0;
  }
  t.stride[n - 1] = 1;
  for (int i = (int)n - 2; i >= 0; i--)
    t.stride[i] = t.stride[i + 1] * ceil_div(dims[i + 1], t.block_size[i + 1]);
  return t;
}

tensor_ref_layout tensor_ref_layout_set_stride(tensor_ref_layout t, const uint32_t *stride) {
  if (!stride) return t;
  for (uint32_t i = 0; i < clamp_dim(t.dim); i++) t.stride[i] = stride[i];
  return t;
}

tensor_ref_layout tensor_ref_layout_slice(tensor_ref_layout t, const int32_t *offsets,
                                          const uint32_t *spans) {
  if (!offsets || !spans) return t;
  /* "adding Offset<i> to offset[i], and span[i] is set to Span<i>" (32-bit wrap, done in
   * unsigned arithmetic to stay defined in C) */
  for (uint32_t i = 0; i < clamp_dim(t.dim); i++) {
    t.offset[i] = (int32_t)((uint32_t)t.offset[i] + (uint32_t)offsets[i]);
    t.span[i] = spans[i];
  }
  return t;
}

tensor_ref_layout tensor_ref_layout_set_clamp_value(tensor_ref_layout t, uint32_t value) {
  t.clamp_value = value;
  return t;
}

tensor_ref_view tensor_ref_view_create(uint32_t dim, bool has_dimensions,
                                       const uint32_t *permutation) {
  tensor_ref_view v;
  memset(&v, 0, sizeof v);
  v.dim = dim;
  v.has_dimensions = has_dimensions;
  for (uint32_t i = 0; i < clamp_dim(dim); i++) v.permutation[i] = permutation ? permutation[i] : i;
  /* "The clip values are initialized to offsets of 0, spans of 0xFFFFFFFF." */
  v.clip_row_span = 0xFFFFFFFFu;
  v.clip_col_span = 0xFFFFFFFFu;
  return v;
}

tensor_ref_view tensor_ref_view_set_dimension(tensor_ref_view v, const uint32_t *dims) {
  uint32_t n = clamp_dim(v.dim);
  if (!dims || n == 0) return v;
  /* "viewStride[i] is set to the product of dim<i+1> to dim<N-1> (and viewStride[N-1] is
   * set to 1)" */
  for (uint32_t i = 0; i < n; i++) v.dimension[i] = dims[i];
  v.stride[n - 1] = 1;
  for (int i = (int)n - 2; i >= 0; i--) v.stride[i] = v.stride[i + 1] * dims[i + 1];
  return v;
}

tensor_ref_view tensor_ref_view_set_stride(tensor_ref_view v, const uint32_t *stride) {
  if (!stride) return v;
  for (uint32_t i = 0; i < clamp_dim(v.dim); i++) v.stride[i] = stride[i];
  return v;
}

tensor_ref_view tensor_ref_view_set_clip(tensor_ref_view v, uint32_t row_offset, uint32_t row_span,
                                         uint32_t col_offset, uint32_t col_span) {
  v.clip_row_offset = row_offset;
  v.clip_row_span = row_span;
  v.clip_col_offset = col_offset;
  v.clip_col_span = col_span;
  return v;
}

const char *tensor_ref_layout_problem(const tensor_ref_layout *t) {
  if (!t) return "the layout is NULL";
  if (t->dim < 1 || t->dim > TENSOR_REF_MAX_DIM)
    return "Dim must be greater than zero and less than or equal to 5";
  if ((unsigned)t->clamp_mode > TENSOR_REF_CLAMP_REPEAT_MIRRORED)
    return "ClampMode must be a Tensor Clamp Mode (0..4)";
  for (uint32_t i = 0; i < t->dim; i++)
    if (t->block_size[i] == 0) return "blockSize elements must be nonzero";
  for (uint32_t i = 0; i + 1 < t->dim; i++) {
    uint64_t need = (uint64_t)t->stride[i + 1] * ceil_div(t->dimension[i + 1], t->block_size[i + 1]);
    if (t->stride[i] < need)
      return "Stride<i> must be at least Stride<i+1> * ceiling(layoutDimension[i+1] / "
             "blockSize[i+1])";
  }
  return NULL;
}

const char *tensor_ref_view_problem(const tensor_ref_view *v) {
  if (!v) return "the view is NULL";
  if (v->dim < 1 || v->dim > TENSOR_REF_MAX_DIM)
    return "Dim must be greater than zero and less than or equal to 5";
  bool seen[TENSOR_REF_MAX_DIM] = {false};
  for (uint32_t i = 0; i < v->dim; i++) {
    uint32_t p = v->permutation[i];
    if (p >= v->dim || seen[p]) return "p0 ... p<Dim-1> must form a valid permutation of [0,Dim)";
    seen[p] = true;
  }
  return NULL;
}

/* ---- addressing (SPV_NV_cooperative_matrix2, "Tensor Layout and View") ---- */

/* OpSMod: the remainder takes the sign of the divisor (b > 0 here). */
static int64_t smod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return r < 0 ? r + b : r;
}

tensor_ref_outcome tensor_ref_clamp_coordinate(tensor_ref_clamp_mode mode, tensor_ref_op op,
                                               int64_t c, uint32_t dim_size, uint32_t *out) {
  if (c >= 0 && c < (int64_t)dim_size) {
    if (out) *out = (uint32_t)c;
    return TENSOR_REF_ELEMENT;
  }
  /* "For stores, other than Undefined, everything is treated as "discard"" */
  if (op == TENSOR_REF_STORE && mode != TENSOR_REF_CLAMP_UNDEFINED) mode = TENSOR_REF_CLAMP_CONSTANT;
  int64_t d = dim_size;
  switch (mode) {
  case TENSOR_REF_CLAMP_CONSTANT:
    return op == TENSOR_REF_STORE ? TENSOR_REF_DISCARDED : TENSOR_REF_CLAMP_VALUE;
  case TENSOR_REF_CLAMP_TO_EDGE:
    /* c = min(max(c, 0), layoutDimension-1); with a zero dimension there is no edge */
    if (d == 0) return TENSOR_REF_UNDEFINED;
    c = c < 0 ? 0 : d - 1;
    break;
  case TENSOR_REF_CLAMP_REPEAT:
    /* c = c % layoutDimension (OpSMod) */
    if (d == 0) return TENSOR_REF_UNDEFINED;
    c = smod(c, d);
    break;
  case TENSOR_REF_CLAMP_REPEAT_MIRRORED:
    /* c = c % (2*dim-2); c = (c >= dim) ? (2*dim-2-c) : c; (the pseudocode's "dim" there is
     * layoutDimension[dim]). The period is zero for a dimension of 1 (and negative for 0):
     * OpSMod by it is undefined. */
    if (d < 2) return TENSOR_REF_UNDEFINED;
    c = smod(c, 2 * d - 2);
    if (c >= d) c = 2 * d - 2 - c;
    break;
  case TENSOR_REF_CLAMP_UNDEFINED:
  default:
    return TENSOR_REF_UNDEFINED;
  }
  if (out) *out = (uint32_t)c;
  return TENSOR_REF_ELEMENT;
}

/* linearToSpanCoord: the outermost coordinate wraps by span[0] like the others. */
static bool linear_to_span_coord(const tensor_ref_layout *t, uint32_t index,
                                 uint32_t span_coord[TENSOR_REF_MAX_DIM]) {
  for (int d = (int)t->dim - 1; d >= 0; d--) {
    if (t->span[d] == 0) return false;
    span_coord[d] = index % t->span[d];
    index /= t->span[d];
  }
  return true;
}

/* spanCoordToTensorCoord followed by tensorCoordToLinear. */
static tensor_ref_address span_coord_to_element(const tensor_ref_layout *t, tensor_ref_op op,
                                                const uint32_t span_coord[TENSOR_REF_MAX_DIM]) {
  tensor_ref_address a;
  memset(&a, 0, sizeof a);
  for (uint32_t d = 0; d < t->dim; d++) {
    int64_t c = (int64_t)span_coord[d] + t->offset[d];
    uint32_t in;
    tensor_ref_outcome o = tensor_ref_clamp_coordinate(t->clamp_mode, op, c, t->dimension[d], &in);
    if (o != TENSOR_REF_ELEMENT) {
      /* "terminate index calculation" */
      memset(&a, 0, sizeof a);
      a.outcome = o;
      return a;
    }
    if ((int64_t)in != c) a.clamped = true;
    if (t->block_size[d] == 0) {
      memset(&a, 0, sizeof a);
      a.outcome = TENSOR_REF_UNDEFINED;
      return a;
    }
    a.coord_in_block[d] = in % t->block_size[d];
    a.block_coord[d] = in / t->block_size[d];
  }
  uint32_t index = 0; /* 32-bit, as tensorCoordToLinear's uint32_t */
  for (uint32_t d = 0; d < t->dim; d++) index += a.block_coord[d] * t->stride[d];
  a.outcome = TENSOR_REF_ELEMENT;
  a.index = index;
  return a;
}

static tensor_ref_address undefined_address(void) {
  tensor_ref_address a;
  memset(&a, 0, sizeof a);
  a.outcome = TENSOR_REF_UNDEFINED;
  return a;
}

tensor_ref_address tensor_ref_matrix_coord_to_tensor_element(const tensor_ref_layout *t,
                                                             tensor_ref_op op, uint32_t row,
                                                             uint32_t col, uint32_t cols) {
  if (tensor_ref_layout_problem(t)) return undefined_address();
  /* matrixCoordToLinear: index = row * N + col */
  uint32_t index = row * cols + col;
  uint32_t span_coord[TENSOR_REF_MAX_DIM] = {0};
  if (!linear_to_span_coord(t, index, span_coord)) return undefined_address();
  return span_coord_to_element(t, op, span_coord);
}

tensor_ref_address tensor_ref_matrix_coord_to_tensor_element_with_view(
    const tensor_ref_layout *t, const tensor_ref_view *v, tensor_ref_op op, uint32_t row,
    uint32_t col, uint32_t cols) {
  if (!v) return tensor_ref_matrix_coord_to_tensor_element(t, op, row, col, cols);
  if (tensor_ref_layout_problem(t) || tensor_ref_view_problem(v)) return undefined_address();

  /* matrixCoordToLinear with a view: the clip test, then a row-major index within the clip
   * rectangle whose width is min(N, clipColSpan). offset + span is computed without 32-bit
   * wrap (the pseudocode's uint32_t sum would wrap for, e.g., offset 1 with the default span
   * 0xFFFFFFFF; tests should not depend on that case). */
  if (row < v->clip_row_offset || (uint64_t)row >= (uint64_t)v->clip_row_offset + v->clip_row_span ||
      col < v->clip_col_offset || (uint64_t)col >= (uint64_t)v->clip_col_offset + v->clip_col_span) {
    tensor_ref_address a;
    memset(&a, 0, sizeof a);
    a.outcome = TENSOR_REF_CLIPPED;
    return a;
  }
  row -= v->clip_row_offset;
  col -= v->clip_col_offset;
  uint32_t width = cols < v->clip_col_span ? cols : v->clip_col_span;
  uint32_t index = row * width + col;

  /* linearToViewCoord: dimensions are the view's, or the layout's span without them; the
   * innermost digit of the index goes to view dimension permutation[VDim-1]. */
  const uint32_t *dims = v->has_dimensions ? v->dimension : t->span;
  uint32_t view_coord[TENSOR_REF_MAX_DIM] = {0};
  for (int d = (int)v->dim - 1; d >= 0; d--) {
    uint32_t i = v->permutation[d];
    if (dims[i] == 0) return undefined_address();
    view_coord[i] = index % dims[i];
    index /= dims[i];
  }

  /* viewCoordToLinear: the view's strides, or strides packed to match t.span */
  uint32_t stride[TENSOR_REF_MAX_DIM] = {0};
  if (v->has_dimensions) {
    memcpy(stride, v->stride, sizeof stride);
  } else {
    stride[v->dim - 1] = 1;
    for (int d = (int)v->dim - 2; d >= 0; d--) stride[d] = stride[d + 1] * t->span[d + 1];
  }
  index = 0;
  for (int d = (int)v->dim - 1; d >= 0; d--) index += view_coord[d] * stride[d];

  /* then the layout-only steps */
  uint32_t span_coord[TENSOR_REF_MAX_DIM] = {0};
  if (!linear_to_span_coord(t, index, span_coord)) return undefined_address();
  return span_coord_to_element(t, op, span_coord);
}

/* ---- whole matrices ---- */

const char *tensor_ref_status_name(tensor_ref_status s) {
  switch (s) {
  case TENSOR_REF_OK: return "ok";
  case TENSOR_REF_INVALID_ARGUMENT: return "invalid argument";
  case TENSOR_REF_UNDEFINED_BEHAVIOR: return "undefined behavior";
  case TENSOR_REF_OUT_OF_BUFFER: return "element index out of the buffer";
  case TENSOR_REF_STORE_CONFLICT: return "conflicting stores to one element";
  }
  return "unknown status";
}

static bool arguments_valid(const tensor_ref_layout *t, const tensor_ref_view *v) {
  return !tensor_ref_layout_problem(t) && (!v || !tensor_ref_view_problem(v));
}

static tensor_ref_address address_of(const tensor_ref_layout *t, const tensor_ref_view *v,
                                     tensor_ref_op op, uint32_t row, uint32_t col, uint32_t cols) {
  return v ? tensor_ref_matrix_coord_to_tensor_element_with_view(t, v, op, row, col, cols)
           : tensor_ref_matrix_coord_to_tensor_element(t, op, row, col, cols);
}

/* Keeps the first problem, UNDEFINED ranking before OUT_OF_BUFFER. */
static void note(tensor_ref_status *status, tensor_ref_status s) {
  if (*status == TENSOR_REF_OK ||
      (s == TENSOR_REF_UNDEFINED_BEHAVIOR && *status == TENSOR_REF_OUT_OF_BUFFER))
    *status = s;
}

tensor_ref_status tensor_ref_matrix_addresses(const tensor_ref_layout *t, const tensor_ref_view *v,
                                              tensor_ref_op op, uint32_t rows, uint32_t cols,
                                              tensor_ref_address *out) {
  if (!out || !arguments_valid(t, v)) return TENSOR_REF_INVALID_ARGUMENT;
  tensor_ref_status status = TENSOR_REF_OK;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      tensor_ref_address a = address_of(t, v, op, r, c, cols);
      out[(size_t)r * cols + c] = a;
      if (a.outcome == TENSOR_REF_UNDEFINED) note(&status, TENSOR_REF_UNDEFINED_BEHAVIOR);
    }
  return status;
}

static bool elem_size_valid(uint32_t s) { return s == 1 || s == 2 || s == 4 || s == 8; }

static uint64_t low_bits_mask(uint32_t elem_size) {
  return elem_size >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (elem_size * 8)) - 1);
}

static uint64_t read_element(const void *buf, size_t index, uint32_t elem_size) {
  const unsigned char *p = (const unsigned char *)buf + index * elem_size;
  switch (elem_size) {
  case 1: { uint8_t x; memcpy(&x, p, 1); return x; }
  case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
  case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
  default: { uint64_t x; memcpy(&x, p, 8); return x; }
  }
}

static void write_element(void *buf, size_t index, uint32_t elem_size, uint64_t bits) {
  unsigned char *p = (unsigned char *)buf + index * elem_size;
  switch (elem_size) {
  case 1: { uint8_t x = (uint8_t)bits; memcpy(p, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)bits; memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)bits; memcpy(p, &x, 4); break; }
  default: memcpy(p, &bits, 8); break;
  }
}

/* One element of a load. Returns false for clipped elements (leave the matrix as is);
 * otherwise *bits is the loaded value and *problem what went wrong, if anything. */
static bool load_element(const tensor_ref_layout *t, const tensor_ref_view *v, uint32_t r,
                         uint32_t c, uint32_t cols, uint32_t elem_size, const void *buf,
                         size_t buf_len, uint64_t *bits, tensor_ref_status *problem) {
  tensor_ref_address a = address_of(t, v, TENSOR_REF_LOAD, r, c, cols);
  *bits = 0;
  *problem = TENSOR_REF_OK;
  switch (a.outcome) {
  case TENSOR_REF_CLIPPED:
    return false;
  case TENSOR_REF_CLAMP_VALUE:
    /* "out of bounds loads return the bit pattern in the LSBs of value" */
    *bits = (uint64_t)t->clamp_value & low_bits_mask(elem_size);
    return true;
  case TENSOR_REF_ELEMENT:
    if (a.index >= buf_len || !buf) {
      *problem = TENSOR_REF_OUT_OF_BUFFER;
      return true;
    }
    *bits = read_element(buf, a.index, elem_size);
    return true;
  default:
    *problem = TENSOR_REF_UNDEFINED_BEHAVIOR;
    return true;
  }
}

tensor_ref_status tensor_ref_load_bits(const tensor_ref_layout *t, const tensor_ref_view *v,
                                       uint32_t rows, uint32_t cols, uint32_t elem_size,
                                       const void *buf, size_t buf_len, uint64_t *matrix) {
  if (!matrix || !elem_size_valid(elem_size) || !arguments_valid(t, v))
    return TENSOR_REF_INVALID_ARGUMENT;
  tensor_ref_status status = TENSOR_REF_OK;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      uint64_t bits;
      tensor_ref_status problem;
      if (!load_element(t, v, r, c, cols, elem_size, buf, buf_len, &bits, &problem)) continue;
      matrix[(size_t)r * cols + c] = bits;
      if (problem != TENSOR_REF_OK) note(&status, problem);
    }
  return status;
}

tensor_ref_status tensor_ref_load_f64(const tensor_ref_layout *t, const tensor_ref_view *v,
                                      uint32_t rows, uint32_t cols, tensor_ref_type type,
                                      const void *buf, size_t buf_len, double *matrix) {
  uint32_t elem_size = tensor_ref_type_size(type);
  if (!matrix || !elem_size_valid(elem_size) || !arguments_valid(t, v))
    return TENSOR_REF_INVALID_ARGUMENT;
  tensor_ref_status status = TENSOR_REF_OK;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      uint64_t bits;
      tensor_ref_status problem;
      if (!load_element(t, v, r, c, cols, elem_size, buf, buf_len, &bits, &problem)) continue;
      matrix[(size_t)r * cols + c] = problem == TENSOR_REF_OK ? tensor_ref_decode(type, bits) : NAN;
      if (problem != TENSOR_REF_OK) note(&status, problem);
    }
  return status;
}

static bool has_blocks(const tensor_ref_layout *t) {
  for (uint32_t d = 0; d < t->dim; d++)
    if (t->block_size[d] != 1) return true;
  return false;
}

tensor_ref_status tensor_ref_store_map(const tensor_ref_layout *t, const tensor_ref_view *v,
                                       uint32_t rows, uint32_t cols, size_t buf_len,
                                       int64_t *writer, size_t *conflicts) {
  if (conflicts) *conflicts = 0;
  if ((!writer && buf_len) || !arguments_valid(t, v) || has_blocks(t))
    return TENSOR_REF_INVALID_ARGUMENT;
  for (size_t i = 0; i < buf_len; i++) writer[i] = -1;
  tensor_ref_status status = TENSOR_REF_OK;
  size_t n_conflicts = 0;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      tensor_ref_address a = address_of(t, v, TENSOR_REF_STORE, r, c, cols);
      if (a.outcome == TENSOR_REF_UNDEFINED) {
        note(&status, TENSOR_REF_UNDEFINED_BEHAVIOR);
        continue;
      }
      if (a.outcome != TENSOR_REF_ELEMENT) continue; /* discarded or clipped */
      if (a.index >= buf_len) {
        note(&status, TENSOR_REF_OUT_OF_BUFFER);
        continue;
      }
      if (writer[a.index] >= 0) {
        n_conflicts++;
        continue;
      }
      writer[a.index] = (int64_t)r * cols + c;
    }
  if (conflicts) *conflicts = n_conflicts;
  if (status == TENSOR_REF_OK && n_conflicts) status = TENSOR_REF_STORE_CONFLICT;
  return status;
}

/* One store that reaches the buffer: buffer element `index` gets matrix element `me`. */
typedef struct store_hit {
  uint32_t index;
  size_t me;
} store_hit;

static int compare_store_hits(const void *pa, const void *pb) {
  const store_hit *a = pa, *b = pb;
  if (a->index != b->index) return a->index < b->index ? -1 : 1;
  return a->me < b->me ? -1 : a->me > b->me;
}

tensor_ref_status tensor_ref_store_bits(const tensor_ref_layout *t, const tensor_ref_view *v,
                                        uint32_t rows, uint32_t cols, uint32_t elem_size,
                                        const uint64_t *matrix, void *buf, size_t buf_len) {
  if (!matrix || (!buf && buf_len) || !elem_size_valid(elem_size) || !arguments_valid(t, v) ||
      has_blocks(t))
    return TENSOR_REF_INVALID_ARGUMENT;
  size_t count = (size_t)rows * cols;
  store_hit *hits = malloc((count ? count : 1) * sizeof *hits);
  if (!hits) return TENSOR_REF_INVALID_ARGUMENT;
  tensor_ref_status status = TENSOR_REF_OK;
  size_t n = 0;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      tensor_ref_address a = address_of(t, v, TENSOR_REF_STORE, r, c, cols);
      if (a.outcome == TENSOR_REF_UNDEFINED) {
        note(&status, TENSOR_REF_UNDEFINED_BEHAVIOR);
        continue;
      }
      if (a.outcome != TENSOR_REF_ELEMENT) continue; /* discarded or clipped */
      if (a.index >= buf_len) {
        note(&status, TENSOR_REF_OUT_OF_BUFFER);
        continue;
      }
      hits[n].index = a.index;
      hits[n].me = (size_t)r * cols + c;
      n++;
    }
  /* Group the stores by buffer element; the first in row-major order is written, and a
   * later one with different bits is a conflict (the GPU result would be either). */
  qsort(hits, n, sizeof *hits, compare_store_hits);
  uint64_t mask = low_bits_mask(elem_size);
  bool conflict = false;
  size_t first = 0; /* the first hit of the current buffer element */
  for (size_t i = 0; i < n; i++) {
    uint64_t bits = matrix[hits[i].me] & mask;
    if (i > 0 && hits[i - 1].index == hits[i].index) {
      if ((matrix[hits[first].me] & mask) != bits) conflict = true;
      continue;
    }
    first = i;
    write_element(buf, hits[i].index, elem_size, bits);
  }
  free(hits);
  if (status == TENSOR_REF_OK && conflict) status = TENSOR_REF_STORE_CONFLICT;
  return status;
}

/* ---- element types ---- */

uint32_t tensor_ref_type_size(tensor_ref_type type) {
  switch (type) {
  case TENSOR_REF_E4M3: case TENSOR_REF_E5M2: case TENSOR_REF_S8: case TENSOR_REF_U8: return 1;
  case TENSOR_REF_F16: case TENSOR_REF_BF16: case TENSOR_REF_S16: case TENSOR_REF_U16: return 2;
  case TENSOR_REF_F32: case TENSOR_REF_S32: case TENSOR_REF_U32: return 4;
  case TENSOR_REF_F64: case TENSOR_REF_S64: case TENSOR_REF_U64: return 8;
  }
  return 0;
}

/* The float types through the one host codec (lib/ref/ref_convert.h). */
static spvgen_component_type minifloat(tensor_ref_type t) {
  return t == TENSOR_REF_F16    ? SPVGEN_COMPONENT_F16
         : t == TENSOR_REF_BF16 ? SPVGEN_COMPONENT_BF16
         : t == TENSOR_REF_E4M3 ? SPVGEN_COMPONENT_E4M3
                                : SPVGEN_COMPONENT_E5M2;
}

double tensor_ref_decode(tensor_ref_type type, uint64_t bits) {
  switch (type) {
  case TENSOR_REF_F16: return sg_ref_decode(minifloat(type), bits & 0xFFFF);
  case TENSOR_REF_BF16: return sg_ref_decode(minifloat(type), bits & 0xFFFF);
  case TENSOR_REF_E4M3: return sg_ref_decode(minifloat(type), bits & 0xFF);
  case TENSOR_REF_E5M2: return sg_ref_decode(minifloat(type), bits & 0xFF);
  case TENSOR_REF_F32: { uint32_t u = (uint32_t)bits; float f; memcpy(&f, &u, 4); return f; }
  case TENSOR_REF_F64: { double d; memcpy(&d, &bits, 8); return d; }
  case TENSOR_REF_S8: return (double)(int8_t)(uint8_t)bits;
  case TENSOR_REF_U8: return (double)(uint8_t)bits;
  case TENSOR_REF_S16: return (double)(int16_t)(uint16_t)bits;
  case TENSOR_REF_U16: return (double)(uint16_t)bits;
  case TENSOR_REF_S32: return (double)(int32_t)(uint32_t)bits;
  case TENSOR_REF_U32: return (double)(uint32_t)bits;
  case TENSOR_REF_S64: return (double)(int64_t)bits;
  case TENSOR_REF_U64: return (double)bits;
  }
  return NAN;
}

uint64_t tensor_ref_encode(tensor_ref_type type, double x) {
  switch (type) {
  case TENSOR_REF_F16: return sg_ref_encode(minifloat(type), x);
  case TENSOR_REF_BF16: return sg_ref_encode(minifloat(type), x);
  case TENSOR_REF_E4M3: return sg_ref_encode(minifloat(type), x);
  case TENSOR_REF_E5M2: return sg_ref_encode(minifloat(type), x);
  case TENSOR_REF_F32: { float f = (float)x; uint32_t u; memcpy(&u, &f, 4); return u; }
  case TENSOR_REF_F64: { uint64_t u; memcpy(&u, &x, 8); return u; }
  case TENSOR_REF_S8: case TENSOR_REF_S16: case TENSOR_REF_S32: case TENSOR_REF_S64:
    return (uint64_t)(int64_t)x & low_bits_mask(tensor_ref_type_size(type));
  case TENSOR_REF_U8: case TENSOR_REF_U16: case TENSOR_REF_U32: case TENSOR_REF_U64:
    return (x < 0 ? (uint64_t)(int64_t)x : (uint64_t)x) & low_bits_mask(tensor_ref_type_size(type));
  }
  return 0;
}
