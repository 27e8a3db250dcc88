#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s13/callS13-1/ (NVIDIA H200, driver 580.159.04, 2026-11-27)
# First compiles: run gemm's pipeline lines and bench mlp's compile column (empty driver and spvgen caches per process)
# Call S13-1: what an activation costs in the GEMM epilogue and the MLP, and whether a
# tanh written as 1 - 2 / (e^2x + 1) (GLSL.std.450 Exp and a division) is cheaper than the
# driver's Tanh. Binaries: build-gpu/tools/spvgen (main at the session's start, edacbdd),
# build-gpu/e1/spvgen and build-gpu/e2/spvgen (the same with -DSPVGEN_EXP_ACT=1: tanh =
# x - x^3/3 + 2x^5/15 - 17x^7/315 below |x| 0.125, else 1 - 2 / (e^2x + 1); =2: always
# 1 - 2 / (e^2x + 1)). Rows: FIXED coopmat2 128x128x32 nt 1,048,576 x 256 x 256
# f16,f32,f16 with a column bias and each activation; the MLP layers variant on
# 64-256x3-64 at 2,097,152 points; mat and loop on 32-64x4-16 at 1,048,576.
# Every process with empty driver and spvgen caches: `pipeline` (run gemm) and the compile
# column (bench mlp) are first compiles.
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py) for the tanh and
# relu MLP rows, cuBLAS (gemm_anchor.py, precompiled: no driver compile) for the GEMM shape,
# both in this call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s13-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS13-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
G=$O/gemm-rows.txt; M=$O/mlp-rows.txt
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
grow() { # name binary args...
  local name=$1 bin=$2; shift 2
  { echo "== $name: $bin run gemm $*"; fresh timeout 60 "$bin" run gemm --layout nt --variant coopmat2 --sample 4096 --repeats 20 "$@" 2>&1; echo "rc=$?"; } >> "$G"
  printf '%-16s %s\n' "$name" "$(tail -n 12 "$G" | grep -E '^(gpu|pipeline)|rc=' | cut -c1-70 | tr '\n' ' ')"
}
S="--m 1048576 --n 256 --k 256 --types f16,f32,f16 --tile 128x128x32 --bias column"
for act in none relu tanh sigmoid silu gelu; do grow "main-$act" build-gpu/tools/spvgen $S --act $act; done
for v in e1 e2; do for act in tanh gelu; do grow "$v-$act" build-gpu/$v/spvgen $S --act $act; done; done
grow main-tanh-again build-gpu/tools/spvgen $S --act tanh
for v in tools/spvgen e1/spvgen; do grow "stats-$v" build-gpu/$v $S --act tanh --stats; grep -E "^stats" "$G" | tail -1 | cut -c1-400; done
echo "gemm done $((SECONDS - T0)) s"
mrow() { # name binary args...
  local name=$1 bin=$2; shift 2
  { echo "== $name: $bin bench mlp $*"; fresh timeout 120 "$bin" bench mlp --repeats 20 --sample 1024 "$@" 2>&1; echo "rc=$?"; } >> "$M"
  echo "== $name"; tail -n 30 "$M" | grep -E "^(layers|mat|loop|anchor|best)|rc=" | cut -c1-150
}
W="--in 64 --hidden 256x3 --out 64 --points 2097152 --variants layers"
mrow main-relu build-gpu/tools/spvgen $W --act relu --anchor bench/anchors/mlp_anchor_net.py
mrow main-tanh build-gpu/tools/spvgen $W --act tanh --anchor bench/anchors/mlp_anchor_net.py
mrow e1-tanh build-gpu/e1/spvgen $W --act tanh
mrow e2-tanh build-gpu/e2/spvgen $W --act tanh
mrow main-gelu build-gpu/tools/spvgen $W --act gelu
mrow e1-gelu build-gpu/e1/spvgen $W --act gelu
N="--in 32 --hidden 64x4 --out 16 --points 1048576 --variants mat,loop --act tanh"
mrow main-mat-tanh build-gpu/tools/spvgen $N
mrow e1-mat-tanh build-gpu/e1/spvgen $N
echo "mlp done $((SECONDS - T0)) s"
timeout 100 python3 build-gpu/anchors/gemm_anchor.py 1048576,256,256 > "$O/anchor.txt" 2>&1
tail -5 "$O/anchor.txt"; echo "total $((SECONDS - T0)) s"
