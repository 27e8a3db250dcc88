#!/bin/bash
# Compares spvgen plans with each other; the cuBLAS / torch / Triton references of this session ran in callN.sh (mlp_anchor.py), callR.sh (gemm_anchor.py) and callS.sh (mlp_anchor.py).
# Note: "stages 3" (u32 Workgroup arrays) was an uncommitted experiment build of emitters/gemm/coopmat2.c; it compiled to the same registers and speed as stages 2 and was dropped.
# GPU call P (session 4, experiment): does the Workgroup array's element type (f16 / u32 /
# u32x4) change the speed of workgroup-scope matrix loads? And the GEMM's stages 2 (u32x4
# arrays) against an experimental stages 3 (u32 arrays) at 8192^3.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu; S=$B/tools/spvgen
for l in shared shared-u32 shared-u32x4; do timeout 60 $B/bench/bench_coopmat_peak --types 'f16,f16;s8,s32' --tile 128x128x32:128x256x32 --load $l --stats 2>&1 | grep -v "^# bench"; done
R="$S run gemm --variant coopmat2"
timeout 60 $R --m 1000 --n 1100 --k 1024 --types f16,f32 --layout tt --tile 128x256x32 --stages 3 2>&1 | tail -1 | cut -c1-200
timeout 60 $R --m 1024 --n 1000 --k 2048 --types s8,s32 --layout nt --tile 256x128x64 --stages 3 2>&1 | tail -1 | cut -c1-200
for a in "--types f16,f16 --tile 128x256x32" "--types f16,f16 --tile 128x128x64" "--types s8,s32 --tile 256x128x64" "--types s8,s32 --tile 128x128x128"; do
  for st in 3 2; do
    for u in 4 1; do
    echo "-- $a stages $st unroll $u"; timeout 60 $R --m 8192 --n 8192 --k 8192 $a --stages $st --unroll $u --warmup-ms 300 --repeats 20 --sample 256 --stats 2>&1 | grep -E "^gpu|^stats|error|FAIL|spvgen" | cut -c1-160
    done
  done
done
echo "== done at $SECONDS s"
