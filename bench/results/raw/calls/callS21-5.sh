#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s21/callS21-5/ (card and driver in smi.txt)
# First compiles: every run process starts with an empty driver disk cache and an empty spvgen cache; its "pipeline" line is the first compile, beside the plan's estimate
# References: none beyond the plan's own compile estimate (printed on each pipeline line): data for a refit of the compile model, not a comparison
# Call S21-5 (main at the session's end): first compiles of coopmat2's small tiles, clamped
# (N edge) and not, against the compile model's estimates (which put 64x32x64 w64 clamp at
# 910 ms where S21-4 measured 160). Data for the next session's refit; no figure here is a
# benchmark result.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s21-5}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS21-5 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
for shape in "1048576 22 256" "1048576 64 256" "65536 40 4096" "65536 128 4096"; do
  set -- $shape
  for t in "64x32x64 64" "32x64x64 128" "32x32x64 64" "64x64x32 128" "64x64x64 128" "128x64x64 128" "128x128x32 256" "128x128x32 128"; do
    set -- $shape $t
    ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
      echo "== $1x$2x$3 tile $4 w$5: spvgen run gemm --m $1 --n $2 --k $3 --layout nt --types f16,f32 --variant coopmat2 --tile $4 --wg $5 --sample 64 --repeats 5"
      timeout 60 $B/tools/spvgen run gemm --m $1 --n $2 --k $3 --layout nt --types f16,f32 --variant coopmat2 --tile $4 --wg $5 --sample 64 --repeats 5 2>&1 | grep -E "^plan|^pipeline|^gpu|^check|rror"; echo "rc=${PIPESTATUS[0]}" ) >> "$O/A-compile.txt" 2>&1
  done
done
grep -E "^==|^plan|^pipeline|rc=[1-9]" "$O/A-compile.txt" | cut -c1-160
echo "total $((SECONDS - T0)) s"
