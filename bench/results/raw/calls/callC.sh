#!/bin/bash
# GPU call C: the benchmark table, default vs tuned (compiled-in H100 entries) vs cuBLAS,
# then the emission benchmark on one core of the GPU host.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 500 > $OUT/clocks.csv &
SMI=$!
git log -1 --format='commit %h %s' 2>/dev/null | cut -c1-80
lscpu | grep -E 'Model name|^CPU\(s\)' > $OUT/emit.txt
taskset -c 3 build-gpu/bench/bench_emit_gemm 2000 >> $OUT/emit.txt 2>&1; cat $OUT/emit.txt
echo "emit done at $SECONDS s"
timeout 540 build-gpu/bench/bench_gemm --anchor .anchors/gemm_anchor.py --cache /nonexistent/tune.txt \
  --shapes "8192,8192,8192;4096,4096,4096;3000,3000,3000;1000,1000,1000;512,512,512;8192,256,4096;256,8192,4096;16384,128,4096;128,16384,4096" \
  --repeats 20 --sample 256 --md 2>&1 | tee $OUT/gemm-table.md
echo "table done at $SECONDS s"
kill $SMI
