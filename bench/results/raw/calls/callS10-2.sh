#!/bin/bash
# Call S10-2: the coopmat2 tile table's K depth and unroll (6144^3: every tiling divides
# it, 97 % wave efficiency for 128x256 and 128x192 alike) and packed plans whose branch is
# around the epilogue only (3000^3, both operands packed: one K loop, interior tiles store
# unclamped; `--edge clamp` is the form before, every store clamped). Each row is
# `spvgen run gemm ... --sample 256 --repeats 20` from an empty driver cache and an empty
# spvgen cache (its `pipeline` line is the first compile).
# References: cuBLAS (gemm_anchor.py) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-2 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-2}/s10-2; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() {
  fresh
  echo "== $*" >> "$O/gemm.txt"
  timeout 60 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
S6="--m 6144 --n 6144 --k 6144"
for t in "128x256x32 --unroll 1" "128x256x32 --unroll 2" "128x256x64 --unroll 1" "128x256x64 --unroll 2" \
         "128x192x64 --unroll 2" "192x128x64 --unroll 1" "128x128x64 --unroll 1" "128x128x64 --unroll 2"; do
  row $S6 --types f16,f32 --variant coopmat2 --tile $t
done
for t in "192x192x32 --unroll 1" "256x256x32 --unroll 1" "128x256x64 --unroll 1" "192x192x64 --unroll 1"; do
  row $S6 --types f16,f16 --variant coopmat2 --tile $t
done
S3="--m 3000 --n 3000 --k 3000"
row $S3 --types f16,f32
row $S3 --types f16,f32 --variant coopmat2 --pack ab
row $S3 --types f16,f32 --variant coopmat2 --pack ab --compile-budget 1000
for t in "128x192x64 --unroll 1" "128x192x64 --unroll 2" "128x256x32 --unroll 2" "128x256x64 --unroll 1" "128x128x64 --unroll 2"; do
  row $S3 --types f16,f32 --variant coopmat2 --pack ab --edge branch --tile $t
done
row $S3 --types f16,f32 --variant coopmat2 --pack ab --edge clamp --tile 128x192x64 --unroll 2
row $S3 --types f16,f16
for t in "192x192x32 --unroll 1" "192x192x32 --unroll 2" "128x192x64 --unroll 2"; do
  row $S3 --types f16,f16 --variant coopmat2 --pack ab --edge branch --tile $t
done
# beta, bias and activation through the branch's epilogue (checked against float64)
row $S3 --types f16,f32 --variant coopmat2 --pack ab --edge branch --tile 128x192x64 --unroll 1 --beta 0.5 --bias row --act gelu
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 90 python3 "$B/anchors/gemm_anchor.py" 3000,3000,3000 6144,6144,6144 > "$O/gemm-anchor.txt" 2>&1
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-2.tgz s10-2 && rm -rf s10-2
