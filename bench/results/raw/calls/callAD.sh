#!/bin/bash
# References: this session's torch figures (bench/mlp_train_torch.py, same-call with the training tables) are in raw/mlp-train-h100-2026-11-24ac-torch.txt, -ae-torch.txt and -ah-torch.txt; this call itself is correctness or stability only.
# GPU call AD (session 6): the mat training kernel's bimodal timings (call AC: the same
# plan 0.28-0.41 ms in one run, 1.3-1.9 ms in another): 8 fresh runs per network (new
# buffers; seeds 1,1,2,2,3,3,4,4), then again with 512 slots, next to the loop variant.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 200 $B/bench/bench_mlp_train --mat-repeat 8 > $OUT/mat-repeat.md 2>&1; echo "repeat rc=$? at $SECONDS s"; cat $OUT/mat-repeat.md | cut -c1-200
timeout 200 $B/bench/bench_mlp_train --mat-repeat 8 --steps 200 > $OUT/mat-repeat-200.md 2>&1; echo "repeat 200 steps rc=$? at $SECONDS s"; cat $OUT/mat-repeat-200.md | cut -c1-200
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
echo "== done at $SECONDS s"
