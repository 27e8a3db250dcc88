#!/bin/bash
# Call S12-12: the short K loop's tile (FIXED 16-bit plans with 4-byte accumulators and at
# most 8 K steps of 32 take coopmat2 128x128x32 at unroll 1) against the build before it
# (66dcbe5, build-gpu/prev), same call: default plans of short-K shapes, f16 in, f32
# accumulation, f16 or f32 out, nt and nn; and the MLP layers variant 64-256x3-64 relu at
# 2,097,152 points (its run-time GEMM classes take the fixed plans' tiles). Each row its
# own process with empty caches (first compiles: `pipeline` / the compile column), sampled
# outputs checked. References: the previous build in the same call; cuBLAS
# (gemm_anchor.py, plain a @ b) for the GEMM shapes; torch for the MLP: call S12-10.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-12}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-12 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
row() {
  local name=$1 bin=$2; shift 2
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $name"
    timeout 60 "$bin" "$@" 2>&1; echo "rc=$?" ) >> "$O/rows.txt"
}
for who in prev new; do
  b=build-gpu/tools/spvgen; [ $who = prev ] && b=build-gpu/prev/tools/spvgen
  G="run gemm --sample 4096 --repeats 20 --warmup-ms 100"
  row "$who 65536x1024x128-nn" $b $G --m 65536 --n 1024 --k 128 --layout nn --types f16,f32,f16
  row "$who 65536x4096x256-nn" $b $G --m 65536 --n 4096 --k 256 --layout nn --types f16,f32,f16
  row "$who 65536x4096x256-nt" $b $G --m 65536 --n 4096 --k 256 --layout nt --types f16,f32,f16
  row "$who 1048576x256x256-nt-relu" $b $G --m 1048576 --n 256 --k 256 --layout nt --types f16,f32,f16 --bias column --act relu
  row "$who 262144x256x64-nt" $b $G --m 262144 --n 256 --k 64 --layout nt --types f16,f32,f16
  row "$who 8192x8192x256-nn-f32" $b $G --m 8192 --n 8192 --k 256 --layout nn --types f16,f32
  row "$who 16384x4096x192-nt-f32" $b $G --m 16384 --n 4096 --k 192 --layout nt --types f16,f32
  row "$who mlp-64-256x3-64" $b bench mlp --in 64 --hidden 256x3 --out 64 --act relu --points 2097152 --variants layers --repeats 20 --sample 1024
done
awk '/^== /{n=$2" "$3} /^plan/{p=substr($0,10,50)} /^pipeline/{c=$2} /^gpu/{g=$2; r=$0; sub(/.*\), /,"",r); printf "%-34s %-50s %8s ms %8s ms %s\n", n, p, c, g, r} /^layers /{print n"  "$0}' "$O/rows.txt" | tee "$O/summary.txt"
timeout 90 python3 build-gpu/anchors/gemm_anchor.py 65536,1024,128 65536,4096,256 1048576,256,256 262144,256,64 8192,8192,256 16384,4096,192 2>&1 | tee "$O/anchor.txt"
echo "total $((SECONDS - T0)) s"
