#!/bin/bash
# GPU call D: MLP GPU tests (vec/mat/loop, training), bench_mlp next to mlp_anchor.py, the
# GEMM table with the steady warm-up (default vs tuned vs cuBLAS), the training benchmark
# next to torch, the mlp-fit-image sample, an off-tile isolation.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 500 > $OUT/clocks.csv &
SMI=$!
S=$PWD/build-gpu/tools/spvgen
t() { echo "--- $1 done at $SECONDS s"; }
timeout 80 build-gpu/tests/gpu_test_gpu_mlp > $OUT/mlp-test.txt 2>&1; echo "gpu_test_gpu_mlp rc=$?"; grep -E 'FAIL|passed|SKIP|gpu-summary' $OUT/mlp-test.txt | cut -c1-160 | tail -14; t mlp-test
timeout 60 build-gpu/tests/gpu_test_gpu_mlp_train > $OUT/mlp-train-test.txt 2>&1; echo "gpu_test_gpu_mlp_train rc=$?"; grep -E 'FAIL|passed|SKIP|summary' $OUT/mlp-train-test.txt | cut -c1-200 | tail -8; t mlp-train-test
timeout 120 build-gpu/bench/bench_mlp --anchor .anchors/mlp_anchor.py --md > $OUT/mlp-bench.md 2>&1; echo "bench_mlp rc=$?"; tail -16 $OUT/mlp-bench.md | cut -c1-200; t bench_mlp
timeout 200 build-gpu/bench/bench_gemm --anchor .anchors/gemm_anchor.py --cache /nonexistent/tune.txt \
  --shapes "8192,8192,8192;4096,4096,4096;3000,3000,3000;1000,1000,1000;512,512,512;8192,256,4096;256,8192,4096;16384,128,4096;128,16384,4096" \
  --repeats 20 --sample 256 --md > $OUT/gemm-table.md 2>&1; echo "bench_gemm rc=$?"; grep -E '^\| [0-9]|moving' $OUT/gemm-table.md | cut -c1-220; t gemm-table
timeout 45 build-gpu/bench/bench_mlp_train > $OUT/mlp-train-bench.md 2>&1; tail -6 $OUT/mlp-train-bench.md; timeout 60 python3 bench/mlp_train_torch.py > $OUT/mlp-train-torch.txt 2>&1; tail -6 $OUT/mlp-train-torch.txt; t train-bench
R=$PWD; (cd $OUT && timeout 40 $R/build-gpu/samples/mlp-fit-image > fit.txt 2>&1; echo "mlp-fit-image rc=$?"; tail -3 fit.txt); t fit-image
for s in "3072 3072 3072" "3000 3000 3000"; do set -- $s; echo "=== $s f16,f32"; timeout 30 $S run gemm --m $1 --n $2 --k $3 --types f16,f32 --warmup-ms 400 --repeats 20 --sample 256 --stats 2>&1 | grep -E 'plan|gpu|pipeline|Register'; done > $OUT/offtile.txt; cat $OUT/offtile.txt; t offtile
kill $SMI
