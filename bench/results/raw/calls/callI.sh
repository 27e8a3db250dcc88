#!/bin/bash
# GPU call I (session 3): coopmat2 split-K correctness, the renamed cooperative tests, the
# GEMM table (default vs the re-tuned compiled-in entries vs cuBLAS, same call), the K-tail
# check, and emission time on this host's CPU.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
echo "== emission on one core at $SECONDS s"; lscpu | grep "Model name"
taskset -c 3 $B/bench/bench_emit_gemm 2000 2>&1 | tail -12 | tee $OUT/emit-gemm.txt
taskset -c 3 $B/bench/bench_emit_mlp 500 2>&1 | tail -10 | tee $OUT/emit-mlp.txt
echo "== cooperative tests at $SECONDS s"
for t in gpu_test_gpu_coopvec gpu_test_gpu_coopmat_khr gpu_test_gpu_coopmat2_tensor gpu_test_gpu_mlp_train; do
  timeout 60 $B/tests/$t > $OUT/$t.txt 2>&1; echo "$t rc=$? $(tail -1 $OUT/$t.txt)"; done
echo "== coopmat2 split-K correctness at $SECONDS s"
timeout 200 $B/tests/gpu_test_gpu_gemm coopmat2_splitk > $OUT/gpu-splitk.txt 2>&1; echo "rc=$?"; tail -3 $OUT/gpu-splitk.txt; grep FAIL $OUT/gpu-splitk.txt | head -5
echo "== K tail at $SECONDS s"
for k in 3008 3000; do timeout 30 $B/tools/spvgen run gemm --m 3072 --n 3072 --k $k --types f16,f32 --warmup-ms 300 --repeats 20 --sample 256 2>&1 | grep -E "plan|gpu"; done | tee $OUT/ktail.txt
echo "== GEMM table at $SECONDS s"
timeout 280 $B/bench/bench_gemm --anchor .anchors/gemm_anchor.py --cache /nonexistent/tune.txt \
  --shapes "8192,8192,8192;4096,4096,4096;3000,3000,3000;1000,1000,1000;512,512,512;8192,256,4096;256,8192,4096;16384,128,4096;128,16384,4096" \
  --repeats 20 --sample 256 --md > $OUT/gemm-table.md 2>&1
echo "bench_gemm rc=$? at $SECONDS s"; grep -E '^\| [0-9]|cuBLAS|moving' $OUT/gemm-table.md | cut -c1-230
