#!/bin/bash
# Call E (2026-11-26): the regression after merging everything (GEMM run-time fixes,
# the MLP helper-layer rewrite, the template table): every GPU test binary, the hash
# grid and three-network training next to torch, the framework trace. <= 9.5 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
for f in .gl/*.deb; do dpkg -x "$f" / || exit 1; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json SPVGEN_GPU_REQUIRED=1
O=${OUT:-/tmp/callE}; mkdir -p "$O"; W=$(mktemp -d)
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/summary.txt"
# started from a subshell: not a job of this shell, whose `wait` waits for the tests
(nvidia-smi --query-gpu=timestamp,clocks.sm,pstate,power.draw,clocks_event_reasons.active --format=csv -lms 500 > "$W/smi.csv" 2>&1 &
 echo $! > "$W/smi.pid")
# 1. tests: the GEMM sweep one process per test (10 at a time) and the other GPU binaries
#    beside it, each with an empty driver cache, 300 s in all
run_one() { # name cmd...
  local name=$1; shift
  local c; c=$(mktemp -d); local s0=$SECONDS
  __GL_SHADER_DISK_CACHE_PATH=$c timeout $((280 - (SECONDS - T0))) "$@" > "$W/t-$name.log" 2>&1
  local rc=$?
  rm -rf "$c"
  echo "$name exit $rc $((SECONDS - s0)) s: $(grep -E '^[0-9]+ passed' "$W/t-$name.log" | tail -1)" >> "$W/results"
}
: > "$W/results"
for b in gpu_test_gpu_mlp gpu_test_gpu_mlp_train gpu_test_gpu_coopvec vk_test_record vk_test_kernel_cache vk_test_kernels threads_test_stress; do
  [ -x "$B/tests/$b" ] && run_one "$b" "$B/tests/$b" &
done
mapfile -t names < <("$B/tests/gpu_test_gpu_gemm" --list | awk '
  /simt_splitk|every_plan|runtime|edge_(clamp|shift)_matches|coopmat2_matches|splitk|masked/ { print 0, $0; next }
  { print 1, $0 }' | sort -s -k1,1n | cut -d' ' -f2)
running=0
for n in "${names[@]}"; do
  if [ $((280 - (SECONDS - T0))) -lt 20 ]; then echo "$n not started" >> "$W/results"; continue; fi
  run_one "$n" "$B/tests/gpu_test_gpu_gemm" "$n" &
  running=$((running + 1))
  if [ $running -ge 9 ]; then wait -n; running=$((running - 1)); fi
done
wait
sort "$W/results" > "$O/tests.txt"
: > "$O/tests-failures.txt"
for l in "$W"/t-*.log; do
  n=$(basename "$l" .log); n=${n#t-}
  grep -q "^$n exit 0 " "$O/tests.txt" || { echo "=== $n"; grep -E "FAIL|wrong|error" "$l" | head -12; tail -4 "$l"; } >> "$O/tests-failures.txt"
done
echo "tests: $(grep -c ' exit 0 ' "$O/tests.txt") of $(grep -c '' "$O/tests.txt") passed by $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
# 2. the hash grid and training next to torch
export __GL_SHADER_DISK_CACHE=0
timeout 70 stdbuf -oL "$B/bench/bench_mlp_hashgrid" --anchor bench/anchors/mlp_anchor_net.py > "$O/hashgrid.txt" 2>&1
echo "hashgrid: exit $? at $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
timeout 80 stdbuf -oL "$B/bench/bench_mlp_train" --grid3 --points 65536 --steps 5 --warmup 2 --anchor bench/anchors/mlp_anchor_net.py > "$O/train3.txt" 2>&1
echo "train3: exit $? at $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
unset __GL_SHADER_DISK_CACHE
# 3. the trace, cold and warm, torch beside
timeout 70 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt "$B" > "$O/trace.txt" 2>&1
echo "trace: exit $? at $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
grep -E "^==|^summary" "$O/trace.txt" >> "$O/summary.txt"
# 4. the slow mode: a fresh device and a fresh driver compile per trial (no spvgen or
#    driver cache), against trials that renew nothing; then the same with the CPU busy on
#    every core while each pipeline compiles (does a contended compile give slower code?)
export SPVGEN_PIPELINE_CACHE=off __GL_SHADER_DISK_CACHE=0
timeout 35 stdbuf -oL "$B/bench/bench_slowmode" --shape 8192,8192,8192 --types f16,f32 --variant coopmat2 --modes context,none --trials 6 > "$O/slowmode.txt" 2>&1
echo "slowmode: exit $? at $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
echo "== busy: 16 spinning processes while each trial compiles and runs" >> "$O/slowmode.txt"
for i in $(seq 16); do (timeout 40 sh -c 'while :; do :; done' > /dev/null 2>&1 &); done
timeout 35 stdbuf -oL "$B/bench/bench_slowmode" --shape 8192,8192,8192 --types f16,f32 --variant coopmat2 --modes context --trials 6 >> "$O/slowmode.txt" 2>&1
echo "slowmode busy: exit $? at $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
grep -h "^summary" "$O/slowmode.txt" >> "$O/summary.txt"
kill "$(cat "$W/smi.pid")" 2>/dev/null
cp "$W/smi.csv" "$O/smi.csv"
echo "== done in $((SECONDS - T0)) s" | tee -a "$O/summary.txt"
