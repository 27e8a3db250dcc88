#!/bin/bash
# GPU call T (session 4): network (b) with and without its ReLUs and biases, and with
# f16 vs f32 points, at 1M points (every output checked): does the per-layer vector work
# between the MatrixMulAdds cost anything? spvgen plans compared with each other; the
# session's torch / Triton references ran in callS.sh (mlp_anchor.py).
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
S=build-gpu/tools/spvgen
R="$S run mlp --in 8 --hidden 64x3 --out 8 --variant vec --weights optimal --points 1048576 --repeats 20 --warmup-ms 300"
for a in "" "--act none" "--act none --no-bias" "--no-bias" "--types f16,f32"; do
  echo "-- (b) $a"; timeout 100 $R $a 2>&1 | grep -E "^plan|^gpu|^check|TFLOP|error" | cut -c1-200
done
echo "== done at $SECONDS s"
