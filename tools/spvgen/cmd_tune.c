/* tools/spvgen/cmd_tune.c — `spvgen tune`: tune a GEMM or an MLP on this machine's
 * device and store the winner in the tune cache (`tune gemm`, the problem flags of
 * `spvgen gemm`; `tune mlp`, the network flags of `spvgen mlp` and --points);
 * print the cache (`tune --list`); write its entries to a file and read them back
 * (`tune export FILE`, `tune import FILE`). The cache is spvgen/tune.h's. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "spvgen/tune.h"
#include "spvgen/vk.h"

static void tune_usage(FILE *o) {
  fprintf(o,
          "usage: spvgen tune gemm [gemm flags] [--budget SECONDS] [--cache FILE]\n"
          "       spvgen tune mlp [mlp flags] [--points N] [--budget SECONDS] [--cache FILE]\n"
          "       spvgen tune --list [--cache FILE]\n"
          "       spvgen tune export FILE [--cache FILE]   (FILE - : standard output)\n"
          "       spvgen tune import FILE [--cache FILE]   (FILE - : standard input)\n\n"
          "gemm     times every candidate plan on the first Vulkan device, checks each one's\n"
          "         output, prints the table and stores the fastest in the cache\n"
          "         (`spvgen tune gemm --help` lists the flags)\n"
          "mlp      the same for a fused MLP evaluated on --points points\n"
          "         (`spvgen tune mlp --help` lists the flags)\n"
          "--list   prints the cache's entries: the file's, then those compiled into spvgen\n"
          "export   writes the file's entries to FILE (to ship them, or to import elsewhere)\n"
          "import   adds FILE's entries to the cache (replacing those with the same key)\n\n"
          "The cache is ${XDG_CACHE_HOME:-~/.cache}/spvgen/tune-v1.txt unless --cache names one;\n"
          "docs/tune.md describes it.\n\n"
          "examples:\n"
          "  spvgen tune gemm --m 4096 --n 4096 --k 4096 --types f16,f32 --budget 60\n"
          "  spvgen tune mlp --in 32 --hidden 64x4 --out 16 --points 1048576\n"
          "  spvgen tune --list\n"
          "  spvgen tune export h100.txt\n"
          "\nexit status: 0 ok, 1 failure, 2 usage error\n");
}

static void fmt_ns(char *out, size_t size, double ns) {
  if (ns <= 0) snprintf(out, size, "-");
  else if (ns < 1e4) snprintf(out, size, "%.0f ns", ns);
  else if (ns < 1e7) snprintf(out, size, "%.3f ms", ns / 1e6);
  else snprintf(out, size, "%.1f ms", ns / 1e6);
}

/* Opens the cache, printing what was ignored; NULL after printing why. */
static spvgen_tune_cache *open_cache(const char *cmd, const char *path) {
  spvgen_tune_cache *c = NULL;
  char msg[1024];
  if (spvgen_tune_cache_open(path, &c, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: %s\n", cmd, msg);
    return NULL;
  }
  if (msg[0]) fprintf(stderr, "spvgen %s: warning: %s\n", cmd, msg);
  return c;
}

static int save_cache(const char *cmd, spvgen_tune_cache *c) {
  char msg[1024];
  if (spvgen_tune_cache_save(c, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: %s\n", cmd, msg);
    return 1;
  }
  if (msg[0]) fprintf(stderr, "spvgen %s: note: %s\n", cmd, msg);
  return 0;
}

typedef struct progress_state {
  bool tty;
  const char *cmd;
} progress_state;

static void on_progress(const spvgen_tune_progress *p, void *user) {
  const progress_state *ps = user;
  char cur[32], best[32];
  fmt_ns(cur, sizeof cur, p->current->median_ns);
  fmt_ns(best, sizeof best, p->best ? p->best->median_ns : 0);
  if (ps->tty) {
    enum { WIDTH = 24 };
    char bar[WIDTH + 1];
    uint32_t filled = p->total ? (uint32_t)((uint64_t)p->done * WIDTH / p->total) : WIDTH;
    for (uint32_t i = 0; i < WIDTH; i++) bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = 0;
    fprintf(stderr, "\r\033[K[%s] %u/%u %.0fs  best %s%s%s", bar, p->done, p->total, p->elapsed_seconds,
            p->best ? p->best->name : "-", p->best ? ": " : "", p->best ? best : "");
    if (p->done == p->total) fputc('\n', stderr);
    fflush(stderr);
  } else {
    fprintf(stderr, "spvgen %s: %u/%u %s: %s%s%s\n", ps->cmd, p->done, p->total, p->current->name,
            spvgen_tune_candidate_status_name(p->current->status),
            p->current->status == SPVGEN_TUNE_TIMED ? " " : "",
            p->current->status == SPVGEN_TUNE_TIMED ? cur : "");
  }
}

/* Runs one tuning (gemm: gdesc, mlp: mdesc), prints the table, saves the cache. */
static int tune_run(const char *cmd, const spvgen_gemm_desc *gdesc, const spvgen_mlp_desc *mdesc, uint64_t points,
                    const char *cache_path, double budget, uint32_t max_candidates, uint32_t repeats, uint64_t seed) {
  spvgen_tune_cache *cache = open_cache(cmd, cache_path);
  if (!cache) return 1;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: no Vulkan device: %s\n", cmd, msg);
    spvgen_tune_cache_close(cache);
    return 1;
  }
  spvgen_tune_result *res = malloc(sizeof *res);
  if (!res) {
    fprintf(stderr, "spvgen %s: out of memory\n", cmd);
    spvgen_vk_destroy(ctx);
    spvgen_tune_cache_close(cache);
    return 1;
  }
  progress_state ps = {isatty(fileno(stderr)) != 0, cmd};
  spvgen_tune_options o;
  memset(&o, 0, sizeof o);
  o.budget_seconds = budget;
  o.max_candidates = max_candidates;
  o.repeats = repeats;
  o.seed = seed;
  o.cache = cache;
  o.progress = on_progress;
  o.progress_user = &ps;
  printf("device   %s\n", spvgen_vk_caps(ctx)->name);
  fflush(stdout);
  spvgen_status st = gdesc ? spvgen_tune_gemm(ctx, gdesc, &o, res, msg, sizeof msg)
                           : spvgen_tune_mlp(ctx, mdesc, points, &o, res, msg, sizeof msg);
  int rc = 0;
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: %s\n", cmd, msg);
    rc = 1;
  } else {
    if (msg[0]) fprintf(stderr, "spvgen %s: note: %s\n", cmd, msg);
    printf("key      %s\n", res->key);
    printf("%-10s %-8s %-9s %-10s %s\n", "median", "min", "status", "compile", "plan");
    for (uint32_t i = 0; i < res->count; i++) {
      const spvgen_tune_candidate *c = &res->candidates[i];
      char med[32], mn[32], comp[32];
      fmt_ns(med, sizeof med, c->median_ns);
      fmt_ns(mn, sizeof mn, c->min_ns);
      if (c->compile_ms > 0) snprintf(comp, sizeof comp, "%.1f ms", c->compile_ms);
      else snprintf(comp, sizeof comp, "-");
      printf("%-10s %-8s %-9s %-10s %s%s%s%s%s\n", med, mn, spvgen_tune_candidate_status_name(c->status), comp, c->name,
             c->is_default ? "  (default)" : "", i == res->best ? "  <- best" : "", c->message[0] ? "  " : "",
             c->message);
    }
    char best[32], def[32];
    fmt_ns(best, sizeof best, res->best_ns);
    fmt_ns(def, sizeof def, res->default_ns);
    printf("best     %s: %s", gdesc ? res->plan.name : res->mlp_plan.name, best);
    if (res->default_ns > 0) printf(" (default %s: %.2fx)", def, res->default_ns / res->best_ns);
    printf("\n");
    printf("ran      %u of %u candidates in %.1f s (%u timed, %u wrong, %u failed, %u not run)\n",
           res->count - res->not_run, res->offered, res->seconds, res->timed, res->wrong, res->failed,
           res->not_run);
    if (res->stored && !(rc = save_cache(cmd, cache))) printf("cache    %s\n", spvgen_tune_cache_path(cache));
  }
  free(res);
  spvgen_vk_destroy(ctx);
  spvgen_tune_cache_close(cache);
  return rc;
}

static int tune_gemm(int argc, char **argv) {
  spvgen_cli_tune_args a;
  int r = spvgen_cli_parse_tune_gemm(argc, argv, &a);
  if (r) return r < 0 ? 0 : r;
  return tune_run("tune gemm", &a.desc, NULL, 0, a.tune.cache, a.tune.budget_seconds, a.tune.max_candidates,
                  a.tune.repeats, a.tune.seed);
}

static int tune_mlp(int argc, char **argv) {
  spvgen_cli_tune_mlp_args a;
  int r = spvgen_cli_parse_tune_mlp(argc, argv, &a);
  if (r) return r < 0 ? 0 : r;
  return tune_run("tune mlp", NULL, &a.desc, a.tune.points, a.tune.cache, a.tune.budget_seconds,
                  a.tune.max_candidates, a.tune.repeats, a.tune.seed);
}

static int tune_list(const char *path) {
  spvgen_tune_cache *c = open_cache("tune --list", path);
  if (!c) return 1;
  uint32_t n = spvgen_tune_cache_count(c);
  printf("# %s: %u entr%s\n", spvgen_tune_cache_path(c), n, n == 1 ? "y" : "ies");
  for (uint32_t i = 0; i < n; i++) {
    spvgen_tune_entry e;
    if (!spvgen_tune_cache_entry(c, i, &e)) break;
    const spvgen_tune_knobs *k = &e.knobs;
    char t[32];
    fmt_ns(t, sizeof t, e.median_ns);
    const char *origin = e.origin == SPVGEN_TUNE_ORIGIN_BUILTIN ? "compiled-in" : "file";
    if (!strncmp(e.key, "mlp ", 4)) /* tile_m carries points_per_group */
      printf("%s\n    %s wg%u ppg%u: %s at %u points [%s]\n", e.key, k->variant, k->workgroup_size, k->tile_m, t,
             e.m, origin);
    else
      printf("%s\n    %s %ux%ux%u wg%u sg%u stages%u unroll%u%s%.0u: %s at %ux%ux%ux%u [%s]\n", e.key, k->variant,
             k->tile_m, k->tile_n, k->tile_k, k->workgroup_size, k->subgroups, k->stages, k->unroll,
             k->split_k > 1 ? " split_k" : "", k->split_k > 1 ? k->split_k : 0u, t, e.m, e.n, e.k, e.batch, origin);
  }
  spvgen_tune_cache_close(c);
  return 0;
}

/* "-": the cache text to standard output (export) or from standard input (import),
 * through the in-memory forms of spvgen/tune.h. */
static spvgen_status export_stdout(const spvgen_tune_cache *c, uint32_t *n, char *msg, size_t size) {
  char *text = NULL;
  size_t len = 0;
  spvgen_status st = spvgen_tune_cache_export_text(c, &text, &len, n, msg, size);
  if (st == SPVGEN_OK && (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)) {
    snprintf(msg, size, "writing standard output failed: %s", strerror(errno));
    st = SPVGEN_ERROR_IO;
  }
  spvgen_tune_free_text(text);
  return st;
}

static spvgen_status import_stdin(spvgen_tune_cache *c, uint32_t *n, char *msg, size_t size) {
  enum { MAX = 16 << 20 }; /* the library's limit for a cache (docs/tune.md) */
  char *buf = malloc(MAX + 1);
  if (!buf) return snprintf(msg, size, "out of memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  size_t len = fread(buf, 1, MAX + 1, stdin);
  spvgen_status st;
  if (ferror(stdin)) st = (snprintf(msg, size, "reading standard input failed: %s", strerror(errno)), SPVGEN_ERROR_IO);
  else if (len > MAX) st = (snprintf(msg, size, "standard input is over the 16 MiB a tune cache may have"), SPVGEN_ERROR_IO);
  else st = spvgen_tune_cache_import_text(c, buf, len, n, msg, size);
  free(buf);
  return st;
}

static int tune_transfer(bool export_, const char *file, const char *path) {
  const char *cmd = export_ ? "tune export" : "tune import";
  spvgen_tune_cache *c = open_cache(cmd, path);
  if (!c) return 1;
  char msg[1024];
  uint32_t n = 0;
  int rc = 0;
  bool dash = !strcmp(file, "-");
  spvgen_status st = export_ ? (dash ? export_stdout(c, &n, msg, sizeof msg)
                                     : spvgen_tune_cache_export(c, file, &n, msg, sizeof msg))
                             : (dash ? import_stdin(c, &n, msg, sizeof msg)
                                     : spvgen_tune_cache_import(c, file, &n, msg, sizeof msg));
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: %s\n", cmd, msg);
    rc = 1;
  } else {
    if (msg[0]) fprintf(stderr, "spvgen %s: warning: %s\n", cmd, msg);
    if (!export_) rc = save_cache(cmd, c);
    /* The summary goes to stderr when the entries themselves went to stdout. */
    if (!rc)
      fprintf(export_ && dash ? stderr : stdout, "%s %u entr%s %s %s\n", export_ ? "exported" : "imported", n,
              n == 1 ? "y" : "ies", export_ ? "to" : "into",
              export_ ? (dash ? "standard output" : file) : spvgen_tune_cache_path(c));
  }
  spvgen_tune_cache_close(c);
  return rc;
}

int spvgen_cmd_tune(int argc, char **argv) {
  if (argc < 2) {
    tune_usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    tune_usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "gemm")) return tune_gemm(argc - 1, argv + 1);
  if (!strcmp(argv[1], "mlp")) return tune_mlp(argc - 1, argv + 1);
  /* --list, export FILE, import FILE; each with [--cache FILE]. */
  const char *cache = NULL, *file = NULL, *what = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--cache")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error("tune", "--cache needs a file name");
      cache = argv[++i];
    } else if (!what && (!strcmp(a, "--list") || !strcmp(a, "export") || !strcmp(a, "import"))) {
      what = a;
      if (strcmp(a, "--list")) {
        if (i + 1 >= argc || !strcmp(argv[i + 1], "--cache"))
          return spvgen_cli_usage_error("tune", "%s needs a FILE", a);
        file = argv[++i];
      }
    } else {
      return spvgen_cli_usage_error("tune", "unknown %s '%s' (gemm, mlp, --list, export FILE, import FILE)",
                                    a[0] == '-' ? "option" : "argument", a);
    }
  }
  if (!what) return spvgen_cli_usage_error("tune", "what to do? gemm, mlp, --list, export FILE or import FILE");
  if (!strcmp(what, "--list")) return tune_list(cache);
  return tune_transfer(!strcmp(what, "export"), file, cache);
}
