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

/* ------------------------------------------------ structural pre-check ---- */

/* SPIRV-Tools 2025.1's validator reads some operands of cooperative and tensor
 * instructions without checking them first, and dies (SIGSEGV on a null definition,
 * std::out_of_range and abort on a missing operand) when they are not what the
 * extension requires. An embedded JIT validating a module it did not write would take
 * the host process down with it, so these preconditions are checked here, before
 * spvValidate; each one the validator would also refuse, so a module that passes the
 * validator passes them:
 *  - the vector operand of a cooperative-vector instruction (the Input of
 *    OpCooperativeVectorMatrixMul(Add)NV, A and B of ...OuterProductAccumulateNV, V of
 *    ...ReduceSumAccumulateNV, Object of OpCooperativeVectorStoreNV) is a value of an
 *    OpTypeCooperativeVectorNV type (the validator reads a scalar type's third operand as
 *    a component count id: SIGSEGV);
 *  - the function operands that SPIR-V lets refer to a function defined later (DecodeFunc
 *    of OpCooperativeMatrixLoadTensorNV, Func of OpCooperativeMatrixPerElementOpNV,
 *    CombineFunc of OpCooperativeMatrixReduceNV) are OpFunctions whose function type is an
 *    OpTypeFunction (the validator checks the later function only when it gets there,
 *    after reading its type's operands unchecked: a DecodeFunc without parameters is
 *    std::out_of_range); a DecodeFunc's type has exactly the three parameters
 *    SPV_NV_tensor_addressing requires, the first a pointer;
 *  - the TensorView operand of OpCooperativeMatrixLoadTensorNV, which may also name an id
 *    defined later, is a value with a type (a label there: SIGSEGV).
 * A linear scan of the instruction words finds whether the module has any of these
 * instructions at all (the common case: none, and nothing else is done). Only then is the
 * module parsed once with spvBinaryParse (SPIRV-Tools' own grammar says which word is
 * the result type, the result id and each operand), recording each definition in an
 * array sorted by id (memory linear in the module, never in its id bound); the operands
 * are checked once the whole module is read. Anything the parser rejects is left to the
 * validator, which rejects it the same way. */

typedef enum pre_role {
  ROLE_COOPVEC,      /* a value of a cooperative vector type */
  ROLE_TYPED_VALUE,  /* a value with a type */
  ROLE_DECODE_FUNC,  /* an OpFunction of type (component)(pointer, array, array) */
  ROLE_FUNC,         /* an OpFunction whose type is an OpTypeFunction */
} pre_role;

static const char *pre_op_name(uint32_t opcode) {
  switch (opcode) {
    case SpvOpCooperativeVectorMatrixMulNV: return "OpCooperativeVectorMatrixMulNV";
    case SpvOpCooperativeVectorOuterProductAccumulateNV:
      return "OpCooperativeVectorOuterProductAccumulateNV";
    case SpvOpCooperativeVectorReduceSumAccumulateNV:
      return "OpCooperativeVectorReduceSumAccumulateNV";
    case SpvOpCooperativeVectorMatrixMulAddNV: return "OpCooperativeVectorMatrixMulAddNV";
    case SpvOpCooperativeVectorStoreNV: return "OpCooperativeVectorStoreNV";
    case SpvOpCooperativeMatrixLoadTensorNV: return "OpCooperativeMatrixLoadTensorNV";
    case SpvOpCooperativeMatrixPerElementOpNV: return "OpCooperativeMatrixPerElementOpNV";
    case SpvOpCooperativeMatrixReduceNV: return "OpCooperativeMatrixReduceNV";
  }
  return NULL;
}

typedef struct pre_use {
  size_t word;     /* index of the instruction in the module */
  uint32_t opcode; /* the instruction */
  const char *operand;
  uint32_t id;
  pre_role role;
} pre_use;

typedef struct pre_def {
  uint32_t id, opcode, type; /* type: the result type (0: none) */
  size_t word;               /* index of the defining instruction in the module */
} pre_def;

typedef struct pre_scan {
  const uint32_t *words; /* the module (the parser's words are per instruction) */
  size_t count;
  bool swapped;
  size_t word; /* index of the next instruction */
  pre_def *defs;
  size_t def_count, def_cap;
  pre_use *uses;
  size_t use_count, use_cap;
  bool out_of_memory;
} pre_scan;

static spv_result_t pre_header(void *user, spv_endianness_t endian, uint32_t magic,
                               uint32_t version, uint32_t generator, uint32_t bound,
                               uint32_t schema) {
  (void)endian, (void)magic, (void)version, (void)generator, (void)bound, (void)schema;
  ((pre_scan *)user)->word = HEADER_WORDS;
  return SPV_SUCCESS;
}

static bool pre_grow(void **v, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t n = *cap ? *cap * 2 : 64;
  while (n < need) n *= 2;
  void *p = realloc(*v, n * elem);
  if (!p) return false;
  *v = p;
  *cap = n;
  return true;
}

static bool pre_add_use(pre_scan *s, size_t word, uint32_t opcode, const char *operand,
                        uint32_t id, pre_role role) {
  if (!pre_grow((void **)&s->uses, &s->use_cap, s->use_count + 1, sizeof *s->uses)) return false;
  s->uses[s->use_count++] = (pre_use){word, opcode, operand, id, role};
  return true;
}

/* The operands of inst to check: their word indices and roles. Returns how many. */
static int pre_operands(const spv_parsed_instruction_t *inst, uint32_t at[4],
                        const char *name[4], pre_role role[4]) {
  int n = 0;
  switch (inst->opcode) {
    case SpvOpCooperativeVectorMatrixMulNV: /* ResultType Result Input ... */
    case SpvOpCooperativeVectorMatrixMulAddNV:
      at[n] = 3, name[n] = "Input", role[n++] = ROLE_COOPVEC;
      break;
    case SpvOpCooperativeVectorOuterProductAccumulateNV: /* Pointer Offset A B ... */
      at[n] = 3, name[n] = "A", role[n++] = ROLE_COOPVEC;
      at[n] = 4, name[n] = "B", role[n++] = ROLE_COOPVEC;
      break;
    case SpvOpCooperativeVectorReduceSumAccumulateNV: /* Pointer Offset V */
    case SpvOpCooperativeVectorStoreNV:               /* Pointer Offset Object ... */
      at[n] = 3,
      name[n] = inst->opcode == SpvOpCooperativeVectorStoreNV ? "Object" : "V",
      role[n++] = ROLE_COOPVEC;
      break;
    case SpvOpCooperativeMatrixPerElementOpNV: /* ResultType Result Matrix Func ... */
      at[n] = 4, name[n] = "Func", role[n++] = ROLE_FUNC;
      break;
    case SpvOpCooperativeMatrixReduceNV: /* ResultType Result Matrix Reduce CombineFunc */
      at[n] = 5, name[n] = "CombineFunc", role[n++] = ROLE_FUNC;
      break;
    case SpvOpCooperativeMatrixLoadTensorNV: {
      /* ... MemoryOperand [its ids] TensorAddressingOperands [TensorView] [DecodeFunc]:
       * the ids after the tensor addressing mask, in its bit order. */
      for (uint16_t k = 0; k < inst->num_operands; k++) {
        if (inst->operands[k].type != SPV_OPERAND_TYPE_TENSOR_ADDRESSING_OPERANDS) continue;
        uint32_t mask = inst->words[inst->operands[k].offset];
        uint32_t next = inst->operands[k].offset + 1u;
        if ((mask & SpvTensorAddressingOperandsTensorViewMask) && next < inst->num_words)
          at[n] = next++, name[n] = "TensorView", role[n++] = ROLE_TYPED_VALUE;
        if ((mask & SpvTensorAddressingOperandsDecodeFuncMask) && next < inst->num_words)
          at[n] = next++, name[n] = "DecodeFunc", role[n++] = ROLE_DECODE_FUNC;
        break;
      }
      break;
    }
  }
  return n;
}

static spv_result_t pre_instruction(void *user, const spv_parsed_instruction_t *inst) {
  pre_scan *s = user;
  size_t word = s->word;
  s->word += inst->num_words;
  if (inst->result_id) {
    if (!pre_grow((void **)&s->defs, &s->def_cap, s->def_count + 1, sizeof *s->defs)) {
      s->out_of_memory = true;
      return SPV_ERROR_OUT_OF_MEMORY;
    }
    s->defs[s->def_count++] = (pre_def){inst->result_id, inst->opcode, inst->type_id, word};
  }
  uint32_t at[4];
  const char *name[4];
  pre_role role[4];
  int n = pre_operands(inst, at, name, role);
  for (int k = 0; k < n; k++) {
    if (at[k] >= inst->num_words) continue; /* the parser has checked the operand count */
    if (!pre_add_use(s, word, inst->opcode, name[k], inst->words[at[k]], role[k])) {
      s->out_of_memory = true;
      return SPV_ERROR_OUT_OF_MEMORY;
    }
  }
  return SPV_SUCCESS;
}

static int pre_def_cmp(const void *a, const void *b) {
  uint32_t x = ((const pre_def *)a)->id, y = ((const pre_def *)b)->id;
  return x < y ? -1 : x > y;
}

/* The definition of id, or NULL. */
static const pre_def *pre_find(const pre_scan *s, uint32_t id) {
  size_t lo = 0, hi = s->def_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->defs[mid].id == id) return &s->defs[mid];
    if (s->defs[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

/* Word k of the instruction at index `at` (host order), or 0 past the module. */
static uint32_t pre_word(const pre_scan *s, size_t at, uint32_t k) {
  if (at + k >= s->count) return 0;
  uint32_t w = s->words[at + k];
  if (s->swapped) w = (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
  return w;
}

/* Whether the words hold any instruction pre_operands checks (both byte orders; a
 * malformed stream ends the scan, and the validator reports it). */
static bool has_prechecked_instruction(const uint32_t *words, size_t count) {
  bool swap = words[0] == 0x03022307u;
  if (!swap && words[0] != 0x07230203u) return false;
  for (size_t i = HEADER_WORDS; i < count;) {
    uint32_t w = words[i];
    if (swap)
      w = (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
    uint32_t wc = w >> 16, op = w & 0xFFFFu;
    if (wc == 0) return false;
    if (pre_op_name(op)) return true;
    i += wc;
  }
  return false;
}

/* NULL when use u holds, else what is wrong with it (why[] may be filled). */
static const char *pre_judge(const pre_scan *s, const pre_use *u, char *why, size_t size) {
  const pre_def *d = u->id ? pre_find(s, u->id) : NULL;
  if (!d) return ", which nothing defines";
  if (u->role == ROLE_COOPVEC || u->role == ROLE_TYPED_VALUE) {
    const pre_def *t = d->type ? pre_find(s, d->type) : NULL;
    if (!d->type || !t) return ", which is not a value (it has no type)";
    if (u->role == ROLE_COOPVEC && t->opcode != SpvOpTypeCooperativeVectorNV) {
      snprintf(why, size, " of type %%%u, which is not an OpTypeCooperativeVectorNV (it must be a "
               "cooperative vector)", d->type);
      return why;
    }
    return NULL;
  }
  /* The function roles. OpFunction: ResultType Result FunctionControl FunctionType. */
  if (d->opcode != SpvOpFunction) return ", which is not an OpFunction";
  uint32_t ftype_id = pre_word(s, d->word, 4);
  const pre_def *ft = pre_find(s, ftype_id);
  if (!ft || ft->opcode != SpvOpTypeFunction) {
    snprintf(why, size, ", an OpFunction whose function type %%%u is not an OpTypeFunction", ftype_id);
    return why;
  }
  if (u->role == ROLE_DECODE_FUNC) {
    /* OpTypeFunction Result ReturnType Param...: SPV_NV_tensor_addressing's DecodeFunc
     * takes (pointer to PhysicalStorageBuffer, array of Dim uint32, array of Dim uint32). */
    uint32_t params = (pre_word(s, ft->word, 0) >> 16) - 3u;
    if ((pre_word(s, ft->word, 0) >> 16) < 3u || params != 3) {
      snprintf(why, size, ", an OpFunction whose type %%%u has %u parameters (a DecodeFunc takes "
               "three: a PhysicalStorageBuffer pointer and two arrays of 32-bit integers)",
               ftype_id, (pre_word(s, ft->word, 0) >> 16) < 3u ? 0u : params);
      return why;
    }
    uint32_t p0 = pre_word(s, ft->word, 3);
    const pre_def *pt = pre_find(s, p0);
    if (pt && pt->opcode != SpvOpTypePointer) {
      snprintf(why, size, ", an OpFunction whose first parameter type %%%u is not a pointer (a "
               "DecodeFunc's first parameter is a PhysicalStorageBuffer pointer)", p0);
      return why;
    }
  }
  return NULL;
}

/* Returns SPVGEN_OK, or SPVGEN_ERROR_VALIDATION / SPVGEN_ERROR_OUT_OF_MEMORY with
 * message set. */
static spvgen_status structure_prechecked(spv_context context, const uint32_t *words,
                                          size_t count, char *message, size_t message_size) {
  if (!has_prechecked_instruction(words, count)) return SPVGEN_OK;
  pre_scan s;
  memset(&s, 0, sizeof s);
  s.words = words;
  s.count = count;
  s.swapped = words[0] == 0x03022307u;
  spv_diagnostic diagnostic = NULL;
  spv_result_t parsed =
      spvBinaryParse(context, &s, words, count, pre_header, pre_instruction, &diagnostic);
  spvDiagnosticDestroy(diagnostic);
  spvgen_status status = SPVGEN_OK;
  if (s.out_of_memory) {
    put_message(message, message_size, "spvgen_validate: out of memory");
    status = SPVGEN_ERROR_OUT_OF_MEMORY;
  } else if (parsed == SPV_SUCCESS) {
    if (s.def_count > 1) qsort(s.defs, s.def_count, sizeof *s.defs, pre_def_cmp);
    for (size_t k = 0; k < s.use_count; k++) {
      const pre_use *u = &s.uses[k];
      char why[200];
      const char *what = pre_judge(&s, u, why, sizeof why);
      if (what) {
        put_message(message, message_size,
                    "spvgen_validate: %s at word %zu: operand %s is id %%%u%s",
                    pre_op_name(u->opcode), u->word, u->operand, u->id, what);
        status = SPVGEN_ERROR_VALIDATION;
        break;
      }
    }
  }
  free(s.defs);
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
  if (count > SPVGEN_VALIDATE_MAX_WORDS) {
    put_message(message, message_size,
                "spvgen_validate: %zu words is over the %zu words (%zu MiB) a module may have "
                "(SPVGEN_VALIDATE_MAX_WORDS: the validator's memory grows with the module)",
                count, SPVGEN_VALIDATE_MAX_WORDS, SPVGEN_VALIDATE_MAX_WORDS >> 18);
    return SPVGEN_ERROR_OUT_OF_MEMORY;
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

  spvgen_status pre = structure_prechecked(context, words, count, message, message_size);
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
  if (count > SPVGEN_VALIDATE_MAX_WORDS)
    return SG_ERROR(message, message_size, SPVGEN_ERROR_OUT_OF_MEMORY,
                    "%zu words is over the %zu words (%zu MiB) a module may have "
                    "(SPVGEN_VALIDATE_MAX_WORDS)",
                    count, SPVGEN_VALIDATE_MAX_WORDS, SPVGEN_VALIDATE_MAX_WORDS >> 18);
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
