#!/usr/bin/env bash
# ctest grammar_generated_fresh: the committed generated files (include/spvgen/ops.h,
# lib/core/gen/) are exactly what tools/gen_grammar.py writes from the pinned SPIR-V
# grammar. Usage: check_generated.sh <source dir> <pinned spirv/unified1 dir>.
# Exit 77 (skipped) when the pinned grammar is not on this machine (scripts/deps.sh
# downloads it; a system-dependencies build may lack it); 1 on any difference.
set -euo pipefail
src=$1
grammar=${2:-}
if [ -z "$grammar" ] || [ ! -f "$grammar/spirv.core.grammar.json" ]; then
  echo "skipped: the pinned SPIR-V grammar is not here (SPVGEN_PINNED_GRAMMAR_DIR='$grammar'; scripts/deps.sh downloads it)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$src/tools/gen_grammar.py" --grammar "$grammar/spirv.core.grammar.json" \
  --glsl "$grammar/extinst.glsl.std.450.grammar.json" --out "$tmp/gen" --header-dir "$tmp/include"
status=0
for f in gen/ops.c gen/grammar_tables.c gen/sg_kinds.h include/ops.h; do
  case $f in
    gen/*) committed="$src/lib/core/$f" ;;
    include/*) committed="$src/include/spvgen/${f#include/}" ;;
  esac
  if ! cmp -s "$tmp/$f" "$committed"; then
    echo "FAIL: $committed differs from a regeneration from the pinned grammar (build the target regen_grammar and commit):"
    diff -u "$committed" "$tmp/$f" | head -n 40 || true
    status=1
  fi
done
[ $status = 0 ] && echo "generated files match the pinned grammar ($grammar)"
exit $status
