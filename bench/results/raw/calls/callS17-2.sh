#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-27-s17/callS17-2/ (card and driver in smi.txt)
# First compiles: every `run gemm` process starts with an empty driver and spvgen cache (its pipeline line is a first compile); bench_bandwidth's kernels are trivial
# References: cuBLAS (gemm_anchor.py, every shape of part B), this call
# Call S17-2 (H100: issue 24's compile target is stated for it): (A) the memory ceiling of
# a plain kernel (bench_bandwidth, the grid fixed after S17-1). (B) first compile against
# speed for the issue's default shapes: the default plan, smaller tiles and unrolls, and
# the driver kept from unrolling the K loop (--codegen n, DontUnroll).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s17-2}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS17-2 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
B=build-gpu
# A
timeout 150 $B/bench/bench_bandwidth --mb 1024 --nontemporal off --warmup-ms 200 > "$O/A-bandwidth.txt" 2>&1
echo "A rc=$? $((SECONDS - T0)) s"
for m in write read copy; do sort -k7 -n -r "$O/A-bandwidth.txt" | awk -v m=$m '$1==m' | head -3; done
grep FAIL "$O/A-bandwidth.txt"
# B
ROWS=(
  "4096 4096 4096 --types f16,f16|"
  "4096 4096 4096 --types f16,f16|--tile 256x256x32 --unroll 1 --codegen n"
  "4096 4096 4096 --types f16,f16|--tile 128x256x32 --unroll 1"
  "4096 4096 4096 --types f16,f16|--tile 128x256x32 --unroll 2"
  "4096 4096 4096 --types f16,f16|--tile 128x256x32 --unroll 1 --codegen n"
  "4096 4096 4096 --types f16,f16|--tile 256x128x32 --unroll 1"
  "4096 4096 4096 --types f16,f16|--tile 128x128x64 --unroll 1"
  "8192 8192 8192 --types f16,f32|"
  "8192 8192 8192 --types f16,f32|--tile 128x256x32 --unroll 1"
  "8192 8192 8192 --types f16,f32|--tile 128x256x32 --unroll 1 --codegen n"
  "8192 8192 8192 --types f16,f32|--tile 128x256x32 --unroll 2 --codegen n"
  "8192 8192 8192 --types f16,f32|--tile 128x256x32 --unroll 4 --codegen n"
  "3000 3000 3000 --types f16,f32|"
  "3000 3000 3000 --types f16,f32|--variant coopmat2"
  "3000 3000 3000 --types f16,f32|--variant coopmat2 --tile 128x128x64 --unroll 1 --codegen n"
  "2048 3584 3584 --types f16,f32 --layout nt|"
  "2048 3584 3584 --types f16,f32 --layout nt|--tile 128x128x64 --unroll 1 --codegen n"
  "257 3584 3584 --types f16,f32 --layout nt|"
  "257 3584 3584 --types f16,f32 --layout nt|--tile 128x128x64 --unroll 1 --edge shift --codegen n"
  "4097 4095 4093 --types f16,f32|"
  "4097 4095 4093 --types f16,f32|--tile 128x256x32 --unroll 1 --edge clamp --pack ab --codegen n"
)
for r in "${ROWS[@]}"; do
  shape=${r%%|*}; knobs=${r#*|}
  set -- $shape; sh="--m $1 --n $2 --k $3"; tag="$1x$2x$3"; shift 3; rest="$*"
  { echo "== B $tag $rest $knobs"; fresh timeout 60 $B/tools/spvgen run gemm $sh $rest $knobs --sample 4096 --repeats 20 --stats 2>&1; echo "rc=$?"; } > "$O/cur.txt"
  cat "$O/cur.txt" >> "$O/B-compile.txt"
  printf 'B %-16s %-22s %-32s %s\n' "$tag" "$rest" "${knobs:-default}" "$(grep -E '^(plan|gpu|pipeline)|rc=[^0]' "$O/cur.txt" | sed -e 's/(the driver.s compile; the plan estimated/est/' -e 's/median of 20.*submissions[^)]*)//' -e 's/^plan *//' | cut -c1-70 | tr '\n' ' ')"
done
rm -f "$O/cur.txt"
echo "B done $((SECONDS - T0)) s"
timeout 90 python3 $B/anchors/gemm_anchor.py 4096,4096,4096 8192,8192,8192 3000,3000,3000 2048,3584,3584 257,3584,3584 4097,4095,4093 > "$O/gemm-anchor.txt" 2>&1
tail -6 "$O/gemm-anchor.txt"
echo "total $((SECONDS - T0)) s"
