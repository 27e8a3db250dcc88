#!/bin/bash
# Call S7-P (session 7): the pack kernel of 16-byte units (issue 24 item 3; docs/design-notes.md,
# "Packed operands", "The pack kernel in 16-byte units"). The packed default plans of
# 4097x4095x4093 f16->f32, f16->f16 and s8, and 1999x3584x3581 nt f16->f32 (K 3581: A's rows
# are off 16 bytes, so AUTO packs both), each whole (the "gpu" line) and its pack kernel
# alone (SPVGEN_TIME_KERNEL=pack: the "SPVGEN_TIME_KERNEL" line gives its median; the gpu
# line's rate is then not the plan's), at pack_units 1 (the default), 2 and 4 for f16->f32;
# 4097x4095x4093 f16->f32 coopmat2 unpacked for reference; cuBLAS (gemm_anchor.py) on the
# same shapes. Every row from an empty driver cache and an empty spvgen cache: the
# "pipeline" line is each kernel's first compile (pack + main).
# Before (call S7-1, H200): the element-by-element pack kernel, 4097x4095x4093 f16->f32
# packed 0.618 ms whole. Rows O*: the same plans with the binary before the change
# (build-gpu/spvgen-oldgemm, main fc96115) in this call.
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=build-gpu
. scripts/gpu-env.sh
gpu_env_vulkan callS7-P || exit 1
O=${OUT:-/tmp/callS7-P}; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
row() { # label, args... (PACK_ONLY=1: SPVGEN_TIME_KERNEL=pack)
  local l=$1; shift
  export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
  echo "== $l: $*" >> "$O/rows.txt"
  if [ "${PACK_ONLY:-0}" = 1 ]; then
    SPVGEN_TIME_KERNEL=pack timeout 60 "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/rows.txt" 2>&1
  else
    timeout 60 "${BIN:-$B/tools/spvgen}" run gemm "$@" --sample 256 --repeats 20 >> "$O/rows.txt" 2>&1
  fi
  echo "rc=$?" >> "$O/rows.txt"
  echo "$l done ($((SECONDS - T0)) s)"
}
O4="--m 4097 --n 4095 --k 4093"
NT="--m 1999 --n 3584 --k 3581 --layout nt"
# the plans, whole
# the same rows with the binary before this change (main fc96115: the element-wise pack
# kernel), where build-gpu/spvgen-oldgemm exists: the same-call A/B
if [ -x "$B/spvgen-oldgemm" ]; then
  BIN=$B/spvgen-oldgemm row O1-old-f32 $O4 --types f16,f32
  BIN=$B/spvgen-oldgemm row O5-old-s8  $O4 --types s8,s32
  BIN=$B/spvgen-oldgemm row O6-old-nt  $NT --types f16,f32
fi
row P1-f32      $O4 --types f16,f32
row P2-f32-u2   $O4 --types f16,f32 --pack-units 2
row P3-f32-u4   $O4 --types f16,f32 --pack-units 4
row P4-f16      $O4 --types f16,f16
row P5-s8       $O4 --types s8,s32
row P6-nt       $NT --types f16,f32
row P7-unpacked $O4 --types f16,f32 --pack none --variant coopmat2
# the pack kernel alone
PACK_ONLY=1 row K1-f32      $O4 --types f16,f32
PACK_ONLY=1 row K2-f32-u2   $O4 --types f16,f32 --pack-units 2
PACK_ONLY=1 row K3-f32-u4   $O4 --types f16,f32 --pack-units 4
PACK_ONLY=1 row K4-s8       $O4 --types s8,s32
PACK_ONLY=1 row K5-nt       $NT --types f16,f32
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
grep -E '^== |^plan|^pipeline|^gpu|^check|^pack |SPVGEN_TIME_KERNEL|rc=|rror|refus' "$O/rows.txt" | cut -c1-200
timeout 60 python3 "$B/anchors/gemm_anchor.py" 4097,4095,4093 1999,3584,3581 > "$O/gemm-anchor.txt" 2>&1
echo "gemm anchor rc=$?"; cat "$O/gemm-anchor.txt"
echo "done in $((SECONDS - T0)) s"
