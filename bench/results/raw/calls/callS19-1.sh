#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s19/callS19-1/ (card and driver in smi.txt)
# First compiles: every process starts with an empty driver and spvgen cache
# References: cuBLAS (gemm_anchor.py, the same shapes), this call
# Call S19-1: what a larger compile budget buys the trace's large calls. The run-time class
# of each large prompt shape of bench/traces/qwen2-7b-prefill.txt (nt, M free, N K 256-multiples,
# ld 16-multiples) with the default plan (300 ms budget), AUTO at 1000 ms, fixed tiles and
# unrolls, khr, k-fixed, and the nn layout; each row a process with fresh caches.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s19-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS19-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
CLS="--shapes runtime --n-multiple 256 --k-multiple 256 --ld-multiple 16"
for s in "3001 18944 3584" "2049 3584 18944" "2049 3584 3584" "513 3584 18944"; do
  set -- $s; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"
  for knobs in "default" "--compile-budget 1000" "--tile 128x256x32 --unroll 1" "--tile 128x128x64 --unroll 2" "--tile 128x256x64 --unroll 1" "--variant khr" "--k-fixed" "--layout nn"; do
    k2="$knobs"; [ "$k2" = default ] && k2=""
    lay="--layout nt"; case "$k2" in *--layout*) lay="";; esac
    { echo "== $tag $knobs"; fresh timeout 60 $B/tools/spvgen run gemm $sh --types f16,f32 $lay $CLS $k2 --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/runs.txt"
    printf '%-16s %-30s %s\n' "$tag" "$knobs" "$(grep -E '^(plan|pipeline|gpu)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' | cut -c1-90 | tr '\n' ' ')"
  done
done
for lay in nn nt; do
  { echo "== 8192^3 $lay fixed default"; fresh timeout 60 $B/tools/spvgen run gemm --m 8192 --n 8192 --k 8192 --types f16,f32 --layout $lay --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/runs.txt"
  printf '%-16s %-30s %s\n' "8192^3" "$lay fixed" "$(grep -E '^(plan|pipeline|gpu)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' | cut -c1-90 | tr '\n' ' ')"
done
rm -f "$O/cur.txt"
timeout 90 python3 $B/anchors/gemm_anchor.py 3001,18944,3584 2049,3584,18944 2049,3584,3584 513,3584,18944 8192,8192,8192 > "$O/gemm-anchor.txt" 2>&1; cat "$O/gemm-anchor.txt"
echo "total $((SECONDS - T0)) s"
