#!/bin/bash
# Call S5-3 (session 5, main after the gemmbda merge): (1) every device-address GEMM GPU
# test (scripts/gpu-gemm-bda.sh: the tile moves over every layout/edge/batch form, one
# matrix over 2^31 elements); (2) descriptors against device addresses on ordinary shapes
# (gpu-gemm-bda.sh --speed); (3) the three vec structure-knob tests, each its own process,
# in parallel with (1) (they are compile-bound). Carry .gl and build-gpu. <= ~7 min.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
O=${OUT:-/tmp/callS5-3}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS5-3 || exit 1
export SPVGEN_GPU_REQUIRED=1
run1() { # bin test limit
  local c; c=$(mktemp -d)
  __GL_SHADER_DISK_CACHE_PATH=$c timeout "$3" "$B/tests/$1" "$2" > "$O/t-$2.txt" 2>&1
  echo "$2 exit $? $(grep -E '^[0-9]+ passed' "$O/t-$2.txt" | tail -1)" >> "$O/tests.txt"; rm -rf "$c"
}
for t in $("$B/tests/gpu_test_gpu_mlp" --list | grep structure); do run1 gpu_test_gpu_mlp "$t" 380 & done
OUT=$O timeout 330 bash scripts/gpu-gemm-bda.sh --speed --timeout 180 > "$O/gemm-bda.txt" 2>&1
echo "gemm-bda rc=$?"; grep -E "^(PASS|FAIL)|verdict|gpu-note|gpu-speed" "$O/gemm-bda.txt" | head -60
wait
cat "$O/tests.txt"
cd "$O" && tar cf tests.tar t-*.txt gemm-bda 2>/dev/null; rm -rf t-*.txt gemm-bda
