/* tests/check/test_validate.c — spvgen_validate: the SPIRV-Tools validator behind
 * spvgen's status/message convention, target envs and layout options, bad arguments.
 * Modules are written as assembly and assembled with spvgen_assemble. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "repro_modules.h"
#include "spvgen/check.h"

#define COMPUTE_HEADER                      \
  "OpCapability Shader\n"                   \
  "OpMemoryModel Logical GLSL450\n"         \
  "OpEntryPoint GLCompute %main \"main\"\n" \
  "OpExecutionMode %main LocalSize 1 1 1\n"

#define EMPTY_MAIN                      \
  "%void = OpTypeVoid\n"                \
  "%fn = OpTypeFunction %void\n"        \
  "%main = OpFunction %void None %fn\n" \
  "%entry = OpLabel\n"                  \
  "OpReturn\n"                          \
  "OpFunctionEnd\n"

static const char tiny_compute[] = COMPUTE_HEADER EMPTY_MAIN;

/* A storage buffer block { float a; <second>; vec3 v at offset OFF }. */
#define BLOCK_WITH_VEC3(SECOND_MEMBER_DECORATION, OFF)            \
  "OpCapability Shader\n"                                         \
  "OpMemoryModel Logical GLSL450\n"                               \
  "OpEntryPoint GLCompute %main \"main\" %buf\n"                  \
  "OpExecutionMode %main LocalSize 1 1 1\n"                       \
  "OpDecorate %Block Block\n"                                     \
  "OpMemberDecorate %Block 0 Offset 0\n" SECOND_MEMBER_DECORATION \
  "OpMemberDecorate %Block 2 Offset " OFF                         \
  "\n"                                                            \
  "OpDecorate %buf DescriptorSet 0\n"                             \
  "OpDecorate %buf Binding 0\n"                                   \
  "%void = OpTypeVoid\n"                                          \
  "%fn = OpTypeFunction %void\n"                                  \
  "%float = OpTypeFloat 32\n"                                     \
  "%v3float = OpTypeVector %float 3\n"                            \
  "%Block = OpTypeStruct %float %float %v3float\n"                \
  "%ptr = OpTypePointer StorageBuffer %Block\n"                   \
  "%buf = OpVariable %ptr StorageBuffer\n"                        \
  "%main = OpFunction %void None %fn\n"                           \
  "%entry = OpLabel\n"                                            \
  "OpReturn\n"                                                    \
  "OpFunctionEnd\n"

/* vec3 at offset 8 straddles a 16-byte boundary: relaxed layout forbids it, scalar
 * layout (alignment 4) allows it. */
static const char vec3_at_8[] =
    BLOCK_WITH_VEC3("OpMemberDecorate %Block 1 Offset 4\n", "8");
/* vec3 at offset 16: fine under every rule set. */
static const char vec3_at_16[] =
    BLOCK_WITH_VEC3("OpMemberDecorate %Block 1 Offset 4\n", "16");

static uint32_t *assemble(const char *text, spvgen_target_env env, size_t *count) {
  uint32_t *words = NULL;
  char message[1024];
  spvgen_status s = spvgen_assemble(text, env, &words, count, message, sizeof message);
  CHECK_MSG(s == SPVGEN_OK, "spvgen_assemble: %s", message);
  return words;
}

/* Removes the first instruction with `opcode`; returns the new count. */
static size_t remove_instruction(uint32_t *words, size_t count, uint32_t opcode) {
  for (size_t i = 5; i < count;) {
    uint32_t n = words[i] >> 16;
    if (n == 0 || i + n > count) break;
    if ((words[i] & 0xFFFFu) == opcode) {
      memmove(words + i, words + i + n, (count - i - n) * sizeof *words);
      return count - n;
    }
    i += n;
  }
  return count;
}

static void test_a_valid_module_is_ok_with_an_empty_message(void) {
  size_t count = 0;
  uint32_t *words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[256];
  memset(message, 'x', sizeof message);
  CHECK_EQ_U64(spvgen_validate(words, count, NULL, message, sizeof message), SPVGEN_OK);
  CHECK_STR_EQ(message, "");
  spvgen_free_words(words);
}

static void test_missing_memory_model_is_a_validation_error(void) {
  size_t count = 0;
  uint32_t *words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  size_t shorter = remove_instruction(words, count, SpvOpMemoryModel);
  CHECK_EQ_U64(shorter, count - 3);
  char message[1024];
  CHECK_EQ_U64(spvgen_validate(words, shorter, NULL, message, sizeof message),
               SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(message, "memory model");
  spvgen_free_words(words);
}

static void test_an_undefined_id_is_a_validation_error(void) {
  size_t count = 0;
  uint32_t *words = assemble(COMPUTE_HEADER
                             "%void = OpTypeVoid\n"
                             "%fn = OpTypeFunction %void %undefined\n"
                             "%main = OpFunction %void None %fn\n"
                             "%entry = OpLabel\n"
                             "OpReturn\n"
                             "OpFunctionEnd\n",
                             SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[1024];
  CHECK_EQ_U64(spvgen_validate(words, count, NULL, message, sizeof message),
               SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(message, "requires a previous definition");
  CHECK_CONTAINS(message, "OpTypeFunction"); /* the offending instruction is quoted */
  spvgen_free_words(words);
}

static void test_a_wrong_magic_number_is_a_validation_error(void) {
  size_t count = 0;
  uint32_t *words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  words[0] = 0xdeadbeefu;
  char message[1024];
  CHECK_EQ_U64(spvgen_validate(words, count, NULL, message, sizeof message),
               SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(message, "magic");
  spvgen_free_words(words);
}

static void test_an_id_bound_above_the_universal_limit_is_a_validation_error(void) {
  size_t count = 0;
  uint32_t *words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  words[3] = 0xFFFFFFFFu;
  char message[1024];
  CHECK_EQ_U64(spvgen_validate(words, count, NULL, message, sizeof message),
               SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(message, "bound");
  spvgen_free_words(words);
}

static void test_a_truncated_module_is_a_validation_error(void) {
  size_t count = 0;
  uint32_t *words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[1024];
  /* Every cut that leaves at least the header: each must fail, none may crash. */
  for (size_t n = 5; n < count; n++) {
    spvgen_status s = spvgen_validate(words, n, NULL, message, sizeof message);
    CHECK_MSG(s == SPVGEN_ERROR_VALIDATION, "cut at %zu words: %s", n,
              spvgen_status_name(s));
    CHECK_MSG(message[0] != '\0', "cut at %zu words: empty message", n);
  }
  spvgen_free_words(words);
}

static void test_the_env_decides_which_spirv_versions_are_allowed(void) {
  size_t count = 0;
  /* Assembled for Vulkan 1.3: a SPIR-V 1.6 header, which Vulkan 1.1 does not accept. */
  uint32_t *words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  CHECK_EQ_U64(words[1], 0x00010600u);
  char message[1024];
  spvgen_validate_options options = {.env = SPVGEN_ENV_VULKAN_1_1};
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message),
               SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(message, "1.6");
  CHECK_CONTAINS(message, "Vulkan 1.1");
  options.env = SPVGEN_ENV_VULKAN_1_4;
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message), SPVGEN_OK);
  options.env = SPVGEN_ENV_UNIVERSAL_1_6;
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message), SPVGEN_OK);
  spvgen_free_words(words);

  /* The same module at SPIR-V 1.3 is fine for Vulkan 1.1. */
  words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_1, &count);
  if (!words) return;
  CHECK_EQ_U64(words[1], 0x00010300u);
  options.env = SPVGEN_ENV_VULKAN_1_1;
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message), SPVGEN_OK);
  spvgen_free_words(words);
}

static void test_vulkan_envs_apply_vulkan_rules_and_universal_does_not(void) {
  /* Vulkan requires a workgroup size on GLCompute entry points; core SPIR-V does not. */
  size_t count = 0;
  uint32_t *words = assemble(
      "OpCapability Shader\n"
      "OpMemoryModel Logical GLSL450\n"
      "OpEntryPoint GLCompute %main \"main\"\n" EMPTY_MAIN,
      SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[1024];
  spvgen_validate_options options = {.env = SPVGEN_ENV_VULKAN_1_3};
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message),
               SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(message, "LocalSize");
  options.env = SPVGEN_ENV_UNIVERSAL_1_6;
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message), SPVGEN_OK);
  spvgen_free_words(words);
}

/* SPIRV-Tools 2025.1 checks capabilities against Vulkan only up to vulkan1.2; spvgen
 * checks them for every Vulkan env against its table (spvgen_vk_capability_find), so a
 * module declaring Kernel, Addresses or Linkage is named as such everywhere. Universal
 * envs are left to SPIRV-Tools. */
static void test_vulkan_envs_reject_capabilities_vulkan_does_not_allow(void) {
  static const char *const caps[] = {"Kernel", "Addresses", "Linkage"};
  static const spvgen_target_env envs[] = {SPVGEN_ENV_VULKAN_1_1, SPVGEN_ENV_VULKAN_1_2,
                                           SPVGEN_ENV_VULKAN_1_3, SPVGEN_ENV_VULKAN_1_4};
  char text[1024], message[1024], expected[128];
  for (size_t c = 0; c < 3; c++) {
    /* SPIR-V 1.3 (vulkan1.1's): a version every Vulkan env takes. */
    snprintf(text, sizeof text, "OpCapability %s\n%s", caps[c], tiny_compute);
    size_t count = 0;
    uint32_t *words = assemble(text, SPVGEN_ENV_VULKAN_1_1, &count);
    if (!words) return;
    for (size_t e = 0; e < 4; e++) {
      spvgen_validate_options options = {.env = envs[e]};
      CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message),
                   SPVGEN_ERROR_VALIDATION);
      snprintf(expected, sizeof expected,
               "OpCapability %s (word 5): Vulkan does not allow capability %s", caps[c], caps[c]);
      CHECK_CONTAINS(message, expected);
      CHECK_CONTAINS(message, spvgen_target_env_name(envs[e]));
    }
    spvgen_validate_options universal = {.env = SPVGEN_ENV_UNIVERSAL_1_6};
    spvgen_validate(words, count, &universal, message, sizeof message);
    CHECK_NOT_CONTAINS(message, "Vulkan does not allow");
    spvgen_free_words(words);
  }
  /* The same module with capabilities Vulkan allows passes every Vulkan env. */
  snprintf(text, sizeof text, "OpCapability GroupNonUniformBallot\nOpCapability Int64\n%s",
           tiny_compute);
  size_t count = 0;
  uint32_t *words = assemble(text, SPVGEN_ENV_VULKAN_1_1, &count);
  if (!words) return;
  for (size_t e = 0; e < 4; e++) {
    spvgen_validate_options options = {.env = envs[e]};
    CHECK_MSG(spvgen_validate(words, count, &options, message, sizeof message) == SPVGEN_OK,
              "%s: %s", spvgen_target_env_name(envs[e]), message);
  }
  spvgen_free_words(words);
}

static void test_scalar_block_layout_allows_offsets_relaxed_layout_forbids(void) {
  size_t count = 0;
  uint32_t *words = assemble(vec3_at_8, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[1024];
  spvgen_validate_options options = {0};
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message),
               SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(message, "layout");
  options.scalar_block_layout = 1;
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message), SPVGEN_OK);
  spvgen_free_words(words);

  words = assemble(vec3_at_16, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  options.scalar_block_layout = 0;
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message), SPVGEN_OK);
  spvgen_free_words(words);
}

static void test_relaxed_layout_is_on_for_vulkan_whether_or_not_requested(void) {
  /* { float a; vec3 v at offset 4 }: not std430-aligned, but it does not straddle a
   * 16-byte boundary, so VK_KHR_relaxed_block_layout (core since Vulkan 1.1) allows it.
   * relax_block_layout = 0 must not switch those rules off. */
  size_t count = 0;
  uint32_t *words = assemble(
      "OpCapability Shader\n"
      "OpMemoryModel Logical GLSL450\n"
      "OpEntryPoint GLCompute %main \"main\" %buf\n"
      "OpExecutionMode %main LocalSize 1 1 1\n"
      "OpDecorate %Block Block\n"
      "OpMemberDecorate %Block 0 Offset 0\n"
      "OpMemberDecorate %Block 1 Offset 4\n"
      "OpDecorate %buf DescriptorSet 0\n"
      "OpDecorate %buf Binding 0\n"
      "%void = OpTypeVoid\n"
      "%fn = OpTypeFunction %void\n"
      "%float = OpTypeFloat 32\n"
      "%v3float = OpTypeVector %float 3\n"
      "%Block = OpTypeStruct %float %v3float\n"
      "%ptr = OpTypePointer StorageBuffer %Block\n"
      "%buf = OpVariable %ptr StorageBuffer\n"
      "%main = OpFunction %void None %fn\n"
      "%entry = OpLabel\n"
      "OpReturn\n"
      "OpFunctionEnd\n",
      SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[1024];
  spvgen_validate_options options = {.relax_block_layout = 0};
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message), SPVGEN_OK);
  options.relax_block_layout = 1;
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message), SPVGEN_OK);
  spvgen_free_words(words);
}

static void test_bad_arguments_are_invalid_argument_with_a_message(void) {
  size_t count = 0;
  uint32_t *words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[256];

  CHECK_EQ_U64(spvgen_validate(NULL, count, NULL, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(message, "spvgen_validate");
  CHECK_CONTAINS(message, "NULL");

  CHECK_EQ_U64(spvgen_validate(words, 0, NULL, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(message, "header");
  CHECK_EQ_U64(spvgen_validate(words, 4, NULL, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(message, "4 words");

  spvgen_validate_options options = {.env = (spvgen_target_env)99};
  CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(message, "env");

  /* No message buffer at all is fine, valid or not. */
  CHECK_EQ_U64(spvgen_validate(words, count, NULL, NULL, 0), SPVGEN_OK);
  CHECK_EQ_U64(spvgen_validate(words, 3, NULL, NULL, 100), SPVGEN_ERROR_INVALID_ARGUMENT);
  words[0] = 0;
  CHECK_EQ_U64(spvgen_validate(words, count, NULL, NULL, 0), SPVGEN_ERROR_VALIDATION);
  spvgen_free_words(words);
}

static void test_a_small_message_buffer_is_truncated_and_terminated(void) {
  size_t count = 0;
  uint32_t *words = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  words[0] = 0xdeadbeefu;
  char message[8 + 4];
  memset(message, '#', sizeof message);
  CHECK_EQ_U64(spvgen_validate(words, count, NULL, message, 8), SPVGEN_ERROR_VALIDATION);
  CHECK_EQ_U64(strlen(message), 7);
  CHECK(message[8] == '#'); /* nothing written past message_size */
  spvgen_free_words(words);
}

static void test_env_names_round_trip(void) {
  static const spvgen_target_env envs[] = {SPVGEN_ENV_VULKAN_1_3, SPVGEN_ENV_VULKAN_1_4,
                                           SPVGEN_ENV_VULKAN_1_2, SPVGEN_ENV_VULKAN_1_1,
                                           SPVGEN_ENV_UNIVERSAL_1_6};
  for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++) {
    spvgen_target_env back = (spvgen_target_env)-1;
    const char *name = spvgen_target_env_name(envs[i]);
    CHECK_EQ_U64(spvgen_target_env_parse(name, &back), SPVGEN_OK);
    CHECK_EQ_U64(back, envs[i]);
  }
  CHECK_STR_EQ(spvgen_target_env_name(SPVGEN_ENV_VULKAN_1_3), "vulkan1.3");
  CHECK_STR_EQ(spvgen_target_env_name(SPVGEN_ENV_UNIVERSAL_1_6), "universal1.6");
  CHECK_STR_EQ(spvgen_target_env_name((spvgen_target_env)42), "unknown");
  spvgen_target_env untouched = SPVGEN_ENV_VULKAN_1_2;
  CHECK_EQ_U64(spvgen_target_env_parse("vulkan1.0", &untouched),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(spvgen_target_env_parse(NULL, &untouched), SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_EQ_U64(untouched, SPVGEN_ENV_VULKAN_1_2);
}

static void test_assembly_errors_name_line_and_column(void) {
  uint32_t *words = (uint32_t *)1;
  size_t count = 7;
  char message[256];
  CHECK_EQ_U64(
      spvgen_assemble("OpCapability Shader\n  OpNoSuchThing %x\n", SPVGEN_ENV_VULKAN_1_3,
                      &words, &count, message, sizeof message),
      SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(words == NULL);
  CHECK_EQ_U64(count, 0);
  CHECK_CONTAINS(message, "spvgen_assemble: 2:3:");
  CHECK_CONTAINS(message, "OpNoSuchThing");
  CHECK_EQ_U64(
      spvgen_assemble(NULL, SPVGEN_ENV_VULKAN_1_3, &words, &count, message, sizeof message),
      SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(message, "text is NULL");
}

/* ------------------------------------------ cooperative-vector operands ---- */

/* shared/repro/validator-crash-coopvec-scalar-input.spv: SPIRV-Tools 2025.1's validator
 * dies of SIGSEGV on it; spvgen_validate refuses it before, naming the instruction, its
 * word and the operand, for every env and in either byte order. */
static void test_a_cooperative_vector_op_with_a_scalar_input_is_refused_not_crashed_on(void) {
  static const spvgen_target_env envs[] = {SPVGEN_ENV_VULKAN_1_3, SPVGEN_ENV_VULKAN_1_4,
                                           SPVGEN_ENV_UNIVERSAL_1_6};
  uint32_t words[REPRO_COOPVEC_SCALAR_INPUT_WORDS];
  memcpy(words, repro_coopvec_scalar_input, sizeof words);
  CHECK_EQ_U64(words[REPRO_COOPVEC_SCALAR_INPUT_AT] & 0xFFFFu,
               SpvOpCooperativeVectorMatrixMulNV);
  for (int swapped = 0; swapped < 2; swapped++) {
    for (size_t e = 0; e < sizeof envs / sizeof envs[0]; e++) {
      spvgen_validate_options options = {.env = envs[e]};
      char message[1024];
      CHECK_EQ_U64(spvgen_validate(words, REPRO_COOPVEC_SCALAR_INPUT_WORDS, &options,
                                   message, sizeof message),
                   SPVGEN_ERROR_VALIDATION);
      CHECK_CONTAINS(message, "spvgen_validate: OpCooperativeVectorMatrixMulNV at word 119: "
                              "operand Input is id %11 of type %8");
      CHECK_CONTAINS(message, "cooperative vector");
    }
    for (size_t i = 0; i < REPRO_COOPVEC_SCALAR_INPUT_WORDS; i++) {
      uint32_t w = words[i];
      words[i] = (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
    }
  }
}

/* Every cooperative-vector instruction, valid as written; then each of its operand words
 * replaced by every id (and 0 and the bound): the answer is OK or a validation error,
 * never a crash. A scalar as the Input of OpCooperativeVectorMatrixMulAddNV and as the A
 * of OpCooperativeVectorOuterProductAccumulateNV is named. */
static const char coopvec_ops[] =
    "OpCapability Shader\n"
    "OpCapability Float16\n"
    "OpCapability StorageBuffer16BitAccess\n"
    "OpCapability CooperativeVectorNV\n"
    "OpCapability CooperativeVectorTrainingNV\n"
    "OpExtension \"SPV_NV_cooperative_vector\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %buf\n"
    "OpExecutionMode %main LocalSize 32 1 1\n"
    "OpDecorate %arr ArrayStride 2\n"
    "OpDecorate %blk Block\n"
    "OpMemberDecorate %blk 0 Offset 0\n"
    "OpDecorate %buf DescriptorSet 0\n"
    "OpDecorate %buf Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%half = OpTypeFloat 16\n"
    "%uint = OpTypeInt 32 0\n"
    "%bool = OpTypeBool\n"
    "%false = OpConstantFalse %bool\n"
    "%u0 = OpConstant %uint 0\n"
    "%u16 = OpConstant %uint 16\n"
    "%v16 = OpTypeCooperativeVectorNV %half %u16\n"
    "%arr = OpTypeRuntimeArray %half\n"
    "%blk = OpTypeStruct %arr\n"
    "%pblk = OpTypePointer StorageBuffer %blk\n"
    "%parr = OpTypePointer StorageBuffer %arr\n"
    "%buf = OpVariable %pblk StorageBuffer\n"
    "%main = OpFunction %void None %fn\n"
    "%lbl = OpLabel\n"
    "%m = OpAccessChain %parr %buf %u0\n"
    "%x = OpCooperativeVectorLoadNV %v16 %m %u0\n"
    "%r = OpCooperativeVectorMatrixMulNV %v16 %x %u0 %m %u0 %u0 %u16 %u16 %u0 %false %u16\n"
    "%r2 = OpCooperativeVectorMatrixMulAddNV %v16 %x %u0 %m %u0 %u0 %m %u0 %u0 %u16 %u16 "
    "%u0 %false %u16\n"
    "OpCooperativeVectorOuterProductAccumulateNV %m %u0 %x %x %u0 %u0 %u16\n"
    "OpCooperativeVectorReduceSumAccumulateNV %m %u0 %x\n"
    "OpCooperativeVectorStoreNV %m %u0 %x\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void test_cooperative_vector_operands_of_every_id_are_judged_not_crashed_on(void) {
  size_t count = 0;
  uint32_t *words = assemble(coopvec_ops, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[1024];
  CHECK_MSG(spvgen_validate(words, count, NULL, message, sizeof message) == SPVGEN_OK,
            "the unmutated module: %s", message);
  uint32_t bound = words[3], scalar = 0;
  /* %u0: the result of the first OpConstant. */
  for (size_t i = 5; i < count && !scalar; i += words[i] >> 16)
    if ((words[i] & 0xFFFFu) == SpvOpConstant) scalar = words[i + 2];
  CHECK(scalar != 0);
  int instructions = 0, named = 0;
  for (size_t i = 5; i < count;) {
    uint32_t wc = words[i] >> 16, op = words[i] & 0xFFFFu;
    if (wc == 0) break;
    if (op >= SpvOpCooperativeVectorMatrixMulNV && op <= SpvOpCooperativeVectorStoreNV) {
      instructions++;
      for (uint32_t k = 1; k < wc; k++) {
        uint32_t saved = words[i + k];
        for (uint32_t id = 0; id <= bound; id++) {
          words[i + k] = id;
          spvgen_status st = spvgen_validate(words, count, NULL, message, sizeof message);
          CHECK_MSG(st == SPVGEN_OK || st == SPVGEN_ERROR_VALIDATION,
                    "opcode %u word %u = %u: status %d (%s)", op, k, id, (int)st, message);
          bool muladd = op == SpvOpCooperativeVectorMatrixMulAddNV;
          if (id == scalar && k == 3 &&
              (muladd || op == SpvOpCooperativeVectorOuterProductAccumulateNV)) {
            CHECK_EQ_U64(st, SPVGEN_ERROR_VALIDATION);
            CHECK_CONTAINS(message, muladd ? "OpCooperativeVectorMatrixMulAddNV at word"
                                           : "OpCooperativeVectorOuterProductAccumulateNV");
            CHECK_CONTAINS(message, muladd ? "operand Input is id" : "operand A is id");
            named++;
          }
        }
        words[i + k] = saved;
      }
    }
    i += wc;
  }
  CHECK_EQ_U64(instructions, 6);
  CHECK_EQ_U64(named, 2);
  spvgen_free_words(words);
}

/* ------------------------------------------- tensor and coopmat2 operands ---- */

/* A file from the suite's data (tests/data/...), read whole; NULL (skipped) without
 * SPVGEN_SOURCE_DIR. */
static uint32_t *read_data_words(const char *name, size_t *count) {
  const char *src = getenv("SPVGEN_SOURCE_DIR");
  if (!src) {
    test_skip("SPVGEN_SOURCE_DIR is not set (ctest sets it)");
    return NULL;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/data/%s", src, name);
  FILE *f = fopen(path, "rb");
  CHECK_MSG(f != NULL, "cannot open %s", path);
  if (!f) return NULL;
  uint32_t *w = malloc(1 << 20);
  size_t n = w ? fread(w, 4, (1 << 20) / 4, f) : 0;
  fclose(f);
  *count = n;
  return w;
}

/* shared/repro/2026-11-26/decodefunc0.spv: an OpCooperativeMatrixLoadTensorNV whose
 * DecodeFunc has no parameters. SPIRV-Tools 2025.1 reads the function type's parameters
 * unchecked (std::out_of_range, abort); spvgen_validate refuses it first, naming the
 * instruction, the operand and the function's type, for every env. */
static void test_a_decode_func_without_parameters_is_refused_not_crashed_on(void) {
  size_t count = 0;
  uint32_t *words = read_data_words("repro-2026-11-26/decodefunc0.spv", &count);
  if (!words) return;
  static const spvgen_target_env envs[] = {SPVGEN_ENV_VULKAN_1_3, SPVGEN_ENV_VULKAN_1_4,
                                           SPVGEN_ENV_VULKAN_1_2, SPVGEN_ENV_UNIVERSAL_1_6};
  for (size_t e = 0; e < sizeof envs / sizeof envs[0]; e++) {
    spvgen_validate_options options = {.env = envs[e]};
    char message[1024];
    CHECK_EQ_U64(spvgen_validate(words, count, &options, message, sizeof message),
                 SPVGEN_ERROR_VALIDATION);
    CHECK_CONTAINS(message, "OpCooperativeMatrixLoadTensorNV at word 573: operand DecodeFunc "
                            "is id %85, an OpFunction whose type %38 has 0 parameters");
  }
  free(words);
}

/* Every cooperative matrix 2 and tensor addressing instruction SPIRV-Tools reads
 * operands of unchecked, valid as written: a tensor load with a TensorView and a
 * DecodeFunc, a per-element operation, a reduction and a tensor store, with their
 * functions defined after the entry point (forward references, as SPIR-V allows). */
static const char tensor_ops[] =
    "OpCapability Shader\n"
    "OpCapability Float16\n"
    "OpCapability StorageBuffer16BitAccess\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability PhysicalStorageBufferAddresses\n"
    "OpCapability CooperativeMatrixKHR\n"
    "OpCapability CooperativeMatrixReductionsNV\n"
    "OpCapability CooperativeMatrixPerElementOperationsNV\n"
    "OpCapability TensorAddressingNV\n"
    "OpCapability CooperativeMatrixTensorAddressingNV\n"
    "OpCapability CooperativeMatrixBlockLoadsNV\n"
    "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
    "OpExtension \"SPV_NV_cooperative_matrix2\"\n"
    "OpExtension \"SPV_NV_tensor_addressing\"\n"
    "OpMemoryModel PhysicalStorageBuffer64 Vulkan\n"
    "OpEntryPoint GLCompute %main \"main\" %buf\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpDecorate %arr ArrayStride 2\n"
    "OpDecorate %blk Block\n"
    "OpMemberDecorate %blk 0 Offset 0\n"
    "OpDecorate %buf DescriptorSet 0\n"
    "OpDecorate %buf Binding 0\n"
    "OpDecorate %pblk Block\n"
    "OpMemberDecorate %pblk 0 Offset 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%half = OpTypeFloat 16\n"
    "%uint = OpTypeInt 32 0\n"
    "%bool = OpTypeBool\n"
    "%false = OpConstantFalse %bool\n"
    "%u0 = OpConstant %uint 0\n"
    "%u1 = OpConstant %uint 1\n"
    "%u2 = OpConstant %uint 2\n"
    "%u16 = OpConstant %uint 16\n"
    "%u64 = OpConstant %uint 64\n"
    "%arr = OpTypeRuntimeArray %half\n"
    "%blk = OpTypeStruct %arr\n"
    "%sbp = OpTypePointer StorageBuffer %blk\n"
    "%buf = OpVariable %sbp StorageBuffer\n"
    "%parr = OpTypePointer StorageBuffer %arr\n"
    "%mat = OpTypeCooperativeMatrixKHR %half %u2 %u16 %u16 %u2\n"
    "%h0 = OpConstant %half 0\n"
    "%zero = OpConstantComposite %mat %h0\n"
    "%layout = OpTypeTensorLayoutNV %u2 %u0\n"
    "%view = OpTypeTensorViewNV %u2 %false %u0 %u1\n"
    "%pblk = OpTypeStruct %half\n"
    "%psb = OpTypePointer PhysicalStorageBuffer %pblk\n"
    "%dims = OpTypeArray %uint %u2\n"
    "%decode_t = OpTypeFunction %half %psb %dims %dims\n"
    "%elem_t = OpTypeFunction %half %uint %uint %half\n"
    "%comb_t = OpTypeFunction %half %half %half\n"
    "%main = OpFunction %void None %fn\n"
    "%lbl = OpLabel\n"
    "%p = OpAccessChain %parr %buf %u0\n"
    "%tl0 = OpCreateTensorLayoutNV %layout\n"
    "%tl = OpTensorLayoutSetDimensionNV %layout %tl0 %u64 %u64\n"
    "%tv = OpCreateTensorViewNV %view\n"
    "%x = OpCooperativeMatrixLoadTensorNV %mat %p %zero %tl None TensorView|DecodeFunc %tv "
    "%decode\n"
    "%y = OpCooperativeMatrixPerElementOpNV %mat %x %elem\n"
    "%z = OpCooperativeMatrixReduceNV %mat %y Row|Column %comb\n"
    "OpCooperativeMatrixStoreTensorNV %p %z %tl None None\n"
    "OpReturn\n"
    "OpFunctionEnd\n"
    "%decode = OpFunction %half None %decode_t\n"
    "%dp = OpFunctionParameter %psb\n"
    "%dc = OpFunctionParameter %dims\n"
    "%dd = OpFunctionParameter %dims\n"
    "%dl = OpLabel\n"
    "OpReturnValue %h0\n"
    "OpFunctionEnd\n"
    "%elem = OpFunction %half None %elem_t\n"
    "%er = OpFunctionParameter %uint\n"
    "%ec = OpFunctionParameter %uint\n"
    "%ev = OpFunctionParameter %half\n"
    "%el = OpLabel\n"
    "OpReturnValue %ev\n"
    "OpFunctionEnd\n"
    "%comb = OpFunction %half None %comb_t\n"
    "%ca = OpFunctionParameter %half\n"
    "%cb = OpFunctionParameter %half\n"
    "%cl = OpLabel\n"
    "%cs = OpFAdd %half %ca %cb\n"
    "OpReturnValue %cs\n"
    "OpFunctionEnd\n";

static bool tensor_mutated_opcode(uint32_t op) {
  return op == SpvOpCooperativeMatrixLoadTensorNV || op == SpvOpCooperativeMatrixStoreTensorNV ||
         op == SpvOpCooperativeMatrixPerElementOpNV || op == SpvOpCooperativeMatrixReduceNV ||
         op == SpvOpCreateTensorLayoutNV || op == SpvOpTensorLayoutSetDimensionNV ||
         op == SpvOpCreateTensorViewNV || op == SpvOpFunction || op == SpvOpTypeFunction ||
         op == SpvOpTypeTensorLayoutNV || op == SpvOpTypeTensorViewNV ||
         op == SpvOpTypeCooperativeMatrixKHR;
}

/* Each operand word of those instructions (and of the functions, their types and the
 * cooperative and tensor types) replaced by every id, 0 and the bound: the answer is OK
 * or a validation error, never a crash (SPIRV-Tools 2025.1 aborted or died on a
 * DecodeFunc, Func or CombineFunc of the wrong type, a TensorView that is a label...). */
static void test_tensor_operands_of_every_id_are_judged_not_crashed_on(void) {
  size_t count = 0;
  uint32_t *words = assemble(tensor_ops, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!words) return;
  char message[1024];
  CHECK_MSG(spvgen_validate(words, count, NULL, message, sizeof message) == SPVGEN_OK,
            "the unmutated module: %s", message);
  uint32_t bound = words[3];
  int mutated = 0, refused_first = 0;
  for (size_t i = 5; i < count;) {
    uint32_t wc = words[i] >> 16, op = words[i] & 0xFFFFu;
    if (wc == 0) break;
    if (tensor_mutated_opcode(op)) {
      for (uint32_t k = 1; k < wc; k++) {
        uint32_t saved = words[i + k];
        for (uint32_t id = 0; id <= bound; id++) {
          words[i + k] = id;
          spvgen_status st = spvgen_validate(words, count, NULL, message, sizeof message);
          CHECK_MSG(st == SPVGEN_OK || st == SPVGEN_ERROR_VALIDATION,
                    "opcode %u word %u = %u: status %d (%s)", op, k, id, (int)st, message);
          mutated++;
          if (st != SPVGEN_OK && strstr(message, "spvgen_validate: ")) refused_first++;
        }
        words[i + k] = saved;
      }
    }
    i += wc;
  }
  CHECK(mutated > 3000);
  CHECK(refused_first > 0); /* the pre-check, not only SPIRV-Tools, answered some */
  spvgen_free_words(words);
}

/* The operands the pre-check judges, each named with what is wrong: a DecodeFunc that is
 * not a function, a Func whose type is not a function type, a CombineFunc that nothing
 * defines... checked by rewriting the valid module's text. */
static void test_each_prechecked_operand_is_named(void) {
  static const struct {
    const char *from, *to, *want;
  } cases[] = {
      {"%tv %decode\n", "%tv %u0\n", "operand DecodeFunc is id %"},
      {"%decode_t = OpTypeFunction %half %psb %dims %dims\n",
       "%decode_t = OpTypeFunction %half %dims %dims %dims\n",
       "is not a pointer (a DecodeFunc's first parameter"},
      {"%decode_t = OpTypeFunction %half %psb %dims %dims\n",
       "%decode_t = OpTypeFunction %half %psb %dims\n", "has 2 parameters"},
      {"%elem = OpFunction %half None %elem_t\n", "%elem = OpFunction %half None %u0\n",
       "operand Func is id %"},
      {"Row|Column %comb\n", "Row|Column %h0\n", "operand CombineFunc is id %"},
      {"TensorView|DecodeFunc %tv ", "TensorView|DecodeFunc %el ", "operand TensorView is id %"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const char *at = strstr(tensor_ops, cases[c].from);
    CHECK(at != NULL);
    if (!at) continue;
    char text[sizeof tensor_ops + 64];
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - tensor_ops), tensor_ops, cases[c].to,
             at + strlen(cases[c].from));
    size_t count = 0;
    uint32_t *words = assemble(text, SPVGEN_ENV_VULKAN_1_3, &count);
    if (!words) continue;
    char message[1024];
    CHECK_EQ_U64(spvgen_validate(words, count, NULL, message, sizeof message),
                 SPVGEN_ERROR_VALIDATION);
    CHECK_CONTAINS(message, "spvgen_validate: OpCooperativeMatrix");
    CHECK_CONTAINS(message, cases[c].want);
    spvgen_free_words(words);
  }
}

/* A module over SPVGEN_VALIDATE_MAX_WORDS is refused by its size, before SPIRV-Tools
 * allocates for it; one at the limit is validated (and refused for what it holds). */
static void test_a_module_over_the_size_limit_is_refused_before_validation(void) {
  size_t count = 0;
  uint32_t *valid = assemble(tiny_compute, SPVGEN_ENV_VULKAN_1_3, &count);
  if (!valid) return;
  size_t n = SPVGEN_VALIDATE_MAX_WORDS + 1;
  uint32_t *words = malloc(n * sizeof *words);
  CHECK(words != NULL);
  if (!words) return;
  memcpy(words, valid, count * sizeof *words);
  for (size_t i = count; i < n; i++) words[i] = 0x00010000u; /* OpNop */
  char message[1024];
  CHECK_EQ_U64(spvgen_validate(words, n, NULL, message, sizeof message),
               SPVGEN_ERROR_OUT_OF_MEMORY);
  CHECK_CONTAINS(message, "1048577 words is over the 1048576 words (4 MiB)");
  char *text = NULL;
  CHECK_EQ_U64(spvgen_disassemble(words, n, 0, &text, message, sizeof message),
               SPVGEN_ERROR_OUT_OF_MEMORY);
  CHECK(text == NULL);
  CHECK_CONTAINS(message, "SPVGEN_VALIDATE_MAX_WORDS");
  CHECK_EQ_U64(spvgen_validate(words, n - 1, NULL, message, sizeof message),
               SPVGEN_ERROR_VALIDATION);
  CHECK_CONTAINS(message, "Nop");
  free(words);
  spvgen_free_words(valid);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_a_valid_module_is_ok_with_an_empty_message),
      TEST_CASE(test_missing_memory_model_is_a_validation_error),
      TEST_CASE(test_an_undefined_id_is_a_validation_error),
      TEST_CASE(test_a_wrong_magic_number_is_a_validation_error),
      TEST_CASE(test_an_id_bound_above_the_universal_limit_is_a_validation_error),
      TEST_CASE(test_a_truncated_module_is_a_validation_error),
      TEST_CASE(test_the_env_decides_which_spirv_versions_are_allowed),
      TEST_CASE(test_vulkan_envs_apply_vulkan_rules_and_universal_does_not),
      TEST_CASE(test_vulkan_envs_reject_capabilities_vulkan_does_not_allow),
      TEST_CASE(test_scalar_block_layout_allows_offsets_relaxed_layout_forbids),
      TEST_CASE(test_relaxed_layout_is_on_for_vulkan_whether_or_not_requested),
      TEST_CASE(test_bad_arguments_are_invalid_argument_with_a_message),
      TEST_CASE(test_a_small_message_buffer_is_truncated_and_terminated),
      TEST_CASE(test_env_names_round_trip),
      TEST_CASE(test_assembly_errors_name_line_and_column),
      TEST_CASE(test_a_cooperative_vector_op_with_a_scalar_input_is_refused_not_crashed_on),
      TEST_CASE(test_a_decode_func_without_parameters_is_refused_not_crashed_on),
      TEST_CASE(test_tensor_operands_of_every_id_are_judged_not_crashed_on),
      TEST_CASE(test_each_prechecked_operand_is_named),
      TEST_CASE(test_a_module_over_the_size_limit_is_refused_before_validation),
      TEST_CASE(test_cooperative_vector_operands_of_every_id_are_judged_not_crashed_on),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
