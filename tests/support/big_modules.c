/* tests/support/big_modules.c — see big_modules.h. */
#include "big_modules.h"

#include <stdlib.h>
#include <time.h>

void build_struct_block(spvgen_module *m, uint32_t n, bool distinct) {
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t *members = malloc(n * sizeof *members), *inner = malloc(n * sizeof *inner);
  if (!members || !inner) {
    spvgen_module_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "build_struct_block: out of memory");
  } else {
    for (uint32_t i = 0; i < n; i++) members[i] = u32;
    for (uint32_t s = 0; s < n; s++) {
      if (s && !distinct) {
        inner[s] = inner[0];
        continue;
      }
      inner[s] = spvgen_type_struct(m, members, n);
      for (uint32_t i = 0; i < n; i++)
        spvgen_member_decorate1(m, inner[s], i, SpvDecorationOffset, 4 * i);
    }
    uint32_t block = spvgen_type_struct(m, inner, n);
    spvgen_decorate(m, block, SpvDecorationBlock);
    for (uint32_t s = 0; s < n; s++)
      spvgen_member_decorate1(m, block, s, SpvDecorationOffset, 4 * n * s);
    uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, block);
    uint32_t var = spvgen_variable(m, ptr, SpvStorageClassStorageBuffer, 0);
    spvgen_decorate1(m, var, SpvDecorationDescriptorSet, 0);
    spvgen_decorate1(m, var, SpvDecorationBinding, 0);
    spvgen_compute_main(m, "main", 1, 1, 1);
    spvgen_function_end(m);
  }
  free(members);
  free(inner);
}

double test_seconds(void) {
  struct timespec t;
  if (timespec_get(&t, TIME_UTC) != TIME_UTC) return 0;
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
