#!/usr/bin/env bash
# Instructions per module (callgrind) for each row of bench_emit_templates (gemm, mlp),
# warm path (reset + plan + emit + finish). Usage: scripts/emit-count.sh [BUILD_DIR [N]]
# (default build-release, N=200). Deterministic, so it works on a loaded machine.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release} n=${2:-200}
out=$(mktemp -d)
valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out/cg" \
  "$build/bench/bench_emit_count" "$n" >/dev/null 2>"$out/log"
for f in $(ls -v "$out"/cg.*); do
  desc=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
  ir=$(sed -n 's/^summary: //p' "$f" | awk '{print $1}')
  [ -n "$desc" ] && printf '%10d  %s\n' $((ir / n)) "$desc"
done
rm -rf "$out"
