/* tests/core/test_layout.c — the logical layout (SPIR-V 2.4): one word buffer per
 * section, so instructions emitted in any order land in their section; and word counts
 * of instructions with string operands (a NUL always, padded to whole words). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "words.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* Section rank of an instruction by opcode, in logical-layout order. Everything from the
 * first OpFunction on is the function section. */
enum {
  RANK_CAPABILITY,
  RANK_EXTENSION,
  RANK_IMPORT,
  RANK_MEMORY_MODEL,
  RANK_ENTRY_POINT,
  RANK_EXECUTION_MODE,
  RANK_DEBUG_SOURCE,
  RANK_NAMES,
  RANK_PROCESSED,
  RANK_ANNOTATION,
  RANK_GLOBALS,
  RANK_FUNCTIONS
};

static int rank_of(uint32_t opcode) {
  switch (opcode) {
  case SpvOpCapability: return RANK_CAPABILITY;
  case SpvOpExtension: return RANK_EXTENSION;
  case SpvOpExtInstImport: return RANK_IMPORT;
  case SpvOpMemoryModel: return RANK_MEMORY_MODEL;
  case SpvOpEntryPoint: return RANK_ENTRY_POINT;
  case SpvOpExecutionMode:
  case SpvOpExecutionModeId: return RANK_EXECUTION_MODE;
  case SpvOpString:
  case SpvOpSource:
  case SpvOpSourceContinued:
  case SpvOpSourceExtension: return RANK_DEBUG_SOURCE;
  case SpvOpName:
  case SpvOpMemberName: return RANK_NAMES;
  case SpvOpModuleProcessed: return RANK_PROCESSED;
  case SpvOpDecorate:
  case SpvOpMemberDecorate:
  case SpvOpDecorateId:
  case SpvOpDecorateString:
  case SpvOpMemberDecorateString:
  case SpvOpDecorationGroup:
  case SpvOpGroupDecorate:
  case SpvOpGroupMemberDecorate: return RANK_ANNOTATION;
  case SpvOpFunction: return RANK_FUNCTIONS;
  default: return RANK_GLOBALS;
  }
}

/* Fails the test where a section follows a later one; returns the number of
 * instructions seen per rank in seen[] (RANK_FUNCTIONS + 1 entries). */
static void check_layout_order(const uint32_t *w, size_t n, int *seen) {
  int rank = 0;
  bool in_functions = false;
  for (size_t i = 5; i < n;) {
    uint32_t count = w[i] >> 16, opcode = w[i] & 0xFFFF;
    if (count == 0 || i + count > n) {
      CHECK_MSG(0, "bad word count %u at word %zu", count, i);
      return;
    }
    if (opcode == SpvOpFunction) in_functions = true;
    int r = in_functions ? RANK_FUNCTIONS : rank_of(opcode);
    CHECK_MSG(r >= rank, "opcode %u (section %d) at word %zu follows section %d", opcode, r, i,
              rank);
    rank = r;
    seen[r]++;
    i += count;
  }
}

/* Checks that the string operand at word `at` of the instruction `inst` equals s, ends
 * the instruction (when last), and is NUL-padded to whole words. */
static void check_string_operand(const uint32_t *inst, uint32_t at, const char *s, bool last) {
  if (!inst) {
    CHECK_MSG(0, "instruction with \"%s\" not found", s);
    return;
  }
  uint32_t count = inst[0] >> 16;
  size_t len = strlen(s), words = len / 4 + 1;
  if (last)
    CHECK_MSG(count == at + words, "\"%s\" (%zu chars): word count %u, expected %zu", s, len,
              count, at + words);
  if (count < at + words) return;
  const unsigned char *bytes = (const unsigned char *)(inst + at);
  CHECK_MSG(memcmp(bytes, s, len) == 0, "\"%s\": bytes differ", s);
  for (size_t b = len; b < words * 4; b++)
    CHECK_MSG(bytes[b] == 0, "\"%s\": padding byte %zu is %u", s, b, bytes[b]);
}

/* ------------------------------------------------------------------ tests ---- */

static void test_instructions_emitted_out_of_order_land_in_their_section(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t f32 = spvgen_type_float(m, 32), void_t = spvgen_type_void(m);
  uint32_t elem_ptr = 0;
  uint32_t buf = spvgen_storage_buffer(m, f32, 0, 0, false, &elem_ptr);
  /* The function comes first; its entry point and LocalSize come after its body. */
  uint32_t main_fn = spvgen_function_begin(m, void_t, SpvFunctionControlMaskNone, NULL, 0, NULL);
  uint32_t zero = spvgen_const_u32(m, 0);          /* a constant inside a body */
  uint32_t v4 = spvgen_type_vector(m, f32, 4);      /* a type after instructions */
  uint32_t priv_ptr = spvgen_type_pointer(m, SpvStorageClassPrivate, v4);
  uint32_t priv = spvgen_variable(m, priv_ptr, SpvStorageClassPrivate, 0); /* a global */
  uint32_t idx[2] = {zero, zero};
  uint32_t p = spvgen_access_chain(m, elem_ptr, buf, idx, 2);
  uint32_t x = spvgen_load(m, f32, p);
  uint32_t y = spvgen_glsl_sqrt(m, f32, x);         /* an import from a body */
  uint32_t fvar = spvgen_variable(m, spvgen_type_pointer(m, SpvStorageClassFunction, f32),
                                  SpvStorageClassFunction, 0);
  spvgen_store(m, fvar, y);
  spvgen_store(m, p, spvgen_load(m, f32, fvar));
  spvgen_store(m, priv, spvgen_const_null(m, v4));
  spvgen_extension(m, "SPV_KHR_storage_buffer_storage_class"); /* from a body */
  spvgen_function_end(m);
  spvgen_entry_point(m, SpvExecutionModelGLCompute, main_fn, "main", SPVGEN_INTERFACE_ALL);
  spvgen_local_size(m, main_fn, 8, 1, 1);
  spvgen_decorate(m, x, SpvDecorationRelaxedPrecision); /* a decoration after the body */
  spvgen_op_module_processed(m, "spvgen test");
  uint32_t file = spvgen_op_string(m, "test_layout.c");
  spvgen_op_source(m, SpvSourceLanguageUnknown, 0, file, NULL);
  spvgen_name(m, main_fn, "main");                   /* a name at the very end */
  spvgen_name(m, priv, "priv");
  spvgen_name(m, buf, "buf");
  spvgen_name(m, x, "x");

  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  if (w) {
    int seen[RANK_FUNCTIONS + 1] = {0};
    check_layout_order(w, n, seen);
    for (int r = 0; r <= RANK_FUNCTIONS; r++)
      CHECK_MSG(seen[r] > 0, "section %d is empty; the test meant to fill it", r);
  }
  char *text = check_disassemble(w, n);
  const char *lines[] = {
      "OpExtension \"SPV_KHR_storage_buffer_storage_class\"",
      "OpEntryPoint GLCompute %main \"main\" %buf %priv",
      "OpExecutionMode %main LocalSize 8 1 1",
      "OpName %main \"main\"",
      "OpModuleProcessed \"spvgen test\"",
      "OpDecorate %x RelaxedPrecision",
  };
  check_has_lines(text, lines, 6);
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_string_operands_are_nul_terminated_and_padded_to_whole_words(void) {
  static const char alphabet[] = "abcdefghijklmnopq";
  const size_t lengths[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17};
  enum { N = sizeof lengths / sizeof lengths[0] };
  char names[N][24];
  uint32_t targets[N], strings[N], functions[N];
  spvgen_module *m = spvgen_module_create(NULL);
  uint32_t void_t = spvgen_type_void(m);
  uint32_t members[1] = {spvgen_type_int(m, 32, false)};
  uint32_t st = spvgen_type_struct(m, members, 1);
  for (size_t i = 0; i < N; i++) {
    memcpy(names[i], alphabet, lengths[i]);
    names[i][lengths[i]] = '\0';
    /* Through the hand-written API (names, entry points) and a generated emitter
     * (OpString). Entry point names must not be empty. */
    functions[i] = spvgen_function_begin(m, void_t, SpvFunctionControlMaskNone, NULL, 0, NULL);
    spvgen_function_end(m);
    targets[i] = functions[i];
    spvgen_name(m, targets[i], names[i]);
    strings[i] = spvgen_op_string(m, names[i]);
    if (lengths[i]) {
      spvgen_entry_point(m, SpvExecutionModelGLCompute, functions[i], names[i], NULL, 0);
      spvgen_local_size(m, functions[i], 1, 1, 1);
    }
  }
  spvgen_member_name(m, st, 0, "abcd");
  spvgen_member_name(m, st, 0, "abcde");
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  if (w) {
    for (size_t i = 0; i < N; i++) {
      check_string_operand(words_find(w, n, SpvOpName, 0, (const uint32_t[]){targets[i]}, 1), 2, names[i], true);
      check_string_operand(words_find(w, n, SpvOpString, 0, (const uint32_t[]){strings[i]}, 1), 2, names[i], true);
      if (lengths[i])
        check_string_operand(words_find(w, n, SpvOpEntryPoint, 1, (const uint32_t[]){functions[i]}, 1), 3, names[i],
                             true);
    }
    /* "GLSL.std.450"-style multiples of four get a whole word of NULs. */
    const uint32_t *mn = words_find(w, n, SpvOpMemberName, 0, (const uint32_t[]){st}, 1);
    check_string_operand(mn, 3, "abcd", true);
  }
  char *text = check_disassemble(w, n);
  CHECK_CONTAINS(text, " = OpString \"abcdefgh\"\n");
  spvgen_free_text(text);
  spvgen_module_destroy(m);
}

static void test_extension_and_import_names_are_padded_to_whole_words(void) {
  spvgen_module *m = spvgen_module_create(NULL);
  /* 12 and 36 characters: multiples of four, a full NUL word follows. */
  uint32_t glsl = spvgen_glsl_std_450(m);
  spvgen_extension(m, "SPV_KHR_storage_buffer_storage_class");
  spvgen_extension(m, "SPV_KHR_16bit_storage"); /* 21 characters */
  spvgen_compute_main(m, "main", 1, 1, 1);
  spvgen_function_end(m);
  size_t n = 0;
  const uint32_t *w = check_module(m, &n);
  if (w) {
    check_string_operand(words_find(w, n, SpvOpExtInstImport, 0, (const uint32_t[]){glsl}, 1), 2, "GLSL.std.450", true);
    /* Extensions have no id: find them by their first word of text. */
    const uint32_t *e1 = NULL, *e2 = NULL;
    WORDS_FOR_EACH(w, n, i) {
      if ((w[i] & 0xFFFF) == SpvOpExtension) {
        if (!memcmp(w + i + 1, "SPV_KHR_stor", 12)) e1 = w + i;
        if (!memcmp(w + i + 1, "SPV_KHR_16bi", 12)) e2 = w + i;
      }
    }
    check_string_operand(e1, 1, "SPV_KHR_storage_buffer_storage_class", true);
    check_string_operand(e2, 1, "SPV_KHR_16bit_storage", true);
  }
  spvgen_module_destroy(m);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_instructions_emitted_out_of_order_land_in_their_section),
      TEST_CASE(test_string_operands_are_nul_terminated_and_padded_to_whole_words),
      TEST_CASE(test_extension_and_import_names_are_padded_to_whole_words),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
