/* lib/template/json_out.c — the JSON writer (json_out.h). */
#include "json_out.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "spvgen/caps.h"

void sg_json_escape(FILE *out, const char *s) {
  if (!s) {
    fputs("null", out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\n': fputs("\\n", out); break;
    case '\r': fputs("\\r", out); break;
    case '\t': fputs("\\t", out); break;
    case '\b': fputs("\\b", out); break;
    case '\f': fputs("\\f", out); break;
    default:
      if (c < 0x20 || c == 0x7F) fprintf(out, "\\u%04x", c);
      else fputc(c, out);
    }
  }
  fputc('"', out);
}

void sg_json_start(sg_json *j, FILE *out) {
  memset(j, 0, sizeof *j);
  j->out = out;
  j->first[0] = true;
}

/* The separator and indentation before a new member or element, and its key. */
static void member(sg_json *j, const char *key) {
  int d = j->depth;
  if (d > 0) {
    if (!j->first[d]) fputc(',', j->out);
    if (j->inline_[d]) {
      if (!j->first[d]) fputc(' ', j->out);
    } else {
      fputc('\n', j->out);
      for (int i = 0; i < d; i++) fputs("  ", j->out);
    }
  }
  j->first[d] = false;
  if (key) {
    sg_json_escape(j->out, key);
    fputs(": ", j->out);
  }
}

static void open_level(sg_json *j, const char *key, bool inline_, char c) {
  member(j, key);
  fputc(c, j->out);
  if (j->depth + 1 >= SG_JSON_MAX_DEPTH) return; /* callers nest far less */
  j->depth++;
  j->first[j->depth] = true;
  j->inline_[j->depth] = inline_ || (j->depth > 1 && j->inline_[j->depth - 1]);
  j->close[j->depth] = c == '{' ? '}' : ']';
}

void sg_json_object(sg_json *j, const char *key, bool inline_) { open_level(j, key, inline_, '{'); }
void sg_json_array(sg_json *j, const char *key, bool inline_) { open_level(j, key, inline_, '['); }

void sg_json_end(sg_json *j) {
  int d = j->depth;
  if (d == 0) return;
  if (!j->inline_[d] && !j->first[d]) {
    fputc('\n', j->out);
    for (int i = 0; i < d - 1; i++) fputs("  ", j->out);
  }
  fputc(j->close[d], j->out);
  j->depth--;
}

void sg_json_str(sg_json *j, const char *key, const char *value) {
  member(j, key);
  sg_json_escape(j->out, value);
}

void sg_json_u64(sg_json *j, const char *key, uint64_t value) {
  member(j, key);
  fprintf(j->out, "%" PRIu64, value);
}

void sg_json_f64(sg_json *j, const char *key, double value) {
  member(j, key);
  if (isfinite(value)) fprintf(j->out, "%.9g", value);
  else fputs("null", j->out);
}

void sg_json_bool(sg_json *j, const char *key, bool value) {
  member(j, key);
  fputs(value ? "true" : "false", j->out);
}

void sg_json_finish(sg_json *j) { fputc('\n', j->out); }

/* ------------------------------------------------------------ kernel schema ---- */
static const char *kind_name(spvgen_binding_kind k) {
  switch (k) {
  case SPVGEN_BINDING_UNIFORM_BUFFER: return "uniform_buffer";
  case SPVGEN_BINDING_DEVICE_ADDRESS: return "device_address";
  default: return "storage_buffer";
  }
}

static const char *access_name(uint32_t a) {
  switch (a & (SPVGEN_ACCESS_READ | SPVGEN_ACCESS_WRITE)) {
  case SPVGEN_ACCESS_READ: return "read";
  case SPVGEN_ACCESS_WRITE: return "write";
  case SPVGEN_ACCESS_READ | SPVGEN_ACCESS_WRITE: return "read_write";
  default: return "unknown";
  }
}

/* The module's OpExtension names, as an array member. */
static void extensions(sg_json *j, const uint32_t *w, size_t n) {
  sg_json_array(j, "extensions", true);
  for (size_t i = 5; w && i < n;) {
    uint32_t count = w[i] >> 16, op = w[i] & 0xFFFF;
    if (count == 0 || i + count > n) break;
    if (op == 10 /* OpExtension */ && count >= 2) {
      char name[256];
      size_t len = 0;
      for (size_t b = 0; b < (size_t)(count - 1) * 4 && len + 1 < sizeof name; b++) {
        char c = (char)((w[i + 1 + b / 4] >> (8 * (b % 4))) & 0xFF);
        if (!c) break;
        name[len++] = c;
      }
      name[len] = 0;
      sg_json_str(j, NULL, name);
    } else if (op == 54 /* OpFunction */) {
      break; /* past the declarations */
    }
    i += count;
  }
  sg_json_end(j);
}

void sg_json_kernel(sg_json *j, const char *template_name, const char *variant, const char *plan,
                    const uint32_t *words, size_t word_count, const spvgen_kernel_info *in) {
  char buf[32];
  sg_json_str(j, "template", template_name);
  sg_json_str(j, "variant", variant);
  sg_json_str(j, "plan", plan);
  sg_json_str(j, "entry_point", in->entry_point ? in->entry_point : "main");
  sg_json_array(j, "workgroup_size", true);
  for (int i = 0; i < 3; i++) sg_json_u64(j, NULL, in->local_size[i] ? in->local_size[i] : 1);
  sg_json_end(j);
  if (in->groups[0] || in->groups[1] || in->groups[2]) {
    sg_json_array(j, "dispatch", true);
    for (int i = 0; i < 3; i++) sg_json_u64(j, NULL, in->groups[i] ? in->groups[i] : 1);
    sg_json_end(j);
  } else {
    sg_json_str(j, "dispatch", NULL); /* the caller sizes the grid by its run-time values */
  }
  sg_json_u64(j, "subgroup_size", in->required_subgroup_size);
  sg_json_u64(j, "push_constant_size", in->push_constant_size);
  sg_json_array(j, "push_constants", true);
  for (uint32_t i = 0; i < in->push_field_count && i < SPVGEN_MAX_PUSH_FIELDS; i++) {
    sg_json_object(j, NULL, true);
    sg_json_str(j, "name", in->push_fields[i].name);
    sg_json_u64(j, "offset", in->push_fields[i].offset);
    sg_json_u64(j, "size", in->push_fields[i].size);
    sg_json_end(j);
  }
  sg_json_end(j);
  sg_json_array(j, "spec_constants", true);
  for (uint32_t i = 0; i < in->spec_constant_count && i < SPVGEN_MAX_SPEC_CONSTANTS; i++) {
    const spvgen_spec_constant *c = &in->spec_constants[i];
    sg_json_object(j, NULL, true);
    sg_json_u64(j, "id", c->id);
    sg_json_u64(j, "size", c->size ? c->size : 4);
    sg_json_u64(j, "value", c->value);
    if (c->name) sg_json_str(j, "name", c->name);
    sg_json_end(j);
  }
  sg_json_end(j);
  sg_json_array(j, "bindings", false);
  for (uint32_t i = 0; i < in->binding_count && i < SPVGEN_MAX_BINDINGS; i++) {
    const spvgen_binding *b = &in->bindings[i];
    sg_json_object(j, NULL, true);
    sg_json_u64(j, "set", b->set);
    sg_json_u64(j, "binding", b->binding);
    sg_json_str(j, "kind", kind_name(b->kind));
    sg_json_str(j, "name", b->name);
    sg_json_u64(j, "min_size", b->min_size);
    sg_json_str(j, "access", access_name(b->access));
    if (b->kind == SPVGEN_BINDING_DEVICE_ADDRESS) sg_json_u64(j, "address_offset", b->address_offset);
    sg_json_end(j);
  }
  sg_json_end(j);
  /* Sizes that grow with push-constant values (a point count, a shape). */
  sg_json_bool(j, "run_time_sizes", in->binding_sizes != NULL);
  sg_json_array(j, "features", true);
  for (int b = 0; b < SPVGEN_FEATURE_COUNT; b++)
    if (in->features & (1ull << b)) sg_json_str(j, NULL, spvgen_feature_name(1ull << b));
  sg_json_end(j);
  sg_json_array(j, "capabilities", true);
  for (uint32_t i = 0; i < in->capability_count && i < SPVGEN_MAX_CAPABILITIES; i++) {
    const char *name = spvgen_capability_name(in->capabilities[i]);
    snprintf(buf, sizeof buf, "%u", in->capabilities[i]);
    sg_json_str(j, NULL, name ? name : buf);
  }
  sg_json_end(j);
  extensions(j, words, word_count);
  snprintf(buf, sizeof buf, "%u.%u", (in->spirv_version >> 16) & 0xFF, (in->spirv_version >> 8) & 0xFF);
  sg_json_str(j, "spirv_version", buf);
  uint32_t v = in->api_version ? in->api_version : SPVGEN_API_VERSION(1, 0, 0);
  snprintf(buf, sizeof buf, "%u.%u", SPVGEN_API_VERSION_MAJOR(v), SPVGEN_API_VERSION_MINOR(v));
  sg_json_str(j, "vulkan_version", buf);
  sg_json_u64(j, "words", word_count);
  snprintf(buf, sizeof buf, "%016" PRIx64, in->hash ? in->hash : spvgen_words_hash(words, word_count));
  sg_json_str(j, "hash", buf);
  sg_json_str(j, "hash_algorithm", "fnv1a-64 of the bytes");
}
