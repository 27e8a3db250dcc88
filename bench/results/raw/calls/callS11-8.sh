#!/bin/bash
# Call S11-8: packed plans store behind the branch where it fits the budget (the plan
# takes edge branch for a FIXED coopmat2 plan with both operands packed, edge left to the
# plan, once the variant is chosen). First the GPU tests of packed plans and of K loops
# (gpu_test_gpu_gemm pack_matches, pack_big, k_loop_and_192_tiles; SPVGEN_GPU_REQUIRED=1,
# empty driver cache, float64 references); then 3000^3 AUTO with --compile-budget 1000
# and at the default budget (`spvgen run gemm`, empty caches per row); then
# bench_gemm_shapes --set random with main's binary and the session's build.
# References: cuBLAS (gemm_anchor.py) in the same call; float64 CPU references. First
# compiles: each row's `pipeline` line / the bench's compile column.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS11-8 > /dev/null || exit 1
O=${OUT:-/tmp/callS11-8}/s11-8; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
for t in test_gemm_coopmat2_pack_matches_cpu test_gemm_coopmat2_pack_big_matches_cpu test_gemm_coopmat2_k_loop_and_192_tiles_matches_cpu; do
  ( c=$(mktemp -d); SPVGEN_GPU_REQUIRED=1 __GL_SHADER_DISK_CACHE_PATH=$c timeout 150 stdbuf -oL -eL "$B/tests/gpu_test_gpu_gemm" $t > "$O/test-$t.txt" 2>&1
    echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/test-$t.txt" ) &
done
wait
cat "$O"/test-*.txt > "$O/tests.txt"; rm -f "$O"/test-*.txt
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() { # TIMED_KERNEL args...
  fresh
  local tk=$1; shift
  echo "== [time: ${tk:-plan}] $*" >> "$O/gemm.txt"
  SPVGEN_TIME_KERNEL=$tk timeout 60 stdbuf -oL "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
for t in f16,f32 f16,f16; do
  row "" --m 3000 --n 3000 --k 3000 --types $t --compile-budget 1000
done
(
export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 100 python3 "$B/anchors/gemm_anchor.py" 3000,3000,3000 > "$O/gemm-anchor.txt" 2>&1
)
n=0
for bin in bench_gemm_shapes-main bench_gemm_shapes; do
  n=$((n + 1))
  anchor=(); [ $n = 2 ] && anchor=(--anchor "$B/anchors/gemm_anchor.py")
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    timeout 160 stdbuf -oL "$B/bench/$bin" --set random "${anchor[@]}" --deadline-s 140 > "$O/random-$n-$bin.txt" 2>&1
    echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/random-$n-$bin.txt" )
done
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s11-8.tgz s11-8 && rm -rf s11-8
