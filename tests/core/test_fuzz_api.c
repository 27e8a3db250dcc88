/* tests/core/test_fuzz_api.c — randomized robustness of the builder API (spvgen/builder.h
 * and the generated emitters of spvgen/ops.h), without a fuzzer dependency.
 *
 * Sequences of 40-200 calls, each from its own seed, of two kinds:
 *  - valid sequences: a structured generator that makes only the choices the API
 *    documents as valid (types, constants, spec constants, variables, storage buffers,
 *    builtins, decorations, names, entry points, functions and calls, blocks, if/else,
 *    loops, break/continue/return, loads, stores, access chains, atomics, arithmetic,
 *    OpPhi at merges), on every SPIR-V version and both memory models. Every call must
 *    succeed and the finished module must pass spvgen_validate (Vulkan 1.3): an invalid
 *    module here is a builder bug. The same calls on a module that was used and reset
 *    before must give the same words (reset keeps nothing of the old module).
 *  - anything-goes sequences: random calls with random arguments (ids mostly from the
 *    ones the module returned or near its bound, sometimes 0, reserved or huge; raw
 *    opcodes and operand words; NULL arrays with counts; forward-declared ids defined in
 *    terms of themselves), often after a valid prefix so that they start deep inside a
 *    function; finish and reset in the middle; calls after finish; calls on a NULL
 *    module. Only the error contract is checked: no crash (the asan preset runs this
 *    binary too), the first error's status and message ("spvgen_<call>: ...") stick,
 *    a call made after an error returns 0 and allocates no id, finish returns the sticky
 *    status, queries change nothing, finished words stay valid until reset.
 *
 * Environment:
 *   SPVGEN_TEST_SEED=N         base seed (module_check.h); each sequence's seed is derived
 *                              from it, the test's name and the sequence's number.
 *   SPVGEN_FUZZ_ITERATIONS=N   sequences per test (default: 1500 valid, 450 reset, 6000
 *                              anything-goes, 1500 after-finish; a third of that under a
 *                              sanitizer, where the validator's allocations are slow).
 *   SPVGEN_FUZZ_SEQUENCE=S     run only the sequence with seed S (as a failure prints it).
 *   SPVGEN_FUZZ_TRACE=1        print the calls of every sequence that is run.
 * A failure (or a crash) prints the sequence's seed and its calls so far as C: `m` is the
 * module, the numbers are the ids the calls returned (the builder is deterministic, so
 * the calls replay as they are).
 *
 * The machinery (shared with tests/coop/test_coop_fuzz.c and the libFuzzer target
 * tests/fuzz/fuzz_builder.c: random streams, trace, crash reports, the contract checker, the
 * builder's generators) lives in tests/support/fuzz_api.h. */
#define _XOPEN_SOURCE 700

#include "fuzz_api.h"

static void test_valid_sequences_build_modules_that_validate(void) {
  for_each_sequence("valid", 1500, valid_body);
}

/* The same valid calls on a module that was used (and failed, and finished) before and
 * then reset give the same words as on a new module. */
static void reset_body(fz *z) {
  spvgen_module_desc d = valid_desc(&z->r);
  uint32_t steps = 40 + below(&z->r, 121);
  uint64_t gen_seed = rng_next(&z->r), chaos_seed = rng_next(&z->r);
  /* the reference: a new module */
  g_trace_enabled = false;
  spvgen_module *fresh = spvgen_module_create(&d);
  z->m = fresh;
  z->r.s = gen_seed;
  vg_run(z, &d, steps, true);
  const uint32_t *w1 = NULL;
  size_t n1 = 0;
  bool ok1 = spvgen_module_finish(fresh, &w1, &n1) == SPVGEN_OK;
  g_trace_enabled = true;
  /* the same on a used module */
  trace("spvgen_module *m = spvgen_module_create(NULL); /* then random calls: */");
  z->m = spvgen_module_create(NULL);
  z->errored = z->finished = false;
  z->r.s = chaos_seed;
  uint32_t junk = 20 + below(&z->r, 100);
  for (uint32_t i = 0; i < junk && !z->stop; i++) {
    if (chance(&z->r, 50)) {
      vg_run(z, &d, 1, false);
    } else {
      chaos_step(z);
    }
  }
  fz_reset(z, &d);
  z->r.s = gen_seed;
  vg_run(z, &d, steps, true);
  const uint32_t *w2 = NULL;
  size_t n2 = 0;
  if (!z->stop && ok1 && fz_finish(z, &w2, &n2)) {
    size_t first = 0;
    while (first < n1 && first < n2 && w1[first] == w2[first]) first++;
    FZ_CHECK(z, n1 == n2 && first == n1,
             "after reset the same calls gave other words (%zu vs %zu words, first difference "
             "at word %zu: 0x%08x vs 0x%08x)",
             n1, n2, first, first < n1 ? w1[first] : 0, first < n2 ? w2[first] : 0);
  }
  spvgen_module_destroy(fresh);
  spvgen_module_destroy(z->m);
  z->m = NULL;
}

static void test_reset_modules_build_the_same_words_as_new_ones(void) {
  for_each_sequence("reset", 450, reset_body);
}


static void test_random_calls_never_crash_and_keep_the_first_error(void) {
  for_each_sequence("anything-goes", 6000, chaos_body);
}

/* After a successful finish every emitting call is an INVALID_STATE error naming the
 * finished module, and the words stay as they were. */
static void after_finish_body(fz *z) {
  spvgen_module_desc d = valid_desc(&z->r);
  trace_create(&d);
  z->m = spvgen_module_create(&d);
  vg_run(z, &d, 10 + below(&z->r, 60), true);
  if (!z->stop && fz_finish(z, NULL, NULL)) {
    uint32_t calls = 1 + below(&z->r, 5);
    for (uint32_t i = 0; i < calls && !z->stop; i++) {
      uint32_t before = spvgen_module_bound(z->m);
      if (chance(&z->r, 50))
        vg_run(z, &d, 1, false);
      else
        chaos_step(z);
      if (!z->finished) break; /* a reset */
      FZ_CHECK(z, spvgen_module_bound(z->m) == before, "a call after finish allocated ids");
    }
  }
  spvgen_module_destroy(z->m);
  z->m = NULL;
}

static void test_calls_after_finish_are_invalid_state_errors(void) {
  for_each_sequence("after-finish", 1500, after_finish_body);
}

static void test_a_null_module_is_harmless_everywhere(void) {
  fz z;
  begin_sequence(&z, 0, "null-module");
  install_crash_report();
  for (uint32_t k = 0; k < NULL_CALLS; k++) null_call(&z, k);
}

/* ====================================================== regressions found ==== */
/* Minimal reproductions of what the sequences above found, each named after the rule
 * it breaks. */

/* A type may be declared through a reserved id (forward declarations), so raw emission
 * can declare an array of itself. Nothing may follow such a cycle without end: the
 * queries, the helpers and the messages that describe types. (Found by the
 * anything-goes sequences: a stack overflow in spvgen_type_size.) */
static void test_a_type_declared_in_terms_of_itself_does_not_hang_or_crash(void) {
  install_crash_report();
  trace_reset();
  snprintf(g_crash_note, sizeof g_crash_note, "%s", test_current_name);
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t len = spvgen_const_u32(m, 4);
  uint32_t r = spvgen_reserve_id(m);
  trace("spvgen_emit(m, SpvOpTypeArray, (const uint32_t[]){%u, %u, %u}, 3); /* an array of itself */", r, r, len);
  spvgen_emit(m, SpvOpTypeArray, (const uint32_t[]){r, r, len}, 3);
  if (spvgen_module_status(m) == SPVGEN_OK) {
    /* Accepted: then everything that looks at the type must terminate. */
    trace("spvgen_type_size(m, %u);", r);
    (void)spvgen_type_size(m, r);
    trace("spvgen_storage_buffer(m, %u, 0, 0, false, NULL);", r);
    (void)spvgen_storage_buffer(m, r, 0, 0, false, NULL);
    const uint32_t *w = NULL;
    size_t n = 0;
    CHECK_MSG(spvgen_module_finish(m, &w, &n) != SPVGEN_OK,
              "a module whose type %u contains itself finished without an error", r);
  } else {
    CHECK_CONTAINS(spvgen_module_error(m), "spvgen_emit: ");
  }
  spvgen_module_destroy(m);
}

/* spvgen_storage_buffer's ArrayStride is the element's size; Vulkan's storage buffer
 * layout (relaxed std430, the validator's default for Vulkan 1.1+) needs it to be a
 * multiple of the element's alignment, which for 3-component vectors is 4 components.
 * (Found by the valid sequences.) */
static void test_a_storage_buffer_of_3_component_vectors_validates(void) {
  static const struct {
    bool is_float;
    uint32_t width;
  } comps[] = {{true, 32}, {true, 16}, {true, 64}, {false, 32}, {false, 8}};
  for (size_t i = 0; i < sizeof comps / sizeof comps[0]; i++) {
    spvgen_module *m = spvgen_module_create(NULL);
    uint32_t c = comps[i].is_float ? spvgen_type_float(m, comps[i].width) : spvgen_type_int(m, comps[i].width, false);
    uint32_t v3 = spvgen_type_vector(m, c, 3), ep = 0;
    uint32_t buf = spvgen_storage_buffer(m, v3, 0, 0, false, &ep);
    spvgen_compute_main(m, "main", 1, 1, 1);
    uint32_t idx[2] = {spvgen_const_u32(m, 0), spvgen_const_u32(m, 1)};
    uint32_t p = spvgen_access_chain(m, ep, buf, idx, 2);
    spvgen_store(m, p, spvgen_load(m, v3, p));
    spvgen_function_end(m);
    check_module(m, NULL);
    spvgen_module_destroy(m);
  }
}

/* An element that is an array declared with spvgen_type_array_strided occupies stride x
 * length bytes; the buffer's ArrayStride must cover that. (Found by the valid
 * sequences.) */
static void test_a_storage_buffer_of_padded_arrays_validates(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t arr = spvgen_type_array_strided(m, u32, 3, 16); /* 3 x 16 bytes */
  uint32_t ep = 0;
  uint32_t buf = spvgen_storage_buffer(m, arr, 0, 0, false, &ep);
  spvgen_compute_main(m, "main", 1, 1, 1);
  uint32_t idx[3] = {spvgen_const_u32(m, 0), spvgen_const_u32(m, 1), spvgen_const_u32(m, 2)};
  uint32_t pu = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, u32);
  uint32_t p = spvgen_access_chain(m, pu, buf, idx, 3);
  spvgen_store(m, p, spvgen_const_u32(m, 7));
  spvgen_function_end(m);
  (void)ep;
  check_module(m, NULL);
  spvgen_module_destroy(m);
}

/* "every later call does nothing and returns 0" (builder.h): spvgen_glsl_std_450 too,
 * once the import exists. (Found by the anything-goes sequences.) */
static void test_glsl_std_450_returns_0_once_the_module_failed(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  CHECK(spvgen_glsl_std_450(m) != 0);
  CHECK_EQ_U64(spvgen_type_vector(m, 12345, 4), 0); /* not a type: the module fails */
  CHECK(spvgen_module_status(m) != SPVGEN_OK);
  CHECK_EQ_U64(spvgen_glsl_std_450(m), 0);
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  /* The sequences with random calls come after the others, and the cycle regression
   * last: a crash ends the binary, and should hide as little as possible. */
  static const test_case tests[] = {
      TEST_CASE(test_valid_sequences_build_modules_that_validate),
      TEST_CASE(test_a_null_module_is_harmless_everywhere),
      TEST_CASE(test_a_storage_buffer_of_3_component_vectors_validates),
      TEST_CASE(test_a_storage_buffer_of_padded_arrays_validates),
      TEST_CASE(test_glsl_std_450_returns_0_once_the_module_failed),
      TEST_CASE(test_calls_after_finish_are_invalid_state_errors),
      TEST_CASE(test_reset_modules_build_the_same_words_as_new_ones),
      TEST_CASE(test_random_calls_never_crash_and_keep_the_first_error),
      TEST_CASE(test_a_type_declared_in_terms_of_itself_does_not_hang_or_crash),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
