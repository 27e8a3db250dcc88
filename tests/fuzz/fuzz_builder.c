/* tests/fuzz/fuzz_builder.c — libFuzzer target: sequences of builder calls, driven by the
 * interpreter of tests/support/fuzz_api.h with every decision taken from the fuzz
 * input (4 bytes a decision; a fixed seed's stream once they run out). The first byte
 * picks the kind of sequence:
 *   even: a valid sequence (only documented-valid calls): every call must succeed and
 *         the finished module must pass spvgen_validate (Vulkan 1.3);
 *   odd:  an anything-goes sequence (random calls and arguments, often after a valid
 *         prefix): no crash, the first error sticks and its message names a call, a
 *         failed call allocates nothing; a module that finishes decodes.
 * So: either the status is an error, or the output validates. A broken contract prints
 * the calls as C and aborts. */
#define _XOPEN_SOURCE 700
#include "fuzz_api.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  test_current_name = "fuzz_builder";
  install_crash_report();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  static fz z;
  bool valid = !(data[0] & 1);
  begin_sequence(&z, 0x5EED, valid ? "valid" : "anything-goes");
  z.r.data = data + 1;
  z.r.len = size - 1;
  test_current_failed = 0;
  if (valid)
    valid_body(&z);
  else
    chaos_body(&z);
  end_sequence(&z);
  if (test_current_failed) FUZZ_FAIL("the builder's contract (above)");
  return 0;
}
