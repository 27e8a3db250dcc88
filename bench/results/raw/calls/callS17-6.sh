#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s17/callS17-6/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-27-s17/
# First compiles: every `run gemm` process and the cold trace start with an empty driver and spvgen cache (the quick form's compile is the first call's wait, the plan's runs in the background)
# References: cuBLAS (gemm_anchor.py 8192,8192,8192 4097,4095,4093) and torch.matmul's trace (gemm_trace_anchor.py), this call
# Call S17-6 (H100): the review's build (one helper starts the background compiles; a
# resolved desc replans to the same class key): the GPU tests of the tiered paths, `run
# gemm --tiered` on two issue shapes, the Qwen2-7B trace cold with --tiered.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s17-6}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS17-6 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== gpu_test_gpu_gemm test_gemm_quick_form_matches_cpu"; timeout 200 $B/tests/gpu_test_gpu_gemm test_gemm_quick_form_matches_cpu; echo "rc=$?"
  echo "== vk_test_compile_async"; timeout 100 $B/tests/vk_test_compile_async; echo "rc=$?"
  echo "== bench trace tests/data/trace-reuse.txt --cold --tiered"; timeout 100 $B/tools/spvgen bench trace tests/data/trace-reuse.txt --cold --tiered; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=|^summary|^check" "$O/A-tests.txt"
for r in "8192 8192 8192 --types f16,f32" "4097 4095 4093 --types f16,f32"; do
  set -- $r; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3; rest="$*"
  { echo "== B $tag $rest --tiered"; fresh timeout 90 $B/tools/spvgen run gemm $sh $rest --tiered --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/B-tiered.txt"
  printf 'B %-16s %s\n' "$tag" "$(grep -E '^(first|then|pipeline|gpu|ready|check)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' -e 's/(the quick form.s compile: what the first call waits for;/(first-call wait;/' -e 's/(the driver.s compile, in the background while the quick form ran/(background/' | cut -c1-80 | tr '\n' ' ')"
done
rm -f "$O/cur.txt"
timeout 60 python3 $B/anchors/gemm_anchor.py 8192,8192,8192 4097,4095,4093 > "$O/gemm-anchor.txt" 2>&1; tail -2 "$O/gemm-anchor.txt"
SPVGEN_TRACE_ARGS=--tiered timeout 150 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/C-qwen2-7b-prefill-tiered.txt" 2>&1
echo "C rc=$?"
grep -E "^== |^summary|^tiered:" "$O/C-qwen2-7b-prefill-tiered.txt" | sed 's/disk_cache_bytes_read=[0-9]* //' | cut -c1-240
echo "total $((SECONDS - T0)) s"
