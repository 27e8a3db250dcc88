/* tests/coop/test_coop_fuzz.c — randomized robustness of the cooperative helpers
 * (spvgen/coop.h), without a fuzzer dependency.
 *
 * The machinery (random streams, the trace of calls printed as C, crash reports, the
 * error-contract checker, the builder's own sequence generators) is the one of
 * tests/core/test_fuzz_api.c, in tests/support/fuzz_api.h. Two kinds of
 * sequences, each from its own seed:
 *  - valid sequences: callbacks (combine, per-element, decode functions) and a compute
 *    main filled with random but valid cooperative code: KHR matrices of every component
 *    type, scope (Subgroup, Workgroup), shape and use; loads and stores with every
 *    layout, stride and memory operand form; MulAdd with signedness and saturation;
 *    length, splat, extract, insert, arithmetic, conversions (Use changes included);
 *    reductions, per-element operations, Use conversion, transposition; tensor layouts
 *    and views with every instruction; tensor loads and stores with views and decode
 *    functions; cooperative vectors with loads, stores, matrix multiplies (every
 *    interpretation family, layout and stride form, plain values or ids), training
 *    accumulations and the GLSL.std.450 functions. Every call must succeed and the
 *    module must pass spvgen_validate (Vulkan 1.3) — except modules with bfloat16 or
 *    float8 types: SPIRV-Tools 2025.1 knows neither encoding (SPV_KHR_bfloat16,
 *    SPV_EXT_float8), so it can neither validate nor disassemble them; those are only
 *    checked to finish.
 *  - anything-goes sequences: every coop.h call with random arguments (component types
 *    that are not scalars, scopes, rows, cols, uses, layouts and interpretations out of
 *    range, ids that are not constants, values of the wrong type, NULL descriptors and
 *    arrays with counts), mixed with the builder's own random calls and valid
 *    cooperative snippets. Checked: no crash, sticky errors whose message names a call,
 *    0 from failed calls, no ids allocated after a failure.
 *
 * Environment: as tests/core/test_fuzz_api.c (SPVGEN_TEST_SEED, SPVGEN_FUZZ_ITERATIONS,
 * SPVGEN_FUZZ_SEQUENCE, SPVGEN_FUZZ_TRACE). */
#define _XOPEN_SOURCE 700
#include "fuzz_api.h"

#include "spvgen/coop.h"

/* ========================================================= component types ==== */

enum { C_F16, C_F32, C_S8, C_U8, C_S32, C_U32, C_BF16, C_E4M3, C_E5M2, C_COUNT };
static const uint8_t c_width[C_COUNT] = {16, 32, 8, 8, 32, 32, 16, 8, 8};
static bool c_float(int c) { return c == C_F16 || c == C_F32 || c >= C_BF16; }
static bool c_signed(int c) { return c == C_S8 || c == C_S32; }
/* bfloat16 and float8: SPIRV-Tools 2025.1 cannot validate modules that have them. */
static bool c_exotic(int c) { return c >= C_BF16; }

#define CG_VALS 160
#define CG_MATS 48
#define CG_LATER 12

typedef struct cg_mat {
  uint32_t id;
  int c;
  uint32_t scope, rows, cols, use; /* SPVGEN_ABSENT: a specialization constant */
} cg_mat;

typedef struct cg_val {
  uint32_t id, type;
} cg_val;

/* A callback named before its definition: defined after main. */
typedef struct cg_later {
  uint32_t id;
  int c;
  int kind; /* 0 combine, 1 per-element */
  uint32_t extra; /* per-element: the type of the one extra parameter, or 0 */
} cg_later;

typedef struct cg {
  fz *z;
  spvgen_module *m;
  fz_rng *r;
  uint32_t version;
  bool vulkan_mm, psb, exotic, in_main;
  bool allow_exotic; /* this sequence may use bfloat16 / float8 (and then is not validated) */
  uint32_t comp[C_COUNT];
  uint32_t buf[C_COUNT], elem_ptr[C_COUNT];   /* a storage buffer of each component */
  uint32_t wg[C_COUNT], wg_ptr[C_COUNT];      /* a Workgroup array of each component */
  uint32_t u32, boolt;
  cg_mat mats[CG_MATS];
  uint32_t nmats;
  cg_val vals[CG_VALS];
  uint32_t nvals;
  uint32_t combine[C_COUNT];      /* combine functions defined before main */
  uint32_t per_element[C_COUNT];  /* per-element functions (no extra operand) */
  uint32_t decode[C_COUNT];       /* decode functions (dimension 2), PhysicalStorageBuffer64 */
  cg_later later[CG_LATER];
  uint32_t nlater;
  uint32_t next_binding, next_spec;
} cg;

#define CM (g->m)
#define CID(pool, fn, args, fmt, ...) FZ_ID(g->z, pool, fn, args, fmt, __VA_ARGS__)
#define CVOID(fn, args, fmt, ...) FZ_VOID(g->z, fn, args, fmt, __VA_ARGS__)

static bool cg_ok(const cg *g) { return !g->z->stop && !g->z->errored; }

static uint32_t comp_type(cg *g, int c) {
  if (c_exotic(c) && !g->allow_exotic) c = C_F16;
  if (g->comp[c]) return g->comp[c];
  if (c_exotic(c)) g->exotic = true;
  uint32_t id = 0;
  static const SpvComponentType interp[C_COUNT] = {
      SpvComponentTypeFloat16NV,     SpvComponentTypeFloat32NV,
      SpvComponentTypeSignedInt8NV,  SpvComponentTypeUnsignedInt8NV,
      SpvComponentTypeSignedInt32NV, SpvComponentTypeUnsignedInt32NV,
      SpvComponentTypeFloat16NV,     SpvComponentTypeFloatE4M3NV,
      SpvComponentTypeFloatE5M2NV};
  if (c != C_BF16 && chance(g->r, 25)) {
    id = CID(P_TYPE, spvgen_type_for_interpretation, (CM, interp[c]), ", %u", (uint32_t)interp[c]);
  } else {
    switch (c) {
    case C_F16: id = CID(P_TYPE, spvgen_type_float, (CM, 16), "%s", ", 16"); break;
    case C_F32: id = CID(P_TYPE, spvgen_type_float, (CM, 32), "%s", ", 32"); break;
    case C_S8: id = CID(P_TYPE, spvgen_type_int, (CM, 8, true), "%s", ", 8, true"); break;
    case C_U8: id = CID(P_TYPE, spvgen_type_int, (CM, 8, false), "%s", ", 8, false"); break;
    case C_S32: id = CID(P_TYPE, spvgen_type_int, (CM, 32, true), "%s", ", 32, true"); break;
    case C_U32: id = CID(P_TYPE, spvgen_type_int, (CM, 32, false), "%s", ", 32, false"); break;
    case C_BF16: id = CID(P_TYPE, spvgen_type_bfloat16, (CM), "%s", ""); break;
    case C_E4M3: id = CID(P_TYPE, spvgen_type_float_e4m3, (CM), "%s", ""); break;
    default: id = CID(P_TYPE, spvgen_type_float_e5m2, (CM), "%s", ""); break;
    }
  }
  return g->comp[c] = id;
}

static uint32_t u32c(cg *g, uint32_t v) {
  return CID(P_CONST, spvgen_const_u32, (CM, v), ", %u", v);
}

/* A constant of component c. */
static uint32_t const_scalar(cg *g, int c) {
  uint32_t t = comp_type(g, c);
  uint64_t bits = below(g->r, 8);
  if (c == C_F32 && chance(g->r, 60)) {
    float f = (float)below(g->r, 5) - 1.5f;
    return CID(P_CONST, spvgen_const_f32, (CM, f), ", (float)%.9g", (double)f);
  }
  if (c == C_F16) bits = 0x3C00u + below(g->r, 16);
  if (c == C_BF16) bits = 0x3F80u + below(g->r, 16);
  return CID(P_CONST, spvgen_const_bits, (CM, t, bits), ", %u, 0x%llxull", t, (unsigned long long)bits);
}

/* A storage buffer of component c (made on first use) and an element pointer into it. */
static uint32_t buffer_element(cg *g, int c) {
  if (!g->buf[c]) {
    uint32_t t = comp_type(g, c), binding = g->next_binding++;
    g->buf[c] = CID(P_PTR, spvgen_storage_buffer, (CM, t, 0, binding, false, &g->elem_ptr[c]),
                    ", %u, 0, %u, false, &element_pointer_type", t, binding);
  }
  uint32_t idx[2] = {u32c(g, 0), u32c(g, 16 * below(g->r, 8))};
  return CID(P_PTR, spvgen_access_chain, (CM, g->elem_ptr[c], g->buf[c], idx, 2), ", %u, %u, %s, 2",
             g->elem_ptr[c], g->buf[c], carr(idx, 2));
}

/* A pointer to the runtime array of component c's buffer (what cooperative vectors take). */
static uint32_t buffer_array(cg *g, int c) {
  buffer_element(g, c);
  uint32_t t = comp_type(g, c);
  uint32_t rta = CID(P_TYPE, spvgen_type_runtime_array_strided, (CM, t, c_width[c] / 8), ", %u, %u", t,
                     (uint32_t)c_width[c] / 8);
  uint32_t pt = CID(P_TYPE, spvgen_type_pointer, (CM, SpvStorageClassStorageBuffer, rta), ", %u, %u",
                    (uint32_t)SpvStorageClassStorageBuffer, rta);
  uint32_t zero = u32c(g, 0);
  return CID(P_PTR, spvgen_access_chain, (CM, pt, g->buf[c], &zero, 1), ", %u, %u, %s, 1", pt, g->buf[c],
             carr(&zero, 1));
}

/* An element pointer into a Workgroup array of component c. */
static uint32_t workgroup_element(cg *g, int c) {
  uint32_t t = comp_type(g, c);
  if (!g->wg[c]) {
    uint32_t len = u32c(g, 1024);
    uint32_t at = CID(P_TYPE, spvgen_type_array, (CM, t, len), ", %u, %u", t, len);
    uint32_t pt = CID(P_TYPE, spvgen_type_pointer, (CM, SpvStorageClassWorkgroup, at), ", %u, %u",
                      (uint32_t)SpvStorageClassWorkgroup, at);
    g->wg[c] = CID(P_PTR, spvgen_variable, (CM, pt, SpvStorageClassWorkgroup, 0), ", %u, %u, 0", pt,
                   (uint32_t)SpvStorageClassWorkgroup);
    g->wg_ptr[c] = CID(P_TYPE, spvgen_type_pointer, (CM, SpvStorageClassWorkgroup, t), ", %u, %u",
                       (uint32_t)SpvStorageClassWorkgroup, t);
  }
  uint32_t idx = u32c(g, 16 * below(g->r, 8));
  return CID(P_PTR, spvgen_access_chain, (CM, g->wg_ptr[c], g->wg[c], &idx, 1), ", %u, %u, %s, 1",
             g->wg_ptr[c], g->wg[c], carr(&idx, 1));
}

static void add_value(cg *g, uint32_t id, uint32_t type) {
  if (!id || !g->in_main || g->nvals == CG_VALS) return;
  g->vals[g->nvals++] = (cg_val){id, type};
}

static uint32_t value_of(cg *g, uint32_t type) {
  uint32_t c[CG_VALS], n = 0;
  for (uint32_t i = 0; i < g->nvals; i++)
    if (g->vals[i].type == type) c[n++] = g->vals[i].id;
  return n ? c[below(g->r, n)] : 0;
}

static uint32_t memory_mask(cg *g, bool is_load, spvgen_memory_operands *mem) {
  memset(mem, 0, sizeof *mem);
  uint32_t x = below(g->r, 10);
  if (x < 5) return 0;
  if (x < 7) {
    mem->mask = SpvMemoryAccessAlignedMask;
    mem->alignment = 1u << below(g->r, 5);
  } else if (x < 8 && g->version >= SPVGEN_VERSION(1, 4)) {
    mem->mask = SpvMemoryAccessNontemporalMask;
  } else if (g->vulkan_mm) {
    mem->mask = (is_load ? SpvMemoryAccessMakePointerVisibleMask : SpvMemoryAccessMakePointerAvailableMask) |
                SpvMemoryAccessNonPrivatePointerMask;
    mem->scope = chance(g->r, 50) ? SpvScopeWorkgroup : SpvScopeDevice;
    if (chance(g->r, 30)) {
      mem->mask |= SpvMemoryAccessAlignedMask;
      mem->alignment = 16;
    }
  }
  return mem->mask;
}

static const char *cmem(const spvgen_memory_operands *mem) {
  static char buf[2][120];
  static int which = 0;
  char *b = buf[which ^= 1];
  if (!mem) return "NULL";
  snprintf(b, sizeof buf[0], "&(spvgen_memory_operands){0x%x, %u, %u}", mem->mask, mem->alignment,
           (uint32_t)mem->scope);
  return b;
}

/* ================================================================ matrices ==== */

static const uint32_t dims[] = {8, 16, 32};

/* A matrix type (new or known). Specialization-constant rows/cols now and then. */
static const cg_mat *mat_type(cg *g, int c, uint32_t scope, uint32_t rows, uint32_t cols, uint32_t use,
                              bool allow_spec) {
  for (uint32_t i = 0; i < g->nmats; i++) {
    const cg_mat *t = &g->mats[i];
    if (t->c == c && t->scope == scope && t->rows == rows && t->cols == cols && t->use == use) return t;
  }
  if (g->nmats == CG_MATS) return NULL;
  uint32_t comp = comp_type(g, c), id;
  cg_mat t = {0, c, scope, rows, cols, use};
  if (allow_spec && chance(g->r, 6)) {
    uint32_t s = g->next_spec++;
    uint32_t r = CID(P_CONST, spvgen_spec_const_u32, (CM, rows, s), ", %u, %u", rows, s);
    uint32_t sc = u32c(g, scope), cc = u32c(g, cols), uc = u32c(g, use);
    id = CID(P_TYPE, spvgen_type_coopmat_id, (CM, comp, sc, r, cc, uc), ", %u, %u, %u, %u, %u", comp, sc, r,
             cc, uc);
    t.rows = SPVGEN_ABSENT;
  } else if (chance(g->r, 15)) {
    uint32_t sc = u32c(g, scope), rc = u32c(g, rows), cc = u32c(g, cols), uc = u32c(g, use);
    id = CID(P_TYPE, spvgen_type_coopmat_id, (CM, comp, sc, rc, cc, uc), ", %u, %u, %u, %u, %u", comp, sc,
             rc, cc, uc);
  } else {
    id = CID(P_TYPE, spvgen_type_coopmat, (CM, comp, (SpvScope)scope, rows, cols, (SpvCooperativeMatrixUse)use),
             ", %u, %u, %u, %u, %u", comp, scope, rows, cols, use);
  }
  if (!cg_ok(g)) return NULL;
  spvgen_coop_type_info info;
  bool known = spvgen_coop_type_query(CM, id, &info);
  FZ_CHECK(g->z, known && info.opcode == SpvOpTypeCooperativeMatrixKHR && info.component == comp &&
                     info.scope == scope && info.rows == t.rows && info.columns == cols && info.use == use,
           "spvgen_coop_type_query(%u) does not describe the matrix it made", id);
  t.id = id;
  g->mats[g->nmats] = t;
  return &g->mats[g->nmats++];
}

static uint32_t pick_scope(cg *g) { return chance(g->r, 75) ? SpvScopeSubgroup : SpvScopeWorkgroup; }

static int pick_mat_comp(cg *g) {
  static const int cs[] = {C_F16, C_F16, C_F32, C_S8, C_U8, C_S32, C_U32, C_BF16, C_E4M3, C_E5M2};
  int c = cs[below(g->r, 10)];
  return c_exotic(c) && (!g->allow_exotic || chance(g->r, 50)) ? C_F16 : c;
}

static const cg_mat *rand_mat(cg *g) {
  if (g->nmats && (chance(g->r, 60) || g->nmats == CG_MATS)) return &g->mats[below(g->r, g->nmats)];
  return mat_type(g, pick_mat_comp(g), pick_scope(g), dims[below(g->r, 3)], dims[below(g->r, 3)],
                  below(g->r, 3), true);
}

static uint32_t mat_load(cg *g, const cg_mat *t);

/* A value of matrix type t: one made before, a splat of a constant, or a load. */
static uint32_t mat_value(cg *g, const cg_mat *t) {
  if (!t) return 0;
  uint32_t v = chance(g->r, 60) ? value_of(g, t->id) : 0;
  if (v) return v;
  if (chance(g->r, 50)) {
    uint32_t s = const_scalar(g, t->c);
    v = CID(P_VALUE, spvgen_coop_splat, (CM, t->id, s), ", %u, %u", t->id, s);
    add_value(g, v, t->id);
    return v;
  }
  return mat_load(g, t);
}

/* Layout and stride of a KHR load/store. */
static uint32_t mat_layout(cg *g, const cg_mat *t, uint32_t *stride) {
  uint32_t x = below(g->r, 20);
  if (x == 0) { /* SPV_ARM_cooperative_matrix_layouts: a constant stride of 1, 2 or 4 */
    static const uint32_t s[] = {1, 2, 4};
    *stride = u32c(g, s[below(g->r, 3)]);
    return chance(g->r, 50) ? SpvCooperativeMatrixLayoutRowBlockedInterleavedARM
                            : SpvCooperativeMatrixLayoutColumnBlockedInterleavedARM;
  }
  uint32_t layout = x & 1 ? SpvCooperativeMatrixLayoutColumnMajorKHR : SpvCooperativeMatrixLayoutRowMajorKHR;
  uint32_t elems = layout == SpvCooperativeMatrixLayoutRowMajorKHR ? t->cols : t->rows;
  if (elems == SPVGEN_ABSENT) elems = 64;
  if (x < 12) *stride = u32c(g, elems * (1 + below(g->r, 2)));
  else if (x < 16) *stride = CID(P_CONST, spvgen_const_i32, (CM, (int32_t)elems), ", %d", (int32_t)elems);
  else { /* a run-time stride: loaded from the u32 buffer */
    uint32_t p = buffer_element(g, C_U32);
    *stride = CID(P_VALUE, spvgen_load, (CM, comp_type(g, C_U32), p), ", %u, %u", comp_type(g, C_U32), p);
  }
  return layout;
}

static uint32_t mat_pointer(cg *g, int c) {
  return chance(g->r, 30) ? workgroup_element(g, c) : buffer_element(g, c);
}

static uint32_t mat_load(cg *g, const cg_mat *t) {
  if (!t) return 0;
  uint32_t p = mat_pointer(g, t->c), stride = 0;
  uint32_t layout = mat_layout(g, t, &stride);
  spvgen_memory_operands mem;
  memory_mask(g, true, &mem);
  const spvgen_memory_operands *mp = mem.mask || chance(g->r, 50) ? &mem : NULL;
  uint32_t v;
  if (chance(g->r, 20)) {
    uint32_t l = u32c(g, layout);
    v = CID(P_VALUE, spvgen_coopmat_load_id, (CM, t->id, p, l, stride, mp), ", %u, %u, %u, %u, %s", t->id, p,
            l, stride, cmem(mp));
  } else {
    v = CID(P_VALUE, spvgen_coopmat_load_stride_id, (CM, t->id, p, (SpvCooperativeMatrixLayout)layout, stride, mp),
            ", %u, %u, %u, %u, %s", t->id, p, layout, stride, cmem(mp));
  }
  add_value(g, v, t->id);
  return v;
}

static void mat_store(cg *g) {
  const cg_mat *t = rand_mat(g);
  if (!t) return;
  uint32_t v = mat_value(g, t);
  uint32_t p = mat_pointer(g, t->c), stride = 0;
  uint32_t layout = mat_layout(g, t, &stride);
  spvgen_memory_operands mem;
  memory_mask(g, false, &mem);
  const spvgen_memory_operands *mp = mem.mask || chance(g->r, 50) ? &mem : NULL;
  if (chance(g->r, 20)) {
    uint32_t l = u32c(g, layout);
    CVOID(spvgen_coopmat_store_id, (CM, p, v, l, stride, mp), ", %u, %u, %u, %u, %s", p, v, l, stride,
          cmem(mp));
  } else {
    CVOID(spvgen_coopmat_store_stride_id, (CM, p, v, (SpvCooperativeMatrixLayout)layout, stride, mp),
          ", %u, %u, %u, %u, %s", p, v, layout, stride, cmem(mp));
  }
}

static void mat_muladd(cg *g) {
  uint32_t M = dims[below(g->r, 3)], N = dims[below(g->r, 3)], K = dims[below(g->r, 3)];
  uint32_t scope = pick_scope(g);
  int ca, cb, cc;
  uint32_t ops = 0;
  uint32_t x = below(g->r, 10);
  if (x < 5) { /* float */
    ca = cb = C_F16;
    if (x == 4 && g->allow_exotic) ca = cb = chance(g->r, 50) ? C_BF16 : C_E4M3 + (int)below(g->r, 2);
    if (ca == C_E4M3 || ca == C_E5M2) cb = C_E4M3 + (int)below(g->r, 2);
    cc = chance(g->r, 50) || ca == C_BF16 ? C_F32 : C_F16;
  } else { /* integer */
    ca = chance(g->r, 50) ? C_S8 : C_U8;
    cb = chance(g->r, 50) ? C_S8 : C_U8;
    cc = chance(g->r, 50) ? C_S32 : C_U32;
    ops = SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES;
    if (chance(g->r, 30)) ops |= SpvCooperativeMatrixOperandsSaturatingAccumulationKHRMask;
    if (chance(g->r, 20)) { /* spelled out instead */
      ops &= ~SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES;
      if (c_signed(ca)) ops |= SpvCooperativeMatrixOperandsMatrixASignedComponentsKHRMask;
      if (c_signed(cb)) ops |= SpvCooperativeMatrixOperandsMatrixBSignedComponentsKHRMask;
      if (c_signed(cc)) ops |= SpvCooperativeMatrixOperandsMatrixCSignedComponentsKHRMask |
                               SpvCooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask;
    }
  }
  const cg_mat *A = mat_type(g, ca, scope, M, K, SpvCooperativeMatrixUseMatrixAKHR, false);
  const cg_mat *B = mat_type(g, cb, scope, K, N, SpvCooperativeMatrixUseMatrixBKHR, false);
  const cg_mat *C = mat_type(g, cc, scope, M, N, SpvCooperativeMatrixUseMatrixAccumulatorKHR, false);
  if (!A || !B || !C) return;
  uint32_t a = mat_value(g, A), b = mat_value(g, B), c = mat_value(g, C);
  uint32_t rt = chance(g->r, 50) ? 0 : C->id;
  uint32_t d = CID(P_VALUE, spvgen_coopmat_muladd, (CM, rt, a, b, c, ops), ", %u, %u, %u, %u, 0x%x", rt, a, b, c,
                   ops);
  add_value(g, d, C->id);
}

static void mat_elementwise(cg *g) {
  const cg_mat *t = rand_mat(g);
  if (!t) return;
  uint32_t a = mat_value(g, t), comp = comp_type(g, t->c), v = 0;
  switch (below(g->r, 7)) {
  case 0: {
    uint32_t n = CID(P_VALUE, spvgen_coopmat_length, (CM, t->id), ", %u", t->id);
    (void)n;
    return;
  }
  case 1: {
    uint32_t i = below(g->r, 4);
    v = CID(P_VALUE, spvgen_coop_extract, (CM, a, i), ", %u, %u", a, i);
    if (cg_ok(g))
      FZ_CHECK(g->z, spvgen_type_of(CM, v) == comp, "spvgen_coop_extract gave a value of type %u, not %u",
               spvgen_type_of(CM, v), comp);
    return;
  }
  case 2: {
    uint32_t i = below(g->r, 4), s = const_scalar(g, t->c);
    v = CID(P_VALUE, spvgen_coop_insert, (CM, a, s, i), ", %u, %u, %u", a, s, i);
    break;
  }
  case 3: {
    static const SpvOp fops[] = {SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv};
    static const SpvOp iops[] = {SpvOpIAdd, SpvOpISub, SpvOpIMul, SpvOpSDiv, SpvOpUDiv};
    SpvOp op = c_float(t->c) ? fops[below(g->r, 4)] : iops[below(g->r, 5)];
    /* OpUDiv needs unsigned components (SPIR-V) and the helper rejects signed ones
     * (test_coop_errors.c: test_udiv_needs_unsigned_components): a valid sequence uses
     * OpSDiv there. */
    if (op == SpvOpUDiv && c_signed(t->c)) op = SpvOpSDiv;
    uint32_t b = mat_value(g, t);
    v = CID(P_VALUE, spvgen_coop_arith, (CM, op, a, b), ", %u, %u, %u", (uint32_t)op, a, b);
    break;
  }
  case 4:
    v = CID(P_VALUE, spvgen_coop_negate, (CM, a), ", %u", a);
    break;
  case 5: {
    uint32_t s = const_scalar(g, t->c);
    v = CID(P_VALUE, spvgen_coop_scale, (CM, a, s), ", %u, %u", a, s);
    break;
  }
  default: {
    uint32_t s = const_scalar(g, t->c);
    v = CID(P_VALUE, spvgen_coop_splat, (CM, t->id, s), ", %u, %u", t->id, s);
    break;
  }
  }
  add_value(g, v, t->id);
}

/* A component type a's can be converted to, per spvgen_coop_convert's rules. */
static int convert_target(cg *g, int c) {
  if (c_exotic(c)) return C_F32;
  switch (below(g->r, 3)) {
  case 0: /* float */
    if (c == C_F16) return C_F32;
    if (c == C_F32) return C_F16;
    return chance(g->r, 50) ? C_F16 : C_F32;
  case 1: /* same width, other signedness (a bitcast), or float to int */
    if (c == C_S8) return C_U8;
    if (c == C_U8) return C_S8;
    if (c == C_S32) return C_U32;
    if (c == C_U32) return C_S32;
    return chance(g->r, 50) ? C_S32 : C_U32;
  default: /* another width: from signed to any, from unsigned to unsigned */
    if (c == C_S8) return chance(g->r, 50) ? C_S32 : C_U32;
    if (c == C_S32) return chance(g->r, 50) ? C_S8 : C_U8;
    if (c == C_U8) return C_U32;
    if (c == C_U32) return C_U8;
    return chance(g->r, 50) ? C_S8 : C_U8;
  }
}

static void mat_convert(cg *g) {
  const cg_mat *t = rand_mat(g);
  if (!t || t->rows == SPVGEN_ABSENT) return;
  uint32_t a = mat_value(g, t);
  uint32_t x = below(g->r, 10);
  if (x < 5) { /* component type */
    int d = convert_target(g, t->c);
    uint32_t use = t->use;
    bool bitcast = c_width[d] == c_width[t->c] && !c_float(d) && !c_float(t->c);
    if (t->use == SpvCooperativeMatrixUseMatrixAccumulatorKHR && !bitcast && chance(g->r, 30))
      use = below(g->r, 2); /* and the Use: SPV_NV_cooperative_matrix2 */
    const cg_mat *r = mat_type(g, d, t->scope, t->rows, t->cols, use, false);
    if (!r) return;
    uint32_t v = CID(P_VALUE, spvgen_coop_convert, (CM, r->id, a), ", %u, %u", r->id, a);
    add_value(g, v, r->id);
  } else if (x < 8) { /* Use only */
    if (t->use != SpvCooperativeMatrixUseMatrixAccumulatorKHR) return;
    const cg_mat *r = mat_type(g, t->c, t->scope, t->rows, t->cols, below(g->r, 2), false);
    if (!r) return;
    uint32_t v = CID(P_VALUE, spvgen_coopmat_convert_use, (CM, r->id, a), ", %u, %u", r->id, a);
    add_value(g, v, r->id);
  } else { /* transpose: Acc R x C -> B C x R */
    if (t->use != SpvCooperativeMatrixUseMatrixAccumulatorKHR) return;
    const cg_mat *r = mat_type(g, t->c, t->scope, t->cols, t->rows, SpvCooperativeMatrixUseMatrixBKHR, false);
    if (!r) return;
    uint32_t v = CID(P_VALUE, spvgen_coopmat_transpose, (CM, r->id, a), ", %u, %u", r->id, a);
    add_value(g, v, r->id);
  }
}

/* A combine function for component c: one made before main, or one named now and
 * defined after main. */
static uint32_t combine_func(cg *g, int c) {
  if (g->combine[c] && chance(g->r, 80)) return g->combine[c];
  for (uint32_t i = 0; i < g->nlater; i++)
    if (g->later[i].kind == 0 && g->later[i].c == c && chance(g->r, 70)) return g->later[i].id;
  if (g->nlater == CG_LATER) return g->combine[c];
  uint32_t id = CID(P_RESERVED, spvgen_reserve_id, (CM), "%s", "");
  g->later[g->nlater++] = (cg_later){id, c, 0, 0};
  return id;
}

static uint32_t per_element_func(cg *g, int c, uint32_t extra) {
  if (!extra && g->per_element[c] && chance(g->r, 70)) return g->per_element[c];
  for (uint32_t i = 0; i < g->nlater; i++)
    if (g->later[i].kind == 1 && g->later[i].c == c && g->later[i].extra == extra) return g->later[i].id;
  if (g->nlater == CG_LATER) return 0;
  uint32_t id = CID(P_RESERVED, spvgen_reserve_id, (CM), "%s", "");
  g->later[g->nlater++] = (cg_later){id, c, 1, extra};
  return id;
}

static void mat_reduce(cg *g) {
  int c = pick_mat_comp(g);
  if (c_exotic(c)) c = C_F16;
  uint32_t scope = pick_scope(g), rows = dims[below(g->r, 3)], cols = dims[below(g->r, 3)];
  const cg_mat *t = mat_type(g, c, scope, rows, cols, SpvCooperativeMatrixUseMatrixAccumulatorKHR, false);
  if (!t) return;
  uint32_t mode, rr, rc;
  switch (below(g->r, 4)) {
  case 0: mode = SpvCooperativeMatrixReduceRowMask, rr = rows, rc = chance(g->r, 50) ? 1 : cols; break;
  case 1: mode = SpvCooperativeMatrixReduceColumnMask, rr = chance(g->r, 50) ? 1 : rows, rc = cols; break;
  case 2: mode = SpvCooperativeMatrixReduceRowMask | SpvCooperativeMatrixReduceColumnMask, rr = chance(g->r, 50) ? 1 : rows, rc = chance(g->r, 50) ? 1 : cols; break;
  default: mode = SpvCooperativeMatrixReduce2x2Mask, rr = rows / 2, rc = cols / 2; break;
  }
  const cg_mat *r = mat_type(g, c, scope, rr, rc, SpvCooperativeMatrixUseMatrixAccumulatorKHR, false);
  if (!r) return;
  uint32_t a = mat_value(g, t), f = combine_func(g, c);
  if (!f) return;
  uint32_t v = CID(P_VALUE, spvgen_coopmat_reduce, (CM, r->id, a, mode, f), ", %u, %u, %u, %u", r->id, a, mode, f);
  add_value(g, v, r->id);
}

static void mat_per_element(cg *g) {
  const cg_mat *t = rand_mat(g);
  if (!t || c_exotic(t->c)) return;
  uint32_t a = mat_value(g, t), extra[1], n = 0, extra_type = 0;
  if (chance(g->r, 40)) { /* a matrix of the same shape: the function gets its element */
    extra[n++] = mat_value(g, t);
    extra_type = comp_type(g, t->c);
  } else if (chance(g->r, 30)) {
    extra[n++] = u32c(g, below(g->r, 100));
    extra_type = comp_type(g, C_U32);
  }
  uint32_t f = per_element_func(g, t->c, extra_type);
  if (!f) return;
  uint32_t v = CID(P_VALUE, spvgen_coopmat_per_element, (CM, a, f, extra, n), ", %u, %u, %s, %u", a, f,
                   carr(extra, n), n);
  add_value(g, v, t->id);
}

/* ================================================================= tensors ==== */

/* A tensor layout value of dimension dim with some of its instructions applied. */
static uint32_t tensor_layout(cg *g, uint32_t dim) {
  uint32_t clamp = below(g->r, 5), t;
  if (chance(g->r, 20)) {
    uint32_t d = u32c(g, dim), cl = u32c(g, clamp);
    t = CID(P_TYPE, spvgen_type_tensor_layout_id, (CM, d, cl), ", %u, %u", d, cl);
  } else {
    t = CID(P_TYPE, spvgen_type_tensor_layout, (CM, dim, (SpvTensorClampMode)clamp), ", %u, %u", dim, clamp);
  }
  uint32_t v = CID(P_VALUE, spvgen_tensor_layout_create, (CM, t), ", %u", t);
  uint32_t vals[5], spans[5];
  uint32_t steps = below(g->r, 4);
  for (uint32_t s = 0; s < steps + 1; s++) {
    for (uint32_t i = 0; i < dim; i++) vals[i] = u32c(g, 16 << below(g->r, 4)), spans[i] = u32c(g, 16);
    switch (s == 0 ? 0 : below(g->r, 5)) {
    case 0: v = CID(P_VALUE, spvgen_tensor_layout_set_dimension, (CM, v, vals, dim), ", %u, %s, %u", v, carr(vals, dim), dim); break;
    case 1: v = CID(P_VALUE, spvgen_tensor_layout_set_stride, (CM, v, vals, dim), ", %u, %s, %u", v, carr(vals, dim), dim); break;
    case 2: v = CID(P_VALUE, spvgen_tensor_layout_slice, (CM, v, vals, spans, dim), ", %u, %s, %s, %u", v, carr(vals, dim), carr(spans, dim), dim); break;
    case 3: v = CID(P_VALUE, spvgen_tensor_layout_set_clamp_value, (CM, v, vals[0]), ", %u, %u", v, vals[0]); break;
    default: v = CID(P_VALUE, spvgen_tensor_layout_set_block_size, (CM, v, vals, dim), ", %u, %s, %u", v, carr(vals, dim), dim); break;
    }
  }
  return v;
}

static uint32_t tensor_view(cg *g, uint32_t dim) {
  uint32_t perm[5];
  for (uint32_t i = 0; i < dim; i++) perm[i] = i;
  for (uint32_t i = dim; i > 1; i--) { /* a random permutation */
    uint32_t j = below(g->r, i), tmp = perm[i - 1];
    perm[i - 1] = perm[j];
    perm[j] = tmp;
  }
  bool has_dim = chance(g->r, 50);
  uint32_t t;
  if (chance(g->r, 20)) {
    uint32_t ids[5], d = u32c(g, dim);
    for (uint32_t i = 0; i < dim; i++) ids[i] = u32c(g, perm[i]);
    uint32_t h = CID(P_CONST, spvgen_const_bool, (CM, has_dim), ", %d", has_dim);
    t = CID(P_TYPE, spvgen_type_tensor_view_id, (CM, d, h, ids, dim), ", %u, %u, %s, %u", d, h, carr(ids, dim), dim);
  } else {
    bool identity = chance(g->r, 30);
    t = CID(P_TYPE, spvgen_type_tensor_view, (CM, dim, has_dim, identity ? NULL : perm), ", %u, %d, %s", dim, has_dim,
            carr(identity ? NULL : perm, dim));
  }
  uint32_t v = CID(P_VALUE, spvgen_tensor_view_create, (CM, t), ", %u", t);
  uint32_t vals[5];
  for (uint32_t i = 0; i < dim; i++) vals[i] = u32c(g, 16 << below(g->r, 3));
  switch (below(g->r, 4)) {
  case 0: v = CID(P_VALUE, spvgen_tensor_view_set_dimension, (CM, v, vals, dim), ", %u, %s, %u", v, carr(vals, dim), dim); break;
  case 1: v = CID(P_VALUE, spvgen_tensor_view_set_stride, (CM, v, vals, dim), ", %u, %s, %u", v, carr(vals, dim), dim); break;
  case 2: {
    uint32_t a = u32c(g, 0), b = u32c(g, 16);
    v = CID(P_VALUE, spvgen_tensor_view_set_clip, (CM, v, a, b, a, b), ", %u, %u, %u, %u, %u", v, a, b, a, b);
    break;
  }
  default: break;
  }
  return v;
}

static void tensor_load_store(cg *g) {
  const cg_mat *t = rand_mat(g);
  if (!t || t->rows == SPVGEN_ABSENT) return;
  uint32_t layout = tensor_layout(g, 2);
  spvgen_tensor_operands ops = {0, 0};
  if (chance(g->r, 40)) ops.tensor_view = tensor_view(g, 2);
  spvgen_memory_operands mem;
  bool load = chance(g->r, 60);
  memory_mask(g, load, &mem);
  const spvgen_memory_operands *mp = mem.mask || chance(g->r, 50) ? &mem : NULL;
  bool decode = load && g->decode[t->c] && chance(g->r, 50);
  if (decode) ops.decode_func = g->decode[t->c];
  uint32_t p = decode ? buffer_element(g, t->c) : mat_pointer(g, t->c);
  const spvgen_tensor_operands *tp = ops.tensor_view || ops.decode_func || chance(g->r, 50) ? &ops : NULL;
  char tbuf[80];
  snprintf(tbuf, sizeof tbuf, tp ? "&(spvgen_tensor_operands){%u, %u}" : "NULL", ops.tensor_view, ops.decode_func);
  if (load) {
    uint32_t obj = chance(g->r, 50) ? 0 : mat_value(g, t);
    uint32_t v = CID(P_VALUE, spvgen_coopmat_load_tensor, (CM, t->id, p, obj, layout, mp, tp), ", %u, %u, %u, %u, %s, %s",
                     t->id, p, obj, layout, cmem(mp), tbuf);
    add_value(g, v, t->id);
  } else {
    uint32_t v = mat_value(g, t);
    CVOID(spvgen_coopmat_store_tensor, (CM, p, v, layout, mp, tp), ", %u, %u, %u, %s, %s", p, v, layout, cmem(mp), tbuf);
  }
}

/* ================================================================= vectors ==== */

static uint32_t vec_type(cg *g, int c, uint32_t count) {
  uint32_t comp = comp_type(g, c), t;
  if (chance(g->r, 15)) {
    uint32_t n = u32c(g, count);
    t = CID(P_TYPE, spvgen_type_coopvec_id, (CM, comp, n), ", %u, %u", comp, n);
  } else {
    t = CID(P_TYPE, spvgen_type_coopvec, (CM, comp, count), ", %u, %u", comp, count);
  }
  if (cg_ok(g)) {
    spvgen_coop_type_info info;
    FZ_CHECK(g->z, spvgen_coop_type_query(CM, t, &info) && info.opcode == SpvOpTypeCooperativeVectorNV &&
                       info.component == comp && info.count == count,
             "spvgen_coop_type_query(%u) does not describe the vector it made", t);
  }
  return t;
}

static uint32_t vec_offset(cg *g, uint32_t align) {
  uint32_t x = below(g->r, 4);
  if (x == 0) return 0;
  if (x == 1) { /* a run-time offset */
    uint32_t p = buffer_element(g, C_U32);
    return CID(P_VALUE, spvgen_load, (CM, comp_type(g, C_U32), p), ", %u, %u", comp_type(g, C_U32), p);
  }
  return u32c(g, align * below(g->r, 4));
}

/* A vector value of c x count. */
static uint32_t vec_value(cg *g, int c, uint32_t count) {
  uint32_t t = vec_type(g, c, count);
  uint32_t v = chance(g->r, 50) ? value_of(g, t) : 0;
  if (v) return v;
  uint32_t x = below(g->r, 3);
  if (x == 0) {
    uint32_t s = const_scalar(g, c);
    v = CID(P_VALUE, spvgen_coop_splat, (CM, t, s), ", %u, %u", t, s);
  } else if (x == 1 && count <= 8) {
    uint32_t parts[8];
    for (uint32_t i = 0; i < count; i++) parts[i] = const_scalar(g, c);
    v = CID(P_VALUE, spvgen_coop_construct, (CM, t, parts, count), ", %u, %s, %u", t, carr(parts, count), count);
  } else {
    uint32_t p = chance(g->r, 80) ? buffer_array(g, c) : 0, off = vec_offset(g, 16);
    if (!p) { /* the whole Workgroup array */
      workgroup_element(g, c);
      p = g->wg[c];
    }
    spvgen_memory_operands mem;
    memory_mask(g, true, &mem);
    const spvgen_memory_operands *mp = mem.mask ? &mem : NULL;
    v = CID(P_VALUE, spvgen_coopvec_load, (CM, t, p, off, mp), ", %u, %u, %u, %s", t, p, off, cmem(mp));
  }
  add_value(g, v, t);
  return v;
}

static const uint32_t vcounts[] = {1, 2, 3, 4, 8, 16, 32, 64};

static void vec_store(cg *g) {
  int c = chance(g->r, 60) ? C_F16 : chance(g->r, 50) ? C_F32 : C_U32;
  uint32_t v = vec_value(g, c, vcounts[below(g->r, 8)]);
  uint32_t p = buffer_array(g, c), off = vec_offset(g, 16);
  spvgen_memory_operands mem;
  memory_mask(g, false, &mem);
  const spvgen_memory_operands *mp = mem.mask ? &mem : NULL;
  CVOID(spvgen_coopvec_store, (CM, p, v, off, mp), ", %u, %u, %u, %s", p, v, off, cmem(mp));
}

static void vec_ops(cg *g) {
  static const int cs[] = {C_F16, C_F32, C_S32, C_U32, C_S8, C_U8};
  int c = cs[below(g->r, 6)];
  uint32_t count = vcounts[below(g->r, 8)];
  uint32_t a = vec_value(g, c, count), t = vec_type(g, c, count), v = 0;
  uint32_t x = below(g->r, 9);
  if (x == 0) {
    static const SpvOp fops[] = {SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv};
    static const SpvOp iops[] = {SpvOpIAdd, SpvOpISub, SpvOpIMul, SpvOpSDiv, SpvOpUDiv, SpvOpBitwiseAnd,
                                 SpvOpBitwiseOr, SpvOpBitwiseXor, SpvOpShiftLeftLogical,
                                 SpvOpShiftRightLogical, SpvOpShiftRightArithmetic};
    SpvOp op = c_float(c) ? fops[below(g->r, 4)] : iops[below(g->r, 11)];
    if (op == SpvOpUDiv && c_signed(c)) op = SpvOpSDiv; /* rejected, as for matrices */
    uint32_t b = vec_value(g, c, count);
    v = CID(P_VALUE, spvgen_coop_arith, (CM, op, a, b), ", %u, %u, %u", (uint32_t)op, a, b);
  } else if (x == 1) {
    if (c_float(c)) v = CID(P_VALUE, spvgen_coop_negate, (CM, a), ", %u", a);
    else v = CID(P_VALUE, spvgen_coop_not, (CM, a), ", %u", a);
  } else if (x == 2) {
    uint32_t s = const_scalar(g, c);
    v = CID(P_VALUE, spvgen_coop_scale, (CM, a, s), ", %u, %u", a, s);
  } else if (x == 3) {
    int d = convert_target(g, c);
    uint32_t rt = vec_type(g, d, count);
    v = CID(P_VALUE, spvgen_coop_convert, (CM, rt, a), ", %u, %u", rt, a);
    add_value(g, v, rt);
    return;
  } else if (x == 4) {
    uint32_t i = below(g->r, count);
    uint32_t e = CID(P_VALUE, spvgen_coop_extract, (CM, a, i), ", %u, %u", a, i);
    uint32_t s = chance(g->r, 50) ? e : const_scalar(g, c);
    v = CID(P_VALUE, spvgen_coop_insert, (CM, a, s, i), ", %u, %u, %u", a, s, i);
  } else if (c_float(c)) {
    uint32_t b = vec_value(g, c, count), d = vec_value(g, c, count);
    switch (below(g->r, 9)) {
    case 0: v = CID(P_VALUE, spvgen_coopvec_fma, (CM, a, b, d), ", %u, %u, %u", a, b, d); break;
    case 1: v = CID(P_VALUE, spvgen_coopvec_exp, (CM, a), ", %u", a); break;
    case 2: v = CID(P_VALUE, spvgen_coopvec_log, (CM, a), ", %u", a); break;
    case 3: v = CID(P_VALUE, spvgen_coopvec_tanh, (CM, a), ", %u", a); break;
    case 4: v = CID(P_VALUE, spvgen_coopvec_atan, (CM, a), ", %u", a); break;
    case 5: v = CID(P_VALUE, spvgen_coopvec_step, (CM, a, b), ", %u, %u", a, b); break;
    case 6: v = CID(P_VALUE, spvgen_coopvec_min, (CM, a, b), ", %u, %u", a, b); break;
    case 7: v = CID(P_VALUE, spvgen_coopvec_max, (CM, a, b), ", %u, %u", a, b); break;
    default: v = CID(P_VALUE, spvgen_coopvec_clamp, (CM, a, b, d), ", %u, %u, %u", a, b, d); break;
    }
  } else {
    uint32_t b = vec_value(g, c, count), d = vec_value(g, c, count);
    switch (below(g->r, 3)) {
    case 0: v = CID(P_VALUE, spvgen_coopvec_min, (CM, a, b), ", %u, %u", a, b); break;
    case 1: v = CID(P_VALUE, spvgen_coopvec_max, (CM, a, b), ", %u, %u", a, b); break;
    default: v = CID(P_VALUE, spvgen_coopvec_clamp, (CM, a, b, d), ", %u, %u, %u", a, b, d); break;
    }
  }
  add_value(g, v, t);
}

static const char *cdesc(const spvgen_coopvec_matmul_desc *d) {
  static char buf[700];
  snprintf(buf, sizeof buf,
           "&(spvgen_coopvec_matmul_desc){.result_type = %u, .input = %u, .input_interpretation = %u, "
           ".matrix = %u, .matrix_offset = %u, .matrix_interpretation = %u, .bias = %u, .bias_offset = %u, "
           ".bias_interpretation = %u, .m = %u, .k = %u, .layout = %u, .transpose = %d, .matrix_stride = %u, "
           ".operands = %u, .m_id = %u, .k_id = %u, .layout_id = %u, .transpose_id = %u, "
           ".matrix_stride_id = %u, .input_interpretation_id = %u, .matrix_interpretation_id = %u, "
           ".bias_interpretation_id = %u}",
           d->result_type, d->input, (uint32_t)d->input_interpretation, d->matrix, d->matrix_offset,
           (uint32_t)d->matrix_interpretation, d->bias, d->bias_offset, (uint32_t)d->bias_interpretation,
           d->m, d->k, (uint32_t)d->layout, d->transpose, d->matrix_stride, d->operands, d->m_id, d->k_id,
           d->layout_id, d->transpose_id, d->matrix_stride_id, d->input_interpretation_id,
           d->matrix_interpretation_id, d->bias_interpretation_id);
  return buf;
}

static void vec_matmul(cg *g) {
  spvgen_coopvec_matmul_desc d;
  memset(&d, 0, sizeof d);
  static const uint32_t sizes[] = {16, 32, 48, 64};
  uint32_t M = sizes[below(g->r, 4)], K = sizes[below(g->r, 4)];
  int rc, ic;
  uint32_t esize;
  uint32_t x = below(g->r, 10);
  if (x < 5) { /* float16 */
    rc = ic = C_F16;
    d.input_interpretation = SpvComponentTypeFloat16NV;
    d.matrix_interpretation = x == 4 ? (chance(g->r, 50) ? SpvComponentTypeFloatE4M3NV : SpvComponentTypeFloatE5M2NV)
                                     : SpvComponentTypeFloat16NV;
    d.bias_interpretation = SpvComponentTypeFloat16NV;
    esize = x == 4 ? 1 : 2;
  } else if (x < 8) { /* int8 in, int32 out */
    rc = C_S32;
    bool packed = chance(g->r, 50);
    ic = packed ? C_U32 : C_S8;
    d.input_interpretation = packed ? SpvComponentTypeSignedInt8PackedNV : SpvComponentTypeSignedInt8NV;
    d.matrix_interpretation = SpvComponentTypeSignedInt8NV;
    d.bias_interpretation = SpvComponentTypeSignedInt32NV;
    esize = 1;
    if (packed) d.k = K;
  } else { /* float32 */
    rc = ic = C_F32;
    d.input_interpretation = d.matrix_interpretation = d.bias_interpretation = SpvComponentTypeFloat32NV;
    esize = 4;
  }
  uint32_t in_count = d.input_interpretation == SpvComponentTypeSignedInt8PackedNV ? K / 4 : K;
  d.result_type = vec_type(g, rc, M);
  d.input = vec_value(g, ic, in_count);
  d.matrix = buffer_array(g, chance(g->r, 50) ? C_U8 : C_F16);
  d.matrix_offset = chance(g->r, 50) ? 0 : u32c(g, 64 * below(g->r, 4));
  d.layout = (SpvCooperativeVectorMatrixLayout)below(g->r, 4);
  if (d.layout >= SpvCooperativeVectorMatrixLayoutInferencingOptimalNV) d.transpose = chance(g->r, 30);
  if (d.layout <= SpvCooperativeVectorMatrixLayoutColumnMajorNV && chance(g->r, 40))
    d.matrix_stride = 16 * (uint32_t)((d.layout == 0 ? K : M) * esize / 16 + below(g->r, 2));
  if (chance(g->r, 20)) d.m = M;
  if (chance(g->r, 15)) d.m_id = u32c(g, M);
  if (chance(g->r, 15)) d.k_id = u32c(g, K);
  if (chance(g->r, 15)) d.layout_id = u32c(g, (uint32_t)d.layout);
  if (chance(g->r, 15)) d.transpose_id = CID(P_CONST, spvgen_const_bool, (CM, d.transpose), ", %d", d.transpose);
  if (d.matrix_stride && chance(g->r, 30)) d.matrix_stride_id = u32c(g, d.matrix_stride);
  if (chance(g->r, 15)) d.input_interpretation_id = u32c(g, (uint32_t)d.input_interpretation);
  if (chance(g->r, 15)) d.matrix_interpretation_id = u32c(g, (uint32_t)d.matrix_interpretation);
  bool bias = chance(g->r, 50);
  uint32_t v;
  if (bias) {
    d.bias = buffer_array(g, chance(g->r, 50) ? C_U8 : rc);
    d.bias_offset = chance(g->r, 50) ? 0 : u32c(g, 16 * below(g->r, 4));
    if (chance(g->r, 15)) d.bias_interpretation_id = u32c(g, (uint32_t)d.bias_interpretation);
    v = CID(P_VALUE, spvgen_coopvec_matmul_add, (CM, &d), ", %s", cdesc(&d));
  } else {
    v = CID(P_VALUE, spvgen_coopvec_matmul, (CM, &d), ", %s", cdesc(&d));
  }
  add_value(g, v, d.result_type);
}

static void vec_training(cg *g) {
  if (chance(g->r, 50)) {
    spvgen_coopvec_outer_product_desc d;
    memset(&d, 0, sizeof d);
    uint32_t M = vcounts[3 + below(g->r, 5)], N = vcounts[3 + below(g->r, 5)];
    d.pointer = buffer_array(g, chance(g->r, 50) ? C_F16 : C_F32);
    d.offset = chance(g->r, 50) ? 0 : u32c(g, 16 * below(g->r, 4));
    d.a = vec_value(g, C_F16, M);
    d.b = vec_value(g, C_F16, N);
    d.layout = SpvCooperativeVectorMatrixLayoutTrainingOptimalNV;
    d.matrix_interpretation = chance(g->r, 50) ? SpvComponentTypeFloat16NV : SpvComponentTypeFloat32NV;
    if (chance(g->r, 20)) d.layout_id = u32c(g, (uint32_t)d.layout);
    if (chance(g->r, 20)) d.matrix_interpretation_id = u32c(g, (uint32_t)d.matrix_interpretation);
    CVOID(spvgen_coopvec_outer_product_accumulate, (CM, &d),
          ", &(spvgen_coopvec_outer_product_desc){.pointer = %u, .offset = %u, .a = %u, .b = %u, .layout = %u, "
          ".matrix_interpretation = %u, .matrix_stride = %u, .layout_id = %u, .matrix_interpretation_id = %u, "
          ".matrix_stride_id = %u}",
          d.pointer, d.offset, d.a, d.b, (uint32_t)d.layout, (uint32_t)d.matrix_interpretation, d.matrix_stride,
          d.layout_id, d.matrix_interpretation_id, d.matrix_stride_id);
  } else {
    int c = chance(g->r, 50) ? C_F16 : C_F32;
    uint32_t p = buffer_array(g, c), off = chance(g->r, 50) ? 0 : u32c(g, 16 * below(g->r, 4));
    uint32_t v = vec_value(g, c, vcounts[below(g->r, 8)]);
    CVOID(spvgen_coopvec_reduce_sum_accumulate, (CM, p, v, off), ", %u, %u, %u", p, v, off);
  }
}

static void coop_queries(cg *g) {
  static const SpvComponentType all[] = {
      SpvComponentTypeFloat16NV,       SpvComponentTypeFloat32NV,
      SpvComponentTypeFloat64NV,       SpvComponentTypeSignedInt8NV,
      SpvComponentTypeSignedInt16NV,   SpvComponentTypeSignedInt32NV,
      SpvComponentTypeSignedInt64NV,   SpvComponentTypeUnsignedInt8NV,
      SpvComponentTypeUnsignedInt16NV, SpvComponentTypeUnsignedInt32NV,
      SpvComponentTypeUnsignedInt64NV, SpvComponentTypeSignedInt8PackedNV,
      SpvComponentTypeUnsignedInt8PackedNV, SpvComponentTypeFloatE4M3NV,
      SpvComponentTypeFloatE5M2NV};
  SpvComponentType i = all[below(g->r, 15)];
  FZ_CHECK(g->z, spvgen_interpretation_name(i) != NULL && spvgen_interpretation_size(i) != 0,
           "interpretation %u has no name or size", (uint32_t)i);
  if ((i == SpvComponentTypeFloatE4M3NV || i == SpvComponentTypeFloatE5M2NV) && !g->allow_exotic) return;
  if (i == SpvComponentTypeFloatE4M3NV || i == SpvComponentTypeFloatE5M2NV) g->exotic = true;
  uint32_t t = CID(P_TYPE, spvgen_type_for_interpretation, (CM, i), ", %u", (uint32_t)i);
  if (cg_ok(g)) {
    uint32_t bytes = i == SpvComponentTypeSignedInt8PackedNV || i == SpvComponentTypeUnsignedInt8PackedNV
                         ? 4 : spvgen_interpretation_size(i);
    FZ_CHECK(g->z, spvgen_type_size(CM, t) == bytes, "the type of interpretation %u has %u bytes, not %u",
             (uint32_t)i, spvgen_type_size(CM, t), bytes);
  }
}

/* ================================================================ callbacks ==== */

/* Ends the callback being defined with a value of its component type. */
static void return_component(cg *g, int c, uint32_t a, uint32_t b) {
  uint32_t t = comp_type(g, c), v = a;
  if (b && chance(g->r, 70)) {
    if (c_float(c))
      v = CID(P_VALUE, spvgen_op_f_add, (CM, t, a, b), ", %u, %u, %u", t, a, b);
    else
      v = CID(P_VALUE, spvgen_op_i_add, (CM, t, a, b), ", %u, %u, %u", t, a, b);
  }
  CVOID(spvgen_return_value, (CM, v), ", %u", v);
  CVOID(spvgen_function_end, (CM), "%s", "");
}

static void define_callbacks_before_main(cg *g) {
  for (int c = 0; c < C_COUNT; c++) {
    if (c_exotic(c) && (!g->allow_exotic || !chance(g->r, 20))) continue;
    if (chance(g->r, 40)) {
      uint32_t p[2] = {0, 0};
      g->combine[c] = CID(P_FUNC, spvgen_combine_func_begin, (CM, comp_type(g, c), p), ", %u, params",
                          comp_type(g, c));
      return_component(g, c, p[0], p[1]);
      if (cg_ok(g) && chance(g->r, 30)) {
        uint32_t ft = CID(P_TYPE, spvgen_type_combine_func, (CM, comp_type(g, c)), ", %u", comp_type(g, c));
        (void)ft;
      }
    }
    if (chance(g->r, 30) && !c_exotic(c)) {
      uint32_t p[3] = {0, 0, 0};
      g->per_element[c] = CID(P_FUNC, spvgen_per_element_func_begin, (CM, comp_type(g, c), NULL, 0, p),
                              ", %u, NULL, 0, params", comp_type(g, c));
      return_component(g, c, p[2], 0);
    }
    if (g->psb && !c_exotic(c) && chance(g->r, 40)) {
      /* DecodeFunc: reads element 0 of a block of the component */
      uint32_t t = comp_type(g, c);
      uint32_t block = CID(P_TYPE, spvgen_type_struct, (CM, &t, 1), ", %s, 1", carr(&t, 1));
      CVOID(spvgen_decorate, (CM, block, SpvDecorationBlock), ", %u, %u", block, (uint32_t)SpvDecorationBlock);
      CVOID(spvgen_member_decorate1, (CM, block, 0, SpvDecorationOffset, 0), ", %u, 0, %u, 0", block,
            (uint32_t)SpvDecorationOffset);
      uint32_t p[3] = {0, 0, 0};
      g->decode[c] = CID(P_FUNC, spvgen_decode_func_begin, (CM, t, block, 2, p), ", %u, %u, 2, params", t, block);
      uint32_t pp = CID(P_TYPE, spvgen_type_pointer, (CM, SpvStorageClassPhysicalStorageBuffer, t), ", %u, %u",
                        (uint32_t)SpvStorageClassPhysicalStorageBuffer, t);
      uint32_t zero = u32c(g, 0), align = c_width[c] / 8;
      uint32_t ep = CID(P_VALUE, spvgen_access_chain, (CM, pp, p[0], &zero, 1), ", %u, %u, %s, 1", pp, p[0],
                        carr(&zero, 1));
      uint32_t x = CID(P_VALUE, spvgen_op_load, (CM, t, ep, SpvMemoryAccessAlignedMask, &align, 1),
                       ", %u, %u, %u, %s, 1", t, ep, (uint32_t)SpvMemoryAccessAlignedMask, carr(&align, 1));
      CVOID(spvgen_return_value, (CM, x), ", %u", x);
      CVOID(spvgen_function_end, (CM), "%s", "");
    }
  }
}

static void define_callbacks_after_main(cg *g) {
  for (uint32_t i = 0; i < g->nlater && cg_ok(g); i++) {
    const cg_later *l = &g->later[i];
    uint32_t t = comp_type(g, l->c), p[4] = {0, 0, 0, 0};
    if (l->kind == 0) {
      uint32_t pt[2] = {t, t};
      CID(P_FUNC, spvgen_function_begin_id, (CM, l->id, t, SpvFunctionControlMaskNone, pt, 2, p),
          ", %u, %u, 0, %s, 2, params", l->id, t, carr(pt, 2));
      return_component(g, l->c, p[0], p[1]);
    } else {
      uint32_t u32 = comp_type(g, C_U32);
      uint32_t pt[4] = {u32, u32, t, l->extra}, n = l->extra ? 4 : 3;
      CID(P_FUNC, spvgen_function_begin_id, (CM, l->id, t, SpvFunctionControlMaskNone, pt, n, p),
          ", %u, %u, 0, %s, %u, params", l->id, t, carr(pt, n), n);
      return_component(g, l->c, p[2], l->extra == t ? p[3] : 0);
    }
  }
}

/* ==================================================================== runs ==== */

static void cg_step(cg *g) {
  switch (below(g->r, 20)) {
  case 0: case 1: mat_load(g, rand_mat(g)); break;
  case 2: mat_store(g); break;
  case 3: case 4: mat_muladd(g); break;
  case 5: case 6: mat_elementwise(g); break;
  case 7: mat_convert(g); break;
  case 8: mat_reduce(g); break;
  case 9: mat_per_element(g); break;
  case 10: {
    uint32_t dim = 1 + below(g->r, 5);
    if (chance(g->r, 50)) tensor_layout(g, dim);
    else tensor_view(g, dim);
    break;
  }
  case 11: tensor_load_store(g); break;
  case 12: vec_store(g); break;
  case 13: case 14: vec_ops(g); break;
  case 15: case 16: vec_matmul(g); break;
  case 17: vec_training(g); break;
  case 18: coop_queries(g); break;
  default: { /* the next step inside an if, a loop or a new block: its values stay there */
    uint32_t mark = g->nvals, x = below(g->r, 3);
    if (x == 0) {
      uint32_t c = CID(P_CONST, spvgen_const_bool, (CM, true), "%s", ", true");
      CVOID(spvgen_if, (CM, c), ", %u", c);
    } else if (x == 1) {
      CVOID(spvgen_loop, (CM, SpvLoopControlMaskNone), "%s", ", 0");
    } else {
      uint32_t l = CID(P_LABEL, spvgen_label, (CM), "%s", "");
      CVOID(spvgen_op_branch, (CM, l), ", %u", l);
      CID(P_LABEL, spvgen_block, (CM, l), ", %u", l);
      return;
    }
    cg_step(g);
    if (x == 0) CVOID(spvgen_end_if, (CM), "%s", "");
    else {
      CVOID(spvgen_break, (CM), "%s", "");
      CVOID(spvgen_end_loop, (CM), "%s", "");
    }
    g->nvals = mark;
    break;
  }
  }
}

static cg *cg_begin(fz *z, const spvgen_module_desc *d) {
  cg *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->z = z;
  g->m = z->m;
  g->r = &z->r;
  g->version = d->version ? d->version : SPVGEN_VERSION(1, 6);
  g->vulkan_mm = d->memory_model != SpvMemoryModelGLSL450;
  g->psb = d->addressing == SpvAddressingModelPhysicalStorageBuffer64;
  g->next_spec = below(g->r, 3);
  g->allow_exotic = chance(g->r, 20);
  define_callbacks_before_main(g);
  static const char *const names[] = {"main", "gemm", "mlp"};
  const char *name = names[below(g->r, 3)];
  uint32_t x = 32 * (1 + below(g->r, 4));
  CID(P_FUNC, spvgen_compute_main, (CM, name, x, 1, 1), ", %s, %u, 1, 1", cstr(name), x);
  g->in_main = true;
  return g;
}

static void cg_end(cg *g) {
  CVOID(spvgen_function_end, (CM), "%s", "");
  g->in_main = false;
  define_callbacks_after_main(g);
}

static spvgen_module_desc coop_desc(fz_rng *r) {
  spvgen_module_desc d;
  memset(&d, 0, sizeof d);
  if (chance(r, 30)) d.version = SPVGEN_VERSION(1, below(r, 7));
  if (chance(r, 25)) d.memory_model = SpvMemoryModelGLSL450;
  if (chance(r, 15)) d.addressing = SpvAddressingModelPhysicalStorageBuffer64;
  return d;
}

static void coop_valid_body(fz *z) {
  spvgen_module_desc d = coop_desc(&z->r);
  trace_create(&d);
  z->m = spvgen_module_create(&d);
  if (!z->m) {
    FZ_CHECK(z, false, "spvgen_module_create returned NULL");
    return;
  }
  fz_after(z, "spvgen_module_create", 0, 0);
  cg *g = cg_begin(z, &d);
  if (!g) return;
  uint32_t steps = 20 + below(&z->r, 100);
  for (uint32_t i = 0; i < steps && cg_ok(g); i++) cg_step(g);
  cg_end(g);
  FZ_CHECK(z, !z->errored, "the builder rejected a valid call (%s): %s", spvgen_status_name(z->first_status),
           z->first_msg);
  const uint32_t *w = NULL;
  size_t count = 0;
  if (!z->stop && fz_finish(z, &w, &count)) {
    check_whole_instructions(z, w, count);
    /* SPIRV-Tools 2025.1 knows neither SPV_KHR_bfloat16 nor SPV_EXT_float8: modules with
     * those types cannot be validated (nor disassembled) here. */
    if (!g->exotic) expect_valid(z, w, count);
  }
  free(g);
  spvgen_module_destroy(z->m);
  z->m = NULL;
}

static void test_valid_cooperative_sequences_build_modules_that_validate(void) {
  for_each_sequence("coop valid", 900, coop_valid_body);
}

/* ========================================================= anything goes ==== */

static uint32_t any_interp(fz *z) {
  static const uint32_t v[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1000491000, 1000491001, 1000491002,
                               1000491003, 1000491004, 0xFFFFFFFFu, 0x80000000u};
  return v[below(&z->r, sizeof v / sizeof v[0])];
}

static spvgen_memory_operands any_mem(fz *z) {
  spvgen_memory_operands m;
  static const uint32_t masks[] = {0, 1, 2, 4, 8, 16, 32, 0x18, 0x28, 0x22, 0x1A, 0x40, 0x80000000u, 0xFFFFFFFFu};
  m.mask = masks[below(&z->r, sizeof masks / sizeof masks[0])];
  m.alignment = any_lit(z);
  m.scope = (SpvScope)(chance(&z->r, 70) ? below(&z->r, 6) : any_lit(z));
  return m;
}

/* One random call of the cooperative API. */
static void coop_chaos_step(fz *z) {
  spvgen_module *m = z->m;
  fz_rng *r = &z->r;
  uint32_t arr[ARR_MAX + 8], n = 0, arr2[16];
  const uint32_t *a;
  spvgen_memory_operands mem = any_mem(z);
  const spvgen_memory_operands *mp = chance(r, 30) ? NULL : &mem;
  spvgen_tensor_operands tens = {chance(r, 50) ? 0 : any_id(z, P_VALUE), chance(r, 70) ? 0 : any_id(z, P_FUNC)};
  const spvgen_tensor_operands *tp = chance(r, 30) ? NULL : &tens;
  char tbuf[80];
  snprintf(tbuf, sizeof tbuf, tp ? "&(spvgen_tensor_operands){%u, %u}" : "NULL", tens.tensor_view, tens.decode_func);
  uint32_t t = any_id(z, P_TYPE), v = any_id(z, P_VALUE), p = any_id(z, P_PTR);
  switch (below(r, 44)) {
  case 0: FZ_ID(z, P_TYPE, spvgen_type_bfloat16, (m), "%s", ""); break;
  case 1: FZ_ID(z, P_TYPE, spvgen_type_float_e4m3, (m), "%s", ""); break;
  case 2: FZ_ID(z, P_TYPE, spvgen_type_float_e5m2, (m), "%s", ""); break;
  case 3: {
    uint32_t i = any_interp(z);
    FZ_ID(z, P_TYPE, spvgen_type_for_interpretation, (m, (SpvComponentType)i), ", %u", i);
    trace("/* interpretation name/size of %u */", i);
    (void)spvgen_interpretation_name((SpvComponentType)i);
    (void)spvgen_interpretation_size((SpvComponentType)i);
    break;
  }
  case 4: case 5: {
    uint32_t scope = chance(r, 70) ? below(r, 6) : any_lit(z), rows = chance(r, 70) ? dims[below(r, 3)] : any_lit(z),
             cols = chance(r, 70) ? dims[below(r, 3)] : any_lit(z), use = chance(r, 80) ? below(r, 4) : any_lit(z);
    FZ_ID(z, P_TYPE, spvgen_type_coopmat, (m, t, (SpvScope)scope, rows, cols, (SpvCooperativeMatrixUse)use),
          ", %u, %u, %u, %u, %u", t, scope, rows, cols, use);
    break;
  }
  case 6: {
    uint32_t s = any_id(z, P_CONST), rr = any_id(z, P_CONST), cc = any_id(z, P_CONST), u = any_id(z, P_CONST);
    FZ_ID(z, P_TYPE, spvgen_type_coopmat_id, (m, t, s, rr, cc, u), ", %u, %u, %u, %u, %u", t, s, rr, cc, u);
    break;
  }
  case 7: {
    spvgen_coop_type_info info;
    bool want = chance(r, 80);
    trace("spvgen_coop_type_query(m, %u, %s);", t, want ? "&info" : "NULL");
    (void)spvgen_coop_type_query(m, t, want ? &info : NULL);
    fz_after(z, "spvgen_coop_type_query", 0, 0);
    break;
  }
  case 8: case 9: {
    uint32_t layout = chance(r, 70) ? below(r, 3) : chance(r, 50) ? 4202 + below(r, 2) : any_lit(z);
    uint32_t stride = chance(r, 20) ? 0 : any_id(z, P_CONST);
    if (chance(r, 50))
      FZ_ID(z, P_VALUE, spvgen_coopmat_load_stride_id, (m, t, p, (SpvCooperativeMatrixLayout)layout, stride, mp),
            ", %u, %u, %u, %u, %s", t, p, layout, stride, cmem(mp));
    else
      FZ_VOID(z, spvgen_coopmat_store_stride_id, (m, p, v, (SpvCooperativeMatrixLayout)layout, stride, mp),
              ", %u, %u, %u, %u, %s", p, v, layout, stride, cmem(mp));
    break;
  }
  case 10: {
    uint32_t l = any_id(z, P_CONST), stride = chance(r, 20) ? 0 : any_id(z, P_CONST);
    if (chance(r, 50))
      FZ_ID(z, P_VALUE, spvgen_coopmat_load_id, (m, t, p, l, stride, mp), ", %u, %u, %u, %u, %s", t, p, l, stride,
            cmem(mp));
    else
      FZ_VOID(z, spvgen_coopmat_store_id, (m, p, v, l, stride, mp), ", %u, %u, %u, %u, %s", p, v, l, stride, cmem(mp));
    break;
  }
  case 11: case 12: {
    uint32_t b = any_id(z, P_VALUE), c = any_id(z, P_VALUE), rt = chance(r, 50) ? 0 : t;
    uint32_t ops = chance(r, 60) ? (chance(r, 50) ? SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES : below(r, 32)) : any_lit(z);
    FZ_ID(z, P_VALUE, spvgen_coopmat_muladd, (m, rt, v, b, c, ops), ", %u, %u, %u, %u, 0x%x", rt, v, b, c, ops);
    break;
  }
  case 13: FZ_ID(z, P_VALUE, spvgen_coopmat_length, (m, t), ", %u", t); break;
  case 14: {
    uint32_t s = any_id(z, P_VALUE);
    FZ_ID(z, P_VALUE, spvgen_coop_splat, (m, t, s), ", %u, %u", t, s);
    break;
  }
  case 15:
    a = any_array(z, arr, &n, P_VALUE);
    FZ_ID(z, P_VALUE, spvgen_coop_construct, (m, t, a, n), ", %u, %s, %u", t, carr(a, n), n);
    break;
  case 16: {
    uint32_t i = chance(r, 70) ? below(r, 70) : any_lit(z), s = any_id(z, P_VALUE);
    if (chance(r, 50)) FZ_ID(z, P_VALUE, spvgen_coop_extract, (m, v, i), ", %u, %u", v, i);
    else FZ_ID(z, P_VALUE, spvgen_coop_insert, (m, v, s, i), ", %u, %u, %u", v, s, i);
    break;
  }
  case 17: {
    uint32_t op = chance(r, 70) ? 126 + below(r, 70) : any_lit(z), b = any_id(z, P_VALUE);
    FZ_ID(z, P_VALUE, spvgen_coop_arith, (m, (SpvOp)op, v, b), ", %u, %u, %u", op, v, b);
    break;
  }
  case 18: {
    uint32_t s = any_id(z, P_VALUE);
    switch (below(r, 3)) {
    case 0: FZ_ID(z, P_VALUE, spvgen_coop_negate, (m, v), ", %u", v); break;
    case 1: FZ_ID(z, P_VALUE, spvgen_coop_not, (m, v), ", %u", v); break;
    default: FZ_ID(z, P_VALUE, spvgen_coop_scale, (m, v, s), ", %u, %u", v, s); break;
    }
    break;
  }
  case 19: FZ_ID(z, P_VALUE, spvgen_coop_convert, (m, t, v), ", %u, %u", t, v); break;
  case 20: {
    uint32_t dim = chance(r, 70) ? below(r, 7) : any_lit(z), clamp = chance(r, 70) ? below(r, 6) : any_lit(z);
    if (chance(r, 50))
      FZ_ID(z, P_TYPE, spvgen_type_tensor_layout, (m, dim, (SpvTensorClampMode)clamp), ", %u, %u", dim, clamp);
    else {
      uint32_t di = any_id(z, P_CONST), ci = any_id(z, P_CONST);
      FZ_ID(z, P_TYPE, spvgen_type_tensor_layout_id, (m, di, ci), ", %u, %u", di, ci);
    }
    break;
  }
  case 21: {
    uint32_t dim = chance(r, 70) ? below(r, 7) : any_lit(z);
    for (uint32_t i = 0; i < 5; i++) arr2[i] = chance(r, 80) ? below(r, 6) : any_lit(z);
    bool perm = chance(r, 70), has = chance(r, 50);
    /* permutation holds 5 values: with a larger dimension the call must fail before it
     * reads more (it checks dim first) */
    FZ_ID(z, P_TYPE, spvgen_type_tensor_view, (m, dim, has, perm ? arr2 : NULL), ", %u, %d, %s", dim, has,
          carr(perm ? arr2 : NULL, dim < 5 ? dim : 5));
    break;
  }
  case 22: {
    uint32_t d = any_id(z, P_CONST), h = any_id(z, P_CONST);
    a = any_array(z, arr, &n, P_CONST);
    FZ_ID(z, P_TYPE, spvgen_type_tensor_view_id, (m, d, h, a, n), ", %u, %u, %s, %u", d, h, carr(a, n), n);
    break;
  }
  case 23:
    if (chance(r, 50)) FZ_ID(z, P_VALUE, spvgen_tensor_layout_create, (m, t), ", %u", t);
    else FZ_ID(z, P_VALUE, spvgen_tensor_view_create, (m, t), ", %u", t);
    break;
  case 24: case 25: {
    a = any_array(z, arr, &n, P_CONST);
    if (a && n > 16) n = 16;
    switch (below(r, 6)) {
    case 0: FZ_ID(z, P_VALUE, spvgen_tensor_layout_set_dimension, (m, v, a, n), ", %u, %s, %u", v, carr(a, n), n); break;
    case 1: FZ_ID(z, P_VALUE, spvgen_tensor_layout_set_stride, (m, v, a, n), ", %u, %s, %u", v, carr(a, n), n); break;
    case 2: FZ_ID(z, P_VALUE, spvgen_tensor_layout_set_block_size, (m, v, a, n), ", %u, %s, %u", v, carr(a, n), n); break;
    case 3: FZ_ID(z, P_VALUE, spvgen_tensor_view_set_dimension, (m, v, a, n), ", %u, %s, %u", v, carr(a, n), n); break;
    case 4: FZ_ID(z, P_VALUE, spvgen_tensor_view_set_stride, (m, v, a, n), ", %u, %s, %u", v, carr(a, n), n); break;
    default: {
      const uint32_t *b = chance(r, 90) ? a : NULL;
      FZ_ID(z, P_VALUE, spvgen_tensor_layout_slice, (m, v, a, b, n), ", %u, %s, %s, %u", v, carr(a, n), carr(b, n), n);
      break;
    }
    }
    break;
  }
  case 26: {
    uint32_t c = any_id(z, P_CONST);
    if (chance(r, 50)) FZ_ID(z, P_VALUE, spvgen_tensor_layout_set_clamp_value, (m, v, c), ", %u, %u", v, c);
    else {
      uint32_t c2 = any_id(z, P_CONST);
      FZ_ID(z, P_VALUE, spvgen_tensor_view_set_clip, (m, v, c, c, c2, c), ", %u, %u, %u, %u, %u", v, c, c, c2, c);
    }
    break;
  }
  case 27: case 28: {
    uint32_t layout = any_id(z, P_VALUE), obj = chance(r, 50) ? 0 : any_id(z, P_VALUE);
    if (chance(r, 50))
      FZ_ID(z, P_VALUE, spvgen_coopmat_load_tensor, (m, t, p, obj, layout, mp, tp), ", %u, %u, %u, %u, %s, %s", t, p, obj,
            layout, cmem(mp), tbuf);
    else
      FZ_VOID(z, spvgen_coopmat_store_tensor, (m, p, v, layout, mp, tp), ", %u, %u, %u, %s, %s", p, v, layout, cmem(mp),
              tbuf);
    break;
  }
  case 29: {
    uint32_t mode = chance(r, 70) ? below(r, 9) : any_lit(z), f = any_id(z, chance(r, 50) ? P_FUNC : P_RESERVED);
    FZ_ID(z, P_VALUE, spvgen_coopmat_reduce, (m, t, v, mode, f), ", %u, %u, %u, %u", t, v, mode, f);
    break;
  }
  case 30: {
    uint32_t f = any_id(z, chance(r, 50) ? P_FUNC : P_RESERVED);
    a = any_array(z, arr, &n, P_VALUE);
    FZ_ID(z, P_VALUE, spvgen_coopmat_per_element, (m, v, f, a, n), ", %u, %u, %s, %u", v, f, carr(a, n), n);
    break;
  }
  case 31:
    if (chance(r, 50)) FZ_ID(z, P_VALUE, spvgen_coopmat_convert_use, (m, t, v), ", %u, %u", t, v);
    else FZ_ID(z, P_VALUE, spvgen_coopmat_transpose, (m, t, v), ", %u, %u", t, v);
    break;
  case 32: {
    uint32_t dim = chance(r, 70) ? below(r, 7) : any_lit(z), pointee = any_id(z, P_TYPE);
    a = any_array(z, arr, &n, P_TYPE);
    if (a && n > 20) n = 20;
    switch (below(r, 3)) {
    case 0: FZ_ID(z, P_TYPE, spvgen_type_combine_func, (m, t), ", %u", t); break;
    case 1: FZ_ID(z, P_TYPE, spvgen_type_per_element_func, (m, t, a, n), ", %u, %s, %u", t, carr(a, n), n); break;
    default: FZ_ID(z, P_TYPE, spvgen_type_decode_func, (m, t, pointee, dim), ", %u, %u, %u", t, pointee, dim); break;
    }
    break;
  }
  case 33: {
    uint32_t dim = chance(r, 70) ? below(r, 7) : any_lit(z), pointee = any_id(z, P_TYPE), params[3 + 20];
    bool want = chance(r, 70);
    a = any_array(z, arr, &n, P_TYPE);
    if (a && n > 20) n = 20;
    switch (below(r, 3)) {
    case 0:
      FZ_ID(z, P_FUNC, spvgen_combine_func_begin, (m, t, want ? params : NULL), ", %u, %s", t, want ? "params" : "NULL");
      break;
    case 1:
      FZ_ID(z, P_FUNC, spvgen_per_element_func_begin, (m, t, a, n, want ? params : NULL), ", %u, %s, %u, %s", t, carr(a, n), n,
            want ? "params" : "NULL");
      break;
    default:
      FZ_ID(z, P_FUNC, spvgen_decode_func_begin, (m, t, pointee, dim, want ? params : NULL), ", %u, %u, %u, %s", t, pointee,
            dim, want ? "params" : "NULL");
      break;
    }
    break;
  }
  case 34: {
    uint32_t c = chance(r, 70) ? below(r, 70) : any_lit(z);
    if (chance(r, 50)) FZ_ID(z, P_TYPE, spvgen_type_coopvec, (m, t, c), ", %u, %u", t, c);
    else {
      uint32_t ci = any_id(z, P_CONST);
      FZ_ID(z, P_TYPE, spvgen_type_coopvec_id, (m, t, ci), ", %u, %u", t, ci);
    }
    break;
  }
  case 35: {
    uint32_t off = chance(r, 30) ? 0 : any_id(z, P_CONST);
    if (chance(r, 50))
      FZ_ID(z, P_VALUE, spvgen_coopvec_load, (m, t, p, off, mp), ", %u, %u, %u, %s", t, p, off, cmem(mp));
    else
      FZ_VOID(z, spvgen_coopvec_store, (m, p, v, off, mp), ", %u, %u, %u, %s", p, v, off, cmem(mp));
    break;
  }
  case 36: case 37: {
    spvgen_coopvec_matmul_desc d;
    memset(&d, 0, sizeof d);
    d.result_type = t;
    d.input = v;
    d.matrix = p;
    d.input_interpretation = (SpvComponentType)any_interp(z);
    d.matrix_interpretation = (SpvComponentType)any_interp(z);
    d.bias_interpretation = (SpvComponentType)any_interp(z);
    if (chance(r, 50)) d.bias = any_id(z, P_PTR);
    if (chance(r, 30)) d.matrix_offset = any_id(z, P_CONST);
    if (chance(r, 30)) d.bias_offset = any_id(z, P_CONST);
    if (chance(r, 30)) d.m = any_lit(z);
    if (chance(r, 30)) d.k = any_lit(z);
    d.layout = (SpvCooperativeVectorMatrixLayout)(chance(r, 80) ? below(r, 5) : any_lit(z));
    d.transpose = chance(r, 30);
    if (chance(r, 30)) d.matrix_stride = any_lit(z);
    if (chance(r, 20)) d.operands = any_lit(z);
    if (chance(r, 15)) d.m_id = any_id(z, P_CONST);
    if (chance(r, 15)) d.k_id = any_id(z, P_CONST);
    if (chance(r, 15)) d.layout_id = any_id(z, P_CONST);
    if (chance(r, 15)) d.transpose_id = any_id(z, P_CONST);
    if (chance(r, 15)) d.matrix_stride_id = any_id(z, P_VALUE);
    if (chance(r, 15)) d.input_interpretation_id = any_id(z, P_CONST);
    if (chance(r, 15)) d.matrix_interpretation_id = any_id(z, P_CONST);
    if (chance(r, 15)) d.bias_interpretation_id = any_id(z, P_CONST);
    bool null_desc = chance(r, 5);
    if (chance(r, 50))
      FZ_ID(z, P_VALUE, spvgen_coopvec_matmul, (m, null_desc ? NULL : &d), ", %s", null_desc ? "NULL" : cdesc(&d));
    else
      FZ_ID(z, P_VALUE, spvgen_coopvec_matmul_add, (m, null_desc ? NULL : &d), ", %s", null_desc ? "NULL" : cdesc(&d));
    break;
  }
  case 38: {
    spvgen_coopvec_outer_product_desc d;
    memset(&d, 0, sizeof d);
    d.pointer = p;
    d.a = v;
    d.b = any_id(z, P_VALUE);
    if (chance(r, 30)) d.offset = any_id(z, P_CONST);
    d.layout = (SpvCooperativeVectorMatrixLayout)(chance(r, 80) ? below(r, 5) : any_lit(z));
    d.matrix_interpretation = (SpvComponentType)any_interp(z);
    if (chance(r, 30)) d.matrix_stride = any_lit(z);
    if (chance(r, 15)) d.layout_id = any_id(z, P_CONST);
    if (chance(r, 15)) d.matrix_interpretation_id = any_id(z, P_CONST);
    if (chance(r, 15)) d.matrix_stride_id = any_id(z, P_VALUE);
    bool null_desc = chance(r, 5);
    char dbuf[400];
    snprintf(dbuf, sizeof dbuf,
             "&(spvgen_coopvec_outer_product_desc){.pointer = %u, .offset = %u, .a = %u, .b = %u, .layout = %u, "
             ".matrix_interpretation = %u, .matrix_stride = %u, .layout_id = %u, .matrix_interpretation_id = %u, "
             ".matrix_stride_id = %u}",
             d.pointer, d.offset, d.a, d.b, (uint32_t)d.layout, (uint32_t)d.matrix_interpretation, d.matrix_stride,
             d.layout_id, d.matrix_interpretation_id, d.matrix_stride_id);
    FZ_VOID(z, spvgen_coopvec_outer_product_accumulate, (m, null_desc ? NULL : &d), ", %s", null_desc ? "NULL" : dbuf);
    break;
  }
  case 39: {
    uint32_t off = chance(r, 30) ? 0 : any_id(z, P_CONST);
    FZ_VOID(z, spvgen_coopvec_reduce_sum_accumulate, (m, p, v, off), ", %u, %u, %u", p, v, off);
    break;
  }
  case 40: case 41: {
    uint32_t b = any_id(z, P_VALUE), c = any_id(z, P_VALUE);
    switch (below(r, 9)) {
    case 0: FZ_ID(z, P_VALUE, spvgen_coopvec_fma, (m, v, b, c), ", %u, %u, %u", v, b, c); break;
    case 1: FZ_ID(z, P_VALUE, spvgen_coopvec_exp, (m, v), ", %u", v); break;
    case 2: FZ_ID(z, P_VALUE, spvgen_coopvec_log, (m, v), ", %u", v); break;
    case 3: FZ_ID(z, P_VALUE, spvgen_coopvec_tanh, (m, v), ", %u", v); break;
    case 4: FZ_ID(z, P_VALUE, spvgen_coopvec_atan, (m, v), ", %u", v); break;
    case 5: FZ_ID(z, P_VALUE, spvgen_coopvec_min, (m, v, b), ", %u, %u", v, b); break;
    case 6: FZ_ID(z, P_VALUE, spvgen_coopvec_max, (m, v, b), ", %u, %u", v, b); break;
    case 7: FZ_ID(z, P_VALUE, spvgen_coopvec_clamp, (m, v, b, c), ", %u, %u, %u", v, b, c); break;
    default: FZ_ID(z, P_VALUE, spvgen_coopvec_step, (m, v, b), ", %u, %u", v, b); break;
    }
    break;
  }
  default: /* a query on a random id */
    fz_queries(z, any_id(z, (int)below(r, P_COUNT)));
    break;
  }
}

static void coop_chaos_body(fz *z) {
  spvgen_module_desc d = chance(&z->r, 85) ? coop_desc(&z->r) : any_desc(z);
  trace_create(&d);
  z->m = spvgen_module_create(&d);
  if (!z->m) {
    FZ_CHECK(z, false, "spvgen_module_create returned NULL");
    return;
  }
  fz_after(z, "spvgen_module_create", 0, 0);
  uint32_t steps = 40 + below(&z->r, 161);
  cg *g = NULL;
  /* Most sequences start with valid cooperative code, so that the random calls find
   * matrices, vectors, tensors and callbacks to misuse. */
  if (chance(&z->r, 75)) {
    g = cg_begin(z, &d);
    uint32_t prefix = below(&z->r, 30);
    for (uint32_t i = 0; g && i < prefix && cg_ok(g); i++) cg_step(g);
  }
  for (uint32_t i = 0; i < steps && !z->stop; i++) {
    uint32_t x = below(&z->r, 100);
    if (x < 55) coop_chaos_step(z);
    else if (x < 75) chaos_step(z);
    else if (x < 77) null_call(z, below(&z->r, NULL_CALLS));
    else if (x < 82) vg_run(z, &d, 1, false); /* a valid builder call */
    else if (g) cg_step(g);
    else coop_chaos_step(z);
  }
  const uint32_t *w = NULL;
  size_t count = 0;
  if (!z->stop && fz_finish(z, &w, &count)) check_whole_instructions(z, w, count);
  free(g);
  trace("spvgen_module_destroy(m);");
  spvgen_module_destroy(z->m);
  z->m = NULL;
}

static void test_random_cooperative_calls_never_crash_and_keep_the_first_error(void) {
  for_each_sequence("coop anything-goes", 4500, coop_chaos_body);
}

/* ====================================================== regressions found ==== */

/* spvgen_coop_arith documents OpUDiv for integer matrices and vectors, but OpUDiv needs
 * an unsigned result type (SPIR-V OpUDiv: "whose Signedness operand is 0"): with signed
 * components the call must fail with a named error, or build something valid. (Found by
 * the valid sequences.) */
static void test_coop_arith_never_builds_udiv_of_signed_components(void) {
  for (int vector = 0; vector < 2; vector++) {
    spvgen_module *m = spvgen_module_create(NULL);
    uint32_t s32 = spvgen_type_int(m, 32, true);
    spvgen_compute_main(m, "main", 32, 1, 1);
    uint32_t t = vector ? spvgen_type_coopvec(m, s32, 8)
                        : spvgen_type_coopmat(m, s32, SpvScopeSubgroup, 16, 16,
                                              SpvCooperativeMatrixUseMatrixAccumulatorKHR);
    uint32_t a = spvgen_coop_splat(m, t, spvgen_const_i32(m, 7));
    uint32_t q = spvgen_coop_arith(m, SpvOpUDiv, a, a);
    if (spvgen_module_status(m) == SPVGEN_OK) {
      CHECK(q != 0);
      spvgen_function_end(m);
      check_module(m, NULL);
    } else {
      CHECK_CONTAINS(spvgen_module_error(m), "spvgen_coop_arith: ");
    }
    spvgen_module_destroy(m);
  }
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_valid_cooperative_sequences_build_modules_that_validate),
      TEST_CASE(test_coop_arith_never_builds_udiv_of_signed_components),
      TEST_CASE(test_random_cooperative_calls_never_crash_and_keep_the_first_error),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
