#!/bin/bash
# Call S9-4: (A) training AUTO's held-form estimate, fitted on the H100 (call S9-1), checked
# on whichever card this call gets: four networks on mat and layers, 20 timed steps at
# 262,144 points after 10 untimed (`--no-check`; S9-1 checked these plans against float64),
# each row from an empty driver cache and an empty spvgen cache (its "compile" line is the
# first compile); the plan AUTO takes printed per network. (B) the f16 status rows of issue
# 24 on this card: 8192^3 and 3000^3 f16->f32 AUTO (`spvgen run gemm ... --sample 256
# --repeats 20`), with cuBLAS in the same call.
# References: torch training (bench/mlp_train_torch.py, eager and torch.compile) and cuBLAS
# (gemm_anchor.py), same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS9-4 > /dev/null || exit 1
O=${OUT:-/tmp/callS9-4}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
NETS=("32 128x4 32 relu" "64 64x8 64 relu" "64 160x3 64 relu" "16 128x3 16 relu")
flags() { set -- $1; echo "--in $1 --hidden $2 --out $3 --act $4"; }
for e in "${NETS[@]}"; do
  n=$(flags "$e")
  "$B/tools/spvgen" mlp $n --train --json 2>&1 | grep -E '"plan"|"selection"' >> "$O/train.txt"
  for v in mat layers; do
    fresh
    echo "== $v: $n" >> "$O/train.txt"
    timeout 40 "$B/tools/spvgen" run mlp $n --train --variant $v --points 262144 --steps 20 --warmup 10 --no-check \
      >> "$O/train.txt" 2>&1
    echo "rc=$?" >> "$O/train.txt"
  done
done
for s in "8192 8192 8192" "3000 3000 3000"; do
  set -- $s; fresh
  echo "== gemm $1x$2x$3 f16,f32" >> "$O/gemm.txt"
  timeout 60 "$B/tools/spvgen" run gemm --m $1 --n $2 --k $3 --types f16,f32 --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 60 python3 "$B/anchors/gemm_anchor.py" 8192,8192,8192 3000,3000,3000 > "$O/gemm-anchor.txt" 2>&1
NA=(); for e in "${NETS[@]}"; do NA+=(--net "$e"); done
timeout 120 python3 -u bench/mlp_train_torch.py --points 262144 --steps 20 --warmup 10 "${NA[@]}" > "$O/train-torch.txt" 2>&1
echo "done in $((SECONDS - T0)) s"
