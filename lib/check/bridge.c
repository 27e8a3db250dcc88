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
#include <spirv/unified1/spirv.h>

#include "error_private.h" /* lib/core: the one error formatter */
#include "spvgen/caps.h"
#include "spvgen/check.h"

#define HEADER_WORDS 5u


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
    SG_PRINTF(3, 4);
static void put_message(char *message, size_t message_size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sg_error_vformat(message, message_size, SPVGEN_OK, NULL, fmt, ap);
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
    if (op != SpvOpCapability || wc != 2 || i + wc > count) break;
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

/* ------------------------------------------- cooperative-vector pre-check ---- */

/* SPIRV-Tools 2025.1's validator dereferences a null definition (SIGSEGV) when the
 * vector operand of a cooperative-vector instruction is not a cooperative vector: an
 * OpCooperativeVectorMatrixMulNV whose Input is a scalar reads the scalar type's third
 * operand as a component count id. So before spvValidate, these operands are checked
 * here: Input of OpCooperativeVectorMatrixMul(Add)NV (Bias and Matrix are pointers, which
 * the validator checks safely), A and B of OpCooperativeVectorOuterProductAccumulateNV, V
 * of OpCooperativeVectorReduceSumAccumulateNV and Object of OpCooperativeVectorStoreNV
 * must be values whose type is an OpTypeCooperativeVectorNV.
 *
 * A linear scan of the instruction words finds whether the module has any of these
 * instructions at all (the common case: none, and nothing else is done). Only then is
 * the module parsed once with spvBinaryParse (SPIRV-Tools' own grammar says which word
 * is the result type and which the result id), recording each id's type and defining
 * opcode; the operands are checked after the whole module is read. Anything the parser
 * rejects is left to the validator, which rejects it the same way. */

static const char *coopvec_op_name(uint32_t opcode) {
  switch (opcode) {
    case SpvOpCooperativeVectorMatrixMulNV: return "OpCooperativeVectorMatrixMulNV";
    case SpvOpCooperativeVectorOuterProductAccumulateNV:
      return "OpCooperativeVectorOuterProductAccumulateNV";
    case SpvOpCooperativeVectorReduceSumAccumulateNV:
      return "OpCooperativeVectorReduceSumAccumulateNV";
    case SpvOpCooperativeVectorMatrixMulAddNV: return "OpCooperativeVectorMatrixMulAddNV";
    case SpvOpCooperativeVectorStoreNV: return "OpCooperativeVectorStoreNV";
  }
  return NULL;
}

/* The operands of a cooperative-vector instruction that must be cooperative vectors:
 * their word indices in the instruction and names. Returns how many (0: none). */
static int coopvec_vector_operands(uint32_t opcode, uint32_t at[2], const char *name[2]) {
  switch (opcode) {
    case SpvOpCooperativeVectorMatrixMulNV: /* ResultType Result Input ... */
    case SpvOpCooperativeVectorMatrixMulAddNV: at[0] = 3, name[0] = "Input"; return 1;
    case SpvOpCooperativeVectorOuterProductAccumulateNV: /* Pointer Offset A B ... */
      at[0] = 3, name[0] = "A";
      at[1] = 4, name[1] = "B";
      return 2;
    case SpvOpCooperativeVectorReduceSumAccumulateNV: /* Pointer Offset V */
      at[0] = 3, name[0] = "V";
      return 1;
    case SpvOpCooperativeVectorStoreNV: /* Pointer Offset Object ... */
      at[0] = 3, name[0] = "Object";
      return 1;
  }
  return 0;
}

typedef struct coopvec_use {
  size_t word;     /* index of the instruction in the module */
  uint32_t opcode; /* the instruction */
  const char *operand;
  uint32_t id;
} coopvec_use;

typedef struct coopvec_scan {
  uint32_t bound;
  uint32_t *value_type; /* by id: the result type of its definition (0: none) */
  uint16_t *def_opcode; /* by id: the opcode that defines it (0: undefined) */
  size_t word;          /* index of the next instruction */
  coopvec_use *uses;
  size_t use_count, use_cap;
  bool out_of_memory;
} coopvec_scan;

static spv_result_t coopvec_header(void *user, spv_endianness_t endian, uint32_t magic,
                                   uint32_t version, uint32_t generator, uint32_t bound,
                                   uint32_t schema) {
  (void)endian, (void)magic, (void)version, (void)generator, (void)schema;
  coopvec_scan *s = user;
  /* Larger bounds are the validator's error (SPIRV-Tools' default limit 0x3FFFFF). */
  if (bound == 0 || bound > 0x3FFFFFu) return SPV_ERROR_INVALID_BINARY;
  s->bound = bound;
  s->value_type = calloc(bound, sizeof *s->value_type);
  s->def_opcode = calloc(bound, sizeof *s->def_opcode);
  if (!s->value_type || !s->def_opcode) {
    s->out_of_memory = true;
    return SPV_ERROR_OUT_OF_MEMORY;
  }
  s->word = HEADER_WORDS;
  return SPV_SUCCESS;
}

static spv_result_t coopvec_instruction(void *user, const spv_parsed_instruction_t *inst) {
  coopvec_scan *s = user;
  size_t word = s->word;
  s->word += inst->num_words;
  if (inst->result_id && inst->result_id < s->bound) {
    s->value_type[inst->result_id] = inst->type_id;
    s->def_opcode[inst->result_id] = inst->opcode;
  }
  uint32_t at[2];
  const char *name[2];
  int n = coopvec_vector_operands(inst->opcode, at, name);
  for (int k = 0; k < n; k++) {
    if (at[k] >= inst->num_words) continue; /* the parser has checked the operand count */
    if (s->use_count == s->use_cap) {
      size_t cap = s->use_cap ? s->use_cap * 2 : 16;
      coopvec_use *u = realloc(s->uses, cap * sizeof *u);
      if (!u) {
        s->out_of_memory = true;
        return SPV_ERROR_OUT_OF_MEMORY;
      }
      s->uses = u;
      s->use_cap = cap;
    }
    s->uses[s->use_count++] = (coopvec_use){word, inst->opcode, name[k], inst->words[at[k]]};
  }
  return SPV_SUCCESS;
}

/* Whether the words hold any instruction coopvec_vector_operands names (both byte
 * orders; a malformed stream ends the scan, and the validator reports it). */
static bool has_coopvec_instruction(const uint32_t *words, size_t count) {
  bool swap = words[0] == 0x03022307u;
  if (!swap && words[0] != 0x07230203u) return false;
  for (size_t i = HEADER_WORDS; i < count;) {
    uint32_t w = words[i];
    if (swap)
      w = (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
    uint32_t wc = w >> 16, op = w & 0xFFFFu;
    if (wc == 0) return false;
    if (coopvec_op_name(op)) return true;
    i += wc;
  }
  return false;
}

/* Returns SPVGEN_OK, or SPVGEN_ERROR_VALIDATION / SPVGEN_ERROR_OUT_OF_MEMORY with
 * message set. */
static spvgen_status coopvec_operands_checked(spv_context context, const uint32_t *words,
                                              size_t count, char *message,
                                              size_t message_size) {
  if (!has_coopvec_instruction(words, count)) return SPVGEN_OK;
  coopvec_scan s;
  memset(&s, 0, sizeof s);
  spv_diagnostic diagnostic = NULL;
  spv_result_t parsed = spvBinaryParse(context, &s, words, count, coopvec_header,
                                       coopvec_instruction, &diagnostic);
  spvDiagnosticDestroy(diagnostic);
  spvgen_status status = SPVGEN_OK;
  if (s.out_of_memory) {
    put_message(message, message_size, "spvgen_validate: out of memory");
    status = SPVGEN_ERROR_OUT_OF_MEMORY;
  } else if (parsed == SPV_SUCCESS) {
    for (size_t k = 0; k < s.use_count; k++) {
      const coopvec_use *u = &s.uses[k];
      const char *what = NULL;
      uint32_t type = 0;
      if (u->id == 0 || u->id >= s.bound || !s.def_opcode[u->id]) {
        what = "which nothing defines";
      } else if (!(type = s.value_type[u->id])) {
        what = "which is not a value (it has no type)";
      } else if (type >= s.bound || s.def_opcode[type] != SpvOpTypeCooperativeVectorNV) {
        what = "which is not an OpTypeCooperativeVectorNV";
      }
      if (what) {
        char type_text[32] = "";
        if (type) snprintf(type_text, sizeof type_text, " of type %%%u", type);
        put_message(message, message_size,
                    "spvgen_validate: %s at word %zu: operand %s is id %%%u%s, %s (it must be "
                    "a cooperative vector)",
                    coopvec_op_name(u->opcode), u->word, u->operand, u->id, type_text, what);
        status = SPVGEN_ERROR_VALIDATION;
        break;
      }
    }
  }
  free(s.value_type);
  free(s.def_opcode);
  free(s.uses);
  return status;
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

  spvgen_status pre = coopvec_operands_checked(context, words, count, message, message_size);
  if (pre != SPVGEN_OK) {
    spvValidatorOptionsDestroy(tools_options);
    spvContextDestroy(context);
    return pre;
  }

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

spvgen_status spvgen_disassemble(const uint32_t *words, size_t count, uint32_t flags,
                                 char **text, char *message, size_t message_size) {
  put_message(message, message_size, "%s", "");
  if (!text) return SG_ERROR(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "text is NULL");
  *text = NULL;
  if (!words)
    return SG_ERROR(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "words is NULL");
  if (count < HEADER_WORDS)
    return SG_ERROR(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "%zu words, fewer than the %u-word SPIR-V header", count, HEADER_WORDS);
  if (flags & ~(uint32_t)KNOWN_FLAGS)
    return SG_ERROR(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT,
                    "unknown flags 0x%x", (unsigned)(flags & ~(uint32_t)KNOWN_FLAGS));

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
    return SG_ERROR(message, message_size, SPVGEN_ERROR_OUT_OF_MEMORY,
                    "could not create the SPIRV-Tools context");
  spv_text tools_text = NULL;
  spv_diagnostic diagnostic = NULL;
  spv_result_t result =
      spvBinaryToText(context, words, count, options, &tools_text, &diagnostic);

  spvgen_status status = SPVGEN_OK;
  if (result == SPV_SUCCESS && tools_text && tools_text->str) {
    char *s = malloc(tools_text->length + 1);
    if (s) {
      memcpy(s, tools_text->str, tools_text->length);
      s[tools_text->length] = '\0';
      *text = s;
    } else {
      status = SG_ERROR(message, message_size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
    }
  } else if (result == SPV_ERROR_OUT_OF_MEMORY) {
    status = SG_ERROR(message, message_size, SPVGEN_ERROR_OUT_OF_MEMORY, "out of memory");
  } else {
    /* The decoder's messages say where ("... starting at word 5 ..."); its position
     * index is relative to the instruction, so it is not repeated here. */
    const char *msg = diagnostic_text(diagnostic, NULL);
    if (msg)
      status = SG_ERROR(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT, "%.*s",
                        trimmed_length(msg), msg);
    else
      status = SG_ERROR(message, message_size, SPVGEN_ERROR_INVALID_ARGUMENT,
                        "the decoder failed (result %d) without a message", (int)result);
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
