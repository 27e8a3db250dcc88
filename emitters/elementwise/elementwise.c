/* emitters/elementwise/elementwise.c — c[i] = a[i] <op> b[i]; see spvgen/elementwise.h.
 * Structure shared by every template: check parameters against the device, build with
 * the builder, finish, copy the words out with the metadata. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spvgen/builder.h"
#include "spvgen/elementwise.h"

static spvgen_status fail(char *message, size_t size, spvgen_status st, const char *fmt, ...) {
  if (message && size) {
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(message, size, "spvgen_elementwise: ");
    if (n > 0 && (size_t)n < size) vsnprintf(message + n, size - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return st;
}

spvgen_status spvgen_elementwise(const spvgen_elementwise_desc *desc,
                                 const spvgen_device_caps *caps, spvgen_kernel *out,
                                 char *message, size_t message_size) {
  if (message && message_size) message[0] = 0;
  if (!out) return fail(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "out is NULL");
  memset(out, 0, sizeof *out);
  spvgen_elementwise_desc d = desc ? *desc : (spvgen_elementwise_desc){0};
  if (!d.local_size) d.local_size = 64;
  if ((unsigned)d.op > SPVGEN_ELEMENTWISE_MAX)
    return fail(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "unknown op %d", (int)d.op);
  if ((unsigned)d.type > SPVGEN_ELEMENTWISE_S32)
    return fail(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "unknown type %d", (int)d.type);
  if (d.local_size > 1024)
    return fail(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT,
                "local_size %u is over 1024", d.local_size);
  if (caps) {
    if (d.local_size > caps->max_workgroup_invocations || d.local_size > caps->max_workgroup_size[0])
      return fail(message, message_size, SPVGEN_ERROR_UNSUPPORTED,
                  "local_size %u exceeds the device's limit %u", d.local_size,
                  caps->max_workgroup_invocations);
    if (d.type == SPVGEN_ELEMENTWISE_F16 &&
        !spvgen_caps_has(caps, SPVGEN_FEATURE_FLOAT16 | SPVGEN_FEATURE_STORAGE_BUFFER_16BIT))
      return fail(message, message_size, SPVGEN_ERROR_UNSUPPORTED,
                  "f16 needs shaderFloat16 and storageBuffer16BitAccess, which %s lacks", caps->name);
  }

  spvgen_module_desc md = {0};
  if (d.glsl450_memory_model) md.memory_model = SpvMemoryModelGLSL450;
  spvgen_module *m = spvgen_module_create(&md);
  if (!m) return fail(message, message_size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  uint32_t u32 = spvgen_type_int(m, 32, false);
  uint32_t t;
  switch (d.type) {
  case SPVGEN_ELEMENTWISE_F16: t = spvgen_type_float(m, 16); break;
  case SPVGEN_ELEMENTWISE_U32: t = u32; break;
  case SPVGEN_ELEMENTWISE_S32: t = spvgen_type_int(m, 32, true); break;
  default: t = spvgen_type_float(m, 32); break;
  }
  uint32_t elem_ptr;
  uint32_t a = spvgen_storage_buffer(m, t, 0, 0, true, &elem_ptr);
  uint32_t b = spvgen_storage_buffer(m, t, 0, 1, true, NULL);
  uint32_t c = spvgen_storage_buffer(m, t, 0, 2, false, NULL);
  spvgen_name(m, a, "a");
  spvgen_name(m, b, "b");
  spvgen_name(m, c, "c");
  uint32_t v3 = spvgen_type_vector(m, u32, 3);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3);
  uint32_t pc_t = spvgen_type_struct(m, &u32, 1);
  spvgen_decorate(m, pc_t, SpvDecorationBlock);
  spvgen_member_decorate1(m, pc_t, 0, SpvDecorationOffset, 0);
  spvgen_member_name(m, pc_t, 0, "n");
  uint32_t pc = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, pc_t),
                                SpvStorageClassPushConstant, 0);

  spvgen_compute_main(m, "main", d.local_size, 1, 1);
  uint32_t zero = spvgen_const_u32(m, 0);
  uint32_t lit0 = 0; /* OpCompositeExtract takes literal indices */
  uint32_t i = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3, gid), &lit0, 1);
  uint32_t n = spvgen_load(m, u32, spvgen_access_chain(m, spvgen_type_pointer(m, SpvStorageClassPushConstant, u32), pc, &zero, 1));
  spvgen_if(m, spvgen_op_u_greater_than_equal(m, spvgen_type_bool(m), i, n));
  spvgen_return(m);
  spvgen_end_if(m);
  uint32_t idx[2] = {zero, i};
  uint32_t x = spvgen_load(m, t, spvgen_access_chain(m, elem_ptr, a, idx, 2));
  uint32_t y = spvgen_load(m, t, spvgen_access_chain(m, elem_ptr, b, idx, 2));
  bool is_float = d.type == SPVGEN_ELEMENTWISE_F32 || d.type == SPVGEN_ELEMENTWISE_F16;
  uint32_t r = 0;
  switch (d.op) {
  case SPVGEN_ELEMENTWISE_ADD: r = is_float ? spvgen_op_f_add(m, t, x, y) : spvgen_op_i_add(m, t, x, y); break;
  case SPVGEN_ELEMENTWISE_MUL: r = is_float ? spvgen_op_f_mul(m, t, x, y) : spvgen_op_i_mul(m, t, x, y); break;
  case SPVGEN_ELEMENTWISE_MAX:
    r = is_float ? spvgen_glsl_n_max(m, t, x, y)
        : d.type == SPVGEN_ELEMENTWISE_S32 ? spvgen_glsl_s_max(m, t, x, y)
                                           : spvgen_glsl_u_max(m, t, x, y);
    break;
  }
  spvgen_store(m, spvgen_access_chain(m, elem_ptr, c, idx, 2), r);
  spvgen_function_end(m);

  const uint32_t *words;
  size_t count;
  spvgen_status st = spvgen_module_finish(m, &words, &count);
  if (st != SPVGEN_OK) {
    fail(message, message_size, st, "builder: %s", spvgen_module_error(m));
    spvgen_module_destroy(m);
    return st;
  }
  out->words = malloc(count * sizeof *words);
  if (!out->words) {
    spvgen_module_destroy(m);
    return fail(message, message_size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  memcpy(out->words, words, count * sizeof *words);
  out->word_count = count;
  spvgen_module_destroy(m);

  spvgen_kernel_info *info = &out->info;
  info->entry_point = "main";
  info->local_size[0] = d.local_size;
  info->local_size[1] = info->local_size[2] = 1;
  info->push_constant_size = 4;
  info->binding_count = 3;
  static const char *const names[3] = {"a", "b", "c"};
  for (uint32_t k = 0; k < 3; k++)
    info->bindings[k] = (spvgen_binding){0, k, SPVGEN_BINDING_STORAGE_BUFFER, names[k]};
  return SPVGEN_OK;
}
