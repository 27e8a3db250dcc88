#!/usr/bin/env bash
# tests/scripts/gpu_test_patterns.sh BINARY — ctest runs a gpu test binary twice, once with
# the filter "_matches_cpu" (the device tests, label gpu) and once with "_validation" (the
# offline half, label coop) (tests/CMakeLists.txt). A test whose name holds neither never
# runs under ctest at all: four MLP tests named "..._match_cpu" went unrun that way. This
# fails naming every such test.
set -euo pipefail
names=$("$1" --list)
[ -n "$names" ] || { echo "no tests listed by $1"; exit 1; }
bad=$(grep -v -e '_matches_cpu' -e '_validation' <<< "$names" || true)
if [ -n "$bad" ]; then
  echo "$1: tests that no ctest selection runs (names need _matches_cpu or _validation):"
  sed 's/^/  /' <<< "$bad"
  exit 1
fi
echo "$(wc -l <<< "$names") test names, each selected by _matches_cpu or _validation"
