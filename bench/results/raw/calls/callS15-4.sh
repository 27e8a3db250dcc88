#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s15/callS15-4/ (card and driver in smi.txt)
# First compiles: every `run mlp` process starts with an empty driver and spvgen cache (its driver compile line is a first compile); a bench_slowmode_mlp process compiles in its first trial and reuses that pipeline after
# References: the same measurements with the warm-up before the change (build-gpu/x/*_old: the S15-3 build, steadiness span 150 ms) in this call; torch for the networks: S15-1's figures (32-64x3-16 silu: eager 1.7893 ms, torch.compile 1.8626 ms; 64-16x1-1 sigmoid: eager 0.3389 ms, torch.compile 0.4188 ms, 4,194,304 points, H200), not rerun
# Call S15-4 (H200): the warm-up's steadiness span 150 -> 500 ms (tools/common/warm_up.c),
# against the build before it, in the same call: bench_slowmode_mlp --modes buffers (new
# sessions after seconds of GPU idle: 4 of 28 slow in S15-3), `run mlp` in fresh
# processes, the clocks logged.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s15-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS15-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,clocks_throttle_reasons.active --format=csv -lms 100 > "$O/clocks.csv" 2>&1 &
SMI=$!
for r in new-1 old-1 new-2; do
  bin=build-gpu/bench/bench_slowmode_mlp; [ ${r%-*} = old ] && bin=build-gpu/x/bench_slowmode_mlp_old
  echo "== $r: bench_slowmode_mlp --modes buffers --trials 14 --sample 256" >> "$O/slowmode.txt"
  fresh timeout 110 $bin --modes buffers --trials 14 --sample 256 >> "$O/slowmode.txt" 2>&1
  echo "rc=$?" >> "$O/slowmode.txt"
  echo "$r: $(sed -n '/^== '$r':/,$p' "$O/slowmode.txt" | grep -E '^trial' | awk '{printf "%s ", $4}') | $(sed -n '/^== '$r':/,$p' "$O/slowmode.txt" | grep -E '^summary|rc=' | tr '\n' ' ' | cut -c1-200)"
  echo "$r done $((SECONDS - T0)) s"
done
NET="--in 32 --hidden 64x3 --out 16 --act silu --variant vec --weights optimal --points 4194304"
for i in 1 2 3 4 5 6 7 8; do
  for b in new old; do
    [ $b = old ] && [ $i -gt 4 ] && continue
    bin=build-gpu/tools/spvgen; [ $b = old ] && bin=build-gpu/x/spvgen_old
    { echo "== $b-$i: run mlp $NET --sample 4096 --repeats 20"; fresh timeout 30 $bin run mlp $NET --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
    cat "$O/cur.txt" >> "$O/runmlp.txt"
    printf '%-7s %s\n' $b-$i "$(grep -E '^(gpu|emit)|rc=' "$O/cur.txt" | sed 's/.*driver compile/compile/' | cut -c1-60 | tr '\n' ' ')"
    sleep 2
  done
done
for i in 1 2 3; do
  { echo "== 64-16x1-1 new-$i"; fresh timeout 30 build-gpu/tools/spvgen run mlp --in 64 --hidden 16x1 --out 1 --act sigmoid --points 4194304 --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/runmlp.txt"
  printf '64-16x1-1 new-%s %s\n' $i "$(grep -E '^(gpu|emit)|rc=' "$O/cur.txt" | sed 's/.*driver compile/compile/' | cut -c1-60 | tr '\n' ' ')"
  sleep 2
done
kill $SMI 2>/dev/null
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
