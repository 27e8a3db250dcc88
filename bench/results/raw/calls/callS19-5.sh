#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s19/callS19-5/ (card and driver in smi.txt); GPU test output in tests/results/raw/gpu-2026-11-28-s19/
# First compiles: each trace's run 1 starts with an empty driver and spvgen cache; run 2 keeps both, run 3 the spvgen cache only
# References: torch.matmul's trace (gemm_trace_anchor.py: pass 1 cold, pass 2 warm), this call, run 4 of the default mode
# Call S19-5 (the session's final build, fe462ca): the tests the change touches on the NVIDIA
# driver, then the Qwen2-7B trace with the final defaults: no option (families ahead), and
# --tiered (families off by default there), each with --warm-up --passes 3.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s19-5}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS19-5 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1 SPVGEN_CLI=$PWD/$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD
  for t in gemm_test_gemm_family vk_test_compile_async vk_test_cached_only cli_test_bench_trace; do
    echo "== $t"; timeout 200 $B/tests/$t; echo "rc=$?"
  done ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/A-tests.txt" | cut -c1-220
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_compile_ms=[0-9.]* //;s/prefetch_compile_ms=[0-9.]* //;s/clock_mhz=[0-9,]* //;s/hits=[0-9]* //;s/cold=0 //'
t=qwen2-7b-prefill
for mode in default tiered; do
  case $mode in default) a=""; anc=1;; tiered) a="--tiered"; anc=0;; esac
  SPVGEN_TRACE_ARGS="--warm-up --passes 3 $a" SPVGEN_TRACE_ANCHOR=$anc timeout 170 bash bench/trace.sh bench/traces/$t.txt $B > "$O/cur.txt" 2>&1
  rc=$?
  { echo "######## mode $mode: SPVGEN_TRACE_ARGS=\"--warm-up --passes 3 $a\" bash bench/trace.sh bench/traces/$t.txt (rc=$rc)"; cat "$O/cur.txt"; } >> "$O/B-$t.txt"
  echo "B $t $mode rc=$rc"
  grep -E "^== |^summary" "$O/cur.txt" | sed -e "$S" | cut -c1-400
done
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
