/* emitters/mlp/mat.c — the MLP on KHR cooperative matrices (VK_KHR_cooperative_matrix,
 * subgroup scope), after tiny-cuda-nn's fully fused MLP.
 *
 * Layout. A layer computes Y^T = X^T W^T for a block of P points: A = the activations
 * (P x inputs, point-major, as the points lie in memory), B = W^T (inputs x outputs;
 * W row-major [outputs][inputs] is W^T column-major, so B fragments are loaded
 * ColumnMajorKHR with the row stride), C = Y^T (P x outputs). Fragments are 16 x 16 x 16
 * (f16 x f16 + f32, or + f16 with f16_accumulation); every width is padded to a
 * multiple of 16 with zeros.
 *
 * Work. A workgroup of S subgroups evaluates one block of P = points_per_group points.
 * In each layer subgroup s owns the output fragments j = s, s + S, ... (16 output
 * neurons each): it loads the layer's B fragments of its column (K / 16 of them, kept in
 * registers) and, for each of the P / 16 point fragments, MulAdds the A fragments read
 * from shared memory into an accumulator that starts as the bias (a fragment loaded from
 * 16 copies of the bias row in shared memory). The point fragments are a run-time loop
 * with the Unroll hint, the accumulators a Function array indexed by its counter: the
 * driver unrolls it (the indices become constants, the array registers), and the module
 * holds one copy of a fragment's loads and MulAdds instead of P / 16 (32-64x4-16: 3580
 * words, was 6811; same speed on the H100, bench/results/mlp-h100-2026-11-26.md). The
 * activation is applied per component of the
 * accumulator (OpCooperativeMatrixLengthKHR components per invocation, through a Function
 * variable: the activations do not depend on the position), then the fragment is
 * converted to f16 and, after a workgroup barrier (every subgroup has read the layer's
 * inputs), stored in place into the shared activation block for the next layer.
 *
 * Shared memory: the activation block (P rows of the widest padded layer + 8 halves, the
 * padding keeping fragment loads free of bank conflicts), f16; the running layer's biases
 * (zero-padded to 16, in 16 identical rows; the next layer's are staged between the
 * layer's two barriers), f16; and the weights of the layers whose inputs or outputs are
 * not multiples of 16, zero-padded (16-byte chunks, rows padded by one chunk). Layers
 * whose sizes are multiples of 16 load their B fragments straight from the weight
 * buffer (16-byte aligned rows by the layout contract; L1/L2 keep them), so the weight
 * buffer's padding is never read.
 *
 * Input: the block's points are loaded (clamped, zero past the point count), encoded
 * and stored as f16 into the activation block by the whole workgroup, padding columns
 * zeroed (f16 points without encoding, input_width a multiple of 8: 16-byte loads; the
 * hash grid level by level, each invocation looking up and interpolating its points'
 * level, emitters/mlp/grid.c). Output: where output_width is a multiple of 16 and the block is full, the last
 * layer's fragments are converted to the output type and stored straight to binding 2;
 * otherwise they go through the activation block (f16) and the workgroup stores the
 * points inside the count, component by component. */
#include <stdio.h>
#include <string.h>

#include "error_private.h" /* lib/core: the one error formatter */
#include "mlp_internal.h"

#define FR 16u        /* fragment M = N = K */
#define MAX_SG 16u    /* subgroups per workgroup */
#define MAX_ACC 16u   /* live accumulator fragments per subgroup and layer */
#define MAX_KF 32u    /* B fragments per output column (inputs / 16) */
#define MAX_HELD 20u  /* training, held form: dW tiles a subgroup keeps (8 f32 per lane each) */
#define MAX_BH 8u     /* training, held form: bias sums an invocation keeps per layer */
#define MAX_DZ 8u     /* training: act'(z) fragments (f16) a subgroup keeps from forward to backward */

typedef struct mat_geom {
  uint32_t sg, S, nt, P, R;         /* subgroup size, subgroups, invocations, points, P/16 */
  uint32_t kp[SPVGEN_MLP_MAX_LAYERS], np[SPVGEN_MLP_MAX_LAYERS]; /* padded widths */
  bool staged[SPVGEN_MLP_MAX_LAYERS]; /* weights staged in shared memory */
  uint32_t rs[SPVGEN_MLP_MAX_LAYERS], woff[SPVGEN_MLP_MAX_LAYERS]; /* chunks */
  uint32_t boff[SPVGEN_MLP_MAX_LAYERS]; /* halves, in one bias row */
  uint32_t wchunks, bias_halves;   /* bias_halves: halves of one bias row */
  uint32_t bias_rows;              /* copies of the bias row: 16, or 1 (a stride-0 load) */
  uint32_t bias_pad;               /* halves after each of the 16 rows (training: 8) */
  bool rotate;                      /* one layer's biases at a time (see geometry) */
  uint32_t ars;                     /* activation row stride, halves */
  uint32_t act_halves;
  uint32_t max_live;                /* accumulators per subgroup in the worst layer */
  bool rows;                        /* desc.mat_rows: subgroups own row fragments */
  uint32_t Rs;                      /* rows: point fragments per subgroup (R / S) */
  uint32_t a_frags;                 /* rows: A fragments a subgroup holds (Rs x widest K / 16) */
  uint32_t shared_bytes;
  /* The streamed form (desc.mat_slab): rows of point fragments (Rs per subgroup) with
   * their activations in registers, the weights through shared memory in slabs. */
  bool stream;
  uint32_t kd, rsc;                 /* slab depth (inputs), slab row stride (chunks) */
  uint32_t ns[SPVGEN_MLP_MAX_LAYERS]; /* slabs per layer */
  uint32_t kfa, nfa;                /* A fragments (whole slabs) and accumulators per point fragment */
  uint32_t buf_chunks, cpi;         /* one slab buffer; slab chunks per invocation */
  uint32_t slab_chunks;             /* chunks of one slab (the widest layer's rows) */
  bool chunk_input;                 /* the inputs staged as chunks into wsm (else act) */
  uint32_t regs;                    /* fragment registers per invocation, worst layer */
} mat_geom;

/* rotate: the biases of one layer at a time (inference: the bias buffer holds layer l's
 * while it runs, restaged between its two barriers for the next; 16 x the widest padded
 * layer instead of 16 x the sum over the layers, which for 256-wide networks alone
 * exceeded 48 KiB); else every layer's, staged once (training's chunks reuse them). */
static void geometry(const spvgen_mlp_config *p, uint32_t sg, uint32_t S, uint32_t P, bool rotate, bool rows,
                     mat_geom *g) {
  memset(g, 0, sizeof *g);
  g->rotate = rotate;
  g->rows = rows;
  g->sg = sg;
  g->S = S;
  g->nt = S * sg;
  g->P = P;
  g->R = P / FR;
  g->bias_rows = FR;
  uint32_t wmax = 0;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    g->kp[l] = mlp_round_up(L->inputs, FR);
    g->np[l] = mlp_round_up(L->outputs, FR);
    if (g->kp[l] > wmax) wmax = g->kp[l];
    if (g->np[l] > wmax) wmax = g->np[l];
    g->staged[l] = L->inputs % FR || L->outputs % FR;
    if (g->staged[l]) {
      g->rs[l] = g->kp[l] / 8 + 1;
      g->woff[l] = g->wchunks;
      g->wchunks += g->np[l] * g->rs[l];
    }
    if (rotate) {
      g->boff[l] = 0;
      if (!p->desc.no_bias && g->np[l] > g->bias_halves) g->bias_halves = g->np[l];
    } else {
      g->boff[l] = g->bias_halves;
      if (!p->desc.no_bias) g->bias_halves += g->np[l];
    }
    uint32_t live = g->R * mlp_ceil_div(g->np[l] / FR, S);
    if (live > g->max_live) g->max_live = live;
  }
  if (rows) { /* accumulators: one per owned point fragment (output fragments in turn) */
    g->Rs = g->R / S;
    g->max_live = g->Rs;
    for (uint32_t l = 0; l < p->layer_count; l++)
      if (g->Rs * (g->kp[l] / FR) > g->a_frags) g->a_frags = g->Rs * (g->kp[l] / FR);
  }
  g->ars = wmax + 8;
  g->act_halves = P * g->ars;
  g->shared_bytes = g->wchunks * 16 + g->bias_halves * g->bias_rows * 2 + g->act_halves * 2;
}

static spvgen_component_type acc_type(const spvgen_mlp_desc *d) {
  return d->f16_accumulation ? SPVGEN_COMPONENT_F16 : SPVGEN_COMPONENT_F32;
}

static uint32_t subgroup_size(const spvgen_device_caps *caps, bool *control) {
  uint32_t sg = caps->subgroup_size ? caps->subgroup_size : 32;
  *control = spvgen_caps_has(caps, SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL) &&
             caps->required_subgroup_size_in_compute && caps->min_subgroup_size &&
             caps->min_subgroup_size != caps->max_subgroup_size;
  if (*control && caps->min_subgroup_size <= 32 && 32 <= caps->max_subgroup_size) sg = 32;
  return sg;
}

/* The rows arrangement's own limits: whole point fragments per subgroup, and the A
 * fragments a subgroup keeps for a layer within the B fragments' register budget. */
static bool rows_fit(const mat_geom *g) {
  return !g->rows || (g->R % g->S == 0 && g->Rs >= 1 && g->a_frags <= MAX_KF);
}

/* ------------------------------------------------------- the streamed form ---- */
/* desc.mat_slab (mlp.h). Subgroup s owns the block's point fragments s Rs .. s Rs + Rs - 1
 * and keeps, per point fragment, the layer's A fragments (its inputs, padded with zero
 * fragments to whole slabs) and accumulators (all its outputs) in Function arrays that
 * the driver keeps in registers (every index a constant once the output-fragment loop is
 * unrolled). A layer runs over its K in slabs of kd inputs: the workgroup copies slab
 * j + 1 (this layer's next, or the next layer's first) from the weight buffer into
 * registers, every subgroup multiplies its fragments by slab j from shared memory, the
 * copy goes into the other buffer, one workgroup barrier. Each weight byte read from L2
 * serves the P points of the block, and each B fragment loaded from shared memory serves
 * Rs MulAdds. After the layer's last slab its buffer is free: each subgroup converts its
 * accumulators (bias, activation, f16) fragment by fragment into the next layer's A
 * fragments through its own 16 x 16 tile there (a store, a subgroup barrier, a load). */
#define TILE_RS 3u        /* round-trip tile row stride, chunks (16 halves + 8 of padding) */
#define MAX_FRAG_REGS 192u /* A and accumulator fragment registers per invocation of 32 */
#define MAX_CPI 16u       /* slab chunks an invocation copies */

static void stream_geometry(const spvgen_mlp_config *p, uint32_t sg, uint32_t S, uint32_t P, uint32_t kd,
                            mat_geom *g) {
  memset(g, 0, sizeof *g);
  const spvgen_mlp_desc *d = &p->desc;
  g->stream = true;
  g->sg = sg;
  g->S = S;
  g->nt = S * sg;
  g->P = P;
  g->R = P / FR;
  g->Rs = g->R / S;
  g->kd = kd;
  g->rsc = kd / 8 + 1; /* one chunk of padding: the B loads' 16-byte rows fall in distinct banks */
  g->bias_rows = 1;
  g->chunk_input = mlp_mat_input_chunks(d);
  /* registers of a 32-wide subgroup's lane: a 16 x 16 f16 fragment is 128 words over the
   * subgroup, f32 256 (counted for 32 lanes whatever the subgroup size: the words a
   * subgroup holds are what the register file gives) */
  const uint32_t ar = 4, cr = d->f16_accumulation ? 4 : 8;
  uint32_t npmax = FR;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    g->kp[l] = mlp_round_up(L->inputs, FR);
    g->np[l] = mlp_round_up(L->outputs, FR);
    g->ns[l] = mlp_ceil_div(g->kp[l], kd);
    g->boff[l] = g->bias_halves;
    if (!d->no_bias) g->bias_halves += g->np[l];
    uint32_t ka = g->ns[l] * kd / FR, nf = g->np[l] / FR;
    if (ka > g->kfa) g->kfa = ka;
    if (nf > g->nfa) g->nfa = nf;
    if (g->np[l] > npmax) npmax = g->np[l];
    uint32_t regs = g->Rs * (ka * ar + nf * cr);
    if (regs > g->regs) g->regs = regs;
  }
  g->max_live = g->Rs * g->nfa;
  g->slab_chunks = npmax * (kd / 8);
  g->cpi = mlp_ceil_div(g->slab_chunks, g->nt);
  g->buf_chunks = npmax * g->rsc;
  if (g->buf_chunks < S * FR * TILE_RS) g->buf_chunks = S * FR * TILE_RS;
  g->ars = g->kp[0] + 8;
  uint32_t region = 2 * g->buf_chunks;
  if (g->chunk_input && P * g->ars / 8 > region) region = P * g->ars / 8;
  g->wchunks = region;
  g->act_halves = g->chunk_input ? 0 : P * g->ars;
  g->shared_bytes = g->wchunks * 16 + g->bias_halves * 2 + g->act_halves * 2;
}

/* Every layer's inputs within the MAX_KF A fragments a subgroup holds. */
static spvgen_status check_layer_inputs(const spvgen_mlp_config *p, char *msg, size_t size) {
  for (uint32_t l = 0; l < p->layer_count; l++)
    if (mlp_ceil_div(p->layers[l].inputs, FR) > MAX_KF)
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "layer %u has %u inputs: the mat variant takes at most %u",
                      l, p->layers[l].inputs, MAX_KF * FR);
  return SPVGEN_OK;
}

/* What both mat planners set once the geometry is chosen: nt invocations (the fixed
 * subgroup size sg, pinned where the device has subgroupSizeControl), P points per
 * workgroup, the shared memory. */
static spvgen_status finish_plan(spvgen_mlp_config *p, uint32_t nt, uint32_t P, uint32_t shared_bytes, uint32_t sg,
                                 bool control) {
  p->desc.workgroup_size = nt;
  p->local_size[0] = nt;
  p->local_size[1] = p->local_size[2] = 1;
  p->points_per_workgroup = P;
  p->shared_bytes = shared_bytes;
  p->features = SPVGEN_FEATURE_COOPMAT | (control ? SPVGEN_FEATURE_SUBGROUP_SIZE_CONTROL : 0);
  p->subgroup_size = sg;
  return SPVGEN_OK;
}

/* The subgroups of a desc's own workgroup_size: whole subgroups of sg invocations, 1 to
 * MAX_SG of them. */
static spvgen_status desc_subgroups(const spvgen_mlp_desc *d, uint32_t sg, uint32_t *S, char *msg, size_t size) {
  if (d->workgroup_size % sg || d->workgroup_size / sg > MAX_SG)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "workgroup_size %u: the mat variant takes 1 to %u subgroups of %u invocations", d->workgroup_size,
                    MAX_SG, sg);
  *S = d->workgroup_size / sg;
  return SPVGEN_OK;
}

static spvgen_status stream_plan(const spvgen_device_caps *caps, spvgen_mlp_config *p, uint32_t sg, bool control,
                                 char *msg, size_t size) {
  spvgen_mlp_desc *d = &p->desc;
  const uint32_t kd = d->mat_slab;
  if (d->mat_rows)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "mat_rows and mat_slab are two forms of the mat variant: set one (mat_slab's "
                    "subgroups own point fragments already)");
  if (kd != 16 && kd != 32 && kd != 64)
    return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "mat_slab %u: the slab depth is 16, 32 or 64 inputs (0: not the streamed form)", kd);
  uint32_t S = 1;
  if (d->workgroup_size) {
    spvgen_status st = desc_subgroups(d, sg, &S, msg, size);
    if (st != SPVGEN_OK) return st;
  } else {
    S = 8; /* the most subgroups whose registers (up to 192 fragment words each) fit the SM's */
    if (d->points_per_group && d->points_per_group / FR < S) S = d->points_per_group / FR;
    if (!S) S = 1;
  }
  spvgen_status li = check_layer_inputs(p, msg, size);
  if (li != SPVGEN_OK) return li;
  mat_geom g;
  if (d->points_per_group) {
    if (d->points_per_group % (FR * S) || d->points_per_group > 512)
      return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "points_per_group %u with mat_slab: a multiple of 16 x %u subgroups (each owns "
                      "whole 16-point fragments), up to 512",
                      d->points_per_group, S);
    stream_geometry(p, sg, S, d->points_per_group, kd, &g);
  } else { /* two point fragments per subgroup where the registers allow, else one */
    stream_geometry(p, sg, S, 2 * FR * S, kd, &g);
    if (g.regs > MAX_FRAG_REGS || g.shared_bytes > caps->max_shared_memory || g.cpi > MAX_CPI)
      stream_geometry(p, sg, S, FR * S, kd, &g);
    d->points_per_group = g.P;
  }
  if (g.regs > MAX_FRAG_REGS)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "points_per_group %u with %u subgroups and mat_slab: each subgroup keeps %u point "
                    "fragments' A (%u) and accumulator (%u) fragments, %u registers per invocation of a "
                    "32-wide subgroup, at most %u (fewer points or more subgroups)",
                    g.P, S, g.Rs, g.Rs * g.kfa, g.Rs * g.nfa, g.regs, MAX_FRAG_REGS);
  if (g.cpi > MAX_CPI)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "mat_slab %u with %u invocations: a slab of %u chunks is %u per invocation, at most %u "
                    "(a thinner slab or more subgroups)",
                    kd, g.nt, g.slab_chunks, g.cpi, MAX_CPI);
  if (g.shared_bytes > caps->max_shared_memory)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "mat_slab %u, %u points: %u bytes of shared memory (slab buffers and tiles %u, "
                    "biases %u, staged inputs %u); %s has %u (a thinner slab or fewer points)",
                    kd, g.P, g.shared_bytes, g.wchunks * 16, g.bias_halves * 2, g.act_halves * 2, caps->name,
                    caps->max_shared_memory);
  return finish_plan(p, g.nt, g.P, g.shared_bytes, sg, control);
}

static spvgen_status mat_plan(const spvgen_device_caps *caps, spvgen_mlp_config *p, char *msg,
                              size_t size) {
  spvgen_mlp_desc *d = &p->desc;
  const bool rows = d->mat_rows;
  /* output_path: STAGED writes the block from the f16 activation block in 16-byte chunks
   * (write_output_chunk); AUTO takes DIRECT. */
  if (!d->output_path) d->output_path = SPVGEN_MLP_OUTPUT_DIRECT;
  if (d->output_path == SPVGEN_MLP_OUTPUT_STAGED &&
      (rows || d->mat_slab || d->output_type != SPVGEN_COMPONENT_F16 || d->output_width % 8))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "output_path staged: the mat variant stages f16 outputs of a multiple of 8 "
                    "components (16-byte chunks) in the default arrangement; this plan has %s",
                    rows ? "mat_rows" : d->mat_slab ? "mat_slab" :
                    d->output_type != SPVGEN_COMPONENT_F16 ? "f32 output points" : "an output_width not a multiple of 8");
  if (!spvgen_caps_has(caps, SPVGEN_FEATURE_COOPMAT))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "the mat variant needs %s (VK_KHR_cooperative_matrix), which %s lacks",
                    spvgen_feature_name(SPVGEN_FEATURE_COOPMAT), caps->name);
  const spvgen_component_type h = SPVGEN_COMPONENT_F16, acc = acc_type(d);
  if (!spvgen_caps_find_coopmat(caps, SpvScopeSubgroup, FR, FR, FR, h, h, acc, acc))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "the mat variant needs a subgroup-scope 16x16x16 cooperative matrix f16 x "
                    "f16 + %s -> %s, which %s does not list%s",
                    spvgen_component_type_name(acc), spvgen_component_type_name(acc), caps->name,
                    d->f16_accumulation ? " (f16_accumulation: try f32)" : "");
  bool control = false;
  uint32_t sg = subgroup_size(caps, &control);
  if (!control && caps->min_subgroup_size && caps->min_subgroup_size != caps->max_subgroup_size)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "subgroup size %u..%u on %s: the mat variant needs a fixed subgroup size "
                    "(subgroupSizeControl with requiredSubgroupSizeStages including compute)",
                    caps->min_subgroup_size, caps->max_subgroup_size, caps->name);
  if (d->mat_slab) return stream_plan(caps, p, sg, control, msg, size);
  /* Subgroups: one per 16-wide output fragment of the widest layer, 1 to 8. */
  uint32_t S = 1;
  if (d->workgroup_size) {
    spvgen_status st = desc_subgroups(d, sg, &S, msg, size);
    if (st != SPVGEN_OK) return st;
  } else {
    uint32_t nf = 1;
    for (uint32_t l = 0; l < p->layer_count; l++)
      if (mlp_ceil_div(p->layers[l].outputs, FR) > nf) nf = mlp_ceil_div(p->layers[l].outputs, FR);
    S = nf > 8 ? 8 : nf;
    /* rows: 4 subgroups, of two point fragments each over a block of 128 (one over 64) */
    if (rows) S = 4;
  }
  spvgen_status li = check_layer_inputs(p, msg, size);
  if (li != SPVGEN_OK) return li;
  mat_geom g;
  if (d->points_per_group) {
    if (d->points_per_group % FR || d->points_per_group > 512)
      return mlp_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "points_per_group %u: the mat variant takes a multiple of 16 up to 512",
                      d->points_per_group);
    geometry(p, sg, S, d->points_per_group, !rows, rows, &g);
    if (!rows_fit(&g))
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "points_per_group %u with %u subgroups and mat_rows: each subgroup owns whole "
                      "16-point fragments, and holds %u A fragments of the widest layer (at most %u)",
                      d->points_per_group, S, g.a_frags, MAX_KF);
    if (g.max_live > MAX_ACC)
      return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "points_per_group %u with %u subgroups: %u accumulator fragments per "
                      "subgroup in the widest layer, at most %u (fewer points or more subgroups)",
                      d->points_per_group, S, g.max_live, MAX_ACC);
  } else {
    static const uint32_t tries[] = {128, 64, 32, 16};
    bool found = false;
    memset(&g, 0, sizeof g);
    for (size_t i = 0; i < sizeof tries / sizeof tries[0] && !found; i++) {
      if (rows && tries[i] % (FR * S)) continue;
      geometry(p, sg, S, tries[i], !rows, rows, &g);
      found = rows_fit(&g) && g.max_live <= MAX_ACC && g.shared_bytes <= caps->max_shared_memory;
    }
    if (!g.P) geometry(p, sg, S, FR * S, !rows, rows, &g); /* rows: one fragment per subgroup */
    d->points_per_group = g.P;
  }
  if (g.shared_bytes > caps->max_shared_memory)
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "a block of %u points needs %u bytes of shared memory (activations %u, "
                    "biases %u, weights of layers not 16-multiples %u); %s has %u (fewer points)",
                    g.P, g.shared_bytes, g.act_halves * 2, g.bias_halves * g.bias_rows * 2, g.wchunks * 16,
                    caps->name, caps->max_shared_memory);
  if (g.max_live > MAX_ACC || !rows_fit(&g))
    return mlp_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                    "a layer %u wide needs more than %u accumulator fragments (or, mat_rows, %u A "
                    "fragments) per subgroup even for %u points (more subgroups: workgroup_size)",
                    mlp_max_width(p), MAX_ACC, MAX_KF, g.P);
  return finish_plan(p, g.nt, g.P, g.shared_bytes, sg, control);
}

static uint32_t mat_candidates(const spvgen_device_caps *caps, const spvgen_mlp_desc *desc,
                               spvgen_mlp_desc *out, uint32_t max) {
  /* points per block, subgroups (0: one per output fragment) */
  static const uint32_t knobs[][2] = {{0, 0}, {64, 0}, {256, 0}, {128, 2}, {128, 8}, {32, 0}};
  bool sized = caps->subgroup_size != 0;
  uint32_t n = 0;
  for (int acc16 = 0; acc16 < 2; acc16++) {
    if (desc->f16_accumulation && !acc16) continue;
    for (size_t i = 0; i < sizeof knobs / sizeof knobs[0] && n < max; i++) {
      spvgen_mlp_desc d = *desc;
      if (knobs[i][0] && d.points_per_group && d.points_per_group != knobs[i][0]) continue;
      if (!knobs[i][0] && d.points_per_group && i) continue;
      if (knobs[i][1]) {
        if (!sized) continue;
        uint32_t ws = knobs[i][1] * caps->subgroup_size;
        if (d.workgroup_size && d.workgroup_size != ws) continue;
        d.workgroup_size = ws;
      }
      if (knobs[i][0]) d.points_per_group = knobs[i][0];
      d.f16_accumulation = acc16 != 0;
      if (d.mat_rows) continue; /* the rows arrangement's own knobs follow */
      out[n++] = d;
    }
  }
  /* mat_rows: blocks of 128 (4 subgroups of two fragments, or the plan's choice), of 64 */
  static const uint32_t rows_knobs[][2] = {{0, 0}, {128, 4}, {64, 4}};
  for (size_t i = 0; i < sizeof rows_knobs / sizeof rows_knobs[0] && n < max; i++) {
    spvgen_mlp_desc d = *desc;
    d.mat_rows = true;
    if (rows_knobs[i][0]) {
      if (!sized || (d.points_per_group && d.points_per_group != rows_knobs[i][0])) continue;
      uint32_t ws = rows_knobs[i][1] * caps->subgroup_size;
      if (d.workgroup_size && d.workgroup_size != ws) continue;
      d.workgroup_size = ws;
      d.points_per_group = rows_knobs[i][0];
    }
    out[n++] = d;
  }
  return n;
}

/* ---------------------------------------------------------------------- emit ---- */

typedef struct mat_ctx {
  spvgen_module *m;
  const spvgen_mlp_config *p;
  mat_geom g;
  uint32_t u32, f16, f32, facc, v4;
  uint32_t act, bias, wsm;    /* shared variables (0: none) */
  ek_buffer w16, w4;          /* the weight buffer as f16 and as 16-byte chunks */
  ek_buffer in4;              /* the input points as 16-byte chunks (fast input path) */
  ek_buffer out4;             /* the output points as 16-byte chunks (output_path staged) */
  uint32_t ta, tb, tc, tc16;  /* fragment types: A, B, accumulator, f16 accumulator */
  uint32_t tid;
  uint32_t fsh;               /* training: the f32 shared array (MEM_F32) */
  /* Software emulation (tests only, see emulated()): fragments are float32[EMU_LEN]
   * values, lane l owning elements l * EMU_LEN + i (row-major 16 x 16). */
  bool emu;
  uint32_t emu_arr, emu_len, lane, scr, emu_fn;
  /* Device addresses (inference and training): the kernel's input, weights (and, for
   * inference, output) pointers (declare_common takes the weights and views from them);
   * NULL: descriptors. */
  const mlp_io *bda;
} mat_ctx;

enum frag_mem { MEM_ACT, MEM_BIAS, MEM_WSM, MEM_W16, MEM_OUT, MEM_F32 };

/* &base[i] of a Function array of fragments, or of one of a fragment variable's
 * components: a cooperative type, which spvgen_access cannot see through, so the element
 * type is given. */
static uint32_t coop_at(mat_ctx *c, uint32_t elem_type, uint32_t base, uint32_t i) {
  return spvgen_access_chain(c->m, spvgen_type_pointer(c->m, SpvStorageClassFunction, elem_type), base, &i, 1);
}

static uint32_t act_ptr(mat_ctx *c, uint32_t index) {
  return ek_at(c->m, c->act, index);
}

/* for (e = tid; e < count; e += nt) { body(e) } — the callback form keeps the loops. */
typedef void (*strided_body)(mat_ctx *c, uint32_t e, const void *arg);
static void strided_loop(mat_ctx *c, uint32_t count, strided_body body, const void *arg) {
  spvgen_module *m = c->m;
  ek_for f;
  uint32_t e = ek_for_begin_var(m, &f, ek_local(m, c->u32, 0), c->tid, ek_u32(m, count), ek_u32(m, c->g.nt),
                                SpvLoopControlMaskNone);
  body(c, e, arg);
  ek_for_end(m, &f);
}

/* The hash grid's (point, level) pairs of a chunk of P points (spvgen_mlp_grid_spread):
 * body(point e) with *level (a u32 id) set before each call. LEVEL_LOOP: a level loop
 * (the hint: Unroll lets the driver fold the level arrays into constants) around the
 * points strided over the invocations, so that P < nt leaves nt - P idle; FLAT: one
 * loop over the P x levels pairs strided over all nt invocations, pair e at level e / P,
 * point e % P (a level's points on consecutive invocations: with P a multiple of the
 * subgroup size, every subgroup works on one level at a time, so the dense / hashed and
 * wrap branches do not diverge, and its input loads are consecutive points);
 * FLAT_BY_POINT: pair e at point e / levels, level e % levels. */
static void grid_pairs_loop(mat_ctx *c, spvgen_mlp_grid_spread spread, SpvLoopControlMask level_hint,
                            uint32_t *level, strided_body body, const void *arg) {
  spvgen_module *m = c->m;
  const uint32_t P = c->g.P, L = c->p->desc.grid.levels;
  ek_for f;
  if (spread == SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP) {
    *level = ek_for_begin_var(m, &f, ek_local(m, c->u32, 0), ek_u32(m, 0), ek_u32(m, L), ek_u32(m, 1), level_hint);
    strided_loop(c, P, body, arg);
    ek_for_end(m, &f);
    return;
  }
  uint32_t e = ek_for_begin_var(m, &f, ek_local(m, c->u32, 0), c->tid, ek_u32(m, P * L), ek_u32(m, c->g.nt),
                                SpvLoopControlMaskNone);
  const bool by_point = spread == SPVGEN_MLP_GRID_SPREAD_FLAT_BY_POINT;
  *level = by_point ? ek_mod_imm(m, e, L) : ek_div_imm(m, e, P);
  body(c, by_point ? ek_div_imm(m, e, L) : ek_mod_imm(m, e, P), arg);
  ek_for_end(m, &f);
}

/* Staged weights of layer l: chunk e of the Npad x Kpad/8 chunk grid, zero outside. */
static uint32_t weight_chunk(mat_ctx *c, uint32_t l, uint32_t row, uint32_t q);

static void stage_weight_chunk(mat_ctx *c, uint32_t e, const void *arg) {
  spvgen_module *m = c->m;
  uint32_t l = *(const uint32_t *)arg;
  const mat_geom *g = &c->g;
  uint32_t cpr = g->kp[l] / 8;
  uint32_t row = ek_div_imm(m, e, cpr), q = ek_mod_imm(m, e, cpr);
  uint32_t v = weight_chunk(c, l, row, q);
  uint32_t sidx = ek_iadd(m, ek_mul_imm(m, row, g->rs[l]), ek_add_imm(m, q, g->woff[l]));
  spvgen_store(m, ek_at(m, c->wsm, sidx), v);
}

/* Chunk q (8 inputs from 8 q) of row `row` of layer l's weights (ids), zero outside the
 * matrix and past the inputs in the chunk that holds the last one. */
static uint32_t weight_chunk(mat_ctx *c, uint32_t l, uint32_t row, uint32_t q) {
  spvgen_module *m = c->m;
  const spvgen_mlp_layer *L = &c->p->layers[l];
  uint32_t col0 = ek_mul_imm(m, q, 8);
  uint32_t ok = ek_and(m, ek_lt_imm(m, row, L->outputs), ek_lt_imm(m, col0, L->inputs));
  uint32_t gidx = ek_iadd(m, ek_mul_imm(m, row, L->row_stride / 16),
                         ek_add_imm(m, q, (uint32_t)(L->matrix_offset / 16)));
  gidx = ek_select(m, ok, gidx, ek_u32(m, 0));
  uint32_t v = spvgen_load(m, c->v4, ek_elem(m, &c->w4, gidx));
  uint32_t zero4 = spvgen_const_null(m, c->v4);
  v = ek_select(m, ok, v, zero4);
  if (L->inputs % 8) {
    /* The chunk holding column `inputs`: keep the halves before it (little-endian: half
     * 2w in the low 16 bits of word w). */
    uint32_t words[4];
    for (uint32_t w = 0; w < 4; w++) {
      uint32_t wd = spvgen_op_composite_extract(m, c->u32, v, &w, 1);
      uint32_t c0 = ek_add_imm(m, col0, 2 * w);
      uint32_t c1 = ek_add_imm(m, c0, 1);
      uint32_t mask = ek_select(m, ek_lt_imm(m, c1, L->inputs), ek_u32(m, 0xFFFFFFFFu),
                                ek_select(m, ek_lt_imm(m, c0, L->inputs), ek_u32(m, 0xFFFFu), ek_u32(m, 0)));
      words[w] = spvgen_op_bitwise_and(m, c->u32, wd, mask);
    }
    v = spvgen_op_composite_construct(m, c->v4, words, 4);
  }
  return v;
}

/* Layer l's bias, zero-padded to np (+ bias_pad), in bias_rows rows (an accumulator
 * fragment loaded from them, with that row stride, or of 0 from one row, starts every
 * point's row as the bias): element e of those rows. */
static void stage_bias(mat_ctx *c, uint32_t e, const void *arg) {
  spvgen_module *m = c->m;
  uint32_t l = *(const uint32_t *)arg;
  const spvgen_mlp_layer *L = &c->p->layers[l];
  uint32_t i = ek_mod_imm(m, e, c->g.np[l] + c->g.bias_pad);
  uint32_t ok = ek_lt_imm(m, i, L->outputs);
  uint32_t gidx = ek_select(m, ok, ek_add_imm(m, i, (uint32_t)(L->bias_offset / 2)), ek_u32(m, 0));
  uint32_t v = spvgen_load(m, c->f16, ek_elem(m, &c->w16, gidx));
  v = ek_select(m, ok, v, spvgen_const_null(m, c->f16));
  uint32_t si = ek_add_imm(m, e, c->g.bias_rows * c->g.boff[l]);
  spvgen_store(m, ek_at(m, c->bias, si), v);
}

typedef struct input_arg {
  const mlp_io *io;
  uint32_t base, n;
} input_arg;

/* Input (point, component) e of the block: loaded (zero past the count), encoded, f16. */
static void stage_input(mat_ctx *c, uint32_t e, const void *arg) {
  const input_arg *a = arg;
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const uint32_t iw = p->desc.input_width;
  uint32_t pt = ek_div_imm(m, e, iw), comp = ek_mod_imm(m, e, iw);
  uint32_t gp = ek_iadd(m, a->base, pt);
  uint32_t ok = ek_ult(m, gp, a->n);
  uint32_t x = mlp_load_input(m, p, a->io, ek_select(m, ok, gp, ek_u32(m, 0)), comp);
  x = ek_select(m, ok, x, spvgen_const_f32(m, 0.0f));
  /* The encoding of one component: the plan with input_width 1. */
  spvgen_mlp_config one = *p;
  one.desc.input_width = 1;
  uint32_t per = p->encoded_width / iw;
  uint32_t enc[SPVGEN_MLP_MAX_WIDTH];
  mlp_encode(m, &one, &x, enc);
  uint32_t row = ek_iadd(m, ek_mul_imm(m, pt, c->g.ars), ek_mul_imm(m, comp, per));
  for (uint32_t t = 0; t < per; t++)
    spvgen_store(m, act_ptr(c, ek_add_imm(m, row, t)), spvgen_op_f_convert(m, c->f16, enc[t]));
}

/* A 16-byte chunk (uvec4) of the activation block: the eight halves from half h0 (a
 * multiple of 8: rows of ars halves, ars a multiple of 8), four f16 pairs as 32-bit words.
 * The input's chunks go in (stage_input_chunk), the staged output's come out
 * (write_output_chunk). */
static void act_chunk_store(mat_ctx *c, uint32_t h0, uint32_t v) {
  spvgen_module *m = c->m;
  uint32_t h2 = spvgen_type_vector(m, c->f16, 2);
  for (uint32_t w = 0; w < 4; w++) {
    uint32_t pair = spvgen_op_bitcast(m, h2, spvgen_op_composite_extract(m, c->u32, v, &w, 1));
    for (uint32_t t = 0; t < 2; t++)
      spvgen_store(m, act_ptr(c, ek_add_imm(m, h0, 2 * w + t)), spvgen_op_composite_extract(m, c->f16, pair, &t, 1));
  }
}

static uint32_t act_chunk_load(mat_ctx *c, uint32_t h0) {
  spvgen_module *m = c->m;
  uint32_t h2 = spvgen_type_vector(m, c->f16, 2), w[4];
  for (uint32_t i = 0; i < 4; i++) {
    uint32_t pair[2];
    for (uint32_t t = 0; t < 2; t++) pair[t] = spvgen_load(m, c->f16, act_ptr(c, ek_add_imm(m, h0, 2 * i + t)));
    w[i] = spvgen_op_bitcast(m, c->u32, spvgen_op_composite_construct(m, h2, pair, 2));
  }
  return spvgen_op_composite_construct(m, c->v4, w, 4);
}

/* Input chunk e of the block (f16 points, no encoding, input_width a multiple of 8):
 * one 16-byte load (zero past the count), eight f16 stores. */
static void stage_input_chunk(mat_ctx *c, uint32_t e, const void *arg) {
  const input_arg *a = arg;
  spvgen_module *m = c->m;
  const uint32_t cpp = c->p->desc.input_width / 8; /* chunks per point */
  uint32_t pt = ek_div_imm(m, e, cpp), q = ek_mod_imm(m, e, cpp);
  uint32_t gp = ek_iadd(m, a->base, pt);
  uint32_t ok = ek_ult(m, gp, a->n);
  uint32_t gi = ek_iadd(m, ek_mul_imm(m, gp, cpp), q);
  gi = ek_select(m, ok, gi, ek_u32(m, 0));
  uint32_t v = spvgen_load(m, c->v4, ek_elem(m, &c->in4, gi));
  v = ek_select(m, ok, v, spvgen_const_null(m, c->v4));
  act_chunk_store(c, ek_iadd(m, ek_mul_imm(m, pt, c->g.ars), ek_mul_imm(m, q, 8)), v);
}

/* Zero padding columns [encoded_width, kp0) of the block. */
static void stage_input_pad(mat_ctx *c, uint32_t e, const void *arg) {
  (void)arg;
  spvgen_module *m = c->m;
  uint32_t padw = c->g.kp[0] - c->p->encoded_width;
  uint32_t pt = ek_div_imm(m, e, padw);
  uint32_t col = ek_add_imm(m, ek_mod_imm(m, e, padw), c->p->encoded_width);
  uint32_t i = ek_iadd(m, ek_mul_imm(m, pt, c->g.ars), col);
  spvgen_store(m, act_ptr(c, i), spvgen_const_null(m, c->f16));
}

typedef struct grid_arg {
  const input_arg *in;
  const mlp_grid *grid;
  uint32_t level; /* a u32 id */
} grid_arg;

/* Point e of the block at one level of the hash grid: its components loaded (zero past
 * the count), the level's features stored as f16 at columns level * F.. of its row. */
static void stage_grid_point(mat_ctx *c, uint32_t e, const void *arg) {
  const grid_arg *a = arg;
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const uint32_t D = p->desc.input_width, F = p->desc.grid.features;
  uint32_t gp = ek_iadd(m, a->in->base, e);
  uint32_t ok = ek_ult(m, gp, a->in->n);
  uint32_t at = ek_select(m, ok, gp, ek_u32(m, 0)), x[3], feat[8];
  for (uint32_t k = 0; k < D; k++)
    x[k] = ek_select(m, ok, mlp_load_input(m, p, a->in->io, at, ek_u32(m, k)), spvgen_const_f32(m, 0.0f));
  mlp_grid_level_features(m, a->grid, a->level, x, feat);
  uint32_t row = ek_iadd(m, ek_mul_imm(m, e, c->g.ars), ek_mul_imm(m, a->level, F));
  for (uint32_t f = 0; f < F; f++)
    spvgen_store(m, act_ptr(c, ek_add_imm(m, row, f)), spvgen_op_f_convert(m, c->f16, feat[f]));
}

/* Output (point, component) e of the block from the activation block (f16). */
static void write_output(mat_ctx *c, uint32_t e, const void *arg) {
  const input_arg *a = arg;
  spvgen_module *m = c->m;
  const uint32_t ow = c->p->desc.output_width;
  uint32_t pt = ek_div_imm(m, e, ow), comp = ek_mod_imm(m, e, ow);
  uint32_t gp = ek_iadd(m, a->base, pt);
  ek_guard inside = ek_guard_begin(m, ek_ult(m, gp, a->n));
  uint32_t v = spvgen_load(m, c->f16, act_ptr(c, ek_iadd(m, ek_mul_imm(m, pt, c->g.ars), comp)));
  mlp_store_output(m, c->p, a->io, gp, comp, spvgen_op_f_convert(m, c->f32, v));
  ek_guard_end(m, inside);
}

/* Output chunk e of the block (output_path staged): eight f16 outputs of one point from
 * the activation block to binding 2 as one 16-byte store, consecutive chunks on
 * consecutive invocations. */
static void write_output_chunk(mat_ctx *c, uint32_t e, const void *arg) {
  const input_arg *a = arg;
  spvgen_module *m = c->m;
  const uint32_t cpp = c->p->desc.output_width / 8;
  uint32_t pt = ek_div_imm(m, e, cpp), cc = ek_mod_imm(m, e, cpp);
  uint32_t gp = ek_iadd(m, a->base, pt);
  ek_guard inside = ek_guard_begin(m, ek_ult(m, gp, a->n));
  uint32_t h0 = ek_iadd(m, ek_mul_imm(m, pt, c->g.ars), ek_mul_imm(m, cc, 8));
  ek_store_elem(m, &c->out4, ek_iadd(m, ek_mul_imm(m, gp, cpp), cc), act_chunk_load(c, h0));
  ek_guard_end(m, inside);
}

/* ------------------------------------------------- fragment operations ---- */
/* Each is the cooperative matrix instruction, or (c->emu) its emulation in plain
 * SPIR-V: loads and stores element by element, MulAdd through a per-subgroup scratch
 * in shared memory (A and B stored, subgroup barrier, each lane its own elements,
 * barrier). The emulation lets lavapipe, which has no cooperative matrices, run the
 * variant's blocking, staging, padding and edge logic against the CPU reference. */

static bool emulated(const spvgen_mlp_config *p) {
  /* A plan always needs cooperativeMatrix; tests clear the bit to get the emulation. */
  return !(p->features & SPVGEN_FEATURE_COOPMAT);
}

static uint32_t frag_type(mat_ctx *c, uint32_t comp, SpvCooperativeMatrixUse use) {
  if (c->emu) return c->emu_arr;
  return spvgen_type_coopmat(c->m, comp, SpvScopeSubgroup, FR, FR, use);
}

/* Element h (an id, in the memory's elements; wsm: halves) of a memory, as f32. */
static uint32_t emu_mem_load(mat_ctx *c, enum frag_mem mem, uint32_t h) {
  spvgen_module *m = c->m;
  uint32_t v;
  if (mem == MEM_WSM) {
    uint32_t ix[2] = {ek_div_imm(m, h, 8), ek_div_imm(m, ek_mod_imm(m, h, 8), 2)};
    uint32_t word = spvgen_load(m, c->u32, ek_at2(m, c->wsm, ix[0], ix[1]));
    uint32_t pair = spvgen_op_bitcast(m, spvgen_type_vector(m, c->f16, 2), word);
    v = spvgen_op_vector_extract_dynamic(m, c->f16, pair, ek_mod_imm(m, h, 2));
  } else if (mem == MEM_W16) {
    v = spvgen_load(m, c->f16, ek_elem(m, &c->w16, h));
  } else {
    v = spvgen_load(m, c->f16, ek_at(m, mem == MEM_ACT ? c->act : c->bias, h));
  }
  return spvgen_op_f_convert(m, c->f32, v);
}

/* Element i (an id) of this lane's part: its row and column. */
static void emu_pos(mat_ctx *c, uint32_t i, uint32_t *row, uint32_t *col) {
  spvgen_module *m = c->m;
  uint32_t e = ek_iadd(m, ek_mul_imm(m, c->lane, c->emu_len), i);
  *row = ek_div_imm(m, e, FR);
  *col = ek_mod_imm(m, e, FR);
}

static uint32_t f16_round(mat_ctx *c, uint32_t x) {
  return spvgen_op_f_convert(c->m, c->f32, spvgen_op_f_convert(c->m, c->f16, x));
}

/* The emulation's loops: for (i = 0; i < emu_len; i++) over a Function variable `arr`
 * of the fragment's array type; emu_begin returns i and a pointer to arr[i]. */
typedef struct emu_loop {
  ek_for f;
  uint32_t arr, i, elem;
} emu_loop;

static void emu_begin(mat_ctx *c, emu_loop *L, uint32_t init) {
  spvgen_module *m = c->m;
  L->arr = ek_local(m, c->emu_arr, 0);
  uint32_t iv = ek_local(m, c->u32, 0);
  spvgen_store(m, L->arr, init);
  L->i = ek_for_begin_var(m, &L->f, iv, ek_u32(m, 0), ek_u32(m, c->emu_len), ek_u32(m, 1),
                          SpvLoopControlDontUnrollMask);
  L->elem = ek_at(m, L->arr, L->i);
}

static uint32_t emu_end(mat_ctx *c, emu_loop *L) {
  ek_for_end(c->m, &L->f);
  return spvgen_load(c->m, c->emu_arr, L->arr);
}

/* Load of a fragment at element idx (wsm: chunks; stride likewise) of a memory; a stride
 * of 0 repeats the first row (column) in every row (column). */
static uint32_t frag_load(mat_ctx *c, uint32_t type, enum frag_mem mem, uint32_t idx, bool col_major,
                          uint32_t stride) {
  spvgen_module *m = c->m;
  SpvCooperativeMatrixLayout lay = col_major ? SpvCooperativeMatrixLayoutColumnMajorKHR
                                             : SpvCooperativeMatrixLayoutRowMajorKHR;
  if (!c->emu) {
    uint32_t ptr = mem == MEM_WSM   ? ek_at(m, c->wsm, idx)
                   : mem == MEM_W16 ? ek_elem(m, &c->w16, idx)
                                    : ek_at(m, mem == MEM_ACT ? c->act : c->bias, idx);
    const spvgen_memory_operands mo = mem == MEM_W16 ? mlp_mem16(&c->w16) : (spvgen_memory_operands){0, 0, 0};
    if (!stride) /* spvgen_coopmat_load reads a stride of 0 as no Stride operand */
      return spvgen_coopmat_load_stride_id(m, type, ptr, lay, spvgen_const_u32(m, 0), &mo);
    return spvgen_coopmat_load(m, type, ptr, lay, stride, &mo);
  }
  if (mem == MEM_WSM) {
    idx = ek_mul_imm(m, idx, 8);
    stride *= 8;
  }
  emu_loop L;
  emu_begin(c, &L, spvgen_const_null(m, c->emu_arr));
  uint32_t row, col;
  emu_pos(c, L.i, &row, &col);
  uint32_t off = col_major ? ek_iadd(m, ek_mul_imm(m, col, stride), row)
                           : ek_iadd(m, ek_mul_imm(m, row, stride), col);
  spvgen_store(m, L.elem, emu_mem_load(c, mem, ek_iadd(m, idx, off)));
  return emu_end(c, &L);
}

/* The emulation's f16 store of a fragment into wsm (16-byte chunks; idx and stride in
 * chunks, rows starting on a chunk): a lane's elements are emu_len consecutive ones of a
 * row (an even count from an even column), so it writes whole 32-bit words, two halves
 * each, and no word is shared with another lane. */
static void emu_store_wsm(mat_ctx *c, uint32_t idx, uint32_t v, uint32_t stride) {
  spvgen_module *m = c->m;
  uint32_t arr = ek_local(m, c->emu_arr, 0), iv = ek_local(m, c->u32, 0);
  spvgen_store(m, arr, v);
  ek_for f;
  uint32_t i = ek_for_begin_var(m, &f, iv, ek_u32(m, 0), ek_u32(m, c->emu_len / 2), ek_u32(m, 1),
                                SpvLoopControlDontUnrollMask);
  uint32_t i0 = ek_mul_imm(m, i, 2), row, col;
  emu_pos(c, i0, &row, &col);
  uint32_t h = ek_iadd(m, ek_mul_imm(m, idx, 8), ek_iadd(m, ek_mul_imm(m, row, stride * 8), col));
  uint32_t pair[2];
  for (uint32_t t = 0; t < 2; t++)
    pair[t] = spvgen_op_f_convert(m, c->f16, spvgen_load(m, c->f32, ek_at(m, arr, ek_add_imm(m, i0, t))));
  uint32_t word = spvgen_op_bitcast(m, c->u32, spvgen_op_composite_construct(m, spvgen_type_vector(m, c->f16, 2), pair, 2));
  spvgen_store(m, ek_at2(m, c->wsm, ek_div_imm(m, h, 8), ek_div_imm(m, ek_mod_imm(m, h, 8), 2)), word);
  ek_for_end(m, &f);
}

/* Row-major store of a fragment at element idx of the activation block (f16), of the
 * training kernel's f32 shared array (MEM_F32) or of binding 2 (out: its buffer; the
 * output type). */
static void frag_store(mat_ctx *c, enum frag_mem mem, const ek_buffer *out, uint32_t idx, uint32_t v,
                       uint32_t stride) {
  spvgen_module *m = c->m;
  if (!c->emu) {
    uint32_t ptr = mem == MEM_ACT   ? ek_at(m, c->act, idx)
                   : mem == MEM_F32 ? ek_at(m, c->fsh, idx)
                   : mem == MEM_WSM ? ek_at(m, c->wsm, idx)
                                    : ek_elem(m, out, idx);
    const spvgen_memory_operands mo = mem == MEM_OUT ? mlp_mem16(out) : (spvgen_memory_operands){0, 0, 0};
    spvgen_coopmat_store(m, ptr, v, SpvCooperativeMatrixLayoutRowMajorKHR, stride, &mo);
    return;
  }
  if (mem == MEM_WSM) {
    emu_store_wsm(c, idx, v, stride);
    return;
  }
  emu_loop L;
  emu_begin(c, &L, v);
  uint32_t row, col;
  emu_pos(c, L.i, &row, &col);
  uint32_t at = ek_iadd(m, idx, ek_iadd(m, ek_mul_imm(m, row, stride), col));
  uint32_t x = spvgen_load(m, c->f32, L.elem);
  if (mem == MEM_ACT)
    spvgen_store(m, ek_at(m, c->act, at), spvgen_op_f_convert(m, c->f16, x));
  else if (mem == MEM_F32)
    spvgen_store(m, ek_at(m, c->fsh, at), x);
  else
    spvgen_store(m, ek_elem(m, out, at), ek_convert(m, x, SPVGEN_COMPONENT_F32, c->p->desc.output_type));
  emu_end(c, &L);
}

/* The emulated MulAdd as a function of the module (emitted before the entry point). */
static uint32_t emu_muladd_function(mat_ctx *c) {
  spvgen_module *m = c->m;
  uint32_t types[3] = {c->emu_arr, c->emu_arr, c->emu_arr}, params[3];
  uint32_t fn = spvgen_function_begin(m, c->emu_arr, SpvFunctionControlDontInlineMask, types, 3, params);
  spvgen_name(m, fn, "emulated_muladd");
  uint32_t tid = ek_load_u32(m, ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex));
  uint32_t saved_lane = c->lane;
  c->lane = ek_mod_imm(m, tid, c->g.sg);
  uint32_t sbase = ek_mul_imm(m, ek_div_imm(m, tid, c->g.sg), 2 * FR * FR);
  uint32_t av = ek_local(m, c->emu_arr, 0), bv = ek_local(m, c->emu_arr, 0);
  uint32_t kv = ek_local(m, c->u32, 0), sv = ek_local(m, c->f32, 0);
  spvgen_store(m, av, params[0]);
  spvgen_store(m, bv, params[1]);
  emu_loop L;
  emu_begin(c, &L, params[2]);
  {
    uint32_t e = ek_iadd(m, ek_mul_imm(m, c->lane, c->emu_len), L.i);
    uint32_t ia = ek_iadd(m, sbase, e), ib = ek_add_imm(m, ia, FR * FR);
    /* A and B hold f16 values: an f16 scratch is exact (and half the shared memory) */
    spvgen_store(m, ek_at(m, c->scr, ia),
                 spvgen_op_f_convert(m, c->f16, spvgen_load(m, c->f32, ek_at(m, av, L.i))));
    spvgen_store(m, ek_at(m, c->scr, ib),
                 spvgen_op_f_convert(m, c->f16, spvgen_load(m, c->f32, ek_at(m, bv, L.i))));
  }
  uint32_t acc = emu_end(c, &L);
  ek_subgroup_barrier(m);
  emu_begin(c, &L, acc);
  {
    uint32_t row, col;
    emu_pos(c, L.i, &row, &col);
    spvgen_store(m, sv, spvgen_load(m, c->f32, L.elem));
    /* The streamed form's subgroups make every MulAdd of their rows: its K loop is
     * straight-line, so that deep networks stay inside llvmpipe's budget of 65,535 loop
     * passes per invocation (shared by every loop; past it loops stop early, silently). */
    const bool flat = c->g.stream;
    ek_for fk;
    for (uint32_t kk = 0; kk < (flat ? FR : 1); kk++) {
      uint32_t k = flat ? ek_u32(m, kk)
                        : ek_for_begin_var(m, &fk, kv, ek_u32(m, 0), ek_u32(m, FR), ek_u32(m, 1),
                                           SpvLoopControlDontUnrollMask);
      uint32_t ia = ek_iadd(m, sbase, ek_iadd(m, ek_mul_imm(m, row, FR), k));
      uint32_t ib = ek_iadd(m, sbase, ek_iadd(m, ek_u32(m, FR * FR), ek_iadd(m, ek_mul_imm(m, k, FR), col)));
      uint32_t x = spvgen_op_f_convert(m, c->f32, spvgen_load(m, c->f16, ek_at(m, c->scr, ia)));
      uint32_t y = spvgen_op_f_convert(m, c->f32, spvgen_load(m, c->f16, ek_at(m, c->scr, ib)));
      spvgen_store(m, sv, spvgen_glsl_fma(m, c->f32, x, y, spvgen_load(m, c->f32, sv)));
      if (!flat) ek_for_end(m, &fk);
    }
    uint32_t sum = spvgen_load(m, c->f32, sv);
    spvgen_store(m, L.elem, c->p->desc.f16_accumulation ? f16_round(c, sum) : sum);
  }
  uint32_t out = emu_end(c, &L);
  ek_subgroup_barrier(m);
  spvgen_return_value(m, out);
  spvgen_function_end(m);
  c->lane = saved_lane;
  return fn;
}

static uint32_t frag_muladd(mat_ctx *c, uint32_t a, uint32_t b, uint32_t acc) {
  if (!c->emu) return spvgen_coopmat_muladd(c->m, c->tc, a, b, acc, 0);
  uint32_t args[3] = {a, b, acc};
  return spvgen_op_function_call(c->m, c->emu_arr, c->emu_fn, args, 3);
}

/* Conversion of an accumulator fragment to another component type (to16: f16 values). */
static uint32_t frag_convert(mat_ctx *c, uint32_t to_type, bool to16, uint32_t v) {
  if (!c->emu) return spvgen_coop_convert(c->m, to_type, v);
  if (!to16) return v;
  emu_loop L;
  emu_begin(c, &L, v);
  spvgen_store(c->m, L.elem, f16_round(c, spvgen_load(c->m, c->f32, L.elem)));
  return emu_end(c, &L);
}

/* The activation on every component of an accumulator fragment, as a function
 * `tc act(tc)` (one per activation the network uses, emitted before the entry point):
 * a loop over this invocation's components (OpCooperativeMatrixLengthKHR) through a
 * Function variable; the activations do not depend on the position. For training (f32
 * accumulators) the same with act'(z), or with act' of the output y (FN_DERIV_OF_OUTPUT,
 * the deriv_from_output activations). */
enum comp_fn { FN_ACT, FN_DERIV_OF_Z, FN_DERIV_OF_OUTPUT };
static uint32_t deriv_of_output(mat_ctx *c, uint32_t y, spvgen_mlp_activation act);

static uint32_t component_function(mat_ctx *c, spvgen_mlp_activation act, enum comp_fn kind) {
  spvgen_module *m = c->m;
  bool f16acc = c->p->desc.f16_accumulation && !c->emu;
  bool round16 = c->p->desc.f16_accumulation && c->emu;
  uint32_t ctype = f16acc ? c->f16 : c->f32;
  uint32_t param = 0;
  uint32_t fn = spvgen_function_begin(m, c->tc, SpvFunctionControlMaskNone, &c->tc, 1, &param);
  char name[48];
  if (kind != FN_ACT)
    snprintf(name, sizeof name, "%s%s", spvgen_mlp_activation_name(act),
             kind == FN_DERIV_OF_Z ? "_derivative" : "_derivative_of_output");
  spvgen_name(m, fn, kind == FN_ACT ? spvgen_mlp_activation_name(act) : name);
  uint32_t var = ek_local(m, c->tc, 0);
  uint32_t iv = ek_local(m, c->u32, 0);
  spvgen_store(m, var, param);
  uint32_t len = c->emu ? ek_u32(m, c->emu_len) : spvgen_coopmat_length(m, c->tc);
  ek_for f;
  uint32_t i = ek_for_begin_var(m, &f, iv, ek_u32(m, 0), len, ek_u32(m, 1), SpvLoopControlUnrollMask);
  uint32_t ptr = coop_at(c, ctype, var, i);
  uint32_t x = spvgen_load(m, ctype, ptr);
  if (f16acc) x = spvgen_op_f_convert(m, c->f32, x);
  uint32_t y = kind == FN_ACT               ? mlp_activation_f32(m, c->p, x, act)
               : kind == FN_DERIV_OF_OUTPUT ? deriv_of_output(c, x, act)
                                            : mlp_act_deriv_f32(m, c->p, x, mlp_activation_f32(m, c->p, x, act), act);
  if (f16acc) y = spvgen_op_f_convert(m, c->f16, y);
  if (round16) y = f16_round(c, y);
  spvgen_store(m, ptr, y);
  ek_for_end(m, &f);
  spvgen_return_value(m, spvgen_load(m, c->tc, var));
  spvgen_function_end(m);
  return fn;
}

static uint32_t activation_function(mat_ctx *c, spvgen_mlp_activation act) {
  return component_function(c, act, FN_ACT);
}

/* A Workgroup array of `count` elements of type elem, named. */
static uint32_t shared_array(mat_ctx *c, uint32_t elem, uint32_t count, const char *name) {
  spvgen_module *m = c->m;
  uint32_t v = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, spvgen_type_array(m, elem, count)),
                               SpvStorageClassWorkgroup, 0);
  spvgen_name(m, v, name);
  return v;
}

/* What the inference and the training kernels both declare: the scalar and pointer
 * types, the weights (f16 at binding 1, and 16-byte chunks where layers are staged), the
 * 16-byte view of f16 points without encoding (binding 0), the f16 activation array
 * (act_halves, named act_name), the staged biases and weights, the emulation's state and
 * the fragment types. c->m, c->p and c->g are set. */
static void declare_common(mat_ctx *c, const char *act_name, uint32_t act_halves) {
  spvgen_module *m = c->m;
  const spvgen_mlp_desc *d = &c->p->desc;
  const mat_geom *g = &c->g;
  c->u32 = ek_u32_type(m);
  c->f16 = spvgen_type_float(m, 16);
  c->f32 = ek_f32_type(m);
  c->v4 = spvgen_type_vector(m, c->u32, 4);
  c->facc = ek_type(m, acc_type(d));
  /* device addresses: views of the pointers (mat_emit makes the input's again once the
   * workgroup has moved it) */
  c->w16 = c->bda ? c->bda->weights : ek_buffer_decl(m, c->f16, 1, true, "weights");
  if (mlp_mat_input_chunks(d))
    c->in4 = c->bda ? ek_buffer_view(m, &c->bda->in, c->v4, 0, true, "input4") : ek_buffer_decl(m, c->v4, 0, true, "input4");
  if (g->wchunks)
    c->w4 = c->bda ? ek_buffer_view(m, &c->bda->weights, c->v4, 1, true, "weights4")
                   : ek_buffer_decl(m, c->v4, 1, true, "weights4");
  if (act_halves) c->act = shared_array(c, c->f16, act_halves, act_name);
  if (g->bias_halves) c->bias = shared_array(c, c->f16, g->bias_halves * g->bias_rows, "bias");
  if (g->wchunks) c->wsm = shared_array(c, c->v4, g->wchunks, "wsm");
  c->emu = emulated(c->p);
  if (c->emu) {
    c->emu_len = FR * FR / g->sg;
    c->emu_arr = spvgen_type_array(m, c->f32, c->emu_len);
    c->scr = shared_array(c, c->f16, g->S * 2 * FR * FR, "emulation_scratch");
  }
  c->ta = frag_type(c, c->f16, SpvCooperativeMatrixUseMatrixAKHR);
  c->tb = frag_type(c, c->f16, SpvCooperativeMatrixUseMatrixBKHR);
  c->tc = frag_type(c, c->facc, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
  c->tc16 = d->f16_accumulation ? c->tc : frag_type(c, c->f16, SpvCooperativeMatrixUseMatrixAccumulatorKHR);
}

/* The block's encoded inputs into the activation block (rows of c->g.ars halves from
 * the start), padding columns zeroed: the hash grid's (point, level) pairs as `spread`
 * says (inference: a run-time level loop with the Unroll hint around the block's
 * points), f16 points without encoding in 16-byte chunks, others component by
 * component. */
static void stage_inputs(mat_ctx *c, const input_arg *ia, spvgen_mlp_grid_spread spread) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const mat_geom *g = &c->g;
  if (p->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID) {
    mlp_grid grid;
    mlp_grid_begin(m, p, &c->w16, &grid);
    grid_arg ga = {ia, &grid, 0};
    grid_pairs_loop(c, spread, SpvLoopControlUnrollMask, &ga.level, stage_grid_point, &ga);
  } else if (c->in4.var) {
    strided_loop(c, g->P * p->desc.input_width / 8, stage_input_chunk, ia);
  } else {
    strided_loop(c, g->P * p->desc.input_width, stage_input, ia);
  }
  if (g->kp[0] > p->encoded_width) strided_loop(c, g->P * (g->kp[0] - p->encoded_width), stage_input_pad, NULL);
}

/* Layer l's weight fragments for 16-wide column fragment j (an id), from the staged copy
 * (16-byte chunks, rows of rs[l]) or the weight buffer: forward, B = W^T with K along
 * the inputs (kp / 16 fragments, ColumnMajor); backward, B = W with K along the outputs
 * and j a fragment of the inputs (np / 16 fragments, RowMajor). */
static void weight_frags(mat_ctx *c, uint32_t l, uint32_t j, bool backward, uint32_t *b) {
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const spvgen_mlp_layer *L = &c->p->layers[l];
  const uint32_t n = (backward ? g->np[l] : g->kp[l]) / FR, rsh = L->row_stride / 2;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t idx;
    if (g->staged[l]) /* chunk woff + (16 j) rs + 2 k, or woff + (16 k) rs + 2 j */
      idx = backward ? ek_add_imm(m, ek_mul_imm(m, j, 2), g->woff[l] + FR * k * g->rs[l])
                     : ek_add_imm(m, ek_mul_imm(m, j, FR * g->rs[l]), g->woff[l] + 2 * k);
    else
      idx = backward ? ek_add_imm(m, ek_mul_imm(m, j, FR), (uint32_t)(L->matrix_offset / 2) + FR * k * rsh)
                     : ek_add_imm(m, ek_mul_imm(m, j, FR * rsh), (uint32_t)(L->matrix_offset / 2) + FR * k);
    b[k] = frag_load(c, c->tb, g->staged[l] ? MEM_WSM : MEM_W16, idx, !backward, g->staged[l] ? g->rs[l] : rsh);
  }
}

/* The accumulator layer l's output fragment j (an id) starts from: the bias fragment
 * (the staged bias rows: 16 copies, or one row loaded with a stride of 0, which
 * SPV_KHR_cooperative_matrix allows for loads: every row of the fragment then reads the
 * same halves) as the accumulator type, or zero_acc without biases. */
static uint32_t bias_init(mat_ctx *c, uint32_t l, uint32_t j, uint32_t zero_acc) {
  spvgen_module *m = c->m;
  if (c->p->desc.no_bias) return zero_acc;
  const uint32_t rows = c->g.bias_rows;
  uint32_t bi = ek_add_imm(m, ek_mul_imm(m, j, FR), rows * c->g.boff[l]);
  uint32_t v = frag_load(c, c->tc16, MEM_BIAS, bi, false, rows == 1 ? 0 : c->g.np[l] + c->g.bias_pad);
  return c->p->desc.f16_accumulation ? v : frag_convert(c, c->tc, false, v);
}

/* The layers in the rows arrangement (desc.mat_rows, tiny-cuda-nn's): subgroup sgid owns
 * the block's point fragments sgid Rs .. sgid Rs + Rs - 1. Per layer it loads their A
 * fragments (Rs x K / 16, kept in registers), then for each output fragment j (a run-time
 * loop) column j's B fragments and the bias, Rs MulAdd chains, the activation, and the f16
 * result stored over its own rows once every lane has loaded the layer's A (a subgroup
 * barrier); the last layer's full blocks with output_width a multiple of 16 go straight to
 * binding 2 (the caller writes the others from the activation block). No workgroup
 * barrier between layers: a subgroup reads and writes its own rows only. */
static void emit_layers_rows(mat_ctx *c, const mlp_io *io, uint32_t sgid, uint32_t base, uint32_t full,
                             const uint32_t *act_fn, uint32_t zero_acc) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const spvgen_mlp_desc *d = &p->desc;
  const mat_geom *g = &c->g;
  const bool direct_out = d->output_width % FR == 0;
  uint32_t rows[MAX_ACC];
  for (uint32_t rr = 0; rr < g->Rs; rr++) /* element of the fragment's first row */
    rows[rr] = ek_mul_imm(m, ek_add_imm(m, ek_mul_imm(m, sgid, g->Rs), rr), FR * g->ars);
  uint32_t jv = ek_local(m, c->u32, 0);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    const bool last = l + 1 == p->layer_count;
    const uint32_t nf = g->np[l] / FR, kf = g->kp[l] / FR;
    uint32_t a[MAX_KF];
    for (uint32_t rr = 0; rr < g->Rs; rr++)
      for (uint32_t k = 0; k < kf; k++)
        a[rr * kf + k] = frag_load(c, c->ta, MEM_ACT, ek_add_imm(m, rows[rr], k * FR), false, g->ars);
    ek_subgroup_barrier(m); /* every lane has its part of A: the rows may be overwritten */
    ek_for fj;
    uint32_t j = ek_for_begin_var(m, &fj, jv, ek_u32(m, 0), ek_u32(m, nf), ek_u32(m, 1), SpvLoopControlMaskNone);
    {
      uint32_t b[MAX_KF];
      weight_frags(c, l, j, false, b);
      uint32_t init = bias_init(c, l, j, zero_acc);
      uint32_t col = ek_mul_imm(m, j, FR);
      for (uint32_t rr = 0; rr < g->Rs; rr++) {
        uint32_t acc = init;
        for (uint32_t k = 0; k < kf; k++) acc = frag_muladd(c, a[rr * kf + k], b[k], acc);
        if (act_fn[L->activation]) acc = spvgen_op_function_call(m, c->tc, act_fn[L->activation], &acc, 1);
        if (last && direct_out) {
          spvgen_if(m, full);
          uint32_t out_t = ek_type(m, d->output_type);
          uint32_t v = acc;
          if (out_t != c->facc)
            v = frag_convert(c, frag_type(c, out_t, SpvCooperativeMatrixUseMatrixAccumulatorKHR),
                             d->output_type == SPVGEN_COMPONENT_F16, acc);
          uint32_t pt = ek_iadd(m, base, ek_mul_imm(m, ek_add_imm(m, ek_mul_imm(m, sgid, g->Rs), rr), FR));
          frag_store(c, MEM_OUT, &io->out, ek_iadd(m, ek_mul_imm(m, pt, d->output_width), col), v, d->output_width);
          spvgen_else(m);
        }
        uint32_t v = d->f16_accumulation ? acc : frag_convert(c, c->tc16, true, acc);
        frag_store(c, MEM_ACT, NULL, ek_iadd(m, rows[rr], col), v, g->ars);
        if (last && direct_out) spvgen_end_if(m);
      }
    }
    ek_for_end(m, &fj);
    ek_subgroup_barrier(m); /* the layer's outputs visible to the subgroup's next loads */
  }
}

/* The point fragments' loop of the columns arrangement: for (r = 0; r < R; r++) over the
 * counter rv, with the Unroll hint (the driver unrolls it, so the accumulator array's
 * indices become constants and the accumulators registers, while the module holds one
 * copy of a fragment's loads and MulAdds instead of R). */
static uint32_t point_frags_begin(mat_ctx *c, ek_for *f, uint32_t rv) {
  spvgen_module *m = c->m;
  return ek_for_begin_var(m, f, rv, ek_u32(m, 0), ek_u32(m, c->g.R), ek_u32(m, 1), SpvLoopControlUnrollMask);
}

/* Layer l in the columns arrangement (the default): subgroup sgid owns output fragments
 * j = sgid + jj S (own of them; the last one guarded where S does not divide nf), each
 * with R accumulators in a Function array: the guard's branches and the barrier separate
 * computing them from storing them. */
typedef struct cols_layer {
  uint32_t l, nf, kf, own;
  bool guard;               /* the last owned fragment may be past nf */
  uint32_t rv;              /* the point fragments' counter */
  uint32_t accv[MAX_ACC];   /* per owned fragment: tc[R] */
  uint32_t jv[MAX_ACC];     /* per owned fragment: j (unclamped) */
} cols_layer;

/* Main loop: per owned fragment j, its B fragments and bias, then per point fragment r
 * the MulAdd chain over K and the activation, into accv[jj][r]. In the emulation every
 * subgroup must reach every barrier (lavapipe makes each barrier a workgroup one): there
 * the spare subgroups compute the last fragment again (clamped); the stores are guarded. */
static void cols_compute(mat_ctx *c, cols_layer *s, uint32_t sgid, const uint32_t *act_fn, uint32_t zero_acc) {
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const spvgen_mlp_activation act = c->p->layers[s->l].activation;
  for (uint32_t jj = 0; jj < s->own; jj++) {
    s->jv[jj] = ek_add_imm(m, sgid, jj * g->S);
    ek_own o;
    uint32_t j = ek_own_begin(m, &o, s->jv[jj], s->nf, s->guard && jj + 1 == s->own, c->emu);
    uint32_t b[MAX_KF];
    weight_frags(c, s->l, j, false, b);
    uint32_t init = bias_init(c, s->l, j, zero_acc);
    ek_for f;
    uint32_t r = point_frags_begin(c, &f, s->rv);
    uint32_t row = ek_mul_imm(m, r, FR * g->ars);
    uint32_t acc = init;
    for (uint32_t k = 0; k < s->kf; k++)
      acc = frag_muladd(c, frag_load(c, c->ta, MEM_ACT, ek_add_imm(m, row, k * FR), false, g->ars), b[k], acc);
    if (act_fn[act]) acc = spvgen_op_function_call(m, c->tc, act_fn[act], &acc, 1);
    spvgen_store(m, coop_at(c, c->tc, s->accv[jj], r), acc);
    ek_for_end(m, &f);
    ek_own_end(m, &o);
  }
}

/* Owned fragment jj's guard for the stores (0: none needed). */
static uint32_t cols_store_guard(mat_ctx *c, const cols_layer *s, uint32_t jj) {
  return s->guard && jj + 1 == s->own ? ek_lt_imm(c->m, s->jv[jj], s->nf) : 0;
}

/* Epilogue of the last layer of a full block (output_width a multiple of 16): the
 * accumulators straight to binding 2, in the output type. */
static void cols_store_output(mat_ctx *c, const cols_layer *s, const mlp_io *io, uint32_t base) {
  spvgen_module *m = c->m;
  const spvgen_mlp_desc *d = &c->p->desc;
  uint32_t out_t = ek_type(m, d->output_type);
  bool conv = out_t != c->facc;
  uint32_t to = conv ? frag_type(c, out_t, SpvCooperativeMatrixUseMatrixAccumulatorKHR) : c->tc;
  for (uint32_t jj = 0; jj < s->own; jj++) {
    ek_guard g = ek_guard_begin(m, cols_store_guard(c, s, jj));
    ek_for f;
    uint32_t r = point_frags_begin(c, &f, s->rv);
    uint32_t v = spvgen_load(m, c->tc, coop_at(c, c->tc, s->accv[jj], r));
    if (conv) v = frag_convert(c, to, d->output_type == SPVGEN_COMPONENT_F16, v);
    uint32_t idx = ek_iadd(m, ek_mul_imm(m, ek_iadd(m, base, ek_mul_imm(m, r, FR)), d->output_width),
                           ek_mul_imm(m, s->jv[jj], FR));
    frag_store(c, MEM_OUT, &io->out, idx, v, d->output_width);
    ek_for_end(m, &f);
    ek_guard_end(m, g);
  }
}

/* Epilogue into the activation block, in place (f16), over the layer's input. */
static void cols_store_act(mat_ctx *c, const cols_layer *s) {
  spvgen_module *m = c->m;
  for (uint32_t jj = 0; jj < s->own; jj++) {
    ek_guard g = ek_guard_begin(m, cols_store_guard(c, s, jj));
    ek_for f;
    uint32_t r = point_frags_begin(c, &f, s->rv);
    uint32_t v = spvgen_load(m, c->tc, coop_at(c, c->tc, s->accv[jj], r));
    if (!c->p->desc.f16_accumulation) v = frag_convert(c, c->tc16, true, v);
    uint32_t idx = ek_iadd(m, ek_mul_imm(m, s->jv[jj], FR), ek_mul_imm(m, r, FR * c->g.ars));
    frag_store(c, MEM_ACT, NULL, idx, v, c->g.ars);
    ek_for_end(m, &f);
    ek_guard_end(m, g);
  }
}

/* The layers in the columns arrangement: per layer the main loop, then (the last layer
 * of a full block with direct output) the accumulators to binding 2, else, after every
 * subgroup has read the block (and the layer's biases: the next layer's go into the same
 * rows meanwhile), into the activation block; the last layer's block is then written to
 * binding 2 from there. */
static void emit_layers_cols(mat_ctx *c, const mlp_io *io, const input_arg *ia, uint32_t sgid, uint32_t full,
                             const uint32_t *act_fn, uint32_t zero_acc) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const mat_geom *g = &c->g;
  const bool staged = p->desc.output_path == SPVGEN_MLP_OUTPUT_STAGED;
  const bool direct_out = p->desc.output_width % FR == 0 && !staged;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const bool last = l + 1 == p->layer_count;
    cols_layer s = {.l = l, .nf = g->np[l] / FR, .kf = g->kp[l] / FR};
    s.own = mlp_ceil_div(s.nf, g->S);
    s.guard = s.nf % g->S != 0;
    uint32_t arr_t = spvgen_type_array(m, c->tc, g->R);
    for (uint32_t jj = 0; jj < s.own; jj++) s.accv[jj] = ek_local(m, arr_t, 0);
    s.rv = ek_local(m, c->u32, 0);
    cols_compute(c, &s, sgid, act_fn, zero_acc);
    if (last && direct_out) {
      spvgen_if(m, full);
      cols_store_output(c, &s, io, ia->base);
      spvgen_else(m);
    }
    spvgen_workgroup_barrier(m);
    if (!last && g->bias_halves) {
      uint32_t ln = l + 1;
      strided_loop(c, g->bias_rows * g->np[ln], stage_bias, &ln);
    }
    cols_store_act(c, &s);
    spvgen_workgroup_barrier(m);
    if (last) {
      if (staged)
        strided_loop(c, g->P * p->desc.output_width / 8, write_output_chunk, ia);
      else
        strided_loop(c, g->P * p->desc.output_width, write_output, ia);
      if (direct_out) spvgen_end_if(m);
    }
  }
}

/* The activation functions the layers use (emitted before the entry point). */
static void activation_functions(mat_ctx *c, uint32_t layers, uint32_t *act_fn) {
  for (uint32_t l = 0; l < layers; l++) {
    spvgen_mlp_activation a = c->p->layers[l].activation;
    if (a != SPVGEN_MLP_ACT_NONE && !act_fn[a]) act_fn[a] = activation_function(c, a);
  }
}

/* Staging: the weights of the layers not made of whole fragments, the biases (every
 * layer's with all_biases or without g->rotate, else the first layer's: the others are
 * staged in turn between a layer's barriers), the block's inputs (ia NULL: none). */
static void stage_block(mat_ctx *c, const input_arg *ia, bool all_biases) {
  const mat_geom *g = &c->g;
  const uint32_t L = c->p->layer_count;
  for (uint32_t l = 0; l < L; l++)
    if (g->staged[l]) strided_loop(c, g->np[l] * (g->kp[l] / 8), stage_weight_chunk, &l);
  if (g->bias_halves)
    for (uint32_t l = 0; l < (all_biases || !g->rotate ? L : 1); l++)
      strided_loop(c, g->bias_rows * (g->np[l] + g->bias_pad), stage_bias, &l);
  if (ia) stage_inputs(c, ia, SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP);
}

/* ------------------------------------------------- the streamed form: emit ---- */

typedef struct stream_ctx {
  mat_ctx *c;
  const mlp_io *io;
  const input_arg *ia;
  uint32_t sgid, full, zero_acc;
  const uint32_t *act_fn;
  uint32_t a_arr, c_arr;      /* Function arrays: A fragments [Rs][kfa], accumulators [Rs][nfa] */
  uint32_t nv;                /* the output-fragment loop's counter */
  uint32_t pre[MAX_CPI];      /* the next slab's chunks, in flight (Function v4) */
  uint32_t tile;              /* this subgroup's tile in a buffer, chunks */
} stream_ctx;

static uint32_t a_at(stream_ctx *x, uint32_t r, uint32_t k) {
  return coop_at(x->c, x->c->ta, x->a_arr, ek_u32(x->c->m, r * x->c->g.kfa + k));
}

static uint32_t acc_at(stream_ctx *x, uint32_t r, uint32_t n) {
  return coop_at(x->c, x->c->tc, x->c_arr, ek_add_imm(x->c->m, n, r * x->c->g.nfa));
}

/* Slab s of layer l (its inputs s kd .. s kd + kd, every row of the widest layer, zero
 * past this layer's) from the weight buffer into the invocation's chunk registers. */
static void slab_load(stream_ctx *x, uint32_t l, uint32_t s) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const uint32_t cpr = g->kd / 8;
  for (uint32_t i = 0; i < g->cpi; i++) {
    uint32_t e = ek_add_imm(m, c->tid, i * g->nt);
    uint32_t row = ek_div_imm(m, e, cpr), q = ek_add_imm(m, ek_mod_imm(m, e, cpr), s * cpr);
    spvgen_store(m, x->pre[i], weight_chunk(c, l, row, q));
  }
}

/* The chunk registers into slab buffer b (rows of rsc chunks). */
static void slab_store(stream_ctx *x, uint32_t b) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const uint32_t cpr = g->kd / 8;
  for (uint32_t i = 0; i < g->cpi; i++) {
    uint32_t e = ek_add_imm(m, c->tid, i * g->nt);
    ek_guard gd = ek_guard_begin(m, (i + 1) * g->nt > g->slab_chunks ? ek_lt_imm(m, e, g->slab_chunks) : 0);
    uint32_t row = ek_div_imm(m, e, cpr), q = ek_mod_imm(m, e, cpr);
    uint32_t at = ek_add_imm(m, ek_iadd(m, ek_mul_imm(m, row, g->rsc), q), b * g->buf_chunks);
    spvgen_store(m, ek_at(m, c->wsm, at), spvgen_load(m, c->v4, x->pre[i]));
    ek_guard_end(m, gd);
  }
}

/* for (n = 0; n < count; n++) over output fragments: a run-time loop with the Unroll hint
 * (the accumulators' indices become constants once the driver unrolls it; DontUnroll in
 * the emulation, which lavapipe compiles in a fraction of the time). FRAG_LOOP's n is the
 * counter's id. */
typedef struct frag_loop {
  ek_for f;
  bool open;
} frag_loop;

static uint32_t frag_loop_begin(stream_ctx *x, frag_loop *L, uint32_t count) {
  spvgen_module *m = x->c->m;
  L->open = true;
  return ek_for_begin_var(m, &L->f, x->nv, ek_u32(m, 0), ek_u32(m, count), ek_u32(m, 1),
                          x->c->emu ? SpvLoopControlDontUnrollMask : SpvLoopControlUnrollMask);
}

static uint32_t frag_loop_next(stream_ctx *x, frag_loop *L) {
  ek_for_end(x->c->m, &L->f);
  L->open = false;
  return 0;
}

/* The body runs once in the module (the loop is the SPIR-V loop). */
#define FRAG_LOOP(x, L, n, count) \
  for (uint32_t n = frag_loop_begin(x, &L, count); L.open; n = frag_loop_next(x, &L))

/* Input chunk e of the block into wsm (rows of ars / 8 chunks): f16 points without
 * encoding, 16-byte loads, zero past the count and in the padding columns. */
static void stage_input_wsm(mat_ctx *c, uint32_t e, const void *arg) {
  const input_arg *a = arg;
  spvgen_module *m = c->m;
  const uint32_t cpp = c->p->desc.input_width / 8, cpk = c->g.kp[0] / 8;
  uint32_t pt = ek_div_imm(m, e, cpk), q = ek_mod_imm(m, e, cpk);
  uint32_t gp = ek_iadd(m, a->base, pt);
  uint32_t ok = ek_and(m, ek_ult(m, gp, a->n), ek_lt_imm(m, q, cpp));
  uint32_t gi = ek_select(m, ok, ek_iadd(m, ek_mul_imm(m, gp, cpp), q), ek_u32(m, 0));
  uint32_t v = ek_select(m, ok, spvgen_load(m, c->v4, ek_elem(m, &c->in4, gi)), spvgen_const_null(m, c->v4));
  spvgen_store(m, ek_at(m, c->wsm, ek_iadd(m, ek_mul_imm(m, pt, c->g.ars / 8), q)), v);
}

/* Zero A fragments [from, to) of every owned point fragment (a layer's padding to whole
 * slabs: its slabs hold zero weights there, and 0 x garbage could be NaN). */
static void zero_a(stream_ctx *x, uint32_t from, uint32_t to) {
  mat_ctx *c = x->c;
  uint32_t z = c->emu ? spvgen_const_null(c->m, c->ta) : spvgen_coop_splat(c->m, c->ta, spvgen_const_null(c->m, c->f16));
  for (uint32_t r = 0; r < c->g.Rs; r++)
    for (uint32_t k = from; k < to; k++) spvgen_store(c->m, a_at(x, r, k), z);
}

/* The block's encoded inputs as layer 0's A fragments. */
static void stream_inputs(stream_ctx *x) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  if (g->chunk_input)
    strided_loop(c, g->P * (g->kp[0] / 8), stage_input_wsm, x->ia);
  else
    stage_inputs(c, x->ia, SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP); /* as inference's other forms */
  spvgen_workgroup_barrier(m);
  for (uint32_t r = 0; r < g->Rs; r++) {
    uint32_t row0 = ek_mul_imm(m, ek_add_imm(m, ek_mul_imm(m, x->sgid, g->Rs), r), FR);
    for (uint32_t k = 0; k < g->kp[0] / FR; k++) {
      uint32_t v = g->chunk_input
                       ? frag_load(c, c->ta, MEM_WSM, ek_add_imm(m, ek_mul_imm(m, row0, g->ars / 8), 2 * k), false, g->ars / 8)
                       : frag_load(c, c->ta, MEM_ACT, ek_add_imm(m, ek_mul_imm(m, row0, g->ars), FR * k), false, g->ars);
      spvgen_store(m, a_at(x, r, k), v);
    }
  }
  zero_a(x, g->kp[0] / FR, g->ns[0] * g->kd / FR);
  if (g->chunk_input) spvgen_workgroup_barrier(m); /* the slabs reuse the rows */
}

/* Slab s of layer l from buffer b: per output fragment n its kd / 16 B fragments, and
 * per owned point fragment the MulAdd chain over them. */
static void slab_compute(stream_ctx *x, uint32_t l, uint32_t s, uint32_t b) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const uint32_t kt = g->kd / FR;
  frag_loop L;
  FRAG_LOOP(x, L, n, g->np[l] / FR) {
    uint32_t bf[4];
    for (uint32_t t = 0; t < kt; t++)
      bf[t] = frag_load(c, c->tb, MEM_WSM, ek_add_imm(m, ek_mul_imm(m, n, FR * g->rsc), b * g->buf_chunks + 2 * t),
                        true, g->rsc);
    for (uint32_t r = 0; r < g->Rs; r++) {
      uint32_t acc = spvgen_load(m, c->tc, acc_at(x, r, n));
      for (uint32_t t = 0; t < kt; t++)
        acc = frag_muladd(c, spvgen_load(m, c->ta, a_at(x, r, s * kt + t)), bf[t], acc);
      spvgen_store(m, acc_at(x, r, n), acc);
    }
  }
}

/* The last layer's output fragment n of point fragment r (acc, after the activation):
 * to binding 2 as a fragment where the block is full and the outputs are whole
 * fragments, else through the subgroup's tile (f16), each lane storing its elements
 * inside the point count and the output width. */
static void stream_output(stream_ctx *x, uint32_t r, uint32_t n, uint32_t acc, uint32_t tile) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const spvgen_mlp_desc *d = &c->p->desc;
  const bool direct = d->output_width % FR == 0;
  uint32_t pt0 = ek_iadd(m, x->ia->base, ek_mul_imm(m, ek_add_imm(m, ek_mul_imm(m, x->sgid, g->Rs), r), FR));
  if (direct) {
    spvgen_if(m, x->full);
    uint32_t out_t = ek_type(m, d->output_type), v = acc;
    if (out_t != c->facc)
      v = frag_convert(c, frag_type(c, out_t, SpvCooperativeMatrixUseMatrixAccumulatorKHR),
                       d->output_type == SPVGEN_COMPONENT_F16, acc);
    frag_store(c, MEM_OUT, &x->io->out, ek_iadd(m, ek_mul_imm(m, pt0, d->output_width), ek_mul_imm(m, n, FR)), v,
               d->output_width);
    spvgen_else(m);
  }
  uint32_t v16 = d->f16_accumulation ? acc : frag_convert(c, c->tc16, true, acc);
  frag_store(c, MEM_WSM, NULL, tile, v16, TILE_RS);
  ek_subgroup_barrier(m);
  for (uint32_t i = 0; i < FR * FR / g->sg; i++) {
    uint32_t e = ek_add_imm(m, c->lane, i * g->sg);
    uint32_t row = ek_div_imm(m, e, FR), col = ek_mod_imm(m, e, FR);
    uint32_t gp = ek_iadd(m, pt0, row), comp = ek_iadd(m, ek_mul_imm(m, n, FR), col);
    ek_guard in = ek_guard_begin(m, ek_and(m, ek_ult(m, gp, x->ia->n), ek_lt_imm(m, comp, d->output_width)));
    uint32_t h = ek_iadd(m, ek_mul_imm(m, tile, 8), ek_iadd(m, ek_mul_imm(m, row, TILE_RS * 8), col));
    mlp_store_output(m, c->p, x->io, gp, comp, emu_mem_load(c, MEM_WSM, h));
    ek_guard_end(m, in);
  }
  ek_subgroup_barrier(m); /* every lane has read the tile */
  if (direct) spvgen_end_if(m);
}

/* Layer l's epilogue from its accumulators: bias was the start, now the activation;
 * the last layer's outputs, else the next layer's A fragments through the tile in the
 * free buffer fb. */
static void stream_epilogue(stream_ctx *x, uint32_t l, uint32_t fb) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const spvgen_mlp_config *p = c->p;
  const bool last = l + 1 == p->layer_count;
  const spvgen_mlp_activation act = p->layers[l].activation;
  uint32_t tile = ek_add_imm(m, x->tile, fb * g->buf_chunks);
  frag_loop L;
  FRAG_LOOP(x, L, n, g->np[l] / FR) {
    for (uint32_t r = 0; r < g->Rs; r++) {
      uint32_t acc = spvgen_load(m, c->tc, acc_at(x, r, n));
      if (x->act_fn[act]) acc = spvgen_op_function_call(m, c->tc, x->act_fn[act], &acc, 1);
      if (last) {
        stream_output(x, r, n, acc, tile);
        continue;
      }
      uint32_t v16 = p->desc.f16_accumulation ? acc : frag_convert(c, c->tc16, true, acc);
      frag_store(c, MEM_WSM, NULL, tile, v16, TILE_RS);
      ek_subgroup_barrier(m);
      spvgen_store(m, coop_at(c, c->ta, x->a_arr, ek_add_imm(m, n, r * g->kfa)),
                   frag_load(c, c->ta, MEM_WSM, tile, false, TILE_RS));
      ek_subgroup_barrier(m); /* every lane has loaded the tile before the next store */
    }
  }
  if (!last) {
    zero_a(x, g->np[l] / FR, g->ns[l + 1] * g->kd / FR);
    spvgen_workgroup_barrier(m); /* the tiles' buffer takes the next layer's second slab */
  }
}

static void emit_layers_stream(mat_ctx *c, const mlp_io *io, const input_arg *ia, uint32_t sgid, uint32_t full,
                               const uint32_t *act_fn, uint32_t zero_acc) {
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const spvgen_mlp_config *p = c->p;
  stream_ctx x = {.c = c, .io = io, .ia = ia, .sgid = sgid, .full = full, .zero_acc = zero_acc, .act_fn = act_fn};
  x.a_arr = ek_local(m, spvgen_type_array(m, c->ta, g->Rs * g->kfa), 0);
  x.c_arr = ek_local(m, spvgen_type_array(m, c->tc, g->Rs * g->nfa), 0);
  x.nv = ek_local(m, c->u32, 0);
  for (uint32_t i = 0; i < g->cpi; i++) x.pre[i] = ek_local(m, c->v4, 0);
  x.tile = ek_mul_imm(m, sgid, FR * TILE_RS);
  stream_inputs(&x);
  slab_load(&x, 0, 0);
  slab_store(&x, 0);
  spvgen_workgroup_barrier(m);
  uint32_t j = 0; /* the network's slab count so far: slab j is in buffer j % 2 */
  for (uint32_t l = 0; l < p->layer_count; l++) {
    frag_loop L;
    FRAG_LOOP(&x, L, n, g->np[l] / FR)
    for (uint32_t r = 0; r < g->Rs; r++) spvgen_store(m, acc_at(&x, r, n), bias_init(c, l, n, zero_acc));
    for (uint32_t s = 0; s < g->ns[l]; s++, j++) {
      const bool next = s + 1 < g->ns[l] || l + 1 < p->layer_count;
      if (next) slab_load(&x, s + 1 < g->ns[l] ? l : l + 1, s + 1 < g->ns[l] ? s + 1 : 0);
      slab_compute(&x, l, s, j % 2);
      if (next) slab_store(&x, (j + 1) % 2);
      spvgen_workgroup_barrier(m);
    }
    stream_epilogue(&x, l, (j - 1) % 2);
  }
}

static void mat_emit(spvgen_module *m, const spvgen_mlp_config *p) {
  const spvgen_mlp_desc *d = &p->desc;
  mat_ctx cx = {.m = m, .p = p}, *c = &cx;
  if (d->mat_slab)
    stream_geometry(p, p->subgroup_size, p->local_size[0] / p->subgroup_size, d->points_per_group, d->mat_slab,
                    &c->g);
  else
    geometry(p, p->subgroup_size, p->local_size[0] / p->subgroup_size, d->points_per_group, !d->mat_rows,
             d->mat_rows, &c->g);
  const mat_geom *g = &c->g;
  mlp_io io;
  mlp_declare_io(m, p, &io);
  const bool bda = d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (bda) c->bda = &io;
  declare_common(c, "act", g->act_halves);
  if (!bda && d->output_path == SPVGEN_MLP_OUTPUT_STAGED)
    c->out4 = ek_buffer_view(m, &io.out, c->v4, 2, false, "output4");
  uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  uint32_t lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  uint32_t act_fn[SPVGEN_MLP_ACT_COUNT] = {0};
  activation_functions(c, p->layer_count, act_fn);
  if (c->emu) c->emu_fn = emu_muladd_function(c);

  spvgen_compute_main(m, "main", g->nt, 1, 1);
  c->tid = ek_load_u32(m, lid_var);
  uint32_t sgid = ek_div_imm(m, c->tid, g->sg);
  c->lane = ek_mod_imm(m, c->tid, g->sg);
  uint32_t n = spvgen_push_constant_load(m, &io.pc, 0);
  uint32_t base = ek_mul_imm(m, ek_load_v3_component(m, wg_var, 0), g->P);
  if (bda) {
    /* The block's points from its first: the input and output pointers move there in 64
     * bits (points past 4 GB), the points left from it are the count, the block starts at
     * point 0 (no index grows with the point count). */
    n = mlp_io_rebase(m, p, &io, base, n);
    base = ek_u32(m, 0);
    if (c->in4.ptr_type) c->in4 = ek_buffer_view(m, &io.in, c->v4, 0, true, "input4");
    if (d->output_path == SPVGEN_MLP_OUTPUT_STAGED) c->out4 = ek_buffer_view(m, &io.out, c->v4, 2, false, "output4");
  }
  input_arg ia = {&io, base, n};
  if (g->stream) { /* the biases only: the inputs and weights have their own paths */
    for (uint32_t l = 0; l < p->layer_count && g->bias_halves; l++)
      strided_loop(c, g->np[l], stage_bias, &l);
  } else {
    stage_block(c, &ia, false);
    spvgen_workgroup_barrier(m);
  }

  const bool direct_out = d->output_width % FR == 0 && d->output_path != SPVGEN_MLP_OUTPUT_STAGED;
  uint32_t full = 0;
  if (direct_out) full = spvgen_op_logical_not(m, ek_bool_type(m), ek_ult(m, n, ek_add_imm(m, base, g->P)));
  uint32_t zero_acc = c->emu ? spvgen_const_null(m, c->tc) : spvgen_coop_splat(m, c->tc, spvgen_const_null(m, c->facc));
  if (g->stream) {
    emit_layers_stream(c, &io, &ia, sgid, full, act_fn, zero_acc);
  } else if (g->rows) {
    emit_layers_rows(c, &io, sgid, base, full, act_fn, zero_acc);
    ek_guard partial = ek_guard_begin(m, direct_out ? spvgen_op_logical_not(m, ek_bool_type(m), full) : 0);
    spvgen_workgroup_barrier(m);
    strided_loop(c, g->P * d->output_width, write_output, &ia);
    ek_guard_end(m, partial);
  } else {
    emit_layers_cols(c, &io, &ia, sgid, full, act_fn, zero_acc);
  }
  spvgen_function_end(m);
}

const mlp_variant_ops mlp_variant_mat = {"mat", mat_plan, mat_candidates, mat_emit, NULL, NULL};

/* ------------------------------------------------------------ training ----
 * The gradient kernel on cooperative matrices (spvgen/mlp.h, "training", the mat
 * variant): the loop variant's bindings, push constants and slots, so the loop
 * optimizer and the host path serve both. A workgroup of S subgroups takes chunks of P
 * points (P = net.points_per_group; chunk k of workgroup g: points (g + k G) P + 0..P).
 * Per chunk, in shared memory (f16 blocks, P rows, padded widths + 8 halves):
 *   block l (l < L)  a_l, the input of layer l (block 0: the encoded points, zero past
 *                    the count); during the backward pass it becomes delta_(l-1)
 *   block L          delta_(L-1), the output layer's delta
 *   z blocks         act'(z_l) of hidden layers whose derivative is not a function of
 *                    their output (SiLU; leaky ReLU with a slope <= 0), only where a
 *                    subgroup would keep more than MAX_DZ such fragments: else they stay
 *                    in its registers from the forward to the backward (mt_geometry)
 *   f32              the output layer's z (P x np), and a 16 x 16 tile per subgroup
 *   biases           one zero-padded row per layer (f16), staged once
 * Forward: as the inference kernel, Y^T = X^T W^T per 16-wide output fragment (bias
 * fragments loaded from the layer's bias row with a stride of 0), activations per
 * component, f16 stores into the next block; the output layer's z stays f32. Then per
 * (point, output) the loss and
 * delta_(L-1) = dLoss/dy * act'(z) (unscaled by 1 / (N outputs): the deltas stay O(1)
 * in f16; the scale is applied to the f32 tile sums). Backward, layer l = L-1 .. 0:
 *   dW_l  = delta_l^T a_l: tiles 16 x 16 of np_l x kp_l, tile t on subgroup t % S, a sum
 *           over the chunk's points (A = delta_l read ColumnMajor, B = a_l RowMajor),
 *           f32; through the subgroup's scratch tile each lane adds its elements, times
 *           1 / (N outputs), into the workgroup's slot (the same invocation always owns
 *           an element: no atomics, no storage barriers);
 *   db_l  = column sums of delta_l, element i by invocation i % (S sg);
 *   delta_(l-1) = (delta_l W_l) .* act'(z_(l-1)) (W_l RowMajor from the weights or the
 *           staged copy; act' from a_l, or kept from the forward: a component-wise
 *           OpFMul of two accumulator fragments of the same type, which
 *           SPV_KHR_cooperative_matrix allows), stored over a_l after a barrier.
 * With the hash grid, l = 0 too: delta_enc = delta_0 W_0 (no activation) over block 0,
 * then level by level each invocation scatters its points' share (times 1 / (N outputs))
 * into the table's gradient with atomic adds (emitters/mlp/grid.c).
 * The slot's elements are zeroed first by their owners; padding is never written.
 * Held form (t->grad_held): adding every chunk's tiles to the slot is a read and a write
 * of the whole network's gradient per chunk of P points (16-128x3-3 at P = 16: 280 KiB of
 * L2 traffic per 16 points, one round trip after another), which bound the kernel. So
 * where the tiles fit (at most MAX_HELD per subgroup over all layers), each subgroup
 * keeps its tiles as accumulator fragments in Function variables across the chunks, each
 * invocation its bias sums; after the last chunk they go to the slot once, written (not
 * added) by their owners through scratch tiles over the dead z rows, subgroups taking
 * turns where fewer scratch tiles fit than there are subgroups. Nothing is zeroed first. */

typedef struct mt_geom {
  mat_geom g; /* the widths, staging and biases of the net at S, P */
  uint32_t bo[SPVGEN_MLP_MAX_LAYERS + 1], bs[SPVGEN_MLP_MAX_LAYERS + 1]; /* f16 blocks (halves) */
  uint32_t dzo[SPVGEN_MLP_MAX_LAYERS];
  bool dz[SPVGEN_MLP_MAX_LAYERS];  /* layer l's act'(z) kept from the forward (not from a_(l+1)) */
  bool dz_regs;                    /* kept in registers (else in z blocks at dzo) */
  bool dz_over;                    /* registers required, more than MAX_DZ fragments */
  uint32_t dz_frags;               /* the fragments one subgroup would keep in registers */
  uint32_t halves, zs, so, floats; /* f16 halves; f32: z at 0 (stride zs), tiles at so */
  uint32_t dz_halves;              /* of halves, the z blocks' */
  uint32_t max_live;
  uint32_t shared_bytes;
  bool row, regs;      /* the levers asked for: one bias row, act'(z) in registers */
  bool held;           /* the dW tiles and bias sums held in registers across the chunks */
  uint32_t held_tiles; /* the most dW tiles one subgroup owns, over all layers */
  uint32_t scr;        /* scratch tiles at so (held: at 0, over z, used after the chunks) */
} mt_geom;

/* Whether act'(z) is a function of act(z) as rounded to f16 (the a_l block). */
static bool deriv_from_output(const spvgen_mlp_desc *d, spvgen_mlp_activation a) {
  return a != SPVGEN_MLP_ACT_SILU && (a != SPVGEN_MLP_ACT_LEAKY_RELU || d->leaky_slope > 0);
}

/* The training kernel's geometry at S subgroups and chunks of P points, with or without
 * two levers that keep things out of shared memory (spvgen_mlp_grad_bias,
 * spvgen_mlp_grad_act_deriv; the planner takes each only where it buys the chunk):
 *  - row: the biases in one zero-padded row per layer, loaded with a stride of 0
 *    (bias_init), instead of 16 copies (1/16 of the bytes: what lets width 256 plan a
 *    chunk at all). The 16 copies take a row stride of np + 8 halves, as the activation
 *    blocks do: at a stride of np (128 bytes on a 64-wide layer) the rows a fragment
 *    load reads at once would all lie on the same shared-memory banks;
 *  - regs: act'(z) of the layers that need it from the forward (SiLU, leaky ReLU with a
 *    slope <= 0) in registers: the forward's owner of output fragment (r, j) of layer l
 *    is the backward's owner of delta_l's fragment (r, j) (both: subgroup j % S, every
 *    point fragment r; the same accumulator type, so the same lanes hold the same
 *    elements), so the subgroup keeps it as an f16 accumulator fragment in a Function
 *    variable and delta = (delta W) .* act'(z) is a component-wise product of two of its
 *    own fragments. At most MAX_DZ fragments per subgroup (registers for the whole
 *    chunk): past that the z blocks in shared memory stay, and where the desc requires
 *    the registers (need) the geometry is dz_over. */
static void mt_geometry(const spvgen_mlp_config *p, uint32_t sg, uint32_t S, uint32_t P, bool held, bool row,
                        bool regs, bool need, mt_geom *t) {
  memset(t, 0, sizeof *t);
  geometry(p, sg, S, P, false, false, &t->g);
  t->row = row;
  t->regs = regs;
  if (row) {
    t->g.bias_rows = 1;
  } else { /* geometry's 16 rows, each padded */
    t->g.bias_pad = 8;
    t->g.bias_halves = 0;
    for (uint32_t l = 0; l < p->layer_count; l++) {
      t->g.boff[l] = t->g.bias_halves;
      if (!p->desc.no_bias) t->g.bias_halves += t->g.np[l] + t->g.bias_pad;
    }
  }
  const mat_geom *g = &t->g;
  const uint32_t L = p->layer_count;
  uint32_t h = 0;
  for (uint32_t l = 0; l <= L; l++) {
    uint32_t w = l < L ? g->kp[l] : g->np[L - 1];
    t->bo[l] = h;
    t->bs[l] = w + 8;
    h += P * t->bs[l];
  }
  for (uint32_t l = 0; l + 1 < L; l++) {
    t->dz[l] = !deriv_from_output(&p->desc, p->layers[l].activation);
    if (t->dz[l]) t->dz_frags += g->R * mlp_ceil_div(g->np[l] / FR, S);
  }
  t->dz_regs = regs && t->dz_frags && t->dz_frags <= MAX_DZ;
  t->dz_over = regs && need && t->dz_frags > MAX_DZ;
  for (uint32_t l = 0; l + 1 < L && !t->dz_regs; l++)
    if (t->dz[l]) {
      t->dzo[l] = h;
      t->dz_halves += P * t->bs[l + 1];
      h += P * t->bs[l + 1];
    }
  t->halves = h;
  t->zs = g->np[L - 1];
  t->held = held;
  for (uint32_t l = 0; l < L; l++) t->held_tiles += mlp_ceil_div((g->np[l] / FR) * (g->kp[l] / FR), S);
  if (held) {
    /* The scratch tiles of the final writes (and the loss shares after them) reuse the
     * z rows, dead once the chunks are done: as many tiles as fit, subgroups taking
     * turns, instead of S tiles of shared memory for the whole kernel. */
    uint32_t f = P * t->zs;
    if (f < S * sg) f = S * sg;
    if (f < FR * FR) f = FR * FR;
    t->so = 0;
    t->floats = f;
    t->scr = f / (FR * FR) < S ? f / (FR * FR) : S;
  } else {
    t->so = P * t->zs;
    t->floats = t->so + S * FR * FR;
    t->scr = S;
  }
  /* The backward pass's deltas of layer l's inputs: l >= 1, and with the hash grid l = 0
   * too (the encoded input's, scattered into the table). */
  for (uint32_t l = p->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID ? 0 : 1; l < L; l++) {
    uint32_t live = g->R * mlp_ceil_div(g->kp[l] / FR, S);
    if (live > t->max_live) t->max_live = live;
  }
  t->shared_bytes = h * 2 + t->floats * 4 + g->bias_halves * g->bias_rows * 2 + g->wchunks * 16;
}

/* The forms the planner tries at each chunk, in order (spvgen/mlp.h, grad_bias and
 * grad_act_deriv): 16 bias rows and act'(z) blocks (what the module spells out is then
 * the inference kernel's bias load and no live fragments across the chunk), one bias
 * row, act'(z) in registers as well; only the forms the desc allows. 16 rows with
 * act'(z) in registers only where the desc asks for both. */
typedef struct mt_form {
  bool row, regs;
} mt_form;

static uint32_t mt_forms(const spvgen_mlp_train_desc *d, mt_form *out) {
  static const mt_form ladder[4] = {{false, false}, {true, false}, {false, true}, {true, true}};
  const spvgen_mlp_grad_bias b = d->grad_bias;
  const spvgen_mlp_grad_act_deriv a = d->grad_act_deriv;
  uint32_t n = 0;
  for (uint32_t i = 0; i < 4; i++) {
    const mt_form f = ladder[i];
    if ((b == SPVGEN_MLP_GRAD_BIAS_ROWS && f.row) || (b == SPVGEN_MLP_GRAD_BIAS_ROW && !f.row) ||
        (a == SPVGEN_MLP_GRAD_ACT_DERIV_SHARED && f.regs) || (a == SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS && !f.regs))
      continue;
    if (!f.row && f.regs && b == SPVGEN_MLP_GRAD_BIAS_AUTO && a == SPVGEN_MLP_GRAD_ACT_DERIV_AUTO)
      continue; /* auto: the registers come after the bias row */
    out[n++] = f;
  }
  return n;
}

/* Whether a chunk's geometry fits: the accumulators, the shared memory, the registers
 * asked for act'(z). */
static bool mt_fits(const mt_geom *t, uint32_t shared_max) {
  return t->max_live <= MAX_ACC && t->shared_bytes <= shared_max && !t->dz_over;
}

spvgen_status mlp_mat_train_plan(const spvgen_device_caps *caps, spvgen_mlp_train_config *t,
                                 uint32_t invocations, char *msg, size_t size) {
  spvgen_mlp_config *p = &t->net;
  spvgen_mlp_desc *d = &p->desc;
  const uint32_t sg = p->subgroup_size ? p->subgroup_size : 32;
  if (d->f16_accumulation)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                   "variant mat: training accumulates in f32 (f16 products of deltas and "
                   "activations lose small gradients); clear net.f16_accumulation");
  uint32_t S = p->local_size[0] / sg;
  if (invocations) {
    if (invocations % sg || invocations / sg > MAX_SG)
      return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                     "grad_workgroup_size %u: the mat variant takes 1 to %u subgroups of %u "
                     "invocations", invocations, MAX_SG, sg);
    S = invocations / sg;
  }
  if (!S) S = 1;
  mt_geom tg;
  uint32_t P = d->points_per_group;
  const uint32_t shared_max = caps->max_shared_memory ? caps->max_shared_memory : 16384;
  if (P && (P % FR || P > 256))
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                   "net.points_per_group %u: mat training takes a multiple of 16 up to 256", P);
  static const uint32_t tries[] = {64, 32, 16};
  const size_t ntries = P ? 1 : sizeof tries / sizeof tries[0];
  mt_form forms[4];
  const uint32_t nforms = mt_forms(&t->desc, forms);
  const bool need = t->desc.grad_act_deriv == SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS;
  uint32_t max_inv = caps->max_workgroup_invocations ? caps->max_workgroup_invocations : 128;
  if (max_inv > 1024) max_inv = 1024;
  /* The held form first (unless the desc asks for slot adds): the gradient of the whole
   * network stays in the registers of one workgroup, so a workgroup takes as many
   * subgroups as make each one's share at most MAX_HELD tiles (from the inference
   * block's, doubling; only the desc's where it sets the size), with the largest chunk
   * that fits in any of the forms, and at that chunk the first form that fits (a lever
   * only where the chunk needs it). The scratch tiles then cost no shared memory of their
   * own. */
  bool held = false;
  for (uint32_t s_try = S; !t->desc.grad_slot_adds && s_try <= MAX_SG && s_try * sg <= max_inv && !held;
       s_try *= 2) {
    uint32_t bh = 0;
    for (uint32_t l = 0; l < p->layer_count; l++)
      if (mlp_ceil_div(p->layers[l].outputs, s_try * sg) > bh) bh = mlp_ceil_div(p->layers[l].outputs, s_try * sg);
    for (size_t i = 0; i < ntries && !held; i++)
      for (uint32_t f = 0; f < nforms && !held; f++) {
        mt_geometry(p, sg, s_try, P ? P : tries[i], true, forms[f].row, forms[f].regs, need, &tg);
        held = mt_fits(&tg, shared_max) && tg.held_tiles <= MAX_HELD && bh <= MAX_BH;
      }
    if (held) S = s_try;
    if (invocations) break;
  }
  /* Else slot adds. The chunk (points, unless the desc sets them) and its form, and,
   * where the gradient kernel's size is open, the subgroups: the inference block's first,
   * then fewer (each subgroup's f32 tiles take shared memory; the inference choice may
   * take a block with no room left for a training chunk). The first that fits; else the
   * inference block's own at its last try (the smallest chunk, the last form), for its
   * reason. */
  mt_geom first;
  memset(&first, 0, sizeof first);
  for (uint32_t s_try = S; !held; s_try /= 2) {
    bool fit = false;
    for (size_t i = 0; i < ntries && !fit; i++)
      for (uint32_t f = 0; f < nforms && !fit; f++) {
        mt_geometry(p, sg, s_try, P ? P : tries[i], false, forms[f].row, forms[f].regs, need, &tg);
        fit = mt_fits(&tg, shared_max);
      }
    if (s_try == S) first = tg;
    if (fit || invocations || s_try <= 1) {
      if (fit) S = s_try;
      else tg = first;
      break;
    }
  }
  P = tg.g.P;
  if (tg.dz_over)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "grad_act_deriv registers: a chunk of %u points with %u subgroups keeps %u act'(z) "
                          "fragments per subgroup, at most %u in registers (grad_act_deriv auto or shared: "
                          "in shared memory; or fewer points: net.points_per_group)",
                          P, S, tg.dz_frags, MAX_DZ);
  if (tg.max_live > MAX_ACC)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                   "variant mat: %u points per chunk with %u subgroups keep %u accumulator "
                   "fragments per subgroup in the backward pass, at most %u (fewer points or "
                   "more subgroups: net.points_per_group, grad_workgroup_size)",
                   P, S, tg.max_live, MAX_ACC);
  if (tg.shared_bytes > shared_max) {
    char dz[112] = "";
    if (tg.dz_frags && tg.dz_regs)
      snprintf(dz, sizeof dz, ", act'(z) in registers (%u fragments per subgroup)", tg.dz_frags);
    else if (tg.dz_frags > MAX_DZ)
      snprintf(dz, sizeof dz, ", act'(z) blocks %u (%u fragments per subgroup, over %u for registers)",
               tg.dz_halves * 2, tg.dz_frags, MAX_DZ);
    else if (tg.dz_frags)
      snprintf(dz, sizeof dz, ", act'(z) blocks %u (%u fragments per subgroup, grad_act_deriv shared)",
               tg.dz_halves * 2, tg.dz_frags);
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "variant mat: a chunk of %u points with %u subgroups needs %u bytes of shared "
                          "memory (every layer's activations and the deltas %u%s, f32 z and tiles %u, "
                          "%s %u, staged weights %u); %s has %u (fewer points: "
                          "net.points_per_group 16)",
                          P, S, tg.shared_bytes, (tg.halves - tg.dz_halves) * 2, dz, tg.floats * 4,
                          tg.row ? "one bias row per layer" : "16 bias rows per layer",
                          tg.g.bias_halves * tg.g.bias_rows * 2, tg.g.wchunks * 16, caps->name, shared_max);
  }
  d->points_per_group = P;
  d->workgroup_size = S * sg;
  p->local_size[0] = S * sg;
  p->local_size[1] = p->local_size[2] = 1;
  p->points_per_workgroup = P;
  t->grad_local_size[0] = S * sg;
  t->grad_local_size[1] = t->grad_local_size[2] = 1;
  t->grad_shared_bytes = tg.shared_bytes;
  t->grad_held = held;
  t->desc.grad_bias = tg.row ? SPVGEN_MLP_GRAD_BIAS_ROW : SPVGEN_MLP_GRAD_BIAS_ROWS;
  t->desc.grad_act_deriv = tg.regs ? SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS : SPVGEN_MLP_GRAD_ACT_DERIV_SHARED;
  t->grad_act_deriv_frags = tg.dz_regs ? tg.dz_frags : 0;
  return SPVGEN_OK;
}

/* Component-wise multiply of two accumulator fragments. */
static uint32_t frag_mul(mat_ctx *c, uint32_t a, uint32_t b) {
  spvgen_module *m = c->m;
  if (!c->emu) return spvgen_coop_arith(m, SpvOpFMul, a, b);
  uint32_t bv = ek_local(m, c->emu_arr, 0);
  spvgen_store(m, bv, b);
  emu_loop L;
  emu_begin(c, &L, a);
  uint32_t y = spvgen_load(m, c->f32, ek_at(m, bv, L.i));
  spvgen_store(m, L.elem, spvgen_op_f_mul(m, c->f32, spvgen_load(m, c->f32, L.elem), y));
  return emu_end(c, &L);
}

/* act' from y = act(z) (f32 ids; deriv_from_output activations). */
static uint32_t deriv_of_output(mat_ctx *c, uint32_t y, spvgen_mlp_activation act) {
  spvgen_module *m = c->m;
  uint32_t f32 = c->f32, b = ek_bool_type(m);
  uint32_t one = spvgen_const_f32(m, 1.0f), zero = spvgen_const_f32(m, 0.0f);
  switch (act) {
  case SPVGEN_MLP_ACT_RELU: return ek_select(m, spvgen_op_f_ord_greater_than(m, b, y, zero), one, zero);
  case SPVGEN_MLP_ACT_LEAKY_RELU:
    return ek_select(m, spvgen_op_f_ord_greater_than_equal(m, b, y, zero), one,
                     spvgen_const_f32(m, c->p->desc.leaky_slope));
  case SPVGEN_MLP_ACT_SIGMOID: return spvgen_op_f_mul(m, f32, y, spvgen_op_f_sub(m, f32, one, y));
  case SPVGEN_MLP_ACT_TANH: return spvgen_op_f_sub(m, f32, one, spvgen_op_f_mul(m, f32, y, y));
  case SPVGEN_MLP_ACT_EXP: return y;
  default: return one;
  }
}

typedef struct mt_ctx {
  mat_ctx *c;
  const spvgen_mlp_train_config *t;
  mt_geom tg;
  ek_buffer tgt, grad, loss, gwords; /* gwords: the gradient as u32 words (grid atomics); device
                                        addresses: the table's gradient, f32 or u32 */
  ek_buffer tgt_all;                 /* device addresses: the target pointer (tgt: the chunk's) */
  mlp_atomics gat;                   /* how the table's gradient is added */
  const mlp_io *io;
  const mlp_grid *grid;
  uint32_t level;                    /* the scatter's level (an id) */
  uint32_t sgid, slot, inv, n, base, v_loss, grp, zero_acc;
  uint32_t wg_var, lid_var;          /* built-ins */
  /* the hidden layers' activations and derivatives (of z, of the output y) */
  uint32_t act_fn[SPVGEN_MLP_ACT_COUNT], dz_fn[SPVGEN_MLP_ACT_COUNT], dy_fn[SPVGEN_MLP_ACT_COUNT];
  /* held form: layer l's dW tiles of this subgroup (Function variables, accumulator
   * fragments) and this invocation's bias sums (f32) */
  uint32_t held_w[SPVGEN_MLP_MAX_LAYERS][MAX_HELD], held_b[SPVGEN_MLP_MAX_LAYERS][MAX_BH];
  /* act'(z) in registers (tg.dz_regs): layer l's fragment (jj, r) of this subgroup (f16
   * accumulator Function variables), from the forward of a chunk to its backward */
  uint32_t dzv[SPVGEN_MLP_MAX_LAYERS][MAX_DZ];
} mt_ctx;

/* What a pass over the gradients does: zero the slot, add this chunk's sums to the slot
 * (slot adds); add them to the held sums, write the held sums to the slot (held). */
typedef enum grad_pass { GRAD_ZERO, GRAD_ADD, GRAD_HOLD, GRAD_WRITE } grad_pass;

/* Point e of the chunk at one level of the hash grid (points inside the count): the
 * encoded input's delta (block 0, f16, unscaled) times 1 / (N outputs), scattered into
 * the table's gradient. */
static void scatter_grid_point(mat_ctx *c, uint32_t e, const void *arg) {
  const mt_ctx *x = arg;
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const uint32_t D = p->desc.input_width, F = p->desc.grid.features;
  uint32_t gp = ek_iadd(m, x->base, e);
  ek_guard inside = ek_guard_begin(m, ek_ult(m, gp, x->n));
  uint32_t xs[3], df[8];
  for (uint32_t k = 0; k < D; k++) xs[k] = mlp_load_input(m, p, x->io, gp, ek_u32(m, k));
  uint32_t row = ek_iadd(m, ek_mul_imm(m, e, x->tg.bs[0]),
                        ek_add_imm(m, ek_mul_imm(m, x->level, F), x->tg.bo[0]));
  for (uint32_t f = 0; f < F; f++)
    df[f] = spvgen_op_f_mul(m, c->f32, x->inv,
                            spvgen_op_f_convert(m, c->f32, spvgen_load(m, c->f16, act_ptr(c, ek_add_imm(m, row, f)))));
  mlp_grid_level_scatter(m, x->grid, x->level, xs, df, &x->gat,
                         ek_u32(m, c->bda ? 0 : (uint32_t)x->t->grid_grad_offset));
  ek_guard_end(m, inside);
}

/* The slot element of layer l's weight gradient (i, j) (ids). */
static uint32_t grad_index(mt_ctx *x, const spvgen_mlp_layer *L, uint32_t i, uint32_t j) {
  spvgen_module *m = x->c->m;
  return ek_iadd(m, ek_iadd(m, ek_mul_imm(m, i, L->row_stride / 2), j),
                 ek_add_imm(m, x->slot, (uint32_t)(L->matrix_offset / 2)));
}

/* Whether (i, j) lies inside layer l's matrix (and ok, where the owner's writes count). */
static uint32_t in_layer(mt_ctx *x, const spvgen_mlp_layer *L, uint32_t i, uint32_t j, uint32_t ok) {
  spvgen_module *m = x->c->m;
  uint32_t cond = ek_and(m, ek_lt_imm(m, i, L->outputs), ek_lt_imm(m, j, L->inputs));
  return ok ? ek_and(m, cond, ok) : cond;
}

/* Layer l's gradient tile (jo, ki): acc (f32 accumulator; 0 = write zeros) times inv
 * added to the slot (set: written over it) by the lanes, element lane + q sg of the
 * tile, through the subgroup's scratch tile (sgid % scr). */
static void grad_tile_out(mt_ctx *x, uint32_t l, uint32_t jo, uint32_t ki, uint32_t ok, uint32_t acc, bool set) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const spvgen_mlp_layer *L = &c->p->layers[l];
  const uint32_t sg = c->g.sg;
  uint32_t si = x->tg.scr < c->g.S ? ek_mod_imm(m, x->sgid, x->tg.scr) : x->sgid;
  uint32_t sbase = ek_add_imm(m, ek_mul_imm(m, si, FR * FR), x->tg.so);
  if (acc) {
    frag_store(c, MEM_F32, NULL, sbase, acc, FR);
    ek_subgroup_barrier(m);
  }
  if (acc && FR * FR / sg <= 16) {
    /* Unrolled: every load of the slot first (each under its own condition, into a
     * Function variable), then the stores; the loads do not wait on one another (a loop
     * of load, add, store is bound by the memory latency). */
    uint32_t n = FR * FR / sg, gi[16], vv[16], cond[16];
    for (uint32_t q = 0; q < n; q++) {
      uint32_t e = ek_add_imm(m, c->lane, q * sg);
      uint32_t i = ek_add_imm(m, ek_mul_imm(m, jo, FR), q * sg / FR);
      i = ek_iadd(m, i, ek_div_imm(m, c->lane, FR));
      uint32_t j = ek_iadd(m, ek_mul_imm(m, ki, FR), ek_mod_imm(m, e, FR));
      cond[q] = in_layer(x, L, i, j, ok);
      gi[q] = grad_index(x, L, i, j);
      vv[q] = ek_local(m, c->f32, 0);
      ek_guard inside = ek_guard_begin(m, cond[q]);
      uint32_t sv = spvgen_load(m, c->f32, ek_at(m, c->fsh, ek_iadd(m, sbase, e)));
      spvgen_store(m, vv[q], set ? spvgen_op_f_mul(m, c->f32, x->inv, sv)
                                 : spvgen_glsl_fma(m, c->f32, x->inv, sv, ek_load_elem(m, &x->grad, gi[q])));
      ek_guard_end(m, inside);
    }
    for (uint32_t q = 0; q < n; q++) {
      ek_guard inside = ek_guard_begin(m, cond[q]);
      ek_store_elem(m, &x->grad, gi[q], spvgen_load(m, c->f32, vv[q]));
      ek_guard_end(m, inside);
    }
    ek_subgroup_barrier(m);
    return;
  }
  ek_for f;
  uint32_t e = ek_for_begin_var(m, &f, ek_local(m, c->u32, 0), c->lane, ek_u32(m, FR * FR), ek_u32(m, sg),
                                SpvLoopControlDontUnrollMask);
  uint32_t i = ek_iadd(m, ek_mul_imm(m, jo, FR), ek_div_imm(m, e, FR));
  uint32_t j = ek_iadd(m, ek_mul_imm(m, ki, FR), ek_mod_imm(m, e, FR));
  ek_guard inside = ek_guard_begin(m, in_layer(x, L, i, j, ok));
  uint32_t ptr = ek_elem(m, &x->grad, grad_index(x, L, i, j));
  uint32_t v = spvgen_const_f32(m, 0.0f);
  if (acc) {
    uint32_t s = spvgen_load(m, c->f32, ek_at(m, c->fsh, ek_iadd(m, sbase, e)));
    v = set ? spvgen_op_f_mul(m, c->f32, x->inv, s) : spvgen_glsl_fma(m, c->f32, x->inv, s, spvgen_load(m, c->f32, ptr));
  }
  spvgen_store(m, ptr, v);
  ek_guard_end(m, inside);
  ek_for_end(m, &f);
  if (acc) ek_subgroup_barrier(m);
}

/* Layer l's weight gradient tiles of this subgroup, as the pass says: the chunk's sums
 * are sum over the point fragments of delta_l^T a_l. */
static void grad_tiles(mt_ctx *x, uint32_t l, grad_pass pass) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const uint32_t kf = g->kp[l] / FR, T = (g->np[l] / FR) * kf, own = mlp_ceil_div(T, g->S);
  const uint32_t dS = x->tg.bs[l + 1], aS = x->tg.bs[l];
  for (uint32_t tt = 0; tt < own; tt++) {
    ek_own o;
    uint32_t t = ek_own_begin(m, &o, ek_add_imm(m, x->sgid, tt * g->S), T, T % g->S && tt + 1 == own, c->emu);
    uint32_t jo = ek_div_imm(m, t, kf), ki = ek_mod_imm(m, t, kf);
    uint32_t acc = 0;
    if (pass == GRAD_WRITE) acc = spvgen_load(m, c->tc, x->held_w[l][tt]);
    if (pass == GRAD_ADD || pass == GRAD_HOLD) {
      acc = pass == GRAD_HOLD ? spvgen_load(m, c->tc, x->held_w[l][tt])
            : c->emu          ? spvgen_const_null(m, c->tc)
                              : spvgen_coop_splat(m, c->tc, spvgen_const_null(m, c->f32));
      for (uint32_t r = 0; r < g->R; r++) {
        uint32_t ai = ek_add_imm(m, ek_mul_imm(m, jo, FR), x->tg.bo[l + 1] + r * FR * dS);
        uint32_t bi = ek_add_imm(m, ek_mul_imm(m, ki, FR), x->tg.bo[l] + r * FR * aS);
        uint32_t a = frag_load(c, c->ta, MEM_ACT, ai, true, dS);
        uint32_t b = frag_load(c, c->tb, MEM_ACT, bi, false, aS);
        acc = frag_muladd(c, a, b, acc);
      }
    }
    if (pass == GRAD_HOLD) spvgen_store(m, x->held_w[l][tt], acc);
    else grad_tile_out(x, l, jo, ki, o.ok, acc, pass == GRAD_WRITE);
    ek_own_end(m, &o);
  }
}

/* The column sum of delta_l over the chunk's points at output i (an id), f32. */
static uint32_t delta_column_sum(mt_ctx *x, uint32_t l, uint32_t i) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  uint32_t pv = ek_local(m, c->u32, 0), sv = ek_local(m, c->f32, 0);
  spvgen_store(m, sv, spvgen_const_f32(m, 0.0f));
  ek_for fp;
  uint32_t pt = ek_for_begin_var(m, &fp, pv, ek_u32(m, 0), ek_u32(m, c->g.P), ek_u32(m, 1),
                                 SpvLoopControlDontUnrollMask);
  uint32_t h = ek_add_imm(m, ek_iadd(m, ek_mul_imm(m, pt, x->tg.bs[l + 1]), i), x->tg.bo[l + 1]);
  uint32_t dv = spvgen_op_f_convert(m, c->f32, spvgen_load(m, c->f16, act_ptr(c, h)));
  spvgen_store(m, sv, spvgen_op_f_add(m, c->f32, spvgen_load(m, c->f32, sv), dv));
  ek_for_end(m, &fp);
  return spvgen_load(m, c->f32, sv);
}

/* Layer l's bias gradients, element i by invocation i % nt, as the pass says. */
static void bias_grads(mt_ctx *x, uint32_t l, grad_pass pass) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const spvgen_mlp_layer *L = &c->p->layers[l];
  if (pass == GRAD_HOLD || pass == GRAD_WRITE) { /* the held sums: element tid + k nt */
    for (uint32_t k = 0; k * c->g.nt < L->outputs; k++) {
      uint32_t i = ek_add_imm(m, c->tid, k * c->g.nt);
      ek_guard inside = ek_guard_begin(m, ek_lt_imm(m, i, L->outputs));
      if (pass == GRAD_HOLD) {
        uint32_t sum = delta_column_sum(x, l, i);
        spvgen_store(m, x->held_b[l][k], spvgen_op_f_add(m, c->f32, spvgen_load(m, c->f32, x->held_b[l][k]), sum));
      } else {
        uint32_t ptr = ek_elem(m, &x->grad, ek_iadd(m, x->slot, ek_add_imm(m, i, (uint32_t)(L->bias_offset / 2))));
        spvgen_store(m, ptr, spvgen_op_f_mul(m, c->f32, x->inv, spvgen_load(m, c->f32, x->held_b[l][k])));
      }
      ek_guard_end(m, inside);
    }
    return;
  }
  uint32_t iv = ek_local(m, c->u32, 0);
  ek_for fi;
  uint32_t i = ek_for_begin_var(m, &fi, iv, c->tid, ek_u32(m, L->outputs), ek_u32(m, c->g.nt),
                                SpvLoopControlDontUnrollMask);
  uint32_t ptr = ek_elem(m, &x->grad, ek_iadd(m, x->slot, ek_add_imm(m, i, (uint32_t)(L->bias_offset / 2))));
  if (pass == GRAD_ZERO) {
    spvgen_store(m, ptr, spvgen_const_f32(m, 0.0f));
  } else {
    uint32_t sum = delta_column_sum(x, l, i);
    spvgen_store(m, ptr, spvgen_glsl_fma(m, c->f32, x->inv, sum, spvgen_load(m, c->f32, ptr)));
  }
  ek_for_end(m, &fi);
}

/* The loss and delta_(L-1) of (point, output) e of the chunk (padding and points past
 * the count: delta 0, no loss). */
static void output_delta(mat_ctx *c, uint32_t e, const void *arg) {
  const mt_ctx *x = arg;
  spvgen_module *m = c->m;
  const spvgen_mlp_desc *d = &c->p->desc;
  const uint32_t f32 = c->f32, zs = x->tg.zs, ow = d->output_width;
  const spvgen_mlp_activation act = c->p->layers[c->p->layer_count - 1].activation;
  uint32_t pt = ek_div_imm(m, e, zs), o = ek_mod_imm(m, e, zs);
  uint32_t gp = ek_iadd(m, x->base, pt);
  uint32_t valid = ek_and(m, ek_ult(m, gp, x->n), ek_lt_imm(m, o, ow));
  uint32_t z = spvgen_load(m, f32, ek_at(m, c->fsh, e));
  uint32_t y = act == SPVGEN_MLP_ACT_NONE ? z : mlp_activation_f32(m, c->p, z, act);
  uint32_t ti = ek_select(m, valid, ek_iadd(m, ek_mul_imm(m, gp, ow), o), ek_u32(m, 0));
  uint32_t tv = spvgen_load(m, f32, ek_elem(m, &x->tgt, ti));
  uint32_t lv, gr;
  mlp_loss_terms(m, x->t->desc.loss, y, tv, &lv, &gr);
  uint32_t zero = spvgen_const_f32(m, 0.0f);
  uint32_t scale = ek_select(m, valid, x->inv, zero);
  spvgen_store(m, x->v_loss, spvgen_glsl_fma(m, f32, scale, lv, spvgen_load(m, f32, x->v_loss)));
  uint32_t dv = spvgen_op_f_mul(m, f32, gr, mlp_act_deriv_f32(m, c->p, z, y, act));
  dv = ek_select(m, valid, dv, zero);
  const uint32_t L = c->p->layer_count;
  uint32_t h = ek_add_imm(m, ek_iadd(m, ek_mul_imm(m, pt, x->tg.bs[L]), o), x->tg.bo[L]);
  spvgen_store(m, act_ptr(c, h), spvgen_op_f_convert(m, c->f16, dv));
}

/* The training kernel's declarations: bindings (input, weights, targets, gradients,
 * loss; the gradient as words for the hash grid's compare-exchange atomics), the push
 * constant, the f32 shared array, the built-ins; then its functions (the hidden layers'
 * activations and derivatives: of z where a z block keeps act'(z), of the output y
 * otherwise; the emulated MulAdd). */
static void mt_declare(mt_ctx *x, mlp_io *io) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const spvgen_mlp_desc *d = &p->desc;
  const bool grid = d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID;
  memset(io, 0, sizeof *io);
  x->gat.floats = x->gat.words = NULL;
  x->io = io;
  if (d->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS) {
    /* { uint points; input, weights, targets, gradients, loss pointers at 8 .. 40 }: the
     * weights (and the views of them and of the input) through c->bda, as inference; the
     * workgroup's slot and the table's gradient are moved in mt_ids, the chunk's points
     * in the chunk loop */
    c->u32 = ek_u32_type(m);
    c->f32 = ek_f32_type(m);
    static const char *const lead_names[1] = {"points"};
    static const char *const names[MLP_TRAIN_GRAD_POINTERS] = {"input", "weights", "targets", "gradients", "loss"};
    static const bool ro[MLP_TRAIN_GRAD_POINTERS] = {true, true, true, false, false};
    uint32_t types[MLP_TRAIN_GRAD_POINTERS] = {ek_type(m, d->input_type), spvgen_type_float(m, 16), c->f32, c->f32,
                                               c->f32};
    ek_buffer b[MLP_TRAIN_GRAD_POINTERS];
    io->pc = ek_push_constants_bda(m, &c->u32, lead_names, 1, types, ro, names, MLP_TRAIN_GRAD_POINTERS, b);
    io->in = b[0];
    io->weights = b[1];
    x->tgt = b[2];
    x->grad = b[3];
    x->loss = b[4];
    x->tgt_all = x->tgt;
    c->bda = io;
    declare_common(c, "blocks", x->tg.halves);
  } else {
    io->in = ek_buffer_decl(m, ek_type(m, d->input_type), 0, true, "input");
    declare_common(c, "blocks", x->tg.halves);
    x->tgt = ek_buffer_decl(m, c->f32, 2, true, "targets");
    x->grad = ek_buffer_decl(m, c->f32, 3, false, "gradients");
    x->loss = ek_buffer_decl(m, c->f32, 4, false, "loss");
    if (grid) mlp_grid_gradient_atomics(m, x->t, &x->grad, &x->gwords, &x->gat);
    io->pc = spvgen_push_constants(m, &c->u32, 1);
    spvgen_member_name(m, io->pc.struct_type, 0, "points");
  }
  spvgen_type_pointer(m, SpvStorageClassWorkgroup, c->f32);
  c->fsh = shared_array(c, c->f32, x->tg.floats, "z_and_tiles");
  x->wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  x->lid_var = ek_builtin_u32(m, SpvBuiltInLocalInvocationIndex);
  for (uint32_t l = 0; l + 1 < p->layer_count; l++) {
    spvgen_mlp_activation a = p->layers[l].activation;
    if (a == SPVGEN_MLP_ACT_NONE) continue;
    if (!x->act_fn[a]) x->act_fn[a] = activation_function(c, a);
    if (x->tg.dz[l] && !x->dz_fn[a]) x->dz_fn[a] = component_function(c, a, FN_DERIV_OF_Z);
    if (!x->tg.dz[l] && !x->dy_fn[a]) x->dy_fn[a] = component_function(c, a, FN_DERIV_OF_OUTPUT);
  }
  if (c->emu) c->emu_fn = emu_muladd_function(c);
}

/* The invocation's ids, the workgroup's slot, 1 / (N outputs), the loss sum, the zero
 * accumulator, the hash grid's view. */
static void mt_ids(mt_ctx *x, mlp_grid *gr) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const spvgen_mlp_desc *d = &c->p->desc;
  c->tid = ek_load_u32(m, x->lid_var);
  x->sgid = ek_div_imm(m, c->tid, c->g.sg);
  c->lane = ek_mod_imm(m, c->tid, c->g.sg);
  x->n = spvgen_push_constant_load(m, &x->io->pc, 0);
  x->grp = ek_load_v3_component(m, x->wg_var, 0);
  x->slot = ek_mul_imm(m, x->grp, (uint32_t)x->t->slot_elements);
  if (c->bda) {
    /* Device addresses: the table's gradient (hash grid) a pointer moved to
     * grid_grad_offset, typed as the atomics take it; the workgroup's slot a pointer
     * moved to it (64-bit moves; slot indices from 0) */
    if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) mlp_grid_gradient_atomics(m, x->t, &x->grad, &x->gwords, &x->gat);
    ek_buffer_rebase(m, &x->grad, ek_batch_bytes64(m, x->grp, ek_u32(m, (uint32_t)x->t->slot_elements), 4));
    x->slot = ek_u32(m, 0);
  }
  x->inv = spvgen_op_f_div(m, c->f32, spvgen_const_f32(m, 1.0f),
                           spvgen_op_f_mul(m, c->f32, spvgen_op_convert_u_to_f(m, c->f32, x->n),
                                           spvgen_const_f32(m, (float)d->output_width)));
  x->v_loss = ek_local(m, c->f32, spvgen_const_f32(m, 0.0f));
  x->zero_acc = c->emu ? spvgen_const_null(m, c->tc) : spvgen_coop_splat(m, c->tc, spvgen_const_null(m, c->f32));
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) {
    mlp_grid_begin(m, c->p, &c->w16, gr);
    x->grid = gr;
  }
}

/* Forward, layer l: per owned output fragment j, Y^T = X^T W^T from the bias fragment,
 * R point fragments; the output layer's z into the f32 array, a hidden layer's act(z)
 * into the next f16 block and, where the backward needs act'(z) from here, act'(z) as
 * f16 into the subgroup's registers (x->dzv) or a z block. */
static void mt_forward_layer(mt_ctx *x, uint32_t l) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const bool last = l + 1 == c->p->layer_count;
  const spvgen_mlp_activation a = c->p->layers[l].activation;
  const uint32_t nf = g->np[l] / FR, kf = g->kp[l] / FR, own = mlp_ceil_div(nf, g->S);
  const uint32_t iS = x->tg.bs[l], oS = x->tg.bs[l + 1];
  const bool dz_regs = !last && x->tg.dz[l] && x->tg.dz_regs;
  if (dz_regs)
    for (uint32_t i = 0; i < own * g->R; i++) x->dzv[l][i] = ek_local(m, c->tc16, 0);
  for (uint32_t jj = 0; jj < own; jj++) {
    ek_own o;
    uint32_t j = ek_own_begin(m, &o, ek_add_imm(m, x->sgid, jj * g->S), nf, nf % g->S && jj + 1 == own, c->emu);
    uint32_t b[MAX_KF];
    weight_frags(c, l, j, false, b);
    uint32_t init = bias_init(c, l, j, x->zero_acc);
    uint32_t col = ek_mul_imm(m, j, FR);
    for (uint32_t r = 0; r < g->R; r++) {
      uint32_t acc = init;
      for (uint32_t k = 0; k < kf; k++) {
        uint32_t af = frag_load(c, c->ta, MEM_ACT, ek_u32(m, x->tg.bo[l] + r * FR * iS + k * FR), false, iS);
        acc = frag_muladd(c, af, b[k], acc);
      }
      ek_guard writes = ek_guard_begin(m, o.ok);
      if (last) {
        frag_store(c, MEM_F32, NULL, ek_add_imm(m, col, r * FR * x->tg.zs), acc, x->tg.zs);
      } else {
        uint32_t y = x->act_fn[a] ? spvgen_op_function_call(m, c->tc, x->act_fn[a], &acc, 1) : acc;
        frag_store(c, MEM_ACT, NULL, ek_add_imm(m, col, x->tg.bo[l + 1] + r * FR * oS),
                   frag_convert(c, c->tc16, true, y), oS);
        if (x->tg.dz[l]) {
          uint32_t dv = spvgen_op_function_call(m, c->tc, x->dz_fn[a], &acc, 1);
          dv = frag_convert(c, c->tc16, true, dv);
          if (dz_regs) spvgen_store(m, x->dzv[l][jj * g->R + r], dv);
          else frag_store(c, MEM_ACT, NULL, ek_add_imm(m, col, x->tg.dzo[l] + r * FR * oS), dv, oS);
        }
      }
      ek_guard_end(m, writes);
    }
    ek_own_end(m, &o);
  }
  spvgen_workgroup_barrier(m);
}

/* act'(z_(l-1)) of point fragment r, owned column fragment jj (col: its first column,
 * an id): from this subgroup's registers (kept by the forward's owner of the same
 * fragment, which is this subgroup), the z block, or from the output a_l. */
static uint32_t mt_act_deriv(mt_ctx *x, uint32_t l, uint32_t jj, uint32_t col, uint32_t r) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const uint32_t aS = x->tg.bs[l];
  if (x->tg.dz[l - 1] && x->tg.dz_regs)
    return frag_convert(c, c->tc, false, spvgen_load(m, c->tc16, x->dzv[l - 1][jj * c->g.R + r]));
  if (x->tg.dz[l - 1]) {
    uint32_t dd = frag_load(c, c->tc16, MEM_ACT, ek_add_imm(m, col, x->tg.dzo[l - 1] + r * FR * aS), false, aS);
    return frag_convert(c, c->tc, false, dd);
  }
  uint32_t yv = frag_load(c, c->tc16, MEM_ACT, ek_add_imm(m, col, x->tg.bo[l] + r * FR * aS), false, aS);
  yv = frag_convert(c, c->tc, false, yv);
  return spvgen_op_function_call(m, c->tc, x->dy_fn[c->p->layers[l - 1].activation], &yv, 1);
}

/* Backward, layer l: delta_(l-1) = (delta_l W_l) .* act'(z_(l-1)) (kp_l columns, K =
 * np_l; l = 0: the encoded input's, no activation), computed into Function variables,
 * then stored over a_l once every subgroup has read it. */
static void mt_delta(mt_ctx *x, uint32_t l) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  const mat_geom *g = &c->g;
  const uint32_t nf = g->kp[l] / FR, kf = g->np[l] / FR, own = mlp_ceil_div(nf, g->S);
  const uint32_t dS = x->tg.bs[l + 1], aS = x->tg.bs[l];
  const spvgen_mlp_activation pa = l ? c->p->layers[l - 1].activation : SPVGEN_MLP_ACT_NONE;
  uint32_t accv[MAX_ACC], jv[MAX_ACC], okv[MAX_ACC];
  for (uint32_t i = 0; i < own * g->R; i++) accv[i] = ek_local(m, c->tc, x->zero_acc);
  for (uint32_t jj = 0; jj < own; jj++) {
    ek_own o;
    uint32_t j = ek_own_begin(m, &o, ek_add_imm(m, x->sgid, jj * g->S), nf, nf % g->S && jj + 1 == own, c->emu);
    jv[jj] = j;
    okv[jj] = o.ok;
    uint32_t b[MAX_KF];
    weight_frags(c, l, j, true, b);
    uint32_t col = ek_mul_imm(m, j, FR);
    for (uint32_t r = 0; r < g->R; r++) {
      uint32_t acc = x->zero_acc;
      for (uint32_t k = 0; k < kf; k++) {
        uint32_t af = frag_load(c, c->ta, MEM_ACT, ek_u32(m, x->tg.bo[l + 1] + r * FR * dS + k * FR), false, dS);
        acc = frag_muladd(c, af, b[k], acc);
      }
      if (pa != SPVGEN_MLP_ACT_NONE) acc = frag_mul(c, acc, mt_act_deriv(x, l, jj, col, r));
      spvgen_store(m, accv[jj * g->R + r], acc);
    }
    ek_own_end(m, &o);
  }
  spvgen_workgroup_barrier(m); /* every subgroup has read a_l */
  for (uint32_t jj = 0; jj < own; jj++) {
    bool guard = nf % g->S && jj + 1 == own;
    ek_guard writes = ek_guard_begin(m, !guard ? 0 : okv[jj] ? okv[jj] : ek_lt_imm(m, jv[jj], nf));
    uint32_t col = ek_mul_imm(m, jv[jj], FR);
    for (uint32_t r = 0; r < g->R; r++) {
      uint32_t v = spvgen_load(m, c->tc, accv[jj * g->R + r]);
      frag_store(c, MEM_ACT, NULL, ek_add_imm(m, col, x->tg.bo[l] + r * FR * aS), frag_convert(c, c->tc16, true, v),
                 aS);
    }
    ek_guard_end(m, writes);
  }
  spvgen_workgroup_barrier(m);
}

/* Backward, layer l: its weight and bias gradients, then delta_(l-1) (l = 0 with the
 * hash grid: the encoded input's, scattered into the table by (point, level) pairs). */
static void mt_backward_layer(mt_ctx *x, uint32_t l) {
  mat_ctx *c = x->c;
  const spvgen_mlp_desc *d = &c->p->desc;
  grad_pass pass = x->tg.held ? GRAD_HOLD : GRAD_ADD;
  grad_tiles(x, l, pass);
  if (!d->no_bias) bias_grads(x, l, pass);
  if (l == 0 && d->encoding != SPVGEN_MLP_ENCODING_HASH_GRID) return;
  mt_delta(x, l);
  if (l == 0) grid_pairs_loop(c, x->t->desc.grid_spread, SpvLoopControlDontUnrollMask, &x->level, scatter_grid_point, x);
}

/* The workgroup's loss share: every invocation's sum through the f32 array, added by
 * invocation 0 into loss[g]. */
static void mt_loss_share(mt_ctx *x) {
  mat_ctx *c = x->c;
  spvgen_module *m = c->m;
  spvgen_store(m, ek_at(m, c->fsh, ek_add_imm(m, c->tid, x->tg.so)), spvgen_load(m, c->f32, x->v_loss));
  spvgen_workgroup_barrier(m);
  ek_guard first = ek_guard_begin(m, spvgen_op_i_equal(m, ek_bool_type(m), c->tid, ek_u32(m, 0)));
  uint32_t kv = ek_local(m, c->u32, 0), sv = ek_local(m, c->f32, spvgen_const_f32(m, 0.0f));
  ek_for f;
  uint32_t k = ek_for_begin_var(m, &f, kv, ek_u32(m, 0), ek_u32(m, c->g.nt), ek_u32(m, 1),
                                SpvLoopControlDontUnrollMask);
  uint32_t ki = ek_add_imm(m, k, x->tg.so);
  spvgen_store(m, sv, spvgen_op_f_add(m, c->f32, spvgen_load(m, c->f32, sv),
                                      spvgen_load(m, c->f32, ek_at(m, c->fsh, ki))));
  ek_for_end(m, &f);
  ek_store_elem(m, &x->loss, x->grp, spvgen_load(m, c->f32, sv));
  ek_guard_end(m, first);
}

void mlp_mat_emit_gradient(spvgen_module *m, const spvgen_mlp_train_config *t) {
  const spvgen_mlp_config *p = &t->net;
  mat_ctx cx = {.m = m, .p = p}, *c = &cx;
  mt_ctx x = {.c = c, .t = t};
  const uint32_t sg = p->subgroup_size ? p->subgroup_size : 32;
  const bool row = t->desc.grad_bias == SPVGEN_MLP_GRAD_BIAS_ROW;
  const bool regs = t->desc.grad_act_deriv == SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS;
  mt_geometry(p, sg, t->grad_local_size[0] / sg, p->desc.points_per_group, t->grad_held, row, regs, false, &x.tg);
  c->g = x.tg.g;
  c->g.ars = x.tg.bs[0]; /* the input staging writes block 0 */
  const mat_geom *g = &c->g;
  const uint32_t L = p->layer_count;
  mlp_io io;
  mt_declare(&x, &io);
  spvgen_compute_main(m, "main", g->nt, 1, 1);
  mlp_grid gr;
  mt_ids(&x, &gr);

  /* The slot's elements, zeroed by their owners (held: the sums held, zero); staged
   * weights and biases, once. */
  for (uint32_t l = 0; l < L; l++) {
    const spvgen_mlp_layer *ly = &p->layers[l];
    if (!x.tg.held) {
      grad_tiles(&x, l, GRAD_ZERO);
      if (!p->desc.no_bias) bias_grads(&x, l, GRAD_ZERO);
      continue;
    }
    uint32_t own = mlp_ceil_div((g->np[l] / FR) * (g->kp[l] / FR), g->S);
    for (uint32_t tt = 0; tt < own; tt++) x.held_w[l][tt] = ek_local(m, c->tc, x.zero_acc);
    for (uint32_t k = 0; k * g->nt < ly->outputs && !p->desc.no_bias; k++)
      x.held_b[l][k] = ek_local(m, c->f32, spvgen_const_f32(m, 0.0f));
  }
  stage_block(c, NULL, true);

  /* The chunks: inputs, forward, the loss and the output layer's delta, backward. */
  ek_for chunk;
  x.base = ek_for_begin_var(m, &chunk, ek_local(m, c->u32, 0), ek_mul_imm(m, x.grp, g->P), x.n,
                            ek_u32(m, t->grad_workgroups * g->P), SpvLoopControlDontUnrollMask);
  spvgen_workgroup_barrier(m);
  const uint32_t n_all = x.n;
  mlp_io chunk_io = io;
  if (c->bda) {
    /* Device addresses: the input and target pointers moved to the chunk's first point in
     * 64 bits, its points counted from 0, the count the points left from it (> 0) */
    x.tgt = x.tgt_all;
    mlp_train_rebase_points(m, p, &chunk_io.in, &x.tgt, x.base);
    x.n = ek_isub(m, x.n, x.base);
    x.base = ek_u32(m, 0);
    x.io = &chunk_io;
    if (c->in4.ptr_type) c->in4 = ek_buffer_view(m, &chunk_io.in, c->v4, 0, true, "input4");
  }
  input_arg ia = {x.io, x.base, x.n};
  stage_inputs(c, &ia, t->desc.grid_spread);
  spvgen_workgroup_barrier(m);
  for (uint32_t l = 0; l < L; l++) mt_forward_layer(&x, l);
  strided_loop(c, g->P * x.tg.zs, output_delta, &x);
  spvgen_workgroup_barrier(m);
  for (uint32_t l = L; l-- > 0;) mt_backward_layer(&x, l);
  spvgen_workgroup_barrier(m); /* the next chunk overwrites blocks 0 and 1 */
  ek_for_end(m, &chunk);
  x.n = n_all;
  x.io = &io;

  if (x.tg.held) {
    /* The held sums into the slot. The scratch tiles lie over the z rows (dead now):
     * subgroups sgid / scr == k take turn k, a barrier between turns. */
    const uint32_t turns = mlp_ceil_div(g->S, x.tg.scr);
    ek_for tf;
    uint32_t k = 0;
    ek_guard mine = {0};
    if (turns > 1) {
      k = ek_for_begin_var(m, &tf, ek_local(m, c->u32, 0), ek_u32(m, 0), ek_u32(m, turns), ek_u32(m, 1),
                           SpvLoopControlDontUnrollMask);
      mine = ek_guard_begin(m, spvgen_op_i_equal(m, ek_bool_type(m), ek_div_imm(m, x.sgid, x.tg.scr), k));
    }
    for (uint32_t l = 0; l < L; l++) grad_tiles(&x, l, GRAD_WRITE);
    if (turns > 1) {
      ek_guard_end(m, mine);
      spvgen_workgroup_barrier(m);
      ek_for_end(m, &tf);
    }
    for (uint32_t l = 0; l < L && !p->desc.no_bias; l++) bias_grads(&x, l, GRAD_WRITE);
    spvgen_workgroup_barrier(m); /* the loss shares below reuse the scratch */
  }

  mt_loss_share(&x);
  spvgen_function_end(m);
}
