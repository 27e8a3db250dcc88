/* lib/core/module.c — a module's life: create, reset, destroy and finish (the binary and
 * its entry points), the sticky status and message, id allocation and id queries, and
 * the one array-growth helper (sg_grow) behind every growable array of lib/core. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SG_MAGIC 0x07230203u

/* ------------------------------------------------------------- array growth ---- */

bool sg_grow(void *array, size_t *cap, size_t need, size_t size, size_t first, size_t max) {
  if (need <= *cap) return true;
  if (need > max) return false;
  size_t n = *cap ? *cap : first;
  while (n < need) n = n > max / 2 ? max : n * 2;
  if (n > SIZE_MAX / size) return false;
  void *old;
  memcpy(&old, array, sizeof old);
  void *p = realloc(old, n * size);
  if (!p) return false;
  memcpy(array, &p, sizeof p);
  *cap = n;
  return true;
}

bool sg_words_grow_slow(spvgen_module *m, sg_words *b, size_t need) {
  if (sg_grow(&b->data, &b->cap, b->len + need, sizeof *b->data, 64, SIZE_MAX)) return true;
  sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen", "out of memory");
  return false;
}

/* ------------------------------------------------------------------ errors ---- */

uint32_t sg_fail(spvgen_module *m, spvgen_status status, const char *fn, const char *fmt, ...) {
  if (!m || m->status != SPVGEN_OK) return 0;
  m->status = status;
  if (m->api_fn) fn = m->api_fn; /* the public function called, not an inner one */
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(m->error, sizeof m->error, status, fn ? fn : "spvgen", fmt, ap);
  va_end(ap);
  return 0;
}

uint32_t spvgen_module_fail(spvgen_module *m, spvgen_status status, const char *fmt, ...) {
  if (!m || m->status != SPVGEN_OK) return 0;
  m->status = status == SPVGEN_OK ? SPVGEN_ERROR_INVALID_ARGUMENT : status;
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(m->error, sizeof m->error, m->status, NULL, fmt, ap);
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

/* ------------------------------------------------------------------- ids ---- */

uint32_t sg_new_id_slow(spvgen_module *m, const char *fn) {
  if (m->bound >= SG_ID_BOUND_MAX)
    return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                   "too many ids: a module's id bound is at most %u (0x%X, SPIRV-Tools' limit), "
                   "so its largest id is %u",
                   SG_ID_BOUND_MAX, SG_ID_BOUND_MAX, SG_ID_BOUND_MAX - 1);
  /* ids_cap never exceeds SG_ID_BOUND_MAX, so the fast path keeps the bound within it. */
  if (!sg_grow(&m->ids, &m->ids_cap, (size_t)m->bound + 1, sizeof *m->ids, 256, SG_ID_BOUND_MAX))
    return sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen", "out of memory");
  uint32_t id = m->bound++;
  memset(&m->ids[id], 0, sizeof m->ids[id]);
  m->ids[id].kind = SG_ID_RESERVED;
  m->undefined++;
  return id;
}

uint32_t spvgen_reserve_id(spvgen_module *m) {
  if (!sg_ok(m, "spvgen_reserve_id")) return 0;
  return sg_new_id(m, "spvgen_reserve_id");
}

uint32_t spvgen_type_of(const spvgen_module *m, uint32_t id) { return m ? sg_type_of(m, id) : 0; }

bool spvgen_is_type(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = m ? sg_id(m, id) : NULL;
  return i && i->kind == SG_ID_TYPE;
}

uint32_t spvgen_module_bound(const spvgen_module *m) { return m ? m->bound : 0; }
uint32_t spvgen_module_version(const spvgen_module *m) { return m ? m->version : 0; }
uint32_t spvgen_module_addressing(const spvgen_module *m) { return m ? m->addressing : 0; }
uint32_t spvgen_module_min_version(const spvgen_module *m) {
  return m ? m->min_version : 0;
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
  sg_new_id(m, "spvgen_module_create"); /* make room; id 0 stays FREE */
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
  m->nonwritable_marked = m->wrote = m->recheck_writes = m->has_calls = false;
  /* Clear only the capability bits this module set: its OpCapability words and their
   * implied closure (cheaper than clearing the 2 KiB of bitsets). */
  {
    const sg_words *caps = &m->sec[SG_SEC_CAPABILITIES];
    for (size_t i = 0; i + 1 < caps->len; i += 2) sg_clear_available(m, caps->data[i + 1]);
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
  memset(m->req_done_ins, 0, sizeof m->req_done_ins);
  memset(m->req_done_enum, 0, sizeof m->req_done_enum);
  for (int i = 0; i < 8; i++) m->coop_memo[i].type = 0;
  /* A new generation empties the declaration memo; on wrap-around, clear it. */
  if (++m->decl_memo_gen == 0) memset(m->decl_memo, 0, sizeof m->decl_memo);
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
    uint32_t *w = sg_words_push(m, &m->sec[SG_SEC_ENTRY_POINTS], total);
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
  if (!sg_check_writes_at_finish(m)) return m->status;
  if (!write_entry_points(m)) return m->status;
  if (m->version < m->min_version) {
    sg_fail(m, SPVGEN_ERROR_UNSUPPORTED, "spvgen_module_finish", "the module needs SPIR-V %u.%u but targets %u.%u",
            m->min_version >> 16, (m->min_version >> 8) & 0xFF, m->version >> 16, (m->version >> 8) & 0xFF);
    return m->status;
  }
  size_t total = 5;
  for (int i = 0; i < SG_SEC_COUNT; i++) total += m->sec[i].len;
  m->out.len = 0;
  uint32_t *w = sg_words_push(m, &m->out, total);
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

