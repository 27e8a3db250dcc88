#!/bin/bash
# Call S12-13: `spvgen run mlp` with its new GPU defaults (10 timed dispatches after 200 ms of
# warm-up) on 64-256x3-64 relu at 2,097,152 points (call S12-7 timed one dispatch: 31.6 ms),
# and with --repeats 1 --warmup-ms 0 (the old defaults) in the same call; empty caches
# (first compiles: the emit line's driver compile). References: torch eager and
# torch.compile for this network were not run in this call: call S12-14 repeats these rows
# with bench/anchors/mlp_anchor_net.py beside them (3.750 / 3.842 ms); here `spvgen bench mlp` of the
# same network in this call (20 dispatches after 100 ms).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-13}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS12-13 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
N="--in 64 --hidden 256x3 --out 64 --act relu --points 2097152 --variant layers --sample 1024"
for args in "" "--repeats 1 --warmup-ms 0"; do
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== run mlp $args"; timeout 60 build-gpu/tools/spvgen run mlp $N $args 2>&1; echo "rc=$?" ) >> "$O/rows.txt"
done
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  echo "== bench mlp"; timeout 60 build-gpu/tools/spvgen bench mlp ${N/--variant layers/--variants layers} --repeats 20 2>&1; echo "rc=$?" ) >> "$O/rows.txt"
grep -E "^==|^gpu|^layers|^check|rc=" "$O/rows.txt"
