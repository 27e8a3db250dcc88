/* tests/support/words.h — reading a module's words in tests: walking its instructions and
 * finding one by opcode and operand words. For checks that the disassembly cannot make
 * (bfloat16 / float8 modules, which SPIRV-Tools 2025.1 cannot decode, exact encodings).
 *
 * Every walk starts after the 5-word header and stops at the end of the words, at a zero
 * word count, or at an instruction that would run past the end. */
#ifndef SPVGEN_TEST_WORDS_H
#define SPVGEN_TEST_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The word count of the instruction at w[i]; 0 at the end or where it is malformed. */
uint32_t words_inst_len(const uint32_t *w, size_t n, size_t i);

/* for every instruction w + i of the module. */
#define WORDS_FOR_EACH(w, n, i) \
  for (size_t i = 5; words_inst_len((w), (n), i); i += words_inst_len((w), (n), i))

/* The first instruction with opcode whose operand words from `from` (0 = the first word
 * after the opcode word) equal expected[0..k); NULL when there is none or w is NULL. */
const uint32_t *words_find(const uint32_t *w, size_t n, uint32_t opcode, uint32_t from,
                           const uint32_t *expected, uint32_t k);
/* Whether some instruction has opcode. */
bool words_has(const uint32_t *w, size_t n, uint32_t opcode);
bool words_has_capability(const uint32_t *w, size_t n, uint32_t capability);
bool words_has_extension(const uint32_t *w, size_t n, const char *name);
/* How many OpCapability / OpExtension instructions declare it; -1 when w is NULL or the
 * words are malformed. */
int words_capability_count(const uint32_t *w, size_t n, uint32_t capability);
int words_extension_count(const uint32_t *w, size_t n, const char *name);
/* Whether some OpName names an id `name` exactly (the string's words, nul included). */
bool words_has_name(const uint32_t *w, size_t n, const char *name);
/* How many instructions have opcode (0 for NULL words). */
uint32_t words_count(const uint32_t *w, size_t n, uint32_t opcode);

/* What synchronizes invocations or workgroups in a module: OpControlBarrier,
 * OpMemoryBarrier, atomic instructions (OpAtomic*, core and float extensions), Workgroup
 * variables and pointer types, and the VulkanMemoryModelDeviceScope capability. */
typedef struct words_sync {
  uint32_t control_barriers, memory_barriers, atomics;
  uint32_t workgroup_variables, workgroup_pointers;
  bool device_scope_capability;
} words_sync;
/* Fills *s; false for NULL or malformed words. */
bool words_sync_summary(const uint32_t *w, size_t n, words_sync *s);

/* Memory accesses through PhysicalStorageBuffer pointers (results whose type is such a
 * pointer type): OpLoad, OpStore and the cooperative matrix and vector loads and stores.
 * Vulkan wants each to say its alignment (the Aligned memory operand); the cooperative
 * ones here must say 16 at least. */
typedef struct words_psb_report {
  uint32_t accesses;       /* every such access */
  uint32_t coop;           /* of them, cooperative loads and stores */
  uint32_t unaligned;      /* of them, without Aligned (cooperative: below 16) */
  size_t first_unaligned;  /* word index of the first one, 0: none */
} words_psb_report;
/* False when w is NULL or malformed (no id bound). */
bool words_psb_accesses(const uint32_t *w, size_t n, words_psb_report *r);

/* The workgroup-id dependence of cooperative matrix tensor loads: for each
 * OpCooperativeMatrixLoadTensorNV of a matrix with use `use` (SpvCooperativeMatrixUse*),
 * whether one offset of its OpTensorLayoutSliceNV depends, through data (arithmetic,
 * conversions, selects, extended instructions, Function variables stored to and loaded
 * from; not through branches), on the WorkgroupId built-in. The offset is chosen by
 * `from_end` (0: the last dimension's, 1: the one before). */
typedef struct words_load_dep {
  uint32_t loads;      /* tensor loads of that use */
  uint32_t dependent;  /* of them, whose chosen offset depends on the workgroup id */
  uint32_t first_independent; /* how many loads in module order before the first dependent one */
} words_load_dep;
/* False for NULL or malformed words. */
bool words_tensor_load_wg_dependence(const uint32_t *w, size_t n, uint32_t use, uint32_t from_end,
                                     words_load_dep *r);

#endif
