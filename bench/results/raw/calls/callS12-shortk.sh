#!/bin/bash
# Short-K GEMMs of the MLP's layers variant (issue 28 item 2): D[M x 256] = relu(A[M x 256]
# W^T + bias), M = 1,048,576 points, f16 (W row-major N x K: layout nt; bias per column of D),
# (the layers class: f16 in and out, f32 accumulation) at the default plan and at each tile of the coopmat2 menu that fits, and khr; fixed shapes,
# each row its own process with empty driver and spvgen caches (first compiles: the
# `pipeline` line). Prints one line per row. References: cuBLAS (gemm_anchor.py) of the
# same shape in the call script that sources this.
# Usage: bash callS12-shortk.sh BUILD OUTDIR
set -u
B=${1:-build-gpu}; O=${2:-/tmp/shortk}; mkdir -p "$O"
row() {
  local name=$1; shift
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    timeout 60 "$B/tools/spvgen" run gemm --m 1048576 --n 256 --k 256 --layout nt --bias column --act relu \
      --sample 4096 --repeats 20 "$@" > "$O/$name.txt" 2>&1; echo "rc=$?" >> "$O/$name.txt" )
  printf '%-28s %s | %s\n' "$name" "$(grep -m1 -E '^(plan|  plan)' "$O/$name.txt" | cut -c1-90)" \
    "$(grep -E '^(gpu|pipeline|check)|rc=' "$O/$name.txt" | cut -c1-110 | tr '\n' ' ')"
}
for ty in f16,f32,f16; do
  t=${ty//,/-}
  row "$t-auto" --types $ty
  row "$t-khr" --types $ty --variant khr
  for tile in 128x256x32 256x128x32 128x128x64 128x128x32 64x256x32 64x128x64; do
    row "$t-$tile" --types $ty --variant coopmat2 --tile $tile
  done
  row "$t-128x256x32-u2" --types $ty --variant coopmat2 --tile 128x256x32 --unroll 2
  row "$t-runtime" --types $ty --shapes runtime --m-multiple 256 --n-multiple 256 --k-multiple 256 --ld-multiple 256
  row "$t-runtime-khr" --types $ty --shapes runtime --m-multiple 256 --n-multiple 256 --k-multiple 256 --ld-multiple 256 --variant khr
done
