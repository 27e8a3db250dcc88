#!/bin/bash
# References: torch 2.11 eager and torch.compile inference of the same six networks at the
# same point counts (bench/anchors/mlp_anchor_net.py --nets, shared/anchors/mlp_anchor.py's
# style), in the same call after the spvgen rows.
# Call S6-wide (written, not run: the session has no GPU): the mat variant's streamed form
# for wide layers (desc.mat_slab, `--variant mat --mat-slab N`) against the current default
# plan (--variant auto --weights auto), the best vec plan of the H200 grid (vec, optimal
# weights, w32) and the current mat default, on k-64-256x3-64, k-64-256x5-64, c-64-256x8-64,
# w-32-256x3-16, 16-128x3-3 silu and the 64-wide control 32-64x4-16; knob variants: slab
# depth 16 / 32 (64 where it fits: 128 wide), points per workgroup (8 subgroups of one or
# two 16-point fragments; 4 subgroups). Each row: `spvgen bench mlp` (the driver's first
# compile in ms with an empty driver cache and a fresh spvgen pipeline cache, GPU time of
# 20 dispatches after a warm-up, G points/s, TFLOP/s, 256 sampled points checked against
# float64). Then the GPU correctness test of the form (gpu_test_gpu_mlp
# test_mlp_mat_stream_wide_matches_cpu: every output of 4099 points of four wide
# networks at slabs 16 / 32 / 64 against float64). Carry .gl and build-gpu. Under 4 minutes:
# every step has a time limit, and rows stop being started at 150 s.
cd "$(dirname "$0")/../../../.." || exit 1
. scripts/gpu-env.sh
gpu_env_vulkan callS6-wide || exit 1
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
SPVGEN_PIPELINE_CACHE=$(mktemp -d)
export SPVGEN_PIPELINE_CACHE
B=build-gpu/tools/spvgen
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
# name | flags | points (the H200 grid's counts for the grid networks)
NETS=(
  "k-64-256x3-64|--in 64 --hidden 256x3 --out 64 --act relu|262144"
  "k-64-256x5-64|--in 64 --hidden 256x5 --out 64 --act relu|262144"
  "c-64-256x8-64|--in 64 --hidden 256x8 --out 64 --act relu|262144"
  "w-32-256x3-16|--in 32 --hidden 256x3 --out 16 --act relu|524288"
  "issue-16-128x3-3|--in 16 --hidden 128x3 --out 3 --act silu|2097152"
  "a-32-64x4-16|--in 32 --hidden 64x4 --out 16 --act relu|4194304"
)
# label | knobs
CONFIGS=(
  "default|--variant auto --weights auto"
  "vec-opt|--variant vec --weights optimal --wg 32"
  "mat|--variant mat"
  "slab16|--variant mat --mat-slab 16"
  "slab32|--variant mat --mat-slab 32"
  "slab64|--variant mat --mat-slab 64"
  "slab32-p64w128|--variant mat --mat-slab 32 --wg 128 --points-per-group 64"
  "slab16-p64w128|--variant mat --mat-slab 16 --wg 128 --points-per-group 64"
  "slab32-p128w256|--variant mat --mat-slab 32 --wg 256 --points-per-group 128"
  "slab32-p256w256|--variant mat --mat-slab 32 --wg 256 --points-per-group 256"
)
echo "# net | config | variant plan G-pts/s TFLOP/s ms compile-ms emit-us check"
for net in "${NETS[@]}"; do
  IFS='|' read -r name flags points <<< "$net"
  for cfg in "${CONFIGS[@]}"; do
    IFS='|' read -r label knobs <<< "$cfg"
    if [ $SECONDS -gt 150 ]; then echo "$name | $label | skipped (time)"; continue; fi
    row=$(timeout 25 $B bench mlp $flags $knobs --points $points --sample 256 --repeats 20 --warmup-ms 200 2>&1 |
          grep -E "^(auto|vec|mat|loop) " | head -1 | tr -s ' ')
    [ -n "$row" ] || row="- (refused, failed or timed out: $(timeout 10 $B mlp $flags $knobs --caps h100 -o /dev/null 2>&1 | tail -1 | cut -c1-160))"
    echo "$name | $label | $row"
  done
done
echo "spvgen rows done at $SECONDS s"
# the references: torch eager and torch.compile, same networks and point counts
NF=$(mktemp)
for net in "${NETS[@]}"; do IFS='|' read -r name flags points <<< "$net"; printf '%s\t%s\t%s\n' "$name" "$flags" "$points" >> "$NF"; done
timeout 70 python3 bench/anchors/mlp_anchor_net.py --nets "$NF" --reps 10 --budget 50 --time-cap 65 2>&1 | grep -E "^(anchor|skipped|#)"
echo "anchors done at $SECONDS s"
# correctness of the form on the GPU against float64
timeout 60 build-gpu/tests/gpu_test_gpu_mlp test_mlp_mat_stream_wide_matches_cpu > /tmp/s6-test.txt 2>&1
echo "gpu_test_gpu_mlp test_mlp_mat_stream_wide_matches_cpu rc=$? at $SECONDS s"
grep -E "passed|FAIL|SKIP|gpu-summary|\[mat" /tmp/s6-test.txt | cut -c1-220
