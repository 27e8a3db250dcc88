#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s14/callS14-3/ and tests/results/raw/gpu-2026-11-27-s14/callS14-3-tests.txt (card and driver in smi.txt)
# First compiles: bench mlp's compile column and the tests' compiles (empty driver and spvgen caches per process)
# References: main's build in the same call (build-gpu/main/spvgen, c19e82e); torch for
# these networks is S14-2's (bench/results/raw/gpu-2026-11-27-s14/callS14-2/mlp-anchor.txt,
# not rerun); the float64 CPU reference for the tests.
# Call S14-3: S14-2 read 32-64x3-16 silu (AUTO: vec w32 opt) at 2.587 G points/s on the
# session's build against 8.869 on main, where S14-1 had the same form neutral on row-major
# weights. Repeated here, alternating builds, three times each, with the silu as
# x * sigmoid(x) instead of h + h tanh h (build-gpu/x3/spvgen, SPVGEN_EXP_SILU: an
# experiment), row-major and optimal weights; 32-64x3-16 sigmoid beside it. Then the new
# GPU test alone.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s14-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS14-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
mrow() { # name binary args...
  local name=$1 bin=$2; shift 2
  { echo "== $name: $bin bench mlp $*"; fresh timeout 60 $bin bench mlp --repeats 20 --sample 4096 "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/mlp-rows.txt"
  printf '%-22s %s\n' "$name" "$(grep -E '^(vec|mat|loop|layers|auto) |rc=|FAIL' "$O/cur.txt" | cut -c10-140 | tr '\n' ' ')"
}
N="--in 32 --hidden 64x3 --out 16 --points 4194304"
for i in 1 2 3; do
  mrow "silu main auto $i" build-gpu/main/spvgen $N --act silu --variants auto
  mrow "silu new auto $i" build-gpu/tools/spvgen $N --act silu --variants auto
  mrow "silu mul auto $i" "env SPVGEN_EXP_SILU=1 build-gpu/x3/spvgen" $N --act silu --variants auto
done
for w in row optimal; do
  mrow "silu main vec $w" build-gpu/main/spvgen $N --act silu --variants vec --weights $w
  mrow "silu new vec $w" build-gpu/tools/spvgen $N --act silu --variants vec --weights $w
  mrow "silu mul vec $w" "env SPVGEN_EXP_SILU=1 build-gpu/x3/spvgen" $N --act silu --variants vec --weights $w
  mrow "sigmoid main vec $w" build-gpu/main/spvgen $N --act sigmoid --variants vec --weights $w
  mrow "sigmoid new vec $w" build-gpu/tools/spvgen $N --act sigmoid --variants vec --weights $w
done
echo "A done $((SECONDS - T0)) s"
rm -f "$O/cur.txt"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  echo "== gpu_test_gpu_mlp sigmoid_silu"; timeout 100 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp sigmoid_silu; echo "rc=$?" ) > "$O/tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/tests.txt"
echo "total $((SECONDS - T0)) s"
