/* lib/template/table.c — the table of templates (template.h): one line per template. */
#include <stdio.h>
#include <string.h>

#include "template.h"

const sg_template *const sg_templates[] = {
    &sg_template_gemm,
    &sg_template_mlp,
    &sg_template_elementwise,
    NULL,
};

void sg_template_json(const sg_template *t, FILE *out, const void *plan, const spvgen_kernel *k) {
  char name[256];
  t->plan_name(plan, name, sizeof name);
  sg_json j;
  sg_json_start(&j, out);
  sg_json_object(&j, NULL, false);
  sg_json_kernel(&j, t->name, t->variant_name(plan), name, k->words, k->word_count, &k->info);
  if (t->describe) t->describe(plan, &j);
  sg_json_end(&j);
  sg_json_finish(&j);
}

const sg_template *sg_template_find(const char *name) {
  for (size_t i = 0; name && sg_templates[i]; i++)
    if (!strcmp(sg_templates[i]->name, name)) return sg_templates[i];
  return NULL;
}
