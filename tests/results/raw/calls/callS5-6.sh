#!/bin/bash
# Call S5-6 (session 5, main 8d3ba14+: two-dispatch split-K merged with the device-address
# tile moves): every device-address GEMM GPU test (scripts/gpu-gemm-bda.sh, incl. split-K
# with D/C at ld 2^24 / 2^25 and one matrix over 2^31 elements) and the split-K GPU tests of
# gpu_test_gpu_gemm, each its own process with an empty driver cache. Carry .gl, build-gpu.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
O=${OUT:-/tmp/callS5-6}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS5-6 || exit 1
export SPVGEN_GPU_REQUIRED=1
run1() { local c; c=$(mktemp -d)
  __GL_SHADER_DISK_CACHE_PATH=$c timeout "$3" "$B/tests/$1" "$2" > "$O/t-$2.txt" 2>&1
  echo "$2 exit $? $(grep -E '^[0-9]+ passed' "$O/t-$2.txt" | tail -1)" >> "$O/tests.txt"; rm -rf "$c"; }
for t in $("$B/tests/gpu_test_gpu_gemm" --list | grep -E "splitk|prompt"); do run1 gpu_test_gpu_gemm "$t" 200 & done
OUT=$O timeout 300 bash scripts/gpu-gemm-bda.sh --timeout 240 > "$O/gemm-bda.txt" 2>&1
echo "gemm-bda rc=$?"; grep -E "^(PASS|FAIL)|verdict|gpu-note" "$O/gemm-bda.txt" | head -30
wait
cat "$O/tests.txt"
cd "$O" && tar cf tests.tar t-*.txt gemm-bda 2>/dev/null; rm -rf t-*.txt gemm-bda
