#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s15/callS15-6/ (card and driver in smi.txt)
# First compiles: every `bench mlp` process starts with an empty driver and spvgen cache (its compile column is a first compile)
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py, one process, the same networks and point counts), this call; main at 0a7ae88 (build-gpu/main/spvgen) in the same call
# Call S15-6 (H200): the networks whose AUTO choice the regenerated table moves (98e883e),
# main (the session-12 table) against the new build, weights auto and row-major.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s15-6}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS15-6 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
NETS=(
  "k-32-128x8-32	--in 32 --out 32 --hidden 128,128,128,128,128,128,128,128 --act silu	524288	auto row"
  "k-32-128x5-32	--in 32 --out 32 --hidden 128,128,128,128,128 --act relu	1048576	row"
  "w-32-128x3-16	--in 32 --out 16 --hidden 128,128,128 --act relu	1048576	auto row"
  "c-1-256x8-1	--in 1 --out 1 --hidden 256,256,256,256,256,256,256,256 --act tanh	262144	row"
  "c-1-16x1-64	--in 1 --out 64 --hidden 16 --act tanh	8388608	auto"
  "issue-64-64x5-64	--in 64 --out 64 --hidden 64,64,64,64,64 --act relu	2097152	auto"
  "d-16-64x5-16	--in 16 --out 16 --hidden 64,64,64,64,64 --act relu	4194304	auto"
  "issue-16-128x3-3	--in 16 --out 3 --hidden 128,128,128 --act silu	2097152	row"
)
for line in "${NETS[@]}"; do
  IFS=$'\t' read -r name flags pts modes <<< "$line"
  for w in $modes; do
    for b in main new; do
      bin=build-gpu/tools/spvgen; [ $b = main ] && bin=build-gpu/main/spvgen
      wf=; [ $w = row ] && wf="--weights row"
      { echo "== $name $w $b: bench mlp $flags $wf --points $pts --variants auto"
        fresh timeout 50 $bin bench mlp $flags $wf --points $pts --variants auto --repeats 20 --sample 2048 2>&1; echo "rc=$?"; } > "$O/cur.txt"
      cat "$O/cur.txt" >> "$O/rows.txt"
      printf '%-18s %-4s %-4s %s\n' $name $w $b "$(grep -E '^auto |rc=|error' "$O/cur.txt" | cut -c1-150 | tr '\n' ' ')"
    done
  done
done
echo "rows done $((SECONDS - T0)) s"
printf '%s\n' "${NETS[@]}" | cut -f1-3 > "$O/nets.tsv"
timeout 150 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 140 > "$O/mlp-anchor.txt" 2>&1
grep -E '^anchor|skipped' "$O/mlp-anchor.txt"
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
