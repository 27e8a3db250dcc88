/* tools/common/mlp_train_run.c — see mlp_train_run.h. */
#define _POSIX_C_SOURCE 200809L
#include "mlp_train_run.h"

#include "clock.h"
#include "template_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlp_run.h"
#include "ref_convert.h"

#define VKFAIL()                                          \
  do {                                                    \
    st = SPVGEN_ERROR_VULKAN;                             \
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));      \
    goto done;                                            \
  } while (0)

/* The kernel `which`, or (index >= 0) kernel `index` of the gradient step's. */
static spvgen_status make_pipe(spvgen_vk_context *ctx, const spvgen_mlp_train_config *t,
                               spvgen_mlp_train_kernel which, int index, spvgen_vk_pipeline **pipe,
                               spvgen_kernel_info *info, double *compile_ms, char *msg, size_t size) {
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&t->net)});
  if (!m) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_status st = index >= 0 ? spvgen_mlp_train_emit_kernel(m, t, (uint32_t)index, info)
                                : spvgen_mlp_train_emit(m, t, which, info);
  if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
  if (st != SPVGEN_OK) snprintf(msg, size, "emit: %s", spvgen_module_error(m));
  if (st == SPVGEN_OK) st = spvgen_kernel_reflect(words, count, info, msg, size);
  double t0 = sg_now_ms();
  if (st == SPVGEN_OK && spvgen_vk_pipeline_create(ctx, words, count, info, NULL, pipe) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  }
  *compile_ms = sg_now_ms() - t0;
  spvgen_module_destroy(m);
  return st;
}

/* The gradient step's KC kernels (the layers variant) in one batch: the driver compiles
 * them on several threads (spvgen_vk_pipelines_create); *compile_ms is the batch's wall
 * time. */
static spvgen_status make_layer_pipes(spvgen_vk_context *ctx, const spvgen_mlp_train_config *t, uint32_t kc,
                                      spvgen_vk_pipeline **pipes, double *compile_ms, char *msg, size_t size) {
  spvgen_module **m = calloc(kc, sizeof *m);
  spvgen_kernel_info *info = calloc(kc, sizeof *info);
  spvgen_vk_pipeline_request *rq = calloc(kc, sizeof *rq);
  spvgen_status st = m && info && rq ? SPVGEN_OK : SPVGEN_ERROR_OUT_OF_MEMORY;
  if (st != SPVGEN_OK) snprintf(msg, size, "out of host memory");
  for (uint32_t k = 0; k < kc && st == SPVGEN_OK; k++) {
    m[k] = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&t->net)});
    if (!m[k]) {
      st = SPVGEN_ERROR_OUT_OF_MEMORY;
      snprintf(msg, size, "out of memory");
      break;
    }
    const uint32_t *words = NULL;
    size_t count = 0;
    st = spvgen_mlp_train_emit_kernel(m[k], t, k, &info[k]);
    if (st == SPVGEN_OK) st = spvgen_module_finish(m[k], &words, &count);
    if (st != SPVGEN_OK) snprintf(msg, size, "emit: %s", spvgen_module_error(m[k]));
    if (st == SPVGEN_OK) st = spvgen_kernel_reflect(words, count, &info[k], msg, size);
    rq[k] = (spvgen_vk_pipeline_request){words, count, &info[k], NULL};
  }
  double t0 = sg_now_ms();
  if (st == SPVGEN_OK && spvgen_vk_pipelines_create(ctx, rq, kc, template_compile_threads(kc), pipes) != SPVGEN_OK) {
    st = SPVGEN_ERROR_VULKAN;
    snprintf(msg, size, "%s", spvgen_vk_error(ctx));
  }
  *compile_ms = sg_now_ms() - t0;
  for (uint32_t k = 0; m && k < kc; k++) spvgen_module_destroy(m[k]);
  free(m);
  free(info);
  free(rq);
  return st;
}

/* The run's six buffers (input, weights, targets, gradients, state, loss), each a range of
 * a spvgen buffer: its own, or (suballocate) one shared buffer. */
enum { S_IN, S_W, S_T, S_G, S_S, S_L, SLICES };
typedef struct slice {
  spvgen_vk_buffer *buf;
  uint64_t off, size; /* size: a multiple of 4 */
} slice;

static spvgen_status up(spvgen_vk_context *ctx, const slice *s, const void *data, uint64_t bytes) {
  return spvgen_vk_buffer_upload(ctx, s->buf, s->off, data, bytes);
}
static spvgen_status down(spvgen_vk_context *ctx, const slice *s, void *data, uint64_t bytes) {
  return spvgen_vk_buffer_download(ctx, s->buf, s->off, data, bytes);
}
static spvgen_status fill(spvgen_vk_context *ctx, const slice *s, uint64_t at, uint64_t bytes, uint32_t v) {
  return spvgen_vk_buffer_fill(ctx, s->buf, s->off + at, bytes, v);
}

/* Suballocation: the word outside every range, and the bytes of it kept around each. */
#define GUARD_WORD 0x7FC0DEADu
#define GUARD_BYTES 4096u

/* The slices in one buffer: past a guard each, at an offset that is an odd multiple of
 * align[i] (>= 4; round_up(., 256) + align), so that nothing sits at a 256-byte boundary
 * unless the pointer needs it. The whole buffer filled with GUARD_WORD first. */
static spvgen_status suballocate(spvgen_vk_context *ctx, slice *sl, const uint32_t *align, spvgen_vk_buffer **big) {
  uint64_t at = 0;
  for (int i = 0; i < SLICES; i++) {
    uint64_t a = align[i] > 4 ? align[i] : 4;
    sl[i].off = ((at + GUARD_BYTES + 255) & ~255ull) + a;
    at = sl[i].off + sl[i].size;
  }
  uint64_t total = (at + GUARD_BYTES + 255) & ~255ull;
  spvgen_status st = spvgen_vk_buffer_create(ctx, total, SPVGEN_VK_BUFFER_DEVICE_ADDRESS, big);
  if (st == SPVGEN_OK) st = spvgen_vk_buffer_fill(ctx, *big, 0, total, GUARD_WORD);
  for (int i = 0; i < SLICES; i++) sl[i].buf = *big;
  return st;
}

/* The words between and around the slices that are no longer GUARD_WORD. */
static spvgen_status guards_written(spvgen_vk_context *ctx, const slice *sl, spvgen_vk_buffer *big, uint64_t *bad,
                                    uint64_t *checked) {
  uint64_t from = 0;
  uint32_t *w = malloc(GUARD_BYTES + 512);
  if (!w) return SPVGEN_ERROR_OUT_OF_MEMORY;
  spvgen_status st = SPVGEN_OK;
  for (int i = 0; i <= SLICES && st == SPVGEN_OK; i++) {
    uint64_t to = i < SLICES ? sl[i].off : spvgen_vk_buffer_size(big);
    for (uint64_t at = from; at < to && st == SPVGEN_OK; at += GUARD_BYTES + 512) {
      uint64_t n = to - at < GUARD_BYTES + 512 ? to - at : GUARD_BYTES + 512;
      st = spvgen_vk_buffer_download(ctx, big, at, w, n);
      for (uint64_t k = 0; st == SPVGEN_OK && k < n / 4; k++) *bad += w[k] != GUARD_WORD;
      if (st == SPVGEN_OK) *checked += n / 4;
    }
    if (i < SLICES) from = sl[i].off + sl[i].size;
  }
  free(w);
  return st;
}

/* One kernel's dispatch over the slices (bindings: the slices in `which` order). */
typedef struct pass {
  spvgen_vk_pipeline *pipe;
  int which[5];
  uint32_t count;
  const void *push;
  uint32_t push_size;
  uint32_t groups;
} pass;

/* Runs passes in one submission: whole buffers through spvgen_vk_run (GPU times in ns),
 * ranges of one (suballocated) through spvgen_vk_submit (no times). */
static spvgen_status run_passes(spvgen_vk_context *ctx, const slice *sl, bool ranges, const pass *ps, uint32_t n,
                                uint64_t *ns) {
  spvgen_vk_dispatch_desc dd[2];
  spvgen_vk_record_desc rd[2];
  spvgen_vk_buffer *bufs[2][5];
  spvgen_vk_buffer_range rr[2][5];
  if (n > 2) return SPVGEN_ERROR_INVALID_ARGUMENT;
  for (uint32_t k = 0; k < n; k++) {
    for (uint32_t i = 0; i < ps[k].count; i++) {
      const slice *s = &sl[ps[k].which[i]];
      bufs[k][i] = s->buf;
      rr[k][i] = (spvgen_vk_buffer_range){.buffer = s->buf, .offset = s->off, .range = s->size};
    }
    dd[k] = (spvgen_vk_dispatch_desc){.pipeline = ps[k].pipe, .buffers = bufs[k], .buffer_count = ps[k].count,
                                      .push_data = ps[k].push, .push_size = ps[k].push_size,
                                      .groups = {ps[k].groups, 1, 1}};
    rd[k] = (spvgen_vk_record_desc){.pipeline = ps[k].pipe, .buffers = rr[k], .buffer_count = ps[k].count,
                                    .push_data = ps[k].push, .push_size = ps[k].push_size,
                                    .groups = {ps[k].groups, 1, 1}};
  }
  if (!ranges) return spvgen_vk_run(ctx, dd, n, ns);
  spvgen_vk_submit_desc sd = {.dispatches = rd, .count = n};
  uint64_t ticket = 0;
  spvgen_status st = spvgen_vk_submit(ctx, &sd, &ticket);
  return st == SPVGEN_OK ? spvgen_vk_wait(ctx, ticket) : st;
}

/* The optimizer's push constants (spvgen/mlp.h): step, learning rate, (vec) grad_scale
 * and (device addresses) the loss buffer's length in floats. */
static void opt_push(uint32_t *w, uint32_t step, float lr, bool vec, float grad_scale, bool bda, uint32_t loss_n) {
  uint32_t k = 2;
  w[0] = step;
  memcpy(&w[1], &lr, 4);
  if (vec) memcpy(&w[k++], &grad_scale, 4);
  if (bda) w[k++] = loss_n;
  while (k < 4) w[k++] = 0;
}

/* The vec variant's gradient buffer (spvgen/mlp.h): the weight layout's row-major part,
 * then each layer's TrainingOptimal f16 matrix (64-byte aligned). push: the gradient
 * kernel's push constants but loss_scale. Returns the buffer's size, 0 on failure. */
static uint64_t vec_layout(spvgen_vk_context *ctx, const spvgen_mlp_train_config *t, uint32_t *push,
                           size_t *msize) {
  const spvgen_mlp_config *p = &t->net;
  uint64_t off = (p->weight_bytes + 63) & ~63ull;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    spvgen_vk_coopvec_matrix cm = {.rows = p->layers[l].outputs, .columns = p->layers[l].inputs,
                                   .src_type = SPVGEN_COMPONENT_F16, .dst_type = SPVGEN_COMPONENT_F16,
                                   .src_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV,
                                   .dst_layout = SpvCooperativeVectorMatrixLayoutTrainingOptimalNV};
    if (spvgen_vk_coopvec_matrix_size(ctx, &cm, &msize[l]) != SPVGEN_OK) return 0;
    push[2 + l] = (uint32_t)off;
    push[2 + p->layer_count + l] = (uint32_t)p->layers[l].bias_offset;
    off = (off + msize[l] + 63) & ~63ull;
  }
  return off;
}

/* Zeroes the vec gradient buffer before a step (fill) or converts its TrainingOptimal
 * matrices into the row-major part after one. */
static spvgen_status vec_convert(spvgen_vk_context *ctx, const spvgen_mlp_train_config *t,
                                 const slice *g, const uint32_t *push) {
  const spvgen_mlp_config *p = &t->net;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    spvgen_vk_coopvec_matrix cm = {.rows = L->outputs, .columns = L->inputs,
                                   .src_type = SPVGEN_COMPONENT_F16, .dst_type = SPVGEN_COMPONENT_F16,
                                   .src_layout = SpvCooperativeVectorMatrixLayoutTrainingOptimalNV,
                                   .dst_layout = SpvCooperativeVectorMatrixLayoutRowMajorNV, .dst_stride = L->row_stride};
    spvgen_status st =
        spvgen_vk_convert_coopvec_matrix_buffers(ctx, &cm, g->buf, g->off + push[2 + l], g->buf, g->off + L->matrix_offset);
    if (st != SPVGEN_OK) return st;
  }
  return SPVGEN_OK;
}

spvgen_status mlp_train_run(spvgen_vk_context *ctx, const spvgen_mlp_train_desc *desc,
                            const mlp_train_run_options *options, mlp_train_run_result *res,
                            char *msg, size_t size) {
  mlp_train_run_options opt = options ? *options : (mlp_train_run_options){0};
  if (!opt.points) opt.points = 1024;
  if (!opt.steps) opt.steps = 3;
  if (!(opt.lr > 0)) opt.lr = 1e-3f;
  memset(res, 0, sizeof *res);
  uint32_t max_steps = opt.no_check ? 1024 : MLP_TRAIN_RUN_MAX_STEPS;
  if (opt.steps > max_steps || opt.warmup > 1024 || opt.points > 0xFFFFFFFFull) {
    snprintf(msg, size, "steps %u (at most %u), warmup %u (at most 1024) or points %llu (at most 2^32 - 1)",
             opt.steps, max_steps, opt.warmup, (unsigned long long)opt.points);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_status st = SPVGEN_OK;
  if (opt.plan) res->plan = *opt.plan;
  else st = spvgen_mlp_train_plan(desc, caps, &res->plan, msg, size);
  if (st != SPVGEN_OK) return st;
  const spvgen_mlp_train_config *t = &res->plan;
  const spvgen_mlp_desc *nd = &t->net.desc;
  const uint64_t E = t->elements, N = opt.points;
  const uint32_t G = t->grad_workgroups;
  bool adam = t->desc.optimizer == SPVGEN_MLP_OPTIMIZER_ADAM;
  const bool vec = t->net.variant == SPVGEN_MLP_VEC;
  const bool bda = nd->addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (opt.suballocate && (!bda || opt.no_check)) {
    snprintf(msg, size, "suballocate: %s", !bda ? "the kernels take descriptors (plan with net.addressing "
                                                  "device-address)"
                                                : "a checked run only (not no_check)");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  /* vec: push constants of the gradient kernel, f16 gradients scaled by loss_scale */
  uint32_t gpush[2 + 2 * SPVGEN_MLP_MAX_LAYERS];
  size_t msize[SPVGEN_MLP_MAX_LAYERS];
  const float loss_scale = 1024.0f, grad_scale = 1.0f / 1024.0f;
  spvgen_mlp_train_config t1 = *t; /* the optimizer's view: vec has one slot */
  if (vec) t1.grad_workgroups = 1;
  uint16_t *h16 = NULL;
  uint64_t gbytes = t->grad_bytes;
  gpush[0] = (uint32_t)N;
  memcpy(&gpush[1], &loss_scale, 4);
  /* The push constants the host gives: the gradient kernel's count (vec: and the loss
   * scale and offsets), the optimizer's step, learning rate (vec: grad_scale) and, with
   * device addresses, the loss buffer's length; the runner writes the pointers after them. */
  const uint32_t gpush_size = vec ? 8 + 8 * t->net.layer_count : 4;
  const uint32_t opush_size = (vec ? 12 : 8) + (bda ? 4 : 0);
  spvgen_vk_pipeline *gp = NULL, *op = NULL;
  spvgen_kernel_info gi, oi;
  memset(&gi, 0, sizeof gi);
  slice sl[SLICES];
  memset(sl, 0, sizeof sl);
  spvgen_vk_buffer *big = NULL;
  mlp_train_data data;
  memset(&data, 0, sizeof data);
  float *slots = NULL, *state = NULL, *state2 = NULL, *lossv = NULL;
  uint8_t *wcur = NULL;
  double *grad = NULL, *tol = NULL, *sref = NULL, *stol = NULL;
  uint64_t *tns = NULL;
  /* the layers variant: the step's kernels and dispatches, the workspace (layered below) */
  const bool lay = t->net.variant == SPVGEN_MLP_LAYERS;
  const uint32_t KC = lay ? spvgen_mlp_train_kernel_count(t) : 0, DC = lay ? spvgen_mlp_train_dispatch_count(t) : 0;
  uint32_t DR = DC; /* the dispatches run (drop_dispatch: one fewer) */
  spvgen_vk_pipeline **lp = NULL;
  spvgen_mlp_train_dispatch *ldisp = NULL;
  spvgen_vk_dispatch_desc *ldd = NULL; /* the step's gradient dispatches */
  spvgen_vk_buffer *(*lbufs)[5] = NULL, *ws = NULL;
  uint64_t (*loffs)[5] = NULL, *lns = NULL;
  if (lay && opt.suballocate) {
    snprintf(msg, size, "suballocate: the layers variant binds its own buffers");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  if (lay) {
    if (!(lp = calloc(KC, sizeof *lp)) || !(ldisp = calloc(DC, sizeof *ldisp)) || !(ldd = calloc(DC, sizeof *ldd)) ||
        !(lbufs = calloc(DC, sizeof *lbufs)) || !(loffs = calloc(DC, sizeof *loffs)) ||
        !(lns = calloc(DC + 1, sizeof *lns))) {
      st = SPVGEN_ERROR_OUT_OF_MEMORY;
      snprintf(msg, size, "out of host memory");
      goto done;
    }
    for (uint32_t k = 0; k < DC && st == SPVGEN_OK; k++)
      st = spvgen_mlp_train_dispatch_for(t, k, N, &ldisp[k], msg, size);
    if (st == SPVGEN_OK) st = make_layer_pipes(ctx, t, KC, lp, &res->grad_compile_ms, msg, size);
  } else {
    st = make_pipe(ctx, t, SPVGEN_MLP_TRAIN_GRADIENT, -1, &gp, &gi, &res->grad_compile_ms, msg, size);
  }
  if (st == SPVGEN_OK) st = make_pipe(ctx, t, SPVGEN_MLP_TRAIN_OPTIMIZER, -1, &op, &oi, &res->opt_compile_ms, msg, size);
  if (st != SPVGEN_OK) goto done;
  uint64_t sw = adam ? 3 * E : E;
  if (vec && !(gbytes = vec_layout(ctx, t, gpush, msize))) VKFAIL();
  uint64_t in_bytes = N * nd->input_width * spvgen_component_type_size(nd->input_type);
  uint64_t loss_n = G + opt.warmup + opt.steps;
  if (!mlp_train_make_data(t, N, opt.seed, &data) || !(slots = malloc(vec ? E * 4 : t->grad_bytes)) ||
      !(h16 = malloc(t->net.weight_bytes)) ||
      !(state = calloc(sw, 4)) || !(state2 = malloc(sw * 4)) || !(lossv = malloc(loss_n * 4)) ||
      !(wcur = malloc(t->net.weight_bytes)) || !(grad = malloc(E * 8)) || !(tol = malloc(E * 8)) ||
      !(sref = malloc(sw * 8)) || !(stol = malloc(sw * 8)) ||
      !(tns = calloc(4ull * opt.steps + 2ull * opt.warmup + 1, 8))) {
    st = SPVGEN_ERROR_OUT_OF_MEMORY;
    snprintf(msg, size, "out of host memory");
    goto done;
  }
  for (uint64_t e = 0; e < E; e++) state[e] = (float)sg_ref_f16_at(data.weights, 2 * e);
  sl[S_IN].size = (in_bytes + 3) & ~3ull;
  sl[S_W].size = (t->net.weight_bytes + 3) & ~3ull;
  sl[S_T].size = N * nd->output_width * 4;
  sl[S_G].size = (gbytes + 3) & ~3ull;
  sl[S_S].size = sw * 4;
  sl[S_L].size = loss_n * 4;
  if (opt.suballocate) {
    /* each range as aligned as the pointers of both kernels that take it need */
    uint32_t align[SLICES] = {0};
    static const int gmap[5] = {S_IN, S_W, S_T, S_G, S_L}, omap[4] = {S_W, S_G, S_S, S_L};
    for (uint32_t i = 0; i < gi.binding_count && i < 5; i++)
      if (gi.bindings[i].alignment > align[gmap[i]]) align[gmap[i]] = gi.bindings[i].alignment;
    for (uint32_t i = 0; i < oi.binding_count && i < 4; i++)
      if (oi.bindings[i].alignment > align[omap[i]]) align[omap[i]] = oi.bindings[i].alignment;
    if (suballocate(ctx, sl, align, &big) != SPVGEN_OK) VKFAIL();
  } else {
    for (int i = 0; i < SLICES; i++)
      if (spvgen_vk_buffer_create(ctx, sl[i].size, bda || (vec && i == S_G) ? SPVGEN_VK_BUFFER_DEVICE_ADDRESS : 0,
                                  &sl[i].buf) != SPVGEN_OK)
        VKFAIL();
  }
  for (int i = 0; i < SLICES; i++) res->offsets[i] = sl[i].off;
  if (lay) { /* the workspace, and each dispatch's buffers in its kernel's binding order */
    const uint64_t wsb = spvgen_mlp_train_workspace_bytes(t, N);
    /* NaN-filled: the planes' rows past the points (the GEMMs between workspace planes run
     * on the rounded count) hold NaN, so one summed into a gradient, or read into a real
     * row, fails the check */
    if (spvgen_vk_buffer_create(ctx, wsb ? wsb : 4, 0, &ws) != SPVGEN_OK ||
        spvgen_vk_buffer_fill(ctx, ws, 0, spvgen_vk_buffer_size(ws), 0x7FC07FC0u) != SPVGEN_OK)
      VKFAIL();
    spvgen_vk_buffer *roles[6] = {sl[S_IN].buf, sl[S_W].buf, sl[S_T].buf, sl[S_G].buf, sl[S_L].buf, ws};
    for (uint32_t k = 0; k < DC; k++) {
      for (uint32_t b = 0; b < ldisp[k].binding_count; b++) {
        lbufs[k][b] = roles[ldisp[k].bindings[b].buffer];
        loffs[k][b] = ldisp[k].bindings[b].offset;
      }
      ldd[k] = (spvgen_vk_dispatch_desc){.pipeline = lp[ldisp[k].kernel], .buffers = lbufs[k],
                                         .buffer_count = ldisp[k].binding_count, .push_data = ldisp[k].push,
                                         .push_size = ldisp[k].push_size, .offsets = loffs[k],
                                         .groups = {ldisp[k].groups[0], ldisp[k].groups[1], ldisp[k].groups[2]}};
    }
    if (opt.drop_dispatch && opt.drop_dispatch <= DC) { /* tests: that dispatch left out */
      memmove(ldd + opt.drop_dispatch - 1, ldd + opt.drop_dispatch, (DC - opt.drop_dispatch) * sizeof *ldd);
      DR--;
    }
  }
  if (up(ctx, &sl[S_IN], data.input, in_bytes) != SPVGEN_OK ||
      up(ctx, &sl[S_W], data.weights, t->net.weight_bytes) != SPVGEN_OK ||
      up(ctx, &sl[S_T], data.targets, N * nd->output_width * 4) != SPVGEN_OK ||
      up(ctx, &sl[S_S], state, sw * 4) != SPVGEN_OK ||
      fill(ctx, &sl[S_G], 0, sl[S_G].size, 0x7FC00000u) != SPVGEN_OK ||
      (t->grid_grad_offset &&
       fill(ctx, &sl[S_G], t->grid_grad_offset * 4, t->grad_bytes - t->grid_grad_offset * 4, 0) != SPVGEN_OK) ||
      fill(ctx, &sl[S_L], 0, loss_n * 4, 0x7FC00000u) != SPVGEN_OK)
    VKFAIL(); /* NaN-filled gradients and loss: an element never written fails */
  /* the gradient kernel's bindings: input, weights, targets, gradients, loss; the
   * optimizer's: weights, gradients, state, loss */
  pass gpass = {gp, {S_IN, S_W, S_T, S_G, S_L}, 5, gpush, gpush_size, gi.groups[0]};
  pass opass = {op, {S_W, S_G, S_S, S_L}, 4, NULL, opush_size, oi.groups[0]};
  if (opt.no_check) {
    /* A step is the gradient dispatches (the fused variants' one kernel; the layers
     * variant's DR) and the optimizer. The warm-up steps run in a submission of their own,
     * then the timed steps in one (vec: step by step, the gradient buffer zeroed before
     * and its matrices converted after each gradient pass, untimed); grad_ns is the median
     * of a step's gradient dispatches' sum, opt_ns the optimizer's. The layers variant
     * then runs the timed steps again as whole steps (step_ns: its barriers included). */
    const uint32_t total = opt.warmup + opt.steps;
    spvgen_vk_buffer *gb[5] = {sl[S_IN].buf, sl[S_W].buf, sl[S_T].buf, sl[S_G].buf, sl[S_L].buf};
    spvgen_vk_buffer *ob[4] = {sl[S_W].buf, sl[S_G].buf, sl[S_S].buf, sl[S_L].buf};
    const spvgen_vk_dispatch_desc fused = {.pipeline = gp, .buffers = gb, .buffer_count = 5, .push_data = gpush,
                                           .push_size = gpush_size, .groups = {gi.groups[0], 1, 1}};
    const spvgen_vk_dispatch_desc *gd = lay ? ldd : &fused;
    const uint32_t gn = lay ? DR : 1, per = gn + 1;
    const bool alone = opt.time_optimizer_alone && !vec;
    /* the optimizer's push constants: the steps, then those it runs alone, then the
     * whole steps (their step numbers go on from the ones before) */
    uint32_t (*opc)[4] = calloc(total + 2ull * opt.steps, sizeof *opc);
    spvgen_vk_dispatch_desc *dd = calloc((size_t)per * total, sizeof *dd);
    uint64_t *dns = calloc((size_t)per * total, sizeof *dns);
    if (!opc || !dd || !dns) {
      free(opc);
      free(dd);
      free(dns);
      st = SPVGEN_ERROR_OUT_OF_MEMORY;
      snprintf(msg, size, "out of host memory");
      goto done;
    }
    for (uint32_t k = 0; k < total; k++) {
      opt_push(opc[k], k + 1, opt.lr, vec, grad_scale, bda, (uint32_t)loss_n);
      memcpy(dd + (size_t)k * per, gd, gn * sizeof *dd);
      dd[(size_t)k * per + gn] = (spvgen_vk_dispatch_desc){.pipeline = op, .buffers = ob, .buffer_count = 4,
                                                          .push_data = opc[k], .push_size = opush_size,
                                                          .groups = {oi.groups[0], 1, 1}};
    }
    if (!vec) {
      if (opt.warmup) st = spvgen_vk_run(ctx, dd, per * opt.warmup, dns);
      if (st == SPVGEN_OK)
        st = spvgen_vk_run(ctx, dd + (size_t)per * opt.warmup, per * opt.steps, dns + (size_t)per * opt.warmup);
    } else {
      for (uint32_t k = 0; k < total && st == SPVGEN_OK; k++) {
        spvgen_vk_dispatch_desc *at = dd + (size_t)k * per;
        st = fill(ctx, &sl[S_G], 0, sl[S_G].size, 0);
        if (st == SPVGEN_OK) st = spvgen_vk_run(ctx, at, gn, dns + (size_t)k * per);
        if (st == SPVGEN_OK) st = vec_convert(ctx, t, &sl[S_G], gpush);
        if (st == SPVGEN_OK) st = spvgen_vk_run(ctx, at + gn, 1, dns + (size_t)k * per + gn);
      }
    }
    uint64_t *g2 = tns; /* scratch: steps entries at least */
    if (st == SPVGEN_OK) {
      for (uint32_t k = 0; k < opt.steps; k++) {
        g2[k] = 0;
        for (uint32_t j = 0; j < gn; j++) g2[k] += dns[(size_t)(opt.warmup + k) * per + j];
      }
      qsort(g2, opt.steps, 8, sg_cmp_u64);
      res->grad_ns = (double)g2[opt.steps / 2];
      for (uint32_t k = 0; k < opt.steps; k++) g2[k] = dns[(size_t)(opt.warmup + k) * per + gn];
      qsort(g2, opt.steps, 8, sg_cmp_u64);
      res->opt_ns = (double)g2[opt.steps / 2];
    }
    uint32_t next = total; /* the optimizer's step numbers used so far */
    if (st == SPVGEN_OK && alone) { /* the optimizer alone, the timed steps' dispatches */
      spvgen_vk_dispatch_desc *ad = calloc(opt.steps, sizeof *ad);
      if (!ad) {
        st = SPVGEN_ERROR_OUT_OF_MEMORY;
      } else {
        for (uint32_t k = 0; k < opt.steps; k++) {
          opt_push(opc[next + k], next + k + 1, opt.lr, vec, grad_scale, bda, (uint32_t)loss_n);
          ad[k] = dd[(size_t)(opt.warmup + k) * per + gn];
          ad[k].push_data = opc[next + k];
        }
        st = spvgen_vk_run(ctx, ad, opt.steps, g2);
        if (st == SPVGEN_OK) {
          qsort(g2, opt.steps, 8, sg_cmp_u64);
          res->opt_alone_ns = (double)g2[opt.steps / 2];
        }
        free(ad);
        next += opt.steps;
      }
    }
    if (st == SPVGEN_OK && lay) { /* whole steps */
      for (uint32_t k = 0; k < opt.steps; k++) {
        opt_push(opc[next + k], next + k + 1, opt.lr, false, grad_scale, false, (uint32_t)loss_n);
        dd[(size_t)k * per + gn].push_data = opc[next + k];
      }
      st = spvgen_vk_run_steps(ctx, dd, per * opt.steps, per, dns);
      if (st == SPVGEN_OK) {
        qsort(dns, opt.steps, 8, sg_cmp_u64);
        res->step_ns = (double)dns[opt.steps / 2];
      }
    }
    free(opc);
    free(dd);
    free(dns);
    if (st == SPVGEN_ERROR_OUT_OF_MEMORY) {
      snprintf(msg, size, "out of host memory");
      goto done;
    }
    if (st != SPVGEN_OK) VKFAIL();
    if (down(ctx, &sl[S_L], lossv, loss_n * 4) != SPVGEN_OK) VKFAIL();
    for (uint32_t k = 0; k < opt.steps && k < MLP_TRAIN_RUN_MAX_STEPS; k++)
      res->loss_gpu[k] = lossv[G + opt.warmup + k];
  }
  for (uint32_t step = 1; step <= opt.steps && !opt.no_check; step++) {
    uint32_t opc[4];
    opt_push(opc, step, opt.lr, vec, grad_scale, bda, (uint32_t)loss_n);
    opass.push = opc;
    uint64_t ns[2] = {0, 0};
    {
      /* the weights and state before the step, the gradient kernel, its check */
      if (down(ctx, &sl[S_W], wcur, t->net.weight_bytes) != SPVGEN_OK ||
          down(ctx, &sl[S_S], state, sw * 4) != SPVGEN_OK ||
          (vec && fill(ctx, &sl[S_G], 0, sl[S_G].size, 0) != SPVGEN_OK) ||
          (!lay && run_passes(ctx, sl, opt.suballocate, &gpass, 1, ns) != SPVGEN_OK) ||
          (lay && spvgen_vk_run(ctx, ldd, DR, lns) != SPVGEN_OK) ||
          (vec && vec_convert(ctx, t, &sl[S_G], gpush) != SPVGEN_OK) ||
          down(ctx, &sl[S_G], vec ? (void *)h16 : (void *)slots, vec ? t->net.weight_bytes : t->grad_bytes) != SPVGEN_OK ||
          down(ctx, &sl[S_L], lossv, loss_n * 4) != SPVGEN_OK)
        VKFAIL();
      for (uint32_t k = 0; lay && k < DR; k++) ns[0] += lns[k];
      /* vec: the f16 gradients as the optimizer reads them (f32(h) * grad_scale) */
      for (uint64_t e = 0; vec && e < E; e++) slots[e] = (float)sg_ref_f16_to_f32(h16[e]) * grad_scale;
      double lref, ltol;
      if (!mlp_train_reference(t, wcur, &data, grad, tol, &lref, &ltol)) {
        st = SPVGEN_ERROR_OUT_OF_MEMORY;
        snprintf(msg, size, "out of host memory");
        goto done;
      }
      if (vec) { /* f16 arithmetic and f16 atomic sums: 2^-5 (|ref| + the layer's largest) */
        for (uint32_t l = 0; l < t->net.layer_count; l++) {
          const spvgen_mlp_layer *L = &t->net.layers[l];
          uint64_t lo = L->matrix_offset / 2, hi = (l + 1 < t->net.layer_count ? t->net.layers[l + 1].matrix_offset : t->net.weight_bytes) / 2;
          double lmax = 0;
          for (uint64_t e = lo; e < hi; e++) lmax = fabs(grad[e]) > lmax ? fabs(grad[e]) : lmax;
          for (uint64_t e = lo; e < hi; e++) tol[e] = ldexp(fabs(grad[e]) + lmax, -5) + 1e-30;
        }
        ltol = ldexp(fabs(lref), -5);
      }
      mlp_train_check_gradients(&t1, slots, grad, tol, &res->grad);
      double lg = 0;
      for (uint32_t g = 0; g < G; g++) lg += lossv[g];
      res->loss_gpu[step - 1] = lg;
      res->loss_ref[step - 1] = lref;
      if (!(fabs(lg - lref) <= ltol)) res->loss_bad++;
      /* the optimizer and its check */
      if (run_passes(ctx, sl, opt.suballocate, &opass, 1, ns + 1) != SPVGEN_OK ||
          down(ctx, &sl[S_S], state2, sw * 4) != SPVGEN_OK ||
          down(ctx, &sl[S_W], wcur, t->net.weight_bytes) != SPVGEN_OK ||
          down(ctx, &sl[S_L], lossv, loss_n * 4) != SPVGEN_OK)
        VKFAIL();
      mlp_train_optimizer_reference(&t1, state, slots, step, opt.lr, sref, stol);
      mlp_train_check_optimizer(&t1, sref, stol, state2, wcur, &res->opt);
      if (t->grid_grad_offset) { /* the optimizer leaves the table's gradient at 0 */
        if (down(ctx, &sl[S_G], slots, t->grad_bytes) != SPVGEN_OK) VKFAIL();
        for (uint64_t e = t->slot_elements; e < E; e++)
          mlp_train_check_value(&res->opt, e, mlp_train_table_gradient(t, slots, e), 0.0, 1e-30);
      }
      /* the loss history element */
      if (!(fabs(lossv[G + step - 1] - lg) <= 1e-6 * fabs(lg) + 1e-30)) res->loss_bad++;
      /* nothing outside the ranges written */
      if (big && guards_written(ctx, sl, big, &res->guard_bad, &res->guard_words) != SPVGEN_OK) VKFAIL();
    }
    res->grad_ns = (double)ns[0];
    res->opt_ns = (double)ns[1];
  }
  if (res->step_ns > 0) res->samples_per_s = N / (res->step_ns * 1e-9);
  else if (res->grad_ns + res->opt_ns > 0) res->samples_per_s = N / ((res->grad_ns + res->opt_ns) * 1e-9);
done:
  for (uint32_t k = 0; lp && k < KC; k++) spvgen_vk_pipeline_destroy(lp[k]);
  free(lp);
  free(ldisp);
  free(ldd);
  free(lbufs);
  free(loffs);
  free(lns);
  spvgen_vk_buffer_destroy(ws);
  if (big) {
    spvgen_vk_buffer_destroy(big);
  } else {
    for (int i = 0; i < SLICES; i++) spvgen_vk_buffer_destroy(sl[i].buf);
  }
  spvgen_vk_pipeline_destroy(gp);
  spvgen_vk_pipeline_destroy(op);
  mlp_train_free_data(&data);
  free(slots);
  free(state);
  free(state2);
  free(lossv);
  free(wcur);
  free(grad);
  free(tol);
  free(sref);
  free(stol);
  free(tns);
  free(h16);
  return st;
}
