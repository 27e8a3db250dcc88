#!/bin/bash
# GPU call AE (session 6): the mat gradient kernel with the slot updates unrolled (all
# loads, then the stores: call AC's slow runs looked latency-bound on a load-add-store
# loop). The GPU training test (loop, vec, mat vs float64), the emulation on the H100,
# then the full bench_mlp_train table, 4 fresh mat runs per network, the mat sweep, and
# bench/mlp_train_torch.py, all in this run.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 200 $B/tests/gpu_test_gpu_mlp_train > $OUT/gpu-mlp-train.txt 2>&1; echo "train test rc=$? at $SECONDS s"; grep -E "passed|FAIL|\[train|summary|SKIP" $OUT/gpu-mlp-train.txt | cut -c1-300
timeout 60 $B/tests/mlp_test_mlp_mat_train_emulated > $OUT/emu-all.txt 2>&1; echo "emu rc=$? at $SECONDS s"; grep -E "passed|FAIL|train" $OUT/emu-all.txt | cut -c1-250
timeout 150 $B/bench/bench_mlp_train > $OUT/mlp-train-bench.md 2>&1; echo "bench rc=$? at $SECONDS s"; cat $OUT/mlp-train-bench.md | cut -c1-250
timeout 100 $B/bench/bench_mlp_train --mat-repeat 4 > $OUT/mat-repeat.md 2>&1; echo "repeat rc=$? at $SECONDS s"; grep "run" $OUT/mat-repeat.md | cut -c1-200
timeout 90 python3 bench/mlp_train_torch.py > $OUT/mlp-train-torch.txt 2>&1; echo "torch rc=$?"; grep "|" $OUT/mlp-train-torch.txt
timeout 150 $B/bench/bench_mlp_train --mat-sweep 1 > $OUT/mlp-train-sweep.md 2>&1; echo "sweep rc=$? at $SECONDS s"; grep "mat" $OUT/mlp-train-sweep.md | cut -c1-200
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
echo "== done at $SECONDS s"
