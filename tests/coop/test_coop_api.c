/* tests/coop/test_coop_api.c — the cooperative side of issue 10: strides given as numbers
 * (the literal-for-id trap of the report cannot happen any more) and as checked ids,
 * float splats, read-only buffers refusing every store helper, and cooperative-vector
 * strides that must hold a row. */
#include <string.h>

#include "coop_fixture.h"
#include "harness.h"
#include "module_check.h"
#include "spvgen/coop.h"

typedef struct fixture {
  spvgen_module *m;
  uint32_t f16, f32, u32;
  spvgen_buffer out, in; /* float16 buffers: writable (binding 0), read-only (binding 1) */
  uint32_t A;            /* float16 16x16 MatrixA */
  uint32_t V;            /* coopvec<float16, 32> */
} fixture;

static fixture begin(void) {
  fixture f;
  memset(&f, 0, sizeof f);
  f.m = spvgen_module_create(NULL);
  f.f16 = spvgen_type_float(f.m, 16);
  f.f32 = spvgen_type_float(f.m, 32);
  f.u32 = spvgen_type_int(f.m, 32, false);
  f.out = spvgen_buffer_declare(f.m, f.f16, 0, 0, 0);
  f.in = spvgen_buffer_declare(f.m, f.f16, 0, 1, SPVGEN_BUFFER_READONLY);
  f.A = spvgen_type_coopmat(f.m, f.f16, SpvScopeSubgroup, 16, 16, SpvCooperativeMatrixUseMatrixAKHR);
  f.V = spvgen_type_coopvec(f.m, f.f16, 32);
  spvgen_compute_main(f.m, "main", 32, 1, 1);
  CHECK_EQ_U64(spvgen_module_status(f.m), SPVGEN_OK);
  return f;
}

/* ------------------------------------------------------- values and ids ---- */

/* The report: spvgen_coopmat_load took rows/columns as values but the stride as an id;
 * "16" meant as 16 elements validated because id 16 happened to be the constant 0.
 * The stride is a number now: passing the number z gives the stride constant z, whatever
 * the id z is (here: the constant 0, the report's case). */
static void test_a_literal_stride_is_the_number_it_says(void) {
  fixture f = begin();
  coop_named(f.m, f.A, "A");
  uint32_t z = spvgen_const_u32(f.m, 0); /* an id that is an integer constant, 0 */
  uint32_t p = coop_named(f.m, spvgen_buffer_element(f.m, &f.in, z), "p");
  uint32_t q = coop_named(f.m, spvgen_buffer_element(f.m, &f.out, z), "q");
  uint32_t a = coop_named(f.m, spvgen_coopmat_load(f.m, f.A, p, SpvCooperativeMatrixLayoutRowMajorKHR,
                                              z, NULL), "a");
  spvgen_coopmat_store(f.m, q, a, SpvCooperativeMatrixLayoutRowMajorKHR, 16, NULL);
  spvgen_function_end(f.m);
  size_t count;
  const uint32_t *words = check_module(f.m, &count);
  char *text = words ? check_disassemble(words, count) : NULL;
  char load[128];
  snprintf(load, sizeof load, "%%a = OpCooperativeMatrixLoadKHR %%A %%p %%uint_0 %%uint_%u", z);
  const char *lines[] = {load, "OpCooperativeMatrixStoreKHR %q %a %uint_0 %uint_16"};
  check_has_lines(text, lines, 2);
  CHECK(z != 0 && z != 16); /* the stride is the number, not the constant the id names */
  spvgen_free_text(text);
  spvgen_module_destroy(f.m);
}

/* The _stride_id variants take ids, and refuse an id that is not an integer value,
 * naming what it is. */
static void test_stride_ids_must_be_integer_values(void) {
  const struct {
    int kind; /* 0 a type, 1 a float constant, 2 a label, 3 never allocated */
    const char *what;
  } cases[] = {{0, "the type float16"}, {1, "a constant float32 16"}, {2, "a label"},
               {3, "which this module never allocated"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fixture f = begin();
    uint32_t p = spvgen_buffer_element(f.m, &f.out, spvgen_const_u32(f.m, 0));
    uint32_t id = cases[i].kind == 0   ? f.f16
                  : cases[i].kind == 1 ? spvgen_const_f32(f.m, 16.0f)
                  : cases[i].kind == 2 ? spvgen_current_block(f.m)
                                       : 4000;
    spvgen_coopmat_load_stride_id(f.m, f.A, p, SpvCooperativeMatrixLayoutRowMajorKHR, id, NULL);
    char expected[256];
    snprintf(expected, sizeof expected, "spvgen_coopmat_load_stride_id: stride_id is id %u, %s; "
             "expected the id of an integer value", id, cases[i].what);
    if (cases[i].kind == 3)
      snprintf(expected, sizeof expected, "spvgen_coopmat_load_stride_id: stride_id is id %u, %s",
               id, cases[i].what);
    check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
    spvgen_module_destroy(f.m);
  }
  /* An integer value is fine: a run-time stride, and the store variant. */
  fixture f = begin();
  spvgen_push_constant_block pc = spvgen_push_constants(f.m, &f.u32, 1);
  uint32_t ld = spvgen_push_constant_load(f.m, &pc, 0);
  uint32_t p = spvgen_buffer_element(f.m, &f.out, spvgen_const_u32(f.m, 0));
  uint32_t a = spvgen_coopmat_load_stride_id(f.m, f.A, p, SpvCooperativeMatrixLayoutColumnMajorKHR,
                                             ld, NULL);
  spvgen_coopmat_store_stride_id(f.m, p, a, SpvCooperativeMatrixLayoutColumnMajorKHR, ld, NULL);
  spvgen_function_end(f.m);
  check_module(f.m, NULL);
  spvgen_module_destroy(f.m);
}

/* ---------------------------------------------------------------- splats ---- */

static void test_coop_splat_float_rounds_like_const_float(void) {
  fixture f = begin();
  uint32_t C = spvgen_type_coopmat(f.m, f.f32, SpvScopeSubgroup, 16, 16,
                                   SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  CHECK_EQ_U64(spvgen_coop_splat_float(f.m, f.A, 1.0),
               spvgen_coop_splat(f.m, f.A, spvgen_const_bits(f.m, f.f16, 0x3C00)));
  CHECK_EQ_U64(spvgen_coop_splat_float(f.m, C, 0.5),
               spvgen_coop_splat(f.m, C, spvgen_const_f32(f.m, 0.5f)));
  uint32_t zeros = coop_named(f.m, spvgen_coop_splat_float(f.m, f.V, 0.0), "zeros");
  CHECK(zeros != 0);
  uint32_t U = spvgen_type_coopvec(f.m, f.u32, 4);
  spvgen_coop_splat_float(f.m, U, 1.0);
  check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_coop_splat_float: the components of coopvec<uint32, 4> are not floats");
  spvgen_module_destroy(f.m);
}

/* ------------------------------------------------------------- read-only ---- */

static void test_every_store_helper_refuses_a_read_only_buffer(void) {
  for (int which = 0; which < 5; which++) {
    fixture f = begin();
    uint32_t zero = spvgen_const_u32(f.m, 0);
    uint32_t p = spvgen_buffer_element(f.m, &f.in, zero);
    uint32_t arr = spvgen_buffer_array(f.m, &f.in);
    const char *fn = "";
    switch (which) {
    case 0:
      spvgen_store(f.m, p, spvgen_const_float(f.m, f.f16, 1.0));
      fn = "spvgen_store";
      break;
    case 1:
      spvgen_coopmat_store(f.m, p, spvgen_coop_splat_float(f.m, f.A, 1.0),
                           SpvCooperativeMatrixLayoutRowMajorKHR, 16, NULL);
      fn = "spvgen_coopmat_store";
      break;
    case 2:
      spvgen_coopvec_store(f.m, arr, spvgen_coop_splat_float(f.m, f.V, 1.0), 0, NULL);
      fn = "spvgen_coopvec_store";
      break;
    case 3:
      spvgen_coopvec_reduce_sum_accumulate(f.m, arr, spvgen_coop_splat_float(f.m, f.V, 1.0), 0);
      fn = "spvgen_coopvec_reduce_sum_accumulate";
      break;
    case 4: {
      uint32_t W = spvgen_type_coopmat(f.m, f.f16, SpvScopeWorkgroup, 32, 32,
                                       SpvCooperativeMatrixUseMatrixAKHR);
      uint32_t L = spvgen_type_tensor_layout(f.m, 2, SpvTensorClampModeUndefined);
      uint32_t c32 = spvgen_const_u32(f.m, 32);
      uint32_t t = spvgen_tensor_layout_set_dimension(f.m, spvgen_tensor_layout_create(f.m, L),
                                                      (const uint32_t[]){c32, c32}, 2);
      spvgen_coopmat_store_tensor(f.m, p, spvgen_coop_splat_float(f.m, W, 1.0), t, NULL, NULL);
      fn = "spvgen_coopmat_store_tensor";
      break;
    }
    }
    char expected[256];
    snprintf(expected, sizeof expected,
             "%s: the pointer (id %u) leads to buffer variable %u (set 0, binding 1), whose "
             "member 0 is NonWritable", fn, which == 2 || which == 3 ? arr : p, f.in.variable);
    check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
    spvgen_module_destroy(f.m);
  }
}

/* ------------------------------------------------- coopvec matrix strides ---- */

/* The report: a cooperative vector matrix stride smaller than its row (both constants)
 * passed. A row-major M x K matrix needs K elements per row, a column-major one M. */
static void test_coopvec_strides_smaller_than_a_row_are_refused(void) {
  for (int which = 0; which < 4; which++) {
    fixture f = begin();
    uint32_t arr = spvgen_buffer_array(f.m, &f.in);
    uint32_t in = spvgen_coopvec_load(f.m, f.V, arr, 0, NULL);
    uint32_t R = spvgen_type_coopvec(f.m, f.f16, 16); /* M 16, K 32: a row is 64 bytes */
    spvgen_coopvec_matmul_desc d = {.result_type = R, .input = in, .matrix = arr};
    const char *expected = NULL;
    switch (which) {
    case 0:
      d.matrix_stride = 32;
      expected = "spvgen_coopvec_matmul: matrix stride 32 bytes is smaller than a row of 64 bytes";
      break;
    case 1:
      d.matrix_stride_id = spvgen_const_u32(f.m, 48);
      expected = "spvgen_coopvec_matmul: matrix stride 48 bytes is smaller than a row of 64 bytes";
      break;
    case 2: /* column-major: a column holds M = 16 float16 = 32 bytes */
      d.layout = SpvCooperativeVectorMatrixLayoutColumnMajorNV;
      d.matrix_stride = 16;
      expected = "spvgen_coopvec_matmul: matrix stride 16 bytes is smaller than a column of 32 bytes";
      break;
    case 3: {
      spvgen_coopvec_outer_product_desc o = {.pointer = spvgen_buffer_array(f.m, &f.out),
                                             .a = in, .b = in, .matrix_stride = 48};
      spvgen_coopvec_outer_product_accumulate(f.m, &o);
      expected = "spvgen_coopvec_outer_product_accumulate: matrix stride 48 bytes is smaller than "
                 "a row of 64 bytes";
      break;
    }
    }
    if (which < 3) spvgen_coopvec_matmul(f.m, &d);
    check_module_error(f.m, SPVGEN_ERROR_INVALID_ARGUMENT, expected);
    spvgen_module_destroy(f.m);
  }
  /* Exactly a row, or more, is fine. */
  fixture f = begin();
  uint32_t arr = spvgen_buffer_array(f.m, &f.in);
  uint32_t in = spvgen_coopvec_load(f.m, f.V, arr, 0, NULL);
  uint32_t R = spvgen_type_coopvec(f.m, f.f16, 16);
  spvgen_coopvec_matmul_desc d = {.result_type = R, .input = in, .matrix = arr, .matrix_stride = 64};
  CHECK(spvgen_coopvec_matmul(f.m, &d) != 0);
  d.matrix_stride = 128;
  CHECK(spvgen_coopvec_matmul(f.m, &d) != 0);
  spvgen_function_end(f.m);
  check_module(f.m, NULL);
  spvgen_module_destroy(f.m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_a_literal_stride_is_the_number_it_says),
      TEST_CASE(test_stride_ids_must_be_integer_values),
      TEST_CASE(test_coop_splat_float_rounds_like_const_float),
      TEST_CASE(test_every_store_helper_refuses_a_read_only_buffer),
      TEST_CASE(test_coopvec_strides_smaller_than_a_row_are_refused),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
