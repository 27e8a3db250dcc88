#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s19/callS19-3/ (card and driver in smi.txt); GPU test output in tests/results/raw/gpu-2026-11-28-s19/
# First compiles: each trace's run 1 starts with an empty driver and spvgen cache; run 2 keeps both, run 3 the spvgen cache only
# References: torch.matmul's trace (gemm_trace_anchor.py: pass 1 cold, pass 2 warm), this call, run 4 of each prefetch trace
# Call S19-3: each weight's kernel family compiled ahead (bench trace --prefetch, now the
# default) against --prefetch off (the old default) and --tiered, on the two LLM traces
# through bench/trace.sh; and the CLI's trace tests and the family's tests on the NVIDIA driver.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s19-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS19-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1 SPVGEN_CLI=$PWD/$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD
  echo "== gemm_test_gemm_family"; timeout 60 $B/tests/gemm_test_gemm_family; echo "rc=$?"
  echo "== cli_test_bench_trace"; timeout 200 $B/tests/cli_test_bench_trace; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/A-tests.txt" | cut -c1-220
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_plans=[0-9]* background_compile_ms=[0-9.]* //;s/cached_plans=[0-9]* //;s/tiered=0 //;s/quick_calls=0 //'
for t in qwen2-7b-prefill llama3-8b-prefill; do
  for mode in prefetch off tiered; do
    case $mode in prefetch) args=""; anc=1;; off) args="--prefetch off"; anc=0;; tiered) args="--tiered"; anc=0;; esac
    SPVGEN_TRACE_ARGS="$args" SPVGEN_TRACE_ANCHOR=$anc timeout 170 bash bench/trace.sh bench/traces/$t.txt $B > "$O/B-$t-$mode.txt" 2>&1
    echo "B $t $mode rc=$?"
    grep -E "^== |^summary|^prefetch:  " "$O/B-$t-$mode.txt" | sed -e "$S" | cut -c1-520
  done
done
echo "total $((SECONDS - T0)) s"
