/* lib/core/builder.c — the module builder: sections, ids, the generic instruction path
 * (grammar walk, capability inference, placement, hash-consing), and the hand-written
 * API of spvgen/builder.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "spvgen/caps.h"
#include "spvgen/coop.h" /* SPVGEN_FP_ENCODING_*, SPVGEN_CAPABILITY_* */

#define SG_MAGIC 0x07230203u

/* ------------------------------------------------------------ word buffers ---- */

static bool words_grow(spvgen_module *m, sg_words *b, size_t need) {
  if (b->len + need <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + need) cap *= 2;
  uint32_t *d = realloc(b->data, cap * sizeof *d);
  if (!d) {
    sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen", "out of memory");
    return false;
  }
  b->data = d;
  b->cap = cap;
  return true;
}

static uint32_t *words_push(spvgen_module *m, sg_words *b, size_t n) {
  if (!words_grow(m, b, n)) return NULL;
  uint32_t *p = b->data + b->len;
  b->len += n;
  return p;
}

/* ------------------------------------------------------------------ errors ---- */

uint32_t sg_fail(spvgen_module *m, spvgen_status status, const char *fn, const char *fmt, ...) {
  if (!m || m->status != SPVGEN_OK) return 0;
  m->status = status;
  if (m->api_fn) fn = m->api_fn; /* the public function called, not an inner one */
  int n = snprintf(m->error, sizeof m->error, "%s: ", fn ? fn : "spvgen");
  if (n < 0) n = 0;
  if ((size_t)n < sizeof m->error) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->error + n, sizeof m->error - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return 0;
}

uint32_t spvgen_module_fail(spvgen_module *m, spvgen_status status, const char *fmt, ...) {
  if (!m || m->status != SPVGEN_OK) return 0;
  m->status = status == SPVGEN_OK ? SPVGEN_ERROR_INVALID_ARGUMENT : status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->error, sizeof m->error, fmt, ap);
  va_end(ap);
  return 0;
}

bool sg_ok_slow(spvgen_module *m, const char *fn) {
  if (!m) return false;
  if (m->status != SPVGEN_OK) return false;
  if (m->finished) {
    sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn,
            "the module is finished; call spvgen_module_reset to build another");
    return false;
  }
  return true;
}

spvgen_status spvgen_module_status(const spvgen_module *m) {
  return m ? m->status : SPVGEN_ERROR_INVALID_ARGUMENT;
}

const char *spvgen_module_error(const spvgen_module *m) {
  if (!m) return "spvgen_module_error: module is NULL";
  return m->error;
}

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

const char *sg_enumerant_name(uint32_t kind, uint32_t value) {
  const sg_enumerant *e = sg_find_enumerant(kind, value);
  return e ? e->name : NULL;
}

static int ext_index(const char *name) {
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

/* ------------------------------------------------------------------- ids ---- */

/* ids_cap never exceeds SG_ID_BOUND_MAX, so the fast path keeps the bound within it. */
static uint32_t new_id_slow(spvgen_module *m, const char *fn);
static inline uint32_t new_id(spvgen_module *m, const char *fn) {
  if (m->bound < m->ids_cap) {
    uint32_t id = m->bound++;
    memset(&m->ids[id], 0, sizeof m->ids[id]);
    m->ids[id].kind = SG_ID_RESERVED;
    m->undefined++;
    return id;
  }
  return new_id_slow(m, fn);
}

static uint32_t new_id_slow(spvgen_module *m, const char *fn) {
  if (m->bound >= SG_ID_BOUND_MAX)
    return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                   "too many ids: a module's id bound is at most %u (0x%X, SPIRV-Tools' limit), "
                   "so its largest id is %u",
                   SG_ID_BOUND_MAX, SG_ID_BOUND_MAX, SG_ID_BOUND_MAX - 1);
  if (m->bound >= m->ids_cap) {
    uint32_t cap = m->ids_cap ? m->ids_cap * 2 : 256;
    if (cap > SG_ID_BOUND_MAX) cap = SG_ID_BOUND_MAX;
    sg_id_info *p = realloc(m->ids, cap * sizeof *p);
    if (!p) return sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen", "out of memory");
    m->ids = p;
    m->ids_cap = cap;
  }
  uint32_t id = m->bound++;
  memset(&m->ids[id], 0, sizeof m->ids[id]);
  m->ids[id].kind = SG_ID_RESERVED;
  m->undefined++;
  return id;
}

uint32_t spvgen_reserve_id(spvgen_module *m) {
  if (!sg_ok(m, "spvgen_reserve_id")) return 0;
  return new_id(m, "spvgen_reserve_id");
}

uint32_t spvgen_type_of(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = m ? sg_id(m, id) : NULL;
  return (i && i->kind == SG_ID_VALUE) ? i->type : 0;
}

bool spvgen_is_type(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = m ? sg_id(m, id) : NULL;
  return i && i->kind == SG_ID_TYPE;
}

uint32_t spvgen_module_bound(const spvgen_module *m) { return m ? m->bound : 0; }
uint32_t spvgen_module_version(const spvgen_module *m) { return m ? m->version : 0; }
uint32_t spvgen_module_min_version(const spvgen_module *m) {
  return m ? m->min_version : 0;
}

/* ------------------------------------------------------------ hash-consing ---- */

static uint32_t hash_words(const uint32_t *w, uint32_t n) {
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
static uint32_t table_find(spvgen_module *m, const uint32_t *key, uint32_t n, uint32_t hash) {
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
  uint32_t *dst = words_push(m, &m->arena, n);
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

static void record(spvgen_module *m, uint32_t id, uint8_t kind, uint32_t type, uint32_t opcode,
                   uint8_t section, size_t off, uint8_t flags);

/* Appends a function-body instruction whose operands the caller built itself from ids
 * it knows are valid (structured control flow). No walk, no inference; the block must
 * be open. */
bool sg_append_body(spvgen_module *m, uint32_t opcode, const uint32_t *ops, uint32_t n) {
  if (!m->in_function || !m->block_open) return false;
  sg_words *b = &m->sec[SG_SEC_FUNCTIONS];
  if (!words_grow(m, b, n + 1)) return false;
  uint32_t *w = b->data + b->len;
  b->len += n + 1;
  w[0] = ((n + 1) << 16) | opcode;
  for (uint32_t i = 0; i < n; i++) w[1 + i] = ops[i];
  return true;
}

/* Appends an instruction the caller checked itself to a module-level section. */
bool sg_append(spvgen_module *m, uint32_t section, uint32_t opcode, const uint32_t *ops, uint32_t n) {
  sg_words *b = &m->sec[section];
  if (!words_grow(m, b, n + 1)) return false;
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
  if (!words_grow(m, b, 2)) return 0;
  if (!label) label = new_id(m, "spvgen_block");
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

/* ---------------------------------------------- capabilities & extensions ---- */

static bool bit_get(const uint8_t *set, uint32_t v) {
  return v < 8192 && (set[v >> 3] >> (v & 7)) & 1;
}
static void bit_set(uint8_t *set, uint32_t v) {
  if (v < 8192) set[v >> 3] |= (uint8_t)(1u << (v & 7));
}

static void require_item_of(spvgen_module *m, const char *fn, const char *kind_name,
                            const char *what, const uint16_t *caps, uint32_t ncaps,
                            const uint16_t *exts, uint32_t nexts, uint32_t version);
/* An instruction's requirements (what: its name). */
#define require_item(m, fn, what, caps, ncaps, exts, nexts, version) \
  require_item_of(m, fn, NULL, what, caps, ncaps, exts, nexts, version)

static void mark_available(spvgen_module *m, uint32_t cap) {
  if (bit_get(m->cap_available, cap)) return;
  bit_set(m->cap_available, cap);
  const sg_enumerant *e = sg_find_enumerant(SG_KIND_Capability, cap);
  if (!e) return;
  for (uint32_t i = 0; i < e->caps_n; i++) mark_available(m, sg_cap_pool[e->caps_off + i]);
}

static void clear_available(spvgen_module *m, uint32_t cap) {
  if (cap >= 8192) return;
  m->cap_declared[cap >> 3] &= (uint8_t)~(1u << (cap & 7));
  if (!bit_get(m->cap_available, cap)) return;
  m->cap_available[cap >> 3] &= (uint8_t)~(1u << (cap & 7));
  const sg_enumerant *e = sg_find_enumerant(SG_KIND_Capability, cap);
  if (!e) return;
  for (uint32_t i = 0; i < e->caps_n; i++) clear_available(m, sg_cap_pool[e->caps_off + i]);
}

static void declare_extension_index(spvgen_module *m, int idx) {
  if (m->ext_declared[idx]) return;
  m->ext_declared[idx] = 1;
  const char *name = sg_extension_names[idx];
  size_t len = strlen(name), nw = len / 4 + 1;
  uint32_t *w = words_push(m, &m->sec[SG_SEC_EXTENSIONS], 1 + nw);
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
  int idx = ext_index(name);
  if (idx >= 0) {
    declare_extension_index(m, idx);
    return;
  }
  for (uint32_t i = 0; i < m->other_ext_n; i++)
    if (!strcmp(m->other_exts[i], name)) return;
  if (m->other_ext_n == m->other_ext_cap) {
    uint32_t cap = m->other_ext_cap ? m->other_ext_cap * 2 : 4;
    char **p = realloc(m->other_exts, cap * sizeof *p);
    if (!p) {
      sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen_extension", "out of memory");
      return;
    }
    m->other_exts = p;
    m->other_ext_cap = cap;
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
  uint32_t *w = words_push(m, &m->sec[SG_SEC_EXTENSIONS], 1 + nw);
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
  uint32_t *w = words_push(m, &m->sec[SG_SEC_CAPABILITIES], 2);
  if (!w) return;
  w[0] = (2u << 16) | SpvOpCapability;
  w[1] = cap;
  bit_set(m->cap_declared, cap); /* only with its word: reset clears by the words */
  mark_available(m, cap);
  const sg_enumerant *e = sg_find_enumerant(SG_KIND_Capability, cap);
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
    if (!spvgen_vk_capability_find(caps[i])) continue;
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
            kind_name, sep, what, spvgen_capability_name(caps[newer]), v >> 8, v & 0xFF,
            m->version >> 16, (m->version >> 8) & 0xFF);
    return UINT32_MAX;
  }
  char names[256];
  size_t len = 0;
  names[0] = 0;
  for (uint32_t i = 0; i < ncaps && len < sizeof names; i++) {
    const char *name = spvgen_capability_name(caps[i]);
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

static void require_item_of(spvgen_module *m, const char *fn, const char *kind_name,
                            const char *what, const uint16_t *caps, uint32_t ncaps,
                            const uint16_t *exts, uint32_t nexts, uint32_t version) {
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

const sg_enumerant *sg_require_enumerant(spvgen_module *m, const char *fn, uint32_t kind,
                                         uint32_t value) {
  const sg_enumerant *e = sg_find_enumerant(kind, value);
  if (e)
    require_item_of(m, fn, sg_operand_kinds[kind].name, e->name, sg_cap_pool + e->caps_off,
                    e->caps_n, sg_ext_pool + e->exts_off, e->exts_n, e->version);
  return m->status == SPVGEN_OK ? e : NULL;
}

bool sg_require_instruction(spvgen_module *m, const char *fn, const sg_instruction *ins) {
  require_item(m, fn, ins->name, sg_cap_pool + ins->caps_off, ins->caps_n,
               sg_ext_pool + ins->exts_off, ins->exts_n, ins->version);
  return m->status == SPVGEN_OK;
}

void spvgen_capability(spvgen_module *m, SpvCapability cap) {
  if (!sg_ok(m, "spvgen_capability")) return;
  /* A value neither the grammar nor the Vulkan table (bfloat16 and float8 by value) knows
   * would make a module no decoder can read. */
  if (!sg_find_enumerant(SG_KIND_Capability, (uint32_t)cap) &&
      (!spvgen_vk_capability_find((uint32_t)cap) || (uint32_t)cap >= 8192)) {
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
  int idx = ext_index(name);
  if (idx >= 0) return m->ext_declared[idx] != 0;
  for (uint32_t i = 0; i < m->other_ext_n; i++)
    if (!strcmp(m->other_exts[i], name)) return true;
  return false;
}

/* ------------------------------------------------------- the grammar walk ---- */

typedef struct walk_state {
  spvgen_module *m;
  const char *fn;
  const sg_instruction *ins;
  const uint32_t *w;
  uint32_t n, pos;
  uint32_t result_pos, type_pos;
  uint32_t switch_literal_words; /* OpSwitch: words per case literal (selector width) */
  bool decl; /* a type or constant declaration: its ids must be declared already */
} walk_state;

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
    if (role && !check_role(s, v, opname, role)) return false;
    /* Device scope under the Vulkan memory model needs its own capability. */
    if (kind == SG_KIND_IdScope && s->m->memory_model == SpvMemoryModelVulkan) {
      uint64_t scope;
      if (spvgen_const_value(s->m, v, &scope) && scope == SpvScopeDevice)
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
    const sg_enumerant *e = sg_find_enumerant(kind, v);
    if (!e) {
      char buf[160];
      snprintf(buf, sizeof buf, "%u is not a %s value (operand '%%s')", v, k->name);
      return walk_fail(s, buf, opname, 0);
    }
    require_item_of(s->m, s->fn, k->name, e->name, sg_cap_pool + e->caps_off, e->caps_n,
                    sg_ext_pool + e->exts_off, e->exts_n, e->version);
    if (kind == SG_KIND_Capability) sg_require_capability(s->m, v);
    return walk_enum_params(s, e);
  }
  case SG_CAT_BITENUM: {
    s->pos++;
    for (uint32_t rest = v; rest; rest &= rest - 1) {
      uint32_t b = rest & (~rest + 1); /* lowest set bit: operands follow in bit order */
      const sg_enumerant *e = sg_find_enumerant(kind, b);
      if (!e) {
        char buf[160];
        snprintf(buf, sizeof buf, "bit 0x%x is not a %s flag (operand '%%s')", b, k->name);
        return walk_fail(s, buf, opname, 0);
      }
      require_item_of(s->m, s->fn, k->name, e->name, sg_cap_pool + e->caps_off, e->caps_n,
                      sg_ext_pool + e->exts_off, e->exts_n, e->version);
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
  if (k == SG_KIND_IdRef || k == SG_KIND_IdMemorySemantics) {
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

static bool walk(walk_state *s) {
  const sg_instruction *ins = s->ins;
  if (!walk_operands(s, ins, 0)) return false;
  if (s->pos != s->n) {
    sg_fail(s->m, SPVGEN_ERROR_INVALID_ARGUMENT, s->fn,
            "%s: too many operand words (%u given, the grammar takes %u)", ins->name, s->n, s->pos);
    return false;
  }
  return true;
}

/* ------------------------------------------------------- type bookkeeping ---- */

static uint8_t type_bits(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = sg_id(m, id);
  return i ? (i->flags & (SG_TF_HAS_8BIT | SG_TF_HAS_16BIT)) : 0;
}

/* Capability inference the grammar cannot express: widths and small-type storage. */
static uint8_t infer_type(spvgen_module *m, uint32_t opcode, const uint32_t *ops, uint32_t n) {
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
static bool scalar_width_ok(spvgen_module *m, const char *fn, uint32_t opcode, const uint32_t *ops,
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

static void record(spvgen_module *m, uint32_t id, uint8_t kind, uint32_t type, uint32_t opcode,
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

uint32_t sg_inst(spvgen_module *m, const char *fn, uint32_t opcode, const uint32_t *ops, uint32_t n) {
  if (!m || m->status != SPVGEN_OK || m->finished) return sg_ok(m, fn) ? 0 : 0;
  const sg_instruction *ins = sg_find_instruction(opcode);
  if (!ins) return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "unknown opcode %u", opcode);
  if (n >= 0xFFFF)
    return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "%s: %u operand words is over the 65534 limit", ins->name, n);
  if (n && !ops) return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "%s: operands are NULL", ins->name);

  /* Fast path for the bulk of a kernel: a function-body instruction whose operands are
   * all single ids (arithmetic, loads and stores without memory operands, access chains,
   * branches...) and that needs no capability. Anything unusual falls through to the
   * general path, which also produces the error messages. */
  if ((ins->placement == SG_PLACE_BODY || ins->placement == SG_PLACE_TERMINATOR) &&
      (ins->flags & (SG_INST_SIMPLE | SG_INST_NOREQ)) == (SG_INST_SIMPLE | SG_INST_NOREQ) &&
      m->block_open &&
      (n == ins->nreq || ((ins->flags & (SG_INST_ID_TAIL | SG_INST_LIT_TAIL)) && n > ins->nreq))) {
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
    if (fine && words_grow(m, b, n + 1)) {
      uint32_t result = rpos != UINT32_MAX ? new_id(m, fn) : 0;
      if (rpos != UINT32_MAX && !result) return 0;
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
      return result ? result : 1;
    }
    if (m->status != SPVGEN_OK) return 0;
  }

  /* Fast path for repeated declarations: identical words of a type or constant were
   * checked when first emitted, so a hit needs no operand walk. */
  if ((ins->placement == SG_PLACE_TYPE || ins->placement == SG_PLACE_CONSTANT) &&
      ins->has_result && n < 63 && m->table_count) {
    uint32_t rpos = ins->has_type ? 1 : 0;
    if (rpos < n && ops[rpos] == 0 && (ins->placement == SG_PLACE_CONSTANT || dedupable_type(opcode))) {
      uint32_t k[64], kl = 0;
      k[kl++] = opcode;
      for (uint32_t i = 0; i < n; i++)
        if (i != rpos) k[kl++] = ops[i];
      uint32_t hit = table_find(m, k, kl, hash_words(k, kl));
      if (hit) return hit;
    }
  }

  bool decl = ins->placement == SG_PLACE_TYPE || ins->placement == SG_PLACE_CONSTANT ||
              ins->placement == SG_PLACE_SPEC_CONSTANT;
  walk_state s = {m, fn, ins, ops, n, 0, UINT32_MAX, UINT32_MAX, 1, decl};
  bool checked = false;
  uint32_t nreq = ins->nreq;
  if ((ins->flags & SG_INST_SIMPLE) && opcode != SpvOpSpecConstantOp &&
      (n == nreq || ((ins->flags & (SG_INST_ID_TAIL | SG_INST_LIT_TAIL)) && n > nreq))) {
    /* Required operands are single ids (and any repeated tail is ids): check them
     * inline; on any problem the full walk below produces the message. */
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
        s.result_pos = i;
        checked = v == 0 || (v < m->bound && m->ids[v].kind == SG_ID_RESERVED);
      } else {
        uint32_t bad = ((ins->value_mask >> i) & 1u) * SG_KINDS_NOT_VALUE |
                       ((ins->label_mask >> i) & 1u) * SG_KINDS_NOT_LABEL;
        checked = v != 0 && v < m->bound && (!decl || m->ids[v].kind != SG_ID_RESERVED) &&
                  !((bad >> m->ids[v].kind) & 1u);
        if (checked && o[i].kind == SG_KIND_IdResultType) {
          s.type_pos = i;
          checked = m->ids[v].kind == SG_ID_TYPE;
        }
      }
    }
    if (!checked) s.result_pos = s.type_pos = UINT32_MAX;
  }
  if (!checked) {
    if (opcode == SpvOpSwitch && n >= 1) {
      const uint32_t *t = sg_def_words(m, spvgen_type_of(m, ops[0]));
      if (t && (t[0] & 0xFFFF) == SpvOpTypeInt && t[2] > 32) s.switch_literal_words = 2;
    }
    if (!walk(&s)) return 0;
  }
  if (!(ins->flags & SG_INST_NOREQ)) {
    if (!sg_require_instruction(m, fn, ins)) return 0;
  }

  uint32_t result = s.result_pos != UINT32_MAX ? ops[s.result_pos] : 0;
  uint32_t type = s.type_pos != UINT32_MAX ? ops[s.type_pos] : 0;
  uint8_t section = SG_SEC_FUNCTIONS;
  uint8_t kind = type ? SG_ID_VALUE : SG_ID_OTHER;
  uint8_t flags = 0;
  bool dedupe = false, terminator = false;

  switch (ins->placement) {
  case SG_PLACE_TYPE:
    section = SG_SEC_GLOBALS;
    kind = SG_ID_TYPE;
    dedupe = dedupable_type(opcode);
    break;
  case SG_PLACE_CONSTANT:
    section = SG_SEC_GLOBALS;
    dedupe = true;
    flags = SG_TF_CONSTANT;
    break;
  case SG_PLACE_SPEC_CONSTANT:
    section = SG_SEC_GLOBALS;
    flags = SG_TF_SPEC_CONSTANT;
    break;
  case SG_PLACE_DEBUG_SOURCE: section = SG_SEC_DEBUG_SOURCE; break;
  case SG_PLACE_NAMES: section = SG_SEC_DEBUG_NAMES; break;
  case SG_PLACE_PROCESSED: section = SG_SEC_DEBUG_PROCESSED; break;
  case SG_PLACE_ANNOTATION: section = SG_SEC_ANNOTATIONS; break;
  case SG_PLACE_TERMINATOR: terminator = true; break;
  case SG_PLACE_SPECIAL:
    switch (opcode) {
    case SpvOpCapability: return 1; /* declared by the walk */
    case SpvOpExtension: {
      char name[256];
      size_t len = n * 4 < sizeof name - 1 ? n * 4 : sizeof name - 1;
      memcpy(name, ops, len);
      name[len] = 0;
      sg_require_extension_name(m, name);
      return 1;
    }
    case SpvOpMemoryModel: section = SG_SEC_MEMORY_MODEL; break;
    case SpvOpExtInstImport: {
      /* ops: result, NUL-terminated name (the walk checked it). */
      const char *name = (const char *)(ops + 1);
      if (!ext_inst_set_known(name))
        return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                       "OpExtInstImport: \"%.60s\" is not an extended instruction set a decoder "
                       "knows (GLSL.std.450, NonSemantic.*, ...): the module could not be read back",
                       name);
      section = SG_SEC_IMPORTS;
      dedupe = true;
      break;
    }
    case SpvOpEntryPoint: section = SG_SEC_ENTRY_POINTS; break;
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId: section = SG_SEC_EXECUTION_MODES; break;
    case SpvOpTypeForwardPointer:
      section = SG_SEC_GLOBALS;
      if (m->ids[ops[0]].kind == SG_ID_RESERVED) m->ids[ops[0]].flags |= SG_TF_FORWARD_POINTER;
      break;
    case SpvOpVariable:
      if (ops[2] == SpvStorageClassFunction) {
        if (!m->in_function)
          return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "a Function-storage variable outside a function");
        section = SG_SEC_FUNCTION_VARS;
      } else {
        section = SG_SEC_GLOBALS;
      }
      break;
    case SpvOpUndef:
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpExtInstWithForwardRefsKHR:
      section = m->in_function ? SG_SEC_FUNCTIONS : SG_SEC_GLOBALS;
      if (section == SG_SEC_FUNCTIONS && !m->block_open)
        return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "%s outside a block", ins->name);
      break;
    case SpvOpFunction:
      if (m->in_function)
        return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "OpFunction inside function %u (end it first)", m->current_function);
      kind = SG_ID_FUNCTION;
      break;
    case SpvOpFunctionParameter:
      if (!m->in_function || m->first_block_placed)
        return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "OpFunctionParameter must follow OpFunction, before the first block");
      break;
    case SpvOpLabel:
      if (!m->in_function)
        return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "a block outside a function");
      if (m->block_open)
        return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "block %u is not terminated yet", m->current_block);
      kind = SG_ID_LABEL;
      break;
    case SpvOpFunctionEnd:
      if (!m->in_function)
        return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "OpFunctionEnd outside a function");
      if (m->block_open)
        return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "block %u is not terminated", m->current_block);
      if (!m->first_block_placed)
        return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "function %u has no blocks", m->current_function);
      break;
    default:
      break;
    }
    break;
  default:
    break;
  }
  if (section == SG_SEC_FUNCTIONS && ins->placement != SG_PLACE_SPECIAL) {
    if (!m->in_function || !m->block_open)
      return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, fn, "%s: instruction outside a block%s", ins->name,
                     m->in_function ? " (the previous block was terminated; start a new one)" : " (no function is open)");
  }

  if ((opcode == SpvOpTypeInt || opcode == SpvOpTypeFloat) && !scalar_width_ok(m, fn, opcode, ops, n))
    return 0;
  if (ins->placement == SG_PLACE_TYPE) flags = infer_type(m, opcode, ops, n);
  if (m->status != SPVGEN_OK) return 0;

  /* Hash-consing: key = opcode + every operand word except the result id. */
  uint32_t keybuf[64], *key = NULL, keylen = 0, hash = 0;
  /* Only new declarations are deduplicated: an explicit (reserved) result id asks for
   * this exact declaration (strided arrays, forward-declared types). */
  bool explicit_id = s.result_pos != UINT32_MAX && ops[s.result_pos] != 0;
  bool may_duplicate = opcode == SpvOpTypeArray || opcode == SpvOpTypeRuntimeArray ||
                       opcode == SpvOpTypePointer || ins->placement != SG_PLACE_TYPE;
  if (dedupe && s.result_pos != UINT32_MAX && (!explicit_id || !may_duplicate)) {
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
  if (s.result_pos != UINT32_MAX && !result) result = new_id(m, fn);
  sg_words *b = &m->sec[section];
  size_t off = b->len;
  uint32_t *w = m->status == SPVGEN_OK ? words_push(m, b, n + 1) : NULL;
  if (!w) {
    if (key && key != keybuf) free(key);
    return 0;
  }
  w[0] = ((n + 1) << 16) | opcode;
  if (n) memcpy(w + 1, ops, n * sizeof *ops);
  if (s.result_pos != UINT32_MAX) w[1 + s.result_pos] = result;

  if (result) record(m, result, kind, type, opcode, section, off, flags);
  if (key) {
    table_insert(m, key, keylen, hash, result);
    if (key != keybuf) free(key);
  }

  switch (opcode) {
  case SpvOpVariable:
    if (section == SG_SEC_GLOBALS) {
      if (m->globals_n == m->globals_cap) {
        uint32_t cap = m->globals_cap ? m->globals_cap * 2 : 16;
        uint32_t *g = realloc(m->globals, cap * sizeof *g);
        if (!g) return sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, fn, "out of memory");
        m->globals = g;
        m->globals_cap = cap;
      }
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
      m->first_block_end = b->len;
    }
    break;
  case SpvOpFunctionEnd:
    close_function(m);
    break;
  default:
    break;
  }
  if (terminator) m->block_open = false;
  return result ? result : 1;
}

/* Moves the function's OpVariables to the start of its first block. */
static void close_function(spvgen_module *m) {
  sg_words *vars = &m->sec[SG_SEC_FUNCTION_VARS];
  sg_words *f = &m->sec[SG_SEC_FUNCTIONS];
  if (vars->len) {
    size_t at = m->first_block_end, nv = vars->len;
    if (words_grow(m, f, nv)) {
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
  uint32_t *d = words_push(p->m, &p->m->scratch, 1);
  if (d) *d = w;
}

void sg_pack_words(sg_packer *p, const uint32_t *w, uint32_t n) {
  if (!n) return;
  if (!w) {
    sg_fail(p->m, SPVGEN_ERROR_INVALID_ARGUMENT, p->fn, "an operand array is NULL with count %u", n);
    return;
  }
  uint32_t *d = words_push(p->m, &p->m->scratch, n);
  if (d) memcpy(d, w, n * sizeof *w);
}

void sg_pack_string(sg_packer *p, const char *s) {
  if (!s) s = "";
  size_t len = strlen(s), nw = len / 4 + 1;
  uint32_t *d = words_push(p->m, &p->m->scratch, nw);
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

/* ------------------------------------------------------------ module life ---- */

static void apply_desc(spvgen_module *m, const spvgen_module_desc *desc) {
  spvgen_module_desc d = desc ? *desc : (spvgen_module_desc){0};
  m->version = d.version ? d.version : SPVGEN_VERSION(1, 6);
  m->addressing = d.addressing;
  m->memory_model = d.memory_model ? d.memory_model : SpvMemoryModelVulkan;
  m->generator = d.generator;
  m->emit_memory_model = !d.no_memory_model;
  m->min_version = SPVGEN_VERSION(1, 0);
  if (m->version < SPVGEN_VERSION(1, 0) || m->version > SPVGEN_VERSION(1, 6) || (m->version & 0xFF0000FFu)) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_module_create",
            "version 0x%08x is not SPIR-V 1.0 .. 1.6 (use SPVGEN_VERSION(1, x))", m->version);
    return;
  }
  if (m->emit_memory_model) {
    uint32_t ops[2] = {m->addressing, m->memory_model};
    sg_inst(m, "spvgen_module_create", SpvOpMemoryModel, ops, 2);
  }
}

spvgen_module *spvgen_module_create(const spvgen_module_desc *desc) {
  spvgen_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->ext_declared = calloc(sg_extension_count ? sg_extension_count : 1, 1);
  if (!m->ext_declared) {
    free(m);
    return NULL;
  }
  m->bound = 1;
  new_id(m, "spvgen_module_create"); /* make room; id 0 stays FREE */
  m->bound = 1;
  m->undefined = 0;
  m->ids[0].kind = SG_ID_FREE;
  apply_desc(m, desc);
  return m;
}

void spvgen_module_reset(spvgen_module *m, const spvgen_module_desc *desc) {
  if (!m) return;
  m->status = SPVGEN_OK;
  m->error[0] = 0;
  m->finished = false;
  /* Clear only the capability bits this module set: its OpCapability words and their
   * implied closure (cheaper than clearing the 2 KiB of bitsets). */
  {
    const sg_words *caps = &m->sec[SG_SEC_CAPABILITIES];
    for (size_t i = 0; i + 1 < caps->len; i += 2) clear_available(m, caps->data[i + 1]);
  }
  for (int i = 0; i < SG_SEC_ALL; i++) m->sec[i].len = 0;
  m->out.len = m->scratch.len = m->arena.len = 0;
  m->bound = 1;
  m->undefined = 0;
  if (m->table_count) {
    /* A new generation empties the table without touching it; on wrap-around, clear. */
    if (++m->table_gen == 0) memset(m->table, 0, m->table_cap * sizeof *m->table);
  }
  m->table_count = 0;
  memset(m->ext_declared, 0, sg_extension_count ? sg_extension_count : 1);
  for (uint32_t i = 0; i < m->other_ext_n; i++) free(m->other_exts[i]);
  m->other_ext_n = 0;
  m->glsl_set = 0;
  memset(m->memo_scalar, 0, sizeof m->memo_scalar);
  memset(m->memo_u32, 0, sizeof m->memo_u32);
  m->memo_bool = m->memo_void = 0;
  m->globals_n = 0;
  m->entries_n = 0;
  m->strings_len = 0;
  m->in_function = m->block_open = m->first_block_placed = false;
  m->current_function = m->current_block = m->function_return_type = 0;
  m->cf_n = 0;
  m->api_fn = NULL;
  apply_desc(m, desc);
}

void spvgen_module_destroy(spvgen_module *m) {
  if (!m) return;
  for (int i = 0; i < SG_SEC_ALL; i++) free(m->sec[i].data);
  free(m->out.data);
  free(m->scratch.data);
  free(m->arena.data);
  free(m->ids);
  free(m->table);
  free(m->ext_declared);
  for (uint32_t i = 0; i < m->other_ext_n; i++) free(m->other_exts[i]);
  free(m->other_exts);
  free(m->globals);
  free(m->entries);
  free(m->strings);
  free(m->cf);
  free(m);
}

static bool write_entry_points(spvgen_module *m) {
  for (uint32_t e = 0; e < m->entries_n; e++) {
    const sg_entry *en = &m->entries[e];
    const char *name = m->strings + en->name_off;
    size_t len = strlen(name), nw = len / 4 + 1;
    uint32_t n_iface = 0;
    const uint32_t *iface = NULL;
    bool all = en->iface_n == SPVGEN_ABSENT;
    if (all) {
      n_iface = m->globals_n;
      iface = m->globals;
    } else {
      n_iface = en->iface_n;
      iface = m->arena.data + en->iface_off;
    }
    /* Before SPIR-V 1.4 only Input/Output variables belong in the interface. */
    uint32_t count = 0;
    for (uint32_t i = 0; i < n_iface; i++) {
      if (all && m->version < SPVGEN_VERSION(1, 4)) {
        const uint32_t *d = sg_def_words(m, iface[i]);
        if (!d || (d[3] != SpvStorageClassInput && d[3] != SpvStorageClassOutput)) continue;
      }
      count++;
    }
    uint64_t words = 1 + 2 + (uint64_t)nw + count;
    if (words > SG_INSTRUCTION_WORDS_MAX) {
      sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_module_finish",
              "the OpEntryPoint of \"%.40s%s\" would be %llu words (a %zu-word name and %u "
              "interface variables); an instruction has at most %u words",
              name, len > 40 ? "..." : "", (unsigned long long)words, nw, count,
              SG_INSTRUCTION_WORDS_MAX);
      return false;
    }
    uint32_t total = (uint32_t)words;
    uint32_t *w = words_push(m, &m->sec[SG_SEC_ENTRY_POINTS], total);
    if (!w) return false;
    w[0] = (total << 16) | SpvOpEntryPoint;
    w[1] = en->model;
    w[2] = en->function;
    memset(w + 3, 0, nw * 4);
    memcpy(w + 3, name, len);
    uint32_t *o = w + 3 + nw;
    for (uint32_t i = 0; i < n_iface; i++) {
      if (all && m->version < SPVGEN_VERSION(1, 4)) {
        const uint32_t *d = sg_def_words(m, iface[i]);
        if (!d || (d[3] != SpvStorageClassInput && d[3] != SpvStorageClassOutput)) continue;
      }
      *o++ = iface[i];
    }
  }
  return true;
}

spvgen_status spvgen_module_finish(spvgen_module *m, const uint32_t **words, size_t *count) {
  if (words) *words = NULL;
  if (count) *count = 0;
  if (!m) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (m->finished && m->status == SPVGEN_OK) {
    if (words) *words = m->out.data;
    if (count) *count = m->out.len;
    return SPVGEN_OK;
  }
  if (m->status != SPVGEN_OK) return m->status;
  if (m->in_function)
    return sg_fail(m, SPVGEN_ERROR_INVALID_STATE, "spvgen_module_finish", "function %u is not ended (spvgen_function_end)", m->current_function),
           m->status;
  for (uint32_t id = 1; m->undefined && id < m->bound; id++) {
    if (m->ids[id].kind == SG_ID_RESERVED) {
      /* A reserved id that was only referenced: legal only if some instruction defines
       * it; report the first one. */
      sg_fail(m, SPVGEN_ERROR_INVALID_STATE, "spvgen_module_finish", "id %u was reserved but never defined", id);
      return m->status;
    }
  }
  if (!write_entry_points(m)) return m->status;
  if (m->version < m->min_version) {
    sg_fail(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_module_finish", "the module needs SPIR-V %u.%u but targets %u.%u",
            m->min_version >> 16, (m->min_version >> 8) & 0xFF, m->version >> 16, (m->version >> 8) & 0xFF);
    return m->status;
  }
  size_t total = 5;
  for (int i = 0; i < SG_SEC_COUNT; i++) total += m->sec[i].len;
  m->out.len = 0;
  uint32_t *w = words_push(m, &m->out, total);
  if (!w) return m->status;
  w[0] = SG_MAGIC;
  w[1] = m->version;
  w[2] = m->generator;
  w[3] = m->bound;
  w[4] = 0;
  w += 5;
  for (int i = 0; i < SG_SEC_COUNT; i++) {
    if (m->sec[i].len) memcpy(w, m->sec[i].data, m->sec[i].len * sizeof *w);
    w += m->sec[i].len;
  }
  m->finished = true;
  if (words) *words = m->out.data;
  if (count) *count = m->out.len;
  return SPVGEN_OK;
}
