#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s18/callS18-1/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-28-s18/
# First compiles: B's cold rows start with an empty driver and spvgen cache; its other rows keep one or both caches (named per row); the traces' run 1 starts with both empty
# References: cuBLAS (gemm_anchor.py 8192,8192,8192 2048,3584,3584) and torch.matmul's trace (gemm_trace_anchor.py), this call
# Call S18-1: cached-only creates (VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT)
# in the tiered paths, and `bench trace --passes 2` (the warm pass 2 beside torch's pass 2,
# the slow-call count). A: the runner's tests on the NVIDIA driver; B: `run gemm --tiered`
# in four cache states; C: the two LLM traces, tiered and plain.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s18-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS18-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== vk_test_cached_only"; timeout 100 $B/tests/vk_test_cached_only; echo "rc=$?"
  echo "== vk_test_compile_async"; timeout 100 $B/tests/vk_test_compile_async; echo "rc=$?"
  echo "== bench trace tests/data/trace-reuse.txt --cold --tiered --passes 2"; timeout 100 $B/tools/spvgen bench trace tests/data/trace-reuse.txt --cold --tiered --passes 2; echo "rc=$?"
  echo "== the same, warm (spvgen cache and driver cache of the run above)"; timeout 100 $B/tools/spvgen bench trace tests/data/trace-reuse.txt --tiered --passes 2; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=|^summary|^check|driver .*(took|asks)" "$O/A-tests.txt" | sed 's/disk_cache_bytes_read=[0-9]* //' | cut -c1-260
# B: run gemm --tiered, four cache states per shape: X = spvgen's cache dir, D = the driver's
for r in "8192 8192 8192 --types f16,f32" "2048 3584 3584 --types f16,f32 --layout nt"; do
  set -- $r; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3; rest="$*"
  X=$(mktemp -d); D=$(mktemp -d)
  for state in "cold:$X:$D" "warm-both:$X:$D" "spvgen-only:$X:$(mktemp -d)" "driver-only:$(mktemp -d):$D"; do
    IFS=: read -r name x d <<< "$state"
    { echo "== B $tag $rest --tiered ($name)"; XDG_CACHE_HOME=$x __GL_SHADER_DISK_CACHE_PATH=$d timeout 90 $B/tools/spvgen run gemm $sh $rest --tiered --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/B-tiered.txt"
    printf 'B %-15s %-12s %s\n' "$tag" "$name" "$(grep -E '^(tiered|first|then|pipeline|gpu|ready|check)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' -e 's/(the quick form.s compile: what the first call waits for;/(first-call wait;/' -e 's/(the driver.s compile, in the background while the quick form ran/(background/' -e 's/the kernel cache or the driver.s has it; //' | cut -c1-90 | tr '\n' ' ')"
  done
done
rm -f "$O/cur.txt"
timeout 60 python3 $B/anchors/gemm_anchor.py 8192,8192,8192 2048,3584,3584 > "$O/gemm-anchor.txt" 2>&1; tail -3 "$O/gemm-anchor.txt"
# C: the traces (bench/trace.sh: cold, warm, spvgen cache only; each --passes 2; the anchor)
for t in qwen2-7b-prefill llama3-8b-prefill; do
  SPVGEN_TRACE_ARGS=--tiered timeout 120 bash bench/trace.sh bench/traces/$t.txt $B > "$O/C-$t-tiered.txt" 2>&1
  echo "C $t tiered rc=$?"
  grep -E "^== |^summary|^pass 2|^slow calls|^tiered:|plans needed no compile|cold_wall_ms" "$O/C-$t-tiered.txt" | sed -e 's/disk_cache_bytes_read=[0-9]* //' -e 's/shapes=runtime //' -e 's/reuse=on //' | cut -c1-330
done
SPVGEN_TRACE_ANCHOR=0 timeout 100 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/C-qwen2-7b-prefill-plain.txt" 2>&1
echo "C qwen2 plain rc=$?"
grep -E "^== |^summary|^pass 2|^slow calls" "$O/C-qwen2-7b-prefill-plain.txt" | sed -e 's/disk_cache_bytes_read=[0-9]* //' -e 's/shapes=runtime //' -e 's/reuse=on //' | cut -c1-330
echo "total $((SECONDS - T0)) s"
