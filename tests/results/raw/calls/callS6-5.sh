#!/bin/bash
# Call S6-5 (session 6, main after the merges: small-grid run-time plans, pack AUTO on for
# misaligned coopmat2 shapes, the hash grid's spread pairs, mat's streamed form): every GEMM
# GPU test (gpu_test_gpu_gemm: the sweeps now plan pack AB wherever an operand is off 16
# bytes) and every device-address GEMM GPU test (gpu_test_gpu_gemm_bda), each its own
# process with an empty driver cache, 14 at a time, against float64.
# References: float64 CPU references (gemm_run); no external reference applies.
# Carry .gl and build-gpu. At most ~8 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
O=${OUT:-/tmp/callS6-5}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS6-5 || exit 1
export SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
T0=$SECONDS
: > "$O/tests.txt"
run_one() { # binary name limit
  local c s0=$SECONDS; c=$(mktemp -d)
  __GL_SHADER_DISK_CACHE_PATH=$c timeout "$3" "$B/tests/$1" "$2" > "$O/t-$2.log" 2>&1
  echo "$1 $2 exit $? $((SECONDS - s0)) s: $(grep -E '^[0-9]+ passed' "$O/t-$2.log" | tail -1)" >> "$O/tests.txt"; rm -rf "$c"
}
running=0
for bin in gpu_test_gpu_gemm gpu_test_gpu_gemm_bda; do
  for t in $("$B/tests/$bin" --list | awk '/every_plan|runtime_(branch|shift)|edge_(clamp|shift)_matches|coopmat2_matches|simt_splitk|over_2_31|one_matrix/ { print 0, $0; next } { print 1, $0 }' | sort -s -k1,1n | cut -d' ' -f2); do
    left=$((420 - (SECONDS - T0)))
    if [ $left -lt 30 ]; then echo "$bin $t not started (time)" >> "$O/tests.txt"; continue; fi
    [ $left -gt 240 ] && left=240
    run_one $bin "$t" $left &
    running=$((running + 1))
    if [ $running -ge 14 ]; then wait -n; running=$((running - 1)); fi
  done
done
wait
sort "$O/tests.txt" -o "$O/tests.txt"
echo "passed: $(grep -c ' exit 0 ' "$O/tests.txt") of $(wc -l < "$O/tests.txt") in $((SECONDS - T0)) s"
grep -v " exit 0 " "$O/tests.txt"
for f in "$O"/t-*.log; do n=$(basename "$f" .log); n=${n#t-}; grep -q " $n exit 0 " "$O/tests.txt" || { echo "=== $n"; grep -E "FAIL|wrong" "$f" | head -8 | cut -c1-240; }; done
cd "$O" && tar czf logs.tgz t-*.log && rm -f t-*.log
