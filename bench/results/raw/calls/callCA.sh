#!/bin/bash
# No cuBLAS, torch or Triton reference in this call: bench_slowmode compares spvgen with itself across trials; the nearest same-card cuBLAS figures are in ../../gemm-h200-2026-11-26.md. The driver's compile of the measured pipeline came from its warm cache (not a first compile).
# Call CA, 2026-11-26 10:20 UTC, H200 (the loan gave an H200): carried .gl and gpurun/ (stripped copies of build/bench/bench_slowmode, build/tools/spvgen, build/tests/{vk,threads}_test_*, build/tests/gpu_test_gpu_gemm at commit 0542982 + bench_slowmode).
# GPU call A (2026-11-26): runner change (own device table + loader lock) on the GPU, and
# the slow-mode search (bench_slowmode) with the clocks logged.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 250 > $OUT/smi.csv 2>&1 &
SMI=$!
G=gpurun
$G/spvgen devices | head -5
for t in $G/vk_test_* $G/threads_test_threads $G/threads_test_stress; do echo "== $t"; timeout 120 $t 2>&1 | tail -2; done
echo "== gpu_test_gpu_gemm"; SPVGEN_GPU_REQUIRED=1 timeout 200 $G/gpu_test_gpu_gemm _matches_cpu 2>&1 | tail -3
echo "== slowmode coopmat2 4096^3 f16,f32"
timeout 200 $G/bench_slowmode --shape 4096,4096,4096 --types f16,f32 --modes none,buffers,pipeline,context --trials 40 --repeats 20 > $OUT/slow1.txt 2>&1; grep -E "^#|summary|^slow" $OUT/slow1.txt
echo "== slowmode idle 4 s"
timeout 100 $G/bench_slowmode --shape 4096,4096,4096 --types f16,f32 --modes idle --trials 12 --idle-ms 4000 --warmup-ms 150 > $OUT/slow2.txt 2>&1; grep -E "summary|^slow" $OUT/slow2.txt
echo "== slowmode s8 128x16384x4096 + khr 2048x3584x3584"
timeout 120 $G/bench_slowmode --shape 128,16384,4096 --types s8,s32 --modes buffers,pipeline --trials 30 > $OUT/slow3.txt 2>&1; grep -E "^#|summary|^slow" $OUT/slow3.txt
timeout 120 $G/bench_slowmode --shape 2048,3584,3584 --types f16,f32 --variant khr --modes buffers,pipeline --trials 30 > $OUT/slow4.txt 2>&1; grep -E "^#|summary|^slow" $OUT/slow4.txt
kill $SMI
