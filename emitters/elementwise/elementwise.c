/* emitters/elementwise/elementwise.c — c[i] = a[i] <op> b[i]; see spvgen/elementwise.h.
 * The template contract in its smallest form: plan (pure), plans, emit into the
 * caller's module (shared pieces from emitters/common), one-shot with the metadata read
 * back from the words. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "error_private.h" /* lib/core: the one error formatter */
#include "spvgen/elementwise.h"

static spvgen_status fail(char *message, size_t size, spvgen_status st, const char *fn,
                          const char *fmt, ...) SG_PRINTF(5, 6);
static spvgen_status fail(char *message, size_t size, spvgen_status st, const char *fn,
                          const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(message, size, st, fn, fmt, ap);
  va_end(ap);
  return st;
}

static spvgen_component_type component(spvgen_elementwise_type t) {
  switch (t) {
  case SPVGEN_ELEMENTWISE_F16: return SPVGEN_COMPONENT_F16;
  case SPVGEN_ELEMENTWISE_U32: return SPVGEN_COMPONENT_U32;
  case SPVGEN_ELEMENTWISE_S32: return SPVGEN_COMPONENT_S32;
  default: return SPVGEN_COMPONENT_F32;
  }
}

static spvgen_status plan_one(const spvgen_elementwise_desc *desc, const spvgen_device_caps *caps,
                              spvgen_elementwise_config *plan, char *message, size_t size,
                              const char *fn) {
  spvgen_elementwise_desc d = desc ? *desc : (spvgen_elementwise_desc){0};
  if (!d.local_size) d.local_size = 64;
  if ((unsigned)d.op > SPVGEN_ELEMENTWISE_MAX)
    return fail(message, size, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "unknown op %d", (int)d.op);
  if ((unsigned)d.type > SPVGEN_ELEMENTWISE_S32)
    return fail(message, size, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "unknown type %d", (int)d.type);
  if (d.local_size > 1024)
    return fail(message, size, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "local_size %u is over 1024",
                d.local_size);
  uint64_t features = d.type == SPVGEN_ELEMENTWISE_F16
                          ? SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT
                          : 0;
  if (caps && spvgen_caps_check(caps, message, size) != SPVGEN_OK) return SPVGEN_ERROR_INVALID_ARGUMENT;
  /* The Vulkan memory model (the default) is a feature of its own. */
  if (!d.glsl450_memory_model) features |= SPVGEN_FEATURE_VULKAN_MEMORY_MODEL;
  if (caps) {
    if (d.local_size > caps->max_workgroup_invocations || d.local_size > caps->max_workgroup_size[0])
      return fail(message, size, SPVGEN_ERROR_UNSUPPORTED, fn,
                  "local_size %u exceeds the device's limit %u", d.local_size,
                  caps->max_workgroup_invocations);
    uint64_t missing = features & ~caps->features;
    if (missing)
      return fail(message, size, SPVGEN_ERROR_UNSUPPORTED, fn, "%s needs %s, which %s lacks",
                  d.type == SPVGEN_ELEMENTWISE_F16 ? "f16" : "the kernel",
                  spvgen_feature_name(spvgen_feature_first(missing)), caps->name);
  }
  plan->desc = d;
  plan->features = features;
  return SPVGEN_OK;
}

spvgen_status spvgen_elementwise_plan(const spvgen_elementwise_desc *desc,
                                      const spvgen_device_caps *caps,
                                      spvgen_elementwise_config *plan, char *message,
                                      size_t message_size) {
  if (message && message_size) message[0] = 0;
  if (!plan)
    return fail(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_elementwise_plan",
                "plan is NULL");
  memset(plan, 0, sizeof *plan);
  return plan_one(desc, caps, plan, message, message_size, "spvgen_elementwise_plan");
}

spvgen_status spvgen_elementwise_plans(const spvgen_elementwise_desc *desc,
                                       const spvgen_device_caps *caps,
                                       spvgen_elementwise_config *plans, uint32_t max,
                                       uint32_t *count, char *message, size_t message_size) {
  if (message && message_size) message[0] = 0;
  if (!count || (max && !plans))
    return fail(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_elementwise_plans",
                "count is NULL, or plans is NULL with max > 0");
  *count = 0;
  static const uint32_t sizes[] = {64, 128, 256, 32};
  spvgen_elementwise_desc d = desc ? *desc : (spvgen_elementwise_desc){0};
  spvgen_status first = SPVGEN_OK;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    if (d.local_size && d.local_size != sizes[i] && i > 0) continue;
    spvgen_elementwise_desc c = d;
    if (!d.local_size) c.local_size = sizes[i];
    spvgen_elementwise_config p;
    spvgen_status st = plan_one(&c, caps, &p, *count ? NULL : message, message_size, "spvgen_elementwise_plans");
    if (st != SPVGEN_OK) {
      if (first == SPVGEN_OK) first = st;
      continue;
    }
    if (*count < max) plans[*count] = p;
    ++*count;
    if (d.local_size) break;
  }
  if (*count && message && message_size) message[0] = 0;
  return *count ? SPVGEN_OK : first;
}

spvgen_status spvgen_elementwise_emit(spvgen_module *m, const spvgen_elementwise_config *plan,
                                      spvgen_kernel_info *info) {
  if (!m) return SPVGEN_ERROR_INVALID_ARGUMENT;
  if (!plan || !plan->desc.local_size)
    return spvgen_module_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT,
                              "spvgen_elementwise_emit: plan is NULL or not made by spvgen_elementwise_plan"),
           spvgen_module_status(m);
  const spvgen_elementwise_desc *d = &plan->desc;
  spvgen_component_type ct = component(d->type);
  uint32_t t = ek_type(m, ct);
  ek_buffer a = ek_buffer_decl(m, t, 0, true, "a");
  ek_buffer b = ek_buffer_decl(m, t, 1, true, "b");
  ek_buffer c = ek_buffer_decl(m, t, 2, false, "c");
  uint32_t gid = ek_builtin_v3(m, SpvBuiltInGlobalInvocationId);
  uint32_t u32 = ek_u32_type(m);
  static const char *const pc_names[1] = {"n"};
  spvgen_push_constant_block pc = ek_push_constants(m, &u32, pc_names, 1);

  spvgen_compute_main(m, "main", d->local_size, 1, 1);
  uint32_t i = ek_load_v3_component(m, gid, 0);
  uint32_t n = spvgen_push_constant_load(m, &pc, 0);
  ek_guard past_end = ek_guard_begin(m, spvgen_op_u_greater_than_equal(m, ek_bool_type(m), i, n));
  spvgen_return(m);
  ek_guard_end(m, past_end);
  uint32_t x = ek_load_elem(m, &a, i);
  uint32_t y = ek_load_elem(m, &b, i);
  bool is_float = ek_is_float(ct);
  uint32_t r = 0;
  switch (d->op) {
  case SPVGEN_ELEMENTWISE_ADD: r = is_float ? spvgen_op_f_add(m, t, x, y) : spvgen_op_i_add(m, t, x, y); break;
  case SPVGEN_ELEMENTWISE_MUL: r = is_float ? spvgen_op_f_mul(m, t, x, y) : spvgen_op_i_mul(m, t, x, y); break;
  case SPVGEN_ELEMENTWISE_MAX:
    r = is_float ? spvgen_glsl_n_max(m, t, x, y)
        : ek_is_signed(ct) ? spvgen_glsl_s_max(m, t, x, y)
                           : spvgen_glsl_u_max(m, t, x, y);
    break;
  }
  ek_store_elem(m, &c, i, r);
  spvgen_function_end(m);
  if (info) {
    memset(info, 0, sizeof *info);
    info->entry_point = "main";
    info->local_size[0] = d->local_size;
    info->local_size[1] = info->local_size[2] = 1;
    info->push_constant_size = 4;
    info->push_field_count = 1;
    info->push_fields[0].name = "n";
    info->push_fields[0].size = 4;
    static const char *const names[3] = {"a", "b", "c"};
    static const uint32_t access[3] = {SPVGEN_ACCESS_READ, SPVGEN_ACCESS_READ, SPVGEN_ACCESS_WRITE};
    ek_info_storage_buffers(info, 3, names, access);
    /* n elements of each, n a push constant. */
    info->binding_sizes = ek_sizes_per_count;
    for (uint32_t k = 0; k < 3; k++) info->size_args[k] = spvgen_component_type_size(ct);
  }
  return spvgen_module_status(m);
}

spvgen_status spvgen_elementwise(const spvgen_elementwise_desc *desc,
                                 const spvgen_device_caps *caps, spvgen_kernel *out,
                                 char *message, size_t message_size) {
  if (message && message_size) message[0] = 0;
  if (!out)
    return fail(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_elementwise", "out is NULL");
  memset(out, 0, sizeof *out);
  spvgen_elementwise_config plan;
  spvgen_status st = plan_one(desc, caps, &plan, message, message_size, "spvgen_elementwise");
  if (st != SPVGEN_OK) return st;
  spvgen_module_desc md = {0};
  if (plan.desc.glsl450_memory_model) md.memory_model = SpvMemoryModelGLSL450;
  spvgen_module *m = spvgen_module_create(&md);
  if (!m) return fail(message, message_size, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen_elementwise", "out of memory");
  spvgen_kernel_info info;
  st = spvgen_elementwise_emit(m, &plan, &info);
  return ek_kernel_finish(m, st, &info, out, "spvgen_elementwise", message, message_size);
}
