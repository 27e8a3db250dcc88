#!/usr/bin/env bash
# bench/emit_vs_glslang.sh — the emission benchmark next to its reference, in one run:
# bench_emit (the builder, in process) and glslangValidator compiling the same kernel
# written in GLSL (bench/glsl/gemm_like.comp; one process per compile, as a JIT that shells
# out to it would pay). Prints a table; bench/results/emit.md records it.
#
#   bench/emit_vs_glslang.sh [BUILD_DIR]    default build-release (cmake --preset release)
#   RUNS=N                                  glslangValidator runs per kernel (default 21)
# Needs glslangValidator (Debian: apt-get install glslang-tools).
set -euo pipefail
cd "$(dirname "$0")/.."
bd=${1:-build-release}
runs=${RUNS:-21}
command -v glslangValidator >/dev/null || { echo "needs glslangValidator (apt-get install glslang-tools)" >&2; exit 2; }
[ -x "$bd/bench/bench_emit" ] && [ -x "$bd/tools/spvgen" ] ||
  { echo "no $bd/bench/bench_emit or $bd/tools/spvgen: build the release preset first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
count_ops() { "$bd/tools/spvgen" dis "$1" | grep -cE '^ *(%[^ ]+ = )?Op'; }

echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')  nproc: $(nproc)"
echo "glslang: $(glslangValidator --version | head -n 1)"
echo
printf '| kernel | spvgen instructions | spvgen warm µs | spvgen cold µs | glslang instructions | glslangValidator µs (median of %d) | ratio (glslang / spvgen warm) |\n' "$runs"
echo '|---|---:|---:|---:|---:|---:|---:|'
for u in 1 4; do
  out=$("$bd/bench/bench_emit" --unroll "$u")
  ninst=$(awk '/^module:/ { print $2 }' <<<"$out")
  warm=$(awk -F'|' '/^\| warm/ { gsub(/ /, "", $3); print $3 }' <<<"$out")
  cold=$(awk -F'|' '/^\| cold/ { gsub(/ /, "", $3); print $3 }' <<<"$out")
  glslangValidator -V --target-env vulkan1.3 -DUNROLL="$u" bench/glsl/gemm_like.comp -o "$tmp/g.spv" >/dev/null
  "$bd/tools/spvgen" val "$tmp/g.spv" >/dev/null
  gl_inst=$(count_ops "$tmp/g.spv")
  for _ in $(seq "$runs"); do
    t0=$(date +%s%N)
    glslangValidator -V --target-env vulkan1.3 -DUNROLL="$u" bench/glsl/gemm_like.comp -o "$tmp/g.spv" >/dev/null
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done > "$tmp/times"
  gl_us=$(median < "$tmp/times")
  ratio=$(awk -v g="$gl_us" -v w="$warm" 'BEGIN { printf "%.0f", g / w }')
  printf '| unroll %d | %s | %s | %s | %s | %s | %s |\n' "$u" "$ninst" "$warm" "$cold" "$gl_inst" "$gl_us" "$ratio"
done
# The fixed cost of a glslangValidator process (start, initialisation, output) on a
# trivial shader: the part of the figures above that is not compiling the kernel.
printf '#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n' > "$tmp/trivial.comp"
for _ in $(seq "$runs"); do
  t0=$(date +%s%N)
  glslangValidator -V --target-env vulkan1.3 "$tmp/trivial.comp" -o "$tmp/t.spv" >/dev/null
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000 ))
done > "$tmp/times"
printf '| trivial `void main() {}` (process baseline) | - | - | - | %s | %s | - |\n' "$(count_ops "$tmp/t.spv")" "$(median < "$tmp/times")"
