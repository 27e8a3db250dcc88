/* lib/template/json_out.h — the one JSON writer of the CLI and the bench programs: string
 * escaping (quotes, backslashes, every control character; UTF-8 bytes pass through),
 * objects and arrays with commas placed for the caller, pretty at the top level and on
 * one line where asked, and the kernel metadata schema every template prints
 * (`spvgen gemm --json`, `spvgen mlp --json`, ...): one function, so the keys cannot drift; a
 * template's own members come from its table entry (template.h, `describe`). Internal to
 * spvgen (lib/template). */
#ifndef SPVGEN_TEMPLATE_JSON_OUT_H
#define SPVGEN_TEMPLATE_JSON_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <stddef.h>

#include "spvgen/kernel.h"

#define SG_JSON_MAX_DEPTH 16

typedef struct sg_json {
  FILE *out;
  int depth;
  bool first[SG_JSON_MAX_DEPTH];  /* no member written yet at this level */
  bool inline_[SG_JSON_MAX_DEPTH]; /* this level is written on one line */
  char close[SG_JSON_MAX_DEPTH];   /* '}' or ']' */
} sg_json;

/* Writes s as a JSON string (with its quotes). NULL writes null. */
void sg_json_escape(FILE *out, const char *s);

void sg_json_start(sg_json *j, FILE *out);
/* Begins an object or array: a member `key` of the enclosing object, or (key NULL) an
 * element of the enclosing array or the top-level value. One line when inline_. */
void sg_json_object(sg_json *j, const char *key, bool inline_);
void sg_json_array(sg_json *j, const char *key, bool inline_);
void sg_json_end(sg_json *j); /* closes the innermost object or array */
/* Values (key NULL inside arrays). */
void sg_json_str(sg_json *j, const char *key, const char *value);
void sg_json_u64(sg_json *j, const char *key, uint64_t value);
void sg_json_f64(sg_json *j, const char *key, double value);
void sg_json_bool(sg_json *j, const char *key, bool value);
/* Ends the top-level value with a newline. */
void sg_json_finish(sg_json *j);

/* The members every template's metadata has, in this order (the enclosing object is
 * open): template, variant, plan, entry_point, workgroup_size, dispatch (null when the
 * caller picks the grid by its run-time size), subgroup_size, push_constant_size,
 * push_constants [{name, offset, size}], spec_constants, bindings [{set, binding, kind,
 * name, min_size, access[, address_offset]}], run_time_sizes, features, capabilities,
 * extensions, spirv_version, vulkan_version, words, hash, hash_algorithm. The
 * template-specific members follow (the caller writes them before sg_json_end). */
void sg_json_kernel(sg_json *j, const char *template_name, const char *variant, const char *plan,
                    const uint32_t *words, size_t word_count, const spvgen_kernel_info *info);

#endif
