#!/bin/bash
# Call S9-1: training's AUTO between the fused mat variant (held form), the layers variant
# and the loop variant, over the networks where the plan keeps mat's held form or picks
# loop (session 8 measured only two held networks on both sides: 32-128x4-32 ran 1.36x
# faster on layers while AUTO kept mat). Per network and variant: one step at 4,096
# points checked against float64, then 20 timed steps at 262,144 points after 10 untimed
# ones (`--no-check`), each row from an empty driver cache and an empty spvgen cache (the
# "compile" line is the first compile of the plan's kernels); the plans in words first;
# torch training (eager, torch.compile) in the same call with the time left. Runs from
# the repo root with build-gpu/ as the build directory; under 6 minutes.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS9-1 || exit 1
O=${OUT:-/tmp/callS9-1}; mkdir -p "$O"
T0=$SECONDS
END=${END:-540}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
left() { [ $((SECONDS - T0)) -lt $((END - $1)) ] || { echo "skipped: $2 (time)" | tee -a "$O/skipped.txt"; return 1; }; }
# network | variants to time
NETS=("32 128x4 32 relu|mat layers" "64 128x3 64 relu|mat layers" "16 128x3 16 relu|mat layers"
      "64 160x3 64 relu|mat layers" "64 96x4 64 relu|mat layers" "32 96x6 32 relu|mat layers"
      "64 64x8 64 relu|mat layers" "64 64x4 64 relu|mat layers" "16 160x2 16 relu|mat layers"
      "3 128x4 3 relu|mat layers" "16 160x8 16 relu|loop layers" "3 128x8 3 relu|loop layers")
flags() { set -- $1; echo "--in $1 --hidden $2 --out $3 --act $4"; }
for e in "${NETS[@]}"; do
  n=$(flags "${e%%|*}")
  for v in auto mat layers loop; do
    echo "== A $v: $n" >> "$O/plans.txt"
    "$B/tools/spvgen" mlp $n --train --variant $v --json >> "$O/plans.txt" 2>&1
  done
done
for e in "${NETS[@]}"; do
  n=$(flags "${e%%|*}")
  for v in ${e##*|}; do
    fresh
    echo "== B $v: $n" >> "$O/train.txt"
    left 120 "B $v $n" || continue
    timeout 45 "$B/tools/spvgen" run mlp $n --train --variant $v --points 4096 --steps 1 >> "$O/train.txt" 2>&1
    echo "rc=$? (checked, 4096 points)" >> "$O/train.txt"
    timeout 40 "$B/tools/spvgen" run mlp $n --train --variant $v --points 262144 --steps 20 --warmup 10 --no-check \
      >> "$O/train.txt" 2>&1
    echo "rc=$? (timed, 262144 points)" >> "$O/train.txt"
  done
  echo "B $n done ($((SECONDS - T0)) s)"
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
grep -E '^== |^plan|^compile|^step|^check|MISMATCH|rc=|rror|refus|not supported' "$O/train.txt" | cut -c1-160 > "$O/train-summary.txt"
R=$((END - (SECONDS - T0)))
if [ $R -gt 30 ]; then
  NA=(); for e in "${NETS[@]}"; do NA+=(--net "${e%%|*}"); done
  timeout $R python3 -u bench/mlp_train_torch.py --points 262144 --steps 20 --warmup 10 "${NA[@]}" > "$O/train-torch.txt" 2>&1
  echo "train torch rc=$?"
else
  echo "skipped: torch (time)" | tee -a "$O/skipped.txt"
fi
cd "$O" && tar czf all.tgz *.txt
