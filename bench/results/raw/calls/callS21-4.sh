#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s21/callS21-4/ (card and driver in smi.txt)
# First compiles: every run process starts with an empty driver disk cache and an empty spvgen cache; its "pipeline" line is the first compile
# References: the session's start (d83b92c, build-gpu/tools/spvgen-base) on the same shapes, and cuBLAS through shared/anchors/gemm_anchor.py (copied to build-gpu/anchors/) on the same M, N, K; this call
# Call S21-4 (main with the final GEMM rule: AUTO keeps coopmat2 where M or N is under 128):
# every fixed shape of the traces and sets whose default plan moved against the session's
# start (tools/plan_diff.py), and the narrow-N shapes of call S21-3, each through
# `spvgen run gemm` (first compile and GPU time, a sampled check) with both builds, forced
# coopmat2 tiles for N = 22 (their compile), and cuBLAS on the same shapes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s21-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS21-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
rg() { # rg LABEL BINARY FLAGS...
  local label=$1 bin=$2; shift 2
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $label: spvgen run gemm $* --sample 256 --repeats 20"
    timeout 60 $bin run gemm "$@" --sample 256 --repeats 20 2>&1 | grep -E "^plan|^pipeline|^gpu|^check|rror"; echo "rc=${PIPESTATUS[0]}" ) >> "$O/A-gemm.txt" 2>&1
}
while read -r m n k t l; do
  F="--m $m --n $n --k $k --types $t --layout $l"
  rg "base ${m}x${n}x${k} $t $l" $B/tools/spvgen-base $F
  rg "new ${m}x${n}x${k} $t $l" $B/tools/spvgen $F
done <<'ROWS'
81 9216 2304 f16,f32 nt
81 11008 4096 bf16,f32 nt
8 128 8192 f16,f32 nt
1 128 8192 f16,f32 nt
87 14336 4096 f16,f16 nt
1 128 896 f16,f32 nt
9 128 896 f16,f32 nt
77 18944 3584 f16,f32 nt
16 64 512 f16,f32 nn
1048576 64 256 f16,f32 nt
1048576 22 256 f16,f32 nt
1048576 16 256 f16,f32 nt
1048576 96 256 f16,f32 nt
1 4096 256 f16,f32 nt
ROWS
F="--m 1048576 --n 22 --k 256 --types f16,f32 --layout nt --variant coopmat2"
rg "cm2-64x32x64 1048576x22x256" $B/tools/spvgen $F --tile 64x32x64 --wg 64
rg "cm2-64x64x32 1048576x22x256" $B/tools/spvgen $F --tile 64x64x32 --wg 128
F="--m 1048576 --n 96 --k 256 --types f16,f32 --layout nt"
rg "khr 1048576x96x256" $B/tools/spvgen $F --variant khr
grep -E "^==|^plan|^pipeline|^gpu|rc=[1-9]" "$O/A-gemm.txt" | cut -c1-170
echo "A done $((SECONDS - T0)) s"
timeout 200 python3 $B/anchors/gemm_anchor.py 81,9216,2304 81,11008,4096 8,128,8192 1,128,8192 87,14336,4096 1,128,896 9,128,896 77,18944,3584 16,64,512 1048576,64,256 1048576,22,256 1048576,16,256 1048576,96,256 1,4096,256 > "$O/B-anchor.txt" 2>&1
cat "$O/B-anchor.txt"
echo "total $((SECONDS - T0)) s"
