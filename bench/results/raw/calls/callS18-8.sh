#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s18/callS18-8/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-28-s18/
# First compiles: B's cold rows start with empty driver and spvgen caches; its other rows keep the caches named; each trace's run 1 starts with both empty
# References: cuBLAS (gemm_anchor.py 8192,8192,8192 2048,3584,3584) and torch.matmul's trace (gemm_trace_anchor.py), this call
# Call S18-8 (the final build, asked for an H200): the tiers' question beside the quick
# form's compile in four cache states, the two LLM traces with the clock readings, and the
# CLI's tiered tests, on the H200 where one is lent.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s18-8}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS18-8 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  export SPVGEN_CLI=$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD SPVGEN_PIPELINE_CACHE=$(mktemp -d)
  echo "== cli_test_gemm test_run_tiered_prints_both_kernels_or_why_not (twice: cold, then the caches it left)"
  timeout 100 $B/tests/cli_test_gemm test_run_tiered_prints_both_kernels_or_why_not; echo "rc=$?"
  timeout 100 $B/tests/cli_test_gemm test_run_tiered_prints_both_kernels_or_why_not; echo "rc=$?"
  echo "== cli_test_bench_trace"; timeout 200 $B/tests/cli_test_bench_trace; echo "rc=$?"
  echo "== run gemm --m 97 --n 131 --k 67 --tiered (the test's command), cold then warm"
  X=$(mktemp -d); D=$(mktemp -d)
  XDG_CACHE_HOME=$X __GL_SHADER_DISK_CACHE_PATH=$D timeout 60 $B/tools/spvgen run gemm --m 97 --n 131 --k 67 --tiered; echo "rc=$?"
  XDG_CACHE_HOME=$X __GL_SHADER_DISK_CACHE_PATH=$D timeout 60 $B/tools/spvgen run gemm --m 97 --n 131 --k 67 --tiered; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=|^tiered|^check" "$O/A-tests.txt" | cut -c1-220
for r in "8192 8192 8192 --types f16,f32" "2048 3584 3584 --types f16,f32 --layout nt"; do
  set -- $r; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3; rest="$*"
  X=$(mktemp -d); D=$(mktemp -d)
  for state in "cold:$X:$D" "warm-both:$X:$D" "spvgen-only:$X:$(mktemp -d)" "driver-only:$(mktemp -d):$D"; do
    IFS=: read -r name x d <<< "$state"
    { echo "== B $tag $rest --tiered ($name)"; XDG_CACHE_HOME=$x __GL_SHADER_DISK_CACHE_PATH=$d timeout 90 $B/tools/spvgen run gemm $sh $rest --tiered --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/B-tiered.txt"
    printf 'B %-15s %-12s %s\n' "$tag" "$name" "$(grep -E '^(tiered|first|then|pipeline|gpu|ready|check)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' -e 's/(the quick form.s compile: what the first call waits for;/(first-call wait;/' -e 's/(the driver.s compile, in the background while the quick form ran/(background/' -e 's/the kernel cache or the driver.s has it; //' | cut -c1-110 | tr '\n' ' ')"
  done
done
rm -f "$O/cur.txt"
timeout 60 python3 $B/anchors/gemm_anchor.py 8192,8192,8192 2048,3584,3584 > "$O/gemm-anchor.txt" 2>&1; tail -2 "$O/gemm-anchor.txt"
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_plans=[0-9]* background_compile_ms=[0-9.]* //'
for t in qwen2-7b-prefill llama3-8b-prefill; do
  SPVGEN_TRACE_ARGS=--tiered timeout 150 bash bench/trace.sh bench/traces/$t.txt $B > "$O/C-$t-tiered.txt" 2>&1
  echo "C $t tiered rc=$?"
  grep -E "^== |^summary|^GPU clock|^tiered:|plans needed no compile" "$O/C-$t-tiered.txt" | sed -e "$S" | cut -c1-330
done
echo "total $((SECONDS - T0)) s"
