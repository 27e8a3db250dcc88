#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s17/callS17-5/ (card and driver in smi.txt)
# First compiles: every `run gemm` process and every cold trace run starts with an empty driver and spvgen cache (with --tiered: the quick form's compile is the first call's wait, the plan's runs in the background)
# References: cuBLAS (gemm_anchor.py, part A's shapes) and torch.matmul's trace (gemm_trace_anchor.py, part B), this call
# Call S17-5 (H200, the card of most earlier trace figures): the final build's tiered
# compiles. (A) `run gemm --tiered` on three issue shapes. (B) the LLM prefill traces cold
# and warm (bench/trace.sh), with and without --tiered.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s17-5}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS17-5 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
for r in "8192 8192 8192 --types f16,f32" "2048 3584 3584 --types f16,f32 --layout nt" "4097 4095 4093 --types f16,f32"; do
  set -- $r; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3; rest="$*"
  { echo "== A $tag $rest --tiered"; fresh timeout 90 $B/tools/spvgen run gemm $sh $rest --tiered --sample 4096 --repeats 20 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/A-tiered.txt"
  printf 'A %-16s %-22s %s\n' "$tag" "$rest" "$(grep -E '^(first|then|pipeline|gpu|ready)|MISMATCH|rc=[^0]' "$O/cur.txt" | sed -e 's/median of 20.*submissions[^)]*)//' -e 's/(the quick form.s compile: what the first call waits for;/(first-call wait;/' -e 's/(the driver.s compile, in the background while the quick form ran/(background/' | cut -c1-95 | tr '\n' ' ')"
done
rm -f "$O/cur.txt"
timeout 60 python3 $B/anchors/gemm_anchor.py 8192,8192,8192 2048,3584,3584 4097,4095,4093 > "$O/gemm-anchor.txt" 2>&1; tail -3 "$O/gemm-anchor.txt"
for t in qwen2-7b-prefill llama3-8b-prefill; do
  for mode in plain tiered; do
    args=; [ $mode = tiered ] && args=--tiered
    anchor=0; [ $mode = tiered ] && anchor=1
    SPVGEN_TRACE_ARGS="$args" SPVGEN_TRACE_ANCHOR=$anchor timeout 150 bash bench/trace.sh bench/traces/$t.txt $B > "$O/B-$t-$mode.txt" 2>&1
    echo "B $t $mode rc=$?"
    grep -E "^== |^summary|^tiered:" "$O/B-$t-$mode.txt" | sed 's/disk_cache_bytes_read=[0-9]* //' | cut -c1-240
  done
done
echo "total $((SECONDS - T0)) s"
