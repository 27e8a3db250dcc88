/* lib/template/table.c — the table of templates (template.h): one line per template. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

const sg_template *const sg_templates[] = {
    &sg_template_gemm,
    &sg_template_mlp,
    &sg_template_elementwise,
    NULL,
};

void sg_template_json(const sg_template *t, FILE *out, const void *plan, const spvgen_device_caps *caps,
                      const spvgen_kernel *k, uint32_t count) {
  char name[256];
  t->plan_name(plan, name, sizeof name);
  sg_json j;
  sg_json_start(&j, out);
  sg_json_object(&j, NULL, false);
  sg_json_kernel(&j, t->name, t->variant_name(plan), name, k[0].words, k[0].word_count, &k[0].info);
  if (t->describe) t->describe(plan, caps, &j);
  if (count > 1) {
    sg_json_array(&j, "next_kernels", false);
    for (uint32_t i = 1; i < count; i++) {
      sg_json_object(&j, NULL, false);
      sg_json_str(&j, "kernel", sg_template_kernel_name(t, plan, i));
      sg_json_kernel(&j, t->name, t->variant_name(plan), name, k[i].words, k[i].word_count, &k[i].info);
      sg_json_end(&j);
    }
    sg_json_end(&j);
  }
  sg_json_end(&j);
  sg_json_finish(&j);
}

const char *sg_template_kernel_name(const sg_template *t, const void *plan, uint32_t which) {
  static const char *const plain[] = {"main", "k1", "k2", "k3"};
  if (t->kernel_name && plan) return t->kernel_name(plan, which);
  if (t->kernel_names && which < sg_template_kernels_max) return t->kernel_names[which];
  return which < 4 ? plain[which] : "k";
}

spvgen_status sg_template_build_kernel(const sg_template *t, const void *plan, uint32_t which, spvgen_kernel *k,
                                       char *msg, size_t size) {
  memset(k, 0, sizeof *k);
  spvgen_module_desc md;
  memset(&md, 0, sizeof md);
  md.addressing = t->addressing_model ? t->addressing_model(plan) : SpvAddressingModelLogical;
  spvgen_module *m = spvgen_module_create(&md);
  if (!m) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  const uint32_t *words = NULL;
  size_t count = 0;
  spvgen_status st = sg_template_emit_kernel(t, m, plan, which, &k->info);
  if (st == SPVGEN_OK) st = spvgen_module_finish(m, &words, &count);
  if (st != SPVGEN_OK) snprintf(msg, size, "%s", spvgen_module_error(m));
  if (st == SPVGEN_OK && !(k->words = malloc(count * sizeof *words + 4)))
    st = SPVGEN_ERROR_OUT_OF_MEMORY, snprintf(msg, size, "out of memory");
  if (st == SPVGEN_OK) {
    memcpy(k->words, words, count * sizeof *words);
    k->word_count = count;
    st = spvgen_kernel_reflect(k->words, k->word_count, &k->info, msg, size);
  }
  spvgen_module_destroy(m);
  if (st != SPVGEN_OK) spvgen_kernel_free(k);
  return st;
}

const sg_template *sg_template_find(const char *name) {
  for (size_t i = 0; name && sg_templates[i]; i++)
    if (!strcmp(sg_templates[i]->name, name)) return sg_templates[i];
  return NULL;
}
