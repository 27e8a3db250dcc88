#!/bin/bash
# Call S8-LA: training on the MLP's layers variant with silu (session 8: every activation
# of the fused training on the layers step; silu keeps z per hidden layer, an activation
# kernel a = act(z) and a derivative kernel delta x act'(z) per hidden layer) against the
# fused mat variant (training's default) and torch:
# (A) the training plans in words: `spvgen mlp --train --variant layers --json` (the
#     step's kernels, dispatches and GEMM plans);
# (B) per network and variant (mat, layers): one step at 4,096 points checked against
#     float64 (gradients, optimizer, loss), then 20 timed steps at 262,144 points after
#     10 untimed ones without the check (`--no-check`; layers: "gpu step" is whole steps,
#     barriers included), each row from an empty driver cache and an empty spvgen cache
#     (the "compile" line is the first compile of all of the plan's kernels);
# (C) torch training in the same call: bench/mlp_train_torch.py (eager and torch.compile)
#     on the same networks and batch;
# (D) with time left, tests/gpu's layers training test (8,192 points, every value
#     checked; relu, silu and tanh/sigmoid networks).
# Networks: 16-128x3-3 silu and 64-256x3-64 silu. Runs from the repo root with build-gpu/
# as the build directory; under 4 minutes. Every output goes to $O as it is made.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS8-LA || exit 1
O=${OUT:-/tmp/callS8-LA}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
# a section starts only with this many seconds left of the call's 4 minutes
left() { [ $((SECONDS - T0)) -lt $((240 - $1)) ] || { echo "skipped: $2 (time)"; return 1; }; }
NETS=("--in 16 --hidden 128x3 --out 3 --act silu" "--in 64 --hidden 256x3 --out 64 --act silu")
# A. the plans
for n in "${NETS[@]}"; do
  echo "== A: $n" >> "$O/plans.txt"
  "$B/tools/spvgen" mlp $n --train --variant layers --json >> "$O/plans.txt" 2>&1
done
grep -E '^== |"plan"|step_|coopmat2 f16|khr f16|simt f16' "$O/plans.txt" | cut -c1-160
# B. mat vs layers: a checked step, then timed steps
for n in "${NETS[@]}"; do
  for v in mat layers; do
    fresh
    echo "== B $v: $n" >> "$O/train.txt"
    left 110 "B $v $n" || continue
    timeout 45 "$B/tools/spvgen" run mlp $n --train --variant $v --points 4096 --steps 1 >> "$O/train.txt" 2>&1
    echo "rc=$? (checked, 4096 points)" >> "$O/train.txt"
    timeout 40 "$B/tools/spvgen" run mlp $n --train --variant $v --points 262144 --steps 20 --warmup 10 --no-check \
      >> "$O/train.txt" 2>&1
    echo "rc=$? (timed, 262144 points)" >> "$O/train.txt"
  done
  echo "B $n done ($((SECONDS - T0)) s)"
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
grep -E '^== |^plan|^compile|^step|^gpu|^check|^MISMATCH|rc=|rror|refus|not supported' "$O/train.txt" | cut -c1-200
# C. torch training, same call
left 75 "torch training" && timeout 80 python3 bench/mlp_train_torch.py --points 262144 --steps 20 --warmup 10 \
  --net "64 256x3 64 silu" --net "16 128x3 3 silu" > "$O/train-torch.txt" 2>&1
echo "train torch rc=$?"; cat "$O/train-torch.txt"
# D. the device test of layers training (8,192 points, two steps, every value checked), if time is left
left 50 "gpu test" && timeout 45 "$B/tests/gpu_test_gpu_mlp_train" test_mlp_train_layers_matches_cpu > "$O/gpu-test.txt" 2>&1
tail -14 "$O/gpu-test.txt" 2>/dev/null
echo "done in $((SECONDS - T0)) s"
