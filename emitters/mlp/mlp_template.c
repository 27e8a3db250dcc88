/* emitters/mlp/mlp_template.c — the fused MLP's entry in the table of templates
 * (lib/template/template.h). */
#include <stdio.h>
#include <string.h>

#include "spvgen/mlp.h"
#include "template.h"

SG_TEMPLATE_API(mlp)

static void plan_name(const void *p, char *buf, size_t size) {
  snprintf(buf, size, "%s", ((const spvgen_mlp_config *)p)->name);
}

static const char *variant_name(const void *plan) {
  return spvgen_mlp_variant_name(((const spvgen_mlp_config *)plan)->variant);
}

/* The MLP's members of `spvgen mlp --json`: types, sizes and the weight layout. */
static void describe(const void *plan, sg_json *j) {
  const spvgen_mlp_config *p = plan;
  sg_json_u64(j, "points_per_workgroup", p->points_per_workgroup);
  sg_json_str(j, "input_type", spvgen_component_type_name(p->desc.input_type));
  sg_json_str(j, "output_type", spvgen_component_type_name(p->desc.output_type));
  sg_json_u64(j, "encoded_width", p->encoded_width);
  sg_json_u64(j, "flops_per_point", p->flops_per_point);
  sg_json_u64(j, "weight_bytes", p->weight_bytes);
  sg_json_u64(j, "compile_ms", p->compile_ms);
  sg_json_str(j, "weight_layout", p->desc.weight_layout == SPVGEN_MLP_WEIGHTS_OPTIMAL ? "optimal" : "row-major");
  sg_json_array(j, "layers", false);
  for (uint32_t l = 0; l < p->layer_count; l++) {
    const spvgen_mlp_layer *L = &p->layers[l];
    sg_json_object(j, NULL, true);
    sg_json_u64(j, "inputs", L->inputs);
    sg_json_u64(j, "outputs", L->outputs);
    sg_json_u64(j, "row_stride", L->row_stride);
    sg_json_u64(j, "matrix_offset", L->matrix_offset);
    sg_json_u64(j, "bias_offset", L->bias_offset);
    sg_json_str(j, "activation", spvgen_mlp_activation_name(L->activation));
    sg_json_end(j);
  }
  sg_json_end(j);
  sg_json_u64(j, "shared_bytes", p->shared_bytes);
}

/* Each variant on the preset it targets, on the two networks of the MLP issue and an odd
 * one with an encoding. */
static uint32_t examples(void *descs, const char **presets, uint32_t max) {
  static const struct {
    const char *preset;
    spvgen_mlp_variant variant;
    uint32_t in, width, count, out;
    spvgen_mlp_encoding encoding;
  } rows[] = {
      {"h100", SPVGEN_MLP_VEC, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"vulkan13", SPVGEN_MLP_LOOP, 32, 64, 4, 16, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_VEC, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"vulkan13", SPVGEN_MLP_LOOP, 8, 64, 3, 8, SPVGEN_MLP_ENCODING_NONE},
      {"h100", SPVGEN_MLP_MAT, 3, 33, 3, 4, SPVGEN_MLP_ENCODING_FREQUENCY},
  };
  uint32_t n = 0;
  for (; n < max && n < sizeof rows / sizeof rows[0]; n++) {
    spvgen_mlp_desc *d = (spvgen_mlp_desc *)descs + n;
    memset(d, 0, sizeof *d);
    d->input_width = rows[n].in;
    d->hidden_width = rows[n].width;
    d->hidden_count = rows[n].count;
    d->output_width = rows[n].out;
    d->encoding = rows[n].encoding;
    d->variant = rows[n].variant;
    presets[n] = rows[n].preset;
  }
  return n;
}

static void knobs(const void *plan_, spvgen_tune_knobs *k) {
  const spvgen_mlp_config *p = plan_;
  memset(k, 0, sizeof *k);
  /* the mat variant's rows arrangement rides in the variant's name: "mat-rows" */
  snprintf(k->variant, sizeof k->variant, "%s%s", spvgen_mlp_variant_name(p->variant), p->desc.mat_rows ? "-rows" : "");
  k->workgroup_size = p->desc.workgroup_size;
  k->tile_m = p->desc.points_per_group;
}

/* Another candidate when a knob differs; the accumulation is the desc's choice, never
 * the tuner's. */
static bool candidate(const void *def_, const void *plan_) {
  const spvgen_mlp_config *a = plan_, *b = def_;
  bool same = a->variant == b->variant && a->desc.workgroup_size == b->desc.workgroup_size &&
              a->desc.points_per_group == b->desc.points_per_group;
  return !same && a->desc.f16_accumulation == b->desc.f16_accumulation;
}

static uint32_t addressing_model(const void *plan) { return spvgen_mlp_addressing_model(plan); }

const sg_template sg_template_mlp = {
    .name = "mlp",
    .desc_size = sizeof(spvgen_mlp_desc),
    .plan_size = sizeof(spvgen_mlp_config),
    SG_TEMPLATE_API_FIELDS(mlp),
    .plan_name = plan_name,
    .variant_name = variant_name,
    .describe = describe,
    .examples = examples,
    .knobs = knobs,
    .candidate = candidate,
    .addressing_model = addressing_model,
};
