#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s22/callS22-4/ (card and driver in smi.txt)
# First compiles: each trace's run 1 starts with an empty driver and spvgen cache (bench/trace.sh); run 2 keeps both, run 3 the spvgen cache only
# References: the session's start (d475022, build-gpu/base/tools/spvgen) on the same traces, and torch.matmul's trace (bench/anchors/gemm_trace_anchor.py: pass 1 cold, pass 2 warm) in bench/trace.sh's run 4 of the final build's run; the GPU tests' reference is their float64 CPU reference, element by element
# Call S22-4 (main with both session-22 changes merged): (A) tests/gpu/test_gpu_gemm, one
# test case per process (the list below: the cases of default plans and edges first),
# until 230 s have passed; (B) two LLM prefill traces
# whose run-time plans moved (decode-length calls from khr 128x128x32 to coopmat2 32x64x64
# split-K), through bench/trace.sh with --warm-up, with the start's build and this one.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s22-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS22-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
while read -r t; do
  case $t in "#"*|"") continue;; esac
  [ $((SECONDS - T0)) -gt 230 ] && { echo "not run (time): $t" >> "$O/A-tests.txt"; continue; }
  s=$SECONDS
  SPVGEN_GPU_REQUIRED=1 SPVGEN_CLI=$PWD/$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD timeout 120 $B/tests/gpu_test_gpu_gemm "$t" > "$O/cur.txt" 2>&1
  rc=$?
  echo "== $t rc=$rc $((SECONDS - s)) s: $(grep -E "passed|FAIL" "$O/cur.txt" | tail -3 | tr '\n' ' ')" >> "$O/A-tests.txt"
  grep -q FAIL "$O/cur.txt" && cat "$O/cur.txt" >> "$O/A-fail.txt"
done <<'TESTS'
test_gemm_coopmat2_matches_cpu_f16_f32
test_gemm_coopmat2_matches_cpu_f16_f16
test_gemm_khr_matches_cpu_f16_f32
test_gemm_khr_matches_cpu_f16_f16
test_gemm_coopmat2_every_plan_matches_cpu_f16_f32
test_gemm_coopmat2_every_plan_matches_cpu_f16_f16
test_gemm_khr_every_plan_matches_cpu_f16_f32
test_gemm_khr_every_plan_matches_cpu_f16_f16
test_gemm_coopmat2_edge_clamp_matches_cpu_f16_f32
test_gemm_coopmat2_edge_clamp_matches_cpu_f16_f16
test_gemm_coopmat2_edge_clamp_matches_cpu_int8
test_gemm_coopmat2_edge_clamp_matches_cpu_bf16
test_gemm_coopmat2_edge_clamp_epilogue_matches_cpu
test_gemm_coopmat2_edge_shift_matches_cpu_f16_f32
test_gemm_coopmat2_edge_shift_matches_cpu_f16_f16
test_gemm_coopmat2_edge_shift_matches_cpu_int8
test_gemm_coopmat2_edge_shift_matches_cpu_bf16
test_gemm_coopmat2_edge_shift_epilogue_matches_cpu
test_gemm_coopmat2_splitk_matches_cpu
test_gemm_khr_splitk_matches_cpu
test_gemm_khr_splitk_f16_matches_cpu
test_gemm_khr_splitk_f16_f32acc_matches_cpu
test_gemm_khr_splitk_s8_matches_cpu
test_gemm_khr_splitk_u8_matches_cpu
test_gemm_simt_splitk_matches_cpu
test_gemm_quick_form_matches_cpu
test_gemm_coopmat2_runtime_matches_cpu_f16_f32
test_gemm_coopmat2_runtime_matches_cpu_f16_f16
test_gemm_khr_runtime_matches_cpu_f16_f32
test_gemm_khr_runtime_matches_cpu_f16_f16
test_gemm_coopmat2_runtime_splitk_matches_cpu
test_gemm_coopmat2_splitk_slice_origin_matches_cpu
test_gemm_prompt_lengths_planned_per_call_matches_cpu
test_gemm_prompt_lengths_with_reused_kernels_matches_cpu
test_gemm_coopmat2_pack_matches_cpu
test_gemm_coopmat2_pack_big_matches_cpu
test_gemm_coopmat2_matches_cpu_int8
test_gemm_coopmat2_matches_cpu_bf16
test_gemm_khr_matches_cpu_int8
test_gemm_khr_matches_cpu_bf16
test_gemm_simt_matches_cpu
test_gemm_coopmat2_epilogue_matches_cpu
test_gemm_khr_epilogue_matches_cpu
test_gemm_coopmat2_every_activation_matches_cpu
test_gemm_khr_every_activation_matches_cpu
test_gemm_simt_every_activation_matches_cpu
test_gemm_coopmat2_activation_precision_matches_cpu
test_gemm_coopmat2_k_fixed_matches_cpu
test_gemm_khr_k_fixed_matches_cpu
test_gemm_khr_activation_precision_matches_cpu
test_gemm_coopmat2_every_plan_matches_cpu_s8
test_gemm_khr_every_plan_matches_cpu_s8
test_gemm_h100_kernels_validation
test_gemm_long_k_matches_cpu
test_gemm_fold_past_65535_matches_cpu
test_gemm_coopmat2_stages2_matches_cpu
test_gemm_coopmat2_runtime_matches_cpu_int8
test_gemm_coopmat2_runtime_matches_cpu_bf16
test_gemm_coopmat2_runtime_branch_matches_cpu_16bit
test_gemm_coopmat2_runtime_branch_matches_cpu_8bit
test_gemm_coopmat2_runtime_clamp_matches_cpu_16bit
test_gemm_coopmat2_runtime_clamp_matches_cpu_8bit
test_gemm_coopmat2_runtime_shift_matches_cpu_16bit
test_gemm_coopmat2_runtime_shift_matches_cpu_8bit
test_gemm_khr_runtime_matches_cpu_int8
test_gemm_khr_runtime_matches_cpu_bf16
test_gemm_coopmat2_runtime_epilogue_matches_cpu
test_gemm_khr_runtime_epilogue_matches_cpu
test_gemm_coopmat2_masked_k_edge_matches_cpu
test_gemm_coopmat2_k_loop_and_192_tiles_matches_cpu
TESTS
rm -f "$O/cur.txt"
grep -c "rc=0" "$O/A-tests.txt"; grep -v "rc=0" "$O/A-tests.txt" | cut -c1-200
echo "A done $((SECONDS - T0)) s"
S='s/disk_cache_bytes_read=[0-9]* //;s/shapes=runtime //;s/reuse=on //;s/background_compile_ms=[0-9.]* //;s/clock_mhz=[0-9,]* //;s/hits=[0-9]* //;s/cold=0 //'
for t in qwen2-7b-prefill phi3-mini-prefill; do
  for b in base final; do
    bd=$B; [ $b = base ] && bd=$B/base
    anchor=0; [ $b = final ] && anchor=1
    SPVGEN_TRACE_ANCHOR=$anchor SPVGEN_TRACE_ARGS="--warm-up" timeout 120 bash bench/trace.sh bench/traces/$t.txt $bd > "$O/cur.txt" 2>&1
    rc=$?
    { echo "######## $b: SPVGEN_TRACE_ANCHOR=$anchor SPVGEN_TRACE_ARGS=\"--warm-up\" bash bench/trace.sh bench/traces/$t.txt $bd (rc=$rc)"; cat "$O/cur.txt"; } >> "$O/B-traces.txt"
    echo "B $t $b rc=$rc $((SECONDS - T0)) s"
    grep -E "^== |^summary|MISMATCH|rror" "$O/cur.txt" | sed -e "$S" | cut -c1-300
  done
done
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
