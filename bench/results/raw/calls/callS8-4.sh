#!/bin/bash
# Call S8-4 (session 8, main with s8-longk, s8-tauto and the batched pipeline creation
# merged): the long-K planner's GPU check (callS8-LK.sh, its own header says what and
# its references), then the Qwen2-7B trace on this tree (bench/trace.sh: cold / warm /
# spvgen cache only + torch.matmul in the same call; the long-K classes' slice counts
# come from the new planner).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/callS8-4}; mkdir -p "$O"
T0=$SECONDS
OUT=$O/lk bash bench/results/raw/calls/callS8-LK.sh > "$O/lk.txt" 2>&1
echo "LK rc=$? ($((SECONDS - T0)) s)"
. scripts/gpu-env.sh
gpu_env_vulkan callS8-4 > /dev/null || exit 1
timeout $((560 - (SECONDS - T0))) bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt build-gpu > "$O/trace.txt" 2>&1
echo "trace rc=$? ($((SECONDS - T0)) s)"
grep -E "^==|summary" "$O/trace.txt" | cut -c1-200
tail -60 "$O/lk.txt"
cd "$O" && tar czf lk.tgz lk && rm -rf lk
