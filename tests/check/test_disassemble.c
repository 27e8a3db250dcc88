/* tests/check/test_disassemble.c — spvgen_disassemble: flags (friendly names, indent,
 * header, comments), decoding errors and bad arguments come back as a status plus a
 * message. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/check.h"

static const char module_text[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\"\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpName %main \"main\"\n"
    "OpName %counter \"counter\"\n"
    "OpName %fn \"fn\"\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%float = OpTypeFloat 32\n"
    "%uint = OpTypeInt 32 0\n"
    "%uint_7 = OpConstant %uint 7\n"
    "%ptr = OpTypePointer Function %uint\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%counter = OpVariable %ptr Function\n"
    "OpStore %counter %uint_7\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static uint32_t *assemble(size_t *count) {
  uint32_t *words = NULL;
  char message[1024];
  spvgen_status s = spvgen_assemble(module_text, SPVGEN_ENV_VULKAN_1_3, &words, count,
                                    message, sizeof message);
  CHECK_MSG(s == SPVGEN_OK, "spvgen_assemble: %s", message);
  return words;
}

static char *disassemble(const uint32_t *words, size_t count, uint32_t flags) {
  char *text = NULL;
  char message[1024];
  spvgen_status s = spvgen_disassemble(words, count, flags, &text, message, sizeof message);
  CHECK_MSG(s == SPVGEN_OK, "%s: %s", spvgen_status_name(s), message);
  CHECK_MSG(s != SPVGEN_OK || message[0] == '\0', "OK with a message: %s", message);
  if (s != SPVGEN_OK) {
    spvgen_free_text(text);
    return NULL;
  }
  return text;
}

static void test_friendly_names_name_types_constants_and_debug_names(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  char *text = disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_NO_HEADER);
  static const char *const lines[] = {
      "OpEntryPoint GLCompute %main \"main\"",
      "OpExecutionMode %main LocalSize 64 1 1",
      "%void = OpTypeVoid",
      "%float = OpTypeFloat 32",
      "%uint = OpTypeInt 32 0",
      "%uint_7 = OpConstant %uint 7",
      "%fn = OpTypeFunction %void",
      "%main = OpFunction %void None %fn",
      "%counter = OpVariable %_ptr_Function_uint Function",
      "OpStore %counter %uint_7",
  };
  check_has_lines(text, lines, TEST_COUNT(lines));
  spvgen_free_text(text);
  spvgen_free_words(words);
}

static void test_without_friendly_names_ids_are_numbers(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  char *text = disassemble(words, count, SPVGEN_DIS_NO_HEADER);
  check_has_line(text, "OpEntryPoint GLCompute %1 \"main\"");
  check_lacks_line(text, "%void = OpTypeVoid");
  CHECK_NOT_CONTAINS(text, "%main");
  spvgen_free_text(text);
  spvgen_free_words(words);
}

static void test_the_header_comment_is_there_unless_no_header(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  char *with = disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES);
  char *without =
      disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_NO_HEADER);
  check_has_line(with, "; SPIR-V");
  check_has_line(with, "; Version: 1.6");
  CHECK_NOT_CONTAINS(without, "; SPIR-V");
  CHECK_NOT_CONTAINS(without, "; Version");
  CHECK(without && strncmp(without, "OpCapability Shader\n", 20) == 0);
  spvgen_free_text(with);
  spvgen_free_text(without);
  spvgen_free_words(words);
}

static void test_indent_aligns_result_ids_in_a_column(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  char *flat = disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_NO_HEADER);
  char *indented = disassemble(
      words, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_NO_HEADER | SPVGEN_DIS_INDENT);
  CHECK_CONTAINS(flat, "\nOpReturn\n");
  CHECK_NOT_CONTAINS(flat, "\n ");
  /* Instructions without a result start in the column after "%result = ". */
  CHECK_CONTAINS(indented, "\n               OpReturn\n");
  CHECK_CONTAINS(indented, "\n       %void = OpTypeVoid\n");
  spvgen_free_text(flat);
  spvgen_free_text(indented);
  spvgen_free_words(words);
}

static void test_comment_adds_section_comments(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  char *plain = disassemble(words, count, SPVGEN_DIS_NO_HEADER);
  char *commented = disassemble(words, count, SPVGEN_DIS_NO_HEADER | SPVGEN_DIS_COMMENT);
  CHECK_NOT_CONTAINS(plain, "; Debug Information");
  check_has_line(commented, "; Debug Information");
  spvgen_free_text(plain);
  spvgen_free_text(commented);
  spvgen_free_words(words);
}

static void test_a_module_need_not_be_valid_to_be_disassembled(void) {
  /* OpReturn outside a function: decodable, but not valid. */
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  CHECK_EQ_U64(spvgen_validate(words, count - 1, NULL, NULL, 0), SPVGEN_ERROR_VALIDATION);
  char *text =
      disassemble(words, count - 1, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_NO_HEADER);
  CHECK_NOT_CONTAINS(text, "OpFunctionEnd");
  check_has_line(text, "OpReturn");
  spvgen_free_text(text);
  spvgen_free_words(words);
}

static void test_undecodable_input_is_invalid_argument_with_the_decoder_message(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  char *text = NULL;
  char message[1024];

  words[0] = 0x12345678u;
  CHECK_EQ_U64(spvgen_disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES, &text, message,
                                  sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(text == NULL);
  CHECK_CONTAINS(message, "spvgen_disassemble: ");
  CHECK_CONTAINS(message, "magic");
  words[0] = 0x07230203u;

  /* An instruction whose word count runs past the end: the message names the word. */
  words[5] = (100u << 16) | (words[5] & 0xFFFFu);
  CHECK_EQ_U64(spvgen_disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES, &text, message,
                                  sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(text == NULL);
  CHECK_CONTAINS(message, "word 5");

  /* A word count of zero is never valid. */
  words[5] = 0;
  CHECK_EQ_U64(spvgen_disassemble(words, count, 0, &text, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(text == NULL);
  CHECK(message[0] != '\0');
  /* No message buffer: the status alone. A short one: truncated and terminated. */
  CHECK_EQ_U64(spvgen_disassemble(words, count, 0, &text, NULL, 0),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(text == NULL);
  char small[8];
  memset(small, 'x', sizeof small);
  CHECK_EQ_U64(spvgen_disassemble(words, count, 0, &text, small, sizeof small),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(text == NULL);
  CHECK(small[sizeof small - 1] == '\0');
  CHECK(strncmp(small, "spvgen_", 7) == 0);
  spvgen_free_words(words);
}

static void test_bad_arguments_are_invalid_argument_with_a_message(void) {
  static const uint32_t header[5] = {0x07230203u, 0x00010600u, 0, 1, 0};
  char *text = (char *)1;
  char message[1024];
  CHECK_EQ_U64(spvgen_disassemble(NULL, 5, 0, &text, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(text == NULL);
  CHECK_CONTAINS(message, "spvgen_disassemble: words is NULL");
  CHECK_EQ_U64(spvgen_disassemble(header, 0, 0, &text, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(message, "header");
  CHECK_EQ_U64(spvgen_disassemble(header, 4, 0, &text, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(message, "4 words");
  CHECK_EQ_U64(spvgen_disassemble(header, 5, 1u << 20, &text, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK(text == NULL);
  CHECK_CONTAINS(message, "unknown flags");
  CHECK_EQ_U64(spvgen_disassemble(header, 5, 0, NULL, message, sizeof message),
               SPVGEN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(message, "text is NULL");
  /* A header alone is an empty module: it decodes to nothing but the header. */
  CHECK_EQ_U64(spvgen_disassemble(header, 5, 0, &text, message, sizeof message), SPVGEN_OK);
  CHECK_CONTAINS(text, "; Bound: 1");
  CHECK(message[0] == '\0');
  spvgen_free_text(text);
  spvgen_free_text(NULL);
}

static void test_check_disassemble_uses_friendly_names_without_header_or_indent(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  char *text = check_disassemble(words, count);
  CHECK(text && strncmp(text, "OpCapability Shader\n", 20) == 0);
  CHECK_CONTAINS(text, "\n%void = OpTypeVoid\n");
  spvgen_free_text(text);
  spvgen_free_words(words);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_friendly_names_name_types_constants_and_debug_names),
      TEST_CASE(test_without_friendly_names_ids_are_numbers),
      TEST_CASE(test_the_header_comment_is_there_unless_no_header),
      TEST_CASE(test_indent_aligns_result_ids_in_a_column),
      TEST_CASE(test_comment_adds_section_comments),
      TEST_CASE(test_a_module_need_not_be_valid_to_be_disassembled),
      TEST_CASE(test_undecodable_input_is_invalid_argument_with_the_decoder_message),
      TEST_CASE(test_bad_arguments_are_invalid_argument_with_a_message),
      TEST_CASE(test_check_disassemble_uses_friendly_names_without_header_or_indent),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
