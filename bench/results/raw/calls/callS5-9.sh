#!/bin/bash
# Call S5-9: callS5-skptr.sh without its splitk2 bench set (the session's device time was
# short): the split-K / prompt / masked-edge GPU tests and the device-address coopmat2,
# split-K, tile-move and over-2^31 tests (each its own process, empty driver cache, <= 150 s),
# then bench_gemm_shapes --set skptr beside cuBLAS (gemm_anchor.py, same call).
# References: cuBLAS through build-gpu/anchors/gemm_anchor.py (torch, f16 with f32 accumulate) in the same call, for every shape of the bench sets; first compiles: the bench's compile column, "partials+reduction" for split-K plans (driver cache pointed at an empty directory).
# Call S5 (branch skptr): the coopmat2 split-K partials kernel with A and B moved to the
# slice's first K and its loop counting from 0, on every path (clamped edge tiles, run-time
# shapes, uneven slices, the K edge, batches, descriptors and device addresses), and the
# wave model's split-K for FIXED grids under one wave (within the compile budget).
#   1. the split-K GPU tests, each its own process with an empty driver cache, in
#      parallel: tests/gpu/test_gpu_gemm.c (coopmat2 split-K fixed and run-time, the new
#      slice-origin sweep, the masked K edge, the prompt plans) and the device-address
#      GEMM tests of tests/gpu/test_gpu_gemm_bda.c (the coopmat2 and auto sweeps with
#      split-K, tile moves, one matrix over 2^31 elements, split-K with C and D over 2^31
#      elements: about 25 GB of device memory together) (<= 200 s);
#   2. bench_gemm_shapes --set splitk2 beside cuBLAS (the split-K record's rows, now with
#      the moved pointers) (<= 150 s);
#   3. bench_gemm_shapes --set skptr beside cuBLAS: the prompt-length defaults (257, 1000,
#      2048, 4096 x 3584^2, 257x18944x3584, 257x3584x18944, M 1/16/64 x 3584^2, nt) at the
#      default budget and at 1 s (where the wave model's split fits), and 128x128x64
#      unsplit against split 2 and 4 (<= 110 s).
# From a worktree whose build-gpu/ was staged by /work/notes/stage.sh (it copies the
# anchors into build-gpu/anchors/). At most ~8 minutes. Output: $OUT (default /tmp/callS5skptr).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS5skptr || exit 1
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callS5skptr}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$O/smi.txt" 2>&1
git log -1 --format=%h > "$O/commit.txt" 2>/dev/null

# 1. the split-K GPU tests, each its own process with an empty driver cache
T=$B/tests/gpu_test_gpu_gemm
TB=$B/tests/gpu_test_gpu_gemm_bda
run_test() { # binary test-name log-name
  ( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 150 "$1" "$2" > "$O/test-$3.txt" 2>&1
    echo "$2 exit $? $(grep -E '^[0-9]+ passed' "$O/test-$3.txt" | tail -1)" >> "$O/tests.txt"; rm -rf "$c" ) &
}
for t in $("$T" --list | grep -E "splitk|prompt|masked_k_edge"); do run_test "$T" "$t" "$t"; done
for t in $("$TB" --list | grep -E "coopmat2|splitk|tile_moves|one_matrix_over_2_31|auto"); do run_test "$TB" "$t" "bda-$t"; done
wait
echo "== tests ($((SECONDS - T0)) s)"; cat "$O/tests.txt"
grep -hE "FAIL|wrong" "$O"/test-*.txt | cut -c1-240 | head -20

# 2. the split-K record's set with cuBLAS
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
left=$((300 - (SECONDS - T0))); [ $left -gt 110 ] && left=110; [ $left -lt 30 ] && left=30
timeout $((left + 10)) stdbuf -oL "$B/bench/bench_gemm_shapes" --set skptr --anchor "$B/anchors/gemm_anchor.py" \
  --deadline-s $left > "$O/bench-skptr.txt" 2>&1
echo "== bench skptr rc=$? ($((SECONDS - T0)) s)"
grep -E "^# anchor: cuBLAS|^skptr|^# calibration|^# slow|^# [0-9.]+ s" "$O/bench-skptr.txt" | cut -c1-200
echo "done in $((SECONDS - T0)) s"
