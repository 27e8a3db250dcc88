#!/bin/bash
# References: cuBLAS through build-gpu/anchors/gemm_anchor.py in the bench_gemm_shapes step (same call); the probe's cuBLAS figures are call D's (same session, H100); first compiles: `spvgen run gemm`'s pipeline line and the bench's compile column (driver cache pointed at an empty directory).
# Call S4-F (session 4): split-K without a Workgroup variable. (1) probe: coopmat2 split-K
# against unsplit per tile, with the driver's statistics (is the shared-memory staging
# back?); (2) GPU tests: split-K (coopmat2 fixed and run-time, simt), device addresses
# (GEMM, MLP), MLP vec structure knobs and chosen plans; (3) bench_gemm_shapes --set
# splitk beside cuBLAS. At most ~9.5 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callF}; mkdir -p "$O"
T0=$SECONDS
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
for shape in "257 3584 3584" "257 3584 18944"; do
  set -- $shape
  for tile in 32x64x64 128x128x64; do
    for sk in 1 3; do
      echo "== $shape $tile sk$sk" >> "$O/probe.txt"
      timeout 40 "$B/tools/spvgen" run gemm --m $1 --n $2 --k $3 --layout nt --variant coopmat2 --tile $tile \
        --split-k $sk --edge shift --unroll 1 --stats --repeats 20 --sample 20000 >> "$O/probe.txt" 2>&1
      echo "rc=$?" >> "$O/probe.txt"
    done
  done
done
grep -E "^== |^gpu|^pipeline|^stats|^check|rc=" "$O/probe.txt" | cut -c1-150
echo "probe done at $((SECONDS - T0)) s"
T=$B/tests/gpu_test_gpu_gemm
M=$B/tests/gpu_test_gpu_mlp
{
  for t in $("$T" --list | grep -E "splitk"); do echo "$T $t"; done
  echo "$M test_mlp_vec_structure_knobs_matches_cpu"; echo "$M test_mlp_chosen_plans_matches_cpu"
  for t in $($B/tests/gpu_test_gpu_gemm_bda --list); do echo "$B/tests/gpu_test_gpu_gemm_bda $t"; done
  for t in $($B/tests/gpu_test_gpu_mlp_bda --list); do echo "$B/tests/gpu_test_gpu_mlp_bda $t"; done
} > "$O/list.txt"
xargs -P 8 -L 1 sh -c 'c=$(mktemp -d); n=$(basename "$0").$1; __GL_SHADER_DISK_CACHE_PATH=$c timeout 230 "$0" "$1" > "'"$O"'/t-$n.log" 2>&1; echo "$n exit $? $(grep -E "^[0-9]+ passed" "'"$O"'/t-$n.log" | tail -1)" >> "'"$O"'/tests.txt"; rm -rf "$c"' < "$O/list.txt"
cat "$O/tests.txt"; grep -h "^FAIL" "$O"/t-*.log | cut -c1-250 | head -20
echo "tests done at $((SECONDS - T0)) s"
left=$((545 - SECONDS + T0)); [ $left -gt 200 ] && left=200
if [ $left -gt 40 ]; then
  export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  timeout $left stdbuf -oL "$B/bench/bench_gemm_shapes" --set splitk --anchor "$B/anchors/gemm_anchor.py" \
    --deadline-s $((left - 15)) > "$O/bench.txt" 2>&1
  grep -E "^splitk" "$O/bench.txt" | cut -c1-210
fi
tar czf "$O/logs.tgz" -C "$O" $(cd "$O" && ls t-*.log) && rm -f "$O"/t-*.log
echo "done in $((SECONDS - T0)) s"
