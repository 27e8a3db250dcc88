/* emitters/gemm/gemm_template.c — the GEMM's entry in the table of templates
 * (lib/template/template.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_internal.h"
#include "ref_activation.h"
#include "ref_convert.h"
#include "ref_gemm.h"
#include "spvgen/gemm.h"
#include "template.h"

SG_TEMPLATE_API(gemm)

static void plan_name(const void *p, char *buf, size_t size) {
  snprintf(buf, size, "%s", ((const spvgen_gemm_config *)p)->name);
}

static const char *variant_name(const void *plan) {
  return spvgen_gemm_variant_name(((const spvgen_gemm_config *)plan)->variant);
}

/* The GEMM's members of `spvgen gemm --json`: the shape, tile, class and split-K, and the
 * planner's estimates (compile, and one run's GPU time on caps: the figure AUTO ranks
 * plans by; tools/speed_fit.py sets it against measured times). */
static void describe(const void *plan, const spvgen_device_caps *caps, sg_json *j) {
  const spvgen_gemm_config *p = plan;
  sg_json_u64(j, "m", p->desc.m);
  sg_json_u64(j, "n", p->desc.n);
  sg_json_u64(j, "k", p->desc.k);
  sg_json_u64(j, "batch", p->desc.batch);
  sg_json_array(j, "tile", true);
  sg_json_u64(j, NULL, p->desc.tile_m);
  sg_json_u64(j, NULL, p->desc.tile_n);
  sg_json_u64(j, NULL, p->desc.tile_k);
  sg_json_end(j);
  sg_json_u64(j, "shared_bytes", p->shared_bytes);
  sg_json_str(j, "shapes", spvgen_gemm_shapes_name(p->desc.shapes));
  sg_json_object(j, "class", true);
  sg_json_u64(j, "m_multiple", p->desc.m_multiple);
  sg_json_u64(j, "n_multiple", p->desc.n_multiple);
  sg_json_u64(j, "k_multiple", p->desc.k_multiple);
  sg_json_u64(j, "ld_multiple", p->desc.ld_multiple);
  sg_json_u64(j, "k_fixed", p->desc.k_fixed);
  sg_json_end(j);
  sg_json_u64(j, "compile_ms_estimate", p->compile_ms);
  double est = 0.0;
  if (spvgen_gemm_estimate_ms(p, caps, NULL, &est, NULL, 0) == SPVGEN_OK) sg_json_f64(j, "time_ms_estimate", est);
  char key[24];
  snprintf(key, sizeof key, "%016llx", (unsigned long long)spvgen_gemm_class_key(p));
  sg_json_str(j, "class_key", key);
  sg_json_u64(j, "kernels", spvgen_gemm_kernel_count(p));
  if (p->desc.pack != SPVGEN_GEMM_PACK_NONE && p->desc.pack != SPVGEN_GEMM_PACK_AUTO) {
    sg_json_str(j, "pack", spvgen_gemm_pack_name(p->desc.pack));
    sg_json_u64(j, "pack_units", p->desc.pack_units);
    sg_json_str(j, "pack_order", spvgen_gemm_pack_order_name(p->desc.pack_order));
    sg_json_u64(j, "workspace_bytes", p->workspace_bytes);
    sg_json_u64(j, "pack_a_offset", p->pack_a_offset);
    sg_json_u64(j, "pack_b_offset", p->pack_b_offset);
    sg_json_array(j, "pack_groups", true);
    for (int i = 0; i < 3; i++) sg_json_u64(j, NULL, p->pack_groups[i]);
    sg_json_end(j);
  }
  if (p->desc.split_k > 1) {
    sg_json_u64(j, "split_k", p->desc.split_k);
    sg_json_u64(j, "slice_k", p->slice_k);
    if (p->desc.pack == SPVGEN_GEMM_PACK_NONE || p->desc.pack == SPVGEN_GEMM_PACK_AUTO)
      sg_json_u64(j, "workspace_bytes", p->workspace_bytes);
    sg_json_array(j, "reduce_groups", true);
    for (int i = 0; i < 3; i++) sg_json_u64(j, NULL, p->reduce_groups[i]);
    sg_json_end(j);
  }
}

/* Each variant on the preset it targets, on a tile-multiple and an odd shape (coopmat2's
 * odd shape both in place and packed). */
static uint32_t examples(void *descs, const char **presets, uint32_t max) {
  static const struct {
    const char *preset;
    spvgen_gemm_variant variant;
    uint32_t m, n, k;
    spvgen_component_type ab, acc;
    spvgen_gemm_pack pack;
  } rows[] = {
      {"h100", SPVGEN_GEMM_COOPMAT2, 8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0},
      /* the odd shape in place (one kernel), and packed (AUTO: a pack kernel, then the main) */
      {"h100", SPVGEN_GEMM_COOPMAT2, 2999, 3001, 2997, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, SPVGEN_GEMM_PACK_NONE},
      {"h100", SPVGEN_GEMM_COOPMAT2, 4097, 4095, 4093, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 2999, 3001, 2997, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 8192, 8192, 8192, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32, 0},
      {"vulkan13", SPVGEN_GEMM_SIMT, 1024, 1024, 1024, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32, 0},
  };
  uint32_t n = 0;
  for (; n < max && n < sizeof rows / sizeof rows[0]; n++) {
    spvgen_gemm_desc *d = (spvgen_gemm_desc *)descs + n;
    memset(d, 0, sizeof *d);
    d->m = rows[n].m;
    d->n = rows[n].n;
    d->k = rows[n].k;
    d->a_type = d->b_type = rows[n].ab;
    d->acc_type = d->out_type = rows[n].acc;
    d->variant = rows[n].variant;
    d->pack = rows[n].pack;
    presets[n] = rows[n].preset;
  }
  return n;
}

static void knobs(const void *plan_, spvgen_tune_knobs *k) {
  const spvgen_gemm_config *p = plan_;
  memset(k, 0, sizeof *k);
  snprintf(k->variant, sizeof k->variant, "%s", spvgen_gemm_variant_name(p->variant));
  k->tile_m = p->desc.tile_m;
  k->tile_n = p->desc.tile_n;
  k->tile_k = p->desc.tile_k;
  k->workgroup_size = p->desc.workgroup_size;
  k->subgroups = p->desc.subgroups;
  k->stages = p->desc.stages;
  k->unroll = p->desc.unroll;
  k->split_k = p->desc.split_k > 1 ? p->desc.split_k : 0;
}

/* Another candidate when any knob differs. */
static bool candidate(const void *def_, const void *plan_) {
  const spvgen_gemm_config *a = plan_, *b = def_;
  const spvgen_gemm_desc *x = &a->desc, *y = &b->desc;
  return !(a->variant == b->variant && x->tile_m == y->tile_m && x->tile_n == y->tile_n && x->tile_k == y->tile_k &&
           x->workgroup_size == y->workgroup_size && x->subgroups == y->subgroups && x->stages == y->stages &&
           x->unroll == y->unroll && x->split_k == y->split_k);
}

static uint32_t addressing_model(const void *plan) { return spvgen_gemm_addressing_model(plan); }

static uint32_t kernel_count(const void *plan) { return spvgen_gemm_kernel_count(plan); }
static const char *const kernel_names[SG_RUN_MAX_KERNELS] = {"main", "reduce", "pack"};

/* The template's kernels are the plan's in dispatch order (spvgen_gemm_kernel_at). */
static const char *kernel_name(const void *plan, uint32_t which) {
  return kernel_names[spvgen_gemm_kernel_at(plan, which)];
}

static spvgen_status emit_kernel(spvgen_module *m, const void *plan, uint32_t which, spvgen_kernel_info *info) {
  return spvgen_gemm_emit_kernel(m, plan, spvgen_gemm_kernel_at(plan, which), info);
}

/* ------------------------------------------------------------ run and check ---- */
/* The host side of a run: the shape as a FIXED desc (what the data and the reference
 * read), its launch, and the operands. */
typedef struct gemm_run_state {
  spvgen_gemm_desc shape;
  spvgen_gemm_launch launch;
  spvgen_gemm_args args; /* a RUNTIME plan's shape (the plans sharing the data launch it too) */
  uint64_t seed;
  void *ha, *hb, *hc, *hbias, *hd;
  /* The reference of the checked elements, made by the first check and kept for the
   * next plans of shared data (the tuner checks every candidate against it). */
  uint64_t nref, *lin;
  double *ref, *tol;
  void *ref_out; /* run_compare: the first passing plan's D (NULL: none yet) */
} gemm_run_state;

_Static_assert(sizeof(spvgen_gemm_push) <= SG_RUN_MAX_PUSH, "the GEMM's push constants fit a run's");

/* The shape a run uses as a FIXED desc: the plan's desc with the launch's extents,
 * leading dimensions, strides and scalars. */
static void concrete_shape(const spvgen_gemm_config *plan, const spvgen_gemm_launch *l, spvgen_gemm_desc *d) {
  *d = plan->desc;
  if (plan->desc.shapes != SPVGEN_GEMM_SHAPES_RUNTIME) return;
  const spvgen_gemm_push *p = &l->push;
  d->shapes = SPVGEN_GEMM_SHAPES_FIXED;
  d->m = p->m;
  d->n = p->n;
  d->k = p->k;
  d->batch = p->batch;
  d->lda = p->lda;
  d->ldb = p->ldb;
  d->ldc = p->ldc;
  d->ldd = p->ldd;
  d->stride_a = p->stride_a;
  d->stride_b = p->stride_b;
  d->stride_c = p->stride_c;
  d->stride_d = p->stride_d;
  d->alpha = p->alpha;
  d->beta = plan->desc.beta != 0.0f ? p->beta : 0.0f;
  d->m_multiple = d->n_multiple = d->k_multiple = d->ld_multiple = 0;
  d->k_fixed = 0;
}

static void gemm_run_free(sg_run_data *data) {
  gemm_run_state *s = data->state;
  if (!s) return;
  free(s->ha);
  free(s->hb);
  free(s->hc);
  free(s->hbias);
  free(s->hd);
  free(s->lin);
  free(s->ref);
  free(s->tol);
  free(s->ref_out);
  free(s);
  data->state = NULL;
}

static void add_buffer(sg_run_data *data, sg_run_role role, void *host, uint64_t bytes) {
  data->buffers[data->buffer_count++] = (sg_run_buffer){.role = role, .host = host, .bytes = bytes};
}

/* The dispatches of plan on data (its launch l): one, binding A, B, D, C and bias (not the
 * workspace, which a split-K or packed plan sharing the data may have added last); or
 * the plan's kernels in dispatch order (spvgen_gemm_kernel_at), each binding what its
 * kernel declares (A, B, D, C, bias as the plan has them; the workspace last), on the
 * same push bytes. */
static void set_dispatches(const spvgen_gemm_config *plan, const spvgen_gemm_launch *l, sg_run_data *data) {
  const bool has_ws = data->buffer_count && data->buffers[data->buffer_count - 1].role == SG_RUN_SCRATCH;
  const uint32_t ws = data->buffer_count - 1;
  const spvgen_gemm_desc *d = &plan->desc;
  const uint32_t count = spvgen_gemm_kernel_count(plan);
  data->push_size = l->push_size;
  memcpy(data->push, &l->push, sizeof l->push);
  if (count <= 1) {
    data->kernel_count = 0;
    data->bind_count = has_ws ? ws : 0;
    for (int j = 0; j < 3; j++) data->groups[j] = l->groups[j];
    return;
  }
  /* the data's buffers are in binding order, the workspace last: each kernel binds what
   * its info declares (gemm_kernel_buffers) at the buffer of that binding number */
  data->kernel_count = count;
  for (uint32_t i = 0; i < count; i++) {
    sg_run_kernel *k = &data->kernels[i];
    memset(k, 0, sizeof *k);
    const spvgen_gemm_kernel which = spvgen_gemm_kernel_at(plan, i);
    uint32_t list[BUF_COUNT];
    const uint32_t n = gemm_kernel_buffers(d, which, list);
    for (uint32_t b = 0; b < n; b++) k->buffers[k->buffer_count++] = gemm_buffer_binding(d, list[b]);
    const uint32_t *g = which == SPVGEN_GEMM_KERNEL_PACK     ? l->pack_groups
                        : which == SPVGEN_GEMM_KERNEL_REDUCE ? l->reduce_groups
                                                              : l->groups;
    k->push_size = which == SPVGEN_GEMM_KERNEL_REDUCE ? l->reduce_push_size : l->push_size;
    for (int j = 0; j < 3; j++) k->groups[j] = g[j];
  }
}

/* Random A, B (and C, bias) for the run's shape (rq->args for a RUNTIME plan, else its
 * hints), bound in spvgen/gemm.h's order with the split-K workspace last (the largest
 * any plan sharing the data needs; its content undefined before each run). */
static spvgen_status gemm_run_data(spvgen_vk_context *ctx, const void *plan_, const sg_run_request *rq,
                                   sg_run_data *data, char *msg, size_t size) {
  (void)ctx;
  const spvgen_gemm_config *plan = plan_;
  const bool runtime = plan->desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME;
  const spvgen_gemm_args *args = rq->args;
  spvgen_gemm_args hints;
  if (runtime && !args) { /* the hints as the shape */
    memset(&hints, 0, sizeof hints);
    hints.m = plan->desc.m;
    hints.n = plan->desc.n;
    hints.k = plan->desc.k;
    hints.batch = plan->desc.batch;
    hints.alpha = plan->desc.alpha;
    hints.beta = plan->desc.beta;
    args = &hints;
  }
  gemm_run_state *s = calloc(1, sizeof *s);
  if (!s) return snprintf(msg, size, "out of host memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  data->state = s;
  if (runtime) s->args = *args;
  spvgen_status st = spvgen_gemm_launch_for(plan, runtime ? args : NULL, &s->launch, msg, size);
  if (st != SPVGEN_OK) return st;
  concrete_shape(plan, &s->launch, &s->shape);
  const spvgen_gemm_desc *d = &s->shape;
  s->seed = rq->seed ? rq->seed : 0x5eed6e33ull;
  uint64_t seed = s->seed;
  uint64_t na = d->stride_a * d->batch, nb = d->stride_b * d->batch, nd = d->stride_d * d->batch;
  /* C is bound when the plan has a C operand (a RUNTIME beta may still be 0) */
  uint64_t nc = plan->desc.beta != 0.0f ? (d->stride_c ? d->stride_c : 1) * d->batch : 0;
  uint64_t nbias = d->bias == SPVGEN_GEMM_BIAS_ROW ? d->m : d->bias == SPVGEN_GEMM_BIAS_COLUMN ? d->n : 0;
  uint32_t out_size = spvgen_component_type_size(d->out_type);
  s->ha = sg_ref_fill(&seed, d->a_type, na);
  s->hb = sg_ref_fill(&seed, d->b_type, nb);
  s->hc = nc ? sg_ref_fill(&seed, d->out_type, nc) : NULL;
  s->hbias = nbias ? sg_ref_fill(&seed, d->out_type, nbias) : NULL;
  s->hd = malloc(nd * out_size + 4);
  if (!s->ha || !s->hb || !s->hd || (nc && !s->hc) || (nbias && !s->hbias))
    return snprintf(msg, size, "out of host memory for the operands"), SPVGEN_ERROR_OUT_OF_MEMORY;
  add_buffer(data, SG_RUN_INPUT, s->ha, na * spvgen_component_type_size(d->a_type));
  add_buffer(data, SG_RUN_INPUT, s->hb, nb * spvgen_component_type_size(d->b_type));
  add_buffer(data, SG_RUN_OUTPUT, s->hd, nd * out_size);
  if (nc) add_buffer(data, SG_RUN_INPUT, s->hc, nc * out_size);
  if (nbias) add_buffer(data, SG_RUN_INPUT, s->hbias, nbias * out_size);
  /* the workspace of the largest split-K among the plans that share the data */
  uint64_t ws = s->launch.workspace_bytes;
  for (uint32_t i = 0; i < rq->plan_count; i++) {
    const spvgen_gemm_config *p = (const spvgen_gemm_config *)rq->plans + i;
    spvgen_gemm_launch pl;
    if (spvgen_gemm_kernel_count(p) > 1 && spvgen_gemm_launch_for(p, runtime ? args : NULL, &pl, NULL, 0) == SPVGEN_OK &&
        pl.workspace_bytes > ws)
      ws = pl.workspace_bytes;
  }
  if (ws) add_buffer(data, SG_RUN_SCRATCH, NULL, ws);
  data->buffer_flags = plan->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0;
  set_dispatches(plan, &s->launch, data);
  data->flops = 2.0 * d->m * d->n * (double)d->k * d->batch;
  return SPVGEN_OK;
}

/* Points data at another plan of the same desc (the tuner's candidates): its dispatches
 * (set_dispatches). */
static spvgen_status gemm_run_bind(const void *plan_, sg_run_data *data, char *msg, size_t size) {
  const spvgen_gemm_config *plan = plan_;
  gemm_run_state *s = data->state;
  const bool runtime = plan->desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME;
  spvgen_status st = spvgen_gemm_launch_for(plan, runtime ? &s->args : NULL, &s->launch, msg, size);
  if (st != SPVGEN_OK) return st;
  bool has_ws = data->buffer_count && data->buffers[data->buffer_count - 1].role == SG_RUN_SCRATCH;
  if (s->launch.workspace_bytes > (has_ws ? data->buffers[data->buffer_count - 1].bytes : 0))
    return snprintf(msg, size, "%s: a workspace larger than the data's (not one of its plans)", plan->name),
           SPVGEN_ERROR_INVALID_ARGUMENT;
  set_dispatches(plan, &s->launch, data);
  return SPVGEN_OK;
}

/* Every element of D (or `sample` random ones: the four corners, edge tiles, first)
 * against the float64 reference, with sg_ref_gemm_element's tolerance; the index is the
 * element's lin (batch, row, column). The reference is made once per data. */
static void gemm_run_check(const void *plan, const sg_run_data *data, uint64_t sample, sg_check *check) {
  (void)plan;
  gemm_run_state *s = data->state;
  const spvgen_gemm_desc *d = &s->shape;
  uint64_t total = (uint64_t)d->m * d->n * d->batch, mn = (uint64_t)d->m * d->n;
  uint64_t n_check = sample && sample < total ? sample : total;
  if (s->nref != n_check) {
    free(s->lin), free(s->ref), free(s->tol);
    s->nref = 0;
    s->lin = malloc(n_check * sizeof *s->lin);
    s->ref = malloc(n_check * sizeof *s->ref);
    s->tol = malloc(n_check * sizeof *s->tol);
    uint64_t s2 = s->seed ^ 0xC0FFEEull;
    const uint64_t corners[4] = {0, d->n - 1, (uint64_t)(d->m - 1) * d->n, mn - 1};
    for (uint64_t e = 0; s->lin && s->ref && s->tol && e < n_check; e++) {
      s->lin[e] = n_check == total ? e : e < 4 ? (d->batch - 1) * mn * (e & 1) + corners[e] : sg_ref_rng_next(&s2) % total;
      sg_ref_gemm_element(d, s->ha, s->hb, s->hc, s->hbias, s->lin[e], &s->ref[e], &s->tol[e], NULL);
    }
    if (s->lin && s->ref && s->tol) s->nref = n_check;
  }
  uint64_t bz, r, c;
  for (uint64_t e = 0; e < n_check; e++) {
    uint64_t lin = s->nref ? s->lin[e] : e;
    double ref = s->nref ? s->ref[e] : 0, tol = s->nref ? s->tol[e] : -1; /* out of memory: every element fails */
    sg_check_element(check, lin, sg_ref_get(s->hd, d->out_type, sg_ref_d_offset(d, lin, &bz, &r, &c)), ref, tol);
  }
}

/* Every element of D against the first passing plan's: each within its tolerance of the
 * exact value, with sum |a*b| <= K (inputs below 1 in magnitude). */
static void gemm_run_compare(const void *plan, sg_run_data *data, uint64_t sample, sg_check *check) {
  (void)plan, (void)sample;
  gemm_run_state *s = data->state;
  const spvgen_gemm_desc *d = &s->shape;
  uint64_t bytes = data->buffers[2].bytes; /* D */
  if (!s->ref_out) {
    if (!check->bad && (s->ref_out = malloc(bytes + 4))) memcpy(s->ref_out, s->hd, bytes);
    return;
  }
  const bool exact = !sg_ref_is_float(d->acc_type) && !sg_ref_is_float(d->out_type);
  double acc_ulps = d->acc_type == SPVGEN_COMPONENT_F16 ? 8.0 : 16.0;
  double abs_tol = 2.0 * (acc_ulps * sg_ref_unit(d->acc_type) * d->k * fabs(d->alpha) * 1.1 +
                          (sg_ref_is_float(d->out_type) ? 1e-6 : 1.0));
  double rel_tol = 4.0 * sg_ref_unit(d->out_type);
  /* the two plans' z differ by up to abs_tol: leaky relu scales that by its slope, exp
   * turns it into a relative difference (e^dz - 1, dz small) */
  if (d->activation == SPVGEN_ACTIVATION_LEAKY_RELU && fabs(d->leaky_slope) > 1) abs_tol *= fabs(d->leaky_slope);
  if (d->activation == SPVGEN_ACTIVATION_EXP) rel_tol += expm1(abs_tol);
  if (sg_ref_activation_transcendental(d->activation)) {
    abs_tol += 6e-5;
    rel_tol += 6e-5;
  }
  uint64_t total = (uint64_t)d->m * d->n * d->batch, bz, r, c;
  for (uint64_t lin = 0; lin < total; lin++) {
    uint64_t at = sg_ref_d_offset(d, lin, &bz, &r, &c);
    double x = sg_ref_get(s->hd, d->out_type, at), y = sg_ref_get(s->ref_out, d->out_type, at);
    sg_check_element(check, lin, x, y, exact ? 0.0 : abs_tol + rel_tol * fabs(y));
  }
}

static void gemm_run_where(const void *plan, const sg_run_data *data, uint64_t lin, char *buf, size_t size) {
  (void)plan;
  const gemm_run_state *s = data->state;
  uint64_t bz, r, c;
  sg_ref_d_offset(&s->shape, lin, &bz, &r, &c);
  snprintf(buf, size, "row %llu, column %llu, batch %llu", (unsigned long long)r, (unsigned long long)c,
           (unsigned long long)bz);
}

void sg_gemm_run_shape(const sg_run_data *data, spvgen_gemm_launch *launch, spvgen_gemm_desc *shape) {
  const gemm_run_state *s = data->state;
  if (launch) *launch = s->launch;
  if (shape) *shape = s->shape;
}

/* ------------------------------------------------------------------ flags ---- */
/* The problem flags of `spvgen gemm`, `spvgen run/bench/tune gemm`. */

#define GEMM_U32(FLAG, FIELD, MIN)                                                     \
  static bool FLAG(void *d, const char *v, char *why, size_t size) {                   \
    return sg_flag_u32(v, MIN, UINT32_MAX, &((spvgen_gemm_desc *)d)->FIELD, why, size); \
  }
GEMM_U32(flag_m, m, 1)
GEMM_U32(flag_n, n, 1)
GEMM_U32(flag_k, k, 1)
GEMM_U32(flag_batch, batch, 1)
GEMM_U32(flag_lda, lda, 0)
GEMM_U32(flag_ldb, ldb, 0)
GEMM_U32(flag_ldc, ldc, 0)
GEMM_U32(flag_ldd, ldd, 0)
GEMM_U32(flag_wg, workgroup_size, 0)
GEMM_U32(flag_subgroups, subgroups, 0)
GEMM_U32(flag_stages, stages, 0)
GEMM_U32(flag_unroll, unroll, 0)
GEMM_U32(flag_split_k, split_k, 0)
GEMM_U32(flag_edge_unroll, edge_unroll, 0)
GEMM_U32(flag_pack_units, pack_units, 0)
GEMM_U32(flag_compile_budget, compile_budget_ms, 0)
GEMM_U32(flag_m_multiple, m_multiple, 0)
GEMM_U32(flag_n_multiple, n_multiple, 0)
GEMM_U32(flag_k_multiple, k_multiple, 0)
GEMM_U32(flag_ld_multiple, ld_multiple, 0)

static bool flag_k_fixed(void *t, const char *v, char *why, size_t size) {
  (void)v, (void)why, (void)size;
  ((spvgen_gemm_desc *)t)->k_fixed = 1;
  return true;
}

static bool flag_scalar(const char *v, float *out, char *why, size_t size) {
  double x;
  if (!sg_parse_number(v, -3.4e38, 3.4e38, &x)) return sg_flag_bad(why, size, v, "is not a number");
  return *out = (float)x, true;
}
static bool flag_alpha(void *d, const char *v, char *why, size_t size) {
  return flag_scalar(v, &((spvgen_gemm_desc *)d)->alpha, why, size);
}
static bool flag_beta(void *d, const char *v, char *why, size_t size) {
  return flag_scalar(v, &((spvgen_gemm_desc *)d)->beta, why, size);
}

/* AB,ACC[,OUT]: OUT defaults to ACC. */
static bool flag_types(void *d_, const char *v, char *why, size_t size) {
  spvgen_gemm_desc *d = d_;
  spvgen_component_type ts[3];
  int np = 0;
  for (const char *p = v;; np++) {
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(comma - p) : strlen(p);
    char part[16];
    if (np == 3) return sg_flag_bad(why, size, v, "has more than AB,ACC,OUT");
    snprintf(part, sizeof part, "%.*s", (int)(n < sizeof part ? n : 0), p);
    if (n >= sizeof part || !spvgen_component_type_parse(part, &ts[np]))
      return sg_flag_bad(why, size, v, "has an unknown type '%.*s' (f16, bf16, f32, s8, u8, s32, u32, e4m3, e5m2)",
                         (int)n, p);
    if (!comma) break;
    p = comma + 1;
  }
  if (np < 1) return sg_flag_bad(why, size, v, "needs at least AB,ACC (e.g. f16,f32)");
  d->a_type = d->b_type = ts[0];
  d->acc_type = ts[1];
  d->out_type = ts[np];
  return true;
}

static bool flag_layout(void *d_, const char *v, char *why, size_t size) {
  spvgen_gemm_desc *d = d_;
  if (strlen(v) != 2 || !strchr("nt", v[0]) || !strchr("nt", v[1]))
    return sg_flag_bad(why, size, v, "is not nn, nt, tn or tt");
  d->a_layout = v[0] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
  d->b_layout = v[1] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
  return true;
}

static bool flag_bias(void *d, const char *v, char *why, size_t size) {
  static const spvgen_gemm_bias kinds[] = {SPVGEN_GEMM_BIAS_ROW, SPVGEN_GEMM_BIAS_COLUMN, SPVGEN_GEMM_BIAS_NONE};
  static const char *const names[] = {"row", "column", "none"};
  for (int i = 0; i < 3; i++)
    if (!strcmp(v, names[i])) return ((spvgen_gemm_desc *)d)->bias = kinds[i], true;
  return sg_flag_bad(why, size, v, "is not row, column or none");
}
static bool flag_act(void *d, const char *v, char *why, size_t size) {
  return spvgen_activation_parse(v, &((spvgen_gemm_desc *)d)->activation) ||
         sg_flag_bad(why, size, v, "is not none, relu, leaky_relu, sigmoid, tanh, silu, exp or gelu");
}
static bool flag_leaky_slope(void *d, const char *v, char *why, size_t size) {
  double slope; /* as the MLP's --leaky-slope */
  if (!sg_parse_number(v, -1e6, 1e6, &slope)) return sg_flag_bad(why, size, v, "is not a number from -1e6 to 1e6");
  return ((spvgen_gemm_desc *)d)->leaky_slope = (float)slope, true;
}
static bool flag_addressing(void *d, const char *v, char *why, size_t size) {
  return spvgen_addressing_parse(v, &((spvgen_gemm_desc *)d)->addressing) ||
         sg_flag_bad(why, size, v, "is not descriptors or device-address");
}
static bool flag_shapes(void *d, const char *v, char *why, size_t size) {
  return spvgen_gemm_shapes_parse(v, &((spvgen_gemm_desc *)d)->shapes) ||
         sg_flag_bad(why, size, v, "is not auto, fixed or runtime");
}
static bool flag_edge(void *d, const char *v, char *why, size_t size) {
  return spvgen_gemm_edge_parse(v, &((spvgen_gemm_desc *)d)->edge) ||
         sg_flag_bad(why, size, v, "is not auto, branch, clamp or shift");
}
static bool flag_pack(void *d, const char *v, char *why, size_t size) {
  return spvgen_gemm_pack_parse(v, &((spvgen_gemm_desc *)d)->pack) ||
         sg_flag_bad(why, size, v, "is not auto, none, a, b or ab");
}
static bool flag_pack_order(void *d, const char *v, char *why, size_t size) {
  return spvgen_gemm_pack_order_parse(v, &((spvgen_gemm_desc *)d)->pack_order) ||
         sg_flag_bad(why, size, v, "is not auto, same or k");
}
/* --codegen LETTERS: desc.codegen by the letters a plan name prints after "cg:" (gemm.c),
 * so a recorded plan can be planned again exactly. */
static bool flag_codegen(void *d_, const char *v, char *why, size_t size) {
  static const char letters[] = "odcmusnf"; /* SPVGEN_GEMM_CODEGEN_* bits 0 to 7, in order */
  spvgen_gemm_desc *d = d_;
  uint32_t bits = 0;
  for (const char *l = v; *l; l++) {
    const char *at = strchr(letters, *l);
    if (!at) return sg_flag_bad(why, size, v, "is not a set of the letters o, d, c, m, u, s, n, f");
    bits |= 1u << (at - letters);
  }
  d->codegen = bits;
  return true;
}

static bool flag_variant(void *d, const char *v, char *why, size_t size) {
  return spvgen_gemm_variant_parse(v, &((spvgen_gemm_desc *)d)->variant) ||
         sg_flag_bad(why, size, v, "is not auto, coopmat2, khr or simt");
}
static bool flag_tile(void *d_, const char *v, char *why, size_t size) {
  spvgen_gemm_desc *d = d_;
  uint32_t t[3], nt = 0;
  if (!sg_parse_u32_list(v, 'x', 0, UINT32_MAX, t, 3, &nt) || nt != 3)
    return sg_flag_bad(why, size, v, "is not MxNxK (e.g. 128x128x32)");
  d->tile_m = t[0];
  d->tile_n = t[1];
  d->tile_k = t[2];
  return true;
}

static const sg_flag gemm_flags[] = {
    SG_FLAG_HEADING("problem:"),
    {"--m", "M", "rows of A and D (required, >= 1)", flag_m, 0},
    {"--n", "N", "columns of B and D (required, >= 1)", flag_n, 0},
    {"--k", "K", "columns of A, rows of B (required, >= 1)", flag_k, 0},
    {"--batch", "B", "batch count (default 1)", flag_batch, 0},
    {"--types", "AB,ACC[,OUT]",
     "input, accumulator and output types (default f16,f32; OUT defaults\nto ACC): f16, bf16, s8, u8, f32, e4m3, e5m2 "
     "inputs; f16, f32, s32\naccumulators; f16, f32, bf16, s32, s8, u8, u32 out",
     flag_types, 0},
    {"--layout", "XY", "nn (default), nt, tn, tt: n = row-major, t = column-major, X for A,\nY for B", flag_layout, 0},
    {"--lda", "N", "A's leading dimension in elements (default: tight)", flag_lda, 0},
    {"--ldb", "N", "B's (--ldc, --ldd: C's, D's)", flag_ldb, 0},
    {"--ldc", "N", NULL, flag_ldc, 0},
    {"--ldd", "N", NULL, flag_ldd, 0},
    SG_FLAG_HEADING("epilogue:"),
    {"--alpha", "F", "D = alpha*A*B + beta*C", flag_alpha, 0},
    {"--beta", "F", "(beta != 0 adds binding C)", flag_beta, 0},
    {"--bias", "row|column|none", "add a bias vector (per row of D, or per column)", flag_bias, 0},
    {"--act", "none|relu|leaky_relu|sigmoid|tanh|silu|exp|gelu", "the activation after the bias", flag_act, 0},
    {"--leaky-slope", "F", "leaky_relu's slope for x < 0 (default 0.01)", flag_leaky_slope, 0},
    SG_FLAG_HEADING("knobs (default: chosen for the device):"),
    {"--variant", "auto|coopmat2|khr|simt", "the kernel's variant", flag_variant, 0},
    {"--tile", "MxNxK", "workgroup tile", flag_tile, 0},
    {"--wg", "N", "invocations per workgroup", flag_wg, 0},
    {"--subgroups", "N", "subgroups per workgroup", flag_subgroups, 0},
    {"--stages", "N", "pipeline stages", flag_stages, 0},
    {"--unroll", "N", "unroll of the k loop", flag_unroll, 0},
    {"--split-k", "N", "split K into N slices: two kernels, the partials then their reduction", flag_split_k, 0},
    {"--edge", "auto|branch|clamp|shift",
     "coopmat2: tiles crossing M or N run a clamped copy of the kernel\n(branch), every tile runs the clamped one "
     "(clamp), or edge tiles move\ninside and overlap (shift, beta 0)",
     flag_edge, 0},
    {"--edge-unroll", "N", "coopmat2 branch: unroll of the clamped edge path (default 1)", flag_edge_unroll, 0},
    {"--pack", "auto|none|a|b|ab",
     "coopmat2, simt: copy A and/or B zero-padded to whole tiles into the\nworkspace first (a pack kernel), then "
     "run the aligned kernel on the\ncopies (auto: ab for coopmat2 where A or B cannot be read 16 bytes\nat a time and M, N >= 256; "
     "8-bit inputs on coopmat2 also every operand\nnot K-contiguous, copied transposed; else none)",
     flag_pack, 0},
    {"--pack-order", "auto|same|k",
     "packed operands: copies in each operand's layout (same), or\nK-contiguous (k: A row-major, B column-major; "
     "8-bit inputs), the\nmain kernel then the nt kernel (auto: k for 8-bit inputs on\ncoopmat2, else same)",
     flag_pack_order, 0},
    {"--pack-units", "N", "packed operands: 16-byte units of the copies each pack kernel\ninvocation writes (1 to 16, default 1)",
     flag_pack_units, 0},
    {"--codegen", "LETTERS",
     "alternatives of how the kernel is written (desc.codegen), by the\nletters a plan name prints after cg: (o, d, c, m, u, s, n, f; gemm.h)",
     flag_codegen, 0},
    {"--compile-budget", "MS",
     "the driver compile time the plan may cost, estimated (default 300;\n1000 for fixed shapes that run 1 ms or more)",
     flag_compile_budget, 0},
    SG_FLAG_HEADING("shapes:"),
    {"--shapes", "auto|fixed|runtime",
     "fixed: the shape is part of the kernel (default); runtime: M, N, K,\nld*, strides, alpha, beta are push "
     "constants, one kernel for every\nshape of its class (then --m/--n/--k are the shape run, or planned for)",
     flag_shapes, 0},
    {"--m-multiple", "N", "runtime class: M always a multiple of N", flag_m_multiple, 0},
    {"--n-multiple", "N", "N likewise (--k-multiple: K)", flag_n_multiple, 0},
    {"--k-multiple", "N", NULL, flag_k_multiple, 0},
    {"--ld-multiple", "N", "runtime class: every ld and batch stride a multiple of N", flag_ld_multiple, 0},
    {"--k-fixed", NULL,
     "runtime class of one K, --k's (a layer's weights): the kernel holds K\nas a constant, its K loop as a fixed "
     "shape's; M, N, ld* per call",
     flag_k_fixed, 0},
    {"--addressing", "descriptors|device-address",
     "device-address: every buffer a 64-bit pointer in the push constants,\nno descriptor set", flag_addressing, 0},
    {NULL, NULL, NULL, NULL, 0},
};

/* The command line's types are f16,f32 (a zeroed desc's are f16 everywhere). */
static void flags_init(void *desc) {
  spvgen_gemm_desc *d = desc;
  d->acc_type = SPVGEN_COMPONENT_F32;
  d->out_type = SPVGEN_COMPONENT_F32;
}

static bool flags_done(const void *desc, char *why, size_t size) {
  const spvgen_gemm_desc *d = desc;
  const char *missing = !d->m ? "--m" : !d->n ? "--n" : !d->k ? "--k" : NULL;
  if (missing) snprintf(why, size, "%s is required (--m, --n and --k give the shape)", missing);
  return !missing;
}

/* The SPIRV-Tools spvgen links predates SPV_KHR_bfloat16: it cannot read a bf16 module. */
static bool validator_reads(const void *plan) {
  const spvgen_gemm_config *p = plan;
  return p->desc.a_type != SPVGEN_COMPONENT_BF16 && p->desc.out_type != SPVGEN_COMPONENT_BF16;
}

const sg_template sg_template_gemm = {
    .name = "gemm",
    .desc_size = sizeof(spvgen_gemm_desc),
    .plan_size = sizeof(spvgen_gemm_config),
    SG_TEMPLATE_API_FIELDS(gemm),
    .plan_name = plan_name,
    .variant_name = variant_name,
    .describe = describe,
    .examples = examples,
    .knobs = knobs,
    .candidate = candidate,
    .addressing_model = addressing_model,
    .kernel_count = kernel_count,
    .emit_kernel = emit_kernel,
    .kernel_names = kernel_names,
    .kernel_name = kernel_name,
    .run_data = gemm_run_data,
    .run_check = gemm_run_check,
    .run_where = gemm_run_where,
    .run_free = gemm_run_free,
    .run_bind = gemm_run_bind,
    .run_compare = gemm_run_compare,
    .flags = gemm_flags,
    .flags_init = flags_init,
    .flags_done = flags_done,
    .validator_reads = validator_reads,
    .summary = "D = alpha*A*B + beta*C (+bias, activation)",
    .example = "--m 97 --n 131 --k 67 --layout tn --types s8,s32 --bias row --act relu --caps vulkan13",
};
