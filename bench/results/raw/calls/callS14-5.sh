#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s14/callS14-5/ (card and driver in smi.txt)
# First compiles: the "driver compile" of each search row (an empty driver and spvgen cache per process); replay rows load the kept binary from the driver's cache (their compile time says so)
# References: spvgen against itself (a slow run is a ratio to the same kernel's fast runs); torch for this network: S14-2 (not rerun).
# Call S14-5: is the slow mode of S14-4 (3 of 8 fresh compiles of one module ran 1.8-4.8x
# slower, same registers) tied to the compiled binary? Search: fresh processes, each with
# an empty driver cache, until one slow run (< 9 G points/s) and one fast run (> 11) have
# been seen (at most 12), keeping each one's driver cache directory. Replay: each kept
# cache 3 times, alternating, in new processes that load the binary from it. Slow replays
# of the slow cache only: the driver's compile made a slow binary.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s14-5}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS14-5 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
A="run mlp --in 32 --hidden 64x3 --out 16 --act silu --variant vec --weights optimal --points 4194304 --sample 4096 --repeats 20 --stats"
RATE=0
one() { # name driver-cache-dir
  local name=$1 dc=$2
  { echo "== $name: build-gpu/tools/spvgen $A (driver cache $dc)"; XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$dc timeout 60 build-gpu/tools/spvgen $A 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/rows.txt"
  RATE=$(sed -n 's/^gpu .*, \([0-9.]*\) G points.*/\1/p' "$O/cur.txt")
  printf '%-10s %s\n' "$name" "$(grep -E '^(emit|gpu)|rc=|MISMATCH' "$O/cur.txt" | cut -c1-90 | tr '\n' ' ')"
}
SLOW=; FAST=
for i in $(seq 1 12); do
  d=$(mktemp -d); one "search-$i" "$d"
  if awk "BEGIN{exit !($RATE < 9)}"; then [ -z "$SLOW" ] && SLOW=$d; elif awk "BEGIN{exit !($RATE > 11)}"; then [ -z "$FAST" ] && FAST=$d; fi
  [ -n "$SLOW" ] && [ -n "$FAST" ] && break
done
echo "search done $((SECONDS - T0)) s: slow cache ${SLOW:-none}, fast cache ${FAST:-none}"
if [ -n "$SLOW" ] && [ -n "$FAST" ]; then
  for i in 1 2 3; do one "slow-bin-$i" "$SLOW"; one "fast-bin-$i" "$FAST"; done
fi
rm -f "$O/cur.txt"
echo "total $((SECONDS - T0)) s"
