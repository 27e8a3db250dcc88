#!/bin/bash
# Call S9-RU (session 9, branch s9-reuse): cache-aware planning in the framework trace.
# `spvgen bench trace` plans each call with spvgen_gemm_plan_ex against the kernels the
# process already compiled (--reuse on, the default) or with AUTO's plan per call
# (--reuse off, what session 8 measured). For the Qwen2-7B trace and a second public
# LLM's (Llama-3-8B, bench/traces/llama3-8b-prefill.txt): bench/trace.sh with reuse off
# and on, in that order, each cold (empty spvgen and driver caches) / warm / spvgen cache
# only, then a second cold+warm pass of both modes (the noise of one pass); the
# torch.matmul anchor once per trace (with the first reuse-on pass). The plan-only view
# first (--caps h100, no device time): the pipelines and compiles the planner expects.
# Before the traces, the GPU test of cache-aware planning (tests/gpu/test_gpu_gemm.c,
# test_gemm_prompt_lengths_with_reused_kernels_matches_cpu: reused kernels at shapes far
# from their plans', every element against a float64 CPU reference).
# References: torch.matmul (cuBLAS) in the same call (bench/anchors/gemm_trace_anchor.py);
# each call's sample of outputs checked against a float64 CPU reference (`check:` lines).
# Needs build-gpu/ (scripts/gpu-check --build) and .gl/ carried.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/callS9-RU}; mkdir -p "$O"
T0=$SECONDS
B=${BUILD:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS9-RU > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$O/gpu.txt" 2>&1
# the GPU test of reused kernels (every element against the CPU), before the traces
timeout 150 "$B/tests/gpu_test_gpu_gemm" prompt_lengths_with_reused > "$O/gputest.txt" 2>&1
echo "gpu test rc=$? ($((SECONDS - T0)) s)"
for t in qwen2-7b-prefill llama3-8b-prefill; do
  for r in off on; do
    "$B/tools/spvgen" bench trace "bench/traces/$t.txt" --caps h100 --reuse $r > "$O/$t-plan-$r.txt" 2>&1
  done
done
pass() { # pass N: both traces, reuse off then on; the anchor in pass 1 only
  local n=$1 t r anchor
  for t in qwen2-7b-prefill llama3-8b-prefill; do
    for r in off on; do
      [ $((SECONDS - T0)) -lt ${GUARD:-420} ] || { echo "pass $n $t $r: skipped (time)"; continue; }
      anchor=0; [ "$n" = 1 ] && [ $r = on ] && anchor=1
      SPVGEN_TRACE_ARGS="--reuse $r" SPVGEN_TRACE_ANCHOR=$anchor timeout 150 \
        bash bench/trace.sh "bench/traces/$t.txt" "$B" > "$O/$t-reuse-$r-pass$n.txt" 2>&1
      echo "pass $n $t reuse $r: rc=$? ($((SECONDS - T0)) s)"
    done
  done
}
pass 1
pass 2
cat "$O/gpu.txt"
tail -4 "$O/gputest.txt"
for f in "$O"/*-plan-*.txt; do echo "== $(basename "$f")"; grep summary "$f"; done
for f in "$O"/*-reuse-*.txt; do
  echo "== $(basename "$f")"
  grep -E "^== |^summary|^check:|CHECK FAILED" "$f" | cut -c1-230
done
echo "done in $((SECONDS - T0)) s"
