/* tools/spvgen/cmds.h — the spvgen CLI's subcommands. Each returns the process exit
 * status: 0 success, 1 failure (invalid module, failed check), 2 usage error. Each one
 * prints its own --help. */
#ifndef SPVGEN_CLI_CMDS_H
#define SPVGEN_CLI_CMDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spvgen/gemm.h"
#include "spvgen/mlp.h"
#include "template.h"

int spvgen_cmd_val(int argc, char **argv);      /* cmd_val.c */
int spvgen_cmd_dis(int argc, char **argv);      /* cmd_dis.c */
int spvgen_cmd_devices(int argc, char **argv);  /* cmd_devices.c */
int spvgen_cmd_demo(int argc, char **argv);     /* cmd_demo.c */
int spvgen_cmd_version(int argc, char **argv);  /* cmd_version.c */
int spvgen_cmd_gemm(int argc, char **argv);     /* cmd_gemm.c */
int spvgen_cmd_run(int argc, char **argv);      /* cmd_gemm.c */
int spvgen_cmd_bench(int argc, char **argv);    /* cmd_gemm.c */
int spvgen_cmd_tune(int argc, char **argv);     /* cmd_tune.c */
int spvgen_cmd_cache(int argc, char **argv);    /* cmd_cache.c */
int spvgen_cmd_bench_trace(int argc, char **argv); /* cmd_trace.c: `spvgen bench trace` */

/* `spvgen tune gemm`'s flags: the problem flags of `spvgen gemm` plus the tuner's. */
typedef struct spvgen_cli_tune_args {
  spvgen_gemm_desc desc;
  double budget_seconds;   /* 0: the tuner's default */
  const char *cache;       /* NULL: the default cache file */
  uint32_t max_candidates; /* 0: all */
  uint32_t repeats;        /* 0: the tuner's default */
  uint64_t seed;
} spvgen_cli_tune_args;

/* Parses `spvgen tune gemm` arguments (argv[0] is "gemm"): 0 parsed, -1 --help printed,
 * 2 usage error (printed). cmd_gemm.c. */
int spvgen_cli_parse_tune_gemm(int argc, char **argv, spvgen_cli_tune_args *out);
int spvgen_cmd_mlp(int argc, char **argv);      /* cmd_mlp.c */

/* `spvgen tune mlp`'s flags: the network and knob flags of `spvgen mlp` plus the tuner's. */
typedef struct spvgen_cli_tune_mlp_args {
  spvgen_mlp_desc desc;
  uint64_t points;         /* 0: the tuner's default */
  double budget_seconds;   /* 0: the tuner's default */
  const char *cache;       /* NULL: the default cache file */
  uint32_t max_candidates; /* 0: all */
  uint32_t repeats;        /* 0: the tuner's default */
  uint64_t seed;
} spvgen_cli_tune_mlp_args;

/* Parses `spvgen tune mlp` arguments (argv[0] is "mlp"): 0 parsed, -1 --help printed,
 * 2 usage error (printed). cmd_mlp.c. */
int spvgen_cli_parse_tune_mlp(int argc, char **argv, spvgen_cli_tune_mlp_args *out);
int spvgen_cmd_run_mlp(int argc, char **argv);  /* cmd_mlp.c: `spvgen run mlp` */
int spvgen_cmd_bench_mlp(int argc, char **argv); /* cmd_mlp.c: `spvgen bench mlp` */

/* The commands of a template from its table entry (cmd_template.c): `spvgen NAME` and
 * `spvgen run NAME` for a template with flags and run hooks but no command of its own. */
int spvgen_cmd_template(const sg_template *t, int argc, char **argv);
int spvgen_cmd_run_template(const sg_template *t, int argc, char **argv);
/* argv[*i] as one of t's flags, parsed into desc (its value consumed): 0 parsed, 1 not a
 * flag of t, 2 usage error naming the flag (printed as "spvgen CMD: --flag: 'value' why"). */
int spvgen_cli_template_flag(const char *cmd, const sg_template *t, int argc, char **argv, int *i, void *desc);
/* t's flags as usage lines ("  --op add|mul|max   c[i] = ..."). */
void spvgen_cli_template_usage(FILE *o, const sg_template *t);
/* The template `spvgen NAME` / `spvgen run NAME` reach through cmd_template.c: a table
 * entry with flags (gemm and mlp have commands of their own); NULL if name is none. */
const sg_template *spvgen_cli_generic_template(const char *name);

/* Prints "spvgen COMMAND: <message>" and where to find the usage on stderr; returns 2,
 * the usage-error exit status. */
int spvgen_cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Whether the write to f that just failed (errno) was only the reader of standard output
 * going away (EPIPE: main ignores SIGPIPE): the reader has what it wanted, and the
 * command ends quietly with exit 0 rather than as a failure (docs/cli.md, "Output"). */
bool spvgen_cli_reader_gone(FILE *f);

/* The caps a command runs against (io.c): caps_name a preset or a caps file (what
 * `spvgen devices --json` wrote), or with caps_name NULL the first device's, else
 * vulkan13. Returns 0, or prints "spvgen CMD: --caps ...: why" (the caps parser's own
 * message for a malformed file) and returns 1 (a bad file) or 2 (neither a preset nor a
 * readable file: a usage error). */
int spvgen_cli_resolve_caps(const char *cmd, const char *caps_name, spvgen_device_caps *caps);

/* A flag's unsigned 32-bit value (sg_parse_u32 over the whole range): false when the
 * text is not a number; the caller's usage error names the flag. */
bool spvgen_cli_u32(const char *s, uint32_t *out);

/* Reads a whole .spv file. Returns 0 and malloc'd words, or prints why and returns 1
 * (unreadable, size not a multiple of 4, empty). */
int spvgen_cli_read_spv(const char *path, uint32_t **words, size_t *count);

#endif
