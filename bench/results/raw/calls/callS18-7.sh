#!/bin/bash
# Raw: bench/results/raw/gpu-2026-11-28-s18/callS18-7/ (card and driver in smi.txt)
# First compiles: every process starts with an empty driver and spvgen cache (its "pipeline" / "driver compile" line)
# References: cuBLAS (gemm_anchor.py 4096,4096,4096) and torch eager / torch.compile (mlp_anchor_net.py, the same network and points), this call
# Call S18-7 (the final build): `run gemm` and `run mlp` print the shader clock right after
# their timing. Each command twice, the second after 3 s idle (the clock's fall).
set -u
cd "$(dirname "$0")/../../../.." || exit 1
O=${OUT:-/tmp/s18-7}; mkdir -p "$O"
T0=$SECONDS
. scripts/gpu-env.sh
gpu_env_vulkan callS18-7 > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/smi.txt"
B=build-gpu
fresh() { XDG_CACHE_HOME=$(mktemp -d) __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d) "$@"; }
NET="--in 32 --hidden 64x3 --out 16 --act silu"
for k in 1 2; do
  { echo "== run gemm 4096^3 f16->f32 ($k)"; fresh timeout 60 $B/tools/spvgen run gemm --m 4096 --n 4096 --k 4096 --types f16,f32 --sample 4096 --repeats 20; echo "rc=$?"
    echo "== run mlp $NET, 4194304 points ($k)"; fresh timeout 90 $B/tools/spvgen run mlp $NET --points 4194304 --sample 4096; echo "rc=$?"; } >> "$O/runs.txt" 2>&1
  sleep 3
done
grep -E "^==|^plan|^pipeline|^emit|^gpu|^clock|^check|^note|rc=" "$O/runs.txt" | cut -c1-200
printf 'net\t%s\t4194304\n' "$NET" > "$O/nets.tsv"
timeout 150 python3 bench/anchors/mlp_anchor_net.py --nets "$O/nets.tsv" --time-cap 140 > "$O/mlp-anchor.txt" 2>&1; grep -E "^anchor" "$O/mlp-anchor.txt"
rm -f "$O/nets.tsv"
timeout 60 python3 $B/anchors/gemm_anchor.py 4096,4096,4096 > "$O/gemm-anchor.txt" 2>&1; tail -1 "$O/gemm-anchor.txt"
echo "total $((SECONDS - T0)) s"
