#!/bin/bash
# Compares spvgen plans with each other; the cuBLAS / torch / Triton references of this session ran in callF.sh, callG.sh, callI.sh and callL.sh.
# GPU call H (session 3): coopmat2 split-K on the device (correctness, a first speed look),
# what makes off-tile shapes slow (K tail / M,N edges / row stride, one at a time), then
# re-tuning the benchmark shapes with the 25 ms warm-up (GEMM, and the MLP networks with
# the inferencing-optimal weights) into one cache, exported for lib/tune/builtin.txt.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
echo "== split-K correctness at $SECONDS s"
timeout 120 $B/tests/gpu_test_gpu_gemm splitk > $OUT/gpu-splitk.txt 2>&1; echo "rc=$?"; tail -3 $OUT/gpu-splitk.txt; grep FAIL $OUT/gpu-splitk.txt | head -5
echo "== split-K speed at $SECONDS s"
for sk in 1 4; do for s in 4096,64,4096 256,256,16384; do IFS=, read m n k <<< "$s"; echo "-- $s split_k $sk"
  timeout 30 $B/tools/spvgen run gemm --m $m --n $n --k $k --types f16,f32 --variant coopmat2 --split-k $sk --warmup-ms 300 --repeats 20 --sample 256 2>&1 | grep -E "plan|gpu|check|error"; done; done 2>&1 | tee $OUT/splitk-speed.txt
echo "== off-tile isolation at $SECONDS s"
run() { echo "-- $*"; timeout 40 $B/tools/spvgen run gemm --types f16,f32 --variant coopmat2 --warmup-ms 300 --repeats 20 --sample 256 --stats "$@" 2>&1 | grep -E "plan|pipeline|stats|gpu|error" | cut -c1-150; }
{ run --m 3072 --n 3072 --k 3072
  run --m 3072 --n 3072 --k 3000
  run --m 3000 --n 3000 --k 3072
  run --m 3072 --n 3072 --k 3072 --lda 3080 --ldb 3080 --ldd 3080
  run --m 3071 --n 3072 --k 3072; } 2>&1 | tee $OUT/isolation.txt
echo "== GEMM tuning at $SECONDS s"
timeout 330 bash scripts/tune-shapes.sh --spvgen $B/tools/spvgen --cache $OUT/tune-run.txt --export $OUT/tune-entries.txt --budget 8 > $OUT/tune-gemm.txt 2>&1
echo "tune-shapes rc=$? at $SECONDS s"; grep -E "tune-summary|^== " $OUT/tune-gemm.txt | tail -30
echo "== MLP tuning at $SECONDS s"
timeout 40 $B/tools/spvgen tune mlp --in 32 --hidden 64x4 --out 16 --points 4194304 --weights optimal --budget 15 --cache $OUT/tune-run.txt 2>&1 | tail -8
timeout 40 $B/tools/spvgen tune mlp --in 8 --hidden 64x3 --out 8 --points 16777216 --weights optimal --budget 15 --cache $OUT/tune-run.txt 2>&1 | tail -8
$B/tools/spvgen tune export $OUT/tune-entries.txt --cache $OUT/tune-run.txt; echo "export rc=$? at $SECONDS s"; wc -l $OUT/tune-entries.txt
