/* scripts/module-dump/canon.c — a canonical form of a SPIR-V module, for refactors that
 * may renumber ids or reorder declarations but must not change what a module does.
 *
 *   canon FILE.spv...        one line per module: "<canonical hash> <file>"
 *   canon --text FILE.spv    the canonical text itself (to diff two modules)
 *   canon --fold ...         after the helper layer's constant folds (see fold_module)
 *
 * The canonical form names every id by what it is rather than by its number:
 *   - types, constants, global variables and the other declarations before the first
 *     function: by a hash of their opcode, their operands (ids by their canonical names,
 *     recursively) and every decoration and name attached to them; declarations that
 *     are still alike take an occurrence number in module order;
 *   - functions by the order of their definitions;
 *   - ids inside a function (labels, results) by the order of their first appearance in
 *     the body, except that the Function variables hoisted into the first block are
 *     named by their first use and listed in that order.
 * Global lines (capabilities, extensions, declarations, decorations, names, entry points
 * with their interface lists sorted) are sorted; function bodies keep their order. Two
 * modules with the same canonical hash differ at most in id numbers, in the order of
 * their declarations, and in the order of hoisted variables.
 *
 * Built by scripts/module-dump.sh --canon against the SPIRV-Tools library of the
 * dependency cache (spvBinaryParse gives each operand's kind). Not part of the library. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv-tools/libspirv.h"
#include "spirv/unified1/spirv.h"

typedef struct operand {
  uint32_t offset, count;
  int is_id;
} operand;

typedef struct inst {
  uint16_t opcode;
  uint32_t result, type;
  uint32_t *words;
  uint32_t nwords;
  operand *ops;
  uint32_t nops;
} inst;

typedef struct module {
  inst *in;
  size_t n, cap;
  uint32_t bound;
} module;

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "canon: out of memory\n");
    exit(2);
  }
  return p;
}

static spv_result_t on_header(void *user, spv_endianness_t e, uint32_t magic, uint32_t version,
                              uint32_t generator, uint32_t bound, uint32_t schema) {
  (void)e, (void)magic, (void)version, (void)generator, (void)schema;
  ((module *)user)->bound = bound;
  return SPV_SUCCESS;
}

static int operand_is_id(spv_operand_type_t t) {
  return t == SPV_OPERAND_TYPE_ID || t == SPV_OPERAND_TYPE_TYPE_ID || t == SPV_OPERAND_TYPE_RESULT_ID ||
         t == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID || t == SPV_OPERAND_TYPE_SCOPE_ID;
}

static spv_result_t on_inst(void *user, const spv_parsed_instruction_t *p) {
  module *m = user;
  if (m->n == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 1024;
    inst *grown = realloc(m->in, m->cap * sizeof *grown);
    if (!grown) return SPV_ERROR_OUT_OF_MEMORY;
    m->in = grown;
  }
  inst *i = &m->in[m->n++];
  i->opcode = p->opcode;
  i->result = p->result_id;
  i->type = p->type_id;
  i->nwords = p->num_words;
  i->words = xmalloc(p->num_words * sizeof *i->words);
  memcpy(i->words, p->words, p->num_words * sizeof *i->words);
  i->nops = p->num_operands;
  i->ops = xmalloc((p->num_operands + 1) * sizeof *i->ops);
  for (uint32_t k = 0; k < p->num_operands; k++) {
    i->ops[k].offset = p->operands[k].offset;
    i->ops[k].count = p->operands[k].num_words;
    i->ops[k].is_id = operand_is_id(p->operands[k].type);
  }
  return SPV_SUCCESS;
}

/* ------------------------------------------------------------- strings ---- */
typedef struct str {
  char *s;
  size_t len, cap;
} str;

static void put(str *b, const char *t) {
  size_t n = strlen(t);
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    char *g = realloc(b->s, b->cap);
    if (!g) exit(2);
    b->s = g;
  }
  memcpy(b->s + b->len, t, n + 1);
  b->len += n;
}

static uint64_t fnv(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* ---------------------------------------------------------- canonical ---- */
static char **names; /* canonical name per id (NULL: not yet named) */

static const char *name_of(uint32_t id) { return id < 0xffffffffu && names[id] ? names[id] : "?"; }

/* An instruction with ids by name; skip: an operand index left out (-1: none). */
static void render(str *b, const inst *i, int skip) {
  char t[32];
  snprintf(t, sizeof t, "op%u", i->opcode);
  put(b, t);
  for (uint32_t k = 0; k < i->nops; k++) {
    if ((int)k == skip) continue;
    const operand *o = &i->ops[k];
    put(b, " ");
    if (o->is_id) {
      put(b, name_of(i->words[o->offset]));
    } else {
      for (uint32_t w = 0; w < o->count; w++) {
        snprintf(t, sizeof t, w ? ".%x" : "%x", i->words[o->offset + w]);
        put(b, t);
      }
    }
  }
}

static int is_annotation(uint16_t op) {
  return op == SpvOpDecorate || op == SpvOpMemberDecorate || op == SpvOpDecorateId || op == SpvOpName ||
         op == SpvOpMemberName || op == SpvOpDecorateString || op == SpvOpMemberDecorateString;
}

/* Instructions without side effects or memory access, whose result depends only on their
 * operands: arithmetic, logic, conversions, composites, access chains, extended
 * instructions (GLSL.std.450), cooperative MulAdd / length / conversion / transpose and
 * the tensor layout and view operations. */
static int is_pure(uint16_t op) {
  return op == SpvOpExtInst || (op >= 65 && op <= 68) || (op >= 77 && op <= 84) || (op >= 109 && op <= 205) ||
         op == 4459 || op == 4460 || op == 5293 || op == 5361 || op == 5362 || (op >= 5372 && op <= 5379) || op == 5382 || op == 5384 ||
         op == 5390;
}

static int result_operand(const inst *i) {
  for (uint32_t k = 0; k < i->nops; k++)
    if (i->ops[k].is_id && i->words[i->ops[k].offset] == i->result && i->result) return (int)k;
  return -1;
}

static void set_name(uint32_t id, const char *n) {
  free(names[id]);
  names[id] = xmalloc(strlen(n) + 1);
  strcpy(names[id], n);
}


/* ---------------------------------------------------------------- folding ---- */
/* --fold: the module as it would be after the constant folds of the emitters' helper
 * layer (emitters/common/kernel_builder.c): x + 0, x - 0, x * 1, x * 0, x / 1, x % 1,
 * x < 0, x <= 0xffffffff, true && x, select(constant, a, b), umin(x, x) and constant op
 * constant (32-bit integers). Folded instructions are dropped and their uses renamed;
 * constants nothing uses any more are dropped, and so are pure instructions whose results
 * nothing uses (dead values). So a module whose emitter now folds what it emitted before,
 * or no longer computes a value it never used, compares equal to the old one. */
static int is_pure(uint16_t op);

typedef struct kinfo {
  int kind;       /* 0 none, 1 integer constant, 2 bool constant */
  uint32_t type;  /* its type */
  uint32_t value;
} kinfo;

/* How often each id (up to bound) is an operand of a live instruction, annotations left
 * out. */
static uint32_t *count_uses(const module *m, uint32_t bound) {
  uint32_t *uses = calloc(bound + 1, sizeof *uses);
  if (!uses) exit(2);
  for (size_t i = 0; i < m->n; i++) {
    const inst *x = &m->in[i];
    if (!x->opcode || is_annotation(x->opcode)) continue;
    for (uint32_t o = 0; o < x->nops; o++)
      if (x->ops[o].is_id && x->words[x->ops[o].offset] != x->result && x->words[x->ops[o].offset] <= bound)
        uses[x->words[x->ops[o].offset]]++;
  }
  return uses;
}

static void fold_module(module *m) {
  size_t first_fn = m->n;
  for (size_t i = 0; i < m->n; i++)
    if (m->in[i].opcode == SpvOpFunction) {
      first_fn = i;
      break;
    }
  uint32_t cap = m->bound * 2 + 64;
  kinfo *k = calloc(cap, sizeof *k);
  uint32_t *subst = calloc(cap, sizeof *subst);
  uint8_t *int32 = calloc(cap, 1);
  uint32_t bool_t = 0, glsl = 0;
  if (!k || !subst || !int32) exit(2);
  for (size_t i = 0; i < first_fn; i++) {
    inst *g = &m->in[i];
    if (g->opcode == SpvOpTypeInt && g->words[2] == 32) int32[g->result] = 1;
    if (g->opcode == SpvOpTypeBool) bool_t = g->result;
    if (g->opcode == SpvOpExtInstImport && !strcmp((const char *)&g->words[2], "GLSL.std.450")) glsl = g->result;
    if (g->opcode == SpvOpConstant && int32[g->words[1]]) k[g->result] = (kinfo){1, g->words[1], g->words[3]};
    if (g->opcode == SpvOpConstantTrue) k[g->result] = (kinfo){2, g->words[1], 1};
    if (g->opcode == SpvOpConstantFalse) k[g->result] = (kinfo){2, g->words[1], 0};
  }
  /* synthetic constants, appended to the globals */
  inst *extra = NULL;
  size_t nextra = 0;
  uint32_t next_id = m->bound;
#define SUB(id) (subst[id] ? subst[id] : (id))
  for (size_t i = first_fn; i < m->n; i++) {
    inst *x = &m->in[i];
    for (uint32_t o = 0; o < x->nops; o++)
      if (x->ops[o].is_id && x->words[x->ops[o].offset] != x->result)
        x->words[x->ops[o].offset] = SUB(x->words[x->ops[o].offset]);
    uint32_t op = x->opcode, r = x->result, t = x->type;
    uint32_t a = 0, b = 0;
    int glsl_min = op == SpvOpExtInst && x->words[3] == glsl && x->words[4] == 38 && x->nwords == 7;
    if (glsl_min) {
      a = x->words[5];
      b = x->words[6];
    } else if (x->nwords >= 5) {
      a = x->words[3];
      b = x->words[4];
    }
    int ka = a < cap && k[a].kind, kb = b < cap && k[b].kind;
    uint32_t av = ka ? k[a].value : 0, bv = kb ? k[b].value : 0;
    uint32_t to = 0; /* the id the result becomes */
    int has_value = 0;
    uint32_t value = 0, vtype = t;
    int arith = (op == SpvOpIAdd || op == SpvOpISub || op == SpvOpIMul || op == SpvOpUDiv || op == SpvOpUMod ||
                 glsl_min) && x->nwords == (glsl_min ? 7u : 5u) && t < cap && int32[t];
    int cmp = (op == SpvOpULessThan || op == SpvOpULessThanEqual) && x->nwords == 5;
    if (arith && ka && kb && !((op == SpvOpUDiv || op == SpvOpUMod) && !bv)) {
      has_value = 1;
      value = op == SpvOpIAdd ? av + bv : op == SpvOpISub ? av - bv : op == SpvOpIMul ? av * bv
              : op == SpvOpUDiv ? av / bv : op == SpvOpUMod ? av % bv : (av < bv ? av : bv);
    } else if (arith) {
      if (op == SpvOpIAdd && kb && !bv) to = a;
      else if (op == SpvOpIAdd && ka && !av) to = b;
      else if (op == SpvOpISub && kb && !bv) to = a;
      else if (op == SpvOpIMul && kb && bv == 1) to = a;
      else if (op == SpvOpIMul && ka && av == 1) to = b;
      else if (op == SpvOpIMul && ((kb && !bv) || (ka && !av))) has_value = 1, value = 0;
      else if (op == SpvOpUDiv && kb && bv == 1) to = a;
      else if (op == SpvOpUMod && kb && bv == 1) has_value = 1, value = 0;
      else if (glsl_min && a == b) to = a;
    } else if (cmp && k[a].kind == 1 && k[b].kind == 1) {
      has_value = 2, value = op == SpvOpULessThan ? av < bv : av <= bv;
    } else if (cmp && kb && k[b].kind == 1 && ((op == SpvOpULessThan && !bv) || (op == SpvOpULessThanEqual && bv == 0xffffffffu))) {
      has_value = 2, value = op == SpvOpULessThanEqual;
    } else if (op == SpvOpLogicalAnd && x->nwords == 5) {
      if (ka && k[a].kind == 2) to = av ? b : a;
      else if (kb && k[b].kind == 2) to = bv ? a : b;
    } else if (op == SpvOpSelect && x->nwords == 6 && a < cap && k[a].kind == 2) {
      to = av ? b : x->words[5];
    }
    if (has_value) {
      int kind = has_value == 2 ? 2 : 1;
      if (kind == 2) vtype = bool_t;
      /* an existing constant of that type and value, else a new one */
      for (uint32_t id = 1; id < next_id && !to; id++)
        if (k[id].kind == kind && k[id].type == vtype && k[id].value == value) to = id;
      if (!to && next_id < cap) {
        to = next_id++;
        k[to] = (kinfo){kind, vtype, value};
        extra = realloc(extra, (nextra + 1) * sizeof *extra);
        inst *c = &extra[nextra++];
        memset(c, 0, sizeof *c);
        c->opcode = kind == 2 ? (value ? SpvOpConstantTrue : SpvOpConstantFalse) : SpvOpConstant;
        c->result = to;
        c->type = vtype;
        c->nwords = kind == 2 ? 3 : 4;
        c->words = xmalloc(4 * sizeof *c->words);
        c->words[0] = (c->nwords << 16) | c->opcode;
        c->words[1] = vtype;
        c->words[2] = to;
        c->words[3] = value;
        c->nops = kind == 2 ? 2 : 3;
        c->ops = xmalloc(3 * sizeof *c->ops);
        c->ops[0] = (operand){1, 1, 1};
        c->ops[1] = (operand){2, 1, 1};
        c->ops[2] = (operand){3, 1, 0};
      }
    }
    if (to) {
      subst[r] = to;
      x->opcode = 0; /* dropped */
    }
  }
  /* later globals never refer to function results; decorations on folded ids go */
  for (size_t i = 0; i < first_fn; i++) {
    inst *g = &m->in[i];
    if (is_annotation(g->opcode) && g->words[1] < cap && subst[g->words[1]]) g->opcode = 0;
  }
  /* splice the synthetic constants in before the first function */
  if (nextra) {
    inst *all = xmalloc((m->n + nextra) * sizeof *all);
    memcpy(all, m->in, first_fn * sizeof *all);
    memcpy(all + first_fn, extra, nextra * sizeof *all);
    memcpy(all + first_fn + nextra, m->in + first_fn, (m->n - first_fn) * sizeof *all);
    free(m->in);
    m->in = all;
    m->n += nextra;
    m->cap = m->n;
    first_fn += nextra;
  }
  free(extra);
  m->bound = next_id;
  /* pure instructions whose results nothing uses (dead values), until none is left */
  for (int changed = 1; changed;) {
    changed = 0;
    uint32_t *used = count_uses(m, next_id);
    for (size_t i = first_fn; i < m->n; i++) {
      inst *x = &m->in[i];
      if (x->opcode && x->result && is_pure(x->opcode) && !used[x->result]) {
        x->opcode = 0;
        changed = 1;
      }
    }
    free(used);
  }
  /* types and constants nothing but annotations refers to (until none is left), with
   * their annotations */
  for (int changed = 1; changed;) {
    changed = 0;
    uint32_t *uses = count_uses(m, next_id);
    for (size_t i = 0; i < first_fn; i++) {
      inst *g = &m->in[i];
      int decl = g->result && g->opcode != SpvOpVariable && g->opcode != SpvOpExtInstImport &&
                 g->opcode != SpvOpString && !is_annotation(g->opcode) && g->opcode;
      if (decl && !uses[g->result]) {
        g->opcode = 0;
        changed = 1;
      }
    }
    for (size_t i = 0; i < first_fn; i++) {
      inst *g = &m->in[i];
      if (is_annotation(g->opcode) && g->words[1] <= next_id && !uses[g->words[1]]) {
        int target_gone = 1;
        for (size_t j = 0; j < m->n && target_gone; j++)
          if (m->in[j].opcode && m->in[j].result == g->words[1]) target_gone = 0;
        if (target_gone) g->opcode = 0;
      }
    }
    free(uses);
  }
  free(k);
  free(subst);
  free(int32);
#undef SUB
}

static char *canonical(module *m) {
  names = calloc(m->bound + 1, sizeof *names);
  if (!names) exit(2);
  size_t first_fn = m->n;
  for (size_t i = 0; i < m->n; i++)
    if (m->in[i].opcode == SpvOpFunction) {
      first_fn = i;
      break;
    }
  /* Functions by definition order (they may be referenced before they are defined). */
  uint32_t fcount = 0;
  for (size_t i = first_fn; i < m->n; i++)
    if (m->in[i].opcode == SpvOpFunction) {
      char t[32];
      snprintf(t, sizeof t, "F%u", fcount++);
      set_name(m->in[i].result, t);
    }
  /* Global declarations, in module order (operands are declared before use), each named
   * by its rendering plus its annotations. */
  typedef struct seen {
    uint64_t h;
    uint32_t count;
  } seen;
  seen *seen_h = xmalloc((first_fn + 1) * sizeof *seen_h);
  size_t nseen = 0;
  for (size_t i = 0; i < first_fn; i++) {
    inst *g = &m->in[i];
    if (!g->opcode || !g->result || is_annotation(g->opcode)) continue;
    str b = {0};
    render(&b, g, result_operand(g));
    /* annotations of this id, sorted */
    size_t na = 0;
    char **ann = NULL;
    for (size_t j = 0; j < first_fn; j++) {
      inst *a = &m->in[j];
      if (!a->opcode || !is_annotation(a->opcode) || a->words[1] != g->result) continue;
      str t = {0};
      render(&t, a, 0);
      ann = realloc(ann, (na + 1) * sizeof *ann);
      ann[na++] = t.s;
    }
    qsort(ann, na, sizeof *ann, cmp_str);
    for (size_t j = 0; j < na; j++) {
      put(&b, " @");
      put(&b, ann[j]);
      free(ann[j]);
    }
    free(ann);
    uint64_t h = fnv(b.s, b.len);
    free(b.s);
    uint32_t occ = 0;
    for (size_t j = 0; j < nseen; j++)
      if (seen_h[j].h == h) occ = ++seen_h[j].count;
    if (!occ) seen_h[nseen++] = (seen){h, 0};
    char t[48];
    snprintf(t, sizeof t, "g%016llx%s%u", (unsigned long long)h, occ ? "#" : "", occ);
    if (!occ) t[17] = 0;
    set_name(g->result, t);
  }
  free(seen_h);

  /* Global lines, sorted. */
  char **lines = NULL;
  size_t nl = 0;
  for (size_t i = 0; i < first_fn; i++) {
    inst *g = &m->in[i];
    if (!g->opcode) continue;
    str b = {0};
    if (g->opcode == SpvOpEntryPoint) {
      /* model, function, name, then the interface ids: sorted */
      put(&b, "entry");
      size_t nid = 0;
      char **ids = xmalloc(g->nops * sizeof *ids);
      for (uint32_t k = 0; k < g->nops; k++) {
        const operand *o = &g->ops[k];
        if (k >= 3 && o->is_id) {
          ids[nid++] = (char *)name_of(g->words[o->offset]);
          continue;
        }
        char t[32];
        put(&b, " ");
        if (o->is_id) put(&b, name_of(g->words[o->offset]));
        else
          for (uint32_t w = 0; w < o->count; w++) {
            snprintf(t, sizeof t, w ? ".%x" : "%x", g->words[o->offset + w]);
            put(&b, t);
          }
      }
      qsort(ids, nid, sizeof *ids, cmp_str);
      for (size_t k = 0; k < nid; k++) {
        put(&b, " ");
        put(&b, ids[k]);
      }
      free(ids);
    } else {
      render(&b, g, -1);
    }
    lines = realloc(lines, (nl + 1) * sizeof *lines);
    lines[nl++] = b.s;
  }
  qsort(lines, nl, sizeof *lines, cmp_str);
  str out = {0};
  for (size_t i = 0; i < nl; i++) {
    put(&out, lines[i]);
    put(&out, "\n");
    free(lines[i]);
  }
  free(lines);

  /* Functions. Results of pure instructions (no memory access, no control flow: see
   * is_pure) are named by value (a hash of the instruction with its operands' names), so
   * the order in which an emitter computes independent values does not matter; every
   * other id (labels, loads, calls, variables) by the order of first appearance among
   * the instructions that are not pure; hoisted variables by their first use. Each block
   * is written as its pure instructions, sorted, then the rest in order. */
  uint32_t fn = 0;
  for (size_t i = first_fn; i < m->n;) {
    size_t end = i;
    while (end < m->n && m->in[end].opcode != SpvOpFunctionEnd) end++;
    uint32_t counter = 0;
    char t[48];
    /* the leading OpVariables of the first block */
    size_t vbegin = i, vend;
    while (vbegin <= end && m->in[vbegin].opcode != SpvOpLabel) vbegin++;
    vbegin++;
    vend = vbegin;
    while (vend <= end && m->in[vend].opcode == SpvOpVariable) vend++;
    uint32_t *vorder = xmalloc((vend - vbegin + 1) * sizeof *vorder);
    size_t nv = 0;
    for (size_t k = i; k <= end && k < m->n; k++) {
      if (k >= vbegin && k < vend) continue;
      inst *x = &m->in[k];
      if (!x->opcode) continue;
      int pure = is_pure(x->opcode) && x->result;
      for (uint32_t o = 0; o < x->nops; o++) {
        if (!x->ops[o].is_id) continue;
        uint32_t id = x->words[x->ops[o].offset];
        if (id > m->bound || names[id] || (pure && id == x->result)) continue;
        int hoisted = 0;
        for (size_t v = vbegin; v < vend; v++)
          if (m->in[v].result == id) hoisted = 1;
        snprintf(t, sizeof t, "%c%u_%u", hoisted ? 'v' : 'l', fn, counter++);
        set_name(id, t);
        if (hoisted) vorder[nv++] = id;
      }
      if (pure) {
        str b = {0};
        render(&b, x, result_operand(x));
        snprintf(t, sizeof t, "p%u_%016llx", fn, (unsigned long long)fnv(b.s, b.len));
        free(b.s);
        set_name(x->result, t);
      }
    }
    /* variables never used afterwards keep module order */
    for (size_t v = vbegin; v < vend; v++)
      if (!names[m->in[v].result]) {
        snprintf(t, sizeof t, "v%u_%u", fn, counter++);
        set_name(m->in[v].result, t);
        vorder[nv++] = m->in[v].result;
      }
    char **pure_lines = NULL;
    size_t npure = 0;
    str seq = {0};
    for (size_t k = i; k <= end + 1 && k <= m->n; k++) {
      int flush = k == end + 1 || k == m->n || m->in[k].opcode == SpvOpLabel;
      if (flush) {
        qsort(pure_lines, npure, sizeof *pure_lines, cmp_str);
        for (size_t q = 0; q < npure; q++) {
          put(&out, pure_lines[q]);
          put(&out, "\n");
          free(pure_lines[q]);
        }
        npure = 0;
        if (seq.s) put(&out, seq.s);
        free(seq.s);
        seq = (str){0};
        if (k == end + 1 || k == m->n) break;
      }
      if (k == vend) {
        for (size_t v = 0; v < nv; v++)
          for (size_t w = vbegin; w < vend; w++)
            if (m->in[w].result == vorder[v]) {
              render(&seq, &m->in[w], -1);
              put(&seq, "\n");
            }
      }
      if (k >= vbegin && k < vend) continue;
      if (!m->in[k].opcode) continue;
      if (is_pure(m->in[k].opcode) && m->in[k].result) {
        str b = {0};
        render(&b, &m->in[k], -1);
        pure_lines = realloc(pure_lines, (npure + 1) * sizeof *pure_lines);
        pure_lines[npure++] = b.s;
      } else {
        render(&seq, &m->in[k], -1);
        put(&seq, "\n");
      }
    }
    free(pure_lines);
    free(vorder);
    fn++;
    i = end + 1;
  }
  for (uint32_t k = 0; k <= m->bound; k++) free(names[k]);
  free(names);
  return out.s ? out.s : calloc(1, 1);
}

static int load(const char *path, module *m, spv_context ctx) {
  memset(m, 0, sizeof *m);
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint32_t *w = xmalloc((size_t)size);
  size_t got = fread(w, 1, (size_t)size, f);
  fclose(f);
  /* Capabilities this SPIRV-Tools does not know yet (SPV_KHR_bfloat16: BFloat16TypeKHR,
   * BFloat16DotProductKHR, BFloat16CooperativeMatrixKHR) are renamed to ones it knows
   * (Float16 and friends) so that such modules parse; both dumps get the same renaming. */
  for (size_t i = 5; i + 1 < got / 4;) {
    uint32_t len = w[i] >> 16, op = w[i] & 0xFFFF;
    if (!len) break;
    if (op == SpvOpCapability && w[i + 1] >= 5116 && w[i + 1] <= 5118) w[i + 1] = 9 + (w[i + 1] - 5116);
    i += len;
  }
  spv_result_t r = spvBinaryParse(ctx, m, w, got / 4, on_header, on_inst, NULL);
  free(w);
  return r == SPV_SUCCESS ? 0 : -1;
}

static void release(module *m) {
  for (size_t i = 0; i < m->n; i++) {
    free(m->in[i].words);
    free(m->in[i].ops);
  }
  free(m->in);
}

int main(int argc, char **argv) {
  spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_3);
  int text = 0, do_fold = 0, a = 1;
  for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; a++) {
    if (!strcmp(argv[a], "--text")) text = 1;
    else if (!strcmp(argv[a], "--fold")) do_fold = 1;
  }
  int status = 0, unparsed = 0;
  for (; a < argc; a++) {
    module m;
    if (load(argv[a], &m, ctx)) {
      /* Not parseable by this SPIRV-Tools (the tests also finish deliberately odd
       * modules): compared by its bytes, i.e. by its file name. */
      release(&m);
      if (text) fprintf(stderr, "canon: %s: not parseable\n", argv[a]);
      else printf("raw:%s %s\n", strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a], argv[a]);
      unparsed++;
      continue;
    }
    if (do_fold) fold_module(&m);
    char *c = canonical(&m);
    if (text) fputs(c, stdout);
    else printf("%016llx %s\n", (unsigned long long)fnv(c, strlen(c)), argv[a]);
    free(c);
    release(&m);
  }
  spvContextDestroy(ctx);
  if (unparsed && !text) fprintf(stderr, "canon: %d modules not parseable, compared by their bytes\n", unparsed);
  return status;
}
