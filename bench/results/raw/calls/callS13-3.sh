#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s13/callS13-3/ and tests/results/raw/gpu-2026-11-27-s13/callS13-3-tests.txt (NVIDIA H200, driver 580.159.04, 2026-11-27)
# First compiles: bench mlp's compile column (auto row), run gemm's pipeline lines, the tests' compiles (empty caches per process)
# Call S13-3: the session's final build (build-gpu/tools/spvgen: tanh / gelu without the
# driver's Tanh; run-time GEMM classes of one K, desc.k_fixed, which the MLP layers variant
# now uses) against main at the session's start (edacbdd, build-gpu/main/spvgen), same
# call: (A) `spvgen bench mlp` on four networks, AUTO and the mat / layers variants, with
# torch eager / torch.compile beside the new build (bench/anchors/mlp_anchor_net.py);
# (B) `spvgen run gemm --shapes runtime` with and without --k-fixed (the new build) on
# prompt-length and MLP-layer shapes, cuBLAS (gemm_anchor.py) beside; (C) GPU tests of
# the final build: gpu_test_gpu_gemm k_fixed, activation; gpu_test_gpu_mlp layers_every,
# mat_matches, width_256, chosen_plans; gpu_test_gpu_mlp_train train_layers.
# Every process with empty driver and spvgen caches: `pipeline` (run gemm), the compile
# column (bench mlp) and the tests' compiles are first compiles.
# References: torch eager / torch.compile (mlp_anchor_net.py) for (A) and cuBLAS
# (gemm_anchor.py; precompiled, no driver compile) for (B), both in this call; the float64
# CPU reference for (C).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s13-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS13-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
M=$O/mlp-rows.txt; G=$O/gemm-rows.txt
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
mrow() { # name binary args...
  local name=$1 bin=$2; shift 2
  { echo "== $name: $bin bench mlp $*"; fresh timeout 150 "$bin" bench mlp --repeats 20 --sample 1024 "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$M"
  echo "== $name"; grep -E "^(layers|mat|loop|vec|auto) |^anchor  |^best|rc=" "$O/cur.txt" | cut -c1-140
}
for net in "--in 64 --hidden 256x3 --out 64 --act relu --points 2097152" \
           "--in 64 --hidden 256x3 --out 64 --act tanh --points 2097152" \
           "--in 64 --hidden 128x4 --out 64 --act tanh --points 1048576" \
           "--in 16 --hidden 128x3 --out 3 --act silu --points 2097152"; do
  tag=$(echo "$net" | awk '{print $2"-"$4"-"$6"-"$8}')
  mrow "main $tag" build-gpu/main/spvgen $net --variants auto,mat,layers
  mrow "new $tag" build-gpu/tools/spvgen $net --variants auto,mat,layers --anchor bench/anchors/mlp_anchor_net.py
done
echo "A done $((SECONDS - T0)) s"
grow() { # name args...
  local name=$1; shift
  { echo "== $name: run gemm $*"; fresh timeout 60 build-gpu/tools/spvgen run gemm --sample 4096 --repeats 20 "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$G"
  printf '%-26s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline)|rc=' "$O/cur.txt" | cut -c1-80 | tr '\n' ' ')"
}
R="--shapes runtime --layout nt --types f16,f32 --n-multiple 8 --ld-multiple 8"
for s in 2049x3584x3584 2049x18944x3584 2049x3584x18944 3001x3584x3008 513x4608x3584; do
  IFS=x read -r m n k <<< "$s"
  grow "$s" $R --m $m --n $n --k $k
  grow "$s k-fixed" $R --m $m --n $n --k $k --k-fixed
done
L="--shapes runtime --layout nt --types f16,f32,f16 --n-multiple 8 --ld-multiple 8 --m 1048576 --n 256 --k 256 --bias column --act relu"
grow "1048576x256x256" $L
grow "1048576x256x256 k-fixed" $L --k-fixed
echo "B done $((SECONDS - T0)) s"
timeout 60 python3 build-gpu/anchors/gemm_anchor.py 2049,3584,3584 2049,18944,3584 2049,3584,18944 3001,3584,3008 513,4608,3584 1048576,256,256 > "$O/anchor.txt" 2>&1
cat "$O/anchor.txt"
rm -f "$O/cur.txt"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  for t in k_fixed activation; do
    echo "== gpu_test_gpu_gemm $t"; timeout 150 stdbuf -oL build-gpu/tests/gpu_test_gpu_gemm $t; echo "rc=$?"; done
  for t in layers_every mat_matches width_256 chosen_plans; do
    echo "== gpu_test_gpu_mlp $t"; timeout 120 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp $t; echo "rc=$?"; done
  echo "== gpu_test_gpu_mlp_train train_layers"; timeout 120 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp_train train_layers; echo "rc=$?"
  ) > "$O/tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/tests.txt"
echo "total $((SECONDS - T0)) s"
