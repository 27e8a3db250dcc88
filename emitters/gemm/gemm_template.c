/* emitters/gemm/gemm_template.c — the GEMM's entry in the table of templates
 * (lib/template/template.h). */
#include <stdio.h>
#include <string.h>

#include "spvgen/gemm.h"
#include "template.h"

SG_TEMPLATE_API(gemm)

static void plan_name(const void *p, char *buf, size_t size) {
  snprintf(buf, size, "%s", ((const spvgen_gemm_config *)p)->name);
}

/* Each variant on the preset it targets, on a tile-multiple and an odd shape. */
static uint32_t examples(void *descs, const char **presets, uint32_t max) {
  static const struct {
    const char *preset;
    spvgen_gemm_variant variant;
    uint32_t m, n, k;
    spvgen_component_type ab, acc;
  } rows[] = {
      {"h100", SPVGEN_GEMM_COOPMAT2, 8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"h100", SPVGEN_GEMM_COOPMAT2, 2999, 3001, 2997, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 8192, 8192, 8192, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 2999, 3001, 2997, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
      {"h100", SPVGEN_GEMM_COOPMAT_KHR, 8192, 8192, 8192, SPVGEN_COMPONENT_S8, SPVGEN_COMPONENT_S32},
      {"vulkan13", SPVGEN_GEMM_SIMT, 1024, 1024, 1024, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_F32},
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

const sg_template sg_template_gemm = {
    .name = "gemm",
    .desc_size = sizeof(spvgen_gemm_desc),
    .plan_size = sizeof(spvgen_gemm_config),
    SG_TEMPLATE_API_FIELDS(gemm),
    .plan_name = plan_name,
    .examples = examples,
    .knobs = knobs,
    .candidate = candidate,
};
