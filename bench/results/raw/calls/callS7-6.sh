#!/bin/bash
# Call S7-6 (session 7): the Qwen2-7B prefill trace (bench/traces/qwen2-7b-prefill.txt) cold /
# warm / spvgen cache only, as in calls S6-1 and S6-2, on the final tree: the long-K bound
# splits its K = 18944 calls (at least 2 slices) and the pack kernel moves 16-byte units,
# so the trace's figures are re-measured.
# References: torch.matmul on the same calls (bench/anchors/gemm_trace_anchor.py, part 4 of
# bench/trace.sh), same call; first compiles: the cold run's per-call compile column.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS7-6 || exit 1
O=${OUT:-/tmp/callS7-6}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
timeout 170 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/trace.txt" 2>&1
echo "== trace rc=$? ($((SECONDS - T0)) s)"
grep -E "^==|summary" "$O/trace.txt" | cut -c1-200
