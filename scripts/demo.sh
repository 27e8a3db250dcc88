#!/usr/bin/env bash
# The main job, from a bare Debian 12 machine: install/build what is missing (cached),
# build spvgen, then emit a GEMM module for this machine's Vulkan device, validate it,
# show its metadata, and run it on the device (lavapipe, Mesa's CPU driver, counts),
# checking every element against a float64 CPU reference.
#
#   scripts/demo.sh [--require-device]   (or SPVGEN_GPU_REQUIRED=1: no device is a failure)
#
# Sizes: 4096^3 on a GPU (sampled check), 257x255x129 on a CPU device (finishes in seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
require=${SPVGEN_GPU_REQUIRED:-0}
for a in "$@"; do
  case "$a" in
    --require-device) require=1 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "demo.sh: unknown argument '$a' (try --help)" >&2; exit 2 ;;
  esac
done
bash scripts/build.sh default
S=build/tools/spvgen
out=build/demo
mkdir -p "$out"

devices=$("$S" devices 2>/dev/null || true)
if [ -z "$devices" ] || ! printf '%s\n' "$devices" | grep -q '^\[0\]'; then
  kind=none
elif printf '%s\n' "$devices" | sed -n '2p' | grep -q 'device *cpu'; then
  kind=cpu
else
  kind=gpu
fi
case $kind in
  gpu) shape=(--m 4096 --n 4096 --k 4096); check=(--sample 4096) ;;
  *) shape=(--m 257 --n 255 --k 129); check=() ;;
esac
caps=()
[ $kind = none ] && caps=(--caps vulkan13)
types=(--types f16,f32)

echo "== device: $(printf '%s\n' "$devices" | sed -n '1p' | sed 's/^\[0\] //')${devices:+}"
[ $kind = none ] && echo "   (no Vulkan device: emitting for the vulkan13 preset)"
echo "== emit: spvgen gemm ${shape[*]} ${types[*]} -o $out/gemm.spv"
"$S" gemm "${shape[@]}" "${types[@]}" "${caps[@]}" -o "$out/gemm.spv"
"$S" gemm "${shape[@]}" "${types[@]}" "${caps[@]}" --json > "$out/gemm.json"
sed -n '1,12p' "$out/gemm.json"
echo "== validate: spvgen val $out/gemm.spv"
"$S" val "$out/gemm.spv"
echo "== disassembly (first lines of $out/gemm.spvasm)"
"$S" dis "$out/gemm.spv" > "$out/gemm.spvasm"
sed -n '1,8p' "$out/gemm.spvasm"
if [ $kind = none ]; then
  if [ "$require" != 0 ]; then
    echo "demo.sh: no Vulkan device, and one is required" >&2
    exit 1
  fi
  echo "== run: skipped (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
  exit 0
fi
echo "== run: spvgen run gemm ${shape[*]} ${types[*]} ${check[*]}"
"$S" run gemm "${shape[@]}" "${types[@]}" "${check[@]}"
