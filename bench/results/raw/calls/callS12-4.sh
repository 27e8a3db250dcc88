#!/bin/bash
# Call S12-4: where the short-K GEMM's time goes (the MLP layers variant's 256->256 layer
# ran 182 TFLOP/s at best against cuBLAS's 453 in call S12-3, moving 1 GB in 0.75 ms: neither
# compute- nor bandwidth-bound). coopmat2 128x128x32 u1 FIXED, nt, M 1,048,576 unless the
# row says: the epilogue removed, f32 out, K 64 / 1024, N 64, f16 accumulation, M x4;
# --stats on the baseline (registers, shared memory). Each row its own process with empty
# caches (first compiles: `pipeline`). References: cuBLAS (gemm_anchor.py) of the same
# shapes in this call (plain a @ b).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
R=${OUT:-/tmp}; O=/tmp/s12-4; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS12-4 > /dev/null || exit 1
B=build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
row() {
  local name=$1; shift
  ( export XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
    timeout 60 "$B/tools/spvgen" run gemm --layout nt --variant coopmat2 --sample 4096 --repeats 20 "$@" > "$O/$name.txt" 2>&1
    echo "rc=$?" >> "$O/$name.txt" )
  printf '%-22s %s | %s\n' "$name" "$(grep -m1 -E '^plan' "$O/$name.txt" | cut -c10-80)" \
    "$(grep -E '^(gpu|pipeline|check)|rc=' "$O/$name.txt" | cut -c1-100 | tr '\n' ' ')"
}
E="--bias column --act relu"
row base       --m 1048576 --n 256 --k 256 --types f16,f32,f16 --tile 128x128x32 $E --stats
row noepi      --m 1048576 --n 256 --k 256 --types f16,f32,f16 --tile 128x128x32
row bias       --m 1048576 --n 256 --k 256 --types f16,f32,f16 --tile 128x128x32 --bias column
row relu       --m 1048576 --n 256 --k 256 --types f16,f32,f16 --tile 128x128x32 --act relu
row f32out     --m 1048576 --n 256 --k 256 --types f16,f32 --tile 128x128x32
row f16acc     --m 1048576 --n 256 --k 256 --types f16,f16 --tile 128x128x32 $E
row k64        --m 1048576 --n 256 --k 64 --types f16,f32,f16 --tile 128x128x32 $E
row k1024      --m 1048576 --n 256 --k 1024 --types f16,f32,f16 --tile 128x128x32 $E
row k1024-256  --m 1048576 --n 256 --k 1024 --types f16,f32,f16 --tile 128x256x32 $E
row n64        --m 1048576 --n 64 --k 256 --types f16,f32,f16 --tile 128x64x64 $E
row m4x        --m 4194304 --n 256 --k 256 --types f16,f32,f16 --tile 128x128x32 $E
row wg128      --m 1048576 --n 256 --k 256 --types f16,f32,f16 --tile 128x128x32 --wg 128 $E
row 256x256    --m 1048576 --n 256 --k 256 --types f16,f32,f16 --tile 256x256x32 $E
row base-again --m 1048576 --n 256 --k 256 --types f16,f32,f16 --tile 128x128x32 $E
grep -A12 -i "^stat\|register\|shared" "$O/base.txt" | head -20
timeout 100 python3 $B/anchors/gemm_anchor.py 1048576,256,64 1048576,256,1024 1048576,64,256 4194304,256,256 2>&1 | tee "$O/anchor.txt"
tar czf "$R/s12-4.tgz" -C "$O" . ; echo "total $((SECONDS - T0)) s"
