#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s21/callS21-1/ (card and driver in smi.txt)
# First compiles: every tune process starts with an empty driver disk cache and an empty spvgen cache; each candidate's "compile" column is its first compile
# References: torch F.linear (+ activation; eager and torch.compile) on the same M, N, K (bench/anchors/layer_anchor.py), this call
# Call S21-1 (main at the session's start, d83b92c): what does a wide MLP layer's GEMM cost,
# every plan? The layers variant runs a 256-wide hidden layer as a GEMM of points x 256 x 256
# (nt: the weights N x K row-major, bias per column, activation in the epilogue, f16 out);
# in session 20 such networks ran at 135-139 TFLOP/s where torch eager ran 256-281. Every
# candidate plan timed by the tuner on the fixed shape (the layers kernels are run-time
# classes of one K, the same code with M a push constant), and torch's layer beside it.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s21-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS21-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
tune() { # tune NAME BUDGET FLAGS...
  local name=$1 budget=$2; shift 2
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $name: spvgen tune gemm $* --budget $budget"
    timeout $((budget + 60)) $B/tools/spvgen tune gemm "$@" --budget "$budget" --cache "$XDG_CACHE_HOME/t.txt" 2>&1 | grep -v "^spvgen tune gemm: [0-9]*/"
    echo "rc=${PIPESTATUS[0]}" ) >> "$O/A-tune.txt" 2>&1
  echo "$name done $((SECONDS - T0)) s"
}
L="--layout nt --bias column --act relu"
tune hidden256 150 --m 1048576 --n 256 --k 256 --types f16,f32,f16 $L
tune hidden256-f16acc 60 --m 1048576 --n 256 --k 256 --types f16,f16,f16 $L
tune last64 45 --m 1048576 --n 64 --k 256 --types f16,f32,f16 $L
tune first64 45 --m 1048576 --n 256 --k 64 --types f16,f32,f16 $L
cat "$O/A-tune.txt" | cut -c1-160
timeout 240 python3 bench/anchors/layer_anchor.py --act relu 1048576,256,256 1048576,64,256 1048576,256,64 > "$O/B-anchor.txt" 2>&1
cat "$O/B-anchor.txt"
echo "total $((SECONDS - T0)) s"
