/* tools/common/gemm_run.h — runs a GEMM desc on a device against a float64 CPU reference:
 * random inputs (never zeros), every output element (or a random sample of them for
 * large problems) compared with a tolerance that follows the precision, and GPU
 * timestamps (warm-up, repeats, median). One implementation for `spvgen run gemm`,
 * bench/gemm and the GEMM tests: the lifecycle of template_run.h with the GEMM's hooks
 * (emitters/gemm/gemm_template.c). Not part of the library. */
#ifndef SPVGEN_TOOLS_GEMM_RUN_H
#define SPVGEN_TOOLS_GEMM_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "spvgen/gemm.h"
#include "spvgen/vk.h"

typedef struct gemm_run_options {
  uint64_t seed;       /* 0: a fixed default */
  uint32_t warmup;     /* dispatches before timing; 0: none */
  uint32_t warmup_ms;  /* and keep the GPU busy this long first: GPUs drop to idle clocks
                          between short bursts (the H100 under Vulkan sat at 345 MHz
                          instead of 1980 between 20 ms runs), so timings of a steady
                          workload need a sustained warm-up; 0: none */
  uint32_t repeats;    /* timed dispatches (one submission); 0: 1 */
  uint32_t sample;     /* 0: check every element; else this many random elements */
  bool no_check;       /* skip the reference (timing only) */
  bool glsl450_memory_model; /* emit into a GLSL450-memory-model module (an experiment knob) */
  bool statistics;     /* fill res->stats (spvgen_vk_pipeline_statistics) */
  bool recheck;        /* after the runs, fill D (and the split-K workspace) with NaN again
                          and run the plan once more in a submission of its own: the
                          check reads that D */
  /* A RUNTIME desc (shapes runtime, or m = n = k = 0): the shape to run, with its leading
     dimensions, strides, alpha and beta (NULL: the desc's m, n, k, batch, tight) */
  const spvgen_gemm_args *args;
  /* Timing until steady: submissions of the repeats until two in a row have medians
     within stable_pct percent (at most 8; 0: the best of three) */
  double stable_pct;
  /* With a warm-up: as many repeats as fill about round_ms of GPU time (at least
     `repeats`, at most GEMM_RUN_MAX_REPEATS; 0: `repeats`) */
  uint32_t round_ms;
} gemm_run_options;

#define GEMM_RUN_MAX_REPEATS 2000u /* = TEMPLATE_RUN_MAX_REPEATS */

typedef struct gemm_run_result {
  spvgen_gemm_config plan;
  uint64_t checked, bad;  /* elements compared, and out of tolerance */
  double max_err;         /* largest |gpu - ref| */
  double max_err_tol;     /* the tolerance at that element */
  double worst_ratio;     /* max |gpu - ref| / tol over the elements */
  uint64_t first_bad_row, first_bad_col, first_bad_batch;
  double first_bad_gpu, first_bad_ref;
  double median_ns, min_ns;      /* per run of the plan (split-K: both kernels, from the
                                    partials' start to the reduction's end), 0 without
                                    timestamps: the best of three timed submissions of
                                    `repeats` runs (stable_pct: the smaller of the two that
                                    agreed) */
  uint32_t repeats, rounds;      /* dispatches per submission, and submissions timed */
  bool stable;                   /* stable_pct: two medians agreed */
  double worst_round_median_ns;  /* the slowest of the three submissions' medians */
  double wall_ns;                /* host wall time of the whole submission / dispatches */
  double warmup_ms;              /* how long the warm-up ran (warm_up.h) */
  bool warmup_steady;            /* false: it hit its time limit with timings still moving */
  double clock_mhz;              /* the shader clock right after the timing (0: not read) */
  double tflops;                 /* 2 M N K batch / median */
  spvgen_gemm_launch launch;     /* the grid and push constants the shape ran with */
  spvgen_gemm_desc shape;        /* the shape that ran, as a FIXED desc (the reference's) */
  double emit_us;                /* plan + emit + finish on the host */
  double pipeline_ms;            /* spvgen_vk_pipeline_create (the driver's compile; split-K:
                                    both kernels') */
  uint32_t kernels;              /* the plan's kernels: 2 for split-K (partials, reduction) */
  double kernel_pipeline_ms[3];  /* each kernel's compile, in dispatch order */
  bool first_compile;            /* the first compile of these words in this process */
  /* With options->statistics: the driver's pipeline statistics on one line, "Register
   * Count=232 Shared Memory Size=49152 ..." (those about registers, spills, local,
   * shared and stack memory, occupancy and instructions; else the first few), or
   * "unavailable: <why>". Not an error of the run. */
  char stats[512];
} gemm_run_result;

/* Plans desc for ctx's device, emits, runs and checks. SPVGEN_OK means it ran; the
 * check's verdict is res->bad == 0. On failure message says why (plan refusal, Vulkan
 * error, out of host memory). */
spvgen_status gemm_run(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc,
                       const gemm_run_options *options, gemm_run_result *res, char *message,
                       size_t message_size);

/* One pipeline for a RUNTIME desc, run and checked for each of `count` shapes (res[i]:
 * shape i; the plan, emit and pipeline figures are the one pipeline's). SPVGEN_OK means
 * every shape ran; the verdicts are the res[i].bad. */
spvgen_status gemm_run_shapes(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc,
                              const spvgen_gemm_args *shapes, uint32_t count,
                              const gemm_run_options *options, gemm_run_result *res,
                              char *message, size_t message_size);

/* Tiered compiles (spvgen/gemm.h): plan's kernels emitted and started compiling in the
 * background (spvgen_vk_pipeline_create_async), one per kernel in dispatch order: c[] and
 * *count get them. options (NULL: none) go with each request: {.cached_only = true} asks,
 * on threads of their own, whether the driver has them without a compile (the tier's
 * question; gemm_finish_background gives the answer). On failure none is left running and
 * message says why. */
spvgen_status gemm_compile_in_background(spvgen_vk_context *ctx, const spvgen_gemm_config *plan,
                                         const spvgen_vk_pipeline_options *options,
                                         spvgen_vk_compile *c[SPVGEN_GEMM_KERNEL_COUNT], uint32_t *count,
                                         char *message, size_t message_size);
/* Finishes the count compiles of c[] (waiting for those still running): SPVGEN_OK with p[]
 * the pipelines when all succeeded; else the first failure's status (SPVGEN_ERROR_NOT_CACHED
 * for a cached-only request the driver would compile), message saying why, and no
 * pipeline kept. ms (optional) gets the sum of the driver's times on their threads. The
 * compiles are freed either way and c[] cleared. */
spvgen_status gemm_finish_background(spvgen_vk_context *ctx, spvgen_vk_compile *c[SPVGEN_GEMM_KERNEL_COUNT],
                                     uint32_t count, spvgen_vk_pipeline *p[SPVGEN_GEMM_KERNEL_COUNT], double *ms,
                                     char *message, size_t message_size);
/* The cached-only question for count plans at once (a framework's families, or any plans
 * it is about to compile): every plan's kernels are asked for with {.cached_only = true},
 * all started before any answer is waited for, so the answers overlap. found[j] is true
 * where plan j needed no compile: its pipelines are then in the kernel cache (a later create
 * of the same words finds them). SPVGEN_OK unless an ask failed for another reason than
 * SPVGEN_ERROR_NOT_CACHED (message: the first such reason); nothing is left running. */
spvgen_status gemm_ask_cached(spvgen_vk_context *ctx, const spvgen_gemm_config *plans, uint32_t count, bool *found,
                              char *message, size_t message_size);
/* A tier's start, as a framework's first call of a plan makes it: quick's kernels start
 * compiling in the background (qc[], *nq: still running, the caller's to finish or
 * cancel), and beside them a cached-only create asks whether plan's own kernels need a
 * compile at all, so a first call waits for the longer of the two at most.
 * - SPVGEN_OK: found; p[] gets the plan's pipelines (the quick form's compiles still run).
 * - SPVGEN_ERROR_NOT_CACHED: the driver would compile the plan; the quick form's compiles
 *   run, and the first call waits for them.
 * - Anything else: failed, message says why, nothing left running.
 * *ask_ms (optional) gets the answer's wall time (a refusal has no compile time of its own). */
spvgen_status gemm_tier_ask(spvgen_vk_context *ctx, const spvgen_gemm_config *plan, const spvgen_gemm_config *quick,
                            spvgen_vk_compile *qc[SPVGEN_GEMM_KERNEL_COUNT], uint32_t *nq,
                            spvgen_vk_pipeline *p[SPVGEN_GEMM_KERNEL_COUNT], double *ask_ms, char *message,
                            size_t message_size);

#endif
