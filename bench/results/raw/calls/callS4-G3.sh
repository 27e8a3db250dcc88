#!/bin/bash
# References: cuBLAS through build-gpu/anchors/gemm_anchor.py (torch) in the same call, for every shape of the bench set; first compiles: the bench's compile column and the tune tables (driver cache pointed at an empty directory).
# Call S4-G3 (session 4, branch gemm3): (1) the split-K GPU tests (coopmat2 fixed and
# run-time, simt; every element against the CPU, counters reset); (2) bench_gemm_shapes
# --set splitk beside cuBLAS: the element-wise split-K reduction against the matrix one
# (cgr) and the unsplit tile at 257x3584x18944 / 257x3584x3584, the prompt shapes' new
# defaults beside the earlier plan (128x256x32), nn beside nt, 8192^3 and 4096x18944x3584;
# (3) spvgen tune gemm over every candidate for 257x3584x18944 nt and 2048x3584x3584 nt.
# From a worktree whose build-gpu was staged by /work/notes/stage.sh. At most ~8 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callG3}; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$O/smi.txt" 2>&1
git log -1 --format=%h > "$O/commit.txt" 2>/dev/null
# 1. split-K GPU tests, each its own process with an empty driver cache (<= 200 s, in parallel)
T=$B/tests/gpu_test_gpu_gemm
for t in $("$T" --list | grep -E "splitk|prompt"); do
  ( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 200 "$T" "$t" > "$O/test-$t.txt" 2>&1
    echo "$t exit $? $(grep -E '^[0-9]+ passed' "$O/test-$t.txt" | tail -1)" >> "$O/tests.txt"; rm -rf "$c" ) &
done
wait
cat "$O/tests.txt"
# 2. the bench set with cuBLAS (<= 200 s)
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 200 stdbuf -oL "$B/bench/bench_gemm_shapes" --set splitk --anchor "$B/anchors/gemm_anchor.py" \
  --deadline-s 180 > "$O/bench.txt" 2>&1
echo "bench rc=$?"; grep -c splitk "$O/bench.txt"
# 3. every candidate of two shapes (<= 2 x 40 s)
for s in "257 3584 18944 nt" "2048 3584 3584 nt"; do
  set -- $s
  echo "== tune $s" >> "$O/tune.txt"
  timeout 40 "$B/tools/spvgen" tune gemm --m $1 --n $2 --k $3 --layout $4 --types f16,f32 \
    --budget 32 --cache "$O/tune-cache.txt" >> "$O/tune.txt" 2>&1
  echo "rc=$?" >> "$O/tune.txt"
done
grep -E "default|<- best|sk[0-9]" "$O/tune.txt" | grep -v "spvgen tune" | head -40
