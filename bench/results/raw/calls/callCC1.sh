#!/bin/bash
# Call CC1, 2026-11-26: the GEMM shapes benchmark of issue 24 (scripts/gpu-gemm.sh, bench_gemm_shapes:
# cold first compiles with an empty driver cache, GPU time, cuBLAS through the shared anchor in the
# same call), binaries staged with GPU_CHECK_FROM=build scripts/gpu-check --build at this commit.
bash scripts/gpu-gemm.sh --anchor build-gpu/anchors/gemm_anchor.py
