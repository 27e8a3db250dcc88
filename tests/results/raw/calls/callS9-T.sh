#!/bin/bash
# Call S9-T (session 9, main after the session's merges: the transposing 8-bit pack, every
# activation in the GEMM epilogue, cache-aware planning, training AUTO): every GEMM GPU test
# (gpu_test_gpu_gemm, gpu_test_gpu_gemm_bda: sweeps, edge modes, run-time classes, split-K,
# long K, khr split-K, prompt lengths, packed plans, device addresses), every MLP training
# GPU test (gpu_test_gpu_mlp_train: AUTO = mat, layers with every activation, the hash
# grid, the grid networks on every variant) and the MLP inference tests whose plans the
# session's changes reach (the chosen plans, width 256, the streamed form), each its own
# process with an empty driver cache and SPVGEN_GPU_REQUIRED=1 (a skip fails), 14 at a time,
# against float64.
# References: float64 CPU references; no external reference applies.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
O=${OUT:-/tmp/callS9-T}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS9-T || exit 1
export SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
T0=$SECONDS
LIMIT=${LIMIT:-500}
: > "$O/tests.txt"
run_one() { # binary name limit
  local c s0=$SECONDS; c=$(mktemp -d)
  __GL_SHADER_DISK_CACHE_PATH=$c timeout "$3" "$B/tests/$1" "$2" > "$O/t-$2.log" 2>&1
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
echo "passed: $(grep -c ' exit 0 ' "$O/tests.txt") of $(wc -l < "$O/tests.txt") in $((SECONDS - T0)) s"
grep -v " exit 0 " "$O/tests.txt"
for f in "$O"/t-*.log; do n=$(basename "$f" .log); n=${n#t-}; grep -q " $n exit 0 " "$O/tests.txt" || { echo "=== $n"; grep -E "FAIL|wrong|rror" "$f" | head -8 | cut -c1-240; }; done
cd "$O" && tar czf logs.tgz t-*.log && rm -f t-*.log
