/* tools/common/template_run.h — the one run-and-check lifecycle of every template of the
 * table (lib/template/template.h): plan, emit (timed), the template's random inputs
 * (run_data), upload, warm-up, timed dispatches, download, the template's float64
 * reference and every-element check (run_check). gemm_run, mlp_run and `spvgen run NAME`
 * are this with their template's options and result. Not part of the library. */
#ifndef SPVGEN_TOOLS_TEMPLATE_RUN_H
#define SPVGEN_TOOLS_TEMPLATE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/vk.h"
#include "template.h"

typedef struct template_run_options {
  sg_run_request request; /* seed, problem size, period, the template's run-time arguments */
  uint32_t warmup;        /* dispatches before the timed ones, in each submission */
  uint32_t warmup_ms;     /* and first a sustained warm-up this long (warm_up.h; 0: none) */
  uint32_t warmup_limit_ms; /* its time limit (warm_up_run_limit; 0: its default) */
  uint32_t repeats;       /* timed runs of the plan per submission (a run: its kernels'
                             dispatches, timed as one step); 0: 1 */
  uint32_t rounds;        /* timed submissions, the best median counts; 0: 1 */
  double stable_pct;      /* instead: submissions until two in a row have medians within
                             stable_pct percent (at most 8; the smaller counts) */
  uint32_t round_ms;      /* with warmup_ms: as many repeats as fill about round_ms of GPU
                             time (at least `repeats`, at most TEMPLATE_RUN_MAX_REPEATS) */
  uint64_t sample;        /* 0: check every element; else about this many (run_check's) */
  bool no_check;          /* timing only */
  bool recheck;           /* after the timed runs, NaN-fill the outputs and dispatch once
                             more in a submission of its own: the check reads that */
  bool statistics;        /* fill stats (spvgen_vk_pipeline_statistics) */
  bool glsl450_memory_model; /* emit into a GLSL450-memory-model module */
  uint32_t emit_ms;       /* how long emit + finish is repeated to time it; 0: 20 */
  /* Called once run_data has filled the data (the template's accessors may read it:
   * GEMM's launch and shape); NULL: none. */
  void (*on_data)(const sg_run_data *data, void *user);
  void *user;
} template_run_options;

#define TEMPLATE_RUN_MAX_REPEATS 2000u

typedef struct template_run_result {
  sg_check check;                 /* the verdict: check.bad == 0 */
  double median_ns, min_ns;       /* per run of the plan (0 without timestamps): its kernels'
                                     dispatches from the first's start to the last's end.
                                     With the environment's SPVGEN_TIME_KERNEL=<name> ("pack",
                                     "main", "reduce": the names of `spvgen gemm --json`), the
                                     runs time that kernel of a plan of several alone, and
                                     say so on stderr (every tool that runs templates) */
  double worst_round_median_ns;   /* the slowest submission's median */
  double wall_ns;                 /* host wall time of the counted submission / dispatches */
  uint32_t repeats, rounds;       /* dispatches per submission, and submissions timed */
  bool stable;                    /* stable_pct: two medians agreed */
  double warmup_ms;               /* how long the sustained warm-up ran */
  bool warmup_steady;             /* false: it hit its time limit with timings still moving */
  double clock_mhz;               /* the shader clock right after the timed submissions
                                     (spvgen_vk_measure_clock), with warmup_ms on a GPU with
                                     VK_KHR_shader_clock; 0: not read */
  double tflops;                  /* run_data's flops / median */
  double items_per_s;             /* run_data's items / median */
  double emit_us;                 /* (plan +) emit + finish of every kernel on one core, averaged */
  double pipeline_ms;             /* spvgen_vk_pipeline_create (the driver's compile), every
                                     kernel's */
  bool first_compile;             /* the first compile of these words in this process (every
                                     kernel's) */
  size_t words;                   /* the modules' size */
  uint32_t kernels;               /* the plan's kernels (GEMM split-K: 2) */
  double kernel_pipeline_ms[SG_RUN_MAX_KERNELS]; /* each one's compile */
  size_t kernel_words[SG_RUN_MAX_KERNELS];       /* and size */
  /* statistics: the driver's pipeline statistics of the first kernel on one line ("Register Count=232 ...":
   * those about registers, spills, memory, occupancy and instructions, else the first
   * few) or "unavailable: <why>". */
  char stats[512];
  char first_bad_where[128];      /* the first bad element in the template's words
                                     (run_where: "row 3, column 4, batch 0") */
} template_run_result;

/* A plan's modules (one per kernel: GEMM split-K has two), emitted and timed, and (once
 * the first run has its specialization constants) their pipelines: runs of several data
 * sets share them. */
typedef struct template_built template_built;

/* Plans desc (t->plan; desc NULL: plan is already made, and the emit timing leaves the
 * planner out) for ctx's device and emits it; res gets emit_us and words. */
spvgen_status template_build(spvgen_vk_context *ctx, const sg_template *t, const void *desc, const void *plan,
                             const template_run_options *opt, template_built **out, template_run_result *res,
                             char *msg, size_t size);
/* The plan the build emitted (t->plan_size bytes). */
const void *template_built_plan(const template_built *b);
/* One data set through the build: run_data, upload, the pipelines (created on the first
 * run, timed into res), warm-up, timed runs, download, run_check. res's build figures
 * (emit_us, words) are kept; the rest is this run's. SPVGEN_OK: it ran; the verdict is
 * res->check.bad == 0. */
spvgen_status template_run_built(template_built *b, const template_run_options *opt, template_run_result *res,
                                 char *msg, size_t size);
void template_built_free(template_built *b);

/* build + run + free; plan (optional, t->plan_size bytes) gets the plan. */
spvgen_status template_run(spvgen_vk_context *ctx, const sg_template *t, const void *desc,
                           const template_run_options *opt, void *plan, template_run_result *res, char *msg,
                           size_t size);
/* The same for a plan made by the caller. */
spvgen_status template_run_plan(spvgen_vk_context *ctx, const sg_template *t, const void *plan,
                                const template_run_options *opt, template_run_result *res, char *msg, size_t size);

/* Whether these words were compiled in this process before (template_compiled_now
 * records a compile): the driver and the runner's pipeline cache make a second compile
 * cheaper, which is not what a framework's first call costs. */
bool template_compiled_before(const uint32_t *words, size_t count);

/* The threads a plan of `kernels` kernels compiles its pipelines on
 * (spvgen_vk_pipelines_create): the online CPUs, at most `kernels`; the environment's
 * SPVGEN_COMPILE_THREADS (1 or more) replaces the CPU count (1: one after another, as
 * before batches). */
uint32_t template_compile_threads(uint32_t kernels);
void template_compiled_now(const uint32_t *words, size_t count);

#endif
