#!/bin/bash
# Call S10-1: coopmat2 tile widths and wave quantization (issue 24 item 3). 3000^3 makes
# 24 x 12 = 288 tiles of 128x256 (2.18 waves on 132 SMs: the last wave 18 % full); tiles
# 192 wide make 384 (128x192: 2.91 waves) or 256 (192x192: 1.94). Each row is
# `spvgen run gemm ... --sample 256 --repeats 20` from an empty driver cache and an empty
# spvgen cache (its `pipeline` line is the first compile). 6144^3 (every tiling divides it,
# 97 % wave efficiency for 128x256 and 128x192 alike) compares tile widths without
# quantization.
# References: cuBLAS (gemm_anchor.py) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-1 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-1}/s10-1; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() {
  fresh
  echo "== $*" >> "$O/gemm.txt"
  timeout 60 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
S3="--m 3000 --n 3000 --k 3000"
row $S3 --types f16,f32
for t in "128x256x32 --unroll 4" "128x256x32 --unroll 1" "128x192x32 --unroll 4" "128x192x32 --unroll 1" \
         "128x192x64 --unroll 1" "128x192x64 --unroll 2" "192x128x32 --unroll 4" "192x128x64 --unroll 1" \
         "192x192x32 --unroll 1" "192x192x32 --unroll 2" "128x128x64 --unroll 1"; do
  row $S3 --types f16,f32 --variant coopmat2 --pack ab --tile $t
done
row $S3 --types f16,f32 --variant coopmat2 --tile 128x192x32 --unroll 4 --edge branch
row $S3 --types f16,f32 --variant coopmat2 --tile 128x192x32 --unroll 1 --edge shift
row $S3 --types f16,f16
for t in "128x256x32 --unroll 4" "192x192x32 --unroll 1" "192x192x32 --unroll 4" "128x192x32 --unroll 4" "256x256x32 --unroll 1"; do
  row $S3 --types f16,f16 --variant coopmat2 --pack ab --tile $t
done
S6="--m 6144 --n 6144 --k 6144"
row $S6 --types f16,f32
for t in "128x256x32 --unroll 4" "128x192x32 --unroll 4" "128x192x64 --unroll 1" "192x192x32 --unroll 2" "192x128x32 --unroll 4"; do
  row $S6 --types f16,f32 --variant coopmat2 --tile $t
done
row $S6 --types f16,f16
row $S6 --types f16,f16 --variant coopmat2 --tile 192x192x32 --unroll 2
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 90 python3 "$B/anchors/gemm_anchor.py" 3000,3000,3000 6144,6144,6144 > "$O/gemm-anchor.txt" 2>&1
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-1.tgz s10-1 && rm -rf s10-1
