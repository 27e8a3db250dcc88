#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s18/callS18-9/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-28-s18/
# First compiles: B's cold rows and each trace's run 1 start with empty driver and spvgen caches; the warm rows keep both
# References: cuBLAS (gemm_anchor.py 8192,8192,8192) and torch.matmul's trace (gemm_trace_anchor.py), this call
# Call S18-9 (the review's build: one gemm_tier_ask for both tools' tiers, the trace's
# warm-ups through gemm_run): the CLI's tiered tests, `run gemm --tiered` cold then warm,
# the Llama-3-8B trace (tiered) and one warm process with --warm-up.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s18-9}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS18-9 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  export SPVGEN_CLI=$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD SPVGEN_PIPELINE_CACHE=$(mktemp -d)
  echo "== cli_test_gemm test_run_tiered_prints_both_kernels_or_why_not"; timeout 100 $B/tests/cli_test_gemm test_run_tiered_prints_both_kernels_or_why_not; echo "rc=$?"
  echo "== cli_test_bench_trace"; timeout 200 $B/tests/cli_test_bench_trace; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/A-tests.txt" | cut -c1-200
X=$(mktemp -d); D=$(mktemp -d)
for name in cold warm; do
  { echo "== B 8192^3 f16->f32 --tiered ($name)"; env -u SPVGEN_PIPELINE_CACHE XDG_CACHE_HOME=$X __GL_SHADER_DISK_CACHE_PATH=$D timeout 90 $B/tools/spvgen run gemm --m 8192 --n 8192 --k 8192 --types f16,f32 --tiered --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } >> "$O/B-tiered.txt"
done
grep -E "^==|^(tiered|first|then|pipeline|gpu|clock|ready|check)|rc=[^0]" "$O/B-tiered.txt" | cut -c1-170
timeout 60 python3 $B/anchors/gemm_anchor.py 8192,8192,8192 > "$O/gemm-anchor.txt" 2>&1; tail -1 "$O/gemm-anchor.txt"
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_plans=[0-9]* background_compile_ms=[0-9.]* //'
SPVGEN_TRACE_ARGS=--tiered timeout 150 bash bench/trace.sh bench/traces/llama3-8b-prefill.txt $B > "$O/C-llama3-8b-prefill-tiered.txt" 2>&1
echo "C rc=$?"
grep -E "^== |^summary|^GPU clock|^clock reference" "$O/C-llama3-8b-prefill-tiered.txt" | sed -e "$S" | cut -c1-330
X=$(mktemp -d); D=$(mktemp -d)
{ __GL_SHADER_DISK_CACHE_PATH=$D timeout 60 $B/tools/spvgen bench trace bench/traces/qwen2-7b-prefill.txt --cache-dir $X --tiered --passes 2
  echo "== warm, --warm-up"; __GL_SHADER_DISK_CACHE_PATH=$D timeout 60 $B/tools/spvgen bench trace bench/traces/qwen2-7b-prefill.txt --cache-dir $X --tiered --passes 2 --warm-up; } > "$O/D-qwen2-warm-up.txt" 2>&1
echo "D rc=$?"
grep -E "^== |^warm-up|^clock reference|^summary|^GPU clock" "$O/D-qwen2-warm-up.txt" | sed -e "$S" | cut -c1-330
echo "total $((SECONDS - T0)) s"
