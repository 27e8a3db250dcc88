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
 * compiles have ended, the quick form until then. A plan that needs no compile (a
 * cached-only create finds it: a warm process) runs from its first call, no tier. What
 * is left compiling at the end is waited for outside the wall time (a framework would not
 * wait), and reported.
 *
 * --prefetch N (run-time shapes; the default without --tiered): the first call of a weight
 * (its class with M free: N, K, types, layouts) compiles, in the background, the plans its
 * calls would take at prompt lengths up to --prefetch-max-m (spvgen_gemm_plan_family, at
 * most N plans), all at once on threads of their own; the process then holds them, so
 * spvgen_gemm_plan_ex plans each call among them, and a call whose plan is still compiling
 * waits for that compile only (in its pipeline column and its wall time). Why: one compile
 * after another, each at the first call that needs it, is most of a cold trace's wall time,
 * and the driver compiles in parallel. With --tiered (asked for) each family plan is first
 * asked for without a compile, and the rest compile as tiers (trace_prefetch_start).
 *
 * --passes N: after pass 1 (the table and the totals above, as without it), the same calls
 * N - 1 more times in the same process, in order, with what it holds: the plans pass 1
 * would pick now, the pipelines from the kernel cache (none compiled unless the cache's
 * idle list dropped them), with --tiered a plan whose background compile has ended (never
 * waited for between passes). Each is timed as pass 1 (GPU ns per call, wall per call) and
 * checked as pass 1; a line per pass. Why: a warm trace is ~15 ms of GPU work, short
 * enough to run in the 100-400 ms the GPU's clock stays at idle after an idle second
 * (docs/runner.md, "GPU clocks"), and torch's anchor reports its warm figure from a
 * second pass in the same process. The slow calls: a call whose GPU time is more than 2x
 * the best of its kernel on that call (any pass, or a call of the same desc) and 0.02 ms
 * over it, counted per pass. --warm-up runs the runner's warm-up (spvgen_vk_warm_up) on
 * a GEMM of its own before pass 1, outside every total. */
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
#define TRACE_MAX_PASSES 100u
#define TRACE_MAX_STRAY 64u
#define TRACE_MAX_FAMILY 24u /* plans per weight --prefetch takes at most */
#define TRACE_PREFETCH_DEFAULT 8u
#define TRACE_PREFETCH_MAX_M 4096u
/* --warm-up: its GEMM (M x N x K) and its least time (trace_warm_up) */
#define TRACE_WARM_M 512u
#define TRACE_WARM_N 512u
#define TRACE_WARM_K 256u
#define TRACE_WARM_MS 500u

typedef struct trace_call {
  spvgen_gemm_desc desc;
  int line;
} trace_call;

static void trace_usage(FILE *o) {
  fprintf(o, "usage: spvgen bench trace FILE [--cold] [--cache-dir DIR] [--shapes runtime|fixed] [--sample N]\n"
             "                          [--split-k S] [--pack MODE] [--reuse on|off] [--runs R] [--k-fixed on|off]\n"
             "                          [--tiered] [--prefetch N|off] [--prefetch-max-m M] [--passes N] [--warm-up]\n"
             "                          [--clock on|off] [--device NAME | --caps NAME]\n\n"
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
             "                   on a thread of its own; the calls after it is ready run the plan.\n"
             "                   First the plan is asked for without a compile (a cached-only create:\n"
             "                   the disk cache of an earlier run, or the driver's): a warm process\n"
             "                   runs each plan from its first call\n"
             "  --prefetch N|off run-time shapes: the first call of each weight (its class with M free:\n"
             "                   N, K, types, layouts) starts compiling, in the background and all at\n"
             "                   once, the plans that weight's calls take at prompt lengths up to\n"
             "                   --prefetch-max-m (spvgen_gemm_plan_family: at most N, the most used\n"
             "                   first; default %u without --tiered, off with it), and holds them: a\n"
             "                   call waits only for its own plan's compile (\"ahead\" in its row).\n"
             "                   With --tiered each is first asked for without a compile (cached-only\n"
             "                   creates), the rest compile as tiers. off: each plan compiles at the\n"
             "                   first call that takes it, one after another\n"
             "  --prefetch-max-m M  the longest prompt length a family is planned for (default %u)\n"
             "  --passes N       run the trace N times in this process (1-100, default 1): pass 1 as\n"
             "                   without it (its table, its totals, the summary's fields), then the\n"
             "                   same calls again with the pipelines and plans the process holds (with\n"
             "                   --tiered a plan whose background compile has ended; nothing waits\n"
             "                   between passes), each call timed and checked as in pass 1; a line\n"
             "                   per pass (GPU ms, wall ms, pipelines created). Pass 2's GPU ms is the\n"
             "                   warm figure to compare with the torch anchor's pass 2\n"
             "  --clock on|off   on (default): the GPU's shader clock read before pass 1 and after each\n"
             "                   pass (spvgen_vk_measure_clock, ~1-6 ms each), and once more after\n"
             "                   the runner's warm-up once the passes are done (the busy reference,\n"
             "                   ~0.5-2 s, outside every total; skipped with --warm-up, whose reading\n"
             "                   serves, and on a CPU device): a `GPU clock:` line names the passes\n"
             "                   that began or ended under 80 %% of the busy clock; `clock_mhz=` and\n"
             "                   `busy_clock_mhz=` in the summary. Needs VK_KHR_shader_clock\n"
             "  --warm-up        before pass 1, the runner's warm-up (spvgen_vk_warm_up: at least\n"
             "                   %u ms of back-to-back batches of a %ux%ux%u GEMM of the trace's\n"
             "                   types, its own kernel and operands) so the GPU's clock is up at\n"
             "                   the first call; its time is printed, in no total (default off: a\n"
             "                   framework's first call meets the idle clock; pass 1 measures that)\n"
             "  --device NAME    the first device whose name contains NAME\n"
             "  --caps NAME      plan only, for a preset or caps file (no device): each call's plan,\n"
             "                   whether it compiles, and the totals with the planner's compile\n"
             "                   estimates (plan.compile_ms) in place of measured compiles\n\n"
             "slow calls: a call whose GPU time is more than 2x the best time of the same kernel on\n"
             "the same call (in any pass, or a call of the same desc) and 0.02 ms over it, counted per\n"
             "pass (summary: slow_calls=, na where nothing could be compared). After an idle second\n"
             "the GPU's clock stays low for 100-400 ms of work (docs/runner.md, \"GPU clocks\"): a\n"
             "warm trace's calls fit in that time.\n\n"
             "examples:\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt --cold\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt      # warm: the cache filled\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt --passes 2   # pass 2: warm in-process\n"
             "  spvgen bench trace bench/traces/qwen2-7b-prefill.txt --caps h100 --reuse off\n",
          SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS, TRACE_PREFETCH_DEFAULT, TRACE_PREFETCH_MAX_M, TRACE_WARM_MS, TRACE_WARM_M,
          TRACE_WARM_N, TRACE_WARM_K);
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
  bool used;                   /* --prefetch: a call took the plan */
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
      fprintf(stderr, "spvgen bench trace: a background compile failed: %s\n", spvgen_vk_error(ctx));
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
  /* --prefetch: plans per weight compiled ahead (0: off), up to prefetch_max_m rows, and
   * the weights (their run-time class, m cleared) whose family was compiled */
  uint32_t prefetch, prefetch_max_m;
  spvgen_gemm_desc *weights;
  uint32_t weight_count;
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

/* --prefetch: want's weight (its class, M cleared) the first time it comes, its family
 * (spvgen_gemm_plan_family) in fam and *count (plans the process does not hold yet);
 * 0 otherwise, or when the family could not be planned (the call plans on its own, as
 * without --prefetch; msg says why). A weight is remembered either way. */
static uint32_t trace_family(trace_planning *tp, const spvgen_device_caps *caps, const spvgen_gemm_desc *want,
                             spvgen_gemm_config *fam, uint32_t cap, char *msg, size_t size) {
  msg[0] = 0;
  if (!tp->prefetch || !tp->runtime || !tp->weights) return 0;
  spvgen_gemm_desc w = *want;
  w.m = 0;
  for (uint32_t i = 0; i < tp->weight_count; i++)
    if (!memcmp(&tp->weights[i], &w, sizeof w)) return 0;
  if (tp->weight_count == TRACE_MAX_CALLS) return 0;
  tp->weights[tp->weight_count++] = w;
  uint32_t n = 0, kept = 0;
  const uint32_t mm = w.m_multiple ? w.m_multiple : 1;
  const uint32_t m_max = (tp->prefetch_max_m + mm - 1) / mm * mm;
  if (spvgen_gemm_plan_family(&w, caps, m_max, tp->held, tp->held_count, fam, cap < tp->prefetch ? cap : tp->prefetch,
                              &n, NULL, msg, size) != SPVGEN_OK)
    return 0;
  for (uint32_t i = 0; i < n; i++)
    if (!trace_holds(tp, spvgen_gemm_class_key(&fam[i]))) fam[kept++] = fam[i];
  return kept;
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
  uint64_t compiled = 0, reused = 0, ahead = 0;
  double compile_ms = 0, run_ms = 0, ahead_ms = 0, ahead_max_ms = 0;
  uint64_t *ahead_keys = tp->prefetch ? malloc(sizeof *ahead_keys * TRACE_MAX_CALLS) : NULL;
  uint32_t n_ahead = 0;
  if (tp->prefetch && !ahead_keys) return 1;
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
      free(ahead_keys);
      return 1;
    }
    { /* --prefetch: the weight's family, held from its first call (compiled ahead, in parallel) */
      spvgen_gemm_config fam[TRACE_MAX_FAMILY];
      char fmsg[512];
      const uint32_t nf = trace_family(tp, caps, &want, fam, TRACE_MAX_FAMILY, fmsg, sizeof fmsg);
      for (uint32_t j = 0; j < nf; j++) {
        if (trace_hold(tp, &fam[j])) {
          ahead++, ahead_ms += fam[j].compile_ms;
          if (n_ahead < TRACE_MAX_CALLS) ahead_keys[n_ahead++] = spvgen_gemm_class_key(&fam[j]);
        }
        if (fam[j].compile_ms > ahead_max_ms) ahead_max_ms = fam[j].compile_ms;
      }
      if (fmsg[0]) printf("|     | prefetch: %s |\n", fmsg);
      /* the call's plan again, now against what is held */
      if (nf && (trace_plan(tp, caps, &want, &plan, &ch, msg, sizeof msg) != SPVGEN_OK ||
                 spvgen_gemm_estimate_ms(&plan, caps, tp->runtime ? &args : NULL, &est, msg, sizeof msg) != SPVGEN_OK)) {
        fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, calls[i].line, msg);
        free(ahead_keys);
        return 1;
      }
    }
    const bool miss = trace_hold(tp, &plan);
    if (miss) compiled++, compile_ms += plan.compile_ms;
    bool first_ahead = false; /* the first call of a plan compiled ahead */
    for (uint32_t j = 0; j < n_ahead && !first_ahead; j++)
      if (ahead_keys[j] == spvgen_gemm_class_key(&plan)) first_ahead = true, ahead_keys[j] = ahead_keys[--n_ahead];
    reused += ch.reused;
    run_ms += est;
    char cell[32];
    reuse_cell(&ch, cell, sizeof cell);
    printf("| %3d | %5u | %5u | %5u | %-44.44s | %-8s | %10u | %-16s | %9.4f |\n", i + 1, calls[i].desc.m,
           calls[i].desc.n, calls[i].desc.k, plan.name, miss ? "compiled" : first_ahead ? "ahead" : "cached",
           miss ? plan.compile_ms : 0,
           cell, est);
    if (ch.reused)
      printf("|     |       |       |       |   in place of %-30.30s | est. %.4f ms a run, %u ms to compile |\n",
             ch.default_name, ch.default_run_ms, ch.default_compile_ms);
  }
  printf("\npipelines created: %llu (cache hits %llu, reused in place of AUTO's plan %llu)\n",
         (unsigned long long)compiled, (unsigned long long)(n - compiled), (unsigned long long)reused);
  printf("estimated compile ms: %.0f\n", compile_ms);
  if (tp->prefetch)
    printf("prefetch:             %llu plans compiled ahead (up to %u per weight, lengths to %u), estimated %.0f ms "
           "of compiles, the longest %.0f ms (in parallel: about the longest)\n",
           (unsigned long long)ahead, tp->prefetch, tp->prefetch_max_m, ahead_ms, ahead_max_ms);
  printf("estimated GPU ms:     %.3f\n", run_ms);
  printf("summary calls=%d shapes=%s reuse=%s pipelines=%llu hits=%llu reused=%llu est_compile_ms=%.0f "
         "est_gpu_ms=%.3f prefetch=%u prefetched=%llu est_prefetch_ms=%.0f\n",
         n, tp->runtime ? "runtime" : "fixed", tp->reuse ? "on" : "off", (unsigned long long)compiled,
         (unsigned long long)(n - compiled), (unsigned long long)reused, compile_ms, run_ms, tp->prefetch,
         (unsigned long long)ahead, ahead_ms);
  free(ahead_keys);
  return 0;
}

/* What the calls of every pass share: the device, the operands a framework holds, how the
 * calls are planned and what the process compiled so far. */
typedef struct trace_run {
  spvgen_vk_context *ctx;
  const spvgen_device_caps *caps;
  const char *path;
  const trace_call *calls;
  trace_planning *tp;
  bool runtime, tiered;
  trace_tier *tiers; /* --tiered: the plans compiling in the background, one per class key */
  uint32_t tier_count;
  uint32_t cached_plans; /* --tiered: plans whose kernels needed no compile (cached-only creates) */
  /* --tiered: quick forms whose compile was started for a plan then found cached, left to
   * end by themselves (finished before the disk cache is saved) */
  spvgen_vk_compile *stray[TRACE_MAX_STRAY];
  uint32_t stray_count;
  double probe_ms;       /* --tiered: the cached-only creates that asked, found or not */
  /* --prefetch: the plans compiling (or compiled) ahead, one per class key; the calls'
   * waits for them; the family plans' start (plan, emit, shader modules) */
  trace_tier *pf;
  uint32_t pf_count, pf_kernels;
  uint32_t pf_family; /* plans of the families (held from the first call of their weight) */
  double pf_wait_ms, pf_start_ms, pf_last_start_ms;
  const void *ha, *hb; /* the host bytes of A and B, for the check */
  spvgen_vk_buffer *ba, *bb, *bd;
  spvgen_vk_buffer *ws; /* the split-K workspace, when a plan splits K */
  uint64_t ws_bytes;
  uint32_t sample;
} trace_run;

/* What one call did. */
typedef struct trace_result {
  uint64_t ns;                          /* GPU time (spvgen_vk_run_steps: the plan's kernels as one step) */
  double emit_ms, pipeline_ms, wall_ms; /* plan + emit; the pipeline (a compile on a miss); the call */
  double check_ms;                      /* the check, not in wall_ms */
  bool miss;                            /* its pipeline was compiled */
  bool quick;                           /* --tiered: the plan's quick form ran */
  bool ahead;                           /* --prefetch: its pipelines were compiled ahead (first use) */
  uint64_t kernel;                      /* which kernel ran: a hash of its name and `quick` */
  uint64_t bad;                         /* sampled outputs off */
  spvgen_gemm_plan_choice ch;           /* what the planner weighed */
  char name[96];                        /* the plan that ran */
} trace_result;

/* FNV-1a over a string, then one more byte: the identity of the kernel a call ran. */
static uint64_t kernel_id(const char *name, bool quick) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char *c = name; *c; c++) h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
  return (h ^ (quick ? 1u : 2u)) * 0x100000001b3ull;
}

/* One reading of the shader clock into *mhz (0 when it fails; the first failure's message
 * is kept in error). */
static void trace_clock(spvgen_vk_context *ctx, double *mhz, char *error, size_t size) {
  spvgen_vk_clock c;
  *mhz = 0;
  if (spvgen_vk_measure_clock(ctx, &c) == SPVGEN_OK) *mhz = c.mhz;
  else if (!error[0]) snprintf(error, size, "%s", spvgen_vk_error(ctx));
}

/* --prefetch: at the first call of a weight (want: its class), its family's plans start
 * compiling in the background, all at once, and are held from now on. Without --tiered
 * each becomes a prefetch entry (a call that takes it waits for its compile). With
 * --tiered each is first asked for without a compile (cached-only creates, all at once: a
 * warm process finds them, and runs them from their first call), and those the driver
 * would compile become tiers: their calls run the quick form until the plan is ready (a
 * plan without a quick form: a prefetch entry, waited for). The time this takes is in
 * s->pf_last_start_ms. Returns 0, or 1 after printing why. */
static int trace_prefetch_start(trace_run *s, const spvgen_gemm_desc *want, int line) {
  spvgen_vk_context *ctx = s->ctx;
  char msg[2048];
  const double ts = sg_now_ms();
  s->pf_last_start_ms = 0;
  spvgen_gemm_config fam[TRACE_MAX_FAMILY];
  const uint32_t nf = trace_family(s->tp, s->caps, want, fam, TRACE_MAX_FAMILY, msg, sizeof msg);
  if (msg[0]) printf("prefetch: %s:%d: %s (the calls plan on their own)\n", s->path, line, msg);
  bool found[TRACE_MAX_FAMILY] = {false};
  if (s->tiered && nf && gemm_ask_cached(ctx, fam, nf, found, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: %s:%d: --prefetch: %s\n", s->path, line, msg);
    return 1;
  }
  for (uint32_t j = 0; j < nf; j++) {
    s->pf_family++;
    trace_hold(s->tp, &fam[j]); /* held: found, or its compile starts now */
    if (found[j]) {
      s->cached_plans++;
      continue;
    }
    spvgen_gemm_config quick;
    trace_tier *e;
    if (s->tiered && spvgen_gemm_plan_quick(&fam[j], &quick) && s->tier_count < TRACE_MAX_CALLS) {
      e = &s->tiers[s->tier_count++];
      memset(e, 0, sizeof *e);
      e->quick = quick;
    } else if (s->pf_count < TRACE_MAX_CALLS) {
      e = &s->pf[s->pf_count++];
      memset(e, 0, sizeof *e);
    } else {
      continue;
    }
    e->key = spvgen_gemm_class_key(&fam[j]);
    if (gemm_compile_in_background(ctx, &fam[j], NULL, e->compiles, &e->count, msg, sizeof msg) != SPVGEN_OK) {
      fprintf(stderr, "spvgen bench trace: %s:%d: --prefetch: %s: %s\n", s->path, line, fam[j].name, msg);
      return 1;
    }
    s->pf_kernels += e->count;
  }
  s->pf_last_start_ms = sg_now_ms() - ts;
  s->pf_start_ms += s->pf_last_start_ms;
  return 0;
}

/* Runs call i once, as a framework would (plan, emit, pipeline from the kernel cache, one
 * dispatch), then checks a sample of its outputs (outside its wall time). Every pass runs
 * its calls through here. Returns 0, or 1 after printing why. */
static int trace_run_call(trace_run *s, int i, trace_result *r) {
  const spvgen_gemm_desc *d = &s->calls[i].desc;
  const char *path = s->path;
  const int line = s->calls[i].line;
  spvgen_vk_context *ctx = s->ctx;
  char msg[2048];
  memset(r, 0, sizeof *r);
  spvgen_gemm_config plan;
  spvgen_gemm_launch launch;
  spvgen_kernel k[SPVGEN_GEMM_KERNEL_COUNT] = {{0}};
  uint32_t nk = 0; /* the plan's kernels: 2 with split-K (the partials, then the reduction) */
  spvgen_vk_pipeline *p[SPVGEN_GEMM_KERNEL_COUNT] = {0};
  double t0 = sg_now_ms();
  spvgen_gemm_desc want;
  spvgen_gemm_args args;
  if (trace_want(s->tp, d, &want, &args, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, line, msg);
    return 1;
  }
  double pf_start = 0; /* --prefetch: this call started its weight's family (a pipeline cost) */
  if (s->pf && trace_prefetch_start(s, &want, line) != 0) return 1;
  pf_start = s->pf_last_start_ms;
  if (trace_plan(s->tp, s->caps, &want, &plan, &r->ch, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, line, msg);
    return 1;
  }
  /* --tiered: the plan, or its quick form while the plan compiles (a later pass takes the
   * plan once its compiles have ended, never waiting for them: tier_settle without wait) */
  /* --prefetch: the plan compiled ahead (a family's plan has a prefetch entry, never a tier
   * of a call's own, being held): waited for here where it is still compiling, before the
   * kernel-cache snapshot below, so that the family's compiles count as the prefetch's, not
   * the call's; the wait is this call's pipeline time, and the create below finds the
   * pipelines in the kernel cache (a failed compile: said by tier_settle, compiled there) */
  double pf_wait = 0;
  for (uint32_t j = 0; j < s->pf_count; j++) {
    trace_tier *e = &s->pf[j];
    if (e->key != spvgen_gemm_class_key(&plan) || e->used) continue;
    e->used = true;
    r->ahead = true;
    const double tw = sg_now_ms();
    tier_settle(ctx, e, true);
    pf_wait = sg_now_ms() - tw;
    s->pf_wait_ms += pf_wait;
  }
  /* before the tier's start: a quick form compiled there is this call's compile */
  spvgen_vk_kernel_cache_stats before;
  spvgen_vk_kernel_cache_stats_get(ctx, &before);
  const spvgen_gemm_config *run = &plan;
  double tier_start_ms = 0; /* the tier's start (a pipeline cost: moved from emit to pipeline below) */
  bool found_cached = false;
  if (s->tiered) {
    const uint64_t key = spvgen_gemm_class_key(&plan);
    trace_tier *t = NULL;
    for (uint32_t j = 0; j < s->tier_count && !t; j++)
      if (s->tiers[j].key == key) t = &s->tiers[j];
    spvgen_gemm_config quick;
    const double ts = sg_now_ms();
    if (!t && !trace_holds(s->tp, key) && s->tier_count < TRACE_MAX_CALLS && spvgen_gemm_plan_quick(&plan, &quick)) {
      /* the plan's first call, asked as a framework would (gemm_tier_ask): found (a warm
       * process), the plan itself, its pipelines back to the kernel cache where the create
       * below finds them, and the quick form's compile left to end by itself (settled at
       * the end of the trace); not found, the quick form's compile waited for, and the
       * plan's kernels start compiling in the background (below). */
      spvgen_vk_compile *qc[SPVGEN_GEMM_KERNEL_COUNT] = {0};
      spvgen_vk_pipeline *pp[SPVGEN_GEMM_KERNEL_COUNT] = {0}; /* NULL past the plan's kernels */
      uint32_t nq = 0;
      double ask_ms = 0;
      spvgen_status ps = gemm_tier_ask(ctx, &plan, &quick, qc, &nq, pp, &ask_ms, msg, sizeof msg);
      s->probe_ms += ask_ms;
      found_cached = ps == SPVGEN_OK;
      if (found_cached) {
        for (uint32_t j = 0; j < SPVGEN_GEMM_KERNEL_COUNT; j++) spvgen_vk_pipeline_destroy(pp[j]);
        if (s->stray_count + nq <= TRACE_MAX_STRAY)
          for (uint32_t j = 0; j < nq; j++) s->stray[s->stray_count++] = qc[j];
        else /* no room: waited for here */
          for (uint32_t j = 0; j < nq; j++) spvgen_vk_compile_cancel(qc[j]);
      } else if (ps == SPVGEN_ERROR_NOT_CACHED) { /* the quick form's pipelines: the kernel cache's */
        ps = gemm_finish_background(ctx, qc, nq, pp, NULL, msg, sizeof msg);
        for (uint32_t j = 0; j < SPVGEN_GEMM_KERNEL_COUNT; j++) spvgen_vk_pipeline_destroy(pp[j]);
      }
      if (ps != SPVGEN_OK) {
        fprintf(stderr, "spvgen bench trace: %s:%d: --tiered: %s\n", path, line, msg);
        return 1;
      }
    }
    if (found_cached) {
      s->cached_plans++;
      trace_hold(s->tp, &plan);
    } else if (!t && !trace_holds(s->tp, key) && s->tier_count < TRACE_MAX_CALLS &&
               spvgen_gemm_plan_quick(&plan, &quick)) {
      t = &s->tiers[s->tier_count++];
      t->key = key;
      t->quick = quick;
      if (gemm_compile_in_background(ctx, &plan, NULL, t->compiles, &t->count, msg, sizeof msg) != SPVGEN_OK) {
        fprintf(stderr, "spvgen bench trace: %s:%d: --tiered: %s\n", path, line, msg);
        return 1;
      }
    }
    if (t) t->used = true;
    if (t && !tier_settle(ctx, t, false)) run = &t->quick;
    tier_start_ms = sg_now_ms() - ts;
  }
  r->quick = run != &plan;
  snprintf(r->name, sizeof r->name, "%s", run->name);
  r->kernel = kernel_id(run->name, r->quick);
  if (spvgen_gemm_plan_kernels(run, k, &nk, msg, sizeof msg) != SPVGEN_OK ||
      spvgen_gemm_launch_for(run, s->runtime ? &args : NULL, &launch, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, line, msg);
    for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]);
    return 1;
  }
  double t1 = sg_now_ms();
  spvgen_vk_kernel_cache_stats after;
  spvgen_status st;
  { /* one batch: a split plan's kernels compile on threads at once */
    spvgen_vk_pipeline_request rq[SPVGEN_GEMM_KERNEL_COUNT];
    for (uint32_t j = 0; j < nk; j++) rq[j] = (spvgen_vk_pipeline_request){k[j].words, k[j].word_count, &k[j].info, NULL};
    st = spvgen_vk_pipelines_create(ctx, rq, nk, template_compile_threads(nk), p);
  }
  double t2 = sg_now_ms();
  spvgen_vk_kernel_cache_stats_get(ctx, &after);
  /* a plan found cached counts as created here, as the same create would without --tiered */
  r->miss = after.compiled > before.compiled || found_cached;
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
      kb[j][b] = !strcmp(name, "A") ? s->ba : !strcmp(name, "B") ? s->bb : !strcmp(name, "D") ? s->bd : NULL;
      if (!kb[j][b] && strcmp(name, "workspace")) { /* NULL: the workspace, below */
        fprintf(stderr, "spvgen bench trace: %s:%d: kernel %u of the plan binds '%s'; the trace runner binds A, "
                "B, D and the workspace\n", path, line, j, name);
        st = SPVGEN_ERROR_UNSUPPORTED;
      }
    }
  }
  if (st != SPVGEN_OK) {
    for (uint32_t j = 0; j < nk; j++) spvgen_kernel_free(&k[j]), spvgen_vk_pipeline_destroy(p[j]);
    return 1;
  }
  if (launch.workspace_bytes > s->ws_bytes) {
    /* split-K: one workspace for the trace, grown as a call needs (no initialization:
     * the partials kernel writes every word the reduction reads), as a framework would
     * keep it */
    if (s->ws) spvgen_vk_buffer_destroy(s->ws);
    s->ws = NULL;
    s->ws_bytes = (launch.workspace_bytes + 0xFFFFu) & ~0xFFFFull;
    st = spvgen_vk_buffer_create(ctx, s->ws_bytes, 0, &s->ws);
  }
  /* one step: the plan's kernels in order (pack, main, reduction), with the runner's
   * compute-to-compute barrier between them */
  spvgen_vk_dispatch_desc dd[SPVGEN_GEMM_KERNEL_COUNT];
  memset(dd, 0, sizeof dd);
  for (uint32_t j = 0; j < nk; j++) {
    const spvgen_gemm_kernel which = spvgen_gemm_kernel_at(run, j);
    for (uint32_t b = 0; b < kn[j]; b++)
      if (!kb[j][b]) kb[j][b] = s->ws;
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
  if (st != SPVGEN_OK) fprintf(stderr, "spvgen bench trace: %s:%d: %s\n", path, line, spvgen_vk_error(ctx));
  for (uint32_t j = 0; j < nk; j++) { /* the compiled pipelines stay in the kernel cache */
    spvgen_vk_pipeline_destroy(p[j]);
    spvgen_kernel_free(&k[j]);
  }
  if (st != SPVGEN_OK) return 1;
  r->ns = ns;
  r->wall_ms = t3 - t0;
  r->emit_ms = t1 - t0 - tier_start_ms - pf_start - pf_wait;
  r->pipeline_ms = t2 - t1 + tier_start_ms + pf_start + pf_wait;
  trace_hold(s->tp, &plan); /* the process holds its kernels now (the runner's cache) */
  /* The check (not in the wall time): a sample of D against the CPU in float64. */
  double tc = sg_now_ms();
  uint32_t osize = spvgen_component_type_size(d->out_type);
  /* tight leading dimensions, as the run-time launch and the fixed plan both use */
  const uint32_t lda = plan.desc.a_layout == SPVGEN_ROW_MAJOR ? d->k : d->m;
  const uint32_t ldb = plan.desc.b_layout == SPVGEN_ROW_MAJOR ? d->n : d->k;
  const uint32_t ldd = plan.desc.d_layout == SPVGEN_ROW_MAJOR ? d->n : d->m;
  uint64_t cseed = 0x5a5a0000ull + (uint64_t)i;
  for (uint32_t smp = 0; smp < s->sample; smp++) {
    uint32_t row = (uint32_t)(rng_next(&cseed) % d->m), c = (uint32_t)(rng_next(&cseed) % d->n);
    double ref = 0, mag = 0;
    for (uint32_t kk = 0; kk < d->k; kk++) {
      double t = sg_ref_get(s->ha, d->a_type, at(plan.desc.a_layout, lda, row, kk)) *
                 sg_ref_get(s->hb, d->b_type, at(plan.desc.b_layout, ldb, kk, c));
      ref += t, mag += fabs(t);
    }
    unsigned char got_bytes[8] = {0};
    if (spvgen_vk_buffer_download(ctx, s->bd, at(plan.desc.d_layout, ldd, row, c) * osize, got_bytes, osize) !=
        SPVGEN_OK) {
      r->bad++;
      continue;
    }
    double got = sg_ref_get(got_bytes, d->out_type, 0);
    /* accumulation error ~ sqrt(K) ulps of the accumulator, plus the output's rounding */
    double acc_eps = d->acc_type == SPVGEN_COMPONENT_F16 ? 0x1p-10 : d->acc_type == SPVGEN_COMPONENT_F32 ? 0x1p-22 : 0;
    double out_eps = d->out_type == SPVGEN_COMPONENT_F16 ? 0x1p-10 : d->out_type == SPVGEN_COMPONENT_BF16 ? 0x1p-7
                     : d->out_type == SPVGEN_COMPONENT_F32 ? 0x1p-22 : 0;
    double tol = (acc_eps * sqrt((double)d->k) * 4 + 1e-30) * mag + out_eps * fabs(ref) + 1e-6;
    if (!(fabs(got - ref) <= tol)) r->bad++;
  }
  r->check_ms = sg_now_ms() - tc;
  return 0;
}

/* --warm-up: the runner's warm-up (spvgen_vk_warm_up: back-to-back batches until two
 * full batches 500 ms apart agree; docs/runner.md, "GPU clocks") before pass 1, so the
 * GPU's clock is up when the first call comes. It runs a GEMM of the trace's types that
 * is none of the trace's calls: a fixed shape (TRACE_WARM_M x N x K, K moved on where a
 * call has that shape) whose kernel no call can find in the kernel cache, on operands of
 * its own, so pass 1's pipelines, compiles and times are what they are without it. The
 * same warm-up, labelled "clock reference", comes before the busy clock's reading after
 * the passes (clock_mhz, optional: the shader clock read right after it, 0 when not).
 * Prints what it did (not in any total); 0, or 1 after printing why. */
static int trace_warm_up(spvgen_vk_context *ctx, const trace_call *calls, int n, const char *label,
                         double *clock_mhz) {
  char msg[2048];
  spvgen_gemm_desc d;
  memset(&d, 0, sizeof d);
  d.m = TRACE_WARM_M;
  d.n = TRACE_WARM_N;
  d.k = TRACE_WARM_K;
  d.a_type = calls[0].desc.a_type;
  d.b_type = calls[0].desc.b_type;
  d.acc_type = calls[0].desc.acc_type;
  d.out_type = calls[0].desc.out_type;
  d.a_layout = SPVGEN_ROW_MAJOR;
  d.b_layout = SPVGEN_COL_MAJOR; /* nt, a linear layer's */
  for (int i = 0; i < n; i++)
    if (calls[i].desc.m == d.m && calls[i].desc.n == d.n && calls[i].desc.k == d.k) d.k += 16, i = -1;
  /* the one run lifecycle (gemm_run.h): its own operands and pipeline, the runner's
   * warm-up for TRACE_WARM_MS, one timed submission, no check (a warm-up computes nothing
   * anyone reads), and the shader clock right after */
  const gemm_run_options o = {.warmup_ms = TRACE_WARM_MS, .repeats = 1, .no_check = true};
  gemm_run_result res;
  const double t0 = sg_now_ms();
  if (gemm_run(ctx, &d, &o, &res, msg, sizeof msg) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: %s: %ux%ux%u: %s\n", label, d.m, d.n, d.k, msg);
    return 1;
  }
  printf("%s: %.1f ms, not in any total (the runner's warm-up: %.0f ms of a %ux%ux%u GEMM, %s, %s at %.3f ms a "
         "run; its pipeline %.1f ms)\n",
         label, sg_now_ms() - t0, res.warmup_ms, d.m, d.n, d.k, res.plan.name,
         res.warmup_steady ? "steady" : "not steady at its limit", res.median_ns / 1e6, res.pipeline_ms);
  if (clock_mhz) *clock_mhz = res.clock_mhz;
  return 0;
}

/* One instance of a call in one pass, for the slow-call count. */
typedef struct trace_sample {
  uint32_t shape;  /* the first call of the trace with the same desc */
  uint64_t kernel; /* trace_result.kernel */
  uint64_t ns;
  uint32_t pass;   /* 0-based */
} trace_sample;

static int cmp_sample(const void *a, const void *b) {
  const trace_sample *x = a, *y = b;
  if (x->shape != y->shape) return x->shape < y->shape ? -1 : 1;
  if (x->kernel != y->kernel) return x->kernel < y->kernel ? -1 : 1;
  return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* A call is slow when its GPU time is more than TRACE_SLOW_RATIO times the best time of
 * the same kernel on the same call (the same call in another pass, or a call of the same
 * desc in the trace) and more than TRACE_SLOW_FLOOR_NS above it (microsecond noise on a
 * short kernel is no clock). */
#define TRACE_SLOW_RATIO 2.0
#define TRACE_SLOW_FLOOR_NS 20000u
/* A clock reading under this fraction of the busy clock is a low one (see its use). */
#define TRACE_LOW_CLOCK 0.8

/* Counts the slow calls of each pass (slow[p]) among those that had something to be
 * compared with (compared[p]): the samples are sorted in place. */
static void count_slow(trace_sample *smp, uint64_t count, uint32_t *slow, uint32_t *compared) {
  qsort(smp, count, sizeof *smp, cmp_sample);
  for (uint64_t g = 0; g < count;) {
    uint64_t e = g + 1;
    while (e < count && smp[e].shape == smp[g].shape && smp[e].kernel == smp[g].kernel) e++;
    const uint64_t best = smp[g].ns; /* sorted: the group's first is its best */
    for (uint64_t j = g; j < e && e - g > 1; j++) {
      compared[smp[j].pass]++;
      if ((double)smp[j].ns > TRACE_SLOW_RATIO * (double)best && smp[j].ns - best > TRACE_SLOW_FLOOR_NS)
        slow[smp[j].pass]++;
    }
    g = e;
  }
}

int spvgen_cmd_bench_trace(int argc, char **argv) {
  const char *path = NULL, *cache_dir = NULL, *device = NULL, *caps_name = NULL;
  bool cold = false, runtime = true, reuse = true, k_fixed = false, tiered = false, warm_up = false, clock_on = true;
  uint32_t sample = 8, split_k = 0, runs = 0, passes = 1;
  uint32_t prefetch = TRACE_PREFETCH_DEFAULT, prefetch_max_m = TRACE_PREFETCH_MAX_M;
  bool prefetch_set = false;
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
    } else if (!strcmp(a, "--warm-up")) {
      warm_up = true;
    } else if (!strcmp(a, "--cache-dir") || !strcmp(a, "--sample") || !strcmp(a, "--device") ||
               !strcmp(a, "--shapes") || !strcmp(a, "--split-k") || !strcmp(a, "--pack") ||
               !strcmp(a, "--reuse") || !strcmp(a, "--runs") || !strcmp(a, "--caps") || !strcmp(a, "--k-fixed") ||
               !strcmp(a, "--passes") || !strcmp(a, "--clock") || !strcmp(a, "--prefetch") ||
               !strcmp(a, "--prefetch-max-m")) {
      if (i + 1 >= argc) return spvgen_cli_usage_error("bench trace", "%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--cache-dir")) cache_dir = v;
      else if (!strcmp(a, "--shapes")) {
        if (strcmp(v, "runtime") && strcmp(v, "fixed"))
          return spvgen_cli_usage_error("bench trace", "--shapes: '%s' is not runtime or fixed", v);
        runtime = !strcmp(v, "runtime");
      }
      else if (!strcmp(a, "--prefetch")) {
        if (!strcmp(v, "off")) prefetch = 0;
        else if (!sg_parse_u32(v, 1, TRACE_MAX_FAMILY, &prefetch))
          return spvgen_cli_usage_error("bench trace", "--prefetch: '%s' is not off or a plan count from 1 to %u", v,
                                        TRACE_MAX_FAMILY);
        prefetch_set = true;
      } else if (!strcmp(a, "--prefetch-max-m")) {
        if (!sg_parse_u32(v, 1, 1048576, &prefetch_max_m))
          return spvgen_cli_usage_error("bench trace", "--prefetch-max-m: '%s' is not a row count from 1 to 1048576",
                                        v);
      }
      else if (!strcmp(a, "--device")) device = v;
      else if (!strcmp(a, "--caps")) caps_name = v;
      else if (!strcmp(a, "--reuse")) {
        if (strcmp(v, "on") && strcmp(v, "off"))
          return spvgen_cli_usage_error("bench trace", "--reuse: '%s' is not on or off", v);
        reuse = !strcmp(v, "on");
      } else if (!strcmp(a, "--clock")) {
        if (strcmp(v, "on") && strcmp(v, "off"))
          return spvgen_cli_usage_error("bench trace", "--clock: '%s' is not on or off", v);
        clock_on = !strcmp(v, "on");
      } else if (!strcmp(a, "--k-fixed")) {
        if (strcmp(v, "on") && strcmp(v, "off"))
          return spvgen_cli_usage_error("bench trace", "--k-fixed: '%s' is not on or off", v);
        k_fixed = !strcmp(v, "on");
      } else if (!strcmp(a, "--runs")) {
        if (!sg_parse_u32(v, 1, 1000000000, &runs))
          return spvgen_cli_usage_error("bench trace", "--runs: '%s' is not a count from 1 to 10^9", v);
      } else if (!strcmp(a, "--passes")) {
        if (!sg_parse_u32(v, 1, TRACE_MAX_PASSES, &passes))
          return spvgen_cli_usage_error("bench trace", "--passes: '%s' is not a count from 1 to %u", v,
                                        TRACE_MAX_PASSES);
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
  /* --prefetch: on by default with run-time shapes and no tiers. With --tiered it is asked
   * for: there the families' extra plans each cost a quick form's compile at their first
   * call, and the Qwen2-7B cold trace took 344 ms against 269 without them (call S19-4,
   * H100; Llama-3-8B 124 against 160) */
  if (prefetch_set && prefetch && !runtime)
    return spvgen_cli_usage_error("bench trace", "--prefetch %u needs --shapes runtime (a family is the plans of one "
                                  "run-time class)", prefetch);
  if (!runtime || (tiered && !prefetch_set)) prefetch = 0;
  if (caps_name && (device || cold || cache_dir || tiered || passes != 1 || warm_up))
    return spvgen_cli_usage_error("bench trace", "--caps plans without a device: no --device, --cold, --cache-dir, "
                                  "--tiered, --passes or --warm-up");
  spvgen_device_caps preset_caps;
  if (caps_name) {
    int r = spvgen_cli_resolve_caps("bench trace", caps_name, &preset_caps);
    if (r) return r;
  }
  trace_call *calls = malloc(sizeof *calls * TRACE_MAX_CALLS);
  trace_tier *tiers = tiered ? calloc(TRACE_MAX_CALLS, sizeof *tiers) : NULL;
  trace_planning tp = {.runtime = runtime, .reuse = reuse, .k_fixed = k_fixed, .split_k = split_k, .runs = runs, .pack = pack,
                       .held = malloc(sizeof(spvgen_gemm_config) * TRACE_MAX_CALLS), .prefetch = prefetch,
                       .prefetch_max_m = prefetch_max_m,
                       .weights = prefetch ? malloc(sizeof(spvgen_gemm_desc) * TRACE_MAX_CALLS) : NULL};
  trace_tier *pf = prefetch && !caps_name ? calloc(TRACE_MAX_CALLS, sizeof *pf) : NULL;
  if (!calls || !tp.held || (tiered && !tiers) || (prefetch && !tp.weights) || (prefetch && !caps_name && !pf)) {
    free(calls);
    free(tp.held);
    free(tiers);
    free(tp.weights);
    free(pf);
    return 1;
  }
  int n = read_trace(path, calls, TRACE_MAX_CALLS);
  if (n < 0 || caps_name) {
    int r = n < 0 ? 1 : trace_plan_only(path, calls, n, &tp, &preset_caps, caps_name);
    free(calls);
    free(tp.held);
    free(tiers);
    free(tp.weights);
    free(pf);
    return r;
  }
  /* every call of every pass, for the slow-call count; each pass's totals */
  trace_sample *samples = malloc(sizeof *samples * (size_t)n * passes);
  double *pass_gpu = calloc(passes, sizeof *pass_gpu), *pass_wall = calloc(passes, sizeof *pass_wall);
  uint32_t *pass_slow = calloc(passes, sizeof *pass_slow), *pass_compared = calloc(passes, sizeof *pass_compared);
  uint64_t *pass_compiled = calloc(passes, sizeof *pass_compiled), *pass_quick = calloc(passes, sizeof *pass_quick);
  uint32_t *shape_of = malloc(sizeof *shape_of * (size_t)n);
  char tmp_dir[] = "/tmp/spvgen-trace-cache-XXXXXX";
  char msg[2048];
  spvgen_vk_context *ctx = NULL;
  trace_run s = {.path = path, .calls = calls, .tp = &tp, .runtime = runtime, .tiered = tiered, .tiers = tiers,
                 .sample = sample, .pf = pf};
  void *ha = NULL, *hb = NULL;
  int rc = 1;
  if (!samples || !pass_gpu || !pass_wall || !pass_slow || !pass_compared || !pass_compiled || !pass_quick ||
      !shape_of) {
    fprintf(stderr, "spvgen bench trace: out of host memory\n");
    cold = false;
    goto done;
  }
  for (int i = 0; i < n; i++) { /* calls of one desc are one shape: the same kernel times alike */
    shape_of[i] = (uint32_t)i;
    for (int j = 0; j < i; j++)
      if (!memcmp(&calls[j].desc, &calls[i].desc, sizeof calls[i].desc)) {
        shape_of[i] = (uint32_t)j;
        break;
      }
  }
  if (cold && !mkdtemp(tmp_dir)) {
    fprintf(stderr, "spvgen bench trace: mkdtemp: %s\n", strerror(errno));
    cold = false;
    goto done;
  }
  spvgen_vk_desc vd = {.device_name = device, .cache_dir = cold ? tmp_dir : cache_dir};
  double t_open = sg_now_ms();
  spvgen_status st = spvgen_vk_create(&vd, &ctx, msg, sizeof msg);
  t_open = sg_now_ms() - t_open;
  if (st != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: %s\n", msg);
    rc = st == SPVGEN_ERROR_NO_DEVICE ? 77 : 1;
    goto done;
  }
  s.ctx = ctx;
  const spvgen_device_caps *caps = s.caps = spvgen_vk_caps(ctx);
  spvgen_vk_kernel_cache_stats cs0;
  spvgen_vk_kernel_cache_stats_get(ctx, &cs0);

  /* Operands as a framework holds them, allocated once at the largest size the trace
   * needs (a bigger buffer is fine for every call: the runner checks the smaller bound). */
  uint64_t max_a = 0, max_b = 0, max_d = 0;
  for (int i = 0; i < n; i++) {
    spvgen_gemm_desc *d = &calls[i].desc;
    if (d->a_type != calls[0].desc.a_type) {
      fprintf(stderr, "spvgen bench trace: %s:%d: every call of a trace has the same input type (%s)\n", path,
              calls[i].line, spvgen_component_type_name(calls[0].desc.a_type));
      goto done;
    }
    if (!input_supported(d->a_type) || spvgen_component_type_size(d->out_type) == 0) {
      fprintf(stderr, "spvgen bench trace: %s:%d: the trace runner fills f16, bf16, f32, s8 and u8 inputs only\n",
              path, calls[i].line);
      goto done;
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
  ha = host_fill(in_t, max_a / es + 1, &seed), hb = host_fill(in_t, max_b / es + 1, &seed);
  s.ha = ha, s.hb = hb;
  if (!ha || !hb || spvgen_vk_buffer_create(ctx, (max_a + 3) & ~3ull, 0, &s.ba) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, (max_b + 3) & ~3ull, 0, &s.bb) != SPVGEN_OK ||
      spvgen_vk_buffer_create(ctx, (max_d + 3) & ~3ull, 0, &s.bd) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, s.ba, 0, ha, max_a) != SPVGEN_OK ||
      spvgen_vk_buffer_upload(ctx, s.bb, 0, hb, max_b) != SPVGEN_OK) {
    fprintf(stderr, "spvgen bench trace: operands: %s\n", ha && hb ? spvgen_vk_error(ctx) : "out of host memory");
    goto done;
  }
  printf("trace %s: %d calls on %s (%s %s)\n", path, n, caps->name, caps->driver_name, caps->driver_info);
  printf("spvgen disk cache: %s%s (%llu bytes read at start%s%s); context %.1f ms\n\n",
         cold ? "cold, empty " : "", cs0.path[0] ? cs0.path : "off", (unsigned long long)cs0.disk_bytes_read,
         cs0.notice[0] ? "; " : "", cs0.notice, t_open);
  printf("reuse %s, expected runs %u", tp.reuse ? "on" : "off", tp.runs ? tp.runs : SPVGEN_GEMM_DEFAULT_EXPECTED_RUNS);
  if (prefetch)
    printf("; prefetch: each weight's first call compiles up to %u plans for prompt lengths to %u ahead, in "
           "parallel (--prefetch off: one compile at each plan's first call)", prefetch, prefetch_max_m);
  printf("\n\n");
  if (warm_up) {
    if (trace_warm_up(ctx, calls, n, "warm-up", NULL)) goto done;
    printf("\n");
    fflush(stdout);
  }
  printf("| %3s | %5s | %5s | %5s | %-36s | %8s | %11s | %9s | %8s | %7s | %-16s |\n", "#", "M", "N", "K", "plan",
         "emit us", "pipeline ms", "", "GPU ms", "TFLOP/s", "reuse");
  printf("|-----|-------|-------|-------|--------------------------------------|----------|-------------|-----------|"
         "----------|---------|------------------|\n");
  /* The shader clock before pass 1 and after each pass (spvgen_vk_measure_clock; 0: not
   * measured): a pass that begins or ends far under the highest reading ran, at least in
   * part, at the clock the GPU idles at. */
  double clk[TRACE_MAX_PASSES + 1] = {0}, clk_busy = 0;
  bool clock_ok = clock_on && (caps->features & SPVGEN_FEATURE_SHADER_CLOCK) != 0;
  char clock_error[512] = ""; /* the first failed reading's message */
  if (clock_ok) trace_clock(ctx, &clk[0], clock_error, sizeof clock_error);
  /* pass 1's totals (the table, the totals lines and the summary's first fields) */
  double wall = 0, emit_ms = 0, compile_ms = 0, gpu_ms = 0, check_ms = 0, loop_ms = 0;
  uint64_t compiled = 0, reused = 0, stood_in = 0, bad_total = 0, checked_total = 0, quick_calls = 0, ahead_calls = 0;
  uint32_t left = 0; /* --tiered: plans not yet taken up when pass 1's calls ended */
  /* Pass 1, then the same calls again passes - 1 times in this process, with what it holds
   * (its pipelines, its plans; --tiered: a plan whose background compile has ended, else
   * still the quick form: nothing waits between passes, as a framework would not). */
  for (uint32_t pass = 0; pass < passes; pass++) {
    double t_all = sg_now_ms();
    for (int i = 0; i < n; i++) {
      trace_result r;
      if (trace_run_call(&s, i, &r)) goto done;
      samples[(size_t)pass * n + i] = (trace_sample){.shape = shape_of[i], .kernel = r.kernel, .ns = r.ns, .pass = pass};
      pass_gpu[pass] += r.ns / 1e6;
      pass_wall[pass] += r.wall_ms;
      pass_compiled[pass] += r.miss;
      pass_quick[pass] += r.quick;
      bad_total += r.bad;
      checked_total += sample;
      if (pass) {
        if (r.bad)
          printf("pass %u: call %d (%s:%d): CHECK FAILED (%llu of %u sampled outputs off)\n", pass + 1, i + 1, path,
                 calls[i].line, (unsigned long long)r.bad, sample);
        continue;
      }
      const spvgen_gemm_desc *d = &calls[i].desc;
      wall += r.wall_ms;
      emit_ms += r.emit_ms;
      if (r.miss) compiled++, compile_ms += r.pipeline_ms;
      else reused++;
      ahead_calls += r.ahead;
      quick_calls += r.quick;
      stood_in += r.ch.reused;
      gpu_ms += r.ns / 1e6;
      check_ms += r.check_ms;
      double tflops = r.ns ? 2.0 * d->m * d->n * d->k / r.ns / 1e3 : 0;
      char cell[32];
      reuse_cell(&r.ch, cell, sizeof cell);
      printf("| %3d | %5u | %5u | %5u | %-36.36s | %8.0f | %11.2f | %-9s | %8.3f | %7.1f | %-16s |%s\n", i + 1, d->m,
             d->n, d->k, r.name, r.emit_ms * 1e3, r.pipeline_ms, r.miss ? "compiled" : r.ahead ? "ahead" : "cached",
             r.ns / 1e6, tflops,
             r.quick ? "quick form" : cell, r.bad ? " CHECK FAILED" : "");
      if (r.ch.reused) /* what AUTO's plan would have cost, estimated */
        printf("|     |       |       |       |   in place of %-36.36s (est. %.4f ms a run against %.4f, %u ms to "
               "compile) |\n", r.ch.default_name, r.ch.default_run_ms, r.ch.run_ms, r.ch.default_compile_ms);
      fflush(stdout);
    }
    if (pass == 0) {
      loop_ms = sg_now_ms() - t_all;
      for (uint32_t j = 0; j < s.tier_count; j++) left += !tiers[j].ready && tiers[j].count;
    }
    if (clock_ok) trace_clock(ctx, &clk[pass + 1], clock_error, sizeof clock_error);
    if (passes > 1) { /* each pass in a line (pass 1's after its table) */
      printf("%spass %u: GPU ms %.3f, wall ms %.1f, pipelines created %llu", pass ? "" : "\n", pass + 1,
             pass_gpu[pass], pass_wall[pass], (unsigned long long)pass_compiled[pass]);
      if (tiered) printf(", quick-form calls %llu", (unsigned long long)pass_quick[pass]);
      if (clk[pass + 1] > 0) printf(", GPU clock %.0f MHz after it", clk[pass + 1]);
      printf("\n");
      fflush(stdout);
    }
  }
  /* --tiered: what was still compiling when the last pass's calls ended, waited for
   * outside the wall time (a framework's process goes on) */
  double tier_ms = 0, t_left = sg_now_ms();
  uint32_t left_last = 0;
  for (uint32_t j = 0; j < s.tier_count; j++) {
    left_last += !tiers[j].ready && tiers[j].count;
    tier_settle(ctx, &tiers[j], true);
    tier_ms += tiers[j].compile_ms;
  }
  for (uint32_t j = 0; j < s.stray_count; j++) spvgen_vk_compile_cancel(s.stray[j]); /* quick forms not needed */
  s.stray_count = 0;
  t_left = sg_now_ms() - t_left;
  /* --prefetch: the plans no call took, finished (outside the wall time) so that their
   * compile times count and the disk cache keeps them */
  double pf_ms = 0, pf_left_ms = sg_now_ms();
  uint32_t pf_unused = 0;
  for (uint32_t j = 0; j < s.pf_count; j++) {
    pf_unused += !s.pf[j].used;
    tier_settle(ctx, &s.pf[j], true);
    pf_ms += s.pf[j].compile_ms;
  }
  for (uint32_t j = 0; j < s.tier_count; j++) pf_unused += !tiers[j].used; /* a family's tier no call took */
  pf_left_ms = sg_now_ms() - pf_left_ms;
  /* The busy reference (declared with the readings): the clock after the runner's warm-up
   * (--warm-up's reading before pass 1, or a warm-up now, after the passes and outside
   * every total), so that a process whose every reading is at the idle clock is told so
   * too. Not on a CPU device. */
  if (clock_ok && caps->type != SPVGEN_DEVICE_CPU) {
    if (warm_up) clk_busy = clk[0];
    else if (trace_warm_up(ctx, calls, n, "clock reference", &clk_busy) == 0 && clk_busy == 0)
      trace_clock(ctx, &clk_busy, clock_error, sizeof clock_error); /* (the run's own reading failed) */
  }
  /* The disk cache written now (as at exit), timed: part of what a process pays. */
  double t_save = sg_now_ms();
  spvgen_vk_kernel_cache_save(ctx);
  t_save = sg_now_ms() - t_save;
  printf("\npipelines created: %llu (cache hits %llu; plans reused in place of AUTO's: %llu)%s\n",
         (unsigned long long)compiled, (unsigned long long)reused, (unsigned long long)stood_in,
         passes > 1 ? " (this and the totals below: pass 1's)" : "");
  if (prefetch) {
    printf("prefetch:          %u plans in the families of %u weights, held from each weight's first call (their "
           "start: %.1f ms in all, in the pipelines column and the wall time)",
           s.pf_family, tp.weight_count, s.pf_start_ms);
    if (tiered)
      printf("; %u found compiled by cached-only creates, %u compiling as tiers (in the tiered line)",
             s.cached_plans, s.tier_count);
    printf("; %u (%u pipelines) compiled ahead%s, %.1f ms of the driver's compiles on their threads (a disk-cache "
           "hit: ~0), %llu calls took one first (\"ahead\": their waits, %.1f ms in all, in the pipelines column)",
           s.pf_count, s.pf_kernels, tiered ? " with no quick form" : "", pf_ms, (unsigned long long)ahead_calls,
           s.pf_wait_ms);
    printf("; %u never taken by a call (finished %.1f ms after the calls, outside the wall time)\n", pf_unused,
           pf_left_ms);
  }
  printf("total compile ms:  %.1f\n", compile_ms);
  printf("total GPU ms:      %.3f\n", gpu_ms);
  printf("total wall ms:     %.1f (plan + emit %.2f, pipelines, dispatch and wait per call; the loop with the "
         "checks took %.1f, the checks %.1f; the disk cache save %.1f)\n",
         wall, emit_ms, loop_ms, check_ms, t_save);
  printf("check:             %llu of %llu sampled outputs off%s\n", (unsigned long long)bad_total,
         (unsigned long long)checked_total, passes > 1 ? " (every pass's calls)" : "");
  if (tiered) {
    printf("tiered:            %u plans compiled in the background (%.1f ms of the driver's compiles on their "
           "threads; %u still compiling when the calls ended",
           s.tier_count, tier_ms, left);
    if (passes > 1) printf(", %u when the last pass's ended", left_last);
    printf(", done %.1f ms later); %llu calls ran a quick form (their compiles are in the pipelines and compile ms "
           "above)\n",
           t_left, (unsigned long long)quick_calls);
    printf("                   %u plans needed no compile (a cached-only create found them: the kernel cache or the "
           "driver's had them) and ran from their first call; asking took %.1f ms in all (in the pipelines column)\n",
           s.cached_plans, s.probe_ms);
  }
  /* The clock's readings, and the passes that began or ended under TRACE_LOW_CLOCK of the
   * highest (the busy reference where there is one). On the H100 a pass at full speed reads
   * 1980-2010 MHz, 96-98 % of the 2040-2070 the reference reads, and the idle clock is
   * 345 MHz (17 %); a pass that ended at 1275 MHz (62 %) took 1.8x its time (call S18-4). */
  double clk_max = clk_busy;
  uint32_t low_passes = 0;
  char clk_field[32 * (TRACE_MAX_PASSES + 1)] = "na";
  for (uint32_t p = 0; p <= passes; p++)
    if (clk[p] > clk_max) clk_max = clk[p];
  if (!clock_ok) {
    printf("GPU clock:         not measured (%s)\n",
           clock_on ? "the device has no VK_KHR_shader_clock" : "--clock off");
  } else {
    size_t at = 0;
    printf("GPU clock:         ");
    for (uint32_t p = 0; p <= passes; p++) {
      printf("%s%.0f MHz %s %u", p ? ", " : "", clk[p], p ? "after pass" : "before pass", p ? p : 1);
      at += (size_t)snprintf(clk_field + at, sizeof clk_field - at, "%s%.0f", p ? "," : "", clk[p]);
    }
    /* a CPU implementation's readings carry the host's scheduling noise: no verdict */
    const bool cpu = caps->type == SPVGEN_DEVICE_CPU;
    const double low = TRACE_LOW_CLOCK * clk_max;
    for (uint32_t p = 0; p < passes && !cpu; p++) low_passes += clk[p] < low || clk[p + 1] < low;
    if (cpu) printf(" (a CPU device: the host's scheduling shows in these; no verdict)");
    else if (clk_busy > 0)
      printf("; %.0f MHz busy (%s)", clk_busy,
             warm_up ? "the reading after --warm-up" : "after the clock reference's warm-up");
    if (low_passes) {
      printf("; under %.0f %% of the %s at the start or end of pass", 100 * TRACE_LOW_CLOCK,
             clk_busy > 0 ? "busy clock" : "highest reading");
      for (uint32_t p = 0, k = 0; p < passes; p++)
        if (clk[p] < low || clk[p + 1] < low) printf("%s %u", k++ ? "," : "", p + 1);
      printf(": its calls ran at least partly at a fraction of the busy clock (docs/runner.md, \"GPU clocks\")");
    }
    printf("\n");
    if (clock_error[0]) printf("                   (a reading failed: %s)\n", clock_error);
  }
  /* Slow calls: a call that ran more than 2x the best time of its kernel on the same call
   * (another pass, or a call of the same desc): the GPU's clock still coming up from idle
   * (docs/runner.md, "GPU clocks"). */
  count_slow(samples, (uint64_t)n * passes, pass_slow, pass_compared);
  uint64_t slow_total = 0, compared_total = 0;
  for (uint32_t p = 0; p < passes; p++) slow_total += pass_slow[p], compared_total += pass_compared[p];
  if (!compared_total) {
    if (passes == 1) printf("slow calls:        not measured (one pass, no call's desc repeated; --passes 2 compares)\n");
    else printf("slow calls:        not measured (no call ran the same kernel twice)\n");
  } else {
    /* "pass 1: 7 of 40 ran at ... (why); pass 2: 0 of 40": the reason after the first
     * pass with slow calls */
    printf("slow calls:        %s", slow_total ? "" : "none: ");
    bool said = false;
    for (uint32_t p = 0; p < passes; p++) {
      printf("%spass %u: %u of %u", p ? "; " : "", p + 1, pass_slow[p], pass_compared[p]);
      if (pass_slow[p] && !said) {
        printf(" ran at more than %.0fx their best time (the same call and kernel in any pass) and %.2f ms over it "
               "(on the H100 and H200 the usual cause is the GPU clock still ramping up from idle: docs/runner.md, "
               "\"GPU clocks\"; on lavapipe, its compile at a kernel's first dispatch)",
               TRACE_SLOW_RATIO, TRACE_SLOW_FLOOR_NS / 1e6);
        said = true;
      }
    }
    if (!said) printf(" ran at more than %.0fx their best time (the same call and kernel in any pass)", TRACE_SLOW_RATIO);
    printf("\n");
  }
  double best_gpu = pass_gpu[0];
  for (uint32_t p = 1; p < passes; p++)
    if (pass_gpu[p] < best_gpu) best_gpu = pass_gpu[p];
  char slow_field[24];
  if (compared_total) snprintf(slow_field, sizeof slow_field, "%llu", (unsigned long long)slow_total);
  else snprintf(slow_field, sizeof slow_field, "na");
  printf("summary calls=%d shapes=%s pipelines=%llu hits=%llu compile_ms=%.1f gpu_ms=%.3f wall_ms=%.1f cold=%d "
         "disk_cache_bytes_read=%llu reuse=%s reused=%llu tiered=%d background_plans=%u background_compile_ms=%.1f "
         "quick_calls=%llu passes=%u last_pass_gpu_ms=%.3f last_pass_wall_ms=%.1f best_pass_gpu_ms=%.3f "
         "slow_calls=%s cached_plans=%u clock_mhz=%s busy_clock_mhz=%.0f low_clock_passes=%u prefetch=%u "
         "prefetched=%u prefetch_pipelines=%u prefetch_compile_ms=%.1f prefetch_wait_ms=%.1f ahead_calls=%llu "
         "prefetch_unused=%u\n",
         n, runtime ? "runtime" : "fixed", (unsigned long long)compiled, (unsigned long long)reused, compile_ms, gpu_ms,
         wall, cold ? 1 : 0, (unsigned long long)cs0.disk_bytes_read, tp.reuse ? "on" : "off",
         (unsigned long long)stood_in, tiered ? 1 : 0, s.tier_count, tier_ms, (unsigned long long)quick_calls, passes,
         pass_gpu[passes - 1], pass_wall[passes - 1], best_gpu, slow_field, s.cached_plans, clk_field, clk_busy, low_passes,
         prefetch, s.pf_family, s.pf_kernels, pf_ms, s.pf_wait_ms, (unsigned long long)ahead_calls, pf_unused);
  rc = bad_total ? 1 : 0;
done:
  free(ha);
  free(hb);
  for (uint32_t j = 0; j < s.tier_count; j++)
    for (uint32_t c = 0; c < tiers[j].count; c++) spvgen_vk_compile_cancel(tiers[j].compiles[c]);
  for (uint32_t j = 0; j < s.stray_count; j++) spvgen_vk_compile_cancel(s.stray[j]);
  for (uint32_t j = 0; j < s.pf_count; j++)
    for (uint32_t c = 0; c < pf[j].count; c++) spvgen_vk_compile_cancel(pf[j].compiles[c]);
  spvgen_vk_destroy(ctx); /* the buffers with it */
  free(tiers);
  free(pf);
  free(tp.weights);
  free(calls);
  free(tp.held);
  free(samples);
  free(pass_gpu);
  free(pass_wall);
  free(pass_slow);
  free(pass_compared);
  free(pass_compiled);
  free(pass_quick);
  free(shape_of);
  if (cold) rm_tree(tmp_dir);
  return rc;
}
