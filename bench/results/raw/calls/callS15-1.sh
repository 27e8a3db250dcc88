#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s15/callS15-1/ (card and driver in smi.txt)
# First compiles: every `run gemm` / `run mlp` / `bench mlp` process starts with an empty driver and spvgen cache (its pipeline / driver compile line or compile column is a first compile); a bench_slowmode* process compiles in its first trial and reuses that pipeline after
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py, one process, the networks of part C and the slow-mode network) and cuBLAS (gemm_anchor.py, the shapes of part B), this call; the slow mode: the same build with dedicated allocations switched off (experiments/exp-nodedicated.diff) in the same call
# Call S15-1: (A) the landed dedicated allocations (0a7ae88) against the same build with
# them off (build-gpu/x/*_x, SPVGEN_EXP_NO_DEDICATED=1): run mlp 32-64x3-16 silu vec
# optimal weights in fresh processes; bench_slowmode_mlp --modes buffers; 64-16x1-1
# sigmoid under AUTO; bench_slowmode (GEMM) --modes buffers,fragment. (B) an M edge alone
# at short K (shift and branch) against no edges, 1,048,576 x 256 x 256 and the layers
# variant's first / last layer shapes. (C) the layers networks and 16-128x3-3 under AUTO.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s15-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS15-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
NET="--in 32 --hidden 64x3 --out 16 --act silu"
# A1: fresh processes, landed and control interleaved
for i in 1 2 3 4 5 6 7 8 9 10; do
  for b in new off; do
    [ $b = off ] && [ $i -gt 6 ] && continue
    if [ $b = new ]; then bin=build-gpu/tools/spvgen; envs=(); else bin=build-gpu/x/spvgen_x; envs=(SPVGEN_EXP_NO_DEDICATED=1); fi
    { echo "== A1 $b-$i: run mlp $NET --variant vec --weights optimal --points 4194304 --sample 4096 --repeats 20 --stats"
      env "${envs[@]}" XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 30 $bin run mlp $NET --variant vec --weights optimal --points 4194304 --sample 4096 --repeats 20 --stats 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/A1-runmlp.txt"
    printf 'A1 %-7s %s\n' $b-$i "$(grep -E '^(gpu|emit)|rc=' "$O/cur.txt" | sed 's/.*driver compile/compile/' | cut -c1-60 | tr '\n' ' ')"
  done
done
echo "A1 done $((SECONDS - T0)) s"
# A2: new sessions in one process
for r in new-1 off-1 new-2; do
  if [ ${r%-*} = new ]; then bin=build-gpu/bench/bench_slowmode_mlp; envs=(); else bin=build-gpu/x/bench_slowmode_mlp_x; envs=(SPVGEN_EXP_NO_DEDICATED=1); fi
  echo "== A2 $r: bench_slowmode_mlp --modes buffers --trials 14 --sample 256" >> "$O/A2-slowmode-mlp.txt"
  env "${envs[@]}" XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 70 $bin --modes buffers --trials 14 --sample 256 >> "$O/A2-slowmode-mlp.txt" 2>&1
  echo "rc=$?" >> "$O/A2-slowmode-mlp.txt"
  echo "A2 $r: $(sed -n '/^== A2 '$r':/,$p' "$O/A2-slowmode-mlp.txt" | grep -E '^trial' | awk '{printf "%s ", $4}') | $(sed -n '/^== A2 '$r':/,$p' "$O/A2-slowmode-mlp.txt" | grep -E '^summary|rc=' | tr '\n' ' ' | cut -c1-200)"
done
echo "A2 done $((SECONDS - T0)) s"
# A3: 64-16x1-1 sigmoid under AUTO
for r in new-1 off-1 new-2 new-3; do
  if [ ${r%-*} = new ]; then bin=build-gpu/tools/spvgen; envs=(); else bin=build-gpu/x/spvgen_x; envs=(SPVGEN_EXP_NO_DEDICATED=1); fi
  { echo "== A3 $r: run mlp --in 64 --hidden 16x1 --out 1 --act sigmoid --points 4194304 --sample 4096 --repeats 20 --stats"
    env "${envs[@]}" XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 30 $bin run mlp --in 64 --hidden 16x1 --out 1 --act sigmoid --points 4194304 --sample 4096 --repeats 20 --stats 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/A3-64-16x1-1.txt"
  printf 'A3 %-7s %s\n' $r "$(grep -E '^(plan|gpu|emit)|rc=' "$O/cur.txt" | sed 's/.*driver compile/compile/' | cut -c1-70 | tr '\n' ' ')"
done
echo "A3 done $((SECONDS - T0)) s"
# A4: GEMM slow mode, landed build
echo "== A4: bench_slowmode --modes buffers,fragment --trials 10" >> "$O/A4-slowmode-gemm.txt"
fresh timeout 100 build-gpu/bench/bench_slowmode --modes buffers,fragment --trials 10 >> "$O/A4-slowmode-gemm.txt" 2>&1
echo "rc=$?" >> "$O/A4-slowmode-gemm.txt"
grep -E '^(summary|slow)|rc=' "$O/A4-slowmode-gemm.txt" | cut -c1-200
echo "A4 done $((SECONDS - T0)) s"
# B: an M edge alone at short K
grow() { # name args...
  local name=$1; shift
  { echo "== B $name: run gemm $*"; fresh timeout 40 build-gpu/tools/spvgen run gemm --sample 4096 --repeats 20 --stats "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/B-gemm-rows.txt"
  printf 'B %-30s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline|stats)|rc=' "$O/cur.txt" | sed 's/Stack Size.*Shared Memory Size/shared/' | cut -c1-80 | tr '\n' ' ')"
}
E="--types f16,f32,f16 --bias column --act relu --tile 128x128x32"
R="--shapes runtime --k-fixed --n-multiple 128 --ld-multiple 8"
for s in "1048576 256 256" "1048576 256 64" "1048576 64 256"; do
  set -- $s
  grow "$1x$2x$3 nt fixed" --m $1 --n $2 --k $3 --layout nt $E
  grow "$1x$2x$3 nt no-edges" --m $1 --n $2 --k $3 --layout nt $E $R --m-multiple 128
  grow "$1x$2x$3 nt m-shift" --m $1 --n $2 --k $3 --layout nt $E $R --edge shift
  grow "$1x$2x$3 nt m-branch" --m $1 --n $2 --k $3 --layout nt $E $R --edge branch
  grow "$(($1-1))x$2x$3 nt m-shift" --m $(($1-1)) --n $2 --k $3 --layout nt $E $R --edge shift
done
grow "1048576x256x256 nn no-edges" --m 1048576 --n 256 --k 256 --layout nn $E $R --m-multiple 128
grow "1048576x256x256 nn m-shift" --m 1048576 --n 256 --k 256 --layout nn $E $R --edge shift
echo "B done $((SECONDS - T0)) s"
# C: networks under AUTO
NETS=(
  "c1	--in 64 --hidden 256x3 --out 64 --act relu	1048576"
  "c2	--in 16 --hidden 128x3 --out 3 --act silu	2097152"
  "c3	--in 64 --hidden 16x1 --out 1 --act sigmoid	4194304"
  "c4	--in 32 --hidden 64x3 --out 16 --act silu	4194304"
)
for line in "${NETS[@]:0:2}"; do
  IFS=$'\t' read -r name flags pts <<< "$line"
  { echo "== C $name: bench mlp $flags --points $pts --variants auto"
    fresh timeout 60 build-gpu/tools/spvgen bench mlp $flags --points $pts --variants auto --repeats 20 --sample 4096 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/C-mlp-rows.txt"
  printf 'C %-4s %s\n' $name "$(grep -E '^(auto|vec|mat|loop|layers) |rc=|error' "$O/cur.txt" | cut -c1-150 | tr '\n' ' ')"
done
echo "C done $((SECONDS - T0)) s"
printf '%s\n' "${NETS[@]}" > "$O/nets.tsv"
timeout 150 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 140 > "$O/mlp-anchor.txt" 2>&1
grep -E '^anchor|skipped' "$O/mlp-anchor.txt"
timeout 40 python3 build-gpu/anchors/gemm_anchor.py 1048576,256,256 1048576,256,64 1048576,64,256 > "$O/gemm-anchor.txt" 2>&1
tail -4 "$O/gemm-anchor.txt"
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
