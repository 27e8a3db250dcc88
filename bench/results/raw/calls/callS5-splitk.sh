#!/bin/bash
# References: cuBLAS through build-gpu/anchors/gemm_anchor.py (torch, f16 with f32 accumulate) in the same call, for every shape of the bench set; first compiles: the bench's compile column, "partials+reduction" for split-K plans (driver cache pointed at an empty directory).
# Call S5 (branch splitk2): split-K as two dispatches (a partials kernel with no barrier,
# atomic or Workgroup memory, then an element-wise reduction).
#   1. the split-K GPU tests (coopmat2 fixed and run-time, simt, the per-call prompt plans,
#      coopmat2 with device addresses): every element against the CPU; each test its own
#      process with an empty driver cache, in parallel (<= 150 s);
#   2. the probe: `spvgen run gemm --stats` of the partials kernel against the unsplit
#      tile (the driver's Shared Memory Size: 0 bytes in every single-dispatch split-K
#      kernel, 14-37 KB unsplit), both compiles, and the GPU time (<= 60 s);
#   3. bench_gemm_shapes --set splitk2 beside cuBLAS: the default and coopmat2 unroll 1
#      at tiles 32x64x64, 64x64x64, 128x128x64, split 1..4 ways, at 16/64/257/1 x 3584 x
#      3584, 257x3584x18944 and 16x18944x3584 nt f16->f32 (<= 250 s).
# From a worktree whose build-gpu/ was staged by /work/notes/stage.sh (it copies the
# anchors into build-gpu/anchors/). At most ~8 minutes. Output: $OUT (default /tmp/callS5).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS5 || exit 1
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callS5}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$O/smi.txt" 2>&1
git log -1 --format=%h > "$O/commit.txt" 2>/dev/null

# 1. the split-K GPU tests, each its own process with an empty driver cache
T=$B/tests/gpu_test_gpu_gemm
TB=$B/tests/gpu_test_gpu_gemm_bda
for t in $("$T" --list | grep -E "splitk|prompt"); do
  ( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 150 "$T" "$t" > "$O/test-$t.txt" 2>&1
    echo "$t exit $? $(grep -E '^[0-9]+ passed' "$O/test-$t.txt" | tail -1)" >> "$O/tests.txt"; rm -rf "$c" ) &
done
( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 150 "$TB" test_gemm_bda_coopmat2_matches_cpu \
    > "$O/test-bda-coopmat2.txt" 2>&1
  echo "test_gemm_bda_coopmat2_matches_cpu exit $? $(grep -E '^[0-9]+ passed' "$O/test-bda-coopmat2.txt" | tail -1)" \
    >> "$O/tests.txt"; rm -rf "$c" ) &
wait
echo "== tests ($((SECONDS - T0)) s)"; cat "$O/tests.txt"

# 2. the probe: the partials kernel's pipeline statistics and compiles against the unsplit tile
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
for row in "16 3584 3584 32x64x64 1" "16 3584 3584 32x64x64 4" "257 3584 18944 128x128x64 1" \
           "257 3584 18944 128x128x64 3" "257 3584 3584 64x64x64 1" "257 3584 3584 64x64x64 3"; do
  set -- $row
  echo "== $1x$2x$3 $4 sk$5" >> "$O/probe.txt"
  timeout 20 "$B/tools/spvgen" run gemm --m $1 --n $2 --k $3 --types f16,f32 --layout nt --variant coopmat2 \
    --tile $4 --split-k $5 --unroll 1 --stats --repeats 20 >> "$O/probe.txt" 2>&1
  echo "rc=$?" >> "$O/probe.txt"
done
echo "== probe ($((SECONDS - T0)) s)"
grep -E "^== |^plan|^split-K|^pipeline|^gpu|^check|Shared Memory|^stats|rc=" "$O/probe.txt" | cut -c1-220 | head -80

# 3. the bench set with cuBLAS
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 250 stdbuf -oL "$B/bench/bench_gemm_shapes" --set splitk2 --anchor "$B/anchors/gemm_anchor.py" \
  --deadline-s 220 > "$O/bench.txt" 2>&1
echo "== bench rc=$? ($((SECONDS - T0)) s)"
grep -E "^# anchor: cuBLAS|^splitk2|^# calibration|^# slow|^# [0-9.]+ s" "$O/bench.txt" | cut -c1-200
echo "done in $((SECONDS - T0)) s"
