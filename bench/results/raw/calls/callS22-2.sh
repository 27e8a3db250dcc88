#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s22/callS22-2/ (card and driver in smi.txt)
# First compiles: every run process starts with an empty driver disk cache and an empty spvgen cache; its "pipeline" line is the first compile
# References: the session's start (d475022, build-gpu/tools/spvgen-base) on the same shapes, and cuBLAS through shared/anchors/gemm_anchor.py (copied to build-gpu/anchors/) on the same M, N, K; this call
# Call S22-2 (main with the compile model's small-tile cap and the unroll score only for
# 32-deep K steps, emitters/gemm/coopmat2_plan.c unroll_score): every kind of default plan
# that moved against the session's start (tools/plan_diff.py over the traces and sets, H100
# caps: 23 tile or variant moves, 28 knob-only), one or more of each, and the narrow-N shapes,
# through `spvgen run gemm` with both builds, then cuBLAS on the same shapes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s22-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS22-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
rg() { # rg LABEL BINARY FLAGS...
  local label=$1 bin=$2; shift 2
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $label: spvgen run gemm $* --sample 256 --repeats 20"
    timeout 60 $bin run gemm "$@" --sample 256 --repeats 20 2>&1 | grep -E "^plan|^pipeline|^gpu|^check|rror"; echo "rc=${PIPESTATUS[0]}" ) >> "$O/A-gemm.txt" 2>&1
}
while read -r m n k t l s; do
  F="--m $m --n $n --k $k --types $t --layout $l --shapes $s"
  rg "base ${m}x${n}x${k} $t $l $s" $B/tools/spvgen-base $F
  rg "new ${m}x${n}x${k} $t $l $s" $B/tools/spvgen $F
done <<'ROWS'
1048576 22 256 f16,f32 nt fixed
1048576 16 256 f16,f32 nt fixed
100 3584 18944 f16,f32 nt fixed
77 3584 18944 f16,f32 nt fixed
257 3584 18944 f16,f32 nt fixed
513 3584 18944 f16,f32 nt fixed
3001 3584 18944 f16,f32 nt fixed
2048 3584 18944 f16,f32 nt fixed
3589 3584 8192 f16,f32 nt fixed
2492 4096 14336 f16,f16 nt fixed
2318 4096 11008 bf16,f32 nt fixed
556 1024 4096 f16,f16 nt fixed
81 9216 2304 f16,f32 nt fixed
8 128 8192 f16,f32 nt fixed
1 128 896 f16,f32 nt fixed
16 64 512 f16,f32 nn fixed
48 200 512 f16,f32 nn fixed
13 14336 4096 f16,f32 nt runtime
1 16384 3072 f16,f32 nt runtime
9 14336 4096 f16,f16 nt runtime
ROWS
grep -E "^==|^plan|^pipeline|^gpu|rc=[1-9]" "$O/A-gemm.txt" | cut -c1-170
echo "A done $((SECONDS - T0)) s"
timeout 200 python3 $B/anchors/gemm_anchor.py 1048576,22,256 1048576,16,256 100,3584,18944 77,3584,18944 257,3584,18944 513,3584,18944 3001,3584,18944 2048,3584,18944 3589,3584,8192 2492,4096,14336 2318,4096,11008 556,1024,4096 81,9216,2304 8,128,8192 1,128,896 16,64,512 48,200,512 13,14336,4096 1,16384,3072 9,14336,4096 > "$O/B-anchor.txt" 2>&1
cat "$O/B-anchor.txt"
echo "total $((SECONDS - T0)) s"
