#!/bin/bash
# Call CD, 2026-11-26: every GPU test binary (run six at a time: their pipeline compiles
# are CPU work and the machine has 16 cores), the runner's tests and the framework sample
# on the GPU, the framework trace (bench/trace.sh: cold, warm, spvgen cache only, and the
# torch.matmul anchor), the dispatch overhead, and the slow-mode follow-up (fresh processes
# that idle 4 s before their first dispatch). Binaries: GPU_CHECK_FROM=build
# scripts/gpu-check --build at this commit (ci preset, stripped, pruned to fit).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
B=build-gpu; T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,pstate,power.draw,clocks_event_reasons.active --format=csv -lms 200 > $OUT/cd-smi.csv 2>&1 &
SMI=$!
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)   # one cold driver cache for the tests
ls $B/tests/gpu_test_* | xargs -P 6 -I{} sh -c 'timeout 330 {} _matches_cpu > {}.log 2>&1; echo "{} exit $?" >> {}.log'
for t in $B/tests/vk_test_record $B/tests/vk_test_kernels $B/tests/vk_test_errors $B/tests/vk_test_kernel_cache $B/tests/threads_test_stress; do timeout 60 $t > $t.log 2>&1; echo "$t exit $?" >> $t.log; done
(timeout 60 $B/samples/framework; echo "framework exit $?"; timeout 60 $B/samples/framework 2049; echo "framework 2049 exit $?") > $B/framework.log 2>&1
for f in $B/tests/*.log $B/framework.log; do echo "=== $f"; grep -E "FAIL|passed|exit|SKIP|framework|ok|error" $f | tail -8; done > $OUT/cd-tests.txt
cat $OUT/cd-tests.txt; echo "tests done at $((SECONDS - T0)) s"
unset __GL_SHADER_DISK_CACHE_PATH
timeout 200 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > $OUT/cd-trace.txt 2>&1; grep -E "^==|summary|anchor|total" $OUT/cd-trace.txt; echo "trace done at $((SECONDS - T0)) s"
timeout 60 $B/bench/bench_dispatch_overhead --dispatches 100000 --repeats 7 > $OUT/cd-dispatch.txt 2>&1; tail -12 $OUT/cd-dispatch.txt
for i in 1 2 3 4 5 6; do timeout 30 $B/bench/bench_slowmode --shape 4096,4096,4096 --modes idle --trials 2 --idle-ms 4000 2>&1 | grep -E "^#|^trial"; done > $OUT/cd-slow.txt
grep "^trial" $OUT/cd-slow.txt | awk '{print $3": "$6}' | tr '\n' ' '; echo; echo "all done at $((SECONDS - T0)) s"
kill $SMI
