#!/bin/bash
# References: each shape's unsplit tile (sk1) in the same run, and spvgen against the
# experimental spvgen-exp row by row; cuBLAS was not run in this call (it ran in call S5-4
# minutes earlier on the same card kind: bench/results/raw/gpu-2026-11-26-s5/
# callS5-4-splitk2-bench-h100.txt, e.g. 257x3584x3584 190.3 TFLOP/s, 257x3584x18944 404.1).
# split-K partials: the loop's K offset as a pointer move (spvgen-exp) against the K offset in the coordinates (spvgen)
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan probe || exit 1
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/probe}; mkdir -p "$O"
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
for row in "64 3584 3584 64x64x64 1" "64 3584 3584 64x64x64 2" "64 3584 3584 64x64x64 4" "64 3584 3584 64x64x64 8" \
           "16 3584 3584 32x64x64 1" "16 3584 3584 32x64x64 2" "16 3584 3584 32x64x64 4" \
           "256 3584 3584 128x128x64 1" "256 3584 3584 128x128x64 2" "256 3584 3584 128x128x64 4" \
           "256 3584 18944 128x128x64 1" "256 3584 18944 128x128x64 2" "256 3584 18944 128x128x64 4" \
           "16 18944 3584 64x64x64 1" "16 18944 3584 64x64x64 2" "16 18944 3584 64x64x64 4"; do
  set -- $row
  for bin in spvgen spvgen-exp; do
    echo "== $bin $1x$2x$3 $4 sk$5" >> "$O/probe.txt"
    timeout 30 "$B/tools/$bin" run gemm --m $1 --n $2 --k $3 --types f16,f32 --layout nt --variant coopmat2 \
      --tile $4 --split-k $5 --unroll 1 --stats --repeats 20 --sample 20000 >> "$O/probe.txt" 2>&1
    echo "rc=$?" >> "$O/probe.txt"
  done
done
grep -E "^== |^pipeline|^gpu|^check|^stats|rc=" "$O/probe.txt" | sed -e 's/Stack Size=0 Local Memory Size=[0-9]* //' | cut -c1-160
