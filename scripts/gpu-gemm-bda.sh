#!/usr/bin/env bash
# scripts/gpu-gemm-bda.sh — the device-address GPU tests on the GPU machine: the GEMM's
# (tests/gpu/test_gpu_gemm_bda.c), or with --mlp the MLP's (tests/gpu/test_gpu_mlp_bda.c):
# every test of the binary (`--list`) as its own process, in parallel, each with an empty
# driver cache, SPVGEN_GPU_REQUIRED=1 (a skip is a failure); prints one line per case
# ("gpu-case ... pass|FAIL") and per test ("PASS|FAIL name seconds"), then a verdict. Under
# a minute or two on an H100 (a few dozen small kernels; the GEMM's over-2^31 test writes
# a 4 GiB and a 2 GiB A from the host and runs 12 kernels over them, about 6 GB of device
# memory; its split-K test with C and D over 2^31 elements holds about 19 GB; the MLP's over-4 GB test evaluates 8.4 million points per variant in one 5 GiB
# buffer; its training tests run three steps of two or three networks per variant, whole
# and sub-allocated).
# With --speed, after the tests: the device-address form against descriptors, the same
# kernels timed with `spvgen run gemm` (median of 50 dispatches after a 300 ms warm-up)
# on a few ordinary shapes, one line per shape and variant ("gpu-speed ...").
#
#   here:  scripts/gpu-check --build        stages build-gpu/ and .gl/; carry both
#   there: bash scripts/gpu-gemm-bda.sh [--mlp] [--speed] [--build-dir DIR] [--timeout S]
# Exit status 0 when every test passed. Logs go to ${OUT:-/tmp}/gemm-bda/ (mlp-bda/).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build_dir=
limit=120
what=gemm
speed=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=${2:?--build-dir needs a directory}; shift ;;
    --timeout) limit=${2:?--timeout needs seconds}; shift ;;
    --mlp) what=mlp ;;
    --speed) speed=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "gpu-gemm-bda: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$build_dir" ]; then
  if [ -d build-gpu ]; then build_dir=build-gpu; else build_dir=build; fi
fi
bin=$build_dir/tests/gpu_test_gpu_${what}_bda
[ -x "$bin" ] || { echo "gpu-gemm-bda: no $bin (scripts/gpu-check --build, carry build-gpu)" >&2; exit 1; }
. scripts/gpu-env.sh
gpu_env_vulkan gpu-gemm-bda || exit 1
logs=${OUT:-/tmp}/$what-bda
mkdir -p "$logs"
export SPVGEN_GPU_REQUIRED=1
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mapfile -t names < <("$bin" --list)
for name in "${names[@]}"; do
  (cache=$(mktemp -d); s0=$SECONDS
   __GL_SHADER_DISK_CACHE_PATH=$cache timeout "$limit" "$bin" "$name" > "$logs/$name.log" 2>&1
   rc=$?; rm -rf "$cache"
   echo "$rc $((SECONDS - s0))" > "$logs/$name.rc") &
done
wait
fails=0
for name in "${names[@]}"; do
  read -r rc secs < "$logs/$name.rc"
  grep -E '^gpu-(case|note)' "$logs/$name.log"
  if [ "$rc" = 0 ] && grep -qE '^[0-9]+ passed, 0 failed$' "$logs/$name.log"; then
    echo "PASS $name ${secs}s"
  else
    fails=$((fails + 1))
    echo "FAIL $name ${secs}s (exit $rc):"
    grep -E '^(FAIL|SKIP)' "$logs/$name.log" | head -20 | sed 's/^/    /'
    tail -3 "$logs/$name.log" | sed 's/^/    /'
  fi
done
echo "gpu-$what-bda: $((${#names[@]} - fails)) of ${#names[@]} tests passed"
if [ "$speed" = 1 ]; then
  # Each workgroup moves its pointers to its batch and tile once, before the K loop; this
  # is how much that (and the pointers in push constants) costs against descriptors.
  cli=$build_dir/tools/spvgen
  [ -x "$cli" ] || { echo "gpu-gemm-bda: no $cli for --speed" >&2; exit 1; }
  while read -r shape; do
    for variant in coopmat2 khr; do
      line="gpu-speed $variant $shape:"
      for addressing in descriptors device-address; do
        # shellcheck disable=SC2086
        out=$("$cli" run gemm $shape --variant "$variant" --addressing "$addressing" --repeats 50 \
                --warmup-ms 300 --sample 4096 2>&1)
        ms=$(printf '%s\n' "$out" | sed -n 's/^gpu *\([0-9.]*\) ms median.*/\1/p' | head -1)
        line="$line $addressing ${ms:-?} ms"
        [ -n "$ms" ] || printf '%s\n' "$out" | tail -3 | sed 's/^/    /' >&2
      done
      echo "$line"
    done
  done <<'SHAPES'
--m 4096 --n 4096 --k 4096
--m 8192 --n 8192 --k 8192
--m 4096 --n 4096 --k 4096 --batch 4
--m 4000 --n 3000 --k 2000
--m 64 --n 4096 --k 4096
--m 2048 --n 2048 --k 2048 --shapes runtime --ld-multiple 8
SHAPES
fi
[ "$fails" = 0 ]
