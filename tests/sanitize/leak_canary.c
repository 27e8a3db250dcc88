/* tests/sanitize/leak_canary.c — proves that the sanitizer pass still catches a leak of
 * memory that spvgen allocated, in a process that loaded the Vulkan driver (so that the
 * loader and driver suppressions of tests/lsan.supp are in force) and that links
 * keep_loaded.c like every test. It forgets a module on purpose; ctest passes it only
 * when LeakSanitizer reports that leak with spvgen_module_create in its stack
 * (tests/CMakeLists.txt, sanitizer builds only). */
#include <stdio.h>

#include "spvgen/spvgen.h"

int main(void) {
  char msg[512];
  spvgen_vk_context *ctx = NULL;
  spvgen_status st = spvgen_vk_create(NULL, &ctx, msg, sizeof msg);
  printf("leak_canary: Vulkan device %s\n", st == SPVGEN_OK ? spvgen_vk_caps(ctx)->name : "none");
  spvgen_vk_destroy(ctx);
  spvgen_module *m = spvgen_module_create(NULL);
  spvgen_type_float(m, 32);
  m = NULL; /* the leak */
  return 0;
}
