#!/bin/bash
# Call S7-M (session 7): the mat gradient kernel's two forms, one binary, A/B in the
# order A B B A per network (issue 28; issue 24 item 2: compile time is a planning cost).
#   A = --grad-bias rows --grad-act-deriv shared: 16 bias rows per layer (stride padded)
#       and act'(z) in shared blocks: the module of main dbd1156 (before session 5's
#       levers) up to the bias rows' padded stride; the plan's choice now where the
#       levers buy no larger chunk (3-48x2-1, 32-64x4-16);
#   B = --grad-bias row --grad-act-deriv registers: one bias row loaded with a stride of
#       0, act'(z) in registers: today's main module; the plan's choice where it buys the
#       chunk (16-128x3-3: p32 against A's p16; 16-64x2-3: p64 against p32).
# Call S6-9 measured 3-48x2-1's gradient kernel compiling 558 ms (B) against 383 (A, with
# 16 unpadded rows) once each, old binary first; the optimizer kernel, the same module up
# to two moved loads, compiled 64 against 37 ms in the same two processes. Here the
# optimizer kernel is byte-identical between A and B: its compile is the control for the
# process's own noise. Each row: `spvgen run mlp --train` (2 steps, each checked against
# float64), an empty driver cache, spvgen pipeline cache and XDG cache; the "compile" line
# is the driver's first compile of both kernels, "gpu" the kernels' times per step.
# Points: small enough for the float64 check (16-128x3-3's costs the most per point).
# Carry .gl and build-gpu (built from this tree). Under 4 minutes on the H100/H200.
# (Trimmed by the coordinator to the two networks whose default form changed: 16-128x3-3
# and 16-64x2-3 keep the one-row + registers form they had, so their A/B is not needed.)
# References: A against B in the same processes' call; torch training of the same networks
# (bench/mlp_train_torch.py, autograd + Adam, f16 autocast) at the end of the call (added
# after call S7-4, which ran without it).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS7-M || exit 1
O=${OUT:-/tmp/callS7-M}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
git log -1 --format='tree %h %s' 2>/dev/null | cut -c1-120 | tee -a "$O/smi.txt"
A="--grad-bias rows --grad-act-deriv shared"
BF="--grad-bias row --grad-act-deriv registers"
row() { # label form-flags net-flags points
  local l=$1 f=$2 n=$3 p=$4
  echo "== $l: $n --points $p $f" >> "$O/rows.txt"
  __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) SPVGEN_PIPELINE_CACHE=$(mktemp -d) XDG_CACHE_HOME=$(mktemp -d) \
    timeout 60 "$B/tools/spvgen" run mlp $n --train --variant mat --points "$p" --steps 2 $f >> "$O/rows.txt" 2>&1
  echo "rc=$?" >> "$O/rows.txt"
  echo "$l done ($((SECONDS - T0)) s)"
}
while read -r name points net; do
  [ -n "$name" ] || continue
  row "$name A1" "$A" "$net" "$points"
  row "$name B1" "$BF" "$net" "$points"
  row "$name B2" "$BF" "$net" "$points"
  row "$name A2" "$A" "$net" "$points"
done <<'EOF'
3-48x2-1-sigmoid 262144 --in 3 --hidden 48x2 --out 1 --act sigmoid
32-64x4-16-relu 65536 --in 32 --hidden 64x4 --out 16 --act relu
EOF
grep -E '^== |^plan|^compile|^gpu|^check|rc=|rror|refus' "$O/rows.txt" | cut -c1-220
# one line per row: network form | gradient compile ms | optimizer compile ms | gradient ms
echo "# network form | gradient first compile ms | optimizer first compile ms (control) | gradient ms per step"
awk '/^== /{l=$2" "$3; sub(":","",l)} /^compile/{g=$5; o=$9} /^gpu/{print l" | "g" | "o" | "$3}' "$O/rows.txt" |
  tee "$O/summary.txt"
# the reference in the same call: torch training of the same networks (autograd + Adam,
# f16 autocast), at the larger of the two batches
timeout 90 python3 bench/mlp_train_torch.py --points 262144 --steps 20 --warmup 10 \
  --net "3 48x2 1 sigmoid" --net "32 64x4 16 relu" > "$O/train-torch.txt" 2>&1
echo "train torch rc=$?"; cat "$O/train-torch.txt"
echo "done in $((SECONDS - T0)) s"
