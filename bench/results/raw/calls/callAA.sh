#!/bin/bash
# GPU call AA (session 6): training on the mat variant (KHR cooperative matrices). The GPU
# test (both networks, 65536 points, 256 slots, gradients/loss/optimizer vs float64), the
# lavapipe-emulation test run on the H100 (the emulated SPIR-V on NVIDIA; with 7 chunks
# per workgroup: debug hooks MTP/MTD/MTG of that session's working copy of the test),
# then bench_mlp_train (loop, vec, mat) next to bench/mlp_train_torch.py in this run.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 150 $B/tests/gpu_test_gpu_mlp_train mat > $OUT/gpu-mlp-train-mat.txt 2>&1; echo "mat train test rc=$? at $SECONDS s"; grep -E "passed|FAIL|\[train|summary|SKIP" $OUT/gpu-mlp-train-mat.txt | cut -c1-300
for dd in 7 6 1; do MTP=112 MTD=$dd MTG=1 timeout 60 $B/tests/mlp_test_mlp_mat_train_emulated test_mat_train_sample_network_emulated > $OUT/emu-$dd.txt 2>&1; echo "emu dbg $dd rc=$?"; grep -E "passed|FAIL|train" $OUT/emu-$dd.txt | cut -c1-250; done
timeout 60 $B/tests/mlp_test_mlp_mat_train_emulated > $OUT/emu-all.txt 2>&1; echo "emu all rc=$? at $SECONDS s"; grep -E "passed|FAIL|train" $OUT/emu-all.txt | cut -c1-250
timeout 150 $B/bench/bench_mlp_train > $OUT/mlp-train-bench.md 2>&1; echo "bench rc=$? at $SECONDS s"; cat $OUT/mlp-train-bench.md | cut -c1-250
timeout 90 python3 bench/mlp_train_torch.py > $OUT/mlp-train-torch.txt 2>&1; echo "torch rc=$?"; tail -8 $OUT/mlp-train-torch.txt
echo "== done at $SECONDS s"
