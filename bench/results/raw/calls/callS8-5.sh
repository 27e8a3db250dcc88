#!/bin/bash
# Call S8-5 (session 8): (TA) training AUTO's choice between mat and layers on networks
# between the measured ends (callS8-TA.sh: its header says what, and its torch reference);
# (C) the driver's first compile of 8-bit coopmat2 kernels by layout: call S8-4's s8 tn
# weight-gradient default (256x128x64 sk64) compiled in 1,441 ms where the plan estimated
# 245 ms; rows of s8->s32 with tiles and layouts nn / nt / tn at K 4096 and 262144, each
# from an empty driver and spvgen cache (the 'pipeline' line is the first compile).
# References: torch training (TA, same call); cuBLAS int8 (gemm_anchor.py) on the C shapes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/callS8-5}; mkdir -p "$O"
T0=$SECONDS
OUT=$O/ta bash bench/results/raw/calls/callS8-TA.sh > "$O/ta.txt" 2>&1
echo "TA rc=$? ($((SECONDS - T0)) s)"
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS8-5 > /dev/null || exit 1
row() { # label, args...
  local l=$1; shift
  export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  echo "== $l: $*" >> "$O/c-rows.txt"
  timeout 40 "$B/tools/spvgen" run gemm "$@" --sample 64 --repeats 10 >> "$O/c-rows.txt" 2>&1
  echo "rc=$?" >> "$O/c-rows.txt"
}
S="--types s8,s32 --variant coopmat2"
for lay in nn nt tn; do
  for t in 64x64x64 128x128x64 256x128x64; do
    [ $((SECONDS - T0)) -gt 520 ] && break 2
    row C-$lay-$t-k4096 --m 2048 --n 2048 --k 4096 --layout $lay $S --tile $t
  done
done
[ $((SECONDS - T0)) -lt 520 ] && row C-tn-256x256x262144-khr --m 256 --n 256 --k 262144 --layout tn --types s8,s32 --variant khr
[ $((SECONDS - T0)) -lt 530 ] && timeout 40 python3 "$B/anchors/gemm_anchor.py" 2048,2048,4096 256,256,262144 > "$O/c-gemm-anchor.txt" 2>&1
grep -E "^== |^plan|^pipeline|^gpu" "$O/c-rows.txt" | cut -c1-150
cat "$O/c-gemm-anchor.txt" 2>/dev/null
tail -45 "$O/ta.txt"
cd "$O" && tar czf ta.tgz ta && rm -rf ta
echo "done in $((SECONDS - T0)) s"
