#!/bin/bash
# Call S6-3: (1) bench_gemm_shapes --set pack2: the pack-AUTO default where it packs
# (4097x4095x4093 every type, fixed and run-time; an odd-K prompt shape) with first
# compiles from empty spvgen and driver caches, and 3000^3 packed on other tiles beside
# the khr default; (2) the hash grid's training A/B again (call S6-grid's rows flipped
# between a fast and a slow GPU state, 2.2x apart, row to row): level-loop (the form
# before) against flat (the new default), g256 and g1024, f32 and f16 table gradients,
# both networks, twice in alternating order; each row's optimizer-alone time shows the
# state it ran in.
# References: cuBLAS through build-gpu/anchors/gemm_anchor.py (torch 2.11) for every pack2
# row, same call; the hash grid's torch training anchor ran in call S6-grid
# (raw/gpu-2026-11-26-s6/callS6-grid-bench-g256.txt: ngp32 0.0038, ngp128 0.0031 G samples/s
# eager), not repeated here.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS6-3 || exit 1
O=${OUT:-/tmp/callS6-3}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
# 1. pack2, cold caches
export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 130 stdbuf -oL "$B/bench/bench_gemm_shapes" --set pack2 --anchor "$B/anchors/gemm_anchor.py" \
  --deadline-s 110 > "$O/bench-pack2.txt" 2>&1
echo "== 1. pack2 rc=$? ($((SECONDS - T0)) s)"
grep -vE "^#  " "$O/bench-pack2.txt" | cut -c1-230
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
# 2. the hash grid A/B, twice, alternating
export __GL_SHADER_DISK_CACHE=0
PC=$(mktemp -d)
for order in "level-loop,flat" "flat,level-loop"; do
  SPVGEN_PIPELINE_CACHE=$PC timeout 150 stdbuf -oL "$B/bench/bench_mlp_hashgrid" --train-only --mat-only \
    --spread $order --groups 256,1024 >> "$O/bench-grid-ab.txt" 2>&1
  echo "== 2. grid A/B $order rc=$? ($((SECONDS - T0)) s)"
done
unset __GL_SHADER_DISK_CACHE
grep -E "^# measured" "$O/bench-grid-ab.txt" | sed -E 's/ held / /; s/relu hashgrid://' | cut -c1-260
echo "done in $((SECONDS - T0)) s"
