#!/bin/bash
# Call S6-8 (session 6, final tree: the select table refitted for wide networks, the budget
# rule without staged stand-ins): every gpu_test_gpu_mlp test but the three vec
# structure-knob tests (unchanged code; 330 s each), each its own process with an empty
# driver cache, in parallel, against float64; test_mlp_chosen_plans_matches_cpu runs the
# plans AUTO chooses, test_mlp_width_256_matches_cpu the 256-wide defaults.
# References: float64 CPU references (mlp_run); no external reference applies.
# Carry .gl and build-gpu.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
O=${OUT:-/tmp/callS6-8}; mkdir -p "$O"
. scripts/gpu-env.sh
gpu_env_vulkan callS6-8 || exit 1
export SPVGEN_GPU_REQUIRED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
T0=$SECONDS
: > "$O/tests.txt"
for t in $("$B/tests/gpu_test_gpu_mlp" --list | grep -v structure_knobs); do
  ( c=$(mktemp -d); __GL_SHADER_DISK_CACHE_PATH=$c timeout 300 "$B/tests/gpu_test_gpu_mlp" "$t" > "$O/t-$t.log" 2>&1
    echo "$t exit $? $((SECONDS - T0)) s: $(grep -E '^[0-9]+ passed' "$O/t-$t.log" | tail -1)" >> "$O/tests.txt"; rm -rf "$c" ) &
done
wait
sort "$O/tests.txt" -o "$O/tests.txt"; cat "$O/tests.txt"
grep -h -E "FAIL|wrong" "$O"/t-*.log | head -10 | cut -c1-240
grep -h -E "^\s*\[" "$O/t-test_mlp_chosen_plans_matches_cpu.log" "$O/t-test_mlp_width_256_matches_cpu.log" 2>/dev/null | head -30 | cut -c1-200
cd "$O" && tar czf logs.tgz t-*.log && rm -f t-*.log
echo "done in $((SECONDS - T0)) s"
