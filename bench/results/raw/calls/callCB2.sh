#!/bin/bash
# No cuBLAS, torch or Triton reference in this call: the runner tests, the dispatch overhead (compared with a raw vkCmdDispatch loop of the same run) and bench_slowmode (spvgen against itself). The same day's cuBLAS/torch figures with first-compile times: ../../gemm-h200-2026-11-26.md and ../../mlp-h100-2026-11-26.md.
# Call CB2, 2026-11-26, right after CB1 on the same machine: the runner of issue 25 on the
# GPU (record path, kernels, threads stress, the framework sample with cooperative
# variants, dispatch overhead) and the slow-mode follow-up (issue 24 item 7: fresh
# processes that idle before the first dispatch, and renewals + idle).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate,power.draw,clocks_event_reasons.active --format=csv -lms 100 > $OUT/cb2-smi.csv 2>&1 &
SMI=$!
for t in $B/tests/vk_test_record $B/tests/vk_test_kernels $B/tests/threads_test_stress; do echo "== $t"; timeout 120 $t 2>&1 | tail -2; done
echo "== framework sample"; timeout 60 $B/samples/framework 2>&1 | tail -4; timeout 60 $B/samples/framework 2049 2>&1 | tail -4
echo "== dispatch overhead"; timeout 90 $B/bench/bench_dispatch_overhead --dispatches 100000 --repeats 7 2>&1 | tail -14
echo "== slowmode: 6 fresh processes, context+idle 4 s, 3 trials each"
for i in 1 2 3 4 5 6; do timeout 40 $B/bench/bench_slowmode --shape 4096,4096,4096 --modes idle --trials 3 --idle-ms 4000 2>&1 | grep -E "^#|^trial"; done > $OUT/cb2-slow-fresh.txt
grep -c "" $OUT/cb2-slow-fresh.txt; grep "^trial" $OUT/cb2-slow-fresh.txt | awk '{print $3, $6}' | tr '\n' ' '; echo
echo "== slowmode: renewals + idle"
timeout 150 $B/bench/bench_slowmode --shape 4096,4096,4096 --modes pipeline+idle,buffers+idle,context+idle --trials 8 --idle-ms 4000 > $OUT/cb2-slow-renew.txt 2>&1; grep -E "summary|^slow" $OUT/cb2-slow-renew.txt
kill $SMI
