/* tools/spvgen/cmd_val.c — `spvgen val`: validates .spv files with the SPIRV-Tools
 * validator (through spvgen_validate), Vulkan 1.3 rules unless --env says otherwise. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "spvgen/check.h"

static void val_usage(FILE *out) {
  fputs(
      "usage: spvgen val [options] FILE...\n"
      "\n"
      "Validates SPIR-V binaries (\"-\" reads stdin) under the rules of a target\n"
      "environment. Prints \"FILE: valid\" to stdout, or \"FILE: invalid: <reason>\" to\n"
      "stderr.\n"
      "\n"
      "options:\n"
      "  --env ENV              vulkan1.3 (default), vulkan1.4, vulkan1.2, vulkan1.1,\n"
      "                         universal1.6\n"
      "  --scalar-block-layout  VK_EXT_scalar_block_layout rules for block offsets\n"
      "  --relax-block-layout   VK_KHR_relaxed_block_layout rules (already the default\n"
      "                         for Vulkan 1.1 and later)\n"
      "  -h, --help             this text\n"
      "\n"
      "examples:\n"
      "  spvgen val gemm.spv\n"
      "  spvgen val --env vulkan1.2 a.spv b.spv\n"
      "  spvgen gemm --m 64 --n 64 --k 64 -o - | spvgen val -\n"
      "\n"
      "exit status: 0 all valid, 1 a file is invalid or unreadable, 2 usage error\n",
      out);
}

/* Validates one file; 0 valid, 1 not. */
static int validate_file(const char *path, const spvgen_validate_options *options) {
  uint32_t *words = NULL;
  size_t count = 0;
  if (spvgen_cli_read_spv(path, &words, &count)) return 1;
  /* Validator messages quote the offending instruction; 16 KiB holds any of them. */
  static char message[16 * 1024];
  spvgen_status status = spvgen_validate(words, count, options, message, sizeof message);
  free(words);
  if (status == SPVGEN_OK) {
    printf("%s: valid\n", path);
    return 0;
  }
  if (status == SPVGEN_ERROR_VALIDATION)
    fprintf(stderr, "%s: invalid: %s\n", path, message);
  else
    fprintf(stderr, "%s: cannot validate: %s (%s)\n", path, message,
            spvgen_status_name(status));
  return 1;
}

int spvgen_cmd_val(int argc, char **argv) {
  spvgen_validate_options options = {0};
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  if (!files) {
    fprintf(stderr, "spvgen val: out of memory\n");
    return 1;
  }
  int nfiles = 0;
  int only_files = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (only_files || a[0] != '-' || !strcmp(a, "-")) {
      files[nfiles++] = a;
    } else if (!strcmp(a, "--")) {
      only_files = 1;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      val_usage(stdout);
      free(files);
      return 0;
    } else if (!strcmp(a, "--env") || !strncmp(a, "--env=", 6)) {
      const char *name = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
      if (!name) {
        free(files);
        return spvgen_cli_usage_error("val", "%s needs a value", "--env");
      }
      if (spvgen_target_env_parse(name, &options.env) != SPVGEN_OK) {
        free(files);
        return spvgen_cli_usage_error(
            "val",
            "unknown --env '%s' (vulkan1.3, vulkan1.4, vulkan1.2, vulkan1.1, universal1.6)",
            name);
      }
    } else if (!strcmp(a, "--scalar-block-layout")) {
      options.scalar_block_layout = 1;
    } else if (!strcmp(a, "--relax-block-layout")) {
      options.relax_block_layout = 1;
    } else {
      free(files);
      return spvgen_cli_usage_error("val", "unknown option '%s'", a);
    }
  }
  if (nfiles == 0) {
    free(files);
    return spvgen_cli_usage_error("val", "no input file");
  }
  int failed = 0;
  for (int i = 0; i < nfiles; i++) failed |= validate_file(files[i], &options);
  free(files);
  if (fflush(stdout) != 0 && !spvgen_cli_reader_gone(stdout)) {
    fprintf(stderr, "spvgen val: cannot write to stdout\n");
    return 1;
  }
  return failed ? 1 : 0;
}
