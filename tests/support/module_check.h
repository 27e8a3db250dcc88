/* tests/support/module_check.h — what every test that builds SPIR-V does: finish the
 * module, validate it (Vulkan 1.3 rules), disassemble it with friendly names and match
 * the lines that matter, check misuse errors; plus a deterministic random source.
 *
 *   const uint32_t *words = check_module(m, &count);   // NULL (and the test failed)
 *   char *text = check_disassemble(words, count);       // if the module was bad
 *   check_has_line(text, "%float = OpTypeFloat 32");
 *   spvgen_free_text(text);
 *
 * The check_* names are macros that record the caller's file and line, so a failure
 * points at the test, not at this helper. Each one is NULL-tolerant: after an earlier
 * failure it stays quiet instead of piling up follow-on failures.
 *
 * Environment:
 *   SPVGEN_TEST_DUMP=DIR  every module that check_module/check_words sees is written to
 *                         DIR/<test name>-<n>.spv (n counts from 0 in each test; DIR is
 *                         created), valid or not, for spirv-dis / spirv-val / spvgen dis.
 *   SPVGEN_TEST_SEED=N    the seed of test_rand_* (decimal or 0x hex). Each test draws
 *                         from its own stream, derived from N and the test's name, so a
 *                         test run alone (`binary name`) sees the same numbers as in a
 *                         full run. The seed is printed on stderr at first use. */
#ifndef SPVGEN_TEST_MODULE_CHECK_H
#define SPVGEN_TEST_MODULE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"
#include "spvgen/builder.h"
#include "spvgen/check.h"

/* spvgen_module_finish, CHECK status OK (failing with spvgen_module_error otherwise),
 * dump (see above), validate with Vulkan 1.3 rules (failing with the validator's message
 * and the disassembly). Returns the words (owned by the module, valid until it is reset
 * or destroyed) and sets *count (count may be NULL), or NULL when anything failed. */
#define check_module(m, count) check_module_at(__FILE__, __LINE__, (m), (count))

/* Dump and validate words that did not come from a module built by the test (an
 * emitter's kernel, an assembled module). options NULL: Vulkan 1.3, default layout.
 * Returns 1 when valid, 0 (and the test failed) otherwise. */
#define check_words(words, count) check_words_at(__FILE__, __LINE__, (words), (count), NULL)
#define check_words_with(words, count, options) \
  check_words_at(__FILE__, __LINE__, (words), (count), (options))

/* Disassembly with friendly names, no header, no indentation; free with
 * spvgen_free_text. NULL (and the test failed) when it cannot be decoded. */
#define check_disassemble(words, count) \
  check_disassemble_at(__FILE__, __LINE__, (words), (count))

/* Each expected line must be a whole line of text, both compared with leading and
 * trailing whitespace trimmed. A failure names every missing line and shows the text. */
#define check_has_lines(text, lines, n) \
  check_has_lines_at(__FILE__, __LINE__, (text), (lines), (n))
#define check_has_line(text, line) \
  check_has_lines_at(__FILE__, __LINE__, (text), (const char *const[]){(line)}, 1)
/* The opposite: no line of text (trimmed) equals line. */
#define check_lacks_line(text, line) check_lacks_line_at(__FILE__, __LINE__, (text), (line))

/* For misuse tests: the module's sticky status is `expected`, spvgen_module_finish
 * returns it too, and spvgen_module_error contains message_substring (NULL: any). */
#define check_module_error(m, expected, message_substring) \
  check_module_error_at(__FILE__, __LINE__, (m), (expected), (message_substring))

const uint32_t *check_module_at(const char *file, int line, spvgen_module *m,
                                size_t *count);
int check_words_at(const char *file, int line, const uint32_t *words, size_t count,
                   const spvgen_validate_options *options);
char *check_disassemble_at(const char *file, int line, const uint32_t *words, size_t count);
void check_has_lines_at(const char *file, int line, const char *text,
                        const char *const *lines, int n);
void check_lacks_line_at(const char *file, int line, const char *text,
                         const char *expected);
void check_module_error_at(const char *file, int line, spvgen_module *m,
                           spvgen_status expected, const char *message_substring);

/* The random source (test_rand_*) is declared in rand.h. */
#include "rand.h"

#endif
