/* tools/spvgen/cmd_dis.c — `spvgen dis`: disassembles a .spv file (through
 * spvgen_disassemble) with friendly names and aligned columns by default. The module
 * need not be valid, only decodable. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "spvgen/check.h"

static void dis_usage(FILE *out) {
  fputs(
      "usage: spvgen dis [options] FILE\n"
      "\n"
      "Prints the SPIR-V assembly of a binary (\"-\" reads stdin), with ids named after\n"
      "OpName and their types (%float, %main) and result ids aligned.\n"
      "\n"
      "options:\n"
      "  --raw-ids    numeric ids (%12) instead of names\n"
      "  --no-indent  no column alignment\n"
      "  --no-header  leave out the \"; SPIR-V\" header comment lines\n"
      "  --comment    add SPIRV-Tools' explanatory comments\n"
      "  -o OUT       write to OUT instead of stdout (\"-\" is stdout)\n"
      "  -h, --help   this text\n"
      "\n"
      "examples:\n"
      "  spvgen dis gemm.spv | less\n"
      "  spvgen dis --raw-ids --no-indent gemm.spv -o gemm.spvasm\n"
      "  spvgen gemm --m 64 --n 64 --k 64 -o - | spvgen dis -\n"
      "\n"
      "exit status: 0 done, 1 the file is unreadable or cannot be decoded, 2 usage "
      "error\n",
      out);
}

/* Writes text to path ("-" or NULL: stdout). 0 on success, 1 after printing why. */
static int write_text(const char *path, const char *text) {
  int to_stdout = !path || !strcmp(path, "-");
  FILE *f = to_stdout ? stdout : fopen(path, "w");
  if (!f) {
    fprintf(stderr, "spvgen dis: %s: cannot open for writing: %s\n", path, strerror(errno));
    return 1;
  }
  size_t len = strlen(text);
  int ok = fwrite(text, 1, len, f) == len;
  ok = (to_stdout ? fflush(f) : fclose(f)) == 0 && ok;
  if (!ok && to_stdout && spvgen_cli_reader_gone(stdout)) return 0;
  if (!ok) {
    fprintf(stderr, "spvgen dis: %s: write failed\n", to_stdout ? "stdout" : path);
    return 1;
  }
  return 0;
}

int spvgen_cmd_dis(int argc, char **argv) {
  uint32_t flags = SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_INDENT;
  const char *input = NULL, *output = NULL;
  int only_files = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (only_files || a[0] != '-' || !strcmp(a, "-")) {
      if (input)
        return spvgen_cli_usage_error("dis", "one input file only ('%s' and '%s')", input, a);
      input = a;
    } else if (!strcmp(a, "--")) {
      only_files = 1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      dis_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--raw-ids")) {
      flags &= ~(uint32_t)SPVGEN_DIS_FRIENDLY_NAMES;
    } else if (!strcmp(a, "--no-indent")) {
      flags &= ~(uint32_t)SPVGEN_DIS_INDENT;
    } else if (!strcmp(a, "--no-header")) {
      flags |= SPVGEN_DIS_NO_HEADER;
    } else if (!strcmp(a, "--comment")) {
      flags |= SPVGEN_DIS_COMMENT;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error("dis", "%s needs a file name", a);
      output = argv[++i];
    } else {
      return spvgen_cli_usage_error("dis", "unknown option '%s'", a);
    }
  }
  if (!input) return spvgen_cli_usage_error("dis", "no input file");

  uint32_t *words = NULL;
  size_t count = 0;
  if (spvgen_cli_read_spv(input, &words, &count)) return 1;
  char *text = NULL;
  char message[1024];
  spvgen_status status = spvgen_disassemble(words, count, flags, &text, message, sizeof message);
  free(words);
  if (status != SPVGEN_OK) {
    /* The library's message names its own function; at the shell the file matters. */
    const char *msg = message[0] ? message : spvgen_status_name(status);
    const char *prefix = "spvgen_disassemble: ";
    if (!strncmp(msg, prefix, strlen(prefix))) msg += strlen(prefix);
    fprintf(stderr, "spvgen dis: %s: cannot decode: %s\n", input, msg);
    return 1;
  }
  int rc = write_text(output, text);
  spvgen_free_text(text);
  return rc;
}
