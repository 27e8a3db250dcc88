#!/bin/bash
# Call S9-2: the wide network with every activation on the MLP inference variants, timed
# steadily (call S9-EA timed one dispatch each, and its rows caught the clock governor:
# the same mat plan read 41.4 and 8.0 ms). 64-256x3-64 with relu, tanh, sigmoid and
# leaky_relu at 2,097,152 points on AUTO (weights auto), --variant mat and --variant
# layers: `spvgen run mlp ... --sample 4096 --repeats 20 --warmup 5 --warmup-ms 300`
# (4,096 points checked against float64, every output), each row from an empty driver
# cache and an empty spvgen cache (the "compile" line is the plan's first compile).
# References: torch eager and torch.compile on the same networks and points, same call
# (bench/anchors/mlp_anchor_net.py). Then the GPU tests (tests/results/raw/calls/callS9-T.sh).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS9-2 > /dev/null || exit 1
O=${OUT:-/tmp/callS9-2}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
NET="--in 64 --hidden 256x3 --out 64"
for act in relu tanh sigmoid leaky_relu; do
  for v in auto mat layers; do
    export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== A $act $v" >> "$O/infer.txt"
    timeout 40 "$B/tools/spvgen" run mlp $NET --act $act --variant $v --points 2097152 --sample 4096 \
      --repeats 20 --warmup 5 --warmup-ms 300 >> "$O/infer.txt" 2>&1
    echo "rc=$?" >> "$O/infer.txt"
  done
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 60 python3 bench/anchors/mlp_anchor_net.py --points 2097152 --time-cap 50 \
  --net "$NET --act relu" --net "$NET --act tanh" --net "$NET --act sigmoid" --net "$NET --act leaky_relu" \
  > "$O/anchor.txt" 2>&1
echo "inference and anchor done in $((SECONDS - T0)) s"
