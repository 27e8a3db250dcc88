/* tools/spvgen/cmd_gemm.c — `spvgen gemm` (emit a GEMM module from parameters: .spv,
 * disassembly, a C header or JSON metadata), `spvgen run gemm` (emit it for this
 * machine's device, run it on random data, check every element against a float64 CPU
 * reference, print the variant, GPU time and TFLOP/s) and `spvgen bench gemm` (time the
 * emission on this CPU, and the kernel on the device with a sampled check). All take the
 * same problem flags, parsed once here; `spvgen tune gemm` (cmd_tune.c) parses its flags
 * here too (spvgen_cli_parse_tune_gemm). */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "caps_json.h"
#include "json_out.h"
#include "clock.h"
#include "cmds.h"
#include "gemm_run.h"
#include "spvgen/check.h"
#include "spvgen/gemm.h"
#include "spvgen/version.h"
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
    "  --edge auto|branch|clamp|shift  coopmat2: tiles crossing M or N run a clamped copy\n"
    "                         of the kernel (branch), every tile runs the clamped one\n"
    "                         (clamp), or edge tiles move inside and overlap (shift, beta 0)\n"
    "  --edge-unroll N        coopmat2 branch: unroll of the clamped edge path (default 1)\n"
    "  --compile-budget MS    the driver compile time the plan may cost, estimated (default\n"
    "                         300; 1000 for fixed shapes that run 1 ms or more)\n"
    "shapes:\n"
    "  --shapes auto|fixed|runtime  fixed: the shape is part of the kernel (default);\n"
    "                         runtime: M, N, K, ld*, strides, alpha, beta are push\n"
    "                         constants, one kernel for every shape of its class (then\n"
    "                         --m/--n/--k are the shape run, or planned for)\n"
    "  --m-multiple/--n-multiple/--k-multiple N  runtime class: M (N, K) always a\n"
    "                         multiple of N\n"
    "  --ld-multiple N        runtime class: every ld and batch stride a multiple of N\n"
    "  --addressing descriptors|device-address  device-address: every buffer a 64-bit\n"
    "                         pointer in the push constants, no descriptor set (simt)\n"
    "device:\n"
    "  --caps NAME|FILE       h100, vulkan13 or lavapipe (offline presets), or a file written\n"
    "                         by `spvgen devices --json`; default: the first Vulkan device,\n"
    "                         else vulkan13\n";

/* Parses one unsigned number; false on junk or overflow. */

/* A finite float (alpha, beta, a budget). */
static bool parse_float(const char *s, float *out) {
  double v;
  if (!sg_parse_number(s, -3.4e38, 3.4e38, &v)) return false;
  *out = (float)v;
  return true;
}

typedef enum gemm_mode { MODE_GEMM, MODE_RUN, MODE_BENCH, MODE_TUNE } gemm_mode;

typedef struct gemm_cli {
  gemm_mode mode;
  spvgen_gemm_desc desc;
  const char *caps_name;
  const char *output;
  bool disassemble, json;
  const char *c_header; /* --c-header NAME */
  /* run and bench */
  gemm_run_options run;
  uint32_t emit_repeats; /* bench */
  bool no_gpu;           /* bench */
  spvgen_cli_tune_args tune; /* tune: --budget, --cache, --max-candidates */
  spvgen_gemm_args args;     /* --shapes runtime: the shape to run (from --m ... --ldd) */
} gemm_cli;

/* The flags each mode takes besides the problem's (which every mode takes). */
static bool flag_allowed(const char *name, gemm_mode mode) {
  static const char *const run_only[] = {"--repeats", "--warmup", "--warmup-ms", "--sample", "--seed"};
  static const char *const bench_only[] = {"--repeats", "--gpu-repeats", "--warmup-ms", "--sample", "--seed"};
  static const char *const tune_only[] = {"--repeats", "--seed"};
  bool in_run = false, in_bench = false, in_tune = false;
  for (size_t k = 0; k < sizeof tune_only / sizeof tune_only[0]; k++) in_tune |= !strcmp(name, tune_only[k]);
  for (size_t k = 0; k < sizeof run_only / sizeof run_only[0]; k++) in_run |= !strcmp(name, run_only[k]);
  for (size_t k = 0; k < sizeof bench_only / sizeof bench_only[0]; k++) in_bench |= !strcmp(name, bench_only[k]);
  if (!in_run && !in_bench && !in_tune) return true;
  return (mode == MODE_RUN && in_run) || (mode == MODE_BENCH && in_bench) || (mode == MODE_TUNE && in_tune);
}

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
                                       "--unroll", "--split-k", "--edge", "--caps", "--repeats", "--warmup",
                                       "--sample", "--seed", "--gpu-repeats", "--warmup-ms", "--shapes",
                                       "--m-multiple", "--n-multiple", "--k-multiple", "--ld-multiple",
                                       "--compile-budget", "--edge-unroll", "--addressing"};
  bool known = false;
  for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) known |= !strcmp(name, valued[k]);
  if (!known || !flag_allowed(name, g->mode)) return 0;
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
  else if (!strcmp(name, "--m-multiple")) u = &d->m_multiple;
  else if (!strcmp(name, "--n-multiple")) u = &d->n_multiple;
  else if (!strcmp(name, "--k-multiple")) u = &d->k_multiple;
  else if (!strcmp(name, "--ld-multiple")) u = &d->ld_multiple;
  else if (!strcmp(name, "--compile-budget")) u = &d->compile_budget_ms;
  else if (!strcmp(name, "--edge-unroll")) u = &d->edge_unroll;
  else if (!strcmp(name, "--repeats")) u = g->mode == MODE_BENCH ? &g->emit_repeats : &g->run.repeats;
  else if (!strcmp(name, "--gpu-repeats")) u = &g->run.repeats;
  else if (!strcmp(name, "--warmup")) u = &g->run.warmup;
  else if (!strcmp(name, "--warmup-ms")) u = &g->run.warmup_ms;
  else if (!strcmp(name, "--sample")) u = &g->run.sample;
  if (u) {
    if (!spvgen_cli_u32(v, u))
      return spvgen_cli_usage_error(cmd, "%s: '%s' is not a number (an integer >= 0)", name, v);
    bool at_least_1 = !strcmp(name, "--m") || !strcmp(name, "--n") || !strcmp(name, "--k") ||
                      !strcmp(name, "--batch") || !strcmp(name, "--repeats") || !strcmp(name, "--gpu-repeats");
    if (at_least_1 && *u == 0) return spvgen_cli_usage_error(cmd, "%s: '%s' must be at least 1", name, v);
    return 1;
  }
  if (!strcmp(name, "--seed")) {
    if (!sg_parse_u64(v, true, 0, UINT64_MAX, &g->run.seed))
      return spvgen_cli_usage_error(cmd, "--seed: '%s' is not a number from 0 to 2^64 - 1 (decimal or 0x...)", v);
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
  if (!strcmp(name, "--addressing")) {
    if (!spvgen_addressing_parse(v, &d->addressing))
      return spvgen_cli_usage_error(cmd, "--addressing: '%s' is not descriptors or device-address", v);
    return 1;
  }
  if (!strcmp(name, "--shapes")) {
    if (!spvgen_gemm_shapes_parse(v, &d->shapes))
      return spvgen_cli_usage_error(cmd, "--shapes: '%s' is not auto, fixed or runtime", v);
    return 1;
  }
  if (!strcmp(name, "--edge")) {
    if (!spvgen_gemm_edge_parse(v, &d->edge))
      return spvgen_cli_usage_error(cmd, "--edge: '%s' is not auto, branch, clamp or shift", v);
    return 1;
  }
  if (!strcmp(name, "--variant")) {
    if (!spvgen_gemm_variant_parse(v, &d->variant))
      return spvgen_cli_usage_error(cmd, "--variant: '%s' is not auto, coopmat2, khr or simt", v);
    return 1;
  }
  if (!strcmp(name, "--tile")) {
    uint32_t t[3], nt = 0;
    if (!sg_parse_u32_list(v, 'x', 0, UINT32_MAX, t, 3, &nt) || nt != 3)
      return spvgen_cli_usage_error(cmd, "--tile: '%s' is not MxNxK (e.g. 128x128x32)", v);
    d->tile_m = t[0];
    d->tile_n = t[1];
    d->tile_k = t[2];
    return 1;
  }
  if (!strcmp(name, "--caps")) {
    g->caps_name = v;
    return 1;
  }
  return 0;
}

/* A C header holding the words: static const uint32_t NAME[], NAME_word_count and
 * NAME_size (bytes) as macros (no unused-variable warnings where only the array is
 * used). */
static void print_c_header(FILE *o, const char *name, const spvgen_gemm_config *p, const spvgen_kernel *k,
                           int argc, char **argv) {
  fprintf(o, "/* Generated by spvgen %s:", spvgen_version());
  for (int i = 0; i < argc; i++) fprintf(o, " %s", strstr(argv[i], "*/") ? "..." : argv[i]);
  fprintf(o, "\n * plan: %s\n * dispatch %u x %u x %u workgroups of %u x %u x %u; bindings (set 0): 0 A, 1 B, 2 D%s%s.\n"
             " * words hash (fnv1a-64): %016" PRIx64 " */\n",
          p->name, k->info.groups[0], k->info.groups[1], k->info.groups[2], k->info.local_size[0],
          k->info.local_size[1], k->info.local_size[2], p->desc.beta != 0.0f ? ", 3 C" : "",
          p->desc.bias != SPVGEN_GEMM_BIAS_NONE ? (p->desc.beta != 0.0f ? ", 4 bias" : ", 3 bias") : "",
          spvgen_words_hash(k->words, k->word_count));
  fprintf(o, "#ifndef %s_SPV_H\n#define %s_SPV_H\n#include <stddef.h>\n#include <stdint.h>\n\n", name, name);
  fprintf(o, "#define %s_word_count %zu\n#define %s_size ((size_t)%s_word_count * 4u) /* bytes */\n\n", name,
          k->word_count, name, name);
  fprintf(o, "static const uint32_t %s[%s_word_count] = {", name, name);
  for (size_t i = 0; i < k->word_count; i++)
    fprintf(o, "%s0x%08" PRIx32 "%s", i % 8 ? " " : "\n    ", k->words[i], i + 1 < k->word_count ? "," : "");
  fprintf(o, "\n};\n\n#endif\n");
}

/* A C identifier (the --c-header NAME). */
static bool is_c_identifier(const char *s) {
  if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return false;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
  return true;
}

static void gemm_usage(FILE *o, gemm_mode mode) {
  if (mode == MODE_TUNE)
    fprintf(o, "usage: spvgen tune gemm --m M --n N --k K [options] [--budget SECONDS] [--cache FILE]\n\n"
               "Times every candidate plan of the GEMM on the first Vulkan device (GPU timestamps,\n"
               "a sustained warm-up, the median of the repeats with outliers dropped), checks each\n"
               "one's output on random data, prints the table and stores the fastest in the tune\n"
               "cache, where spvgen_gemm_plan_cached finds it (docs/tune.md).\n\n");
  else if (mode == MODE_RUN)
    fprintf(o, "usage: spvgen run gemm --m M --n N --k K [options]\n\n"
               "Emits a GEMM for the first Vulkan device, runs it on random data, checks every\n"
               "element of D against a float64 CPU reference and prints the variant, the GPU\n"
               "time (median of the repeats) and TFLOP/s.\n\n");
  else if (mode == MODE_BENCH)
    fprintf(o, "usage: spvgen bench gemm --m M --n N --k K [options] [--repeats N]\n\n"
               "Times the emission on this CPU: plan + emit + finish into one reused module,\n"
               "median of --repeats runs, in microseconds per module. Then, when a Vulkan device\n"
               "exists (and --caps is not given), runs the kernel --gpu-repeats times and prints\n"
               "the GPU time and TFLOP/s, checking a sample of the output elements (all of them:\n"
               "`spvgen run gemm`).\n\n");
  else
    fprintf(o, "usage: spvgen gemm --m M --n N --k K [options] [-o FILE] [-S | --json | --c-header NAME]\n\n"
               "Emits a GEMM module D = alpha*A*B + beta*C (+bias, activation) for a device.\n"
               "Bindings: 0 A, 1 B, 2 D, then C and bias when used; dispatch as --json says.\n\n");
  fputs(gemm_flags_help, o);
  if (mode == MODE_TUNE)
    fputs("tune:\n"
          "  --budget SECONDS       wall time for the whole tuning (default 120)\n"
          "  --cache FILE           the tune cache (default ${XDG_CACHE_HOME:-~/.cache}/spvgen/tune-v1.txt)\n"
          "  --max-candidates N     time at most N candidates (the heuristic plan first)\n"
          "  --repeats N            timed dispatches per candidate (default 15)\n"
          "  --seed N               random data seed\n",
          o);
  else if (mode == MODE_RUN)
    fputs("run:\n"
          "  --repeats N            timed dispatches (default 10), --warmup N (default 2)\n"
          "  --warmup-ms N          keep the GPU busy N ms before timing (default 200; GPUs\n"
          "                         idle at low clocks between short bursts)\n"
          "  --sample N             check N random elements instead of all (large shapes)\n"
          "  --seed N               random data seed\n"
          "  --stats                print the driver's pipeline statistics (registers,\n"
          "                         spills, shared memory; VK_KHR_pipeline_executable_properties)\n",
          o);
  else if (mode == MODE_BENCH)
    fputs("bench:\n"
          "  --repeats N            emissions timed (default 200)\n"
          "  --gpu-repeats N        timed dispatches (default 10)\n"
          "  --warmup-ms N          keep the GPU busy N ms before timing (default 200)\n"
          "  --sample N             output elements checked (default 256)\n"
          "  --seed N               random data seed\n"
          "  --no-gpu               time the emission only\n"
          "  --caps NAME            emit for an offline preset (then no GPU run)\n",
          o);
  else
    fputs("output (one of; to -o FILE, else stdout for the text forms):\n"
          "  -o FILE                write the module (default gemm.spv; - for stdout)\n"
          "  -S                     the disassembly\n"
          "  --json                 the kernel's metadata as JSON: variant, plan, workgroup\n"
          "                         size, dispatch grid, bindings, push and spec constants,\n"
          "                         capabilities, extensions, word count and content hash\n"
          "  --c-header NAME        a C header: static const uint32_t NAME[] with the words,\n"
          "                         NAME_word_count and NAME_size (bytes)\n",
          o);
  if (mode == MODE_TUNE)
    fputs("\nexamples:\n  spvgen tune gemm --m 4096 --n 4096 --k 4096 --types f16,f32\n"
          "  spvgen tune gemm --m 100 --n 70 --k 50 --variant simt --budget 30 --cache tune.txt\n",
          o);
  else if (mode == MODE_RUN)
    fputs("\nexamples:\n  spvgen run gemm --m 4096 --n 4096 --k 4096 --types f16,f32\n"
          "  spvgen run gemm --m 97 --n 131 --k 67 --layout tn --types s8,s32 --bias row --act relu\n",
          o);
  else if (mode == MODE_BENCH)
    fputs("\nexamples:\n  spvgen bench gemm --m 4096 --n 4096 --k 4096 --types f16,f32\n"
          "  spvgen bench gemm --m 128 --n 128 --k 128 --caps h100 --repeats 1000\n",
          o);
  else
    fputs("\nexamples:\n  spvgen gemm --m 4096 --n 4096 --k 4096 --types f16,f32 --caps h100 -o gemm.spv\n"
          "  spvgen gemm --m 97 --n 131 --k 67 --layout tn --types s8,s32 --bias row --act relu --json\n"
          "  spvgen gemm --m 64 --n 64 --k 64 --caps vulkan13 -S | less\n"
          "  spvgen gemm --m 256 --n 256 --k 256 --c-header gemm_256 -o gemm_256.h\n",
          o);
  fprintf(o, "\nexit status: 0 ok, 1 failure (refused, invalid%s), 2 usage error\n",
          mode == MODE_GEMM ? "" : ", mismatch");
}

static const char *const mode_names[] = {"gemm", "run gemm", "bench gemm", "tune gemm"};

/* 0 parsed, -1 --help printed, 2 usage error (printed). */
static int parse_all(gemm_mode mode, int argc, char **argv, gemm_cli *g) {
  const char *cmd = mode_names[mode];
  memset(g, 0, sizeof *g);
  g->mode = mode;
  g->desc.acc_type = SPVGEN_COMPONENT_F32; /* the CLI's default: f16,f32 */
  g->desc.out_type = SPVGEN_COMPONENT_F32;
  g->run.repeats = 10;
  g->run.warmup = 2;
  g->run.warmup_ms = 200; /* leave the idle clocks before timing (gemm_run.h) */
  if (mode == MODE_BENCH) {
    g->emit_repeats = 200;
    g->run.sample = 256;
  }
  if (mode == MODE_TUNE) g->run.repeats = 0; /* the tuner's default */
  int outputs = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      gemm_usage(stdout, mode);
      return -1;
    }
    int r = parse_gemm_flag(cmd, argc, argv, &i, g);
    if (r == 2) return 2;
    if (r == 1) continue;
    if (mode == MODE_GEMM && !strcmp(a, "-o")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error(cmd, "-o needs a file name");
      g->output = argv[++i];
    } else if (mode == MODE_GEMM && !strcmp(a, "-S")) {
      g->disassemble = true;
      outputs++;
    } else if (mode == MODE_GEMM && !strcmp(a, "--json")) {
      g->json = true;
      outputs++;
    } else if (mode == MODE_GEMM && !strcmp(a, "--c-header")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error(cmd, "--c-header needs a NAME (a C identifier)");
      g->c_header = argv[++i];
      if (!is_c_identifier(g->c_header))
        return spvgen_cli_usage_error(cmd, "--c-header: '%s' is not a C identifier", g->c_header);
      outputs++;
    } else if (mode == MODE_RUN && !strcmp(a, "--stats")) {
      g->run.statistics = true;
    } else if (mode == MODE_BENCH && !strcmp(a, "--no-gpu")) {
      g->no_gpu = true;
    } else if (mode == MODE_TUNE && (!strcmp(a, "--budget") || !strcmp(a, "--cache") ||
                                     !strcmp(a, "--max-candidates"))) {
      if (i + 1 >= argc) return spvgen_cli_usage_error(cmd, "%s needs a value", a);
      const char *v = argv[++i];
      float f;
      if (!strcmp(a, "--cache")) g->tune.cache = v;
      else if (!strcmp(a, "--budget") && (!parse_float(v, &f) || !(f > 0)))
        return spvgen_cli_usage_error(cmd, "--budget: '%s' is not a number of seconds > 0", v);
      else if (!strcmp(a, "--budget")) g->tune.budget_seconds = f;
      else if (!spvgen_cli_u32(v, &g->tune.max_candidates) || !g->tune.max_candidates)
        return spvgen_cli_usage_error(cmd, "--max-candidates: '%s' is not a number >= 1", v);
    } else {
      return spvgen_cli_usage_error(cmd, "unknown %s '%s'", a[0] == '-' ? "option" : "argument", a);
    }
  }
  if (outputs > 1) return spvgen_cli_usage_error(cmd, "-S, --json and --c-header exclude each other");
  const char *missing = !g->desc.m ? "--m" : !g->desc.n ? "--n" : !g->desc.k ? "--k" : NULL;
  if (missing) return spvgen_cli_usage_error(cmd, "%s is required (--m, --n and --k give the shape)", missing);
  if (g->desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME) {
    /* The shape to run: --m ... --ldd go to the call's args; the desc keeps m, n, k and
     * batch as the shape to plan for, and alpha / beta as the class (a run-time alpha, a
     * C operand). */
    spvgen_gemm_desc *d = &g->desc;
    g->args = (spvgen_gemm_args){d->m, d->n, d->k, d->batch, d->lda, d->ldb, d->ldc, d->ldd,
                                 d->stride_a, d->stride_b, d->stride_c, d->stride_d, d->alpha, d->beta};
    d->lda = d->ldb = d->ldc = d->ldd = 0;
    d->stride_a = d->stride_b = d->stride_c = d->stride_d = 0;
    g->run.args = &g->args;
  }
  return 0;
}

int spvgen_cli_parse_tune_gemm(int argc, char **argv, spvgen_cli_tune_args *out) {
  static gemm_cli g;
  int r = parse_all(MODE_TUNE, argc, argv, &g);
  if (r) return r;
  if (g.caps_name) return spvgen_cli_usage_error("tune gemm", "--caps: tune uses the device's own caps");
  *out = g.tune;
  out->desc = g.desc;
  out->repeats = g.run.repeats;
  out->seed = g.run.seed;
  return 0;
}

/* Opens path for writing ("-" or NULL: stdout). NULL after printing why. */
static FILE *open_output(const char *path, bool binary) {
  if (!path || !strcmp(path, "-")) return stdout;
  FILE *f = fopen(path, binary ? "wb" : "w");
  if (!f) fprintf(stderr, "spvgen gemm: cannot write '%s': %s\n", path, strerror(errno));
  return f;
}

/* Closes f (flushes stdout); 0 ok, 1 after printing why. */
static int close_output(FILE *f, const char *path) {
  int bad = ferror(f);
  bool to_stdout = f == stdout;
  bad |= to_stdout ? fflush(f) != 0 : fclose(f) != 0;
  if (bad && to_stdout && spvgen_cli_reader_gone(stdout)) return 0;
  if (bad) fprintf(stderr, "spvgen gemm: write to '%s' failed\n", path && strcmp(path, "-") ? path : "stdout");
  return bad ? 1 : 0;
}

int spvgen_cmd_gemm(int argc, char **argv) {
  gemm_cli g;
  int r = parse_all(MODE_GEMM, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  spvgen_device_caps caps;
  if ((r = spvgen_cli_resolve_caps("gemm", g.caps_name, &caps))) return r;
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
  bool text = g.json || g.disassemble || g.c_header;
  if (can_validate && spvgen_validate(k.words, k.word_count, &vo, vmsg, sizeof vmsg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen gemm: the emitted module does not validate (a bug in spvgen): %s\n", vmsg);
    rc = 1;
  } else if (text) {
    char *dis = NULL;
    char dmsg[1024];
    if (g.disassemble &&
        spvgen_disassemble(k.words, k.word_count, SPVGEN_DIS_FRIENDLY_NAMES, &dis, dmsg, sizeof dmsg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen gemm: cannot disassemble: %s\n", dmsg);
      rc = 1;
    } else {
      FILE *f = open_output(g.output, false);
      if (!f) {
        rc = 1;
      } else {
        if (g.json) sg_template_json(&sg_template_gemm, f, &plan, &k);
        else if (g.c_header) print_c_header(f, g.c_header, &plan, &k, argc, argv);
        else fputs(dis, f);
        rc = close_output(f, g.output);
      }
    }
    spvgen_free_text(dis);
  } else {
    const char *path = g.output ? g.output : "gemm.spv";
    FILE *f = open_output(path, true);
    if (!f) {
      rc = 1;
    } else {
      if (fwrite(k.words, 4, k.word_count, f) != k.word_count) rc = 1;
      rc |= close_output(f, path);
      if (!rc && f != stdout) fprintf(stderr, "spvgen gemm: %s: %s (%zu words)\n", path, plan.name, k.word_count);
    }
  }
  spvgen_kernel_free(&k);
  return rc;
}

static void print_run_result(const gemm_cli *g, const gemm_run_result *res) {
  bool ints = g->desc.a_type == SPVGEN_COMPONENT_S8 || g->desc.a_type == SPVGEN_COMPONENT_U8;
  bool giga = res->tflops < 0.1; /* a CPU driver: GFLOP/s reads better */
  if (res->median_ns > 0)
    printf("gpu      %.3f ms median of %u (min %.3f ms; best of 3 submissions, the slowest's median "
           "%.3f ms), %.2f %s%s/s\n",
           res->median_ns / 1e6, g->run.repeats, res->min_ns / 1e6, res->worst_round_median_ns / 1e6,
           giga ? res->tflops * 1e3 : res->tflops, giga ? "G" : "T", ints ? "OP" : "FLOP");
  else
    printf("gpu      no timestamps on this queue\n");
  printf("check    %" PRIu64 " of %" PRIu64 " %selements match (max |err| %.3g, tolerance there %.3g)\n",
         res->checked - res->bad, res->checked, g->run.sample ? "sampled " : "", res->max_err, res->max_err_tol);
  if (res->bad)
    printf("MISMATCH %" PRIu64 " elements; first at batch %" PRIu64 " (%" PRIu64 ", %" PRIu64 "): gpu %.6g, cpu %.6g\n",
           res->bad, res->first_bad_batch, res->first_bad_row, res->first_bad_col, res->first_bad_gpu,
           res->first_bad_ref);
  if (res->counters_left)
    printf("SPLIT-K  %" PRIu64 " workspace counters not reset to 0 after the runs\n", res->counters_left);
}

static int run_gemm(int argc, char **argv) {
  gemm_cli g;
  int r = parse_all(MODE_RUN, argc, argv, &g);
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
    if (res.plan.desc.shapes == SPVGEN_GEMM_SHAPES_RUNTIME)
      printf("shape    %ux%ux%u batch %u at run time (push constants), grid %ux%ux%u\n", res.shape.m, res.shape.n,
             res.shape.k, res.shape.batch, res.launch.groups[0], res.launch.groups[1], res.launch.groups[2]);
    printf("emit     %.1f us\n", res.emit_us);
    printf("pipeline %.1f ms (the driver's compile; the plan estimated %u ms)\n", res.pipeline_ms,
           res.plan.compile_ms);
    if (g.run.statistics) printf("stats    %s\n", res.stats);
    print_run_result(&g, &res);
    if (res.bad || res.counters_left) rc = 1;
  }
  spvgen_vk_destroy(ctx);
  return rc;
}

/* The emission benchmark: plan + emit + finish into one module reset between runs, the
 * way a framework that JITs kernels would call it. */
static int bench_emit(const gemm_cli *g, const spvgen_device_caps *caps) {
  char msg[1024];
  spvgen_gemm_config plan;
  if (spvgen_gemm_plan(&g->desc, caps, &plan, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench gemm: %s\n", msg);
    return 1;
  }
  spvgen_module_desc md = {.addressing = spvgen_gemm_addressing_model(&plan)};
  spvgen_module *m = spvgen_module_create(&md);
  double *t = malloc(sizeof *t * g->emit_repeats);
  if (!m || !t) {
    fprintf(stderr, "spvgen bench gemm: out of memory\n");
    spvgen_module_destroy(m);
    free(t);
    return 1;
  }
  size_t count = 0;
  int rc = 0;
  const uint32_t warmup = 3;
  for (uint32_t i = 0; i < warmup + g->emit_repeats && !rc; i++) {
    double t0 = sg_now_us();
    spvgen_module_reset(m, &md);
    spvgen_gemm_config p;
    const uint32_t *words;
    if (spvgen_gemm_plan(&g->desc, caps, &p, msg, sizeof msg) != SPVGEN_OK ||
        spvgen_gemm_emit(m, &p, NULL) != SPVGEN_OK || spvgen_module_finish(m, &words, &count) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench gemm: %s\n", spvgen_module_error(m)[0] ? spvgen_module_error(m) : msg);
      rc = 1;
    }
    if (i >= warmup) t[i - warmup] = sg_now_us() - t0;
  }
  if (!rc) {
    qsort(t, g->emit_repeats, sizeof *t, sg_cmp_double);
    printf("plan     %s\n", plan.name);
    printf("emit     %.1f us per module (median of %u; min %.1f, max %.1f), %zu words, %.0f MB/s\n",
           t[g->emit_repeats / 2], g->emit_repeats, t[0], t[g->emit_repeats - 1], count,
           count * 4.0 / t[g->emit_repeats / 2]);
  }
  free(t);
  spvgen_module_destroy(m);
  return rc;
}

static int bench_gemm(int argc, char **argv) {
  gemm_cli g;
  int r = parse_all(MODE_BENCH, argc, argv, &g);
  if (r) return r < 0 ? 0 : r;
  char msg[1024];
  spvgen_vk_context *ctx = NULL;
  spvgen_device_caps caps;
  if (g.caps_name) {
    if ((r = spvgen_cli_resolve_caps("bench gemm", g.caps_name, &caps))) return r;
    printf("caps     %s (preset; no GPU run)\n", g.caps_name);
  } else if (!g.no_gpu && spvgen_vk_create(NULL, &ctx, msg, sizeof msg) == SPVGEN_OK) {
    caps = *spvgen_vk_caps(ctx);
    printf("device   %s\n", caps.name);
  } else {
    if (!g.no_gpu) printf("device   none (%s); timing the emission for vulkan13\n", msg);
    spvgen_caps_preset("vulkan13", &caps);
  }
  int rc = bench_emit(&g, &caps);
  if (!rc && ctx) {
    gemm_run_result res;
    if (gemm_run(ctx, &g.desc, &g.run, &res, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench gemm: %s\n", msg);
      rc = 1;
    } else {
      print_run_result(&g, &res);
      if (res.bad || res.counters_left) rc = 1;
    }
  }
  spvgen_vk_destroy(ctx);
  return rc;
}

static int template_command(const char *cmd, int argc, char **argv, int (*gemm)(int, char **)) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    FILE *o = argc < 2 ? stderr : stdout;
    if (!strcmp(cmd, "run"))
    {
      fprintf(o, "usage: spvgen run gemm [options]   (`spvgen run gemm --help`)\n"
                 "       spvgen run mlp [options]    (`spvgen run mlp --help`)\n");
      for (size_t i = 0; sg_templates[i]; i++)
        if (spvgen_cli_generic_template(sg_templates[i]->name))
          fprintf(o, "       spvgen run %s [options]   (`spvgen run %s --help`)\n", sg_templates[i]->name,
                  sg_templates[i]->name);
      fprintf(o, "\nEmits a kernel for the first Vulkan device, runs it on random data and checks it\n"
                 "against the CPU.\n");
    }
    else
      fprintf(o, "usage: spvgen bench gemm [options]   (`spvgen bench gemm --help`)\n"
                 "       spvgen bench mlp [options]    (`spvgen bench mlp --help`)\n"
                 "       spvgen bench trace FILE [options] (`spvgen bench trace --help`)\n\n"
                 "Times the emission of a kernel on this CPU and, with a Vulkan device, the kernel\n"
                 "itself; or runs a framework's trace of GEMM calls through the kernel cache.\n");
    fprintf(o, "\nexample:\n  spvgen %s gemm --m 1024 --n 1024 --k 1024\n", cmd);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "gemm")) return gemm(argc - 1, argv + 1);
  if (!strcmp(cmd, "bench") && !strcmp(argv[1], "trace")) return spvgen_cmd_bench_trace(argc - 1, argv + 1);
  if (!strcmp(argv[1], "mlp")) return !strcmp(cmd, "run") ? spvgen_cmd_run_mlp(argc - 1, argv + 1)
                                                          : spvgen_cmd_bench_mlp(argc - 1, argv + 1);
  const sg_template *t = spvgen_cli_generic_template(argv[1]);
  if (t && !strcmp(cmd, "run")) return spvgen_cmd_run_template(t, argc - 1, argv + 1);
  char names[256] = "gemm, mlp";
  for (size_t i = 0; sg_templates[i] && !strcmp(cmd, "run"); i++)
    if (spvgen_cli_generic_template(sg_templates[i]->name))
      snprintf(names + strlen(names), sizeof names - strlen(names), ", %s", sg_templates[i]->name);
  return spvgen_cli_usage_error(cmd, "unknown template '%s' (%s%s)", argv[1], names, strcmp(cmd, "run") ? ", trace" : "");
}

int spvgen_cmd_run(int argc, char **argv) { return template_command("run", argc, argv, run_gemm); }
int spvgen_cmd_bench(int argc, char **argv) { return template_command("bench", argc, argv, bench_gemm); }
