/* emitters/gemm/gemm.c — the GEMM template's contract (spvgen/gemm.h): desc checks and
 * defaults, variant choice through the table of variants, candidate enumeration, emit
 * into the caller's module, and the one-shot spvgen_gemm. The kernels themselves are in
 * coopmat2.c, coopmat_khr.c and simt.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h" /* lib/core: the one error formatter */
#include "names.h"         /* lib/core: one table of names per enum */
#include "gemm_internal.h"
#include "spvgen/kernel.h"

static const gemm_variant_ops *const variants[SPVGEN_GEMM_VARIANT_COUNT] = {
    NULL, /* AUTO */
    &gemm_variant_coopmat2,
    &gemm_variant_khr,
    &gemm_variant_simt,
};

static const char *const variant_names[SPVGEN_GEMM_VARIANT_COUNT] = {"auto", "coopmat2", "khr", "simt"};
static const char *const edge_names[SPVGEN_GEMM_EDGE_COUNT] = {"auto", "branch", "clamp", "shift"};
static const char *const shapes_names[SPVGEN_GEMM_SHAPES_COUNT] = {"auto", "fixed", "runtime"};
static const char *const pack_names[SPVGEN_GEMM_PACK_COUNT] = {"auto", "none", "a", "b", "ab"};
static const char *const pack_order_names[SPVGEN_GEMM_PACK_ORDER_COUNT] = {"auto", "same", "k"};

SG_NAMES(spvgen_gemm_variant, variant_names, NULL, spvgen_gemm_variant_name, spvgen_gemm_variant_parse)
SG_NAMES(spvgen_gemm_shapes, shapes_names, NULL, spvgen_gemm_shapes_name, spvgen_gemm_shapes_parse)
SG_NAMES(spvgen_gemm_edge, edge_names, NULL, spvgen_gemm_edge_name, spvgen_gemm_edge_parse)
SG_NAMES(spvgen_gemm_pack, pack_names, NULL, spvgen_gemm_pack_name, spvgen_gemm_pack_parse)
SG_NAMES(spvgen_gemm_pack_order, pack_order_names, NULL, spvgen_gemm_pack_order_name, spvgen_gemm_pack_order_parse)

/* gemm_fail for another entry point (fn: its name in the message). */
static spvgen_status gemm_fail_fn(const char *fn, char *msg, size_t size, spvgen_status st, const char *fmt, ...)
    SG_PRINTF(5, 6);
static spvgen_status gemm_fail_fn(const char *fn, char *msg, size_t size, spvgen_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(msg, size, st, fn, fmt, ap);
  va_end(ap);
  return st;
}

spvgen_status gemm_fail(char *msg, size_t size, spvgen_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(msg, size, st, "spvgen_gemm_plan", fmt, ap);
  va_end(ap);
  return st;
}

/* " cg:" and the codegen alternatives by their bench spec letters. */
static void put_codegen(ek_str *s, uint32_t c) {
  static const struct { uint32_t bit; const char *letter; } letters[] = {
      {SPVGEN_GEMM_CODEGEN_OPEN_K_LOOP, "o"},    {SPVGEN_GEMM_CODEGEN_CONST_DIMS, "d"},
      {SPVGEN_GEMM_CODEGEN_CHECK_ALL, "c"},      {SPVGEN_GEMM_CODEGEN_MASKED_K_EDGE, "m"},
      {SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL, "u"}, {SPVGEN_GEMM_CODEGEN_SPLIT_ALL, "s"},
      {SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL, "n"}, {SPVGEN_GEMM_CODEGEN_FOLD_M, "f"},
  };
  ek_str_put(s, " cg:");
  for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
    if (c & letters[i].bit) ek_str_put(s, letters[i].letter);
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
  if (gemm_runtime(d) && d->k_fixed) { /* a class of one K */
    ek_str_put(&s, " K=");
    ek_str_u32(&s, d->k);
  }
  if (d->codegen) put_codegen(&s, d->codegen);
}

bool spvgen_gemm_plan_quick(const spvgen_gemm_config *plan, spvgen_gemm_config *quick) {
  if (!quick) return false;
  if (!plan) return false;
  *quick = *plan;
  uint32_t add = 0;
  if (plan->variant == SPVGEN_GEMM_COOPMAT2)
    add = SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL | SPVGEN_GEMM_CODEGEN_REST_NO_UNROLL;
  else if (plan->variant == SPVGEN_GEMM_COOPMAT_KHR)
    add = SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL;
  if (!add || (plan->desc.codegen & add) == add) return false;
  quick->desc.codegen |= add;
  /* The name's "cg:" letters, rebuilt in place: the pieces after them (pack, split-K)
   * stay where the planner put them. */
  char tail[sizeof quick->name] = "", head[sizeof quick->name];
  snprintf(head, sizeof head, "%s", plan->name);
  char *cg = strstr(head, " cg:");
  char *rest = cg ? strchr(cg + 1, ' ') : NULL;
  if (!cg) { /* before " pack" or " sk" where the name has them, else at its end */
    char *pk = strstr(head, " pack "), *sk = strstr(head, " sk");
    cg = pk && (!sk || pk < sk) ? pk : sk;
    rest = cg;
  }
  if (rest) snprintf(tail, sizeof tail, "%s", rest);
  if (cg) *cg = 0;
  spvgen_gemm_config tmp = *quick;
  tmp.name[0] = 0;
  ek_str s = ek_str_start(tmp.name, sizeof tmp.name);
  ek_str_put(&s, head);
  put_codegen(&s, quick->desc.codegen);
  ek_str_put(&s, tail);
  memcpy(quick->name, tmp.name, sizeof quick->name);
  /* the estimate as the planner makes it: a packed plan's from its main kernel's inner
   * desc (the copies' layouts and K), the pack kernel's on top */
  spvgen_gemm_config est = *quick;
  gemm_pack_inner(&quick->desc, &est.desc);
  quick->compile_ms = gemm_compile_ms(&est);
  return true;
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

uint32_t gemm_batch_offset(spvgen_module *m, const spvgen_gemm_desc *d, const ek_gemm_shape *sh, uint32_t z,
                           uint32_t stride, ek_buffer *buf) {
  if (!sh->runtime && d->batch <= 1) return 0;
  if (d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS) {
    if (buf) ek_buffer_rebase(m, buf, ek_batch_bytes64(m, z, stride, spvgen_type_size(m, buf->elem_type)));
    return 0;
  }
  return ek_imul(m, z, stride);
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
/* Whether an operand's batches reach the kernel through 32-bit element indices: always
 * with descriptors; with device addresses only in a coopmat2 kernel whose batches do not
 * all start 16-byte aligned (a 3-D tensor layout; the tensor instructions' pointer must be
 * a multiple of 16 bytes). Otherwise the batch moves the pointer in 64 bits and only one
 * batch's elements are indexed (gemm_batch_offset). d: the plan's desc (variant known);
 * NULL: not known yet. */
static bool batch_index_32(const spvgen_gemm_desc *d, spvgen_component_type t, uint64_t stride) {
  if (!d || d->addressing != SPVGEN_ADDRESSING_DEVICE_ADDRESS) return true;
  if (d->variant != SPVGEN_GEMM_COOPMAT2) return false;
  uint64_t esize = spvgen_component_type_size(t);
  if (d->shapes == SPVGEN_GEMM_SHAPES_RUNTIME) return (d->ld_multiple ? d->ld_multiple : 1) * esize % 16 != 0;
  return d->batch > 1 && stride * esize % 16 != 0;
}

static spvgen_status resolve_operand_in(const char *fn, const char *name, spvgen_matrix_layout layout,
                                        uint32_t rows, uint32_t cols, uint32_t batch, uint32_t *ld,
                                        uint64_t *stride, const spvgen_gemm_desc *d, spvgen_component_type t,
                                        char *msg, size_t size) {
  if ((unsigned)layout > SPVGEN_COL_MAJOR)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "%s_layout %d is not row- (0) or column-major (1)",
                     name, (int)layout);
  uint32_t inner = layout == SPVGEN_ROW_MAJOR ? cols : rows;
  uint32_t outer = layout == SPVGEN_ROW_MAJOR ? rows : cols;
  if (!*ld) *ld = inner;
  if (*ld < inner)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "ld%s %u is less than the %s length %u of the %s-major %ux%u %s", name, *ld,
                     layout == SPVGEN_ROW_MAJOR ? "row" : "column", inner,
                     layout == SPVGEN_ROW_MAJOR ? "row" : "column", rows, cols, name);
  uint64_t tight = (uint64_t)*ld * outer;
  if (!*stride) *stride = tight;
  if (batch > 1 && *stride < tight)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "stride_%s %llu is less than one %s (%llu elements): batches would overlap",
                     name, (unsigned long long)*stride, name, (unsigned long long)tight);
  /* The last element any batch reaches must have a 32-bit index. (A stride past it
   * alone is refused first: (batch - 1) * stride wrapped 64 bits for strides near 2^63
   * and let such descs through.) */
  if (batch > 1 && *stride > SPVGEN_GEMM_MAX_INDEX)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "stride_%s %llu: %s reaches past element 2^32 - 1; indices past 2^32 - 1 are "
                     "not supported (split the batch or the matrix)",
                     name, (unsigned long long)*stride, name);
  /* (With device addresses one batch's elements are indexed from each workgroup's tile:
   * check_tiles, once the tile is known.) */
  uint64_t one = (uint64_t)(outer - 1) * *ld + (inner - 1);
  uint64_t last = (uint64_t)(batch - 1) * *stride + one;
  if (last > SPVGEN_GEMM_MAX_INDEX && batch_index_32(d, t, *stride))
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "%s reaches element %llu: indices past 2^32 - 1 are not supported (split "
                     "the batch or the matrix%s)", name, (unsigned long long)last,
                     d && d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS
                         ? "; or batch strides whose bytes are multiples of 16, which move the pointer instead"
                         : "; or addressing device-address, whose batches may start past 4 GB");
  return SPVGEN_OK;
}

static spvgen_status resolve_operand(const char *name, spvgen_matrix_layout layout, uint32_t rows, uint32_t cols,
                                     uint32_t batch, uint32_t *ld, uint64_t *stride, const spvgen_gemm_desc *d,
                                     spvgen_component_type t, char *msg, size_t size) {
  return resolve_operand_in("spvgen_gemm_plan", name, layout, rows, cols, batch, ld, stride, d, t, msg, size);
}

static spvgen_status resolve_common(spvgen_gemm_desc *d, char *msg, size_t size);
static spvgen_status resolve_runtime(spvgen_gemm_desc *d, char *msg, size_t size);

/* Checks and resolves everything but the knobs; the variant stays as given. */
static spvgen_status resolve_desc(const spvgen_gemm_desc *in, spvgen_gemm_desc *d, char *msg,
                                  size_t size) {
  if (!in) return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "desc is NULL");
  *d = *in;
  if ((unsigned)d->addressing >= SPVGEN_ADDRESSING_COUNT)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "addressing %d is not descriptors (0) or device-address (1)", (int)d->addressing);
  if ((unsigned)d->shapes >= SPVGEN_GEMM_SHAPES_COUNT)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "shapes %d is not auto (0), fixed (1) or runtime (2)",
                     (int)d->shapes);
  if (d->shapes == SPVGEN_GEMM_SHAPES_AUTO) {
    if (!d->m && !d->n && !d->k) d->shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
    else if (d->m && d->n && d->k) d->shapes = SPVGEN_GEMM_SHAPES_FIXED;
    else
      return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                       "m, n and k: set all three (a fixed shape) or none (run-time shapes; or shapes runtime "
                       "with m, n, k as the shape to plan for); got m=%u n=%u k=%u", d->m, d->n, d->k);
  }
  if (d->shapes == SPVGEN_GEMM_SHAPES_RUNTIME) return resolve_runtime(d, msg, size);
  if (!d->m || !d->n || !d->k)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "m, n and k must be at least 1 (got m=%u n=%u k=%u)", d->m, d->n, d->k);
  if (d->m_multiple || d->n_multiple || d->k_multiple || d->ld_multiple || d->k_fixed)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "m_multiple, n_multiple, k_multiple, ld_multiple and k_fixed describe run-time shapes; a "
                     "fixed shape has none (leave them 0, or shapes runtime)");
  if (d->m > SPVGEN_GEMM_MAX_DIM || d->n > SPVGEN_GEMM_MAX_DIM || d->k > SPVGEN_GEMM_MAX_DIM)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "m=%u n=%u k=%u: each dimension must be at most 2^24", d->m, d->n, d->k);
  spvgen_status st = resolve_common(d, msg, size);
  if (st != SPVGEN_OK) return st;
  if (d->split_k > gemm_ceil_div(d->k, 4))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "split_k %u is over ceil(k / 4) = %u: every K slice needs a K step of its own "
                     "(tile_k is at least 4)", d->split_k, gemm_ceil_div(d->k, 4));
  if ((st = resolve_operand("a", d->a_layout, d->m, d->k, d->batch, &d->lda, &d->stride_a, d, d->a_type, msg, size)) ||
      (st = resolve_operand("b", d->b_layout, d->k, d->n, d->batch, &d->ldb, &d->stride_b, d, d->b_type, msg, size)) ||
      (st = resolve_operand("d", d->d_layout, d->m, d->n, d->batch, &d->ldd, &d->stride_d, d, d->out_type, msg, size)))
    return st;
  if (d->beta != 0.0f) {
    if ((st = resolve_operand("c", d->c_layout, d->m, d->n, d->batch, &d->ldc, &d->stride_c, d, d->out_type, msg, size)))
      return st;
  } else {
    d->c_layout = SPVGEN_ROW_MAJOR;
    d->ldc = 0;
    d->stride_c = 0;
  }
  return SPVGEN_OK;
}

/* What FIXED and RUNTIME descs share: batch, types, epilogue and knob checks. */
static spvgen_status resolve_common(spvgen_gemm_desc *d, char *msg, size_t size) {
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
  if (!d->activation) d->activation = SPVGEN_ACTIVATION_NONE;
  if (!isfinite(d->leaky_slope))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "leaky_slope must be finite");
  /* the MLP's default slope; other activations ignore it, and 0 keeps their class one */
  if (d->activation != SPVGEN_ACTIVATION_LEAKY_RELU) d->leaky_slope = 0.0f;
  else if (d->leaky_slope == 0.0f) d->leaky_slope = 0.01f;
  if (!ek_is_float(d->out_type) && d->activation != SPVGEN_ACTIVATION_NONE && d->activation != SPVGEN_ACTIVATION_RELU &&
      d->activation != SPVGEN_ACTIVATION_GELU && d->activation != SPVGEN_ACTIVATION_SILU)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "activation %s with integer output %s: an integer output takes none or relu (choose a "
                     "float out_type)",
                     spvgen_activation_name(d->activation), tname(d->out_type));
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
  /* split_k 0 stays 0 until a variant has planned (coopmat2 may choose slices; then 1) */
  if (d->split_k > SPVGEN_GEMM_MAX_SPLIT_K)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "split_k %u is over %u (SPVGEN_GEMM_MAX_SPLIT_K)",
                     d->split_k, SPVGEN_GEMM_MAX_SPLIT_K);
  if (d->stages > 2)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "stages %u: 1 or 2 shared-memory stages", d->stages);
  if (d->unroll > 16)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "unroll %u is over 16", d->unroll);
  if ((unsigned)d->edge >= SPVGEN_GEMM_EDGE_COUNT)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "edge %d is not auto (0), branch (1), clamp (2) or shift (3)",
                     (int)d->edge);
  if (d->edge_unroll > 16)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "edge_unroll %u is over 16", d->edge_unroll);
  if ((unsigned)d->pack >= SPVGEN_GEMM_PACK_COUNT)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "pack %d is not auto (0), none (1), a (2), b (3) or ab (4)",
                     (int)d->pack);
  if (d->pack_units > GEMM_PACK_MAX_UNITS)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "pack_units %u is over %u (16-byte units per pack kernel invocation)", d->pack_units,
                     GEMM_PACK_MAX_UNITS);
  if ((unsigned)d->pack_order >= SPVGEN_GEMM_PACK_ORDER_COUNT)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "pack_order %d is not auto (0), same (1) or k (2)",
                     (int)d->pack_order);
  if (d->pack_order == SPVGEN_GEMM_PACK_ORDER_K && d->pack == SPVGEN_GEMM_PACK_NONE)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "pack_order k orders the copies of packed operands, and pack none makes none (pack a, b, ab or "
                     "auto)");
  if (d->pack_order == SPVGEN_GEMM_PACK_ORDER_K && spvgen_component_type_size(d->a_type) != 1)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "pack_order k: the transposing copy is for 8-bit inputs (s8, u8, e4m3, e5m2), and a_type is %s "
                     "(16-bit cooperative loads transpose at full speed: pack_order same or auto)",
                     spvgen_component_type_name(d->a_type));
  /* pack and pack_order AUTO stay AUTO here: each variant's plan decides (plan_variant) */
  if (d->codegen & ~(uint32_t)SPVGEN_GEMM_CODEGEN_ALL)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "codegen 0x%x has unknown bits (known: 0x%x)",
                     d->codegen, (unsigned)SPVGEN_GEMM_CODEGEN_ALL);
  if (d->compile_budget_ms > 600000)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "compile_budget_ms %u is over 600000 (10 minutes)",
                     d->compile_budget_ms);
  for (int i = 0; i < 4; i++) {
    if (i == 2 && d->beta == 0.0f) continue; /* no C operand: its layout is unused */
    static const char *const lay[4] = {"a_layout", "b_layout", "c_layout", "d_layout"};
    spvgen_matrix_layout l = i == 0 ? d->a_layout : i == 1 ? d->b_layout : i == 2 ? d->c_layout : d->d_layout;
    if ((unsigned)l > SPVGEN_COL_MAJOR)
      return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "%s %d is not row- (0) or column-major (1)", lay[i],
                       (int)l);
  }
  return SPVGEN_OK;
}

/* A RUNTIME desc: m, n, k and batch are the shape to plan for (0: unknown), the class
 * fields default to 1, leading dimensions and strides are run-time values (cleared),
 * alpha 0 or 1 means no scaling and beta != 0 a C operand. */
static spvgen_status resolve_runtime(spvgen_gemm_desc *d, char *msg, size_t size) {
  if (d->m > SPVGEN_GEMM_MAX_DIM || d->n > SPVGEN_GEMM_MAX_DIM || d->k > SPVGEN_GEMM_MAX_DIM)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "m=%u n=%u k=%u: each dimension must be at most 2^24", d->m, d->n, d->k);
  struct { const char *name; uint32_t *v; } cls[4] = {
      {"m_multiple", &d->m_multiple}, {"n_multiple", &d->n_multiple}, {"k_multiple", &d->k_multiple},
      {"ld_multiple", &d->ld_multiple}};
  for (int i = 0; i < 4; i++) {
    if (!*cls[i].v) *cls[i].v = 1;
    if (*cls[i].v > SPVGEN_GEMM_MAX_DIM)
      return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "%s %u is over 2^24", cls[i].name, *cls[i].v);
  }
  if (d->lda || d->ldb || d->ldc || d->ldd || d->stride_a || d->stride_b || d->stride_c || d->stride_d)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "lda/ldb/ldc/ldd and stride_*: run-time shapes take them per call (spvgen_gemm_args); "
                     "the class promises ld_multiple");
  if (d->k_fixed) { /* a class of one K: desc.k is it */
    d->k_fixed = 1;
    if (!d->k)
      return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                       "k_fixed: the class's one K is desc.k, which is 0 (set k, or leave k_fixed 0)");
    if (d->k % d->k_multiple)
      return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                       "k_fixed: k %u is not a multiple of the class's k_multiple %u", d->k, d->k_multiple);
    if (d->pack != SPVGEN_GEMM_PACK_AUTO && d->pack != SPVGEN_GEMM_PACK_NONE)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "k_fixed: a class of one K is not packed (pack %s; use auto or none)",
                       spvgen_gemm_pack_name(d->pack));
  }
  spvgen_status st = resolve_common(d, msg, size);
  if (st != SPVGEN_OK) return st;
  if (d->beta == 0.0f) d->c_layout = SPVGEN_ROW_MAJOR;
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

/* How much faster khr's estimate must be to take a fixed shape from coopmat2 (AUTO). 1.08
 * since khr's tile rate was refitted (plan_cost.c, khr_tile_rate: 128x256 from 0.92 to
 * 0.84): 3008^3 on khr 128x256x32 ran 1.14x coopmat2's 64x64x64 (H200, call S22-5), whose
 * estimates now differ by 1.088x; no trace or set row moves between 1.1 and 1.08
 * (tools/plan_diff.py, h100 caps). */
#define KHR_OVER_CM2_MARGIN 1.08

/* Whether a RUNTIME coopmat2 plan (its knobs in `planned`) should move its edge tiles
 * inside: the caller left the edge mode to the plan, gave the M it plans for (and N, where
 * tiles cross N) and both are at least a tile of the run-time menu (128 rows), beta is 0,
 * and tiles do cross M or N. */
static bool shift_for_hint(const spvgen_gemm_desc *d, const spvgen_gemm_desc *planned) {
  bool m_edge = !gemm_dim_multiple(planned, 'm', planned->tile_m), n_edge = !gemm_dim_multiple(planned, 'n', planned->tile_n);
  if (d->edge != SPVGEN_GEMM_EDGE_AUTO || d->beta != 0.0f || planned->edge == SPVGEN_GEMM_EDGE_SHIFT) return false;
  /* the small-M tiles keep one kernel for every M up to their height (no shift) */
  if ((!m_edge && !n_edge) || planned->tile_m < 128) return false;
  return (!m_edge || (d->m && d->m >= planned->tile_m)) && (!n_edge || (d->n && d->n >= planned->tile_n));
}

/* A plan for a resolved desc with a concrete variant. */
/* Device addresses: bytes before the first pointer (spvgen_gemm_push in a run-time
 * kernel), and the buffers (A, B, D, C, bias). */
static uint32_t gemm_address_base(const spvgen_gemm_desc *d) {
  return gemm_runtime(d) ? (uint32_t)sizeof(spvgen_gemm_push) : 0u;
}
/* The buffers kernel `which` declares (gemm_kernel_buffers): their count. */
static uint32_t gemm_buffer_count(const spvgen_gemm_desc *d, spvgen_gemm_kernel which) {
  uint32_t list[8];
  return gemm_kernel_buffers(d, which, list);
}

/* Device addresses: every workgroup moves A, B, C and D to its tile (A to its first row,
 * B to its first column, C and D to its first element; 64-bit arithmetic, once) and
 * indexes from there in 32-bit signed arithmetic (SPIR-V's access-chain indices are
 * signed). The farthest element a tile reaches is (outer - 1) * ld + inner - 1 for the
 * rows x cols it spans (outer: rows of a row-major operand, columns of a column-major
 * one), plus the up to 15 elements by which coopmat2 aligns its moved pointer down to 16
 * bytes; it must stay at most SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS. A tile spans all of
 * K, so an operand whose outer dimension is K (A column-major, B row-major) reaches
 * (K - 1) * ld (split-K's slices too: they index K from the same tile origin). Split-K's
 * reduction reaches at most 3 ld of C and D from each invocation's element, within what
 * the tile's check allows. tr, tc: the rows and columns a tile spans. */
static spvgen_status check_tile_reach(const char *fn, const char *name, spvgen_matrix_layout layout, uint32_t ld,
                                      uint32_t tr, uint32_t tc, bool k_rows, bool k_cols, char *msg, size_t size) {
  const bool row = layout == SPVGEN_ROW_MAJOR;
  const uint32_t outer = row ? tr : tc, inner = row ? tc : tr;
  const uint64_t reach = (uint64_t)(outer - 1) * ld + (inner - 1) + 15u;
  if (reach <= SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS) return SPVGEN_OK;
  const bool k_outer = row ? k_rows : k_cols;
  return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "%s reaches element %llu of one workgroup's tile (%u %s of ld%s %u, %s-major): with device "
                      "addresses a workgroup indexes from its tile's first element in 32-bit signed arithmetic "
                      "(at most 2^31 - 1, SPVGEN_GEMM_MAX_INDEX_DEVICE_ADDRESS; %s)",
                      name, (unsigned long long)(reach - 15u), outer, row ? "rows" : "columns", name, ld,
                      row ? "row" : "column",
                      k_outer ? "the other layout spans only the tile's rows or columns of ld"
                              : "a smaller ld or tile");
}

/* check_tile_reach for every operand of a planned desc (tiles chosen) and a shape. */
static spvgen_status check_tiles(const char *fn, const spvgen_gemm_desc *d, uint32_t m, uint32_t n, uint32_t k,
                                 uint32_t lda, uint32_t ldb, uint32_t ldc, uint32_t ldd, char *msg, size_t size) {
  if (d->addressing != SPVGEN_ADDRESSING_DEVICE_ADDRESS) return SPVGEN_OK;
  const uint32_t tm = d->tile_m < m ? d->tile_m : m, tn = d->tile_n < n ? d->tile_n : n;
  spvgen_status st;
  if ((st = check_tile_reach(fn, "a", d->a_layout, lda, tm, k, false, true, msg, size)) ||
      (st = check_tile_reach(fn, "b", d->b_layout, ldb, k, tn, true, false, msg, size)) ||
      (st = check_tile_reach(fn, "d", d->d_layout, ldd, tm, tn, false, false, msg, size)))
    return st;
  if (d->beta != 0.0f) return check_tile_reach(fn, "c", d->c_layout, ldc, tm, tn, false, false, msg, size);
  return SPVGEN_OK;
}

static spvgen_status plan_variant_base(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                       spvgen_gemm_variant v, spvgen_gemm_config *p, char *msg, size_t size);

/* The copies' order a packed plan of variant v takes for d: the desc's, or for AUTO K
 * where 8-bit inputs meet the coopmat2 variant's cooperative loads, which are slow for an
 * 8-bit operand that is not K-contiguous (docs/design-notes.md, "Transposed copies of
 * 8-bit operands"); the simt variant reads elements and has no such cost. */
static spvgen_gemm_pack_order pack_order_of(const spvgen_gemm_desc *d, spvgen_gemm_variant v) {
  if (d->pack_order != SPVGEN_GEMM_PACK_ORDER_AUTO) return d->pack_order;
  return v == SPVGEN_GEMM_COOPMAT2 && spvgen_component_type_size(d->a_type) == 1 ? SPVGEN_GEMM_PACK_ORDER_K
                                                                                  : SPVGEN_GEMM_PACK_ORDER_SAME;
}

/* A packed plan (spvgen/gemm.h, "Packed operands"): the variant's tiles for the desc as
 * given, then the plan of the inner desc (the copies' leading dimensions, K padded: the
 * aligned class) with those tiles, its shape fields back as the caller gave them. With
 * both operands packed and the edge left to the plan, coopmat2's loads never clamp (the
 * copies hold whole tiles), so an edge tile differs from an interior one only in D's store
 * and C's load: the plan takes the clamped edge mode, one path whose only clamped
 * operations are those. (The branch mode, asked for, puts the branch around the epilogue
 * alone, cm2_store_only_branch: a little faster at run time, but its two stores compile
 * much longer: docs/design-notes.md, "192-wide tiles, packed odd shapes".) */
static spvgen_status plan_packed(const spvgen_device_caps *caps, const spvgen_gemm_desc *given,
                                 spvgen_gemm_variant v, spvgen_gemm_config *p, char *msg, size_t size) {
  spvgen_gemm_desc dd = *given;
  dd.pack_order = pack_order_of(given, v);
  /* K where it transposes something; else the copies are as SAME makes them (one kernel,
   * one class key) */
  if (!gemm_pack_transposes(&dd, 'a') && !gemm_pack_transposes(&dd, 'b')) dd.pack_order = SPVGEN_GEMM_PACK_ORDER_SAME;
  const spvgen_gemm_desc *d = &dd;
  if (v != SPVGEN_GEMM_COOPMAT2 && v != SPVGEN_GEMM_SIMT)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "pack %s: the %s variant reads its operands in place (the coopmat2 and simt variants read "
                     "packed copies; or pack none)", spvgen_gemm_pack_name(d->pack), variant_names[v]);
  if (d->stages == 2)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "pack %s with stages 2: the kernel's own staging reads A and B in place (stages 1, or pack "
                     "none)", spvgen_gemm_pack_name(d->pack));
  /* the tiles: those of the class the copies make (K whole 256-element steps with both
   * packed, the packed operands' rows tight, so 16-byte aligned), for the real M and N
   * (edges, waves) */
  spvgen_gemm_desc first = *d;
  first.pack = SPVGEN_GEMM_PACK_NONE;
  first.pack_order = SPVGEN_GEMM_PACK_ORDER_SAME;
  first.a_layout = gemm_pack_copy_layout(d, 'a'); /* transposed copies: the nt kernel's tiles */
  first.b_layout = gemm_pack_copy_layout(d, 'b');
  const bool pa = gemm_packs(d, 'a'), pb = gemm_packs(d, 'b');
  if (!gemm_runtime(d)) {
    /* (split-K: the real K, so that the tile's K steps are checked against the slices as
     * the copies will hold them; whole 256s let a 64-deep tile pass at K 33, whose copy
     * is one step of 64 for two slices) */
    if (pa && pb && d->split_k <= 1) first.k = (d->k + 255u) & ~255u;
    if (pa || first.k != d->k) first.lda = 0, first.stride_a = 0;
    if (pb || first.k != d->k) first.ldb = 0, first.stride_b = 0;
  } else if (pa && pb && first.k_multiple < 256) {
    first.k_multiple = 256;
  }
  const bool clamp_d = v == SPVGEN_GEMM_COOPMAT2 && pa && pb && d->edge == SPVGEN_GEMM_EDGE_AUTO &&
                       d->split_k <= 1;
  if (clamp_d) {
    /* the tiles ranked by what the packed kernel costs: no clamped loads, only D's store
     * clamped (gemm_compile_ms reads pack for it) */
    first.pack = SPVGEN_GEMM_PACK_AB;
    first.edge = SPVGEN_GEMM_EDGE_CLAMP;
    /* the tile's budget: the pack kernel the estimate now counts on top, and a tenth
     * more, so that the tiles the main kernel's estimate alone chose before stay within
     * it (4097x4095x4093's 128x256x32: docs/design-notes.md, "192-wide tiles, packed odd
     * shapes") */
    if (!first.compile_budget_ms) first.compile_budget_ms = (gemm_budget_ms(d) + GEMM_PACK_KERNEL_MS) * 11u / 10u;
  }
  spvgen_gemm_config q;
  spvgen_status st = plan_variant_base(caps, &first, v, &q, msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_gemm_desc outer = *d, inner;
  outer.variant = v; /* the copies' layout depends on it (pack.c, k_pad_of) */
  outer.tile_m = q.desc.tile_m;
  outer.tile_n = q.desc.tile_n;
  outer.tile_k = q.desc.tile_k;
  /* and its workgroup: left at 0, the inner plan would try the tile over every table
   * entry's workgroup, each at that entry's efficiency (32x32x64 over 256 invocations
   * rated as 128x256x64, where it ran 0.70x the unpacked 32x32x64 over 64: mistral
   * 556 x 1024 x 4096 f16, H200, call S22-2) */
  outer.workgroup_size = q.desc.workgroup_size;
  if (!outer.stages) outer.stages = 1;
  if (clamp_d) outer.edge = SPVGEN_GEMM_EDGE_CLAMP; /* one path; D's store (and C's load) clamped */
  gemm_pack_inner(&outer, &inner);
  if ((st = plan_variant_base(caps, &inner, v, p, msg, size)) != SPVGEN_OK) return st;
  p->desc.k = d->k;
  p->desc.a_layout = d->a_layout; /* the inner desc's are the copies' */
  p->desc.b_layout = d->b_layout;
  p->desc.lda = d->lda;
  p->desc.ldb = d->ldb;
  p->desc.stride_a = d->stride_a;
  p->desc.stride_b = d->stride_b;
  p->desc.k_multiple = d->k_multiple;
  return gemm_pack_plan(p, msg, size); /* compile_ms: the inner plan's, the pack kernel's included */
}

/* Whether pack AUTO packs both operands for variant v: coopmat2, where A or B cannot be
 * read 16 bytes at a time (a leading dimension, batch stride or contiguous extent off
 * 16 bytes: the khr variant gathers such an operand element by element, coopmat2 clamps
 * its tensor loads and its K edge), with M and N (for a run-time class: the shape it is
 * planned for) of at least 256. The copy then costs less than the clamped main loop it
 * removes; where both operands are aligned it only adds the copy, and where only K ends
 * inside a tile it did not pay either (docs/design-notes.md, "Measurements behind source
 * comments"). */
static bool pack_auto_pays(const spvgen_gemm_desc *d, spvgen_gemm_variant v) {
  if (v != SPVGEN_GEMM_COOPMAT2 || d->stages == 2 || d->m < 256 || d->n < 256) return false;
  return !gemm_operand_16b(d, true) || !gemm_operand_16b(d, false);
}

/* What pack AUTO packs for variant v: AB where pack_auto_pays; with the copies' order K
 * (pack_order_of: 8-bit inputs on coopmat2, or K asked for on a variant that packs) also
 * every operand that is not K-contiguous, at any shape and alignment: the transposed copy
 * costs a memory-bound pass, the shuffled 8-bit loads 1.3-3.5x of the main loop and ~2.4x
 * of its compile per operand (docs/design-notes.md, "Transposed copies of 8-bit
 * operands"); else none. */
static spvgen_gemm_pack pack_auto_of(const spvgen_gemm_desc *d, spvgen_gemm_variant v) {
  if (d->k_fixed) return SPVGEN_GEMM_PACK_NONE; /* a class of one K is not packed (resolve_runtime) */
  if (pack_auto_pays(d, v)) return SPVGEN_GEMM_PACK_AB;
  if ((v != SPVGEN_GEMM_COOPMAT2 && v != SPVGEN_GEMM_SIMT) || d->stages == 2 ||
      pack_order_of(d, v) != SPVGEN_GEMM_PACK_ORDER_K)
    return SPVGEN_GEMM_PACK_NONE;
  const bool ta = !gemm_k_contiguous(d, 'a'), tb = !gemm_k_contiguous(d, 'b');
  return ta && tb ? SPVGEN_GEMM_PACK_AB : ta ? SPVGEN_GEMM_PACK_A : tb ? SPVGEN_GEMM_PACK_B : SPVGEN_GEMM_PACK_NONE;
}

static spvgen_status plan_long_k(const spvgen_device_caps *caps, const spvgen_gemm_desc *d, spvgen_gemm_variant v,
                                 uint32_t k, uint32_t s_min, bool whole, spvgen_gemm_config *p, char *msg,
                                 size_t size);

/* A packed plan must be estimated this much faster than the aligned one it replaces (the
 * estimates' resolution). */
#define ALIGNED_PACK_MARGIN 0.9

/* Whether pack AUTO also tries both operands packed where they can be read in place
 * (pack_auto_pays is false): coopmat2, a FIXED 16-bit shape of M, N >= 256, unsplit and
 * not self-staged, whose aligned plan p has tiles crossing M or N. */
static bool aligned_pack_may_pay(const spvgen_gemm_desc *d, spvgen_gemm_variant v, const spvgen_gemm_config *p) {
  if (v != SPVGEN_GEMM_COOPMAT2 || gemm_runtime(d) || d->stages == 2 || d->split_k > 1 || d->m < 256 || d->n < 256)
    return false;
  if (spvgen_component_type_size(d->a_type) != 2 || p->desc.split_k > 1) return false;
  return !gemm_dim_multiple(&p->desc, 'm', p->desc.tile_m) || !gemm_dim_multiple(&p->desc, 'n', p->desc.tile_n);
}

/* A plan that copies nothing: its copies' order AUTO reads as SAME (one class key). */
static spvgen_status plan_unpacked(const spvgen_device_caps *caps, const spvgen_gemm_desc *d, spvgen_gemm_variant v,
                                   spvgen_gemm_config *p, char *msg, size_t size) {
  spvgen_gemm_desc q = *d;
  if (q.pack_order == SPVGEN_GEMM_PACK_ORDER_AUTO) q.pack_order = SPVGEN_GEMM_PACK_ORDER_SAME;
  return plan_variant_base(caps, &q, v, p, msg, size);
}

static spvgen_status plan_variant(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                  spvgen_gemm_variant v, spvgen_gemm_config *p, char *msg, size_t size) {
  /* Long K with split_k left to the plan, where the operands may be packed: the ladder of
   * plan_long_k over whole plans (the pack kernel and the edge mode it brings counted in
   * the compile estimate); without packing, plan_variant_base runs it. */
  const uint32_t k_plan = d->k ? d->k : gemm_runtime(d) ? GEMM_RUNTIME_HINT : 0;
  const uint32_t s_min = gemm_ceil_div(k_plan, SPVGEN_GEMM_MAX_SERIAL_K);
  const spvgen_gemm_pack auto_pack = d->pack == SPVGEN_GEMM_PACK_AUTO ? pack_auto_of(d, v) : SPVGEN_GEMM_PACK_NONE;
  if (s_min > 1 && !d->split_k && d->stages != 2 && (gemm_packed(d) || auto_pack != SPVGEN_GEMM_PACK_NONE))
    return plan_long_k(caps, d, v, k_plan, s_min, true, p, msg, size);
  if (d->pack == SPVGEN_GEMM_PACK_AUTO) {
    spvgen_gemm_desc q = *d;
    q.pack = auto_pack;
    if (auto_pack != SPVGEN_GEMM_PACK_NONE && plan_packed(caps, &q, v, p, NULL, 0) == SPVGEN_OK) {
      if (auto_pack != SPVGEN_GEMM_PACK_AB) {
        /* one operand copied (transposed): the other too where that compiles cheaper (an
         * operand read in place that clamps, or a K edge, costs the main kernel more than
         * a second copy costs the pack kernel; with both copied K is whole tiles), and the
         * second copy is no more than twice the first's elements at the planned shape: a
         * much larger operand (a 2^31-element A against a 1024 x 64 B) would make the
         * copy the call's main cost, and a copy's offsets limit the class's sizes */
        const uint64_t m = d->m ? d->m : GEMM_RUNTIME_HINT, n = d->n ? d->n : GEMM_RUNTIME_HINT,
                       k = d->k ? d->k : GEMM_RUNTIME_HINT;
        const uint64_t copied = auto_pack == SPVGEN_GEMM_PACK_A ? m * k : k * n;
        const uint64_t other = auto_pack == SPVGEN_GEMM_PACK_A ? k * n : m * k;
        spvgen_gemm_config r;
        q.pack = SPVGEN_GEMM_PACK_AB;
        if (other <= 2 * copied && plan_packed(caps, &q, v, &r, NULL, 0) == SPVGEN_OK && r.compile_ms < p->compile_ms)
          *p = r;
      }
      return SPVGEN_OK;
    }
    q.pack = SPVGEN_GEMM_PACK_NONE;
    spvgen_status ust = plan_unpacked(caps, &q, v, p, msg, size);
    if (ust == SPVGEN_OK && aligned_pack_may_pay(d, v, p)) {
      /* Both operands copied to whole tiles: the K loop never clamps, the edge is the
       * epilogue's alone, and the tilings that divide the copies (192 wide among them)
       * become candidates. Taken where it fits the budget and is estimated faster, the
       * copies' traffic included (docs/design-notes.md, "192-wide tiles, packed odd
       * shapes"). */
      spvgen_gemm_config r;
      q.pack = SPVGEN_GEMM_PACK_AB;
      if (plan_packed(caps, &q, v, &r, NULL, 0) == SPVGEN_OK && r.compile_ms <= gemm_budget_ms(d) &&
          gemm_plan_time_ms(caps, &r) < ALIGNED_PACK_MARGIN * gemm_plan_time_ms(caps, p))
        *p = r;
    }
    return ust;
  }
  if (gemm_packed(d)) {
    memset(p, 0, sizeof *p);
    return plan_packed(caps, d, v, p, msg, size);
  }
  return plan_unpacked(caps, d, v, p, msg, size);
}

/* Long K (spvgen/gemm.h, SPVGEN_GEMM_MAX_SERIAL_K): the slice count for the tile of plan
 * p (a split plan) that gemm_split_time puts fastest, from p's own count up to twice what
 * fills the SMs with the invocations the tile needs (gemm_split_invocations) or twice p's
 * count (past that, more slices only add partials), each slice keeping 8 K steps, within
 * SPVGEN_GEMM_MAX_SPLIT_K and the batch limit. Fewer slices among near-equals (a count
 * must be 2% faster than the best below it: the model's resolution, and less workspace
 * traffic). k: the K planned for (a RUNTIME plan's hint). Writes the estimate to *t. */
static uint32_t long_k_slices(const spvgen_device_caps *caps, const spvgen_gemm_config *p, uint32_t k, double *t) {
  const spvgen_gemm_desc *d = &p->desc;
  const uint32_t units = gemm_units(caps), steps = gemm_ceil_div(k, d->tile_k), batch = d->batch ? d->batch : 1;
  const uint32_t m = d->m ? d->m : GEMM_RUNTIME_HINT, n = d->n ? d->n : GEMM_RUNTIME_HINT;
  const uint64_t tiles = (uint64_t)gemm_ceil_div(m, d->tile_m) * gemm_ceil_div(n, d->tile_n) * batch;
  const uint32_t wg = p->local_size[0] ? p->local_size[0] : 256u, full = gemm_split_invocations(d);
  /* twice the count that fills the SMs, or twice p's own: a grid of a few waves may
   * round better */
  uint64_t hi = 2u * (((uint64_t)units * ((full + wg - 1) / wg) + tiles - 1) / tiles);
  if (hi < 2u * d->split_k) hi = 2u * d->split_k;
  if (hi > SPVGEN_GEMM_MAX_SPLIT_K) hi = SPVGEN_GEMM_MAX_SPLIT_K;
  if (hi > steps / 8u) hi = steps / 8u;
  if (hi > SPVGEN_GEMM_MAX_BATCH / batch) hi = SPVGEN_GEMM_MAX_BATCH / batch;
  uint32_t best = d->split_k;
  double bt = gemm_split_time(caps, p, k, best);
  for (uint32_t s = d->split_k + 1; s <= hi; s++) {
    double ts = gemm_split_time(caps, p, k, s);
    if (ts < bt * 0.98) best = s, bt = ts;
  }
  *t = bt;
  return best;
}

/* The serial-accumulation rule of a desc whose K (a RUNTIME plan: its hint) is over
 * SPVGEN_GEMM_MAX_SERIAL_K, before the variant plans: OK, or the refusal naming the
 * limit (split_k 1, coopmat2's stages 2). */
static spvgen_status check_serial_k(const spvgen_gemm_desc *d, spvgen_gemm_variant v, uint32_t k, char *msg,
                                    size_t size) {
  if (k <= SPVGEN_GEMM_MAX_SERIAL_K) return SPVGEN_OK;
  const char *why = d->split_k == 1 ? "split_k 1 keeps K in one slice (leave split_k 0 to the plan, or more slices)"
                    : d->stages == 2 && v == SPVGEN_GEMM_COOPMAT2 ? "stages 2 does not split K (stages 1 does)"
                                                                   : NULL;
  if (!why) return SPVGEN_OK;
  return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                   "k %u is over %u, the most of K one workgroup sums serially (SPVGEN_GEMM_MAX_SERIAL_K: "
                   "longer sums lose precision on tensor cores and pass lavapipe's loop budget), and %s",
                   k, SPVGEN_GEMM_MAX_SERIAL_K, why);
}

static spvgen_status plan_variant_core(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                       spvgen_gemm_variant v, spvgen_gemm_config *p, char *msg, size_t size);

/* Long K with split_k left to the plan: tile and slice count chosen together by one
 * model (gemm_split_time). The variant plans its tile for a ladder of slice counts (its
 * own choice first where that splits enough, then s_min, 2 s_min, 4 s_min ..., with the
 * count that gives the largest tiles one wave among them, until the rung's grid fills the
 * SMs, each slice keeping 8 K steps); each new tile's count is then refined upward
 * (long_k_slices: a rung's count, e.g. the small-M tiles' own split, is its floor), and
 * the plan estimated fastest wins among those within the compile budget (each rung's
 * plan keeps to it where the variant can); where none is, the cheapest to compile.
 * whole: plan each rung through plan_variant (packed operands: the pack kernel and the
 * edge mode it brings in the estimate), else through plan_variant_core.
 * docs/design-notes.md, "Long K: tile and slices together (session 8)". */
static spvgen_status plan_long_k(const spvgen_device_caps *caps, const spvgen_gemm_desc *d, spvgen_gemm_variant v,
                                 uint32_t k, uint32_t s_min, bool whole, spvgen_gemm_config *p, char *msg,
                                 size_t size) {
  const uint32_t units = gemm_units(caps), batch = d->batch ? d->batch : 1;
  /* the count that fills one wave with the largest tiles any variant plans (128x256 or
   * 256x128, whichever makes fewer): a rung of its own, which a ladder of doublings
   * would step over (256x256: 2 such tiles, 66 slices) */
  const uint32_t m = d->m ? d->m : GEMM_RUNTIME_HINT, n = d->n ? d->n : GEMM_RUNTIME_HINT;
  uint64_t big = (uint64_t)gemm_ceil_div(m, 128) * gemm_ceil_div(n, 256) * batch;
  const uint64_t big_t = (uint64_t)gemm_ceil_div(m, 256) * gemm_ceil_div(n, 128) * batch;
  if (big_t < big) big = big_t;
  const uint64_t s_big = (units + big - 1) / big;
  spvgen_gemm_config best, q, r;
  double best_t = 0.0;
  bool have = false, best_fits = false;
  enum { RUNGS = 16 };
  uint32_t seen[RUNGS][4], nseen = 0, S = 0;
  for (uint32_t rung = 0; rung < RUNGS; rung++) {
    if (rung == 1) S = s_min;
    else if (rung > 1) S = S < s_big && 2u * S > s_big ? (uint32_t)s_big : 2u * S;
    if (rung && (S > SPVGEN_GEMM_MAX_SPLIT_K || (uint64_t)S * batch > SPVGEN_GEMM_MAX_BATCH)) break;
    if (!rung && whole) continue; /* packed: the variant's own choice is the ladder's */
    spvgen_gemm_desc dd = *d;
    dd.split_k = S;
    spvgen_status st = whole ? plan_variant(caps, &dd, v, &q, rung == 1 ? msg : NULL, size)
                             : plan_variant_core(caps, &dd, v, &q, rung == 1 ? msg : NULL, size);
    if (st != SPVGEN_OK) {
      if (rung == 1) return st; /* s_min slices: the reason the variant cannot split it */
      if (rung) break;
      continue;
    }
    const spvgen_gemm_desc *qd = &q.desc;
    if (q.desc.split_k < s_min) continue; /* rung 0: the variant's own plan splits too little */
    if (rung > 1 && gemm_ceil_div(k, qd->tile_k) < 8u * S) break; /* slices under 8 K steps */
    bool dup = false;
    for (uint32_t i = 0; i < nseen && !dup; i++)
      dup = seen[i][0] == qd->tile_m && seen[i][1] == qd->tile_n && seen[i][2] == qd->tile_k &&
            seen[i][3] == q.local_size[0];
    if (!dup) {
      seen[nseen][0] = qd->tile_m, seen[nseen][1] = qd->tile_n, seen[nseen][2] = qd->tile_k;
      seen[nseen][3] = q.local_size[0];
      nseen++;
      double t;
      uint32_t s = long_k_slices(caps, &q, k, &t);
      if (s != qd->split_k) {
        /* the same kernel with s slices (a RUNTIME kernel's words do not depend on them) */
        spvgen_gemm_desc ds = *d;
        ds.split_k = s;
        ds.tile_m = qd->tile_m, ds.tile_n = qd->tile_n, ds.tile_k = qd->tile_k;
        ds.workgroup_size = qd->workgroup_size, ds.unroll = qd->unroll;
        if (v == SPVGEN_GEMM_COOPMAT2) ds.edge = qd->edge, ds.edge_unroll = qd->edge_unroll;
        if ((whole ? plan_variant(caps, &ds, v, &r, NULL, 0) : plan_variant_core(caps, &ds, v, &r, NULL, 0)) ==
            SPVGEN_OK)
          q = r;
        else
          t = gemm_split_time(caps, &q, k, q.desc.split_k);
      }
      /* within the budget, the fastest; where none is, the cheapest to compile */
      const bool fits = q.compile_ms <= gemm_budget_ms(&q.desc);
      if (!have || (fits && !best_fits) || (fits && best_fits && t < best_t) ||
          (!fits && !best_fits && (q.compile_ms < best.compile_ms || (q.compile_ms == best.compile_ms && t < best_t)))) {
        best = q;
        best_t = t;
        best_fits = fits;
        have = true;
      }
    }
    /* the rung's grid fills every SM with the invocations its tile needs, and the largest
     * tiles have had their wave: more slices only add partials */
    const uint32_t wg = q.local_size[0] ? q.local_size[0] : 256u, full = gemm_split_invocations(qd);
    const uint64_t wgs = (uint64_t)gemm_ceil_div(m, qd->tile_m) * gemm_ceil_div(n, qd->tile_n) * batch * S;
    if (rung && S >= s_big && wgs >= (uint64_t)units * ((full + wg - 1) / wg)) break;
  }
  if (!have) /* not reached: rung 1 planned or refused */
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "k %u: no split plan of the %s variant", k,
                     variant_names[v]);
  *p = best;
  if (msg && size) msg[0] = 0;
  return SPVGEN_OK;
}

static spvgen_status plan_variant_base(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                       spvgen_gemm_variant v, spvgen_gemm_config *p, char *msg, size_t size) {
  memset(p, 0, sizeof *p);
  const bool runtime = gemm_runtime(d);
  /* Long K: at least ceil(K / SPVGEN_GEMM_MAX_SERIAL_K) slices (RUNTIME: for the hinted K;
   * the launch raises the count for a longer one). When the desc leaves split_k to the
   * plan: tile and slice count together (plan_long_k). */
  const uint32_t k_plan = d->k ? d->k : runtime ? GEMM_RUNTIME_HINT : 0;
  spvgen_status st = check_serial_k(d, v, k_plan, msg, size);
  if (st != SPVGEN_OK) return st;
  const uint32_t s_min = gemm_ceil_div(k_plan, SPVGEN_GEMM_MAX_SERIAL_K);
  if (s_min > 1 && !d->split_k) return plan_long_k(caps, d, v, k_plan, s_min, false, p, msg, size);
  return plan_variant_core(caps, d, v, p, msg, size);
}

/* One plan of variant v for d (plan_variant_base, the long-K rule aside). */
static spvgen_status plan_variant_core(const spvgen_device_caps *caps, const spvgen_gemm_desc *d,
                                       spvgen_gemm_variant v, spvgen_gemm_config *p, char *msg, size_t size) {
  memset(p, 0, sizeof *p);
  const bool runtime = gemm_runtime(d);
  spvgen_status st;
  p->desc = *d;
  p->desc.variant = v;
  p->variant = v;
  if (runtime) { /* the variants plan for the hinted shape; the kernel serves the class */
    if (!p->desc.m) p->desc.m = GEMM_RUNTIME_HINT;
    if (!p->desc.n) p->desc.n = GEMM_RUNTIME_HINT;
    if (!p->desc.k) p->desc.k = GEMM_RUNTIME_HINT;
  }
  if (v != SPVGEN_GEMM_COOPMAT2 && d->edge != SPVGEN_GEMM_EDGE_AUTO)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "edge %s: the %s variant checks bounds per element; only coopmat2 has an edge choice",
                     spvgen_gemm_edge_name(d->edge), variant_names[v]);
  const bool bda = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (bda && v == SPVGEN_GEMM_COOPMAT2 && !runtime && d->batch > 1) {
    /* the desc was resolved before the variant was known: batches a 3-D tensor layout
     * indexes keep the 32-bit limit over every batch (batch_index_32) */
    spvgen_gemm_desc r = p->desc;
    if ((st = resolve_operand("a", r.a_layout, r.m, r.k, r.batch, &r.lda, &r.stride_a, &r, r.a_type, msg, size)) ||
        (st = resolve_operand("b", r.b_layout, r.k, r.n, r.batch, &r.ldb, &r.stride_b, &r, r.b_type, msg, size)) ||
        (st = resolve_operand("d", r.d_layout, r.m, r.n, r.batch, &r.ldd, &r.stride_d, &r, r.out_type, msg, size)) ||
        (r.beta != 0.0f &&
         (st = resolve_operand("c", r.c_layout, r.m, r.n, r.batch, &r.ldc, &r.stride_c, &r, r.out_type, msg, size))))
      return st;
  }
  st = variants[v]->plan(caps, p, msg, size);
  if (st == SPVGEN_OK && runtime && v == SPVGEN_GEMM_COOPMAT2 && shift_for_hint(d, &p->desc)) {
    /* A run-time plan for a given M (and N) of at least a tile, with tiles crossing them:
     * edge tiles move inside (one unclamped path, the fastest to compile and to run);
     * such a plan serves M >= tile_m, N >= tile_n (spvgen_gemm_launch_for checks). */
    spvgen_gemm_config q = *p;
    q.desc = p->desc;
    q.desc.tile_m = p->desc.tile_m, q.desc.tile_n = p->desc.tile_n, q.desc.tile_k = p->desc.tile_k;
    q.desc.unroll = d->unroll;
    q.desc.edge = SPVGEN_GEMM_EDGE_SHIFT;
    q.desc.edge_unroll = d->edge_unroll;
    q.desc.split_k = d->split_k ? d->split_k : p->desc.split_k;
    if (variants[v]->plan(caps, &q, NULL, 0) == SPVGEN_OK) *p = q;
  }
  if (st == SPVGEN_OK && !p->desc.split_k) p->desc.split_k = 1;
  if (st == SPVGEN_OK && p->desc.split_k > 1) st = gemm_splitk_plan(caps, p, msg, size);
  if (st != SPVGEN_OK) return st;
  if (!runtime && p->desc.split_k > 1 && p->slice_k > SPVGEN_GEMM_MAX_SERIAL_K)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "split_k %u leaves slices of %u of K, over %u, the most one workgroup sums serially "
                     "(SPVGEN_GEMM_MAX_SERIAL_K): at least %u slices (or split_k 0: the plan chooses)",
                     p->desc.split_k, p->slice_k, SPVGEN_GEMM_MAX_SERIAL_K,
                     gemm_ceil_div(p->desc.k, SPVGEN_GEMM_MAX_SERIAL_K));
  if ((st = gemm_check_loop_budget(p, msg, size)) != SPVGEN_OK) return st;
  if (runtime) { /* the hints back as the caller gave them; the grid is per launch */
    p->desc.m = d->m;
    p->desc.n = d->n;
    p->desc.k = d->k;
    p->groups[0] = p->groups[1] = p->groups[2] = 0;
    p->push_size = (uint32_t)sizeof(spvgen_gemm_push);
    if (p->push_size > caps->max_push_constants_size && caps->max_push_constants_size)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "run-time shapes take %u bytes of push constants; %s has %u", p->push_size, caps->name,
                       caps->max_push_constants_size);
  }
  if (p->desc.split_k > 1) p->reduce_push_size = p->push_size;
  if (bda) { /* one 8-byte pointer per buffer after the shape's push constants */
    p->push_size = gemm_address_base(&p->desc) + 8u * gemm_buffer_count(&p->desc, SPVGEN_GEMM_KERNEL_MAIN);
    if (p->desc.split_k > 1)
      p->reduce_push_size = gemm_address_base(&p->desc) + 8u * gemm_buffer_count(&p->desc, SPVGEN_GEMM_KERNEL_REDUCE);
    if (p->push_size > caps->max_push_constants_size && caps->max_push_constants_size)
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "device addresses take %u bytes of push constants; %s has %u", p->push_size, caps->name,
                       caps->max_push_constants_size);
    /* 64-bit pointer arithmetic: every workgroup moves its pointers to its batch and tile */
    p->features |= SPVGEN_FEATURE_BUFFER_DEVICE_ADDRESS | SPVGEN_FEATURE_INT64;
    if (!runtime && (st = check_tiles("spvgen_gemm_plan", &p->desc, p->desc.m, p->desc.n, p->desc.k, p->desc.lda,
                                      p->desc.ldb, p->desc.ldc, p->desc.ldd, msg, size)) != SPVGEN_OK)
      return st;
  }
  p->compile_ms = gemm_compile_ms(p);
  /* The element types' features, and the Vulkan memory model of the module the kernel
   * is emitted into (spvgen_module_create's default; declared by every variant). */
  p->features |= gemm_type_features(&p->desc) | SPVGEN_FEATURE_VULKAN_MEMORY_MODEL;
  /* A subgroup size the kernel assumes is pinned at pipeline creation (the info's
   * required_subgroup_size), which needs subgroupSizeControl. */
  if (p->subgroup_size) p->features |= SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL;
  uint64_t missing = p->features & ~caps->features;
  if (missing)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the %s variant needs %s, which %s lacks",
                     variant_names[v], spvgen_feature_name(spvgen_feature_first(missing)), caps->name);
  ek_folded_grid grid = gemm_grid_of(&p->desc, p->desc.m, p->desc.n);
  for (int i = 0; i < 3; i++)
    if (p->groups[i] > caps->max_workgroup_count[i] && caps->max_workgroup_count[i]) {
      if (i == 0 && grid.fold > 1) /* N tiles x the folds of M's */
        return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                         "%u workgroups in dimension 0 (%u tiles of N x %u folds of M's %u tiles, past 65535 "
                         "in dimension 1) exceed %s's limit %u (a larger tile)",
                         p->groups[0], gemm_ceil_div(p->desc.n, p->desc.tile_n), grid.fold,
                         gemm_ceil_div(p->desc.m, p->desc.tile_m), caps->name, caps->max_workgroup_count[0]);
      return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                       "%u workgroups in dimension %d exceed %s's limit %u (a larger tile or fewer batches)",
                       p->groups[i], i, caps->name, caps->max_workgroup_count[i]);
    }
  return SPVGEN_OK;
}

/* A FIXED coopmat2 plan with both operands packed, whose edge mode the desc leaves to the
 * plan, has D's store clamped in every tile. Behind the branch instead, interior tiles
 * store unclamped: one K loop either way, 9 % faster at 3000^3 (docs/design-notes.md,
 * "Packed K in whole groups of 8 steps"). Taken where that plan fits the compile budget,
 * on the tile and unroll the clamped plan was chosen with, and only once the variant is
 * chosen: the comparison with khr ranks the clamped form, and the branch's speed would
 * put small packed tiles ahead of khr where they run slower. */
static void packed_branch_store(const spvgen_device_caps *caps, const spvgen_gemm_desc *d, spvgen_gemm_config *plan) {
  const spvgen_gemm_desc *pd = &plan->desc;
  if (plan->variant != SPVGEN_GEMM_COOPMAT2 || d->edge != SPVGEN_GEMM_EDGE_AUTO || gemm_runtime(pd) ||
      pd->edge != SPVGEN_GEMM_EDGE_CLAMP || !cm2_store_only_branch(pd))
    return;
  spvgen_gemm_desc q = *d;
  q.variant = SPVGEN_GEMM_COOPMAT2;
  q.pack = pd->pack;
  q.pack_order = pd->pack_order;
  q.tile_m = pd->tile_m, q.tile_n = pd->tile_n, q.tile_k = pd->tile_k;
  q.workgroup_size = pd->workgroup_size;
  q.unroll = pd->unroll;
  q.codegen = pd->codegen;
  q.edge = SPVGEN_GEMM_EDGE_BRANCH;
  spvgen_gemm_config r;
  if (plan_variant(caps, &q, SPVGEN_GEMM_COOPMAT2, &r, NULL, 0) == SPVGEN_OK && r.compile_ms <= gemm_budget_ms(d) &&
      r.desc.tile_m == pd->tile_m && r.desc.tile_n == pd->tile_n && r.desc.tile_k == pd->tile_k)
    *plan = r;
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
  if (d.variant != SPVGEN_GEMM_AUTO) {
    st = plan_variant(caps, &d, d.variant, plan, msg, size);
    if (st == SPVGEN_OK) packed_branch_store(caps, &d, plan);
    return st;
  }
  /* AUTO: the first variant of the preference order that can do it; the last one's
   * reason when none can (SIMT's, which names what even the fallback lacks). The order
   * is measured: coopmat2 first for every input width (docs/design-notes.md,
   * "Measurements behind source comments"). */
  /* The compile budget reorders them: a variant whose plan is estimated over the budget
   * gives way to the next one that fits (when the desc leaves unroll and edge to the
   * plan); when none fits, the cheapest cooperative one to compile. */
  static const spvgen_gemm_variant order[] = {SPVGEN_GEMM_COOPMAT2, SPVGEN_GEMM_COOPMAT_KHR, SPVGEN_GEMM_SIMT};
  const bool budget_free = d.unroll || d.edge; /* knobs the caller chose are kept */
  const uint32_t budget = gemm_budget_ms(&d);
  spvgen_gemm_config cheapest;
  bool have_cheapest = false;
  for (int v = 0; v < 3; v++) {
    /* SIMT only where no cooperative variant can run: it is the fallback of devices
     * without them, 10-100x slower at run time than any compile it saves */
    if (order[v] == SPVGEN_GEMM_SIMT && have_cheapest) break;
    st = plan_variant(caps, &d, order[v], plan, msg, size);
    if (st != SPVGEN_OK) continue;
    if (budget_free || plan->compile_ms <= budget) {
      if (msg && size) msg[0] = 0; /* an earlier variant's refusal is no message of a success */
      /* A fixed 16-bit shape that coopmat2 serves only with a slower tiling (a shape a few
       * rows past a multiple of its big tiles: 3008 = 47 x 64, whose 128-wide tiles need
       * edge modes over the budget or slow) goes to khr where khr's estimate is faster:
       * its big tile takes the edges at no cost of its own (docs/design-notes.md,
       * "Measurements behind source comments"). Only by a clear margin, and only where
       * coopmat2's plan is that slower tiling (under 128x128) or has edges to take: a
       * 128-wide tile on whole tiles ran at or above khr's at every K measured, 1.1-1.5x
       * at K 128 to 1024 (docs/design-notes.md, "Short K: a fixed cost per tile"), where
       * the estimates, which charge only coopmat2 for K steps of half a cache line, had
       * put khr ahead. */
      /* Not where M or N is under 128: there coopmat2's small tile is the matrix's own
       * width, no fallback from its big tiles, and it ran 1.5-2x khr's (1048576 x 64 x 256
       * nt: 0.337 ms on 64x64x64 against 0.510 on khr's 128x64; 1 x 4096 x 256: 0.004 ms
       * against 0.008; call S21-3, docs/design-notes.md "Tiles wider than the matrix"). With
       * khr's rate refitted on measured times (session 22) the condition is still needed: without
       * it 1048576 x {16, 22} x 256 nt would take khr's 128x64 tile, measured 0.635 ms against
       * coopmat2's 128x128 clamped default's 0.586 (docs/design-notes.md, "The khr tile's
       * speed, fitted (session 22)"). */
      if (order[v] == SPVGEN_GEMM_COOPMAT2 && !gemm_runtime(&d) && spvgen_component_type_size(d.a_type) == 2 &&
          d.m >= 128 && d.n >= 128 &&
          (gemm_packed(&plan->desc) || plan->desc.tile_m * plan->desc.tile_n < 128u * 128u ||
           !gemm_dim_multiple(&plan->desc, 'm', plan->desc.tile_m) ||
           !gemm_dim_multiple(&plan->desc, 'n', plan->desc.tile_n) ||
           !gemm_dim_multiple(&plan->desc, 'k', plan->desc.tile_k)) &&
          !d.tile_m && !d.tile_n && !d.tile_k && !d.workgroup_size && !d.subgroups && !d.stages && !d.split_k &&
          plan->desc.split_k <= 1 && (!gemm_packed(&plan->desc) || d.pack == SPVGEN_GEMM_PACK_AUTO)) {
        spvgen_gemm_config k;
        /* a packed plan by the time estimates (its copies counted), else by the speeds */
        if (plan_variant(caps, &d, SPVGEN_GEMM_COOPMAT_KHR, &k, NULL, 0) == SPVGEN_OK &&
            (budget_free || k.compile_ms <= budget) &&
            (gemm_packed(&plan->desc)
                 ? KHR_OVER_CM2_MARGIN * gemm_plan_time_ms(caps, &k) < gemm_plan_time_ms(caps, plan)
                 : khr_speed(caps, &k) > KHR_OVER_CM2_MARGIN * cm2_speed(caps, plan)))
          *plan = k;
      }
      packed_branch_store(caps, &d, plan);
      return SPVGEN_OK;
    }
    if (!have_cheapest || plan->compile_ms < cheapest.compile_ms) cheapest = *plan;
    have_cheapest = true;
  }
  if (have_cheapest) {
    *plan = cheapest;
    if (msg && size) msg[0] = 0;
    return SPVGEN_OK;
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
  const bool long_k = (d.k ? d.k : gemm_runtime(&d) ? GEMM_RUNTIME_HINT : 0) > SPVGEN_GEMM_MAX_SERIAL_K;
  for (int v = 1; v < SPVGEN_GEMM_VARIANT_COUNT; v++) {
    if (d.variant != SPVGEN_GEMM_AUTO && d.variant != (spvgen_gemm_variant)v) continue;
    uint32_t c = variants[v]->candidates(caps, &d, cand, MAX_CAND);
    for (uint32_t i = 0; i < c; i++) {
      spvgen_gemm_config p;
      /* the tilings unsplit (coopmat2's plan would split a grid under one wave): the
       * split counts are the candidates below */
      if (!cand[i].split_k && !long_k) cand[i].split_k = 1; /* long K: the plan splits (plan_variant_base) */
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
    uint32_t c = gemm_splitk_candidates(caps, &base, cand, MAX_CAND);
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

/* Bytes an operand of rows x cols (layout, ld, batch stride in elements) spans over
 * every batch: up to and including its last element, rounded up to whole 32-bit words
 * (what a kernel's widest scalar access of the last element may touch). */
static uint64_t operand_bytes(spvgen_matrix_layout layout, uint32_t rows, uint32_t cols, uint32_t ld,
                              uint64_t stride, uint32_t batch, spvgen_component_type t) {
  uint32_t inner = layout == SPVGEN_ROW_MAJOR ? cols : rows;
  uint32_t outer = layout == SPVGEN_ROW_MAJOR ? rows : cols;
  uint64_t last = (uint64_t)(batch - 1) * stride + (uint64_t)(outer - 1) * ld + (inner - 1);
  return ((last + 1) * spvgen_component_type_size(t) + 3) & ~3ull;
}

/* size_args of a run-time plan's info: what gemm_runtime_sizes needs besides the push
 * constants. */
enum { SIZE_ARG_LAYOUTS, SIZE_ARG_ELEMENTS, SIZE_ARG_TILE, SIZE_ARG_PACK };

static const char *const buffer_names[BUF_COUNT] = {"A", "B", "D", "C", "bias", "workspace"};

uint32_t gemm_kernel_buffers(const spvgen_gemm_desc *d, spvgen_gemm_kernel which, uint32_t out[]) {
  const bool split = d->split_k > 1, pa = gemm_packs(d, 'a'), pb = gemm_packs(d, 'b');
  uint32_t n = 0;
  if (which == SPVGEN_GEMM_KERNEL_PACK) { /* the sources it copies, and the workspace */
    if (pa) out[n++] = BUF_A;
    if (pb) out[n++] = BUF_B;
    out[n++] = BUF_WORKSPACE;
    return n;
  }
  if (!split || which == SPVGEN_GEMM_KERNEL_MAIN) { /* a packed operand: its copy in the workspace */
    if (!pa) out[n++] = BUF_A;
    if (!pb) out[n++] = BUF_B;
  }
  if (!split || which == SPVGEN_GEMM_KERNEL_REDUCE) {
    out[n++] = BUF_D;
    if (d->beta != 0.0f) out[n++] = BUF_C;
    if (d->bias != SPVGEN_GEMM_BIAS_NONE) out[n++] = BUF_BIAS;
  }
  if (split || pa || pb) out[n++] = BUF_WORKSPACE;
  return n;
}

uint32_t gemm_buffer_binding(const spvgen_gemm_desc *d, uint32_t b) {
  if (b <= BUF_D) return b;
  uint32_t at = 3;
  if (b == BUF_C) return at;
  at += d->beta != 0.0f;
  if (b == BUF_BIAS) return at;
  return at + (d->bias != SPVGEN_GEMM_BIAS_NONE);
}

/* operand_bytes with the layout as a bit and the element size in bytes. */
static uint64_t span_bytes(uint64_t col_major, uint32_t rows, uint32_t cols, uint32_t ld, uint32_t stride,
                           uint32_t batch, uint64_t esize) {
  uint32_t inner = col_major ? rows : cols, outer = col_major ? cols : rows;
  uint64_t last = (uint64_t)(batch - 1) * stride + (uint64_t)(outer - 1) * ld + (inner - 1);
  return ((last + 1) * esize + 3) & ~3ull;
}

/* An input type of `size` bytes (what the pack layout reads of a type). */
static spvgen_component_type type_of_size(uint32_t size) {
  return size == 1 ? SPVGEN_COMPONENT_S8 : size == 4 ? SPVGEN_COMPONENT_F32 : SPVGEN_COMPONENT_F16;
}

/* The run-time plan's binding sizes for one dispatch (spvgen_binding_sizes_fn): the
 * bytes each operand spans for the shape, leading dimensions and batch strides in the
 * push constants, as operand_bytes computes them for a fixed plan; the split-K
 * workspace's planes. The kernel's buffers (kernel_buffers) are bits 8.. of
 * size_args[SIZE_ARG_LAYOUTS], one per BUF_*. */
static bool gemm_runtime_sizes(const spvgen_kernel_info *info, const void *push_data, uint32_t push_size,
                               uint64_t *sizes) {
  spvgen_gemm_push pc;
  if (!push_data || push_size < sizeof pc) return false;
  memcpy(&pc, push_data, sizeof pc);
  const uint64_t lay = info->size_args[SIZE_ARG_LAYOUTS], el = info->size_args[SIZE_ARG_ELEMENTS];
  const uint32_t batch = pc.batch ? pc.batch : 1;
  if (!pc.m || !pc.n || !pc.k) return true; /* an empty problem touches nothing */
  uint64_t need[BUF_COUNT];
  need[BUF_A] = span_bytes((lay >> 0) & 1, pc.m, pc.k, pc.lda, pc.stride_a, batch, el & 0xff);
  need[BUF_B] = span_bytes((lay >> 1) & 1, pc.k, pc.n, pc.ldb, pc.stride_b, batch, (el >> 8) & 0xff);
  need[BUF_D] = span_bytes((lay >> 3) & 1, pc.m, pc.n, pc.ldd, pc.stride_d, batch, (el >> 16) & 0xff);
  need[BUF_C] = span_bytes((lay >> 2) & 1, pc.m, pc.n, pc.ldc, pc.stride_c, batch, (el >> 16) & 0xff);
  uint32_t bias = (uint32_t)(lay >> 4) & 3;
  need[BUF_BIAS] = ((uint64_t)(bias == SPVGEN_GEMM_BIAS_ROW ? pc.m : pc.n) * ((el >> 16) & 0xff) + 3) & ~3ull;
  /* split-K: the partial planes of the launch's slices; then the packed copies */
  need[BUF_WORKSPACE] = (uint64_t)(pc.split_k ? pc.split_k : 1) * batch * pc.m * pc.workspace_ld * 4u;
  const uint64_t pk = info->size_args[SIZE_ARG_PACK];
  if (pk) { /* tile_n | tile_k << 16 | pack << 32 */
    spvgen_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.tile_m = (uint32_t)info->size_args[SIZE_ARG_TILE];
    d.tile_n = (uint32_t)(pk & 0xffff);
    d.tile_k = (uint32_t)((pk >> 16) & 0xffff);
    d.pack = (spvgen_gemm_pack)((pk >> 32) & 0xff);
    d.a_layout = (spvgen_matrix_layout)(lay & 1);
    d.b_layout = (spvgen_matrix_layout)((lay >> 1) & 1);
    d.a_type = type_of_size((uint32_t)(el & 0xff)); /* only the size counts */
    d.b_type = type_of_size((uint32_t)((el >> 8) & 0xff));
    gemm_pack_layout l;
    gemm_pack_layout_of(&d, pc.m, pc.n, pc.k, batch, pc.split_k > 1 ? need[BUF_WORKSPACE] : 0, &l);
    need[BUF_WORKSPACE] = l.end;
  }
  uint32_t n = 0;
  for (uint32_t b = 0; b < BUF_COUNT; b++) {
    if (!((lay >> (8 + b)) & 1)) continue;
    if (n < info->binding_count && need[b] > sizes[n]) sizes[n] = need[b];
    n++;
  }
  return true;
}

/* Descriptor bindings become device addresses: pointer i at base + 8 i. The cooperative
 * variants read and write A, B, C, D and the workspace through 128-bit views, fragment
 * loads and stores and tensor instructions (whose pointer must be a multiple of 16
 * bytes, SPV_NV_cooperative_matrix2): those addresses must be 16-byte aligned; the bias
 * (scalar loads) and the simt variant's buffers 4 (the runner's default), but for the
 * split-K workspace, which the reduction reads 16 bytes at a time in every variant. */
static void gemm_bindings_to_addresses(const spvgen_gemm_desc *d, spvgen_kernel_info *info) {
  if (d->addressing != SPVGEN_ADDRESSING_DEVICE_ADDRESS) return;
  for (uint32_t i = 0; i < info->binding_count; i++) {
    info->bindings[i].kind = SPVGEN_BINDING_DEVICE_ADDRESS;
    info->bindings[i].set = 0;
    info->bindings[i].binding = 0;
    info->bindings[i].address_offset = gemm_address_base(d) + 8u * i;
    const char *name = info->bindings[i].name;
    if ((d->variant != SPVGEN_GEMM_SIMT && strcmp(name, "bias") != 0) || !strcmp(name, "workspace"))
      info->bindings[i].alignment = 16;
  }
}

/* The bindings kernel `which` declares, as spvgen/gemm.h lists them (set 0): A, B, D,
 * then C, the bias and the split-K workspace where the plan has them (split-K: the
 * partials kernel A, B and the workspace, the reduction D, C, bias and the workspace),
 * each with its name, access and the bytes the planned shape touches (a run-time plan:
 * 0, and a size function of the push constants, gemm_runtime_sizes). */
static void gemm_fill_bindings(const spvgen_gemm_config *p, spvgen_gemm_kernel which, spvgen_kernel_info *info) {
  const spvgen_gemm_desc *d = &p->desc;
  const bool runtime = gemm_runtime(d);
  uint32_t list[BUF_COUNT];
  uint32_t n = gemm_kernel_buffers(d, which, list);
  uint64_t bytes[BUF_COUNT] = {0};
  /* the workspace: written by the pack kernel and split-K's partials, read by the main
   * kernel of packed operands and the reduction */
  const bool ws_writes = which == SPVGEN_GEMM_KERNEL_PACK || (which == SPVGEN_GEMM_KERNEL_MAIN && d->split_k > 1);
  const bool ws_reads = which == SPVGEN_GEMM_KERNEL_REDUCE || (which == SPVGEN_GEMM_KERNEL_MAIN && gemm_packed(d));
  uint32_t access[BUF_COUNT] = {SPVGEN_ACCESS_READ, SPVGEN_ACCESS_READ, SPVGEN_ACCESS_WRITE, SPVGEN_ACCESS_READ,
                                SPVGEN_ACCESS_READ,
                                (ws_writes ? SPVGEN_ACCESS_WRITE : 0u) | (ws_reads ? SPVGEN_ACCESS_READ : 0u)};
  if (!runtime) {
    bytes[BUF_A] = operand_bytes(d->a_layout, d->m, d->k, d->lda, d->stride_a, d->batch, d->a_type);
    bytes[BUF_B] = operand_bytes(d->b_layout, d->k, d->n, d->ldb, d->stride_b, d->batch, d->b_type);
    bytes[BUF_D] = operand_bytes(d->d_layout, d->m, d->n, d->ldd, d->stride_d, d->batch, d->out_type);
    if (d->beta != 0.0f)
      bytes[BUF_C] = operand_bytes(d->c_layout, d->m, d->n, d->ldc, d->stride_c, d->batch, d->out_type);
    if (d->bias != SPVGEN_GEMM_BIAS_NONE)
      bytes[BUF_BIAS] = (((uint64_t)(d->bias == SPVGEN_GEMM_BIAS_ROW ? d->m : d->n)) *
                             spvgen_component_type_size(d->out_type) + 3) & ~3ull;
    bytes[BUF_WORKSPACE] = p->workspace_bytes;
  }
  info->binding_count = n;
  uint64_t present = 0;
  for (uint32_t i = 0; i < n; i++) {
    info->bindings[i].set = 0;
    info->bindings[i].binding = gemm_buffer_binding(d, list[i]);
    info->bindings[i].kind = SPVGEN_BINDING_STORAGE_BUFFER;
    info->bindings[i].name = buffer_names[list[i]];
    info->bindings[i].access = access[list[i]];
    info->bindings[i].min_size = bytes[list[i]];
    present |= 1ull << list[i];
  }
  if (runtime) {
    info->binding_sizes = gemm_runtime_sizes;
    info->size_args[SIZE_ARG_LAYOUTS] = (uint64_t)d->a_layout | (uint64_t)d->b_layout << 1 |
                                        (uint64_t)d->c_layout << 2 | (uint64_t)d->d_layout << 3 |
                                        (uint64_t)d->bias << 4 | present << 8;
    info->size_args[SIZE_ARG_ELEMENTS] = (uint64_t)spvgen_component_type_size(d->a_type) |
                                         (uint64_t)spvgen_component_type_size(d->b_type) << 8 |
                                         (uint64_t)spvgen_component_type_size(d->out_type) << 16;
    info->size_args[SIZE_ARG_TILE] = d->tile_m;
    if (gemm_packed(d))
      info->size_args[SIZE_ARG_PACK] = (uint64_t)d->tile_n | (uint64_t)d->tile_k << 16 | (uint64_t)d->pack << 32;
  }
  gemm_bindings_to_addresses(d, info);
}

uint32_t spvgen_gemm_kernel_count(const spvgen_gemm_config *plan) {
  if (!plan) return 0;
  return 1u + (plan->desc.split_k > 1) + gemm_packed(&plan->desc);
}

spvgen_gemm_kernel spvgen_gemm_kernel_at(const spvgen_gemm_config *plan, uint32_t index) {
  if (!plan || index >= spvgen_gemm_kernel_count(plan)) return SPVGEN_GEMM_KERNEL_MAIN;
  if (gemm_packed(&plan->desc)) {
    if (index == 0) return SPVGEN_GEMM_KERNEL_PACK;
    index--;
  }
  return index == 0 ? SPVGEN_GEMM_KERNEL_MAIN : SPVGEN_GEMM_KERNEL_REDUCE;
}

/* Whether the plan has kernel `which`. */
bool gemm_plan_made(const spvgen_gemm_config *plan) {
  return plan && plan->variant > SPVGEN_GEMM_AUTO && plan->variant < SPVGEN_GEMM_VARIANT_COUNT &&
         plan->desc.variant == plan->variant && plan->local_size[0];
}

static bool has_kernel(const spvgen_gemm_config *plan, spvgen_gemm_kernel which) {
  for (uint32_t i = 0; i < spvgen_gemm_kernel_count(plan); i++)
    if (spvgen_gemm_kernel_at(plan, i) == which) return true;
  return false;
}

spvgen_status spvgen_gemm_emit_kernel(spvgen_module *m, const spvgen_gemm_config *plan, spvgen_gemm_kernel which,
                                      spvgen_kernel_info *info) {
  if (!m) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!gemm_plan_made(plan))
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_gemm_emit: plan is NULL or not made by spvgen_gemm_plan"),
           spvgen_module_status(m);
  if ((uint32_t)which >= SPVGEN_GEMM_KERNEL_COUNT || !has_kernel(plan, which))
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_gemm_emit_kernel: kernel %u: the plan has %u (the reduction kernel (1) is a "
                              "split-K plan's, split_k > 1; the pack kernel (2) a packed plan's, pack a, b or ab)",
                              (unsigned)which, spvgen_gemm_kernel_count(plan)),
           spvgen_module_status(m);
  if (plan->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS &&
      spvgen_module_addressing(m) != SpvAddressingModelPhysicalStorageBuffer64)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_gemm_emit: the plan takes device addresses; create the module with "
                              "spvgen_module_desc.addressing = SpvAddressingModelPhysicalStorageBuffer64 (%u)",
                              (unsigned)SpvAddressingModelPhysicalStorageBuffer64),
           spvgen_module_status(m);
  const bool reduce = which == SPVGEN_GEMM_KERNEL_REDUCE, pack = which == SPVGEN_GEMM_KERNEL_PACK;
  if (reduce) gemm_splitk_reduce_emit(m, plan);
  else if (pack) gemm_pack_emit(m, plan);
  else if (gemm_packed(&plan->desc)) { /* the aligned kernel of the copies */
    spvgen_gemm_config inner = *plan;
    gemm_pack_inner(&plan->desc, &inner.desc);
    variants[plan->variant]->emit(m, &inner);
  } else variants[plan->variant]->emit(m, plan);
  if (info) {
    memset(info, 0, sizeof *info);
    info->entry_point = "main";
    for (int i = 0; i < 3; i++) {
      info->local_size[i] = reduce ? (i ? 1 : GEMM_REDUCE_LOCAL) : pack ? (i ? 1 : GEMM_PACK_LOCAL) : plan->local_size[i];
      info->groups[i] = reduce ? plan->reduce_groups[i] : pack ? plan->pack_groups[i] : plan->groups[i];
    }
    info->required_subgroup_size = reduce || pack ? 0 : plan->subgroup_size;
    gemm_fill_bindings(plan, which, info);
  }
  return spvgen_module_status(m);
}

spvgen_status spvgen_gemm_emit(spvgen_module *m, const spvgen_gemm_config *plan, spvgen_kernel_info *info) {
  return spvgen_gemm_emit_kernel(m, plan, SPVGEN_GEMM_KERNEL_MAIN, info);
}

uint32_t spvgen_gemm_addressing_model(const spvgen_gemm_config *plan) {
  return plan && plan->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS
             ? (uint32_t)SpvAddressingModelPhysicalStorageBuffer64
             : (uint32_t)SpvAddressingModelLogical;
}

/* The kernels of a resolved plan into kernels[] (fn names the caller in messages). */
static spvgen_status kernels_of(const spvgen_gemm_config *plan, spvgen_kernel kernels[SPVGEN_GEMM_KERNEL_COUNT],
                                uint32_t *count, const char *fn, char *msg, size_t size) {
  spvgen_status st = SPVGEN_OK;
  uint32_t n = spvgen_gemm_kernel_count(plan);
  for (uint32_t i = 0; i < n && st == SPVGEN_OK; i++) {
    spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_gemm_addressing_model(plan)});
    if (!m) {
      st = gemm_fail(msg, size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
      break;
    }
    spvgen_kernel_info info;
    st = spvgen_gemm_emit_kernel(m, plan, spvgen_gemm_kernel_at(plan, i), &info);
    st = ek_kernel_finish(m, st, &info, &kernels[i], fn, msg, size);
  }
  if (st != SPVGEN_OK) {
    for (uint32_t i = 0; i < n; i++) spvgen_kernel_free(&kernels[i]);
    return st;
  }
  *count = n;
  return SPVGEN_OK;
}

spvgen_status spvgen_gemm_kernels(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                  spvgen_kernel kernels[SPVGEN_GEMM_KERNEL_COUNT], uint32_t *count,
                                  spvgen_gemm_config *plan_out, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!kernels || !count) return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "kernels or count is NULL");
  *count = 0;
  memset(kernels, 0, SPVGEN_GEMM_KERNEL_COUNT * sizeof *kernels);
  spvgen_gemm_config plan;
  spvgen_status st = spvgen_gemm_plan(desc, caps, &plan, msg, size);
  if (st != SPVGEN_OK) return st;
  if ((st = kernels_of(&plan, kernels, count, "spvgen_gemm_kernels", msg, size)) != SPVGEN_OK) return st;
  if (plan_out) *plan_out = plan;
  return SPVGEN_OK;
}

spvgen_status spvgen_gemm_plan_kernels(const spvgen_gemm_config *plan, spvgen_kernel kernels[SPVGEN_GEMM_KERNEL_COUNT],
                                       uint32_t *count, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!kernels || !count) return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "kernels or count is NULL");
  *count = 0;
  memset(kernels, 0, SPVGEN_GEMM_KERNEL_COUNT * sizeof *kernels);
  if (!gemm_plan_made(plan))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "plan is NULL or not made by spvgen_gemm_plan");
  return kernels_of(plan, kernels, count, "spvgen_gemm_plan_kernels", msg, size);
}

spvgen_status spvgen_gemm(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                          spvgen_kernel *kernel, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!kernel) return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "kernel is NULL");
  memset(kernel, 0, sizeof *kernel);
  if (desc && desc->split_k > 1)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "split_k %u makes two kernels (the partials and their reduction): spvgen_gemm_kernels "
                     "returns both (spvgen_gemm gives one kernel; split_k 0 or 1 plans one)",
                     desc->split_k);
  if (desc && gemm_packed(desc))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "pack %s makes a pack kernel before the main one: spvgen_gemm_kernels returns both "
                     "(spvgen_gemm gives one kernel; pack auto or none plans one)", spvgen_gemm_pack_name(desc->pack));
  spvgen_gemm_desc one;
  if (desc) { /* one kernel: the planner's own split-K and packing choices are off here */
    one = *desc;
    if (!one.split_k) one.split_k = 1;
    if (one.pack == SPVGEN_GEMM_PACK_AUTO) one.pack = SPVGEN_GEMM_PACK_NONE;
    desc = &one;
  }
  spvgen_gemm_config plan;
  spvgen_status st = spvgen_gemm_plan(desc, caps, &plan, msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_gemm_addressing_model(&plan)});
  if (!m) return gemm_fail(msg, size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  spvgen_kernel_info info;
  st = spvgen_gemm_emit(m, &plan, &info);
  return ek_kernel_finish(m, st, &info, kernel, "spvgen_gemm", msg, size);
}

/* ------------------------------------------------------------ run-time shapes ---- */

/* args resolved against the plan's layouts: defaults filled, extents, leading dimensions,
 * strides and the 32-bit index limit checked (messages from fn). */
static spvgen_status resolve_args(const char *fn, const spvgen_gemm_desc *d, const spvgen_gemm_args *in,
                                  spvgen_gemm_args *a, char *msg, size_t size) {
  if (!in) return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "args is NULL (a run-time plan needs a shape)");
  *a = *in;
  if (!a->m || !a->n || !a->k)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "m, n and k must be at least 1 (got m=%u n=%u k=%u)",
                        a->m, a->n, a->k);
  if (a->m > SPVGEN_GEMM_MAX_DIM || a->n > SPVGEN_GEMM_MAX_DIM || a->k > SPVGEN_GEMM_MAX_DIM)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED, "m=%u n=%u k=%u: each dimension must be at most 2^24",
                        a->m, a->n, a->k);
  if (!a->batch) a->batch = 1;
  if (a->batch > SPVGEN_GEMM_MAX_BATCH)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED, "batch %u is over 65535 (one workgroup row per batch)",
                        a->batch);
  if (!isfinite(a->alpha) || !isfinite(a->beta))
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "alpha and beta must be finite");
  if (a->alpha == 0.0f) a->alpha = 1.0f;
  spvgen_status st;
  if ((st = resolve_operand_in(fn, "a", d->a_layout, a->m, a->k, a->batch, &a->lda, &a->stride_a, d, d->a_type, msg, size)) ||
      (st = resolve_operand_in(fn, "b", d->b_layout, a->k, a->n, a->batch, &a->ldb, &a->stride_b, d, d->b_type, msg, size)) ||
      (st = resolve_operand_in(fn, "d", d->d_layout, a->m, a->n, a->batch, &a->ldd, &a->stride_d, d, d->out_type, msg, size)))
    return st;
  if (d->beta != 0.0f) {
    if ((st = resolve_operand_in(fn, "c", d->c_layout, a->m, a->n, a->batch, &a->ldc, &a->stride_c, d, d->out_type, msg, size)))
      return st;
  } else {
    a->ldc = 0;
    a->stride_c = 0;
  }
  return SPVGEN_OK;
}

/* The class checks of a RUNTIME plan: the multiples, the epilogue, the edge mode. */
static spvgen_status check_class(const spvgen_gemm_config *p, const spvgen_gemm_args *a, char *msg, size_t size) {
  static const char fn[] = "spvgen_gemm_launch_for";
  const spvgen_gemm_desc *d = &p->desc;
  struct { const char *name; uint64_t v; uint32_t q; const char *cls; } need[] = {
      {"m", a->m, d->m_multiple, "m_multiple"},        {"n", a->n, d->n_multiple, "n_multiple"},
      {"k", a->k, d->k_multiple, "k_multiple"},        {"lda", a->lda, d->ld_multiple, "ld_multiple"},
      {"ldb", a->ldb, d->ld_multiple, "ld_multiple"},  {"ldd", a->ldd, d->ld_multiple, "ld_multiple"},
      {"ldc", a->ldc, d->ld_multiple, "ld_multiple"},  {"stride_a", a->stride_a, d->ld_multiple, "ld_multiple"},
      {"stride_b", a->stride_b, d->ld_multiple, "ld_multiple"}, {"stride_d", a->stride_d, d->ld_multiple, "ld_multiple"},
      {"stride_c", a->stride_c, d->ld_multiple, "ld_multiple"}};
  for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
    bool stride = !strncmp(need[i].name, "stride", 6);
    if ((stride && a->batch <= 1) || !need[i].v || need[i].q <= 1) continue;
    if (need[i].v % need[i].q)
      return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s %llu is not a multiple of the plan's %s %u (the class this pipeline serves)",
                          need[i].name, (unsigned long long)need[i].v, need[i].cls, need[i].q);
  }
  if (d->k_fixed && a->k != d->k)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "k %u is not the plan's K %u (desc.k_fixed: the kernel holds K as a constant; plan a "
                        "class for this K, or one with k_fixed 0)",
                        a->k, d->k);
  if (d->alpha == 1.0f && a->alpha != 1.0f)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "alpha %g: the plan does not scale (plan with desc.alpha other than 0 and 1 for a run-time alpha)",
                        (double)a->alpha);
  if (d->beta == 0.0f && a->beta != 0.0f)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "beta %g: the plan has no C operand (plan with desc.beta != 0)", (double)a->beta);
  bool m_edge = a->m % d->tile_m != 0, n_edge = a->n % d->tile_n != 0;
  if (p->variant == SPVGEN_GEMM_COOPMAT2 && d->edge == SPVGEN_GEMM_EDGE_SHIFT &&
      ((m_edge && a->m < d->tile_m) || (n_edge && a->n < d->tile_n)))
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "%s %u is under tile_%s %u: the shift edge mode moves edge tiles inside the matrix, which "
                        "needs at least one whole tile (a plan with edge clamp or branch serves it)",
                        m_edge && a->m < d->tile_m ? "m" : "n", m_edge && a->m < d->tile_m ? a->m : a->n,
                        m_edge && a->m < d->tile_m ? "m" : "n", m_edge && a->m < d->tile_m ? d->tile_m : d->tile_n);
  return SPVGEN_OK;
}

/* Split-K of a RUNTIME plan for a shape: the slice count (the plan's split_k, fewer where
 * K has fewer tile_k steps: no slice is empty; more where K is over split_k x
 * SPVGEN_GEMM_MAX_SERIAL_K: no slice is longer; the partials kernel reads the count off
 * the grid, the reduction from the push constants), slice size, workspace size and the
 * reduction's grid. */
static spvgen_status launch_splitk(const spvgen_gemm_config *p, const spvgen_gemm_args *a, spvgen_gemm_launch *l,
                                   uint32_t *slices, char *msg, size_t size) {
  const spvgen_gemm_desc *d = &p->desc;
  const uint32_t tk = d->tile_k, steps = gemm_ceil_div(a->k, tk);
  const uint32_t s_min = gemm_ceil_div(a->k, SPVGEN_GEMM_MAX_SERIAL_K);
  uint32_t S = d->split_k < steps ? d->split_k : steps;
  if (S < s_min) S = s_min; /* tile_k divides SPVGEN_GEMM_MAX_SERIAL_K: the slices stay within it */
  if ((uint64_t)S * a->batch > SPVGEN_GEMM_MAX_BATCH)
    return gemm_fail_fn("spvgen_gemm_launch_for", msg, size, SPVGEN_ERROR_UNSUPPORTED,
                        "k %u in slices of at most %u (SPVGEN_GEMM_MAX_SERIAL_K) takes %u slices; with batch %u "
                        "that is %llu workgroups in z, over 65535 (fewer batches per launch)",
                        a->k, SPVGEN_GEMM_MAX_SERIAL_K, S, a->batch, (unsigned long long)S * a->batch);
  l->push.slice_k = gemm_ceil_div(gemm_ceil_div(a->k, S), tk) * tk;
  S = gemm_ceil_div(a->k, l->push.slice_k); /* every slice holds some of K */
  *slices = S;
  l->push.split_k = S;
  l->push.workspace_ld = (a->n + 3u) & ~3u;
  uint64_t partials = (uint64_t)S * a->batch * a->m * l->push.workspace_ld;
  if (partials > gemm_splitk_max_words(d))
    return gemm_fail_fn("spvgen_gemm_launch_for", msg, size, SPVGEN_ERROR_UNSUPPORTED,
                        "m %u x n %u x batch %u with split_k %u: the workspace would hold %llu 32-bit words; indices "
                        "past %s are not supported", a->m, a->n, a->batch, S, (unsigned long long)partials,
                        gemm_splitk_max_words_name(d));
  l->workspace_bytes = partials * 4u;
  gemm_splitk_reduce_grid(a->m, a->n, a->batch, l->reduce_groups);
  l->reduce_push_size = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? gemm_address_base(d) : p->reduce_push_size;
  return SPVGEN_OK;
}

spvgen_status spvgen_gemm_launch_for(const spvgen_gemm_config *p, const spvgen_gemm_args *args,
                                     spvgen_gemm_launch *l, char *msg, size_t size) {
  static const char fn[] = "spvgen_gemm_launch_for";
  if (msg && size) msg[0] = 0;
  if (!l) return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "launch is NULL");
  memset(l, 0, sizeof *l);
  if (!gemm_plan_made(p))
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "plan is NULL or not made by spvgen_gemm_plan");
  const spvgen_gemm_desc *d = &p->desc;
  if (!gemm_runtime(d)) {
    if (args && (args->m != d->m || args->n != d->n || args->k != d->k || (args->batch ? args->batch : 1) != d->batch))
      return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "args %ux%ux%u (batch %u) differ from the fixed-shape plan's %ux%ux%u (batch %u): a FIXED "
                          "plan serves its own shape (plan with run-time shapes for others)", args->m, args->n, args->k,
                          args->batch ? args->batch : 1, d->m, d->n, d->k, d->batch);
    for (int i = 0; i < 3; i++)
      l->groups[i] = p->groups[i], l->reduce_groups[i] = p->reduce_groups[i], l->pack_groups[i] = p->pack_groups[i];
    l->workspace_bytes = p->workspace_bytes;
    l->pack_a_offset = p->pack_a_offset;
    l->pack_b_offset = p->pack_b_offset;
    l->reduce_push_size = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? 0 : p->reduce_push_size;
    return SPVGEN_OK;
  }
  spvgen_gemm_args a;
  spvgen_status st = resolve_args(fn, d, args, &a, msg, size);
  if (st == SPVGEN_OK) st = check_class(p, &a, msg, size);
  if (st != SPVGEN_OK) return st;
  l->push = (spvgen_gemm_push){a.m, a.n, a.k, a.batch, a.lda, a.ldb, a.ldc, a.ldd, (uint32_t)a.stride_a,
                               (uint32_t)a.stride_b, (uint32_t)a.stride_c, (uint32_t)a.stride_d, a.alpha, a.beta,
                               0, 0, 1, gemm_ceil_div(a.n, d->tile_n)};
  uint32_t slices = 1;
  if (d->split_k <= 1 && a.k > SPVGEN_GEMM_MAX_SERIAL_K)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED,
                        "k %u is over %u, the most of K one workgroup sums serially (SPVGEN_GEMM_MAX_SERIAL_K: "
                        "longer sums lose precision on tensor cores and pass lavapipe's loop budget), and this "
                        "plan does not split K: plan the class for this K (spvgen_gemm_class_for gives a split-K "
                        "plan, whose launches take any K)", a.k, SPVGEN_GEMM_MAX_SERIAL_K);
  if (d->split_k > 1 && (st = launch_splitk(p, &a, l, &slices, msg, size)) != SPVGEN_OK) return st;
  uint32_t tile_k = a.k, tile_lda = a.lda, tile_ldb = a.ldb; /* what the main kernel's tiles read */
  if (gemm_packed(d)) { /* the copies after split-K's planes */
    gemm_pack_layout pl;
    gemm_pack_layout_of(d, a.m, a.n, a.k, a.batch, l->workspace_bytes, &pl);
    if ((st = gemm_pack_check(d, &pl, a.m, a.n, a.k, a.lda, a.ldb, fn, msg, size)) != SPVGEN_OK) return st;
    l->workspace_bytes = pl.end;
    l->pack_a_offset = pl.a_off;
    l->pack_b_offset = pl.b_off;
    gemm_pack_grid(&pl, a.batch, l->pack_groups);
    if (gemm_packs(d, 'a')) tile_lda = pl.lda;
    if (gemm_packs(d, 'b')) tile_ldb = pl.ldb;
    if (gemm_packs(d, 'a') && gemm_packs(d, 'b')) tile_k = pl.kp;
  }
  spvgen_gemm_desc tiles_of = *d; /* the main kernel reads the copies in their layouts */
  tiles_of.a_layout = gemm_pack_copy_layout(d, 'a');
  tiles_of.b_layout = gemm_pack_copy_layout(d, 'b');
  if ((st = check_tiles(fn, &tiles_of, a.m, a.n, tile_k, tile_lda, tile_ldb, a.ldc, a.ldd, msg, size)) != SPVGEN_OK)
    return st;
  /* device addresses: the runner writes the pointers after the shape's push constants */
  l->push_size = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? gemm_address_base(d) : p->push_size;
  /* 65535 workgroups per dimension: the least maxComputeWorkGroupCount Vulkan allows.
   * M's tiles past it fold into dimension 0 (gemm_grid_of); the batch (x slices) in z was
   * checked with the args and split-K. */
  ek_folded_grid g = gemm_grid_of(d, a.m, a.n);
  if (g.fold > 1 && gemm_runtime(d) && !(d->codegen & SPVGEN_GEMM_CODEGEN_FOLD_M))
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED,
                        "m %u: %u tiles of M exceed 65535 workgroups in dimension 1, and this run-time class does "
                        "not fold them (SPVGEN_GEMM_CODEGEN_FOLD_M in desc.codegen), or a larger tile",
                        a.m, gemm_ceil_div(a.m, d->tile_m));
  if (g.across > EK_GRID_MAX && g.fold > 1)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED,
                        "m %u x n %u: M's %u tiles pass 65535 in dimension 1 and fold into dimension 0, where %u tiles "
                        "of N x %u folds = %llu workgroups exceed 65535 (a larger tile)",
                        a.m, a.n, gemm_ceil_div(a.m, d->tile_m), gemm_ceil_div(a.n, d->tile_n), g.fold,
                        (unsigned long long)g.across);
  if (g.across > EK_GRID_MAX)
    return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_UNSUPPORTED,
                        "n %u: %llu tiles of N in dimension 0 exceed 65535 workgroups (a larger tile)", a.n,
                        (unsigned long long)g.across);
  l->groups[0] = (uint32_t)g.across;
  l->groups[1] = g.rows;
  l->groups[2] = a.batch * slices;
  return SPVGEN_OK;
}

/* The largest power of two, at most cap, that divides v (v 0: cap). */
static uint32_t pow2_divisor(uint64_t v, uint32_t cap) {
  uint32_t q = 1;
  while (q < cap && v % (2u * q) == 0) q *= 2;
  return q;
}

spvgen_status spvgen_gemm_class_for(const spvgen_gemm_desc *base, const spvgen_gemm_args *args, spvgen_gemm_desc *out,
                                    char *msg, size_t size) {
  static const char fn[] = "spvgen_gemm_class_for";
  if (msg && size) msg[0] = 0;
  if (!base || !out) return gemm_fail_fn(fn, msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "base or out is NULL");
  spvgen_gemm_desc d = *base;
  d.shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  d.m = d.n = d.k = 0;
  d.lda = d.ldb = d.ldc = d.ldd = 0;
  d.stride_a = d.stride_b = d.stride_c = d.stride_d = 0;
  if (args && args->beta != 0.0f && d.beta == 0.0f) d.beta = args->beta; /* a C operand */
  if (args && args->alpha != 0.0f && args->alpha != 1.0f && (d.alpha == 0.0f || d.alpha == 1.0f))
    d.alpha = args->alpha; /* a run-time alpha */
  spvgen_gemm_args a;
  spvgen_status st = resolve_args(fn, &d, args, &a, msg, size);
  if (st != SPVGEN_OK) return st;
  d.m = a.m;
  d.n = a.n;
  d.k = a.k;
  d.batch = a.batch;
  d.m_multiple = pow2_divisor(a.m, 256);
  d.n_multiple = pow2_divisor(a.n, 256);
  d.k_multiple = pow2_divisor(a.k, 256);
  uint32_t q = 16;
  uint64_t lds[8] = {a.lda, a.ldb, a.ldd, a.ldc, a.stride_a, a.stride_b, a.stride_d, a.stride_c};
  for (int i = 0; i < 8; i++)
    if (lds[i] && (i < 4 || a.batch > 1)) {
      uint32_t qi = pow2_divisor(lds[i], 16);
      if (qi < q) q = qi;
    }
  d.ld_multiple = q;
  /* an M that may pass 65535 tiles of the smallest tile (16 rows): a class that folds
   * (gemm.h; its decode costs a little, so only where this M may need it) */
  if (a.m > 65535u * 16u) d.codegen |= SPVGEN_GEMM_CODEGEN_FOLD_M;
  *out = d;
  return SPVGEN_OK;
}

uint64_t spvgen_gemm_class_key(const spvgen_gemm_config *plan) {
  if (!plan) return 0;
  const spvgen_gemm_desc *d = &plan->desc;
  bool runtime = gemm_runtime(d);
  /* Field by field (no struct padding), FNV-1a; the shape values only for FIXED plans. */
  uint64_t h = 1469598103934665603ull;
  uint32_t w[64];
  uint32_t n = 0;
  float f[2] = {d->alpha, d->beta};
  uint32_t fb[2];
  memcpy(fb, f, sizeof fb);
  uint32_t fields[] = {(uint32_t)plan->variant, (uint32_t)d->a_type, (uint32_t)d->b_type, (uint32_t)d->acc_type,
                       (uint32_t)d->out_type, (uint32_t)d->a_layout, (uint32_t)d->b_layout, (uint32_t)d->c_layout,
                       (uint32_t)d->d_layout, fb[0], fb[1], (uint32_t)d->bias, (uint32_t)d->activation, d->tile_m,
                       d->tile_n, d->tile_k, d->workgroup_size, d->subgroups, d->stages,
                       /* a RUNTIME kernel reads its slice count off the grid: only split or not */
                       runtime ? (uint32_t)(d->split_k > 1) : d->split_k, d->unroll,
                       (uint32_t)d->edge, d->edge_unroll, (uint32_t)d->shapes, d->m_multiple, d->n_multiple,
                       d->k_multiple, d->ld_multiple, plan->subgroup_size, d->codegen, (uint32_t)d->pack,
                       d->pack_units, (uint32_t)d->pack_order, d->k_fixed, d->k_fixed ? d->k : 0};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) w[n++] = fields[i];
  if (d->activation == SPVGEN_ACTIVATION_LEAKY_RELU) { /* the slope is code; other keys keep their words */
    uint32_t sb;
    memcpy(&sb, &d->leaky_slope, sizeof sb);
    w[n++] = sb;
  }
  if (!runtime) {
    uint32_t shape[] = {d->m, d->n, d->k, d->batch, d->lda, d->ldb, d->ldc, d->ldd,
                        (uint32_t)d->stride_a, (uint32_t)(d->stride_a >> 32), (uint32_t)d->stride_b,
                        (uint32_t)(d->stride_b >> 32), (uint32_t)d->stride_c, (uint32_t)(d->stride_c >> 32),
                        (uint32_t)d->stride_d, (uint32_t)(d->stride_d >> 32)};
    for (size_t i = 0; i < sizeof shape / sizeof shape[0]; i++) w[n++] = shape[i];
  }
  const unsigned char *b = (const unsigned char *)w;
  for (size_t i = 0; i < n * sizeof *w; i++) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}
