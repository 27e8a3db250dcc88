#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s22/callS22-4/ (card and driver in smi.txt)
# First compiles: each trace's run 1 starts with an empty driver and spvgen cache (bench/trace.sh); run 2 keeps both, run 3 the spvgen cache only
# References: the session's start (d475022, build-gpu/base/tools/spvgen) on the same traces, and torch.matmul's trace (bench/anchors/gemm_trace_anchor.py: pass 1 cold, pass 2 warm) in bench/trace.sh's run 4 of the final build's run; the GPU tests' reference is their float64 CPU reference, element by element
# Call S22-4 (main with both session-22 changes merged): (A) tests/gpu/test_gpu_gemm, one
# test case per process (bench/results/raw/calls/gpu-gemm-tests-S22.txt: the cases of
# default and packed plans first), until 230 s have passed; (B) two LLM prefill traces
# whose run-time plans moved (decode-length calls from khr 128x128x32 to coopmat2 32x64x64
# split-K), through bench/trace.sh with --warm-up, with the start's build and this one.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s22-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS22-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
while read -r t; do
  case $t in "#"*|"") continue;; esac
  [ $((SECONDS - T0)) -gt 230 ] && { echo "not run (time): $t" >> "$O/A-tests.txt"; continue; }
  s=$SECONDS
  SPVGEN_GPU_REQUIRED=1 SPVGEN_CLI=$PWD/$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD timeout 120 $B/tests/gpu_test_gpu_gemm "$t" > "$O/cur.txt" 2>&1
  rc=$?
  echo "== $t rc=$rc $((SECONDS - s)) s: $(grep -E "passed|FAIL" "$O/cur.txt" | tail -3 | tr '\n' ' ')" >> "$O/A-tests.txt"
  grep -q FAIL "$O/cur.txt" && cat "$O/cur.txt" >> "$O/A-fail.txt"
done < bench/results/raw/calls/gpu-gemm-tests-S22.txt
rm -f "$O/cur.txt"
grep -c "rc=0" "$O/A-tests.txt"; grep -v "rc=0" "$O/A-tests.txt" | cut -c1-200
echo "A done $((SECONDS - T0)) s"
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_compile_ms=[0-9.]* //;s/clock_mhz=[0-9,]* //;s/hits=[0-9]* //;s/cold=0 //'
for t in qwen2-7b-prefill phi3-mini-prefill; do
  for b in base final; do
    bd=$B; [ $b = base ] && bd=$B/base
    anchor=0; [ $b = final ] && anchor=1
    SPVGEN_TRACE_ANCHOR=$anchor SPVGEN_TRACE_ARGS="--warm-up" timeout 120 bash bench/trace.sh bench/traces/$t.txt $bd > "$O/cur.txt" 2>&1
    rc=$?
    { echo "######## $b: SPVGEN_TRACE_ANCHOR=$anchor SPVGEN_TRACE_ARGS=\"--warm-up\" bash bench/trace.sh bench/traces/$t.txt $bd (rc=$rc)"; cat "$O/cur.txt"; } >> "$O/B-traces.txt"
    echo "B $t $b rc=$rc $((SECONDS - T0)) s"
    grep -E "^== |^summary|MISMATCH|rror" "$O/cur.txt" | sed -e "$S" | cut -c1-300
  done
done
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
