#!/bin/bash
# Call S12-2: the compile model refit on every recorded first compile (branch s12-cm;
# tools/compile_fit.py, docs/design-notes.md "The compile model refit on every recorded
# compile"). The rows whose FIXED default plan moved (tools/plan_diff.py, H200 caps:
# bench/results/raw/calls/callS12-2-rows.txt, the sets recheck, random, split, targets,
# prompt and the traces' calls), run by main's planner (bench_gemm_shapes-main: main's
# library built with this branch's bench/gemm_shapes.c, which reads --rows) and by the
# refit's (bench_gemm_shapes: build-gpu built from branch s12-cm-refit, which is s12-cm and
# the refit constants of emitters/gemm/plan_cost.c), each process with empty driver and spvgen caches; cuBLAS through gemm_anchor.py
# in the same call (the branch's run). First compiles: the compile column.
# Usage: bash bench/results/raw/calls/callS12-2.sh [build-gpu]; results in $OUT/s12-2.tgz.
# References: cuBLAS (gemm_anchor.py through --anchor) and main's bench_gemm_shapes, in the same call; first compiles: the compile column.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS12-2 > /dev/null || exit 1
O=${OUT:-/tmp/callS12-2}/s12-2; mkdir -p "$O"
T0=$SECONDS
ROWS=bench/results/raw/calls/callS12-2-rows.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
n=0
for bin in bench_gemm_shapes-main bench_gemm_shapes; do
  n=$((n + 1))
  anchor=(); [ $n = 2 ] && anchor=(--anchor "$B/anchors/gemm_anchor.py")
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    timeout 230 stdbuf -oL "$B/bench/$bin" --rows "$ROWS" --quick "${anchor[@]}" --deadline-s 200 > "$O/moved-$n-$bin.txt" 2>&1
    echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/moved-$n-$bin.txt" )
done
echo "done in $((SECONDS - T0)) s" >> "$O/smi.txt"
cd "$O/.." && tar czf s12-2.tgz s12-2 && rm -rf s12-2
