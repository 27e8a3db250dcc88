#!/bin/bash
# Call S11-2: the FIXED K loop's shape (bench_gemm_shapes --set fixloop: the split into a
# multiple of 8 iterations on every tile (cg:s), the rest loop DontUnroll (cg:u), the main
# loop DontUnroll (cg:n), beside each tile as it is; K 3008 and 6080, 3072 the control);
# then the status of the framework traces on the session's build: Qwen2-7B and Llama-3-8B
# prefill (40 calls each, run-time shapes, AUTO with reuse), cold then warm
# (`bash bench/trace.sh bench/traces/T.txt build-gpu`), torch.matmul beside.
# References: cuBLAS (gemm_anchor.py, "# anchor:" lines) for the bench rows; torch.matmul
# (bench/anchors/gemm_trace_anchor.py) for the traces; both in the same call. First
# compiles: the bench's compile column (empty driver cache, one process); each trace's
# cold run (empty spvgen and driver caches) prints its compiles.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS11-2 > /dev/null || exit 1
O=${OUT:-/tmp/callS11-2}/s11-2; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
(
export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
timeout 300 stdbuf -oL "$B/bench/bench_gemm_shapes" --set fixloop --anchor "$B/anchors/gemm_anchor.py" --deadline-s 260 > "$O/fixloop.txt" 2>&1
echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/fixloop.txt"
)
for t in qwen2-7b-prefill llama3-8b-prefill; do
  timeout 140 bash bench/trace.sh "bench/traces/$t.txt" "$B" > "$O/trace-$t.txt" 2>&1
  echo "rc=$? ($((SECONDS - T0)) s)" >> "$O/trace-$t.txt"
done
cd "$O/.." && tar czf s11-2.tgz s11-2 && rm -rf s11-2
