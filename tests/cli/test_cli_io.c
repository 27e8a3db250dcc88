/* tests/cli/test_cli_io.c — the CLI is strict (the probe of 2026-11-26): every numeric
 * argument is read whole and in range (no wrap of "4294967297" to 1, no "" or "64," or
 * "3junk"), a usage error is exit 2 naming the flag; every subcommand's output is
 * checked (stdout on /dev/full is exit 1 with the error); a reader that stops early is
 * no crash (no SIGPIPE death, exit 0); and "-" is standard output for `tune export`
 * too. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "harness.h"

/* ---------------------------------------------------------- arguments ---- */

static void check_usage_error(const char *const *args, const char *flag) {
  cli_result r = cli_run_in(NULL, args);
  char what[256] = "";
  for (int i = 0; args[i]; i++) {
    strncat(what, args[i], sizeof what - strlen(what) - 2);
    strncat(what, " ", sizeof what - strlen(what) - 1);
  }
  CHECK_MSG(r.exited && r.code == 2, "spvgen %s: exit %d (signal %d), expected 2; stderr: %s", what, r.code,
            r.signal, r.err);
  CHECK_MSG(strstr(r.err, flag) != NULL, "spvgen %s: the message does not name %s: %s", what, flag, r.err);
  cli_result_free(&r);
}

#define USAGE(flag, ...) check_usage_error((const char *const[]){__VA_ARGS__, NULL}, flag)

/* The probe's list: each was accepted (and some wrapped or read as 0). */
static void test_bad_numbers_are_usage_errors_naming_the_flag(void) {
  if (!cli_binary()) return;
  USAGE("--hidden", "mlp", "--in", "16", "--out", "16", "--hidden", "4294967297", "-o", "/dev/null");
  USAGE("--hidden", "mlp", "--in", "16", "--out", "16", "--hidden", "", "-o", "/dev/null");
  USAGE("--hidden", "mlp", "--in", "16", "--out", "16", "--hidden", "64,", "-o", "/dev/null");
  USAGE("--hidden", "mlp", "--in", "16", "--out", "16", "--hidden", ",64", "-o", "/dev/null");
  USAGE("--hidden", "mlp", "--in", "16", "--out", "16", "--hidden", "64x4294967297", "-o", "/dev/null");
  USAGE("--hidden", "mlp", "--in", "16", "--out", "16", "--hidden", "64x", "-o", "/dev/null");
  USAGE("--hidden", "mlp", "--in", "16", "--out", "16", "--hidden", "-64", "-o", "/dev/null");
  USAGE("--encoding", "mlp", "--in", "16", "--out", "16", "--encoding", "freq:3junk", "-o", "/dev/null");
  USAGE("--encoding", "mlp", "--in", "16", "--out", "16", "--encoding", "oneblob:4294967296", "-o", "/dev/null");
  USAGE("--encoding", "mlp", "--in", "16", "--out", "16", "--encoding", "freq:", "-o", "/dev/null");
  USAGE("--leaky-slope", "mlp", "--in", "16", "--out", "16", "--leaky-slope", "abc", "-o", "/dev/null");
  USAGE("--leaky-slope", "mlp", "--in", "16", "--out", "16", "--leaky-slope", "nan", "-o", "/dev/null");
  USAGE("--leaky-slope", "mlp", "--in", "16", "--out", "16", "--leaky-slope", "0.1x", "-o", "/dev/null");
  USAGE("--in", "mlp", "--in", " 16", "--out", "16", "-o", "/dev/null");
  USAGE("--in", "mlp", "--in", "+16", "--out", "16", "-o", "/dev/null");
  USAGE("--seed", "run", "mlp", "--in", "16", "--out", "16", "--seed", "abc");
  USAGE("--points", "run", "mlp", "--in", "16", "--out", "16", "--points", "-1");
  USAGE("--lr", "run", "mlp", "--in", "16", "--out", "16", "--train", "--lr", "1e999");
  USAGE("--m", "gemm", "--m", "4294967296", "--n", "64", "--k", "64", "-o", "/dev/null");
  USAGE("--tile", "gemm", "--m", "64", "--n", "64", "--k", "64", "--tile", "4294967312x16x16", "-o", "/dev/null");
  USAGE("--tile", "gemm", "--m", "64", "--n", "64", "--k", "64", "--tile", " 16x16x16", "-o", "/dev/null");
  USAGE("--alpha", "gemm", "--m", "64", "--n", "64", "--k", "64", "--alpha", "inf", "-o", "/dev/null");
  USAGE("--seed", "run", "gemm", "--m", "64", "--n", "64", "--k", "64", "--seed", "0x");
  USAGE("--seed", "run", "gemm", "--m", "64", "--n", "64", "--k", "64", "--seed", "18446744073709551616");
  USAGE("--budget", "tune", "mlp", "--in", "16", "--out", "16", "--budget", "");
  USAGE("--n", "demo", "--n", "12junk");
  /* Good values still pass. */
  cli_result r = cli_run("mlp", "--in", "16", "--out", "16", "--hidden", "32,32", "--encoding", "freq:4",
                         "--leaky-slope", "0.02", "-o", cli_path("ok.spv"));
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
}

/* ------------------------------------------------------------- output ---- */

/* Runs spvgen with stdout on fd_path (opened for writing), stderr captured; the exit
 * status (-signal when it died). */
static int run_stdout_to(const char *fd_path, const char *const *args, char **err) {
  const char *bin = cli_binary();
  if (!bin) return -1000;
  const char *err_path = cli_path("io-stderr.txt");
  int argc = 0;
  while (args[argc]) argc++;
  char **argv = calloc((size_t)argc + 2, sizeof *argv);
  argv[0] = (char *)bin;
  for (int i = 0; i < argc; i++) argv[i + 1] = (char *)args[i];
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    int out = open(fd_path, O_WRONLY);
    int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int in = open("/dev/null", O_RDONLY);
    if (out < 0 || e < 0 || in < 0) _exit(125);
    dup2(in, 0), dup2(out, 1), dup2(e, 2);
    alarm(CLI_TIME_LIMIT_S);
    execv(bin, argv);
    _exit(126);
  }
  free(argv);
  int status = 0;
  waitpid(pid, &status, 0);
  if (err) *err = cli_read(err_path, NULL);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

/* The probe: `mlp -o -`, `mlp --json`, `devices`, `tune --list`, `run`, `bench` and
 * `version` lost their output on a full disk and exited 0. Every subcommand that writes
 * to stdout now exits 1 with the write error. */
static void test_every_subcommand_reports_a_failed_stdout_write(void) {
  if (!cli_binary()) return;
  if (access("/dev/full", W_OK) != 0) {
    test_skip("/dev/full is not writable here");
    return;
  }
  const char *spv = cli_path("io-module.spv");
  cli_result g = cli_run("gemm", "--m", "64", "--n", "64", "--k", "64", "--caps", "lavapipe", "-o", spv);
  CHECK_EXIT(g, 0);
  cli_result_free(&g);
  const char *cache = cli_path("io-cache.txt");
  cli_path("io-cache.txt.lock");
  /* "@spv" and "@cache" stand for the module and the cache file. */
  static const char *const cases[][12] = {
      {"version"},
      {"--help"},
      {"devices"},
      {"devices", "--json", "--preset", "h100"},
      {"mlp", "--in", "16", "--out", "16", "-o", "-"},
      {"mlp", "--in", "16", "--out", "16", "--json"},
      {"mlp", "--in", "16", "--out", "16", "-S"},
      {"mlp", "--in", "16", "--out", "16", "--train", "--json"},
      {"gemm", "--m", "64", "--n", "64", "--k", "64", "-o", "-"},
      {"gemm", "--m", "64", "--n", "64", "--k", "64", "--json"},
      {"gemm", "--m", "64", "--n", "64", "--k", "64", "--c-header", "k"},
      {"dis", "@spv"},
      {"val", "@spv"},
      {"tune", "--list", "--cache", "@cache"},
      {"tune", "export", "-", "--cache", "@cache"},
      {"run", "gemm", "--m", "16", "--n", "16", "--k", "16"},
      {"run", "mlp", "--in", "4", "--out", "4", "--points", "64"},
      {"bench", "gemm", "--m", "16", "--n", "16", "--k", "16", "--no-gpu", "--repeats", "3"},
      {"demo", "--no-run"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const char *args[13];
    int n = 0;
    for (; n < 12 && cases[c][n]; n++)
      args[n] = !strcmp(cases[c][n], "@spv") ? spv : !strcmp(cases[c][n], "@cache") ? cache : cases[c][n];
    args[n] = NULL;
    char *err = NULL;
    int rc = run_stdout_to("/dev/full", args, &err);
    CHECK_MSG(rc == 1, "spvgen %s %s: exit %d with stdout on /dev/full; stderr: %s", args[0], args[1] ? args[1] : "",
              rc, err ? err : "");
    CHECK_MSG(err && (strstr(err, "No space left on device") || strstr(err, "write") || strstr(err, "failed")),
              "spvgen %s %s: no write error reported: %s", args[0], args[1] ? args[1] : "", err ? err : "");
    free(err);
  }
}

/* A reader that stops early (`spvgen dis x.spv | head -c1`): spvgen died of SIGPIPE
 * (exit 141). SIGPIPE is ignored and the broken pipe ends the command quietly, exit 0
 * (docs/cli.md). Even with SIGPIPE ignored by the parent's shell or not. */
static void test_a_reader_that_stops_early_is_no_crash(void) {
  const char *bin = cli_binary();
  if (!bin) return;
  const char *spv = cli_path("pipe-module.spv");
  cli_result g = cli_run("gemm", "--m", "256", "--n", "256", "--k", "256", "--caps", "h100", "-o", spv);
  CHECK_EXIT(g, 0);
  cli_result_free(&g);
  static const char *const cmds[][3] = {{"dis", NULL, NULL}, {"devices", "--preset", "h100"}, {"version", NULL, NULL}};
  for (int c = 0; c < 3; c++) {
    int p[2];
    CHECK(pipe(p) == 0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      signal(SIGPIPE, SIG_DFL); /* as a shell leaves it */
      close(p[0]);
      dup2(p[1], 1);
      int e = open("/dev/null", O_WRONLY);
      dup2(e, 2);
      const char *argv[5] = {bin, cmds[c][0], cmds[c][1] ? cmds[c][1] : (c == 0 ? spv : NULL),
                             cmds[c][1] ? cmds[c][2] : NULL, NULL};
      execv(bin, (char *const *)argv);
      _exit(126);
    }
    close(p[1]);
    close(p[0]); /* the reader goes away at once */
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "spvgen %s into a closed pipe: %s %d", cmds[c][0],
              WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  }
}

/* `spvgen tune export -` wrote a file named "-"; now the entries go to stdout (the
 * summary to stderr), and `tune import -` reads stdin. */
static void test_tune_export_dash_is_stdout_and_import_dash_is_stdin(void) {
  if (!cli_binary()) return;
  const char *src = cli_path("dash-src.txt"), *dst = cli_path("dash-dst.txt");
  cli_path("dash-src.txt.lock");
  cli_path("dash-dst.txt.lock");
  char cwd_dash[4096];
  CHECK(getcwd(cwd_dash, sizeof cwd_dash - 2) != NULL);
  strcat(cwd_dash, "/-");
  bool dash_existed = access(cwd_dash, F_OK) == 0;
  static const char text[] =
      "spvgen-tune-cache 1\n"
      "gemm small\tvariant=simt tile=16x16x16 wg=16 sg=0 stages=1 unroll=1 ns=4801708.0 at=100x70x50x1\tcrc=043b205b\n";
  cli_write("dash-src.txt", text, sizeof text - 1);
  cli_result r = cli_run("tune", "export", "-", "--cache", src);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "spvgen-tune-cache 1\n");
  CHECK_CONTAINS(r.out, "gemm small\tvariant=simt");
  CHECK_NOT_CONTAINS(r.out, "exported");
  CHECK_CONTAINS(r.err, "exported 1 entry to standard output");
  CHECK(dash_existed || access(cwd_dash, F_OK) != 0); /* no file named "-" */
  const char *exported = cli_write("dash-exported.txt", r.out, strlen(r.out));
  cli_result_free(&r);
  const char *args[] = {"tune", "import", "-", "--cache", dst, NULL};
  r = cli_run_in(exported, args);
  CHECK_EXIT(r, 0);
  CHECK_CONTAINS(r.out, "imported 1 entry");
  cli_result_free(&r);
  char *got = cli_read(dst, NULL);
  CHECK_CONTAINS(got, "gemm small\tvariant=simt");
  free(got);
}

/* The probe: `spvgen mlp --in 16 --hidden 16x15 --out 16 --variant vec --train --caps
 * h100` was planned and then failed to emit (a push-constant block of 34 members). The
 * plan refuses it now, naming the limit; 14 hidden layers emit. */
static void test_a_plan_that_cannot_be_emitted_is_refused_by_the_plan(void) {
  if (!cli_binary()) return;
  cli_result r = cli_run("mlp", "--in", "16", "--hidden", "16x15", "--out", "16", "--variant", "vec", "--train",
                         "--caps", "h100", "-o", cli_path("train15.spv"));
  CHECK_EXIT(r, 1);
  CHECK_CONTAINS(r.err, "spvgen_mlp_train_plan: 16 layers: the vec variant's gradient kernel takes 2 + 2 per layer");
  CHECK_NOT_CONTAINS(r.err, "spvgen_push_constants");
  cli_result_free(&r);
  cli_path("train14.opt.spv");
  r = cli_run("mlp", "--in", "16", "--hidden", "16x14", "--out", "16", "--variant", "vec", "--train", "--caps",
              "h100", "-o", cli_path("train14.spv"));
  CHECK_EXIT(r, 0);
  cli_result_free(&r);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_bad_numbers_are_usage_errors_naming_the_flag),
      TEST_CASE(test_every_subcommand_reports_a_failed_stdout_write),
      TEST_CASE(test_a_reader_that_stops_early_is_no_crash),
      TEST_CASE(test_tune_export_dash_is_stdout_and_import_dash_is_stdin),
      TEST_CASE(test_a_plan_that_cannot_be_emitted_is_refused_by_the_plan),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
