#!/bin/bash
# Call S8-LK (session 8, branch s8-longk): the long-K planner that chooses tile and slice
# count together (emitters/gemm/gemm.c plan_long_k, emitters/gemm/splitk.c gemm_split_time;
# docs/design-notes.md, "Long K: tile and slices together (session 8)"), checked on the GPU.
#  (D) the default plan of this tree on every weight-gradient row of call S8-1 (tn, f16 ->
#      f32, K = points: 262,144 and 2^20) and on shapes outside that table (off-tile M and
#      N, K 524,288 / 200,000 / 131,072, batch 2, s8 -> s32, a run-time class);
#  (R) the plans S8-1 measured, by explicit knobs, in the same call: the old default or the
#      old best of each row whose default changed (same-card references);
#  (P) probes of the model's uncertain calls: the slice count of 64x64 outputs (128 / 256
#      against the default 512), the 64-row tile's K step at 64x256, 128x256 at 64 slices,
#      and the run-time class of 256x256x262144 (small-M family against 128x256x32).
# Every spvgen row from an empty driver cache and an empty spvgen cache (first compile =
# the "pipeline" line). nvidia-smi logs clocks and clock-event reasons every 200 ms.
# References: cuBLAS (torch, gemm_anchor.py) on the same shapes, same call (batch 2 has
# none: the anchor runs single matrices). About 30 rows of ~7 s: under 5 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS8-LK || exit 1
O=${OUT:-/tmp/callS8-LK}; mkdir -p "$O"
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
timeout 90 python3 "$B/anchors/gemm_anchor.py" 64,64,262144 256,64,262144 64,256,262144 256,256,262144 \
  512,512,262144 1024,1024,262144 256,256,1048576 128,768,524288 96,320,200000 2048,256,131072 \
  > "$O/gemm-anchor.txt" 2>&1
echo "gemm anchor rc=$? ($((SECONDS - T0)) s)"
W="--layout tn --types f16,f32,f32"
C2="--variant coopmat2"
K=262144
# D + R + P, row by row of S8-1's table
row D-64x64-def --m 64 --n 64 --k $K $W
row R-64x64-old-32x64x64-sk32 --m 64 --n 64 --k $K $W $C2 --tile 32x64x64 --wg 128 --unroll 1 --split-k 32
row P-64x64-64x64x32-sk128 --m 64 --n 64 --k $K $W $C2 --tile 64x64x32 --wg 128 --unroll 1 --split-k 128
row P-64x64-64x64x32-sk256 --m 64 --n 64 --k $K $W $C2 --tile 64x64x32 --wg 128 --unroll 1 --split-k 256
row D-256x64-def --m 256 --n 64 --k $K $W
row R-256x64-best-64x64x32-sk32 --m 256 --n 64 --k $K $W $C2 --tile 64x64x32 --split-k 32
row D-64x256-def --m 64 --n 256 --k $K $W
row R-64x256-best-64x64x32-sk32 --m 64 --n 256 --k $K $W $C2 --tile 64x64x32 --split-k 32
row P-64x256-64x64x32-sk64 --m 64 --n 256 --k $K $W $C2 --tile 64x64x32 --split-k 64
row D-256x256-def --m 256 --n 256 --k $K $W
row R-256x256-best-128x128x32-sk32 --m 256 --n 256 --k $K $W $C2 --tile 128x128x32 --split-k 32
row P-256x256-128x256x32-sk64 --m 256 --n 256 --k $K $W $C2 --tile 128x256x32 --split-k 64
row D-512x512-def --m 512 --n 512 --k $K $W
row D-1024x1024-def --m 1024 --n 1024 --k $K $W
row D1M-256x256-def --m 256 --n 256 --k 1048576 $W
echo "table rows done ($((SECONDS - T0)) s)"
# shapes outside the table
row D-128x768x524288-def --m 128 --n 768 --k 524288 $W
row D-96x320x200000-def --m 96 --n 320 --k 200000 $W
row R-96x320x200000-old-32x64x64-sk17 --m 96 --n 320 --k 200000 $W $C2 --tile 32x64x64 --wg 128 --unroll 1 --split-k 17
row D-2048x256x131072-def --m 2048 --n 256 --k 131072 $W
row D-b2-256x256-def --m 256 --n 256 --k $K --batch 2 $W
row R-b2-256x256-old-128x128x32-sk16 --m 256 --n 256 --k $K --batch 2 $W $C2 --tile 128x128x32 --split-k 16
row D-s8-256x256-def --m 256 --n 256 --k $K --layout tn --types s8,s32
row R-s8-256x256-old-64x64x64-sk16 --m 256 --n 256 --k $K --layout tn --types s8,s32 $C2 --tile 64x64x64 --wg 128 --unroll 1 --split-k 16
row D-rt-256x256-def --m 256 --n 256 --k $K $W --shapes runtime
row P-rt-256x256-128x256x32 --m 256 --n 256 --k $K $W --shapes runtime $C2 --tile 128x256x32
echo "done rows ($((SECONDS - T0)) s)"
grep -E '^== |^plan|^split-K|^pipeline|^gpu|^check|rc=' "$O/rows.txt" | cut -c1-170 > "$O/rows-short.txt"
pkill -f "nvidia-smi --query-gpu=timestamp" || true
grep -E "^==|^gpu|^plan" "$O/rows-short.txt" | cut -c1-150
cat "$O/gemm-anchor.txt"
echo "done in $((SECONDS - T0)) s"
