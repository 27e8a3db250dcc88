/* tools/common/caps_json.c — reads device caps back from the JSON `spvgen devices --json`
 * writes (first device), so `spvgen gemm --caps FILE` can emit for a device recorded on
 * another machine. A small JSON parser: objects, arrays, strings (with \" \\ \uXXXX
 * escapes kept verbatim), numbers, true/false/null; unknown keys are skipped, a known
 * key with the wrong kind of value is an error naming it. */
#define _POSIX_C_SOURCE 200809L

#include "caps_json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
  const char *p, *end;
  char *msg;
  size_t size;
  bool failed;
} parser;

static bool fail(parser *ps, const char *fmt, ...) {
  if (!ps->failed && ps->msg && ps->size) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->msg, ps->size, fmt, ap);
    va_end(ap);
  }
  ps->failed = true;
  return false;
}

static void ws(parser *ps) {
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t')) ps->p++;
}

static bool eat(parser *ps, char c) {
  ws(ps);
  if (ps->p < ps->end && *ps->p == c) {
    ps->p++;
    return true;
  }
  return false;
}

/* A string into out (truncated to size - 1). */
static bool string(parser *ps, char *out, size_t size) {
  ws(ps);
  if (ps->p >= ps->end || *ps->p != '"') return fail(ps, "expected a string at offset %ld", (long)(ps->end - ps->p));
  ps->p++;
  size_t n = 0;
  while (ps->p < ps->end && *ps->p != '"') {
    char c = *ps->p++;
    if (c == '\\' && ps->p < ps->end) c = *ps->p++;
    if (n + 1 < size) out[n++] = c;
  }
  if (ps->p >= ps->end) return fail(ps, "unterminated string");
  ps->p++;
  if (size) out[n] = 0;
  return true;
}

static bool number(parser *ps, double *out) {
  ws(ps);
  char *e;
  errno = 0;
  double v = strtod(ps->p, &e);
  if (e == ps->p || errno) return fail(ps, "expected a number");
  ps->p = e;
  *out = v;
  return true;
}

static bool boolean(parser *ps, bool *out) {
  ws(ps);
  if (ps->end - ps->p >= 4 && !strncmp(ps->p, "true", 4)) return ps->p += 4, *out = true, true;
  if (ps->end - ps->p >= 5 && !strncmp(ps->p, "false", 5)) return ps->p += 5, *out = false, true;
  return fail(ps, "expected true or false");
}

/* Skips any value. */
static bool skip(parser *ps, int depth) {
  ws(ps);
  if (depth > 64) return fail(ps, "nested too deeply");
  if (ps->p >= ps->end) return fail(ps, "unexpected end");
  char c = *ps->p;
  char tmp[8];
  double d;
  bool b;
  if (c == '"') return string(ps, tmp, sizeof tmp);
  if (c == '{' || c == '[') {
    char close = c == '{' ? '}' : ']';
    ps->p++;
    if (eat(ps, close)) return true;
    do {
      if (c == '{' && (!string(ps, tmp, sizeof tmp) || !eat(ps, ':'))) return fail(ps, "bad object");
      if (!skip(ps, depth + 1)) return false;
    } while (eat(ps, ','));
    return eat(ps, close) || fail(ps, "expected '%c'", close);
  }
  if (c == 't' || c == 'f') return boolean(ps, &b);
  if (c == 'n' && ps->end - ps->p >= 4 && !strncmp(ps->p, "null", 4)) return ps->p += 4, true;
  return number(ps, &d);
}

static bool starts_number(parser *ps) {
  ws(ps);
  return ps->p < ps->end && (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'));
}

/* Whole numbers only: 3.7 is no count, and a value past the type's range would be
 * undefined to convert (the fuzz_caps target found 1e27 for a 64-bit field). */
static bool u32v(parser *ps, const char *key, uint32_t *out) {
  double d;
  if (!starts_number(ps) || !number(ps, &d) || !(d >= 0 && d <= 4294967295.0) || d != floor(d))
    return fail(ps, "\"%s\": expected an unsigned 32-bit integer", key);
  *out = (uint32_t)d;
  return true;
}

static bool u64v(parser *ps, const char *key, uint64_t *out) {
  double d;
  /* 2^64 is the first double past UINT64_MAX. */
  if (!starts_number(ps) || !number(ps, &d) || !(d >= 0 && d < 18446744073709551616.0) || d != floor(d))
    return fail(ps, "\"%s\": expected an unsigned 64-bit integer", key);
  *out = (uint64_t)d;
  return true;
}

static bool typev(parser *ps, const char *key, spvgen_component_type *out) {
  char s[32];
  if (!string(ps, s, sizeof s)) return false;
  if (!spvgen_component_type_parse(s, out)) return fail(ps, "\"%s\": unknown component type \"%s\"", key, s);
  return true;
}

static uint32_t version3(const char *s) {
  unsigned a = 0, b = 0, c = 0;
  sscanf(s, "%u.%u.%u", &a, &b, &c);
  return SPVGEN_API_VERSION(a, b, c);
}

static bool feature_list(parser *ps, uint64_t *features) {
  if (!eat(ps, '[')) return fail(ps, "\"features\": expected an array");
  *features = 0;
  if (eat(ps, ']')) return true;
  do {
    char s[96];
    if (!string(ps, s, sizeof s)) return false;
    bool found = false;
    for (int b = 0; b < SPVGEN_FEATURE_COUNT; b++)
      if (!strcmp(spvgen_feature_name(1ull << b), s)) *features |= 1ull << b, found = true;
    if (!found) return fail(ps, "\"features\": unknown feature \"%s\"", s);
  } while (eat(ps, ','));
  return eat(ps, ']') || fail(ps, "\"features\": expected ']'");
}

static bool scope_of(parser *ps, SpvScope *out) {
  char s[16];
  if (!string(ps, s, sizeof s)) return false;
  if (!strcmp(s, "subgroup")) *out = SpvScopeSubgroup;
  else if (!strcmp(s, "workgroup")) *out = SpvScopeWorkgroup;
  else if (!strcmp(s, "device")) *out = SpvScopeDevice;
  else return fail(ps, "unknown scope \"%s\"", s);
  return true;
}

/* One entry of coopmat / coopmat_flexible / coopvec. */
static bool list_entry(parser *ps, const char *list, spvgen_device_caps *c) {
  if (!eat(ps, '{')) return fail(ps, "\"%s\": expected objects", list);
  spvgen_coopmat_shape sh;
  spvgen_coopmat_flex fx;
  spvgen_coopvec_combo cv;
  memset(&sh, 0, sizeof sh);
  memset(&fx, 0, sizeof fx);
  memset(&cv, 0, sizeof cv);
  if (!eat(ps, '}')) do {
      char k[48];
      if (!string(ps, k, sizeof k) || !eat(ps, ':')) return fail(ps, "\"%s\": bad entry", list);
      bool ok = true;
      if (!strcmp(k, "m")) ok = u32v(ps, k, &sh.m);
      else if (!strcmp(k, "n")) ok = u32v(ps, k, &sh.n);
      else if (!strcmp(k, "k")) ok = u32v(ps, k, &sh.k);
      else if (!strcmp(k, "m_granularity")) ok = u32v(ps, k, &fx.m_granularity);
      else if (!strcmp(k, "n_granularity")) ok = u32v(ps, k, &fx.n_granularity);
      else if (!strcmp(k, "k_granularity")) ok = u32v(ps, k, &fx.k_granularity);
      else if (!strcmp(k, "workgroup_invocations")) ok = u32v(ps, k, &fx.workgroup_invocations);
      else if (!strcmp(k, "a")) ok = typev(ps, k, &sh.a);
      else if (!strcmp(k, "b")) ok = typev(ps, k, &sh.b);
      else if (!strcmp(k, "c")) ok = typev(ps, k, &sh.c);
      else if (!strcmp(k, "result")) ok = typev(ps, k, &sh.result), cv.result = sh.result;
      else if (!strcmp(k, "saturating")) ok = boolean(ps, &sh.saturating);
      else if (!strcmp(k, "scope")) ok = scope_of(ps, &sh.scope);
      else if (!strcmp(k, "input")) ok = typev(ps, k, &cv.input);
      else if (!strcmp(k, "input_interpretation")) ok = typev(ps, k, &cv.input_interpretation);
      else if (!strcmp(k, "matrix_interpretation")) ok = typev(ps, k, &cv.matrix_interpretation);
      else if (!strcmp(k, "bias_interpretation")) ok = typev(ps, k, &cv.bias_interpretation);
      else if (!strcmp(k, "transpose")) ok = boolean(ps, &cv.transpose);
      else ok = skip(ps, 0);
      if (!ok) return false;
    } while (eat(ps, ','));
  if (!eat(ps, '}')) return fail(ps, "\"%s\": expected '}'", list);
  if (!strcmp(list, "coopmat")) {
    if (c->coopmat_count >= SPVGEN_MAX_COOPMAT_SHAPES) return c->lists_truncated = true, true;
    c->coopmat[c->coopmat_count++] = sh;
  } else if (!strcmp(list, "coopmat_flexible")) {
    if (c->coopmat_flex_count >= SPVGEN_MAX_COOPMAT_FLEX) return c->lists_truncated = true, true;
    fx.a = sh.a, fx.b = sh.b, fx.c = sh.c, fx.result = sh.result, fx.saturating = sh.saturating, fx.scope = sh.scope;
    c->coopmat_flex[c->coopmat_flex_count++] = fx;
  } else {
    if (c->coopvec_count >= SPVGEN_MAX_COOPVEC_COMBOS) return c->lists_truncated = true, true;
    c->coopvec[c->coopvec_count++] = cv;
  }
  return true;
}

static bool device(parser *ps, spvgen_device_caps *c) {
  if (!eat(ps, '{')) return fail(ps, "\"devices\": expected an object");
  if (eat(ps, '}')) return true;
  do {
    char k[64];
    if (!string(ps, k, sizeof k) || !eat(ps, ':')) return fail(ps, "bad device object");
    bool ok = true;
    char s[256];
    double d;
    struct { const char *name; uint32_t *v; } u32s[] = {
        {"index", &c->device_index}, {"vendor_id", &c->vendor_id}, {"device_id", &c->device_id},
        {"driver_version", &c->driver_version}, {"subgroup_size", &c->subgroup_size},
        {"min_subgroup_size", &c->min_subgroup_size}, {"max_subgroup_size", &c->max_subgroup_size},
        {"subgroup_operations", &c->subgroup_operations},
        {"max_compute_workgroup_subgroups", &c->max_compute_workgroup_subgroups},
        {"max_shared_memory", &c->max_shared_memory}, {"max_workgroup_invocations", &c->max_workgroup_invocations},
        {"max_push_constants_size", &c->max_push_constants_size},
        {"max_storage_buffer_range", &c->max_storage_buffer_range},
        {"max_uniform_buffer_range", &c->max_uniform_buffer_range},
        {"max_bound_descriptor_sets", &c->max_bound_descriptor_sets},
        {"max_per_stage_storage_buffers", &c->max_per_stage_storage_buffers},
        {"timestamp_valid_bits", &c->timestamp_valid_bits},
        {"compute_units", &c->compute_units},
        {"coopmat2_workgroup_scope_max_workgroup_size", &c->coopmat2_workgroup_scope_max_workgroup_size},
        {"coopmat2_flexible_dimensions_max_dimension", &c->coopmat2_flexible_dimensions_max_dimension},
        {"coopmat2_workgroup_scope_reserved_shared_memory", &c->coopmat2_workgroup_scope_reserved_shared_memory},
        {"coopmat_supported_stages", &c->coopmat_supported_stages},
        {"coopvec_supported_stages", &c->coopvec_supported_stages},
        {"coopvec_max_components", &c->coopvec_max_components}};
    struct { const char *name; uint64_t *v; } u64s[] = {
        {"min_storage_buffer_offset_alignment", &c->min_storage_buffer_offset_alignment},
        {"max_memory_allocation_size", &c->max_memory_allocation_size},
        {"max_buffer_size", &c->max_buffer_size}, {"device_local_memory", &c->device_local_memory}};
    bool done = false;
    for (size_t i = 0; !done && i < sizeof u32s / sizeof u32s[0]; i++)
      if (!strcmp(k, u32s[i].name)) ok = u32v(ps, k, u32s[i].v), done = true;
    for (size_t i = 0; !done && i < sizeof u64s / sizeof u64s[0]; i++)
      if (!strcmp(k, u64s[i].name)) ok = u64v(ps, k, u64s[i].v), done = true;
    if (done) {
    } else if (!strcmp(k, "name")) ok = string(ps, c->name, sizeof c->name);
    else if (!strcmp(k, "driver_name")) ok = string(ps, c->driver_name, sizeof c->driver_name);
    else if (!strcmp(k, "driver_info")) ok = string(ps, c->driver_info, sizeof c->driver_info);
    else if (!strcmp(k, "type")) {
      ok = string(ps, s, sizeof s);
      for (int t = 0; ok && t <= SPVGEN_DEVICE_CPU; t++)
        if (!strcmp(spvgen_device_type_name((spvgen_device_type)t), s)) c->type = (spvgen_device_type)t;
    } else if (!strcmp(k, "api_version")) {
      ok = string(ps, s, sizeof s);
      c->api_version = version3(s);
    } else if (!strcmp(k, "max_spirv_version")) {
      unsigned a = 0, b = 0;
      ok = string(ps, s, sizeof s);
      sscanf(s, "%u.%u", &a, &b);
      c->max_spirv_version = SPVGEN_SPIRV_VERSION(a, b);
    } else if (!strcmp(k, "features")) ok = feature_list(ps, &c->features);
    else if (!strcmp(k, "required_subgroup_size_in_compute")) ok = boolean(ps, &c->required_subgroup_size_in_compute);
    else if (!strcmp(k, "coopvec_training_float16_accumulation")) ok = boolean(ps, &c->coopvec_training_float16_accumulation);
    else if (!strcmp(k, "coopvec_training_float32_accumulation")) ok = boolean(ps, &c->coopvec_training_float32_accumulation);
    else if (!strcmp(k, "lists_truncated")) ok = boolean(ps, &c->lists_truncated);
    else if (!strcmp(k, "timestamp_period")) ok = number(ps, &d), c->timestamp_period = (float)d;
    else if (!strcmp(k, "max_workgroup_size") || !strcmp(k, "max_workgroup_count")) {
      uint32_t *v = k[14] == 's' ? c->max_workgroup_size : c->max_workgroup_count;
      ok = eat(ps, '[') && u32v(ps, k, &v[0]) && eat(ps, ',') && u32v(ps, k, &v[1]) && eat(ps, ',') &&
           u32v(ps, k, &v[2]) && eat(ps, ']');
      if (!ok) return fail(ps, "\"%s\": expected three numbers", k);
    } else if (!strcmp(k, "coopmat") || !strcmp(k, "coopmat_flexible") || !strcmp(k, "coopvec")) {
      if (!eat(ps, '[')) return fail(ps, "\"%s\": expected an array", k);
      if (!eat(ps, ']')) {
        do ok = list_entry(ps, k, c);
        while (ok && eat(ps, ','));
        if (ok && !eat(ps, ']')) return fail(ps, "\"%s\": expected ']'", k);
      }
    } else ok = skip(ps, 0);
    if (!ok) return false;
  } while (eat(ps, ','));
  return eat(ps, '}') || fail(ps, "device: expected '}'");
}

bool spvgen_caps_from_json(const char *text, size_t length, spvgen_device_caps *caps, char *msg,
                           size_t size) {
  parser ps = {text, text + length, msg, size, false};
  memset(caps, 0, sizeof *caps);
  if (!eat(&ps, '{')) return fail(&ps, "not a JSON object (expected the output of `spvgen devices --json`)");
  bool found = false;
  if (!eat(&ps, '}')) do {
      char k[32];
      if (!string(&ps, k, sizeof k) || !eat(&ps, ':')) return fail(&ps, "expected \"key\": at the top level");
      if (!strcmp(k, "devices")) {
        if (!eat(&ps, '[')) return fail(&ps, "\"devices\": expected an array");
        if (eat(&ps, ']')) return fail(&ps, "\"devices\" is empty");
        if (!device(&ps, caps)) return false;
        found = true;
        while (eat(&ps, ','))
          if (!skip(&ps, 0)) return false;
        if (!eat(&ps, ']')) return fail(&ps, "\"devices\": expected ']'");
      } else if (!skip(&ps, 0)) {
        return false;
      }
    } while (eat(&ps, ','));
  if (!found) return fail(&ps, "no \"devices\" array");
  if (!caps->name[0] || !caps->max_workgroup_invocations)
    return fail(&ps, "the device has no \"name\" or \"max_workgroup_invocations\"");
  if (ps.failed) return false;
  /* Caps are data: the same check as every other source (spvgen/caps.h). */
  char why[512];
  if (spvgen_caps_check(caps, why, sizeof why) != SPVGEN_OK) return fail(&ps, "%s", why);
  return true;
}
