#!/bin/bash
# Call S9-3 (H100): the cold trace target is an H100 target, and calls S9-RU ran on an
# H200. The Qwen2-7B and Llama-3-8B prefill traces with --reuse off and on, each cold
# (empty spvgen and driver caches) and warm, `bash bench/trace.sh bench/traces/T.txt
# build-gpu` (SPVGEN_TRACE_ARGS="--reuse off|on"); the torch.matmul trace anchor with the
# reuse-on run of each trace. First, the GPU test that failed in call S9-2 and was fixed
# after it (test_gemm_bda_one_matrix_over_2_31_matches_cpu).
# References: torch.matmul (bench/anchors/gemm_trace_anchor.py), same call; float64 CPU
# references for the test and the traces' sampled outputs. First compiles: each trace's cold
# run starts from empty spvgen and driver caches, and prints every call's driver compile
# ("pipeline ms", "compiled") and their sum ("total compile ms", summary compile_ms); the
# warm runs show what a second process pays (disk caches filled).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/callS9-3}; mkdir -p "$O"
T0=$SECONDS
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS9-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt" 2>&1
c=$(mktemp -d)
SPVGEN_GPU_REQUIRED=1 __GL_SHADER_DISK_CACHE_PATH=$c timeout 120 "$B/tests/gpu_test_gpu_gemm_bda" \
  test_gemm_bda_one_matrix_over_2_31_matches_cpu > "$O/bda-test.txt" 2>&1
echo "bda test rc=$? ($((SECONDS - T0)) s)" | tee -a "$O/bda-test.txt"
for t in qwen2-7b-prefill llama3-8b-prefill; do
  for r in off on; do
    anchor=0; [ $r = on ] && anchor=1
    SPVGEN_TRACE_ARGS="--reuse $r" SPVGEN_TRACE_ANCHOR=$anchor timeout 150 \
      bash bench/trace.sh "bench/traces/$t.txt" "$B" > "$O/$t-reuse-$r.txt" 2>&1
    echo "$t reuse $r: rc=$? ($((SECONDS - T0)) s)"
  done
done
for f in "$O"/*-reuse-*.txt; do echo "== $(basename "$f")"; grep -E "^== |^summary|^check:" "$f" | cut -c1-230; done
echo "done in $((SECONDS - T0)) s"
