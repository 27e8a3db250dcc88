/* lib/core/helpers.c — the builder's convenience layer (issue 10, "the builder API as a
 * framework engineer meets it"): float constants of every float type, type and id
 * descriptions for messages, resource declarations (storage buffers that hand back
 * every pointer type, push-constant blocks with std430 offsets), access chains whose
 * result type is computed (and checked), and the read-only check of the store helpers.
 * Everything here sits on the public builder calls and sg_inst. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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

bool sg_check_writable(spvgen_module *m, const char *fn, uint32_t pointer) {
  uint32_t cur = pointer, member = SPVGEN_ABSENT;
  const uint32_t *w = NULL;
  for (int hops = 0;; hops++) {
    const sg_id_info *i = sg_id(m, cur);
    if (hops > 256 || !i || i->kind != SG_ID_VALUE) return true;
    w = sg_def_words(m, cur);
    if (!w) return true;
    uint32_t op = w[0] & 0xFFFF, len = w[0] >> 16;
    if (op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) {
      if (len > 4) member = w[4];
      cur = w[3];
    } else if (op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain) {
      if (len > 5) member = w[5];
      cur = w[3];
    } else if (op == SpvOpCopyObject) {
      cur = w[3];
    } else if (op == SpvOpVariable) {
      break;
    } else {
      return true; /* a parameter, a load of a pointer...: not followed */
    }
  }
  uint32_t var = cur, sc = w[3];
  if (sc != SpvStorageClassStorageBuffer && sc != SpvStorageClassUniform &&
      sc != SpvStorageClassPhysicalStorageBuffer)
    return true;
  /* Only ids marked by spvgen_decorate* / spvgen_member_decorate* are scanned. */
  const uint32_t *vpt = sg_def_words(m, w[1]);
  const sg_id_info *vst = vpt ? sg_id(m, vpt[3]) : NULL;
  if (!(m->ids[var].flags & SG_TF_NONWRITABLE) && !(vst && (vst->flags & SG_TF_NONWRITABLE)))
    return true;
  bool found, ro = false;
  const char *what = "variable";
  char whatbuf[64];
  decoration_literal(m, var, SpvDecorationNonWritable, &found);
  if (found) ro = true;
  if (!ro) {
    const uint32_t *pt = sg_def_words(m, w[1]);
    uint32_t st = pt ? pt[3] : 0, mv = SPVGEN_ABSENT, which = 0;
    uint64_t v;
    if (member != SPVGEN_ABSENT && spvgen_const_value(m, member, &v)) mv = (uint32_t)v;
    else if (member != SPVGEN_ABSENT) mv = SPVGEN_ABSENT; /* dynamic index: any member */
    if (sg_op_of(m, st) == SpvOpTypeStruct && member_decorated(m, st, mv, SpvDecorationNonWritable, &which)) {
      ro = true;
      snprintf(whatbuf, sizeof whatbuf, "member %u", which);
      what = whatbuf;
    }
  }
  if (!ro) return true;
  uint32_t set = decoration_literal(m, var, SpvDecorationDescriptorSet, &found);
  bool has_set = found;
  uint32_t binding = decoration_literal(m, var, SpvDecorationBinding, &found);
  char loc[64] = "";
  if (has_set && found) snprintf(loc, sizeof loc, " (set %u, binding %u)", set, binding);
  sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn,
          "the pointer (id %u) leads to buffer variable %u%s, whose %s is NonWritable (declared "
          "read-only); a store through it is refused (Vulkan: a NonWritable resource must not "
          "be written; drop the read-only flag to write it)",
          pointer, var, loc, what);
  return false;
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
