#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s16/callS16-1/ (card and driver in smi.txt)
# First compiles: every `bench mlp` process starts with an empty driver and spvgen cache (its compile column is a first compile); the grid's compile phase with the driver's disk cache off
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py, one process, the same networks and point counts), this call
# Call S16-1: the MLP's output path. Each network's vec-opt and mat plans (the selection
# table's knobs) with output_path direct (today's stores) and staged (through shared
# memory, 16-byte chunks), twice, interleaved; the staged plans' GPU test; the layers
# grid's compile-phase hang (S15-7) with bench_mlp_grid's progress line.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s16-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS16-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
# the GPU test first (correctness of the new path on the real instructions)
timeout 120 $B/tests/gpu_test_gpu_mlp test_mlp_output_staged_matches_cpu > "$O/test-output-staged.txt" 2>&1
echo "test rc=$? $(tail -1 "$O/test-output-staged.txt")"
NETS=(
  "c-1-16x1-64	--in 1 --out 64 --hidden 16 --act tanh	8388608"
  "c-1-16x8-64	--in 1 --out 64 --hidden 16,16,16,16,16,16,16,16 --act sigmoid	8388608"
  "c-64-16x1-64	--in 64 --out 64 --hidden 16 --act relu	4194304"
  "c-64-16x8-64	--in 64 --out 64 --hidden 16,16,16,16,16,16,16,16 --act silu	4194304"
  "o-32-64x4-64	--in 32 --out 64 --hidden 64,64,64,64 --act relu	4194304"
  "issue-64-64x5-64	--in 64 --out 64 --hidden 64,64,64,64,64 --act relu	2097152"
  "a-32-64x4-16	--in 32 --out 16 --hidden 64,64,64,64 --act relu	4194304"
  "k-64-128x4-64	--in 64 --out 64 --hidden 128,128,128,128 --act tanh	1048576"
)
for rep in 1 2; do
  for line in "${NETS[@]}"; do
    IFS=$'\t' read -r name flags pts <<< "$line"
    for path in direct staged; do
      { echo "== $name rep$rep $path: bench mlp $flags --points $pts --variants vec-opt,mat --output-path $path"
        fresh timeout 40 $B/tools/spvgen bench mlp $flags --points $pts --variants vec-opt,mat --output-path $path \
          --repeats 20 --sample 2048 2>&1; echo "rc=$?"; } > "$O/cur.txt"
      cat "$O/cur.txt" >> "$O/rows.txt"
      printf '%-18s r%s %-6s %s\n' $name $rep $path "$(grep -E '^(vec-opt|mat) |rc=[^0]|rror' "$O/cur.txt" | awk '{printf "%s %s Gpts %s ms | ", $1, $(NF-7), $(NF-4)}' | cut -c1-160)"
    done
  done
done
echo "rows done $((SECONDS - T0)) s"
printf '%s\n' "${NETS[@]}" | cut -f1-3 > "$O/nets.tsv"
timeout 200 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 190 > "$O/mlp-anchor.txt" 2>&1
grep -E '^anchor|skipped' "$O/mlp-anchor.txt"
echo "anchors done $((SECONDS - T0)) s"
# the layers grid's compile phase (S15-7: net 13 silent past 30 s); progress every 30 s past the 15 s deadline
export __GL_SHADER_DISK_CACHE=0
timeout 80 stdbuf -oL $B/bench/bench_mlp_grid --only 13 --classes layers --tsv "$O/grid-13.tsv" \
  --budget 25 --compile-budget 15 --cache-dir "$(mktemp -d)" > "$O/grid-13.txt" 2>&1
echo "grid rc=$? at $((SECONDS - T0)) s"; tail -15 "$O/grid-13.txt"
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
