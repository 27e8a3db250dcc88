/* emitters/elementwise/elementwise_template.c — the elementwise kernel's entry in the
 * table of templates (lib/template/template.h): the smallest template, and the one the
 * "Adding a template" walkthrough of docs/architecture.md follows. Not tuned (its one
 * knob, the local size, matters little for a memory-bound kernel), so no knobs. Its
 * run hooks and flags are all `spvgen elementwise` and `spvgen run elementwise` need:
 * the generic command (tools/spvgen/cmd_template.c) and the run-and-check lifecycle
 * (tools/common/template_run.c) do the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_convert.h"
#include "spvgen/elementwise.h"
#include "template.h"

SG_TEMPLATE_API(elementwise)

static const char *const op_names[] = {"add", "mul", "max"};
static const char *const type_names[] = {"f32", "f16", "u32", "s32"};

static void plan_name(const void *p_, char *buf, size_t size) {
  const spvgen_elementwise_config *p = p_;
  unsigned op = (unsigned)p->desc.op;
  unsigned type = (unsigned)p->desc.type;
  snprintf(buf, size, "%s %s w%u", op < 3 ? op_names[op] : "?", type < 4 ? type_names[type] : "?", p->desc.local_size);
}

static const char *variant_name(const void *plan) {
  (void)plan;
  return "elementwise";
}

/* Each op in f32, and f16 where the device has it. */
static uint32_t examples(void *descs, const char **presets, uint32_t max) {
  static const struct {
    const char *preset;
    spvgen_elementwise_op op;
    spvgen_elementwise_type type;
  } rows[] = {
      {"vulkan13", SPVGEN_ELEMENTWISE_ADD, SPVGEN_ELEMENTWISE_F32},
      {"vulkan13", SPVGEN_ELEMENTWISE_MUL, SPVGEN_ELEMENTWISE_F32},
      {"vulkan13", SPVGEN_ELEMENTWISE_MAX, SPVGEN_ELEMENTWISE_F32},
      {"h100", SPVGEN_ELEMENTWISE_ADD, SPVGEN_ELEMENTWISE_F16},
  };
  uint32_t n = 0;
  for (; n < max && n < sizeof rows / sizeof rows[0]; n++) {
    spvgen_elementwise_desc *d = (spvgen_elementwise_desc *)descs + n;
    memset(d, 0, sizeof *d);
    d->op = rows[n].op;
    d->type = rows[n].type;
    presets[n] = rows[n].preset;
  }
  return n;
}

/* ------------------------------------------------------------ run and check ---- */
typedef struct ew_run_state {
  spvgen_component_type type;
  uint64_t n;
  void *a, *b, *c;
} ew_run_state;

static spvgen_component_type component(spvgen_elementwise_type t) {
  static const spvgen_component_type map[] = {SPVGEN_COMPONENT_F32, SPVGEN_COMPONENT_F16, SPVGEN_COMPONENT_U32,
                                              SPVGEN_COMPONENT_S32};
  return map[t];
}

/* n random nonzero elements: floats of magnitude [1/8, 1) (lib/ref), u32 in [1, 65535],
 * s32 in [-32768, 32767] without 0 (products and sums wrap as the device's do). */
static void *random_elements(uint64_t *seed, spvgen_component_type t, uint64_t n) {
  if (sg_ref_is_float(t)) return sg_ref_fill(seed, t, n);
  uint32_t *p = malloc(n * 4 + 4);
  for (uint64_t i = 0; p && i < n; i++) {
    uint32_t r = (uint32_t)(sg_ref_rng_next(seed) % 65535u) + 1u; /* 1 .. 65535 */
    p[i] = t == SPVGEN_COMPONENT_U32 ? r : (uint32_t)((int32_t)r - 32768 + (r <= 32768 ? -1 : 0));
  }
  return p;
}

static void ew_run_free(sg_run_data *data) {
  ew_run_state *s = data->state;
  if (!s) return;
  free(s->a);
  free(s->b);
  free(s->c);
  free(s);
  data->state = NULL;
}

/* rq->size elements (0: 100003, not a multiple of any local size: the last workgroup's
 * bound check runs); bindings a, b, c; n as the push constant. */
static spvgen_status ew_run_data(spvgen_vk_context *ctx, const void *plan, const sg_run_request *rq, sg_run_data *data,
                                 char *msg, size_t size) {
  const spvgen_elementwise_config *p = plan;
  uint64_t n = rq->size ? rq->size : 100003;
  uint64_t groups = (n + p->desc.local_size - 1) / p->desc.local_size;
  const spvgen_device_caps *caps = spvgen_vk_caps(ctx);
  if (n > 0xFFFFFFFFull || (caps->max_workgroup_count[0] && groups > caps->max_workgroup_count[0])) {
    snprintf(msg, size, "size %llu: needs %llu workgroups of %u; %s allows %u (a smaller --size)",
             (unsigned long long)n, (unsigned long long)groups, p->desc.local_size, caps->name,
             caps->max_workgroup_count[0]);
    return SPVGEN_ERROR_UNSUPPORTED;
  }
  ew_run_state *s = calloc(1, sizeof *s);
  if (!s) return snprintf(msg, size, "out of host memory"), SPVGEN_ERROR_OUT_OF_MEMORY;
  data->state = s;
  s->type = component(p->desc.type);
  s->n = n;
  uint64_t seed = rq->seed ? rq->seed : 0x5eede1e3ull;
  uint64_t bytes = n * spvgen_component_type_size(s->type);
  s->a = random_elements(&seed, s->type, n);
  s->b = random_elements(&seed, s->type, n);
  s->c = malloc(bytes + 4);
  if (!s->a || !s->b || !s->c)
    return snprintf(msg, size, "out of host memory for %llu elements", (unsigned long long)n), SPVGEN_ERROR_OUT_OF_MEMORY;
  data->buffers[0] = (sg_run_buffer){.role = SG_RUN_INPUT, .host = s->a, .bytes = bytes};
  data->buffers[1] = (sg_run_buffer){.role = SG_RUN_INPUT, .host = s->b, .bytes = bytes};
  data->buffers[2] = (sg_run_buffer){.role = SG_RUN_OUTPUT, .host = s->c, .bytes = bytes};
  data->buffer_count = 3;
  data->groups[0] = (uint32_t)groups;
  data->groups[1] = data->groups[2] = 1;
  uint32_t n32 = (uint32_t)n;
  memcpy(data->push, &n32, 4);
  data->push_size = 4;
  data->flops = (double)n;
  data->items = n;
  return SPVGEN_OK;
}

/* The float64 result of one element: the integers wrap at 32 bits as the device's do. */
static double ew_reference(spvgen_elementwise_op op, spvgen_component_type t, double x, double y) {
  if (t == SPVGEN_COMPONENT_U32 || t == SPVGEN_COMPONENT_S32) {
    uint32_t a = (uint32_t)(int64_t)x, b = (uint32_t)(int64_t)y;
    uint32_t r = op == SPVGEN_ELEMENTWISE_ADD ? a + b : a * b;
    if (op == SPVGEN_ELEMENTWISE_MAX) return x > y ? x : y;
    return t == SPVGEN_COMPONENT_U32 ? (double)r : (double)(int32_t)r;
  }
  return op == SPVGEN_ELEMENTWISE_ADD ? x + y : op == SPVGEN_ELEMENTWISE_MUL ? x * y : (x > y ? x : y);
}

/* Every element (sample: about that many, evenly spread) against the float64 result:
 * integers and max exact, a float add or mul within one unit in the last place of the
 * type (one rounding, either direction). */
static void ew_run_check(const void *plan, const sg_run_data *data, uint64_t sample, sg_check *check) {
  const spvgen_elementwise_config *p = plan;
  const ew_run_state *s = data->state;
  const uint64_t step = sample && s->n > sample ? s->n / sample : 1;
  const bool exact = !sg_ref_is_float(s->type) || p->desc.op == SPVGEN_ELEMENTWISE_MAX;
  for (uint64_t i = 0; i < s->n; i += step) {
    double ref = ew_reference(p->desc.op, s->type, sg_ref_get(s->a, s->type, i), sg_ref_get(s->b, s->type, i));
    double tol = exact ? 0.0 : 2.0 * sg_ref_unit(s->type) * (ref < 0 ? -ref : ref);
    sg_check_element(check, i, sg_ref_get(s->c, s->type, i), ref, tol);
  }
}

static void ew_run_where(const void *plan, const sg_run_data *data, uint64_t index, char *buf, size_t size) {
  (void)plan;
  (void)data;
  snprintf(buf, size, "element %llu", (unsigned long long)index);
}

/* ------------------------------------------------------------------ flags ---- */
static bool pick(const char *value, const char *const *names, unsigned count, unsigned *out, char *why, size_t size) {
  for (unsigned i = 0; i < count; i++)
    if (!strcmp(value, names[i])) return *out = i, true;
  char list[64] = "";
  for (unsigned i = 0; i < count; i++) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
  return sg_flag_bad(why, size, value, "is not one of %s", list);
}

static bool flag_op(void *desc, const char *value, char *why, size_t size) {
  unsigned v = 0;
  if (!pick(value, op_names, 3, &v, why, size)) return false;
  ((spvgen_elementwise_desc *)desc)->op = (spvgen_elementwise_op)v;
  return true;
}

static bool flag_type(void *desc, const char *value, char *why, size_t size) {
  unsigned v = 0;
  if (!pick(value, type_names, 4, &v, why, size)) return false;
  ((spvgen_elementwise_desc *)desc)->type = (spvgen_elementwise_type)v;
  return true;
}

static bool flag_local_size(void *desc, const char *value, char *why, size_t size) {
  return sg_flag_u32(value, 1, 1024, &((spvgen_elementwise_desc *)desc)->local_size, why, size);
}

static const sg_flag flags[] = {
    {"--op", "add|mul|max", "c[i] = a[i] OP b[i] (default add)", flag_op, 0},
    {"--type", "f32|f16|u32|s32", "the element type (default f32)", flag_type, 0},
    {"--local-size", "N", "invocations per workgroup, 1..1024 (default 64)", flag_local_size, 0},
    SG_FLAG_SWITCH("--glsl450", "a GLSL450-memory-model module (default: the Vulkan memory model)",
                   spvgen_elementwise_desc, glsl450_memory_model),
    {NULL, NULL, NULL, NULL, 0},
};

const sg_template sg_template_elementwise = {
    .name = "elementwise",
    .desc_size = sizeof(spvgen_elementwise_desc),
    .plan_size = sizeof(spvgen_elementwise_config),
    SG_TEMPLATE_API_FIELDS(elementwise),
    .plan_name = plan_name,
    .variant_name = variant_name,
    .examples = examples,
    .run_data = ew_run_data,
    .run_check = ew_run_check,
    .run_where = ew_run_where,
    .run_free = ew_run_free,
    .flags = flags,
    .summary = "c[i] = a[i] op b[i] over n elements (add, mul, max; f32, f16, u32, s32)",
    .example = "--op mul --type f16",
};
