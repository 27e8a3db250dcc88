#!/bin/bash
# Compares spvgen plans with each other; the cuBLAS / torch / Triton references of this session ran in callF.sh, callG.sh, callI.sh and callL.sh.
# GPU call J (session 3): which coopmat2 split-K case hangs (the test timed out twice with
# no failure printed); each run is cut at 12 s.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
S=build-gpu/tools/spvgen
r() { echo "-- $*"; timeout 12 $S run gemm --variant coopmat2 --repeats 2 "$@" 2>&1 | grep -E "plan|gpu |check|error|Error" | cut -c1-160; echo "rc=${PIPESTATUS[0]}"; }
r --m 4096 --n 64 --k 4096 --types f16,f32 --split-k 4
r --m 97 --n 131 --k 1000 --types f16,f32 --split-k 2
r --m 97 --n 131 --k 1000 --types f16,f32 --split-k 2 --beta 1.25
r --m 97 --n 131 --k 1000 --types f16,f32 --split-k 2 --bias column --act gelu
r --m 97 --n 131 --k 1000 --types f16,f32 --split-k 3 --batch 2
r --m 255 --n 64 --k 2049 --types f16,f32 --split-k 2
r --m 97 --n 131 --k 1000 --types f16,f16 --split-k 2
r --m 97 --n 131 --k 1000 --types s8,s32 --split-k 2
r --m 97 --n 131 --k 1000 --types f16,f32 --split-k 2 --layout tt
r --m 33 --n 520 --k 777 --types f16,f32 --split-k 4
