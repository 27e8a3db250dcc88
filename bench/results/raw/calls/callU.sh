#!/bin/bash
# GPU call U (session 5): bias_path add (MatrixMul + the bias loaded as a cooperative
# vector and added) against the fused MatrixMulAdd bias operand, on (a) and (b), pairs
# alternated to see the spread; the GPU test of bias add; then the MLP table with every
# vec-opt plan next to mlp_anchor.py (torch eager, torch.compile, Triton fused) in this run.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu; S=$B/tools/spvgen
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 100 $B/tests/gpu_test_gpu_mlp bias_add > $OUT/gpu-mlp-badd.txt 2>&1; echo "badd test rc=$? at $SECONDS s"; grep -E "passed|FAIL|\[vec" $OUT/gpu-mlp-badd.txt | cut -c1-200
RB="$S run mlp --in 8 --hidden 64x3 --out 8 --variant vec --weights optimal --points 4194304 --repeats 30 --warmup-ms 300"
RA="$S run mlp --in 32 --hidden 64x4 --out 16 --variant vec --weights optimal --points 4194304 --repeats 30 --warmup-ms 300"
for rep in 1 2; do
 for net in B A; do
  for k in "--bias-path fused" "--bias-path add" "--bias-path fused --points-per-group 2" "--bias-path add --points-per-group 2"; do
   R=RB; [ $net = A ] && R=RA
   echo "-- ($net) $k"; timeout 60 ${!R} $k 2>&1 | grep -E "^plan|^gpu|^check|TFLOP|error" | cut -c1-200
  done
 done
done
echo "== mlp table at $SECONDS s"
timeout 300 $B/bench/bench_mlp --variants vec-opt --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-table.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||^#   |FAIL" $OUT/mlp-table.md | cut -c1-200
echo "== done at $SECONDS s"
