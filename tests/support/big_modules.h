/* tests/support/big_modules.h — valid modules built with spvgen whose size makes a
 * reader's complexity visible (the runner's reader / spvgen_kernel_reflect). */
#ifndef SPVGEN_TEST_BIG_MODULES_H
#define SPVGEN_TEST_BIG_MODULES_H

#include <stdbool.h>
#include <stdint.h>

#include "spvgen/builder.h"

/* A storage buffer (set 0, binding 0) whose Block struct has n members, each a struct of
 * n u32 members at offsets 0, 4, ...; member s of the block at offset 4*n*s. distinct:
 * n different inner structs (n*n members in all); else one inner struct n times. The
 * block's size is 4*n*n bytes. Adds an empty compute "main" (local size 1). The module's
 * status says whether it worked. */
void build_struct_block(spvgen_module *m, uint32_t n, bool distinct);

/* Seconds since an arbitrary point (C11 timespec_get), for coarse time limits. */
double test_seconds(void);

#endif
