/* lib/template/table.c — the table of templates (template.h): one line per template. */
#include <string.h>

#include "template.h"

const sg_template *const sg_templates[] = {
    &sg_template_gemm,
    &sg_template_mlp,
    &sg_template_elementwise,
    NULL,
};

const sg_template *sg_template_find(const char *name) {
  for (size_t i = 0; name && sg_templates[i]; i++)
    if (!strcmp(sg_templates[i]->name, name)) return sg_templates[i];
  return NULL;
}
