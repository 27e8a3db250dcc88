#!/bin/bash
# References: cuBLAS 257x3584x3584 / 257x3584x18944 f16 from call S4-D (same session, H100: 226.7 / 432.4 TFLOP/s) beside the split-K probe; first compiles: `spvgen run gemm` prints each pipeline's create time (driver cache pointed at an empty directory).
# Call S4-E (session 4): (1) split-K probe: coopmat2 split-K against unsplit per tile
# (times, compile, registers/spills from --stats); (2) the split-K GPU tests after the
# nested-loop fix; (3) device-address GPU tests, GEMM and MLP; (4) the MLP vec structure
# knobs test (vec's staged piece loop inside its layer loop changed) and the loop variant
# on 16-256x2-32. At most ~9 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callE}; mkdir -p "$O"
T0=$SECONDS
# (1) the split-K probe, in the foreground
export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
for shape in "257 3584 3584" "257 3584 18944"; do
  set -- $shape
  for tile in 32x64x64 64x64x64 128x128x64; do
    for sk in 1 3; do
      echo "== $shape $tile sk$sk" >> "$O/probe.txt"
      timeout 60 "$B/tools/spvgen" run gemm --m $1 --n $2 --k $3 --layout nt --variant coopmat2 --tile $tile \
        --split-k $sk --edge shift --unroll 1 --stats --repeats 20 >> "$O/probe.txt" 2>&1
      echo "rc=$?" >> "$O/probe.txt"
    done
  done
done
grep -E "^== |^gpu|^pipeline|register|spill|check|rc=" "$O/probe.txt" | head -120
echo "loop-256:"; timeout 60 "$B/tools/spvgen" run mlp --in 16 --hidden 256x2 --out 32 --variant loop 2>&1 | tail -3
# (2)+(3)+(4) tests in the background, each its own process with an empty driver cache
(
  T=$B/tests/gpu_test_gpu_gemm
  for t in $("$T" --list | grep -E "splitk"); do
    ( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 240 "$T" "$t" > "$O/t-$t.log" 2>&1
      echo "$t exit $? $(grep -E '^[0-9]+ passed' "$O/t-$t.log" | tail -1)" >> "$O/tests.txt"; rm -rf "$c" ) &
  done
  M=$B/tests/gpu_test_gpu_mlp
  for t in test_mlp_vec_structure_knobs_matches_cpu test_mlp_chosen_plans_matches_cpu; do
    ( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 300 "$M" "$t" > "$O/t-$t.log" 2>&1
      echo "$t exit $? $(grep -E '^[0-9]+ passed' "$O/t-$t.log" | tail -1)" >> "$O/tests.txt"; rm -rf "$c" ) &
  done
  wait
  timeout 150 bash scripts/gpu-gemm-bda.sh > "$O/bda-gemm.txt" 2>&1; echo "bda-gemm exit $?" >> "$O/tests.txt"
  timeout 150 bash scripts/gpu-gemm-bda.sh --mlp > "$O/bda-mlp.txt" 2>&1; echo "bda-mlp exit $?" >> "$O/tests.txt"
)
cat "$O/tests.txt"; tail -3 "$O/bda-gemm.txt" "$O/bda-mlp.txt"
echo "done in $((SECONDS - T0)) s"
