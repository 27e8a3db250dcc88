#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s14/callS14-2/ and tests/results/raw/gpu-2026-11-27-s14/callS14-2-tests.txt (card and driver in smi.txt)
# First compiles: run gemm's pipeline lines, bench mlp's compile column and the tests' compiles (empty driver and spvgen caches per process)
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py) and cuBLAS
# (gemm_anchor.py; precompiled, no driver compile), this call; main's build in the same
# call (build-gpu/main/spvgen, c19e82e); the float64 CPU reference for the tests.
# Call S14-2: (A) why a run-time class with edges runs 1.4x the fixed kernel at short K:
# `run gemm --stats` (registers, spills) of the fixed shape, the class with N edges
# (shift), with both edges, with edge branch and without edges; the shift with its last
# N origin masked to a multiple of 8 (build-gpu/x2/spvgen, SPVGEN_EXP_ALIGN: an
# experiment); the same at long K (2049 x 3584 x 3584) and in the nn layout. (B) the
# session's build (build-gpu/tools/spvgen: the vec variant's sigmoid and silu on Tanh)
# against main under AUTO on six networks, torch in the same call. (C) GPU tests of the
# session's build: gpu_test_gpu_mlp (vec), gpu_test_gpu_mlp_train (vec, the grid networks).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s14-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS14-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
grow() { # name binary args...
  local name=$1 bin=$2; shift 2
  { echo "== $name: $bin run gemm $*"; fresh timeout 60 $bin run gemm --sample 4096 --repeats 20 --stats "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/gemm-rows.txt"
  printf '%-30s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline|stats)|rc=' "$O/cur.txt" | sed 's/median of 20.*TFLOP/TFLOP/' | cut -c1-110 | tr '\n' ' ')"
}
MB=build-gpu/main/spvgen; XB=build-gpu/x2/spvgen
for L in nt nn; do
  E="--layout $L --types f16,f32,f16 --bias column --act relu"
  R="$E --shapes runtime --n-multiple 8 --ld-multiple 8 --k-fixed"
  S="--m 1048576 --n 256 --k 256"
  grow "$L fixed" $MB $S $E
  grow "$L shift m128" $MB $S $R --m-multiple 128
  grow "$L shift m128 align" "env SPVGEN_EXP_ALIGN=1 $XB" $S $R --m-multiple 128
  grow "$L shift both" $MB $S $R
  grow "$L branch both" $MB $S $R --edge branch
  grow "$L none m128 n128" $MB $S $R --m-multiple 128 --n-multiple 128
done
E="--layout nt --types f16,f32"
S="--m 2049 --n 3584 --k 3584"
grow "long fixed" $MB $S $E
grow "long shift n8" $MB $S $E --shapes runtime --n-multiple 8 --ld-multiple 8 --k-fixed
grow "long shift n8 align" "env SPVGEN_EXP_ALIGN=1 $XB" $S $E --shapes runtime --n-multiple 8 --ld-multiple 8 --k-fixed
grow "long n128" $MB $S $E --shapes runtime --n-multiple 128 --ld-multiple 8 --k-fixed
echo "A done $((SECONDS - T0)) s"
NETS=(
  "n1	--in 8 --hidden 32x1 --out 8 --act sigmoid	4194304"
  "n5	--in 3 --hidden 48x2 --out 1 --act sigmoid	4194304"
  "n6	--in 64 --hidden 16x1 --out 1 --act sigmoid	4194304"
  "n2	--in 32 --hidden 64x3 --out 16 --act sigmoid	4194304"
  "n3	--in 32 --hidden 64x3 --out 16 --act silu	4194304"
  "n4	--in 16 --hidden 128x3 --out 3 --act silu	2097152"
)
for line in "${NETS[@]}"; do
  IFS=$'\t' read -r name flags pts <<< "$line"
  for b in main tools; do
    { echo "== $name $b: bench mlp $flags --points $pts --variants auto"
      fresh timeout 90 build-gpu/$b/spvgen bench mlp $flags --points $pts --variants auto --repeats 20 --sample 4096 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/mlp-rows.txt"
    printf '%-4s %-6s %s\n' $name $b "$(grep -E '^(vec|mat|loop|layers) |rc=|FAIL' "$O/cur.txt" | cut -c1-150 | tr '\n' ' ')"
  done
done
echo "B done $((SECONDS - T0)) s"
printf '%s\n' "${NETS[@]}" > "$O/nets.tsv"
timeout 200 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 190 > "$O/mlp-anchor.txt" 2>&1
grep -E '^anchor|skipped' "$O/mlp-anchor.txt"
timeout 40 python3 build-gpu/anchors/gemm_anchor.py 1048576,256,256 2049,3584,3584 > "$O/gemm-anchor.txt" 2>&1
tail -3 "$O/gemm-anchor.txt"
rm -f "$O/cur.txt"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== gpu_test_gpu_mlp vec"; timeout 150 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp vec; echo "rc=$?"
  for t in train_vec grid_networks; do
    echo "== gpu_test_gpu_mlp_train $t"; timeout 150 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp_train $t; echo "rc=$?"; done ) > "$O/tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/tests.txt"
echo "total $((SECONDS - T0)) s"
