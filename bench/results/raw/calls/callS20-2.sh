#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s20/callS20-2/ (card and driver in smi.txt)
# First compiles: every run mlp process starts with an empty driver cache and an empty spvgen cache (its "driver compile" is a first compile)
# References: torch eager and torch.compile on the same networks and point counts (bench/anchors/mlp_anchor_net.py), this call; the session's start (build-gpu/tools/spvgen-base, main at 41e0f0a) on the same networks, this call
# Call S20-2: twenty networks the selection was never tuned on (bench/results/raw/calls/
# nets-S20.txt: the ten of S20-1; nets-S20b.txt: ten more drawn after the change, every
# width random in issue 28's ranges) on `spvgen run mlp`'s AUTO plan, the session's start
# against this build (the element-form staged output, the selection's wide term, layers
# from the model and as the compile budget's stand-in, the statistical tolerance), each
# process with fresh caches, --sample 1024 (every output of 1024 points against float64),
# then torch eager / torch.compile on all twenty.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s20-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS20-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
cat bench/results/raw/calls/nets-S20.txt bench/results/raw/calls/nets-S20b.txt > "$O/nets.txt"
while IFS=$'\t' read -r name flags pts; do
  case $name in '#'*|'') continue;; esac # the files' comment lines
  for build in new base; do
    bin=$B/tools/spvgen; [ $build = base ] && bin=$B/tools/spvgen-base
    ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
      echo "== $name $build: spvgen run mlp $flags --points $pts --sample 1024 --repeats 20"
      timeout 45 $bin run mlp $flags --points $pts --sample 1024 --repeats 20; echo "rc=$?" ) >> "$O/A-mlp.txt" 2>&1
  done
  echo "A $name $((SECONDS - T0)) s"
done < "$O/nets.txt"
grep -E "^==|^plan|^emit|^gpu|^check|MISMATCH|rc=" "$O/A-mlp.txt" | cut -c1-160
echo "A done $((SECONDS - T0)) s"
timeout $((585 - (SECONDS - T0))) python3 bench/anchors/mlp_anchor_net.py --time-cap $((575 - (SECONDS - T0))) --nets "$O/nets.txt" > "$O/B-anchor.txt" 2>&1
grep -E "^anchor|skipped" "$O/B-anchor.txt"
rm -f "$O/nets.txt"
echo "total $((SECONDS - T0)) s"
