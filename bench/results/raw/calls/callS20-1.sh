#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s20/callS20-1/ (card and driver in smi.txt)
# First compiles: each trace's run 1 starts with an empty driver and spvgen cache; run 2 keeps both, run 3 the spvgen cache only; every run mlp process starts with both caches empty (its "driver compile" is a first compile)
# References: torch.matmul's trace (gemm_trace_anchor.py: pass 1 cold, pass 2 warm), run 4 of each trace; torch eager and torch.compile on the same networks and point counts (bench/anchors/mlp_anchor_net.py), this call
# Call S20-1 (main at the session's start, 41e0f0a, plus six held-out traces): does the
# planning generalize? Six traces of models the rules were never tuned on (bench/traces/
# phi3-mini-prefill, gemma2-2b-prefill, qwen2-0.5b-prefill, llama3-70b-tp8-prefill,
# mistral-7b-f16out, llama2-7b-bf16) through bench/trace.sh with --warm-up --passes 3 (the
# default mode: families compiled ahead), and ten random networks of issue 28's grid
# (bench/results/raw/calls/nets-S20.txt: odd widths, every activation) on `spvgen run mlp`'s
# AUTO plan, with torch eager / torch.compile on the same networks.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s20-1}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS20-1 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_compile_ms=[0-9.]* //;s/prefetch_compile_ms=[0-9.]* //;s/clock_mhz=[0-9,]* //;s/hits=[0-9]* //;s/cold=0 //'
for t in phi3-mini-prefill gemma2-2b-prefill qwen2-0.5b-prefill llama3-70b-tp8-prefill mistral-7b-f16out llama2-7b-bf16; do
  SPVGEN_TRACE_ARGS="--warm-up --passes 3" timeout 150 bash bench/trace.sh bench/traces/$t.txt $B > "$O/cur.txt" 2>&1
  rc=$?
  { echo "######## SPVGEN_TRACE_ARGS=\"--warm-up --passes 3\" bash bench/trace.sh bench/traces/$t.txt (rc=$rc)"; cat "$O/cur.txt"; } >> "$O/A-traces.txt"
  echo "A $t rc=$rc $((SECONDS - T0)) s"
  grep -E "^== |^summary|MISMATCH|rror" "$O/cur.txt" | sed -e "$S" | cut -c1-400
done
rm -f "$O/cur.txt"
while IFS=$'\t' read -r name flags pts; do
  case $name in '#'*|'') continue;; esac # the file's comment lines
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $name auto: spvgen run mlp $flags --points $pts --sample 1024 --repeats 20"
    timeout 60 $B/tools/spvgen run mlp $flags --points $pts --sample 1024 --repeats 20; echo "rc=$?" ) >> "$O/B-mlp.txt" 2>&1
done < bench/results/raw/calls/nets-S20.txt
grep -E "^==|^plan|^emit|^gpu|^check|MISMATCH|rc=" "$O/B-mlp.txt" | cut -c1-200
echo "B done $((SECONDS - T0)) s"
timeout $((570 - (SECONDS - T0))) python3 bench/anchors/mlp_anchor_net.py --time-cap $((550 - (SECONDS - T0))) --nets bench/results/raw/calls/nets-S20.txt > "$O/C-anchor.txt" 2>&1
grep -E "^anchor|skipped" "$O/C-anchor.txt"
echo "total $((SECONDS - T0)) s"
