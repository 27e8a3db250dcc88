/* bench/emit_count.c — instructions per module for the rows of bench_emit_templates (each
 * template's examples; warm path: reset + plan + emit + finish), for machines too loaded for
 * wall-clock numbers. Run under callgrind:
 *   valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=/tmp/cg.%p \
 *     build-release/bench/bench_emit_count 200
 * It prints the rows; callgrind writes one dump per row ("Desc: Trigger: Client Request:
 * <row>", its "summary:" line is that row's instruction count for N modules), which
 * scripts/emit-count.sh divides by N. Outside valgrind it only emits. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(s) ((void)(s))
#endif

#define MAX_EXAMPLES 16

/* One warm module of desc; false when planning or emission fails. */
static bool emit_one(const sg_template *t, spvgen_module *m, const void *desc, const spvgen_device_caps *caps,
                     void *plan, size_t *words) {
  const uint32_t *w;
  spvgen_module_reset(m, NULL);
  return t->plan(desc, caps, plan, NULL, 0) == SPVGEN_OK && t->emit(m, plan, NULL) == SPVGEN_OK &&
         spvgen_module_finish(m, &w, words) == SPVGEN_OK;
}

int main(int argc, char **argv) {
  uint32_t n = 200;
  if (argc > 1 && !sg_parse_u32(argv[1], 1, 1u << 24, &n)) {
    fprintf(stderr, "bench_emit_count: N '%s' is not a count from 1 to 16777216\n", argv[1]);
    return 2;
  }
  spvgen_module *m = spvgen_module_create(NULL);
  char label[200], name[160];
  int rc = 0;
  for (size_t ti = 0; sg_templates[ti] && !rc; ti++) {
    const sg_template *t = sg_templates[ti];
    unsigned char *descs = calloc(MAX_EXAMPLES, t->desc_size), *plan = malloc(t->plan_size);
    const char *presets[MAX_EXAMPLES];
    uint32_t count = descs && plan ? t->examples(descs, presets, MAX_EXAMPLES) : 0;
    for (uint32_t r = 0; r < count && !rc; r++) {
      const void *desc = descs + r * t->desc_size;
      spvgen_device_caps caps;
      spvgen_caps_preset(presets[r], &caps);
      size_t words = 0;
      for (int warmup = 0; warmup < 2 && !rc; warmup++) /* the first module grows the arrays */
        if (!emit_one(t, m, desc, &caps, plan, &words)) {
          fprintf(stderr, "%s: emit failed: %s\n", t->name, spvgen_module_error(m));
          rc = 1;
        }
      if (rc) break;
      t->plan_name(plan, name, sizeof name);
      snprintf(label, sizeof label, "%s%u %s %s %zu words", t->name, r, presets[r], name, words);
      CALLGRIND_TOGGLE_COLLECT;
      for (uint32_t i = 0; i < n && !rc; i++)
        if (!emit_one(t, m, desc, &caps, plan, &words)) rc = 1;
      CALLGRIND_TOGGLE_COLLECT;
      CALLGRIND_DUMP_STATS_AT(label);
      printf("%s\n", label);
    }
    free(descs);
    free(plan);
  }
  spvgen_module_destroy(m);
  return rc;
}
