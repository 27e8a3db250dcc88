/* tests/support/coop_fixture.c — see coop_fixture.h. */
#include "coop_fixture.h"

#include <string.h>

#include "module_check.h"

coop_fixture coop_setup(const spvgen_module_desc *desc, unsigned flags) {
  coop_fixture f;
  memset(&f, 0, sizeof f);
  f.m = spvgen_module_create(desc);
  f.f16 = spvgen_type_float(f.m, 16);
  f.f32 = spvgen_type_float(f.m, 32);
  f.u32 = spvgen_type_int(f.m, 32, false);
  if (flags & COOP_FIXTURE_S32) f.s32 = spvgen_type_int(f.m, 32, true);
  f.buf16 = spvgen_storage_buffer(f.m, f.f16, 0, 0, false, &f.ptr16);
  f.buf32 = spvgen_storage_buffer(f.m, f.f32, 0, 1, false, &f.ptr32);
  return f;
}

void coop_main(coop_fixture *f, uint32_t local_x) {
  spvgen_compute_main(f->m, "main", local_x, 1, 1);
}

coop_fixture coop_begin(uint32_t local_x, unsigned flags) {
  coop_fixture f = coop_setup(NULL, flags);
  coop_main(&f, local_x);
  return f;
}

uint32_t coop_element(coop_fixture *f, uint32_t buf, uint32_t ptr_type, uint32_t index) {
  uint32_t idx[2] = {spvgen_const_u32(f->m, 0), spvgen_const_u32(f->m, index)};
  return spvgen_access_chain(f->m, ptr_type, buf, idx, 2);
}

uint32_t coop_named(spvgen_module *m, uint32_t id, const char *name) {
  spvgen_name(m, id, name);
  return id;
}

void coop_finish_and_match_at(const char *file, int line, coop_fixture *f,
                              const char *const *lines, int n) {
  spvgen_function_end(f->m);
  size_t count = 0;
  const uint32_t *words = check_module_at(file, line, f->m, &count);
  char *text = words ? check_disassemble_at(file, line, words, count) : NULL;
  check_has_lines_at(file, line, text, lines, n);
  spvgen_free_text(text);
  spvgen_module_destroy(f->m);
}
