#!/bin/bash
# Call S7-G: the MLP grid's layers class (a GEMM per layer) on the grid networks where it
# can matter: every network with a hidden width of 128 or more (issue-16-128x3-3, the
# 128-wide w/k networks, the eleven 256-wide ones) and three 64-wide deep ones
# (issue-64-64x5-64, d-16-64x5-16, d-16-64x8-16). bench_mlp_grid --classes layers: one plan
# per network (its GEMMs choose their tiles), the same point counts and TSV columns as the
# merged grid that emitters/mlp/select_table.c was generated from
# (bench/results/raw/gpu-2026-11-26-s6/callS6-6/merged-grid.tsv), compile phase on an
# empty pipeline cache with the driver's disk cache off (first compiles), then
# measurement. The tanh / leaky-relu networks (c-1-256x1-1, c-1-256x8-1, c-64-256x1-1,
# c-64-256x1-64, k-64-128x4-64) are listed as refused: the GEMM epilogue has none, relu
# and silu only. Plan-only on the h100 preset: 14 plans, 18 s of estimated compiles, 2 s
# on 15 threads; the whole call about a minute.
#
# Then, on the merged grid's device only (the H200, 0x10de:0x2335; another device's rows
# would be a table entry of their own with only the layers class): merged-grid.tsv = the
# session-6 merged grid + this call's layers rows, and tools/gen_mlp_select.py's table and
# audit from it (select_table.c, select-audit.txt) for the coordinator to commit.
# Carry .gl and build-gpu. At most ~4 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS7-G || exit 1
O=${OUT:-/tmp/callS7-G}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
ONLY=2,3,10,11,12,13,18,19,20,21,24,25,28,29,30,31,32,33,34
export __GL_SHADER_DISK_CACHE=0
timeout 220 "$B/bench/bench_mlp_grid" --only $ONLY --classes layers --tsv "$O/grid.tsv" --md "$O/grid.md" \
  --budget 200 --compile-budget 90 --cache-dir "$(mktemp -d)" > "$O/grid.txt" 2>&1
echo "== grid rc=$? ($((SECONDS - T0)) s)"
grep -E "^# (compile phase|[0-9]+ plans|[0-9]+ networks)" "$O/grid.txt"
cut -c1-240 "$O/grid.md" | head -30
# The layers rows: network, G points/s, first compile, check
awk -F'\t' 'NR > 1 && $14 == "layers" {printf "%-22s %10s G points/s  compile %8s ms  %s\n", $4, $20, $23, $26}' \
  "$O/grid.tsv" | tee "$O/layers-rows.txt"
S6=bench/results/raw/gpu-2026-11-26-s6/callS6-6/merged-grid.tsv
dev_old=$(awk -F'\t' '!/^#/ && $1 ~ /^[0-9]+$/ {print $1 ":" $2; exit}' "$S6")
dev_new=$(awk -F'\t' 'NR > 1 && $1 ~ /^[0-9]+$/ {print $1 ":" $2; exit}' "$O/grid.tsv")
hdr_old=$(grep -v '^#' "$S6" | head -1)
hdr_new=$(head -1 "$O/grid.tsv")
if [ "$hdr_new" != "$hdr_old" ]; then
  echo "== not merged: grid.tsv's columns differ from the merged grid's"
elif [ -n "$dev_new" ] && [ "$dev_new" = "$dev_old" ]; then
  {
    echo "# Raw: the generator input of emitters/mlp/select_table.c (session 7): raw/gpu-2026-11-26-s6/callS6-6/merged-grid.tsv (the session-3 H200 grid with its 128/256-wide networks re-measured in session 6) with call S7-G's layers rows (grid.tsv here) appended"
    echo "# References: torch in each grid's own anchor file (raw/mlp-grid-h200-2026-11-26/grid-anchor.tsv, raw/gpu-2026-11-26-s6/callS6-6/anchor.tsv); none in call S7-G"
    grep -v '^#' "$S6"
    awk -F'\t' 'NR > 1 && $14 == "layers"' "$O/grid.tsv"
  } > "$O/merged-grid.tsv"
  python3 tools/gen_mlp_select.py "$O/merged-grid.tsv" --out "$O/select_table.c" \
    --note "the H200 grid of session 3, its 128/256-wide networks re-measured in session 6, the layers class measured in session 7" \
    > "$O/select-audit.txt" 2>&1
  echo "== gen_mlp_select rc=$?"
  grep -E "^(model|compile layers|UNDER HALF)" "$O/select-audit.txt"
  grep -E "table layers" "$O/select-audit.txt" | cut -c1-200
else
  echo "== not merged: this device ($dev_new) is not the merged grid's ($dev_old)"
fi
echo "done in $((SECONDS - T0)) s"
