/* emitters/gemm/gemm.c — the GEMM template's contract (spvgen/gemm.h): desc checks and
 * defaults, variant choice through the table of variants, candidate enumeration, emit
 * into the caller's module, and the one-shot spvgen_gemm. The kernels themselves are in
 * coopmat2.c, coopmat_khr.c and simt.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h" /* lib/core: the one error formatter */
#include "gemm_internal.h"
#include "spvgen/kernel.h"

static const gemm_variant_ops *const variants[SPVGEN_GEMM_VARIANT_COUNT] = {
    NULL, /* AUTO */
    &gemm_variant_coopmat2,
    &gemm_variant_khr,
    &gemm_variant_simt,
};

static const char *const variant_names[SPVGEN_GEMM_VARIANT_COUNT] = {"auto", "coopmat2", "khr",
                                                                     "simt"};
static const char *const activation_names[SPVGEN_ACTIVATION_COUNT] = {"none", "relu", "gelu",
                                                                      "silu"};

const char *spvgen_gemm_variant_name(spvgen_gemm_variant v) {
  return (unsigned)v < SPVGEN_GEMM_VARIANT_COUNT ? variant_names[v] : NULL;
}

bool spvgen_gemm_variant_parse(const char *name, spvgen_gemm_variant *out) {
  int i = ek_name_index(variant_names, SPVGEN_GEMM_VARIANT_COUNT, name);
  if (i >= 0 && out) *out = (spvgen_gemm_variant)i;
  return i >= 0;
}

const char *spvgen_activation_name(spvgen_activation a) {
  return (unsigned)a < SPVGEN_ACTIVATION_COUNT ? activation_names[a] : NULL;
}

bool spvgen_activation_parse(const char *name, spvgen_activation *out) {
  int i = ek_name_index(activation_names, SPVGEN_ACTIVATION_COUNT, name);
  if (i >= 0 && out) *out = (spvgen_activation)i;
  return i >= 0;
}

static const char *const edge_names[SPVGEN_GEMM_EDGE_COUNT] = {"auto", "branch", "clamp", "shift"};

const char *spvgen_gemm_edge_name(spvgen_gemm_edge e) {
  return (unsigned)e < SPVGEN_GEMM_EDGE_COUNT ? edge_names[e] : NULL;
}

bool spvgen_gemm_edge_parse(const char *name, spvgen_gemm_edge *out) {
  int i = ek_name_index(edge_names, SPVGEN_GEMM_EDGE_COUNT, name);
  if (i >= 0 && out) *out = (spvgen_gemm_edge)i;
  return i >= 0;
}

spvgen_status gemm_fail(char *msg, size_t size, spvgen_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(msg, size, st, "spvgen_gemm_plan", fmt, ap);
  va_end(ap);
  return st;
}

void gemm_set_grid(spvgen_gemm_config *p) {
  p->groups[0] = gemm_ceil_div(p->desc.n, p->desc.tile_n);
  p->groups[1] = gemm_ceil_div(p->desc.m, p->desc.tile_m);
  p->groups[2] = p->desc.batch;
}

void gemm_plan_name(spvgen_gemm_config *p, const char *extra) {
  const spvgen_gemm_desc *d = &p->desc;
  /* "%s %s->%s%s %ux%ux%u w%u%s%s": variant, A[,B] type, acc type, ->out type, tile,
   * invocations, extra (component type names are short: no piece truncates alone). */
  ek_str s = ek_str_start(p->name, sizeof p->name);
  ek_str_put(&s, variant_names[p->variant]);
  ek_str_put(&s, " ");
  ek_str_put(&s, spvgen_component_type_name(d->a_type));
  if (d->a_type != d->b_type) {
    ek_str_put(&s, ",");
    ek_str_put(&s, spvgen_component_type_name(d->b_type));
  }
  ek_str_put(&s, "->");
  ek_str_put(&s, spvgen_component_type_name(d->acc_type));
  if (d->out_type != d->acc_type) {
    ek_str_put(&s, "->");
    ek_str_put(&s, spvgen_component_type_name(d->out_type));
  }
  ek_str_put(&s, " ");
  ek_str_u32(&s, d->tile_m);
  ek_str_put(&s, "x");
  ek_str_u32(&s, d->tile_n);
  ek_str_put(&s, "x");
  ek_str_u32(&s, d->tile_k);
  ek_str_put(&s, " w");
  ek_str_u32(&s, p->local_size[0] * p->local_size[1] * p->local_size[2]);
  if (extra) {
    ek_str_put(&s, " ");
    ek_str_put(&s, extra);
  }
}

uint64_t gemm_type_features(const spvgen_gemm_desc *d) {
  uint64_t f = 0;
  spvgen_component_type ts[4] = {d->a_type, d->b_type, d->acc_type, d->out_type};
  for (int i = 0; i < 4; i++) {
    switch (ts[i]) {
    case SPVGEN_COMPONENT_F16:
      f |= SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT;
      break;
    case SPVGEN_COMPONENT_S8:
    case SPVGEN_COMPONENT_U8:
      f |= SPVGEN_FEATURE_INT8 | SPVGEN_FEATURE_STORAGE_BUFFER_8BIT;
      break;
    case SPVGEN_COMPONENT_BF16: f |= SPVGEN_FEATURE_BFLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT; break;
    case SPVGEN_COMPONENT_E4M3:
    case SPVGEN_COMPONENT_E5M2: f |= SPVGEN_FEATURE_FLOAT8 | SPVGEN_FEATURE_STORAGE_BUFFER_8BIT; break;
    default: break;
    }
  }
  return f;
}

uint32_t gemm_batch_offset(spvgen_module *m, const spvgen_gemm_desc *d, uint32_t z, uint64_t stride) {
  if (d->batch <= 1) return 0;
  return ek_mul(m, z, ek_u32(m, (uint32_t)stride));
}

/* ------------------------------------------------------------ desc checks ---- */

static bool input_type_ok(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_BF16 || t == SPVGEN_COMPONENT_S8 ||
         t == SPVGEN_COMPONENT_U8 || t == SPVGEN_COMPONENT_E4M3 || t == SPVGEN_COMPONENT_E5M2 ||
         t == SPVGEN_COMPONENT_F32;
}

static bool out_type_ok(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_F32 || t == SPVGEN_COMPONENT_BF16 ||
         t == SPVGEN_COMPONENT_S32 || t == SPVGEN_COMPONENT_S8 || t == SPVGEN_COMPONENT_U8 ||
         t == SPVGEN_COMPONENT_U32;
}

static const char *tname(spvgen_component_type t) { return spvgen_component_type_name(t); }

/* Leading dimension and batch stride defaults and checks for one operand of rows x cols. */
static spvgen_status resolve_operand(const char *name, spvgen_matrix_layout layout, uint32_t rows,
                                     uint32_t cols, uint32_t batch, uint32_t *ld, uint64_t *stride,
                                     char *msg, size_t size) {
  if ((unsigned)layout > SPVGEN_COL_MAJOR)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "%s_layout %d is not row- (0) or column-major (1)",
                     name, (int)layout);
  uint32_t inner = layout == SPVGEN_ROW_MAJOR ? cols : rows;
  uint32_t outer = layout == SPVGEN_ROW_MAJOR ? rows : cols;
  if (!*ld) *ld = inner;
  if (*ld < inner)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "ld%s %u is less than the %s length %u of the %s-major %ux%u %s", name, *ld,
                     layout == SPVGEN_ROW_MAJOR ? "row" : "column", inner,
                     layout == SPVGEN_ROW_MAJOR ? "row" : "column", rows, cols, name);
  uint64_t tight = (uint64_t)*ld * outer;
  if (!*stride) *stride = tight;
  if (batch > 1 && *stride < tight)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "stride_%s %llu is less than one %s (%llu elements): batches would overlap",
                     name, (unsigned long long)*stride, name, (unsigned long long)tight);
  /* The last element any batch reaches must have a 32-bit index. (A stride past it
   * alone is refused first: (batch - 1) * stride wrapped 64 bits for strides near 2^63
   * and let such descs through.) */
  if (batch > 1 && *stride > SPVGEN_GEMM_MAX_INDEX)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "stride_%s %llu: %s reaches past element 2^32 - 1; indices past 2^32 - 1 are "
                     "not supported (split the batch or the matrix)",
                     name, (unsigned long long)*stride, name);
  uint64_t last = (uint64_t)(batch - 1) * *stride + (uint64_t)(outer - 1) * *ld + (inner - 1);
  if (last > SPVGEN_GEMM_MAX_INDEX)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "%s reaches element %llu: indices past 2^32 - 1 are not supported (split "
                     "the batch or the matrix)", name, (unsigned long long)last);
  return SPVGEN_OK;
}

/* Checks and resolves everything but the knobs; the variant stays as given. */
static spvgen_status resolve_desc(const spvgen_gemm_desc *in, spvgen_gemm_desc *d, char *msg,
                                  size_t size) {
  if (!in) return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "desc is NULL");
  *d = *in;
  if (!d->m || !d->n || !d->k)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "m, n and k must be at least 1 (got m=%u n=%u k=%u)", d->m, d->n, d->k);
  if (d->m > SPVGEN_GEMM_MAX_DIM || d->n > SPVGEN_GEMM_MAX_DIM || d->k > SPVGEN_GEMM_MAX_DIM)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "m=%u n=%u k=%u: each dimension must be at most 2^24", d->m, d->n, d->k);
  if (!d->batch) d->batch = 1;
  if (d->batch > SPVGEN_GEMM_MAX_BATCH)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "batch %u is over 65535 (one workgroup row per batch)",
                     d->batch);
  if (!input_type_ok(d->a_type))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "a_type %s is not a GEMM input type (f16, bf16, s8, u8, e4m3, e5m2, f32)", tname(d->a_type));
  if (!input_type_ok(d->b_type))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "b_type %s is not a GEMM input type (f16, bf16, s8, u8, e4m3, e5m2, f32)", tname(d->b_type));
  bool a_int = !ek_is_float(d->a_type), b_int = !ek_is_float(d->b_type);
  if (a_int != b_int)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "a_type %s and b_type %s: one is an integer type and the other a float type",
                     tname(d->a_type), tname(d->b_type));
  if (a_int && d->acc_type != SPVGEN_COMPONENT_S32)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "acc_type %s with %s inputs: integer inputs accumulate in s32", tname(d->acc_type),
                     tname(d->a_type));
  if (!a_int && d->acc_type != SPVGEN_COMPONENT_F16 && d->acc_type != SPVGEN_COMPONENT_F32)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "acc_type %s with %s inputs: float inputs accumulate in f16 or f32", tname(d->acc_type),
                     tname(d->a_type));
  if (!out_type_ok(d->out_type))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "out_type %s is not a GEMM output type (f16, f32, bf16, s32, s8, u8, u32)", tname(d->out_type));
  if (!isfinite(d->alpha) || !isfinite(d->beta))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "alpha and beta must be finite");
  if (d->alpha == 0.0f) d->alpha = 1.0f;
  if ((unsigned)d->bias > SPVGEN_GEMM_BIAS_COLUMN)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "bias %d is not none (0), row (1) or column (2)",
                     (int)d->bias);
  if ((unsigned)d->activation >= SPVGEN_ACTIVATION_COUNT)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "activation %d is unknown", (int)d->activation);
  if (a_int && !ek_is_float(d->out_type)) {
    if (d->alpha != 1.0f || d->beta != 0.0f)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "alpha and beta with integer output %s: the integer epilogue takes bias and relu "
                       "only (choose a float out_type to scale)", tname(d->out_type));
    if (d->activation != SPVGEN_ACTIVATION_NONE && d->activation != SPVGEN_ACTIVATION_RELU)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "activation %s with integer output %s: only relu is integer", spvgen_activation_name(d->activation),
                       tname(d->out_type));
  }
  if ((unsigned)d->variant >= SPVGEN_GEMM_VARIANT_COUNT)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "variant %d is unknown", (int)d->variant);
  if (!d->split_k) d->split_k = 1;
  if (d->split_k > gemm_ceil_div(d->k, 4))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "split_k %u is over ceil(k / 4) = %u: every K slice needs a K step of its own "
                     "(tile_k is at least 4)", d->split_k, gemm_ceil_div(d->k, 4));
  if (d->stages > 2)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "stages %u: 1 or 2 shared-memory stages", d->stages);
  if (d->unroll > 16)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "unroll %u is over 16", d->unroll);
  if ((unsigned)d->edge >= SPVGEN_GEMM_EDGE_COUNT)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "edge %d is not auto (0), branch (1), clamp (2) or shift (3)",
                     (int)d->edge);
  spvgen_status st;
  if ((st = resolve_operand("a", d->a_layout, d->m, d->k, d->batch, &d->lda, &d->stride_a, msg, size)) ||
      (st = resolve_operand("b", d->b_layout, d->k, d->n, d->batch, &d->ldb, &d->stride_b, msg, size)) ||
      (st = resolve_operand("d", d->d_layout, d->m, d->n, d->batch, &d->ldd, &d->stride_d, msg, size)))
    return st;
  if (d->beta != 0.0f) {
    if ((st = resolve_operand("c", d->c_layout, d->m, d->n, d->batch, &d->ldc, &d->stride_c, msg, size)))
      return st;
  } else {
    d->c_layout = SPVGEN_ROW_MAJOR;
    d->ldc = 0;
    d->stride_c = 0;
  }
  return SPVGEN_OK;
}

/* The features the element types need that the device lacks, as an error. */
static spvgen_status check_type_features(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                         char *msg, size_t size) {
  struct { const char *field; spvgen_component_type t; } ts[4] = {
      {"a_type", d->a_type}, {"b_type", d->b_type}, {"acc_type", d->acc_type}, {"out_type", d->out_type}};
  for (int i = 0; i < 4; i++) {
    spvgen_gemm_desc one;
    memset(&one, 0, sizeof one);
    one.a_type = one.b_type = one.acc_type = one.out_type = ts[i].t;
    uint64_t need = gemm_type_features(&one);
    if (ts[i].t == SPVGEN_COMPONENT_F32 || ts[i].t == SPVGEN_COMPONENT_S32 || ts[i].t == SPVGEN_COMPONENT_U32)
      need = 0;
    uint64_t missing = need & ~caps->features;
    if (missing)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "%s %s needs %s, which %s lacks", ts[i].field,
                       tname(ts[i].t), spvgen_feature_name(spvgen_feature_first(missing)), caps->name);
  }
  return SPVGEN_OK;
}

static const spvgen_device_caps *default_caps(const spvgen_device_caps *caps, spvgen_device_caps *tmp) {
  if (caps) return caps;
  spvgen_caps_preset("vulkan13", tmp);
  return tmp;
}

/* A plan for a resolved desc with a concrete variant. */
static spvgen_status plan_variant(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                  spvgen_gemm_variant v, spvgen_gemm_config *p, char *msg, size_t size) {
  memset(p, 0, sizeof *p);
  p->desc = *d;
  p->desc.variant = v;
  p->variant = v;
  if (v != SPVGEN_GEMM_COOPMAT2 && d->edge != SPVGEN_GEMM_EDGE_AUTO)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "edge %s: the %s variant checks bounds per element; only coopmat2 has an edge choice",
                     spvgen_gemm_edge_name(d->edge), variant_names[v]);
  if (d->split_k > 1 && v == SPVGEN_GEMM_COOPMAT_KHR)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "split_k %u: the khr variant does not split K (the simt and coopmat2 variants do; "
                     "or split_k 1)", d->split_k);
  spvgen_status st = variants[v]->plan(caps, p, msg, size);
  if (st == SPVGEN_OK && p->desc.split_k > 1) st = gemm_splitk_plan(caps, p, msg, size);
  if (st != SPVGEN_OK) return st;
  p->features |= gemm_type_features(&p->desc);
  uint64_t missing = p->features & ~caps->features;
  if (missing)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the %s variant needs %s, which %s lacks",
                     variant_names[v], spvgen_feature_name(spvgen_feature_first(missing)), caps->name);
  for (int i = 0; i < 3; i++)
    if (p->groups[i] > caps->max_workgroup_count[i] && caps->max_workgroup_count[i])
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "%u workgroups in dimension %d exceed %s's limit %u (a larger tile or fewer batches)",
                       p->groups[i], i, caps->name, caps->max_workgroup_count[i]);
  return SPVGEN_OK;
}

spvgen_status spvgen_gemm_plan(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                               spvgen_gemm_config *plan, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!plan) return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "plan is NULL");
  memset(plan, 0, sizeof *plan);
  spvgen_device_caps tmp;
  if (caps && spvgen_caps_check(caps, msg, size) != SPVGEN_OK) return SPVGEN_ERROR_INVALID_ARGUMENT;
  caps = default_caps(caps, &tmp);
  spvgen_gemm_desc d;
  spvgen_status st = resolve_desc(desc, &d, msg, size);
  if (st == SPVGEN_OK) st = check_type_features(caps, &d, msg, size);
  if (st != SPVGEN_OK) return st;
  if (d.variant != SPVGEN_GEMM_AUTO) return plan_variant(caps, &d, d.variant, plan, msg, size);
  /* AUTO: the first variant of the preference order that can do it; the last one's
   * reason when none can (SIMT's, which names what even the fallback lacks). The order
   * is measured on the H100 (bench/results/gemm-h100-2026-11-23.md, 4096^3 with a
   * sustained warm-up): coopmat2 first for every input width (f16->f16 377 against 291
   * TFLOP/s for KHR, f16->f32 322 against 295, s8 380 against 308 TOP/s). */
  static const spvgen_gemm_variant order[] = {SPVGEN_GEMM_COOPMAT2, SPVGEN_GEMM_COOPMAT_KHR, SPVGEN_GEMM_SIMT};
  for (int v = 0; v < 3; v++) {
    st = plan_variant(caps, &d, order[v], plan, msg, size);
    if (st == SPVGEN_OK) {
      if (msg && size) msg[0] = 0; /* an earlier variant's refusal is no message of a success */
      return st;
    }
  }
  memset(plan, 0, sizeof *plan);
  return st;
}

spvgen_status spvgen_gemm_plans(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                spvgen_gemm_config *plans, uint32_t max, uint32_t *count, char *msg,
                                size_t size) {
  if (msg && size) msg[0] = 0;
  if (count) *count = 0;
  if (!count || (max && !plans))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "count is NULL, or plans is NULL with max > 0");
  spvgen_device_caps tmp;
  if (caps && spvgen_caps_check(caps, msg, size) != SPVGEN_OK) return SPVGEN_ERROR_INVALID_ARGUMENT;
  caps = default_caps(caps, &tmp);
  spvgen_gemm_desc d;
  spvgen_status st = resolve_desc(desc, &d, msg, size);
  if (st == SPVGEN_OK) st = check_type_features(caps, &d, msg, size);
  if (st != SPVGEN_OK) return st;
  uint32_t n = 0;
  enum { MAX_CAND = 64 };
  spvgen_gemm_desc cand[MAX_CAND];
  for (int v = 1; v < SPVGEN_GEMM_VARIANT_COUNT; v++) {
    if (d.variant != SPVGEN_GEMM_AUTO && d.variant != (spvgen_gemm_variant)v) continue;
    uint32_t c = variants[v]->candidates(caps, &d, cand, MAX_CAND);
    for (uint32_t i = 0; i < c; i++) {
      spvgen_gemm_config p;
      if (plan_variant(caps, &cand[i], (spvgen_gemm_variant)v, &p, NULL, 0) != SPVGEN_OK) continue;
      if (n < max) plans[n] = p;
      n++;
    }
  }
  if (n == 0) {
    /* No candidate of the table fits the knobs the desc sets; the desc may still name a
     * plan of its own (a tile the table does not list): then that is the one candidate,
     * as spvgen_gemm_plan would give it, and otherwise its reason is the refusal. */
    spvgen_gemm_config p;
    st = spvgen_gemm_plan(desc, caps, &p, msg, size);
    if (st != SPVGEN_OK) return st;
    if (max) plans[0] = p;
    n = 1;
  }
  /* Split-K candidates last (the order above stays what it was): when the desc leaves
   * split_k to the plan, the coopmat2 and simt variants' default tiles split 2, 4, ...
   * ways for grids under two waves with long K (gemm_splitk_candidates). */
  for (int v = 1; v < SPVGEN_GEMM_VARIANT_COUNT && !desc->split_k; v++) {
    if (v == SPVGEN_GEMM_COOPMAT_KHR || (d.variant != SPVGEN_GEMM_AUTO && d.variant != (spvgen_gemm_variant)v))
      continue;
    spvgen_gemm_config base;
    if (plan_variant(caps, &d, (spvgen_gemm_variant)v, &base, NULL, 0) != SPVGEN_OK) continue;
    uint32_t c = gemm_splitk_candidates(&base, cand, MAX_CAND);
    for (uint32_t i = 0; i < c; i++) {
      spvgen_gemm_config p;
      if (plan_variant(caps, &cand[i], (spvgen_gemm_variant)v, &p, NULL, 0) != SPVGEN_OK) continue;
      if (n < max) plans[n] = p;
      n++;
    }
  }
  *count = n;
  return SPVGEN_OK;
}

spvgen_status spvgen_gemm_emit(spvgen_module *m, const spvgen_gemm_config *plan, spvgen_kernel_info *info) {
  if (!m) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!plan || plan->variant <= SPVGEN_GEMM_AUTO || plan->variant >= SPVGEN_GEMM_VARIANT_COUNT ||
      plan->desc.variant != plan->variant || !plan->local_size[0])
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_gemm_emit: plan is NULL or not made by spvgen_gemm_plan"),
           spvgen_module_status(m);
  variants[plan->variant]->emit(m, plan);
  if (info) {
    memset(info, 0, sizeof *info);
    info->entry_point = "main";
    for (int i = 0; i < 3; i++) {
      info->local_size[i] = plan->local_size[i];
      info->groups[i] = plan->groups[i];
    }
    info->required_subgroup_size = plan->subgroup_size;
  }
  return spvgen_module_status(m);
}

spvgen_status spvgen_gemm(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                          spvgen_kernel *kernel, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!kernel) return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "kernel is NULL");
  memset(kernel, 0, sizeof *kernel);
  spvgen_gemm_config plan;
  spvgen_status st = spvgen_gemm_plan(desc, caps, &plan, msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_module *m = spvgen_module_create(NULL);
  if (!m) return gemm_fail(msg, size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  spvgen_kernel_info info;
  st = spvgen_gemm_emit(m, &plan, &info);
  return ek_kernel_finish(m, st, &info, kernel, "spvgen_gemm", msg, size);
}
