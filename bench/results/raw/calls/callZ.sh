#!/bin/bash
# GPU call Z (session 5; call Y failed int8: the s32 input and result were unsigned without operands): int8 weights on the vec variant: the GPU tests (row-major and
# optimal, every output against the float64 reference that quantizes as the kernel), the
# float8 test again, then (a) and (b) with f16 and s8 weights, every plan, next to
# mlp_anchor.py (torch eager, torch.compile, Triton fused) in this run.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 120 $B/tests/gpu_test_gpu_mlp int8 > $OUT/gpu-mlp-int8.txt 2>&1; echo "int8 test rc=$? at $SECONDS s"; grep -E "passed|FAIL|\[vec|summary" $OUT/gpu-mlp-int8.txt | cut -c1-260
timeout 60 $B/tests/gpu_test_gpu_mlp float8 > $OUT/gpu-mlp-float8.txt 2>&1; echo "float8 test rc=$?"; grep -E "passed|FAIL" $OUT/gpu-mlp-float8.txt
timeout 300 $B/bench/bench_mlp --variants vec-opt,vec-s8 --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-table.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   |FAIL|^# \(" $OUT/mlp-table.md | cut -c1-220
echo "== done at $SECONDS s"
