#!/bin/bash
# Call S10-5: whether the half-speed 128x256 tiles at K off a multiple of 256 (call S10-4)
# come from the unclamped tensor layouts' dimensions: the same kernels with those
# dimensions at SPVGEN_GEMM_MAX_DIM (clamp mode Undefined: they bound nothing), built as
# an experiment binary (tools/spvgen-exp with SPVGEN_EXP_DIMS set), against the shipped
# form. Each row is `spvgen run gemm ... --sample 256 --repeats 20` from an empty driver
# cache and an empty spvgen cache (its `pipeline` line is the first compile).
# References: cuBLAS rows of call S10-4 (same shapes); none new here.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-5 > /dev/null || exit 1
O=${OUT:-/tmp/callS10-5}/s10-5; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() {
  local bin=$1; shift
  fresh
  echo "== $bin $*" >> "$O/gemm.txt"
  if [ "$bin" = exp ]; then SPVGEN_EXP_DIMS=1 timeout 60 "$B/tools/spvgen-exp" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  else timeout 60 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1; fi
  echo "rc=$?" >> "$O/gemm.txt"
}
for bin in exp base; do
  row $bin --m 3072 --n 3072 --k 3008 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1
  row $bin --m 3072 --n 3072 --k 3008 --types f16,f32 --variant coopmat2 --tile 128x256x64 --unroll 1
  row $bin --m 3072 --n 3072 --k 3072 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1
  row $bin --m 6144 --n 6144 --k 6080 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 2
  row $bin --m 3000 --n 3000 --k 3000 --types f16,f32 --variant coopmat2 --tile 128x256x32 --unroll 1 --pack ab
  row $bin --m 3072 --n 3072 --k 3136 --types f16,f32 --variant coopmat2 --tile 128x192x64 --unroll 1
  row $bin --m 8192 --n 8192 --k 8192 --types f16,f32
done
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s10-5.tgz s10-5 && rm -rf s10-5
