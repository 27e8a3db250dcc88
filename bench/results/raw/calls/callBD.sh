#!/bin/bash
# Same-session references: torch eager / torch.compile / Triton fused (mlp_anchor.py) in call BB and the public benchmark vk_cooperative_vector_perf in calls BB and BC (bench/results/mlp-h100-2026-11-26.md).
# This call got no output: the device machine stopped answering (about 7 device minutes lost); call BE ran a shortened copy.
# GPU call BD (session 7, H100): bench_mlp_new2 = call BB's new build plus, with several
# points per invocation, every point's input loaded before the first network runs (the
# later loads overlap the first point's MulAdds). Correctness of new2 (every output vs
# float64), then (b) for every vec plan, new and new2 alternating; the public benchmark.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 120 $B/tests/gpu_test_gpu_mlp_new2 vec > $OUT/gpu-mlp-new2.txt 2>&1; echo "new2 test rc=$? at $SECONDS s"; grep -E "passed|FAIL" $OUT/gpu-mlp-new2.txt | cut -c1-200
(cd .cvp && timeout 120 ./cvp > $OUT/cvp-f16.txt 2>&1; echo "cvp rc=$? at $SECONDS s"; grep -E "size = 3x64.*invocationsPerMatrix 2147483648" $OUT/cvp-f16.txt)
for i in 1 2; do
for v in new2 new; do
timeout 150 $B/bench/bench_mlp_$v --variants vec-opt,vec-e5m2 --all-plans --points-a 65536 --md > $OUT/$v-$i.md 2>&1; echo "$v-$i rc=$? at $SECONDS s"; grep -E "^#   vec 8-|^\| \(b" $OUT/$v-$i.md | cut -c1-200
done; done
echo "== done at $SECONDS s"
