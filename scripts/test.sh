#!/usr/bin/env bash
# The whole test suite, from a bare Debian 12 machine: dependencies (cached outside the
# clone), a -Werror build and its tests, the threads test under ThreadSanitizer (only its
# target is built), a short libFuzzer run of each fuzz target (scripts/fuzz), then the
# same tests under ASan + UBSan.
# SPVGEN_SKIP_SANITIZERS=1 skips both sanitizer passes, SPVGEN_SKIP_TSAN=1 the tsan one,
# SPVGEN_SKIP_FUZZ=1 the fuzz runs.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/build.sh ci
# The facts that make one machine's run differ from another's, so that a failure in
# someone else's log can be matched to its cause.
pkgver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"; }
echo "[env] cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) ($(nproc) cores)"
echo "[env] os: $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-unknown}"), kernel $(uname -r)"
echo "[env] compiler: $(${CC:-cc} --version | head -n 1); cmake: $(cmake --version | head -n 1)"
echo "[env] mesa-vulkan-drivers (lavapipe): $(pkgver mesa-vulkan-drivers); loader libvulkan1: $(pkgver libvulkan1); validation layer: $(pkgver vulkan-validationlayers)"
echo "[env] $(build/tools/spvgen version | tr '\n' ' ')"
echo "[env] lavapipe: $(build/tools/spvgen devices 2>&1 | grep -i -m1 -E 'llvmpipe|lavapipe' || echo 'no device listed')"
ctest --preset ci
# A short libFuzzer run of each tests/fuzz target (clang, ASan + UBSan; scripts/fuzz),
# SPVGEN_FUZZ_SECONDS each (default 12: 7 targets, about the 60 s that 3 x 20 took;
# tests/results/fuzz-*.md records the long runs). SPVGEN_SKIP_FUZZ=1 skips it; without
# clang's libFuzzer it says so and goes on.
if [ "${SPVGEN_SKIP_FUZZ:-0}" != 1 ]; then
  fuzz_start=$(date +%s)
  fuzz_rc=0
  bash scripts/fuzz all "${SPVGEN_FUZZ_SECONDS:-12}" || fuzz_rc=$?
  if [ $fuzz_rc = 77 ]; then
    echo "[fuzz] skipped (the reason is above)"
  elif [ $fuzz_rc != 0 ]; then
    exit $fuzz_rc
  else
    echo "[fuzz] $(bash scripts/fuzz list | wc -l) targets, no crash, in $(( $(date +%s) - fuzz_start ))s (build included)"
  fi
fi
if [ "${SPVGEN_SKIP_SANITIZERS:-0}" != 1 ] && [ "${SPVGEN_SKIP_TSAN:-0}" != 1 ]; then
  tsan_start=$(date +%s)
  bash scripts/build.sh tsan threads_test_threads
  bash scripts/build.sh tsan threads_test_stress
  bash scripts/build.sh tsan vk_test_compile_async
  ctest --preset tsan # TSAN_OPTIONS (suppressions: tests/tsan.supp) come from tests/CMakeLists.txt
  echo "[tsan] tests/threads (4 emitter + 2 runner threads; 8 + 2 stress threads), the background compiles (tests/vk/test_compile_async.c) and the race canary passed in $(( $(date +%s) - tsan_start ))s"
fi
if [ "${SPVGEN_SKIP_SANITIZERS:-0}" != 1 ]; then
  bash scripts/build.sh asan
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
  LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    ctest --preset asan
fi
echo "scripts/test.sh: all passed in $(( $(date +%s) - start ))s"
