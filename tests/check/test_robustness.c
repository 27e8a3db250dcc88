/* tests/check/test_robustness.c — no input crashes the check layer: random mutations
 * of a valid module, random words behind a valid header, hostile header fields and
 * every truncation come back as a status (and a message), never a signal; calls on
 * several threads at once give the answers they give alone. Seeded by
 * SPVGEN_TEST_SEED; SPVGEN_TEST_ROUNDS raises the number of mutations per test. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "module_check.h"
#include "spvgen/check.h"

static const char module_text[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gid %buf\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpName %main \"main\"\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %rt ArrayStride 4\n"
    "OpDecorate %Block Block\n"
    "OpMemberDecorate %Block 0 Offset 0\n"
    "OpDecorate %buf DescriptorSet 0\n"
    "OpDecorate %buf Binding 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%v3uint = OpTypeVector %uint 3\n"
    "%in_ptr = OpTypePointer Input %v3uint\n"
    "%gid = OpVariable %in_ptr Input\n"
    "%rt = OpTypeRuntimeArray %float\n"
    "%Block = OpTypeStruct %rt\n"
    "%buf_ptr = OpTypePointer StorageBuffer %Block\n"
    "%buf = OpVariable %buf_ptr StorageBuffer\n"
    "%elem_ptr = OpTypePointer StorageBuffer %float\n"
    "%uint_0 = OpConstant %uint 0\n"
    "%float_2 = OpConstant %float 2\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%id3 = OpLoad %v3uint %gid\n"
    "%i = OpCompositeExtract %uint %id3 0\n"
    "%p = OpAccessChain %elem_ptr %buf %uint_0 %i\n"
    "%x = OpLoad %float %p\n"
    "%y = OpFMul %float %x %float_2\n"
    "OpStore %p %y\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static int rounds(int fallback) {
  const char *env = getenv("SPVGEN_TEST_ROUNDS");
  int n = env ? atoi(env) : 0;
  return n > 0 ? n : fallback;
}

static uint32_t *assemble(size_t *count) {
  uint32_t *words = NULL;
  char message[1024];
  spvgen_status s = spvgen_assemble(module_text, SPVGEN_ENV_VULKAN_1_3, &words, count,
                                    message, sizeof message);
  CHECK_MSG(s == SPVGEN_OK, "spvgen_assemble: %s", message);
  return words;
}

/* Runs both entry points on words; checks that each answers with a known status and,
 * when it fails, a message. Returns the validation status. */
static spvgen_status exercise(const uint32_t *words, size_t count, const char *what,
                              int round) {
  static char message[4096];
  spvgen_status v = spvgen_validate(words, count, NULL, message, sizeof message);
  CHECK_MSG(
      v == SPVGEN_OK || v == SPVGEN_ERROR_VALIDATION || v == SPVGEN_ERROR_INVALID_ARGUMENT,
      "%s #%d: spvgen_validate returned %s", what, round, spvgen_status_name(v));
  if (v != SPVGEN_OK)
    CHECK_MSG(message[0] != '\0', "%s #%d: %s without a message", what, round,
              spvgen_status_name(v));
  char *text = NULL;
  spvgen_status d = spvgen_disassemble(
      words, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_INDENT | SPVGEN_DIS_COMMENT,
      &text, message, sizeof message);
  CHECK_MSG(d == SPVGEN_OK || d == SPVGEN_ERROR_INVALID_ARGUMENT,
            "%s #%d: spvgen_disassemble returned %s", what, round, spvgen_status_name(d));
  if (d == SPVGEN_OK)
    CHECK_MSG(text != NULL, "%s #%d: spvgen_disassemble gave no text", what, round);
  else
    CHECK_MSG(text == NULL && message[0] != '\0',
              "%s #%d: spvgen_disassemble failed (%s) without a message or with text", what,
              round, spvgen_status_name(d));
  /* A module the validator accepts must also decode. */
  if (v == SPVGEN_OK)
    CHECK_MSG(d == SPVGEN_OK, "%s #%d: valid but undecodable: %s", what, round, message);
  spvgen_free_text(text);
  return v;
}

static void test_the_unmutated_module_is_valid(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  CHECK_EQ_U64(exercise(words, count, "original", 0), SPVGEN_OK);
  spvgen_free_words(words);
}

static void test_every_truncation_is_reported_not_crashed_on(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  for (size_t n = 0; n < count; n++) {
    spvgen_status v = exercise(words, n, "truncated", (int)n);
    CHECK_MSG(v != SPVGEN_OK, "truncated to %zu of %zu words, still valid", n, count);
  }
  spvgen_free_words(words);
}

static void test_random_word_mutations_are_reported_not_crashed_on(void) {
  size_t count = 0;
  uint32_t *original = assemble(&count);
  if (!original) return;
  uint32_t *words = malloc(count * sizeof *words);
  int n = rounds(10000);
  for (int r = 0; r < n && !test_current_failed; r++) {
    memcpy(words, original, count * sizeof *words);
    int edits = 1 + (int)(test_rand_u32() % 4);
    for (int e = 0; e < edits; e++) {
      /* Leave the magic alone most of the time so that mutations reach the parser. */
      size_t at = 1 + test_rand_u32() % (count - 1);
      switch (test_rand_u32() % 5) {
        case 0: words[at] = test_rand_u32(); break;               /* any word */
        case 1: words[at] ^= 1u << (test_rand_u32() % 32); break; /* one bit */
        case 2: words[at] = test_rand_u32() % 64; break;          /* small: ids, enums */
        case 3: words[at] = (words[at] & 0xFFFFu) | ((test_rand_u32() % 8) << 16); break;
        default: words[at] = 0xFFFFFFFFu; break;
      }
    }
    exercise(words, count, "mutation", r);
  }
  free(words);
  spvgen_free_words(original);
}

static void test_random_words_behind_a_valid_header_are_reported_not_crashed_on(void) {
  enum { MAX_WORDS = 64 };
  uint32_t words[MAX_WORDS];
  int n = rounds(10000);
  for (int r = 0; r < n && !test_current_failed; r++) {
    size_t count = 5 + test_rand_u32() % (MAX_WORDS - 5);
    words[0] = 0x07230203u;
    words[1] = 0x00010600u;
    words[2] = 0;
    words[3] = 1 + test_rand_u32() % 100;
    words[4] = 0;
    for (size_t i = 5; i < count; i++) {
      /* Plausible instruction headers half the time: a small word count and an opcode
       * the grammar knows. */
      words[i] = (test_rand_u32() & 1)
                     ? ((1 + test_rand_u32() % 6) << 16) | (test_rand_u32() % 400)
                     : test_rand_u32();
    }
    exercise(words, count, "random", r);
  }
}

static void test_hostile_header_fields_are_reported_not_crashed_on(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  static const uint32_t bounds[] = {0, 1, 2, 0x3FFFFF, 0x400000, 0x7FFFFFFF, 0xFFFFFFFF};
  for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
    uint32_t saved = words[3];
    words[3] = bounds[i];
    /* Too small a bound is invalid; a large one is invalid past the universal limit. */
    spvgen_status v = exercise(words, count, "bound", (int)i);
    if (bounds[i] < saved || bounds[i] > 0x3FFFFF)
      CHECK_MSG(v == SPVGEN_ERROR_VALIDATION, "bound 0x%x accepted", (unsigned)bounds[i]);
    words[3] = saved;
  }
  static const uint32_t versions[] = {0, 0x00010000u, 0x00010700u, 0x00020000u,
                                      0xFFFFFFFFu};
  for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
    uint32_t saved = words[1];
    words[1] = versions[i];
    exercise(words, count, "version", (int)i);
    words[1] = saved;
  }
  words[4] = 0xFFFFFFFFu; /* schema must be 0 */
  exercise(words, count, "schema", 0);
  spvgen_free_words(words);
}

static void test_a_byte_swapped_module_is_read_as_big_endian(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  for (size_t i = 0; i < count; i++) {
    uint32_t w = words[i];
    words[i] = (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
  }
  char *text = NULL;
  CHECK_EQ_U64(spvgen_disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES, &text, NULL, 0),
               SPVGEN_OK);
  CHECK_CONTAINS(text, "OpEntryPoint GLCompute %main \"main\"");
  spvgen_free_text(text);
  spvgen_free_words(words);
}

typedef struct thread_job {
  const uint32_t *words;
  size_t count;
  const char *expected_text; /* the disassembly computed on the main thread */
  int mismatches;
} thread_job;

static void *thread_main(void *arg) {
  thread_job *job = arg;
  char message[1024];
  for (int i = 0; i < 200; i++) {
    char *text = NULL;
    spvgen_status v =
        spvgen_validate(job->words, job->count, NULL, message, sizeof message);
    spvgen_status d =
        spvgen_disassemble(job->words, job->count, SPVGEN_DIS_FRIENDLY_NAMES, &text,
                           message, sizeof message);
    if (v != SPVGEN_OK || d != SPVGEN_OK || !text || strcmp(text, job->expected_text) != 0)
      job->mismatches++;
    spvgen_free_text(text);
  }
  return NULL;
}

static void test_concurrent_calls_give_the_same_answers(void) {
  size_t count = 0;
  uint32_t *words = assemble(&count);
  if (!words) return;
  char *expected = NULL;
  CHECK_EQ_U64(spvgen_disassemble(words, count, SPVGEN_DIS_FRIENDLY_NAMES, &expected, NULL, 0),
               SPVGEN_OK);
  enum { THREADS = 4 };
  pthread_t threads[THREADS];
  thread_job jobs[THREADS];
  int started = 0;
  for (int t = 0; t < THREADS && expected; t++) {
    jobs[t] = (thread_job){words, count, expected, 0};
    if (pthread_create(&threads[t], NULL, thread_main, &jobs[t]) != 0) break;
    started++;
  }
  CHECK_EQ_U64(started, expected ? THREADS : 0);
  for (int t = 0; t < started; t++) {
    pthread_join(threads[t], NULL);
    CHECK_MSG(jobs[t].mismatches == 0, "thread %d: %d of 200 answers differed", t,
              jobs[t].mismatches);
  }
  spvgen_free_text(expected);
  spvgen_free_words(words);
}

int main(int argc, char **argv) {
  static const test_case tests[] = {
      TEST_CASE(test_the_unmutated_module_is_valid),
      TEST_CASE(test_every_truncation_is_reported_not_crashed_on),
      TEST_CASE(test_random_word_mutations_are_reported_not_crashed_on),
      TEST_CASE(test_random_words_behind_a_valid_header_are_reported_not_crashed_on),
      TEST_CASE(test_hostile_header_fields_are_reported_not_crashed_on),
      TEST_CASE(test_a_byte_swapped_module_is_read_as_big_endian),
      TEST_CASE(test_concurrent_calls_give_the_same_answers),
  };
  return test_main(argc, argv, tests, TEST_COUNT(tests));
}
