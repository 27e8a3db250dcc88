#!/bin/bash
# GPU call V (session 5; call U ran out of time in `spvgen run mlp` at 4M points, whose full
# float64 check takes > 60 s): every vec-opt plan of (a) and (b), bias_path add among them
# (" badd"), twice; the first time next to mlp_anchor.py (torch eager, torch.compile,
# Triton fused) in this run.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 280 $B/bench/bench_mlp --variants vec-opt --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-table.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   |FAIL" $OUT/mlp-table.md | cut -c1-200
timeout 200 $B/bench/bench_mlp --variants vec-opt --all-plans --md > $OUT/mlp-table2.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   |FAIL" $OUT/mlp-table2.md | cut -c1-200
echo "== done at $SECONDS s"
