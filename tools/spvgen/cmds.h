/* tools/spvgen/cmds.h — the spvgen CLI's subcommands. Each returns the process exit
 * status: 0 success, 1 failure (invalid module, failed check), 2 usage error. Each one
 * prints its own --help. */
#ifndef SPVGEN_CLI_CMDS_H
#define SPVGEN_CLI_CMDS_H

#include <stddef.h>
#include <stdint.h>

int spvgen_cmd_val(int argc, char **argv);      /* cmd_val.c */
int spvgen_cmd_dis(int argc, char **argv);      /* cmd_dis.c */
int spvgen_cmd_devices(int argc, char **argv);  /* cmd_devices.c */
int spvgen_cmd_demo(int argc, char **argv);     /* cmd_demo.c */
int spvgen_cmd_version(int argc, char **argv);  /* cmd_version.c */
int spvgen_cmd_gemm(int argc, char **argv);     /* cmd_gemm.c */
int spvgen_cmd_run(int argc, char **argv);      /* cmd_gemm.c */
int spvgen_cmd_bench(int argc, char **argv);    /* cmd_gemm.c */
int spvgen_cmd_mlp(int argc, char **argv);      /* cmd_mlp.c */
int spvgen_cmd_run_mlp(int argc, char **argv);  /* cmd_mlp.c: `spvgen run mlp` */

/* Prints "spvgen COMMAND: <message>" and where to find the usage on stderr; returns 2,
 * the usage-error exit status. */
int spvgen_cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Reads a whole .spv file. Returns 0 and malloc'd words, or prints why and returns 1
 * (unreadable, size not a multiple of 4, empty). */
int spvgen_cli_read_spv(const char *path, uint32_t **words, size_t *count);

#endif
