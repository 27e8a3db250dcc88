#!/bin/bash
# Call S11-1: the run-time K loop's shape (bench_gemm_shapes --set rtloop: the loop as it
# is, nested in groups of 8 (cg:g), counted to a multiple of 8 (cg:e), beside the FIXED
# default) on the trace's large prompt calls and around 3072^3; then the compile matrix
# (--set compile, compile-only rows) to check the compile model on this host.
# Each bench_gemm_shapes process starts with an empty driver cache (compile column = first
# compile; "cached" where a run-time pipeline serves the group's next shape).
# References: cuBLAS (gemm_anchor.py) in the same call, printed as "# anchor:" lines.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS11-1 > /dev/null || exit 1
O=${OUT:-/tmp/callS11-1}/s11-1; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 300 stdbuf -oL "$B/bench/bench_gemm_shapes" --set rtloop --anchor "$B/anchors/gemm_anchor.py" --deadline-s 280 > "$O/rtloop.txt" 2>&1
echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/rtloop.txt"
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
left=$((520 - (SECONDS - T0)))
timeout $((left + 20)) stdbuf -oL "$B/bench/bench_gemm_shapes" --set compile --deadline-s $left > "$O/compile.txt" 2>&1
echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/compile.txt"
cd "$O/.." && tar czf s11-1.tgz s11-1 && rm -rf s11-1
