#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s21/callS21-2/ (card and driver in smi.txt)
# First compiles: every run mlp process starts with an empty driver disk cache and an empty spvgen cache (its "driver compile" is a first compile)
# References: the session's start (d83b92c, build-gpu/tools/spvgen-base) on the same networks and point counts, and torch eager / torch.compile on them (bench/anchors/mlp_anchor_net.py), this call
# Call S21-2 (main at 84dc168: the layers variant pads hidden widths off 64): the held-out
# networks whose AUTO plan moved from the looped vec kernel to padded layers
# (bench/results/raw/calls/nets-S21.txt), the session's start beside them, torch on them,
# and the padded networks' correctness test on the GPU.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s21-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS21-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
# ---- B: the networks whose AUTO plan moves (base: main at the session's start; new: this build), first compiles
while IFS=$'\t' read -r name flags pts; do
  case $name in '#'*|'') continue;; esac
  for which in base new; do
    bin=$B/tools/spvgen; [ $which = base ] && bin=$B/tools/spvgen-base
    ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
      echo "== $name $which: spvgen run mlp $flags --points $pts --sample 1024 --repeats 20"
      timeout 60 $bin run mlp $flags --points $pts --sample 1024 --repeats 20; echo "rc=$?" ) >> "$O/B-mlp.txt" 2>&1
  done
done < bench/results/raw/calls/nets-S21.txt
grep -E "^==|^plan|^emit|^gpu|^check|MISMATCH|rc=" "$O/B-mlp.txt" | cut -c1-200
echo "B done $((SECONDS - T0)) s"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1 SPVGEN_CLI=$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD
  for t in test_layers_padded_networks_match_cpu test_layers_networks_match_cpu; do
    echo "== mlp_test_mlp_layers $t"; timeout 120 $B/tests/mlp_test_mlp_layers $t; echo "rc=$?"; done ) > "$O/C-tests.txt" 2>&1
tail -8 "$O/C-tests.txt"
echo "C done $((SECONDS - T0)) s"
timeout $((580 - (SECONDS - T0))) python3 bench/anchors/mlp_anchor_net.py --time-cap $((560 - (SECONDS - T0))) --nets bench/results/raw/calls/nets-S21.txt > "$O/D-anchor.txt" 2>&1
grep -E "^anchor|skipped" "$O/D-anchor.txt"
echo "total $((SECONDS - T0)) s"
