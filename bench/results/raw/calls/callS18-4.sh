#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s18/callS18-4/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-28-s18/
# First compiles: each trace's run 1 starts with an empty driver and spvgen cache; run 2 keeps both, run 3 the spvgen cache only
# References: torch.matmul's trace (gemm_trace_anchor.py: pass 1 cold, pass 2 warm), this call
# Call S18-4 (the session's final build; asked for an H200, ran on an H100): the runner's new tests, and
# the two LLM traces through bench/trace.sh (tiered; Qwen2-7B also plain) with the shader
# clock read before and after each pass and the busy reference after the passes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s18-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS18-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== vk_test_gpu_clock"; timeout 100 $B/tests/vk_test_gpu_clock; echo "rc=$?"
  echo "== vk_test_cached_only"; timeout 100 $B/tests/vk_test_cached_only; echo "rc=$?"
  echo "== vk_test_compile_async"; timeout 100 $B/tests/vk_test_compile_async; echo "rc=$?"
  echo "== bench trace tests/data/trace-reuse.txt --cold --tiered --passes 2"; timeout 100 $B/tools/spvgen bench trace tests/data/trace-reuse.txt --cold --tiered --passes 2; echo "rc=$?"
  echo "== the same, warm"; timeout 100 $B/tools/spvgen bench trace tests/data/trace-reuse.txt --tiered --passes 2; echo "rc=$?"
  echo "== the same, --clock off"; timeout 100 $B/tools/spvgen bench trace tests/data/trace-reuse.txt --tiered --passes 2 --clock off; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=|MHz,|driver .*(took|asks)|^GPU clock" "$O/A-tests.txt" | cut -c1-220
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_plans=[0-9]* background_compile_ms=[0-9.]* //'
for t in qwen2-7b-prefill llama3-8b-prefill; do
  SPVGEN_TRACE_ARGS=--tiered timeout 150 bash bench/trace.sh bench/traces/$t.txt $B > "$O/B-$t-tiered.txt" 2>&1
  echo "B $t tiered rc=$?"
  grep -E "^== |^summary|^GPU clock|^clock reference" "$O/B-$t-tiered.txt" | sed -e "$S" | cut -c1-420
done
SPVGEN_TRACE_ANCHOR=0 timeout 120 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/B-qwen2-7b-prefill-plain.txt" 2>&1
echo "B qwen2 plain rc=$?"
grep -E "^== |^summary|^GPU clock" "$O/B-qwen2-7b-prefill-plain.txt" | sed -e "$S" | cut -c1-420
echo "total $((SECONDS - T0)) s"
