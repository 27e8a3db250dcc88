/* lib/core/helpers.c — the builder's convenience layer (issue 10, "the builder API as a
 * framework engineer meets it"): float constants of every float type, type and id
 * descriptions for messages, resource declarations (storage buffers that hand back
 * every pointer type, push-constant blocks with std430 offsets), access chains whose
 * result type is computed (and checked), and the read-only check of the store helpers.
 * Everything here sits on the public builder calls and sg_inst. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "coop_internal.h"


/* ========================================================= float encodings ==== */

typedef struct float_format {
  int ebits, mbits;
  bool finite_only; /* OCP E4M3: no infinities; S.1111.111 is the only NaN */
} float_format;

static bool format_of(uint32_t width, uint32_t encoding, float_format *f) {
  float_format r = {0, 0, false};
  if (encoding == SPVGEN_ABSENT) {
    if (width == 16) r.ebits = 5, r.mbits = 10;
    else if (width == 32) r.ebits = 8, r.mbits = 23;
    else if (width == 64) r.ebits = 11, r.mbits = 52;
    else return false;
  } else if (encoding == SPVGEN_FP_ENCODING_BFLOAT16 && width == 16) {
    r.ebits = 8, r.mbits = 7;
  } else if (encoding == SPVGEN_FP_ENCODING_FLOAT8_E4M3 && width == 8) {
    r.ebits = 4, r.mbits = 3, r.finite_only = true;
  } else if (encoding == SPVGEN_FP_ENCODING_FLOAT8_E5M2 && width == 8) {
    r.ebits = 5, r.mbits = 2;
  } else {
    return false;
  }
  *f = r;
  return true;
}

/* Round to nearest, ties to even, from a double (one rounding: no detour through
 * float). */
static uint64_t encode(double v, float_format f) {
  int total = 1 + f.ebits + f.mbits;
  uint64_t sign = signbit(v) ? 1ull << (total - 1) : 0;
  uint64_t expmax = (1ull << f.ebits) - 1;
  uint64_t inf = expmax << f.mbits;
  uint64_t nan = f.finite_only ? inf | ((1ull << f.mbits) - 1) : inf | (1ull << (f.mbits - 1));
  if (isnan(v)) return nan;
  double a = fabs(v);
  if (isinf(a)) return (f.finite_only ? nan : inf) | sign;
  if (a == 0) return sign;
  int bias = (1 << (f.ebits - 1)) - 1, emin = 1 - bias, x;
  frexp(a, &x);
  int e = x - 1; /* a in [2^e, 2^(e+1)) */
  int qe = (e < emin ? emin : e) - f.mbits; /* the unit in the last place */
  double q = ldexp(a, -qe);                 /* exact: a scaling by a power of two */
  double fl = floor(q), diff = q - fl;
  uint64_t n = (uint64_t)fl;
  if (diff > 0.5 || (diff == 0.5 && (n & 1))) n++;
  /* Subnormals are n itself (n = 2^mbits is the smallest normal); a carry out of the
   * significand moves into the exponent field by itself. */
  uint64_t bits = e < emin ? n : ((uint64_t)(e + bias) << f.mbits) + n - (1ull << f.mbits);
  if (f.finite_only ? bits >= nan : bits >= inf) return (f.finite_only ? nan : inf) | sign;
  return bits | sign;
}

static double decode(uint64_t bits, float_format f) {
  int total = 1 + f.ebits + f.mbits, bias = (1 << (f.ebits - 1)) - 1;
  uint64_t expmax = (1ull << f.ebits) - 1;
  uint64_t ef = (bits >> f.mbits) & expmax, mf = bits & ((1ull << f.mbits) - 1);
  double s = (bits >> (total - 1)) & 1 ? -1.0 : 1.0;
  if (f.finite_only && ef == expmax && mf == (1ull << f.mbits) - 1) return NAN;
  if (!f.finite_only && ef == expmax) return mf ? NAN : s * INFINITY;
  if (ef == 0) return s * ldexp((double)mf, 1 - bias - f.mbits);
  return s * ldexp((double)(mf | (1ull << f.mbits)), (int)ef - bias - f.mbits);
}

bool spvgen_float_bits(uint32_t width, uint32_t encoding, double value, uint64_t *bits) {
  float_format f;
  if (!format_of(width, encoding, &f)) return false;
  uint64_t b;
  if (width == 64 && encoding == SPVGEN_ABSENT)
    memcpy(&b, &value, 8);
  else
    b = encode(value, f);
  if (bits) *bits = b;
  return true;
}

bool spvgen_float_value(uint32_t width, uint32_t encoding, uint64_t bits, double *value) {
  float_format f;
  if (!format_of(width, encoding, &f)) return false;
  double v;
  if (width == 64 && encoding == SPVGEN_ABSENT)
    memcpy(&v, &bits, 8);
  else
    v = decode(bits & ((1ull << width) - 1), f);
  if (value) *value = v;
  return true;
}

uint32_t spvgen_const_float(spvgen_module *m, uint32_t type, double value) {
  uint64_t vb;
  memcpy(&vb, &value, sizeof vb);
  uint32_t id = sg_decl_memo_get(m, SG_MEMO_CONST_F, type, (uint32_t)vb, (uint32_t)(vb >> 32));
  if (id) return id;
  if (!sg_ok(m, __func__)) return 0;
  uint32_t width, encoding;
  char t[192];
  if (!sg_coop_float_type(m, type, &width, &encoding))
    return BAD(m, "type is %s; expected a float type (float16/32/64, bfloat16, float8)",
               spvgen_id_name(m, type, t, sizeof t));
  uint64_t bits;
  if (!spvgen_float_bits(width, encoding, value, &bits))
    return BAD(m, "type %s has an encoding spvgen_const_float does not know; use "
               "spvgen_const_bits", spvgen_type_name(m, type, t, sizeof t));
  uint32_t ops[4] = {type, 0, (uint32_t)bits, (uint32_t)(bits >> 32)};
  id = sg_inst(m, __func__, SpvOpConstant, ops, width > 32 ? 4 : 3);
  sg_decl_memo_put(m, SG_MEMO_CONST_F, type, (uint32_t)vb, (uint32_t)(vb >> 32), id);
  return id;
}

/* ============================================================ descriptions ==== */

static void put(char *buf, size_t size, size_t *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void put(char *buf, size_t size, size_t *at, const char *fmt, ...) {
  if (*at >= size) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf + *at, size - *at, fmt, ap);
  va_end(ap);
  if (n > 0) *at = *at + (size_t)n < size ? *at + (size_t)n : size - 1;
}

static uint32_t decoration_literal(const spvgen_module *m, uint32_t target, uint32_t decoration,
                                   bool *found) {
  size_t pos = 0;
  *found = false;
  for (const uint32_t *w; (w = sg_next_inst(m, SG_SEC_ANNOTATIONS, SpvOpDecorate, &pos));)
    if ((w[0] >> 16) >= 3 && w[1] == target && w[2] == decoration) {
      *found = true;
      return (w[0] >> 16) >= 4 ? w[3] : 0;
    }
  return 0;
}

/* member SPVGEN_ABSENT: any member. */
static bool member_decorated(const spvgen_module *m, uint32_t st, uint32_t member,
                             uint32_t decoration, uint32_t *which) {
  size_t pos = 0;
  for (const uint32_t *w; (w = sg_next_inst(m, SG_SEC_ANNOTATIONS, SpvOpMemberDecorate, &pos));)
    if ((w[0] >> 16) >= 4 && w[1] == st && w[3] == decoration &&
        (member == SPVGEN_ABSENT || w[2] == member)) {
      if (which) *which = w[2];
      return true;
    }
  return false;
}

static const char *storage_name(uint32_t sc) {
  const char *n = sg_enumerant_name(SG_KIND_StorageClass, sc);
  return n ? n : "(unknown storage class)";
}

static void type_text(const spvgen_module *m, uint32_t t, char *buf, size_t size, size_t *at,
                      int depth) {
  if (!sg_is_type(m, t)) {
    put(buf, size, at, "(id %u, not a type)", t);
    return;
  }
  if (depth > 6) {
    put(buf, size, at, "type#%u", t);
    return;
  }
  const uint32_t *d = sg_def_words(m, t);
  uint32_t len = d[0] >> 16;
  uint64_t v;
  bool found;
  switch (sg_op_of(m, t)) {
  case SpvOpTypeVector:
    put(buf, size, at, "vec%u ", d[3]);
    type_text(m, d[2], buf, size, at, depth + 1);
    return;
  case SpvOpTypeMatrix:
    put(buf, size, at, "mat%u ", d[3]);
    type_text(m, d[2], buf, size, at, depth + 1);
    return;
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: {
    if (sg_op_of(m, t) == SpvOpTypeRuntimeArray)
      put(buf, size, at, "array[] ");
    else if (spvgen_const_value(m, d[3], &v))
      put(buf, size, at, "array[%llu] ", (unsigned long long)v);
    else
      put(buf, size, at, "array[%%%u] ", d[3]);
    type_text(m, d[2], buf, size, at, depth + 1);
    uint32_t stride = decoration_literal(m, t, SpvDecorationArrayStride, &found);
    if (found) put(buf, size, at, " stride %u", stride);
    return;
  }
  case SpvOpTypePointer:
    put(buf, size, at, "ptr %s ", storage_name(d[2]));
    type_text(m, d[3], buf, size, at, depth + 1);
    return;
  case SpvOpTypeStruct:
    put(buf, size, at, "struct#%u {", t);
    for (uint32_t i = 2; i < len; i++) {
      if (i > 2) put(buf, size, at, ", ");
      type_text(m, d[i], buf, size, at, depth + 1);
    }
    put(buf, size, at, "}");
    return;
  case SpvOpTypeFunction:
    put(buf, size, at, "function ");
    type_text(m, d[2], buf, size, at, depth + 1);
    put(buf, size, at, "(");
    for (uint32_t i = 3; i < len; i++) {
      if (i > 3) put(buf, size, at, ", ");
      type_text(m, d[i], buf, size, at, depth + 1);
    }
    put(buf, size, at, ")");
    return;
  case SpvOpTypeInt:
  case SpvOpTypeFloat:
  case SpvOpTypeBool:
  case SpvOpTypeVoid:
  case SpvOpTypeCooperativeMatrixKHR:
  case SpvOpTypeCooperativeVectorNV:
  case SpvOpTypeTensorLayoutNV:
  case SpvOpTypeTensorViewNV: {
    char tmp[192];
    put(buf, size, at, "%s", sg_coop_type_name(m, t, tmp, sizeof tmp));
    return;
  }
  default: {
    const sg_instruction *ins = sg_find_instruction(sg_op_of(m, t));
    const char *n = ins ? ins->name : "OpType?";
    if (!strncmp(n, "OpType", 6)) n += 6;
    put(buf, size, at, "%s#%u", n, t);
    return;
  }
  }
}

const char *spvgen_type_name(const spvgen_module *m, uint32_t type, char *buf, size_t size) {
  if (!buf || !size) return "";
  buf[0] = 0;
  size_t at = 0;
  if (!m) {
    put(buf, size, &at, "type#%u", type);
    return buf;
  }
  type_text(m, type, buf, size, &at, 0);
  return buf;
}

/* A scalar constant's value as text. */
static void scalar_value_text(const spvgen_module *m, uint32_t type, uint64_t v, char *buf,
                              size_t size, size_t *at) {
  uint32_t w, enc;
  bool sgn;
  float_format f;
  if (sg_coop_int_type(m, type, &w, &sgn)) {
    if (sgn && w < 64 && (v >> (w - 1)) & 1) v |= ~0ull << w;
    if (sgn)
      put(buf, size, at, "%lld", (long long)v);
    else
      put(buf, size, at, "%llu", (unsigned long long)v);
  } else if (sg_coop_float_type(m, type, &w, &enc) && format_of(w, enc, &f)) {
    double d;
    if (w == 64 && enc == SPVGEN_ABSENT)
      memcpy(&d, &v, 8);
    else
      d = decode(v, f);
    put(buf, size, at, "%g", d);
  } else {
    put(buf, size, at, "0x%llx", (unsigned long long)v);
  }
}

const char *spvgen_id_name(const spvgen_module *m, uint32_t id, char *buf, size_t size) {
  if (!buf || !size) return "";
  buf[0] = 0;
  size_t at = 0;
  put(buf, size, &at, "id %u", id);
  if (!m) return buf;
  if (!id) {
    put(buf, size, &at, " (no id)");
    return buf;
  }
  const sg_id_info *i = sg_id(m, id);
  if (!i || i->kind == SG_ID_FREE) {
    put(buf, size, &at, ", which this module never allocated");
    return buf;
  }
  const uint32_t *d = sg_def_words(m, id);
  switch (i->kind) {
  case SG_ID_RESERVED: put(buf, size, &at, ", reserved and not yet defined"); return buf;
  case SG_ID_TYPE:
    put(buf, size, &at, ", the type ");
    type_text(m, id, buf, size, &at, 0);
    return buf;
  case SG_ID_LABEL: put(buf, size, &at, ", a label"); return buf;
  case SG_ID_FUNCTION: put(buf, size, &at, ", a function"); return buf;
  case SG_ID_OTHER: {
    const sg_instruction *ins = sg_find_instruction(i->opcode);
    put(buf, size, &at, ", an %s result", ins ? ins->name : "instruction");
    return buf;
  }
  default: break;
  }
  uint64_t v;
  if ((i->flags & SG_TF_CONSTANT) && i->opcode == SpvOpConstant && d && spvgen_const_value(m, id, &v)) {
    put(buf, size, &at, ", a constant ");
    type_text(m, i->type, buf, size, &at, 0);
    put(buf, size, &at, " ");
    scalar_value_text(m, i->type, v, buf, size, &at);
  } else if (i->opcode == SpvOpConstantTrue || i->opcode == SpvOpConstantFalse) {
    put(buf, size, &at, ", a constant bool %s", i->opcode == SpvOpConstantTrue ? "true" : "false");
  } else if (i->flags & SG_TF_SPEC_CONSTANT) {
    put(buf, size, &at, ", a specialization constant ");
    type_text(m, i->type, buf, size, &at, 0);
    if (i->opcode == SpvOpSpecConstant && d && (d[0] >> 16) >= 4) {
      uint64_t bits = d[3] | ((d[0] >> 16) > 4 ? (uint64_t)d[4] << 32 : 0);
      uint32_t w;
      if (sg_coop_int_type(m, i->type, &w, NULL) && w < 64) bits &= (1ull << w) - 1;
      put(buf, size, &at, " (default ");
      scalar_value_text(m, i->type, bits, buf, size, &at);
      put(buf, size, &at, ")");
    }
  } else if (i->flags & SG_TF_CONSTANT) {
    put(buf, size, &at, ", a constant ");
    type_text(m, i->type, buf, size, &at, 0);
  } else if (i->opcode == SpvOpVariable) {
    put(buf, size, &at, ", a variable of type ");
    type_text(m, i->type, buf, size, &at, 0);
  } else {
    put(buf, size, &at, ", a value of type ");
    type_text(m, i->type, buf, size, &at, 0);
  }
  return buf;
}

/* ============================================================ access chains ==== */

int sg_access_pointee(spvgen_module *m, const char *fn, uint32_t base, const uint32_t *indices,
                      uint32_t count, uint32_t *storage, uint32_t *pointee) {
  char a[256], b[256];
  const sg_id_info *bi = sg_id(m, base);
  if (bi && bi->kind == SG_ID_RESERVED) return -1;
  uint32_t bt = bi && bi->kind == SG_ID_VALUE ? bi->type : 0;
  const sg_id_info *bti = sg_id(m, bt);
  if (!bti || bti->kind != SG_ID_TYPE || bti->opcode != SpvOpTypePointer) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "the base is %s; expected a pointer value",
            spvgen_id_name(m, base, a, sizeof a));
    return 0;
  }
  const uint32_t *pd = sg_def_words(m, bt);
  uint32_t t = pd[3];
  for (uint32_t k = 0; k < count; k++) {
    uint32_t ix = indices[k];
    const sg_id_info *ii = sg_id(m, ix);
    if (!ii || (ii->kind != SG_ID_RESERVED &&
                (ii->kind != SG_ID_VALUE || sg_op_of(m, ii->type) != SpvOpTypeInt))) {
      sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
              "index %u is %s; expected the id of an integer value (OpAccessChain: indices are "
              "scalar integers)", k, spvgen_id_name(m, ix, a, sizeof a));
      return 0;
    }
    const sg_id_info *ti = sg_id(m, t);
    if (!ti || ti->kind != SG_ID_TYPE) return -1;
    const uint32_t *d = sg_def_words(m, t);
    switch (ti->opcode) {
    case SpvOpTypeStruct: {
      uint32_t members = (d[0] >> 16) - 2;
      const uint32_t *iw = ii->opcode == SpvOpConstant && (ii->flags & SG_TF_CONSTANT)
                               ? sg_def_words(m, ix) : NULL;
      if (!iw) {
        sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                "index %u selects a member of %s but is %s; a struct member index must be an "
                "integer constant (OpAccessChain; spvgen_const_u32)", k,
                spvgen_type_name(m, t, b, sizeof b), spvgen_id_name(m, ix, a, sizeof a));
        return 0;
      }
      uint64_t v = iw[3];
      if ((iw[0] >> 16) > 4) v |= (uint64_t)iw[4] << 32;
      if (v >= members) {
        sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                "index %u selects member %llu of %s, which has %u members", k,
                (unsigned long long)v, spvgen_type_name(m, t, b, sizeof b), members);
        return 0;
      }
      t = d[2 + v];
      break;
    }
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
      t = d[2];
      break;
    case SpvOpTypeCooperativeMatrixKHR:
    case SpvOpTypeCooperativeMatrixNV:
    case SpvOpTypeCooperativeVectorNV:
      return -1; /* left to the validator */
    default:
      sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
              "index %u goes into %s, which has no members or elements", k,
              spvgen_type_name(m, t, b, sizeof b));
      return 0;
    }
  }
  *storage = pd[2];
  *pointee = t;
  return 1;
}

static uint32_t access(spvgen_module *m, const char *fn, uint32_t base, const uint32_t *indices,
                       uint32_t count) {
  if (count > 30 || (count && !indices))
    return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "bad index list (count %u)", count);
  uint32_t storage, pointee;
  int r = sg_access_pointee(m, fn, base, indices, count, &storage, &pointee);
  if (r == 0) return 0;
  if (r < 0)
    return sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
                   "the type the indices reach is not known yet (a forward reference or a "
                   "cooperative type); use spvgen_access_chain with the result type");
  uint32_t pt = spvgen_type_pointer(m, (SpvStorageClass)storage, pointee);
  if (!pt) return 0;
  uint32_t ops[33] = {pt, 0, base};
  for (uint32_t i = 0; i < count; i++) ops[3 + i] = indices[i];
  return sg_inst(m, fn, SpvOpAccessChain, ops, 3 + count);
}

uint32_t spvgen_access(spvgen_module *m, uint32_t base_pointer, const uint32_t *indices,
                       uint32_t count) {
  if (!sg_ok(m, __func__)) return 0;
  return access(m, __func__, base_pointer, indices, count);
}

/* ================================================================ read-only ==== */

/* Every instruction that writes memory through a pointer (its write_at operand: OpStore,
 * OpCopyMemory(Sized), the atomics, the cooperative matrix / vector / tensor stores and
 * accumulates; tools/gen_grammar.py WRITES) goes through sg_inst, which checks the
 * pointer here, whichever emitter made it; spvgen_module_finish checks them all again
 * (sg_check_writes_at_finish), which also catches a write through a function parameter
 * that a call binds to a read-only buffer, and a decoration added after the write.
 *
 * A pointer is followed back to where it comes from through access chains (plain, in
 * bounds, ptr, raw), OpCopyObject, OpBitcast, and both sides of OpSelect and every
 * incoming value of OpPhi: with no limit on the number of hops (each id is visited once
 * per walk, so a walk is linear in the ids it passes). Where it ends: a variable (checked
 * for NonWritable on the variable or on the struct member the outermost chain selects),
 * a function parameter (followed through the calls at finish), or something a builder
 * cannot see through (a pointer loaded from memory, converted from an integer, returned
 * by a call): not followed. */

typedef struct trace_item {
  uint32_t id, member; /* member: the struct member the chain nearest the origin selects */
} trace_item;

typedef struct tracer {
  spvgen_module *m;
  trace_item small[32], *stack;
  size_t n, cap;
  uint32_t *marked; /* branch points marked SG_TF_VISITED, cleared at the end */
  size_t marked_n, marked_cap;
  bool out_of_memory;
} tracer;

#define SG_TF_VISITED 0x40u /* transient: an OpSelect / OpPhi already followed in this walk */

static void trace_push(tracer *t, uint32_t id, uint32_t member) {
  if (t->n == t->cap) {
    size_t cap = t->cap * 2;
    trace_item *s = t->stack == t->small ? malloc(cap * sizeof *s) : realloc(t->stack, cap * sizeof *s);
    if (!s) {
      t->out_of_memory = true;
      return;
    }
    if (t->stack == t->small) memcpy(s, t->small, sizeof t->small);
    t->stack = s;
    t->cap = cap;
  }
  t->stack[t->n++] = (trace_item){id, member};
}

/* Marks a branch point; false when it was marked already (followed once per walk). */
static bool trace_mark(tracer *t, uint32_t id) {
  sg_id_info *i = &t->m->ids[id];
  if (i->flags & SG_TF_VISITED) return false;
  if (!sg_grow(&t->marked, &t->marked_cap, t->marked_n + 1, sizeof *t->marked, 16, SIZE_MAX)) {
    t->out_of_memory = true;
    return false;
  }
  i->flags |= SG_TF_VISITED;
  t->marked[t->marked_n++] = id;
  return true;
}

/* Calls origin(variable or parameter id, member) for each place pointer may come from. */
typedef bool (*trace_origin_fn)(spvgen_module *m, uint32_t origin, uint32_t member, void *user);

static bool trace_branches(spvgen_module *m, uint32_t pointer, uint32_t member, trace_origin_fn origin,
                           void *user);

/* The common case first, without a work list: a single chain of access chains, copies and
 * bitcasts down to a variable or a parameter. At the first select or phi the rest goes
 * to trace_branches. */
static bool trace_pointer(spvgen_module *m, uint32_t pointer, trace_origin_fn origin, void *user) {
  uint32_t cur = pointer, member = SPVGEN_ABSENT;
  for (;;) {
    const sg_id_info *i = sg_id(m, cur);
    if (!i || i->kind != SG_ID_VALUE) return true;
    const uint32_t *w = sg_def_words(m, cur);
    if (!w) return true;
    uint32_t op = w[0] & 0xFFFF, len = w[0] >> 16;
    switch (op) {
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
      if (len > 4) member = w[4];
      cur = w[3];
      break;
    case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain:
      if (len > 5) member = w[5];
      cur = w[3];
      break;
    case SpvOpRawAccessChainNV:
    case SpvOpCopyObject:
    case SpvOpBitcast:
      if (len <= 3) return true;
      cur = w[3];
      break;
    case SpvOpVariable:
    case SpvOpFunctionParameter:
      return origin(m, cur, member, user);
    case SpvOpSelect:
    case SpvOpPhi:
      return trace_branches(m, cur, member, origin, user);
    default:
      return true; /* loaded, converted, returned: not followed */
    }
  }
}

static bool trace_branches(spvgen_module *m, uint32_t pointer, uint32_t member0, trace_origin_fn origin,
                           void *user) {
  tracer t;
  t.m = m;
  t.stack = t.small;
  t.n = 0;
  t.cap = sizeof t.small / sizeof t.small[0];
  t.marked = NULL;
  t.marked_n = t.marked_cap = 0;
  t.out_of_memory = false;
  trace_push(&t, pointer, member0);
  bool ok = true;
  while (ok && t.n && !t.out_of_memory) {
    trace_item it = t.stack[--t.n];
    uint32_t cur = it.id, member = it.member;
    const sg_id_info *i = sg_id(m, cur);
    if (!i || i->kind != SG_ID_VALUE) continue;
    const uint32_t *w = sg_def_words(m, cur);
    if (!w) continue;
    uint32_t op = w[0] & 0xFFFF, len = w[0] >> 16;
    switch (op) {
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
      if (len > 4) member = w[4];
      trace_push(&t, w[3], member);
      break;
    case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain:
      if (len > 5) member = w[5];
      trace_push(&t, w[3], member);
      break;
    case SpvOpRawAccessChainNV:
    case SpvOpCopyObject:
    case SpvOpBitcast:
      if (len > 3) trace_push(&t, w[3], member);
      break;
    case SpvOpSelect:
      if (len > 5 && trace_mark(&t, cur)) {
        trace_push(&t, w[4], member);
        trace_push(&t, w[5], member);
      }
      break;
    case SpvOpPhi:
      if (trace_mark(&t, cur))
        for (uint32_t k = 3; k + 1 < len; k += 2) trace_push(&t, w[k], member);
      break;
    case SpvOpVariable:
    case SpvOpFunctionParameter:
      ok = origin(m, cur, member, user);
      break;
    default:
      break; /* loaded, converted, returned: not followed */
    }
  }
  for (size_t k = 0; k < t.marked_n; k++) m->ids[t.marked[k]].flags &= (uint8_t)~SG_TF_VISITED;
  free(t.marked);
  if (t.stack != t.small) free(t.stack);
  if (t.out_of_memory && m->status == SPVGEN_OK) {
    sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen_module_finish", "out of memory");
    return false;
  }
  return ok;
}

/* Whether variable var (an OpVariable), reached through member, is read-only: NonWritable
 * on the variable, or on the member (any member when the index is not a constant) of its
 * block. *what names which. */
static bool variable_read_only(spvgen_module *m, uint32_t var, uint32_t member, char *what, size_t size) {
  const uint32_t *w = sg_def_words(m, var);
  if (!w) return false;
  uint32_t sc = w[3];
  if (sc != SpvStorageClassStorageBuffer && sc != SpvStorageClassUniform &&
      sc != SpvStorageClassPhysicalStorageBuffer)
    return false;
  /* Only ids marked by spvgen_decorate* / spvgen_member_decorate* are scanned. */
  const uint32_t *vpt = sg_def_words(m, w[1]);
  const sg_id_info *vst = vpt ? sg_id(m, vpt[3]) : NULL;
  if (!(m->ids[var].flags & SG_TF_NONWRITABLE) && !(vst && (vst->flags & SG_TF_NONWRITABLE))) return false;
  bool found;
  decoration_literal(m, var, SpvDecorationNonWritable, &found);
  if (found) {
    snprintf(what, size, "variable");
    return true;
  }
  uint32_t st = vpt ? vpt[3] : 0, mv = SPVGEN_ABSENT, which = 0;
  uint64_t v;
  if (member != SPVGEN_ABSENT && spvgen_const_value(m, member, &v)) mv = (uint32_t)v;
  if (sg_op_of(m, st) == SpvOpTypeStruct && member_decorated(m, st, mv, SpvDecorationNonWritable, &which)) {
    snprintf(what, size, "member %u", which);
    return true;
  }
  return false;
}

static void variable_location(spvgen_module *m, uint32_t var, char *loc, size_t size) {
  bool found;
  uint32_t set = decoration_literal(m, var, SpvDecorationDescriptorSet, &found);
  bool has_set = found;
  uint32_t binding = decoration_literal(m, var, SpvDecorationBinding, &found);
  loc[0] = 0;
  if (has_set && found) snprintf(loc, size, " (set %u, binding %u)", set, binding);
}

typedef struct write_check {
  const char *fn;
  uint32_t pointer;
  const char *how; /* "" or ", passed to function %u as its parameter %u" */
  bool mark_params; /* at finish: parameters written through are marked */
  bool changed;
} write_check;

#define SG_TF_WRITTEN_PARAM 0x20u /* a function parameter its function writes through */

static bool refuse_read_only(spvgen_module *m, uint32_t origin, uint32_t member, void *user) {
  write_check *c = user;
  if ((m->ids[origin].opcode) == SpvOpFunctionParameter) {
    if (c->mark_params && !(m->ids[origin].flags & SG_TF_WRITTEN_PARAM)) {
      m->ids[origin].flags |= SG_TF_WRITTEN_PARAM;
      c->changed = true;
    }
    return true;
  }
  char what[64], loc[64];
  if (!variable_read_only(m, origin, member, what, sizeof what)) return true;
  variable_location(m, origin, loc, sizeof loc);
  sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, c->fn,
          "the pointer (id %u)%s leads to buffer variable %u%s, whose %s is NonWritable (declared "
          "read-only); a store through it is refused (Vulkan: a NonWritable resource must not "
          "be written; drop the read-only flag to write it)",
          c->pointer, c->how, origin, loc, what);
  return false;
}

bool sg_check_writable(spvgen_module *m, const char *fn, uint32_t pointer) {
  if (!m->nonwritable_marked) return true; /* nothing in the module is read-only */
  write_check c = {fn, pointer, "", false, false};
  return trace_pointer(m, pointer, refuse_read_only, &c);
}

/* The parameter ids of function f, in order (at most max); their count. */
static uint32_t function_params(const spvgen_module *m, uint32_t f, uint32_t *params, uint32_t max) {
  const uint32_t *w = sg_def_words(m, f);
  if (!w || (w[0] & 0xFFFF) != SpvOpFunction) return 0;
  const sg_words *b = &m->sec[SG_SEC_FUNCTIONS];
  uint32_t n = 0;
  for (const uint32_t *p = w + (w[0] >> 16); p < b->data + b->len && (p[0] & 0xFFFF) == SpvOpFunctionParameter;
       p += p[0] >> 16) {
    if (n < max) params[n] = p[2];
    n++;
  }
  return n;
}

bool sg_check_writes_at_finish(spvgen_module *m) {
  /* Each write was checked when it was emitted; again here only when a NonWritable mark
   * came after a write, or calls may bind parameters (the common kernel: neither). */
  if (!m->nonwritable_marked || (!m->recheck_writes && !m->has_calls)) return true;
  const sg_words *b = &m->sec[SG_SEC_FUNCTIONS];
  write_check c = {"spvgen_module_finish", 0, "", true, false};
  /* Every write: read-only variables refused, parameters written through marked. */
  for (size_t at = 0; at < b->len;) {
    const uint32_t *w = b->data + at;
    uint32_t op = w[0] & 0xFFFF, len = w[0] >> 16;
    if (!len) break;
    uint16_t ins_index = op <= sg_max_opcode ? sg_opcode_index[op] : 0;
    if (ins_index) {
      const sg_instruction *ins = &sg_instructions[ins_index - 1];
      if (ins->write_at && ins->write_at < len) {
        c.pointer = w[ins->write_at];
        if (!trace_pointer(m, c.pointer, refuse_read_only, &c)) return false;
      }
    }
    at += len;
  }
  /* A call whose argument comes from the caller's own parameter makes that parameter
   * written when the callee writes through its parameter: to a fixed point (each round
   * marks at least one more parameter, so at most one round per parameter). */
  enum { MAX_PARAMS = 255 };
  uint32_t params[MAX_PARAMS];
  do {
    c.changed = false;
    for (size_t at = 0; at < b->len;) {
      const uint32_t *w = b->data + at;
      uint32_t op = w[0] & 0xFFFF, len = w[0] >> 16;
      if (!len) break;
      if (op == SpvOpFunctionCall && len > 4) {
        uint32_t np = function_params(m, w[3], params, MAX_PARAMS);
        for (uint32_t k = 0; k < np && k < MAX_PARAMS && 4 + k < len; k++) {
          if (!(m->ids[params[k]].flags & SG_TF_WRITTEN_PARAM)) continue;
          char how[96];
          snprintf(how, sizeof how, ", passed to function %u as its parameter %u, which it writes through,",
                   w[3], k);
          c.how = how;
          c.pointer = w[4 + k];
          if (!trace_pointer(m, c.pointer, refuse_read_only, &c)) return false;
        }
      }
      at += len;
    }
  } while (c.changed);
  /* The marks are per finish. */
  for (uint32_t id = 1; id < m->bound; id++) m->ids[id].flags &= (uint8_t)~SG_TF_WRITTEN_PARAM;
  return true;
}

/* ================================================================ resources ==== */

spvgen_buffer spvgen_buffer_declare(spvgen_module *m, uint32_t element_type, uint32_t set,
                                    uint32_t binding, uint32_t flags) {
  spvgen_buffer b;
  memset(&b, 0, sizeof b);
  if (!sg_ok(m, __func__)) return b;
  char t[256];
  if (flags & ~SPVGEN_BUFFER_READONLY) {
    BAD(m, "flags 0x%x has bits that are not SPVGEN_BUFFER_*", flags);
    return b;
  }
  if (!sg_is_type(m, element_type)) {
    BAD(m, "element_type is %s; expected a type", spvgen_id_name(m, element_type, t, sizeof t));
    return b;
  }
  uint64_t size, align;
  if (!sg_std430(m, element_type, &size, &align)) {
    BAD(m, "element_type %s has no explicit layout (use a scalar, a vector, or an array from "
        "spvgen_type_array_strided of those)", spvgen_type_name(m, element_type, t, sizeof t));
    return b;
  }
  uint64_t stride = (size + align - 1) / align * align;
  if (stride > UINT32_MAX) {
    BAD(m, "element_type %s is too large for a buffer", spvgen_type_name(m, element_type, t, sizeof t));
    return b;
  }
  bool ro = (flags & SPVGEN_BUFFER_READONLY) != 0;
  uint32_t rta = spvgen_type_runtime_array_strided(m, element_type, (uint32_t)stride);
  uint32_t st = spvgen_type_struct(m, &rta, 1);
  spvgen_decorate(m, st, SpvDecorationBlock);
  spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
  if (ro) spvgen_member_decorate(m, st, 0, SpvDecorationNonWritable);
  uint32_t var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassStorageBuffer, st),
                                 SpvStorageClassStorageBuffer, 0);
  spvgen_decorate1(m, var, SpvDecorationDescriptorSet, set);
  spvgen_decorate1(m, var, SpvDecorationBinding, binding);
  uint32_t ep = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, element_type);
  uint32_t ap = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, rta);
  if (m->status != SPVGEN_OK) return b;
  b.variable = var;
  b.element_type = element_type;
  b.element_pointer_type = ep;
  b.array_pointer_type = ap;
  b.array_stride = (uint32_t)stride;
  b.readonly = ro;
  return b;
}

static bool need_buffer(spvgen_module *m, const char *fn, const spvgen_buffer *buffer) {
  if (buffer && buffer->variable && sg_id(m, buffer->variable) &&
      m->ids[buffer->variable].opcode == SpvOpVariable)
    return true;
  sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
          "buffer is %s; expected a spvgen_buffer from spvgen_buffer_declare",
          buffer ? "not a declared buffer" : "NULL");
  return false;
}

uint32_t spvgen_buffer_element(spvgen_module *m, const spvgen_buffer *buffer, uint32_t index_id) {
  if (!sg_ok(m, __func__) || !need_buffer(m, __func__, buffer)) return 0;
  uint32_t idx[2] = {spvgen_const_u32(m, 0), index_id};
  return idx[0] ? access(m, __func__, buffer->variable, idx, 2) : 0;
}

uint32_t spvgen_buffer_array(spvgen_module *m, const spvgen_buffer *buffer) {
  if (!sg_ok(m, __func__) || !need_buffer(m, __func__, buffer)) return 0;
  uint32_t idx[1] = {spvgen_const_u32(m, 0)};
  return idx[0] ? access(m, __func__, buffer->variable, idx, 1) : 0;
}

spvgen_push_constant_block spvgen_push_constants(spvgen_module *m, const uint32_t *member_types,
                                                 uint32_t count) {
  spvgen_push_constant_block b;
  memset(&b, 0, sizeof b);
  if (!sg_ok(m, __func__)) return b;
  char t[256];
  if (!count || count > SPVGEN_PUSH_CONSTANT_MAX_MEMBERS || !member_types) {
    BAD(m, "%u members (with member_types %s); a block has 1 to %u", count,
        member_types ? "given" : "NULL", SPVGEN_PUSH_CONSTANT_MAX_MEMBERS);
    return b;
  }
  uint64_t off = 0, max_align = 1;
  for (uint32_t i = 0; i < count; i++) {
    uint64_t size, align;
    if (!sg_is_type(m, member_types[i])) {
      BAD(m, "member %u is %s; expected a type", i, spvgen_id_name(m, member_types[i], t, sizeof t));
      return b;
    }
    if (!sg_std430(m, member_types[i], &size, &align)) {
      BAD(m, "member %u is %s, which has no explicit layout (use a scalar, a vector, or an "
          "array from spvgen_type_array_strided of those)", i,
          spvgen_type_name(m, member_types[i], t, sizeof t));
      return b;
    }
    off = (off + align - 1) / align * align;
    b.offsets[i] = (uint32_t)off;
    off += size;
    if (align > max_align) max_align = align;
    if (off > 65536) {
      BAD(m, "the block is larger than 65536 bytes at member %u", i);
      return b;
    }
  }
  off = (off + max_align - 1) / max_align * max_align;
  uint32_t st = spvgen_type_struct(m, member_types, count);
  spvgen_decorate(m, st, SpvDecorationBlock);
  for (uint32_t i = 0; i < count; i++)
    spvgen_member_decorate1(m, st, i, SpvDecorationOffset, b.offsets[i]);
  uint32_t var = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, st),
                                 SpvStorageClassPushConstant, 0);
  for (uint32_t i = 0; i < count; i++) {
    b.member_types[i] = member_types[i];
    b.member_pointer_types[i] =
        spvgen_type_pointer(m, SpvStorageClassPushConstant, member_types[i]);
  }
  if (m->status != SPVGEN_OK) {
    memset(&b, 0, sizeof b);
    return b;
  }
  b.variable = var;
  b.struct_type = st;
  b.count = count;
  b.size = (uint32_t)off;
  return b;
}

uint32_t spvgen_push_constant_load(spvgen_module *m, const spvgen_push_constant_block *block,
                                   uint32_t member) {
  if (!sg_ok(m, __func__)) return 0;
  if (!block || !block->variable || !block->count)
    return BAD(m, "block is %s; expected a block from spvgen_push_constants",
               block ? "empty" : "NULL");
  if (member >= block->count)
    return BAD(m, "member %u does not exist; the block has %u members", member, block->count);
  uint32_t idx = spvgen_const_u32(m, member);
  uint32_t p = idx ? access(m, __func__, block->variable, &idx, 1) : 0;
  if (!p) return 0;
  uint32_t ops[3] = {block->member_types[member], 0, p};
  return sg_inst(m, __func__, SpvOpLoad, ops, 3);
}
