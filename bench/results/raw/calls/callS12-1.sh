#!/bin/bash
# Call S12-1: (1) call S12-G (the MLP grid's layers class on the five tanh / leaky
# networks, merged into the selection table's grid; see callS12-G.sh), then (2) the three
# khr split-K GPU tests (test_gemm_khr_splitk{,_s8,_u8}_matches_cpu, split in session 11,
# never run on a GPU) in parallel, each cut at 250 s.
# References: torch eager and torch.compile for the grid's networks and point counts are the
# merged grid's anchors (bench/anchors/mlp_anchor_net.py, run in calls 3 and S6-6:
# raw/mlp-grid-h200-2026-11-26/grid-anchor.tsv, raw/gpu-2026-11-26-s6/callS6-6/anchor.tsv),
# not rerun here; the tests against their float64 CPU references. First compiles: the grid's
# compile phase (empty caches, driver disk cache off) and each test's `pipeline` figure.
# Carry .gl and build-gpu.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
R=${OUT:-/tmp}; O=/tmp/s12-1; mkdir -p "$O/G" "$O/tests"
T0=$SECONDS
OUT="$O/G" bash bench/results/raw/calls/callS12-G.sh > "$O/G/callS12-G.txt" 2>&1
echo "== S12-G done ($((SECONDS - T0)) s)"; tail -25 "$O/G/callS12-G.txt"
. scripts/gpu-env.sh
gpu_env_vulkan callS12-1 > /dev/null || exit 1
for t in khr_splitk_matches khr_splitk_s8 khr_splitk_u8; do
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    timeout 250 stdbuf -oL build-gpu/tests/gpu_test_gpu_gemm test_gemm_$t > "$O/tests/$t.txt" 2>&1
    echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/tests/$t.txt" ) &
done
wait
for t in khr_splitk_matches khr_splitk_s8 khr_splitk_u8; do echo "== $t"; tail -4 "$O/tests/$t.txt"; done
tar czf "$R/s12-1.tgz" -C "$O" . ; echo "total $((SECONDS - T0)) s"
