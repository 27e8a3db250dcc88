#!/bin/bash
# GPU call S (session 4, final MLP call): the rest of the coopmat2 split-K GPU test, the MLP GPU tests, the MLP table (vec-opt, every
# plan) next to mlp_anchor.py (torch eager, torch.compile, Triton fused) in the same run,
# and the emission benches on this host's CPU.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 150 $B/tests/gpu_test_gpu_gemm coopmat2_splitk > $OUT/gpu-gemm-splitk.txt 2>&1; echo "splitk rc=$? at $SECONDS s"; grep -E " bad of |passed|FAIL" $OUT/gpu-gemm-splitk.txt | cut -c1-200
timeout 90 $B/tests/gpu_test_gpu_mlp > $OUT/gpu-mlp.txt 2>&1; echo "mlp rc=$?"; grep -E "passed|FAIL" $OUT/gpu-mlp.txt | cut -c1-220
echo "== mlp table at $SECONDS s"
timeout 240 $B/bench/bench_mlp --variants vec-opt --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-table.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   |FAIL" $OUT/mlp-table.md | cut -c1-200
echo "== emission on this host at $SECONDS s"
lscpu | grep "Model name"; taskset -c 2 $B/bench/bench_emit_gemm > $OUT/emit-gemm.txt 2>&1; taskset -c 2 $B/bench/bench_emit_mlp > $OUT/emit-mlp.txt 2>&1; cat $OUT/emit-gemm.txt $OUT/emit-mlp.txt
echo "== done at $SECONDS s"
