#!/bin/bash
# Same-session references: torch eager / torch.compile / Triton fused (mlp_anchor.py) in call BB and the public benchmark vk_cooperative_vector_perf in calls BB and BC (bench/results/mlp-h100-2026-11-26.md).
# GPU call BE (session 7; call BD's script, shortened after BD's machine stopped answering):
# bench_mlp_new2 = call BB's new build plus, with several points per invocation, every
# point's input loaded before the first network runs. Correctness of new2's vec tests
# (every output vs float64), then (b) for every vec plan, new2 then new, in this call.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 80 $B/tests/gpu_test_gpu_mlp_new2 vec > $OUT/gpu-mlp-new2.txt 2>&1; echo "new2 test rc=$? at $SECONDS s"; grep -E "passed|FAIL" $OUT/gpu-mlp-new2.txt | cut -c1-200
for v in new2 new; do
timeout 80 $B/bench/bench_mlp_$v --variants vec-opt --all-plans --points-a 65536 --md > $OUT/$v.md 2>&1; echo "$v rc=$? at $SECONDS s"; grep -E "^#   vec 8-|^\| \(b" $OUT/$v.md | cut -c1-200
done
echo "== done at $SECONDS s"
