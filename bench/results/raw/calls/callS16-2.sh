#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s16/callS16-2/ (card and driver in smi.txt)
# First compiles: the grid's compile phase with the driver's disk cache off and an empty pipeline cache (its compile_ms column); every `bench mlp` process starts with empty driver and spvgen caches (its compile column)
# References: torch eager / torch.compile for these networks: call S16-1 (same H200 model, same session: e.g. c-1-16x1-64 torch.compile 5.204 G points/s) and call S15-5's grid anchors (raw/gpu-2026-11-27-s15/callS15-5/grid-anchor.tsv), not rerun
# Call S16-2: the vec classes of every grid network whose output row is 64 bytes or more,
# with the new default (output_path staged from 64-byte rows), for the selection table;
# direct against staged on 64-byte rows; the layers grid's silent compile phase with the
# compile threads' stages.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s16-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS16-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
NETS=(
  "k-32-128x5-32	--in 32 --out 32 --hidden 128,128,128,128,128 --act relu	1048576"
  "o-32-64x4-32	--in 32 --out 32 --hidden 64,64,64,64 --act relu	4194304"
)
for rep in 1 2; do
  for line in "${NETS[@]}"; do
    IFS=$'\t' read -r name flags pts <<< "$line"
    for path in direct staged; do
      { echo "== $name rep$rep $path: bench mlp $flags --points $pts --variants vec-opt,vec --output-path $path"
        fresh timeout 40 $B/tools/spvgen bench mlp $flags --points $pts --variants vec-opt,vec --output-path $path \
          --repeats 20 --sample 2048 2>&1; echo "rc=$?"; } > "$O/cur.txt"
      cat "$O/cur.txt" >> "$O/rows.txt"
      printf '%-18s r%s %-6s %s\n' $name $rep $path "$(grep -E '^(vec-opt|vec) |rc=[^0]|rror' "$O/cur.txt" | awk '{printf "%s %s Gpts %s ms | ", $1, $(NF-7), $(NF-4)}' | cut -c1-160)"
    done
  done
done
rm -f "$O/cur.txt"
echo "rows done $((SECONDS - T0)) s"
export __GL_SHADER_DISK_CACHE=0
# the layers grid's compile phase (S15-7, S16-1: net 13 silent past its deadline)
timeout 70 stdbuf -oL $B/bench/bench_mlp_grid --only 13 --classes layers --tsv "$O/grid-13.tsv" \
  --budget 25 --compile-budget 15 --cache-dir "$(mktemp -d)" > "$O/grid-13.txt" 2>&1
echo "layers grid rc=$? at $((SECONDS - T0)) s"; tail -20 "$O/grid-13.txt"
IDX=2,7,9,11,13,15,17,19,21,30,31,32,33,34,37,38
timeout 280 stdbuf -oL $B/bench/bench_mlp_grid --only $IDX --classes vec,vec-opt --tsv "$O/grid.tsv" --md "$O/grid.md" \
  --budget 230 --compile-budget 90 --cache-dir "$(mktemp -d)" > "$O/grid.txt" 2>&1
echo "grid rc=$? at $((SECONDS - T0)) s"
grep -E '^net |^  (vec|vec-opt|choice) |^# compile' "$O/grid.txt" | cut -c1-150
echo "total $((SECONDS - T0)) s"
