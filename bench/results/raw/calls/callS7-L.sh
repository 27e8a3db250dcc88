#!/bin/bash
# Call S7-L: the MLP's layers variant (a GEMM per layer, spvgen/mlp.h SPVGEN_MLP_LAYERS)
# against the default plan and torch on the wide networks it is for:
# (A) inference at 1,048,576 points: `spvgen bench mlp --variants layers,auto` on
#     64-256x3-64 relu, 32-256x3-16 relu, 1-256x8-1 relu, 16-128x3-3 silu (the layers
#     plan's GEMMs in words: `spvgen mlp --variant layers --json`), every output of 256
#     sampled points checked against float64;
# (B) the run-time GEMM class the layers plan takes for the 256 -> 256 layer (coopmat2
#     128x256x32, edge branch) beside the fixed-shape kernel of the same knobs and the
#     run-time planner's own choice: is the class measurably slower than a fixed shape?
# (C) training on layers moved to call S7-LT (bench/results/raw/calls/callS7-LT.sh);
# (D) torch inference references in the same call: build-gpu/anchors/mlp_anchor.py (eager
#     and torch.compile) on the four networks.
# Every spvgen row starts from an empty driver cache and an empty spvgen cache (the
# "compile ms" column is the first compile). Runs from the repo root with build-gpu/ as
# the build directory; under 5 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS7-L || exit 1
O=${OUT:-/tmp/callS7-L}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
# a section starts only with this many seconds left of the call's 8 minutes
left() { [ $((SECONDS - T0)) -lt $((300 - $1)) ] || { echo "skipped: $2 (time)"; return 1; }; }
P=1048576
NETS=("--in 64 --hidden 256x3 --out 64 --act relu" "--in 32 --hidden 256x3 --out 16 --act relu"
      "--in 1 --hidden 256x8 --out 1 --act relu" "--in 16 --hidden 128x3 --out 3 --act silu")
# A. inference
for n in "${NETS[@]}"; do
  fresh
  echo "== A: $n" >> "$O/mlp.txt"
  "$B/tools/spvgen" mlp $n --variant layers --json 2>&1 | grep -E '"plan"|"gemms"|coopmat2 f16|khr f16|simt f16|layer_gemm' >> "$O/mlp.txt"
  left 140 "A $n" || continue
  timeout 75 "$B/tools/spvgen" bench mlp $n --variants layers,auto --points $P --sample 256 >> "$O/mlp.txt" 2>&1
  echo "rc=$?" >> "$O/mlp.txt"
  echo "A $n done ($((SECONDS - T0)) s)"
done
# B. the 256 -> 256 layer's GEMM: run-time class (the layers plan's) vs fixed shape
row() { # label, args...
  local l=$1; shift
  fresh
  echo "== B $l: $*" >> "$O/gemm.txt"
  timeout 60 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
G="--m $P --n 256 --k 256 --layout nt --bias column --act relu --types f16,f32,f16"
row B1-runtime-class $G --shapes runtime --pack none --split-k 1 --variant coopmat2 --tile 128x256x32 --edge branch \
  --n-multiple 256 --k-multiple 256 --ld-multiple 8
row B2-fixed-same    $G --variant coopmat2 --tile 128x256x32
row B3-runtime-own   $G --shapes runtime --pack none --split-k 1 --n-multiple 256 --k-multiple 256 --ld-multiple 8
echo "B done ($((SECONDS - T0)) s)"
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
grep -E '^== |"plan"|coopmat2 f16|khr f16|layer_gemm|^variant|^layers|^auto|^best|^net|rc=|rror' "$O/mlp.txt" | cut -c1-220
grep -E '^== |^plan|^pipeline|^gpu|^check|rc=|rror|refus' "$O/gemm.txt" | cut -c1-200
# D. torch inference, same call (before C: the ratio to torch.compile is the point)
printf '64 256x3 64 relu\n32 256x3 16 relu\n1 256x8 1 relu\n16 128x3 3 silu\n' > "$O/nets.txt"
left 100 "torch inference" && timeout 110 python3 "$B/anchors/mlp_anchor.py" "$O/nets.txt" > "$O/mlp-anchor.txt" 2>&1
echo "mlp anchor rc=$?"; cut -c1-200 "$O/mlp-anchor.txt" | tail -12
# C. training, 262,144 per batch
# (training on layers: call S7-LT, bench/results/raw/calls/callS7-LT.sh)
echo "done in $((SECONDS - T0)) s"
