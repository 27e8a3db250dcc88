/* lib/core/decl.c — module-level declarations of the hand-written API (spvgen/builder.h):
 * variables (storage buffers, built-in inputs), decorations and names, extended
 * instruction set imports, entry points and execution modes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"

/* --------------------------------------------------------------- variables ---- */

uint32_t spvgen_variable(spvgen_module *m, uint32_t pointer_type, SpvStorageClass storage,
                         uint32_t initializer) {
  if (!sg_ok(m, __func__)) return 0;
  const uint32_t *d = sg_def_words(m, pointer_type);
  if (sg_op_of(m, pointer_type) != SpvOpTypePointer || !sg_is_type(m, pointer_type))
    return BAD(m, "type %u is not a pointer type: it is %s", pointer_type, IDN(m, pointer_type));
  if (d[2] != (uint32_t)storage)
    return BAD(m, "pointer type %u (%s) has storage class %u, the variable %u", pointer_type,
               TN(m, pointer_type), d[2], (uint32_t)storage);
  if (initializer && spvgen_type_of(m, initializer) != d[3])
    return BAD(m, "initializer %u is not of the pointee type %u: it is %s, the pointee %s",
               initializer, d[3], IDN(m, initializer), TN(m, d[3]));
  uint32_t ops[4] = {pointer_type, 0, (uint32_t)storage, initializer};
  return sg_inst(m, __func__, SpvOpVariable, ops, initializer ? 4 : 3);
}

uint32_t spvgen_storage_buffer(spvgen_module *m, uint32_t element_type, uint32_t set,
                               uint32_t binding, bool readonly, uint32_t *element_pointer_type) {
  if (element_pointer_type) *element_pointer_type = 0;
  if (!sg_ok(m, __func__) || !sg_need_type(m, __func__, element_type, "element type")) return 0;
  uint64_t size, align;
  bool overflow = false;
  if (!sg_std430_layout(m, element_type, &size, &align, true, &overflow))
    return overflow ? BAD(m, "element type %u (%s) is larger than 2^64 bytes", element_type, TN(m, element_type))
                    : BAD(m, "element type %u (%s) has no explicit layout (use a scalar, a vector, or "
                             "an array from spvgen_type_array_strided of those)", element_type, TN(m, element_type));
  uint64_t stride = (size + align - 1) / align * align; /* std430: round up to the alignment */
  if (size > UINT32_MAX || stride > UINT32_MAX)
    return BAD(m, "element type %u is %llu bytes; a buffer element's ArrayStride is at most "
                  "%u", element_type, (unsigned long long)size, UINT32_MAX);
  const char *outer = sg_api_enter(m, __func__);
  uint32_t rta = spvgen_type_runtime_array_strided(m, element_type, (uint32_t)stride);
  uint32_t st = spvgen_type_struct(m, &rta, 1);
  spvgen_decorate(m, st, SpvDecorationBlock);
  spvgen_member_decorate1(m, st, 0, SpvDecorationOffset, 0);
  if (readonly) spvgen_member_decorate(m, st, 0, SpvDecorationNonWritable);
  uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, st);
  uint32_t var = spvgen_variable(m, ptr, SpvStorageClassStorageBuffer, 0);
  spvgen_decorate1(m, var, SpvDecorationDescriptorSet, set);
  spvgen_decorate1(m, var, SpvDecorationBinding, binding);
  uint32_t ep = spvgen_type_pointer(m, SpvStorageClassStorageBuffer, element_type);
  sg_api_leave(m, outer);
  if (m->status != SPVGEN_OK) return 0;
  if (element_pointer_type) *element_pointer_type = ep;
  return var;
}

uint32_t spvgen_builtin_input(spvgen_module *m, SpvBuiltIn builtin, uint32_t type) {
  const char *outer = sg_api_enter(m, __func__);
  uint32_t ptr = spvgen_type_pointer(m, SpvStorageClassInput, type);
  uint32_t var = spvgen_variable(m, ptr, SpvStorageClassInput, 0);
  sg_api_leave(m, outer);
  /* Through sg_inst under this call's name: a built-in Vulkan cannot have is named here. */
  if (var) {
    const uint32_t ops[3] = {var, SpvDecorationBuiltIn, (uint32_t)builtin};
    sg_inst(m, __func__, SpvOpDecorate, ops, 3);
  }
  return m && m->status == SPVGEN_OK ? var : 0;
}

/* ----------------------------------------------------- decorations & names ---- */

/* Decorations whose parameters are all literal integers (Binding, Offset, SpecId,
 * ArrayStride, Block, ...) are checked here and appended directly; the rest take the
 * general path. ops: target [member] decoration args...; dec_at: index of the
 * decoration word. Returns false to fall back. */
SG_HOT bool decorate_fast(spvgen_module *m, const char *fn, uint32_t opcode, const uint32_t *ops,
                          uint32_t n, uint32_t dec_at) {
  if (!ops[0] || ops[0] >= m->bound) return false;
  const sg_enumerant *e = sg_find_enumerant_m(m, SG_KIND_Decoration, ops[dec_at]);
  if (!e || e->params_n != n - dec_at - 1) return false;
  for (uint32_t i = 0; i < e->params_n; i++)
    if (sg_param_pool[e->params_off + i] != SG_KIND_LiteralInteger) return false;
  sg_require_enum_item(m, fn, SG_KIND_Decoration, e); /* as sg_require_enumerant, found once */
  if (m->status != SPVGEN_OK) return true; /* failed */
  return sg_append(m, SG_SEC_ANNOTATIONS, opcode, ops, n) || m->status != SPVGEN_OK;
}

void spvgen_decorate_n(spvgen_module *m, uint32_t target, SpvDecoration decoration,
                       const uint32_t *args, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if (count && !args) {
    BAD(m, "args is NULL with count %u", count);
    return;
  }
  if (count > 16) {
    BAD(m, "%u decoration arguments is too many", count);
    return;
  }
  uint32_t ops[18];
  ops[0] = target;
  ops[1] = (uint32_t)decoration;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = args[i];
  if (!decorate_fast(m, __func__, SpvOpDecorate, ops, 2 + count, 1))
    sg_inst(m, __func__, SpvOpDecorate, ops, 2 + count);
  if (decoration == SpvDecorationNonWritable) sg_mark_nonwritable(m, target);
}

void spvgen_decorate(spvgen_module *m, uint32_t target, SpvDecoration decoration) {
  const char *outer = sg_api_enter(m, __func__);
  spvgen_decorate_n(m, target, decoration, NULL, 0);
  sg_api_leave(m, outer);
}

void spvgen_decorate1(spvgen_module *m, uint32_t target, SpvDecoration decoration, uint32_t value) {
  const char *outer = sg_api_enter(m, __func__);
  spvgen_decorate_n(m, target, decoration, &value, 1);
  sg_api_leave(m, outer);
}

void spvgen_decorate_id(spvgen_module *m, uint32_t target, SpvDecoration decoration,
                        const uint32_t *ids, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if ((count && !ids) || count > 16) {
    BAD(m, "bad id list (count %u)", count);
    return;
  }
  uint32_t ops[18];
  ops[0] = target;
  ops[1] = (uint32_t)decoration;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = ids[i];
  sg_inst(m, __func__, SpvOpDecorateId, ops, 2 + count);
}

static bool check_member(spvgen_module *m, const char *fn, uint32_t struct_type, uint32_t member) {
  if (sg_op_of(m, struct_type) != SpvOpTypeStruct) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "id %u is not a struct type: it is %s", struct_type,
            IDN(m, struct_type));
    return false;
  }
  const uint32_t *d = sg_def_words(m, struct_type);
  if (member >= (d[0] >> 16) - 2) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "struct %u has %u members; member %u does not exist",
            struct_type, (d[0] >> 16) - 2, member);
    return false;
  }
  return true;
}

void spvgen_member_decorate1(spvgen_module *m, uint32_t struct_type, uint32_t member,
                             SpvDecoration decoration, uint32_t value) {
  if (!sg_ok(m, __func__) || !check_member(m, __func__, struct_type, member)) return;
  uint32_t ops[4] = {struct_type, member, (uint32_t)decoration, value};
  if (!decorate_fast(m, __func__, SpvOpMemberDecorate, ops, 4, 2))
    sg_inst(m, __func__, SpvOpMemberDecorate, ops, 4);
}

void spvgen_member_decorate(spvgen_module *m, uint32_t struct_type, uint32_t member,
                            SpvDecoration decoration) {
  if (!sg_ok(m, __func__) || !check_member(m, __func__, struct_type, member)) return;
  uint32_t ops[3] = {struct_type, member, (uint32_t)decoration};
  if (!decorate_fast(m, __func__, SpvOpMemberDecorate, ops, 3, 2))
    sg_inst(m, __func__, SpvOpMemberDecorate, ops, 3);
  if (decoration == SpvDecorationNonWritable) sg_mark_nonwritable(m, struct_type);
}

/* Packs prefix words + a NUL-terminated string into ops (a caller's stack buffer of
 * `cap` words, or a malloc'd one when too small: *heap says which). */
static uint32_t *string_ops(spvgen_module *m, const char *fn, const uint32_t *prefix, uint32_t np,
                            const char *s, uint32_t *stack, uint32_t cap, uint32_t *n, bool *heap) {
  *heap = false;
  if (!s) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "name is NULL");
    return NULL;
  }
  size_t len = strlen(s), nw = len / 4 + 1;
  if (nw > 60000) {
    sg_fail(m, SPVGEN_ERROR_INVALID_ARGUMENT, fn, "name is too long");
    return NULL;
  }
  uint32_t *ops = stack;
  if (np + nw > cap) {
    ops = malloc((np + nw) * sizeof *ops);
    if (!ops) {
      sg_fail(m, SPVGEN_ERROR_OUT_OF_MEMORY, fn, "out of memory");
      return NULL;
    }
    *heap = true;
  }
  memcpy(ops, prefix, np * sizeof *ops);
  ops[np + nw - 1] = 0; /* the padding of the last word */
  memcpy(ops + np, s, len);
  *n = (uint32_t)(np + nw);
  return ops;
}

void spvgen_name(spvgen_module *m, uint32_t target, const char *name) {
  if (!sg_ok(m, __func__)) return;
  uint32_t stack[32], n;
  bool heap;
  uint32_t *ops = string_ops(m, __func__, &target, 1, name, stack, 32, &n, &heap);
  if (!ops) return;
  sg_inst(m, __func__, SpvOpName, ops, n);
  if (heap) free(ops);
}

void spvgen_member_name(spvgen_module *m, uint32_t struct_type, uint32_t member, const char *name) {
  if (!sg_ok(m, __func__) || !check_member(m, __func__, struct_type, member)) return;
  uint32_t pre[2] = {struct_type, member};
  uint32_t stack[32], n;
  bool heap;
  uint32_t *ops = string_ops(m, __func__, pre, 2, name, stack, 32, &n, &heap);
  if (!ops) return;
  sg_inst(m, __func__, SpvOpMemberName, ops, n);
  if (heap) free(ops);
}

uint32_t spvgen_ext_inst_import(spvgen_module *m, const char *name) {
  if (!sg_ok(m, __func__)) return 0;
  uint32_t zero = 0, stack[32], n;
  bool heap;
  uint32_t *ops = string_ops(m, __func__, &zero, 1, name, stack, 32, &n, &heap);
  if (!ops) return 0;
  uint32_t id = sg_inst(m, __func__, SpvOpExtInstImport, ops, n);
  if (heap) free(ops);
  return id;
}

uint32_t spvgen_glsl_std_450(spvgen_module *m) {
  if (!sg_ok(m, __func__)) return 0; /* sticky errors: 0 once the module failed */
  const char *outer = sg_api_enter(m, __func__);
  if (!m->glsl_set) m->glsl_set = spvgen_ext_inst_import(m, "GLSL.std.450");
  sg_api_leave(m, outer);
  return m->glsl_set;
}

/* ---------------------------------------------------------- entry points ---- */

void spvgen_entry_point(spvgen_module *m, SpvExecutionModel model, uint32_t function,
                        const char *name, const uint32_t *interface, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if (!name || !*name) {
    BAD(m, "entry point name is empty");
    return;
  }
  size_t name_len = strlen(name);
  uint64_t words = 3 + (uint64_t)(name_len / 4 + 1) + (count != SPVGEN_ABSENT ? count : 0);
  if (words > SG_INSTRUCTION_WORDS_MAX) {
    BAD(m, "OpEntryPoint would be %llu words (a %zu-byte name, %u interface variables); an "
           "instruction has at most %u words",
        (unsigned long long)words, name_len, count != SPVGEN_ABSENT ? count : 0,
        SG_INSTRUCTION_WORDS_MAX);
    return;
  }
  const sg_id_info *fi = sg_id(m, function);
  if (!fi) {
    BAD(m, "function id %u was never allocated", function);
    return;
  }
  if (count != SPVGEN_ABSENT) {
    if (count && !interface) {
      BAD(m, "interface is NULL with count %u", count);
      return;
    }
    for (uint32_t i = 0; i < count; i++)
      if (!sg_id(m, interface[i]) || m->ids[interface[i]].opcode != SpvOpVariable) {
        BAD(m, "interface id %u is not a global variable", interface[i]);
        return;
      }
  }
  if (fi->kind != SG_ID_FUNCTION && fi->kind != SG_ID_RESERVED) {
    BAD(m, "id %u is not a function", function);
    return;
  }
  for (uint32_t i = 0; i < m->entries_n; i++)
    if (m->entries[i].model == (uint32_t)model && !strcmp(m->strings + m->entries[i].name_off, name)) {
      BAD(m, "an entry point named \"%s\" with execution model %s exists already (SPIR-V "
             "OpEntryPoint: the name and execution model pair must be unique)",
          name, sg_enumerant_name(SG_KIND_ExecutionModel, (uint32_t)model)
                    ? sg_enumerant_name(SG_KIND_ExecutionModel, (uint32_t)model)
                    : "?");
      return;
    }
  size_t len = strlen(name) + 1;
  if (!sg_grow(&m->entries, &m->entries_cap, (size_t)m->entries_n + 1, sizeof *m->entries, 4, SIZE_MAX) ||
      !sg_grow(&m->strings, &m->strings_cap, m->strings_len + len, 1, 256, SIZE_MAX)) {
    FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
    return;
  }
  memcpy(m->strings + m->strings_len, name, len);
  sg_entry *e = &m->entries[m->entries_n];
  e->model = (uint32_t)model;
  e->function = function;
  e->name_off = (uint32_t)m->strings_len;
  e->iface_n = count;
  e->iface_off = 0;
  if (count != SPVGEN_ABSENT && count) {
    e->iface_off = (uint32_t)m->arena.len;
    if (!sg_grow(&m->arena.data, &m->arena.cap, m->arena.len + count, sizeof *m->arena.data, 256,
                 SIZE_MAX)) {
      FAIL(m, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
      return;
    }
    memcpy(m->arena.data + m->arena.len, interface, count * sizeof *m->arena.data);
    m->arena.len += count;
  }
  m->strings_len += len;
  m->entries_n++;
  /* ExecutionModel enumerants carry capabilities (GLCompute -> Shader). */
  const sg_enumerant *en = sg_find_enumerant(SG_KIND_ExecutionModel, (uint32_t)model);
  if (!en) {
    BAD(m, "%u is not an ExecutionModel", (uint32_t)model);
    return;
  }
  if (en->caps_n) sg_require_capability(m, sg_cap_pool[en->caps_off]);
}

void spvgen_execution_mode(spvgen_module *m, uint32_t entry, SpvExecutionMode mode,
                           const uint32_t *args, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if ((count && !args) || count > 16) {
    BAD(m, "bad argument list (count %u)", count);
    return;
  }
  uint32_t ops[18];
  ops[0] = entry;
  ops[1] = (uint32_t)mode;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = args[i];
  sg_inst(m, __func__, SpvOpExecutionMode, ops, 2 + count);
}

void spvgen_execution_mode_id(spvgen_module *m, uint32_t entry, SpvExecutionMode mode,
                              const uint32_t *ids, uint32_t count) {
  if (!sg_ok(m, __func__)) return;
  if ((count && !ids) || count > 16) {
    BAD(m, "bad id list (count %u)", count);
    return;
  }
  uint32_t ops[18];
  ops[0] = entry;
  ops[1] = (uint32_t)mode;
  for (uint32_t i = 0; i < count; i++) ops[2 + i] = ids[i];
  sg_inst(m, __func__, SpvOpExecutionModeId, ops, 2 + count);
}

void spvgen_local_size(spvgen_module *m, uint32_t entry, uint32_t x, uint32_t y, uint32_t z) {
  if (!sg_ok(m, __func__)) return;
  if (!x || !y || !z) {
    BAD(m, "local size %ux%ux%u has a zero dimension", x, y, z);
    return;
  }
  uint32_t args[3] = {x, y, z};
  const char *outer = sg_api_enter(m, __func__);
  spvgen_execution_mode(m, entry, SpvExecutionModeLocalSize, args, 3);
  sg_api_leave(m, outer);
}
