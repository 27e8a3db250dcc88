#!/bin/bash
# GPU call W (session 5): float8 weights (e4m3, e5m2) on the vec variant: the GPU tests
# (every output against the float64 reference that rounds each layer's input to float8),
# then the MLP table: f16 (vec-opt) and float8 (vec-e4m3, vec-e5m2), every plan, next to
# mlp_anchor.py (torch eager, torch.compile, Triton fused) in this run.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 120 $B/tests/gpu_test_gpu_mlp float8 > $OUT/gpu-mlp-float8.txt 2>&1; echo "float8 test rc=$? at $SECONDS s"; grep -E "passed|FAIL|\[vec|summary" $OUT/gpu-mlp-float8.txt | cut -c1-240
timeout 330 $B/bench/bench_mlp --variants vec-opt,vec-e4m3,vec-e5m2 --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-table.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   |FAIL|^# \(" $OUT/mlp-table.md | cut -c1-220
echo "== done at $SECONDS s"
