#!/bin/bash
# Compares spvgen plans with each other; the cuBLAS / torch / Triton references of this session ran in callN.sh (mlp_anchor.py), callR.sh (gemm_anchor.py) and callS.sh (mlp_anchor.py).
# Note: "stages 3" and "stages 4" here were an uncommitted experiment build (see raw/gemm-h100-2026-11-23q-staging.txt); both were dropped.
# GPU call Q (session 4, experiment, uncommitted build): the staged coopmat2 K step with
# the next step's fetch after the shared-memory matrix loads ("stages 3") and double-
# buffered with one barrier per step ("stages 4"), against stages 2 and 1.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
S=build-gpu/tools/spvgen; R="$S run gemm --variant coopmat2"
timeout 60 $R --m 1000 --n 1100 --k 1040 --types f16,f32 --layout tt --tile 128x128x32 --stages 4 2>&1 | tail -1 | cut -c1-200
timeout 60 $R --m 1024 --n 1000 --k 2048 --types s8,s32 --layout nt --tile 128x128x64 --stages 4 2>&1 | tail -1 | cut -c1-200
timeout 60 $R --m 1000 --n 1100 --k 1040 --types f16,f16 --layout nn --tile 128x256x32 --stages 3 2>&1 | tail -1 | cut -c1-200
for a in "--types f16,f16 --tile 128x256x32 --stages 3" "--types f16,f16 --tile 128x128x32 --stages 3" "--types f16,f16 --tile 128x128x32 --stages 4" \
         "--types f16,f32 --tile 128x128x32 --stages 4" "--types s8,s32 --tile 256x128x64 --stages 3" "--types s8,s32 --tile 128x128x64 --stages 4"; do
  echo "-- $a"; timeout 60 $R --m 8192 --n 8192 --k 8192 $a --warmup-ms 300 --repeats 20 --sample 256 --stats 2>&1 | grep -E "^gpu|^stats|error|FAIL|spvgen|^check" | cut -c1-160
done
echo "== done at $SECONDS s"
