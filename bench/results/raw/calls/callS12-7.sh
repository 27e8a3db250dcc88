#!/bin/bash
# Call S12-7 (outputs written to $OUT as they come): main before this session's GEMM
# changes (ea6213e: build-gpu/main/tools/spvgen) against this build, same call:
# (1) the khr switch now only where coopmat2's plan has edges or a tile under 128x128:
#     default plans of 2048x3584x3584 nt f16->f32 and of 262,144 / 1,048,576 x 256 x 256|1024
#     nt (f16 out; the last with bias + ReLU, the MLP layers variant's 256-wide layer), each
#     row its own process with empty caches (first compiles: `pipeline`), 4096 sampled outputs
#     checked; cuBLAS (gemm_anchor.py, plain a @ b) of each shape.
# (2) the folded grid's cost on run-time kernels: the Qwen2-7B and Llama-3-8B prefill traces
#     (bench/trace.sh, cold / warm / warm spvgen cache only), new and main interleaved, twice
#     for Qwen; the torch.matmul trace anchor once per trace. The MLP layers variant
#     64-256x3-64 at 2,097,152 points (its GEMMs are run-time classes), main and new.
# (3) test_gemm_fold_past_65535_matches_cpu with sampled checks (cut at 150 s whole in S12-6).
# References: cuBLAS (gemm_anchor.py), main ea6213e and the torch.matmul trace anchor, in the same call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-7}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-7 > /dev/null || exit 1
B=build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
row() {
  local name=$1 bin=$2; shift 2
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $name"
    timeout 50 "$bin" run "$@" 2>&1; echo "rc=$?" ) >> "$O/rows.txt"
}
for who in main new; do
  bin=$B/tools/spvgen; [ $who = main ] && bin=$B/main/tools/spvgen
  row "$who 2048x3584x3584" $bin gemm --m 2048 --n 3584 --k 3584 --layout nt --types f16,f32 --sample 4096 --repeats 20
  row "$who 262144x256x256" $bin gemm --m 262144 --n 256 --k 256 --layout nt --types f16,f32,f16 --sample 4096 --repeats 20
  row "$who 262144x256x1024" $bin gemm --m 262144 --n 256 --k 1024 --layout nt --types f16,f32,f16 --sample 4096 --repeats 20
  row "$who 1048576x256x256-relu" $bin gemm --m 1048576 --n 256 --k 256 --layout nt --types f16,f32,f16 --bias column --act relu --sample 4096 --repeats 20
  row "$who mlp-64-256x3-64-layers" $bin mlp --in 64 --hidden 256x3 --out 64 --points 2097152 --variant layers --sample 1024
done
awk '/^== /{n=$2" "$3} /^plan/{p=substr($0,10,58)} /^pipeline/{c=$2} /^emit/{c=$0; sub(/.*compile /,"",c)} /^gpu/{g=$2; r=$0; sub(/.*\), /,"",r); sub(/.*median of [0-9]+, /,"",r); printf "%-32s %-58s %10s %8s ms %s\n", n, p, c, g, r}' "$O/rows.txt" | tee "$O/rows-summary.txt"
timeout 90 python3 $B/anchors/gemm_anchor.py 2048,3584,3584 262144,256,256 262144,256,1024 1048576,256,256 2>&1 | tee "$O/anchor.txt"
echo "== traces ($((SECONDS - T0)) s)"
for pass in 1 2; do
  for who in new main; do
    b=$B; [ $who = main ] && b=$B/main
    SPVGEN_TRACE_ANCHOR=$([ $pass = 1 ] && [ $who = new ] && echo 1 || echo 0) timeout 110 bash bench/trace.sh bench/traces/qwen2-7b-prefill.txt $b > "$O/trace-qwen-$who-$pass.txt" 2>&1
  done
done
for who in new main; do
  b=$B; [ $who = main ] && b=$B/main
  SPVGEN_TRACE_ANCHOR=$([ $who = new ] && echo 1 || echo 0) timeout 110 bash bench/trace.sh bench/traces/llama3-8b-prefill.txt $b > "$O/trace-llama-$who.txt" 2>&1
done
for f in "$O"/trace-*.txt; do echo "$(basename $f)"; grep summary "$f"; done
echo "== fold test ($((SECONDS - T0)) s)"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  timeout 150 stdbuf -oL $B/tests/gpu_test_gpu_gemm test_gemm_fold_past_65535_matches_cpu; echo "rc=$?" ) > "$O/fold-test.txt" 2>&1
tail -12 "$O/fold-test.txt"
echo "total $((SECONDS - T0)) s"
