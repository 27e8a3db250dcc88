#!/bin/bash
# References: torch eager and torch.compile (bench/anchors/mlp_anchor_net.py) in the same run, for the training networks and the hash grid; first compiles: each row's pipeline create time in train3.txt / hashgrid.txt (the driver's disk cache is off in gpu-mlp.sh).
# Call S4-G (session 4): the MLP training and hash-grid figures after the optimizer's
# strided sums, the training GPU tests and the loop variant's wide networks on the GPU
# (scripts/gpu-mlp.sh), and, beside the tests step only, the vec structure-knob test
# (vec's staged piece loop inside the layer loop now restarts its counter). ~8 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
O=${OUT:-/tmp/callG}; mkdir -p "$O"
( c=$(mktemp -d); SPVGEN_GPU_REQUIRED=1 __GL_SHADER_DISK_CACHE_PATH=$c timeout 185 "$B/tests/gpu_test_gpu_mlp" \
    test_mlp_vec_structure_knobs_matches_cpu > "$O/vec-structure.txt" 2>&1; echo "exit $?" >> "$O/vec-structure.txt" ) &
timeout 560 bash scripts/gpu-mlp.sh --only tests,train,hashgrid --tests gpu_test_gpu_mlp_train,mlp_test_mlp_run --wall 400 > "$O/run.txt" 2>&1
wait
tail -3 "$O/vec-structure.txt"
tail -45 "$O/gpu-mlp.log" 2>/dev/null || tail -45 "$O/run.txt"
