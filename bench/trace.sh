#!/usr/bin/env bash
# bench/trace.sh [TRACE] [BUILD_DIR] — the framework-trace benchmark on the GPU machine:
# (`spvgen bench trace` plans each call for its class of shapes, run-time shapes in push
# constants, unless --shapes fixed is given through SPVGEN_TRACE_ARGS.)
#  1. cold: `spvgen bench trace` with an empty spvgen kernel cache AND an empty driver
#     shader cache (NVIDIA: __GL_SHADER_DISK_CACHE_PATH; Mesa: MESA_SHADER_CACHE_DIR),
#  2. warm: the same again in a new process with both caches as run 1 left them,
#  3. warm, spvgen cache only: a new process, the spvgen cache of run 1, the driver's
#     cache emptied again (what spvgen's own VkPipelineCache brings),
#  4. the torch.matmul anchor on the same calls (bench/anchors/gemm_trace_anchor.py),
# each printing its per-call table and a `summary` line. Runs 1-3 pass `--passes 2`: after
# pass 1 (the table, the totals and the summary's first fields: what a fresh process pays,
# first calls at whatever clock the GPU is at) the same calls run again in the same
# process, and that pass 2 (`pass 2: GPU ms ...`, the summary's last_pass_gpu_ms=) is the
# figure comparable with the anchor's pass 2 (warm_gpu_ms=). A warm trace is ~15 ms of GPU
# work, short enough to run at the idle clock the GPU keeps for 100-400 ms after an idle
# second (docs/runner.md, "GPU clocks"); the `slow calls:` line counts the calls of each
# pass that ran at more than 2x their best pass. Record the output in bench/results/ with
# the date and the card. SPVGEN_TRACE_ARGS passes options to every `spvgen bench trace`
# after --passes 2 (e.g. "--reuse off": AUTO's plan per call, no cache-aware planning;
# "--prefetch off": no weight's family compiled ahead, each plan at its first call;
# "--tiered": tiers; "--warm-up": the GPU's clock up before pass 1; "--passes 3" replaces
# the 2); SPVGEN_TRACE_ANCHOR=0 leaves out run 4 (the anchor).
set -euo pipefail
cd "$(dirname "$0")/.."
trace=${1:-bench/traces/qwen2-7b-prefill.txt}
build=${2:-build}
spvgen="$build/tools/spvgen"
work=$(mktemp -d /tmp/spvgen-trace-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/spvgen" "$work/driver" "$work/driver2"
echo "== 1. cold (empty spvgen and driver caches)"
__GL_SHADER_DISK_CACHE_PATH="$work/driver" MESA_SHADER_CACHE_DIR="$work/driver" \
  "$spvgen" bench trace "$trace" --cache-dir "$work/spvgen" --passes 2 ${SPVGEN_TRACE_ARGS:-}
echo "== 2. warm (both caches from run 1)"
__GL_SHADER_DISK_CACHE_PATH="$work/driver" MESA_SHADER_CACHE_DIR="$work/driver" \
  "$spvgen" bench trace "$trace" --cache-dir "$work/spvgen" --passes 2 ${SPVGEN_TRACE_ARGS:-}
echo "== 3. warm spvgen cache, empty driver cache"
__GL_SHADER_DISK_CACHE_PATH="$work/driver2" MESA_SHADER_CACHE_DIR="$work/driver2" \
  "$spvgen" bench trace "$trace" --cache-dir "$work/spvgen" --passes 2 ${SPVGEN_TRACE_ARGS:-}
echo "== 4. torch.matmul anchor"
if [ "${SPVGEN_TRACE_ANCHOR:-1}" = 0 ]; then
  echo "(SPVGEN_TRACE_ANCHOR=0: anchor left out)"
elif python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  python3 bench/anchors/gemm_trace_anchor.py "$trace"
else
  echo "(no torch with CUDA here: anchor skipped)"
fi
