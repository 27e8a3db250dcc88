#!/bin/bash
# Call S6-7: the MLP's default plans after the session-6 selection change (the 128/256-wide
# networks re-measured in the table; over the compile budget, the measured network's other
# classes first; no staged pieces as a stand-in) against the defaults before (spvgen-old:
# main dbd1156, the session-3 table and budget rule), `spvgen bench mlp` with weights auto
# and row-major (the desc's default), each first compile from an empty driver cache and a
# fresh spvgen pipeline cache; then torch eager / torch.compile on the same networks.
# References: torch 2.11 through bench/anchors/mlp_anchor_net.py (--nets), same call.
# Carry .gl and build-gpu (build-gpu/tools/spvgen-old staged).
cd "$(dirname "$0")/../../../.." || exit 1
. scripts/gpu-env.sh
gpu_env_vulkan callS6-7 || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
NETS=(
  "k-64-256x3-64|--in 64 --hidden 256x3 --out 64 --act relu|262144"
  "k-64-256x5-64|--in 64 --hidden 256x5 --out 64 --act relu|262144"
  "c-64-256x8-64|--in 64 --hidden 256x8 --out 64 --act relu|262144"
  "w-32-256x3-16|--in 32 --hidden 256x3 --out 16 --act relu|524288"
  "issue-16-128x3-3|--in 16 --hidden 128x3 --out 3 --act silu|2097152"
  "k-64-128x4-64|--in 64 --hidden 128x4 --out 64 --act tanh|1048576"
  "d-16-64x8-16|--in 16 --hidden 64x8 --out 16 --act relu|2097152"
)
T0=$SECONDS
echo "# net | weights | binary | plan G-pts/s TFLOP/s ms compile-ms emit-us check"
for net in "${NETS[@]}"; do
  IFS='|' read -r name flags points <<< "$net"
  for w in auto row; do
    for b in spvgen-old spvgen; do
      if [ $((SECONDS - T0)) -gt 330 ]; then echo "$name | $w | $b | skipped (time)"; continue; fi
      row=$(__GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_PIPELINE_CACHE=$(mktemp -d) timeout 60 build-gpu/tools/$b bench mlp \
            $flags --weights $w --points $points --sample 256 --repeats 20 --warmup-ms 200 2>&1 |
            grep -E "^(auto|vec|mat|loop) " | head -1 | tr -s ' ')
      echo "$name | $w | $b | ${row:-failed or timed out}"
    done
  done
done
NF=$(mktemp)
for net in "${NETS[@]}"; do IFS='|' read -r name flags points <<< "$net"; printf '%s\t%s\t%s\n' "$name" "$flags" "$points" >> "$NF"; done
timeout 80 python3 bench/anchors/mlp_anchor_net.py --nets "$NF" --reps 10 --budget 60 --time-cap 70 2>&1 | grep -E "^(anchor|skipped|#)"
echo "done in $((SECONDS - T0)) s"
