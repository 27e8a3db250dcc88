#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s17/callS17-1/ (card and driver in smi.txt)
# First compiles: every `bench mlp` / `run gemm` process starts with an empty driver and spvgen cache (its compile column / pipeline line is a first compile); bench_bandwidth's kernels are trivial (no compile figure)
# References: cuBLAS (gemm_anchor.py 1048576,256,256), torch eager / torch.compile (mlp_anchor_net.py, the same networks and point counts), this call
# Call S17-1 (exploration, H200): (A) the memory ceiling of a plain kernel (bench_bandwidth:
# write / read / copy in 16-byte chunks, workgroup 32-256, 1-8 chunks an invocation,
# Nontemporal off and on). (B) the output-heavy MLPs under 5x torch.compile: vec-opt with
# the staged output over workgroup size and points per invocation, and Nontemporal output
# stores (an experiment: build-gpu/x/spvgen, experiments/exp-nt.diff, SPVGEN_EXP_NT=1).
# (C) the MLP layers variant's 256-wide layer (1,048,576 x 256 x 256 nt, bias + ReLU,
# f16 -> f32 -> f16) over tiles and workgroup sizes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s17-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS17-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
# A
timeout 120 $B/bench/bench_bandwidth --mb 1024 --nontemporal both --warmup-ms 200 > "$O/A-bandwidth.txt" 2>&1
echo "A rc=$? $((SECONDS - T0)) s"
sort -k7 -n -r "$O/A-bandwidth.txt" | awk '$1=="write"' | head -4
sort -k7 -n -r "$O/A-bandwidth.txt" | awk '$1=="read"' | head -3
sort -k7 -n -r "$O/A-bandwidth.txt" | awk '$1=="copy"' | head -3
# B
NETS=(
  "c-1-16x1-64	--in 1 --out 64 --hidden 16 --act tanh	8388608	full"
  "c-64-16x8-64	--in 64 --out 64 --hidden 16,16,16,16,16,16,16,16 --act silu	4194304	full"
  "c-1-16x8-64	--in 1 --out 64 --hidden 16,16,16,16,16,16,16,16 --act sigmoid	8388608	nt"
  "c-64-16x1-64	--in 64 --out 64 --hidden 16 --act relu	4194304	nt"
)
row() { # name nt args...
  local name=$1 nt=$2; shift 2
  local envs=(); [ "$nt" = on ] && envs=(SPVGEN_EXP_NT=1)
  { echo "== $name nt=$nt: bench mlp $*"; env "${envs[@]}" XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 40 $B/x/spvgen bench mlp "$@" --repeats 20 --sample 2048 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/B-mlp.txt"
  printf '%-14s nt=%-3s %-40s %s\n' "$name" "$nt" "$(echo "$*" | grep -oE -- '--(variants|wg|points-per-group) [^ ]+' | tr '\n' ' ')" "$(grep -E '^(auto|vec|vec-opt) |rc=[^0]|rror' "$O/cur.txt" | cut -c1-120 | tr '\n' ' ')"
}
for line in "${NETS[@]}"; do
  IFS=$'\t' read -r name flags pts mode <<< "$line"
  for nt in off on; do row $name $nt $flags --points $pts --variants auto; done
  [ $mode = full ] || continue
  for wg in 32 64 128; do for ppg in 1 2 4; do for nt in off on; do
    row $name $nt $flags --points $pts --variants vec-opt --wg $wg --points-per-group $ppg --output-path staged
  done; done; done
done
rm -f "$O/cur.txt"
echo "B done $((SECONDS - T0)) s"
# C
G="--m 1048576 --n 256 --k 256 --layout nt --types f16,f32,f16 --bias column --act relu"
for k in "" "--variant coopmat2 --tile 128x128x32" "--variant coopmat2 --tile 128x128x32 --wg 128" \
         "--variant coopmat2 --tile 64x128x32 --wg 128" "--variant coopmat2 --tile 128x64x32 --wg 128" \
         "--variant coopmat2 --tile 64x256x32 --wg 128" "--variant coopmat2 --tile 64x64x64 --wg 128" \
         "--variant coopmat2 --tile 128x128x32 --stages 2" "--variant coopmat2 --tile 256x128x32" \
         "--variant coopmat2 --tile 128x256x32 --types f16,f16,f16" "--variant coopmat2 --tile 128x128x32 --types f16,f16,f16" \
         "--variant khr --tile 128x128x32" "--variant khr --tile 64x128x32 --wg 128" "--variant khr --tile 128x256x32"; do
  { echo "== C: run gemm $G $k"; fresh timeout 40 $B/tools/spvgen run gemm $G $k --sample 4096 --repeats 20 --stats 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/C-shortk.txt"
  printf 'C %-52s %s\n' "${k:-default}" "$(grep -E '^(plan|gpu|pipeline)|rc=[^0]' "$O/cur.txt" | sed -e 's/(the driver.s compile; the plan estimated/est/' -e 's/median of 20.*submissions[^)]*)//' | cut -c1-80 | tr '\n' ' ')"
done
rm -f "$O/cur.txt"
timeout 60 python3 build-gpu/anchors/gemm_anchor.py 1048576,256,256 > "$O/gemm-anchor.txt" 2>&1; tail -1 "$O/gemm-anchor.txt"
echo "C done $((SECONDS - T0)) s"
printf '%s\n' "${NETS[@]}" | cut -f1-3 > "$O/nets.tsv"
timeout 150 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 140 > "$O/mlp-anchor.txt" 2>&1
grep -E '^anchor|skipped' "$O/mlp-anchor.txt"
echo "total $((SECONDS - T0)) s"
