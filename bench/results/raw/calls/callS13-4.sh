#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s13/callS13-4/ and tests/results/raw/gpu-2026-11-27-s13/callS13-4-tests.txt (NVIDIA H200, driver 580.159.04, 2026-11-27)
# First compiles: each trace's run 1 (empty spvgen and driver caches) and the tests (empty caches)
# Call S13-4: (1) the GPU tests of run-time GEMM classes of one K (desc.k_fixed) on
# coopmat2 and khr, every element against float64 (test_gemm_{coopmat2,khr}_k_fixed_matches_cpu;
# S13-3's run of them was refused at launch by the test's own shapes: N 300 against the
# class's ld_multiple 8); (2) the Qwen2-7B and Llama-3-8B prefill traces (bench/trace.sh:
# cold with empty spvgen and driver caches, then warm) with the session's build, `spvgen
# bench trace --k-fixed off` (the default: K per call) and `--k-fixed on` (each call's class
# of its one K), the torch.matmul anchor (bench/anchors/gemm_trace_anchor.py) beside the
# first of each pair.
# First compiles: the tests run with empty driver and spvgen caches; each trace's run 1
# starts from empty caches, its compile column is first compiles.
# References: torch.matmul (cuBLAS) per trace in this call; the float64 CPU reference for (1).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s13-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS13-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== gpu_test_gpu_gemm k_fixed"; timeout 200 stdbuf -oL build-gpu/tests/gpu_test_gpu_gemm k_fixed; echo "rc=$?" ) > "$O/tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/tests.txt"
echo "tests done $((SECONDS - T0)) s"
for t in qwen2-7b llama3-8b; do
  for kf in off on; do
    anchor=0; [ $kf = off ] && anchor=1
    SPVGEN_TRACE_ANCHOR=$anchor SPVGEN_TRACE_ARGS="--k-fixed $kf" timeout 150 bash bench/trace.sh bench/traces/$t-prefill.txt build-gpu > "$O/trace-$t-kfixed-$kf.txt" 2>&1
    echo "== $t k-fixed $kf rc=$?"; grep -E "^summary|^== " "$O/trace-$t-kfixed-$kf.txt" | cut -c1-220
    echo "elapsed $((SECONDS - T0)) s"
  done
done
echo "total $((SECONDS - T0)) s"
