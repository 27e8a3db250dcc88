#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s14/callS14-1/ (card and driver in smi.txt)
# First compiles: bench mlp's compile column and run gemm's pipeline line (empty driver and spvgen caches per process)
# References: torch eager / torch.compile (bench/anchors/mlp_anchor_net.py, one process for
# the five networks) and cuBLAS (gemm_anchor.py; precompiled, no driver compile), this call.
# Call S14-1: (A) the vec variant's f16 sigmoid and silu in four forms, an experiment
# (build-gpu/x/spvgen, SPVGEN_EXP_SIG): unset = main's 1 / (1 + e^-x); tanh = 0.5 + 0.5
# tanh(x / 2) on the cooperative-vector Tanh (silu: h + h tanh h, h = x / 2); f32 = the
# same Exp and division on an f32 copy of the vector; exponly = e^-x alone (wrong values:
# it prices the Exp without the division). (B) a run-time class of one K at short K
# with and without edges: 1,048,576 x 256 x 256 and 262,144 x 256 x 128 nt, bias and relu,
# --m-multiple / --n-multiple 128 (no edges) against the fixed shape and --m-multiple 128
# alone (N edges), main's build (build-gpu/main/spvgen).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s14-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS14-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
grow() { # name args...
  local name=$1; shift
  { echo "== $name: run gemm $*"; fresh timeout 60 build-gpu/main/spvgen run gemm --sample 4096 --repeats 20 "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/gemm-rows.txt"
  printf '%-34s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline)|rc=' "$O/cur.txt" | cut -c1-80 | tr '\n' ' ')"
}
E="--layout nt --types f16,f32,f16 --bias column --act relu"
R="--shapes runtime --n-multiple 8 --ld-multiple 8 --k-fixed"
for s in "1048576 256 256" "262144 256 128"; do
  set -- $s
  grow "$1x$2x$3 fixed" --m $1 --n $2 --k $3 $E
  grow "$1x$2x$3 k-fixed m128" --m $1 --n $2 --k $3 $E $R --m-multiple 128
  grow "$1x$2x$3 k-fixed m128 n128" --m $1 --n $2 --k $3 $E $R --m-multiple 128 --n-multiple 128
  grow "$1x$2x$3 k-fixed m128 n128 ld256" --m $1 --n $2 --k $3 $E --shapes runtime --k-fixed --m-multiple 128 --n-multiple 128 --ld-multiple 256
done
echo "B done $((SECONDS - T0)) s"
NETS=(
  "n1	--in 8 --hidden 32x1 --out 8 --act sigmoid	4194304"
  "n2	--in 32 --hidden 64x3 --out 16 --act sigmoid	4194304"
  "n3	--in 32 --hidden 64x3 --out 16 --act silu	4194304"
  "n4	--in 16 --hidden 128x3 --out 3 --act silu	2097152"
  "n5	--in 3 --hidden 48x2 --out 1 --act sigmoid	4194304"
)
for line in "${NETS[@]}"; do
  IFS=$'\t' read -r name flags pts <<< "$line"
  for f in unset tanh f32 exponly; do
    if [ $f = unset ]; then envs=(); else envs=(SPVGEN_EXP_SIG=$f); fi
    { echo "== $name $f: bench mlp $flags --points $pts --variants vec"
      env "${envs[@]}" XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 90 build-gpu/x/spvgen bench mlp $flags --points $pts --variants vec --repeats 20 --sample 4096 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/mlp-rows.txt"
    printf '%-4s %-8s %s\n' $name $f "$(grep -E '^vec |rc=|wrong|FAIL|error' "$O/cur.txt" | cut -c1-150 | tr '\n' ' ')"
  done
done
echo "A done $((SECONDS - T0)) s"
printf '%s\n' "${NETS[@]}" > "$O/nets.tsv"
timeout 240 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 230 > "$O/mlp-anchor.txt" 2>&1
grep -E '^anchor|skipped' "$O/mlp-anchor.txt"
timeout 40 python3 build-gpu/anchors/gemm_anchor.py 1048576,256,256 262144,256,128 > "$O/gemm-anchor.txt" 2>&1
tail -4 "$O/gemm-anchor.txt"
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
