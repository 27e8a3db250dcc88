/* lib/core/api_internal.h — what the hand-written API files (types.c, decl.c, function.c,
 * helpers.c) share: error macros that name the calling function, text of types and ids
 * for messages, and small id queries. Not public. */
#ifndef SPVGEN_CORE_API_INTERNAL_H
#define SPVGEN_CORE_API_INTERNAL_H

#include "internal.h"

#define FAIL(m, st, ...) sg_fail((m), (st), __func__, __VA_ARGS__)
#define BAD(m, ...) sg_fail((m), SPVGEN_ERROR_INVALID_ARGUMENT, __func__, __VA_ARGS__)
#define STATE(m, ...) sg_fail((m), SPVGEN_ERROR_INVALID_STATE, __func__, __VA_ARGS__)
/* Type and id text for messages (spvgen_type_name / spvgen_id_name; one buffer per use). */
#define TN(m, t) spvgen_type_name((m), (t), (char[192]){0}, 192)
#define IDN(m, id) spvgen_id_name((m), (id), (char[224]){0}, 224)

/* The opcode that defined id (0 when none). */
static inline uint32_t sg_op_of(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = m ? sg_id(m, id) : NULL;
  return i && i->kind > SG_ID_RESERVED ? i->opcode : 0;
}

static inline bool sg_is_type(const spvgen_module *m, uint32_t id) {
  const sg_id_info *i = m ? sg_id(m, id) : NULL;
  return i && i->kind == SG_ID_TYPE;
}

/* false (with "<what> (id N) is not a type: it is ..." under fn) unless id is a type. */
bool sg_need_type(spvgen_module *m, const char *fn, uint32_t id, const char *what);

/* std430 size and alignment of type (types.c); need_stride: arrays need an ArrayStride.
 * false when the type has no explicit layout or (*overflow set) is over 2^64 bytes. */
bool sg_std430_layout(const spvgen_module *m, uint32_t type, uint64_t *size, uint64_t *align,
                      bool need_stride, bool *overflow);

#endif
