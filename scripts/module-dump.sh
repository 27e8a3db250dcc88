#!/usr/bin/env bash
# Byte-for-byte evidence for refactors that must not change what spvgen emits.
#
#   scripts/module-dump.sh DIR [ctest args]   build build-dump/ (the ci preset, every
#       executable linked with scripts/module-dump/dumpwrap.c wrapping
#       spvgen_module_finish), run ctest there with every finished module written to DIR
#       as <hash>-<words>.spv, and list the names, sorted, in DIR.txt
#   scripts/module-dump.sh --compare A.txt B.txt   how many modules each run emitted and
#       which exist in only one (exit 1 when any does)
#   scripts/module-dump.sh --canon [--fold] A_DIR B_DIR   the same up to id numbers and
#       the order of declarations (scripts/module-dump/canon.c: every module of both
#       dumps in a canonical form); with --fold also up to the constant folds of the
#       emitters' helper layer (x + 0, x * 1, constant op constant ...). Lists a few
#       modules found in one dump only (canon --text A.spv shows one's canonical text)
#
# Typical use: dump on the commit before the refactor, dump after, compare. The set of
# distinct modules is compared, so test order and threads do not matter; tests must use
# fixed seeds (they do).
set -euo pipefail
if [ "${1:-}" = --compare ]; then
  a=$2 b=$3
  only_a=$(comm -23 "$a" "$b" | wc -l)
  only_b=$(comm -13 "$a" "$b" | wc -l)
  echo "$(wc -l < "$a") modules in $a, $(wc -l < "$b") in $b; only in the first: $only_a, only in the second: $only_b"
  [ "$only_a" = 0 ] && [ "$only_b" = 0 ]
  exit
fi
if [ "${1:-}" = --canon ]; then
  shift
  fold=
  if [ "${1:-}" = --fold ]; then fold=--fold; shift; fi
  a=${1:?usage: --canon [--fold] A_DIR B_DIR} b=${2:?usage: --canon [--fold] A_DIR B_DIR}
  a=$(cd "$a" && pwd) b=$(cd "$b" && pwd)
  cd "$(dirname "$0")/.."
  deps=${SPVGEN_DEPS_DIR:-$(bash scripts/deps.sh | tail -n 1)}
  mkdir -p build-dump
  cc -O2 -std=c11 -I"$deps/spirv-tools/include"\
    -I"$deps/root/usr/include" scripts/module-dump/canon.c -o build-dump/canon \
    "$deps/spirv-tools/lib/libSPIRV-Tools.a" -lstdc++ -lm
  for d in "$a" "$b"; do
    # kept beside the dump and reused while the dump is older
    if [ ! -s "$d.canon$fold" ] || [ "$d" -nt "$d.canon$fold" ] || [ build-dump/canon -nt "$d.canon$fold" ]; then
      find "$d" -name '*.spv' -print0 | xargs -0 build-dump/canon $fold 2>/dev/null | sort > "$d.canon$fold"
    fi
  done
  only_a=$(join -v1 <(cut -d' ' -f1 "$a.canon$fold" | sort -u) <(cut -d' ' -f1 "$b.canon$fold" | sort -u) | wc -l)
  only_b=$(join -v2 <(cut -d' ' -f1 "$a.canon$fold" | sort -u) <(cut -d' ' -f1 "$b.canon$fold" | sort -u) | wc -l)
  echo "$(cut -d' ' -f1 "$a.canon$fold" | sort -u | wc -l) canonical modules in $a, $(cut -d' ' -f1 "$b.canon$fold" | sort -u | wc -l) in $b${fold:+ (folded)}; only in the first: $only_a, only in the second: $only_b"
  join -v1 "$a.canon$fold" <(cut -d' ' -f1 "$b.canon$fold" | sort -u) | head -5 | sed 's/^/  first only: /'
  join -v1 "$b.canon$fold" <(cut -d' ' -f1 "$a.canon$fold" | sort -u) | head -5 | sed 's/^/  second only: /'
  [ "$only_a" = 0 ] && [ "$only_b" = 0 ]
  exit
fi
dir=${1:?usage: scripts/module-dump.sh DIR [ctest args] | --compare A.txt B.txt}
shift
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/.."
mkdir -p build-dump
cc -O2 -fPIC -c scripts/module-dump/dumpwrap.c -o build-dump/dumpwrap.o
ar rcs build-dump/libdumpwrap.a build-dump/dumpwrap.o
deps=${SPVGEN_DEPS_DIR:-$(bash scripts/deps.sh | tail -n 1)}
cmake -S . -B build-dump -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPVGEN_WERROR=ON \
  -DSPVGEN_DEPS_DIR="$deps" -DSPVGEN_SYSTEM_DEPS=OFF \
  "-DCMAKE_EXE_LINKER_FLAGS=-Wl,--wrap=spvgen_module_finish" \
  "-DCMAKE_C_STANDARD_LIBRARIES=$PWD/build-dump/libdumpwrap.a" \
  "-DCMAKE_CXX_STANDARD_LIBRARIES=$PWD/build-dump/libdumpwrap.a" >/dev/null
cmake --build build-dump -j "$(nproc)"
SPVGEN_DUMP_DIR=$dir ctest --test-dir build-dump -j 2 "$@" || echo "[module-dump] some tests failed (see above)" >&2
ls "$dir" | sort > "$dir.txt"
echo "[module-dump] $(wc -l < "$dir.txt") distinct modules in $dir (list: $dir.txt)"
