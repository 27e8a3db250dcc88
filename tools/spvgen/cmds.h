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
int spvgen_cmd_gemm(int argc, char **argv);     /* cmd_gemm.c: spvgen_cmd_template over the GEMM */
int spvgen_cmd_mlp(int argc, char **argv);      /* cmd_mlp.c: `spvgen mlp` (--train: two kernels) */
int spvgen_cmd_run(int argc, char **argv);      /* cmd_template.c: `spvgen run NAME` */
int spvgen_cmd_bench(int argc, char **argv);    /* cmd_template.c: `spvgen bench NAME` */
int spvgen_cmd_tune(int argc, char **argv);     /* cmd_tune.c */
int spvgen_cmd_cache(int argc, char **argv);    /* cmd_cache.c */
int spvgen_cmd_bench_trace(int argc, char **argv); /* cmd_trace.c: `spvgen bench trace` */
int spvgen_cmd_run_gemm(int argc, char **argv);    /* cmd_gemm.c: `spvgen run gemm` */
int spvgen_cmd_bench_gemm(int argc, char **argv);  /* cmd_gemm.c: `spvgen bench gemm` */
int spvgen_cmd_run_mlp(int argc, char **argv);     /* cmd_mlp.c: `spvgen run mlp` */
int spvgen_cmd_bench_mlp(int argc, char **argv);   /* cmd_mlp.c: `spvgen bench mlp` */

/* ---------------------------------------------------------------- flags ---- */
/* A table of flags and what its parsers write into (a desc, a command's options). */
typedef struct spvgen_cli_flags {
  const sg_flag *flags; /* NULL ends a list of sets */
  void *target;
} spvgen_cli_flags;

/* argv[1..] against the sets (cmd_template.c): each argument a flag of one of them
 * ("--flag value", "--flag=value", or a switch). 0 parsed; -1 -h/--help seen (the caller
 * prints its usage); 2 usage error, printed naming the flag ("spvgen CMD: --m: 'x' is not
 * a number ..."), an unknown one, or one without its value. */
int spvgen_cli_parse(const char *cmd, const spvgen_cli_flags *sets, int argc, char **argv);
/* Template t's flags into desc (which the caller initialised: t->flags_init) and the
 * sets of more (NULL-terminated; at most 6), then t->flags_done: as spvgen_cli_parse. */
int spvgen_cli_template_parse(const char *cmd, const sg_template *t, void *desc, const spvgen_cli_flags *more, int argc,
                              char **argv);
/* A table's usage lines ("  --op add|mul|max         c[i] = ..."; headings as they are). */
void spvgen_cli_flags_usage(FILE *o, const sg_flag *flags);

/* The output options of an emitting command: -o, -S, --json, --c-header. */
typedef struct spvgen_cli_emit {
  const char *caps;     /* --caps (spvgen_cli_caps_flags: its target is a const char *) */
  const char *output;   /* -o (NULL: NAME.spv, or stdout for the text forms) */
  const char *c_header; /* --c-header NAME */
  bool disassemble, json;
  uint32_t outputs;     /* how many of -S, --json, --c-header were given (one at most) */
} spvgen_cli_emit;
extern const sg_flag spvgen_cli_emit_flags[];
/* --caps NAME|FILE into a const char * (the set's target). */
extern const sg_flag spvgen_cli_caps_flags[];

/* `spvgen NAME`: plan desc for the caps e names, emit, validate, write as e asks. 0 ok,
 * 1 refused / invalid / unwritable, 2 usage error (all printed). */
int spvgen_cli_emit_kernel(const sg_template *t, const void *desc, const spvgen_cli_emit *e, int argc, char **argv);
/* Opens path for writing ("-": stdout), NULL after printing why; closes it (flushes
 * stdout): 0 ok, 1 after printing why. */
FILE *spvgen_cli_open_output(const char *cmd, const char *path, bool binary);
int spvgen_cli_close_output(const char *cmd, FILE *f, const char *path);

/* `spvgen tune NAME`'s own flags (cmd_template.c): the tuner's options. */
typedef struct spvgen_cli_tune_options {
  double budget_seconds;   /* 0: the tuner's default */
  const char *cache;       /* NULL: the default cache file */
  uint32_t max_candidates; /* 0: all */
  uint32_t repeats;        /* 0: the tuner's default */
  uint64_t seed;
  uint64_t points;         /* MLP (--points): 0: the tuner's default */
} spvgen_cli_tune_options;
extern const sg_flag spvgen_cli_tune_flags[];
/* The usage of `spvgen tune NAME` around t's flags (intro: what it does; more: flags of
 * the template's own after the tuner's; examples). */
void spvgen_cli_tune_usage(FILE *o, const sg_template *t, const char *intro, const sg_flag *more, const char *examples);

/* `spvgen tune gemm` / `tune mlp`: the problem flags of `spvgen gemm` / `spvgen mlp`
 * plus the tuner's. Parse (argv[0] is "gemm" / "mlp"): 0 parsed, -1 --help printed, 2
 * usage error (printed). cmd_gemm.c / cmd_mlp.c. */
typedef struct spvgen_cli_tune_args {
  spvgen_gemm_desc desc;
  spvgen_cli_tune_options tune;
} spvgen_cli_tune_args;
int spvgen_cli_parse_tune_gemm(int argc, char **argv, spvgen_cli_tune_args *out);
typedef struct spvgen_cli_tune_mlp_args {
  spvgen_mlp_desc desc;
  spvgen_cli_tune_options tune;
} spvgen_cli_tune_mlp_args;
int spvgen_cli_parse_tune_mlp(int argc, char **argv, spvgen_cli_tune_mlp_args *out);

/* The commands of a template from its table entry (cmd_template.c): `spvgen NAME` and
 * `spvgen run NAME` for a template with flags and run hooks. */
int spvgen_cmd_template(const sg_template *t, int argc, char **argv);
int spvgen_cmd_run_template(const sg_template *t, int argc, char **argv);
/* The template `spvgen NAME` / `spvgen run NAME` reach through cmd_template.c: a table
 * entry with flags; NULL if name is none. */
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
