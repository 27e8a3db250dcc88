#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s17/callS17-3/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-27-s17/
# First compiles: every `run gemm` process and every cold trace run starts with an empty driver and spvgen cache (the quick form's compile is the first call's wait; the plan's compile runs in the background and is printed beside it)
# References: cuBLAS (gemm_anchor.py, the shapes of part B) and torch.matmul's trace (gemm_trace_anchor.py, part C), this call
# Call S17-3 (H100: issue 24's compile target is stated for it): tiered compiles. (A) the
# GPU tests of the quick forms and of the background compile. (B) `run gemm --tiered` on
# the issue's default shapes: the first call's wait (the quick form's compile) and speed,
# the plan's compile in the background and its speed. (C) the LLM prefill traces cold and
# warm (bench/trace.sh), with and without --tiered.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s17-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS17-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
# A
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== gpu_test_gpu_gemm test_gemm_quick_form_matches_cpu"; timeout 200 $B/tests/gpu_test_gpu_gemm test_gemm_quick_form_matches_cpu; echo "rc=$?"
  echo "== vk_test_compile_async"; timeout 100 $B/tests/vk_test_compile_async; echo "rc=$?"
  echo "== bench trace tests/data/trace-reuse.txt --cold --tiered"; timeout 100 $B/tools/spvgen bench trace tests/data/trace-reuse.txt --cold --tiered; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=|^summary|^tiered|^check" "$O/A-tests.txt"
echo "A done $((SECONDS - T0)) s"
# B
ROWS=(
  "4096 4096 4096 --types f16,f16"
  "8192 8192 8192 --types f16,f32"
  "3000 3000 3000 --types f16,f32"
  "3000 3000 3000 --types f16,f16"
  "3000 3000 3000 --types s8,s32"
  "2048 3584 3584 --types f16,f32 --layout nt"
  "257 3584 3584 --types f16,f32 --layout nt"
  "4097 4095 4093 --types f16,f32"
  "128 16384 4096 --types s8,s32"
)
for r in "${ROWS[@]}"; do
  set -- $r; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3; rest="$*"
  { echo "== B $tag $rest --tiered"; fresh timeout 90 $B/tools/spvgen run gemm $sh $rest --tiered --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/B-tiered.txt"
  printf 'B %-16s %-22s %s\n' "$tag" "$rest" "$(grep -E '^(first|then|pipeline|gpu|ready|tiered)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' -e 's/(the quick form.s compile: what the first call waits for;/(first-call wait;/' -e 's/(the driver.s compile, in the background while the quick form ran/(background/' | cut -c1-95 | tr '\n' ' ')"
done
rm -f "$O/cur.txt"
echo "B done $((SECONDS - T0)) s"
timeout 90 python3 $B/anchors/gemm_anchor.py 4096,4096,4096 8192,8192,8192 3000,3000,3000 2048,3584,3584 257,3584,3584 4097,4095,4093 128,16384,4096 > "$O/gemm-anchor.txt" 2>&1
tail -7 "$O/gemm-anchor.txt"
# C
for t in qwen2-7b-prefill llama3-8b-prefill; do
  for mode in plain tiered; do
    args=; [ $mode = tiered ] && args=--tiered
    anchor=0; [ $mode = tiered ] && anchor=1
    SPVGEN_TRACE_ARGS="$args" SPVGEN_TRACE_ANCHOR=$anchor timeout 150 bash bench/trace.sh bench/traces/$t.txt $B > "$O/C-$t-$mode.txt" 2>&1
    echo "C $t $mode rc=$?"
    grep -E "^== |^summary|^tiered:|cold_wall|warm_gpu|^anchor" "$O/C-$t-$mode.txt" | sed 's/disk_cache_bytes_read=[0-9]* //' | cut -c1-260
  done
done
echo "total $((SECONDS - T0)) s"
