/* emitters/mlp/layers.c — the layers variant (spvgen/mlp.h, SPVGEN_MLP_LAYERS): the network
 * as one GEMM per layer, made by the GEMM template.
 *
 * Why it exists: the fused variants keep a layer's weights, or a slab of them, in a
 * workgroup's shared memory, and the 48 KiB a workgroup gets caps the layers they run well
 * (a 256-wide layer's matrix is 128 KiB). A GEMM tiles any width; what it costs is the
 * activations' trip through memory between layers (points x width f16 written and read
 * once per layer), which wide layers amortize over 2 x width FLOPs per value.
 *
 * Each layer is D = act(A W^T + b): A the activations (points x inputs, row-major), W^T
 * the layer's row-major matrix read as a column-major K x N with ldb = row_stride / 2 (the
 * GEMM's "nt" layout: no copy of the weights), the bias a column bias, the activation in
 * the GEMM's epilogue, D f16 in the workspace (the last layer: the output type into the
 * output). The GEMMs are RUNTIME classes (M, the point count, is a push constant), so one
 * pipeline per class serves every point count; layers of one class share it. */
#include <stdio.h>
#include <string.h>

#include "../gemm/gemm_cost.h"
#include "mlp_internal.h"
#include "spvgen/gemm.h"

/* The point count the GEMMs' tiles are planned for (the plan takes any count). */
#define LAYERS_PLAN_POINTS (1u << 20)

/* Byte alignment of the workspace's second half. */
#define LAYERS_HALF_ALIGN 256u

/* The rows between layers are the plan's own: every output row of a layer depends on
 * the same input row only, so the workspace holds the point count rounded up to
 * LAYERS_ROWS, and a GEMM that reads and writes the workspace runs on that many rows:
 * its class has m_multiple LAYERS_ROWS, a multiple of every tile_m the GEMM planner
 * takes (at most 256), so no tile crosses M and the kernel has no M edge (one unclamped
 * path: coopmat2's edge branch compiles that path twice, plan_cost.c). The rows past the
 * point count compute whatever the workspace held there; no real row reads them (a GEMM
 * row reads its own row only; the reads at the caller's edge, and the training step's
 * GEMMs that sum over the points, stop at the point count). */
#define LAYERS_ROWS 256u

uint64_t mlp_layers_rows(uint64_t points) { return (points + LAYERS_ROWS - 1) / LAYERS_ROWS * LAYERS_ROWS; }

/* ------------------------------------------------------------- padding ----
 * A plan with pad_width (a hidden width not a multiple of SPVGEN_MLP_LAYERS_PAD) runs its
 * GEMMs on a padded copy of the weights: hidden layer l computes Np = its outputs rounded
 * up to 64 columns (the last layer its real outputs), layer l > 0 sums over Kp = the layer
 * before's Np (layer 0 over the real input width: A is the caller's points). The copy
 * lies in the workspace after the two activation halves, one piece per matrix and one per
 * bias, each at a multiple of LAYERS_PAD_ALIGN bytes: layer l's matrix Np rows of
 * pad_ldb(l) f16 (zeros past the real rows and columns), its bias Np f16 (zeros past the
 * real outputs; no piece with no_bias). The pad columns of a hidden layer hold act(0 + 0),
 * finite for every activation, and the next layer's zero columns of W cancel them. Kernel
 * 0 (layers_pad_emit) writes every word of the copy, so the workspace needs no
 * initialization. */
#define LAYERS_PAD_ALIGN 256u
#define LAYERS_PAD_LOCAL 256u
#define LAYERS_PAD_MAX_GROUPS 2048u
/* The pad kernel's first compile, ms, estimated (a grid-stride copy loop with a branch per
 * piece: a small fraction of one GEMM's). */
#define LAYERS_PAD_COMPILE_MS 10u

uint32_t mlp_layers_n(const spvgen_mlp_config *p, uint32_t l) {
  const uint32_t n = p->layers[l].outputs;
  return p->pad_width && l + 1 < p->layer_count ? mlp_round_up(n, p->pad_width) : n;
}

uint32_t mlp_layers_k(const spvgen_mlp_config *p, uint32_t l) { return l ? mlp_layers_n(p, l - 1) : p->layers[0].inputs; }

/* B's leading dimension: the copy's row (layer 0: its real inputs in whole 16 bytes, as
 * the weights' rows), else the weights' own row. */
static uint32_t layers_ldb(const spvgen_mlp_config *p, uint32_t l) {
  if (!p->pad_width) return p->layers[l].row_stride / 2;
  return l ? mlp_layers_k(p, l) : mlp_round_up(p->layers[0].inputs, 8);
}

static uint64_t pad_align(uint64_t x) { return (x + LAYERS_PAD_ALIGN - 1) / LAYERS_PAD_ALIGN * LAYERS_PAD_ALIGN; }

/* Byte offsets in the copy of layer l's matrix and bias (l = layer_count: the copy's
 * size, returned). */
static uint64_t pad_offsets(const spvgen_mlp_config *p, uint32_t l, uint64_t *matrix, uint64_t *bias) {
  uint64_t off = 0;
  for (uint32_t j = 0; j <= l && j < p->layer_count; j++) {
    const uint64_t m = off, b = pad_align(m + 2ull * mlp_layers_n(p, j) * layers_ldb(p, j));
    off = p->desc.no_bias ? b : pad_align(b + 2ull * mlp_layers_n(p, j));
    if (j == l) {
      if (matrix) *matrix = m;
      if (bias) *bias = b;
    }
  }
  return off;
}

uint64_t mlp_layers_pad_bytes(const spvgen_mlp_config *p) {
  return p->pad_width ? pad_offsets(p, p->layer_count, NULL, NULL) : 0;
}

static uint32_t pad_groups(const spvgen_mlp_config *p) {
  const uint64_t g = (mlp_layers_pad_bytes(p) / 4 + LAYERS_PAD_LOCAL - 1) / LAYERS_PAD_LOCAL;
  return g > LAYERS_PAD_MAX_GROUPS ? LAYERS_PAD_MAX_GROUPS : g ? (uint32_t)g : 1u;
}

/* One piece of the copy: `words` 32-bit words from word `start` of the copy, rows of
 * `row_words` words of which the first `rows` rows and `cols` f16 are the source's (at
 * word `src` of the weights, rows `src_row` words apart), zeros elsewhere. Writes the
 * word's value into `val` where invocation word i lies in the piece. */
static void pad_piece(spvgen_module *m, const ek_buffer *src, uint32_t val, uint32_t i, uint64_t start,
                      uint64_t words, uint32_t row_words, uint32_t rows, uint32_t cols, uint64_t src_word,
                      uint32_t src_row) {
  const uint32_t u32 = ek_u32_type(m);
  ek_guard in = ek_guard_begin(m, ek_and(m, ek_ule(m, ek_u32(m, (uint32_t)start), i),
                                         ek_lt_imm(m, i, (uint32_t)(start + words))));
  uint32_t local = ek_isub(m, i, ek_u32(m, (uint32_t)start));
  uint32_t r = ek_div_imm(m, local, row_words), cw = ek_mod_imm(m, local, row_words);
  ek_guard real = ek_guard_begin(m, ek_and(m, ek_lt_imm(m, r, rows), ek_lt_imm(m, cw, (cols + 1) / 2)));
  uint32_t w = ek_load_elem(m, src, ek_add_imm(m, ek_iadd(m, ek_mul_imm(m, r, src_row), cw), (uint32_t)src_word));
  if (cols % 2) /* the row's last word: its upper f16 is past the real columns */
    w = ek_select(m, ek_lt_imm(m, cw, cols / 2), w, spvgen_op_bitwise_and(m, u32, w, ek_u32(m, 0xFFFFu)));
  spvgen_store(m, val, w);
  ek_guard_end(m, real);
  ek_guard_end(m, in);
}

/* Kernel 0 of a padded plan: binding 0 the weights (u32 words), binding 1 the copy (the
 * workspace from mlp_layers_pad_offset). A grid-stride loop over the copy's words: each
 * word is 0 unless it lies inside a matrix's or a bias's real part, then the source's
 * word (two f16), its upper half cleared where the second f16 is past the real width.
 * Every size is a constant of the plan. */
static void layers_pad_emit(spvgen_module *m, const spvgen_mlp_config *p) {
  const uint32_t u32 = ek_u32_type(m);
  ek_buffer src = ek_buffer_decl(m, u32, 0, true, "weights");
  ek_buffer dst = ek_buffer_decl(m, u32, 1, false, "padded");
  uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  uint32_t lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  spvgen_name(m, spvgen_compute_main(m, "main", LAYERS_PAD_LOCAL, 1, 1), "main");
  uint32_t val = ek_local(m, u32, ek_u32(m, 0));
  const uint32_t total = (uint32_t)(mlp_layers_pad_bytes(p) / 4), stride = pad_groups(p) * LAYERS_PAD_LOCAL;
  uint32_t gid = ek_iadd(m, ek_mul_imm(m, ek_load_v3_component(m, wg_var, 0), LAYERS_PAD_LOCAL), ek_load_u32(m, lid_var));
  ek_for f;
  uint32_t i = ek_for_begin(m, &f, gid, ek_u32(m, total), ek_u32(m, stride), SpvLoopControlMaskNone);
  spvgen_store(m, val, ek_u32(m, 0));
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint64_t mo, bo;
    pad_offsets(p, l, &mo, &bo);
    const uint32_t n = mlp_layers_n(p, l), ldb = layers_ldb(p, l);
    pad_piece(m, &src, val, i, mo / 4, (uint64_t)n * ldb / 2, ldb / 2, L->outputs, L->inputs, L->matrix_offset / 4,
              L->row_stride / 4);
    if (!p->desc.no_bias) /* one row of n */
      pad_piece(m, &src, val, i, bo / 4, (n + 1) / 2, (n + 1) / 2, 1, L->outputs, L->bias_offset / 4, 0);
  }
  ek_store_elem(m, &dst, i, spvgen_load(m, u32, val));
  ek_for_end(m, &f);
  spvgen_function_end(m);
}

spvgen_status mlp_layers_gemm_class(spvgen_gemm_desc *g, const uint32_t ld[3], bool points_in_k, bool whole_rows) {
  /* the GEMM's own class of the shape (multiples of M, N, K and of the leading
   * dimensions), then any point count in the dimension that carries the points, or
   * (whole_rows) the workspace's rounded count */
  spvgen_gemm_args a = {.m = g->m, .n = g->n, .k = g->k, .batch = 1, .lda = ld[0], .ldb = ld[1], .ldd = ld[2]};
  spvgen_gemm_desc c;
  spvgen_status st = spvgen_gemm_class_for(g, &a, &c, NULL, 0);
  if (st != SPVGEN_OK) return st;
  if (points_in_k) c.k_multiple = 1;
  else c.m_multiple = whole_rows ? LAYERS_ROWS : 1;
  /* K is a layer width, the same in every call: the kernel holds it as a constant, and its
   * K loop has a fixed shape's trip count (gemm.h, k_fixed; docs/design-notes.md, "A
   * run-time class of one K") */
  if (!points_in_k) c.k_fixed = 1;
  /* the point count may pass 65535 tiles of M: the GEMMs fold their grid (gemm.h) */
  if (!points_in_k) c.codegen |= SPVGEN_GEMM_CODEGEN_FOLD_M;
  *g = c;
  return SPVGEN_OK;
}

/* Layer l's GEMM class (its shape given as the planning hint). */
static spvgen_status layer_desc(const spvgen_mlp_config *p, uint32_t l, spvgen_gemm_desc *g, uint32_t ld[3]) {
  const spvgen_mlp_desc *d = &p->desc;
  const spvgen_mlp_layer *L = &p->layers[l];
  const bool first = l == 0, last = l + 1 == p->layer_count;
  memset(g, 0, sizeof *g);
  g->shapes = SPVGEN_GEMM_SHAPES_RUNTIME;
  g->m = LAYERS_PLAN_POINTS;
  g->n = mlp_layers_n(p, l);
  g->k = mlp_layers_k(p, l);
  g->a_type = SPVGEN_COMPONENT_F16;
  g->b_type = SPVGEN_COMPONENT_F16;
  g->acc_type = SPVGEN_COMPONENT_F32;
  g->out_type = last ? d->output_type : SPVGEN_COMPONENT_F16;
  g->a_layout = SPVGEN_ROW_MAJOR;
  g->b_layout = SPVGEN_COL_MAJOR;
  g->d_layout = SPVGEN_ROW_MAJOR;
  ld[0] = first ? d->input_width : p->workspace_ld; /* lda, ldb, ldd: per call */
  ld[1] = layers_ldb(p, l);
  ld[2] = last ? d->output_width : p->workspace_ld;
  g->bias = d->no_bias ? SPVGEN_GEMM_BIAS_NONE : SPVGEN_GEMM_BIAS_COLUMN;
  g->activation = L->activation; /* every MLP activation is the GEMM epilogue's, same formulas */
  g->leaky_slope = L->activation == SPVGEN_ACTIVATION_LEAKY_RELU ? d->leaky_slope : 0.0f;
  g->split_k = 1; /* one kernel per layer: the point count fills the device */
  g->pack = SPVGEN_GEMM_PACK_NONE;
  /* The class: N and K are the layer's; leading dimensions as the buffers have; M any
   * point count where the layer reads or writes the caller's buffer, else the
   * workspace's whole rows. */
  return mlp_layers_gemm_class(g, ld, false, !first && !last);
}

/* Whether two layers' descs are one kernel: the same class (the shape hints aside). */
bool mlp_layers_same_class(const spvgen_gemm_desc *a, const spvgen_gemm_desc *b) {
  spvgen_gemm_desc x = *a, y = *b;
  x.m = y.m = 0;
  x.n = y.n = 0;
  if (!x.k_fixed) x.k = 0; /* a class of one K is that K's only */
  if (!y.k_fixed) y.k = 0;
  return !memcmp(&x, &y, sizeof x);
}

/* The GEMM plan of a class: the knobs (variant, tile, workgroup, unroll) that the GEMM's
 * planner picks for the layer's fixed shape at LAYERS_PLAN_POINTS points, where the
 * RUNTIME class can take them, else the RUNTIME planner's own. Tiles never move inside the
 * matrix (edge shift): it serves M >= tile_m only, and the first and last layers' M is
 * the caller's point count, any count down to 1 (the layers between have whole tiles of
 * rows: no M edge at all). Their edge is branch; layers_plan trades it for clamp within
 * the MLP's compile budget. */
spvgen_status mlp_layers_plan_gemm(const spvgen_device_caps *caps, const spvgen_gemm_desc *cls, const uint32_t ld[3],
                                   spvgen_gemm_config *out, char *msg, size_t size) {
  spvgen_gemm_desc fixed = *cls;
  fixed.shapes = SPVGEN_GEMM_SHAPES_FIXED;
  fixed.lda = ld[0];
  fixed.ldb = ld[1];
  fixed.ldd = ld[2];
  fixed.m_multiple = fixed.n_multiple = fixed.k_multiple = fixed.ld_multiple = 0;
  fixed.k_fixed = 0;
  spvgen_gemm_config fp;
  spvgen_gemm_desc want = *cls;
  /* the fixed shape stands in for the RUNTIME class: planned with the class's compile
   * model (emitters/gemm/gemm_cost.h) */
  if (gemm_plan_runtime_stand_in(&fixed, caps, &fp, NULL, 0) == SPVGEN_OK) {
    want.variant = fp.variant;
    want.tile_m = fp.desc.tile_m;
    want.tile_n = fp.desc.tile_n;
    want.tile_k = fp.desc.tile_k;
    want.workgroup_size = fp.desc.workgroup_size;
    want.subgroups = fp.desc.subgroups;
    want.unroll = fp.desc.unroll;
  }
  for (int attempt = 0; attempt < 2; attempt++) {
    spvgen_gemm_desc g = attempt ? *cls : want;
    for (int e = 0; e < 2; e++) {
      spvgen_status st = spvgen_gemm_plan(&g, caps, out, msg, size);
      if (st != SPVGEN_OK) break;
      if (out->desc.edge != SPVGEN_GEMM_EDGE_SHIFT) return SPVGEN_OK;
      g.edge = SPVGEN_GEMM_EDGE_BRANCH; /* shift serves M >= tile_m only */
    }
  }
  return spvgen_gemm_plan(cls, caps, out, msg, size);
}

/* Over the MLP's compile budget (desc.compile_budget_ms), the coopmat2 GEMMs at the
 * caller's edge (the first and last layers: M the point count) trade the edge mode branch
 * for clamp, one at a time, until the plan fits: branch compiles the tile path twice
 * (an unclamped interior and a clamped copy, emitters/gemm/plan_cost.c), clamp once, with
 * every tile's loads and stores bounded (slower to run: the GEMM planner ranks it under
 * branch). Shift, the one unclamped path, serves M >= tile_m only (mlp_layers_plan_gemm).
 * A kernel that layers between also run keeps branch: those run whole tiles, which
 * branch runs unclamped and clamp would not. */
static void layers_fit_budget(const spvgen_device_caps *caps, spvgen_mlp_config *p) {
  const uint32_t budget = mlp_budget_ms(&p->desc);
  for (uint32_t i = 0; i < p->gemm_count && p->compile_ms > budget; i++) {
    const spvgen_gemm_config *g = &p->gemms[i];
    if (g->variant != SPVGEN_GEMM_COOPMAT2 || g->desc.edge != SPVGEN_GEMM_EDGE_BRANCH || g->desc.m_multiple > 1)
      continue;
    bool between = false;
    for (uint32_t l = 1; l + 1 < p->layer_count; l++) between |= p->layer_gemm[l] == i;
    if (between) continue;
    spvgen_gemm_desc c = g->desc;
    c.edge = SPVGEN_GEMM_EDGE_CLAMP;
    c.edge_unroll = 0;
    spvgen_gemm_config q;
    if (spvgen_gemm_plan(&c, caps, &q, NULL, 0) != SPVGEN_OK || q.compile_ms >= g->compile_ms) continue;
    p->compile_ms = p->compile_ms - g->compile_ms + q.compile_ms;
    p->gemms[i] = q;
  }
}

/* The distinct classes (kernels) of n layers' descs. */
static uint32_t layers_class_count(const spvgen_gemm_desc *gd, uint32_t n) {
  uint32_t count = 0;
  for (uint32_t l = 0; l < n; l++) {
    uint32_t j = 0;
    while (j < l && !mlp_layers_same_class(&gd[j], &gd[l])) j++;
    count += j == l;
  }
  return count;
}

/* The plan; pad: hidden widths off 64 are padded (the inference plan), else the GEMMs
 * take the widths as they are (training's net: mlp_layers_unpad). */
static spvgen_status layers_plan_pad(const spvgen_device_caps *caps, spvgen_mlp_config *p, bool pad, char *msg,
                                     size_t size) {
  const spvgen_mlp_desc *d = &p->desc;
  p->pad_width = 0;
  for (uint32_t l = 0; pad && l + 1 < p->layer_count; l++)
    if (p->layers[l].outputs % SPVGEN_MLP_LAYERS_PAD) p->pad_width = SPVGEN_MLP_LAYERS_PAD;
  if (d->encoding != SPVGEN_MLP_ENCODING_NONE)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "layers: encoding %s is not supported (the first GEMM reads the points as they are)",
                    spvgen_mlp_encoding_name(d->encoding));
  if (d->input_type != SPVGEN_COMPONENT_F16)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "layers: input_type %s is not supported (the GEMM's A and B are one type: f16 points)",
                    spvgen_component_type_name(d->input_type));
  if (d->output_type != SPVGEN_COMPONENT_F16 && !d->no_bias)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "layers: output_type %s with biases is not supported (the GEMM's bias has the output's "
                    "type; the weights hold f16 biases)",
                    spvgen_component_type_name(d->output_type));
  if (d->addressing != SPVGEN_ADDRESSING_DESCRIPTORS)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "layers: addressing device-address is not supported (each layer binds ranges of the "
                    "weight and workspace buffers)");
  if (d->workgroup_size || d->points_per_group || d->f16_accumulation)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "layers: %s is not a knob of the layers variant (its GEMMs "
                    "choose their tiles)",
                    d->workgroup_size ? "workgroup_size" : d->points_per_group ? "points_per_group"
                                                                                : "f16_accumulation");
  /* The workspace rows: the widest hidden layer, in whole 16-byte rows. */
  uint32_t widest = 0;
  for (uint32_t l = 0; l + 1 < p->layer_count; l++)
    if (mlp_layers_n(p, l) > widest) widest = mlp_layers_n(p, l);
  p->workspace_ld = widest ? mlp_round_up(widest, 8) : 0;
  /* The padded copy's words are the pad kernel's u32 constants. */
  if (mlp_layers_pad_bytes(p) > (1ull << 31))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "layers: the weights padded to hidden widths of multiples of %u take %llu bytes of the "
                    "workspace; the pad kernel copies at most 2 GiB",
                    SPVGEN_MLP_LAYERS_PAD, (unsigned long long)mlp_layers_pad_bytes(p));
  /* Every offset a dispatch binds at must be one the device allows. */
  const uint64_t align = caps->min_storage_buffer_offset_alignment ? caps->min_storage_buffer_offset_alignment : 1;
  for (uint32_t l = 0; l < p->layer_count && !p->pad_width; l++) { /* padded: the copy's, at multiples of 256 */
    const spvgen_mlp_layer *L = &p->layers[l];
    if (L->matrix_offset % align)
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "layers: layer %u's matrix at byte %llu of the weights is not a multiple of the device's "
                      "minStorageBufferOffsetAlignment %llu (%s; the layer's GEMM binds it there)",
                      l, (unsigned long long)L->matrix_offset, (unsigned long long)align, caps->name);
    if (!d->no_bias && L->bias_offset % align)
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "layers: layer %u's bias at byte %llu of the weights is not a multiple of the device's "
                      "minStorageBufferOffsetAlignment %llu (%s; the layer's GEMM binds it there)",
                      l, (unsigned long long)L->bias_offset, (unsigned long long)align, caps->name);
  }
  if (LAYERS_HALF_ALIGN % align || (p->pad_width && LAYERS_PAD_ALIGN % align))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "layers: the device's minStorageBufferOffsetAlignment %llu (%s) does not divide the "
                    "workspace pieces' alignment %u",
                    (unsigned long long)align, caps->name, LAYERS_HALF_ALIGN);
  /* One GEMM plan per class of layers. */
  spvgen_gemm_desc classes[SPVGEN_MLP_LAYERS_MAX_GEMMS];
  p->gemm_count = 0;
  p->features = 0;
  p->compile_ms = 0;
  spvgen_gemm_desc gd[SPVGEN_MLP_MAX_LAYERS];
  uint32_t lds[SPVGEN_MLP_MAX_LAYERS][3];
  const uint32_t last = p->layer_count - 1;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    spvgen_status cst = layer_desc(p, l, &gd[l], lds[l]);
    if (cst != SPVGEN_OK)
      return mlp_fail(msg, size, cst, "layers: layer %u (%u -> %u): no GEMM class of its shape", l, gd[l].k, gd[l].n);
  }
  /* Classes of one K (the layer's input width) where they fit the plan's kernels; a network
   * whose layers need more than SPVGEN_MLP_LAYERS_MAX_GEMMS of them (widths that repeat in
   * other orders: an autoencoder's) takes classes of any K, which share a kernel across
   * input widths. */
  for (int any_k = 0; any_k < 2; any_k++) {
    if (any_k)
      for (uint32_t l = 0; l < p->layer_count; l++) gd[l].k_fixed = 0;
    /* A workspace layer whose class is the first or the last layer's but for its rows
     * takes that kernel: a compile less, at the same speed (its M is whole tiles: the
     * kernel's edge path never runs). */
    for (uint32_t l = 1; l < last; l++) {
      spvgen_gemm_desc any = gd[l];
      any.m_multiple = 1;
      if (mlp_layers_same_class(&any, &gd[0]) || mlp_layers_same_class(&any, &gd[last])) gd[l] = any;
    }
    if (layers_class_count(gd, p->layer_count) <= SPVGEN_MLP_LAYERS_MAX_GEMMS) break;
  }
  for (uint32_t l = 0; l < p->layer_count; l++) {
    spvgen_gemm_desc g = gd[l];
    const uint32_t *ld = lds[l];
    uint32_t i = 0;
    while (i < p->gemm_count && !mlp_layers_same_class(&classes[i], &g)) i++;
    if (i == p->gemm_count) {
      if (i == SPVGEN_MLP_LAYERS_MAX_GEMMS)
        return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                        "layers: layer %u needs a GEMM kernel of its own beyond the %u a plan holds "
                        "(SPVGEN_MLP_LAYERS_MAX_GEMMS: layers of the same widths and activation share one)",
                        l, SPVGEN_MLP_LAYERS_MAX_GEMMS);
      char why[384];
      spvgen_status st = mlp_layers_plan_gemm(caps, &g, ld, &p->gemms[i], why, sizeof why);
      if (st != SPVGEN_OK)
        return mlp_fail(msg, size, st, "layers: layer %u (%u -> %u) has no GEMM plan: %s", l, g.k, g.n, why);
      classes[i] = g; /* planned for its first layer's shape; serves the class */
      p->gemm_count++;
      p->features |= p->gemms[i].features;
      p->compile_ms += p->gemms[i].compile_ms;
    }
    p->layer_gemm[l] = (uint8_t)i;
  }
  if (p->pad_width) p->compile_ms += LAYERS_PAD_COMPILE_MS;
  layers_fit_budget(caps, p);
  const spvgen_gemm_config *g0 = &p->gemms[p->layer_gemm[0]];
  for (int j = 0; j < 3; j++) p->local_size[j] = g0->local_size[j];
  p->points_per_workgroup = g0->desc.tile_m;
  p->subgroup_size = g0->subgroup_size;
  p->shared_bytes = 0;
  for (uint32_t i = 0; i < p->gemm_count; i++)
    if (p->gemms[i].shared_bytes > p->shared_bytes) p->shared_bytes = p->gemms[i].shared_bytes;
  return SPVGEN_OK;
}

static spvgen_status layers_plan(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg, size_t size) {
  return layers_plan_pad(caps, p, true, msg, size);
}

spvgen_status mlp_layers_unpad(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg, size_t size) {
  if (p->variant != SPVGEN_MLP_LAYERS || !p->pad_width) return SPVGEN_OK;
  spvgen_status st = layers_plan_pad(caps, p, false, msg, size);
  if (st != SPVGEN_OK) return st;
  /* what mlp_plan_variant adds past the variant's plan (no device addresses on layers) */
  p->features |= SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT | SPVGEN_FEATURE_VULKAN_MEMORY_MODEL;
  if (p->subgroup_size) p->features |= SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL;
  const uint64_t missing = p->features & ~caps->features;
  if (missing)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the layers variant needs %s, which %s lacks",
                    spvgen_feature_name(spvgen_feature_first(missing)), caps->name);
  if (p->estimated_ns_per_point > 0) p->estimated_ns_per_point = mlp_select_estimate(caps, p);
  mlp_plan_name(p);
  return SPVGEN_OK;
}

/* The layers variant has no knobs of its own: the desc, as it is. */
static uint32_t layers_candidates(const spvgen_device_caps *caps, const spvgen_mlp_desc *desc, spvgen_mlp_desc *out,
                                  uint32_t max) {
  (void)caps;
  if (!max) return 0;
  out[0] = *desc;
  return 1;
}

/* The first layer's kernel (the table's one-kernel emit; spvgen_mlp_emit_kernel takes
 * the others). */
static void layers_emit(spvgen_module *m, const spvgen_mlp_config *p) {
  spvgen_gemm_emit_kernel(m, &p->gemms[p->layer_gemm[0]], SPVGEN_GEMM_KERNEL_MAIN, NULL);
}

const mlp_variant_ops mlp_variant_layers = {
    .name = "layers",
    .plan = layers_plan,
    .candidates = layers_candidates,
    .emit = layers_emit,
};

spvgen_status mlp_layers_emit_kernel(spvgen_module *m, const spvgen_mlp_config *p, uint32_t index,
                                     spvgen_kernel_info *info) {
  if (p->pad_width && index == 0) {
    layers_pad_emit(m, p);
    if (info) {
      memset(info, 0, sizeof *info);
      info->entry_point = "main";
      info->local_size[0] = LAYERS_PAD_LOCAL;
      info->local_size[1] = info->local_size[2] = 1;
      info->groups[0] = pad_groups(p);
      info->groups[1] = info->groups[2] = 1;
      static const char *const names[2] = {"weights", "padded"};
      static const uint32_t access[2] = {SPVGEN_ACCESS_READ, SPVGEN_ACCESS_WRITE};
      ek_info_storage_buffers(info, 2, names, access);
      info->bindings[0].min_size = p->weight_bytes;
      info->bindings[1].min_size = mlp_layers_pad_bytes(p);
    }
    return spvgen_module_status(m);
  }
  const uint32_t l = index - (p->pad_width ? 1u : 0u);
  return spvgen_gemm_emit_kernel(m, &p->gemms[p->layer_gemm[l]], SPVGEN_GEMM_KERNEL_MAIN, info);
}

uint64_t mlp_layers_half_bytes(const spvgen_mlp_config *p, uint64_t points) {
  if (p->layer_count < 2) return 0;
  uint64_t b = mlp_layers_rows(points) * p->workspace_ld * 2ull;
  return (b + LAYERS_HALF_ALIGN - 1) / LAYERS_HALF_ALIGN * LAYERS_HALF_ALIGN;
}

uint64_t mlp_layers_workspace_bytes(const spvgen_mlp_config *p, uint64_t points) {
  return 2ull * mlp_layers_half_bytes(p, points) + mlp_layers_pad_bytes(p);
}

spvgen_status mlp_layers_dispatch(const spvgen_mlp_config *p, uint32_t index, uint64_t points,
                                  spvgen_mlp_dispatch *out, char *msg, size_t size) {
  const uint32_t pad = p->pad_width ? 1u : 0u;
  const uint64_t pad_base = 2ull * mlp_layers_half_bytes(p, points); /* the copy, after the halves */
  if (pad && index == 0) { /* the pad kernel: the weights to the copy */
    memset(out, 0, sizeof *out);
    out->groups[0] = pad_groups(p);
    out->groups[1] = out->groups[2] = 1;
    out->bindings[0].buffer = SPVGEN_MLP_BUFFER_WEIGHTS;
    out->bindings[1].buffer = SPVGEN_MLP_BUFFER_WORKSPACE;
    out->bindings[1].offset = pad_base;
    out->binding_count = 2;
    return SPVGEN_OK;
  }
  const uint32_t l = index - pad;
  const spvgen_mlp_layer *L = &p->layers[l];
  const bool first = l == 0, last = l + 1 == p->layer_count;
  const uint64_t half = mlp_layers_half_bytes(p, points);
  /* a layer between two workspace planes runs on their whole rows */
  const uint64_t rows = first || last ? points : mlp_layers_rows(points);
  if (points > SPVGEN_GEMM_MAX_DIM) /* a multiple of LAYERS_ROWS: the rounded count fits too */
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "layers: %llu points: a layer's GEMM takes at most %u rows (SPVGEN_GEMM_MAX_DIM; "
                    "run fewer points per dispatch)",
                    (unsigned long long)points, SPVGEN_GEMM_MAX_DIM);
  spvgen_gemm_args a;
  memset(&a, 0, sizeof a);
  a.m = (uint32_t)rows;
  a.n = mlp_layers_n(p, l);
  a.k = mlp_layers_k(p, l);
  a.lda = first ? p->desc.input_width : p->workspace_ld;
  a.ldb = layers_ldb(p, l);
  a.ldd = last ? p->desc.output_width : p->workspace_ld;
  spvgen_gemm_launch launch;
  char why[384];
  spvgen_status st = spvgen_gemm_launch_for(&p->gemms[p->layer_gemm[l]], &a, &launch, why, sizeof why);
  if (st != SPVGEN_OK)
    return mlp_fail(msg, size, st, "layers: layer %u for %llu points: %s", l, (unsigned long long)points, why);
  memset(out, 0, sizeof *out);
  out->kernel = index;
  for (uint32_t j = 0; j < l; j++)
    if (p->layer_gemm[j] == p->layer_gemm[l]) {
      out->kernel = j + pad;
      break;
    }
  for (int j = 0; j < 3; j++) out->groups[j] = launch.groups[j];
  memcpy(out->push, &launch.push, sizeof launch.push);
  out->push_size = launch.push_size;
  out->bindings[0].buffer = first ? SPVGEN_MLP_BUFFER_INPUT : SPVGEN_MLP_BUFFER_WORKSPACE;
  out->bindings[0].offset = first ? 0 : ((l - 1) % 2) * half;
  uint64_t pad_matrix = 0, pad_bias = 0;
  if (pad) pad_offsets(p, l, &pad_matrix, &pad_bias);
  out->bindings[1].buffer = pad ? SPVGEN_MLP_BUFFER_WORKSPACE : SPVGEN_MLP_BUFFER_WEIGHTS;
  out->bindings[1].offset = pad ? pad_base + pad_matrix : L->matrix_offset;
  out->bindings[2].buffer = last ? SPVGEN_MLP_BUFFER_OUTPUT : SPVGEN_MLP_BUFFER_WORKSPACE;
  out->bindings[2].offset = last ? 0 : (l % 2) * half;
  out->binding_count = 3;
  if (!p->desc.no_bias) {
    out->bindings[3].buffer = pad ? SPVGEN_MLP_BUFFER_WORKSPACE : SPVGEN_MLP_BUFFER_WEIGHTS;
    out->bindings[3].offset = pad ? pad_base + pad_bias : L->bias_offset;
    out->binding_count = 4;
  }
  return SPVGEN_OK;
}
