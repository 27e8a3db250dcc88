/* spvgen/tune.h — the autotuner and its persistent per-device cache.
 *
 *   spvgen_tune_gemm(ctx, desc, options, &result, msg, size)
 *       times every candidate plan of spvgen_gemm_plans on the context's device (GPU
 *       timestamps; a sustained warm-up, warm-up dispatches, repeats, the median after
 *       outliers are rejected), checks each candidate's output on random data before its
 *       time counts, and returns the fastest correct plan with the whole candidate table.
 *       With options->cache it also stores the winner there.
 *
 *   spvgen_tune_cache_open / lookup / store / save / close
 *       the cache: the best knobs per (device, template, types, layouts, shape class),
 *       in a text file (default ${XDG_CACHE_HOME:-$HOME/.cache}/spvgen/tune-v1.txt),
 *       plus a table of tuned entries compiled into the library for known devices.
 *       Saving is atomic (a temporary file in the same directory, then rename) and safe
 *       with several processes (the file is re-read and merged under a lock).
 *
 *   spvgen_gemm_plan_cached(desc, caps, cache, &plan, msg, size)
 *       spvgen_gemm_plan that takes the cache's knobs for the problem when it has them.
 *
 *   spvgen_tune_mlp / spvgen_tune_mlp_key / spvgen_mlp_plan_cached
 *       the same for the fused MLP template (spvgen/mlp.h), per number of points.
 *
 * A corrupt, truncated, foreign or newer cache file is never trusted and never a crash:
 * what cannot be read is ignored and the message says so. Nothing here prints or exits.
 * docs/tune.md describes the key, the file format and how defaults are shipped. */
#ifndef SPVGEN_TUNE_H
#define SPVGEN_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spvgen/caps.h"
#include "spvgen/gemm.h"
#include "spvgen/mlp.h"
#include "spvgen/status.h"
#include "spvgen/vk.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

/* ------------------------------------------------------------------ knobs ---- */
/* What a tuned entry sets: the knobs every template with a tiled workgroup has.
 * The MLP template (spvgen_tune_mlp) uses variant ("vec", "mat", "loop"),
 * workgroup_size, and tile_m for its points_per_group; its other fields are 0. */
typedef struct spvgen_tune_knobs {
  char variant[16]; /* the template's variant name ("coopmat2", "khr", "simt") */
  uint32_t tile_m, tile_n, tile_k;
  uint32_t workgroup_size, subgroups, stages, unroll;
  uint32_t split_k; /* GEMM split-K slices; 0 (or 1): not split. In a cache line as
                       " split_k=N" after unroll, only when N > 1 */
} spvgen_tune_knobs;

/* ------------------------------------------------------------------ cache ---- */
typedef struct spvgen_tune_cache spvgen_tune_cache;

#define SPVGEN_TUNE_KEY_SIZE 512

typedef enum spvgen_tune_origin {
  SPVGEN_TUNE_ORIGIN_NONE = 0,
  SPVGEN_TUNE_ORIGIN_FILE = 1,    /* the cache file, or stored since it was opened */
  SPVGEN_TUNE_ORIGIN_BUILTIN = 2, /* the table compiled into the library */
} spvgen_tune_origin;

/* One cache entry. key: spvgen_tune_gemm_key's string (template, device, types,
 * layouts, shape class) or spvgen_tune_mlp_key's. The figure: median GPU time of the
 * problem it was measured on (m, n, k, batch; an MLP entry: m = the number of points,
 * n = k = batch = 0), in nanoseconds. */
typedef struct spvgen_tune_entry {
  char key[SPVGEN_TUNE_KEY_SIZE];
  spvgen_tune_knobs knobs;
  double median_ns;
  uint32_t m, n, k, batch;
  spvgen_tune_origin origin; /* set by lookup and list; ignored by store */
  double compile_ms;         /* the plan's build (emit + the driver's compile) when it was
                                tuned; 0: not recorded (entries written before it was) */
} spvgen_tune_entry;

/* The default cache file: $XDG_CACHE_HOME/spvgen/tune-v1.txt when XDG_CACHE_HOME is an
 * absolute path, else $HOME/.cache/spvgen/tune-v1.txt. SPVGEN_ERROR_IO when neither is
 * set, SPVGEN_ERROR_INVALID_ARGUMENT when it does not fit in size bytes. */
spvgen_status spvgen_tune_cache_default_path(char *path, size_t size);

/* Opens the cache at path (NULL: the default path) and reads it, with the compiled-in
 * entries beneath it (a file entry wins over a compiled-in one with the same key). A
 * missing file is an empty cache. A file that is not a tune cache, or from a newer
 * version, is ignored whole; a line that is truncated, too long, malformed or whose
 * checksum does not match is dropped. Either way the call succeeds and message (when not
 * NULL) says what was ignored and why; it is "" when everything was read. Fails only
 * for NULL out (SPVGEN_ERROR_INVALID_ARGUMENT), no default path (SPVGEN_ERROR_IO) or no
 * memory. The directory and the file are created by the first save, not here. */
spvgen_status spvgen_tune_cache_open(const char *path, spvgen_tune_cache **out, char *message,
                                     size_t message_size);

/* Writes the entries stored since the last open or save into the file: under a lock
 * (path + ".lock"), the file is read again, merged (a key stored here replaces the
 * file's; the other keys of the file, stored meanwhile by other processes, are kept and
 * become visible here), written to a temporary file in the same directory and renamed
 * over it. Creates missing directories. SPVGEN_ERROR_IO with a message when the file
 * cannot be written, is not a regular file this process can read and write (a device
 * node, a directory, a read-only file are never replaced; a symlink is followed to its
 * file, whose mode and owner are kept), or is not a tune cache of this version (it is
 * never overwritten then). Numbers are written in the C locale whatever setlocale says.
 * Nothing to write is SPVGEN_OK without touching the file. */
spvgen_status spvgen_tune_cache_save(spvgen_tune_cache *cache, char *message,
                                     size_t message_size);

/* Frees the cache without saving. NULL is fine. */
void spvgen_tune_cache_close(spvgen_tune_cache *cache);

/* The file the cache reads and saves. */
const char *spvgen_tune_cache_path(const spvgen_tune_cache *cache);

/* The entry for key (a file entry before a compiled-in one). false on a miss. */
bool spvgen_tune_cache_lookup(const spvgen_tune_cache *cache, const char *key,
                              spvgen_tune_entry *out);

/* Adds or replaces the entry with entry->key (kept in memory until save).
 * SPVGEN_ERROR_INVALID_ARGUMENT with a message when the key or the knobs cannot be
 * written in the file format (empty, too long, tabs or control characters, an unknown
 * template, a variant name with spaces). */
spvgen_status spvgen_tune_cache_store(spvgen_tune_cache *cache, const spvgen_tune_entry *entry,
                                      char *message, size_t message_size);

/* Entry i of 0 .. count-1: the file's (and stored) entries in key order, then the
 * compiled-in ones. false past the end. */
uint32_t spvgen_tune_cache_count(const spvgen_tune_cache *cache);
bool spvgen_tune_cache_entry(const spvgen_tune_cache *cache, uint32_t i, spvgen_tune_entry *out);

/* Writes the cache's file entries (not the compiled-in ones), those stored since open
 * included, to path in the cache file format (atomically: temporary file, fsync, rename).
 * *count (optional) gets the number written. What may be replaced, as for save: a
 * regular file this process can read and write (a symlink followed to its file; mode
 * and owner kept); a device node, directory, FIFO, read-only or other user's file, or an
 * existing file that is not a tune cache, is refused with SPVGEN_ERROR_IO and left
 * alone (docs/tune.md, "What a save or an export replaces"). */
spvgen_status spvgen_tune_cache_export(const spvgen_tune_cache *cache, const char *path,
                                       uint32_t *count, char *message, size_t message_size);

/* The same text export writes (the cache file format, file entries only), in memory:
 * *text (malloc'd, NUL-terminated; free with spvgen_tune_free_text) and *length bytes;
 * *count (optional) the entries in it. For writing a cache anywhere a file path does not
 * fit (`spvgen tune export -` writes it to standard output). */
spvgen_status spvgen_tune_cache_export_text(const spvgen_tune_cache *cache, char **text, size_t *length,
                                            uint32_t *count, char *message, size_t message_size);
void spvgen_tune_free_text(char *text);

/* Reads a file written by export (or a cache file) and stores each of its entries in
 * the cache (replacing those with the same key; save writes them). The file is checked
 * like open checks: bad lines are dropped and counted in message; a file that is not a
 * tune cache of this version imports nothing and fails with SPVGEN_ERROR_IO. *count
 * (optional) gets the number imported. */
spvgen_status spvgen_tune_cache_import(spvgen_tune_cache *cache, const char *path,
                                       uint32_t *count, char *message, size_t message_size);
/* The same from text in memory (the cache file format; at most 16 MiB), e.g. read from
 * standard input (`spvgen tune import -`). */
spvgen_status spvgen_tune_cache_import_text(spvgen_tune_cache *cache, const char *text, size_t length,
                                            uint32_t *count, char *message, size_t message_size);

/* ------------------------------------------------------------------- keys ---- */
/* The cache key of a GEMM on a device (caps NULL: the vulkan13 preset):
 *   gemm dev=VENDOR:DEVICE:DRIVER:NAME types=A,B,ACC,OUT layout=ABCD
 *        shape=M'xN'xK'xBATCH' align=M,N,K,LDA,LDB,LDC,LDD
 * where M' ... are the dimensions rounded up to a power of two, the alignments the
 * largest power of two (at most 16) dividing each value (C's "-" without beta), and the
 * layouts n (row-major) or t (column-major), C's "-" without beta; " addressing=
 * device-address" ends the key of a device-address desc. The device name is
 * percent-encoded. Fails like spvgen_gemm_plan for a desc it refuses outright (m 0 ...). */
spvgen_status spvgen_tune_gemm_key(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                   char *key, size_t key_size, char *message,
                                   size_t message_size);

/* spvgen_gemm_plan with the cache's knobs for this problem and device. On a hit the
 * knobs the desc leaves at 0 are set from the entry and the desc is planned again; if
 * that fails (the device changed, the entry conflicts with knobs the desc sets) the
 * heuristic plan is returned instead and message says why the entry was not used. A
 * miss (or cache NULL) is spvgen_gemm_plan. Returns what spvgen_gemm_plan returns; on
 * SPVGEN_OK message is "" unless an entry was rejected. */
spvgen_status spvgen_gemm_plan_cached(const spvgen_gemm_desc *desc, const spvgen_device_caps *caps,
                                      const spvgen_tune_cache *cache, spvgen_gemm_config *plan,
                                      char *message, size_t message_size);

/* The cache key of an MLP evaluated on `points` points (caps NULL: the vulkan13 preset):
 *   mlp dev=VENDOR:DEVICE:DRIVER:NAME net=E-H1-H2-...-O acts=A1,...,AL enc=ENC
 *       types=W,IN,OUT acc=f32|f16 bias=0|1 points=P'
 * E the encoded input width (the first layer's inputs), H the hidden widths, O the
 * output width, A the resolved activation of each layer (leaky_relu followed by its
 * slope, "leaky_relu:0.01"), ENC "none", "freq:F" or "oneblob:B", acc the accumulation
 * the desc asks for (f16_accumulation), P' the point count rounded up to a power of two
 * (then " weights=optimal" and " addressing=device-address" where the desc asks them).
 * The knobs (variant, workgroup_size, points_per_group) are not part of the key. Fails
 * like spvgen_mlp_plan for a desc it refuses outright (input_width 0 ...) and for
 * points 0. */
spvgen_status spvgen_tune_mlp_key(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                                  uint64_t points, char *key, size_t key_size, char *message,
                                  size_t message_size);

/* spvgen_mlp_plan with the cache's knobs for this network, device and point count
 * (unlike a GEMM desc, an MLP desc has no problem size: points is the number of points
 * the caller evaluates per dispatch). On a hit the knobs the desc leaves at 0 (variant
 * AUTO, workgroup_size, points_per_group) are set from the entry and the desc is planned
 * again; if that fails (the device changed, the entry conflicts with knobs the desc
 * sets) the heuristic plan is returned and message says why the entry was not used. A
 * miss (or cache NULL) is spvgen_mlp_plan. */
spvgen_status spvgen_mlp_plan_cached(const spvgen_mlp_desc *desc, const spvgen_device_caps *caps,
                                     uint64_t points, const spvgen_tune_cache *cache,
                                     spvgen_mlp_config *plan, char *message, size_t message_size);

/* ------------------------------------------------------------------ tuner ---- */
typedef enum spvgen_tune_candidate_status {
  SPVGEN_TUNE_NOT_RUN = 0,  /* the budget or max_candidates ran out before it */
  SPVGEN_TUNE_TIMED = 1,    /* ran, its output checked out, median_ns is its time */
  SPVGEN_TUNE_WRONG = 2,    /* ran, but its output disagreed with the reference */
  SPVGEN_TUNE_FAILED = 3,   /* could not be emitted, built or run (message says why) */
} spvgen_tune_candidate_status;

/* "not run", "timed", "wrong", "failed"; NULL for an unknown value. */
const char *spvgen_tune_candidate_status_name(spvgen_tune_candidate_status status);

typedef struct spvgen_tune_candidate {
  char name[96];          /* the plan's name */
  spvgen_tune_knobs knobs;
  spvgen_tune_candidate_status status;
  bool is_default;        /* the template's heuristic choice for this problem */
  double median_ns;       /* median of the kept samples (TIMED; else 0): the best of three
                             timed submissions */
  double min_ns;
  uint32_t samples, rejected; /* timed dispatches kept, and dropped as outliers */
  uint64_t checked, bad;  /* output elements compared, and out of tolerance */
  char message[160];      /* FAILED / WRONG: why */
  double compile_ms;      /* building it: emit + spvgen_vk_pipeline_create (the driver's
                             compile; a cold figure only with an empty driver cache) */
} spvgen_tune_candidate;

#define SPVGEN_TUNE_MAX_CANDIDATES 128

/* A candidate replaces the heuristic default only when its median is below
 * default / (1 + SPVGEN_TUNE_MARGIN): smaller differences are run-to-run noise. */
#define SPVGEN_TUNE_MARGIN 0.05

/* Progress, reported after each candidate. best is NULL until one is timed. */
typedef struct spvgen_tune_progress {
  uint32_t done, total;
  const spvgen_tune_candidate *current; /* the one just finished */
  const spvgen_tune_candidate *best;
  double elapsed_seconds;
} spvgen_tune_progress;

typedef void (*spvgen_tune_progress_fn)(const spvgen_tune_progress *progress, void *user);

/* Zero-initialized: the defaults in the comments. */
typedef struct spvgen_tune_options {
  double budget_seconds;   /* wall time for the whole tuning; 0: 120 s. The heuristic
                              plan always runs; the candidates left when it is spent are
                              NOT_RUN */
  uint32_t max_candidates; /* 0: all (at most SPVGEN_TUNE_MAX_CANDIDATES) */
  uint32_t warmup;         /* untimed dispatches before each candidate's timed ones, in the
                              same submission; 0: 3 */
  uint32_t warmup_ms;      /* sustained warm-up before each candidate, at least this long
                              and until steady (spvgen_vk_warm_up): GPUs idle at low
                              clocks between short bursts and take up to 400 ms of
                              work to leave them; 0: 500 ms */
  uint32_t warmup_limit_ms; /* the warm-up's time limit, steady or not (spvgen_vk_warm_up's
                              limit_ms; 0: its default, max(4 warmup_ms, 2000 ms)) */
  uint32_t repeats;        /* timed dispatches per candidate; 0: 15 */
  uint64_t seed;           /* random inputs; 0: a fixed default */
  /* Problems up to this many multiply-adds (m n k batch) are checked against a float64
   * CPU reference on every element; larger ones on a sample of 1024 elements (plus
   * every element against the reference candidate's output); 0: 2^26. */
  uint64_t full_check_macs;
  spvgen_tune_cache *cache; /* optional: the winner is stored there (not saved) */
  spvgen_tune_progress_fn progress;
  void *progress_user;
} spvgen_tune_options;

typedef struct spvgen_tune_result {
  spvgen_gemm_config plan;   /* spvgen_tune_gemm: the winner's plan */
  spvgen_mlp_config mlp_plan; /* spvgen_tune_mlp: the winner's plan (plan is zero then;
                                 after spvgen_tune_gemm this one is) */
  uint32_t best;             /* index of the winner in candidates: the fastest, unless
                                the default (timed) is within 5 % of it, then the default
                                (a smaller difference is within run-to-run noise) */
  uint32_t default_index;    /* index of the heuristic plan in candidates */
  double best_ns, default_ns;
  uint32_t count;            /* candidates in the table */
  uint32_t offered;          /* candidates the template offered (count may be fewer) */
  uint32_t timed, wrong, failed, not_run;
  double seconds;            /* wall time of the tuning */
  char key[SPVGEN_TUNE_KEY_SIZE]; /* the cache key of the problem */
  bool stored;               /* the winner went into options->cache */
  spvgen_tune_candidate candidates[SPVGEN_TUNE_MAX_CANDIDATES];
} spvgen_tune_result;

/* Tunes desc on ctx's device (knobs the desc sets stay fixed; the rest are tuned). The
 * heuristic plan (spvgen_gemm_plan) is always a candidate and runs first (whatever the
 * budget), then the other plans of spvgen_gemm_plans in their order. Every candidate
 * runs on the same random operands and its output is checked before its time counts:
 * against a float64 CPU reference on every element for problems up to
 * full_check_macs, else on a sample of elements plus every element against the output
 * of the first candidate that passed (with tolerances that follow the precision). A
 * candidate that fails the check is WRONG and never chosen. Returns SPVGEN_OK when at
 * least one candidate was timed (result->best; message may then hold a note, e.g. why
 * the winner could not be stored), else the first failure's status with a message (no
 * plan, every output wrong, a Vulkan error). result is large (~45 KiB): allocate it. */
spvgen_status spvgen_tune_gemm(spvgen_vk_context *ctx, const spvgen_gemm_desc *desc,
                               const spvgen_tune_options *options, spvgen_tune_result *result,
                               char *message, size_t message_size);

/* Tunes an MLP evaluated on `points` points (0: 65536) on ctx's device: the heuristic
 * plan (spvgen_mlp_plan) first, whatever the budget, then the other plans of
 * spvgen_mlp_plans (knobs the desc sets stay fixed; a plan whose f16_accumulation differs
 * from the desc's is not a candidate: the accumulation is a precision choice, not a
 * knob). Every candidate runs on the same random weights and points (tools/common/
 * mlp_run.h's data) and its output is checked before its time counts: on a sample of
 * points (every point when points * flops_per_point / 2 <= full_check_macs) against the
 * float64 CPU reference with the bound of the candidate's arithmetic, and, with a
 * sample, every output component against the output of the first candidate that passed
 * (within twice the largest sum of the two candidates' bounds on the sample). Options,
 * result and returns as spvgen_tune_gemm; result->mlp_plan is the winner, result->key
 * spvgen_tune_mlp_key's. */
spvgen_status spvgen_tune_mlp(spvgen_vk_context *ctx, const spvgen_mlp_desc *desc, uint64_t points,
                              const spvgen_tune_options *options, spvgen_tune_result *result,
                              char *message, size_t message_size);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
