#!/bin/bash
# Call S10-3: why packed 128x256 tiles ran at 85-101 TFLOP/s at 3000^3 (calls S10-1 and
# S10-2) where 128x192 and 128x128 ran at 205-257: the same tile on aligned, M-edge,
# N-edge and packed forms of ~3000^3; the main kernel alone (SPVGEN_TIME_KERNEL=main);
# 4097x4095x4093 packed with the epilogue branch (the new AUTO) against the clamped store
# (the old); 5000^3 packed with 192-wide tiles against the khr default; the new AUTO plans
# at 6144^3 and 3072^3. Each row is `spvgen run gemm ... --sample 256 --repeats 20` from
# an empty driver cache and an empty spvgen cache (its `pipeline` line is the first compile).
# References: cuBLAS (gemm_anchor.py) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-3 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-3}/s10-3; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() {
  fresh
  echo "== ${TK:+SPVGEN_TIME_KERNEL=$TK }$*" >> "$O/gemm.txt"
  SPVGEN_TIME_KERNEL=${TK:-} timeout 60 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
C="--types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1"
row --m 3000 --n 3000 --k 3000 $C --pack ab
TK=main row --m 3000 --n 3000 --k 3000 $C --pack ab
TK=pack row --m 3000 --n 3000 --k 3000 $C --pack ab
row --m 3072 --n 3072 --k 3008 $C
row --m 3072 --n 3072 --k 3072 $C
row --m 3000 --n 3072 --k 3008 $C
row --m 3072 --n 3000 --k 3008 $C
row --m 3000 --n 3000 --k 3000 $C --pack ab --edge clamp
row --m 3000 --n 3000 --k 3000 --types f16,f32 --variant coopmat2 --tile 256x128x32 --unroll 1 --pack ab
row --m 3000 --n 3000 --k 3000 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 4 --pack ab
TK=main row --m 3000 --n 3000 --k 3000 --types f16,f32 --variant coopmat2 --tile 128x192x64 --unroll 1 --pack ab
row --m 4097 --n 4095 --k 4093 --types f16,f32
row --m 4097 --n 4095 --k 4093 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1 --pack ab --edge clamp
row --m 4097 --n 4095 --k 4093 --types f16,f16
row --m 5000 --n 5000 --k 5000 --types f16,f32
row --m 5000 --n 5000 --k 5000 --types f16,f32 --variant coopmat2 --tile 128x192x64 --unroll 1 --pack ab
row --m 5000 --n 5000 --k 5000 --types f16,f32 --variant coopmat2 --tile 128x192x64 --unroll 2 --pack ab
row --m 5000 --n 5000 --k 5000 --types f16,f16 --variant coopmat2 --tile 192x192x32 --unroll 2 --pack ab
row --m 6144 --n 6144 --k 6144 --types f16,f16
row --m 6144 --n 6144 --k 6144 --types f16,f32
row --m 3072 --n 3072 --k 3072 --types f16,f16
row --m 3072 --n 3072 --k 3072 --types f16,f16 --variant coopmat2 --tile 128x128x64 --unroll 1
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 90 python3 "$B/anchors/gemm_anchor.py" 3000,3000,3000 4097,4095,4093 5000,5000,5000 6144,6144,6144 3072,3072,3072 > "$O/gemm-anchor.txt" 2>&1
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-3.tgz s10-3 && rm -rf s10-3
