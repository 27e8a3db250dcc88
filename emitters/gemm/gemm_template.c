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

static const char *variant_name(const void *plan) {
  return spvgen_gemm_variant_name(((const spvgen_gemm_config *)plan)->variant);
}

/* The GEMM's members of `spvgen gemm --json`: the shape, tile, class and split-K. */
static void describe(const void *plan, sg_json *j) {
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
  sg_json_end(j);
  sg_json_u64(j, "compile_ms_estimate", p->compile_ms);
  char key[24];
  snprintf(key, sizeof key, "%016llx", (unsigned long long)spvgen_gemm_class_key(p));
  sg_json_str(j, "class_key", key);
  if (p->workspace_bytes) {
    sg_json_u64(j, "split_k", p->desc.split_k);
    sg_json_u64(j, "slice_k", p->slice_k);
    sg_json_u64(j, "workspace_bytes", p->workspace_bytes);
    sg_json_u64(j, "workspace_counters_offset", p->workspace_counters * 4u);
  }
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

static uint32_t addressing_model(const void *plan) { return spvgen_gemm_addressing_model(plan); }

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
};
