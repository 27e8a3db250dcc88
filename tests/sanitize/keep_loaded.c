/* tests/sanitize/keep_loaded.c — linked into every executable of a sanitizer build
 * (SPVGEN_SANITIZE=ON), never into the library.
 *
 * LeakSanitizer reports leaks at exit and matches tests/lsan.supp against the names of
 * the modules in each allocation's stack. The Vulkan loader dlclose()s the driver (Mesa's
 * lavapipe, and LLVM with it) when the instance is destroyed, so by exit a leak inside
 * the driver has frames in no module at all ("<unknown module>") and no suppression can
 * name it. Whether the driver leaks at all differs between machines (CPU model, Mesa
 * point release), which made the sanitizer pass pass on one machine and fail on the next.
 *
 * This definition of dlclose() takes precedence over libc's for every library of the
 * process (the executable comes first in symbol lookup), so nothing loaded is ever
 * unmapped: driver frames keep their module names and the suppressions, which name only
 * the loader and the driver, apply. Leaks in spvgen's own code are still reported
 * (tests/sanitize/leak_canary.c proves it in every sanitizer run). */
#include <stddef.h>

int dlclose(void *handle);

int dlclose(void *handle) {
  return handle ? 0 : 1; /* like libc: a NULL handle is an error */
}
