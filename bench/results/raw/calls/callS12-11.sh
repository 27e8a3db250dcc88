#!/bin/bash
# Call S12-11: the short-K tile order beyond N 256 / nt (call S12-6 measured only those):
# D[65,536 x N] = A B, f16 in, f32 accumulation, f16 out, K 128 and 256 (4 and 8 steps of
# 32), N 1024 and 4096, layouts nt and nn, coopmat2 128x128x32, 128x128x64, 128x256x32,
# 256x128x32 (unroll 1) and the default plan; each row its own process with empty caches
# (first compiles: `pipeline`), 4096 sampled outputs checked; cuBLAS of every shape
# (gemm_anchor.py, plain a @ b) in the same call. Rows appended to $OUT as they finish.
# References: cuBLAS (gemm_anchor.py) in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-11}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-11 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
row() {
  local name=$1; shift
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $name"
    timeout 30 build-gpu/tools/spvgen run gemm --m 65536 --types f16,f32,f16 --sample 4096 --repeats 20 --warmup-ms 100 "$@" 2>&1
    echo "rc=$?" ) >> "$O/rows.txt"
}
for k in 128 256; do
  for n in 1024 4096; do
    for lay in nt nn; do
      row "k$k-n$n-$lay-auto" --k $k --n $n --layout $lay
      for t in 128x128x32 128x128x64 128x256x32 256x128x32; do
        row "k$k-n$n-$lay-$t" --k $k --n $n --layout $lay --variant coopmat2 --tile $t --unroll 1
      done
    done
  done
  echo "== K $k done ($((SECONDS - T0)) s)"
done
awk '/^== /{n=$2} /^plan/{p=substr($0,10,50)} /^pipeline/{c=$2} /^gpu/{g=$2; r=$0; sub(/.*\), /,"",r); printf "%-26s %-50s %8s ms %8s ms %s\n", n, p, c, g, r}' "$O/rows.txt" | tee "$O/summary.txt"
timeout 90 python3 build-gpu/anchors/gemm_anchor.py 65536,1024,128 65536,4096,128 65536,1024,256 65536,4096,256 2>&1 | tee "$O/anchor.txt"
echo "total $((SECONDS - T0)) s"
