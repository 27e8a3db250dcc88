#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s19/callS19-6/ (card and driver in smi.txt)
# First compiles: every process starts with an empty driver and spvgen cache (a cold trace)
# References: none needed (the two modes of one build, alternated in one call); torch's cold walls of S19-4/S19-5 in the record
# Call S19-6 (build fe462ca): the cold wall's spread. The two LLM traces cold, each
# process with fresh caches and --warm-up, the families (default) and --prefetch off
# alternated four times.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s19-6}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS19-6 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
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
echo "total $((SECONDS - T0)) s"
