#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s13/callS13-6/ (NVIDIA H200, driver 580.159.04, 2026-11-27)
# First compiles: run gemm's pipeline lines (empty caches per process)
# Call S13-6: where a run-time class of one K loses to the fixed kernel at short K (S13-5:
# 1,048,576 x 256 x 256 1.085 ms against 0.754 with the same 128x128x32 tile): the class's
# M edge. The same shapes as S13-5's k-fixed rows with --m-multiple 128 (no M edge: no edge
# code) and with --edge branch instead of AUTO's shift. The session's final build
# (build-gpu/tools/spvgen, 1d84b36).
# First compiles: every process with empty driver and spvgen caches: run gemm's pipeline
# lines are first compiles.
# References: cuBLAS of these shapes in call S13-5 (gemm_anchor.py, not rerun here: 1048576x256x256
# 427.8, 262144x256x128 202.8 TFLOP/s f16) and the FIXED rows of S13-5 (0.754 / 0.127 ms).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s13-6}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS13-6 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
G=$O/gemm-rows.txt
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
grow() { # name args...
  local name=$1; shift
  { echo "== $name: run gemm $*"; fresh timeout 60 build-gpu/tools/spvgen run gemm --sample 4096 --repeats 20 "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$G"
  printf '%-34s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline)|rc=' "$O/cur.txt" | cut -c1-80 | tr '\n' ' ')"
}
E="--layout nt --types f16,f32,f16 --bias column --act relu --shapes runtime --n-multiple 8 --ld-multiple 8 --k-fixed"
grow "1048576x256x256 m-multiple 128" --m 1048576 --n 256 --k 256 $E --m-multiple 128
grow "1048576x256x256 edge branch" --m 1048576 --n 256 --k 256 $E --edge branch
grow "262144x256x128 m-multiple 128" --m 262144 --n 256 --k 128 $E --m-multiple 128
rm -f "$O/cur.txt"
