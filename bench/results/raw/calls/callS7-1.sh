#!/bin/bash
# Call S7-1 (session 7, first GPU call): (A) is a layer-by-layer MLP through spvgen's own
# GEMM worth building for 256-wide networks? The GEMMs of 64-256x3-64 at 1,048,576 points
# (forward layers with bias + ReLU epilogue as a linear layer stores W: nt; dX = dZ W: nn;
# dW = dZ^T X: tn, K = points), defaults and a few knobs, beside the fused default
# (spvgen bench mlp) and torch (mlp_anchor.py) and cuBLAS (gemm_anchor.py) on the same
# shapes; (B) 8192^3 nn/nt at the default and the knobs around it (compile vs speed);
# (C) the packed 4097x4095x4093 default against smaller tiles (its compile); (D) 3008^3 /
# 3000^3 tiles. Every row from an empty driver cache and an empty spvgen cache
# (first compile = the "pipeline" line).
# References: cuBLAS (torch 2.11, gemm_anchor.py) and torch eager/compile (mlp_anchor.py),
# same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS7-1 || exit 1
O=${OUT:-/tmp/callS7-1}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
row() { # label, args...
  local l=$1; shift
  export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  echo "== $l: $*" >> "$O/rows.txt"
  timeout 60 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/rows.txt" 2>&1
  echo "rc=$?" >> "$O/rows.txt"
  echo "$l done ($((SECONDS - T0)) s)"
}
P=1048576
F="--types f16,f32,f16"
# A. the layers of 64-256x3-64
row A1-fwd256-rt  --m $P --n 256 --k 256 --layout nt --bias column --act relu $F --shapes runtime --ld-multiple 8 --n-multiple 16 --k-multiple 16
row A2-fwd256     --m $P --n 256 --k 256 --layout nt --bias column --act relu $F
row A3-fwd256-cm2 --m $P --n 256 --k 256 --layout nt --bias column --act relu $F --variant coopmat2
row A3b-fwd256-cm2-128 --m $P --n 256 --k 256 --layout nt --bias column --act relu $F --variant coopmat2 --tile 128x128x32
row A4-fwd64in    --m $P --n 256 --k 64 --layout nt --bias column --act relu $F
row A5-fwdout     --m $P --n 64 --k 256 --layout nt --bias column $F
row A6-dX         --m $P --n 256 --k 256 $F
row A6b-dX-cm2    --m $P --n 256 --k 256 $F --variant coopmat2
row A7-dW         --m 256 --n 256 --k $P --layout tn --types f16,f32,f32
row A8-dW-s16     --m 256 --n 256 --k $P --layout tn --types f16,f32,f32 --split-k 16
row A8b-dW-s32-cm2 --m 256 --n 256 --k $P --layout tn --types f16,f32,f32 --split-k 32 --variant coopmat2 --tile 128x128x32
row A9-dW-rt      --m 256 --n 256 --k $P --layout tn --types f16,f32,f32 --shapes runtime --ld-multiple 8 --m-multiple 16 --n-multiple 16
# B. 8192^3
N3="--m 8192 --n 8192 --k 8192 --types f16,f32"
row B1-nn        $N3
row B2-nn-u4     $N3 --variant coopmat2 --tile 128x256x32 --unroll 4
row B3-nn-k64u1  $N3 --variant coopmat2 --tile 128x256x64 --unroll 1
row B4-nt        $N3 --layout nt
row B5-nt-k32u2  $N3 --layout nt --variant coopmat2 --tile 128x256x32 --unroll 2
row B6-nt-k64u2  $N3 --layout nt --variant coopmat2 --tile 128x256x64 --unroll 2
# C. packed 4097
O4="--m 4097 --n 4095 --k 4093 --types f16,f32"
row C1-pack      $O4
row C2-pack-128x128x32 $O4 --variant coopmat2 --pack ab --tile 128x128x32
row C3-pack-128x128x64 $O4 --variant coopmat2 --pack ab --tile 128x128x64
row C4-pack-128x256x64 $O4 --variant coopmat2 --pack ab --tile 128x256x64
# D. 3008^3 / 3000^3
row D1-3008      --m 3008 --n 3008 --k 3008 --types f16,f32
row D2-3008-khr  --m 3008 --n 3008 --k 3008 --types f16,f32 --variant khr
row D3-3008-128x128x32 --m 3008 --n 3008 --k 3008 --types f16,f32 --variant coopmat2 --tile 128x128x32
row D4-3008-128x256x32 --m 3008 --n 3008 --k 3008 --types f16,f32 --variant coopmat2 --tile 128x256x32
row D5-3000      --m 3000 --n 3000 --k 3000 --types f16,f32
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
grep -E '^== |^plan|^pipeline|^gpu|^check|^split|^pack |rc=|rror|refus' "$O/rows.txt" | cut -c1-200
# the fused default and torch on the same network
export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 120 "$B/tools/spvgen" bench mlp --in 64 --hidden 256x3 --out 64 --points $P --sample 256 > "$O/mlp.txt" 2>&1
echo "mlp rc=$?"; cat "$O/mlp.txt" | cut -c1-200
printf '64 256x3 64 relu\n' > "$O/net.txt"
timeout 200 python3 "$B/anchors/mlp_anchor.py" "$O/net.txt" > "$O/mlp-anchor.txt" 2>&1; echo "mlp anchor rc=$?"; cut -c1-200 "$O/mlp-anchor.txt" | tail -8
timeout 120 python3 "$B/anchors/gemm_anchor.py" $P,256,256 $P,256,64 $P,64,256 256,256,$P 8192,8192,8192 4097,4095,4093 3008,3008,3008 > "$O/gemm-anchor.txt" 2>&1
echo "gemm anchor rc=$?"; cat "$O/gemm-anchor.txt"
echo "done in $((SECONDS - T0)) s"
