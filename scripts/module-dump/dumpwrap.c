/* scripts/module-dump/dumpwrap.c — linked into every executable of the build-dump tree with
 * -Wl,--wrap=spvgen_module_finish: each module that finishes with SPVGEN_OK is also
 * written to $SPVGEN_DUMP_DIR/<FNV-1a 64 of its bytes>-<words>.spv. Not part of the
 * library (which never writes files); scripts/module-dump.sh builds and uses it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct spvgen_module spvgen_module;
/* Weak: a link that never references the builder (CMake's compiler checks) still links. */
int __real_spvgen_module_finish(spvgen_module *m, const uint32_t **words, size_t *count)
    __attribute__((weak));
int __wrap_spvgen_module_finish(spvgen_module *m, const uint32_t **words, size_t *count);

int __wrap_spvgen_module_finish(spvgen_module *m, const uint32_t **words, size_t *count) {
  const uint32_t *w = NULL;
  size_t n = 0;
  int st = __real_spvgen_module_finish(m, &w, &n);
  if (words) *words = w;
  if (count) *count = n;
  const char *dir = getenv("SPVGEN_DUMP_DIR");
  if (dir && st == 0 && w && n) {
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)w;
    for (size_t i = 0; i < n * 4; i++) {
      h ^= b[i];
      h *= 1099511628211ull;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%016llx-%zu.spv", dir, (unsigned long long)h, n);
    FILE *f = fopen(path, "wb");
    if (f) {
      fwrite(w, 4, n, f);
      fclose(f);
    }
  }
  return st;
}
