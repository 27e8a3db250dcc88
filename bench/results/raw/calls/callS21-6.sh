#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s21/callS21-6/ (card and driver in smi.txt)
# First compiles: every run process starts with an empty driver disk cache and an empty spvgen cache; its "pipeline" line is the first compile, beside the plan's estimate
# References: cuBLAS through shared/anchors/gemm_anchor.py (copied to build-gpu/anchors/) on the same M, N, K, this call (B-anchor.txt); the compile figures' reference is each plan's own estimate, printed beside it
# Call S21-6 (main at the session's end; it replaces S21-5, which ran without a reference):
# first compiles of coopmat2's small tiles, clamped (N edge) and not, against the compile
# model's estimates (which put 64x32x64 w64 clamp at 910 ms where S21-4 measured 160), with
# each plan's GPU time and cuBLAS on the same shapes. Data for the next session's refit of
# the compile model.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s21-6}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS21-6 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
timeout 90 python3 $B/anchors/gemm_anchor.py 1048576,22,256 1048576,64,256 65536,40,4096 > "$O/B-anchor.txt" 2>&1
cat "$O/B-anchor.txt"
for shape in "1048576 22 256" "1048576 64 256" "65536 40 4096"; do
  for t in "64x32x64 64" "32x32x64 64" "64x64x64 128" "128x64x64 128" "128x128x32 256"; do
    [ $((SECONDS - T0)) -gt 200 ] && { echo "skipped $shape $t (time)" >> "$O/A-compile.txt"; continue; }
    set -- $shape $t
    ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
      echo "== $1x$2x$3 tile $4 w$5: spvgen run gemm --m $1 --n $2 --k $3 --layout nt --types f16,f32 --variant coopmat2 --tile $4 --wg $5 --sample 64 --repeats 5"
      timeout 60 $B/tools/spvgen run gemm --m $1 --n $2 --k $3 --layout nt --types f16,f32 --variant coopmat2 --tile $4 --wg $5 --sample 64 --repeats 5 2>&1 | grep -E "^plan|^pipeline|^gpu|^check|rror"; echo "rc=${PIPESTATUS[0]}" ) >> "$O/A-compile.txt" 2>&1
  done
done
grep -E "^==|^pipeline|^gpu|skipped|rc=[1-9]" "$O/A-compile.txt" | cut -c1-150
echo "total $((SECONDS - T0)) s"
