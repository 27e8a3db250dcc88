#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s13/callS13-5/ and tests/results/raw/gpu-2026-11-27-s13/callS13-5-tests.txt (NVIDIA H200, driver 580.159.04, 2026-11-27)
# First compiles: run gemm's pipeline lines and the tests' compiles (empty caches per process)
# Call S13-5: a run-time class of one K whose K loop is short now takes the short loop's
# tile (coopmat2 128x128x32, as a fixed shape does; the run-time menu had only 128x256x32
# and 128x128x64). (1) `spvgen run gemm --shapes runtime --k-fixed` on short-K shapes next
# to the FIXED plan of the same shape (the session's final build, build-gpu/tools/spvgen);
# (2) the GPU tests of classes of one K again (test_gemm_{coopmat2,khr}_k_fixed_matches_cpu),
# whose K 256 class now plans that tile.
# First compiles: every process with empty driver and spvgen caches: run gemm's pipeline
# lines and the tests' compiles are first compiles.
# References: cuBLAS (gemm_anchor.py; precompiled, no driver compile) of the same shapes in
# this call; the float64 CPU reference for (2).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s13-5}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS13-5 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
G=$O/gemm-rows.txt
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
grow() { # name args...
  local name=$1; shift
  { echo "== $name: run gemm $*"; fresh timeout 60 build-gpu/tools/spvgen run gemm --sample 4096 --repeats 20 "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$G"
  printf '%-30s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline)|rc=' "$O/cur.txt" | cut -c1-80 | tr '\n' ' ')"
}
E="--layout nt --types f16,f32,f16 --bias column --act relu"
R="--shapes runtime --n-multiple 8 --ld-multiple 8 --k-fixed"
grow "1048576x256x256 fixed" --m 1048576 --n 256 --k 256 $E
grow "1048576x256x256 k-fixed" --m 1048576 --n 256 --k 256 $E $R
grow "65536x4096x256 fixed" --m 65536 --n 4096 --k 256 $E
grow "65536x4096x256 k-fixed" --m 65536 --n 4096 --k 256 $E $R
grow "262144x256x128 fixed" --m 262144 --n 256 --k 128 $E
grow "262144x256x128 k-fixed" --m 262144 --n 256 --k 128 $E $R
echo "gemm done $((SECONDS - T0)) s"
timeout 40 python3 build-gpu/anchors/gemm_anchor.py 1048576,256,256 65536,4096,256 262144,256,128 > "$O/anchor.txt" 2>&1
cat "$O/anchor.txt"
rm -f "$O/cur.txt"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== gpu_test_gpu_gemm k_fixed"; timeout 200 stdbuf -oL build-gpu/tests/gpu_test_gpu_gemm k_fixed; echo "rc=$?" ) > "$O/tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=|runs checked" "$O/tests.txt"
echo "total $((SECONDS - T0)) s"
