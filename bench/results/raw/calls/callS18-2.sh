#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s18/callS18-2/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-28-s18/
# First compiles: each trace's run 1 starts with an empty driver and spvgen cache; the runs after it keep both (warm) or the spvgen cache only, as each section says
# References: torch.matmul's trace (gemm_trace_anchor.py: pass 1 cold, pass 2 warm), this call
# Call S18-2: the shader clock beside the trace's timings (spvgen_vk_measure_clock before
# pass 1 and after each pass), on the build with the cached-only tier probe. A: the device
# dump (for the h100 preset: shaderSubgroupClock) and the runner's clock and cached-only
# tests on the NVIDIA driver; B: the two LLM traces through bench/trace.sh (tiered, plain);
# C: warm runs with and without --warm-up, three passes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s18-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS18-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== spvgen devices --json"; $B/tools/spvgen devices --json; echo "rc=$?"
  echo "== vk_test_gpu_clock"; timeout 100 $B/tests/vk_test_gpu_clock; echo "rc=$?"
  echo "== vk_test_cached_only"; timeout 100 $B/tests/vk_test_cached_only; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=|MHz|driver .*(took|asks)" "$O/A-tests.txt" | cut -c1-200
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_plans=[0-9]* background_compile_ms=[0-9.]* //'
for t in qwen2-7b-prefill llama3-8b-prefill; do
  SPVGEN_TRACE_ARGS=--tiered timeout 120 bash bench/trace.sh bench/traces/$t.txt $B > "$O/B-$t-tiered.txt" 2>&1
  echo "B $t tiered rc=$?"
  grep -E "^== |^summary|^GPU clock" "$O/B-$t-tiered.txt" | sed -e "$S" | cut -c1-300
done
SPVGEN_TRACE_ANCHOR=0 timeout 100 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/B-qwen2-7b-prefill-plain.txt" 2>&1
echo "B qwen2 plain rc=$?"
grep -E "^== |^summary|^GPU clock" "$O/B-qwen2-7b-prefill-plain.txt" | sed -e "$S" | cut -c1-300
# C: one cache pair filled by a cold run, then warm processes: 3 passes without, then with --warm-up, twice each
for t in qwen2-7b-prefill llama3-8b-prefill; do
  X=$(mktemp -d); D=$(mktemp -d)
  { echo "== C $t cold"; __GL_SHADER_DISK_CACHE_PATH=$D timeout 60 $B/tools/spvgen bench trace bench/traces/$t.txt --cache-dir $X --tiered --passes 3
    for k in 1 2; do
      sleep 2; echo "== C $t warm, no warm-up ($k)"; __GL_SHADER_DISK_CACHE_PATH=$D timeout 60 $B/tools/spvgen bench trace bench/traces/$t.txt --cache-dir $X --tiered --passes 3
      sleep 2; echo "== C $t warm, --warm-up ($k)"; __GL_SHADER_DISK_CACHE_PATH=$D timeout 60 $B/tools/spvgen bench trace bench/traces/$t.txt --cache-dir $X --tiered --passes 3 --warm-up
    done; } > "$O/C-$t-warm-up.txt" 2>&1
  grep -E "^== |^warm-up|^summary|^GPU clock" "$O/C-$t-warm-up.txt" | sed -e "$S" | cut -c1-300
done
echo "total $((SECONDS - T0)) s"
