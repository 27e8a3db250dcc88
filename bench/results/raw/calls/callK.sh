#!/bin/bash
# Compares spvgen plans with each other; the cuBLAS / torch / Triton references of this session ran in callF.sh, callG.sh, callI.sh and callL.sh.
# GPU call K (session 3): the vec MLP kernel with one cooperative-vector load / store per
# point (instead of one per component): correctness and speed (row-major and optimal).
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
timeout 60 $B/tests/gpu_test_gpu_mlp vec > $OUT/gpu-mlp-vec.txt 2>&1; echo "rc=$?"; grep -E "passed|FAIL|\[vec" $OUT/gpu-mlp-vec.txt | cut -c1-160
timeout 90 $B/bench/bench_mlp --variants vec,vec-opt --md > $OUT/bench-mlp.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\|" $OUT/bench-mlp.md | cut -c1-200
