#!/bin/bash
# Call S12-9: the final GEMM code (run-time classes fold only with SPVGEN_GEMM_CODEGEN_FOLD_M):
# (1) the fold GPU tests (test_gemm_fold_past_65535_matches_cpu: coopmat2 / khr / simt,
#     fixed and run-time with the bit; test_mlp_layers_past_the_grid_limit_matches_cpu),
#     SPVGEN_GPU_REQUIRED=1, empty caches;
# (2) the Qwen2-7B and Llama-3-8B prefill traces (bench/trace.sh) with this build and main
#     (ea6213e, build-gpu/main), interleaved: run-time kernels without the bit should be
#     main's again. References: main in the same call; torch.matmul trace anchor (new, once
#     per trace). First compiles: each trace's run 1 (empty caches).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s12-9}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-9 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_GPU_REQUIRED=1
  timeout 150 stdbuf -oL build-gpu/tests/gpu_test_gpu_gemm test_gemm_fold_past_65535_matches_cpu; echo "rc=$?"
  timeout 100 stdbuf -oL build-gpu/tests/gpu_test_gpu_mlp test_mlp_layers_past_the_grid_limit_matches_cpu; echo "rc=$?" ) > "$O/fold-tests.txt" 2>&1
grep -E "fold \[|passed|rc=|gpu-summary" "$O/fold-tests.txt"
echo "== traces ($((SECONDS - T0)) s)"
for t in qwen2-7b llama3-8b; do
  for who in new main; do
    b=build-gpu; [ $who = main ] && b=build-gpu/main
    a=0; [ $who = new ] && a=1
    { echo "== $t $who"; SPVGEN_TRACE_ANCHOR=$a timeout 100 bash bench/trace.sh bench/traces/$t-prefill.txt $b 2>&1; } >> "$O/traces.txt"
  done
done
awk '/^== /{h=$2" "$3; r=0} /^summary calls=40 shapes/{r++; split($0,f," "); for(i in f){if(f[i]~/^gpu_ms=/)g=f[i]; if(f[i]~/^compile_ms=/)c=f[i]; if(f[i]~/^wall_ms=/)w=f[i]}; printf "%-20s run %d %s %s %s\n", h, r, c, g, w} /^summary calls=40 cold_wall/{print h" anchor: "$0}' "$O/traces.txt" | tee "$O/summary.txt"
echo "total $((SECONDS - T0)) s"
