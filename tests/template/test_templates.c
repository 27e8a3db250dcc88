/* tests/template/test_templates.c — the table of templates (lib/template/template.h):
 * every entry complete, found by name, and each of its examples planned, emitted through
 * the table (a valid module, the same words as the template's own one-shot call), its
 * plans listed with the default among them, the kernel metadata JSON through the table,
 * and the tuner's candidate rule refusing the default itself. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "template.h"

#define MAX_EXAMPLES 16

static void test_table_complete(void) {
  size_t n = 0;
  for (; sg_templates[n]; n++) {
    const sg_template *t = sg_templates[n];
    CHECK_MSG(t->name && t->desc_size && t->plan_size && t->plan && t->plans && t->emit && t->kernel &&
                  t->plan_name && t->variant_name && t->examples,
              "template %zu (%s) lacks an operation", n, t->name ? t->name : "?");
    CHECK_MSG(!t->knobs == !t->candidate, "%s: knobs and candidate come together", t->name);
    CHECK(sg_template_find(t->name) == t);
  }
  CHECK_EQ_U64(n, 3);
  CHECK(sg_template_find("elementwise") == &sg_template_elementwise);
  CHECK(sg_template_find("nope") == NULL);
  CHECK(sg_template_find(NULL) == NULL);
}

/* One example through the table: plan, emit into a module, validate, compare with the
 * one-shot kernel's words; plans lists at least one plan. */
static uint32_t g_multi_kernel_examples; /* examples whose plan has several kernels */

static void check_example(const sg_template *t, const void *desc, const char *preset) {
  spvgen_device_caps caps;
  CHECK(spvgen_caps_preset(preset, &caps) == SPVGEN_OK);
  unsigned char *plan = calloc(1, t->plan_size);
  char msg[512], name[160];
  spvgen_status st = t->plan(desc, &caps, plan, msg, sizeof msg);
  CHECK_MSG(st == SPVGEN_OK, "%s on %s: %s", t->name, preset, msg);
  if (st != SPVGEN_OK) return free(plan);
  t->plan_name(plan, name, sizeof name);
  CHECK_MSG(name[0], "%s: an empty plan name", t->name);

  spvgen_module *m = spvgen_module_create(NULL);
  /* kernel 0 (the MLP's one-kernel emit refuses a plan of several) */
  CHECK((t->emit_kernel ? t->emit_kernel(m, plan, 0, NULL) : t->emit(m, plan, NULL)) == SPVGEN_OK);
  size_t count = 0;
  const uint32_t *words = check_module(m, &count);
  spvgen_kernel k;
  st = t->kernel(desc, &caps, &k, msg, sizeof msg);
  /* the one-shot gives one kernel: a plan of several (a packed or split-K GEMM) has no
   * one-shot twin, and the one-shot plans the single-kernel form instead, or (the MLP's
   * layers, a kernel per layer) refuses naming the per-kernel emit; each of the plan's
   * kernels validates */
  const uint32_t kernels = sg_template_kernels(t, plan);
  const bool one_kernel = kernels == 1;
  const bool refused = !one_kernel && st == SPVGEN_ERROR_UNSUPPORTED && strstr(msg, "emit_kernel");
  CHECK_MSG(st == SPVGEN_OK || refused, "%s one-shot: %s", t->name, msg);
  if (!one_kernel) g_multi_kernel_examples++;
  for (uint32_t w = 1; w < kernels; w++) {
    spvgen_module *mk = spvgen_module_create(NULL);
    CHECK_MSG(sg_template_emit_kernel(t, mk, plan, w, NULL) == SPVGEN_OK, "%s (%s): kernel %u", t->name, name, w);
    size_t kc = 0;
    CHECK_MSG(check_module(mk, &kc) != NULL && kc > 0, "%s (%s): kernel %u validates", t->name, name, w);
    spvgen_module_destroy(mk);
  }
  if (words && st == SPVGEN_OK) {
    if (one_kernel) {
      CHECK_EQ_U64(k.word_count, count);
      CHECK_MSG(k.word_count == count && !memcmp(k.words, words, count * 4), "%s (%s): table and one-shot differ",
                t->name, name);
    }
    /* The metadata JSON: the common members, then the template's own. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f != NULL);
    if (f) {
      sg_template_json(t, f, plan, NULL, &k, 1);
      fclose(f);
      char want[64];
      snprintf(want, sizeof want, "\"template\": \"%s\"", t->name);
      CHECK_MSG(text && text[0] == '{' && strstr(text, want) && strstr(text, "\"hash_algorithm\"") &&
                    len > 2 && text[len - 2] == '}' && text[len - 1] == '\n',
                "%s: metadata JSON:\n%s", t->name, text ? text : "(none)");
      free(text);
    }
  }
  if (st == SPVGEN_OK) spvgen_kernel_free(&k);
  spvgen_module_destroy(m);

  uint32_t n = 0;
  CHECK(t->plans(desc, &caps, NULL, 0, &n, msg, sizeof msg) == SPVGEN_OK);
  CHECK_MSG(n >= 1, "%s (%s): no plans", t->name, name);
  if (t->candidate) CHECK_MSG(!t->candidate(plan, plan), "%s: the default plan is its own candidate", t->name);
  if (t->knobs) {
    spvgen_tune_knobs kn;
    t->knobs(plan, &kn);
    CHECK_MSG(kn.variant[0], "%s (%s): knobs without a variant", t->name, name);
  }
  free(plan);
}

static void test_examples(void) {
  for (size_t i = 0; sg_templates[i]; i++) {
    const sg_template *t = sg_templates[i];
    unsigned char *descs = calloc(MAX_EXAMPLES, t->desc_size);
    const char *presets[MAX_EXAMPLES];
    uint32_t count = t->examples(descs, presets, MAX_EXAMPLES);
    CHECK_MSG(count >= 1, "%s: no examples", t->name);
    CHECK_EQ_U64(t->examples(descs, presets, 1), count ? 1 : 0); /* max is respected */
    count = t->examples(descs, presets, MAX_EXAMPLES);
    for (uint32_t r = 0; r < count; r++) check_example(t, descs + r * t->desc_size, presets[r]);
    free(descs);
  }
  /* the GEMM's packed example: a plan of several kernels, each validated above */
  CHECK_MSG(g_multi_kernel_examples >= 1, "no example with several kernels");
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_table_complete),
      TEST_CASE(test_examples),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
