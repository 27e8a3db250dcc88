#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s19/callS19-7/ (card and driver in smi.txt)
# First compiles: every process starts with an empty driver and spvgen cache (a cold trace)
# References: torch.matmul's trace (bench/anchors/gemm_trace_anchor.py: pass 1 cold, pass 2 warm), each trace in this call (anchor-*.txt)
# Call S19-7 (the review's build: the prefetch wait before the kernel-cache snapshot, the
# family's cached-only questions through gemm_ask_cached): the tests the change touches,
# then the cold wall's spread: the two LLM traces cold, each process with fresh caches and
# --warm-up, the families (default) and --prefetch off alternated four times, and torch's
# trace anchor for each. (S19-6 ran the alternation with no reference in its call.)
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s19-6}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS19-7 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1 SPVGEN_CLI=$PWD/$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD
  for t in gemm_test_gemm_family vk_test_compile_async vk_test_cached_only cli_test_bench_trace; do
    echo "== $t"; timeout 200 $B/tests/$t; echo "rc=$?"
  done ) > "$O/A-tests.txt" 2>&1
grep -E "^==|passed|FAIL|rc=" "$O/A-tests.txt" | cut -c1-220
for t in qwen2-7b-prefill llama3-8b-prefill; do
  for i in 1 2 3 4; do
    for mode in families off; do
      a=""; [ $mode = off ] && a="--prefetch off"
      XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) timeout 60 $B/tools/spvgen bench trace bench/traces/$t.txt --cold --warm-up --clock off $a > "$O/cur.txt" 2>&1
      rc=$?
      { echo "######## $t $mode run $i (rc=$rc)"; cat "$O/cur.txt"; } >> "$O/runs.txt"
      printf '%-18s %-9s %s rc=%s %s\n' "$t" "$mode" "$i" "$rc" "$(grep -E '^summary' "$O/cur.txt" | grep -oE '(wall_ms|compile_ms|pipelines|prefetched|prefetch_wait_ms|gpu_ms)=[0-9.]*' | tr '\n' ' ')"
    done
  done
done
rm -f "$O/cur.txt"
for t in qwen2-7b-prefill llama3-8b-prefill; do
  timeout 120 python3 bench/anchors/gemm_trace_anchor.py bench/traces/$t.txt > "$O/anchor-$t.txt" 2>&1
  echo "anchor $t: $(grep -E '^summary' "$O/anchor-$t.txt")"
done
echo "total $((SECONDS - T0)) s"
