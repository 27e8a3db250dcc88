#!/bin/bash
# Call S12-5: the K sweep behind the planner's short-K choices (issue 24 items 2-3, issue 28
# item 2): D[1,048,576 x 256] = A[1,048,576 x K] W^T (nt, f16 in, f32 accumulation, f16 out),
# K 64 / 128 / 256 / 512 / 1024 / 2048, at coopmat2 128x128x32, 128x128x64, 128x256x32,
# 128x256x64, 256x128x64 (unroll 1) and khr's default tile; then the default plan at each K
# and three nn rows. FIXED shapes; each row its own process with empty driver and spvgen
# caches (first compiles: `pipeline`); 4096 sampled outputs checked against float64.
# References: cuBLAS (gemm_anchor.py, plain a @ b) of every K in this call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
R=${OUT:-/tmp}; O=/tmp/s12-5; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-5 > /dev/null || exit 1
B=build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
row() {
  local name=$1; shift
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    timeout 60 "$B/tools/spvgen" run gemm --m 1048576 --n 256 --types f16,f32,f16 --sample 4096 --repeats 20 \
      "$@" > "$O/$name.txt" 2>&1
    echo "rc=$?" >> "$O/$name.txt" )
  printf '%-22s %-52s %10s %10s %s\n' "$name" "$(grep -m1 -E '^plan' "$O/$name.txt" | cut -c10-61)" \
    "$(grep -m1 '^pipeline' "$O/$name.txt" | awk '{print $2}')" "$(grep -m1 '^gpu' "$O/$name.txt" | awk '{print $2}')" \
    "$(grep -m1 '^gpu' "$O/$name.txt" | sed 's/.*), //') $(grep -c '^check.* match' "$O/$name.txt") $(tail -1 "$O/$name.txt")"
}
echo "row                    plan                                                 compile_ms  gpu_ms  rate check rc"
for k in 64 128 256 512 1024 2048; do
  for t in 128x128x32 128x128x64 128x256x32 128x256x64 256x128x64; do
    row "nt-k$k-$t" --k $k --layout nt --variant coopmat2 --tile $t --unroll 1
  done
  row "nt-k$k-khr" --k $k --layout nt --variant khr
  row "nt-k$k-auto" --k $k --layout nt
done
for t in 128x128x32 128x256x32; do row "nn-k256-$t" --k 256 --layout nn --variant coopmat2 --tile $t --unroll 1; done
row "nn-k256-khr" --k 256 --layout nn --variant khr
timeout 120 python3 $B/anchors/gemm_anchor.py 1048576,256,64 1048576,256,128 1048576,256,256 1048576,256,512 1048576,256,1024 1048576,256,2048 2>&1 | tee "$O/anchor.txt"
tar czf "$R/s12-5.tgz" -C "$O" . ; echo "total $((SECONDS - T0)) s"
