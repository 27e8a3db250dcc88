#!/usr/bin/env bash
# Module-by-module evidence for refactors of emitters/mlp (mlp_sweep.c says what the sweep
# covers).
#
#   scripts/module-dump/mlp-sweep.sh BUILD_DIR OUT_DIR   build mlp_sweep against the
#       libraries of BUILD_DIR (a configured and built tree of any checkout, only read:
#       the headers of the checkout it was configured from) and write the sweep's
#       modules to OUT_DIR
#   scripts/module-dump/mlp-sweep.sh --compare A B   how many modules of two sweeps are
#       byte-identical, and how many of the others differ in canonical form after the
#       helper layer's folds (scripts/module-dump/canon.c --fold); exit 1 when any does
#
# Typical use: a sweep with the build of the commit before the refactor, one after,
# --compare. Both runs must come from the same mlp_sweep.c (this checkout's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
deps=${SPVGEN_DEPS_DIR:-$(bash "$root/scripts/deps.sh" | tail -n 1)}
if [ "${1:-}" = --compare ]; then
  a=${2:?usage: --compare A B} b=${3:?usage: --compare A B}
  cmp -s "$a/list.txt" "$b/list.txt" || { echo "the two sweeps list different configurations" >&2; exit 1; }
  mkdir -p "$root/build-dump"
  cc -O2 -std=c11 -I"$deps/spirv-tools/include" -I"$deps/root/usr/include" "$here/canon.c" \
    -o "$root/build-dump/canon" "$deps/spirv-tools/lib/libSPIRV-Tools.a" -lstdc++ -lm
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$a" && find . -name '*.spv' | sort) > "$tmp/all"
  while read -r f; do cmp -s "$a/$f" "$b/$f" || echo "$f"; done < "$tmp/all" > "$tmp/differ"
  total=$(wc -l < "$tmp/all")
  echo "$total modules; byte-identical: $((total - $(wc -l < "$tmp/differ"))), differ: $(wc -l < "$tmp/differ")"
  [ -s "$tmp/differ" ] || exit 0
  (cd "$a" && xargs "$root/build-dump/canon" --fold < "$tmp/differ") | sort -k2 > "$tmp/ca"
  (cd "$b" && xargs "$root/build-dump/canon" --fold < "$tmp/differ") | sort -k2 > "$tmp/cb"
  join -j2 "$tmp/ca" "$tmp/cb" | awk '$2 != $3 {print $1}' > "$tmp/canon"
  echo "of those, differ under --canon --fold: $(wc -l < "$tmp/canon")"
  head -5 "$tmp/canon" | while read -r f; do f=${f#./}; grep "^${f%.spv} " "$a/list.txt" | sed 's/^/  /'; done
  [ ! -s "$tmp/canon" ]
  exit
fi
build=$(cd "${1:?usage: mlp-sweep.sh BUILD_DIR OUT_DIR | --compare A B}" && pwd)
out=${2:?usage: mlp-sweep.sh BUILD_DIR OUT_DIR}
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
# the program is built outside BUILD_DIR, which is only read (it may be another checkout's)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cc -O1 -std=c11 -I"$src/include" -I"$build/gen" -I"$deps/root/usr/include" "$here/mlp_sweep.c" \
  -o "$bin/mlp_sweep" "$build/libspvgen_emitters.a" "$build/libspvgen_core.a" -lm
rm -rf "$out"
mkdir -p "$out"
"$bin/mlp_sweep" "$out"
