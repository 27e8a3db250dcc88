/* tests/core/test_write_path.c — one write path (the probe of 2026-11-26,
 * shared/repro/2026-11-26/readonly_bypass.c): every instruction that writes memory is
 * refused when its pointer leads to a read-only buffer, whichever emitter made it
 * (hand-written, generated, raw), however many copies, bitcasts, selects or phis lie in
 * between, and through function parameters a call binds to the read-only buffer. Ids and
 * literals cannot be mistaken: spvgen_type_array takes a count (the _id form checks its
 * id), and a Scope or MemorySemantics operand must be an integer constant's id, named
 * when it is not. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/spvgen.h"

/* A compute kernel with a read-only buffer `in` (binding 0) and a writable `out`
 * (binding 1) of element type elem; p_in / p_out point at element gid of each. */
typedef struct kernel {
  spvgen_module *m;
  uint32_t f32, u32, elem, idx, p_in, p_out;
  spvgen_buffer in, out;
} kernel;

static kernel begin(bool u32_elements) {
  kernel k;
  k.m = spvgen_module_create(NULL);
  k.f32 = spvgen_type_float(k.m, 32);
  k.u32 = spvgen_type_int(k.m, 32, false);
  k.elem = u32_elements ? k.u32 : k.f32;
  k.in = spvgen_buffer_declare(k.m, k.elem, 0, 0, SPVGEN_BUFFER_READONLY);
  k.out = spvgen_buffer_declare(k.m, k.elem, 0, 1, 0);
  uint32_t v3 = spvgen_type_vector(k.m, k.u32, 3);
  uint32_t gid = spvgen_builtin_input(k.m, SpvBuiltInGlobalInvocationId, v3);
  spvgen_compute_main(k.m, "main", 64, 1, 1);
  uint32_t lane = 0;
  k.idx = spvgen_op_composite_extract(k.m, k.u32, spvgen_load(k.m, v3, gid), &lane, 1);
  k.p_in = spvgen_buffer_element(k.m, &k.in, k.idx);
  k.p_out = spvgen_buffer_element(k.m, &k.out, k.idx);
  return k;
}

static uint32_t one(kernel *k) { return k->elem == k->u32 ? spvgen_const_u32(k->m, 1) : spvgen_const_f32(k->m, 1); }

/* The store was refused: the module's error names the call, the read-only variable and
 * its binding. */
static void expect_refused(kernel *k, const char *call) {
  char want[160];
  snprintf(want, sizeof want, "%s: the pointer (id ", call);
  check_module_error(k->m, SPVGEN_ERROR_INVALID_ARGUMENT, want);
  check_module_error(k->m, SPVGEN_ERROR_INVALID_ARGUMENT, "(set 0, binding 0), whose member 0 is NonWritable");
  spvgen_module_destroy(k->m);
}

/* The same write into the writable buffer finishes and validates. */
static void expect_valid(kernel *k) {
  spvgen_function_end(k->m);
  size_t n = 0;
  const uint32_t *w = check_module_at(__FILE__, __LINE__, k->m, &n);
  if (w) check_words(w, n);
  spvgen_module_destroy(k->m);
}

typedef void (*writer)(kernel *k, uint32_t pointer);

static void w_store(kernel *k, uint32_t p) { spvgen_store(k->m, p, one(k)); }
static void w_op_store(kernel *k, uint32_t p) { spvgen_op_store(k->m, p, one(k), 0, NULL, 0); }
static void w_copy_memory(kernel *k, uint32_t p) {
  spvgen_op_copy_memory(k->m, p, k->p_out == p ? k->p_in : k->p_out, 0, NULL, 0, 0, NULL, 0);
}
static void w_atomic_add(kernel *k, uint32_t p) {
  spvgen_op_atomic_i_add(k->m, k->u32, p, spvgen_const_u32(k->m, SpvScopeDevice), spvgen_const_u32(k->m, 0),
                         spvgen_const_u32(k->m, 1));
}
static void w_atomic_store(kernel *k, uint32_t p) {
  spvgen_op_atomic_store(k->m, p, spvgen_const_u32(k->m, SpvScopeDevice), spvgen_const_u32(k->m, 0),
                         spvgen_const_u32(k->m, 1));
}
static void w_atomic_exchange(kernel *k, uint32_t p) {
  spvgen_op_atomic_exchange(k->m, k->u32, p, spvgen_const_u32(k->m, SpvScopeDevice), spvgen_const_u32(k->m, 0),
                            spvgen_const_u32(k->m, 1));
}
static void w_raw(kernel *k, uint32_t p) {
  uint32_t ops[2] = {p, one(k)};
  spvgen_emit(k->m, SpvOpStore, ops, 2);
}

/* Each way of writing, straight into the read-only buffer and into the writable one. */
static void test_every_write_instruction_is_refused_on_a_read_only_buffer(void) {
  static const struct {
    const char *call;
    writer fn;
    bool u32;
  } cases[] = {
      {"spvgen_store", w_store, false},
      {"spvgen_op_store", w_op_store, false},
      {"spvgen_op_copy_memory", w_copy_memory, false},
      {"spvgen_op_atomic_i_add", w_atomic_add, true},
      {"spvgen_op_atomic_store", w_atomic_store, true},
      {"spvgen_op_atomic_exchange", w_atomic_exchange, true},
      {"spvgen_emit", w_raw, false},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    kernel k = begin(cases[c].u32);
    cases[c].fn(&k, k.p_in);
    expect_refused(&k, cases[c].call);
    k = begin(cases[c].u32);
    cases[c].fn(&k, k.p_out);
    expect_valid(&k);
  }
}

/* 300 OpCopyObject (the probe's hop limit was 256), then a bitcast: still followed. */
static void test_long_chains_of_copies_are_followed_without_a_limit(void) {
  for (int target = 0; target < 2; target++) {
    kernel k = begin(false);
    uint32_t pt = spvgen_type_pointer(k.m, SpvStorageClassStorageBuffer, k.f32);
    uint32_t p = target ? k.p_out : k.p_in;
    for (int i = 0; i < 300; i++) p = spvgen_op_copy_object(k.m, pt, p);
    p = spvgen_op_bitcast(k.m, pt, p);
    for (int i = 0; i < 1000; i++) p = spvgen_op_copy_object(k.m, pt, p);
    spvgen_store(k.m, p, one(&k));
    if (target) {
      spvgen_function_end(k.m);
      CHECK_EQ_U64(spvgen_module_status(k.m), SPVGEN_OK);
      spvgen_module_destroy(k.m);
    } else {
      expect_refused(&k, "spvgen_store");
    }
  }
}

/* A pointer that may be either buffer (OpSelect, OpPhi) is refused when either is
 * read-only. */
static void test_selects_and_phis_are_followed_on_every_side(void) {
  kernel k = begin(false);
  uint32_t pt = spvgen_type_pointer(k.m, SpvStorageClassStorageBuffer, k.f32);
  uint32_t cond = spvgen_op_u_less_than(k.m, spvgen_type_bool(k.m), k.idx, spvgen_const_u32(k.m, 8));
  uint32_t s = spvgen_op_select(k.m, pt, cond, k.p_out, k.p_in);
  spvgen_op_store(k.m, s, one(&k), 0, NULL, 0);
  expect_refused(&k, "spvgen_op_store");

  k = begin(false);
  pt = spvgen_type_pointer(k.m, SpvStorageClassStorageBuffer, k.f32);
  uint32_t entry = spvgen_label(k.m); /* the current block was opened by compute_main */
  (void)entry;
  uint32_t a = spvgen_op_copy_object(k.m, pt, k.p_out);
  uint32_t b = spvgen_op_copy_object(k.m, pt, k.p_in);
  uint32_t pairs[4] = {a, 1, b, 1}; /* the parents need not be real here: the builder
                                       follows the values, the validator checks the rest */
  uint32_t phi = spvgen_op_phi(k.m, pt, pairs, 4);
  if (phi) spvgen_op_store(k.m, phi, one(&k), 0, NULL, 0);
  check_module_error(k.m, SPVGEN_ERROR_INVALID_ARGUMENT, NULL);
  spvgen_module_destroy(k.m);
}

/* A function that writes through its pointer parameter (a buffer block, as SPIR-V lets a
 * call pass only memory object declarations without variable pointers), called with the
 * read-only buffer: refused at finish, naming the function and the parameter; also when
 * the call comes before the function is defined, and through a second function that
 * only passes its parameter on. With the writable buffer, valid. */
static void test_a_write_through_a_parameter_bound_to_a_read_only_buffer_is_refused(void) {
  for (int shape = 0; shape < 3; shape++) {
    for (int target = 0; target < 2; target++) {
      spvgen_module *m = spvgen_module_create(NULL);
      /* A StorageBuffer pointer passed to a function needs variable pointers (Vulkan). */
      spvgen_capability(m, SpvCapabilityVariablePointersStorageBuffer);
      uint32_t f32 = spvgen_type_float(m, 32), vd = spvgen_type_void(m);
      spvgen_buffer in = spvgen_buffer_declare(m, f32, 0, 0, SPVGEN_BUFFER_READONLY);
      spvgen_buffer out = spvgen_buffer_declare(m, f32, 0, 1, 0);
      /* Both blocks are one type per buffer: a parameter of each buffer's own type. */
      const spvgen_buffer *b = target ? &out : &in;
      uint32_t pt = spvgen_type_of(m, b->variable), param;
      uint32_t writer_id = spvgen_reserve_id(m), passer_id = spvgen_reserve_id(m);
      uint32_t zero = spvgen_const_u32(m, 0), idx[2] = {zero, zero};
      for (int part = 0; part < 4; part++) {
        if ((part == 0 && shape != 1) || (part == 3 && shape == 1)) { /* the writer */
          spvgen_function_begin_id(m, writer_id, vd, SpvFunctionControlMaskNone, &pt, 1, &param);
          spvgen_store(m, spvgen_access(m, param, idx, 2), spvgen_const_f32(m, 2));
          spvgen_function_end(m);
        } else if (part == 1) { /* the passer: forwards its parameter, or does nothing */
          spvgen_function_begin_id(m, passer_id, vd, SpvFunctionControlMaskNone, &pt, 1, &param);
          if (shape == 2) spvgen_op_function_call(m, vd, writer_id, &param, 1);
          spvgen_function_end(m);
        } else if (part == 2) {
          spvgen_compute_main(m, "main", 64, 1, 1);
          spvgen_op_function_call(m, vd, shape == 2 ? passer_id : writer_id, &b->variable, 1);
          spvgen_function_end(m);
        }
      }
      if (target) {
        size_t n = 0;
        const uint32_t *w = check_module_at(__FILE__, __LINE__, m, &n);
        if (w) check_words(w, n);
      } else {
        CHECK_EQ_U64(spvgen_module_finish(m, NULL, NULL), SPVGEN_ERROR_INVALID_ARGUMENT);
        char want[160];
        snprintf(want, sizeof want, "passed to function %u as its parameter 0, which it writes through,",
                 shape == 2 ? passer_id : writer_id);
        check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_module_finish: the pointer (id ");
        check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, want);
        check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "(set 0, binding 0), whose member 0 is NonWritable");
      }
      spvgen_module_destroy(m);
    }
  }
}

/* A NonWritable decoration added after the store (on the variable): the store is
 * refused when the module is finished. */
static void test_a_read_only_decoration_after_the_store_is_caught_at_finish(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  spvgen_buffer b = spvgen_buffer_declare(m, f32, 0, 0, 0);
  spvgen_compute_main(m, "main", 64, 1, 1);
  spvgen_store(m, spvgen_buffer_element(m, &b, spvgen_const_u32(m, 0)), spvgen_const_f32(m, 1));
  spvgen_function_end(m);
  spvgen_decorate(m, b.variable, SpvDecorationNonWritable);
  CHECK_EQ_U64(spvgen_module_finish(m, NULL, NULL), SPVGEN_ERROR_INVALID_ARGUMENT);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_module_finish: the pointer (id ");
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "whose variable is NonWritable");
  spvgen_module_destroy(m);
}

/* ------------------------------------------------------------ ids vs literals ---- */

/* The probe: spvgen_type_array(m, u32, 16) meant 16 elements, and when id 16 happened to
 * be the constant 114 it built array[114]. It takes the count now; _id takes an id and
 * refuses anything but an integer constant's. */
static void test_an_array_count_is_a_count_and_an_id_is_checked(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t c[20];
  for (int i = 0; i < 20; i++) c[i] = spvgen_const_u32(m, 100 + (uint32_t)i);
  CHECK(c[19] > 16);
  uint32_t arr = spvgen_type_array(m, u32, 16);
  char name[64];
  CHECK_STR_EQ(spvgen_type_name(m, arr, name, sizeof name), "array[16] uint32");
  CHECK_EQ_U64(spvgen_type_array_id(m, u32, spvgen_const_u32(m, 16)), arr);
  uint32_t a114 = spvgen_type_array_id(m, u32, 16); /* id 16: a constant, 100 + something */
  CHECK(a114 != 0 && a114 != arr);
  CHECK_EQ_U64(spvgen_type_array(m, u32, 0), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_type_array: count 0");
  spvgen_module_destroy(m);
  m = spvgen_module_create(NULL);
  u32 = spvgen_type_int(m, 32, false);
  CHECK_EQ_U64(spvgen_type_array_strided_id(m, u32, u32, 4), 0);
  check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "spvgen_type_array_strided_id: length_id 1 is not the id of an integer constant");
  spvgen_module_destroy(m);
}

/* Issue 26: spvgen_op_group_non_uniform_f_add(m, t, SpvScopeSubgroup, ...) passed the
 * enum value 3 where the id of a constant belongs, and a constant 77 went through to the
 * validator. Scope and MemorySemantics operands must be integer constants of a valid
 * value, in every path: generated emitters, raw instructions, memory operands. */
static void test_scope_and_semantics_operands_must_be_integer_constants(void) {
  static const struct {
    int how;
    const char *want;
  } cases[] = {
      {0, "operand 'Execution' (a Scope) is id 3, a type: it must be an integer constant"},
      {1, "operand 'Execution' (a Scope) is id %u, the constant 77, which is not a Scope value"},
      {2, "operand 'Semantics' (a MemorySemantics) is id %u, a value computed at run time"},
      {3, "operand 'Memory' (a Scope) is id %u, a constant of a non-integer type"},
      {4, "operand 'Semantics' (a MemorySemantics) is id %u, the constant 1073741824"},
      {5, "(a Scope) is id %u, a spec constant"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    spvgen_module *m = spvgen_module_create(NULL);
    spvgen_type_void(m);
    uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
    CHECK_EQ_U64(u32, 3); /* the id the enum value SpvScopeSubgroup names by accident */
    spvgen_compute_main(m, "main", 64, 1, 1);
    uint32_t x = spvgen_const_f32(m, 1), sub = spvgen_const_u32(m, SpvScopeSubgroup), bad = 0;
    uint32_t zero = spvgen_const_u32(m, 0);
    switch (cases[c].how) {
      case 0: spvgen_op_group_non_uniform_f_add(m, f32, SpvScopeSubgroup, SpvGroupOperationReduce, x, 0); break;
      case 1:
        bad = spvgen_const_u32(m, 77);
        spvgen_op_group_non_uniform_f_add(m, f32, bad, SpvGroupOperationReduce, x, 0);
        break;
      case 2:
        bad = spvgen_op_i_add(m, u32, zero, zero);
        spvgen_op_memory_barrier(m, sub, bad);
        break;
      case 3:
        bad = x;
        spvgen_op_control_barrier(m, sub, bad, zero);
        break;
      case 4:
        bad = spvgen_const_u32(m, 1u << 30);
        spvgen_op_memory_barrier(m, sub, bad);
        break;
      case 5: {
        bad = spvgen_spec_const_u32(m, SpvScopeSubgroup, 7);
        uint32_t ops[3] = {bad, sub, zero};
        spvgen_emit(m, SpvOpControlBarrier, ops, 3);
        break;
      }
    }
    char want[256];
    snprintf(want, sizeof want, cases[c].want, bad);
    check_module_error(m, SPVGEN_ERROR_INVALID_ARGUMENT, want);
    spvgen_module_destroy(m);
  }
  /* The right way validates. */
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32);
  spvgen_compute_main(m, "main", 64, 1, 1);
  spvgen_op_group_non_uniform_f_add(m, f32, spvgen_const_u32(m, SpvScopeSubgroup), SpvGroupOperationReduce,
                                    spvgen_const_f32(m, 1), 0);
  spvgen_op_control_barrier(m, spvgen_const_u32(m, SpvScopeWorkgroup), spvgen_const_u32(m, SpvScopeWorkgroup),
                            spvgen_const_u32(m, SpvMemorySemanticsAcquireReleaseMask |
                                                    SpvMemorySemanticsWorkgroupMemoryMask));
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module_at(__FILE__, __LINE__, m, &n);
  if (w) check_words(w, n);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_every_write_instruction_is_refused_on_a_read_only_buffer),
      TEST_CASE(test_long_chains_of_copies_are_followed_without_a_limit),
      TEST_CASE(test_selects_and_phis_are_followed_on_every_side),
      TEST_CASE(test_a_write_through_a_parameter_bound_to_a_read_only_buffer_is_refused),
      TEST_CASE(test_a_read_only_decoration_after_the_store_is_caught_at_finish),
      TEST_CASE(test_an_array_count_is_a_count_and_an_id_is_checked),
      TEST_CASE(test_scope_and_semantics_operands_must_be_integer_constants),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
