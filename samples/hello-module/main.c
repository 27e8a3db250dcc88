/* samples/hello-module — the builder in 30 lines: a compute kernel that doubles every
 * element of a float buffer (data[i] *= 2), finished into SPIR-V words, validated with
 * Vulkan 1.3 rules and printed as assembly. No device needed.
 *
 *   build/samples/hello-module            prints the disassembly, exit 0 */
#include <stdio.h>

#include <spvgen/spvgen.h>

int main(void) {
  spvgen_module *m = spvgen_module_create(NULL); /* SPIR-V 1.6, Vulkan memory model */
  uint32_t f32 = spvgen_type_float(m, 32), u32 = spvgen_type_int(m, 32, false);
  uint32_t v3u = spvgen_type_vector(m, u32, 3);
  /* set 0, binding 0: a runtime array of float; elem_ptr is its element pointer type */
  uint32_t elem_ptr, data = spvgen_storage_buffer(m, f32, 0, 0, false, &elem_ptr);
  uint32_t gid = spvgen_builtin_input(m, SpvBuiltInGlobalInvocationId, v3u);

  spvgen_compute_main(m, "main", 64, 1, 1); /* entry point + LocalSize 64 1 1 */
  uint32_t x = 0, i = spvgen_op_composite_extract(m, u32, spvgen_load(m, v3u, gid), &x, 1);
  uint32_t idx[2] = {spvgen_const_u32(m, 0), i}; /* member 0 of the block, element i */
  uint32_t p = spvgen_access_chain(m, elem_ptr, data, idx, 2);
  spvgen_store(m, p, spvgen_op_f_mul(m, f32, spvgen_load(m, f32, p), spvgen_const_f32(m, 2.0f)));
  spvgen_function_end(m);

  const uint32_t *words;
  size_t count;
  char message[4096];
  char *text = NULL;
  int rc = 1;
  if (spvgen_module_finish(m, &words, &count) != SPVGEN_OK)
    fprintf(stderr, "hello-module: %s\n", spvgen_module_error(m)); /* names the call and the rule */
  else if (spvgen_validate(words, count, NULL, message, sizeof message) != SPVGEN_OK)
    fprintf(stderr, "hello-module: invalid: %s\n", message);
  else if (spvgen_disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_INDENT, &text,
                              message, sizeof message) != SPVGEN_OK)
    fprintf(stderr, "hello-module: %s\n", message);
  else {
    printf("%s; %zu words, valid for Vulkan 1.3\n", text, count);
    rc = 0;
  }
  spvgen_free_text(text);
  spvgen_module_destroy(m);
  return rc;
}
