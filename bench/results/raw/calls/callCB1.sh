#!/bin/bash
# Call CB1, 2026-11-26, the MLP measurements of issue 28 (scripts/gpu-mlp.sh: GPU tests,
# the 51-network grid with torch eager / torch.compile in the same call, the refitted
# variant choice, the hash grid next to torch, training of three grid networks, the
# fit-image sample). Binaries: GPU_CHECK_FROM=build scripts/gpu-check --build at the
# commit of this file (ci preset, stripped), pruned to fit the carry.
bash scripts/gpu-mlp.sh
