#!/bin/bash
# GPU call F (session 3): MLP vec with inferencing-optimal weights (correctness + speed),
# coopmat2 edge=clamp (correctness + speed at off-tile shapes), and the rows of the GEMM
# table that ran at idle clocks, re-timed with the 25 ms warm-up next to cuBLAS.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 250 > $OUT/clocks.csv &
SMI=$!
B=build-gpu
echo "== gpu_test_gpu_mlp at $SECONDS s"
timeout 90 $B/tests/gpu_test_gpu_mlp > $OUT/gpu-mlp.txt 2>&1; echo "rc=$?"; grep -E "passed|FAIL|\[vec" $OUT/gpu-mlp.txt | cut -c1-200
echo "== bench_mlp vec,vec-opt at $SECONDS s"
timeout 90 $B/bench/bench_mlp --variants vec,vec-opt --all-plans --md > $OUT/bench-mlp.md 2>&1; echo "rc=$?"; cut -c1-200 $OUT/bench-mlp.md
echo "== edge clamp correctness at $SECONDS s"
timeout 120 $B/tests/gpu_test_gpu_gemm test_gemm_coopmat2_edge_clamp > $OUT/gpu-gemm-edge.txt 2>&1; echo "rc=$?"; tail -3 $OUT/gpu-gemm-edge.txt
echo "== edge speed at $SECONDS s"
for s in 3000 1000; do for t in f16,f32 f16,f16 s8,s32; do for e in clamp branch; do
  [ $e = branch ] && [ $s = 3000 ] && [ $t != f16,f32 ] && continue
  echo "-- $s $t $e"
  timeout 60 $B/tools/spvgen run gemm --m $s --n $s --k $s --types $t --variant coopmat2 --edge $e --warmup-ms 400 --repeats 20 --sample 256 --stats 2>&1 | tail -8
done; done; done > $OUT/edge.txt 2>&1
cat $OUT/edge.txt | cut -c1-200
echo "== gemm table rows at $SECONDS s"
timeout 150 $B/bench/bench_gemm --anchor .anchors/gemm_anchor.py --cache /nonexistent/tune.txt \
  --shapes "1000,1000,1000;16384,128,4096;128,16384,4096;3000,3000,3000" --repeats 20 --sample 256 --md > $OUT/gemm-table.md 2>&1
echo "bench_gemm rc=$? at $SECONDS s"; grep -E '^\| [0-9]|cuBLAS' $OUT/gemm-table.md | cut -c1-220
kill $SMI
