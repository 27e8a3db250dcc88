#!/bin/bash
# Compares spvgen plans with each other; the cuBLAS / torch / Triton references of this session ran in callN.sh (mlp_anchor.py), callR.sh (gemm_anchor.py) and callS.sh (mlp_anchor.py).
# GPU call M (session 4): the coopmat MulAdd ceiling (bench_coopmat_peak) next to the real
# GEMM at 8192^3, the vec MLP with 1/2/4 points per invocation and workgroup sizes, and
# the coopmat2 split-K GPU test run to completion.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
echo "== peak (register-resident MulAdd) at $SECONDS s"
timeout 90 $B/bench/bench_coopmat_peak --stats 2>&1 | tee $OUT/peak1.txt
echo "== peak with loads (cache resident) at $SECONDS s"
timeout 90 $B/bench/bench_coopmat_peak --load --stats 2>&1 | tee $OUT/peak2.txt
echo "== peak f16,f16 other tiles at $SECONDS s"
timeout 90 $B/bench/bench_coopmat_peak --types 'f16,f16;s8,s32' --tile 128x128x32:256x128x32:64x256x32:128x128x64 --stats 2>&1 | tee $OUT/peak3.txt
timeout 60 $B/bench/bench_coopmat_peak --types 'f16,f16;f16,f32' --wg 128 --tile 64x128x32:128x128x32 --stats 2>&1 | tee $OUT/peak4.txt
echo "== gemm 8192^3 at $SECONDS s"
timeout 120 $B/bench/bench_gemm --shapes 8192,8192,8192 --types 'f16,f16;s8,s32;f16,f32' --stats --sample 256 2>&1 | tee $OUT/gemm8192.txt
echo "== mlp vec-opt all plans at $SECONDS s"
timeout 150 $B/bench/bench_mlp --variants vec-opt --all-plans --md 2>&1 | tee $OUT/mlp-plans.md
echo "== gpu tests at $SECONDS s"
timeout 60 $B/tests/gpu_test_gpu_mlp two_and_four > $OUT/gpu-mlp-ppi.txt 2>&1; echo "rc=$?"; grep -E "passed|FAIL|\[vec" $OUT/gpu-mlp-ppi.txt | cut -c1-160
timeout 240 $B/tests/gpu_test_gpu_gemm coopmat2_splitk > $OUT/gpu-gemm-splitk.txt 2>&1; echo "rc=$? at $SECONDS s"; grep -E "passed|FAIL" $OUT/gpu-gemm-splitk.txt | head -20
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
