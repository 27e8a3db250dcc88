#!/bin/bash
# Call S6-9: call S6-1's mat-training A/B again, now with the driver's first compile of both
# kernels (`spvgen run mlp --train` prints it since this session): spvgen-old = main dbd1156
# plus only that print (act'(z) blocks and 16 bias rows in shared memory) against spvgen =
# this tree (act'(z) in registers, one bias row at stride 0); every step checked against
# float64; each run with an empty driver cache and a fresh spvgen pipeline cache.
# References: torch 2.11 eager and torch.compile training steps of the same networks and
# batches (bench/anchors/mlp_anchor_net.py --train), same call.
# Carry .gl and build-gpu (build-gpu/tools/spvgen-old staged).
cd "$(dirname "$0")/../../../.." || exit 1
. scripts/gpu-env.sh
gpu_env_vulkan callS6-9 || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for net in "3 48x2 1 sigmoid 262144" "32 64x4 16 relu 65536"; do
  set -- $net
  for b in spvgen-old spvgen; do
    echo "== $b $1-$2-$3 $4 $5 points"
    __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_PIPELINE_CACHE=$(mktemp -d) XDG_CACHE_HOME=$(mktemp -d) timeout 60 \
      build-gpu/tools/$b run mlp --in $1 --hidden $2 --out $3 --act $4 --train --variant mat --points $5 --steps 2 2>&1 |
      grep -E "^(plan|compile|gpu|check)" | cut -c1-220
  done
done
for net in "3 48x2 1 sigmoid 262144" "32 64x4 16 relu 65536"; do
  set -- $net
  timeout 80 python3 bench/anchors/mlp_anchor_net.py --train --points $5 --reps 10 --time-cap 50 \
    --net "--in $1 --hidden $2 --out $3 --act $4" 2>&1 | grep -E "^anchor"
done
