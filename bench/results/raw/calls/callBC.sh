#!/bin/bash
# GPU call BC (session 7, H100): what separates network (b) from the public benchmark's
# 516. bench_mlp_diag is call BB's new build with one diagnostic change (not committed):
# each invocation loads the input of point (index mod workgroup size), so a workgroup
# reads the same few vectors from cache, as vk_cooperative_vector_perf's matvecmul.comp
# does (its inputBase uses gl_LocalInvocationIndex); its check FAILs by construction.
# Next to it in this call: bench_mlp_new (real per-point inputs) and the public benchmark.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
(cd .cvp && timeout 120 ./cvp > $OUT/cvp-f16.txt 2>&1; echo "cvp rc=$? at $SECONDS s"; grep -E "size = 3x64.*invocationsPerMatrix 2147483648" $OUT/cvp-f16.txt)
for i in 1 2; do
timeout 150 $B/bench/bench_mlp_diag --variants vec-opt,vec-e5m2 --all-plans --points-a 65536 --sample 64 --md > $OUT/diag$i.md 2>&1; echo "diag$i rc=$? at $SECONDS s"; grep -E "^#   vec 8-|^\| \(b" $OUT/diag$i.md | cut -c1-200
timeout 150 $B/bench/bench_mlp_new --variants vec-opt --all-plans --points-a 65536 --md > $OUT/new$i.md 2>&1; echo "new$i rc=$? at $SECONDS s"; grep -E "^#   vec 8-|^\| \(b" $OUT/new$i.md | cut -c1-200
done
echo "== done at $SECONDS s"
