/* tests/install/consumer/consumer.c — a program built against an installed spvgen (by
 * tests/install/install_test.sh, through find_package and through pkg-config): builds a
 * small compute module with the builder and, unless CONSUMER_CORE_ONLY (the builder
 * alone: spvgen::core / spvgen-core.pc), validates it, emits a GEMM and asks the tuner for its cache key. Prints
 * "consumer ok <version>" on success; exit 1 otherwise. */
#include <stdio.h>
#include <string.h>

#include <spvgen/builder.h>
#include <spvgen/version.h>
#ifndef CONSUMER_CORE_ONLY
#include <spvgen/spvgen.h>
#endif

int main(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t elem_ptr, a = spvgen_storage_buffer(m, f32, 0, 0, false, &elem_ptr);
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  spvgen_compute_main(m, "main", 64, 1, 1);
  uint32_t lane = 0, i = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, gid), &lane, 1);
  uint32_t idx[2] = {spvgen_const_u32(m, 0), i};
  uint32_t p = spvgen_access_chain(m, elem_ptr, a, idx, 2);
  spvgen_store(m, p, spvgen_op_f_mul(m, f32, spvgen_load(m, f32, p), spvgen_const_f32(m, 2.0f)));
  spvgen_function_end(m);
  const uint32_t *words;
  size_t count;
  if (spvgen_module_finish(m, &words, &count) != SPVGEN_OK) {
    fprintf(stderr, "consumer: %s\n", spvgen_module_error(m));
    return 1;
  }
  if (strcmp(spvgen_version(), SPVGEN_VERSION_STRING)) {
    fprintf(stderr, "consumer: library %s, headers %s\n", spvgen_version(), SPVGEN_VERSION_STRING);
    return 1;
  }
#ifndef CONSUMER_CORE_ONLY
  char message[4096];
  if (spvgen_validate(words, count, NULL, message, sizeof message) != SPVGEN_OK) {
    fprintf(stderr, "consumer: invalid: %s\n", message);
    return 1;
  }
  spvgen_gemm_desc desc = {.m = 64, .n = 64, .k = 64};
  spvgen_kernel k;
  if (spvgen_gemm(&desc, NULL, &k, message, sizeof message) != SPVGEN_OK ||
      spvgen_validate(k.words, k.word_count, NULL, message, sizeof message) != SPVGEN_OK) {
    fprintf(stderr, "consumer: gemm: %s\n", message);
    return 1;
  }
  spvgen_kernel_free(&k);
  char key[SPVGEN_TUNE_KEY_SIZE];
  spvgen_gemm_config plan;
  if (spvgen_tune_gemm_key(&desc, NULL, key, sizeof key, message, sizeof message) != SPVGEN_OK ||
      spvgen_gemm_plan_cached(&desc, NULL, NULL, &plan, message, sizeof message) != SPVGEN_OK) {
    fprintf(stderr, "consumer: tune: %s\n", message);
    return 1;
  }
#endif
  spvgen_module_destroy(m);
  printf("consumer ok %s (%zu words)\n", spvgen_version(), count);
  return 0;
}
