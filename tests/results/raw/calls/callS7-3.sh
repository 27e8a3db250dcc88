#!/bin/bash
# Call S7-3 (session 7), GPU tests of the merged tree (main with s7-pack, s7-layers,
# s7-mattrain, s7-longk): the long-K test (every variant, 48x40x(2^20+17), every element
# against float64), khr split-K, the packed coopmat2 tests (16-byte pack units), the bda
# split-K tests. Each test binary is filtered to one test; its exit code and output kept.
# References: the tests check against the CPU's float64 reference; no timing is reported.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS7-3 || exit 1
O=${OUT:-/tmp/callS7-3}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
for t in "gpu_test_gpu_gemm test_gemm_long_k_matches_cpu" "gpu_test_gpu_gemm test_gemm_khr_splitk_matches_cpu" \
         "gpu_test_gpu_gemm test_gemm_coopmat2_pack_matches_cpu" "gpu_test_gpu_gemm test_gemm_coopmat2_pack_big_matches_cpu" \
         "gpu_test_gpu_gemm_bda test_gemm_bda_splitk_ld_small_matches_cpu" "gpu_test_gpu_gemm_bda test_gemm_bda_khr_matches_cpu"; do
  set -- $t
  s=$SECONDS
  timeout 120 "$B/tests/$1" "$2" > "$O/$2.txt" 2>&1
  echo "$1 $2 exit $? $((SECONDS - s)) s: $(tail -1 "$O/$2.txt")" | tee -a "$O/summary.txt"
done
echo "done in $((SECONDS - T0)) s"
