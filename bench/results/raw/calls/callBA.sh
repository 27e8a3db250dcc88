#!/bin/bash
# GPU call BA (session 7): two emitter changes built from a worktree (binaries *_new) next
# to the unchanged build (acb648b): (1) the vec kernel evaluates the network in uniform
# control flow (point clamped, only the store guarded); (2) the mat inference kernel's
# point fragments in an Unroll-hinted run-time loop with the accumulators in a Function
# array (no ping-pong; 3580 words for 32-64x4-16, was 6811); (3) the loop kernel's I/O
# through run-time loops. Correctness (every output vs float64), then (a) and (b)
# alternating old / new, and mlp_anchor.py (torch eager, torch.compile, Triton) in this run.
for f in .gl/*.deb; do dpkg -x $f / ; done >/dev/null 2>&1; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
timeout 150 $B/tests/gpu_test_gpu_mlp_new > $OUT/gpu-mlp-new.txt 2>&1; echo "new test rc=$? at $SECONDS s"; grep -E "passed|FAIL|summary" $OUT/gpu-mlp-new.txt | cut -c1-260
for i in 1 2; do
  timeout 100 $B/bench/bench_mlp --variants vec-opt,mat,loop --md > $OUT/old$i.md 2>&1; echo "old$i rc=$? at $SECONDS s"; grep -E "^\| \(|^\|  *\||FAIL" $OUT/old$i.md | cut -c1-160
  timeout 100 $B/bench/bench_mlp_new --variants vec-opt,mat,loop --md > $OUT/new$i.md 2>&1; echo "new$i rc=$? at $SECONDS s"; grep -E "^\| \(|^\|  *\||FAIL" $OUT/new$i.md | cut -c1-160
done
timeout 200 $B/bench/bench_mlp_new --variants vec-opt,vec-e5m2 --all-plans --anchor .anchors/mlp_anchor.py --md > $OUT/new-all.md 2>&1; echo "new-all rc=$? at $SECONDS s"; grep -E "^\||FAIL|^#   " $OUT/new-all.md | cut -c1-200
echo "== done at $SECONDS s"
