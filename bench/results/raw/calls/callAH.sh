#!/bin/bash
# GPU call AH (session 6): the final mat gradient kernel: the unrolled slot updates with
# each load under its own condition (no load of an element the invocation does not own).
# GPU training test (loop, vec, mat vs float64), then bench_mlp_train's table, 4 fresh
# mat runs per network and bench/mlp_train_torch.py, all in this run; the sample.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu; R=$PWD
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 150 $B/tests/gpu_test_gpu_mlp_train > $OUT/gpu-mlp-train.txt 2>&1; echo "train test rc=$? at $SECONDS s"; grep -E "passed|FAIL|summary|\[train mat" $OUT/gpu-mlp-train.txt | cut -c1-220
timeout 100 $B/bench/bench_mlp_train --mat-repeat 4 > $OUT/mat-repeat.md 2>&1; echo "repeat rc=$? at $SECONDS s"; grep "run" $OUT/mat-repeat.md | cut -c1-200
timeout 150 $B/bench/bench_mlp_train > $OUT/mlp-train-bench.md 2>&1; echo "bench rc=$? at $SECONDS s"; grep "|" $OUT/mlp-train-bench.md | cut -c1-200
timeout 90 python3 bench/mlp_train_torch.py > $OUT/mlp-train-torch.txt 2>&1; echo "torch rc=$?"; grep "|" $OUT/mlp-train-torch.txt
(cd $OUT && timeout 60 $R/$B/samples/mlp-fit-image > fit.txt 2>&1; echo "mlp-fit-image rc=$?"; tail -3 fit.txt)
echo "== done at $SECONDS s"
