#!/bin/bash
# Call S10-LY: the MLP's layers variant with whole tiles of rows between layers (session
# 10): its hidden-to-hidden GEMMs run on the point count rounded up to 256 (no M edge: one
# unclamped path), and the first and last layers' GEMMs take the edge clamp where the
# plan would pass the compile budget. The 64-256x3-64 plan is estimated at 904 ms (was
# 1,580), under the default budget of 1,000, so AUTO now takes layers there
# (docs/design-notes.md, "The layers variant's rows between layers").
# (A) inference, 64-256x3-64 relu and tanh at 2,097,152 points, 4,096 checked against
#     float64 (every output), `--repeats 20 --warmup 10 --warmup-ms 300`: AUTO (its plan
#     line says what it took), --variant layers, --variant mat; then layers with
#     SPVGEN_COMPILE_THREADS=1 (the "compile" line is the serial sum of the plan's
#     first compiles, what the estimate models), and layers with --compile-budget 5000
#     (the first layer keeps the edge branch: the run-time cost of clamp there);
# (B) torch eager and torch.compile on the same networks and points
#     (bench/anchors/mlp_anchor_net.py), same call;
# (C) training on layers, 64-256x3-64 and 32-128x4-32 relu: one checked step at 4,097
#     points (past a multiple of 256: the GEMMs between workspace planes run rows the
#     caller does not have), then 20 timed steps at 262,144 points after 10 untimed
#     (`--no-check`); torch training (bench/mlp_train_torch.py), same call;
# (D) the GPU tests of the layers variant: tests/gpu/test_gpu_mlp.c's every-activation
#     layers inference (20,011 points; run right after A) and
#     tests/gpu/test_gpu_mlp_train.c's layers training (now 8,253 points).
# Every spvgen row starts from an empty driver cache and an empty spvgen cache (fresh).
# Runs from the repo root with build-gpu/ as the build directory; under 6 minutes.
# Everything is written under $OUT/s10-ly/ and packed into $OUT/s10-ly.tgz at the end.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS10-LY > /dev/null || exit 1
OUTD=${OUT:-/tmp/callS10-LY}
O="$OUTD/s10-ly"; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
git log --oneline -1 > "$O/commit.txt" 2>/dev/null
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
# a section starts only with this many seconds left of the call's 6 minutes
left() { [ $((SECONDS - T0)) -lt $((360 - $1)) ] || { echo "skipped: $2 (time)" | tee -a "$O/skipped.txt"; return 1; }; }
NET="--in 64 --hidden 256x3 --out 64"
P=2097152
RUN="--points $P --sample 4096 --repeats 20 --warmup 10 --warmup-ms 300"
# the plans as planned (estimates, GEMMs), no device work
for act in relu tanh; do
  for extra in "" "--variant layers" "--variant layers --compile-budget 5000"; do
    echo "== plan $act $extra" >> "$O/plans.txt"
    "$B/tools/spvgen" mlp $NET --act $act $extra --json 2>&1 |
      grep -E '"plan"|"compile_ms"|coopmat2 f16|khr f16|simt f16|"layer_gemm"' | head -8 >> "$O/plans.txt"
  done
done
# A. inference
row() { # label, env assignment or "-", args...
  local label=$1 env=$2; shift 2
  fresh
  echo "== A $label" >> "$O/infer.txt"
  left 200 "A $label" || return
  if [ "$env" = - ]; then timeout 40 "$B/tools/spvgen" run mlp "$@" >> "$O/infer.txt" 2>&1
  else env "$env" timeout 40 "$B/tools/spvgen" run mlp "$@" >> "$O/infer.txt" 2>&1; fi
  echo "rc=$?" >> "$O/infer.txt"
}
for act in relu tanh; do
  for v in auto layers mat; do row "$act $v" - $NET --act $act --variant $v $RUN; done
  row "$act layers threads1" SPVGEN_COMPILE_THREADS=1 $NET --act $act --variant layers $RUN
  row "$act layers budget5000" - $NET --act $act --variant layers --compile-budget 5000 $RUN
  echo "A $act done ($((SECONDS - T0)) s)"
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
# the layers inference GPU test (20,011 points: the padded rows on the device's GEMMs)
left 160 "mlp test" && SPVGEN_GPU_REQUIRED=1 timeout 40 "$B/tests/gpu_test_gpu_mlp" \
  test_mlp_layers_every_activation_matches_cpu > "$O/gpu-mlp.txt" 2>&1
echo "gpu mlp rc=$? ($((SECONDS - T0)) s)"
# B. torch inference, same networks and points
left 130 "torch inference" && timeout 70 python3 bench/anchors/mlp_anchor_net.py --points $P --time-cap 60 \
  --net "$NET --act relu" --net "$NET --act tanh" > "$O/anchor.txt" 2>&1
echo "anchor rc=$? ($((SECONDS - T0)) s)"
# C. training on layers: a checked step past a multiple of 256, then timed steps
for n in "64 256x3 64" "32 128x4 32"; do
  set -- $n
  TN="--in $1 --hidden $2 --out $3 --act relu"
  fresh
  echo "== C $n" >> "$O/train.txt"
  left 110 "C $n" || continue
  timeout 40 "$B/tools/spvgen" run mlp $TN --train --variant layers --points 4097 --steps 1 >> "$O/train.txt" 2>&1
  echo "rc=$? (checked, 4097 points)" >> "$O/train.txt"
  timeout 40 "$B/tools/spvgen" run mlp $TN --train --variant layers --points 262144 --steps 20 --warmup 10 \
    --no-check >> "$O/train.txt" 2>&1
  echo "rc=$? (timed, 262144 points)" >> "$O/train.txt"
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
echo "C done ($((SECONDS - T0)) s)"
left 95 "torch training" && timeout 85 python3 -u bench/mlp_train_torch.py --points 262144 --steps 20 --warmup 10 \
  --net "64 256x3 64 relu" --net "32 128x4 32 relu" > "$O/train-torch.txt" 2>&1
echo "torch training rc=$? ($((SECONDS - T0)) s)"
# D. the layers training GPU test
left 30 "train test" && SPVGEN_GPU_REQUIRED=1 timeout 28 "$B/tests/gpu_test_gpu_mlp_train" \
  test_mlp_train_layers_matches_cpu > "$O/gpu-train.txt" 2>&1
echo "gpu train rc=$?"
# the summary (the call's output), then everything packed
{
  grep -E '^== |"plan"|"compile_ms"' "$O/plans.txt" | cut -c1-160
  grep -E '^== |^plan|^emit|^compile|^gpu|^check|^MISMATCH|rc=|rror|refus|not supported' "$O/infer.txt" | cut -c1-200
  grep -E '^anchor|skipped|rror' "$O/anchor.txt" | cut -c1-160
  grep -E '^== |^plan|^compile|^step|^gpu|^check|^MISMATCH|rc=|rror|refus' "$O/train.txt" | cut -c1-200
  tail -8 "$O/train-torch.txt" | cut -c1-200
  grep -hE "FAIL|passed|gpu-summary" "$O/gpu-mlp.txt" "$O/gpu-train.txt" 2>/dev/null | cut -c1-220 | tail -16
} | tee "$O/summary.txt"
echo "done in $((SECONDS - T0)) s"
tar czf "$OUTD/s10-ly.tgz" -C "$OUTD" s10-ly && rm -rf "$O"
