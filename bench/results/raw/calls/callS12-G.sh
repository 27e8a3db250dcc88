#!/bin/bash
# Call S12-G (prepared in session 11, NOT RUN YET: the session's device time was spent):
# the MLP grid's layers class on the five networks call S7-G listed as refused because
# the GEMM epilogue then had no tanh or leaky relu (session 9 added every activation):
# c-1-256x1-1 (leaky), c-1-256x8-1 (tanh), c-64-256x1-1 (tanh), c-64-256x1-64 (leaky),
# k-64-128x4-64 (tanh). bench_mlp_grid --classes layers, the same point counts and TSV
# columns as the merged grid select_table.c was generated from
# (bench/results/raw/gpu-2026-11-26-s7/callS12-G/merged-grid.tsv), compile phase on an
# empty pipeline cache with the driver's disk cache off (first compiles), then
# measurement. Plan-only on the h100 preset (session 11): 5 plans, 6 s of estimated
# compiles. Then, on the merged grid's device only (the H200), merged-grid.tsv = that
# grid + these layers rows, and tools/gen_mlp_select.py's table and audit from it for the
# coordinator to commit (issue 28 item 2: the selection table's layers rows for tanh and
# leaky networks).
# References: torch eager and torch.compile for these networks and point counts are the
# merged grid's anchors (bench/anchors/mlp_anchor_net.py: raw/mlp-grid-h200-2026-11-26/
# grid-anchor.tsv, raw/gpu-2026-11-26-s6/callS6-6/anchor.tsv), not rerun here; first
# compiles: the grid's compile phase (empty caches).
# Carry .gl and build-gpu. At most ~3 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS12-G || exit 1
O=${OUT:-/tmp/callS12-G}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
ONLY=10,12,18,19,34
export __GL_SHADER_DISK_CACHE=0
timeout 220 "$B/bench/bench_mlp_grid" --only $ONLY --classes layers --tsv "$O/grid.tsv" --md "$O/grid.md" \
  --budget 200 --compile-budget 90 --cache-dir "$(mktemp -d)" > "$O/grid.txt" 2>&1
echo "== grid rc=$? ($((SECONDS - T0)) s)"
grep -E "^# (compile phase|[0-9]+ plans|[0-9]+ networks)" "$O/grid.txt"
cut -c1-240 "$O/grid.md" | head -30
# The layers rows: network, G points/s, first compile, check
awk -F'\t' 'NR > 1 && $14 == "layers" {printf "%-22s %10s G points/s  compile %8s ms  %s\n", $4, $20, $23, $26}' \
  "$O/grid.tsv" | tee "$O/layers-rows.txt"
S6=bench/results/raw/gpu-2026-11-26-s7/callS7-G/merged-grid.tsv
dev_old=$(awk -F'\t' '!/^#/ && $1 ~ /^[0-9]+$/ {print $1 ":" $2; exit}' "$S6")
dev_new=$(awk -F'\t' 'NR > 1 && $1 ~ /^[0-9]+$/ {print $1 ":" $2; exit}' "$O/grid.tsv")
hdr_old=$(grep -v '^#' "$S6" | head -1)
hdr_new=$(head -1 "$O/grid.tsv")
if [ "$hdr_new" != "$hdr_old" ]; then
  echo "== not merged: grid.tsv's columns differ from the merged grid's"
elif [ -n "$dev_new" ] && [ "$dev_new" = "$dev_old" ]; then
  {
    echo "# Raw: the generator input of emitters/mlp/select_table.c: raw/gpu-2026-11-26-s7/callS7-G/merged-grid.tsv with call S12-G's layers rows (grid.tsv here) appended"
    echo "# References: torch in each grid's own anchor file (raw/mlp-grid-h200-2026-11-26/grid-anchor.tsv, raw/gpu-2026-11-26-s6/callS6-6/anchor.tsv); none in call S12-G"
    grep -v '^#' "$S6"
    awk -F'\t' 'NR > 1 && $14 == "layers"' "$O/grid.tsv"
  } > "$O/merged-grid.tsv"
  python3 tools/gen_mlp_select.py "$O/merged-grid.tsv" --out "$O/select_table.c" \
    --note "the H200 grid of session 3, its 128/256-wide networks re-measured in session 6, the layers class measured in sessions 7 and 12" \
    > "$O/select-audit.txt" 2>&1
  echo "== gen_mlp_select rc=$?"
  grep -E "^(model|compile layers|UNDER HALF)" "$O/select-audit.txt"
  grep -E "table layers" "$O/select-audit.txt" | cut -c1-200
else
  echo "== not merged: this device ($dev_new) is not the merged grid's ($dev_old)"
fi
echo "done in $((SECONDS - T0)) s"
