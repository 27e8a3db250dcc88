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

/* Whether opcode's operands after the result (result type, result, operands...) are all
 * ids: the arithmetic, logic, comparison, conversion and pointer instructions the
 * emitters use for addresses and coordinates. */
static bool all_id_operands(uint32_t op) {
  switch (op) {
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem:
  case SpvOpSMod: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
  case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot: case SpvOpSNegate:
  case SpvOpSelect: case SpvOpIEqual: case SpvOpINotEqual: case SpvOpULessThan: case SpvOpULessThanEqual:
  case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpSLessThan: case SpvOpSLessThanEqual:
  case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual: case SpvOpLogicalAnd: case SpvOpLogicalOr:
  case SpvOpLogicalNot: case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast: case SpvOpConvertPtrToU:
  case SpvOpConvertUToPtr: case SpvOpCopyObject: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain: case SpvOpPhi: case SpvOpCompositeConstruct: case SpvOpFunctionCall:
    return true;
  default:
    return false;
  }
}

bool words_tensor_load_wg_dependence(const uint32_t *w, size_t n, uint32_t use, uint32_t from_end,
                                     words_load_dep *r) {
  memset(r, 0, sizeof *r);
  if (!w || n < 5 || w[3] == 0 || w[3] > (1u << 22)) return false;
  const uint32_t bound = w[3];
  unsigned char *dep = calloc(bound, 1);
  uint32_t *value = calloc(bound, sizeof *value); /* OpConstant values (32-bit) */
  unsigned char *is_const = calloc(bound, 1);
  if (!dep || !value || !is_const) {
    free(dep), free(value), free(is_const);
    return false;
  }
#define ID_OK(x) ((x) < bound)
  WORDS_FOR_EACH(w, n, i) {
    const uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
    if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn && w[i + 3] == SpvBuiltInWorkgroupId &&
        ID_OK(w[i + 1]))
      dep[w[i + 1]] = 1;
    if (op == SpvOpConstant && len >= 4 && ID_OK(w[i + 2])) {
      is_const[w[i + 2]] = 1;
      value[w[i + 2]] = w[i + 3];
    }
  }
  /* to a fixed point: a Function variable stored to after its loads (a loop) */
  for (bool changed = true; changed;) {
    changed = false;
    WORDS_FOR_EACH(w, n, i) {
      const uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
      bool d = false;
      uint32_t result = 0;
      if (op == SpvOpStore && len >= 3 && ID_OK(w[i + 1]) && ID_OK(w[i + 2])) {
        if (dep[w[i + 2]] && !dep[w[i + 1]]) dep[w[i + 1]] = 1, changed = true;
        continue;
      }
      if (op == SpvOpLoad && len >= 4) {
        result = w[i + 2], d = ID_OK(w[i + 3]) && dep[w[i + 3]];
      } else if (op == SpvOpCompositeExtract && len >= 4) {
        result = w[i + 2], d = ID_OK(w[i + 3]) && dep[w[i + 3]];
      } else if (op == SpvOpExtInst && len >= 5) {
        result = w[i + 2];
        for (uint32_t k = 5; k < len; k++) d = d || (ID_OK(w[i + k]) && dep[w[i + k]]);
      } else if (all_id_operands(op) && len >= 3) {
        result = w[i + 2];
        for (uint32_t k = 3; k < len; k++) d = d || (ID_OK(w[i + k]) && dep[w[i + k]]);
      } else {
        continue;
      }
      if (d && ID_OK(result) && !dep[result]) dep[result] = 1, changed = true;
    }
  }
  /* the loads: their matrix type's use, and their slice's offset */
  bool ok = true;
  WORDS_FOR_EACH(w, n, i) {
    const uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
    if (op != SpvOpCooperativeMatrixLoadTensorNV || len < 6) continue;
    const uint32_t *ty = NULL, *sl = NULL;
    WORDS_FOR_EACH(w, n, j) {
      const uint32_t o = w[j] & 0xFFFFu;
      if (o == SpvOpTypeCooperativeMatrixKHR && w[j + 1] == w[i + 1]) ty = w + j;
      if (o == SpvOpTensorLayoutSliceNV && w[j + 2] == w[i + 5]) sl = w + j;
    }
    if (!ty || (ty[0] >> 16) < 7 || !ID_OK(ty[6]) || !is_const[ty[6]]) {
      ok = false;
      continue;
    }
    if (value[ty[6]] != use) continue;
    if (!sl) { /* a layout that is no slice: a load at the layout's origin */
      r->loads++;
      if (!r->dependent) r->first_independent++;
      continue;
    }
    const uint32_t slen = sl[0] >> 16, pairs = (slen - 4) / 2;
    if (from_end >= pairs) {
      ok = false;
      continue;
    }
    const uint32_t off = sl[4 + 2 * (pairs - 1 - from_end)];
    r->loads++;
    if (ID_OK(off) && dep[off]) r->dependent++;
    else if (!r->dependent) r->first_independent++;
  }
#undef ID_OK
  free(dep), free(value), free(is_const);
  return ok;
}

bool words_has_name(const uint32_t *w, size_t n, const char *name) {
  if (!w || !name) return false;
  const size_t want = strlen(name) + 1; /* the literal's bytes, nul included */
  WORDS_FOR_EACH(w, n, i) {
    const uint32_t len = words_inst_len(w, n, i);
    if ((w[i] & 0xFFFFu) == SpvOpName && len > 2 && (len - 2) * 4 >= want &&
        memcmp(&w[i + 2], name, want) == 0)
      return true;
  }
  return false;
}
