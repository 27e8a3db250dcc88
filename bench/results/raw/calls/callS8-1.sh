#!/bin/bash
# Call S8-1 (session 8, first GPU call, main 5095e7a + this script):
#  (T) the Qwen2-7B prefill trace cold / warm / spvgen cache only + torch.matmul (bench/trace.sh),
#      never re-measured since session 6 (the long-K bound now splits its K = 18944 calls);
#  (W) the weight-gradient shape class (tn, K = points, small M and N): which coopmat2 tile
#      and slice count the long-K planner should take, f16 -> f32 at K = 262,144 and 2^20;
#  (Q) wave quantization at 3000^3 and 1999x3584x3584 nt: tiles and split-K 2/3 on grids
#      just over whole waves; 8192^3 nn/nt default (nt within 10% of nn?).
# Every spvgen row from an empty driver cache and an empty spvgen cache (first compile =
# the "pipeline" line). nvidia-smi logs clocks, P-state, power and clock-event reasons
# every 200 ms throughout (slow-mode evidence).
# References: cuBLAS (torch, gemm_anchor.py) on the same shapes and torch.matmul on the
# trace (bench/anchors/gemm_trace_anchor.py), same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS8-1 || exit 1
O=${OUT:-/tmp/callS8-1}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
(nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate,power.draw,temperature.gpu,clocks_event_reasons.active \
   --format=csv -lms 200 > "$O/smi.csv" 2>&1 &)
row() { # label, args...
  local l=$1; shift
  export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  echo "== $l: $* ($(date +%T.%N | cut -c1-12))" >> "$O/rows.txt"
  timeout 45 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/rows.txt" 2>&1
  echo "rc=$?" >> "$O/rows.txt"
  rm -rf "$XDG_CACHE_HOME" "$__GL_SHADER_DISK_CACHE_PATH"
}
# T. the trace
timeout 200 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/trace.txt" 2>&1
echo "== trace rc=$? ($((SECONDS - T0)) s)"
grep -E "^==|summary" "$O/trace.txt" | cut -c1-200
timeout 90 python3 "$B/anchors/gemm_anchor.py" 64,64,262144 256,256,262144 512,512,262144 1024,1024,262144 256,256,1048576 \
  3000,3000,3000 1999,3584,3584 8192,8192,8192 > "$O/gemm-anchor.txt" 2>&1
echo "gemm anchor rc=$? ($((SECONDS - T0)) s)"
# Q. wave quantization
S3="--m 3000 --n 3000 --k 3000 --types f16,f32"
row Q3000-def $S3
row Q3000-khr-sk2 $S3 --variant khr --split-k 2
row Q3000-khr-sk3 $S3 --variant khr --split-k 3
row Q3000-khr-128x128x32 $S3 --variant khr --tile 128x128x32
row Q3000-cm2-128x256x32-sk2 $S3 --variant coopmat2 --tile 128x256x32 --split-k 2
row Q3000-f16-def --m 3000 --n 3000 --k 3000 --types f16,f16
P="--m 1999 --n 3584 --k 3584 --layout nt --types f16,f32"
row Q1999nt-def $P
row Q1999nt-sk2 $P --split-k 2
row Q1999nt-khr $P --variant khr
row Q1999nt-khr-sk2 $P --variant khr --split-k 2
row Q8192-nn --m 8192 --n 8192 --k 8192 --types f16,f32
row Q8192-nt --m 8192 --n 8192 --k 8192 --types f16,f32 --layout nt
echo "Q done ($((SECONDS - T0)) s)"
# W. weight gradients
W="--layout tn --types f16,f32,f32"
for mn in 64x64 256x64 64x256 256x256 512x512 1024x1024; do
  m=${mn%x*}; n=${mn#*x}; K=262144
  row W-$mn-def --m $m --n $n --k $K $W
  for t in 64x64x32 128x128x32 128x256x32 256x128x32; do
    tm=${t%%x*}; [ $tm -gt $m ] && continue
    row W-$mn-$t --m $m --n $n --k $K $W --variant coopmat2 --tile $t
  done
  row W-$mn-khr --m $m --n $n --k $K $W --variant khr
  echo "W $mn done ($((SECONDS - T0)) s)"
done
row W1M-256x256-def --m 256 --n 256 --k 1048576 $W
row W1M-256x256-128x128x32 --m 256 --n 256 --k 1048576 $W --variant coopmat2 --tile 128x128x32
row W1M-256x256-64x64x32 --m 256 --n 256 --k 1048576 $W --variant coopmat2 --tile 64x64x32
echo "W done ($((SECONDS - T0)) s)"
grep -E '^== |^plan|^pipeline|^gpu|^check|rc=' "$O/rows.txt" | cut -c1-170 > "$O/rows-short.txt"
pkill -f "nvidia-smi --query-gpu=timestamp" || true
cat "$O/rows-short.txt" | grep -E "^==|^gpu|^plan|^pipe" | cut -c1-150
cat "$O/gemm-anchor.txt"
echo "done in $((SECONDS - T0)) s"
