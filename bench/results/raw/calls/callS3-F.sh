#!/bin/bash
# Call F (2026-11-26): after the mat-training fix: the MLP training GPU tests, the hash
# grid beside its torch implementation (the torch.compile anchor alone takes ~1 minute),
# three-network training beside torch. <= 7 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callF}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/summary.txt"
(c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 200 "$B/tests/gpu_test_gpu_mlp_train" > "$O/test-mlp-train.txt" 2>&1; echo "gpu_test_gpu_mlp_train exit $?" >> "$O/test-mlp-train.txt") &
export __GL_SHADER_DISK_CACHE=0
timeout 200 stdbuf -oL "$B/bench/bench_mlp_hashgrid" --anchor bench/anchors/mlp_anchor_net.py > "$O/hashgrid.txt" 2>&1
echo "hashgrid: exit $? at $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
timeout 150 stdbuf -oL "$B/bench/bench_mlp_train" --grid3 --points 262144 --steps 5 --warmup 2 --anchor bench/anchors/mlp_anchor_net.py > "$O/train3.txt" 2>&1
echo "train3: exit $? at $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
wait
tail -3 "$O/test-mlp-train.txt" >> "$O/summary.txt"
echo "== done in $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
