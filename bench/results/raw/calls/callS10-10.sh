#!/bin/bash
# Call S10-10: the K loop split extended to 128x192 tiles with 4-byte accumulators (call
# S10-9: 6144x6144x6080 on 128x192x64 ran at 277.6 TFLOP/s unsplit, 312.9 split in call
# S10-7). AUTO before (tools/spvgen-main: main at aabfe6b) and after, each row `spvgen run
# gemm ... --sample 256 --repeats 20` from an empty driver cache and an empty spvgen cache
# (its `pipeline` line is the first compile); the k_loop GPU test.
# References: cuBLAS (gemm_anchor.py) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-10 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-10}/s10-10; mkdir -p "$O"
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
  row $bin --m 6144 --n 6144 --k 6080 --types f16,f32
  row $bin --m 3000 --n 3000 --k 3000 --types f16,f32 --compile-budget 1000
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 60 python3 "$B/anchors/gemm_anchor.py" 6144,6144,6080 3000,3000,3000 > "$O/gemm-anchor.txt" 2>&1
echo "== gpu_test_gpu_gemm k_loop" >> "$O/tests.txt"
timeout 100 "$B/tests/gpu_test_gpu_gemm" k_loop >> "$O/tests.txt" 2>&1
echo "rc=$?" >> "$O/tests.txt"
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-10.tgz s10-10 && rm -rf s10-10
