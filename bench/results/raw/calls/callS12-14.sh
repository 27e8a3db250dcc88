#!/bin/bash
# Call S12-14: call S12-13 again with the same-call references and first compiles recorded:
# (1) `spvgen run mlp` 64-256x3-64 relu layers at 2,097,152 points with its GPU defaults (10
#     timed dispatches after 200 ms of warm-up) and with --repeats 1 --warmup-ms 0, then
#     `spvgen bench mlp` of the same network with torch eager and torch.compile
#     (--anchor bench/anchors/mlp_anchor_net.py);
# (2) the fold GPU tests, now printing each run's driver compile (test_gemm_fold_past_65535_
#     matches_cpu, test_mlp_layers_past_the_grid_limit_matches_cpu), SPVGEN_GPU_REQUIRED=1.
# Every process with empty driver and spvgen caches: the `emit` line's driver compile
# (run mlp), the compile column (bench mlp) and the tests' `pipeline` / `driver compile`
# figures are first compiles.
# References: torch (mlp_anchor_net.py) in this call for (1); the float64 CPU reference for (2).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-14}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS12-14 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
N="--in 64 --hidden 256x3 --out 64 --act relu --points 2097152 --sample 1024"
for args in "" "--repeats 1 --warmup-ms 0"; do
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== run mlp --variant layers $args"; timeout 60 build-gpu/tools/spvgen run mlp $N --variant layers $args 2>&1; echo "rc=$?" ) >> "$O/mlp-rows.txt"
done
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  echo "== bench mlp"; timeout 90 build-gpu/tools/spvgen bench mlp $N --variants layers --repeats 20 \
    --anchor bench/anchors/mlp_anchor_net.py 2>&1; echo "rc=$?" ) >> "$O/mlp-rows.txt"
grep -E "^==|^emit|^gpu|^layers|^anchor  |^best|^check|rc=" "$O/mlp-rows.txt"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  timeout 150 stdbuf -oL build-gpu/tests/gpu_test_gpu_gemm test_gemm_fold_past_65535_matches_cpu; echo "rc=$?"
  timeout 100 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp test_mlp_layers_past_the_grid_limit_matches_cpu; echo "rc=$?" ) > "$O/fold-tests.txt" 2>&1
grep -E "fold \[|passed|rc=|points:" "$O/fold-tests.txt"
