#!/usr/bin/env bash
# The whole test suite, from a bare Debian 12 machine: dependencies (cached outside the
# clone), a -Werror build and its tests, then the same tests under ASan + UBSan.
# SPVGEN_SKIP_SANITIZERS=1 skips the second pass.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/build.sh ci
ctest --preset ci
if [ "${SPVGEN_SKIP_SANITIZERS:-0}" != 1 ]; then
  bash scripts/build.sh asan
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
  LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    ctest --preset asan
fi
echo "scripts/test.sh: all passed in $(( $(date +%s) - start ))s"
