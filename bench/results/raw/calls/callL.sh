#!/bin/bash
# GPU calls K2 and L (session 3, sent as one-line commands): the (a) rows twice, then the
# MLP table next to mlp_anchor.py (torch eager, torch.compile, Triton fused) in one call.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
# K2:
for i in 1 2; do timeout 40 build-gpu/bench/bench_mlp --variants vec-opt,vec --points-b 65536 --md 2>&1 | grep -E "^\| \(a"; done
# L:
timeout 200 build-gpu/bench/bench_mlp --variants vec,vec-opt,mat --anchor .anchors/mlp_anchor.py --md > $OUT/bench-mlp-anchor.md 2>&1
