/* tests/fuzz/fuzz_tune.c — libFuzzer target: the tune cache reader (lib/tune/cache.c) on
 * arbitrary bytes, as a file (spvgen_tune_cache_open) and as text
 * (spvgen_tune_cache_import_text).
 *
 * Contract: no crash; whatever is read can be written back and reads back the same:
 * export_text of what was read, imported into an empty cache, gives as many entries,
 * each found by its key, and exporting that gives the same text (a line the reader
 * accepts is one the writer writes: the import counts of issue 27). A file is read
 * within the size cap; the compiled-in layer is left out (tune_cache_open_with_builtin)
 * so the counts are the file's. Corpus: tests/data/fuzz-corpus/fuzz_tune/ (real caches,
 * CRLF, duplicated keys, the probe's expanding entry); dictionary tests/fuzz/fuzz_tune.dict. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "spvgen/tune.h"
#include "tune_internal.h"

static char g_path[64];

static spvgen_tune_cache *empty_cache(void) {
  spvgen_tune_cache *c = NULL;
  char msg[512];
  /* A path that never exists: the cache starts empty, and nothing here saves. */
  if (tune_cache_open_with_builtin("/nonexistent/spvgen-fuzz-tune.txt", NULL, 0, &c, msg, sizeof msg) != SPVGEN_OK)
    FUZZ_FAIL("open: %s", msg);
  return c;
}

/* export_text(c) imported into an empty cache: the same entries, the same text. */
static void round_trip(const spvgen_tune_cache *c) {
  char *text = NULL, msg[512];
  size_t len = 0;
  uint32_t n = 0, n2 = 0;
  if (spvgen_tune_cache_export_text(c, &text, &len, &n, msg, sizeof msg) != SPVGEN_OK) FUZZ_FAIL("export_text: %s", msg);
  if (n != spvgen_tune_cache_count(c)) FUZZ_FAIL("export_text wrote %u of %u entries", n, spvgen_tune_cache_count(c));
  spvgen_tune_cache *back = empty_cache();
  if (spvgen_tune_cache_import_text(back, text, len, &n2, msg, sizeof msg) != SPVGEN_OK)
    FUZZ_FAIL("re-import of exported text failed: %s", msg);
  if (msg[0]) FUZZ_FAIL("re-import of exported text dropped lines: %s", msg);
  if (n2 != n || spvgen_tune_cache_count(back) != n) FUZZ_FAIL("exported %u, re-imported %u", n, n2);
  for (uint32_t i = 0; i < n; i++) {
    spvgen_tune_entry e, f;
    if (!spvgen_tune_cache_entry(c, i, &e)) FUZZ_FAIL("entry %u missing", i);
    if (!spvgen_tune_cache_lookup(back, e.key, &f)) FUZZ_FAIL("key %.60s lost in the round trip", e.key);
    if (f.median_ns != e.median_ns || f.m != e.m || strcmp(f.knobs.variant, e.knobs.variant))
      FUZZ_FAIL("key %.60s changed in the round trip", e.key);
  }
  char *again = NULL;
  size_t len2 = 0;
  if (spvgen_tune_cache_export_text(back, &again, &len2, NULL, msg, sizeof msg) != SPVGEN_OK)
    FUZZ_FAIL("export_text again: %s", msg);
  if (len2 != len || memcmp(again, text, len)) FUZZ_FAIL("the text changed in a round trip");
  spvgen_tune_free_text(text);
  spvgen_tune_free_text(again);
  spvgen_tune_cache_close(back);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  snprintf(g_path, sizeof g_path, "/tmp/spvgen-fuzz-tune-%ld.txt", (long)getpid());
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char msg[512];
  uint32_t n = 0;
  /* As text. */
  spvgen_tune_cache *c = empty_cache();
  spvgen_status st = spvgen_tune_cache_import_text(c, (const char *)data, size, &n, msg, sizeof msg);
  if (st != SPVGEN_OK && st != SPVGEN_ERROR_IO) FUZZ_FAIL("import_text returned %d", (int)st);
  if (st == SPVGEN_OK && n != spvgen_tune_cache_count(c))
    FUZZ_FAIL("import_text counted %u, the cache holds %u", n, spvgen_tune_cache_count(c));
  round_trip(c);
  spvgen_tune_cache_close(c);
  /* As a file, one input in four (the file path: size checks, CR handling, messages). */
  if (size && data[0] % 4 == 0) {
    FILE *f = fopen(g_path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    c = NULL;
    if (tune_cache_open_with_builtin(g_path, NULL, 0, &c, msg, sizeof msg) != SPVGEN_OK) FUZZ_FAIL("open: %s", msg);
    round_trip(c);
    spvgen_tune_cache_close(c);
    unlink(g_path);
  }
  return 0;
}
