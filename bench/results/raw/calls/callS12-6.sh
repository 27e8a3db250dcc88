#!/bin/bash
# Call S12-6 (outputs written to $OUT as they come):
# (1) the folded grid's GPU tests (M tiles past 65535; session 12): gpu_test_gpu_gemm
#     test_gemm_fold_past_65535_matches_cpu and gpu_test_gpu_mlp
#     test_mlp_layers_past_the_grid_limit_matches_cpu, SPVGEN_GPU_REQUIRED=1, empty caches.
# (2) the K sweep behind short-K planning: D[262,144 x 256] = A W^T, nt, f16 in, f32
#     accumulation, f16 out, K 128 / 512 / 1024 / 2048 / 4096, at khr's default tile and
#     coopmat2 128x128x32, 128x128x64, 128x256x32 (unroll 1); each row its own process with
#     empty caches (first compiles: `pipeline`), 4096 sampled outputs checked; cuBLAS of
#     every K (gemm_anchor.py, plain a @ b) in the same call.
# (3) the Qwen2-7B prefill trace (bench/trace.sh: cold, warm, warm spvgen cache only) with
#     main before the fold (ea6213e, build-gpu/main/tools/spvgen) and with this build,
#     torch.matmul trace anchor once: the fold adds 15 instructions to every run-time
#     kernel, which the trace's kernels all are.
# References: cuBLAS (gemm_anchor.py) for the K sweep; main ea6213e and the torch.matmul trace anchor for the traces; the tests' float64 CPU references.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-6}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-6 > /dev/null || exit 1
B=build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
export SPVGEN_GPU_REQUIRED=1
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  timeout 150 stdbuf -oL $B/tests/gpu_test_gpu_gemm test_gemm_fold_past_65535_matches_cpu; echo "rc=$?"
  timeout 100 stdbuf -oL $B/tests/gpu_test_gpu_mlp test_mlp_layers_past_the_grid_limit_matches_cpu; echo "rc=$?" ) > "$O/fold-tests.txt" 2>&1
echo "== fold tests ($((SECONDS - T0)) s)"; grep -E "passed|rc=|fold:|bad" "$O/fold-tests.txt" | tail -14
unset SPVGEN_GPU_REQUIRED
row() {
  local name=$1; shift
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $name"
    timeout 40 "$B/tools/spvgen" run gemm --m 262144 --n 256 --layout nt --types f16,f32,f16 --sample 4096 --repeats 20 \
      --warmup-ms 100 "$@" 2>&1; echo "rc=$?" ) >> "$O/ksweep-rows.txt"
}
for k in 128 512 1024 2048 4096; do
  row "k$k-khr" --k $k --variant khr
  for t in 128x128x32 128x128x64 128x256x32; do row "k$k-$t" --k $k --variant coopmat2 --tile $t --unroll 1; done
done
echo "== K sweep ($((SECONDS - T0)) s)"
awk '/^== /{n=$2} /^plan/{p=substr($0,10,50)} /^pipeline/{c=$2} /^gpu/{g=$2; r=$0; sub(/.*\), /,"",r); printf "%-16s %-50s %8s ms %8s ms %s\n", n, p, c, g, r}' "$O/ksweep-rows.txt" | tee "$O/ksweep.txt"
timeout 90 python3 $B/anchors/gemm_anchor.py 262144,256,128 262144,256,512 262144,256,1024 262144,256,2048 262144,256,4096 2>&1 | tee "$O/ksweep-anchor.txt"
echo "== traces ($((SECONDS - T0)) s)"
SPVGEN_TRACE_ANCHOR=0 timeout 110 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B/main > "$O/trace-qwen-main.txt" 2>&1; echo "main rc=$?"
timeout 150 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $B > "$O/trace-qwen-new.txt" 2>&1; echo "new rc=$?"
grep -h "summary" "$O"/trace-qwen-*.txt
echo "total $((SECONDS - T0)) s"
