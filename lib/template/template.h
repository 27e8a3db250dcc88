/* lib/template/template.h — the kernel templates as the tools above the library see them
 * (the tuner, tools/common, bench/, the CLI, the tests): the table of templates, the
 * MLP's device data and the strict number parsers every command and benchmark shares.
 * Internal to spvgen (tests/scripts/check_includes.py lists who may include this). */
#ifndef SPVGEN_TEMPLATE_H
#define SPVGEN_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json_out.h"
#include "spvgen/caps.h"
#include "spvgen/gemm.h"
#include "spvgen/kernel.h"
#include "spvgen/mlp.h"
#include "spvgen/tune.h"
#include "spvgen/vk.h"

/* ----------------------------------------------------------- run and check ---- */
/* What a template's run hooks (sg_template.run_data / run_check) and the one lifecycle
 * above them share (tools/common/template_run.c: plan, emit, upload, dispatch, time,
 * download, check; the tuner). The template owns its data and its reference; the
 * lifecycle owns the device. */
#define SG_RUN_MAX_BUFFERS 8
#define SG_RUN_MAX_SPEC 32
#define SG_RUN_MAX_PUSH 128
#define SG_RUN_MAX_KERNELS 17 /* the MLP's layers variant: a GEMM per layer and its pad kernel */

typedef enum sg_run_role {
  SG_RUN_INPUT,   /* host uploaded once (host_bytes < bytes: repeated until the buffer is full) */
  SG_RUN_OUTPUT,  /* NaN-filled before the runs (an element the kernel never writes fails the
                     check), downloaded into host after them */
  SG_RUN_SCRATCH, /* the kernels' own working memory (the split-K workspace): filled with
                     NaN bits before the runs, as the outputs are (a kernel that read what
                     it had not written first would fail the check), never downloaded */
} sg_run_role;

typedef struct sg_run_buffer {
  sg_run_role role;
  void *host;          /* INPUT: the data; OUTPUT: bytes bytes the download lands in */
  uint64_t bytes;      /* the binding's size (created at least 4 bytes, a multiple of 4) */
  uint64_t host_bytes; /* INPUT: the host data's size (0: bytes) */
} sg_run_buffer;

/* One kernel's dispatch in a plan of several (sg_run_data.kernels). */
typedef struct sg_run_kernel {
  uint32_t buffers[SG_RUN_MAX_BUFFERS]; /* the data's buffers it binds, in its binding order */
  uint64_t offsets[SG_RUN_MAX_BUFFERS]; /* each binding's byte offset into its buffer (0: all) */
  uint32_t buffer_count;
  uint32_t groups[3];
  uint32_t push_size;                   /* bytes of the data's push it takes (0: none) */
  bool own_push;                        /* the push bytes are push below, not the data's */
  uint8_t push[SG_RUN_MAX_PUSH];
  /* 1 + the index of an earlier kernel whose words these are (the dispatch takes that
   * kernel's pipeline: one pipeline for both); 0: its own. */
  uint32_t same_as;
} sg_run_kernel;

/* What a run asks of the template's data. */
typedef struct sg_run_request {
  uint64_t seed;    /* 0: the template's fixed default */
  uint64_t size;    /* the problem size where the desc leaves it open (MLP: points;
                       elementwise: n); 0: the template's default */
  uint64_t period;  /* 0: every item drawn; else the host draws this many items and the
                       device buffer repeats them (the MLP's input_period) */
  const void *args; /* the template's run-time arguments (GEMM: the spvgen_gemm_args of a
                       RUNTIME desc); NULL: the desc's own */
  /* Shared data, many plans (the tuner): the data serves these plans too (plan_count
   * plans of the template's plan type, all of the same desc as run_data's plan), each
   * bound to it in turn by run_bind: buffers sized for the largest (GEMM: the split-K
   * workspace). NULL: run_data's plan only. */
  const void *plans;
  uint32_t plan_count;
} sg_run_request;

/* A run's data: filled by run_data, read by the lifecycle (bindings, grid, push and
 * specialization constants) and by run_check (state). */
typedef struct sg_run_data {
  sg_run_buffer buffers[SG_RUN_MAX_BUFFERS]; /* in binding order */
  uint32_t buffer_count;
  uint32_t bind_count;   /* the buffers the plan's dispatch binds, buffers[0 .. bind_count)
                            (0: all; run_bind sets it for a plan that binds fewer) */
  /* A plan of several kernels (sg_template.kernel_count > 1): kernel k's dispatch, in
   * order, with a compute-to-compute barrier between them, on the same push bytes (unless
   * a kernel has its own: the MLP's layers) and specialization constants; groups,
   * push_size and bind_count above are then unused. 0: the one dispatch above.
   * sg_run_dispatches builds either. */
  uint32_t kernel_count;
  sg_run_kernel kernels[SG_RUN_MAX_KERNELS];
  uint32_t buffer_flags; /* SPVGEN_VK_BUFFER_* of every buffer */
  uint32_t groups[3];
  uint8_t push[SG_RUN_MAX_PUSH];
  uint32_t push_size;
  spvgen_spec_constant spec[SG_RUN_MAX_SPEC];
  uint32_t spec_count;
  double flops;      /* per dispatch (0: no TFLOP/s) */
  uint64_t items;    /* what the throughput counts (GEMM: 0; MLP: points; elementwise: n) */
  void *state;       /* the template's: host data, the reference's inputs */
} sg_run_data;

/* The verdict of a check: every element compared with sg_check_element. */
typedef struct sg_check {
  uint64_t checked, bad;  /* elements compared, and out of tolerance (NaN is out) */
  double max_err;         /* largest |gpu - ref|, and the tolerance there */
  double max_err_tol;
  double worst_ratio;     /* max |gpu - ref| / tol */
  uint64_t first_bad;     /* the template's index of the first bad element */
  double first_bad_gpu, first_bad_ref, first_bad_tol;
} sg_check;

/* Compares one element: |gpu - ref| <= tol (a NaN fails), and updates c. (check.c) */
void sg_check_element(sg_check *c, uint64_t index, double gpu, double ref, double tol);

/* The words sg_run_poison fills outputs and scratch with: a NaN as f32, as both f16
 * halves and as bf16. */
#define SG_RUN_NAN_BITS 0x7FC07FC0u

/* The bytes of guard past an output's elements that the runners NaN-fill with it and
 * check with sg_check_guard (the MLP's output: a layers plan whose last layer ran on the
 * workspace's rounded rows would write there). */
#define SG_RUN_OUT_GUARD 4096u

/* A guard: `bytes` bytes that a run must leave as the NaN fill wrote them (SG_RUN_NAN_BITS,
 * little-endian; `offset` is the guard's byte offset in its buffer, the fill's phase),
 * e.g. a binding's tail past the elements a kernel may write. Each esize-byte element of
 * it that changed counts as bad (not as checked), indexed from `index` on: an index past
 * the real elements says that a kernel wrote past them. (check.c) */
void sg_check_guard(sg_check *c, const void *guard, uint64_t bytes, uint64_t offset, uint32_t esize, uint64_t index);

/* The device side of data (run_device.c), bufs[SG_RUN_MAX_BUFFERS] the caller's:
 * sg_run_upload creates the buffers, uploads the inputs (repeated over the buffer when
 * the host holds less) and poisons the rest; sg_run_poison NaN-fills the outputs and the
 * scratch again (before another plan's dispatch); sg_run_download downloads the outputs
 * into their host (outputs false: none); sg_run_destroy frees the buffers. The messages
 * name the Vulkan error. */
spvgen_status sg_run_upload(spvgen_vk_context *ctx, const sg_run_data *data, spvgen_vk_buffer **bufs, char *msg,
                            size_t size);
spvgen_status sg_run_poison(spvgen_vk_context *ctx, const sg_run_data *data, spvgen_vk_buffer **bufs, char *msg,
                            size_t size);
spvgen_status sg_run_download(spvgen_vk_context *ctx, const sg_run_data *data, spvgen_vk_buffer **bufs,
                              bool outputs, char *msg, size_t size);
void sg_run_destroy(const sg_run_data *data, spvgen_vk_buffer **bufs);

/* The dispatches of one run of data's plan into out[0 .. n) (n returned: kernel_count, or
 * 1): pipes[k] kernel k's pipeline, bufs the data's buffers, bound[k] the caller's room for
 * kernel k's buffer list (out[k].buffers points into it, so it must live as long as
 * out). */
uint32_t sg_run_dispatches(const sg_run_data *data, spvgen_vk_pipeline *const *pipes, spvgen_vk_buffer *const *bufs,
                           spvgen_vk_buffer *bound[SG_RUN_MAX_KERNELS][SG_RUN_MAX_BUFFERS],
                           spvgen_vk_dispatch_desc out[SG_RUN_MAX_KERNELS]);

/* ------------------------------------------------------------------ flags ---- */
/* A flag of a command: a template's problem flags (sg_template.flags: `spvgen NAME`,
 * `spvgen run/bench/tune NAME` all take them), or a command's own (its output, run, bench
 * or tune options). tools/spvgen/cmd_template.c parses argv against tables of them (also
 * "--flag=value") and prints them as usage lines. */
typedef struct sg_flag {
  const char *name;  /* "--op"; "" for a heading (help is the heading's line); NULL ends the table */
  const char *value; /* the value's placeholder in the usage ("add|mul|max"); NULL: a switch */
  const char *help;  /* the usage text ('\n' starts another line of it); NULL: not listed (a
                        sibling's line names it: "--lda/--ldb/--ldc/--ldd N") */
  /* Parses value (NULL for a switch) into target (the desc, or the command's options);
   * false with why, which the usage error prints after "NAME: " (sg_flag_bad writes
   * the usual "'VALUE' is not ..."). */
  bool (*parse)(void *target, const char *value, char *why, size_t size);
  /* parse NULL: the flag sets the bool (a switch) or the const char * (the value, as
   * given) at this offset in the target (SG_FLAG_SWITCH, SG_FLAG_TEXT). */
  size_t offset;
} sg_flag;
#define SG_FLAG_HEADING(TEXT) {"", NULL, TEXT, NULL, 0}
#define SG_FLAG_SWITCH(NAME, HELP, TYPE, FIELD) {NAME, NULL, HELP, NULL, offsetof(TYPE, FIELD)}
#define SG_FLAG_TEXT(NAME, VALUE, HELP, TYPE, FIELD) {NAME, VALUE, HELP, NULL, offsetof(TYPE, FIELD)}

/* Writes why as "'value' " then the formatted text; returns false (a parse's failure). */
bool sg_flag_bad(char *why, size_t size, const char *value, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A number flag's value into *out, within [min, max]: false with why "'V' is not a
 * number from MIN to MAX", or "'V' must be at least MIN" for a number below it. sg_flag_u64
 * takes "0x..." too when hex_ok. (args.c) */
bool sg_flag_u32(const char *value, uint32_t min, uint32_t max, uint32_t *out, char *why, size_t size);
bool sg_flag_u64(const char *value, bool hex_ok, uint64_t min, uint64_t max, uint64_t *out, char *why, size_t size);
/* The random seed flags share: any 64-bit number, decimal or 0x... */
bool sg_flag_seed(const char *value, uint64_t *out, char *why, size_t size);

/* ---------------------------------------------------------------- the table ---- */
/* Each template (GEMM, MLP, elementwise) fills one sg_template: its public functions
 * behind one signature, so what sits above the templates is written once and never asks
 * which template it has (the emit benchmark bench/emit_templates.c, the tuner's candidate
 * list lib/tune/tune.c). Descs and plans travel as `const void *` of the template's own
 * types (desc_size, plan_size bytes); only the template's operations look inside.
 *
 * A new template is a directory emitters/NAME/ (its emitter and public header) with
 * NAME_template.c holding its entry, and one line in sg_templates[] (table.c):
 * docs/architecture.md, "Adding a template", walks through it. */
typedef struct sg_template {
  const char *name;  /* "gemm": the tune key's first word, the benchmarks' row label */
  size_t desc_size, plan_size;

  /* ---- plan, plans, emit: the template's public functions ---- */
  spvgen_status (*plan)(const void *desc, const spvgen_device_caps *caps, void *plan, char *msg, size_t size);
  /* Every plan the device can run (max 0: *count gets how many). */
  spvgen_status (*plans)(const void *desc, const spvgen_device_caps *caps, void *plans, uint32_t max,
                         uint32_t *count, char *msg, size_t size);
  spvgen_status (*emit)(spvgen_module *m, const void *plan, spvgen_kernel_info *info);
  /* Plans of several kernels, dispatched in order with a compute-to-compute barrier
   * between them (GEMM split-K: the partials, then the reduction): how many the plan has
   * (NULL: 1), and kernel `which` of them (which 0 is emit's; NULL: emit only). */
  uint32_t (*kernel_count)(const void *plan);
  spvgen_status (*emit_kernel)(spvgen_module *m, const void *plan, uint32_t which, spvgen_kernel_info *info);
  /* Their names, sg_template_kernels_max of them ("main", "reduce"): the CLI writes
   * kernel k > 0 of `-o out.spv` to out.<name>.spv (NULL: "k1", ...). */
  const char *const *kernel_names;
  /* Kernel `which`'s name for a plan whose kernels differ by plan (GEMM: "pack", "main",
   * "reduce"); NULL: kernel_names. The kernel named "main" goes to the path itself. */
  const char *(*kernel_name)(const void *plan, uint32_t which);
  /* plan + emit + finish into a kernel the caller frees (spvgen_kernel_free). */
  spvgen_status (*kernel)(const void *desc, const spvgen_device_caps *caps, spvgen_kernel *k, char *msg, size_t size);

  /* ---- describe ---- */
  /* The plan in words ("khr f16,f16->f32 128x128x32 ..."), and its variant's name. */
  void (*plan_name)(const void *plan, char *buf, size_t size);
  const char *(*variant_name)(const void *plan);
  /* The plan's own members of the kernel metadata JSON, after the ones every template has
   * (sg_template_json writes both; NULL: none). caps: the device the plan was made for
   * (estimates that depend on it; NULL: the template's default device). */
  void (*describe)(const void *plan, const spvgen_device_caps *caps, sg_json *j);
  /* Example problems (for benchmarks and walkthroughs): writes up to max descs into
   * descs (desc_size bytes each) and the caps preset each targets; returns how many. */
  uint32_t (*examples)(void *descs, const char **presets, uint32_t max);
  /* Tuning (NULL: the template is not tuned): the knobs of a plan, and whether plan is
   * another candidate beside the default plan (not the same knobs, and a choice the tuner
   * may make: the MLP's accumulation is the desc's, not a knob). */
  void (*knobs)(const void *plan, spvgen_tune_knobs *knobs);
  /* The addressing model the plan's module is created with (NULL: Logical). */
  uint32_t (*addressing_model)(const void *plan);
  bool (*candidate)(const void *default_plan, const void *plan);

  /* ---- run and check (NULL run_data: not run by the generic lifecycle) ---- */
  /* Random inputs (never zeros) and the bindings, grid, push and specialization
   * constants of one dispatch of plan on ctx's device; *data is the template's until
   * run_free (called also after a failure). */
  spvgen_status (*run_data)(spvgen_vk_context *ctx, const void *plan, const sg_run_request *rq, sg_run_data *data,
                            char *msg, size_t size);
  /* After the outputs were downloaded: the float64 reference of every element (sample
   * 0) or of about `sample` of them, each compared (sg_check_element) with the tolerance
   * the precision warrants. */
  void (*run_check)(const void *plan, const sg_run_data *data, uint64_t sample, sg_check *check);
  /* Where element `index` of a check is, in words ("row 3, column 4, batch 0"). */
  void (*run_where)(const void *plan, const sg_run_data *data, uint64_t index, char *buf, size_t size);
  void (*run_free)(sg_run_data *data);
  /* Shared data, many plans: points data's dispatch (groups, push and specialization
   * constants, bind_count) at plan, one of the request's plans, over the same buffers
   * and host data (run_check then checks plan's output). NULL: the data is for one plan
   * only (the tuner does not take the template). */
  spvgen_status (*run_bind)(const void *plan, sg_run_data *data, char *msg, size_t size);
  /* After run_check(plan, data, sample) of shared data (check: its verdict): every element against
   * the output of the first plan that passed its sample on this data, with the bound two
   * outputs within their tolerances of the exact value can differ by; the first call
   * with a clean check keeps plan's output as that reference instead (the template keeps
   * it in data->state). */
  void (*run_compare)(const void *plan, sg_run_data *data, uint64_t sample, sg_check *check);

  /* ---- the command line: `spvgen NAME`, `spvgen run NAME` (and GEMM's and MLP's
   * bench and tune) ---- */
  const sg_flag *flags;      /* the problem's flags, parsed into the desc; NULL: none */
  /* The desc the flags start from, where the command line's defaults are not a zeroed
   * desc's (GEMM: f16,f32); NULL: zeroed. */
  void (*flags_init)(void *desc);
  /* After the flags: false with why (the usage error's text) when one that is required
   * is missing; NULL: none is. */
  bool (*flags_done)(const void *desc, char *why, size_t size);
  /* Whether the validator spvgen links can read plan's module (NULL: always): `spvgen
   * NAME` validates what it writes where it can. */
  bool (*validator_reads)(const void *plan);
  const char *summary;       /* one line: what the kernel computes */
  const char *example;       /* the flags of a usage example ("--op mul --type f16") */
} sg_template;

/* The four public functions of a template NAME (spvgen_NAME_plan, spvgen_NAME_plans,
 * spvgen_NAME_emit, spvgen_NAME) behind the table's signatures: SG_TEMPLATE_API(NAME) in
 * NAME_template.c defines them, SG_TEMPLATE_API_FIELDS(NAME) names them in the entry. */
#define SG_TEMPLATE_API(NAME)                                                                                 \
  static spvgen_status NAME##_plan_(const void *desc, const spvgen_device_caps *caps, void *plan, char *msg,  \
                                    size_t size) {                                                            \
    return spvgen_##NAME##_plan(desc, caps, plan, msg, size);                                                 \
  }                                                                                                           \
  static spvgen_status NAME##_plans_(const void *desc, const spvgen_device_caps *caps, void *plans,           \
                                     uint32_t max, uint32_t *count, char *msg, size_t size) {                 \
    return spvgen_##NAME##_plans(desc, caps, plans, max, count, msg, size);                                   \
  }                                                                                                           \
  static spvgen_status NAME##_emit_(spvgen_module *m, const void *plan, spvgen_kernel_info *info) {           \
    return spvgen_##NAME##_emit(m, plan, info);                                                               \
  }                                                                                                           \
  static spvgen_status NAME##_kernel_(const void *desc, const spvgen_device_caps *caps, spvgen_kernel *k,     \
                                      char *msg, size_t size) {                                               \
    return spvgen_##NAME(desc, caps, k, msg, size);                                                           \
  }
#define SG_TEMPLATE_API_FIELDS(NAME) \
  .plan = NAME##_plan_, .plans = NAME##_plans_, .emit = NAME##_emit_, .kernel = NAME##_kernel_

/* The most kernels a template's plan has (SG_RUN_MAX_KERNELS). */
enum { sg_template_kernels_max = SG_RUN_MAX_KERNELS };

/* The kernels of a plan (t->kernel_count, else 1), and kernel `which` emitted
 * (t->emit_kernel, else t->emit for which 0). */
static inline uint32_t sg_template_kernels(const sg_template *t, const void *plan) {
  return t->kernel_count ? t->kernel_count(plan) : 1u;
}
static inline spvgen_status sg_template_emit_kernel(const sg_template *t, spvgen_module *m, const void *plan,
                                                    uint32_t which, spvgen_kernel_info *info) {
  if (t->emit_kernel) return t->emit_kernel(m, plan, which, info);
  return which ? SPVGEN_ERROR_INVALID_ARGUMENT : t->emit(m, plan, info);
}

/* Every template, NULL-terminated (table.c: one line each). */
extern const sg_template *const sg_templates[];
/* The template named name; NULL if none is. */
const sg_template *sg_template_find(const char *name);

/* The kernel metadata of `spvgen NAME --json`: one object, sg_json_kernel's members of
 * kernel k[0] then the template's describe, and for a plan of count > 1 kernels
 * "next_kernels": an array of one object per later kernel (its "kernel" name, then its
 * sg_json_kernel members), dispatched after the first in order (table.c). caps: the device
 * the plan was made for, passed to describe (NULL: the template's default). */
void sg_template_json(const sg_template *t, FILE *out, const void *plan, const spvgen_device_caps *caps,
                      const spvgen_kernel *k, uint32_t count);
/* Kernel `which`'s name (t->kernel_name of the plan (may be NULL then), t->kernel_names,
 * else "main", "k1", ...). */
const char *sg_template_kernel_name(const sg_template *t, const void *plan, uint32_t which);
/* Kernel `which` of plan emitted into a fresh module (the plan's addressing model),
 * finished and reflected into *k (words the caller frees: spvgen_kernel_free). */
spvgen_status sg_template_build_kernel(const sg_template *t, const void *plan, uint32_t which, spvgen_kernel *k,
                                       char *msg, size_t size);

/* The entries (each in emitters/NAME/NAME_template.c). */
extern const sg_template sg_template_gemm;
extern const sg_template sg_template_mlp;
extern const sg_template sg_template_elementwise;

/* The shape a GEMM run ran (a RUNTIME plan's args as a FIXED desc) and its launch, from
 * the data of sg_template_gemm.run_data (gemm_template.c). */
void sg_gemm_run_shape(const sg_run_data *data, spvgen_gemm_launch *launch, spvgen_gemm_desc *shape);

/* --------------------------------------------------------- MLP device data ---- */
/* The weight buffer of an MLP plan as the device reads it. With
 * SPVGEN_MLP_WEIGHTS_OPTIMAL (mlp.h): the row-major weights (plan->weight_bytes, biases
 * included) copied to [0, weight_bytes), then each layer's matrix converted by the driver
 * (vkConvertCooperativeVectorMatrixNV, row-major f16 -> InferencingOptimalNV f16) at the
 * next multiple of 64; a layer that vec_rows splits as its pieces, each converted on its
 * own, one piece stride (the full piece's size rounded to 64) apart. *out (malloc'd,
 * *out_bytes bytes) and spec[SPVGEN_MLP_MAX_SPEC] (the matrix_offset_<l> values, then the
 * matrix_piece_bytes_<l> of the split layers) are the caller's; for a row-major plan,
 * *out is a copy and no spec constant is written (*spec_count 0). (mlp_weights.c) */
spvgen_status sg_mlp_device_weights(spvgen_vk_context *ctx, const spvgen_mlp_config *plan, const uint8_t *weights,
                                    uint8_t **out, uint64_t *out_bytes, spvgen_spec_constant spec[SPVGEN_MLP_MAX_SPEC],
                                    uint32_t *spec_count, char *msg, size_t size);

/* ------------------------------------------------------- strict numbers ---- */
/* The whole text is the number, no sign or spaces, within [min, max]; false otherwise
 * (the caller's usage error names the flag). sg_parse_u64 takes "0x..." too when hex_ok;
 * sg_parse_number any finite decimal or hexadecimal float; sg_parse_u32_list
 * 1..capacity numbers separated by sep ("64," and "" are refused). (args.c) */
bool sg_parse_u64(const char *s, bool hex_ok, uint64_t min, uint64_t max, uint64_t *out);
bool sg_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
bool sg_parse_number(const char *s, double min, double max, double *out);
bool sg_parse_u32_list(const char *s, char sep, uint32_t min, uint32_t max, uint32_t *values, uint32_t capacity,
                       uint32_t *count);

#endif
