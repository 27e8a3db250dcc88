/* emitters/mlp/select.c — which variant, weight layout and knobs spvgen_mlp_plan takes when
 * the desc leaves them open (variant AUTO, weight_layout AUTO, zero knobs).
 *
 * 1. Measured: where select_table.c has measurements of this device, the nearest measured
 *    network (a distance over log2 widths, depth, activation kind and encoding; used up
 *    to MAX_DISTANCE) says what each variant class reached there; of the classes the desc
 *    allows, the fastest is taken with its knobs (knobs the desc sets must agree).
 * 2. Model: otherwise, each allowed class's default plan is estimated by a cost model
 *    (select.h: per-point overhead, ns per FLOP, ns per activation, ns per FLOP of the
 *    wide layers, bandwidth floor), with parameters fitted to the device's measurements
 *    (or the default ones), and the lowest estimate is taken.
 * The classes the desc allows: its variant (AUTO: vec, mat, loop, and layers where the
 * caller takes a plan of several kernels), and for vec the row-major layout, the optimal
 * one or (AUTO) both; layers (row-major weights) where the layout is not optimal and the
 * desc sets none of the knobs it refuses and the caller takes a plan of several kernels, on
 * hidden widths of whole 64s or widths that pad to whole 128s at little waste (layers_whole).
 * Layers comes from a measured network where it was the fastest class, from the model
 * (its own fit: a per-activation term for the activations' trips through memory), and as
 * the compile budget's stand-in; where the layers planner refuses the desc (an encoding,
 * an activation outside the GEMM epilogue, f32 input, device addresses, a weight offset
 * the device cannot bind) the measured network's next class is planned instead, and the
 * model and the budget pass it over. Until session 20 the model never proposed layers and
 * held the fused classes to one FLOP rate: 64-256x6-22 then took vec with the optimal
 * layout, a 14 s first compile on the H100 for 0.36x torch's eager speed (call S20-1). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mlp_internal.h"
#include "select.h"

/* Beyond this distance the nearest measured network says little about this one. */
#define MAX_DISTANCE 2.0

static uint32_t pad16(uint32_t x) { return (x + 15) / 16 * 16; }

static int act_class(spvgen_mlp_activation a) {
  return a == SPVGEN_MLP_ACT_RELU || a == SPVGEN_MLP_ACT_LEAKY_RELU || a == SPVGEN_MLP_ACT_NONE ? 0 : 1;
}

static double lg(double x) { return log2(x < 1 ? 1 : x); }

/* The distance between the plan's network and a measured one. */
static double distance(const spvgen_mlp_config *p, const mlp_select_entry *e) {
  const spvgen_mlp_desc *d = &p->desc;
  uint32_t w = d->hidden_count ? d->hidden_widths[0] : 0;
  double dist = fabs(lg(p->encoded_width) - lg(e->encoded_width)) + fabs(lg(w) - lg(e->hidden_width)) +
                0.5 * fabs((double)d->hidden_count - (double)e->depth) +
                fabs(lg(d->output_width) - lg(e->output_width));
  if (act_class(d->activation) != e->act_class) dist += 0.5;
  if ((uint32_t)d->encoding != e->encoding) dist += 1.0;
  return dist;
}

const mlp_select_device *mlp_select_find_device(const spvgen_device_caps *caps) {
  /* the device itself; else a vendor-wide entry (device 0); else the vendor's first
   * measured device: its ranking of the variants is a better guess for a sibling (an
   * H100 beside a measured H200) than the model alone */
  const mlp_select_device *vendor = NULL, *sibling = NULL;
  for (uint32_t i = 0; i < mlp_select_device_count; i++) {
    const mlp_select_device *dv = &mlp_select_devices[i];
    if (dv->vendor_id != caps->vendor_id) continue;
    if (dv->device_id == caps->device_id) return dv;
    if (!dv->device_id && !vendor) vendor = dv;
    if (dv->device_id && !sibling) sibling = dv;
  }
  return vendor ? vendor : sibling;
}

int mlp_select_class(const spvgen_mlp_config *p) {
  return p->variant == SPVGEN_MLP_VEC ? (p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL ? MLP_CLASS_VEC_OPT : MLP_CLASS_VEC)
         : p->variant == SPVGEN_MLP_MAT    ? MLP_CLASS_MAT
         : p->variant == SPVGEN_MLP_LAYERS ? MLP_CLASS_LAYERS
                                           : MLP_CLASS_LOOP;
}

double mlp_select_estimate(const spvgen_device_caps *caps, const spvgen_mlp_config *p) {
  const mlp_select_device *dv = mlp_select_find_device(caps);
  const mlp_select_model *m = dv ? &dv->model : &mlp_select_default_model;
  int cls = mlp_select_class(p);
  if (!m->a[cls] && !m->b[cls] && !m->c[cls] && !m->w[cls]) return 0; /* no fit for the class */
  double work = 0, acts = 0, wide = 0;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    /* layers: the GEMMs' widths (padded ones where the plan pads: the FLOPs that run) */
    const bool lay = cls == MLP_CLASS_LAYERS;
    uint32_t k = lay ? mlp_layers_k(p, l) : p->layers[l].inputs, n = lay ? mlp_layers_n(p, l) : p->layers[l].outputs;
    const bool w = k > MLP_SELECT_WIDE && n > MLP_SELECT_WIDE;
    if (cls != MLP_CLASS_LOOP) k = pad16(k), n = pad16(n);
    work += 2.0 * k * n;
    acts += n;
    if (w) wide += 2.0 * k * n;
  }
  double bytes = (double)p->desc.input_width * spvgen_component_type_size(p->desc.input_type) +
                 (double)p->desc.output_width * spvgen_component_type_size(p->desc.output_type);
  double t = m->a[cls] + m->b[cls] * work + m->c[cls] * acts + m->w[cls] * wide;
  double floor = m->bw > 0 ? bytes / m->bw : 0;
  return t > floor ? t : floor;
}

/* A candidate: a class and the knobs to plan it with (0: the variant's defaults). */
typedef struct candidate {
  int cls;
  const mlp_select_knobs *knobs;
} candidate;

static spvgen_mlp_variant class_variant(int cls) {
  return cls == MLP_CLASS_VEC || cls == MLP_CLASS_VEC_OPT ? SPVGEN_MLP_VEC
         : cls == MLP_CLASS_MAT                           ? SPVGEN_MLP_MAT
         : cls == MLP_CLASS_LAYERS                        ? SPVGEN_MLP_LAYERS
                                                          : SPVGEN_MLP_LOOP;
}

/* Whether the desc allows class cls (its variant and layout), and knobs k where set. */
static bool allows(const spvgen_mlp_desc *d, int cls, const mlp_select_knobs *k) {
  spvgen_mlp_variant v = class_variant(cls);
  if (d->variant != SPVGEN_MLP_AUTO && d->variant != v) return false;
  bool opt = cls == MLP_CLASS_VEC_OPT;
  if (d->weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL && !opt) return false;
  if (d->weight_layout == SPVGEN_MLP_WEIGHTS_ROW_MAJOR && opt) return false;
  if (d->output_path == SPVGEN_MLP_OUTPUT_STAGED && v != SPVGEN_MLP_VEC && v != SPVGEN_MLP_MAT) return false;
  if (cls == MLP_CLASS_LAYERS) /* no knobs of its own: a desc that sets one is another class's */
    return !d->workgroup_size && !d->points_per_group && !d->f16_accumulation && !d->bias_path && !d->mat_rows &&
           !d->mat_slab && !d->vec_rows && !d->vec_stage && !d->layer_loop;
  if (!k) return true;
  if (d->workgroup_size && d->workgroup_size != k->workgroup_size) return false;
  if (d->points_per_group && d->points_per_group != k->points_per_group) return false;
  if (d->bias_path && (d->bias_path == SPVGEN_MLP_BIAS_ADD) != (k->bias_add != 0)) return false;
  if (d->f16_accumulation && !k->f16_accumulation) return false;
  if (d->mat_rows && !k->mat_rows) return false;
  if (d->mat_slab) return false; /* the streamed form is not in the measured table yet */
  if (d->vec_rows && d->vec_rows != k->vec_rows) return false;
  if (d->vec_stage && !k->vec_stage) return false;
  if (d->layer_loop && !k->layer_loop) return false;
  return true;
}

/* The classes the measured network ran that the desc allows (layers only where the caller
 * takes several kernels), fastest first, but class skip (-1: none), each faster than
 * min_gpts (0: any measured); returns their count. */
static int measured_order(const mlp_select_entry *near, const spvgen_mlp_desc *d, bool layers, int skip,
                          float min_gpts, int order[MLP_CLASS_COUNT]) {
  int n = 0;
  for (int c = 0; c < MLP_CLASS_COUNT; c++)
    if (c != skip && (layers || c != MLP_CLASS_LAYERS) && near->cls[c].gpts > 0 && near->cls[c].gpts >= min_gpts &&
        allows(d, c, NULL))
      order[n++] = c;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && near->cls[order[j]].gpts > near->cls[order[j - 1]].gpts; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  return n;
}

/* Plans class cls with knobs k (NULL: the desc's own; layers: its GEMMs choose). */
static spvgen_status plan_class(const spvgen_device_caps *caps, const spvgen_mlp_config *base, int cls,
                                const mlp_select_knobs *k, spvgen_mlp_config *p, char *msg, size_t size) {
  spvgen_mlp_config b = *base;
  b.desc.weight_layout = cls == MLP_CLASS_VEC_OPT ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
  if (cls == MLP_CLASS_LAYERS) return mlp_plan_variant(caps, &b, NULL, SPVGEN_MLP_LAYERS, p, msg, size);
  spvgen_mlp_desc knobs = b.desc;
  if (k) {
    knobs.workgroup_size = k->workgroup_size;
    knobs.points_per_group = k->points_per_group;
    knobs.bias_path = k->bias_add ? SPVGEN_MLP_BIAS_ADD : b.desc.bias_path;
    knobs.f16_accumulation = k->f16_accumulation != 0;
    knobs.mat_rows = k->mat_rows != 0;
    knobs.vec_rows = k->vec_rows;
    knobs.vec_stage = k->vec_stage != 0;
    knobs.layer_loop = k->layer_loop != 0;
  }
  return mlp_plan_variant(caps, &b, &knobs, class_variant(cls), p, msg, size);
}

/* The compile budget (spvgen/mlp.h, compile_budget_ms): a choice estimated over it gives
 * way to the measured network's other classes (fit_measured), else to the first of these
 * that fits, each changing only knobs the desc leaves open:
 * the chosen class and knobs with the layers in a loop, one point per invocation, and then
 * the other classes the desc allows (their default knobs, vec also with the loop). When
 * none fits, the cheapest to compile of them all. */
/* A stand-in must keep at least half the chosen plan's speed (issue rule: never a plan
 * the grid shows under half the best): by the cost model, and where the choice came from
 * a measured network (near), by that network's measured class speeds. Where nothing
 * within the budget keeps that speed, the choice stays, over the budget, and says so. */
static bool keeps_speed(const spvgen_device_caps *caps, const spvgen_mlp_config *plan, const spvgen_mlp_config *p,
                        const mlp_select_entry *near) {
  const int c0 = mlp_select_class(plan), c = mlp_select_class(p);
  /* two classes the network measured: the measurement decides, not the model */
  if (near && c != c0 && near->cls[c0].gpts > 0 && near->cls[c].gpts > 0)
    return near->cls[c].gpts >= 0.5f * near->cls[c0].gpts;
  double t0 = mlp_select_estimate(caps, plan), t = mlp_select_estimate(caps, p);
  if (t0 > 0 && t > 2.0 * t0) return false;
  if (near && c != c0 && near->cls[c0].gpts > 0 && !(near->cls[c].gpts >= 0.5f * near->cls[c0].gpts)) return false;
  return true;
}

/* Over the budget with a measured network: its other measured classes, fastest first, with
 * their measured knobs (where the desc leaves them open), else the class's defaults,
 * before the chosen class's unmeasured knob variants (a looped vec, which the table holds
 * no speed for and the cost model ranks poorly for wide layers: docs/design-notes.md,
 * "Measurements behind source comments"). True when one keeps half the chosen class's
 * measured speed and fits. */
static bool fit_measured(const spvgen_device_caps *caps, const spvgen_mlp_config *base, spvgen_mlp_config *plan,
                         const mlp_select_entry *near, bool layers, uint32_t budget) {
  const int chosen = mlp_select_class(plan);
  if (!near || near->cls[chosen].gpts <= 0) return false;
  int order[MLP_CLASS_COUNT];
  const int n = measured_order(near, &base->desc, layers, chosen, 0.5f * near->cls[chosen].gpts, order);
  for (int i = 0; i < n; i++) {
    const int c = order[i];
    const mlp_select_knobs *k = allows(&base->desc, c, &near->cls[c]) ? &near->cls[c] : NULL;
    spvgen_mlp_config p;
    /* its measured knobs, else (over the budget) the class's own defaults */
    if ((plan_class(caps, base, c, k, &p, NULL, 0) != SPVGEN_OK || p.compile_ms > budget) &&
        (!k || plan_class(caps, base, c, NULL, &p, NULL, 0) != SPVGEN_OK || p.compile_ms > budget))
      continue;
    snprintf(p.selection, sizeof p.selection, "%.56s, compile budget", plan->selection);
    p.estimated_ns_per_point = mlp_select_estimate(caps, &p);
    *plan = p;
    return true;
  }
  return false;
}

/* The stand-ins, in this order: the chosen class with its layers in a loop and with one
 * point per invocation, then the other classes' defaults (vec also looped), then layers
 * (where the caller takes several kernels: its compile is its GEMM kernels', which stays
 * under a second where a fused 256-wide network's runs to 6-14 s on the H100, call
 * S20-1). Of those that keep the speed (keeps_speed) and fit the budget, the fastest by
 * the estimate is taken; where none fits, the cheapest to compile of those that keep the
 * speed, else the choice stays, saying so. */
static void fit_budget(const spvgen_device_caps *caps, const spvgen_mlp_config *base, spvgen_mlp_config *plan,
                       const mlp_select_entry *near, bool layers) {
  const uint32_t budget = mlp_budget_ms(&base->desc);
  if (plan->compile_ms <= budget) return;
  if (fit_measured(caps, base, plan, near, layers, budget)) return;
  const spvgen_mlp_desc *d = &base->desc;
  spvgen_mlp_config cheapest = *plan, fastest, p;
  double fastest_ns = 0;
  bool fits = false;
  static const int classes[] = {MLP_CLASS_VEC_OPT, MLP_CLASS_VEC, MLP_CLASS_MAT, MLP_CLASS_LOOP, MLP_CLASS_LAYERS};
  const int chosen = mlp_select_class(plan);
  for (int ci = -1; ci < (int)(sizeof classes / sizeof classes[0]); ci++) {
    const int cls = ci < 0 ? chosen : classes[ci];
    if ((ci >= 0 && cls == chosen) || !allows(d, cls, NULL)) continue;
    /* layers: no knobs to shorten its compile; a stand-in where the caller takes several
     * kernels and the device's vendor was measured (as in the model, mlp_select) */
    if (cls == MLP_CLASS_LAYERS && (ci < 0 || !layers || !mlp_select_find_device(caps))) continue;
    spvgen_mlp_desc k0 = ci < 0 ? plan->desc : *d; /* the chosen knobs, else the defaults */
    const bool vec = class_variant(cls) == SPVGEN_MLP_VEC;
    /* The staged pieces (vec_stage with 64-row pieces) are not a stand-in: measured far
     * under their class's best with no shorter compile (docs/design-notes.md,
     * "Measurements behind source comments"); they stay knobs a desc may ask for. */
    for (int t = 0; t < (vec ? 6 : 1); t++) {
      spvgen_mlp_desc k = k0;
      const bool ppi1 = t >= 3, loop = t % 3 >= 1, staged = t % 3 == 2;
      if (staged) continue;
      if (ppi1 && (d->points_per_group || k.points_per_group <= 1)) continue;
      if (ppi1) k.points_per_group = 1;
      if (loop && !d->layer_loop) k.layer_loop = true;
      if (staged && !d->vec_stage && !d->vec_rows) k.vec_stage = true, k.vec_rows = 64;
      if ((loop && !k.layer_loop) || (staged && !k.vec_stage)) continue;
      if (cls == MLP_CLASS_LAYERS) {
        if (plan_class(caps, base, cls, NULL, &p, NULL, 0) != SPVGEN_OK) continue;
      } else {
        spvgen_mlp_config b = *base;
        b.desc.weight_layout = cls == MLP_CLASS_VEC_OPT ? SPVGEN_MLP_WEIGHTS_OPTIMAL : SPVGEN_MLP_WEIGHTS_ROW_MAJOR;
        if (mlp_plan_variant(caps, &b, &k, class_variant(cls), &p, NULL, 0) != SPVGEN_OK) continue;
      }
      if (!keeps_speed(caps, plan, &p, near)) continue;
      const double ns = mlp_select_estimate(caps, &p);
      if (p.compile_ms <= budget) {
        if (!fits || ns < fastest_ns) fastest = p, fastest_ns = ns, fits = true;
        continue;
      }
      if (p.compile_ms < cheapest.compile_ms) cheapest = p;
    }
  }
  if (fits) {
    snprintf(fastest.selection, sizeof fastest.selection, "%.56s, compile budget", plan->selection);
    fastest.estimated_ns_per_point = fastest_ns;
    *plan = fastest;
  } else if (cheapest.compile_ms < plan->compile_ms) {
    snprintf(cheapest.selection, sizeof cheapest.selection, "%.52s, cheapest compile", plan->selection);
    cheapest.estimated_ns_per_point = mlp_select_estimate(caps, &cheapest);
    *plan = cheapest;
  } else {
    char sel[sizeof plan->selection];
    snprintf(sel, sizeof sel, "%.48s, over compile budget", plan->selection);
    memcpy(plan->selection, sel, sizeof sel);
  }
}

/* Whether the layers class may be offered: hidden widths of whole 64s (as on every
 * network the class was measured on: 64, 128 and 256 wide), or widths the plan pads
 * (layers.c, pad_width) to whole 128s at most LAYERS_PAD_MAX_WASTE more FLOPs each: the
 * padded hidden GEMMs then run whole 128- and 256-wide tiles, the kernels of a whole-64
 * network. Measured in call S21-2 (H100, bench/results/mlp-2026-11-28-s21.md), padded
 * layers against the looped vec kernel AUTO had taken on the same networks:
 *   - 36-250x4-58 (pads to 256): 1.23x faster, first compile 1.9 s instead of 8.3 s;
 *   - 46-223x8-10 (to 256, 1.32x the FLOPs): 0.87x, 2.3 s instead of 17.6 s;
 *   - 180, 182 and 173 wide (pad to 192: one and a half 128-wide tiles, N edges in every
 *     hidden GEMM) and 205 (to 256, 1.56x the FLOPs): 0.13-0.19x.
 * Those are left to a desc that asks for layers. */
#define LAYERS_PAD_MAX_WASTE 1.35
static bool layers_whole(const spvgen_mlp_config *p) {
  for (uint32_t l = 0; l + 1 < p->layer_count; l++) { /* the resolved layers, as the estimate reads them */
    const uint32_t w = p->layers[l].outputs, pw = mlp_round_up(w, SPVGEN_MLP_LAYERS_PAD);
    if (w == pw) continue;
    if (pw % 128 || (double)pw * pw > LAYERS_PAD_MAX_WASTE * w * w) return false;
  }
  return true;
}

spvgen_status mlp_select(const spvgen_device_caps *caps, const spvgen_mlp_config *base, bool layers,
                         spvgen_mlp_config *plan, char *msg, size_t size) {
  const spvgen_mlp_desc *d = &base->desc;
  layers = layers && layers_whole(base);
  const mlp_select_device *dv = mlp_select_find_device(caps);
  /* 1. the nearest measured network */
  if (dv && dv->entry_count) {
    const mlp_select_entry *near = NULL;
    double best = 1e30;
    for (uint32_t i = 0; i < dv->entry_count; i++) {
      double dist = distance(base, &dv->entries[i]);
      if (dist < best) best = dist, near = &dv->entries[i];
    }
    if (near && best <= MAX_DISTANCE) {
      /* its classes, fastest first */
      int order[MLP_CLASS_COUNT];
      const int n = measured_order(near, d, layers, -1, 0.0f, order);
      for (int i = 0; i < n; i++) {
        int c = order[i];
        /* its measured knobs where the desc leaves them open, else the desc's */
        const mlp_select_knobs *k = allows(d, c, &near->cls[c]) ? &near->cls[c] : NULL;
        if (plan_class(caps, base, c, k, plan, NULL, 0) != SPVGEN_OK &&
            (!k || plan_class(caps, base, c, NULL, plan, NULL, 0) != SPVGEN_OK))
          continue;
        snprintf(plan->selection, sizeof plan->selection, "measured %s %u-%ux%u-%u (distance %.2g)", dv->name,
                 near->encoded_width, near->hidden_width, near->depth, near->output_width, best);
        plan->estimated_ns_per_point = mlp_select_estimate(caps, plan);
        fit_budget(caps, base, plan, near, layers);
        return SPVGEN_OK;
      }
    }
  }
  /* 2. the cost model over the allowed classes' default plans */
  spvgen_status st = SPVGEN_ERROR_UNSUPPORTED;
  bool have = false, tried = false;
  double best = 0;
  static const int classes[] = {MLP_CLASS_VEC_OPT, MLP_CLASS_VEC, MLP_CLASS_MAT, MLP_CLASS_LOOP, MLP_CLASS_LAYERS};
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
    int c = classes[i];
    if (!allows(d, c, NULL)) continue;
    spvgen_mlp_config p;
    if (c == MLP_CLASS_LAYERS) {
      /* where the caller takes several kernels, the planner takes the desc and the
       * device's vendor was measured (the default model's layers fit is an NVIDIA
       * GPU's GEMMs: on lavapipe it would rank the simt GEMMs over the loop variant) */
      if (!layers || !tried || !dv || plan_class(caps, base, c, NULL, &p, NULL, 0) != SPVGEN_OK) continue;
    } else {
      tried = true;
      spvgen_status s = plan_class(caps, base, c, NULL, &p, have ? NULL : msg, have ? 0 : size);
      if (s != SPVGEN_OK) {
        if (!have) st = s;
        continue;
      }
    }
    double t = mlp_select_estimate(caps, &p);
    if (c == MLP_CLASS_LAYERS && t <= 0) continue; /* no fit: no estimate to weigh */
    if (!have || t < best) {
      *plan = p;
      best = t;
    }
    have = true;
  }
  if (!tried) /* no class fits the desc's variant and layout: the variant's own reason */
    return mlp_plan_variant(caps, base, NULL, d->variant != SPVGEN_MLP_AUTO ? d->variant : SPVGEN_MLP_VEC, plan, msg,
                            size);
  if (!have) return st;
  if (msg && size) msg[0] = 0;
  snprintf(plan->selection, sizeof plan->selection, "model");
  plan->estimated_ns_per_point = best;
  fit_budget(caps, base, plan, NULL, layers);
  return SPVGEN_OK;
}
