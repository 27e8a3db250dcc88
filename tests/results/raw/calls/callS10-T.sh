#!/bin/bash
# Call S10-T: the layers variant's GPU tests after the merge of s10-layers (call S10-LY's
# test step ran past its 40 s timeout with its output unflushed): inference with every
# activation (20,011 points) and layers training (8,253 points), every output, gradient and
# optimizer value against float64.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS10-T > /dev/null || exit 1
O=${OUT:-/tmp/callS10-T}/s10-t; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
T0=$SECONDS
SPVGEN_GPU_REQUIRED=1 timeout ${LIMIT:-120} stdbuf -oL -eL "$B/tests/gpu_test_gpu_mlp" test_mlp_layers_every_activation_matches_cpu > "$O/gpu-mlp.txt" 2>&1
echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/gpu-mlp.txt"
SPVGEN_GPU_REQUIRED=1 timeout ${LIMIT:-120} stdbuf -oL -eL "$B/tests/gpu_test_gpu_mlp_train" test_mlp_train_layers_matches_cpu > "$O/gpu-train.txt" 2>&1
echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/gpu-train.txt"
cd "$O/.." && tar czf s10-t.tgz s10-t && rm -rf s10-t
