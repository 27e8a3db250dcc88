#!/bin/bash
# Call S6-4: (1) the wide-network call of branch wide256 (callS6-wide.sh: mat's streamed
# form against the defaults, torch beside, its GPU test); (2) bench_gemm_shapes --set sq3k
# (3072^3 and 3008^3 on the coopmat2 tiles and khr beside 3000^3's default: is 3000^3 slow
# for its edges or for its size?); (3) the packed GPU test after the test-support refactor.
# References: (1) torch eager and torch.compile through bench/anchors/mlp_anchor_net.py in
# the same call (the wide script's header); (2) cuBLAS through build-gpu/anchors/gemm_anchor.py
# in the same call; (3) float64 (gemm_run). Carry .gl and build-gpu.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
O=${OUT:-/tmp/callS6-4}; mkdir -p "$O"
T0=$SECONDS
bash bench/results/raw/calls/callS6-wide.sh > "$O/wide.txt" 2>&1
echo "== 1. wide rc=$? ($((SECONDS - T0)) s)"; cat "$O/wide.txt"
. scripts/gpu-env.sh
gpu_env_vulkan callS6-4 || exit 1
export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 100 stdbuf -oL "$B/bench/bench_gemm_shapes" --set sq3k --anchor "$B/anchors/gemm_anchor.py" \
  --deadline-s 85 > "$O/bench-sq3k.txt" 2>&1
echo "== 2. sq3k rc=$? ($((SECONDS - T0)) s)"
grep -vE "^#  " "$O/bench-sq3k.txt" | cut -c1-230
export SPVGEN_GPU_REQUIRED=1
timeout 90 "$B/tests/gpu_test_gpu_gemm" test_gemm_coopmat2_pack_matches_cpu > "$O/test-pack.txt" 2>&1
echo "== 3. pack test rc=$? ($((SECONDS - T0)) s)"; grep -E "passed|FAIL" "$O/test-pack.txt" | head
echo "done in $((SECONDS - T0)) s"
