#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s18/callS18-6/ (card and driver in smi.txt)
# First compiles: every process starts with an empty driver and spvgen cache
# References: cuBLAS (gemm_anchor.py 3000,3000,3000), this call
# Call S18-6: does the driver answer "found" for a khr plan whose quick form is compiling
# beside the question (S18-5's 97x131x67), and is what it gives the plan's binary? Each
# shape with fresh caches: plain `run gemm` (the plan compiled alone), then `--tiered` twice.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s18-6}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS18-6 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
for r in "3000 3000 3000 --types f16,f32" "3000 3000 3000 --types f16,f16" "97 131 67 --types f16,f32" "1999 3584 3584 --types f16,f32 --layout nt"; do
  set -- $r; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3; rest="$*"
  for mode in plain tiered tiered; do
    flag=""; [ $mode = tiered ] && flag=--tiered
    { echo "== $tag $rest $flag"; fresh timeout 90 $B/tools/spvgen run gemm $sh $rest $flag --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/runs.txt"
    printf '%-15s %-22s %-6s %s\n' "$tag" "$rest" "$mode" "$(grep -E '^(plan|tiered|first|then|pipeline|gpu|ready)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' -e 's/(the quick form.s compile: what the first call waits for;/(first-call wait;/' -e 's/(the driver.s compile, in the background while the quick form ran/(background/' -e 's/the kernel cache or the driver.s has it; //' | cut -c1-100 | tr '\n' ' ')"
  done
done
rm -f "$O/cur.txt"
timeout 60 python3 $B/anchors/gemm_anchor.py 3000,3000,3000 1999,3584,3584 > "$O/gemm-anchor.txt" 2>&1; tail -2 "$O/gemm-anchor.txt"
echo "total $((SECONDS - T0)) s"
