/* lib/tune/tune_internal.h — what the tuner's files share: the cache file format, the
 * compiled-in table and the template table of the tuner. */
#ifndef SPVGEN_TUNE_INTERNAL_H
#define SPVGEN_TUNE_INTERNAL_H

#include <stdarg.h>

#include "spvgen/tune.h"
#include "spvgen/vk.h"

/* The file format (docs/tune.md):
 *   line 1     "spvgen-tune-cache 1"
 *   # ...      comments, and empty lines: ignored
 *   entries    KEY <tab> VALUE <tab> crc=XXXXXXXX
 * VALUE: "variant=V tile=MxNxK wg=W sg=S stages=T unroll=U ns=F at=MxNxKxB"; the CRC-32
 * (zlib's) is of "KEY<tab>VALUE" in 8 lowercase hex digits. */
#define TUNE_MAGIC "spvgen-tune-cache"
#define TUNE_VERSION 1
#define TUNE_MAX_LINE 1024                 /* bytes, newline included */
#define TUNE_MAX_FILE (16u * 1024u * 1024u) /* a larger file is not read (about 80,000
                                              entries; reading is linear in the size) */
#define TUNE_MAX_NS 1e15                    /* ns: a larger figure (11 days) is refused */

/* CRC-32 (IEEE 802.3, as zlib.crc32) of n bytes. */
uint32_t tune_crc32(const void *data, size_t n);

/* Formats an entry as a line without the newline ("KEY\tVALUE\tcrc=..."). false (and a
 * message) when it cannot be written: bad key or knobs, or the line would be too long. */
bool tune_format_line(const spvgen_tune_entry *e, char *line, size_t size, char *msg, size_t msize);

/* Parses one line (without its newline). false with the reason in why. */
bool tune_parse_line(const char *line, size_t len, spvgen_tune_entry *e, char *why, size_t why_size);

/* Opens a cache whose compiled-in layer is lines[0 .. count-1] (entry lines in the file
 * format) instead of the library's table: spvgen_tune_cache_open is this with the
 * library's table. For tests. */
spvgen_status tune_cache_open_with_builtin(const char *path, const char *const *lines, size_t count,
                                           spvgen_tune_cache **out, char *msg, size_t size);

/* The table compiled into the library (generated from lib/tune/builtin.txt by
 * tools/gen_tune_builtin.py). */
extern const char *const tune_builtin_lines[];
extern const size_t tune_builtin_count;

/* snprintf / strtod in the C locale whatever the application's setlocale (a comma-
 * decimal locale would write "ns=4801708,5" and read "0.01" as 0): the file format and
 * the keys are the same in every process. uselocale() on a "C" locale object made once;
 * thread-safe (uselocale is per thread). */
int tune_snprintf_c(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
double tune_strtod_c(const char *s, char **end);

/* snprintf into msg when msg is not NULL. */
void tune_msg(char *msg, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;


/* ------------------------------------------------------------------ tuner ---- */
/* A template as the tuner sees it: candidates, emit + run one, check its output. The
 * generic loop (tune.c: warm-up, timing, outlier rejection, budget, progress, result
 * table) calls these; tune_shared_loop's set (tune.c) serves every template with run
 * hooks and run_bind, so a template's tuner is its key, its cached plan and a
 * spvgen_tune_<template> entry point (tune_gemm.c, tune_mlp.c). The tests give their
 * own sets. */
/* The most dispatches one run of a candidate takes (GEMM split-K: 2). */
#define TUNE_MAX_KERNELS 2

typedef struct tune_ops {
  const char *name; /* the template: the key's first word */
  /* Builds candidate i (emit, pipelines) and fills the dispatches that run it once
   * (*count of them, at most TUNE_MAX_KERNELS: a plan's kernels in order, timed as one
   * step). */
  spvgen_status (*build)(void *state, uint32_t i, spvgen_vk_dispatch_desc *dispatches, uint32_t *count, char *msg,
                         size_t size);
  /* Before a candidate runs: poison the output (an element the kernel misses fails). */
  spvgen_status (*poison)(void *state, char *msg, size_t size);
  /* After it ran: compare its output; *bad elements out of tolerance of *checked. A
   * candidate that passes may become the reference for the next ones. */
  spvgen_status (*check)(void *state, uint32_t i, uint64_t *checked, uint64_t *bad, char *msg, size_t size);
  /* Frees what build made. */
  void (*release)(void *state, uint32_t i);
} tune_ops;

/* Runs result->candidates[0 .. count-1] (filled by the caller: names, knobs,
 * is_default, default_index; the default first) and fills the rest of result. SPVGEN_OK
 * when one was timed. */
spvgen_status tune_loop(spvgen_vk_context *ctx, const tune_ops *ops, void *state, const spvgen_tune_options *opt,
                        spvgen_tune_result *res, char *msg, size_t size);

/* Median of the samples after dropping those further than 4 MADs from the median (the
 * MAD floored at 0.5% of the median); sorts ns. */
double tune_robust_median(uint64_t *ns, uint32_t n, uint32_t *kept, uint32_t *rejected, double *min_ns);

double tune_now_seconds(void);

/* The device part of a cache key, "VENDOR:DEVICE:DRIVER:NAME" with the name
 * percent-encoded, into out (size bytes: 256 is enough). */
void tune_device_field(const spvgen_device_caps *caps, char *out, size_t size);

/* ------------------------------------------------------ candidates, store ---- */
struct sg_template;

/* The candidates of desc for template t (lib/template/template.h): def (t's plan of desc)
 * first, then every other plan of t->plans that t->candidate accepts, at most
 * SPVGEN_TUNE_MAX_CANDIDATES; fills res's offered, count, default_index and each
 * candidate's name, knobs and is_default. *plans (malloc'd, res->count plans of
 * t->plan_size bytes) is the caller's. `who` names the caller in messages. */
spvgen_status tune_candidates(const struct sg_template *t, const char *who, const void *desc,
                              const spvgen_device_caps *caps, const void *def, void **plans,
                              spvgen_tune_result *res, char *msg, size_t size);

/* Candidate plan's pipeline of kernel `which`: emits it (template t) into mod (reset
 * first), reflects the words and creates *pipe with the specialization constants
 * spec[0 .. nspec-1]. */
spvgen_status tune_pipeline(spvgen_vk_context *ctx, spvgen_module *mod, const struct sg_template *t, const void *plan,
                            uint32_t which, const spvgen_spec_constant *spec, uint32_t nspec, spvgen_vk_pipeline **pipe,
                            char *msg, size_t size);

/* The candidates (res->count plans of template t, the default first, as tune_candidates
 * made them) over one data set (t->run_data of the default plan with all of them in the
 * request, `points` its size; t->run_bind each in turn), each checked by t->run_check:
 * every element when the problem's multiply-adds (the data's flops / 2) fit
 * opt->full_check_macs, else `sample` of them (the template's unit: GEMM elements, MLP
 * points) and t->run_compare against the first candidate that passed. Then tune_loop.
 * `who` names the caller in setup messages. */
spvgen_status tune_shared_loop(spvgen_vk_context *ctx, const struct sg_template *t, const char *who, const void *plans,
                               uint64_t points, uint64_t sample, const spvgen_tune_options *opt,
                               spvgen_tune_result *res, char *msg, size_t size);

/* Stores the winner of res in opt->cache (when opt has one and res a key): *e (its
 * problem fields, and compile_ms where the template records it, filled by the caller)
 * gets the key, the best candidate's knobs and median; res->stored says whether it was
 * stored. */
void tune_store(const spvgen_tune_options *opt, spvgen_tune_result *res, spvgen_tune_entry *e, char *msg,
                size_t size);

#endif
