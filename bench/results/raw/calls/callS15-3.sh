#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s15/callS15-3/ (card and driver in smi.txt)
# First compiles: every `run gemm` process starts with an empty driver and spvgen cache (its pipeline line is a first compile); a bench_slowmode_mlp process compiles in its first trial and reuses that pipeline after
# References: cuBLAS (gemm_anchor.py, the shapes of part B), this call; the slow mode: sessions of one process against each other; torch for its network (32-64x3-16 silu, 4,194,304 points): eager 1.7893 ms, torch.compile 1.8626 ms, measured in call S15-1 on an H200, not rerun
# Call S15-3 (H200, where the slow mode shows): (A) bench_slowmode_mlp --modes keep
# (new sessions kept open, every one measured again after the last) in two processes,
# the GPU's clocks logged (nvidia-smi -lms 100). (B) the main loop written unrolled by
# us and marked DontUnroll (--unroll U --codegen n) against the driver's own unrolling:
# first compile and speed.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s15-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS15-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 100 > "$O/A-clocks.csv" 2>&1 &
SMI=$!
for p in 1 2; do
  echo "== process $p: bench_slowmode_mlp --modes keep --trials 14 --sample 256" >> "$O/A-slowmode-keep.txt"
  fresh timeout 100 build-gpu/bench/bench_slowmode_mlp --modes keep --trials 14 --sample 256 >> "$O/A-slowmode-keep.txt" 2>&1
  echo "rc=$?" >> "$O/A-slowmode-keep.txt"
  sed -n '/^== process '$p':/,$p' "$O/A-slowmode-keep.txt" | grep -E '^(trial|again)' | awk '{printf "%s%s:%s ", substr($1,1,1), $3, $4} END {print ""}'
  sed -n '/^== process '$p':/,$p' "$O/A-slowmode-keep.txt" | grep -E '^(summary|slow)|rc='
done
kill $SMI 2>/dev/null
echo "A done $((SECONDS - T0)) s"
grow() { # name args...
  local name=$1; shift
  { echo "== $name: run gemm $*"; fresh timeout 50 build-gpu/tools/spvgen run gemm --sample 4096 --repeats 20 --stats "$@" 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/B-unroll.txt"
  printf '%-30s %s\n' "$name" "$(grep -E '^(plan|gpu|pipeline|stats)|rc=' "$O/cur.txt" | sed -e 's/Stack Size.*Shared Memory Size/shared/' -e 's/(the driver.s compile; the plan estimated/est/' -e 's/median of 20.*submissions[^)]*)//' | cut -c1-75 | tr '\n' ' ')"
}
S8="--m 8192 --n 8192 --k 8192 --types f16,f32 --tile 128x256x32"
grow "8192 default" --m 8192 --n 8192 --k 8192 --types f16,f32
for u in 1 2 4 8; do grow "8192 u$u" $S8 --unroll $u; grow "8192 u$u cg:n" $S8 --unroll $u --codegen n; done
S4="--m 4096 --n 4096 --k 4096 --types f16,f16"
grow "4096 f16 default" $S4
for u in 4 8; do grow "4096 f16 256x256 u$u cg:n" $S4 --tile 256x256x32 --unroll $u --codegen n; done
grow "3072x3008 default" --m 3072 --n 3072 --k 3008 --types f16,f32
grow "3072x3008 u4 cg:n" --m 3072 --n 3072 --k 3008 --types f16,f32 --tile 128x128x64 --unroll 4 --codegen n
echo "B done $((SECONDS - T0)) s"
timeout 60 python3 build-gpu/anchors/gemm_anchor.py 8192,8192,8192 4096,4096,4096 3072,3072,3008 > "$O/gemm-anchor.txt" 2>&1
tail -3 "$O/gemm-anchor.txt"
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
