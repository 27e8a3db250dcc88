/* emitters/mlp/plan_cost.c — what an MLP plan costs before it runs: the driver's first
 * compile of its kernel, estimated from the plan, and the budget the planner keeps to
 * (spvgen/mlp.h, compile_budget_ms; the GEMM's emitters/gemm/plan_cost.c is the same
 * idea).
 *
 * The driver's compile grows with the code it is given: the matrix products a kernel
 * spells out, the activations, the points an invocation evaluates. Per class (vec with
 * row-major or optimal weights, mat, loop) the estimate is
 *     ms = a + b * p^q * (T + c * A)^e
 * with T the 16 x 16 tiles of the layers' products as the module holds them (vec: each
 * emitted layer's ceil(M / 16) ceil(K / 16), the looped layers of layer_loop once, and
 * with vec_stage a looped layer's one full piece; mat: the MulAdds a subgroup issues per
 * layer, its accumulators times the K fragments; loop: the layer count), A the
 * activations (each emitted layer's outputs weighted by the activation's cost, / 16) and
 * p the points per invocation (vec). The parameters are fitted to first compiles with an
 * empty driver cache by tools/gen_mlp_select.py from the grid benchmark's TSV and live
 * in select_table.c per device; the default ones fit the first grid run on the H100
 * (driver 580: 1.35x rms error over the vec plans, 1.5x over mat, 2x over loop). */
#include <math.h>

#include "mlp_internal.h"
#include "select.h"

/* What a plan may cost when the desc leaves compile_budget_ms at 0. */
#define BUDGET_DEFAULT_MS 1000u

/* An activation's code next to a layer's product (relu 0 .. silu 2.5: the exp, the
 * division and the product). */
static double act_weight(spvgen_mlp_activation a) {
  switch (a) {
  case SPVGEN_MLP_ACT_LEAKY_RELU: return 0.5;
  case SPVGEN_MLP_ACT_TANH: return 1.0;
  case SPVGEN_MLP_ACT_EXP: return 1.0;
  case SPVGEN_MLP_ACT_SIGMOID: return 2.0;
  case SPVGEN_MLP_ACT_SILU: return 2.5;
  default: return 0.0;
  }
}

/* vec: the tiles and activations of the layers as emitted. */
static void vec_size(const spvgen_mlp_config *p, double *T, double *A) {
  uint32_t first = 0, count = 0;
  mlp_vec_loop_layers(p, &first, &count);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint32_t rows = L->outputs;
    if (count && l > first && l < first + count) continue; /* the loop's body is one layer */
    if (count && l == first && p->desc.vec_stage && p->desc.vec_rows && p->desc.vec_rows < rows)
      rows = p->desc.vec_rows + rows % p->desc.vec_rows; /* one looped piece and the rest */
    *T += (double)mlp_ceil_div(rows, 16) * mlp_ceil_div(L->inputs, 16);
    *A += rows * act_weight(L->activation) / 16.0;
  }
}

/* mat: per layer, the MulAdds of one subgroup (its accumulators x the K fragments). */
static void mat_size(const spvgen_mlp_config *p, double *T, double *A) {
  uint32_t sg = p->subgroup_size ? p->subgroup_size : 32;
  uint32_t S = p->local_size[0] / sg, R = p->desc.points_per_group / 16;
  if (!S) S = 1;
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    uint32_t nf = mlp_ceil_div(L->outputs, 16), kf = mlp_ceil_div(L->inputs, 16);
    if (p->desc.mat_slab) /* streamed: Rs chains per output fragment over K padded to whole slabs */
      *T += (double)(R / S ? R / S : 1) * nf * mlp_ceil_div(kf * 16, p->desc.mat_slab) * (p->desc.mat_slab / 16);
    else
      *T += p->desc.mat_rows ? (double)(R / S ? R / S : 1) * nf * kf : (double)R * mlp_ceil_div(nf, S) * kf;
    *A += L->outputs * act_weight(L->activation) / 16.0;
  }
}

uint32_t mlp_compile_ms(const spvgen_device_caps *caps, const spvgen_mlp_config *p) {
  const int cls = mlp_select_class(p);
  const mlp_select_device *dv = caps ? mlp_select_find_device(caps) : NULL;
  const mlp_compile_model *cm = dv ? &dv->compile[cls] : &mlp_compile_default_model[cls];
  double T = 0, A = 0, pts = 1;
  if (p->variant == SPVGEN_MLP_VEC) {
    vec_size(p, &T, &A);
    pts = p->desc.points_per_group > 1 ? p->desc.points_per_group : 1;
  } else if (p->variant == SPVGEN_MLP_MAT) {
    mat_size(p, &T, &A);
  } else {
    T = p->layer_count;
    for (uint32_t l = 0; l < p->layer_count; l++) A += p->layers[l].outputs * act_weight(p->layers[l].activation) / 16.0;
  }
  double ms = cm->a + cm->b * pow(pts, cm->q) * pow(T + cm->c * A, cm->e);
  if (!(ms >= 1.0)) ms = 1.0;
  return ms > 3.6e6 ? 3600000u : (uint32_t)(ms + 0.5);
}

uint32_t mlp_budget_ms(const spvgen_mlp_desc *d) {
  return d->compile_budget_ms ? d->compile_budget_ms : BUDGET_DEFAULT_MS;
}
