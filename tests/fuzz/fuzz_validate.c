/* tests/fuzz/fuzz_validate.c — libFuzzer target: spvgen_validate over mutated cooperative
 * modules. SPIRV-Tools 2025.1 died (SIGSEGV, or an uncaught std::out_of_range that
 * aborts) on cooperative-vector and tensor-addressing instructions whose operands were of
 * the wrong kind; spvgen_validate checks those operands first (lib/check/bridge.c). This
 * target looks for the next one.
 *
 * The corpus (tests/data/fuzz-corpus/fuzz_validate/) holds modules our own emitters
 * write for an H100 (coopmat2 and KHR GEMMs, MLP inference and training kernels,
 * cooperative vectors, tensor loads with DecodeFunc, per-element operations,
 * reductions) and the crash reproducers. The input is the module's words (little
 * endian); word 2 (the generator's magic, which no rule reads) picks the target env.
 *
 * Besides libFuzzer's byte mutations, a structure-aware mutator (LLVMFuzzerCustomMutator)
 * edits instructions as a confused or hostile producer would: an operand replaced by
 * another defined id (a type, a label, a function, a constant, a value of another type),
 * an OpFunction given another function type, an operand dropped or repeated (the word
 * count kept consistent), an opcode swapped for a related cooperative one. Coverage
 * inside SPIRV-Tools (a prebuilt library) is not seen by libFuzzer, so these mutations
 * carry the search there.
 *
 * Contract: no crash or signal; the status is SPVGEN_OK, VALIDATION, INVALID_ARGUMENT or
 * OUT_OF_MEMORY, with a message unless OK. Built with clang by the fuzz preset; other
 * builds link tests/fuzz/replay_main.c and replay the corpus. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "spvgen/check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t count = size / 4;
  if (count < 5) return 0;
  uint32_t *words = malloc(count * sizeof *words);
  if (!words) return 0;
  memcpy(words, data, count * 4);
  static const spvgen_target_env envs[] = {SPVGEN_ENV_VULKAN_1_3, SPVGEN_ENV_VULKAN_1_4, SPVGEN_ENV_UNIVERSAL_1_6,
                                           SPVGEN_ENV_VULKAN_1_2};
  spvgen_validate_options options = {.env = envs[words[2] % 4]};
  char message[1024];
  message[0] = 'x';
  spvgen_status st = spvgen_validate(words, count, &options, message, sizeof message);
  if (st != SPVGEN_OK && st != SPVGEN_ERROR_VALIDATION && st != SPVGEN_ERROR_INVALID_ARGUMENT &&
      st != SPVGEN_ERROR_OUT_OF_MEMORY)
    FUZZ_FAIL("spvgen_validate returned %d", (int)st);
  if (st != SPVGEN_OK && !message[0]) FUZZ_FAIL("spvgen_validate failed (%d) without a message", (int)st);
  if (st == SPVGEN_OK && message[0]) FUZZ_FAIL("spvgen_validate succeeded with a message: %s", message);
  free(words);
  return 0;
}

/* ------------------------------------------------- the structure-aware mutator ---- */
/* Only in libFuzzer builds (SPVGEN_LIBFUZZER, tests/CMakeLists.txt): the replay build has
 * no LLVMFuzzerMutate. */
#ifdef SPVGEN_LIBFUZZER

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return n ? (uint32_t)((rng_state >> 33) % n) : 0;
}

/* Opcodes whose operands the mutations go for first: cooperative matrix (KHR, NV),
 * tensor addressing, cooperative vector. */
static bool cooperative(uint32_t op) {
  return (op >= 4456 && op <= 4460) || /* OpTypeCooperativeMatrixKHR .. LengthKHR */
         (op >= 5288 && op <= 5293) || /* cooperative vector type, MatrixMul(Add), accumulates; ConvertNV */
         op == 5302 || op == 5303 ||   /* OpCooperativeVectorLoadNV / StoreNV */
         (op >= 5358 && op <= 5362) || /* cooperative matrix NV */
         (op >= 5366 && op <= 5384) || /* reduce, tensor load / store, per-element, tensor layouts and views */
         op == 5390;                   /* OpCooperativeMatrixTransposeNV */
}

/* Related opcodes an instruction may be turned into (the same families). */
static const uint16_t swaps[] = {4457, 4458, 4459, 4460, 5289, 5290, 5291, 5292, 5293, 5302, 5303,
                                 5366, 5367, 5368, 5369, 5372, 5373, 5375, 5377, 5378, 5390};

#define MAX_WORDS (65536 / 4)
#define MAX_INSTS 8192

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  rng_state = seed * 0x9E3779B97F4A7C15ull + 1;
  size_t count = size / 4;
  if (count < 6 || rnd(10) < 3 || count > MAX_WORDS) return LLVMFuzzerMutate(data, size, max_size);
  static uint32_t w[MAX_WORDS + 64];
  memcpy(w, data, count * 4);
  /* The instructions, the defined ids, and the cooperative ones. */
  static uint32_t at[MAX_INSTS], coop[MAX_INSTS], ids[MAX_INSTS];
  uint32_t ni = 0, nc = 0, nd = 0;
  for (size_t i = 5; i < count && ni < MAX_INSTS;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xFFFF;
    if (wc == 0 || i + wc > count) break;
    at[ni++] = (uint32_t)i;
    if (cooperative(op)) coop[nc++] = (uint32_t)i;
    /* A defined id: the result of a type (word 1) or of a typed instruction (word 2);
     * either is a plausible id to put anywhere. */
    if (wc >= 2 && nd < MAX_INSTS) ids[nd++] = w[i + (wc >= 3 && rnd(2) ? 2 : 1)];
    i += wc;
  }
  if (!ni || !nd) return LLVMFuzzerMutate(data, size, max_size);
  uint32_t rounds = 1 + rnd(3);
  for (uint32_t round = 0; round < rounds; round++) {
    uint32_t inst = nc && rnd(10) < 7 ? coop[rnd(nc)] : at[rnd(ni)];
    uint32_t wc = w[inst] >> 16, op = w[inst] & 0xFFFF;
    switch (rnd(7)) {
    case 0: case 1: case 2: /* an operand becomes another defined id */
      if (wc > 1) w[inst + 1 + rnd(wc - 1)] = ids[rnd(nd)];
      break;
    case 3: /* an operand becomes a small number, 0, or the id next to it */
      if (wc > 1) {
        uint32_t k = inst + 1 + rnd(wc - 1);
        uint32_t choice = rnd(4);
        w[k] = choice == 0 ? 0 : choice == 1 ? rnd(8) : choice == 2 ? w[k] + 1 : w[k] - 1;
      }
      break;
    case 4: /* an OpFunction gets another function type (or any id) */
      for (uint32_t k = 0; k < ni; k++) {
        uint32_t f = at[(k + rnd(ni)) % ni];
        if ((w[f] & 0xFFFF) == 54 /* OpFunction */ && (w[f] >> 16) == 5) {
          w[f + 4] = ids[rnd(nd)];
          break;
        }
      }
      break;
    case 5: /* drop the last operand, or repeat one (the word count follows) */
      if (rnd(2) && wc > 2) {
        memmove(&w[inst + wc - 1], &w[inst + wc], (count - inst - wc) * 4);
        count--;
        w[inst] = ((wc - 1) << 16) | op;
      } else if (count + 1 <= MAX_WORDS && (count + 1) * 4 <= max_size && wc > 1) {
        uint32_t dup = w[inst + 1 + rnd(wc - 1)];
        memmove(&w[inst + wc + 1], &w[inst + wc], (count - inst - wc) * 4);
        w[inst + wc] = dup;
        count++;
        w[inst] = ((wc + 1) << 16) | op;
      }
      break;
    case 6: /* a related cooperative opcode */
      w[inst] = (wc << 16) | swaps[rnd(sizeof swaps / sizeof swaps[0])];
      break;
    }
    /* Instruction offsets after inst may have moved: re-derive them next round only
     * for the ones before it (good enough: later rounds pick again). */
    if (round + 1 < rounds) {
      ni = nc = 0;
      for (size_t i = 5; i < count && ni < MAX_INSTS;) {
        uint32_t c2 = w[i] >> 16;
        if (c2 == 0 || i + c2 > count) break;
        at[ni++] = (uint32_t)i;
        if (cooperative(w[i] & 0xFFFF)) coop[nc++] = (uint32_t)i;
        i += c2;
      }
      if (!ni) break;
    }
  }
  if (count * 4 > max_size) return LLVMFuzzerMutate(data, size, max_size);
  memcpy(data, w, count * 4);
  return count * 4;
}
#endif
