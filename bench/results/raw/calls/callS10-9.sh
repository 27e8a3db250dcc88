#!/bin/bash
# Call S10-9: main after the merges of s10-layers and s10-tiles. The GEMM AUTO plans that
# changed against main at aabfe6b (tools/spvgen-main), each row `spvgen run gemm ...
# --sample 256 --repeats 20` from an empty driver cache and an empty spvgen cache (its
# `pipeline` line is the first compile); the GPU tests of the new GEMM code paths
# (gpu_test_gpu_gemm k_loop, pack, and the whole coopmat2 file's fixed-shape cases).
# References: cuBLAS (gemm_anchor.py) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-9 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-9}/s10-9; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() {
  local bin=$1; shift
  fresh
  echo "== $bin $*" >> "$O/gemm.txt"
  timeout 60 "$B/tools/$bin" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
for bin in spvgen-main spvgen; do
  row $bin --m 6144 --n 6144 --k 6144 --types f16,f32
  row $bin --m 6144 --n 6144 --k 6080 --types f16,f32
  row $bin --m 6144 --n 6144 --k 6080 --types f16,f16
  row $bin --m 3072 --n 3072 --k 3008 --types f16,f16
  row $bin --m 3000 --n 3000 --k 3000 --types f16,f32 --compile-budget 1000
  row $bin --m 2048 --n 3584 --k 18944 --types f16,f32
  row $bin --m 4097 --n 4095 --k 4093 --types f16,f32
  row $bin --m 8192 --n 8192 --k 8192 --types f16,f32
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 120 python3 "$B/anchors/gemm_anchor.py" 6144,6144,6144 6144,6144,6080 3072,3072,3008 3000,3000,3000 2048,3584,18944 4097,4095,4093 8192,8192,8192 > "$O/gemm-anchor.txt" 2>&1
for f in k_loop pack; do
  echo "== gpu_test_gpu_gemm $f" >> "$O/tests.txt"
  timeout 200 "$B/tests/gpu_test_gpu_gemm" $f >> "$O/tests.txt" 2>&1
  echo "rc=$?" >> "$O/tests.txt"
done
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-9.tgz s10-9 && rm -rf s10-9
