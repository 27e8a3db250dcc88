#!/bin/bash
# Call S10-6: whether the half-speed 128x256 tiles at K off a multiple of 256 (calls S10-4,
# S10-5: not the layouts' dimensions) come from the K loop's constant trip count: an
# experiment binary (tools/spvgen-exp) whose unroll-1 K loop runs a multiple of
# SPVGEN_EXP_KSPLIT / tile_k steps, then a second loop for the rest; A's row stride alone
# (--lda 3072), nt, and the run-time form unpacked. Each row is `spvgen run gemm ... --sample 256 --repeats 20` from an empty driver
# cache and an empty spvgen cache (its `pipeline` line is the first compile).
# References: cuBLAS rows of call S10-4 (same shapes); none new here.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-6 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-6}/s10-6; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() {
  local env=$1; shift
  fresh
  echo "== $env $*" >> "$O/gemm.txt"
  env $env timeout 60 "$B/tools/spvgen-exp" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
C="--types f16,f32 --variant coopmat2 --unroll 1"
for e in SPVGEN_EXP_KSPLIT=256 SPVGEN_EXP_KSPLIT=512 X=0; do
  row $e --m 3072 --n 3072 --k 3008 $C --tile 128x256x32
  row $e --m 3072 --n 3072 --k 3200 $C --tile 128x256x32
  row $e --m 3072 --n 3072 --k 3008 $C --tile 128x256x64
  row $e --m 3000 --n 3000 --k 3000 $C --tile 128x256x32 --pack ab
  row $e --m 6144 --n 6144 --k 6080 $C --tile 128x256x32
done
row X=0 --m 3072 --n 3072 --k 3008 $C --tile 128x256x32 --lda 3072
row X=0 --m 3072 --n 3072 --k 3008 $C --tile 128x256x32 --layout nt
row X=0 --m 3072 --n 3072 --k 3008 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1 --shapes runtime --pack none
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-6.tgz s10-6 && rm -rf s10-6
