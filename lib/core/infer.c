/* lib/core/infer.c — what an instruction requires, declared for it: capabilities (chosen
 * among the grammar's alternatives from the Vulkan table), extensions and the minimum
 * SPIR-V version, from the grammar (instructions and enumerants) and from the rules the
 * grammar cannot express (integer and float widths, 8/16-bit types behind buffer
 * pointers, FP encodings). Also spvgen_capability / spvgen_extension and their queries. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "spvgen/caps.h"
#include "spvgen/coop.h" /* SPVGEN_FP_ENCODING_*, SPVGEN_CAPABILITY_* */

/* ---------------------------------------------- capabilities & extensions ---- */

static bool bit_get(const uint8_t *set, uint32_t v) {
  return v < 8192 && (set[v >> 3] >> (v & 7)) & 1;
}
static void bit_set(uint8_t *set, uint32_t v) {
  if (v < 8192) set[v >> 3] |= (uint8_t)(1u << (v & 7));
}

/* An instruction's requirements (what: its name). */
#define require_item(m, fn, what, caps, ncaps, exts, nexts, version) \
  sg_require_item(m, fn, NULL, what, caps, ncaps, exts, nexts, version)

static void mark_available(spvgen_module *m, uint32_t cap) {
  if (bit_get(m->cap_available, cap)) return;
  bit_set(m->cap_available, cap);
  const sg_enumerant *e = sg_find_enumerant_m(m, SG_KIND_Capability, cap);
  if (!e) return;
  for (uint32_t i = 0; i < e->caps_n; i++) mark_available(m, sg_cap_pool[e->caps_off + i]);
}

void sg_clear_available(spvgen_module *m, uint32_t cap) {
  if (cap >= 8192) return;
  m->cap_declared[cap >> 3] &= (uint8_t)~(1u << (cap & 7));
  if (!bit_get(m->cap_available, cap)) return;
  m->cap_available[cap >> 3] &= (uint8_t)~(1u << (cap & 7));
  const sg_enumerant *e = sg_find_enumerant_m(m, SG_KIND_Capability, cap);
  if (!e) return;
  for (uint32_t i = 0; i < e->caps_n; i++) sg_clear_available(m, sg_cap_pool[e->caps_off + i]);
}

static void declare_extension_index(spvgen_module *m, int idx) {
  if (m->ext_declared[idx]) return;
  m->ext_declared[idx] = 1;
  const char *name = sg_extension_names[idx];
  size_t len = strlen(name), nw = len / 4 + 1;
  uint32_t *w = sg_words_push(m, &m->sec[SG_SEC_EXTENSIONS], 1 + nw);
  if (!w) return;
  w[0] = ((uint32_t)(1 + nw) << 16) | SpvOpExtension;
  memset(w + 1, 0, nw * 4);
  memcpy(w + 1, name, len);
}

void sg_require_extension_name(spvgen_module *m, const char *name) {
  size_t name_len = strlen(name);
  if (name_len / 4 + 2 > SG_INSTRUCTION_WORDS_MAX) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_extension",
            "an extension name of %zu bytes makes OpExtension %zu words; an instruction has "
            "at most %u words (names up to %u bytes)",
            name_len, name_len / 4 + 2, SG_INSTRUCTION_WORDS_MAX,
            (SG_INSTRUCTION_WORDS_MAX - 2) * 4 + 3);
    return;
  }
  int idx = sg_extension_index(name);
  if (idx >= 0) {
    declare_extension_index(m, idx);
    return;
  }
  for (uint32_t i = 0; i < m->other_ext_n; i++)
    if (!strcmp(m->other_exts[i], name)) return;
  if (!sg_grow(&m->other_exts, &m->other_ext_cap, (size_t)m->other_ext_n + 1, sizeof *m->other_exts, 4,
               SIZE_MAX)) {
    sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen_extension", "out of memory");
    return;
  }
  size_t len = strlen(name);
  char *copy = malloc(len + 1);
  if (!copy) {
    sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen_extension", "out of memory");
    return;
  }
  memcpy(copy, name, len + 1);
  m->other_exts[m->other_ext_n++] = copy;
  size_t nw = len / 4 + 1;
  uint32_t *w = sg_words_push(m, &m->sec[SG_SEC_EXTENSIONS], 1 + nw);
  if (!w) return;
  w[0] = ((uint32_t)(1 + nw) << 16) | SpvOpExtension;
  memset(w + 1, 0, nw * 4);
  memcpy(w + 1, name, len);
}

void sg_require_capability(spvgen_module *m, uint32_t cap) {
  if (bit_get(m->cap_declared, cap)) return;
  if (cap >= 8192) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_capability", "capability %u out of range", cap);
    return;
  }
  uint32_t *w = sg_words_push(m, &m->sec[SG_SEC_CAPABILITIES], 2);
  if (!w) return;
  w[0] = (2u << 16) | SpvOpCapability;
  w[1] = cap;
  bit_set(m->cap_declared, cap); /* only with its word: reset clears by the words */
  mark_available(m, cap);
  const sg_enumerant *e = sg_find_enumerant_m(m, SG_KIND_Capability, cap);
  if (e)
    require_item(m, "spvgen_capability", e->name, NULL, 0, sg_ext_pool + e->exts_off, e->exts_n, e->version);
}

/* The capability to declare for `what` (an instruction, or an enumerant of kind
 * `kind_name`) when none of the grammar's alternatives `caps` is declared yet. The
 * builder writes Vulkan modules, so only a capability of the Vulkan table
 * (vk_capabilities.c) is a candidate: never Kernel, Addresses, Linkage, ... Among the
 * candidates, one that is core in the module's SPIR-V version comes before one that needs
 * an extension (GroupNonUniform before SubgroupBallotKHR from SPIR-V 1.3 on; before 1.3
 * the KHR one is the only choice), then the grammar's order. When there is none, the
 * call fails (SPVGEN_ERROR_UNSUPPORTED) and UINT32_MAX is returned; a capability declared
 * by hand with spvgen_capability satisfies the item before this is asked. */
static uint32_t choose_capability(spvgen_module *m, const char *fn, const char *kind_name,
                                  const char *what, const uint16_t *caps, uint32_t ncaps) {
  uint32_t best = UINT32_MAX, newer = UINT32_MAX;
  int best_rank = 0;
  for (uint32_t i = 0; i < ncaps; i++) {
    if (!sg_vk_capability_find(caps[i])) continue;
    const sg_enumerant *e = sg_find_enumerant(SG_KIND_Capability, caps[i]);
    uint32_t version = e ? e->version : 0x0100;
    bool core = version != SG_NO_VERSION && (m->version >> 8) >= version;
    int rank = core ? 2 : (e && e->exts_n) ? 1 : 0;
    if (rank == 0) {
      if (newer == UINT32_MAX) newer = i;
    } else if (rank > best_rank) {
      best = i;
      best_rank = rank;
    }
  }
  if (best != UINT32_MAX) return caps[best];
  const char *sep = kind_name ? " " : "";
  if (!kind_name) kind_name = "";
  if (newer != UINT32_MAX) {
    uint32_t v = sg_find_enumerant(SG_KIND_Capability, caps[newer])->version;
    sg_fail(m, SPVGEN_ERROR_UNSUPPORTED, fn,
            "%s%s%s needs capability %s, which requires SPIR-V %u.%u, but the module targets %u.%u",
            kind_name, sep, what, sg_capability_name(caps[newer]), v >> 8, v & 0xFF,
            m->version >> 16, (m->version >> 8) & 0xFF);
    return UINT32_MAX;
  }
  char names[256];
  size_t len = 0;
  names[0] = 0;
  for (uint32_t i = 0; i < ncaps && len < sizeof names; i++) {
    const char *name = sg_capability_name(caps[i]);
    int k = name ? snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", name)
                 : snprintf(names + len, sizeof names - len, "%s%u", i ? ", " : "", caps[i]);
    if (k > 0) len += (size_t)k;
  }
  sg_fail(m, SPVGEN_ERROR_UNSUPPORTED, fn,
          "%s%s%s needs capability %s%s, which Vulkan does not allow (spvgen writes Vulkan "
          "modules; declare it with spvgen_capability to emit it anyway)",
          kind_name, sep, what, ncaps > 1 ? "one of " : "", names);
  return UINT32_MAX;
}

void sg_require_item(spvgen_module *m, const char *fn, const char *kind_name, const char *what,
                     const uint16_t *caps, uint32_t ncaps, const uint16_t *exts, uint32_t nexts,
                     uint32_t version) {
  if (!ncaps && !nexts && version <= 0x0100) return;
  if (ncaps) {
    bool have = false;
    for (uint32_t i = 0; i < ncaps && !have; i++) have = bit_get(m->cap_available, caps[i]);
    if (!have) {
      uint32_t cap = choose_capability(m, fn, kind_name, what, caps, ncaps);
      if (cap == UINT32_MAX) return;
      sg_require_capability(m, cap);
    }
  }
  bool core = version != SG_NO_VERSION && (m->version >> 8) >= version;
  if (nexts && !core) {
    bool have = false;
    for (uint32_t i = 0; i < nexts && !have; i++) have = m->ext_declared[exts[i]];
    if (!have) declare_extension_index(m, exts[0]);
  }
  if (version != SG_NO_VERSION && !nexts) {
    uint32_t v = version << 8;
    if (v > m->min_version) m->min_version = v;
    if (m->version < v)
      sg_fail(m, SPVGEN_ERROR_UNSUPPORTED, fn, "%s requires SPIR-V %u.%u, but the module targets %u.%u",
              what, version >> 8, version & 0xFF, m->version >> 16, (m->version >> 8) & 0xFF);
  }
}

void sg_require_enum_item_slow(spvgen_module *m, const char *fn, uint32_t kind, const sg_enumerant *e) {
  size_t i = (size_t)(e - sg_enumerants);
  bool memo = i < SG_REQ_MEMO_ENUM;
  if (memo && bit_get(m->req_done_enum, (uint32_t)i)) return;
  sg_require_item(m, fn, sg_operand_kinds[kind].name, e->name, sg_cap_pool + e->caps_off,
                  e->caps_n, sg_ext_pool + e->exts_off, e->exts_n, e->version);
  if (memo && m->status == SPVGEN_OK) bit_set(m->req_done_enum, (uint32_t)i);
}

const sg_enumerant *sg_require_enumerant(spvgen_module *m, const char *fn, uint32_t kind,
                                         uint32_t value) {
  const sg_enumerant *e = sg_find_enumerant_m(m, kind, value);
  if (e) sg_require_enum_item(m, fn, kind, e);
  return m->status == SPVGEN_OK ? e : NULL;
}

bool sg_require_instruction(spvgen_module *m, const char *fn, const sg_instruction *ins) {
  size_t i = (size_t)(ins - sg_instructions);
  bool memo = i < SG_REQ_MEMO_INS;
  if (memo && bit_get(m->req_done_ins, (uint32_t)i)) return m->status == SPVGEN_OK;
  require_item(m, fn, ins->name, sg_cap_pool + ins->caps_off, ins->caps_n,
               sg_ext_pool + ins->exts_off, ins->exts_n, ins->version);
  if (memo && m->status == SPVGEN_OK) bit_set(m->req_done_ins, (uint32_t)i);
  return m->status == SPVGEN_OK;
}

void spvgen_capability(spvgen_module *m, SpvCapability cap) {
  if (!sg_ok(m, "spvgen_capability")) return;
  /* A value neither the grammar nor the Vulkan table (bfloat16 and float8 by value) knows
   * would make a module no decoder can read. */
  if (!sg_find_enumerant(SG_KIND_Capability, (uint32_t)cap) &&
      (!sg_vk_capability_find((uint32_t)cap) || (uint32_t)cap >= 8192)) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_capability", "unknown capability %u", (uint32_t)cap);
    return;
  }
  sg_require_capability(m, (uint32_t)cap);
}

void spvgen_extension(spvgen_module *m, const char *name) {
  if (!sg_ok(m, "spvgen_extension")) return;
  if (!name || !*name) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_extension", "extension name is empty");
    return;
  }
  sg_require_extension_name(m, name);
}

bool spvgen_has_capability(const spvgen_module *m, SpvCapability cap) {
  return m && bit_get(m->cap_declared, (uint32_t)cap);
}

bool spvgen_has_extension(const spvgen_module *m, const char *name) {
  if (!m || !name) return false;
  int idx = sg_extension_index(name);
  if (idx >= 0) return m->ext_declared[idx] != 0;
  for (uint32_t i = 0; i < m->other_ext_n; i++)
    if (!strcmp(m->other_exts[i], name)) return true;
  return false;
}

/* ------------------------------------------------------- type bookkeeping ---- */

static uint8_t type_bits(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = sg_id(m, id);
  return i ? (i->flags & (SG_TF_HAS_8BIT | SG_TF_HAS_16BIT)) : 0;
}

/* Capability inference the grammar cannot express: widths and small-type storage. */
uint8_t sg_infer_type(spvgen_module *m, uint32_t opcode, const uint32_t *ops, uint32_t n) {
  uint8_t flags = 0;
  switch (opcode) {
  case SpvOpTypeInt:
    if (ops[1] == 8) sg_require_capability(m, SpvCapabilityInt8), flags = SG_TF_HAS_8BIT;
    if (ops[1] == 16) sg_require_capability(m, SpvCapabilityInt16), flags = SG_TF_HAS_16BIT;
    if (ops[1] == 64) sg_require_capability(m, SpvCapabilityInt64);
    break;
  case SpvOpTypeFloat:
    if (n >= 3) { /* an FP encoding */
      if (ops[2] == SPVGEN_FP_ENCODING_BFLOAT16) {
        sg_require_capability(m, SPVGEN_CAPABILITY_BFLOAT16_TYPE);
        sg_require_extension_name(m, "SPV_KHR_bfloat16");
        flags = SG_TF_HAS_16BIT;
      } else if (ops[2] == SPVGEN_FP_ENCODING_FLOAT8_E4M3 || ops[2] == SPVGEN_FP_ENCODING_FLOAT8_E5M2) {
        sg_require_capability(m, SPVGEN_CAPABILITY_FLOAT8);
        sg_require_extension_name(m, "SPV_EXT_float8");
        flags = SG_TF_HAS_8BIT;
      }
      break;
    }
    if (ops[1] == 16) sg_require_capability(m, SpvCapabilityFloat16), flags = SG_TF_HAS_16BIT;
    if (ops[1] == 64) sg_require_capability(m, SpvCapabilityFloat64);
    break;
  case SpvOpTypeVector:
  case SpvOpTypeMatrix:
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray:
    flags = type_bits(m, ops[1]);
    break;
  case SpvOpTypeStruct:
    for (uint32_t i = 1; i < n; i++) flags |= type_bits(m, ops[i]);
    break;
  case SpvOpTypePointer: {
    uint8_t b = type_bits(m, ops[2]);
    uint32_t sc = ops[1];
    if (b & SG_TF_HAS_16BIT) {
      if (sc == SpvStorageClassStorageBuffer || sc == SpvStorageClassPhysicalStorageBuffer)
        sg_require_capability(m, SpvCapabilityStorageBuffer16BitAccess);
      else if (sc == SpvStorageClassUniform)
        sg_require_capability(m, SpvCapabilityUniformAndStorageBuffer16BitAccess);
      else if (sc == SpvStorageClassPushConstant)
        sg_require_capability(m, SpvCapabilityStoragePushConstant16);
      else if (sc == SpvStorageClassInput || sc == SpvStorageClassOutput)
        sg_require_capability(m, SpvCapabilityStorageInputOutput16);
    }
    if (b & SG_TF_HAS_8BIT) {
      if (sc == SpvStorageClassStorageBuffer || sc == SpvStorageClassPhysicalStorageBuffer)
        sg_require_capability(m, SpvCapabilityStorageBuffer8BitAccess);
      else if (sc == SpvStorageClassUniform)
        sg_require_capability(m, SpvCapabilityUniformAndStorageBuffer8BitAccess);
      else if (sc == SpvStorageClassPushConstant)
        sg_require_capability(m, SpvCapabilityStoragePushConstant8);
    }
    break;
  }
  default:
    break;
  }
  return flags;
}

/* OpTypeInt and OpTypeFloat widths a Vulkan module (and a decoder: it sizes the literals
 * of OpConstant by them) can have: integers of 8, 16, 32 or 64 bits; floats of 16, 32 or
 * 64 bits, or with an FP encoding the width it defines (BFloat16KHR 16, Float8 8). */
bool sg_scalar_width_ok(spvgen_module *m, const char *fn, uint32_t opcode, const uint32_t *ops,
                        uint32_t n) {
  uint32_t width = ops[1];
  if (opcode == SpvOpTypeInt) {
    if (width == 8 || width == 16 || width == 32 || width == 64) return true;
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "OpTypeInt: width %u is not 8, 16, 32 or 64", width);
    return false;
  }
  if (n < 3) {
    if (width == 16 || width == 32 || width == 64) return true;
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
            "OpTypeFloat: width %u is not 16, 32 or 64 (8-bit and bfloat16 floats need an FP encoding)", width);
    return false;
  }
  uint32_t e = ops[2];
  uint32_t want = e == SPVGEN_FP_ENCODING_BFLOAT16 ? 16
                  : (e == SPVGEN_FP_ENCODING_FLOAT8_E4M3 || e == SPVGEN_FP_ENCODING_FLOAT8_E5M2) ? 8
                                                                                               : 0;
  if (want && width == want) return true;
  if (want)
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "OpTypeFloat: FP encoding %u needs width %u, not %u",
            ops[2], want, width);
  else
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "OpTypeFloat: unknown FP encoding %u", ops[2]);
  return false;
}

