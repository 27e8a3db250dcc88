#!/bin/bash
# References: torch 2.11 eager and torch.compile training steps of the same networks and
# batches (bench/anchors/mlp_anchor_net.py --train, shared/anchors/mlp_anchor.py's style),
# in the same call after the A/B rows.
# Call S5-10 (written, not run: the session's device time was spent): mat training A/B on one card: spvgen-old (main dbd1156, before the wide-network
# change: act'(z) blocks and 16 bias rows in shared memory) against spvgen (c091ccc: act'(z)
# in registers, one bias row at stride 0), `spvgen run mlp --train` (gradient and optimizer
# ms per step; every step checked against float64 on the CPU). Carry .gl and build-gpu.
cd "$(dirname "$0")/../../../.." || exit 1
. scripts/gpu-env.sh
gpu_env_vulkan callS5-10 || exit 1
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
nvidia-smi --query-gpu=name --format=csv,noheader
for net in "3 48x2 1 sigmoid 262144" "32 64x4 16 relu 65536"; do
  set -- $net
  for b in spvgen-old spvgen; do
    echo "== $b $1-$2-$3 $4 $5 points"
    timeout 40 build-gpu/tools/$b run mlp --in $1 --hidden $2 --out $3 --act $4 --train --variant mat --points $5 \
      --steps 2 2>&1 | grep -E "^(plan|gpu|check|pipeline)" | cut -c1-200
  done
done
# the references, same networks and points
for net in "3 48x2 1 sigmoid 262144" "32 64x4 16 relu 65536"; do
  set -- $net
  timeout 120 python3 bench/anchors/mlp_anchor_net.py --train --points $5 --reps 10 --time-cap 100 \
    --net "--in $1 --hidden $2 --out $3 --act $4" 2>&1 | grep -E "^anchor"
done
