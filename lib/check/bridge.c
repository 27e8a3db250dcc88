/* lib/check/bridge.c — the bridge to SPIRV-Tools' C API: validation, disassembly and
 * assembly behind spvgen's status/message convention.
 *
 * This is the only file that includes <spirv-tools/libspirv.h>: in C that header
 * defines a non-static const (kDefaultMaxIdBound), so a second translation unit
 * including it would not link. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "spvgen/caps.h"
#include "spvgen/check.h"

#define HEADER_WORDS 5u

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PRINTF_LIKE(fmt, args)
#endif

/* The SPIRV-Tools env for ours; false for a value outside the enum. */
static bool tools_env(spvgen_target_env env, spv_target_env *out) {
  switch (env) {
    case SPVGEN_ENV_VULKAN_1_3: *out = SPV_ENV_VULKAN_1_3; return true;
    case SPVGEN_ENV_VULKAN_1_4: *out = SPV_ENV_VULKAN_1_4; return true;
    case SPVGEN_ENV_VULKAN_1_2: *out = SPV_ENV_VULKAN_1_2; return true;
    case SPVGEN_ENV_VULKAN_1_1: *out = SPV_ENV_VULKAN_1_1; return true;
    case SPVGEN_ENV_UNIVERSAL_1_6: *out = SPV_ENV_UNIVERSAL_1_6; return true;
  }
  return false;
}

/* snprintf into message when it is not NULL and message_size > 0 (truncating). */
static void put_message(char *message, size_t message_size, const char *fmt, ...)
    PRINTF_LIKE(3, 4);
static void put_message(char *message, size_t message_size, const char *fmt, ...) {
  if (!message || message_size == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, message_size, fmt, ap);
  va_end(ap);
}

/* The text of a diagnostic, or fallback when there is none (SPIRV-Tools can fail
 * without one, e.g. out of memory). */
static const char *diagnostic_text(spv_diagnostic diagnostic, const char *fallback) {
  if (diagnostic && diagnostic->error && diagnostic->error[0]) return diagnostic->error;
  return fallback;
}

/* Length of text without its trailing whitespace (diagnostics end in newlines), as an
 * int for "%.*s". */
static int trimmed_length(const char *text) {
  size_t n = strlen(text);
  while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' ' ||
                   text[n - 1] == '\t'))
    n--;
  return n > 65536 ? 65536 : (int)n;
}

/* ---------------------------------------------------------------- validation ---- */

static bool vulkan_env(spvgen_target_env env) {
  return env == SPVGEN_ENV_VULKAN_1_1 || env == SPVGEN_ENV_VULKAN_1_2 ||
         env == SPVGEN_ENV_VULKAN_1_3 || env == SPVGEN_ENV_VULKAN_1_4;
}

/* For the Vulkan envs: every OpCapability must be one that some Vulkan version or
 * extension allows (spvgen_vk_capability_find, the table of the Vulkan spec's "SPIR-V
 * Environment" appendix). SPIRV-Tools 2025.1 checks this for Vulkan 1.0-1.2 only, so a
 * Kernel module passed vulkan1.3. Only the leading OpCapability instructions are read
 * (the logical layout puts them first); anything malformed is left to the validator.
 * Returns false (message set) for the first capability Vulkan does not allow. */
static bool capabilities_allowed(const uint32_t *words, size_t count, spvgen_target_env env,
                                 char *message, size_t message_size) {
  if (words[0] != 0x07230203u) return true; /* not native-endian SPIR-V: the validator says */
  for (size_t i = HEADER_WORDS; i < count;) {
    uint32_t wc = words[i] >> 16, op = words[i] & 0xFFFFu;
    if (op != 17 /* OpCapability */ || wc != 2 || i + wc > count) break;
    uint32_t cap = words[i + 1];
    if (!spvgen_vk_capability_find(cap)) {
      const char *name = spvgen_capability_name(cap);
      char number[16];
      snprintf(number, sizeof number, "%u", cap);
      put_message(message, message_size,
                  "spvgen_validate: OpCapability %s (word %zu): Vulkan does not allow "
                  "capability %s in any version or extension (target env %s)",
                  name ? name : number, i, name ? name : number, spvgen_target_env_name(env));
      return false;
    }
    i += wc;
  }
  return true;
}

spvgen_status spvgen_validate(const uint32_t *words, size_t count,
                              const spvgen_validate_options *options, char *message,
                              size_t message_size) {
  put_message(message, message_size, "%s", "");
  if (!words) {
    put_message(message, message_size, "spvgen_validate: words is NULL");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  /* SPIRV-Tools reports these too, but a module shorter than its header is a caller's
   * mistake (a count in bytes, an unfinished module) better named as such. */
  if (count < HEADER_WORDS) {
    put_message(message, message_size,
                "spvgen_validate: %zu words, fewer than the %u-word SPIR-V header", count,
                HEADER_WORDS);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  spvgen_validate_options defaults = {0};
  if (!options) options = &defaults;
  spv_target_env env;
  if (!tools_env(options->env, &env)) {
    put_message(message, message_size, "spvgen_validate: unknown target env %d",
                (int)options->env);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }

  if (vulkan_env(options->env) &&
      !capabilities_allowed(words, count, options->env, message, message_size))
    return SPVGEN_ERROR_VALIDATION;

  spv_context context = spvContextCreate(env);
  spv_validator_options tools_options = spvValidatorOptionsCreate();
  if (!context || !tools_options) {
    spvContextDestroy(context);
    spvValidatorOptionsDestroy(tools_options);
    put_message(message, message_size,
                "spvgen_validate: could not create the SPIRV-Tools context");
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  /* Only ever switch these on: for Vulkan 1.1 and later the validator already applies
   * relaxed layout by default, and "false" must not take that away. */
  if (options->relax_block_layout)
    spvValidatorOptionsSetRelaxBlockLayout(tools_options, true);
  if (options->scalar_block_layout)
    spvValidatorOptionsSetScalarBlockLayout(tools_options, true);

  spv_const_binary_t binary = {words, count};
  spv_diagnostic diagnostic = NULL;
  spv_result_t result =
      spvValidateWithOptions(context, tools_options, &binary, &diagnostic);

  spvgen_status status = SPVGEN_OK;
  if (result == SPV_ERROR_OUT_OF_MEMORY) {
    status = SPVGEN_ERROR_OUT_OF_MEMORY;
    put_message(message, message_size, "spvgen_validate: out of memory");
  } else if (result != SPV_SUCCESS) {
    status = SPVGEN_ERROR_VALIDATION;
    const char *text = diagnostic_text(diagnostic, NULL);
    if (text) {
      put_message(message, message_size, "%.*s", trimmed_length(text), text);
    } else {
      put_message(message, message_size,
                  "spvgen_validate: the validator failed (result %d) without a "
                  "message",
                  (int)result);
    }
  }
  spvDiagnosticDestroy(diagnostic);
  spvValidatorOptionsDestroy(tools_options);
  spvContextDestroy(context);
  return status;
}

/* -------------------------------------------------------------- disassembly ---- */

#define KNOWN_FLAGS                                                       \
  (SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_INDENT | SPVGEN_DIS_NO_HEADER | \
   SPVGEN_DIS_COMMENT)

/* Stores a formatted error message in *text (NULL when memory ran out) and returns
 * status, or SPVGEN_ERROR_OUT_OF_MEMORY when the message could not be allocated. */
static spvgen_status fail(char **text, spvgen_status status, const char *fmt, ...)
    PRINTF_LIKE(3, 4);
static spvgen_status fail(char **text, spvgen_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!s) {
    *text = NULL;
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  *text = s;
  return status;
}

spvgen_status spvgen_disassemble(const uint32_t *words, size_t count, uint32_t flags,
                                 char **text) {
  if (!text) return SPVGEN_ERROR_INVALID_ARGUMENT;
  *text = NULL;
  if (!words)
    return fail(text, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_disassemble: words is NULL");
  if (count < HEADER_WORDS)
    return fail(text, SPVGEN_ERROR_INVALID_ARGUMENT,
                "spvgen_disassemble: %zu words, fewer than the %u-word SPIR-V header",
                count, HEADER_WORDS);
  if (flags & ~(uint32_t)KNOWN_FLAGS)
    return fail(text, SPVGEN_ERROR_INVALID_ARGUMENT,
                "spvgen_disassemble: unknown flags 0x%x",
                (unsigned)(flags & ~(uint32_t)KNOWN_FLAGS));

  uint32_t options = SPV_BINARY_TO_TEXT_OPTION_NONE;
  if (flags & SPVGEN_DIS_FRIENDLY_NAMES)
    options |= SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
  if (flags & SPVGEN_DIS_INDENT) options |= SPV_BINARY_TO_TEXT_OPTION_INDENT;
  if (flags & SPVGEN_DIS_NO_HEADER) options |= SPV_BINARY_TO_TEXT_OPTION_NO_HEADER;
  if (flags & SPVGEN_DIS_COMMENT) options |= SPV_BINARY_TO_TEXT_OPTION_COMMENT;

  /* The decoder's grammar holds every opcode whatever the env; the newest universal env
   * simply names no client API. */
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  if (!context)
    return fail(text, SPVGEN_ERROR_OUT_OF_MEMORY,
                "spvgen_disassemble: could not create the SPIRV-Tools context");
  spv_text tools_text = NULL;
  spv_diagnostic diagnostic = NULL;
  spv_result_t result =
      spvBinaryToText(context, words, count, options, &tools_text, &diagnostic);

  spvgen_status status;
  if (result == SPV_SUCCESS && tools_text && tools_text->str) {
    char *s = malloc(tools_text->length + 1);
    if (s) {
      memcpy(s, tools_text->str, tools_text->length);
      s[tools_text->length] = '\0';
      *text = s;
      status = SPVGEN_OK;
    } else {
      status = SPVGEN_ERROR_OUT_OF_MEMORY;
    }
  } else if (result == SPV_ERROR_OUT_OF_MEMORY) {
    status = fail(text, SPVGEN_ERROR_OUT_OF_MEMORY, "spvgen_disassemble: out of memory");
  } else {
    /* The decoder's messages say where ("... starting at word 5 ..."); its position
     * index is relative to the instruction, so it is not repeated here. */
    const char *msg = diagnostic_text(diagnostic, NULL);
    if (msg)
      status = fail(text, SPVGEN_ERROR_INVALID_ARGUMENT, "spvgen_disassemble: %.*s",
                    trimmed_length(msg), msg);
    else
      status = fail(text, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "spvgen_disassemble: the decoder failed (result %d) without a message",
                    (int)result);
  }
  spvTextDestroy(tools_text);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return status;
}

void spvgen_free_text(char *text) { free(text); }

/* ---------------------------------------------------------------- assembly ---- */

spvgen_status spvgen_assemble(const char *text, spvgen_target_env env, uint32_t **words,
                              size_t *count, char *message, size_t message_size) {
  put_message(message, message_size, "%s", "");
  if (words) *words = NULL;
  if (count) *count = 0;
  if (!text || !words || !count) {
    put_message(message, message_size, "spvgen_assemble: %s is NULL",
                !text    ? "text"
                : !words ? "words"
                         : "count");
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  spv_target_env target;
  if (!tools_env(env, &target)) {
    put_message(message, message_size, "spvgen_assemble: unknown target env %d", (int)env);
    return SPVGEN_ERROR_INVALID_ARGUMENT;
  }
  spv_context context = spvContextCreate(target);
  if (!context) {
    put_message(message, message_size,
                "spvgen_assemble: could not create the SPIRV-Tools context");
    return SPVGEN_ERROR_OUT_OF_MEMORY;
  }
  spv_binary binary = NULL;
  spv_diagnostic diagnostic = NULL;
  spv_result_t result = spvTextToBinary(context, text, strlen(text), &binary, &diagnostic);

  spvgen_status status = SPVGEN_OK;
  if (result == SPV_SUCCESS && binary) {
    /* A copy, so that callers free with plain free() semantics and never need to know
     * SPIRV-Tools' allocator. */
    size_t bytes = binary->wordCount * sizeof(uint32_t);
    uint32_t *copy = malloc(bytes ? bytes : 1);
    if (copy) {
      if (bytes) memcpy(copy, binary->code, bytes);
      *words = copy;
      *count = binary->wordCount;
    } else {
      status = SPVGEN_ERROR_OUT_OF_MEMORY;
      put_message(message, message_size, "spvgen_assemble: out of memory");
    }
  } else if (result == SPV_ERROR_OUT_OF_MEMORY) {
    status = SPVGEN_ERROR_OUT_OF_MEMORY;
    put_message(message, message_size, "spvgen_assemble: out of memory");
  } else {
    status = SPVGEN_ERROR_INVALID_ARGUMENT;
    const char *msg = diagnostic_text(diagnostic, "the assembler failed");
    if (diagnostic)
      put_message(message, message_size, "spvgen_assemble: %zu:%zu: %.*s",
                  diagnostic->position.line + 1, diagnostic->position.column + 1,
                  trimmed_length(msg), msg);
    else
      put_message(message, message_size, "spvgen_assemble: %s (result %d)", msg,
                  (int)result);
  }
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return status;
}

void spvgen_free_words(uint32_t *words) { free(words); }

const char *spvgen_spirv_tools_version(void) { return spvSoftwareVersionDetailsString(); }
