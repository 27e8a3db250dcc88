/* lib/core/reflect.c — reads from a SPIR-V module what the runner must check before a
 * driver sees it, and what a kernel's metadata says (spvgen_kernel_reflect): the entry point, its literal local size, each buffer binding (set,
 * binding, kind, size of the static part), the push constant block's size, the SPIR-V
 * version, and the device features its capabilities and types need. A mismatch between
 * words and metadata would otherwise be undefined behaviour inside the driver.
 *
 * Only the module's global part is read; in function bodies only the instruction lengths
 * are checked.
 * Malformed words (bad magic, truncated instructions, ids beyond the bound, a type that
 * uses an id defined after it or itself, such as a struct containing itself) are errors.
 * Each type's size is computed once, in definition order: the work is linear in the
 * module (plus sorting the Offset decorations). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* sg_grow */
#include "reflect.h"

/* snprintf into a caller's buffer that may be NULL or empty. */
static void format_message(char *out, size_t size, const char *fmt, ...)
    SG_PRINTF(3, 4);
static void format_message(char *out, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(out, size, SPVGEN_OK, NULL, fmt, ap);
  va_end(ap);
}

#define MAGIC 0x07230203u
/* SPIRV-Tools' kDefaultMaxIdBound: a module's id bound is at most 0x3FFFFF (ids up to
 * 0x3FFFFE); spirv-val refuses a larger one. */
#define MAX_BOUND 0x3FFFFFu

typedef struct id_info {
  uint16_t opcode;
  bool is_spec;         /* constant from a spec constant */
  bool block, buffer_block;
  bool used_early;      /* a type named it before it was defined */
  bool forward_pointer; /* announced by OpTypeForwardPointer */
  bool sized;           /* size holds the type's size */
  uint64_t size;        /* bytes in a buffer (see type_size), computed once per type */
  uint32_t a, b, c;     /* type operands / constant value / variable type+storage */
  uint32_t first_word;  /* index of the instruction in words (structs: members) */
  uint32_t word_count;
  uint32_t set, binding; /* UINT32_MAX: not decorated */
  uint32_t array_stride;
} id_info;

typedef struct member_offset {
  uint32_t type, member, offset;
  uint32_t seq; /* decoration order: the last Offset of a member wins */
} member_offset;

typedef struct reflector {
  const uint32_t *words;
  size_t count;
  uint32_t bound;
  /* Per id: a dense array of `bound` entries when the bound is no larger than the module
   * (the usual case), else a hash table of `cap` slots keyed by `keys` (0: empty), sized
   * by the module's words: a 28-byte module with the id bound 0x3FFFFF costs a few
   * hundred bytes, not 200 MB. Either way the memory is linear in the module's size. */
  id_info *ids;
  uint32_t *keys;
  size_t cap, used; /* sparse only; cap 0: dense */
  uint32_t *variables; /* OpVariable ids, in definition order */
  size_t variable_count, variable_cap;
  member_offset *offsets; /* sorted by (type, member, seq) before sizes are computed */
  size_t offset_count, offset_cap;
  uint32_t *types; /* the types whose size is computed, in definition order */
  size_t type_count, type_cap;
  uint64_t work;   /* operands visited computing sizes (sg_reflection.size_work) */
  char *message;
  size_t message_size;
} reflector;

static void require(sg_reflection *out, uint64_t feature, const char *why) {
  out->required_features |= feature;
  for (int i = 0; i < SPVGEN_FEATURE_COUNT; i++)
    if (feature == (1ull << i) && !out->feature_reason[i]) out->feature_reason[i] = why;
}

/* What a declared capability needs, from the Vulkan table (spvgen_vk_capability_find,
 * lib/core/vk_capabilities.c): a Vulkan version, a feature bit, subgroup operations. A
 * capability Vulkan does not allow, or one enabled by something the runner neither
 * queries nor enables, is refused: the driver would otherwise get a module it may not
 * accept (or, for Kernel and the like, that no Vulkan driver should). */
static spvgen_status require_capability(reflector *r, uint32_t capability,
                                        sg_reflection *out) {
  const spvgen_vk_capability *c = spvgen_vk_capability_find(capability);
  if (!c) {
    const char *name = spvgen_capability_name(capability);
    if (name)
      format_message(r->message, r->message_size,
                       "the module declares capability %s (%u), which Vulkan does not allow",
                       name, capability);
    else
      format_message(r->message, r->message_size,
                       "the module declares capability %u, which neither SPIR-V's grammar nor "
                       "Vulkan knows",
                       capability);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  switch (c->kind) {
  case SPVGEN_VK_CAP_CORE:
    if (c->version > out->required_api_version) {
      out->required_api_version = c->version;
      out->api_version_reason = c->what;
    }
    break;
  case SPVGEN_VK_CAP_FEATURE: require(out, c->feature, c->what); break;
  case SPVGEN_VK_CAP_SUBGROUP: out->required_subgroup_ops |= c->subgroup_ops; break;
  case SPVGEN_VK_CAP_UNTRACKED:
  default:
    format_message(r->message, r->message_size,
                     "the module declares %s, which Vulkan enables by %s; the runner neither "
                     "checks nor enables that",
                     c->what, c->enabled_by);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  return SPVGEN_OK;
}

static spvgen_status malformed(reflector *r, const char *fmt, ...)
    SG_PRINTF(2, 3);
static spvgen_status malformed(reflector *r, const char *fmt, ...) {
  char text[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  format_message(r->message, r->message_size, "malformed SPIR-V: %s", text);
  return SPVGEN_ERROR_INVALID_ARGUMENT;
}

static bool valid_id(const reflector *r, uint32_t id) { return id > 0 && id < r->bound; }

static const id_info no_info = {.set = UINT32_MAX, .binding = UINT32_MAX};

static size_t slot_of(const reflector *r, uint32_t id) {
  size_t mask = r->cap - 1, k = ((size_t)id * 0x9E3779B1u) & mask;
  while (r->keys[k] && r->keys[k] != id) k = (k + 1) & mask;
  return k;
}

/* id's entry, for reading: no_info (opcode 0) when the id is invalid or never seen. */
static const id_info *id_get(const reflector *r, uint32_t id) {
  if (!valid_id(r, id)) return &no_info;
  if (!r->cap) return &r->ids[id];
  size_t k = slot_of(r, id);
  return r->keys[k] ? &r->ids[k] : &no_info;
}

/* id's entry, for writing (made on first use); NULL for an invalid id. The sparse table
 * never fills: each id the walk records was named by a word of the module, and the table
 * has two slots per word. */
static id_info *id_at(reflector *r, uint32_t id) {
  if (!valid_id(r, id)) return NULL;
  if (!r->cap) return &r->ids[id];
  size_t k = slot_of(r, id);
  if (!r->keys[k]) {
    if (r->used + 1 >= r->cap) return NULL;
    r->keys[k] = id;
    r->ids[k] = no_info;
    r->used++;
  }
  return &r->ids[k];
}

/* Sizes saturate at UINT64_MAX: a hostile array of arrays cannot wrap around to a small
 * size (a buffer that large is refused as too small, never under-allocated). */
static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t mul_sat(uint64_t a, uint64_t b) {
  return (a && b > UINT64_MAX / a) ? UINT64_MAX : a * b;
}

/* Bytes a type occupies in a buffer (runtime arrays and unknown types: 0, so the
 * result is never more than what Vulkan requires). A lookup: compute_sizes has filled
 * in every type once, in definition order. */
static uint64_t type_size(const reflector *r, uint32_t type) {
  const id_info *t = id_get(r, type);
  if (t->opcode == SpvOpTypePointer) return 8; /* also before it is sized: a forward pointer */
  return t->sized ? t->size : 0;
}

static int compare_ids(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int compare_offsets(const void *a, const void *b) {
  const member_offset *x = a, *y = b;
  if (x->type != y->type) return x->type < y->type ? -1 : 1;
  if (x->member != y->member) return x->member < y->member ? -1 : 1;
  if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
  return 0;
}

/* The first Offset decoration of struct `type` in the sorted list. */
static size_t first_offset(const reflector *r, uint32_t type) {
  size_t lo = 0, hi = r->offset_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->offsets[mid].type < type)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* A struct's size: the end of its furthest member, each member at its Offset or right
 * after the previous one. Linear in members plus its Offset decorations. */
static uint64_t struct_size(reflector *r, uint32_t type) {
  const id_info *t = id_get(r, type);
  uint32_t members = t->word_count - 2;
  uint64_t end = 0, running = 0;
  size_t k = first_offset(r, type);
  for (uint32_t m = 0; m < members; m++) {
    uint64_t size = type_size(r, r->words[t->first_word + 2 + m]);
    uint64_t offset = running;
    while (k < r->offset_count && r->offsets[k].type == type && r->offsets[k].member < m)
      k++, r->work++;
    while (k < r->offset_count && r->offsets[k].type == type && r->offsets[k].member == m)
      offset = r->offsets[k++].offset, r->work++;
    uint64_t member_end = add_sat(offset, size);
    if (member_end > end) end = member_end;
    running = member_end;
    r->work++;
  }
  return end;
}

/* Every type's size, in definition order: a type uses only types defined before it
 * (walk refuses anything else), so each component's size is already known and nothing
 * recurses. Linear in the types' operands plus the Offset decorations (sorted once). */
static void compute_sizes(reflector *r) {
  if (r->offset_count > 1) qsort(r->offsets, r->offset_count, sizeof *r->offsets, compare_offsets);
  for (size_t i = 0; i < r->type_count; i++) {
    uint32_t type = r->types[i];
    id_info *t = id_at(r, type);
    if (!t) continue;
    uint64_t size = 0;
    r->work++;
    switch (t->opcode) {
    case SpvOpTypeBool: size = 4; break;
    case SpvOpTypeInt:
    case SpvOpTypeFloat: size = t->a / 8; break;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix: size = mul_sat(t->b, type_size(r, t->a)); break;
    case SpvOpTypeArray: {
      const id_info *len = id_get(r, t->b);
      if (len->opcode != SpvOpConstant || len->is_spec) break;
      uint64_t stride = t->array_stride ? t->array_stride : type_size(r, t->a);
      size = mul_sat(len->a, stride);
      break;
    }
    case SpvOpTypeStruct: size = struct_size(r, type); break;
    case SpvOpTypePointer: size = 8; break;
    default: break;
    }
    t->size = size;
    t->sized = true;
  }
}

/* A type names id `used` (a component, member, element or length): it must be defined
 * already. When it is not, it is marked, and its definition, if one comes, is refused:
 * SPIR-V allows a type to use only ids defined before it (OpTypeForwardPointer aside),
 * which also rules out a struct that contains itself. */
static void note_use(reflector *r, uint32_t used) {
  id_info *u = id_at(r, used);
  if (u && u->opcode == 0) u->used_early = true;
}

static bool add_type(reflector *r, uint32_t type) {
  if (!sg_grow(&r->types, &r->type_cap, r->type_count + 1, sizeof *r->types, 64, SIZE_MAX))
    return false;
  r->types[r->type_count++] = type;
  return true;
}

static bool add_offset(reflector *r, uint32_t type, uint32_t member, uint32_t offset) {
  if (!sg_grow(&r->offsets, &r->offset_cap, r->offset_count + 1, sizeof *r->offsets, 64, SIZE_MAX))
    return false;
  r->offsets[r->offset_count] = (member_offset){type, member, offset, (uint32_t)r->offset_count};
  r->offset_count++;
  return true;
}

static spvgen_status walk(reflector *r, const char *entry, sg_reflection *out) {
  const uint32_t *w = r->words;
  uint32_t entry_func = 0;
  size_t names = 0;
  /* LocalSize of entries seen so far: (function, x, y, z). */
  uint32_t local_modes[16][4];
  uint32_t local_mode_count = 0;
  uint32_t local_size_id_entries[16];
  uint32_t local_size_id_count = 0;
  bool in_code = false;

  for (size_t i = 5; i < r->count;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xFFFFu;
    if (wc == 0) return malformed(r, "instruction at word %zu has word count 0", i);
    if (i + wc > r->count)
      return malformed(r, "instruction at word %zu (word count %u) runs past the end", i, wc);
    const uint32_t *o = w + i + 1; /* operands */
    uint32_t n = wc - 1;
    if (op == SpvOpFunction) in_code = true;
    if (in_code) { /* function bodies: only the instruction lengths are checked */
      i += wc;
      continue;
    }
    switch (op) {
    case SpvOpCapability:
      if (n >= 1) {
        if (out->capability_count < SPVGEN_MAX_CAPABILITIES)
          out->capabilities[out->capability_count++] = o[0];
        spvgen_status st = require_capability(r, o[0], out);
        if (st != SPVGEN_OK) return st;
      }
      break;
    case SpvOpEntryPoint: {
      if (n < 3) return malformed(r, "OpEntryPoint at word %zu has %u operands", i, n);
      const char *name = (const char *)(o + 2);
      size_t max = (size_t)(n - 2) * 4, len = 0;
      while (len < max && name[len]) len++;
      if (len == max)
        return malformed(r, "OpEntryPoint at word %zu: name not terminated", i);
      if (o[0] == 5 /* GLCompute */) {
        if (names + len + 3 < sizeof out->entry_points) {
          if (names) {
            memcpy(out->entry_points + names, ", ", 2);
            names += 2;
          }
          memcpy(out->entry_points + names, name, len + 1);
          names += len;
        }
        if (!strcmp(name, entry)) entry_func = o[1];
      }
      break;
    }
    case SpvOpExecutionMode:
      if (n >= 5 && o[1] == 17 /* LocalSize */ && local_mode_count < 16) {
        local_modes[local_mode_count][0] = o[0];
        memcpy(&local_modes[local_mode_count][1], o + 2, 3 * sizeof(uint32_t));
        local_mode_count++;
      }
      break;
    case SpvOpExecutionModeId:
      if (n >= 2 && o[1] == 38 /* LocalSizeId */ && local_size_id_count < 16)
        local_size_id_entries[local_size_id_count++] = o[0];
      break;
    case SpvOpDecorate:
      if (n >= 2 && id_at(r, o[0])) {
        id_info *t = id_at(r, o[0]);
        switch (o[1]) {
        case SpvDecorationBlock: t->block = true; break;
        case SpvDecorationBufferBlock: t->buffer_block = true; break;
        case SpvDecorationArrayStride: if (n >= 3) t->array_stride = o[2]; break;
        case SpvDecorationBinding: if (n >= 3) t->binding = o[2]; break;
        case SpvDecorationDescriptorSet: if (n >= 3) t->set = o[2]; break;
        default: break;
        }
      }
      break;
    case SpvOpMemberDecorate:
      if (n >= 4 && o[2] == SpvDecorationOffset && !add_offset(r, o[0], o[1], o[3])) {
        format_message(r->message, r->message_size, "out of memory");
        return SPVGEN_ERROR_OUT_OF_MEMORY;
      }
      break;
    case SpvOpTypeBool:
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
    case SpvOpTypeStruct:
    case SpvOpTypePointer:
    case SpvOpTypeCooperativeMatrixKHR: {
      id_info *t = n >= 1 ? id_at(r, o[0]) : NULL;
      if (!t) return malformed(r, "type at word %zu defines an id outside the bound %u", i, r->bound);
      if (t->opcode)
        return malformed(r, "type at word %zu defines id %u, which is already defined", i, o[0]);
      /* A pointer announced by OpTypeForwardPointer may be used before it is defined (a
       * buffer reference's struct naming its own pointer: a linked list). */
      if (op == SpvOpTypePointer && t->forward_pointer) t->used_early = false;
      if (t->used_early)
        return malformed(r,
                         "type %u at word %zu is used by a type defined before it (a type "
                         "may only use ids defined before it)",
                         o[0], i);
      /* Its components, before it counts as defined: a struct naming itself is caught
       * here. */
      switch (op) {
      case SpvOpTypeVector:
      case SpvOpTypeMatrix:
      case SpvOpTypeRuntimeArray:
        if (n >= 2) note_use(r, o[1]);
        break;
      case SpvOpTypeArray:
        if (n >= 2) note_use(r, o[1]);
        if (n >= 3) note_use(r, o[2]);
        break;
      case SpvOpTypeStruct:
        for (uint32_t k = 1; k < n; k++) note_use(r, o[k]);
        break;
      default: break;
      }
      if (t->used_early)
        return malformed(r, "type %u at word %zu contains itself", o[0], i);
      t->opcode = (uint16_t)op;
      t->first_word = (uint32_t)i;
      t->word_count = wc;
      if (n >= 2) t->a = o[1];
      if (n >= 3) t->b = o[2];
      if (n >= 4) t->c = o[3];
      if (!add_type(r, o[0])) {
        format_message(r->message, r->message_size, "out of memory");
        return SPVGEN_ERROR_OUT_OF_MEMORY;
      }
      if (op == SpvOpTypeCooperativeMatrixKHR && n >= 3 && valid_id(r, o[2])) {
        const id_info *scope = id_get(r, o[2]);
        if (scope->opcode == SpvOpConstant && scope->a == SpvScopeWorkgroup)
          require(out, SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE,
                  "a workgroup-scope cooperative matrix type");
      }
      break;
    }
    case SpvOpTypeForwardPointer:
      if (n >= 1 && id_at(r, o[0])) id_at(r, o[0])->forward_pointer = true;
      break;
    case SpvOpConstant:
    case SpvOpSpecConstant:
      if (n >= 3 && id_at(r, o[1])) {
        id_info *t = id_at(r, o[1]);
        if (t->used_early)
          return malformed(r,
                           "constant %u at word %zu is used as an array length by a type "
                           "defined before it",
                           o[1], i);
        t->opcode = SpvOpConstant;
        t->is_spec = op == SpvOpSpecConstant;
        t->a = o[2];
      }
      break;
    case SpvOpVariable:
      if (n >= 3 && id_at(r, o[1])) {
        id_info *t = id_at(r, o[1]);
        if (t->opcode != SpvOpVariable &&
            !sg_grow(&r->variables, &r->variable_cap, r->variable_count + 1, sizeof *r->variables, 16, SIZE_MAX)) {
          format_message(r->message, r->message_size, "out of memory");
          return SPVGEN_ERROR_OUT_OF_MEMORY;
        }
        if (t->opcode != SpvOpVariable) r->variables[r->variable_count++] = o[1];
        t->opcode = SpvOpVariable;
        t->a = o[0]; /* pointer type */
        t->b = o[2]; /* storage class */
      }
      break;
    default: break;
    }
    i += wc;
  }

  out->entry_found = entry_func != 0;
  for (uint32_t k = 0; k < local_mode_count; k++)
    if (local_modes[k][0] == entry_func) memcpy(out->local_size, &local_modes[k][1], 12);
  for (uint32_t k = 0; k < local_size_id_count; k++)
    if (local_size_id_entries[k] == entry_func) out->local_size_id = true;
  if (out->local_size_id) require(out, SPVGEN_FEATURE_MAINTENANCE4, "execution mode LocalSizeId");

  compute_sizes(r);
  out->size_work = r->work;

  /* Buffers and push constants. */
  /* In id order, as the bindings have always been listed. */
  if (r->variable_count > 1) qsort(r->variables, r->variable_count, sizeof *r->variables, compare_ids);
  for (size_t vi = 0; vi < r->variable_count; vi++) {
    const id_info *v = id_get(r, r->variables[vi]);
    if (v->opcode != SpvOpVariable) continue;
    uint32_t sc = v->b;
    if (sc != SpvStorageClassUniform && sc != SpvStorageClassStorageBuffer &&
        sc != SpvStorageClassUniformConstant && sc != SpvStorageClassPushConstant)
      continue;
    uint32_t pointee = 0;
    if (id_get(r, v->a)->opcode == SpvOpTypePointer) pointee = id_get(r, v->a)->b;
    if (sc == SpvStorageClassPushConstant) {
      uint64_t size = type_size(r, pointee);
      if (size > UINT32_MAX) size = UINT32_MAX;
      if (size > out->push_constant_size) out->push_constant_size = (uint32_t)size;
      continue;
    }
    if (out->binding_count == SG_REFLECT_MAX_BINDINGS) {
      format_message(r->message, r->message_size, "the module declares more than %d resources",
                       SG_REFLECT_MAX_BINDINGS);
      return SPVGEN_ERROR_UNSUPPORTED;
    }
    sg_reflected_binding *b = &out->bindings[out->binding_count++];
    b->set = v->set == UINT32_MAX ? 0 : v->set;
    b->binding = v->binding == UINT32_MAX ? 0 : v->binding;
    const id_info *p = valid_id(r, pointee) ? id_get(r, pointee) : NULL;
    b->supported = sc != SpvStorageClassUniformConstant && p && p->opcode == SpvOpTypeStruct;
    b->kind = (sc == SpvStorageClassUniform && p && !p->buffer_block)
                  ? SPVGEN_BINDING_UNIFORM_BUFFER
                  : SPVGEN_BINDING_STORAGE_BUFFER;
    b->min_size = b->supported ? type_size(r, pointee) : 0;
  }
  return SPVGEN_OK;
}

spvgen_status sg_reflect(const uint32_t *words, size_t count, const char *entry_point,
                                sg_reflection *out, char *message, size_t message_size) {
  memset(out, 0, sizeof *out);
  reflector r;
  memset(&r, 0, sizeof r);
  r.words = words;
  r.count = count;
  r.message = message;
  r.message_size = message_size;
  if (!words || count < 5)
    return malformed(&r, "%zu words, fewer than the 5-word header", words ? count : 0);
  if (words[0] != MAGIC) {
    if (words[0] == 0x03022307u)
      return malformed(&r, "the words are byte-swapped (magic 0x%08x)", words[0]);
    return malformed(&r, "bad magic number 0x%08x", words[0]);
  }
  out->version = words[1];
  r.bound = words[3];
  if (r.bound == 0 || r.bound > MAX_BOUND)
    return malformed(&r, "id bound %u is 0 or larger than %u", words[3], MAX_BOUND);
  if (r.bound <= count + 64) { /* dense: as many entries as the module has words, or fewer */
    r.ids = malloc(r.bound * sizeof *r.ids);
    if (r.ids)
      for (uint32_t i = 0; i < r.bound; i++) r.ids[i] = no_info;
  } else { /* sparse: two slots per word */
    r.cap = 64;
    while (r.cap < 2 * count + 64) r.cap *= 2;
    r.ids = malloc(r.cap * sizeof *r.ids);
    r.keys = calloc(r.cap, sizeof *r.keys);
  }
  if (!r.ids || (r.cap && !r.keys)) {
    free(r.ids);
    free(r.keys);
    format_message(message, message_size, "out of memory");
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  spvgen_status st = walk(&r, entry_point ? entry_point : "main", out);
  free(r.ids);
  free(r.keys);
  free(r.variables);
  free(r.offsets);
  free(r.types);
  return st;
}

/* ------------------------------------------------------ kernel metadata ---- */

static int compare_bindings(const void *a, const void *b) {
  const spvgen_binding *x = a, *y = b;
  if (x->set != y->set) return x->set < y->set ? -1 : 1;
  if (x->binding != y->binding) return x->binding < y->binding ? -1 : 1;
  return 0;
}

spvgen_status sg_reflection_to_info(const sg_reflection *r, spvgen_kernel_info *info,
                                        char *message, size_t message_size) {
  if (r->binding_count > SPVGEN_MAX_BINDINGS) {
    snprintf(message, message_size, "the module has %u buffers; at most %d", r->binding_count,
             SPVGEN_MAX_BINDINGS);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  /* What the caller said about its bindings (names, sizes, access) outlives the
   * re-derivation from the words; its address bindings are no descriptors, so the words
   * do not list them. */
  uint32_t given_count = info->binding_count < SPVGEN_MAX_BINDINGS ? info->binding_count
                                                                   : SPVGEN_MAX_BINDINGS;
  spvgen_binding given[SPVGEN_MAX_BINDINGS];
  memcpy(given, info->bindings, given_count * sizeof given[0]);
  uint32_t address_count = 0;
  for (uint32_t i = 0; i < given_count; i++)
    if (given[i].kind == SPVGEN_BINDING_DEVICE_ADDRESS) address_count++;
  if (r->binding_count + address_count > SPVGEN_MAX_BINDINGS) {
    snprintf(message, message_size, "the module has %u buffers and info %u address bindings; at most %d",
             r->binding_count, address_count, SPVGEN_MAX_BINDINGS);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  info->binding_count = r->binding_count;
  for (uint32_t i = 0; i < r->binding_count; i++) {
    memset(&info->bindings[i], 0, sizeof info->bindings[i]);
    info->bindings[i].set = r->bindings[i].set;
    info->bindings[i].binding = r->bindings[i].binding;
    info->bindings[i].kind = r->bindings[i].kind;
  }
  qsort(info->bindings, info->binding_count, sizeof info->bindings[0], compare_bindings);
  /* Variables that alias one binding (two views of a buffer, e.g. scalar and 128-bit
   * elements) are one descriptor. */
  uint32_t n = 0;
  for (uint32_t i = 0; i < info->binding_count; i++) {
    if (n && info->bindings[n - 1].set == info->bindings[i].set &&
        info->bindings[n - 1].binding == info->bindings[i].binding) {
      if (info->bindings[n - 1].kind != info->bindings[i].kind) {
        snprintf(message, message_size,
                 "set %u binding %u is declared both as a storage and as a uniform buffer",
                 info->bindings[i].set, info->bindings[i].binding);
        return SPVGEN_ERROR_UNSUPPORTED;
      }
      continue;
    }
    info->bindings[n++] = info->bindings[i];
  }
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t g = 0; g < given_count; g++)
      if (given[g].kind != SPVGEN_BINDING_DEVICE_ADDRESS && given[g].set == info->bindings[i].set &&
          given[g].binding == info->bindings[i].binding) {
        info->bindings[i].name = given[g].name;
        info->bindings[i].min_size = given[g].min_size;
        info->bindings[i].access = given[g].access;
        info->bindings[i].alignment = given[g].alignment;
      }
  for (uint32_t g = 0; g < given_count; g++)
    if (given[g].kind == SPVGEN_BINDING_DEVICE_ADDRESS) info->bindings[n++] = given[g];
  info->binding_count = n;
  uint32_t pc = (r->push_constant_size + 3u) & ~3u;
  /* Address slots the caller placed past the block's static end (a block the words
   * declare smaller) still belong to it. */
  for (uint32_t i = 0; i < n; i++)
    if (info->bindings[i].kind == SPVGEN_BINDING_DEVICE_ADDRESS &&
        info->bindings[i].address_offset + 8u > pc)
      pc = info->bindings[i].address_offset + 8u;
  info->push_constant_size = pc;
  for (int i = 0; i < 3; i++)
    if (r->local_size[i]) info->local_size[i] = r->local_size[i];
  info->features = r->required_features;
  /* A required subgroup size is a pipeline property the device must allow. */
  if (info->required_subgroup_size) info->features |= SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL;
  info->subgroup_operations = r->required_subgroup_ops;
  info->api_version = r->required_api_version;
  info->spirv_version = r->version;
  info->capability_count = r->capability_count;
  memcpy(info->capabilities, r->capabilities, r->capability_count * sizeof r->capabilities[0]);
  return SPVGEN_OK;
}

uint64_t spvgen_words_hash(const uint32_t *words, size_t count) {
  if (!words) return 0;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < count; i++) {
    uint32_t w = words[i];
    for (int b = 0; b < 4; b++) h = (h ^ ((w >> (8 * b)) & 0xFFu)) * 1099511628211ull;
  }
  return h;
}

spvgen_status spvgen_kernel_reflect(const uint32_t *words, size_t count, spvgen_kernel_info *info,
                                    char *message, size_t message_size) {
  char scratch[8];
  if (!message || !message_size) message = scratch, message_size = sizeof scratch;
  message[0] = 0;
  if (!info) {
    snprintf(message, message_size, "spvgen_kernel_reflect: info is NULL");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  const char *entry = info->entry_point ? info->entry_point : "main";
  sg_reflection *r = malloc(sizeof *r);
  if (!r) {
    snprintf(message, message_size, "spvgen_kernel_reflect: out of memory");
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  char msg[448];
  spvgen_status st = sg_reflect(words, count, entry, r, msg, sizeof msg);
  if (st == SPVGEN_OK && !r->entry_found) {
    snprintf(msg, sizeof msg, "the module has no GLCompute entry point named '%s' (it has: %s)", entry,
             r->entry_points[0] ? r->entry_points : "none");
    st = SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; st == SPVGEN_OK && i < r->binding_count; i++)
    if (!r->bindings[i].supported) {
      snprintf(msg, sizeof msg, "set %u binding %u is not a buffer block", r->bindings[i].set,
               r->bindings[i].binding);
      st = SPVGEN_ERROR_UNSUPPORTED;
    }
  if (st == SPVGEN_OK) st = sg_reflection_to_info(r, info, msg, sizeof msg);
  if (st == SPVGEN_OK) info->hash = spvgen_words_hash(words, count);
  if (st != SPVGEN_OK) snprintf(message, message_size, "spvgen_kernel_reflect: %s", msg);
  free(r);
  return st;
}
