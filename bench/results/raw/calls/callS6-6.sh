#!/bin/bash
# Call S6-6: the MLP grid again for its 128- and 256-wide networks (bench_mlp_grid --only:
# issue-16-128x3-3 and the eleven 256-wide networks), every plan class, compile phase then
# measurement, with torch eager / torch.compile on the same networks and point counts in the
# same call (call S6-4 measured the default plan of 64-256x3-64 at 0.099 G points/s with a
# 7.7 s first compile where the session-3 grid had 0.228 and 1.5 s; mat p64 at 0.254).
# References: torch 2.11 through bench/anchors/mlp_anchor_net.py (--nets, same point
# counts), same call. Carry .gl and build-gpu. At most ~7 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS6-6 || exit 1
O=${OUT:-/tmp/callS6-6}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
ONLY=3,10,11,12,13,18,19,20,21,25,32,33
"$B/bench/bench_mlp_grid" --write-nets "$O/all-nets.txt" > /dev/null 2>&1
awk -F'\t' -v only=",$ONLY," 'index(only, "," (NR - 1) ",")' "$O/all-nets.txt" > "$O/nets.txt"
timeout 80 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.txt" --out "$O/anchor.tsv" --reps 10 --budget 60 \
  --time-cap 70 > "$O/anchor.txt" 2>&1
echo "== anchor rc=$? ($((SECONDS - T0)) s): $(grep -c '' "$O/anchor.tsv") rows"
export __GL_SHADER_DISK_CACHE=0
timeout 330 "$B/bench/bench_mlp_grid" --only $ONLY --anchor-results "$O/anchor.tsv" --tsv "$O/grid.tsv" --md "$O/grid.md" \
  --budget 310 --compile-budget 150 --cache-dir "$(mktemp -d)" > "$O/grid.txt" 2>&1
echo "== grid rc=$? ($((SECONDS - T0)) s)"
grep -E "^# (compile phase|[0-9]+ plans|[0-9]+ networks)" "$O/grid.txt"
cat "$O/grid.md" | head -30 | cut -c1-300
echo "done in $((SECONDS - T0)) s"
