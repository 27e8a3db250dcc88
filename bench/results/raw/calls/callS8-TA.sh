#!/bin/bash
# Call S8-TA: training's AUTO between the fused mat variant and the layers variant
# (session 8: AUTO takes layers where mat's plan is the slot-adds form and moves more than
# MLP_TRAIN_AUTO_LAYERS_SLOT_BYTES of gradient slot per point, emitters/mlp/train.c; the
# line rests on two measured networks on each side, this call measures networks between):
# (A) per network, the plans in words on this device: mat's (form, chunk, gradient slot
#     traffic per point), layers' (step kernels, dispatches) and AUTO's (which, and why);
# (B) per network and variant (mat, layers): one step at 4,096 points checked against
#     float64 (gradients, optimizer, loss), then 20 timed steps at 262,144 points after 10
#     untimed ones (`--no-check`; layers: "gpu step" is whole steps, barriers included),
#     each row from an empty driver cache and an empty spvgen cache (the "compile" line is
#     the first compile of all of the plan's kernels);
# (C) torch training in the same call: bench/mlp_train_torch.py (eager and torch.compile)
#     on the same networks and batch.
# Networks: 32-128x4-32 relu, 64-192x3-64 relu, 48-160x4-16 silu (between the measured
# ones) and 64-256x3-64 relu (measured: layers 7.3x mat on the H200). Runs from the repo
# root with build-gpu/ as the build directory; under 5 minutes (each section starts only
# with its time left). Every output goes to $O as it is made.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS8-TA || exit 1
O=${OUT:-/tmp/callS8-TA}; mkdir -p "$O"
T0=$SECONDS
END=290 # seconds: the call's budget, with a margin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
# a section starts only with this many seconds left of END after it (torch keeps 85)
left() { [ $((SECONDS - T0)) -lt $((END - $1)) ] || { echo "skipped: $2 (time)" | tee -a "$O/skipped.txt"; return 1; }; }
NETS=("--in 32 --hidden 128x4 --out 32 --act relu" "--in 64 --hidden 192x3 --out 64 --act relu"
      "--in 48 --hidden 160x4 --out 16 --act silu" "--in 64 --hidden 256x3 --out 64 --act relu")
TORCH=("32 128x4 32 relu" "64 192x3 64 relu" "48 160x4 16 silu" "64 256x3 64 relu")
# A. the plans: mat (held or slot adds, its traffic per point), layers, AUTO (which and why)
for n in "${NETS[@]}"; do
  for v in mat layers auto; do
    echo "== A $v: $n" >> "$O/plans.txt"
    "$B/tools/spvgen" mlp $n --train --variant $v --json > "$O/plan.json" 2>&1
    cat "$O/plan.json" >> "$O/plans.txt"
    python3 - "$v" "$n" "$O/plan.json" <<'PY' | tee -a "$O/plans-summary.txt"
import json, sys
v, n, path = sys.argv[1:4]
try:
    j = json.load(open(path))
except Exception as e:
    print(f"{v:6} {n}: no plan ({open(path).read().strip()[:200]})"); sys.exit(0)
if j["plan"].startswith("train mat"):
    held = j.get("grad_held")
    extra = "held (slot written once per workgroup)" if held else f"slot adds, {j['grad_slot_bytes_per_point']} B/point of gradient slot"
else:
    extra = f"{j.get('step_kernels', '-')} step kernels, {j.get('step_dispatches', '-')} dispatches; gradient written once per step ({4 * j['elements'] / 262144:.2f} B/point at 262,144 points)" if "step_kernels" in j else ""
print(f"{v:6} {j['plan']} | selection: {j.get('selection', '')} | {extra}")
PY
  done
done
# B. mat vs layers: a checked step, then timed steps; C. torch after the rows
for n in "${NETS[@]}"; do
  for v in mat layers; do
    fresh
    echo "== B $v: $n" >> "$O/train.txt"
    left 115 "B $v $n" || continue
    timeout 45 "$B/tools/spvgen" run mlp $n --train --variant $v --points 4096 --steps 1 >> "$O/train.txt" 2>&1
    echo "rc=$? (checked, 4096 points)" >> "$O/train.txt"
    timeout 30 "$B/tools/spvgen" run mlp $n --train --variant $v --points 262144 --steps 20 --warmup 10 --no-check \
      >> "$O/train.txt" 2>&1
    echo "rc=$? (timed, 262144 points)" >> "$O/train.txt"
  done
  echo "B $n done ($((SECONDS - T0)) s)"
done
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
grep -E '^== |^plan|^compile|^step|^gpu|^check|^MISMATCH|rc=|rror|refus|not supported' "$O/train.txt" | cut -c1-200
# C. torch training, same call, with the time left
R=$((END - (SECONDS - T0)))
if [ $R -gt 30 ]; then
  NA=(); for t in "${TORCH[@]}"; do NA+=(--net "$t"); done
  timeout $R python3 -u bench/mlp_train_torch.py --points 262144 --steps 20 --warmup 10 "${NA[@]}" > "$O/train-torch.txt" 2>&1
  echo "train torch rc=$?"; cat "$O/train-torch.txt"
else
  echo "skipped: torch (time)" | tee -a "$O/skipped.txt"
fi
echo "== summary"; cat "$O/plans-summary.txt"
echo "done in $((SECONDS - T0)) s"
