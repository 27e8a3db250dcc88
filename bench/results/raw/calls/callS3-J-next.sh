#!/bin/bash
# References: bench_gemm_shapes --anchor runs shared/anchors/gemm_anchor.py (cuBLAS through torch) in the same call, for the same shapes bench_slowmode measures (4097x4095x4093, 8192^3); first compiles: bench_gemm_shapes' compile column, with the driver cache pointed at an empty directory.
# Call J (prepared 2026-11-26, NOT RUN: the session's device time was spent). The slow
# mode's next suspect (bench/results/gemm-2026-11-26c.md, calls H and I): device memory
# fragmentation and page size. If "fragment" trials are slow where "buffers" and "none"
# trials are not, the runner needs a sub-allocating pool (or 2 MB-rounded allocations).
# Then bench_gemm_shapes --set call with its calibration counts the slow rows to compare.
# Stage: /work/notes/stage.sh-style build-gpu (bench_slowmode, bench_gemm_shapes,
# anchors/), carry .gl and build-gpu. <= 9 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
O=${OUT:-/tmp/callJ}; mkdir -p "$O"
for shape in 4097,4095,4093 8192,8192,8192; do
  timeout 100 stdbuf -oL "$B/bench/bench_slowmode" --shape $shape --types f16,f32 \
    --modes fragment,buffers,none --trials 12 >> "$O/slowmode.txt" 2>&1
done
grep "^summary" "$O/slowmode.txt"
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 300 "$B/bench/bench_gemm_shapes" --set call --deadline-s 240 --anchor "$B/anchors/gemm_anchor.py" > "$O/bench.txt" 2>&1
grep -E "^# (calibration|slow mode)" "$O/bench.txt"
