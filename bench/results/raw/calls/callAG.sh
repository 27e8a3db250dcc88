#!/bin/bash
# References: this session's torch figures (bench/mlp_train_torch.py, same-call with the training tables) are in raw/mlp-train-h100-2026-11-24ac-torch.txt, -ae-torch.txt and -ah-torch.txt; this call itself is correctness or stability only.
# GPU call AG (session 6): the final tree. mlp-fit-image trained on the mat variant (its
# loss must fall 20x; PNGs written), the mat inference and training GPU tests again
# (declarations reordered by a refactor: same instructions), loop/vec unchanged.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu; R=$PWD
(cd $OUT && timeout 60 $R/$B/samples/mlp-fit-image > fit.txt 2>&1; echo "mlp-fit-image rc=$?"; head -3 fit.txt; tail -3 fit.txt)
timeout 120 $B/tests/gpu_test_gpu_mlp mat > $OUT/gpu-mlp-mat.txt 2>&1; echo "mat test rc=$? at $SECONDS s"; grep -E "passed|FAIL|summary test_mlp_mat" $OUT/gpu-mlp-mat.txt | cut -c1-200
timeout 150 $B/tests/gpu_test_gpu_mlp_train > $OUT/gpu-mlp-train.txt 2>&1; echo "train test rc=$? at $SECONDS s"; grep -E "passed|FAIL|summary" $OUT/gpu-mlp-train.txt | cut -c1-200
echo "== done at $SECONDS s"
