#!/usr/bin/env bash
# scripts/gpu-gemm.sh — the GEMM shapes benchmark (bench/gemm_shapes.c) on the GPU machine
# in one run of at most about 8 minutes: per shape and plan or knob variant the driver's
# first compile (the driver's shader cache pointed at an empty directory), the GPU time
# (median after a sustained warm-up, repeated until two medians agree within 3 %) and
# TFLOP/s, cuBLAS beside when the anchor script is there; then the compile-time matrix
# (variant x tile x unroll x edge mode).
#
#   here:  scripts/gpu-check --build         stages build-gpu/ (bench_gemm_shapes with it)
#                                            and .gl/ (the Vulkan loader); carry both
#   there: bash scripts/gpu-gemm.sh [--anchor PATH] [--no-anchor] [--set S] [--deadline-s S]
#
#   --anchor PATH     cuBLAS references from PATH (gemm_anchor.py, torch); default:
#                     shared/anchors/gemm_anchor.py when it exists
#   --no-anchor       none
#   --set S           bench_gemm_shapes --set (default targets,prompt,compile)
#   --deadline-s S    rows that would start later are skipped (default 420)
#   --build-dir DIR   binaries from DIR (default build-gpu, else build)
# The table goes to stdout and ${OUT:-/tmp}/gpu-gemm.log.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

anchor=
[ -f shared/anchors/gemm_anchor.py ] && anchor=shared/anchors/gemm_anchor.py
set_arg=targets,prompt,compile
deadline=420
build_dir=
while [ $# -gt 0 ]; do
  case "$1" in
    --anchor) anchor=${2:?--anchor needs a path}; shift ;;
    --no-anchor) anchor= ;;
    --set) set_arg=${2:?--set needs a value}; shift ;;
    --deadline-s) deadline=${2:?--deadline-s needs seconds}; shift ;;
    --build-dir) build_dir=${2:?--build-dir needs a directory}; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "gpu-gemm: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ -z "$build_dir" ]; then
  if [ -d build-gpu ]; then build_dir=build-gpu; else build_dir=build; fi
fi
bin=$build_dir/bench/bench_gemm_shapes
[ -x "$bin" ] || { echo "gpu-gemm: no $bin (build with scripts/gpu-check --build and carry build-gpu)" >&2; exit 1; }

# The NVIDIA machine has the driver but no Vulkan loader: unpack the one carried in .gl/
# (as scripts/gpu-check does; docs/gpu.md).
if [ -d /usr/local/nvidia ]; then
  shopt -s nullglob
  debs=(.gl/*.deb)
  [ ${#debs[@]} -gt 0 ] || { echo "gpu-gemm: .gl/ has no Vulkan loader packages (scripts/gpu-check --build here)" >&2; exit 1; }
  for f in "${debs[@]}"; do dpkg -x "$f" / || exit 1; done
  ldconfig
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi

# Cold compiles: an empty shader cache for this run only.
__GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
export __GL_SHADER_DISK_CACHE_PATH

out_dir=${OUT:-/tmp}
mkdir -p "$out_dir"
log=$out_dir/gpu-gemm.log
args=(--set "$set_arg" --deadline-s "$deadline")
[ -n "$anchor" ] && [ -f "$anchor" ] && args+=(--anchor "$anchor")
echo "== spvgen gpu-gemm $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n): $bin ${args[*]}" | tee "$log"
timeout $((deadline + 90)) "$bin" "${args[@]}" 2>&1 | tee -a "$log"
rc=${PIPESTATUS[0]}
echo "== exit $rc; log $log" | tee -a "$log"
exit "$rc"
