#!/bin/bash
# Call S11-4 (the session's last build): first the split K loop's defaults once more
# (bench_gemm_shapes --set split, the session's build and main's 1f53321 binary, each in
# its own process with an empty driver cache: the planner now rolls the rest loop where
# the unrolled one does not fit the budget); then every GEMM GPU test (gpu_test_gpu_gemm,
# gpu_test_gpu_gemm_bda), every MLP training GPU test and the MLP inference tests of
# callS9-T.sh, each its own process with an empty driver cache and SPVGEN_GPU_REQUIRED=1
# (a skip fails), 14 at a time, line-buffered, against float64.
# References: cuBLAS (gemm_anchor.py) in the same call for the bench rows; float64 CPU
# references for the tests.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
O=${OUT:-/tmp/callS11-4}/s11-4; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS11-4 > /dev/null || exit 1
export SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
T0=$SECONDS
n=0
for bin in bench_gemm_shapes bench_gemm_shapes-main; do
  n=$((n + 1))
  anchor=(); [ $n = 1 ] && anchor=(--anchor "$B/anchors/gemm_anchor.py")
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    timeout 100 stdbuf -oL "$B/bench/$bin" --set split "${anchor[@]}" --deadline-s 80 > "$O/split-$n-$bin.txt" 2>&1
    echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/split-$n-$bin.txt" )
done
LIMIT=${LIMIT:-560}
: > "$O/tests.txt"
run_one() { # binary name limit
  local c s0=$SECONDS; c=$(mktemp -d)
  __GL_SHADER_DISK_CACHE_PATH=$c timeout "$3" stdbuf -oL -eL "$B/tests/$1" "$2" > "$O/t-$2.log" 2>&1
  echo "$1 $2 exit $? $((SECONDS - s0)) s: $(grep -E '^[0-9]+ passed' "$O/t-$2.log" | tail -1)" >> "$O/tests.txt"; rm -rf "$c"
}
list() { # the long ones first
  for bin in gpu_test_gpu_mlp_train gpu_test_gpu_gemm gpu_test_gpu_gemm_bda; do
    "$B/tests/$bin" --list | awk -v b=$bin '/every_plan|runtime_(branch|shift)|edge_(clamp|shift)_matches|coopmat2_matches|simt_splitk|khr_splitk|long_k|over_2_31|one_matrix|grid_networks|wide|layers/ { print 0, b, $0; next } { print 1, b, $0 }'
  done
  for t in test_mlp_chosen_plans_matches_cpu test_mlp_width_256_matches_cpu test_mlp_mat_stream_wide_matches_cpu test_mlp_layers_every_activation_matches_cpu test_mlp_kernels_h100_validation; do echo "1 gpu_test_gpu_mlp $t"; done
}
running=0
while read -r _ bin t; do
  left=$((LIMIT - (SECONDS - T0)))
  if [ $left -lt 30 ]; then echo "$bin $t not started (time)" >> "$O/tests.txt"; continue; fi
  [ $left -gt 300 ] && left=300
  run_one $bin "$t" $left &
  running=$((running + 1))
  if [ $running -ge 14 ]; then wait -n; running=$((running - 1)); fi
done < <(list | sort -s -k1,1n)
wait
sort "$O/tests.txt" -o "$O/tests.txt"
echo "passed: $(grep -c ' exit 0 ' "$O/tests.txt") of $(wc -l < "$O/tests.txt") in $((SECONDS - T0)) s" | tee "$O/summary.txt"
grep -v " exit 0 " "$O/tests.txt" | tee -a "$O/summary.txt"
for f in "$O"/t-*.log; do n=$(basename "$f" .log); n=${n#t-}; grep -q " $n exit 0 " "$O/tests.txt" || { echo "=== $n"; grep -E "FAIL|wrong|rror" "$f" | head -8 | cut -c1-240; }; done >> "$O/summary.txt"
cd "$O" && tar czf logs.tgz t-*.log && rm -f t-*.log
cd "$O/.." && tar czf s11-4.tgz s11-4 && rm -rf s11-4
