#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s22/callS22-6/ (card and driver in smi.txt)
# First compiles: every run process starts with an empty driver disk cache and an empty spvgen cache
# References: the session's start (d475022, build-gpu/tools/spvgen-base) on the same network and shapes, alternating with this build in the same call
# Call S22-6: is S22-5's 0.58x on s5-36-250x4-58 leaky_relu (the padded layers plan, whose
# output GEMM moved from 128x128x32 w256 clamp to 64x32x64 w64 clamp) reproducible? The
# network with each build, alternating, twice; then its output layer's GEMM alone as a
# fixed shape (1048576 x 58 x 256 nt, f16 out) on both tiles.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s22-6}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS22-6 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
for i in 1 2; do
  for b in new base; do
    bin=$B/tools/spvgen; [ $b = base ] && bin=$B/tools/spvgen-base
    ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
      echo "== $b $i: spvgen run mlp --in 36 --hidden 250x4 --out 58 --act leaky_relu --points 1048576 --sample 1024 --repeats 20"
      timeout 60 $bin run mlp --in 36 --hidden 250x4 --out 58 --act leaky_relu --points 1048576 --sample 1024 --repeats 20; echo "rc=$?" ) >> "$O/A-mlp.txt" 2>&1
  done
done
for t in "64x32x64 64" "128x128x32 256"; do
  set -- $t
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $1 w$2: spvgen run gemm --m 1048576 --n 58 --k 256 --layout nt --types f16,f16 --variant coopmat2 --tile $1 --wg $2 --edge clamp --sample 256 --repeats 20"
    timeout 60 $B/tools/spvgen run gemm --m 1048576 --n 58 --k 256 --layout nt --types f16,f16 --variant coopmat2 --tile $1 --wg $2 --edge clamp --sample 256 --repeats 20 2>&1 | grep -E "^plan|^pipeline|^gpu|^check|rror" ) >> "$O/B-gemm.txt" 2>&1
done
grep -E "^==|^plan|^emit|^gpu" "$O/A-mlp.txt" "$O/B-gemm.txt" | cut -c1-200
