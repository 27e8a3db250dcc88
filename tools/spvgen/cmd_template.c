/* tools/spvgen/cmd_template.c — the one flag parser and usage printer of the CLI (tables
 * of sg_flag: a template's problem flags from its table entry, each command's own), and
 * the commands a template gets from its entry alone: `spvgen NAME` (emit, validate,
 * write .spv / -S / --json / --c-header) and `spvgen run NAME` (the run-and-check
 * lifecycle of tools/common/template_run.h). A template that only has a table entry gets
 * both without a line here (elementwise); GEMM's emit command is this one too. Also the
 * `spvgen run` / `spvgen bench` dispatch and the tuner's flags (`spvgen tune NAME`). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "spvgen/check.h"
#include "spvgen/version.h"
#include "spvgen/vk.h"
#include "template_run.h"

/* ------------------------------------------------------------------ flags ---- */

/* The flag of sets named name ("--m" of "--m=4" too); NULL if none is. */
static const sg_flag *find_flag(const spvgen_cli_flags *sets, const char *name, size_t len, void **target) {
  for (const spvgen_cli_flags *s = sets; s->flags; s++)
    for (const sg_flag *f = s->flags; f->name; f++)
      if (f->name[0] && strlen(f->name) == len && !strncmp(f->name, name, len)) return *target = s->target, f;
  return NULL;
}

int spvgen_cli_parse(const char *cmd, const spvgen_cli_flags *sets, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) return -1;
    const char *eq = !strncmp(a, "--", 2) ? strchr(a, '=') : NULL;
    void *target = NULL;
    const sg_flag *f = find_flag(sets, a, eq ? (size_t)(eq - a) : strlen(a), &target);
    if (!f) return spvgen_cli_usage_error(cmd, a[0] == '-' ? "unknown option '%s'" : "unknown argument '%s'", a);
    const char *value = eq ? eq + 1 : NULL;
    if (f->value && !value) {
      if (i + 1 >= argc) return spvgen_cli_usage_error(cmd, "%s needs a value (%s)", f->name, f->value);
      value = argv[++i];
    } else if (!f->value && value) {
      return spvgen_cli_usage_error(cmd, "%s takes no value", f->name);
    }
    char why[512] = "";
    if (!f->parse && value) *(const char **)((char *)target + f->offset) = value;
    else if (!f->parse) *(bool *)((char *)target + f->offset) = true;
    else if (!f->parse(target, value, why, sizeof why)) return spvgen_cli_usage_error(cmd, "%s: %s", f->name, why);
  }
  return 0;
}

void spvgen_cli_flags_usage(FILE *o, const sg_flag *flags) {
  for (const sg_flag *f = flags; f && f->name; f++) {
    if (!f->help) continue;
    if (!f->name[0]) {
      fprintf(o, "%s\n", f->help);
      continue;
    }
    char left[64];
    snprintf(left, sizeof left, "%s%s%s", f->name, f->value ? " " : "", f->value ? f->value : "");
    fprintf(o, "  %-26s", left);
    for (const char *line = f->help; line;) {
      const char *nl = strchr(line, '\n');
      fprintf(o, "%s%.*s\n", strlen(left) > 26 && line == f->help ? "\n                             " : " ",
              (int)(nl ? nl - line : (ptrdiff_t)strlen(line)), line);
      line = nl ? nl + 1 : NULL;
      if (line) fprintf(o, "%28s", "");
    }
  }
}

int spvgen_cli_template_parse(const char *cmd, const sg_template *t, void *desc, const spvgen_cli_flags *more, int argc,
                              char **argv) {
  spvgen_cli_flags sets[8] = {{t->flags, desc}};
  size_t n = 1;
  for (; more && more[n - 1].flags && n < 7; n++) sets[n] = more[n - 1];
  sets[n] = (spvgen_cli_flags){NULL, NULL};
  int rc = spvgen_cli_parse(cmd, sets, argc, argv);
  char why[256] = "";
  if (!rc && t->flags_done && !t->flags_done(desc, why, sizeof why)) rc = spvgen_cli_usage_error(cmd, "%s", why);
  return rc;
}

/* ------------------------------------------------------- output options ---- */

static bool flag_disassemble(void *e, const char *v, char *why, size_t size) {
  (void)v, (void)why, (void)size;
  return ((spvgen_cli_emit *)e)->outputs++, ((spvgen_cli_emit *)e)->disassemble = true;
}
static bool flag_json(void *e, const char *v, char *why, size_t size) {
  (void)v, (void)why, (void)size;
  return ((spvgen_cli_emit *)e)->outputs++, ((spvgen_cli_emit *)e)->json = true;
}
/* A C identifier (the --c-header NAME). */
static bool flag_c_header(void *e, const char *v, char *why, size_t size) {
  bool ok = *v && (isalpha((unsigned char)*v) || *v == '_');
  for (const char *c = v; ok && *c; c++) ok = isalnum((unsigned char)*c) || *c == '_';
  if (!ok) return sg_flag_bad(why, size, v, "is not a C identifier");
  return ((spvgen_cli_emit *)e)->outputs++, ((spvgen_cli_emit *)e)->c_header = v, true;
}

const sg_flag spvgen_cli_caps_flags[] = {
    SG_FLAG_HEADING("device:"),
    {"--caps", "NAME|FILE",
     "the device: h100, vulkan13 or lavapipe (offline presets), or a file\nwritten by `spvgen devices --json`; "
     "default: the first Vulkan\ndevice, else vulkan13",
     NULL, 0},
    {NULL, NULL, NULL, NULL, 0},
};

const sg_flag spvgen_cli_emit_flags[] = {
    SG_FLAG_HEADING("output (one of; to -o FILE, else stdout for the text forms):"),
    SG_FLAG_TEXT("-o", "FILE", "write there (\"-\": stdout; default NAME.spv)", spvgen_cli_emit, output),
    {"-S", NULL, "the disassembly", flag_disassemble, 0},
    {"--json", NULL,
     "the kernel's metadata as JSON: variant, plan, workgroup size,\ndispatch grid, bindings, push and spec constants,\n"
     "capabilities, extensions, word count and content hash",
     flag_json, 0},
    {"--c-header", "NAME", "a C header: static const uint32_t NAME[] with the words,\nNAME_word_count and NAME_size (bytes)",
     flag_c_header, 0},
    {NULL, NULL, NULL, NULL, 0},
};

/* ------------------------------------------------------------ spvgen NAME ---- */

static void emit_usage(FILE *o, const sg_template *t) {
  fprintf(o, "usage: spvgen %s [options] [-o FILE] [-S | --json | --c-header NAME]\n\nEmits the %s kernel: %s.\n\n",
          t->name, t->name, t->summary);
  spvgen_cli_flags_usage(o, t->flags);
  spvgen_cli_flags_usage(o, spvgen_cli_caps_flags);
  spvgen_cli_flags_usage(o, spvgen_cli_emit_flags);
  fprintf(o, "\nexamples:\n  spvgen %s %s -o %s.spv\n  spvgen %s %s --json\n", t->name, t->example ? t->example : "",
          t->name, t->name, t->example ? t->example : "");
  fprintf(o, "\nexit status: 0 ok, 1 failure (refused, invalid), 2 usage error\n");
}

FILE *spvgen_cli_open_output(const char *cmd, const char *path, bool binary) {
  if (!strcmp(path, "-")) return stdout;
  FILE *f = fopen(path, binary ? "wb" : "w");
  if (!f) fprintf(stderr, "spvgen %s: cannot write '%s': %s\n", cmd, path, strerror(errno));
  return f;
}

int spvgen_cli_close_output(const char *cmd, FILE *f, const char *path) {
  int bad = ferror(f);
  bool to_stdout = f == stdout;
  bad |= to_stdout ? fflush(f) != 0 : fclose(f) != 0;
  if (bad && to_stdout && spvgen_cli_reader_gone(stdout)) return 0;
  if (bad) fprintf(stderr, "spvgen %s: write to '%s' failed\n", cmd, to_stdout ? "stdout" : path);
  return bad ? 1 : 0;
}

/* A C header holding the words: static const uint32_t NAME[], NAME_word_count and
 * NAME_size (bytes) as macros (no unused-variable warnings where only the array is
 * used); the comment says how to dispatch it. */
static void print_c_header(FILE *o, const char *name, const char *plan, const spvgen_kernel *k, int argc,
                           char **argv) {
  const spvgen_kernel_info *in = &k->info;
  fprintf(o, "/* Generated by spvgen %s:", spvgen_version());
  for (int i = 0; i < argc; i++) fprintf(o, " %s", strstr(argv[i], "*/") ? "..." : argv[i]);
  fprintf(o, "\n * plan: %s\n * dispatch %u x %u x %u workgroups of %u x %u x %u; bindings:", plan, in->groups[0],
          in->groups[1], in->groups[2], in->local_size[0], in->local_size[1], in->local_size[2]);
  for (uint32_t b = 0; b < in->binding_count; b++)
    fprintf(o, "%s %u %s", b ? "," : "", in->bindings[b].binding, in->bindings[b].name ? in->bindings[b].name : "");
  fprintf(o, ".\n * words hash (fnv1a-64): %016" PRIx64 " */\n", spvgen_words_hash(k->words, k->word_count));
  fprintf(o, "#ifndef %s_SPV_H\n#define %s_SPV_H\n#include <stddef.h>\n#include <stdint.h>\n\n", name, name);
  fprintf(o, "#define %s_word_count %zu\n#define %s_size ((size_t)%s_word_count * 4u) /* bytes */\n\n", name,
          k->word_count, name, name);
  fprintf(o, "static const uint32_t %s[%s_word_count] = {", name, name);
  for (size_t i = 0; i < k->word_count; i++)
    fprintf(o, "%s0x%08" PRIx32 "%s", i % 8 ? " " : "\n    ", k->words[i], i + 1 < k->word_count ? "," : "");
  fprintf(o, "\n};\n\n#endif\n");
}

/* Where kernel `which` of a plan goes: the path itself for the one named "main" (the
 * first, for templates without names), else the path with ".<kernel name>" before its
 * extension (out.spv: out.reduce.spv, out.pack.spv; out: out.reduce). */
static void kernel_path(const sg_template *t, const void *plan, const char *path, uint32_t which, char *out,
                        size_t size) {
  if (!strcmp(sg_template_kernel_name(t, plan, which), "main")) {
    snprintf(out, size, "%s", path);
    return;
  }
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  size_t stem = dot && (!slash || dot > slash + 1) ? (size_t)(dot - path) : strlen(path);
  snprintf(out, size, "%.*s.%s%s", (int)stem, path, sg_template_kernel_name(t, plan, which), path + stem);
}

/* Writes the plan's modules as asked: binary to the path (a plan of several kernels:
 * kernel k > 0 to kernel_path's name), or the disassembly / JSON / C header of all of
 * them to one output. */
static int write_kernels(const char *cmd, const sg_template *t, const void *plan, const spvgen_device_caps *caps,
                         const spvgen_kernel *k, uint32_t count, const spvgen_cli_emit *e, int argc, char **argv) {
  bool text = e->disassemble || e->json || e->c_header;
  char path[4096], name[256];
  snprintf(path, sizeof path, "%s", e->output ? e->output : text ? "-" : "");
  if (!path[0]) snprintf(path, sizeof path, "%s.spv", t->name);
  if (count > 1 && !text && !strcmp(path, "-")) {
    fprintf(stderr, "spvgen %s: the plan has %u kernels: give -o PATH (its later kernels go beside it) or a text "
                    "output\n", cmd, count);
    return 1;
  }
  t->plan_name(plan, name, sizeof name);
  if (!text) { /* binaries: one file per kernel */
    for (uint32_t i = 0; i < count; i++) {
      char kpath[4200];
      kernel_path(t, plan, path, i, kpath, sizeof kpath);
      FILE *f = spvgen_cli_open_output(cmd, kpath, true);
      if (!f) return 1;
      int rc = fwrite(k[i].words, 4, k[i].word_count, f) != k[i].word_count;
      rc |= spvgen_cli_close_output(cmd, f, kpath);
      if (rc) return rc;
      if (f != stdout)
        fprintf(stderr, "spvgen %s: %s: %s%s%s (%zu words)\n", cmd, kpath, name, count > 1 ? ", kernel " : "",
                count > 1 ? sg_template_kernel_name(t, plan, i) : "", k[i].word_count);
    }
    return 0;
  }
  FILE *f = spvgen_cli_open_output(cmd, path, false); /* a text output holds every kernel */
  if (!f) return 1;
  int rc = 0;
  if (e->json) sg_template_json(t, f, plan, caps, k, count);
  for (uint32_t i = 0; i < count && !rc && !e->json; i++) {
    if (e->c_header) {
      char cname[300];
      const char *kn = sg_template_kernel_name(t, plan, i);
      const bool main_kernel = !strcmp(kn, "main");
      snprintf(cname, sizeof cname, "%s%s%s", e->c_header, main_kernel ? "" : "_", main_kernel ? "" : kn);
      print_c_header(f, cname, name, &k[i], argc, argv);
      continue;
    }
    char *dis = NULL;
    char dmsg[1024];
    if (spvgen_disassemble(k[i].words, k[i].word_count, SPVGEN_DIS_FRIENDLY_NAMES, &dis, dmsg, sizeof dmsg) !=
        SPVGEN_OK) {
      fprintf(stderr, "spvgen %s: cannot disassemble: %s\n", cmd, dmsg);
      rc = 1;
      break;
    }
    if (count > 1)
      fprintf(f, "; kernel %u of %u: %s%s\n", i + 1, count, sg_template_kernel_name(t, plan, i),
              i ? " (dispatched after the one before, with a compute-to-compute barrier between)" : "");
    fputs(dis, f);
    spvgen_free_text(dis);
  }
  rc |= spvgen_cli_close_output(cmd, f, path);
  return rc;
}

int spvgen_cli_emit_kernel(const sg_template *t, const void *desc, const spvgen_cli_emit *e, int argc, char **argv) {
  const char *cmd = t->name;
  if (e->outputs > 1) return spvgen_cli_usage_error(cmd, "-S, --json and --c-header exclude each other: choose one output");
  spvgen_device_caps caps;
  int rc = spvgen_cli_resolve_caps(cmd, e->caps, &caps);
  void *plan = rc ? NULL : calloc(1, t->plan_size);
  char msg[1024];
  spvgen_kernel k[SG_RUN_MAX_KERNELS];
  memset(k, 0, sizeof k);
  uint32_t count = 0;
  if (!rc && !plan) rc = 1;
  if (!rc && t->plan(desc, &caps, plan, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: %s\n", cmd, msg);
    rc = 1;
  }
  /* every kernel of the plan (GEMM split-K: the partials, then the reduction) */
  if (!rc) count = sg_template_kernels(t, plan);
  for (uint32_t i = 0; !rc && i < count && i < SG_RUN_MAX_KERNELS; i++)
    if (sg_template_build_kernel(t, plan, i, &k[i], msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen %s: %s\n", cmd, msg);
      rc = 1;
    }
  static char vmsg[16 * 1024];
  spvgen_validate_options vo = {0};
  bool can_validate = !rc && (!t->validator_reads || t->validator_reads(plan));
  for (uint32_t i = 0; can_validate && !rc && i < count; i++)
    if (spvgen_validate(k[i].words, k[i].word_count, &vo, vmsg, sizeof vmsg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen %s: the emitted module does not validate (a bug in spvgen): %s\n", cmd, vmsg);
      rc = 1;
    }
  if (!rc) rc = write_kernels(cmd, t, plan, &caps, k, count, e, argc, argv);
  for (uint32_t i = 0; i < SG_RUN_MAX_KERNELS; i++) spvgen_kernel_free(&k[i]);
  free(plan);
  return rc;
}

int spvgen_cmd_template(const sg_template *t, int argc, char **argv) {
  void *desc = calloc(1, t->desc_size);
  if (!desc) return 1;
  if (t->flags_init) t->flags_init(desc);
  spvgen_cli_emit e;
  memset(&e, 0, sizeof e);
  const spvgen_cli_flags more[] = {{spvgen_cli_emit_flags, &e}, {spvgen_cli_caps_flags, &e.caps}, {NULL, NULL}};
  int rc = spvgen_cli_template_parse(t->name, t, desc, more, argc, argv);
  if (rc < 0) emit_usage(stdout, t);
  if (!rc) rc = spvgen_cli_emit_kernel(t, desc, &e, argc, argv);
  free(desc);
  return rc < 0 ? 0 : rc;
}

/* -------------------------------------------------------- spvgen run NAME ---- */

static bool flag_size(void *o, const char *v, char *why, size_t size) {
  return sg_flag_u64(v, false, 1, UINT32_MAX, &((template_run_options *)o)->request.size, why, size);
}
static bool flag_seed(void *o, const char *v, char *why, size_t size) {
  return sg_flag_seed(v, &((template_run_options *)o)->request.seed, why, size);
}
static bool flag_repeats(void *o, const char *v, char *why, size_t size) {
  return sg_flag_u32(v, 1, TEMPLATE_RUN_MAX_REPEATS, &((template_run_options *)o)->repeats, why, size);
}
static bool flag_warmup(void *o, const char *v, char *why, size_t size) {
  return sg_flag_u32(v, 0, TEMPLATE_RUN_MAX_REPEATS, &((template_run_options *)o)->warmup, why, size);
}
static bool flag_sample(void *o, const char *v, char *why, size_t size) {
  return sg_flag_u64(v, false, 1, UINT64_MAX, &((template_run_options *)o)->sample, why, size);
}
static bool flag_no_caps(void *o, const char *v, char *why, size_t size) {
  (void)o, (void)v;
  snprintf(why, size, "run uses the device's own caps");
  return false;
}

static const sg_flag run_flags[] = {
    SG_FLAG_HEADING("run:"),
    {"--size", "N", "the problem size the desc leaves open (the template's default)", flag_size, 0},
    {"--seed", "N", "the inputs' random seed (default fixed)", flag_seed, 0},
    {"--repeats", "N", "timed dispatches (default 10)", flag_repeats, 0},
    {"--warmup", "N", "dispatches before them (default 2)", flag_warmup, 0},
    {"--sample", "N", "check about N elements instead of all", flag_sample, 0},
    SG_FLAG_SWITCH("--no-check", "timing only", template_run_options, no_check),
    {"--caps", "NAME", NULL, flag_no_caps, 0},
    {NULL, NULL, NULL, NULL, 0},
};

static void run_usage(FILE *o, const sg_template *t) {
  fprintf(o,
          "usage: spvgen run %s [options]\n\nEmits the %s kernel (%s) for the first Vulkan device, runs\n"
          "it on random data (never zeros) and checks every element against the float64 CPU\n"
          "reference. Exit 0 when every element is within the tolerance, 1 otherwise.\n\n",
          t->name, t->name, t->summary);
  spvgen_cli_flags_usage(o, t->flags);
  spvgen_cli_flags_usage(o, run_flags);
  fprintf(o, "\nexample:\n  spvgen run %s %s\n", t->name, t->example ? t->example : "");
}

static void print_run(const sg_template *t, const void *plan, const template_run_result *r) {
  char name[256];
  t->plan_name(plan, name, sizeof name);
  printf("plan     %s\n", name);
  printf("emit     %.1f us, %zu words\n", r->emit_us, r->words);
  if (r->kernels > 1) {
    printf("pipeline %.1f ms (the driver's compile of %u kernels:", r->pipeline_ms, r->kernels);
    for (uint32_t k = 0; k < r->kernels && k < SG_RUN_MAX_KERNELS; k++)
      printf(" %s %.1f", sg_template_kernel_name(t, plan, k), r->kernel_pipeline_ms[k]);
    printf(")\n");
  } else {
    printf("pipeline %.1f ms (the driver's compile)\n", r->pipeline_ms);
  }
  if (r->median_ns > 0)
    printf("gpu      %.3f ms median of %u (min %.3f ms)\n", r->median_ns / 1e6, r->repeats, r->min_ns / 1e6);
  else
    printf("gpu      no timestamps on this queue\n");
  const sg_check *c = &r->check;
  printf("check    %" PRIu64 " of %" PRIu64 " elements match (max |err| %.3g, tolerance there %.3g)\n",
         c->checked - c->bad, c->checked, c->max_err, c->max_err_tol);
  if (c->bad)
    printf("MISMATCH %" PRIu64 " elements; first at %s: gpu %.6g, cpu %.6g (tolerance %.3g)\n", c->bad, r->first_bad_where,
           c->first_bad_gpu, c->first_bad_ref, c->first_bad_tol);
}

int spvgen_cmd_run_template(const sg_template *t, int argc, char **argv) {
  char cmd[64];
  snprintf(cmd, sizeof cmd, "run %s", t->name);
  void *desc = calloc(1, t->desc_size);
  template_run_options opt;
  memset(&opt, 0, sizeof opt);
  opt.repeats = 10;
  opt.warmup = 2;
  opt.rounds = 3;
  int rc = desc ? 0 : 1;
  if (!rc && t->flags_init) t->flags_init(desc);
  const spvgen_cli_flags more[] = {{run_flags, &opt}, {NULL, NULL}};
  if (!rc) rc = spvgen_cli_template_parse(cmd, t, desc, more, argc, argv);
  if (rc < 0) run_usage(stdout, t);
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (!rc && spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: no Vulkan device: %s\n", cmd, msg);
    rc = 1;
  }
  void *plan = rc ? NULL : calloc(1, t->plan_size);
  if (!rc && !plan) rc = 1;
  template_run_result res;
  if (!rc) {
    printf("device   %s\n", spvgen_vk_caps(ctx)->name);
    if (template_run(ctx, t, desc, &opt, plan, &res, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen %s: %s\n", cmd, msg);
      rc = 1;
    } else {
      print_run(t, plan, &res);
      rc = res.check.bad ? 1 : 0;
    }
  }
  spvgen_vk_destroy(ctx);
  free(desc);
  free(plan);
  return rc < 0 ? 0 : rc;
}

const sg_template *spvgen_cli_generic_template(const char *name) {
  const sg_template *t = sg_template_find(name);
  return t && t->flags ? t : NULL;
}

/* ------------------------------------------------------------ spvgen tune ---- */

static bool flag_budget(void *o, const char *v, char *why, size_t size) {
  double *b = &((spvgen_cli_tune_options *)o)->budget_seconds;
  if (!sg_parse_number(v, 0, 1e9, b) || !(*b > 0)) return sg_flag_bad(why, size, v, "is not a number of seconds > 0");
  return true;
}
static bool flag_max_candidates(void *o, const char *v, char *why, size_t size) {
  return sg_flag_u32(v, 1, UINT32_MAX, &((spvgen_cli_tune_options *)o)->max_candidates, why, size);
}
static bool flag_tune_repeats(void *o, const char *v, char *why, size_t size) {
  return sg_flag_u32(v, 1, UINT32_MAX, &((spvgen_cli_tune_options *)o)->repeats, why, size);
}
static bool flag_tune_seed(void *o, const char *v, char *why, size_t size) {
  return sg_flag_seed(v, &((spvgen_cli_tune_options *)o)->seed, why, size);
}
static bool flag_tune_caps(void *o, const char *v, char *why, size_t size) {
  (void)o, (void)v;
  snprintf(why, size, "tune uses the device's own caps");
  return false;
}

const sg_flag spvgen_cli_tune_flags[] = {
    SG_FLAG_HEADING("tune:"),
    {"--budget", "SECONDS", "wall time for the whole tuning (default 120)", flag_budget, 0},
    SG_FLAG_TEXT("--cache", "FILE", "the tune cache (default ${XDG_CACHE_HOME:-~/.cache}/spvgen/tune-v1.txt)",
                 spvgen_cli_tune_options, cache),
    {"--max-candidates", "N", "time at most N candidates (the heuristic plan first)", flag_max_candidates, 0},
    {"--repeats", "N", "timed dispatches per candidate (default 15)", flag_tune_repeats, 0},
    {"--seed", "N", "random data seed", flag_tune_seed, 0},
    {"--caps", "NAME", NULL, flag_tune_caps, 0},
    {NULL, NULL, NULL, NULL, 0},
};

void spvgen_cli_tune_usage(FILE *o, const sg_template *t, const char *intro, const sg_flag *more, const char *examples) {
  fprintf(o, "usage: spvgen tune %s [options] [--budget SECONDS] [--cache FILE]\n\n%s\n\n", t->name, intro);
  spvgen_cli_flags_usage(o, t->flags);
  spvgen_cli_flags_usage(o, spvgen_cli_tune_flags);
  spvgen_cli_flags_usage(o, more);
  fprintf(o, "  -h, --help\n\nexamples:\n%s", examples);
}

/* ------------------------------------------------------ spvgen run / bench ---- */

/* The templates with run and bench commands of their own (their output has more than
 * the lifecycle's: GEMM's shape and split-K counters, MLP's training and variants). */
static const struct own_commands {
  const char *name;
  int (*run)(int argc, char **argv);
  int (*bench)(int argc, char **argv);
} own[] = {
    {"gemm", spvgen_cmd_run_gemm, spvgen_cmd_bench_gemm},
    {"mlp", spvgen_cmd_run_mlp, spvgen_cmd_bench_mlp},
};

static bool has_own(const char *name) {
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
    if (!strcmp(name, own[i].name)) return true;
  return false;
}

static int run_or_bench(const char *cmd, int argc, char **argv) {
  bool run = !strcmp(cmd, "run");
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    FILE *o = argc < 2 ? stderr : stdout;
    for (size_t i = 0; sg_templates[i]; i++)
      if (has_own(sg_templates[i]->name) || (run && spvgen_cli_generic_template(sg_templates[i]->name)))
        fprintf(o, "%s spvgen %s %s [options]   (`spvgen %s %s --help`)\n", i ? "      " : "usage:", cmd,
                sg_templates[i]->name, cmd, sg_templates[i]->name);
    if (run)
      fprintf(o, "\nEmits a kernel for the first Vulkan device, runs it on random data and checks it\n"
                 "against the CPU.\n");
    else
      fprintf(o, "       spvgen bench trace FILE [options] (`spvgen bench trace --help`)\n\n"
                 "Times the emission of a kernel on this CPU and, with a Vulkan device, the kernel\n"
                 "itself; or runs a framework's trace of GEMM calls through the kernel cache.\n");
    fprintf(o, "\nexample:\n  spvgen %s gemm --m 1024 --n 1024 --k 1024\n", cmd);
    return argc < 2 ? 2 : 0;
  }
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
    if (!strcmp(argv[1], own[i].name)) return (run ? own[i].run : own[i].bench)(argc - 1, argv + 1);
  if (!run && !strcmp(argv[1], "trace")) return spvgen_cmd_bench_trace(argc - 1, argv + 1);
  const sg_template *t = spvgen_cli_generic_template(argv[1]);
  if (t && run) return spvgen_cmd_run_template(t, argc - 1, argv + 1);
  char names[256] = "";
  for (size_t i = 0; sg_templates[i]; i++)
    if (has_own(sg_templates[i]->name) || (run && spvgen_cli_generic_template(sg_templates[i]->name)))
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "", sg_templates[i]->name);
  return spvgen_cli_usage_error(cmd, "unknown template '%s' (%s%s)", argv[1], names, run ? "" : ", trace");
}

int spvgen_cmd_run(int argc, char **argv) { return run_or_bench("run", argc, argv); }
int spvgen_cmd_bench(int argc, char **argv) { return run_or_bench("bench", argc, argv); }
