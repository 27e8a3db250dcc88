/* emitters/mlp/layers_train.c — training on the layers variant (spvgen/mlp.h, "Training on
 * the layers variant"): the gradient step as GEMMs from the GEMM template plus three small
 * kernels of its own (the loss, the sum of the loss shares, the activation derivative) and,
 * for activations other than none and relu, an activation kernel.
 *
 * Why: the fused gradient kernels keep every layer's weights and a per-workgroup gradient
 * slot close to the points they process, which stops paying once a layer is wide (a
 * 256-wide layer's slot is re-read for every chunk of points). As GEMMs, the backward
 * pass is two products per layer over the whole batch, dW = delta^T a (a long-K GEMM,
 * split over K so that each slice's serial f32 sum stays short) and delta W, at the cost
 * of storing every layer's output (points x width f16) and one more trip through memory
 * per layer for the deltas.
 *
 * Deltas are stored f16 unscaled (O(1): 2 (y - t) for L2 at the output), as the mat
 * variant keeps them; the mean's 1 / (N output_width) is the GEMMs' alpha, applied to the
 * f32 sums. The bias gradient is the same split-K GEMM against a ones vector (delta^T 1),
 * which keeps it deterministic without a reduction kernel of its own; with no_bias the
 * forward GEMMs have no bias and the step no bias gradient (the optimizer's elements are
 * the weight layout's, which then holds no biases).
 *
 * Activations (mlp_layers_train_act_in_gemm): on hidden layers, every activation whose derivative comes
 * from the stored output a is the forward GEMM's epilogue (none, relu, sigmoid, tanh,
 * exp, leaky relu with a positive slope; act' from a: relu's a mask kernel, the others'
 * a small derivative kernel). Silu and leaky relu with a negative slope need z itself:
 * their GEMM writes z (f16) into a plane of its own per layer, kept until the backward
 * pass, and a small kernel writes a = act(z) in f32 from it. The output layer's
 * activation, whatever it is but none or relu, is applied by the loss kernel to the
 * stored z, as the fused mat kernel does (y and act'(z) in f32). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mlp_internal.h"
#include "spvgen/gemm.h"

/* The step's own kernels (the GEMMs' are the GEMM template's MAIN and REDUCE). */
enum { LT_GEMM_MAIN = 1, LT_GEMM_REDUCE = 2, LT_LOSS = 3, LT_LOSS_SUM = 4, LT_MASK = 5, LT_ACT = 6 };
/* LT_MASK (the derivative, dZ = dA act'(.)) and LT_ACT (a = act(z)) are one kernel per
 * activation: layers_kernel_gemm holds the activation. */

#define LT_LOCAL 256u            /* invocations of the loss and mask kernels */
#define LT_LOSS_MAX_GROUPS 1024u /* the loss kernel's workgroups at most (its shares) */
#define LT_MASK_MAX_GROUPS 65535u
#define LT_PLAN_POINTS (1u << 18) /* the point count the GEMMs are planned for */
#define LT_PLAN_SPLIT 64u         /* the weight-gradient GEMMs' planned K slices */
/* K per slice of the weight-gradient GEMMs: aimed at LT_SLICE_TARGET points (enough
 * workgroups for a device's SMs on narrow layers) and never above LT_SLICE_MAX (the
 * serial f32 sum's length the GEMM template allows). */
#define LT_SLICE_TARGET 4096u
#define LT_SLICE_MAX 16384u
#define LT_ALIGN 256u /* the workspace regions' byte alignment */

static uint64_t lt_up(uint64_t x) { return (x + LT_ALIGN - 1) / LT_ALIGN * LT_ALIGN; }

/* ------------------------------------------------------------------ plan ---- */

/* A GEMM class of the step: found among the plan's or planned and added. */
typedef struct lt_classes {
  spvgen_gemm_desc cls[SPVGEN_MLP_TRAIN_LAYERS_MAX_GEMMS];
  bool any_k; /* classes of any K (the plan's second try: classes of one K did not fit) */
  bool full;  /* a GEMM found no room among the plan's kernels */
} lt_classes;

/* whole_rows: the GEMM reads and writes the workspace only, with the points in M (its
 * class runs on the workspace's rounded rows, mlp_layers_gemm_class). */
static spvgen_status lt_gemm(const spvgen_device_caps *caps, spvgen_mlp_train_config *t, lt_classes *cs,
                             spvgen_gemm_desc *g, const uint32_t ld[3], bool whole_rows, const char *what, uint32_t l,
                             uint8_t *out, char *msg, size_t size) {
  g->pack = SPVGEN_GEMM_PACK_NONE;
  g->acc_type = SPVGEN_COMPONENT_F32;
  spvgen_status cst = mlp_layers_gemm_class(g, ld, g->k == LT_PLAN_POINTS, whole_rows);
  if (cs->any_k) g->k_fixed = 0;
  if (cst != SPVGEN_OK)
    return mlp_train_fail(msg, size, cst, "variant layers: layer %u's %s GEMM (%ux%ux%u): no GEMM class of its shape",
                          l, what, g->m, g->n, g->k);
  uint32_t i = 0;
  while (i < t->layers_gemm_count && !mlp_layers_same_class(&cs->cls[i], g)) i++;
  if (i == t->layers_gemm_count && whole_rows) {
    /* a class of any rows (the first layer's forward) serves it too: a compile less, at
     * the same speed (whole tiles: its edge path never runs) */
    spvgen_gemm_desc any = *g;
    any.m_multiple = 1;
    for (i = 0; i < t->layers_gemm_count && !mlp_layers_same_class(&cs->cls[i], &any); i++) {}
  }
  if (i == t->layers_gemm_count) {
    if (i == SPVGEN_MLP_TRAIN_LAYERS_MAX_GEMMS) {
      cs->full = true;
      return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                            "variant layers: layer %u's %s GEMM needs a kernel of its own beyond the %u a training "
                            "plan holds (SPVGEN_MLP_TRAIN_LAYERS_MAX_GEMMS)",
                            l, what, SPVGEN_MLP_TRAIN_LAYERS_MAX_GEMMS);
    }
    char why[384];
    spvgen_status st = mlp_layers_plan_gemm(caps, g, ld, &t->layers_gemms[i], why, sizeof why);
    if (st != SPVGEN_OK)
      return mlp_train_fail(msg, size, st, "variant layers: layer %u's %s GEMM (%u x %u x %u) has no plan: %s", l,
                            what, g->m, g->n, g->k, why);
    if (g->split_k > 1 && t->layers_gemms[i].desc.split_k < 2)
      return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                            "variant layers: layer %u's %s GEMM was planned without split-K (%s)", l, what,
                            t->layers_gemms[i].name);
    cs->cls[i] = *g;
    t->layers_gemm_count++;
  }
  *out = (uint8_t)i;
  return SPVGEN_OK;
}

static void lt_add_kernel(spvgen_mlp_train_config *t, uint8_t kind, uint8_t gemm) {
  t->layers_kernel_kind[t->layers_kernel_count] = kind;
  t->layers_kernel_gemm[t->layers_kernel_count] = gemm;
  t->layers_kernel_count++;
}

/* Whether act' needs z, not only a = act(z) (mat's z blocks are for the same ones). */
static bool lt_keeps_z(const spvgen_mlp_desc *d, spvgen_activation a) {
  return a == SPVGEN_ACTIVATION_SILU || (a == SPVGEN_ACTIVATION_LEAKY_RELU && d->leaky_slope < 0);
}

/* Whether layer l's forward GEMM applies its activation in the epilogue: on a hidden
 * layer wherever the backward pass needs only a (none, relu, leaky relu with a positive
 * slope, sigmoid, tanh, exp: no z kept, no activation kernel); silu and a negative leaky
 * slope need z, so their GEMM writes z and a kernel writes a. The output layer's GEMM
 * applies none and relu only: the loss kernel computes any other activation and its
 * act' from z in f32 (no pass of its own). (lib/ref/ref_mlp_train.c mirrors this rule
 * for the f16 store of z.) */
bool mlp_layers_train_act_in_gemm(const spvgen_mlp_config *p, uint32_t l) {
  const spvgen_activation a = p->layers[l].activation;
  if (a == SPVGEN_ACTIVATION_NONE || a == SPVGEN_ACTIVATION_RELU) return true;
  return l + 1 < p->layer_count && !lt_keeps_z(&p->desc, a);
}

/* Adds the kernel of `kind` for activation a unless the plan has it. */
static void lt_add_act_kernel(spvgen_mlp_train_config *t, uint8_t kind, spvgen_activation a) {
  for (uint32_t k = 0; k < t->layers_kernel_count; k++)
    if (t->layers_kernel_kind[k] == kind && t->layers_kernel_gemm[k] == (uint8_t)a) return;
  lt_add_kernel(t, kind, (uint8_t)a);
}

/* Every GEMM of the step into the plan's classes (cs->any_k: classes of any K). */
static spvgen_status lt_plan_gemms(const spvgen_device_caps *caps, spvgen_mlp_train_config *t, lt_classes *cs,
                                   char *msg, size_t size) {
  const spvgen_mlp_config *p = &t->net;
  const spvgen_mlp_desc *d = &p->desc;
  const uint32_t L = p->layer_count;
  t->layers_gemm_count = 0;
  spvgen_status st = SPVGEN_OK;
  for (uint32_t l = 0; l < L && st == SPVGEN_OK; l++) {
    const spvgen_mlp_layer *Ly = &p->layers[l];
    const uint32_t I = Ly->inputs, O = Ly->outputs, ldw = Ly->row_stride / 2;
    const uint32_t ldx = l ? t->layers_ld[l - 1] : d->input_width; /* the layer's input */
    spvgen_gemm_desc g;
    /* forward: act(X W^T + b), f16 into the workspace */
    memset(&g, 0, sizeof g);
    g.m = LT_PLAN_POINTS, g.n = O, g.k = I;
    g.out_type = SPVGEN_COMPONENT_F16;
    g.a_layout = SPVGEN_ROW_MAJOR, g.b_layout = SPVGEN_COL_MAJOR, g.d_layout = SPVGEN_ROW_MAJOR;
    g.bias = d->no_bias ? SPVGEN_GEMM_BIAS_NONE : SPVGEN_GEMM_BIAS_COLUMN;
    g.activation = mlp_layers_train_act_in_gemm(p, l) ? Ly->activation : SPVGEN_ACTIVATION_NONE;
    g.leaky_slope = g.activation == SPVGEN_ACTIVATION_LEAKY_RELU ? d->leaky_slope : 0.0f;
    g.split_k = 1;
    uint32_t ldf[3] = {ldx, ldw, t->layers_ld[l]};
    st = lt_gemm(caps, t, cs, &g, ldf, l > 0, "forward", l, &t->layers_fwd[l], msg, size);
    /* weight gradient: delta^T X (delta points x O read as a column-major O x points) */
    memset(&g, 0, sizeof g);
    g.m = O, g.n = I, g.k = LT_PLAN_POINTS;
    g.out_type = SPVGEN_COMPONENT_F32;
    g.a_layout = SPVGEN_COL_MAJOR, g.b_layout = SPVGEN_ROW_MAJOR, g.d_layout = SPVGEN_ROW_MAJOR;
    g.alpha = 0.5f; /* a run-time alpha: the mean's scale per point count */
    g.split_k = LT_PLAN_SPLIT;
    uint32_t ldd[3] = {t->layers_ld[l], ldx, ldw};
    bool hinted = false;
    if (st == SPVGEN_OK && O >= 128 && I >= 128 && spvgen_caps_has(caps, SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE)) {
      /* wide layers: the tile measured for this long-K shape (docs/design-notes.md),
       * where the device plans it; else the GEMM planner's own choice */
      spvgen_gemm_desc h = g;
      h.variant = SPVGEN_GEMM_COOPMAT2;
      h.tile_m = h.tile_n = 128;
      h.tile_k = 32;
      hinted = lt_gemm(caps, t, cs, &h, ldd, false, "weight-gradient", l, &t->layers_dw[l], NULL, 0) == SPVGEN_OK;
    }
    if (st == SPVGEN_OK && !hinted)
      st = lt_gemm(caps, t, cs, &g, ldd, false, "weight-gradient", l, &t->layers_dw[l], msg, size);
    /* bias gradient: delta^T ones (no_bias: none) */
    g.n = 1;
    uint32_t ldb[3] = {t->layers_ld[l], 1, 1};
    if (st == SPVGEN_OK && !d->no_bias)
      st = lt_gemm(caps, t, cs, &g, ldb, false, "bias-gradient", l, &t->layers_db[l], msg, size);
    if (l == 0) continue;
    /* the layer before's deltas: delta W (W row-major O x I is B row-major K x N) */
    memset(&g, 0, sizeof g);
    g.m = LT_PLAN_POINTS, g.n = I, g.k = O;
    g.out_type = SPVGEN_COMPONENT_F16;
    g.a_layout = SPVGEN_ROW_MAJOR, g.b_layout = SPVGEN_ROW_MAJOR, g.d_layout = SPVGEN_ROW_MAJOR;
    g.split_k = 1;
    uint32_t lda[3] = {t->layers_ld[l], ldw, t->layers_ld[l - 1]};
    if (st == SPVGEN_OK) st = lt_gemm(caps, t, cs, &g, lda, true, "delta", l, &t->layers_da[l], msg, size);
  }
  return st;
}

spvgen_status mlp_layers_train_plan(const spvgen_device_caps *caps, spvgen_mlp_train_config *t, char *msg,
                                    size_t size) {
  const spvgen_mlp_config *p = &t->net;
  const spvgen_mlp_desc *d = &p->desc;
  const uint32_t L = p->layer_count;
  const uint64_t align = caps->min_storage_buffer_offset_alignment ? caps->min_storage_buffer_offset_alignment : 1;
  for (uint32_t l = 0; l < L; l++) {
    const spvgen_mlp_layer *Ly = &p->layers[l];
    if ((2 * Ly->matrix_offset) % align || (!d->no_bias && (2 * Ly->bias_offset) % align))
      return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                            "layers training: layer %u's gradient at byte %llu or %llu of the gradient buffer is not "
                            "a multiple of the device's minStorageBufferOffsetAlignment %llu (%s)",
                            l, (unsigned long long)(2 * Ly->matrix_offset), (unsigned long long)(2 * Ly->bias_offset),
                            (unsigned long long)align, caps->name);
    t->layers_ld[l] = mlp_round_up(Ly->outputs, 8);
  }
  if (LT_ALIGN % align)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "layers training: the device's minStorageBufferOffsetAlignment %llu (%s) does not divide "
                          "the workspace regions' alignment %u",
                          (unsigned long long)align, caps->name, LT_ALIGN);
  /* Classes of one K where they fit the plan's kernels, else classes of any K, which share
   * kernels across input widths (as layers.c plans inference) */
  lt_classes cs = {.any_k = false, .full = false};
  spvgen_status st = lt_plan_gemms(caps, t, &cs, msg, size);
  if (st != SPVGEN_OK && cs.full) {
    cs.any_k = true;
    cs.full = false;
    st = lt_plan_gemms(caps, t, &cs, msg, size);
  }
  if (st != SPVGEN_OK) return st;
  t->layers_kernel_count = 0;
  for (uint32_t i = 0; i < t->layers_gemm_count; i++) {
    t->features |= t->layers_gemms[i].features;
    lt_add_kernel(t, LT_GEMM_MAIN, (uint8_t)i);
    if (t->layers_gemms[i].desc.split_k > 1) lt_add_kernel(t, LT_GEMM_REDUCE, (uint8_t)i);
  }
  lt_add_kernel(t, LT_LOSS, 0);
  lt_add_kernel(t, LT_LOSS_SUM, 0);
  /* the relu mask where it was the only one (the kernels of relu networks as before),
   * then the other hidden activations' derivative and activation kernels */
  for (uint32_t l = 0; l + 1 < L; l++)
    if (p->layers[l].activation == SPVGEN_ACTIVATION_RELU) lt_add_act_kernel(t, LT_MASK, SPVGEN_ACTIVATION_RELU);
  for (uint32_t l = 0; l + 1 < L; l++) {
    const spvgen_activation a = p->layers[l].activation;
    if (a == SPVGEN_ACTIVATION_NONE || a == SPVGEN_ACTIVATION_RELU) continue;
    if (!mlp_layers_train_act_in_gemm(p, l)) lt_add_act_kernel(t, LT_ACT, a);
    lt_add_act_kernel(t, LT_MASK, a);
  }
  return SPVGEN_OK;
}

/* ------------------------------------------------------------- kernels ---- */

static void lt_info(spvgen_kernel_info *info, uint32_t local, const char *push_name, const char *const *names,
                    const uint32_t *access, uint32_t n) {
  if (!info) return;
  memset(info, 0, sizeof *info);
  info->entry_point = "main";
  info->local_size[0] = local;
  info->local_size[1] = info->local_size[2] = 1;
  info->push_constant_size = 4;
  info->push_field_count = 1;
  info->push_fields[0].name = push_name;
  info->push_fields[0].size = 4;
  ek_info_storage_buffers(info, n, names, access);
}

static spvgen_push_constant_block lt_push(spvgen_module *m, const char *name) {
  uint32_t u32 = ek_u32_type(m);
  spvgen_push_constant_block pc = spvgen_push_constants(m, &u32, 1);
  spvgen_member_name(m, pc.struct_type, 0, name);
  return pc;
}

/* The loss kernel: per point (a grid-stride loop over the points), per output: the loss
 * term, delta = dLoss/dy * act'(y) unscaled into the output layer's deltas (f16), and the
 * ones vector's element; the workgroup's loss share (its terms' sum times 1 / (N
 * output_width)) into shares[workgroup]. */
static void emit_loss(spvgen_module *m, const spvgen_mlp_train_config *t) {
  const spvgen_mlp_config *p = &t->net;
  const uint32_t L = p->layer_count, ow = p->desc.output_width, ld = t->layers_ld[L - 1];
  const spvgen_activation oa = p->layers[L - 1].activation;
  const bool relu = oa == SPVGEN_ACTIVATION_RELU;
  const uint32_t f32 = ek_f32_type(m), f16 = spvgen_type_float(m, 16), bt = ek_bool_type(m);
  ek_buffer y = ek_buffer_decl(m, f16, 0, true, "outputs");
  ek_buffer tg = ek_buffer_decl(m, f32, 1, true, "targets");
  ek_buffer dz = ek_buffer_decl(m, f16, 2, false, "deltas");
  ek_buffer ones = ek_buffer_decl(m, f16, 3, false, "ones");
  ek_buffer shares = ek_buffer_decl(m, f32, 4, false, "loss_shares");
  spvgen_push_constant_block pc = lt_push(m, "points");
  const uint32_t gid_var = ek_builtin_v3(m, SpvBuiltInGlobalInvocationId);
  const uint32_t lid_var = ek_builtin_v3(m, SpvBuiltInLocalInvocationId);
  const uint32_t wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
  const uint32_t nwg_var = ek_builtin_v3(m, SpvBuiltInNumWorkgroups);
  ek_shared part = ek_shared_array(m, f32, LT_LOCAL, "loss_part");
  spvgen_compute_main(m, "main", LT_LOCAL, 1, 1);
  const uint32_t v_acc = ek_local(m, f32, 0), v_sum = ek_local(m, f32, 0);
  const uint32_t zero = spvgen_const_f32(m, 0.0f);
  const uint32_t n = spvgen_push_constant_load(m, &pc, 0);
  const uint32_t gid = ek_load_v3_component(m, gid_var, 0), lid = ek_load_v3_component(m, lid_var, 0);
  const uint32_t grp = ek_load_v3_component(m, wg_var, 0), ngrp = ek_load_v3_component(m, nwg_var, 0);
  spvgen_store(m, v_acc, zero);
  ek_for fp;
  uint32_t pt = ek_for_begin(m, &fp, gid, n, ek_mul_imm(m, ngrp, LT_LOCAL), SpvLoopControlDontUnrollMask);
  ek_store_elem(m, &ones, pt, spvgen_op_f_convert(m, f16, spvgen_const_f32(m, 1.0f)));
  const uint32_t row = ek_mul_imm(m, pt, ld), trow = ek_mul_imm(m, pt, ow);
  ek_for fc;
  uint32_t c = ek_for_begin(m, &fc, ek_u32(m, 0), ek_u32(m, ow), ek_u32(m, 1), SpvLoopControlDontUnrollMask);
  uint32_t yv = spvgen_op_f_convert(m, f32, ek_load_elem(m, &y, ek_iadd(m, row, c)));
  uint32_t tv = ek_load_elem(m, &tg, ek_iadd(m, trow, c));
  uint32_t lv, g;
  if (mlp_layers_train_act_in_gemm(p, L - 1)) {
    mlp_loss_terms(m, t->desc.loss, yv, tv, &lv, &g);
    if (relu) g = ek_select(m, spvgen_op_f_ord_greater_than(m, bt, yv, zero), g, zero);
  } else { /* the stored value is z: y and act'(z) here, in f32 */
    const uint32_t z = yv, yy = mlp_activation_f32(m, p, z, oa);
    mlp_loss_terms(m, t->desc.loss, yy, tv, &lv, &g);
    g = spvgen_op_f_mul(m, f32, g, mlp_act_deriv_f32(m, p, z, yy, oa));
  }
  ek_store_elem(m, &dz, ek_iadd(m, row, c), spvgen_op_f_convert(m, f16, g));
  spvgen_store(m, v_acc, spvgen_op_f_add(m, f32, spvgen_load(m, f32, v_acc), lv));
  ek_for_end(m, &fc);
  ek_for_end(m, &fp);
  /* the workgroup's share: its invocations' sums in order, by invocation 0 */
  ek_shared_store(m, &part, lid, spvgen_load(m, f32, v_acc));
  spvgen_workgroup_barrier(m);
  ek_guard g0 = ek_guard_begin(m, spvgen_op_i_equal(m, bt, lid, ek_u32(m, 0)));
  spvgen_store(m, v_sum, zero);
  ek_for fs;
  uint32_t k = ek_for_begin(m, &fs, ek_u32(m, 0), ek_u32(m, LT_LOCAL), ek_u32(m, 1), SpvLoopControlDontUnrollMask);
  spvgen_store(m, v_sum, spvgen_op_f_add(m, f32, spvgen_load(m, f32, v_sum), ek_shared_load(m, &part, k)));
  ek_for_end(m, &fs);
  uint32_t nf = spvgen_op_convert_u_to_f(m, f32, n);
  uint32_t inv = spvgen_op_f_div(m, f32, spvgen_const_f32(m, 1.0f),
                                 spvgen_op_f_mul(m, f32, nf, spvgen_const_f32(m, (float)ow)));
  ek_store_elem(m, &shares, grp, spvgen_op_f_mul(m, f32, spvgen_load(m, f32, v_sum), inv));
  ek_guard_end(m, g0);
  spvgen_function_end(m);
}

/* The loss shares summed into loss[0] by one workgroup, in a fixed order (deterministic):
 * invocation i sums shares i, i + LT_LOCAL, ..., then invocation 0 the invocations' sums
 * from shared memory (a single invocation's chain of dependent global loads would wait a
 * memory round trip per share). */
static void emit_loss_sum(spvgen_module *m) {
  const uint32_t f32 = ek_f32_type(m), bt = ek_bool_type(m);
  ek_buffer shares = ek_buffer_decl(m, f32, 0, true, "loss_shares");
  ek_buffer loss = ek_buffer_decl(m, f32, 1, false, "loss");
  spvgen_push_constant_block pc = lt_push(m, "shares");
  const uint32_t lid_var = ek_builtin_v3(m, SpvBuiltInLocalInvocationId);
  ek_shared part = ek_shared_array(m, f32, LT_LOCAL, "share_sums");
  spvgen_compute_main(m, "main", LT_LOCAL, 1, 1);
  const uint32_t v_sum = ek_local(m, f32, 0);
  const uint32_t n = spvgen_push_constant_load(m, &pc, 0), lid = ek_load_v3_component(m, lid_var, 0);
  spvgen_store(m, v_sum, spvgen_const_f32(m, 0.0f));
  ek_for f;
  uint32_t k = ek_for_begin(m, &f, lid, n, ek_u32(m, LT_LOCAL), SpvLoopControlDontUnrollMask);
  spvgen_store(m, v_sum, spvgen_op_f_add(m, f32, spvgen_load(m, f32, v_sum), ek_load_elem(m, &shares, k)));
  ek_for_end(m, &f);
  ek_shared_store(m, &part, lid, spvgen_load(m, f32, v_sum));
  spvgen_workgroup_barrier(m);
  ek_guard g0 = ek_guard_begin(m, spvgen_op_i_equal(m, bt, lid, ek_u32(m, 0)));
  spvgen_store(m, v_sum, spvgen_const_f32(m, 0.0f));
  ek_for fs;
  uint32_t i = ek_for_begin(m, &fs, ek_u32(m, 0), ek_u32(m, LT_LOCAL), ek_u32(m, 1), SpvLoopControlDontUnrollMask);
  spvgen_store(m, v_sum, spvgen_op_f_add(m, f32, spvgen_load(m, f32, v_sum), ek_shared_load(m, &part, i)));
  ek_for_end(m, &fs);
  ek_store_elem(m, &loss, ek_u32(m, 0), spvgen_load(m, f32, v_sum));
  ek_guard_end(m, g0);
  spvgen_function_end(m);
}

/* The three element-wise kernels' frame: binding 0 (src_name, read) and binding 1
 * (dst_name, written) of f16, the push constant `count` (points x the layer's ld), then
 * main and a grid-stride loop begun over the elements; returns the element index (the
 * caller ends the loop and the function). Types the caller needs go before it, so that
 * the kernels' words keep their order. */
static uint32_t lt_elementwise_begin(spvgen_module *m, uint32_t f16, const char *src_name, const char *dst_name,
                                     ek_buffer *src, ek_buffer *dst, ek_for *f) {
  *src = ek_buffer_decl(m, f16, 0, true, src_name);
  *dst = ek_buffer_decl(m, f16, 1, false, dst_name);
  spvgen_push_constant_block pc = lt_push(m, "count");
  const uint32_t gid_var = ek_builtin_v3(m, SpvBuiltInGlobalInvocationId);
  const uint32_t nwg_var = ek_builtin_v3(m, SpvBuiltInNumWorkgroups);
  spvgen_compute_main(m, "main", LT_LOCAL, 1, 1);
  const uint32_t n = spvgen_push_constant_load(m, &pc, 0);
  const uint32_t gid = ek_load_v3_component(m, gid_var, 0), ngrp = ek_load_v3_component(m, nwg_var, 0);
  return ek_for_begin(m, f, gid, n, ek_mul_imm(m, ngrp, LT_LOCAL), SpvLoopControlDontUnrollMask);
}

/* relu's derivative from the stored output: delta[e] = 0 where a[e] is not > 0, for the
 * `count` elements (points x the layer's ld) of a layer's deltas, in place. */
static void emit_relu_mask(spvgen_module *m) {
  const uint32_t f32 = ek_f32_type(m), f16 = spvgen_type_float(m, 16), bt = ek_bool_type(m);
  ek_buffer a, dz;
  ek_for f;
  uint32_t e = lt_elementwise_begin(m, f16, "activations", "deltas", &a, &dz, &f);
  uint32_t av = spvgen_op_f_convert(m, f32, ek_load_elem(m, &a, e));
  uint32_t dv = ek_load_elem(m, &dz, e);
  uint32_t z16 = spvgen_op_f_convert(m, f16, spvgen_const_f32(m, 0.0f));
  ek_store_elem(m, &dz, e, ek_select(m, spvgen_op_f_ord_greater_than(m, bt, av, spvgen_const_f32(m, 0.0f)), dv, z16));
  ek_for_end(m, &f);
  spvgen_function_end(m);
}

/* The other activations' derivative, in place on a layer's deltas: delta[e] = delta[e]
 * act'(v[e]) in f32, v the stored output a (act' a function of it: sigmoid a (1 - a),
 * tanh 1 - a^2, exp a, leaky relu with a positive slope by the sign of a) or the stored z
 * (lt_keeps_z). mlp_act_deriv_f32 reads y for the first kind and z for the second, so
 * the one value serves as both. */
static void emit_deriv(spvgen_module *m, const spvgen_mlp_train_config *t, spvgen_activation act) {
  const uint32_t f32 = ek_f32_type(m), f16 = spvgen_type_float(m, 16);
  const bool z = lt_keeps_z(&t->net.desc, act);
  ek_buffer src, dz;
  ek_for f;
  uint32_t e = lt_elementwise_begin(m, f16, z ? "pre_activations" : "activations", "deltas", &src, &dz, &f);
  uint32_t v = spvgen_op_f_convert(m, f32, ek_load_elem(m, &src, e));
  uint32_t dv = spvgen_op_f_convert(m, f32, ek_load_elem(m, &dz, e));
  uint32_t r = spvgen_op_f_mul(m, f32, dv, mlp_act_deriv_f32(m, &t->net, v, v, act));
  ek_store_elem(m, &dz, e, spvgen_op_f_convert(m, f16, r));
  ek_for_end(m, &f);
  spvgen_function_end(m);
}

/* The activation after a forward GEMM without one: a[e] = act(z[e]), f32 arithmetic on
 * the f16 z, stored f16, for `count` elements (points x the layer's ld). */
static void emit_act(spvgen_module *m, const spvgen_mlp_train_config *t, spvgen_activation act) {
  const uint32_t f32 = ek_f32_type(m), f16 = spvgen_type_float(m, 16);
  ek_buffer src, dst;
  ek_for f;
  uint32_t e = lt_elementwise_begin(m, f16, "pre_activations", "activations", &src, &dst, &f);
  uint32_t v = spvgen_op_f_convert(m, f32, ek_load_elem(m, &src, e));
  ek_store_elem(m, &dst, e, spvgen_op_f_convert(m, f16, mlp_activation_f32(m, &t->net, v, act)));
  ek_for_end(m, &f);
  spvgen_function_end(m);
}

spvgen_status mlp_layers_train_emit_kernel(spvgen_module *m, const spvgen_mlp_train_config *t, uint32_t index,
                                           spvgen_kernel_info *info) {
  const uint8_t kind = t->layers_kernel_kind[index];
  const spvgen_gemm_config *g = &t->layers_gemms[t->layers_kernel_gemm[index]];
  static const uint32_t R = SPVGEN_ACCESS_READ, W = SPVGEN_ACCESS_WRITE;
  switch (kind) {
  case LT_GEMM_MAIN: return spvgen_gemm_emit_kernel(m, g, SPVGEN_GEMM_KERNEL_MAIN, info);
  case LT_GEMM_REDUCE: return spvgen_gemm_emit_kernel(m, g, SPVGEN_GEMM_KERNEL_REDUCE, info);
  case LT_LOSS: {
    static const char *const names[5] = {"outputs", "targets", "deltas", "ones", "loss_shares"};
    static const uint32_t acc[5] = {R, R, W, W, W};
    emit_loss(m, t);
    lt_info(info, LT_LOCAL, "points", names, acc, 5);
    break;
  }
  case LT_LOSS_SUM: {
    static const char *const names[2] = {"loss_shares", "loss"};
    static const uint32_t acc[2] = {R, W};
    emit_loss_sum(m);
    lt_info(info, LT_LOCAL, "shares", names, acc, 2);
    break;
  }
  case LT_MASK: {
    const spvgen_activation a = (spvgen_activation)t->layers_kernel_gemm[index];
    static const char *const names[2] = {"activations", "deltas"}, *const znames[2] = {"pre_activations", "deltas"};
    static const uint32_t acc[2] = {R, R | W};
    if (a == SPVGEN_ACTIVATION_RELU) emit_relu_mask(m);
    else emit_deriv(m, t, a);
    lt_info(info, LT_LOCAL, "count", lt_keeps_z(&t->net.desc, a) ? znames : names, acc, 2);
    break;
  }
  case LT_ACT: {
    static const char *const names[2] = {"pre_activations", "activations"};
    static const uint32_t acc[2] = {R, W};
    emit_act(m, t, (spvgen_activation)t->layers_kernel_gemm[index]);
    lt_info(info, LT_LOCAL, "count", names, acc, 2);
    break;
  }
  default:
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_mlp_train_emit_kernel: kernel %u: no such "
                              "kernel in the plan", index),
           spvgen_module_status(m);
  }
  return spvgen_module_status(m);
}

/* ---------------------------------------------------------- dispatches ---- */

/* The workspace for N points (byte offsets, each a multiple of LT_ALIGN): every layer's
 * output, the z of the hidden layers that keep it (lt_keeps_z: the only hidden layers
 * whose activation is outside their GEMM), the two delta halves (the widest layer's ld
 * each), the ones vector, the split-K partial planes (the largest of the step's GEMMs;
 * one at a time), the loss shares. */
typedef struct lt_layout {
  uint64_t act[SPVGEN_MLP_MAX_LAYERS];
  uint64_t z[SPVGEN_MLP_MAX_LAYERS]; /* where a hidden layer's z goes (mlp_layers_train_act_in_gemm: unused) */
  uint64_t half[2], ones, partials, shares, total;
  uint32_t split;       /* K slices of the gradient GEMMs */
  uint32_t loss_groups; /* the loss kernel's workgroups (= shares) */
} lt_layout;

static uint32_t lt_split(uint64_t n) {
  uint64_t s = (n + LT_SLICE_TARGET - 1) / LT_SLICE_TARGET;
  if (s > LT_PLAN_SPLIT) s = LT_PLAN_SPLIT;
  uint64_t least = (n + LT_SLICE_MAX - 1) / LT_SLICE_MAX;
  if (s < least) s = least;
  return s < 2 ? 2u : (uint32_t)s;
}

/* The launch of gradient GEMM `gi` (weights or bias of layer l) for n points. */
static spvgen_status lt_grad_launch(const spvgen_mlp_train_config *t, uint32_t l, bool bias, uint64_t n,
                                    uint32_t split, spvgen_gemm_launch *launch, char *msg, size_t size) {
  const spvgen_mlp_config *p = &t->net;
  const spvgen_mlp_layer *Ly = &p->layers[l];
  spvgen_gemm_config g = t->layers_gemms[bias ? t->layers_db[l] : t->layers_dw[l]];
  g.desc.split_k = split; /* the same kernel: a RUNTIME kernel reads the count off the grid */
  spvgen_gemm_args a;
  memset(&a, 0, sizeof a);
  a.m = Ly->outputs;
  a.n = bias ? 1 : Ly->inputs;
  a.k = (uint32_t)n;
  a.lda = t->layers_ld[l];
  a.ldb = bias ? 1 : (l ? t->layers_ld[l - 1] : p->desc.input_width);
  a.ldd = bias ? 1 : Ly->row_stride / 2;
  a.alpha = (float)(1.0 / ((double)n * p->desc.output_width));
  char why[384];
  spvgen_status st = spvgen_gemm_launch_for(&g, &a, launch, why, sizeof why);
  if (st != SPVGEN_OK)
    return mlp_train_fail(msg, size, st, "variant layers: layer %u's %s gradient for %llu points: %s", l,
                          bias ? "bias" : "weight", (unsigned long long)n, why);
  return SPVGEN_OK;
}

static spvgen_status lt_layout_for(const spvgen_mlp_train_config *t, uint64_t n, lt_layout *lay, char *msg,
                                   size_t size) {
  const spvgen_mlp_config *p = &t->net;
  const uint32_t L = p->layer_count;
  memset(lay, 0, sizeof *lay);
  /* the planes of activations, z and deltas hold whole rows (the GEMMs between them run
   * on the rounded count); what sums over the points (ones, the gradients) stops at n */
  const uint64_t rows = mlp_layers_rows(n);
  uint64_t at = 0, widest = 0;
  for (uint32_t l = 0; l < L; l++) {
    lay->act[l] = at;
    at += lt_up(rows * t->layers_ld[l] * 2);
    if (t->layers_ld[l] > widest) widest = t->layers_ld[l];
  }
  for (uint32_t l = 0; l + 1 < L; l++)
    if (lt_keeps_z(&p->desc, p->layers[l].activation)) {
      lay->z[l] = at;
      at += lt_up(rows * t->layers_ld[l] * 2);
    }
  for (int h = 0; h < 2; h++) {
    lay->half[h] = at;
    at += lt_up(rows * widest * 2);
  }
  lay->ones = at;
  at += lt_up(n * 2);
  lay->split = lt_split(n);
  uint64_t part = 0;
  for (uint32_t l = 0; l < L; l++)
    for (int b = 0; b < 2 - p->desc.no_bias; b++) {
      spvgen_gemm_launch launch;
      spvgen_status st = lt_grad_launch(t, l, b, n, lay->split, &launch, msg, size);
      if (st != SPVGEN_OK) return st;
      if (launch.workspace_bytes > part) part = launch.workspace_bytes;
    }
  lay->partials = at;
  at += lt_up(part);
  uint64_t groups = (n + LT_LOCAL - 1) / LT_LOCAL;
  lay->loss_groups = groups > LT_LOSS_MAX_GROUPS ? LT_LOSS_MAX_GROUPS : (uint32_t)groups;
  lay->shares = at;
  at += lt_up(4ull * lay->loss_groups);
  lay->total = at;
  return SPVGEN_OK;
}

uint64_t mlp_layers_train_workspace_bytes(const spvgen_mlp_train_config *t, uint64_t points) {
  lt_layout lay;
  return lt_layout_for(t, points, &lay, NULL, 0) == SPVGEN_OK ? lay.total : 0;
}

uint32_t mlp_layers_train_dispatch_count(const spvgen_mlp_train_config *t) {
  const spvgen_mlp_config *p = &t->net;
  uint32_t n = p->layer_count + 2; /* forward, loss, loss sum */
  for (uint32_t l = 0; l < p->layer_count; l++) {
    n += p->desc.no_bias ? 2 : 4; /* the weight and bias gradients, two kernels each */
    if (l) n += 1 + (p->layers[l - 1].activation != SPVGEN_ACTIVATION_NONE); /* the deltas, act' */
    if (l + 1 < p->layer_count) n += !mlp_layers_train_act_in_gemm(p, l); /* a = act(z) */
  }
  return n;
}

static uint32_t lt_kernel(const spvgen_mlp_train_config *t, uint8_t kind, uint8_t gemm) {
  for (uint32_t k = 0; k < t->layers_kernel_count; k++)
    if (t->layers_kernel_kind[k] == kind && t->layers_kernel_gemm[k] == gemm) return k;
  return 0;
}

static void lt_bind(spvgen_mlp_train_dispatch *d, spvgen_mlp_train_buffer b, uint64_t offset) {
  d->bindings[d->binding_count].buffer = b;
  d->bindings[d->binding_count].offset = offset;
  d->binding_count++;
}

static void lt_small(spvgen_mlp_train_dispatch *d, uint32_t kernel, uint32_t groups, uint32_t push) {
  memset(d, 0, sizeof *d);
  d->kernel = kernel;
  d->groups[0] = groups;
  d->groups[1] = d->groups[2] = 1;
  memcpy(d->push, &push, 4);
  d->push_size = 4;
}

/* An elementwise kernel (LT_MASK, LT_ACT) of activation a over count elements. */
static void lt_elementwise(spvgen_mlp_train_dispatch *d, const spvgen_mlp_train_config *t, uint8_t kind,
                           spvgen_activation a, uint64_t count) {
  uint64_t groups = (count + LT_LOCAL - 1) / LT_LOCAL;
  lt_small(d, lt_kernel(t, kind, (uint8_t)a), groups > LT_MASK_MAX_GROUPS ? LT_MASK_MAX_GROUPS : (uint32_t)groups,
           (uint32_t)count);
}

/* Every dispatch of the step for n points into out (mlp_layers_train_dispatch_count). */
static spvgen_status lt_dispatches(const spvgen_mlp_train_config *t, uint64_t n, spvgen_mlp_train_dispatch *out,
                                   char *msg, size_t size) {
  const spvgen_mlp_config *p = &t->net;
  const uint32_t L = p->layer_count;
  if (n > SPVGEN_GEMM_MAX_DIM)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "variant layers: %llu points: the step's GEMMs take at most %u (SPVGEN_GEMM_MAX_DIM)",
                          (unsigned long long)n, SPVGEN_GEMM_MAX_DIM);
  uint64_t widest = 0;
  for (uint32_t l = 0; l < L; l++)
    if (t->layers_ld[l] > widest) widest = t->layers_ld[l];
  if (n * widest > 0xFFFFFFFFull)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "variant layers: %llu points x %llu values of the widest layer exceed 2^32 - 1 elements "
                          "(the loss and mask kernels' 32-bit indices; fewer points)",
                          (unsigned long long)n, (unsigned long long)widest);
  lt_layout lay;
  spvgen_status st = lt_layout_for(t, n, &lay, msg, size);
  if (st != SPVGEN_OK) return st;
  const spvgen_mlp_train_buffer WS = SPVGEN_MLP_TRAIN_BUFFER_WORKSPACE, WB = SPVGEN_MLP_TRAIN_BUFFER_WEIGHTS,
                                GB = SPVGEN_MLP_TRAIN_BUFFER_GRADIENTS;
  uint32_t k = 0;
  char why[384];
  /* 1. forward (the first layer reads the caller's n points; the others run on the
   * workspace's whole rows) */
  const uint32_t rows = (uint32_t)mlp_layers_rows(n);
  for (uint32_t l = 0; l < L; l++) {
    const spvgen_mlp_layer *Ly = &p->layers[l];
    spvgen_gemm_args a;
    memset(&a, 0, sizeof a);
    a.m = l ? rows : (uint32_t)n;
    a.n = Ly->outputs;
    a.k = Ly->inputs;
    a.lda = l ? t->layers_ld[l - 1] : p->desc.input_width;
    a.ldb = Ly->row_stride / 2;
    a.ldd = t->layers_ld[l];
    spvgen_gemm_launch launch;
    if ((st = spvgen_gemm_launch_for(&t->layers_gemms[t->layers_fwd[l]], &a, &launch, why, sizeof why)) != SPVGEN_OK)
      return mlp_train_fail(msg, size, st, "variant layers: layer %u's forward for %llu points: %s", l,
                            (unsigned long long)n, why);
    spvgen_mlp_train_dispatch *d = &out[k++];
    memset(d, 0, sizeof *d);
    d->kernel = lt_kernel(t, LT_GEMM_MAIN, t->layers_fwd[l]);
    memcpy(d->groups, launch.groups, sizeof d->groups);
    memcpy(d->push, &launch.push, sizeof launch.push);
    d->push_size = launch.push_size;
    if (l) lt_bind(d, WS, lay.act[l - 1]);
    else lt_bind(d, SPVGEN_MLP_TRAIN_BUFFER_INPUT, 0);
    lt_bind(d, WB, Ly->matrix_offset);
    const bool act = l + 1 < L && !mlp_layers_train_act_in_gemm(p, l); /* z, then a = act(z) */
    lt_bind(d, WS, act ? lay.z[l] : lay.act[l]);
    if (!p->desc.no_bias) lt_bind(d, WB, Ly->bias_offset);
    if (act) {
      d = &out[k++];
      lt_elementwise(d, t, LT_ACT, Ly->activation, n * t->layers_ld[l]);
      lt_bind(d, WS, lay.z[l]);
      lt_bind(d, WS, lay.act[l]);
    }
  }
  /* 2. the loss, the output layer's deltas (half (L - 1) % 2), the shares' sum */
  spvgen_mlp_train_dispatch *d = &out[k++];
  lt_small(d, lt_kernel(t, LT_LOSS, 0), lay.loss_groups, (uint32_t)n);
  lt_bind(d, WS, lay.act[L - 1]);
  lt_bind(d, SPVGEN_MLP_TRAIN_BUFFER_TARGETS, 0);
  lt_bind(d, WS, lay.half[(L - 1) % 2]);
  lt_bind(d, WS, lay.ones);
  lt_bind(d, WS, lay.shares);
  d = &out[k++];
  lt_small(d, lt_kernel(t, LT_LOSS_SUM, 0), 1, lay.loss_groups);
  lt_bind(d, WS, lay.shares);
  lt_bind(d, SPVGEN_MLP_TRAIN_BUFFER_LOSS, 0);
  /* 3. backward, from the last layer */
  for (uint32_t l = L; l-- > 0;) {
    const spvgen_mlp_layer *Ly = &p->layers[l];
    for (int b = 0; b < 2 - p->desc.no_bias; b++) { /* the weight gradient, then the bias's: partials, reduction */
      spvgen_gemm_launch launch;
      if ((st = lt_grad_launch(t, l, b, n, lay.split, &launch, msg, size)) != SPVGEN_OK) return st;
      const uint8_t gi = b ? t->layers_db[l] : t->layers_dw[l];
      d = &out[k++];
      memset(d, 0, sizeof *d);
      d->kernel = lt_kernel(t, LT_GEMM_MAIN, gi);
      memcpy(d->groups, launch.groups, sizeof d->groups);
      memcpy(d->push, &launch.push, sizeof launch.push);
      d->push_size = launch.push_size;
      lt_bind(d, WS, lay.half[l % 2]);                                /* A: the deltas */
      if (b) lt_bind(d, WS, lay.ones); /* B: the ones, or the layer's input */
      else if (l) lt_bind(d, WS, lay.act[l - 1]);
      else lt_bind(d, SPVGEN_MLP_TRAIN_BUFFER_INPUT, 0);
      lt_bind(d, WS, lay.partials);
      d = &out[k++];
      memset(d, 0, sizeof *d);
      d->kernel = lt_kernel(t, LT_GEMM_REDUCE, gi);
      memcpy(d->groups, launch.reduce_groups, sizeof d->groups);
      memcpy(d->push, &launch.push, sizeof launch.push);
      d->push_size = launch.reduce_push_size;
      lt_bind(d, GB, 2 * (b ? Ly->bias_offset : Ly->matrix_offset)); /* D: f32 at the layer's place */
      lt_bind(d, WS, lay.partials);
    }
    if (!l) break;
    /* the layer before's deltas (whole rows: workspace to workspace), then its act' over
     * the n real ones */
    spvgen_gemm_args a;
    memset(&a, 0, sizeof a);
    a.m = rows;
    a.n = Ly->inputs;
    a.k = Ly->outputs;
    a.lda = t->layers_ld[l];
    a.ldb = Ly->row_stride / 2;
    a.ldd = t->layers_ld[l - 1];
    spvgen_gemm_launch launch;
    if ((st = spvgen_gemm_launch_for(&t->layers_gemms[t->layers_da[l]], &a, &launch, why, sizeof why)) != SPVGEN_OK)
      return mlp_train_fail(msg, size, st, "variant layers: layer %u's deltas for %llu points: %s", l,
                            (unsigned long long)n, why);
    d = &out[k++];
    memset(d, 0, sizeof *d);
    d->kernel = lt_kernel(t, LT_GEMM_MAIN, t->layers_da[l]);
    memcpy(d->groups, launch.groups, sizeof d->groups);
    memcpy(d->push, &launch.push, sizeof launch.push);
    d->push_size = launch.push_size;
    lt_bind(d, WS, lay.half[l % 2]);
    lt_bind(d, WB, Ly->matrix_offset);
    lt_bind(d, WS, lay.half[(l - 1) % 2]);
    const spvgen_activation pa = p->layers[l - 1].activation;
    if (pa != SPVGEN_ACTIVATION_NONE) {
      d = &out[k++];
      lt_elementwise(d, t, LT_MASK, pa, n * t->layers_ld[l - 1]);
      lt_bind(d, WS, lt_keeps_z(&p->desc, pa) ? lay.z[l - 1] : lay.act[l - 1]);
      lt_bind(d, WS, lay.half[(l - 1) % 2]);
    }
  }
  return SPVGEN_OK;
}

spvgen_status mlp_layers_train_dispatch(const spvgen_mlp_train_config *t, uint32_t index, uint64_t points,
                                        spvgen_mlp_train_dispatch *out, char *msg, size_t size) {
  spvgen_mlp_train_dispatch all[SPVGEN_MLP_MAX_LAYERS * 8 + 4];
  spvgen_status st = lt_dispatches(t, points, all, msg, size);
  if (st == SPVGEN_OK) *out = all[index];
  return st;
}
