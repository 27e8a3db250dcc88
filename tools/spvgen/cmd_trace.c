/* tools/spvgen/cmd_trace.c — `spvgen bench trace FILE`: a framework's GEMM calls run in
 * order in one process, as the framework would run them: per call a plan and an emit
 * (microseconds), a pipeline from the kernel cache (a compile on a miss, nothing on a
 * hit), one dispatch; then the totals a framework pays: pipelines created, compile ms,
 * GPU ms, wall ms. The plan is spvgen_gemm_plan_ex's against the plans whose kernels the
 * process already compiled (--reuse on, the default), or AUTO's per call (--reuse off);
 * --caps plans the trace for a preset without a device. --cold starts from an empty spvgen disk cache (the driver's own cache
 * is the caller's to empty: bench/trace.sh does both); without it the disk cache of
 * --cache-dir (default: the user's) is used, so a second run is the warm one.
 *
 * Trace file: one call per line, `M N K TYPES LAYOUT`, e.g. `257 3584 3584 f16,f32 nt`
 * (TYPES as --types: AB,ACC[,OUT]; LAYOUT as --layout: A then B, n row-major, t
 * column-major; nt is how a linear layer stores its N x K weights). '#' starts a
 * comment. Each call is checked on a sample of its outputs against the CPU.
 *
 * --tiered: a call whose plan has no pipeline yet starts the plan's kernels compiling in
 * the background (spvgen_vk_pipeline_create_async) and runs on the plan's quick form
 * (spvgen_gemm_plan_quick), compiled on the spot; later calls of the plan take it once its
 * compiles have ended, the quick form until then. What is left compiling at the end is
 * waited for outside the wall time (a framework would not wait), and reported. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "template_run.h"
#include "cmds.h"
#include "gemm_run.h"
#include "ref_convert.h"
#include "spvgen/spvgen.h"

#define TRACE_MAX_CALLS 4096

typedef struct trace_call {
  spvgen_gemm_desc desc;
  int line;
} trace_call;

static void trace_usage(FILE *o) {
  fprintf(o, "usage: spvgen bench trace FILE [--cold] [--cache-dir DIR] [--shapes runtime|fixed] [--sample N]\n"
             "                          [--split-k S] [--pack MODE] [--reuse on|off] [--runs R] [--k-fixed on|off]\n"
             "                          [--tiered] [--device NAME | --caps NAME]\n\n"
             "Runs the GEMM calls of FILE in order in one process, as a framework would: per call\n"
             "a plan, an emit, a pipeline from the kernel cache (compiled on a miss) and one\n"
             "dispatch, each checked on a sample of its outputs against the CPU. Prints each call\n"
             "and the totals: pipelines created, compile ms, GPU ms, wall ms.\n\n"
             "FILE: one call per line, `M N K TYPES LAYOUT` (TYPES as --types, e.g. f16,f32;\n"
             "LAYOUT as --layout: nn, nt, tn, tt); '#' starts a comment.\n\n"
             "  --cold           start from an empty spvgen disk cache (a temporary directory)\n"
             "  --cache-dir DIR  the disk cache directory (default: $XDG_CACHE_HOME/spvgen)\n"
             "  --shapes S       runtime (default): each call planned for its class of shapes\n"
             "                   (spvgen_gemm_class_for, M taken as any length), the shape in push\n"
             "                   constants, so calls of one class share a pipeline; fixed: a module\n"
             "                   per shape, as before run-time shapes\n"
             "  --sample N       outputs checked per call (default 8; 0: none)\n"
             "  --split-k S      every call's plan splits K into S slices (2-64; run-time plans\n"
             "                   fewer where K has fewer steps): two dispatches per call (the\n"
             "                   partials, then their reduction), one shared split-K workspace\n"
             "                   for calls of every shape, as a framework keeps it\n"
             "  --pack MODE      every call's plan packs its operands (a, b or ab: a pack kernel\n"
             "                   copies them zero-padded to whole tiles into the workspace first,\n"
             "                   then the aligned kernel; coopmat2 and simt)\n"
             "  --reuse on|off   on (default): each call is planned with spvgen_gemm_plan_ex against\n"
             "                   the kernels this process already compiled (a cached plan that can\n"
             "                   run the call is taken where its estimated run time x R is less\n"
             "                   than AUTO's plan's plus the compile AUTO's would cost); off: AUTO's\n"
             "                   plan per call (spvgen_gemm_plan). A reused call's row says which\n"
             "                   plan it stood in for and the estimated cost it saved\n"
             "  --runs R         the expected runs spvgen_gemm_plan_ex weighs (default %u)\n"
             "  --k-fixed on|off on: each call's run-time class is of its one K (desc.k_fixed: K a\n"
             "                   constant of the kernel, a kernel per weight K); off (default): K\n"
             "                   per call as well\n"
             "  --tiered         tiered compiles (spvgen/gemm.h, \"Tiered compiles\"): a call whose plan\n"
             "                   is not compiled yet runs the plan's quick form (its K loop not\n"
             "                   unrolled by the driver: 0.16-0.34x the compile, 0.66-0.93x the\n"
             "                   speed on the H100), compiled on the spot, while the plan compiles\n"
             "                   on a thread of its own; the calls after it is ready run the plan\n"
             "  --device NAME    the first device whose name contains NAME\n"
             "  --caps NAME      plan only, for a preset or caps file (no device): each call's plan,\n"
             "                   whether it compiles, and the totals with the planner's compile\n"
             "                   estimates (plan.compile_ms) in place of measured compiles\n\n"
             "examples:\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt --cold\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt      # warm: the cache filled\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt --caps h100 --reuse off\n",
          SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS);
}

/* Reads the trace; returns the number of calls or -1 after printing why. */
static int read_trace(const char *path, trace_call *calls, int max) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "spvgen bench trace: cannot open '%s': %s\n", path, strerror(errno));
    return -1;
  }
  char line[512];
  int n = 0, lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char types[64], layout[8], extra[8];
    unsigned m, nn, k;
    int got = sscanf(line, "%u %u %u %63s %7s %7s", &m, &nn, &k, types, layout, extra);
    if (got <= 0) continue; /* blank or comment */
    if (got != 5 || !m || !nn || !k) {
      fprintf(stderr, "spvgen bench trace: %s:%d: not `M N K TYPES LAYOUT` (M, N, K >= 1)\n", path, lineno);
      fclose(f);
      return -1;
    }
    if (n == max) {
      fprintf(stderr, "spvgen bench trace: %s: more than %d calls\n", path, max);
      fclose(f);
      return -1;
    }
    spvgen_gemm_desc *d = &calls[n].desc;
    memset(d, 0, sizeof *d);
    d->m = m;
    d->n = nn;
    d->k = k;
    spvgen_component_type ts[3];
    int np = 0;
    for (char *t = strtok(types, ","); t && np < 3; t = strtok(NULL, ","))
      if (!spvgen_component_type_parse(t, &ts[np++])) np = -10;
    if (np < 2) {
      fprintf(stderr, "spvgen bench trace: %s:%d: TYPES is AB,ACC[,OUT] (f16, bf16, f32, s8, u8, s32, ...)\n", path,
              lineno);
      fclose(f);
      return -1;
    }
    d->a_type = d->b_type = ts[0];
    d->acc_type = ts[1];
    d->out_type = np == 3 ? ts[2] : ts[1];
    if (strlen(layout) != 2 || !strchr("nt", layout[0]) || !strchr("nt", layout[1])) {
      fprintf(stderr, "spvgen bench trace: %s:%d: LAYOUT '%s' is not nn, nt, tn or tt\n", path, lineno, layout);
      fclose(f);
      return -1;
    }
    d->a_layout = layout[0] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
    d->b_layout = layout[1] == 't' ? SPVGEN_COL_MAJOR : SPVGEN_ROW_MAJOR;
    calls[n].line = lineno;
    n++;
  }
  fclose(f);
  if (n == 0) fprintf(stderr, "spvgen bench trace: %s has no calls\n", path);
  return n ? n : -1;
}

/* Host values of the input types the trace runner fills: f16, bf16, f32, s8, u8. */
static bool input_supported(spvgen_component_type t) {
  return t == SPVGEN_COMPONENT_F16 || t == SPVGEN_COMPONENT_BF16 || t == SPVGEN_COMPONENT_F32 ||
         t == SPVGEN_COMPONENT_S8 || t == SPVGEN_COMPONENT_U8;
}

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* bytes of random values of type t (never zeros: magnitudes in [1/8, 1), or small ints). */
static void *host_fill(spvgen_component_type t, uint64_t count, uint64_t *seed) {
  uint32_t es = spvgen_component_type_size(t);
  unsigned char *p = malloc(count * es > 0 ? count * es : 1);
  if (!p) return NULL;
  for (uint64_t i = 0; i < count; i++) {
    double u = (double)(rng_next(seed) >> 11) / 9007199254740992.0; /* [0, 1) */
    float v = (float)((0.125 + 0.875 * u) * ((rng_next(seed) & 1) ? -1 : 1));
    switch (t) {
    case SPVGEN_COMPONENT_F16: ((uint16_t *)p)[i] = sg_ref_f32_to_f16(v); break;
    case SPVGEN_COMPONENT_BF16: ((uint16_t *)p)[i] = sg_ref_f32_to_bf16(v); break;
    case SPVGEN_COMPONENT_F32: ((float *)p)[i] = v; break;
    case SPVGEN_COMPONENT_S8: ((int8_t *)p)[i] = (int8_t)(1 + (int)(rng_next(seed) % 7)) * ((rng_next(seed) & 1) ? -1 : 1); break;
    case SPVGEN_COMPONENT_U8: ((uint8_t *)p)[i] = (uint8_t)(1 + rng_next(seed) % 7); break;
    default: break;
    }
  }
  return p;
}

/* Element (r, c) of a rows x cols operand with layout and leading dimension ld. */
static uint64_t at(spvgen_matrix_layout l, uint32_t ld, uint32_t r, uint32_t c) {
  return l == SPVGEN_ROW_MAJOR ? (uint64_t)r * ld + c : (uint64_t)c * ld + r;
}

static void rm_tree(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[2048];
  while (d && (e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    remove(p);
  }
  if (d) closedir(d);
  rmdir(dir);
}

/* --tiered: a plan compiling in the background, and its quick form the calls run meanwhile. */
typedef struct trace_tier {
  uint64_t key;                /* the plan's class key */
  spvgen_gemm_config quick;
  spvgen_vk_compile *compiles[SPVGEN_GEMM_KERNEL_COUNT];
  uint32_t count;
  bool ready;                  /* its compiles finished: the plan's pipelines are in the kernel cache */
  bool failed;                 /* a compile failed: its calls keep the quick form */
  double compile_ms;           /* the driver's compiles, each on its thread */
} trace_tier;

/* Finishes a tier whose compiles have all ended (wait: whether or not they have); true
 * when it is ready now. On a failed compile the tier's calls keep the quick form (a
 * message says why). */
static bool tier_settle(spvgen_vk_context *ctx, trace_tier *t, bool wait) {
  if (t->ready || t->failed) return t->ready;
  for (uint32_t j = 0; j < t->count && !wait; j++)
    if (!spvgen_vk_compile_done(t->compiles[j])) return false;
  bool ok = true;
  for (uint32_t j = 0; j < t->count; j++) {
    spvgen_vk_pipeline *p = NULL;
    double ms = 0;
    if (spvgen_vk_compile_finish(t->compiles[j], &p, &ms) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: --tiered: a background compile failed: %s\n", spvgen_vk_error(ctx));
      ok = false;
    }
    t->compiles[j] = NULL;
    t->compile_ms += ms;
    spvgen_vk_pipeline_destroy(p); /* the program stays in the kernel cache for the calls */
  }
  t->count = 0;
  t->ready = ok;
  t->failed = !ok;
  return ok;
}

/* How each call is planned (the command's options). */
typedef struct trace_planning {
  bool runtime, reuse;
  bool k_fixed; /* run-time classes of one K (gemm.h, k_fixed): a kernel per weight K */
  uint32_t split_k, runs;
  spvgen_gemm_pack pack;
  /* the plans whose kernels this process holds (reuse on): one per class key */
  spvgen_gemm_config *held;
  uint32_t held_count;
} trace_planning;

/* Call c's desc as the trace plans it: run-time, the class of its shape with M free (a
 * prompt length is anything), so every call with this weight shape and types may share a
 * kernel; args gets the call's shape. */
static spvgen_status trace_want(const trace_planning *tp, const spvgen_gemm_desc *d, spvgen_gemm_desc *want,
                                spvgen_gemm_args *args, char *msg, size_t size) {
  *want = *d;
  *args = (spvgen_gemm_args){.m = d->m, .n = d->n, .k = d->k};
  if (tp->runtime) {
    spvgen_status st = spvgen_gemm_class_for(d, args, want, msg, size);
    if (st != SPVGEN_OK) return st;
    want->m_multiple = 1;
    if (tp->k_fixed) want->k_fixed = 1; /* want->k is the call's K */
  }
  if (tp->split_k) want->split_k = tp->split_k;
  want->pack = tp->pack;
  return SPVGEN_OK;
}

/* The plan of one call: AUTO's, or with reuse on, spvgen_gemm_plan_ex's against the plans
 * held so far (choice: what it weighed). */
static spvgen_status trace_plan(const trace_planning *tp, const spvgen_device_caps *caps, const spvgen_gemm_desc *want,
                                spvgen_gemm_config *plan, spvgen_gemm_plan_choice *choice, char *msg, size_t size) {
  memset(choice, 0, sizeof *choice);
  if (!tp->reuse) return spvgen_gemm_plan(want, caps, plan, msg, size);
  spvgen_gemm_plan_opts o = {.compiled = tp->held, .compiled_count = tp->held_count, .expected_runs = tp->runs,
                             .choice = choice};
  return spvgen_gemm_plan_ex(want, caps, &o, plan, msg, size);
}

/* Whether the process holds the kernel of class key. */
static bool trace_holds(const trace_planning *tp, uint64_t key) {
  for (uint32_t i = 0; i < tp->held_count; i++)
    if (spvgen_gemm_class_key(&tp->held[i]) == key) return true;
  return false;
}

/* Records that the process holds plan's kernel; true when it was new. */
static bool trace_hold(trace_planning *tp, const spvgen_gemm_config *plan) {
  if (trace_holds(tp, spvgen_gemm_class_key(plan))) return false;
  if (tp->held && tp->held_count < TRACE_MAX_CALLS) tp->held[tp->held_count++] = *plan;
  return true;
}

/* The reuse column: the estimated cost a reused plan saved ("" for AUTO's plan). */
static void reuse_cell(const spvgen_gemm_plan_choice *ch, char *out, size_t size) {
  if (ch->reused) snprintf(out, size, "reused -%.0f ms", ch->saved_ms);
  else out[0] = 0;
}

/* --caps: every call planned for a preset (no device): which compile, at the planner's
 * compile estimates. */
static int trace_plan_only(const char *path, const trace_call *calls, int n, trace_planning *tp,
                           const spvgen_device_caps *caps, const char *caps_name) {
  char msg[2048];
  printf("trace %s: %d calls, planned for %s (no device: compiles are the planner's estimates)\n", path, n, caps_name);
  printf("reuse %s, expected runs %u\n\n", tp->reuse ? "on" : "off",
         tp->runs ? tp->runs : SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS);
  printf("| %3s | %5s | %5s | %5s | %-44s | %-8s | %10s | %-16s | %9s |\n", "#", "M", "N", "K", "plan", "pipeline",
         "compile ms", "reuse", "est. ms");
  printf("|-----|-------|-------|-------|----------------------------------------------|----------|------------|"
         "------------------|-----------|\n");
  uint64_t compiled = 0, reused = 0;
  double compile_ms = 0, run_ms = 0;
  for (int i = 0; i < n; i++) {
    spvgen_gemm_desc want;
    spvgen_gemm_args args;
    spvgen_gemm_config plan;
    spvgen_gemm_plan_choice ch;
    double est = 0;
    if (trace_want(tp, &calls[i].desc, &want, &args, msg, sizeof msg) != SPVGEN_OK ||
        trace_plan(tp, caps, &want, &plan, &ch, msg, sizeof msg) != SPVGEN_OK ||
        spvgen_gemm_estimate_ms(&plan, caps, tp->runtime ? &args : NULL, &est, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, calls[i].line, msg);
      return 1;
    }
    const bool miss = trace_hold(tp, &plan);
    if (miss) compiled++, compile_ms += plan.compile_ms;
    reused += ch.reused;
    run_ms += est;
    char cell[32];
    reuse_cell(&ch, cell, sizeof cell);
    printf("| %3d | %5u | %5u | %5u | %-44.44s | %-8s | %10u | %-16s | %9.4f |\n", i + 1, calls[i].desc.m,
           calls[i].desc.n, calls[i].desc.k, plan.name, miss ? "compiled" : "cached", miss ? plan.compile_ms : 0,
           cell, est);
    if (ch.reused)
      printf("|     |       |       |       |   in place of %-30.30s | est. %.4f ms a run, %u ms to compile |\n",
             ch.default_name, ch.default_run_ms, ch.default_compile_ms);
  }
  printf("\npipelines created: %llu (cache hits %llu, reused in place of AUTO's plan %llu)\n",
         (unsigned long long)compiled, (unsigned long long)(n - compiled), (unsigned long long)reused);
  printf("estimated compile ms: %.0f\n", compile_ms);
  printf("estimated GPU ms:     %.3f\n", run_ms);
  printf("summary calls=%d shapes=%s reuse=%s pipelines=%llu hits=%llu reused=%llu est_compile_ms=%.0f "
         "est_gpu_ms=%.3f\n",
         n, tp->runtime ? "runtime" : "fixed", tp->reuse ? "on" : "off", (unsigned long long)compiled,
         (unsigned long long)(n - compiled), (unsigned long long)reused, compile_ms, run_ms);
  return 0;
}

int spvgen_cmd_bench_trace(int argc, char **argv) {
  const char *path = NULL, *cache_dir = NULL, *device = NULL, *caps_name = NULL;
  bool cold = false, runtime = true, reuse = true, k_fixed = false, tiered = false;
  uint32_t sample = 8, split_k = 0, runs = 0;
  spvgen_gemm_pack pack = SPVGEN_GEMM_PACK_AUTO;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      trace_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--cold")) {
      cold = true;
    } else if (!strcmp(a, "--tiered")) {
      tiered = true;
    } else if (!strcmp(a, "--cache-dir") || !strcmp(a, "--sample") || !strcmp(a, "--device") ||
               !strcmp(a, "--shapes") || !strcmp(a, "--split-k") || !strcmp(a, "--pack") ||
               !strcmp(a, "--reuse") || !strcmp(a, "--runs") || !strcmp(a, "--caps") || !strcmp(a, "--k-fixed")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error("bench trace", "%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--cache-dir")) cache_dir = v;
      else if (!strcmp(a, "--shapes")) {
        if (strcmp(v, "runtime") && strcmp(v, "fixed"))
          return spvgen_cli_usage_error("bench trace", "--shapes: '%s' is not runtime or fixed", v);
        runtime = !strcmp(v, "runtime");
      }
      else if (!strcmp(a, "--device")) device = v;
      else if (!strcmp(a, "--caps")) caps_name = v;
      else if (!strcmp(a, "--reuse")) {
        if (strcmp(v, "on") && strcmp(v, "off"))
          return spvgen_cli_usage_error("bench trace", "--reuse: '%s' is not on or off", v);
        reuse = !strcmp(v, "on");
      } else if (!strcmp(a, "--k-fixed")) {
        if (strcmp(v, "on") && strcmp(v, "off"))
          return spvgen_cli_usage_error("bench trace", "--k-fixed: '%s' is not on or off", v);
        k_fixed = !strcmp(v, "on");
      } else if (!strcmp(a, "--runs")) {
        if (!sg_parse_u32(v, 1, 1000000000, &runs))
          return spvgen_cli_usage_error("bench trace", "--runs: '%s' is not a count from 1 to 10^9", v);
      }
      else if (!strcmp(a, "--pack")) {
        if (!spvgen_gemm_pack_parse(v, &pack))
          return spvgen_cli_usage_error("bench trace", "--pack: '%s' is not auto, none, a, b or ab", v);
      }
      else if (!strcmp(a, "--split-k")) {
        if (!sg_parse_u32(v, 2, 64, &split_k))
          return spvgen_cli_usage_error("bench trace", "--split-k: '%s' is not a slice count from 2 to 64", v);
      } else {
        if (!sg_parse_u32(v, 0, 1000000, &sample))
          return spvgen_cli_usage_error("bench trace", "--sample: '%s' is not a count from 0 to 1000000", v);
      }
    } else if (a[0] == '-') {
      return spvgen_cli_usage_error("bench trace", "unknown option '%s'", a);
    } else if (!path) {
      path = a;
    } else {
      return spvgen_cli_usage_error("bench trace", "one trace file (got '%s' and '%s')", path, a);
    }
  }
  if (!path) {
    trace_usage(stderr);
    return 2;
  }
  if (cold && cache_dir) return spvgen_cli_usage_error("bench trace", "--cold and --cache-dir exclude each other");
  if (caps_name && (device || cold || cache_dir || tiered))
    return spvgen_cli_usage_error("bench trace",
                                  "--caps plans without a device: no --device, --cold, --cache-dir or --tiered");
  spvgen_device_caps preset_caps;
  if (caps_name) {
    int r = spvgen_cli_resolve_caps("bench trace", caps_name, &preset_caps);
    if (r) return r;
  }
  trace_call *calls = malloc(sizeof *calls * TRACE_MAX_CALLS);
  trace_tier *tiers = tiered ? calloc(TRACE_MAX_CALLS, sizeof *tiers) : NULL;
  uint32_t tier_count = 0;
  trace_planning tp = {.runtime = runtime, .reuse = reuse, .k_fixed = k_fixed, .split_k = split_k, .runs = runs, .pack = pack,
                       .held = malloc(sizeof(spvgen_gemm_config) * TRACE_MAX_CALLS)};
  if (!calls || !tp.held || (tiered && !tiers)) {
    free(calls);
    free(tp.held);
    free(tiers);
    return 1;
  }
  int n = read_trace(path, calls, TRACE_MAX_CALLS);
  if (n < 0 || caps_name) {
    int r = n < 0 ? 1 : trace_plan_only(path, calls, n, &tp, &preset_caps, caps_name);
    free(calls);
    free(tp.held);
    free(tiers);
    return r;
  }
  char tmp_dir[] = "/tmp/spvgen-trace-cache-XXXXXX";
  if (cold && !mkdtemp(tmp_dir)) {
    fprintf(stderr, "spvgen bench trace: mkdtemp: %s\n", strerror(errno));
    free(calls);
    free(tp.held);
    free(tiers);
    return 1;
  }
  char msg[2048];
  spvgen_vk_desc vd = {.device_name = device, .cache_dir = cold ? tmp_dir : cache_dir};
  spvgen_vk_context *ctx = NULL;
  double t_open = sg_now_ms();
  spvgen_status st = spvgen_vk_create(&vd, &ctx, msg, sizeof msg);
  t_open = sg_now_ms() - t_open;
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: %s\n", msg);
    free(calls);
    free(tp.held);
    free(tiers);
    if (cold) rm_tree(tmp_dir);
    return st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
  }
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  spvgen_vk_kernel_cache_stats cs0;
  spvgen_vk_kernel_cache_stats_get(ctx, &cs0);

  /* Operands as a framework holds them, allocated once at the largest size the trace
   * needs (a bigger buffer is fine for every call: the runner checks the smaller bound). */
  uint64_t max_a = 0, max_b = 0, max_d = 0;
  int rc = 1;
  for (int i = 0; i < n; i++) {
    spvgen_gemm_desc *d = &calls[i].desc;
    if (d->a_type != calls[0].desc.a_type) {
      fprintf(stderr, "spvgen bench trace: %s:%d: every call of a trace has the same input type (%s)\n", path,
              calls[i].line, spvgen_component_type_name(calls[0].desc.a_type));
      goto done_early;
    }
    if (!input_supported(d->a_type) || spvgen_component_type_size(d->out_type) == 0) {
      fprintf(stderr, "spvgen bench trace: %s:%d: the trace runner fills f16, bf16, f32, s8 and u8 inputs only\n",
              path, calls[i].line);
      goto done_early;
    }
    uint64_t a = (uint64_t)d->m * d->k * spvgen_component_type_size(d->a_type);
    uint64_t b = (uint64_t)d->n * d->k * spvgen_component_type_size(d->b_type);
    uint64_t o = (uint64_t)d->m * d->n * spvgen_component_type_size(d->out_type);
    if (a > max_a) max_a = a;
    if (b > max_b) max_b = b;
    if (o > max_d) max_d = o;
  }
  uint64_t seed = 0x7ace5eedull;
  /* One host copy per input type is enough: the bytes of the largest A and B. */
  spvgen_component_type in_t = calls[0].desc.a_type;
  uint32_t es = spvgen_component_type_size(in_t);
  void *ha = host_fill(in_t, max_a / es + 1, &seed), *hb = host_fill(in_t, max_b / es + 1, &seed);
  spvgen_vk_buffer *ba = NULL, *bb = NULL, *bd = NULL;
  if (!ha || !hb || spvgen_vk_buffer_create(ctx, (max_a + 3) & ~3ull, 0, &ba) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, (max_b + 3) & ~3ull, 0, &bb) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, (max_d + 3) & ~3ull, 0, &bd) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, ba, 0, ha, max_a) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, bb, 0, hb, max_b) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: operands: %s\n", ha && hb ? spvgen_vk_error(ctx) : "out of host memory");
    goto done;
  }
  printf("trace %s: %d calls on %s (%s %s)\n", path, n, caps->name, caps->driver_name, caps->driver_info);
  printf("spvgen disk cache: %s%s (%llu bytes read at start%s%s); context %.1f ms\n\n",
         cold ? "cold, empty " : "", cs0.path[0] ? cs0.path : "off", (unsigned long long)cs0.disk_bytes_read,
         cs0.notice[0] ? "; " : "", cs0.notice, t_open);
  printf("reuse %s, expected runs %u\n\n", tp.reuse ? "on" : "off", tp.runs ? tp.runs : SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS);
  printf("| %3s | %5s | %5s | %5s | %-36s | %8s | %11s | %9s | %8s | %7s | %-16s |\n", "#", "M", "N", "K", "plan",
         "emit us", "pipeline ms", "", "GPU ms", "TFLOP/s", "reuse");
  printf("|-----|-------|-------|-------|--------------------------------------|----------|-------------|-----------|"
         "----------|---------|------------------|\n");
  double wall = 0, emit_ms = 0, compile_ms = 0, gpu_ms = 0, check_ms = 0;
  spvgen_vk_buffer *ws = NULL; /* the split-K workspace, when a plan splits K */
  uint64_t ws_bytes = 0;
  uint64_t compiled = 0, reused = 0, stood_in = 0, bad_total = 0, checked_total = 0, quick_calls = 0;
  double t_all = sg_now_ms();
  for (int i = 0; i < n; i++) {
    spvgen_gemm_desc *d = &calls[i].desc;
    spvgen_gemm_config plan;
    spvgen_gemm_launch launch;
    spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT] = {{0}};
    uint32_t nk = 0; /* the plan's kernels: 2 with split-K (the partials, then the reduction) */
    spvgen_vk_pipeline *p[SPVGEN_GEMM_KERNEL_COUNT] = {0};
    double t0 = sg_now_ms();
    spvgen_gemm_desc want;
    spvgen_gemm_args args;
    spvgen_gemm_plan_choice ch;
    if (trace_want(&tp, d, &want, &args, msg, sizeof msg) != SPVGEN_OK ||
        trace_plan(&tp, caps, &want, &plan, &ch, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, calls[i].line, msg);
      goto done;
    }
    /* --tiered: the plan, or its quick form while the plan compiles */
    const spvgen_gemm_config *run = &plan;
    if (tiered) {
      const uint64_t key = spvgen_gemm_class_key(&plan);
      trace_tier *t = NULL;
      for (uint32_t j = 0; j < tier_count && !t; j++)
        if (tiers[j].key == key) t = &tiers[j];
      spvgen_gemm_config quick;
      if (!t && !trace_holds(&tp, key) && tier_count < TRACE_MAX_CALLS && spvgen_gemm_plan_quick(&plan, &quick)) {
        /* the plan's first call: its kernels start compiling in the background */
        t = &tiers[tier_count++];
        t->key = key;
        t->quick = quick;
        if (gemm_compile_in_background(ctx, &plan, t->compiles, &t->count, msg, sizeof msg) != SPVGEN_OK) {
          fprintf(stderr, "spvgen bench trace: %s:%d: --tiered: %s\n", path, calls[i].line, msg);
          goto done;
        }
      }
      if (t && !tier_settle(ctx, t, false)) run = &t->quick;
    }
    const bool quick_run = run != &plan;
    if (spvgen_gemm_plan_kernels(run, k, &nk, msg, sizeof msg) != SPVGEN_OK ||
        spvgen_gemm_launch_for(run, runtime ? &args : NULL, &launch, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, calls[i].line, msg);
      for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]);
      goto done;
    }
    double t1 = sg_now_ms();
    spvgen_vk_kernel_cache_stats before, after;
    spvgen_vk_kernel_cache_stats_get(ctx, &before);
    { /* one batch: a split plan's kernels compile on threads at once */
      spvgen_vk_pipeline_request rq[SPVGEN_GEMM_KERNEL_COUNT];
      for (uint32_t j = 0; j < nk; j++) rq[j] = (spvgen_vk_pipeline_request){k[j].words, k[j].word_count, &k[j].info, NULL};
      st = spvgen_vk_pipelines_create(ctx, rq, nk, template_compile_threads(nk), p);
    }
    double t2 = sg_now_ms();
    spvgen_vk_kernel_cache_stats_get(ctx, &after);
    bool miss = after.compiled > before.compiled;
    uint64_t ns = 0;
    /* each kernel binds what its info names (spvgen/gemm.h: the pack kernel the operands
     * it copies and the workspace, the main kernel A and B unless packed, D unless split,
     * the reduction D): the trace's calls have no C and no bias */
    spvgen_vk_buffer *kb[SPVGEN_GEMM_KERNEL_COUNT][SPVGEN_MAX_BINDINGS];
    uint32_t kn[SPVGEN_GEMM_KERNEL_COUNT] = {0};
    for (uint32_t j = 0; j < nk && st == SPVGEN_OK; j++) {
      kn[j] = k[j].info.binding_count;
      for (uint32_t b = 0; b < kn[j] && st == SPVGEN_OK; b++) {
        const char *name = k[j].info.bindings[b].name ? k[j].info.bindings[b].name : "";
        kb[j][b] = !strcmp(name, "A") ? ba : !strcmp(name, "B") ? bb : !strcmp(name, "D") ? bd : NULL;
        if (!kb[j][b] && strcmp(name, "workspace")) { /* NULL: the workspace, below */
          fprintf(stderr, "spvgen bench trace: %s:%d: kernel %u of the plan binds '%s'; the trace runner binds A, "
                  "B, D and the workspace\n", path, calls[i].line, j, name);
          st = SPVGEN_ERROR_UNSUPPORTED;
        }
      }
    }
    if (st != SPVGEN_OK) {
      for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]), spvgen_vk_pipeline_destroy(p[j]);
      goto done;
    }
    if (launch.workspace_bytes > ws_bytes) {
      /* split-K: one workspace for the trace, grown as a call needs (no initialization:
       * the partials kernel writes every word the reduction reads), as a framework would
       * keep it */
      if (ws) spvgen_vk_buffer_destroy(ws);
      ws = NULL;
      ws_bytes = (launch.workspace_bytes + 0xFFFFu) & ~0xFFFFull;
      st = spvgen_vk_buffer_create(ctx, ws_bytes, 0, &ws);
    }
    /* one step: the plan's kernels in order (pack, main, reduction), with the runner's
     * compute-to-compute barrier between them */
    spvgen_vk_dispatch_desc dd[SPVGEN_GEMM_KERNEL_COUNT];
    memset(dd, 0, sizeof dd);
    for (uint32_t j = 0; j < nk; j++) {
      const spvgen_gemm_kernel which = spvgen_gemm_kernel_at(run, j);
      for (uint32_t b = 0; b < kn[j]; b++)
        if (!kb[j][b]) kb[j][b] = ws;
      const uint32_t *g = which == SPVGEN_GEMM_KERNEL_PACK     ? launch.pack_groups
                          : which == SPVGEN_GEMM_KERNEL_REDUCE ? launch.reduce_groups
                                                               : launch.groups;
      const uint32_t push = which == SPVGEN_GEMM_KERNEL_REDUCE ? launch.reduce_push_size : launch.push_size;
      dd[j] = (spvgen_vk_dispatch_desc){.pipeline = p[j], .buffers = kb[j], .buffer_count = kn[j],
                                        .push_data = push ? &launch.push : NULL, .push_size = push,
                                        .groups = {g[0], g[1], g[2]}};
    }
    if (st == SPVGEN_OK) st = spvgen_vk_run_steps(ctx, dd, nk, nk, &ns);
    double t3 = sg_now_ms();
    if (st != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, calls[i].line, spvgen_vk_error(ctx));
      for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]), spvgen_vk_pipeline_destroy(p[j]);
      goto done;
    }
    wall += t3 - t0;
    emit_ms += t1 - t0;
    if (miss) compiled++, compile_ms += t2 - t1;
    else reused++;
    quick_calls += quick_run;
    trace_hold(&tp, &plan); /* the process holds its kernels now (the runner's cache) */
    stood_in += ch.reused;
    gpu_ms += ns / 1e6;
    /* The check (not in the wall time): a sample of D against the CPU in float64. */
    double tc = sg_now_ms();
    uint64_t bad = 0;
    uint32_t osize = spvgen_component_type_size(d->out_type);
    /* tight leading dimensions, as the run-time launch and the fixed plan both use */
    const uint32_t lda = plan.desc.a_layout == SPVGEN_ROW_MAJOR ? d->k : d->m;
    const uint32_t ldb = plan.desc.b_layout == SPVGEN_ROW_MAJOR ? d->n : d->k;
    const uint32_t ldd = plan.desc.d_layout == SPVGEN_ROW_MAJOR ? d->n : d->m;
    uint64_t cseed = 0x5a5a0000ull + (uint64_t)i;
    for (uint32_t s = 0; s < sample; s++) {
      uint32_t r = (uint32_t)(rng_next(&cseed) % d->m), c = (uint32_t)(rng_next(&cseed) % d->n);
      double ref = 0, mag = 0;
      for (uint32_t kk = 0; kk < d->k; kk++) {
        double t = sg_ref_get(ha, d->a_type, at(plan.desc.a_layout, lda, r, kk)) *
                   sg_ref_get(hb, d->b_type, at(plan.desc.b_layout, ldb, kk, c));
        ref += t, mag += fabs(t);
      }
      unsigned char got_bytes[8] = {0};
      if (spvgen_vk_buffer_download(ctx, bd, at(plan.desc.d_layout, ldd, r, c) * osize, got_bytes, osize) !=
          SPVGEN_OK) {
        bad++;
        continue;
      }
      double got = sg_ref_get(got_bytes, d->out_type, 0);
      /* accumulation error ~ sqrt(K) ulps of the accumulator, plus the output's rounding */
      double acc_eps = d->acc_type == SPVGEN_COMPONENT_F16 ? 0x1p-10 : d->acc_type == SPVGEN_COMPONENT_F32 ? 0x1p-22 : 0;
      double out_eps = d->out_type == SPVGEN_COMPONENT_F16 ? 0x1p-10 : d->out_type == SPVGEN_COMPONENT_BF16 ? 0x1p-7
                       : d->out_type == SPVGEN_COMPONENT_F32 ? 0x1p-22 : 0;
      double tol = (acc_eps * sqrt((double)d->k) * 4 + 1e-30) * mag + out_eps * fabs(ref) + 1e-6;
      if (!(fabs(got - ref) <= tol)) bad++;
    }
    check_ms += sg_now_ms() - tc;
    bad_total += bad;
    checked_total += sample;
    double tflops = ns ? 2.0 * d->m * d->n * d->k / ns / 1e3 : 0;
    char cell[32];
    reuse_cell(&ch, cell, sizeof cell);
    printf("| %3d | %5u | %5u | %5u | %-36.36s | %8.0f | %11.2f | %-9s | %8.3f | %7.1f | %-16s |%s\n", i + 1, d->m,
           d->n, d->k, run->name, (t1 - t0) * 1e3, t2 - t1, miss ? "compiled" : "cached", ns / 1e6, tflops,
           quick_run ? "quick form" : cell, bad ? " CHECK FAILED" : "");
    if (ch.reused) /* what AUTO's plan would have cost, estimated */
      printf("|     |       |       |       |   in place of %-36.36s (est. %.4f ms a run against %.4f, %u ms to "
             "compile) |\n", ch.default_name, ch.default_run_ms, ch.run_ms, ch.default_compile_ms);
    fflush(stdout);
    for (uint32_t j = 0; j < nk; j++) { /* the compiled pipelines stay in the kernel cache */
      spvgen_vk_pipeline_destroy(p[j]);
      spvgen_kernel_free(&k[j]);
    }
  }
  double loop_ms = sg_now_ms() - t_all;
  /* --tiered: what was still compiling when the calls ended, waited for outside the wall
   * time (a framework's process goes on) */
  double tier_ms = 0, t_left = sg_now_ms();
  uint32_t left = 0;
  for (uint32_t j = 0; j < tier_count; j++) {
    left += !tiers[j].ready && tiers[j].count;
    tier_settle(ctx, &tiers[j], true);
    tier_ms += tiers[j].compile_ms;
  }
  t_left = sg_now_ms() - t_left;
  /* The disk cache written now (as at exit), timed: part of what a process pays. */
  double t_save = sg_now_ms();
  spvgen_vk_kernel_cache_save(ctx);
  t_save = sg_now_ms() - t_save;
  printf("\npipelines created: %llu (cache hits %llu; plans reused in place of AUTO's: %llu)\n",
         (unsigned long long)compiled, (unsigned long long)reused, (unsigned long long)stood_in);
  printf("total compile ms:  %.1f\n", compile_ms);
  printf("total GPU ms:      %.3f\n", gpu_ms);
  printf("total wall ms:     %.1f (plan + emit %.2f, pipelines, dispatch and wait per call; the loop with the "
         "checks took %.1f, the checks %.1f; the disk cache save %.1f)\n",
         wall, emit_ms, loop_ms, check_ms, t_save);
  printf("check:             %llu of %llu sampled outputs off\n", (unsigned long long)bad_total,
         (unsigned long long)checked_total);
  if (tiered)
    printf("tiered:            %u plans compiled in the background (%.1f ms of the driver's compiles on their "
           "threads; %u still compiling when the calls ended, done %.1f ms later); %llu calls ran a quick form "
           "(their compiles are in the pipelines and compile ms above)\n",
           tier_count, tier_ms, left, t_left, (unsigned long long)quick_calls);
  printf("summary calls=%d shapes=%s pipelines=%llu hits=%llu compile_ms=%.1f gpu_ms=%.3f wall_ms=%.1f cold=%d "
         "disk_cache_bytes_read=%llu reuse=%s reused=%llu tiered=%d background_plans=%u background_compile_ms=%.1f "
         "quick_calls=%llu\n",
         n, runtime ? "runtime" : "fixed", (unsigned long long)compiled, (unsigned long long)reused, compile_ms, gpu_ms,
         wall, cold ? 1 : 0, (unsigned long long)cs0.disk_bytes_read, tp.reuse ? "on" : "off",
         (unsigned long long)stood_in, tiered ? 1 : 0, tier_count, tier_ms, (unsigned long long)quick_calls);
  rc = bad_total ? 1 : 0;
done:
  free(ha);
  free(hb);
done_early:
  for (uint32_t j = 0; j < tier_count; j++)
    for (uint32_t c = 0; c < tiers[j].count; c++) spvgen_vk_compile_cancel(tiers[j].compiles[c]);
  spvgen_vk_destroy(ctx);
  free(tiers);
  free(calls);
  free(tp.held);
  if (cold) rm_tree(tmp_dir);
  return rc;
}
