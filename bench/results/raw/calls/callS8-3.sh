#!/bin/bash
# Call S8-3 (session 8): does the driver compile a plan's kernels in parallel? The same
# binary (main with spvgen_vk_pipelines_create), each row from an empty driver cache and
# an empty spvgen cache, SPVGEN_COMPILE_THREADS=1 (one after another, as before) against
# the default (one thread per CPU, at most one per kernel): layers training (the step's
# kernels in one batch) and layers inference, plus the trace's cold run (split plans:
# 2 kernels per batch).
# References: torch training on 64-256x3-64 relu in the same call (bench/mlp_train_torch.py);
# first compiles: the rows' 'compile' lines are what is measured.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS8-3 || exit 1
O=${OUT:-/tmp/callS8-3}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
for thr in 1 0; do
  for net in "--in 64 --hidden 256x3 --out 64" "--in 16 --hidden 128x3 --out 3 --act silu"; do
    fresh
    echo "== train threads=$thr $net" >> "$O/rows.txt"
    if [ $thr = 1 ]; then export SPVGEN_COMPILE_THREADS=1; else unset SPVGEN_COMPILE_THREADS; fi
    timeout 60 "$B/tools/spvgen" run mlp $net --train --variant layers --points 4096 --steps 1 >> "$O/rows.txt" 2>&1
    echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/rows.txt"
    fresh
    echo "== infer threads=$thr $net" >> "$O/rows.txt"
    timeout 60 "$B/tools/spvgen" run mlp $net --variant layers --points 65536 --sample 256 >> "$O/rows.txt" 2>&1
    echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/rows.txt"
  done
  echo "threads=$thr done ($((SECONDS - T0)) s)"
done
unset SPVGEN_COMPILE_THREADS
grep -E "^== |compile|^emit|^plan|rc=" "$O/rows.txt" | cut -c1-160
for thr in 1 0; do
  if [ $thr = 1 ]; then export SPVGEN_COMPILE_THREADS=1; else unset SPVGEN_COMPILE_THREADS; fi
  w=$(mktemp -d); mkdir -p $w/s $w/d
  __GL_SHADER_DISK_CACHE_PATH=$w/d timeout 90 "$B/tools/spvgen" bench trace bench/traces/qwen2-7b-prefill.txt --cache-dir $w/s > "$O/trace-threads$thr.txt" 2>&1
  echo "trace threads=$thr rc=$?: $(grep summary "$O/trace-threads$thr.txt")"
done
unset SPVGEN_COMPILE_THREADS
timeout 90 python3 bench/mlp_train_torch.py --points 262144 --steps 20 --warmup 10 --net "64 256x3 64 relu" > "$O/train-torch.txt" 2>&1
echo "torch rc=$?"; grep "|" "$O/train-torch.txt"
echo "done in $((SECONDS - T0)) s"
