#!/bin/bash
# Call S8-6 (session 8, final tree): the GPU tests (tests/results/raw/calls/callS8-T.sh,
# LIMIT 450 s), then the long-K defaults that call S8-4 measured at a low clock
# (D-256x256-def: the SM clock at 645-780 MHz in that call's clock log) with the warm-up
# that now waits for a steady clock over 150 ms, beside the same tile at 64 slices, and
# cuBLAS in the same call.
# References: float64 CPU references (tests); cuBLAS (gemm_anchor.py) for the rows; first
# compiles: the rows' 'pipeline' lines (empty driver and spvgen caches per row).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/callS8-6}; mkdir -p "$O"
T0=$SECONDS
OUT=$O/t LIMIT=450 bash tests/results/raw/calls/callS8-T.sh > "$O/tests.txt" 2>&1
echo "tests rc=$? ($((SECONDS - T0)) s)"
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS8-6 > /dev/null || exit 1
(nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_event_reasons.active --format=csv -lms 200 > "$O/smi.csv" 2>&1 &)
row() { local l=$1; shift
  export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  echo "== $l: $* ($(date +%T.%N | cut -c1-12))" >> "$O/rows.txt"
  timeout 40 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/rows.txt" 2>&1; echo "rc=$?" >> "$O/rows.txt"; }
W="--layout tn --types f16,f32,f32"
[ $((SECONDS - T0)) -lt 520 ] && row D-256x256-def --m 256 --n 256 --k 262144 $W
[ $((SECONDS - T0)) -lt 530 ] && row P-256x256-128x256x32-sk64 --m 256 --n 256 --k 262144 $W --variant coopmat2 --tile 128x256x32 --split-k 64
[ $((SECONDS - T0)) -lt 540 ] && row D-64x64-def --m 64 --n 64 --k 262144 $W
[ $((SECONDS - T0)) -lt 550 ] && timeout 40 python3 "$B/anchors/gemm_anchor.py" 256,256,262144 64,64,262144 > "$O/gemm-anchor.txt" 2>&1
pkill -f "nvidia-smi --query-gpu=timestamp" || true
cat "$O/tests.txt" | tail -30
grep -E "^== |^plan|^pipeline|^gpu|^note" "$O/rows.txt" 2>/dev/null | cut -c1-170
cat "$O/gemm-anchor.txt" 2>/dev/null
echo "done in $((SECONDS - T0)) s"
