#!/bin/bash
# Call S6-pack (branch gemmpack): packed operands, issue 24 item 3. A pack kernel copies A
# and/or B zero-padded to whole tiles into the workspace, then the aligned coopmat2 kernel
# runs on the copies (no clamped loads, no K edge; only D's store clamps).
#   1. the packed-plan GPU tests against float64, each its own process with an empty
#      driver cache: test_gemm_coopmat2_pack_matches_cpu (odd shapes 1..300 rows, every
#      element, every layout, f16/s8, epilogue, batches, split-K, run-time, device
#      addresses) and test_gemm_coopmat2_pack_big_matches_cpu (4097x4095x4093 f16->f32,
#      f16->f16, s8; 3000^3 f16->f32, f16->f16; 1999x3584x3584 nt packed ab and a;
#      65536 sampled elements each) (<= 100 s);
#   2. bench_gemm_shapes --set pack beside cuBLAS: every row packed (cm2:pkab, the planner's
#      unroll; cm2:u2:pkab) against today's default and unpacked coopmat2 (cm2:u1:pknone),
#      the compile column "pack+main" for packed plans; 2048x3584x3584 nt the control
#      that needs no packing (<= 200 s).
# References: cuBLAS through build-gpu/anchors/gemm_anchor.py (torch, same call) for every
# row of the pack set; first compiles: the bench's compile column (driver cache pointed at
# an empty directory), each kernel of a plan separately.
# From a worktree whose build-gpu/ was staged by /work/notes/stage.sh (it copies the
# anchors into build-gpu/anchors/); carry .gl and build-gpu. At most ~5 minutes. Output:
# $OUT (default /tmp/callS6-pack).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS6-pack || exit 1
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callS6-pack}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$O/smi.txt"
git log -1 --format=%h > "$O/commit.txt" 2>/dev/null

# 1. the packed-plan GPU tests, each its own process with an empty driver cache
T=$B/tests/gpu_test_gpu_gemm
for t in test_gemm_coopmat2_pack_matches_cpu test_gemm_coopmat2_pack_big_matches_cpu; do
  ( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 100 "$T" "$t" > "$O/test-$t.txt" 2>&1
    echo "$t exit $? $(grep -E '^[0-9]+ passed' "$O/test-$t.txt" | tail -1)" >> "$O/tests.txt"; rm -rf "$c" ) &
done
wait
echo "== 1. tests ($((SECONDS - T0)) s)"; cat "$O/tests.txt"
grep -hE "FAIL|wrong" "$O"/test-*.txt | cut -c1-240 | head -20
grep -h "  pack " "$O"/test-*.txt | cut -c1-240

# 2. the pack set beside cuBLAS, cold driver cache
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
left=$((285 - (SECONDS - T0) - 25)); [ $left -gt 190 ] && left=190; [ $left -lt 60 ] && left=60
timeout $((left + 25)) stdbuf -oL "$B/bench/bench_gemm_shapes" --set pack --anchor "$B/anchors/gemm_anchor.py" \
  --deadline-s $left > "$O/bench-pack.txt" 2>&1
echo "== 2. bench pack rc=$? ($((SECONDS - T0)) s)"
grep -E "^# anchor: cuBLAS|^pack|^# calibration|^# slow|^# [0-9.]+ s" "$O/bench-pack.txt" | cut -c1-230
rm -rf "$__GL_SHADER_DISK_CACHE_PATH"
echo "done in $((SECONDS - T0)) s"
