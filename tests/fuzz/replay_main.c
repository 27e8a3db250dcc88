/* tests/fuzz/replay_main.c — the main() of a fuzz target outside the fuzz preset: runs
 * LLVMFuzzerTestOneInput once on each file named (a directory: each file in it), so that
 * the corpus kept in tests/data/fuzz-corpus/<target>/ (seeds and every input that once broke a
 * contract) replays in the ordinary -Werror and sanitizer builds as a ctest.
 *   fuzz_<target> FILE|DIR...   exit 0 when every input passed (a failure aborts). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  static uint8_t buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  /* A copy of exactly n bytes, so that ASan sees reads past the input. */
  uint8_t *copy = malloc(n ? n : 1);
  if (!copy) return 1;
  memcpy(copy, buf, n);
  LLVMFuzzerTestOneInput(copy, n);
  free(copy);
  return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
  /* Absolute paths first: a target may change directory in its initialization. */
  for (int i = 1; i < argc; i++) {
    char *abs = realpath(argv[i], NULL);
    if (!abs) {
      fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      return 1;
    }
    argv[i] = abs;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  int inputs = 0, bad = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st)) {
      fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      bad |= run_file(argv[i]);
      inputs++;
      continue;
    }
    DIR *d = opendir(argv[i]);
    if (!d) return 1;
    char *names[4096];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 4096;)
      if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp);
    for (int j = 0; j < n; j++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], names[j]);
      bad |= run_file(path);
      inputs++;
      free(names[j]);
    }
  }
  fprintf(stderr, "replay: %d inputs, no contract broken\n", inputs);
  return bad || !inputs;
}
