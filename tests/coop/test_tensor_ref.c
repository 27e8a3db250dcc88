/* tests/coop/test_tensor_ref.c — the CPU reference of tensor layout/view addressing
 * (lib/ref/ref_tensor.h) against hand-computed cases, one spec rule per test. The
 * quoted rules are from SPV_NV_tensor_addressing, SPV_NV_cooperative_matrix2 ("Tensor
 * Layout and View") and GLSL_NV_cooperative_matrix2. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "ref_tensor.h"

#define U32S(...) ((const uint32_t[]){__VA_ARGS__})
#define I32S(...) ((const int32_t[]){__VA_ARGS__})

static tensor_ref_layout layout2(tensor_ref_clamp_mode mode, uint32_t d0, uint32_t d1) {
  return tensor_ref_layout_set_dimension(tensor_ref_layout_create(2, mode), U32S(d0, d1));
}

static tensor_ref_address load_at(const tensor_ref_layout *t, uint32_t r, uint32_t c, uint32_t cols) {
  return tensor_ref_matrix_coord_to_tensor_element(t, TENSOR_REF_LOAD, r, c, cols);
}

static tensor_ref_address load_view_at(const tensor_ref_layout *t, const tensor_ref_view *v,
                                       uint32_t r, uint32_t c, uint32_t cols) {
  return tensor_ref_matrix_coord_to_tensor_element_with_view(t, v, TENSOR_REF_LOAD, r, c, cols);
}

/* Checks that (r, c) resolves to element `index`. */
#define CHECK_ELEMENT(addr, expected_index)                       \
  do {                                                            \
    tensor_ref_address element_addr_ = (addr);                    \
    CHECK_EQ_U64(element_addr_.outcome, TENSOR_REF_ELEMENT);      \
    CHECK_EQ_U64(element_addr_.index, (expected_index));          \
  } while (0)

/* ---- layout state ---- */

/* OpCreateTensorLayoutNV: "The layoutDimension, stride, span, and offset elements are
 * initialized to zero. The blockSize elements are initialized to one. clampValue is
 * initialized to zero." */
static void test_create_layout_zeroes_state_and_sets_block_size_one(void) {
  tensor_ref_layout t = tensor_ref_layout_create(3, TENSOR_REF_CLAMP_CONSTANT);
  CHECK_EQ_U64(t.dim, 3);
  CHECK_EQ_U64(t.clamp_mode, TENSOR_REF_CLAMP_CONSTANT);
  for (int i = 0; i < 3; i++) {
    CHECK_EQ_U64(t.block_size[i], 1);
    CHECK_EQ_U64(t.dimension[i], 0);
    CHECK_EQ_U64(t.stride[i], 0);
    CHECK_EQ_U64(t.offset[i], 0);
    CHECK_EQ_U64(t.span[i], 0);
  }
  CHECK_EQ_U64(t.clamp_value, 0);
}

/* OpTensorLayoutSetDimensionNV: "setting the layoutDimension and span elements to Dim<i>.
 * Sets offset elements to zero. Sets stride[LDim-1] to 1 and sets stride[i] to stride[i+1]
 * * ceiling(Dim<i+1> / blockSize[i+1])." */
static void test_set_dimension_sets_span_clears_offset_and_packs_strides(void) {
  tensor_ref_layout t = tensor_ref_layout_create(3, TENSOR_REF_CLAMP_UNDEFINED);
  t = tensor_ref_layout_set_dimension(t, U32S(7, 7, 7));
  t = tensor_ref_layout_slice(t, I32S(1, 2, 3), U32S(1, 1, 1));
  t = tensor_ref_layout_set_dimension(t, U32S(2, 3, 4));
  const uint32_t dims[3] = {2, 3, 4}, strides[3] = {12, 4, 1};
  for (int i = 0; i < 3; i++) {
    CHECK_EQ_U64(t.dimension[i], dims[i]);
    CHECK_EQ_U64(t.span[i], dims[i]);
    CHECK_EQ_U64(t.offset[i], 0);
    CHECK_EQ_U64(t.stride[i], strides[i]);
  }
}

/* GLSL: "The blockSize should be set before the dimensions, because it affects the
 * implicit stride calculation. When the blockSize is not 1, the strides are considered to
 * be in blocks rather than in elements." */
static void test_set_dimension_strides_count_blocks_of_inner_dimensions(void) {
  tensor_ref_layout t = tensor_ref_layout_create(3, TENSOR_REF_CLAMP_UNDEFINED);
  t = tensor_ref_layout_set_block_size(t, U32S(1, 2, 4));
  t = tensor_ref_layout_set_dimension(t, U32S(5, 6, 10));
  /* stride[2] = 1; stride[1] = 1 * ceil(10/4) = 3; stride[0] = 3 * ceil(6/2) = 9 */
  CHECK_EQ_U64(t.stride[2], 1);
  CHECK_EQ_U64(t.stride[1], 3);
  CHECK_EQ_U64(t.stride[0], 9);
}

/* OpTensorLayoutSetBlockSizeNV: "Create a copy of TensorLayout, setting the blockSize
 * elements" — nothing else, so block sizes set after the dimensions leave element strides. */
static void test_set_block_size_after_dimension_leaves_strides(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 6, 10);
  t = tensor_ref_layout_set_block_size(t, U32S(2, 4));
  CHECK_EQ_U64(t.stride[0], 10);
  CHECK_EQ_U64(t.stride[1], 1);
  CHECK_EQ_U64(t.block_size[0], 2);
  CHECK_EQ_U64(t.block_size[1], 4);
}

/* OpTensorLayoutSliceNV: "adding Offset<i> to offset[i], and span[i] is set to Span<i>". */
static void test_slice_adds_to_offset_and_replaces_span(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 8, 8);
  t = tensor_ref_layout_slice(t, I32S(2, 3), U32S(4, 4));
  t = tensor_ref_layout_slice(t, I32S(1, -2), U32S(2, 3));
  CHECK_EQ_U64(t.offset[0], 3);
  CHECK_EQ_U64(t.offset[1], 1);
  CHECK_EQ_U64(t.span[0], 2);
  CHECK_EQ_U64(t.span[1], 3);
  CHECK_EQ_U64(t.dimension[0], 8); /* the layout itself is unchanged */
  CHECK_EQ_U64(t.stride[0], 8);
}

/* OpTensorLayoutSetStrideNV: "Create a copy of TensorLayout, setting the stride elements
 * to Stride<i>." (offset, span and dimension are kept) */
static void test_set_stride_replaces_only_the_strides(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 4, 5);
  t = tensor_ref_layout_slice(t, I32S(1, 1), U32S(2, 2));
  t = tensor_ref_layout_set_stride(t, U32S(7, 1));
  CHECK_EQ_U64(t.stride[0], 7);
  CHECK_EQ_U64(t.stride[1], 1);
  CHECK_EQ_U64(t.offset[0], 1);
  CHECK_EQ_U64(t.span[1], 2);
  CHECK_EQ_U64(t.dimension[1], 5);
  /* element (1,1) of the 2x2 slice is tensor (2,2): 2*7 + 2 */
  CHECK_ELEMENT(load_at(&t, 1, 1, 2), 16);
}

/* OpTensorLayoutSetStrideNV: "Stride<i> must be at least Stride<i+1> *
 * ceiling(layoutDimension[i+1] / blockSize[i+1])." */
static void test_stride_smaller_than_inner_extent_is_rejected(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 4, 5);
  CHECK(tensor_ref_layout_problem(&t) == NULL);
  tensor_ref_layout ok = tensor_ref_layout_set_stride(t, U32S(5, 1));
  CHECK(tensor_ref_layout_problem(&ok) == NULL);
  tensor_ref_layout bad = tensor_ref_layout_set_stride(t, U32S(4, 1));
  CHECK_CONTAINS(tensor_ref_layout_problem(&bad), "Stride<i> must be at least");
  tensor_ref_address out[4];
  CHECK_EQ_U64(tensor_ref_matrix_addresses(&bad, NULL, TENSOR_REF_LOAD, 2, 2, out),
               TENSOR_REF_INVALID_ARGUMENT);
}

/* OpTypeTensorLayoutNV: "The value must be greater than zero and less than or equal to 5." */
static void test_layout_dimension_count_must_be_1_to_5(void) {
  tensor_ref_layout zero = tensor_ref_layout_create(0, TENSOR_REF_CLAMP_UNDEFINED);
  tensor_ref_layout six = tensor_ref_layout_create(6, TENSOR_REF_CLAMP_UNDEFINED);
  tensor_ref_layout five = tensor_ref_layout_create(5, TENSOR_REF_CLAMP_UNDEFINED);
  CHECK(tensor_ref_layout_problem(&zero) != NULL);
  CHECK(tensor_ref_layout_problem(&six) != NULL);
  CHECK(tensor_ref_layout_problem(&five) == NULL);
}

/* ---- layout addressing ---- */

/* matrixCoordToTensorElement: "converts the (row,col) into a row-major index, converts
 * that index into an N-dimensional coord relative to the span, and uses the span
 * coordinate to compute a location within the tensor." For a 2D slice that is
 * (offset0 + row) * stride0 + offset1 + col, the KHR row-major load at the slice origin. */
static void test_2d_slice_loads_row_major_from_the_slice_origin(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 6, 10);
  t = tensor_ref_layout_slice(t, I32S(2, 4), U32S(3, 5));
  for (uint32_t r = 0; r < 3; r++)
    for (uint32_t c = 0; c < 5; c++) CHECK_ELEMENT(load_at(&t, r, c, 5), (2 + r) * 10 + 4 + c);
  CHECK_ELEMENT(load_at(&t, 2, 4, 5), 48); /* (4, 8) */
}

/* linearToSpanCoord: "spanCoord[dim] = index % t.span[dim]; index /= t.span[dim];" for
 * every dimension, the outermost included — a matrix larger than the span wraps around. */
static void test_span_coordinates_wrap_when_the_matrix_exceeds_the_span(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 4, 4);
  t = tensor_ref_layout_slice(t, I32S(1, 0), U32S(2, 4));
  /* a 3x4 matrix over a 2x4 span: row 2 is linear 8..11 -> span row 8/4 % 2 = 0 */
  for (uint32_t c = 0; c < 4; c++) {
    CHECK_ELEMENT(load_at(&t, 2, c, 4), 4 + c);
    CHECK_ELEMENT(load_at(&t, 1, c, 4), 8 + c);
  }
}

/* GLSL example "Load an 8x8 patch, where each element of the patch has 32 channels": a 3D
 * HWC slice flattens H and W into matrix rows, C into columns (here 2x2 patch, 3 ch). */
static void test_3d_hwc_slice_flattens_outer_dimensions_into_rows(void) {
  tensor_ref_layout t = tensor_ref_layout_create(3, TENSOR_REF_CLAMP_UNDEFINED);
  t = tensor_ref_layout_set_dimension(t, U32S(4, 5, 3)); /* strides 15, 3, 1 */
  t = tensor_ref_layout_slice(t, I32S(1, 2, 0), U32S(2, 2, 3));
  CHECK_ELEMENT(load_at(&t, 0, 0, 3), 21); /* (1,2,0) */
  CHECK_ELEMENT(load_at(&t, 1, 0, 3), 24); /* (1,3,0) */
  CHECK_ELEMENT(load_at(&t, 2, 1, 3), 37); /* (2,2,1) */
  CHECK_ELEMENT(load_at(&t, 3, 2, 3), 41); /* (2,3,2) */
  for (uint32_t r = 0; r < 4; r++)
    for (uint32_t c = 0; c < 3; c++)
      CHECK_ELEMENT(load_at(&t, r, c, 3), (1 + r / 2) * 15 + (2 + r % 2) * 3 + c);
}

/* tensorCoordToLinear: "index += blockCoord[dim] * t.stride[dim]" over all LDim (here 5)
 * dimensions, with a span of extent 1 in some of them. */
static void test_5d_slice_sums_coordinates_times_strides(void) {
  tensor_ref_layout t = tensor_ref_layout_create(5, TENSOR_REF_CLAMP_UNDEFINED);
  t = tensor_ref_layout_set_dimension(t, U32S(2, 3, 2, 2, 3)); /* strides 36 12 6 3 1 */
  CHECK_EQ_U64(t.stride[0], 36);
  CHECK_EQ_U64(t.stride[1], 12);
  CHECK_EQ_U64(t.stride[2], 6);
  CHECK_EQ_U64(t.stride[3], 3);
  t = tensor_ref_layout_slice(t, I32S(1, 1, 0, 1, 0), U32S(1, 2, 2, 1, 3));
  /* 4x3 matrix: linear r*3+c -> span (0, r/2, r%2, 0, c) -> tensor (1, 1+r/2, r%2, 1, c) */
  CHECK_ELEMENT(load_at(&t, 0, 0, 3), 51);
  CHECK_ELEMENT(load_at(&t, 3, 2, 3), 71);
  for (uint32_t r = 0; r < 4; r++)
    for (uint32_t c = 0; c < 3; c++)
      CHECK_ELEMENT(load_at(&t, r, c, 3), 36 + 12 * (1 + r / 2) + 6 * (r % 2) + 3 + c);
}

/* spanCoordToTensorCoord: "coordInBlock[dim] = c % t.blockSize[dim]; blockCoord[dim] = c /
 * t.blockSize[dim];" and the index is computed from blockCoord; a DecodeFunc gets both. */
static void test_block_size_splits_coordinates_into_block_and_coordinate_in_block(void) {
  tensor_ref_layout t = tensor_ref_layout_create(2, TENSOR_REF_CLAMP_UNDEFINED);
  t = tensor_ref_layout_set_block_size(t, U32S(2, 4));
  t = tensor_ref_layout_set_dimension(t, U32S(8, 16)); /* strides ceil(16/4) = 4, 1 */
  tensor_ref_address a = load_at(&t, 5, 9, 16);
  CHECK_ELEMENT(a, 2 * 4 + 2);
  CHECK_EQ_U64(a.block_coord[0], 2);
  CHECK_EQ_U64(a.block_coord[1], 2);
  CHECK_EQ_U64(a.coord_in_block[0], 1);
  CHECK_EQ_U64(a.coord_in_block[1], 1);
  a = load_at(&t, 3, 3, 16);
  CHECK_ELEMENT(a, 4);
  CHECK_EQ_U64(a.coord_in_block[0], 1);
  CHECK_EQ_U64(a.coord_in_block[1], 3);
  /* all eight elements of one 2x4 block share an index */
  for (uint32_t r = 6; r < 8; r++)
    for (uint32_t c = 12; c < 16; c++) CHECK_ELEMENT(load_at(&t, r, c, 16), 3 * 4 + 3);
}

/* ---- clamp modes ---- */

/* Tensor Clamp Mode Constant: "Out of bounds loads return a constant value." GLSL: "out of
 * bounds loads return the bit pattern in the LSBs of value". */
static void test_clamp_constant_load_returns_the_clamp_value(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_CONSTANT, 4, 4);
  t = tensor_ref_layout_set_clamp_value(t, 0x3800); /* 0.5 in float16 */
  t = tensor_ref_layout_slice(t, I32S(-1, 2), U32S(3, 3));
  CHECK_EQ_U64(load_at(&t, 0, 0, 3).outcome, TENSOR_REF_CLAMP_VALUE); /* (-1, 2) */
  CHECK_EQ_U64(load_at(&t, 1, 2, 3).outcome, TENSOR_REF_CLAMP_VALUE); /* (0, 4) */
  CHECK_ELEMENT(load_at(&t, 1, 1, 3), 3);                             /* (0, 3) */
  uint16_t buf[16];
  for (int i = 0; i < 16; i++) buf[i] = (uint16_t)tensor_ref_encode(TENSOR_REF_F16, 1 + i);
  double m[9];
  CHECK_EQ_U64(tensor_ref_load_f64(&t, NULL, 3, 3, TENSOR_REF_F16, buf, 16, m), TENSOR_REF_OK);
  const double expected[9] = {0.5, 0.5, 0.5, 3, 4, 0.5, 7, 8, 0.5};
  for (int i = 0; i < 9; i++) CHECK_MSG(m[i] == expected[i], "m[%d] = %g, expected %g", i, m[i], expected[i]);
}

/* GLSL: "out of bounds loads return the bit pattern in the LSBs of value" — as many bits
 * as the element has. */
static void test_clamp_value_loads_as_the_low_bits_of_the_element(void) {
  tensor_ref_layout t = tensor_ref_layout_create(1, TENSOR_REF_CLAMP_CONSTANT);
  t = tensor_ref_layout_set_dimension(t, U32S(1));
  t = tensor_ref_layout_slice(t, I32S(5), U32S(1));
  t = tensor_ref_layout_set_clamp_value(t, 0x12345678u);
  const uint32_t sizes[4] = {1, 2, 4, 8};
  const uint64_t expected[4] = {0x78, 0x5678, 0x12345678, 0x12345678};
  uint64_t buf = 0;
  for (int i = 0; i < 4; i++) {
    uint64_t m = 0xAAAA;
    CHECK_EQ_U64(tensor_ref_load_bits(&t, NULL, 1, 1, sizes[i], &buf, 1, &m), TENSOR_REF_OK);
    CHECK_EQ_U64(m, expected[i]);
  }
}

/* Constant: "Out of bounds stores are discarded." */
static void test_clamp_constant_store_discards_out_of_bounds_elements(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_CONSTANT, 2, 3);
  t = tensor_ref_layout_slice(t, I32S(1, 1), U32S(2, 2));
  CHECK_EQ_U64(tensor_ref_matrix_coord_to_tensor_element(&t, TENSOR_REF_STORE, 1, 0, 2).outcome,
               TENSOR_REF_DISCARDED); /* (2, 1) */
  uint16_t buf[6] = {9, 9, 9, 9, 9, 9};
  const uint64_t m[4] = {1, 2, 3, 4};
  CHECK_EQ_U64(tensor_ref_store_bits(&t, NULL, 2, 2, 2, m, buf, 6), TENSOR_REF_OK);
  const uint16_t expected[6] = {9, 9, 9, 9, 1, 2};
  for (int i = 0; i < 6; i++) CHECK_EQ_U64(buf[i], expected[i]);
}

/* ClampToEdge: "c = min(max(c, 0), t.layoutDimension[dim]-1);" */
static void test_clamp_to_edge_load_moves_coordinates_to_the_nearest_edge(void) {
  const int64_t c[7] = {-3, -1, 0, 2, 3, 4, 9};
  const uint32_t expected[7] = {0, 0, 0, 2, 3, 3, 3};
  for (int i = 0; i < 7; i++) {
    uint32_t out = 99;
    CHECK_EQ_U64(tensor_ref_clamp_coordinate(TENSOR_REF_CLAMP_TO_EDGE, TENSOR_REF_LOAD, c[i], 4, &out),
                 TENSOR_REF_ELEMENT);
    CHECK_EQ_U64(out, expected[i]);
  }
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_TO_EDGE, 3, 5);
  t = tensor_ref_layout_slice(t, I32S(-2, 4), U32S(2, 2));
  tensor_ref_address a = load_at(&t, 0, 1, 2); /* (-2, 5) -> (0, 4) */
  CHECK_ELEMENT(a, 4);
  CHECK(a.clamped);
  a = load_at(&t, 1, 0, 2); /* (-1, 4) -> (0, 4) */
  CHECK_ELEMENT(a, 4);
}

/* Repeat: "c = c % dim;" with "remainders are computed as defined in OpSMod" (the sign of
 * the divisor), so negative coordinates wrap to the far end. */
static void test_clamp_repeat_load_wraps_coordinates_with_smod(void) {
  const int64_t c[7] = {-5, -4, -1, 3, 4, 7, 9};
  const uint32_t expected[7] = {3, 0, 3, 3, 0, 3, 1};
  for (int i = 0; i < 7; i++) {
    uint32_t out = 99;
    CHECK_EQ_U64(tensor_ref_clamp_coordinate(TENSOR_REF_CLAMP_REPEAT, TENSOR_REF_LOAD, c[i], 4, &out),
                 TENSOR_REF_ELEMENT);
    CHECK_EQ_U64(out, expected[i]);
  }
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_REPEAT, 3, 4);
  t = tensor_ref_layout_slice(t, I32S(-1, 3), U32S(1, 2));
  CHECK_ELEMENT(load_at(&t, 0, 0, 2), 2 * 4 + 3); /* (-1, 3) -> (2, 3) */
  CHECK_ELEMENT(load_at(&t, 0, 1, 2), 2 * 4 + 0); /* (-1, 4) -> (2, 0) */
}

/* RepeatMirrored: "c = c % (2*dim-2); c = (c >= dim) ? (2*dim-2-c) : c;" — period 2*dim-2,
 * the edge elements are not repeated (dim 4: ... 2 1 0 1 2 3 2 1 0 1 ...). */
static void test_clamp_repeat_mirrored_reflects_with_period_2dim_minus_2(void) {
  const uint32_t expected[18] = {1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2};
  for (int64_t c = -7; c <= 10; c++) {
    uint32_t out = 99;
    CHECK_EQ_U64(tensor_ref_clamp_coordinate(TENSOR_REF_CLAMP_REPEAT_MIRRORED, TENSOR_REF_LOAD, c, 4,
                                             &out),
                 TENSOR_REF_ELEMENT);
    CHECK_MSG(out == expected[c + 7], "c = %d: got %u, expected %u", (int)c, out, expected[c + 7]);
  }
  /* dim 2: period 2 */
  uint32_t out = 99;
  CHECK_EQ_U64(tensor_ref_clamp_coordinate(TENSOR_REF_CLAMP_REPEAT_MIRRORED, TENSOR_REF_LOAD, -1, 2, &out),
               TENSOR_REF_ELEMENT);
  CHECK_EQ_U64(out, 1);
  CHECK_EQ_U64(tensor_ref_clamp_coordinate(TENSOR_REF_CLAMP_REPEAT_MIRRORED, TENSOR_REF_LOAD, 2, 2, &out),
               TENSOR_REF_ELEMENT);
  CHECK_EQ_U64(out, 0);
  /* through a layout: a 1x6 load at column offset -2 of a 1x4 tensor reads 2 1 0 1 2 3 */
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_REPEAT_MIRRORED, 1, 4);
  t = tensor_ref_layout_slice(t, I32S(0, -2), U32S(1, 6));
  const uint32_t row[6] = {2, 1, 0, 1, 2, 3};
  for (uint32_t c = 0; c < 6; c++) CHECK_ELEMENT(load_at(&t, 0, c, 6), row[c]);
}

/* RepeatMirrored's "c % (2*dim-2)" divides by zero for a dimension of 1: OpSMod by 0 is
 * undefined, so the reference reports the element undefined rather than inventing a rule. */
static void test_clamp_repeat_mirrored_on_a_dimension_of_one_is_undefined(void) {
  uint32_t out;
  CHECK_EQ_U64(tensor_ref_clamp_coordinate(TENSOR_REF_CLAMP_REPEAT_MIRRORED, TENSOR_REF_LOAD, 1, 1, &out),
               TENSOR_REF_UNDEFINED);
  CHECK_EQ_U64(tensor_ref_clamp_coordinate(TENSOR_REF_CLAMP_REPEAT_MIRRORED, TENSOR_REF_LOAD, 0, 1, &out),
               TENSOR_REF_ELEMENT); /* in bounds: no clamping happens */
}

/* "For stores, other than Undefined, everything is treated as "discard"" — ClampToEdge,
 * Repeat and RepeatMirrored stores out of bounds write nothing. */
static void test_out_of_bounds_stores_are_discarded_in_every_mode_but_undefined(void) {
  const tensor_ref_clamp_mode modes[4] = {TENSOR_REF_CLAMP_CONSTANT, TENSOR_REF_CLAMP_TO_EDGE,
                                          TENSOR_REF_CLAMP_REPEAT, TENSOR_REF_CLAMP_REPEAT_MIRRORED};
  for (int i = 0; i < 4; i++) {
    uint32_t out;
    CHECK_EQ_U64(tensor_ref_clamp_coordinate(modes[i], TENSOR_REF_STORE, -1, 4, &out), TENSOR_REF_DISCARDED);
    CHECK_EQ_U64(tensor_ref_clamp_coordinate(modes[i], TENSOR_REF_STORE, 4, 4, &out), TENSOR_REF_DISCARDED);
    CHECK_EQ_U64(tensor_ref_clamp_coordinate(modes[i], TENSOR_REF_STORE, 3, 4, &out), TENSOR_REF_ELEMENT);
    /* the same layout stores through ClampToEdge write only in-bounds elements */
    tensor_ref_layout t = layout2(modes[i], 2, 2);
    t = tensor_ref_layout_slice(t, I32S(0, 1), U32S(2, 2));
    int64_t writer[4];
    CHECK_EQ_U64(tensor_ref_store_map(&t, NULL, 2, 2, 4, writer, NULL), TENSOR_REF_OK);
    const int64_t expected[4] = {-1, 0, -1, 2};
    for (int k = 0; k < 4; k++) CHECK_EQ_U64(writer[k], expected[k]);
  }
}

/* Undefined: "Out of bounds accesses have undefined behavior." In bounds it addresses
 * normally; the reference flags only the out-of-bounds elements. */
static void test_clamp_undefined_is_undefined_only_out_of_bounds(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 2, 2);
  tensor_ref_address out[4];
  CHECK_EQ_U64(tensor_ref_matrix_addresses(&t, NULL, TENSOR_REF_LOAD, 2, 2, out), TENSOR_REF_OK);
  t = tensor_ref_layout_slice(t, I32S(0, 1), U32S(2, 2));
  CHECK_EQ_U64(tensor_ref_matrix_addresses(&t, NULL, TENSOR_REF_LOAD, 2, 2, out),
               TENSOR_REF_UNDEFINED_BEHAVIOR);
  CHECK_EQ_U64(out[0].outcome, TENSOR_REF_ELEMENT);
  CHECK_EQ_U64(out[1].outcome, TENSOR_REF_UNDEFINED);
  CHECK_EQ_U64(tensor_ref_matrix_addresses(&t, NULL, TENSOR_REF_STORE, 2, 2, out),
               TENSOR_REF_UNDEFINED_BEHAVIOR);
  CHECK_EQ_U64(out[3].outcome, TENSOR_REF_UNDEFINED);
}

/* ---- views ---- */

/* OpCreateTensorViewNV: "The viewDimension and viewStride elements are initialized to zero.
 * The clip values are initialized to offsets of 0, spans of 0xFFFFFFFF." OpTensorViewSet-
 * DimensionNV: "viewStride[i] is set to the product of dim<i+1> to dim<N-1> (and
 * viewStride[N-1] is set to 1)". */
static void test_view_create_and_set_dimension_defaults(void) {
  tensor_ref_view v = tensor_ref_view_create(4, true, NULL);
  CHECK_EQ_U64(v.clip_row_offset, 0);
  CHECK_EQ_U64(v.clip_col_offset, 0);
  CHECK_EQ_U64(v.clip_row_span, 0xFFFFFFFFu);
  CHECK_EQ_U64(v.clip_col_span, 0xFFFFFFFFu);
  for (uint32_t i = 0; i < 4; i++) {
    CHECK_EQ_U64(v.permutation[i], i);
    CHECK_EQ_U64(v.stride[i], 0);
  }
  v = tensor_ref_view_set_dimension(v, U32S(2, 3, 4, 5));
  CHECK_EQ_U64(v.stride[0], 60);
  CHECK_EQ_U64(v.stride[1], 20);
  CHECK_EQ_U64(v.stride[2], 5);
  CHECK_EQ_U64(v.stride[3], 1);
}

/* OpTypeTensorViewNV: "they must form a valid permutation of the range [0,Dim)." */
static void test_view_permutation_must_be_a_permutation(void) {
  tensor_ref_view ok = tensor_ref_view_create(3, false, U32S(2, 0, 1));
  tensor_ref_view repeated = tensor_ref_view_create(3, false, U32S(0, 0, 1));
  tensor_ref_view out_of_range = tensor_ref_view_create(2, false, U32S(0, 2));
  CHECK(tensor_ref_view_problem(&ok) == NULL);
  CHECK_CONTAINS(tensor_ref_view_problem(&repeated), "permutation");
  CHECK_CONTAINS(tensor_ref_view_problem(&out_of_range), "permutation");
}

/* "If the tensor view type has "hasDimensions" false, then the dimensions of the tensor
 * layout span are used instead" (with strides packed to match t.span): an identity view
 * without dimensions addresses exactly like no view. */
static void test_view_without_dimensions_uses_the_span(void) {
  tensor_ref_layout t = tensor_ref_layout_create(3, TENSOR_REF_CLAMP_UNDEFINED);
  t = tensor_ref_layout_set_dimension(t, U32S(4, 5, 3));
  t = tensor_ref_layout_slice(t, I32S(1, 2, 0), U32S(2, 2, 3));
  tensor_ref_view v = tensor_ref_view_create(3, false, NULL);
  for (uint32_t r = 0; r < 4; r++)
    for (uint32_t c = 0; c < 3; c++)
      CHECK_ELEMENT(load_view_at(&t, &v, r, c, 3), load_at(&t, r, c, 3).index);
}

/* GLSL example "Load from col-major matrix": layout dimensions (NumCols, NumRows), slice
 * (col, N, row, M), and createTensorViewNV(2, false, 1, 0) "permuting dimensions 0 <-> 1 to
 * swap row/col indices" — the load of a transposed (column-major) operand such as B^T. */
static void test_view_permutation_1_0_loads_column_major_storage(void) {
  const uint32_t num_rows = 5, num_cols = 6, row = 1, col = 2, M = 3, N = 2;
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, num_cols, num_rows);
  t = tensor_ref_layout_slice(t, I32S((int32_t)col, (int32_t)row), U32S(N, M));
  /* slice's operands are (Offset0, Span0, Offset1, Span1) = (col, N, row, M) */
  CHECK_EQ_U64(t.span[0], N);
  CHECK_EQ_U64(t.span[1], M);
  tensor_ref_view v = tensor_ref_view_create(2, false, U32S(1, 0));
  /* column-major element (row+r, col+c) lives at (col+c)*NumRows + row+r */
  CHECK_ELEMENT(load_view_at(&t, &v, 0, 0, N), 2 * 5 + 1);
  CHECK_ELEMENT(load_view_at(&t, &v, 2, 1, N), 3 * 5 + 3);
  for (uint32_t r = 0; r < M; r++)
    for (uint32_t c = 0; c < N; c++)
      CHECK_ELEMENT(load_view_at(&t, &v, r, c, N), (col + c) * num_rows + row + r);
}

/* GLSL example "Perform 2x2 space_to_depth transform while loading from memory": an HWC
 * layout viewed as H/2 x 2 x W/2 x 2 x C and permuted (0, 2, 1, 3, 4). Reference mapping
 * (as in the Vulkan CTS): input (h*W+w)*C+c -> matrix row (h/2)*(W/2)+w/2, column
 * ((h&1)*2+(w&1))*C+c. */
static void test_view_dimensions_and_permutation_do_space_to_depth(void) {
  const uint32_t H = 4, W = 6, C = 2;
  tensor_ref_layout t = tensor_ref_layout_create(3, TENSOR_REF_CLAMP_UNDEFINED);
  t = tensor_ref_layout_set_dimension(t, U32S(H, W, C));
  tensor_ref_view v = tensor_ref_view_create(5, true, U32S(0, 2, 1, 3, 4));
  v = tensor_ref_view_set_dimension(v, U32S(H / 2, 2, W / 2, 2, C));
  const uint32_t cols = 4 * C;
  for (uint32_t h = 0; h < H; h++)
    for (uint32_t w = 0; w < W; w++)
      for (uint32_t c = 0; c < C; c++) {
        uint32_t r = (h / 2) * (W / 2) + w / 2, col = ((h & 1) * 2 + (w & 1)) * C + c;
        CHECK_ELEMENT(load_view_at(&t, &v, r, col, cols), (h * W + w) * C + c);
      }
}

/* OpTensorViewSetStrideNV sets viewStride freely: a view stride of 0 on the row dimension
 * (the Vulkan CTS "stride0" case) makes every matrix row load the first row. */
static void test_view_stride_zero_broadcasts_the_first_row(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 4, 5);
  t = tensor_ref_layout_slice(t, I32S(1, 0), U32S(3, 5));
  tensor_ref_view v = tensor_ref_view_create(2, true, NULL);
  v = tensor_ref_view_set_dimension(v, U32S(3, 5));
  v = tensor_ref_view_set_stride(v, U32S(0, 1));
  for (uint32_t r = 0; r < 3; r++)
    for (uint32_t c = 0; c < 5; c++) CHECK_ELEMENT(load_view_at(&t, &v, r, c, 5), 5 + c);
}

/* matrixCoordToLinear with a view: elements outside the clip rectangle: "Load or store is
 * skipped. For load, the matrix element is unmodified."; inside it "row -= clipRowOffset;
 * col -= clipColOffset; index = row * width + col". */
static void test_view_clip_skips_elements_outside_the_clip_rectangle(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 4, 6);
  t = tensor_ref_layout_slice(t, I32S(0, 0), U32S(2, 3));
  tensor_ref_view v = tensor_ref_view_set_clip(tensor_ref_view_create(2, false, NULL), 1, 2, 1, 3);
  for (uint32_t r = 0; r < 4; r++)
    for (uint32_t c = 0; c < 6; c++) {
      tensor_ref_address a = load_view_at(&t, &v, r, c, 6);
      bool inside = r >= 1 && r < 3 && c >= 1 && c < 4;
      if (inside)
        CHECK_ELEMENT(a, (r - 1) * 6 + (c - 1));
      else
        CHECK_EQ_U64(a.outcome, TENSOR_REF_CLIPPED);
    }
  /* a load leaves clipped elements as they were */
  double buf[24], m[24];
  for (int i = 0; i < 24; i++) {
    buf[i] = 100 + i;
    m[i] = -7;
  }
  CHECK_EQ_U64(tensor_ref_load_f64(&t, &v, 4, 6, TENSOR_REF_F64, buf, 24, m), TENSOR_REF_OK);
  CHECK(m[0] == -7);
  CHECK(m[1 * 6 + 1] == 100);
  CHECK(m[2 * 6 + 3] == 108); /* (1, 2) of the clip -> tensor (1, 2) -> 8 */
  CHECK(m[2 * 6 + 4] == -7);
  /* and a store skips them */
  int64_t writer[24];
  CHECK_EQ_U64(tensor_ref_store_map(&t, &v, 4, 6, 24, writer, NULL), TENSOR_REF_OK);
  CHECK_EQ_U64(writer[8], 2 * 6 + 3);
  CHECK_EQ_U64(writer[3], (uint64_t)-1);
}

/* matrixCoordToLinear with a view: "uint32_t width = min(N, v.clipColSpan);" — a clip
 * wider than the matrix keeps the matrix width N as the row pitch. */
static void test_view_clip_row_pitch_is_min_of_columns_and_clip_span(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 2, 4);
  tensor_ref_view v = tensor_ref_view_set_clip(tensor_ref_view_create(2, false, NULL), 0, 2, 1, 100);
  /* (1, 3): col 3-1 = 2, width min(4, 100) = 4: linear 1*4 + 2 = 6 */
  CHECK_ELEMENT(load_view_at(&t, &v, 1, 3, 4), 6);
  /* with clip span 3 the pitch is 3: linear 1*3 + 2 = 5 */
  v = tensor_ref_view_set_clip(v, 0, 2, 1, 3);
  CHECK_ELEMENT(load_view_at(&t, &v, 1, 3, 4), 5);
}

/* ---- views combined with clamping ---- */

/* The setup of the next two tests, one per clamp mode: a 3x4 row-major tensor (strides 4,
 * 1) sliced at offset (1, 2) with span (3, 3), read through a view with permutation (1, 0),
 * no dimensions (so the span's (3, 3) with packed strides (3, 1)) and clip rows [1, 5),
 * columns [0, 2), as a 6x3 matrix (N = 3). Step by step (the pseudocode of
 * matrixCoordToTensorElementWithView):
 *   matrixCoordToLinear: rows 0 and 5 and column 2 are clipped; width = min(N, 2) = 2, so
 *     idx = (row - 1) * 2 + col, 0..7.
 *   linearToViewCoord: dim 1 -> i = p[1] = 0: vc[0] = idx % 3; dim 0 -> i = p[0] = 1:
 *     vc[1] = (idx / 3) % 3.
 *   viewCoordToLinear: vc[0] * 3 + vc[1]; linearToSpanCoord: span = (vc[0], vc[1]).
 *   spanCoordToTensorCoord: c = (1 + idx % 3, 2 + idx / 3); in bounds when c0 < 3, c1 < 4.
 *   (row, col)  idx  c       in bounds?    index c0 * 4 + c1 (out of bounds: Constant gives
 *                                          the clamp value, ClampToEdge clamps c first)
 *   (1, 0)      0    (1, 2)  yes           6
 *   (1, 1)      1    (2, 2)  yes           10
 *   (2, 0)      2    (3, 2)  c0 = 3 out    ClampToEdge (2, 2): 10
 *   (2, 1)      3    (1, 3)  yes           7
 *   (3, 0)      4    (2, 3)  yes           11
 *   (3, 1)      5    (3, 3)  c0 = 3 out    ClampToEdge (2, 3): 11
 *   (4, 0)      6    (1, 4)  c1 = 4 out    ClampToEdge (1, 3): 7
 *   (4, 1)      7    (2, 4)  c1 = 4 out    ClampToEdge (2, 3): 11
 * Stores treat every mode but Undefined as Constant: the four out-of-bounds elements are
 * discarded. */
static void clipped_transposing_view_setup(tensor_ref_clamp_mode mode, tensor_ref_layout *t,
                                           tensor_ref_view *v) {
  *t = layout2(mode, 3, 4);
  *t = tensor_ref_layout_slice(*t, I32S(1, 2), U32S(3, 3));
  *v = tensor_ref_view_create(2, false, U32S(1, 0));
  *v = tensor_ref_view_set_clip(*v, 1, 4, 0, 2);
}

#define CLIPPED 0xEEEEu /* what a clipped matrix element keeps */

/* The table above with Constant: "For load, set result value to t.clampValue" (the low 16
 * bits of 0x10077 for 16-bit elements), clipped elements unmodified. */
static void test_view_with_permutation_and_clip_under_constant_clamping(void) {
  tensor_ref_layout t;
  tensor_ref_view v;
  clipped_transposing_view_setup(TENSOR_REF_CLAMP_CONSTANT, &t, &v);
  t = tensor_ref_layout_set_clamp_value(t, 0x10077);
  CHECK(tensor_ref_layout_problem(&t) == NULL);
  CHECK(tensor_ref_view_problem(&v) == NULL);
  CHECK_ELEMENT(load_view_at(&t, &v, 1, 0, 3), 6);
  CHECK_ELEMENT(load_view_at(&t, &v, 3, 0, 3), 11);
  CHECK_EQ_U64(load_view_at(&t, &v, 2, 0, 3).outcome, TENSOR_REF_CLAMP_VALUE);
  CHECK_EQ_U64(load_view_at(&t, &v, 4, 1, 3).outcome, TENSOR_REF_CLAMP_VALUE);
  CHECK_EQ_U64(load_view_at(&t, &v, 0, 0, 3).outcome, TENSOR_REF_CLIPPED);
  CHECK_EQ_U64(load_view_at(&t, &v, 1, 2, 3).outcome, TENSOR_REF_CLIPPED);
  CHECK_EQ_U64(load_view_at(&t, &v, 5, 1, 3).outcome, TENSOR_REF_CLIPPED);
  uint16_t buf[12];
  for (int i = 0; i < 12; i++) buf[i] = (uint16_t)(100 + i);
  uint64_t m[18];
  for (int i = 0; i < 18; i++) m[i] = CLIPPED;
  CHECK_EQ_U64(tensor_ref_load_bits(&t, &v, 6, 3, 2, buf, 12, m), TENSOR_REF_OK);
  const uint64_t expected[18] = {
      CLIPPED, CLIPPED, CLIPPED, /* row 0: clipped */
      106,     110,     CLIPPED, /* column 2: clipped */
      0x77,    107,     CLIPPED,
      111,     0x77,    CLIPPED,
      0x77,    0x77,    CLIPPED,
      CLIPPED, CLIPPED, CLIPPED, /* row 5: clipped */
  };
  for (int i = 0; i < 18; i++)
    CHECK_MSG(m[i] == expected[i], "m[%d] = 0x%llx, expected 0x%llx", i, (unsigned long long)m[i],
              (unsigned long long)expected[i]);
  /* a store writes the four in-bounds elements (writer: row * 3 + col) */
  int64_t writer[12];
  CHECK_EQ_U64(tensor_ref_store_map(&t, &v, 6, 3, 12, writer, NULL), TENSOR_REF_OK);
  for (int i = 0; i < 12; i++) {
    int64_t want = i == 6 ? 3 : i == 10 ? 4 : i == 7 ? 7 : i == 11 ? 9 : -1;
    CHECK_MSG(writer[i] == want, "writer[%d] = %lld, expected %lld", i, (long long)writer[i],
              (long long)want);
  }
}

/* The table above with ClampToEdge: "c = min(max(c, 0), t.layoutDimension[dim]-1)" moves
 * (3, 2) to (2, 2), (3, 3) and (2, 4) to (2, 3), (1, 4) to (1, 3); stores out of bounds
 * are still discarded. */
static void test_view_with_permutation_and_clip_under_clamp_to_edge(void) {
  tensor_ref_layout t;
  tensor_ref_view v;
  clipped_transposing_view_setup(TENSOR_REF_CLAMP_TO_EDGE, &t, &v);
  const struct { uint32_t row, col, index; bool clamped; } cases[8] = {
      {1, 0, 6, false}, {1, 1, 10, false}, {2, 0, 10, true}, {2, 1, 7, false},
      {3, 0, 11, false}, {3, 1, 11, true}, {4, 0, 7, true},  {4, 1, 11, true},
  };
  for (int i = 0; i < 8; i++) {
    tensor_ref_address a = load_view_at(&t, &v, cases[i].row, cases[i].col, 3);
    CHECK_ELEMENT(a, cases[i].index);
    CHECK_MSG(a.clamped == cases[i].clamped, "(%u, %u): clamped = %d", cases[i].row, cases[i].col,
              (int)a.clamped);
  }
  CHECK_EQ_U64(load_view_at(&t, &v, 0, 1, 3).outcome, TENSOR_REF_CLIPPED);
  CHECK_EQ_U64(load_view_at(&t, &v, 4, 2, 3).outcome, TENSOR_REF_CLIPPED);
  uint16_t buf[12];
  for (int i = 0; i < 12; i++) buf[i] = (uint16_t)(100 + i);
  uint64_t m[18];
  for (int i = 0; i < 18; i++) m[i] = CLIPPED;
  CHECK_EQ_U64(tensor_ref_load_bits(&t, &v, 6, 3, 2, buf, 12, m), TENSOR_REF_OK);
  const uint64_t expected[18] = {
      CLIPPED, CLIPPED, CLIPPED,
      106,     110,     CLIPPED,
      110,     107,     CLIPPED,
      111,     111,     CLIPPED,
      107,     111,     CLIPPED,
      CLIPPED, CLIPPED, CLIPPED,
  };
  for (int i = 0; i < 18; i++)
    CHECK_MSG(m[i] == expected[i], "m[%d] = 0x%llx, expected 0x%llx", i, (unsigned long long)m[i],
              (unsigned long long)expected[i]);
  CHECK(tensor_ref_view_problem(&v) == NULL);
  int64_t writer[12];
  CHECK_EQ_U64(tensor_ref_store_map(&t, &v, 6, 3, 12, writer, NULL), TENSOR_REF_OK);
  for (int i = 0; i < 12; i++) {
    int64_t want = i == 6 ? 3 : i == 10 ? 4 : i == 7 ? 7 : i == 11 ? 9 : -1;
    CHECK_MSG(writer[i] == want, "writer[%d] = %lld, expected %lld", i, (long long)writer[i],
              (long long)want);
  }
  CHECK_EQ_U64(tensor_ref_matrix_coord_to_tensor_element_with_view(&t, &v, TENSOR_REF_STORE, 2, 0, 3)
                   .outcome,
               TENSOR_REF_DISCARDED);
}

#undef CLIPPED

/* ---- stores ---- */

/* OpCooperativeMatrixStoreTensorNV: "The matrix element is loaded from or stored to this
 * location" — the store map is the inverse of the addressing: each buffer element names the
 * matrix element written there. */
static void test_store_map_names_the_matrix_element_written_to_each_buffer_element(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 3, 4);
  t = tensor_ref_layout_slice(t, I32S(1, 1), U32S(2, 2));
  int64_t writer[12];
  size_t conflicts = 99;
  CHECK_EQ_U64(tensor_ref_store_map(&t, NULL, 2, 2, 12, writer, &conflicts), TENSOR_REF_OK);
  CHECK_EQ_U64(conflicts, 0);
  for (int i = 0; i < 12; i++) {
    int64_t expected = i == 5 ? 0 : i == 6 ? 1 : i == 9 ? 2 : i == 10 ? 3 : -1;
    CHECK_MSG(writer[i] == expected, "writer[%d] = %lld, expected %lld", i, (long long)writer[i],
              (long long)expected);
  }
  uint32_t buf[12] = {0};
  const uint64_t m[4] = {11, 12, 13, 14};
  CHECK_EQ_U64(tensor_ref_store_bits(&t, NULL, 2, 2, 4, m, buf, 12), TENSOR_REF_OK);
  CHECK_EQ_U64(buf[5], 11);
  CHECK_EQ_U64(buf[10], 14);
  CHECK_EQ_U64(buf[4], 0);
}

/* "a block size larger than 1 must not be used with OpCooperativeMatrixStoreTensorNV
 * because it will lead to data races." */
static void test_store_with_a_block_size_above_one_is_rejected(void) {
  tensor_ref_layout t = tensor_ref_layout_create(2, TENSOR_REF_CLAMP_UNDEFINED);
  t = tensor_ref_layout_set_block_size(t, U32S(1, 2));
  t = tensor_ref_layout_set_dimension(t, U32S(2, 4));
  int64_t writer[4];
  uint16_t buf[4];
  const uint64_t m[8] = {0};
  CHECK_EQ_U64(tensor_ref_store_map(&t, NULL, 2, 4, 4, writer, NULL), TENSOR_REF_INVALID_ARGUMENT);
  CHECK_EQ_U64(tensor_ref_store_bits(&t, NULL, 2, 4, 2, m, buf, 4), TENSOR_REF_INVALID_ARGUMENT);
}

/* Several matrix elements can address one tensor element (a view stride of 0): a store
 * then races, and the result is only defined when the values agree. */
static void test_stores_of_different_values_to_one_element_conflict(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 1, 3);
  tensor_ref_view v = tensor_ref_view_create(2, true, NULL);
  v = tensor_ref_view_set_dimension(v, U32S(2, 3));
  v = tensor_ref_view_set_stride(v, U32S(0, 1));
  int64_t writer[3];
  size_t conflicts = 0;
  CHECK_EQ_U64(tensor_ref_store_map(&t, &v, 2, 3, 3, writer, &conflicts), TENSOR_REF_STORE_CONFLICT);
  CHECK_EQ_U64(conflicts, 3);
  CHECK_EQ_U64(writer[2], 2);
  uint8_t buf[3] = {0};
  const uint64_t same[6] = {1, 2, 3, 1, 2, 3}, different[6] = {1, 2, 3, 1, 5, 3};
  CHECK_EQ_U64(tensor_ref_store_bits(&t, &v, 2, 3, 1, same, buf, 3), TENSOR_REF_OK);
  CHECK_EQ_U64(buf[1], 2);
  CHECK_EQ_U64(tensor_ref_store_bits(&t, &v, 2, 3, 1, different, buf, 3), TENSOR_REF_STORE_CONFLICT);
}

/* The index is "multiplied by the size of the component type ... and treated as a byte
 * offset from the Pointer operand": an index past the buffer the test provided is outside
 * what the reference can know. */
static void test_loads_beyond_the_given_buffer_are_reported(void) {
  tensor_ref_layout t = layout2(TENSOR_REF_CLAMP_UNDEFINED, 2, 2);
  uint32_t buf[3] = {1, 2, 3};
  uint64_t m[4];
  CHECK_EQ_U64(tensor_ref_load_bits(&t, NULL, 2, 2, 4, buf, 3, m), TENSOR_REF_OUT_OF_BUFFER);
  CHECK_EQ_U64(m[2], 3);
  CHECK_EQ_U64(m[3], 0);
}

/* ---- element types ---- */

/* The component types a load can read (float16, bfloat16, SPV_EXT_float8 E4M3/E5M2): the
 * clamp-value constants the Vulkan CTS uses for 0.5 decode to 0.5, and encoding rounds to
 * nearest even. */
static void test_element_types_decode_and_round_trip(void) {
  CHECK(tensor_ref_decode(TENSOR_REF_F16, 0x3800) == 0.5);
  CHECK(tensor_ref_decode(TENSOR_REF_BF16, 0x3f00) == 0.5);
  CHECK(tensor_ref_decode(TENSOR_REF_E5M2, 0x38) == 0.5);
  CHECK(tensor_ref_decode(TENSOR_REF_E4M3, 0x30) == 0.5);
  CHECK(tensor_ref_decode(TENSOR_REF_F16, 0xc000) == -2.0);
  CHECK(tensor_ref_decode(TENSOR_REF_F16, 0x0001) == ldexp(1, -24));
  CHECK(isinf(tensor_ref_decode(TENSOR_REF_F16, 0x7c00)));
  CHECK(tensor_ref_decode(TENSOR_REF_E4M3, 0x7e) == 448.0);
  CHECK(isnan(tensor_ref_decode(TENSOR_REF_E4M3, 0x7f)));
  CHECK(tensor_ref_decode(TENSOR_REF_S8, 0xff) == -1.0);
  CHECK(tensor_ref_decode(TENSOR_REF_U8, 0xff) == 255.0);
  /* every finite f16 / e4m3 / e5m2 pattern survives decode + encode */
  int mismatches = 0;
  for (uint32_t b = 0; b < 0x10000; b++) {
    double x = tensor_ref_decode(TENSOR_REF_F16, b);
    if (!isnan(x) && tensor_ref_encode(TENSOR_REF_F16, x) != b) mismatches++;
    x = tensor_ref_decode(TENSOR_REF_BF16, b);
    if (!isnan(x) && tensor_ref_encode(TENSOR_REF_BF16, x) != b) mismatches++;
  }
  for (uint32_t b = 0; b < 0x100; b++) {
    double x = tensor_ref_decode(TENSOR_REF_E4M3, b);
    if (!isnan(x) && tensor_ref_encode(TENSOR_REF_E4M3, x) != b) mismatches++;
    x = tensor_ref_decode(TENSOR_REF_E5M2, b);
    if (!isnan(x) && tensor_ref_encode(TENSOR_REF_E5M2, x) != b) mismatches++;
  }
  CHECK_EQ_U64(mismatches, 0);
  CHECK_EQ_U64(tensor_ref_encode(TENSOR_REF_F16, 1 + ldexp(1, -11)), 0x3c00);     /* tie -> even */
  CHECK_EQ_U64(tensor_ref_encode(TENSOR_REF_F16, 1 + 3 * ldexp(1, -11)), 0x3c02); /* tie -> even */
  CHECK_EQ_U64(tensor_ref_encode(TENSOR_REF_E4M3, 464), 0x7e); /* tie between 448 and NaN */
  CHECK_EQ_U64(tensor_ref_encode(TENSOR_REF_E4M3, 470), 0x7f); /* overflow -> NaN */
  CHECK_EQ_U64(tensor_ref_encode(TENSOR_REF_F16, 70000), 0x7c00);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_create_layout_zeroes_state_and_sets_block_size_one),
      TEST_CASE(test_set_dimension_sets_span_clears_offset_and_packs_strides),
      TEST_CASE(test_set_dimension_strides_count_blocks_of_inner_dimensions),
      TEST_CASE(test_set_block_size_after_dimension_leaves_strides),
      TEST_CASE(test_slice_adds_to_offset_and_replaces_span),
      TEST_CASE(test_set_stride_replaces_only_the_strides),
      TEST_CASE(test_stride_smaller_than_inner_extent_is_rejected),
      TEST_CASE(test_layout_dimension_count_must_be_1_to_5),
      TEST_CASE(test_2d_slice_loads_row_major_from_the_slice_origin),
      TEST_CASE(test_span_coordinates_wrap_when_the_matrix_exceeds_the_span),
      TEST_CASE(test_3d_hwc_slice_flattens_outer_dimensions_into_rows),
      TEST_CASE(test_5d_slice_sums_coordinates_times_strides),
      TEST_CASE(test_block_size_splits_coordinates_into_block_and_coordinate_in_block),
      TEST_CASE(test_clamp_constant_load_returns_the_clamp_value),
      TEST_CASE(test_clamp_value_loads_as_the_low_bits_of_the_element),
      TEST_CASE(test_clamp_constant_store_discards_out_of_bounds_elements),
      TEST_CASE(test_clamp_to_edge_load_moves_coordinates_to_the_nearest_edge),
      TEST_CASE(test_clamp_repeat_load_wraps_coordinates_with_smod),
      TEST_CASE(test_clamp_repeat_mirrored_reflects_with_period_2dim_minus_2),
      TEST_CASE(test_clamp_repeat_mirrored_on_a_dimension_of_one_is_undefined),
      TEST_CASE(test_out_of_bounds_stores_are_discarded_in_every_mode_but_undefined),
      TEST_CASE(test_clamp_undefined_is_undefined_only_out_of_bounds),
      TEST_CASE(test_view_create_and_set_dimension_defaults),
      TEST_CASE(test_view_permutation_must_be_a_permutation),
      TEST_CASE(test_view_without_dimensions_uses_the_span),
      TEST_CASE(test_view_permutation_1_0_loads_column_major_storage),
      TEST_CASE(test_view_dimensions_and_permutation_do_space_to_depth),
      TEST_CASE(test_view_stride_zero_broadcasts_the_first_row),
      TEST_CASE(test_view_clip_skips_elements_outside_the_clip_rectangle),
      TEST_CASE(test_view_clip_row_pitch_is_min_of_columns_and_clip_span),
      TEST_CASE(test_view_with_permutation_and_clip_under_constant_clamping),
      TEST_CASE(test_view_with_permutation_and_clip_under_clamp_to_edge),
      TEST_CASE(test_store_map_names_the_matrix_element_written_to_each_buffer_element),
      TEST_CASE(test_store_with_a_block_size_above_one_is_rejected),
      TEST_CASE(test_stores_of_different_values_to_one_element_conflict),
      TEST_CASE(test_loads_beyond_the_given_buffer_are_reported),
      TEST_CASE(test_element_types_decode_and_round_trip),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
