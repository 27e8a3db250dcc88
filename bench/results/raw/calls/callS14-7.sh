#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s14/callS14-7/ (card and driver in smi.txt)
# First compiles: each process's first trial (an empty driver and spvgen cache per process); later trials reuse the process's pipeline
# References: spvgen against itself (a slow trial against the best trial of its run: fast 0.329-0.343 ms with optimal weights); torch for this network (32-64x3-16 silu, 4,194,304 points, f16): eager 1.790 ms (2.343 G points/s), torch.compile 1.922 ms (2.182 G points/s), measured in call S14-2 on the same H200 (bench/results/raw/gpu-2026-11-27-s14/callS14-2/mlp-anchor.txt), not rerun in this call (no device time left for it)
# Call S14-7: S14-6 found the slow mode in new sessions of one context (5 of 24), never
# in trials on the same buffers (0 of 24) nor in new contexts (0 of 24). Which buffer:
# bench_slowmode_mlp --modes buffers, 12 trials each, (a) as S14-6 (optimal weights,
# 4,194,304 points: 256 MB of input), (b) row-major weights (no optimal copy), (c) optimal
# weights and 524,288 points (32 MB of input).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s14-7}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS14-7 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
run() { # name args...
  local name=$1; shift
  echo "== $name: bench_slowmode_mlp --modes buffers --trials 12 $*" >> "$O/slowmode.txt"
  XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 120 build-gpu/bench/bench_slowmode_mlp --modes buffers --trials 12 "$@" >> "$O/slowmode.txt" 2>&1
  echo "rc=$?" >> "$O/slowmode.txt"
  echo "$name: $(sed -n '/^== '$name':/,$p' "$O/slowmode.txt" | grep -E '^trial' | awk '{printf "%s ", $4}') | $(sed -n '/^== '$name':/,$p' "$O/slowmode.txt" | grep -E '^summary|rc=' | tr '\n' ' ')"
}
run a-optimal-4M
run b-row-4M --weights row
run c-optimal-512K --points 524288
echo "total $((SECONDS - T0)) s"
