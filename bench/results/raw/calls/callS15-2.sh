#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s15/callS15-2/ (card and driver in smi.txt)
# First compiles: every `run gemm` / `run mlp` process starts with an empty driver and spvgen cache (its pipeline / driver compile line is a first compile); a bench_slowmode_mlp process compiles in its first trial and reuses that pipeline after
# References: cuBLAS (gemm_anchor.py, the shapes of parts A and B), this call; torch training anchors for part D: cited from earlier calls, not rerun; the slow mode: sessions of one process against each other
# Call S15-2 (an H100: the issue's compile target is stated for it): (A) the K loop marked
# PartialCount N (an experiment: build-gpu/x/spvgen_px, experiments/exp-partial.diff,
# SPVGEN_EXP_PARTIAL=N; main loops of FIXED kernels and the run-time loop at unroll 1)
# against the driver's own unrolling and DontUnroll (--codegen n): first compile and speed.
# (B) the default plans' first compiles on the H100 for the issue's shapes. (C) the slow
# mode: bench_slowmode_mlp --modes keep (new sessions kept open, all measured again at the
# end) with the GPU's clocks logged (nvidia-smi -lms 100). (D) GPU tests of the vec
# training change and the vec training rate, main (0a7ae88) against the session's build.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s15-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS15-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
grow() { # file name bin partial args...
  local f=$1 name=$2 bin=$3 p=$4; shift 4
  local envs=(); [ "$p" != - ] && envs=(SPVGEN_EXP_PARTIAL=$p)
  { echo "== $name: $bin run gemm $* (SPVGEN_EXP_PARTIAL=$p)"; env "${envs[@]}" XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 50 $bin run gemm --sample 4096 --repeats 20 --stats "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/$f"
  printf '%-34s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline|stats)|rc=' "$O/cur.txt" | sed -e 's/Stack Size.*Shared Memory Size/shared/' -e 's/(the driver.s compile; the plan estimated/est/' -e 's/median of 20.*submissions[^)]*)//' | cut -c1-75 | tr '\n' ' ')"
}
N=build-gpu/tools/spvgen; X=build-gpu/x/spvgen_px
# A (part A ran alone first: PART=B skips it)
[ "${PART:-A}" = A ] && for s in "8192 8192 8192 --types f16,f32" "4096 4096 4096 --types f16,f16" "3072 3072 3008 --types f16,f32" "2049 3584 3584 --types f16,f32 --layout nt --shapes runtime --n-multiple 128 --ld-multiple 8"; do
  set -- $s; sh="--m $1 --n $2 --k $3"; shift 3; rest="$*"
  tag="${sh// /}"; tag=${tag//--m/}; tag=${tag//--n/x}; tag=${tag//--k/x}
  grow A-partial.txt "$tag driver" $N - $sh $rest
  for p in 2 4 8; do grow A-partial.txt "$tag partial $p" $X $p $sh $rest; done
  case "$rest" in *runtime*) ;; *) grow A-partial.txt "$tag dontunroll" $N - $sh $rest --codegen n;; esac
done
echo "A done $((SECONDS - T0)) s"
# B
for s in "4097 4095 4093 --types f16,f32" "3000 3000 3000 --types f16,f32" "3000 3000 3000 --types f16,f16" "3000 3000 3000 --types s8,s32" "257 3584 3584 --types f16,f32 --layout nt" "2048 3584 3584 --types f16,f32 --layout nt" "128 16384 4096 --types s8,s32"; do
  set -- $s; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3
  grow B-defaults.txt "$tag $*" $N - $sh "$@"
done
echo "B done $((SECONDS - T0)) s"
timeout 60 python3 build-gpu/anchors/gemm_anchor.py 8192,8192,8192 4096,4096,4096 3072,3072,3008 2049,3584,3584 4097,4095,4093 3000,3000,3000 257,3584,3584 2048,3584,3584 128,16384,4096 > "$O/gemm-anchor.txt" 2>&1
tail -11 "$O/gemm-anchor.txt"
# C
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 100 > "$O/C-clocks.csv" 2>&1 &
SMI=$!
fresh timeout 75 build-gpu/bench/bench_slowmode_mlp --modes keep --trials 12 --sample 256 > "$O/C-slowmode-keep.txt" 2>&1
echo "rc=$?" >> "$O/C-slowmode-keep.txt"
kill $SMI 2>/dev/null
grep -E '^(trial|again)' "$O/C-slowmode-keep.txt" | awk '{printf "%s%s:%s ", substr($1,1,1), $3, $4} END {print ""}'
grep -E '^(summary|slow)|rc=' "$O/C-slowmode-keep.txt"
echo "C done $((SECONDS - T0)) s"
# D
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  for t in train_vec grid_networks; do echo "== gpu_test_gpu_mlp_train $t"; timeout 150 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp_train $t; echo "rc=$?"; done
  echo "== gpu_test_gpu_mlp sigmoid_silu"; timeout 100 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp sigmoid_silu; echo "rc=$?" ) > "$O/D-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/D-tests.txt"
for net in "--in 16 --hidden 128x3 --out 3 --act silu" "--in 32 --hidden 64x3 --out 16 --act silu" "--in 3 --hidden 48x2 --out 1 --act sigmoid"; do
  for b in main new; do
    bin=build-gpu/main/spvgen; [ $b = new ] && bin=$N
    { echo "== D $b: run mlp $net --train --variant vec --points 262144 --steps 20 --warmup 10 --no-check"
      fresh timeout 40 $bin run mlp $net --train --variant vec --points 262144 --steps 20 --warmup 10 --no-check 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/D-train.txt"
    printf 'D %-4s %-45s %s\n' $b "$net" "$(grep -E '^(compile|gpu)|rc=' "$O/cur.txt" | sed "s/driver compile: //" | cut -c1-90 | tr '\n' ' ')"
  done
done
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
