#!/bin/bash
# GPU call G (session 3): coopmat2 edge=shift (correctness, speed, registers) at off-tile
# shapes; the f32-accumulator skinny rows twice (run-to-run spread); the MLP table with
# the inferencing-optimal weights next to mlp_anchor.py (torch eager, torch.compile, Triton).
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 250 > $OUT/clocks.csv &
SMI=$!
B=build-gpu
echo "== edge shift correctness at $SECONDS s"
timeout 150 $B/tests/gpu_test_gpu_gemm test_gemm_coopmat2_edge_shift > $OUT/gpu-gemm-shift.txt 2>&1; echo "rc=$?"; tail -3 $OUT/gpu-gemm-shift.txt; grep FAIL $OUT/gpu-gemm-shift.txt | head -5
echo "== edge shift speed at $SECONDS s"
for s in 3000,3000,3000 1000,1000,1000 2999,3001,2000 5000,5000,5000; do for t in f16,f32 f16,f16 s8,s32; do
  IFS=, read m n k <<< "$s"
  echo "-- $s $t shift"
  timeout 40 $B/tools/spvgen run gemm --m $m --n $n --k $k --types $t --variant coopmat2 --edge shift --warmup-ms 400 --repeats 20 --sample 256 --stats 2>&1 | grep -E "plan|pipeline|stats|gpu|check|error" | cut -c1-160
done; done 2>&1 | tee $OUT/shift.txt
echo "== skinny f32-acc spread at $SECONDS s"
for r in 1 2; do for t in f16,f32 f16,f16; do echo "-- 16384x128x4096 $t run $r"
  timeout 30 $B/tools/spvgen run gemm --m 16384 --n 128 --k 4096 --types $t --warmup-ms 400 --repeats 20 --sample 256 2>&1 | grep -E "plan|gpu" ; done; done 2>&1 | tee $OUT/skinny.txt
echo "== bench_mlp at $SECONDS s"
timeout 200 $B/bench/bench_mlp --variants vec,vec-opt,mat,loop --anchor .anchors/mlp_anchor.py --md > $OUT/bench-mlp.md 2>&1; echo "rc=$? at $SECONDS s"; grep -E "^\||anchor" $OUT/bench-mlp.md | cut -c1-200
kill $SMI
