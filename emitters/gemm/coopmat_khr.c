/* emitters/gemm/coopmat_khr.c — the GEMM on VK_KHR_cooperative_matrix at subgroup scope.
 *
 * Tiles. A workgroup of S subgroups (plan->subgroup_size invocations each) computes a
 * tile_m x tile_n tile of D. The subgroups form an sgr x sgc grid; each owns a warp tile
 * of warp_m x warp_n outputs, i.e. (warp_m / 16) x (warp_n / 16) accumulator fragments of
 * 16 x 16 (MatrixAccumulatorKHR) that stay in registers for the whole K loop. Per 16-
 * (f16, bf16) or 32-wide (s8, u8) K sub-step a subgroup loads warp_m / 16 A fragments and
 * warp_n / 16 B fragments from shared memory and issues every A x B MulAdd: each A
 * fragment is reused warp_n / 16 times and each B fragment warp_m / 16 times.
 *
 * Shared layout. Shared memory is one Workgroup array of u32x4 (16-byte chunks) holding
 * `stages` copies of the A tile and the B tile, in the input type (chunks are
 * reinterpreted by OpCooperativeMatrixLoadKHR). Each operand tile is stored the way it
 * lies in memory: rows along the operand's contiguous dimension (A row-major: [m][k],
 * A column-major: [k][m], B row-major: [k][n], B column-major: [n][k]); fragments are
 * then loaded RowMajorKHR or ColumnMajorKHR accordingly, so nothing is transposed while
 * staging. Every shared row is padded by one chunk (8 halves, 16 bytes of 8-bit data):
 * the 8 row addresses one 16x16 fragment load touches fall into 8 different 16-byte
 * slots of a 128-byte bank line, so fragment loads are conflict-free.
 *
 * Copies and prefetch. Global -> shared copies move whole 16-byte chunks: each
 * invocation owns one chunk position per row pass. Where the operand's leading
 * dimension, contiguous extent and batch stride are multiples of a chunk, the chunk is
 * one 128-bit load through a second u32x4 view of the same binding (Vulkan allows
 * aliased bindings); elsewhere it is gathered from scalar loads and packed (bitcasts of
 * 2 x 16-bit or 4 x 8-bit vectors). The next K tile is fetched into registers while the
 * current one is multiplied: with stages = 2 the loop is
 *     fetch(k+1) -> regs; MulAdds on stage k&1; regs -> stage (k+1)&1; barrier
 * (one barrier per K tile: a stage is only rewritten after the barrier that follows its
 * last reads); with stages = 1: barrier; regs -> stage; barrier; fetch(k+1); MulAdds.
 *
 * Edges. Every global chunk or element is loaded from a clamped index and replaced by
 * zero outside the matrix (checks are emitted only for dimensions a tile does not
 * divide), so the MulAdds need no masking. The subgroup index is
 * LocalInvocationIndex / subgroup_size (the plan fixes the size), not SubgroupId.
 *
 * Epilogue. Where the epilogue is a plain store (or only a float conversion), D's
 * alignment allows 16-byte fragment stores and the whole workgroup tile lies inside D,
 * accumulators are stored straight to D (RowMajor/ColumnMajor by d_layout, stride ldd).
 * Otherwise each subgroup stores one row of its accumulator fragments (16 x warp_n, acc
 * type) to its own slice of shared memory (the staging area, reused), and its
 * invocations apply ek_epilogue_store element by element (alpha, beta * C, bias,
 * activation, conversion), consecutive lanes on consecutive columns, inside D only.
 *
 * u8 inputs accumulate in u32 fragments (what devices list for unsigned 8-bit); the
 * value is the s32 accumulator's bit pattern. */
#include <stdio.h>
#include <string.h>

#include "gemm_internal.h"

#define FRAG 16u      /* fragment rows (M) and columns (N) */
#define CHUNK 16u     /* bytes per staged chunk (u32x4) */
#define MAX_PASS 16u  /* chunk rows an invocation copies per operand and K tile */
#define MAX_FRAGS 8u  /* fragments per warp tile side */

/* ------------------------------------------------------------------ geometry ---- */

typedef struct khr_geom {
  uint32_t esize, epv;          /* input bytes per element; elements per chunk */
  uint32_t fk;                  /* fragment K */
  uint32_t nt, sg;              /* invocations; subgroup size */
  uint32_t sgr, sgc;            /* subgroup grid */
  uint32_t wm, wn, fm, fn;      /* warp tile and its fragment counts */
  uint32_t a_outer, a_inner, b_outer, b_inner; /* staged tiles (elements) */
  uint32_t a_rs, b_rs;          /* shared row strides (chunks) */
  uint32_t a_chunks, stage_chunks;
  uint32_t acc_size, apv;       /* accumulator bytes; accumulator elements per chunk */
  uint32_t scr_rs, scr_chunks;  /* epilogue scratch row stride / chunks per subgroup */
  uint32_t total_chunks;
} khr_geom;

static bool is_8bit(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_S8 || t == SPVGEN_COMPONENT_U8;
}

/* The accumulator type of the fragments: u8 inputs use u32 (see the top comment). */
static spvgen_component_type frag_acc(const spvgen_gemm_desc *d) {
  return d->a_type == SPVGEN_COMPONENT_U8 ? SPVGEN_COMPONENT_U32 : d->acc_type;
}

/* The sgr x sgc grid of S subgroups over a tm x tn tile with the squarest warp tile
 * (ties: taller); false when none has 16-multiple warp tiles. */
static bool split_subgroups(uint32_t s, uint32_t tm, uint32_t tn, uint32_t *sgr, uint32_t *sgc) {
  bool found = false;
  uint32_t best = 0;
  for (uint32_t r = 1; r <= s; r *= 2) {
    uint32_t c = s / r;
    if (r * c != s || tm % (r * FRAG) || tn % (c * FRAG)) continue;
    uint32_t wm = tm / r, wn = tn / c;
    uint32_t diff = wm > wn ? wm / wn : wn / wm;
    uint32_t score = diff * 2 + (wm < wn);
    if (!found || score < best) {
      found = true;
      best = score;
      *sgr = r;
      *sgc = c;
    }
  }
  return found;
}

static void geometry(const spvgen_gemm_desc *d, uint32_t sg, uint32_t fk, khr_geom *g) {
  memset(g, 0, sizeof *g);
  g->esize = spvgen_component_type_size(d->a_type);
  g->epv = CHUNK / g->esize;
  g->fk = fk;
  g->sg = sg;
  g->nt = d->subgroups * sg;
  split_subgroups(d->subgroups, d->tile_m, d->tile_n, &g->sgr, &g->sgc);
  g->wm = d->tile_m / g->sgr;
  g->wn = d->tile_n / g->sgc;
  g->fm = g->wm / FRAG;
  g->fn = g->wn / FRAG;
  bool a_row = d->a_layout == SPVGEN_ROW_MAJOR, b_row = d->b_layout == SPVGEN_ROW_MAJOR;
  g->a_outer = a_row ? d->tile_m : d->tile_k;
  g->a_inner = a_row ? d->tile_k : d->tile_m;
  g->b_outer = b_row ? d->tile_k : d->tile_n;
  g->b_inner = b_row ? d->tile_n : d->tile_k;
  g->a_rs = g->a_inner / g->epv + 1;
  g->b_rs = g->b_inner / g->epv + 1;
  g->a_chunks = g->a_outer * g->a_rs;
  g->stage_chunks = g->a_chunks + g->b_outer * g->b_rs;
  g->acc_size = spvgen_component_type_size(d->acc_type);
  g->apv = CHUNK / g->acc_size;
  g->scr_rs = g->wn / g->apv + 1;
  g->scr_chunks = FRAG * g->scr_rs;
  uint32_t staging = d->stages * g->stage_chunks;
  uint32_t scratch = d->subgroups * g->scr_chunks;
  g->total_chunks = staging > scratch ? staging : scratch;
}

/* 16-byte global loads for an operand: leading dimension, contiguous extent and batch
 * stride in whole chunks. */
static bool operand_vec_ok(const spvgen_gemm_desc *d, uint32_t epv, bool is_a) {
  spvgen_matrix_layout lay = is_a ? d->a_layout : d->b_layout;
  uint32_t ld = is_a ? d->lda : d->ldb;
  uint64_t stride = is_a ? d->stride_a : d->stride_b;
  uint32_t inner = is_a ? (lay == SPVGEN_ROW_MAJOR ? d->k : d->m)
                        : (lay == SPVGEN_ROW_MAJOR ? d->n : d->k);
  return ld % epv == 0 && inner % epv == 0 && (d->batch <= 1 || stride % epv == 0);
}

/* Fragment stores straight to D: an epilogue that is a store (or a float conversion),
 * and 16-byte aligned rows (columns) and batches. */
static bool direct_store_ok(const spvgen_gemm_desc *d) {
  if (!ek_epilogue_is_plain(d) && !ek_epilogue_is_convert_only(d)) return false;
  uint32_t os = spvgen_component_type_size(d->out_type);
  return ((uint64_t)d->ldd * os) % CHUNK == 0 &&
         (d->batch <= 1 || (d->stride_d * os) % CHUNK == 0);
}

/* ---------------------------------------------------------------------- plan ---- */

static const spvgen_coopmat_shape *find_shape(const spvgen_device_caps *caps,
                                              const spvgen_gemm_desc *d) {
  spvgen_component_type acc = frag_acc(d);
  return spvgen_caps_find_coopmat(caps, SpvScopeSubgroup, FRAG, FRAG, 0, d->a_type,
                                  d->b_type, acc, acc);
}

/* Defaults for the knobs the desc leaves at 0. */
static void default_knobs(spvgen_gemm_desc *d, uint32_t sg) {
  bool wide_acc = spvgen_component_type_size(d->acc_type) == 4;
  if (!d->tile_m && !d->tile_n) {
    uint64_t big = (uint64_t)gemm_ceil_div(d->m, 128) * gemm_ceil_div(d->n, 128) * d->batch;
    uint64_t wide = (uint64_t)gemm_ceil_div(d->m, 128) * gemm_ceil_div(d->n, 256) * d->batch;
    if (wide >= 132) {
      /* A full wave of 128x256 tiles on a 132-SM part: the fastest tiling measured on the
       * H100 (4096^3: f16 290, f16->f32 295, s8 302 TOP/s against 200-270 for 128x128;
       * bench/results/gemm-h100-2026-11-23.md). */
      d->tile_m = 128;
      d->tile_n = 256;
    } else if (big >= 96 || (d->m > 64 && d->n > 64 && big >= 16)) {
      d->tile_m = d->tile_n = 128;
    } else if (d->m <= 32 && d->n <= 32) {
      d->tile_m = d->tile_n = 32;
    } else if (d->m >= 128 && d->n <= 64) {
      d->tile_m = 128;
      d->tile_n = 64;
    } else if (d->n >= 128 && d->m <= 64) {
      d->tile_m = 64;
      d->tile_n = 128;
    } else {
      d->tile_m = d->tile_n = 64;
    }
  }
  if (!d->tile_m) d->tile_m = d->tile_n;
  if (!d->tile_n) d->tile_n = d->tile_m;
  if (!d->tile_k) d->tile_k = 64 / spvgen_component_type_size(d->a_type);
  if (!d->subgroups) {
    if (d->workgroup_size)
      d->subgroups = d->workgroup_size / sg;
    else {
      uint32_t area = d->tile_m * d->tile_n;
      /* warp tiles of 64x64 (16-bit accumulators) or 64x32 (32-bit ones) */
      uint32_t per = wide_acc ? 64 * 32 : 64 * 64;
      d->subgroups = area / per;
      if (d->subgroups < 1) d->subgroups = 1;
      if (area <= 64 * 64 && area > 32 * 32) d->subgroups = 4;
      if (d->subgroups > 8) d->subgroups = 8;
    }
  }
  /* Two stages of a 128x256 tile do not fit 48 KiB; one stage measured faster there. */
  if (!d->stages) d->stages = d->tile_m * d->tile_n >= 128 * 256 ? 1 : 2;
}

static spvgen_status khr_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg,
                              size_t size) {
  spvgen_gemm_desc *d = &p->desc;
  const char *tn = spvgen_component_type_name(d->a_type);
  if (!spvgen_caps_has(caps, SPVGEN_FEATURE_COOPMAT))
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "variant khr needs cooperativeMatrix (VK_KHR_cooperative_matrix), which %s lacks",
                     caps->name);
  if (d->a_type != d->b_type)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "a_type %s and b_type %s: the khr variant takes one input type for A and B", tn,
                     spvgen_component_type_name(d->b_type));
  if (d->a_type != SPVGEN_COMPONENT_F16 && d->a_type != SPVGEN_COMPONENT_BF16 && !is_8bit(d->a_type))
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "a_type %s: the khr variant takes f16, bf16, s8 and u8 inputs", tn);
  const spvgen_coopmat_shape *shape = find_shape(caps, d);
  if (!shape) {
    const char *acc = spvgen_component_type_name(frag_acc(d));
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "acc_type %s with %s inputs: %s lists no subgroup-scope 16x16xK cooperative "
                     "matrix %s x %s + %s -> %s (VkCooperativeMatrixPropertiesKHR)",
                     spvgen_component_type_name(d->acc_type), tn, caps->name, tn, tn, acc, acc);
  }
  if (d->a_type == SPVGEN_COMPONENT_BF16 && !spvgen_caps_has(caps, SPVGEN_FEATURE_BFLOAT16_COOPMAT))
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "a_type bf16 needs %s, which %s lacks",
                     spvgen_feature_name(SPVGEN_FEATURE_BFLOAT16_COOPMAT), caps->name);
  const uint32_t fk = shape->k;

  /* Subgroup size: the device's default; where size control can pin it, 32 if offered. */
  uint32_t sg = caps->subgroup_size ? caps->subgroup_size : 32;
  bool control = spvgen_caps_has(caps, SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL) &&
                 caps->required_subgroup_size_in_compute && caps->min_subgroup_size &&
                 caps->min_subgroup_size != caps->max_subgroup_size;
  if (control && caps->min_subgroup_size <= 32 && 32 <= caps->max_subgroup_size) sg = 32;
  if (!control && caps->min_subgroup_size && caps->min_subgroup_size != caps->max_subgroup_size)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "subgroup size %u..%u on %s: the khr variant needs a fixed subgroup size "
                     "(subgroupSizeControl with requiredSubgroupSizeStages including compute)",
                     caps->min_subgroup_size, caps->max_subgroup_size, caps->name);

  if (d->workgroup_size % sg)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "workgroup_size %u is not a whole number of subgroups of %u invocations",
                     d->workgroup_size, sg);
  default_knobs(d, sg);
  const uint32_t tm = d->tile_m, tnn = d->tile_n, tk = d->tile_k;
  if (!gemm_pow2(tm) || tm < 16 || tm > 256 || !gemm_pow2(tnn) || tnn < 16 || tnn > 256)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "tile_m %u / tile_n %u: the khr variant takes powers of two from 16 to 256", tm, tnn);
  if (!gemm_pow2(tk) || tk % fk || tk < fk || tk > 8 * fk)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "tile_k %u: the khr variant takes a power of two multiple of the fragment K %u "
                     "(up to %u)", tk, fk, 8 * fk);
  if (!gemm_pow2(d->subgroups) || d->subgroups > 16)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "subgroups %u: the khr variant takes 1, 2, 4, 8 or 16 subgroups", d->subgroups);
  uint32_t sgr = 0, sgc = 0;
  if (!split_subgroups(d->subgroups, tm, tnn, &sgr, &sgc))
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "subgroups %u: a %ux%u tile cannot be split into %u warp tiles of whole 16x16 "
                     "fragments", d->subgroups, tm, tnn, d->subgroups);
  if (tm / sgr / FRAG > MAX_FRAGS || tnn / sgc / FRAG > MAX_FRAGS)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "subgroups %u: warp tile %ux%u of a %ux%u tile has more than %u fragments a side "
                     "(more subgroups)", d->subgroups, tm / sgr, tnn / sgc, tm, tnn, MAX_FRAGS);
  uint32_t nt = d->subgroups * sg;
  if (d->workgroup_size && d->workgroup_size != nt)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "workgroup_size %u: %u subgroups of %u invocations make %u", d->workgroup_size,
                     d->subgroups, sg, nt);
  d->workgroup_size = nt;
  if (nt > caps->max_workgroup_invocations || nt > caps->max_workgroup_size[0])
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "workgroup_size %u is over %s's limit %u", nt, caps->name,
                     caps->max_workgroup_invocations);
  if (d->unroll && d->unroll != tk / fk)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "unroll %u: the khr variant unrolls the tile_k / frag_k = %u K sub-steps fully",
                     d->unroll, tk / fk);
  d->unroll = tk / fk;

  khr_geom g;
  geometry(d, sg, fk, &g);
  /* Each invocation copies whole chunks, the same chunk column in every row pass. */
  uint32_t cpr_a = g.a_inner / g.epv, cpr_b = g.b_inner / g.epv;
  if (!cpr_a || !cpr_b || nt % cpr_a || nt % cpr_b)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "tile %ux%ux%u with %u invocations: a staged row must be a whole number of "
                     "16-byte chunks dividing the workgroup", tm, tnn, tk, nt);
  if (gemm_ceil_div(g.a_outer, nt / cpr_a) > MAX_PASS || gemm_ceil_div(g.b_outer, nt / cpr_b) > MAX_PASS)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "tile %ux%ux%u: more than %u chunks per invocation to stage (more subgroups)",
                     tm, tnn, tk, MAX_PASS);
  p->shared_bytes = g.total_chunks * CHUNK;
  if (p->shared_bytes > caps->max_shared_memory)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "tile %ux%ux%u with stages %u needs %u bytes of shared memory; %s has %u "
                     "(stages 1 or a smaller tile)", tm, tnn, tk, d->stages, p->shared_bytes,
                     caps->name, caps->max_shared_memory);

  p->local_size[0] = nt;
  p->local_size[1] = p->local_size[2] = 1;
  p->frag_m = FRAG;
  p->frag_n = FRAG;
  p->frag_k = fk;
  p->warp_m = g.wm;
  p->warp_n = g.wn;
  p->subgroup_size = sg;
  p->features = SPVGEN_FEATURE_COOPMAT | (control ? SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL : 0) |
                (d->a_type == SPVGEN_COMPONENT_BF16 ? SPVGEN_FEATURE_BFLOAT16_COOPMAT : 0);
  gemm_set_grid(p);
  char extra[48];
  ek_str x = ek_str_start(extra, sizeof extra); /* "sg%ux%ux%u w%ux%u s%u" */
  ek_str_put(&x, "sg");
  ek_str_u32(&x, FRAG);
  ek_str_put(&x, "x");
  ek_str_u32(&x, FRAG);
  ek_str_put(&x, "x");
  ek_str_u32(&x, fk);
  ek_str_put(&x, " w");
  ek_str_u32(&x, g.wm);
  ek_str_put(&x, "x");
  ek_str_u32(&x, g.wn);
  ek_str_put(&x, " s");
  ek_str_u32(&x, d->stages);
  gemm_plan_name(p, extra);
  return SPVGEN_OK;
}

static uint32_t khr_candidates(const spvgen_device_caps *caps, const spvgen_gemm_desc *desc,
                               spvgen_gemm_desc *out, uint32_t max) {
  (void)caps;
  /* tile_m, tile_n, tile_k in chunks of K bytes (1: 64 bytes, 2: 128), subgroups, stages */
  static const uint32_t tiles[][5] = {
      {128, 128, 1, 8, 2}, {128, 128, 1, 4, 2}, {128, 256, 1, 8, 1}, {256, 128, 1, 8, 1},
      {128, 128, 2, 4, 1}, {128, 128, 2, 8, 1}, {128, 128, 1, 8, 1}, {128, 64, 1, 4, 2},
      {64, 128, 1, 4, 2},  {128, 64, 1, 8, 2},  {64, 128, 1, 8, 2},  {64, 64, 1, 4, 2},
      {64, 64, 2, 4, 2},   {64, 64, 1, 2, 2},   {32, 32, 1, 1, 2},   {32, 64, 1, 2, 2},
      {64, 32, 1, 2, 2},   {256, 128, 1, 16, 1}};
  uint32_t esize = spvgen_component_type_size(desc->a_type);
  if (!esize) return 0;
  uint32_t n = 0;
  for (size_t i = 0; i < sizeof tiles / sizeof tiles[0] && n < max; i++) {
    spvgen_gemm_desc d = *desc;
    uint32_t tk = tiles[i][2] * 64 / esize;
    if ((d.tile_m && d.tile_m != tiles[i][0]) || (d.tile_n && d.tile_n != tiles[i][1]) ||
        (d.tile_k && d.tile_k != tk) || (d.subgroups && d.subgroups != tiles[i][3]) ||
        (d.stages && d.stages != tiles[i][4]))
      continue;
    d.tile_m = tiles[i][0];
    d.tile_n = tiles[i][1];
    d.tile_k = tk;
    d.subgroups = tiles[i][3];
    d.stages = tiles[i][4];
    out[n++] = d;
  }
  return n;
}

/* ---------------------------------------------------------------------- emit ---- */

typedef struct khr_ctx {
  spvgen_module *m;
  const spvgen_gemm_desc *d;
  const khr_geom *g;
  uint32_t u32, v4, bool_t, wp4, smem;
} khr_ctx;

/* One operand's global -> shared copy. The staged tile is `outer` rows of `inner`
 * elements (the operand's contiguous dimension); K advances the outer or the inner
 * coordinate. */
typedef struct khr_copy {
  bool vec;
  ek_buffer buf, buf4;
  spvgen_component_type type;
  uint32_t outer, inner, rs;        /* tile extents (elements), shared row stride (chunks) */
  uint32_t outer_lim, inner_lim, ld;
  bool k_outer;
  uint32_t outer0, inner0;          /* ids: the tile's origin along the non-K coordinate */
  uint32_t base, base4;             /* batch offsets: elements / chunks (0: none) */
  uint32_t stage_off;               /* chunk offset of the operand in a stage */
  uint32_t passes, rpp;             /* row passes; rows per pass */
  uint32_t o_t, i_t;                /* ids: this invocation's row in a pass, chunk in a row */
  bool check_o, check_i, partial;
  uint32_t regs[MAX_PASS];
} khr_copy;

static void copy_init(khr_ctx *c, khr_copy *cp, bool is_a, const ek_buffer *buf, uint32_t tid,
                      uint32_t bm, uint32_t bn, uint32_t z) {
  spvgen_module *m = c->m;
  const spvgen_gemm_desc *d = c->d;
  const khr_geom *g = c->g;
  memset(cp, 0, sizeof *cp);
  cp->buf = *buf;
  cp->type = is_a ? d->a_type : d->b_type;
  bool row = (is_a ? d->a_layout : d->b_layout) == SPVGEN_ROW_MAJOR;
  cp->vec = operand_vec_ok(d, g->epv, is_a);
  if (cp->vec) {
    cp->buf4 = ek_buffer_decl(m, c->v4, is_a ? 0 : 1, true, is_a ? "A4" : "B4");
  }
  cp->outer = is_a ? g->a_outer : g->b_outer;
  cp->inner = is_a ? g->a_inner : g->b_inner;
  cp->rs = is_a ? g->a_rs : g->b_rs;
  cp->stage_off = is_a ? 0 : g->a_chunks;
  cp->ld = is_a ? d->lda : d->ldb;
  uint32_t tile_mn = is_a ? d->tile_m : d->tile_n;
  uint32_t lim_mn = is_a ? d->m : d->n;
  uint32_t org = is_a ? bm : bn;
  /* A row-major: [m][k]; A column-major: [k][m]; B row-major: [k][n]; B column-major: [n][k] */
  cp->k_outer = is_a ? !row : row;
  uint32_t zero = ek_u32(m, 0);
  if (cp->k_outer) {
    cp->outer_lim = d->k;
    cp->inner_lim = lim_mn;
    cp->outer0 = zero;
    cp->inner0 = org;
    cp->check_o = d->k % d->tile_k != 0;
    cp->check_i = lim_mn % tile_mn != 0;
  } else {
    cp->outer_lim = lim_mn;
    cp->inner_lim = d->k;
    cp->outer0 = org;
    cp->inner0 = zero;
    cp->check_o = lim_mn % tile_mn != 0;
    cp->check_i = d->k % d->tile_k != 0;
  }
  /* Scalar gathers check each element; a chunk straddles the edge only there. */
  if (!cp->vec && cp->inner_lim % g->epv) cp->check_i = true;
  uint64_t stride = is_a ? d->stride_a : d->stride_b;
  cp->base = gemm_batch_offset(m, d, z, stride);
  cp->base4 = cp->vec ? gemm_batch_offset(m, d, z, stride / g->epv) : 0;
  uint32_t cpr = cp->inner / g->epv;
  cp->rpp = g->nt / cpr;
  cp->passes = gemm_ceil_div(cp->outer, cp->rpp);
  cp->partial = cp->outer % cp->rpp != 0;
  cp->o_t = ek_div(m, tid, ek_u32(m, cpr));
  cp->i_t = ek_mod(m, tid, ek_u32(m, cpr));
  for (uint32_t e = 0; e < cp->passes; e++)
    cp->regs[e] = ek_local(m, c->v4, spvgen_const_null(m, c->v4));
}

/* A 16-byte chunk gathered from scalars: element t at index idx0 + t, zero where the
 * inner coordinate inner_g + t is outside (or the whole chunk is, by `inb`). */
static uint32_t gather_chunk(khr_ctx *c, const khr_copy *cp, uint32_t idx0, uint32_t inner_g,
                             uint32_t inb) {
  spvgen_module *m = c->m;
  const khr_geom *g = c->g;
  uint32_t st = cp->buf.elem_type;
  uint32_t zero_s = spvgen_const_null(m, st);
  uint32_t per_word = 4 / g->esize;
  uint32_t wvec = spvgen_type_vector(m, st, per_word);
  uint32_t words[4];
  uint32_t zero_u = ek_u32(m, 0);
  for (uint32_t w = 0; w < 4; w++) {
    uint32_t parts[4];
    for (uint32_t t = 0; t < per_word; t++) {
      uint32_t off = ek_u32(m, w * per_word + t);
      uint32_t ok = inb;
      if (cp->check_i) {
        uint32_t in_i = ek_lt(m, ek_add(m, inner_g, off), ek_u32(m, cp->inner_lim));
        ok = ok ? ek_and(m, ok, in_i) : in_i;
      }
      uint32_t idx = ek_add(m, idx0, off);
      if (ok) idx = spvgen_op_select(m, c->u32, ok, idx, zero_u);
      uint32_t v = spvgen_load(m, st, ek_elem(m, &cp->buf, idx));
      if (ok) v = spvgen_op_select(m, st, ok, v, zero_s);
      parts[t] = v;
    }
    words[w] = spvgen_op_bitcast(m, c->u32, spvgen_op_composite_construct(m, wvec, parts, per_word));
  }
  return spvgen_op_composite_construct(m, c->v4, words, 4);
}

/* Global -> registers for the K tile starting at k0 (an id). */
static void copy_fetch(khr_ctx *c, khr_copy *cp, uint32_t k0) {
  spvgen_module *m = c->m;
  const khr_geom *g = c->g;
  uint32_t zero_u = ek_u32(m, 0);
  uint32_t zero4 = spvgen_const_null(m, c->v4);
  uint32_t ig = ek_add(m, ek_mul(m, cp->i_t, ek_u32(m, g->epv)), cp->inner0);
  if (!cp->k_outer) ig = ek_add(m, ig, k0);
  for (uint32_t e = 0; e < cp->passes; e++) {
    uint32_t o = ek_add(m, cp->o_t, ek_u32(m, e * cp->rpp));
    uint32_t og = ek_add(m, o, cp->outer0);
    if (cp->k_outer) og = ek_add(m, og, k0);
    uint32_t inb = 0;
    if (cp->partial && e == cp->passes - 1) inb = ek_lt(m, o, ek_u32(m, cp->outer));
    if (cp->check_o) {
      uint32_t t = ek_lt(m, og, ek_u32(m, cp->outer_lim));
      inb = inb ? ek_and(m, inb, t) : t;
    }
    uint32_t v;
    if (cp->vec) {
      if (cp->check_i) {
        uint32_t t = ek_lt(m, ig, ek_u32(m, cp->inner_lim));
        inb = inb ? ek_and(m, inb, t) : t;
      }
      uint32_t idx = ek_add(m, ek_mul(m, og, ek_u32(m, cp->ld / g->epv)),
                            ek_div(m, ig, ek_u32(m, g->epv)));
      if (cp->base4) idx = ek_add(m, idx, cp->base4);
      if (inb) idx = spvgen_op_select(m, c->u32, inb, idx, zero_u);
      v = spvgen_load(m, c->v4, ek_elem(m, &cp->buf4, idx));
      if (inb) v = spvgen_op_select(m, c->v4, inb, v, zero4);
    } else {
      uint32_t idx0 = ek_add(m, ek_mul(m, og, ek_u32(m, cp->ld)), ig);
      if (cp->base) idx0 = ek_add(m, idx0, cp->base);
      v = gather_chunk(c, cp, idx0, ig, inb);
    }
    spvgen_store(m, cp->regs[e], v);
  }
}

/* Registers -> the stage at chunk offset `stage` (an id). */
static void copy_store(khr_ctx *c, khr_copy *cp, uint32_t stage) {
  spvgen_module *m = c->m;
  uint32_t base = ek_add(m, stage, ek_add(m, ek_mul(m, cp->o_t, ek_u32(m, cp->rs)),
                                          ek_add(m, cp->i_t, ek_u32(m, cp->stage_off))));
  for (uint32_t e = 0; e < cp->passes; e++) {
    bool guard = cp->partial && e == cp->passes - 1;
    if (guard) spvgen_if(m, ek_lt(m, ek_add(m, cp->o_t, ek_u32(m, e * cp->rpp)), ek_u32(m, cp->outer)));
    uint32_t idx[1] = {ek_add(m, base, ek_u32(m, e * cp->rpp * cp->rs))};
    spvgen_store(m, spvgen_access_chain(m, c->wp4, c->smem, idx, 1), spvgen_load(m, c->v4, cp->regs[e]));
    if (guard) spvgen_end_if(m);
  }
}

static void khr_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  const spvgen_gemm_desc *d = &p->desc;
  khr_geom g;
  geometry(d, p->subgroup_size, p->frag_k, &g);
  const uint32_t BM = d->tile_m, BN = d->tile_n, BK = d->tile_k;
  khr_ctx c = {m, d, &g, 0, 0, 0, 0, 0};
  c.u32 = ek_u32_type(m);
  c.v4 = spvgen_type_vector(m, c.u32, 4);
  c.bool_t = ek_bool_type(m);
  c.wp4 = spvgen_type_pointer(m, SpvStorageClassWorkgroup, c.v4);
  uint32_t wpu = spvgen_type_pointer(m, SpvStorageClassWorkgroup, c.u32);

  ek_buffer A, B;
  ek_epilogue epi;
  ek_gemm_buffers(m, d, &A, &B, &epi);
  uint32_t sm_t = spvgen_type_array(m, c.v4, g.total_chunks);
  c.smem = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, sm_t),
                           SpvStorageClassWorkgroup, 0);
  spvgen_name(m, c.smem, "smem");
  uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  uint32_t lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);

  spvgen_component_type facc = frag_acc(d);
  uint32_t in_t = ek_type(m, d->a_type), facc_t = ek_type(m, facc);
  uint32_t ta = spvgen_type_coopmat(m, in_t, SpvScopeSubgroup, FRAG, g.fk, SpvCooperativeMatrixUseMatrixAKHR);
  uint32_t tb = spvgen_type_coopmat(m, in_t, SpvScopeSubgroup, g.fk, FRAG, SpvCooperativeMatrixUseMatrixBKHR);
  uint32_t tc = spvgen_type_coopmat(m, facc_t, SpvScopeSubgroup, FRAG, FRAG,
                                    SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  const uint32_t muladd_ops = ek_is_float(d->a_type) ? 0 : SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES;

  spvgen_compute_main(m, "main", g.nt, 1, 1);
  uint32_t zero_u = ek_u32(m, 0);
  uint32_t tid = ek_load_u32(m, lid_var);
  uint32_t sgid = ek_div(m, tid, ek_u32(m, g.sg));
  uint32_t lane = ek_mod(m, tid, ek_u32(m, g.sg));
  uint32_t wr = ek_div(m, sgid, ek_u32(m, g.sgc));
  uint32_t wc = ek_mod(m, sgid, ek_u32(m, g.sgc));
  uint32_t bn = ek_mul(m, ek_load_v3_component(m, wg_var, 0), ek_u32(m, BN));
  uint32_t bm = ek_mul(m, ek_load_v3_component(m, wg_var, 1), ek_u32(m, BM));
  uint32_t z = ek_load_v3_component(m, wg_var, 2);
  epi.d_base = gemm_batch_offset(m, d, z, d->stride_d);
  epi.c_base = epi.c.var ? gemm_batch_offset(m, d, z, d->stride_c) : 0;

  khr_copy ca, cb;
  copy_init(&c, &ca, true, &A, tid, bm, bn, z);
  copy_init(&c, &cb, false, &B, tid, bm, bn, z);

  /* Accumulators. */
  uint32_t zero_acc = spvgen_coop_splat(m, tc, spvgen_const_null(m, facc_t));
  uint32_t accv[MAX_FRAGS * MAX_FRAGS];
  for (uint32_t i = 0; i < g.fm * g.fn; i++) accv[i] = ek_local(m, tc, zero_acc);

  /* Fragment addressing (chunks): per-subgroup parts and strides. */
  bool a_row = d->a_layout == SPVGEN_ROW_MAJOR, b_row = d->b_layout == SPVGEN_ROW_MAJOR;
  uint32_t wm0 = ek_mul(m, wr, ek_u32(m, g.wm)), wn0 = ek_mul(m, wc, ek_u32(m, g.wn));
  uint32_t a_sub = a_row ? ek_mul(m, wm0, ek_u32(m, g.a_rs)) : ek_div(m, wm0, ek_u32(m, g.epv));
  uint32_t b_sub = b_row ? ek_div(m, wn0, ek_u32(m, g.epv)) : ek_mul(m, wn0, ek_u32(m, g.b_rs));
  uint32_t a_stride = g.a_rs, b_stride = g.b_rs; /* elements (vec4 chunks), values */
  SpvCooperativeMatrixLayout a_lay = a_row ? SpvCooperativeMatrixLayoutRowMajorKHR
                                           : SpvCooperativeMatrixLayoutColumnMajorKHR;
  SpvCooperativeMatrixLayout b_lay = b_row ? SpvCooperativeMatrixLayoutRowMajorKHR
                                           : SpvCooperativeMatrixLayoutColumnMajorKHR;

  const uint32_t num_k = gemm_ceil_div(d->k, BK);
  uint32_t Kt = ek_u32(m, num_k);
  uint32_t ktv = ek_local(m, c.u32, zero_u);

  /* Prologue: the first K tile. */
  copy_fetch(&c, &ca, zero_u);
  copy_fetch(&c, &cb, zero_u);
  if (d->stages == 2) {
    copy_store(&c, &ca, zero_u);
    copy_store(&c, &cb, zero_u);
    spvgen_workgroup_barrier(m);
  }

  spvgen_loop(m, SpvLoopControlMaskNone);
  uint32_t kt = ek_load_u32(m, ktv);
  spvgen_loop_while(m, ek_lt(m, kt, Kt));
  {
    uint32_t k_next = ek_mul(m, ek_add(m, kt, ek_u32(m, 1)), ek_u32(m, BK));
    uint32_t has_next = ek_lt(m, ek_add(m, kt, ek_u32(m, 1)), Kt);
    uint32_t stage;
    if (d->stages == 2) {
      stage = ek_mul(m, spvgen_op_bitwise_and(m, c.u32, kt, ek_u32(m, 1)), ek_u32(m, g.stage_chunks));
      if (num_k > 1) {
        spvgen_if(m, has_next);
        copy_fetch(&c, &ca, k_next);
        copy_fetch(&c, &cb, k_next);
        spvgen_end_if(m);
      }
    } else {
      stage = zero_u;
      spvgen_workgroup_barrier(m);
      copy_store(&c, &ca, zero_u);
      copy_store(&c, &cb, zero_u);
      spvgen_workgroup_barrier(m);
      if (num_k > 1) {
        spvgen_if(m, has_next);
        copy_fetch(&c, &ca, k_next);
        copy_fetch(&c, &cb, k_next);
        spvgen_end_if(m);
      }
    }
    /* MulAdds over the stage. */
    uint32_t a_at = ek_add(m, stage, a_sub);
    uint32_t b_at = ek_add(m, ek_add(m, stage, ek_u32(m, g.a_chunks)), b_sub);
    uint32_t acc[MAX_FRAGS * MAX_FRAGS];
    for (uint32_t i = 0; i < g.fm * g.fn; i++) acc[i] = spvgen_load(m, tc, accv[i]);
    for (uint32_t ks = 0; ks < BK / g.fk; ks++) {
      uint32_t fa[MAX_FRAGS], fb[MAX_FRAGS];
      for (uint32_t i = 0; i < g.fm; i++) {
        uint32_t off = a_row ? i * FRAG * g.a_rs + ks * g.fk / g.epv : ks * g.fk * g.a_rs + i * FRAG / g.epv;
        uint32_t idx[1] = {ek_add(m, a_at, ek_u32(m, off))};
        fa[i] = spvgen_coopmat_load(m, ta, spvgen_access_chain(m, c.wp4, c.smem, idx, 1), a_lay, a_stride, NULL);
      }
      for (uint32_t j = 0; j < g.fn; j++) {
        uint32_t off = b_row ? ks * g.fk * g.b_rs + j * FRAG / g.epv : j * FRAG * g.b_rs + ks * g.fk / g.epv;
        uint32_t idx[1] = {ek_add(m, b_at, ek_u32(m, off))};
        fb[j] = spvgen_coopmat_load(m, tb, spvgen_access_chain(m, c.wp4, c.smem, idx, 1), b_lay, b_stride, NULL);
      }
      for (uint32_t i = 0; i < g.fm; i++)
        for (uint32_t j = 0; j < g.fn; j++)
          acc[i * g.fn + j] = spvgen_coopmat_muladd(m, tc, fa[i], fb[j], acc[i * g.fn + j], muladd_ops);
    }
    for (uint32_t i = 0; i < g.fm * g.fn; i++) spvgen_store(m, accv[i], acc[i]);
    if (d->stages == 2) {
      if (num_k > 1) {
        spvgen_if(m, has_next);
        uint32_t next = spvgen_op_i_sub(m, c.u32, ek_u32(m, g.stage_chunks), stage);
        copy_store(&c, &ca, next);
        copy_store(&c, &cb, next);
        spvgen_end_if(m);
      }
      spvgen_workgroup_barrier(m);
    }
  }
  spvgen_loop_continue_block(m);
  spvgen_store(m, ktv, ek_add(m, kt, ek_u32(m, 1)));
  spvgen_end_loop(m);

  /* ---- epilogue ---- */
  uint32_t Mc = ek_u32(m, d->m), Nc = ek_u32(m, d->n);
  bool full_static = d->m % BM == 0 && d->n % BN == 0;
  bool direct = direct_store_ok(d) && d->m >= BM && d->n >= BN;
  bool shared_path = !direct || !full_static;
  if (shared_path && d->stages == 1) spvgen_workgroup_barrier(m); /* the last MulAdds read stage 0 */
  if (direct) {
    if (!full_static)
      spvgen_if(m, ek_and(m, ek_lt(m, bm, ek_u32(m, d->m - BM + 1)), ek_lt(m, bn, ek_u32(m, d->n - BN + 1))));
    uint32_t out_t = ek_type(m, d->out_type);
    uint32_t to = d->out_type == d->acc_type ? tc
                  : spvgen_type_coopmat(m, out_t, SpvScopeSubgroup, FRAG, FRAG,
                                        SpvCooperativeMatrixUseMatrixAccumulatorKHR);
    SpvCooperativeMatrixLayout d_lay = d->d_layout == SPVGEN_ROW_MAJOR
                                           ? SpvCooperativeMatrixLayoutRowMajorKHR
                                           : SpvCooperativeMatrixLayoutColumnMajorKHR;
    uint32_t r0 = ek_add(m, bm, wm0), c0 = ek_add(m, bn, wn0);
    for (uint32_t i = 0; i < g.fm; i++)
      for (uint32_t j = 0; j < g.fn; j++) {
        uint32_t r = ek_add(m, r0, ek_u32(m, i * FRAG)), col = ek_add(m, c0, ek_u32(m, j * FRAG));
        uint32_t v = spvgen_load(m, tc, accv[i * g.fn + j]);
        if (to != tc) v = spvgen_coop_convert(m, to, v);
        uint32_t ptr = ek_elem(m, &epi.d, ek_matrix_index(m, d->d_layout, d->ldd, r, col, epi.d_base));
        spvgen_coopmat_store(m, ptr, v, d_lay, d->ldd, NULL);
      }
    if (!full_static) spvgen_else(m);
  }
  if (shared_path) {
    /* Per subgroup: a 16 x warp_n slice of scratch, one fragment row at a time. */
    uint32_t scr = ek_mul(m, sgid, ek_u32(m, g.scr_chunks));
    uint32_t scr_stride = ek_u32(m, g.scr_rs);
    uint32_t acc_t = ek_type(m, d->acc_type);
    uint32_t ev = ek_local(m, c.u32, zero_u);
    for (uint32_t i = 0; i < g.fm; i++) {
      for (uint32_t j = 0; j < g.fn; j++) {
        uint32_t idx[1] = {ek_add(m, scr, ek_u32(m, j * FRAG / g.apv))};
        spvgen_coopmat_store(m, spvgen_access_chain(m, c.wp4, c.smem, idx, 1),
                             spvgen_load(m, tc, accv[i * g.fn + j]),
                             SpvCooperativeMatrixLayoutRowMajorKHR, g.scr_rs, NULL);
      }
      ek_subgroup_barrier(m);
      spvgen_store(m, ev, lane);
      spvgen_loop(m, SpvLoopControlMaskNone);
      uint32_t e = ek_load_u32(m, ev);
      spvgen_loop_while(m, ek_lt(m, e, ek_u32(m, FRAG * g.wn)));
      {
        uint32_t r = ek_div(m, e, ek_u32(m, g.wn));
        uint32_t col = ek_mod(m, e, ek_u32(m, g.wn));
        uint32_t chunk = ek_add(m, scr, ek_add(m, ek_mul(m, r, scr_stride), ek_div(m, col, ek_u32(m, g.apv))));
        uint32_t in_chunk = ek_mod(m, col, ek_u32(m, g.apv));
        uint32_t word_i = g.acc_size == 4 ? in_chunk : ek_div(m, in_chunk, ek_u32(m, 2));
        uint32_t wi[2] = {chunk, word_i};
        uint32_t word = spvgen_load(m, c.u32, spvgen_access_chain(m, wpu, c.smem, wi, 2));
        uint32_t v;
        if (g.acc_size == 4) {
          v = spvgen_op_bitcast(m, acc_t, word);
        } else {
          uint32_t v2t = spvgen_type_vector(m, acc_t, 2);
          v = spvgen_op_vector_extract_dynamic(m, acc_t, spvgen_op_bitcast(m, v2t, word),
                                               ek_mod(m, in_chunk, ek_u32(m, 2)));
        }
        uint32_t gr = ek_add(m, ek_add(m, bm, wm0), ek_add(m, r, ek_u32(m, i * FRAG)));
        uint32_t gc = ek_add(m, ek_add(m, bn, wn0), col);
        if (!full_static) spvgen_if(m, ek_and(m, ek_lt(m, gr, Mc), ek_lt(m, gc, Nc)));
        ek_epilogue_store(m, &epi, v, gr, gc);
        if (!full_static) spvgen_end_if(m);
      }
      spvgen_loop_continue_block(m);
      spvgen_store(m, ev, ek_add(m, e, ek_u32(m, g.sg)));
      spvgen_end_loop(m);
      ek_subgroup_barrier(m);
    }
  }
  if (direct && !full_static) spvgen_end_if(m);
  spvgen_function_end(m);
}

const gemm_variant_ops gemm_variant_khr = {"khr", khr_plan, khr_candidates, khr_emit};
