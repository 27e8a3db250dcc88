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
 * LocalInvocationIndex / subgroup_size (the plan fixes the size), not SubgroupId. With
 * device addresses each workgroup first moves its pointers (64-bit) to its batch and its
 * tile (A's first row, B's first column, D's and C's first element), and its copies count
 * rows and columns from there (the bounds: what remains of M and N).
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
 * value is the s32 accumulator's bit pattern.
 *
 * Split-K (split_k > 1; spvgen/gemm.h, splitk.c): this is the partials kernel. The K
 * loop runs over the workgroup's slice (absolute K offsets, so the K-edge fetch is the
 * tile where K itself ends, in the last slice), and the element-wise path stores the
 * slice's partials (f32 bits for float accumulators, s32 for integer ones) to its
 * workspace plane instead of running the epilogue; the reduction (splitk_reduce.c) sums
 * the planes and runs it. */
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
 * stride in whole chunks (for every shape of a RUNTIME plan's class). */
static bool operand_vec_ok(const spvgen_gemm_desc *d, uint32_t epv, bool is_a) {
  spvgen_matrix_layout lay = is_a ? d->a_layout : d->b_layout;
  char inner = is_a ? (lay == SPVGEN_ROW_MAJOR ? 'k' : 'm') : (lay == SPVGEN_ROW_MAJOR ? 'n' : 'k');
  return gemm_ld_multiple(d, is_a ? d->lda : d->ldb, is_a ? d->stride_a : d->stride_b, epv) &&
         gemm_dim_multiple(d, inner, epv);
}

/* Fragment stores straight to D: an epilogue that is a store (or a float conversion),
 * and 16-byte aligned rows (columns) and batches. */
static bool direct_store_ok(const spvgen_gemm_desc *d) {
  if (!ek_epilogue_is_plain(d) && !ek_epilogue_is_convert_only(d)) return false;
  uint32_t os = spvgen_component_type_size(d->out_type);
  return gemm_ld_multiple(d, d->ldd, d->stride_d, CHUNK / os);
}

/* ---------------------------------------------------------------------- plan ---- */

static const spvgen_coopmat_shape *find_shape(const spvgen_device_caps *caps,
                                              const spvgen_gemm_desc *d) {
  spvgen_component_type acc = frag_acc(d);
  return spvgen_caps_find_coopmat(caps, SpvScopeSubgroup, FRAG, FRAG, 0, d->a_type,
                                  d->b_type, acc, acc);
}

/* Defaults for the knobs the desc leaves at 0. */
static void default_knobs(spvgen_gemm_desc *d, uint32_t sg, uint32_t units) {
  bool wide_acc = spvgen_component_type_size(d->acc_type) == 4;
  if (!d->tile_m && !d->tile_n) {
    uint64_t big = (uint64_t)gemm_ceil_div(d->m, 128) * gemm_ceil_div(d->n, 128) * d->batch;
    uint64_t wide = (uint64_t)gemm_ceil_div(d->m, 128) * gemm_ceil_div(d->n, 256) * d->batch;
    if (d->split_k > 1) { /* split-K: every slice is a workgroup of its own */
      big *= d->split_k;
      wide *= d->split_k;
    }
    /* A tile wider than the matrix computes its empty columns at the full tile's cost:
     * the 256-wide tile only for N over 128, the 128-wide ones for N over 64 (1048576 x 64
     * x 256 nt: 1.157 ms on 128x256 tiles, 0.510 on 128x64; H100, call S21-3 and S21-4,
     * docs/design-notes.md, "Tiles wider than the matrix"). */
    if (wide >= units && d->n > 128) {
      /* A full wave of 128x256 tiles on a 132-SM part: the fastest tiling measured
       * (docs/design-notes.md, "Measurements behind source comments"). */
      d->tile_m = 128;
      d->tile_n = 256;
    } else if (d->n > 64 && (big >= 96 || (d->m > 64 && big >= 16))) {
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

/* What the device must have for the desc's types: cooperative matrices with a 16x16xK
 * subgroup shape for (a_type, acc). Returns the shape's K in *fk. */
static spvgen_status khr_check_types(const spvgen_device_caps *caps, const spvgen_gemm_desc *d, uint32_t *fk,
                                     char *msg, size_t size) {
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
  *fk = shape->k;
  return SPVGEN_OK;
}

/* The subgroup size the kernel assumes: the device's default; where size control can pin
 * it, 32 if offered. *control: the plan pins it. */
static spvgen_status khr_subgroup_size(const spvgen_device_caps *caps, uint32_t *sg, bool *control, char *msg,
                                       size_t size) {
  *sg = caps->subgroup_size ? caps->subgroup_size : 32;
  *control = spvgen_caps_has(caps, SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL) && caps->required_subgroup_size_in_compute &&
             caps->min_subgroup_size && caps->min_subgroup_size != caps->max_subgroup_size;
  if (*control && caps->min_subgroup_size <= 32 && 32 <= caps->max_subgroup_size) *sg = 32;
  if (!*control && caps->min_subgroup_size && caps->min_subgroup_size != caps->max_subgroup_size)
    return gemm_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                     "subgroup size %u..%u on %s: the khr variant needs a fixed subgroup size "
                     "(subgroupSizeControl with requiredSubgroupSizeStages including compute)",
                     caps->min_subgroup_size, caps->max_subgroup_size, caps->name);
  return SPVGEN_OK;
}

/* The knobs (defaults filled) against what the kernel can do: tile sides, K step,
 * subgroups and their warp tiles, workgroup size, unroll. */
static spvgen_status khr_check_knobs(const spvgen_device_caps *caps, spvgen_gemm_desc *d, uint32_t sg, uint32_t fk,
                                     char *msg, size_t size) {
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
  return SPVGEN_OK;
}

/* The staging geometry against the workgroup and shared memory; fills the plan's
 * derived fields and name. */
static spvgen_status khr_fill(const spvgen_device_caps *caps, spvgen_gemm_config *p, uint32_t sg, uint32_t fk,
                              bool control, char *msg, size_t size) {
  spvgen_gemm_desc *d = &p->desc;
  const uint32_t tm = d->tile_m, tnn = d->tile_n, tk = d->tile_k, nt = d->workgroup_size;
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

static spvgen_status khr_plan(const spvgen_device_caps *caps, spvgen_gemm_config *p, char *msg, size_t size) {
  spvgen_gemm_desc *d = &p->desc;
  uint32_t fk = 0, sg = 0;
  bool control = false;
  spvgen_status st;
  if ((st = khr_check_types(caps, d, &fk, msg, size)) != SPVGEN_OK) return st;
  if ((st = khr_subgroup_size(caps, &sg, &control, msg, size)) != SPVGEN_OK) return st;
  if (d->workgroup_size % sg)
    return gemm_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "workgroup_size %u is not a whole number of subgroups of %u invocations",
                     d->workgroup_size, sg);
  default_knobs(d, sg, gemm_units(caps));
  if ((st = khr_check_knobs(caps, d, sg, fk, msg, size)) != SPVGEN_OK) return st;
  return khr_fill(caps, p, sg, fk, control, msg, size);
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

/* One operand's global -> shared copy. The staged tile is `outer` rows of `inner`
 * elements (the operand's contiguous dimension); K advances the outer or the inner
 * coordinate. */
typedef struct khr_copy {
  bool vec;
  ek_buffer buf, buf4;
  uint32_t outer, inner, rs;        /* tile extents (elements), shared row stride (chunks) */
  uint32_t outer_lim, inner_lim, ld; /* ids: the matrix's extents, its leading dimension */
  bool k_outer;
  uint32_t outer0, inner0;          /* ids: the tile's origin along the non-K coordinate */
  uint32_t base, base4;             /* batch offsets: elements / chunks (0: none) */
  uint32_t stage_off;               /* chunk offset of the operand in a stage */
  uint32_t passes, rpp;             /* row passes; rows per pass */
  uint32_t o_t, i_t;                /* ids: this invocation's row in a pass, chunk in a row */
  bool check_o, check_i, partial;
  uint32_t regs[MAX_PASS];
} khr_copy;

/* What the kernel's phases share. */
typedef struct khr_kernel {
  const spvgen_gemm_desc *d;
  khr_geom g;
  uint32_t u32, v4;
  ek_shared smem;                   /* u32x4[]: the stages, then the epilogue's scratch */
  ek_buffer A, B;
  ek_epilogue epi;
  ek_gemm_shape sh;                 /* extents, leading dimensions, strides, scalars (ids) */
  gemm_grid_vars grid; /* WorkgroupId (and NumWorkgroups) */
  uint32_t lid_var;
  uint32_t ta, tb, tc;              /* fragment types: A, B, accumulator */
  uint32_t muladd_ops;
  uint32_t tid, sgid, lane, wr, wc; /* invocation, subgroup, lane, subgroup row / column */
  uint32_t bm, bn, z;               /* tile origin, batch */
  uint32_t wm0, wn0;                /* the subgroup's warp tile within the workgroup tile */
  uint32_t a_sub, b_sub;            /* its first A / B fragment in a stage (chunks) */
  uint32_t acc[MAX_FRAGS * MAX_FRAGS];
  khr_copy ca, cb;
  bool split;                       /* split-K: the partials kernel */
  gemm_splitk sk;
  uint32_t plane;                   /* split-K: the slice's plane (word index) */
} khr_kernel;

/* Bindings, shared memory, built-ins and fragment types, before the entry point. */
static void khr_declare(spvgen_module *m, const spvgen_gemm_config *p, khr_kernel *k) {
  const spvgen_gemm_desc *d = &p->desc;
  memset(k, 0, sizeof *k);
  k->d = d;
  geometry(d, p->subgroup_size, p->frag_k, &k->g);
  k->u32 = ek_u32_type(m);
  k->v4 = spvgen_type_vector(m, k->u32, 4);
  ek_buffer ws;
  memset(&ws, 0, sizeof ws);
  ek_gemm_interface(m, p, &k->A, &k->B, &k->epi, &k->sh, &ws);
  k->split = d->split_k > 1;
  if (k->split) gemm_splitk_declare(m, p, &k->sk, ws.ptr_type ? &ws : NULL);
  k->smem = ek_shared_array(m, k->v4, k->g.total_chunks, "smem");
  gemm_grid_declare(m, p, &k->grid);
  k->lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  uint32_t in_t = ek_type(m, d->a_type), facc_t = ek_type(m, frag_acc(d));
  k->ta = spvgen_type_coopmat(m, in_t, SpvScopeSubgroup, FRAG, k->g.fk, SpvCooperativeMatrixUseMatrixAKHR);
  k->tb = spvgen_type_coopmat(m, in_t, SpvScopeSubgroup, k->g.fk, FRAG, SpvCooperativeMatrixUseMatrixBKHR);
  k->tc = spvgen_type_coopmat(m, facc_t, SpvScopeSubgroup, FRAG, FRAG, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  k->muladd_ops = ek_is_float(d->a_type) ? 0 : SPVGEN_COOPMAT_SIGNEDNESS_FROM_TYPES;
}

/* In main: the invocation's subgroup and lane, the subgroup's warp tile, the tile
 * origin and batch offsets. */
static void khr_ids(spvgen_module *m, const spvgen_gemm_config *p, khr_kernel *k) {
  const spvgen_gemm_desc *d = k->d;
  const khr_geom *g = &k->g;
  ek_gemm_shape_load(m, p, &k->sh);
  k->epi.shape = &k->sh;
  k->tid = ek_load_u32(m, k->lid_var);
  k->sgid = ek_div_imm(m, k->tid, g->sg);
  k->lane = ek_mod_imm(m, k->tid, g->sg);
  k->wr = ek_div_imm(m, k->sgid, g->sgc);
  k->wc = ek_mod_imm(m, k->sgid, g->sgc);
  gemm_tile_origin(m, p, &k->sh, &k->grid, &k->bm, &k->bn);
  k->z = ek_load_v3_component(m, k->grid.wg, 2);
  if (k->split) { /* z is slice x batch + b; D and C are the reduction's */
    gemm_splitk_ids(m, &k->sk, &k->sh, &k->grid, k->z);
    k->z = k->sk.z;
    k->plane = gemm_splitk_plane(m, &k->sk, k->sk.slice);
    return;
  }
  k->epi.d_base = gemm_batch_offset(m, d, &k->sh, k->z, k->sh.stride_d, &k->epi.d);
  k->epi.c_base = k->epi.c.var ? gemm_batch_offset(m, d, &k->sh, k->z, k->sh.stride_c, &k->epi.c) : 0;
  ek_epilogue_move(m, &k->epi, k->bm, k->bn); /* device addresses: D and C from the tile */
}

/* ------------------------------------------------------------------ staging ---- */

static void copy_init(spvgen_module *m, khr_kernel *k, khr_copy *cp, bool is_a) {
  const spvgen_gemm_desc *d = k->d;
  const khr_geom *g = &k->g;
  memset(cp, 0, sizeof *cp);
  cp->buf = is_a ? k->A : k->B;
  uint32_t stride = is_a ? k->sh.stride_a : k->sh.stride_b;
  /* Device addresses: the batch moves the pointer (64-bit) before the 128-bit view is
   * made from it; descriptors: element offsets below. */
  const bool bda = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (bda) gemm_batch_offset(m, d, &k->sh, k->z, stride, &cp->buf);
  bool row = (is_a ? d->a_layout : d->b_layout) == SPVGEN_ROW_MAJOR;
  /* ... and on to the tile's first row (A) or column (B), whose bytes are whole 16-byte
   * chunks where the 128-bit view is used (ld and the tile are multiples of a chunk) */
  uint32_t org = is_a ? k->bm : k->bn;
  if (bda)
    ek_buffer_move_to(m, &cp->buf, is_a ? d->a_layout : d->b_layout, is_a ? k->sh.lda : k->sh.ldb, is_a ? org : 0,
                      is_a ? 0 : org);
  cp->vec = operand_vec_ok(d, g->epv, is_a);
  if (cp->vec) cp->buf4 = ek_buffer_view(m, &cp->buf, k->v4, is_a ? 0 : 1, true, is_a ? "A4" : "B4");
  cp->outer = is_a ? g->a_outer : g->b_outer;
  cp->inner = is_a ? g->a_inner : g->b_inner;
  cp->rs = is_a ? g->a_rs : g->b_rs;
  cp->stage_off = is_a ? 0 : g->a_chunks;
  cp->ld = is_a ? k->sh.lda : k->sh.ldb;
  if (cp->vec) cp->ld = ek_gemm_aligned(m, &k->sh, cp->ld, g->epv);
  uint32_t tile_mn = is_a ? d->tile_m : d->tile_n;
  uint32_t lim_mn = is_a ? k->sh.m : k->sh.n;
  if (bda) { /* coordinates count from the tile: its origin is 0 and M (N) what remains */
    lim_mn = ek_isub(m, lim_mn, org);
    org = ek_u32(m, 0);
  }
  /* A row-major: [m][k]; A column-major: [k][m]; B row-major: [k][n]; B column-major: [n][k] */
  cp->k_outer = is_a ? !row : row;
  uint32_t zero = ek_u32(m, 0);
  bool k_edge = !gemm_dim_multiple(d, 'k', d->tile_k), mn_edge = !gemm_dim_multiple(d, is_a ? 'm' : 'n', tile_mn);
  cp->outer_lim = cp->k_outer ? k->sh.k : lim_mn;
  cp->inner_lim = cp->k_outer ? lim_mn : k->sh.k;
  cp->outer0 = cp->k_outer ? zero : org;
  cp->inner0 = cp->k_outer ? org : zero;
  cp->check_o = cp->k_outer ? k_edge : mn_edge;
  cp->check_i = cp->k_outer ? mn_edge : k_edge;
  /* Scalar gathers check each element; a chunk straddles the edge only there. */
  if (!cp->vec && !gemm_dim_multiple(d, cp->k_outer ? (is_a ? 'm' : 'n') : 'k', g->epv)) cp->check_i = true;
  if (!bda) {
    cp->base = gemm_batch_offset(m, d, &k->sh, k->z, stride, NULL);
    cp->base4 = cp->vec ? gemm_batch_offset(m, d, &k->sh, k->z, ek_div_imm(m, stride, g->epv), NULL) : 0;
  }
  uint32_t cpr = cp->inner / g->epv;
  cp->rpp = g->nt / cpr;
  cp->passes = gemm_ceil_div(cp->outer, cp->rpp);
  cp->partial = cp->outer % cp->rpp != 0;
  cp->o_t = ek_div_imm(m, k->tid, cpr);
  cp->i_t = ek_mod_imm(m, k->tid, cpr);
  for (uint32_t e = 0; e < cp->passes; e++) cp->regs[e] = ek_local(m, k->v4, spvgen_const_null(m, k->v4));
}

/* A 16-byte chunk gathered from scalars: element t at index idx0 + t, zero where the
 * inner coordinate inner_g + t is outside (or the whole chunk is, by `inb`). */
static uint32_t gather_chunk(spvgen_module *m, const khr_kernel *k, const khr_copy *cp, uint32_t idx0,
                             uint32_t inner_g, uint32_t inb) {
  uint32_t st = cp->buf.elem_type;
  uint32_t zero_s = spvgen_const_null(m, st);
  uint32_t per_word = 4 / k->g.esize;
  uint32_t wvec = spvgen_type_vector(m, st, per_word);
  uint32_t words[4];
  for (uint32_t w = 0; w < 4; w++) {
    uint32_t parts[4];
    for (uint32_t t = 0; t < per_word; t++) {
      uint32_t off = w * per_word + t;
      uint32_t ok = ek_all(m, inb, ek_below(m, cp->check_i, ek_add_imm(m, inner_g, off), cp->inner_lim));
      uint32_t idx = ek_select(m, ok, ek_add_imm(m, idx0, off), ek_u32(m, 0));
      parts[t] = ek_select(m, ok, ek_load_elem(m, &cp->buf, idx), zero_s);
    }
    words[w] = spvgen_op_bitcast(m, k->u32, spvgen_op_composite_construct(m, wvec, parts, per_word));
  }
  return spvgen_op_composite_construct(m, k->v4, words, 4);
}

/* A 16-byte chunk from scalars without zero fill: element t at index row + inner(t), where
 * inner(t) is inner_g + t, clamped to inner_lim - 1 when `clamp` (the chunk may reach past
 * M or N, whose products land in outputs that are never stored). */
static uint32_t gather_chunk_fast(spvgen_module *m, const khr_kernel *k, const khr_copy *cp, uint32_t row,
                                  uint32_t inner_g, bool clamp) {
  uint32_t st = cp->buf.elem_type;
  uint32_t per_word = 4 / k->g.esize;
  uint32_t wvec = spvgen_type_vector(m, st, per_word);
  uint32_t last = clamp ? ek_isub(m, cp->inner_lim, ek_u32(m, 1)) : 0;
  uint32_t idx0 = ek_iadd(m, row, inner_g);
  uint32_t words[4];
  for (uint32_t w = 0; w < 4; w++) {
    uint32_t parts[4];
    for (uint32_t t = 0; t < per_word; t++) {
      uint32_t off = w * per_word + t;
      uint32_t idx = clamp ? ek_iadd(m, row, ek_umin(m, ek_add_imm(m, inner_g, off), last)) : ek_add_imm(m, idx0, off);
      parts[t] = ek_load_elem(m, &cp->buf, idx);
    }
    words[w] = spvgen_op_bitcast(m, k->u32, spvgen_op_composite_construct(m, wvec, parts, per_word));
  }
  return spvgen_op_composite_construct(m, k->v4, words, 4);
}

/* Global -> registers for the K tile starting at k0 (an id).
 *   checked: every chunk or element bounds-checked and zero outside the matrix (the K
 *            edge's tile, where K ends inside; and every tile under
 *            SPVGEN_GEMM_CODEGEN_CHECK_ALL);
 *   fast:    the tile lies inside K, so only M or N can be crossed: there the row (column)
 *            index is clamped to the last one instead of zero-filled (what it feeds is
 *            never stored), and nothing is selected. */
static void copy_fetch_mode(spvgen_module *m, const khr_kernel *k, khr_copy *cp, uint32_t k0, bool checked) {
  const khr_geom *g = &k->g;
  uint32_t ig = ek_iadd(m, ek_mul_imm(m, cp->i_t, g->epv), cp->inner0);
  if (!cp->k_outer) ig = ek_iadd(m, ig, k0);
  /* fast: which coordinate may cross M or N (the other one is K) */
  bool clamp_o = !cp->k_outer && cp->check_o, clamp_i = cp->k_outer && cp->check_i;
  for (uint32_t e = 0; e < cp->passes; e++) {
    uint32_t o = ek_add_imm(m, cp->o_t, e * cp->rpp);
    bool spare = cp->partial && e == cp->passes - 1; /* some invocations have no row in this pass */
    /* fast: a spare invocation loads the tile's last row again (not stored) */
    if (spare && !checked) o = ek_min_imm(m, o, cp->outer - 1);
    uint32_t og = ek_iadd(m, o, cp->outer0);
    if (cp->k_outer) og = ek_iadd(m, og, k0);
    uint32_t inb = checked ? ek_below(m, spare, o, ek_u32(m, cp->outer)) : 0;
    uint32_t v;
    if (!checked) {
      if (clamp_o) og = ek_umin(m, og, ek_isub(m, cp->outer_lim, ek_u32(m, 1)));
      if (cp->vec) {
        uint32_t ic = ek_div_imm(m, ig, g->epv);
        if (clamp_i) ic = ek_umin(m, ic, ek_isub(m, ek_div_imm(m, cp->inner_lim, g->epv), ek_u32(m, 1)));
        uint32_t idx = ek_iadd(m, ek_imul(m, og, ek_div_imm(m, cp->ld, g->epv)), ic);
        if (cp->base4) idx = ek_iadd(m, idx, cp->base4);
        v = ek_load_elem(m, &cp->buf4, idx);
      } else {
        uint32_t row = ek_imul(m, og, cp->ld);
        if (cp->base) row = ek_iadd(m, row, cp->base);
        v = gather_chunk_fast(m, k, cp, row, ig, clamp_i);
      }
      spvgen_store(m, cp->regs[e], v);
      continue;
    }
    inb = ek_all(m, inb, ek_below(m, cp->check_o, og, cp->outer_lim));
    if (cp->vec) {
      inb = ek_all(m, inb, ek_below(m, cp->check_i, ig, cp->inner_lim));
      uint32_t idx = ek_iadd(m, ek_imul(m, og, ek_div_imm(m, cp->ld, g->epv)), ek_div_imm(m, ig, g->epv));
      if (cp->base4) idx = ek_iadd(m, idx, cp->base4);
      idx = ek_select(m, inb, idx, ek_u32(m, 0));
      v = ek_select(m, inb, ek_load_elem(m, &cp->buf4, idx), spvgen_const_null(m, k->v4));
    } else {
      uint32_t idx0 = ek_iadd(m, ek_imul(m, og, cp->ld), ig);
      if (cp->base) idx0 = ek_iadd(m, idx0, cp->base);
      v = gather_chunk(m, k, cp, idx0, ig, inb);
    }
    spvgen_store(m, cp->regs[e], v);
  }
}

/* Registers -> the stage at chunk offset `stage` (an id). */
static void copy_store(spvgen_module *m, const khr_kernel *k, const khr_copy *cp, uint32_t stage) {
  uint32_t row = ek_mul_imm(m, cp->o_t, cp->rs);
  uint32_t base = ek_iadd(m, stage, ek_iadd(m, row, ek_add_imm(m, cp->i_t, cp->stage_off)));
  for (uint32_t e = 0; e < cp->passes; e++) {
    ek_guard g = ek_guard_begin(m, ek_below(m, cp->partial && e == cp->passes - 1,
                                            ek_add_imm(m, cp->o_t, e * cp->rpp), ek_u32(m, cp->outer)));
    ek_shared_store(m, &k->smem, ek_add_imm(m, base, e * cp->rpp * cp->rs), spvgen_load(m, k->v4, cp->regs[e]));
    ek_guard_end(m, g);
  }
}

/* Both operands' K tile at k0 into registers: the fast fetch where the tile lies inside K,
 * the checked one for the tile K ends in (a uniform branch: K and k0 are the same in the
 * whole workgroup; none when the class's K is a multiple of tile_k). */
static void copy_fetch_both(spvgen_module *m, khr_kernel *k, uint32_t k0) {
  const spvgen_gemm_desc *d = k->d;
  if (d->codegen & SPVGEN_GEMM_CODEGEN_CHECK_ALL) {
    copy_fetch_mode(m, k, &k->ca, k0, true);
    copy_fetch_mode(m, k, &k->cb, k0, true);
    return;
  }
  if (gemm_dim_multiple(d, 'k', d->tile_k)) {
    copy_fetch_mode(m, k, &k->ca, k0, false);
    copy_fetch_mode(m, k, &k->cb, k0, false);
    return;
  }
  spvgen_if(m, ek_ule(m, ek_add_imm(m, k0, d->tile_k), k->sh.k));
  copy_fetch_mode(m, k, &k->ca, k0, false);
  copy_fetch_mode(m, k, &k->cb, k0, false);
  spvgen_else(m);
  copy_fetch_mode(m, k, &k->ca, k0, true);
  copy_fetch_mode(m, k, &k->cb, k0, true);
  spvgen_end_if(m);
}

static void copy_store_both(spvgen_module *m, khr_kernel *k, uint32_t stage) {
  copy_store(m, k, &k->ca, stage);
  copy_store(m, k, &k->cb, stage);
}

/* ---------------------------------------------------------------- main loop ---- */

/* The subgroup's warp tile of fragments: where its A and B fragments start in a stage
 * (chunks), and its accumulators, zero. */
static void warp_tile_init(spvgen_module *m, khr_kernel *k) {
  const khr_geom *g = &k->g;
  bool a_row = k->d->a_layout == SPVGEN_ROW_MAJOR, b_row = k->d->b_layout == SPVGEN_ROW_MAJOR;
  uint32_t zero_acc = spvgen_coop_splat(m, k->tc, spvgen_const_null(m, spvgen_type_element(m, k->tc)));
  for (uint32_t i = 0; i < g->fm * g->fn; i++) k->acc[i] = ek_local(m, k->tc, zero_acc);
  k->wm0 = ek_mul_imm(m, k->wr, g->wm);
  k->wn0 = ek_mul_imm(m, k->wc, g->wn);
  k->a_sub = a_row ? ek_mul_imm(m, k->wm0, g->a_rs) : ek_div_imm(m, k->wm0, g->epv);
  k->b_sub = b_row ? ek_div_imm(m, k->wn0, g->epv) : ek_mul_imm(m, k->wn0, g->b_rs);
}

/* The MulAdds of one K tile out of the stage at chunk offset `stage`: per K sub-step,
 * the warp tile's A and B fragments, then every A x B product into the accumulators. */
static void warp_tile_muladds(spvgen_module *m, const khr_kernel *k, uint32_t stage) {
  const khr_geom *g = &k->g;
  bool a_row = k->d->a_layout == SPVGEN_ROW_MAJOR, b_row = k->d->b_layout == SPVGEN_ROW_MAJOR;
  SpvCooperativeMatrixLayout a_lay = a_row ? SpvCooperativeMatrixLayoutRowMajorKHR : SpvCooperativeMatrixLayoutColumnMajorKHR;
  SpvCooperativeMatrixLayout b_lay = b_row ? SpvCooperativeMatrixLayoutRowMajorKHR : SpvCooperativeMatrixLayoutColumnMajorKHR;
  uint32_t a_at = ek_iadd(m, stage, k->a_sub);
  uint32_t b_at = ek_iadd(m, ek_add_imm(m, stage, g->a_chunks), k->b_sub);
  uint32_t acc[MAX_FRAGS * MAX_FRAGS];
  for (uint32_t i = 0; i < g->fm * g->fn; i++) acc[i] = spvgen_load(m, k->tc, k->acc[i]);
  for (uint32_t ks = 0; ks < k->d->tile_k / g->fk; ks++) {
    uint32_t fa[MAX_FRAGS], fb[MAX_FRAGS];
    for (uint32_t i = 0; i < g->fm; i++) {
      uint32_t off = a_row ? i * FRAG * g->a_rs + ks * g->fk / g->epv : ks * g->fk * g->a_rs + i * FRAG / g->epv;
      fa[i] = spvgen_coopmat_load(m, k->ta, ek_at(m, k->smem.var, ek_add_imm(m, a_at, off)), a_lay, g->a_rs, NULL);
    }
    for (uint32_t j = 0; j < g->fn; j++) {
      uint32_t off = b_row ? ks * g->fk * g->b_rs + j * FRAG / g->epv : j * FRAG * g->b_rs + ks * g->fk / g->epv;
      fb[j] = spvgen_coopmat_load(m, k->tb, ek_at(m, k->smem.var, ek_add_imm(m, b_at, off)), b_lay, g->b_rs, NULL);
    }
    for (uint32_t i = 0; i < g->fm; i++)
      for (uint32_t j = 0; j < g->fn; j++)
        acc[i * g->fn + j] = spvgen_coopmat_muladd(m, k->tc, fa[i], fb[j], acc[i * g->fn + j], k->muladd_ops);
  }
  for (uint32_t i = 0; i < g->fm * g->fn; i++) spvgen_store(m, k->acc[i], acc[i]);
}

/* The K loop over tiles kt, with the next tile fetched into registers while this one is
 * multiplied:
 *   stages 2: fetch(kt + 1); MulAdds on stage kt & 1; store to stage (kt + 1) & 1; barrier
 *   stages 1: barrier; store; barrier; fetch(kt + 1); MulAdds on the one stage. */
static void khr_main_loop(spvgen_module *m, khr_kernel *k) {
  const spvgen_gemm_desc *d = k->d;
  /* K tiles: ceil(K / BK) (a constant for FIXED shapes); one tile has no next one. */
  const bool two = d->stages == 2;
  const bool single = !gemm_runtime(d) && gemm_ceil_div(d->k, d->tile_k) <= 1;
  uint32_t zero = ek_u32(m, 0);
  /* the K range: all of K, or the workgroup's slice (empty for a slice past K) */
  uint32_t kb = zero, span = k->sh.k;
  if (k->split) {
    kb = k->sk.k_begin;
    span = ek_isub(m, ek_select(m, ek_ult(m, k->sk.k_end, kb), kb, k->sk.k_end), kb);
  }
  uint32_t Kt = ek_div_imm(m, ek_add_imm(m, span, d->tile_k - 1), d->tile_k);
  copy_fetch_both(m, k, kb); /* prologue: the first K tile */
  if (two) {
    copy_store_both(m, k, zero);
    spvgen_workgroup_barrier(m);
  }
  ek_for kl;
  /* the quick-compile form (spvgen_gemm_plan_quick) keeps the driver from unrolling it */
  uint32_t kt = ek_for_begin(m, &kl, zero, Kt, ek_u32(m, 1),
                             d->codegen & SPVGEN_GEMM_CODEGEN_MAIN_NO_UNROLL ? SpvLoopControlDontUnrollMask
                                                                             : SpvLoopControlMaskNone);
  uint32_t k_next = ek_iadd(m, kb, ek_mul_imm(m, ek_add_imm(m, kt, 1), d->tile_k));
  uint32_t has_next = single ? 0 : ek_ult(m, ek_add_imm(m, kt, 1), Kt);
  uint32_t stage = zero;
  if (two) {
    stage = ek_mul_imm(m, spvgen_op_bitwise_and(m, k->u32, kt, ek_u32(m, 1)), k->g.stage_chunks);
  } else {
    spvgen_workgroup_barrier(m);
    copy_store_both(m, k, zero);
    spvgen_workgroup_barrier(m);
  }
  if (has_next) {
    ek_guard g = ek_guard_begin(m, has_next);
    copy_fetch_both(m, k, k_next);
    ek_guard_end(m, g);
  }
  warp_tile_muladds(m, k, stage);
  if (two) {
    if (has_next) {
      ek_guard g = ek_guard_begin(m, has_next);
      copy_store_both(m, k, ek_isub(m, ek_u32(m, k->g.stage_chunks), stage));
      ek_guard_end(m, g);
    }
    spvgen_workgroup_barrier(m);
  }
  ek_for_end(m, &kl);
}

/* ----------------------------------------------------------------- epilogue ---- */

/* Fragments straight to D (the whole workgroup tile inside D, checked here unless the
 * tile divides M and N). */
static void epilogue_direct(spvgen_module *m, const khr_kernel *k) {
  const spvgen_gemm_desc *d = k->d;
  const khr_geom *g = &k->g;
  uint32_t out_t = ek_type(m, d->out_type);
  uint32_t to = d->out_type == d->acc_type
                    ? k->tc
                    : spvgen_type_coopmat(m, out_t, SpvScopeSubgroup, FRAG, FRAG, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  SpvCooperativeMatrixLayout d_lay = d->d_layout == SPVGEN_ROW_MAJOR ? SpvCooperativeMatrixLayoutRowMajorKHR
                                                                      : SpvCooperativeMatrixLayoutColumnMajorKHR;
  /* D's rows and columns from its origin: the tile's when D was moved to it */
  uint32_t r0 = k->epi.row0 ? k->wm0 : ek_iadd(m, k->bm, k->wm0);
  uint32_t c0 = k->epi.col0 ? k->wn0 : ek_iadd(m, k->bn, k->wn0);
  uint32_t ldd = ek_gemm_aligned(m, &k->sh, k->sh.ldd, CHUNK / spvgen_component_type_size(d->out_type));
  /* device addresses: Aligned 16 (Vulkan requires it on every access through a
   * PhysicalStorageBuffer pointer): D's base and rows (ldd) are whole 16-byte chunks, its
   * batches too (direct_store_ok), and the fragments start at multiples of 16 elements */
  const spvgen_memory_operands aligned16 = {SpvMemoryAccessAlignedMask, CHUNK, 0};
  const spvgen_memory_operands *mem = k->epi.d.ptr_type ? &aligned16 : NULL;
  for (uint32_t i = 0; i < g->fm; i++)
    for (uint32_t j = 0; j < g->fn; j++) {
      uint32_t r = ek_add_imm(m, r0, i * FRAG), col = ek_add_imm(m, c0, j * FRAG);
      uint32_t v = spvgen_load(m, k->tc, k->acc[i * g->fn + j]);
      if (to != k->tc) v = spvgen_coop_convert(m, to, v);
      uint32_t ptr = ek_elem(m, &k->epi.d, ek_matrix_offset(m, d->d_layout, ldd, r, col, k->epi.d_base));
      spvgen_coopmat_store_stride_id(m, ptr, v, d_lay, ldd, mem);
    }
}

/* Element by element: per subgroup, one row of its fragments (16 x warp_n) to its own
 * scratch slice of shared memory, then its lanes run ek_epilogue_store on consecutive
 * columns, inside D only. */
static void epilogue_scratch(spvgen_module *m, const khr_kernel *k, bool full_static) {
  const spvgen_gemm_desc *d = k->d;
  const khr_geom *g = &k->g;
  uint32_t scr = ek_mul_imm(m, k->sgid, g->scr_chunks);
  uint32_t acc_t = ek_type(m, d->acc_type);
  uint32_t M = k->sh.m, N = k->sh.n;
  uint32_t ev = ek_local(m, k->u32, ek_u32(m, 0));
  for (uint32_t i = 0; i < g->fm; i++) {
    for (uint32_t j = 0; j < g->fn; j++)
      spvgen_coopmat_store(m, ek_at(m, k->smem.var, ek_add_imm(m, scr, j * FRAG / g->apv)),
                           spvgen_load(m, k->tc, k->acc[i * g->fn + j]), SpvCooperativeMatrixLayoutRowMajorKHR,
                           g->scr_rs, NULL);
    ek_subgroup_barrier(m);
    ek_for el;
    uint32_t e = ek_for_begin_var(m, &el, ev, k->lane, ek_u32(m, FRAG * g->wn), ek_u32(m, g->sg),
                                  SpvLoopControlMaskNone);
    uint32_t r = ek_div_imm(m, e, g->wn), col = ek_mod_imm(m, e, g->wn);
    uint32_t chunk = ek_iadd(m, scr, ek_iadd(m, ek_mul_imm(m, r, g->scr_rs), ek_div_imm(m, col, g->apv)));
    uint32_t in_chunk = ek_mod_imm(m, col, g->apv);
    uint32_t word_i = g->acc_size == 4 ? in_chunk : ek_div_imm(m, in_chunk, 2);
    uint32_t word = spvgen_load(m, k->u32, ek_at2(m, k->smem.var, chunk, word_i));
    uint32_t v = g->acc_size == 4
                     ? spvgen_op_bitcast(m, acc_t, word)
                     : spvgen_op_vector_extract_dynamic(m, acc_t, spvgen_op_bitcast(m, spvgen_type_vector(m, acc_t, 2), word),
                                                        ek_mod_imm(m, in_chunk, 2));
    uint32_t gr = ek_iadd(m, ek_iadd(m, k->bm, k->wm0), ek_add_imm(m, r, i * FRAG));
    uint32_t gc = ek_iadd(m, ek_iadd(m, k->bn, k->wn0), col);
    ek_guard in_d = ek_guard_begin(m, full_static ? 0 : ek_all(m, ek_ult(m, gr, M), ek_ult(m, gc, N)));
    if (k->split) { /* the slice's partial: f32 bits (f16 accumulators widened), or s32 / u32 as is */
      uint32_t bits = g->acc_size == 4 ? word
                                       : spvgen_op_bitcast(m, k->u32, ek_convert(m, v, d->acc_type, SPVGEN_COMPONENT_F32));
      gemm_splitk_store(m, &k->sk, ek_iadd(m, k->plane, ek_iadd(m, ek_imul(m, gr, k->sh.workspace_ld), gc)), bits);
    } else {
      ek_epilogue_store(m, &k->epi, v, gr, gc);
    }
    ek_guard_end(m, in_d);
    ek_for_end(m, &el);
    ek_subgroup_barrier(m);
  }
}

/* Fragment stores where the epilogue is a store (or a conversion) and D's alignment
 * allows them, for tiles inside D; element by element otherwise. */
static void khr_epilogue(spvgen_module *m, const khr_kernel *k) {
  const spvgen_gemm_desc *d = k->d;
  const uint32_t BM = d->tile_m, BN = d->tile_n;
  bool full_static = gemm_dim_multiple(d, 'm', BM) && gemm_dim_multiple(d, 'n', BN);
  /* split-K: the partials element by element (the workspace's rows: N rounded up to 4) */
  bool direct = !k->split && direct_store_ok(d) && (gemm_runtime(d) || (d->m >= BM && d->n >= BN));
  bool scratch = !direct || !full_static;
  if (scratch && d->stages == 1) spvgen_workgroup_barrier(m); /* the last MulAdds read stage 0 */
  if (!direct) {
    epilogue_scratch(m, k, full_static);
    return;
  }
  if (full_static) {
    epilogue_direct(m, k);
    return;
  }
  if (gemm_runtime(d)) /* the tile inside D: bm + BM <= M, bn + BN <= N */
    spvgen_if(m, ek_all(m, ek_ule(m, ek_add_imm(m, k->bm, BM), k->sh.m), ek_ule(m, ek_add_imm(m, k->bn, BN), k->sh.n)));
  else
    spvgen_if(m, ek_all(m, ek_lt_imm(m, k->bm, d->m - BM + 1), ek_lt_imm(m, k->bn, d->n - BN + 1)));
  epilogue_direct(m, k);
  spvgen_else(m);
  epilogue_scratch(m, k, full_static);
  spvgen_end_if(m);
}

/* The kernel: staging with prefetch, the warp tiles' MulAdds per K tile, the epilogue. */
static void khr_emit(spvgen_module *m, const spvgen_gemm_config *p) {
  khr_kernel k;
  khr_declare(m, p, &k);
  spvgen_compute_main(m, "main", k.g.nt, 1, 1);
  khr_ids(m, p, &k);
  copy_init(m, &k, &k.ca, true);
  copy_init(m, &k, &k.cb, false);
  warp_tile_init(m, &k);
  khr_main_loop(m, &k);
  khr_epilogue(m, &k);
  spvgen_function_end(m);
}

const gemm_variant_ops gemm_variant_khr = {"khr", khr_plan, khr_candidates, khr_emit};
