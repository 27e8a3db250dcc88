#!/bin/bash
# Call S6-grid (branch gridgrad, issue 28 item 3): the hash grid's training with its
# (point, level) pairs spread over every invocation of the mat gradient kernel
# (desc.grid_spread: flat, the new default; flat-by-point; level-loop, the form before).
# References: torch 2.11 training steps of the same two hash-grid networks and batch
# (bench/anchors/mlp_anchor_net.py --train, eager; torch.compile where it comes within the
# cap), run by bench_mlp_hashgrid --anchor in the same call after spvgen's rows.
#   1. gpu_test_gpu_mlp_train's hash-grid test against float64 (mat flat f32 / f16 pairs /
#      f16 8 features, loop f32 / f16, mat flat-by-point f32 8 features, mat level-loop
#      f16 pairs; every table gradient element and optimizer value), empty driver cache
#      (<= 40 s);
#   2. bench_mlp_hashgrid --train-only --mat-only: ngp32 (16 x 2) and ngp128 (16 x 8),
#      batch 2^18, g256, level-loop vs flat vs flat-by-point, each with the f32 and the
#      f16 table gradient: per-kernel ms, samples/s, first compiles (driver disk cache
#      off, a fresh spvgen cache); then the torch anchor (cap 20 s) (<= 85 s);
#   3. flat at g1024 and g2048 (more workgroups in flight per SM: g256 puts under 2
#      workgroups of 128 invocations on each of the 132 SMs, and the grid's gathers and
#      atomics look latency-bound), no anchor (<= 45 s).
# From a worktree whose build-gpu/ was staged by /work/notes/stage.sh; carry .gl and
# build-gpu. At most 170 s of timeouts. Output: $OUT (default /tmp/callS6grid).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS6grid || exit 1
[ -d /usr/local/nvidia ] && export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callS6grid}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$O/smi.txt" 2>&1
git log -1 --format=%h > "$O/commit.txt" 2>/dev/null
cat "$O/smi.txt" "$O/commit.txt"

# 1. the hash grid's GPU training test against float64, empty driver cache
c=$(mktemp -d)
__GL_SHADER_DISK_CACHE_PATH=$c SPVGEN_PIPELINE_CACHE=$(mktemp -d) timeout 40 \
  "$B/tests/gpu_test_gpu_mlp_train" test_mlp_train_hash_grid_matches_cpu > "$O/test-hashgrid.txt" 2>&1
echo "== test rc=$? ($((SECONDS - T0)) s)"
grep -E "shaderFloat16|gpu-summary|FAIL|wrong|passed" "$O/test-hashgrid.txt" | cut -c1-220

# 2. old form vs new, both table gradients, both networks, with the torch anchor
export __GL_SHADER_DISK_CACHE=0
SPVGEN_PIPELINE_CACHE=$(mktemp -d) timeout 85 stdbuf -oL "$B/bench/bench_mlp_hashgrid" --train-only --mat-only \
  --spread level-loop,flat,flat-by-point --groups 256 --anchor bench/anchors/mlp_anchor_net.py --anchor-cap 20 \
  > "$O/bench-g256.txt" 2>&1
echo "== bench g256 rc=$? ($((SECONDS - T0)) s)"
grep -E "^# measured|^# anchor: anchor|^# anchor: skipped" "$O/bench-g256.txt" | cut -c1-330

# 3. flat at g1024 and g2048
SPVGEN_PIPELINE_CACHE=$(mktemp -d) timeout 45 stdbuf -oL "$B/bench/bench_mlp_hashgrid" --train-only --mat-only \
  --spread flat --groups 1024,2048 > "$O/bench-groups.txt" 2>&1
echo "== bench g1024,g2048 rc=$? ($((SECONDS - T0)) s)"
grep -E "^# measured" "$O/bench-groups.txt" | cut -c1-330
echo "done in $((SECONDS - T0)) s"
