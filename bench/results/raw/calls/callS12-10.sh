#!/bin/bash
# Call S12-10: the MLP layers variant after this session (its point-count GEMMs now fold
# their grid past 65535 tiles: SPVGEN_GEMM_CODEGEN_FOLD_M) against main (ea6213e), same
# call: spvgen bench mlp 64-256x3-64 relu and tanh at 2,097,152 points, --variants
# layers,auto, 20 timed dispatches, 1024 sampled points checked, each build's process with
# empty driver and spvgen caches (first compiles: the compile column); torch eager and
# torch.compile through bench/anchors/mlp_anchor_net.py (--anchor, new build's run).
# References: torch eager and torch.compile (bench/anchors/mlp_anchor_net.py) and main ea6213e, in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-10}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-10 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
for act in relu tanh; do
  for who in main new; do
    b=build-gpu/tools/spvgen; [ $who = main ] && b=build-gpu/main/tools/spvgen
    anchor=(); [ $who = new ] && anchor=(--anchor bench/anchors/mlp_anchor_net.py)
    ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
      echo "== $act $who"
      timeout 120 $b bench mlp --in 64 --hidden 256x3 --out 64 --act $act --points 2097152 --variants layers,auto \
        --repeats 20 --sample 1024 "${anchor[@]}" 2>&1; echo "rc=$?" ) >> "$O/bench-mlp.txt"
  done
done
grep -vE "^\s*$" "$O/bench-mlp.txt" | cut -c1-200 | tail -40
echo "total $((SECONDS - T0)) s"
