#!/bin/bash
# References: none (tests only: every element against the float64 CPU reference); first compiles: each test compiles with an empty driver cache of its own.
# Call S4-H (session 4, the last): every test of gpu_test_gpu_gemm as its own process, 14 at a
# time, each with an empty driver cache, SPVGEN_GPU_REQUIRED=1, after the session's planner,
# split-K, device-address and template-table changes. <= 4.5 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callH}; mkdir -p "$O"
T=$B/tests/gpu_test_gpu_gemm
"$T" --list > "$O/list.txt"
xargs -P 14 -L 1 sh -c 'c=$(mktemp -d); s=$(date +%s); __GL_SHADER_DISK_CACHE_PATH=$c timeout 230 "'"$T"'" "$0" > "'"$O"'/t-$0.log" 2>&1; r=$?; echo "$0 exit $r $(( $(date +%s) - s ))s $(grep -E "^[0-9]+ passed" "'"$O"'/t-$0.log" | tail -1)" >> "'"$O"'/tests.txt"; rm -rf "$c"' < "$O/list.txt"
echo "$(grep -c ' exit 0 ' "$O/tests.txt") of $(wc -l < "$O/list.txt") passed"
grep -v " exit 0 " "$O/tests.txt"
grep -h "^FAIL" "$O"/t-*.log | cut -c1-300 | head -20 > "$O/failures.txt"; cat "$O/failures.txt"
tar czf "$O/logs.tgz" -C "$O" $(cd "$O" && ls t-*.log) && rm -f "$O"/t-*.log
