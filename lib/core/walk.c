/* lib/core/walk.c — the grammar tables' lookups and the grammar walk: an instruction's
 * words checked operand by operand against the generated tables (gen/grammar_tables.c):
 * ids in range and of the right kind, enumerant values, strings, operand counts; every
 * enumerant's capabilities, extensions and version are applied on the way (infer.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "spvgen/coop.h" /* SPVGEN_FP_ENCODING_* */

/* ------------------------------------------------------------------ tables ---- */

const sg_instruction *sg_find_instruction(uint32_t opcode) {
  if (opcode > sg_max_opcode) return NULL;
  uint16_t i = sg_opcode_index[opcode];
  return i ? &sg_instructions[i - 1] : NULL;
}

const sg_enumerant *sg_find_enumerant(uint32_t kind, uint32_t value) {
  if (kind >= sg_operand_kind_count) return NULL;
  const sg_operand_kind *k = &sg_operand_kinds[kind];
  uint32_t lo = k->first, hi = k->first + k->count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    uint32_t v = sg_enumerants[mid].value;
    if (v == value) return &sg_enumerants[mid];
    if (v < value)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

const sg_enumerant *sg_find_enumerant_m_slow(spvgen_module *m, uint32_t kind, uint32_t value) {
  uint32_t h = (kind * 0x9E3779B1u) ^ (value * 0x85EBCA77u);
  sg_enum_memo_entry *c = &m->enum_memo[(h ^ (h >> 16)) & (SG_ENUM_MEMO - 1)];
  if (c->idx && c->kind == kind && c->value == value) return &sg_enumerants[c->idx - 1];
  const sg_enumerant *e = sg_find_enumerant(kind, value);
  if (e) *c = (sg_enum_memo_entry){kind, value, (uint32_t)(e - sg_enumerants) + 1};
  return e;
}

const char *sg_enumerant_name(uint32_t kind, uint32_t value) {
  const sg_enumerant *e = sg_find_enumerant(kind, value);
  return e ? e->name : NULL;
}

int sg_extension_index(const char *name) {
  uint32_t lo = 0, hi = sg_extension_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int c = strcmp(sg_extension_names[mid], name);
    if (c == 0) return (int)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

/* ------------------------------------------------------- the grammar walk ---- */

typedef sg_walk_state walk_state;

/* Types and constants may only use ids declared before them (SPIR-V 2.4, logical
 * layout), except that OpTypeStruct and OpTypeFunction may name a pointer type announced
 * by OpTypeForwardPointer. Besides the rule itself, this keeps every type acyclic, so
 * that the queries that follow a type's operands (sizes, names) terminate. */
static inline bool decl_operand_ok(const spvgen_module *m, uint32_t opcode, uint32_t v) {
  const sg_id_info *i = &m->ids[v];
  if (i->kind != SG_ID_RESERVED) return true;
  return (i->flags & SG_TF_FORWARD_POINTER) &&
         (opcode == SpvOpTypeStruct || opcode == SpvOpTypeFunction);
}

static bool walk_kind(walk_state *s, uint32_t kind, const char *opname, uint32_t role);

/* The id kinds each SG_ROLE_* rejects. */
static const uint32_t role_bad_kinds[4] = {0, SG_KINDS_NOT_VALUE, SG_KINDS_NOT_LABEL, 0};

static const char *const id_kind_names[] = {
    "an unallocated id", "a reserved id", "a type", "a value", "a label", "a function",
    "an ext-inst import, string or other non-value id",
};

static bool walk_fail(walk_state *s, const char *fmt, const char *a, uint32_t v) {
  char buf[200];
  snprintf(buf, sizeof buf, fmt, a, v);
  sg_fail(s->m, SPVGEN_ERROR_INVALID_ARGUMENT, s->fn, "%s: %s", s->ins->name, buf);
  return false;
}

static bool check_id(walk_state *s, uint32_t id, const char *opname) {
  if (id == 0 || id >= s->m->bound)
    return walk_fail(s, "operand '%s' is id %u, which this module never allocated", opname, id);
  return true;
}

/* An id operand of a role (the id is below the bound) must be of a kind the role takes:
 * no type, label or function where a value belongs, only a label where a label does. */
static bool check_role(walk_state *s, uint32_t id, const char *opname, uint32_t role) {
  uint32_t k = s->m->ids[id].kind;
  if (!((role_bad_kinds[role & 3] >> k) & 1u)) return true;
  sg_fail(s->m, SPVGEN_ERROR_INVALID_ARGUMENT, s->fn, "%s: operand '%s' is id %u, %s, where a %s belongs",
          s->ins->name, opname, id, k < 7 ? id_kind_names[k] : "an id of unknown kind",
          role == SG_ROLE_LABEL ? "label" : "value");
  return false;
}

/* A Scope or MemorySemantics operand (kind) is id v: an OpConstant of an integer type
 * made in this module (in a type declaration, OpTypeCooperativeMatrixKHR's, a
 * specialization constant too, as SPIR-V allows there), whose value, when known, is a
 * Scope / a set of MemorySemantics bits. Names the operand and what v is otherwise. */
static bool scope_constant(walk_state *s, uint32_t v, uint32_t kind, const char *opname) {
  const sg_id_info *i = &s->m->ids[v];
  const uint32_t *t = i->kind == SG_ID_VALUE ? sg_def_words(s->m, i->type) : NULL;
  const char *what = kind == SG_KIND_IdScope ? "Scope" : "MemorySemantics";
  bool integer = t && (t[0] & 0xFFFF) == SpvOpTypeInt;
  if (integer && s->decl && (i->flags & SG_TF_SPEC_CONSTANT)) return true;
  if (integer && i->opcode == SpvOpConstant) {
    uint64_t value;
    if (!sg_const_value(s->m, v, &value)) return true;
    uint32_t bad = 0;
    if (value > 0xFFFFFFFFu) bad = 1;
    else if (kind == SG_KIND_IdScope) bad = !sg_find_enumerant_m(s->m, SG_KIND_Scope, (uint32_t)value);
    else
      for (uint32_t rest = (uint32_t)value; rest && !bad; rest &= rest - 1)
        bad = !sg_find_enumerant_m(s->m, SG_KIND_MemorySemantics, rest & (~rest + 1));
    if (!bad) return true;
    sg_fail(s->m, SPVGEN_ERROR_INVALID_ARGUMENT, s->fn,
            "%s: operand '%s' (a %s) is id %u, the constant %llu, which is not a %s value", s->ins->name,
            opname, what, v, (unsigned long long)value, what);
    return false;
  }
  const char *is = i->kind == SG_ID_VALUE ? (i->opcode == SpvOpConstant ? "a constant of a non-integer type"
                                             : (i->flags & SG_TF_SPEC_CONSTANT) ? "a spec constant"
                                             : "a value computed at run time")
                   : i->kind < 7 ? id_kind_names[i->kind] : "an id of unknown kind";
  sg_fail(s->m, SPVGEN_ERROR_INVALID_ARGUMENT, s->fn,
          "%s: operand '%s' (a %s) is id %u, %s: it must be an integer constant (OpConstant; e.g. "
          "spvgen_const_u32(m, %s), not the enum value itself)",
          s->ins->name, opname, what, v, is, kind == SG_KIND_IdScope ? "SpvScopeSubgroup" : "semantics");
  return false;
}

static bool walk_enum_params(walk_state *s, const sg_enumerant *e) {
  for (uint32_t i = 0; i < e->params_n; i++)
    if (!walk_kind(s, sg_param_pool[e->params_off + i], e->name, SG_ROLE_ANY)) return false;
  return true;
}

static bool walk_kind(walk_state *s, uint32_t kind, const char *opname, uint32_t role) {
  const sg_operand_kind *k = &sg_operand_kinds[kind];
  if (s->pos >= s->n) return walk_fail(s, "missing operand '%s'%.0u", opname, 0);
  uint32_t v = s->w[s->pos];
  switch (k->category) {
  case SG_CAT_ID:
    if (kind == SG_KIND_IdResult) {
      s->result_pos = s->pos;
      s->pos++;
      if (v != 0 && (v >= s->m->bound || s->m->ids[v].kind != SG_ID_RESERVED))
        return walk_fail(s, "result id %s%u is not a reserved, undefined id", "", v);
      return true;
    }
    if (kind == SG_KIND_IdResultType) {
      s->type_pos = s->pos;
      s->pos++;
      if (!check_id(s, v, opname)) return false;
      if (s->m->ids[v].kind != SG_ID_TYPE)
        return walk_fail(s, "result type %s%u is not a type", "", v);
      return true;
    }
    s->pos++;
    if (!check_id(s, v, opname)) return false;
    if (s->decl && !decl_operand_ok(s->m, s->ins->opcode, v))
      return walk_fail(s, "operand '%s' is id %u, which is not declared yet (a declaration can only use ids declared before it)", opname, v);
    /* A Scope or MemorySemantics operand is the id of an integer constant (the Vulkan
     * environment requires OpConstant): a SpvScope value passed where its constant's id
     * belongs would otherwise name whatever id has that number. */
    if ((kind == SG_KIND_IdScope || kind == SG_KIND_IdMemorySemantics) && !scope_constant(s, v, kind, opname))
      return false;
    if (role && !check_role(s, v, opname, role)) return false;
    /* Device scope under the Vulkan memory model needs its own capability. */
    if (kind == SG_KIND_IdScope && s->m->memory_model == SpvMemoryModelVulkan) {
      uint64_t scope;
      if (sg_const_value(s->m, v, &scope) && scope == SpvScopeDevice)
        sg_require_capability(s->m, SpvCapabilityVulkanMemoryModelDeviceScope);
    }
    return true;
  case SG_CAT_LITERAL:
    if (kind == SG_KIND_LiteralString) {
      while (s->pos < s->n) {
        uint32_t x = s->w[s->pos++];
        if (!(x & 0xFF000000u) || !(x & 0xFF0000u) || !(x & 0xFF00u) || !(x & 0xFFu)) return true;
      }
      return walk_fail(s, "string operand '%s' has no terminating NUL%.0u", opname, 0);
    }
    if (kind == SG_KIND_LiteralContextDependentNumber && s->type_pos != UINT32_MAX) {
      const uint32_t *t = sg_def_words(s->m, s->w[s->type_pos]);
      uint32_t width = t && ((t[0] & 0xFFFF) == SpvOpTypeInt || (t[0] & 0xFFFF) == SpvOpTypeFloat) ? t[2] : 32;
      uint32_t words = width > 32 ? 2 : 1;
      if (s->pos + words > s->n) return walk_fail(s, "literal '%s' needs %u words", opname, words);
      s->pos += words;
      return true;
    }
    s->pos++;
    return true;
  case SG_CAT_COMPOSITE:
    if (s->pos + 2 > s->n) return walk_fail(s, "pair operand '%s' is missing its second word%.0u", opname, 0);
    if (kind == SG_KIND_PairLiteralIntegerIdRef && s->switch_literal_words == 2) {
      if (s->pos + 3 > s->n) return walk_fail(s, "pair operand '%s' is missing words (64-bit literal)%.0u", opname, 0);
      if (!check_id(s, s->w[s->pos + 2], opname)) return false;
      if (role && !check_role(s, s->w[s->pos + 2], opname, role)) return false;
      s->pos += 3;
      return true;
    }
    if (kind == SG_KIND_PairIdRefIdRef) {
      if (!check_id(s, s->w[s->pos], opname) || !check_id(s, s->w[s->pos + 1], opname)) return false;
    } else if (kind == SG_KIND_PairIdRefLiteralInteger) {
      if (!check_id(s, s->w[s->pos], opname)) return false;
    } else if (kind == SG_KIND_PairLiteralIntegerIdRef) {
      if (!check_id(s, s->w[s->pos + 1], opname)) return false;
      if (role && !check_role(s, s->w[s->pos + 1], opname, role)) return false;
    }
    s->pos += 2;
    return true;
  case SG_CAT_VALUEENUM: {
    s->pos++;
    /* FPEncoding: BFloat16KHR, Float8E4M3EXT and Float8E5M2EXT are known by value when
     * the grammar lists none (a decoder refuses any other value). */
    if (kind == SG_KIND_FPEncoding &&
        (v == SPVGEN_FP_ENCODING_BFLOAT16 || v == SPVGEN_FP_ENCODING_FLOAT8_E4M3 ||
         v == SPVGEN_FP_ENCODING_FLOAT8_E5M2))
      return true;
    if (k->count == 0 && kind != SG_KIND_FPEncoding) return true; /* the grammar lists no values */
    const sg_enumerant *e = sg_find_enumerant_m(s->m, kind, v);
    if (!e) {
      char buf[160];
      snprintf(buf, sizeof buf, "%u is not a %s value (operand '%%s')", v, k->name);
      return walk_fail(s, buf, opname, 0);
    }
    sg_require_enum_item(s->m, s->fn, kind, e);
    if (kind == SG_KIND_Capability) sg_require_capability(s->m, v);
    return walk_enum_params(s, e);
  }
  case SG_CAT_BITENUM: {
    s->pos++;
    for (uint32_t rest = v; rest; rest &= rest - 1) {
      uint32_t b = rest & (~rest + 1); /* lowest set bit: operands follow in bit order */
      const sg_enumerant *e = sg_find_enumerant_m(s->m, kind, b);
      if (!e) {
        char buf[160];
        snprintf(buf, sizeof buf, "bit 0x%x is not a %s flag (operand '%%s')", b, k->name);
        return walk_fail(s, buf, opname, 0);
      }
      sg_require_enum_item(s->m, s->fn, kind, e);
      if (!walk_enum_params(s, e)) return false;
    }
    return true;
  }
  }
  return true;
}

/* One operand; plain ids and one-word literals are checked inline (the common case),
 * everything else goes through walk_kind. */
static inline bool walk_one(walk_state *s, const sg_operand *o) {
  uint32_t k = o->kind;
  if (k == SG_KIND_IdRef) { /* IdScope and IdMemorySemantics: walk_kind checks them */
    uint32_t v = s->w[s->pos];
    if (v != 0 && v < s->m->bound && (!s->decl || s->m->ids[v].kind != SG_ID_RESERVED) &&
        !((role_bad_kinds[o->role & 3] >> s->m->ids[v].kind) & 1u)) {
      s->pos++;
      return true;
    }
  } else if (k == SG_KIND_IdResultType) {
    uint32_t v = s->w[s->pos];
    if (v != 0 && v < s->m->bound && s->m->ids[v].kind == SG_ID_TYPE) {
      s->type_pos = s->pos++;
      return true;
    }
  } else if (k == SG_KIND_IdResult) {
    uint32_t v = s->w[s->pos];
    if (v == 0) {
      s->result_pos = s->pos++;
      return true;
    }
  } else if (k == SG_KIND_LiteralInteger || k == SG_KIND_LiteralExtInstInteger ||
             k == SG_KIND_LiteralSpecConstantOpInteger || k == SG_KIND_LiteralFloat) {
    s->pos++;
    return true;
  }
  return walk_kind(s, k, o->name, o->role);
}

/* The opcodes OpSpecConstantOp may name (SPIR-V 3.52.13 "OpSpecConstantOp", the list
 * SPIRV-Tools decodes): a decoder reads the operands of the named instruction after it,
 * so any other value leaves the module undecodable. */
static bool spec_constant_opcode_ok(uint32_t op) {
  switch (op) {
  case SpvOpSConvert: case SpvOpFConvert: case SpvOpConvertFToS: case SpvOpConvertSToF:
  case SpvOpConvertFToU: case SpvOpConvertUToF: case SpvOpUConvert: case SpvOpConvertPtrToU:
  case SpvOpConvertUToPtr: case SpvOpGenericCastToPtr: case SpvOpPtrCastToGeneric:
  case SpvOpBitcast: case SpvOpQuantizeToF16: case SpvOpSNegate: case SpvOpNot: case SpvOpIAdd:
  case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem:
  case SpvOpSMod: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
  case SpvOpShiftLeftLogical: case SpvOpBitwiseOr: case SpvOpBitwiseAnd: case SpvOpBitwiseXor:
  case SpvOpFNegate: case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
  case SpvOpFRem: case SpvOpFMod: case SpvOpVectorShuffle: case SpvOpCompositeExtract:
  case SpvOpCompositeInsert: case SpvOpLogicalOr: case SpvOpLogicalAnd: case SpvOpLogicalNot:
  case SpvOpLogicalEqual: case SpvOpLogicalNotEqual: case SpvOpSelect: case SpvOpIEqual:
  case SpvOpINotEqual: case SpvOpULessThan: case SpvOpSLessThan: case SpvOpUGreaterThan:
  case SpvOpSGreaterThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
  case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual: case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
  case SpvOpCooperativeMatrixLengthNV: case SpvOpCooperativeMatrixLengthKHR:
    return true;
  default:
    return false;
  }
}

static bool walk_operands(walk_state *s, const sg_instruction *ins, uint32_t first);

/* OpSpecConstantOp: after its Opcode operand come that instruction's operands, less its
 * result type and result id. */
static bool walk_spec_constant_op(walk_state *s) {
  uint32_t op = s->w[s->pos - 1];
  const sg_instruction *inner = spec_constant_opcode_ok(op) ? sg_find_instruction(op) : NULL;
  if (!inner) {
    char buf[200];
    snprintf(buf, sizeof buf, "opcode %u%s%s is not one OpSpecConstantOp allows (operand '%%s')", op,
             sg_find_instruction(op) ? " " : "", sg_find_instruction(op) ? sg_find_instruction(op)->name : "");
    return walk_fail(s, buf, "Opcode", 0);
  }
  return walk_operands(s, inner, (uint32_t)inner->has_type + (uint32_t)inner->has_result);
}

/* The operands of ins from its `first`-th on. */
static bool walk_operands(walk_state *s, const sg_instruction *ins, uint32_t first) {
  for (uint32_t i = first; i < ins->operands_n; i++) {
    const sg_operand *o = &sg_operands[ins->operands_off + i];
    if (o->quantifier == SG_Q_ONE) {
      if (s->pos >= s->n) return walk_kind(s, o->kind, o->name, o->role); /* reports it missing */
      if (!walk_one(s, o)) return false;
    } else if (o->quantifier == SG_Q_OPTIONAL) {
      if (s->pos < s->n && !walk_one(s, o)) return false;
    } else {
      while (s->pos < s->n)
        if (!walk_one(s, o)) return false;
    }
    if (o->kind == SG_KIND_LiteralSpecConstantOpInteger && !walk_spec_constant_op(s)) return false;
  }
  return true;
}

bool sg_walk(walk_state *s) {
  const sg_instruction *ins = s->ins;
  if (!walk_operands(s, ins, 0)) return false;
  if (s->pos != s->n) {
    sg_fail(s->m, SPVGEN_ERROR_INVALID_ARGUMENT, s->fn,
            "%s: too many operand words (%u given, the grammar takes %u)", ins->name, s->n, s->pos);
    return false;
  }
  return true;
}

