#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s14/callS14-4/ (card and driver in smi.txt)
# First compiles: each row's "driver compile" (phase 1 and 3: an empty driver and spvgen cache per process; phase 2: the first row compiles, the others find its binary in the shared driver cache, and say so by their compile time)
# References: spvgen against itself (a slow mode is a ratio to the same kernel's own fast runs); main's build (build-gpu/main/spvgen, c19e82e) in the same call; torch for this network: S14-2 (not rerun).
# Call S14-4: the slow mode (issue 24 item 7) on a kernel that showed it twice:
# 32-64x3-16 silu, vec w32, optimal weights, 4,194,304 points (S14-2 and S14-3: 2.59 and
# 2.69 G points/s where its other runs read 12.1-12.2). Phase 1: 8 processes, each with
# an empty driver cache (its own first compile); the driver cache's files hashed after
# each. Phase 2: 5 processes sharing one driver cache (the first compiles, the others
# load its binary): whether a slow run follows the compiled binary or the process.
# Phase 3: main's build 4 times, as phase 1. `spvgen run mlp --stats` prints the
# driver's registers and shared memory of each pipeline.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s14-4}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS14-4 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
A="run mlp --in 32 --hidden 64x3 --out 16 --act silu --variant vec --weights optimal --points 4194304 --sample 4096 --repeats 20 --stats"
one() { # name binary driver-cache-dir
  local name=$1 bin=$2 dc=$3
  { echo "== $name: $bin $A (driver cache $dc)"; XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$dc timeout 60 $bin $A 2>&1; echo "rc=$?"
    echo "cache $(cd "$dc" && find . -type f | sort | xargs -r md5sum | md5sum | cut -c1-12) $(du -sb "$dc" | cut -f1) bytes"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/rows.txt"
  printf '%-10s %s\n' "$name" "$(grep -E '^(emit|stats|gpu|cache)|rc=|MISMATCH' "$O/cur.txt" | sed 's/Stack Size=0 Local Memory Size=[0-9]* //' | cut -c1-100 | tr '\n' ' ')"
}
for i in 1 2 3 4 5 6 7 8; do one "new-$i" build-gpu/tools/spvgen "$(mktemp -d)"; done
echo "phase 1 done $((SECONDS - T0)) s"
S=$(mktemp -d)
for i in 1 2 3 4 5; do one "shared-$i" build-gpu/tools/spvgen "$S"; done
echo "phase 2 done $((SECONDS - T0)) s"
for i in 1 2 3 4; do one "main-$i" build-gpu/main/spvgen "$(mktemp -d)"; done
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
