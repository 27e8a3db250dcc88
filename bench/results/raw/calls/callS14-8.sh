#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s14/callS14-8/ (card and driver in smi.txt)
# First compiles: each process's first trial (an empty driver and spvgen cache per process); later trials use the process's pipeline
# References: spvgen against itself (a slow trial against the best trial of its run: fast 0.329-0.337 ms); without the change: S14-6 and S14-7 (6 of 36 new sessions slow); torch for this network (32-64x3-16 silu, 4,194,304 points, f16): eager 1.790 ms (2.343 G points/s), torch.compile 1.922 ms (2.182 G points/s), measured in call S14-2 on the same H200 (bench/results/raw/gpu-2026-11-27-s14/callS14-2/mlp-anchor.txt), not rerun in this call (no device time left for it)
# Call S14-8: does the way a buffer's memory is allocated avoid the slow mode? An
# experiment (build-gpu/bench/bench_slowmode_mlp_x: b5c9758 + experiments/exp-dedicated.diff,
# SPVGEN_EXP_DEDICATED): 1 = every device-local buffer a dedicated allocation
# (VkMemoryDedicatedAllocateInfo), 2 = allocations of 2 MiB or more rounded up to whole
# 2 MiB. bench_slowmode_mlp --modes buffers --trials 14 on 32-64x3-16 silu, vec, optimal
# weights, 4,194,304 points, as S14-6.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s14-8}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS14-8 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
for x in 1 2; do
  echo "== dedicated=$x: bench_slowmode_mlp_x --modes buffers --trials 14 --sample 256" >> "$O/slowmode.txt"
  SPVGEN_EXP_DEDICATED=$x XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 80 build-gpu/bench/bench_slowmode_mlp_x --modes buffers --trials 14 --sample 256 >> "$O/slowmode.txt" 2>&1
  echo "rc=$?" >> "$O/slowmode.txt"
  echo "dedicated=$x: $(sed -n '/^== dedicated='$x':/,$p' "$O/slowmode.txt" | grep -E '^trial' | awk '{printf "%s ", $4}') | $(sed -n '/^== dedicated='$x':/,$p' "$O/slowmode.txt" | grep -E '^summary|rc=' | tr '\n' ' ')"
done
echo "total $((SECONDS - T0)) s"
