/* tests/support/cli_run.h — running the spvgen binary from tests: files in a private temp
 * directory, fork/exec with stdout and stderr captured, the exit status or the signal
 * that ended it. A signal, or a run longer than CLI_TIME_LIMIT_S seconds (SIGALRM), is
 * always a crash, never an answer.
 *
 * The binary is $SPVGEN_CLI (set by tests/CMakeLists.txt); without it the tests skip.
 * Include after defining _POSIX_C_SOURCE 200809L. Static functions: one copy per test
 * binary, which is what each tests/cli/test_*.c is. */
#ifndef SPVGEN_TEST_CLI_RUN_H
#define SPVGEN_TEST_CLI_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "spvgen/check.h"

#define CLI_TIME_LIMIT_S 60
#define CLI_MAX_FILES 256

typedef struct cli_result {
  int ran;    /* the process was started and waited for */
  int exited; /* it exited (rather than died of a signal) */
  int code;   /* exit status when exited */
  int signal; /* the signal when not */
  char *out;  /* stdout ("" when none; never NULL after cli_run) */
  char *err;  /* stderr */
} cli_result;

static char cli_dir_path[64];
static char *cli_files[CLI_MAX_FILES];
static int cli_file_count;

static inline void cli_cleanup(void) {
  for (int i = 0; i < cli_file_count; i++) {
    remove(cli_files[i]);
    free(cli_files[i]);
  }
  cli_file_count = 0;
  if (cli_dir_path[0]) rmdir(cli_dir_path);
}

/* The private directory (made at first use, removed with its files at exit). */
static inline const char *cli_dir(void) {
  if (!cli_dir_path[0]) {
    snprintf(cli_dir_path, sizeof cli_dir_path, "/tmp/spvgen-cli-test-XXXXXX");
    if (!mkdtemp(cli_dir_path)) {
      cli_dir_path[0] = '\0';
      return NULL;
    }
    atexit(cli_cleanup);
  }
  return cli_dir_path;
}

/* DIR/name, remembered for removal at exit. Returns the malloc'd path (owned here). */
static inline const char *cli_path(const char *name) {
  const char *dir = cli_dir();
  if (!dir || cli_file_count >= CLI_MAX_FILES) return "/nonexistent/spvgen-cli-test";
  size_t size = strlen(dir) + strlen(name) + 2;
  char *path = malloc(size);
  if (!path) return "/nonexistent/spvgen-cli-test";
  snprintf(path, size, "%s/%s", dir, name);
  for (int i = 0; i < cli_file_count; i++) {
    if (!strcmp(cli_files[i], path)) {
      free(path);
      return cli_files[i];
    }
  }
  cli_files[cli_file_count++] = path;
  return path;
}

/* Writes bytes to DIR/name; returns the path. */
static inline const char *cli_write(const char *name, const void *bytes, size_t size) {
  const char *path = cli_path(name);
  FILE *f = fopen(path, "wb");
  int ok = f && (size == 0 || fwrite(bytes, 1, size, f) == size);
  if (f && fclose(f) != 0) ok = 0;
  if (!ok) test_fail_at(__FILE__, __LINE__, "cannot write %s: %s", path, strerror(errno));
  return path;
}

/* Assembles text for env and writes the words to DIR/name; returns the path. */
static inline const char *cli_write_assembled(const char *name, const char *text,
                                              spvgen_target_env env) {
  uint32_t *words = NULL;
  size_t count = 0;
  char message[1024];
  if (spvgen_assemble(text, env, &words, &count, message, sizeof message) != SPVGEN_OK) {
    test_fail_at(__FILE__, __LINE__, "spvgen_assemble: %s", message);
    return cli_write(name, "", 0);
  }
  const char *path = cli_write(name, words, count * sizeof *words);
  spvgen_free_words(words);
  return path;
}

/* Reads a whole file (malloc'd, NUL-terminated; "" when missing). *size may be NULL. */
static inline char *cli_read(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  size_t len = 0, cap = 4096;
  char *buf = malloc(cap);
  if (!buf) return NULL;
  if (f) {
    size_t got;
    while ((got = fread(buf + len, 1, cap - 1 - len, f)) > 0) {
      len += got;
      if (cap - 1 - len == 0) {
        char *grown = realloc(buf, cap * 2);
        if (!grown) break;
        buf = grown;
        cap *= 2;
      }
    }
    fclose(f);
  }
  buf[len] = '\0';
  if (size) *size = len;
  return buf;
}

/* The binary under test, or NULL (and the test skipped) when SPVGEN_CLI is not set. */
static inline const char *cli_binary(void) {
  const char *bin = getenv("SPVGEN_CLI");
  if (!bin || !bin[0]) {
    test_skip("SPVGEN_CLI is not set (ctest sets it to the spvgen binary)");
    return NULL;
  }
  return bin;
}

/* name=$name:more (or name=more). */
static inline void cli_append_env(const char *name, const char *more) {
  const char *old = getenv(name);
  if (!old || !old[0]) {
    setenv(name, more, 1);
    return;
  }
  size_t size = strlen(old) + strlen(more) + 2;
  char *value = malloc(size);
  if (!value) return;
  snprintf(value, size, "%s:%s", old, more);
  setenv(name, value, 1);
  free(value);
}

/* Runs `spvgen args...` (args NULL-terminated, not including the program) with stdin
 * from stdin_path (NULL: /dev/null). */
static inline cli_result cli_run_in(const char *stdin_path, const char *const *args) {
  cli_result r = {0};
  const char *bin = cli_binary();
  const char *dir = cli_dir();
  if (!bin || !dir) {
    r.out = calloc(1, 1);
    r.err = calloc(1, 1);
    return r;
  }
  const char *out_path = cli_path("stdout.txt");
  const char *err_path = cli_path("stderr.txt");
  int argc = 0;
  while (args[argc]) argc++;
  char **argv = calloc((size_t)argc + 2, sizeof *argv);
  argv[0] = (char *)bin;
  for (int i = 0; i < argc; i++) argv[i + 1] = (char *)args[i];

  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) _exit(125);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    alarm(CLI_TIME_LIMIT_S); /* survives exec: a hang ends in SIGALRM */
    /* In a sanitizer build a report must read as a crash, not as exit status 1: the
     * caller's options, with aborting appended (later flags win). */
    cli_append_env("ASAN_OPTIONS", "abort_on_error=1");
    cli_append_env("UBSAN_OPTIONS", "abort_on_error=1:halt_on_error=1");
    execv(bin, argv);
    _exit(126);
  }
  free(argv);
  if (pid < 0) {
    test_fail_at(__FILE__, __LINE__, "fork: %s", strerror(errno));
  } else {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.ran = 1;
    r.exited = WIFEXITED(status);
    r.code = r.exited ? WEXITSTATUS(status) : -1;
    r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (r.exited && (r.code == 125 || r.code == 126))
      test_fail_at(__FILE__, __LINE__, "could not start %s (exit %d)", bin, r.code);
  }
  r.out = cli_read(out_path, NULL);
  r.err = cli_read(err_path, NULL);
  return r;
}

#define cli_run(...) cli_run_in(NULL, (const char *const[]){__VA_ARGS__, NULL})

static inline void cli_result_free(cli_result *r) {
  free(r->out);
  free(r->err);
  r->out = r->err = NULL;
}

/* Fails unless the run exited with `code` (a signal is always a failure). */
#define CHECK_EXIT(r, expected) check_exit_at(__FILE__, __LINE__, &(r), (expected), #r)
static inline void check_exit_at(const char *file, int line, const cli_result *r,
                                 int expected, const char *what) {
  if (!r->ran) return; /* skipped or already failed */
  if (!r->exited) {
    test_fail_at(file, line,
                 "%s: spvgen died of signal %d (%s)\n--- stdout:\n%s--- stderr:\n%s", what,
                 r->signal, strsignal(r->signal), r->out, r->err);
  } else if (r->code != expected) {
    test_fail_at(file, line, "%s: exit %d, expected %d\n--- stdout:\n%s--- stderr:\n%s",
                 what, r->code, expected, r->out, r->err);
  }
}

#endif
