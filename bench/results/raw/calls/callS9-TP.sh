#!/bin/bash
# Call S9-TP (session 9): transposed copies of 8-bit operands (desc.pack_order K;
# docs/design-notes.md, "Transposed copies of 8-bit operands"). s8->s32 at 2048x2048x4096,
# 4096^3, 4097x4095x4093 and 128x16384x4096 in every layout (A x B, n = row-major, t =
# column-major; nt = both operands K-contiguous):
#   AUTO  the new default: an 8-bit operand that is not K-contiguous is copied K-contiguous
#         by the pack kernel, the main kernel is the nt kernel;
#   OLD   the default before this change, pinned by its knobs (variant, tile, unroll, edge;
#         --pack none, or at 4097x4095x4093 the old --pack ab --pack-order same), so the
#         same kernel as session 8 measured (call S8-5: tn 1,703 ms, 169 TOP/s);
#   PACK  AUTO with SPVGEN_TIME_KERNEL=pack: the copy's own GPU time (the
#         "SPVGEN_TIME_KERNEL" line), then the whole plan once for the check.
# Each row from an empty driver and spvgen cache ('pipeline' lines: the first compile of
# each kernel). References: cuBLAS int8 (gemm_anchor.py, torch._int_mm, B column-major) on
# the four shapes, same call; the nt AUTO row of each shape (the kernel every layout now
# runs). Usage: bash bench/results/raw/calls/callS9-TP.sh [BUILD] (default build-gpu);
# results under $OUT (default /tmp/callS9-TP). About 4-5 minutes on an H100.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
O=${OUT:-/tmp/callS9-TP}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS9-TP > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt" 2>&1
row() { # label, args... (PACK_ONLY=1: SPVGEN_TIME_KERNEL=pack)
  local l=$1; shift
  [ $((SECONDS - T0)) -gt 320 ] && { echo "$l skipped (time)"; return; }
  export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  echo "== $l: $*" >> "$O/rows.txt"
  if [ "${PACK_ONLY:-0}" = 1 ]; then
    SPVGEN_TIME_KERNEL=pack timeout 40 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/rows.txt" 2>&1
  else
    timeout 40 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/rows.txt" 2>&1
  fi
  echo "rc=$?" >> "$O/rows.txt"
  echo "$l done ($((SECONDS - T0)) s)"
}
S="--types s8,s32"
# the old defaults' knobs (main a8f96eb's plans on the h100 preset, which this call's card
# matches), by shape and layout
old_knobs() { # shape layout
  case "$1 $2" in
    "4097x4095x4093 nn" | "4097x4095x4093 tn") echo "--tile 128x256x64 --unroll 1 --edge clamp --pack ab --pack-order same" ;;
    "4097x4095x4093 tt") echo "--tile 256x128x64 --unroll 1 --edge clamp --pack ab --pack-order same" ;;
    "128x16384x4096 tn") echo "--tile 128x128x64 --unroll 2 --pack none" ;;
    "128x16384x4096 "*) echo "--tile 128x128x128 --unroll 1 --pack none" ;;
    *) echo "--tile 256x128x64 --unroll 1 --pack none" ;;
  esac
}
for shape in 2048x2048x4096 4096x4096x4096 4097x4095x4093 128x16384x4096; do
  IFS=x read -r m n k <<< "$shape"
  D="--m $m --n $n --k $k"
  for lay in nt nn tn tt; do
    row "AUTO-$lay-$shape" $D --layout $lay $S
    [ $lay = nt ] && [ $shape != 4097x4095x4093 ] && continue
    PACK_ONLY=1 row "PACK-$lay-$shape" $D --layout $lay $S
    [ $lay = nt ] && continue
    row "OLD-$lay-$shape" $D --layout $lay $S --variant coopmat2 $(old_knobs $shape $lay)
  done
done
timeout 60 python3 "$B/anchors/gemm_anchor.py" 2048,2048,4096 4096,4096,4096 4097,4095,4093 128,16384,4096 \
  > "$O/gemm-anchor.txt" 2>&1
cat "$O/smi.txt"
grep -E "^== |^plan|^pack|^pipeline|^gpu|^SPVGEN_TIME_KERNEL|^check|^note|^rc=[^0]" "$O/rows.txt" | cut -c1-160
cat "$O/gemm-anchor.txt"
echo "done in $((SECONDS - T0)) s"
