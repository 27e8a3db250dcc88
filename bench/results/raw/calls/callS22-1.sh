#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s22/callS22-1/ (card and driver in smi.txt)
# First compiles: every run process starts with an empty driver disk cache and an empty spvgen cache; its "pipeline" line is the first compile
# References: the session's start (d475022, build-gpu/tools/spvgen-base) on the same shapes, and cuBLAS through shared/anchors/gemm_anchor.py (copied to build-gpu/anchors/) on the same M, N, K; this call
# Call S22-1 (main with the compile model's small-tile cap, emitters/gemm/plan_cost.c cm2_body):
# the shapes whose default plan moved against the session's start (tools/plan_diff.py over
# the traces and sets, H100 caps: 31 tile or variant moves and 165 knob-only ones, one or
# two of each kind) and the narrow-N shapes the cap is for, each through `spvgen run gemm`
# (first compile, GPU time, a sampled check) with both builds, then cuBLAS on the same shapes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s22-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS22-1 > /dev/null || exit 1
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
257 3584 3584 f16,f32 nt fixed
87 14336 4096 f16,f16 nt fixed
700 1024 4096 f16,f32 nt fixed
190 3584 8192 f16,f32 nt fixed
1537 512 3584 f16,f32 nt fixed
8 128 8192 f16,f32 nt fixed
702 896 4864 f16,f32 nt fixed
257 3584 18944 f16,f32 nt fixed
100 3584 18944 f16,f32 nt fixed
16 3584 3584 f16,f32 nt fixed
130 4096 4096 f16,f32 nt fixed
13 14336 4096 f16,f32 nt runtime
ROWS
grep -E "^==|^plan|^pipeline|^gpu|rc=[1-9]" "$O/A-gemm.txt" | cut -c1-170
echo "A done $((SECONDS - T0)) s"
timeout 200 python3 $B/anchors/gemm_anchor.py 1048576,22,256 1048576,16,256 257,3584,3584 87,14336,4096 700,1024,4096 190,3584,8192 1537,512,3584 8,128,8192 702,896,4864 257,3584,18944 100,3584,18944 16,3584,3584 130,4096,4096 13,14336,4096 > "$O/B-anchor.txt" 2>&1
cat "$O/B-anchor.txt"
echo "total $((SECONDS - T0)) s"
