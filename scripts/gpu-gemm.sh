#!/usr/bin/env bash
# scripts/gpu-gemm.sh — the GEMM shapes benchmark (bench/gemm_shapes.c) on the GPU machine
# in one run of at most about 8 minutes: per shape and plan or knob variant the driver's
# first compile (the driver's shader cache pointed at an empty directory), the GPU time
# (median after a sustained warm-up, repeated until two medians agree within 3 %) and
# TFLOP/s, cuBLAS beside when the anchor script is there; then the compile-time matrix
# (variant x tile x unroll x edge mode).
#
#   here:  scripts/gpu-check --build         stages build-gpu/ (bench_gemm_shapes with it)
#                                            and .gl/ (the Vulkan loader); carry both
#   there: bash scripts/gpu-gemm.sh [--anchor PATH] [--no-anchor] [--set S] [--deadline-s S]
#          bash scripts/gpu-gemm.sh --call   the whole GEMM check of one device call, at most
#                                            about 9 minutes (below)
#
#   --anchor PATH     cuBLAS references from PATH (gemm_anchor.py, torch); default:
#                     shared/anchors/gemm_anchor.py when it exists
#   --no-anchor       none
#   --set S           bench_gemm_shapes --set (default targets,prompt,compile)
#   --deadline-s S    rows that would start later are skipped (default 420)
#   --build-dir DIR   binaries from DIR (default build-gpu, else build)
# The table goes to stdout and ${OUT:-/tmp}/gpu-gemm.log.
#
# --call runs, each step with its own time limit (SPVGEN_GPU_REQUIRED=1: a skip fails):
#   1. tests (<= 220 s): every test of gpu_test_gpu_gemm (`--list`) as its own process,
#      14 at a time (the driver's compiles are CPU work; 16 cores), each with an empty
#      driver cache of its own; a test not started by then is reported, not run;
#      -> $OUT/tests.txt (one line per test: name, exit status, seconds, its verdict line),
#         $OUT/tests-failures.txt (the last lines of every test that did not pass)
#   2. bench (<= 230 s): bench_gemm_shapes --set call with cuBLAS through the anchor
#      (default: BUILD/anchors/gemm_anchor.py, else shared/anchors/gemm_anchor.py)
#      -> $OUT/bench.txt
#   3. trace (<= 60 s): bench/trace.sh on bench/traces/qwen2-7b-prefill.txt (cold, warm,
#      spvgen cache only, torch.matmul) -> $OUT/trace.txt
#   and the SM clock, P-state and power every 500 ms -> $OUT/smi.csv, the steps' times and
#   verdicts -> $OUT/summary.txt (5 files in all).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

anchor=
anchor_set=0
[ -f shared/anchors/gemm_anchor.py ] && anchor=shared/anchors/gemm_anchor.py
set_arg=targets,prompt,compile
deadline=420
build_dir=
call=0
while [ $# -gt 0 ]; do
  case "$1" in
    --call) call=1 ;;
    --anchor) anchor=${2:?--anchor needs a path}; anchor_set=1; shift ;;
    --no-anchor) anchor=; anchor_set=1 ;;
    --set) set_arg=${2:?--set needs a value}; shift ;;
    --deadline-s) deadline=${2:?--deadline-s needs seconds}; shift ;;
    --build-dir) build_dir=${2:?--build-dir needs a directory}; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "gpu-gemm: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ -z "$build_dir" ]; then
  if [ -d build-gpu ]; then build_dir=build-gpu; else build_dir=build; fi
fi
bin=$build_dir/bench/bench_gemm_shapes
[ -x "$bin" ] || { echo "gpu-gemm: no $bin (build with scripts/gpu-check --build and carry build-gpu)" >&2; exit 1; }

. scripts/gpu-env.sh
gpu_env_vulkan gpu-gemm || exit 1

out_dir=${OUT:-/tmp}
mkdir -p "$out_dir"

if [ "$call" = 1 ]; then
  t0=$SECONDS
  summary=$out_dir/summary.txt
  [ "$anchor_set" = 0 ] && [ -f "$build_dir/anchors/gemm_anchor.py" ] && anchor=$build_dir/anchors/gemm_anchor.py
  echo "== spvgen gpu-gemm --call $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n), $(git log -1 --format=%h 2>/dev/null || echo '?')" | tee "$summary"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$summary"
  work=$(mktemp -d)
  if command -v nvidia-smi >/dev/null; then
    # started from a subshell: not a job of this shell, which waits for the tests' jobs
    (nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate,power.draw,temperature.gpu,clocks_event_reasons.active \
       --format=csv -lms 500 > "$out_dir/smi.csv" 2>&1 &
     echo $! > "$work/smi.pid")
  fi
  export SPVGEN_GPU_REQUIRED=1
  names=()
  # 1. the GPU tests as parallel processes, the slow sweeps first
  tests_bin=$build_dir/tests/gpu_test_gpu_gemm
  tests_limit=220
  : > "$work/results"
  if [ -x "$tests_bin" ]; then
    mapfile -t names < <("$tests_bin" --list | awk '
      /every_plan|runtime_(branch|shift)|edge_(clamp|shift)_matches|coopmat2_matches|simt_splitk/ { print 0, $0; next }
      /coopmat2/ { print 1, $0; next }
      { print 2, $0 }' | sort -s -k1,1n | cut -d' ' -f2)
    run_one() { # name, seconds left
      local name=$1 left=$2 cache s0=$SECONDS rc
      cache=$(mktemp -d)
      __GL_SHADER_DISK_CACHE_PATH=$cache timeout "$left" "$tests_bin" "$name" > "$work/$name.log" 2>&1
      rc=$?
      rm -rf "$cache"
      echo "$name exit $rc $((SECONDS - s0)) s: $(grep -E '^[0-9]+ passed' "$work/$name.log" | tail -1)" >> "$work/results"
    }
    running=0
    for name in "${names[@]}"; do
      left=$((tests_limit - (SECONDS - t0)))
      if [ "$left" -lt 20 ]; then
        echo "$name not started: the $tests_limit s of the tests were spent" >> "$work/results"
        continue
      fi
      run_one "$name" "$left" &
      running=$((running + 1))
      if [ "$running" -ge 14 ]; then wait -n; running=$((running - 1)); fi
    done
    wait
  else
    echo "no $tests_bin" >> "$work/results"
  fi
  sort "$work/results" > "$out_dir/tests.txt"
  : > "$out_dir/tests-failures.txt"
  for log in "$work"/*.log; do
    [ -e "$log" ] || continue
    name=$(basename "$log" .log)
    if ! grep -q "^$name exit 0 " "$out_dir/tests.txt"; then
      { echo "=== $name"; grep -E "FAIL|wrong|not reset|error" "$log" | head -20; tail -5 "$log"; } >> "$out_dir/tests-failures.txt"
    fi
  done
  passed=$(grep -c " exit 0 " "$out_dir/tests.txt")
  echo "tests: $passed of ${#names[@]} passed ($(grep -vc " exit 0 " "$out_dir/tests.txt") did not) by $((SECONDS - t0)) s" | tee -a "$summary"
  # 2. the shapes benchmark, cold driver cache
  t1=$SECONDS
  __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  export __GL_SHADER_DISK_CACHE_PATH
  bargs=(--set call --deadline-s 190)
  [ -n "$anchor" ] && [ -f "$anchor" ] && bargs+=(--anchor "$anchor")
  timeout 230 "$bin" "${bargs[@]}" > "$out_dir/bench.txt" 2>&1
  echo "bench: exit $? ($(grep -c ' ok' "$out_dir/bench.txt") rows ok, $(grep -c 'FAIL' "$out_dir/bench.txt") FAIL, $(grep -c 'skipped' "$out_dir/bench.txt") skipped) in $((SECONDS - t1)) s" | tee -a "$summary"
  unset __GL_SHADER_DISK_CACHE_PATH
  # 3. the framework trace, cold and warm, and torch.matmul on the same calls
  t2=$SECONDS
  timeout 60 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt "$build_dir" > "$out_dir/trace.txt" 2>&1
  echo "trace: exit $? in $((SECONDS - t2)) s" | tee -a "$summary"
  grep -E "^==|^summary|total (GPU|wall)|torch" "$out_dir/trace.txt" | head -20 >> "$summary"
  [ -s "$work/smi.pid" ] && kill "$(cat "$work/smi.pid")" 2>/dev/null
  rm -rf "$work"
  echo "== done in $((SECONDS - t0)) s" | tee -a "$summary"
  exit 0
fi

# Cold compiles: an empty shader cache for this run only.
__GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
export __GL_SHADER_DISK_CACHE_PATH
log=$out_dir/gpu-gemm.log
args=(--set "$set_arg" --deadline-s "$deadline")
[ -n "$anchor" ] && [ -f "$anchor" ] && args+=(--anchor "$anchor")
echo "== spvgen gpu-gemm $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n): $bin ${args[*]}" | tee "$log"
timeout $((deadline + 90)) "$bin" "${args[@]}" 2>&1 | tee -a "$log"
rc=${PIPESTATUS[0]}
echo "== exit $rc; log $log" | tee -a "$log"
exit "$rc"
