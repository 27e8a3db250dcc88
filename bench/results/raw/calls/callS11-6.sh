#!/bin/bash
# Call S11-6: where a packed plan's time goes. 3000^3 f16->f32 on the packed 128x192x64 u1
# plan ran at 0.247 ms where the same tile on the aligned 3072x3072x3008 runs 0.184 ms
# (sessions 10, 11). Rows: the whole plan, the pack kernel alone (SPVGEN_TIME_KERNEL=pack),
# the main kernel alone (=main), pack units 1/2/4, the branch store, and the aligned
# 3072^3 with and without packing as the control. `spvgen run gemm ... --sample 256
# --repeats 20`, each row from empty caches.
# References: cuBLAS (gemm_anchor.py) in the same call; first compiles: each row's
# `pipeline` line (empty driver and spvgen caches per row).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
B=${1:-build-gpu}
. scripts/gpu-env.sh
gpu_env_vulkan callS11-6 > /dev/null || exit 1
O=${OUT:-/tmp/callS11-6}/s11-6; mkdir -p "$O"
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/smi.txt"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d); }
row() { # TIMED_KERNEL args...
  fresh
  local tk=$1; shift
  echo "== [time: ${tk:-plan}] $*" >> "$O/gemm.txt"
  SPVGEN_TIME_KERNEL=$tk timeout 60 stdbuf -oL "$B/tools/spvgen" run gemm "$@" --sample 256 --repeats 20 >> "$O/gemm.txt" 2>&1
  echo "rc=$?" >> "$O/gemm.txt"
}
P="--variant coopmat2 --tile 128x192x64 --unroll 1"
for t in f16,f32 f16,f16; do
  for tk in "" pack main; do row "$tk" --m 3000 --n 3000 --k 3000 --types $t $P --pack ab; done
  for u in 2 4; do row pack --m 3000 --n 3000 --k 3000 --types $t $P --pack ab --pack-units $u; done
  row "" --m 3000 --n 3000 --k 3000 --types $t $P --pack ab --edge branch
  row "" --m 3072 --n 3072 --k 3072 --types $t $P --pack ab
  row main --m 3072 --n 3072 --k 3072 --types $t $P --pack ab
  row "" --m 3072 --n 3072 --k 3072 --types $t $P --pack none
  row "" --m 3072 --n 3072 --k 3008 --types $t $P --pack none
done
row "" --m 4097 --n 4095 --k 4093 --types f16,f32
row pack --m 4097 --n 4095 --k 4093 --types f16,f32
row "" --m 3000 --n 3000 --k 3000 --types f16,f32
unset XDG_CACHE_HOME __GL_SHADER_DISK_CACHE_PATH
timeout 90 python3 "$B/anchors/gemm_anchor.py" 3000,3000,3000 3072,3072,3072 4097,4095,4093 > "$O/gemm-anchor.txt" 2>&1
echo "done in $((SECONDS - T0)) s" >> "$O/gemm.txt"
cd "$O/.." && tar czf s11-6.tgz s11-6 && rm -rf s11-6
