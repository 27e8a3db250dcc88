#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s21/callS21-3/ (card and driver in smi.txt)
# First compiles: every bench and run process starts with an empty driver disk cache and an empty spvgen cache (its "pipeline" / "driver compile" line is a first compile)
# References: the session's start (d83b92c, build-gpu/tools/spvgen-base) on the same shapes; cuBLAS through shared/anchors/gemm_anchor.py (copied to build-gpu/anchors/) on the same M, N, K; this call
# Call S21-3 (main with the session's GEMM and MLP changes): (A) fixed shapes whose default
# plan moved with "no tile wider than the matrix" (narrow N at many rows, a few rows
# against wide N, prompt rows of 77-81), the session's start beside them, forced variants,
# cuBLAS on the same shapes; (A2) what the epilogue costs a 256-wide layer's GEMM;
# (B) the AUTO plans of three held-out networks after the padded-layers rule (36-250x4-58
# and 46-223x8-10 keep padded layers; 7-180x5-43 goes back to looped vec).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s21-3}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS21-3 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
# ---- A: tiles wider than the matrix (fixed shapes; base = main at the session's start, new = this build)
bg() { # bg LABEL BINARY FLAGS...
  local label=$1 bin=$2; shift 2
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $label: spvgen bench gemm $*"
    timeout 60 $bin bench gemm "$@" --repeats 20 2>&1 | grep -E "^plan|^pipeline|^gpu|^check|rror"; echo "rc=$?" ) >> "$O/A-gemm.txt" 2>&1
}
NT="--layout nt --types f16,f32"
for s in "1048576 64 256" "1048576 22 256" "1048576 96 256" "1 4096 256" "16 4096 256" "257 16 256"; do
  set -- $s; F="--m $1 --n $2 --k $3 $NT"
  bg "base $s" $B/tools/spvgen-base $F
  bg "new $s" $B/tools/spvgen $F
done
F="--m 1048576 --n 64 --k 256 $NT"; bg "cm2 1048576 64 256" $B/tools/spvgen $F --variant coopmat2
F="--m 1048576 --n 22 --k 256 $NT"; bg "cm2 1048576 22 256" $B/tools/spvgen $F --variant coopmat2; bg "cm2-64x32 1048576 22 256" $B/tools/spvgen $F --variant coopmat2 --tile 64x32x64 --wg 64
for s in "81 9216 2304 f16,f32" "81 11008 4096 bf16,f32" "77 18944 3584 f16,f32"; do
  set -- $s; F="--m $1 --n $2 --k $3 --types $4 --layout nt"
  bg "base $s" $B/tools/spvgen-base $F
  bg "new $s" $B/tools/spvgen $F
done
echo "A done $((SECONDS - T0)) s"
timeout 200 python3 $B/anchors/gemm_anchor.py 1048576,64,256 1048576,22,256 1048576,96,256 1,4096,256 16,4096,256 257,16,256 81,9216,2304 81,11008,4096 77,18944,3584 >> "$O/A-gemm.txt" 2>&1
grep -E "^==|^plan|^pipeline|^gpu|^cuBLAS|rc=[1-9]" "$O/A-gemm.txt" | cut -c1-180
echo "A+anchor done $((SECONDS - T0)) s"
# ---- A2: what the epilogue costs a wide layer's GEMM (1048576 x 256 x 256 nt, one tile)
T1="--m 1048576 --n 256 --k 256 --layout nt --variant coopmat2 --tile 128x128x32 --wg 256"
bg "epi f16out none" $B/tools/spvgen $T1 --types f16,f32,f16
bg "epi f16out bias" $B/tools/spvgen $T1 --types f16,f32,f16 --bias column
bg "epi f16out bias+relu" $B/tools/spvgen $T1 --types f16,f32,f16 --bias column --act relu
bg "epi f16out bias+sigmoid" $B/tools/spvgen $T1 --types f16,f32,f16 --bias column --act sigmoid
bg "epi f32out none" $B/tools/spvgen $T1 --types f16,f32,f32
bg "epi f16acc f16out bias+relu" $B/tools/spvgen $T1 --types f16,f16,f16 --bias column --act relu
grep -E "^== epi|^gpu" "$O/A-gemm.txt" | tail -12 | cut -c1-150
echo "A2 done $((SECONDS - T0)) s"
# ---- B: AUTO on three held-out networks after the rule (this build only; S21-2 has the start and torch)
while IFS=$'\t' read -r name flags pts; do
  case $name in s0-*|s4-*|s5-*) ;; *) continue;; esac
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    echo "== $name new: spvgen run mlp $flags --points $pts --sample 1024 --repeats 20"
    timeout 60 $B/tools/spvgen run mlp $flags --points $pts --sample 1024 --repeats 20; echo "rc=$?" ) >> "$O/B-mlp.txt" 2>&1
done < bench/results/raw/calls/nets-S21.txt
grep -E "^==|^plan|^emit|^gpu|^check|MISMATCH|rc=" "$O/B-mlp.txt" | cut -c1-200
echo "total $((SECONDS - T0)) s"
