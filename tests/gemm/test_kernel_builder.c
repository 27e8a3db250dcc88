/* tests/gemm/test_kernel_builder.c — the emitters' helper layer
 * (emitters/common/kernel_builder.h): what folds and what is emitted, counted loops,
 * guards, work-item ownership and typed access, each module validated. The kernels built
 * on it are checked end to end by the GEMM tests (SIMT on lavapipe). */
#include <string.h>

#include "harness.h"
#include "kernel_builder.h"
#include "module_check.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

typedef struct fixture {
  spvgen_module *m;
  uint32_t u32, buf, elem_ptr, x; /* x: a run-time u32 (buf[gid.x]) */
} fixture;

static fixture setup(void) {
  fixture f = {0};
  spvgen_module *m = f.m = spvgen_module_create(NULL);
  f.u32 = spvgen_type_int(m, 32, false);
  f.buf = spvgen_storage_buffer(m, f.u32, 0, 0, false, &f.elem_ptr);
  uint32_t v3 = spvgen_type_vector(m, f.u32, 3);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  spvgen_compute_main(m, "main", 64, 1, 1);
  uint32_t i = spvgen_op_composite_extract(m, f.u32, spvgen_load(m, v3, gid), (const uint32_t[]){0}, 1);
  f.x = spvgen_load(m, f.u32, ek_at2(m, f.buf, spvgen_const_u32(m, 0), i));
  return f;
}

/* buf[0] = v; ends main; validates; returns the disassembly (free with spvgen_free_text). */
static char *finish(fixture *f, uint32_t v) {
  spvgen_store(f->m, ek_at2(f->m, f->buf, spvgen_const_u32(f->m, 0), spvgen_const_u32(f->m, 0)), v);
  spvgen_function_end(f->m);
  size_t count = 0;
  const uint32_t *words = check_module(f->m, &count);
  char *text = words ? check_disassemble(words, count) : NULL;
  spvgen_module_destroy(f->m);
  return text;
}

static int count_lines_with(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

static void identities_return_the_operand_and_emit_nothing(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  CHECK_EQ_U64(ek_add_imm(m, f.x, 0), f.x);
  CHECK_EQ_U64(ek_mul_imm(m, f.x, 1), f.x);
  CHECK_EQ_U64(ek_div_imm(m, f.x, 1), f.x);
  CHECK_EQ_U64(ek_iadd(m, spvgen_const_u32(m, 0), f.x), f.x);
  CHECK_EQ_U64(ek_isub(m, f.x, spvgen_const_u32(m, 0)), f.x);
  CHECK_EQ_U64(ek_imul(m, spvgen_const_u32(m, 1), f.x), f.x);
  CHECK_EQ_U64(ek_umin(m, f.x, f.x), f.x);
  CHECK_EQ_U64(ek_mul_imm(m, f.x, 0), spvgen_const_u32(m, 0));
  CHECK_EQ_U64(ek_mod_imm(m, f.x, 1), spvgen_const_u32(m, 0));
  char *text = finish(&f, f.x);
  CHECK(text != NULL);
  CHECK_EQ_U64(count_lines_with(text, "OpIAdd"), 0);
  CHECK_EQ_U64(count_lines_with(text, "OpIMul"), 0);
  CHECK_EQ_U64(count_lines_with(text, "OpUDiv"), 0);
  CHECK_EQ_U64(count_lines_with(text, "OpUMod"), 0);
  CHECK_EQ_U64(count_lines_with(text, "UMin"), 0);
  spvgen_free_text(text);
}

static void an_immediate_that_folds_away_declares_no_constant(void) {
  fixture f = setup();
  CHECK_EQ_U64(ek_add_imm(f.m, f.x, 0), f.x);
  CHECK_EQ_U64(ek_mul_imm(f.m, f.x, 1), f.x);
  char *text = finish(&f, f.x);
  /* uint 0 exists (the access chains use it); uint 1 was never needed */
  CHECK(text && !strstr(text, "%uint_1 "));
  spvgen_free_text(text);
}

static void constants_fold_to_constants(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  uint32_t c6 = spvgen_const_u32(m, 6), c4 = spvgen_const_u32(m, 4);
  CHECK_EQ_U64(ek_iadd(m, c6, c4), spvgen_const_u32(m, 10));
  CHECK_EQ_U64(ek_isub(m, c4, c6), spvgen_const_u32(m, 0xFFFFFFFEu)); /* wraps like OpISub */
  CHECK_EQ_U64(ek_imul(m, c6, c4), spvgen_const_u32(m, 24));
  CHECK_EQ_U64(ek_udiv(m, c6, c4), spvgen_const_u32(m, 1));
  CHECK_EQ_U64(ek_umod(m, c6, c4), spvgen_const_u32(m, 2));
  CHECK_EQ_U64(ek_umin(m, c6, c4), c4);
  CHECK_EQ_U64(ek_ult(m, c4, c6), spvgen_const_bool(m, true));
  CHECK_EQ_U64(ek_ule(m, c6, c4), spvgen_const_bool(m, false));
  CHECK_EQ_U64(ek_add_imm(m, c6, 5), spvgen_const_u32(m, 11));
  CHECK_EQ_U64(ek_lt_imm(m, f.x, 0), spvgen_const_bool(m, false));
  uint32_t v = 0;
  CHECK(ek_const_int(m, c6, &v) && v == 6);
  CHECK(!ek_const_int(m, f.x, &v));
  CHECK(!ek_const_int(m, spvgen_const_f32(m, 6.0f), &v));
  char *text = finish(&f, f.x);
  CHECK_EQ_U64(count_lines_with(text, "OpIAdd"), 0);
  CHECK_EQ_U64(count_lines_with(text, "OpULessThan"), 0);
  spvgen_free_text(text);
}

static void division_by_a_constant_zero_is_left_to_the_instruction(void) {
  fixture f = setup();
  uint32_t r = ek_udiv(f.m, spvgen_const_u32(f.m, 6), spvgen_const_u32(f.m, 0));
  char *text = finish(&f, r);
  CHECK_EQ_U64(count_lines_with(text, "OpUDiv"), 1);
  spvgen_free_text(text);
}

static void run_time_operands_emit_the_instruction(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  uint32_t a = ek_add_imm(m, f.x, 3), b = ek_mul_imm(m, a, 5), c = ek_iadd(m, a, b);
  uint32_t d = ek_select(m, ek_lt_imm(m, c, 100), c, f.x);
  char *text = finish(&f, d);
  CHECK_EQ_U64(count_lines_with(text, "OpIAdd"), 2);
  CHECK_EQ_U64(count_lines_with(text, "OpIMul"), 1);
  CHECK_EQ_U64(count_lines_with(text, "OpULessThan"), 1);
  CHECK_EQ_U64(count_lines_with(text, "OpSelect"), 1);
  spvgen_free_text(text);
}

static void optional_conditions_combine(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  uint32_t c = ek_lt_imm(m, f.x, 9);
  CHECK_EQ_U64(ek_all(m, 0, 0), 0);
  CHECK_EQ_U64(ek_all(m, 0, c), c);
  CHECK_EQ_U64(ek_all(m, c, 0), c);
  CHECK_EQ_U64(ek_all(m, spvgen_const_bool(m, true), c), c);
  CHECK_EQ_U64(ek_below(m, false, f.x, spvgen_const_u32(m, 9)), 0);
  CHECK_EQ_U64(ek_select(m, 0, f.x, spvgen_const_u32(m, 0)), f.x);
  uint32_t both = ek_all(m, c, ek_lt_imm(m, f.x, 7));
  char *text = finish(&f, ek_select(m, both, f.x, spvgen_const_u32(m, 0)));
  CHECK_EQ_U64(count_lines_with(text, "OpLogicalAnd"), 1);
  spvgen_free_text(text);
}

static void a_counted_loop_keeps_its_counter(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  ek_for l;
  uint32_t i = ek_for_begin(m, &l, spvgen_const_u32(m, 0), f.x, spvgen_const_u32(m, 2), SpvLoopControlUnrollMask);
  spvgen_store(m, ek_at2(m, f.buf, spvgen_const_u32(m, 0), i), i);
  ek_for_end(m, &l);
  /* a run-time start is stored, a second loop resumes from the same variable */
  ek_for l2, l3;
  uint32_t j = ek_for_begin(m, &l2, f.x, spvgen_const_u32(m, 64), spvgen_const_u32(m, 1), SpvLoopControlMaskNone);
  ek_for_end(m, &l2);
  uint32_t k = ek_for_begin_var(m, &l3, l2.var, 0, 0, spvgen_const_u32(m, 4), SpvLoopControlMaskNone);
  spvgen_loop_while(m, ek_lt_imm(m, k, 128));
  ek_for_end(m, &l3);
  (void)j;
  char *text = finish(&f, f.x);
  CHECK_EQ_U64(count_lines_with(text, "OpLoopMerge"), 3);
  CHECK_EQ_U64(count_lines_with(text, "Unroll"), 1);
  spvgen_free_text(text);
}

/* A constant-start loop inside another restarts on every round of the outer one: its
 * counter is stored before it (an initializer runs once, at function entry; the split-K
 * reduction's slice loop inside its chunk-group loop summed nothing after the first
 * group on the H100). */
static void a_nested_loop_restarts_its_counter(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  ek_for outer, inner;
  uint32_t i = ek_for_begin(m, &outer, spvgen_const_u32(m, 0), f.x, spvgen_const_u32(m, 1), SpvLoopControlMaskNone);
  uint32_t j = ek_for_begin(m, &inner, spvgen_const_u32(m, 0), spvgen_const_u32(m, 4), spvgen_const_u32(m, 1),
                            SpvLoopControlMaskNone);
  spvgen_store(m, ek_at2(m, f.buf, spvgen_const_u32(m, 0), ek_iadd(m, ek_mul_imm(m, i, 4), j)), j);
  ek_for_end(m, &inner);
  ek_for_end(m, &outer);
  CHECK(outer.var != inner.var);
  char *text = finish(&f, f.x);
  /* the outer counter has its initializer; the inner one is stored 0 in the outer body,
   * and each is incremented: three stores to counters, one to the buffer in the body and
   * the fixture's own */
  CHECK_EQ_U64(count_lines_with(text, "OpLoopMerge"), 2);
  CHECK_EQ_U64(count_lines_with(text, "OpStore"), 5);
  spvgen_free_text(text);
}

static void a_guard_without_a_condition_emits_no_branch(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  ek_guard none = ek_guard_begin(m, 0);
  CHECK(!none.open);
  ek_guard_end(m, none);
  ek_guard g = ek_guard_begin(m, ek_lt_imm(m, f.x, 5));
  CHECK(g.open);
  spvgen_store(m, ek_at2(m, f.buf, spvgen_const_u32(m, 0), f.x), f.x);
  ek_guard_end(m, g);
  char *text = finish(&f, f.x);
  CHECK_EQ_U64(count_lines_with(text, "OpSelectionMerge"), 1);
  spvgen_free_text(text);
}

static void work_items_skip_or_redo_the_last(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  ek_own o;
  uint32_t it = ek_own_begin(m, &o, f.x, 3, false, false);
  CHECK_EQ_U64(it, f.x);
  CHECK_EQ_U64(o.ok, 0);
  ek_own_end(m, &o);
  it = ek_own_begin(m, &o, f.x, 3, true, false); /* skip: if (x < 3) */
  CHECK(o.g.open);
  CHECK_EQ_U64(o.ok, 0);
  ek_own_end(m, &o);
  it = ek_own_begin(m, &o, f.x, 3, true, true); /* uniform: min(x, 2), ok = x < 3 */
  CHECK(o.ok != 0 && it != f.x && !o.g.open);
  ek_own_end(m, &o);
  char *text = finish(&f, ek_select(m, o.ok, it, f.x));
  CHECK_EQ_U64(count_lines_with(text, "OpSelectionMerge"), 1);
  CHECK_EQ_U64(count_lines_with(text, "UMin"), 1);
  spvgen_free_text(text);
}

static void shared_arrays_are_typed_by_the_builder(void) {
  fixture f = setup();
  spvgen_module *m = f.m;
  ek_shared s = ek_shared_array(m, f.u32, 128, "tile");
  ek_shared_store(m, &s, ek_mod_imm(m, f.x, 128), f.x);
  spvgen_workgroup_barrier(m);
  uint32_t v = ek_shared_load(m, &s, ek_mod_imm(m, ek_add_imm(m, f.x, 1), 128));
  char *text = finish(&f, v);
  CHECK(text && strstr(text, "%tile = OpVariable"));
  CHECK(text && strstr(text, "Workgroup"));
  spvgen_free_text(text);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(identities_return_the_operand_and_emit_nothing),
      TEST_CASE(an_immediate_that_folds_away_declares_no_constant),
      TEST_CASE(constants_fold_to_constants),
      TEST_CASE(division_by_a_constant_zero_is_left_to_the_instruction),
      TEST_CASE(run_time_operands_emit_the_instruction),
      TEST_CASE(optional_conditions_combine),
      TEST_CASE(a_counted_loop_keeps_its_counter),
      TEST_CASE(a_nested_loop_restarts_its_counter),
      TEST_CASE(a_guard_without_a_condition_emits_no_branch),
      TEST_CASE(work_items_skip_or_redo_the_last),
      TEST_CASE(shared_arrays_are_typed_by_the_builder),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
