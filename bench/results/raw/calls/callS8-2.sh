#!/bin/bash
# Call S8-2 (session 8): the slow mode's trigger (issue 24 item 7). bench_slowmode's clock
# experiments: --ramp (the GPU idles 3 s, then back-to-back submissions for 1.5 s: how long
# until a kernel runs at its speed) and --gaps (after a sustained warm-up, submissions after
# host sleeps of 0-1000 ms: how short an idle gap drops the clock), for a compute-bound
# GEMM (2048^3 f16->f32) and a memory-bound one (1048576x64x256 f16->f32), with
# nvidia-smi's clock log every 100 ms beside them.
# References: spvgen against itself (each kernel's steady speed in the same process); the
# cuBLAS anchor of 2048^3 in the same call (gemm_anchor.py); first compiles: the header
# line's pipeline create is not printed by bench_slowmode: the empty-cache compile of these
# kernels is the 'pipeline' line of the spvgen run gemm rows at the end of this call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS8-2 || exit 1
O=${OUT:-/tmp/callS8-2}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
(nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate,power.draw,clocks_event_reasons.active \
   --format=csv -lms 100 > "$O/smi.csv" 2>&1 &)
export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
for shape in 2048,2048,2048 1048576,64,256; do
  echo "== $shape ($(date +%T.%N | cut -c1-12))" >> "$O/slow.txt"
  timeout 100 "$B/bench/bench_slowmode" --shape $shape --types f16,f32 --modes none --trials 3 --repeats 20 \
    --warmup-ms 300 --ramp 3000,1500 --gaps 0,1,2,5,10,20,50,100,200,500,1000 >> "$O/slow.txt" 2>&1
  echo "rc=$? ($((SECONDS - T0)) s)" | tee -a "$O/slow.txt"
done
for shape in "--m 2048 --n 2048 --k 2048" "--m 1048576 --n 64 --k 256"; do
  export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  timeout 60 "$B/tools/spvgen" run gemm $shape --types f16,f32 --sample 256 >> "$O/rows.txt" 2>&1
done
timeout 60 python3 "$B/anchors/gemm_anchor.py" 2048,2048,2048 1048576,64,256 > "$O/gemm-anchor.txt" 2>&1
pkill -f "nvidia-smi --query-gpu=timestamp" || true
grep -E "^ramp|^gap|^#|^summary|rc=" "$O/slow.txt" | awk '/^ramp/ {n++; if (n % 8 != 1) next} {print}' | cut -c1-120
grep -E "^plan|^pipeline|^gpu" "$O/rows.txt"; cat "$O/gemm-anchor.txt"
echo "done in $((SECONDS - T0)) s"
