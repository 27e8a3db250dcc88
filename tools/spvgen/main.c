/* tools/spvgen/main.c — the spvgen command line: dispatches to a subcommand, and owns
 * what every subcommand shares about standard output: each write is checked (a full disk
 * or /dev/full is exit 1 with the error, whatever the subcommand), and a reader that goes
 * away early (`spvgen dis x.spv | head -1`) ends the command quietly with exit 0:
 * SIGPIPE is ignored, so a write fails with EPIPE instead of killing the process (exit
 * 141), and EPIPE means the reader has what it wanted (docs/cli.md, "Output"). */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
  {"gemm", spvgen_cmd_gemm, "emit a GEMM module (D = alpha*A*B + beta*C ...) for a device"},
  {"mlp", spvgen_cmd_mlp, "emit a fused MLP module (input encoding, hidden layers, activations)"},
  {"run", spvgen_cmd_run, "emit a kernel for this device, run it and check it against the CPU"},
  {"bench", spvgen_cmd_bench, "time a kernel's emission on this CPU, and the kernel on the device"},
  {"tune", spvgen_cmd_tune, "autotune a kernel on this device; list, export and import the tune cache"},
  {"cache", spvgen_cmd_cache, "the kernel cache on disk: path, list, export, import, clear"},
  {"val", spvgen_cmd_val, "validate a .spv file (Vulkan 1.3 rules by default)"},
  {"dis", spvgen_cmd_dis, "disassemble a .spv file"},
  {"devices", spvgen_cmd_devices, "list Vulkan devices and their cooperative capabilities"},
  {"demo", spvgen_cmd_demo, "emit a sample compute kernel, validate it and run it if a device exists"},
  {"version", spvgen_cmd_version, "print the versions of spvgen and of the SPIRV-Tools it validates with"},
};

static void usage(FILE *out) {
  fprintf(out, "usage: spvgen <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  /* the templates whose commands come from their table entry (cmd_template.c) */
  for (size_t i = 0; sg_templates[i]; i++) {
    bool listed = false;
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) listed |= !strcmp(commands[c].name, sg_templates[i]->name);
    if (!listed && spvgen_cli_generic_template(sg_templates[i]->name))
      fprintf(out, "  %-8s emit a %s module: %s (also `spvgen run %s`)\n", sg_templates[i]->name,
              sg_templates[i]->name, sg_templates[i]->summary, sg_templates[i]->name);
  }
  fprintf(out, "\n`spvgen <command> --help` describes each.\n\n"
               "examples:\n"
               "  spvgen gemm --m 1024 --n 1024 --k 1024 -o gemm.spv   # emit for this machine's device\n"
               "  spvgen gemm --m 64 --n 64 --k 64 --caps h100 -S      # disassembly, for an H100\n"
               "  spvgen run gemm --m 256 --n 256 --k 256              # run it and check it\n"
               "  spvgen tune gemm --m 4096 --n 4096 --k 4096        # find its fastest plan, cache it\n"
               "  spvgen val gemm.spv && spvgen dis gemm.spv\n"
               "\nexit status: 0 ok, 1 failure, 2 usage error\n");
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  const sg_template *t = spvgen_cli_generic_template(argv[1]);
  if (t) return spvgen_cmd_template(t, argc - 1, argv + 1);
  fprintf(stderr, "spvgen: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return 2;
}

/* The exit status once stdout is flushed and closed: rc, or 1 with the error when a
 * write to stdout failed (and the command did not fail already); rc when the reader went
 * away (EPIPE). */
static int finish_stdout(int rc) {
  errno = 0;
  bool failed = fflush(stdout) != 0 || ferror(stdout);
  int err = errno;
  if (fclose(stdout) != 0 && !failed) {
    failed = true;
    err = errno;
  }
  if (!failed || err == EPIPE || spvgen_cli_reader_gone(stdout)) return rc;
  if (rc == 0) {
    fprintf(stderr, "spvgen: writing standard output failed: %s\n",
            err ? strerror(err) : "an earlier write failed");
    return 1;
  }
  return rc;
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  return finish_stdout(dispatch(argc, argv));
}
