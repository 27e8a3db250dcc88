#!/bin/bash
# GPU call R (session 4, final GEMM call): the GPU tests of coopmat2 stages 2 and split-K,
# the GEMM table next to cuBLAS (gemm_anchor.py) and the coopmat MulAdd ceiling in the
# same call.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
echo "== gpu tests at $SECONDS s"
timeout 90 $B/tests/gpu_test_gpu_gemm stages2 > $OUT/gpu-gemm-stages2.txt 2>&1; echo "stages2 rc=$? at $SECONDS s"; grep -E "passed|FAIL" $OUT/gpu-gemm-stages2.txt | cut -c1-220
timeout 120 $B/tests/gpu_test_gpu_gemm coopmat2_splitk > $OUT/gpu-gemm-splitk.txt 2>&1; echo "splitk rc=$? at $SECONDS s"; grep -cE " bad of " $OUT/gpu-gemm-splitk.txt; grep -E "passed|FAIL" $OUT/gpu-gemm-splitk.txt | head -5 | cut -c1-220
echo "== gemm table at $SECONDS s"
timeout 220 $B/bench/bench_gemm --shapes '8192,8192,8192;3000,3000,3000;16384,128,4096' --types 'f16,f32;f16,f16;s8,s32' --anchor .anchors/gemm_anchor.py --md --sample 256 > $OUT/gemm-table.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^# " $OUT/gemm-table.md | cut -c1-220
echo "== peak at $SECONDS s"
timeout 40 $B/bench/bench_coopmat_peak --stats > $OUT/peak.txt 2>&1; timeout 40 $B/bench/bench_coopmat_peak --load tensor --types 'f16,f16;s8,s32' --tile 256x256x32:256x128x64 --stats >> $OUT/peak.txt 2>&1; grep -v "^#   " $OUT/peak.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
echo "== done at $SECONDS s"
