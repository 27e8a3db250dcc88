#!/bin/bash
# Call S10-7: the split K loop (a FIXED loop's iterations a multiple of 8, the rest in a
# second loop), the epilogue branch of packed plans and the 192-wide tiles, AUTO plans
# before (tools/spvgen-main: main at aabfe6b) and after (tools/spvgen: branch s10-tiles),
# each row `spvgen run gemm ... --sample 256 --repeats 20` from an empty driver cache and
# an empty spvgen cache (its `pipeline` line is the first compile); then the GPU tests of
# the new code paths (gpu_test_gpu_gemm k_loop, pack).
# References: cuBLAS (gemm_anchor.py) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-7 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-7}/s10-7; mkdir -p "$O"
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
for s in "6144 6144 6080" "3072 3072 3008" "6144 6144 6144" "4097 4095 4093" "4000 4000 4000" "2048 3584 18944" "1999 3584 3584"; do
  set -- $s
  for bin in spvgen-main spvgen; do
    row $bin --m $1 --n $2 --k $3 --types f16,f32
  done
done
for bin in spvgen-main spvgen; do
  row $bin --m 6144 --n 6144 --k 6080 --types f16,f16
  row $bin --m 2048 --n 3584 --k 18944 --types f16,f16
  row $bin --m 4096 --n 4096 --k 4000 --types s8,s32 --layout nt
  row $bin --m 3000 --n 3000 --k 3000 --types f16,f32 --compile-budget 1000
  row $bin --m 3000 --n 3000 --k 3000 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1 --pack ab
  row $bin --m 3000 --n 3000 --k 3000 --types f16,f32 --variant coopmat2 --tile 128x192x64 --unroll 2 --pack ab
  row $bin --m 3000 --n 3000 --k 3000 --types f16,f16 --variant coopmat2 --tile 192x192x32 --unroll 2 --pack ab
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 120 python3 "$B/anchors/gemm_anchor.py" 6144,6144,6080 3072,3072,3008 6144,6144,6144 4097,4095,4093 4000,4000,4000 2048,3584,18944 1999,3584,3584 4096,4096,4000 3000,3000,3000 > "$O/gemm-anchor.txt" 2>&1
for f in k_loop pack; do
  echo "== gpu_test_gpu_gemm $f" >> "$O/tests.txt"
  timeout 200 "$B/tests/gpu_test_gpu_gemm" $f >> "$O/tests.txt" 2>&1
  echo "rc=$?" >> "$O/tests.txt"
done
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-7.tgz s10-7 && rm -rf s10-7
