#!/bin/bash
# Call S12-3: (1) the layers variant's short-K GEMM (M 1,048,576, N = K = 256, f16 with f32
# accumulation, bias + relu; callS12-shortk.sh) at every coopmat2 tile, khr, and the run-time
# class the MLP plans, each row with empty caches (first compiles: `pipeline`); cuBLAS of
# the same shape (gemm_anchor.py, plain a @ b) in the same call. (2) The 16-bit khr split-K
# GPU tests, one per type combination (split after call S12-1), in parallel, cut at 250 s.
# References: cuBLAS (1); the float64 CPU reference (2).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
R=${OUT:-/tmp}; O=/tmp/s12-3; mkdir -p "$O/shortk" "$O/tests"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
bash bench/results/raw/calls/callS12-shortk.sh build-gpu "$O/shortk" | tee "$O/shortk.txt"
timeout 100 python3 build-gpu/anchors/gemm_anchor.py 1048576,256,256 2>&1 | tee "$O/anchor.txt"
echo "== shortk done ($((SECONDS - T0)) s)"
for t in khr_splitk_matches khr_splitk_f16_matches khr_splitk_f16_f32acc; do
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    timeout 250 stdbuf -oL build-gpu/tests/gpu_test_gpu_gemm test_gemm_$t > "$O/tests/$t.txt" 2>&1
    echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/tests/$t.txt" ) &
done
wait
for t in khr_splitk_matches khr_splitk_f16_matches khr_splitk_f16_f32acc; do echo "== $t"; tail -3 "$O/tests/$t.txt"; done
tar czf "$R/s12-3.tgz" -C "$O" . ; echo "total $((SECONDS - T0)) s"
