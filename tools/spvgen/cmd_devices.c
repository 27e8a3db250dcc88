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
/* One device through the one JSON writer (lib/template/json_out.h): the object an
 * element of "devices", lists of shapes one entry a line. */
static void json_device(sg_json *j, const spvgen_device_caps *c) {
  char buf[64];
  sg_json_object(j, NULL, false);
  sg_json_u64(j, "index", c->device_index);
  sg_json_str(j, "name", c->name);
  sg_json_str(j, "type", spvgen_device_type_name(c->type));
  snprintf(buf, sizeof buf, "%u.%u.%u", SPVGEN_API_VERSION_MAJOR(c->api_version),
           SPVGEN_API_VERSION_MINOR(c->api_version), SPVGEN_API_VERSION_PATCH(c->api_version));
  sg_json_str(j, "api_version", buf);
  sg_json_str(j, "driver_name", c->driver_name);
  sg_json_str(j, "driver_info", c->driver_info);
  sg_json_u64(j, "vendor_id", c->vendor_id);
  sg_json_u64(j, "device_id", c->device_id);
  sg_json_u64(j, "driver_version", c->driver_version);
  snprintf(buf, sizeof buf, "%u.%u", (c->max_spirv_version >> 16) & 0xFF, (c->max_spirv_version >> 8) & 0xFF);
  sg_json_str(j, "max_spirv_version", buf);
  sg_json_array(j, "features", true);
  for (int i = 0; i < SPVGEN_FEATURE_COUNT; i++)
    if (c->features & (1ull << i)) sg_json_str(j, NULL, spvgen_feature_name(1ull << i));
  sg_json_end(j);
  sg_json_u64(j, "subgroup_size", c->subgroup_size);
  sg_json_u64(j, "min_subgroup_size", c->min_subgroup_size);
  sg_json_u64(j, "max_subgroup_size", c->max_subgroup_size);
  sg_json_u64(j, "subgroup_operations", c->subgroup_operations);
  sg_json_u64(j, "max_compute_workgroup_subgroups", c->max_compute_workgroup_subgroups);
  sg_json_bool(j, "required_subgroup_size_in_compute", c->required_subgroup_size_in_compute);
  sg_json_u64(j, "max_shared_memory", c->max_shared_memory);
  sg_json_u64(j, "max_workgroup_invocations", c->max_workgroup_invocations);
  sg_json_array(j, "max_workgroup_size", true);
  for (int i = 0; i < 3; i++) sg_json_u64(j, NULL, c->max_workgroup_size[i]);
  sg_json_end(j);
  sg_json_array(j, "max_workgroup_count", true);
  for (int i = 0; i < 3; i++) sg_json_u64(j, NULL, c->max_workgroup_count[i]);
  sg_json_end(j);
  sg_json_u64(j, "max_push_constants_size", c->max_push_constants_size);
  sg_json_u64(j, "max_storage_buffer_range", c->max_storage_buffer_range);
  sg_json_u64(j, "max_uniform_buffer_range", c->max_uniform_buffer_range);
  sg_json_u64(j, "max_bound_descriptor_sets", c->max_bound_descriptor_sets);
  sg_json_u64(j, "max_per_stage_storage_buffers", c->max_per_stage_storage_buffers);
  sg_json_u64(j, "min_storage_buffer_offset_alignment", c->min_storage_buffer_offset_alignment);
  sg_json_u64(j, "max_memory_allocation_size", c->max_memory_allocation_size);
  sg_json_u64(j, "max_buffer_size", c->max_buffer_size);
  sg_json_u64(j, "device_local_memory", c->device_local_memory);
  sg_json_f64(j, "timestamp_period", c->timestamp_period);
  sg_json_u64(j, "timestamp_valid_bits", c->timestamp_valid_bits);
  sg_json_u64(j, "compute_units", c->compute_units);
  sg_json_u64(j, "coopmat2_workgroup_scope_max_workgroup_size", c->coopmat2_workgroup_scope_max_workgroup_size);
  sg_json_u64(j, "coopmat2_flexible_dimensions_max_dimension", c->coopmat2_flexible_dimensions_max_dimension);
  sg_json_u64(j, "coopmat2_workgroup_scope_reserved_shared_memory",
              c->coopmat2_workgroup_scope_reserved_shared_memory);
  sg_json_u64(j, "coopmat_supported_stages", c->coopmat_supported_stages);
  sg_json_u64(j, "coopvec_supported_stages", c->coopvec_supported_stages);
  sg_json_u64(j, "coopvec_max_components", c->coopvec_max_components);
  sg_json_bool(j, "coopvec_training_float16_accumulation", c->coopvec_training_float16_accumulation);
  sg_json_bool(j, "coopvec_training_float32_accumulation", c->coopvec_training_float32_accumulation);
  sg_json_array(j, "coopmat", false);
  for (uint32_t i = 0; i < c->coopmat_count; i++) {
    const spvgen_coopmat_shape *s = &c->coopmat[i];
    sg_json_object(j, NULL, true);
    sg_json_u64(j, "m", s->m);
    sg_json_u64(j, "n", s->n);
    sg_json_u64(j, "k", s->k);
    sg_json_str(j, "a", spvgen_component_type_name(s->a));
    sg_json_str(j, "b", spvgen_component_type_name(s->b));
    sg_json_str(j, "c", spvgen_component_type_name(s->c));
    sg_json_str(j, "result", spvgen_component_type_name(s->result));
    sg_json_bool(j, "saturating", s->saturating);
    sg_json_str(j, "scope", scope_name(s->scope));
    sg_json_end(j);
  }
  sg_json_end(j);
  sg_json_array(j, "coopmat_flexible", false);
  for (uint32_t i = 0; i < c->coopmat_flex_count; i++) {
    const spvgen_coopmat_flex *s = &c->coopmat_flex[i];
    sg_json_object(j, NULL, true);
    sg_json_u64(j, "m_granularity", s->m_granularity);
    sg_json_u64(j, "n_granularity", s->n_granularity);
    sg_json_u64(j, "k_granularity", s->k_granularity);
    sg_json_str(j, "a", spvgen_component_type_name(s->a));
    sg_json_str(j, "b", spvgen_component_type_name(s->b));
    sg_json_str(j, "c", spvgen_component_type_name(s->c));
    sg_json_str(j, "result", spvgen_component_type_name(s->result));
    sg_json_bool(j, "saturating", s->saturating);
    sg_json_str(j, "scope", scope_name(s->scope));
    sg_json_u64(j, "workgroup_invocations", s->workgroup_invocations);
    sg_json_end(j);
  }
  sg_json_end(j);
  sg_json_array(j, "coopvec", false);
  for (uint32_t i = 0; i < c->coopvec_count; i++) {
    const spvgen_coopvec_combo *v = &c->coopvec[i];
    sg_json_object(j, NULL, true);
    sg_json_str(j, "input", spvgen_component_type_name(v->input));
    sg_json_str(j, "input_interpretation", spvgen_component_type_name(v->input_interpretation));
    sg_json_str(j, "matrix_interpretation", spvgen_component_type_name(v->matrix_interpretation));
    sg_json_str(j, "bias_interpretation", spvgen_component_type_name(v->bias_interpretation));
    sg_json_str(j, "result", spvgen_component_type_name(v->result));
    sg_json_bool(j, "transpose", v->transpose);
    sg_json_end(j);
  }
  sg_json_end(j);
  sg_json_bool(j, "lists_truncated", c->lists_truncated);
  sg_json_end(j);
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
    sg_json j;
    sg_json_start(&j, stdout);
    sg_json_object(&j, NULL, false);
    sg_json_array(&j, "devices", false);
    for (uint32_t i = 0; i < count; i++) json_device(&j, &caps[i]);
    sg_json_end(&j);
    sg_json_end(&j);
    sg_json_finish(&j);
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
