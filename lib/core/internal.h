/* lib/core/internal.h — the builder's internals, shared by every file of lib/core and the
 * generated emitters and tables (gen/). Not public. Who owns what:
 *   module.c    a module's life (create, reset, destroy, finish), status and message,
 *               ids, and sg_grow, the one array-growth helper
 *   inst.c      the instruction path: sg_inst, placement, hash-consing, the packer
 *   walk.c      grammar table lookups and the grammar walk of an instruction's operands
 *   infer.c     capability / extension / version inference and spvgen_capability
 *   error.c     the one error formatter (error_private.h; lib/check, lib/vk and
 *               emitters/ use it too)
 *   types.c, decl.c, function.c, helpers.c, coop*.c: the hand-written API on sg_inst
 *               (api_internal.h is their shared part) */
#ifndef SPVGEN_CORE_INTERNAL_H
#define SPVGEN_CORE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "error_private.h" /* the one error formatter */
#include "spvgen/builder.h"
#include "spvgen/caps.h"

/* ---- grammar tables (generated) ---- */
enum { SG_CAT_BITENUM = 1, SG_CAT_VALUEENUM = 2, SG_CAT_ID = 3, SG_CAT_LITERAL = 4,
       SG_CAT_COMPOSITE = 5 };
enum { SG_Q_ONE = 0, SG_Q_OPTIONAL = 1, SG_Q_MANY = 2 };
/* The few helpers of the instruction path that must be inlined whatever the link-time
 * optimiser's unit-growth budget says (it stops inlining them when unrelated code grows,
 * which costs every row of bench_emit_count a few percent). */
#if defined(__GNUC__)
#define SG_HOT static inline __attribute__((always_inline))
#else
#define SG_HOT static inline
#endif

#define SG_NO_VERSION 0xFFFFu /* only through an extension */

typedef struct sg_enumerant {
  uint32_t value;
  uint16_t caps_off, caps_n;
  uint16_t exts_off, exts_n;
  uint16_t params_off, params_n; /* operand kinds of the parameters */
  uint16_t version;              /* (major << 8) | minor, or SG_NO_VERSION */
  const char *name;
} sg_enumerant;

typedef struct sg_operand_kind {
  const char *name;
  uint8_t category;
  uint32_t first, count; /* enumerants, sorted by value */
} sg_operand_kind;

/* What kind of id an id operand of a function-body or terminator instruction takes
 * (chosen by tools/gen_grammar.py from the operand's name; ANY elsewhere). A reserved,
 * not yet defined id is accepted in every role (a forward reference). */
enum { SG_ROLE_ANY = 0, SG_ROLE_VALUE = 1, SG_ROLE_LABEL = 2 };

typedef struct sg_operand {
  uint16_t kind;
  uint8_t quantifier;
  uint8_t role;      /* SG_ROLE_* */
  const char *name;
} sg_operand;

enum { SG_PLACE_BODY, SG_PLACE_TYPE, SG_PLACE_CONSTANT, SG_PLACE_SPEC_CONSTANT,
       SG_PLACE_DEBUG_SOURCE, SG_PLACE_NAMES, SG_PLACE_PROCESSED, SG_PLACE_ANNOTATION,
       SG_PLACE_SPECIAL, SG_PLACE_TERMINATOR };

enum {
  /* The required operands (all before the first optional or repeated one) are single
   * IdResultType / IdResult / IdRef operands or one-word literals (lit_mask). */
  SG_INST_SIMPLE = 1,
  SG_INST_NOREQ = 2,   /* needs no capability, extension or version */
  SG_INST_ID_TAIL = 4, /* the only non-required operand is a repeated IdRef */
  SG_INST_LIT_TAIL = 8, /* the only non-required operand is a repeated LiteralInteger */
  SG_INST_VALUE_TAIL = 16, /* SG_INST_SIMPLE and the repeated IdRef tail are values */
  SG_INST_WATCHED = 32, /* writes memory (write_at) or is OpFunctionCall: the read-only check */
};

typedef struct sg_instruction {
  uint16_t opcode;
  uint8_t has_type, has_result;
  uint8_t placement; /* SG_PLACE_*, chosen by opcode */
  uint8_t flags;     /* SG_INST_* */
  uint8_t nreq;      /* operands before the first optional or repeated one */
  uint8_t write_at;  /* 1 + the operand whose pointee it writes (OpStore, atomics,
                        cooperative stores...: tools/gen_grammar.py WRITES); 0: none */
  uint16_t lit_mask; /* which of those are one-word literals (the rest are ids) */
  /* SG_INST_SIMPLE only, over the required operands: which are values (SG_ROLE_VALUE),
   * which labels (SG_ROLE_LABEL), which other ids (SG_ROLE_ANY, the result type and the
   * result excepted); the inline checks test them without walking sg_operands. */
  uint16_t value_mask, label_mask, any_mask;
  uint16_t operands_off, operands_n;
  uint16_t caps_off, caps_n;
  uint16_t exts_off, exts_n;
  uint16_t version;
  const char *name;
} sg_instruction;

extern const char *const sg_extension_names[];
extern const uint32_t sg_extension_count;
extern const uint16_t sg_cap_pool[];
extern const uint16_t sg_ext_pool[];
extern const uint16_t sg_param_pool[];
extern const sg_enumerant sg_enumerants[];
extern const sg_operand_kind sg_operand_kinds[];
extern const uint32_t sg_operand_kind_count;
extern const sg_operand sg_operands[];
extern const sg_instruction sg_instructions[];
extern const uint32_t sg_instruction_count;
extern const uint32_t sg_max_opcode;
extern const uint16_t sg_opcode_index[];
extern const uint32_t sg_capability_count;
#include "gen/sg_kinds.h" /* generated: SG_KIND_* operand kind indices */

const sg_instruction *sg_find_instruction(uint32_t opcode);
const sg_enumerant *sg_find_enumerant(uint32_t kind, uint32_t value);
/* sg_find_enumerant through the module's memo (m->enum_memo): sg_find_enumerant_m, below
 * the module; this is its miss path (walk.c). */
const sg_enumerant *sg_find_enumerant_m_slow(spvgen_module *m, uint32_t kind, uint32_t value);
/* Name of an enumerant of a kind, or NULL. */
const char *sg_enumerant_name(uint32_t kind, uint32_t value);

/* ---- module ---- */
typedef struct sg_words {
  uint32_t *data;
  size_t len, cap;
} sg_words;

enum sg_section {
  SG_SEC_CAPABILITIES,
  SG_SEC_EXTENSIONS,
  SG_SEC_IMPORTS,
  SG_SEC_MEMORY_MODEL,
  SG_SEC_ENTRY_POINTS,
  SG_SEC_EXECUTION_MODES,
  SG_SEC_DEBUG_SOURCE,   /* OpString, OpSource* */
  SG_SEC_DEBUG_NAMES,    /* OpName, OpMemberName */
  SG_SEC_DEBUG_PROCESSED,
  SG_SEC_ANNOTATIONS,
  SG_SEC_GLOBALS,        /* types, constants, global variables, global OpUndef */
  SG_SEC_FUNCTIONS,
  SG_SEC_COUNT,
  SG_SEC_FUNCTION_VARS = SG_SEC_COUNT, /* scratch: current function's OpVariables */
  SG_SEC_ALL
};

enum sg_id_kind {
  SG_ID_FREE = 0,     /* never allocated */
  SG_ID_RESERVED = 1, /* allocated, not yet defined (forward reference) */
  SG_ID_TYPE = 2,
  SG_ID_VALUE = 3,    /* constants, variables, instruction results, parameters */
  SG_ID_LABEL = 4,
  SG_ID_FUNCTION = 5,
  SG_ID_OTHER = 6,    /* ext-inst imports, strings, decoration groups */
};

enum sg_type_flags {
  SG_TF_HAS_8BIT = 1u << 0,
  SG_TF_HAS_16BIT = 1u << 1,
  SG_TF_CONSTANT = 1u << 2,      /* a non-spec constant */
  SG_TF_SPEC_CONSTANT = 1u << 3,
  SG_TF_FORWARD_POINTER = 1u << 4, /* a reserved id named by OpTypeForwardPointer */
};

/* The id kinds that an operand of a role rejects, as bit sets over sg_id_kind. A value
 * operand rejects types, labels and functions (ext-inst imports, strings and the like
 * stay accepted); a label operand takes only labels (and reserved ids). */
#define SG_KINDS_NOT_VALUE ((1u << SG_ID_TYPE) | (1u << SG_ID_LABEL) | (1u << SG_ID_FUNCTION))
#define SG_KINDS_NOT_LABEL \
  ((1u << SG_ID_TYPE) | (1u << SG_ID_VALUE) | (1u << SG_ID_FUNCTION) | (1u << SG_ID_OTHER))

typedef struct sg_id_info {
  uint32_t type;        /* result type of a value */
  uint32_t def_off;     /* offset of the defining instruction in its section */
  uint16_t opcode;      /* defining opcode */
  uint8_t kind;         /* sg_id_kind */
  uint8_t section;      /* sg_section of the definition */
  uint8_t flags;        /* sg_type_flags */
} sg_id_info;

typedef struct sg_hash_entry {
  uint32_t hash;
  uint32_t id;         /* 0: empty */
  uint32_t key_off;
  uint16_t key_len;
  uint16_t gen;        /* entries of an older generation (before a reset) are empty */
} sg_hash_entry;

typedef struct sg_cf_frame {
  uint8_t kind;        /* 1 if, 2 loop */
  uint8_t has_else;
  uint8_t has_while;
  uint8_t in_continue;
  uint32_t merge, else_label, continue_label, header;
  size_t else_patch;   /* offset in the functions section of the false-target word */
} sg_cf_frame;

typedef struct sg_entry {
  uint32_t model, function;
  uint32_t name_off;      /* in the strings arena */
  uint32_t iface_off, iface_n; /* in the key arena; iface_n == SPVGEN_ABSENT: all */
} sg_entry;

#define SG_REQ_MEMO_INS 1024  /* bits; instructions past it are not memoised */
#define SG_REQ_MEMO_ENUM 2048 /* bits; enumerants past it are not memoised */
#define SG_DECL_MEMO 512      /* entries of decl_memo (a power of two) */
#define SG_ENUM_MEMO 256      /* entries of enum_memo (a power of two) */
typedef struct sg_decl_memo_entry {
  uint32_t tag, a, b, c, id, gen;
} sg_decl_memo_entry;
typedef struct sg_enum_memo_entry {
  uint32_t kind, value, idx;
} sg_enum_memo_entry;

struct spvgen_module {
  spvgen_status status;
  char error[512];
  bool finished;
  bool nonwritable_marked; /* some id was decorated NonWritable (sg_mark_nonwritable) */
  bool wrote;              /* an instruction that writes memory was emitted */
  bool recheck_writes;     /* a NonWritable mark came after a write: finish checks them all */
  bool has_calls;          /* an OpFunctionCall was emitted: finish follows parameters */

  uint32_t version, addressing, memory_model, generator;
  bool emit_memory_model;
  uint32_t min_version;

  sg_words sec[SG_SEC_ALL];
  sg_words out;        /* joined words after finish */
  sg_words scratch;    /* packer */
  sg_words arena;      /* hash keys, interface lists */

  sg_id_info *ids;
  uint32_t bound;      /* next id */
  uint32_t undefined;  /* ids reserved and not yet defined */
  uint32_t function_first_id; /* first id allocated after the current OpFunction */
  size_t ids_cap;

  sg_hash_entry *table;
  uint32_t table_cap, table_count;
  uint16_t table_gen;  /* bumped by reset instead of clearing the table */

  uint8_t cap_declared[1024];  /* bitsets over capability values < 8192 */
  uint8_t cap_available[1024];
  uint8_t *ext_declared;       /* one byte per known extension */
  char **other_exts;           /* extensions the grammar does not know */
  uint32_t other_ext_n;
  size_t other_ext_cap;

  uint32_t glsl_set;

  /* Memo of the most asked-for declarations (cleared by reset): scalar types by
   * [kind][width class], and u32 constants 0..63. Saves the table lookups. */
  uint32_t memo_scalar[3][4]; /* [0 uint, 1 sint, 2 float][8,16,32,64] */
  uint32_t memo_bool, memo_void;
  uint32_t memo_u32[64];
  /* Requirements already applied in this module (cleared by reset), one bit per
   * instruction (index in sg_instructions) and per enumerant (index in sg_enumerants):
   * applying them again changes nothing (capabilities, extensions and the minimum
   * version only grow until reset, and the target version is fixed), so sg_inst and the
   * operand walk skip the inference the second time. */
  uint8_t req_done_ins[SG_REQ_MEMO_INS / 8];
  uint8_t req_done_enum[SG_REQ_MEMO_ENUM / 8];
  /* Memo of spvgen_coop_type_query for the builder's own checks (coop.c), by type id
   * (cleared by reset: a defined type id never changes until then). type 0: empty;
   * info: a spvgen_coop_type_info (spvgen/coop.h), as words. */
  struct {
    uint32_t type;
    uint32_t info[12];
  } coop_memo[8];

  /* Memo of the declarations the hand-written API asks for again and again (types.c:
   * scalar constants by type and bits, pointer types by storage class and pointee):
   * direct-mapped by a hash of (tag, a, b, c); an entry counts only with a non-zero id
   * and the current generation (reset bumps it). Filled only by successful answers. */
  sg_decl_memo_entry decl_memo[SG_DECL_MEMO];
  uint32_t decl_memo_gen;
  /* Memo of sg_find_enumerant (walk.c) for this module's lookups: the grammar tables are
   * constant, so entries stay valid across resets. idx: index in sg_enumerants + 1 (0:
   * empty). */
  sg_enum_memo_entry enum_memo[SG_ENUM_MEMO];

  /* globals to list in entry-point interfaces */
  uint32_t *globals;
  uint32_t globals_n;
  size_t globals_cap;
  sg_entry *entries;
  uint32_t entries_n;
  size_t entries_cap;
  char *strings;
  size_t strings_len, strings_cap;

  /* function state */
  bool in_function;
  bool block_open;
  bool first_block_placed;
  uint32_t current_function, current_block, function_return_type;
  size_t function_start;     /* offset in SG_SEC_FUNCTIONS */
  size_t first_block_end;    /* offset just after the first OpLabel */
  sg_cf_frame *cf;
  uint32_t cf_n;
  size_t cf_cap;

  /* The public function being called, while it calls other public functions (NULL:
   * none): errors name it rather than the inner call (sg_api_enter). */
  const char *api_fn;
};

/* SPIRV-Tools' kDefaultMaxIdBound: a module's id bound may be at most 0x3FFFFF (its
 * largest id 0x3FFFFE); spirv-val refuses anything larger. */
#define SG_ID_BOUND_MAX 0x3FFFFFu
/* The most words one instruction can have: its word count is 16 bits. */
#define SG_INSTRUCTION_WORDS_MAX 0xFFFFu

/* A public function that implements itself with other public functions brackets the
 * calls: errors recorded in between are named after it (the outermost one).
 *   const char *outer = sg_api_enter(m, __func__); ...; sg_api_leave(m, outer); */
static inline const char *sg_api_enter(spvgen_module *m, const char *fn) {
  if (!m) return NULL;
  const char *outer = m->api_fn;
  if (!outer) m->api_fn = fn;
  return outer;
}
static inline void sg_api_leave(spvgen_module *m, const char *outer) {
  if (m) m->api_fn = outer;
}

/* ---- growth, word buffers, ids (module.c) ---- */
/* The one array-growth helper of lib/core: makes room for `need` elements of `size` bytes
 * in the array whose pointer is at `array` (a T **) with capacity *cap (in elements),
 * doubling from `first`, never beyond `max` elements. false, with the array unchanged,
 * when that fails; the caller records the error. */
bool sg_grow(void *array, size_t *cap, size_t need, size_t size, size_t first, size_t max);
/* Room for `need` more words in b (false, and SPVGEN_ERROR_OUT_OF_MEMORY recorded, when
 * there is none); sg_words_push also takes them and returns where they start. */
bool sg_words_grow_slow(spvgen_module *m, sg_words *b, size_t need);
SG_HOT bool sg_words_grow(spvgen_module *m, sg_words *b, size_t need) {
  return b->len + need <= b->cap || sg_words_grow_slow(m, b, need);
}
SG_HOT uint32_t *sg_words_push(spvgen_module *m, sg_words *b, size_t n) {
  if (!sg_words_grow(m, b, n)) return NULL;
  uint32_t *p = b->data + b->len;
  b->len += n;
  return p;
}
/* A new reserved id (0 and an error under fn when the id bound is reached). */
uint32_t sg_new_id_slow(spvgen_module *m, const char *fn);
SG_HOT uint32_t sg_new_id(spvgen_module *m, const char *fn) {
  if (m->bound < m->ids_cap) {
    uint32_t id = m->bound++;
    memset(&m->ids[id], 0, sizeof m->ids[id]);
    m->ids[id].kind = SG_ID_RESERVED;
    m->undefined++;
    return id;
  }
  return sg_new_id_slow(m, fn);
}

/* ---- error helpers ---- */
/* Records the module's sticky error (the first one wins): "<fn>: <text>", fn replaced by
 * the outermost public function in progress (sg_api_enter). Returns 0 (no id). */
uint32_t sg_fail(spvgen_module *m, spvgen_status status, const char *fn, const char *fmt, ...)
    SG_PRINTF(4, 5);
/* false (and records "finished" as an error) when the module is unusable. */
bool sg_ok_slow(spvgen_module *m, const char *fn);

/* ---- generic instruction path ----
 * sg_inst: checks words against the grammar, infers capabilities, allocates the result
 * id (when the result word is 0), deduplicates types/constants, places the instruction
 * in its section and records the id. Returns the result id (or 1 for no-result
 * instructions that succeeded), 0 on error. */
uint32_t sg_inst(spvgen_module *m, const char *fn, uint32_t opcode, const uint32_t *ops,
                 uint32_t n);

/* Packer used by the generated emitters: operands collected in m->scratch. */
typedef struct sg_packer {
  spvgen_module *m;
  const char *fn;
  uint32_t result_pos; /* operand index of the result id, or UINT32_MAX */
  bool overflow;
} sg_packer;

bool sg_pack_begin(spvgen_module *m, sg_packer *p, const char *fn);
void sg_pack_word(sg_packer *p, uint32_t w);
void sg_pack_words(sg_packer *p, const uint32_t *w, uint32_t n);
void sg_pack_string(sg_packer *p, const char *s);
void sg_pack_result(sg_packer *p);
uint32_t sg_pack_end(sg_packer *p, uint32_t opcode);

/* ---- the grammar walk (walk.c) ---- */
typedef struct sg_walk_state {
  spvgen_module *m;
  const char *fn;
  const sg_instruction *ins;
  const uint32_t *w;
  uint32_t n, pos;
  uint32_t result_pos, type_pos;
  uint32_t switch_literal_words; /* OpSwitch: words per case literal (selector width) */
  bool decl; /* a type or constant declaration: its ids must be declared already */
} sg_walk_state;
/* Walks s->ins's operands over s->w[0 .. s->n): false (the error recorded) when they do
 * not match the grammar; fills result_pos and type_pos. */
bool sg_walk(sg_walk_state *s);
/* Index of a grammar extension name in sg_extension_names, or -1. */
int sg_extension_index(const char *name);

/* ---- inference (infer.c) ---- */
/* Capability/extension plumbing (coop.c uses it for encodings the grammar may lack). */
void sg_require_capability(spvgen_module *m, uint32_t cap);
void sg_require_extension_name(spvgen_module *m, const char *name);
/* Declares what an item requires: one of caps (unless one is available), one of exts
 * (unless the version has it in core), the version. kind_name: the enumerant's operand
 * kind (NULL for an instruction), what: its name, for messages. */
void sg_require_item(spvgen_module *m, const char *fn, const char *kind_name, const char *what,
                     const uint16_t *caps, uint32_t ncaps, const uint16_t *exts, uint32_t nexts,
                     uint32_t version);
/* Forgets a declared capability and what it implied (reset). */
void sg_clear_available(spvgen_module *m, uint32_t cap);
/* A type's capabilities the grammar cannot express (widths, small types behind buffer
 * pointers, FP encodings); returns its SG_TF_HAS_* flags. */
uint8_t sg_infer_type(spvgen_module *m, uint32_t opcode, const uint32_t *ops, uint32_t n);
/* OpTypeInt / OpTypeFloat widths a Vulkan module can have (false: error recorded). */
bool sg_scalar_width_ok(spvgen_module *m, const char *fn, uint32_t opcode, const uint32_t *ops,
                        uint32_t n);
/* The Vulkan capability table's entry (vk_capabilities.c) and a capability's name (the
 * grammar's, else the table's); spvgen_vk_capability_find / spvgen_capability_name are
 * the public faces. */
const spvgen_vk_capability *sg_vk_capability_find(uint32_t capability);
const char *sg_capability_name(uint32_t capability);

/* The dedupe table, for keys that are not instructions (tags with the high bit set). */
uint32_t sg_table_lookup(spvgen_module *m, const uint32_t *key, uint32_t n, uint32_t hash);
void sg_table_add(spvgen_module *m, const uint32_t *key, uint32_t n, uint32_t hash, uint32_t id);

/* Structured control flow's shortcuts around the walk (inst.c). */
bool sg_append_body(spvgen_module *m, uint32_t opcode, const uint32_t *ops, uint32_t n);
uint32_t sg_place_label(spvgen_module *m, uint32_t label);
bool sg_append(spvgen_module *m, uint32_t section, uint32_t opcode, const uint32_t *ops, uint32_t n);
/* Finds an enumerant and applies what it requires (capabilities, extensions, version);
 * NULL when unknown or when that failed. */
/* sg_require_item for an enumerant of a kind, memoised per module. */
void sg_require_enum_item_slow(spvgen_module *m, const char *fn, uint32_t kind, const sg_enumerant *e);
SG_HOT void sg_require_enum_item(spvgen_module *m, const char *fn, uint32_t kind, const sg_enumerant *e) {
  size_t i = (size_t)(e - sg_enumerants); /* applied already (the memo): nothing to do */
  if (i < SG_REQ_MEMO_ENUM && ((m->req_done_enum[i >> 3] >> (i & 7)) & 1u)) return;
  sg_require_enum_item_slow(m, fn, kind, e);
}
SG_HOT const sg_enumerant *sg_find_enumerant_m(spvgen_module *m, uint32_t kind, uint32_t value) {
  uint32_t h = (kind * 0x9E3779B1u) ^ (value * 0x85EBCA77u);
  const sg_enum_memo_entry *c = &m->enum_memo[(h ^ (h >> 16)) & (SG_ENUM_MEMO - 1)];
  if (c->idx && c->kind == kind && c->value == value) return &sg_enumerants[c->idx - 1];
  return sg_find_enumerant_m_slow(m, kind, value);
}
const sg_enumerant *sg_require_enumerant(spvgen_module *m, const char *fn, uint32_t kind,
                                         uint32_t value);
/* Applies what an instruction requires (capabilities, extensions, version); false when
 * that failed (the module's error says why). */
bool sg_require_instruction(spvgen_module *m, const char *fn, const sg_instruction *ins);

/* Id queries. */
SG_HOT const sg_id_info *sg_id(const spvgen_module *m, uint32_t id) {
  return (id != 0 && id < m->bound) ? &m->ids[id] : NULL;
}
/* The result type of a value id (0 for anything else). */
static inline uint32_t sg_type_of(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = sg_id(m, id);
  return (i && i->kind == SG_ID_VALUE) ? i->type : 0;
}
/* The value of a (non-spec) scalar constant, as spvgen_const_value (types.c). */
bool sg_const_value(const spvgen_module *m, uint32_t id, uint64_t *bits);
/* Pointer to the words of the instruction that defined id (NULL if none). */
SG_HOT const uint32_t *sg_def_words(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = sg_id(m, id);
  if (!i || i->kind <= SG_ID_RESERVED || i->section >= SG_SEC_ALL) return NULL;
  const sg_words *b = &m->sec[i->section];
  if (i->def_off >= b->len) return NULL;
  return b->data + i->def_off;
}

/* Walks the instructions of one section: the next one with `opcode` at or after *pos
 * (a word offset, start at 0), or NULL at the end; *pos moves past it. Word counts are
 * the builder's own, so a 0 count (never written) only ends the walk. */
static inline const uint32_t *sg_next_inst(const spvgen_module *m, int section, uint32_t opcode,
                                           size_t *pos) {
  const sg_words *b = &m->sec[section];
  while (*pos < b->len) {
    const uint32_t *w = b->data + *pos;
    uint32_t len = w[0] >> 16;
    if (!len) break;
    *pos += len;
    if ((w[0] & 0xFFFF) == opcode) return w;
  }
  return NULL;
}

static inline bool sg_ok(spvgen_module *m, const char *fn) {
  if (m && m->status == SPVGEN_OK && !m->finished) return true;
  return sg_ok_slow(m, fn);
}

/* ---- shared by the hand-written API (types.c, decl.c, helpers.c) ---- */
/* std430 size and alignment of a type with an explicit layout (types.c). */
bool sg_std430(const spvgen_module *m, uint32_t type, uint64_t *size, uint64_t *align);
/* An id flag outside enum sg_type_flags' range: the id (a variable, or a struct with a
 * member) was decorated NonWritable through spvgen_decorate* / spvgen_member_decorate*.
 * Lets the store helpers skip the annotation scan for every other buffer. */
#define SG_TF_NONWRITABLE 0x80u
static inline void sg_mark_nonwritable(spvgen_module *m, uint32_t id) {
  if (m->status == SPVGEN_OK && id && id < m->bound) {
    m->ids[id].flags |= SG_TF_NONWRITABLE;
    m->nonwritable_marked = true;
    if (m->wrote) m->recheck_writes = true;
  }
}
/* false (with an error naming fn) when pointer may lead (through access chains, copies,
 * bitcasts, selects and phis, with no hop limit) to a variable or buffer member decorated
 * NonWritable (helpers.c). sg_inst calls it for every instruction that writes memory. */
bool sg_check_writable(spvgen_module *m, const char *fn, uint32_t pointer);
/* The same for every write in the module's functions, and for the pointers calls pass to
 * parameters their function writes through (helpers.c; spvgen_module_finish). */
bool sg_check_writes_at_finish(spvgen_module *m);
/* The pointee an access chain from base through indices reaches, and the base's storage
 * class. 1: found; 0: an error was recorded under fn; -1: unknown (forward references),
 * left to the validator (helpers.c). */
int sg_access_pointee(spvgen_module *m, const char *fn, uint32_t base, const uint32_t *indices,
                      uint32_t count, uint32_t *storage, uint32_t *pointee);

/* ---- the declaration memo (m->decl_memo) ---- */
/* Tags besides opcodes (which are below 0x10000): helpers whose answer, for the same
 * arguments in the same module, is the same deduplicated declaration. */
#define SG_MEMO_COOPMAT 0x10000u   /* | scope << 4 | use: (component, rows, columns) */
#define SG_MEMO_COOPVEC 0x20001u   /* (component, count) */
#define SG_MEMO_SPLAT 0x20002u     /* (type, constant scalar) */
#define SG_MEMO_SPLAT_F 0x20003u   /* (type, double bits low, high) */
#define SG_MEMO_CONST_F 0x20004u   /* (type, double bits low, high) */
#define SG_MEMO_TENSOR_LAYOUT 0x20005u /* (dim, clamp mode) */
static inline uint32_t sg_decl_memo_slot(uint32_t tag, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t h = tag * 0x9E3779B1u ^ a * 0x85EBCA77u ^ b * 0xC2B2AE3Du ^ c * 0x27D4EB2Fu;
  return (h ^ (h >> 15)) & (SG_DECL_MEMO - 1);
}
/* The id memoised for (tag, a, b, c), or 0. Only while the module is usable. */
SG_HOT uint32_t sg_decl_memo_get(const spvgen_module *m, uint32_t tag, uint32_t a,
                                        uint32_t b, uint32_t c) {
  if (!m || m->status != SPVGEN_OK || m->finished) return 0;
  const sg_decl_memo_entry *e = &m->decl_memo[sg_decl_memo_slot(tag, a, b, c)];
  return e->id && e->gen == m->decl_memo_gen && e->tag == tag && e->a == a && e->b == b &&
                 e->c == c
             ? e->id
             : 0;
}
/* Remembers a successful answer (id != 0 with the module still usable). */
static inline void sg_decl_memo_put(spvgen_module *m, uint32_t tag, uint32_t a, uint32_t b,
                                    uint32_t c, uint32_t id) {
  if (!m || !id || m->status != SPVGEN_OK || m->finished) return;
  sg_decl_memo_entry *e = &m->decl_memo[sg_decl_memo_slot(tag, a, b, c)];
  e->tag = tag, e->a = a, e->b = b, e->c = c, e->id = id, e->gen = m->decl_memo_gen;
}

#endif
