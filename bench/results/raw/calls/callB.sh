#!/bin/bash
# GPU call B: the new coopmat2 defaults and a few more tilings, then tuning of the
# benchmark shapes (scripts/tune-shapes.sh) into $OUT/tune-run.txt. No cuBLAS here: the
# table next to cuBLAS is call D (callD.sh).
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
S=build-gpu/tools/spvgen
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 500 > $OUT/clocks.csv &
SMI=$!
run() { # size types variant tile wg unroll
  echo "=== $*"
  timeout 40 $S run gemm --m $1 --n $1 --k $1 --types $2 --variant $3 ${4:+--tile $4} ${5:+--wg $5} ${6:+--unroll $6} --warmup-ms 400 --repeats 20 --sample 256 --stats 2>&1 | grep -E 'plan|gpu|Register|error|mismatch|FAIL' | head -8
}
{
run 8192 f16,f16 auto; run 8192 f16,f32 auto; run 8192 s8,s32 auto
run 4096 f16,f16 coopmat2 256x256x64 256 1; run 4096 f16,f16 coopmat2 256x256x64 256 4; run 4096 f16,f16 coopmat2 256x256x32 256 2
run 4096 f16,f32 coopmat2 128x256x32 256 2; run 4096 f16,f32 coopmat2 256x128x32 256 4
run 4096 s8,s32 coopmat2 256x128x128 256 1; run 4096 s8,s32 coopmat2 256x128x64 256 2; run 4096 s8,s32 coopmat2 128x128x64 256 4
run 4096 bf16,f32 auto; run 4096 u8,s32 auto
} 2>&1 | tee $OUT/sweep.txt
echo "sweep done at $SECONDS s"
OUT=$OUT timeout 420 bash scripts/tune-shapes.sh --budget 10 > $OUT/tune.txt 2>&1; echo "tune rc=$?"
grep tune-summary $OUT/tune.txt
$S tune export $OUT/tune-entries.txt --cache $OUT/tune-run.txt
echo "tune done at $SECONDS s"
kill $SMI
