#!/bin/bash
# GPU call X (session 5): every MLP GPU test (f16, bias add, float8, mat, loop), then the
# (b) rows call W's timeout cut (e5m2) and a repeat of f16 / e4m3, every plan, next to
# mlp_anchor.py in this run.
# The session's torch / Triton references: mlp_anchor.py run by bench_mlp --anchor in this call (mlp-h100-2026-11-24x-table.md).
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 150 $B/tests/gpu_test_gpu_mlp > $OUT/gpu-mlp.txt 2>&1; echo "mlp tests rc=$? at $SECONDS s"; grep -E "passed|FAIL|^PASS|^ok" $OUT/gpu-mlp.txt | cut -c1-240
timeout 300 $B/bench/bench_mlp --points-a 65536 --variants vec-opt,vec-e4m3,vec-e5m2 --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-table.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   |FAIL|^# \(" $OUT/mlp-table.md | grep -v "^| (a)\|65536" | cut -c1-220
echo "== done at $SECONDS s"
