/* tests/support/coop_fixture.h — what the cooperative helper tests (tests/coop) share: a
 * module with float16/float32 storage buffers and main() open, naming an id for the
 * disassembly, and ending a module by validating it and matching disassembly lines.
 *
 * coop_finish_and_match is a macro that records the caller's file and line. */
#ifndef SPVGEN_TEST_COOP_FIXTURE_H
#define SPVGEN_TEST_COOP_FIXTURE_H

#include <stdint.h>

#include "spvgen/builder.h"

typedef struct coop_fixture {
  spvgen_module *m;
  uint32_t f16, f32, u32;
  uint32_t s32;          /* 0 unless COOP_FIXTURE_S32 */
  uint32_t buf16, ptr16; /* storage buffer of float16 (set 0, binding 0), element pointer type */
  uint32_t buf32, ptr32; /* storage buffer of float32 (set 0, binding 1) */
} coop_fixture;

/* coop_setup flags. */
enum { COOP_FIXTURE_S32 = 1u }; /* declare int32 after uint32 */

/* A module (desc may be NULL) with the types and two buffers, in that order; main() is not
 * begun (callback functions may come first). */
coop_fixture coop_setup(const spvgen_module_desc *desc, unsigned flags);
/* Begins main() with local size local_x x 1 x 1. */
void coop_main(coop_fixture *f, uint32_t local_x);
/* coop_setup(NULL, flags) then coop_main(local_x). */
coop_fixture coop_begin(uint32_t local_x, unsigned flags);

/* &buf.data[index] (ptr_type: the buffer's element pointer type). */
uint32_t coop_element(coop_fixture *f, uint32_t buf, uint32_t ptr_type, uint32_t index);

/* Names id (OpName) and returns it. */
uint32_t coop_named(spvgen_module *m, uint32_t id, const char *name);

/* Ends main, checks that the module validates, disassembles it, checks that it has
 * `lines` (module_check's check_has_lines) and destroys it. */
#define coop_finish_and_match(f, lines, n) coop_finish_and_match_at(__FILE__, __LINE__, (f), (lines), (n))
void coop_finish_and_match_at(const char *file, int line, coop_fixture *f,
                              const char *const *lines, int n);

#endif
