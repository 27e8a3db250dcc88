#!/usr/bin/env bash
# ctest api_count_arguments: no C source passes a constant's id where spvgen_type_array or
# spvgen_type_array_strided take a count. Since 2026-11-26 those take the number of
# elements itself (spvgen_type_array_id / _strided_id take an id); an id passed as a
# count compiles (both are uint32_t) and builds an array as long as the id's number, so
# a call written against the old signature (spvgen_type_array(m, t, ek_u32(m, n))),
# merged from an older branch, is caught here. Usage: check_count_arguments.sh <source dir>.
set -euo pipefail
src=$1
cd "$src"
hits=$(grep -rnE --include='*.c' --include='*.h' --include='*.md' \
  'spvgen_type_array(_strided)?\([^;]*\b(ek_u32|spvgen_const_u32|spvgen_const_i32|spvgen_const_bits|spvgen_spec_const_u32|spvgen_spec_const_bits)\(' \
  emitters lib tools tests bench samples docs README.md 2>/dev/null | grep -v 'tests/scripts/check_count_arguments.sh' || true)
if [ -n "$hits" ]; then
  echo "FAIL: a constant's id passed as a count to spvgen_type_array / spvgen_type_array_strided"
  echo "(pass the number itself, or use spvgen_type_array_id / spvgen_type_array_strided_id):"
  echo "$hits"
  exit 1
fi
echo "no constant id is passed as an array count"
