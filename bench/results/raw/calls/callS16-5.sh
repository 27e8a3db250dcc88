#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s16/callS16-5/ (card and driver in smi.txt)
# First compiles: every process starts with an empty driver and spvgen cache; the tuner's table lists each candidate's pipeline build (its compile column)
# References: main at 1a60f6a (build-gpu/main/spvgen, the tuner's fixed 500 ms warm-up) in the same call; cuBLAS and torch not run (the call compares the two warm-ups on the same kernels)
# (As run, the tune caches were written under $OUT, which crowded the call's own outputs out of
# what came back; the caches now go to temporary directories.)
# Call S16-5: one warm-up in the runner (spvgen_vk_warm_up) for the tuner and the tools.
# The tuner before (a fixed 500 ms of back-to-back batches before each candidate) and
# after (at least 500 ms and until two full batches 500 ms apart agree), interleaved, on a
# GEMM and an MLP; and the tools' warm-up through the runner (bench_slowmode_mlp, whose
# trials open sessions after idle seconds, the slow mode of session 15).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s16-5}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS16-5 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
for rep in 1 2; do
  for b in main new; do
    bin=$B/tools/spvgen; [ $b = main ] && bin=$B/main/spvgen
    { echo "== tune gemm $b rep$rep"; t0=$(date +%s.%N); fresh timeout 100 $bin tune gemm --m 4096 --n 4096 --k 4096 --types f16,f32 --budget 60 --cache "$(mktemp -d)/tune.txt" 2>&1; echo "rc=$? wall $(python3 -c "print(round($(date +%s.%N) - $t0, 2))") s"; } > "$O/cur.txt" 2>&1
    cat "$O/cur.txt" >> "$O/tune-gemm.txt"
    echo "gemm $b r$rep: $(grep -E -i 'best|stored|rc=' "$O/cur.txt" | cut -c1-140 | tr '\n' ' ')"
    { echo "== tune mlp $b rep$rep"; t0=$(date +%s.%N); fresh timeout 100 $bin tune mlp --in 32 --hidden 64x4 --out 16 --points 1048576 --budget 60 --cache "$(mktemp -d)/tune.txt" 2>&1; echo "rc=$? wall $(python3 -c "print(round($(date +%s.%N) - $t0, 2))") s"; } > "$O/cur.txt" 2>&1
    cat "$O/cur.txt" >> "$O/tune-mlp.txt"
    echo "mlp  $b r$rep: $(grep -E -i 'best|stored|rc=' "$O/cur.txt" | cut -c1-140 | tr '\n' ' ')"
  done
done
rm -f "$O/cur.txt"
echo "tune done $((SECONDS - T0)) s"
timeout 120 stdbuf -oL $B/bench/bench_slowmode_mlp --modes buffers --trials 10 > "$O/slowmode-mlp.txt" 2>&1
echo "slowmode rc=$?"; tail -6 "$O/slowmode-mlp.txt"
echo "total $((SECONDS - T0)) s"
