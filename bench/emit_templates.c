/* bench/emit_templates.c — emission speed of every template (lib/template/template.h):
 * plan + emit + finish per module, the way a JIT framework calls it (one module reused
 * with spvgen_module_reset: "warm"; or the one-shot call, which creates, reflects and
 * copies: "one-shot"). One thread; median of 7 runs of N modules.
 * Usage: bench_emit_templates [TEMPLATE [N]] (default: every template, N 2000).
 * Rows: each template's examples (its table entry). Results: bench/results/gemm-emit.md,
 * bench/results/mlp-emit.md (MLP target, issue 12: <= 10 us per module on one core). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "template.h"

#define RUNS 7
#define MAX_EXAMPLES 16

/* The warm and one-shot medians of one desc; false (message printed) on failure. */
static bool measure(const sg_template *t, spvgen_module *m, const void *desc, const spvgen_device_caps *caps, int n,
                    void *plan, size_t *words, double *warm_us, double *cold_us) {
  double warm[RUNS], cold[RUNS];
  char msg[512];
  for (int run = 0; run < RUNS; run++) {
    double t0 = sg_now_us();
    for (int i = 0; i < n; i++) {
      spvgen_module_reset(m, NULL);
      const uint32_t *w;
      if (t->plan(desc, caps, plan, NULL, 0) != SPVGEN_OK || t->emit(m, plan, NULL) != SPVGEN_OK ||
          spvgen_module_finish(m, &w, words) != SPVGEN_OK) {
        fprintf(stderr, "%s: emit failed: %s\n", t->name, spvgen_module_error(m));
        return false;
      }
    }
    warm[run] = (sg_now_us() - t0) / n;
    t0 = sg_now_us();
    for (int i = 0; i < n / 4 + 1; i++) {
      spvgen_kernel k;
      if (t->kernel(desc, caps, &k, msg, sizeof msg) != SPVGEN_OK) {
        fprintf(stderr, "%s: %s\n", t->name, msg);
        return false;
      }
      spvgen_kernel_free(&k);
    }
    cold[run] = (sg_now_us() - t0) / (n / 4 + 1);
  }
  qsort(warm, RUNS, sizeof warm[0], sg_cmp_double);
  qsort(cold, RUNS, sizeof cold[0], sg_cmp_double);
  *warm_us = warm[RUNS / 2];
  *cold_us = cold[RUNS / 2];
  return true;
}

int main(int argc, char **argv) {
  const sg_template *only = NULL;
  int a = 1;
  if (a < argc && !(argv[a][0] >= '0' && argv[a][0] <= '9')) {
    if (!(only = sg_template_find(argv[a]))) {
      fprintf(stderr, "bench_emit_templates: no template '%s'\n", argv[a]);
      return 2;
    }
    a++;
  }
  uint32_t n = 2000;
  if (a < argc && (!sg_parse_u32(argv[a], 1, 1u << 24, &n))) {
    fprintf(stderr, "bench_emit_templates: N '%s' is not a count from 1 to 16777216\n", argv[a]);
    return 2;
  }
  printf("%-11s %-9s %-58s %7s %10s %12s\n", "template", "preset", "plan", "words", "warm us", "one-shot us");
  spvgen_module *m = spvgen_module_create(NULL);
  int rc = 0;
  for (size_t i = 0; sg_templates[i] && !rc; i++) {
    const sg_template *t = sg_templates[i];
    if (only && t != only) continue;
    unsigned char *descs = calloc(MAX_EXAMPLES, t->desc_size), *plan = malloc(t->plan_size);
    const char *presets[MAX_EXAMPLES];
    uint32_t count = descs && plan ? t->examples(descs, presets, MAX_EXAMPLES) : 0;
    for (uint32_t r = 0; r < count && !rc; r++) {
      const void *desc = descs + r * t->desc_size;
      spvgen_device_caps caps;
      spvgen_caps_preset(presets[r], &caps);
      char msg[512], name[160];
      if (t->plan(desc, &caps, plan, msg, sizeof msg) != SPVGEN_OK) {
        printf("%-11s %-9s %s\n", t->name, presets[r], msg);
        continue;
      }
      t->plan_name(plan, name, sizeof name);
      size_t words = 0;
      double warm, cold;
      if (!measure(t, m, desc, &caps, (int)n, plan, &words, &warm, &cold)) rc = 1;
      else printf("%-11s %-9s %-58s %7zu %10.2f %12.2f\n", t->name, presets[r], name, words, warm, cold);
    }
    free(descs);
    free(plan);
  }
  spvgen_module_destroy(m);
  return rc;
}
