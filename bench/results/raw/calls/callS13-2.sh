#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s13/callS13-2/ and tests/results/raw/gpu-2026-11-27-s13/callS13-2-tests.txt (NVIDIA H200, driver 580.159.04, 2026-11-27)
# First compiles: run gemm's pipeline lines, bench mlp's compile column and the tests' compiles (empty driver and spvgen caches per process)
# Call S13-2: (A) the GEMM epilogue with tanh and gelu written without the driver's Tanh
# (emitters/common/activation.c: tanh = 1 - 2 / (e^2x + 1) with a polynomial below |x|
# 1/8; gelu = x / (1 + e^-2z)), the session's build (build-gpu/tools/spvgen) against main
# at the session's start (edacbdd, build-gpu/main/spvgen), same call; (B) the MLP with
# tanh: the layers variant (64-256x3-64, 2,097,152 points) and mat (32-64x4-16), and the
# vec variant's f16 tanh (cooperative-vector Tanh) against relu and sigmoid, and against
# an Exp form (build-gpu/v1/spvgen: -DSPVGEN_EXP_VEC_TANH, an experiment); (C) a run-time
# GEMM class whose K (and N) the kernel holds as constants (build-gpu/pin/spvgen,
# SPVGEN_EXP_PIN=k / kn, an experiment: the constant K takes the FIXED K loop) against
# the plain class, on the MLP layers variant and three prompt-length shapes; (D) GPU tests
# of the session's build: gpu_test_gpu_gemm "activation" (every activation on coopmat2,
# khr and simt; the new value-by-value precision tests), gpu_test_gpu_mlp
# layers_every_activation, mat_matches, width_256.
# Every process with empty driver and spvgen caches: `pipeline` (run gemm), the compile
# column (bench mlp) and the tests' compiles are first compiles.
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py) for the MLP
# layers rows, cuBLAS (gemm_anchor.py; precompiled, no driver compile) for the GEMM shapes,
# both in this call; the float64 CPU reference for (D).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s13-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS13-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
G=$O/gemm-rows.txt; M=$O/mlp-rows.txt; P=$O/pin-rows.txt
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
grow() { # file name binary args...
  local f=$1 name=$2 bin=$3; shift 3
  { echo "== $name: $bin run gemm $*"; fresh timeout 60 "$bin" run gemm --sample 4096 --repeats 20 "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$f"
  printf '%-18s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline)|rc=' "$O/cur.txt" | cut -c1-72 | tr '\n' ' ')"
}
S="--m 1048576 --n 256 --k 256 --layout nt --variant coopmat2 --types f16,f32,f16 --tile 128x128x32 --bias column"
for act in none tanh gelu sigmoid; do
  grow "$G" "main-$act" build-gpu/main/spvgen $S --act $act
  grow "$G" "new-$act" build-gpu/tools/spvgen $S --act $act
done
B="--m 4096 --n 4096 --k 4096 --types f16,f16 --bias column --act gelu"
grow "$G" main-4096-gelu build-gpu/main/spvgen $B
grow "$G" new-4096-gelu build-gpu/tools/spvgen $B
grow "$G" new-4096-none build-gpu/tools/spvgen --m 4096 --n 4096 --k 4096 --types f16,f16 --bias column
echo "A done $((SECONDS - T0)) s"
mrow() { # name binary args...
  local name=$1 bin=$2; shift 2
  { echo "== $name: $bin bench mlp $*"; fresh timeout 120 "$bin" bench mlp --repeats 20 --sample 1024 "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$M"
  echo "== $name"; grep -E "^(layers|mat|loop|vec) |^anchor  |rc=" "$O/cur.txt" | cut -c1-140
}
W="--in 64 --hidden 256x3 --out 64 --points 2097152 --variants layers"
mrow main-layers-tanh build-gpu/main/spvgen $W --act tanh
mrow new-layers-tanh build-gpu/tools/spvgen $W --act tanh --anchor bench/anchors/mlp_anchor_net.py
mrow new-layers-relu build-gpu/tools/spvgen $W --act relu
N="--in 32 --hidden 64x4 --out 16 --points 1048576 --variants mat --act tanh"
mrow main-mat-tanh build-gpu/main/spvgen $N
mrow new-mat-tanh build-gpu/tools/spvgen $N
for net in "--in 8 --hidden 32x1 --out 8" "--in 32 --hidden 64x4 --out 16"; do
  for act in relu sigmoid tanh; do mrow "main-vec-$act" build-gpu/main/spvgen $net --points 4194304 --variants vec --act $act; done
  mrow "v1-vec-tanh" build-gpu/v1/spvgen $net --points 4194304 --variants vec --act tanh
done
echo "B done $((SECONDS - T0)) s"
prow() { # name pin binary-args...
  local name=$1 pin=$2; shift 2
  { echo "== $name: SPVGEN_EXP_PIN=$pin $*"; SPVGEN_EXP_PIN=$pin fresh timeout 120 build-gpu/pin/spvgen "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$P"
  printf '%-22s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline)|^layers |rc=' "$O/cur.txt" | cut -c1-100 | tr '\n' ' ')"
}
for pin in none k kn; do
  prow "layers-relu-$pin" $pin bench mlp $W --act relu --repeats 20 --sample 1024
done
R="run gemm --shapes runtime --layout nt --types f16,f32 --n-multiple 8 --k-multiple 8 --ld-multiple 8 --sample 4096 --repeats 20"
for pin in none k; do
  prow "rt-1M-256-$pin" $pin run gemm --shapes runtime --m 1048576 --n 256 --k 256 --layout nt --types f16,f32,f16 --n-multiple 8 --k-multiple 8 --ld-multiple 8 --tile 128x128x32 --edge branch --bias column --act relu --sample 4096 --repeats 20
  prow "rt-2049x3584x3584-$pin" $pin $R --m 2049 --n 3584 --k 3584
  prow "rt-2049x18944x3584-$pin" $pin $R --m 2049 --n 18944 --k 3584
  prow "rt-3001x3584x3008-$pin" $pin $R --m 3001 --n 3584 --k 3008
done
echo "C done $((SECONDS - T0)) s"
timeout 60 python3 build-gpu/anchors/gemm_anchor.py 1048576,256,256 4096,4096,4096 2049,3584,3584 2049,18944,3584 3001,3584,3008 > "$O/anchor.txt" 2>&1
cat "$O/anchor.txt"
rm -f "$O/cur.txt"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== gpu_test_gpu_gemm activation"; timeout 170 stdbuf -oL build-gpu/tests/gpu_test_gpu_gemm activation; echo "rc=$?"
  for t in layers_every_activation mat_matches width_256; do
    echo "== gpu_test_gpu_mlp $t"; timeout 100 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp $t; echo "rc=$?"; done ) > "$O/tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/tests.txt"
echo "total $((SECONDS - T0)) s"
