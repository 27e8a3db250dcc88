/* emitters/elementwise/elementwise_template.c — the elementwise kernel's entry in the
 * table of templates (lib/template/template.h): the smallest template, and the one the
 * "Adding a template" walkthrough of docs/architecture.md follows. Not tuned (its one
 * knob, the local size, matters little for a memory-bound kernel), so no knobs. */
#include <stdio.h>
#include <string.h>

#include "spvgen/elementwise.h"
#include "template.h"

SG_TEMPLATE_API(elementwise)

static void plan_name(const void *p_, char *buf, size_t size) {
  const spvgen_elementwise_config *p = p_;
  static const char *const ops[] = {"add", "mul", "max"};
  unsigned op = (unsigned)p->desc.op;
  snprintf(buf, size, "%s %s w%u", op < 3 ? ops[op] : "?", p->desc.type == SPVGEN_ELEMENTWISE_F16 ? "f16" : "f32",
           p->desc.local_size);
}

static const char *variant_name(const void *plan) {
  (void)plan;
  return "elementwise";
}

/* Each op in f32, and f16 where the device has it. */
static uint32_t examples(void *descs, const char **presets, uint32_t max) {
  static const struct {
    const char *preset;
    spvgen_elementwise_op op;
    spvgen_elementwise_type type;
  } rows[] = {
      {"vulkan13", SPVGEN_ELEMENTWISE_ADD, SPVGEN_ELEMENTWISE_F32},
      {"vulkan13", SPVGEN_ELEMENTWISE_MUL, SPVGEN_ELEMENTWISE_F32},
      {"vulkan13", SPVGEN_ELEMENTWISE_MAX, SPVGEN_ELEMENTWISE_F32},
      {"h100", SPVGEN_ELEMENTWISE_ADD, SPVGEN_ELEMENTWISE_F16},
  };
  uint32_t n = 0;
  for (; n < max && n < sizeof rows / sizeof rows[0]; n++) {
    spvgen_elementwise_desc *d = (spvgen_elementwise_desc *)descs + n;
    memset(d, 0, sizeof *d);
    d->op = rows[n].op;
    d->type = rows[n].type;
    presets[n] = rows[n].preset;
  }
  return n;
}

const sg_template sg_template_elementwise = {
    .name = "elementwise",
    .desc_size = sizeof(spvgen_elementwise_desc),
    .plan_size = sizeof(spvgen_elementwise_config),
    SG_TEMPLATE_API_FIELDS(elementwise),
    .plan_name = plan_name,
    .variant_name = variant_name,
    .examples = examples,
};
