#!/usr/bin/env bash
# tests/scripts/unique_test_names.sh BINARY — a test binary whose tests run one process
# each (scripts/gpu-gemm.sh --call runs gpu_test_gpu_gemm so) selects them by a substring
# filter: no test name may be part of another, or a process would run both.
set -euo pipefail
names=$("$1" --list)
[ -n "$names" ] || { echo "no tests listed by $1"; exit 1; }
bad=0
while read -r n; do
  c=$(grep -c -F -- "$n" <<< "$names")
  if [ "$c" != 1 ]; then
    echo "test name '$n' is part of $((c - 1)) other name(s):"
    grep -F -- "$n" <<< "$names" | grep -v -x -F -- "$n" | sed 's/^/  /'
    bad=1
  fi
done <<< "$names"
[ "$bad" = 0 ] && echo "$(wc -l <<< "$names") test names, none part of another"
exit "$bad"
