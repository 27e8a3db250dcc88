#!/usr/bin/env bash
# scripts/tune-shapes.sh — tune a list of GEMM shapes and types on this machine's device
# into one tune cache, then export its entries: the recorded run that
# lib/tune/builtin.txt (the compiled-in defaults) is made from. docs/tune.md.
#
#   scripts/tune-shapes.sh [--spvgen BIN] [--cache FILE] [--export FILE] [--budget SEC]
#                          [--shapes "M,N,K;..."] [--types "AB,ACC;..."] [-- extra tune flags]
#
# Defaults: build/tools/spvgen (or build-gpu/tools/spvgen), cache ${OUT:-/tmp}/tune-run.txt,
# export ${OUT:-/tmp}/tune-entries.txt, 120 s per tuning, the benchmark shapes of
# bench/gemm.c and the types f16,f32;f16,f16;s8,s32. Each tuning prints its table; one
# "tune-summary" line per tuning goes to stdout at the end. Runs already in the cache are
# tuned again (split a long list over several calls with the same --cache).
# Then, on the development machine:
#   tools/gen_tune_builtin.py --merge tune-entries.txt lib/tune/builtin.txt
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
spvgen=""
for b in build-gpu/tools/spvgen build/tools/spvgen; do [ -x "$b" ] && { spvgen=$b; break; }; done
cache=${OUT:-/tmp}/tune-run.txt
export_to=${OUT:-/tmp}/tune-entries.txt
budget=120
shapes="8192,8192,8192;4096,4096,4096;3000,3000,3000;1000,1000,1000;512,512,512;8192,256,4096;256,8192,4096;16384,128,4096;128,16384,4096"
types="f16,f32;f16,f16;s8,s32"
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --spvgen) spvgen=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --export) export_to=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --shapes) shapes=$2; shift 2 ;;
    --types) types=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "tune-shapes: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$spvgen" ] && [ -x "$spvgen" ] || { echo "tune-shapes: no spvgen binary (--spvgen BIN)" >&2; exit 1; }
summary=()
rc=0
IFS=';' read -r -a shape_list <<<"$shapes"
IFS=';' read -r -a type_list <<<"$types"
for s in "${shape_list[@]}"; do
  IFS=',' read -r m n k <<<"$s"
  for t in "${type_list[@]}"; do
    echo "== ${m}x${n}x${k} $t"
    log=$(mktemp)
    if "$spvgen" tune gemm --m "$m" --n "$n" --k "$k" --types "$t" --budget "$budget" --cache "$cache" \
        "${extra[@]}" 2>/dev/null | tee "$log"; then
      best=$(sed -n 's/^best     //p' "$log")
      summary+=("tune-summary ${m}x${n}x${k} $t: $best")
    else
      summary+=("tune-summary ${m}x${n}x${k} $t: FAILED")
      rc=1
    fi
    rm -f "$log"
  done
done
"$spvgen" tune export "$export_to" --cache "$cache" || rc=1
printf '%s\n' "${summary[@]}"
exit $rc
