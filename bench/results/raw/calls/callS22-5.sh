#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s22/callS22-5/ (card and driver in smi.txt)
# First compiles: every run process starts with an empty driver disk cache and an empty spvgen cache; its "pipeline" / "driver compile" line is the first compile
# References: the session's start (d475022, build-gpu/tools/spvgen-base) on the same shapes and networks; cuBLAS through shared/anchors/gemm_anchor.py on 3008^3; torch eager and torch.compile on the same networks and point counts (bench/anchors/mlp_anchor_net.py); the GPU tests' float64 CPU reference; all in this call
# Call S22-5 (main with both session-22 changes merged): (A) the MLP networks whose AUTO plan
# the GEMM planning changes (bench/results/raw/calls/nets-S22.txt) through `spvgen run mlp`
# with both builds; (B) 3008^3 f16->f32, where the final AUTO takes coopmat2 64x64x64 u1 (the
# start khr 128x256x32), and the same tile with the rolled rest loop (cg:u); (C) the anchors;
# (D) tests/gpu/test_gpu_gemm's pack, prompt-length and run-time cases, one per process, until
# 480 s have passed.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s22-5}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS22-5 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
while IFS=$'\t' read -r name flags pts; do
  case $name in '#'*|'') continue;; esac
  for b in base new; do
    bin=$B/tools/spvgen; [ $b = base ] && bin=$B/tools/spvgen-base
    ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
      echo "== $b $name: spvgen run mlp $flags --points $pts --sample 1024 --repeats 20"
      timeout 60 $bin run mlp $flags --points $pts --sample 1024 --repeats 20; echo "rc=$?" ) >> "$O/A-mlp.txt" 2>&1
  done
done < bench/results/raw/calls/nets-S22.txt
grep -E "^==|^plan|^emit|^gpu|^check|MISMATCH|rc=[1-9]" "$O/A-mlp.txt" | cut -c1-200
echo "A done $((SECONDS - T0)) s"
rg() { # rg LABEL BINARY FLAGS...
  local label=$1 bin=$2; shift 2
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $label: spvgen run gemm $* --sample 256 --repeats 20"
    timeout 60 $bin run gemm "$@" --sample 256 --repeats 20 2>&1 | grep -E "^plan|^pipeline|^gpu|^check|rror"; echo "rc=${PIPESTATUS[0]}" ) >> "$O/B-gemm.txt" 2>&1
}
F="--m 3008 --n 3008 --k 3008 --types f16,f32"
rg "base 3008^3" $B/tools/spvgen-base $F
rg "new 3008^3" $B/tools/spvgen $F
rg "new 3008^3 cm2 cg:u" $B/tools/spvgen $F --variant coopmat2 --tile 64x64x64 --wg 128 --unroll 1 --codegen u
rg "new 3008^3 khr" $B/tools/spvgen $F --variant khr
grep -E "^==|^plan|^pipeline|^gpu|rc=[1-9]" "$O/B-gemm.txt" | cut -c1-170
timeout 60 python3 $B/anchors/gemm_anchor.py 3008,3008,3008 > "$O/C-anchor.txt" 2>&1
timeout $((400 - (SECONDS - T0))) python3 bench/anchors/mlp_anchor_net.py --time-cap $((380 - (SECONDS - T0))) --nets bench/results/raw/calls/nets-S22.txt >> "$O/C-anchor.txt" 2>&1
grep -E "^cuBLAS|^anchor|skipped" "$O/C-anchor.txt" | cut -c1-200
echo "C done $((SECONDS - T0)) s"
while read -r t; do
  case $t in "#"*|"") continue;; esac
  [ $((SECONDS - T0)) -gt 480 ] && { echo "not run (time): $t" >> "$O/D-tests.txt"; continue; }
  s=$SECONDS
  SPVGEN_GPU_REQUIRED=1 SPVGEN_CLI=$PWD/$B/tools/spvgen SPVGEN_SOURCE_DIR=$PWD timeout 60 $B/tests/gpu_test_gpu_gemm "$t" > "$O/cur.txt" 2>&1
  rc=$?
  echo "== $t rc=$rc $((SECONDS - s)) s: $(grep -E "passed|FAIL" "$O/cur.txt" | tail -3 | tr '\n' ' ')" >> "$O/D-tests.txt"
  grep -q FAIL "$O/cur.txt" && cat "$O/cur.txt" >> "$O/D-fail.txt"
done <<'TESTS'
test_gemm_coopmat2_runtime_matches_cpu_f16_f32
test_gemm_coopmat2_runtime_matches_cpu_f16_f16
test_gemm_khr_runtime_matches_cpu_f16_f32
test_gemm_khr_runtime_matches_cpu_f16_f16
test_gemm_coopmat2_runtime_splitk_matches_cpu
test_gemm_prompt_lengths_planned_per_call_matches_cpu
test_gemm_prompt_lengths_with_reused_kernels_matches_cpu
test_gemm_coopmat2_pack_matches_cpu
test_gemm_coopmat2_pack_big_matches_cpu
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
TESTS
rm -f "$O/cur.txt"
grep -c "rc=0" "$O/D-tests.txt"; grep -v "rc=0" "$O/D-tests.txt" | cut -c1-200
echo "total $((SECONDS - T0)) s"
