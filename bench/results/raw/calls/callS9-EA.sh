#!/bin/bash
# Call S9-EA: every activation in the GEMM epilogue (session 9), so that the MLP's layers
# variant (a GEMM per layer) runs wide networks with tanh, sigmoid and leaky relu, which
# it refused before (AUTO fell to mat):
# (A) inference, 64-256x3-64 with relu (the baseline), tanh, sigmoid and leaky relu:
#     `spvgen run mlp` at 2,097,152 points, 4,096 of them checked against float64, for
#     AUTO (the plan's choice, weights auto; its plan line names the variant and why),
#     --variant mat and --variant layers, each row from an empty driver cache and an empty
#     spvgen cache (the "compile" line is the first compile of the plan's kernels);
# (B) torch on the same networks and point count, same call:
#     bench/anchors/mlp_anchor_net.py (torch eager and torch.compile);
# (C) training on the layers variant, 64-256x3-64 tanh: one checked step at 4,096 points,
#     then 20 timed steps at 262,144 points (tanh is now its forward GEMMs' epilogue: no
#     activation kernel, 18 kernels and 28 dispatches as relu; relu in the same call);
# (D) the new GPU test cases: tests/gpu/test_gpu_gemm.c's every-activation cases
#     (coopmat2, khr, simt: fixed, run-time and split-K), tests/gpu/test_gpu_mlp.c's
#     layers inference with every activation (64-256x3-64, 20,011 points, every output),
#     tests/gpu/test_gpu_mlp_train.c's layers training test.
# Runs from the repo root with build-gpu/ as the build directory; under 6 minutes. Every
# output goes to $O as it is made.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS9-EA || exit 1
O=${OUT:-/tmp/callS9-EA}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
# a section starts only with this many seconds left of the call's 6 minutes
left() { [ $((SECONDS - T0)) -lt $((360 - $1)) ] || { echo "skipped: $2 (time)"; return 1; }; }
NET="--in 64 --hidden 256x3 --out 64"
P=2097152
# A. inference: AUTO, mat and layers per activation
for act in relu tanh sigmoid leaky_relu; do
  for v in auto mat layers; do
    fresh
    echo "== A $act $v" >> "$O/infer.txt"
    left 150 "A $act $v" || continue
    timeout 40 "$B/tools/spvgen" run mlp $NET --act $act --variant $v --points $P --sample 4096 >> "$O/infer.txt" 2>&1
    echo "rc=$?" >> "$O/infer.txt"
  done
  echo "A $act done ($((SECONDS - T0)) s)"
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
grep -E '^== |^plan|^compile|^gpu|^check|^MISMATCH|rc=|rror|refus|not supported' "$O/infer.txt" | cut -c1-200
# B. torch, same networks and points
left 130 "torch" && timeout 120 python3 bench/anchors/mlp_anchor_net.py --points $P --time-cap 110 \
  --net "$NET --act relu" --net "$NET --act tanh" --net "$NET --act sigmoid" --net "$NET --act leaky_relu" \
  > "$O/anchor.txt" 2>&1
echo "anchor rc=$?"; cut -c1-200 "$O/anchor.txt" | tail -12
# C. layers training: tanh in the forward GEMMs' epilogue, relu beside it
for act in tanh relu; do
  fresh
  echo "== C $act" >> "$O/train.txt"
  left 90 "C $act" || continue
  timeout 40 "$B/tools/spvgen" run mlp $NET --act $act --train --variant layers --points 4096 --steps 1 >> "$O/train.txt" 2>&1
  echo "rc=$? (checked, 4096 points)" >> "$O/train.txt"
  timeout 40 "$B/tools/spvgen" run mlp $NET --act $act --train --variant layers --points 262144 --steps 20 --warmup 10 \
    --no-check >> "$O/train.txt" 2>&1
  echo "rc=$? (timed, 262144 points)" >> "$O/train.txt"
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
grep -E '^== |^plan|^compile|^step|^gpu|^check|^MISMATCH|rc=|rror|refus|not supported' "$O/train.txt" | cut -c1-200
# D. the new GPU test cases
left 60 "gemm tests" && SPVGEN_GPU_REQUIRED=1 timeout 60 "$B/tests/gpu_test_gpu_gemm" \
  test_gemm_coopmat2_every_activation_matches_cpu test_gemm_khr_every_activation_matches_cpu \
  test_gemm_simt_every_activation_matches_cpu > "$O/gpu-gemm.txt" 2>&1
echo "gpu gemm rc=$?"; grep -E "FAIL|passed|runs checked" "$O/gpu-gemm.txt" | cut -c1-240 | tail -8
left 45 "mlp test" && SPVGEN_GPU_REQUIRED=1 timeout 45 "$B/tests/gpu_test_gpu_mlp" \
  test_mlp_layers_every_activation_matches_cpu > "$O/gpu-mlp.txt" 2>&1
echo "gpu mlp rc=$?"; grep -E "FAIL|passed|gpu-summary|^  \[" "$O/gpu-mlp.txt" | cut -c1-220 | tail -14
left 40 "train test" && SPVGEN_GPU_REQUIRED=1 timeout 40 "$B/tests/gpu_test_gpu_mlp_train" \
  test_mlp_train_layers_matches_cpu > "$O/gpu-train.txt" 2>&1
echo "gpu train rc=$?"; tail -8 "$O/gpu-train.txt" | cut -c1-220
echo "done in $((SECONDS - T0)) s"
