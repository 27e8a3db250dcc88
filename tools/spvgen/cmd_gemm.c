/* tools/spvgen/cmd_gemm.c — `spvgen gemm` (emit a GEMM module from parameters) and
 * `spvgen run gemm` (emit it for this machine's device, run it on random data, check
 * every element against a float64 CPU reference, print the variant, GPU time and
 * TFLOP/s). Both take the same flags, parsed once here. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps_json.h"
#include "cmds.h"
#include "gemm_run.h"
#include "spvgen/check.h"
#include "spvgen/gemm.h"
#include "spvgen/vk.h"

static const char gemm_flags_help[] =
    "problem:\n"
    "  --m M --n N --k K      the shape (required; each >= 1), D is M x N\n"
    "  --batch B              batch count (default 1)\n"
    "  --types AB,ACC[,OUT]   input, accumulator and output types (default f16,f32;\n"
    "                         OUT defaults to ACC): f16, bf16, s8, u8, f32 inputs;\n"
    "                         f16, f32, s32 accumulators; f16, f32, bf16, s32, s8, u8, u32 out\n"
    "  --layout XY            nn (default), nt, tn, tt: n = row-major, t = column-major,\n"
    "                         X for A, Y for B\n"
    "  --lda/--ldb/--ldc/--ldd N  leading dimensions in elements (default: tight)\n"
    "epilogue:\n"
    "  --alpha F --beta F     D = alpha*A*B + beta*C (beta != 0 adds binding C)\n"
    "  --bias row|column      add a bias vector (per row of D, or per column)\n"
    "  --act none|relu|gelu|silu\n"
    "knobs (default: chosen for the device):\n"
    "  --variant auto|coopmat2|khr|simt\n"
    "  --tile MxNxK           workgroup tile\n"
    "  --wg N                 invocations per workgroup\n"
    "  --subgroups N --stages N --unroll N --split-k N\n"
    "device:\n"
    "  --caps NAME|FILE       h100, vulkan13 or lavapipe (offline presets), or a file written\n"
    "                         by `spvgen devices --json`; default: the first Vulkan device,\n"
    "                         else vulkan13\n";

/* Parses one unsigned number; false on junk or overflow. */
static bool parse_u32(const char *s, uint32_t *out) {
  if (!s || !*s || *s == '-') return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v > 0xFFFFFFFFull) return false;
  *out = (uint32_t)v;
  return true;
}

static bool parse_float(const char *s, float *out) {
  if (!s || !*s) return false;
  char *end;
  errno = 0;
  float v = strtof(s, &end);
  if (errno || *end) return false;
  *out = v;
  return true;
}

typedef struct gemm_cli {
  spvgen_gemm_desc desc;
  const char *caps_name;
  const char *output;
  bool disassemble, json;
  /* run */
  gemm_run_options run;
} gemm_cli;

/* 1: consumed argv[*i] (and maybe its value); 0: not a GEMM flag; 2: usage error
 * (already printed). */
static int parse_gemm_flag(const char *cmd, int argc, char **argv, int *i, gemm_cli *g) {
  const char *a = argv[*i];
  const char *eq = strchr(a, '=');
  char name[32];
  size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
  if (nlen >= sizeof name || strncmp(a, "--", 2)) return 0;
  memcpy(name, a, nlen);
  name[nlen] = 0;
  static const char *const valued[] = {"--m", "--n", "--k", "--batch", "--types", "--layout", "--lda",
                                       "--ldb", "--ldc", "--ldd", "--alpha", "--beta", "--bias", "--act",
                                       "--variant", "--tile", "--wg", "--subgroups", "--stages",
                                       "--unroll", "--split-k", "--caps", "--repeats", "--warmup",
                                       "--sample", "--seed"};
  bool known = false;
  for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) known |= !strcmp(name, valued[k]);
  if (!known) return 0;
  const char *v = eq ? eq + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
  if (!v) return spvgen_cli_usage_error(cmd, "%s needs a value", name);
  spvgen_gemm_desc *d = &g->desc;
  uint32_t *u = NULL;
  if (!strcmp(name, "--m")) u = &d->m;
  else if (!strcmp(name, "--n")) u = &d->n;
  else if (!strcmp(name, "--k")) u = &d->k;
  else if (!strcmp(name, "--batch")) u = &d->batch;
  else if (!strcmp(name, "--lda")) u = &d->lda;
  else if (!strcmp(name, "--ldb")) u = &d->ldb;
  else if (!strcmp(name, "--ldc")) u = &d->ldc;
  else if (!strcmp(name, "--ldd")) u = &d->ldd;
  else if (!strcmp(name, "--wg")) u = &d->workgroup_size;
  else if (!strcmp(name, "--subgroups")) u = &d->subgroups;
  else if (!strcmp(name, "--stages")) u = &d->stages;
  else if (!strcmp(name, "--unroll")) u = &d->unroll;
  else if (!strcmp(name, "--split-k")) u = &d->split_k;
  else if (!strcmp(name, "--repeats")) u = &g->run.repeats;
  else if (!strcmp(name, "--warmup")) u = &g->run.warmup;
  else if (!strcmp(name, "--sample")) u = &g->run.sample;
  if (u) {
    if (!parse_u32(v, u)) return spvgen_cli_usage_error(cmd, "%s: '%s' is not a number", name, v);
    return 1;
  }
  if (!strcmp(name, "--seed")) {
    char *end;
    errno = 0;
    g->run.seed = strtoull(v, &end, 0);
    if (errno || *end || !*v) return spvgen_cli_usage_error(cmd, "--seed: '%s' is not a number", v);
    return 1;
  }
  if (!strcmp(name, "--alpha") || !strcmp(name, "--beta")) {
    if (!parse_float(v, name[2] == 'a' ? &d->alpha : &d->beta))
      return spvgen_cli_usage_error(cmd, "%s: '%s' is not a number", name, v);
    return 1;
  }
  if (!strcmp(name, "--types")) {
    char buf[64];
    if (strlen(v) >= sizeof buf) return spvgen_cli_usage_error(cmd, "--types: '%s' is too long", v);
    strcpy(buf, v);
    char *parts[3] = {0};
    int np = 0;
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
      if (np == 3) return spvgen_cli_usage_error(cmd, "--types: '%s' has more than AB,ACC,OUT", v);
      parts[np++] = t;
    }
    if (np < 2) return spvgen_cli_usage_error(cmd, "--types: '%s' needs at least AB,ACC (e.g. f16,f32)", v);
    spvgen_component_type ts[3];
    for (int k = 0; k < np; k++)
      if (!spvgen_component_type_parse(parts[k], &ts[k]))
        return spvgen_cli_usage_error(cmd, "--types: unknown type '%s' (f16, bf16, f32, s8, u8, s32, u32, e4m3, e5m2)",
                                      parts[k]);
    d->a_type = d->b_type = ts[0];
    d->acc_type = ts[1];
    d->out_type = np == 3 ? ts[2] : ts[1];
    return 1;
  }
  if (!strcmp(name, "--layout")) {
    if (strlen(v) != 2 || !strchr("nt", v[0]) || !strchr("nt", v[1]))
      return spvgen_cli_usage_error(cmd, "--layout: '%s' is not nn, nt, tn or tt", v);
    d->a_layout = v[0] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
    d->b_layout = v[1] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
    return 1;
  }
  if (!strcmp(name, "--bias")) {
    if (!strcmp(v, "row")) d->bias = SPVGEN_GEMM_BIAS_ROW;
    else if (!strcmp(v, "column")) d->bias = SPVGEN_GEMM_BIAS_COLUMN;
    else if (!strcmp(v, "none")) d->bias = SPVGEN_GEMM_BIAS_NONE;
    else return spvgen_cli_usage_error(cmd, "--bias: '%s' is not row, column or none", v);
    return 1;
  }
  if (!strcmp(name, "--act")) {
    if (!spvgen_activation_parse(v, &d->activation))
      return spvgen_cli_usage_error(cmd, "--act: '%s' is not none, relu, gelu or silu", v);
    return 1;
  }
  if (!strcmp(name, "--variant")) {
    if (!spvgen_gemm_variant_parse(v, &d->variant))
      return spvgen_cli_usage_error(cmd, "--variant: '%s' is not auto, coopmat2, khr or simt", v);
    return 1;
  }
  if (!strcmp(name, "--tile")) {
    unsigned tm, tn, tk;
    char extra;
    if (sscanf(v, "%ux%ux%u%c", &tm, &tn, &tk, &extra) != 3)
      return spvgen_cli_usage_error(cmd, "--tile: '%s' is not MxNxK (e.g. 128x128x32)", v);
    d->tile_m = tm;
    d->tile_n = tn;
    d->tile_k = tk;
    return 1;
  }
  if (!strcmp(name, "--caps")) {
    g->caps_name = v;
    return 1;
  }
  return 0;
}

/* The caps the user named, or the first device's, or vulkan13. */
static int resolve_caps(const char *cmd, const gemm_cli *g, spvgen_device_caps *caps) {
  if (g->caps_name) {
    if (spvgen_caps_preset(g->caps_name, caps) == SPVGEN_OK) return 0;
    FILE *f = fopen(g->caps_name, "rb");
    if (f) {
      /* A caps file: what `spvgen devices --json` wrote on some machine. */
      static char text[1 << 20];
      size_t n = fread(text, 1, sizeof text, f);
      bool too_big = n == sizeof text;
      fclose(f);
      char msg[256];
      if (too_big) {
        fprintf(stderr, "spvgen %s: --caps %s: over 1 MiB, not a caps file\n", cmd, g->caps_name);
        return 1;
      }
      if (!spvgen_caps_from_json(text, n, caps, msg, sizeof msg)) {
        fprintf(stderr, "spvgen %s: --caps %s: %s\n", cmd, g->caps_name, msg);
        return 1;
      }
      return 0;
    }
    fprintf(stderr, "spvgen %s: --caps: '%s' is neither a preset nor a readable caps file (", cmd, g->caps_name);
    const char *const *names = spvgen_caps_preset_names();
    for (int i = 0; names[i]; i++) fprintf(stderr, "%s%s", i ? ", " : "", names[i]);
    fprintf(stderr, ")\n");
    return 2;
  }
  uint32_t count = 0;
  char msg[256];
  if (spvgen_vk_enumerate(caps, 1, &count, msg, sizeof msg) == SPVGEN_OK && count > 0) return 0;
  spvgen_caps_preset("vulkan13", caps);
  return 0;
}

static void json_str(FILE *o, const char *s) {
  fputc('"', o);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', o);
    fputc(*s, o);
  }
  fputc('"', o);
}

/* FNV-1a 64 of the words: a content hash for pipeline caches. */
static uint64_t words_hash(const uint32_t *w, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    for (int b = 0; b < 4; b++) h = (h ^ ((w[i] >> (8 * b)) & 0xFF)) * 1099511628211ull;
  return h;
}

static void print_json(FILE *o, const spvgen_gemm_config *p, const spvgen_kernel *k) {
  const spvgen_kernel_info *in = &k->info;
  fprintf(o, "{\n  \"template\": \"gemm\",\n  \"variant\": ");
  json_str(o, spvgen_gemm_variant_name(p->variant));
  fprintf(o, ",\n  \"plan\": ");
  json_str(o, p->name);
  fprintf(o, ",\n  \"m\": %u, \"n\": %u, \"k\": %u, \"batch\": %u,\n", p->desc.m, p->desc.n, p->desc.k,
          p->desc.batch);
  fprintf(o, "  \"tile\": [%u, %u, %u],\n", p->desc.tile_m, p->desc.tile_n, p->desc.tile_k);
  fprintf(o, "  \"entry_point\": \"main\",\n  \"workgroup_size\": [%u, %u, %u],\n", in->local_size[0],
          in->local_size[1], in->local_size[2]);
  fprintf(o, "  \"dispatch\": [%u, %u, %u],\n", in->groups[0], in->groups[1], in->groups[2]);
  fprintf(o, "  \"push_constant_size\": %u,\n  \"spec_constants\": [],\n", in->push_constant_size);
  fprintf(o, "  \"bindings\": [");
  static const char *const names[] = {"A", "B", "D", "C", "bias"};
  uint32_t name_at[5] = {0, 1, 2, 3, 4};
  if (p->desc.beta == 0.0f) name_at[3] = 4;
  for (uint32_t i = 0; i < in->binding_count; i++)
    fprintf(o, "%s{\"set\": %u, \"binding\": %u, \"kind\": \"storage_buffer\", \"name\": \"%s\"}",
            i ? ", " : "", in->bindings[i].set, in->bindings[i].binding,
            in->bindings[i].binding < 5 ? names[name_at[in->bindings[i].binding]] : "?");
  fprintf(o, "],\n  \"features\": [");
  int first = 1;
  for (int b = 0; b < SPVGEN_FEATURE_COUNT; b++)
    if (p->features & (1ull << b)) {
      fprintf(o, "%s\"%s\"", first ? "" : ", ", spvgen_feature_name(1ull << b));
      first = 0;
    }
  fprintf(o, "],\n  \"words\": %zu,\n  \"hash\": \"%016" PRIx64 "\"\n}\n", k->word_count,
          words_hash(k->words, k->word_count));
}

static void gemm_usage(FILE *o, bool run) {
  if (run)
    fprintf(o, "usage: spvgen run gemm --m M --n N --k K [options]\n\n"
               "Emits a GEMM for the first Vulkan device, runs it on random data, checks every\n"
               "element of D against a float64 CPU reference and prints the variant, the GPU\n"
               "time (median of the repeats) and TFLOP/s.\n\n");
  else
    fprintf(o, "usage: spvgen gemm --m M --n N --k K [options] [-o FILE.spv | -S | --json]\n\n"
               "Emits a GEMM module D = alpha*A*B + beta*C (+bias, activation) for a device.\n"
               "Bindings: 0 A, 1 B, 2 D, then C and bias when used; dispatch as --json says.\n\n");
  fputs(gemm_flags_help, o);
  if (run)
    fputs("run:\n"
          "  --repeats N            timed dispatches (default 10), --warmup N (default 2)\n"
          "  --sample N             check N random elements instead of all (large shapes)\n"
          "  --seed N               random data seed\n"
          "  --stats                print the driver's pipeline statistics (registers,\n"
          "                         spills, shared memory; VK_KHR_pipeline_executable_properties)\n",
          o);
  else
    fputs("output:\n"
          "  -o FILE                write the module (default gemm.spv; - for stdout)\n"
          "  -S                     print the disassembly instead\n"
          "  --json                 print the kernel's metadata as JSON instead\n",
          o);
  fprintf(o, "\nexamples:\n  spvgen %s --m 4096 --n 4096 --k 4096 --types f16,f32 %s\n", run ? "run gemm" : "gemm",
          run ? "" : "--caps h100 -o gemm.spv");
  fprintf(o, "  spvgen %s --m 97 --n 131 --k 67 --layout tn --types s8,s32 --bias row --act relu%s\n",
          run ? "run gemm" : "gemm", run ? "" : " --json");
  fprintf(o, "\nexit status: 0 ok, 1 failure (refused, invalid, mismatch), 2 usage error\n");
}

static int parse_all(const char *cmd, int argc, char **argv, gemm_cli *g, bool run) {
  memset(g, 0, sizeof *g);
  g->desc.acc_type = SPVGEN_COMPONENT_F32; /* the CLI's default: f16,f32 */
  g->desc.out_type = SPVGEN_COMPONENT_F32;
  g->run.repeats = 10;
  g->run.warmup = 2;
  g->run.warmup_ms = 200; /* leave the idle clocks before timing (gemm_run.h) */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      gemm_usage(stdout, run);
      return -1;
    }
    int r = parse_gemm_flag(cmd, argc, argv, &i, g);
    if (r == 2) return 2;
    if (r == 1) continue;
    if (!run && !strcmp(a, "-o")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error(cmd, "-o needs a file name");
      g->output = argv[++i];
    } else if (!run && !strcmp(a, "-S")) {
      g->disassemble = true;
    } else if (!run && !strcmp(a, "--json")) {
      g->json = true;
    } else if (run && !strcmp(a, "--stats")) {
      g->run.statistics = true;
    } else {
      return spvgen_cli_usage_error(cmd, "unknown argument '%s'", a);
    }
  }
  if (!g->desc.m || !g->desc.n || !g->desc.k)
    return spvgen_cli_usage_error(cmd, "--m, --n and --k are required (each >= 1)");
  return 0;
}

int spvgen_cmd_gemm(int argc, char **argv) {
  gemm_cli g;
  int r = parse_all("gemm", argc, argv, &g, false);
  if (r) return r < 0 ? 0 : r;
  spvgen_device_caps caps;
  if ((r = resolve_caps("gemm", &g, &caps))) return r;
  char msg[1024];
  spvgen_gemm_config plan;
  if (spvgen_gemm_plan(&g.desc, &caps, &plan, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen gemm: %s\n", msg);
    return 1;
  }
  spvgen_kernel k;
  if (spvgen_gemm(&g.desc, &caps, &k, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen gemm: %s\n", msg);
    return 1;
  }
  int rc = 0;
  static char vmsg[16 * 1024];
  spvgen_validate_options vo = {0};
  bool can_validate = g.desc.a_type != SPVGEN_COMPONENT_BF16 && g.desc.out_type != SPVGEN_COMPONENT_BF16;
  if (can_validate && spvgen_validate(k.words, k.word_count, &vo, vmsg, sizeof vmsg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen gemm: the emitted module does not validate (a bug in spvgen): %s\n", vmsg);
    rc = 1;
  } else if (g.json) {
    print_json(stdout, &plan, &k);
  } else if (g.disassemble) {
    char *text = NULL;
    if (spvgen_disassemble(k.words, k.word_count, SPVGEN_DIS_FRIENDLY_NAMES, &text) != SPVGEN_OK) {
      fprintf(stderr, "spvgen gemm: cannot disassemble: %s\n", text ? text : "");
      rc = 1;
    } else {
      fputs(text, stdout);
    }
    spvgen_free_text(text);
  } else {
    const char *path = g.output ? g.output : "gemm.spv";
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!f || fwrite(k.words, 4, k.word_count, f) != k.word_count || (f != stdout && fclose(f))) {
      fprintf(stderr, "spvgen gemm: cannot write '%s': %s\n", path, strerror(errno));
      rc = 1;
    } else if (f != stdout) {
      fprintf(stderr, "spvgen gemm: %s: %s (%zu words)\n", path, plan.name, k.word_count);
    }
  }
  spvgen_kernel_free(&k);
  return rc;
}

static int run_gemm(int argc, char **argv) {
  gemm_cli g;
  int r = parse_all("run gemm", argc, argv, &g, true);
  if (r) return r < 0 ? 0 : r;
  if (g.caps_name) return spvgen_cli_usage_error("run gemm", "--caps: run uses the device's own caps");
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  if (spvgen_vk_create(NULL, &ctx, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen run gemm: no Vulkan device: %s\n", msg);
    return 1;
  }
  gemm_run_result res;
  spvgen_status st = gemm_run(ctx, &g.desc, &g.run, &res, msg, sizeof msg);
  int rc = 0;
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen run gemm: %s\n", msg);
    rc = 1;
  } else {
    printf("device   %s\n", spvgen_vk_caps(ctx)->name);
    printf("plan     %s\n", res.plan.name);
    printf("emit     %.1f us\n", res.emit_us);
    if (g.run.statistics) printf("stats    %s\n", res.stats);
    if (res.median_ns > 0)
      printf("gpu      %.3f ms median of %u (min %.3f ms), %.3g %s/s\n", res.median_ns / 1e6,
             g.run.repeats, res.min_ns / 1e6, res.tflops,
             g.desc.a_type == SPVGEN_COMPONENT_S8 || g.desc.a_type == SPVGEN_COMPONENT_U8 ? "TOP" : "TFLOP");
    else
      printf("gpu      no timestamps on this queue\n");
    printf("check    %" PRIu64 " of %" PRIu64 " elements %s (max |err| %.3g, tolerance there %.3g)\n",
           res.checked - res.bad, res.checked, res.bad ? "match" : "match", res.max_err, res.max_err_tol);
    if (res.bad) {
      printf("MISMATCH %" PRIu64 " elements; first at batch %" PRIu64 " (%" PRIu64 ", %" PRIu64 "): gpu %.6g, cpu %.6g\n",
             res.bad, res.first_bad_batch, res.first_bad_row, res.first_bad_col, res.first_bad_gpu,
             res.first_bad_ref);
      rc = 1;
    }
  }
  spvgen_vk_destroy(ctx);
  return rc;
}

int spvgen_cmd_run(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    FILE *o = argc < 2 ? stderr : stdout;
    fprintf(o, "usage: spvgen run gemm [options]   (`spvgen run gemm --help`)\n\n"
               "Emits a kernel for the first Vulkan device, runs it on random data and checks it\n"
               "against the CPU.\n");
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "gemm")) return run_gemm(argc - 1, argv + 1);
  return spvgen_cli_usage_error("run", "unknown template '%s' (gemm)", argv[1]);
}
