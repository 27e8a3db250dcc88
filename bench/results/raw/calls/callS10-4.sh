#!/bin/bash
# Call S10-4: the K dependence of coopmat2 128x256 tiles (call S10-3: 3072x3072x3008 ran
# at 107 TFLOP/s, 3072^3 at 214, same tile, no edges): 3072x3072xK for K around 3000,
# FIXED and RUNTIME shapes, 128x256x32 and 128x256x64 u1, 128x192x64 u1 for contrast.
# Each row is `spvgen run gemm ... --sample 256 --repeats 20` from an empty driver cache
# and an empty spvgen cache (its `pipeline` line is the first compile).
# References: cuBLAS (gemm_anchor.py) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-4 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-4}/s10-4; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() {
  fresh
  echo "== $*" >> "$O/gemm.txt"
  timeout 60 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
for k in 2944 2976 3008 3040 3072 3104 3136 3200 3328 4032 4096; do
  row --m 3072 --n 3072 --k $k --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1
done
for k in 3008 3072 3136; do
  row --m 3072 --n 3072 --k $k --types f16,f32 --variant coopmat2 --tile 128x256x64 --unroll 1
  row --m 3072 --n 3072 --k $k --types f16,f32 --variant coopmat2 --tile 128x192x64 --unroll 1
  row --m 3072 --n 3072 --k $k --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1 --shapes runtime
done
row --m 3072 --n 3072 --k 3008 --types f16,f16 --variant coopmat2 --tile 256x256x32 --unroll 1
row --m 3072 --n 3072 --k 3072 --types f16,f16 --variant coopmat2 --tile 256x256x32 --unroll 1
row --m 6144 --n 6144 --k 6080 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 2
row --m 6144 --n 6144 --k 6144 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 2
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 90 python3 "$B/anchors/gemm_anchor.py" 3072,3072,3008 3072,3072,3072 > "$O/gemm-anchor.txt" 2>&1
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-4.tgz s10-4 && rm -rf s10-4
