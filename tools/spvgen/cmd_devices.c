/* tools/spvgen/cmd_devices.c — `spvgen devices`: every Vulkan device with the features
 * spvgen uses and its cooperative matrix / flexible dimensions / cooperative vector
 * lists, as readable tables or as JSON. --preset shows a named offline preset instead. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "cmds.h"
#include "spvgen/caps.h"
#include "spvgen/vk.h"

static void devices_usage(FILE *out) {
  fputs(
      "usage: spvgen devices [--json] [--preset NAME]\n"
      "\n"
      "Lists the Vulkan devices with the features spvgen can use and their cooperative\n"
      "capabilities: KHR cooperative matrix shapes, NV cooperative_matrix2 flexible\n"
      "dimensions, NV cooperative vector type combinations, subgroup size, shared memory\n"
      "and limits. The number in brackets is the device index (spvgen_vk_desc).\n"
      "\n"
      "options:\n"
      "  --json         one JSON object: {\"devices\": [...]}\n"
      "  --preset NAME  show a named offline preset instead of real devices\n"
      "                 (h100, vulkan13, lavapipe)\n"
      "  -h, --help     this text\n"
      "\n"
      "examples:\n"
      "  spvgen devices\n"
      "  spvgen devices --json > devices.json\n"
      "  spvgen devices --preset h100      # an offline preset, as `spvgen gemm --caps` uses\n"
      "\n"
      "exit status: 0 listed (also when there are no devices), 1 no Vulkan loader or\n"
      "driver, or a Vulkan error, 2 usage error\n",
      out);
}

static int devices_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int devices_usage_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "spvgen devices: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n(`spvgen devices --help` for usage)\n");
  return 2;
}

static const char *scope_name(SpvScope s) {
  switch (s) {
  case SpvScopeDevice: return "device";
  case SpvScopeWorkgroup: return "workgroup";
  case SpvScopeSubgroup: return "subgroup";
  default: return "unknown";
  }
}

static void print_version(FILE *out, uint32_t v) {
  fprintf(out, "%u.%u.%u", SPVGEN_API_VERSION_MAJOR(v), SPVGEN_API_VERSION_MINOR(v),
          SPVGEN_API_VERSION_PATCH(v));
}

/* --------------------------------------------------------------- tables ---- */
static void print_feature_list(FILE *out, const char *label, uint64_t mask) {
  int column = fprintf(out, "  %-10s", label);
  bool any = false;
  for (int i = 0; i < SPVGEN_FEATURE_COUNT; i++) {
    uint64_t bit = 1ull << i;
    if (!(mask & bit)) continue;
    const char *name = spvgen_feature_name(bit);
    int len = (int)strlen(name) + 1;
    if (column + len > 96) {
      fprintf(out, "\n  %-10s", "");
      column = 12;
    }
    column += fprintf(out, " %s", name);
    any = true;
  }
  if (!any) fprintf(out, " (none)");
  fputc('\n', out);
}

static void print_subgroup_ops(FILE *out, uint32_t ops) {
  static const struct {
    uint32_t bit;
    const char *name;
  } names[] = {
      {SPVGEN_SUBGROUP_BASIC, "basic"},          {SPVGEN_SUBGROUP_VOTE, "vote"},
      {SPVGEN_SUBGROUP_ARITHMETIC, "arithmetic"}, {SPVGEN_SUBGROUP_BALLOT, "ballot"},
      {SPVGEN_SUBGROUP_SHUFFLE, "shuffle"},      {SPVGEN_SUBGROUP_SHUFFLE_RELATIVE, "shuffle_relative"},
      {SPVGEN_SUBGROUP_CLUSTERED, "clustered"},  {SPVGEN_SUBGROUP_QUAD, "quad"},
      {SPVGEN_SUBGROUP_ROTATE, "rotate"},        {SPVGEN_SUBGROUP_ROTATE_CLUSTERED, "rotate_clustered"},
  };
  bool any = false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (ops & names[i].bit) {
      fprintf(out, "%s%s", any ? " " : "", names[i].name);
      any = true;
    }
  if (!any) fprintf(out, "none");
}

static void print_device(FILE *out, const spvgen_device_caps *c) {
  fprintf(out, "[%u] %s\n", c->device_index, c->name);
  fprintf(out, "  %-10s %s, Vulkan ", "device", spvgen_device_type_name(c->type));
  print_version(out, c->api_version);
  fprintf(out, ", vendor 0x%04x, device 0x%04x", c->vendor_id, c->device_id);
  if (c->driver_name[0])
    fprintf(out, ", driver %s%s%s", c->driver_name, c->driver_info[0] ? " " : "", c->driver_info);
  fprintf(out, ", SPIR-V up to %u.%u\n", (c->max_spirv_version >> 16) & 0xFF,
          (c->max_spirv_version >> 8) & 0xFF);
  fprintf(out, "  %-10s size %u", "subgroup", c->subgroup_size);
  if (c->min_subgroup_size != c->max_subgroup_size)
    fprintf(out, " (%u..%u with subgroup size control)", c->min_subgroup_size, c->max_subgroup_size);
  fprintf(out, "; operations: ");
  print_subgroup_ops(out, c->subgroup_operations);
  fputc('\n', out);
  fprintf(out, "  %-10s shared memory %u bytes, workgroup %u invocations (%u x %u x %u),\n",
          "limits", c->max_shared_memory, c->max_workgroup_invocations, c->max_workgroup_size[0],
          c->max_workgroup_size[1], c->max_workgroup_size[2]);
  fprintf(out, "  %-10s groups %u x %u x %u, push constants %u bytes, storage buffer range %u,\n",
          "", c->max_workgroup_count[0], c->max_workgroup_count[1], c->max_workgroup_count[2],
          c->max_push_constants_size, c->max_storage_buffer_range);
  fprintf(out, "  %-10s device-local memory %.1f GiB, timestamps %u bits at %g ns/tick, %u compute units\n", "",
          (double)c->device_local_memory / (1024.0 * 1024.0 * 1024.0), c->timestamp_valid_bits,
          (double)c->timestamp_period, c->compute_units);
  print_feature_list(out, "features", c->features);
  print_feature_list(out, "absent", SPVGEN_FEATURES_ALL & ~c->features);

  if (c->coopmat_count) {
    fprintf(out, "  cooperative matrix (VK_KHR_cooperative_matrix), %u shape%s:\n",
            c->coopmat_count, c->coopmat_count == 1 ? "" : "s");
    fprintf(out, "    %4s %4s %4s  %-6s %-6s %-6s %-6s %-9s %s\n", "M", "N", "K", "A", "B", "C",
            "Result", "scope", "saturating");
    for (uint32_t i = 0; i < c->coopmat_count; i++) {
      const spvgen_coopmat_shape *s = &c->coopmat[i];
      fprintf(out, "    %4u %4u %4u  %-6s %-6s %-6s %-6s %-9s %s\n", s->m, s->n, s->k,
              spvgen_component_type_name(s->a), spvgen_component_type_name(s->b),
              spvgen_component_type_name(s->c), spvgen_component_type_name(s->result),
              scope_name(s->scope), s->saturating ? "yes" : "no");
    }
  } else {
    fprintf(out, "  cooperative matrix: none\n");
  }
  if (c->features & (SPVGEN_FEATURE_COOPMAT2_WORKGROUP_SCOPE |
                     SPVGEN_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS)) {
    fprintf(out,
            "  cooperative matrix 2 (VK_NV_cooperative_matrix2): workgroup scope up to %u "
            "invocations, dimensions up to %u, %u bytes of shared memory reserved\n",
            c->coopmat2_workgroup_scope_max_workgroup_size,
            c->coopmat2_flexible_dimensions_max_dimension,
            c->coopmat2_workgroup_scope_reserved_shared_memory);
    if (c->coopmat_flex_count) {
      fprintf(out, "    flexible dimensions, %u entr%s:\n", c->coopmat_flex_count,
              c->coopmat_flex_count == 1 ? "y" : "ies");
      fprintf(out, "    %-9s %11s  %-11s  %-6s %-6s %-6s %-6s %s\n", "scope", "invocations",
              "granularity", "A", "B", "C", "Result", "saturating");
      for (uint32_t i = 0; i < c->coopmat_flex_count; i++) {
        const spvgen_coopmat_flex *s = &c->coopmat_flex[i];
        char gran[40];
        snprintf(gran, sizeof gran, "%ux%ux%u", s->m_granularity, s->n_granularity,
                 s->k_granularity);
        char inv[16];
        if (s->workgroup_invocations) snprintf(inv, sizeof inv, "%u", s->workgroup_invocations);
        else snprintf(inv, sizeof inv, "-");
        fprintf(out, "    %-9s %11s  %-11s  %-6s %-6s %-6s %-6s %s\n", scope_name(s->scope), inv,
                gran, spvgen_component_type_name(s->a), spvgen_component_type_name(s->b),
                spvgen_component_type_name(s->c), spvgen_component_type_name(s->result),
                s->saturating ? "yes" : "no");
      }
    }
  }
  if (c->features & SPVGEN_FEATURE_COOPVEC) {
    fprintf(out, "  cooperative vector (VK_NV_cooperative_vector): max components ");
    if (c->coopvec_max_components) fprintf(out, "%u", c->coopvec_max_components);
    else fprintf(out, "unknown");
    fprintf(out, ", training accumulation f16 %s, f32 %s, %u combination%s:\n",
            c->coopvec_training_float16_accumulation ? "yes" : "no",
            c->coopvec_training_float32_accumulation ? "yes" : "no", c->coopvec_count,
            c->coopvec_count == 1 ? "" : "s");
    fprintf(out, "    %-9s %-12s %-8s %-6s %-6s %s\n", "input", "interpreted", "matrix", "bias",
            "result", "transpose");
    for (uint32_t i = 0; i < c->coopvec_count; i++) {
      const spvgen_coopvec_combo *v = &c->coopvec[i];
      fprintf(out, "    %-9s %-12s %-8s %-6s %-6s %s\n", spvgen_component_type_name(v->input),
              spvgen_component_type_name(v->input_interpretation),
              spvgen_component_type_name(v->matrix_interpretation),
              spvgen_component_type_name(v->bias_interpretation),
              spvgen_component_type_name(v->result), v->transpose ? "yes" : "no");
    }
  } else {
    fprintf(out, "  cooperative vector: none\n");
  }
  if (c->lists_truncated) fprintf(out, "  (the driver listed more entries than shown)\n");
}

/* ----------------------------------------------------------------- JSON ---- */
/* Strings through the one JSON writer's escaping (tools/common/json_out.h). */
static void json_string(FILE *out, const char *s) { sg_json_escape(out, s); }

static void json_key(FILE *out, const char *indent, const char *key) {
  fprintf(out, "%s\"%s\": ", indent, key);
}

static void json_device(FILE *out, const spvgen_device_caps *c) {
  const char *in = "      ";
  fprintf(out, "    {\n");
  json_key(out, in, "index");
  fprintf(out, "%u,\n", c->device_index);
  json_key(out, in, "name");
  json_string(out, c->name);
  fprintf(out, ",\n");
  json_key(out, in, "type");
  json_string(out, spvgen_device_type_name(c->type));
  fprintf(out, ",\n");
  json_key(out, in, "api_version");
  fputc('"', out);
  print_version(out, c->api_version);
  fprintf(out, "\",\n");
  json_key(out, in, "driver_name");
  json_string(out, c->driver_name);
  fprintf(out, ",\n");
  json_key(out, in, "driver_info");
  json_string(out, c->driver_info);
  fprintf(out, ",\n");
  fprintf(out, "%s\"vendor_id\": %u,\n%s\"device_id\": %u,\n%s\"driver_version\": %u,\n", in,
          c->vendor_id, in, c->device_id, in, c->driver_version);
  fprintf(out, "%s\"max_spirv_version\": \"%u.%u\",\n", in, (c->max_spirv_version >> 16) & 0xFF,
          (c->max_spirv_version >> 8) & 0xFF);
  fprintf(out, "%s\"features\": [", in);
  bool first = true;
  for (int i = 0; i < SPVGEN_FEATURE_COUNT; i++)
    if (c->features & (1ull << i)) {
      fprintf(out, "%s", first ? "" : ", ");
      json_string(out, spvgen_feature_name(1ull << i));
      first = false;
    }
  fprintf(out, "],\n");
  fprintf(out,
          "%s\"subgroup_size\": %u,\n%s\"min_subgroup_size\": %u,\n%s\"max_subgroup_size\": %u,\n"
          "%s\"subgroup_operations\": %u,\n%s\"max_compute_workgroup_subgroups\": %u,\n"
          "%s\"required_subgroup_size_in_compute\": %s,\n",
          in, c->subgroup_size, in, c->min_subgroup_size, in, c->max_subgroup_size, in,
          c->subgroup_operations, in, c->max_compute_workgroup_subgroups, in,
          c->required_subgroup_size_in_compute ? "true" : "false");
  fprintf(out,
          "%s\"max_shared_memory\": %u,\n%s\"max_workgroup_invocations\": %u,\n"
          "%s\"max_workgroup_size\": [%u, %u, %u],\n%s\"max_workgroup_count\": [%u, %u, %u],\n"
          "%s\"max_push_constants_size\": %u,\n%s\"max_storage_buffer_range\": %u,\n"
          "%s\"max_uniform_buffer_range\": %u,\n%s\"max_bound_descriptor_sets\": %u,\n"
          "%s\"max_per_stage_storage_buffers\": %u,\n",
          in, c->max_shared_memory, in, c->max_workgroup_invocations, in,
          c->max_workgroup_size[0], c->max_workgroup_size[1], c->max_workgroup_size[2], in,
          c->max_workgroup_count[0], c->max_workgroup_count[1], c->max_workgroup_count[2], in,
          c->max_push_constants_size, in, c->max_storage_buffer_range, in,
          c->max_uniform_buffer_range, in, c->max_bound_descriptor_sets, in,
          c->max_per_stage_storage_buffers);
  fprintf(out,
          "%s\"min_storage_buffer_offset_alignment\": %llu,\n"
          "%s\"max_memory_allocation_size\": %llu,\n%s\"max_buffer_size\": %llu,\n"
          "%s\"device_local_memory\": %llu,\n%s\"timestamp_period\": %g,\n"
          "%s\"timestamp_valid_bits\": %u,\n%s\"compute_units\": %u,\n",
          in, (unsigned long long)c->min_storage_buffer_offset_alignment, in,
          (unsigned long long)c->max_memory_allocation_size, in,
          (unsigned long long)c->max_buffer_size, in, (unsigned long long)c->device_local_memory,
          in, (double)c->timestamp_period, in, c->timestamp_valid_bits, in, c->compute_units);
  fprintf(out,
          "%s\"coopmat2_workgroup_scope_max_workgroup_size\": %u,\n"
          "%s\"coopmat2_flexible_dimensions_max_dimension\": %u,\n"
          "%s\"coopmat2_workgroup_scope_reserved_shared_memory\": %u,\n"
          "%s\"coopmat_supported_stages\": %u,\n%s\"coopvec_supported_stages\": %u,\n"
          "%s\"coopvec_max_components\": %u,\n"
          "%s\"coopvec_training_float16_accumulation\": %s,\n"
          "%s\"coopvec_training_float32_accumulation\": %s,\n",
          in, c->coopmat2_workgroup_scope_max_workgroup_size, in,
          c->coopmat2_flexible_dimensions_max_dimension, in,
          c->coopmat2_workgroup_scope_reserved_shared_memory, in, c->coopmat_supported_stages, in,
          c->coopvec_supported_stages, in, c->coopvec_max_components, in,
          c->coopvec_training_float16_accumulation ? "true" : "false", in,
          c->coopvec_training_float32_accumulation ? "true" : "false");
  fprintf(out, "%s\"coopmat\": [", in);
  for (uint32_t i = 0; i < c->coopmat_count; i++) {
    const spvgen_coopmat_shape *s = &c->coopmat[i];
    fprintf(out,
            "%s\n%s  {\"m\": %u, \"n\": %u, \"k\": %u, \"a\": \"%s\", \"b\": \"%s\", \"c\": \"%s\", "
            "\"result\": \"%s\", \"saturating\": %s, \"scope\": \"%s\"}",
            i ? "," : "", in, s->m, s->n, s->k, spvgen_component_type_name(s->a),
            spvgen_component_type_name(s->b), spvgen_component_type_name(s->c),
            spvgen_component_type_name(s->result), s->saturating ? "true" : "false",
            scope_name(s->scope));
  }
  fprintf(out, "%s],\n", c->coopmat_count ? "\n      " : "");
  fprintf(out, "%s\"coopmat_flexible\": [", in);
  for (uint32_t i = 0; i < c->coopmat_flex_count; i++) {
    const spvgen_coopmat_flex *s = &c->coopmat_flex[i];
    fprintf(out,
            "%s\n%s  {\"m_granularity\": %u, \"n_granularity\": %u, \"k_granularity\": %u, "
            "\"a\": \"%s\", \"b\": \"%s\", \"c\": \"%s\", \"result\": \"%s\", \"saturating\": %s, "
            "\"scope\": \"%s\", \"workgroup_invocations\": %u}",
            i ? "," : "", in, s->m_granularity, s->n_granularity, s->k_granularity,
            spvgen_component_type_name(s->a), spvgen_component_type_name(s->b),
            spvgen_component_type_name(s->c), spvgen_component_type_name(s->result),
            s->saturating ? "true" : "false", scope_name(s->scope), s->workgroup_invocations);
  }
  fprintf(out, "%s],\n", c->coopmat_flex_count ? "\n      " : "");
  fprintf(out, "%s\"coopvec\": [", in);
  for (uint32_t i = 0; i < c->coopvec_count; i++) {
    const spvgen_coopvec_combo *v = &c->coopvec[i];
    fprintf(out,
            "%s\n%s  {\"input\": \"%s\", \"input_interpretation\": \"%s\", "
            "\"matrix_interpretation\": \"%s\", \"bias_interpretation\": \"%s\", "
            "\"result\": \"%s\", \"transpose\": %s}",
            i ? "," : "", in, spvgen_component_type_name(v->input),
            spvgen_component_type_name(v->input_interpretation),
            spvgen_component_type_name(v->matrix_interpretation),
            spvgen_component_type_name(v->bias_interpretation),
            spvgen_component_type_name(v->result), v->transpose ? "true" : "false");
  }
  fprintf(out, "%s],\n", c->coopvec_count ? "\n      " : "");
  fprintf(out, "%s\"lists_truncated\": %s\n    }", in, c->lists_truncated ? "true" : "false");
}

int spvgen_cmd_devices(int argc, char **argv) {
  bool json = false;
  const char *preset = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      devices_usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--json")) {
      json = true;
    } else if (!strcmp(argv[i], "--preset")) {
      if (i + 1 >= argc) return devices_usage_error("--preset needs a name");
      preset = argv[++i];
    } else {
      return devices_usage_error("unknown argument '%s'", argv[i]);
    }
  }

  spvgen_device_caps *caps = NULL;
  uint32_t count = 0;
  if (preset) {
    caps = calloc(1, sizeof *caps);
    if (!caps) {
      fprintf(stderr, "spvgen devices: out of memory\n");
      return 1;
    }
    if (spvgen_caps_preset(preset, caps) != SPVGEN_OK) {
      free(caps);
      fprintf(stderr, "spvgen devices: unknown preset '%s'; presets:", preset);
      for (const char *const *n = spvgen_caps_preset_names(); *n; n++) fprintf(stderr, " %s", *n);
      fprintf(stderr, "\n");
      return 2;
    }
    count = 1;
  } else {
    char message[1024];
    spvgen_status st = spvgen_vk_enumerate(NULL, 0, &count, message, sizeof message);
    if (st == SPVGEN_OK && count) {
      caps = calloc(count, sizeof *caps);
      if (!caps) {
        fprintf(stderr, "spvgen devices: out of memory\n");
        return 1;
      }
      uint32_t again = 0;
      st = spvgen_vk_enumerate(caps, count, &again, message, sizeof message);
      if (again < count) count = again;
    }
    if (st != SPVGEN_OK) {
      free(caps);
      fprintf(stderr, "spvgen devices: %s (%s)\n", message, spvgen_status_name(st));
      return 1;
    }
  }

  if (json) {
    printf("{\n  \"devices\": [");
    for (uint32_t i = 0; i < count; i++) {
      printf("%s\n", i ? "," : "");
      json_device(stdout, &caps[i]);
    }
    printf("%s]\n}\n", count ? "\n  " : "");
  } else if (count == 0) {
    printf("no Vulkan devices\n");
  } else {
    for (uint32_t i = 0; i < count; i++) {
      if (i) putchar('\n');
      print_device(stdout, &caps[i]);
    }
  }
  free(caps);
  return 0;
}
