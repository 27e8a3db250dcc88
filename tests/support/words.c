/* tests/support/words.c — see words.h. */
#include "words.h"

#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

uint32_t words_inst_len(const uint32_t *w, size_t n, size_t i) {
  if (!w || i >= n) return 0;
  uint32_t len = w[i] >> 16;
  return len && len <= n - i ? len : 0;
}

/* Whether the string operand of the OpExtension at w + i is name. */
static bool extension_is(const uint32_t *w, size_t i, uint32_t len, const char *name) {
  return len > 1 && strlen(name) < (size_t)(len - 1) * 4 && !strcmp((const char *)(w + i + 1), name);
}

const uint32_t *words_find(const uint32_t *w, size_t n, uint32_t opcode, uint32_t from,
                           const uint32_t *expected, uint32_t k) {
  WORDS_FOR_EACH(w, n, i) {
    uint32_t len = w[i] >> 16;
    if ((w[i] & 0xFFFFu) == opcode && len >= 1 + from + k &&
        (k == 0 || !memcmp(w + i + 1 + from, expected, k * sizeof *w)))
      return w + i;
  }
  return NULL;
}

bool words_has(const uint32_t *w, size_t n, uint32_t opcode) {
  return words_find(w, n, opcode, 0, NULL, 0) != NULL;
}

bool words_has_capability(const uint32_t *w, size_t n, uint32_t capability) {
  return words_find(w, n, SpvOpCapability, 0, &capability, 1) != NULL;
}

bool words_has_extension(const uint32_t *w, size_t n, const char *name) {
  WORDS_FOR_EACH(w, n, i) {
    if ((w[i] & 0xFFFFu) == SpvOpExtension && extension_is(w, i, w[i] >> 16, name)) return true;
  }
  return false;
}

/* Walks all of w counting the instructions with opcode that `match`; -1 when malformed. */
static int count_matching(const uint32_t *w, size_t n, uint32_t opcode, uint32_t capability,
                          const char *name) {
  if (!w) return -1;
  int count = 0;
  size_t i = 5;
  for (uint32_t len; (len = words_inst_len(w, n, i)); i += len) {
    if ((w[i] & 0xFFFFu) != opcode) continue;
    if (name ? extension_is(w, i, len, name) : (len >= 2 && w[i + 1] == capability)) count++;
  }
  return i == n ? count : -1;
}

int words_capability_count(const uint32_t *w, size_t n, uint32_t capability) {
  return count_matching(w, n, SpvOpCapability, capability, NULL);
}

int words_extension_count(const uint32_t *w, size_t n, const char *name) {
  return count_matching(w, n, SpvOpExtension, 0, name);
}

uint32_t words_count(const uint32_t *w, size_t n, uint32_t opcode) {
  uint32_t c = 0;
  if (!w) return 0;
  WORDS_FOR_EACH(w, n, i) c += (w[i] & 0xFFFFu) == opcode;
  return c;
}

/* The atomic instructions of the core grammar and of the float-atomic extensions. */
static bool is_atomic(uint32_t op) {
  return (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor) || op == SpvOpAtomicFlagTestAndSet ||
         op == SpvOpAtomicFlagClear || op == SpvOpAtomicFMinEXT || op == SpvOpAtomicFMaxEXT ||
         op == SpvOpAtomicFAddEXT;
}

bool words_sync_summary(const uint32_t *w, size_t n, words_sync *s) {
  memset(s, 0, sizeof *s);
  if (!w || n < 5) return false;
  WORDS_FOR_EACH(w, n, i) {
    uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
    s->control_barriers += op == SpvOpControlBarrier;
    s->memory_barriers += op == SpvOpMemoryBarrier;
    s->atomics += is_atomic(op);
    if (op == SpvOpVariable && len >= 4 && w[i + 3] == SpvStorageClassWorkgroup) s->workgroup_variables++;
    if (op == SpvOpTypePointer && len >= 4 && w[i + 2] == SpvStorageClassWorkgroup) s->workgroup_pointers++;
    if (op == SpvOpCapability && len >= 2 && w[i + 1] == SpvCapabilityVulkanMemoryModelDeviceScope)
      s->device_scope_capability = true;
  }
  return true;
}

bool words_psb_accesses(const uint32_t *w, size_t n, words_psb_report *r) {
  memset(r, 0, sizeof *r);
  if (!w || n < 5 || w[3] == 0 || w[3] > (1u << 22)) return false;
  const uint32_t bound = w[3];
  /* 1: a PhysicalStorageBuffer pointer type; 2: a value of such a type */
  unsigned char *kind = calloc(bound, 1);
  if (!kind) return false;
  WORDS_FOR_EACH(w, n, i) {
    const uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
    /* the instructions that can make a pointer value (result type, then result) */
    bool makes = false;
    switch (op) {
    case SpvOpLoad: case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: case SpvOpConvertUToPtr: case SpvOpBitcast: case SpvOpCopyObject:
    case SpvOpPhi: case SpvOpSelect: case SpvOpFunctionParameter: case SpvOpFunctionCall: case SpvOpUndef:
    case SpvOpConstantNull: case SpvOpVariable: makes = true; break;
    default: break;
    }
    if (op == SpvOpTypePointer && len >= 4 && w[i + 1] < bound && w[i + 2] == SpvStorageClassPhysicalStorageBuffer)
      kind[w[i + 1]] = 1;
    else if (op == SpvOpTypeForwardPointer && len >= 3 && w[i + 1] < bound &&
             w[i + 2] == SpvStorageClassPhysicalStorageBuffer)
      kind[w[i + 1]] = 1;
    else if (makes && len >= 3 && w[i + 1] < bound && w[i + 2] < bound && kind[w[i + 1]] == 1)
      kind[w[i + 2]] = 2;
    /* the pointer operand, where the memory mask would be, the least alignment */
    uint32_t ptr = 0, mask_at = 0, least = 1;
    bool coop = false;
    switch (op) {
    case SpvOpLoad: ptr = 3, mask_at = 4; break;
    case SpvOpStore: ptr = 1, mask_at = 3; break;
    case SpvOpCooperativeMatrixLoadKHR: ptr = 3, mask_at = 6, least = 16, coop = true; break;
    case SpvOpCooperativeMatrixStoreKHR: ptr = 1, mask_at = 5, least = 16, coop = true; break;
    case SpvOpCooperativeVectorLoadNV: ptr = 3, mask_at = 5, least = 16, coop = true; break;
    case SpvOpCooperativeVectorStoreNV: ptr = 1, mask_at = 4, least = 16, coop = true; break;
    default: continue;
    }
    if (len <= ptr || w[i + ptr] >= bound || kind[w[i + ptr]] != 2) continue;
    r->accesses++;
    r->coop += coop;
    bool aligned = len > mask_at + 1 && (w[i + mask_at] & SpvMemoryAccessAlignedMask) &&
                   w[i + mask_at + 1] >= least;
    if (!aligned) {
      if (!r->unaligned) r->first_unaligned = i;
      r->unaligned++;
    }
  }
  free(kind);
  return true;
}
