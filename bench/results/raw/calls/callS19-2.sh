#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s19/callS19-2/ (card and driver in smi.txt)
# First compiles: every process starts with an empty driver and spvgen cache
# References: cuBLAS (gemm_anchor.py, the same shapes), this call; nn rows of the same build
# Call S19-2: the experiment build (SPVGEN_EXP_KHRLOAD, emitters/gemm/coopmat2.c, not landed):
# K-contiguous operands' unclamped tiles loaded with OpCooperativeMatrixLoadKHR instead of
# tensor layouts (1: a column-major B; 2: and a row-major A; 3: every row-major operand too,
# aligned tiles only). nt against nn on the trace's large run-time classes and 8192^3.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s19-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS19-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
row() { # tag exp args...
  local tag=$1 x=$2; shift 2
  { echo "== $tag exp=$x $*"; SPVGEN_EXP_KHRLOAD=$x fresh timeout 60 $B/tools/spvgen run gemm "$@" --types f16,f32 --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/runs.txt"
  printf '%-16s %-12s %s\n' "$tag" "exp=$x" "$(grep -E '^(plan|pipeline|gpu)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' -e 's/(the driver.s compile[^)]*)//' | cut -c1-80 | tr '\n' ' ')"
}
CLS="--shapes runtime --n-multiple 256 --k-multiple 256 --ld-multiple 16"
for s in "3001 18944 3584" "2049 3584 18944" "2049 3584 3584" "513 3584 18944"; do
  set -- $s; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"
  for x in 0 1 2; do row "$tag nt" $x $sh --layout nt $CLS; done
  row "$tag nn" 0 $sh --layout nn $CLS
done
for x in 0 1 2; do row "8192^3 nt" $x --m 8192 --n 8192 --k 8192 --layout nt; done
for x in 0 3; do row "8192^3 nn" $x --m 8192 --n 8192 --k 8192 --layout nn; done
rm -f "$O/cur.txt"
for x in 0 2; do
  SPVGEN_EXP_KHRLOAD=$x fresh timeout 120 $B/tools/spvgen bench trace bench/traces/qwen2-7b-prefill.txt --passes 2 > "$O/trace-exp$x.txt" 2>&1
  echo "trace exp=$x: $(grep -E '^(pass|check)' "$O/trace-exp$x.txt" | tr '\n' ' ')"
done
timeout 90 python3 $B/anchors/gemm_anchor.py 3001,18944,3584 2049,3584,18944 2049,3584,3584 513,3584,18944 8192,8192,8192 > "$O/gemm-anchor.txt" 2>&1; cat "$O/gemm-anchor.txt"
echo "total $((SECONDS - T0)) s"
