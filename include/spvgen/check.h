/* spvgen/check.h — validation, disassembly and assembly of SPIR-V words, in process,
 * through the SPIRV-Tools C API.
 *
 * Every function takes any input without crashing: NULL pointers, short or malformed
 * binaries and hostile headers come back as a status plus a message. Nothing prints.
 * No state is shared between calls (each makes its own SPIRV-Tools context), so they
 * may run on several threads at once. */
#ifndef SPVGEN_CHECK_H
#define SPVGEN_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "spvgen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
SPVGEN_API_BEGIN

typedef enum spvgen_target_env {
  SPVGEN_ENV_VULKAN_1_3 = 0, /* the default */
  SPVGEN_ENV_VULKAN_1_4,
  SPVGEN_ENV_VULKAN_1_2,
  SPVGEN_ENV_VULKAN_1_1,
  SPVGEN_ENV_UNIVERSAL_1_6,
} spvgen_target_env;

/* "vulkan1.3", "vulkan1.4", "vulkan1.2", "vulkan1.1", "universal1.6" (the names
 * spirv-val uses); "unknown" for a value outside the enum. Never NULL. */
const char *spvgen_target_env_name(spvgen_target_env env);
/* The reverse of spvgen_target_env_name. SPVGEN_ERROR_INVALID_ARGUMENT for an unknown
 * or NULL name (*env untouched). */
spvgen_status spvgen_target_env_parse(const char *name, spvgen_target_env *env);

typedef struct spvgen_validate_options {
  spvgen_target_env env;
  int relax_block_layout;   /* VK_KHR_relaxed_block_layout rules */
  int scalar_block_layout;  /* VK_EXT_scalar_block_layout rules */
} spvgen_validate_options;

/* The largest module spvgen_validate and spvgen_disassemble take, in words (4 MiB).
 * SPIRV-Tools 2025.1 holds about 45 bytes per word while it validates (a 16 MiB module
 * peaks near 700 MB), so a larger module is refused with SPVGEN_ERROR_OUT_OF_MEMORY
 * before SPIRV-Tools sees it: an embedded caller's memory stays bounded (about 200 MB
 * at this limit) whatever words it is handed. spvgen's own kernels are under 64 KiB. */
#define SPVGEN_VALIDATE_MAX_WORDS ((size_t)1 << 20)

/* Validates words. Returns SPVGEN_OK, SPVGEN_ERROR_VALIDATION (message holds the
 * validator's text; a binary that does not even parse is reported the same way),
 * SPVGEN_ERROR_INVALID_ARGUMENT (NULL words, fewer than the 5 header words, an
 * unknown env), or SPVGEN_ERROR_OUT_OF_MEMORY (memory ran out, or count is over
 * SPVGEN_VALIDATE_MAX_WORDS: "... words is over the ... a module may have"). message (may be NULL) gets at most
 * message_size bytes, NUL-terminated; it is "" on success. options may be NULL
 * (Vulkan 1.3, default layout rules). For every Vulkan env, a capability that no Vulkan
 * version or extension allows (Kernel, Addresses, Linkage, ...: see
 * spvgen_vk_capability_find in spvgen/caps.h) is SPVGEN_ERROR_VALIDATION with a message
 * naming it, which SPIRV-Tools 2025.1 checks only up to Vulkan 1.2. For every env, the
 * operands that SPIRV-Tools 2025.1's validator reads unchecked (and dies on: SIGSEGV,
 * or an uncaught C++ exception that aborts the process) are checked first, and a wrong
 * one is SPVGEN_ERROR_VALIDATION naming the instruction, its word and the operand:
 * the vector operand of a cooperative-vector instruction (the Input of
 * OpCooperativeVectorMatrixMul(Add)NV, A and B of ...OuterProductAccumulateNV, V of
 * ...ReduceSumAccumulateNV, Object of OpCooperativeVectorStoreNV) must be a cooperative
 * vector; DecodeFunc (OpCooperativeMatrixLoadTensorNV), Func
 * (OpCooperativeMatrixPerElementOpNV) and CombineFunc (OpCooperativeMatrixReduceNV) must
 * be OpFunctions with an OpTypeFunction type (a DecodeFunc's with three parameters, the
 * first a pointer); a TensorView operand must be a value with a type. The upstream
 * reports are in docs/design-notes.md ("Validator crashes"). */
spvgen_status spvgen_validate(const uint32_t *words, size_t count,
                              const spvgen_validate_options *options, char *message,
                              size_t message_size);

enum {
  SPVGEN_DIS_FRIENDLY_NAMES = 1u << 0, /* %float instead of %12 */
  SPVGEN_DIS_INDENT = 1u << 1,
  SPVGEN_DIS_NO_HEADER = 1u << 2,
  SPVGEN_DIS_COMMENT = 1u << 3,
};

/* Disassembles words. On success returns SPVGEN_OK, *text is malloc'd (free with
 * spvgen_free_text) and message is "". On a decoding error (or NULL words, fewer than 5
 * words, unknown flags, NULL text) returns SPVGEN_ERROR_INVALID_ARGUMENT, *text is NULL
 * and message (when not NULL and message_size > 0; truncated to fit) says what was
 * wrong ("spvgen_disassemble: ..."); when memory runs out, or count is over
 * SPVGEN_VALIDATE_MAX_WORDS, SPVGEN_ERROR_OUT_OF_MEMORY.
 * The module need not be valid, only decodable. */
spvgen_status spvgen_disassemble(const uint32_t *words, size_t count, uint32_t flags,
                                 char **text, char *message, size_t message_size);
void spvgen_free_text(char *text);

/* Assembles SPIR-V assembly text (spirv-as syntax, `%name` ids allowed) for env; the
 * header's version is the env's (1.6 for Vulkan 1.3/1.4 and universal1.6, 1.5 for
 * Vulkan 1.2, 1.3 for Vulkan 1.1). On
 * success *words (malloc'd, free with spvgen_free_words) and *count are set. On a
 * syntax error returns SPVGEN_ERROR_INVALID_ARGUMENT with the assembler's message
 * ("line:column: ...") in message. Meant for tests and tools: modules that spvgen
 * itself produces never pass through text. */
spvgen_status spvgen_assemble(const char *text, spvgen_target_env env, uint32_t **words,
                              size_t *count, char *message, size_t message_size);
void spvgen_free_words(uint32_t *words);

/* The version of the SPIRV-Tools spvgen validates with ("SPIRV-Tools v2025.1 ..."). */
const char *spvgen_spirv_tools_version(void);

SPVGEN_API_END
#ifdef __cplusplus
}
#endif
#endif
