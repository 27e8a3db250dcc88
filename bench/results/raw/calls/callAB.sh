#!/bin/bash
# References: this session's torch figures (bench/mlp_train_torch.py, same-call with the training tables) are in raw/mlp-train-h100-2026-11-24ac-torch.txt, -ae-torch.txt and -ah-torch.txt; this call itself is correctness or stability only.
# GPU call AB (session 6): the mat training emulation (plain SPIR-V in place of the
# cooperative matrix instructions, tests/mlp/test_mlp_mat_train_emulated.c) run on the
# H100, for the configurations that fail on lavapipe with 7 or more chunks per
# workgroup (debug hooks MTP points, MTD case, MTG slots of that session's working copy).
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
for dd in 11 13 6 1; do for pp in 112 240; do MTP=$pp MTD=$dd MTG=1 timeout 60 $B/tests/mlp_test_mlp_mat_train_emulated test_mat_train_sample_network_emulated > $OUT/emu-$dd-$pp.txt 2>&1; echo "emu case $dd points $pp rc=$?"; grep -E "passed|FAIL|train" $OUT/emu-$dd-$pp.txt | cut -c1-250; done; done
timeout 120 $B/tests/mlp_test_mlp_mat_train_emulated > $OUT/emu-all.txt 2>&1; echo "emu all rc=$? at $SECONDS s"; grep -E "passed|FAIL|train" $OUT/emu-all.txt | cut -c1-250
echo "== done at $SECONDS s"
