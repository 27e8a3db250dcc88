#!/bin/bash
# GPU call AF (session 6): the mat inference kernel with a run-time (unroll-hinted) loop
# over the point fragments and ping-pong activation blocks (half the module: 3173 words
# for 32-64x4-16, was 6811). GPU tests of the mat variant (every output vs float64),
# then (a) and (b) for every mat plan and the vec-opt default, next to mlp_anchor.py
# (torch eager, torch.compile, Triton fused) in this run; the mat training test again.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 120 $B/tests/gpu_test_gpu_mlp mat > $OUT/gpu-mlp-mat.txt 2>&1; echo "mat test rc=$? at $SECONDS s"; grep -E "passed|FAIL|\[mat|summary" $OUT/gpu-mlp-mat.txt | cut -c1-260
timeout 120 $B/tests/gpu_test_gpu_mlp_train mat > $OUT/gpu-mlp-train-mat.txt 2>&1; echo "mat train test rc=$? at $SECONDS s"; grep -E "passed|FAIL|summary" $OUT/gpu-mlp-train-mat.txt | cut -c1-260
timeout 300 $B/bench/bench_mlp --variants mat,vec-opt --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-table.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   |FAIL|^# \(" $OUT/mlp-table.md | cut -c1-220
echo "== done at $SECONDS s"
