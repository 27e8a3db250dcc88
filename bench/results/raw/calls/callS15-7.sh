#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s15/callS15-7/ (card and driver in smi.txt)
# First compiles: the grid's compile phase (the driver's disk cache off, an empty pipeline cache): its compile column
# References: torch eager and torch.compile for these networks and point counts: call S15-5's grid anchors (raw/gpu-2026-11-27-s15/callS15-5/grid-anchor.tsv, same H200, same session), not rerun here
# Call S15-7 (H200): the layers class of the 15 networks whose layers rows the selection
# table holds (measured in sessions 7-12), measured again beside call S15-5's grid of the
# other classes: S15-6 read c-1-256x8-1's layers plan at 0.126 G points/s where the table
# held 0.091, and the regenerated table traded it for a mat plan measured at 0.047.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS15-7 > /dev/null || exit 1
O=${OUT:-/tmp/callS15-7}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
export __GL_SHADER_DISK_CACHE=0
IDX=2,3,12,13,19,20,21,24,25,29,30,31,32,33,34
# first attempt (one process for the 15 networks, --budget 240): killed at 280 s with no
# output (stdout buffered); now one process per network, line-buffered, 30 s each
for i in ${IDX//,/ }; do
  echo "== net $i" >> "$O/grid.txt"
  timeout 30 stdbuf -oL "$B/bench/bench_mlp_grid" --only $i --classes layers --tsv "$O/grid-$i.tsv" \
    --budget 25 --compile-budget 15 --cache-dir "$(mktemp -d)" >> "$O/grid.txt" 2>&1
  echo "rc=$? at $((SECONDS - T0)) s" >> "$O/grid.txt"
  printf 'net %-3s %s\n' $i "$(sed -n '/^== net '$i'$/,$p' "$O/grid.txt" | grep -E '^  (layers|choice|time)|^rc=|^# warm' | cut -c1-120 | tr '\n' ' ')"
done
head -1 "$O/grid-${IDX%%,*}.tsv" > "$O/grid.tsv" 2>/dev/null
for f in "$O"/grid-*.tsv; do tail -n +2 "$f" >> "$O/grid.tsv"; done
awk -F'\t' 'NR > 1 && $14 == "layers" {printf "%-22s %10s G points/s  compile %8s ms  %s\n", $4, $20, $23, $26}' "$O/grid.tsv" | tee "$O/layers-rows.txt"
echo "total $((SECONDS - T0)) s"
