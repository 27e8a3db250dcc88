#!/bin/bash
# Compares spvgen plans with each other; the cuBLAS / torch / Triton references of this session ran in callN.sh (mlp_anchor.py), callR.sh (gemm_anchor.py) and callS.sh (mlp_anchor.py).
# GPU call O (session 4): coopmat2 stages 2 (the kernel's own shared-memory staging):
# correctness on edges / layouts / types, then 8192^3 speed next to stages 1 in the same call.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
S=build-gpu/tools/spvgen
R="$S run gemm --variant coopmat2"
echo "== correctness (every element) at $SECONDS s"
for a in "--m 1024 --n 1024 --k 1000 --types f16,f16 --tile 128x256x32" \
         "--m 1000 --n 1100 --k 1024 --types f16,f32 --layout tt --tile 128x256x32" \
         "--m 777 --n 1024 --k 2048 --types f16,f32 --layout nt --tile 128x256x32 --beta 0.5 --bias row --act gelu" \
         "--m 1024 --n 999 --k 1040 --types f16,f16 --layout tn --tile 256x128x32" \
         "--m 1024 --n 1024 --k 1024 --types s8,s32 --tile 128x128x64" \
         "--m 1024 --n 1000 --k 2048 --types s8,s32 --layout nt --tile 256x128x64" \
         "--m 512 --n 512 --k 512 --types f16,f32 --tile 128x128x32"; do
  timeout 60 $R $a --stages 2 2>&1 | tail -2 | cut -c1-220; done
echo "== 8192^3 at $SECONDS s"
for a in "--types f16,f16 --tile 128x256x32" "--types f16,f16 --tile 256x128x32" "--types f16,f16 --tile 128x128x32" \
         "--types f16,f32 --tile 128x256x32" "--types f16,f32 --tile 128x128x32" \
         "--types s8,s32 --tile 256x128x64" "--types s8,s32 --tile 128x256x64" "--types s8,s32 --tile 128x128x64" "--types s8,s32 --tile 128x128x128"; do
  for st in 2 1; do
    echo "-- $a stages $st"; timeout 60 $R --m 8192 --n 8192 --k 8192 $a --stages $st --warmup-ms 300 --repeats 20 --sample 256 --stats 2>&1 | grep -E "TFLOP|TOP|stat|Register|error|FAIL|match|spvgen" | cut -c1-250
  done
done
echo "== done at $SECONDS s"
