#!/bin/bash
# Call S12-8: what costs the run-time kernels 2-4 % of warm GPU time after the folded grid
# (calls S12-6, S12-7): the Qwen2-7B and Llama-3-8B prefill traces (bench/trace.sh: cold,
# warm, warm spvgen cache only) with three spvgen builds, interleaved, two passes:
# new (this build: decode + early return of workgroups past M), noret (the same without
# the early return: an experiment, build-gpu/noret), main (ea6213e, no decode:
# build-gpu/main). References: main in the same call; the torch.matmul trace anchor once
# per trace (pass 1, new). First compiles: each run 1 (empty caches).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-8}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-8 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
for pass in 1 2; do
  for t in qwen2-7b llama3-8b; do
    for who in new noret main; do
      b=build-gpu; [ $who != new ] && b=build-gpu/$who
      a=0; [ $pass = 1 ] && [ $who = new ] && a=1
      { echo "== pass $pass $t $who"; SPVGEN_TRACE_ANCHOR=$a timeout 100 bash bench/trace.sh bench/traces/$t-prefill.txt $b 2>&1; } >> "$O/traces.txt"
    done
  done
done
awk '/^== pass/{h=$3" "$4" "$5; r=0} /^summary calls=40 shapes/{r++; split($0,f," "); for(i in f){if(f[i]~/^gpu_ms=/)g=f[i]; if(f[i]~/^compile_ms=/)c=f[i]}; printf "%-26s run %d %s %s\n", h, r, c, g} /^summary calls=40 cold_wall/{print h" anchor: "$0}' "$O/traces.txt" | tee "$O/summary.txt"
echo "total $((SECONDS - T0)) s"
