#!/bin/bash
# GPU call N (session 4): the load paths of the coopmat MulAdd ceiling (shared, tensor),
# the coopmat2 split-K GPU test, MLP training/inference tests with the w32 default, and
# the MLP vec plans next to mlp_anchor.py (torch eager, torch.compile, Triton) in one run.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
echo "== peak load shared / tensor at $SECONDS s"
timeout 60 $B/bench/bench_coopmat_peak --load shared --stats 2>&1 | tee $OUT/peak-shared.txt
timeout 60 $B/bench/bench_coopmat_peak --load shared --tile 128x128x32:64x256x32 --stats 2>&1 | tee -a $OUT/peak-shared.txt
timeout 60 $B/bench/bench_coopmat_peak --load tensor --stats 2>&1 | tee $OUT/peak-tensor.txt
timeout 60 $B/bench/bench_coopmat_peak --load tensor --types 'f16,f16' --tile 256x256x32 --stats 2>&1 | tee -a $OUT/peak-tensor.txt
timeout 60 $B/bench/bench_coopmat_peak --load tensor --types 's8,s32' --tile 256x128x64 --stats 2>&1 | tee -a $OUT/peak-tensor.txt
echo "== mlp at $SECONDS s"
timeout 240 $B/bench/bench_mlp --variants vec-opt,vec --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-anchor.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   " $OUT/mlp-anchor.md | cut -c1-200
echo "== gpu tests at $SECONDS s"
timeout 60 $B/tests/gpu_test_gpu_mlp > $OUT/gpu-mlp.txt 2>&1; echo "mlp rc=$?"; grep -E "passed|FAIL" $OUT/gpu-mlp.txt | cut -c1-200
timeout 60 $B/tests/gpu_test_gpu_mlp_train > $OUT/gpu-mlp-train.txt 2>&1; echo "train rc=$?"; grep -E "passed|FAIL" $OUT/gpu-mlp-train.txt | cut -c1-200
timeout 200 stdbuf -oL -eL $B/tests/gpu_test_gpu_gemm coopmat2_splitk > $OUT/gpu-gemm-splitk.txt 2>&1; echo "splitk rc=$? at $SECONDS s"; grep -cE "gpu-summary" $OUT/gpu-gemm-splitk.txt; grep -E "passed|FAIL" $OUT/gpu-gemm-splitk.txt | head -10
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
