/* lib/core/inst.c — the instruction path: sg_inst, where every emitter ends. It checks an
 * instruction (fast paths for plain ids, else the grammar walk of walk.c), applies what it
 * requires (infer.c), allocates its result id, deduplicates types and constants (the
 * hash-consing table below), places it in its logical-layout section and records its id.
 * Also the packer the generated emitters (gen/ops.c) fill operands with, and the
 * shortcuts structured control flow takes around the walk (sg_append*, sg_place_label).
 * Nothing here calls a public function. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ------------------------------------------------------------ hash-consing ---- */

SG_HOT uint32_t hash_words(const uint32_t *w, uint32_t n) {
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < n; i++) {
    h ^= w[i];
    h *= 16777619u;
    h ^= h >> 15;
  }
  return h ? h : 1;
}

static bool table_grow(spvgen_module *m) {
  uint32_t cap = m->table_cap ? m->table_cap * 2 : 256;
  sg_hash_entry *t = calloc(cap, sizeof *t);
  if (!t) {
    sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen", "out of memory");
    return false;
  }
  for (uint32_t i = 0; i < m->table_cap; i++) {
    sg_hash_entry e = m->table[i];
    if (!e.id || e.gen != m->table_gen) continue;
    uint32_t j = e.hash & (cap - 1);
    while (t[j].id && t[j].gen == m->table_gen) j = (j + 1) & (cap - 1);
    t[j] = e;
  }
  free(m->table);
  m->table = t;
  m->table_cap = cap;
  return true;
}

/* Key: words (opcode or tag first). Returns the id or 0. */
SG_HOT uint32_t table_find(spvgen_module *m, const uint32_t *key, uint32_t n, uint32_t hash) {
  if (!m->table_cap || n > 0xFFFF) return 0;
  uint32_t mask = m->table_cap - 1;
  for (uint32_t j = hash & mask;; j = (j + 1) & mask) {
    const sg_hash_entry *e = &m->table[j];
    if (!e->id || e->gen != m->table_gen) return 0;
    if (e->hash == hash && e->key_len == n &&
        !memcmp(m->arena.data + e->key_off, key, n * sizeof *key))
      return e->id;
  }
}

static void table_insert(spvgen_module *m, const uint32_t *key, uint32_t n, uint32_t hash,
                         uint32_t id) {
  if (n > 0xFFFF) return; /* such keys are never looked up either */
  if ((m->table_count + 1) * 10 >= m->table_cap * 7 && !table_grow(m)) return;
  size_t off = m->arena.len;
  uint32_t *dst = sg_words_push(m, &m->arena, n);
  if (!dst) return;
  memcpy(dst, key, n * sizeof *key);
  uint32_t mask = m->table_cap - 1, j = hash & mask;
  while (m->table[j].id && m->table[j].gen == m->table_gen) j = (j + 1) & mask;
  m->table[j] = (sg_hash_entry){hash, id, (uint32_t)off, (uint16_t)n, m->table_gen};
  m->table_count++;
}

uint32_t sg_table_lookup(spvgen_module *m, const uint32_t *key, uint32_t n, uint32_t hash) {
  return table_find(m, key, n, hash);
}

void sg_table_add(spvgen_module *m, const uint32_t *key, uint32_t n, uint32_t hash, uint32_t id) {
  table_insert(m, key, n, hash, id);
}

SG_HOT void record(spvgen_module *m, uint32_t id, uint8_t kind, uint32_t type, uint32_t opcode,
                   uint8_t section, size_t off, uint8_t flags);

/* Appends a function-body instruction whose operands the caller built itself from ids
 * it knows are valid (structured control flow). No walk, no inference; the block must
 * be open. */
bool sg_append_body(spvgen_module *m, uint32_t opcode, const uint32_t *ops, uint32_t n) {
  if (!m->in_function || !m->block_open) return false;
  sg_words *b = &m->sec[SG_SEC_FUNCTIONS];
  if (!sg_words_grow(m, b, n + 1)) return false;
  uint32_t *w = b->data + b->len;
  b->len += n + 1;
  w[0] = ((n + 1) << 16) | opcode;
  for (uint32_t i = 0; i < n; i++) w[1 + i] = ops[i];
  return true;
}

/* Appends an instruction the caller checked itself to a module-level section. */
bool sg_append(spvgen_module *m, uint32_t section, uint32_t opcode, const uint32_t *ops, uint32_t n) {
  sg_words *b = &m->sec[section];
  if (!sg_words_grow(m, b, n + 1)) return false;
  uint32_t *w = b->data + b->len;
  b->len += n + 1;
  w[0] = ((n + 1) << 16) | opcode;
  for (uint32_t i = 0; i < n; i++) w[1 + i] = ops[i];
  return true;
}

/* Places a label that is 0 (new) or reserved and not yet defined, when no block is open
 * in a function whose first block exists. Returns 0 when the general path must decide
 * (first block, errors). */
uint32_t sg_place_label(spvgen_module *m, uint32_t label) {
  if (!m->in_function || m->block_open || !m->first_block_placed) return 0;
  if (label && (label >= m->bound || m->ids[label].kind != SG_ID_RESERVED)) return 0;
  sg_words *b = &m->sec[SG_SEC_FUNCTIONS];
  if (!sg_words_grow(m, b, 2)) return 0;
  if (!label) label = sg_new_id(m, "spvgen_block");
  if (!label) return 0;
  size_t off = b->len;
  b->data[off] = (2u << 16) | SpvOpLabel;
  b->data[off + 1] = label;
  b->len += 2;
  record(m, label, SG_ID_LABEL, 0, SpvOpLabel, SG_SEC_FUNCTIONS, off, 0);
  m->block_open = true;
  m->current_block = label;
  return label;
}

/* ---------------------------------------------------------- placement ---- */

/* The extended instruction sets a decoder knows (SPIRV-Tools 2025.1, spvgen's checker):
 * a module importing any other name cannot be disassembled or validated. NonSemantic.*
 * sets are decodable whatever they are. */
static bool ext_inst_set_known(const char *name) {
  static const char *const known[] = {
      "GLSL.std.450", "OpenCL.std", "SPV_AMD_shader_explicit_vertex_parameter",
      "SPV_AMD_shader_trinary_minmax", "SPV_AMD_gcn_shader", "SPV_AMD_shader_ballot",
      "DebugInfo", "OpenCL.DebugInfo.100",
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strcmp(name, known[i])) return true;
  return !strncmp(name, "NonSemantic.", 12) && name[12] != 0;
}

static bool dedupable_type(uint32_t opcode) {
  return opcode != SpvOpTypeStruct && opcode != SpvOpTypeOpaque &&
         opcode != SpvOpTypeForwardPointer;
}

SG_HOT void record(spvgen_module *m, uint32_t id, uint8_t kind, uint32_t type, uint32_t opcode,
                   uint8_t section, size_t off, uint8_t flags) {
  sg_id_info *i = &m->ids[id];
  if (i->kind == SG_ID_RESERVED) m->undefined--;
  i->kind = kind;
  i->type = type;
  i->opcode = (uint16_t)opcode;
  i->section = section;
  i->def_off = (uint32_t)off;
  i->flags = flags;
}

/* ---------------------------------------------------------- sg_inst ---- */

/* Index of the lowest set bit of x (x != 0). */
static inline uint32_t lowest_bit(uint32_t x) {
#if defined(__GNUC__)
  return (uint32_t)__builtin_ctz(x);
#else
  uint32_t i = 0;
  while (!(x & 1u)) x >>= 1, i++;
  return i;
#endif
}

static void close_function(spvgen_module *m);

/* Whether the requirements of ins were applied in this module already (infer.c's memo):
 * applying them again changes nothing. */
static inline bool requirements_done(const spvgen_module *m, const sg_instruction *ins) {
  size_t idx = (size_t)(ins - sg_instructions);
  return idx < SG_REQ_MEMO_INS && ((m->req_done_ins[idx >> 3] >> (idx & 7)) & 1u);
}

/* Step 1, the fast path for the bulk of a kernel: a function-body instruction whose
 * operands are all single ids (arithmetic, loads and stores without memory operands,
 * access chains, branches...) and that needs no capability, or whose requirements this
 * module has applied already (then its result, if any, must have a type: the general
 * path records a typeless result as SG_ID_OTHER). true when it handled the instruction
 * (*ret: the result, 1 for none, 0 on error); false sends it down the general path,
 * which also produces the error messages. */
SG_HOT bool body_fast_path(spvgen_module *m, const char *fn, const sg_instruction *ins,
                           uint32_t opcode, const uint32_t *ops, uint32_t n, uint32_t *ret) {
  if (!((ins->placement == SG_PLACE_BODY || ins->placement == SG_PLACE_TERMINATOR) &&
        (ins->flags & SG_INST_SIMPLE) && m->block_open &&
        (n == ins->nreq || ((ins->flags & (SG_INST_ID_TAIL | SG_INST_LIT_TAIL)) && n > ins->nreq)) &&
        ((ins->flags & SG_INST_NOREQ) ||
         ((!ins->has_result || ins->has_type) && requirements_done(m, ins)))))
    return false;
  /* Operand 0 is the result type and the next one the result, when the instruction
   * has them; the ids after them are checked for their bound and their role (value
   * operands take no type, label or function; label operands only labels), with the
   * kinds that violate a role as bit sets. */
  uint32_t bound = m->bound, nreq = ins->nreq, rpos = UINT32_MAX;
  const sg_id_info *ids = m->ids;
  bool fine = true;
  if (ins->has_type) fine = ops[0] - 1u < bound - 1u && ids[ops[0]].kind == SG_ID_TYPE;
  if (ins->has_result) {
    rpos = ins->has_type;
    fine = fine && ops[rpos] == 0;
  }
  uint32_t values = ins->value_mask, labels = ins->label_mask, others = ins->any_mask | labels;
  uint32_t wrong = 0; /* ids of a kind their operand's role rejects, one bit per id */
  if (!others) {
    /* All ids are value operands (the common case): collect the kinds they have. */
    uint32_t kinds = 0;
    for (uint32_t r = values; r; r &= r - 1) {
      uint32_t v = ops[lowest_bit(r)];
      if (v - 1u >= bound - 1u) { /* 0 or beyond the bound */
        fine = false;
        break;
      }
      kinds |= 1u << ids[v].kind;
    }
    wrong = kinds & SG_KINDS_NOT_VALUE;
  } else {
    for (uint32_t r = values | others; r; r &= r - 1) {
      uint32_t bit = r & (0u - r), v = ops[lowest_bit(r)];
      if (v - 1u >= bound - 1u) {
        fine = false;
        break;
      }
      uint32_t kb = 1u << ids[v].kind;
      wrong |= bit & (((kb & SG_KINDS_NOT_VALUE) ? values : 0) | ((kb & SG_KINDS_NOT_LABEL) ? labels : 0));
    }
  }
  if (n > nreq && !(ins->flags & SG_INST_LIT_TAIL)) { /* a repeated IdRef tail */
    uint32_t kinds = 0;
    for (uint32_t i = nreq; i < n; i++) {
      uint32_t v = ops[i];
      if (v - 1u >= bound - 1u) {
        fine = false;
        break;
      }
      kinds |= 1u << ids[v].kind;
    }
    if (ins->flags & SG_INST_VALUE_TAIL) wrong |= kinds & SG_KINDS_NOT_VALUE;
  }
  fine = fine && !wrong;
  sg_words *b = &m->sec[SG_SEC_FUNCTIONS];
  if (fine && sg_words_grow(m, b, n + 1)) {
    uint32_t result = rpos != UINT32_MAX ? sg_new_id(m, fn) : 0;
    if (rpos != UINT32_MAX && !result) {
      *ret = 0;
      return true;
    }
    size_t off = b->len;
    uint32_t *w = b->data + off;
    b->len += n + 1;
    w[0] = ((n + 1) << 16) | opcode;
    for (uint32_t i = 0; i < n; i++) w[1 + i] = ops[i];
    if (result) {
      w[1 + rpos] = result;
      sg_id_info *id = &m->ids[result];
      m->undefined--;
      id->kind = SG_ID_VALUE;
      id->type = ins->has_type ? ops[0] : 0;
      id->opcode = (uint16_t)opcode;
      id->section = SG_SEC_FUNCTIONS;
      id->def_off = (uint32_t)off;
      id->flags = 0;
    }
    if (ins->placement == SG_PLACE_TERMINATOR) m->block_open = false;
    *ret = result ? result : 1;
    return true;
  }
  if (m->status != SPVGEN_OK) {
    *ret = 0;
    return true;
  }
  return false;
}

/* Step 2, the fast path for repeated declarations: identical words of a type or constant
 * were checked when first emitted, so a hit needs no operand walk. The id, or 0. On a
 * miss, the key it looked up (k[0 .. *kl), its hash *kh, result position *krpos) is
 * left for step 5, which then need not build and look it up again; *kl stays 0 when no
 * key was looked up. */
SG_HOT uint32_t declaration_seen(spvgen_module *m, const sg_instruction *ins, uint32_t opcode,
                                 const uint32_t *ops, uint32_t n, uint32_t *k, uint32_t *kl,
                                 uint32_t *kh, uint32_t *krpos) {
  if ((ins->placement == SG_PLACE_TYPE || ins->placement == SG_PLACE_CONSTANT) &&
      ins->has_result && n < 63 && m->table_count) {
    uint32_t rpos = ins->has_type ? 1 : 0;
    if (rpos < n && ops[rpos] == 0 && (ins->placement == SG_PLACE_CONSTANT || dedupable_type(opcode))) {
      uint32_t len = 0;
      k[len++] = opcode;
      for (uint32_t i = 0; i < n; i++)
        if (i != rpos) k[len++] = ops[i];
      uint32_t h = hash_words(k, len);
      uint32_t id = table_find(m, k, len, h);
      if (!id) *kl = len, *kh = h, *krpos = rpos;
      return id;
    }
  }
  return 0;
}

/* Step 3a, the declarations the builder's own API emits most (OpConstant, OpTypePointer,
 * OpVariable, OpName), checked inline with exactly the grammar
 * walk's rules (walk.c): true when they hold, with s->result_pos / s->type_pos filled and
 * the storage class's requirements applied as the walk applies them; false (nothing
 * changed) sends the instruction to the walk, which also produces the messages. */
static bool builder_decl_checked(sg_walk_state *s, uint32_t opcode) {
  spvgen_module *m = s->m;
  const uint32_t *ops = s->w;
  uint32_t n = s->n, bound = m->bound;
  const sg_id_info *ids = m->ids;
  switch (opcode) {
  case SpvOpConstant: {
    /* IdResultType, IdResult (0), a literal of the type's width (LiteralContextDependentNumber). */
    if (n < 3 || ops[0] - 1u >= bound - 1u || ids[ops[0]].kind != SG_ID_TYPE || ops[1] != 0) return false;
    const uint32_t *t = sg_def_words(m, ops[0]);
    uint32_t width = t && ((t[0] & 0xFFFF) == SpvOpTypeInt || (t[0] & 0xFFFF) == SpvOpTypeFloat) ? t[2] : 32;
    if (n != 2 + (width > 32 ? 2u : 1u)) return false;
    s->type_pos = 0;
    s->result_pos = 1;
    return true;
  }
  case SpvOpTypePointer: {
    /* IdResult (0), StorageClass, IdRef Type (declared: not a reserved id). */
    if (n != 3 || ops[0] != 0 || ops[2] - 1u >= bound - 1u || ids[ops[2]].kind == SG_ID_RESERVED) return false;
    const sg_enumerant *e = sg_find_enumerant_m(m, SG_KIND_StorageClass, ops[1]);
    if (!e || e->params_n) return false;
    sg_require_enum_item(m, s->fn, SG_KIND_StorageClass, e);
    s->result_pos = 0;
    return true;
  }
  case SpvOpVariable: {
    /* IdResultType, IdResult (0), StorageClass, an optional IdRef Initializer of the
     * grammar's role. */
    if (n < 3 || n > 4 || ops[0] - 1u >= bound - 1u || ids[ops[0]].kind != SG_ID_TYPE || ops[1] != 0)
      return false;
    if (n == 4) {
      const sg_operand *o = &sg_operands[s->ins->operands_off + 3];
      uint32_t v = ops[3];
      uint32_t bad = o->role == SG_ROLE_VALUE ? SG_KINDS_NOT_VALUE : o->role == SG_ROLE_LABEL ? SG_KINDS_NOT_LABEL : 0;
      if (s->ins->operands_n != 4 || o->kind != SG_KIND_IdRef || v - 1u >= bound - 1u ||
          (s->decl && ids[v].kind == SG_ID_RESERVED) || ((bad >> ids[v].kind) & 1u))
        return false;
    }
    const sg_enumerant *e = sg_find_enumerant_m(m, SG_KIND_StorageClass, ops[2]);
    if (!e || e->params_n) return false;
    sg_require_enum_item(m, s->fn, SG_KIND_StorageClass, e);
    s->type_pos = 0;
    s->result_pos = 1;
    return true;
  }
  case SpvOpName: {
    /* IdRef Target, a LiteralString that ends (its first word with a NUL byte) in the
     * last word. */
    if (n < 2 || ops[0] - 1u >= bound - 1u) return false;
    for (uint32_t i = 1; i < n; i++) {
      uint32_t x = ops[i];
      bool nul = !(x & 0xFF000000u) || !(x & 0xFF0000u) || !(x & 0xFF00u) || !(x & 0xFFu);
      if (nul != (i == n - 1)) return false;
    }
    return true;
  }
  default:
    return false;
  }
}

/* Step 3b, instructions whose operands are, one word each, ids and empty bit masks
 * (required or optional, none repeated: cooperative matrix loads and stores without
 * memory operands, MulAdds without operand flags...): accepted exactly when the grammar
 * walk's inline cases (walk.c walk_one; an empty bit mask walks to nothing) accept every
 * operand and no required operand is missing. false (nothing changed) sends the
 * instruction to the walk, which also produces the messages. */
static bool single_words_checked(sg_walk_state *s) {
  static const uint32_t role_bad[4] = {0, SG_KINDS_NOT_VALUE, SG_KINDS_NOT_LABEL, 0};
  const sg_instruction *ins = s->ins;
  const spvgen_module *m = s->m;
  uint32_t n = s->n, bound = m->bound, rp = UINT32_MAX, tp = UINT32_MAX;
  if (n > ins->operands_n) return false;
  const sg_operand *o = &sg_operands[ins->operands_off];
  const sg_id_info *ids = m->ids;
  for (uint32_t i = 0; i < ins->operands_n; i++) {
    if (i >= n) {
      if (o[i].quantifier == SG_Q_ONE) return false; /* missing: the walk says so */
      continue;
    }
    if (o[i].quantifier == SG_Q_MANY) return false;
    uint32_t v = s->w[i], k = o[i].kind;
    if (k == SG_KIND_IdRef) { /* IdScope and IdMemorySemantics: the walk checks them */
      if (!(v != 0 && v < bound && (!s->decl || ids[v].kind != SG_ID_RESERVED) &&
            !((role_bad[o[i].role & 3] >> ids[v].kind) & 1u)))
        return false;
    } else if (k == SG_KIND_IdResultType) {
      if (!(v != 0 && v < bound && ids[v].kind == SG_ID_TYPE)) return false;
      tp = i;
    } else if (k == SG_KIND_IdResult) {
      if (v != 0) return false;
      rp = i;
    } else if (!(v == 0 && sg_operand_kinds[k].category == SG_CAT_BITENUM)) {
      return false;
    }
  }
  s->result_pos = rp;
  s->type_pos = tp;
  s->pos = n;
  return true;
}

/* Step 3, the operands: required operands that are single ids (and any repeated tail of
 * ids) are checked inline; anything else, or any problem, goes through the grammar walk,
 * which produces the message. Fills s->result_pos and s->type_pos. */
static bool check_operands(sg_walk_state *s, uint32_t opcode) {
  spvgen_module *m = s->m;
  const sg_instruction *ins = s->ins;
  const uint32_t *ops = s->w;
  uint32_t n = s->n, nreq = ins->nreq;
  bool decl = s->decl, checked = false;
  if ((ins->flags & SG_INST_SIMPLE) && opcode != SpvOpSpecConstantOp &&
      (n == nreq || ((ins->flags & (SG_INST_ID_TAIL | SG_INST_LIT_TAIL)) && n > nreq))) {
    const sg_operand *o = &sg_operands[ins->operands_off];
    uint32_t tail_bad = ins->flags & SG_INST_VALUE_TAIL ? SG_KINDS_NOT_VALUE : 0;
    checked = true;
    for (uint32_t i = 0; i < n && checked; i++) {
      uint32_t v = ops[i];
      if (i >= nreq ? (ins->flags & SG_INST_LIT_TAIL) != 0 : (ins->lit_mask >> i) & 1) {
        checked = true; /* a one-word literal */
      } else if (i >= nreq) {
        checked = v != 0 && v < m->bound && (!decl || m->ids[v].kind != SG_ID_RESERVED) &&
                  !((tail_bad >> m->ids[v].kind) & 1u);
      } else if (o[i].kind == SG_KIND_IdResult) {
        s->result_pos = i;
        checked = v == 0 || (v < m->bound && m->ids[v].kind == SG_ID_RESERVED);
      } else {
        uint32_t bad = ((ins->value_mask >> i) & 1u) * SG_KINDS_NOT_VALUE |
                       ((ins->label_mask >> i) & 1u) * SG_KINDS_NOT_LABEL;
        checked = v != 0 && v < m->bound && (!decl || m->ids[v].kind != SG_ID_RESERVED) &&
                  !((bad >> m->ids[v].kind) & 1u);
        if (checked && o[i].kind == SG_KIND_IdResultType) {
          s->type_pos = i;
          checked = m->ids[v].kind == SG_ID_TYPE;
        }
      }
    }
    if (!checked) s->result_pos = s->type_pos = UINT32_MAX;
  }
  if (checked) return true;
  if (builder_decl_checked(s, opcode)) return true;
  if (opcode != SpvOpSpecConstantOp && single_words_checked(s)) return true;
  if (opcode == SpvOpSwitch && n >= 1) {
    const uint32_t *t = sg_def_words(m, sg_type_of(m, ops[0]));
    if (t && (t[0] & 0xFFFF) == SpvOpTypeInt && t[2] > 32) s->switch_literal_words = 2;
  }
  return sg_walk(s);
}

/* Where an instruction goes and what its id becomes (step 4). */
typedef struct placement {
  uint8_t section;  /* sg_section */
  uint8_t kind;     /* sg_id_kind of the result */
  uint8_t flags;    /* sg_type_flags of the result */
  bool dedupe, terminator;
  bool done;        /* handled completely: return `ret` */
  uint32_t ret;
} placement;

/* Step 4, placement: the section of the logical layout, by opcode (never by the
 * grammar's "class"), with the state rules of the special instructions (functions,
 * blocks, variables, imports). Capabilities and extensions are declarations here. */
SG_HOT placement place(spvgen_module *m, const char *fn, const sg_instruction *ins,
                       uint32_t opcode, const uint32_t *ops, uint32_t n, uint32_t type) {
  placement p = {SG_SEC_FUNCTIONS, type ? SG_ID_VALUE : SG_ID_OTHER, 0, false, false, false, 0};
#define PLACE_FAIL(st, ...) (p.done = true, p.ret = sg_fail(m, (st), fn, __VA_ARGS__), p)
  switch (ins->placement) {
  case SG_PLACE_TYPE:
    p.section = SG_SEC_GLOBALS;
    p.kind = SG_ID_TYPE;
    p.dedupe = dedupable_type(opcode);
    break;
  case SG_PLACE_CONSTANT:
    p.section = SG_SEC_GLOBALS;
    p.dedupe = true;
    p.flags = SG_TF_CONSTANT;
    break;
  case SG_PLACE_SPEC_CONSTANT:
    p.section = SG_SEC_GLOBALS;
    p.flags = SG_TF_SPEC_CONSTANT;
    break;
  case SG_PLACE_DEBUG_SOURCE: p.section = SG_SEC_DEBUG_SOURCE; break;
  case SG_PLACE_NAMES: p.section = SG_SEC_DEBUG_NAMES; break;
  case SG_PLACE_PROCESSED: p.section = SG_SEC_DEBUG_PROCESSED; break;
  case SG_PLACE_ANNOTATION: p.section = SG_SEC_ANNOTATIONS; break;
  case SG_PLACE_TERMINATOR: p.terminator = true; break;
  case SG_PLACE_SPECIAL:
    switch (opcode) {
    case SpvOpCapability: /* declared by the walk */
      p.done = true;
      p.ret = 1;
      return p;
    case SpvOpExtension: {
      char name[256];
      size_t len = n * 4 < sizeof name - 1 ? n * 4 : sizeof name - 1;
      memcpy(name, ops, len);
      name[len] = 0;
      sg_require_extension_name(m, name);
      p.done = true;
      p.ret = 1;
      return p;
    }
    case SpvOpMemoryModel: p.section = SG_SEC_MEMORY_MODEL; break;
    case SpvOpExtInstImport: {
      /* ops: result, NUL-terminated name (the walk checked it). */
      const char *name = (const char *)(ops + 1);
      if (!ext_inst_set_known(name))
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_ARGUMENT,
                          "OpExtInstImport: \"%.60s\" is not an extended instruction set a decoder "
                          "knows (GLSL.std.450, NonSemantic.*, ...): the module could not be read back",
                          name);
      p.section = SG_SEC_IMPORTS;
      p.dedupe = true;
      break;
    }
    case SpvOpEntryPoint: p.section = SG_SEC_ENTRY_POINTS; break;
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId: p.section = SG_SEC_EXECUTION_MODES; break;
    case SpvOpTypeForwardPointer:
      p.section = SG_SEC_GLOBALS;
      if (m->ids[ops[0]].kind == SG_ID_RESERVED) m->ids[ops[0]].flags |= SG_TF_FORWARD_POINTER;
      break;
    case SpvOpVariable:
      if (ops[2] == SpvStorageClassFunction) {
        if (!m->in_function)
          return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "a Function-storage variable outside a function");
        p.section = SG_SEC_FUNCTION_VARS;
      } else {
        p.section = SG_SEC_GLOBALS;
      }
      break;
    case SpvOpUndef:
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpExtInstWithForwardRefsKHR:
      p.section = m->in_function ? SG_SEC_FUNCTIONS : SG_SEC_GLOBALS;
      if (p.section == SG_SEC_FUNCTIONS && !m->block_open)
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "%s outside a block", ins->name);
      break;
    case SpvOpFunction:
      if (m->in_function)
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "OpFunction inside function %u (end it first)", m->current_function);
      p.kind = SG_ID_FUNCTION;
      break;
    case SpvOpFunctionParameter:
      if (!m->in_function || m->first_block_placed)
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "OpFunctionParameter must follow OpFunction, before the first block");
      break;
    case SpvOpLabel:
      if (!m->in_function)
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "a block outside a function");
      if (m->block_open)
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "block %u is not terminated yet", m->current_block);
      p.kind = SG_ID_LABEL;
      break;
    case SpvOpFunctionEnd:
      if (!m->in_function)
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "OpFunctionEnd outside a function");
      if (m->block_open)
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "block %u is not terminated", m->current_block);
      if (!m->first_block_placed)
        return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "function %u has no blocks", m->current_function);
      break;
    default:
      break;
    }
    break;
  default:
    break;
  }
  if (p.section == SG_SEC_FUNCTIONS && ins->placement != SG_PLACE_SPECIAL) {
    if (!m->in_function || !m->block_open)
      return PLACE_FAIL(SPVGEN_ERROR_INVALID_STATE, "%s: instruction outside a block%s", ins->name,
                        m->in_function ? " (the previous block was terminated; start a new one)" : " (no function is open)");
  }
#undef PLACE_FAIL
  return p;
}

/* Step 6, what an instruction changes besides its words: global variables join the
 * entry points' interface, OpFunction / OpLabel / OpFunctionEnd open and close functions
 * and blocks. false when that failed (the error recorded). */
SG_HOT bool apply_effects(spvgen_module *m, const char *fn, uint32_t opcode, uint8_t section,
                          uint32_t result, uint32_t type, size_t off) {
  switch (opcode) {
  case SpvOpVariable:
    if (section == SG_SEC_GLOBALS) {
      if (!sg_grow(&m->globals, &m->globals_cap, (size_t)m->globals_n + 1, sizeof *m->globals, 16, SIZE_MAX))
        return sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, fn, "out of memory");
      m->globals[m->globals_n++] = result;
    }
    break;
  case SpvOpFunction:
    m->in_function = true;
    m->first_block_placed = false;
    m->block_open = false;
    m->current_function = result;
    m->function_first_id = m->bound;
    m->function_return_type = type;
    m->function_start = off;
    m->sec[SG_SEC_FUNCTION_VARS].len = 0;
    break;
  case SpvOpLabel:
    m->block_open = true;
    m->current_block = result;
    if (!m->first_block_placed) {
      m->first_block_placed = true;
      m->first_block_end = m->sec[section].len;
    }
    break;
  case SpvOpFunctionEnd:
    close_function(m);
    break;
  default:
    break;
  }
  return true;
}

/* The general path, in its steps: fast paths (1, 2), operands (3), requirements, placement
 * (4), widths and type capabilities, deduplication and the words (5), effects (6). */
uint32_t sg_inst(spvgen_module *m, const char *fn, uint32_t opcode, const uint32_t *ops, uint32_t n) {
  if (!m || m->status != SPVGEN_OK || m->finished) return sg_ok(m, fn) ? 0 : 0;
  uint16_t ins_index = opcode <= sg_max_opcode ? sg_opcode_index[opcode] : 0; /* sg_find_instruction */
  if (!ins_index) return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "unknown opcode %u", opcode);
  const sg_instruction *ins = &sg_instructions[ins_index - 1];
  if (n >= 0xFFFF)
    return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "%s: %u operand words is over the 65534 limit", ins->name, n);
  if (n && !ops) return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "%s: operands are NULL", ins->name);

  /* The one read-only check, for every instruction that writes memory through a
   * pointer (helpers.c: sg_check_writable). */
  if (ins->flags & SG_INST_WATCHED) {
    if (opcode == SpvOpFunctionCall) m->has_calls = true;
    if (ins->write_at) {
      m->wrote = true;
      if (n >= ins->write_at && !sg_check_writable(m, fn, ops[ins->write_at - 1])) return 0;
    }
  }
  uint32_t ret;
  if (body_fast_path(m, fn, ins, opcode, ops, n, &ret)) return ret;
  /* Step 5's key when step 2 already looked it up and missed (the table does not change
   * in between: the operand checks and the inference declare no types or constants). */
  uint32_t keybuf[64], seen_len = 0, seen_hash = 0, seen_rpos = UINT32_MAX;
  uint32_t seen = declaration_seen(m, ins, opcode, ops, n, keybuf, &seen_len, &seen_hash, &seen_rpos);
  if (seen) return seen;

  bool decl = ins->placement == SG_PLACE_TYPE || ins->placement == SG_PLACE_CONSTANT ||
              ins->placement == SG_PLACE_SPEC_CONSTANT;
  sg_walk_state s = {m, fn, ins, ops, n, 0, UINT32_MAX, UINT32_MAX, 1, decl};
  if (!check_operands(&s, opcode)) return 0;
  if (!(ins->flags & SG_INST_NOREQ)) {
    /* Requirements already applied in this module (infer.c's memo) change nothing. */
    if (requirements_done(m, ins)) {
      if (m->status != SPVGEN_OK) return 0;
    } else if (!sg_require_instruction(m, fn, ins)) {
      return 0;
    }
  }

  uint32_t result = s.result_pos != UINT32_MAX ? ops[s.result_pos] : 0;
  uint32_t type = s.type_pos != UINT32_MAX ? ops[s.type_pos] : 0;
  placement p = place(m, fn, ins, opcode, ops, n, type);
  if (p.done) return p.ret;

  if ((opcode == SpvOpTypeInt || opcode == SpvOpTypeFloat) && !sg_scalar_width_ok(m, fn, opcode, ops, n))
    return 0;
  if (ins->placement == SG_PLACE_TYPE) p.flags = sg_infer_type(m, opcode, ops, n);
  if (m->status != SPVGEN_OK) return 0;

  /* Step 5. Hash-consing: key = opcode + every operand word except the result id. */
  uint32_t *key = NULL, keylen = 0, hash = 0;
  /* Only new declarations are deduplicated: an explicit (reserved) result id asks for
   * this exact declaration (strided arrays, forward-declared types). */
  bool explicit_id = s.result_pos != UINT32_MAX && ops[s.result_pos] != 0;
  bool may_duplicate = opcode == SpvOpTypeArray || opcode == SpvOpTypeRuntimeArray ||
                       opcode == SpvOpTypePointer || ins->placement != SG_PLACE_TYPE;
  if (p.dedupe && s.result_pos != UINT32_MAX && !explicit_id && seen_len && s.result_pos == seen_rpos) {
    key = keybuf, keylen = seen_len, hash = seen_hash; /* step 2's key, known missing */
  } else if (p.dedupe && s.result_pos != UINT32_MAX && (!explicit_id || !may_duplicate)) {
    key = n + 1 <= 64 ? keybuf : malloc((n + 1) * sizeof *key);
    if (!key) return sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, fn, "out of memory");
    key[keylen++] = opcode;
    for (uint32_t i = 0; i < n; i++)
      if (i != s.result_pos) key[keylen++] = ops[i];
    hash = hash_words(key, keylen);
    uint32_t hit = table_find(m, key, keylen, hash);
    if (hit) {
      if (key != keybuf) free(key);
      if (explicit_id)
        return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                       "%s: the same type already exists as id %u (SPIR-V forbids duplicate non-aggregate types); use that id",
                       ins->name, hit);
      return hit;
    }
  }
  if (s.result_pos != UINT32_MAX && !result) result = sg_new_id(m, fn);
  sg_words *b = &m->sec[p.section];
  size_t off = b->len;
  uint32_t *w = m->status == SPVGEN_OK ? sg_words_push(m, b, n + 1) : NULL;
  if (!w) {
    if (key && key != keybuf) free(key);
    return 0;
  }
  w[0] = ((n + 1) << 16) | opcode;
  if (n) memcpy(w + 1, ops, n * sizeof *ops);
  if (s.result_pos != UINT32_MAX) w[1 + s.result_pos] = result;

  if (result) record(m, result, p.kind, type, opcode, p.section, off, p.flags);
  if (key) {
    table_insert(m, key, keylen, hash, result);
    if (key != keybuf) free(key);
  }

  if (!apply_effects(m, fn, opcode, p.section, result, type, off)) return 0;
  if (p.terminator) m->block_open = false;
  return result ? result : 1;
}

/* Moves the function's OpVariables to the start of its first block. */
static void close_function(spvgen_module *m) {
  sg_words *vars = &m->sec[SG_SEC_FUNCTION_VARS];
  sg_words *f = &m->sec[SG_SEC_FUNCTIONS];
  if (vars->len) {
    size_t at = m->first_block_end, nv = vars->len;
    if (sg_words_grow(m, f, nv)) {
      memmove(f->data + at + nv, f->data + at, (f->len - at) * sizeof *f->data);
      memcpy(f->data + at, vars->data, nv * sizeof *f->data);
      f->len += nv;
      /* Ids defined after `at` moved; so did the variables. */
      /* Ids defined after `at` moved. Only ids allocated inside this function can be
       * defined in it, except forward-reserved ones (labels, functions) whose words
       * nothing reads back; so the scan starts at the function's first id. */
      for (uint32_t id = m->function_first_id; id < m->bound; id++) {
        sg_id_info *i = &m->ids[id];
        if (i->kind <= SG_ID_RESERVED) continue;
        if (i->section == SG_SEC_FUNCTIONS && i->def_off >= at)
          i->def_off += (uint32_t)nv;
        else if (i->section == SG_SEC_FUNCTION_VARS) {
          i->section = SG_SEC_FUNCTIONS;
          i->def_off += (uint32_t)at;
        }
      }
    }
    vars->len = 0;
  }
  m->in_function = false;
  m->block_open = false;
  m->current_function = 0;
  m->current_block = 0;
}

/* ------------------------------------------------------------ the packer ---- */

bool sg_pack_begin(spvgen_module *m, sg_packer *p, const char *fn) {
  p->m = m;
  p->fn = fn;
  p->result_pos = UINT32_MAX;
  p->overflow = false;
  if (!sg_ok(m, fn)) return false;
  m->scratch.len = 0;
  return true;
}

void sg_pack_word(sg_packer *p, uint32_t w) {
  uint32_t *d = sg_words_push(p->m, &p->m->scratch, 1);
  if (d) *d = w;
}

void sg_pack_words(sg_packer *p, const uint32_t *w, uint32_t n) {
  if (!n) return;
  if (!w) {
    sg_fail(p->m, SPVGEN_ERROR_INVALID_ARGUMENT, p->fn, "an operand array is NULL with count %u", n);
    return;
  }
  uint32_t *d = sg_words_push(p->m, &p->m->scratch, n);
  if (d) memcpy(d, w, n * sizeof *w);
}

void sg_pack_string(sg_packer *p, const char *s) {
  if (!s) s = "";
  size_t len = strlen(s), nw = len / 4 + 1;
  uint32_t *d = sg_words_push(p->m, &p->m->scratch, nw);
  if (!d) return;
  memset(d, 0, nw * 4);
  memcpy(d, s, len);
}

void sg_pack_result(sg_packer *p) {
  p->result_pos = (uint32_t)p->m->scratch.len;
  sg_pack_word(p, 0);
}

uint32_t sg_pack_end(sg_packer *p, uint32_t opcode) {
  spvgen_module *m = p->m;
  if (m->status != SPVGEN_OK) return 0;
  /* sg_inst may not touch scratch; it copies the words. */
  return sg_inst(m, p->fn, opcode, m->scratch.data, (uint32_t)m->scratch.len);
}

