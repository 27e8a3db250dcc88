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
#include "spvgen/kernel.h"
#include "spvgen/mlp.h"
#include "spvgen/tune.h"
#include "spvgen/vk.h"

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
  /* plan + emit + finish into a kernel the caller frees (spvgen_kernel_free). */
  spvgen_status (*kernel)(const void *desc, const spvgen_device_caps *caps, spvgen_kernel *k, char *msg, size_t size);

  /* ---- describe ---- */
  /* The plan in words ("khr f16,f16->f32 128x128x32 ..."), and its variant's name. */
  void (*plan_name)(const void *plan, char *buf, size_t size);
  const char *(*variant_name)(const void *plan);
  /* The plan's own members of the kernel metadata JSON, after the ones every template has
   * (sg_template_json writes both; NULL: none). */
  void (*describe)(const void *plan, sg_json *j);
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

/* Every template, NULL-terminated (table.c: one line each). */
extern const sg_template *const sg_templates[];
/* The template named name; NULL if none is. */
const sg_template *sg_template_find(const char *name);

/* The kernel metadata of `spvgen NAME --json`: one object, sg_json_kernel's members then
 * the template's describe (table.c). */
void sg_template_json(const sg_template *t, FILE *out, const void *plan, const spvgen_kernel *k);

/* The entries (each in emitters/NAME/NAME_template.c). */
extern const sg_template sg_template_gemm;
extern const sg_template sg_template_mlp;
extern const sg_template sg_template_elementwise;

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
