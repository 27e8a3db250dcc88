/* tools/spvgen/cmd_template.c — `spvgen NAME` and `spvgen run NAME` for a template of
 * the table (lib/template/template.h) from what its entry declares: its flags (each
 * parsed into the desc by the template's own parser, a usage error naming the flag), its
 * run hooks (the lifecycle of tools/common/template_run.h). A template that only has a
 * table entry gets both commands without a line here (elementwise). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "spvgen/check.h"
#include "spvgen/vk.h"
#include "template_run.h"

/* ------------------------------------------------------------------ flags ---- */

int spvgen_cli_template_flag(const char *cmd, const sg_template *t, int argc, char **argv, int *i, void *desc) {
  const char *arg = argv[*i];
  for (const sg_flag *f = t->flags; f && f->name; f++) {
    if (strcmp(arg, f->name)) continue;
    const char *value = NULL;
    if (f->value) {
      if (*i + 1 >= argc) return spvgen_cli_usage_error(cmd, "%s needs a value (%s)", f->name, f->value);
      value = argv[++*i];
    }
    char why[256] = "";
    if (!f->parse(desc, value, why, sizeof why))
      return spvgen_cli_usage_error(cmd, "%s: '%s' %s", f->name, value ? value : "", why);
    return 0;
  }
  return 1;
}

void spvgen_cli_template_usage(FILE *o, const sg_template *t) {
  for (const sg_flag *f = t->flags; f && f->name; f++) {
    char left[64];
    snprintf(left, sizeof left, "%s%s%s", f->name, f->value ? " " : "", f->value ? f->value : "");
    fprintf(o, "  %-26s %s\n", left, f->help);
  }
}

/* A number flag of the commands below: 0 parsed, 2 usage error. */
static int number(const char *cmd, int argc, char **argv, int *i, uint64_t min, uint64_t max, uint64_t *out) {
  const char *name = argv[*i];
  if (*i + 1 >= argc) return spvgen_cli_usage_error(cmd, "%s needs a value", name);
  const char *v = argv[++*i];
  if (!sg_parse_u64(v, false, min, max, out))
    return spvgen_cli_usage_error(cmd, "%s: '%s' is not a number from %" PRIu64 " to %" PRIu64, name, v, min, max);
  return 0;
}

/* ------------------------------------------------------------ spvgen NAME ---- */

static void emit_usage(FILE *o, const sg_template *t) {
  fprintf(o, "usage: spvgen %s [options]\n\nEmits the %s kernel: %s.\n\noptions:\n", t->name, t->name, t->summary);
  spvgen_cli_template_usage(o, t);
  fprintf(o, "  %-26s %s\n", "--caps NAME|FILE", "the device: a preset or a `spvgen devices --json` file");
  fprintf(o, "  %-26s %s\n", "", "(default: this machine's first device, else vulkan13)");
  fprintf(o, "  %-26s %s\n", "-o FILE", "write there (\"-\": stdout; default NAME.spv)");
  fprintf(o, "  %-26s %s\n", "-S", "the disassembly instead of the binary");
  fprintf(o, "  %-26s %s\n", "--json", "the kernel's metadata as JSON instead of the binary");
  fprintf(o, "\nexamples:\n  spvgen %s %s -o %s.spv\n  spvgen %s --json\n", t->name, t->example ? t->example : "",
          t->name, t->name);
}

/* Opens path for writing ("-": stdout). NULL after printing why. */
static FILE *open_output(const char *cmd, const char *path, bool binary) {
  if (!strcmp(path, "-")) return stdout;
  FILE *f = fopen(path, binary ? "wb" : "w");
  if (!f) fprintf(stderr, "spvgen %s: cannot write '%s': %s\n", cmd, path, strerror(errno));
  return f;
}

/* Closes f (flushes stdout); 0 ok, 1 after printing why. */
static int close_output(const char *cmd, FILE *f, const char *path) {
  int bad = ferror(f);
  bool to_stdout = f == stdout;
  bad |= to_stdout ? fflush(f) != 0 : fclose(f) != 0;
  if (bad && to_stdout && spvgen_cli_reader_gone(stdout)) return 0;
  if (bad) fprintf(stderr, "spvgen %s: write to '%s' failed\n", cmd, to_stdout ? "stdout" : path);
  return bad ? 1 : 0;
}

/* Writes the module as asked: binary to path, or the disassembly / JSON. */
static int write_kernel(const sg_template *t, const void *plan, const spvgen_kernel *k, const char *output,
                        bool disassemble, bool json) {
  const char *cmd = t->name;
  char path[256];
  snprintf(path, sizeof path, "%s.spv", t->name);
  if (output) snprintf(path, sizeof path, "%s", output);
  else if (disassemble || json) snprintf(path, sizeof path, "-");
  char *dis = NULL;
  char dmsg[1024];
  if (disassemble &&
      spvgen_disassemble(k->words, k->word_count, SPVGEN_DIS_FRIENDLY_NAMES, &dis, dmsg, sizeof dmsg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: cannot disassemble: %s\n", cmd, dmsg);
    return 1;
  }
  FILE *f = open_output(cmd, path, !disassemble && !json);
  int rc = 1;
  if (f) {
    rc = 0;
    if (json) sg_template_json(t, f, plan, k);
    else if (disassemble) fputs(dis, f);
    else rc = fwrite(k->words, 4, k->word_count, f) != k->word_count;
    rc |= close_output(cmd, f, path);
    if (!rc && f != stdout && !disassemble && !json) {
      char name[256];
      t->plan_name(plan, name, sizeof name);
      fprintf(stderr, "spvgen %s: %s: %s (%zu words)\n", cmd, path, name, k->word_count);
    }
  }
  spvgen_free_text(dis);
  return rc;
}

int spvgen_cmd_template(const sg_template *t, int argc, char **argv) {
  const char *cmd = t->name, *caps_name = NULL, *output = NULL;
  bool disassemble = false, json = false;
  void *desc = calloc(1, t->desc_size), *plan = calloc(1, t->plan_size);
  int rc = desc && plan ? 0 : 1;
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      emit_usage(stdout, t);
      rc = -1;
    } else if (!strcmp(a, "-S")) {
      disassemble = true;
    } else if (!strcmp(a, "--json")) {
      json = true;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--caps")) {
      if (i + 1 >= argc) rc = spvgen_cli_usage_error(cmd, "%s needs a value", a);
      else *(!strcmp(a, "-o") ? &output : &caps_name) = argv[++i];
    } else if ((rc = spvgen_cli_template_flag(cmd, t, argc, argv, &i, desc)) == 1) {
      rc = spvgen_cli_usage_error(cmd, a[0] == '-' ? "unknown option '%s'" : "unknown argument '%s'", a);
    }
  }
  if (!rc && disassemble && json) rc = spvgen_cli_usage_error(cmd, "-S and --json: choose one output");
  spvgen_device_caps caps;
  if (!rc) rc = spvgen_cli_resolve_caps(cmd, caps_name, &caps);
  char msg[1024];
  spvgen_kernel k;
  memset(&k, 0, sizeof k);
  if (!rc && (t->plan(desc, &caps, plan, msg, sizeof msg) != SPVGEN_OK ||
              t->kernel(desc, &caps, &k, msg, sizeof msg) != SPVGEN_OK)) {
    fprintf(stderr, "spvgen %s: %s\n", cmd, msg);
    rc = 1;
  }
  static char vmsg[16 * 1024];
  spvgen_validate_options vo = {0};
  if (!rc && spvgen_validate(k.words, k.word_count, &vo, vmsg, sizeof vmsg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen %s: the emitted module does not validate (a bug in spvgen): %s\n", cmd, vmsg);
    rc = 1;
  }
  if (!rc) rc = write_kernel(t, plan, &k, output, disassemble, json);
  spvgen_kernel_free(&k);
  free(desc);
  free(plan);
  return rc < 0 ? 0 : rc;
}

/* -------------------------------------------------------- spvgen run NAME ---- */

static void run_usage(FILE *o, const sg_template *t) {
  fprintf(o,
          "usage: spvgen run %s [options]\n\nEmits the %s kernel (%s) for the first Vulkan device, runs\n"
          "it on random data (never zeros) and checks every element against the float64 CPU\n"
          "reference. Exit 0 when every element is within the tolerance, 1 otherwise.\n\noptions:\n",
          t->name, t->name, t->summary);
  spvgen_cli_template_usage(o, t);
  fprintf(o, "  %-26s %s\n", "--size N", "the problem size the desc leaves open (the template's default)");
  fprintf(o, "  %-26s %s\n", "--seed N", "the inputs' random seed (default fixed)");
  fprintf(o, "  %-26s %s\n", "--repeats N", "timed dispatches (default 10)");
  fprintf(o, "  %-26s %s\n", "--warmup N", "dispatches before them (default 2)");
  fprintf(o, "  %-26s %s\n", "--sample N", "check about N elements instead of all");
  fprintf(o, "  %-26s %s\n", "--no-check", "timing only");
  fprintf(o, "\nexample:\n  spvgen run %s %s\n", t->name, t->example ? t->example : "");
}

static void print_run(const sg_template *t, const void *plan, const template_run_result *r) {
  char name[256];
  t->plan_name(plan, name, sizeof name);
  printf("plan     %s\n", name);
  printf("emit     %.1f us, %zu words\n", r->emit_us, r->words);
  printf("pipeline %.1f ms (the driver's compile)\n", r->pipeline_ms);
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
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    uint64_t v = 0;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      run_usage(stdout, t);
      rc = -1;
    } else if (!strcmp(a, "--no-check")) {
      opt.no_check = true;
    } else if (!strcmp(a, "--size")) {
      rc = number(cmd, argc, argv, &i, 1, UINT32_MAX, &opt.request.size);
    } else if (!strcmp(a, "--seed")) {
      rc = number(cmd, argc, argv, &i, 1, UINT64_MAX, &opt.request.seed);
    } else if (!strcmp(a, "--sample")) {
      rc = number(cmd, argc, argv, &i, 1, UINT64_MAX, &opt.sample);
    } else if (!strcmp(a, "--repeats") || !strcmp(a, "--warmup")) {
      rc = number(cmd, argc, argv, &i, !strcmp(a, "--repeats"), TEMPLATE_RUN_MAX_REPEATS, &v);
      *(!strcmp(a, "--repeats") ? &opt.repeats : &opt.warmup) = (uint32_t)v;
    } else if (!strcmp(a, "--caps")) {
      rc = spvgen_cli_usage_error(cmd, "--caps: run uses the device's own caps");
    } else if ((rc = spvgen_cli_template_flag(cmd, t, argc, argv, &i, desc)) == 1) {
      rc = spvgen_cli_usage_error(cmd, a[0] == '-' ? "unknown option '%s'" : "unknown argument '%s'", a);
    }
  }
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
      rc = res.check.bad || res.scratch_left ? 1 : 0;
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
