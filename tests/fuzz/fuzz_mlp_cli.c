/* tests/fuzz/fuzz_mlp_cli.c — libFuzzer target: the argv of `spvgen mlp` (inference and
 * --train, run in-process, the output to a private temporary file) and of `spvgen tune
 * mlp` (parsed only: tuning needs a device). The input is the arguments, one per line; the
 * first byte picks the command. Arguments with a '/' and -o are dropped (the output goes
 * to the private directory); without --caps, a preset's caps (no device is opened).
 *
 * Contract: exit status 0, 1 or 2; a non-zero status says why on stderr ("spvgen ...");
 * the CLI never reports that it emitted a module that does not validate; a binary
 * output validates. The probe of 2026-11-26 found `--hidden 4294967297` wrapping to 1,
 * `--hidden ''`, `--encoding freq:3junk` and `--leaky-slope abc` accepted: numbers are
 * now read whole (tools/spvgen/args.c). Corpus: tests/data/fuzz-corpus/fuzz_mlp_cli/;
 * dictionary tests/fuzz/fuzz_mlp_cli.dict. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h" /* tools/spvgen */
#include "fuzz_common.h"
#include "spvgen/check.h"

static char g_dir[64], g_out[96], g_err[96];
static FILE *g_errf;

enum { MAX_ARGS = 48 };

static void expect_valid(const uint32_t *w, size_t count) {
  static char vmsg[8192];
  if (spvgen_validate(w, count, NULL, vmsg, sizeof vmsg) == SPVGEN_OK) return;
  FUZZ_FAIL("spvgen mlp's output does not validate: %s", vmsg);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  snprintf(g_dir, sizeof g_dir, "/tmp/spvgen-fuzz-mlp-XXXXXX");
  if (!mkdtemp(g_dir)) FUZZ_FAIL("mkdtemp");
  snprintf(g_out, sizeof g_out, "%s/out.spv", g_dir);
  snprintf(g_err, sizeof g_err, "%s/stderr", g_dir);
  g_errf = fopen(g_err, "w+b");
  if (!g_errf || !freopen("/dev/null", "w", stdout)) FUZZ_FAIL("cannot set up %s", g_dir);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  bool tune = data[0] & 1;
  static char buf[4096];
  size--, data++;
  if (size >= sizeof buf) size = sizeof buf - 1;
  memcpy(buf, data, size);
  buf[size] = 0;
  char *argv[MAX_ARGS + 6]; /* the command, the input's, --caps PRESET, -o OUT and the NULL */
  int argc = 0;
  argv[argc++] = "mlp";
  bool drop_next = false, caps = false;
  for (char *s = buf, *e; s && argc < MAX_ARGS; s = e ? e + 1 : NULL) {
    e = strchr(s, '\n');
    if (e) *e = 0;
    if (drop_next) {
      drop_next = false;
      continue;
    }
    if (strchr(s, '/')) continue;
    if (!strcmp(s, "-o")) {
      drop_next = true;
      continue;
    }
    caps |= !strcmp(s, "--caps");
    argv[argc++] = s;
  }
  rewind(g_errf);
  if (ftruncate(fileno(g_errf), 0)) FUZZ_FAIL("ftruncate");
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(g_errf), 2);
  int rc;
  if (tune) {
    argv[argc] = NULL;
    static spvgen_cli_tune_mlp_args t;
    memset(&t, 0, sizeof t);
    rc = spvgen_cli_parse_tune_mlp(argc, argv, &t);
    if (rc == -1) rc = 0; /* --help */
  } else {
    if (!caps) {
      static const char *const presets[] = {"h100", "vulkan13", "lavapipe"};
      argv[argc++] = "--caps";
      argv[argc++] = (char *)presets[size % 3];
    }
    argv[argc++] = "-o";
    argv[argc++] = g_out;
    argv[argc] = NULL;
    unlink(g_out);
    rc = spvgen_cmd_mlp(argc, argv);
  }
  fflush(stdout);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  static char err[8192];
  size_t n = 0;
  FILE *f = fopen(g_err, "rb");
  if (f) {
    n = fread(err, 1, sizeof err - 1, f);
    fclose(f);
  }
  err[n] = 0;
  if (rc != 0 && rc != 1 && rc != 2) FUZZ_FAIL("spvgen %smlp returned %d", tune ? "tune " : "", rc);
  if (rc && strncmp(err, "spvgen", 6)) FUZZ_FAIL("spvgen mlp failed (%d) without saying why: '%s'", rc, err);
  for (const char *l = err; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (!strncmp(l, "spvgen mlp: the emitted module does not validate", 49)) FUZZ_FAIL("%s", err);
  if (rc || tune) return 0;
  f = fopen(g_out, "rb");
  if (!f) return 0; /* --help, --json, -S */
  static uint32_t words[1 << 18];
  size_t count = fread(words, 4, sizeof words / 4, f);
  fclose(f);
  if (count >= 5 && words[0] == 0x07230203u) expect_valid(words, count);
  return 0;
}
