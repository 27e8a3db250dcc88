#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s15/callS15-5/ (card and driver in gpu-mlp.log and smi.csv)
# First compiles: the grid's compile phase, the driver's disk cache off and an empty pipeline cache (compile_ms where compile_cold is 1)
# References: torch eager / torch.compile on every network at the grid's point counts, in this call (grid-anchor.tsv; e.g. k-32-128x8-32 torch.compile 0.323 G points/s)
# Call S15-5 (H200): the MLP grid of every network and class but layers, measured again
# (the selection table's figures predated sessions 13 and 14), and tools/gen_mlp_select.py's
# table and audit from it. Binaries: build-gpu/bench/bench_mlp_grid and build-gpu/tools/spvgen
# at 8f5f771. Carry .gl and build-gpu.
cd "$(dirname "$0")/../../../.." || exit 1
OUT=${OUT:-/tmp/callS15-5} bash scripts/gpu-mlp.sh --only grid --wall 540 > "${OUT:-/tmp/callS15-5}/call.log" 2>&1
tail -40 "${OUT:-/tmp/callS15-5}/call.log"
