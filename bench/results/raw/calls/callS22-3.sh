#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s22/callS22-3/ (card and driver in smi.txt)
# First compiles: every run process starts with an empty driver disk cache and an empty spvgen cache; its "pipeline" line is the first compile
# References: the session's start (d475022, build-gpu/tools/spvgen-base) on the same shapes, and cuBLAS through shared/anchors/gemm_anchor.py (copied to build-gpu/anchors/) on the same M, N, K; this call
# Call S22-3 (main with both session-22 changes merged: the compile model's small-tile cap
# and unroll score, and khr's tile rate refitted on recorded GPU times, tools/speed_fit.py):
# 14 of the 18 trace and set rows whose default plan the khr refit moved (khr 128x256x32 ->
# coopmat2 128x128x64 shift, or 128x256x32 shift for 9216 x 2304; left out, beside measured
# neighbours: 2270x9216x3072, 2270x3072x3072, 513x18944x3584, 2049x3584x3584), and the two
# rows the last compile-model fixes moved since call S22-2 (702x896x4864: khr -> coopmat2
# 32x32x64; 48x200x512 nn: shift -> clamp), each through `spvgen run gemm` (first compile
# and GPU time, a sampled check) with the start's build and this one, then cuBLAS on the
# same shapes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s22-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS22-3 > /dev/null || exit 1
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
1999 3584 3584 f16,f32 nt
3001 3584 3584 f16,f32 nt
257 18944 3584 f16,f32 nt
1565 9216 2304 f16,f32 nt
835 9216 2304 f16,f32 nt
584 11008 4096 bf16,f32 nt
700 14336 4096 f16,f32 nt
759 14336 4096 f16,f16 nt
1803 4096 4096 f16,f32 nt
3900 4096 4096 f16,f32 nt
858 9216 3072 f16,f32 nt
490 16384 3072 f16,f32 nt
3095 9216 3072 f16,f32 nt
2270 3072 8192 f16,f32 nt
702 896 4864 f16,f32 nt
48 200 512 f16,f32 nn
ROWS
grep -E "^==|^plan|^pipeline|^gpu|rc=[1-9]" "$O/A-gemm.txt" | cut -c1-170
echo "A done $((SECONDS - T0)) s"
timeout 120 python3 $B/anchors/gemm_anchor.py 1999,3584,3584 3001,3584,3584 257,18944,3584 1565,9216,2304 835,9216,2304 584,11008,4096 700,14336,4096 759,14336,4096 1803,4096,4096 3900,4096,4096 858,9216,3072 490,16384,3072 3095,9216,3072 2270,3072,8192 702,896,4864 48,200,512 > "$O/B-anchor.txt" 2>&1
cat "$O/B-anchor.txt"
echo "total $((SECONDS - T0)) s"
