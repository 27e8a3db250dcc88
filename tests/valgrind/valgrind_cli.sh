#!/usr/bin/env bash
# tests/valgrind/valgrind_cli.sh SPVGEN_CLI SOURCE_DIR — the CLI under valgrind memcheck:
# gemm and mlp emission, dis and val of a good module, val and dis of malformed files
# (truncated, garbage, a header-only module, the validator-crash repro), a usage error,
# and `spvgen devices` (the runner's instance and device on lavapipe in CI). Each must show no memory error and no
# definite or indirect leak; "possibly lost" and "still reachable" blocks are not
# counted (the Vulkan loader and Mesa keep some for the process's life).
# Suppressions (tests/valgrind/valgrind.supp) cover the Vulkan loader, Mesa/lavapipe and
# LLVM only, never spvgen's code. Exit 77 (skipped) when valgrind is not installed.
set -uo pipefail
cli=$1
src=$2
if ! command -v valgrind >/dev/null 2>&1; then
  echo "SKIP: valgrind is not installed (Debian: apt-get install valgrind; scripts/deps.sh does)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vg=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full
    --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect
    --track-origins=no --num-callers=30 --suppressions="$src/tests/valgrind/valgrind.supp"
    --gen-suppressions=all)
fail=0
check() { # expected-exit-status(es) description command...
  local want=$1 what=$2
  shift 2
  local t0=$SECONDS
  "${vg[@]}" --log-file="$tmp/vg.log" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local summary; summary=$(grep -E "ERROR SUMMARY|definitely lost|indirectly lost" "$tmp/vg.log" | sed 's/^==[0-9]*== *//' | tr '\n' ';')
  if [ $rc = 99 ] || [ "${want#*$rc}" = "$want" ]; then
    echo "FAIL $what: exit $rc (expected $want): $summary"
    cat "$tmp/vg.log" | sed -n '1,400p'
    sed -n '1,20p' "$tmp/err"
    fail=1
  else
    echo "ok   $what ($((SECONDS - t0))s): $summary"
  fi
}

check 0 "gemm emission" "$cli" gemm --m 17 --n 19 --k 23 --types s8,s32,s32 --bias row --act relu -o "$tmp/g.spv"
check 0 "mlp emission" "$cli" mlp --in 3 --hidden 32x2 --out 4 --encoding freq:2 -o "$tmp/m.spv"
check 0 "dis" "$cli" dis "$tmp/g.spv"
check 0 "val" "$cli" val "$tmp/m.spv"
head -c 1000 "$tmp/g.spv" > "$tmp/truncated.spv"
check 1 "val of a truncated module" "$cli" val "$tmp/truncated.spv"
check 01 "dis of a truncated module (a cut at an instruction boundary decodes)" "$cli" dis "$tmp/truncated.spv"
printf '\003\002\043\007\000\006\001\000\000\000\000\000\377\377\377\377\000\000\000\000' > "$tmp/header.spv"
check 1 "val of a header with bound 0xFFFFFFFF" "$cli" val "$tmp/header.spv"
head -c 4096 /dev/urandom > "$tmp/garbage.spv"
check 1 "val of random bytes" "$cli" val "$tmp/garbage.spv"
check 1 "dis of random bytes" "$cli" dis "$tmp/garbage.spv"
printf 'abc' > "$tmp/odd.spv"
check 1 "val of a 3-byte file" "$cli" val "$tmp/odd.spv"
if [ -f "$src/tests/data/fuzz-corpus/fuzz_spirv/regression-validator-crash-coopvec-scalar-input.spv" ]; then
  check 1 "val of the validator-crash repro" "$cli" val "$src/tests/data/fuzz-corpus/fuzz_spirv/regression-validator-crash-coopvec-scalar-input.spv"
fi
check 2 "a usage error" "$cli" gemm --m 0
# The runner on the first device (lavapipe here): instance, device and queries, no kernel.
# Running a kernel is not practical under valgrind on lavapipe: the driver compiles it with
# LLVM, and an 8x8x8 GEMM ran into the runner's 60 s submission timeout after 4 minutes.
# SPVGEN_VALGRIND_RUN=1 adds one (on a GPU it is quick).
check 0 "devices (the runner's instance and device, enumerated and destroyed)" "$cli" devices
if [ "${SPVGEN_VALGRIND_RUN:-0}" = 1 ]; then
  check 0 "run gemm on the first device" "$cli" run gemm --m 17 --n 19 --k 23 --repeats 1 --warmup 0
fi
exit $fail
