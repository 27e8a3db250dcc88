#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s17/callS17-4/ (card and driver in smi.txt); GPU test outputs in tests/results/raw/gpu-2026-11-27-s17/
# First compiles: every `run gemm` process starts with an empty driver and spvgen cache (its pipeline line is a first compile; with --tiered the quick form's and the plan's, as S17-3)
# References: cuBLAS (gemm_anchor.py 4096,4096,4096 8192,8192,8192), this call
# Call S17-4 (H100): the session's final build. (A) GPU tests: the quick forms, the
# background compiles, the coopmat2 f16->f16 sweeps (whose plans the 256x256 estimate
# moved), `run gemm --tiered` as the CLI test reads it. (B) the new f16->f16 defaults at
# 4096^3 and 8192^3 (128x256x32, no longer 256x256x32), plain and tiered, beside cuBLAS.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s17-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS17-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  for t in test_gemm_quick_form_matches_cpu test_gemm_coopmat2_matches_cpu_f16_f16 test_gemm_coopmat2_every_plan_matches_cpu_f16_f16; do
    echo "== gpu_test_gpu_gemm $t"; timeout 200 $B/tests/gpu_test_gpu_gemm $t; echo "rc=$?"; done
  echo "== vk_test_compile_async"; timeout 100 $B/tests/vk_test_compile_async; echo "rc=$?"
  echo "== run gemm --m 97 --n 131 --k 67 --tiered"; timeout 100 $B/tools/spvgen run gemm --m 97 --n 131 --k 67 --tiered; echo "rc=$?" ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=|^first|^then|^check|^ready" "$O/A-tests.txt"
echo "A done $((SECONDS - T0)) s"
for r in "4096 4096 4096 --types f16,f16|" "4096 4096 4096 --types f16,f16|--tiered" "8192 8192 8192 --types f16,f16|" "8192 8192 8192 --types f16,f16|--tiered"; do
  shape=${r%%|*}; knobs=${r#*|}
  set -- $shape; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3; rest="$*"
  { echo "== B $tag $rest $knobs"; fresh timeout 90 $B/tools/spvgen run gemm $sh $rest $knobs --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/B-defaults.txt"
  printf 'B %-16s %-16s %-9s %s\n' "$tag" "$rest" "${knobs:-plain}" "$(grep -E '^(plan|first|then|pipeline|gpu|ready)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' -e 's/(the quick form.s compile: what the first call waits for;/(first-call wait;/' -e 's/(the driver.s compile, in the background while the quick form ran/(background/' | cut -c1-90 | tr '\n' ' ')"
done
rm -f "$O/cur.txt"
timeout 60 python3 $B/anchors/gemm_anchor.py 4096,4096,4096 8192,8192,8192 > "$O/gemm-anchor.txt" 2>&1; tail -2 "$O/gemm-anchor.txt"
echo "total $((SECONDS - T0)) s"
