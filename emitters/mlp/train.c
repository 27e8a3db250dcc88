/* emitters/mlp/train.c — training of the fused MLP (spvgen/mlp.h, "training"): the
 * gradient kernel (forward + backward per point, per-workgroup reduction of the weight
 * and bias gradients) and the optimizer kernel (Adam / SGD on f32 master weights), on
 * the loop variant.
 *
 * Gradient kernel, one point per invocation, W invocations per workgroup:
 *   1. each invocation zeroes the gradient elements it will own (below), in its
 *      workgroup's slot; ownership never changes, so no storage barrier is needed;
 *   2. for each chunk of W points of the workgroup (a uniform loop: barriers inside):
 *      forward, keeping every layer's input a_l and pre-activation z_l in Function
 *      arrays; the loss and its derivative at the output; backward, the deltas
 *        d_L = dLoss/dy * act'(z_L),  d_(l-1)[j] = act'(z_(l-1)[j]) * sum_i W_l[i][j] d_l[i];
 *      then per layer: every invocation writes its a_l and d_l to shared memory, and the
 *      workgroup computes dW_l[i][j] = sum over the W points d_l[i] a_l[j] (and the bias
 *      gradient sum d_l[i]), element e = i * (inputs + bias) + j of the layer owned by
 *      invocation e % W, added to the slot;
 *   3. the loss shares of the W invocations summed through shared memory into loss[g].
 * Points past N (the last chunk) compute point N - 1 with a zero loss weight. With the
 * hash grid the encoding is looked up in the table (emitters/mlp/grid.c), and after the
 * deltas each valid point scatters W_0^T delta_0 into the table's gradient with atomic
 * adds, level by level; the slots then cover the network's part of the layout only.
 * Everything is f32; the f16 weights are converted as they are read.
 *
 * The vec variant's gradient kernel (emit_gradient_vec) keeps the chunk loop but holds
 * each layer's input and pre-activation as f16 cooperative vectors and accumulates with
 * the cooperative vector training instructions (spvgen/mlp.h says the layout). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h" /* lib/core: the one error formatter */
#include "names.h"         /* lib/core: one table of names per enum */
#include "mlp_internal.h"

static const char *const loss_names[SPVGEN_MLP_LOSS_COUNT] = {"l2", "rel-l2"};
static const char *const optimizer_names[SPVGEN_MLP_OPTIMIZER_COUNT] = {"adam", "sgd"};
static const char *const grid_gradient_names[SPVGEN_MLP_GRID_GRADIENT_COUNT] = {"auto", "f32", "f16"};

SG_NAMES(spvgen_mlp_loss, loss_names, NULL, spvgen_mlp_loss_name, spvgen_mlp_loss_parse)
SG_NAMES(spvgen_mlp_optimizer, optimizer_names, NULL, spvgen_mlp_optimizer_name, spvgen_mlp_optimizer_parse)
SG_NAMES(spvgen_mlp_grid_gradient, grid_gradient_names, NULL, spvgen_mlp_grid_gradient_name,
         spvgen_mlp_grid_gradient_parse)
static const char *const grid_spread_names[SPVGEN_MLP_GRID_SPREAD_COUNT] = {"auto", "level-loop", "flat",
                                                                            "flat-by-point"};
SG_NAMES(spvgen_mlp_grid_spread, grid_spread_names, NULL, spvgen_mlp_grid_spread_name, spvgen_mlp_grid_spread_parse)
static const char *const grad_bias_names[SPVGEN_MLP_GRAD_BIAS_COUNT] = {"auto", "rows", "row"};
SG_NAMES(spvgen_mlp_grad_bias, grad_bias_names, NULL, spvgen_mlp_grad_bias_name, spvgen_mlp_grad_bias_parse)
static const char *const grad_act_deriv_names[SPVGEN_MLP_GRAD_ACT_DERIV_COUNT] = {"auto", "shared", "registers"};
SG_NAMES(spvgen_mlp_grad_act_deriv, grad_act_deriv_names, NULL, spvgen_mlp_grad_act_deriv_name,
         spvgen_mlp_grad_act_deriv_parse)

spvgen_status mlp_train_fail(char *msg, size_t size, spvgen_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(msg, size, st, "spvgen_mlp_train_plan", fmt, ap);
  va_end(ap);
  return st;
}

/* The optimizer's workgroup size; with the hash grid (opt_groups says the form), its
 * workgroup size (128 where the device allows no more: Vulkan's least), the invocations
 * that sum one network element's slots, and the table elements an invocation updates. */
enum { OPT_LOCAL = 64, OPT_LOCAL_GRID = 256, OPT_LOCAL_GRID_LEAST = 128, OPT_WAYS = 8, OPT_QUAD = 4 };

static bool opt_grid(const spvgen_mlp_train_config *t) {
  return t->net.variant != SPVGEN_MLP_VEC && t->net.desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID;
}

/* The grid form: network elements per net group, the net groups, and the table groups
 * the plan takes (the quads need, up to what 65535 leaves; the loss group between). */
static uint32_t opt_per_group(const spvgen_mlp_train_config *t) { return t->opt_local_size[0] / OPT_WAYS; }
static uint32_t opt_net_groups(const spvgen_mlp_train_config *t) {
  return (uint32_t)((t->slot_elements + opt_per_group(t) - 1) / opt_per_group(t));
}
static uint32_t opt_table_groups_needed(const spvgen_mlp_train_config *t) {
  const uint64_t L = t->opt_local_size[0];
  uint64_t n = opt_net_groups(t), quads = (t->elements - t->slot_elements) / OPT_QUAD;
  uint64_t tg = (quads + L - 1) / L, room = n + 2 <= 65535 ? 65535 - n - 1 : 1;
  return (uint32_t)(tg < room ? tg : room);
}

/* Shared bytes of the gradient kernel for W points per workgroup. */
static uint64_t grad_shared(const spvgen_mlp_config *net, uint32_t w) {
  uint32_t maxi = 0, maxo = 0;
  for (uint32_t l = 0; l < net->layer_count; l++) {
    if (net->layers[l].inputs > maxi) maxi = net->layers[l].inputs;
    if (net->layers[l].outputs > maxo) maxo = net->layers[l].outputs;
  }
  return (uint64_t)w * (maxi + maxo + 1) * 4;
}

/* The hash grid table's gradient (spvgen_mlp_grid_gradient): AUTO resolved, F16 checked
 * against the grid and the device, the scale a power of two. */
static spvgen_status grid_gradient_plan(spvgen_mlp_train_desc *d, const spvgen_device_caps *caps,
                                        const spvgen_mlp_config *net, char *msg, size_t size) {
  const bool grid = net->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID;
  const uint32_t F = net->desc.grid.features;
  if (!grid && (d->grid_gradient != SPVGEN_MLP_GRID_GRADIENT_AUTO || d->grid_gradient_scale != 0.0f))
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "grid_gradient %s / grid_gradient_scale %g: the network has no hash grid (leave them 0)",
                          grid_gradient_names[d->grid_gradient], (double)d->grid_gradient_scale);
  if (!grid) return SPVGEN_OK;
  const bool has16 = spvgen_caps_has(caps, SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR);
  if (d->grid_gradient == SPVGEN_MLP_GRID_GRADIENT_AUTO)
    /* f16 pairs only (spvgen/mlp.h: measured faster for 2 features, slower for 8) */
    d->grid_gradient = has16 && F == 2 ? SPVGEN_MLP_GRID_GRADIENT_F16 : SPVGEN_MLP_GRID_GRADIENT_F32;
  if (d->grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F32) {
    if (d->grid_gradient_scale != 0.0f)
      return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                            "grid_gradient_scale %g: the scale of an f16 table gradient (grid_gradient f32 "
                            "takes 0)", (double)d->grid_gradient_scale);
    return SPVGEN_OK;
  }
  if (F < 2)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "grid_gradient f16: the f16 atomics add 2 or 4 features at once; grid.features is 1 "
                          "(grid_gradient f32)");
  if (!has16)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "grid_gradient f16 needs %s (%s), which %s lacks",
                          spvgen_feature_name(SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR),
                          spvgen_feature_source(SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR), caps->name);
  if (d->grid_gradient_scale == 0.0f) d->grid_gradient_scale = 1024.0f;
  int ex;
  if (!(d->grid_gradient_scale >= 0x1p-24f && d->grid_gradient_scale <= 0x1p24f) ||
      frexpf(d->grid_gradient_scale, &ex) != 0.5f)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "grid_gradient_scale %g: a power of two from 2^-24 to 2^24 (the optimizer divides "
                          "it out exactly)", (double)d->grid_gradient_scale);
  return SPVGEN_OK;
}

/* How the mat gradient kernel spreads the hash grid's (point, level) pairs
 * (spvgen_mlp_grid_spread): AUTO resolved to FLAT on mat, the others refused where there
 * is nothing to spread (no hash grid; the loop variant: a point per invocation). */
static spvgen_status grid_spread_plan(spvgen_mlp_train_desc *d, char *msg, size_t size) {
  const bool grid = d->net.encoding == SPVGEN_MLP_ENCODING_HASH_GRID;
  if ((unsigned)d->grid_spread >= SPVGEN_MLP_GRID_SPREAD_COUNT)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "grid_spread %d: not a spvgen_mlp_grid_spread",
                          (int)d->grid_spread);
  if (d->grid_spread == SPVGEN_MLP_GRID_SPREAD_AUTO) {
    if (grid && d->net.variant == SPVGEN_MLP_MAT) d->grid_spread = SPVGEN_MLP_GRID_SPREAD_FLAT;
    return SPVGEN_OK;
  }
  if (!grid)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "grid_spread %s: the network has no hash grid (leave it auto)",
                          grid_spread_names[d->grid_spread]);
  if (d->net.variant != SPVGEN_MLP_MAT)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "grid_spread %s: a form of the mat variant's gradient kernel; the %s variant runs the "
                          "hash grid one point per invocation (leave it auto)",
                          grid_spread_names[d->grid_spread], spvgen_mlp_variant_name(d->net.variant));
  return SPVGEN_OK;
}

/* The mat gradient kernel's shared-memory forms (spvgen_mlp_grad_bias,
 * spvgen_mlp_grad_act_deriv): checked here, resolved by the mat planner; the other
 * variants have neither (AUTO only). */
static spvgen_status grad_forms_check(const spvgen_mlp_train_desc *d, char *msg, size_t size) {
  if ((unsigned)d->grad_bias >= SPVGEN_MLP_GRAD_BIAS_COUNT)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "grad_bias %d: not a spvgen_mlp_grad_bias",
                          (int)d->grad_bias);
  if ((unsigned)d->grad_act_deriv >= SPVGEN_MLP_GRAD_ACT_DERIV_COUNT)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "grad_act_deriv %d: not a spvgen_mlp_grad_act_deriv", (int)d->grad_act_deriv);
  if (d->net.variant != SPVGEN_MLP_MAT && (d->grad_bias || d->grad_act_deriv))
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s %s: a form of the mat variant's gradient kernel; the %s variant has no such "
                          "choice (leave it auto)",
                          d->grad_bias ? "grad_bias" : "grad_act_deriv",
                          d->grad_bias ? grad_bias_names[d->grad_bias] : grad_act_deriv_names[d->grad_act_deriv],
                          d->net.variant == SPVGEN_MLP_AUTO ? "loop" /* AUTO's fallback from mat */
                                                            : spvgen_mlp_variant_name(d->net.variant));
  return SPVGEN_OK;
}

static spvgen_status train_plan_one(const spvgen_mlp_train_desc *in, const spvgen_device_caps *caps,
                                    uint32_t wg_size, spvgen_mlp_train_config *p, char *msg,
                                    size_t size) {
  memset(p, 0, sizeof *p);
  p->desc = *in;
  spvgen_mlp_train_desc *d = &p->desc;
  if ((unsigned)d->loss >= SPVGEN_MLP_LOSS_COUNT)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "loss %d: not a spvgen_mlp_loss",
                      (int)d->loss);
  if ((unsigned)d->optimizer >= SPVGEN_MLP_OPTIMIZER_COUNT)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "optimizer %d: not a spvgen_mlp_optimizer", (int)d->optimizer);
  if ((unsigned)d->grid_gradient >= SPVGEN_MLP_GRID_GRADIENT_COUNT)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "grid_gradient %d: not a spvgen_mlp_grid_gradient", (int)d->grid_gradient);
  bool vec = d->net.variant == SPVGEN_MLP_VEC, mat = d->net.variant == SPVGEN_MLP_MAT;
  if ((unsigned)d->net.variant >= SPVGEN_MLP_VARIANT_COUNT)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "net.variant %d: not a spvgen_mlp_variant",
                      (int)d->net.variant);
  const bool layers = d->net.variant == SPVGEN_MLP_LAYERS;
  if (layers && d->grad_workgroups > 1)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "grad_workgroups %u: the layers variant's step writes one gradient slot (0 or 1)",
                          d->grad_workgroups);
  if (layers && (d->grad_workgroup_size || d->grad_slot_adds))
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "%s: a knob of the fused gradient kernels, not of the layers variant (its GEMMs choose "
                          "their tiles)", d->grad_workgroup_size ? "grad_workgroup_size" : "grad_slot_adds");
  if (layers) d->grad_workgroups = 1;
  spvgen_status fst = grad_forms_check(d, msg, size);
  if (fst != SPVGEN_OK) return fst;
  if (vec && !spvgen_caps_has(caps, SPVGEN_FEATURE_COOPVEC_TRAINING))
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "variant vec: training needs %s, which %s lacks",
                      spvgen_feature_name(SPVGEN_FEATURE_COOPVEC_TRAINING), caps->name);
  if (vec && !caps->coopvec_training_float16_accumulation)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "variant vec: training accumulates f16 gradients "
                      "(cooperativeVectorTrainingFloat16Accumulation), which %s does not list",
                      caps->name);
  if (!(d->beta1 >= 0 && d->beta1 < 1) || !(d->beta2 >= 0 && d->beta2 < 1) ||
      !(d->epsilon >= 0) || !(d->weight_decay >= 0) || isinf(d->epsilon) || isinf(d->weight_decay))
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "beta1 %g / beta2 %g must be in [0, 1), epsilon %g and weight_decay %g "
                      "finite and >= 0",
                      (double)d->beta1, (double)d->beta2, (double)d->epsilon,
                      (double)d->weight_decay);
  if (!d->beta1) d->beta1 = 0.9f;
  if (!d->beta2) d->beta2 = 0.999f;
  if (!d->epsilon) d->epsilon = 1e-8f;
  if (!d->grad_workgroups) d->grad_workgroups = 64;
  if (d->grad_workgroups > 65535)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "grad_workgroups %u: at most 65535", d->grad_workgroups);
  if (d->net.weight_type != SPVGEN_COMPONENT_F16)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "net.weight_type %s: training keeps f16 weights (quantize the trained "
                      "weights for inference)", spvgen_component_type_name(d->net.weight_type));
  if (vec && d->net.encoding == SPVGEN_MLP_ENCODING_HASH_GRID)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "variant vec: the hash grid trains on the loop and mat variants (the "
                          "vec gradient kernel's f16 gradient buffer has no f32 table part)");
  if (d->net.weight_layout != SPVGEN_MLP_WEIGHTS_ROW_MAJOR)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "net.weight_layout %d: training keeps row-major weights (the gradient "
                      "kernel converts its TrainingOptimal gradients itself)",
                      (int)d->net.weight_layout);
  if (d->net.vec_rows || d->net.vec_stage || d->net.layer_loop || d->net.mat_slab)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "net.%s: an inference knob (the gradient kernels evaluate whole, unrolled layers)",
                          d->net.vec_rows     ? "vec_rows"
                          : d->net.vec_stage  ? "vec_stage"
                          : d->net.layer_loop ? "layer_loop"
                                              : "mat_slab");
  spvgen_mlp_desc nd = d->net;
  nd.variant = vec ? SPVGEN_MLP_VEC : mat ? SPVGEN_MLP_MAT : layers ? SPVGEN_MLP_LAYERS : SPVGEN_MLP_LOOP;
  if (layers) nd.output_type = SPVGEN_COMPONENT_F16; /* the outputs stay in the workspace, f16 */
  if (mat) nd.points_per_group = 0; /* the inference block; training chooses its chunk below */
  char sub[256];
  spvgen_status st = spvgen_mlp_plan(&nd, caps, &p->net, sub, sizeof sub);
  if (st == SPVGEN_OK && (p->net.desc.vec_rows || p->net.desc.vec_stage || p->net.desc.layer_loop ||
                          (p->net.desc.f16_accumulation && !d->net.f16_accumulation))) {
    /* The choice took inference knobs (f16 accumulation among them: training sums its
     * gradients in f32): the same plan without them (every knob now set). */
    nd = p->net.desc;
    nd.vec_rows = 0;
    nd.vec_stage = nd.layer_loop = false;
    nd.f16_accumulation = d->net.f16_accumulation;
    st = spvgen_mlp_plan(&nd, caps, &p->net, sub, sizeof sub);
  }
  if (st != SPVGEN_OK) {
    if (msg && size) snprintf(msg, size, "spvgen_mlp_train_plan: net: %s", sub);
    return st;
  }
  const spvgen_mlp_config *net = &p->net;
  uint32_t w = wg_size ? wg_size : d->grad_workgroup_size;
  uint32_t shared_max = caps->max_shared_memory ? caps->max_shared_memory : 16384;
  if (layers) {
    /* the step's GEMMs take the real widths: the net without the inference plan's padding */
    st = mlp_layers_unpad(caps, &p->net, sub, sizeof sub);
    if (st != SPVGEN_OK) {
      if (msg && size) snprintf(msg, size, "spvgen_mlp_train_plan: net: %s", sub);
      return st;
    }
    st = mlp_layers_train_plan(caps, p, msg, size);
    if (st != SPVGEN_OK) return st;
    w = 1; /* no gradient kernel of its own: the step's dispatches (spvgen_mlp_train_dispatch_for) */
  } else if (mat) {
    p->net.desc.points_per_group = d->net.points_per_group;
    st = mlp_mat_train_plan(caps, p, w, msg, size);
    if (st != SPVGEN_OK) return st;
    mlp_plan_name(&p->net);
    w = p->grad_local_size[0];
  } else if (!w) {
    for (w = 64; w > 1 && grad_shared(net, w) > shared_max; w /= 2) {}
  }
  d->net = p->net.desc;
  if (w > 1024 || w > caps->max_workgroup_invocations || w > caps->max_workgroup_size[0])
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "grad_workgroup_size %u exceeds %s's limit %u", w, caps->name,
                      caps->max_workgroup_invocations);
  if (!mat && !layers && grad_shared(net, w) > shared_max)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                      "grad_workgroup_size %u needs %llu bytes of shared memory; %s has %u", w,
                      (unsigned long long)grad_shared(net, w), caps->name, shared_max);
  /* The vec gradient kernel's push constants: the point count, the loss scale, and a
   * matrix and a bias offset per layer, one block member each. */
  if (vec && 2 + 2 * net->layer_count > SPVGEN_PUSH_CONSTANT_MAX_MEMBERS)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "%u layers: the vec variant's gradient kernel takes 2 + 2 per layer push constants "
                          "(%u), a push constant block at most %u members (at most %u layers)",
                          net->layer_count, 2 + 2 * net->layer_count, SPVGEN_PUSH_CONSTANT_MAX_MEMBERS,
                          (SPVGEN_PUSH_CONSTANT_MAX_MEMBERS - 2) / 2);
  /* Device addresses: the five (gradient) and four (optimizer) pointers follow the push
   * constants, 8-byte aligned, one block member each. */
  const bool bda = net->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (vec && bda && 2 + 2 * net->layer_count + MLP_TRAIN_GRAD_POINTERS > SPVGEN_PUSH_CONSTANT_MAX_MEMBERS)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "%u layers: the vec variant's gradient kernel with device addresses takes 2 + 2 per layer "
                          "push constants and %u pointers (%u), a push constant block at most %u members (at most "
                          "%u layers)",
                          net->layer_count, MLP_TRAIN_GRAD_POINTERS,
                          2 + 2 * net->layer_count + MLP_TRAIN_GRAD_POINTERS, SPVGEN_PUSH_CONSTANT_MAX_MEMBERS,
                          (SPVGEN_PUSH_CONSTANT_MAX_MEMBERS - 2 - MLP_TRAIN_GRAD_POINTERS) / 2);
  p->grad_push_constant_size = vec ? 8 + 8 * net->layer_count : 4;
  p->opt_push_constant_size = vec ? 12 : 8;
  if (bda) {
    p->grad_push_constant_size = mlp_round_up(p->grad_push_constant_size, 8) + 8 * MLP_TRAIN_GRAD_POINTERS;
    p->opt_push_constant_size = MLP_TRAIN_OPT_PUSH_SIZE;
  }
  uint32_t push = p->grad_push_constant_size > p->opt_push_constant_size ? p->grad_push_constant_size
                                                                         : p->opt_push_constant_size;
  if (caps->max_push_constants_size && caps->max_push_constants_size < push)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "%s has fewer than %u bytes of push constants",
                      caps->name, push);
  if (caps->max_workgroup_count[0] && d->grad_workgroups > caps->max_workgroup_count[0])
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "grad_workgroups %u exceeds %s's %u",
                      d->grad_workgroups, caps->name, caps->max_workgroup_count[0]);
  d->grad_workgroup_size = w;
  p->grad_workgroups = d->grad_workgroups;
  p->grad_local_size[0] = w;
  p->grad_local_size[1] = p->grad_local_size[2] = 1;
  if (!mat && !layers) p->grad_shared_bytes = (uint32_t)grad_shared(net, w);
  p->opt_local_size[0] = OPT_LOCAL;
  p->opt_local_size[1] = p->opt_local_size[2] = 1;
  p->elements = net->weight_bytes / 2;
  st = grid_gradient_plan(d, caps, net, msg, size);
  if (st != SPVGEN_OK) return st;
  st = grid_spread_plan(d, msg, size);
  if (st != SPVGEN_OK) return st;
  const bool grid16 = d->grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16;
  p->slot_elements = net->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID ? net->grid_offset / 2 : p->elements;
  p->grid_grad_offset = net->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID ? p->slot_elements * p->grad_workgroups : 0;
  if (mat && !p->grad_held) /* the slot-adds form: the whole slot read and written per chunk */
    p->grad_slot_bytes_per_point =
        (uint32_t)((8 * p->slot_elements + net->desc.points_per_group - 1) / net->desc.points_per_group);
  if (opt_grid(p)) {
    /* the optimizer's grid form: a group per opt_per_group network elements, the loss
     * group and at least one table group within 65535 */
    uint32_t lim = caps->max_workgroup_invocations < caps->max_workgroup_size[0] ? caps->max_workgroup_invocations
                                                                                 : caps->max_workgroup_size[0];
    p->opt_local_size[0] = lim && lim < OPT_LOCAL_GRID ? OPT_LOCAL_GRID_LEAST : OPT_LOCAL_GRID;
    p->opt_table_groups = opt_table_groups_needed(p);
    if (p->slot_elements / opt_per_group(p) + 2 > 65535)
      return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                            "%llu network weight elements before the hash grid's table: the optimizer takes "
                            "at most %u (a workgroup per %u)", (unsigned long long)(net->grid_offset / 2),
                            65533u * opt_per_group(p), opt_per_group(p));
  }
  if (p->slot_elements * p->grad_workgroups + (p->elements - p->slot_elements) > 0xFFFFFFFFull)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "grad_workgroups %u x %llu weight elements: the gradient buffer needs "
                          "more than 2^32 elements (fewer workgroups)",
                          p->grad_workgroups, (unsigned long long)p->slot_elements);
  /* Device addresses: each workgroup's slot and the table's gradient are pointers of their
   * own (moved in 64 bits), but the optimizer indexes every slot from the buffer's start,
   * and SPIR-V treats access-chain indices as signed. */
  const uint64_t grad_elements = p->slot_elements * p->grad_workgroups + p->elements - p->slot_elements;
  if (bda && !vec && grad_elements > 0x7FFFFFFFull)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED,
                          "net.addressing device-address: the gradient buffer's %llu elements (grad_workgroups %u x "
                          "%llu) exceed 2^31 - 1, the largest signed access-chain index (fewer grad_workgroups)",
                          (unsigned long long)grad_elements, p->grad_workgroups,
                          (unsigned long long)p->slot_elements);
  p->grad_bytes = vec ? 0 : grad_elements * 4 - (grid16 ? (p->elements - p->slot_elements) * 2 : 0);
  p->state_bytes = p->elements * 4 * (d->optimizer == SPVGEN_MLP_OPTIMIZER_ADAM ? 3 : 1);
  p->loss_bytes = (uint64_t)p->grad_workgroups * 4;
  for (uint32_t l = 0; l < net->layer_count; l++)
    p->params += (uint64_t)net->layers[l].outputs * (net->layers[l].inputs + (d->net.no_bias ? 0 : 1));
  p->params += (uint64_t)net->grid_entries * net->desc.grid.features; /* the hash grid's table */
  p->features |= net->features;
  if (vec) p->features |= SPVGEN_FEATURE_COOPVEC_TRAINING;
  /* the hash grid's gradient: f16 vector atomics, or f32 float atomics where the device
   * adds floats in buffers */
  if (grid16) p->features |= SPVGEN_FEATURE_ATOMIC_FLOAT16_VECTOR;
  else if (net->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID &&
           spvgen_caps_has(caps, SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD))
    p->features |= SPVGEN_FEATURE_ATOMIC_FLOAT32_ADD;
  /* ... and either way atomics at Device scope, which the Vulkan memory model declares
   * as VulkanMemoryModelDeviceScope */
  if (net->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID)
    p->features |= SPVGEN_FEATURE_VULKAN_MEMORY_MODEL_DEVICE_SCOPE;
  uint64_t missing = p->features & ~caps->features;
  if (missing)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_UNSUPPORTED, "the %s gradient kernel needs %s, which %s lacks",
                          spvgen_mlp_variant_name(net->variant), spvgen_feature_name(spvgen_feature_first(missing)),
                          caps->name);
  /* the grid's spread where it is not the default's */
  const bool spread =
      d->grid_spread == SPVGEN_MLP_GRID_SPREAD_LEVEL_LOOP || d->grid_spread == SPVGEN_MLP_GRID_SPREAD_FLAT_BY_POINT;
  /* mat's levers where taken: one bias row, act'(z) in registers (where there is any) */
  const bool row = mat && d->grad_bias == SPVGEN_MLP_GRAD_BIAS_ROW;
  const bool act_regs = mat && d->grad_act_deriv == SPVGEN_MLP_GRAD_ACT_DERIV_REGISTERS && p->grad_act_deriv_frags;
  snprintf(p->name, sizeof p->name, "train %.80s %s %s w%u g%u%s%s%s%s%s%s", net->name, loss_names[d->loss],
           optimizer_names[d->optimizer], w, p->grad_workgroups, p->grad_held ? " held" : "",
           row ? " bias-row" : "", act_regs ? " act-regs" : "", grid16 ? " table-grad-f16" : "",
           spread ? " grid-" : "", spread ? grid_spread_names[d->grid_spread] : "");
  return SPVGEN_OK;
}

/* AUTO's line between mat and layers: mat's slot-adds form reads and writes the whole f32
 * gradient slot once per chunk of points (grad_slot_bytes_per_point); past this many bytes
 * per point the layers variant's step (a GEMM per layer and product over the whole batch,
 * the gradient written once) was measured faster than the fused kernel, below it mat was.
 * It rests on two measured networks on each side, set at the geometric middle of the
 * nearest two (docs/design-notes.md, "Training AUTO: layers where mat's gradient traffic
 * is large"); networks measured in between place it. */
#define MLP_TRAIN_AUTO_LAYERS_SLOT_BYTES 16384u

/* The held form against layers: an estimate of each step's time per point, in
 * picoseconds (docs/design-notes.md, "Training AUTO: the held form against layers").
 * mat's fused step costs in proportion to the trainable values, at a rate set by its
 * chunk: a chunk of 16 points (the held tiles leave shared memory for no more) repeats
 * the per-chunk work twice as often, and 16 subgroups (512 invocations) share a block's
 * barriers between more of them. The layers step costs per layer (its GEMMs and the
 * element-wise passes over the batch's activations), more for a hidden layer whose
 * activation its GEMM epilogue does not apply (silu: its own kernels). */
#define MLP_TRAIN_HELD_PS_PER_VALUE_P16 450u
#define MLP_TRAIN_HELD_PS_PER_VALUE_S16 280u
#define MLP_TRAIN_HELD_PS_PER_VALUE 200u
#define MLP_TRAIN_LAYERS_PS_PER_LAYER 2600u
#define MLP_TRAIN_LAYERS_PS_PER_ACT_KERNEL 900u

static uint64_t held_ps_per_point(const spvgen_mlp_train_config *p) {
  const uint32_t invocations = p->grad_local_size[0] * p->grad_local_size[1] * p->grad_local_size[2];
  const uint32_t rate = p->net.desc.points_per_group <= 16 ? MLP_TRAIN_HELD_PS_PER_VALUE_P16
                        : invocations >= 512               ? MLP_TRAIN_HELD_PS_PER_VALUE_S16
                                                           : MLP_TRAIN_HELD_PS_PER_VALUE;
  return p->params * rate / 1000u;
}

static uint64_t layers_ps_per_point(const spvgen_mlp_train_config *p) {
  uint64_t ps = 0;
  for (uint32_t l = 0; l < p->net.layer_count; l++) {
    ps += MLP_TRAIN_LAYERS_PS_PER_LAYER;
    if (l + 1 < p->net.layer_count && !mlp_layers_train_act_in_gemm(&p->net, l))
      ps += MLP_TRAIN_LAYERS_PS_PER_ACT_KERNEL;
  }
  return ps;
}

/* AUTO trains on mat where the device and the network allow it (its gradient kernel runs
 * the layers on cooperative matrices and was measured several times faster than loop's on
 * every network both ran: docs/mlp.md, "Training"), else (layers true) on the layers
 * variant where it plans the desc and the device has cooperative matrices, else on loop:
 * loop's gradient kernel runs a network mat cannot hold (160-wide and 8 deep) 50-80x
 * slower than layers' step. With layers
 * true, layers also replaces mat where mat's plan adds to its gradient slot per chunk with
 * more traffic per point than MLP_TRAIN_AUTO_LAYERS_SLOT_BYTES, or holds its tiles at an
 * estimated cost per point over the layers step's (held_ps_per_point against
 * layers_ps_per_point), and the layers variant plans the desc (its own refusals, e.g.
 * encodings or device addresses, keep mat, without a message). Vec only when asked for (it
 * needs a host conversion between its kernels); layers false for spvgen_mlp_train, whose
 * caller takes the two kernels of spvgen_mlp_train_emit. SPVGEN_OK with the plan in *p,
 * or the reason AUTO falls back to loop (not an error of the desc's: no message). */
static spvgen_status train_auto(const spvgen_mlp_train_desc *desc, const spvgen_device_caps *caps, bool layers,
                                spvgen_mlp_train_config *p) {
  if (desc->net.variant != SPVGEN_MLP_AUTO) return SPVGEN_ERROR_UNSUPPORTED;
  spvgen_mlp_train_desc m = *desc;
  m.net.variant = SPVGEN_MLP_MAT;
  spvgen_status st = train_plan_one(&m, caps, 0, p, NULL, 0);
  if (!layers) return st;
  const bool mat_ok = st == SPVGEN_OK;
  const bool slot_heavy = mat_ok && !p->grad_held && p->grad_slot_bytes_per_point > MLP_TRAIN_AUTO_LAYERS_SLOT_BYTES;
  if (mat_ok && !p->grad_held && !slot_heavy) return st;
  /* a device without cooperative matrices runs loop (the layers variant's GEMMs would be
   * simt's there, and loop's one fused kernel is its measured training path) */
  if (!mat_ok && !spvgen_caps_has(caps, SPVGEN_FEATURE_COOPMAT)) return st;
  spvgen_mlp_train_config *lp = malloc(sizeof *lp);
  if (!lp) return st; /* the mat plan stands, or loop */
  m.net.variant = SPVGEN_MLP_LAYERS;
  if (train_plan_one(&m, caps, 0, lp, NULL, 0) == SPVGEN_OK) {
    char why[sizeof p->net.selection];
    bool take = true;
    if (!mat_ok) {
      snprintf(why, sizeof why, "auto: mat cannot hold this network; layers before loop");
    } else if (slot_heavy) {
      snprintf(why, sizeof why, "auto: mat's slot adds %u B/point > %u", p->grad_slot_bytes_per_point,
               MLP_TRAIN_AUTO_LAYERS_SLOT_BYTES);
    } else {
      const uint64_t mat_ps = held_ps_per_point(p), layers_ps = layers_ps_per_point(lp);
      take = layers_ps < mat_ps;
      snprintf(why, sizeof why, "auto: layers est. %.1f ns/point %s mat held %.1f", layers_ps / 1000.0,
               take ? "<" : ">=", mat_ps / 1000.0);
    }
    if (take) *p = *lp;
    snprintf(p->net.selection, sizeof p->net.selection, "%s", why);
    st = SPVGEN_OK;
  }
  free(lp);
  return st;
}

static const spvgen_device_caps *train_caps(const spvgen_device_caps *caps, spvgen_device_caps *tmp) {
  if (caps) return caps;
  spvgen_caps_preset("vulkan13", tmp);
  return tmp;
}

/* spvgen_mlp_train_plan, and (layers false) spvgen_mlp_train's plan: AUTO without the
 * layers variant. */
static spvgen_status train_plan_desc(const spvgen_mlp_train_desc *desc, const spvgen_device_caps *caps, bool layers,
                                     spvgen_mlp_train_config *plan, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!plan) return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "plan is NULL");
  if (!desc) {
    memset(plan, 0, sizeof *plan);
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "desc is NULL");
  }
  spvgen_device_caps tmp;
  if (caps && spvgen_caps_check(caps, msg, size) != SPVGEN_OK) {
    memset(plan, 0, sizeof *plan);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  spvgen_status st = train_auto(desc, train_caps(caps, &tmp), layers, plan);
  if (st != SPVGEN_OK) st = train_plan_one(desc, train_caps(caps, &tmp), 0, plan, msg, size);
  if (st != SPVGEN_OK) memset(plan, 0, sizeof *plan);
  return st;
}

spvgen_status spvgen_mlp_train_plan(const spvgen_mlp_train_desc *desc,
                                    const spvgen_device_caps *caps, spvgen_mlp_train_config *plan,
                                    char *msg, size_t size) {
  return train_plan_desc(desc, caps, true, plan, msg, size);
}

spvgen_status spvgen_mlp_train_plans(const spvgen_mlp_train_desc *desc,
                                     const spvgen_device_caps *caps,
                                     spvgen_mlp_train_config *plans, uint32_t max,
                                     uint32_t *count, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (count) *count = 0;
  if (!count || (max && !plans) || !desc)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                      "desc or count is NULL, or plans is NULL with max > 0");
  spvgen_device_caps tmp;
  if (caps && spvgen_caps_check(caps, msg, size) != SPVGEN_OK) return SPVGEN_ERROR_INVALID_ARGUMENT;
  caps = train_caps(caps, &tmp);
  static const uint32_t sizes[] = {64, 32, 128, 16};
  uint32_t n = 0;
  if (desc->net.variant == SPVGEN_MLP_VEC || desc->net.variant == SPVGEN_MLP_MAT ||
      desc->net.variant == SPVGEN_MLP_LAYERS) {
    /* vec, mat, layers: the one plan, not a list */
    spvgen_mlp_train_config p;
    spvgen_status st = train_plan_one(desc, caps, 0, &p, msg, size);
    if (st != SPVGEN_OK) return st;
    if (max) plans[0] = p;
    *count = 1;
    return SPVGEN_OK;
  }
  {
    /* AUTO: the plan spvgen_mlp_train_plan gives first (layers where mat's slot traffic
     * sends it there, else mat where it plans); after layers, mat's plan (the one
     * spvgen_mlp_train takes); then loop's */
    spvgen_mlp_train_config p;
    if (train_auto(desc, caps, true, &p) == SPVGEN_OK) {
      if (max) plans[0] = p;
      n = 1;
      if (p.net.variant == SPVGEN_MLP_LAYERS && train_auto(desc, caps, false, &p) == SPVGEN_OK) {
        if (n < max) plans[n] = p;
        n++;
      }
    }
  }
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    if (desc->grad_workgroup_size && desc->grad_workgroup_size != sizes[i]) continue;
    spvgen_mlp_train_config p;
    if (train_plan_one(desc, caps, sizes[i], &p, NULL, 0) != SPVGEN_OK) continue;
    if (n < max) plans[n] = p;
    n++;
  }
  if (!n) {
    spvgen_mlp_train_config p;
    spvgen_status st = train_plan_one(desc, caps, 0, &p, msg, size);
    if (st != SPVGEN_OK) return st;
    if (max) plans[0] = p;
    n = 1; /* an unusual workgroup size the desc fixes */
  }
  *count = n;
  return SPVGEN_OK;
}

/* ------------------------------------------------------------ emission ---- */

/* The loss of output y against target t (f32 ids) and its derivative dLoss/dy, before
 * the 1 / (N outputs) of the mean (spvgen/mlp.h: L2, relative L2 with y^2 + 0.01 held
 * constant). */
void mlp_loss_terms(spvgen_module *m, spvgen_mlp_loss loss, uint32_t y, uint32_t t, uint32_t *lv,
                    uint32_t *grad) {
  uint32_t f32 = ek_f32_type(m);
  uint32_t diff = spvgen_op_f_sub(m, f32, y, t);
  *lv = spvgen_op_f_mul(m, f32, diff, diff);
  *grad = spvgen_op_f_add(m, f32, diff, diff);
  if (loss == SPVGEN_MLP_LOSS_RELATIVE_L2) {
    uint32_t den = spvgen_glsl_fma(m, f32, y, y, spvgen_const_f32(m, 0.01f));
    *lv = spvgen_op_f_div(m, f32, *lv, den);
    *grad = spvgen_op_f_div(m, f32, *grad, den);
  }
}

/* act'(z) from z and y = act(z), f32 ids. */
uint32_t mlp_act_deriv_f32(spvgen_module *m, const spvgen_mlp_config *p, uint32_t z, uint32_t y,
                          spvgen_mlp_activation act) {
  uint32_t f32 = ek_f32_type(m), b = ek_bool_type(m);
  uint32_t one = spvgen_const_f32(m, 1.0f), zero = spvgen_const_f32(m, 0.0f);
  switch (act) {
  case SPVGEN_MLP_ACT_RELU:
    return ek_select(m, spvgen_op_f_ord_greater_than(m, b, z, zero), one, zero);
  case SPVGEN_MLP_ACT_LEAKY_RELU:
    return ek_select(m, spvgen_op_f_ord_greater_than_equal(m, b, z, zero), one, spvgen_const_f32(m, p->desc.leaky_slope));
  case SPVGEN_MLP_ACT_SIGMOID: return spvgen_op_f_mul(m, f32, y, spvgen_op_f_sub(m, f32, one, y));
  case SPVGEN_MLP_ACT_TANH: return spvgen_op_f_sub(m, f32, one, spvgen_op_f_mul(m, f32, y, y));
  case SPVGEN_MLP_ACT_SILU: {
    uint32_t e = spvgen_glsl_exp(m, f32, spvgen_op_f_negate(m, f32, z));
    uint32_t s = spvgen_op_f_div(m, f32, one, spvgen_op_f_add(m, f32, one, e));
    return spvgen_op_f_mul(m, f32, s, spvgen_glsl_fma(m, f32, z, spvgen_op_f_sub(m, f32, one, s), one));
  }
  case SPVGEN_MLP_ACT_EXP: return y;
  default: return one;
  }
}

/* The loop variant's gradient kernel (the file's first comment says the algorithm): its
 * bindings, shared arrays, Function arrays and counters. Layer l's input a_l starts at
 * aoff[l] of `act`, its z_l and delta_l at zoff[l] of `zs` and `dl`. */
typedef struct tr_ctx {
  spvgen_module *m;
  const spvgen_mlp_train_config *t;
  const spvgen_mlp_config *p;
  uint32_t f32, u32;
  ek_buffer in, w, tgt, grad, loss;
  ek_buffer gwords;    /* the table's gradient as the atomics view it (descriptors) */
  mlp_atomics gat;     /* where the table's gradient goes (hash grid) */
  mlp_grid grid;       /* the hash grid's view (inside the entry function) */
  spvgen_push_constant_block pc;
  uint32_t sh_a, sh_d, sh_l;              /* Workgroup arrays: inputs, deltas, loss */
  uint32_t lid_var, wgid_var;             /* built-ins */
  uint32_t act, zs, dl;                   /* Function arrays */
  uint32_t aoff[SPVGEN_MLP_MAX_LAYERS + 1]; /* a_l's start in act */
  uint32_t zoff[SPVGEN_MLP_MAX_LAYERS];     /* z_l's / d_l's start in zs / dl */
  uint32_t maxi, maxo, A, Z;              /* widest input / output, act and zs lengths */
  uint32_t v_base, v_i, v_j, v_k, v_acc, v_loss; /* Function counters and sums */
  uint32_t lid, grp, n, slot;             /* this invocation, its slot's first element */
  /* vec: f16, the weight and gradient arrays, the push constants' loss scale and the
   * layers' gradient offsets */
  uint32_t f16, warr, garr, lscale;
  uint32_t moff[SPVGEN_MLP_MAX_LAYERS], boff[SPVGEN_MLP_MAX_LAYERS];
  /* device addresses: the input and target pointers as the block holds them (in and tgt
   * are the chunk's copies, moved to its first point), and the table's gradient as a
   * pointer of its own (moved to grid_grad_offset) */
  bool bda;
  ek_buffer in_all, tgt_all, ggrad;
} tr_ctx;

static uint32_t fload(tr_ctx *c, uint32_t arr, uint32_t idx) {
  return spvgen_load(c->m, c->f32, ek_at(c->m, arr, idx));
}
static void fstore(tr_ctx *c, uint32_t arr, uint32_t idx, uint32_t v) {
  spvgen_store(c->m, ek_at(c->m, arr, idx), v);
}
static uint32_t weight(tr_ctx *c, uint32_t elem) {
  return spvgen_op_f_convert(c->m, c->f32, ek_load_elem(c->m, &c->w, elem));
}
/* acc = fma(a, b, acc) on the Function variable v_acc (loaded after a and b). */
static void accumulate(tr_ctx *c, uint32_t a, uint32_t b) {
  spvgen_store(c->m, c->v_acc, spvgen_glsl_fma(c->m, c->f32, a, b, spvgen_load(c->m, c->f32, c->v_acc)));
}
/* for (i = start; i < end; i += step) over the counter variable var (DontUnroll). */
static uint32_t tr_for(tr_ctx *c, ek_for *f, uint32_t var, uint32_t start, uint32_t end, uint32_t step) {
  return ek_for_begin_var(c->m, f, var, start, ek_u32(c->m, end), ek_u32(c->m, step), SpvLoopControlDontUnrollMask);
}

/* The slot element of layer l's gradient entry e = i * cols + j (ids), cols = inputs +
 * bias: the matrix element for j < inputs, the bias element for j == inputs. */
static uint32_t grad_elem(tr_ctx *c, const spvgen_mlp_layer *L, uint32_t i, uint32_t j) {
  spvgen_module *m = c->m;
  uint32_t me = ek_add_imm(m, ek_iadd(m, ek_mul_imm(m, i, L->row_stride / 2), j), (uint32_t)(L->matrix_offset / 2));
  if (c->p->desc.no_bias) return me;
  uint32_t be = ek_add_imm(m, i, (uint32_t)(L->bias_offset / 2));
  return ek_select(m, ek_lt_imm(m, j, L->inputs), me, be);
}

/* Device addresses: the push-constant block, `lead` members of the kernel's own (names:
 * points, loss_scale, then the vec layers' offsets) and the five pointers after them;
 * grad_elem the gradient's element type (f32; vec f16). */
static void gradient_declare_bda(tr_ctx *c, const uint32_t *lead_types, uint32_t lead, uint32_t grad_elem) {
  spvgen_module *m = c->m;
  static const char *const names[MLP_TRAIN_GRAD_POINTERS] = {"input", "weights", "targets", "gradients", "loss"};
  static const bool ro[MLP_TRAIN_GRAD_POINTERS] = {true, true, true, false, false};
  static const char *const lead_names[2] = {"points", "loss_scale"};
  uint32_t types[MLP_TRAIN_GRAD_POINTERS] = {ek_type(m, c->p->desc.input_type), spvgen_type_float(m, 16), c->f32,
                                             grad_elem, c->f32};
  ek_buffer b[MLP_TRAIN_GRAD_POINTERS];
  c->pc = ek_push_constants_bda(m, lead_types, NULL, lead, types, ro, names, MLP_TRAIN_GRAD_POINTERS, b);
  for (uint32_t i = 0; i < lead && i < 2; i++) spvgen_member_name(m, c->pc.struct_type, i, lead_names[i]);
  c->in_all = c->in = b[0];
  c->w = b[1];
  c->tgt_all = c->tgt = b[2];
  c->grad = b[3];
  c->loss = b[4];
}

/* Device addresses, in the entry block: the workgroup's slot as a pointer of its own (moved
 * by g * slot_elements floats in 64 bits: slot indices then start at 0), and the table's
 * gradient (hash grid) as another, moved to grid_grad_offset, f32 or u32 as mlp_atomics
 * takes it. */
static void gradient_rebase_slot(tr_ctx *c) {
  spvgen_module *m = c->m;
  const spvgen_mlp_desc *d = &c->p->desc;
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) mlp_grid_gradient_atomics(m, c->t, &c->grad, &c->ggrad, &c->gat);
  ek_buffer_rebase(m, &c->grad, ek_batch_bytes64(m, c->grp, ek_u32(m, (uint32_t)c->t->slot_elements), 4));
}

/* Bindings 0-4 (and the table's gradient as words), the push constant, the shared
 * arrays, the built-ins; the layers' places in the Function arrays. */
static void gradient_declare(tr_ctx *c) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const spvgen_mlp_desc *d = &p->desc;
  const uint32_t W = c->t->grad_local_size[0];
  c->f32 = ek_f32_type(m);
  c->u32 = ek_u32_type(m);
  spvgen_type_pointer(m, SpvStorageClassFunction, c->f32);
  spvgen_type_pointer(m, SpvStorageClassWorkgroup, c->f32);
  if (c->bda) {
    /* { uint points; input, weights, targets, gradients, loss pointers at 8 .. 40 } */
    gradient_declare_bda(c, &c->u32, 1, c->f32);
  } else {
    c->in = ek_buffer_decl(m, ek_type(m, d->input_type), 0, true, "input");
    c->w = ek_buffer_decl(m, spvgen_type_float(m, 16), 1, true, "weights");
    c->tgt = ek_buffer_decl(m, c->f32, 2, true, "targets");
    c->grad = ek_buffer_decl(m, c->f32, 3, false, "gradients");
    c->loss = ek_buffer_decl(m, c->f32, 4, false, "loss");
    if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) mlp_grid_gradient_atomics(m, c->t, &c->grad, &c->gwords, &c->gat);
    c->pc = spvgen_push_constants(m, &c->u32, 1);
    spvgen_member_name(m, c->pc.struct_type, 0, "points");
  }
  c->A = p->encoded_width;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *Ly = &p->layers[l];
    if (Ly->inputs > c->maxi) c->maxi = Ly->inputs;
    if (Ly->outputs > c->maxo) c->maxo = Ly->outputs;
    c->aoff[l + 1] = c->A;
    c->zoff[l] = c->Z;
    c->A += Ly->outputs;
    c->Z += Ly->outputs;
  }
  uint32_t sh_a_t = spvgen_type_array(m, c->f32, W * c->maxi);
  uint32_t sh_d_t = spvgen_type_array(m, c->f32, W * c->maxo);
  uint32_t sh_l_t = spvgen_type_array(m, c->f32, W);
  c->sh_a = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, sh_a_t), SpvStorageClassWorkgroup, 0);
  c->sh_d = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, sh_d_t), SpvStorageClassWorkgroup, 0);
  c->sh_l = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, sh_l_t), SpvStorageClassWorkgroup, 0);
  spvgen_name(m, c->sh_a, "shared_inputs");
  spvgen_name(m, c->sh_d, "shared_deltas");
  spvgen_name(m, c->sh_l, "shared_loss");
  c->lid_var = ek_builtin_v3(m, SpvBuiltInLocalInvocationId);
  c->wgid_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
}

/* The counters and sums both gradient kernels keep in Function variables. */
static void gradient_counters(tr_ctx *c) {
  spvgen_module *m = c->m;
  c->v_base = ek_local(m, c->u32, 0);
  c->v_k = ek_local(m, c->u32, 0);
  c->v_acc = ek_local(m, c->f32, 0);
  c->v_loss = ek_local(m, c->f32, 0);
}

/* The invocation's index in its workgroup, the workgroup's, the point count. */
static void gradient_invocation(tr_ctx *c) {
  spvgen_module *m = c->m;
  c->lid = ek_load_v3_component(m, c->lid_var, 0);
  c->grp = ek_load_v3_component(m, c->wgid_var, 0);
  c->n = spvgen_push_constant_load(m, &c->pc, 0);
}

/* The chunk loop of both gradient kernels: for (base = g W; base < n; base += G W), and
 * this invocation's point base + lid: valid (inside the count), pt (clamped: points past
 * N compute point N - 1) and its loss weight scale (1 / (N outputs), 0 past N). */
typedef struct chunk_point {
  uint32_t valid, pt, scale;
} chunk_point;

static chunk_point gradient_chunk_begin(tr_ctx *c, ek_for *chunk) {
  spvgen_module *m = c->m;
  const uint32_t W = c->t->grad_local_size[0], G = c->t->grad_workgroups;
  uint32_t nf = spvgen_op_convert_u_to_f(m, c->f32, c->n);
  uint32_t inv = spvgen_op_f_div(m, c->f32, spvgen_const_f32(m, 1.0f),
                                 spvgen_op_f_mul(m, c->f32, nf, spvgen_const_f32(m, (float)c->p->desc.output_width)));
  uint32_t last = ek_add_imm(m, c->n, 0xFFFFFFFFu); /* n - 1 */
  uint32_t base = ek_for_begin_var(m, chunk, c->v_base, ek_mul_imm(m, c->grp, W), c->n, ek_u32(m, G * W),
                                   SpvLoopControlDontUnrollMask);
  uint32_t praw = ek_iadd(m, base, c->lid);
  chunk_point q;
  q.valid = ek_ult(m, praw, c->n);
  q.pt = ek_select(m, q.valid, praw, last);
  q.scale = ek_select(m, q.valid, inv, spvgen_const_f32(m, 0.0f));
  if (c->bda) {
    /* The chunk's points from its first: the input and target pointers move there in 64
     * bits (batches past 4 GB), and the point is counted from it (n - 1 >= base). */
    c->in = c->in_all;
    c->tgt = c->tgt_all;
    mlp_train_rebase_points(m, c->p, &c->in, &c->tgt, base);
    q.pt = ek_select(m, q.valid, c->lid, ek_isub(m, last, base));
  }
  return q;
}

void mlp_train_rebase_points(spvgen_module *m, const spvgen_mlp_config *p, ek_buffer *in, ek_buffer *tgt,
                             uint32_t first) {
  const spvgen_mlp_desc *d = &p->desc;
  ek_buffer_rebase(m, in, ek_batch_bytes64(m, first, ek_u32(m, d->input_width),
                                           spvgen_component_type_size(d->input_type)));
  ek_buffer_rebase(m, tgt, ek_batch_bytes64(m, first, ek_u32(m, d->output_width), 4));
}

/* The entry function's Function arrays and counters, the invocation's ids. */
static void gradient_locals(tr_ctx *c) {
  spvgen_module *m = c->m;
  c->act = ek_local(m, spvgen_type_array(m, c->f32, c->A), 0);
  c->zs = ek_local(m, spvgen_type_array(m, c->f32, c->Z), 0);
  c->dl = ek_local(m, spvgen_type_array(m, c->f32, c->Z), 0);
  spvgen_name(m, c->act, "a");
  spvgen_name(m, c->zs, "z");
  spvgen_name(m, c->dl, "delta");
  gradient_counters(c);
  c->v_i = ek_local(m, c->u32, 0);
  c->v_j = ek_local(m, c->u32, 0);
  if (c->p->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID) mlp_grid_begin(m, c->p, &c->w, &c->grid);
  gradient_invocation(c);
  if (c->bda) {
    gradient_rebase_slot(c);
    c->slot = ek_u32(m, 0);
  } else {
    c->slot = ek_mul_imm(m, c->grp, (uint32_t)c->t->slot_elements);
  }
}

/* 1. Every element the invocation will own, zeroed in the workgroup's slot. */
static void gradient_zero_slot(tr_ctx *c) {
  spvgen_module *m = c->m;
  const uint32_t bias = c->p->desc.no_bias ? 0 : 1, W = c->t->grad_local_size[0];
  for (uint32_t l = 0; l < c->p->layer_count; l++) {
    const spvgen_mlp_layer *Ly = &c->p->layers[l];
    const uint32_t cols = Ly->inputs + bias;
    ek_for f;
    uint32_t e = tr_for(c, &f, c->v_i, c->lid, Ly->outputs * cols, W);
    uint32_t el = grad_elem(c, Ly, ek_div_imm(m, e, cols), ek_mod_imm(m, e, cols));
    ek_store_elem(m, &c->grad, ek_iadd(m, c->slot, el), spvgen_const_f32(m, 0.0f));
    ek_for_end(m, &f);
  }
}

/* Forward: point pt's raw components (raw[], f32) encoded into a_0, then per layer
 * z_l = W_l a_l + b_l and a_(l+1) = act(z_l), one output at a time. */
static void gradient_forward(tr_ctx *c, uint32_t pt, uint32_t *raw) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const spvgen_mlp_desc *d = &p->desc;
  for (uint32_t ci = 0; ci < d->input_width; ci++) {
    uint32_t v = ek_load_elem(m, &c->in, ek_add_imm(m, ek_mul_imm(m, pt, d->input_width), ci));
    raw[ci] = ek_convert(m, v, d->input_type, SPVGEN_COMPONENT_F32);
  }
  if (d->encoding == SPVGEN_MLP_ENCODING_HASH_GRID) {
    mlp_grid_encode_array(m, &c->grid, raw, c->act, 0);
  } else {
    uint32_t enc[SPVGEN_MLP_MAX_WIDTH];
    mlp_encode(m, p, raw, enc);
    for (uint32_t j = 0; j < p->encoded_width; j++) fstore(c, c->act, ek_u32(m, j), enc[j]);
  }
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *Ly = &p->layers[l];
    ek_for fi, fj;
    uint32_t i = tr_for(c, &fi, c->v_i, ek_u32(m, 0), Ly->outputs, 1);
    uint32_t init = spvgen_const_f32(m, 0.0f);
    if (!d->no_bias) init = weight(c, ek_add_imm(m, i, (uint32_t)(Ly->bias_offset / 2)));
    spvgen_store(m, c->v_acc, init);
    uint32_t row = ek_add_imm(m, ek_mul_imm(m, i, Ly->row_stride / 2), (uint32_t)(Ly->matrix_offset / 2));
    uint32_t j = tr_for(c, &fj, c->v_j, ek_u32(m, 0), Ly->inputs, 1);
    uint32_t x = fload(c, c->act, ek_add_imm(m, j, c->aoff[l]));
    uint32_t acc = spvgen_load(m, c->f32, c->v_acc);
    spvgen_store(m, c->v_acc, spvgen_glsl_fma(m, c->f32, weight(c, ek_iadd(m, row, j)), x, acc));
    ek_for_end(m, &fj);
    uint32_t z = spvgen_load(m, c->f32, c->v_acc);
    fstore(c, c->zs, ek_add_imm(m, i, c->zoff[l]), z);
    fstore(c, c->act, ek_add_imm(m, i, c->aoff[l + 1]), mlp_activation_f32(m, p, z, Ly->activation));
    ek_for_end(m, &fi);
  }
}

/* The loss of point pt (weighted by scale: 1 / (N outputs), 0 past N) into v_loss, and
 * the output layer's delta scale * dLoss/dy * act'(z). */
static void gradient_output_delta(tr_ctx *c, uint32_t pt, uint32_t scale) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const uint32_t L = p->layer_count, ow = p->desc.output_width;
  ek_for f;
  uint32_t o = tr_for(c, &f, c->v_i, ek_u32(m, 0), ow, 1);
  uint32_t y = fload(c, c->act, ek_add_imm(m, o, c->aoff[L]));
  uint32_t z = fload(c, c->zs, ek_add_imm(m, o, c->zoff[L - 1]));
  uint32_t tv = ek_load_elem(m, &c->tgt, ek_iadd(m, ek_mul_imm(m, pt, ow), o));
  uint32_t lv, g;
  mlp_loss_terms(m, c->t->desc.loss, y, tv, &lv, &g);
  spvgen_store(m, c->v_loss, spvgen_glsl_fma(m, c->f32, scale, lv, spvgen_load(m, c->f32, c->v_loss)));
  uint32_t dv = spvgen_op_f_mul(m, c->f32, spvgen_op_f_mul(m, c->f32, scale, g),
                                mlp_act_deriv_f32(m, p, z, y, p->layers[L - 1].activation));
  fstore(c, c->dl, ek_add_imm(m, o, c->zoff[L - 1]), dv);
  ek_for_end(m, &f);
}

/* sum over i of W_l[i][j] delta_l[i] (j an id), into v_acc. */
static void transposed_dot(tr_ctx *c, uint32_t l, uint32_t j) {
  spvgen_module *m = c->m;
  const spvgen_mlp_layer *Ly = &c->p->layers[l];
  spvgen_store(m, c->v_acc, spvgen_const_f32(m, 0.0f));
  ek_for f;
  uint32_t i = tr_for(c, &f, c->v_i, ek_u32(m, 0), Ly->outputs, 1);
  uint32_t we = ek_add_imm(m, ek_iadd(m, ek_mul_imm(m, i, Ly->row_stride / 2), j), (uint32_t)(Ly->matrix_offset / 2));
  uint32_t di = fload(c, c->dl, ek_add_imm(m, i, c->zoff[l]));
  uint32_t acc = spvgen_load(m, c->f32, c->v_acc);
  spvgen_store(m, c->v_acc, spvgen_glsl_fma(m, c->f32, weight(c, we), di, acc));
  ek_for_end(m, &f);
}

/* Backward through the hidden layers: delta_(l-1)[j] = act'(z_(l-1)[j]) (W_l^T delta_l)[j]. */
static void gradient_backward(tr_ctx *c) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  for (uint32_t l = p->layer_count - 1; l >= 1; l--) {
    ek_for f;
    uint32_t j = tr_for(c, &f, c->v_j, ek_u32(m, 0), p->layers[l].inputs, 1);
    transposed_dot(c, l, j);
    uint32_t zj = fload(c, c->zs, ek_add_imm(m, j, c->zoff[l - 1]));
    uint32_t yj = fload(c, c->act, ek_add_imm(m, j, c->aoff[l]));
    uint32_t dj = spvgen_op_f_mul(m, c->f32, spvgen_load(m, c->f32, c->v_acc),
                                  mlp_act_deriv_f32(m, p, zj, yj, p->layers[l - 1].activation));
    fstore(c, c->dl, ek_add_imm(m, j, c->zoff[l - 1]), dj);
    ek_for_end(m, &f);
  }
}

/* The hash grid: dLoss/d(encoded) = W_0^T delta_0, scattered level by level into the
 * table's gradient (valid points only). */
static void gradient_grid_scatter(tr_ctx *c, uint32_t valid, const uint32_t *raw) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const uint32_t F = p->desc.grid.features;
  uint32_t denc = ek_local(m, spvgen_type_array(m, c->f32, p->encoded_width), 0);
  ek_for fj, fl;
  uint32_t j = tr_for(c, &fj, c->v_j, ek_u32(m, 0), p->layers[0].inputs, 1);
  transposed_dot(c, 0, j);
  fstore(c, denc, j, spvgen_load(m, c->f32, c->v_acc));
  ek_for_end(m, &fj);
  ek_guard g = ek_guard_begin(m, valid);
  uint32_t lvl = tr_for(c, &fl, c->v_k, ek_u32(m, 0), p->desc.grid.levels, 1);
  uint32_t dfeat[8];
  for (uint32_t f = 0; f < F; f++) dfeat[f] = fload(c, denc, ek_add_imm(m, ek_mul_imm(m, lvl, F), f));
  mlp_grid_level_scatter(m, &c->grid, lvl, raw, dfeat, &c->gat,
                         ek_u32(m, c->bda ? 0 : (uint32_t)c->t->grid_grad_offset));
  ek_for_end(m, &fl);
  ek_guard_end(m, g);
}

/* The workgroup's reduction of layer l: every invocation's a_l and delta_l into shared
 * memory, then element e = i * cols + j (owned by invocation e % W) summed over the W
 * points, d_l[i] a_l[j] (a_l[inputs] = 1: the bias), and added to the slot. */
static void gradient_reduce_layer(tr_ctx *c, uint32_t l) {
  spvgen_module *m = c->m;
  const spvgen_mlp_layer *Ly = &c->p->layers[l];
  const uint32_t bias = c->p->desc.no_bias ? 0 : 1, W = c->t->grad_local_size[0];
  const uint32_t cols = Ly->inputs + bias;
  ek_for fj, fi, fe, fk;
  uint32_t j = tr_for(c, &fj, c->v_j, ek_u32(m, 0), Ly->inputs, 1);
  fstore(c, c->sh_a, ek_iadd(m, ek_mul_imm(m, c->lid, Ly->inputs), j), fload(c, c->act, ek_add_imm(m, j, c->aoff[l])));
  ek_for_end(m, &fj);
  uint32_t i = tr_for(c, &fi, c->v_i, ek_u32(m, 0), Ly->outputs, 1);
  fstore(c, c->sh_d, ek_iadd(m, ek_mul_imm(m, c->lid, Ly->outputs), i), fload(c, c->dl, ek_add_imm(m, i, c->zoff[l])));
  ek_for_end(m, &fi);
  spvgen_workgroup_barrier(m);
  uint32_t e = tr_for(c, &fe, c->v_j, c->lid, Ly->outputs * cols, W);
  uint32_t ei = ek_div_imm(m, e, cols), ej = ek_mod_imm(m, e, cols);
  uint32_t isw = ek_lt_imm(m, ej, Ly->inputs);
  uint32_t jc = bias ? ek_select(m, isw, ej, ek_u32(m, 0)) : ej;
  spvgen_store(m, c->v_acc, spvgen_const_f32(m, 0.0f));
  uint32_t k = tr_for(c, &fk, c->v_k, ek_u32(m, 0), W, 1);
  uint32_t dk = fload(c, c->sh_d, ek_iadd(m, ek_mul_imm(m, k, Ly->outputs), ei));
  uint32_t ak = fload(c, c->sh_a, ek_iadd(m, ek_mul_imm(m, k, Ly->inputs), jc));
  if (bias) ak = ek_select(m, isw, ak, spvgen_const_f32(m, 1.0f));
  accumulate(c, dk, ak);
  ek_for_end(m, &fk);
  uint32_t ptr = ek_elem(m, &c->grad, ek_iadd(m, c->slot, grad_elem(c, Ly, ei, ej)));
  spvgen_store(m, ptr, spvgen_op_f_add(m, c->f32, spvgen_load(m, c->f32, ptr), spvgen_load(m, c->f32, c->v_acc)));
  ek_for_end(m, &fe);
  spvgen_workgroup_barrier(m);
}

/* 3. The W invocations' loss shares summed through shared memory into loss[g]. */
static void gradient_loss_share(tr_ctx *c) {
  spvgen_module *m = c->m;
  fstore(c, c->sh_l, c->lid, spvgen_load(m, c->f32, c->v_loss));
  spvgen_workgroup_barrier(m);
  ek_guard g = ek_guard_begin(m, spvgen_op_i_equal(m, ek_bool_type(m), c->lid, ek_u32(m, 0)));
  spvgen_store(m, c->v_acc, spvgen_const_f32(m, 0.0f));
  ek_for f;
  uint32_t k = tr_for(c, &f, c->v_k, ek_u32(m, 0), c->t->grad_local_size[0], 1);
  spvgen_store(m, c->v_acc, spvgen_op_f_add(m, c->f32, spvgen_load(m, c->f32, c->v_acc), fload(c, c->sh_l, k)));
  ek_for_end(m, &f);
  ek_store_elem(m, &c->loss, c->grp, spvgen_load(m, c->f32, c->v_acc));
  ek_guard_end(m, g);
}

/* llvmpipe's loop budget (docs/design-notes.md, "lavapipe's loop budget"): once an
 * invocation has spent 65,535 loop passes, every loop leaves after its current pass, with
 * no error, and the loop kernel's chunk loop runs more passes the larger the batch. A
 * last loop, bounded by min(n, 2) (a value the compiler cannot fold, so the loop stays),
 * counts its passes: fewer than the bound means the budget ran out earlier in this
 * invocation, and its loss becomes NaN, so the step's loss says it was cut instead of
 * being silently wrong. A device without such a budget always counts the bound. */
static void gradient_budget_canary(tr_ctx *c) {
  spvgen_module *m = c->m;
  uint32_t bound = ek_umin(m, c->n, ek_u32(m, 2));
  uint32_t passes = ek_local(m, c->u32, ek_u32(m, 0));
  ek_for f;
  ek_for_begin(m, &f, ek_u32(m, 0), bound, ek_u32(m, 1), SpvLoopControlDontUnrollMask);
  spvgen_store(m, passes, ek_add_imm(m, spvgen_load(m, c->u32, passes), 1));
  ek_for_end(m, &f);
  uint32_t cut = ek_ult(m, spvgen_load(m, c->u32, passes), bound);
  uint32_t nan = spvgen_const_f32(m, __builtin_nanf(""));
  spvgen_store(m, c->v_loss, ek_select(m, cut, nan, spvgen_load(m, c->f32, c->v_loss)));
}

static void emit_gradient(spvgen_module *m, const spvgen_mlp_train_config *t) {
  const spvgen_mlp_config *p = &t->net;
  tr_ctx cx = {.m = m, .t = t, .p = p, .bda = p->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS}, *c = &cx;
  gradient_declare(c);
  spvgen_compute_main(m, "main", t->grad_local_size[0], 1, 1);
  gradient_locals(c);
  gradient_zero_slot(c);
  spvgen_store(m, c->v_loss, spvgen_const_f32(m, 0.0f));

  /* 2. The chunks of W points: forward, loss, backward, the workgroup's reduction. */
  ek_for chunk;
  chunk_point q = gradient_chunk_begin(c, &chunk);
  uint32_t raw[SPVGEN_MLP_MAX_WIDTH];
  gradient_forward(c, q.pt, raw);
  gradient_output_delta(c, q.pt, q.scale);
  gradient_backward(c);
  if (p->desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID) gradient_grid_scatter(c, q.valid, raw);
  for (uint32_t l = 0; l < p->layer_count; l++) gradient_reduce_layer(c, l);
  ek_for_end(m, &chunk);

  gradient_budget_canary(c);
  gradient_loss_share(c);
  spvgen_function_end(m);
}

/* act'(z) on f16 cooperative vectors, from z and y = act(z). */
static uint32_t vec_act_deriv(spvgen_module *m, const spvgen_mlp_config *p, uint32_t z, uint32_t y,
                              spvgen_mlp_activation act) {
  uint32_t t = spvgen_type_of(m, z);
  uint32_t one = spvgen_coop_splat_float(m, t, 1.0), zero = spvgen_coop_splat_float(m, t, 0.0);
  switch (act) {
  case SPVGEN_MLP_ACT_RELU: return spvgen_coopvec_step(m, zero, z);
  case SPVGEN_MLP_ACT_LEAKY_RELU: {
    double s = p->desc.leaky_slope;
    return spvgen_coopvec_fma(m, spvgen_coopvec_step(m, zero, z), spvgen_coop_splat_float(m, t, 1.0 - s),
                              spvgen_coop_splat_float(m, t, s));
  }
  case SPVGEN_MLP_ACT_SIGMOID: return spvgen_coop_arith(m, SpvOpFMul, y, spvgen_coop_arith(m, SpvOpFSub, one, y));
  case SPVGEN_MLP_ACT_TANH: return spvgen_coop_arith(m, SpvOpFSub, one, spvgen_coop_arith(m, SpvOpFMul, y, y));
  case SPVGEN_MLP_ACT_SILU: {
    /* silu'(z) = s (1 + z (1 - s)), s = sigmoid(z) in the forward pass's form (on Tanh
     * for f16 vectors) */
    uint32_t sg = mlp_vec_sigmoid(m, z);
    return spvgen_coop_arith(m, SpvOpFMul, sg,
                             spvgen_coopvec_fma(m, z, spvgen_coop_arith(m, SpvOpFSub, one, sg), one));
  }
  case SPVGEN_MLP_ACT_EXP: return y;
  default: return one;
  }
}

/* Layer l's matrix-vector product on the f16 weights: forward z = W x (+ b), or, for the
 * backward pass, W^T delta (inputs x outputs, column c = row c of W), of `input`. */
static spvgen_coopvec_matmul_desc vec_layer_desc(tr_ctx *c, uint32_t l, uint32_t input, bool transposed) {
  const spvgen_mlp_layer *Ly = &c->p->layers[l];
  spvgen_coopvec_matmul_desc md;
  memset(&md, 0, sizeof md);
  md.result_type = spvgen_type_coopvec(c->m, c->f16, transposed ? Ly->inputs : Ly->outputs);
  md.input = input;
  md.input_interpretation = SpvComponentTypeFloat16NV;
  md.matrix = c->warr;
  md.matrix_offset = ek_u32(c->m, (uint32_t)Ly->matrix_offset);
  md.matrix_interpretation = SpvComponentTypeFloat16NV;
  md.m = transposed ? Ly->inputs : Ly->outputs;
  md.k = transposed ? Ly->outputs : Ly->inputs;
  md.layout = transposed ? SpvCooperativeVectorMatrixLayoutColumnMajorNV : SpvCooperativeVectorMatrixLayoutRowMajorNV;
  md.matrix_stride = Ly->row_stride;
  return md;
}

/* vec: bindings 0-4 (f16 gradients), the push constants (points, loss scale, the layers'
 * gradient offsets), the loss's shared array, the built-ins. */
static void vec_gradient_declare(tr_ctx *c) {
  spvgen_module *m = c->m;
  const spvgen_mlp_desc *d = &c->p->desc;
  const uint32_t W = c->t->grad_local_size[0], L = c->p->layer_count;
  c->f32 = ek_f32_type(m);
  c->u32 = ek_u32_type(m);
  c->f16 = spvgen_type_float(m, 16);
  uint32_t pct[2 + 2 * SPVGEN_MLP_MAX_LAYERS];
  pct[0] = c->u32;
  pct[1] = c->f32;
  for (uint32_t l = 0; l < 2 * L; l++) pct[2 + l] = c->u32;
  if (c->bda) {
    /* the push constants, then the five pointers (the f16 gradient buffer's among them) */
    gradient_declare_bda(c, pct, 2 + 2 * L, c->f16);
  } else {
    c->in = ek_buffer_decl(m, ek_type(m, d->input_type), 0, true, "input");
    c->w = ek_buffer_decl(m, c->f16, 1, true, "weights");
    c->tgt = ek_buffer_decl(m, c->f32, 2, true, "targets");
    c->grad = ek_buffer_decl(m, c->f16, 3, false, "gradients");
    c->loss = ek_buffer_decl(m, c->f32, 4, false, "loss");
    c->pc = spvgen_push_constants(m, pct, 2 + 2 * L);
    spvgen_member_name(m, c->pc.struct_type, 0, "points");
    spvgen_member_name(m, c->pc.struct_type, 1, "loss_scale");
  }
  c->sh_l = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, spvgen_type_array(m, c->f32, W)),
                            SpvStorageClassWorkgroup, 0);
  spvgen_name(m, c->sh_l, "shared_loss");
  c->lid_var = ek_builtin_v3(m, SpvBuiltInLocalInvocationId);
  c->wgid_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
}

/* vec forward: point pt encoded into x[0] (f16), z[l] = W_l x[l] (+ b_l) and x[l + 1] =
 * act(z[l]) per layer. */
static void vec_gradient_forward(tr_ctx *c, uint32_t pt, uint32_t *x, uint32_t *z) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t raw[SPVGEN_MLP_MAX_WIDTH], enc[SPVGEN_MLP_MAX_WIDTH];
  for (uint32_t k = 0; k < d->input_width; k++) {
    uint32_t idx = ek_add_imm(m, ek_mul_imm(m, pt, d->input_width), k);
    raw[k] = ek_convert(m, ek_load_elem(m, &c->in, idx), d->input_type, SPVGEN_COMPONENT_F32);
  }
  mlp_encode(m, p, raw, enc);
  for (uint32_t j = 0; j < p->encoded_width; j++) enc[j] = spvgen_op_f_convert(m, c->f16, enc[j]);
  x[0] = spvgen_coop_construct(m, spvgen_type_coopvec(m, c->f16, p->encoded_width), enc, p->encoded_width);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *Ly = &p->layers[l];
    spvgen_coopvec_matmul_desc md = vec_layer_desc(c, l, x[l], false);
    if (d->no_bias) {
      z[l] = spvgen_coopvec_matmul(m, &md);
    } else {
      md.bias = c->warr;
      md.bias_offset = ek_u32(m, (uint32_t)Ly->bias_offset);
      md.bias_interpretation = SpvComponentTypeFloat16NV;
      z[l] = spvgen_coopvec_matmul_add(m, &md);
    }
    x[l + 1] = mlp_vec_activation(m, p, z[l], Ly->activation);
  }
}

/* vec: the loss of point pt (weighted by scale) into v_loss, per component in f32, and
 * the output layer's delta (f16; times the push constant's loss scale). */
static uint32_t vec_gradient_output_delta(tr_ctx *c, uint32_t pt, uint32_t scale, const uint32_t *x,
                                          const uint32_t *z) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  const uint32_t L = p->layer_count, ow = p->desc.output_width, f32 = c->f32;
  uint32_t dl[SPVGEN_MLP_MAX_WIDTH];
  uint32_t gscale = spvgen_op_f_mul(m, f32, scale, c->lscale);
  uint32_t dv_out = vec_act_deriv(m, p, z[L - 1], x[L], p->layers[L - 1].activation);
  for (uint32_t k = 0; k < ow; k++) {
    uint32_t y = spvgen_op_f_convert(m, f32, spvgen_coop_extract(m, x[L], k));
    uint32_t tv = ek_load_elem(m, &c->tgt, ek_add_imm(m, ek_mul_imm(m, pt, ow), k));
    uint32_t lv, g;
    mlp_loss_terms(m, c->t->desc.loss, y, tv, &lv, &g);
    spvgen_store(m, c->v_loss, spvgen_glsl_fma(m, f32, scale, lv, spvgen_load(m, f32, c->v_loss)));
    uint32_t dd = spvgen_op_f_convert(m, f32, spvgen_coop_extract(m, dv_out, k));
    dl[k] = spvgen_op_f_convert(m, c->f16, spvgen_op_f_mul(m, f32, spvgen_op_f_mul(m, f32, gscale, g), dd));
  }
  return spvgen_coop_construct(m, spvgen_type_coopvec(m, c->f16, ow), dl, ow);
}

/* vec backward, layer L-1 .. 0: dW_l += delta x_l^T (the training-optimal layout), db_l
 * += delta, then delta = (W_l^T delta) .* act'(z_(l-1)). */
static void vec_gradient_backward(tr_ctx *c, uint32_t delta, const uint32_t *x, const uint32_t *z) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  for (uint32_t l = p->layer_count; l-- > 0;) {
    spvgen_coopvec_outer_product_desc od;
    memset(&od, 0, sizeof od);
    od.pointer = c->garr;
    od.offset = c->moff[l];
    od.a = delta;
    od.b = x[l];
    od.layout = SpvCooperativeVectorMatrixLayoutTrainingOptimalNV;
    od.matrix_interpretation = SpvComponentTypeFloat16NV;
    spvgen_coopvec_outer_product_accumulate(m, &od);
    if (!p->desc.no_bias) spvgen_coopvec_reduce_sum_accumulate(m, c->garr, delta, c->boff[l]);
    if (l == 0) break;
    spvgen_coopvec_matmul_desc md = vec_layer_desc(c, l, delta, true);
    uint32_t s = spvgen_coopvec_matmul(m, &md);
    delta = spvgen_coop_arith(m, SpvOpFMul, s, vec_act_deriv(m, p, z[l - 1], x[l], p->layers[l - 1].activation));
  }
}

/* The vec variant's gradient kernel (spvgen/mlp.h, "The vec variant"): the chunk loop of
 * the loop variant, one point per invocation, everything between layers in f16
 * cooperative vectors held as values (the layers are unrolled). */
static void emit_gradient_vec(spvgen_module *m, const spvgen_mlp_train_config *t) {
  const spvgen_mlp_config *p = &t->net;
  const uint32_t L = p->layer_count;
  tr_ctx cx = {.m = m, .t = t, .p = p, .bda = p->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS}, *c = &cx;
  vec_gradient_declare(c);
  spvgen_compute_main(m, "main", t->grad_local_size[0], 1, 1);
  gradient_counters(c);
  gradient_invocation(c);
  c->lscale = spvgen_push_constant_load(m, &c->pc, 1);
  for (uint32_t l = 0; l < L; l++) {
    c->moff[l] = spvgen_push_constant_load(m, &c->pc, 2 + l);
    c->boff[l] = spvgen_push_constant_load(m, &c->pc, 2 + L + l);
  }
  c->warr = ek_array(m, &c->w);
  c->garr = ek_array(m, &c->grad);
  spvgen_store(m, c->v_loss, spvgen_const_f32(m, 0.0f));

  ek_for chunk;
  chunk_point q = gradient_chunk_begin(c, &chunk);
  uint32_t x[SPVGEN_MLP_MAX_LAYERS + 1], z[SPVGEN_MLP_MAX_LAYERS];
  vec_gradient_forward(c, q.pt, x, z);
  uint32_t delta = vec_gradient_output_delta(c, q.pt, q.scale, x, z);
  vec_gradient_backward(c, delta, x, z);
  ek_for_end(m, &chunk);

  gradient_loss_share(c);
  spvgen_function_end(m);
}

/* The optimizer's workgroups. Without the hash grid: one element per invocation, at most
 * 65535 workgroups (what every Vulkan device allows); the kernel loops over the rest.
 * With it (opt_local_size L: 256, or 128 on devices that allow no more), three ranges
 * in dispatch order:
 *   net groups    the network's elements, L / OPT_WAYS a group, each summed
 *                 over the slots by OPT_WAYS invocations (a chain of G / 64 round trips,
 *                 not G / 8) whose sums meet in shared memory;
 *   one group     the loss history, summed over the loss shares the same way;
 *   table groups  the table, OPT_QUAD elements an invocation (16-byte loads of the
 *                 gradient, the master weight, m and v, all issued before any store),
 *                 as many groups as the quads need up to what 65535 leaves, the kernel
 *                 looping over the rest.
 * The net groups come first so that their chains run beside the table's stream, which
 * is what bounds the kernel: it moves every table element's gradient, master weight, m
 * and v in and out and writes the f16 weight (f32 gradient: 34 bytes an element). */
static uint32_t opt_groups(const spvgen_mlp_train_config *t) {
  if (opt_grid(t)) return opt_net_groups(t) + 1 + t->opt_table_groups;
  uint64_t per = t->opt_local_size[0] ? t->opt_local_size[0] : 1;
  uint64_t g = (t->elements + per - 1) / per;
  return g > 65535 ? 65535u : (uint32_t)g;
}

/* The optimizer kernel's state: bindings, push constants, counters (vec: one f16 slot,
 * the row-major part of the vec gradient buffer, scaled by the push constant). */
typedef struct opt_ctx {
  spvgen_module *m;
  const spvgen_mlp_train_config *t;
  const spvgen_mlp_config *p;
  uint32_t f32, u32, bt;
  bool vec, grid;
  uint32_t E, G, slots, Es; /* elements, slots and their stride */
  ek_buffer wb, gb, sb, lb;
  ek_buffer sm, sv;  /* Adam's m and v: sb moved by E and 2E floats (device addresses), or sb */
  uint32_t loss_elements; /* device addresses: the loss buffer's length (a push constant) */
  spvgen_push_constant_block pc;
  uint32_t v_k, v_acc, v_part[8]; /* v_part: OPT_SUM_WAYS partial sums */
  uint32_t step, lr, gscale;
  uint32_t c1, c2; /* Adam's bias corrections 1 - beta^step, once per invocation */
  /* the grid form: the quad views (gradient, master weights, m, v as 4-vectors, the f16
   * weights as f16 4-vectors; the gradient's moved to the table's part with device
   * addresses), the net groups' shared sums, this invocation, the net group count */
  ek_buffer gq, wq, mq, vq, hq;
  uint32_t sh, lid, grp, net_groups;
} opt_ctx;

/* Loads in flight per step of the optimizer's sums over the slots (and over the loss
 * shares): each step issues OPT_SUM_WAYS independent loads into as many partial sums,
 * so a sum of G values waits for G / OPT_SUM_WAYS memory round trips instead of G (one
 * invocation's chain of dependent loads, at the latency of a memory system that the
 * rest of the dispatch keeps busy, was the optimizer's time: docs/design-notes.md). */
#define OPT_SUM_WAYS 8u

/* sum over k < count of b[first + k * stride] (vec: f16 values) into f32, the loads
 * OPT_SUM_WAYS at a time; first an id, stride and count constants. */
static uint32_t opt_strided_sum(opt_ctx *c, const ek_buffer *b, uint32_t first, uint32_t stride,
                                uint32_t count) {
  spvgen_module *m = c->m;
  const uint32_t f32 = c->f32, looped = count / OPT_SUM_WAYS * OPT_SUM_WAYS;
  uint32_t part[OPT_SUM_WAYS];
  for (uint32_t w = 0; w < OPT_SUM_WAYS; w++) {
    part[w] = c->v_part[w];
    spvgen_store(m, part[w], spvgen_const_f32(m, 0.0f));
  }
  if (looped) {
    ek_for f;
    uint32_t k = ek_for_begin_var(m, &f, c->v_k, ek_u32(m, 0), ek_u32(m, looped), ek_u32(m, OPT_SUM_WAYS),
                                  SpvLoopControlDontUnrollMask);
    uint32_t at = ek_iadd(m, ek_mul_imm(m, k, stride), first), got[OPT_SUM_WAYS];
    for (uint32_t w = 0; w < OPT_SUM_WAYS; w++) {
      got[w] = ek_load_elem(m, b, ek_add_imm(m, at, w * stride));
      if (b->elem_type != f32) got[w] = spvgen_op_f_convert(m, f32, got[w]);
    }
    for (uint32_t w = 0; w < OPT_SUM_WAYS; w++)
      spvgen_store(m, part[w], spvgen_op_f_add(m, f32, spvgen_load(m, f32, part[w]), got[w]));
    ek_for_end(m, &f);
  }
  uint32_t sum[OPT_SUM_WAYS];
  for (uint32_t w = 0; w < OPT_SUM_WAYS; w++) sum[w] = spvgen_load(m, f32, part[w]);
  for (uint32_t k = looped; k < count; k++) { /* the rest, straight-line */
    uint32_t v = ek_load_elem(m, b, ek_add_imm(m, first, k * stride));
    if (b->elem_type != f32) v = spvgen_op_f_convert(m, f32, v);
    sum[k - looped] = spvgen_op_f_add(m, f32, sum[k - looped], v);
  }
  for (uint32_t w = OPT_SUM_WAYS / 2; w; w /= 2) /* the partial sums pairwise */
    for (uint32_t i = 0; i < w; i++) sum[i] = spvgen_op_f_add(m, f32, sum[i], sum[i + w]);
  return sum[0];
}

/* The loss history: the loss (the G shares' sum, an f32 id) stored at element G - 1 +
 * step, where the buffer has it. */
static void optimizer_store_loss(opt_ctx *c, uint32_t loss) {
  spvgen_module *m = c->m;
  uint32_t slot = ek_iadd(m, ek_u32(m, c->G - 1), c->step);
  uint32_t len = c->loss_elements ? c->loss_elements : spvgen_op_array_length(m, c->u32, c->lb.var, 0);
  ek_guard fits = ek_guard_begin(m, ek_ult(m, slot, len));
  ek_store_elem(m, &c->lb, slot, loss);
  ek_guard_end(m, fits);
}

/* The dispatch's last invocation (without the hash grid: one with no slot sum of its own
 * where the network is small): the workgroups' loss shares summed into the loss history. */
static void optimizer_loss_history(opt_ctx *c, uint32_t e) {
  spvgen_module *m = c->m;
  uint32_t last = opt_groups(c->t) * c->t->opt_local_size[0] - 1;
  ek_guard first = ek_guard_begin(m, spvgen_op_i_equal(m, c->bt, e, ek_u32(m, last)));
  optimizer_store_loss(c, opt_strided_sum(c, &c->lb, ek_u32(m, 0), 1, c->G));
  ek_guard_end(m, first);
}

/* Whether element e is a weight or a bias (not padding; without the hash grid the
 * table's elements are never asked about: the grid form updates them as quads). */
static uint32_t optimizer_is_parameter(opt_ctx *c, uint32_t e) {
  spvgen_module *m = c->m;
  const spvgen_mlp_config *p = c->p;
  uint32_t real = spvgen_const_bool(m, false);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint32_t mo = (uint32_t)(L->matrix_offset / 2), rs = L->row_stride / 2;
    uint32_t r = ek_add_imm(m, e, 0u - mo); /* e - mo, wraps below mo */
    uint32_t inm = ek_and(m, ek_lt_imm(m, r, L->outputs * rs), ek_lt_imm(m, ek_mod_imm(m, r, rs), L->inputs));
    real = spvgen_op_logical_or(m, c->bt, real, inm);
    if (!p->desc.no_bias) {
      uint32_t rb = ek_add_imm(m, e, 0u - (uint32_t)(L->bias_offset / 2));
      real = spvgen_op_logical_or(m, c->bt, real, ek_lt_imm(m, rb, L->outputs));
    }
  }
  return real;
}

/* Element e's gradient without the hash grid: the sum over the slots, vec: scaled. */
static uint32_t optimizer_gradient(opt_ctx *c, uint32_t e) {
  spvgen_module *m = c->m;
  uint32_t g = opt_strided_sum(c, &c->gb, e, c->Es, c->slots);
  return c->vec ? spvgen_op_f_mul(m, c->f32, g, c->gscale) : g;
}

/* Adam or SGD on one f32 value (ids): gradient g, master weight w, Adam's m and v as
 * loaded (SGD: unused) -> the new w, m, v. Weight decay is folded into g. */
static void opt_math(opt_ctx *c, uint32_t g, uint32_t w, uint32_t mo, uint32_t vo, uint32_t *nw, uint32_t *nm,
                     uint32_t *nv) {
  spvgen_module *m = c->m;
  const spvgen_mlp_train_desc *td = &c->t->desc;
  const uint32_t f32 = c->f32;
  if (td->weight_decay > 0) g = spvgen_glsl_fma(m, f32, spvgen_const_f32(m, td->weight_decay), w, g);
  uint32_t upd = g;
  if (td->optimizer == SPVGEN_MLP_OPTIMIZER_ADAM) {
    uint32_t b1 = spvgen_const_f32(m, td->beta1), b2 = spvgen_const_f32(m, td->beta2);
    uint32_t mv = spvgen_glsl_fma(m, f32, b1, mo, spvgen_op_f_mul(m, f32, spvgen_const_f32(m, 1.0f - td->beta1), g));
    uint32_t vv = spvgen_glsl_fma(m, f32, b2, vo,
                                  spvgen_op_f_mul(m, f32, spvgen_const_f32(m, 1.0f - td->beta2),
                                                  spvgen_op_f_mul(m, f32, g, g)));
    *nm = mv;
    *nv = vv;
    uint32_t mh = spvgen_op_f_div(m, f32, mv, c->c1);
    uint32_t vh = spvgen_op_f_div(m, f32, vv, c->c2);
    uint32_t den = spvgen_op_f_add(m, f32, spvgen_glsl_sqrt(m, f32, vh), spvgen_const_f32(m, td->epsilon));
    upd = spvgen_op_f_div(m, f32, mh, den);
  }
  *nw = spvgen_op_f_sub(m, f32, w, spvgen_op_f_mul(m, f32, c->lr, upd));
}

/* Adam or SGD on element e's f32 master weight, and its f16 copy: the loads first. */
static void optimizer_update(opt_ctx *c, uint32_t e, uint32_t g) {
  spvgen_module *m = c->m;
  const uint32_t f32 = c->f32, E = c->E;
  const bool adam = c->t->desc.optimizer == SPVGEN_MLP_OPTIMIZER_ADAM;
  uint32_t wp = ek_elem(m, &c->sb, e), mp = 0, vp = 0, mo = 0, vo = 0;
  uint32_t w = spvgen_load(m, f32, wp);
  if (adam) {
    mp = c->sm.base ? ek_elem(m, &c->sm, e) : ek_elem(m, &c->sb, ek_add_imm(m, e, E));
    vp = c->sv.base ? ek_elem(m, &c->sv, e) : ek_elem(m, &c->sb, ek_add_imm(m, e, 2 * E));
    mo = spvgen_load(m, f32, mp);
    vo = spvgen_load(m, f32, vp);
  }
  uint32_t nw, nm = 0, nv = 0;
  opt_math(c, g, w, mo, vo, &nw, &nm, &nv);
  if (adam) {
    spvgen_store(m, mp, nm);
    spvgen_store(m, vp, nv);
  }
  spvgen_store(m, wp, nw);
  ek_store_elem(m, &c->wb, e, spvgen_op_f_convert(m, c->wb.elem_type, nw));
}

/* ------------------------------------------------------ the grid form ---- */

/* The grid form's views, in the entry block (device addresses: after sm and sv are
 * moved): the table's gradient as f32 or f16 4-vectors (moved to grid_grad_offset with
 * device addresses), the master weights, m and v as f32 4-vectors, the f16 weights as
 * f16 4-vectors; and the shared array of the net groups. */
static void opt_grid_views(opt_ctx *c) {
  spvgen_module *m = c->m;
  const spvgen_mlp_train_config *t = c->t;
  const bool g16 = t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16;
  const uint32_t h16 = spvgen_type_float(m, 16);
  const uint32_t v4 = spvgen_type_vector(m, c->f32, OPT_QUAD), h4 = spvgen_type_vector(m, h16, OPT_QUAD);
  c->gq = ek_buffer_view(m, &c->gb, g16 ? h4 : v4, 1, false, "table_gradient_quads");
  if (c->gb.ptr_type)
    ek_buffer_rebase(m, &c->gq, spvgen_const_bits(m, spvgen_type_int(m, 64, false), t->grid_grad_offset * 4));
  c->hq = ek_buffer_view(m, &c->wb, h4, 0, false, "weight_quads");
  c->wq = ek_buffer_view(m, &c->sb, v4, 2, false, "state_quads");
  if (t->desc.optimizer == SPVGEN_MLP_OPTIMIZER_ADAM && c->sm.ptr_type) {
    c->mq = ek_buffer_view(m, &c->sm, v4, 2, false, "m_quads");
    c->vq = ek_buffer_view(m, &c->sv, v4, 2, false, "v_quads");
  } else {
    c->mq = c->vq = c->wq;
  }
}

/* The net groups' (and the loss group's) share of way j (a u32 id): the sum of b[first +
 * k stride] over k = j, j + OPT_WAYS, ... < G (first an id, stride a constant). */
static uint32_t opt_way_sum(opt_ctx *c, const ek_buffer *b, uint32_t first, uint32_t stride, uint32_t j) {
  spvgen_module *m = c->m;
  const uint32_t full = c->G / OPT_WAYS, rest = c->G % OPT_WAYS;
  uint32_t at = ek_iadd(m, first, ek_mul_imm(m, j, stride));
  spvgen_store(m, c->v_acc, full ? opt_strided_sum(c, b, at, OPT_WAYS * stride, full) : spvgen_const_f32(m, 0.0f));
  if (rest) { /* the last G % OPT_WAYS values: one each for the first ways */
    ek_guard g = ek_guard_begin(m, ek_lt_imm(m, j, rest));
    uint32_t v = ek_load_elem(m, b, ek_add_imm(m, at, full * OPT_WAYS * stride));
    spvgen_store(m, c->v_acc, spvgen_op_f_add(m, c->f32, spvgen_load(m, c->f32, c->v_acc), v));
    ek_guard_end(m, g);
  }
  return spvgen_load(m, c->f32, c->v_acc);
}

/* A net group (the network's elements grp * opt_per_group + el) or the loss group: each
 * way's share through shared memory, way 0 adding the OPT_WAYS shares in order and
 * updating its element (or storing the loss history). Uniform per workgroup: the
 * barrier is inside. */
static void opt_grid_net_group(opt_ctx *c) {
  spvgen_module *m = c->m;
  const uint32_t per = opt_per_group(c->t);
  uint32_t j = ek_div_imm(m, c->lid, per), el = ek_mod_imm(m, c->lid, per);
  uint32_t is_net = ek_ult(m, c->grp, ek_u32(m, c->net_groups));
  uint32_t e = ek_iadd(m, ek_mul_imm(m, c->grp, per), el);
  uint32_t share = ek_local(m, c->f32, 0);
  spvgen_if(m, is_net); /* Es is a multiple of per (grid_offset: of 64 bytes) */
  spvgen_store(m, share, opt_way_sum(c, &c->gb, e, c->Es, j));
  spvgen_else(m);
  spvgen_store(m, share, opt_way_sum(c, &c->lb, ek_u32(m, 0), 1, j));
  spvgen_end_if(m);
  spvgen_store(m, ek_at(m, c->sh, c->lid), spvgen_load(m, c->f32, share));
  spvgen_workgroup_barrier(m);
  ek_guard way0 = ek_guard_begin(m, spvgen_op_i_equal(m, c->bt, j, ek_u32(m, 0)));
  uint32_t total = 0;
  for (uint32_t k = 0; k < OPT_WAYS; k++) {
    uint32_t v = spvgen_load(m, c->f32, ek_at(m, c->sh, ek_add_imm(m, el, k * per)));
    total = k ? spvgen_op_f_add(m, c->f32, total, v) : v;
  }
  spvgen_if(m, is_net);
  {
    ek_guard real = ek_guard_begin(m, optimizer_is_parameter(c, e));
    optimizer_update(c, e, total);
    ek_guard_end(m, real);
  }
  spvgen_else(m);
  {
    ek_guard lane0 = ek_guard_begin(m, spvgen_op_i_equal(m, c->bt, el, ek_u32(m, 0)));
    optimizer_store_loss(c, total);
    ek_guard_end(m, lane0);
  }
  spvgen_end_if(m);
  ek_guard_end(m, way0);
}

/* Table quad q (a u32 id; elements Es + 4q .. + 3): the gradient, master weights, m and
 * v loaded (16-byte loads, all before any store), Adam or SGD per element, then the
 * gradient reset to 0 and the state and the f16 weights written. */
static void opt_grid_quad(opt_ctx *c, uint32_t q) {
  spvgen_module *m = c->m;
  const spvgen_mlp_train_config *t = c->t;
  const bool adam = t->desc.optimizer == SPVGEN_MLP_OPTIMIZER_ADAM, bda = c->sm.ptr_type != 0;
  const bool g16 = t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16;
  const uint32_t f32 = c->f32, v4 = spvgen_type_vector(m, f32, OPT_QUAD);
  /* descriptors index each view from its binding's start, device addresses from the
   * moved pointers (the gradient's at the table's part, m's and v's at E and 2E) */
  uint32_t wi = ek_add_imm(m, q, c->Es / OPT_QUAD);
  uint32_t gi = c->gq.base ? q : ek_add_imm(m, q, (uint32_t)(g16 ? t->grid_grad_offset / 2 : t->grid_grad_offset / 4));
  uint32_t gp = ek_elem(m, &c->gq, gi), wp = ek_elem(m, &c->wq, wi), mp = 0, vp = 0;
  uint32_t gv = spvgen_load(m, c->gq.elem_type, gp), wv = spvgen_load(m, v4, wp), mv = 0, vv = 0;
  if (adam) {
    mp = ek_elem(m, &c->mq, bda ? wi : ek_add_imm(m, wi, c->E / OPT_QUAD));
    vp = ek_elem(m, &c->vq, bda ? wi : ek_add_imm(m, wi, 2 * c->E / OPT_QUAD));
    mv = spvgen_load(m, v4, mp);
    vv = spvgen_load(m, v4, vp);
  }
  if (g16) /* f16 times the scale: back to the gradient (a power of two: exact) */
    gv = spvgen_op_vector_times_scalar(m, v4, spvgen_op_f_convert(m, v4, gv),
                                       spvgen_const_f32(m, 1.0f / t->desc.grid_gradient_scale));
  uint32_t nw[OPT_QUAD], nm[OPT_QUAD] = {0}, nv[OPT_QUAD] = {0};
  for (uint32_t k = 0; k < OPT_QUAD; k++) {
    uint32_t gk = spvgen_op_composite_extract(m, f32, gv, &k, 1);
    uint32_t wk = spvgen_op_composite_extract(m, f32, wv, &k, 1);
    uint32_t mk = adam ? spvgen_op_composite_extract(m, f32, mv, &k, 1) : 0;
    uint32_t vk = adam ? spvgen_op_composite_extract(m, f32, vv, &k, 1) : 0;
    opt_math(c, gk, wk, mk, vk, &nw[k], &nm[k], &nv[k]);
  }
  spvgen_store(m, gp, spvgen_const_null(m, c->gq.elem_type));
  if (adam) {
    spvgen_store(m, mp, spvgen_op_composite_construct(m, v4, nm, OPT_QUAD));
    spvgen_store(m, vp, spvgen_op_composite_construct(m, v4, nv, OPT_QUAD));
  }
  uint32_t w4 = spvgen_op_composite_construct(m, v4, nw, OPT_QUAD);
  spvgen_store(m, wp, w4);
  ek_store_elem(m, &c->hq, wi, spvgen_op_f_convert(m, c->hq.elem_type, w4));
}

/* A table group: quads (grp - net_groups - 1) L + lid, stepping by the
 * table groups' invocations. */
static void opt_grid_table_group(opt_ctx *c) {
  spvgen_module *m = c->m;
  const uint32_t net = c->net_groups, tg = c->t->opt_table_groups;
  const uint32_t quads = (uint32_t)((c->t->elements - c->t->slot_elements) / OPT_QUAD);
  const uint32_t L = c->t->opt_local_size[0];
  uint32_t q0 = ek_iadd(m, ek_mul_imm(m, ek_add_imm(m, c->grp, 0u - (net + 1)), L), c->lid);
  ek_for f;
  uint32_t q = ek_for_begin_var(m, &f, ek_local(m, c->u32, 0), q0, ek_u32(m, quads), ek_u32(m, tg * L),
                                SpvLoopControlDontUnrollMask);
  opt_grid_quad(c, q);
  ek_for_end(m, &f);
}

static void emit_optimizer(spvgen_module *m, const spvgen_mlp_train_config *t) {
  const spvgen_mlp_config *p = &t->net;
  opt_ctx cx = {.m = m, .t = t, .p = p}, *c = &cx;
  c->f32 = ek_f32_type(m);
  c->u32 = ek_u32_type(m);
  c->bt = ek_bool_type(m);
  c->vec = p->variant == SPVGEN_MLP_VEC;
  c->E = (uint32_t)t->elements;
  c->G = t->grad_workgroups;
  c->slots = c->vec ? 1 : c->G;
  c->Es = c->vec ? c->E : (uint32_t)t->slot_elements;
  c->grid = opt_grid(t);
  const bool bda = p->desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  uint32_t pct[4] = {c->u32, c->f32, c->f32, c->u32};
  const uint32_t lead = c->vec ? 3 : 2;
  if (bda) {
    /* { step, learning_rate, [grad_scale,] loss_elements; the four pointers at 16 .. 40 } */
    static const char *const names[MLP_TRAIN_OPT_POINTERS] = {"weights", "gradients", "state", "loss"};
    static const char *const lead_loop[3] = {"step", "learning_rate", "loss_elements"};
    static const char *const lead_vec[4] = {"step", "learning_rate", "grad_scale", "loss_elements"};
    const bool ro[MLP_TRAIN_OPT_POINTERS] = {false, !c->grid, false, false};
    uint32_t types[MLP_TRAIN_OPT_POINTERS] = {spvgen_type_float(m, 16), c->vec ? spvgen_type_float(m, 16) : c->f32,
                                              c->f32, c->f32};
    if (!c->vec) pct[2] = c->u32;
    ek_buffer b[MLP_TRAIN_OPT_POINTERS];
    c->pc = ek_push_constants_bda(m, pct, c->vec ? lead_vec : lead_loop, lead + 1, types, ro, names,
                                  MLP_TRAIN_OPT_POINTERS, b);
    c->wb = b[0];
    c->gb = b[1];
    c->sb = b[2];
    c->lb = b[3];
  } else {
    c->wb = ek_buffer_decl(m, spvgen_type_float(m, 16), 0, false, "weights");
    c->gb = ek_buffer_decl(m, c->vec ? spvgen_type_float(m, 16) : c->f32, 1, !c->grid, "gradients");
    c->sb = ek_buffer_decl(m, c->f32, 2, false, "state");
    c->lb = ek_buffer_decl(m, c->f32, 3, false, "loss");
    c->pc = spvgen_push_constants(m, pct, lead);
    spvgen_member_name(m, c->pc.struct_type, 0, "step");
    spvgen_member_name(m, c->pc.struct_type, 1, "learning_rate");
    if (c->vec) spvgen_member_name(m, c->pc.struct_type, 2, "grad_scale");
  }
  uint32_t gid_var = 0, lid_var = 0, wg_var = 0;
  if (!c->grid) gid_var = ek_builtin_v3(m, SpvBuiltInGlobalInvocationId);
  if (c->grid) {
    lid_var = ek_builtin_v3(m, SpvBuiltInLocalInvocationId);
    wg_var = ek_builtin_v3(m, SpvBuiltInWorkgroupId);
    uint32_t sh_t = spvgen_type_array(m, c->f32, t->opt_local_size[0]);
    c->sh = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassWorkgroup, sh_t), SpvStorageClassWorkgroup, 0);
    spvgen_name(m, c->sh, "way_sums");
    spvgen_type_pointer(m, SpvStorageClassWorkgroup, c->f32);
  }
  spvgen_compute_main(m, "main", t->opt_local_size[0], 1, 1);
  c->v_k = ek_local(m, c->u32, 0);
  c->v_acc = ek_local(m, c->f32, 0);
  for (uint32_t w = 0; w < OPT_SUM_WAYS; w++) c->v_part[w] = ek_local(m, c->f32, 0);
  c->step = spvgen_push_constant_load(m, &c->pc, 0);
  c->lr = spvgen_push_constant_load(m, &c->pc, 1);
  c->gscale = c->vec ? spvgen_push_constant_load(m, &c->pc, 2) : 0;
  if (bda) {
    c->loss_elements = spvgen_push_constant_load(m, &c->pc, lead);
    if (t->desc.optimizer == SPVGEN_MLP_OPTIMIZER_ADAM) {
      /* m and v as pointers of their own: indices stay below E, however large 3E is */
      const uint32_t u64 = spvgen_type_int(m, 64, false);
      c->sm = c->sv = c->sb;
      ek_buffer_rebase(m, &c->sm, spvgen_const_bits(m, u64, (uint64_t)c->E * 4));
      ek_buffer_rebase(m, &c->sv, spvgen_const_bits(m, u64, (uint64_t)c->E * 8));
    }
  }
  if (t->desc.optimizer == SPVGEN_MLP_OPTIMIZER_ADAM) { /* uniform: out of the element loop */
    const uint32_t f32 = c->f32, one_f = spvgen_const_f32(m, 1.0f);
    uint32_t sf = spvgen_op_convert_u_to_f(m, f32, c->step);
    c->c1 = spvgen_op_f_sub(m, f32, one_f, spvgen_glsl_pow(m, f32, spvgen_const_f32(m, t->desc.beta1), sf));
    c->c2 = spvgen_op_f_sub(m, f32, one_f, spvgen_glsl_pow(m, f32, spvgen_const_f32(m, t->desc.beta2), sf));
  }
  if (c->grid) {
    c->net_groups = opt_net_groups(t);
    c->lid = ek_load_v3_component(m, lid_var, 0);
    c->grp = ek_load_v3_component(m, wg_var, 0);
    opt_grid_views(c);
    /* the net groups and the loss group, then the table groups (uniform per workgroup) */
    spvgen_if(m, ek_ult(m, c->grp, ek_u32(m, c->net_groups + 1)));
    opt_grid_net_group(c);
    spvgen_else(m);
    opt_grid_table_group(c);
    spvgen_end_if(m);
    spvgen_function_end(m);
    return;
  }
  uint32_t e0 = ek_load_v3_component(m, gid_var, 0);
  optimizer_loss_history(c, e0);
  /* Every element in a grid-stride loop: devices allow as few as 65535 workgroups
   * (spvgen_mlp_train_optimizer_groups). */
  ek_for f;
  uint32_t e = ek_for_begin_var(m, &f, ek_local(m, c->u32, 0), e0, ek_u32(m, c->E),
                                ek_u32(m, opt_groups(t) * t->opt_local_size[0]), SpvLoopControlDontUnrollMask);
  uint32_t real = optimizer_is_parameter(c, e);
  ek_guard g = ek_guard_begin(m, ek_and(m, ek_lt_imm(m, e, c->E), real));
  optimizer_update(c, e, optimizer_gradient(c, e));
  ek_guard_end(m, g);
  ek_for_end(m, &f);
  spvgen_function_end(m);
}

static bool train_plan_ok(const spvgen_mlp_train_config *t) {
  return t && t->net.variant >= SPVGEN_MLP_VEC && t->net.variant < SPVGEN_MLP_VARIANT_COUNT &&
         t->net.layer_count &&
         t->net.layer_count <= SPVGEN_MLP_MAX_LAYERS && t->grad_local_size[0] &&
         t->grad_workgroups && t->elements && t->opt_local_size[0] &&
         (unsigned)t->desc.loss < SPVGEN_MLP_LOSS_COUNT &&
         (unsigned)t->desc.optimizer < SPVGEN_MLP_OPTIMIZER_COUNT &&
         (!opt_grid(t) || ((t->opt_local_size[0] == OPT_LOCAL_GRID || t->opt_local_size[0] == OPT_LOCAL_GRID_LEAST) &&
                           t->opt_table_groups &&
                           (uint64_t)opt_net_groups(t) + 1 + t->opt_table_groups <= 65535 &&
                           (t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F32 ||
                            (t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16 &&
                             t->net.desc.grid.features >= 2 && t->desc.grid_gradient_scale > 0))));
}

void spvgen_mlp_train_optimizer_groups(const spvgen_mlp_train_config *plan, uint32_t groups[3]) {
  if (!groups) return;
  groups[0] = plan ? opt_groups(plan) : 0;
  groups[1] = groups[2] = 1;
}

/* The optimizer's binding sizes with device addresses: the loss buffer holds at least
 * loss_elements floats (the push constant at byte size_args[0] of the block, which
 * OpArrayLength gives with descriptors). */
static bool opt_binding_sizes(const spvgen_kernel_info *info, const void *push_data, uint32_t push_size,
                              uint64_t *sizes) {
  uint32_t at = (uint32_t)info->size_args[0], n = 0;
  if (push_data && push_size >= at + 4) memcpy(&n, (const unsigned char *)push_data + at, 4);
  if ((uint64_t)n * 4 > sizes[3]) sizes[3] = (uint64_t)n * 4;
  return true;
}

/* Device addresses: the alignment each pointer's accesses need beyond 4 bytes (0: none):
 * the cooperative vector instructions take 64-byte aligned matrices and gradients (their
 * offsets are multiples of 64), the mat variant loads its weights and f16 points without
 * encoding in 16-byte pieces; the f16 table gradient's atomics add 4-vectors (8 bytes)
 * where a level has 4 or 8 features. */
static uint32_t grad_alignment(const spvgen_mlp_train_config *t, uint32_t i) {
  const spvgen_mlp_config *p = &t->net;
  if (p->variant == SPVGEN_MLP_VEC) return i == 1 || i == 3 ? 64 : 0;
  uint32_t a = 0;
  if (p->variant == SPVGEN_MLP_MAT) a = i == 1 || (i == 0 && mlp_mat_input_chunks(&p->desc)) ? 16 : 0;
  if (i == 3 && t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16 && p->desc.grid.features >= 4 && a < 8) a = 8;
  return a;
}

/* ... and the optimizer's: with the hash grid it moves the table in 4-vectors, of f32
 * (the gradient, the state: 16 bytes) and of f16 (the weights; an f16 gradient: 8). */
static uint32_t opt_alignment(const spvgen_mlp_train_config *t, uint32_t i) {
  if (!opt_grid(t)) return 0;
  const bool g16 = t->desc.grid_gradient == SPVGEN_MLP_GRID_GRADIENT_F16;
  return i == 0 ? 8 : i == 1 ? (g16 ? 8 : 16) : i == 2 ? 16 : 0;
}

/* The kernel info of either kernel (spvgen/mlp.h, "training"): bindings with names,
 * access and minimum sizes (the points' as a function of the push constants' count),
 * push fields, the dispatch; device addresses: each pointer's place in the block and its
 * alignment. */
static void train_info(const spvgen_mlp_train_config *plan, spvgen_mlp_train_kernel which, spvgen_kernel_info *info) {
  const bool grad = which == SPVGEN_MLP_TRAIN_GRADIENT, vec = plan->net.variant == SPVGEN_MLP_VEC;
  const bool mat = plan->net.variant == SPVGEN_MLP_MAT;
  const bool bda = plan->net.desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  const bool grid = plan->net.desc.encoding == SPVGEN_MLP_ENCODING_HASH_GRID;
  const spvgen_mlp_desc *nd = &plan->net.desc;
  const uint32_t L = plan->net.layer_count;
  memset(info, 0, sizeof *info);
  info->entry_point = "main";
  static const char *const gnames[5] = {"input", "weights", "targets", "gradients", "loss"};
  static const char *const onames[4] = {"weights", "gradients", "state", "loss"};
  const uint32_t R = SPVGEN_ACCESS_READ, W = SPVGEN_ACCESS_WRITE;
  const uint32_t gaccess[5] = {R, R, R, R | W, W};
  const uint32_t oaccess[4] = {W, grid ? R | W : R, R | W, R | W};
  info->binding_count = grad ? MLP_TRAIN_GRAD_POINTERS : MLP_TRAIN_OPT_POINTERS;
  for (uint32_t i = 0; i < info->binding_count; i++) {
    spvgen_binding *b = &info->bindings[i];
    b->binding = i;
    b->kind = SPVGEN_BINDING_STORAGE_BUFFER;
    b->name = grad ? gnames[i] : onames[i];
    b->access = grad ? gaccess[i] : oaccess[i];
  }
  if (grad) {
    for (int i = 0; i < 3; i++) info->local_size[i] = plan->grad_local_size[i];
    info->groups[0] = plan->grad_workgroups;
    info->groups[1] = info->groups[2] = 1;
    info->push_constant_size = plan->grad_push_constant_size;
    if (mat) info->required_subgroup_size = plan->net.subgroup_size;
    /* the points grow with the count at push offset 0; the rest is the plan's (vec: the
     * host places the gradients) */
    info->bindings[1].min_size = plan->net.weight_bytes;
    info->bindings[3].min_size = plan->grad_bytes;
    info->bindings[4].min_size = plan->loss_bytes;
    info->binding_sizes = ek_sizes_per_count;
    info->size_args[0] = (uint64_t)nd->input_width * spvgen_component_type_size(nd->input_type);
    info->size_args[2] = (uint64_t)nd->output_width * 4;
    static const char *const moffs[SPVGEN_MLP_MAX_LAYERS] = {
        "matrix_offset_0",  "matrix_offset_1",  "matrix_offset_2",  "matrix_offset_3",
        "matrix_offset_4",  "matrix_offset_5",  "matrix_offset_6",  "matrix_offset_7",
        "matrix_offset_8",  "matrix_offset_9",  "matrix_offset_10", "matrix_offset_11",
        "matrix_offset_12", "matrix_offset_13", "matrix_offset_14", "matrix_offset_15"};
    static const char *const boffs[SPVGEN_MLP_MAX_LAYERS] = {
        "bias_offset_0",  "bias_offset_1",  "bias_offset_2",  "bias_offset_3",
        "bias_offset_4",  "bias_offset_5",  "bias_offset_6",  "bias_offset_7",
        "bias_offset_8",  "bias_offset_9",  "bias_offset_10", "bias_offset_11",
        "bias_offset_12", "bias_offset_13", "bias_offset_14", "bias_offset_15"};
    info->push_fields[info->push_field_count++] = (spvgen_push_field){"points", 0, 4};
    /* vec: every field or only the count (a list that stopped short would let a caller
     * pass fewer bytes than the offsets take) */
    if (vec && 2 + 2 * L <= SPVGEN_MAX_PUSH_FIELDS) {
      info->push_fields[info->push_field_count++] = (spvgen_push_field){"loss_scale", 4, 4};
      for (uint32_t l = 0; l < L; l++)
        info->push_fields[info->push_field_count++] = (spvgen_push_field){moffs[l], 8 + 4 * l, 4};
      for (uint32_t l = 0; l < L; l++)
        info->push_fields[info->push_field_count++] = (spvgen_push_field){boffs[l], 8 + 4 * L + 4 * l, 4};
    } else if (vec) {
      info->push_field_count = 0;
    }
  } else {
    for (int i = 0; i < 3; i++) info->local_size[i] = plan->opt_local_size[i];
    spvgen_mlp_train_optimizer_groups(plan, info->groups);
    info->push_constant_size = plan->opt_push_constant_size;
    info->bindings[0].min_size = plan->net.weight_bytes;
    /* vec: one f16 slot in the weight layout */
    info->bindings[1].min_size = vec ? plan->net.weight_bytes : plan->grad_bytes;
    info->bindings[2].min_size = plan->state_bytes;
    info->bindings[3].min_size = plan->loss_bytes;
    info->push_fields[info->push_field_count++] = (spvgen_push_field){"step", 0, 4};
    info->push_fields[info->push_field_count++] = (spvgen_push_field){"learning_rate", 4, 4};
    if (vec) info->push_fields[info->push_field_count++] = (spvgen_push_field){"grad_scale", 8, 4};
    if (bda) {
      uint32_t at = vec ? 12 : 8;
      info->push_fields[info->push_field_count++] = (spvgen_push_field){"loss_elements", at, 4};
      info->binding_sizes = opt_binding_sizes;
      info->size_args[0] = at;
    }
  }
  for (uint32_t i = 0; bda && i < info->binding_count; i++) { /* the pointers after the push constants */
    spvgen_binding *b = &info->bindings[i];
    b->kind = SPVGEN_BINDING_DEVICE_ADDRESS;
    b->binding = 0;
    b->address_offset = info->push_constant_size - 8 * (info->binding_count - i);
    b->alignment = grad ? grad_alignment(plan, i) : opt_alignment(plan, i);
  }
}

spvgen_status spvgen_mlp_train_emit(spvgen_module *m, const spvgen_mlp_train_config *plan,
                                    spvgen_mlp_train_kernel which, spvgen_kernel_info *info) {
  if (!m) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!train_plan_ok(plan))
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_train_emit: plan is NULL or not made by "
                              "spvgen_mlp_train_plan"),
           spvgen_module_status(m);
  if (which != SPVGEN_MLP_TRAIN_GRADIENT && which != SPVGEN_MLP_TRAIN_OPTIMIZER)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_train_emit: which %d is neither "
                              "SPVGEN_MLP_TRAIN_GRADIENT nor SPVGEN_MLP_TRAIN_OPTIMIZER",
                              (int)which),
           spvgen_module_status(m);
  bool grad = which == SPVGEN_MLP_TRAIN_GRADIENT;
  bool vec = plan->net.variant == SPVGEN_MLP_VEC;
  bool mat = plan->net.variant == SPVGEN_MLP_MAT;
  const bool bda = plan->net.desc.addressing == SPVGEN_ADDRESSING_DEVICE_ADDRESS;
  if (bda && spvgen_module_addressing(m) != SpvAddressingModelPhysicalStorageBuffer64)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_train_emit: the plan takes device addresses; create the module with "
                              "spvgen_module_desc.addressing = SpvAddressingModelPhysicalStorageBuffer64 (%u), "
                              "spvgen_mlp_addressing_model(&plan->net)",
                              (unsigned)SpvAddressingModelPhysicalStorageBuffer64),
           spvgen_module_status(m);
  if (grad && plan->net.variant == SPVGEN_MLP_LAYERS)
    return spvgen_module_fail(m, SPVGEN_ERROR_UNSUPPORTED,
                              "spvgen_mlp_train_emit: the layers variant's gradient step is %u kernels "
                              "(spvgen_mlp_train_emit_kernel, spvgen_mlp_train_dispatch_for)",
                              plan->layers_kernel_count),
           spvgen_module_status(m);
  if (grad && vec) emit_gradient_vec(m, plan);
  else if (grad && mat) mlp_mat_emit_gradient(m, plan);
  else if (grad) emit_gradient(m, plan);
  else emit_optimizer(m, plan);
  if (info) train_info(plan, which, info);
  return spvgen_module_status(m);
}

spvgen_status spvgen_mlp_train(const spvgen_mlp_train_desc *desc, const spvgen_device_caps *caps,
                               spvgen_mlp_train_kernel which, spvgen_kernel *kernel, char *msg,
                               size_t size) {
  if (msg && size) msg[0] = 0;
  if (!kernel) return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "kernel is NULL");
  memset(kernel, 0, sizeof *kernel);
  spvgen_mlp_train_config plan;
  /* two kernels: AUTO chooses between mat and loop (a desc naming layers gets the error of
   * spvgen_mlp_train_emit) */
  spvgen_status st = train_plan_desc(desc, caps, false, &plan, msg, size);
  if (st != SPVGEN_OK) return st;
  spvgen_module *m = spvgen_module_create(&(spvgen_module_desc){.addressing = spvgen_mlp_addressing_model(&plan.net)});
  if (!m) return mlp_train_fail(msg, size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  spvgen_kernel_info info;
  st = spvgen_mlp_train_emit(m, &plan, which, &info);
  return ek_kernel_finish(m, st, &info, kernel, "spvgen_mlp_train", msg, size);
}

/* ------------------------------------------------ the step's dispatches ---- */

uint32_t spvgen_mlp_train_kernel_count(const spvgen_mlp_train_config *plan) {
  if (!train_plan_ok(plan)) return 0;
  return plan->net.variant == SPVGEN_MLP_LAYERS ? plan->layers_kernel_count : 1u;
}

uint32_t spvgen_mlp_train_dispatch_count(const spvgen_mlp_train_config *plan) {
  if (!train_plan_ok(plan)) return 0;
  return plan->net.variant == SPVGEN_MLP_LAYERS ? mlp_layers_train_dispatch_count(plan) : 1u;
}

spvgen_status spvgen_mlp_train_emit_kernel(spvgen_module *m, const spvgen_mlp_train_config *plan, uint32_t index,
                                           spvgen_kernel_info *info) {
  if (!m) return SPVGEN_ERROR_INVALID_ARGUMENT;
  const uint32_t n = spvgen_mlp_train_kernel_count(plan);
  if (!n)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_train_emit_kernel: plan is NULL or not made by spvgen_mlp_train_plan"),
           spvgen_module_status(m);
  if (index >= n)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_mlp_train_emit_kernel: kernel %u: the plan has %u", index, n),
           spvgen_module_status(m);
  if (plan->net.variant != SPVGEN_MLP_LAYERS) return spvgen_mlp_train_emit(m, plan, SPVGEN_MLP_TRAIN_GRADIENT, info);
  return mlp_layers_train_emit_kernel(m, plan, index, info);
}

spvgen_status spvgen_mlp_train_dispatch_for(const spvgen_mlp_train_config *plan, uint32_t index, uint64_t points,
                                            spvgen_mlp_train_dispatch *out, char *msg, size_t size) {
  if (msg && size) msg[0] = 0;
  if (!train_plan_ok(plan) || !out)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_mlp_train_dispatch_for: %s",
                          out ? "plan is NULL or not made by spvgen_mlp_train_plan" : "dispatch is NULL");
  const uint32_t n = spvgen_mlp_train_dispatch_count(plan);
  if (index >= n)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "spvgen_mlp_train_dispatch_for: dispatch %u: the plan has %u", index, n);
  if (points < 1 || points > SPVGEN_MLP_MAX_POINTS)
    return mlp_train_fail(msg, size, SPVGEN_ERROR_INVALID_ARGUMENT,
                          "spvgen_mlp_train_dispatch_for: points %llu: 1 to %llu", (unsigned long long)points,
                          (unsigned long long)SPVGEN_MLP_MAX_POINTS);
  if (plan->net.variant == SPVGEN_MLP_LAYERS) return mlp_layers_train_dispatch(plan, index, points, out, msg, size);
  memset(out, 0, sizeof *out);
  out->groups[0] = plan->grad_workgroups;
  out->groups[1] = out->groups[2] = 1;
  const uint32_t count = (uint32_t)points;
  memcpy(out->push, &count, 4);
  out->push_size = 4;
  out->binding_count = 5;
  for (uint32_t i = 0; i < 5; i++) out->bindings[i].buffer = (spvgen_mlp_train_buffer)i;
  return SPVGEN_OK;
}

uint64_t spvgen_mlp_train_workspace_bytes(const spvgen_mlp_train_config *plan, uint64_t points) {
  if (!train_plan_ok(plan) || plan->net.variant != SPVGEN_MLP_LAYERS || !points) return 0;
  return mlp_layers_train_workspace_bytes(plan, points);
}
