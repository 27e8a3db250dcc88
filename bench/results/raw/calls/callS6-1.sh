#!/bin/bash
# Call S6-1: (1) the mat-training A/B owed by session 5 (callS5-10.sh: spvgen-old, main
# dbd1156, act'(z) blocks and 16 bias rows in shared memory, against spvgen: act'(z) in
# registers, one bias row at stride 0), `spvgen run mlp --train --variant mat`, every step
# checked against float64; (2) bench_gemm_shapes --set recheck: issue 24's targets at their
# default plans and their run-time-class plans, first compiles with an empty driver cache;
# (3) bench/trace.sh: the 40-call Qwen2-7B prefill trace cold / warm / spvgen cache only.
# References: cuBLAS through build-gpu/anchors/gemm_anchor.py (torch 2.11) for every
# recheck row, torch.matmul on the same trace calls (bench/anchors/gemm_trace_anchor.py),
# torch eager and torch.compile training of the A/B networks (bench/anchors/mlp_anchor_net.py
# --train), all in this call. Carry .gl and build-gpu (build-gpu/tools/spvgen-old staged).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS6-1 || exit 1
O=${OUT:-/tmp/callS6-1}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$O/smi.txt"
git log -1 --format=%h > "$O/commit.txt" 2>/dev/null

# 1. the mat-training A/B
{
for net in "3 48x2 1 sigmoid 262144" "32 64x4 16 relu 65536"; do
  set -- $net
  for b in spvgen-old spvgen; do
    echo "== $b $1-$2-$3 $4 $5 points"
    __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 60 $B/tools/$b run mlp --in $1 --hidden $2 --out $3 --act $4 --train \
      --variant mat --points $5 --steps 2 2>&1 | grep -E "^(plan|gpu|check|pipeline|step|train)" | cut -c1-220
  done
done
for net in "3 48x2 1 sigmoid 262144" "32 64x4 16 relu 65536"; do
  set -- $net
  timeout 80 python3 bench/anchors/mlp_anchor_net.py --train --points $5 --reps 10 --time-cap 50 \
    --net "--in $1 --hidden $2 --out $3 --act $4" 2>&1 | grep -E "^anchor"
done
} > "$O/ab-mat-train.txt" 2>&1
echo "== 1. A/B done ($((SECONDS - T0)) s)"; cat "$O/ab-mat-train.txt"

# 2. the issue-24 targets at their defaults, cuBLAS beside
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 230 stdbuf -oL "$B/bench/bench_gemm_shapes" --set recheck --anchor "$B/anchors/gemm_anchor.py" \
  --deadline-s 200 > "$O/bench-recheck.txt" 2>&1
echo "== 2. recheck rc=$? ($((SECONDS - T0)) s)"
grep -vE "^#  " "$O/bench-recheck.txt" | cut -c1-230 | tail -40

# 3. the trace
unset __GL_SHADER_DISK_CACHE_PATH
timeout 150 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/trace.txt" 2>&1
echo "== 3. trace rc=$? ($((SECONDS - T0)) s)"
grep -E "^==|summary|total" "$O/trace.txt" | cut -c1-200
echo "done in $((SECONDS - T0)) s"
