#!/bin/bash
# GPU call E: the rows of call D's table that ran at idle clocks, re-timed with the warm-up
# that submits 25 ms of GPU work at a time, next to cuBLAS in the same call.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 250 > $OUT/clocks.csv &
SMI=$!
timeout 110 build-gpu/bench/bench_gemm --anchor .anchors/gemm_anchor.py --cache /nonexistent/tune.txt \
  --shapes "1000,1000,1000;16384,128,4096;128,16384,4096;3000,3000,3000" --repeats 20 --sample 256 --md > $OUT/gemm-table.md 2>&1
echo "bench_gemm rc=$? at $SECONDS s"; grep -E '^\| [0-9]|moving|cuBLAS' $OUT/gemm-table.md | cut -c1-220
kill $SMI
