#!/bin/bash
# GPU call BB (session 7), on an H100 (call BA ran on an H200): (1) the public cooperative
# vector benchmark, jeffbolznv/vk_cooperative_vector_perf at c6ee560 (its prebuilt
# shaders/matvecmul*.spv; the app built on the dev VM against Vulkan-Headers 1.4.309,
# its own copies of the coopvec declarations removed), whose 3x64 rows are network (b);
# (2) the call-BA binaries again: old (acb648b) and new (uniform vec, mat run-time loop,
# loop I/O loops) alternating, correctness of the new one, and mlp_anchor.py.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
(cd .cvp && timeout 120 ./cvp > $OUT/cvp-f16.txt 2>&1; echo "cvp rc=$? at $SECONDS s"; grep -E "size = 3x64" $OUT/cvp-f16.txt | head -32)
(cd .cvp && timeout 90 ./cvp --fp8 > $OUT/cvp-fp8.txt 2>&1; echo "cvp fp8 rc=$? at $SECONDS s"; grep -E "size = 3x64.*nonuniform 0.*invocationsPerMatrix 2147483648" $OUT/cvp-fp8.txt)
timeout 150 $B/tests/gpu_test_gpu_mlp_new > $OUT/gpu-mlp-new.txt 2>&1; echo "new test rc=$? at $SECONDS s"; grep -E "passed|FAIL" $OUT/gpu-mlp-new.txt | cut -c1-200
for i in 1 2; do
  timeout 100 $B/bench/bench_mlp --variants vec-opt,mat,loop --md > $OUT/old$i.md 2>&1; echo "old$i rc=$? at $SECONDS s"; grep -E "^\| \(|FAIL" $OUT/old$i.md | cut -c1-160
  timeout 100 $B/bench/bench_mlp_new --variants vec-opt,mat,loop --md > $OUT/new$i.md 2>&1; echo "new$i rc=$? at $SECONDS s"; grep -E "^\| \(|FAIL" $OUT/new$i.md | cut -c1-160
done
timeout 120 $B/bench/bench_mlp_new --variants vec-opt,vec-e5m2 --anchor .anchors/mlp_anchor.py --md > $OUT/new-anchor.md 2>&1; echo "anchor rc=$? at $SECONDS s"; grep -E "^\| \(|FAIL" $OUT/new-anchor.md | cut -c1-200
echo "== done at $SECONDS s"
