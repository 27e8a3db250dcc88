#!/bin/bash
# References: cuBLAS through shared/anchors/gemm_anchor.py in the same call for every tuned shape; first compiles: the tune table's compile column (driver cache pointed at an empty directory).
# Call S4-A (session 4): (1) the slow mode's fragmentation probe (bench_slowmode fragment
# vs buffers vs none, 4097x4095x4093 f16->f32); (2) every candidate plan of the
# prompt-length GEMMs (spvgen tune gemm: time and first compile of each) beside cuBLAS.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
O=${OUT:-/tmp/callA}; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$O/smi.txt" 2>&1
[ -z "${SKIP_SLOW:-}" ] && timeout 110 stdbuf -oL "$B/bench/bench_slowmode" --shape 4097,4095,4093 --types f16,f32 \
  --modes fragment,buffers,none --trials 10 > "$O/slowmode.txt" 2>&1
[ -z "${SKIP_SLOW:-}" ] && grep "^summary" "$O/slowmode.txt"
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
[ -z "${SKIP_SLOW:-}" ] || true; ( [ -n "${SKIP_SLOW:-}" ] && exit 0; timeout 60 python3 "$B/anchors/gemm_anchor.py" 257,3584,3584 1000,3584,3584 2048,3584,3584 257,18944,3584 257,3584,18944 4096,3584,3584 > "$O/cublas.txt" 2>&1 ) &
AP=$!
for s in "257 3584 3584 nt" "1000 3584 3584 nt" "2048 3584 3584 nt" "2048 3584 3584 nn" "257 18944 3584 nt" "257 3584 18944 nt" "4096 3584 3584 nt"; do
  set -- $s
  echo "== tune $s" >> "$O/tune.txt"
  timeout 75 "$B/tools/spvgen" tune gemm --m $1 --n $2 --k $3 --layout $4 --types f16,f32 \
    --budget 55 --cache "$O/tune-cache.txt" >> "$O/tune.txt" 2>&1
  echo "rc=$?" >> "$O/tune.txt"
done
wait $AP
cat "$O/cublas.txt"
grep -c . "$O/tune.txt"
