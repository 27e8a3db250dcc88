#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s14/callS14-6/ and tests/results/raw/gpu-2026-11-27-s14/callS14-6-tests.txt (card and driver in smi.txt)
# First compiles: each process's first trial (an empty driver and spvgen cache per process); later trials reuse the process's pipeline (they say so)
# References: spvgen against itself (a slow trial against the best trial of its run: fast 0.334-0.355 ms); torch for this network (32-64x3-16 silu, 4,194,304 points, f16): eager 1.790 ms (2.343 G points/s), torch.compile 1.922 ms (2.182 G points/s), measured in call S14-2 on the same H200 (bench/results/raw/gpu-2026-11-27-s14/callS14-2/mlp-anchor.txt), not rerun in this call (no device time left for it); the GPU tests against float64 CPU references
# Call S14-6: what in a process holds the slow mode (S14-5: not the compiled binary).
# bench_slowmode_mlp on 32-64x3-16 silu, vec w32 optimal weights, 4,194,304 points:
# trials renewing nothing, the session (buffers, the optimal weights), or the context;
# three processes. Then the vec GPU tests of the session's build, one by one.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s14-6}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS14-6 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
for p in 1 2 3; do
  echo "== process $p: bench_slowmode_mlp --modes none,buffers,context --trials 8" | tee -a "$O/slowmode.txt"
  XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 150 build-gpu/bench/bench_slowmode_mlp --modes none,buffers,context --trials 8 >> "$O/slowmode.txt" 2>&1
  echo "rc=$?" >> "$O/slowmode.txt"
  sed -n '/^== process '$p'/,$p' "$O/slowmode.txt" | grep -E '^(trial|summary|slow)|rc=' | sed 's/; check ok.*//' | awk '{printf "%s | ", $0} END {print ""}' | cut -c1-1500
  echo "process $p done $((SECONDS - T0)) s"
done
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  for t in vec_matches vec_optimal vec_two vec_bias vec_float8 vec_int8 sigmoid_silu chosen_plans; do
    echo "== gpu_test_gpu_mlp $t"; timeout 120 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp $t; echo "rc=$?"; done ) > "$O/tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/tests.txt"
echo "total $((SECONDS - T0)) s"
