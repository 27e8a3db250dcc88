#!/bin/bash
# GPU call A: coopmat2/KHR tiling experiments at 4096^3 with sustained warm-up, then the
# default table's remaining shapes next to cuBLAS.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
S=build-gpu/tools/spvgen
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 500 > $OUT/clocks.csv &
SMI=$!
run() { # types variant tile wg unroll
  echo "=== $*"
  timeout 40 $S run gemm --m 4096 --n 4096 --k 4096 --types $1 --variant $2 ${3:+--tile $3} ${4:+--wg $4} ${5:+--unroll $5} --warmup-ms 400 --repeats 20 --sample 256 --stats 2>&1 | grep -E 'plan|gpu|Register|Local|Shared|error|mismatch|FAIL' | head -8
}
{
for t in 128x256x64 128x256x32 128x256x16 256x256x32 256x256x16 256x128x32 128x128x32; do for u in 1 4; do run f16,f16 coopmat2 $t 256 $u; done; done
for t in 128x256x64 128x256x32 128x256x16 256x128x16 128x128x16; do for u in 1 4; do run f16,f32 coopmat2 $t 256 $u; done; done
for t in 128x256x128 128x256x64 128x256x32 256x256x64 256x128x64; do for u in 1 4; do run s8,s32 coopmat2 $t 256 $u; done; done
run s8,s32 khr; run f16,f16 khr; run f16,f32 khr
run s8,s32 khr 256x128x64 256; run s8,s32 khr 128x256x128 256; run f16,f16 khr 128x256x64 256
} 2>&1 | tee $OUT/sweep.txt
echo "sweep done at $SECONDS s"
timeout 330 build-gpu/tests/gpu_test_gpu_gemm coopmat2 > $OUT/cm2.txt 2>&1; echo "cm2 rc=$?"; tail -3 $OUT/cm2.txt
echo "cm2 done at $SECONDS s"
timeout 60 build-gpu/tests/gpu_test_gpu_mlp > $OUT/mlp.txt 2>&1; echo "mlp rc=$?"; tail -3 $OUT/mlp.txt
kill $SMI
