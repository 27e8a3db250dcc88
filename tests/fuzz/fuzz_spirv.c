/* tests/fuzz/fuzz_spirv.c — libFuzzer target: what `spvgen val`, `spvgen dis` and the
 * runner do with a .spv file, on arbitrary bytes (the words are the bytes, a trailing
 * partial word dropped): spvgen_validate (with its pre-checks before SPIRV-Tools),
 * spvgen_disassemble, spvgen_kernel_reflect, and the runner's SPIR-V reader
 * sg_reflect (lib/core/reflect.c, which spvgen_vk_pipeline_create runs on every
 * module before a driver sees it).
 *
 * Seeds: the valid modules the test suite writes with SPVGEN_TEST_DUMP (scripts/fuzz
 * makes them); mutations of those reach far deeper than random bytes.
 * Contract: no crash, hang or sanitizer report; each call returns one of its documented
 * statuses; an error has a non-empty, NUL-terminated message; a module that validates
 * also disassembles. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "reflect.h" /* lib/core: sg_reflect */
#include "spvgen/check.h"
#include "spvgen/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  return 0;
}

static void expect_message(spvgen_status st, const char *msg, const char *call) {
  if (st != SPVGEN_OK && (!msg[0] || strnlen(msg, 4096) >= 4096)) FUZZ_FAIL("%s failed (%d) without a message", call, st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t count = size / 4;
  uint32_t *w = malloc(count ? count * 4 : 4);
  if (!w) return 0;
  if (count) memcpy(w, data, count * 4);
  static char msg[16384];

  msg[0] = 'x';
  spvgen_status vst = spvgen_validate(w, count, NULL, msg, sizeof msg);
  if (vst != SPVGEN_OK && vst != SPVGEN_ERROR_VALIDATION && vst != SPVGEN_ERROR_INVALID_ARGUMENT &&
      vst != SPVGEN_ERROR_OUT_OF_MEMORY)
    FUZZ_FAIL("spvgen_validate returned %d", vst);
  expect_message(vst, msg, "spvgen_validate");
  if (vst == SPVGEN_OK && msg[0]) FUZZ_FAIL("spvgen_validate: OK with a message '%s'", msg);

  char *text = NULL;
  msg[0] = 'x';
  spvgen_status dst = spvgen_disassemble(w, count, SPVGEN_DIS_FRIENDLY_NAMES | SPVGEN_DIS_INDENT | SPVGEN_DIS_COMMENT, &text,
                                         msg, sizeof msg);
  if (dst != SPVGEN_OK && dst != SPVGEN_ERROR_INVALID_ARGUMENT && dst != SPVGEN_ERROR_OUT_OF_MEMORY)
    FUZZ_FAIL("spvgen_disassemble returned %d", dst);
  expect_message(dst, msg, "spvgen_disassemble");
  if (dst == SPVGEN_OK && (!text || msg[0])) FUZZ_FAIL("spvgen_disassemble: OK without text or with a message '%s'", msg);
  if (dst != SPVGEN_OK && text) FUZZ_FAIL("spvgen_disassemble failed but returned text");
  if (vst == SPVGEN_OK && dst != SPVGEN_OK) FUZZ_FAIL("a module that validates does not disassemble: %s", msg);
  spvgen_free_text(text);

  spvgen_kernel_info info;
  memset(&info, 0, sizeof info);
  msg[0] = 'x';
  spvgen_status kst = spvgen_kernel_reflect(w, count, &info, msg, sizeof msg);
  if (kst != SPVGEN_OK && kst != SPVGEN_ERROR_INVALID_ARGUMENT && kst != SPVGEN_ERROR_UNSUPPORTED &&
      kst != SPVGEN_ERROR_OUT_OF_MEMORY)
    FUZZ_FAIL("spvgen_kernel_reflect returned %d", kst);
  expect_message(kst, msg, "spvgen_kernel_reflect");

  sg_reflection r;
  msg[0] = 'x';
  spvgen_status rst = sg_reflect(w, count, "main", &r, msg, sizeof msg);
  if (rst != SPVGEN_OK && rst != SPVGEN_ERROR_INVALID_ARGUMENT && rst != SPVGEN_ERROR_UNSUPPORTED &&
      rst != SPVGEN_ERROR_OUT_OF_MEMORY)
    FUZZ_FAIL("sg_reflect returned %d", rst);
  expect_message(rst, msg, "sg_reflect");
  free(w);
  return 0;
}
