#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s20/callS20-3/ (card and driver in smi.txt); GPU test output in tests/results/raw/gpu-2026-11-28-s20/
# First compiles: every run mlp process starts with an empty driver cache and an empty spvgen cache (its "driver compile" is a first compile)
# References: the session's start (build-gpu/tools/spvgen-base, main at 41e0f0a) on the same networks, this call; torch eager and torch.compile on them (mlp_anchor_net.py), this call
# Call S20-3 (the session's final build): the MLP GPU tests (the element-form staged
# output's cases, the selection's AUTO plans on the device, the statistical tolerance on
# every variant), then two held-out networks whose AUTO plan changed after call S20-2
# (the element form in workgroups of 32 on compute-heavy looped networks), the session's
# start against this build in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s20-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS20-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1 SPVGEN_CLI=$PWD/$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD
  for t in gpu_test_gpu_mlp:240 gpu_test_gpu_mlp_bda:120 gpu_test_gpu_mlp_train:150 mlp_test_mlp_ref_bound:30; do
    echo "== ${t%%:*}"; timeout ${t##*:} $B/tests/${t%%:*}; echo "rc=$?"
  done ) > "$O/T-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/T-tests.txt" | cut -c1-220
echo "T done $((SECONDS - T0)) s"
for net in "s0-7-180x5-43-none	--in 7 --hidden 180x5 --out 43 --act none	1048576" "s2-13-182x6-33-tanh	--in 13 --hidden 182x6 --out 33 --act tanh	1048576"; do
  IFS=$'\t' read -r name flags pts <<< "$net"
  for build in new base; do
    bin=$B/tools/spvgen; [ $build = base ] && bin=$B/tools/spvgen-base
    ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
      echo "== $name $build: spvgen run mlp $flags --points $pts --sample 1024 --repeats 20"
      timeout 45 $bin run mlp $flags --points $pts --sample 1024 --repeats 20; echo "rc=$?" ) >> "$O/A-mlp.txt" 2>&1
  done
done
grep -E "^==|^plan|^emit|^gpu|^check|MISMATCH|rc=" "$O/A-mlp.txt" | cut -c1-160
timeout $((590 - (SECONDS - T0))) python3 bench/anchors/mlp_anchor_net.py --time-cap $((580 - (SECONDS - T0))) \
  --points 1048576 --net "--in 7 --hidden 180x5 --out 43 --act none" --net "--in 13 --hidden 182x6 --out 33 --act tanh" > "$O/B-anchor.txt" 2>&1
grep -E "^anchor|skipped" "$O/B-anchor.txt"
echo "total $((SECONDS - T0)) s"
