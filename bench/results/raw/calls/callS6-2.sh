#!/bin/bash
# Call S6-2: run-time plans for small grids (65..127 rows, and grids of 128x128 tiles under
# half the SMs: 64-row tiles shifted inside M with split-K). (1) the per-call prompt-length
# GPU test and the run-time split-K / shift GPU tests against float64, each its own process
# with an empty driver cache; (2) bench_gemm_shapes --set smallgrid: the new per-call plan
# beside the plans such calls got before (run-time 128x128x64 unsplit, khr); (3) the
# Qwen2-7B prefill trace cold / warm / spvgen cache only, as in call S6-1.
# References: cuBLAS through build-gpu/anchors/gemm_anchor.py (torch 2.11) for every
# smallgrid row, torch.matmul on the same trace calls (bench/anchors/gemm_trace_anchor.py),
# both in this call. Carry .gl and build-gpu.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS6-2 || exit 1
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callS6-2}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
T=$B/tests/gpu_test_gpu_gemm
for t in $("$T" --list | grep -E "prompt|runtime_shift|splitk.*runtime|runtime.*splitk"); do
  ( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 200 "$T" "$t" > "$O/test-$t.txt" 2>&1
    echo "$t exit $? $(grep -E '^[0-9]+ passed' "$O/test-$t.txt" | tail -1)" >> "$O/tests.txt"; rm -rf "$c" ) &
done
wait
echo "== 1. tests ($((SECONDS - T0)) s)"; cat "$O/tests.txt"
grep -hE "FAIL|wrong" "$O"/test-*.txt | cut -c1-240 | head -20
grep -h "prompt 77x\|prompt 130x\|prompt 300x" "$O"/test-*prompt*.txt | head -12
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 200 stdbuf -oL "$B/bench/bench_gemm_shapes" --set smallgrid --anchor "$B/anchors/gemm_anchor.py" \
  --deadline-s 170 > "$O/bench-smallgrid.txt" 2>&1
echo "== 2. smallgrid rc=$? ($((SECONDS - T0)) s)"
grep -vE "^#  " "$O/bench-smallgrid.txt" | cut -c1-230
unset __GL_SHADER_DISK_CACHE_PATH
timeout 150 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/trace.txt" 2>&1
echo "== 3. trace rc=$? ($((SECONDS - T0)) s)"
grep -E "^==|summary" "$O/trace.txt" | cut -c1-200
echo "done in $((SECONDS - T0)) s"
