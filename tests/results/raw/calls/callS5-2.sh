#!/bin/bash
# Call S5-2 (session 5, main after the mlptrainbda merge): (1) every device-address MLP GPU
# test (scripts/gpu-gemm-bda.sh --mlp: inference incl. the one-5-GiB-buffer over-4 GB case,
# device-address training on vec, mat, loop); (2) every MLP training GPU test, each its own
# process with an empty driver cache (descriptor form through the reworked mlp_train_run);
# (3) the vec structure-knob inference test alone (over 185 s). From a tree whose build-gpu
# was staged by /work/notes/stage.sh; carry .gl and build-gpu. At most ~9 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
O=${OUT:-/tmp/callS5-2}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS5-2 || exit 1
export SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt" 2>&1
OUT=$O timeout 200 bash scripts/gpu-gemm-bda.sh --mlp --timeout 180 > "$O/mlp-bda.txt" 2>&1
echo "mlp-bda rc=$?"; grep -E "^(PASS|FAIL)|verdict|gpu-note" "$O/mlp-bda.txt" | head -30
run1() { # bin test limit
  local c; c=$(mktemp -d)
  __GL_SHADER_DISK_CACHE_PATH=$c timeout "$3" "$B/tests/$1" "$2" > "$O/t-$2.txt" 2>&1
  echo "$2 exit $? $(grep -E '^[0-9]+ passed' "$O/t-$2.txt" | tail -1)" >> "$O/tests.txt"; rm -rf "$c"
}
for t in $("$B/tests/gpu_test_gpu_mlp_train" --list); do run1 gpu_test_gpu_mlp_train "$t" 300 & done
run1 gpu_test_gpu_mlp test_mlp_vec_structure_knobs_matches_cpu 330 &
wait
cat "$O/tests.txt"
cd "$O" && tar cf tests.tar t-*.txt mlp-bda 2>/dev/null; rm -f t-*.txt
