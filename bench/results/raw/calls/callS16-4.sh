#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s16/callS16-4/ (card and driver in smi.txt)
# First compiles: every `bench mlp` process starts with an empty driver and spvgen cache (its compile column is a first compile)
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py, one process, the same networks and point counts), this call
# Run with the experiment build (raw/gpu-2026-11-27-s16/experiments/exp-input-staged.diff, not landed).
# Call S16-4: the experiment of the input through shared memory (input_path staged: the
# workgroup reads the points as consecutive 16-byte chunks into shared memory, each
# invocation then loads its point from there), direct against staged, twice,
# interleaved, on every grid network whose input point is 64 bytes or more (vec-opt
# with the table's knobs; output_path as AUTO chooses).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s16-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS16-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
NETS=(
  "c-64-16x1-1	--in 64 --out 1 --hidden 16 --act sigmoid	8388608"
  "c-64-16x8-1	--in 64 --out 1 --hidden 16,16,16,16,16,16,16,16 --act relu	8388608"
  "c-64-256x1-1	--in 64 --out 1 --hidden 256 --act tanh	4194304"
  "c-64-16x1-64	--in 64 --out 64 --hidden 16 --act relu	4194304"
  "i-64-64x3-16	--in 64 --out 16 --hidden 64,64,64 --act relu	4194304"
  "a-32-64x4-16	--in 32 --out 16 --hidden 64,64,64,64 --act relu	4194304"
  "issue-64-64x5-64	--in 64 --out 64 --hidden 64,64,64,64,64 --act relu	2097152"
  "k-64-128x4-64	--in 64 --out 64 --hidden 128,128,128,128 --act tanh	1048576"
)
for rep in 1 2; do
  for line in "${NETS[@]}"; do
    IFS=$'\t' read -r name flags pts <<< "$line"
    for path in direct staged; do
      { echo "== $name rep$rep $path: bench mlp $flags --points $pts --variants vec-opt --input-path $path"
        fresh timeout 40 $B/tools/spvgen bench mlp $flags --points $pts --variants vec-opt --input-path $path \
          --repeats 20 --sample 2048 2>&1; echo "rc=$?"; } > "$O/cur.txt"
      cat "$O/cur.txt" >> "$O/rows.txt"
      printf '%-18s r%s %-6s %s\n' $name $rep $path "$(grep -E '^(vec-opt) |rc=[^0]|rror' "$O/cur.txt" | awk '{printf "%s %s Gpts %s ms [%s %s %s %s %s %s %s] | ", $1, $(NF-7), $(NF-4), $3,$4,$5,$6,$7,$8,$9}' | cut -c1-200)"
    done
  done
done
rm -f "$O/cur.txt"
echo "rows done $((SECONDS - T0)) s"
printf '%s\n' "${NETS[@]}" | cut -f1-3 > "$O/nets.tsv"
timeout 150 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 140 > "$O/mlp-anchor.txt" 2>&1
grep -E '^anchor.*compile|skipped' "$O/mlp-anchor.txt"
echo "total $((SECONDS - T0)) s"
